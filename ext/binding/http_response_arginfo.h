/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: a9115dad61a141ddb1e1bfa80421d1b14472b640 */

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Rapier_Http_Response___construct, 0, 0, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Response_status, 0, 1, IS_STATIC, 0)
	ZEND_ARG_TYPE_INFO(0, status, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, reason, IS_STRING, 0, "\"\"")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Response_header, 0, 2, IS_STATIC, 0)
	ZEND_ARG_TYPE_INFO(0, name, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, value, IS_STRING, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Rapier_Http_Response_trailer arginfo_class_Rapier_Http_Response_header

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Response_earlyHints, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, headers, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Response_cookie, 0, 1, IS_STATIC, 0)
	ZEND_ARG_TYPE_INFO(0, name, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, value, IS_STRING, 0, "\"\"")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, expires, IS_LONG, 0, "0")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, path, IS_STRING, 0, "\"\"")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, domain, IS_STRING, 0, "\"\"")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, secure, _IS_BOOL, 0, "false")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, httpOnly, _IS_BOOL, 0, "false")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, sameSite, IS_STRING, 0, "\"\"")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Response_write, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, data, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Response_end, 0, 0, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, body, IS_STRING, 0, "\"\"")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Response_json, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, data, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, status, IS_LONG, 0, "200")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, flags, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Response_sendfile, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, path, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, offset, IS_LONG, 0, "0")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, length, IS_LONG, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Response_redirect, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, location, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, status, IS_LONG, 0, "302")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Response_isWritable, 0, 0, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Response_onAbort, 0, 1, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, callback, IS_CALLABLE, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Rapier_Http_Response_headersSent arginfo_class_Rapier_Http_Response_isWritable

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Response_statusCode, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Rapier_Http_Response_upgrade, 0, 0, Rapier\\Http\\WebSocket, 1)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, protocol, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()


ZEND_METHOD(Rapier_Http_Response, __construct);
ZEND_METHOD(Rapier_Http_Response, status);
ZEND_METHOD(Rapier_Http_Response, header);
ZEND_METHOD(Rapier_Http_Response, trailer);
ZEND_METHOD(Rapier_Http_Response, earlyHints);
ZEND_METHOD(Rapier_Http_Response, cookie);
ZEND_METHOD(Rapier_Http_Response, write);
ZEND_METHOD(Rapier_Http_Response, end);
ZEND_METHOD(Rapier_Http_Response, json);
ZEND_METHOD(Rapier_Http_Response, sendfile);
ZEND_METHOD(Rapier_Http_Response, redirect);
ZEND_METHOD(Rapier_Http_Response, isWritable);
ZEND_METHOD(Rapier_Http_Response, onAbort);
ZEND_METHOD(Rapier_Http_Response, headersSent);
ZEND_METHOD(Rapier_Http_Response, statusCode);
ZEND_METHOD(Rapier_Http_Response, upgrade);


static const zend_function_entry class_Rapier_Http_Response_methods[] = {
	ZEND_ME(Rapier_Http_Response, __construct, arginfo_class_Rapier_Http_Response___construct, ZEND_ACC_PRIVATE)
	ZEND_ME(Rapier_Http_Response, status, arginfo_class_Rapier_Http_Response_status, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Response, header, arginfo_class_Rapier_Http_Response_header, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Response, trailer, arginfo_class_Rapier_Http_Response_trailer, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Response, earlyHints, arginfo_class_Rapier_Http_Response_earlyHints, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Response, cookie, arginfo_class_Rapier_Http_Response_cookie, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Response, write, arginfo_class_Rapier_Http_Response_write, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Response, end, arginfo_class_Rapier_Http_Response_end, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Response, json, arginfo_class_Rapier_Http_Response_json, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Response, sendfile, arginfo_class_Rapier_Http_Response_sendfile, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Response, redirect, arginfo_class_Rapier_Http_Response_redirect, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Response, isWritable, arginfo_class_Rapier_Http_Response_isWritable, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Response, onAbort, arginfo_class_Rapier_Http_Response_onAbort, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Response, headersSent, arginfo_class_Rapier_Http_Response_headersSent, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Response, statusCode, arginfo_class_Rapier_Http_Response_statusCode, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Response, upgrade, arginfo_class_Rapier_Http_Response_upgrade, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};

static zend_class_entry *register_class_Rapier_Http_Response(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Rapier\\Http", "Response", class_Rapier_Http_Response_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL;

	return class_entry;
}
