/*
 * The scheduler: coroutines on Zend Fibers, driven by the event loop.
 *
 * A coroutine record is paired for life with one Fiber object. The fiber
 * runs rapier_coro_fiber_entry(), which loops: run the coroutine's callable,
 * finish the record, then park itself in the pool until a new coroutine is
 * started on it. Starting a coroutine therefore costs a record reuse and a
 * fiber resume, not a 2 MiB stack mmap; fibers past the pool cap end.
 *
 * The loop runs on the stack that called Rapier\run(). Coroutines only ever
 * switch back to it (Fiber::suspend returns to the resumer), and it resumes
 * them from the run queue. Waking never switches stacks directly, so code
 * that wakes another coroutine keeps running until it waits itself.
 *
 * Fibers are driven through the public Fiber methods (start, resume,
 * suspend) looked up once at startup: the engine's own switch helpers are
 * static, and going through the methods keeps observers, Xdebug and
 * Fiber::getCurrent() working. Our fibers are tagged in their context's
 * reserved slot; code running in a fiber someone else created must block.
 *
 * A fatal error (zend_bailout) longjmps out of the loop past suspended
 * fibers that will never run again: the scheduler unlinks their waits,
 * keeps their records until request end (the objects are not unwound after
 * a fatal error) and rethrows the bailout (see ENGINE-NOTES trap 2).
 */
#include "php_rapier.h"
#include "zend_builtin_functions.h"
#include "zend_exceptions.h"
#include "zend_extensions.h"
#include "zend_interfaces.h"
#include "zend_smart_str.h"

#include <pthread.h>

#include "coroutine.h"
#include "exit.h"
#include "hook.h"

/*
 * Idle fibers kept for reuse. Each holds a touched C stack (about 11 KiB of
 * RSS) and a 16 KiB VM stack counted by memory_limit. A busy worker keeps
 * as many as its bursts need, up to the cap; once a burst is over, a
 * once-a-second trim frees half of those that stayed idle the whole second,
 * down to the floor, so memory returns to an idle worker's size.
 */
#define RAPIER_CORO_POOL_MAX 4096
#define RAPIER_CORO_POOL_FLOOR 64
#define RAPIER_CORO_POOL_TRIM_NS 1000000000

/*
 * Coroutines resumed per scheduler pass before the loop is polled again, so
 * that a storm of yields cannot starve sockets and timers.
 */
#define RAPIER_CORO_MAX_RUN_PER_PASS 1024

/* Modules with per-run state: timers, the socket table. */
#define RAPIER_SCHED_MAX_STOP_HOOKS 8

/* How many stuck coroutines a DeadlockException says the place of. */
#define RAPIER_DEADLOCK_MAX_LISTED 8

typedef struct {
	rapier_loop_t loop;
	bool running;
	zend_long next_id;
	HashTable live;                  /* id => rapier_coro_t*, every coroutine not yet finished */
	uint32_t inherited;              /* of them, a forked child's copies of its parent's */
	rapier_coro_t *ready_head;
	rapier_coro_t *ready_tail;
	rapier_coro_t *pool;             /* finished records whose fiber idles */
	uint32_t pool_size;
	uint32_t pool_low_water;         /* fewest idle since the last trim */
	rapier_timer_t pool_trim;
	zval main_result;
	zend_object *main_exception;
	bool main_done;
	void (*on_main_exception)(void); /* rapier_sched_run_ex(): the main coroutine threw */
	zval exception_handler;          /* UNDEF: report on stderr */
	void (*stop_hooks[RAPIER_SCHED_MAX_STOP_HOOKS])(void);
	int stop_hook_count;
} rapier_sched_t;

static rapier_sched_t sched;
static int fiber_slot = -1;
static zend_function *fiber_start_fn;
static zend_function *fiber_resume_fn;
static zend_function *fiber_suspend_fn;
static zend_function *entry_fn;
static zend_string *entry_name;

/* Records whose fibers were abandoned by a bailout, freed at request end. */
static rapier_coro_t *abandoned;

/*
 * pthread_atfork() child handler: pcntl_fork() in a coroutine (or
 * proc_open()'s fork, which execs at once). As fork() keeps only the calling
 * thread, the child keeps only the calling coroutine: the others are its
 * parent's, and their copies never run in the child (nothing wakes them,
 * rapier_loop_fork_child() forgets their watchers and timers); they are
 * unwound when the child's run ends. Memory writes and system calls only.
 */
static void sched_fork_child(void)
{
	rapier_coro_t *co, *self;

	if (!sched.running) {
		return;
	}
	rapier_loop_fork_child(&sched.loop);
	self = rapier_coro_current();
	sched.inherited = 0;
	ZEND_HASH_FOREACH_PTR(&sched.live, co) {
		co->inherited = co != self;
		sched.inherited += co->inherited;
	} ZEND_HASH_FOREACH_END();
	sched.ready_head = sched.ready_tail = NULL;
}

/* Whether every live coroutine is a copy a forked child inherited. */
static bool only_inherited_live(void)
{
	return zend_hash_num_elements(&sched.live) == sched.inherited;
}

