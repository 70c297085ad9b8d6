/*
 * Unit tests for the HTTP/1.1 request codec. Every fixture is run twice,
 * whole and byte by byte, and both runs must give the same requests (or the
 * same error status); chunked bodies are also cut in chunks of 1, 2, 7 and
 * 4096 bytes.
 */
#include "unit.h"

#include "http_parser.c"

#define MAX_MSGS 64

typedef struct {
	char method[32];
	char target[512];
	char path[512];
	char query[512];
	char headers[20000];	/* "name=value\n" each */
	char *body;
	size_t body_len;
	int major, minor;
	long long content_length;
	int keep_alive, expect_continue, chunked, upgrade;
} msg_t;

typedef struct {
	msg_t msgs[MAX_MSGS];
	int count;
	int headers_complete;	/* HEADERS_COMPLETE stops seen */
	int error_status;	/* 0 when no error */
	int eof_rc;
} result_t;

static result_t results[2];
static const size_t steps[2] = { 0, 1 };	/* 0: the whole buffer at once */

static void copy_slice(char *dst, size_t cap, const char *src, size_t len)
{
	len = len < cap - 1 ? len : cap - 1;
	memcpy(dst, src ? src : "", len);
	dst[len] = '\0';
}

static void snapshot(msg_t *m, const rapier_http_request_t *req)
{
	size_t off = 0;

	copy_slice(m->method, sizeof(m->method), req->method_name, strlen(req->method_name));
	copy_slice(m->target, sizeof(m->target), req->target, req->target_len);
	copy_slice(m->path, sizeof(m->path), req->path, req->path_len);
	copy_slice(m->query, sizeof(m->query), req->query, req->query_len);
	m->headers[0] = '\0';
	for (size_t i = 0; i < req->header_count && off < sizeof(m->headers); i++) {
		const rapier_http_header_t *h = &req->headers[i];
		off += (size_t) snprintf(m->headers + off, sizeof(m->headers) - off, "%s=%s\n", h->name, h->value);
		CHECK_EQ_INT(strlen(h->name), h->name_len);
		CHECK_EQ_INT(strlen(h->value), h->value_len);
	}
	m->body_len = req->body_len;
	m->body = malloc(req->body_len + 1);
	memcpy(m->body, req->body ? req->body : "", req->body_len);
	m->body[req->body_len] = '\0';
	m->major = req->version_major;
	m->minor = req->version_minor;
	m->content_length = req->content_length;
	m->keep_alive = req->keep_alive;
	m->expect_continue = req->expect_continue;
	m->chunked = req->chunked;
	m->upgrade = req->upgrade;
}

static void result_clear(result_t *r)
{
	for (int i = 0; i < r->count; i++) {
		free(r->msgs[i].body);
	}
	memset(r, 0, sizeof(*r));
}

/* Feeds data as a socket would deliver it, step bytes at a time (0: all),
 * re-feeding the unconsumed rest after each stop, as the server will. */
static void run_parser(rapier_http_parser_t *p, result_t *r, const char *data, size_t len, size_t step)
{
	size_t pos = 0, avail = 0;
	int guard = 0, closed = 0;

	for (;;) {
		ssize_t n;

		if (pos == avail) {
			if (avail == len) {
				break;
			}
			avail = step == 0 || len - avail < step ? len : avail + step;
		}
		n = rapier_http_parser_feed(p, data + pos, avail - pos);
		if (n < 0) {
			r->error_status = p->error_status;
			return;
		}
		if (closed) {
			/* After Connection: close everything is discarded. */
			CHECK_EQ_INT(n, avail - pos);
			CHECK_EQ_INT(p->state, RAPIER_HTTP_MESSAGE_COMPLETE);
			pos += (size_t) n;
			continue;
		}
		pos += (size_t) n;
		closed = p->state == RAPIER_HTTP_MESSAGE_COMPLETE && !p->req.keep_alive;
		if (p->state == RAPIER_HTTP_HEADERS_COMPLETE) {
			r->headers_complete++;
		} else if (p->state == RAPIER_HTTP_MESSAGE_COMPLETE && r->count < MAX_MSGS) {
			snapshot(&r->msgs[r->count++], rapier_http_parser_request(p));
		}
		if (n == 0 && ++guard > 1000) {
			CHECK(!"parser stalled");
			return;
		}
	}
	r->eof_rc = rapier_http_parser_eof(p);
	if (r->eof_rc != 0) {
		r->error_status = p->error_status;
	}
}

static int msg_equal(const msg_t *a, const msg_t *b)
{
	return strcmp(a->method, b->method) == 0 && strcmp(a->target, b->target) == 0
		&& strcmp(a->path, b->path) == 0 && strcmp(a->query, b->query) == 0
		&& strcmp(a->headers, b->headers) == 0 && a->body_len == b->body_len
		&& memcmp(a->body, b->body, a->body_len) == 0 && a->major == b->major
		&& a->minor == b->minor && a->content_length == b->content_length
		&& a->keep_alive == b->keep_alive && a->expect_continue == b->expect_continue
		&& a->chunked == b->chunked && a->upgrade == b->upgrade;
}

/* Runs data whole and byte by byte; returns the whole-buffer result after
 * checking that the byte-by-byte one is identical. */
static result_t *run_limits(const char *data, size_t len, const rapier_http_limits_t *limits, const char *what)
{
	int before = unit_failures;

	for (int s = 0; s < 2; s++) {
		rapier_http_parser_t p;

		result_clear(&results[s]);
		CHECK_EQ_INT(rapier_http_parser_init(&p, limits), 0);
		run_parser(&p, &results[s], data, len, steps[s]);
		rapier_http_parser_free(&p);
	}
	CHECK_EQ_INT(results[1].error_status, results[0].error_status);
	CHECK_EQ_INT(results[1].count, results[0].count);
	for (int i = 0; i < results[0].count && i < results[1].count; i++) {
		CHECK(msg_equal(&results[0].msgs[i], &results[1].msgs[i]));
	}
	if (unit_failures != before) {
		fprintf(stderr, "  in fixture: %s\n", what);
	}
	return &results[0];
}

