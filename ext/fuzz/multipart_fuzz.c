/*
 * libFuzzer driver for multipart/form-data (src/multipart.c): the boundary
 * parameter of the Content-Type, then the body streamed through the part
 * callbacks exactly as the binding uses them.
 *
 * Input: byte 0 picks the limits (bits 0-1: defaults, small, tiny, medium)
 * and bit 2 makes the second part's begin callback stop the parser (as a
 * full disk would); byte 1 seeds the read sizes (fuzz.h); then the
 * Content-Type value up to the first LF, then the body.
 *
 * Checked beyond "no crash": callbacks come in begin/data/end order, a part
 * always has a name, never more parts than the limit, the basename of a
 * filename has no separator and is never "." or "..", and the body cut in
 * any pieces gives the same parts, bytes and error as the whole body.
 */
#include <string.h>

#include "fuzz.h"
#include "multipart.c"

#define ABORT_CODE 7

static const rapier_multipart_limits_t profiles[4] = {
	{ RAPIER_MULTIPART_DEFAULT_MAX_PARTS, RAPIER_MULTIPART_DEFAULT_MAX_PART_HEADER_SIZE },
	{ 4, 128 },
	{ 1, 8 },
	{ 16, 1024 },
};

typedef struct {
	const rapier_multipart_limits_t *limits;
	int abort_second;
	int in_part;
	size_t parts;
	uint64_t digest;
} ctx_t;

static void check_basename(const char *filename, size_t len, uint64_t *h)
{
	size_t base_len;
	const char *base = rapier_multipart_basename(filename, len, &base_len);

	FUZZ_CHECK(base >= filename && base + base_len <= filename + len);
	FUZZ_CHECK(memchr(base, '/', base_len) == NULL && memchr(base, '\\', base_len) == NULL);
	FUZZ_CHECK(!(base_len == 1 && base[0] == '.') && !(base_len == 2 && memcmp(base, "..", 2) == 0));
	fuzz_digest(h, base, base_len);
}

static int on_begin(void *data, const rapier_multipart_part_t *part)
{
	ctx_t *ctx = data;

	FUZZ_CHECK(!ctx->in_part && part->name != NULL);
	FUZZ_CHECK(++ctx->parts <= ctx->limits->max_parts);
	FUZZ_CHECK(part->name_len < ctx->limits->max_part_header_size);
	ctx->in_part = 1;
	fuzz_digest(&ctx->digest, "B", 1);
	fuzz_digest(&ctx->digest, part->name, part->name_len);
	if (part->filename) {
		check_basename(part->filename, part->filename_len, &ctx->digest);
	}
	if (part->content_type) {
		fuzz_digest(&ctx->digest, part->content_type, part->content_type_len);
	}
	return ctx->abort_second && ctx->parts == 2 ? ABORT_CODE : 0;
}

static int on_data(void *data, const char *buf, size_t len)
{
	ctx_t *ctx = data;

	FUZZ_CHECK(ctx->in_part && len > 0);
	fuzz_digest(&ctx->digest, buf, len);
	return 0;
}

static int on_end(void *data)
{
	ctx_t *ctx = data;

	FUZZ_CHECK(ctx->in_part);
	ctx->in_part = 0;
	fuzz_digest(&ctx->digest, "E", 1);
	return 0;
}

static const rapier_multipart_callbacks_t callbacks = { on_begin, on_data, on_end };

static uint64_t run(const char *boundary, size_t boundary_len, int flags, const char *body, size_t len,
	fuzz_cutter_t *cut)
{
	ctx_t ctx = { .limits = &profiles[flags & 3], .abort_second = (flags & 4) != 0, .digest = FUZZ_DIGEST_INIT };
	rapier_multipart_t mp;
	size_t pos = 0;
	int rc = 0;

	FUZZ_CHECK(rapier_multipart_init(&mp, boundary, boundary_len, ctx.limits, &callbacks, &ctx) == 0);
	while (pos < len && rc == 0) {
		size_t n = fuzz_next_cut(cut, len - pos);

		rc = rapier_multipart_feed(&mp, body + pos, n);
		pos += n;
	}
	if (rc == 0) {
		rc = rapier_multipart_finish(&mp);
	}
	FUZZ_CHECK((rc == 0) == (mp.error == NULL));
	FUZZ_CHECK(mp.abort_code == 0 || mp.abort_code == ABORT_CODE);
	fuzz_digest_u64(&ctx.digest, (uint64_t) rc);
	fuzz_digest_u64(&ctx.digest, (uint64_t) mp.abort_code);
	if (mp.error) {
		fuzz_digest(&ctx.digest, mp.error, strlen(mp.error));
	}
	rapier_multipart_free(&mp);
	return ctx.digest;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *ct = (const char *) data + 2, *end = (const char *) data + size, *lf, *boundary;
	size_t boundary_len;
	uint64_t digest[FUZZ_RUNS];

	if (size < 2) {
		return 0;
	}
	lf = memchr(ct, '\n', (size_t) (end - ct));
	if (lf == NULL) {
		lf = end;
	}
	if (rapier_multipart_boundary(ct, (size_t) (lf - ct), &boundary, &boundary_len) != 0) {
		return 0;
	}
	FUZZ_CHECK(boundary >= ct && boundary + boundary_len <= lf);
	FUZZ_CHECK(boundary_len >= 1 && boundary_len <= RAPIER_MULTIPART_MAX_BOUNDARY);
	if (lf < end) {
		lf++;
	}
	for (int mode = 0; mode < FUZZ_RUNS; mode++) {
		fuzz_cutter_t cut;

		fuzz_cutter_init(&cut, mode, data[1]);
		digest[mode] = run(boundary, boundary_len, data[0], lf, (size_t) (end - lf), &cut);
	}
	FUZZ_CHECK(digest[FUZZ_BYTES] == digest[FUZZ_WHOLE]);
	FUZZ_CHECK(digest[FUZZ_SEEDED] == digest[FUZZ_WHOLE]);
	return 0;
}
