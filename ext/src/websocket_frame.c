/*
 * RFC 6455 framing for the server's side. The parser is a byte-driven state
 * machine with two phases per frame: the header, collected into a 14-byte
 * array until its first two bytes say how long it is (2 + 0, 2 or 8 of
 * extended length + 4 of mask), then the payload, unmasked straight from
 * the caller's bytes into where it ends up: the message buffer for data
 * frames, the fixed `control` array for control frames. No payload byte is
 * copied twice and nothing is buffered but the frame header.
 *
 * Every check is made as soon as the bytes it needs are in (the header's
 * first two bytes, its length, each unmasked run of a text message), so an
 * input gives the same events however it was cut into reads.
 *
 * The message buffer grows geometrically as bytes arrive, never beyond
 * max_message, and never beyond a final frame's end. Rejected: allocating
 * what a frame's length announces up front, which would let a client pin
 * max_message of memory per connection with a 14-byte header.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/sha.h>

#include "websocket_frame.h"

#define FIN_BIT 0x80
#define RSV_BITS 0x70
#define OPCODE_BITS 0x0F
#define MASK_BIT 0x80
#define LEN7_BITS 0x7F
#define IS_CONTROL(op) (((op) & 0x08) != 0)

/* The first allocation of a message buffer: small messages fit it, big ones double from it. */
#define MESSAGE_MIN_ALLOC 4096

/* RFC 6455 1.3: appended to the client's key before hashing. */
#define ACCEPT_GUID "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
#define KEY_LEN 24

/*
 * UTF-8: a state other than 0 and REJECT is inside a character. Its low
 * byte counts the continuation bytes still due; bytes 1 and 2 give the
 * range the next one must fall in. Only the byte after a lead byte ever has
 * a range narrower than 80..BF, and that is what excludes overlong forms,
 * surrogates and code points past U+10FFFF (RFC 3629 section 4).
 */
#define UTF8_STATE(left, lo, hi) ((uint32_t) (left) | (uint32_t) (lo) << 8 | (uint32_t) (hi) << 16)
#define UTF8_LEFT(s) ((s) & 0xFF)
#define UTF8_LO(s) (((s) >> 8) & 0xFF)
#define UTF8_HI(s) (((s) >> 16) & 0xFF)
#define ASCII_MASK 0x8080808080808080ull

/* The state after a lead byte c (not ASCII: skip_ascii() has taken those). */
static uint32_t utf8_lead(uint8_t c)
{
	if (c < 0xC2) {
		/* A continuation byte where a character starts, or C0/C1: overlong for ASCII. */
		return RAPIER_WS_UTF8_REJECT;
	}
	if (c < 0xE0) {
		return UTF8_STATE(1, 0x80, 0xBF);
	}
	if (c < 0xF0) {
		if (c == 0xE0) {
			return UTF8_STATE(2, 0xA0, 0xBF);
		}
		return c == 0xED ? UTF8_STATE(2, 0x80, 0x9F) : UTF8_STATE(2, 0x80, 0xBF);
	}
	if (c == 0xF0) {
		return UTF8_STATE(3, 0x90, 0xBF);
	}
	if (c < 0xF4) {
		return UTF8_STATE(3, 0x80, 0xBF);
	}
	return c == 0xF4 ? UTF8_STATE(3, 0x80, 0x8F) : RAPIER_WS_UTF8_REJECT;
}

/* The first byte at or after s that is not ASCII, or end: 8 bytes per step while it can. */
static const uint8_t *skip_ascii(const uint8_t *s, const uint8_t *end)
{
	uint64_t v;

	while (end - s >= 8) {
		memcpy(&v, s, 8);
		if (v & ASCII_MASK) {
			break;
		}
		s += 8;
	}
	while (s < end && *s < 0x80) {
		s++;
	}
	return s;
}

/* Whether the continuation bytes that state asks for, all present at s, are right. */
static bool utf8_whole(const uint8_t *s, uint32_t state)
{
	if (s[0] < UTF8_LO(state) || s[0] > UTF8_HI(state)) {
		return false;
	}
	for (uint32_t i = 1; i < UTF8_LEFT(state); i++) {
		if ((s[i] & 0xC0) != 0x80) {
			return false;
		}
	}
	return true;
}

/*
 * Characters that are whole in the bytes given are checked in one go;
 * only one cut by the end of the bytes goes through the state byte by byte.
 */
