/*
 * The event loop: one epoll instance and one timer heap.
 *
 * A poll has three phases, always in this order:
 *   1. wait: epoll_pwait2 until the first timer's deadline (nanoseconds, so
 *      a 100 microsecond sleep is not rounded up to a whole millisecond as
 *      epoll_wait would; kernels before 5.11 fall back to epoll_wait);
 *   2. I/O: run the callback of every watcher that fired;
 *   3. timers: run every timer whose deadline has passed, re-arming repeats.
 * The scheduler runs ready coroutines between polls. Watchers are level
 * triggered: a reader that stops early is woken again, never lost.
 * Low-priority watchers (new work: client connections) are in
 * a second epoll set, nested in the first; in phase 2 they come after the
 * others, a bounded batch per poll (loop.h, rapier_io_set_low_priority).
 * A watcher stopped while its event waits later in the current batch is
 * removed from the batch, so callbacks may free other watchers safely.
 */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif
#include "loop.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef HAVE_VALGRIND_VALGRIND_H
# include <valgrind/valgrind.h>
#endif

/*
 * Timers processed per poll. A tick whose callback takes longer than its
 * interval would otherwise keep the loop in the timer phase forever and
 * starve I/O; the rest are run at the next poll, which will not block.
 */
#define RAPIER_LOOP_MAX_TIMERS_PER_POLL 4096

int rapier_loop_init(rapier_loop_t *loop)
{
	memset(loop, 0, sizeof(*loop));
	loop->low_epoll_fd = -1;
	loop->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (loop->epoll_fd < 0) {
		return -errno;
	}
	loop->events = malloc(sizeof(struct epoll_event) * RAPIER_LOOP_MAX_EVENTS);
	if (loop->events == NULL) {
		close(loop->epoll_fd);
		loop->epoll_fd = -1;
		return -ENOMEM;
	}
	rapier_timer_heap_init(&loop->timers);
	loop->now_ns = rapier_now_ns();
#ifdef RUNNING_ON_VALGRIND
	/* valgrind 3.19 does not know epoll_pwait2 and reports each call as a bug. */
	loop->epoll_pwait2_missing = RUNNING_ON_VALGRIND;
#endif
	return 0;
}

void rapier_loop_close(rapier_loop_t *loop)
{
	if (loop->epoll_fd >= 0) {
		close(loop->epoll_fd);
	}
	loop->epoll_fd = -1;
	if (loop->low_epoll_fd >= 0) {
		close(loop->low_epoll_fd);
	}
	loop->low_epoll_fd = -1;
	free(loop->events);
	loop->events = NULL;
	rapier_timer_heap_free(&loop->timers);
}

/* Puts a fresh, empty epoll instance under the descriptor number fd. */
static void renew_epoll_instance(int fd)
{
	int fresh = epoll_create1(EPOLL_CLOEXEC);

	if (fresh >= 0) {
		dup3(fresh, fd, O_CLOEXEC);
		close(fresh);
	}
}

/*
 * A forked child shares its parent's epoll instances: the watchers it
 * stopped (unwinding its copies of the parent's coroutines at exit(), say)
 * would be taken out of the parent's set, and the parent would wait for
 * them forever. The child gets empty instances of its own under the same
 * descriptor numbers: what it watches from now on works there, and the
 * parent's watchers and timers stay the parent's (their copies never fire
 * in the child, nor keep its loop alive). System calls and memory writes
 * only: this runs in a pthread_atfork() child handler.
 */
void rapier_loop_fork_child(rapier_loop_t *loop)
{
	struct epoll_event ev;

	if (loop->epoll_fd < 0) {
		return;
	}
	renew_epoll_instance(loop->epoll_fd);
	/* Every watcher registered so far is the parent's (forget_if_inherited()). */
	loop->generation++;
	loop->io_ref_count = 0;
	/* The rest of a batch the parent was dispatching is the parent's too. */
	loop->event_count = loop->event_index = 0;
	loop->low_ready = false;
	rapier_timer_heap_forget(&loop->timers);
	/* Deferred work of the parent's (a flush to its connections) is not the child's to do. */
	while (!rapier_list_is_empty(&loop->deferred)) {
		rapier_defer_stop(loop, RAPIER_LIST_ENTRY(loop->deferred.head, rapier_defer_t, link));
	}
	if (loop->low_epoll_fd >= 0) {
		renew_epoll_instance(loop->low_epoll_fd);
		ev.events = loop->low_io.events;
		ev.data.ptr = &loop->low_io;
		epoll_ctl(loop->epoll_fd, EPOLL_CTL_ADD, loop->low_epoll_fd, &ev);
		loop->low_io.generation = loop->generation;
	}
}

/*
 * A forked child's copy of a watcher its parent registered: in no epoll set
 * of the child's and counted nowhere, so it is stopped here without a
 * system call, and a start registers it afresh.
 */
static void forget_if_inherited(const rapier_loop_t *loop, rapier_io_t *io)
{
	if (io->active && io->generation != loop->generation) {
		io->active = false;
		io->paused = false;
		io->events = 0;
	}
}

