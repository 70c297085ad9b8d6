/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: d99c25ec6100b57b2bb904695bbb3c69c79189f6 */

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Rapier_Http_Request___construct, 0, 0, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Request_header, 0, 1, IS_STRING, 1)
	ZEND_ARG_TYPE_INFO(0, name, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Request_body, 0, 0, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Request_bodySize, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Request_bodyFile, 0, 0, IS_STRING, 1)
ZEND_END_ARG_INFO()

#define arginfo_class_Rapier_Http_Request_bodyStream arginfo_class_Rapier_Http_Request___construct

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Request_saveBody, 0, 1, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, path, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Request_bufferBody, 0, 0, IS_VOID, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Request_setMaxBodySize, 0, 1, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, bytes, IS_LONG, 1)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Request_setBodyTimeout, 0, 1, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, seconds, IS_DOUBLE, 1)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Request_server, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()


ZEND_METHOD(Rapier_Http_Request, __construct);
ZEND_METHOD(Rapier_Http_Request, header);
ZEND_METHOD(Rapier_Http_Request, body);
ZEND_METHOD(Rapier_Http_Request, bodySize);
ZEND_METHOD(Rapier_Http_Request, bodyFile);
ZEND_METHOD(Rapier_Http_Request, bodyStream);
ZEND_METHOD(Rapier_Http_Request, saveBody);
ZEND_METHOD(Rapier_Http_Request, bufferBody);
ZEND_METHOD(Rapier_Http_Request, setMaxBodySize);
ZEND_METHOD(Rapier_Http_Request, setBodyTimeout);
ZEND_METHOD(Rapier_Http_Request, server);


static const zend_function_entry class_Rapier_Http_Request_methods[] = {
	ZEND_ME(Rapier_Http_Request, __construct, arginfo_class_Rapier_Http_Request___construct, ZEND_ACC_PRIVATE)
	ZEND_ME(Rapier_Http_Request, header, arginfo_class_Rapier_Http_Request_header, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Request, body, arginfo_class_Rapier_Http_Request_body, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Request, bodySize, arginfo_class_Rapier_Http_Request_bodySize, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Request, bodyFile, arginfo_class_Rapier_Http_Request_bodyFile, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Request, bodyStream, arginfo_class_Rapier_Http_Request_bodyStream, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Request, saveBody, arginfo_class_Rapier_Http_Request_saveBody, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Request, bufferBody, arginfo_class_Rapier_Http_Request_bufferBody, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Request, setMaxBodySize, arginfo_class_Rapier_Http_Request_setMaxBodySize, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Request, setBodyTimeout, arginfo_class_Rapier_Http_Request_setBodyTimeout, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Request, server, arginfo_class_Rapier_Http_Request_server, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};

static zend_class_entry *register_class_Rapier_Http_Request(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Rapier\\Http", "Request", class_Rapier_Http_Request_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL;

	zval property_method_default_value;
	ZVAL_UNDEF(&property_method_default_value);
	zend_string *property_method_name = zend_string_init("method", sizeof("method") - 1, 1);
	zend_declare_typed_property(class_entry, property_method_name, &property_method_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_STRING));
	zend_string_release(property_method_name);

	zval property_uri_default_value;
	ZVAL_UNDEF(&property_uri_default_value);
	zend_string *property_uri_name = zend_string_init("uri", sizeof("uri") - 1, 1);
	zend_declare_typed_property(class_entry, property_uri_name, &property_uri_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_STRING));
	zend_string_release(property_uri_name);

	zval property_path_default_value;
	ZVAL_UNDEF(&property_path_default_value);
	zend_string *property_path_name = zend_string_init("path", sizeof("path") - 1, 1);
	zend_declare_typed_property(class_entry, property_path_name, &property_path_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_STRING));
	zend_string_release(property_path_name);

	zval property_query_default_value;
	ZVAL_UNDEF(&property_query_default_value);
	zend_string *property_query_name = zend_string_init("query", sizeof("query") - 1, 1);
	zend_declare_typed_property(class_entry, property_query_name, &property_query_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_ARRAY));
	zend_string_release(property_query_name);

	zval property_headers_default_value;
	ZVAL_UNDEF(&property_headers_default_value);
	zend_string *property_headers_name = zend_string_init("headers", sizeof("headers") - 1, 1);
	zend_declare_typed_property(class_entry, property_headers_name, &property_headers_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_ARRAY));
	zend_string_release(property_headers_name);

	zval property_cookies_default_value;
	ZVAL_UNDEF(&property_cookies_default_value);
	zend_string *property_cookies_name = zend_string_init("cookies", sizeof("cookies") - 1, 1);
	zend_declare_typed_property(class_entry, property_cookies_name, &property_cookies_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_ARRAY));
	zend_string_release(property_cookies_name);

	zval property_post_default_value;
	ZVAL_UNDEF(&property_post_default_value);
	zend_string *property_post_name = zend_string_init("post", sizeof("post") - 1, 1);
	zend_declare_typed_property(class_entry, property_post_name, &property_post_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_ARRAY));
	zend_string_release(property_post_name);

	zval property_files_default_value;
	ZVAL_UNDEF(&property_files_default_value);
	zend_string *property_files_name = zend_string_init("files", sizeof("files") - 1, 1);
	zend_declare_typed_property(class_entry, property_files_name, &property_files_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_ARRAY));
	zend_string_release(property_files_name);

	zval property_remoteAddress_default_value;
	ZVAL_UNDEF(&property_remoteAddress_default_value);
	zend_string *property_remoteAddress_name = zend_string_init("remoteAddress", sizeof("remoteAddress") - 1, 1);
	zend_declare_typed_property(class_entry, property_remoteAddress_name, &property_remoteAddress_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_STRING));
	zend_string_release(property_remoteAddress_name);

	zval property_remotePort_default_value;
	ZVAL_UNDEF(&property_remotePort_default_value);
	zend_string *property_remotePort_name = zend_string_init("remotePort", sizeof("remotePort") - 1, 1);
	zend_declare_typed_property(class_entry, property_remotePort_name, &property_remotePort_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_LONG));
	zend_string_release(property_remotePort_name);

	return class_entry;
}
