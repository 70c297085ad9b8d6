/*
 * poll() inside C libraries, for coroutines.
 *
 * libcurl and libpq keep their sockets non-blocking and wait for them in
 * poll(): libcurl in curl_easy_perform() (curl_exec) through
 * curl_multi_poll(), and curl_multi_wait() (curl_multi_select), its
 * threaded resolver's answer included (a socketpair it polls); libpq in
 * pqSocketCheck(), under every call that waits for the server (connects,
 * queries, COPY, large objects); libmemcached in memcached_io_poll() and
 * for answers from several servers (only inside a Memcached method's turn:
 * memcached_hook.c). Their poll imports are rebound to
 * library_poll(), which in a coroutine that may yield, with the library's
 * flag on, first asks the kernel without waiting (poll() with timeout 0),
 * and only when nothing is ready suspends the coroutine until one of the
 * descriptors is, or the timeout passes. Then it asks poll() again with a
 * zero timeout, so the library reads the kernel's own revents. Every other
 * call goes to the library's own poll() unchanged.
 *
 * One descriptor waited for in one direction (the common case) is waited
 * for like a hooked socket, and its registration dropped afterwards: the
 * library closes its descriptors with close(), which the loop never hears
 * of. Several are gathered in a rapier_socket_group_t (socket.c), as
 * stream_select() does (select.c).
 */
#include "php_rapier.h"
#include "zend_exceptions.h"

#include <errno.h>
#include <poll.h>
#include <unistd.h>

#include "coroutine.h"
#include "hook.h"
#include "libhook.h"
#include "memcached_hook.h"
#include "pgsql_hook.h"
#include "plt.h"
#include "sleep.h"
#include "socket.h"
#include "timer.h"

typedef int (*poll_fn)(struct pollfd *fds, nfds_t nfds, int timeout);

typedef struct {
	const char *soname_prefix;      /* "libcurl.so." */
	const char *name;               /* in messages */
	const char *advice;             /* what to do about two coroutines on one socket */
	zend_long flag;                 /* RAPIER_HOOK_* */
	poll_fn replacement;
	/* NULL, or whether this wait may suspend; false: the library's own poll() blocks */
	bool (*may_yield)(const struct pollfd *fds, nfds_t nfds);
	rapier_plt_rebinding_t poll;
} hooked_library_t;

static int libcurl_poll(struct pollfd *fds, nfds_t nfds, int timeout);
static int libpq_poll(struct pollfd *fds, nfds_t nfds, int timeout);
static int libmemcached_poll(struct pollfd *fds, nfds_t nfds, int timeout);

static hooked_library_t libcurl = {
	"libcurl.so.", "libcurl", "use one curl handle per coroutine", RAPIER_HOOK_CURL, libcurl_poll, NULL,
	{ .count = 0 },
};
static hooked_library_t libpq = {
	"libpq.so.", "libpq", "use one connection per coroutine, or a pool", RAPIER_HOOK_PGSQL, libpq_poll,
	rapier_pgsql_may_yield, { .count = 0 },
};

static hooked_library_t libmemcached = {
	"libmemcached.so.", "libmemcached", "use one Memcached object per coroutine, or a pool", RAPIER_HOOK_MEMCACHED,
	libmemcached_poll, rapier_memcached_may_yield, { .count = 0 },
};

static hooked_library_t *const libraries[] = { &libcurl, &libpq, &libmemcached };

/* Not rebound here: sockets_hook.c turns ext/sockets' select() into this poll(). */
static hooked_library_t ext_sockets = {
	NULL, "ext/sockets", "use one socket per coroutine", RAPIER_HOOK_SOCKETS, NULL, NULL, { .count = 0 },
};

/*
 * A coroutine inside a library's poll(), from its first wait until it
 * returns (also while woken but not yet resumed): the library is then in
 * the middle of a call on those descriptors. Lives on that coroutine's
 * stack; the list is dropped when the run ends (a bailout abandons them).
 */
