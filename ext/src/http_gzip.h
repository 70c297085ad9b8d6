/*
 * Rapier HTTP gzip: zlib deflate with the gzip wrapper over whole bodies or
 * streamed chunks, reset (not re-initialised) between bodies. Which coding a
 * response gets is http_compress.c's to decide.
 *
 * Engine code: no PHP headers. Functions return 0 or a negative code.
 */
#ifndef RAPIER_HTTP_GZIP_H
#define RAPIER_HTTP_GZIP_H

#include <stdbool.h>
#include <stddef.h>
#include <zlib.h>

#include "http_response.h"

/*
 * Level 1, as nginx's gzip_comp_level default: on text and JSON it costs a
 * third to a quarter of level 6's CPU for output only 5-15% larger, and this
 * server is measured in CPU per request. Sites that serve the same large
 * files many times should precompress them instead of raising the level.
 */
#define RAPIER_GZIP_DEFAULT_LEVEL 1

/* A deflate stream with the gzip wrapper, reset (not re-initialised) between bodies. */
typedef struct rapier_gzip_s {
	z_stream zs;
	int level;
	bool in_stream;                /* a streamed body is under way */
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

#endif