void rapier_coroutine_minit(void)
{
	pthread_atfork(NULL, NULL, sched_fork_child);
	fiber_slot = zend_get_resource_handle("rapier");
	fiber_start_fn = zend_hash_str_find_ptr(&zend_ce_fiber->function_table, ZEND_STRL("start"));
	fiber_resume_fn = zend_hash_str_find_ptr(&zend_ce_fiber->function_table, ZEND_STRL("resume"));
	fiber_suspend_fn = zend_hash_str_find_ptr(&zend_ce_fiber->function_table, ZEND_STRL("suspend"));
	entry_fn = zend_hash_str_find_ptr(&rapier_ce_coroutine->function_table, ZEND_STRL("fibermain"));
	entry_name = zend_string_init_interned(ZEND_STRL("Rapier\\Coroutine::fiberMain"), 1);
	ZEND_ASSERT(fiber_start_fn && fiber_resume_fn && fiber_suspend_fn && entry_fn);
	ZVAL_UNDEF(&sched.exception_handler);
}

rapier_loop_t *rapier_sched_loop(void)
{
	return sched.running ? &sched.loop : NULL;
}

bool rapier_sched_running(void)
{
	return sched.running;
}

static zend_always_inline rapier_coro_t *coro_of_fiber(zend_fiber *fiber)
{
	return fiber ? fiber->context.reserved[fiber_slot] : NULL;
}

rapier_coro_t *rapier_coro_current(void)
{
	rapier_coro_t *co = coro_of_fiber(EG(active_fiber));

	return co && co->state == RAPIER_CORO_RUNNING ? co : NULL;
}

bool rapier_coro_can_yield(void)
{
	zend_fiber *fiber = EG(active_fiber);

	return sched.running
		&& rapier_coro_current() != NULL
		&& !(fiber->flags & ZEND_FIBER_FLAG_DESTROYED)
		&& !zend_fiber_switch_blocked();
}

/* Run queue */

static void ready_push(rapier_coro_t *co)
{
	co->state = RAPIER_CORO_READY;
	co->next = NULL;
	if (sched.ready_tail) {
		sched.ready_tail->next = co;
	} else {
		sched.ready_head = co;
	}
	sched.ready_tail = co;
}

static rapier_coro_t *ready_pop(void)
{
	rapier_coro_t *co = sched.ready_head;

	if (co) {
		sched.ready_head = co->next;
		if (sched.ready_head == NULL) {
			sched.ready_tail = NULL;
		}
		co->next = NULL;
	}
	return co;
}

/* Waiting */

static void end_wait(rapier_coro_t *co)
{
	rapier_timer_stop(&sched.loop, &co->wait_timer);
	co->wait_unlink = NULL;
	co->wait_data = NULL;
	co->wait_what = NULL;
}

static void unlink_and_end_wait(rapier_coro_t *co)
{
	if (co->wait_unlink) {
		co->wait_unlink(co, co->wait_data);
	}
	end_wait(co);
}

void rapier_coro_wake(rapier_coro_t *co, rapier_wake_t reason)
{
	if (co->state != RAPIER_CORO_WAITING) {
		return;
	}
	end_wait(co);
	if (UNEXPECTED(co->inherited)) {
		return; /* the parent's: it stays suspended here until the run ends */
	}
	co->wake_reason = reason;
	ready_push(co);
}

static void on_wait_timeout(rapier_timer_t *timer)
{
	rapier_coro_t *co = timer->data;

	if (co->wait_unlink) {
		co->wait_unlink(co, co->wait_data);
		co->wait_unlink = NULL;
	}
	rapier_coro_wake(co, RAPIER_WAKE_TIMEOUT);
}

static void fiber_suspend(void)
{
	zval retval;

	ZVAL_UNDEF(&retval);
	zend_call_known_function(fiber_suspend_fn, NULL, NULL, &retval, 0, NULL, NULL);
	zval_ptr_dtor(&retval);
}

rapier_wake_t rapier_coro_wait(int64_t timeout_ns, rapier_wait_unlink_fn unlink, void *data, const char *what)
{
	rapier_coro_t *co = rapier_coro_current();
	zend_error_handling_t error_handling;
	zend_class_entry *exception_class;

	ZEND_ASSERT(co && rapier_coro_can_yield());
	co->state = RAPIER_CORO_WAITING;
	co->wait_unlink = unlink;
	co->wait_data = data;
	co->wait_what = what;
	co->wake_reason = RAPIER_WAKE_OK;
	if (UNEXPECTED(co->cancel_pending)) {
		/* Canceled before it started: this, its first wait, ends as a cancel would have ended it. */
		co->cancel_pending = false;
		unlink_and_end_wait(co);
		co->state = RAPIER_CORO_RUNNING;
		return RAPIER_WAKE_CANCELED;
	}
	if (timeout_ns >= 0) {
		rapier_timer_start(&sched.loop, &co->wait_timer, (uint64_t) timeout_ns, 0);
	}

	/*
	 * The error handling mode is a global that a call sets for its own
	 * duration (PDO's constructor turns warnings into PDOException while it
	 * connects, and connecting suspends): it travels with this coroutine,
	 * so the others never run under it and it never outlives the call.
	 */
	error_handling = EG(error_handling);
	exception_class = EG(exception_class);
	EG(error_handling) = EH_NORMAL;
	EG(exception_class) = NULL;

	fiber_suspend();

	EG(error_handling) = error_handling;
	EG(exception_class) = exception_class;

	if (UNEXPECTED(co->state != RAPIER_CORO_RUNNING)) {
		/*
		 * Resumed, but not by the scheduler: the fiber is being destroyed
		 * (its graceful exit is now pending) or someone resumed it by hand.
		 */
		if (sched.running && co->state == RAPIER_CORO_WAITING) {
			unlink_and_end_wait(co);
		}
		co->state = RAPIER_CORO_RUNNING;
		return RAPIER_WAKE_CANCELED;
	}
	return co->wake_reason;
}

