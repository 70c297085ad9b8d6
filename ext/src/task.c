/*
 * Task channels (task.h): framing over a Unix stream socket.
 *
 * Reads append to one buffer and every whole frame in it is handed over
 * in place, then the rest moves to the front; a frame longer than the
 * limit ends the channel before its payload is buffered, so a broken or
 * hostile peer cannot make us allocate more than max_payload. Writes go
 * straight to the socket and only what the socket did not take is queued,
 * with write interest on until the queue is empty.
 */
#include "task.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define READ_CHUNK 65536

int rapier_task_listen(struct sockaddr_un *addr, socklen_t *len, int backlog)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	if (fd < 0) {
		return -errno;
	}
	/* Binding only the family asks the kernel for a unique abstract address (unix(7) "autobind"). */
	memset(addr, 0, sizeof(*addr));
	addr->sun_family = AF_UNIX;
	*len = sizeof(addr->sun_family);
	if (bind(fd, (struct sockaddr *) addr, *len) < 0 || listen(fd, backlog) < 0) {
		int rc = -errno;
		close(fd);
		return rc;
	}
	*len = sizeof(*addr);
	if (getsockname(fd, (struct sockaddr *) addr, len) < 0) {
		int rc = -errno;
		close(fd);
		return rc;
	}
	return fd;
}

int rapier_task_connect(const struct sockaddr_un *addr, socklen_t len)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	if (fd < 0) {
		return -errno;
	}
	/* A Unix connect completes at once; EAGAIN means the listener's backlog is full. */
	if (connect(fd, (const struct sockaddr *) addr, len) < 0) {
		int rc = -errno;
		close(fd);
		return rc;
	}
	return fd;
}

int rapier_task_listeners_open(rapier_task_listeners_t *set, unsigned count, int backlog)
{
	memset(set, 0, sizeof(*set));
	set->fds = malloc(count * sizeof(int));
	set->addrs = calloc(count, sizeof(struct sockaddr_un));
	set->lens = calloc(count, sizeof(socklen_t));
	if (set->fds == NULL || set->addrs == NULL || set->lens == NULL) {
		rapier_task_listeners_free(set);
		return -ENOMEM;
	}
	set->count = count;
	for (unsigned i = 0; i < count; i++) {
		set->fds[i] = -1;
	}
	for (unsigned i = 0; i < count; i++) {
		int fd = rapier_task_listen(&set->addrs[i], &set->lens[i], backlog);
		if (fd < 0) {
			rapier_task_listeners_free(set);
			return fd;
		}
		set->fds[i] = fd;
	}
	return 0;
}

int rapier_task_listeners_connect(const rapier_task_listeners_t *set, unsigned index)
{
	return index < set->count ? rapier_task_connect(&set->addrs[index], set->lens[index]) : -ENOENT;
}

int rapier_task_listeners_take(rapier_task_listeners_t *set, unsigned index)
{
	int fd;

	if (index >= set->count) {
		return -1;
	}
	fd = set->fds[index];
	set->fds[index] = -1;
	return fd;
}

void rapier_task_listeners_close(rapier_task_listeners_t *set, int keep)
{
	for (unsigned i = 0; i < set->count; i++) {
		if (set->fds[i] >= 0 && (int) i != keep) {
			close(set->fds[i]);
			set->fds[i] = -1;
		}
	}
}

void rapier_task_listeners_free(rapier_task_listeners_t *set)
{
	rapier_task_listeners_close(set, -1);
	free(set->fds);
	free(set->addrs);
	free(set->lens);
	memset(set, 0, sizeof(*set));
}

/* The next connection from a process of this user, or a negative errno (-EAGAIN: none left). */
static int accept_own(int listen_fd)
{
	for (;;) {
		int fd = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		struct ucred cred;
		socklen_t len = sizeof(cred);

		if (fd < 0) {
			return -errno;
		}
		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 && cred.uid == geteuid()) {
			return fd;
		}
		close(fd);
	}
}

static void on_acceptable(rapier_io_t *io, uint32_t events)
{
	rapier_task_acceptor_t *acceptor = io->data;
	int fd;

	(void) events;
	while (acceptor->io.fd >= 0 && (fd = accept_own(acceptor->io.fd)) >= 0) {
		acceptor->on_conn(acceptor, fd);
	}
}

