/*
 * Rapier HTTP gzip.
 *
 * deflateInit2() allocates about 270 KiB and costs far more than compressing
 * a small page, so compressors live in a per-worker pool and are recycled with
 * deflateReset(), which only clears the state. Output goes straight into the
 * response's growable buffer: the whole-body path reserves deflateBound() and
 * usually finishes in one deflate() call.
 *
 * Accept-Encoding is parsed as a list of codings with q-values in thousandths
 * (integers, no floating point): "gzip;q=0" refuses gzip even when "*" is
 * accepted, "*" stands for gzip only when gzip is not named, and a malformed
 * q-value counts as 0 because compressing for a client that did not clearly
 * ask for it risks an unreadable response, while not compressing is always
 * correct.
 *
 * The decision has three outcomes because Vary matters to caches: a body we
 * would have compressed for another client must say "Vary: Accept-Encoding"
 * even when this client gets it plain.
 */
#include "http_gzip.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* zlib counts in 32-bit uInt: feed huge bodies in slices well below that. */
#define SLICE_MAX ((size_t) 1 << 30)
/* Output room requested per deflate() call when the bound is unknown (streaming). */
#define OUT_STEP 4096

void rapier_gzip_config_init(rapier_gzip_config_t *cfg)
{
	cfg->level = RAPIER_GZIP_DEFAULT_LEVEL;
	cfg->min_length = RAPIER_GZIP_DEFAULT_MIN_LENGTH;
}

static bool ows_byte(char c)
{
	return c == ' ' || c == '\t';
}

static void trim_ows(const char **s, size_t *len)
{
	while (*len && ows_byte(**s)) {
		(*s)++;
		(*len)--;
	}
	while (*len && ows_byte((*s)[*len - 1])) {
		(*len)--;
	}
}

/* qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ), in thousandths; -1 if malformed. */
static int parse_q(const char *s, size_t len)
{
	if (len == 0 || (s[0] != '0' && s[0] != '1') || (len > 1 && s[1] != '.') || len > 5) {
		return -1;
	}
	int q = (s[0] - '0') * 1000;
	int scale = 100;
	for (size_t i = 2; i < len; i++, scale /= 10) {
		if (s[i] < '0' || s[i] > '9') {
			return -1;
		}
		q += (s[i] - '0') * scale;
	}
	return q > 1000 ? -1 : q;
}

/* One list element "coding *( OWS ; OWS param )": sets the coding and its q (1000 when absent). */
static void parse_element(const char *s, size_t len, const char **coding, size_t *coding_len, int *q)
{
	const char *semi = memchr(s, ';', len);
	size_t clen = semi ? (size_t) (semi - s) : len;

	*coding = s;
	*coding_len = clen;
	trim_ows(coding, coding_len);
	*q = 1000;
	while (semi) {
		const char *param = semi + 1;
		size_t rest = len - (size_t) (param - s);
		semi = memchr(param, ';', rest);
		size_t plen = semi ? (size_t) (semi - param) : rest;
		trim_ows(&param, &plen);
		if (plen >= 2 && (param[0] == 'q' || param[0] == 'Q') && param[1] == '=') {
			int v = parse_q(param + 2, plen - 2);
			*q = v < 0 ? 0 : v;
		}
	}
}

bool rapier_gzip_accepted(const char *value, size_t len)
{
	int gzip_q = -1, star_q = -1;
	size_t i = 0;

	if (!value) {
		return false;
	}
	while (i < len) {
		const char *comma = memchr(value + i, ',', len - i);
		size_t end = comma ? (size_t) (comma - value) : len;
		const char *coding;
		size_t coding_len;
		int q;

		parse_element(value + i, end - i, &coding, &coding_len, &q);
		if ((coding_len == 4 && strncasecmp(coding, "gzip", 4) == 0)
			|| (coding_len == 6 && strncasecmp(coding, "x-gzip", 6) == 0)) {
			gzip_q = q > gzip_q ? q : gzip_q;
		} else if (coding_len == 1 && coding[0] == '*') {
			star_q = q > star_q ? q : star_q;
		}
		i = end + 1;
	}
	return gzip_q >= 0 ? gzip_q > 0 : star_q > 0;
}

