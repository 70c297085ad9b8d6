/*
 * poll() inside C libraries, for coroutines.
 *
 * libcurl keeps its sockets non-blocking and waits for them in poll():
 * curl_easy_perform() (curl_exec) through curl_multi_poll(), and
 * curl_multi_wait() (curl_multi_select), its threaded resolver's answer
 * included (a socketpair it polls). Its poll import is rebound to
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
 * of. Several are gathered in an epoll set of their own, as stream_select()
 * does (select.c).
 */
#include "php_rapier.h"
#include "zend_exceptions.h"

#include <errno.h>
#include <poll.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "coroutine.h"
#include "hook.h"
#include "libhook.h"
#include "plt.h"
#include "sleep.h"
#include "socket.h"
#include "timer.h"

typedef int (*poll_fn)(struct pollfd *fds, nfds_t nfds, int timeout);

typedef struct {
	const char *soname_prefix;      /* "libcurl.so." */
	const char *name;               /* in messages */
	zend_long flag;                 /* RAPIER_HOOK_* */
	poll_fn replacement;
	rapier_plt_rebinding_t poll;
} hooked_library_t;

static int libcurl_poll(struct pollfd *fds, nfds_t nfds, int timeout);

static hooked_library_t libcurl = { "libcurl.so.", "libcurl", RAPIER_HOOK_CURL, libcurl_poll, { .count = 0 } };

static hooked_library_t *const libraries[] = { &libcurl };

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

/* What fds asks of fd, all its entries together (a descriptor may be listed twice). */
static uint32_t events_of(const struct pollfd *fds, nfds_t nfds, int fd)
{
	uint32_t events = 0;

	for (nfds_t i = 0; i < nfds; i++) {
		if (fds[i].fd == fd) {
			events |= (uint32_t) (fds[i].events & WAITABLE_EVENTS);
		}
	}
	return events;
}

static int wait_many(const struct pollfd *fds, nfds_t nfds, int64_t timeout_ns)
{
	int epfd = epoll_create1(EPOLL_CLOEXEC);
	int err;

	if (epfd < 0) {
		return MUST_BLOCK;
	}
	for (nfds_t i = 0; i < nfds; i++) {
		struct epoll_event ev = { .events = events_of(fds, nfds, fds[i].fd), .data.fd = fds[i].fd };

		if (fds[i].fd >= 0 && epoll_ctl(epfd, EPOLL_CTL_ADD, fds[i].fd, &ev) != 0 && errno != EEXIST) {
			close(epfd);
			return MUST_BLOCK;   /* not a descriptor epoll can watch */
		}
	}
	err = rapier_socket_wait(epfd, RAPIER_IO_READ, timeout_ns);
	rapier_socket_close(epfd);
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
			"Cannot wait for socket fd %d in %s: coroutine #" ZEND_LONG_FMT " is already waiting for it; "
			"use one %s handle per coroutine", fd, lib->name, rapier_socket_waiter_id(fd, direction), lib->name);
	}
	errno = -err;
	return -1;
}

static int library_poll(const hooked_library_t *lib, struct pollfd *fds, nfds_t nfds, int timeout)
{
	poll_fn original = (poll_fn) rapier_plt_original(&lib->poll);
	uint64_t deadline;
	uint32_t direction;
	int n, fd;

	if (!rapier_hook_enabled(lib->flag) || !rapier_coro_can_yield() || (nfds == 0 && timeout < 0)) {
		return original(fds, nfds, timeout);
	}
	n = original(fds, nfds, 0);
	if (n != 0 || timeout == 0) {
		return n;
	}
	/* Only a wait needs the clock: most calls end above. */
	deadline = timeout > 0 ? rapier_now_ns() + (uint64_t) timeout * 1000000 : 0;
	direction = single_direction(fds, nfds, &fd);
	for (;;) {
		uint64_t now = rapier_now_ns();
		int64_t left = timeout < 0 ? -1 : (int64_t) (deadline > now ? deadline - now : 0);
		int err;

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

static int libcurl_poll(struct pollfd *fds, nfds_t nfds, int timeout)
{
	return library_poll(&libcurl, fds, nfds, timeout);
}

void rapier_libhook_rebind(void)
{
	for (size_t i = 0; i < sizeof(libraries) / sizeof(libraries[0]); i++) {
		hooked_library_t *lib = libraries[i];

		rapier_plt_rebind(&lib->poll, lib->soname_prefix, "poll", (void *) lib->replacement);
	}
}

void rapier_libhook_minit(void)
{
	rapier_libhook_rebind();
}

void rapier_libhook_mshutdown(void)
{
	for (size_t i = 0; i < sizeof(libraries) / sizeof(libraries[0]); i++) {
		rapier_plt_restore(&libraries[i]->poll);
	}
}
