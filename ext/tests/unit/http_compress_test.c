/* Unit tests for the gzip decision, Accept-Encoding parsing and the compressors. */
#include "unit.h"

#include <errno.h>

#include "http_response.c"
#include "http_gzip.c"

/* Inflates a whole gzip body; returns the length or -1. */
static long inflate_all(const char *in, size_t len, char *out, size_t cap)
{
	z_stream zs = { 0 };

	if (inflateInit2(&zs, 15 + 16) != Z_OK) {
		return -1;
	}
	zs.next_in = (unsigned char *) in;
	zs.avail_in = (uInt) len;
	zs.next_out = (unsigned char *) out;
	zs.avail_out = (uInt) cap;
	int rc = inflate(&zs, Z_FINISH);
	long n = rc == Z_STREAM_END && zs.avail_in == 0 ? (long) zs.total_out : -1;
	inflateEnd(&zs);
	return n;
}

/* Text-like input that compresses but is not trivial. */
static void fill_text(char *p, size_t len, unsigned seed)
{
	static const char *const words[] = { "rapier ", "coroutine ", "{\"time\": ", "hello ", "\n", "epoll " };
	size_t i = 0;

	srand(seed);
	while (i < len) {
		const char *w = words[rand() % 6];
		for (; *w && i < len; w++) {
			p[i++] = *w;
		}
		if (i < len && rand() % 7 == 0) {
			p[i++] = (char) ('a' + rand() % 26);
		}
	}
}

static void test_accept_encoding(void)
{
	static const struct {
		const char *value;
		bool ok;
	} cases[] = {
		{ "gzip", true }, { "GZIP", true }, { "x-gzip", true }, { "gzip, deflate, br", true },
		{ "deflate, gzip;q=1.0, *;q=0.5", true }, { "gzip;q=0.001", true }, { "  gzip  ;  q=0.8 ", true },
		{ "gzip;q=0.5;level=1", true }, { "br;q=1, gzip;q=0.1", true }, { ", ,gzip", true }, { "*", true },
		{ "gzip;Q=1", true }, { "gzip;q=1.", true }, { "gzip;q=0", false }, { "gzip; q=0.000", false },
		{ "gzip;q=0, *", false }, { "*, gzip;q=0", false }, { "*;q=0", false }, { "identity", false },
		{ "", false }, { "br", false }, { "gzipx", false }, { "deflate", false }, { "gzip;q=2", false },
		{ "gzip;q=1.001", false }, { "gzip;q=0.0001", false }, { "gzip;q=", false }, { "gzip;q=abc", false },
		{ "gzip;q=-1", false }, { "deflate;q=0.5, *;q=0", false }, { "x-gzip;q=0, *;q=1", false },
		{ "*;q=0.1, identity", true },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (rapier_gzip_accepted(cases[i].value, strlen(cases[i].value)) != cases[i].ok) {
			CHECK_EQ_STR(cases[i].value, cases[i].ok ? "(should accept)" : "(should refuse)");
		}
	}
	CHECK(!rapier_gzip_accepted(NULL, 0));
	/* Length is honoured: "gzip;q=0" cut after "gzip" accepts. */
	CHECK(rapier_gzip_accepted("gzip;q=0", 4));
}

static void test_compressible_types(void)
{
	static const char *const yes[] = {
		"text/html", "text/html; charset=utf-8", "TEXT/CSS", "text/plain;charset=iso-8859-1",
		"application/json", "application/javascript", "application/xml", "image/svg+xml",
		"application/ld+json", "application/atom+xml", "application/wasm", "font/ttf", " text/csv ",
	};
	static const char *const no[] = {
		"image/png", "image/jpeg", "application/octet-stream", "application/zip", "application/gzip",
		"font/woff2", "video/mp4", "text/event-stream", "text/", "", "application/jsonx", "json",
	};
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!rapier_gzip_compressible_type(yes[i], strlen(yes[i]))) {
			CHECK_EQ_STR(yes[i], "(should be compressible)");
		}
	}
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		if (rapier_gzip_compressible_type(no[i], strlen(no[i]))) {
			CHECK_EQ_STR(no[i], "(should not be compressible)");
		}
	}
	CHECK(!rapier_gzip_compressible_type(NULL, 0));
}

