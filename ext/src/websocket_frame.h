/*
 * RFC 6455 framing, the server's side: parsing the frames a client sends
 * (masked, no extensions) into whole messages and control frames, encoding
 * the frames a server sends (unmasked), close codes, UTF-8 validation of
 * text, and the handshake's Sec-WebSocket-Accept.
 *
 * Engine code: no PHP headers, malloc for memory. The parser is
 * incremental: it takes bytes as they arrive, split anywhere, and stops at
 * each event so that the caller can answer a ping or a close before it
 * reads on.
 */
#ifndef RAPIER_WEBSOCKET_FRAME_H
#define RAPIER_WEBSOCKET_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
	RAPIER_WS_OP_CONTINUATION = 0x0,
	RAPIER_WS_OP_TEXT = 0x1,
	RAPIER_WS_OP_BINARY = 0x2,
	RAPIER_WS_OP_CLOSE = 0x8,
	RAPIER_WS_OP_PING = 0x9,
	RAPIER_WS_OP_PONG = 0xA,
} rapier_ws_opcode_t;

/* Close codes (RFC 6455 7.4.1) the server uses or reports. */
#define RAPIER_WS_CLOSE_NORMAL          1000
#define RAPIER_WS_CLOSE_GOING_AWAY      1001
#define RAPIER_WS_CLOSE_PROTOCOL_ERROR  1002
#define RAPIER_WS_CLOSE_NO_STATUS       1005  /* reported, never sent: a close frame without a code */
#define RAPIER_WS_CLOSE_ABNORMAL        1006  /* reported, never sent: the connection ended without a close frame */
#define RAPIER_WS_CLOSE_INVALID_DATA    1007  /* text that is not UTF-8 */
#define RAPIER_WS_CLOSE_TOO_BIG         1009
#define RAPIER_WS_CLOSE_INTERNAL_ERROR  1011

/* A control frame's payload: at most 125 bytes; a close reason, 123 after its code. */
#define RAPIER_WS_CONTROL_MAX 125
#define RAPIER_WS_CLOSE_REASON_MAX 123
/* A server frame's header: 2 bytes, plus 2 or 8 of extended length (no mask). */
#define RAPIER_WS_FRAME_HEADER_MAX 10
/* RSV1 in a frame's first byte: the message is compressed (permessage-deflate, RFC 7692). */
#define RAPIER_WS_FRAME_COMPRESSED 0x40

/* base64 of a SHA-1: 28 characters. */
#define RAPIER_WS_ACCEPT_LEN 28

typedef enum {
	RAPIER_WS_NEED_MORE,  /* every byte given was consumed and no event completed: feed more */
	RAPIER_WS_MESSAGE,    /* a whole text or binary message: message, message_len, message_binary */
	RAPIER_WS_PING,       /* control, control_len: answer with a pong carrying the same bytes */
	RAPIER_WS_PONG,       /* control, control_len */
	RAPIER_WS_CLOSE,      /* close_code (RAPIER_WS_CLOSE_NO_STATUS when the frame had none), close_reason */
	RAPIER_WS_ERROR,      /* error_code: the close code to answer with; error: why, static text */
} rapier_ws_event_t;

typedef struct {
	/* Results: each valid until the next rapier_ws_parser_feed(). */
	char *message;               /* malloc'ed; NULL for an empty message; see rapier_ws_parser_take_message() */
	size_t message_len;
	bool message_binary;
	bool message_compressed;     /* the message came with RSV1 set: message holds its deflated bytes, unchecked */
	uint8_t control[RAPIER_WS_CONTROL_MAX];
	size_t control_len;
	uint16_t close_code;
	const char *close_reason;    /* points into control; valid UTF-8, not NUL-terminated */
	size_t close_reason_len;
	uint16_t error_code;
	const char *error;

	/* Private from here on. */
	uint64_t max_message;
	bool allow_compressed;       /* permessage-deflate was agreed: RSV1 may mark a message (rapier_ws_parser_allow_compressed) */
	bool finished;               /* after CLOSE or ERROR nothing more is parsed */
	uint8_t header[14];          /* the current frame's header as it arrives */
	uint8_t header_len;
	uint8_t header_need;         /* bytes the header needs in all, known after its first two */
	bool in_payload;
	bool fin;
	uint8_t opcode;
	uint8_t mask[4];
	uint64_t payload_left;
	uint64_t payload_pos;        /* bytes of this frame's payload unmasked so far (the mask's phase) */
	bool in_message;             /* a text or binary message is open: from its first frame's header to its last frame's end */
	bool frame_compressed;       /* the current frame has RSV1 */
	bool compressed;             /* the open message is compressed */
	uint8_t message_opcode;
	char *buf;                   /* the open message's bytes so far (message gets it at its end) */
	size_t buf_len;
	size_t buf_cap;
	uint32_t utf8_state;         /* rapier_ws_utf8_scan()'s state over the open text message */
} rapier_ws_parser_t;

