/*
 * Unit tests for the WebSocket framing (src/websocket_frame.c). Every
 * client stream is parsed whole, byte by byte and split in two at every
 * byte offset (at sampled offsets past 4 KiB), taking the messages in some
 * runs and leaving them to the parser in others; every run must log the
 * same events. The UTF-8 validator is also checked against a plain
 * code-point decoder over every string of up to three bytes.
 */
#include "unit.h"

#include "websocket_frame.c"

/* A client byte stream under construction. */
typedef struct {
	uint8_t *data;
	size_t len, cap;
	unsigned masks;
} stream_t;

static void put(stream_t *s, const void *bytes, size_t n)
{
	if (s->len + n > s->cap) {
		s->cap = (s->len + n) * 2;
		s->data = realloc(s->data, s->cap);
	}
	if (n > 0) {
		memcpy(s->data + s->len, bytes, n);
	}
	s->len += n;
}

#define LEN_MINIMAL 0
#define LEN_16 2
#define LEN_64 8

/* One frame: b0 is FIN, RSV and opcode as sent; masked with a mask that changes from frame to frame. */
static void frame_ext(stream_t *s, uint8_t b0, const void *payload, size_t len, int ext, bool masked)
{
	uint8_t h[14], mask[4];
	size_t hl = 2, body;

	if (ext == LEN_MINIMAL) {
		ext = len <= 125 ? 0 : len <= 0xFFFF ? LEN_16 : LEN_64;
	}
	h[0] = b0;
	h[1] = (masked ? 0x80 : 0) | (ext == 0 ? (uint8_t) len : ext == LEN_16 ? 126 : 127);
	for (int i = ext - 1; i >= 0; i--) {
		h[hl++] = (uint8_t) ((uint64_t) len >> (8 * i));
	}
	s->masks++;
	mask[0] = (uint8_t) (0x37 + s->masks);
	mask[1] = (uint8_t) (0xFA ^ s->masks);
	mask[2] = 0x21;
	mask[3] = (uint8_t) (0x3D * s->masks);
	if (masked) {
		memcpy(h + hl, mask, 4);
		hl += 4;
	}
	put(s, h, hl);
	body = s->len;
	put(s, payload, len);
	for (size_t i = 0; masked && i < len; i++) {
		s->data[body + i] ^= mask[i & 3];
	}
}

static void frame(stream_t *s, uint8_t b0, const void *payload, size_t len)
{
	frame_ext(s, b0, payload, len, LEN_MINIMAL, true);
}

#define FIN 0x80
#define TEXT 0x1
#define BINARY 0x2
#define CLOSE 0x8
#define PING 0x9
#define PONG 0xA
#define STR(s) s, sizeof(s) - 1

static void close_frame(stream_t *s, unsigned code, const char *reason, size_t reason_len)
{
	uint8_t b[2 + 200];

	b[0] = (uint8_t) (code >> 8);
	b[1] = (uint8_t) code;
	memcpy(b + 2, reason, reason_len);
	frame(s, FIN | CLOSE, b, 2 + reason_len);
}

/* The events of a run, as text. */
typedef struct {
	char log[4096];
	size_t len;
} recorder_t;

static void log_str(recorder_t *r, const char *s)
{
	size_t n = strlen(s);

	if (r->len + n < sizeof(r->log)) {
		memcpy(r->log + r->len, s, n + 1);
		r->len += n;
	}
}

/* Short payloads as they are (escaped), long ones by their start and a hash. */
static void log_payload(recorder_t *r, const char *p, size_t len)
{
	char b[64];
	uint64_t h = 14695981039346656037ull;

	for (size_t i = 0; i < len && i < 24; i++) {
		unsigned char c = (unsigned char) p[i];

		snprintf(b, sizeof(b), c >= 0x20 && c < 0x7F && c != '\\' && c != '|' ? "%c" : "\\x%02X", c);
		log_str(r, b);
	}
	if (len > 24) {
		for (size_t i = 0; i < len; i++) {
			h = (h ^ (unsigned char) p[i]) * 1099511628211ull;
		}
		snprintf(b, sizeof(b), "...#%016llx", (unsigned long long) h);
		log_str(r, b);
	}
}

static void log_event(recorder_t *r, rapier_ws_parser_t *p, rapier_ws_event_t ev, bool take)
{
	char b[160];
	char *msg;
	size_t len;

	switch (ev) {
		case RAPIER_WS_MESSAGE:
			snprintf(b, sizeof(b), "%s(%zu)", p->message_binary ? "B" : "T", p->message_len);
			log_str(r, b);
			CHECK((p->message == NULL) == (p->message_len == 0));
			if (!p->message_binary) {
				CHECK(rapier_ws_utf8_valid(p->message, p->message_len));
			}
			log_payload(r, p->message, p->message_len);
			if (take) {
				msg = rapier_ws_parser_take_message(p, &len);
				CHECK(p->message == NULL);
				free(msg);
			}
			break;
		case RAPIER_WS_PING:
		case RAPIER_WS_PONG:
			snprintf(b, sizeof(b), "%s(%zu)", ev == RAPIER_WS_PING ? "PING" : "PONG", p->control_len);
			log_str(r, b);
			log_payload(r, (const char *) p->control, p->control_len);
			break;
		case RAPIER_WS_CLOSE:
			snprintf(b, sizeof(b), "CLOSE %u '", p->close_code);
			log_str(r, b);
			log_payload(r, p->close_reason, p->close_reason_len);
			log_str(r, "'");
			break;
		case RAPIER_WS_ERROR:
			snprintf(b, sizeof(b), "ERROR %u %s", p->error_code, p->error);
			log_str(r, b);
			break;
		default:
			log_str(r, "?");
	}
	log_str(r, "|");
}

