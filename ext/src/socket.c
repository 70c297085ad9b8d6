/*
 * Descriptor waits for coroutines.
 *
 * A table indexed by descriptor number holds, per socket that was ever
 * waited on, one epoll watcher and two slots, one per direction: the
 * coroutine reading and the coroutine writing. The watcher's interest is
 * the directions a coroutine is suspended on, and it is stopped as soon as
 * none is, so an idle socket costs the loop nothing and never keeps it
 * alive. Records are allocated once per descriptor number and reused: the
 * loop keeps a pointer to the watcher, so records never move when the
 * table grows.
 *
 * One owner per direction is the whole concurrency policy. A coroutine
 * owns a direction for a whole stream operation (rapier_socket_acquire(),
 * held across its waits and after its wakeup, so nobody can take the bytes
 * it was woken for); a second coroutine that wants to read a socket
 * somebody already reads gets -EBUSY, which the stream layer turns into a
 * Rapier\Exception, instead of a share of the bytes. Edge-triggered epoll
 * was rejected: a reader that stops early would never be woken again; with
 * level triggering a missed event only costs one more wakeup.
 *
 * Where the caller may not suspend (outside a coroutine, in a destructor
 * run by the GC, in a fiber we do not own) the same waits block in ppoll().
 */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE   /* ppoll, accept4 */
#endif
#include "socket.h"
#include "coroutine.h"
#include "php_network.h"
#include "resolve.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

typedef struct socket_record_s socket_record_t;

/* One direction of a socket: who uses it, and whether that coroutine is suspended on it. */
typedef struct {
	rapier_coro_t *co;          /* the owner; NULL when free */
	uint32_t holds;             /* rapier_socket_acquire() calls not yet released */
	bool waiting;               /* co is suspended until the direction is ready */
	socket_record_t *rec;
} socket_waiter_t;

struct socket_record_s {
	rapier_io_t io;
	rapier_loop_t *loop;        /* the loop io is registered with while active */
	socket_waiter_t reader;
	socket_waiter_t writer;
};

static socket_record_t **records;
static int records_cap;

/* Groups a coroutine waits on now: rapier_socket_close() looks here for its descriptor. */
static rapier_socket_group_t *waiting_groups;

static socket_record_t *record_find(int fd)
{
	return fd >= 0 && fd < records_cap ? records[fd] : NULL;
}

static socket_record_t *record_get(int fd)
{
	if (fd >= records_cap) {
		/* Grow by doubling from 64: descriptor numbers are dense and small. */
		int cap = records_cap ? records_cap : 64;
		while (cap <= fd) {
			cap *= 2;
		}
		socket_record_t **grown = realloc(records, sizeof(*records) * cap);
		if (grown == NULL) {
			return NULL;
		}
		memset(grown + records_cap, 0, sizeof(*records) * (cap - records_cap));
		records = grown;
		records_cap = cap;
	}
	if (records[fd] == NULL) {
		socket_record_t *rec = calloc(1, sizeof(*rec));
		if (rec == NULL) {
			return NULL;
		}
		rec->reader.rec = rec;
		rec->writer.rec = rec;
		records[fd] = rec;
	}
	return records[fd];
}

static int update_interest(socket_record_t *rec)
{
	uint32_t events = (rec->reader.waiting ? RAPIER_IO_READ : 0) | (rec->writer.waiting ? RAPIER_IO_WRITE : 0);

	/*
	 * Paused rather than stopped: a database socket waits for every reply,
	 * and staying registered between queries saves two epoll_ctl() calls
	 * per query (loop.h, rapier_io_pause).
	 */
	if (events == 0) {
		rapier_io_pause(rec->loop, &rec->io);
		return 0;
	}
	return rapier_io_start(rec->loop, &rec->io, events);
}

/* The owner stays: a woken reader keeps the socket until its operation ends. */
static void wake(socket_waiter_t *w, rapier_wake_t reason)
{
	if (w->waiting) {
		w->waiting = false;
		rapier_coro_wake(w->co, reason);
	}
}

