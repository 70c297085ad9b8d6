/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 6457c18f1e2ce04e07e28a5822667467306e0894 */

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Rapier_ProcessState___construct, 0, 0, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Rapier_ProcessState_capture, 0, 0, Rapier\\ProcessState, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, keepIni, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_ProcessState_restore, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()


ZEND_METHOD(Rapier_ProcessState, __construct);
ZEND_METHOD(Rapier_ProcessState, capture);
ZEND_METHOD(Rapier_ProcessState, restore);


static const zend_function_entry class_Rapier_ProcessState_methods[] = {
	ZEND_ME(Rapier_ProcessState, __construct, arginfo_class_Rapier_ProcessState___construct, ZEND_ACC_PRIVATE)
	ZEND_ME(Rapier_ProcessState, capture, arginfo_class_Rapier_ProcessState_capture, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Rapier_ProcessState, restore, arginfo_class_Rapier_ProcessState_restore, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};

static zend_class_entry *register_class_Rapier_ProcessState(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Rapier", "ProcessState", class_Rapier_ProcessState_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;

	return class_entry;
}