static void test_decision(void)
{
	rapier_gzip_config_t cfg;
	rapier_gzip_input_t in = { 0 };

	rapier_gzip_config_init(&cfg);
	CHECK_EQ_INT(cfg.level, 1);
	CHECK_EQ_INT(cfg.min_length, 1024);
	in.status = 200;
	in.accept_encoding = "gzip, br";
	in.accept_encoding_len = 8;
	in.content_type = "application/json";
	in.content_type_len = 16;
	in.body_len = 1024;
	CHECK_EQ_INT(rapier_gzip_decide(&cfg, &in), RAPIER_GZIP_YES);
	in.body_len = RAPIER_HTTP_LENGTH_UNKNOWN;
	CHECK_EQ_INT(rapier_gzip_decide(&cfg, &in), RAPIER_GZIP_YES);
	in.body_len = 1023;
	CHECK_EQ_INT(rapier_gzip_decide(&cfg, &in), RAPIER_GZIP_NO);
	in.body_len = 5000;
	in.accept_encoding = NULL;
	CHECK_EQ_INT(rapier_gzip_decide(&cfg, &in), RAPIER_GZIP_VARY);
	in.accept_encoding = "gzip;q=0";
	in.accept_encoding_len = 8;
	CHECK_EQ_INT(rapier_gzip_decide(&cfg, &in), RAPIER_GZIP_VARY);
	in.accept_encoding = "gzip";
	in.accept_encoding_len = 4;
	int no_body[] = { 101, 204, 206, 304 };
	for (int i = 0; i < 4; i++) {
		in.status = no_body[i];
		CHECK_EQ_INT(rapier_gzip_decide(&cfg, &in), RAPIER_GZIP_NO);
	}
	in.status = 404;
	CHECK_EQ_INT(rapier_gzip_decide(&cfg, &in), RAPIER_GZIP_YES);
	in.has_content_encoding = true;
	CHECK_EQ_INT(rapier_gzip_decide(&cfg, &in), RAPIER_GZIP_NO);
	in.has_content_encoding = false;
	in.content_type = "image/png";
	in.content_type_len = 9;
	CHECK_EQ_INT(rapier_gzip_decide(&cfg, &in), RAPIER_GZIP_NO);
	in.content_type = NULL;
	CHECK_EQ_INT(rapier_gzip_decide(&cfg, &in), RAPIER_GZIP_NO);
}

static void test_whole_round_trip(void)
{
	size_t sizes[] = { 0, 1, 1023, 1024, 65536, 3 * 1024 * 1024 + 17 };
	rapier_gzip_t gz;
	rapier_http_buf_t out;
	char *in = malloc(sizes[5]), *back = malloc(sizes[5] + 1);

	CHECK_EQ_INT(rapier_gzip_init(&gz, 0), -EINVAL);
	CHECK_EQ_INT(rapier_gzip_init(&gz, 10), -EINVAL);
	CHECK_EQ_INT(rapier_gzip_init(&gz, 1), 0);
	rapier_http_buf_init(&out, NULL, 0, 64 * 1024 * 1024);
	for (int round = 0; round < 2; round++) {
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			fill_text(in, sizes[i], (unsigned) i);
			rapier_http_buf_reset(&out);
			CHECK_EQ_INT(rapier_gzip_compress(&gz, in, sizes[i], &out), 0);
			CHECK(out.len >= 18 && (unsigned char) out.data[0] == 0x1f && (unsigned char) out.data[1] == 0x8b);
			CHECK_EQ_INT(inflate_all(out.data, out.len, back, sizes[5] + 1), sizes[i]);
			CHECK(memcmp(in, back, sizes[i]) == 0);
			if (sizes[i] >= 65536) {
				CHECK(out.len < sizes[i] / 2);
			}
		}
	}
	/* deflateBound() above the buffer's max is no failure when the output fits (3 MiB of text into a 1 MiB max). */
	rapier_http_buf_t bounded;
	rapier_http_buf_init(&bounded, NULL, 0, 0);
	fill_text(in, sizes[5], 3);
	CHECK_EQ_INT(rapier_gzip_compress(&gz, in, sizes[5], &bounded), 0);
	CHECK(bounded.len < RAPIER_HTTP_BUF_DEFAULT_MAX);
	CHECK_EQ_INT(inflate_all(bounded.data, bounded.len, back, sizes[5] + 1), sizes[5]);
	rapier_http_buf_free(&bounded);
	/* A bounded output buffer fails cleanly. */
	rapier_http_buf_t small;
	rapier_http_buf_init(&small, NULL, 0, 100);
	fill_text(in, 65536, 99);
	CHECK_EQ_INT(rapier_gzip_compress(&gz, in, 65536, &small), RAPIER_HTTP_ETOOLARGE);
	rapier_http_buf_free(&small);
	/* ...and the compressor is usable afterwards. */
	rapier_http_buf_reset(&out);
	CHECK_EQ_INT(rapier_gzip_compress(&gz, in, 4096, &out), 0);
	CHECK_EQ_INT(inflate_all(out.data, out.len, back, 4096), 4096);
	rapier_gzip_destroy(&gz);
	rapier_http_buf_free(&out);
	free(in);
	free(back);
}

