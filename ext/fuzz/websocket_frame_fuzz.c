/*
 * libFuzzer driver for the WebSocket frame decoder (src/websocket_frame.c):
 * what a client sends after the handshake, fed as the server reads it.
 *
 * Input: byte 0 picks max_message (bits 0-1: 1 MiB, 1000, 130, 0),
 * whether messages are taken from the parser (bit 2) or left for it to
 * free, and whether permessage-deflate was agreed (bit 3: RSV1 allowed,
 * and each compressed message inflated as the server does, bounded by
 * max_message, text then checked for UTF-8); byte 1 seeds the read sizes (fuzz.h); the rest is the client's
 * bytes. Each read is copied into a buffer of its own size, so that ASan
 * sees a read past it. The first 24 bytes also go to
 * rapier_ws_accept_key().
 *
 * Checked beyond "no crash": used never exceeds the bytes given and is all
 * of them with NEED_MORE; a message is at most max_message, NULL exactly
 * when empty, valid UTF-8 when uncompressed text, compressed only when
 * agreed, and inflated to at most max_message or refused; control payloads are at most 125
 * bytes; a close code is sendable (or 1005 without one) and its reason is
 * UTF-8 that rapier_ws_close_payload() gives back as it came; an error has
 * a code and a reason a close frame can carry; a finished parser returns
 * its event again and consumes nothing; and the input cut in any pieces
 * gives the same events, bytes and codes as the whole input.
 */
#include <string.h>

#include "fuzz.h"
#include "websocket_frame.c"
#include "websocket_deflate.c"

static const uint64_t max_messages[4] = { 1 << 20, 1000, 130, 0 };

static void check_message(rapier_ws_parser_t *p, uint64_t max, bool take, uint64_t *h)
{
	uint8_t out[RAPIER_WS_FRAME_HEADER_MAX];
	size_t n, len, want = p->message_len;
	char *msg;

	FUZZ_CHECK(p->message_len <= (p->message_compressed ? message_limit(p, true) : max));
	FUZZ_CHECK((p->message == NULL) == (p->message_len == 0));
	FUZZ_CHECK(!p->message_compressed || p->allow_compressed);
	FUZZ_CHECK(p->message_binary || p->message_compressed || rapier_ws_utf8_valid(p->message, p->message_len));
	if (p->message_compressed) {
		char *plain;
		size_t plain_len;
		int rc = rapier_ws_inflate_message(p->message, p->message_len, max, &plain, &plain_len);

		FUZZ_CHECK(rc == 0 || rc == -E2BIG || rc == -EINVAL);
		if (rc == 0) {
			FUZZ_CHECK(plain_len <= max && (plain == NULL) == (plain_len == 0));
			fuzz_digest(h, plain, plain_len);
			fuzz_digest_u64(h, p->message_binary || rapier_ws_utf8_valid(plain, plain_len));
			free(plain);
		}
		fuzz_digest_u64(h, (uint64_t) -rc);
	}
	fuzz_digest(h, &p->message_binary, 1);
	fuzz_digest_u64(h, p->message_len);
	fuzz_digest(h, p->message, p->message_len);
	/* The header that would echo it back. */
	n = rapier_ws_frame_header(out, p->message_binary ? RAPIER_WS_OP_BINARY : RAPIER_WS_OP_TEXT, p->message_len);
	FUZZ_CHECK(n == (p->message_len <= 125 ? 2 : p->message_len <= 0xFFFF ? 4 : 10));
	if (take) {
		msg = rapier_ws_parser_take_message(p, &len);
		FUZZ_CHECK(p->message == NULL && len == want && (msg != NULL) == (len > 0));
		free(msg);
	}
}

static void check_close(rapier_ws_parser_t *p, uint64_t *h)
{
	uint8_t out[RAPIER_WS_CONTROL_MAX];
	size_t n;

	FUZZ_CHECK(p->close_code == RAPIER_WS_CLOSE_NO_STATUS || rapier_ws_close_code_sendable(p->close_code));
	FUZZ_CHECK(p->close_code != RAPIER_WS_CLOSE_NO_STATUS || p->close_reason_len == 0);
	FUZZ_CHECK(p->close_reason_len <= RAPIER_WS_CLOSE_REASON_MAX);
	FUZZ_CHECK(rapier_ws_utf8_valid(p->close_reason, p->close_reason_len));
	FUZZ_CHECK(p->close_reason >= (const char *) p->control
		&& p->close_reason + p->close_reason_len <= (const char *) p->control + p->control_len);
	n = rapier_ws_close_payload(out, p->close_code, p->close_reason, p->close_reason_len);
	FUZZ_CHECK(n == 2 + p->close_reason_len && memcmp(out + 2, p->close_reason, p->close_reason_len) == 0);
	fuzz_digest_u64(h, p->close_code);
	fuzz_digest(h, p->close_reason, p->close_reason_len);
}

