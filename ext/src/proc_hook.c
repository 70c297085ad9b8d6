/*
 * Child processes inside coroutines (see proc_hook.h).
 *
 * The pipes of proc_open() stay PHP's own stdio streams; only their ops
 * table changes, at creation, to a copy of PHP's whose read and write first
 * wait in the loop (shell_hook.c gives popen()'s pipes and the output of
 * exec() and its kin the same ops). A pipe keeps the mode its owner gave
 * it: on a blocking pipe a read waits until there is something to read and
 * then reads what is there, as read(2) would; a write waits until the pipe
 * has room and writes at most PIPE_BUF bytes, which a writable pipe always
 * takes at once (the stream layer loops for the rest). A pipe made
 * non-blocking gets PHP's answer, and so does every pipe outside a
 * coroutine. The copy's label is PHP's ("STDIO"); only a C caller asking
 * php_stream_is(stream, PHP_STREAM_IS_STDIO) can tell, and none does for a
 * pipe.
 *
 * While a coroutine waits on a pipe its stream is pinned (in_free, PHP's
 * own guard in _php_stream_free(), as transport.c does for sockets), and
 * fclose(), pclose() and proc_close() of it throw instead of freeing the
 * stream under the waiter. Closing a pipe wakes a stream_select() that
 * watches it among others, as closing a socket does.
 *
 * proc_close() closes the pipes first, as PHP does (a child blocked on a
 * full pipe would never exit), then waits for the child to exit on a pidfd
 * in the loop (or, without pidfds, checks with waitid() at growing
 * intervals), and only then lets PHP's proc_close() reap it, at once.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"   /* HAVE_VALGRIND_VALGRIND_H */
#endif
#include "php_rapier.h"
#include "php_network.h"
#include "ext/standard/proc_open.h"
#include "zend_exceptions.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef HAVE_VALGRIND_VALGRIND_H
# include <valgrind/valgrind.h>
#endif

#include "coroutine.h"
#include "hook.h"
#include "list.h"
#include "proc_hook.h"
#include "sleep.h"
#include "socket.h"
#include "transport.h"

/* A stream a coroutine is waiting on, on that coroutine's stack. */
typedef struct {
	php_stream *stream;
	rapier_list_node_t link;
} pinned_pipe_t;

static rapier_list_t pinned;
static php_stream_ops pipe_ops;
static int le_proc;
static zif_handler stock_proc_open, stock_proc_close;

static bool may_yield(void)
{
	return rapier_hook_enabled(RAPIER_HOOK_PROC) && rapier_coro_can_yield();
}

/* The pipe's descriptor when it is in blocking mode, else -1 (PHP's own call is then the answer). */
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

static void pin(pinned_pipe_t *pin)
{
	pin->stream->in_free++;
	rapier_list_push(&pinned, &pin->link);
}

static void unpin(pinned_pipe_t *pin)
{
	pin->stream->in_free--;
	rapier_list_remove(&pinned, &pin->link);
}

/* Waits until fd can be read (or written) without blocking. False with an exception thrown. */
static bool wait_pipe(php_stream *stream, int fd, uint32_t direction)
{
	const char *doing = direction == RAPIER_IO_READ ? "reading" : "writing";
	pinned_pipe_t pinning = { .stream = stream };
	int acquired = rapier_socket_acquire(fd, direction);
	int err;

	if (acquired == -EBUSY) {
		zend_throw_exception_ex(rapier_ce_exception, 0,
			"Cannot %s pipe fd %d: coroutine #" ZEND_LONG_FMT " is already %s it; use one coroutine per pipe end",
			direction == RAPIER_IO_READ ? "read" : "write", fd, rapier_socket_waiter_id(fd, direction), doing);
		return false;
	}
	if (acquired < 0) {
		return true;   /* out of memory for the record: PHP's call blocks instead */
	}
	pin(&pinning);
	err = rapier_socket_wait(fd, direction, -1);
	unpin(&pinning);
	rapier_socket_release(fd, direction);
	/* PHP closes the pipe with close(), which the loop would never hear of. */
	rapier_socket_unwatch(fd);
	if (err == -ECANCELED) {
		if (!EG(exception)) {
			zend_throw_exception_ex(rapier_ce_canceled_exception, 0,
				"Coroutine was canceled while %s pipe fd %d", doing, fd);
		}
		return false;
	}
	return true;
}