static void on_io(rapier_io_t *io, uint32_t events)
{
	socket_record_t *rec = io->data;
	/* An error or hangup wakes both sides: each retries and sees it. */
	bool failed = (events & (EPOLLERR | EPOLLHUP)) != 0;

	if (failed || (events & RAPIER_IO_READ)) {
		wake(&rec->reader, RAPIER_WAKE_OK);
	}
	if (failed || (events & RAPIER_IO_WRITE)) {
		wake(&rec->writer, RAPIER_WAKE_OK);
	}
	update_interest(rec);
}

/* Called by the scheduler when a wait ends without on_io (timeout, cancel). */
static void on_unlink(rapier_coro_t *co, void *data)
{
	socket_waiter_t *w = data;

	if (w->co == co && w->waiting) {
		w->waiting = false;
		update_interest(w->rec);
	}
}

static socket_waiter_t *slot(socket_record_t *rec, uint32_t events)
{
	return (events & RAPIER_IO_READ) ? &rec->reader : &rec->writer;
}

/*
 * In a child forked inside a coroutine, a direction may still be owned by a
 * copy of one of the parent's coroutines, which never runs there: it is
 * free for the child's own.
 */
static void free_if_inherited(socket_waiter_t *w)
{
	if (w->co != NULL && w->co->inherited) {
		w->co = NULL;
		w->holds = 0;
		w->waiting = false;
	}
}

int rapier_socket_acquire(int fd, uint32_t events)
{
	socket_record_t *rec;
	socket_waiter_t *w;
	rapier_coro_t *co = rapier_coro_current();

	if (!rapier_coro_can_yield()) {
		return 0;
	}
	if ((rec = record_get(fd)) == NULL) {
		return -ENOMEM;
	}
	w = slot(rec, events);
	free_if_inherited(w);
	if (w->co && w->co != co) {
		return -EBUSY;
	}
	w->co = co;
	w->holds++;
	return 1;
}

void rapier_socket_release(int fd, uint32_t events)
{
	socket_record_t *rec = record_find(fd);
	socket_waiter_t *w = rec ? slot(rec, events) : NULL;

	/* holds is 0 when the socket was closed or reset meanwhile: nothing left to release. */
	if (w && w->holds && --w->holds == 0) {
		w->co = NULL;
	}
}

int rapier_socket_wait(int fd, uint32_t events, int64_t timeout_ns)
{
	socket_record_t *rec;
	socket_waiter_t *w;
	rapier_coro_t *co;
	int err;

	if (!rapier_coro_can_yield()) {
		return rapier_socket_poll(fd, events, timeout_ns);
	}
	if ((rec = record_get(fd)) == NULL) {
		return -ENOMEM;
	}
	co = rapier_coro_current();
	w = slot(rec, events);
	free_if_inherited(w);
	if (w->co && w->co != co) {
		return -EBUSY;
	}
	if (!rec->io.active) {
		rapier_io_init(&rec->io, fd, on_io, rec);
		rec->loop = rapier_sched_loop();
	}
	/* Without rapier_socket_acquire() the socket is ours for this wait only. */
	w->co = co;
	w->waiting = true;
	err = update_interest(rec);
	if (err == 0) {
		err = rapier_wake_errno(rapier_coro_wait(timeout_ns, on_unlink, w,
			(events & RAPIER_IO_READ) ? "a socket to read" : "a socket to write"), -EBADF);
	} else {
		w->waiting = false;
		update_interest(rec);
		/* EPERM: epoll refuses this kind of descriptor; it can still be polled. */
		err = err == -EPERM ? rapier_socket_poll(fd, events, timeout_ns) : err;
	}
	if (w->holds == 0 && w->co == co) {
		w->co = NULL;
	}
	return err;
}

