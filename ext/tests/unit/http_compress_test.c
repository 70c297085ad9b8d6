/* Unit tests for the compression decision, Accept-Encoding negotiation and the encoders of zstd, br and gzip. */
#include "unit.h"

#include <errno.h>
#include <brotli/decode.h>
#include <zstd.h>

#include "http_response.c"
#include "http_gzip.c"
#include "http_brotli.c"
#include "http_zstd.c"
#include "http_compress.c"

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

/* A configuration with only gzip: the cases below are gzip's acceptance rules alone. */
static rapier_compress_config_t gzip_only(void)
{
	rapier_compress_config_t cfg;

	rapier_compress_config_init(&cfg);
	cfg.codings[0] = RAPIER_CODING_GZIP;
	cfg.coding_count = 1;
	return cfg;
}

static void test_accept_encoding(void)
{
	rapier_compress_config_t cfg = gzip_only();
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
		bool ok = rapier_compress_negotiate(&cfg, cases[i].value, strlen(cases[i].value)) == RAPIER_CODING_GZIP;
		if (ok != cases[i].ok) {
			CHECK_EQ_STR(cases[i].value, cases[i].ok ? "(should accept)" : "(should refuse)");
		}
	}
	CHECK_EQ_INT(rapier_compress_negotiate(&cfg, NULL, 0), RAPIER_CODING_IDENTITY);
	/* Length is honoured: "gzip;q=0" cut after "gzip" accepts. */
	CHECK_EQ_INT(rapier_compress_negotiate(&cfg, "gzip;q=0", 4), RAPIER_CODING_GZIP);
}

