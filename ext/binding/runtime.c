/* Rapier\Runtime: switches the runtime hooks (src/hook.c). */
#include "php_rapier.h"

#include "hook.h"
#include "runtime_arginfo.h"

void rapier_runtime_class_minit(void)
{
	register_class_Rapier_Runtime();
}

ZEND_METHOD(Rapier_Runtime, __construct)
{
}

ZEND_METHOD(Rapier_Runtime, enableHooks)
{
	zend_long flags = RAPIER_HOOK_ALL;

	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(flags)
	ZEND_PARSE_PARAMETERS_END();

	if (flags & ~RAPIER_HOOK_ALL) {
		zend_argument_value_error(1, "must be a combination of the Rapier\\HOOK_* constants");
		RETURN_THROWS();
	}
	rapier_hook_set_flags(flags);
}

ZEND_METHOD(Rapier_Runtime, disableHooks)
{
	ZEND_PARSE_PARAMETERS_NONE();
	rapier_hook_set_flags(0);
}

ZEND_METHOD(Rapier_Runtime, getHooks)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_LONG(rapier_hook_flags());
}
