/* Unit tests for the loop's I/O watchers: start, stop, pause. */
#include "unit.h"

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

/* A paused watcher runs no callback and does not keep the loop alive; start resumes it. */
static void test_pause_then_start(void)
{
	rapier_loop_t loop;
	rapier_io_t io;
	int fds[2];

	CHECK_EQ_INT(rapier_loop_init(&loop), 0);
	CHECK_EQ_INT(pipe(fds), 0);
	rapier_io_init(&io, fds[0], on_io, NULL);
	CHECK_EQ_INT(rapier_io_start(&loop, &io, RAPIER_IO_READ), 0);
	CHECK(rapier_loop_alive(&loop));
	rapier_io_pause(&loop, &io);
	CHECK(!rapier_loop_alive(&loop));
	CHECK(io.active);
	/* Resuming with the same events: still registered, ref'd again. */
	CHECK_EQ_INT(rapier_io_start(&loop, &io, RAPIER_IO_READ), 0);
	CHECK(rapier_loop_alive(&loop));
	CHECK(!io.paused);
	CHECK_EQ_INT((int) write(fds[1], "x", 1), 1);
	CHECK_EQ_INT(rapier_loop_poll(&loop, 0), 1);
	CHECK_EQ_INT(calls, 1);
	rapier_io_stop(&loop, &io);
	CHECK(!rapier_loop_alive(&loop));
	close(fds[0]);
	close(fds[1]);
	rapier_loop_close(&loop);
}

/* An event while paused stops the watcher for real, so it cannot fire on every poll. */
static void test_event_while_paused_stops(void)
{
	rapier_loop_t loop;
	rapier_io_t io;
	int fds[2];

	calls = 0;
	CHECK_EQ_INT(rapier_loop_init(&loop), 0);
	CHECK_EQ_INT(pipe(fds), 0);
	rapier_io_init(&io, fds[0], on_io, NULL);
	CHECK_EQ_INT(rapier_io_start(&loop, &io, RAPIER_IO_READ), 0);
	rapier_io_pause(&loop, &io);
	CHECK_EQ_INT((int) write(fds[1], "x", 1), 1);
	rapier_loop_poll(&loop, 0);
	CHECK_EQ_INT(calls, 0);
	CHECK(!io.active);
	CHECK(!io.paused);
	/* Nothing registered: a second poll sees nothing though the byte is unread. */
	CHECK_EQ_INT(rapier_loop_poll(&loop, 0), 0);
	/* Starting again registers it, and the waiting byte is delivered. */
	CHECK_EQ_INT(rapier_io_start(&loop, &io, RAPIER_IO_READ), 0);
	CHECK_EQ_INT(rapier_loop_poll(&loop, 0), 1);
	CHECK_EQ_INT(calls, 1);
	rapier_io_stop(&loop, &io);
	close(fds[0]);
	close(fds[1]);
	rapier_loop_close(&loop);
}

/* Stopping a paused watcher leaves the reference count balanced. */
static void test_stop_while_paused(void)
{
	rapier_loop_t loop;
	rapier_io_t io;
	int fds[2];

	CHECK_EQ_INT(rapier_loop_init(&loop), 0);
	CHECK_EQ_INT(pipe(fds), 0);
	rapier_io_init(&io, fds[0], on_io, NULL);
	CHECK_EQ_INT(rapier_io_start(&loop, &io, RAPIER_IO_READ), 0);
	rapier_io_pause(&loop, &io);
	rapier_io_stop(&loop, &io);
	CHECK_EQ_INT((int) loop.io_ref_count, 0);
	CHECK_EQ_INT(rapier_io_start(&loop, &io, RAPIER_IO_READ), 0);
	CHECK_EQ_INT((int) loop.io_ref_count, 1);
	rapier_io_stop(&loop, &io);
	CHECK_EQ_INT((int) loop.io_ref_count, 0);
	close(fds[0]);
	close(fds[1]);
	rapier_loop_close(&loop);
}

int main(void)
{
	test_pause_then_start();
	test_event_while_paused_stops();
	test_stop_while_paused();
	return unit_finish("loop_test");
}
