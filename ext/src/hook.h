/*
 * Runtime hooks: which blocking PHP facilities yield to the loop inside
 * coroutines (Rapier\Runtime, the rapier.hooks ini setting).
 *
 * Transports are swapped only while a scheduler runs (Rapier\run() or the
 * server), so outside one PHP's own stream code runs untouched. The sleep
 * family is replaced once at startup and defers to PHP's own handler
 * whenever the caller cannot yield.
 */
#ifndef RAPIER_HOOK_H
#define RAPIER_HOOK_H

#include "php.h"

void rapier_hook_minit(void);
void rapier_hook_mshutdown(void);
void rapier_hook_rinit(void);
ZEND_INI_MH(rapier_hook_ini_update);

/*
 * Sets the handler of PHP's internal function name to replacement and
 * returns the one it had; NULL (and nothing changed) when there is no such
 * internal function or replacement is NULL. Calling it again with the
 * returned handler puts PHP's back.
 */
zif_handler rapier_hook_replace_handler(const char *name, size_t name_len, zif_handler replacement);

/* The same for a method of an internal class: functions is the class's function_table. */
zif_handler rapier_hook_replace_handler_in(HashTable *functions, const char *name, size_t name_len,
	zif_handler replacement);

/*
 * Replaces argument n (from 1) of the internal call in execute_data with the
 * integer a hook has already parsed from it, before the hook hands the call
 * to PHP's handler: PHP then parses an int, and a float or numeric string
 * does not raise its "Implicit conversion" deprecation a second time.
 */
static inline void rapier_hook_set_long_arg(zend_execute_data *execute_data, uint32_t n, zend_long value)
{
	zval *arg = ZEND_CALL_ARG(execute_data, n);

	zval_ptr_dtor(arg);
	ZVAL_LONG(arg, value);
}

/*
 * The stream behind a resource, or NULL: no resource, a closed one, or one
 * of another kind. Unlike php_stream_from_zval() it throws nothing, so a
 * hook can leave such a call to PHP's handler and PHP's own TypeError.
 */
static inline php_stream *rapier_hook_stream_of_res(zend_resource *res)
{
	return res != NULL ? zend_fetch_resource2(res, NULL, php_file_le_stream(), php_file_le_pstream()) : NULL;
}

/* The same for an argument: NULL too when it is not a resource at all. */
static inline php_stream *rapier_hook_stream_of(zval *arg)
{
	return arg != NULL && Z_TYPE_P(arg) == IS_RESOURCE ? rapier_hook_stream_of_res(Z_RES_P(arg)) : NULL;
}

/* Flags in force (RAPIER_HOOK_*). */
zend_long rapier_hook_flags(void);
bool rapier_hook_enabled(zend_long flag);

/* Runtime::enableHooks()/disableHooks(): applies at once inside a scheduler. */
void rapier_hook_set_flags(zend_long flags);

/* The scheduler starts and stops: install and remove transport hooks. */
void rapier_hook_on_run_start(void);
void rapier_hook_on_run_end(void);

#endif
