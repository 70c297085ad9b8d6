/* Rapier\Coroutine: static API over the scheduler (src/coroutine.c). */
#include "php_rapier.h"
#include "zend_exceptions.h"
#include "ext/spl/spl_array.h"

#include "coroutine.h"
#include "sigwait.h"
#include "sleep.h"
#include "coroutine_arginfo.h"

zend_class_entry *rapier_ce_coroutine;

void rapier_coroutine_class_minit(void)
{
	rapier_ce_coroutine = register_class_Rapier_Coroutine();
}

ZEND_METHOD(Rapier_Coroutine, __construct)
{
}

ZEND_METHOD(Rapier_Coroutine, id)
{
	rapier_coro_t *co = rapier_coro_current();

	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_LONG(co ? co->id : -1);
}

ZEND_METHOD(Rapier_Coroutine, sleep)
{
	double seconds;
	int64_t ns;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_DOUBLE(seconds)
	ZEND_PARSE_PARAMETERS_END();

	/* NAN is not below 0: rapier_timeout_arg_ns() names it. */
	if (seconds < 0) {
		zend_argument_value_error(1, "must be greater than or equal to 0");
		RETURN_THROWS();
	}
	ns = rapier_timeout_arg_ns(seconds, 1);
	if (ns < 0 || !rapier_require_coroutine("Rapier\\Coroutine::sleep()")) {
		RETURN_THROWS();
	}
	if (rapier_coro_sleep_ns(ns) == RAPIER_WAKE_CANCELED && !EG(exception)) {
		zend_throw_exception(rapier_ce_canceled_exception, "Coroutine was canceled while sleeping", 0);
	}
}

/* Adds one signal number of waitSignal()'s argument to set; false with an error thrown. */
static bool add_signal_arg(sigset_t *set, zend_long signo)
{
	const char *why, *name;

	if (signo < 1 || signo > RAPIER_SIGWAIT_MAX_SIGNO) {
		zend_argument_value_error(1, "must hold signal numbers between 1 and %d, " ZEND_LONG_FMT " given",
			RAPIER_SIGWAIT_MAX_SIGNO, signo);
		return false;
	}
	if ((why = rapier_sigwait_refusal((int) signo)) != NULL) {
		if ((name = rapier_signal_name((int) signo)) != NULL) {
			zend_argument_value_error(1, "cannot hold SIG%s (" ZEND_LONG_FMT "): %s", name, signo, why);
		} else {
			zend_argument_value_error(1, "cannot hold signal " ZEND_LONG_FMT ": %s", signo, why);
		}
		return false;
	}
	sigaddset(set, (int) signo);
	return true;
}

/* Fills set from an int or a non-empty list of ints; false with an error thrown. */
static bool parse_signals_arg(sigset_t *set, HashTable *list, zend_long signo)
{
	zval *entry;

	sigemptyset(set);
	if (list == NULL) {
		return add_signal_arg(set, signo);
	}
	if (zend_hash_num_elements(list) == 0) {
		zend_argument_value_error(1, "must not be empty: give at least one signal number");
		return false;
	}
	ZEND_HASH_FOREACH_VAL(list, entry) {
		ZVAL_DEREF(entry);
		if (Z_TYPE_P(entry) != IS_LONG) {
			zend_argument_type_error(1, "must hold only signal numbers of type int, %s given", zend_zval_type_name(entry));
			return false;
		}
		if (!add_signal_arg(set, Z_LVAL_P(entry))) {
			return false;
		}
	} ZEND_HASH_FOREACH_END();
	return true;
}

/* Throws when a signal of set is read by someone else in this process (the HTTP server). */
static bool check_not_reserved(const sigset_t *set)
{
	for (int s = 1; s <= RAPIER_SIGWAIT_MAX_SIGNO; s++) {
		const char *advice = sigismember(set, s) == 1 ? rapier_sigwait_reserved(s) : NULL;
		if (advice) {
			/* Only named, standard signals are reserved. */
			zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot wait for SIG%s here: %s", rapier_signal_name(s), advice);
			return false;
		}
	}
	return true;
}

ZEND_METHOD(Rapier_Coroutine, waitSignal)
{
	HashTable *list = NULL;
	zend_long signo = 0;
	double timeout = -1;
	int64_t timeout_ns;
	sigset_t set;
	int arrived = 0, rc;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_ARRAY_HT_OR_LONG(list, signo)
		Z_PARAM_OPTIONAL
		Z_PARAM_DOUBLE(timeout)
	ZEND_PARSE_PARAMETERS_END();

	if (!parse_signals_arg(&set, list, signo) || (timeout_ns = rapier_timeout_arg_ns(timeout, 2)) == -2) {
		RETURN_THROWS();
	}
	if (!rapier_require_coroutine("Rapier\\Coroutine::waitSignal()") || !check_not_reserved(&set)) {
		RETURN_THROWS();
	}
	rc = rapier_sigwait(&set, timeout_ns, &arrived);
	if (rc == 0) {
		RETURN_LONG(arrived);
	}
	if (rc == -ETIMEDOUT) {
		RETURN_FALSE;
	}
	if (EG(exception)) {
		RETURN_THROWS();
	}
	if (rc == -ECANCELED) {
		zend_throw_exception(rapier_ce_canceled_exception, "Coroutine was canceled while waiting for a signal", 0);
	} else {
		zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot wait for a signal: signalfd() failed: %s", strerror(-rc));
	}
	RETURN_THROWS();
}

