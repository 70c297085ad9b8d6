/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: f2c40cf6f74a2da011f923ed9ce51975ddfc4ba8 */

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_ExitException_getStatus, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()


ZEND_METHOD(Rapier_ExitException, getStatus);


static const zend_function_entry class_Rapier_Exception_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Rapier_CanceledException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Rapier_DeadlockException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Rapier_ExitException_methods[] = {
	ZEND_ME(Rapier_ExitException, getStatus, arginfo_class_Rapier_ExitException_getStatus, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};


static const zend_function_entry class_Rapier_TableFullException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Rapier_TimeoutException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_Rapier_Http_BodyException_methods[] = {
	ZEND_FE_END
};

static zend_class_entry *register_class_Rapier_Exception(zend_class_entry *class_entry_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Rapier", "Exception", class_Rapier_Exception_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Exception);

	return class_entry;
}

static zend_class_entry *register_class_Rapier_CanceledException(zend_class_entry *class_entry_Rapier_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Rapier", "CanceledException", class_Rapier_CanceledException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Rapier_Exception);
	class_entry->ce_flags |= ZEND_ACC_FINAL;

	return class_entry;
}

static zend_class_entry *register_class_Rapier_DeadlockException(zend_class_entry *class_entry_Rapier_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Rapier", "DeadlockException", class_Rapier_DeadlockException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Rapier_Exception);
	class_entry->ce_flags |= ZEND_ACC_FINAL;

	return class_entry;
}

static zend_class_entry *register_class_Rapier_ExitException(zend_class_entry *class_entry_Rapier_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Rapier", "ExitException", class_Rapier_ExitException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Rapier_Exception);
	class_entry->ce_flags |= ZEND_ACC_FINAL;

	return class_entry;
}

static zend_class_entry *register_class_Rapier_TableFullException(zend_class_entry *class_entry_Rapier_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Rapier", "TableFullException", class_Rapier_TableFullException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Rapier_Exception);
	class_entry->ce_flags |= ZEND_ACC_FINAL;

	return class_entry;
}

static zend_class_entry *register_class_Rapier_TimeoutException(zend_class_entry *class_entry_Rapier_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Rapier", "TimeoutException", class_Rapier_TimeoutException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Rapier_Exception);

	return class_entry;
}

static zend_class_entry *register_class_Rapier_Http_BodyException(zend_class_entry *class_entry_Rapier_Exception)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Rapier\\Http", "BodyException", class_Rapier_Http_BodyException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_Rapier_Exception);
	class_entry->ce_flags |= ZEND_ACC_FINAL;

	return class_entry;
}
