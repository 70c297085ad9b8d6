/*
 * Unit tests for reuseport.c against the kernel: four SO_REUSEPORT listeners
 * on one loopback port, clients connecting, and where each connection lands.
 */
#include "unit.h"

#include "reuseport.c"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <unistd.h>

#define LISTENERS 4
#define CLIENTS 64

static int listeners[LISTENERS];
static struct sockaddr_in addr = { .sin_family = AF_INET };

static int listen_reuseport(void)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), one = 1;

	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *) &addr, sizeof(addr)) < 0 || listen(fd, CLIENTS) < 0) {
		perror("listen");
		exit(1);
	}
	return fd;
}

static void open_listeners(void)
{
	socklen_t len = sizeof(addr);

	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	addr.sin_port = 0;
	listeners[0] = listen_reuseport();
	/* The others join the first one's port. */
	getsockname(listeners[0], (struct sockaddr *) &addr, &len);
	for (int i = 1; i < LISTENERS; i++) {
		listeners[i] = listen_reuseport();
	}
}

/* Connects CLIENTS clients, then counts the connections each listener has queued (accepting them). */
static void connect_and_count(int counts[LISTENERS])
{
	int clients[CLIENTS];

	for (int c = 0; c < CLIENTS; c++) {
		clients[c] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (connect(clients[c], (struct sockaddr *) &addr, sizeof(addr)) < 0) {
			perror("connect");
			exit(1);
		}
	}
	for (int i = 0; i < LISTENERS; i++) {
		int fd;
		counts[i] = 0;
		while ((fd = accept(listeners[i], NULL, NULL)) >= 0) {
			counts[i]++;
			close(fd);
		}
	}
	for (int c = 0; c < CLIENTS; c++) {
		close(clients[c]);
	}
}

static void test_steers_to_the_served_listeners_only(void)
{
	uint32_t served[] = { 1, 3 };
	int counts[LISTENERS];

	CHECK_EQ_INT(rapier_reuseport_steer(listeners[0], served, 2, LISTENERS), 0);
	connect_and_count(counts);
	CHECK_EQ_INT(counts[0] + counts[2], 0);
	CHECK_EQ_INT(counts[1] + counts[3], CLIENTS);
	/* At random: both get some (the odds of not are 2^-63). */
	CHECK(counts[1] > 0 && counts[3] > 0);
}

static void test_one_served_listener_takes_all(void)
{
	uint32_t served[] = { 2 };
	int counts[LISTENERS];

	/* Set on another listener of the group: the program is the group's. */
	CHECK_EQ_INT(rapier_reuseport_steer(listeners[3], served, 1, LISTENERS), 0);
	connect_and_count(counts);
	CHECK_EQ_INT(counts[2], CLIENTS);
}

static void test_all_or_none_served_detaches(void)
{
	uint32_t all[] = { 0, 1, 2, 3 };
	int counts[LISTENERS];

	CHECK_EQ_INT(rapier_reuseport_steer(listeners[0], all, LISTENERS, LISTENERS), 0);
	connect_and_count(counts);
	/* The kernel's hash again: the four together took every connection, and more than one took some. */
	CHECK_EQ_INT(counts[0] + counts[1] + counts[2] + counts[3], CLIENTS);
	CHECK(counts[0] < CLIENTS && counts[1] < CLIENTS && counts[2] < CLIENTS && counts[3] < CLIENTS);
	/* Detaching with nothing attached, and with none served, is no error. */
	CHECK_EQ_INT(rapier_reuseport_steer(listeners[0], NULL, 0, LISTENERS), 0);
	CHECK_EQ_INT(rapier_reuseport_steer(listeners[0], NULL, 0, LISTENERS), 0);
}

/* What detach() falls back to before Linux 5.3: a program whose index is past the group's end. */
static void test_pass_through_program_leaves_the_hash(void)
{
	uint32_t served[] = { 0 };
	struct sock_filter pass = BPF_STMT(BPF_RET | BPF_K, 0xffffffff);
	int counts[LISTENERS];

	CHECK_EQ_INT(rapier_reuseport_steer(listeners[0], served, 1, LISTENERS), 0);
	CHECK_EQ_INT(attach(listeners[0], &pass, 1), 0);
	connect_and_count(counts);
	CHECK_EQ_INT(counts[0] + counts[1] + counts[2] + counts[3], CLIENTS);
	CHECK(counts[0] < CLIENTS && counts[1] < CLIENTS && counts[2] < CLIENTS && counts[3] < CLIENTS);
	CHECK_EQ_INT(rapier_reuseport_steer(listeners[0], NULL, 0, LISTENERS), 0);
}

static void test_limits(void)
{
	uint32_t *many = calloc(RAPIER_REUSEPORT_MAX_STEERED + 1, sizeof(uint32_t));
	int not_a_socket = open("/dev/null", O_RDONLY | O_CLOEXEC);

	/* The longest program the kernel takes: every entry once. */
	for (uint32_t i = 0; i <= RAPIER_REUSEPORT_MAX_STEERED; i++) {
		many[i] = i % LISTENERS;
	}
	CHECK_EQ_INT(rapier_reuseport_steer(listeners[0], many, RAPIER_REUSEPORT_MAX_STEERED, 5000), 0);
	CHECK_EQ_INT(rapier_reuseport_steer(listeners[0], many, RAPIER_REUSEPORT_MAX_STEERED + 1, 5000), -E2BIG);
	CHECK_EQ_INT(rapier_reuseport_steer(listeners[0], NULL, 0, 5000), 0);
	CHECK_EQ_INT(rapier_reuseport_steer(not_a_socket, many, 1, 2), -ENOTSOCK);
	close(not_a_socket);
	free(many);
}

int main(void)
{
	open_listeners();
	test_steers_to_the_served_listeners_only();
	test_one_served_listener_takes_all();
	test_all_or_none_served_detaches();
	test_pass_through_program_leaves_the_hash();
	test_limits();
	for (int i = 0; i < LISTENERS; i++) {
		close(listeners[i]);
	}
	return unit_finish("reuseport_test");
}
