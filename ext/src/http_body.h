/*
 * Request bodies read while they arrive (the request_buffering option off):
 * the handler starts once the head is in, and takes the body from here, at
 * its own pace.
 *
 * HTTP/1.1 is pulled: a reader that finds nothing buffered reads the socket
 * itself, so what it has not asked for waits in the kernel and the client
 * is held back by TCP. HTTP/2 DATA is pushed here as it comes, bounded by the
 * stream's flow-control window, which opens again by what the reader takes.
 *
 * The body outlives neither its request nor its connection: when the
 * handler returns, or the connection or stream closes, it is detached, and
 * whatever had not arrived by then never will (the reader is told why).
 */
#ifndef RAPIER_HTTP_BODY_H
#define RAPIER_HTTP_BODY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "http_response.h"

typedef struct rapier_http_conn_s rapier_http_conn_t;
typedef struct rapier_coro_s rapier_coro_t;

typedef struct rapier_http_body_s {
	uint32_t refcount;             /* the connection while attached, plus each reader's holder (the Request) */
	rapier_http_conn_t *conn;      /* where the rest comes from (an HTTP/2 stream's object); NULL once detached */
	rapier_http_buf_t buf;         /* arrived, not yet read: from pos to len */
	size_t pos;
	uint64_t received;             /* body bytes that arrived */
	uint64_t taken;                /* body bytes read */
	bool done;                     /* the whole body arrived */
	int error;                     /* 0, or the status that fits why the rest will not come (400, 408, 413, 499) */
	const char *reason;            /* why, static text */
	bool continue_due;             /* Expect: 100-continue, answered by the first read */
	rapier_coro_t *reader;         /* the coroutine waiting for bytes, or NULL */
	int64_t length;                /* the Content-Length, or -1 */
	uint64_t max_size;             /* max_body_size, unless the handler set its own */
	bool own_max_size;             /* the handler set it */
	int64_t timeout_ns;            /* how long a read waits for bytes (-1: no limit), likewise */
} rapier_http_body_t;

/*
 * Reads up to len bytes of the body, waiting in the calling coroutine for
 * them (at most timeout_ns for each step: body_timeout, or read_timeout
 * without it, unless set).
 * Returns the count, 0 at the end of the body, -EIO when the rest will not
 * come (error and reason say why), -ECANCELED when the wait was canceled,
 * -EAGAIN outside a coroutine with nothing buffered.
 */
ssize_t rapier_http_body_read(rapier_http_body_t *body, char *buf, size_t len);

/*
 * The handler's own limits for this body, in place of the server's
 * max_body_size and body_timeout (read_timeout); UINT64_MAX and -1 are no
 * limit. The size is checked as the body is read, so a limit set before the
 * first read judges every byte, even those that came with the head. A body
 * already past the new size, or announced past it by its Content-Length,
 * fails with 413 now, even one that arrived whole. No effect once it failed.
 */
void rapier_http_body_set_max_size(rapier_http_body_t *body, uint64_t max_size);
void rapier_http_body_set_timeout(rapier_http_body_t *body, int64_t timeout_ns);

/* The body's total size once whole, else content_length (the request's: -1 when it has none). */
int64_t rapier_http_body_size(const rapier_http_body_t *body, int64_t content_length);

void rapier_http_body_addref(rapier_http_body_t *body);
void rapier_http_body_release(rapier_http_body_t *body);

/* Engine side (http_server.c, http2.c) */

/* A body for conn's request, attached to it (conn->body). */
rapier_http_body_t *rapier__http_body_start(rapier_http_conn_t *conn, bool expect_continue);

/* Body bytes: kept for the reader, who is woken. A rapier_http_body_sink_t; 0, or 503 out of memory. */
int rapier__http_body_append(void *body, const char *buf, size_t len);

/* The body ended: whole (status 0), or not to be completed (status and static reason). Wakes the reader. */
void rapier__http_body_end(rapier_http_body_t *body, int status, const char *reason);

/*
 * The request is over for the connection (its handler returned, or the
 * connection or stream closed): a body not yet whole ends with status and
 * reason, and the connection's reference goes.
 */
void rapier__http_body_detach(rapier_http_conn_t *conn, int status, const char *reason);

/*
 * Whether the rest of this body, if its handler leaves it unread, can be
 * read and dropped to keep the connection (HTTP/1.1): it is known to be at
 * most max_discard bytes, or unknown (chunked: bounded while dropped). Not
 * when the client still waits for 100 Continue (it sends no body until
 * told, and drops the connection on a final answer), nor when it failed.
 */
bool rapier__http_body_discardable(const rapier_http_body_t *body, uint64_t max_discard);

#endif
