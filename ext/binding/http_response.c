/*
 * Rapier\Http\Response: builds the response head as the handler sets
 * status and headers (each validated at once, so a CR/LF in a header value
 * is an exception where it is set, never a split response), then hands it
 * to the connection writer (src/http_server.c) on write(), end(), json(),
 * sendfile() or redirect().
 */
#include "php_rapier.h"
#include "ext/json/php_json.h"
#include "ext/standard/url.h"
#include "zend_exceptions.h"
#include "zend_interfaces.h"
#include "zend_smart_str.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "http.h"
#include "http_response_arginfo.h"
#include "http_websocket.h"

zend_class_entry *rapier_ce_http_response;
static zend_object_handlers response_handlers;

/* Header lines of most responses fit here without a heap allocation. */
#define RESPONSE_INLINE_HEAD 512

/* A head larger than this is refused: no client accepts much more. */
#define RESPONSE_MAX_HEAD (64 * 1024)

typedef struct {
	rapier_http_conn_t *conn;
	rapier_http_buf_t buf;
	rapier_http_head_t head;
	zend_string *content_type;     /* as set by the application, for gzip's decision */
	rapier_http_buf_t trailers;    /* trailer fields, sent after the body */
	zval abort_callbacks;          /* onAbort() callables not run yet: an array, or UNDEF */
	bool debug;
	bool done;                     /* the handler returned: conn may already serve the next request */
	bool aborted;                  /* the response was cut while the handler ran (rapier_http_response_aborted()) */
	char storage[RESPONSE_INLINE_HEAD];
	zend_object std;
} response_t;

static inline response_t *response_from(zend_object *obj)
{
	return (response_t *) ((char *) obj - XtOffsetOf(response_t, std));
}

static zend_object *response_create(zend_class_entry *ce)
{
	response_t *resp = zend_object_alloc(sizeof(response_t), ce);

	zend_object_std_init(&resp->std, ce);
	object_properties_init(&resp->std, ce);
	resp->std.handlers = &response_handlers;
	rapier_http_buf_init(&resp->buf, resp->storage, sizeof(resp->storage), RESPONSE_MAX_HEAD);
	rapier_http_head_init(&resp->head, &resp->buf);
	rapier_http_buf_init(&resp->trailers, NULL, 0, RESPONSE_MAX_HEAD);
	return &resp->std;
}

static void response_free(zend_object *obj)
{
	response_t *resp = response_from(obj);

	if (resp->conn) {
		rapier_http_conn_release(resp->conn);
	}
	if (resp->content_type) {
		zend_string_release(resp->content_type);
	}
	rapier_http_buf_free(&resp->buf);
	rapier_http_buf_free(&resp->trailers);
	zval_ptr_dtor(&resp->abort_callbacks);
	zend_object_std_dtor(obj);
}

/* A callback given to onAbort() that holds its Response is a cycle the collector must see. */
static HashTable *response_get_gc(zend_object *obj, zval **table, int *n)
{
	response_t *resp = response_from(obj);

	*table = Z_ISUNDEF(resp->abort_callbacks) ? NULL : &resp->abort_callbacks;
	*n = Z_ISUNDEF(resp->abort_callbacks) ? 0 : 1;
	return zend_std_get_properties(obj);
}

void rapier_http_response_new(zval *out, rapier_http_conn_t *conn, bool debug)
{
	response_t *resp;

	object_init_ex(out, rapier_ce_http_response);
	resp = response_from(Z_OBJ_P(out));
	resp->conn = conn;
	resp->debug = debug;
	rapier_http_conn_addref(conn);
}

/* State checks */

/* done: the handler has returned, which ended the response whatever else still holds it. */
static void throw_handler_returned(const char *what)
{
	zend_throw_exception_ex(rapier_ce_exception, 0,
		"Cannot %s: its request handler has returned, which ended the response (a coroutine writing it must be "
		"waited for before the handler returns, with a Rapier\\WaitGroup for example)", what);
}

/* After upgrade() the connection speaks WebSocket: the HTTP response is over. */
static void throw_upgraded(const char *what)
{
	zend_throw_exception_ex(rapier_ce_exception, 0,
		"Cannot %s: the connection was upgraded to a WebSocket; use the Rapier\\Http\\WebSocket upgrade() returned",
		what);
}

static bool require_unsent(response_t *resp, const char *what)
{
	if (resp->done) {
		throw_handler_returned(what);
		return false;
	}
	if (resp->conn->upgraded) {
		throw_upgraded(what);
		return false;
	}
	if (resp->conn->response_started || resp->conn->response_ended) {
		zend_throw_exception_ex(rapier_ce_exception, 0,
			"Cannot %s: the response headers have already been sent", what);
		return false;
	}
	return true;
}

