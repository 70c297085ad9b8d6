/* Unit tests for the loop's I/O watchers: start, stop, pause. */
#define _GNU_SOURCE  /* before the first system header: dup3() in loop.c */
#include "unit.h"

#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

#include "timer.c"
#include "loop.c"

static int calls;

static void on_io(rapier_io_t *io, uint32_t events)
{
	char buf[16];

	(void) events;
	calls++;
	(void) !read(io->fd, buf, sizeof(buf));
}

/* A loop and a pipe whose read end io watches with on_io (not started yet). */
typedef struct {
	rapier_loop_t loop;
	rapier_io_t io;
	int fds[2];
} pipe_watch_t;

static void pipe_watch_open(pipe_watch_t *p)
{
	CHECK_EQ_INT(rapier_loop_init(&p->loop), 0);
	CHECK_EQ_INT(pipe(p->fds), 0);
	rapier_io_init(&p->io, p->fds[0], on_io, NULL);
}

static void pipe_watch_close(pipe_watch_t *p)
{
	rapier_io_stop(&p->loop, &p->io);
	close(p->fds[0]);
	close(p->fds[1]);
	rapier_loop_close(&p->loop);
}

/* A paused watcher runs no callback and does not keep the loop alive; start resumes it. */
static void test_pause_then_start(void)
{
	pipe_watch_t p;

	pipe_watch_open(&p);
	CHECK_EQ_INT(rapier_io_start(&p.loop, &p.io, RAPIER_IO_READ), 0);
	CHECK(rapier_loop_alive(&p.loop));
	rapier_io_pause(&p.loop, &p.io);
	CHECK(!rapier_loop_alive(&p.loop));
	CHECK(p.io.active);
	/* Resuming with the same events: still registered, ref'd again. */
	CHECK_EQ_INT(rapier_io_start(&p.loop, &p.io, RAPIER_IO_READ), 0);
	CHECK(rapier_loop_alive(&p.loop));
	CHECK(!p.io.paused);
	CHECK_EQ_INT((int) write(p.fds[1], "x", 1), 1);
	CHECK_EQ_INT(rapier_loop_poll(&p.loop, 0), 1);
	CHECK_EQ_INT(calls, 1);
	rapier_io_stop(&p.loop, &p.io);
	CHECK(!rapier_loop_alive(&p.loop));
	pipe_watch_close(&p);
}

/* An event while paused stops the watcher for real, so it cannot fire on every poll. */
static void test_event_while_paused_stops(void)
{
	pipe_watch_t p;

	calls = 0;
	pipe_watch_open(&p);
	CHECK_EQ_INT(rapier_io_start(&p.loop, &p.io, RAPIER_IO_READ), 0);
	rapier_io_pause(&p.loop, &p.io);
	CHECK_EQ_INT((int) write(p.fds[1], "x", 1), 1);
	rapier_loop_poll(&p.loop, 0);
	CHECK_EQ_INT(calls, 0);
	CHECK(!p.io.active);
	CHECK(!p.io.paused);
	/* Nothing registered: a second poll sees nothing though the byte is unread. */
	CHECK_EQ_INT(rapier_loop_poll(&p.loop, 0), 0);
	/* Starting again registers it, and the waiting byte is delivered. */
	CHECK_EQ_INT(rapier_io_start(&p.loop, &p.io, RAPIER_IO_READ), 0);
	CHECK_EQ_INT(rapier_loop_poll(&p.loop, 0), 1);
	CHECK_EQ_INT(calls, 1);
	pipe_watch_close(&p);
}

/* Stopping a paused watcher leaves the reference count balanced. */
static void test_stop_while_paused(void)
{
	pipe_watch_t p;

	pipe_watch_open(&p);
	CHECK_EQ_INT(rapier_io_start(&p.loop, &p.io, RAPIER_IO_READ), 0);
	rapier_io_pause(&p.loop, &p.io);
	rapier_io_stop(&p.loop, &p.io);
	CHECK_EQ_INT((int) p.loop.io_ref_count, 0);
	CHECK_EQ_INT(rapier_io_start(&p.loop, &p.io, RAPIER_IO_READ), 0);
	CHECK_EQ_INT((int) p.loop.io_ref_count, 1);
	rapier_io_stop(&p.loop, &p.io);
	CHECK_EQ_INT((int) p.loop.io_ref_count, 0);
	pipe_watch_close(&p);
}

