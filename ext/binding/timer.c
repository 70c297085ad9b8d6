/*
 * Rapier\Timer: after/tick/clear over loop timers. Each firing starts a new
 * coroutine for the callback, so callbacks may sleep and do I/O without
 * holding up other timers. Entries live in a table keyed by id for the
 * duration of one Rapier\run(); the scheduler clears it when it stops.
 */
#include "php_rapier.h"
#include "zend_exceptions.h"

#include "coroutine.h"
#include "timer_arginfo.h"

typedef struct {
	rapier_timer_t timer;
	zend_long id;
	zval callable;
	zend_fcall_info_cache fcc;
	zval *args;
	uint32_t argc;
} timer_entry_t;

static HashTable entries;
static bool entries_ready;
static zend_long next_timer_id;

static void entry_free(zval *zv)
{
	timer_entry_t *entry = Z_PTR_P(zv);
	rapier_loop_t *loop = rapier_sched_loop();

	if (loop) {
		rapier_timer_stop(loop, &entry->timer);
	}
	zval_ptr_dtor(&entry->callable);
	for (uint32_t i = 0; i < entry->argc; i++) {
		zval_ptr_dtor(&entry->args[i]);
	}
	if (entry->args) {
		efree(entry->args);
	}
	efree(entry);
}

static void on_sched_stop(void)
{
	if (entries_ready) {
		zend_hash_destroy(&entries);
		entries_ready = false;
	}
}

uint32_t rapier_user_timers_clear(void)
{
	uint32_t count;

	if (!entries_ready) {
		return 0;
	}
	count = zend_hash_num_elements(&entries);
	zend_hash_clean(&entries);
	return count;
}

static void on_fire(rapier_timer_t *timer)
{
	timer_entry_t *entry = timer->data;
	zend_long id = entry->id;

	rapier_coro_spawn(&entry->callable, &entry->fcc, entry->args, entry->argc);
	if (EG(exception)) {
		zend_clear_exception();
	}
	if (timer->repeat_ns == 0) {
		zend_hash_index_del(&entries, (zend_ulong) id);
	}
}

static void add_timer(INTERNAL_FUNCTION_PARAMETERS, bool repeat)
{
	double seconds;
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	zval *args = NULL;
	uint32_t argc = 0;
	int64_t ns;
	timer_entry_t *entry;

	ZEND_PARSE_PARAMETERS_START(2, -1)
		Z_PARAM_DOUBLE(seconds)
		Z_PARAM_FUNC(fci, fcc)
		Z_PARAM_VARIADIC('*', args, argc)
	ZEND_PARSE_PARAMETERS_END();

	/* NAN is neither: rapier_timeout_arg_ns() names it. */
	if (seconds < 0 || (repeat && seconds == 0)) {
		zend_argument_value_error(1, repeat ? "must be greater than 0" : "must be greater than or equal to 0");
		RETURN_THROWS();
	}
	if ((ns = rapier_timeout_arg_ns(seconds, 1)) < 0) {
		RETURN_THROWS();
	}
	if (!rapier_sched_running()) {
		zend_throw_exception(rapier_ce_exception,
			"Cannot start a timer outside Rapier\\run(): wrap the program in Rapier\\run()", 0);
		RETURN_THROWS();
	}
	if (!entries_ready) {
		zend_hash_init(&entries, 16, NULL, entry_free, 0);
		entries_ready = true;
		rapier_sched_on_stop(on_sched_stop);
	}
	entry = ecalloc(1, sizeof(*entry));
	entry->id = ++next_timer_id;
	ZVAL_COPY(&entry->callable, &fci.function_name);
	entry->fcc = fcc;
	entry->argc = argc;
	if (argc) {
		entry->args = safe_emalloc(argc, sizeof(zval), 0);
		for (uint32_t i = 0; i < argc; i++) {
			ZVAL_COPY(&entry->args[i], &args[i]);
		}
	}
	rapier_timer_init(&entry->timer, on_fire, entry);
	zend_hash_index_add_new_ptr(&entries, (zend_ulong) entry->id, entry);
	rapier_timer_start(rapier_sched_loop(), &entry->timer, (uint64_t) ns, repeat ? (uint64_t) ns : 0);
	RETURN_LONG(entry->id);
}

ZEND_METHOD(Rapier_Timer, __construct)
{
}

ZEND_METHOD(Rapier_Timer, after)
{
	add_timer(INTERNAL_FUNCTION_PARAM_PASSTHRU, false);
}

ZEND_METHOD(Rapier_Timer, tick)
{
	add_timer(INTERNAL_FUNCTION_PARAM_PASSTHRU, true);
}

ZEND_METHOD(Rapier_Timer, clear)
{
	zend_long id;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_LONG(id)
	ZEND_PARSE_PARAMETERS_END();

	RETURN_BOOL(entries_ready && zend_hash_index_del(&entries, (zend_ulong) id) == SUCCESS);
}

void rapier_timer_class_minit(void)
{
	register_class_Rapier_Timer();
}
