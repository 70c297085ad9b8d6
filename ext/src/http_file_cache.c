/*
 * Rapier compressed files and their per-worker cache.
 *
 * A chained hash table over the keys and a list in order of use. The
 * table doubles when it holds twice as many entries as buckets, so a
 * lookup stays a short walk whatever the number of small files. Entries
 * are stored at their exact size (the encoder's buffer grows by
 * doubling), so the bound counts what is really held.
 *
 * Reading and compressing happen in the worker's loop, as sendfile() does
 * for a file sent as it is: a static file is on local disk, and usually
 * in the page cache. The size bound on what is compressed on the fly
 * (static_compress_max_size) keeps one such pause short.
 */
#include "http_file_cache.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
	rapier_file_version_t version;
	rapier_coding_t coding;
} file_key_t;

struct rapier_file_cache_entry_s {
	rapier_file_cache_entry_t *next;   /* in its bucket */
	rapier_list_node_t use;            /* in cache->lru */
	file_key_t key;
	uint64_t hash;
	size_t len;
	char data[];
};

#define INITIAL_BUCKETS 64

static file_key_t key_of(const rapier_file_version_t *version, rapier_coding_t coding)
{
	return (file_key_t) { *version, coding };
}

static bool key_equal(const file_key_t *a, const file_key_t *b)
{
	const rapier_file_version_t *x = &a->version, *y = &b->version;

	return x->ino == y->ino && x->dev == y->dev && x->size == y->size && x->mtime == y->mtime
		&& x->mtime_nsec == y->mtime_nsec && a->coding == b->coding;
}

/* A 64-bit mix of each field (splitmix64's finaliser), chained. */
static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebULL;
	return h ^ (h >> 31);
}

static uint64_t key_hash(const file_key_t *key)
{
	const rapier_file_version_t *v = &key->version;
	uint64_t h = mix(0, v->ino);

	h = mix(h, v->dev);
	h = mix(h, v->size);
	h = mix(h, (uint64_t) v->mtime);
	h = mix(h, (uint64_t) v->mtime_nsec);
	return mix(h, (uint64_t) key->coding);
}

void rapier_file_cache_init(rapier_file_cache_t *cache, size_t max_bytes)
{
	memset(cache, 0, sizeof(*cache));
	cache->max_bytes = max_bytes;
}

void rapier_file_cache_free(rapier_file_cache_t *cache)
{
	rapier_list_node_t *node;

	while ((node = rapier_list_shift(&cache->lru)) != NULL) {
		free(RAPIER_LIST_ENTRY(node, rapier_file_cache_entry_t, use));
	}
	free(cache->buckets);
	rapier_file_cache_init(cache, cache->max_bytes);
}

static rapier_file_cache_entry_t **bucket_of(const rapier_file_cache_t *cache, uint64_t hash)
{
	return &cache->buckets[hash & (cache->bucket_count - 1)];
}

static rapier_file_cache_entry_t *lookup(rapier_file_cache_t *cache, const file_key_t *key, uint64_t hash)
{
	if (cache->bucket_count == 0) {
		return NULL;
	}
	for (rapier_file_cache_entry_t *e = *bucket_of(cache, hash); e; e = e->next) {
		if (e->hash == hash && key_equal(&e->key, key)) {
			return e;
		}
	}
	return NULL;
}

static void unlink_entry(rapier_file_cache_t *cache, rapier_file_cache_entry_t *entry)
{
	rapier_file_cache_entry_t **link = bucket_of(cache, entry->hash);

	while (*link != entry) {
		link = &(*link)->next;
	}
	*link = entry->next;
	rapier_list_remove(&cache->lru, &entry->use);
	cache->entries--;
	cache->bytes -= entry->len;
	free(entry);
}