bool rapier_coro_cancel(rapier_coro_t *co)
{
	if (co->state == RAPIER_CORO_READY && !co->started) {
		/*
		 * go() queued it and it has not run yet: it starts as usual (its
		 * defers and finally blocks will be in place) and its first wait
		 * is canceled at once, as the wait of one that had run would be.
		 */
		if (co->cancel_pending) {
			return false;
		}
		co->cancel_pending = true;
		return true;
	}
	if (co->state == RAPIER_CORO_READY && co->wake_reason == RAPIER_WAKE_TIMEOUT) {
		/*
		 * Its timeout woke it but it has not run yet: to its code it is
		 * still in the wait, and a timeout delivered nothing that a cancel
		 * would lose. (A wait answered with RAPIER_WAKE_OK has received
		 * what it waited for, a value or data: that is kept, and it goes on.)
		 */
		co->wake_reason = RAPIER_WAKE_CANCELED;
		return true;
	}
	if (co->state != RAPIER_CORO_WAITING) {
		return false;
	}
	unlink_and_end_wait(co);
	rapier_coro_wake(co, RAPIER_WAKE_CANCELED);
	return true;
}

void rapier_coro_cancel_soon(rapier_coro_t *co)
{
	/* One woken by a cancel already gets its CanceledException; the waits of its clean-up stay its own. */
	if (!rapier_coro_cancel(co) && co->state == RAPIER_CORO_READY && co->wake_reason != RAPIER_WAKE_CANCELED) {
		co->cancel_pending = true;
	}
}

/* Coroutine records */

static rapier_coro_t *record_new(void)
{
	rapier_coro_t *co = ecalloc(1, sizeof(*co));
	zval fiber_zv;

	object_init_ex(&fiber_zv, zend_ce_fiber);
	co->fiber = (zend_fiber *) Z_OBJ(fiber_zv);
	/* Fill in what Fiber::__construct would: the entry method to call. */
	co->fiber->fci.size = sizeof(zend_fcall_info);
	ZVAL_INTERNED_STR(&co->fiber->fci.function_name, entry_name);
	co->fiber->fci_cache.function_handler = entry_fn;
	co->fiber->fci_cache.called_scope = rapier_ce_coroutine;
	co->fiber->context.reserved[fiber_slot] = co;
	rapier_timer_init(&co->wait_timer, on_wait_timeout, co);
	ZVAL_UNDEF(&co->callable);
	ZVAL_UNDEF(&co->defers);
	ZVAL_UNDEF(&co->context);
	co->state = RAPIER_CORO_DONE;
	return co;
}

static void record_clear_job(rapier_coro_t *co)
{
	zval_ptr_dtor(&co->callable);
	ZVAL_UNDEF(&co->callable);
	for (uint32_t i = 0; i < co->argc; i++) {
		zval_ptr_dtor(&co->args[i]);
	}
	if (co->args) {
		efree(co->args);
	}
	co->args = NULL;
	co->argc = 0;
	zval_ptr_dtor(&co->defers);
	ZVAL_UNDEF(&co->defers);
	zval_ptr_dtor(&co->context);
	ZVAL_UNDEF(&co->context);
}

/*
 * Ends the record's fiber and frees both. A suspended fiber is unwound here
 * and now through its destructor (not whenever its refcount drops, which
 * user code holding Fiber::getCurrent() could delay past the record's life).
 */
static void record_free(rapier_coro_t *co)
{
	zend_object *fiber = &co->fiber->std;

	if (co->fiber->context.status == ZEND_FIBER_STATUS_SUSPENDED
			&& !(OBJ_FLAGS(fiber) & IS_OBJ_DESTRUCTOR_CALLED)) {
		GC_ADD_FLAGS(fiber, IS_OBJ_DESTRUCTOR_CALLED);
		fiber->handlers->dtor_obj(fiber);
	}
	co->fiber->context.reserved[fiber_slot] = NULL;
	OBJ_RELEASE(fiber);
	record_clear_job(co);
	efree(co);
}

rapier_coro_t *rapier_coro_spawn(zval *callable, zend_fcall_info_cache *fcc, zval *args, uint32_t argc)
{
	return rapier_coro_spawn_ex(callable, fcc, args, argc, NULL, NULL);
}

