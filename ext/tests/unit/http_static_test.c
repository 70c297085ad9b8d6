/* Unit tests for static file resolution (traversal, symlinks, index), MIME types and the conditional/range plan. */
#include "unit.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "http_date.c"
#include "http_response.c"
#include "http_static.c"

static char base[64];      /* temp dir holding the root and files outside it */
static char root_path[96];

static void write_file(const char *rel, const char *content)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", base, rel);
	FILE *f = fopen(p, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(content, f);
		fclose(f);
	}
}

static void make_dir(const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", base, rel);
	CHECK_EQ_INT(mkdir(p, 0755), 0);
}

static void make_link(const char *target, const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", base, rel);
	CHECK_EQ_INT(symlink(target, p), 0);
}

static void build_tree(void)
{
	char p[256];

	strcpy(base, "/tmp/rapier-static-XXXXXX");
	CHECK(mkdtemp(base) != NULL);
	snprintf(root_path, sizeof(root_path), "%s/root", base);
	make_dir("root");
	make_dir("root/sub");
	make_dir("root/noindex");
	make_dir("root/.well-known");
	make_dir("outside");
	write_file("root/index.html", "<h1>home</h1>");
	write_file("root/a.txt", "0123456789");
	write_file("root/empty.txt", "");
	write_file("root/UPPER.JSON", "{}");
	write_file("root/sub/index.html", "<h1>sub</h1>");
	write_file("root/noindex/x.css", "a{}");
	write_file("root/.env", "SECRET=1");
	write_file("root/.well-known/acme.txt", "token");
	write_file("secret.txt", "outside secret");
	write_file("outside/x.txt", "outside x");
	make_link("a.txt", "root/inside_link");
	make_link("sub/../a.txt", "root/inside_dotdot_link");
	make_link("../secret.txt", "root/escape");
	make_link("/etc/passwd", "root/escape_abs");
	make_link("../outside", "root/dirlink");
	snprintf(p, sizeof(p), "%s/a.txt", root_path);
	make_link(p, "root/abs_inside");
	snprintf(p, sizeof(p), "%s/root/fifo", base);
	CHECK_EQ_INT(mkfifo(p, 0644), 0);
}

static void remove_tree(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	CHECK_EQ_INT(system(cmd), 0);
}

static int resolve(const rapier_static_root_t *root, const char *path, size_t len, rapier_static_file_t *f)
{
	int rc = rapier_static_resolve(root, path, len, f);
	if (rc == 0) {
		CHECK(f->fd >= 0);
	} else {
		CHECK_EQ_INT(f->fd, -1);
	}
	return rc;
}

/* Resolves path and returns the result code; on success checks the served content and closes the file. */
static int try_path(const rapier_static_root_t *root, const char *path, const char *content)
{
	rapier_static_file_t f;
	int rc = resolve(root, path, strlen(path), &f);

	if (rc == 0) {
		char got[64] = { 0 };
		ssize_t n = pread(f.fd, got, sizeof(got) - 1, 0);
		CHECK_EQ_INT(n, f.size);
		if (content) {
			CHECK_EQ_STR(got, content);
		}
		rapier_static_file_close(&f);
	}
	return rc;
}

#define EXPECT(root, path, rc, content) do { \
	int got_rc = try_path(root, path, content); \
	if (got_rc != (rc)) { \
		fprintf(stderr, "  path \"%s\": %d, expected %d\n", path, got_rc, (int) (rc)); \
		CHECK_EQ_INT(got_rc, rc); \
	} \
} while (0)

static void test_root_open(void)
{
	rapier_static_root_t root;
	char p[160];

	CHECK_EQ_INT(rapier_static_root_open(&root, "/nonexistent/rapier", 0), -ENOENT);
	snprintf(p, sizeof(p), "%s/a.txt", root_path);
	CHECK_EQ_INT(rapier_static_root_open(&root, p, 0), -ENOTDIR);
}

