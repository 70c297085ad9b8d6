/*
 * Rapier HTTP zstd: Zstandard content coding (RFC 8878) over whole bodies or
 * streamed chunks, with libzstd's compression context reused between
 * bodies.
 *
 * Engine code: no PHP headers. Functions return 0 or a negative code.
 */
#ifndef RAPIER_HTTP_ZSTD_H
#define RAPIER_HTTP_ZSTD_H

#include <stdbool.h>
#include <stddef.h>
#include <zstd.h>

#include "http_response.h"

/*
 * Level 3, zstd's own default and Caddy's: on text and JSON it costs about
 * half of gzip level 1's CPU (a reused deflate stream) for output 8-12%
 * smaller.
 */
#define RAPIER_ZSTD_DEFAULT_LEVEL 3
/* Levels above 19 need windows browsers refuse (RFC 9659: at most 8 MiB). */
#define RAPIER_ZSTD_MAX_LEVEL 19

typedef struct rapier_zstd_s {
	ZSTD_CCtx *cctx;
	int level;
	bool in_stream;    /* a streamed body is under way */
} rapier_zstd_t;

/* Returns 0, -ENOMEM, or -EINVAL for a level outside 1..RAPIER_ZSTD_MAX_LEVEL. */
int rapier_zstd_init(rapier_zstd_t *z, int level);
void rapier_zstd_destroy(rapier_zstd_t *z);

/* Compresses a whole body into one frame appended to out. Returns 0, -ENOMEM, RAPIER_HTTP_ETOOLARGE or -EIO. */
int rapier_zstd_compress(rapier_zstd_t *z, const void *in, size_t len, rapier_http_buf_t *out);

/*
 * Streaming, as rapier_gzip_stream_*(): each write appends what the client
 * can decode so far (a flushed block), finish ends the frame, abort drops a
 * half-written one.
 */
int rapier_zstd_stream_write(rapier_zstd_t *z, const void *in, size_t len, rapier_http_buf_t *out);
int rapier_zstd_stream_finish(rapier_zstd_t *z, rapier_http_buf_t *out);
void rapier_zstd_stream_abort(rapier_zstd_t *z);

#endif
