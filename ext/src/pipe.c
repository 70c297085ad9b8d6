/*
 * Waits on PHP's stdio streams (see pipe.h).
 *
 * A pipe keeps the mode its owner gave it: Rapier never sets O_NONBLOCK on
 * a descriptor it did not open (the other end of a standard stream is often
 * a shell or a terminal that shares its file status flags). So a read first
 * asks poll() whether the pipe has something and, if not, waits in the loop
 * before PHP's blocking read; a write asks whether it has room and writes
 * PIPE_BUF bytes at most at a time, which a pipe with room takes without
 * blocking. A pipe made non-blocking gets PHP's answer, and so does every
 * pipe where the caller may not yield. The copied ops tables keep PHP's
 * label ("STDIO"); only a C caller asking php_stream_is(stream,
 * PHP_STREAM_IS_STDIO) can tell, and none does for a pipe or a terminal.
 *
 * Writers take turns. A coroutine's fwrite() to a pipe is written whole
 * before another coroutine's write to that pipe starts, as in a process of
 * plain PHP: a writer that finds the pipe full keeps its turn while it
 * waits in the loop, and the others queue behind it in arrival order, so
 * no log line is cut by another. Pipes are told apart by device and inode,
 * so that descriptors dup()ed from one (STDOUT, and a php://stdout opened
 * beside it) take turns together. Two coroutines reading one pipe
 * is an error: they would share its bytes at random.
 *
 * Closing a pipe wakes a stream_select() that watches it among others, as
 * closing a socket does; one waiting on it alone has pinned it.
 */
#include "php_rapier.h"
#include "php_network.h"
#include "zend_exceptions.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sys/stat.h>

#include "coroutine.h"
#include "hook.h"
#include "list.h"
#include "pipe.h"
#include "socket.h"

/*
 * A coroutine that waits on a stream, on that coroutine's stack: while it
 * is pinned the stream cannot be freed (in_free, PHP's own guard in
 * _php_stream_free()), and fclose(), pclose() and proc_close() of it throw.
 */
typedef struct {
	php_stream *stream;   /* NULL: PHP's output layer, writing to fd */
	int fd;
	rapier_coro_t *co;
	rapier_pipe_kind_t kind;
	rapier_list_node_t link;
} pipe_pin_t;

/* A coroutine writing to a pipe, or queued to, on its stack. */
typedef struct {
	rapier_list_node_t link;
	rapier_coro_t *co;
	int fd;
	bool identified;     /* dev and ino are read (only when writers meet) */
	dev_t dev;           /* what fd is open on (ino 0: unknown), so that */
	ino_t ino;           /* STDOUT and a php://stdout (a dup()) take turns together */
	bool writing;        /* its turn: the first writer of the pipe, or handed the turn */
} pipe_writer_t;

/* Where a writer's bytes go: a stream, or, without one, the SAPI (PHP's output layer). */
typedef struct {
	php_stream *stream;
	size_t (*ub_write)(const char *str, size_t len);
} pipe_sink_t;

static php_stream_ops ops[2];     /* by rapier_pipe_kind_t */
static rapier_list_t pinned;
static rapier_list_t writers;    /* in arrival order: the first of each pipe writes */

/* "pipe fd 3", or "fd 0 (STDIN)": how messages name fd. */
static const char *describe(char *buf, size_t len, int fd, rapier_pipe_kind_t kind)
{
	static const char *const standard[] = { "STDIN", "STDOUT", "STDERR" };

	if (kind == RAPIER_PIPE_CHILD) {
		snprintf(buf, len, "pipe fd %d", fd);
	} else if (fd >= 0 && fd <= 2) {
		snprintf(buf, len, "fd %d (%s)", fd, standard[fd]);
	} else {
		snprintf(buf, len, "fd %d", fd);
	}
	return buf;
}

static void pin_stream(pipe_pin_t *pin, php_stream *stream, int fd, rapier_pipe_kind_t kind)
{
	pin->stream = stream;
	pin->fd = fd;
	pin->co = rapier_coro_current();
	pin->kind = kind;
	if (stream != NULL) {
		stream->in_free++;
	}
	rapier_list_push(&pinned, &pin->link);
}

static void unpin_stream(pipe_pin_t *pin)
{
	if (pin->stream != NULL) {
		pin->stream->in_free--;
	}
	rapier_list_remove(&pinned, &pin->link);
}