typedef struct library_wait_s {
	const struct pollfd *fds;
	nfds_t nfds;
	zend_long coroutine_id;
	struct library_wait_s *next;
} library_wait_t;

static library_wait_t *waits;

/* Poll events as epoll spells them (the same bits on Linux); error and hang-up are always reported. */
#define WAITABLE_EVENTS (POLLIN | POLLPRI | POLLOUT | POLLRDNORM | POLLRDBAND | POLLWRNORM | POLLWRBAND | POLLRDHUP)
#define READ_ONLY_EVENTS (POLLIN | POLLRDNORM)
#define WRITE_ONLY_EVENTS (POLLOUT | POLLWRNORM)

/* Out of the wait without an answer from poll(): the caller blocks in it instead. */
#define MUST_BLOCK 1

/*
 * The direction of the only descriptor of fds when it is one waited for
 * in one direction (RAPIER_IO_READ or RAPIER_IO_WRITE), else 0.
 */
static uint32_t single_direction(const struct pollfd *fds, nfds_t nfds, int *fd)
{
	uint32_t direction = 0;

	*fd = -1;
	for (nfds_t i = 0; i < nfds; i++) {
		short events = fds[i].events & WAITABLE_EVENTS;

		if (fds[i].fd < 0) {
			continue;   /* poll() skips it */
		}
		if (*fd >= 0 || events == 0) {
			return 0;
		}
		*fd = fds[i].fd;
		if ((events & ~READ_ONLY_EVENTS) == 0) {
			direction = RAPIER_IO_READ;
		} else if ((events & ~WRITE_ONLY_EVENTS) == 0) {
			direction = RAPIER_IO_WRITE;
		} else {
			return 0;
		}
	}
	return direction;
}

static int wait_one(int fd, uint32_t direction, int64_t timeout_ns)
{
	int err = rapier_socket_wait(fd, direction, timeout_ns);

	if (err != -EBUSY) {
		rapier_socket_unwatch(fd);
	}
	return err;
}

/* A member closed meanwhile through rapier_socket_close() ends the wait with -EBADF (ext/sockets). */
static int wait_many(const struct pollfd *fds, nfds_t nfds, int64_t timeout_ns)
{
	rapier_socket_group_t group;
	int err;

	if (rapier_socket_group_init(&group) != 0) {
		return MUST_BLOCK;
	}
	for (nfds_t i = 0; i < nfds; i++) {
		if (fds[i].fd >= 0
				&& rapier_socket_group_watch(&group, fds[i].fd, (uint32_t) (fds[i].events & WAITABLE_EVENTS)) != 0) {
			rapier_socket_group_destroy(&group);
			return MUST_BLOCK;   /* not a descriptor epoll can watch */
		}
	}
	err = rapier_socket_group_wait(&group, timeout_ns);
	rapier_socket_group_destroy(&group);
	return err;
}

/* Turns a failed wait into poll()'s -1 and errno, and the PHP error it owes. */
static int fail(const hooked_library_t *lib, int err, int fd, uint32_t direction)
{
	if (err == -ECANCELED && !EG(exception)) {
		zend_throw_exception_ex(rapier_ce_canceled_exception, 0,
			"Coroutine was canceled while waiting in %s", lib->name);
	} else if (err == -EBUSY) {
		zend_throw_exception_ex(rapier_ce_exception, 0,
			"Cannot wait for socket fd %d in %s: coroutine #" ZEND_LONG_FMT " is already waiting for it; %s",
			fd, lib->name, rapier_socket_waiter_id(fd, direction), lib->advice);
	}
	errno = -err;
	return -1;
}

