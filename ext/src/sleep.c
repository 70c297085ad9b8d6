/*
 * The sleep family inside coroutines. Their internal handlers are swapped
 * once at startup for wrappers that call PHP's own handler unless the
 * caller can yield and RAPIER_HOOK_SLEEP is on. Invalid arguments are also
 * passed to PHP's handler so that errors stay exactly PHP's.
 */
#include "php_rapier.h"
#include "zend_exceptions.h"

#include "coroutine.h"
#include "hook.h"
#include "sleep.h"

typedef struct {
	const char *name;
	size_t name_len;
	zif_handler replacement;
	zif_handler original;
} sleep_hook_t;

static ZEND_FUNCTION(rapier_sleep);
static ZEND_FUNCTION(rapier_usleep);
static ZEND_FUNCTION(rapier_time_nanosleep);

static sleep_hook_t hooks[] = {
	{ ZEND_STRL("sleep"), ZEND_FN(rapier_sleep), NULL },
	{ ZEND_STRL("usleep"), ZEND_FN(rapier_usleep), NULL },
	{ ZEND_STRL("time_nanosleep"), ZEND_FN(rapier_time_nanosleep), NULL },
};

enum { HOOK_SLEEP_FN, HOOK_USLEEP_FN, HOOK_NANOSLEEP_FN };

void rapier_sleep_hook_minit(void)
{
	for (size_t i = 0; i < sizeof(hooks) / sizeof(hooks[0]); i++) {
		hooks[i].original = rapier_hook_replace_handler(hooks[i].name, hooks[i].name_len, hooks[i].replacement);
	}
}

void rapier_sleep_hook_mshutdown(void)
{
	for (size_t i = 0; i < sizeof(hooks) / sizeof(hooks[0]); i++) {
		rapier_hook_replace_handler(hooks[i].name, hooks[i].name_len, hooks[i].original);
	}
}

int rapier_coro_sleep_ns(int64_t ns)
{
	return rapier_coro_wait(ns, NULL, NULL, "a sleep");
}

static bool may_yield(void)
{
	return rapier_hook_enabled(RAPIER_HOOK_SLEEP) && rapier_coro_can_yield();
}

/* Sleeps in the coroutine; a cancellation surfaces as Rapier\CanceledException. */
static void coro_sleep(int64_t ns)
{
	if (rapier_coro_sleep_ns(ns) == RAPIER_WAKE_CANCELED && !EG(exception)) {
		zend_throw_exception(rapier_ce_canceled_exception, "Coroutine was canceled while sleeping", 0);
	}
}

typedef enum { PARSED, PASS_TO_PHP, THREW } parse_result_t;

/*
 * Parses a sleep's integer arguments. PASS_TO_PHP: PHP's handler should
 * take the call (it then sees the integers parsed so far, and raises any
 * TypeError itself); THREW: an error handler threw from the conversion's
 * deprecation, as it would in PHP's own parsing.
 */
static parse_result_t parse_longs(zend_execute_data *execute_data, uint32_t count, zend_long *values)
{
	if (!may_yield() || ZEND_NUM_ARGS() != count) {
		return PASS_TO_PHP;
	}
	for (uint32_t i = 0; i < count; i++) {
		if (!zend_parse_arg_long(ZEND_CALL_ARG(execute_data, i + 1), &values[i], NULL, false, i + 1)) {
			return EG(exception) ? THREW : PASS_TO_PHP;
		}
		rapier_hook_set_long_arg(execute_data, i + 1, values[i]);
	}
	return PARSED;
}

static ZEND_FUNCTION(rapier_sleep)
{
	zend_long seconds;
	parse_result_t parsed = parse_longs(execute_data, 1, &seconds);

	if (parsed == THREW) {
		RETURN_THROWS();
	}
	if (parsed == PASS_TO_PHP || seconds < 0 || seconds > INT64_MAX / 1000000000) {
		hooks[HOOK_SLEEP_FN].original(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	coro_sleep((int64_t) seconds * 1000000000);
	if (!EG(exception)) {
		RETURN_LONG(0);
	}
}

static ZEND_FUNCTION(rapier_usleep)
{
	zend_long usec;
	parse_result_t parsed = parse_longs(execute_data, 1, &usec);

	if (parsed == THREW) {
		RETURN_THROWS();
	}
	if (parsed == PASS_TO_PHP || usec < 0 || usec > INT64_MAX / 1000) {
		hooks[HOOK_USLEEP_FN].original(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	coro_sleep((int64_t) usec * 1000);
}

static ZEND_FUNCTION(rapier_time_nanosleep)
{
	zend_long t[2];   /* seconds, nanoseconds */
	parse_result_t parsed = parse_longs(execute_data, 2, t);

	if (parsed == THREW) {
		RETURN_THROWS();
	}
	if (parsed == PASS_TO_PHP || t[0] < 0 || t[1] < 0 || t[1] > 999999999 || t[0] > INT64_MAX / 1000000000 - 1) {
		hooks[HOOK_NANOSLEEP_FN].original(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	coro_sleep((int64_t) t[0] * 1000000000 + t[1]);
	if (!EG(exception)) {
		RETURN_TRUE;
	}
}