ZEND_METHOD(Rapier_Coroutine, defer)
{
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	rapier_coro_t *co;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_FUNC(fci, fcc)
	ZEND_PARSE_PARAMETERS_END();

	co = rapier_coro_current();
	if (co == NULL) {
		rapier_require_coroutine("Rapier\\Coroutine::defer()");
		RETURN_THROWS();
	}
	if (Z_TYPE(co->defers) != IS_ARRAY) {
		array_init(&co->defers);
	}
	Z_TRY_ADDREF(fci.function_name);
	add_next_index_zval(&co->defers, &fci.function_name);
}

ZEND_METHOD(Rapier_Coroutine, count)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_LONG(rapier_coro_count());
}

ZEND_METHOD(Rapier_Coroutine, list)
{
	ZEND_PARSE_PARAMETERS_NONE();
	rapier_coro_list(return_value);
}

ZEND_METHOD(Rapier_Coroutine, exists)
{
	zend_long id;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_LONG(id)
	ZEND_PARSE_PARAMETERS_END();
	RETURN_BOOL(rapier_coro_find(id) != NULL);
}

ZEND_METHOD(Rapier_Coroutine, cancel)
{
	zend_long id;
	rapier_coro_t *co;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_LONG(id)
	ZEND_PARSE_PARAMETERS_END();

	co = rapier_coro_find(id);
	RETURN_BOOL(co != NULL && rapier_coro_cancel(co));
}

/* The live coroutine id names, or the running one for a null id; NULL with an exception thrown. */
static rapier_coro_t *coroutine_arg(bool id_is_null, zend_long id, const char *method, const char *what)
{
	rapier_coro_t *co;

	if (id_is_null) {
		co = rapier_coro_current();
		if (co == NULL) {
			rapier_require_coroutine(method);
		}
		return co;
	}
	co = rapier_coro_find(id);
	if (co == NULL) {
		zend_throw_exception_ex(rapier_ce_exception, 0,
			"Cannot get the %s of coroutine #" ZEND_LONG_FMT ": no such coroutine is alive", what, id);
	}
	return co;
}

ZEND_METHOD(Rapier_Coroutine, context)
{
	zend_long id = 0;
	bool id_is_null = true;
	rapier_coro_t *co;

	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG_OR_NULL(id, id_is_null)
	ZEND_PARSE_PARAMETERS_END();

	co = coroutine_arg(id_is_null, id, "Rapier\\Coroutine::context()", "context");
	if (co == NULL) {
		RETURN_THROWS();
	}
	if (Z_TYPE(co->context) != IS_OBJECT) {
		object_init_ex(&co->context, spl_ce_ArrayObject);
	}
	RETURN_COPY(&co->context);
}

ZEND_METHOD(Rapier_Coroutine, backtrace)
{
	zend_long id = 0, options = DEBUG_BACKTRACE_PROVIDE_OBJECT, limit = 0;
	bool id_is_null = true;
	rapier_coro_t *co;

	ZEND_PARSE_PARAMETERS_START(0, 3)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG_OR_NULL(id, id_is_null)
		Z_PARAM_LONG(options)
		Z_PARAM_LONG(limit)
	ZEND_PARSE_PARAMETERS_END();

	if (limit < 0 || limit > INT_MAX) {
		zend_argument_value_error(3, "must be between 0 (no limit) and %d", INT_MAX);
		RETURN_THROWS();
	}
	co = coroutine_arg(id_is_null, id, "Rapier\\Coroutine::backtrace()", "backtrace");
	if (co == NULL) {
		RETURN_THROWS();
	}
	rapier_coro_backtrace(co, (int) options, (int) limit, return_value);
}

ZEND_METHOD(Rapier_Coroutine, setExceptionHandler)
{
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_FUNC_OR_NULL(fci, fcc)
	ZEND_PARSE_PARAMETERS_END();

	rapier_coro_set_exception_handler(ZEND_FCI_INITIALIZED(fci) ? &fci.function_name : NULL);
}

ZEND_METHOD(Rapier_Coroutine, fiberMain)
{
	ZEND_PARSE_PARAMETERS_NONE();
	rapier_coro_fiber_entry();
}
