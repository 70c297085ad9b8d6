/*
 * What http2.c (the session), http2_request.c (the request as it arrives)
 * and http2_response.c (the response frames) share. Not an API.
 */
#ifndef RAPIER_HTTP2_INTERNAL_H
#define RAPIER_HTTP2_INTERNAL_H

#include <nghttp2/nghttp2.h>

#include "http2.h"
#include "http_server.h"
#include "http_server_internal.h"

typedef enum { H2_PSEUDO_METHOD, H2_PSEUDO_PATH, H2_PSEUDO_AUTHORITY, H2_PSEUDO_SCHEME, H2_PSEUDO_COUNT } rapier_h2_pseudo_t;

/* A request header field: offsets into the stream's arena, each string NUL-terminated there. */
typedef struct {
	size_t name, name_len;
	size_t value, value_len;
} rapier_h2_field_t;

struct rapier_h2_session_s {
	rapier_http_conn_t *conn;      /* the HTTP/2 connection */
	nghttp2_session *ng;
	rapier_list_t streams;         /* stream objects whose nghttp2 stream is open (their link) */
	uint32_t live;                 /* stream objects not yet freed, handlers of reset streams included */
	rapier_http_conn_t **ready;    /* requests complete during mem_recv(), dispatched after it */
	size_t ready_len, ready_cap;
	char *out;                     /* frames not yet taken by the socket */
	size_t out_len, out_pos, out_cap;
	rapier_defer_t flush_later;    /* h2_flush(): the frames of this pass's responses go in one send */
	bool flushing;                 /* h2_flush_now() runs: a nested call leaves the work to it */
	bool held;                     /* frames wait for one flush after: in mem_recv(), or a failing worker's answers */
	bool going_away;               /* GOAWAY submitted: close once the streams are done */
};

struct rapier_h2_stream_s {
	rapier_http_conn_t *conn;      /* the stream's own connection object */
	rapier_http_conn_t *parent;    /* the connection it came on, held until this is freed */
	int32_t id;
	bool open;                     /* nghttp2 still has the stream */
	bool request_done;             /* END_STREAM came: the request is whole */
	bool rejected;                 /* answered (413, 431...) before its request was whole: the rest is dropped */
	bool deferred;                 /* the body reader ran dry; resume it when bytes come */
	bool end_sent;                 /* the response's last frame went out */
	bool rest_unread;              /* its handler returned before the body ended: the rest is dropped or
	                                * reset once the response has ended (rapier__h2_settle_rest()) */
	int error_status;              /* a limit the request broke, answered at the end of its headers */
	const char *error_reason;

	rapier_http_buf_t arena;       /* header names and values */
	rapier_h2_field_t *fields;
	size_t field_count, field_cap;
	size_t header_bytes;           /* as max_header_size counts them: "name: value\r\n" */
	bool has_pseudo[H2_PSEUDO_COUNT];
	rapier_h2_field_t pseudo[H2_PSEUDO_COUNT];
	rapier_http_header_t *headers; /* the request's, pointing into arena */
	rapier_http_buf_t body;

	/* The response body, read by nghttp2 in this order. */
	rapier_http_buf_t own;         /* copied bytes: loop answers, writes made where no wait is possible */
	size_t own_pos;
	const char *out;               /* the waiting writer's bytes, not copied */
	size_t out_len;
	int file_fd;                   /* a file after those, or -1 */
	bool file_owned;               /* a loop answer's file, closed with the stream (else the writer's) */
	uint64_t file_off, file_left;
	bool eof;                      /* the body ends after these */
	rapier_http_buf_t trailers;    /* "Name: value\r\n" lines sent as HEADERS after the body, or empty */
};


static inline rapier_h2_session_t *rapier__h2_session_of(const rapier_http_conn_t *stream)
{
	return stream->h2s->parent->h2;
}

/* The stream's object, or NULL once it was closed from either side. */
static inline rapier_http_conn_t *rapier__h2_stream_conn(nghttp2_session *ng, int32_t id)
{
	return nghttp2_session_get_stream_user_data(ng, id);
}

/* Flushes once the ready coroutines have run (http2.c). */
void rapier__h2_flush(rapier_h2_session_t *h2);

/* Answers a request before it was whole; the rest of it is dropped (http2_request.c). */
void rapier__h2_refuse(rapier_http_conn_t *stream, int status, const char *reason);

/* Whether the unread rest of a request whose response ended is refused rather than dropped (http2_request.c). */
bool rapier__h2_rest_refused(const rapier_http_conn_t *stream);

/*
 * A handler left the rest of its body unread and the response has ended:
 * the stream is reset for a rest that is refused, else the rest is taken in
 * and dropped. Counted either way (unread_bodies_reset, _dropped).
 */
void rapier__h2_settle_rest(rapier_http_conn_t *stream);

/* Dispatches the requests made whole during mem_recv() (http2_request.c). */
void rapier__h2_dispatch_ready(rapier_h2_session_t *h2);

/* nghttp2's callbacks for what a request carries (http2_request.c). */
int rapier__h2_on_header(nghttp2_session *ng, const nghttp2_frame *frame, const uint8_t *name, size_t name_len,
	const uint8_t *value, size_t value_len, uint8_t flags, void *user_data);
int rapier__h2_on_data_chunk(nghttp2_session *ng, uint8_t flags, int32_t id, const uint8_t *data, size_t len,
	void *user_data);
int rapier__h2_on_frame_recv(nghttp2_session *ng, const nghttp2_frame *frame, void *user_data);

#endif