uint32_t rapier_ws_utf8_scan(uint32_t state, const uint8_t *s, size_t len)
{
	const uint8_t *end;

	/* An empty message is NULL, and NULL + 0 is undefined behaviour in C. */
	if (len == 0 || state == RAPIER_WS_UTF8_REJECT) {
		return state;
	}
	end = s + len;
	while (s < end) {
		if (state == 0) {
			if (*s < 0x80) {
				s = skip_ascii(s + 1, end);
				continue;
			}
			if ((state = utf8_lead(*s++)) == RAPIER_WS_UTF8_REJECT) {
				return state;
			}
			if ((size_t) (end - s) >= UTF8_LEFT(state)) {
				if (!utf8_whole(s, state)) {
					return RAPIER_WS_UTF8_REJECT;
				}
				s += UTF8_LEFT(state);
				state = 0;
			}
			continue;
		}
		if (*s < UTF8_LO(state) || *s > UTF8_HI(state)) {
			return RAPIER_WS_UTF8_REJECT;
		}
		s++;
		state = UTF8_LEFT(state) == 1 ? 0 : UTF8_STATE(UTF8_LEFT(state) - 1, 0x80, 0xBF);
	}
	return state;
}

bool rapier_ws_utf8_valid(const char *s, size_t len)
{
	return rapier_ws_utf8_scan(0, (const uint8_t *) s, len) == 0;
}

/*
 * dst = src XOR the mask, whose phase is the payload offset of src mod 4.
 * Eight bytes per step with the mask repeated twice and rotated to the
 * phase; eight is a multiple of four, so the phase stays put for the tail.
 */
static void unmask(uint8_t *dst, const uint8_t *src, size_t n, const uint8_t mask[4], size_t phase)
{
	uint8_t m[8];
	uint64_t m8, v;
	size_t i;

	for (i = 0; i < 8; i++) {
		m[i] = mask[(phase + i) & 3];
	}
	memcpy(&m8, m, 8);
	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&v, src + i, 8);
		v ^= m8;
		memcpy(dst + i, &v, 8);
	}
	for (; i < n; i++) {
		dst[i] = src[i] ^ m[i & 7];
	}
}

void rapier_ws_parser_init(rapier_ws_parser_t *p, uint64_t max_message)
{
	memset(p, 0, sizeof(*p));
#if UINT64_MAX > SIZE_MAX
	/* A message must fit in memory: on a 32-bit build no limit is above SIZE_MAX. */
	if (max_message > SIZE_MAX) {
		max_message = SIZE_MAX;
	}
#endif
	p->max_message = max_message;
	p->header_need = 2;
}

void rapier_ws_parser_free(rapier_ws_parser_t *p)
{
	free(p->message);
	free(p->buf);
	p->message = NULL;
	p->buf = NULL;
	p->message_len = p->buf_len = p->buf_cap = 0;
}

char *rapier_ws_parser_take_message(rapier_ws_parser_t *p, size_t *len)
{
	char *message = p->message;

	if (len) {
		*len = message ? p->message_len : 0;
	}
	p->message = NULL;
	p->message_len = 0;
	return message;
}

static rapier_ws_event_t fail(rapier_ws_parser_t *p, uint16_t code, const char *why)
{
	p->error_code = code;
	p->error = why;
	p->finished = true;
	return RAPIER_WS_ERROR;
}

void rapier_ws_parser_fail(rapier_ws_parser_t *p, uint16_t code, const char *why)
{
	fail(p, code, why);
}

void rapier_ws_parser_allow_compressed(rapier_ws_parser_t *p)
{
	p->allow_compressed = true;
}

