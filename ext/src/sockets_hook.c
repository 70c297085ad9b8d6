/*
 * ext/sockets inside coroutines (see sockets_hook.h).
 *
 * A blocking socket stays blocking: its owner chose that mode, and
 * socket_get_option() or a fork must see it unchanged. Instead each call
 * first tries without waiting (MSG_DONTWAIT, or a zero-timeout poll()
 * before accept()), and only when the kernel would block does the
 * coroutine wait in the loop, at most the socket's own SO_RCVTIMEO or
 * SO_SNDTIMEO, after which the call fails with EAGAIN as the kernel's
 * would. A blocking send or MSG_WAITALL receive goes on until the whole
 * buffer is through, as it would in the kernel. A socket its owner made
 * non-blocking gets libc's answer, EAGAIN included.
 *
 * Descriptors are watched only while a coroutine waits (libhook.c does the
 * same): ext/sockets closes them itself. Its close() is rebound too, so
 * that closing a socket another coroutine waits on wakes that coroutine.
 */
#include "php_rapier.h"
#include "php_network.h"
#include "zend_exceptions.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "coroutine.h"
#include "dns.h"
#include "hook.h"
#include "libhook.h"
#include "plt.h"
#include "resolve.h"
#include "socket.h"
#include "sockets_hook.h"
#include "timer.h"

/* The socket's own timeout was not read yet; UINT64_MAX: it has none. */
#define DEADLINE_UNREAD 0

static bool may_yield(void)
{
	return rapier_hook_enabled(RAPIER_HOOK_SOCKETS) && rapier_coro_can_yield();
}

static bool would_block(int err)
{
	return err == EAGAIN || err == EWOULDBLOCK;
}

static bool is_blocking(int fd)
{
	int flags = fcntl(fd, F_GETFL);

	return flags >= 0 && !(flags & O_NONBLOCK);
}

/* When the wait for fd in direction ends: now plus SO_RCVTIMEO or SO_SNDTIMEO, or never. */
static uint64_t socket_deadline(int fd, uint32_t direction)
{
	struct timeval tv = { 0, 0 };
	socklen_t len = sizeof(tv);
	int option = direction == RAPIER_IO_READ ? SO_RCVTIMEO : SO_SNDTIMEO;

	if (getsockopt(fd, SOL_SOCKET, option, &tv, &len) != 0 || (tv.tv_sec == 0 && tv.tv_usec == 0)) {
		return UINT64_MAX;
	}
	return rapier_now_ns() + (uint64_t) tv.tv_sec * 1000000000 + (uint64_t) tv.tv_usec * 1000;
}

/*
 * Waits until fd is ready in direction, or the socket's timeout (read on
 * the first wait of a call into *deadline) passes. 0, or -1 with errno:
 * EAGAIN when the timeout passed, ECANCELED with CanceledException thrown,
 * EBUSY with Rapier\Exception thrown (another coroutine waits for it),
 * EBADF when it was closed meanwhile.
 */
static int await(int fd, uint32_t direction, uint64_t *deadline)
{
	uint64_t now = rapier_now_ns();
	int err;

	if (*deadline == DEADLINE_UNREAD) {
		*deadline = socket_deadline(fd, direction);
	}
	if (*deadline != UINT64_MAX && *deadline <= now) {
		errno = EAGAIN;
		return -1;
	}
	err = rapier_socket_wait(fd, direction, *deadline == UINT64_MAX ? -1 : (int64_t) (*deadline - now));
	if (err != -EBUSY) {
		rapier_socket_unwatch(fd);
	}
	if (err == 0) {
		return 0;
	}
	if (err == -ECANCELED && !EG(exception)) {
		zend_throw_exception_ex(rapier_ce_canceled_exception, 0,
			"Coroutine was canceled while waiting for socket fd %d (ext/sockets)", fd);
	} else if (err == -EBUSY) {
		zend_throw_exception_ex(rapier_ce_exception, 0,
			"Cannot %s socket fd %d: coroutine #" ZEND_LONG_FMT " is already %s it; use one socket per coroutine",
			direction == RAPIER_IO_READ ? "read from" : "write to", fd, rapier_socket_waiter_id(fd, direction),
			direction == RAPIER_IO_READ ? "reading from" : "writing to");
	}
	errno = err == -ETIMEDOUT ? EAGAIN : -err;
	return -1;
}

/* A receive that may wait: not MSG_DONTWAIT, and not the MSG_PEEK | MSG_WAITALL a loop cannot emulate. */
static bool may_wait_to_receive(int flags)
{
	return !(flags & MSG_DONTWAIT) && (flags & (MSG_PEEK | MSG_WAITALL)) != (MSG_PEEK | MSG_WAITALL)
		&& may_yield();
}

