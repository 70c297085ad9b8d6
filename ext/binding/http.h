/*
 * Shared declarations of the Rapier\Http binding files: the server creates
 * a Request and a Response for each request it dispatches.
 */
#ifndef RAPIER_BINDING_HTTP_H
#define RAPIER_BINDING_HTTP_H

#include "php.h"
#include "http_server.h"

extern zend_class_entry *rapier_ce_http_server;
extern zend_class_entry *rapier_ce_http_request;
extern zend_class_entry *rapier_ce_http_response;
extern zend_class_entry *rapier_ce_http_websocket;
extern zend_class_entry *rapier_ce_http_websocket_message;
extern zend_class_entry *rapier_ce_http_body_exception;

void rapier_http_server_class_minit(void);
void rapier_http_request_class_minit(void);
void rapier_http_response_class_minit(void);
void rapier_http_websocket_class_minit(void);

/* A Request holding a copy of conn's current request (it does not keep conn). */
void rapier_http_request_new(zval *out, rapier_http_conn_t *conn);

/* php://input in the request's handler: a new read-only stream over its body, NULL when its file is gone. */
php_stream *rapier_http_request_input(zend_object *request);

/*
 * A body read while it arrives (http_body.c): a new read-only stream over
 * what is still to come (it holds the body); the rest of it as a string
 * (NULL with an exception thrown); and the exception for a failed read's rc.
 */
php_stream *rapier_http_body_stream_open(struct rapier_http_body_s *body);
zend_string *rapier_http_body_read_rest(struct rapier_http_body_s *body);
/*
 * The rest of the body in a raw spool (http_upload.h), kept as a buffered
 * body is: in memory up to memory_max bytes, past them in a temporary file
 * in tmp_dir. NULL with an exception thrown (BodyException 507 when the disk
 * is full, its file removed).
 */
rapier_upload_t *rapier_http_body_spool(struct rapier_http_body_s *body, size_t memory_max, const char *tmp_dir);
void rapier_http_body_throw(struct rapier_http_body_s *body, ssize_t rc);

/* A Response answering on conn (it holds a reference to conn). */
void rapier_http_response_new(zval *out, rapier_http_conn_t *conn, bool debug);

/* The WebSocket of conn, just upgraded (it holds a reference to conn). */
void rapier_http_websocket_new(zval *out, rapier_http_conn_t *conn);

/*
 * The handler has returned (exception NULL) or thrown: end what it left
 * open (a 500 with the trace when debug is on, for a throw before any
 * output) and hand the connection back to the server.
 */
void rapier_http_response_handler_done(zend_object *response, zend_object *exception);

/*
 * The response was cut while its handler runs (its client left, or a write
 * failed or timed out): connection_aborted() turns 1 in the handler, and
 * the callbacks given to onAbort() start, each in a coroutine of its own.
 */
void rapier_http_response_aborted(zend_object *response);

/* Whether the response was cut while its handler ran (rapier_http_response_aborted()). */
bool rapier_http_response_was_aborted(zend_object *response);

/* The Response of the request whose handler is the running coroutine, or NULL (another coroutine, or none). */
zend_object *rapier_http_current_response(void);

/*
 * While a worker serves: header(), setcookie(), header_remove(),
 * headers_list() and http_response_code() work as under php-fpm (the CLI
 * SAPI drops headers). end() restores the CLI behaviour.
 */
void rapier_http_sapi_capture_begin(void);
void rapier_http_sapi_capture_end(void);

/* Before each request: no session id left over from the previous one (as under php-fpm). */
void rapier_http_sapi_request_begin(void);

/*
 * connection_aborted() and connection_status() in a handler's coroutine
 * tell whether its client left; anywhere else they are PHP's own.
 */
void rapier_http_sapi_minit(void);
void rapier_http_sapi_mshutdown(void);

#endif