/* The stream's descriptor when it is in blocking mode, else -1 (PHP's own call is then the answer). */
static int blocking_fd(php_stream *stream)
{
	php_socket_t fd = -1;
	int flags;

	if (php_stream_cast(stream, PHP_STREAM_AS_FD_FOR_SELECT | PHP_STREAM_CAST_INTERNAL, (void **) &fd, 0) != SUCCESS
			|| fd < 0 || (flags = fcntl(fd, F_GETFL)) < 0 || (flags & O_NONBLOCK)) {
		return -1;
	}
	return fd;
}

static bool ready_now(int fd, short events)
{
	struct pollfd pfd = { .fd = fd, .events = events };

	return poll(&pfd, 1, 0) != 0;
}

static void throw_busy(int fd, uint32_t direction, rapier_pipe_kind_t kind)
{
	bool reading = direction == RAPIER_IO_READ;
	char name[32];

	zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot %s %s: coroutine #" ZEND_LONG_FMT " is already %s it; %s",
		reading ? "read" : "write", describe(name, sizeof(name), fd, kind), rapier_socket_waiter_id(fd, direction),
		reading ? "reading" : "writing",
		kind == RAPIER_PIPE_CHILD ? "use one coroutine per pipe end"
			: "read it in one coroutine and pass what it reads on (a Rapier\\Channel)");
}

/*
 * Suspends the current coroutine until fd, stream's descriptor, can be
 * read (or written: RAPIER_IO_WRITE) without blocking, the stream pinned
 * meanwhile. False, with an exception thrown, when another coroutine
 * already waits on that direction or this one was canceled.
 */
static bool wait_ready(php_stream *stream, int fd, uint32_t direction, rapier_pipe_kind_t kind)
{
	pipe_pin_t pin;
	int acquired = rapier_socket_acquire(fd, direction);
	int err;

	if (acquired == -EBUSY) {
		throw_busy(fd, direction, kind);
		return false;
	}
	if (acquired < 0) {
		return true;   /* out of memory for the record: PHP's call blocks instead */
	}
	pin_stream(&pin, stream, fd, kind);
	err = rapier_socket_wait(fd, direction, -1);
	unpin_stream(&pin);
	rapier_socket_release(fd, direction);
	/* PHP closes the pipe with close(), which the loop would never hear of. */
	rapier_socket_unwatch(fd);
	if (err == -ECANCELED) {
		if (!EG(exception)) {
			char name[32];

			zend_throw_exception_ex(rapier_ce_canceled_exception, 0, "Coroutine was canceled while %s %s",
				direction == RAPIER_IO_READ ? "reading" : "writing", describe(name, sizeof(name), fd, kind));
		}
		return false;
	}
	return true;
}

/* Each kind's flag: a child's pipes are HOOK_PROC's, the standard streams HOOK_STDIO's. */
static bool may_yield(rapier_pipe_kind_t kind)
{
	return rapier_hook_enabled(kind == RAPIER_PIPE_CHILD ? RAPIER_HOOK_PROC : RAPIER_HOOK_STDIO)
		&& rapier_coro_can_yield();
}

static ssize_t pipe_read(php_stream *stream, char *buf, size_t count, rapier_pipe_kind_t kind)
{
	int fd;

	if (may_yield(kind) && (fd = blocking_fd(stream)) >= 0 && !ready_now(fd, POLLIN)
			&& !wait_ready(stream, fd, RAPIER_IO_READ, kind)) {
		return -1;
	}
	return php_stream_stdio_ops.read(stream, buf, count);
}

/* Reads what w's descriptor is open on, once: a write nobody else waits beside costs no fstat(). */
static void identify(pipe_writer_t *w)
{
	struct stat st;

	if (!w->identified) {
		w->identified = true;
		if (fstat(w->fd, &st) == 0) {
			w->dev = st.st_dev;
			w->ino = st.st_ino;
		}
	}
}

static bool same_pipe(pipe_writer_t *a, pipe_writer_t *b)
{
	if (a->fd == b->fd) {
		return true;
	}
	identify(a);
	identify(b);
	return a->ino != 0 && a->ino == b->ino && a->dev == b->dev;
}

/*
 * The first writer of the pipe me writes to, or NULL. A forked child's
 * copies of its parent's writers never write: forgotten.
 */