/* max_message: the largest message (all its fragments together) accepted; larger ones are an ERROR 1009. */
void rapier_ws_parser_init(rapier_ws_parser_t *p, uint64_t max_message);
void rapier_ws_parser_free(rapier_ws_parser_t *p);

/*
 * Parses from data until an event completes or the bytes run out, and sets
 * *used to the bytes consumed (all of them with NEED_MORE; with another
 * event, the rest belongs to what follows it and must be fed again).
 * Checks what RFC 6455 makes a client's fault, each an ERROR with code
 * 1002 (protocol error) unless said: an unmasked frame, RSV bits set (RSV1
 * only is allowed, and only as rapier_ws_parser_allow_compressed() says), a reserved opcode, a control frame that
 * is fragmented or longer than 125 bytes, a continuation with no message
 * open or a new message while one is, a 64-bit length with its top bit
 * set, a close payload of 1 byte or with a code no endpoint may send, a
 * close reason or a text message that is not UTF-8 (1007, found as soon as
 * the bytes arrive, not at the message's end), a message over max_message
 * (1009, as soon as a frame's length announces it). Control frames may
 * come between the fragments of a message. After CLOSE or ERROR the
 * parser is finished and returns the same event again, consuming nothing.
 */
rapier_ws_event_t rapier_ws_parser_feed(rapier_ws_parser_t *p, const char *data, size_t len, size_t *used);

/*
 * permessage-deflate (RFC 7692) was agreed: from now on a message whose
 * first frame has RSV1 set is compressed. Its MESSAGE event then carries
 * the deflated bytes (message_compressed), at most max_message plus an
 * eighth and 64 bytes (what deflate adds to bytes it cannot shrink);
 * the caller inflates them and checks text for UTF-8 itself. RSV1 on a
 * control frame or a continuation stays an error (1002).
 */
void rapier_ws_parser_allow_compressed(rapier_ws_parser_t *p);

/*
 * Fails the connection as the parser does for its own findings: from now
 * on it returns ERROR with code and why (static text). For what is found
 * about a message after MESSAGE, such as its inflated contents.
 */
void rapier_ws_parser_fail(rapier_ws_parser_t *p, uint16_t code, const char *why);

/* After MESSAGE: hands the message's buffer to the caller (who free()s it), so the parser does not copy or free it. */
char *rapier_ws_parser_take_message(rapier_ws_parser_t *p, size_t *len);

/* The header of one final (FIN) unmasked frame with payload_len bytes: writes it to out, returns its length. */
size_t rapier_ws_frame_header(uint8_t out[RAPIER_WS_FRAME_HEADER_MAX], rapier_ws_opcode_t opcode, uint64_t payload_len);

/* A close frame's payload: the code (big-endian) and up to 123 bytes of reason. Returns its length. */
size_t rapier_ws_close_payload(uint8_t out[RAPIER_WS_CONTROL_MAX], uint16_t code, const char *reason, size_t reason_len);

/* Whether an endpoint may send code in a close frame: 1000-1003, 1007-1014, 3000-4999. */
bool rapier_ws_close_code_sendable(int code);

/*
 * UTF-8 validation that can stop anywhere: pass 0 first, then the value it
 * returned with the next bytes. RAPIER_WS_UTF8_REJECT means invalid (stays
 * so); 0 means the bytes so far end on a character boundary. Overlong
 * forms, surrogates (U+D800..U+DFFF) and code points above U+10FFFF are
 * invalid.
 */
#define RAPIER_WS_UTF8_REJECT UINT32_MAX
uint32_t rapier_ws_utf8_scan(uint32_t state, const uint8_t *s, size_t len);
bool rapier_ws_utf8_valid(const char *s, size_t len);

/*
 * Sec-WebSocket-Accept for the client's Sec-WebSocket-Key (RFC 6455 4.2.2):
 * base64(SHA-1(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11")) into out,
 * NUL-terminated. Returns 0, or -1 when key is not the base64 of 16 bytes
 * (24 characters ending in "==").
 */
int rapier_ws_accept_key(const char *key, size_t key_len, char out[RAPIER_WS_ACCEPT_LEN + 1]);

#endif
