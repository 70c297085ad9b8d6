/* Unit tests for body spooling: multipart parts, raw bodies, files on disk, refusals, cleanup. */
#define _GNU_SOURCE /* mkostemp() in http_upload.c */
#include "unit.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "multipart.c"
#include "http_upload.c"

static const char type[] = "multipart/form-data; boundary=BB";
static const char body[] =
	"--BB\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue of a\r\n"
	"--BB\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x.txt\"\r\nContent-Type: text/plain\r\n\r\n"
	"file contents\r\nwith a line\r\n"
	"--BB\r\nContent-Disposition: form-data; name=\"none\"; filename=\"\"\r\n\r\n\r\n"
	"--BB--\r\n";

static char dir[] = "/tmp/rapier-upload-test-XXXXXX";

static int files_in_dir(void)
{
	char cmd[128];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls -A %s | wc -l", dir);
	if ((p = popen(cmd, "r")) != NULL) {
		if (fscanf(p, "%d", &n) != 1) {
			n = -1;
		}
		pclose(p);
	}
	return n;
}

static void feed_in_pieces(rapier_upload_t *u, size_t piece)
{
	for (size_t at = 0; at < sizeof(body) - 1; at += piece) {
		size_t n = sizeof(body) - 1 - at < piece ? sizeof(body) - 1 - at : piece;
		CHECK_EQ_INT(rapier_upload_feed(u, body + at, n), 0);
	}
}

static void test_parts(size_t piece)
{
	rapier_upload_t u;
	rapier_upload_part_t *p;
	char content[64] = {0};
	FILE *f;

	CHECK_EQ_INT(rapier_upload_init(&u, type, sizeof(type) - 1, dir), 0);
	feed_in_pieces(&u, piece);
	CHECK_EQ_INT(rapier_upload_finish(&u), 0);
	p = u.parts;
	CHECK_EQ_STR(p->name, "a");
	CHECK(p->filename == NULL);
	CHECK_EQ_INT((int) p->value_len, 10);
	CHECK(memcmp(p->value, "value of a", 10) == 0);
	p = p->next;
	CHECK_EQ_STR(p->name, "f");
	CHECK_EQ_STR(p->filename, "x.txt");
	CHECK_EQ_STR(p->content_type, "text/plain");
	CHECK_EQ_INT(p->error, 0);
	CHECK_EQ_INT((int) p->size, 26);
	CHECK(p->tmp_path != NULL);
	f = fopen(p->tmp_path, "r");
	CHECK(f != NULL);
	if (f) {
		CHECK_EQ_INT((int) fread(content, 1, sizeof(content) - 1, f), 26);
		fclose(f);
	}
	CHECK_EQ_STR(content, "file contents\r\nwith a line");
	p = p->next;
	CHECK_EQ_INT(p->error, RAPIER_UPLOAD_ERR_NO_FILE);
	CHECK(p->tmp_path == NULL);
	CHECK(p->next == NULL);
	CHECK_EQ_INT(files_in_dir(), 1);
	/* Not taken: freeing removes it. */
	rapier_upload_free(&u);
	CHECK_EQ_INT(files_in_dir(), 0);
}

static void test_malformed_is_400_and_cleaned(void)
{
	rapier_upload_t u;
	static const char bad[] = "--BB\r\nContent-Disposition: form-data; name=\"f\"; filename=\"y\"\r\n\r\nabc";

	CHECK_EQ_INT(rapier_upload_init(&u, type, sizeof(type) - 1, dir), 0);
	CHECK_EQ_INT(rapier_upload_feed(&u, bad, sizeof(bad) - 1), 0);
	CHECK_EQ_INT(files_in_dir(), 1);
	CHECK_EQ_INT(rapier_upload_finish(&u), 400);
	CHECK(u.error != NULL);
	rapier_upload_free(&u);
	CHECK_EQ_INT(files_in_dir(), 0);
}

/* A write that fails (here: over RLIMIT_FSIZE, as a full disk would) refuses with 507 and removes the file. */
static void test_write_failure_is_507(void)
{
	rapier_upload_t u;
	struct rlimit old, small = { 8, 8 };
	static const char head[] = "--BB\r\nContent-Disposition: form-data; name=\"f\"; filename=\"y\"\r\n\r\n";

	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	small.rlim_max = old.rlim_max;
	setrlimit(RLIMIT_FSIZE, &small);
	CHECK_EQ_INT(rapier_upload_init(&u, type, sizeof(type) - 1, dir), 0);
	CHECK_EQ_INT(rapier_upload_feed(&u, head, sizeof(head) - 1), 0);
	CHECK_EQ_INT(rapier_upload_feed(&u, "0123456789abcdef0123456789", 26), 507);
	setrlimit(RLIMIT_FSIZE, &old);
	CHECK_EQ_INT(files_in_dir(), 0);
	/* Sticky: more bytes are refused the same way. */
	CHECK_EQ_INT(rapier_upload_feed(&u, "x", 1), 507);
	rapier_upload_free(&u);
}