int rapier_socket_poll(int fd, uint32_t events, int64_t timeout_ns)
{
	struct pollfd pfd = { .fd = fd, .events = (events & RAPIER_IO_READ) ? POLLIN : POLLOUT };
	uint64_t deadline = timeout_ns >= 0 ? rapier_now_ns() + (uint64_t) timeout_ns : 0;

	for (;;) {
		struct timespec ts, *tsp = NULL;
		int n;

		if (timeout_ns >= 0) {
			uint64_t now = rapier_now_ns();
			uint64_t left = deadline > now ? deadline - now : 0;
			ts.tv_sec = (time_t) (left / 1000000000);
			ts.tv_nsec = (long) (left % 1000000000);
			tsp = &ts;
		}
		n = ppoll(&pfd, 1, tsp, NULL);
		if (n > 0) {
			return (pfd.revents & POLLNVAL) ? -EBADF : 0;
		}
		if (n == 0) {
			return -ETIMEDOUT;
		}
		if (errno != EINTR) {
			return -errno;
		}
	}
}

zend_long rapier_socket_waiter_id(int fd, uint32_t events)
{
	socket_record_t *rec = record_find(fd);
	socket_waiter_t *w;

	if (rec == NULL) {
		return 0;
	}
	w = slot(rec, events);
	return w->co && !w->co->inherited ? w->co->id : 0;
}

static void clear_slots(socket_record_t *rec)
{
	rec->reader.co = rec->writer.co = NULL;
	rec->reader.holds = rec->writer.holds = 0;
	rec->reader.waiting = rec->writer.waiting = false;
}

static void forget(socket_record_t *rec)
{
	bool running = rapier_sched_running() && rec->loop == rapier_sched_loop();

	if (rec->io.active) {
		if (running) {
			rapier_io_stop(rec->loop, &rec->io);
		} else {
			/* The loop that knew this watcher is gone with its epoll instance. */
			rec->io.active = false;
		}
	}
	if (running) {
		wake(&rec->reader, RAPIER_WAKE_CLOSED);
		wake(&rec->writer, RAPIER_WAKE_CLOSED);
	}
	clear_slots(rec);
}

void rapier_socket_unwatch(int fd)
{
	socket_record_t *rec = record_find(fd);

	if (rec != NULL && rec->io.active && rec->reader.co == NULL && rec->writer.co == NULL) {
		forget(rec);
	}
}

static rapier_socket_member_t *member_of(const rapier_socket_group_t *group, int fd)
{
	for (uint32_t i = 0; i < group->count; i++) {
		if (group->members[i].fd == fd) {
			return &group->members[i];
		}
	}
	return NULL;
}

/* The coroutine waiting on a group that watches fd wakes as a waiter on fd itself would. */
static void wake_groups(int fd)
{
	for (rapier_socket_group_t *group = waiting_groups; group != NULL; group = group->next) {
		socket_record_t *rec = record_find(group->epfd);

		if (rec != NULL && member_of(group, fd) != NULL) {
			wake(&rec->reader, RAPIER_WAKE_CLOSED);
		}
	}
}

void rapier_socket_closing(int fd)
{
	socket_record_t *rec = record_find(fd);

	if (rec) {
		forget(rec);
	}
	if (waiting_groups != NULL && rapier_sched_running()) {
		wake_groups(fd);
	}
}

int rapier_socket_close(int fd)
{
	rapier_socket_closing(fd);
	return close(fd) < 0 ? -errno : 0;
}

int rapier_socket_group_init(rapier_socket_group_t *group)
{
	group->epfd = epoll_create1(EPOLL_CLOEXEC);
	group->count = 0;
	group->cap = sizeof(group->inline_members) / sizeof(group->inline_members[0]);
	group->members = group->inline_members;
	group->next = NULL;
	return group->epfd < 0 ? -errno : 0;
}