/* Among several codings: the client's q first, then the server's order; "*" only for codings not named. */
static void test_negotiation(void)
{
	static const struct {
		const char *value;
		rapier_coding_t coding;
	} cases[] = {
		/* Chrome, Firefox; Safari; curl --compressed: all at q=1, so the server's order. */
		{ "gzip, deflate, br, zstd", RAPIER_CODING_ZSTD }, { "gzip, deflate, br", RAPIER_CODING_BR },
		{ "deflate, gzip, br, zstd", RAPIER_CODING_ZSTD }, { "gzip, deflate", RAPIER_CODING_GZIP },
		{ "ZSTD", RAPIER_CODING_ZSTD }, { "Br", RAPIER_CODING_BR }, { "x-gzip", RAPIER_CODING_GZIP },
		/* A higher q wins over the server's order. */
		{ "zstd;q=0.5, gzip", RAPIER_CODING_GZIP }, { "zstd;q=0.5, br;q=0.6, gzip;q=0.4", RAPIER_CODING_BR },
		{ "zstd;q=0, br;q=0, gzip;q=0.001", RAPIER_CODING_GZIP }, { "zstd;q=0, br", RAPIER_CODING_BR },
		/* "*" stands for what is not named, never for what is refused. */
		{ "*", RAPIER_CODING_ZSTD }, { "zstd;q=0, *", RAPIER_CODING_BR }, { "zstd;q=0, br;q=0, *", RAPIER_CODING_GZIP },
		{ "zstd;q=0, br;q=0, gzip;q=0, *", RAPIER_CODING_IDENTITY }, { "gzip, *;q=0.5", RAPIER_CODING_GZIP },
		{ "gzip;q=0.4, *;q=0.5", RAPIER_CODING_ZSTD }, { "*;q=0", RAPIER_CODING_IDENTITY },
		/* Codings the server does not have, and malformed elements. */
		{ "deflate, compress, identity", RAPIER_CODING_IDENTITY }, { "zstdx, brotli", RAPIER_CODING_IDENTITY },
		{ "zstd;q=2, br;q=abc", RAPIER_CODING_IDENTITY }, { "", RAPIER_CODING_IDENTITY },
		{ "zstd;q=0.5, zstd;q=0.9, br;q=0.8", RAPIER_CODING_ZSTD },
	};
	rapier_compress_config_t cfg;

	rapier_compress_config_init(&cfg);
	CHECK_EQ_INT(cfg.coding_count, 3);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rapier_coding_t got = rapier_compress_negotiate(&cfg, cases[i].value, strlen(cases[i].value));
		if (got != cases[i].coding) {
			CHECK_EQ_STR(cases[i].value, rapier_coding_name(cases[i].coding));
		}
	}
	/* Every acceptable coding, best first: for the precompressed files that exist. */
	static const struct {
		const char *value;
		const char *ranked;
	} ranks[] = {
		{ "gzip;q=0.5, br, zstd;q=0.8", "br zstd gzip " }, { "*", "zstd br gzip " }, { "zstd;q=0, *", "br gzip " },
		{ "gzip, deflate", "gzip " }, { "deflate", "" }, { "br;q=0.1, zstd;q=0.1, gzip;q=0.1", "zstd br gzip " },
		{ "gzip;q=0.2, *;q=0.1", "gzip zstd br " },
	};
	for (size_t i = 0; i < sizeof(ranks) / sizeof(ranks[0]); i++) {
		rapier_coding_t out[RAPIER_CODING_COUNT];
		char got[64] = "";
		size_t n = rapier_compress_rank(&cfg, ranks[i].value, strlen(ranks[i].value), out);
		for (size_t k = 0; k < n; k++) {
			strcat(got, rapier_coding_name(out[k]));
			strcat(got, " ");
		}
		CHECK_EQ_STR(got, ranks[i].ranked);
	}
	CHECK_EQ_INT(rapier_compress_rank(&cfg, NULL, 0, (rapier_coding_t[RAPIER_CODING_COUNT]) { 0 }), 0);
	CHECK_EQ_STR(rapier_coding_suffix(RAPIER_CODING_ZSTD), ".zst");
	CHECK_EQ_STR(rapier_coding_suffix(RAPIER_CODING_BR), ".br");
	CHECK_EQ_STR(rapier_coding_suffix(RAPIER_CODING_GZIP), ".gz");
	/* The server's order decides ties: gzip before zstd when so configured; a coding left out is never chosen. */
	cfg.codings[0] = RAPIER_CODING_GZIP;
	cfg.codings[1] = RAPIER_CODING_ZSTD;
	cfg.coding_count = 2;
	CHECK_EQ_INT(rapier_compress_negotiate(&cfg, "zstd, br, gzip", 14), RAPIER_CODING_GZIP);
	CHECK_EQ_INT(rapier_compress_negotiate(&cfg, "br", 2), RAPIER_CODING_IDENTITY);
	cfg.coding_count = 0;
	CHECK_EQ_INT(rapier_compress_negotiate(&cfg, "*", 1), RAPIER_CODING_IDENTITY);
	/* Names. */
	CHECK_EQ_INT(rapier_coding_from_name("gzip", 4), RAPIER_CODING_GZIP);
	CHECK_EQ_INT(rapier_coding_from_name("br", 2), RAPIER_CODING_BR);
	CHECK_EQ_INT(rapier_coding_from_name("zstd", 4), RAPIER_CODING_ZSTD);
	CHECK_EQ_INT(rapier_coding_from_name("deflate", 7), RAPIER_CODING_IDENTITY);
	CHECK_EQ_INT(rapier_coding_from_name("zst", 3), RAPIER_CODING_IDENTITY);
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
		if (!rapier_compress_type(yes[i], strlen(yes[i]))) {
			CHECK_EQ_STR(yes[i], "(should be compressible)");
		}
	}
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		if (rapier_compress_type(no[i], strlen(no[i]))) {
			CHECK_EQ_STR(no[i], "(should not be compressible)");
		}
	}
	CHECK(!rapier_compress_type(NULL, 0));
}

static void check_decision(const rapier_compress_config_t *cfg, const rapier_compress_input_t *in,
	rapier_coding_t coding, bool vary)
{
	rapier_compress_decision_t d = rapier_compress_decide(cfg, in);

	CHECK_EQ_INT(d.coding, coding);
	CHECK_EQ_INT(d.vary, vary);
}

