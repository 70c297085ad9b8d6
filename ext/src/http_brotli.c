/*
 * Rapier HTTP brotli.
 *
 * libbrotlienc has no way to reset an encoder, so nothing is kept between
 * bodies: a whole body goes through BrotliEncoderCompress(), whose
 * one-shot path at low qualities sizes its tables to the input, and a
 * streamed body gets an encoder of its own for its lifetime, with the window
 * capped so that a long stream holds at most 256 KiB of it.
 */
#include "http_brotli.h"

#include <errno.h>
#include <string.h>

/* Output room requested per call when no better bound is known. */
#define OUT_STEP 4096
#define STREAM_WINDOW_BITS 18

int rapier_brotli_init(rapier_brotli_t *b, int level)
{
	if (level < 0 || level > RAPIER_BROTLI_MAX_LEVEL) {
		return -EINVAL;
	}
	b->stream = NULL;
	b->level = level;
	return 0;
}

void rapier_brotli_destroy(rapier_brotli_t *b)
{
	rapier_brotli_stream_abort(b);
}

/* Feeds in with op (flush or finish) until all of it is taken and written out, appending to out. */
static int brotli_run(BrotliEncoderState *s, const void *in, size_t len, BrotliEncoderOperation op, size_t hint,
	rapier_http_buf_t *out)
{
	const uint8_t *next_in = in;
	size_t avail_in = len;
	int rc;

	for (;;) {
		if ((rc = rapier_http_buf_reserve_output(out, hint > OUT_STEP ? hint : OUT_STEP)) != 0) {
			return rc;
		}
		uint8_t *next_out = (uint8_t *) out->data + out->len;
		size_t avail_out = out->cap - out->len;
		if (!BrotliEncoderCompressStream(s, op, &avail_in, &next_in, &avail_out, &next_out, NULL)) {
			return -EIO;
		}
		out->len = (size_t) ((char *) next_out - out->data);
		bool done = op == BROTLI_OPERATION_FINISH ? BrotliEncoderIsFinished(s)
			: avail_in == 0 && !BrotliEncoderHasMoreOutput(s);
		if (done) {
			return 0;
		}
		hint = 0;
	}
}

int rapier_brotli_compress(rapier_brotli_t *b, const void *in, size_t len, rapier_http_buf_t *out)
{
	size_t bound = BrotliEncoderMaxCompressedSize(len);
	int rc;

	/* The one-shot call needs room for the bound; an output that may only just fit takes the stream's way. */
	if (bound != 0 && bound <= out->max - out->len) {
		if ((rc = rapier_http_buf_reserve(out, bound)) != 0) {
			return rc;
		}
		size_t n = out->cap - out->len;
		if (!BrotliEncoderCompress(b->level, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, len, in, &n,
				(uint8_t *) out->data + out->len)) {
			return -EIO;
		}
		out->len += n;
		return 0;
	}
	BrotliEncoderState *s = BrotliEncoderCreateInstance(NULL, NULL, NULL);
	if (s == NULL) {
		return -ENOMEM;
	}
	BrotliEncoderSetParameter(s, BROTLI_PARAM_QUALITY, (uint32_t) b->level);
	BrotliEncoderSetParameter(s, BROTLI_PARAM_SIZE_HINT, len > UINT32_MAX ? UINT32_MAX : (uint32_t) len);
	rc = brotli_run(s, in, len, BROTLI_OPERATION_FINISH, 0, out);
	BrotliEncoderDestroyInstance(s);
	return rc;
}

/* The encoder of a new stream. */
static int stream_begin(rapier_brotli_t *b)
{
	if ((b->stream = BrotliEncoderCreateInstance(NULL, NULL, NULL)) == NULL) {
		return -ENOMEM;
	}
	BrotliEncoderSetParameter(b->stream, BROTLI_PARAM_QUALITY, (uint32_t) b->level);
	BrotliEncoderSetParameter(b->stream, BROTLI_PARAM_LGWIN, STREAM_WINDOW_BITS);
	return 0;
}

int rapier_brotli_stream_write(rapier_brotli_t *b, const void *in, size_t len, rapier_http_buf_t *out)
{
	int rc;

	if (len == 0) {
		/* Nothing to flush: an empty metablock would only cost bytes. */
		return 0;
	}
	if (b->stream == NULL && (rc = stream_begin(b)) != 0) {
		return rc;
	}
	return brotli_run(b->stream, in, len, BROTLI_OPERATION_FLUSH, len + len / 8 + 64, out);
}

int rapier_brotli_stream_finish(rapier_brotli_t *b, rapier_http_buf_t *out)
{
	int rc = 0;

	/* No data: still a stream, an empty one, so the body decodes. */
	if (b->stream == NULL) {
		rc = stream_begin(b);
	}
	if (rc == 0) {
		rc = brotli_run(b->stream, NULL, 0, BROTLI_OPERATION_FINISH, 64, out);
	}
	rapier_brotli_stream_abort(b);
	return rc;
}

void rapier_brotli_stream_abort(rapier_brotli_t *b)
{
	if (b->stream) {
		BrotliEncoderDestroyInstance(b->stream);
		b->stream = NULL;
	}
}
