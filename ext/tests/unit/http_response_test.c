/* Unit tests for response heads, header validation, chunk helpers and HTTP dates. */
#include "unit.h"

#include <errno.h>
#include <time.h>

#include "http_date.c"
#include "http_response.c"

static rapier_http_buf_t buf;
static rapier_http_head_t head;
static rapier_http_date_cache_t dates;

static rapier_http_finish_t finish_in(uint64_t length, int minor, bool keep_alive)
{
	rapier_http_finish_t in = { 0 };

	in.content_length = length;
	in.version_minor = minor;
	in.request_keep_alive = keep_alive;
	in.date_line = rapier_http_date_cache_line(&dates, 784111777);
	return in;
}

/* Finishes the head and returns "status line + header block" as one NUL-terminated string. */
static const char *finish(const rapier_http_finish_t *in)
{
	static char out[4096];
	struct iovec iov[2];

	CHECK_EQ_INT(rapier_http_head_finish(&head, in, iov), 0);
	memcpy(out, iov[0].iov_base, iov[0].iov_len);
	memcpy(out + iov[0].iov_len, iov[1].iov_base, iov[1].iov_len);
	out[iov[0].iov_len + iov[1].iov_len] = '\0';
	return out;
}

static void start(void)
{
	rapier_http_buf_reset(&buf);
	rapier_http_head_init(&head, &buf);
}

static void test_hello_json_exact_bytes(void)
{
	start();
	CHECK_EQ_INT(rapier_http_head_add(&head, "Content-Type", 12, "application/json", 16), 0);
	rapier_http_finish_t in = finish_in(30, 1, true);
	in.server = "rapier";
	in.server_len = 6;
	CHECK_EQ_STR(finish(&in), "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 30\r\n"
		"Date: Sun, 06 Nov 1994 08:49:37 GMT\r\nServer: rapier\r\n\r\n");
	CHECK(head.keep_alive);
	CHECK(!head.chunked);
	CHECK(head.body_allowed);
}

static void test_status_lines(void)
{
	start();
	CHECK_EQ_INT(rapier_http_head_set_status(&head, 404, NULL, 0), 0);
	CHECK_EQ_INT(head.status_line_len, strlen("HTTP/1.1 404 Not Found\r\n"));
	CHECK(memcmp(head.status_line, "HTTP/1.1 404 Not Found\r\n", head.status_line_len) == 0);
	CHECK_EQ_INT(rapier_http_head_set_status(&head, 200, "Fine", 4), 0);
	CHECK(memcmp(head.status_line, "HTTP/1.1 200 Fine\r\n", head.status_line_len) == 0);
	CHECK_EQ_INT(rapier_http_head_set_status(&head, 599, NULL, 0), 0);
	CHECK_EQ_INT(head.status_line_len, 15);
	CHECK(memcmp(head.status_line, "HTTP/1.1 599 \r\n", 15) == 0);
	CHECK_EQ_INT(rapier_http_head_set_status(&head, 99, NULL, 0), RAPIER_HTTP_EBADSTATUS);
	CHECK_EQ_INT(rapier_http_head_set_status(&head, 600, NULL, 0), RAPIER_HTTP_EBADSTATUS);
	CHECK_EQ_INT(rapier_http_head_set_status(&head, 200, "a\r\nX: y", 7), RAPIER_HTTP_EBADREASON);
	CHECK_EQ_INT(rapier_http_head_set_status(&head, 200, "a\nb", 3), RAPIER_HTTP_EBADREASON);
	CHECK_EQ_INT(rapier_http_head_set_status(&head, 200, "a\0b", 3), RAPIER_HTTP_EBADREASON);
	char longr[RAPIER_HTTP_REASON_MAX + 1];
	memset(longr, 'r', sizeof(longr));
	CHECK_EQ_INT(rapier_http_head_set_status(&head, 200, longr, sizeof(longr)), RAPIER_HTTP_EBADREASON);
	CHECK_EQ_INT(rapier_http_head_set_status(&head, 200, longr, RAPIER_HTTP_REASON_MAX), 0);
	/* A refused status leaves the previous one in place. */
	CHECK_EQ_INT(head.status, 200);
	CHECK_EQ_STR(rapier_http_reason(418), "I'm a teapot");
	CHECK_EQ_STR(rapier_http_reason(431), "Request Header Fields Too Large");
	CHECK(rapier_http_reason(299) == NULL);
	CHECK(rapier_http_reason(1000) == NULL);
	int registered = 0;
	for (int s = 100; s <= 599; s++) {
		if (rapier_http_reason(s)) {
			registered++;
			CHECK_EQ_INT(rapier_http_head_set_status(&head, s, NULL, 0), 0);
			CHECK(head.status_line_len == 15 + strlen(rapier_http_reason(s)));
		}
	}
	CHECK_EQ_INT(registered, 62);
}

