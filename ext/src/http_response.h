/*
 * Rapier HTTP/1.1 response heads: status line, validated header fields,
 * framing (Content-Length or chunked), Connection and Date, laid out as two
 * iovecs for writev(): a status line (usually a static string) and a header
 * block in a caller-owned growable buffer. Plus chunked-encoding helpers.
 *
 * Engine code: no PHP headers. Functions return 0 or a negative code.
 */
#ifndef RAPIER_HTTP_RESPONSE_H
#define RAPIER_HTTP_RESPONSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "http_date.h"

/* Error codes: negative like errno values, but far outside errno's range so both can share a return. */
#define RAPIER_HTTP_EBADNAME   (-1001)  /* empty field name or a non-token byte in it */
#define RAPIER_HTTP_EBADVALUE  (-1002)  /* CR, LF, NUL or another control byte in a value */
#define RAPIER_HTTP_EBADSTATUS (-1003)  /* status outside 100..599 */
#define RAPIER_HTTP_EBADREASON (-1004)  /* control byte in the reason, or longer than RAPIER_HTTP_REASON_MAX */
#define RAPIER_HTTP_ETOOLARGE  (-1005)  /* the head would exceed the buffer's max */
#define RAPIER_HTTP_ENOTRAILER (-1006)  /* a field that may not be sent as a trailer (RFC 9110 6.5.1) */

/*
 * A growable byte buffer. It may start on caller storage (a stack array or a
 * per-connection block): the first growth moves it to the heap. Keep one per
 * connection or worker and rapier_http_buf_reset() it between responses, so
 * the steady state allocates nothing.
 */
typedef struct rapier_http_buf_s {
	char *data;
	size_t len;
	size_t cap;
	size_t max;      /* growth limit; see rapier_http_buf_init */
	bool on_heap;    /* data was malloc'ed by us (else it is the caller's storage) */
} rapier_http_buf_t;

/* storage may be NULL (cap 0). max 0 means RAPIER_HTTP_BUF_DEFAULT_MAX. */
void rapier_http_buf_init(rapier_http_buf_t *buf, char *storage, size_t cap, size_t max);
void rapier_http_buf_free(rapier_http_buf_t *buf);
/* Makes room for `extra` more bytes. Returns 0, -ENOMEM or RAPIER_HTTP_ETOOLARGE. */
int rapier_http_buf_reserve(rapier_http_buf_t *buf, size_t extra);
/*
 * Reserves room for an encoder's next output: want bytes, or what is left
 * below max when that is less (the output may still fit). Returns 0,
 * -ENOMEM, or RAPIER_HTTP_ETOOLARGE when the buffer is at its max.
 */
int rapier_http_buf_reserve_output(rapier_http_buf_t *buf, size_t want);
int rapier_http_buf_append(rapier_http_buf_t *buf, const void *data, size_t len);
static inline void rapier_http_buf_reset(rapier_http_buf_t *buf)
{
	buf->len = 0;
}

/* A response head is refused past this: far above any sane set of headers, low enough to bound a bug. */
#define RAPIER_HTTP_BUF_DEFAULT_MAX (1024 * 1024)
/* Reason phrases are a few words; the cap keeps a custom status line inside the head struct. */
#define RAPIER_HTTP_REASON_MAX 64
/* "HTTP/1.1 NNN " + reason + CRLF */
#define RAPIER_HTTP_STATUS_LINE_MAX (13 + RAPIER_HTTP_REASON_MAX + 2)

/* content_length value meaning "length unknown: stream with chunked encoding". */
#define RAPIER_HTTP_LENGTH_UNKNOWN UINT64_MAX

typedef struct rapier_http_head_s {
	rapier_http_buf_t *buf;    /* header lines are appended here */
	size_t start;              /* where this head's header lines begin in buf */
	const char *status_line;   /* static table entry, or custom_line */
	size_t status_line_len;
	int status;
	/* Framing headers set by the application, absorbed rather than written (see rapier_http_head_add). */
	uint64_t app_content_length;
	bool has_app_content_length;
	bool app_close;            /* the application sent "Connection: close" */
	bool has_date;             /* the application set its own Date */
	bool has_server;           /* ... or its own Server */
	/*
	 * The trailer fields, "Name: value\r\n" lines (rapier_http_trailer_add),
	 * or NULL: sent after the body, which on HTTP/1.1 makes it chunked.
	 */
	const rapier_http_buf_t *trailers;
	/* Results of rapier_http_head_finish(). */
	bool keep_alive;           /* the connection stays open after this response */
	bool chunked;              /* the body must be written with the chunk helpers */
	bool body_allowed;         /* false for HEAD, 1xx, 204 and 304: write no body bytes */
	char custom_line[RAPIER_HTTP_STATUS_LINE_MAX];
} rapier_http_head_t;

/* Starts a 200 OK head whose header lines go to the end of buf. */
void rapier_http_head_init(rapier_http_head_t *head, rapier_http_buf_t *buf);

/*
 * Sets the status; reason NULL or empty picks the standard phrase (or none
 * for an unregistered code). A custom reason may hold HTAB, SP, visible
 * ASCII and bytes >= 0x80, nothing else. May be called any time before finish.
 */
int rapier_http_head_set_status(rapier_http_head_t *head, int status, const char *reason, size_t reason_len);

/* The standard reason phrase for status, or NULL. */
const char *rapier_http_reason(int status);