static pipe_writer_t *first_writer_like(pipe_writer_t *me)
{
	rapier_list_node_t *node = writers.head;

	while (node != NULL) {
		pipe_writer_t *w = RAPIER_LIST_ENTRY(node, pipe_writer_t, link);

		node = node->next;
		if (w->co->inherited) {
			rapier_list_remove(&writers, &w->link);
		} else if (same_pipe(w, me)) {
			return w;
		}
	}
	return NULL;
}

static void unlink_writer(rapier_coro_t *co, void *data)
{
	pipe_writer_t *w = data;

	(void) co;
	rapier_list_remove(&writers, &w->link);
}

/* Waits until it is w's turn to write to its pipe. False, with CanceledException thrown, when canceled meanwhile. */
static bool take_turn(pipe_writer_t *w, php_stream *stream, rapier_pipe_kind_t kind)
{
	pipe_pin_t pin;
	char name[32];

	w->co = rapier_coro_current();
	w->writing = first_writer_like(w) == NULL;
	rapier_list_push(&writers, &w->link);
	if (w->writing) {
		return true;
	}
	pin_stream(&pin, stream, w->fd, kind);
	rapier_coro_wait(-1, unlink_writer, w, "its turn to write to a pipe");
	unpin_stream(&pin);
	if (w->writing) {
		return true;
	}
	/* Canceled (one already pending returns at once, still queued). */
	rapier_list_remove(&writers, &w->link);
	if (!EG(exception)) {
		zend_throw_exception_ex(rapier_ce_canceled_exception, 0,
			"Coroutine was canceled while waiting for its turn to write to %s", describe(name, sizeof(name), w->fd, kind));
	}
	return false;
}

/* Hands the turn straight to the next writer of w's pipe, so that no later one can slip in before it. */
static void pass_turn(pipe_writer_t *w)
{
	pipe_writer_t *next;

	rapier_list_remove(&writers, &w->link);
	if ((next = first_writer_like(w)) != NULL) {
		next->writing = true;
		rapier_coro_wake(next->co, RAPIER_WAKE_OK);
	}
}

static ssize_t write_chunk(const pipe_sink_t *sink, const char *buf, size_t count)
{
	size_t n;

	if (sink->stream != NULL) {
		return php_stream_stdio_ops.write(sink->stream, buf, count);
	}
	n = sink->ub_write(buf, count);
	return n > 0 ? (ssize_t) n : -1;
}

/*
 * Writes all of buf to fd in this coroutine's turn, PIPE_BUF bytes at a
 * time, waiting whenever the pipe is full. A failure after some bytes
 * returns those; the stream layer's next call gets PHP's error.
 */
static ssize_t write_in_turn(const pipe_sink_t *sink, int fd, const char *buf, size_t count, rapier_pipe_kind_t kind)
{
	pipe_writer_t w = { .fd = fd };
	size_t written = 0;
	ssize_t n = 0;

	if (!take_turn(&w, sink->stream, kind)) {
		return -1;
	}
	while (written < count) {
		if (!ready_now(fd, POLLOUT) && !wait_ready(sink->stream, fd, RAPIER_IO_WRITE, kind)) {
			written = 0;   /* canceled: the exception is the answer */
			n = -1;
			break;
		}
		/* A writable pipe has room for PIPE_BUF bytes; a longer write could block. */
		n = write_chunk(sink, buf + written, MIN(count - written, PIPE_BUF));
		if (n <= 0) {
			break;
		}
		written += (size_t) n;
	}
	pass_turn(&w);
	return written > 0 ? (ssize_t) written : n;
}

static ssize_t pipe_write(php_stream *stream, const char *buf, size_t count, rapier_pipe_kind_t kind)
{
	pipe_sink_t sink = { .stream = stream };
	int fd;

	if (!may_yield(kind) || (fd = blocking_fd(stream)) < 0) {
		return php_stream_stdio_ops.write(stream, buf, count);
	}
	return write_in_turn(&sink, fd, buf, count, kind);
}