/* Nothing was ready at once: waits in the loop until something is, or timeout (ms, -1: none) passes. */
static int wait_and_poll(const hooked_library_t *lib, poll_fn original, struct pollfd *fds, nfds_t nfds, int timeout)
{
	uint64_t deadline = timeout > 0 ? rapier_now_ns() + (uint64_t) timeout * 1000000 : 0;
	int fd;
	uint32_t direction = single_direction(fds, nfds, &fd);

	for (;;) {
		uint64_t now = rapier_now_ns();
		int64_t left = timeout < 0 ? -1 : (int64_t) (deadline > now ? deadline - now : 0);
		int err, n;

		if (nfds == 0) {
			err = rapier_wake_errno(rapier_coro_sleep_ns(left), -EBADF);
		} else if (direction != 0) {
			err = wait_one(fd, direction, left);
		} else {
			err = wait_many(fds, nfds, left);
		}
		if (err == MUST_BLOCK) {
			return original(fds, nfds, timeout < 0 ? -1 : (int) ((left + 999999) / 1000000));
		}
		if (err != 0 && err != -ETIMEDOUT) {
			return fail(lib, err, fd, direction);
		}
		/* Also after the timeout: what became ready at the same moment is reported, as poll() would. */
		n = original(fds, nfds, 0);
		if (n != 0 || err == -ETIMEDOUT) {
			return n;
		}
	}
}

static void forget_wait(const library_wait_t *wait)
{
	library_wait_t **p = &waits;

	while (*p != NULL && *p != wait) {
		p = &(*p)->next;
	}
	if (*p != NULL) {
		*p = wait->next;
	}
}

static int library_poll(const hooked_library_t *lib, struct pollfd *fds, nfds_t nfds, int timeout)
{
	poll_fn original = lib->poll.count > 0 ? (poll_fn) rapier_plt_original(&lib->poll) : poll;
	library_wait_t wait;
	int n;

	if (!rapier_hook_enabled(lib->flag) || !rapier_coro_can_yield() || (nfds == 0 && timeout < 0)
			|| (lib->may_yield != NULL && !lib->may_yield(fds, nfds))) {
		return original(fds, nfds, timeout);
	}
	n = original(fds, nfds, 0);
	if (n != 0 || timeout == 0) {
		return n;
	}
	wait = (library_wait_t) { .fds = fds, .nfds = nfds, .coroutine_id = rapier_coro_current()->id, .next = waits };
	waits = &wait;
	n = wait_and_poll(lib, original, fds, nfds, timeout);
	forget_wait(&wait);
	return n;
}

static int libcurl_poll(struct pollfd *fds, nfds_t nfds, int timeout)
{
	return library_poll(&libcurl, fds, nfds, timeout);
}

static int libpq_poll(struct pollfd *fds, nfds_t nfds, int timeout)
{
	return library_poll(&libpq, fds, nfds, timeout);
}

static int libmemcached_poll(struct pollfd *fds, nfds_t nfds, int timeout)
{
	return library_poll(&libmemcached, fds, nfds, timeout);
}

int rapier_libhook_sockets_poll(struct pollfd *fds, nfds_t nfds, int timeout)
{
	return library_poll(&ext_sockets, fds, nfds, timeout);
}

zend_long rapier_libhook_waiter(int fd)
{
	for (const library_wait_t *wait = waits; wait != NULL; wait = wait->next) {
		for (nfds_t i = 0; i < wait->nfds; i++) {
			if (wait->fds[i].fd == fd) {
				return wait->coroutine_id;
			}
		}
	}
	return 0;
}

void rapier_libhook_on_run_end(void)
{
	waits = NULL;
}

void rapier_libhook_rebind(void)
{
	for (size_t i = 0; i < sizeof(libraries) / sizeof(libraries[0]); i++) {
		hooked_library_t *lib = libraries[i];

		rapier_plt_rebind(&lib->poll, lib->soname_prefix, "poll", (void *) lib->replacement);
	}
}

void rapier_libhook_mshutdown(void)
{
	for (size_t i = 0; i < sizeof(libraries) / sizeof(libraries[0]); i++) {
		rapier_plt_restore(&libraries[i]->poll);
	}
}