static bool is_stream(int fd)
{
	int type = 0;
	socklen_t len = sizeof(type);

	return getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) == 0 && type == SOCK_STREAM;
}

static ssize_t hooked_recvfrom(int fd, void *buf, size_t len, int flags, struct sockaddr *addr, socklen_t *addrlen)
{
	uint64_t deadline = DEADLINE_UNREAD;
	bool wait_all;
	size_t got = 0;

	if (!may_wait_to_receive(flags)) {
		return recvfrom(fd, buf, len, flags, addr, addrlen);
	}
	/* MSG_WAITALL means something only on a stream; the loop below does what the kernel would. */
	wait_all = (flags & MSG_WAITALL) && is_stream(fd);
	flags = (flags & ~MSG_WAITALL) | MSG_DONTWAIT;
	for (;;) {
		ssize_t n = recvfrom(fd, (char *) buf + got, len - got, flags, addr, addrlen);

		if (n > 0 && wait_all) {
			got += (size_t) n;
			if (got < len) {
				continue;
			}
			return (ssize_t) got;
		}
		if (n >= 0) {
			return wait_all ? (ssize_t) got : n;
		}
		if (!would_block(errno) || !is_blocking(fd) || await(fd, RAPIER_IO_READ, &deadline) != 0) {
			/* As the kernel's MSG_WAITALL: what arrived before an error is returned. */
			return got > 0 ? (ssize_t) got : -1;
		}
	}
}

static ssize_t hooked_recv(int fd, void *buf, size_t len, int flags)
{
	return hooked_recvfrom(fd, buf, len, flags, NULL, NULL);
}

static ssize_t hooked_recvmsg(int fd, struct msghdr *msg, int flags)
{
	uint64_t deadline = DEADLINE_UNREAD;

	/* MSG_WAITALL across a scatter list is left to the kernel (it blocks). */
	if (!may_wait_to_receive(flags) || (flags & MSG_WAITALL)) {
		return recvmsg(fd, msg, flags);
	}
	for (;;) {
		ssize_t n = recvmsg(fd, msg, flags | MSG_DONTWAIT);

		if (n >= 0 || !would_block(errno) || !is_blocking(fd) || await(fd, RAPIER_IO_READ, &deadline) != 0) {
			return n >= 0 ? n : -1;
		}
	}
}

static ssize_t hooked_sendto(int fd, const void *buf, size_t len, int flags, const struct sockaddr *addr,
	socklen_t addrlen)
{
	uint64_t deadline = DEADLINE_UNREAD;
	size_t sent = 0;

	if ((flags & MSG_DONTWAIT) || !may_yield()) {
		return sendto(fd, buf, len, flags, addr, addrlen);
	}
	for (;;) {
		ssize_t n = sendto(fd, (const char *) buf + sent, len - sent, flags | MSG_DONTWAIT, addr, addrlen);

		if (n >= 0) {
			/* A blocking send returns once all of it is queued (a datagram goes whole or not at all). */
			sent += (size_t) n;
			if (sent >= len) {
				return (ssize_t) sent;
			}
			continue;
		}
		if (!would_block(errno) || !is_blocking(fd) || await(fd, RAPIER_IO_WRITE, &deadline) != 0) {
			return sent > 0 ? (ssize_t) sent : -1;
		}
	}
}

static ssize_t hooked_send(int fd, const void *buf, size_t len, int flags)
{
	return hooked_sendto(fd, buf, len, flags, NULL, 0);
}

/* socket_write() writes with write(); on a socket that is send() without flags. */
static ssize_t hooked_write(int fd, const void *buf, size_t count)
{
	ssize_t n;

	if (!may_yield()) {
		return write(fd, buf, count);
	}
	n = hooked_sendto(fd, buf, count, 0, NULL, 0);
	return n < 0 && errno == ENOTSOCK ? write(fd, buf, count) : n;
}

/* Drops the first n bytes of msg's iovecs (which are a copy): after a partial sendmsg(). */
static void skip_sent(struct msghdr *msg, size_t n)
{
	while (msg->msg_iovlen > 0 && n >= msg->msg_iov[0].iov_len) {
		n -= msg->msg_iov[0].iov_len;
		msg->msg_iov++;
		msg->msg_iovlen--;
	}
	if (msg->msg_iovlen > 0) {
		msg->msg_iov[0].iov_base = (char *) msg->msg_iov[0].iov_base + n;
		msg->msg_iov[0].iov_len -= n;
	}
}

