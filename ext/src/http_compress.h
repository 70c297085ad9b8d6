/*
 * Rapier HTTP compression: which content coding a response gets (the
 * request's Accept-Encoding with q-values against the server's codings in
 * its order of preference, the content type, size and status), and the
 * encoders of those codings (zstd, br, gzip) behind one interface, reused
 * from a per-worker pool.
 *
 * Engine code: no PHP headers. Functions return 0 or a negative code.
 */
#ifndef RAPIER_HTTP_COMPRESS_H
#define RAPIER_HTTP_COMPRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "http_brotli.h"
#include "http_gzip.h"
#include "http_response.h"
#include "http_zstd.h"

typedef enum {
	RAPIER_CODING_IDENTITY = 0,   /* sent as it is */
	RAPIER_CODING_GZIP,
	RAPIER_CODING_BR,
	RAPIER_CODING_ZSTD,
} rapier_coding_t;

/* How many codings there are besides identity. */
#define RAPIER_CODING_COUNT 3

/* Below about 1 KiB the codings' framing and the CPU outweigh the bytes saved. */
#define RAPIER_COMPRESS_DEFAULT_MIN_LENGTH 1024
/*
 * An idle gzip or zstd encoder holds 270-300 KiB (1.4 MiB for zstd after a
 * streamed body); four of each cover the usual number of concurrently
 * streamed responses per worker without keeping megabytes after a burst.
 */
#define RAPIER_COMPRESS_POOL_DEFAULT_MAX_IDLE 4

#define RAPIER_COMPRESS_VARY_HEADER "Vary: Accept-Encoding\r\n"

typedef struct rapier_compress_config_s {
	rapier_coding_t codings[RAPIER_CODING_COUNT];   /* the server's, most preferred first */
	size_t coding_count;                            /* 0: never compress */
	int gzip_level;                                 /* 1..9 */
	int brotli_level;                               /* 0..11 */
	int zstd_level;                                 /* 1..19 */
	size_t min_length;                              /* bodies shorter than this are sent as they are */
} rapier_compress_config_t;

/* zstd, br, gzip, at their default levels. */
void rapier_compress_config_init(rapier_compress_config_t *cfg);

/* "gzip", "br", "zstd" ("identity" for RAPIER_CODING_IDENTITY). */
const char *rapier_coding_name(rapier_coding_t coding);
/* The coding of that name (case-insensitive), or RAPIER_CODING_IDENTITY for any other. */
rapier_coding_t rapier_coding_from_name(const char *name, size_t len);

/*
 * The coding this Accept-Encoding value asks for, of the configured ones:
 * the acceptable one (q > 0; "*" stands for the codings not named) with the
 * highest q, the server's order breaking ties. RAPIER_CODING_IDENTITY when
 * none is acceptable, or the header is absent (NULL) or empty.
 */
rapier_coding_t rapier_compress_negotiate(const rapier_compress_config_t *cfg, const char *value, size_t len);

/*
 * All the configured codings the value accepts, best first (by q, then the
 * server's order), into out; returns how many. For serving the best of the
 * precompressed files that exist.
 */
size_t rapier_compress_rank(const rapier_compress_config_t *cfg, const char *value, size_t len,
	rapier_coding_t out[RAPIER_CODING_COUNT]);

/* ".gz", ".br", ".zst": the file name suffix of a file precompressed with the coding. */
const char *rapier_coding_suffix(rapier_coding_t coding);

/* Any text type (except text/event-stream), JSON, JavaScript, XML, SVG, WebAssembly, uncompressed fonts and icons. */
bool rapier_compress_type(const char *content_type, size_t len);

/* What the decision looks at; a NULL string means the header is absent. */
typedef struct rapier_compress_input_s {
	int status;
	const char *accept_encoding;
	size_t accept_encoding_len;
	const char *content_type;
	size_t content_type_len;
	uint64_t body_len;           /* RAPIER_HTTP_LENGTH_UNKNOWN for a streamed body */
	bool has_content_encoding;   /* the application already encoded the body */
} rapier_compress_input_t;

/*
 * The decision. vary: the response must carry RAPIER_COMPRESS_VARY_HEADER,
 * since another client would get it in another coding (a cache must not
 * hand one client's coding to another), even when coding is identity.
 */
typedef struct rapier_compress_decision_s {
	rapier_coding_t coding;
	bool vary;
} rapier_compress_decision_t;

/*
 * The method does not enter the decision. For HEAD, apply the same headers
 * and finish with RAPIER_HTTP_LENGTH_UNKNOWN (no Content-Length) rather than
 * compressing a body that is never sent.
 */
rapier_compress_decision_t rapier_compress_decide(const rapier_compress_config_t *cfg,
	const rapier_compress_input_t *in);

/* "Content-Encoding: <coding>\r\nVary: Accept-Encoding\r\n", for a coding other than identity. */
const char *rapier_compress_headers(rapier_coding_t coding, size_t *len);

/* An encoder of one coding; whole bodies and streams as rapier_gzip_*(). */
typedef struct rapier_encoder_s {
	rapier_coding_t coding;
	union {
		rapier_gzip_t gzip;
		rapier_brotli_t brotli;
		rapier_zstd_t zstd;
	} u;
	struct rapier_encoder_s *next;   /* pool free list */
} rapier_encoder_t;

int rapier_encoder_compress(rapier_encoder_t *enc, const void *in, size_t len, rapier_http_buf_t *out);
int rapier_encoder_stream_write(rapier_encoder_t *enc, const void *in, size_t len, rapier_http_buf_t *out);
int rapier_encoder_stream_finish(rapier_encoder_t *enc, rapier_http_buf_t *out);
void rapier_encoder_stream_abort(rapier_encoder_t *enc);

/*
 * Per-worker pool, a free list per coding. A whole-body compression
 * borrows an encoder for the duration of a call; a streamed response owns
 * one until it finishes, since several responses can stream concurrently
 * from one worker's coroutines.
 */
typedef struct rapier_encoder_pool_s {
	rapier_encoder_t *free[RAPIER_CODING_COUNT + 1];
	size_t idle[RAPIER_CODING_COUNT + 1];
	int level[RAPIER_CODING_COUNT + 1];
	size_t max_idle;
} rapier_encoder_pool_t;

/* The levels come from cfg. */
void rapier_encoder_pool_init(rapier_encoder_pool_t *pool, const rapier_compress_config_t *cfg, size_t max_idle);
void rapier_encoder_pool_free(rapier_encoder_pool_t *pool);
/* NULL when out of memory (or for identity). */
rapier_encoder_t *rapier_encoder_pool_get(rapier_encoder_pool_t *pool, rapier_coding_t coding);
/* Drops a stream under way, then keeps or frees the encoder. */
void rapier_encoder_pool_put(rapier_encoder_pool_t *pool, rapier_encoder_t *enc);

#endif
