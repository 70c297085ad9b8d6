/* Rapier's exception classes. */
#include "php_rapier.h"
#include "zend_exceptions.h"
#include "exceptions_arginfo.h"

zend_class_entry *rapier_ce_exception;
zend_class_entry *rapier_ce_canceled_exception;
zend_class_entry *rapier_ce_deadlock_exception;
zend_class_entry *rapier_ce_timeout_exception;

void rapier_exceptions_minit(void)
{
	rapier_ce_exception = register_class_Rapier_Exception(zend_ce_exception);
	rapier_ce_canceled_exception = register_class_Rapier_CanceledException(rapier_ce_exception);
	rapier_ce_deadlock_exception = register_class_Rapier_DeadlockException(rapier_ce_exception);
	rapier_ce_timeout_exception = register_class_Rapier_TimeoutException(rapier_ce_exception);
}