/* Doubles the table; on no memory the chains just grow longer. */
static void grow(rapier_file_cache_t *cache)
{
	size_t count = cache->bucket_count ? cache->bucket_count * 2 : INITIAL_BUCKETS;
	rapier_file_cache_entry_t **buckets = calloc(count, sizeof(*buckets));

	if (buckets == NULL) {
		return;
	}
	for (size_t i = 0; i < cache->bucket_count; i++) {
		rapier_file_cache_entry_t *e = cache->buckets[i], *next;
		for (; e; e = next) {
			next = e->next;
			e->next = buckets[e->hash & (count - 1)];
			buckets[e->hash & (count - 1)] = e;
		}
	}
	free(cache->buckets);
	cache->buckets = buckets;
	cache->bucket_count = count;
}

/* Keeps a copy of data when it fits the bound; returns the entry, or NULL when it is not kept. */
static rapier_file_cache_entry_t *keep(rapier_file_cache_t *cache, const file_key_t *key, uint64_t hash,
	const char *data, size_t len)
{
	rapier_file_cache_entry_t *entry;

	if (len > cache->max_bytes) {
		return NULL;
	}
	if (cache->entries >= cache->bucket_count * 2) {
		grow(cache);
		if (cache->bucket_count == 0) {
			return NULL;
		}
	}
	while (cache->bytes + len > cache->max_bytes) {
		unlink_entry(cache, RAPIER_LIST_ENTRY(cache->lru.head, rapier_file_cache_entry_t, use));
	}
	entry = malloc(sizeof(*entry) + len);
	if (entry == NULL) {
		return NULL;
	}
	memset(entry, 0, sizeof(*entry));
	entry->key = *key;
	entry->hash = hash;
	entry->len = len;
	memcpy(entry->data, data, len);
	entry->next = *bucket_of(cache, hash);
	*bucket_of(cache, hash) = entry;
	rapier_list_push(&cache->lru, &entry->use);
	cache->entries++;
	cache->bytes += len;
	return entry;
}

/* The whole file, size bytes from offset 0; -EAGAIN when it holds fewer (it was truncated meanwhile). */
static int read_whole(int fd, char *buf, size_t size)
{
	size_t got = 0;

	while (got < size) {
		ssize_t n = pread(fd, buf + got, size - got, (off_t) got);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n < 0) {
			return -errno;
		}
		if (n == 0) {
			return -EAGAIN;
		}
		got += (size_t) n;
	}
	return 0;
}

static int compress_file(rapier_encoder_pool_t *pool, rapier_coding_t coding, int fd, size_t size,
	rapier_http_buf_t *out)
{
	rapier_encoder_t *enc;
	char *raw = malloc(size ? size : 1);
	int rc;

	if (raw == NULL) {
		return -ENOMEM;
	}
	if ((rc = read_whole(fd, raw, size)) == 0) {
		enc = rapier_encoder_pool_get(pool, coding);
		rc = enc ? rapier_encoder_compress(enc, raw, size, out) : -ENOMEM;
		if (enc) {
			rapier_encoder_pool_put(pool, enc);
		}
	}
	free(raw);
	return rc;
}

int rapier_file_cache_get(rapier_file_cache_t *cache, rapier_encoder_pool_t *pool, rapier_coding_t coding,
	int fd, const rapier_file_version_t *version, rapier_http_buf_t *tmp, const char **data, size_t *len)
{
	file_key_t key = key_of(version, coding);
	uint64_t hash = key_hash(&key);
	rapier_file_cache_entry_t *entry = lookup(cache, &key, hash);
	int rc;

	if (entry) {
		rapier_list_remove(&cache->lru, &entry->use);
		rapier_list_push(&cache->lru, &entry->use);
		cache->hits++;
		*data = entry->data;
		*len = entry->len;
		return 0;
	}
	cache->misses++;
	if (version->size > SIZE_MAX / 2) {
		return -EFBIG;
	}
	if ((rc = compress_file(pool, coding, fd, (size_t) version->size, tmp)) < 0) {
		return rc;
	}
	entry = keep(cache, &key, hash, tmp->data, tmp->len);
	*data = entry ? entry->data : tmp->data;
	*len = entry ? entry->len : tmp->len;
	return 0;
}