static bool require_open(response_t *resp, const char *what)
{
	if (resp->done) {
		throw_handler_returned(what);
		return false;
	}
	if (resp->conn->upgraded) {
		throw_upgraded(what);
		return false;
	}
	if (resp->conn->response_ended) {
		zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot %s: the response has already ended", what);
		return false;
	}
	return true;
}

/* Adds a header, turning a refusal into the exception that names the culprit. */
/*
 * The exception for a field the engine refused (rapier_http_head_add or
 * rapier_http_trailer_add): what is "header" or "trailer", block what
 * would overflow. Returns whether rc was a refusal.
 */
static bool field_refused(int rc, const char *what, const char *block, const char *name, size_t name_len,
	uint32_t value_arg)
{
	if (rc == RAPIER_HTTP_EBADNAME) {
		zend_argument_value_error(1, "must be a valid header name (letters, digits and !#$%%&'*+-.^_`|~)");
	} else if (rc == RAPIER_HTTP_ENOTRAILER) {
		zend_argument_value_error(1, "must not be a field the client needs before the body (%.*s); send it with header()",
			(int) name_len, name);
	} else if (rc == RAPIER_HTTP_EBADVALUE) {
		zend_argument_value_error(value_arg, "must not contain CR, LF, NUL or other control characters");
	} else if (rc == RAPIER_HTTP_ETOOLARGE) {
		zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot add %s %.*s: %s would exceed %d bytes", what,
			(int) name_len, name, block, RESPONSE_MAX_HEAD);
	} else if (rc < 0) {
		zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot add %s %.*s", what, (int) name_len, name);
	}
	return rc < 0;
}

static bool add_header(response_t *resp, const char *name, size_t name_len, const char *value, size_t value_len,
	uint32_t value_arg)
{
	int rc = rapier_http_head_add(&resp->head, name, name_len, value, value_len);

	if (field_refused(rc, "header", "the response head", name, name_len, value_arg)) {
		return false;
	}
	if (name_len == 12 && strncasecmp(name, "content-type", 12) == 0) {
		if (resp->content_type) {
			zend_string_release(resp->content_type);
		}
		resp->content_type = zend_string_init(value, value_len, 0);
	}
	return true;
}

static bool add_default_content_type(response_t *resp, const char *type, size_t len)
{
	return resp->content_type != NULL || add_header(resp, ZEND_STRL("Content-Type"), type, len, 1);
}

/* Interned at MINIT (see known_method() in http_request.c for why not later). */
static zend_string *json_exception_class_name;

static zend_string *json_exception_name(void)
{
	return json_exception_class_name;
}

/* As json_encode() with JSON_THROW_ON_ERROR: a JsonException with json_last_error_msg()'s words and code. */
static void throw_json_error(void)
{
	zend_class_entry *ce = zend_lookup_class(json_exception_name());
	zend_function *last_error_msg = zend_hash_str_find_ptr(EG(function_table), ZEND_STRL("json_last_error_msg"));
	zval msg;

	ZVAL_UNDEF(&msg);
	if (last_error_msg != NULL) {
		zend_call_known_function(last_error_msg, NULL, NULL, &msg, 0, NULL, NULL);
	}
	zend_throw_exception_ex(ce ? ce : rapier_ce_exception, JSON_G(error_code),
		"Cannot encode the response as JSON: %s (json_last_error() code %d)",
		Z_TYPE(msg) == IS_STRING ? Z_STRVAL(msg) : "unknown error", (int) JSON_G(error_code));
	zval_ptr_dtor(&msg);
}

/* Sending */

/* 0, or -errno (the connection is closed): see rapier_http_conn_respond(). */
static int respond(response_t *resp, const char *body, size_t len)
{
	const char *ctype = resp->content_type ? ZSTR_VAL(resp->content_type) : NULL;
	size_t ctype_len = resp->content_type ? ZSTR_LEN(resp->content_type) : 0;

	return rapier_http_conn_respond(resp->conn, &resp->head, ctype, ctype_len, body, len);
}

static int finish(response_t *resp, const char *body, size_t len)
{
	if (resp->conn->response_started) {
		int rc = len == 0 ? 0 : rapier_http_conn_write(resp->conn, &resp->head, NULL, 0, body, len);
		int end_rc;

		if (rc == -ECANCELED) {
			return rc;
		}
		end_rc = rapier_http_conn_end_stream(resp->conn, resp->head.trailers);
		return rc < 0 ? rc : end_rc;
	}
	return respond(resp, body, len);
}

