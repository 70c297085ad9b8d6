/*
 * Rapier compressed files: a static file compressed on the fly for a
 * request that accepts a coding, and a per-worker cache of those copies
 * so that a file served many times is compressed once per coding.
 *
 * An entry is keyed by what identifies one version of a file: device,
 * inode, size and modification time (to the nanosecond), and the coding.
 * A file that changes gets a new key; its old copies are never looked up
 * again and leave as the least recently used. The cache is bounded by
 * the compressed bytes it holds.
 *
 * Engine code: no PHP headers. Functions return 0 or a negative errno.
 */
#ifndef RAPIER_HTTP_FILE_CACHE_H
#define RAPIER_HTTP_FILE_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "http_compress.h"
#include "http_response.h"
#include "list.h"

/* Files larger than this are sent as they are: compressing one holds the worker's loop. */
#define RAPIER_FILE_COMPRESS_DEFAULT_MAX_SIZE ((uint64_t) 4 << 20)
/* Compressed bytes kept per worker; about 64 MiB of text files at the usual ratios. */
#define RAPIER_FILE_CACHE_DEFAULT_MAX_BYTES ((size_t) 16 << 20)

/* One version of a file: what changes when it is replaced or written. */
typedef struct rapier_file_version_s {
	uint64_t dev;
	uint64_t ino;
	uint64_t size;
	int64_t mtime;
	long mtime_nsec;
} rapier_file_version_t;

static inline rapier_file_version_t rapier_file_version_of(const struct stat *st)
{
	return (rapier_file_version_t) {
		(uint64_t) st->st_dev, (uint64_t) st->st_ino, (uint64_t) st->st_size,
		(int64_t) st->st_mtim.tv_sec, st->st_mtim.tv_nsec,
	};
}

typedef struct rapier_file_cache_entry_s rapier_file_cache_entry_t;

typedef struct rapier_file_cache_s {
	rapier_file_cache_entry_t **buckets;
	size_t bucket_count;           /* a power of two, or 0 before the first entry */
	size_t entries;
	size_t bytes;                  /* compressed bytes held */
	size_t max_bytes;              /* 0: nothing is kept, every request compresses */
	rapier_list_t lru;             /* least recently used first */
	uint64_t hits;
	uint64_t misses;
} rapier_file_cache_t;

void rapier_file_cache_init(rapier_file_cache_t *cache, size_t max_bytes);
void rapier_file_cache_free(rapier_file_cache_t *cache);

/*
 * The file open as fd, at version, compressed with coding. On a hit *data
 * points into the cache and stays valid until the next call on it, and tmp
 * is left empty. On a miss the file is read (version->size bytes, from
 * offset 0) and compressed with an encoder of pool into tmp, and a copy is
 * kept when it fits the bound (evicting the least recently used); *data
 * points to either. The caller frees tmp either way. Returns 0, -EAGAIN when the file no longer
 * has that size (it changed under us: send it as it is), -ENOMEM, or the
 * read's or encoder's error.
 */
int rapier_file_cache_get(rapier_file_cache_t *cache, rapier_encoder_pool_t *pool, rapier_coding_t coding,
	int fd, const rapier_file_version_t *version, rapier_http_buf_t *tmp, const char **data, size_t *len);

#endif
