/*
 * permessage-deflate (RFC 7692) for the server's WebSocket connections:
 * the Sec-WebSocket-Extensions negotiation, and whole messages deflated
 * and inflated.
 *
 * Always without context takeover, both ways: each message is compressed
 * and inflated on its own, so one deflate and one inflate stream serve
 * every connection of the worker (reset after each message) where context
 * takeover would keep some 300 KiB of zlib state per connection: ten
 * thousand WebSockets cost what one does. The price is a dictionary that
 * starts empty for every message, which small messages feel most.
 *
 * Engine code: no PHP headers, malloc for memory, one thread.
 */
#ifndef RAPIER_WEBSOCKET_DEFLATE_H
#define RAPIER_WEBSOCKET_DEFLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=15" */
#define RAPIER_WS_DEFLATE_RESPONSE_MAX 128

/*
 * Reads one Sec-WebSocket-Extensions value (a comma-separated list of
 * offers) and accepts the first permessage-deflate offer whose parameters
 * are all known, well-formed and given once. Returns true with *window_bits
 * (the most our compressor may use: the client's server_max_window_bits,
 * else 15) and the answer for the 101 in response. An offer that limits
 * our window to 8 bits is declined: zlib's raw deflate cannot keep to it.
 */
bool rapier_ws_deflate_negotiate(const char *value, size_t len, int *window_bits,
	char response[RAPIER_WS_DEFLATE_RESPONSE_MAX]);

/*
 * Compresses a whole message as RFC 7692 sends it: raw deflate with a
 * window of window_bits, flushed, without the final 00 00 FF FF. 0 with
 * *out malloc'ed (the caller frees it), or -ENOMEM.
 */
int rapier_ws_deflate_message(const char *in, size_t len, int window_bits, int level, char **out, size_t *out_len);

/*
 * Inflates a whole compressed message (the 00 00 FF FF put back). 0 with
 * *out malloc'ed (NULL when empty); -E2BIG when it inflates to more than
 * max bytes (found as it grows, so a small bomb never takes more); -EINVAL
 * when it is not deflate data; -ENOMEM.
 */
int rapier_ws_inflate_message(const char *in, size_t len, uint64_t max, char **out, size_t *out_len);

/* Frees the shared zlib streams (they come back on the next use). */
void rapier_ws_deflate_release(void);

#endif
