/*
 * PHP's own header(), setcookie(), header_remove(), headers_list() and
 * http_response_code() inside a server worker.
 *
 * The CLI SAPI drops every header(): its header handler answers "do not
 * add", and it marks the headers as sent before the script starts. Code
 * written for php-fpm (and the framework adapters, which collect what that
 * code set) needs them kept. While a worker serves, we answer "add" instead
 * and clear headers_sent, so the headers land in SAPI's list exactly as
 * under php-fpm; no_headers stays set, so PHP never tries to send them
 * itself. The list is process-wide, not per coroutine: adapters that rely
 * on it run with concurrency 1 (docs/frameworks.md).
 *
 * Sessions: under php-fpm every request starts with no session id, so
 * session_start() takes the id from the request's cookie. A resident
 * worker keeps the previous request's id, and the next session_start()
 * would reopen the previous client's session. Before each request we drop
 * an id no session is using. The session module may be built in or loaded
 * after us, so its globals are looked up at run time, not linked.
 *
 * connection_aborted() and connection_status(): php-fpm learns that a client
 * left when a write to it fails; a handler here learns it as soon as the
 * server sees it go (Response::onAbort()). Streaming code written for
 * php-fpm (a Server-Sent Events loop checking connection_aborted(), in a
 * Symfony StreamedResponse or a Laravel event stream) then stops as it does
 * there. Only the handler's own coroutine has a request to answer for; in
 * any other the functions are PHP's own.
 */
#include "php_rapier.h"
#include "SAPI.h"
#include "ext/session/php_session.h"

#include <dlfcn.h>

#include "http.h"
#include "hook.h"

static int (*saved_header_handler)(sapi_header_struct *, sapi_header_op_enum, sapi_headers_struct *);
static bool saved_headers_sent;
static bool saved_no_headers;
static bool capturing;

static int keep_header(sapi_header_struct *header, sapi_header_op_enum op, sapi_headers_struct *headers)
{
	(void) header;
	(void) op;
	(void) headers;
	return SAPI_HEADER_ADD;
}

void rapier_http_sapi_capture_begin(void)
{
	if (capturing) {
		return;
	}
	capturing = true;
	saved_header_handler = sapi_module.header_handler;
	saved_headers_sent = SG(headers_sent);
	saved_no_headers = SG(request_info).no_headers;
	sapi_module.header_handler = keep_header;
	SG(headers_sent) = 0;
	/* Without no_headers the first echo would "send" (and so freeze) the header list. */
	SG(request_info).no_headers = 1;
}

static php_ps_globals *session_globals(void)
{
	static php_ps_globals *ps;
	static bool looked;

	if (!looked) {
		looked = true;
		if (zend_hash_str_exists(&module_registry, ZEND_STRL("session"))) {
			ps = dlsym(RTLD_DEFAULT, "ps_globals");
		}
	}
	return ps;
}

void rapier_http_sapi_request_begin(void)
{
	php_ps_globals *ps = session_globals();

	if (ps && ps->session_status != php_session_active && ps->id) {
		zend_string_release(ps->id);
		ps->id = NULL;
	}
}

void rapier_http_sapi_capture_end(void)
{
	if (!capturing) {
		return;
	}
	capturing = false;
	sapi_module.header_handler = saved_header_handler;
	SG(headers_sent) = saved_headers_sent;
	SG(request_info).no_headers = saved_no_headers;
}

static zif_handler php_connection_aborted;
static zif_handler php_connection_status;

/* Both tell of the handler's client: whether its response was cut (rapier_http_response_aborted()). */
static ZEND_FUNCTION(rapier_connection_aborted)
{
	zend_object *response = rapier_http_current_response();

	if (response == NULL) {
		php_connection_aborted(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_LONG(rapier_http_response_was_aborted(response));
}

static ZEND_FUNCTION(rapier_connection_status)
{
	zend_object *response = rapier_http_current_response();

	if (response == NULL) {
		php_connection_status(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	ZEND_PARSE_PARAMETERS_NONE();
	/* The worker's own stdout is not the client: only the timeout bit is PHP's. */
	RETURN_LONG((rapier_http_response_was_aborted(response) ? PHP_CONNECTION_ABORTED : 0)
		| (PG(connection_status) & PHP_CONNECTION_TIMEOUT));
}

void rapier_http_sapi_minit(void)
{
	php_connection_aborted = rapier_hook_replace_handler(ZEND_STRL("connection_aborted"),
		ZEND_FN(rapier_connection_aborted));
	php_connection_status = rapier_hook_replace_handler(ZEND_STRL("connection_status"),
		ZEND_FN(rapier_connection_status));
}

void rapier_http_sapi_mshutdown(void)
{
	if (php_connection_aborted) {
		rapier_hook_replace_handler(ZEND_STRL("connection_aborted"), php_connection_aborted);
	}
	if (php_connection_status) {
		rapier_hook_replace_handler(ZEND_STRL("connection_status"), php_connection_status);
	}
}
