/*
 * HTTP/2 (RFC 9113) on connections of the HTTP server, with nghttp2 doing
 * the framing, HPACK, flow control and the protocol's own checks.
 *
 * A connection turns HTTP/2 after its TLS handshake chose "h2" by ALPN, or
 * when a plain connection opens with the client preface (prior knowledge,
 * h2c). From then on it carries a session (rapier_h2_session_t) and each
 * request stream is a connection object of its own (rapier_http_conn_t
 * with h2s set) that never touches the socket: it goes through the same
 * dispatch, handler slots, queue, access log and PHP objects as an
 * HTTP/1.1 request, and its responses are turned into HEADERS and DATA
 * frames here instead of bytes on the wire.
 *
 * Not an API: http_server.c and http_writer.c call these.
 */
#ifndef RAPIER_HTTP2_H
#define RAPIER_HTTP2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "http_response.h"

typedef struct rapier_http_conn_s rapier_http_conn_t;

/* What every HTTP/2 client sends first (RFC 9113 3.4). */
#define RAPIER_H2_PREFACE "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
#define RAPIER_H2_PREFACE_LEN 24

/* The ALPN protocol list the TLS layer offers when HTTP/2 is on: h2 preferred. */
#define RAPIER_H2_ALPN "\x02h2\x08http/1.1"

/* Whether data (len bytes, the first of a connection) begin the client preface, whole or in part. */
bool rapier__h2_is_preface(const char *data, size_t len);

/*
 * conn speaks HTTP/2 from now on; data holds what was already read of it
 * (the preface on a plain connection), or nothing after ALPN. The
 * connection may be closed on return (out of memory, a bad preface).
 */
void rapier__h2_start(rapier_http_conn_t *conn, const char *data, size_t len);

/* The socket of an HTTP/2 connection is ready. */
void rapier__h2_on_io(rapier_http_conn_t *conn, uint32_t events);

/* The connection's timer: write_timeout with output stuck, or keepalive_timeout with no stream open. */
void rapier__h2_timeout(rapier_http_conn_t *conn);

/* The server drains: GOAWAY now; the streams already started are finished, then the connection closes. */
void rapier__h2_going_away(rapier_http_conn_t *conn);

/* The connection closes: every stream ends with it and the session goes. */
void rapier__h2_conn_closed(rapier_http_conn_t *conn);

/* A fatal error: streams in a handler that had not begun answering get answer()'s, then GOAWAY INTERNAL_ERROR. */
void rapier__h2_fail(rapier_http_conn_t *conn, void (*answer)(rapier_http_conn_t *stream));

/* A stream's object closes (the client reset it, it ended, or its response failed): RST_STREAM if still open. */
void rapier__h2_stream_closed(rapier_http_conn_t *stream);

/* The TLS session of a stream's connection, or NULL (plain, or closed). */
struct rapier_http_tls_s *rapier__h2_stream_tls(const rapier_http_conn_t *stream);

/* A stream's object is freed (no reference left). */
void rapier__h2_stream_free(rapier_http_conn_t *stream);

/*
 * A response from the loop (an error, a 503, a redirect, a static file):
 * head finished (rapier_http_head_finish, its header block in block),
 * then body or len bytes of fd from offset (fd is the stream's from now
 * on). Never waits.
 */
void rapier__h2_answer(rapier_http_conn_t *stream, const rapier_http_head_t *head, const struct iovec *block,
	const char *body, size_t body_len, int fd, uint64_t offset, uint64_t length);

/*
 * From the handler's coroutine, holding the stream's write turn: sends the
 * finished head, with a body to follow when more (else the stream ends
 * with it). 0, or -errno.
 */
int rapier__h2_submit(rapier_http_conn_t *stream, const rapier_http_head_t *head, const struct iovec *block, bool more);

/*
 * From the handler's coroutine, holding the stream's write turn and before
 * its head: an interim response (103 Early Hints) with fields ("Name:
 * value\r\n" lines), a HEADERS frame the final one follows. 0, or -errno.
 */
int rapier__h2_submit_interim(rapier_http_conn_t *stream, int status, const rapier_http_buf_t *fields);

/*
 * Body bytes (and the end of the body with eof), waiting until the client's
 * flow control and the socket have taken them all (write_timeout), as a
 * write on an HTTP/1.1 connection does. 0, or -errno with the stream reset.
 */
int rapier__h2_send(rapier_http_conn_t *stream, const char *data, size_t len, bool eof);

/*
 * Trailer fields ("Name: value\r\n" lines; NULL or empty for none) to send
 * after the body, before its end is sent: copied, then a trailing HEADERS
 * frame ends the stream instead of the last DATA frame. 0, or -ENOMEM.
 */
int rapier__h2_set_trailers(rapier_http_conn_t *stream, const rapier_http_buf_t *trailers);
/* length bytes of fd from offset as the rest of the body, waiting as rapier__h2_send() does. */
int rapier__h2_send_file(rapier_http_conn_t *stream, int fd, uint64_t offset, uint64_t length);

#endif