static void test_decision(void)
{
	rapier_compress_config_t cfg;
	rapier_compress_input_t in = { 0 };

	rapier_compress_config_init(&cfg);
	CHECK_EQ_INT(cfg.gzip_level, 1);
	CHECK_EQ_INT(cfg.brotli_level, 1);
	CHECK_EQ_INT(cfg.zstd_level, 3);
	CHECK_EQ_INT(cfg.min_length, 1024);
	in.status = 200;
	in.accept_encoding = "gzip, br";
	in.accept_encoding_len = 8;
	in.content_type = "application/json";
	in.content_type_len = 16;
	in.body_len = 1024;
	check_decision(&cfg, &in, RAPIER_CODING_BR, true);
	in.body_len = RAPIER_HTTP_LENGTH_UNKNOWN;
	check_decision(&cfg, &in, RAPIER_CODING_BR, true);
	in.body_len = 1023;
	check_decision(&cfg, &in, RAPIER_CODING_IDENTITY, false);
	in.body_len = 5000;
	in.accept_encoding = NULL;
	check_decision(&cfg, &in, RAPIER_CODING_IDENTITY, true);
	in.accept_encoding = "gzip;q=0";
	in.accept_encoding_len = 8;
	check_decision(&cfg, &in, RAPIER_CODING_IDENTITY, true);
	in.accept_encoding = "gzip";
	in.accept_encoding_len = 4;
	int no_body[] = { 101, 204, 206, 304 };
	for (int i = 0; i < 4; i++) {
		in.status = no_body[i];
		check_decision(&cfg, &in, RAPIER_CODING_IDENTITY, false);
	}
	in.status = 404;
	check_decision(&cfg, &in, RAPIER_CODING_GZIP, true);
	in.has_content_encoding = true;
	check_decision(&cfg, &in, RAPIER_CODING_IDENTITY, false);
	in.has_content_encoding = false;
	in.content_type = "image/png";
	in.content_type_len = 9;
	check_decision(&cfg, &in, RAPIER_CODING_IDENTITY, false);
	in.content_type = NULL;
	check_decision(&cfg, &in, RAPIER_CODING_IDENTITY, false);
	/* No codings configured: nothing varies. */
	in.content_type = "text/html";
	in.content_type_len = 9;
	cfg.coding_count = 0;
	check_decision(&cfg, &in, RAPIER_CODING_IDENTITY, false);
}

static const rapier_coding_t all_codings[] = { RAPIER_CODING_GZIP, RAPIER_CODING_BR, RAPIER_CODING_ZSTD };

/* A streaming decoder of one coding, of another implementation than the encoder's own code. */
typedef struct {
	rapier_coding_t coding;
	z_stream zs;
	ZSTD_DCtx *zd;
	BrotliDecoderState *bd;
	bool ended;      /* the stream's end has been decoded */
} decoder_t;

static void decoder_init(decoder_t *d, rapier_coding_t coding)
{
	memset(d, 0, sizeof(*d));
	d->coding = coding;
	if (coding == RAPIER_CODING_GZIP) {
		CHECK_EQ_INT(inflateInit2(&d->zs, 15 + 16), Z_OK);
	} else if (coding == RAPIER_CODING_ZSTD) {
		CHECK((d->zd = ZSTD_createDCtx()) != NULL);
	} else {
		CHECK((d->bd = BrotliDecoderCreateInstance(NULL, NULL, NULL)) != NULL);
	}
}

static void decoder_free(decoder_t *d)
{
	if (d->coding == RAPIER_CODING_GZIP) {
		inflateEnd(&d->zs);
	}
	ZSTD_freeDCtx(d->zd);
	if (d->bd) {
		BrotliDecoderDestroyInstance(d->bd);
	}
}