/*
 * What a sending method returns: true when every byte went out, false when
 * the client has gone or stopped reading. A cancel of the handler's
 * coroutine (Coroutine::cancel(), shutdown_timeout) while it waited for the
 * client throws instead, as in every other wait, so that the handler does
 * not run on past it.
 */
static bool sent(int rc)
{
	if (rc == -ECANCELED) {
		zend_throw_exception(rapier_ce_canceled_exception,
			"Coroutine was canceled while writing the response; the connection is closed", 0);
	}
	return rc == 0;
}

/*
 * The status of an uncaught Rapier\Http\BodyException: its code, a 4xx
 * (the client's doing; 499: the client left) or 507 (the disk); 0 for any
 * other exception, answered 500.
 */
static int body_failure_status(zend_object *exception)
{
	zval *code, tmp;
	zend_long status;

	if (!instanceof_function(exception->ce, rapier_ce_http_body_exception)) {
		return 0;
	}
	code = zend_read_property(zend_ce_exception, exception, ZEND_STRL("code"), true, &tmp);
	status = zval_get_long(code);
	return (status >= 400 && status <= 499) || status == 507 ? (int) status : 0;
}

/* Answers a body that did not come whole with the status that says why and the exception's message. */
static bool body_failure_answered(response_t *resp, zend_object *exception, int status)
{
	zval *message, tmp;
	smart_str text = {0};

	if (status == 0 || status == 499) {
		return false;
	}
	message = zend_read_property(zend_ce_exception, exception, ZEND_STRL("message"), true, &tmp);
	if (Z_TYPE_P(message) != IS_STRING) {
		return false;
	}
	rapier_http_head_init(&resp->head, &resp->buf);
	rapier_http_buf_reset(&resp->buf);
	rapier_http_head_set_status(&resp->head, status, NULL, 0);
	rapier_http_head_add(&resp->head, ZEND_STRL("Content-Type"), ZEND_STRL("text/plain; charset=utf-8"));
	smart_str_append(&text, Z_STR_P(message));
	smart_str_appendc(&text, '\n');
	smart_str_0(&text);
	rapier_http_conn_respond(resp->conn, &resp->head, NULL, 0, ZSTR_VAL(text.s), ZSTR_LEN(text.s));
	smart_str_free(&text);
	return true;
}

/* Abort callbacks */

static void start_abort_callback(zval *callback)
{
	zend_fcall_info_cache fcc;
	zend_object *pending = EG(exception);

	if (!zend_is_callable_ex(callback, NULL, 0, NULL, &fcc, NULL)) {
		return;
	}
	/* Only with no scheduler left (the worker ends) can this fail: nobody waits for the callback then. */
	if (rapier_coro_spawn(callback, &fcc, NULL, 0) == NULL && EG(exception) != pending) {
		zend_clear_exception();
	}
}

void rapier_http_response_aborted(zend_object *obj)
{
	response_t *resp = response_from(obj);
	zval callbacks, *callback;

	resp->aborted = true;
	if (Z_ISUNDEF(resp->abort_callbacks)) {
		return;
	}
	ZVAL_COPY_VALUE(&callbacks, &resp->abort_callbacks);
	ZVAL_UNDEF(&resp->abort_callbacks);
	ZEND_HASH_FOREACH_VAL(Z_ARRVAL(callbacks), callback) {
		start_abort_callback(callback);
	} ZEND_HASH_FOREACH_END();
	zval_ptr_dtor(&callbacks);
}

bool rapier_http_response_was_aborted(zend_object *obj)
{
	return response_from(obj)->aborted;
}