/* After CLOSE or ERROR: the same event again, nothing consumed, the results kept. */
static bool stays_finished(rapier_ws_parser_t *p, rapier_ws_event_t ev)
{
	uint16_t code = p->close_code, error_code = p->error_code;
	size_t used = 99;

	return rapier_ws_parser_feed(p, "\x81\x80", 2, &used) == ev && used == 0
		&& rapier_ws_parser_feed(p, "", 0, &used) == ev && used == 0
		&& p->close_code == code && p->error_code == error_code;
}

/* Feeds s cut at the given offsets (sorted, the last being s->len); logs every event into r. */
static void parse_cuts(const stream_t *s, const size_t *cuts, size_t ncuts, uint64_t max, bool take, recorder_t *r)
{
	rapier_ws_parser_t p;
	size_t pos = 0;
	bool ok = true;
	rapier_ws_event_t ev = RAPIER_WS_NEED_MORE;

	memset(r, 0, sizeof(*r));
	rapier_ws_parser_init(&p, max);
	for (size_t i = 0; i < ncuts && ev != RAPIER_WS_CLOSE && ev != RAPIER_WS_ERROR; i++) {
		const char *piece = (const char *) s->data + pos;
		size_t n = cuts[i] - pos, used;

		pos = cuts[i];
		for (;;) {
			ev = rapier_ws_parser_feed(&p, piece, n, &used);
			ok = ok && used <= n && (ev != RAPIER_WS_NEED_MORE || used == n);
			ok = ok && (ev != RAPIER_WS_MESSAGE || p.message_len <= max);
			if (ev == RAPIER_WS_NEED_MORE) {
				break;
			}
			log_event(r, &p, ev, take);
			if (ev == RAPIER_WS_CLOSE || ev == RAPIER_WS_ERROR) {
				ok = ok && stays_finished(&p, ev);
				break;
			}
			piece += used;
			n -= used;
		}
	}
	if (ev == RAPIER_WS_NEED_MORE) {
		log_str(r, "more");
	}
	CHECK(ok);
	rapier_ws_parser_free(&p);
}

static recorder_t whole, other;

/* Runs s whole, byte by byte and split in two; returns the whole run's log. */
static const char *run_max(const stream_t *s, uint64_t max, const char *what)
{
	size_t cuts[2] = { 0, s->len }, *bytes = malloc((s->len + 1) * sizeof(size_t));
	int before = unit_failures;

	parse_cuts(s, &cuts[1], 1, max, true, &whole);
	for (size_t i = 0; i < s->len; i++) {
		bytes[i] = i + 1;
	}
	parse_cuts(s, bytes, s->len, max, false, &other);
	CHECK_EQ_STR(other.log, whole.log);
	for (size_t at = 0; at <= s->len && unit_failures == before; at++) {
		/* Past 4 KiB: every offset near the ends, a sample in between. */
		if (s->len > 4096 && at > 300 && at + 300 < s->len && at % 251 != 0) {
			continue;
		}
		cuts[0] = at;
		parse_cuts(s, cuts, 2, max, at & 1, &other);
		CHECK_EQ_STR(other.log, whole.log);
	}
	free(bytes);
	if (unit_failures != before) {
		fprintf(stderr, "  in stream: %s\n", what);
	}
	return whole.log;
}

#define MAX_DEFAULT (1 << 20)

static const char *run(const stream_t *s, const char *what)
{
	return run_max(s, MAX_DEFAULT, what);
}

static void reset(stream_t *s)
{
	s->len = 0;
}

static uint8_t *pattern(size_t len)
{
	uint8_t *b = malloc(len ? len : 1);

	for (size_t i = 0; i < len; i++) {
		b[i] = (uint8_t) (i * 7 + (i >> 8));
	}
	return b;
}

static void test_rfc_examples(void)
{
	/* RFC 6455 5.7, verbatim. */
	static const uint8_t hello_masked[] = { 0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58 };
	static const uint8_t hello[] = { 0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f };
	static const uint8_t hel[] = { 0x01, 0x03, 0x48, 0x65, 0x6c, 0x80, 0x02, 0x6c, 0x6f };
	static const uint8_t ping[] = { 0x89, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f };
	static const uint8_t pong_masked[] = { 0x8a, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58 };
	stream_t s = { 0 };
	uint8_t *big = pattern(65536);

	put(&s, hello_masked, sizeof(hello_masked));
	CHECK_EQ_STR(run(&s, "masked Hello"), "T(5)Hello|more");
	/* The server side requires masking: the RFC's unmasked examples are protocol errors. */
	reset(&s);
	put(&s, hello, sizeof(hello));
	CHECK_EQ_STR(run(&s, "unmasked Hello"), "ERROR 1002 unmasked frame from a client|");
	reset(&s);
	put(&s, hel, sizeof(hel));
	CHECK_EQ_STR(run(&s, "unmasked fragments"), "ERROR 1002 unmasked frame from a client|");
	reset(&s);
	put(&s, ping, sizeof(ping));
	CHECK_EQ_STR(run(&s, "unmasked ping"), "ERROR 1002 unmasked frame from a client|");
	reset(&s);
	put(&s, pong_masked, sizeof(pong_masked));
	CHECK_EQ_STR(run(&s, "masked pong"), "PONG(5)Hello|more");
	/* The fragmented "Hello" and the 256-byte and 64 KiB binary frames, masked. */
	reset(&s);
	frame(&s, TEXT, STR("Hel"));
	frame(&s, FIN, STR("lo"));
	CHECK_EQ_STR(run(&s, "fragmented Hello"), "T(5)Hello|more");
	reset(&s);
	frame(&s, FIN | BINARY, big, 256);
	CHECK(strncmp(run(&s, "256 bytes"), "B(256)", 6) == 0);
	CHECK_EQ_INT(s.data[1], 0x80 | 126);
	reset(&s);
	frame(&s, FIN | BINARY, big, 65536);
	CHECK(strncmp(run(&s, "64 KiB"), "B(65536)", 8) == 0);
	CHECK_EQ_INT(s.data[1], 0x80 | 127);
	free(big);
	free(s.data);
}