/* Decodes all of in into out (room for cap bytes); returns the bytes decoded, or -1 on an error or no room. */
static long decoder_feed(decoder_t *d, const char *in, size_t len, char *out, size_t cap)
{
	if (d->coding == RAPIER_CODING_GZIP) {
		d->zs.next_in = (unsigned char *) in;
		d->zs.avail_in = (uInt) len;
		d->zs.next_out = (unsigned char *) out;
		d->zs.avail_out = (uInt) cap;
		int rc = inflate(&d->zs, Z_SYNC_FLUSH);
		d->ended = rc == Z_STREAM_END;
		if ((rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) || d->zs.avail_in != 0) {
			return -1;
		}
		return (long) (cap - d->zs.avail_out);
	}
	if (d->coding == RAPIER_CODING_ZSTD) {
		ZSTD_inBuffer ib = { in, len, 0 };
		ZSTD_outBuffer ob = { out, cap, 0 };
		size_t rc;
		do {
			rc = ZSTD_decompressStream(d->zd, &ob, &ib);
			if (ZSTD_isError(rc)) {
				return -1;
			}
		} while (ib.pos < ib.size && ob.pos < ob.size);
		d->ended = rc == 0;
		return ib.pos == ib.size ? (long) ob.pos : -1;
	}
	const uint8_t *next_in = (const uint8_t *) in;
	uint8_t *next_out = (uint8_t *) out;
	size_t avail_in = len, avail_out = cap;
	BrotliDecoderResult rc = BrotliDecoderDecompressStream(d->bd, &avail_in, &next_in, &avail_out, &next_out, NULL);
	d->ended = rc == BROTLI_DECODER_RESULT_SUCCESS;
	if (rc == BROTLI_DECODER_RESULT_ERROR || rc == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT || avail_in != 0) {
		return -1;
	}
	return (long) (cap - avail_out);
}

/* Decodes a whole body; returns its length, or -1 if it is broken or does not end. */
static long decode_all(rapier_coding_t coding, const char *in, size_t len, char *out, size_t cap)
{
	decoder_t d;

	decoder_init(&d, coding);
	long n = decoder_feed(&d, in, len, out, cap);
	bool ended = d.ended;
	decoder_free(&d);
	return ended ? n : -1;
}

static rapier_encoder_t *encoder_new(rapier_coding_t coding, int level)
{
	rapier_compress_config_t cfg;
	rapier_encoder_pool_t pool;

	rapier_compress_config_init(&cfg);
	cfg.gzip_level = cfg.brotli_level = cfg.zstd_level = level;
	rapier_encoder_pool_init(&pool, &cfg, 0);
	return rapier_encoder_pool_get(&pool, coding);
}

static void encoder_delete(rapier_encoder_t *enc)
{
	rapier_encoder_pool_t pool;
	rapier_compress_config_t cfg;

	rapier_compress_config_init(&cfg);
	rapier_encoder_pool_init(&pool, &cfg, 0);
	rapier_encoder_pool_put(&pool, enc);
}

static void test_levels(void)
{
	/* Out of range: no encoder (the options' ranges keep the server from asking). */
	CHECK(encoder_new(RAPIER_CODING_GZIP, 0) == NULL);
	CHECK(encoder_new(RAPIER_CODING_GZIP, 10) == NULL);
	CHECK(encoder_new(RAPIER_CODING_BR, -1) == NULL);
	CHECK(encoder_new(RAPIER_CODING_BR, 12) == NULL);
	CHECK(encoder_new(RAPIER_CODING_ZSTD, 0) == NULL);
	CHECK(encoder_new(RAPIER_CODING_ZSTD, 20) == NULL);
	CHECK(encoder_new(RAPIER_CODING_IDENTITY, 1) == NULL);
	/* Every level in range encodes a body that decodes. */
	int max[] = { [RAPIER_CODING_GZIP] = 9, [RAPIER_CODING_BR] = 11, [RAPIER_CODING_ZSTD] = 19 };
	char in[3000], back[3001];
	fill_text(in, sizeof(in), 11);
	for (size_t c = 0; c < 3; c++) {
		rapier_coding_t coding = all_codings[c];
		for (int level = coding == RAPIER_CODING_BR ? 0 : 1; level <= max[coding]; level++) {
			rapier_encoder_t *enc = encoder_new(coding, level);
			rapier_http_buf_t out;
			CHECK(enc != NULL);
			rapier_http_buf_init(&out, NULL, 0, 0);
			CHECK_EQ_INT(rapier_encoder_compress(enc, in, sizeof(in), &out), 0);
			CHECK_EQ_INT(decode_all(coding, out.data, out.len, back, sizeof(back)), sizeof(in));
			CHECK(memcmp(in, back, sizeof(in)) == 0);
			rapier_http_buf_free(&out);
			encoder_delete(enc);
		}
	}
}