static void test_not_multipart(void)
{
	rapier_upload_t u;

	CHECK_EQ_INT(rapier_upload_init(&u, "text/plain", 10, dir), -1);
	CHECK_EQ_INT(rapier_upload_init(&u, "multipart/form-data", 19, dir), -1);
}

static void read_file(const char *path, char *into, size_t cap, size_t *len)
{
	FILE *f = fopen(path, "rb");

	CHECK(f != NULL);
	*len = f ? fread(into, 1, cap, f) : 0;
	if (f) {
		fclose(f);
	}
}

/*
 * PHP's limits: a file over max_file_size, or over the body's MAX_FILE_SIZE,
 * is cancelled with its file removed at once; file parts after max_files
 * are skipped, an empty file input among them.
 */
static void test_php_limits(size_t piece)
{
	static const char limited[] =
		"--BB\r\nContent-Disposition: form-data; name=\"big\"; filename=\"b\"\r\n\r\n0123456789\r\n"
		"--BB\r\nContent-Disposition: form-data; name=\"max_file_size\"\r\n\r\n 5\r\n"
		"--BB\r\nContent-Disposition: form-data; name=\"form\"; filename=\"f\"\r\n\r\n123456\r\n"
		"--BB\r\nContent-Disposition: form-data; name=\"ok\"; filename=\"o\"\r\n\r\n12345\r\n"
		"--BB\r\nContent-Disposition: form-data; name=\"over\"; filename=\"v\"\r\n\r\nxyz\r\n"
		"--BB\r\nContent-Disposition: form-data; name=\"empty\"; filename=\"\"\r\n\r\n\r\n"
		"--BB--\r\n";
	rapier_upload_t u;
	rapier_upload_part_t *p;

	CHECK_EQ_INT(rapier_upload_init(&u, type, sizeof(type) - 1, dir), 0);
	u.max_file_size = 8;
	u.max_files = 3;
	for (size_t at = 0; at < sizeof(limited) - 1; at += piece) {
		size_t n = sizeof(limited) - 1 - at < piece ? sizeof(limited) - 1 - at : piece;
		CHECK_EQ_INT(rapier_upload_feed(&u, limited + at, n), 0);
		/* The cancelled files never stay on disk: at most the one being written. */
		CHECK(files_in_dir() <= 1);
	}
	CHECK_EQ_INT(rapier_upload_finish(&u), 0);
	p = u.parts;
	CHECK_EQ_STR(p->name, "big");
	CHECK_EQ_INT(p->error, RAPIER_UPLOAD_ERR_INI_SIZE);
	CHECK(p->tmp_path == NULL);
	p = p->next;
	CHECK_EQ_STR(p->name, "max_file_size");
	CHECK_EQ_INT((int) u.form_max_file_size, 5);
	p = p->next;
	CHECK_EQ_STR(p->name, "form");
	CHECK_EQ_INT(p->error, RAPIER_UPLOAD_ERR_FORM_SIZE);
	CHECK(p->tmp_path == NULL);
	p = p->next;
	CHECK_EQ_STR(p->name, "ok");
	CHECK_EQ_INT(p->error, 0);
	CHECK(p->tmp_path != NULL && !p->skipped);
	CHECK_EQ_INT((int) p->size, 5);
	p = p->next;
	CHECK_EQ_STR(p->name, "over");
	CHECK(p->skipped && p->tmp_path == NULL && p->error == 0);
	p = p->next;
	CHECK_EQ_STR(p->name, "empty");
	CHECK(p->skipped);
	CHECK_EQ_INT((int) u.files, 3);
	CHECK_EQ_INT(files_in_dir(), 1);
	rapier_upload_free(&u);
	CHECK_EQ_INT(files_in_dir(), 0);
}

/* A raw body stays in memory up to memory_max bytes, in pieces of any size. */
static void test_raw_in_memory(size_t piece)
{
	rapier_upload_t u;
	rapier_upload_part_t *b;
	static const char data[] = "0123456789abcdef";

	CHECK_EQ_INT(rapier_upload_init_raw(&u, dir, 16), 0);
	for (size_t at = 0; at < 16; at += piece) {
		CHECK_EQ_INT(rapier_upload_feed(&u, data + at, 16 - at < piece ? 16 - at : piece), 0);
	}
	CHECK_EQ_INT(rapier_upload_finish(&u), 0);
	b = rapier_upload_body(&u);
	CHECK(b != NULL && b->tmp_path == NULL);
	CHECK_EQ_INT((int) b->size, 16);
	CHECK_EQ_INT((int) b->value_len, 16);
	CHECK(memcmp(b->value, data, 16) == 0);
	CHECK_EQ_INT(files_in_dir(), 0);
	rapier_upload_free(&u);
}