static void group_add_member(rapier_socket_group_t *group, int fd, uint32_t events)
{
	if (group->count == group->cap) {
		rapier_socket_member_t *grown = safe_emalloc(group->cap, 2 * sizeof(*grown), 0);

		memcpy(grown, group->members, group->count * sizeof(*grown));
		if (group->members != group->inline_members) {
			efree(group->members);
		}
		group->members = grown;
		group->cap *= 2;
	}
	group->members[group->count++] = (rapier_socket_member_t) { .fd = fd, .events = events };
}

int rapier_socket_group_watch(rapier_socket_group_t *group, int fd, uint32_t events)
{
	struct epoll_event ev = { .events = events, .data.fd = fd };
	rapier_socket_member_t *member;

	if (epoll_ctl(group->epfd, EPOLL_CTL_ADD, fd, &ev) == 0) {
		group_add_member(group, fd, events);
		return 0;
	}
	if (errno != EEXIST || (member = member_of(group, fd)) == NULL) {
		return -errno;
	}
	if ((member->events & events) == events) {
		return 0;
	}
	ev.events = member->events |= events;
	return epoll_ctl(group->epfd, EPOLL_CTL_MOD, fd, &ev) == 0 ? 0 : -errno;
}

bool rapier_socket_group_ready(const rapier_socket_group_t *group)
{
	struct epoll_event ready;

	return epoll_wait(group->epfd, &ready, 1, 0) > 0;
}

int rapier_socket_group_wait(rapier_socket_group_t *group, int64_t timeout_ns)
{
	rapier_socket_group_t **p = &waiting_groups;
	int err;

	group->next = waiting_groups;
	waiting_groups = group;
	err = rapier_socket_wait(group->epfd, RAPIER_IO_READ, timeout_ns);
	/* Other groups may have come and gone meanwhile: not necessarily the head any more. */
	while (*p != NULL && *p != group) {
		p = &(*p)->next;
	}
	if (*p != NULL) {
		*p = group->next;
	}
	return err;
}

void rapier_socket_group_destroy(rapier_socket_group_t *group)
{
	if (group->epfd >= 0) {
		rapier_socket_close(group->epfd);
		group->epfd = -1;
	}
	/* members is NULL in a group zeroed but never initialized. */
	if (group->members != NULL && group->members != group->inline_members) {
		efree(group->members);
	}
	group->members = group->inline_members;
	group->count = 0;
}

void rapier_socket_reset(void)
{
	/* Their waits and the frames that held them are gone with the run. */
	waiting_groups = NULL;
	for (int fd = 0; fd < records_cap; fd++) {
		if (records[fd]) {
			records[fd]->io.active = false;
			clear_slots(records[fd]);
		}
	}
}

void rapier_socket_mshutdown(void)
{
	for (int fd = 0; fd < records_cap; fd++) {
		free(records[fd]);
	}
	free(records);
	records = NULL;
	records_cap = 0;
}

int rapier_socket_create(int domain, int type, int protocol)
{
	int fd = socket(domain, type | SOCK_NONBLOCK, protocol);

	return fd < 0 ? -errno : fd;
}

static int wait_for(int fd, uint32_t events, int64_t timeout_ns, bool may_yield)
{
	return may_yield ? rapier_socket_wait(fd, events, timeout_ns) : rapier_socket_poll(fd, events, timeout_ns);
}

int rapier_socket_connect(int fd, const struct sockaddr *addr, socklen_t addrlen, int64_t timeout_ns, bool may_yield)
{
	int soerr = 0, err;
	socklen_t len = sizeof(soerr);

	if (connect(fd, addr, addrlen) == 0) {
		return 0;
	}
	/* EINTR: the connection goes on in the background, like EINPROGRESS. */
	if (errno != EINPROGRESS && errno != EINTR) {
		return -errno;
	}
	err = wait_for(fd, RAPIER_IO_WRITE, timeout_ns, may_yield);
	if (err < 0) {
		return err;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len) < 0) {
		return -errno;
	}
	return -soerr;
}

