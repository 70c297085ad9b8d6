/*
 * libFuzzer driver for multipart/form-data spooling (src/http_upload.c over
 * src/multipart.c): the server's body sink for uploads, which writes file
 * parts to temporary files while the body arrives.
 *
 * Input: byte 0 picks PHP's upload limits for the multipart run and is
 * the raw spool's memory bound (multipart_fuzz.c's layout leaves it
 * unused, so its corpus fits here too), byte 1 seeds the read sizes
 * (fuzz.h), then the Content-Type value up to the first LF, then the body.
 *
 * Checked: a body is accepted (0) or refused with 400, never anything
 * else; every file part that got a temporary file holds exactly its bytes;
 * and once the spool is freed, the temporary directory is empty again, so
 * no refused, cut or malformed upload leaves a file behind. A file over a
 * size limit keeps no file, nor does a part skipped past the count. The
 * three runs must agree on the parts, their bytes and the answer.
 *
 * The same body also goes through a raw spool (any other Content-Type):
 * always accepted, kept in memory while it fits byte 0's bound and in a
 * file past it, holding exactly the bytes fed, however they were cut.
 */
/* mkostemp() in http_upload.c: before the first system header. */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "multipart.c"
#include "http_upload.c"

/* One private directory for the whole process, made on first use (the
 * replay main has no initialisation hook) and removed at exit. */
static char spool_dir[64];

static void remove_spool_dir(void)
{
	rmdir(spool_dir);
}

static const char *spool(void)
{
	if (spool_dir[0] == '\0') {
		const char *base = getenv("TMPDIR");

		snprintf(spool_dir, sizeof(spool_dir), "%s/rapier-fuzz-XXXXXX", base && *base ? base : "/tmp");
		FUZZ_CHECK(mkdtemp(spool_dir) != NULL);
		atexit(remove_spool_dir);
	}
	return spool_dir;
}

static size_t files_in_spool(void)
{
	DIR *d = opendir(spool());
	struct dirent *e;
	size_t n = 0;

	FUZZ_CHECK(d != NULL);
	while ((e = readdir(d)) != NULL) {
		n += e->d_name[0] != '.';
	}
	closedir(d);
	return n;
}

/* A file part's temporary file must hold exactly part->size bytes. */
static void digest_file(const rapier_upload_part_t *part, uint64_t *h)
{
	char buf[4096];
	uint64_t total = 0;
	ssize_t n;
	FILE *f = fopen(part->tmp_path, "rb");

	FUZZ_CHECK(f != NULL);
	while ((n = (ssize_t) fread(buf, 1, sizeof(buf), f)) > 0) {
		fuzz_digest(h, buf, (size_t) n);
		total += (uint64_t) n;
	}
	fclose(f);
	FUZZ_CHECK(total == part->size);
}

static void digest_parts(const rapier_upload_t *u, uint64_t *h)
{
	for (const rapier_upload_part_t *part = u->parts; part; part = part->next) {
		fuzz_digest(h, part->name, strlen(part->name) + 1);
		fuzz_digest_u64(h, (uint64_t) part->error);
		fuzz_digest_u64(h, (uint64_t) part->skipped);
		FUZZ_CHECK(!part->skipped || part->tmp_path == NULL);
		FUZZ_CHECK((part->error != 1 && part->error != 2) || part->tmp_path == NULL);
		if (part->filename == NULL) {
			fuzz_digest(h, part->value ? part->value : "", part->value_len);
			continue;
		}
		fuzz_digest(h, part->filename, part->filename_len);
		fuzz_digest(h, part->content_type, strlen(part->content_type) + 1);
		if (part->tmp_path) {
			digest_file(part, h);
		}
	}
}

static uint64_t run(uint8_t limits, const char *ct, size_t ct_len, const char *body, size_t len, fuzz_cutter_t *cut)
{
	rapier_upload_t u;
	uint64_t h = FUZZ_DIGEST_INIT;
	size_t pos = 0;
	int status = 0;

	if (rapier_upload_init(&u, ct, ct_len, spool()) != 0) {
		return h;
	}
	/* Bits 0-1: max_file_uploads 0..2 or none; bits 2-7: upload_max_filesize in 7-byte steps (0: none). */
	u.max_files = (limits & 3) == 3 ? -1 : (int64_t) (limits & 3);
	u.max_file_size = (uint64_t) (limits >> 2) * 7;
	while (pos < len && status == 0) {
		size_t n = fuzz_next_cut(cut, len - pos);

		status = rapier_upload_feed(&u, body + pos, n);
		pos += n;
	}
	if (status == 0) {
		status = rapier_upload_finish(&u);
	}
	FUZZ_CHECK(status == 0 || (status == 400 && u.error != NULL));
	fuzz_digest_u64(&h, (uint64_t) status);
	digest_parts(&u, &h);
	rapier_upload_free(&u);
	FUZZ_CHECK(files_in_spool() == 0);
	return h;
}

static void run_raw(size_t memory_max, const char *body, size_t len, fuzz_cutter_t *cut)
{
	rapier_upload_t u;
	rapier_upload_part_t *kept;
	uint64_t want = FUZZ_DIGEST_INIT, got = FUZZ_DIGEST_INIT;
	size_t pos = 0;

	FUZZ_CHECK(rapier_upload_init_raw(&u, spool(), memory_max) == 0);
	while (pos < len) {
		size_t n = fuzz_next_cut(cut, len - pos);

		FUZZ_CHECK(rapier_upload_feed(&u, body + pos, n) == 0);
		pos += n;
	}
	FUZZ_CHECK(rapier_upload_finish(&u) == 0);
	kept = rapier_upload_body(&u);
	FUZZ_CHECK(kept->size == len);
	FUZZ_CHECK((kept->tmp_path != NULL) == (len > memory_max));
	if (kept->tmp_path) {
		digest_file(kept, &got);
	} else {
		fuzz_digest(&got, kept->value ? kept->value : "", kept->value_len);
	}
	fuzz_digest(&want, body, len);
	FUZZ_CHECK(got == want);
	rapier_upload_free(&u);
	FUZZ_CHECK(files_in_spool() == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *ct = (const char *) data + 2, *end = (const char *) data + size, *lf;
	uint64_t digest[FUZZ_RUNS];

	if (size < 2) {
		return 0;
	}
	lf = memchr(ct, '\n', (size_t) (end - ct));
	if (lf == NULL) {
		lf = end;
	}
	for (int mode = 0; mode < FUZZ_RUNS; mode++) {
		fuzz_cutter_t cut;

		fuzz_cutter_init(&cut, mode, data[1]);
		digest[mode] = run(data[0], ct, (size_t) (lf - ct), lf < end ? lf + 1 : end, (size_t) (end - (lf < end ? lf + 1 : end)),
			&cut);
	}
	FUZZ_CHECK(digest[FUZZ_BYTES] == digest[FUZZ_WHOLE]);
	FUZZ_CHECK(digest[FUZZ_SEEDED] == digest[FUZZ_WHOLE]);
	for (int mode = 0; mode < FUZZ_RUNS; mode++) {
		fuzz_cutter_t cut;

		fuzz_cutter_init(&cut, mode, data[1]);
		run_raw(data[0], ct, (size_t) (end - ct), &cut);
	}
	return 0;
}
