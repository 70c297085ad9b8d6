/*
 * Rapier HTTP gzip: whether to compress a response (Accept-Encoding with
 * q-values, content type, size, status), and zlib deflate with the gzip
 * wrapper over whole bodies or streamed chunks, with compressors reused from
 * a per-worker pool.
 *
 * Engine code: no PHP headers. Functions return 0 or a negative code.
 */
#ifndef RAPIER_HTTP_GZIP_H
#define RAPIER_HTTP_GZIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

#include "http_response.h"

/*
 * Level 1, as nginx's gzip_comp_level default: on text and JSON it costs a
 * third to a quarter of level 6's CPU for output only 5-15% larger, and this
 * server is measured in CPU per request. Sites that serve the same large
 * files many times should precompress them instead of raising the level.
 */
#define RAPIER_GZIP_DEFAULT_LEVEL 1
/* Below about 1 KiB the gzip header and trailer (18 bytes) and the CPU outweigh the bytes saved. */
#define RAPIER_GZIP_DEFAULT_MIN_LENGTH 1024
/*
 * Each idle compressor holds about 270 KiB (deflate window and hash tables);
 * four cover the usual number of concurrently streamed responses per worker
 * without keeping megabytes after a burst.
 */
#define RAPIER_GZIP_POOL_DEFAULT_MAX_IDLE 4

#define RAPIER_GZIP_HEADERS "Content-Encoding: gzip\r\nVary: Accept-Encoding\r\n"
#define RAPIER_GZIP_VARY_HEADER "Vary: Accept-Encoding\r\n"

typedef struct rapier_gzip_config_s {
	int level;            /* 1..9 */
	size_t min_length;    /* bodies shorter than this are sent as they are */
} rapier_gzip_config_t;

void rapier_gzip_config_init(rapier_gzip_config_t *cfg);

typedef enum {
	RAPIER_GZIP_NO = 0,   /* send as is; the response does not vary on Accept-Encoding */
	RAPIER_GZIP_VARY,     /* send as is, but add RAPIER_GZIP_VARY_HEADER: another client would get gzip */
	RAPIER_GZIP_YES,      /* compress and add RAPIER_GZIP_HEADERS */
} rapier_gzip_decision_t;

/* What the decision looks at; a NULL string means the header is absent. */
typedef struct rapier_gzip_input_s {
	int status;
	const char *accept_encoding;
	size_t accept_encoding_len;
	const char *content_type;
	size_t content_type_len;
	uint64_t body_len;           /* RAPIER_HTTP_LENGTH_UNKNOWN for a streamed body */
	bool has_content_encoding;   /* the application already encoded the body */
} rapier_gzip_input_t;

/*
 * The method does not enter the decision. For HEAD, apply the same headers
 * and finish with RAPIER_HTTP_LENGTH_UNKNOWN (no Content-Length) rather than
 * compressing a body that is never sent.
 */
rapier_gzip_decision_t rapier_gzip_decide(const rapier_gzip_config_t *cfg, const rapier_gzip_input_t *in);

/*
 * true if the Accept-Encoding value allows gzip: "gzip" or "x-gzip" with a
 * non-zero q, or, when neither is listed, "*" with a non-zero q. An absent
 * (NULL) or empty header allows nothing.
 */
bool rapier_gzip_accepted(const char *value, size_t len);

/* Any text type (except text/event-stream), JSON, JavaScript, XML, SVG, WebAssembly, uncompressed fonts and icons. */
bool rapier_gzip_compressible_type(const char *content_type, size_t len);

/* A deflate stream with the gzip wrapper, reset (not re-initialised) between bodies. */
typedef struct rapier_gzip_s {
	z_stream zs;
	int level;
	bool in_stream;                /* a streamed body is under way */
	struct rapier_gzip_s *next;    /* pool free list */
} rapier_gzip_t;

/* Returns 0, -ENOMEM, or -EINVAL for a level outside 1..9. */
int rapier_gzip_init(rapier_gzip_t *gz, int level);
void rapier_gzip_destroy(rapier_gzip_t *gz);

/* Compresses a whole body into one gzip member appended to out. Returns 0, -ENOMEM, RAPIER_HTTP_ETOOLARGE or -EIO. */
int rapier_gzip_compress(rapier_gzip_t *gz, const void *in, size_t len, rapier_http_buf_t *out);

/*
 * Streaming: each write appends what the client can decode so far (a sync
 * flush, so a streamed page or event reaches the browser now, not when a
 * 32 KiB block fills); finish appends the rest and the trailer. The first
 * write starts a new member. abort drops a half-written stream (client gone).
 */
int rapier_gzip_stream_write(rapier_gzip_t *gz, const void *in, size_t len, rapier_http_buf_t *out);
int rapier_gzip_stream_finish(rapier_gzip_t *gz, rapier_http_buf_t *out);
void rapier_gzip_stream_abort(rapier_gzip_t *gz);

/*
 * Per-worker pool. A whole-body compression borrows one for the duration of
 * a call; a streamed response owns one until it finishes, since several
 * responses can stream concurrently from one worker's coroutines.
 */
typedef struct rapier_gzip_pool_s {
	rapier_gzip_t *free;
	size_t idle;
	size_t max_idle;
	int level;
} rapier_gzip_pool_t;

void rapier_gzip_pool_init(rapier_gzip_pool_t *pool, int level, size_t max_idle);
void rapier_gzip_pool_free(rapier_gzip_pool_t *pool);
/* NULL when out of memory. */
rapier_gzip_t *rapier_gzip_pool_get(rapier_gzip_pool_t *pool);
void rapier_gzip_pool_put(rapier_gzip_pool_t *pool, rapier_gzip_t *gz);

#endif
