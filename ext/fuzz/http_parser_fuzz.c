/*
 * libFuzzer driver for the HTTP/1.1 request codec (src/http_parser.c over
 * llhttp): request line, headers, Content-Length and chunked bodies,
 * trailers, the limits, pipelining; and, on every request that comes out,
 * the helpers the server applies to it (path decoding, Cookie pairs,
 * header lookup).
 *
 * Input: byte 0 picks the limits (bits 0-1: defaults, small, tiny, medium)
 * and the body handling (bit 2: a body sink instead of the buffer; bit 3:
 * that sink refuses the body with 507 past 16 bytes); byte 1 seeds the read
 * sizes (fuzz.h); the rest is what the client sent. The bytes are fed as
 * the server feeds them: the unconsumed rest again after each stop, nothing
 * after a request that is not keep-alive, then end of stream.
 *
 * Beyond "no crash", every request must satisfy what docs/http-parsing.md
 * promises (one Host in HTTP/1.1, never Content-Length with
 * Transfer-Encoding, names lower-case tokens, no CR, LF or NUL in values,
 * limits kept...), the bytes it was parsed from must be a valid request to
 * the strict grammar of strict_http.h with the same target, fields and
 * body, and the three runs must agree on every request and on whether and
 * where the stream is refused.
 */
#include <string.h>

#include "fuzz.h"
#include "http_parser.c"
#include "strict_http.h"

/* Small, so that the refusal falls in the middle of most bodies. */
#define SINK_REFUSE_AFTER 16

/* The defaults need inputs far longer than the fuzzer makes to reach a
 * limit; the others put every limit within reach of a few hundred bytes. */
static const rapier_http_limits_t profiles[4] = {
	{ RAPIER_HTTP_DEFAULT_MAX_HEADER_SIZE, RAPIER_HTTP_DEFAULT_MAX_HEADER_COUNT,
		RAPIER_HTTP_DEFAULT_MAX_URL_SIZE, RAPIER_HTTP_DEFAULT_MAX_BODY_SIZE },
	{ 256, 4, 64, 64 },
	/* The smallest head that still holds "GET / HTTP/1.1" and a Host; no body at all. */
	{ 32, 2, 8, 0 },
	{ 1024, 16, 512, 4096 },
};

typedef struct {
	int refuse;
	uint64_t bytes;
	uint64_t digest;
} sink_t;

static int on_sink(void *data, const char *buf, size_t len)
{
	sink_t *s = data;

	if (s->refuse && s->bytes + len > SINK_REFUSE_AFTER) {
		return 507;
	}
	s->bytes += len;
	fuzz_digest(&s->digest, buf, len);
	return 0;
}

static int inside(const rapier_http_request_t *r, const char *p, size_t len)
{
	return p >= r->target && p + len <= r->target + r->target_len;
}

/* Path decoding as the server does it, into a copy and in place: same result. */
static void check_path(const rapier_http_request_t *r, uint64_t *h)
{
	char *out = malloc(r->path_len + 1), *inplace = malloc(r->path_len + 1);
	size_t out_len = 0, inplace_len = 0;
	int rc, rc2;

	memcpy(inplace, r->path, r->path_len);
	rc = rapier_http_decode_path(r->path, r->path_len, out, &out_len);
	rc2 = rapier_http_decode_path(inplace, r->path_len, inplace, &inplace_len);
	FUZZ_CHECK(rc == rc2);
	if (rc == 0) {
		FUZZ_CHECK(out_len <= r->path_len && out_len == inplace_len);
		FUZZ_CHECK(memcmp(out, inplace, out_len) == 0);
		FUZZ_CHECK(memchr(out, '\0', out_len) == NULL);
		fuzz_digest(h, out, out_len);
	}
	fuzz_digest_u64(h, (uint64_t) rc);
	free(out);
	free(inplace);
}

static void check_cookies(const rapier_http_header_t *hdr, uint64_t *h)
{
	const char *cursor = hdr->value, *end = hdr->value + hdr->value_len;
	rapier_http_cookie_t c;
	size_t pairs = 0;

	while (rapier_http_cookie_next(&cursor, end, &c) == 1) {
		FUZZ_CHECK(c.name >= hdr->value && c.name + c.name_len <= end && c.name_len > 0);
		FUZZ_CHECK(c.value >= c.name + c.name_len && c.value + c.value_len <= end);
		FUZZ_CHECK(memchr(c.name, ';', c.name_len) == NULL && memchr(c.value, ';', c.value_len) == NULL);
		FUZZ_CHECK(!is_ows(c.name[0]) && !is_ows(c.name[c.name_len - 1]));
		FUZZ_CHECK(cursor > c.name && cursor <= end);
		FUZZ_CHECK(++pairs <= hdr->value_len);
		fuzz_digest(h, c.name, c.name_len);
		fuzz_digest(h, c.value, c.value_len);
	}
	FUZZ_CHECK(cursor == end);
}