rapier_coro_t *rapier_coro_spawn_ex(zval *callable, zend_fcall_info_cache *fcc, zval *args, uint32_t argc,
	rapier_coro_finish_fn on_finish, void *finish_data)
{
	rapier_coro_t *co = sched.pool;

	if (!sched.running) {
		zend_throw_exception(rapier_ce_exception,
			"Cannot start a coroutine outside Rapier\\run(): wrap the program in Rapier\\run()", 0);
		return NULL;
	}
	if (co) {
		sched.pool = co->next;
		if (--sched.pool_size < sched.pool_low_water) {
			sched.pool_low_water = sched.pool_size;
		}
		co->pooled = false;
	} else {
		co = record_new();
	}
	co->id = ++sched.next_id;
	co->is_main = false;
	co->trap_exit = false;
	co->wake_reason = RAPIER_WAKE_OK; /* a pooled record keeps its last wait's */
	co->started = false;
	co->cancel_pending = false;
	co->cancel_quiet = false;
	co->inherited = false;
	co->on_finish = on_finish;
	co->finish_data = finish_data;
	ZVAL_COPY(&co->callable, callable);
	co->fcc = *fcc;
	co->argc = argc;
	co->args = NULL;
	if (argc) {
		co->args = safe_emalloc(argc, sizeof(zval), 0);
		for (uint32_t i = 0; i < argc; i++) {
			ZVAL_COPY(&co->args[i], &args[i]);
		}
	}
	zend_hash_index_add_new_ptr(&sched.live, (zend_ulong) co->id, co);
	ready_push(co);
	return co;
}

rapier_coro_t *rapier_coro_find(zend_long id)
{
	rapier_coro_t *co = sched.running ? zend_hash_index_find_ptr(&sched.live, (zend_ulong) id) : NULL;

	/* A forked child's copy of its parent's coroutine is not one of the child's. */
	return co != NULL && !co->inherited ? co : NULL;
}

uint32_t rapier_coro_cancel_all(void)
{
	rapier_coro_t *co;
	uint32_t canceled = 0;

	if (!sched.running) {
		return 0;
	}
	/* A cancel only queues the coroutine: the table does not change during the walk. */
	ZEND_HASH_FOREACH_PTR(&sched.live, co) {
		if (rapier_coro_cancel(co)) {
			co->cancel_quiet = true;
			canceled++;
		}
	} ZEND_HASH_FOREACH_END();
	return canceled;
}

/* Whether a backtrace frame is the call of our fibers' entry method, which no user code made. */
static bool is_entry_frame(zval *frame)
{
	zval *function = zend_hash_str_find(Z_ARRVAL_P(frame), ZEND_STRL("function"));
	zval *class_name = zend_hash_str_find(Z_ARRVAL_P(frame), ZEND_STRL("class"));

	return function && class_name && Z_TYPE_P(function) == IS_STRING && Z_TYPE_P(class_name) == IS_STRING
		&& zend_string_equals_literal(Z_STR_P(function), "fiberMain")
		&& zend_string_equals(Z_STR_P(class_name), rapier_ce_coroutine->name);
}

void rapier_coro_backtrace(rapier_coro_t *co, int options, int limit, zval *return_value)
{
	zend_fiber *fiber = co->fiber;
	zend_execute_data *current = EG(current_execute_data), *resumer;
	uint32_t count;

	if (fiber->context.status == ZEND_FIBER_STATUS_INIT) {
		RETURN_EMPTY_ARRAY();
	}
	/* The fiber's bottom frame links to the frames that resumed it, the scheduler's: the walk ends there. */
	resumer = fiber->stack_bottom->prev_execute_data;
	fiber->stack_bottom->prev_execute_data = NULL;
	if (co->state != RAPIER_CORO_RUNNING) {
		/*
		 * Suspended by the scheduler, in Fiber::suspend(). (A running
		 * coroutine that started a Fiber of its own is suspended too, as
		 * PHP sees it, but its execute_data is stale: the walk from the
		 * current frame passes through its frames instead.)
		 */
		EG(current_execute_data) = fiber->execute_data;
	}
	/* Skips the innermost frame: Fiber::suspend() where co waits, or the backtrace() call itself. */
	zend_fetch_debug_backtrace(return_value, 1, options, limit);
	EG(current_execute_data) = current;
	fiber->stack_bottom->prev_execute_data = resumer;

	count = zend_hash_num_elements(Z_ARRVAL_P(return_value));
	if (count > 0 && is_entry_frame(zend_hash_index_find(Z_ARRVAL_P(return_value), count - 1))) {
		zend_hash_index_del(Z_ARRVAL_P(return_value), count - 1);
	}
}

uint32_t rapier_coro_count(void)
{
	return sched.running ? zend_hash_num_elements(&sched.live) - sched.inherited : 0;
}

void rapier_coro_list(zval *return_value)
{
	rapier_coro_t *co;

	array_init_size(return_value, rapier_coro_count());
	if (!sched.running) {
		return;
	}
	ZEND_HASH_FOREACH_PTR(&sched.live, co) {
		if (!co->inherited) {
			add_next_index_long(return_value, co->id);
		}
	} ZEND_HASH_FOREACH_END();
}

void rapier_coro_set_exception_handler(zval *handler)
{
	zval_ptr_dtor(&sched.exception_handler);
	if (handler) {
		ZVAL_COPY(&sched.exception_handler, handler);
	} else {
		ZVAL_UNDEF(&sched.exception_handler);
	}
}

/* Inside the fiber: running one coroutine */

static void report_default(zend_long id, zend_object *ex)
{
	zval ex_zv, str;

	ZVAL_OBJ(&ex_zv, ex);
	zend_call_method_with_0_params(ex, ex->ce, NULL, "__tostring", &str);
	if (EG(exception)) {
		zend_clear_exception();
	}
	fprintf(stderr, "Rapier: uncaught exception in coroutine #" ZEND_LONG_FMT ": %s\n",
		id, Z_TYPE(str) == IS_STRING ? Z_STRVAL(str) : ZSTR_VAL(ex->ce->name));
	fflush(stderr);
	zval_ptr_dtor(&str);
}