/* Every control byte but HTAB, at every position of a name or value, is refused and writes nothing. */
static void test_injection_refused_everywhere(void)
{
	const char *name = "X-Custom", *value = "some value";
	char tmp[64];

	start();
	for (int c = 0; c < 256; c++) {
		bool ctl = (c < 0x20 && c != '\t') || c == 0x7f;
		for (size_t pos = 0; pos <= strlen(value); pos++) {
			memcpy(tmp, value, pos);
			tmp[pos] = (char) c;
			memcpy(tmp + pos + 1, value + pos, strlen(value) - pos);
			int rc = rapier_http_head_add(&head, name, strlen(name), tmp, strlen(value) + 1);
			if (ctl) {
				CHECK_EQ_INT(rc, RAPIER_HTTP_EBADVALUE);
			} else {
				CHECK_EQ_INT(rc, 0);
			}
		}
		for (size_t pos = 0; pos <= strlen(name); pos++) {
			memcpy(tmp, name, pos);
			tmp[pos] = (char) c;
			memcpy(tmp + pos + 1, name + pos, strlen(name) - pos);
			int rc = rapier_http_head_add(&head, tmp, strlen(name) + 1, value, strlen(value));
			CHECK_EQ_INT(rc == 0, token_table[c]);
			if (ctl) {
				CHECK_EQ_INT(rc, RAPIER_HTTP_EBADNAME);
			}
		}
	}
	/* Whatever was written is a sequence of well-formed lines: no CR or LF outside a CRLF pair. */
	for (size_t i = 0; i < buf.len; i++) {
		if (buf.data[i] == '\r') {
			CHECK(i + 1 < buf.len && buf.data[i + 1] == '\n');
		}
		if (buf.data[i] == '\n') {
			CHECK(i > 0 && buf.data[i - 1] == '\r');
		}
		CHECK(buf.data[i] != '\0');
	}
}

static void test_classic_splitting_payloads(void)
{
	static const char *const values[] = {
		"x\r\nSet-Cookie: evil=1", "x\nSet-Cookie: evil=1", "x\rSet-Cookie: evil=1", "x\r\n\r\n<html>",
		"\r\n", "\n", "\r", "x\0y", "x\r\n SP-folded",
	};
	start();
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		size_t len = strlen(values[i]) + (i == 7 ? 2 : 0);
		CHECK_EQ_INT(rapier_http_head_add(&head, "Location", 8, values[i], len), RAPIER_HTTP_EBADVALUE);
		CHECK_EQ_INT(rapier_http_head_add(&head, values[i], len, "v", 1), RAPIER_HTTP_EBADNAME);
	}
	CHECK_EQ_INT(rapier_http_head_add(&head, "", 0, "v", 1), RAPIER_HTTP_EBADNAME);
	CHECK_EQ_INT(rapier_http_head_add(&head, "Bad Name", 8, "v", 1), RAPIER_HTTP_EBADNAME);
	CHECK_EQ_INT(rapier_http_head_add(&head, "Bad:Name", 8, "v", 1), RAPIER_HTTP_EBADNAME);
	CHECK_EQ_INT(rapier_http_head_add(&head, "N\xc3\xa9", 3, "v", 1), RAPIER_HTTP_EBADNAME);
	CHECK_EQ_INT(buf.len, 0);
	CHECK(!rapier_http_header_value_valid("a\x7f", 2));
	CHECK(rapier_http_header_value_valid("caf\xc3\xa9\tx", 7));
}

