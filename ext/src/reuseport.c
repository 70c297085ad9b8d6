/*
 * SO_ATTACH_REUSEPORT_CBPF: the program's return value is an index into the
 * group's array of sockets, and an index past its end makes the kernel fall
 * back to its hash. The array holds the listeners in the order they joined
 * (listen()); closing one moves the last into its place, which is why the
 * caller keeps every listener open for the group's life.
 *
 * The program loads a random number (SKF_AD_RANDOM: steering is per new
 * connection, so any uniform choice spreads load as the hash does), takes it
 * modulo the served count, and maps the result to a served index with one
 * compare-and-return per entry: classic BPF has no indexed table.
 *
 * Rejected: an eBPF SK_REUSEPORT program with a sockarray map (a bpf()
 * call, CAP_BPF on most systems, and a map to keep in sync, for the same
 * effect); closing the empty slot's listener (resets the connections in its
 * queue, and a new listener would join at the end of the array).
 */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include "reuseport.h"

#include <errno.h>
#include <linux/filter.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#ifndef SO_ATTACH_REUSEPORT_CBPF
# define SO_ATTACH_REUSEPORT_CBPF 51
#endif
#ifndef SO_DETACH_REUSEPORT_BPF
# define SO_DETACH_REUSEPORT_BPF 68
#endif

static int attach(int fd, struct sock_filter *code, unsigned short len)
{
	struct sock_fprog prog;

	/* Zeroed whole: the padding after len is passed to the kernel too, and valgrind reports it unset. */
	memset(&prog, 0, sizeof(prog));
	prog.len = len;
	prog.filter = code;
	return setsockopt(fd, SOL_SOCKET, SO_ATTACH_REUSEPORT_CBPF, &prog, sizeof(prog)) == 0 ? 0 : -errno;
}

/*
 * Back to the kernel's hash. SO_DETACH_REUSEPORT_BPF came with Linux 5.3;
 * before it, a program returning an index past the group's end does the
 * same (the kernel then falls back to its hash for every connection).
 */
static int detach(int fd)
{
	struct sock_filter pass = BPF_STMT(BPF_RET | BPF_K, 0xffffffff);
	int zero = 0;

	if (setsockopt(fd, SOL_SOCKET, SO_DETACH_REUSEPORT_BPF, &zero, sizeof(zero)) == 0 || errno == ENOENT) {
		return 0;
	}
	return errno == ENOPROTOOPT ? attach(fd, &pass, 1) : -errno;
}

int rapier_reuseport_steer(int fd, const uint32_t *served, uint32_t count, uint32_t total)
{
	struct sock_filter *code;
	uint32_t n = 0;
	int rc;

	if (count == 0 || count >= total) {
		return detach(fd);
	}
	if (count > RAPIER_REUSEPORT_MAX_STEERED) {
		return -E2BIG;
	}
	code = calloc(2 + 2 * (size_t) count, sizeof(*code));
	if (code == NULL) {
		return -ENOMEM;
	}
	code[n++] = (struct sock_filter) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SKF_AD_OFF + SKF_AD_RANDOM);
	code[n++] = (struct sock_filter) BPF_STMT(BPF_ALU | BPF_MOD | BPF_K, count);
	for (uint32_t i = 0; i + 1 < count; i++) {
		/* A == i: return served[i]; else skip that return. */
		code[n++] = (struct sock_filter) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, i, 0, 1);
		code[n++] = (struct sock_filter) BPF_STMT(BPF_RET | BPF_K, served[i]);
	}
	/* The remainder is count - 1 here. */
	code[n++] = (struct sock_filter) BPF_STMT(BPF_RET | BPF_K, served[count - 1]);
	rc = attach(fd, code, (unsigned short) n);
	free(code);
	return rc;
}