static void test_traversal(const rapier_static_root_t *root)
{
	EXPECT(root, "/a.txt", 0, "0123456789");
	EXPECT(root, "//a.txt", 0, "0123456789");
	EXPECT(root, "/./a.txt", 0, "0123456789");
	EXPECT(root, "/sub/../a.txt", 0, "0123456789");
	EXPECT(root, "/sub/./..//a.txt", 0, "0123456789");
	EXPECT(root, "/../etc/passwd", -EINVAL, NULL);
	EXPECT(root, "/..", -EINVAL, NULL);
	EXPECT(root, "/a/../../x", -EINVAL, NULL);
	EXPECT(root, "/sub/../../secret.txt", -EINVAL, NULL);
	EXPECT(root, "/../root/a.txt", -EINVAL, NULL);
	EXPECT(root, "a.txt", -EINVAL, NULL);
	EXPECT(root, "", -EINVAL, NULL);
	/* "%2e%2e%2f" decoded once by the caller is a plain "../": the same as above. */
	EXPECT(root, "/sub/%2e%2e/a.txt", -ENOENT, NULL);
	/* A double-encoded traversal decodes to a literal name, which does not exist. */
	EXPECT(root, "/..%2f..%2fsecret.txt", -ENOENT, NULL);
	EXPECT(root, "/%2e%2e/secret.txt", -ENOENT, NULL);
	EXPECT(root, "/..\\secret.txt", -ENOENT, NULL);
	/* Trailing dots and slashes: not aliases of the real name on Linux. */
	EXPECT(root, "/a.txt.", -ENOENT, NULL);
	EXPECT(root, "/a.txt/", -ENOENT, NULL);
	EXPECT(root, "/a.txt/.", -ENOENT, NULL);
	EXPECT(root, "/...", -ENOENT, NULL);
	EXPECT(root, "/sub/...", -ENOENT, NULL);
	EXPECT(root, "/missing.txt", -ENOENT, NULL);
	EXPECT(root, "/a.txt/x", -ENOENT, NULL);
	/* An embedded NUL must not truncate the path. */
	rapier_static_file_t f;
	CHECK_EQ_INT(resolve(root, "/a.txt\0.html", 12, &f), -EINVAL);
	CHECK_EQ_INT(resolve(root, "/a.txt", 6, &f), 0);
	rapier_static_file_close(&f);
	/* Non-regular files are never opened for serving, and a FIFO does not block. */
	EXPECT(root, "/fifo", -ENOENT, NULL);
	char longp[PATH_MAX + 16];
	memset(longp, 'x', sizeof(longp));
	longp[0] = '/';
	CHECK_EQ_INT(resolve(root, longp, sizeof(longp), &f), -ENAMETOOLONG);
}

static void test_dotfiles(const rapier_static_root_t *root)
{
	EXPECT(root, "/.env", -ENOENT, NULL);
	EXPECT(root, "/sub/../.env", -ENOENT, NULL);
	EXPECT(root, "/.well-known/acme.txt", 0, "token");
	EXPECT(root, "/.well-known/../.env", -ENOENT, NULL);
}

static void test_index_and_directories(const rapier_static_root_t *with_index, const rapier_static_root_t *plain)
{
	EXPECT(with_index, "/", 0, "<h1>home</h1>");
	EXPECT(with_index, "/sub/", 0, "<h1>sub</h1>");
	EXPECT(with_index, "/sub/.", 0, "<h1>sub</h1>");
	EXPECT(with_index, "/sub", -EISDIR, NULL);
	EXPECT(with_index, "/noindex/", -ENOENT, NULL);
	EXPECT(plain, "/", -ENOENT, NULL);
	EXPECT(plain, "/sub/", -ENOENT, NULL);
	EXPECT(plain, "/sub", -ENOENT, NULL);
	rapier_static_file_t f;
	CHECK_EQ_INT(resolve(with_index, "/sub/", 5, &f), 0);
	CHECK_EQ_STR(f.mime, "text/html; charset=utf-8");
	rapier_static_file_close(&f);
}

static void test_symlinks(const rapier_static_root_t *root, bool kernel_beneath)
{
	EXPECT(root, "/inside_link", 0, "0123456789");
	EXPECT(root, "/inside_dotdot_link", 0, "0123456789");
	EXPECT(root, "/escape", -EACCES, NULL);
	EXPECT(root, "/escape_abs", -EACCES, NULL);
	EXPECT(root, "/dirlink/x.txt", -EACCES, NULL);
	/* Documented difference: only the kernel walk refuses an absolute link that stays inside. */
	EXPECT(root, "/abs_inside", kernel_beneath ? -EACCES : 0, "0123456789");
}

