/*
 * The slow request log (slowlog_timeout): php-fpm's request_slowlog_timeout
 * for a worker that runs many handlers at once. When a request's handler
 * has run that long, the worker logs where it waits, its coroutine's
 * backtrace, once per request; the handler goes on.
 */
#ifndef RAPIER_HTTP_SLOWLOG_H
#define RAPIER_HTTP_SLOWLOG_H

#include "http_server.h"

/* Prepares conn's timer (once, when the connection opens). */
void rapier_http_slowlog_init(rapier_http_conn_t *conn);

/* Arms it as conn's handler starts, when the server has a slowlog_timeout. */
void rapier_http_slowlog_start(rapier_http_conn_t *conn);

/* Disarms it as the handler ends. */
void rapier_http_slowlog_stop(rapier_http_conn_t *conn);

#endif
