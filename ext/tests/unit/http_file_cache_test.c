/* Unit tests for compressing files on the fly and the per-worker cache of their compressed copies. */
#include "unit.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "http_response.c"
#include "http_gzip.c"
#include "http_brotli.c"
#include "http_zstd.c"
#include "http_compress.c"
#include "http_file_cache.c"

static char dir[64];

/* Writes len bytes of varied text to dir/name and opens it; fills st. */
static int make_file(const char *name, size_t len, unsigned seed, struct stat *st)
{
	char path[128];
	char *text = malloc(len + 1);
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	srand(seed);
	for (size_t i = 0; i < len; i++) {
		text[i] = (char) (i % 61 == 60 ? '\n' : "static files compress "[rand() % 22]);
	}
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	CHECK(fd >= 0);
	CHECK_EQ_INT(write(fd, text, len), len);
	CHECK_EQ_INT(fstat(fd, st), 0);
	free(text);
	return fd;
}

/* Whether data, len gunzips to the file's content. */
static bool gunzips_to_file(const char *data, size_t len, int fd, size_t size)
{
	char *want = malloc(size + 1), *got = malloc(size + 1);
	uLongf got_len = (uLongf) size + 1;
	z_stream zs;
	bool ok;

	CHECK_EQ_INT(pread(fd, want, size, 0), size);
	memset(&zs, 0, sizeof(zs));
	CHECK_EQ_INT(inflateInit2(&zs, 15 + 16), Z_OK);
	zs.next_in = (Bytef *) data;
	zs.avail_in = (uInt) len;
	zs.next_out = (Bytef *) got;
	zs.avail_out = (uInt) got_len;
	ok = inflate(&zs, Z_FINISH) == Z_STREAM_END && zs.total_out == size && memcmp(got, want, size) == 0;
	inflateEnd(&zs);
	free(want);
	free(got);
	return ok;
}

static bool unzstds_to_file(const char *data, size_t len, int fd, size_t size)
{
	char *want = malloc(size + 1), *got = malloc(size + 1);
	size_t n;
	bool ok;

	CHECK_EQ_INT(pread(fd, want, size, 0), size);
	n = ZSTD_decompress(got, size + 1, data, len);
	ok = !ZSTD_isError(n) && n == size && memcmp(got, want, size) == 0;
	free(want);
	free(got);
	return ok;
}

typedef struct {
	rapier_file_cache_t cache;
	rapier_encoder_pool_t pool;
	rapier_http_buf_t tmp;
} fixture_t;

static void fixture_init(fixture_t *fx, size_t max_bytes)
{
	rapier_compress_config_t cfg;

	rapier_compress_config_init(&cfg);
	rapier_encoder_pool_init(&fx->pool, &cfg, 2);
	rapier_file_cache_init(&fx->cache, max_bytes);
	rapier_http_buf_init(&fx->tmp, NULL, 0, 0);
}

static void fixture_free(fixture_t *fx)
{
	rapier_http_buf_free(&fx->tmp);
	rapier_file_cache_free(&fx->cache);
	rapier_encoder_pool_free(&fx->pool);
}

static int get(fixture_t *fx, rapier_coding_t coding, int fd, const struct stat *st, const char **data, size_t *len)
{
	rapier_file_version_t v = rapier_file_version_of(st);

	rapier_http_buf_reset(&fx->tmp);
	return rapier_file_cache_get(&fx->cache, &fx->pool, coding, fd, &v, &fx->tmp, data, len);
}

/* Compressed once, then served from the copy; each coding is its own entry. */
static void test_hit_and_codings(void)
{
	fixture_t fx;
	struct stat st;
	const char *data, *again;
	size_t len, again_len;
	int fd = make_file("a.txt", 50000, 1, &st);

	fixture_init(&fx, 1 << 20);
	CHECK_EQ_INT(get(&fx, RAPIER_CODING_GZIP, fd, &st, &data, &len), 0);
	CHECK(len > 0 && len < 50000 * 3 / 4);
	CHECK(gunzips_to_file(data, len, fd, 50000));
	CHECK(fx.cache.misses == 1 && fx.cache.hits == 0 && fx.cache.entries == 1 && fx.cache.bytes == len);
	/* A miss leaves the bytes in tmp too; a hit leaves tmp empty. */
	CHECK(data != fx.tmp.data && fx.tmp.len == len && memcmp(fx.tmp.data, data, len) == 0);
	CHECK_EQ_INT(get(&fx, RAPIER_CODING_GZIP, fd, &st, &again, &again_len), 0);
	CHECK(again == data && again_len == len && fx.cache.hits == 1 && fx.cache.misses == 1);
	CHECK_EQ_INT(fx.tmp.len, 0);
	CHECK_EQ_INT(get(&fx, RAPIER_CODING_ZSTD, fd, &st, &data, &len), 0);
	CHECK(unzstds_to_file(data, len, fd, 50000));
	CHECK(fx.cache.entries == 2 && fx.cache.misses == 2);
	close(fd);
	fixture_free(&fx);
}