/* The header's first two bytes: everything but the length and the mask can be judged from them. */
static rapier_ws_event_t check_start(rapier_ws_parser_t *p)
{
	uint8_t b0 = p->header[0], b1 = p->header[1], op = b0 & OPCODE_BITS, len7 = b1 & LEN7_BITS;

	if ((b0 & RSV_BITS & ~RAPIER_WS_FRAME_COMPRESSED) || ((b0 & RAPIER_WS_FRAME_COMPRESSED) && !p->allow_compressed)) {
		return fail(p, RAPIER_WS_CLOSE_PROTOCOL_ERROR, "reserved bits set without an extension");
	}
	if ((op > RAPIER_WS_OP_BINARY && op < RAPIER_WS_OP_CLOSE) || op > RAPIER_WS_OP_PONG) {
		return fail(p, RAPIER_WS_CLOSE_PROTOCOL_ERROR, "reserved opcode");
	}
	if (!(b1 & MASK_BIT)) {
		return fail(p, RAPIER_WS_CLOSE_PROTOCOL_ERROR, "unmasked frame from a client");
	}
	if (IS_CONTROL(op)) {
		if (!(b0 & FIN_BIT)) {
			return fail(p, RAPIER_WS_CLOSE_PROTOCOL_ERROR, "fragmented control frame");
		}
	} else if (op == RAPIER_WS_OP_CONTINUATION && !p->in_message) {
		return fail(p, RAPIER_WS_CLOSE_PROTOCOL_ERROR, "continuation frame without a message");
	} else if (op != RAPIER_WS_OP_CONTINUATION && p->in_message) {
		return fail(p, RAPIER_WS_CLOSE_PROTOCOL_ERROR, "new message before the last one ended");
	}
	/* RFC 7692: RSV1 marks a message as compressed on its first frame, and nowhere else. */
	if ((b0 & RAPIER_WS_FRAME_COMPRESSED) && (IS_CONTROL(op) || op == RAPIER_WS_OP_CONTINUATION)) {
		return fail(p, RAPIER_WS_CLOSE_PROTOCOL_ERROR, "compressed bit on a control frame or a continuation");
	}
	p->frame_compressed = (b0 & RAPIER_WS_FRAME_COMPRESSED) != 0;
	p->fin = (b0 & FIN_BIT) != 0;
	p->opcode = op;
	p->header_need = 2 + (len7 == 126 ? 2 : len7 == 127 ? 8 : 0) + 4;
	return RAPIER_WS_NEED_MORE;
}

/*
 * The whole header is in: the length and the mask. A length in more bytes
 * than it needs is accepted (RFC 6455 5.2 asks the minimal encoding of the
 * sender, not that the receiver fail the rest).
 */
/*
 * The most a message may take on the wire. Compressed, it may be larger
 * than max_message: deflate stores what it cannot shrink in blocks with 5
 * bytes of header each, and a sender saving memory makes them small (2 KiB
 * at zlib's memLevel 5: 0.25% more; 4% more at memLevel 1), so an eighth
 * more is allowed. Its inflated size is held to max_message by whoever
 * inflates it.
 */
static uint64_t message_limit(const rapier_ws_parser_t *p, bool compressed)
{
	uint64_t slack = p->max_message / 8 + 64;

	return compressed && p->max_message <= UINT64_MAX - slack ? p->max_message + slack : p->max_message;
}

static rapier_ws_event_t start_payload(rapier_ws_parser_t *p)
{
	const uint8_t *h = p->header + 2;
	uint64_t len = p->header[1] & LEN7_BITS, limit;

	if (len == 126) {
		len = (uint64_t) h[0] << 8 | h[1];
		h += 2;
	} else if (len == 127) {
		len = 0;
		for (int i = 0; i < 8; i++) {
			len = len << 8 | h[i];
		}
		h += 8;
		if (len >> 63) {
			return fail(p, RAPIER_WS_CLOSE_PROTOCOL_ERROR, "64-bit length with its top bit set");
		}
	}
	memcpy(p->mask, h, 4);
	p->header_len = 0;
	p->header_need = 2;
	p->payload_left = len;
	p->payload_pos = 0;
	p->in_payload = true;
	if (IS_CONTROL(p->opcode)) {
		/* Judged on the length itself, not on its first 7 bits: 126 with 16 bits of 5 is 5. */
		if (len > RAPIER_WS_CONTROL_MAX) {
			return fail(p, RAPIER_WS_CLOSE_PROTOCOL_ERROR, "control frame longer than 125 bytes");
		}
		p->control_len = 0;
		return RAPIER_WS_NEED_MORE;
	}
	/* buf_len <= the limit always holds, so the difference cannot wrap. */
	limit = message_limit(p, p->opcode == RAPIER_WS_OP_CONTINUATION ? p->compressed : p->frame_compressed);
	if (len > limit - p->buf_len) {
		return fail(p, RAPIER_WS_CLOSE_TOO_BIG, "message larger than max_message");
	}
	if (p->opcode != RAPIER_WS_OP_CONTINUATION) {
		p->in_message = true;
		p->message_opcode = p->opcode;
		p->compressed = p->frame_compressed;
		p->utf8_state = 0;
	}
	return RAPIER_WS_NEED_MORE;
}

static rapier_ws_event_t read_header(rapier_ws_parser_t *p, const uint8_t *in, size_t len, size_t *pos)
{
	size_t n = p->header_need - p->header_len;

	if (n > len - *pos) {
		n = len - *pos;
	}
	memcpy(p->header + p->header_len, in + *pos, n);
	p->header_len += n;
	*pos += n;
	if (p->header_len < p->header_need) {
		return RAPIER_WS_NEED_MORE;
	}
	/* header_need is 2 only until the first two bytes are judged; a whole header is at least 6. */
	if (p->header_len == 2) {
		return check_start(p);
	}
	return start_payload(p);
}