bool rapier_loop_alive(const rapier_loop_t *loop)
{
	return loop->io_ref_count > 0 || loop->timers.ref_count > 0 || !rapier_list_is_empty(&loop->deferred);
}

void rapier_defer_init(rapier_defer_t *defer, rapier_defer_cb cb, void *data)
{
	memset(defer, 0, sizeof(*defer));
	defer->cb = cb;
	defer->data = data;
}

void rapier_defer_start(rapier_loop_t *loop, rapier_defer_t *defer)
{
	if (!defer->pending) {
		defer->pending = true;
		defer->pass = loop->defer_pass;
		rapier_list_push(&loop->deferred, &defer->link);
	}
}

void rapier_defer_stop(rapier_loop_t *loop, rapier_defer_t *defer)
{
	if (defer->pending) {
		defer->pending = false;
		rapier_list_remove(&loop->deferred, &defer->link);
	}
}

int rapier_loop_run_deferred(rapier_loop_t *loop)
{
	uint64_t pass = loop->defer_pass++;
	int ran = 0;

	/* Work deferred from here on has the next pass, and is at the tail. */
	while (!rapier_list_is_empty(&loop->deferred)) {
		rapier_defer_t *defer = RAPIER_LIST_ENTRY(loop->deferred.head, rapier_defer_t, link);

		if (defer->pass > pass) {
			break;
		}
		rapier_defer_stop(loop, defer);
		defer->cb(defer);
		ran++;
	}
	return ran;
}

void rapier_io_init(rapier_io_t *io, int fd, rapier_io_cb cb, void *data)
{
	io->fd = fd;
	io->events = 0;
	io->active = false;
	io->unref = false;
	io->paused = false;
	io->low_priority = false;
	io->generation = 0;
	io->cb = cb;
	io->data = data;
}

void rapier_io_set_low_priority(rapier_io_t *io)
{
	if (!io->active) {
		io->low_priority = true;
	}
}

void rapier_io_set_normal_priority(rapier_io_t *io)
{
	if (!io->active) {
		io->low_priority = false;
	}
}

static void on_low_priority_ready(rapier_io_t *io, uint32_t events)
{
	rapier_loop_t *loop = io->data;

	loop->low_ready = true;
}

/* The epoll set io belongs in; the low-priority set is made when first needed. */
static int epoll_fd_of(rapier_loop_t *loop, const rapier_io_t *io)
{
	int fd, rc;

	if (!io->low_priority) {
		return loop->epoll_fd;
	}
	if (loop->low_epoll_fd >= 0) {
		return loop->low_epoll_fd;
	}
	fd = epoll_create1(EPOLL_CLOEXEC);
	if (fd < 0) {
		return -errno;
	}
	rapier_io_init(&loop->low_io, fd, on_low_priority_ready, loop);
	/* Its members keep the loop alive, not the set itself. */
	loop->low_io.unref = true;
	rc = rapier_io_start(loop, &loop->low_io, RAPIER_IO_READ);
	if (rc < 0) {
		close(fd);
		return rc;
	}
	loop->low_epoll_fd = fd;
	return fd;
}

int rapier_io_start(rapier_loop_t *loop, rapier_io_t *io, uint32_t events)
{
	struct epoll_event ev;
	int epoll_fd;

	forget_if_inherited(loop, io);
	if (events == 0) {
		rapier_io_stop(loop, io);
		return 0;
	}
	if (io->paused) {
		io->paused = false;
		if (!io->unref) {
			loop->io_ref_count++;
		}
	}
	if (io->active && io->events == events) {
		return 0;
	}
	epoll_fd = epoll_fd_of(loop, io);
	if (epoll_fd < 0) {
		return epoll_fd;
	}
	ev.events = events;
	ev.data.ptr = io;
	if (epoll_ctl(epoll_fd, io->active ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, io->fd, &ev) < 0) {
		return -errno;
	}
	io->generation = loop->generation;
	if (!io->active && !io->unref) {
		loop->io_ref_count++;
	}
	io->active = true;
	io->events = events;
	return 0;
}

static void forget_pending_events(rapier_loop_t *loop, rapier_io_t *io)
{
	for (int i = loop->event_index; i < loop->event_count; i++) {
		if (loop->events[i].data.ptr == io) {
			loop->events[i].data.ptr = NULL;
		}
	}
}

void rapier_io_stop(rapier_loop_t *loop, rapier_io_t *io)
{
	forget_if_inherited(loop, io);
	if (!io->active) {
		return;
	}
	/* ENOENT/EBADF: the fd was closed first, and epoll already forgot it. */
	epoll_ctl(io->low_priority ? loop->low_epoll_fd : loop->epoll_fd, EPOLL_CTL_DEL, io->fd, NULL);
	if (!io->unref && !io->paused) {
		loop->io_ref_count--;
	}
	io->active = false;
	io->paused = false;
	io->events = 0;
	forget_pending_events(loop, io);
}

void rapier_io_pause(rapier_loop_t *loop, rapier_io_t *io)
{
	forget_if_inherited(loop, io);
	if (!io->active || io->paused) {
		return;
	}
	io->paused = true;
	if (!io->unref) {
		loop->io_ref_count--;
	}
	forget_pending_events(loop, io);
}