static result_t *run(const char *data, const char *what)
{
	return run_limits(data, strlen(data), NULL, what);
}

static void expect_status(const char *data, size_t len, const rapier_http_limits_t *limits, int status, const char *what)
{
	int before = unit_failures;
	result_t *r = run_limits(data, len, limits, what);

	CHECK_EQ_INT(r->error_status, status);
	if (unit_failures != before) {
		fprintf(stderr, "  expected %d for: %s\n", status, what);
	}
}

#define REJECT(data, status) expect_status(data, sizeof(data) - 1, NULL, status, #data)

static void test_get_basic(void)
{
	result_t *r = run("GET /a/b%20c?x=1&y=2#frag HTTP/1.1\r\nHost: example.com\r\n"
		"User-Agent:  curl/8.0 \t\r\nX-Empty:\r\nX-Tab:\tv\r\n\r\n", "get");

	CHECK_EQ_INT(r->count, 1);
	CHECK_EQ_INT(r->error_status, 0);
	CHECK_EQ_INT(r->eof_rc, 0);
	CHECK_EQ_INT(r->headers_complete, 0);
	CHECK_EQ_STR(r->msgs[0].method, "GET");
	CHECK_EQ_STR(r->msgs[0].target, "/a/b%20c?x=1&y=2#frag");
	CHECK_EQ_STR(r->msgs[0].path, "/a/b%20c");
	CHECK_EQ_STR(r->msgs[0].query, "x=1&y=2");
	CHECK_EQ_STR(r->msgs[0].headers, "host=example.com\nuser-agent=curl/8.0\nx-empty=\nx-tab=v\n");
	CHECK_EQ_INT(r->msgs[0].major, 1);
	CHECK_EQ_INT(r->msgs[0].minor, 1);
	CHECK_EQ_INT(r->msgs[0].keep_alive, 1);
	CHECK_EQ_INT(r->msgs[0].content_length, -1);
	CHECK_EQ_INT(r->msgs[0].body_len, 0);
}

static void test_methods(void)
{
	static const char *methods[] = { "HEAD", "OPTIONS", "DELETE", "PUT", "PATCH", "PURGE", "PROPFIND", "MKCALENDAR", "M-SEARCH" };
	char buf[256];

	for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
		result_t *r;

		snprintf(buf, sizeof(buf), "%s /m HTTP/1.1\r\nHost: h\r\n\r\n", methods[i]);
		r = run(buf, methods[i]);
		CHECK_EQ_INT(r->count, 1);
		CHECK_EQ_STR(r->msgs[0].method, methods[i]);
		CHECK_EQ_STR(r->msgs[0].path, "/m");
	}
	result_t *r = run("OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n", "options *");
	CHECK_EQ_STR(r->msgs[0].path, "*");
	CHECK_EQ_STR(r->msgs[0].query, "");
}

static void test_target_forms(void)
{
	result_t *r = run("GET http://example.com:8080/p/q?a=b HTTP/1.1\r\nHost: example.com\r\n\r\n", "absolute");

	CHECK_EQ_STR(r->msgs[0].path, "/p/q");
	CHECK_EQ_STR(r->msgs[0].query, "a=b");
	r = run("GET http://example.com?a=b HTTP/1.1\r\nHost: example.com\r\n\r\n", "absolute, no path");
	CHECK_EQ_STR(r->msgs[0].path, "/");
	CHECK_EQ_STR(r->msgs[0].query, "a=b");
	r = run("GET /? HTTP/1.1\r\nHost: h\r\n\r\n", "empty query");
	CHECK_EQ_INT(r->error_status, 0);
	CHECK_EQ_STR(r->msgs[0].path, "/");
	CHECK_EQ_STR(r->msgs[0].query, "");
	r = run("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", "connect");
	CHECK_EQ_INT(r->count, 1);
	CHECK_EQ_STR(r->msgs[0].method, "CONNECT");
	CHECK_EQ_STR(r->msgs[0].target, "example.com:443");
	CHECK_EQ_STR(r->msgs[0].path, "");
	CHECK_EQ_INT(r->msgs[0].upgrade, 1);
	r = run("GET /\xc3\xa9t\xc3\xa9 HTTP/1.1\r\nHost: h\r\nX-Utf8: caf\xc3\xa9\r\n\r\n", "utf-8 bytes");
	CHECK_EQ_STR(r->msgs[0].path, "/\xc3\xa9t\xc3\xa9");
	CHECK_EQ_STR(r->msgs[0].headers, "host=h\nx-utf8=caf\xc3\xa9\n");
}

static void test_post_content_length(void)
{
	result_t *r = run("POST /form HTTP/1.1\r\nHost: h\r\nContent-Type: application/x-www-form-urlencoded\r\n"
		"Content-Length: 11\r\n\r\na=1&b=2\r\nxy", "post");

	CHECK_EQ_INT(r->count, 1);
	CHECK_EQ_INT(r->headers_complete, 1);
	CHECK_EQ_INT(r->msgs[0].content_length, 11);
	CHECK_EQ_INT(r->msgs[0].body_len, 11);
	CHECK_EQ_STR(r->msgs[0].body, "a=1&b=2\r\nxy");
	CHECK_EQ_INT(r->msgs[0].chunked, 0);
	r = run("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n", "post empty");
	CHECK_EQ_INT(r->count, 1);
	CHECK_EQ_INT(r->headers_complete, 0);
	CHECK_EQ_INT(r->msgs[0].content_length, 0);
	r = run("POST / HTTP/1.1\r\nHost: h\r\nContent-Length:  3  \r\n\r\nabc", "content-length with OWS");
	CHECK_EQ_STR(r->msgs[0].body, "abc");
}

