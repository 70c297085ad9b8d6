/*
 * permessage-deflate (websocket_deflate.h).
 */
#include "websocket_deflate.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

/* What a flushed deflate block ends with; RFC 7692 leaves it off the wire. */
static const unsigned char flush_tail[4] = { 0x00, 0x00, 0xFF, 0xFF };

/* The worker's shared streams: a compressor per window size asked for (9..15), one decompressor. */
static z_stream deflaters[16];
static bool deflater_ready[16];
static int deflater_level[16];
static z_stream inflater;
static bool inflater_ready;

/* Output grows in steps of at least this many bytes. */
#define OUT_STEP 4096

/* Negotiation */

static const char *skip_space(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t')) {
		s++;
	}
	return s;
}

static bool is_token_char(char c)
{
	/* strchr() finds the terminating NUL too: it is no token character. */
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
		|| (c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

/* A token from s; *len its length (0: none). */
static const char *token(const char *s, const char *end, size_t *len)
{
	const char *t = s;

	while (t < end && is_token_char(*t)) {
		t++;
	}
	*len = (size_t) (t - s);
	return t;
}

/* A window size: 8..15 without leading zeros, bare or quoted (RFC 7692 7.1.2.1); -1 if not. */
static int window_value(const char *v, size_t len)
{
	if (len >= 2 && v[0] == '"' && v[len - 1] == '"') {
		v++;
		len -= 2;
	}
	if (len == 1 && v[0] >= '8' && v[0] <= '9') {
		return v[0] - '0';
	}
	if (len == 2 && v[0] == '1' && v[1] >= '0' && v[1] <= '5') {
		return 10 + v[1] - '0';
	}
	return -1;
}

/* A parameter's value after "=": a token or a quoted string (escapes not needed for numbers). */
static const char *param_value(const char *s, const char *end, const char **value, size_t *len)
{
	const char *start = s;

	if (s < end && *s == '"') {
		for (s++; s < end && *s != '"'; s++) {
		}
		if (s == end) {
			*len = 0;
			return end;
		}
		s++;
	} else {
		s = token(s, end, len);
	}
	*value = start;
	*len = (size_t) (s - start);
	return s;
}

enum { P_SERVER_NO_TAKEOVER = 1, P_CLIENT_NO_TAKEOVER = 2, P_SERVER_BITS = 4, P_CLIENT_BITS = 8 };

/*
 * One offer's parameters, from just after its name to its end (a comma or
 * the end of the value). *next is where the following offer starts.
 */
static bool accept_params(const char *s, const char *end, int *server_bits, const char **next)
{
	unsigned seen = 0;

	*server_bits = 0;
	for (;;) {
		const char *name, *value = NULL;
		size_t name_len, value_len = 0;
		unsigned flag;

		s = skip_space(s, end);
		if (s == end || *s == ',') {
			*next = s < end ? s + 1 : end;
			return true;
		}
		if (*s != ';') {
			break;
		}
		s = skip_space(s + 1, end);
		name = s;
		s = skip_space(token(s, end, &name_len), end);
		if (s < end && *s == '=') {
			s = param_value(skip_space(s + 1, end), end, &value, &value_len);
			if (value_len == 0) {
				break;
			}
		}
#define IS(lit) (name_len == sizeof(lit) - 1 && strncasecmp(name, lit, name_len) == 0)
		if (IS("server_no_context_takeover") && value == NULL) {
			flag = P_SERVER_NO_TAKEOVER;
		} else if (IS("client_no_context_takeover") && value == NULL) {
			flag = P_CLIENT_NO_TAKEOVER;
		} else if (IS("server_max_window_bits") && value != NULL && (*server_bits = window_value(value, value_len)) > 0) {
			flag = P_SERVER_BITS;
		} else if (IS("client_max_window_bits") && (value == NULL || window_value(value, value_len) > 0)) {
			flag = P_CLIENT_BITS;
		} else {
			break;
		}
#undef IS
		if (seen & flag) {
			break;
		}
		seen |= flag;
	}
	/* Declined: skip to the next offer. */
	*next = memchr(s, ',', (size_t) (end - s));
	*next = *next ? *next + 1 : end;
	return false;
}

bool rapier_ws_deflate_negotiate(const char *value, size_t len, int *window_bits,
	char response[RAPIER_WS_DEFLATE_RESPONSE_MAX])
{
	const char *s = value, *end = value + len;

	while (s < end) {
		const char *name, *next;
		size_t name_len;
		int server_bits;

		s = skip_space(s, end);
		name = s;
		s = token(s, end, &name_len);
		if (name_len == sizeof("permessage-deflate") - 1 && strncasecmp(name, "permessage-deflate", name_len) == 0) {
			if (accept_params(s, end, &server_bits, &next) && server_bits != 8) {
				*window_bits = server_bits ? server_bits : 15;
				if (server_bits) {
					snprintf(response, RAPIER_WS_DEFLATE_RESPONSE_MAX,
						"permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=%d",
						server_bits);
				} else {
					snprintf(response, RAPIER_WS_DEFLATE_RESPONSE_MAX,
						"permessage-deflate; server_no_context_takeover; client_no_context_takeover");
				}
				return true;
			}
			s = next;
			continue;
		}
		/* Another extension: skip it whole. */
		next = memchr(s, ',', (size_t) (end - s));
		s = next ? next + 1 : end;
	}
	return false;
}

/* Messages */

/* Makes room for more output: doubling, at least OUT_STEP more, at most limit in all (but one byte more). */
static int grow_output(char **buf, size_t *cap, size_t used, uint64_t limit)
{
	size_t want = *cap * 2 > used + OUT_STEP ? *cap * 2 : used + OUT_STEP;
	char *bigger;

	if (want > limit && limit >= used) {
		want = (size_t) limit + 1;
	}
	if ((bigger = realloc(*buf, want)) == NULL) {
		return -ENOMEM;
	}
	*buf = bigger;
	*cap = want;
	return 0;
}

/* zlib counts in 32 bits: the next at most 4 GiB of the len bytes left go in. */
static void give_input(z_stream *z, size_t *len)
{
	size_t slice = *len > UINT32_MAX ? UINT32_MAX : *len;

	z->avail_in = (uInt) slice;
	*len -= slice;
}

/* The room left in buf is where zlib writes next. */
static void give_output(z_stream *z, char *buf, size_t cap, size_t used)
{
	z->next_out = (Bytef *) buf + used;
	z->avail_out = (uInt) (cap - used > UINT32_MAX ? UINT32_MAX : cap - used);
}

static z_stream *deflater(int window_bits, int level)
{
	z_stream *z = &deflaters[window_bits];

	if (!deflater_ready[window_bits]) {
		memset(z, 0, sizeof(*z));
		if (deflateInit2(z, level, Z_DEFLATED, -window_bits, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
			return NULL;
		}
		deflater_ready[window_bits] = true;
		deflater_level[window_bits] = level;
	} else if (deflater_level[window_bits] != level && deflateParams(z, level, Z_DEFAULT_STRATEGY) == Z_OK) {
		deflater_level[window_bits] = level;
	}
	return z;
}

int rapier_ws_deflate_message(const char *in, size_t len, int window_bits, int level, char **out, size_t *out_len)
{
	z_stream *z = deflater(window_bits < 9 ? 9 : window_bits > 15 ? 15 : window_bits, level);
	size_t cap = 0, used = 0;
	char *buf = NULL;
	int rc = 0;

	if (z == NULL) {
		return -ENOMEM;
	}
	z->next_in = (Bytef *) in;
	do {
		give_input(z, &len);
		do {
			if (cap - used < 64 && (rc = grow_output(&buf, &cap, used, SIZE_MAX)) < 0) {
				break;
			}
			give_output(z, buf, cap, used);
			deflate(z, len > 0 ? Z_NO_FLUSH : Z_SYNC_FLUSH);
			used = (size_t) ((char *) z->next_out - buf);
		} while (z->avail_in > 0 || z->avail_out == 0);
	} while (rc == 0 && len > 0);
	deflateReset(z);
	if (rc < 0) {
		free(buf);
		return rc;
	}
	if (used >= 4 && memcmp(buf + used - 4, flush_tail, 4) == 0) {
		used -= 4;
	}
	*out = buf;
	*out_len = used;
	return 0;
}

/*
 * Feeds in to the inflater, appending to buf: 0 when it took all of it and
 * wants more, 1 when the deflate stream ended (the client set BFINAL) with
 * the last of it, or -errno.
 */
static int inflate_some(const char *in, size_t len, uint64_t max, char **buf, size_t *cap, size_t *used)
{
	z_stream *z = &inflater;

	z->next_in = (Bytef *) in;
	do {
		give_input(z, &len);
		do {
			int zrc;

			if (*cap == *used && grow_output(buf, cap, *used, max) < 0) {
				return -ENOMEM;
			}
			give_output(z, *buf, *cap, *used);
			zrc = inflate(z, Z_SYNC_FLUSH);
			*used = (size_t) ((char *) z->next_out - *buf);
			if (*used > max) {
				return -E2BIG;
			}
			if (zrc == Z_STREAM_END) {
				/* Bytes after the end of the stream are no part of this message's deflate data. */
				return z->avail_in > 0 || len > 0 ? -EINVAL : 1;
			}
			if (zrc == Z_BUF_ERROR && z->avail_in == 0) {
				break;             /* all taken, nothing more to give out */
			}
			/* No progress with input and room left cannot happen with sound data: never spin on it. */
			if (zrc != Z_OK && !(zrc == Z_BUF_ERROR && z->avail_out == 0)) {
				return -EINVAL;
			}
		} while (z->avail_in > 0 || z->avail_out == 0);
	} while (len > 0);
	return 0;
}

int rapier_ws_inflate_message(const char *in, size_t len, uint64_t max, char **out, size_t *out_len)
{
	size_t cap = 0, used = 0;
	char *buf = NULL;
	int rc;

	if (!inflater_ready) {
		memset(&inflater, 0, sizeof(inflater));
		if (inflateInit2(&inflater, -15) != Z_OK) {
			return -ENOMEM;
		}
		inflater_ready = true;
	}
	rc = inflate_some(in, len, max, &buf, &cap, &used);
	if (rc == 0) {
		/* Still inside the stream: the tail the sender left off ends its flushed block. */
		rc = inflate_some((const char *) flush_tail, sizeof(flush_tail), max, &buf, &cap, &used);
	}
	inflateReset(&inflater);
	if (rc < 0) {
		free(buf);
		return rc;
	}
	if (used == 0) {
		free(buf);
		buf = NULL;
	}
	*out = buf;
	*out_len = used;
	return 0;
}

void rapier_ws_deflate_release(void)
{
	for (int i = 0; i < 16; i++) {
		if (deflater_ready[i]) {
			deflateEnd(&deflaters[i]);
			deflater_ready[i] = false;
		}
	}
	if (inflater_ready) {
		inflateEnd(&inflater);
		inflater_ready = false;
	}
}