static void whole_round_trip(rapier_coding_t coding)
{
	size_t sizes[] = { 0, 1, 1023, 1024, 65536, 3 * 1024 * 1024 + 17 };
	rapier_encoder_t *enc = encoder_new(coding, 1);
	rapier_http_buf_t out;
	char *in = malloc(sizes[5]), *back = malloc(sizes[5] + 1);

	CHECK(enc != NULL);
	rapier_http_buf_init(&out, NULL, 0, 64 * 1024 * 1024);
	for (int round = 0; round < 2; round++) {
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			fill_text(in, sizes[i], (unsigned) i);
			rapier_http_buf_reset(&out);
			CHECK_EQ_INT(rapier_encoder_compress(enc, in, sizes[i], &out), 0);
			if (coding == RAPIER_CODING_GZIP) {
				CHECK(out.len >= 18 && (unsigned char) out.data[0] == 0x1f && (unsigned char) out.data[1] == 0x8b);
			} else if (coding == RAPIER_CODING_ZSTD) {
				CHECK(out.len >= 4 && memcmp(out.data, "\x28\xb5\x2f\xfd", 4) == 0);
			}
			CHECK_EQ_INT(decode_all(coding, out.data, out.len, back, sizes[5] + 1), sizes[i]);
			CHECK(memcmp(in, back, sizes[i]) == 0);
			if (sizes[i] >= 65536) {
				CHECK(out.len < sizes[i] / 2);
			}
		}
	}
	/* A bound above the buffer's max is no failure when the output fits (3 MiB of text into a 1 MiB max). */
	rapier_http_buf_t bounded;
	rapier_http_buf_init(&bounded, NULL, 0, 0);
	fill_text(in, sizes[5], 3);
	CHECK_EQ_INT(rapier_encoder_compress(enc, in, sizes[5], &bounded), 0);
	CHECK(bounded.len < RAPIER_HTTP_BUF_DEFAULT_MAX);
	CHECK_EQ_INT(decode_all(coding, bounded.data, bounded.len, back, sizes[5] + 1), sizes[5]);
	rapier_http_buf_free(&bounded);
	/* A bounded output buffer fails cleanly... */
	rapier_http_buf_t small;
	rapier_http_buf_init(&small, NULL, 0, 100);
	fill_text(in, 65536, 99);
	CHECK_EQ_INT(rapier_encoder_compress(enc, in, 65536, &small), RAPIER_HTTP_ETOOLARGE);
	rapier_http_buf_free(&small);
	/* ...and the encoder is usable afterwards. */
	rapier_http_buf_reset(&out);
	CHECK_EQ_INT(rapier_encoder_compress(enc, in, 4096, &out), 0);
	CHECK_EQ_INT(decode_all(coding, out.data, out.len, back, 4096), 4096);
	CHECK(memcmp(in, back, 4096) == 0);
	encoder_delete(enc);
	rapier_http_buf_free(&out);
	free(in);
	free(back);
}

static void test_whole_round_trip(void)
{
	for (size_t c = 0; c < 3; c++) {
		whole_round_trip(all_codings[c]);
	}
}

