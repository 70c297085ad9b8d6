/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 7dc8a93d8ade02321d0b9e2237a76953b3d00d69 */

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Rapier_Http_WebSocket___construct, 0, 0, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Rapier_Http_WebSocket_recv, 0, 0, Rapier\\Http\\WebSocketMessage, 1)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, timeout, IS_DOUBLE, 0, "-1")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_WebSocket_send, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, data, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, binary, _IS_BOOL, 0, "false")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_WebSocket_ping, 0, 0, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, data, IS_STRING, 0, "\"\"")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_WebSocket_close, 0, 0, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, code, IS_LONG, 0, "1000")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, reason, IS_STRING, 0, "\"\"")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_WebSocket_isOpen, 0, 0, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_WebSocket_closeCode, 0, 0, IS_LONG, 1)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_WebSocket_closeReason, 0, 0, IS_STRING, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Rapier_Http_WebSocketMessage___construct arginfo_class_Rapier_Http_WebSocket___construct


ZEND_METHOD(Rapier_Http_WebSocket, __construct);
ZEND_METHOD(Rapier_Http_WebSocket, recv);
ZEND_METHOD(Rapier_Http_WebSocket, send);
ZEND_METHOD(Rapier_Http_WebSocket, ping);
ZEND_METHOD(Rapier_Http_WebSocket, close);
ZEND_METHOD(Rapier_Http_WebSocket, isOpen);
ZEND_METHOD(Rapier_Http_WebSocket, closeCode);
ZEND_METHOD(Rapier_Http_WebSocket, closeReason);
ZEND_METHOD(Rapier_Http_WebSocketMessage, __construct);


static const zend_function_entry class_Rapier_Http_WebSocket_methods[] = {
	ZEND_ME(Rapier_Http_WebSocket, __construct, arginfo_class_Rapier_Http_WebSocket___construct, ZEND_ACC_PRIVATE)
	ZEND_ME(Rapier_Http_WebSocket, recv, arginfo_class_Rapier_Http_WebSocket_recv, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_WebSocket, send, arginfo_class_Rapier_Http_WebSocket_send, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_WebSocket, ping, arginfo_class_Rapier_Http_WebSocket_ping, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_WebSocket, close, arginfo_class_Rapier_Http_WebSocket_close, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_WebSocket, isOpen, arginfo_class_Rapier_Http_WebSocket_isOpen, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_WebSocket, closeCode, arginfo_class_Rapier_Http_WebSocket_closeCode, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_WebSocket, closeReason, arginfo_class_Rapier_Http_WebSocket_closeReason, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};


static const zend_function_entry class_Rapier_Http_WebSocketMessage_methods[] = {
	ZEND_ME(Rapier_Http_WebSocketMessage, __construct, arginfo_class_Rapier_Http_WebSocketMessage___construct, ZEND_ACC_PRIVATE)
	ZEND_FE_END
};

static zend_class_entry *register_class_Rapier_Http_WebSocket(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Rapier\\Http", "WebSocket", class_Rapier_Http_WebSocket_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;

	return class_entry;
}

static zend_class_entry *register_class_Rapier_Http_WebSocketMessage(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Rapier\\Http", "WebSocketMessage", class_Rapier_Http_WebSocketMessage_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;

	zval property_data_default_value;
	ZVAL_UNDEF(&property_data_default_value);
	zend_string *property_data_name = zend_string_init("data", sizeof("data") - 1, 1);
	zend_declare_typed_property(class_entry, property_data_name, &property_data_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_STRING));
	zend_string_release(property_data_name);

	zval property_binary_default_value;
	ZVAL_UNDEF(&property_binary_default_value);
	zend_string *property_binary_name = zend_string_init("binary", sizeof("binary") - 1, 1);
	zend_declare_typed_property(class_entry, property_binary_name, &property_binary_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_BOOL));
	zend_string_release(property_binary_name);

	return class_entry;
}
