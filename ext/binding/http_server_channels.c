/*
 * Rapier\Http\Server's methods over the channels between its processes:
 * task(), sendMessage() and broadcastMessage(), and the private runTask()
 * and runMessage() the task and message coroutines run (the channels
 * themselves: http_task.c, http_message.c).
 */
#include "php_rapier.h"
#include "zend_exceptions.h"

#include <unistd.h>

#include "coroutine.h"
#include "http_server_object.h"

ZEND_METHOD(Rapier_Http_Server, task)
{
	server_t *srv = server_from(Z_OBJ_P(ZEND_THIS));
	zval *data;
	double timeout = -1;
	int64_t timeout_ns;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_ZVAL(data)
		Z_PARAM_OPTIONAL
		Z_PARAM_DOUBLE(timeout)
	ZEND_PARSE_PARAMETERS_END();

	if ((timeout_ns = rapier_timeout_arg_ns(timeout, 2)) == -2) {
		RETURN_THROWS();
	}
	if (srv->task_workers == 0) {
		zend_throw_exception(rapier_ce_exception,
			"Cannot run a task: the server has no task workers (set the \"task_workers\" option)", 0);
		RETURN_THROWS();
	}
	if (!srv->tasks.client || !rapier_coro_can_yield()) {
		zend_throw_exception(rapier_ce_exception,
			"Cannot run a task here: call task() from a request handler or another coroutine of a request worker", 0);
		RETURN_THROWS();
	}
	rapier_tasks_call(&srv->tasks, data, timeout_ns, return_value);
}

/*
 * Body of a task's or a message's coroutine (runTask(), runMessage()): the
 * event's handler on the unserialized payload and arg.
 */
static void run_handler(INTERNAL_FUNCTION_PARAMETERS, int event, const char *what)
{
	server_t *srv = server_from(Z_OBJ_P(ZEND_THIS));
	zend_string *payload;
	zend_long arg;

	ZEND_PARSE_PARAMETERS_START(2, 2)
		Z_PARAM_STR(payload)
		Z_PARAM_LONG(arg)
	ZEND_PARSE_PARAMETERS_END();

	if (Z_TYPE(srv->handlers[event]) == IS_UNDEF || !srv->http_ready || rapier_coro_current() == NULL) {
		zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot call %s(): the server calls it for each %s",
			get_active_function_name(), event == EV_TASK ? "task" : "message");
		RETURN_THROWS();
	}
	rapier_task_call_handler(&srv->fcc[event], payload, arg, what, return_value);
}

ZEND_METHOD(Rapier_Http_Server, runTask)
{
	run_handler(INTERNAL_FUNCTION_PARAM_PASSTHRU, EV_TASK, "the task's data");
}

ZEND_METHOD(Rapier_Http_Server, runMessage)
{
	run_handler(INTERNAL_FUNCTION_PARAM_PASSTHRU, EV_MESSAGE, "the message");
}

/*
 * Whether this process may send messages: one of the server's processes
 * (a worker, a task worker, a user process), inside its scheduler. False
 * with Rapier\Exception thrown.
 */
static bool can_send_message(const server_t *srv)
{
	if (srv->messages.count == 0 && Z_TYPE(srv->handlers[EV_MESSAGE]) == IS_UNDEF) {
		zend_throw_exception(rapier_ce_exception,
			"Cannot send a message: the server has no message handler (call $server->on('message', fn) before "
			"start())", 0);
		return false;
	}
	if ((!srv->in_child && !srv->http_ready) || srv->pid != getpid() || !rapier_sched_running()) {
		zend_throw_exception(rapier_ce_exception,
			"Cannot send a message here: call it in a worker, a task worker or a user process of the running server", 0);
		return false;
	}
	return true;
}

ZEND_METHOD(Rapier_Http_Server, sendMessage)
{
	server_t *srv = server_from(Z_OBJ_P(ZEND_THIS));
	zval *message;
	zend_long worker_id;

	ZEND_PARSE_PARAMETERS_START(2, 2)
		Z_PARAM_ZVAL(message)
		Z_PARAM_LONG(worker_id)
	ZEND_PARSE_PARAMETERS_END();

	if (!can_send_message(srv)) {
		RETURN_THROWS();
	}
	if (worker_id < 0 || worker_id >= (zend_long) srv->messages.count) {
		zend_argument_value_error(2, "must be a worker id, 0 to %u (workers, then task workers)",
			srv->messages.count - 1);
		RETURN_THROWS();
	}
	rapier_messages_send(&srv->messages, message, worker_id);
}

ZEND_METHOD(Rapier_Http_Server, broadcastMessage)
{
	server_t *srv = server_from(Z_OBJ_P(ZEND_THIS));
	zval *message;
	zend_long sent;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_ZVAL(message)
	ZEND_PARSE_PARAMETERS_END();

	if (!can_send_message(srv)) {
		RETURN_THROWS();
	}
	if ((sent = rapier_messages_send(&srv->messages, message, -1)) < 0) {
		RETURN_THROWS();
	}
	RETURN_LONG(sent);
}