void rapier_http_response_handler_done(zend_object *obj, zend_object *exception)
{
	response_t *resp = response_from(obj);
	rapier_http_conn_t *conn = resp->conn;

	/* A body its client cut short by a close or a reset closed the connection then: nothing below is sent. */
	if (exception) {
		zval ex, str;
		int body_status = body_failure_status(exception);
		ZVAL_OBJ(&ex, exception);
		zend_call_method_with_0_params(exception, exception->ce, NULL, "__tostring", &str);
		if (EG(exception)) {
			zend_clear_exception();
		}
		/*
		 * A body the client cut short, sent too slowly, too large or malformed is the client's doing, as it is
		 * with request_buffering on, where the server answers it unlogged: the access log has its status.
		 */
		if (body_status == 0 || body_status == 507) {
			php_log_err_with_severity(Z_TYPE(str) == IS_STRING ? Z_STRVAL(str) : "uncaught exception", LOG_ERR);
		}
		if (rapier_http_conn_writable(conn) && !conn->response_started
			&& body_failure_answered(resp, exception, body_status)) {
			/* The body did not come whole: the status that says why, not a 500 (as if the server had buffered it). */
		} else if (rapier_http_conn_writable(conn) && !conn->response_started) {
			rapier_http_head_init(&resp->head, &resp->buf);
			rapier_http_buf_reset(&resp->buf);
			rapier_http_head_set_status(&resp->head, 500, NULL, 0);
			rapier_http_head_add(&resp->head, ZEND_STRL("Content-Type"), ZEND_STRL("text/plain; charset=utf-8"));
			if (resp->debug && Z_TYPE(str) == IS_STRING) {
				rapier_http_conn_respond(conn, &resp->head, NULL, 0, Z_STRVAL(str), Z_STRLEN(str));
			} else {
				rapier_http_conn_respond(conn, &resp->head, NULL, 0, ZEND_STRL("500 Internal Server Error\n"));
			}
		}
		zval_ptr_dtor(&str);
	} else if (rapier_http_conn_writable(conn)) {
		/* The handler returned without ending the response: end it as it stands. */
		finish(resp, "", 0);
	}
	resp->done = true;
	/* No abort comes after the handler: its callbacks, and the cycles they may hold, go now. */
	zval_ptr_dtor(&resp->abort_callbacks);
	ZVAL_UNDEF(&resp->abort_callbacks);
	rapier_http_conn_handler_done(conn, exception != NULL);
}

/* Methods */

ZEND_METHOD(Rapier_Http_Response, __construct)
{
}

ZEND_METHOD(Rapier_Http_Response, status)
{
	response_t *resp = response_from(Z_OBJ_P(ZEND_THIS));
	zend_long status;
	zend_string *reason = NULL;
	int rc;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_LONG(status)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR(reason)
	ZEND_PARSE_PARAMETERS_END();

	/* A 1xx is interim: sent as the final answer, the client would take the next response for this one. */
	if (status < 200 || status > 599) {
		zend_argument_value_error(1, "must be between 200 and 599");
		RETURN_THROWS();
	}
	if (!require_unsent(resp, "set the status")) {
		RETURN_THROWS();
	}
	rc = rapier_http_head_set_status(&resp->head, (int) status, reason && ZSTR_LEN(reason) ? ZSTR_VAL(reason) : NULL,
		reason ? ZSTR_LEN(reason) : 0);
	if (rc < 0) {
		zend_argument_value_error(2, "must be at most %d printable characters", RAPIER_HTTP_REASON_MAX);
		RETURN_THROWS();
	}
	RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
}

ZEND_METHOD(Rapier_Http_Response, header)
{
	response_t *resp = response_from(Z_OBJ_P(ZEND_THIS));
	zend_string *name, *value;

	ZEND_PARSE_PARAMETERS_START(2, 2)
		Z_PARAM_STR(name)
		Z_PARAM_STR(value)
	ZEND_PARSE_PARAMETERS_END();

	if (!require_unsent(resp, "add a header") || !add_header(resp, ZSTR_VAL(name), ZSTR_LEN(name), ZSTR_VAL(value), ZSTR_LEN(value), 2)) {
		RETURN_THROWS();
	}
	RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
}

/* One field of an interim response, its refusal thrown as earlyHints()'s. */
static bool add_hint(rapier_http_head_t *hints, zend_string *name, zval *value)
{
	int rc;

	if (Z_TYPE_P(value) != IS_STRING) {
		zend_argument_type_error(1, "must hold strings or lists of strings as values, %s given for %s",
			zend_zval_type_name(value), ZSTR_VAL(name));
		return false;
	}
	rc = rapier_http_head_add(hints, ZSTR_VAL(name), ZSTR_LEN(name), Z_STRVAL_P(value), Z_STRLEN_P(value));
	if (rc == RAPIER_HTTP_EBADNAME) {
		zend_argument_value_error(1, "must have header names as keys (letters, digits and !#$%%&'*+-.^_`|~), "
			"\"%s\" is not one", ZSTR_VAL(name));
	} else if (rc == RAPIER_HTTP_EBADVALUE) {
		zend_argument_value_error(1, "must not hold CR, LF, NUL or other control characters (in %s)", ZSTR_VAL(name));
	} else if (rc < 0) {
		zend_throw_exception_ex(rapier_ce_exception, 0,
			"Cannot send early hints: they would exceed %d bytes", RESPONSE_MAX_HEAD);
	}
	return rc == 0;
}