static bool has_suffix(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len >= n && strncasecmp(s + len - n, suffix, n) == 0;
}

bool rapier_gzip_compressible_type(const char *content_type, size_t len)
{
	static const char *const exact[] = {
		"application/json", "application/javascript", "application/x-javascript", "application/ecmascript",
		"application/xml", "application/wasm", "application/vnd.ms-fontobject", "image/x-icon",
		"image/vnd.microsoft.icon", "image/bmp", "font/ttf", "font/otf",
	};
	const char *semi;

	if (!content_type) {
		return false;
	}
	if ((semi = memchr(content_type, ';', len)) != NULL) {
		len = (size_t) (semi - content_type);
	}
	trim_ows(&content_type, &len);
	if (len > 5 && strncasecmp(content_type, "text/", 5) == 0) {
		/* Server-sent events are read as they arrive; a proxy may buffer a compressed stream. */
		return !(len == 17 && strncasecmp(content_type, "text/event-stream", 17) == 0);
	}
	/* Structured syntax suffixes: image/svg+xml, application/ld+json, application/atom+xml... */
	if (has_suffix(content_type, len, "+json") || has_suffix(content_type, len, "+xml")) {
		return true;
	}
	for (size_t i = 0; i < sizeof(exact) / sizeof(exact[0]); i++) {
		if (strlen(exact[i]) == len && strncasecmp(content_type, exact[i], len) == 0) {
			return true;
		}
	}
	return false;
}

rapier_gzip_decision_t rapier_gzip_decide(const rapier_gzip_config_t *cfg, const rapier_gzip_input_t *in)
{
	/* No body (1xx, 204, 304), or a byte range of the identity body (206): never encode. */
	if (in->has_content_encoding || in->status < 200 || in->status == 204 || in->status == 206
		|| in->status == 304) {
		return RAPIER_GZIP_NO;
	}
	if (!rapier_gzip_compressible_type(in->content_type, in->content_type_len)) {
		return RAPIER_GZIP_NO;
	}
	if (in->body_len != RAPIER_HTTP_LENGTH_UNKNOWN && in->body_len < cfg->min_length) {
		return RAPIER_GZIP_NO;
	}
	return rapier_gzip_accepted(in->accept_encoding, in->accept_encoding_len) ? RAPIER_GZIP_YES : RAPIER_GZIP_VARY;
}