/* One header field; counts the framing fields. */
static void check_header(const rapier_http_header_t *hdr, size_t counts[3], uint64_t *h)
{
	FUZZ_CHECK(hdr->name_len > 0 && strlen(hdr->name) == hdr->name_len);
	FUZZ_CHECK(strlen(hdr->value) == hdr->value_len);
	for (size_t i = 0; i < hdr->name_len; i++) {
		FUZZ_CHECK(is_tchar((unsigned char) hdr->name[i]) && !(hdr->name[i] >= 'A' && hdr->name[i] <= 'Z'));
	}
	FUZZ_CHECK(memchr(hdr->value, '\r', hdr->value_len) == NULL && memchr(hdr->value, '\n', hdr->value_len) == NULL);
	FUZZ_CHECK(hdr->value_len == 0 || (!is_ows(hdr->value[0]) && !is_ows(hdr->value[hdr->value_len - 1])));
	counts[0] += name_is(hdr, "host", 4);
	counts[1] += name_is(hdr, "content-length", 14);
	counts[2] += name_is(hdr, "transfer-encoding", 17);
	if (name_is(hdr, "cookie", 6)) {
		check_cookies(hdr, h);
	}
	fuzz_digest(h, hdr->name, hdr->name_len + 1);
	fuzz_digest(h, hdr->value, hdr->value_len + 1);
}

/* The framing promises of docs/http-parsing.md ("Rejected"). */
static void check_smuggling(const rapier_http_request_t *r, const rapier_http_limits_t *limits, const size_t counts[3])
{
	size_t hosts = counts[0], lengths = counts[1], codings = counts[2];

	FUZZ_CHECK(hosts == 1 || (hosts == 0 && r->version_minor == 0));
	FUZZ_CHECK(lengths <= 1 && !(lengths && codings));
	FUZZ_CHECK((lengths == 1) == (r->content_length >= 0));
	FUZZ_CHECK(r->chunked == (codings > 0) && (!r->chunked || r->version_minor == 1));
	FUZZ_CHECK(r->body_received <= limits->max_body_size);
	FUZZ_CHECK(r->content_length < 0 || (uint64_t) r->content_length == r->body_received);
	FUZZ_CHECK(r->chunked || r->content_length > 0 || r->body_received == 0);
}

static void check_request(const rapier_http_parser_t *p, const sink_t *sink, uint64_t *h)
{
	const rapier_http_request_t *r = &p->req;
	size_t counts[3] = { 0, 0, 0 }, len;

	FUZZ_CHECK(r->method_name != NULL && r->target != NULL && r->target_len > 0);
	FUZZ_CHECK(r->target_len <= p->limits.max_url_size && r->target[r->target_len] == '\0');
	FUZZ_CHECK(memchr(r->target, '\0', r->target_len) == NULL);
	FUZZ_CHECK(inside(r, r->path, r->path_len) || (r->path_len == 1 && r->path[0] == '/')
		|| (r->method == HTTP_CONNECT && r->path_len == 0));
	FUZZ_CHECK(r->query_len == 0 || inside(r, r->query, r->query_len));
	FUZZ_CHECK(r->version_major == 1 && r->version_minor <= 1);
	FUZZ_CHECK(r->header_count <= p->limits.max_header_count);
	for (size_t i = 0; i < r->header_count; i++) {
		check_header(&r->headers[i], counts, h);
	}
	check_smuggling(r, &p->limits, counts);
	if (counts[0]) {
		FUZZ_CHECK(rapier_http_request_header(r, "host", &len) != NULL);
	}
	if (p->sink) {
		FUZZ_CHECK(r->body_len == 0 && r->body_received == sink->bytes);
		fuzz_digest_u64(h, sink->digest);
	} else {
		FUZZ_CHECK(r->body_len == r->body_received);
		fuzz_digest(h, r->body ? r->body : "", r->body_len);
	}
	check_path(r, h);
	fuzz_digest(h, r->method_name, strlen(r->method_name));
	fuzz_digest(h, r->target, r->target_len);
	fuzz_digest(h, r->query, r->query_len);
	fuzz_digest_u64(h, (uint64_t) r->content_length);
	fuzz_digest_u64(h, (uint64_t) (r->keep_alive | r->expect_continue << 1 | r->chunked << 2 | r->upgrade << 3
		| r->version_minor << 4));
}

/* The bytes the codec took for this request, read again by strict_http.h. */
static void check_wire(const rapier_http_parser_t *p, const char *wire, size_t len)
{
	const rapier_http_request_t *r = &p->req;
	strict_t s = { wire, wire + len };

	FUZZ_CHECK(strict_request_line(&s, r->method_name, r->target, r->target_len, r->version_minor));
	for (size_t i = 0; i < r->header_count; i++) {
		const rapier_http_header_t *hdr = &r->headers[i];

		FUZZ_CHECK(strict_field_line(&s, hdr->name, hdr->value, hdr->value_len));
	}
	FUZZ_CHECK(strict_crlf(&s));
	if (r->chunked) {
		FUZZ_CHECK(strict_chunked(&s, p->sink ? NULL : r->body, r->body_received));
	} else if (r->content_length > 0) {
		FUZZ_CHECK((uint64_t) (s.end - s.p) >= (uint64_t) r->content_length);
		FUZZ_CHECK(p->sink || memcmp(s.p, r->body, (size_t) r->content_length) == 0);
		s.p += r->content_length;
	}
	FUZZ_CHECK(s.p == s.end);
}