static int order[2 * RAPIER_LOOP_LOW_PRIORITY_BATCH];
static int order_len;

static void on_io_in_order(rapier_io_t *io, uint32_t events)
{
	on_io(io, events);
	if (order_len < (int) (sizeof(order) / sizeof(order[0]))) {
		order[order_len++] = (int) (intptr_t) io->data;
	}
}

/*
 * Low-priority watchers run after the others, at most a batch per poll,
 * and the rest in later polls: a flood of them never delays the others.
 */
static void test_low_priority_batches(void)
{
	enum { LOW = RAPIER_LOOP_LOW_PRIORITY_BATCH + 36 };
	rapier_loop_t loop;
	rapier_io_t urgent, low[LOW];
	int urgent_fds[2], low_fds[LOW][2];

	calls = order_len = 0;
	CHECK_EQ_INT(rapier_loop_init(&loop), 0);
	for (int i = 0; i < LOW; i++) {
		CHECK_EQ_INT(pipe(low_fds[i]), 0);
		rapier_io_init(&low[i], low_fds[i][0], on_io_in_order, (void *) (intptr_t) (i + 1));
		rapier_io_set_low_priority(&low[i]);
		CHECK_EQ_INT(rapier_io_start(&loop, &low[i], RAPIER_IO_READ), 0);
		CHECK_EQ_INT((int) write(low_fds[i][1], "x", 1), 1);
	}
	CHECK_EQ_INT(pipe(urgent_fds), 0);
	rapier_io_init(&urgent, urgent_fds[0], on_io_in_order, (void *) (intptr_t) 0);
	CHECK_EQ_INT(rapier_io_start(&loop, &urgent, RAPIER_IO_READ), 0);
	/* Written last, so in one epoll set it would come after all the others. */
	CHECK_EQ_INT((int) write(urgent_fds[1], "x", 1), 1);

	CHECK_EQ_INT(rapier_loop_poll(&loop, 0), 1 + RAPIER_LOOP_LOW_PRIORITY_BATCH);
	CHECK_EQ_INT(order[0], 0);
	CHECK_EQ_INT(rapier_loop_poll(&loop, 0), LOW - RAPIER_LOOP_LOW_PRIORITY_BATCH);
	CHECK_EQ_INT(rapier_loop_poll(&loop, 0), 0);
	CHECK_EQ_INT(calls, 1 + LOW);

	/* The members keep the loop alive, not the low-priority set's own watcher. */
	rapier_io_stop(&loop, &urgent);
	CHECK(rapier_loop_alive(&loop));
	for (int i = 0; i < LOW; i++) {
		rapier_io_stop(&loop, &low[i]);
		close(low_fds[i][0]);
		close(low_fds[i][1]);
	}
	CHECK(!rapier_loop_alive(&loop));
	close(urgent_fds[0]);
	close(urgent_fds[1]);
	rapier_loop_close(&loop);
}

/* Only a stopped watcher changes set: a registered one would be left in the other. */
static void test_low_priority_only_when_stopped(void)
{
	pipe_watch_t p;

	pipe_watch_open(&p);
	CHECK_EQ_INT(rapier_io_start(&p.loop, &p.io, RAPIER_IO_READ), 0);
	rapier_io_set_low_priority(&p.io);
	CHECK(!p.io.low_priority);
	CHECK_EQ_INT(p.loop.low_epoll_fd, -1);
	pipe_watch_close(&p);
}

/* The child's side of test_fork_child_has_own_sets(): its exit status says what failed. */
static int timer_calls;

static void on_timer(rapier_timer_t *timer)
{
	(void) timer;
	timer_calls++;
}