/* Validation alone, for values checked once at configuration time. */
bool rapier_http_header_name_valid(const char *name, size_t len);
bool rapier_http_header_value_valid(const char *value, size_t len);

/* Narrows s and len to leave out the optional whitespace (spaces, tabs) at either end: OWS, RFC 9110 5.6.3. */
void rapier_http_trim_ows(const char **s, size_t *len);

/*
 * Appends "name: value\r\n". The name must be an RFC 9110 token; the value
 * must hold no CR, LF, NUL or other control byte except HTAB; leading and
 * trailing spaces are trimmed. Nothing is written when either is refused,
 * which makes response splitting impossible through this function.
 *
 * The builder owns framing, so three fields are absorbed instead of written:
 * Content-Length (remembered; used only for a HEAD response without a body),
 * Transfer-Encoding (ignored: finish decides), Connection ("close" forces a
 * close; other tokens are dropped). An application Date or Server replaces
 * the automatic one.
 * Returns 0, RAPIER_HTTP_EBADNAME, RAPIER_HTTP_EBADVALUE, -ENOMEM or RAPIER_HTTP_ETOOLARGE.
 */
int rapier_http_head_add(rapier_http_head_t *head, const char *name, size_t name_len, const char *value,
	size_t value_len);

/*
 * Appends "name: value\r\n" to a block of trailer fields, validated as
 * rapier_http_head_add() validates a header, and refusing the fields a
 * recipient needs before the body (RFC 9110 6.5.1: framing, routing,
 * content type and coding, authentication, caching, Trailer itself).
 * Returns 0, RAPIER_HTTP_EBADNAME, RAPIER_HTTP_ENOTRAILER,
 * RAPIER_HTTP_EBADVALUE, -ENOMEM or RAPIER_HTTP_ETOOLARGE.
 */
int rapier_http_trailer_add(rapier_http_buf_t *buf, const char *name, size_t name_len, const char *value,
	size_t value_len);

/*
 * The body goes in a content coding made for this response: a strong ETag
 * the application set becomes weak (the bytes are not those it tags: RFC
 * 9110 8.8.3, as nginx's gzip does) and Accept-Ranges goes (positions in a
 * coding made anew are not stable). Returns 0 or -ENOMEM.
 */
int rapier_http_head_encoded(rapier_http_head_t *head);

/* Whether head has trailer fields to send. */
static inline bool rapier_http_head_has_trailers(const rapier_http_head_t *head)
{
	return head->trailers != NULL && head->trailers->len > 0;
}

/* Appends an already validated constant line such as "Vary: Accept-Encoding\r\n" (trusted, not checked). */
int rapier_http_head_add_line(rapier_http_head_t *head, const char *line, size_t len);

/* What the connection and the request tell finish. */
typedef struct rapier_http_finish_s {
	uint64_t content_length;     /* body bytes, or RAPIER_HTTP_LENGTH_UNKNOWN to stream */
	int version_minor;           /* request's HTTP/1.x minor version: 0 or 1 */
	bool request_keep_alive;     /* the request allows keep-alive (llhttp_should_keep_alive) */
	bool server_close;           /* the server wants to close (draining, max_requests, errors) */
	bool head_request;           /* HEAD: framing of the would-be body, no body */
	const char *date_line;       /* "Date: ...\r\n" from rapier_http_date_cache_line, or NULL for none */
	const char *server;          /* Server header value, or NULL for none */
	size_t server_len;
} rapier_http_finish_t;

/*
 * Appends the automatic headers and the blank line, decides keep_alive,
 * chunked and body_allowed, and fills iov[0] (status line) and iov[1]
 * (header block). The iovecs point into head and buf: write them before
 * touching either again. Returns 0, RAPIER_HTTP_EBADVALUE (server), -ENOMEM
 * or RAPIER_HTTP_ETOOLARGE.
 */
int rapier_http_head_finish(rapier_http_head_t *head, const rapier_http_finish_t *in, struct iovec iov[2]);

/*
 * Chunked encoding, laid out for writev: [header][data][RAPIER_HTTP_CHUNK_TAIL],
 * and RAPIER_HTTP_LAST_CHUNK once at the end. Never encode an empty chunk:
 * a zero size is the end-of-body marker, so skip empty writes.
 */
#define RAPIER_HTTP_CHUNK_HEADER_MAX 18  /* 16 hex digits for a 64-bit size + CRLF */
#define RAPIER_HTTP_CHUNK_TAIL "\r\n"
#define RAPIER_HTTP_CHUNK_TAIL_LEN 2
#define RAPIER_HTTP_LAST_CHUNK "0\r\n\r\n"
#define RAPIER_HTTP_LAST_CHUNK_LEN 5
/* The last chunk when trailer fields follow it, then a blank line ends them. */
#define RAPIER_HTTP_LAST_CHUNK_HEAD "0\r\n"
#define RAPIER_HTTP_LAST_CHUNK_HEAD_LEN 3

/* Writes "<hex size>\r\n" for size > 0 and returns its length; returns 0 for size 0. */
size_t rapier_http_chunk_header(char out[RAPIER_HTTP_CHUNK_HEADER_MAX], uint64_t size);

/* Decimal digits of v into out (at least 20 bytes), no NUL; returns the count. */
size_t rapier_http_u64_to_dec(char *out, uint64_t v);

#endif