static ssize_t pipe_read(php_stream *stream, char *buf, size_t count)
{
	int fd;

	if (may_yield() && (fd = blocking_fd(stream)) >= 0 && !ready_now(fd, POLLIN)
			&& !wait_pipe(stream, fd, RAPIER_IO_READ)) {
		return -1;
	}
	return php_stream_stdio_ops.read(stream, buf, count);
}

static ssize_t pipe_write(php_stream *stream, const char *buf, size_t count)
{
	int fd;

	if (may_yield() && (fd = blocking_fd(stream)) >= 0) {
		if (!ready_now(fd, POLLOUT) && !wait_pipe(stream, fd, RAPIER_IO_WRITE)) {
			return -1;
		}
		/* A writable pipe has room for PIPE_BUF bytes; a longer write could block. */
		count = MIN(count, PIPE_BUF);
	}
	return php_stream_stdio_ops.write(stream, buf, count);
}

/* A stream_select() in another coroutine may watch the pipe; one waiting on the pipe alone pins it. */
static int pipe_close(php_stream *stream, int close_handle)
{
	php_socket_t fd = -1;

	if (close_handle && php_stream_stdio_ops.cast(stream, PHP_STREAM_AS_FD_FOR_SELECT, (void **) &fd) == SUCCESS
			&& fd >= 0) {
		rapier_socket_closing(fd);
	}
	return php_stream_stdio_ops.close(stream, close_handle);
}

const php_stream_ops *rapier_proc_pipe_ops(void)
{
	return &pipe_ops;
}

void rapier_proc_hook_pipe(php_stream *stream)
{
	if (stream != NULL && stream->ops == &php_stream_stdio_ops) {
		stream->ops = &pipe_ops;
	}
}

/* The coroutine waiting on a hooked pipe, or 0. */
static zend_long pipe_waiter(php_stream *stream, php_socket_t *fd)
{
	zend_long id;

	if (stream->ops->read != pipe_read || stream->in_free == 0
			|| php_stream_cast(stream, PHP_STREAM_AS_FD_FOR_SELECT | PHP_STREAM_CAST_INTERNAL, (void **) fd, 0)
				!= SUCCESS) {
		return 0;
	}
	id = rapier_socket_waiter_id(*fd, RAPIER_IO_READ);
	return id != 0 ? id : rapier_socket_waiter_id(*fd, RAPIER_IO_WRITE);
}

bool rapier_proc_pipe_close_refused(php_stream *stream)
{
	php_socket_t fd = -1;
	zend_long id;

	if (stream == NULL || (id = pipe_waiter(stream, &fd)) == 0) {
		return false;
	}
	zend_throw_exception_ex(rapier_ce_exception, 0,
		"Cannot close pipe fd %d: coroutine #" ZEND_LONG_FMT " is waiting on it; "
		"let that coroutine close it, or end the process (proc_terminate()) so that it sees end of file", fd, id);
	return true;
}

static php_process_handle *process_of(zval *arg)
{
	return arg != NULL && Z_TYPE_P(arg) == IS_RESOURCE && le_proc > 0
		? zend_fetch_resource(Z_RES_P(arg), NULL, le_proc) : NULL;
}