/* Streams `len` bytes in pieces of `step`; after every write, what was sent so far must inflate to the input so far. */
static void stream_in_steps(rapier_gzip_t *gz, const char *in, size_t len, size_t step)
{
	rapier_http_buf_t out;
	z_stream zs = { 0 };
	char *back = malloc(len + 1);
	size_t inflated_from = 0;

	rapier_http_buf_init(&out, NULL, 0, 64 * 1024 * 1024);
	CHECK_EQ_INT(inflateInit2(&zs, 15 + 16), Z_OK);
	zs.next_out = (unsigned char *) back;
	zs.avail_out = (uInt) len + 1;
	for (size_t off = 0; off < len; off += step) {
		size_t n = len - off < step ? len - off : step;
		CHECK_EQ_INT(rapier_gzip_stream_write(gz, in + off, n, &out), 0);
		zs.next_in = (unsigned char *) out.data + inflated_from;
		zs.avail_in = (uInt) (out.len - inflated_from);
		inflated_from = out.len;
		int rc = inflate(&zs, Z_SYNC_FLUSH);
		CHECK(rc == Z_OK || rc == Z_BUF_ERROR);
		CHECK_EQ_INT(zs.total_out, off + n);
	}
	CHECK_EQ_INT(rapier_gzip_stream_finish(gz, &out), 0);
	zs.next_in = (unsigned char *) out.data + inflated_from;
	zs.avail_in = (uInt) (out.len - inflated_from);
	CHECK_EQ_INT(inflate(&zs, Z_FINISH), Z_STREAM_END);
	CHECK_EQ_INT(zs.total_out, len);
	CHECK(memcmp(back, in, len) == 0);
	inflateEnd(&zs);
	/* The whole stream also inflates in one go, like the whole-buffer output. */
	CHECK_EQ_INT(inflate_all(out.data, out.len, back, len + 1), len);
	rapier_http_buf_free(&out);
	free(back);
}

static void test_streaming_matches_whole(void)
{
	size_t steps[] = { 1, 2, 7, 4096 };
	rapier_gzip_pool_t pool;
	char *in = malloc(20000);

	rapier_gzip_pool_init(&pool, 6, RAPIER_GZIP_POOL_DEFAULT_MAX_IDLE);
	fill_text(in, 20000, 5);
	for (int i = 0; i < 4; i++) {
		rapier_gzip_t *gz = rapier_gzip_pool_get(&pool);
		CHECK(gz != NULL);
		stream_in_steps(gz, in, steps[i] < 7 ? 3000 : 20000, steps[i]);
		rapier_gzip_pool_put(&pool, gz);
	}
	/* An aborted stream leaves the compressor clean for the next body. */
	rapier_gzip_t *gz = rapier_gzip_pool_get(&pool);
	rapier_http_buf_t out;
	rapier_http_buf_init(&out, NULL, 0, 0);
	CHECK_EQ_INT(rapier_gzip_stream_write(gz, in, 5000, &out), 0);
	rapier_gzip_stream_abort(gz);
	rapier_http_buf_reset(&out);
	CHECK_EQ_INT(rapier_gzip_stream_write(gz, "", 0, &out), 0);
	CHECK_EQ_INT(out.len, 0);
	CHECK_EQ_INT(rapier_gzip_stream_finish(gz, &out), 0);
	char back[16];
	CHECK_EQ_INT(inflate_all(out.data, out.len, back, sizeof(back)), 0);
	rapier_http_buf_reset(&out);
	CHECK_EQ_INT(rapier_gzip_compress(gz, in, 100, &out), 0);
	char back100[100];
	CHECK_EQ_INT(inflate_all(out.data, out.len, back100, sizeof(back100)), 100);
	CHECK(memcmp(back100, in, 100) == 0);
	rapier_gzip_pool_put(&pool, gz);
	rapier_http_buf_free(&out);
	rapier_gzip_pool_free(&pool);
	free(in);
}

static void test_pool_caps_idle(void)
{
	rapier_gzip_pool_t pool;
	rapier_gzip_t *gz[6];

	rapier_gzip_pool_init(&pool, 1, 2);
	for (int i = 0; i < 6; i++) {
		gz[i] = rapier_gzip_pool_get(&pool);
		CHECK(gz[i] != NULL);
	}
	for (int i = 0; i < 6; i++) {
		rapier_gzip_pool_put(&pool, gz[i]);
	}
	CHECK_EQ_INT(pool.idle, 2);
	/* Reuse: the next get returns an idle compressor, not a new one. */
	rapier_gzip_t *again = rapier_gzip_pool_get(&pool);
	CHECK(again == gz[1]);
	CHECK_EQ_INT(pool.idle, 1);
	rapier_gzip_pool_put(&pool, again);
	rapier_gzip_pool_free(&pool);
	CHECK_EQ_INT(pool.idle, 0);
}

static void test_headers_added(void)
{
	rapier_http_buf_t buf;
	rapier_http_head_t head;

	rapier_http_buf_init(&buf, NULL, 0, 0);
	rapier_http_head_init(&head, &buf);
	CHECK_EQ_INT(rapier_http_head_add_line(&head, RAPIER_GZIP_HEADERS, sizeof(RAPIER_GZIP_HEADERS) - 1), 0);
	CHECK(buf.len == strlen("Content-Encoding: gzip\r\nVary: Accept-Encoding\r\n"));
	rapier_http_buf_free(&buf);
}

int main(void)
{
	test_accept_encoding();
	test_compressible_types();
	test_decision();
	test_whole_round_trip();
	test_streaming_matches_whole();
	test_pool_caps_idle();
	test_headers_added();
	return unit_finish("http_gzip_test");
}