/* Hands an uncaught exception (reference owned by the caller) to the handler or stderr. */
void rapier_coro_report_uncaught_id(zend_long id, zend_object *ex)
{
	zval args[2], retval;

	if (Z_TYPE(sched.exception_handler) == IS_UNDEF) {
		report_default(id, ex);
		return;
	}
	ZVAL_OBJ(&args[0], ex);
	ZVAL_LONG(&args[1], id);
	if (call_user_function(NULL, NULL, &sched.exception_handler, &retval, 2, args) == SUCCESS) {
		zval_ptr_dtor(&retval);
	}
	if (EG(exception)) {
		zend_object *handler_ex = EG(exception);
		GC_ADDREF(handler_ex);
		zend_clear_exception();
		report_default(id, handler_ex);
		OBJ_RELEASE(handler_ex);
	}
}

void rapier_coro_report_uncaught(rapier_coro_t *co, zend_object *ex)
{
	/* A cancel nobody's code asked for (the end of a server) is not news. */
	if (co->cancel_quiet && instanceof_function(ex->ce, rapier_ce_canceled_exception)) {
		return;
	}
	rapier_coro_report_uncaught_id(co->id, ex);
}

/* Catches what the running code threw; ownership passes to the caller. */
static zend_object *take_exception(void)
{
	zend_object *ex = EG(exception);

	if (ex == NULL) {
		return NULL;
	}
	GC_ADDREF(ex);
	zend_clear_exception();
	return ex;
}

static void run_defers(rapier_coro_t *co)
{
	while (Z_TYPE(co->defers) == IS_ARRAY && zend_hash_num_elements(Z_ARRVAL(co->defers)) > 0) {
		zval callable, retval;
		HashTable *defers = Z_ARRVAL(co->defers);
		zend_ulong last = defers->nNumUsed - 1;

		ZVAL_COPY(&callable, zend_hash_index_find(defers, last));
		zend_hash_index_del(defers, last);
		if (call_user_function(NULL, NULL, &callable, &retval, 0, NULL) == SUCCESS) {
			zval_ptr_dtor(&retval);
		}
		zval_ptr_dtor(&callable);
		zend_object *ex = take_exception();
		if (ex) {
			rapier_coro_report_uncaught(co, ex);
			OBJ_RELEASE(ex);
		}
	}
}

static bool is_exit(zend_object *ex)
{
	return zend_is_unwind_exit(ex) || zend_is_graceful_exit(ex);
}

/*
 * Runs the coroutine's callable. Returns false when an exit or the fiber's
 * destruction unwinds through it: the fiber must then end, not be pooled.
 */
static bool run_body(rapier_coro_t *co)
{
	zend_fcall_info fci;
	zval retval;
	zend_object *ex;
	rapier_exit_mark_t exit_mark;
	zend_long exit_status;

	fci.size = sizeof(fci);
	ZVAL_COPY_VALUE(&fci.function_name, &co->callable);
	fci.object = NULL;
	fci.retval = &retval;
	fci.params = co->args;
	fci.param_count = co->argc;
	fci.named_params = NULL;
	ZVAL_UNDEF(&retval);

	co->started = true;
	rapier_exit_mark(&exit_mark);
	zend_call_function(&fci, &co->fcc);
	ex = take_exception();
	if (co->trap_exit && rapier_exit_trapped(ex, &exit_mark, &exit_status)) {
		/* Its exit() ended the callable, as a return would; the script goes on. */
		OBJ_RELEASE(ex);
		ex = NULL;
	}
	if (ex && is_exit(ex)) {
		zval_ptr_dtor(&retval);
		/* exit() in a coroutine ends the script: let the exit unwind on. */
		zend_throw_exception_internal(ex);
		return false;
	}
	run_defers(co);
	if (co->on_finish) {
		co->on_finish(co, &retval, ex, co->finish_data);
		zval_ptr_dtor(&retval);
	} else if (co->is_main) {
		ZVAL_COPY_VALUE(&sched.main_result, &retval);
		sched.main_exception = ex;
		sched.main_done = true;
		if (ex && sched.on_main_exception) {
			sched.on_main_exception();
		}
	} else {
		zval_ptr_dtor(&retval);
		if (ex) {
			rapier_coro_report_uncaught(co, ex);
		}
		if (ex) {
			OBJ_RELEASE(ex);
		}
	}
	return EG(exception) == NULL;
}

static void finish(rapier_coro_t *co)
{
	zend_hash_index_del(&sched.live, (zend_ulong) co->id);
	sched.inherited -= co->inherited;
	record_clear_job(co);
	co->state = RAPIER_CORO_DONE;
}

