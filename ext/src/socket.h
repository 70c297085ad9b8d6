/*
 * Coroutine-aware descriptors: wait for a socket to become readable or
 * writable by suspending the current coroutine (or, where it may not
 * suspend, by blocking in poll()), plus the non-blocking connect and accept
 * built on that wait. Used by the stream transports and the HTTP server.
 *
 * Functions return 0 (or a count or descriptor) on success and a negative
 * errno value on failure, libuv style:
 *   -ETIMEDOUT  the timeout passed
 *   -ECANCELED  the coroutine was canceled (EG(exception) may be set)
 *   -EBADF      the descriptor was closed while waiting
 *   -EBUSY      another coroutine already waits to read (or write) it
 */
#ifndef RAPIER_SOCKET_H
#define RAPIER_SOCKET_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "php.h"
#include "loop.h"

/*
 * Waits until fd is ready for events (exactly one of RAPIER_IO_READ and
 * RAPIER_IO_WRITE), at most timeout_ns (-1: no limit). Suspends when
 * rapier_coro_can_yield(), blocks in poll() otherwise.
 */
int rapier_socket_wait(int fd, uint32_t events, int64_t timeout_ns);

/* The same wait, always in poll(): for streams that must never suspend. */
int rapier_socket_poll(int fd, uint32_t events, int64_t timeout_ns);

/*
 * Makes the current coroutine the owner of one direction of fd (events:
 * RAPIER_IO_READ or RAPIER_IO_WRITE) for a whole operation, waits
 * included, until rapier_socket_release(). Returns 1 (acquired; release
 * it), 0 (the caller cannot suspend: nothing to release) or -EBUSY.
 */
int rapier_socket_acquire(int fd, uint32_t events);
void rapier_socket_release(int fd, uint32_t events);

/* After -EBUSY: the id of the coroutine that owns that direction of fd, or 0. */
zend_long rapier_socket_waiter_id(int fd, uint32_t events);

/*
 * Wakes every coroutine waiting on fd with RAPIER_WAKE_CLOSED, forgets the
 * descriptor, then closes it. Every socket that may have been waited on
 * must be closed through here: epoll silently drops a closed descriptor,
 * and its waiters would hang for ever.
 */
int rapier_socket_close(int fd);

/*
 * The same without the close(), for a descriptor its owner closes itself
 * (PHP's pipes): call it just before.
 */
void rapier_socket_closing(int fd);

/*
 * A wait for whichever of several descriptors is ready first (the hooked
 * stream_select(), and poll() or select() in a hooked library): an epoll
 * set of their own, waited on as one descriptor. A member closed through
 * rapier_socket_close() or rapier_socket_closing() meanwhile ends the wait
 * with -EBADF, as it ends a wait on that descriptor alone; epoll itself
 * would drop it silently.
 */
typedef struct {
	int fd;
	uint32_t events;             /* what it is watched for */
} rapier_socket_member_t;

typedef struct rapier_socket_group_s rapier_socket_group_t;
struct rapier_socket_group_s {
	int epfd;
	uint32_t count, cap;
	rapier_socket_member_t *members;    /* each descriptor once */
	rapier_socket_member_t inline_members[8];
	rapier_socket_group_t *next; /* among the groups being waited on */
};

/* Creates the epoll set. Returns 0 or -errno. */
int rapier_socket_group_init(rapier_socket_group_t *group);

/*
 * Watches fd for events (EPOLLIN, EPOLLOUT, EPOLLPRI), added to what earlier
 * calls asked of it: a descriptor listed twice (stream_select()'s $read and
 * $except, two pollfd entries) waits for the union of both and nothing more.
 * Returns 0 or -errno (-EPERM: a descriptor epoll cannot watch, a regular
 * file).
 */
int rapier_socket_group_watch(rapier_socket_group_t *group, int fd, uint32_t events);

/* Whether a member is ready now. */
bool rapier_socket_group_ready(const rapier_socket_group_t *group);

/* Waits as rapier_socket_wait() does, for any member. */
int rapier_socket_group_wait(rapier_socket_group_t *group, int64_t timeout_ns);

/*
 * Closes the epoll set and frees the member list; the members stay open.
 * Also for a group that is only zeroed with epfd -1.
 */
void rapier_socket_group_destroy(rapier_socket_group_t *group);

/*
 * Stops watching fd in the loop unless a coroutine owns or waits on it:
 * for descriptors that their owner closes itself (a C library's close()),
 * never through rapier_socket_close(), after each wait on them.
 */
void rapier_socket_unwatch(int fd);

/*
 * Forgets every registration and waiter without touching epoll or the
 * coroutines: for when no scheduler runs any more (after a bailout the
 * loop and the waiting coroutines are gone). Records are kept for reuse.
 */
