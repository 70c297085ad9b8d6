/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: b352108d35be18c8ce7629220f360ad01154194b */

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Rapier_Coroutine___construct, 0, 0, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Coroutine_id, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Coroutine_sleep, 0, 1, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, seconds, IS_DOUBLE, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_class_Rapier_Coroutine_waitSignal, 0, 1, MAY_BE_LONG|MAY_BE_FALSE)
	ZEND_ARG_TYPE_MASK(0, signals, MAY_BE_LONG|MAY_BE_ARRAY, NULL)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, timeout, IS_DOUBLE, 0, "-1")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Coroutine_defer, 0, 1, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, fn, IS_CALLABLE, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Rapier_Coroutine_count arginfo_class_Rapier_Coroutine_id

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Coroutine_list, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Coroutine_exists, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, id, IS_LONG, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Rapier_Coroutine_cancel arginfo_class_Rapier_Coroutine_exists

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Rapier_Coroutine_context, 0, 0, ArrayObject, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, id, IS_LONG, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Coroutine_backtrace, 0, 0, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, id, IS_LONG, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_LONG, 0, "DEBUG_BACKTRACE_PROVIDE_OBJECT")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, limit, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Coroutine_setExceptionHandler, 0, 1, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, handler, IS_CALLABLE, 1)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Coroutine_fiberMain, 0, 0, IS_VOID, 0)
ZEND_END_ARG_INFO()


ZEND_METHOD(Rapier_Coroutine, __construct);
ZEND_METHOD(Rapier_Coroutine, id);
ZEND_METHOD(Rapier_Coroutine, sleep);
ZEND_METHOD(Rapier_Coroutine, waitSignal);
ZEND_METHOD(Rapier_Coroutine, defer);
ZEND_METHOD(Rapier_Coroutine, count);
ZEND_METHOD(Rapier_Coroutine, list);
ZEND_METHOD(Rapier_Coroutine, exists);
ZEND_METHOD(Rapier_Coroutine, cancel);
ZEND_METHOD(Rapier_Coroutine, context);
ZEND_METHOD(Rapier_Coroutine, backtrace);
ZEND_METHOD(Rapier_Coroutine, setExceptionHandler);
ZEND_METHOD(Rapier_Coroutine, fiberMain);


static const zend_function_entry class_Rapier_Coroutine_methods[] = {
	ZEND_ME(Rapier_Coroutine, __construct, arginfo_class_Rapier_Coroutine___construct, ZEND_ACC_PRIVATE)
	ZEND_ME(Rapier_Coroutine, id, arginfo_class_Rapier_Coroutine_id, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Rapier_Coroutine, sleep, arginfo_class_Rapier_Coroutine_sleep, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Rapier_Coroutine, waitSignal, arginfo_class_Rapier_Coroutine_waitSignal, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Rapier_Coroutine, defer, arginfo_class_Rapier_Coroutine_defer, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Rapier_Coroutine, count, arginfo_class_Rapier_Coroutine_count, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Rapier_Coroutine, list, arginfo_class_Rapier_Coroutine_list, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Rapier_Coroutine, exists, arginfo_class_Rapier_Coroutine_exists, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Rapier_Coroutine, cancel, arginfo_class_Rapier_Coroutine_cancel, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Rapier_Coroutine, context, arginfo_class_Rapier_Coroutine_context, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Rapier_Coroutine, backtrace, arginfo_class_Rapier_Coroutine_backtrace, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Rapier_Coroutine, setExceptionHandler, arginfo_class_Rapier_Coroutine_setExceptionHandler, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Rapier_Coroutine, fiberMain, arginfo_class_Rapier_Coroutine_fiberMain, ZEND_ACC_PRIVATE|ZEND_ACC_STATIC)
	ZEND_FE_END
};

static zend_class_entry *register_class_Rapier_Coroutine(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Rapier", "Coroutine", class_Rapier_Coroutine_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL;

	return class_entry;
}