static void test_keep_alive(void)
{
	result_t *r = run("GET / HTTP/1.0\r\n\r\n", "1.0");

	CHECK_EQ_INT(r->count, 1);
	CHECK_EQ_INT(r->msgs[0].minor, 0);
	CHECK_EQ_INT(r->msgs[0].keep_alive, 0);
	r = run("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\nGET /2 HTTP/1.0\r\n\r\n", "1.0 keep-alive");
	CHECK_EQ_INT(r->count, 2);
	CHECK_EQ_INT(r->msgs[0].keep_alive, 1);
	CHECK_EQ_INT(r->msgs[1].keep_alive, 0);
	r = run("GET / HTTP/1.1\r\nHost: h\r\nConnection: foo, close\r\n\r\nGET /ignored HTTP/1.1\r\nHost: h\r\n\r\n", "1.1 close");
	/* Input after Connection: close is discarded: one request only. */
	CHECK_EQ_INT(r->count, 1);
	CHECK_EQ_INT(r->msgs[0].keep_alive, 0);
	CHECK_EQ_INT(r->error_status, 0);
	r = run("GET / HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n", "1.0 two hosts");
	CHECK_EQ_INT(r->error_status, 400);
}

static void test_pipelined(void)
{
	char buf[64 * 1024];
	size_t off = 0;
	result_t *r = run("GET /1 HTTP/1.1\r\nHost: h\r\n\r\nPOST /2 HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nok", "two");

	CHECK_EQ_INT(r->count, 2);
	CHECK_EQ_STR(r->msgs[0].path, "/1");
	CHECK_EQ_STR(r->msgs[1].path, "/2");
	CHECK_EQ_STR(r->msgs[1].body, "ok");
	for (int i = 0; i < 50; i++) {
		if (i % 3 == 0) {
			off += (size_t) sprintf(buf + off, "GET /g%d?i=%d HTTP/1.1\r\nHost: h\r\nX-N: %d\r\n\r\n", i, i, i);
		} else if (i % 3 == 1) {
			off += (size_t) sprintf(buf + off, "POST /p%d HTTP/1.1\r\nHost: h\r\nContent-Length: %d\r\n\r\n%0*d", i, 4, 4, i);
		} else {
			off += (size_t) sprintf(buf + off, "\r\nPUT /c%d HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
				"2\r\n%02d\r\n1;x=y\r\n!\r\n0\r\nT: v\r\n\r\n", i, i);
		}
	}
	r = run_limits(buf, off, NULL, "fifty pipelined");
	CHECK_EQ_INT(r->count, 50);
	CHECK_EQ_INT(r->error_status, 0);
	for (int i = 0; i < r->count; i++) {
		char want[64];

		if (i % 3 == 0) {
			snprintf(want, sizeof(want), "host=h\nx-n=%d\n", i);
			CHECK_EQ_STR(r->msgs[i].headers, want);
		} else if (i % 3 == 1) {
			snprintf(want, sizeof(want), "%04d", i);
			CHECK_EQ_STR(r->msgs[i].body, want);
		} else {
			snprintf(want, sizeof(want), "%02d!", i);
			CHECK_EQ_STR(r->msgs[i].body, want);
			CHECK_EQ_INT(r->msgs[i].chunked, 1);
		}
	}
}

/* Builds a chunked POST of body cut in chunks of size (with an extension on
 * every third chunk) followed by two trailer fields. */
static size_t build_chunked(char *out, const char *body, size_t len, size_t size)
{
	size_t off = (size_t) sprintf(out, "POST /up HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n");
	int n = 0;

	for (size_t i = 0; i < len; i += size, n++) {
		size_t k = len - i < size ? len - i : size;

		off += (size_t) sprintf(out + off, n % 3 == 2 ? "%zx;name=\"v\";flag\r\n" : "%zX\r\n", k);
		memcpy(out + off, body + i, k);
		off += k;
		memcpy(out + off, "\r\n", 2);
		off += 2;
	}
	off += (size_t) sprintf(out + off, "0\r\nX-Checksum: 1\r\nX-More: 2\r\n\r\n");
	return off;
}

static void test_chunked_sizes(void)
{
	static char body[10000], req[200000];
	static const size_t sizes[] = { 1, 2, 7, 4096 };

	for (size_t i = 0; i < sizeof(body); i++) {
		body[i] = (char) ("\r\n0123456789abcdef"[i % 18]);
	}
	for (size_t s = 0; s < 4; s++) {
		size_t len = build_chunked(req, body, sizeof(body), sizes[s]);
		result_t *r = run_limits(req, len, NULL, "chunked body");

		CHECK_EQ_INT(r->error_status, 0);
		CHECK_EQ_INT(r->count, 1);
		CHECK_EQ_INT(r->headers_complete, 1);
		CHECK_EQ_INT(r->msgs[0].chunked, 1);
		CHECK_EQ_INT(r->msgs[0].body_len, sizeof(body));
		CHECK(memcmp(r->msgs[0].body, body, sizeof(body)) == 0);
		/* Trailers are not merged into the headers. */
		CHECK_EQ_STR(r->msgs[0].headers, "host=h\ntransfer-encoding=chunked\n");
	}
}

