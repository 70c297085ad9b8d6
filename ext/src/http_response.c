/*
 * Rapier HTTP response heads.
 *
 * The hot path (hello-JSON) must cost a few hundred nanoseconds, so a head is
 * two iovecs and no allocation: the status line of every registered code is a
 * precomputed static string ("HTTP/1.1 200 OK\r\n") and only a custom reason
 * is formatted, into the head struct itself; header lines are appended to a
 * per-connection buffer that keeps its capacity between responses; the Date
 * line comes from the once-per-second cache in http_date.c.
 *
 * Security: every name and value passes a byte table check before a single
 * byte is written, so a CR or LF from the application can never end a line
 * (no response splitting). Framing is computed here, never taken from the
 * application: Content-Length and Transfer-Encoding written by user code
 * could disagree with the body bytes and desynchronise a keep-alive
 * connection or a proxy in front of us.
 *
 * Rejected: a single contiguous buffer with the status line reserved at its
 * front (the status is often set after headers, and a reservation wastes a
 * copy); a header list kept as pointers until finish (extra pass, and the
 * PHP strings may not outlive the call).
 */
#include "http_response.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct {
	const char *line;
	const char *reason;
	unsigned char line_len;
} status_entry_t;

#define S(code, text) [code - 100] = { "HTTP/1.1 " #code " " text "\r\n", text, sizeof("HTTP/1.1 " #code " " text "\r\n") - 1 }

/* The IANA HTTP status code registry (RFC 9110 and friends), indexed by code - 100. */
static const status_entry_t status_table[500] = {
	S(100, "Continue"), S(101, "Switching Protocols"), S(102, "Processing"), S(103, "Early Hints"),
	S(200, "OK"), S(201, "Created"), S(202, "Accepted"), S(203, "Non-Authoritative Information"),
	S(204, "No Content"), S(205, "Reset Content"), S(206, "Partial Content"), S(207, "Multi-Status"),
	S(208, "Already Reported"), S(226, "IM Used"),
	S(300, "Multiple Choices"), S(301, "Moved Permanently"), S(302, "Found"), S(303, "See Other"),
	S(304, "Not Modified"), S(305, "Use Proxy"), S(307, "Temporary Redirect"), S(308, "Permanent Redirect"),
	S(400, "Bad Request"), S(401, "Unauthorized"), S(402, "Payment Required"), S(403, "Forbidden"),
	S(404, "Not Found"), S(405, "Method Not Allowed"), S(406, "Not Acceptable"),
	S(407, "Proxy Authentication Required"), S(408, "Request Timeout"), S(409, "Conflict"), S(410, "Gone"),
	S(411, "Length Required"), S(412, "Precondition Failed"), S(413, "Content Too Large"),
	S(414, "URI Too Long"), S(415, "Unsupported Media Type"), S(416, "Range Not Satisfiable"),
	S(417, "Expectation Failed"), S(418, "I'm a teapot"), S(421, "Misdirected Request"),
	S(422, "Unprocessable Content"), S(423, "Locked"), S(424, "Failed Dependency"), S(425, "Too Early"),
	S(426, "Upgrade Required"), S(428, "Precondition Required"), S(429, "Too Many Requests"),
	S(431, "Request Header Fields Too Large"), S(451, "Unavailable For Legal Reasons"),
	S(500, "Internal Server Error"), S(501, "Not Implemented"), S(502, "Bad Gateway"),
	S(503, "Service Unavailable"), S(504, "Gateway Timeout"), S(505, "HTTP Version Not Supported"),
	S(506, "Variant Also Negotiates"), S(507, "Insufficient Storage"), S(508, "Loop Detected"),
	S(510, "Not Extended"), S(511, "Network Authentication Required"),
};

#undef S

