/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 4b5ccfb948f6663cad64b1e1d5461a005b63abb5 */

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Rapier_Runtime___construct, 0, 0, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Runtime_enableHooks, 0, 0, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, flags, IS_LONG, 0, "Rapier\\HOOK_ALL")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Runtime_disableHooks, 0, 0, IS_VOID, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Runtime_getHooks, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()


ZEND_METHOD(Rapier_Runtime, __construct);
ZEND_METHOD(Rapier_Runtime, enableHooks);
ZEND_METHOD(Rapier_Runtime, disableHooks);
ZEND_METHOD(Rapier_Runtime, getHooks);


static const zend_function_entry class_Rapier_Runtime_methods[] = {
	ZEND_ME(Rapier_Runtime, __construct, arginfo_class_Rapier_Runtime___construct, ZEND_ACC_PRIVATE)
	ZEND_ME(Rapier_Runtime, enableHooks, arginfo_class_Rapier_Runtime_enableHooks, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Rapier_Runtime, disableHooks, arginfo_class_Rapier_Runtime_disableHooks, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Rapier_Runtime, getHooks, arginfo_class_Rapier_Runtime_getHooks, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_FE_END
};

static zend_class_entry *register_class_Rapier_Runtime(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Rapier", "Runtime", class_Rapier_Runtime_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL;

	return class_entry;
}