static void test_symlinks_any(void)
{
	rapier_static_root_t root;

	CHECK_EQ_INT(rapier_static_root_open(&root, root_path, RAPIER_STATIC_SYMLINKS_ANY), 0);
	EXPECT(&root, "/escape", 0, "outside secret");
	EXPECT(&root, "/dirlink/x.txt", 0, "outside x");
	/* Request paths still cannot climb out. */
	EXPECT(&root, "/../secret.txt", -EINVAL, NULL);
	rapier_static_root_close(&root);
}

static void test_file_metadata(const rapier_static_root_t *root)
{
	rapier_static_file_t f;
	struct stat st;
	char expect[64];

	CHECK_EQ_INT(resolve(root, "/a.txt", 6, &f), 0);
	CHECK_EQ_INT(fstat(f.fd, &st), 0);
	CHECK_EQ_INT(f.size, 10);
	CHECK_EQ_INT(f.mtime, st.st_mtim.tv_sec);
	CHECK_EQ_STR(f.mime, "text/plain; charset=utf-8");
	CHECK_EQ_INT(f.mime_len, strlen(f.mime));
	snprintf(expect, sizeof(expect), "\"%llx.%08lx-a\"", (unsigned long long) st.st_mtim.tv_sec,
		(unsigned long) st.st_mtim.tv_nsec);
	CHECK_EQ_STR(f.etag, expect);
	CHECK_EQ_INT(f.etag_len, strlen(expect));
	CHECK(fcntl(f.fd, F_GETFD) & FD_CLOEXEC);
	rapier_static_file_close(&f);
	CHECK_EQ_INT(resolve(root, "/UPPER.JSON", 11, &f), 0);
	CHECK_EQ_STR(f.mime, "application/json");
	rapier_static_file_close(&f);
}

/* Sets a file's mtime (seconds, nanoseconds). */
static void set_mtime(const char *rel, time_t sec, long nsec)
{
	char p[256];
	struct timespec times[2] = { { sec, nsec }, { sec, nsec } };

	snprintf(p, sizeof(p), "%s/%s", base, rel);
	CHECK_EQ_INT(utimensat(AT_FDCWD, p, times, 0), 0);
}

/* A sibling made from an earlier version of its file is passed over; one as new or newer is served. */
static void test_precompressed_staleness(const rapier_static_root_t *root)
{
	rapier_static_file_t f;

	write_file("root/app.js", "console.log(1)");
	write_file("root/app.js.gz", "gz bytes");
	write_file("root/app.js.br", "br!");
	set_mtime("root/app.js", 1700000000, 500);
	set_mtime("root/app.js.gz", 1700000000, 500);   /* gzip -k keeps the file's mtime */
	set_mtime("root/app.js.br", 1699999999, 999999999);   /* a second earlier: stale */
	CHECK_EQ_INT(resolve(root, "/app.js", 7, &f), 0);
	CHECK_EQ_INT(rapier_static_open_precompressed(root, &f, ".br"), -ESTALE);
	CHECK_EQ_INT(f.size, 14);
	CHECK_EQ_INT(rapier_static_open_precompressed(root, &f, ".zst"), -ENOENT);
	CHECK_EQ_INT(rapier_static_open_precompressed(root, &f, ".gz"), 0);
	CHECK_EQ_INT(f.size, 8);
	CHECK_EQ_STR(f.mime, "text/javascript; charset=utf-8");
	rapier_static_file_close(&f);
	set_mtime("root/app.js.br", 1700000000, 0);   /* brotli -k keeps the mtime without its nanoseconds */
	CHECK_EQ_INT(resolve(root, "/app.js", 7, &f), 0);
	CHECK_EQ_INT(rapier_static_open_precompressed(root, &f, ".br"), 0);
	CHECK_EQ_INT(f.size, 3);
	rapier_static_file_close(&f);
	set_mtime("root/app.js", 1700000002, 0);   /* the file edited after both were made */
	CHECK_EQ_INT(resolve(root, "/app.js", 7, &f), 0);
	CHECK_EQ_INT(rapier_static_open_precompressed(root, &f, ".br"), -ESTALE);
	CHECK_EQ_INT(rapier_static_open_precompressed(root, &f, ".gz"), -ESTALE);
	CHECK_EQ_INT(f.size, 14);
	rapier_static_file_close(&f);
}