static int fork_deferred_calls;

static void on_fork_deferred(rapier_defer_t *defer)
{
	(void) defer;
	fork_deferred_calls++;
}

static int fork_child_checks(rapier_loop_t *loop, rapier_io_t *normal, rapier_io_t *low, rapier_io_t *copied,
	int copied_wr, rapier_timer_t *timer)
{
	rapier_io_t fresh;
	int fresh_fds[2];

	rapier_loop_fork_child(loop);
	/* The parent's watchers, timer and deferred work are forgotten: they keep nothing alive, and do not run. */
	if (rapier_loop_alive(loop) || rapier_timer_is_active(timer)) {
		return 9;
	}
	if (rapier_loop_run_deferred(loop) != 0 || fork_deferred_calls != 0) {
		return 15;
	}
	usleep(2000);
	if (rapier_loop_poll(loop, 0) != 0 || timer_calls != 0) {
		return 8;
	}
	/* What a child's exit() does to its copies of the parent's watchers. */
	rapier_io_stop(loop, normal);
	rapier_io_stop(loop, low);
	/* A copy restarted with other events is not in the child's set yet: added, not modified. */
	if (rapier_io_start(loop, copied, RAPIER_IO_READ | RAPIER_IO_WRITE) != 0) {
		return 10;
	}
	if (write(copied_wr, "x", 1) != 1 || rapier_loop_poll(loop, 0) != 1 || calls != 1) {
		return 11;
	}
	if (pipe(fresh_fds) != 0) {
		return 12;
	}
	rapier_io_init(&fresh, fresh_fds[0], on_io, NULL);
	if (rapier_io_start(loop, &fresh, RAPIER_IO_READ) != 0 || write(fresh_fds[1], "x", 1) != 1
			|| rapier_loop_poll(loop, 0) != 1 || calls != 2) {
		return 13;
	}
	/* Only what the child started keeps its loop alive; a copy started again is its own. */
	rapier_io_stop(loop, &fresh);
	rapier_io_stop(loop, copied);
	if (rapier_loop_alive(loop) || rapier_timer_start(loop, timer, 0, 0) != 0 || !rapier_loop_alive(loop)
			|| rapier_loop_poll(loop, 0) != 1 || timer_calls != 1) {
		return 14;
	}
	return 0;
}

/*
 * A forked child gets epoll sets of its own and forgets the parent's watchers
 * and timers: stopping its copies leaves the parent's registered, and its
 * copies neither fire nor keep its loop alive.
 */
static void test_fork_child_has_own_sets(void)
{
	rapier_loop_t loop;
	rapier_io_t normal, low, copied;
	rapier_timer_t timer;
	rapier_defer_t defer;
	int normal_fds[2], low_fds[2], copied_fds[2], status = -1;
	pid_t pid;

	calls = timer_calls = 0;
	CHECK_EQ_INT(rapier_loop_init(&loop), 0);
	CHECK_EQ_INT(pipe(normal_fds), 0);
	CHECK_EQ_INT(pipe(low_fds), 0);
	CHECK_EQ_INT(pipe(copied_fds), 0);
	rapier_io_init(&normal, normal_fds[0], on_io, NULL);
	rapier_io_init(&low, low_fds[0], on_io, NULL);
	rapier_io_set_low_priority(&low);
	rapier_io_init(&copied, copied_fds[0], on_io, NULL);
	CHECK_EQ_INT(rapier_io_start(&loop, &normal, RAPIER_IO_READ), 0);
	CHECK_EQ_INT(rapier_io_start(&loop, &low, RAPIER_IO_READ), 0);
	CHECK_EQ_INT(rapier_io_start(&loop, &copied, RAPIER_IO_READ), 0);
	rapier_timer_init(&timer, on_timer, NULL);
	CHECK_EQ_INT(rapier_timer_start(&loop, &timer, 1000000, 0), 0);
	rapier_defer_init(&defer, on_fork_deferred, NULL);
	rapier_defer_start(&loop, &defer);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		_exit(fork_child_checks(&loop, &normal, &low, &copied, copied_fds[1], &timer));
	}
	CHECK_EQ_INT((int) waitpid(pid, &status, 0), (int) pid);
	CHECK(WIFEXITED(status));
	CHECK_EQ_INT(WEXITSTATUS(status), 0);
	/* The child read the copied pipe's byte; the parent's watchers of the other two, and its timer, still fire. */
	CHECK_EQ_INT((int) write(normal_fds[1], "x", 1), 1);
	CHECK_EQ_INT((int) write(low_fds[1], "x", 1), 1);
	usleep(2000);
	CHECK_EQ_INT(rapier_loop_run_deferred(&loop), 1);
	CHECK_EQ_INT(fork_deferred_calls, 1);
	CHECK_EQ_INT(rapier_loop_poll(&loop, 0), 3);
	CHECK_EQ_INT(calls, 2);
	CHECK_EQ_INT(timer_calls, 1);
	rapier_io_stop(&loop, &normal);
	rapier_io_stop(&loop, &low);
	rapier_io_stop(&loop, &copied);
	for (int i = 0; i < 2; i++) {
		close(normal_fds[i]);
		close(low_fds[i]);
		close(copied_fds[i]);
	}
	rapier_loop_close(&loop);
}

