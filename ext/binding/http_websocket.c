/*
 * Rapier\Http\WebSocket and Rapier\Http\WebSocketMessage: the PHP face of
 * an upgraded connection (src/http_websocket.c does the protocol). A
 * WebSocket holds its connection, so it stays safe to call after the
 * connection has ended: sends return false and recv() returns null.
 */
#include "php_rapier.h"
#include "zend_exceptions.h"

#include "http.h"
#include "http_websocket.h"
#include "http_websocket_arginfo.h"

zend_class_entry *rapier_ce_http_websocket;
zend_class_entry *rapier_ce_http_websocket_message;
static zend_object_handlers websocket_handlers;

typedef struct {
	rapier_http_conn_t *conn;
	zend_object std;
} websocket_t;

static inline websocket_t *websocket_from(zend_object *obj)
{
	return (websocket_t *) ((char *) obj - XtOffsetOf(websocket_t, std));
}

#define THIS_WEBSOCKET() websocket_from(Z_OBJ_P(ZEND_THIS))

static zend_object *websocket_create(zend_class_entry *ce)
{
	websocket_t *ws = zend_object_alloc(sizeof(websocket_t), ce);

	zend_object_std_init(&ws->std, ce);
	object_properties_init(&ws->std, ce);
	ws->std.handlers = &websocket_handlers;
	return &ws->std;
}

static void websocket_free(zend_object *obj)
{
	websocket_t *ws = websocket_from(obj);

	if (ws->conn) {
		rapier_http_conn_release(ws->conn);
	}
	zend_object_std_dtor(obj);
}

void rapier_http_websocket_new(zval *out, rapier_http_conn_t *conn)
{
	websocket_t *ws;

	object_init_ex(out, rapier_ce_http_websocket);
	ws = websocket_from(Z_OBJ_P(out));
	ws->conn = conn;
	rapier_http_conn_addref(conn);
}

/* A WebSocketMessage owning data's bytes as a PHP string (one copy). */
static void message_new(zval *out, rapier_ws_message_t *msg)
{
	zend_object *obj;

	object_init_ex(out, rapier_ce_http_websocket_message);
	obj = Z_OBJ_P(out);
	/* Readonly properties, set once here: their slots are written directly. */
	ZVAL_STR(OBJ_PROP_NUM(obj, 0), msg->len ? zend_string_init(msg->data, msg->len, 0) : ZSTR_EMPTY_ALLOC());
	ZVAL_BOOL(OBJ_PROP_NUM(obj, 1), msg->binary);
	free(msg->data);
}

/* What a sending method returns: a cancel while waiting for the client throws, as every wait does. */
static bool sent(int rc)
{
	if (rc == -ECANCELED && !EG(exception)) {
		zend_throw_exception(rapier_ce_canceled_exception,
			"Coroutine was canceled while sending on a WebSocket; the connection is closed", 0);
	}
	return rc == 0;
}

ZEND_METHOD(Rapier_Http_WebSocket, __construct)
{
}

ZEND_METHOD(Rapier_Http_WebSocket, recv)
{
	websocket_t *ws = THIS_WEBSOCKET();
	double timeout = -1;
	int64_t timeout_ns;
	rapier_ws_message_t msg;
	int rc;

	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_DOUBLE(timeout)
	ZEND_PARSE_PARAMETERS_END();

	timeout_ns = rapier_timeout_arg_ns(timeout, 1);
	if (timeout_ns == -2) {
		RETURN_THROWS();
	}
	GC_ADDREF(&ws->std);
	rc = rapier_ws_recv(ws->conn, timeout_ns, &msg);
	OBJ_RELEASE(&ws->std);
	switch (rc) {
		case 1:
			message_new(return_value, &msg);
			return;
		case 0:
			RETURN_NULL();
		case -ETIMEDOUT:
			zend_throw_exception_ex(rapier_ce_timeout_exception, 0,
				"No WebSocket message arrived within %.3f s", timeout);
			RETURN_THROWS();
		case -EBUSY:
			zend_throw_exception_ex(rapier_ce_exception, 0,
				"Cannot receive: another coroutine is receiving on this WebSocket (one at a time; hand its "
				"messages to others with a Rapier\\Channel)");
			RETURN_THROWS();
		default:
			if (!EG(exception)) {
				zend_throw_exception_ex(rapier_ce_canceled_exception, 0,
					"Coroutine was canceled while waiting for a WebSocket message");
			}
			RETURN_THROWS();
	}
}

