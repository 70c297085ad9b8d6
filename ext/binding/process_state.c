/*
 * Rapier\ProcessState: the settings PHP keeps for the whole process, taken
 * at one moment and put back later, so that a resident server starts each
 * request from the state boot left, as php-fpm starts each from php.ini.
 *
 * Each kind of setting is kept the way it is cheapest to compare:
 * - ini entries: only those modified so far (EG(modified_ini_directives))
 *   are copied, and restore() visits those and the ones modified since, so
 *   a request that changed nothing costs a walk over a handful of entries;
 * - the error and exception handlers with their stacks, as zvals;
 * - environment variables, compared with environ in place;
 * - the rest through PHP's own getter and setter functions, whose side
 *   tables (setlocale()'s ctype cache, chdir()'s stat cache, putenv()'s
 *   record of what to undo at shutdown) must stay in step;
 * - the default stream context's options, in place, so that a resource
 *   boot kept of it stays the one in use; a request's
 *   stream_context_set_default(['ssl' => ['verify_peer' => false]])
 *   must not turn certificate checks off for every later request;
 * - the seeds of mt_rand() and lcg_value() are dropped, as each request's
 *   start drops them under php-fpm: a request's mt_srand(42) must not make
 *   every later request's mt_rand(), shuffle() or str_shuffle() known.
 *
 * restore() runs PHP's setters with warnings turned into exceptions, which
 * it drops: a setting that cannot be put back now (memory_limit below the
 * memory in use) stays, unreported, and the next restore() tries again. No
 * user error handler sees those warnings: it may be the one being replaced.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include <locale.h>
#include <string.h>
#include <unistd.h>

#include "php.h"
#include "ext/random/php_random.h"
#include "ext/standard/file.h"
#include "zend_exceptions.h"
#include "zend_ini.h"
#include "zend_stack.h"

#include "php_rapier.h"
#include "process_state_arginfo.h"

extern char **environ;

/* A setting read and written through PHP functions. */
typedef struct {
	const char *name;   /* as restore() reports it */
	const char *getter;
	const char *setter;
	bool by_category;   /* setlocale(): LC_ALL first, and "0" to read */
} call_setting_t;

static const call_setting_t call_settings[] = {
	{"locale", "setlocale", "setlocale", true},
	{"timezone", "date_default_timezone_get", "date_default_timezone_set", false},
	{"cwd", "getcwd", "chdir", false},
	{"umask", "umask", "umask", false},
	{"mb_internal_encoding", "mb_internal_encoding", "mb_internal_encoding", false},
	{"libxml_use_internal_errors", "libxml_use_internal_errors", "libxml_use_internal_errors", false},
};

#define CALL_SETTING_COUNT (sizeof(call_settings) / sizeof(call_settings[0]))

/* A handler and the stack set_*_handler() pushes the previous ones on. */
typedef struct {
	zval current;
	int current_mask;   /* error handlers: the error_levels it was set for */
	uint32_t depth;
	zval *stack;        /* bottom first */
	int *masks;         /* error handlers only */
} handlers_t;

typedef struct {
	HashTable ini;      /* name => value (string, or null) */
	HashTable keep_ini; /* names, and prefixes ending in ".", restore() leaves alone */
	HashTable env;      /* name => value */
	handlers_t error_handlers;
	handlers_t exception_handlers;
	zval settings[CALL_SETTING_COUNT];   /* UNDEF: function absent, or it failed */
	zval context_options;     /* the default stream context's options (empty: none made yet) */
	bool context_notifier;    /* ...and whether it had a notifier (stream_context_set_params()) */
	bool captured;
	zend_object std;
} process_state_object;

static zend_class_entry *rapier_ce_process_state;
static zend_object_handlers process_state_handlers;

static inline process_state_object *process_state_from(zend_object *obj)
{
	return (process_state_object *) ((char *) obj - XtOffsetOf(process_state_object, std));
}