int rapier_socket_accept(int fd, struct sockaddr *addr, socklen_t *addrlen, int flags, int64_t timeout_ns, bool may_yield)
{
	int mode = fcntl(fd, F_GETFL);

	/*
	 * A listener PHP made ours without O_NONBLOCK (socket_export_stream()):
	 * accept() has no MSG_DONTWAIT, so wait for a client first, as PHP's
	 * own transports do.
	 */
	if (mode >= 0 && !(mode & O_NONBLOCK)) {
		int err = timeout_ns == 0 ? rapier_socket_poll(fd, RAPIER_IO_READ, 0)
			: wait_for(fd, RAPIER_IO_READ, timeout_ns, may_yield);

		if (err < 0) {
			return err;
		}
	}
	for (;;) {
		int client = accept4(fd, addr, addrlen, flags | SOCK_NONBLOCK);
		int err;

		if (client >= 0) {
			return client;
		}
		/* ECONNABORTED: that client gave up while queued; wait for the next. */
		if (errno == EINTR || errno == ECONNABORTED) {
			continue;
		}
		if (errno != EAGAIN && errno != EWOULDBLOCK) {
			return -errno;
		}
		if (timeout_ns == 0) {
			return -EAGAIN;
		}
		err = wait_for(fd, RAPIER_IO_READ, timeout_ns, may_yield);
		if (err < 0) {
			return err;
		}
	}
}

/* Whether a failed transfer should wait and retry (0), or its result. */
static int after_would_block(int fd, uint32_t events, int64_t timeout_ns, bool may_yield)
{
	if (errno == EINTR) {
		return 0;
	}
	if (errno != EAGAIN && errno != EWOULDBLOCK) {
		return -errno;
	}
	return timeout_ns == 0 ? -EAGAIN : wait_for(fd, events, timeout_ns, may_yield);
}

ssize_t rapier_socket_recvfrom(int fd, void *buf, size_t len, int flags, struct sockaddr *addr, socklen_t *addrlen,
	int64_t timeout_ns, bool may_yield)
{
	for (;;) {
		/* MSG_DONTWAIT: a descriptor PHP made ours without O_NONBLOCK (socket_export_stream()) must not block. */
		ssize_t n = recvfrom(fd, buf, len, flags | MSG_DONTWAIT, addr, addrlen);
		int err;

		if (n >= 0) {
			return n;
		}
		if ((err = after_would_block(fd, RAPIER_IO_READ, timeout_ns, may_yield)) < 0) {
			return err;
		}
	}
}

ssize_t rapier_socket_sendto(int fd, const void *buf, size_t len, int flags, const struct sockaddr *addr,
	socklen_t addrlen, int64_t timeout_ns, bool may_yield)
{
	for (;;) {
		ssize_t n = sendto(fd, buf, len, flags | MSG_NOSIGNAL | MSG_DONTWAIT, addr, addr ? addrlen : 0);
		int err;

		if (n >= 0) {
			return n;
		}
		if ((err = after_would_block(fd, RAPIER_IO_WRITE, timeout_ns, may_yield)) < 0) {
			return err;
		}
	}
}

ssize_t rapier_socket_recv(int fd, void *buf, size_t len, int64_t timeout_ns, bool may_yield)
{
	return rapier_socket_recvfrom(fd, buf, len, 0, NULL, NULL, timeout_ns, may_yield);
}

ssize_t rapier_socket_send(int fd, const void *buf, size_t len, int64_t timeout_ns, bool may_yield)
{
	return rapier_socket_sendto(fd, buf, len, 0, NULL, 0, timeout_ns, may_yield);
}

bool rapier_socket_alive(int fd, int64_t timeout_ns, bool may_yield)
{
	char byte;
	int err = timeout_ns == 0 ? rapier_socket_poll(fd, RAPIER_IO_READ, 0) : wait_for(fd, RAPIER_IO_READ, timeout_ns, may_yield);
	ssize_t n;

	if (err == -EBUSY) {
		return true;         /* another coroutine reads it: in use, hence alive */
	}
	if (err < 0) {
		return true;         /* nothing to read within the timeout: nothing says it died */
	}
	n = recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
	/* 0: orderly shutdown by the peer; an error other than "nothing yet": dead. */
	return !(n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EMSGSIZE));
}

