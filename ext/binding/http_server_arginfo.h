/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 646be8e87fbd438b621be2073216bbc0d540338e */

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Rapier_Http_Server___construct, 0, 0, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, host, IS_STRING, 0, "\"127.0.0.1\"")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, port, IS_LONG, 0, "8080")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Server_on, 0, 2, IS_STATIC, 0)
	ZEND_ARG_TYPE_INFO(0, event, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, handler, IS_CALLABLE, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Server_addProcess, 0, 1, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, fn, IS_CALLABLE, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Server_start, 0, 0, IS_VOID, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Server_task, 0, 1, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO(0, data, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, timeout, IS_DOUBLE, 0, "-1")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Server_sendMessage, 0, 2, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, message, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO(0, workerId, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Server_broadcastMessage, 0, 1, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, message, IS_MIXED, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Rapier_Http_Server_shutdown arginfo_class_Rapier_Http_Server_start

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Server_reload, 0, 0, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, onlyTaskWorkers, _IS_BOOL, 0, "false")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Server_stats, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Server_workerId, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Rapier_Http_Server_workerMain arginfo_class_Rapier_Http_Server_start

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Server_runTask, 0, 2, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO(0, payload, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, taskId, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Rapier_Http_Server_runMessage, 0, 2, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, payload, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, fromWorkerId, IS_LONG, 0)
ZEND_END_ARG_INFO()


ZEND_METHOD(Rapier_Http_Server, __construct);
ZEND_METHOD(Rapier_Http_Server, on);
ZEND_METHOD(Rapier_Http_Server, addProcess);
ZEND_METHOD(Rapier_Http_Server, start);
ZEND_METHOD(Rapier_Http_Server, task);
ZEND_METHOD(Rapier_Http_Server, sendMessage);
ZEND_METHOD(Rapier_Http_Server, broadcastMessage);
ZEND_METHOD(Rapier_Http_Server, shutdown);
ZEND_METHOD(Rapier_Http_Server, reload);
ZEND_METHOD(Rapier_Http_Server, stats);
ZEND_METHOD(Rapier_Http_Server, workerId);
ZEND_METHOD(Rapier_Http_Server, workerMain);
ZEND_METHOD(Rapier_Http_Server, runTask);
ZEND_METHOD(Rapier_Http_Server, runMessage);


static const zend_function_entry class_Rapier_Http_Server_methods[] = {
	ZEND_ME(Rapier_Http_Server, __construct, arginfo_class_Rapier_Http_Server___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Server, on, arginfo_class_Rapier_Http_Server_on, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Server, addProcess, arginfo_class_Rapier_Http_Server_addProcess, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Server, start, arginfo_class_Rapier_Http_Server_start, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Server, task, arginfo_class_Rapier_Http_Server_task, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Server, sendMessage, arginfo_class_Rapier_Http_Server_sendMessage, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Server, broadcastMessage, arginfo_class_Rapier_Http_Server_broadcastMessage, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Server, shutdown, arginfo_class_Rapier_Http_Server_shutdown, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Server, reload, arginfo_class_Rapier_Http_Server_reload, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Server, stats, arginfo_class_Rapier_Http_Server_stats, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Server, workerId, arginfo_class_Rapier_Http_Server_workerId, ZEND_ACC_PUBLIC)
	ZEND_ME(Rapier_Http_Server, workerMain, arginfo_class_Rapier_Http_Server_workerMain, ZEND_ACC_PRIVATE)
	ZEND_ME(Rapier_Http_Server, runTask, arginfo_class_Rapier_Http_Server_runTask, ZEND_ACC_PRIVATE)
	ZEND_ME(Rapier_Http_Server, runMessage, arginfo_class_Rapier_Http_Server_runMessage, ZEND_ACC_PRIVATE)
	ZEND_FE_END
};

static zend_class_entry *register_class_Rapier_Http_Server(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Rapier\\Http", "Server", class_Rapier_Http_Server_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL;

	return class_entry;
}