/*
 * Makes room for need bytes. Doubling keeps a big message to a few
 * reallocs; the limit (the message's end when this frame is its last,
 * else the most the message may take) keeps a small message without slack.
 */
static int grow(rapier_ws_parser_t *p, size_t need)
{
	size_t limit = p->fin ? p->buf_len + (size_t) p->payload_left : (size_t) message_limit(p, p->compressed);
	size_t cap;
	char *buf;

	if (p->buf_cap < MESSAGE_MIN_ALLOC / 2) {
		cap = MESSAGE_MIN_ALLOC;
	} else {
		cap = p->buf_cap > limit / 2 ? limit : p->buf_cap * 2;
	}
	if (cap < need) {
		cap = need;
	}
	if (cap > limit) {
		cap = limit;
	}
	if ((buf = realloc(p->buf, cap)) == NULL) {
		return -1;
	}
	p->buf = buf;
	p->buf_cap = cap;
	return 0;
}

/* n (> 0) payload bytes of a data frame, unmasked into the message and, for text, validated at once. */
static rapier_ws_event_t append(rapier_ws_parser_t *p, const uint8_t *src, size_t n)
{
	uint8_t *dst;

	if (p->buf_cap - p->buf_len < n && grow(p, p->buf_len + n) != 0) {
		return fail(p, RAPIER_WS_CLOSE_INTERNAL_ERROR, "out of memory");
	}
	dst = (uint8_t *) p->buf + p->buf_len;
	unmask(dst, src, n, p->mask, (size_t) (p->payload_pos & 3));
	p->buf_len += n;
	/* Compressed text is checked once inflated, by the caller. */
	if (p->message_opcode == RAPIER_WS_OP_TEXT && !p->compressed) {
		p->utf8_state = rapier_ws_utf8_scan(p->utf8_state, dst, n);
		if (p->utf8_state == RAPIER_WS_UTF8_REJECT) {
			return fail(p, RAPIER_WS_CLOSE_INVALID_DATA, "text message is not valid UTF-8");
		}
	}
	return RAPIER_WS_NEED_MORE;
}

static rapier_ws_event_t end_close(rapier_ws_parser_t *p)
{
	p->close_reason = (const char *) p->control;
	p->close_reason_len = 0;
	if (p->control_len == 0) {
		p->close_code = RAPIER_WS_CLOSE_NO_STATUS;
		p->finished = true;
		return RAPIER_WS_CLOSE;
	}
	if (p->control_len == 1) {
		return fail(p, RAPIER_WS_CLOSE_PROTOCOL_ERROR, "close frame with a 1-byte payload");
	}
	p->close_code = (uint16_t) (p->control[0] << 8 | p->control[1]);
	if (!rapier_ws_close_code_sendable(p->close_code)) {
		return fail(p, RAPIER_WS_CLOSE_PROTOCOL_ERROR, "close code that no endpoint may send");
	}
	p->close_reason += 2;
	p->close_reason_len = p->control_len - 2;
	if (!rapier_ws_utf8_valid(p->close_reason, p->close_reason_len)) {
		return fail(p, RAPIER_WS_CLOSE_INVALID_DATA, "close reason is not valid UTF-8");
	}
	p->finished = true;
	return RAPIER_WS_CLOSE;
}

/* The frame's payload is all in: a control event, a whole message, or on to the next fragment. */
static rapier_ws_event_t end_frame(rapier_ws_parser_t *p)
{
	p->in_payload = false;
	switch (p->opcode) {
		case RAPIER_WS_OP_PING:
			return RAPIER_WS_PING;
		case RAPIER_WS_OP_PONG:
			return RAPIER_WS_PONG;
		case RAPIER_WS_OP_CLOSE:
			return end_close(p);
	}
	if (!p->fin) {
		return RAPIER_WS_NEED_MORE;
	}
	if (p->message_opcode == RAPIER_WS_OP_TEXT && p->utf8_state != 0) {
		return fail(p, RAPIER_WS_CLOSE_INVALID_DATA, "text message ends inside a UTF-8 character");
	}
	p->in_message = false;
	p->message = p->buf;
	p->message_len = p->buf_len;
	p->message_binary = p->message_opcode == RAPIER_WS_OP_BINARY;
	p->message_compressed = p->compressed;
	p->buf = NULL;
	p->buf_len = p->buf_cap = 0;
	return RAPIER_WS_MESSAGE;
}

