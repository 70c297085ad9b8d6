/*
 * Rapier coroutines: PHP Fibers driven by the scheduler.
 *
 * Every coroutine runs inside a real Zend Fiber object (so Fiber::getCurrent(),
 * observers, Xdebug and traces keep working). The scheduler loop runs on the
 * stack that called Rapier\run(); a coroutine that waits suspends its fiber
 * back to that loop, and is resumed from it when woken.
 *
 * Waiting, the only primitive every other module needs:
 *
 *     if (!rapier_coro_can_yield()) { ...block the stock way... }
 *     link the current coroutine into your wait list;
 *     rapier_wake_t why = rapier_coro_wait(timeout_ns, unlink_fn, your_data);
 *
 * The party you waited on calls rapier_coro_wake(co, RAPIER_WAKE_OK) after
 * unlinking the coroutine itself. If the wait ends any other way (timeout,
 * Coroutine::cancel(), deadlock, the fiber being destroyed), the scheduler
 * calls unlink_fn(co, your_data) first, so nothing ever points at a
 * coroutine that is no longer waiting.
 */
#ifndef RAPIER_COROUTINE_H
#define RAPIER_COROUTINE_H

#include <errno.h>

#include "php.h"
#include "zend_fibers.h"
#include "zend_smart_str.h"

#include "loop.h"

typedef enum {
	RAPIER_WAKE_OK = 0,       /* what was awaited happened */
	RAPIER_WAKE_TIMEOUT,      /* the wait's timeout passed */
	RAPIER_WAKE_CANCELED,     /* Coroutine::cancel(), deadlock, or the fiber is being destroyed */
	RAPIER_WAKE_CLOSED,       /* the channel or descriptor was closed while waiting */
} rapier_wake_t;

typedef struct rapier_coro_s rapier_coro_t;

/*
 * Called in the coroutine when its callable has returned (retval) or thrown
 * (exception, owned by the callee from then on), after its defers ran.
 * Replaces the default report of uncaught exceptions.
 */
typedef void (*rapier_coro_finish_fn)(rapier_coro_t *co, zval *retval, zend_object *exception, void *data);

/* Takes a waiting coroutine off whatever it waits on. */
typedef void (*rapier_wait_unlink_fn)(rapier_coro_t *co, void *data);

typedef enum {
	RAPIER_CORO_READY,        /* in the run queue */
	RAPIER_CORO_RUNNING,
	RAPIER_CORO_WAITING,
	RAPIER_CORO_DONE,         /* finished; the record is back in the pool */
} rapier_coro_state_t;

struct rapier_coro_s {
	zend_long id;
	rapier_coro_state_t state;
	zend_fiber *fiber;               /* owned reference; the fiber is reused by the next coroutine */

	/* What to run. */
	zend_fcall_info_cache fcc;
	zval callable;
	zval *args;
	uint32_t argc;
	zval result;                     /* the main coroutine's return value */
	zend_object *exception;          /* the main coroutine's uncaught exception */
	bool is_main;
	bool trap_exit;                  /* exit() ends the callable, not the script (request handlers) */
	rapier_coro_finish_fn on_finish; /* NULL: report uncaught exceptions */
	void *finish_data;

	/* The current wait. */
	rapier_wait_unlink_fn wait_unlink;
	void *wait_data;
	const char *wait_what;           /* "a channel", "a socket", ... for deadlock reports */
	rapier_timer_t wait_timer;
	rapier_wake_t wake_reason;
	bool pooled;                     /* its fiber idles in the pool, ready for the next coroutine */
	bool started;                    /* its callable has been called */
	bool cancel_pending;             /* canceled before it started: its first wait is canceled at once */
	bool cancel_quiet;               /* canceled by its owner's end: a CanceledException it lets out is not reported */
	bool inherited;                  /* a forked child's copy of its parent's coroutine: never runs there */

	zval defers;                     /* array of callables, run last-in first-out; UNDEF when none */
	zval context;                    /* ArrayObject from Coroutine::context(); UNDEF until asked for */

	rapier_coro_t *next;             /* run queue or pool free list */
};

/* The loop of the running Rapier\run(), or NULL outside one. */
rapier_loop_t *rapier_sched_loop(void);
bool rapier_sched_running(void);

/* The coroutine running now, or NULL when the current code is not one of ours. */
rapier_coro_t *rapier_coro_current(void);

/*
 * True when the current code may suspend: it runs in one of our coroutines,
 * the scheduler runs, and the engine allows a fiber switch (not inside a GC
 * destructor, not in a fiber being destroyed). Otherwise I/O must block.
 */
bool rapier_coro_can_yield(void);

/*
 * Suspends the current coroutine (rapier_coro_can_yield() must be true)
 * until rapier_coro_wake() or timeout_ns passes (-1: no timeout).
 * what names the wait for diagnostics. On return the coroutine is running
 * again; if it returns RAPIER_WAKE_CANCELED, EG(exception) may be set (the
 * fiber is being destroyed) and the caller must return at once.
 */