/* The message logged for payload, as log_payload() writes it. */
static void expect_message(const char *log, bool binary, const void *payload, size_t len)
{
	recorder_t r = { .len = 0 };
	char b[32];

	snprintf(b, sizeof(b), "%s(%zu)", binary ? "B" : "T", len);
	log_str(&r, b);
	log_payload(&r, payload, len);
	log_str(&r, "|more");
	CHECK_EQ_STR(log, r.log);
}

static void test_lengths(void)
{
	static const size_t lengths[] = { 0, 1, 7, 8, 9, 125, 126, 127, 4095, 4097, 65535, 65536, 70001 };
	stream_t s = { 0 };
	uint8_t *bin = pattern(70001);
	char *text = malloc(70001);

	/* Text with 2-, 3- and 4-byte characters at every alignment. */
	for (size_t i = 0; i < 70001; i++) {
		text[i] = "a\xC3\xA9" "b\xE2\x82\xAC" "c\xF0\x9F\x98\x80" "defg"[i % 16];
	}
	for (size_t i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++) {
		size_t len = lengths[i], tlen = len - len % 16;

		reset(&s);
		frame(&s, FIN | BINARY, bin, len);
		expect_message(run(&s, "binary of a length"), true, bin, len);
		reset(&s);
		frame(&s, FIN | TEXT, text, tlen);
		expect_message(run(&s, "text of a length"), false, text, tlen);
	}
	/* Lengths in more bytes than they need are accepted. */
	reset(&s);
	frame_ext(&s, FIN | TEXT, STR("Hello"), LEN_16, true);
	frame_ext(&s, FIN | TEXT, STR("Hello"), LEN_64, true);
	frame_ext(&s, FIN | BINARY, bin, 300, LEN_64, true);
	frame_ext(&s, FIN | PING, STR("p"), LEN_16, true);
	CHECK(strncmp(run(&s, "non-minimal lengths"), "T(5)Hello|T(5)Hello|B(300)", 26) == 0);
	CHECK(strstr(whole.log, "|PING(1)p|more") != NULL);
	free(bin);
	free(text);
	free(s.data);
}

static void test_fragments(void)
{
	stream_t s = { 0 };
	uint8_t *bin = pattern(3000);

	frame(&s, TEXT, STR("Hel"));
	frame(&s, FIN | PING, STR("p1"));
	frame(&s, 0, STR("lo, w"));
	frame(&s, FIN | PONG, STR("p2"));
	frame(&s, FIN | PING, "", 0);
	frame(&s, 0, "", 0);
	frame(&s, FIN, STR("orld"));
	frame(&s, FIN | TEXT, STR("next"));
	CHECK_EQ_STR(run(&s, "text with controls between"), "PING(2)p1|PONG(2)p2|PING(0)|T(12)Hello, world|T(4)next|more");
	/* A character split between fragments is fine. */
	reset(&s);
	frame(&s, TEXT, STR("\xF0\x9F"));
	frame(&s, 0, STR("\x98"));
	frame(&s, FIN | PING, STR("x"));
	frame(&s, FIN, STR("\x80!"));
	CHECK_EQ_STR(run(&s, "character across fragments"), "PING(1)x|T(5)\\xF0\\x9F\\x98\\x80!|more");
	/* Binary fragments of several sizes, a ping between each. */
	reset(&s);
	frame(&s, BINARY, bin, 1000);
	frame(&s, FIN | PING, STR("a"));
	frame(&s, 0, bin + 1000, 1);
	frame(&s, FIN | PING, STR("b"));
	frame(&s, 0, bin + 1001, 1998);
	frame(&s, FIN | PONG, STR("c"));
	frame(&s, FIN, bin + 2999, 1);
	frame(&s, FIN | BINARY, bin, 3);
	run(&s, "binary fragments");
	CHECK(strncmp(whole.log, "PING(1)a|PING(1)b|PONG(1)c|B(3000)", 34) == 0);
	CHECK(strstr(whole.log, "|B(3)\\x00\\x07\\x0E|more") != NULL);
	/* A close between fragments ends it all. */
	reset(&s);
	frame(&s, TEXT, STR("abc"));
	close_frame(&s, 1000, STR("bye"));
	frame(&s, FIN, STR("def"));
	CHECK_EQ_STR(run(&s, "close between fragments"), "CLOSE 1000 'bye'|");
	/* An open message at the end of the input is still waiting. */
	reset(&s);
	frame(&s, BINARY, bin, 10);
	CHECK_EQ_STR(run(&s, "open message"), "more");
	free(bin);
	free(s.data);
}

static void test_empty(void)
{
	stream_t s = { 0 };
	rapier_ws_parser_t p;
	size_t used;

	frame(&s, FIN | TEXT, "", 0);
	frame(&s, FIN | BINARY, "", 0);
	frame(&s, TEXT, "", 0);
	frame(&s, 0, "", 0);
	frame(&s, FIN, "", 0);
	frame(&s, BINARY, "", 0);
	frame(&s, FIN, STR("x"));
	CHECK_EQ_STR(run(&s, "empty messages"), "T(0)|B(0)|T(0)|B(1)x|more");
	rapier_ws_parser_init(&p, MAX_DEFAULT);
	CHECK_EQ_INT(rapier_ws_parser_feed(&p, (const char *) s.data, s.len, &used), RAPIER_WS_MESSAGE);
	CHECK_EQ_INT(used, 6);
	CHECK(p.message == NULL && p.message_len == 0 && !p.message_binary);
	rapier_ws_parser_free(&p);
	/* An empty message with max_message 0; a byte more is too big. */
	reset(&s);
	frame(&s, FIN | TEXT, "", 0);
	frame(&s, FIN | TEXT, "a", 1);
	CHECK_EQ_STR(run_max(&s, 0, "max_message 0"), "T(0)|ERROR 1009 message larger than max_message|");
	free(s.data);
}