/* Runs PHP's function `name`; false when it is not loaded, warned or threw. */
static bool call_quietly(const char *name, uint32_t argc, zval *argv, zval *retval)
{
	zend_function *fn = zend_hash_str_find_ptr(EG(function_table), name, strlen(name));

	ZVAL_UNDEF(retval);
	if (!fn) {
		return false;
	}
	zend_call_known_function(fn, NULL, NULL, retval, argc, argv, NULL);
	if (EG(exception)) {
		zend_clear_exception();
		zval_ptr_dtor(retval);
		ZVAL_UNDEF(retval);
		return false;
	}
	return true;
}

static void setting_read(const call_setting_t *setting, zval *value)
{
	zval args[2];
	uint32_t argc = 0;

	if (setting->by_category) {
		ZVAL_LONG(&args[0], LC_ALL);
		ZVAL_CHAR(&args[1], '0');
		argc = 2;
	}
	call_quietly(setting->getter, argc, args, value);
}

static bool setting_write(const call_setting_t *setting, zval *value)
{
	zval args[2], result;
	uint32_t argc = 0;
	bool ok;

	if (setting->by_category) {
		ZVAL_LONG(&args[argc++], LC_ALL);
	}
	ZVAL_COPY_VALUE(&args[argc++], value);
	ok = call_quietly(setting->setter, argc, args, &result);
	zval_ptr_dtor(&result);
	return ok;
}

static void report(zval *restored, const char *kind, zend_string *name)
{
	if (name) {
		add_next_index_str(restored, zend_strpprintf(0, "%s:%s", kind, ZSTR_VAL(name)));
	} else {
		add_next_index_string(restored, kind);
	}
}

/* {{{ ini entries */

static bool ini_value_is(zend_string *value, zval *saved)
{
	if (Z_TYPE_P(saved) != IS_STRING) {
		return value == NULL;
	}
	return value && zend_string_equals(value, Z_STR_P(saved));
}

static void ini_capture(HashTable *snapshot)
{
	zend_ini_entry *entry;

	if (!EG(modified_ini_directives)) {
		return;
	}
	ZEND_HASH_FOREACH_PTR(EG(modified_ini_directives), entry) {
		zval value;

		if (entry->value) {
			ZVAL_STR(&value, zend_string_init(ZSTR_VAL(entry->value), ZSTR_LEN(entry->value), 0));
		} else {
			ZVAL_NULL(&value);
		}
		zend_hash_update(snapshot, entry->name, &value);
	} ZEND_HASH_FOREACH_END();
}

static bool ini_kept(HashTable *keep, zend_string *name)
{
	zend_string *kept;

	ZEND_HASH_FOREACH_STR_KEY(keep, kept) {
		if (ZSTR_VAL(kept)[ZSTR_LEN(kept) - 1] == '.'
			? zend_string_starts_with(name, kept)
			: zend_string_equals(name, kept)) {
			return true;
		}
	} ZEND_HASH_FOREACH_END();
	return false;
}

/* Entries boot had set: back to boot's value, which the snapshot holds. */
static void ini_restore_captured(HashTable *snapshot, HashTable *keep, zval *restored)
{
	zend_string *name;
	zval *saved;

	ZEND_HASH_FOREACH_STR_KEY_VAL(snapshot, name, saved) {
		zend_ini_entry *entry = zend_hash_find_ptr(EG(ini_directives), name);
		zend_result result;

		if (!entry || ini_value_is(entry->value, saved) || ini_kept(keep, name)) {
			continue;
		}
		if (Z_TYPE_P(saved) == IS_STRING) {
			result = zend_alter_ini_entry_ex(name, Z_STR_P(saved), ZEND_INI_USER, ZEND_INI_STAGE_RUNTIME, 0);
		} else {
			result = zend_restore_ini_entry(name, ZEND_INI_STAGE_RUNTIME);
		}
		if (EG(exception)) {
			zend_clear_exception();
		}
		if (result == SUCCESS && ini_value_is(entry->value, saved)) {
			report(restored, "ini", name);
		}
	} ZEND_HASH_FOREACH_END();
}

/*
 * Entries first set since the capture: back to their startup value, as
 * ini_restore() does. Collected first, as restoring one removes it from the
 * table being walked; the list is made only when there is one, as a
 * request that set nothing new is the common case.
 */