static void test_expect_continue(void)
{
	result_t *r = run("PUT /f HTTP/1.1\r\nHost: h\r\nExpect: 100-Continue\r\nContent-Length: 4\r\n\r\ndata", "expect");

	CHECK_EQ_INT(r->headers_complete, 1);
	CHECK_EQ_INT(r->msgs[0].expect_continue, 1);
	CHECK_EQ_STR(r->msgs[0].body, "data");
	r = run("PUT /f HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\ndata", "expect 1.0");
	CHECK_EQ_INT(r->msgs[0].expect_continue, 0);

	/* The caller sees the headers before any body byte arrives. */
	rapier_http_parser_t p;
	const char *head = "POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n";
	rapier_http_parser_init(&p, NULL);
	CHECK_EQ_INT(rapier_http_parser_feed(&p, head, strlen(head)), strlen(head));
	CHECK_EQ_INT(p.state, RAPIER_HTTP_HEADERS_COMPLETE);
	CHECK_EQ_INT(p.req.expect_continue, 1);
	CHECK_EQ_INT(p.req.body_received, 0);
	CHECK_EQ_INT(rapier_http_parser_eof(&p), -1);
	CHECK_EQ_INT(p.error_status, 400);
	rapier_http_parser_free(&p);
}

static void test_upgrade(void)
{
	const char *data = "GET /ws HTTP/1.1\r\nHost: h\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n"
		"GET /next HTTP/1.1\r\nHost: h\r\n\r\n";
	result_t *r = run(data, "upgrade then http");

	/* The caller that declines the upgrade feeds on and gets plain HTTP. */
	CHECK_EQ_INT(r->count, 2);
	CHECK_EQ_INT(r->msgs[0].upgrade, 1);
	CHECK_EQ_INT(r->msgs[1].upgrade, 0);
	CHECK_EQ_STR(r->msgs[1].path, "/next");
}

static void test_hostile_request_line(void)
{
	REJECT("FOO / HTTP/1.1\r\nHost: h\r\n\r\n", 501);
	REJECT("get / HTTP/1.1\r\nHost: h\r\n\r\n", 501);
	REJECT("GETX / HTTP/1.1\r\nHost: h\r\n\r\n", 501);
	REJECT("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", 400);
	REJECT("\0GET / HTTP/1.1\r\n\r\n", 400);
	REJECT(" GET / HTTP/1.1\r\nHost: h\r\n\r\n", 400);
	REJECT("GET\t/ HTTP/1.1\r\nHost: h\r\n\r\n", 400);
	REJECT("GET /a b HTTP/1.1\r\nHost: h\r\n\r\n", 400);
	REJECT("GET /a\0b HTTP/1.1\r\nHost: h\r\n\r\n", 400);
	REJECT("GET /a\x01 HTTP/1.1\r\nHost: h\r\n\r\n", 400);
	REJECT("GET /a\x7f HTTP/1.1\r\nHost: h\r\n\r\n", 400);
	REJECT("GET / FOO/1.1\r\nHost: h\r\n\r\n", 400);
	REJECT("GET / http/1.1\r\nHost: h\r\n\r\n", 400);
	REJECT("GET / HTTP/1.1 \r\nHost: h\r\n\r\n", 400);
	REJECT("GET / HTTP/1.1\r\r\nHost: h\r\n\r\n", 400);
	REJECT("GET / HTTP/1.1\nHost: h\r\n\r\n", 400);
	REJECT("GET /\r\n\r\n", 505);
	REJECT("GET /\r\nHost: h\r\n\r\n", 505);
	REJECT("GET / HTTP/2.0\r\nHost: h\r\n\r\n", 505);
	REJECT("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 505);
	REJECT("GET / HTTP/1.2\r\nHost: h\r\n\r\n", 505);
	REJECT("GET / HTTP/3.0\r\nHost: h\r\n\r\n", 505);
	REJECT("GET / HTTP/0.9\r\nHost: h\r\n\r\n", 505);
	REJECT("GET / HTTP/11.1\r\nHost: h\r\n\r\n", 505);
}

static void test_hostile_headers(void)
{
	REJECT("GET / HTTP/1.1\r\nHost: h\r\nX: a\r\n b\r\n\r\n", 400);
	REJECT("GET / HTTP/1.1\r\nHost: h\r\nX:\r\n\tb\r\n\r\n", 400);
	REJECT("GET / HTTP/1.1\r\n Host: h\r\n\r\n", 400);
	REJECT("GET / HTTP/1.1\r\nHost: h\r\nX: a\0b\r\n\r\n", 400);
	REJECT("GET / HTTP/1.1\r\nHost: h\r\nX\0: ab\r\n\r\n", 400);
	REJECT("GET / HTTP/1.1\r\nHost: h\r\nX: a\rb\r\n\r\n", 400);
	REJECT("GET / HTTP/1.1\r\nHost: h\r\nX: a\nY: b\r\n\r\n", 400);
	REJECT("GET / HTTP/1.1\r\nHost: h\nX: a\r\n\r\n", 400);
	REJECT("GET / HTTP/1.1\r\nHost: h\r\n\n", 400);
	REJECT("GET / HTTP/1.1\r\nHost: h\r\n\r\r\n", 400);
	REJECT("GET / HTTP/1.1\r\nHost: h\r\nX: \x7f\r\n\r\n", 400);
	REJECT("GET / HTTP/1.1\r\nHost : h\r\n\r\n", 400);
	REJECT("GET / HTTP/1.1\r\nHo st: h\r\n\r\n", 400);
	REJECT("GET / HTTP/1.1\r\nHost: h\r\n: empty\r\n\r\n", 400);
	REJECT("GET / HTTP/1.1\r\nHost: h\r\nX@Y: z\r\n\r\n", 400);
	REJECT("GET / HTTP/1.1\r\nHost: h\r\nNoColon\r\n\r\n", 400);
	REJECT("GET / HTTP/1.1\r\n\r\n", 400);
	REJECT("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400);
}

static void test_hostile_framing(void)
{
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", 400);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n3\r\nabc\r\n0\r\n\r\n", 400);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc", 400);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", 400);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3, 3\r\n\r\nabc", 400);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: -3\r\n\r\nabc", 400);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: +3\r\n\r\nabc", 400);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: abc\r\n\r\nabc", 400);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 0x3\r\n\r\nabc", 400);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1 2\r\n\r\nabc", 400);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nContent-Length:\r\n\r\n", 400);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999999\r\n\r\n", 400);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\nabc", 400);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 501);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 501);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n", 400);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n", 400);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding:\r\n\r\n", 400);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked;q=1\r\n\r\n0\r\n\r\n", 400);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: identity\r\n\r\n", 400);
	REJECT("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n10000000000000000\r\n", 400);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFF\r\n", 413);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n", 400);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n\r\n", 400);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3 ;a\r\nabc\r\n0\r\n\r\n", 400);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX0\r\n\r\n", 400);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\nabc\n0\n\n", 400);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nT: a\r\n b\r\n\r\n", 400);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nT: a\r\n\n", 400);
	REJECT("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nT: a\nU: b\r\n\r\n", 400);
}

