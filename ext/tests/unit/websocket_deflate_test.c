/*
 * Unit tests for permessage-deflate (src/websocket_deflate.c) and the
 * parser's side of it (RSV1 in src/websocket_frame.c): which offers are
 * accepted and what the answer says; messages of every size deflated by
 * us and inflated by zlib as a client would (and the reverse, including a
 * client that ends its stream with BFINAL), at every window size; the
 * limits that stop a decompression bomb; data that is not deflate.
 */
#include "unit.h"

#include "websocket_frame.c"
#include "websocket_deflate.c"

static bool negotiate(const char *offer, int *bits, char *response)
{
	response[0] = '\0';
	return rapier_ws_deflate_negotiate(offer, strlen(offer), bits, response);
}

static void test_negotiation(void)
{
	char response[RAPIER_WS_DEFLATE_RESPONSE_MAX];
	int bits = 0;

	CHECK(negotiate("permessage-deflate", &bits, response));
	CHECK_EQ_INT(bits, 15);
	CHECK_EQ_STR(response, "permessage-deflate; server_no_context_takeover; client_no_context_takeover");
	/* What browsers send. */
	CHECK(negotiate("permessage-deflate; client_max_window_bits", &bits, response));
	CHECK_EQ_INT(bits, 15);
	CHECK(negotiate("permessage-deflate;client_max_window_bits=10;server_no_context_takeover", &bits, response));
	CHECK(negotiate("PerMessage-Deflate ; Server_Max_Window_Bits = \"12\"", &bits, response));
	CHECK_EQ_INT(bits, 12);
	CHECK_EQ_STR(response, "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=12");
	/* Another extension first, then a second offer after one we decline. */
	CHECK(negotiate("x-webkit-deflate-frame, permessage-deflate; server_max_window_bits=8, permessage-deflate", &bits,
		response));
	CHECK_EQ_INT(bits, 15);
	CHECK(negotiate("permessage-deflate; unknown=1, permessage-deflate; server_max_window_bits=9", &bits, response));
	CHECK_EQ_INT(bits, 9);

	/* Declined: nothing acceptable. */
	CHECK(!negotiate("", &bits, response));
	CHECK(!negotiate("x-webkit-deflate-frame", &bits, response));
	CHECK(!negotiate("permessage-deflate; server_max_window_bits=8", &bits, response));   /* zlib cannot keep to 8 */
	CHECK(!negotiate("permessage-deflate; server_max_window_bits", &bits, response));     /* needs a value */
	CHECK(!negotiate("permessage-deflate; server_max_window_bits=16", &bits, response));
	CHECK(!negotiate("permessage-deflate; server_max_window_bits=09", &bits, response));
	CHECK(!negotiate("permessage-deflate; client_max_window_bits=7", &bits, response));
	CHECK(!negotiate("permessage-deflate; server_no_context_takeover=1", &bits, response));
	CHECK(!negotiate("permessage-deflate; server_no_context_takeover; server_no_context_takeover", &bits, response));
	CHECK(!negotiate("permessage-deflate; mystery", &bits, response));
	CHECK(!negotiate("permessage-deflate; server_max_window_bits=\"12", &bits, response));
	CHECK(!negotiate("permessage-deflatex", &bits, response));
	CHECK(!negotiate("permessage-deflate x", &bits, response));
}

/* Inflates what a client would: raw inflate with the tail put back. */
static bool client_inflates(const char *deflated, size_t len, const char *want, size_t want_len, int bits)
{
	z_stream z;
	char *out = malloc(want_len + 64), *in = malloc(len + 4);
	bool ok;

	memcpy(in, deflated, len);
	memcpy(in + len, flush_tail, 4);
	memset(&z, 0, sizeof(z));
	inflateInit2(&z, -bits);
	z.next_in = (Bytef *) in;
	z.avail_in = (uInt) len + 4;
	z.next_out = (Bytef *) out;
	z.avail_out = (uInt) want_len + 64;
	inflate(&z, Z_SYNC_FLUSH);
	ok = z.total_out == want_len && z.avail_in == 0 && memcmp(out, want, want_len) == 0;
	inflateEnd(&z);
	free(in);
	free(out);
	return ok;
}