static void ini_restore_new(HashTable *snapshot, HashTable *keep, zval *restored)
{
	zend_ini_entry *entry, **fresh = NULL;
	uint32_t count = 0, i;

	if (!EG(modified_ini_directives)) {
		return;
	}
	ZEND_HASH_FOREACH_PTR(EG(modified_ini_directives), entry) {
		if (!zend_hash_exists(snapshot, entry->name) && !ini_kept(keep, entry->name)) {
			if (fresh == NULL) {
				fresh = safe_emalloc(zend_hash_num_elements(EG(modified_ini_directives)), sizeof(*fresh), 0);
			}
			fresh[count++] = entry;
		}
	} ZEND_HASH_FOREACH_END();
	if (fresh == NULL) {
		return;
	}

	for (i = 0; i < count; i++) {
		bool differed;

		entry = fresh[i];
		differed = entry->value != entry->orig_value
			&& !(entry->value && entry->orig_value && zend_string_equals(entry->value, entry->orig_value));
		zend_restore_ini_entry(entry->name, ZEND_INI_STAGE_RUNTIME);
		if (EG(exception)) {
			zend_clear_exception();
		}
		if (differed && !entry->modified) {
			report(restored, "ini", entry->name);
		}
	}
	efree(fresh);
}

/* }}} */

/* {{{ error and exception handlers */

static void handlers_capture(handlers_t *saved, zval *current, zend_stack *stack,
	int current_mask, zend_stack *masks)
{
	zval *base = zend_stack_base(stack);
	uint32_t i;

	ZVAL_COPY(&saved->current, current);
	saved->current_mask = current_mask;
	saved->depth = (uint32_t) zend_stack_count(stack);
	saved->stack = saved->depth ? safe_emalloc(saved->depth, sizeof(zval), 0) : NULL;
	saved->masks = NULL;
	for (i = 0; i < saved->depth; i++) {
		ZVAL_COPY(&saved->stack[i], &base[i]);
	}
	if (masks && saved->depth) {
		saved->masks = safe_emalloc(saved->depth, sizeof(int), 0);
		memcpy(saved->masks, zend_stack_base(masks), saved->depth * sizeof(int));
	}
}

static void handlers_free(handlers_t *saved)
{
	uint32_t i;

	zval_ptr_dtor(&saved->current);
	for (i = 0; i < saved->depth; i++) {
		zval_ptr_dtor(&saved->stack[i]);
	}
	if (saved->stack) {
		efree(saved->stack);
	}
	if (saved->masks) {
		efree(saved->masks);
	}
}

/* zend_is_identical() holds no two UNDEFs the same, and a slot without a handler is UNDEF. */
static bool same_handler(zval *a, zval *b)
{
	if (Z_TYPE_P(a) == IS_UNDEF || Z_TYPE_P(b) == IS_UNDEF) {
		return Z_TYPE_P(a) == Z_TYPE_P(b);
	}
	return zend_is_identical(a, b);
}

static bool handlers_unchanged(handlers_t *saved, zval *current, zend_stack *stack,
	int current_mask, zend_stack *masks)
{
	zval *base;
	uint32_t i;

	if ((uint32_t) zend_stack_count(stack) != saved->depth
		|| !same_handler(current, &saved->current)
		|| (masks && current_mask != saved->current_mask)) {
		return false;
	}
	base = zend_stack_base(stack);
	for (i = 0; i < saved->depth; i++) {
		if (!same_handler(&base[i], &saved->stack[i])) {
			return false;
		}
	}
	return !masks || saved->depth == 0
		|| memcmp(zend_stack_base(masks), saved->masks, saved->depth * sizeof(int)) == 0;
}

static void stack_zval_dtor(void *element)
{
	zval_ptr_dtor((zval *) element);
}

/*
 * The saved handlers go in before the request's are released: releasing one
 * may run a destructor, which must find the handlers already in place.
 */
static void handlers_put_back(handlers_t *saved, zval *current, zend_stack *stack,
	int *current_mask, zend_stack *masks)
{
	zend_stack old_stack = *stack;
	zval old_current;
	uint32_t i;

	ZVAL_COPY_VALUE(&old_current, current);
	ZVAL_COPY(current, &saved->current);
	zend_stack_init(stack, sizeof(zval));
	for (i = 0; i < saved->depth; i++) {
		zval handler;

		ZVAL_COPY(&handler, &saved->stack[i]);
		zend_stack_push(stack, &handler);
	}
	if (masks) {
		zend_stack_destroy(masks);
		zend_stack_init(masks, sizeof(int));
		for (i = 0; i < saved->depth; i++) {
			zend_stack_push(masks, &saved->masks[i]);
		}
		*current_mask = saved->current_mask;
	}
	zend_stack_clean(&old_stack, stack_zval_dtor, true);
	zval_ptr_dtor(&old_current);
}