static ssize_t hooked_sendmsg(int fd, const struct msghdr *msg, int flags)
{
	uint64_t deadline = DEADLINE_UNREAD;
	struct msghdr rest;
	struct iovec *iov;
	size_t total = 0, sent = 0;
	ssize_t result;

	if ((flags & MSG_DONTWAIT) || !may_yield()) {
		return sendmsg(fd, msg, flags);
	}
	for (size_t i = 0; i < msg->msg_iovlen; i++) {
		total += msg->msg_iov[i].iov_len;
	}
	/* A copy of the iovecs, moved past what a partial send took. */
	iov = safe_emalloc(msg->msg_iovlen, sizeof(*iov), 0);
	memcpy(iov, msg->msg_iov, msg->msg_iovlen * sizeof(*iov));
	rest = *msg;
	rest.msg_iov = iov;
	for (;;) {
		ssize_t n = sendmsg(fd, &rest, flags | MSG_DONTWAIT);

		if (n >= 0) {
			sent += (size_t) n;
			if (sent >= total) {
				result = (ssize_t) sent;
				break;
			}
			/* Ancillary data goes with the first bytes only. */
			rest.msg_control = NULL;
			rest.msg_controllen = 0;
			skip_sent(&rest, (size_t) n);
			continue;
		}
		if (!would_block(errno) || !is_blocking(fd) || await(fd, RAPIER_IO_WRITE, &deadline) != 0) {
			result = sent > 0 ? (ssize_t) sent : -1;
			break;
		}
	}
	int saved = errno;
	efree(iov);
	errno = saved;
	return result;
}

static bool readable_now(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) > 0;
}

/*
 * accept() has no flag for "this call only, don't wait": the wait comes
 * first, then the call. A listening socket shared with another process may
 * still block here when that process takes the connection in between.
 */
static int hooked_accept(int fd, struct sockaddr *addr, socklen_t *addrlen)
{
	uint64_t deadline = DEADLINE_UNREAD;

	if (!may_yield() || !is_blocking(fd)) {
		return accept(fd, addr, addrlen);
	}
	while (!readable_now(fd)) {
		if (await(fd, RAPIER_IO_READ, &deadline) != 0) {
			return -1;
		}
	}
	return accept(fd, addr, addrlen);
}

/*
 * The connect is started non-blocking and the socket put back at once; the
 * coroutine then waits for it to finish. Past SO_SNDTIMEO it fails with
 * EINPROGRESS, as a blocking connect() does on Linux.
 */
static int hooked_connect(int fd, const struct sockaddr *addr, socklen_t addrlen)
{
	uint64_t deadline = DEADLINE_UNREAD;
	int flags, rc, err;
	socklen_t len = sizeof(err);

	if (!may_yield() || (flags = fcntl(fd, F_GETFL)) < 0 || (flags & O_NONBLOCK)
			|| fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0) {
		return connect(fd, addr, addrlen);
	}
	rc = connect(fd, addr, addrlen);
	err = errno;
	fcntl(fd, F_SETFL, flags);
	if (rc == 0) {
		return 0;
	}
	if (err == EAGAIN && addr->sa_family == AF_UNIX) {
		/* The listener's backlog is full: nothing to poll for, so wait as stock PHP does. */
		return connect(fd, addr, addrlen);
	}
	if (err != EINPROGRESS) {
		errno = err;
		return -1;
	}
	if (await(fd, RAPIER_IO_WRITE, &deadline) != 0) {
		if (errno == EAGAIN) {
			errno = EINPROGRESS;
		}
		return -1;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) {
		return -1;
	}
	if (err != 0) {
		errno = err;
		return -1;
	}
	return 0;
}

/* select()'s sets as the pollfds of the libhook wait; returns how many. */
static nfds_t select_to_poll(int nfds, const fd_set *rd, const fd_set *wr, const fd_set *ex, struct pollfd *fds)
{
	nfds_t count = 0;

	for (int fd = 0; fd < nfds; fd++) {
		short events = (rd && FD_ISSET(fd, rd) ? POLLIN : 0) | (wr && FD_ISSET(fd, wr) ? POLLOUT : 0)
			| (ex && FD_ISSET(fd, ex) ? POLLPRI : 0);

		if (events != 0) {
			fds[count++] = (struct pollfd) { .fd = fd, .events = events };
		}
	}
	return count;
}

/* Copies each of the three sets that is there. */
static void copy_sets(fd_set *rd, fd_set *wr, fd_set *ex, const fd_set *from_rd, const fd_set *from_wr,
	const fd_set *from_ex)
{
	if (from_rd != NULL) {
		*rd = *from_rd;
	}
	if (from_wr != NULL) {
		*wr = *from_wr;
	}
	if (from_ex != NULL) {
		*ex = *from_ex;
	}
}

