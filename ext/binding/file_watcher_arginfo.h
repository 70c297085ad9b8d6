/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: d05e5bb7336d662ea3f8e2158bc118200de4c657 */

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Rapier_FileWatcher___construct, 0, 0, 1)
	ZEND_ARG_TYPE_INFO(0, paths, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_FileWatcher_wait, 0, 0, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, timeout, IS_DOUBLE, 0, "-1")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_FileWatcher_count, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_FileWatcher_close, 0, 0, IS_VOID, 0)
ZEND_END_ARG_INFO()


ZEND_METHOD(Rapier_FileWatcher, __construct);
ZEND_METHOD(Rapier_FileWatcher, wait);
ZEND_METHOD(Rapier_FileWatcher, count);
ZEND_METHOD(Rapier_FileWatcher, close);


static const zend_function_entry class_Rapier_FileWatcher_methods[] = {
	ZEND_ME(Rapier_FileWatcher, __construct, arginfo_class_Rapier_FileWatcher___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_FileWatcher, wait, arginfo_class_Rapier_FileWatcher_wait, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_FileWatcher, count, arginfo_class_Rapier_FileWatcher_count, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_FileWatcher, close, arginfo_class_Rapier_FileWatcher_close, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};

static zend_class_entry *register_class_Rapier_FileWatcher(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Rapier", "FileWatcher", class_Rapier_FileWatcher_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;

	return class_entry;
}