static ZEND_NAMED_FUNCTION(hooked_proc_open)
{
	php_process_handle *proc;

	stock_proc_open(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	if ((proc = process_of(return_value)) == NULL) {
		return;
	}
	for (int i = 0; i < proc->npipes; i++) {
		php_stream *stream = rapier_hook_stream_of_res(proc->pipes[i]);

		/* A "socket" descriptor: a Unix socket pair, ours while unix:// is. */
		rapier_transport_adopt(stream);
		if (may_yield()) {
			rapier_proc_hook_pipe(stream);
		}
	}
}

/* proc_close()'s first step, as PHP takes it: the child may be blocked writing a pipe nobody reads. */
static bool close_pipes(php_process_handle *proc)
{
	for (int i = 0; i < proc->npipes; i++) {
		php_stream *stream = rapier_hook_stream_of_res(proc->pipes[i]);

		if (rapier_proc_pipe_close_refused(stream) || rapier_transport_close_refused(stream)) {
			return false;
		}
	}
	for (int i = 0; i < proc->npipes; i++) {
		if (proc->pipes[i] != NULL) {
			GC_DELREF(proc->pipes[i]);
			zend_list_close(proc->pipes[i]);
			proc->pipes[i] = NULL;
		}
	}
	return true;
}

/* The longest pause between two waitid() checks when there is no pidfd to wait on. */
#define EXIT_CHECK_MAX_NS (50 * 1000000)

/*
 * Without pidfd_open() (Linux before 5.3, or valgrind, which lacks it) the
 * coroutine sleeps and asks waitid() again, 1 ms first, then twice as long
 * each time up to EXIT_CHECK_MAX_NS. WNOWAIT leaves the child for PHP's
 * waitpid() to reap.
 */
static int check_for_exit(pid_t pid)
{
	int64_t pause_ns = 1000000;

	for (;;) {
		siginfo_t info = { 0 };

		if (waitid(P_PID, (id_t) pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
			if (errno == EINTR) {
				continue;
			}
			return 0;   /* not our child (any more): PHP's waitpid() says so */
		}
		if (info.si_pid == pid) {
			return 0;
		}
		if (rapier_coro_sleep_ns(pause_ns) == RAPIER_WAKE_CANCELED) {
			return -ECANCELED;
		}
		pause_ns = MIN(pause_ns * 2, EXIT_CHECK_MAX_NS);
	}
}

bool rapier_proc_wait_exit(pid_t pid)
{
	static bool no_pidfd;
	int pidfd = -1;
	int err;

#ifdef RUNNING_ON_VALGRIND
	/* valgrind 3.19 does not know pidfd_open and reports each call as a bug. */
	no_pidfd = no_pidfd || RUNNING_ON_VALGRIND;
#endif
#ifdef SYS_pidfd_open
	if (!no_pidfd && (pidfd = (int) syscall(SYS_pidfd_open, pid, 0)) < 0) {
		no_pidfd = errno == ENOSYS;
	}
#endif
	if (pidfd >= 0) {
		err = rapier_socket_wait(pidfd, RAPIER_IO_READ, -1);
		rapier_socket_close(pidfd);
	} else {
		err = check_for_exit(pid);
	}
	if (err == -ECANCELED) {
		if (!EG(exception)) {
			zend_throw_exception_ex(rapier_ce_canceled_exception, 0,
				"Coroutine was canceled while waiting for process %d to exit", (int) pid);
		}
		return false;
	}
	return true;
}

static ZEND_NAMED_FUNCTION(hooked_proc_close)
{
	zval *arg = ZEND_NUM_ARGS() == 1 ? ZEND_CALL_ARG(execute_data, 1) : NULL;
	php_process_handle *proc;

	if (may_yield() && (proc = process_of(arg)) != NULL
			&& (!close_pipes(proc) || !rapier_proc_wait_exit(proc->child))) {
		RETURN_THROWS();
	}
	stock_proc_close(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

void rapier_proc_hook_minit(void)
{
	pipe_ops = php_stream_stdio_ops;
	pipe_ops.read = pipe_read;
	pipe_ops.write = pipe_write;
	pipe_ops.close = pipe_close;
	le_proc = zend_fetch_list_dtor_id("process");
	stock_proc_open = rapier_hook_replace_handler(ZEND_STRL("proc_open"), hooked_proc_open);
	stock_proc_close = rapier_hook_replace_handler(ZEND_STRL("proc_close"), hooked_proc_close);
}

void rapier_proc_hook_mshutdown(void)
{
	rapier_hook_replace_handler(ZEND_STRL("proc_open"), stock_proc_open);
	rapier_hook_replace_handler(ZEND_STRL("proc_close"), stock_proc_close);
}

void rapier_proc_hook_on_run_end(void)
{
	/* Only a bailout leaves waiters behind; their coroutines will never return to unpin. */
	while (!rapier_list_is_empty(&pinned)) {
		unpin(RAPIER_LIST_ENTRY(pinned.head, pinned_pipe_t, link));
	}
}