static void test_mime(void)
{
	static const char *const table[][2] = {
		{ "a.html", "text/html; charset=utf-8" }, { "a.css", "text/css; charset=utf-8" },
		{ "a.js", "text/javascript; charset=utf-8" }, { "a.mjs", "text/javascript; charset=utf-8" },
		{ "a.json", "application/json" }, { "a.txt", "text/plain; charset=utf-8" }, { "a.xml", "application/xml" },
		{ "a.svg", "image/svg+xml" }, { "a.png", "image/png" }, { "a.jpg", "image/jpeg" },
		{ "a.jpeg", "image/jpeg" }, { "a.gif", "image/gif" }, { "a.webp", "image/webp" },
		{ "a.avif", "image/avif" }, { "a.ico", "image/x-icon" }, { "a.woff", "font/woff" },
		{ "a.woff2", "font/woff2" }, { "a.ttf", "font/ttf" }, { "a.otf", "font/otf" },
		{ "a.wasm", "application/wasm" }, { "a.pdf", "application/pdf" }, { "a.zip", "application/zip" },
		{ "a.tar.gz", "application/gzip" }, { "a.mp4", "video/mp4" }, { "a.webm", "video/webm" },
		{ "a.mp3", "audio/mpeg" }, { "a.ogg", "audio/ogg" }, { "a.wav", "audio/wav" },
		{ "a.csv", "text/csv; charset=utf-8" }, { "a.md", "text/markdown; charset=utf-8" },
		{ "app.js.map", "application/json" }, { "dir/INDEX.HTML", "text/html; charset=utf-8" },
		{ "noext", "application/octet-stream" }, { "a.", "application/octet-stream" },
		{ "a.unknown", "application/octet-stream" }, { "dir.html/file", "application/octet-stream" },
		{ ".htaccess", "application/octet-stream" }, { "a.woff22", "application/octet-stream" },
		{ "", "application/octet-stream" },
	};
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		size_t len = 0;
		const char *m = rapier_static_mime(table[i][0], strlen(table[i][0]), &len);
		CHECK_EQ_STR(m, table[i][1]);
		CHECK_EQ_INT(len, strlen(table[i][1]));
	}
}

/* A file that exists only for the plan: 100 bytes, mtime 784111777. */
static rapier_static_file_t fake_file(uint64_t size)
{
	rapier_static_file_t f = { .fd = -1, .size = size, .mtime = 784111777, .mtime_nsec = 5 };

	f.mime = rapier_static_mime("x.txt", 5, &f.mime_len);
	f.etag_len = (size_t) snprintf(f.etag, sizeof(f.etag), "\"2ebc8fa1.00000005-%llx\"", (unsigned long long) size);
	return f;
}

static rapier_static_request_t req_get(const char *method)
{
	rapier_static_request_t r = { 0 };

	r.method = method;
	r.method_len = strlen(method);
	return r;
}

#define SET(r, field, value) do { (r).field = (value); (r).field##_len = strlen(value); } while (0)

static rapier_static_plan_t plan_for(const rapier_static_file_t *f, const rapier_static_request_t *r)
{
	rapier_static_plan_t p;

	CHECK_EQ_INT(rapier_static_plan(f, r, &p), 0);
	return p;
}

