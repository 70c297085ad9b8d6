/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 75c2957abe055cce694b75067977be2cfe3fcc8a */

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Rapier_Table___construct, 0, 0, 2)
	ZEND_ARG_TYPE_INFO(0, size, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, columns, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Table_set, 0, 2, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, row, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_class_Rapier_Table_get, 0, 1, MAY_BE_ARRAY|MAY_BE_LONG|MAY_BE_DOUBLE|MAY_BE_STRING|MAY_BE_NULL)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, column, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Table_add, 0, 2, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, row, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Table_replace, 0, 2, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, row, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, expected, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Table_exists, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Table_delete, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, expected, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_class_Rapier_Table_incr, 0, 2, MAY_BE_LONG|MAY_BE_DOUBLE)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, column, IS_STRING, 0)
	ZEND_ARG_TYPE_MASK(0, by, MAY_BE_LONG|MAY_BE_DOUBLE, "1")
ZEND_END_ARG_INFO()

#define arginfo_class_Rapier_Table_decr arginfo_class_Rapier_Table_incr

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Table_count, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Rapier_Table_size arginfo_class_Rapier_Table_count

#define arginfo_class_Rapier_Table_memorySize arginfo_class_Rapier_Table_count

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Table_columns, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Rapier_Table_getIterator, 0, 0, Iterator, 0)
ZEND_END_ARG_INFO()


ZEND_METHOD(Rapier_Table, __construct);
ZEND_METHOD(Rapier_Table, set);
ZEND_METHOD(Rapier_Table, get);
ZEND_METHOD(Rapier_Table, add);
ZEND_METHOD(Rapier_Table, replace);
ZEND_METHOD(Rapier_Table, exists);
ZEND_METHOD(Rapier_Table, delete);
ZEND_METHOD(Rapier_Table, incr);
ZEND_METHOD(Rapier_Table, decr);
ZEND_METHOD(Rapier_Table, count);
ZEND_METHOD(Rapier_Table, size);
ZEND_METHOD(Rapier_Table, memorySize);
ZEND_METHOD(Rapier_Table, columns);
ZEND_METHOD(Rapier_Table, getIterator);


static const zend_function_entry class_Rapier_Table_methods[] = {
	ZEND_ME(Rapier_Table, __construct, arginfo_class_Rapier_Table___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Table, set, arginfo_class_Rapier_Table_set, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Table, get, arginfo_class_Rapier_Table_get, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Table, add, arginfo_class_Rapier_Table_add, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Table, replace, arginfo_class_Rapier_Table_replace, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Table, exists, arginfo_class_Rapier_Table_exists, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Table, delete, arginfo_class_Rapier_Table_delete, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Table, incr, arginfo_class_Rapier_Table_incr, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Table, decr, arginfo_class_Rapier_Table_decr, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Table, count, arginfo_class_Rapier_Table_count, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Table, size, arginfo_class_Rapier_Table_size, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Table, memorySize, arginfo_class_Rapier_Table_memorySize, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Table, columns, arginfo_class_Rapier_Table_columns, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Table, getIterator, arginfo_class_Rapier_Table_getIterator, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};

static zend_class_entry *register_class_Rapier_Table(zend_class_entry *class_entry_IteratorAggregate, zend_class_entry *class_entry_Countable)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Rapier", "Table", class_Rapier_Table_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;
	zend_class_implements(class_entry, 2, class_entry_IteratorAggregate, class_entry_Countable);

	zval const_KEY_MAX_value;
	ZVAL_LONG(&const_KEY_MAX_value, 64);
	zend_string *const_KEY_MAX_name = zend_string_init_interned("KEY_MAX", sizeof("KEY_MAX") - 1, 1);
	zend_declare_class_constant_ex(class_entry, const_KEY_MAX_name, &const_KEY_MAX_value, ZEND_ACC_PUBLIC, NULL);
	zend_string_release(const_KEY_MAX_name);

	return class_entry;
}