/* Leading zeros and extensions are framing llhttp never bounds. */
static void test_chunk_framing_cap(void)
{
	static char req[40000];
	size_t off = (size_t) sprintf(req, "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n");

	memset(req + off, '0', 20000);
	off += 20000;
	off += (size_t) sprintf(req + off, "3\r\nabc\r\n0\r\n\r\n");
	expect_status(req, off, NULL, 400, "20000 leading zeros");

	off = (size_t) sprintf(req, "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3");
	for (int i = 0; i < 2000; i++) {
		off += (size_t) sprintf(req + off, ";ext%d=v", i);
	}
	off += (size_t) sprintf(req + off, "\r\nabc\r\n0\r\n\r\n");
	expect_status(req, off, NULL, 400, "endless chunk extensions");
}

static void test_truncated(void)
{
	result_t *r = run("GET / HTTP/1.1\r\nHost: h\r\n", "truncated head");

	CHECK_EQ_INT(r->eof_rc, -1);
	CHECK_EQ_INT(r->error_status, 400);
	r = run("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nabc", "truncated body");
	CHECK_EQ_INT(r->eof_rc, -1);
	CHECK_EQ_INT(r->error_status, 400);
	r = run("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n", "truncated chunked");
	CHECK_EQ_INT(r->eof_rc, -1);
	r = run("GET / HTTP/1.1\r\nHost: h\r\n\r\n", "clean eof");
	CHECK_EQ_INT(r->eof_rc, 0);
	CHECK_EQ_INT(r->error_status, 0);
}

static const rapier_http_limits_t small = { .max_header_size = 256, .max_header_count = 4, .max_url_size = 64, .max_body_size = 100 };

/* A head of exactly total bytes: request line, Host, one padded field. */
static size_t build_head(char *out, size_t total, const char *method_line)
{
	size_t off = (size_t) sprintf(out, "%sHost: h\r\nX: ", method_line);
	size_t pad = total - off - 4;

	memset(out + off, 'v', pad);
	memcpy(out + off + pad, "\r\n\r\n", 4);
	return total;
}

static void test_header_size_limit(void)
{
	static char req[20000];
	rapier_http_limits_t def;
	result_t *r;

	r = run_limits(req, build_head(req, 256, "GET / HTTP/1.1\r\n"), &small, "head at the limit");
	CHECK_EQ_INT(r->error_status, 0);
	CHECK_EQ_INT(r->count, 1);
	expect_status(req, build_head(req, 257, "GET / HTTP/1.1\r\n"), &small, 431, "head one over the limit");
	/* Leading empty lines count as head bytes. */
	expect_status(req, build_head(req, 257, "\r\nGET / HTTP/1.1\r\n"), &small, 431, "CRLF + head");

	rapier_http_limits_default(&def);
	CHECK_EQ_INT(def.max_header_size, 16384);
	r = run_limits(req, build_head(req, 16384, "GET / HTTP/1.1\r\n"), NULL, "default head at the limit");
	CHECK_EQ_INT(r->error_status, 0);
	CHECK_EQ_INT(r->msgs[0].headers[0], 'h');
	expect_status(req, build_head(req, 16385, "GET / HTTP/1.1\r\n"), NULL, 431, "default head one over");
	/* With a body the head stops at HEADERS_COMPLETE exactly at the limit. */
	size_t len = build_head(req, 256, "POST / HTTP/1.1\r\nContent-Length: 2\r\n");
	memcpy(req + len, "ok", 2);
	r = run_limits(req, len + 2, &small, "post head at the limit");
	CHECK_EQ_INT(r->error_status, 0);
	CHECK_EQ_STR(r->msgs[0].body, "ok");
}

static void test_header_count_limit(void)
{
	const char *four = "GET / HTTP/1.1\r\nHost: h\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n";
	const char *five = "GET / HTTP/1.1\r\nHost: h\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n";
	result_t *r = run_limits(four, strlen(four), &small, "4 headers");

	CHECK_EQ_INT(r->error_status, 0);
	CHECK_EQ_INT(r->count, 1);
	expect_status(five, strlen(five), &small, 431, "5 headers");

	static char req[8192];
	size_t off = (size_t) sprintf(req, "GET / HTTP/1.1\r\nHost: h\r\n");
	for (int i = 1; i < 100; i++) {
		off += (size_t) sprintf(req + off, "X-%d: %d\r\n", i, i);
	}
	r = run_limits(req, (size_t) sprintf(req + off, "\r\n") + off, NULL, "100 headers");
	CHECK_EQ_INT(r->error_status, 0);
	off += (size_t) sprintf(req + off, "X-100: 100\r\n\r\n");
	expect_status(req, off, NULL, 431, "101 headers");
}