/* The fields of earlyHints()'s array, as "Name: value\r\n" lines in hints' buffer. */
static bool build_hints(rapier_http_head_t *hints, HashTable *headers)
{
	zend_string *name;
	zend_ulong index;
	zval *value, *item;

	ZEND_HASH_FOREACH_KEY_VAL(headers, index, name, value) {
		if (name == NULL) {
			zend_argument_value_error(1, "must have header names as keys, " ZEND_ULONG_FMT " given "
				"(['Link' => ['</app.css>; rel=preload; as=style', ...]])", index);
			return false;
		}
		ZVAL_DEREF(value);
		if (Z_TYPE_P(value) != IS_ARRAY) {
			if (!add_hint(hints, name, value)) {
				return false;
			}
			continue;
		}
		ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(value), item) {
			ZVAL_DEREF(item);
			if (!add_hint(hints, name, item)) {
				return false;
			}
		} ZEND_HASH_FOREACH_END();
	} ZEND_HASH_FOREACH_END();
	return true;
}

ZEND_METHOD(Rapier_Http_Response, earlyHints)
{
	response_t *resp = response_from(Z_OBJ_P(ZEND_THIS));
	HashTable *headers;
	char storage[RESPONSE_INLINE_HEAD];
	rapier_http_buf_t buf;
	rapier_http_head_t hints;
	int rc;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_ARRAY_HT(headers)
	ZEND_PARSE_PARAMETERS_END();

	if (!require_unsent(resp, "send early hints")) {
		RETURN_THROWS();
	}
	rapier_http_buf_init(&buf, storage, sizeof(storage), RESPONSE_MAX_HEAD);
	rapier_http_head_init(&hints, &buf);
	if (!build_hints(&hints, headers)) {
		rapier_http_buf_free(&buf);
		RETURN_THROWS();
	}
	rc = rapier_http_conn_interim(resp->conn, 103, &buf);
	rapier_http_buf_free(&buf);
	if (rc > 0) {
		RETURN_TRUE;
	}
	/* 0: not sent (early_hints off, an HTTP/1.0 client); -errno: the client has gone, or a cancel throws. */
	RETURN_BOOL(rc < 0 ? sent(rc) : false);
}

ZEND_METHOD(Rapier_Http_Response, trailer)
{
	response_t *resp = response_from(Z_OBJ_P(ZEND_THIS));
	zend_string *name, *value;
	int rc;

	ZEND_PARSE_PARAMETERS_START(2, 2)
		Z_PARAM_STR(name)
		Z_PARAM_STR(value)
	ZEND_PARSE_PARAMETERS_END();

	if (!require_open(resp, "add a trailer")) {
		RETURN_THROWS();
	}
	rc = rapier_http_trailer_add(&resp->trailers, ZSTR_VAL(name), ZSTR_LEN(name), ZSTR_VAL(value), ZSTR_LEN(value));
	if (field_refused(rc, "trailer", "the trailer fields", ZSTR_VAL(name), ZSTR_LEN(name), 2)) {
		RETURN_THROWS();
	}
	resp->head.trailers = &resp->trailers;
	RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
}

/* Characters PHP's setcookie() refuses in a cookie name. */
static bool cookie_name_valid(zend_string *name)
{
	return ZSTR_LEN(name) > 0 && strpbrk(ZSTR_VAL(name), "=,; \t\r\n\013\014") == NULL
		&& memchr(ZSTR_VAL(name), '\0', ZSTR_LEN(name)) == NULL;
}

static void append_cookie_date(smart_str *out, const char *label, zend_long when)
{
	char date[RAPIER_HTTP_DATE_LEN + 1];

	rapier_http_date_format((int64_t) when, date);
	smart_str_appends(out, label);
	smart_str_appends(out, date);
}