static void expect_error(const stream_t *s, uint64_t max, unsigned code, const char *why, const char *what)
{
	char want[160];

	snprintf(want, sizeof(want), "ERROR %u %s|", code, why);
	CHECK_EQ_STR(run_max(s, max, what), want);
}

static void test_header_errors(void)
{
	stream_t s = { 0 };
	uint8_t raw[14] = { 0 };

	frame_ext(&s, FIN | TEXT, STR("Hello"), LEN_MINIMAL, false);
	expect_error(&s, MAX_DEFAULT, 1002, "unmasked frame from a client", "unmasked");
	for (uint8_t rsv = 0x10; rsv <= 0x40; rsv <<= 1) {
		reset(&s);
		frame(&s, FIN | rsv | TEXT, STR("Hello"));
		expect_error(&s, MAX_DEFAULT, 1002, "reserved bits set without an extension", "RSV bit");
	}
	for (uint8_t op = 3; op <= 0xF; op++) {
		if (op >= CLOSE && op <= PONG) {
			continue;
		}
		reset(&s);
		frame(&s, FIN | op, STR("x"));
		expect_error(&s, MAX_DEFAULT, 1002, "reserved opcode", "reserved opcode");
		reset(&s);
		frame(&s, op, "", 0);
		expect_error(&s, MAX_DEFAULT, 1002, "reserved opcode", "reserved opcode without FIN");
	}
	reset(&s);
	frame(&s, PING, STR("x"));
	expect_error(&s, MAX_DEFAULT, 1002, "fragmented control frame", "fragmented ping");
	reset(&s);
	frame(&s, CLOSE, "\x03\xE8", 2);
	expect_error(&s, MAX_DEFAULT, 1002, "fragmented control frame", "fragmented close");
	reset(&s);
	frame_ext(&s, FIN | PING, STR("x"), LEN_16, true);
	CHECK_EQ_STR(run(&s, "ping with a 16-bit length"), "PING(1)x|more");
	for (size_t len = 126; len <= 300; len += 174) {
		uint8_t *b = pattern(len);

		reset(&s);
		frame(&s, FIN | PING, b, len);
		expect_error(&s, MAX_DEFAULT, 1002, "control frame longer than 125 bytes", "long ping");
		reset(&s);
		frame(&s, FIN | PONG, b, len);
		expect_error(&s, MAX_DEFAULT, 1002, "control frame longer than 125 bytes", "long pong");
		free(b);
	}
	reset(&s);
	frame(&s, FIN, STR("x"));
	expect_error(&s, MAX_DEFAULT, 1002, "continuation frame without a message", "lone continuation");
	reset(&s);
	frame(&s, FIN | TEXT, STR("a"));
	frame(&s, 0, STR("x"));
	CHECK_EQ_STR(run(&s, "continuation after a message"), "T(1)a|ERROR 1002 continuation frame without a message|");
	reset(&s);
	frame(&s, TEXT, STR("a"));
	frame(&s, FIN | TEXT, STR("b"));
	expect_error(&s, MAX_DEFAULT, 1002, "new message before the last one ended", "text in text");
	reset(&s);
	frame(&s, BINARY, STR("a"));
	frame(&s, FIN | PING, STR("p"));
	frame(&s, BINARY, STR("b"));
	CHECK_EQ_STR(run(&s, "binary in binary"), "PING(1)p|ERROR 1002 new message before the last one ended|");
	/* A 64-bit length with its top bit set. */
	raw[0] = FIN | BINARY;
	raw[1] = 0x80 | 127;
	raw[2] = 0x80;
	reset(&s);
	put(&s, raw, 14);
	expect_error(&s, UINT64_MAX, 1002, "64-bit length with its top bit set", "top bit");
	free(s.data);
}

static void test_close_errors(void)
{
	static const unsigned bad[] = { 0, 1, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535 };
	stream_t s = { 0 };

	frame(&s, FIN | CLOSE, "\x03", 1);
	expect_error(&s, MAX_DEFAULT, 1002, "close frame with a 1-byte payload", "1-byte close");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		reset(&s);
		close_frame(&s, bad[i], STR("x"));
		expect_error(&s, MAX_DEFAULT, 1002, "close code that no endpoint may send", "unsendable code");
	}
	reset(&s);
	close_frame(&s, 1000, STR("ok \xC3\x28"));
	expect_error(&s, MAX_DEFAULT, 1007, "close reason is not valid UTF-8", "bad reason");
	reset(&s);
	close_frame(&s, 1000, STR("cut \xE2\x82"));
	expect_error(&s, MAX_DEFAULT, 1007, "close reason is not valid UTF-8", "truncated reason");
	free(s.data);
}

/* Feeds the first n bytes of s to a new parser: the event they give. */
static rapier_ws_event_t feed_prefix(rapier_ws_parser_t *p, const stream_t *s, size_t n, uint64_t max)
{
	size_t used;

	rapier_ws_parser_init(p, max);
	return rapier_ws_parser_feed(p, (const char *) s->data, n, &used);
}