/* Deferred work: once however often started, oldest first, what it defers waits for the next run, stop cancels. */
static int deferred_order[8];
static int deferred_count;
static rapier_loop_t *deferred_loop;
static rapier_defer_t deferred[3];

static void on_deferred(rapier_defer_t *defer)
{
	int id = (int) (intptr_t) defer->data;

	deferred_order[deferred_count++] = id;
	/* The first one defers the third again: that waits for the next run. */
	if (id == 0) {
		rapier_defer_start(deferred_loop, &deferred[2]);
	}
}

static void test_deferred_work(void)
{
	rapier_loop_t loop;

	CHECK_EQ_INT(rapier_loop_init(&loop), 0);
	deferred_loop = &loop;
	for (int i = 0; i < 3; i++) {
		rapier_defer_init(&deferred[i], on_deferred, (void *) (intptr_t) i);
	}
	CHECK(!rapier_loop_alive(&loop));
	rapier_defer_start(&loop, &deferred[1]);
	rapier_defer_start(&loop, &deferred[0]);
	rapier_defer_start(&loop, &deferred[1]);
	CHECK(rapier_loop_alive(&loop));
	CHECK_EQ_INT(rapier_loop_run_deferred(&loop), 2);
	CHECK_EQ_INT(deferred_count, 2);
	CHECK_EQ_INT(deferred_order[0], 1);
	CHECK_EQ_INT(deferred_order[1], 0);
	/* The third, deferred by the first, is pending; a poll runs it and does not block. */
	CHECK(rapier_loop_alive(&loop));
	CHECK_EQ_INT(rapier_loop_poll(&loop, -1), 0);
	CHECK_EQ_INT(deferred_count, 3);
	CHECK_EQ_INT(deferred_order[2], 2);
	CHECK(!rapier_loop_alive(&loop));
	/* Stopped before its run: it never runs. */
	rapier_defer_start(&loop, &deferred[1]);
	rapier_defer_start(&loop, &deferred[2]);
	rapier_defer_stop(&loop, &deferred[1]);
	CHECK_EQ_INT(rapier_loop_run_deferred(&loop), 1);
	CHECK_EQ_INT(deferred_count, 4);
	CHECK_EQ_INT(deferred_order[3], 2);
	CHECK_EQ_INT(rapier_loop_run_deferred(&loop), 0);
	CHECK(!rapier_loop_alive(&loop));
	rapier_loop_close(&loop);
}

int main(void)
{
	test_pause_then_start();
	test_event_while_paused_stops();
	test_stop_while_paused();
	test_low_priority_batches();
	test_low_priority_only_when_stopped();
	test_fork_child_has_own_sets();
	test_deferred_work();
	return unit_finish("loop_test");
}