static void handlers_restore(process_state_object *state, zval *restored)
{
	if (!handlers_unchanged(&state->error_handlers, &EG(user_error_handler), &EG(user_error_handlers),
			EG(user_error_handler_error_reporting), &EG(user_error_handlers_error_reporting))) {
		handlers_put_back(&state->error_handlers, &EG(user_error_handler), &EG(user_error_handlers),
			&EG(user_error_handler_error_reporting), &EG(user_error_handlers_error_reporting));
		report(restored, "error_handler", NULL);
	}
	if (!handlers_unchanged(&state->exception_handlers, &EG(user_exception_handler),
			&EG(user_exception_handlers), 0, NULL)) {
		handlers_put_back(&state->exception_handlers, &EG(user_exception_handler),
			&EG(user_exception_handlers), NULL, NULL);
		report(restored, "exception_handler", NULL);
	}
}

/* }}} */

/* {{{ environment variables */

static void env_capture(HashTable *snapshot)
{
	char **var;

	for (var = environ; var && *var; var++) {
		const char *eq = strchr(*var, '=');
		zval value;

		if (!eq || eq == *var) {
			continue;
		}
		ZVAL_STRING(&value, eq + 1);
		zend_hash_str_update(snapshot, *var, eq - *var, &value);
	}
}

/* Records in *changes (made on first use) that `name` is to be set to `value`, or unset (NULL). */
static void env_change(HashTable **changes, const char *name, size_t len, zval *value)
{
	zval entry;

	if (!*changes) {
		ALLOC_HASHTABLE(*changes);
		zend_hash_init(*changes, 8, NULL, ZVAL_PTR_DTOR, 0);
	}
	if (value) {
		ZVAL_COPY(&entry, value);
	} else {
		ZVAL_NULL(&entry);
	}
	zend_hash_str_update(*changes, name, len, &entry);
}

/* What differs from the snapshot, found before anything is changed (putenv() moves environ). */
static HashTable *env_changes(HashTable *snapshot)
{
	HashTable *changes = NULL;
	uint32_t present = 0;
	char **var;

	for (var = environ; var && *var; var++) {
		const char *eq = strchr(*var, '=');
		zval *saved;

		if (!eq || eq == *var) {
			continue;
		}
		saved = zend_hash_str_find(snapshot, *var, eq - *var);
		if (!saved) {
			env_change(&changes, *var, eq - *var, NULL);
			continue;
		}
		present++;
		if (strcmp(Z_STRVAL_P(saved), eq + 1) != 0) {
			env_change(&changes, *var, eq - *var, saved);
		}
	}
	if (present < zend_hash_num_elements(snapshot)) {
		zend_string *name;
		zval *saved;

		ZEND_HASH_FOREACH_STR_KEY_VAL(snapshot, name, saved) {
			if (!getenv(ZSTR_VAL(name))) {
				env_change(&changes, ZSTR_VAL(name), ZSTR_LEN(name), saved);
			}
		} ZEND_HASH_FOREACH_END();
	}
	return changes;
}

static void env_restore(HashTable *snapshot, zval *restored)
{
	HashTable *changes = env_changes(snapshot);
	zend_string *name;
	zval *value;

	if (!changes) {
		return;
	}
	ZEND_HASH_FOREACH_STR_KEY_VAL(changes, name, value) {
		zval arg, result;
		const char *now;

		if (Z_TYPE_P(value) == IS_STRING) {
			ZVAL_STR(&arg, zend_strpprintf(0, "%s=%s", ZSTR_VAL(name), Z_STRVAL_P(value)));
		} else {
			ZVAL_STR_COPY(&arg, name);
		}
		call_quietly("putenv", 1, &arg, &result);
		zval_ptr_dtor(&arg);
		zval_ptr_dtor(&result);
		now = getenv(ZSTR_VAL(name));
		if (Z_TYPE_P(value) == IS_STRING ? now && strcmp(now, Z_STRVAL_P(value)) == 0 : now == NULL) {
			report(restored, "env", name);
		}
	} ZEND_HASH_FOREACH_END();
	zend_hash_destroy(changes);
	FREE_HASHTABLE(changes);
}

