/*
 * Rapier HTTP compression.
 *
 * Accept-Encoding is parsed as a list of codings with q-values in thousandths
 * (integers, no floating point): "gzip;q=0" refuses gzip even when "*" is
 * accepted, "*" stands only for the codings not named, and a malformed
 * q-value counts as 0 because compressing for a client that did not clearly
 * ask for it risks an unreadable response, while not compressing is always
 * correct. Among the acceptable codings the client's q decides, then the
 * server's order: browsers list gzip, deflate, br and zstd all at q=1, and
 * the server knows which of them costs it least.
 *
 * The decision has a Vary flag apart from the coding because Vary matters to
 * caches: a body we would have compressed for another client must say
 * "Vary: Accept-Encoding" even when this client gets it plain.
 */
#include "http_compress.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define H(coding) "Content-Encoding: " coding "\r\n" RAPIER_COMPRESS_VARY_HEADER

static const struct {
	const char *name;
	const char *suffix;
	const char *headers;
	size_t headers_len;
} codings[RAPIER_CODING_COUNT + 1] = {
	[RAPIER_CODING_IDENTITY] = { "identity", "", "", 0 },
	[RAPIER_CODING_GZIP] = { "gzip", ".gz", H("gzip"), sizeof(H("gzip")) - 1 },
	[RAPIER_CODING_BR] = { "br", ".br", H("br"), sizeof(H("br")) - 1 },
	[RAPIER_CODING_ZSTD] = { "zstd", ".zst", H("zstd"), sizeof(H("zstd")) - 1 },
};

void rapier_compress_config_init(rapier_compress_config_t *cfg)
{
	/* zstd and br cost less CPU than gzip for smaller output; gzip is for every other client. */
	cfg->codings[0] = RAPIER_CODING_ZSTD;
	cfg->codings[1] = RAPIER_CODING_BR;
	cfg->codings[2] = RAPIER_CODING_GZIP;
	cfg->coding_count = 3;
	cfg->gzip_level = RAPIER_GZIP_DEFAULT_LEVEL;
	cfg->brotli_level = RAPIER_BROTLI_DEFAULT_LEVEL;
	cfg->zstd_level = RAPIER_ZSTD_DEFAULT_LEVEL;
	cfg->min_length = RAPIER_COMPRESS_DEFAULT_MIN_LENGTH;
}

const char *rapier_coding_name(rapier_coding_t coding)
{
	return codings[coding].name;
}

rapier_coding_t rapier_coding_from_name(const char *name, size_t len)
{
	for (int c = RAPIER_CODING_GZIP; c <= RAPIER_CODING_COUNT; c++) {
		if (strlen(codings[c].name) == len && strncasecmp(name, codings[c].name, len) == 0) {
			return (rapier_coding_t) c;
		}
	}
	/* RFC 9110 18.6: x-gzip is an alias of gzip. */
	return len == 6 && strncasecmp(name, "x-gzip", 6) == 0 ? RAPIER_CODING_GZIP : RAPIER_CODING_IDENTITY;
}

const char *rapier_coding_suffix(rapier_coding_t coding)
{
	return codings[coding].suffix;
}

const char *rapier_compress_headers(rapier_coding_t coding, size_t *len)
{
	*len = codings[coding].headers_len;
	return codings[coding].headers;
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
	rapier_http_trim_ows(coding, coding_len);
	*q = 1000;
	while (semi) {
		const char *param = semi + 1;
		size_t rest = len - (size_t) (param - s);
		semi = memchr(param, ';', rest);
		size_t plen = semi ? (size_t) (semi - param) : rest;
		rapier_http_trim_ows(&param, &plen);
		if (plen >= 2 && (param[0] == 'q' || param[0] == 'Q') && param[1] == '=') {
			int v = parse_q(param + 2, plen - 2);
			*q = v < 0 ? 0 : v;
		}
	}
}

