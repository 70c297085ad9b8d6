/*
 * Rapier HTTP brotli: the br content coding (RFC 7932) over whole bodies or
 * streamed chunks.
 *
 * Engine code: no PHP headers. Functions return 0 or a negative code.
 */
#ifndef RAPIER_HTTP_BROTLI_H
#define RAPIER_HTTP_BROTLI_H

#include <stdbool.h>
#include <stddef.h>
#include <brotli/encode.h>

#include "http_response.h"

/*
 * Quality 1: on text and JSON it costs about three quarters of gzip level
 * 1's CPU for output 3-4% smaller. Each step up to 4 roughly doubles the CPU
 * for a few percent; 11, brotli's default, is for precompressing files.
 */
#define RAPIER_BROTLI_DEFAULT_LEVEL 1
#define RAPIER_BROTLI_MAX_LEVEL 11

typedef struct rapier_brotli_s {
	BrotliEncoderState *stream;   /* the encoder of a streamed body under way, or NULL */
	int level;
} rapier_brotli_t;

/* Returns 0, or -EINVAL for a level outside 0..RAPIER_BROTLI_MAX_LEVEL. */
int rapier_brotli_init(rapier_brotli_t *b, int level);
void rapier_brotli_destroy(rapier_brotli_t *b);

/* Compresses a whole body appended to out. Returns 0, -ENOMEM, RAPIER_HTTP_ETOOLARGE or -EIO. */
int rapier_brotli_compress(rapier_brotli_t *b, const void *in, size_t len, rapier_http_buf_t *out);

/* Streaming, as rapier_gzip_stream_*(): each write flushed, finish ends the stream, abort drops it. */
int rapier_brotli_stream_write(rapier_brotli_t *b, const void *in, size_t len, rapier_http_buf_t *out);
int rapier_brotli_stream_finish(rapier_brotli_t *b, rapier_http_buf_t *out);
void rapier_brotli_stream_abort(rapier_brotli_t *b);

#endif