/* Streams `len` bytes in pieces of `step`; after every write, what was sent so far must decode to the input so far. */
static void stream_in_steps(rapier_encoder_t *enc, const char *in, size_t len, size_t step)
{
	rapier_http_buf_t out;
	decoder_t d;
	char *back = malloc(len + 1);
	size_t decoded_from = 0, decoded = 0;

	rapier_http_buf_init(&out, NULL, 0, 64 * 1024 * 1024);
	decoder_init(&d, enc->coding);
	for (size_t off = 0; off < len; off += step) {
		size_t n = len - off < step ? len - off : step;
		CHECK_EQ_INT(rapier_encoder_stream_write(enc, in + off, n, &out), 0);
		long got = decoder_feed(&d, out.data + decoded_from, out.len - decoded_from, back + decoded, len + 1 - decoded);
		decoded_from = out.len;
		CHECK(got >= 0);
		decoded += got > 0 ? (size_t) got : 0;
		CHECK_EQ_INT(decoded, off + n);
		CHECK(!d.ended);
	}
	CHECK_EQ_INT(rapier_encoder_stream_finish(enc, &out), 0);
	CHECK(decoder_feed(&d, out.data + decoded_from, out.len - decoded_from, back + decoded, len + 1 - decoded) == 0);
	CHECK(d.ended);
	CHECK(memcmp(back, in, len) == 0);
	decoder_free(&d);
	/* The whole stream also decodes in one go, like the whole-body output. */
	CHECK_EQ_INT(decode_all(enc->coding, out.data, out.len, back, len + 1), len);
	rapier_http_buf_free(&out);
	free(back);
}

static void streaming_matches_whole(rapier_coding_t coding)
{
	size_t steps[] = { 1, 2, 7, 4096 };
	rapier_compress_config_t cfg;
	rapier_encoder_pool_t pool;
	char *in = malloc(20000);

	rapier_compress_config_init(&cfg);
	cfg.gzip_level = 6;
	rapier_encoder_pool_init(&pool, &cfg, RAPIER_COMPRESS_POOL_DEFAULT_MAX_IDLE);
	fill_text(in, 20000, 5);
	for (int i = 0; i < 4; i++) {
		rapier_encoder_t *enc = rapier_encoder_pool_get(&pool, coding);
		CHECK(enc != NULL);
		CHECK_EQ_INT(enc->coding, coding);
		stream_in_steps(enc, in, steps[i] < 7 ? 3000 : 20000, steps[i]);
		rapier_encoder_pool_put(&pool, enc);
	}
	/* An aborted stream leaves the encoder clean for the next body, and an empty stream still decodes. */
	rapier_encoder_t *enc = rapier_encoder_pool_get(&pool, coding);
	rapier_http_buf_t out;
	rapier_http_buf_init(&out, NULL, 0, 0);
	CHECK_EQ_INT(rapier_encoder_stream_write(enc, in, 5000, &out), 0);
	rapier_encoder_stream_abort(enc);
	rapier_http_buf_reset(&out);
	CHECK_EQ_INT(rapier_encoder_stream_write(enc, "", 0, &out), 0);
	CHECK_EQ_INT(out.len, 0);
	CHECK_EQ_INT(rapier_encoder_stream_finish(enc, &out), 0);
	char back[16];
	CHECK_EQ_INT(decode_all(coding, out.data, out.len, back, sizeof(back)), 0);
	rapier_http_buf_reset(&out);
	CHECK_EQ_INT(rapier_encoder_compress(enc, in, 100, &out), 0);
	char back100[100];
	CHECK_EQ_INT(decode_all(coding, out.data, out.len, back100, sizeof(back100)), 100);
	CHECK(memcmp(back100, in, 100) == 0);
	/* Put back in the middle of a stream (its client left): the pool drops the stream. */
	rapier_http_buf_reset(&out);
	CHECK_EQ_INT(rapier_encoder_stream_write(enc, in, 5000, &out), 0);
	rapier_encoder_pool_put(&pool, enc);
	enc = rapier_encoder_pool_get(&pool, coding);
	rapier_http_buf_reset(&out);
	CHECK_EQ_INT(rapier_encoder_stream_write(enc, in, 300, &out), 0);
	CHECK_EQ_INT(rapier_encoder_stream_finish(enc, &out), 0);
	CHECK_EQ_INT(decode_all(coding, out.data, out.len, back100, sizeof(back100)), -1);
	char back300[300];
	CHECK_EQ_INT(decode_all(coding, out.data, out.len, back300, sizeof(back300)), 300);
	CHECK(memcmp(back300, in, 300) == 0);
	rapier_encoder_pool_put(&pool, enc);
	rapier_http_buf_free(&out);
	rapier_encoder_pool_free(&pool);
	free(in);
}