ZEND_METHOD(Rapier_Http_WebSocket, send)
{
	websocket_t *ws = THIS_WEBSOCKET();
	zend_string *data;
	bool binary = false;
	int rc;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_STR(data)
		Z_PARAM_OPTIONAL
		Z_PARAM_BOOL(binary)
	ZEND_PARSE_PARAMETERS_END();

	if (!binary && !rapier_ws_utf8_valid(ZSTR_VAL(data), ZSTR_LEN(data))) {
		zend_argument_value_error(1, "must be valid UTF-8 for a text message; send bytes with $binary = true");
		RETURN_THROWS();
	}
	/* The string may be all that holds it while this waits for the client. */
	zend_string_addref(data);
	GC_ADDREF(&ws->std);
	rc = rapier_ws_send(ws->conn, binary ? RAPIER_WS_OP_BINARY : RAPIER_WS_OP_TEXT, ZSTR_VAL(data), ZSTR_LEN(data));
	OBJ_RELEASE(&ws->std);
	zend_string_release(data);
	RETURN_BOOL(sent(rc));
}

ZEND_METHOD(Rapier_Http_WebSocket, ping)
{
	websocket_t *ws = THIS_WEBSOCKET();
	zend_string *data = ZSTR_EMPTY_ALLOC();
	int rc;

	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR(data)
	ZEND_PARSE_PARAMETERS_END();

	if (ZSTR_LEN(data) > RAPIER_WS_CONTROL_MAX) {
		zend_argument_value_error(1, "must be at most %d bytes (a control frame's limit)", RAPIER_WS_CONTROL_MAX);
		RETURN_THROWS();
	}
	GC_ADDREF(&ws->std);
	rc = rapier_ws_send(ws->conn, RAPIER_WS_OP_PING, ZSTR_VAL(data), ZSTR_LEN(data));
	OBJ_RELEASE(&ws->std);
	RETURN_BOOL(sent(rc));
}

ZEND_METHOD(Rapier_Http_WebSocket, close)
{
	websocket_t *ws = THIS_WEBSOCKET();
	zend_long code = RAPIER_WS_CLOSE_NORMAL;
	zend_string *reason = ZSTR_EMPTY_ALLOC();
	int rc;

	ZEND_PARSE_PARAMETERS_START(0, 2)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(code)
		Z_PARAM_STR(reason)
	ZEND_PARSE_PARAMETERS_END();

	if (code > INT_MAX || !rapier_ws_close_code_sendable((int) code)) {
		zend_argument_value_error(1, "must be a close code an endpoint may send: 1000-1003, 1007-1014 or 3000-4999");
		RETURN_THROWS();
	}
	if (ZSTR_LEN(reason) > RAPIER_WS_CLOSE_REASON_MAX || !rapier_ws_utf8_valid(ZSTR_VAL(reason), ZSTR_LEN(reason))) {
		zend_argument_value_error(2, "must be valid UTF-8 of at most %d bytes", RAPIER_WS_CLOSE_REASON_MAX);
		RETURN_THROWS();
	}
	GC_ADDREF(&ws->std);
	rc = rapier_ws_close(ws->conn, (uint16_t) code, ZSTR_VAL(reason), ZSTR_LEN(reason));
	OBJ_RELEASE(&ws->std);
	RETURN_BOOL(sent(rc));
}

ZEND_METHOD(Rapier_Http_WebSocket, isOpen)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(rapier_ws_is_open(THIS_WEBSOCKET()->conn));
}

ZEND_METHOD(Rapier_Http_WebSocket, closeCode)
{
	rapier_ws_t *ws = THIS_WEBSOCKET()->conn->ws;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!ws->ended) {
		RETURN_NULL();
	}
	RETURN_LONG(ws->close_code);
}

ZEND_METHOD(Rapier_Http_WebSocket, closeReason)
{
	rapier_ws_t *ws = THIS_WEBSOCKET()->conn->ws;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!ws->ended) {
		RETURN_EMPTY_STRING();
	}
	RETURN_STRINGL(ws->close_reason, ws->close_reason_len);
}

ZEND_METHOD(Rapier_Http_WebSocketMessage, __construct)
{
}

void rapier_http_websocket_class_minit(void)
{
	rapier_ce_http_websocket = register_class_Rapier_Http_WebSocket();
	rapier_ce_http_websocket->create_object = websocket_create;
	memcpy(&websocket_handlers, &std_object_handlers, sizeof(websocket_handlers));
	websocket_handlers.offset = XtOffsetOf(websocket_t, std);
	websocket_handlers.free_obj = websocket_free;
	websocket_handlers.clone_obj = NULL;
	rapier_ce_http_websocket_message = register_class_Rapier_Http_WebSocketMessage();
}