static void check_event(rapier_ws_parser_t *p, rapier_ws_event_t ev, uint64_t max, bool take, uint64_t *h)
{
	fuzz_digest_u64(h, ev);
	switch (ev) {
		case RAPIER_WS_MESSAGE:
			check_message(p, max, take, h);
			break;
		case RAPIER_WS_PING:
		case RAPIER_WS_PONG:
			FUZZ_CHECK(p->control_len <= RAPIER_WS_CONTROL_MAX);
			fuzz_digest(h, p->control, p->control_len);
			break;
		case RAPIER_WS_CLOSE:
			check_close(p, h);
			break;
		case RAPIER_WS_ERROR:
			FUZZ_CHECK(p->error != NULL && strlen(p->error) <= RAPIER_WS_CLOSE_REASON_MAX);
			FUZZ_CHECK(p->error_code == RAPIER_WS_CLOSE_PROTOCOL_ERROR || p->error_code == RAPIER_WS_CLOSE_INVALID_DATA
				|| p->error_code == RAPIER_WS_CLOSE_TOO_BIG);
			fuzz_digest_u64(h, p->error_code);
			fuzz_digest(h, p->error, strlen(p->error));
			break;
		default:
			FUZZ_CHECK(!"unknown event");
	}
}

/* Feeds one read; returns the last event (NEED_MORE, or the CLOSE or ERROR that finished the parser). */
static rapier_ws_event_t feed_read(rapier_ws_parser_t *p, const char *buf, size_t n, uint64_t max, bool take,
	uint64_t *h)
{
	rapier_ws_event_t ev;
	size_t used;

	for (;;) {
		ev = rapier_ws_parser_feed(p, buf, n, &used);
		FUZZ_CHECK(used <= n);
		if (ev == RAPIER_WS_NEED_MORE) {
			FUZZ_CHECK(used == n);
			return ev;
		}
		check_event(p, ev, max, take, h);
		if (ev == RAPIER_WS_CLOSE || ev == RAPIER_WS_ERROR) {
			FUZZ_CHECK(rapier_ws_parser_feed(p, buf, n, &used) == ev && used == 0);
			return ev;
		}
		buf += used;
		n -= used;
	}
}

static uint64_t run(const uint8_t *in, size_t len, int flags, fuzz_cutter_t *cut)
{
	uint64_t h = FUZZ_DIGEST_INIT, max = max_messages[flags & 3];
	rapier_ws_event_t ev = RAPIER_WS_NEED_MORE;
	rapier_ws_parser_t p;
	size_t pos = 0;

	rapier_ws_parser_init(&p, max);
	if (flags & 8) {
		rapier_ws_parser_allow_compressed(&p);
	}
	while (pos < len && ev == RAPIER_WS_NEED_MORE) {
		size_t n = fuzz_next_cut(cut, len - pos);
		char *read = malloc(n);

		memcpy(read, in + pos, n);
		ev = feed_read(&p, read, n, max, (flags & 4) != 0, &h);
		free(read);
		pos += n;
	}
	fuzz_digest_u64(&h, ev);
	rapier_ws_parser_free(&p);
	return h;
}

static void fuzz_accept_key(const uint8_t *in, size_t len)
{
	char out[RAPIER_WS_ACCEPT_LEN + 1];
	bool shape = len == 24 && in[22] == '=' && in[23] == '=';

	for (size_t i = 0; shape && i < 22; i++) {
		shape = is_base64_char((char) in[i]);
	}
	FUZZ_CHECK((rapier_ws_accept_key((const char *) in, len, out) == 0) == shape);
	FUZZ_CHECK(!shape || strlen(out) == RAPIER_WS_ACCEPT_LEN);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t digest[FUZZ_RUNS];

	if (size < 2) {
		return 0;
	}
	fuzz_accept_key(data + 2, size - 2 < 24 ? size - 2 : 24);
	for (int mode = 0; mode < FUZZ_RUNS; mode++) {
		fuzz_cutter_t cut;

		fuzz_cutter_init(&cut, mode, data[1]);
		digest[mode] = run(data + 2, size - 2, data[0], &cut);
	}
	FUZZ_CHECK(digest[FUZZ_BYTES] == digest[FUZZ_WHOLE]);
	FUZZ_CHECK(digest[FUZZ_SEEDED] == digest[FUZZ_WHOLE]);
	return 0;
}