/* One byte past memory_max: what was kept and the rest go to one file, in order. */
static void test_raw_spills_to_a_file(size_t piece)
{
	rapier_upload_t u;
	rapier_upload_part_t *b;
	static const char data[] = "0123456789abcdefX and more after the spill";
	char got[64];
	size_t len, total = sizeof(data) - 1;
	struct stat st;

	CHECK_EQ_INT(rapier_upload_init_raw(&u, dir, 16), 0);
	for (size_t at = 0; at < total; at += piece) {
		CHECK_EQ_INT(rapier_upload_feed(&u, data + at, total - at < piece ? total - at : piece), 0);
	}
	CHECK_EQ_INT(rapier_upload_finish(&u), 0);
	CHECK(u.fd < 0);
	b = rapier_upload_body(&u);
	CHECK(b->tmp_path != NULL && b->value == NULL);
	CHECK_EQ_INT((int) b->size, (int) total);
	read_file(b->tmp_path, got, sizeof(got), &len);
	CHECK_EQ_INT((int) len, (int) total);
	CHECK(memcmp(got, data, total) == 0);
	/* Private to the server until the application saves it. */
	CHECK(stat(b->tmp_path, &st) == 0 && (st.st_mode & 0777) == 0600);
	CHECK_EQ_INT(files_in_dir(), 1);
	rapier_upload_free(&u);
	CHECK_EQ_INT(files_in_dir(), 0);
}

/* memory_max 0 (a length known to be over the bound): the file from the first byte. */
static void test_raw_straight_to_a_file(void)
{
	rapier_upload_t u;
	rapier_upload_part_t *b;
	char got[8];
	size_t len;

	CHECK_EQ_INT(rapier_upload_init_raw(&u, dir, 0), 0);
	CHECK_EQ_INT(rapier_upload_feed(&u, "abc", 3), 0);
	b = rapier_upload_body(&u);
	CHECK(b->tmp_path != NULL && b->value == NULL);
	CHECK_EQ_INT(rapier_upload_feed(&u, "de", 2), 0);
	CHECK_EQ_INT(rapier_upload_finish(&u), 0);
	read_file(b->tmp_path, got, sizeof(got), &len);
	CHECK(len == 5 && memcmp(got, "abcde", 5) == 0);
	CHECK_EQ_INT((int) b->size, 5);
	rapier_upload_free(&u);
	CHECK_EQ_INT(files_in_dir(), 0);
}

/* No temporary file can be made: the server's fault, 500, and it stays refused. */
static void test_raw_without_tmp_dir_is_500(void)
{
	rapier_upload_t u;

	CHECK_EQ_INT(rapier_upload_init_raw(&u, "/nonexistent-rapier-dir", 4), 0);
	CHECK_EQ_INT(rapier_upload_feed(&u, "abcd", 4), 0);
	CHECK_EQ_INT(rapier_upload_feed(&u, "e", 1), 500);
	CHECK(u.error != NULL);
	CHECK_EQ_INT(rapier_upload_feed(&u, "f", 1), 500);
	CHECK_EQ_INT(rapier_upload_finish(&u), 500);
	rapier_upload_free(&u);
}

/* A full disk while spilling or after: 507, and the file goes at once. */
static void test_raw_write_failure_is_507(void)
{
	rapier_upload_t u;
	struct rlimit old, small = { 8, 8 };

	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	small.rlim_max = old.rlim_max;
	setrlimit(RLIMIT_FSIZE, &small);
	CHECK_EQ_INT(rapier_upload_init_raw(&u, dir, 4), 0);
	CHECK_EQ_INT(rapier_upload_feed(&u, "abcd", 4), 0);
	CHECK_EQ_INT(rapier_upload_feed(&u, "0123456789", 10), 507);
	setrlimit(RLIMIT_FSIZE, &old);
	CHECK_EQ_INT(files_in_dir(), 0);
	CHECK(rapier_upload_body(&u)->tmp_path == NULL);
	rapier_upload_free(&u);
}

int main(void)
{
	CHECK(mkdtemp(dir) != NULL);
	test_parts(sizeof(body));
	test_parts(1);
	test_parts(7);
	test_malformed_is_400_and_cleaned();
	test_write_failure_is_507();
	test_not_multipart();
	test_php_limits(1);
	test_php_limits(9);
	test_php_limits(4096);
	test_raw_in_memory(16);
	test_raw_in_memory(3);
	test_raw_spills_to_a_file(sizeof("0123456789abcdefX and more after the spill") - 1);
	test_raw_spills_to_a_file(1);
	test_raw_spills_to_a_file(5);
	test_raw_straight_to_a_file();
	test_raw_without_tmp_dir_is_500();
	test_raw_write_failure_is_507();
	rmdir(dir);
	return unit_finish("http_upload_test");
}
