/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: e7971a5965c68f9596612187d2b3e8d5032d7358 */

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_WaitGroup_add, 0, 0, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, n, IS_LONG, 0, "1")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_WaitGroup_done, 0, 0, IS_VOID, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_WaitGroup_wait, 0, 0, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, timeout, IS_DOUBLE, 0, "-1")
ZEND_END_ARG_INFO()


ZEND_METHOD(Rapier_WaitGroup, add);
ZEND_METHOD(Rapier_WaitGroup, done);
ZEND_METHOD(Rapier_WaitGroup, wait);


static const zend_function_entry class_Rapier_WaitGroup_methods[] = {
	ZEND_ME(Rapier_WaitGroup, add, arginfo_class_Rapier_WaitGroup_add, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_WaitGroup, done, arginfo_class_Rapier_WaitGroup_done, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_WaitGroup, wait, arginfo_class_Rapier_WaitGroup_wait, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};

static zend_class_entry *register_class_Rapier_WaitGroup(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Rapier", "WaitGroup", class_Rapier_WaitGroup_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;

	return class_entry;
}