/* Each coding's q in an Accept-Encoding value (0 when refused or not accepted), "*" applied. */
static void accepted_q(const char *value, size_t len, int q[RAPIER_CODING_COUNT + 1])
{
	int star_q = -1;
	size_t i = 0;

	for (int c = 0; c <= RAPIER_CODING_COUNT; c++) {
		q[c] = -1;   /* not named */
	}
	while (value && i < len) {
		const char *comma = memchr(value + i, ',', len - i);
		size_t end = comma ? (size_t) (comma - value) : len;
		const char *name;
		size_t name_len;
		int element_q;

		parse_element(value + i, end - i, &name, &name_len, &element_q);
		if (name_len == 1 && name[0] == '*') {
			star_q = element_q > star_q ? element_q : star_q;
		} else {
			rapier_coding_t c = rapier_coding_from_name(name, name_len);
			if (c != RAPIER_CODING_IDENTITY) {
				q[c] = element_q > q[c] ? element_q : q[c];
			}
		}
		i = end + 1;
	}
	for (int c = 0; c <= RAPIER_CODING_COUNT; c++) {
		if (q[c] < 0) {
			q[c] = star_q < 0 ? 0 : star_q;
		}
	}
}

size_t rapier_compress_rank(const rapier_compress_config_t *cfg, const char *value, size_t len,
	rapier_coding_t out[RAPIER_CODING_COUNT])
{
	int q[RAPIER_CODING_COUNT + 1];
	bool taken[RAPIER_CODING_COUNT] = { false };
	size_t n = 0;

	accepted_q(value, len, q);
	/* A selection sort of at most three: the first of the highest q, in the server's order, each round. */
	for (;;) {
		size_t best = cfg->coding_count;
		for (size_t k = 0; k < cfg->coding_count; k++) {
			if (!taken[k] && q[cfg->codings[k]] > 0 && (best == cfg->coding_count
					|| q[cfg->codings[k]] > q[cfg->codings[best]])) {
				best = k;
			}
		}
		if (best == cfg->coding_count) {
			return n;
		}
		taken[best] = true;
		out[n++] = cfg->codings[best];
	}
}

rapier_coding_t rapier_compress_negotiate(const rapier_compress_config_t *cfg, const char *value, size_t len)
{
	rapier_coding_t ranked[RAPIER_CODING_COUNT];

	return rapier_compress_rank(cfg, value, len, ranked) > 0 ? ranked[0] : RAPIER_CODING_IDENTITY;
}

static bool has_suffix(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len >= n && strncasecmp(s + len - n, suffix, n) == 0;
}

bool rapier_compress_type(const char *content_type, size_t len)
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
	rapier_http_trim_ows(&content_type, &len);
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

rapier_compress_decision_t rapier_compress_decide(const rapier_compress_config_t *cfg,
	const rapier_compress_input_t *in)
{
	rapier_compress_decision_t no = { RAPIER_CODING_IDENTITY, false };

	/* No body (1xx, 204, 304), or a byte range of the identity body (206): never encode. */
	if (cfg->coding_count == 0 || in->has_content_encoding || in->status < 200 || in->status == 204
			|| in->status == 206 || in->status == 304) {
		return no;
	}
	if (!rapier_compress_type(in->content_type, in->content_type_len)) {
		return no;
	}
	if (in->body_len != RAPIER_HTTP_LENGTH_UNKNOWN && in->body_len < cfg->min_length) {
		return no;
	}
	return (rapier_compress_decision_t) {
		rapier_compress_negotiate(cfg, in->accept_encoding, in->accept_encoding_len), true
	};
}

int rapier_encoder_compress(rapier_encoder_t *enc, const void *in, size_t len, rapier_http_buf_t *out)
{
	switch (enc->coding) {
		case RAPIER_CODING_GZIP: return rapier_gzip_compress(&enc->u.gzip, in, len, out);
		case RAPIER_CODING_BR: return rapier_brotli_compress(&enc->u.brotli, in, len, out);
		case RAPIER_CODING_ZSTD: return rapier_zstd_compress(&enc->u.zstd, in, len, out);
		default: return -EINVAL;
	}
}

int rapier_encoder_stream_write(rapier_encoder_t *enc, const void *in, size_t len, rapier_http_buf_t *out)
{
	switch (enc->coding) {
		case RAPIER_CODING_GZIP: return rapier_gzip_stream_write(&enc->u.gzip, in, len, out);
		case RAPIER_CODING_BR: return rapier_brotli_stream_write(&enc->u.brotli, in, len, out);
		case RAPIER_CODING_ZSTD: return rapier_zstd_stream_write(&enc->u.zstd, in, len, out);
		default: return -EINVAL;
	}
}