ZEND_METHOD(Rapier_Http_Response, cookie)
{
	response_t *resp = response_from(Z_OBJ_P(ZEND_THIS));
	zend_string *name, *value = NULL, *path = NULL, *domain = NULL, *same_site = NULL;
	zend_long expires = 0;
	bool secure = false, http_only = false;
	smart_str line = {0};

	ZEND_PARSE_PARAMETERS_START(1, 8)
		Z_PARAM_STR(name)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR(value)
		Z_PARAM_LONG(expires)
		Z_PARAM_STR(path)
		Z_PARAM_STR(domain)
		Z_PARAM_BOOL(secure)
		Z_PARAM_BOOL(http_only)
		Z_PARAM_STR(same_site)
	ZEND_PARSE_PARAMETERS_END();

	if (!cookie_name_valid(name)) {
		zend_argument_value_error(1, "must not be empty or contain \"=\", \",\", \";\", \" \", \"\\t\", \"\\r\", \"\\n\", \"\\013\", or \"\\014\"");
		RETURN_THROWS();
	}
	if (!require_unsent(resp, "set a cookie")) {
		RETURN_THROWS();
	}
	smart_str_append(&line, name);
	smart_str_appendc(&line, '=');
	if (value == NULL || ZSTR_LEN(value) == 0) {
		/* As setcookie(): an empty value deletes the cookie. */
		smart_str_appends(&line, "deleted; expires=Thu, 01 Jan 1970 00:00:01 GMT; Max-Age=0");
	} else {
		zend_string *encoded = php_raw_url_encode(ZSTR_VAL(value), ZSTR_LEN(value));
		smart_str_append(&line, encoded);
		zend_string_release(encoded);
		if (expires > 0) {
			zend_long max_age = expires - (zend_long) time(NULL);
			append_cookie_date(&line, "; expires=", expires);
			smart_str_append_printf(&line, "; Max-Age=" ZEND_LONG_FMT, max_age > 0 ? max_age : 0);
		}
	}
	if (path && ZSTR_LEN(path)) {
		smart_str_appends(&line, "; path=");
		smart_str_append(&line, path);
	}
	if (domain && ZSTR_LEN(domain)) {
		smart_str_appends(&line, "; domain=");
		smart_str_append(&line, domain);
	}
	if (secure) {
		smart_str_appends(&line, "; secure");
	}
	if (http_only) {
		smart_str_appends(&line, "; HttpOnly");
	}
	if (same_site && ZSTR_LEN(same_site)) {
		smart_str_appends(&line, "; SameSite=");
		smart_str_append(&line, same_site);
	}
	smart_str_0(&line);
	if (!add_header(resp, ZEND_STRL("Set-Cookie"), ZSTR_VAL(line.s), ZSTR_LEN(line.s), 2)) {
		smart_str_free(&line);
		RETURN_THROWS();
	}
	smart_str_free(&line);
	RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
}

ZEND_METHOD(Rapier_Http_Response, write)
{
	response_t *resp = response_from(Z_OBJ_P(ZEND_THIS));
	zend_string *data;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_STR(data)
	ZEND_PARSE_PARAMETERS_END();

	if (!require_open(resp, "write")) {
		RETURN_THROWS();
	}
	RETURN_BOOL(sent(rapier_http_conn_write(resp->conn, &resp->head,
		resp->content_type ? ZSTR_VAL(resp->content_type) : NULL, resp->content_type ? ZSTR_LEN(resp->content_type) : 0,
		ZSTR_VAL(data), ZSTR_LEN(data))));
}

ZEND_METHOD(Rapier_Http_Response, end)
{
	response_t *resp = response_from(Z_OBJ_P(ZEND_THIS));
	zend_string *body = NULL;

	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR(body)
	ZEND_PARSE_PARAMETERS_END();

	if (!require_open(resp, "end the response")) {
		RETURN_THROWS();
	}
	RETURN_BOOL(sent(finish(resp, body ? ZSTR_VAL(body) : "", body ? ZSTR_LEN(body) : 0)));
}

ZEND_METHOD(Rapier_Http_Response, json)
{
	response_t *resp = response_from(Z_OBJ_P(ZEND_THIS));
	zval *data;
	zend_long status = 200, flags = 0;
	smart_str json = {0};
	int rc;

	ZEND_PARSE_PARAMETERS_START(1, 3)
		Z_PARAM_ZVAL(data)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(status)
		Z_PARAM_LONG(flags)
	ZEND_PARSE_PARAMETERS_END();

	if (status < 200 || status > 599) {
		zend_argument_value_error(2, "must be between 200 and 599");
		RETURN_THROWS();
	}
	if (!require_unsent(resp, "send JSON")) {
		RETURN_THROWS();
	}
	/* As json_encode(): NAN and INF fail only through the error code, and partial output is the caller's choice. */
	php_json_encode(&json, data, (int) (flags & ~PHP_JSON_THROW_ON_ERROR));
	if (JSON_G(error_code) != PHP_JSON_ERROR_NONE && !(flags & PHP_JSON_PARTIAL_OUTPUT_ON_ERROR)) {
		/* As json_encode() with JSON_THROW_ON_ERROR. */
		throw_json_error();
		smart_str_free(&json);
		RETURN_THROWS();
	}
	smart_str_0(&json);
	if (!add_default_content_type(resp, ZEND_STRL("application/json"))) {
		smart_str_free(&json);
		RETURN_THROWS();
	}
	rapier_http_head_set_status(&resp->head, (int) status, NULL, 0);
	rc = respond(resp, json.s ? ZSTR_VAL(json.s) : "", json.s ? ZSTR_LEN(json.s) : 0);
	smart_str_free(&json);
	RETURN_BOOL(sent(rc));
}