rapier_wake_t rapier_coro_wait(int64_t timeout_ns, rapier_wait_unlink_fn unlink, void *data, const char *what);

/*
 * A wait's outcome as a libuv-style result: 0, -ETIMEDOUT, -ECANCELED, or
 * closed_errno when what it waited on was closed (-EBADF for a descriptor,
 * -EPIPE for a peer that went away).
 */
static inline int rapier_wake_errno(rapier_wake_t why, int closed_errno)
{
	switch (why) {
		case RAPIER_WAKE_OK:
			return 0;
		case RAPIER_WAKE_TIMEOUT:
			return -ETIMEDOUT;
		case RAPIER_WAKE_CLOSED:
			return closed_errno;
		default:
			return -ECANCELED;
	}
}

/* Makes a waiting coroutine ready; the waker has already unlinked it. */
void rapier_coro_wake(rapier_coro_t *co, rapier_wake_t reason);

/*
 * Starts a coroutine running callable with args; it runs from the next
 * scheduler turn. Returns it, or NULL with an exception thrown.
 */
rapier_coro_t *rapier_coro_spawn(zval *callable, zend_fcall_info_cache *fcc, zval *args, uint32_t argc);

/* The same, with a finish callback (see rapier_coro_finish_fn). */
rapier_coro_t *rapier_coro_spawn_ex(zval *callable, zend_fcall_info_cache *fcc, zval *args, uint32_t argc,
	rapier_coro_finish_fn on_finish, void *finish_data);

/* The live coroutine with this id, or NULL. */
rapier_coro_t *rapier_coro_find(zend_long id);

/*
 * Wakes a waiting coroutine with RAPIER_WAKE_CANCELED, turns the timeout of
 * one its timer has woken but that has not run yet into a cancel, and
 * cancels the first wait of one that has not started (rapier_coro_wait()
 * then returns RAPIER_WAKE_CANCELED at once). False otherwise: running,
 * ended, already canceled before it started, or its wait already answered.
 */
bool rapier_coro_cancel(rapier_coro_t *co);

/*
 * For an owner ending what it started (Rapier\parallel()): cancels co as
 * rapier_coro_cancel() does, or, when its wait was answered but it has not
 * run since, at its next wait, so that it does not go on to wait again.
 * One already canceled is left alone.
 */
void rapier_coro_cancel_soon(rapier_coro_t *co);

/*
 * Cancels every live coroutine but the running one, quietly: a
 * CanceledException one of them lets out is not reported (the end of a
 * server, which nobody's code asked for). Returns how many were canceled.
 */
uint32_t rapier_coro_cancel_all(void);

/*
 * Reports an uncaught exception of co as one of a go() coroutine is (the
 * handler, or stderr), unless it is the CanceledException of a quiet cancel
 * (rapier_coro_cancel_all()); ex stays the caller's.
 */
void rapier_coro_report_uncaught(rapier_coro_t *co, zend_object *ex);
/* The same for the coroutine with this id, which may have ended since. */
void rapier_coro_report_uncaught_id(zend_long id, zend_object *ex);

/*
 * co's PHP stack as debug_backtrace() would give it inside co (options and
 * limit as its own): from the call co waits in, or for the running one the
 * caller of this, down to co's callable. Empty before co has started.
 */
void rapier_coro_backtrace(rapier_coro_t *co, int options, int limit, zval *return_value);

/* Appends a frame of such a backtrace as "Class->method() at /path/file.php:12" (no place for an internal caller). */
void rapier_coro_describe_frame(smart_str *out, zval *frame);

/* Number of live coroutines, and an array of their ids. */
uint32_t rapier_coro_count(void);
void rapier_coro_list(zval *return_value);

/*
 * Runs callable as the main coroutine and drives the loop until everything
 * has finished; the main coroutine's result goes to return_value, its
 * exception (or a DeadlockException) is rethrown.
 */
void rapier_sched_run(zval *callable, zend_fcall_info_cache *fcc, zval *args, uint32_t argc, zval *return_value);
/*
 * The same, calling on_main_exception (when not NULL) as soon as the main
 * coroutine ends with an exception, which is rethrown only once the others
 * have finished: a process that must end then cancels them there.
 */
void rapier_sched_run_ex(zval *callable, zend_fcall_info_cache *fcc, zval *args, uint32_t argc, zval *return_value,
	void (*on_main_exception)(void));

/*
 * Registers fn to run when the scheduler stops (normally, or abandoned by a
 * fatal error), to drop per-run state. Each fn is registered once per run.
 */
void rapier_sched_on_stop(void (*fn)(void));

/* Coroutine::setExceptionHandler(): NULL restores the default report on stderr. */
void rapier_coro_set_exception_handler(zval *handler);

/* Body of every coroutine fiber (Rapier\Coroutine's private entry method). */
void rapier_coro_fiber_entry(void);

void rapier_coroutine_minit(void);
void rapier_coroutine_rshutdown(void);

#endif