static void test_utf8_errors(void)
{
	stream_t s = { 0 };
	rapier_ws_parser_t p;
	char text[100];

	frame(&s, FIN | TEXT, STR("abc\xFF"));
	expect_error(&s, MAX_DEFAULT, 1007, "text message is not valid UTF-8", "bad text");
	reset(&s);
	frame(&s, FIN | TEXT, STR("a\xED\xA0\x80"));
	expect_error(&s, MAX_DEFAULT, 1007, "text message is not valid UTF-8", "surrogate");
	reset(&s);
	frame(&s, FIN | TEXT, STR("abc\xE2\x82"));
	expect_error(&s, MAX_DEFAULT, 1007, "text message ends inside a UTF-8 character", "truncated text");
	/* Across a fragment boundary: E2 82 then an ASCII byte. */
	reset(&s);
	frame(&s, TEXT, STR("ab\xE2\x82"));
	frame(&s, FIN | PING, STR("p"));
	frame(&s, FIN, STR("A rest"));
	CHECK_EQ_STR(run(&s, "bad across fragments"), "PING(1)p|ERROR 1007 text message is not valid UTF-8|");
	/* Found at the bad byte, before the frame is complete: header (6) + 10 good bytes, then the bad one. */
	reset(&s);
	memset(text, 'a', sizeof(text));
	text[10] = (char) 0xC0;
	frame(&s, FIN | TEXT, text, sizeof(text));
	CHECK_EQ_INT(feed_prefix(&p, &s, 6 + 10, MAX_DEFAULT), RAPIER_WS_NEED_MORE);
	rapier_ws_parser_free(&p);
	CHECK_EQ_INT(feed_prefix(&p, &s, 6 + 11, MAX_DEFAULT), RAPIER_WS_ERROR);
	CHECK_EQ_INT(p.error_code, 1007);
	rapier_ws_parser_free(&p);
	/* The same in a second fragment, as soon as its first payload byte arrives. */
	reset(&s);
	frame(&s, TEXT, STR("ab\xE2\x82"));
	frame(&s, FIN, STR("A rest"));
	CHECK_EQ_INT(feed_prefix(&p, &s, 10 + 6, MAX_DEFAULT), RAPIER_WS_NEED_MORE);
	rapier_ws_parser_free(&p);
	CHECK_EQ_INT(feed_prefix(&p, &s, 10 + 6 + 1, MAX_DEFAULT), RAPIER_WS_ERROR);
	CHECK_EQ_STR(p.error, "text message is not valid UTF-8");
	rapier_ws_parser_free(&p);
	/* Binary messages are not UTF-8 checked. */
	reset(&s);
	frame(&s, FIN | BINARY, STR("\xFF\xC0"));
	CHECK_EQ_STR(run(&s, "binary"), "B(2)\\xFF\\xC0|more");
	free(s.data);
}

static void test_too_big(void)
{
	stream_t s = { 0 };
	rapier_ws_parser_t p;
	size_t used;
	uint8_t *b = pattern(2001);

	frame(&s, FIN | BINARY, b, 1000);
	expect_message(run_max(&s, 1000, "exactly max_message"), true, b, 1000);
	reset(&s);
	frame(&s, FIN | BINARY, b, 1001);
	expect_error(&s, 1000, 1009, "message larger than max_message", "one frame over");
	/* Refused at the header: no byte of the payload needed, nothing allocated. */
	CHECK_EQ_INT(feed_prefix(&p, &s, 8, 1000), RAPIER_WS_ERROR);
	CHECK(p.buf == NULL && p.buf_cap == 0);
	rapier_ws_parser_free(&p);
	reset(&s);
	frame(&s, BINARY, b, 600);
	frame(&s, FIN | PING, STR("p"));
	frame(&s, 0, b, 400);
	frame(&s, FIN, b, 1);
	CHECK_EQ_STR(run_max(&s, 1000, "fragments over"), "PING(1)p|ERROR 1009 message larger than max_message|");
	CHECK_EQ_INT(feed_prefix(&p, &s, 608 + 7 + 8 + 400 + 6, 1000), RAPIER_WS_PING);
	CHECK(p.buf_cap <= 1000);
	CHECK_EQ_INT(rapier_ws_parser_feed(&p, (const char *) s.data + 615, 408 + 6, &used), RAPIER_WS_ERROR);
	CHECK_EQ_INT(used, 408 + 6);
	rapier_ws_parser_free(&p);
	/* Fragments summing to max_message exactly. */
	reset(&s);
	frame(&s, TEXT, "abcde", 5);
	frame(&s, FIN, "fghij", 5);
	CHECK_EQ_STR(run_max(&s, 10, "fragments at max_message"), "T(10)abcdefghij|more");
	/* An announced length within the limit is not allocated up front either. */
	reset(&s);
	put(&s, "\x82\xFF\x00\x00\x01\x00\x00\x00\x00\x00" "abcd", 14);
	put(&s, b, 2000);
	CHECK_EQ_INT(feed_prefix(&p, &s, s.len, UINT64_MAX), RAPIER_WS_NEED_MORE);
	CHECK(p.buf_cap >= 2000 && p.buf_cap <= 4096);
	rapier_ws_parser_free(&p);
	/* ... and a 2^62-byte one is refused under a smaller limit. */
	reset(&s);
	put(&s, "\x82\xFF\x40\x00\x00\x00\x00\x00\x00\x00" "abcd", 14);
	expect_error(&s, (uint64_t) 1 << 40, 1009, "message larger than max_message", "2^62 announced");
	free(b);
	free(s.data);
}