void rapier_task_acceptor_init(rapier_task_acceptor_t *acceptor)
{
	memset(acceptor, 0, sizeof(*acceptor));
	acceptor->io.fd = -1;
}

void rapier_task_acceptor_start(rapier_task_acceptor_t *acceptor, rapier_loop_t *loop, int listen_fd,
	rapier_task_accept_fn on_conn, void *data)
{
	if (listen_fd < 0) {
		return;
	}
	acceptor->loop = loop;
	acceptor->on_conn = on_conn;
	acceptor->data = data;
	rapier_io_init(&acceptor->io, listen_fd, on_acceptable, acceptor);
	rapier_io_start(loop, &acceptor->io, RAPIER_IO_READ);
}

void rapier_task_acceptor_stop(rapier_task_acceptor_t *acceptor)
{
	if (acceptor->io.fd >= 0) {
		rapier_io_stop(acceptor->loop, &acceptor->io);
	}
	rapier_task_acceptor_close(acceptor);
}

void rapier_task_acceptor_close(rapier_task_acceptor_t *acceptor)
{
	if (acceptor->io.fd >= 0) {
		close(acceptor->io.fd);
		acceptor->io.fd = -1;
	}
}

static void on_io(rapier_io_t *io, uint32_t events);

void rapier_task_conn_open(rapier_task_conn_t *conn, rapier_loop_t *loop, int fd, size_t max_payload,
	rapier_task_frame_fn on_frame, rapier_task_close_fn on_close, void *data)
{
	memset(conn, 0, sizeof(*conn));
	conn->loop = loop;
	conn->max_payload = max_payload;
	conn->on_frame = on_frame;
	conn->on_close = on_close;
	conn->data = data;
	rapier_io_init(&conn->io, fd, on_io, conn);
	rapier_io_start(loop, &conn->io, RAPIER_IO_READ);
}

void rapier_task_conn_close(rapier_task_conn_t *conn)
{
	if (conn->io.fd < 0) {
		return;
	}
	rapier_io_stop(conn->loop, &conn->io);
	close(conn->io.fd);
	conn->io.fd = -1;
	free(conn->in);
	free(conn->out);
	conn->in = conn->out = NULL;
	conn->in_len = conn->in_cap = conn->out_len = conn->out_pos = conn->out_cap = 0;
}

void rapier_task_conn_set_unref(rapier_task_conn_t *conn, bool unref)
{
	rapier_io_set_unref(conn->loop, &conn->io, unref);
}

static void fail(rapier_task_conn_t *conn, int error)
{
	rapier_task_conn_close(conn);
	conn->on_close(conn, error);
}

static int reserve(char **buf, size_t *cap, size_t need)
{
	size_t cap2 = *cap ? *cap : 4096;
	char *grown;

	if (need <= *cap) {
		return 0;
	}
	while (cap2 < need) {
		cap2 *= 2;
	}
	grown = realloc(*buf, cap2);
	if (grown == NULL) {
		return -ENOMEM;
	}
	*buf = grown;
	*cap = cap2;
	return 0;
}

/* Writes what the socket takes; 0 (maybe with bytes still queued) or a negative errno. */
static int flush(rapier_task_conn_t *conn)
{
	while (conn->out_pos < conn->out_len) {
		ssize_t n = write(conn->io.fd, conn->out + conn->out_pos, conn->out_len - conn->out_pos);
		if (n < 0) {
			if (errno == EINTR) {
				continue;
			}
			return errno == EAGAIN ? 0 : -errno;
		}
		conn->out_pos += (size_t) n;
	}
	conn->out_len = conn->out_pos = 0;
	return 0;
}

static void update_interest(rapier_task_conn_t *conn)
{
	uint32_t events = (conn->paused ? 0 : RAPIER_IO_READ) | (conn->out_len > conn->out_pos ? RAPIER_IO_WRITE : 0);

	rapier_io_start(conn->loop, &conn->io, events);
}

void rapier_task_conn_pause(rapier_task_conn_t *conn, bool paused)
{
	if (conn->io.fd < 0 || conn->paused == paused) {
		return;
	}
	conn->paused = paused;
	update_interest(conn);
}