int64_t rapier_socket_timeval_ns(const struct timeval *tv)
{
	/* Negative: none. Beyond what nanoseconds hold (292 years): as good as none, not a wrap-around. */
	if (tv == NULL || tv->tv_sec < 0 || tv->tv_sec >= RAPIER_SOCKET_MAX_SECONDS) {
		return -1;
	}
	return (int64_t) tv->tv_sec * 1000000000 + (int64_t) tv->tv_usec * 1000;
}

/* Addresses, in the forms and with the messages of PHP's own socket transports. */

char *rapier_socket_parse_address(const char *str, size_t len, int *port, zend_string **err)
{
	const char *colon;

	/* A NUL would cut the host short in every C call after this one (PHP refuses it too). */
	if (memchr(str, '\0', len)) {
		if (err) {
			*err = strpprintf(0, "The hostname must not contain null bytes");
		}
		return NULL;
	}
	if (len > 1 && str[0] == '[') {
		const char *close = memchr(str + 1, ']', len - 2);
		if (close == NULL || close[1] != ':') {
			if (err) {
				*err = strpprintf(0, "Failed to parse IPv6 address \"%s\"", str);
			}
			return NULL;
		}
		*port = atoi(close + 2);
		return estrndup(str + 1, close - str - 1);
	}
	/* The last byte is never the separator: "host:" has no port to parse. */
	colon = len ? memchr(str, ':', len - 1) : NULL;
	if (colon == NULL) {
		if (err) {
			*err = strpprintf(0, "Failed to parse address \"%s\"", str);
		}
		return NULL;
	}
	*port = atoi(colon + 1);
	return estrndup(str, colon - str);
}

socklen_t rapier_socket_unix_address(const char *path, size_t len, struct sockaddr_un *addr)
{
	memset(addr, 0, sizeof(*addr));
	addr->sun_family = AF_UNIX;
	if (len >= sizeof(addr->sun_path)) {
		len = sizeof(addr->sun_path) - 1;
		php_error_docref(NULL, E_NOTICE, "socket path exceeded the maximum allowed length of %lu bytes "
			"and was truncated", (unsigned long) sizeof(addr->sun_path));
	}
	/* Binary safe: a leading NUL names Linux's abstract namespace. */
	memcpy(addr->sun_path, path, len);
	return (socklen_t) (offsetof(struct sockaddr_un, sun_path) + len);
}

void rapier_socket_bind_local(int fd, int family, const char *bindto, int bindport)
{
	struct sockaddr_storage local;
	socklen_t len = 0;

	memset(&local, 0, sizeof(local));
	if (family == AF_INET) {
		struct sockaddr_in *in4 = (struct sockaddr_in *) &local;
		if (inet_pton(AF_INET, bindto, &in4->sin_addr) == 1) {
			in4->sin_family = AF_INET;
			in4->sin_port = htons(bindport);
			len = sizeof(*in4);
		}
	} else {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *) &local;
		if (inet_pton(AF_INET6, bindto, &in6->sin6_addr) == 1) {
			in6->sin6_family = AF_INET6;
			in6->sin6_port = htons(bindport);
			len = sizeof(*in6);
		}
	}
	if (len == 0) {
		php_error_docref(NULL, E_WARNING, "Invalid IP Address: %s", bindto);
	} else if (bind(fd, (struct sockaddr *) &local, len) != 0) {
		php_error_docref(NULL, E_WARNING, "Failed to bind to '%s:%d', system said: %s", bindto, bindport, strerror(errno));
	}
}

/* Connecting to a host name */