static rapier_ws_event_t read_payload(rapier_ws_parser_t *p, const uint8_t *in, size_t len, size_t *pos)
{
	size_t n = len - *pos;
	rapier_ws_event_t ev;

	if (n > p->payload_left) {
		n = (size_t) p->payload_left;
	}
	if (IS_CONTROL(p->opcode)) {
		unmask(p->control + p->control_len, in + *pos, n, p->mask, (size_t) (p->payload_pos & 3));
		p->control_len += n;
	} else if ((ev = append(p, in + *pos, n)) != RAPIER_WS_NEED_MORE) {
		*pos += n;
		return ev;
	}
	*pos += n;
	p->payload_pos += n;
	p->payload_left -= n;
	return p->payload_left == 0 ? end_frame(p) : RAPIER_WS_NEED_MORE;
}

rapier_ws_event_t rapier_ws_parser_feed(rapier_ws_parser_t *p, const char *data, size_t len, size_t *used)
{
	const uint8_t *in = (const uint8_t *) data;
	rapier_ws_event_t ev = RAPIER_WS_NEED_MORE;
	size_t pos = 0;

	if (p->finished) {
		/* error is set only on the way to ERROR, and CLOSE is the other way to finish. */
		*used = 0;
		return p->error ? RAPIER_WS_ERROR : RAPIER_WS_CLOSE;
	}
	free(p->message);
	p->message = NULL;
	p->message_len = 0;
	while (ev == RAPIER_WS_NEED_MORE && pos < len) {
		if (!p->in_payload) {
			ev = read_header(p, in, len, &pos);
			/* An empty payload ends its frame with the header. */
			if (ev == RAPIER_WS_NEED_MORE && p->in_payload && p->payload_left == 0) {
				ev = end_frame(p);
			}
		} else {
			ev = read_payload(p, in, len, &pos);
		}
	}
	*used = pos;
	return ev;
}

size_t rapier_ws_frame_header(uint8_t out[RAPIER_WS_FRAME_HEADER_MAX], rapier_ws_opcode_t opcode, uint64_t payload_len)
{
	out[0] = FIN_BIT | (uint8_t) opcode;
	if (payload_len <= 125) {
		out[1] = (uint8_t) payload_len;
		return 2;
	}
	if (payload_len <= UINT16_MAX) {
		out[1] = 126;
		out[2] = (uint8_t) (payload_len >> 8);
		out[3] = (uint8_t) payload_len;
		return 4;
	}
	out[1] = 127;
	for (int i = 0; i < 8; i++) {
		out[2 + i] = (uint8_t) (payload_len >> (56 - 8 * i));
	}
	return 10;
}

size_t rapier_ws_close_payload(uint8_t out[RAPIER_WS_CONTROL_MAX], uint16_t code, const char *reason, size_t reason_len)
{
	out[0] = (uint8_t) (code >> 8);
	out[1] = (uint8_t) code;
	if (reason_len > RAPIER_WS_CLOSE_REASON_MAX) {
		/* Cut before the character that crosses the limit, so that valid UTF-8 stays valid. */
		reason_len = RAPIER_WS_CLOSE_REASON_MAX;
		while (reason_len > 0 && ((uint8_t) reason[reason_len] & 0xC0) == 0x80) {
			reason_len--;
		}
	}
	if (reason_len > 0) {
		memcpy(out + 2, reason, reason_len);
	}
	return 2 + reason_len;
}

/* RFC 6455 7.4: 1004-1006 and 1015 are reserved or only reported; 1016-2999 are the IANA's to assign. */
bool rapier_ws_close_code_sendable(int code)
{
	return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999);
}

static bool is_base64_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
}

int rapier_ws_accept_key(const char *key, size_t key_len, char out[RAPIER_WS_ACCEPT_LEN + 1])
{
	char buf[KEY_LEN + sizeof(ACCEPT_GUID) - 1];
	unsigned char digest[SHA_DIGEST_LENGTH];

	/* 16 bytes are 22 base64 characters and "==" of padding. */
	if (key_len != KEY_LEN || key[KEY_LEN - 2] != '=' || key[KEY_LEN - 1] != '=') {
		return -1;
	}
	for (size_t i = 0; i < KEY_LEN - 2; i++) {
		if (!is_base64_char(key[i])) {
			return -1;
		}
	}
	memcpy(buf, key, KEY_LEN);
	memcpy(buf + KEY_LEN, ACCEPT_GUID, sizeof(ACCEPT_GUID) - 1);
	SHA1((const unsigned char *) buf, sizeof(buf), digest);
	EVP_EncodeBlock((unsigned char *) out, digest, SHA_DIGEST_LENGTH);
	return 0;
}