size_t rapier_pipe_write_output(int fd, const char *buf, size_t count, size_t (*ub_write)(const char *str, size_t len))
{
	pipe_sink_t sink = { .ub_write = ub_write };
	pipe_writer_t probe = { .fd = fd };
	char *copy;
	ssize_t n;

	/* Nobody else writing and room for all of it: the SAPI's own write, which cannot block. */
	if (count <= PIPE_BUF && first_writer_like(&probe) == NULL && ready_now(fd, POLLOUT)) {
		return ub_write(buf, count);
	}
	/*
	 * buf may be an output buffer's own memory (ob_start() with a chunk
	 * size passes it on when full) that another coroutine's echo refills,
	 * or frees, while this one waits: a write that may wait sends a copy.
	 */
	copy = emalloc(count);
	memcpy(copy, buf, count);
	n = write_in_turn(&sink, fd, copy, count, RAPIER_PIPE_STDIO);
	efree(copy);
	return n > 0 ? (size_t) n : 0;
}

static int pipe_close(php_stream *stream, int close_handle)
{
	php_socket_t fd = -1;

	if (close_handle && php_stream_stdio_ops.cast(stream, PHP_STREAM_AS_FD_FOR_SELECT, (void **) &fd) == SUCCESS
			&& fd >= 0) {
		rapier_socket_closing(fd);
	}
	return php_stream_stdio_ops.close(stream, close_handle);
}

static ssize_t child_read(php_stream *stream, char *buf, size_t count)
{
	return pipe_read(stream, buf, count, RAPIER_PIPE_CHILD);
}

static ssize_t child_write(php_stream *stream, const char *buf, size_t count)
{
	return pipe_write(stream, buf, count, RAPIER_PIPE_CHILD);
}

static ssize_t stdio_read(php_stream *stream, char *buf, size_t count)
{
	return pipe_read(stream, buf, count, RAPIER_PIPE_STDIO);
}

static ssize_t stdio_write(php_stream *stream, const char *buf, size_t count)
{
	return pipe_write(stream, buf, count, RAPIER_PIPE_STDIO);
}

void rapier_pipe_minit(void)
{
	ops[RAPIER_PIPE_CHILD] = ops[RAPIER_PIPE_STDIO] = php_stream_stdio_ops;
	ops[RAPIER_PIPE_CHILD].read = child_read;
	ops[RAPIER_PIPE_CHILD].write = child_write;
	ops[RAPIER_PIPE_STDIO].read = stdio_read;
	ops[RAPIER_PIPE_STDIO].write = stdio_write;
	ops[RAPIER_PIPE_CHILD].close = ops[RAPIER_PIPE_STDIO].close = pipe_close;
}

const php_stream_ops *rapier_pipe_ops(rapier_pipe_kind_t kind)
{
	return &ops[kind];
}

/* The pin that keeps stream open, if any: its own, or an echo's on its descriptor. */
static pipe_pin_t *pin_of(php_stream *stream)
{
	php_socket_t fd = -1;

	if (rapier_list_is_empty(&pinned)) {
		return NULL;
	}
	/* Only a standard stream can be on the descriptor the output layer writes to (STDOUT is fd 1 itself). */
	if (stream->ops == &ops[RAPIER_PIPE_STDIO]) {
		php_stream_stdio_ops.cast(stream, PHP_STREAM_AS_FD_FOR_SELECT, (void **) &fd);
	}
	for (rapier_list_node_t *node = pinned.head; node; node = node->next) {
		pipe_pin_t *pin = RAPIER_LIST_ENTRY(node, pipe_pin_t, link);

		if (pin->stream == stream || (pin->stream == NULL && fd >= 0 && pin->fd == fd)) {
			return pin;
		}
	}
	return NULL;
}

bool rapier_pipe_close_refused(php_stream *stream)
{
	pipe_pin_t *pin;
	char name[32];

	if (stream == NULL || (pin = pin_of(stream)) == NULL) {
		return false;
	}
	zend_throw_exception_ex(rapier_ce_exception, 0,
		"Cannot close %s: coroutine #" ZEND_LONG_FMT " is waiting on it; let that coroutine close it%s",
		describe(name, sizeof(name), pin->fd, pin->kind), pin->co->id,
		pin->kind == RAPIER_PIPE_CHILD ? ", or end the process (proc_terminate()) so that it sees end of file" : "");
	return true;
}

void rapier_pipe_on_run_end(void)
{
	/* Only a bailout leaves waiters behind; their coroutines will never return to unpin or pass the turn. */
	while (!rapier_list_is_empty(&pinned)) {
		unpin_stream(RAPIER_LIST_ENTRY(pinned.head, pipe_pin_t, link));
	}
	writers.head = writers.tail = NULL;
}