void rapier_coro_fiber_entry(void)
{
	rapier_coro_t *co = coro_of_fiber(EG(active_fiber));

	if (co == NULL || EG(active_fiber)->fci_cache.function_handler != entry_fn) {
		zend_throw_error(NULL, "Cannot call Rapier\\Coroutine::fiberMain(): it is the entry of Rapier's own fibers");
		return;
	}
	for (;;) {
		bool reusable = run_body(co);

		finish(co);
		if (!reusable || !sched.running || sched.pool_size >= RAPIER_CORO_POOL_MAX) {
			return;
		}
		co->pooled = true;
		co->next = sched.pool;
		sched.pool = co;
		sched.pool_size++;
		fiber_suspend();
		if (co->state != RAPIER_CORO_RUNNING) {
			/* Destroyed while idle (end of run, or shutdown): just end. */
			if (EG(exception) && is_exit(EG(exception))) {
				zend_clear_exception();
			}
			return;
		}
		if (UNEXPECTED(EG(exception))) {
			/*
			 * A signal handler that PHP ran as Fiber::suspend() returned
			 * threw or exited: that ends the run, as it would have in the
			 * scheduler, and this record's new job never starts.
			 */
			finish(co);
			return;
		}
	}
}

/* The scheduler loop */

static void resume(rapier_coro_t *co)
{
	zval retval;
	zend_function *fn = co->fiber->context.status == ZEND_FIBER_STATUS_INIT ? fiber_start_fn : fiber_resume_fn;

	co->state = RAPIER_CORO_RUNNING;
	ZVAL_UNDEF(&retval);
	zend_call_known_instance_method(fn, &co->fiber->std, &retval, 0, NULL);
	zval_ptr_dtor(&retval);
	/* The entry lets no exception escape but exit(), which run() passes on. */
	if (co->fiber->context.status == ZEND_FIBER_STATUS_DEAD) {
		/* The fiber ended instead of idling in the pool. */
		record_free(co);
	}
}

static void run_ready(void)
{
	rapier_coro_t *co;
	int ran = 0;

	while (ran++ < RAPIER_CORO_MAX_RUN_PER_PASS && !EG(exception) && (co = ready_pop()) != NULL) {
		resume(co);
	}
}

static void trim_pool(rapier_timer_t *timer)
{
	uint32_t idle = sched.pool_low_water > RAPIER_CORO_POOL_FLOOR ? sched.pool_low_water - RAPIER_CORO_POOL_FLOOR : 0;

	for (uint32_t n = (idle + 1) / 2; n > 0 && sched.pool; n--) {
		rapier_coro_t *co = sched.pool;
		sched.pool = co->next;
		sched.pool_size--;
		co->pooled = false;
		co->state = RAPIER_CORO_DONE;
		record_free(co);
	}
	sched.pool_low_water = sched.pool_size;
}

static void drain_pool(void)
{
	rapier_coro_t *co;

	while ((co = sched.pool) != NULL) {
		sched.pool = co->next;
		sched.pool_size--;
		co->pooled = false;
		co->state = RAPIER_CORO_DONE;
		/* Releasing the idle fiber unwinds it out of the entry loop. */
		record_free(co);
	}
}

/* The call co waits in, and where it was made: "#3 in Rapier\Channel->pop() at /app/jobs.php:12". */
static const char *frame_string(zval *frame, const char *key)
{
	zval *v = zend_hash_str_find(Z_ARRVAL_P(frame), key, strlen(key));

	return v && Z_TYPE_P(v) == IS_STRING ? Z_STRVAL_P(v) : NULL;
}

void rapier_coro_describe_frame(smart_str *out, zval *frame)
{
	const char *class_name = frame_string(frame, "class"), *type = frame_string(frame, "type");
	const char *function = frame_string(frame, "function"), *file = frame_string(frame, "file");
	zval *line = zend_hash_str_find(Z_ARRVAL_P(frame), ZEND_STRL("line"));

	smart_str_append_printf(out, "%s%s%s()", class_name && type ? class_name : "", class_name && type ? type : "",
		function ? function : "?");
	if (file && line) {
		smart_str_append_printf(out, " at %s:" ZEND_LONG_FMT, file, zval_get_long(line));
	}
}

static void describe_where(smart_str *msg, rapier_coro_t *co)
{
	zval trace, *frame;

	smart_str_append_printf(msg, "#" ZEND_LONG_FMT, co->id);
	rapier_coro_backtrace(co, DEBUG_BACKTRACE_IGNORE_ARGS, 1, &trace);
	frame = zend_hash_index_find(Z_ARRVAL(trace), 0);
	if (frame) {
		smart_str_appends(msg, " in ");
		rapier_coro_describe_frame(msg, frame);
	}
	zval_ptr_dtor(&trace);
}

/* Where the stuck coroutines wait, the first few of them: what a deadlock is debugged from. */
static void describe_where_stuck(smart_str *msg)
{
	rapier_coro_t *co;
	uint32_t listed = 0, unlisted = 0;

	ZEND_HASH_FOREACH_PTR(&sched.live, co) {
		if (co->inherited) {
			continue;
		}
		if (listed == RAPIER_DEADLOCK_MAX_LISTED) {
			unlisted++;
			continue;
		}
		smart_str_appends(msg, listed++ ? "; " : ": ");
		describe_where(msg, co);
	} ZEND_HASH_FOREACH_END();
	if (unlisted) {
		smart_str_append_printf(msg, "; and %u more", unlisted);
	}
}