ZEND_METHOD(Rapier_Http_Response, sendfile)
{
	response_t *resp = response_from(Z_OBJ_P(ZEND_THIS));
	zend_string *path;
	zend_long offset = 0, length = 0;
	bool length_is_null = true;
	struct stat st;
	rapier_file_version_t version;
	int fd, rc;

	ZEND_PARSE_PARAMETERS_START(1, 3)
		Z_PARAM_PATH_STR(path)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(offset)
		Z_PARAM_LONG_OR_NULL(length, length_is_null)
	ZEND_PARSE_PARAMETERS_END();

	if (!require_unsent(resp, "send a file") || php_check_open_basedir(ZSTR_VAL(path))) {
		RETURN_THROWS();
	}
	fd = open(ZSTR_VAL(path), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		if (fd >= 0) {
			close(fd);
		}
		zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot send file %s: %s", ZSTR_VAL(path),
			fd < 0 ? strerror(errno) : "not a regular file");
		RETURN_THROWS();
	}
	if (offset < 0 || offset > st.st_size) {
		close(fd);
		zend_argument_value_error(2, "must be between 0 and the file size (" ZEND_LONG_FMT ")", (zend_long) st.st_size);
		RETURN_THROWS();
	}
	if (length_is_null || length > st.st_size - offset) {
		length = st.st_size - offset;
	} else if (length < 0) {
		close(fd);
		zend_argument_value_error(3, "must be greater than or equal to 0");
		RETURN_THROWS();
	}
	if (resp->content_type == NULL) {
		size_t mime_len;
		const char *mime = rapier_static_mime(ZSTR_VAL(path), ZSTR_LEN(path), &mime_len);
		add_header(resp, ZEND_STRL("Content-Type"), mime, mime_len, 1);
	}
	version = rapier_file_version_of(&st);
	rc = rapier_http_conn_sendfile(resp->conn, &resp->head, resp->content_type ? ZSTR_VAL(resp->content_type) : NULL,
		resp->content_type ? ZSTR_LEN(resp->content_type) : 0, fd, (uint64_t) offset, (uint64_t) length, &version);
	close(fd);
	RETURN_BOOL(sent(rc));
}

ZEND_METHOD(Rapier_Http_Response, redirect)
{
	response_t *resp = response_from(Z_OBJ_P(ZEND_THIS));
	zend_string *location;
	zend_long status = 302;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_STR(location)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(status)
	ZEND_PARSE_PARAMETERS_END();

	if (status < 300 || status > 399) {
		zend_argument_value_error(2, "must be a redirection status (300 to 399)");
		RETURN_THROWS();
	}
	if (!require_unsent(resp, "redirect")) {
		RETURN_THROWS();
	}
	/* The Location first: a redirect() that throws leaves the status as it was. */
	if (!add_header(resp, ZEND_STRL("Location"), ZSTR_VAL(location), ZSTR_LEN(location), 1)) {
		RETURN_THROWS();
	}
	rapier_http_head_set_status(&resp->head, (int) status, NULL, 0);
	RETURN_BOOL(sent(respond(resp, "", 0)));
}

ZEND_METHOD(Rapier_Http_Response, isWritable)
{
	response_t *resp = response_from(Z_OBJ_P(ZEND_THIS));

	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(!resp->done && rapier_http_conn_writable(resp->conn));
}

ZEND_METHOD(Rapier_Http_Response, onAbort)
{
	response_t *resp = response_from(Z_OBJ_P(ZEND_THIS));
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_FUNC(fci, fcc)
	ZEND_PARSE_PARAMETERS_END();

	if (resp->done) {
		throw_handler_returned("register an abort callback");
		RETURN_THROWS();
	}
	if (resp->aborted) {
		/* Already cut: the callback starts at once, as it would have then. */
		start_abort_callback(&fci.function_name);
		return;
	}
	if (resp->conn->response_ended || resp->conn->upgraded) {
		/* Ended whole, or now a WebSocket: no abort of this response can come. */
		return;
	}
	if (Z_ISUNDEF(resp->abort_callbacks)) {
		array_init(&resp->abort_callbacks);
	}
	Z_TRY_ADDREF(fci.function_name);
	add_next_index_zval(&resp->abort_callbacks, &fci.function_name);
}