static int connect_start(int fd, const struct sockaddr *sa, socklen_t len, int64_t timeout_ns,
	const rapier_connect_opts_t *opts)
{
	if (opts->async) {
		return connect(fd, sa, len) == 0 || errno == EINPROGRESS ? 0 : -errno;
	}
	return rapier_socket_connect(fd, sa, len, timeout_ns, opts->may_yield);
}

/* One attempt at one resolved address: the connected descriptor or -errno. */
static int connect_address(struct sockaddr *sa, int port, int64_t timeout_ns, const rapier_connect_opts_t *opts)
{
	const char *bindto = opts->bindto;
	socklen_t len;
	int fd, err, on = 1;

	if (sa->sa_family == AF_INET6) {
		if (bindto && !strchr(bindto, ':')) {
			return -EAFNOSUPPORT;    /* an IPv4 bindto: try the next address */
		}
		((struct sockaddr_in6 *) sa)->sin6_port = htons(port);
		len = sizeof(struct sockaddr_in6);
	} else if (sa->sa_family == AF_INET) {
		((struct sockaddr_in *) sa)->sin_port = htons(port);
		len = sizeof(struct sockaddr_in);
		if (bindto && (strchr(bindto, ':') || strcmp(bindto, "0") == 0)) {
			bindto = NULL;           /* an IPv4 socket cannot bind an IPv6 address */
		}
	} else {
		return -EAFNOSUPPORT;
	}
	fd = rapier_socket_create(sa->sa_family, opts->type, 0);
	if (fd < 0) {
		return fd;
	}
	if (bindto) {
		rapier_socket_bind_local(fd, sa->sa_family, bindto, opts->bindport);
	}
	if (opts->sockopts & STREAM_SOCKOP_TCP_NODELAY) {
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
	}
	if (opts->sockopts & STREAM_SOCKOP_SO_BROADCAST) {
		setsockopt(fd, SOL_SOCKET, SO_BROADCAST, &on, sizeof(on));
	}
	err = connect_start(fd, sa, len, timeout_ns, opts);
	if (err < 0) {
		rapier_socket_close(fd);
		return err;
	}
	return fd;
}

int rapier_socket_connect_host(const char *host, int port, const rapier_connect_opts_t *opts, zend_string **error_text)
{
	uint64_t deadline = opts->timeout_ns >= 0 ? rapier_now_ns() + (uint64_t) opts->timeout_ns : 0;
	struct sockaddr **addrs, **sa;
	int fd = -EAFNOSUPPORT, n;

	/* In a coroutine a host name resolves on another thread (resolve.h), within the deadline. */
	n = opts->may_yield
		? rapier_resolve(host, opts->type, opts->timeout_ns, &addrs, error_text)
		: php_network_getaddresses(host, opts->type, &addrs, error_text);
	if (n <= 0) {
		return n == 0 ? RAPIER_SOCKET_ERESOLVE : n;
	}
	for (sa = addrs; *sa != NULL; sa++) {
		int64_t left = -1;
		if (deadline) {
			uint64_t now = rapier_now_ns();
			if (now >= deadline && sa != addrs) {
				break;               /* out of time: no attempt at the remaining addresses */
			}
			left = deadline > now ? (int64_t) (deadline - now) : 0;
		}
		fd = connect_address(*sa, port, left, opts);
		if (fd >= 0 || fd == -ECANCELED) {
			break;
		}
	}
	php_network_freeaddresses(addrs);
	return fd;
}

int rapier_socket_connect_unix(const char *path, size_t len, const rapier_connect_opts_t *opts)
{
	struct sockaddr_un addr;
	socklen_t addrlen = rapier_socket_unix_address(path, len, &addr);
	int fd = rapier_socket_create(AF_UNIX, opts->type, 0);
	int err;

	if (fd < 0) {
		return fd;
	}
	err = connect_start(fd, (struct sockaddr *) &addr, addrlen, opts->timeout_ns, opts);
	if (err < 0) {
		rapier_socket_close(fd);
		return err;
	}
	return fd;
}
