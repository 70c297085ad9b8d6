/*
 * The HTTP/1.1 request codec: llhttp underneath, no php.h, no I/O.
 * One rapier_http_parser_t per connection; see http_parser.c and
 * docs/http-parsing.md for what is accepted and what is rejected.
 */
#ifndef RAPIER_HTTP_PARSER_H
#define RAPIER_HTTP_PARSER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "llhttp.h"

/* Defaults for rapier_http_limits_t (rapier_http_limits_default()). */
#define RAPIER_HTTP_DEFAULT_MAX_HEADER_SIZE  (16 * 1024)
#define RAPIER_HTTP_DEFAULT_MAX_HEADER_COUNT 100
#define RAPIER_HTTP_DEFAULT_MAX_URL_SIZE     (8 * 1024)
#define RAPIER_HTTP_DEFAULT_MAX_BODY_SIZE    (8 * 1024 * 1024)

typedef struct rapier_http_limits {
	/* Bytes of request line + header fields + the empty line (431). */
	size_t max_header_size;
	/* Header fields per request (431); trailer fields are counted apart. */
	size_t max_header_count;
	/* Bytes of the request target (414); at most max_header_size. */
	size_t max_url_size;
	/* Bytes of decoded body, whether buffered or given to a sink (413). */
	size_t max_body_size;
} rapier_http_limits_t;

typedef enum {
	/* Everything given was consumed; feed more bytes. */
	RAPIER_HTTP_NEED_MORE = 0,
	/* Request line and headers are ready and a body follows: the caller may
	 * answer 100 Continue, set a body sink, or reject; then feed more. */
	RAPIER_HTTP_HEADERS_COMPLETE,
	/* One whole request is ready; the unconsumed bytes are the next one. */
	RAPIER_HTTP_MESSAGE_COMPLETE,
	/* Bad input: answer error_status (if non-zero) and close. Sticky. */
	RAPIER_HTTP_ERROR
} rapier_http_state_t;

typedef struct rapier_http_header {
	const char *name;	/* lower-case, NUL-terminated */
	const char *value;	/* OWS stripped, NUL-terminated */
	size_t name_len;
	size_t value_len;
} rapier_http_header_t;

/* Everything points into memory owned by the parser, valid until the next
 * rapier_http_parser_feed() after MESSAGE_COMPLETE, or _free(). */
typedef struct rapier_http_request {
	int method;			/* enum llhttp_method */
	const char *method_name;	/* static string, e.g. "GET" */
	const char *target;		/* raw request target, NUL-terminated */
	size_t target_len;
	const char *path;		/* target up to '?' or '#'; not NUL-terminated */
	size_t path_len;
	const char *query;		/* after '?', up to '#'; not NUL-terminated */
	size_t query_len;
	int version_major;
	int version_minor;
	rapier_http_header_t *headers;
	size_t header_count;
	int64_t content_length;	/* -1 when absent */
	unsigned keep_alive:1;
	unsigned expect_continue:1;
	unsigned chunked:1;
	unsigned upgrade:1;		/* Connection: upgrade + Upgrade, or CONNECT */
	const char *body;		/* buffered body (NULL with a sink or none) */
	size_t body_len;
	uint64_t body_received;		/* decoded body bytes so far, sink included */
} rapier_http_request_t;

/* Receives body bytes instead of the buffer. Return 0 to go on, or an HTTP
 * status (e.g. 507 when the disk is full) to stop with that error. */
typedef int (*rapier_http_body_sink_t)(void *data, const char *buf, size_t len);

typedef struct rapier_http_parser {
	llhttp_t llhttp;
	rapier_http_limits_t limits;
	rapier_http_request_t req;
	rapier_http_state_t state;
	int error_status;
	const char *error_reason;

	/* Private from here on. */
	int phase;
	size_t phase_bytes;
	unsigned char scan_flags;
	char *arena;
	size_t arena_len;
	size_t arena_cap;
	size_t header_cap;
	char *body_buf;
	size_t body_cap;
	uint64_t body_wire;
	size_t chunk_count;
	size_t trailer_count;
	size_t trailer_name_len;
	int in_field;
	int version_ok;
	int crlf_pending;	/* bytes of the CRLF after chunk data not seen yet */
	int framing_cr;		/* the last chunk framing byte was CR */
	const char *framing_from;	/* chunk framing not scanned yet starts here */
	const char *step_end;	/* end of the bytes given to llhttp_execute() */
	rapier_http_body_sink_t sink;
	void *sink_data;
	size_t max_body_size;	/* this request's: limits.max_body_size unless set for a sink */
} rapier_http_parser_t;

void rapier_http_limits_default(rapier_http_limits_t *limits);

/* limits == NULL means the defaults. Allocates nothing; returns 0, or -1 when
 * a limit is zero or max_url_size > max_header_size. */
int rapier_http_parser_init(rapier_http_parser_t *p, const rapier_http_limits_t *limits);
void rapier_http_parser_free(rapier_http_parser_t *p);

/* Parses up to len bytes; returns how many were consumed, or -1 on ERROR.
 * Stops after the headers of a request with a body (HEADERS_COMPLETE) and
 * after each request (MESSAGE_COMPLETE); feed the remainder again to go on.
 * A feed after MESSAGE_COMPLETE starts the next request and invalidates the
 * previous one; after a request with keep_alive == 0 or upgrade == 1 the
 * caller should not feed again (input after Connection: close is discarded). */
ssize_t rapier_http_parser_feed(rapier_http_parser_t *p, const char *buf, size_t len);

/* The peer closed its side. Returns 0 when no request was in progress, or -1
 * (ERROR, status 400 "truncated request") when one was cut short. */
int rapier_http_parser_eof(rapier_http_parser_t *p);

/* In HEADERS_COMPLETE: send the body to sink instead of the buffer. Later, a
 * body that goes to a sink already may move its rest to another. */
void rapier_http_parser_set_body_sink(rapier_http_parser_t *p, rapier_http_body_sink_t sink, void *data);

/* With a sink set: replaces max_body_size for the rest of this request's
 * body (the next request has limits.max_body_size again). A body past it
 * already fails at the next byte fed. */
void rapier_http_parser_set_max_body_size(rapier_http_parser_t *p, size_t max_body_size);

static inline const rapier_http_request_t *rapier_http_parser_request(const rapier_http_parser_t *p)
{
	return &p->req;
}

/* First header named lname (lower-case), or NULL; *len gets its length. */
const char *rapier_http_request_header(const rapier_http_request_t *req, const char *lname, size_t *len);

/* Percent-decodes a path into out (at least len bytes; out may equal in).
 * '+' stays '+'. Returns 0, or -1 for %00, a raw NUL or a malformed escape. */
int rapier_http_decode_path(const char *in, size_t len, char *out, size_t *out_len);

typedef struct rapier_http_cookie {
	const char *name;
	size_t name_len;
	const char *value;	/* raw: not unquoted, not percent-decoded */
	size_t value_len;
} rapier_http_cookie_t;

/* Iterates over the pairs of a Cookie header value: start with *cursor at the
 * value, end at its end. Returns 1 with *out filled, 0 when done. */
int rapier_http_cookie_next(const char **cursor, const char *end, rapier_http_cookie_t *out);

#endif
