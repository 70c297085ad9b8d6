/*
 * Rapier\run(), Rapier\go(), Rapier\parallel(), Rapier\trap_exit(), and the
 * argument helpers the other binding files share. (The function table itself
 * is registered by rapier.c.)
 */
#include "php_rapier.h"
#include "zend_exceptions.h"

#include "coroutine.h"
#include "exit.h"
#include "parallel.h"

bool rapier_require_coroutine(const char *what)
{
	if (rapier_coro_can_yield()) {
		return true;
	}
	if (!rapier_sched_running()) {
		zend_throw_exception_ex(rapier_ce_exception, 0,
			"Cannot call %s outside a coroutine: run the code inside Rapier\\run() or Rapier\\go()", what);
	} else {
		zend_throw_exception_ex(rapier_ce_exception, 0,
			"Cannot call %s here: it must run in a Rapier coroutine, not in a Fiber of your own or a destructor "
			"called by the garbage collector", what);
	}
	return false;
}

/* Longest timeout accepted: ~292 years in nanoseconds fits int64_t with room for the clock. */
#define RAPIER_MAX_TIMEOUT_SECONDS 9.0e9

int64_t rapier_timeout_arg_ns(double seconds, uint32_t arg_num)
{
	if (zend_isnan(seconds)) {
		zend_argument_value_error(arg_num, "must not be NAN");
		return -2;
	}
	if (seconds < 0) {
		return -1;
	}
	if (seconds > RAPIER_MAX_TIMEOUT_SECONDS) {
		zend_argument_value_error(arg_num, "must be at most %.0f seconds", RAPIER_MAX_TIMEOUT_SECONDS);
		return -2;
	}
	return (int64_t) (seconds * 1e9);
}

ZEND_FUNCTION(Rapier_run)
{
	zval *args = NULL;
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	uint32_t argc = 0;

	ZEND_PARSE_PARAMETERS_START(1, -1)
		Z_PARAM_FUNC(fci, fcc)
		Z_PARAM_VARIADIC('*', args, argc)
	ZEND_PARSE_PARAMETERS_END();

	rapier_sched_run(&fci.function_name, &fcc, args, argc, return_value);
}

ZEND_FUNCTION(Rapier_go)
{
	zval *args = NULL;
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	uint32_t argc = 0;
	rapier_coro_t *co;

	ZEND_PARSE_PARAMETERS_START(1, -1)
		Z_PARAM_FUNC(fci, fcc)
		Z_PARAM_VARIADIC('*', args, argc)
	ZEND_PARSE_PARAMETERS_END();

	co = rapier_coro_spawn(&fci.function_name, &fcc, args, argc);
	if (co == NULL) {
		RETURN_THROWS();
	}
	RETURN_LONG(co->id);
}

ZEND_FUNCTION(Rapier_parallel)
{
	HashTable *callables;
	double timeout = -1;
	zend_long limit = 0;
	int64_t timeout_ns;

	ZEND_PARSE_PARAMETERS_START(1, 3)
		Z_PARAM_ARRAY_HT(callables)
		Z_PARAM_OPTIONAL
		Z_PARAM_DOUBLE(timeout)
		Z_PARAM_LONG(limit)
	ZEND_PARSE_PARAMETERS_END();

	timeout_ns = rapier_timeout_arg_ns(timeout, 2);
	if (timeout_ns == -2) {
		RETURN_THROWS();
	}
	if (limit < 0 || limit > UINT32_MAX) {
		zend_argument_value_error(3, "must be between 0 (no limit) and %u", UINT32_MAX);
		RETURN_THROWS();
	}
	if (!rapier_require_coroutine("Rapier\\parallel()")) {
		RETURN_THROWS();
	}
	rapier_parallel(callables, timeout, timeout_ns, (uint32_t) limit, return_value);
}

/*
 * exit() unwinds the stack with an object no catch can take, and skips
 * finally blocks on its way. Stopped here, it becomes an ExitException, so
 * the caller's own catch and finally blocks run: how a resident server
 * ends a request that called exit() without ending the worker. A fatal
 * error PHP unwinds the same way (memory_limit) is not an exit: it goes on.
 */
ZEND_FUNCTION(Rapier_trap_exit)
{
	zval *args = NULL;
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	uint32_t argc = 0;
	rapier_exit_mark_t mark;
	zend_long status;

	ZEND_PARSE_PARAMETERS_START(1, -1)
		Z_PARAM_FUNC(fci, fcc)
		Z_PARAM_VARIADIC('*', args, argc)
	ZEND_PARSE_PARAMETERS_END();

	fci.retval = return_value;
	fci.params = args;
	fci.param_count = argc;
	rapier_exit_mark(&mark);
	zend_call_function(&fci, &fcc);
	if (!rapier_exit_trapped(EG(exception), &mark, &status)) {
		/* A return, an exception, or a fatal error on its way out. */
		return;
	}
	zend_clear_exception();
	zval_ptr_dtor(return_value);
	ZVAL_NULL(return_value);
	zend_throw_exception_ex(rapier_ce_exit_exception, status,
		"exit() was called with status " ZEND_LONG_FMT ": it ended the code Rapier\\trap_exit() ran", status);
}