/* Which refusal is given may depend on where a read ended when a request
 * has two faults: llhttp reports a span (target, header name) to its
 * callback only when the span ends, so "too long" and "malformed" inside
 * one span come in either order. Both runs must refuse at the same request,
 * with one of the statuses docs/http-parsing.md lists. */
static int valid_status(int status, int flags)
{
	switch (status) {
	case 400: case 413: case 414: case 431: case 501: case 505:
		return 1;
	case 507:
		return (flags & 0xc) == 0xc;
	default:
		return 0;
	}
}

/* RAPIER_FUZZ_TRACE=1 in the environment: what each run saw, to read a failure. */
static void trace(const rapier_http_parser_t *p, const fuzz_cutter_t *cut, size_t pos)
{
	static const char *modes[FUZZ_RUNS] = { "whole", "bytes", "seeded" };
	static int on = -1;

	if (on < 0) {
		on = getenv("RAPIER_FUZZ_TRACE") != NULL;
	}
	if (!on) {
		return;
	}
	if (p->state == RAPIER_HTTP_ERROR) {
		fprintf(stderr, "%s: %d %s, near byte %zu\n", modes[cut->mode], p->error_status, p->error_reason, pos);
	} else if (p->state == RAPIER_HTTP_MESSAGE_COMPLETE) {
		fprintf(stderr, "%s: %s %s, %zu header fields, body %llu, ends at byte %zu\n", modes[cut->mode],
			p->req.method_name, p->req.target, p->req.header_count, (unsigned long long) p->req.body_received, pos);
	}
}

/* Feeds the stream as the server does; returns the digest of everything seen. */
static uint64_t run(const rapier_http_limits_t *limits, int flags, const char *data, size_t len, fuzz_cutter_t *cut)
{
	rapier_http_parser_t p;
	sink_t sink = { .refuse = (flags & 8) != 0 };
	uint64_t h = FUZZ_DIGEST_INIT;
	size_t pos = 0, avail = 0, idle = 0, start = 0;

	FUZZ_CHECK(rapier_http_parser_init(&p, limits) == 0);
	for (;;) {
		ssize_t n;

		if (pos == avail) {
			if (avail == len) {
				break;
			}
			avail += fuzz_next_cut(cut, len - avail);
		}
		n = rapier_http_parser_feed(&p, data + pos, avail - pos);
		if (n < 0) {
			trace(&p, cut, avail);
			break;
		}
		FUZZ_CHECK((size_t) n <= avail - pos);
		FUZZ_CHECK(n > 0 || ++idle < 16);
		pos += (size_t) n;
		if (p.state == RAPIER_HTTP_HEADERS_COMPLETE) {
			fuzz_digest(&h, "H", 1);
			if (flags & 4) {
				sink.bytes = 0;
				sink.digest = FUZZ_DIGEST_INIT;
				rapier_http_parser_set_body_sink(&p, on_sink, &sink);
			}
		} else if (p.state == RAPIER_HTTP_MESSAGE_COMPLETE) {
			trace(&p, cut, pos);
			check_request(&p, &sink, &h);
			check_wire(&p, data + start, pos - start);
			start = pos;
			if (!p.req.keep_alive) {
				break;
			}
		} else {
			FUZZ_CHECK(pos == avail);
		}
	}
	if (p.state != RAPIER_HTTP_ERROR) {
		fuzz_digest_u64(&h, (uint64_t) rapier_http_parser_eof(&p));
	}
	if (p.state == RAPIER_HTTP_ERROR) {
		/* 500 would mean "out of memory" or "no progress". */
		FUZZ_CHECK(valid_status(p.error_status, flags) && p.error_reason != NULL);
		fuzz_digest(&h, "E", 1);
	}
	rapier_http_parser_free(&p);
	return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t digest[FUZZ_RUNS];

	if (size < 2) {
		return 0;
	}
	for (int mode = 0; mode < FUZZ_RUNS; mode++) {
		fuzz_cutter_t cut;

		fuzz_cutter_init(&cut, mode, data[1]);
		digest[mode] = run(&profiles[data[0] & 3], data[0], (const char *) data + 2, size - 2, &cut);
	}
	FUZZ_CHECK(digest[FUZZ_BYTES] == digest[FUZZ_WHOLE]);
	FUZZ_CHECK(digest[FUZZ_SEEDED] == digest[FUZZ_WHOLE]);
	return 0;
}