int rapier_task_conn_send(rapier_task_conn_t *conn, uint64_t id, rapier_task_kind_t kind,
	const char *payload, size_t len)
{
	uint32_t frame_len;
	uint8_t kind_byte = (uint8_t) kind;
	char *at;
	int rc;

	if (conn->io.fd < 0) {
		return -EPIPE;
	}
	if (len > conn->max_payload || len > UINT32_MAX - (RAPIER_TASK_HEADER_SIZE - 4)) {
		return -EMSGSIZE;
	}
	if (reserve(&conn->out, &conn->out_cap, conn->out_len + RAPIER_TASK_HEADER_SIZE + len) < 0) {
		return -ENOMEM;
	}
	frame_len = (uint32_t) (len + RAPIER_TASK_HEADER_SIZE - 4);
	at = conn->out + conn->out_len;
	memcpy(at, &frame_len, 4);
	memcpy(at + 4, &id, 8);
	memcpy(at + 12, &kind_byte, 1);
	if (len) {
		memcpy(at + RAPIER_TASK_HEADER_SIZE, payload, len);
	}
	conn->out_len += RAPIER_TASK_HEADER_SIZE + len;
	if ((rc = flush(conn)) < 0) {
		/* The peer is gone; the read side reports it to the owner. */
		return rc;
	}
	update_interest(conn);
	return 0;
}

/*
 * Hands over every whole frame in the input buffer. Returns the bytes
 * consumed, or -EMSGSIZE; stops early (returning what it consumed) when a
 * callback closed the channel.
 */
static ssize_t deliver(rapier_task_conn_t *conn)
{
	size_t at = 0;

	while (conn->in_len - at >= RAPIER_TASK_HEADER_SIZE) {
		rapier_task_frame_t frame;
		uint32_t frame_len;

		memcpy(&frame_len, conn->in + at, 4);
		if (frame_len < RAPIER_TASK_HEADER_SIZE - 4
			|| frame_len - (RAPIER_TASK_HEADER_SIZE - 4) > conn->max_payload) {
			return -EMSGSIZE;
		}
		if (conn->in_len - at < 4 + (size_t) frame_len) {
			break;
		}
		memcpy(&frame.id, conn->in + at + 4, 8);
		frame.kind = (uint8_t) conn->in[at + 12];
		frame.payload = conn->in + at + RAPIER_TASK_HEADER_SIZE;
		frame.len = frame_len - (RAPIER_TASK_HEADER_SIZE - 4);
		at += 4 + (size_t) frame_len;
		conn->on_frame(conn, &frame);
		if (conn->io.fd < 0) {
			break;
		}
	}
	return (ssize_t) at;
}

static void on_readable(rapier_task_conn_t *conn)
{
	while (!conn->paused) {
		ssize_t n, used;

		if (reserve(&conn->in, &conn->in_cap, conn->in_len + READ_CHUNK) < 0) {
			fail(conn, -ENOMEM);
			return;
		}
		n = read(conn->io.fd, conn->in + conn->in_len, conn->in_cap - conn->in_len);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n < 0 && errno == EAGAIN) {
			return;
		}
		if (n <= 0) {
			fail(conn, n == 0 ? 0 : -errno);
			return;
		}
		conn->in_len += (size_t) n;
		used = deliver(conn);
		if (conn->io.fd < 0) {
			return;
		}
		if (used < 0) {
			fail(conn, (int) used);
			return;
		}
		memmove(conn->in, conn->in + used, conn->in_len - (size_t) used);
		conn->in_len -= (size_t) used;
	}
}

static void on_io(rapier_io_t *io, uint32_t events)
{
	rapier_task_conn_t *conn = io->data;

	if (events & RAPIER_IO_WRITE) {
		int rc = flush(conn);
		if (rc < 0) {
			fail(conn, rc);
			return;
		}
		update_interest(conn);
		if (conn->out_len == 0 && conn->on_flushed) {
			conn->on_flushed(conn);
			if (conn->io.fd < 0) {
				return;
			}
		}
	}
	if (events & (RAPIER_IO_READ | EPOLLHUP | EPOLLERR)) {
		on_readable(conn);
	}
}