static void test_values_trimmed_and_empty_allowed(void)
{
	start();
	CHECK_EQ_INT(rapier_http_head_add(&head, "X-A", 3, "  padded\t ", 10), 0);
	CHECK_EQ_INT(rapier_http_head_add(&head, "X-Empty", 7, "", 0), 0);
	CHECK_EQ_INT(buf.len, strlen("X-A: padded\r\nX-Empty: \r\n"));
	CHECK(memcmp(buf.data, "X-A: padded\r\nX-Empty: \r\n", buf.len) == 0);
}

static void test_trailer_fields(void)
{
	static const char *const refused[] = {
		"Content-Length", "transfer-encoding", "TRAILER", "Content-Type", "content-encoding", "Content-Range",
		"Host", "Set-Cookie", "Authorization", "Cache-Control", "Connection", "TE", "Upgrade",
	};
	rapier_http_buf_t t;

	rapier_http_buf_init(&t, NULL, 0, 64);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		CHECK_EQ_INT(rapier_http_trailer_add(&t, refused[i], strlen(refused[i]), "1", 1), RAPIER_HTTP_ENOTRAILER);
	}
	CHECK_EQ_INT(rapier_http_trailer_add(&t, "Bad Name", 8, "v", 1), RAPIER_HTTP_EBADNAME);
	CHECK_EQ_INT(rapier_http_trailer_add(&t, "", 0, "v", 1), RAPIER_HTTP_EBADNAME);
	CHECK_EQ_INT(rapier_http_trailer_add(&t, "X-Split", 7, "a\r\nX-Evil: 1", 14), RAPIER_HTTP_EBADVALUE);
	CHECK_EQ_INT(t.len, 0);
	/* Names that merely begin like a refused one are fine. */
	CHECK_EQ_INT(rapier_http_trailer_add(&t, "grpc-status", 11, " 0 ", 3), 0);
	CHECK_EQ_INT(rapier_http_trailer_add(&t, "Content-MD5", 11, "x", 1), 0);
	CHECK(t.len == strlen("grpc-status: 0\r\nContent-MD5: x\r\n")
		&& memcmp(t.data, "grpc-status: 0\r\nContent-MD5: x\r\n", t.len) == 0);
	/* The block is bounded like a head. */
	CHECK_EQ_INT(rapier_http_trailer_add(&t, "X-Long", 6, "0123456789012345678901234567890123456789", 40),
		RAPIER_HTTP_ETOOLARGE);
	rapier_http_buf_free(&t);
	start();
	CHECK(!rapier_http_head_has_trailers(&head));
}