void rapier_socket_reset(void);
void rapier_socket_mshutdown(void);

/* Creates a non-blocking socket (type may add SOCK_CLOEXEC). Returns it or -errno. */
int rapier_socket_create(int domain, int type, int protocol);

/*
 * Connects a non-blocking fd to addr, waiting at most timeout_ns for the
 * handshake; may_yield false keeps the wait in poll().
 */
int rapier_socket_connect(int fd, const struct sockaddr *addr, socklen_t addrlen, int64_t timeout_ns, bool may_yield);

/*
 * Accepts a connection on the non-blocking listener fd, waiting at most
 * timeout_ns. The new descriptor is non-blocking; flags may add
 * SOCK_CLOEXEC. addr and addrlen may be NULL. Returns it or -errno.
 */
int rapier_socket_accept(int fd, struct sockaddr *addr, socklen_t *addrlen, int flags, int64_t timeout_ns, bool may_yield);

/*
 * recv()/send() that wait while the socket would block, at most timeout_ns
 * (0: not at all, -EAGAIN). Return the bytes moved (0 from recv at end of
 * stream) or -errno. send never raises SIGPIPE.
 */
ssize_t rapier_socket_recv(int fd, void *buf, size_t len, int64_t timeout_ns, bool may_yield);
ssize_t rapier_socket_send(int fd, const void *buf, size_t len, int64_t timeout_ns, bool may_yield);

/* The same with flags (MSG_PEEK, MSG_OOB) and a peer address (may be NULL). */
ssize_t rapier_socket_recvfrom(int fd, void *buf, size_t len, int flags, struct sockaddr *addr, socklen_t *addrlen,
	int64_t timeout_ns, bool may_yield);
ssize_t rapier_socket_sendto(int fd, const void *buf, size_t len, int flags, const struct sockaddr *addr,
	socklen_t addrlen, int64_t timeout_ns, bool may_yield);

/*
 * "host:port" or "[v6]:port" split for connect and bind: the emalloc'd
 * host, or NULL with *err (if err) set to PHP's message.
 */
char *rapier_socket_parse_address(const char *str, size_t len, int *port, zend_string **err);

/* Fills a unix address from a path (binary safe; truncated with a notice). */
socklen_t rapier_socket_unix_address(const char *path, size_t len, struct sockaddr_un *addr);

/* Binds fd to bindto:bindport before connecting; failures are warnings, as in PHP. */
void rapier_socket_bind_local(int fd, int family, const char *bindto, int bindport);

/* What rapier_socket_connect_host() returns when the name did not resolve (PHP has warned). */
#define RAPIER_SOCKET_ERESOLVE (-ENXIO)

typedef struct {
	int type;               /* SOCK_STREAM or SOCK_DGRAM */
	const char *bindto;     /* local address to bind first, or NULL */
	int bindport;
	long sockopts;          /* STREAM_SOCKOP_TCP_NODELAY, STREAM_SOCKOP_SO_BROADCAST */
	int64_t timeout_ns;     /* for all the addresses together; -1: none */
	bool async;             /* start the connect and return without waiting */
	bool may_yield;         /* false: wait in poll() even inside a coroutine */
} rapier_connect_opts_t;

/*
 * Resolves host and connects a new non-blocking socket to the first of its
 * addresses that answers, like php_network_connect_socket_to_host(). With
 * may_yield, a host name resolves without blocking the process
 * (rapier_resolve()), and the resolution counts against timeout_ns.
 * Returns the descriptor, RAPIER_SOCKET_ERESOLVE (error_text set), or
 * -errno: of the last attempt, or -ETIMEDOUT / -ECANCELED while resolving.
 */
int rapier_socket_connect_host(const char *host, int port, const rapier_connect_opts_t *opts, zend_string **error_text);

/*
 * Whether the peer is still there, as PHP's liveness check decides it:
 * waits up to timeout_ns for something to read, then peeks at it. An
 * orderly shutdown or a socket error means gone.
 */
bool rapier_socket_alive(int fd, int64_t timeout_ns, bool may_yield);

/* The same for a unix socket path (opts: type, timeout_ns, async, may_yield). */
int rapier_socket_connect_unix(const char *path, size_t len, const rapier_connect_opts_t *opts);

/* Converts a struct timeval timeout (tv_sec -1: none) to nanoseconds (-1: none). */
int64_t rapier_socket_timeval_ns(const struct timeval *tv);

/* The longest timeout, in whole seconds, that int64 nanoseconds hold; longer ones are PHP's or none. */
#define RAPIER_SOCKET_MAX_SECONDS (INT64_MAX / 1000000000 - 1)

#endif