int rapier_gzip_init(rapier_gzip_t *gz, int level)
{
	if (level < 1 || level > 9) {
		return -EINVAL;
	}
	memset(gz, 0, sizeof(*gz));
	gz->level = level;
	/* windowBits 15 + 16 selects the gzip wrapper; memLevel 8 is zlib's default speed/memory balance. */
	int rc = deflateInit2(&gz->zs, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
	return rc == Z_OK ? 0 : (rc == Z_MEM_ERROR ? -ENOMEM : -EINVAL);
}

void rapier_gzip_destroy(rapier_gzip_t *gz)
{
	deflateEnd(&gz->zs);
}

/* Runs deflate over in with the given flush until all input is taken and, for Z_FINISH, the stream ends. */
static int run(rapier_gzip_t *gz, const unsigned char *in, size_t len, int flush, size_t hint, rapier_http_buf_t *out)
{
	z_stream *zs = &gz->zs;
	int rc;

	do {
		size_t slice = len > SLICE_MAX ? SLICE_MAX : len;
		int f = slice == len ? flush : Z_NO_FLUSH;
		zs->next_in = (unsigned char *) in;
		zs->avail_in = (uInt) slice;
		/* Z_FINISH loops until Z_STREAM_END; other flushes until all input is taken and output had room left. */
		do {
			/* Ask for the hint (or a step), but never past the buffer's max: the output may still fit. */
			size_t room = hint > OUT_STEP ? hint : OUT_STEP;
			if (room > out->max - out->len) {
				room = out->max - out->len;
			}
			if (room == 0) {
				return RAPIER_HTTP_ETOOLARGE;
			}
			if ((rc = rapier_http_buf_reserve(out, room)) != 0) {
				return rc;
			}
			room = out->cap - out->len > SLICE_MAX ? SLICE_MAX : out->cap - out->len;
			zs->next_out = (unsigned char *) out->data + out->len;
			zs->avail_out = (uInt) room;
			int zrc = deflate(zs, f);
			out->len += room - zs->avail_out;
			if (zrc == Z_STREAM_END) {
				break;
			}
			if (zrc != Z_OK && zrc != Z_BUF_ERROR) {
				return -EIO;
			}
			hint = 0;
		} while (f == Z_FINISH || zs->avail_in > 0 || zs->avail_out == 0);
		in += slice;
		len -= slice;
	} while (len > 0);
	return 0;
}

int rapier_gzip_compress(rapier_gzip_t *gz, const void *in, size_t len, rapier_http_buf_t *out)
{
	deflateReset(&gz->zs);
	gz->in_stream = false;
	int rc = run(gz, in, len, Z_FINISH, deflateBound(&gz->zs, (uLong) len), out);
	deflateReset(&gz->zs);
	return rc;
}

int rapier_gzip_stream_write(rapier_gzip_t *gz, const void *in, size_t len, rapier_http_buf_t *out)
{
	if (len == 0) {
		/* Nothing to flush: an empty sync block would only cost bytes. */
		return 0;
	}
	if (!gz->in_stream) {
		deflateReset(&gz->zs);
		gz->in_stream = true;
	}
	return run(gz, in, len, Z_SYNC_FLUSH, len + len / 8 + 64, out);
}

int rapier_gzip_stream_finish(rapier_gzip_t *gz, rapier_http_buf_t *out)
{
	if (!gz->in_stream) {
		deflateReset(&gz->zs);
	}
	int rc = run(gz, NULL, 0, Z_FINISH, 64, out);
	rapier_gzip_stream_abort(gz);
	return rc;
}

void rapier_gzip_stream_abort(rapier_gzip_t *gz)
{
	deflateReset(&gz->zs);
	gz->in_stream = false;
}

void rapier_gzip_pool_init(rapier_gzip_pool_t *pool, int level, size_t max_idle)
{
	pool->free = NULL;
	pool->idle = 0;
	pool->max_idle = max_idle;
	pool->level = level;
}

void rapier_gzip_pool_free(rapier_gzip_pool_t *pool)
{
	while (pool->free) {
		rapier_gzip_t *gz = pool->free;
		pool->free = gz->next;
		rapier_gzip_destroy(gz);
		free(gz);
	}
	pool->idle = 0;
}

rapier_gzip_t *rapier_gzip_pool_get(rapier_gzip_pool_t *pool)
{
	rapier_gzip_t *gz = pool->free;

	if (gz) {
		pool->free = gz->next;
		pool->idle--;
		return gz;
	}
	if ((gz = malloc(sizeof(*gz))) == NULL) {
		return NULL;
	}
	if (rapier_gzip_init(gz, pool->level) != 0) {
		free(gz);
		return NULL;
	}
	return gz;
}

void rapier_gzip_pool_put(rapier_gzip_pool_t *pool, rapier_gzip_t *gz)
{
	if (pool->idle >= pool->max_idle) {
		rapier_gzip_destroy(gz);
		free(gz);
		return;
	}
	rapier_gzip_stream_abort(gz);
	gz->next = pool->free;
	pool->free = gz;
	pool->idle++;
}