/* Deflates as a client would: raw deflate, flushed, the tail cut; with final, ended with BFINAL instead. */
static char *client_deflates(const char *data, size_t len, bool final, size_t *out_len)
{
	z_stream z;
	size_t cap = len + len / 10 + 64;
	char *out = malloc(cap);

	memset(&z, 0, sizeof(z));
	deflateInit2(&z, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
	z.next_in = (Bytef *) data;
	z.avail_in = (uInt) len;
	z.next_out = (Bytef *) out;
	z.avail_out = (uInt) cap;
	deflate(&z, final ? Z_FINISH : Z_SYNC_FLUSH);
	*out_len = z.total_out;
	if (!final && *out_len >= 4) {
		*out_len -= 4;
	}
	deflateEnd(&z);
	return out;
}

static void fill(char *buf, size_t len, unsigned seed)
{
	srand(seed);
	for (size_t i = 0; i < len; i++) {
		/* Words from a small alphabet, with random bytes now and then: compressible, not trivially. */
		buf[i] = rand() % 16 == 0 ? (char) rand() : "abcdefgh ,.{}\":"[rand() % 15];
	}
}

static void test_round_trips(void)
{
	static const size_t sizes[] = { 0, 1, 127, 128, 1000, 16383, 16384, 65537, 300000, 1 << 21 };
	char *data = malloc(1 << 21);

	fill(data, 1 << 21, 7);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (int bits = 9; bits <= 15; bits += 3) {
			char *out, *back;
			size_t out_len, back_len;

			CHECK_EQ_INT(rapier_ws_deflate_message(data, sizes[i], bits, 1, &out, &out_len), 0);
			CHECK(client_inflates(out, out_len, data, sizes[i], bits));
			CHECK_EQ_INT(rapier_ws_inflate_message(out, out_len, 1 << 22, &back, &back_len), 0);
			CHECK(back_len == sizes[i] && (sizes[i] == 0 ? back == NULL : memcmp(back, data, back_len) == 0));
			if (sizes[i] == 0) {
				/* RFC 7692 7.2.3.6: an empty message deflates to one 0x00 byte. */
				CHECK(out_len == 1 && out[0] == 0);
			}
			free(out);
			free(back);
		}
		for (int final = 0; final <= 1; final++) {
			size_t len, back_len;
			char *deflated = client_deflates(data, sizes[i], final, &len), *back;

			CHECK_EQ_INT(rapier_ws_inflate_message(deflated, len, 1 << 22, &back, &back_len), 0);
			CHECK(back_len == sizes[i] && (sizes[i] == 0 || memcmp(back, data, back_len) == 0));
			free(back);
			free(deflated);
		}
	}
	/* Another level than the first call's. */
	{
		char *fast, *best;
		size_t fast_len, best_len;
		CHECK_EQ_INT(rapier_ws_deflate_message(data, 300000, 15, 1, &fast, &fast_len), 0);
		CHECK_EQ_INT(rapier_ws_deflate_message(data, 300000, 15, 9, &best, &best_len), 0);
		CHECK(best_len < fast_len);
		CHECK(client_inflates(best, best_len, data, 300000, 15));
		free(fast);
		free(best);
	}
	free(data);
}