/* A rewritten file has a new version: compressed anew, never the old copy. */
static void test_new_version(void)
{
	fixture_t fx;
	struct stat st1, st2;
	const char *data;
	size_t len;
	int fd1 = make_file("b.txt", 20000, 2, &st1), fd2;
	struct timespec later[2] = { { st1.st_mtim.tv_sec + 5, 0 }, { st1.st_mtim.tv_sec + 5, 0 } };

	fixture_init(&fx, 1 << 20);
	CHECK_EQ_INT(get(&fx, RAPIER_CODING_GZIP, fd1, &st1, &data, &len), 0);
	fd2 = make_file("b.txt", 20000, 3, &st2);   /* same inode and size, new content */
	CHECK_EQ_INT(futimens(fd2, later), 0);
	CHECK_EQ_INT(fstat(fd2, &st2), 0);
	CHECK_EQ_INT(get(&fx, RAPIER_CODING_GZIP, fd2, &st2, &data, &len), 0);
	CHECK(gunzips_to_file(data, len, fd2, 20000));
	CHECK(fx.cache.misses == 2 && fx.cache.hits == 0 && fx.cache.entries == 2);
	close(fd1);
	close(fd2);
	fixture_free(&fx);
}

/* The bound holds: the least recently used copies leave first; a copy larger than the bound is not kept. */
static void test_eviction(void)
{
	fixture_t fx;
	struct stat st[3];
	int fd[3];
	const char *data[3];
	size_t len[3], one;

	fd[0] = make_file("c0.txt", 30000, 4, &st[0]);
	fd[1] = make_file("c1.txt", 30000, 5, &st[1]);
	fd[2] = make_file("c2.txt", 30000, 6, &st[2]);
	fixture_init(&fx, 1 << 20);
	CHECK_EQ_INT(get(&fx, RAPIER_CODING_GZIP, fd[0], &st[0], &data[0], &len[0]), 0);
	one = len[0];
	fixture_free(&fx);

	/* Room for two copies (they are about the same size). */
	fixture_init(&fx, one * 2 + one / 2);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ_INT(get(&fx, RAPIER_CODING_GZIP, fd[i], &st[i], &data[i], &len[i]), 0);
		CHECK(gunzips_to_file(data[i], len[i], fd[i], 30000));
		if (i == 1) {
			/* c0 used again: c1 becomes the oldest. */
			CHECK_EQ_INT(get(&fx, RAPIER_CODING_GZIP, fd[0], &st[0], &data[0], &len[0]), 0);
			CHECK_EQ_INT(fx.cache.hits, 1);
		}
	}
	CHECK(fx.cache.entries == 2 && fx.cache.bytes <= fx.cache.max_bytes);
	CHECK_EQ_INT(get(&fx, RAPIER_CODING_GZIP, fd[0], &st[0], &data[0], &len[0]), 0);
	CHECK_EQ_INT(fx.cache.hits, 2);
	CHECK_EQ_INT(get(&fx, RAPIER_CODING_GZIP, fd[1], &st[1], &data[1], &len[1]), 0);
	CHECK_EQ_INT(fx.cache.hits, 2);   /* c1 was evicted */
	fixture_free(&fx);

	/* No cache: every call compresses into tmp. */
	fixture_init(&fx, 0);
	CHECK_EQ_INT(get(&fx, RAPIER_CODING_GZIP, fd[2], &st[2], &data[2], &len[2]), 0);
	CHECK(data[2] == fx.tmp.data && len[2] == fx.tmp.len && fx.cache.entries == 0);
	CHECK(gunzips_to_file(data[2], len[2], fd[2], 30000));
	fixture_free(&fx);
	for (int i = 0; i < 3; i++) {
		close(fd[i]);
	}
}

/* Many small files: the table grows, and every copy is still found. */
static void test_many_entries(void)
{
	fixture_t fx;
	struct stat st;
	const char *data;
	size_t len;
	int fd = make_file("d.txt", 2000, 7, &st);

	fixture_init(&fx, 64 << 20);
	for (int i = 0; i < 600; i++) {
		st.st_ino = (ino_t) (1000 + i);   /* 600 versions, each compressed from this file */
		CHECK_EQ_INT(get(&fx, RAPIER_CODING_GZIP, fd, &st, &data, &len), 0);
	}
	CHECK(fx.cache.entries == 600 && fx.cache.bucket_count >= 300);
	for (int i = 0; i < 600; i++) {
		st.st_ino = (ino_t) (1000 + i);
		CHECK_EQ_INT(get(&fx, RAPIER_CODING_GZIP, fd, &st, &data, &len), 0);
	}
	CHECK(fx.cache.hits == 600 && fx.cache.misses == 600);
	close(fd);
	fixture_free(&fx);
}

/* A file that shrank since its fstat() is not compressed: the caller sends it as it is. */
static void test_truncated(void)
{
	fixture_t fx;
	struct stat st;
	const char *data = NULL;
	size_t len = 0;
	int fd = make_file("e.txt", 10000, 8, &st);

	fixture_init(&fx, 1 << 20);
	CHECK_EQ_INT(ftruncate(fd, 4000), 0);
	CHECK_EQ_INT(get(&fx, RAPIER_CODING_GZIP, fd, &st, &data, &len), -EAGAIN);
	CHECK(fx.cache.entries == 0);
	close(fd);
	fixture_free(&fx);
}

int main(void)
{
	char cmd[96];

	strcpy(dir, "/tmp/rapier-zcache-XXXXXX");
	CHECK(mkdtemp(dir) != NULL);
	test_hit_and_codings();
	test_new_version();
	test_eviction();
	test_many_entries();
	test_truncated();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK_EQ_INT(system(cmd), 0);
	return unit_finish("http_file_cache_test");
}