static void test_close(void)
{
	stream_t s = { 0 };
	char reason[RAPIER_WS_CLOSE_REASON_MAX];
	rapier_ws_parser_t p;
	size_t used;

	close_frame(&s, 1000, STR("bye \xE2\x82\xAC"));
	frame(&s, FIN | TEXT, STR("after"));
	CHECK_EQ_STR(run(&s, "close with reason"), "CLOSE 1000 'bye \\xE2\\x82\\xAC'|");
	reset(&s);
	frame(&s, FIN | CLOSE, "", 0);
	CHECK_EQ_STR(run(&s, "close without payload"), "CLOSE 1005 ''|");
	reset(&s);
	close_frame(&s, 4999, "", 0);
	CHECK_EQ_STR(run(&s, "close with code only"), "CLOSE 4999 ''|");
	memset(reason, 'r', sizeof(reason));
	reset(&s);
	close_frame(&s, 3000, reason, sizeof(reason));
	run(&s, "longest reason");
	CHECK(strncmp(whole.log, "CLOSE 3000 'rrrr", 16) == 0);
	/* The results stay until the caller is done: close_reason points into control. */
	CHECK_EQ_INT(feed_prefix(&p, &s, s.len, MAX_DEFAULT), RAPIER_WS_CLOSE);
	CHECK_EQ_INT(p.close_reason_len, 123);
	CHECK(p.close_reason == (const char *) p.control + 2);
	CHECK_EQ_INT(rapier_ws_parser_feed(&p, "x", 1, &used), RAPIER_WS_CLOSE);
	CHECK_EQ_INT(used, 0);
	CHECK_EQ_INT(p.close_code, 3000);
	CHECK(memcmp(p.close_reason, reason, sizeof(reason)) == 0);
	rapier_ws_parser_free(&p);
	/* After an ERROR: the same, with the error kept. */
	reset(&s);
	frame_ext(&s, FIN | TEXT, STR("x"), LEN_MINIMAL, false);
	CHECK_EQ_INT(feed_prefix(&p, &s, s.len, MAX_DEFAULT), RAPIER_WS_ERROR);
	CHECK_EQ_INT(rapier_ws_parser_feed(&p, "\x81\x81", 2, &used), RAPIER_WS_ERROR);
	CHECK_EQ_INT(used, 0);
	CHECK_EQ_INT(p.error_code, 1002);
	CHECK_EQ_STR(p.error, "unmasked frame from a client");
	rapier_ws_parser_free(&p);
	free(s.data);
}

static void test_take_message(void)
{
	stream_t s = { 0 };
	rapier_ws_parser_t p;
	size_t used, len = 99;
	char *msg;

	frame(&s, FIN | TEXT, STR("one"));
	frame(&s, FIN | BINARY, STR("two"));
	frame(&s, FIN | TEXT, STR("three"));
	frame(&s, TEXT, STR("open"));
	rapier_ws_parser_init(&p, MAX_DEFAULT);
	CHECK(rapier_ws_parser_take_message(&p, &len) == NULL && len == 0);
	CHECK_EQ_INT(rapier_ws_parser_feed(&p, (const char *) s.data, s.len, &used), RAPIER_WS_MESSAGE);
	CHECK_EQ_INT(used, 9);
	msg = rapier_ws_parser_take_message(&p, &len);
	CHECK(msg != NULL && len == 3 && memcmp(msg, "one", 3) == 0);
	CHECK(rapier_ws_parser_take_message(&p, &len) == NULL && len == 0);
	free(msg);
	/* Not taken: the next feed releases it (ASan's leak check would tell otherwise). */
	CHECK_EQ_INT(rapier_ws_parser_feed(&p, (const char *) s.data + 9, s.len - 9, &used), RAPIER_WS_MESSAGE);
	CHECK(p.message_binary && p.message_len == 3 && memcmp(p.message, "two", 3) == 0);
	CHECK_EQ_INT(rapier_ws_parser_feed(&p, (const char *) s.data + 18, s.len - 18, &used), RAPIER_WS_MESSAGE);
	CHECK(!p.message_binary && p.message_len == 5);
	/* Not taken, then an open message: free() releases both. */
	CHECK_EQ_INT(rapier_ws_parser_feed(&p, (const char *) s.data + 29, 3, &used), RAPIER_WS_NEED_MORE);
	CHECK(p.message == NULL);
	CHECK_EQ_INT(rapier_ws_parser_feed(&p, (const char *) s.data + 32, s.len - 32, &used), RAPIER_WS_NEED_MORE);
	CHECK(rapier_ws_parser_take_message(&p, NULL) == NULL);
	rapier_ws_parser_free(&p);
	rapier_ws_parser_free(&p);
	/* The last message left behind at free(). */
	CHECK_EQ_INT(feed_prefix(&p, &s, 9, MAX_DEFAULT), RAPIER_WS_MESSAGE);
	rapier_ws_parser_free(&p);
	free(s.data);
}

static void check_header(rapier_ws_opcode_t op, uint64_t len, const char *want, size_t want_len)
{
	uint8_t out[RAPIER_WS_FRAME_HEADER_MAX];
	size_t n = rapier_ws_frame_header(out, op, len);

	CHECK_EQ_INT(n, want_len);
	CHECK(memcmp(out, want, want_len) == 0);
}

static void test_frame_header(void)
{
	static const rapier_ws_opcode_t ops[] = { RAPIER_WS_OP_CONTINUATION, RAPIER_WS_OP_TEXT, RAPIER_WS_OP_BINARY,
		RAPIER_WS_OP_CLOSE, RAPIER_WS_OP_PING, RAPIER_WS_OP_PONG };
	uint8_t out[RAPIER_WS_FRAME_HEADER_MAX];

	check_header(RAPIER_WS_OP_TEXT, 0, "\x81\x00", 2);
	check_header(RAPIER_WS_OP_TEXT, 5, "\x81\x05", 2);
	check_header(RAPIER_WS_OP_BINARY, 125, "\x82\x7D", 2);
	check_header(RAPIER_WS_OP_BINARY, 126, "\x82\x7E\x00\x7E", 4);
	check_header(RAPIER_WS_OP_BINARY, 256, "\x82\x7E\x01\x00", 4);
	check_header(RAPIER_WS_OP_BINARY, 65535, "\x82\x7E\xFF\xFF", 4);
	check_header(RAPIER_WS_OP_BINARY, 65536, "\x82\x7F\x00\x00\x00\x00\x00\x01\x00\x00", 10);
	check_header(RAPIER_WS_OP_TEXT, 0x0102030405060708ull, "\x81\x7F\x01\x02\x03\x04\x05\x06\x07\x08", 10);
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		CHECK_EQ_INT(rapier_ws_frame_header(out, ops[i], 3), 2);
		CHECK_EQ_INT(out[0], 0x80 | ops[i]);
		CHECK_EQ_INT(out[1], 3);
	}
}