static void describe_stuck(smart_str *msg, uint32_t stuck)
{
	rapier_coro_t *co;
	HashTable by_what;
	zend_string *what;
	zval *count;

	zend_hash_init(&by_what, 8, NULL, NULL, 0);
	ZEND_HASH_FOREACH_PTR(&sched.live, co) {
		const char *w = co->wait_what ? co->wait_what : "something that never comes";

		if (co->inherited) {
			continue;   /* the parent's: they never run here, whatever they wait on */
		}
		count = zend_hash_str_find(&by_what, w, strlen(w));
		if (count) {
			Z_LVAL_P(count)++;
		} else {
			zval one;
			ZVAL_LONG(&one, 1);
			zend_hash_str_add_new(&by_what, w, strlen(w), &one);
		}
	} ZEND_HASH_FOREACH_END();

	smart_str_append_printf(msg, "Deadlock: %u coroutine%s can never be woken (", stuck, stuck == 1 ? "" : "s");
	bool first = true;
	ZEND_HASH_FOREACH_STR_KEY_VAL(&by_what, what, count) {
		smart_str_append_printf(msg, "%s" ZEND_LONG_FMT " waiting on %s", first ? "" : ", ", Z_LVAL_P(count), ZSTR_VAL(what));
		first = false;
	} ZEND_HASH_FOREACH_END();
	smart_str_appends(msg, "): nothing left in the loop to wake them");
	describe_where_stuck(msg);
	smart_str_0(msg);
	zend_hash_destroy(&by_what);
}

/* One pass of unwind_live(): the coroutines live when it starts. */
static void unwind_pass(void)
{
	uint32_t count = zend_hash_num_elements(&sched.live), i = 0;
	rapier_coro_t **victims, *co;

	if (count == 0) {
		return;
	}
	/* Detach them all first: unwinding runs user code that may touch the table. */
	victims = safe_emalloc(count, sizeof(*victims), 0);
	ZEND_HASH_FOREACH_PTR(&sched.live, co) {
		victims[i++] = co;
	} ZEND_HASH_FOREACH_END();
	zend_hash_clean(&sched.live);
	sched.inherited = 0;

	for (i = 0; i < count; i++) {
		zend_object *pending = EG(exception);

		co = victims[i];
		unlink_and_end_wait(co);
		record_free(co);
		if (EG(exception) != pending) {
			/* What the unwinding threw is dropped; what was pending before stays. */
			zend_object *thrown = EG(exception);
			EG(exception) = pending;
			if (thrown) {
				OBJ_RELEASE(thrown);
			}
		}
		/*
		 * Nothing runs the queue again in this run, and a finally block
		 * may have queued a coroutine it woke or started: a victim freed
		 * later in this pass, or one the next pass frees. Drop the queue
		 * rather than keep a record that is about to be freed in it.
		 */
		sched.ready_head = sched.ready_tail = NULL;
	}
	efree(victims);
}

/*
 * Unwinds every live coroutine now: each suspended fiber gets the graceful
 * exit PHP itself throws into a destroyed fiber, so finally blocks run and
 * the fiber ends; coroutines those blocks start are freed without running.
 * Used for a deadlock and for exit() inside a coroutine.
 */
static void unwind_live(void)
{
	while (zend_hash_num_elements(&sched.live) > 0) {
		unwind_pass();
	}
}

/* Every coroutine left waits on something no timer or socket can wake. */
static zend_object *break_deadlock(void)
{
	smart_str msg = {0};

	describe_stuck(&msg, zend_hash_num_elements(&sched.live) - sched.inherited);
	zend_throw_exception(rapier_ce_deadlock_exception, ZSTR_VAL(msg.s), 0);
	smart_str_free(&msg);
	zend_object *ex = take_exception();
	unwind_live();
	return ex;
}

/*
 * A signal PHP handles (pcntl_signal() with async signals) only sets
 * EG(vm_interrupt); PHP runs the handler when it next ends an opcode or a
 * call. While every coroutine waits nothing runs, so the handler would wait
 * for whatever event came next: run it as soon as the loop wakes, here in
 * the scheduler, as PHP would at this point of Rapier\run(). What it throws
 * (or an exit()) ends the run, as PHP does when a Fiber::resume() made from
 * here returns with a signal pending. A signal landing between this check
 * and epoll_wait() still waits for the next event: closing that window
 * would take two sigprocmask() calls per pass.
 */
static void run_interrupt(void)
{
	if (EXPECTED(!zend_atomic_bool_load_ex(&EG(vm_interrupt)))
			|| zend_atomic_bool_load_ex(&EG(timed_out)) || zend_interrupt_function == NULL) {
		return; /* a time limit is left to PHP, which ends the script at the next opcode */
	}
	zend_atomic_bool_store_ex(&EG(vm_interrupt), false);
	zend_interrupt_function(EG(current_execute_data));
}

static void drive(void)
{
	for (;;) {
		run_ready();
		run_interrupt();
		if (EG(exception)) {
			return;
		}
		/* What the coroutines of this pass put off (an HTTP/2 connection's frames) goes now, once. */
		rapier_loop_run_deferred(&sched.loop);
		if (sched.ready_head) {
			rapier_loop_poll(&sched.loop, 0);
			continue;
		}
		if (!rapier_loop_alive(&sched.loop)) {
			return;
		}
		rapier_loop_poll(&sched.loop, -1);
	}
}

