/*
 * Child processes inside coroutines (see proc_hook.h).
 *
 * The pipes of proc_open() stay PHP's own stdio streams; only their ops
 * table changes, at creation, to a copy of PHP's whose read and write first
 * wait in the loop (pipe.h; shell_hook.c gives popen()'s pipes and the
 * output of exec() and its kin the same ops). While a coroutine waits on a
 * pipe, fclose(), pclose() and proc_close() of it throw instead of freeing
 * the stream under the waiter.
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
#include "ext/standard/proc_open.h"
#include "zend_exceptions.h"

#include <errno.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef HAVE_VALGRIND_VALGRIND_H
# include <valgrind/valgrind.h>
#endif

#include "coroutine.h"
#include "hook.h"
#include "pipe.h"
#include "proc_hook.h"
#include "sleep.h"
#include "socket.h"
#include "transport.h"

static int le_proc;
static zif_handler stock_proc_open, stock_proc_close;

static bool may_yield(void)
{
	return rapier_hook_enabled(RAPIER_HOOK_PROC) && rapier_coro_can_yield();
}

void rapier_proc_hook_pipe(php_stream *stream)
{
	if (stream != NULL && stream->ops == &php_stream_stdio_ops) {
		stream->ops = rapier_pipe_ops(RAPIER_PIPE_CHILD);
	}
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

		if (rapier_pipe_close_refused(stream) || rapier_transport_close_refused(stream)) {
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
	le_proc = zend_fetch_list_dtor_id("process");
	stock_proc_open = rapier_hook_replace_handler(ZEND_STRL("proc_open"), hooked_proc_open);
	stock_proc_close = rapier_hook_replace_handler(ZEND_STRL("proc_close"), hooked_proc_close);
}

void rapier_proc_hook_mshutdown(void)
{
	rapier_hook_replace_handler(ZEND_STRL("proc_open"), stock_proc_open);
	rapier_hook_replace_handler(ZEND_STRL("proc_close"), stock_proc_close);
}