static void test_plan_methods_and_conditionals(void)
{
	rapier_static_file_t f = fake_file(100);
	rapier_static_request_t r = req_get("GET");
	rapier_static_plan_t p = plan_for(&f, &r);

	CHECK(p.status == 200 && p.offset == 0 && p.length == 100 && p.content_length == 100 && !p.head);
	r = req_get("HEAD");
	p = plan_for(&f, &r);
	CHECK(p.status == 200 && p.length == 0 && p.content_length == 100 && p.head);
	static const char *const others[] = { "POST", "PUT", "DELETE", "get", "OPTIONS" };
	for (int i = 0; i < 5; i++) {
		r = req_get(others[i]);
		CHECK_EQ_INT(plan_for(&f, &r).status, 405);
	}

	static const struct {
		const char *inm, *ims;
		int status;
	} cases[] = {
		{ "\"2ebc8fa1.00000005-64\"", NULL, 304 }, { "W/\"2ebc8fa1.00000005-64\"", NULL, 304 },
		{ "\"a\", \"2ebc8fa1.00000005-64\"", NULL, 304 }, { "\"a\",W/\"b\" ,  \"2ebc8fa1.00000005-64\"", NULL, 304 },
		{ "*", NULL, 304 }, { "\"other\"", NULL, 200 }, { "2ebc8fa1.00000005-64", NULL, 200 },
		{ "\"2ebc8fa1.00000005-64", NULL, 200 }, { "", NULL, 200 },
		{ "\"other\"", "Sun, 06 Nov 1994 08:49:37 GMT", 200 }, /* If-None-Match wins over If-Modified-Since */
		{ NULL, "Sun, 06 Nov 1994 08:49:37 GMT", 304 }, { NULL, "Sunday, 06-Nov-94 08:49:38 GMT", 304 },
		{ NULL, "Sun Nov  6 08:49:36 1994", 200 }, { NULL, "yesterday", 200 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (int head = 0; head < 2; head++) {
			r = req_get(head ? "HEAD" : "GET");
			if (cases[i].inm) {
				SET(r, if_none_match, cases[i].inm);
			}
			if (cases[i].ims) {
				SET(r, if_modified_since, cases[i].ims);
			}
			p = plan_for(&f, &r);
			if (p.status != cases[i].status) {
				fprintf(stderr, "  case %zu (%s): %d\n", i, head ? "HEAD" : "GET", p.status);
				CHECK_EQ_INT(p.status, cases[i].status);
			}
			if (p.status == 304) {
				CHECK(p.length == 0 && p.content_range_len == 0);
			}
		}
	}
	/* A 304 beats a Range. */
	r = req_get("GET");
	SET(r, if_none_match, "*");
	SET(r, range, "bytes=0-0");
	CHECK_EQ_INT(plan_for(&f, &r).status, 304);
}

static void test_plan_ranges(void)
{
	static const struct {
		uint64_t size;
		const char *range;
		int status;
		uint64_t offset, length;
		const char *content_range;
	} cases[] = {
		{ 100, "bytes=0-0", 206, 0, 1, "bytes 0-0/100" },
		{ 100, "bytes=0-99", 206, 0, 100, "bytes 0-99/100" },
		{ 100, "bytes=0-100", 206, 0, 100, "bytes 0-99/100" },
		{ 100, "bytes=10-19", 206, 10, 10, "bytes 10-19/100" },
		{ 100, "bytes=99-", 206, 99, 1, "bytes 99-99/100" },
		{ 100, "bytes=99-99", 206, 99, 1, "bytes 99-99/100" },
		{ 100, "bytes=0-", 206, 0, 100, "bytes 0-99/100" },
		{ 100, "bytes=-1", 206, 99, 1, "bytes 99-99/100" },
		{ 100, "bytes=-100", 206, 0, 100, "bytes 0-99/100" },
		{ 100, "bytes=-500", 206, 0, 100, "bytes 0-99/100" },
		{ 100, "BYTES=5-5", 206, 5, 1, "bytes 5-5/100" },
		{ 100, " bytes= 5-6 ", 206, 5, 2, "bytes 5-6/100" },
		{ 100, "bytes=0-18446744073709551616", 206, 0, 100, "bytes 0-99/100" },
		{ 100, "bytes=100-", 416, 0, 0, "bytes */100" },
		{ 100, "bytes=100-200", 416, 0, 0, "bytes */100" },
		{ 100, "bytes=18446744073709551616-", 416, 0, 0, "bytes */100" },
		{ 100, "bytes=-0", 416, 0, 0, "bytes */100" },
		{ 100, "bytes=5-2", 200, 0, 100, "" },
		{ 100, "bytes=0-1,5-6", 200, 0, 100, "" },
		{ 100, "bytes=0-1,", 200, 0, 100, "" },
		{ 100, "items=0-1", 200, 0, 100, "" },
		{ 100, "bytes=abc", 200, 0, 100, "" },
		{ 100, "bytes=-", 200, 0, 100, "" },
		{ 100, "bytes=1-2x", 200, 0, 100, "" },
		{ 100, "bytes=--1", 200, 0, 100, "" },
		{ 100, "bytes=", 200, 0, 100, "" },
		{ 100, "bytes 0-1", 200, 0, 100, "" },
		{ 0, "bytes=0-", 416, 0, 0, "bytes */0" },
		{ 0, "bytes=0-0", 416, 0, 0, "bytes */0" },
		{ 0, "bytes=-5", 416, 0, 0, "bytes */0" },
		{ 1, "bytes=-5", 206, 0, 1, "bytes 0-0/1" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rapier_static_file_t f = fake_file(cases[i].size);
		rapier_static_request_t r = req_get("GET");
		SET(r, range, cases[i].range);
		rapier_static_plan_t p = plan_for(&f, &r);
		bool ok = p.status == cases[i].status && p.offset == cases[i].offset && p.length == cases[i].length
			&& p.content_length == cases[i].length && strlen(cases[i].content_range) == p.content_range_len
			&& memcmp(p.content_range, cases[i].content_range, p.content_range_len) == 0;
		if (!ok) {
			fprintf(stderr, "  range \"%s\" size %llu: %d off %llu len %llu cr \"%.*s\"\n", cases[i].range,
				(unsigned long long) cases[i].size, p.status, (unsigned long long) p.offset,
				(unsigned long long) p.length, (int) p.content_range_len, p.content_range);
			CHECK(ok);
		}
	}
	/* HEAD ignores Range; an empty file without Range is a plain empty 200. */
	rapier_static_file_t f = fake_file(100);
	rapier_static_request_t r = req_get("HEAD");
	SET(r, range, "bytes=0-0");
	CHECK_EQ_INT(plan_for(&f, &r).status, 200);
	f = fake_file(0);
	r = req_get("GET");
	rapier_static_plan_t p = plan_for(&f, &r);
	CHECK(p.status == 200 && p.length == 0 && p.content_length == 0);
}

static void test_plan_if_range(void)
{
	static const struct {
		const char *if_range;
		int status;
	} cases[] = {
		{ "\"2ebc8fa1.00000005-64\"", 206 }, { " \"2ebc8fa1.00000005-64\" ", 206 },
		{ "W/\"2ebc8fa1.00000005-64\"", 200 }, { "\"other\"", 200 },
		{ "Sun, 06 Nov 1994 08:49:37 GMT", 206 }, { "Sun, 06 Nov 1994 08:49:38 GMT", 200 },
		{ "Sun, 06 Nov 1994 08:49:36 GMT", 200 }, { "garbage", 200 }, { "", 200 },
	};
	rapier_static_file_t f = fake_file(100);

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rapier_static_request_t r = req_get("GET");
		SET(r, range, "bytes=1-2");
		SET(r, if_range, cases[i].if_range);
		rapier_static_plan_t p = plan_for(&f, &r);
		if (p.status != cases[i].status) {
			fprintf(stderr, "  If-Range \"%s\": %d\n", cases[i].if_range, p.status);
			CHECK_EQ_INT(p.status, cases[i].status);
		}
		CHECK_EQ_INT(p.length, p.status == 206 ? 2 : 100);
	}
}

static const char *headers_for(const rapier_static_file_t *f, const rapier_static_plan_t *p, rapier_http_buf_t *buf)
{
	rapier_http_head_t head;

	rapier_http_buf_reset(buf);
	rapier_http_head_init(&head, buf);
	CHECK_EQ_INT(rapier_static_add_headers(f, p, &head), 0);
	CHECK_EQ_INT(rapier_http_buf_append(buf, "", 1), 0);
	return buf->data;
}

static void test_headers(void)
{
	rapier_http_buf_t buf;
	rapier_static_file_t f = fake_file(100);
	rapier_static_request_t r = req_get("GET");

	rapier_http_buf_init(&buf, NULL, 0, 0);
	SET(r, range, "bytes=0-9");
	rapier_static_plan_t p = plan_for(&f, &r);
	CHECK_EQ_STR(headers_for(&f, &p, &buf), "Content-Type: text/plain; charset=utf-8\r\nAccept-Ranges: bytes\r\n"
		"ETag: \"2ebc8fa1.00000005-64\"\r\nLast-Modified: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
		"Content-Range: bytes 0-9/100\r\n");
	SET(r, range, "bytes=100-");
	p = plan_for(&f, &r);
	CHECK_EQ_STR(headers_for(&f, &p, &buf), "Content-Range: bytes */100\r\n");
	SET(r, if_none_match, "*");
	p = plan_for(&f, &r);
	CHECK_EQ_STR(headers_for(&f, &p, &buf), "ETag: \"2ebc8fa1.00000005-64\"\r\n"
		"Last-Modified: Sun, 06 Nov 1994 08:49:37 GMT\r\n");
	r = req_get("PUT");
	p = plan_for(&f, &r);
	CHECK_EQ_STR(headers_for(&f, &p, &buf), "Allow: GET, HEAD\r\n");
	rapier_http_buf_free(&buf);
}

/* A coding made on the fly: weak ETag, weak comparison still matches, no ranges offered or applied. */
static void test_weak(void)
{
	rapier_http_buf_t buf;
	rapier_static_file_t f = fake_file(100);
	rapier_static_request_t r = req_get("GET");
	rapier_static_plan_t p;

	rapier_static_file_set_weak(&f, false);
	CHECK_EQ_STR(f.etag, "\"2ebc8fa1.00000005-64\"");
	rapier_static_file_set_weak(&f, true);
	rapier_static_file_set_weak(&f, true);
	CHECK_EQ_STR(f.etag, "W/\"2ebc8fa1.00000005-64\"");
	CHECK_EQ_INT(f.etag_len, strlen(f.etag));
	rapier_http_buf_init(&buf, NULL, 0, 0);
	p = plan_for(&f, &r);
	CHECK_EQ_STR(headers_for(&f, &p, &buf), "Content-Type: text/plain; charset=utf-8\r\n"
		"ETag: W/\"2ebc8fa1.00000005-64\"\r\nLast-Modified: Sun, 06 Nov 1994 08:49:37 GMT\r\n");
	static const char *const matching[] = { "\"2ebc8fa1.00000005-64\"", "W/\"2ebc8fa1.00000005-64\"", "\"x\", *" };
	for (size_t i = 0; i < sizeof(matching) / sizeof(matching[0]); i++) {
		SET(r, if_none_match, matching[i]);
		CHECK_EQ_INT(plan_for(&f, &r).status, 304);
	}
	SET(r, if_none_match, "\"2ebc8fa1.00000005-65\"");
	CHECK_EQ_INT(plan_for(&f, &r).status, 200);
	r = req_get("GET");
	SET(r, range, "bytes=0-9");
	p = plan_for(&f, &r);
	CHECK(p.status == 200 && p.length == 100 && p.content_range_len == 0);
	SET(r, if_range, "W/\"2ebc8fa1.00000005-64\"");
	CHECK_EQ_INT(plan_for(&f, &r).status, 200);
	rapier_static_file_set_weak(&f, false);
	CHECK_EQ_STR(f.etag, "\"2ebc8fa1.00000005-64\"");
	CHECK_EQ_INT(f.etag_len, strlen(f.etag));
	CHECK_EQ_INT(plan_for(&f, &r).status, 200);   /* If-Range W/ never holds */
	r = req_get("GET");
	SET(r, range, "bytes=0-9");
	CHECK_EQ_INT(plan_for(&f, &r).status, 206);
	rapier_http_buf_free(&buf);
}

static void run_resolution_suite(bool kernel_beneath)
{
	rapier_static_root_t with_index, plain, dotfiles;

	CHECK_EQ_INT(rapier_static_root_open(&with_index, root_path, RAPIER_STATIC_INDEX), 0);
	CHECK_EQ_INT(rapier_static_root_open(&plain, root_path, 0), 0);
	CHECK_EQ_INT(rapier_static_root_open(&dotfiles, root_path, RAPIER_STATIC_DOTFILES), 0);
	test_traversal(&with_index);
	test_traversal(&plain);
	test_dotfiles(&with_index);
	EXPECT(&dotfiles, "/.env", 0, "SECRET=1");
	EXPECT(&dotfiles, "/../x", -EINVAL, NULL);
	test_index_and_directories(&with_index, &plain);
	test_symlinks(&with_index, kernel_beneath);
	test_file_metadata(&plain);
	test_precompressed_staleness(&plain);
	rapier_static_root_close(&with_index);
	rapier_static_root_close(&plain);
	rapier_static_root_close(&dotfiles);
}

int main(void)
{
	build_tree();
	test_root_open();
	run_resolution_suite(true);
	CHECK(openat2_usable);
	/* The same suite through the /proc/self/fd fallback used on kernels without openat2. */
	openat2_usable = 0;
	run_resolution_suite(false);
	openat2_usable = 1;
	test_symlinks_any();
	test_mime();
	test_plan_methods_and_conditionals();
	test_plan_ranges();
	test_plan_if_range();
	test_headers();
	test_weak();
	remove_tree();
	return unit_finish("http_static_test");
}
