/*
 * Rapier HTTP gzip.
 *
 * deflateInit2() allocates about 270 KiB and costs far more than compressing
 * a small page, so compressors live in a per-worker pool (http_compress.c)
 * and are recycled with deflateReset(), which only clears the state. Output
 * goes straight into the response's growable buffer: the whole-body path
 * reserves deflateBound() and usually finishes in one deflate() call.
 */
#include "http_gzip.h"

#include <errno.h>
#include <string.h>

/* zlib counts in 32-bit uInt: feed huge bodies in slices well below that. */
#define SLICE_MAX ((size_t) 1 << 30)
/* Output room requested per deflate() call when the bound is unknown (streaming). */
#define OUT_STEP 4096

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
static int gzip_run(rapier_gzip_t *gz, const unsigned char *in, size_t len, int flush, size_t hint, rapier_http_buf_t *out)
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
			if ((rc = rapier_http_buf_reserve_output(out, hint > OUT_STEP ? hint : OUT_STEP)) != 0) {
				return rc;
			}
			size_t room = out->cap - out->len > SLICE_MAX ? SLICE_MAX : out->cap - out->len;
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
	int rc = gzip_run(gz, in, len, Z_FINISH, deflateBound(&gz->zs, (uLong) len), out);
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
	return gzip_run(gz, in, len, Z_SYNC_FLUSH, len + len / 8 + 64, out);
}

int rapier_gzip_stream_finish(rapier_gzip_t *gz, rapier_http_buf_t *out)
{
	if (!gz->in_stream) {
		deflateReset(&gz->zs);
	}
	int rc = gzip_run(gz, NULL, 0, Z_FINISH, 64, out);
	rapier_gzip_stream_abort(gz);
	return rc;
}

void rapier_gzip_stream_abort(rapier_gzip_t *gz)
{
	deflateReset(&gz->zs);
	gz->in_stream = false;
}
