/* Telling an exit() apart from a fatal error: see exit.h. */
#include "php.h"
#include "zend_exceptions.h"

#include "exit.h"

static void (*previous_error_cb)(int type, zend_string *file, const uint32_t line, zend_string *message);
static uint32_t fatal_errors;

static void count_fatal_error(int type, zend_string *file, const uint32_t line, zend_string *message)
{
	if ((type & E_ALL) & E_FATAL_ERRORS) {
		fatal_errors++;
	}
	previous_error_cb(type, file, line, message);
}

void rapier_exit_minit(void)
{
	previous_error_cb = zend_error_cb;
	zend_error_cb = count_fatal_error;
}

void rapier_exit_mshutdown(void)
{
	/* Unless someone installed theirs over ours, which then stays theirs to undo. */
	if (zend_error_cb == count_fatal_error) {
		zend_error_cb = previous_error_cb;
	}
}

void rapier_exit_mark(rapier_exit_mark_t *mark)
{
	mark->fatal_errors = fatal_errors;
	mark->exit_status = EG(exit_status);
}

static bool is_plain_exit(const zend_object *ex, const rapier_exit_mark_t *mark)
{
	if (ex == NULL || !zend_is_unwind_exit(ex) || fatal_errors != mark->fatal_errors) {
		return false;
	}
	/*
	 * An error callback installed after ours that does not call the one it
	 * replaced (Xdebug's) hides fatal errors from the count; PHP's record of
	 * the last error still shows one, with the status a fatal error sets.
	 */
	return !(EG(exit_status) == 255 && (PG(last_error_type) & E_FATAL_ERRORS));
}

bool rapier_exit_trapped(const zend_object *ex, const rapier_exit_mark_t *mark, zend_long *status)
{
	if (!is_plain_exit(ex, mark)) {
		return false;
	}
	*status = EG(exit_status);
	EG(exit_status) = mark->exit_status;
	return true;
}