static void test_limits_and_garbage(void)
{
	char *zeros = calloc(1, 50 << 20), *bomb, *out = (char *) 1;
	size_t bomb_len, out_len = 7;

	/* 50 MiB of zeros deflate to some 50 KB: stopped at the limit, not after. */
	bomb = client_deflates(zeros, 50 << 20, false, &bomb_len);
	CHECK(bomb_len < 100000);
	CHECK_EQ_INT(rapier_ws_inflate_message(bomb, bomb_len, 1 << 20, &out, &out_len), -E2BIG);
	CHECK(out == (char *) 1 && out_len == 7);
	/* Exactly at the limit is fine. */
	free(bomb);
	bomb = client_deflates(zeros, 1 << 20, false, &bomb_len);
	CHECK_EQ_INT(rapier_ws_inflate_message(bomb, bomb_len, 1 << 20, &out, &out_len), 0);
	CHECK_EQ_INT(out_len, 1 << 20);
	free(out);
	CHECK_EQ_INT(rapier_ws_inflate_message(bomb, bomb_len, (1 << 20) - 1, &out, &out_len), -E2BIG);
	free(bomb);
	free(zeros);

	/* Not deflate: a reserved block type; bytes after a final block. */
	CHECK_EQ_INT(rapier_ws_inflate_message("\xff\xff\xff\xff", 4, 1000, &out, &out_len), -EINVAL);
	{
		size_t len;
		char *ended = client_deflates("hello", 5, true, &len);
		ended = realloc(ended, len + 3);
		memcpy(ended + len, "abc", 3);
		CHECK_EQ_INT(rapier_ws_inflate_message(ended, len + 3, 1000, &out, &out_len), -EINVAL);
		free(ended);
	}
	/* The shared inflater is sound after each failure. */
	{
		size_t len;
		char *ok = client_deflates("hello", 5, false, &len);
		CHECK_EQ_INT(rapier_ws_inflate_message(ok, len, 1000, &out, &out_len), 0);
		CHECK(out_len == 5 && memcmp(out, "hello", 5) == 0);
		free(out);
		free(ok);
	}
}

/* A masked client frame. */
static size_t client_frame(uint8_t *out, uint8_t b0, const char *payload, uint8_t len)
{
	static const uint8_t mask[4] = { 1, 2, 3, 4 };

	out[0] = b0;
	out[1] = 0x80 | len;
	memcpy(out + 2, mask, 4);
	for (size_t i = 0; i < len; i++) {
		out[6 + i] = (uint8_t) payload[i] ^ mask[i & 3];
	}
	return 6 + (size_t) len;
}

static rapier_ws_event_t parse(rapier_ws_parser_t *p, const uint8_t *in, size_t len)
{
	size_t used;
	return rapier_ws_parser_feed(p, (const char *) in, len, &used);
}