static void sched_start(void)
{
	memset(&sched.loop, 0, sizeof(sched.loop));
	rapier_loop_init(&sched.loop);
	zend_hash_init(&sched.live, 64, NULL, NULL, 0);
	sched.inherited = 0;
	sched.next_id = 0;
	sched.ready_head = sched.ready_tail = NULL;
	sched.pool = NULL;
	sched.pool_size = 0;
	sched.pool_low_water = 0;
	rapier_timer_init(&sched.pool_trim, trim_pool, NULL);
	/* The trim must not keep a finished run alive. */
	sched.pool_trim.unref = true;
	rapier_timer_start(&sched.loop, &sched.pool_trim, RAPIER_CORO_POOL_TRIM_NS, RAPIER_CORO_POOL_TRIM_NS);
	ZVAL_UNDEF(&sched.main_result);
	sched.main_exception = NULL;
	sched.main_done = false;
	sched.running = true;
	rapier_hook_on_run_start();
}

void rapier_sched_on_stop(void (*fn)(void))
{
	ZEND_ASSERT(sched.stop_hook_count < RAPIER_SCHED_MAX_STOP_HOOKS);
	sched.stop_hooks[sched.stop_hook_count++] = fn;
}

static void run_stop_hooks(void)
{
	for (int i = 0; i < sched.stop_hook_count; i++) {
		sched.stop_hooks[i]();
	}
	sched.stop_hook_count = 0;
}

static void sched_stop(void)
{
	run_stop_hooks();
	drain_pool();
	sched.ready_head = sched.ready_tail = NULL;
	sched.running = false;
	rapier_hook_on_run_end();
	zend_hash_destroy(&sched.live);
	rapier_loop_close(&sched.loop);
}

/*
 * After a bailout no suspended fiber will ever run again (PHP marks every
 * object destructed, so not even their destructors unwind them): take
 * their waits off every queue, drop the loop, and free the records once
 * the request is over, when nothing can dereference them any more.
 */
static void sched_abandon(void)
{
	rapier_coro_t *co;

	ZEND_HASH_FOREACH_PTR(&sched.live, co) {
		co->next = abandoned;
		abandoned = co;
	} ZEND_HASH_FOREACH_END();
	while ((co = sched.pool) != NULL) {
		sched.pool = co->next;
		co->next = abandoned;
		abandoned = co;
	}
	for (co = abandoned; co; co = co->next) {
		/*
		 * Suspended fibers keep their stacks until their objects are freed
		 * at shutdown: unlink now, so that no wait queue (a channel that a
		 * shutdown function may still use) keeps pointing at them.
		 */
		if (co->state == RAPIER_CORO_WAITING && co->wait_unlink) {
			co->wait_unlink(co, co->wait_data);
		}
		co->state = RAPIER_CORO_DONE;
		co->wait_unlink = NULL;
	}
	sched.ready_head = sched.ready_tail = NULL;
	sched.pool_size = 0;
	run_stop_hooks();
	sched.running = false;
	rapier_hook_on_run_end();
	zend_hash_destroy(&sched.live);
	rapier_loop_close(&sched.loop);
}

void rapier_coroutine_rshutdown(void)
{
	rapier_coro_t *co;

	while ((co = abandoned) != NULL) {
		abandoned = co->next;
		efree(co);
	}
	zval_ptr_dtor(&sched.exception_handler);
	ZVAL_UNDEF(&sched.exception_handler);
}

void rapier_sched_run(zval *callable, zend_fcall_info_cache *fcc, zval *args, uint32_t argc, zval *return_value)
{
	rapier_sched_run_ex(callable, fcc, args, argc, return_value, NULL);
}

void rapier_sched_run_ex(zval *callable, zend_fcall_info_cache *fcc, zval *args, uint32_t argc, zval *return_value,
	void (*on_main_exception)(void))
{
	rapier_coro_t *main_co;
	/* Static, not a local: it is assigned between setjmp and a possible longjmp. */
	static zend_object *deadlock;

	if (sched.running) {
		zend_throw_exception(rapier_ce_exception,
			"Cannot call Rapier\\run() while a scheduler is running: use Rapier\\go() to start more coroutines", 0);
		return;
	}
	sched_start();
	sched.on_main_exception = on_main_exception;
	main_co = rapier_coro_spawn(callable, fcc, args, argc);
	main_co->is_main = true;
	deadlock = NULL;

	zend_try {
		drive();
		if (EG(exception) || only_inherited_live()) {
			unwind_live();
		} else {
			deadlock = break_deadlock();
		}
	} zend_catch {
		sched_abandon();
		zend_bailout();
	} zend_end_try();

	sched_stop();

	if (EG(exception)) {
		/* exit() inside a coroutine: it keeps unwinding the script. */
		zval_ptr_dtor(&sched.main_result);
		if (sched.main_exception) {
			OBJ_RELEASE(sched.main_exception);
		}
		if (deadlock) {
			OBJ_RELEASE(deadlock);
		}
		return;
	}
	if (deadlock) {
		zval_ptr_dtor(&sched.main_result);
		if (sched.main_exception) {
			zend_exception_set_previous(deadlock, sched.main_exception);
		}
		zend_throw_exception_internal(deadlock);
		return;
	}
	if (sched.main_exception) {
		zval_ptr_dtor(&sched.main_result);
		zend_throw_exception_internal(sched.main_exception);
		return;
	}
	if (Z_TYPE(sched.main_result) != IS_UNDEF) {
		RETVAL_COPY_VALUE(&sched.main_result);
	}
}