void rapier_io_set_unref(rapier_loop_t *loop, rapier_io_t *io, bool unref)
{
	forget_if_inherited(loop, io);
	if (io->unref == unref) {
		return;
	}
	if (io->active && !io->paused) {
		if (unref) {
			loop->io_ref_count--;
		} else {
			loop->io_ref_count++;
		}
	}
	io->unref = unref;
}

int rapier_timer_start(rapier_loop_t *loop, rapier_timer_t *timer, uint64_t timeout_ns, uint64_t repeat_ns)
{
	timer->repeat_ns = repeat_ns;
	return rapier_timer_heap_add(&loop->timers, timer, rapier_now_ns() + timeout_ns);
}

int rapier_timer_start_at(rapier_loop_t *loop, rapier_timer_t *timer, uint64_t due_ns)
{
	timer->repeat_ns = 0;
	return rapier_timer_heap_add(&loop->timers, timer, due_ns);
}

void rapier_timer_stop(rapier_loop_t *loop, rapier_timer_t *timer)
{
	rapier_timer_heap_remove(&loop->timers, timer);
}

static int64_t next_wait_ns(rapier_loop_t *loop, int64_t timeout_ns)
{
	rapier_timer_t *first = rapier_timer_heap_peek(&loop->timers);
	int64_t until_timer;

	if (first == NULL) {
		return timeout_ns;
	}
	until_timer = first->due_ns > loop->now_ns ? (int64_t) (first->due_ns - loop->now_ns) : 0;
	if (timeout_ns < 0 || until_timer < timeout_ns) {
		return until_timer;
	}
	return timeout_ns;
}

static int wait_for_events(rapier_loop_t *loop, int64_t wait_ns)
{
	int n;

	if (!loop->epoll_pwait2_missing) {
		struct timespec ts, *tsp = NULL;
		if (wait_ns >= 0) {
			ts.tv_sec = wait_ns / 1000000000;
			ts.tv_nsec = wait_ns % 1000000000;
			tsp = &ts;
		}
		n = epoll_pwait2(loop->epoll_fd, loop->events, RAPIER_LOOP_MAX_EVENTS, tsp, NULL);
		if (n >= 0 || errno != ENOSYS) {
			return n < 0 ? -errno : n;
		}
		loop->epoll_pwait2_missing = true;
	}
	/* Round up so a timer is never reported before its deadline. */
	n = epoll_wait(loop->epoll_fd, loop->events, RAPIER_LOOP_MAX_EVENTS,
		wait_ns < 0 ? -1 : (int) ((wait_ns + 999999) / 1000000));
	return n < 0 ? -errno : n;
}

static int dispatch_io(rapier_loop_t *loop, int count)
{
	int ran = 0;

	loop->event_count = count;
	for (loop->event_index = 0; loop->event_index < count; ) {
		struct epoll_event *ev = &loop->events[loop->event_index++];
		rapier_io_t *io = ev->data.ptr;
		if (io == NULL) {
			continue;
		}
		if (io->paused) {
			/* Something arrived while paused: a level-triggered watcher would fire on every poll. */
			rapier_io_stop(loop, io);
			continue;
		}
		io->cb(io, ev->events);
		ran++;
	}
	loop->event_count = 0;
	loop->event_index = 0;
	return ran;
}

static int run_timers(rapier_loop_t *loop)
{
	int ran = 0;
	rapier_timer_t *timer;

	while (ran < RAPIER_LOOP_MAX_TIMERS_PER_POLL
			&& (timer = rapier_timer_heap_peek(&loop->timers)) != NULL
			&& timer->due_ns <= loop->now_ns) {
		rapier_timer_heap_remove(&loop->timers, timer);
		if (timer->repeat_ns) {
			/* Re-arm from the deadline, not from now, so ticks do not drift. */
			uint64_t next = timer->due_ns + timer->repeat_ns;
			if (next <= loop->now_ns) {
				next = loop->now_ns + timer->repeat_ns;
			}
			rapier_timer_heap_add(&loop->timers, timer, next);
		}
		timer->cb(timer);
		ran++;
	}
	return ran;
}

int rapier_loop_poll(rapier_loop_t *loop, int64_t timeout_ns)
{
	int count, ran;

	/* Deferred work may have made more work: look, do not wait. */
	if (rapier_loop_run_deferred(loop) > 0) {
		timeout_ns = 0;
	}
	loop->now_ns = rapier_now_ns();
	count = wait_for_events(loop, next_wait_ns(loop, timeout_ns));
	if (count < 0 && count != -EINTR) {
		return count;
	}
	ran = count > 0 ? dispatch_io(loop, count) : 0;
	if (loop->low_ready) {
		loop->low_ready = false;
		ran--; /* on_low_priority_ready is the loop's own, not a watcher the caller started */
		count = epoll_wait(loop->low_epoll_fd, loop->events, RAPIER_LOOP_LOW_PRIORITY_BATCH, 0);
		ran += count > 0 ? dispatch_io(loop, count) : 0;
	}
	loop->now_ns = rapier_now_ns();
	return ran + run_timers(loop);
}
