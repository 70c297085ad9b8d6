/*
 * HTTP/1.1 request codec over llhttp (Debian's node-llhttp 8.1, built in its
 * default loose mode with every lenient flag off). llhttp does the parsing;
 * this file adds limits, copies what it needs, and closes the gaps that a
 * server facing the internet must not leave open: llhttp 8.1 accepts obs-fold,
 * a bare LF ending the request line or the header block, a space inside a
 * header name, an empty name, HTTP/0.9 and HTTP/2.0 request lines, several
 * transfer codings before chunked, Transfer-Encoding in HTTP/1.0 and an empty
 * Transfer-Encoding, so those are checked here. The line-ending checks are a
 * byte scan of the head (and trailer) bytes llhttp consumed, not a parser.
 *
 * Data: one llhttp_t per connection; the request line and header strings are
 * copied into one arena (llhttp hands out spans of the caller's buffer, which
 * the caller reuses), the body into one buffer, both reused from request to
 * request and freed above a cap. llhttp is paused at message boundaries so
 * that pipelined requests come out one at a time.
 * Rejected: a picohttpparser-style whole-buffer reparse (llhttp is
 * incremental, so a slow client costs no rescans) and keeping spans into the
 * caller's buffer (it would pin the read buffer for the request's lifetime).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "http_parser.h"

/* Arena and body memory kept between requests: enough for a typical head and
 * a small form post; anything bigger is freed so that one large request does
 * not pin memory on a keep-alive connection that then goes idle. */
#define ARENA_MIN	1024
#define ARENA_KEEP	4096
#define BODY_MIN	4096
#define BODY_KEEP	(16 * 1024)
/* First size of the header array; it doubles up to max_header_count. */
#define HEADERS_MIN	16
/* Chunk extensions carry nothing we use; Node.js caps them at 16 KiB per
 * message since CVE-2024-22019 (endless extensions never reach the body
 * limit), and so do we. */
#define MAX_CHUNK_EXT	(16 * 1024)

enum { PHASE_HEAD, PHASE_BODY, PHASE_TRAILERS, PHASE_DONE };

/* Line scanner state over head and trailer bytes. */
#define SCAN_CR		0x1	/* the previous byte was CR */
#define SCAN_LINE_START	0x2	/* at the first byte of a line */
#define SCAN_SEEN_LINE	0x4	/* a non-empty line was seen (request line) */

static int fail(rapier_http_parser_t *p, int status, const char *reason)
{
	p->state = RAPIER_HTTP_ERROR;
	p->error_status = status;
	p->error_reason = reason;
	return HPE_USER;
}

static rapier_http_parser_t *parser_of(llhttp_t *h)
{
	return (rapier_http_parser_t *) h->data;
}