static void test_url_limit(void)
{
	char req[512], url[80];

	memset(url, 'u', sizeof(url));
	url[0] = '/';
	snprintf(req, sizeof(req), "GET %.64s HTTP/1.1\r\nHost: h\r\n\r\n", url);
	result_t *r = run_limits(req, strlen(req), &small, "url at the limit");
	CHECK_EQ_INT(r->error_status, 0);
	CHECK_EQ_INT(strlen(r->msgs[0].target), 64);
	snprintf(req, sizeof(req), "GET %.65s HTTP/1.1\r\nHost: h\r\n\r\n", url);
	expect_status(req, strlen(req), &small, 414, "url one over");
}

static void test_body_limit(void)
{
	static char req[4096], body[200];
	size_t len;

	memset(body, 'b', sizeof(body));
	len = (size_t) sprintf(req, "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 100\r\n\r\n%.100s", body);
	result_t *r = run_limits(req, len, &small, "body at the limit");
	CHECK_EQ_INT(r->error_status, 0);
	CHECK_EQ_INT(r->msgs[0].body_len, 100);
	len = (size_t) sprintf(req, "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 101\r\n\r\n%.101s", body);
	r = run_limits(req, len, &small, "body one over");
	CHECK_EQ_INT(r->error_status, 413);
	/* Refused from the headers alone: no HEADERS_COMPLETE stop. */
	CHECK_EQ_INT(r->headers_complete, 0);

	len = build_chunked(req, body, 100, 7);
	r = run_limits(req, len, &small, "chunked at the limit");
	CHECK_EQ_INT(r->error_status, 0);
	CHECK_EQ_INT(r->msgs[0].body_len, 100);
	len = build_chunked(req, body, 101, 7);
	expect_status(req, len, &small, 413, "chunked one over");
	len = build_chunked(req, body, 101, 101);
	expect_status(req, len, &small, 413, "one chunk one over");
}

static void test_trailer_limits(void)
{
	static char req[1024];
	const char *start = "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n";
	size_t off = (size_t) sprintf(req, "%sT: ", start), pad = 256 - 3 - 4;

	memset(req + off, 't', pad);
	memcpy(req + off + pad, "\r\n\r\n", 4);
	result_t *r = run_limits(req, off + pad + 4, &small, "trailers at the limit");
	CHECK_EQ_INT(r->error_status, 0);
	CHECK_EQ_INT(r->count, 1);
	memset(req + off, 't', pad + 1);
	memcpy(req + off + pad + 1, "\r\n\r\n", 4);
	expect_status(req, off + pad + 5, &small, 431, "trailers one over");
	off = (size_t) sprintf(req, "%sA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n", start);
	CHECK_EQ_INT(run_limits(req, off, &small, "4 trailers")->error_status, 0);
	off = (size_t) sprintf(req, "%sA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\nE: 5\r\n\r\n", start);
	expect_status(req, off, &small, 431, "5 trailers");
}

static void test_init_limits(void)
{
	rapier_http_parser_t p;
	rapier_http_limits_t l = small;

	l.max_url_size = 257;
	CHECK_EQ_INT(rapier_http_parser_init(&p, &l), -1);
	l = small;
	l.max_header_count = 0;
	CHECK_EQ_INT(rapier_http_parser_init(&p, &l), -1);
}

static char sink_buf[256];
static size_t sink_len;
static int sink_status;

static int sink(void *data, const char *buf, size_t len)
{
	CHECK(data == (void *) sink_buf);
	if (sink_len + len <= sizeof(sink_buf)) {
		memcpy(sink_buf + sink_len, buf, len);
	}
	sink_len += len;
	return sink_status;
}

/* Feeds req step bytes at a time, setting the sink at HEADERS_COMPLETE. */
static int run_sink(const char *req, size_t step, rapier_http_parser_t *p)
{
	size_t pos = 0, avail = 0, len = strlen(req);

	sink_len = 0;
	rapier_http_parser_init(p, NULL);
	while (pos < len) {
		avail = step == 0 || len - avail < step ? len : avail + step;
		while (pos < avail) {
			ssize_t n = rapier_http_parser_feed(p, req + pos, avail - pos);

			if (n < 0) {
				return -1;
			}
			pos += (size_t) n;
			if (p->state == RAPIER_HTTP_HEADERS_COMPLETE) {
				rapier_http_parser_set_body_sink(p, sink, sink_buf);
			} else if (p->state == RAPIER_HTTP_MESSAGE_COMPLETE) {
				return 0;
			}
		}
	}
	return 1;
}

static void test_body_sink(void)
{
	const char *req = "POST /up HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n";

	for (int s = 0; s < 2; s++) {
		rapier_http_parser_t p;

		sink_status = 0;
		CHECK_EQ_INT(run_sink(req, steps[s], &p), 0);
		CHECK_EQ_INT(sink_len, 11);
		CHECK(memcmp(sink_buf, "hello world", 11) == 0);
		CHECK(p.req.body == NULL);
		CHECK_EQ_INT(p.req.body_len, 0);
		CHECK_EQ_INT(p.req.body_received, 11);
		rapier_http_parser_free(&p);

		sink_status = 507;
		CHECK_EQ_INT(run_sink(req, steps[s], &p), -1);
		CHECK_EQ_INT(p.error_status, 507);
		rapier_http_parser_free(&p);
	}
}

static ssize_t feed_str(rapier_http_parser_t *p, const char *s)
{
	return rapier_http_parser_feed(p, s, strlen(s));
}

/* A body read into a sink can have its own max_body_size, raised or lowered
 * mid-body; the next request has the configured one again. */