/* }}} */

/* {{{ the default stream context */

static void default_context_capture(process_state_object *state)
{
	php_stream_context *context = FG(default_context);

	if (context && Z_TYPE(context->options) == IS_ARRAY) {
		ZVAL_ARR(&state->context_options, zend_array_dup(Z_ARRVAL(context->options)));
	} else {
		array_init(&state->context_options);
	}
	state->context_notifier = context && context->notifier;
}

static void default_context_restore(process_state_object *state, zval *restored)
{
	php_stream_context *context = FG(default_context);
	bool changed = false;

	/* Made during the request, it holds no more than the defaults unless the request set some. */
	if (context == NULL) {
		return;
	}
	if (Z_TYPE(context->options) != IS_ARRAY || !zend_is_identical(&context->options, &state->context_options)) {
		zval_ptr_dtor(&context->options);
		ZVAL_ARR(&context->options, zend_array_dup(Z_ARRVAL(state->context_options)));
		changed = true;
	}
	if (context->notifier && !state->context_notifier) {
		php_stream_notification_free(context->notifier);
		context->notifier = NULL;
		changed = true;
	}
	if (changed) {
		report(restored, "stream_context_default", NULL);
	}
}

/* }}} */

/* {{{ settings behind PHP functions */

static void settings_restore(process_state_object *state, zval *restored)
{
	uint32_t i;

	for (i = 0; i < CALL_SETTING_COUNT; i++) {
		const call_setting_t *setting = &call_settings[i];
		zval *saved = &state->settings[i], now;

		/* A locale that could not be read is no value to set: setlocale() would take "" as the environment's. */
		if (Z_TYPE_P(saved) == IS_UNDEF || (Z_TYPE_P(saved) == IS_FALSE && setting->by_category)) {
			continue;
		}
		setting_read(setting, &now);
		if (Z_TYPE(now) != IS_UNDEF && !zend_is_identical(&now, saved)) {
			zval_ptr_dtor(&now);
			ZVAL_UNDEF(&now);
			/* Read back to know it took: some setters return the previous value. */
			if (setting_write(setting, saved)) {
				setting_read(setting, &now);
				if (zend_is_identical(&now, saved)) {
					report(restored, setting->name, NULL);
				}
			}
		}
		zval_ptr_dtor(&now);
	}
}

/* }}} */

static zend_object *process_state_create(zend_class_entry *ce)
{
	process_state_object *state = zend_object_alloc(sizeof(process_state_object), ce);

	zend_object_std_init(&state->std, ce);
	object_properties_init(&state->std, ce);
	state->std.handlers = &process_state_handlers;
	return &state->std;
}

/* Fills keep_ini from capture()'s argument; false when it threw. */
static bool keep_ini_parse(HashTable *keep, HashTable *names)
{
	zval *name;

	ZEND_HASH_FOREACH_VAL(names, name) {
		ZVAL_DEREF(name);
		if (Z_TYPE_P(name) != IS_STRING) {
			zend_argument_type_error(1, "must contain only strings, %s given", zend_zval_type_name(name));
			return false;
		}
		if (Z_STRLEN_P(name) == 0) {
			zend_argument_value_error(1, "must not contain an empty name");
			return false;
		}
		zend_hash_add_empty_element(keep, Z_STR_P(name));
	} ZEND_HASH_FOREACH_END();
	return true;
}