/* tchar from RFC 9110 5.6.2. */
static int is_tchar(unsigned char c)
{
	if ((c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z')) {
		return 1;
	}
	return c != 0 && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

static int is_ows(char c)
{
	return c == ' ' || c == '\t';
}

/* The arena moves when it grows: every pointer into it is rebased. */
static void arena_rebase(rapier_http_parser_t *p, char *mem)
{
	rapier_http_request_t *req = &p->req;

	if (req->target) {
		req->target = mem + (req->target - p->arena);
	}
	for (size_t i = 0; i < req->header_count; i++) {
		rapier_http_header_t *h = &req->headers[i];
		if (h->name) {
			h->name = mem + (h->name - p->arena);
		}
		if (h->value) {
			h->value = mem + (h->value - p->arena);
		}
	}
}

static int arena_reserve(rapier_http_parser_t *p, size_t n)
{
	size_t cap = p->arena_cap ? p->arena_cap : ARENA_MIN;
	char *mem;

	if (p->arena_cap - p->arena_len >= n) {
		return 0;
	}
	while (cap - p->arena_len < n) {
		cap *= 2;
	}
	mem = malloc(cap);
	if (mem == NULL) {
		return -1;
	}
	if (p->arena) {
		memcpy(mem, p->arena, p->arena_len);
		arena_rebase(p, mem);
		free(p->arena);
	}
	p->arena = mem;
	p->arena_cap = cap;
	return 0;
}

/* Appends n bytes, keeping room for the terminating NUL. */
static int arena_append(rapier_http_parser_t *p, const char *at, size_t n)
{
	if (arena_reserve(p, n + 1) != 0) {
		return fail(p, 500, "out of memory");
	}
	memcpy(p->arena + p->arena_len, at, n);
	p->arena_len += n;
	return 0;
}

static int arena_terminate(rapier_http_parser_t *p)
{
	if (arena_reserve(p, 1) != 0) {
		return fail(p, 500, "out of memory");
	}
	p->arena[p->arena_len++] = '\0';
	return 0;
}

static int on_url(llhttp_t *h, const char *at, size_t len)
{
	rapier_http_parser_t *p = parser_of(h);

	if (p->req.target_len + len > p->limits.max_url_size) {
		return fail(p, 414, "request target too long");
	}
	/* llhttp's loose URL table lets HT and FF through; a proxy that splits
	 * the request line on any whitespace would read another target. */
	for (size_t i = 0; i < len; i++) {
		if ((unsigned char) at[i] <= ' ' || at[i] == 0x7f) {
			return fail(p, 400, "control character in the request target");
		}
	}
	if (arena_append(p, at, len) != 0) {
		return HPE_USER;
	}
	p->req.target_len += len;
	p->req.target = p->arena + p->arena_len - p->req.target_len;
	return 0;
}

static int on_url_complete(llhttp_t *h)
{
	return arena_terminate(parser_of(h));
}

/* llhttp accepts 0.9 (no version at all) and 2.0; only 1.0 and 1.1 are ours. */
static int on_version_complete(llhttp_t *h)
{
	rapier_http_parser_t *p = parser_of(h);

	if (h->http_major != 1 || h->http_minor > 1) {
		return fail(p, 505, "unsupported HTTP version");
	}
	p->version_ok = 1;
	return 0;
}

static int start_header(rapier_http_parser_t *p)
{
	rapier_http_request_t *req = &p->req;

	if (req->header_count == p->limits.max_header_count) {
		return fail(p, 431, "too many header fields");
	}
	if (req->header_count == p->header_cap) {
		size_t cap = p->header_cap ? p->header_cap * 2 : HEADERS_MIN;
		void *mem;

		if (cap > p->limits.max_header_count) {
			cap = p->limits.max_header_count;
		}
		mem = realloc(req->headers, cap * sizeof(*req->headers));
		if (mem == NULL) {
			return fail(p, 500, "out of memory");
		}
		req->headers = mem;
		p->header_cap = cap;
	}
	memset(&req->headers[req->header_count++], 0, sizeof(*req->headers));
	return 0;
}


static int on_header_field(llhttp_t *h, const char *at, size_t len)
{
	rapier_http_parser_t *p = parser_of(h);
	rapier_http_header_t *hdr;

	if (p->phase == PHASE_TRAILERS) {
		/* Trailers are discarded (PHP has no place for them), only counted
		 * and checked like header names. */
		if (!p->in_field && ++p->trailer_count > p->limits.max_header_count) {
			return fail(p, 431, "too many trailer fields");
		}
		if (!p->in_field) {
			p->trailer_name_len = 0;
		}
		p->in_field = 1;
		for (size_t i = 0; i < len; i++) {
			if (!is_tchar((unsigned char) at[i])) {
				return fail(p, 400, "invalid character in trailer name");
			}
		}
		p->trailer_name_len += len;
		return 0;
	}
	if (!p->in_field) {
		/* An HTTP/0.9 request line has no version: llhttp goes on to headers. */
		if (h->http_major == 0) {
			return fail(p, 505, "unsupported HTTP version");
		}
		if (start_header(p) != 0) {
			return HPE_USER;
		}
		p->in_field = 1;
	}
	hdr = &p->req.headers[p->req.header_count - 1];
	if (arena_append(p, at, len) != 0) {
		return HPE_USER;
	}
	hdr->name_len += len;
	hdr->name = p->arena + p->arena_len - hdr->name_len;
	return 0;
}

/* llhttp lets "Host : x", "Ho st: x" and ": x" through; RFC 9112 5.1 wants 400. */
static int on_header_field_complete(llhttp_t *h)
{
	rapier_http_parser_t *p = parser_of(h);
	rapier_http_header_t *hdr;
	char *name;

	if (p->phase == PHASE_TRAILERS) {
		return p->trailer_name_len == 0 ? fail(p, 400, "empty trailer name") : 0;
	}
	hdr = &p->req.headers[p->req.header_count - 1];
	if (hdr->name_len == 0) {
		return fail(p, 400, "empty header name");
	}
	name = (char *) hdr->name;
	for (size_t i = 0; i < hdr->name_len; i++) {
		if (!is_tchar((unsigned char) name[i])) {
			return fail(p, 400, "invalid character in header name");
		}
		if (name[i] >= 'A' && name[i] <= 'Z') {
			name[i] |= 0x20;
		}
	}
	if (arena_terminate(p) != 0) {
		return HPE_USER;
	}
	hdr->value = p->arena + p->arena_len;
	return 0;
}

static int on_header_value(llhttp_t *h, const char *at, size_t len)
{
	rapier_http_parser_t *p = parser_of(h);
	rapier_http_header_t *hdr;

	p->in_field = 0;
	if (p->phase == PHASE_TRAILERS) {
		return 0;
	}
	hdr = &p->req.headers[p->req.header_count - 1];
	if (arena_append(p, at, len) != 0) {
		return HPE_USER;
	}
	hdr->value_len += len;
	return 0;
}

static int on_header_value_complete(llhttp_t *h)
{
	rapier_http_parser_t *p = parser_of(h);
	rapier_http_header_t *hdr;

	p->in_field = 0;
	if (p->phase == PHASE_TRAILERS) {
		return 0;
	}
	hdr = &p->req.headers[p->req.header_count - 1];
	while (hdr->value_len > 0 && is_ows(hdr->value[0])) {
		hdr->value++;
		hdr->value_len--;
	}
	while (hdr->value_len > 0 && is_ows(hdr->value[hdr->value_len - 1])) {
		hdr->value_len--;
	}
	/* Drop the stripped trailing OWS from the arena, then terminate. */
	p->arena_len = (size_t) (hdr->value - p->arena) + hdr->value_len;
	return arena_terminate(p);
}

static int name_is(const rapier_http_header_t *hdr, const char *lname, size_t len)
{
	return hdr->name_len == len && memcmp(hdr->name, lname, len) == 0;
}

/* Counts the transfer codings in one Transfer-Encoding value, and how many of
 * them are "chunked". Empty list elements are skipped (RFC 9110 5.6.1). */
static void count_codings(const char *v, size_t len, size_t *codings, size_t *chunked)
{
	size_t i = 0;

	while (i < len) {
		size_t start, end;

		while (i < len && (is_ows(v[i]) || v[i] == ',')) {
			i++;
		}
		start = i;
		while (i < len && v[i] != ',') {
			i++;
		}
		end = i;
		while (end > start && is_ows(v[end - 1])) {
			end--;
		}
		if (end > start) {
			(*codings)++;
			if (end - start == 7 && strncasecmp(v + start, "chunked", 7) == 0) {
				(*chunked)++;
			}
		}
	}
}

static int value_is(const rapier_http_header_t *hdr, const char *lvalue, size_t len)
{
	return hdr->value_len == len && strncasecmp(hdr->value, lvalue, len) == 0;
}

/* Framing and version rules llhttp 8.1 leaves to us (see the design note). */
static int check_headers(rapier_http_parser_t *p)
{
	llhttp_t *h = &p->llhttp;
	rapier_http_request_t *req = &p->req;
	size_t hosts = 0, te_fields = 0, codings = 0, chunked = 0;

	if (h->http_major != 1 || h->http_minor > 1) {
		return fail(p, 505, "unsupported HTTP version");
	}
	for (size_t i = 0; i < req->header_count; i++) {
		const rapier_http_header_t *hdr = &req->headers[i];

		if (name_is(hdr, "host", 4)) {
			hosts++;
		} else if (name_is(hdr, "transfer-encoding", 17)) {
			te_fields++;
			count_codings(hdr->value, hdr->value_len, &codings, &chunked);
		} else if (name_is(hdr, "expect", 6) && h->http_minor == 1) {
			/* RFC 9110 10.1.1: 100-continue is ignored from HTTP/1.0. */
			req->expect_continue = value_is(hdr, "100-continue", 12);
		}
	}
	/* RFC 9112 3.2: exactly one Host in HTTP/1.1, at most one before. */
	if (hosts > 1 || (hosts == 0 && h->http_minor == 1)) {
		return fail(p, 400, hosts ? "duplicate Host header" : "missing Host header");
	}
	if (te_fields > 0 || (h->flags & F_TRANSFER_ENCODING)) {
		/* RFC 9112 6.1: Transfer-Encoding in HTTP/1.0 means faulty framing. */
		if (h->http_minor == 0) {
			return fail(p, 400, "Transfer-Encoding in an HTTP/1.0 request");
		}
		/* RFC 9112 6.3: the length cannot be known unless chunked is last. */
		if (!(h->flags & F_CHUNKED) || chunked != 1) {
			return fail(p, 400, "Transfer-Encoding must end with one chunked");
		}
		/* RFC 9112 6.1: a transfer coding we cannot decode (gzip, chunked). */
		if (codings > 1) {
			return fail(p, 501, "unsupported transfer coding");
		}
	}
	/* llhttp ends a CONNECT request at its head: a body would be read as
	 * the next request, while a proxy in front skips it (RFC 9110 9.3.6:
	 * CONNECT has no content). */
	if (h->method == HTTP_CONNECT && (te_fields > 0 || ((h->flags & F_CONTENT_LENGTH) && h->content_length > 0))) {
		return fail(p, 400, "CONNECT with a body");
	}
	if ((h->flags & F_CONTENT_LENGTH) && h->content_length > p->limits.max_body_size) {
		return fail(p, 413, "request body too large");
	}
	return 0;
}

/* Splits origin-form "/p?q#f", absolute-form "http://a/p?q", "*" and
 * CONNECT's authority-form (empty path) into path and query. */
static void split_target(rapier_http_request_t *req)
{
	const char *t = req->target, *end = t + req->target_len;
	const char *path = t, *stop, *hash;

	if (req->method == HTTP_CONNECT) {
		path = end;
	} else if (t[0] != '/' && t[0] != '*') {
		const char *scheme = strstr(t, "://");

		path = scheme ? scheme + 3 : t;
		while (scheme && path < end && *path != '/' && *path != '?' && *path != '#') {
			path++;
		}
	}
	hash = memchr(path, '#', (size_t) (end - path));
	end = hash ? hash : end;
	stop = memchr(path, '?', (size_t) (end - path));
	req->path = path;
	req->path_len = (size_t) ((stop ? stop : end) - path);
	req->query = stop ? stop + 1 : end;
	req->query_len = stop ? (size_t) (end - stop - 1) : 0;
	if (req->path_len == 0 && req->method != HTTP_CONNECT) {
		req->path = "/";
		req->path_len = 1;
	}
}

static int on_headers_complete(llhttp_t *h)
{
	rapier_http_parser_t *p = parser_of(h);
	rapier_http_request_t *req = &p->req;

	if (check_headers(p) != 0) {
		return HPE_USER;
	}
	req->method = h->method;
	req->method_name = llhttp_method_name((llhttp_method_t) h->method);
	req->version_major = h->http_major;
	req->version_minor = h->http_minor;
	req->content_length = (h->flags & F_CONTENT_LENGTH) ? (int64_t) h->content_length : -1;
	req->chunked = (h->flags & F_CHUNKED) != 0;
	req->upgrade = h->upgrade != 0;
	req->keep_alive = llhttp_should_keep_alive(h) != 0;
	split_target(req);
	p->phase = PHASE_BODY;
	p->phase_bytes = 0;
	if (!req->chunked && req->content_length <= 0) {
		return 0;
	}
	/* A body follows: stop so the caller can answer 100 Continue, set a
	 * sink or reject before any of it is read. */
	p->state = RAPIER_HTTP_HEADERS_COMPLETE;
	return HPE_PAUSED;
}

static int body_append(rapier_http_parser_t *p, const char *at, size_t len)
{
	rapier_http_request_t *req = &p->req;
	size_t need = req->body_len + len;

	if (need > p->body_cap) {
		size_t cap = p->body_cap ? p->body_cap : BODY_MIN;
		char *mem;

		/* A declared length is allocated once, exactly (it is <= the limit). */
		if (req->content_length > 0 && (size_t) req->content_length > cap) {
			cap = (size_t) req->content_length;
		}
		while (cap < need) {
			cap *= 2;
		}
		if (cap > p->limits.max_body_size && need <= p->limits.max_body_size) {
			cap = p->limits.max_body_size;
		}
		mem = realloc(p->body_buf, cap);
		if (mem == NULL) {
			return fail(p, 500, "out of memory");
		}
		p->body_buf = mem;
		p->body_cap = cap;
	}
	memcpy(p->body_buf + req->body_len, at, len);
	req->body = p->body_buf;
	req->body_len = need;
	return 0;
}

/* Checks the CRLF after chunk data from 'from' on, as far as this step's
 * bytes go; the rest is checked at the start of the next step. */
static int check_data_crlf(rapier_http_parser_t *p, const char *from)
{
	while (p->crlf_pending > 0 && from < p->step_end) {
		if (*from++ != "\r\n"[2 - p->crlf_pending]) {
			return fail(p, 400, "chunk data not followed by CRLF");
		}
		p->crlf_pending--;
	}
	return 0;
}

/* Chunk framing (size lines, extensions, the CRLF after data) between
 * from and to: CR only before LF. llhttp 8.1's loose mode takes any byte
 * after the CR that ends a chunk-size line (chunk_size_almost_done). */
static int scan_framing(rapier_http_parser_t *p, const char *from, const char *to)
{
	for (; from < to; from++) {
		if (p->framing_cr && *from != '\n') {
			return fail(p, 400, "bare CR in chunk framing");
		}
		p->framing_cr = *from == '\r';
	}
	return 0;
}

static int on_body(llhttp_t *h, const char *at, size_t len)
{
	rapier_http_parser_t *p = parser_of(h);
	int status;

	if (p->req.chunked) {
		if (scan_framing(p, p->framing_from, at) != 0) {
			return HPE_USER;
		}
		p->framing_from = at + len;
	}

	/* llhttp 8.1's loose mode skips the two bytes after a chunk's data
	 * without looking at them (chunk_data_almost_done). */
	if (p->req.chunked && h->content_length == 0) {
		p->crlf_pending = 2;
		if (check_data_crlf(p, at + len) != 0) {
			return HPE_USER;
		}
	}

	if (p->req.body_received > p->max_body_size || len > p->max_body_size - p->req.body_received) {
		return fail(p, 413, "request body too large");
	}
	p->req.body_received += len;
	if (p->sink == NULL) {
		return body_append(p, at, len);
	}
	status = p->sink(p->sink_data, at, len);
	if (status != 0) {
		return fail(p, status, "body sink refused the body");
	}
	return 0;
}

static int on_chunk_header(llhttp_t *h)
{
	rapier_http_parser_t *p = parser_of(h);

	/* A chunk that cannot fit is refused before its bytes are read. */
	if (p->req.body_received > p->max_body_size || h->content_length > p->max_body_size - p->req.body_received) {
		return fail(p, 413, "request body too large");
	}
	p->chunk_count++;
	if (h->content_length > 0) {
		return 0;
	}
	/* The last chunk: pause so the trailer section gets its own byte
	 * budget and line scan from exactly here. */
	p->phase = PHASE_TRAILERS;
	p->phase_bytes = 0;
	p->scan_flags = SCAN_LINE_START | SCAN_SEEN_LINE;
	p->in_field = 0;
	return HPE_PAUSED;
}

static int on_message_complete(llhttp_t *h)
{
	rapier_http_parser_t *p = parser_of(h);

	p->phase = PHASE_DONE;
	p->state = RAPIER_HTTP_MESSAGE_COMPLETE;
	return HPE_PAUSED;
}

static const llhttp_settings_t settings = {
	.on_url = on_url,
	.on_url_complete = on_url_complete,
	.on_version_complete = on_version_complete,
	.on_header_field = on_header_field,
	.on_header_field_complete = on_header_field_complete,
	.on_header_value = on_header_value,
	.on_header_value_complete = on_header_value_complete,
	.on_headers_complete = on_headers_complete,
	.on_body = on_body,
	.on_chunk_header = on_chunk_header,
	.on_message_complete = on_message_complete,
};

/* Line endings in the head and trailers: CR must be followed by LF, LF must
 * follow CR, and no line after the request line may start with SP or HT
 * (obs-fold). Returns 0 or -1. */
static int scan_lines(rapier_http_parser_t *p, const char *buf, size_t len)
{
	unsigned char f = p->scan_flags;

	for (size_t i = 0; i < len; i++) {
		char c = buf[i];

		if (f & SCAN_CR) {
			if (c != '\n') {
				return -1;
			}
			f = (f & ~SCAN_CR) | SCAN_LINE_START;
		} else if (c == '\r') {
			f |= SCAN_CR;
		} else if (c == '\n' || c == '\0') {
			return -1;
		} else if (f & SCAN_LINE_START) {
			if (is_ows(c) && (f & SCAN_SEEN_LINE)) {
				return -1;
			}
			f = (f & ~SCAN_LINE_START) | SCAN_SEEN_LINE;
		}
	}
	p->scan_flags = f;
	return 0;
}

/* Status for an error llhttp found by itself. */
static int llhttp_failure(rapier_http_parser_t *p, llhttp_errno_t err, const char *at)
{
	switch (err) {
	case HPE_INVALID_VERSION:
		/* After a good version, llhttp reports a bad line end the same way. */
		if (p->version_ok) {
			return fail(p, 400, "malformed request line");
		}
		return fail(p, 505, "unsupported HTTP version");
	case HPE_INVALID_METHOD:
		/* A token llhttp does not know is a method we do not implement
		 * (RFC 9110 9.1); anything else (TLS, binary) is not HTTP. */
		if (is_tchar((unsigned char) *at)) {
			return fail(p, 501, "unknown method");
		}
		return fail(p, 400, "invalid method");
	case HPE_INVALID_TRANSFER_ENCODING:
		return fail(p, 400, "invalid Transfer-Encoding");
	case HPE_UNEXPECTED_CONTENT_LENGTH:
	case HPE_INVALID_CONTENT_LENGTH:
		return fail(p, 400, "invalid Content-Length");
	case HPE_INVALID_CHUNK_SIZE:
	case HPE_STRICT:
		return fail(p, 400, "invalid chunked encoding");
	default:
		return fail(p, 400, "malformed request");
	}
}

/* After each run of chunked body bytes: the bytes that were not body (chunk
 * lines, extensions, CRLFs) must stay small. llhttp bounds neither leading
 * zeros in a chunk size nor the extensions, so this is the only cap on them.
 * 16 KiB is Node.js' extension cap (CVE-2024-22019); 64 bytes per chunk
 * covers "ffffffffffffffff\r\n" plus the data CRLF (20) with room to spare. */
#define CHUNK_FRAMING_BASE	(16 * 1024)
#define CHUNK_FRAMING_PER_CHUNK	64

static int check_framing(rapier_http_parser_t *p)
{
	uint64_t framing = p->body_wire - p->req.body_received;
	uint64_t allowed = CHUNK_FRAMING_BASE + CHUNK_FRAMING_PER_CHUNK * (uint64_t) p->chunk_count;

	if (p->req.chunked && framing > allowed) {
		fail(p, 400, "chunk framing too long");
		return -1;
	}
	return 0;
}

/* Accounts for the bytes llhttp consumed in the phase the step began in. */
static int account(rapier_http_parser_t *p, int phase, const char *buf, size_t used, int paused)
{
	if (phase == PHASE_BODY) {
		p->body_wire += used;
		if (p->req.chunked && scan_framing(p, p->framing_from, buf + used) != 0) {
			return -1;
		}
		return check_framing(p);
	}
	if (phase != PHASE_HEAD && phase != PHASE_TRAILERS) {
		return 0;
	}
	if (scan_lines(p, buf, used) != 0) {
		fail(p, 400, phase == PHASE_HEAD ? "bare CR or LF, NUL or obs-fold in the header"
			: "bare CR or LF, NUL or obs-fold in the trailer");
		return -1;
	}
	p->phase_bytes += used;
	/* The step was cut at the budget and the section has not ended. */
	if (!paused && p->phase_bytes == p->limits.max_header_size) {
		fail(p, 431, phase == PHASE_HEAD ? "request header too large" : "trailer section too large");
		return -1;
	}
	return 0;
}

/* One llhttp_execute() over at most the phase's remaining byte budget. */
static ssize_t execute_step(rapier_http_parser_t *p, const char *buf, size_t len)
{
	int phase = p->phase;
	size_t n = len, used;
	llhttp_errno_t err;

	if (phase == PHASE_HEAD || phase == PHASE_TRAILERS) {
		size_t budget = p->limits.max_header_size - p->phase_bytes;
		n = n < budget ? n : budget;
	}
	p->step_end = buf + n;
	p->framing_from = buf;
	if (p->crlf_pending > 0 && check_data_crlf(p, buf) != 0) {
		return -1;
	}
	err = llhttp_execute(&p->llhttp, buf, n);
	used = err == HPE_OK ? n : (size_t) (llhttp_get_error_pos(&p->llhttp) - buf);
	if (err == HPE_PAUSED_UPGRADE) {
		/* The caller fed on after an upgrade request: it stays HTTP. */
		llhttp_resume_after_upgrade(&p->llhttp);
		return (ssize_t) used;
	}
	if (err != HPE_OK && err != HPE_PAUSED) {
		/* A line-ending fault before the error position came first. */
		if ((phase == PHASE_HEAD || phase == PHASE_TRAILERS) && scan_lines(p, buf, used) != 0) {
			fail(p, 400, "bare CR or LF, NUL or obs-fold in the header");
		} else if (p->state != RAPIER_HTTP_ERROR) {
			/* Not one of our callbacks (llhttp wraps their HPE_USER in
			 * HPE_CB_* codes): llhttp found the fault itself. */
			llhttp_failure(p, err, buf + used);
		}
		return -1;
	}
	if (err == HPE_PAUSED) {
		/* Resume now: the next execute continues where this one stopped. */
		llhttp_resume(&p->llhttp);
	}
	if (account(p, phase, buf, used, err == HPE_PAUSED) != 0) {
		return -1;
	}
	return (ssize_t) used;
}

static void next_message(rapier_http_parser_t *p)
{
	rapier_http_header_t *headers = p->req.headers;

	if (p->arena_cap > ARENA_KEEP) {
		free(p->arena);
		p->arena = NULL;
		p->arena_cap = 0;
	}
	if (p->body_cap > BODY_KEEP) {
		free(p->body_buf);
		p->body_buf = NULL;
		p->body_cap = 0;
	}
	p->arena_len = 0;
	memset(&p->req, 0, sizeof(p->req));
	p->req.headers = headers;
	p->req.content_length = -1;
	p->phase = PHASE_HEAD;
	p->phase_bytes = 0;
	p->body_wire = 0;
	p->chunk_count = 0;
	p->trailer_count = 0;
	p->scan_flags = SCAN_LINE_START;
	p->in_field = 0;
	p->version_ok = 0;
	p->crlf_pending = 0;
	p->framing_cr = 0;
	p->sink = NULL;
	p->sink_data = NULL;
	p->max_body_size = p->limits.max_body_size;
}

void rapier_http_limits_default(rapier_http_limits_t *limits)
{
	limits->max_header_size = RAPIER_HTTP_DEFAULT_MAX_HEADER_SIZE;
	limits->max_header_count = RAPIER_HTTP_DEFAULT_MAX_HEADER_COUNT;
	limits->max_url_size = RAPIER_HTTP_DEFAULT_MAX_URL_SIZE;
	limits->max_body_size = RAPIER_HTTP_DEFAULT_MAX_BODY_SIZE;
}

int rapier_http_parser_init(rapier_http_parser_t *p, const rapier_http_limits_t *limits)
{
	rapier_http_limits_t defaults;

	if (limits == NULL) {
		rapier_http_limits_default(&defaults);
		limits = &defaults;
	}
	if (limits->max_header_size == 0 || limits->max_header_count == 0 || limits->max_url_size == 0
			|| limits->max_url_size > limits->max_header_size) {
		return -1;
	}
	memset(p, 0, sizeof(*p));
	p->limits = *limits;
	llhttp_init(&p->llhttp, HTTP_REQUEST, &settings);
	p->llhttp.data = p;
	/* Off already after llhttp_init; spelled out because each one reopens
	 * a smuggling or cache-poisoning hole. */
	llhttp_set_lenient_headers(&p->llhttp, 0);
	llhttp_set_lenient_chunked_length(&p->llhttp, 0);
	llhttp_set_lenient_keep_alive(&p->llhttp, 0);
	llhttp_set_lenient_transfer_encoding(&p->llhttp, 0);
	next_message(p);
	return 0;
}

void rapier_http_parser_free(rapier_http_parser_t *p)
{
	free(p->arena);
	free(p->body_buf);
	free(p->req.headers);
	p->arena = NULL;
	p->body_buf = NULL;
	p->req.headers = NULL;
	p->arena_cap = p->body_cap = p->header_cap = 0;
}

ssize_t rapier_http_parser_feed(rapier_http_parser_t *p, const char *buf, size_t len)
{
	size_t off = 0;
	int stalled = 0;

	if (p->state == RAPIER_HTTP_ERROR) {
		return -1;
	}
	if (p->state == RAPIER_HTTP_MESSAGE_COMPLETE) {
		if (!p->req.keep_alive) {
			return (ssize_t) len;	/* after Connection: close, as llhttp does */
		}
		next_message(p);
	}
	p->state = RAPIER_HTTP_NEED_MORE;
	while (off < len && p->state == RAPIER_HTTP_NEED_MORE) {
		ssize_t n = execute_step(p, buf + off, len - off);

		if (n < 0) {
			return -1;
		}
		/* Only the upgrade resume consumes nothing, and only once. */
		if (n == 0 && ++stalled > 2) {
			fail(p, 500, "parser made no progress");
			return -1;
		}
		off += (size_t) n;
	}
	return (ssize_t) off;
}

int rapier_http_parser_eof(rapier_http_parser_t *p)
{
	if (p->state == RAPIER_HTTP_ERROR) {
		return -1;
	}
	if (p->state == RAPIER_HTTP_MESSAGE_COMPLETE
			|| (p->phase == PHASE_HEAD && p->phase_bytes == 0)) {
		return 0;
	}
	fail(p, 400, "truncated request");
	return -1;
}

void rapier_http_parser_set_body_sink(rapier_http_parser_t *p, rapier_http_body_sink_t sink, void *data)
{
	if (p->state == RAPIER_HTTP_HEADERS_COMPLETE || p->sink != NULL) {
		p->sink = sink;
		p->sink_data = data;
	}
}

void rapier_http_parser_set_max_body_size(rapier_http_parser_t *p, size_t max_body_size)
{
	if (p->sink != NULL) {
		p->max_body_size = max_body_size;
	}
}

const char *rapier_http_request_header(const rapier_http_request_t *req, const char *lname, size_t *len)
{
	size_t n = strlen(lname);

	for (size_t i = 0; i < req->header_count; i++) {
		if (name_is(&req->headers[i], lname, n)) {
			if (len) {
				*len = req->headers[i].value_len;
			}
			return req->headers[i].value;
		}
	}
	return NULL;
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9') {
		return c - '0';
	}
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int rapier_http_decode_path(const char *in, size_t len, char *out, size_t *out_len)
{
	size_t o = 0;

	for (size_t i = 0; i < len; i++) {
		char c = in[i];

		if (c == '%') {
			int hi, lo;

			if (len - i < 3 || (hi = hex_value(in[i + 1])) < 0 || (lo = hex_value(in[i + 2])) < 0) {
				return -1;
			}
			c = (char) (hi << 4 | lo);
			i += 2;
		}
		/* A NUL would cut the path short in every C string API behind us. */
		if (c == '\0') {
			return -1;
		}
		out[o++] = c;
	}
	*out_len = o;
	return 0;
}

/* RFC 6265 5.4 as browsers and PHP read it: pairs split on ';', OWS trimmed,
 * the name ends at the first '=', a pair without '=' is a name with an empty
 * value, and pairs with an empty name are skipped (PHP drops them too). */
int rapier_http_cookie_next(const char **cursor, const char *end, rapier_http_cookie_t *out)
{
	const char *p = *cursor;

	while (p < end) {
		const char *semi = memchr(p, ';', (size_t) (end - p));
		const char *a = p, *b = semi ? semi : end, *eq, *name_end;

		p = semi ? semi + 1 : end;
		while (a < b && is_ows(*a)) {
			a++;
		}
		while (b > a && is_ows(b[-1])) {
			b--;
		}
		eq = memchr(a, '=', (size_t) (b - a));
		name_end = eq ? eq : b;
		while (name_end > a && is_ows(name_end[-1])) {
			name_end--;
		}
		if (name_end == a) {
			continue;
		}
		out->name = a;
		out->name_len = (size_t) (name_end - a);
		out->value = eq ? eq + 1 : b;
		while (out->value < b && is_ows(*out->value)) {
			out->value++;
		}
		out->value_len = (size_t) (b - out->value);
		*cursor = p;
		return 1;
	}
	*cursor = end;
	return 0;
}
