/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: bfaf03474f09ac38d8ef1f6add6d05ad4c75e954 */

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Rapier_Timer___construct, 0, 0, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Timer_after, 0, 2, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, seconds, IS_DOUBLE, 0)
	ZEND_ARG_TYPE_INFO(0, fn, IS_CALLABLE, 0)
	ZEND_ARG_VARIADIC_TYPE_INFO(0, args, IS_MIXED, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Rapier_Timer_tick arginfo_class_Rapier_Timer_after

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Timer_clear, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, id, IS_LONG, 0)
ZEND_END_ARG_INFO()


ZEND_METHOD(Rapier_Timer, __construct);
ZEND_METHOD(Rapier_Timer, after);
ZEND_METHOD(Rapier_Timer, tick);
ZEND_METHOD(Rapier_Timer, clear);


static const zend_function_entry class_Rapier_Timer_methods[] = {
	ZEND_ME(Rapier_Timer, __construct, arginfo_class_Rapier_Timer___construct, ZEND_ACC_PRIVATE)
	ZEND_ME(Rapier_Timer, after, arginfo_class_Rapier_Timer_after, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Rapier_Timer, tick, arginfo_class_Rapier_Timer_tick, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Rapier_Timer, clear, arginfo_class_Rapier_Timer_clear, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_FE_END
};

static zend_class_entry *register_class_Rapier_Timer(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Rapier", "Timer", class_Rapier_Timer_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL;

	return class_entry;
}
