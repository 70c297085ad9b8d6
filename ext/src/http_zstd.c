/*
 * Rapier HTTP zstd.
 *
 * A whole body is compressed with its size pledged, so the frame header
 * carries it and libzstd sizes its tables to the body: a 10 KiB page needs
 * about 290 KiB of context, as deflate does. A streamed body has no size;
 * left to the level's defaults its context would take 3.6 MiB, so its window
 * and tables are capped (1.4 MiB), which costs a streamed page nothing
 * measurable in size.
 */
#include "http_zstd.h"

#include <errno.h>
#include <string.h>
#include <zstd_errors.h>

/* Output room requested per call when no better bound is known. */
#define OUT_STEP 4096
/* A streamed body's window (128 KiB) and hash and chain tables (64 Ki entries each). */
#define STREAM_WINDOW_LOG 17
#define STREAM_TABLE_LOG 16

int rapier_zstd_init(rapier_zstd_t *z, int level)
{
	if (level < 1 || level > RAPIER_ZSTD_MAX_LEVEL) {
		return -EINVAL;
	}
	memset(z, 0, sizeof(*z));
	z->level = level;
	return (z->cctx = ZSTD_createCCtx()) != NULL ? 0 : -ENOMEM;
}

void rapier_zstd_destroy(rapier_zstd_t *z)
{
	ZSTD_freeCCtx(z->cctx);
	z->cctx = NULL;
}

static int zstd_error(size_t rc)
{
	return ZSTD_getErrorCode(rc) == ZSTD_error_memory_allocation ? -ENOMEM : -EIO;
}

/* Starts a frame: a clean session at the configured level, and the stream's caps or the body's size. */
static int begin(rapier_zstd_t *z, bool stream, size_t len)
{
	ZSTD_CCtx *c = z->cctx;
	size_t rc = ZSTD_CCtx_reset(c, ZSTD_reset_session_and_parameters);

	if (!ZSTD_isError(rc)) {
		rc = ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, z->level);
	}
	if (!ZSTD_isError(rc) && stream) {
		if (!ZSTD_isError(rc = ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, STREAM_WINDOW_LOG))
				&& !ZSTD_isError(rc = ZSTD_CCtx_setParameter(c, ZSTD_c_hashLog, STREAM_TABLE_LOG))) {
			rc = ZSTD_CCtx_setParameter(c, ZSTD_c_chainLog, STREAM_TABLE_LOG);
		}
	} else if (!ZSTD_isError(rc)) {
		rc = ZSTD_CCtx_setPledgedSrcSize(c, len);
	}
	return ZSTD_isError(rc) ? zstd_error(rc) : 0;
}

/* Feeds in with op (flush or end) until all of it is taken and flushed, appending to out. */
static int zstd_run(rapier_zstd_t *z, const void *in, size_t len, ZSTD_EndDirective op, size_t hint, rapier_http_buf_t *out)
{
	ZSTD_inBuffer ib = { in, len, 0 };
	size_t left;
	int rc;

	do {
		if ((rc = rapier_http_buf_reserve_output(out, hint > OUT_STEP ? hint : OUT_STEP)) != 0) {
			return rc;
		}
		ZSTD_outBuffer ob = { out->data + out->len, out->cap - out->len, 0 };
		left = ZSTD_compressStream2(z->cctx, &ob, &ib, op);
		out->len += ob.pos;
		if (ZSTD_isError(left)) {
			return zstd_error(left);
		}
		/* What is left to flush is a better guess for the next room than the input's bound. */
		hint = left;
	} while (left != 0 || ib.pos < ib.size);
	return 0;
}

int rapier_zstd_compress(rapier_zstd_t *z, const void *in, size_t len, rapier_http_buf_t *out)
{
	int rc = begin(z, false, len);

	z->in_stream = false;
	if (rc == 0) {
		/* With room for the bound, libzstd compresses in one pass straight into out. */
		rc = zstd_run(z, in, len, ZSTD_e_end, ZSTD_compressBound(len), out);
	}
	ZSTD_CCtx_reset(z->cctx, ZSTD_reset_session_only);
	return rc;
}

int rapier_zstd_stream_write(rapier_zstd_t *z, const void *in, size_t len, rapier_http_buf_t *out)
{
	int rc;

	if (len == 0) {
		/* Nothing to flush: an empty block would only cost bytes. */
		return 0;
	}
	if (!z->in_stream) {
		if ((rc = begin(z, true, 0)) != 0) {
			return rc;
		}
		z->in_stream = true;
	}
	return zstd_run(z, in, len, ZSTD_e_flush, len + len / 8 + 64, out);
}

int rapier_zstd_stream_finish(rapier_zstd_t *z, rapier_http_buf_t *out)
{
	int rc = 0;

	if (!z->in_stream) {
		/* No data: still a frame, an empty one, so the body decodes. */
		rc = begin(z, true, 0);
	}
	if (rc == 0) {
		rc = zstd_run(z, NULL, 0, ZSTD_e_end, 64, out);
	}
	rapier_zstd_stream_abort(z);
	return rc;
}

void rapier_zstd_stream_abort(rapier_zstd_t *z)
{
	ZSTD_CCtx_reset(z->cctx, ZSTD_reset_session_only);
	z->in_stream = false;
}