/* RFC 9110 tchar: "!#$%&'*+-.^_`|~", digits and letters. */
static const unsigned char token_table[256] = {
	['!'] = 1, ['#'] = 1, ['$'] = 1, ['%'] = 1, ['&'] = 1, ['\''] = 1, ['*'] = 1, ['+'] = 1, ['-'] = 1,
	['.'] = 1, ['^'] = 1, ['_'] = 1, ['`'] = 1, ['|'] = 1, ['~'] = 1,
	['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1,
	['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1, ['I'] = 1,
	['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1,
	['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1,
	['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1,
	['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1,
	['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1,
};

/* Field values and reasons: HTAB, SP, VCHAR and obs-text; every other control byte (CR, LF, NUL...) is refused. */
static inline bool text_byte_ok(unsigned char c)
{
	return (c >= 0x20 && c != 0x7f) || c == '\t';
}

void rapier_http_buf_init(rapier_http_buf_t *buf, char *storage, size_t cap, size_t max)
{
	buf->data = storage;
	buf->len = 0;
	buf->cap = storage ? cap : 0;
	buf->max = max ? max : RAPIER_HTTP_BUF_DEFAULT_MAX;
	/* The invariant len <= cap <= max holds from the start, even on larger caller storage. */
	if (buf->max < buf->cap) {
		buf->max = buf->cap;
	}
	buf->on_heap = false;
}

void rapier_http_buf_free(rapier_http_buf_t *buf)
{
	if (buf->on_heap) {
		free(buf->data);
	}
	buf->data = NULL;
	buf->len = buf->cap = 0;
	buf->on_heap = false;
}

int rapier_http_buf_reserve(rapier_http_buf_t *buf, size_t extra)
{
	if (extra <= buf->cap - buf->len) {
		return 0;
	}
	if (extra > buf->max - buf->len) {
		return RAPIER_HTTP_ETOOLARGE;
	}
	/* Doubling from 256 bytes: a typical head fits the first block, big bodies grow in few steps. */
	size_t cap = buf->cap ? buf->cap : (buf->max < 256 ? buf->max : 256);
	while (cap - buf->len < extra) {
		cap = cap > buf->max / 2 ? buf->max : cap * 2;
	}
	char *data;
	if (buf->on_heap) {
		data = realloc(buf->data, cap);
	} else {
		data = malloc(cap);
		if (data && buf->len) {
			memcpy(data, buf->data, buf->len);
		}
	}
	if (!data) {
		return -ENOMEM;
	}
	buf->data = data;
	buf->cap = cap;
	buf->on_heap = true;
	return 0;
}

int rapier_http_buf_reserve_output(rapier_http_buf_t *buf, size_t want)
{
	size_t left = buf->max - buf->len;

	if (left == 0) {
		return RAPIER_HTTP_ETOOLARGE;
	}
	return rapier_http_buf_reserve(buf, want < left ? want : left);
}

int rapier_http_buf_append(rapier_http_buf_t *buf, const void *data, size_t len)
{
	int rc = rapier_http_buf_reserve(buf, len);

	if (rc == 0 && len) {
		memcpy(buf->data + buf->len, data, len);
		buf->len += len;
	}
	return rc;
}

const char *rapier_http_reason(int status)
{
	if (status < 100 || status > 599) {
		return NULL;
	}
	return status_table[status - 100].reason;
}

bool rapier_http_header_name_valid(const char *name, size_t len)
{
	if (len == 0) {
		return false;
	}
	for (size_t i = 0; i < len; i++) {
		if (!token_table[(unsigned char) name[i]]) {
			return false;
		}
	}
	return true;
}

bool rapier_http_header_value_valid(const char *value, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (!text_byte_ok((unsigned char) value[i])) {
			return false;
		}
	}
	return true;
}

void rapier_http_trim_ows(const char **s, size_t *len)
{
	while (*len && (**s == ' ' || **s == '\t')) {
		(*s)++;
		(*len)--;
	}
	while (*len && ((*s)[*len - 1] == ' ' || (*s)[*len - 1] == '\t')) {
		(*len)--;
	}
}

void rapier_http_head_init(rapier_http_head_t *head, rapier_http_buf_t *buf)
{
	head->buf = buf;
	head->start = buf->len;
	head->status = 200;
	head->status_line = status_table[100].line;
	head->status_line_len = status_table[100].line_len;
	head->app_content_length = 0;
	head->has_app_content_length = false;
	head->app_close = false;
	head->has_date = false;
	head->has_server = false;
	head->trailers = NULL;
	head->keep_alive = false;
	head->chunked = false;
	head->body_allowed = true;
}

int rapier_http_head_set_status(rapier_http_head_t *head, int status, const char *reason, size_t reason_len)
{
	/* RFC 9110 15: values outside 100..599 are invalid, and clients treat them unpredictably. */
	if (status < 100 || status > 599) {
		return RAPIER_HTTP_EBADSTATUS;
	}
	const status_entry_t *entry = &status_table[status - 100];
	if (reason_len == 0 && entry->line) {
		head->status = status;
		head->status_line = entry->line;
		head->status_line_len = entry->line_len;
		return 0;
	}
	if (reason_len > RAPIER_HTTP_REASON_MAX || !rapier_http_header_value_valid(reason, reason_len)) {
		return RAPIER_HTTP_EBADREASON;
	}
	/* An unregistered code without a reason keeps the space: "HTTP/1.1 599 \r\n" is valid. */
	char *p = head->custom_line;
	memcpy(p, "HTTP/1.1 ", 9);
	p[9] = (char) ('0' + status / 100);
	p[10] = (char) ('0' + status / 10 % 10);
	p[11] = (char) ('0' + status % 10);
	p[12] = ' ';
	if (reason_len) {
		memcpy(p + 13, reason, reason_len);
	}
	memcpy(p + 13 + reason_len, "\r\n", 2);
	head->status = status;
	head->status_line = head->custom_line;
	head->status_line_len = 15 + reason_len;
	return 0;
}

static bool field_is(const char *name, size_t len, const char *lower, size_t lower_len)
{
	return len == lower_len && strncasecmp(name, lower, len) == 0;
}

/* A strict 1*DIGIT; refuses overflow, signs and spaces. */
static bool parse_length(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;

	if (len == 0 || len > 19) {
		return false;
	}
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9') {
			return false;
		}
		v = v * 10 + (uint64_t) (s[i] - '0');
	}
	*out = v;
	return true;
}

static bool has_close_token(const char *v, size_t len)
{
	size_t i = 0;

	while (i < len) {
		while (i < len && (v[i] == ' ' || v[i] == '\t' || v[i] == ',')) {
			i++;
		}
		size_t start = i;
		while (i < len && v[i] != ',' && v[i] != ' ' && v[i] != '\t') {
			i++;
		}
		if (i - start == 5 && strncasecmp(v + start, "close", 5) == 0) {
			return true;
		}
	}
	return false;
}

/* Returns 1 when the field was absorbed, 0 when it must be written, or an error. */
static int absorb_special(rapier_http_head_t *head, const char *name, size_t name_len, const char *value,
	size_t value_len)
{
	switch (name_len) {
		case 4:
			head->has_date |= field_is(name, name_len, "date", 4);
			return 0;
		case 6:
			head->has_server |= field_is(name, name_len, "server", 6);
			return 0;
		case 10:
			if (!field_is(name, name_len, "connection", 10)) {
				return 0;
			}
			head->app_close |= has_close_token(value, value_len);
			return 1;
		case 14:
			if (!field_is(name, name_len, "content-length", 14)) {
				return 0;
			}
			if (!parse_length(value, value_len, &head->app_content_length)) {
				return RAPIER_HTTP_EBADVALUE;
			}
			head->has_app_content_length = true;
			return 1;
		case 17:
			return field_is(name, name_len, "transfer-encoding", 17) ? 1 : 0;
		default:
			return 0;
	}
}

/* Trims the value's surrounding blanks and appends "name: value\r\n"; both already validated. */
static int append_field(rapier_http_buf_t *buf, const char *name, size_t name_len, const char *value, size_t value_len)
{
	int rc = rapier_http_buf_reserve(buf, name_len + value_len + 4);
	char *p;

	if (rc != 0) {
		return rc;
	}
	p = buf->data + buf->len;
	memcpy(p, name, name_len);
	p += name_len;
	*p++ = ':';
	*p++ = ' ';
	memcpy(p, value, value_len);
	p += value_len;
	*p++ = '\r';
	*p++ = '\n';
	buf->len = (size_t) (p - buf->data);
	return 0;
}

static void trim_value(const char **value, size_t *value_len)
{
	while (*value_len && ((*value)[0] == ' ' || (*value)[0] == '\t')) {
		(*value)++;
		(*value_len)--;
	}
	while (*value_len && ((*value)[*value_len - 1] == ' ' || (*value)[*value_len - 1] == '\t')) {
		(*value_len)--;
	}
}

int rapier_http_head_add(rapier_http_head_t *head, const char *name, size_t name_len, const char *value,
	size_t value_len)
{
	int rc;

	if (!rapier_http_header_name_valid(name, name_len)) {
		return RAPIER_HTTP_EBADNAME;
	}
	if (!rapier_http_header_value_valid(value, value_len)) {
		return RAPIER_HTTP_EBADVALUE;
	}
	trim_value(&value, &value_len);
	rc = absorb_special(head, name, name_len, value, value_len);
	if (rc != 0) {
		return rc < 0 ? rc : 0;
	}
	return append_field(head->buf, name, name_len, value, value_len);
}

/* RFC 9110 6.5.1: what a recipient must have before the body, or that would change how it is read. */
static bool trailer_forbidden(const char *name, size_t len)
{
	static const char *const names[] = {
		"authorization", "cache-control", "connection", "content-encoding", "content-length", "content-range",
		"content-type", "expect", "host", "keep-alive", "max-forwards", "pragma", "proxy-authenticate",
		"proxy-authorization", "proxy-connection", "range", "set-cookie", "te", "trailer", "transfer-encoding",
		"upgrade", "www-authenticate",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strlen(names[i]) == len && strncasecmp(names[i], name, len) == 0) {
			return true;
		}
	}
	return false;
}

int rapier_http_trailer_add(rapier_http_buf_t *buf, const char *name, size_t name_len, const char *value,
	size_t value_len)
{
	if (!rapier_http_header_name_valid(name, name_len)) {
		return RAPIER_HTTP_EBADNAME;
	}
	if (trailer_forbidden(name, name_len)) {
		return RAPIER_HTTP_ENOTRAILER;
	}
	if (!rapier_http_header_value_valid(value, value_len)) {
		return RAPIER_HTTP_EBADVALUE;
	}
	trim_value(&value, &value_len);
	return append_field(buf, name, name_len, value, value_len);
}

int rapier_http_head_add_line(rapier_http_head_t *head, const char *line, size_t len)
{
	return rapier_http_buf_append(head->buf, line, len);
}

/* Whether the header line at p (len bytes) is a field of that name. */
static bool line_is(const char *p, size_t len, const char *name, size_t name_len)
{
	return len > name_len && p[name_len] == ':' && strncasecmp(p, name, name_len) == 0;
}

int rapier_http_head_encoded(rapier_http_head_t *head)
{
	rapier_http_buf_t *buf = head->buf;
	size_t pos = head->start;

	while (pos < buf->len) {
		char *line = buf->data + pos;
		const char *lf = memchr(line, '\n', buf->len - pos);
		size_t len = lf ? (size_t) (lf - line) + 1 : buf->len - pos;
		size_t v = 5;

		if (line_is(line, len, "accept-ranges", 13)) {
			memmove(line, line + len, buf->len - pos - len);
			buf->len -= len;
			continue;
		}
		while (v < len && line[v] == ' ') {
			v++;
		}
		if (line_is(line, len, "etag", 4) && v < len && line[v] == '"') {
			int rc = rapier_http_buf_reserve(buf, 2);
			if (rc < 0) {
				return rc;
			}
			line = buf->data + pos;
			memmove(line + v + 2, line + v, buf->len - pos - v);
			memcpy(line + v, "W/", 2);
			buf->len += 2;
			len += 2;
		}
		pos += len;
	}
	return 0;
}

size_t rapier_http_u64_to_dec(char *out, uint64_t v)
{
	char tmp[20];
	size_t n = 0;

	do {
		tmp[n++] = (char) ('0' + v % 10);
		v /= 10;
	} while (v);
	for (size_t i = 0; i < n; i++) {
		out[i] = tmp[n - 1 - i];
	}
	return n;
}

static char *put(char *p, const char *s, size_t len)
{
	memcpy(p, s, len);
	return p + len;
}

/* Content-Length or Transfer-Encoding: decides chunked and may force a close (HTTP/1.0 streaming). */
static char *put_framing(rapier_http_head_t *head, const rapier_http_finish_t *in, char *p)
{
	int status = head->status;
	uint64_t length = in->content_length;

	/* 1xx, 204 and 304 never carry a body nor, for 1xx and 204, a length (RFC 9110 8.6). */
	if (status < 200 || status == 204 || status == 304) {
		return p;
	}
	if (in->head_request && head->has_app_content_length && (length == 0 || length == RAPIER_HTTP_LENGTH_UNKNOWN)) {
		length = head->app_content_length;
	}
	if (length != RAPIER_HTTP_LENGTH_UNKNOWN) {
		p = put(p, "Content-Length: ", 16);
		p += rapier_http_u64_to_dec(p, length);
		return put(p, "\r\n", 2);
	}
	if (in->head_request) {
		return p;
	}
	if (in->version_minor >= 1) {
		head->chunked = true;
		return put(p, "Transfer-Encoding: chunked\r\n", 28);
	}
	/* HTTP/1.0 has no chunked coding: the body runs until we close. */
	head->keep_alive = false;
	return p;
}

int rapier_http_head_finish(rapier_http_head_t *head, const rapier_http_finish_t *in, struct iovec iov[2])
{
	bool want_server = in->server && !head->has_server;
	bool want_date = in->date_line && !head->has_date;
	int status = head->status;

	if (want_server && !rapier_http_header_value_valid(in->server, in->server_len)) {
		return RAPIER_HTTP_EBADVALUE;
	}
	/* Upper bound of what follows: framing 48, Connection 24, Date, Server, blank line. */
	size_t need = 48 + 24 + RAPIER_HTTP_DATE_LINE_LEN + (want_server ? in->server_len + 10 : 0) + 2;
	int rc = rapier_http_buf_reserve(head->buf, need);
	if (rc != 0) {
		return rc;
	}
	head->keep_alive = in->request_keep_alive && !in->server_close && !head->app_close;
	head->chunked = false;
	head->body_allowed = !in->head_request && status >= 200 && status != 204 && status != 304;

	char *p = put_framing(head, in, head->buf->data + head->buf->len);
	if (!head->keep_alive) {
		p = put(p, "Connection: close\r\n", 19);
	} else if (in->version_minor == 0) {
		/* HTTP/1.0 closes by default: keeping the connection must be said. */
		p = put(p, "Connection: keep-alive\r\n", 24);
	}
	if (want_date) {
		p = put(p, in->date_line, RAPIER_HTTP_DATE_LINE_LEN);
	}
	if (want_server) {
		p = put(p, "Server: ", 8);
		p = put(p, in->server, in->server_len);
		p = put(p, "\r\n", 2);
	}
	p = put(p, "\r\n", 2);
	head->buf->len = (size_t) (p - head->buf->data);

	iov[0].iov_base = (void *) head->status_line;
	iov[0].iov_len = head->status_line_len;
	iov[1].iov_base = head->buf->data + head->start;
	iov[1].iov_len = head->buf->len - head->start;
	return 0;
}

size_t rapier_http_chunk_header(char out[RAPIER_HTTP_CHUNK_HEADER_MAX], uint64_t size)
{
	static const char hex[] = "0123456789abcdef";
	char tmp[16];
	size_t n = 0;

	if (size == 0) {
		return 0;
	}
	while (size) {
		tmp[n++] = hex[size & 0xf];
		size >>= 4;
	}
	for (size_t i = 0; i < n; i++) {
		out[i] = tmp[n - 1 - i];
	}
	out[n] = '\r';
	out[n + 1] = '\n';
	return n + 2;
}