static void test_streaming_matches_whole(void)
{
	for (size_t c = 0; c < 3; c++) {
		streaming_matches_whole(all_codings[c]);
	}
}

static void test_pool_caps_idle(void)
{
	rapier_compress_config_t cfg;
	rapier_encoder_pool_t pool;
	rapier_encoder_t *enc[6];

	rapier_compress_config_init(&cfg);
	rapier_encoder_pool_init(&pool, &cfg, 2);
	for (int i = 0; i < 6; i++) {
		enc[i] = rapier_encoder_pool_get(&pool, i < 3 ? RAPIER_CODING_ZSTD : RAPIER_CODING_GZIP);
		CHECK(enc[i] != NULL);
	}
	for (int i = 0; i < 6; i++) {
		rapier_encoder_pool_put(&pool, enc[i]);
	}
	/* Idle encoders are capped per coding. */
	CHECK_EQ_INT(pool.idle[RAPIER_CODING_ZSTD], 2);
	CHECK_EQ_INT(pool.idle[RAPIER_CODING_GZIP], 2);
	CHECK_EQ_INT(pool.idle[RAPIER_CODING_BR], 0);
	/* Reuse: the next get returns an idle encoder of that coding, not a new one. */
	rapier_encoder_t *again = rapier_encoder_pool_get(&pool, RAPIER_CODING_ZSTD);
	CHECK(again == enc[1]);
	CHECK_EQ_INT(pool.idle[RAPIER_CODING_ZSTD], 1);
	rapier_encoder_pool_put(&pool, again);
	again = rapier_encoder_pool_get(&pool, RAPIER_CODING_GZIP);
	CHECK(again == enc[4]);
	CHECK_EQ_INT(again->coding, RAPIER_CODING_GZIP);
	rapier_encoder_pool_put(&pool, again);
	CHECK(rapier_encoder_pool_get(&pool, RAPIER_CODING_IDENTITY) == NULL);
	rapier_encoder_pool_free(&pool);
	CHECK_EQ_INT(pool.idle[RAPIER_CODING_ZSTD] + pool.idle[RAPIER_CODING_GZIP], 0);
}

static void test_headers(void)
{
	size_t len;

	CHECK_EQ_STR(rapier_compress_headers(RAPIER_CODING_ZSTD, &len), "Content-Encoding: zstd\r\nVary: Accept-Encoding\r\n");
	CHECK_EQ_INT(len, strlen("Content-Encoding: zstd\r\nVary: Accept-Encoding\r\n"));
	CHECK_EQ_STR(rapier_compress_headers(RAPIER_CODING_BR, &len), "Content-Encoding: br\r\nVary: Accept-Encoding\r\n");
	CHECK_EQ_INT(len, strlen("Content-Encoding: br\r\nVary: Accept-Encoding\r\n"));
	CHECK_EQ_STR(rapier_compress_headers(RAPIER_CODING_GZIP, &len), "Content-Encoding: gzip\r\nVary: Accept-Encoding\r\n");
	CHECK_EQ_INT(len, strlen("Content-Encoding: gzip\r\nVary: Accept-Encoding\r\n"));
}

int main(void)
{
	test_accept_encoding();
	test_negotiation();
	test_compressible_types();
	test_decision();
	test_levels();
	test_whole_round_trip();
	test_streaming_matches_whole();
	test_pool_caps_idle();
	test_headers();
	return unit_finish("http_compress_test");
}