int rapier_encoder_stream_finish(rapier_encoder_t *enc, rapier_http_buf_t *out)
{
	switch (enc->coding) {
		case RAPIER_CODING_GZIP: return rapier_gzip_stream_finish(&enc->u.gzip, out);
		case RAPIER_CODING_BR: return rapier_brotli_stream_finish(&enc->u.brotli, out);
		case RAPIER_CODING_ZSTD: return rapier_zstd_stream_finish(&enc->u.zstd, out);
		default: return -EINVAL;
	}
}

void rapier_encoder_stream_abort(rapier_encoder_t *enc)
{
	switch (enc->coding) {
		case RAPIER_CODING_GZIP: rapier_gzip_stream_abort(&enc->u.gzip); break;
		case RAPIER_CODING_BR: rapier_brotli_stream_abort(&enc->u.brotli); break;
		case RAPIER_CODING_ZSTD: rapier_zstd_stream_abort(&enc->u.zstd); break;
		default: break;
	}
}

static int encoder_init(rapier_encoder_t *enc, rapier_coding_t coding, int level)
{
	enc->coding = coding;
	enc->next = NULL;
	switch (coding) {
		case RAPIER_CODING_GZIP: return rapier_gzip_init(&enc->u.gzip, level);
		case RAPIER_CODING_BR: return rapier_brotli_init(&enc->u.brotli, level);
		case RAPIER_CODING_ZSTD: return rapier_zstd_init(&enc->u.zstd, level);
		default: return -EINVAL;
	}
}

static void encoder_free(rapier_encoder_t *enc)
{
	switch (enc->coding) {
		case RAPIER_CODING_GZIP: rapier_gzip_destroy(&enc->u.gzip); break;
		case RAPIER_CODING_BR: rapier_brotli_destroy(&enc->u.brotli); break;
		case RAPIER_CODING_ZSTD: rapier_zstd_destroy(&enc->u.zstd); break;
		default: break;
	}
	free(enc);
}

void rapier_encoder_pool_init(rapier_encoder_pool_t *pool, const rapier_compress_config_t *cfg, size_t max_idle)
{
	memset(pool, 0, sizeof(*pool));
	pool->level[RAPIER_CODING_GZIP] = cfg->gzip_level;
	pool->level[RAPIER_CODING_BR] = cfg->brotli_level;
	pool->level[RAPIER_CODING_ZSTD] = cfg->zstd_level;
	pool->max_idle = max_idle;
}

void rapier_encoder_pool_free(rapier_encoder_pool_t *pool)
{
	for (int c = 0; c <= RAPIER_CODING_COUNT; c++) {
		while (pool->free[c]) {
			rapier_encoder_t *enc = pool->free[c];
			pool->free[c] = enc->next;
			encoder_free(enc);
		}
		pool->idle[c] = 0;
	}
}

rapier_encoder_t *rapier_encoder_pool_get(rapier_encoder_pool_t *pool, rapier_coding_t coding)
{
	rapier_encoder_t *enc;

	if (coding == RAPIER_CODING_IDENTITY) {
		return NULL;
	}
	if ((enc = pool->free[coding]) != NULL) {
		pool->free[coding] = enc->next;
		pool->idle[coding]--;
		return enc;
	}
	if ((enc = malloc(sizeof(*enc))) == NULL) {
		return NULL;
	}
	if (encoder_init(enc, coding, pool->level[coding]) != 0) {
		free(enc);
		return NULL;
	}
	return enc;
}

void rapier_encoder_pool_put(rapier_encoder_pool_t *pool, rapier_encoder_t *enc)
{
	rapier_coding_t coding = enc->coding;

	if (pool->idle[coding] >= pool->max_idle) {
		encoder_free(enc);
		return;
	}
	rapier_encoder_stream_abort(enc);
	enc->next = pool->free[coding];
	pool->free[coding] = enc;
	pool->idle[coding]++;
}