static void test_close_payload(void)
{
	uint8_t out[RAPIER_WS_CONTROL_MAX];
	char reason[200];
	/* A character whose last byte would be the 124th: the cut falls before it. */
	static const struct {
		const char *ch;
		size_t ascii, want;
	} cuts[] = {
		{ "\xC3\xA9", 122, 122 }, { "\xC3\xA9", 121, 123 }, { "\xE2\x82\xAC", 121, 121 }, { "\xE2\x82\xAC", 120, 123 },
		{ "\xF0\x9F\x98\x80", 120, 120 }, { "\xF0\x9F\x98\x80", 119, 123 }, { "\xF0\x9F\x98\x80", 122, 122 },
	};

	CHECK_EQ_INT(rapier_ws_close_payload(out, 1000, NULL, 0), 2);
	CHECK(out[0] == 0x03 && out[1] == 0xE8);
	CHECK_EQ_INT(rapier_ws_close_payload(out, 4001, "bye", 3), 5);
	CHECK(memcmp(out, "\x0F\xA1" "bye", 5) == 0);
	memset(reason, 'x', sizeof(reason));
	CHECK_EQ_INT(rapier_ws_close_payload(out, 1001, reason, 123), 125);
	CHECK_EQ_INT(rapier_ws_close_payload(out, 1001, reason, 124), 125);
	CHECK_EQ_INT(rapier_ws_close_payload(out, 1001, reason, sizeof(reason)), 125);
	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		size_t clen = strlen(cuts[i].ch), n;

		memset(reason, 'a', cuts[i].ascii);
		memcpy(reason + cuts[i].ascii, cuts[i].ch, clen);
		memset(reason + cuts[i].ascii + clen, 'z', 10);
		n = rapier_ws_close_payload(out, 1000, reason, cuts[i].ascii + clen + 10);
		CHECK_EQ_INT(n, 2 + cuts[i].want);
		CHECK(rapier_ws_utf8_valid((const char *) out + 2, n - 2));
	}
}

static void test_close_code_sendable(void)
{
	static const int yes[] = { 1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000, 4999 };
	static const int no[] = { -1, 0, 999, 1004, 1005, 1006, 1015, 1016, 2000, 2999, 5000, 65535, 66536 };

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		CHECK(rapier_ws_close_code_sendable(yes[i]));
	}
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		CHECK(!rapier_ws_close_code_sendable(no[i]));
	}
}