static void test_parser_rsv1(void)
{
	rapier_ws_parser_t p;
	uint8_t f[200];
	size_t n;

	/* Not agreed: RSV1 is a protocol error. */
	rapier_ws_parser_init(&p, 1000);
	n = client_frame(f, 0x80 | 0x40 | RAPIER_WS_OP_TEXT, "x", 1);
	CHECK_EQ_INT(parse(&p, f, n), RAPIER_WS_ERROR);
	CHECK_EQ_INT(p.error_code, RAPIER_WS_CLOSE_PROTOCOL_ERROR);
	rapier_ws_parser_free(&p);

	/* Agreed: a compressed text message whose deflated bytes are not UTF-8 is handed over as it came. */
	rapier_ws_parser_init(&p, 1000);
	rapier_ws_parser_allow_compressed(&p);
	n = client_frame(f, 0x40 | RAPIER_WS_OP_TEXT, "\xf2\x48", 2);
	n += client_frame(f + n, 0x80 | RAPIER_WS_OP_PING, "p", 1);
	n += client_frame(f + n, 0x80 | RAPIER_WS_OP_CONTINUATION, "\xcd\xc9\xc9\x07\x00", 5);
	{
		size_t used, off = 0;
		CHECK_EQ_INT(rapier_ws_parser_feed(&p, (const char *) f, n, &used), RAPIER_WS_PING);
		off += used;
		CHECK_EQ_INT(rapier_ws_parser_feed(&p, (const char *) f + off, n - off, &used), RAPIER_WS_MESSAGE);
		CHECK(p.message_compressed && !p.message_binary && p.message_len == 7);
		CHECK(memcmp(p.message, "\xf2\x48\xcd\xc9\xc9\x07\x00", 7) == 0);
	}
	/* RFC 7692 7.2.3.1's "Hello", in two fragments. */
	{
		char *hello;
		size_t hello_len;
		CHECK_EQ_INT(rapier_ws_inflate_message(p.message, p.message_len, 1000, &hello, &hello_len), 0);
		CHECK(hello_len == 5 && memcmp(hello, "Hello", 5) == 0);
		free(hello);
	}
	/* The next message, uncompressed: the flag goes. */
	n = client_frame(f, 0x80 | RAPIER_WS_OP_BINARY, "ab", 2);
	CHECK_EQ_INT(parse(&p, f, n), RAPIER_WS_MESSAGE);
	CHECK(!p.message_compressed && p.message_binary);
	/* Uncompressed text is still checked as it arrives. */
	n = client_frame(f, 0x80 | RAPIER_WS_OP_TEXT, "\xff", 1);
	CHECK_EQ_INT(parse(&p, f, n), RAPIER_WS_ERROR);
	CHECK_EQ_INT(p.error_code, RAPIER_WS_CLOSE_INVALID_DATA);
	rapier_ws_parser_free(&p);

	/* On the wire a compressed message may be up to an eighth (and 64 bytes) over the limit; a plain one may not. */
	{
		static const struct { uint8_t b0; uint8_t len; rapier_ws_event_t ev; } sizes[] = {
			{ 0x80 | 0x40 | RAPIER_WS_OP_BINARY, 50 + 50 / 8 + 64, RAPIER_WS_MESSAGE },
			{ 0x80 | 0x40 | RAPIER_WS_OP_BINARY, 50 + 50 / 8 + 65, RAPIER_WS_ERROR },
			{ 0x80 | RAPIER_WS_OP_BINARY, 50, RAPIER_WS_MESSAGE },
			{ 0x80 | RAPIER_WS_OP_BINARY, 51, RAPIER_WS_ERROR },
		};
		char payload[200] = { 0 };
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			rapier_ws_parser_init(&p, 50);
			rapier_ws_parser_allow_compressed(&p);
			n = client_frame(f, sizes[i].b0, payload, sizes[i].len);
			CHECK_EQ_INT(parse(&p, f, n), sizes[i].ev);
			CHECK(sizes[i].ev == RAPIER_WS_MESSAGE || p.error_code == RAPIER_WS_CLOSE_TOO_BIG);
			rapier_ws_parser_free(&p);
		}
	}

	/* The same allowance across fragments: the buffer grows to it (a fuzzer found it growing short). */
	{
		char payload[125];
		memset(payload, 'z', sizeof(payload));
		rapier_ws_parser_init(&p, 50);
		rapier_ws_parser_allow_compressed(&p);
		n = client_frame(f, 0x40 | RAPIER_WS_OP_BINARY, payload, 60);
		n += client_frame(f + n, 0x80 | RAPIER_WS_OP_CONTINUATION, payload, 60);
		CHECK_EQ_INT(parse(&p, f, n), RAPIER_WS_MESSAGE);
		CHECK(p.message_compressed && p.message_len == 120);
		rapier_ws_parser_free(&p);
	}

	/* RSV1 on a continuation, on a control frame; RSV2 and RSV3 even when agreed. */
	{
		static const uint8_t bad[][2] = {
			{ 0x80 | 0x40 | RAPIER_WS_OP_CONTINUATION, 1 },
			{ 0x80 | 0x40 | RAPIER_WS_OP_PING, 0 },
			{ 0x80 | 0x20 | RAPIER_WS_OP_TEXT, 0 },
			{ 0x80 | 0x10 | RAPIER_WS_OP_TEXT, 0 },
		};
		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			rapier_ws_parser_init(&p, 1000);
			rapier_ws_parser_allow_compressed(&p);
			n = 0;
			if (bad[i][1]) {
				n = client_frame(f, 0x40 | RAPIER_WS_OP_TEXT, "a", 1);
			}
			n += client_frame(f + n, bad[i][0], "b", 1);
			CHECK_EQ_INT(parse(&p, f, n), RAPIER_WS_ERROR);
			CHECK_EQ_INT(p.error_code, RAPIER_WS_CLOSE_PROTOCOL_ERROR);
			rapier_ws_parser_free(&p);
		}
	}
}

int main(void)
{
	test_negotiation();
	test_round_trips();
	test_limits_and_garbage();
	test_parser_rsv1();
	rapier_ws_deflate_release();
	return unit_finish("websocket_deflate_test");
}