static void process_state_capture(process_state_object *state)
{
	zend_error_handling handling;
	uint32_t i;

	zend_hash_init(&state->ini, 8, NULL, ZVAL_PTR_DTOR, 0);
	zend_hash_init(&state->keep_ini, 0, NULL, NULL, 0);
	zend_hash_init(&state->env, 64, NULL, ZVAL_PTR_DTOR, 0);
	ini_capture(&state->ini);
	env_capture(&state->env);
	handlers_capture(&state->error_handlers, &EG(user_error_handler), &EG(user_error_handlers),
		EG(user_error_handler_error_reporting), &EG(user_error_handlers_error_reporting));
	handlers_capture(&state->exception_handlers, &EG(user_exception_handler),
		&EG(user_exception_handlers), 0, NULL);
	default_context_capture(state);
	zend_replace_error_handling(EH_THROW, NULL, &handling);
	for (i = 0; i < CALL_SETTING_COUNT; i++) {
		setting_read(&call_settings[i], &state->settings[i]);
	}
	zend_restore_error_handling(&handling);
	state->captured = true;
}

static void process_state_free(zend_object *obj)
{
	process_state_object *state = process_state_from(obj);
	uint32_t i;

	if (state->captured) {
		zend_hash_destroy(&state->ini);
		zend_hash_destroy(&state->keep_ini);
		zend_hash_destroy(&state->env);
		handlers_free(&state->error_handlers);
		handlers_free(&state->exception_handlers);
		zval_ptr_dtor(&state->context_options);
		for (i = 0; i < CALL_SETTING_COUNT; i++) {
			zval_ptr_dtor(&state->settings[i]);
		}
	}
	zend_object_std_dtor(obj);
}

static void gc_add_handlers(zend_get_gc_buffer *buffer, handlers_t *saved)
{
	uint32_t i;

	zend_get_gc_buffer_add_zval(buffer, &saved->current);
	for (i = 0; i < saved->depth; i++) {
		zend_get_gc_buffer_add_zval(buffer, &saved->stack[i]);
	}
}

/* The saved handlers may close over objects that hold this one. */
static HashTable *process_state_get_gc(zend_object *obj, zval **table, int *n)
{
	process_state_object *state = process_state_from(obj);
	zend_get_gc_buffer *buffer = zend_get_gc_buffer_create();

	if (state->captured) {
		gc_add_handlers(buffer, &state->error_handlers);
		gc_add_handlers(buffer, &state->exception_handlers);
	}
	zend_get_gc_buffer_use(buffer, table, n);
	return zend_std_get_properties(obj);
}

ZEND_METHOD(Rapier_ProcessState, __construct)
{
	ZEND_PARSE_PARAMETERS_NONE();
}

ZEND_METHOD(Rapier_ProcessState, capture)
{
	HashTable *keep_ini = NULL;
	process_state_object *state;

	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_ARRAY_HT(keep_ini)
	ZEND_PARSE_PARAMETERS_END();

	object_init_ex(return_value, rapier_ce_process_state);
	state = process_state_from(Z_OBJ_P(return_value));
	process_state_capture(state);
	if (keep_ini && !keep_ini_parse(&state->keep_ini, keep_ini)) {
		zval_ptr_dtor(return_value);
		ZVAL_UNDEF(return_value);
		RETURN_THROWS();
	}
}

ZEND_METHOD(Rapier_ProcessState, restore)
{
	process_state_object *state = process_state_from(Z_OBJ_P(ZEND_THIS));
	zend_error_handling handling;

	ZEND_PARSE_PARAMETERS_NONE();

	array_init(return_value);
	zend_replace_error_handling(EH_THROW, NULL, &handling);
	ini_restore_captured(&state->ini, &state->keep_ini, return_value);
	ini_restore_new(&state->ini, &state->keep_ini, return_value);
	handlers_restore(state, return_value);
	env_restore(&state->env, return_value);
	default_context_restore(state, return_value);
	settings_restore(state, return_value);
	zend_restore_error_handling(&handling);
	/* Seeded again from the system's randomness on their next use (ext/random's RINIT). */
	RANDOM_G(mt19937_seeded) = false;
	RANDOM_G(combined_lcg_seeded) = false;
}

void rapier_process_state_class_minit(void)
{
	rapier_ce_process_state = register_class_Rapier_ProcessState();
	rapier_ce_process_state->create_object = process_state_create;

	memcpy(&process_state_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	process_state_handlers.offset = XtOffsetOf(process_state_object, std);
	process_state_handlers.free_obj = process_state_free;
	process_state_handlers.get_gc = process_state_get_gc;
	process_state_handlers.clone_obj = NULL;
}