/* A plain decoder to check the validator against: one code point at a time. */
static bool reference_utf8(const uint8_t *s, size_t len)
{
	static const uint32_t min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t i = 0;

	while (i < len) {
		size_t n = s[i] < 0x80 ? 1 : (s[i] & 0xE0) == 0xC0 ? 2 : (s[i] & 0xF0) == 0xE0 ? 3 : (s[i] & 0xF8) == 0xF0 ? 4 : 0;
		uint32_t cp;

		if (n == 0 || i + n > len) {
			return false;
		}
		cp = n == 1 ? s[i] : s[i] & (0x7F >> n);
		for (size_t k = 1; k < n; k++) {
			if ((s[i + k] & 0xC0) != 0x80) {
				return false;
			}
			cp = cp << 6 | (s[i + k] & 0x3F);
		}
		if (cp < min[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
			return false;
		}
		i += n;
	}
	return true;
}

/* valid() as expected, and scan() giving the same over every split and byte by byte. */
static void check_utf8(const char *str, size_t len, bool valid)
{
	const uint8_t *s = (const uint8_t *) str;
	uint32_t whole = rapier_ws_utf8_scan(0, s, len), state = 0;

	CHECK_EQ_INT(rapier_ws_utf8_valid(str, len), valid);
	CHECK_EQ_INT(reference_utf8(s, len), valid);
	for (size_t at = 0; at <= len; at++) {
		CHECK_EQ_INT(rapier_ws_utf8_scan(rapier_ws_utf8_scan(0, s, at), s + at, len - at), whole);
	}
	for (size_t i = 0; i < len; i++) {
		state = rapier_ws_utf8_scan(state, s + i, 1);
	}
	CHECK_EQ_INT(state, whole);
}

#define UTF8(s, v) check_utf8(s, sizeof(s) - 1, v)

static void test_utf8(void)
{
	char buf[100];
	uint8_t s[4];

	UTF8("", true);
	/* An empty message is NULL (found by the fuzzer: NULL + 0 in the scan). */
	CHECK(rapier_ws_utf8_valid(NULL, 0));
	CHECK_EQ_INT(rapier_ws_utf8_scan(0, NULL, 0), 0);
	UTF8("plain ASCII, long enough for the 8-byte path", true);
	UTF8("\x7F\x01", true);
	UTF8("\xC2\x80 \xDF\xBF \xC3\xA9", true);
	UTF8("\xE0\xA0\x80 \xE2\x82\xAC \xED\x9F\xBF \xEE\x80\x80 \xEF\xBF\xBF", true);
	UTF8("\xF0\x90\x80\x80 \xF0\x9F\x98\x80 \xF4\x8F\xBF\xBF", true);
	UTF8("\xCE\xBA\xE1\xBD\xB9\xCF\x83\xCE\xBC\xCE\xB5", true);
	UTF8("\xC0\x80", false);
	UTF8("\xC1\xBF", false);
	UTF8("\xE0\x80\x80", false);
	UTF8("\xE0\x9F\xBF", false);
	UTF8("\xF0\x80\x80\x80", false);
	UTF8("\xF0\x8F\xBF\xBF", false);
	UTF8("\xED\xA0\x80", false);
	UTF8("\xED\xBF\xBF", false);
	UTF8("\xF4\x90\x80\x80", false);
	UTF8("\xF5\x80\x80\x80", false);
	UTF8("\xF8\x88\x80\x80\x80", false);
	UTF8("\xFE", false);
	UTF8("\xFF", false);
	UTF8("\x80", false);
	UTF8("abc\xBF", false);
	UTF8("\xC3\x28", false);
	UTF8("\xE2\x28\xA1", false);
	/* Truncated at the end: not valid, but not rejected either. */
	UTF8("\xC3", false);
	UTF8("abc\xE2\x82", false);
	UTF8("\xF0\x9F\x98", false);
	CHECK(rapier_ws_utf8_scan(0, (const uint8_t *) "\xE2\x82", 2) != 0);
	CHECK(rapier_ws_utf8_scan(0, (const uint8_t *) "\xE2\x82", 2) != RAPIER_WS_UTF8_REJECT);
	CHECK_EQ_INT(rapier_ws_utf8_scan(RAPIER_WS_UTF8_REJECT, (const uint8_t *) "a", 1), RAPIER_WS_UTF8_REJECT);
	/* A bad byte at every position of an ASCII run: the 8-byte path at every alignment. */
	for (size_t at = 0; at < sizeof(buf); at++) {
		memset(buf, 'a', sizeof(buf));
		buf[at] = (char) 0x80;
		CHECK(!rapier_ws_utf8_valid(buf, sizeof(buf)));
		buf[at] = (char) 0xC3;
		buf[at + 1 < sizeof(buf) ? at + 1 : at] = (char) 0xA9;
		CHECK_EQ_INT(rapier_ws_utf8_valid(buf, sizeof(buf)), at + 1 < sizeof(buf));
	}
	/* Every string of one, two and three bytes against the reference. */
	for (uint32_t v = 0; v < (1u << 24); v++) {
		s[0] = (uint8_t) (v >> 16);
		s[1] = (uint8_t) (v >> 8);
		s[2] = (uint8_t) v;
		if (v < 256 && rapier_ws_utf8_valid((const char *) s + 2, 1) != reference_utf8(s + 2, 1)) {
			CHECK(!"one byte");
		}
		if (v < 65536 && rapier_ws_utf8_valid((const char *) s + 1, 2) != reference_utf8(s + 1, 2)) {
			CHECK(!"two bytes");
		}
		if (rapier_ws_utf8_valid((const char *) s, 3) != reference_utf8(s, 3)) {
			fprintf(stderr, "  %02X %02X %02X\n", s[0], s[1], s[2]);
			CHECK(!"three bytes");
			break;
		}
	}
	/* Four bytes: every lead and second byte, the edges of the others. */
	for (uint32_t v = 0xF000; v < 0x10000; v++) {
		static const uint8_t edges[] = { 0x00, 0x7F, 0x80, 0xBF, 0xC0, 0xFF };

		for (size_t i = 0; i < sizeof(edges) * sizeof(edges); i++) {
			uint8_t q[4] = { (uint8_t) (v >> 8), (uint8_t) v, edges[i % sizeof(edges)], edges[i / sizeof(edges)] };

			if (rapier_ws_utf8_valid((const char *) q, 4) != reference_utf8(q, 4)) {
				CHECK(!"four bytes");
			}
		}
	}
}

static void test_accept_key(void)
{
	char out[RAPIER_WS_ACCEPT_LEN + 1];

	CHECK_EQ_INT(rapier_ws_accept_key(STR("dGhlIHNhbXBsZSBub25jZQ=="), out), 0);
	CHECK_EQ_STR(out, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
	CHECK_EQ_INT(strlen(out), RAPIER_WS_ACCEPT_LEN);
	CHECK_EQ_INT(rapier_ws_accept_key(STR("AQIDBAUGBwgJCgsMDQ4PEA=="), out), 0);
	CHECK_EQ_INT(rapier_ws_accept_key(STR("+/+/+/+/+/+/+/+/+/+/+w=="), out), 0);
	CHECK_EQ_INT(rapier_ws_accept_key(STR("dGhlIHNhbXBsZSBub25jZQ="), out), -1);
	CHECK_EQ_INT(rapier_ws_accept_key(STR("dGhlIHNhbXBsZSBub25jZQ==="), out), -1);
	CHECK_EQ_INT(rapier_ws_accept_key(STR(""), out), -1);
	CHECK_EQ_INT(rapier_ws_accept_key(STR("dGhlIHNhbXBsZSBub25jZQAA"), out), -1);
	CHECK_EQ_INT(rapier_ws_accept_key(STR("dGhlIHNhbXBsZSBub25jZ=A="), out), -1);
	CHECK_EQ_INT(rapier_ws_accept_key(STR("dGhlIHNhbXBsZSBub25jZ==="), out), -1);
	CHECK_EQ_INT(rapier_ws_accept_key(STR("dGhlIHNhbXBsZSBub25j*Q=="), out), -1);
	CHECK_EQ_INT(rapier_ws_accept_key(STR("dGhlIHNhbXBsZSBub25j Q=="), out), -1);
	CHECK_EQ_INT(rapier_ws_accept_key(STR("dGhlIHNhbXBsZSBub25j-Q=="), out), -1);
	CHECK_EQ_INT(rapier_ws_accept_key("dGhlIHNhbXBsZSBub25j\0Q==", 24, out), -1);
}

int main(void)
{
	test_rfc_examples();
	test_lengths();
	test_fragments();
	test_empty();
	test_header_errors();
	test_close_errors();
	test_utf8_errors();
	test_too_big();
	test_close();
	test_take_message();
	test_frame_header();
	test_close_payload();
	test_close_code_sendable();
	test_utf8();
	test_accept_key();
	return unit_finish("websocket_frame_test");
}