static void test_sink_max_body_size(void)
{
	rapier_http_limits_t l;
	rapier_http_parser_t p;
	const char *head = "POST /up HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n";
	const char *next = "POST /b HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n";

	rapier_http_limits_default(&l);
	l.max_body_size = 8;
	rapier_http_parser_init(&p, &l);
	sink_len = 0;
	sink_status = 0;
	CHECK_EQ_INT(rapier_http_parser_feed(&p, head, strlen(head)), strlen(head));
	CHECK_EQ_INT(p.state, RAPIER_HTTP_HEADERS_COMPLETE);
	/* Ignored without a sink: a buffered body keeps the configured limit. */
	rapier_http_parser_set_max_body_size(&p, 100);
	CHECK_EQ_INT(p.max_body_size, 8);
	rapier_http_parser_set_body_sink(&p, sink, sink_buf);
	rapier_http_parser_set_max_body_size(&p, 20);
	/* 12 bytes pass the raised limit, a chunk announcing 9 more does not. */
	CHECK_EQ_INT(feed_str(&p, "c\r\nhello world!\r\n"), (ssize_t) strlen("c\r\nhello world!\r\n"));
	CHECK_EQ_INT(sink_len, 12);
	CHECK_EQ_INT(rapier_http_parser_feed(&p, "9\r\n", 3), -1);
	CHECK_EQ_INT(p.error_status, 413);
	rapier_http_parser_free(&p);

	/* Lowered below what came already: the next body byte fails. */
	rapier_http_parser_init(&p, &l);
	CHECK_EQ_INT(rapier_http_parser_feed(&p, head, strlen(head)), strlen(head));
	rapier_http_parser_set_body_sink(&p, sink, sink_buf);
	CHECK_EQ_INT(feed_str(&p, "4\r\nabcd\r\n"), (ssize_t) strlen("4\r\nabcd\r\n"));
	rapier_http_parser_set_max_body_size(&p, 2);
	CHECK_EQ_INT(rapier_http_parser_feed(&p, "1\r\n", 3), -1);
	CHECK_EQ_INT(p.error_status, 413);
	rapier_http_parser_free(&p);

	/* Raised for one request only. */
	rapier_http_parser_init(&p, &l);
	CHECK_EQ_INT(rapier_http_parser_feed(&p, head, strlen(head)), strlen(head));
	rapier_http_parser_set_body_sink(&p, sink, sink_buf);
	rapier_http_parser_set_max_body_size(&p, 100);
	CHECK_EQ_INT(feed_str(&p, "c\r\nhello world!\r\n0\r\n\r\n"), (ssize_t) strlen("c\r\nhello world!\r\n0\r\n\r\n"));
	CHECK_EQ_INT(p.state, RAPIER_HTTP_MESSAGE_COMPLETE);
	CHECK_EQ_INT(rapier_http_parser_feed(&p, next, strlen(next)), strlen(next));
	CHECK_EQ_INT(p.max_body_size, 8);
	CHECK_EQ_INT(rapier_http_parser_feed(&p, "c\r\n", 3), -1);
	CHECK_EQ_INT(p.error_status, 413);
	rapier_http_parser_free(&p);
}

static size_t other_sink_len;

static int other_sink(void *data, const char *buf, size_t len)
{
	(void) buf;
	CHECK(data == (void *) &other_sink_len);
	other_sink_len += len;
	return 0;
}

/* Mid-body, a body that goes to a sink moves its rest to another (the server drops an unread rest so);
 * a buffered one cannot start going to a sink then. */
static void test_sink_moved_mid_body(void)
{
	rapier_http_parser_t p;
	const char *head = "POST /up HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\n";
	const char *next = "GET /next HTTP/1.1\r\nHost: h\r\n\r\n";

	rapier_http_parser_init(&p, NULL);
	sink_len = other_sink_len = 0;
	sink_status = 0;
	CHECK_EQ_INT(feed_str(&p, head), (ssize_t) strlen(head));
	rapier_http_parser_set_body_sink(&p, sink, sink_buf);
	CHECK_EQ_INT(feed_str(&p, "abcd"), 4);
	rapier_http_parser_set_body_sink(&p, other_sink, &other_sink_len);
	CHECK_EQ_INT(feed_str(&p, "efghij"), 6);
	CHECK_EQ_INT(p.state, RAPIER_HTTP_MESSAGE_COMPLETE);
	CHECK_EQ_INT(sink_len, 4);
	CHECK_EQ_INT(other_sink_len, 6);
	/* The next request starts without a sink. */
	CHECK_EQ_INT(feed_str(&p, next), (ssize_t) strlen(next));
	CHECK(p.sink == NULL);
	rapier_http_parser_free(&p);

	rapier_http_parser_init(&p, NULL);
	CHECK_EQ_INT(feed_str(&p, head), (ssize_t) strlen(head));
	CHECK_EQ_INT(feed_str(&p, "abcd"), 4);
	rapier_http_parser_set_body_sink(&p, other_sink, &other_sink_len);
	CHECK(p.sink == NULL);
	CHECK_EQ_INT(feed_str(&p, "efghij"), 6);
	CHECK_EQ_INT(p.req.body_len, 10);
	CHECK_EQ_INT(other_sink_len, 6);
	rapier_http_parser_free(&p);
}

/* One big request must not pin its memory for the rest of the connection. */
static void test_reset_releases_memory(void)
{
	rapier_http_limits_t l;
	rapier_http_parser_t p;
	static char big[1 << 20];
	char head[128];
	const char *small_req = "GET /small HTTP/1.1\r\nHost: h\r\n\r\n";

	rapier_http_limits_default(&l);
	l.max_body_size = sizeof(big);
	memset(big, 'z', sizeof(big));
	rapier_http_parser_init(&p, &l);
	for (int round = 0; round < 3; round++) {
		int n = snprintf(head, sizeof(head), "PUT /big HTTP/1.1\r\nHost: h\r\nContent-Length: %zu\r\n\r\n", sizeof(big));

		CHECK_EQ_INT(rapier_http_parser_feed(&p, head, (size_t) n), n);
		CHECK_EQ_INT(p.state, RAPIER_HTTP_HEADERS_COMPLETE);
		CHECK_EQ_INT(rapier_http_parser_feed(&p, big, sizeof(big)), sizeof(big));
		CHECK_EQ_INT(p.state, RAPIER_HTTP_MESSAGE_COMPLETE);
		CHECK_EQ_INT(p.req.body_len, sizeof(big));
		CHECK_EQ_INT(p.body_cap, sizeof(big));
		CHECK_EQ_INT(rapier_http_parser_feed(&p, small_req, strlen(small_req)), strlen(small_req));
		CHECK_EQ_INT(p.state, RAPIER_HTTP_MESSAGE_COMPLETE);
		CHECK(p.body_cap <= BODY_KEEP);
		CHECK(p.arena_cap <= ARENA_KEEP);
		CHECK_EQ_INT(p.req.header_count, 1);
		CHECK_EQ_INT(p.req.body_len, 0);
	}
	rapier_http_parser_free(&p);
}