ZEND_METHOD(Rapier_Http_Response, headersSent)
{
	response_t *resp = response_from(Z_OBJ_P(ZEND_THIS));

	ZEND_PARSE_PARAMETERS_NONE();
	/* Once done, the connection may be serving the next request: not ours to read. */
	RETURN_BOOL(resp->done || resp->conn->response_started || resp->conn->response_ended);
}

ZEND_METHOD(Rapier_Http_Response, statusCode)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_LONG(response_from(Z_OBJ_P(ZEND_THIS))->head.status);
}

/* A request upgrade() cannot take: answered here, with what a WebSocket client needs to know. */
static void refuse_upgrade(response_t *resp, int status, const char *why)
{
	char body[256];
	int len = snprintf(body, sizeof(body), "%d %s: %s\n", status, rapier_http_reason(status), why);

	rapier_http_head_set_status(&resp->head, status, NULL, 0);
	if (status == 426) {
		rapier_http_head_add_line(&resp->head, ZEND_STRL("Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"));
	}
	if (add_default_content_type(resp, ZEND_STRL("text/plain; charset=utf-8"))) {
		sent(respond(resp, body, (size_t) len));
	}
}

ZEND_METHOD(Rapier_Http_Response, upgrade)
{
	response_t *resp = response_from(Z_OBJ_P(ZEND_THIS));
	zend_string *protocol = NULL;
	char accept[RAPIER_WS_ACCEPT_LEN + 1];
	const rapier_http_request_t *req;
	const char *why = NULL;
	int status, rc;

	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR_OR_NULL(protocol)
	ZEND_PARSE_PARAMETERS_END();

	if (!require_unsent(resp, "upgrade to a WebSocket")) {
		RETURN_THROWS();
	}
	req = rapier_http_conn_request(resp->conn);
	status = rapier_ws_handshake_check(req, accept, &why);
	if (status == 0 && protocol && !rapier_ws_protocol_offered(req, ZSTR_VAL(protocol), ZSTR_LEN(protocol))) {
		size_t offered_len;
		const char *offered = rapier_http_request_header(req, "sec-websocket-protocol", &offered_len);
		zend_argument_value_error(1, "must be a subprotocol the client offered in Sec-WebSocket-Protocol (%s%.*s%s)",
			offered ? "\"" : "it offered none", offered ? (int) offered_len : 0, offered ? offered : "",
			offered ? "\"" : "");
		RETURN_THROWS();
	}
	if (status != 0) {
		refuse_upgrade(resp, status, why);
		RETURN_NULL();
	}
	GC_ADDREF(&resp->std);
	rc = rapier_http_conn_upgrade(resp->conn, &resp->head, accept, protocol ? ZSTR_VAL(protocol) : NULL,
		protocol ? ZSTR_LEN(protocol) : 0);
	OBJ_RELEASE(&resp->std);
	if (rc == -ESHUTDOWN) {
		refuse_upgrade(resp, 503, "the server is stopping");
		RETURN_NULL();
	}
	if (!resp->conn->upgraded) {
		zend_throw_exception_ex(rapier_ce_exception, 0,
			"Cannot upgrade to a WebSocket: the response head would exceed %d bytes", RESPONSE_MAX_HEAD);
		RETURN_THROWS();
	}
	if (rc == -ECANCELED) {
		sent(rc);
		RETURN_THROWS();
	}
	/* A client gone during the 101 still gets its WebSocket, which reports the end (1006). */
	rapier_http_websocket_new(return_value, resp->conn);
}

void rapier_http_response_class_minit(void)
{
	json_exception_class_name = zend_string_init_interned(ZEND_STRL("JsonException"), 1);
	rapier_ce_http_response = register_class_Rapier_Http_Response();
	rapier_ce_http_response->create_object = response_create;
	memcpy(&response_handlers, &std_object_handlers, sizeof(response_handlers));
	response_handlers.offset = XtOffsetOf(response_t, std);
	response_handlers.free_obj = response_free;
	response_handlers.clone_obj = NULL;
	response_handlers.get_gc = response_get_gc;
}
