/*
 * A strict recognizer of one HTTP/1.1 request, written from RFC 9112 for
 * http_parser_fuzz.c: whatever the codec accepts must be a request this
 * grammar accepts too, with the same target, the same header fields and the
 * same body. It is the oracle against request smuggling: a codec that lets
 * through framing a proxy in front may read differently (two bytes that are
 * not CRLF after chunk data, a tab inside the target) fails here even when
 * every run agrees with every other.
 *
 * It allows exactly the leniencies docs/http-parsing.md documents: empty
 * lines before the request line, several SP between the parts of the
 * request line (RFC 9112 3), obs-text in the target and in values, and any
 * chunk extension without control characters. It is a plain recursive
 * walk over the bytes, with no state across calls: slow and obviously
 * right is what an oracle needs.
 */
#ifndef RAPIER_STRICT_HTTP_H
#define RAPIER_STRICT_HTTP_H

#include <stdint.h>
#include <string.h>
#include <strings.h>

typedef struct {
	const char *p;
	const char *end;
} strict_t;

static int strict_tchar(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		|| (c != 0 && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

/* VCHAR or obs-text (RFC 9110 5.5). */
static int strict_visible(unsigned char c)
{
	return c > 0x20 && c != 0x7f;
}

static int strict_crlf(strict_t *s)
{
	if (s->end - s->p < 2 || s->p[0] != '\r' || s->p[1] != '\n') {
		return 0;
	}
	s->p += 2;
	return 1;
}

/* 1*c, returns the run's length. */
static size_t strict_run(strict_t *s, int (*ok)(unsigned char))
{
	const char *start = s->p;

	while (s->p < s->end && ok((unsigned char) *s->p)) {
		s->p++;
	}
	return (size_t) (s->p - start);
}

static int strict_sp(unsigned char c)
{
	return c == ' ';
}

static int strict_ows(unsigned char c)
{
	return c == ' ' || c == '\t';
}

static int strict_value_char(unsigned char c)
{
	return strict_visible(c) || strict_ows(c);
}

/* request-line = method 1*SP request-target 1*SP HTTP-version CRLF */
static int strict_request_line(strict_t *s, const char *method, const char *target, size_t target_len, int minor)
{
	const char *m = s->p, *t;
	char version[9];

	while (strict_crlf(s)) {
		m = s->p;
	}
	if (strict_run(s, strict_tchar) != strlen(method) || memcmp(m, method, strlen(method)) != 0
			|| strict_run(s, strict_sp) == 0) {
		return 0;
	}
	t = s->p;
	if (strict_run(s, strict_visible) != target_len || memcmp(t, target, target_len) != 0
			|| strict_run(s, strict_sp) == 0) {
		return 0;
	}
	snprintf(version, sizeof(version), "HTTP/1.%d", minor);
	if (s->end - s->p < 8 || memcmp(s->p, version, 8) != 0) {
		return 0;
	}
	s->p += 8;
	return strict_crlf(s);
}

/* field-line = field-name ":" OWS field-value OWS CRLF; NULL name: only checked. */
static int strict_field_line(strict_t *s, const char *name, const char *value, size_t value_len)
{
	const char *n = s->p, *v;
	size_t name_len = strict_run(s, strict_tchar), len;

	if (name_len == 0 || s->p == s->end || *s->p != ':') {
		return 0;
	}
	s->p++;
	strict_run(s, strict_ows);
	v = s->p;
	len = strict_run(s, strict_value_char);
	while (len > 0 && strict_ows((unsigned char) v[len - 1])) {
		len--;
	}
	if (!strict_crlf(s)) {
		return 0;
	}
	if (name == NULL) {
		return 1;
	}
	return name_len == strlen(name) && strncasecmp(n, name, name_len) == 0
		&& len == value_len && memcmp(v, value, len) == 0;
}

static int strict_hex(unsigned char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

static int strict_ext_char(unsigned char c)
{
	return strict_visible(c) || strict_ows(c);
}

/*
 * chunked-body = *chunk last-chunk trailer-section CRLF, with
 * chunk = chunk-size [ ";" ext ] CRLF chunk-data CRLF. The decoded data is
 * compared with body (NULL when it went to a sink: then only its length).
 */
static int strict_chunked(strict_t *s, const char *body, uint64_t body_len)
{
	uint64_t total = 0;

	for (;;) {
		const char *size = s->p;
		size_t digits = strict_run(s, strict_hex);
		uint64_t n = 0;

		if (digits == 0) {
			return 0;
		}
		for (const char *d = size; d < size + digits; d++) {
			if (n >> 60) {
				return 0;
			}
			n = n << 4 | (uint64_t) (*d <= '9' ? *d - '0' : (*d | 0x20) - 'a' + 10);
		}
		if (s->p < s->end && *s->p == ';') {
			strict_run(s, strict_ext_char);
		}
		if (!strict_crlf(s)) {
			return 0;
		}
		if (n == 0) {
			break;
		}
		if ((uint64_t) (s->end - s->p) < n || total + n > body_len
				|| (body && memcmp(s->p, body + total, n) != 0)) {
			return 0;
		}
		s->p += n;
		total += n;
		if (!strict_crlf(s)) {
			return 0;
		}
	}
	while (!strict_crlf(s)) {
		if (!strict_field_line(s, NULL, NULL, 0)) {
			return 0;
		}
	}
	return total == body_len;
}

#endif