/* A head bigger than the arena's first size moves it several times while
 * values are half-built; every pointer must follow. */
static void test_arena_growth(void)
{
	static char req[12000];
	size_t off = (size_t) sprintf(req, "GET /%0300d HTTP/1.1\r\nHost: h\r\n", 7);

	for (int i = 0; i < 60; i++) {
		off += (size_t) sprintf(req + off, "X-Long-%02d:  %0150d  \r\n", i, i);
	}
	off += (size_t) sprintf(req + off, "\r\n");
	result_t *r = run_limits(req, off, NULL, "arena growth");
	CHECK_EQ_INT(r->error_status, 0);
	CHECK_EQ_INT(strlen(r->msgs[0].target), 301);
	char want[200];
	snprintf(want, sizeof(want), "x-long-59=%0150d\n", 59);
	CHECK(strstr(r->msgs[0].headers, want) != NULL);
	CHECK_EQ_INT(strlen(r->msgs[0].headers), strlen("host=h\n") + 60 * strlen(want));
}

static void test_header_lookup(void)
{
	rapier_http_parser_t p;
	const char *req = "GET / HTTP/1.1\r\nHost: h\r\nCookie: a=1\r\nCOOKIE: b=2\r\n\r\n";
	size_t len = 0;

	rapier_http_parser_init(&p, NULL);
	rapier_http_parser_feed(&p, req, strlen(req));
	CHECK_EQ_STR(rapier_http_request_header(&p.req, "cookie", &len), "a=1");
	CHECK_EQ_INT(len, 3);
	CHECK(rapier_http_request_header(&p.req, "missing", &len) == NULL);
	rapier_http_parser_free(&p);
}

static void check_decode(const char *in, int rc, const char *want)
{
	char out[64];
	size_t len = 0;

	CHECK_EQ_INT(rapier_http_decode_path(in, strlen(in), out, &len), rc);
	if (rc == 0) {
		out[len] = '\0';
		CHECK_EQ_STR(out, want);
	}
}

static void test_decode_path(void)
{
	char inplace[] = "/a%2fb%2Fc%20d";
	size_t len;

	check_decode("/plain/path", 0, "/plain/path");
	check_decode("/a%20b+c", 0, "/a b+c");
	check_decode("/%C3%A9%c3%a9", 0, "/\xc3\xa9\xc3\xa9");
	check_decode("/..%2F..%2Fetc", 0, "/../../etc");
	check_decode("", 0, "");
	check_decode("/a%00b", -1, NULL);
	check_decode("/a%", -1, NULL);
	check_decode("/a%4", -1, NULL);
	check_decode("/a%zz", -1, NULL);
	check_decode("/a%4g", -1, NULL);
	CHECK_EQ_INT(rapier_http_decode_path("/a\0b", 4, inplace, &len), -1);
	CHECK_EQ_INT(rapier_http_decode_path(inplace, strlen(inplace), inplace, &len), 0);
	inplace[len] = '\0';
	CHECK_EQ_STR(inplace, "/a/b/c d");
}

static void check_cookies(const char *header, const char *want)
{
	const char *cursor = header, *end = header + strlen(header);
	rapier_http_cookie_t c;
	char got[256];
	size_t off = 0;

	got[0] = '\0';
	while (rapier_http_cookie_next(&cursor, end, &c)) {
		off += (size_t) snprintf(got + off, sizeof(got) - off, "[%.*s=%.*s]", (int) c.name_len, c.name,
			(int) c.value_len, c.value);
	}
	CHECK_EQ_STR(got, want);
}

static void test_cookies(void)
{
	check_cookies("a=1; b=2;c=3 ; ;=x; d; e = 5 ;f=\"q w\"; g=x=y", "[a=1][b=2][c=3][d=][e=5][f=\"q w\"][g=x=y]");
	check_cookies("", "");
	check_cookies("  ;  ; ", "");
	check_cookies("sid=%41%42", "[sid=%41%42]");
	check_cookies("a=;b", "[a=][b=]");
	check_cookies("\tname\t=\tvalue\t", "[name=value]");
}

int main(void)
{
	test_get_basic();
	test_methods();
	test_target_forms();
	test_post_content_length();
	test_keep_alive();
	test_pipelined();
	test_chunked_sizes();
	test_expect_continue();
	test_upgrade();
	test_hostile_request_line();
	test_hostile_headers();
	test_hostile_framing();
	test_chunk_framing_cap();
	test_truncated();
	test_header_size_limit();
	test_header_count_limit();
	test_url_limit();
	test_body_limit();
	test_trailer_limits();
	test_init_limits();
	test_body_sink();
	test_sink_max_body_size();
	test_sink_moved_mid_body();
	test_reset_releases_memory();
	test_arena_growth();
	test_header_lookup();
	test_decode_path();
	test_cookies();
	result_clear(&results[0]);
	result_clear(&results[1]);
	return unit_finish("http_parser_test");
}
