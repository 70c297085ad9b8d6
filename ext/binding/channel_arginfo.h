/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 39cac22d3c9837a97b876e20ee352dd3e1d8f0b6 */

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Rapier_Channel___construct, 0, 0, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, capacity, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Channel_push, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, value, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, timeout, IS_DOUBLE, 0, "-1")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Channel_pop, 0, 0, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, timeout, IS_DOUBLE, 0, "-1")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Channel_close, 0, 0, IS_VOID, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Channel_length, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Rapier_Channel_capacity arginfo_class_Rapier_Channel_length

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Channel_isClosed, 0, 0, _IS_BOOL, 0)
ZEND_END_ARG_INFO()


ZEND_METHOD(Rapier_Channel, __construct);
ZEND_METHOD(Rapier_Channel, push);
ZEND_METHOD(Rapier_Channel, pop);
ZEND_METHOD(Rapier_Channel, close);
ZEND_METHOD(Rapier_Channel, length);
ZEND_METHOD(Rapier_Channel, capacity);
ZEND_METHOD(Rapier_Channel, isClosed);


static const zend_function_entry class_Rapier_Channel_methods[] = {
	ZEND_ME(Rapier_Channel, __construct, arginfo_class_Rapier_Channel___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Channel, push, arginfo_class_Rapier_Channel_push, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Channel, pop, arginfo_class_Rapier_Channel_pop, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Channel, close, arginfo_class_Rapier_Channel_close, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Channel, length, arginfo_class_Rapier_Channel_length, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Channel, capacity, arginfo_class_Rapier_Channel_capacity, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Channel, isClosed, arginfo_class_Rapier_Channel_isClosed, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};

static zend_class_entry *register_class_Rapier_Channel(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Rapier", "Channel", class_Rapier_Channel_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;

	return class_entry;
}