/*
 * socket_select(): asked first without waiting; when nothing is ready, the
 * coroutine waits in the loop as in a hooked library's poll() (libhook.c),
 * then select() with a zero timeout fills the sets from the kernel.
 */
static int hooked_select(int nfds, fd_set *rd, fd_set *wr, fd_set *ex, struct timeval *timeout)
{
	struct timeval zero = { 0, 0 };
	fd_set rd0, wr0, ex0;
	struct pollfd *fds;
	int n, waited, ms;

	if (!may_yield() || (timeout && timeout->tv_sec == 0 && timeout->tv_usec == 0) || nfds < 0
			|| nfds > FD_SETSIZE) {
		return select(nfds, rd, wr, ex, timeout);
	}
	copy_sets(&rd0, &wr0, &ex0, rd, wr, ex);
	n = select(nfds, rd, wr, ex, &zero);
	if (n != 0) {
		return n;
	}
	fds = safe_emalloc(nfds > 0 ? nfds : 1, sizeof(*fds), 0);
	ms = timeout == NULL ? -1 : (int) MIN((uint64_t) timeout->tv_sec * 1000 + ((uint64_t) timeout->tv_usec + 999) / 1000,
		(uint64_t) INT_MAX);
	waited = rapier_libhook_sockets_poll(fds, select_to_poll(nfds, rd ? &rd0 : NULL, wr ? &wr0 : NULL,
		ex ? &ex0 : NULL, fds), ms);
	efree(fds);
	if (waited < 0) {
		return waited;
	}
	/* Also after the timeout: what became ready at the same moment is reported, as select() would. */
	copy_sets(rd, wr, ex, rd ? &rd0 : NULL, wr ? &wr0 : NULL, ex ? &ex0 : NULL);
	return select(nfds, rd, wr, ex, &zero);
}

/* Closing a socket another coroutine waits on wakes it (EBADF) instead of leaving it to wait for ever. */
static int hooked_close(int fd)
{
	int err = rapier_socket_close(fd);

	if (err != 0) {
		errno = -err;
		return -1;
	}
	return 0;
}

/* socket_connect() and socket_sendto() with an IPv6 host name, and socket_addrinfo_lookup(). */
static int hooked_getaddrinfo(const char *node, const char *service, const struct addrinfo *hints,
	struct addrinfo **res)
{
	if (!may_yield()) {
		return getaddrinfo(node, service, hints, res);
	}
	return rapier_resolve_addrinfo(node, service, hints, res, "looking up host");
}

/* socket_connect() and socket_sendto() with an IPv4 host name. */
static struct hostent *hooked_gethostbyname(const char *name)
{
	if (!may_yield() || strlen(name) > MAXFQDNLEN || rapier_ip_literal(name)) {
		return php_network_gethostbyname(name);
	}
	return rapier_dns_gethostbyname(name);
}

typedef struct {
	const char *symbol;
	void *replacement;
	rapier_plt_rebinding_t rebinding;
} sockets_import_t;

static sockets_import_t imports[] = {
	{ "recv", (void *) hooked_recv, { .count = 0 } },
	{ "recvfrom", (void *) hooked_recvfrom, { .count = 0 } },
	{ "recvmsg", (void *) hooked_recvmsg, { .count = 0 } },
	{ "send", (void *) hooked_send, { .count = 0 } },
	{ "sendto", (void *) hooked_sendto, { .count = 0 } },
	{ "sendmsg", (void *) hooked_sendmsg, { .count = 0 } },
	{ "write", (void *) hooked_write, { .count = 0 } },
	{ "accept", (void *) hooked_accept, { .count = 0 } },
	{ "connect", (void *) hooked_connect, { .count = 0 } },
	{ "select", (void *) hooked_select, { .count = 0 } },
	{ "close", (void *) hooked_close, { .count = 0 } },
	{ "getaddrinfo", (void *) hooked_getaddrinfo, { .count = 0 } },
	{ "php_network_gethostbyname", (void *) hooked_gethostbyname, { .count = 0 } },
};

void rapier_sockets_hook_install(void)
{
	for (size_t i = 0; i < sizeof(imports) / sizeof(imports[0]); i++) {
		/* Only a shared sockets.so: built into PHP, these imports would be PHP's own. */
		rapier_plt_rebind(&imports[i].rebinding, "sockets.so", imports[i].symbol, imports[i].replacement);
	}
}

void rapier_sockets_hook_mshutdown(void)
{
	for (size_t i = 0; i < sizeof(imports) / sizeof(imports[0]); i++) {
		rapier_plt_restore(&imports[i].rebinding);
	}
}