static void test_keep_alive_matrix(void)
{
	struct {
		int minor;
		bool req_ka, server_close, app_close;
		bool keep;
		const char *conn;
	} cases[] = {
		{ 1, true, false, false, true, NULL },
		{ 1, false, false, false, false, "Connection: close\r\n" },
		{ 1, true, true, false, false, "Connection: close\r\n" },
		{ 1, true, false, true, false, "Connection: close\r\n" },
		{ 0, true, false, false, true, "Connection: keep-alive\r\n" },
		{ 0, false, false, false, false, "Connection: close\r\n" },
		{ 0, true, true, false, false, "Connection: close\r\n" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		start();
		if (cases[i].app_close) {
			CHECK_EQ_INT(rapier_http_head_add(&head, "connection", 10, "Upgrade, CLOSE", 14), 0);
		}
		rapier_http_finish_t in = finish_in(0, cases[i].minor, cases[i].req_ka);
		in.server_close = cases[i].server_close;
		const char *out = finish(&in);
		CHECK_EQ_INT(head.keep_alive, cases[i].keep);
		CHECK(strstr(out, "Connection:") == NULL || cases[i].conn != NULL);
		if (cases[i].conn) {
			CHECK(strstr(out, cases[i].conn) != NULL);
		}
		/* Exactly one Connection header: the application's was absorbed. */
		const char *first = strstr(out, "onnection:");
		CHECK(first == NULL || strstr(first + 1, "onnection:") == NULL);
	}
}

static void test_framing(void)
{
	start();
	rapier_http_finish_t in = finish_in(RAPIER_HTTP_LENGTH_UNKNOWN, 1, true);
	CHECK(strstr(finish(&in), "\r\nTransfer-Encoding: chunked\r\n") != NULL);
	CHECK(head.chunked && head.keep_alive && head.body_allowed);

	/* HTTP/1.0 cannot chunk: the body is delimited by closing. */
	start();
	in = finish_in(RAPIER_HTTP_LENGTH_UNKNOWN, 0, true);
	const char *out = finish(&in);
	CHECK(strstr(out, "Transfer-Encoding") == NULL && strstr(out, "Content-Length") == NULL);
	CHECK(!head.chunked && !head.keep_alive);
	CHECK(strstr(out, "Connection: close\r\n") != NULL);

	/* Application framing headers are absorbed: the real length wins. */
	start();
	CHECK_EQ_INT(rapier_http_head_add(&head, "Content-Length", 14, "999", 3), 0);
	CHECK_EQ_INT(rapier_http_head_add(&head, "Transfer-Encoding", 17, "chunked", 7), 0);
	CHECK_EQ_INT(rapier_http_head_add(&head, "Content-Length", 14, "-1", 2), RAPIER_HTTP_EBADVALUE);
	CHECK_EQ_INT(rapier_http_head_add(&head, "Content-Length", 14, "1 2", 3), RAPIER_HTTP_EBADVALUE);
	in = finish_in(5, 1, true);
	out = finish(&in);
	CHECK(strstr(out, "Content-Length: 5\r\n") != NULL);
	CHECK(strstr(out, "999") == NULL && strstr(out, "Transfer-Encoding") == NULL);
}

static void test_head_and_bodiless_statuses(void)
{
	start();
	rapier_http_finish_t in = finish_in(1234, 1, true);
	in.head_request = true;
	CHECK(strstr(finish(&in), "Content-Length: 1234\r\n") != NULL);
	CHECK(!head.body_allowed);

	/* HEAD answered without a body: the application's Content-Length describes the would-be body. */
	start();
	CHECK_EQ_INT(rapier_http_head_add(&head, "Content-Length", 14, "4321", 4), 0);
	in = finish_in(0, 1, true);
	in.head_request = true;
	CHECK(strstr(finish(&in), "Content-Length: 4321\r\n") != NULL);

	start();
	in = finish_in(RAPIER_HTTP_LENGTH_UNKNOWN, 1, true);
	in.head_request = true;
	const char *out = finish(&in);
	CHECK(strstr(out, "Transfer-Encoding") == NULL && strstr(out, "Content-Length") == NULL);
	CHECK(!head.chunked && head.keep_alive);

	int codes[] = { 204, 304, 100 };
	for (int i = 0; i < 3; i++) {
		start();
		CHECK_EQ_INT(rapier_http_head_set_status(&head, codes[i], NULL, 0), 0);
		in = finish_in(RAPIER_HTTP_LENGTH_UNKNOWN, 1, true);
		out = finish(&in);
		CHECK(strstr(out, "Transfer-Encoding") == NULL && strstr(out, "Content-Length") == NULL);
		CHECK(!head.body_allowed && !head.chunked && head.keep_alive);
	}
}

static void test_date_and_server(void)
{
	start();
	CHECK_EQ_INT(rapier_http_head_add(&head, "date", 4, "Mon, 07 Nov 1994 00:00:00 GMT", 29), 0);
	CHECK_EQ_INT(rapier_http_head_add(&head, "SERVER", 6, "app", 3), 0);
	rapier_http_finish_t in = finish_in(0, 1, true);
	in.server = "rapier";
	in.server_len = 6;
	const char *out = finish(&in);
	CHECK(strstr(out, "Sun, 06 Nov") == NULL && strstr(out, "date: Mon, 07 Nov") != NULL);
	CHECK(strstr(out, "Server: rapier") == NULL && strstr(out, "SERVER: app") != NULL);

	start();
	in = finish_in(0, 1, true);
	in.date_line = NULL;
	in.server = "bad\r\nX: y";
	in.server_len = 9;
	struct iovec iov[2];
	CHECK_EQ_INT(rapier_http_head_finish(&head, &in, iov), RAPIER_HTTP_EBADVALUE);
	in.server = NULL;
	CHECK_EQ_STR(finish(&in), "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
}

static void test_pipelined_heads_share_a_buffer(void)
{
	struct iovec iov[2];

	start();
	rapier_http_finish_t in = finish_in(1, 1, true);
	CHECK_EQ_INT(rapier_http_head_finish(&head, &in, iov), 0);
	size_t first = buf.len;
	rapier_http_head_init(&head, &buf);
	CHECK_EQ_INT(rapier_http_head_add(&head, "X-Second", 8, "2", 1), 0);
	CHECK_EQ_INT(rapier_http_head_finish(&head, &in, iov), 0);
	CHECK(iov[1].iov_base == buf.data + first);
	CHECK(memcmp(iov[1].iov_base, "X-Second: 2\r\n", 13) == 0);
}

/* A coding made for the response: strong ETags weakened, Accept-Ranges dropped, the rest untouched; this head only. */
static void test_encoded(void)
{
	static const char want[] = "ETag: W/\"v1\"\r\nX-ETag: \"x\"\r\nAccept-Ranges-Not: y\r\n"
		"etag: W/\"already\"\r\nCache-Control: max-age=60\r\n";
	struct iovec iov[2];
	rapier_http_finish_t in = finish_in(RAPIER_HTTP_LENGTH_UNKNOWN, 1, true);
	size_t first;

	start();
	CHECK_EQ_INT(rapier_http_head_add(&head, "Accept-Ranges", 13, "bytes", 5), 0);
	CHECK_EQ_INT(rapier_http_head_finish(&head, &in, iov), 0);
	first = buf.len;
	rapier_http_head_init(&head, &buf);
	CHECK_EQ_INT(rapier_http_head_add(&head, "accept-ranges", 13, "bytes", 5), 0);
	CHECK_EQ_INT(rapier_http_head_add(&head, "ETag", 4, "\"v1\"", 4), 0);
	CHECK_EQ_INT(rapier_http_head_add(&head, "X-ETag", 6, "\"x\"", 3), 0);
	CHECK_EQ_INT(rapier_http_head_add(&head, "Accept-Ranges-Not", 17, "y", 1), 0);
	CHECK_EQ_INT(rapier_http_head_add(&head, "etag", 4, "W/\"already\"", 11), 0);
	CHECK_EQ_INT(rapier_http_head_add(&head, "Accept-Ranges", 13, "none", 4), 0);
	CHECK_EQ_INT(rapier_http_head_add(&head, "Cache-Control", 13, "max-age=60", 10), 0);
	CHECK_EQ_INT(rapier_http_head_encoded(&head), 0);
	CHECK_EQ_INT(rapier_http_head_finish(&head, &in, iov), 0);
	CHECK(iov[1].iov_base == buf.data + first);
	CHECK(memcmp(buf.data, "Accept-Ranges: bytes\r\n", 22) == 0);   /* the earlier head is not this one's */
	CHECK(iov[1].iov_len > strlen(want) && memcmp(iov[1].iov_base, want, strlen(want)) == 0);

	start();
	CHECK_EQ_INT(rapier_http_head_encoded(&head), 0);
	CHECK_EQ_INT(buf.len, 0);
}

static void test_buffer_growth_and_limit(void)
{
	char storage[16];
	rapier_http_buf_t b;

	rapier_http_buf_init(&b, storage, sizeof(storage), 1000);
	CHECK_EQ_INT(rapier_http_buf_append(&b, "0123456789", 10), 0);
	CHECK(b.data == storage && !b.on_heap);
	CHECK_EQ_INT(rapier_http_buf_append(&b, "abcdefghij", 10), 0);
	CHECK(b.on_heap && b.len == 20 && memcmp(b.data, "0123456789abcdefghij", 20) == 0);
	char big[1000] = { 0 };
	CHECK_EQ_INT(rapier_http_buf_append(&b, big, 981), RAPIER_HTTP_ETOOLARGE);
	CHECK_EQ_INT(rapier_http_buf_append(&b, big, 980), 0);
	CHECK_EQ_INT(b.len, 1000);
	CHECK_EQ_INT(b.cap, 1000);
	rapier_http_buf_free(&b);

	/* A max below the first growth step is never exceeded. */
	rapier_http_buf_init(&b, NULL, 0, 100);
	CHECK_EQ_INT(rapier_http_buf_reserve(&b, 10), 0);
	CHECK_EQ_INT(b.cap, 100);
	CHECK_EQ_INT(rapier_http_buf_append(&b, big, 100), 0);
	CHECK_EQ_INT(rapier_http_buf_append(&b, big, 1), RAPIER_HTTP_ETOOLARGE);
	CHECK_EQ_INT(b.len, 100);
	rapier_http_buf_free(&b);
}

static void test_chunk_helpers(void)
{
	char h[RAPIER_HTTP_CHUNK_HEADER_MAX], d[20];

	CHECK_EQ_INT(rapier_http_chunk_header(h, 0), 0);
	CHECK_EQ_INT(rapier_http_chunk_header(h, 1), 3);
	CHECK(memcmp(h, "1\r\n", 3) == 0);
	CHECK_EQ_INT(rapier_http_chunk_header(h, 4096), 6);
	CHECK(memcmp(h, "1000\r\n", 6) == 0);
	CHECK_EQ_INT(rapier_http_chunk_header(h, 0xabcdef), 8);
	CHECK(memcmp(h, "abcdef\r\n", 8) == 0);
	CHECK_EQ_INT(rapier_http_chunk_header(h, UINT64_MAX), 18);
	CHECK(memcmp(h, "ffffffffffffffff\r\n", 18) == 0);
	CHECK_EQ_INT(rapier_http_u64_to_dec(d, 0), 1);
	CHECK_EQ_INT(rapier_http_u64_to_dec(d, UINT64_MAX), 20);
	CHECK(memcmp(d, "18446744073709551615", 20) == 0);
	CHECK_EQ_INT(RAPIER_HTTP_LAST_CHUNK_LEN, strlen(RAPIER_HTTP_LAST_CHUNK));
}

static void test_date_format_against_libc(void)
{
	char ours[RAPIER_HTTP_DATE_LEN + 1], theirs[64];
	struct tm tm;

	CHECK_EQ_INT(rapier_http_date_format(0, ours), RAPIER_HTTP_DATE_LEN);
	CHECK_EQ_STR(ours, "Thu, 01 Jan 1970 00:00:00 GMT");
	rapier_http_date_format(784111777, ours);
	CHECK_EQ_STR(ours, "Sun, 06 Nov 1994 08:49:37 GMT");
	rapier_http_date_format(951782400, ours);
	CHECK_EQ_STR(ours, "Tue, 29 Feb 2000 00:00:00 GMT");
	rapier_http_date_format(-5, ours);
	CHECK_EQ_STR(ours, "Thu, 01 Jan 1970 00:00:00 GMT");
	rapier_http_date_format(INT64_MAX, ours);
	CHECK_EQ_STR(ours, "Fri, 31 Dec 9999 23:59:59 GMT");
	srand(11);
	for (int i = 0; i < 20000; i++) {
		int64_t t = ((int64_t) rand() << 16 ^ rand()) % INT64_C(253402300800);
		time_t tt = (time_t) t;
		gmtime_r(&tt, &tm);
		strftime(theirs, sizeof(theirs), "%a, %d %b %Y %H:%M:%S GMT", &tm);
		rapier_http_date_format(t, ours);
		int64_t back = -1;
		CHECK_EQ_INT(rapier_http_date_parse(ours, RAPIER_HTTP_DATE_LEN, &back), 0);
		CHECK_EQ_INT(back, t);
		if (strcmp(ours, theirs) != 0) {
			CHECK_EQ_STR(ours, theirs);
			break;
		}
	}
}

static void test_date_parse_formats(void)
{
	static const char *const good[] = {
		"Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
		"  Sun, 06 Nov 1994 08:49:37 GMT\t", "Wed, 06 Nov 1994 08:49:37 GMT",
	};
	static const char *const bad[] = {
		"", "Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 08:49:37 GMT x", "Sun, 6 Nov 1994 08:49:37 GMT",
		"Sun, 06 nov 1994 08:49:37 GMT", "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
		"Sun, 06 Nov 1994 08:60:00 GMT", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Nov 94 08:49:37 GMT",
		"Sunday, 06-Nov-1994 08:49:37 GMT", "Sun Nov 6 08:49:37 1994", "Sun Nov  6 08:49:37 94",
		"Funday, 06-Nov-94 08:49:37 GMT", "Sun, 00 Nov 1994 08:49:37 GMT", "Sun, -6 Nov 1994 08:49:37 GMT",
		"1994-11-06T08:49:37Z", "Sun, 06 Nov 1994 08:49:37 GMT\r\n",
	};
	int64_t t;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		t = 0;
		CHECK_EQ_INT(rapier_http_date_parse(good[i], strlen(good[i]), &t), 0);
		CHECK_EQ_INT(t, 784111777);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (rapier_http_date_parse(bad[i], strlen(bad[i]), &t) != -EINVAL) {
			CHECK_EQ_STR(bad[i], "(should be refused)");
		}
	}
	CHECK_EQ_INT(rapier_http_date_parse("Thu, 29 Feb 2024 12:00:00 GMT", 29, &t), 0);
	CHECK_EQ_INT(t, 1709208000);
	CHECK_EQ_INT(rapier_http_date_parse("Thu, 29 Feb 2100 12:00:00 GMT", 29, &t), -EINVAL);
	CHECK_EQ_INT(rapier_http_date_parse("Thursday, 01-Jan-70 00:00:00 GMT", 32, &t), 0);
	CHECK_EQ_INT(t, 0);
	CHECK_EQ_INT(rapier_http_date_parse("Sunday, 01-Jan-34 00:00:00 GMT", 30, &t), 0);
	CHECK_EQ_INT(t, 2019686400);
	CHECK_EQ_INT(rapier_http_date_parse("Tue Dec 31 23:59:60 2024", 24, &t), 0);
	CHECK_EQ_INT(t, 1735689599);
	CHECK_EQ_INT(rapier_http_date_parse("Sun, 06 Nov 1994 08:49:37 GMT", 10, &t), -EINVAL);
}

static void test_date_cache(void)
{
	rapier_http_date_cache_t c;

	rapier_http_date_cache_init(&c);
	const char *line = rapier_http_date_cache_line(&c, 784111777);
	CHECK_EQ_STR(line, "Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n");
	CHECK_EQ_INT(strlen(line), RAPIER_HTTP_DATE_LINE_LEN);
	/* Same second: the cached bytes are returned untouched. */
	c.line[6] = 'X';
	CHECK(rapier_http_date_cache_line(&c, 784111777)[6] == 'X');
	CHECK_EQ_STR(rapier_http_date_cache_line(&c, 784111778), "Date: Sun, 06 Nov 1994 08:49:38 GMT\r\n");
}

int main(void)
{
	rapier_http_buf_init(&buf, NULL, 0, 0);
	rapier_http_date_cache_init(&dates);
	test_hello_json_exact_bytes();
	test_status_lines();
	test_injection_refused_everywhere();
	test_classic_splitting_payloads();
	test_values_trimmed_and_empty_allowed();
	test_trailer_fields();
	test_keep_alive_matrix();
	test_framing();
	test_head_and_bodiless_statuses();
	test_date_and_server();
	test_pipelined_heads_share_a_buffer();
	test_encoded();
	test_buffer_growth_and_limit();
	test_chunk_helpers();
	test_date_format_against_libc();
	test_date_parse_formats();
	test_date_cache();
	rapier_http_buf_free(&buf);
	return unit_finish("http_response_test");
}
