/* Rapier's exception classes. */
#include "php_rapier.h"
#include "zend_exceptions.h"
#include "exceptions_arginfo.h"
#include "http.h"

zend_class_entry *rapier_ce_exception;
zend_class_entry *rapier_ce_canceled_exception;
zend_class_entry *rapier_ce_deadlock_exception;
zend_class_entry *rapier_ce_timeout_exception;
zend_class_entry *rapier_ce_exit_exception;
zend_class_entry *rapier_ce_table_full_exception;

ZEND_METHOD(Rapier_ExitException, getStatus)
{
	zval *code, tmp;

	ZEND_PARSE_PARAMETERS_NONE();

	/* The status is the exception's code, which trap_exit() sets. */
	code = zend_read_property(zend_ce_exception, Z_OBJ_P(ZEND_THIS), ZEND_STRL("code"), true, &tmp);
	RETURN_LONG(zval_get_long(code));
}

void rapier_exceptions_minit(void)
{
	rapier_ce_exception = register_class_Rapier_Exception(zend_ce_exception);
	rapier_ce_canceled_exception = register_class_Rapier_CanceledException(rapier_ce_exception);
	rapier_ce_deadlock_exception = register_class_Rapier_DeadlockException(rapier_ce_exception);
	rapier_ce_timeout_exception = register_class_Rapier_TimeoutException(rapier_ce_exception);
	rapier_ce_exit_exception = register_class_Rapier_ExitException(rapier_ce_exception);
	rapier_ce_table_full_exception = register_class_Rapier_TableFullException(rapier_ce_exception);
	rapier_ce_http_body_exception = register_class_Rapier_Http_BodyException(rapier_ce_exception);
}
