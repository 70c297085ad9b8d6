/*
 * Rapier tables: see table.h.
 *
 * The mapping holds, in order: the header, the stripe locks, the bucket
 * heads and the slots. A slot is a row: its chain link, key, hash and
 * values. Chains and the free list link slots by index + 1 (0 ends), so
 * the mapping may sit at a different address in each process.
 *
 * Slots are handed out from a high-water mark before the free list is
 * used, so a large table costs resident memory only as rows fill it.
 */
#include "table.h"

#include <errno.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

/* Buckets per lock stripe grow with the table; the lock count stays small. */
#define TABLE_LOCKS_MAX 1024

struct rapier_table_shm_s {
	uint64_t seed;            /* per table: keys' buckets cannot be chosen from outside */
	uint32_t rows;
	uint32_t bucket_mask;     /* buckets - 1, a power of two */
	uint32_t lock_mask;       /* locks - 1, a power of two, at most bucket_mask */
	uint32_t count;           /* rows in use; atomic */
	uint32_t high;            /* slots ever handed out; atomic, written under free_lock */
	uint32_t free_head;       /* recycled slots, under free_lock */
	pthread_mutex_t free_lock;
};

typedef struct {
	uint32_t next;            /* chain, or free list */
	uint32_t hash;            /* atomic: read unlocked by rapier_table_next() */
	uint8_t used;             /* atomic: linked into its chain */
	uint8_t key_len;
	char key[RAPIER_TABLE_KEY_MAX];
} table_slot_t;

#define TABLE_SLOT_VALUES ((sizeof(table_slot_t) + 7) & ~(size_t) 7)

static size_t align8(size_t n)
{
	return (n + 7) & ~(size_t) 7;
}

static pthread_mutex_t *table_locks(const rapier_table_t *t)
{
	return (pthread_mutex_t *) ((char *) t->shm + align8(sizeof(rapier_table_shm_t)));
}

static uint32_t *table_buckets(const rapier_table_t *t)
{
	return (uint32_t *) (table_locks(t) + t->shm->lock_mask + 1);
}

static table_slot_t *table_slot(const rapier_table_t *t, uint32_t index)
{
	char *slots = (char *) t->shm + t->map_len - (size_t) t->shm->rows * t->slot_size;

	return (table_slot_t *) (slots + (size_t) index * t->slot_size);
}

static char *slot_values(table_slot_t *slot)
{
	return (char *) slot + TABLE_SLOT_VALUES;
}

static uint32_t slot_index(const rapier_table_t *t, const table_slot_t *slot)
{
	return (uint32_t) (((const char *) slot - (const char *) table_slot(t, 0)) / t->slot_size);
}

/*
 * FNV-1a over the seed and the key, then a 64-bit finalizer so that every
 * bit of the hash reaches the low bits that pick a bucket.
 */
static uint32_t table_hash(const rapier_table_t *t, const char *key, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ t->shm->seed;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char) key[i];
		h *= 0x100000001b3ULL;
	}
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return (uint32_t) h;
}

static int mutex_init_shared(pthread_mutex_t *m)
{
	pthread_mutexattr_t attr;
	int rc;

	if ((rc = pthread_mutexattr_init(&attr)) != 0) {
		return rc;
	}
	rc = pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
	if (rc == 0) {
		rc = pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST);
	}
	if (rc == 0) {
		rc = pthread_mutex_init(m, &attr);
	}
	pthread_mutexattr_destroy(&attr);
	return rc;
}

/*
 * A holder that died mid-operation left every chain whole (see
 * rapier_table_set() and rapier_table_delete()), so the next one goes on.
 */
static void table_lock(pthread_mutex_t *m)
{
	if (pthread_mutex_lock(m) == EOWNERDEAD) {
		pthread_mutex_consistent(m);
	}
}

static void table_unlock(pthread_mutex_t *m)
{
	pthread_mutex_unlock(m);
}

static pthread_mutex_t *stripe_lock(const rapier_table_t *t, uint32_t hash)
{
	return &table_locks(t)[hash & t->shm->lock_mask];
}

static uint64_t table_seed(void)
{
	uint64_t seed;
	struct timespec now;

	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) == (ssize_t) sizeof(seed)) {
		return seed;
	}
	clock_gettime(CLOCK_REALTIME, &now);
	return ((uint64_t) now.tv_nsec << 32) ^ (uint64_t) now.tv_sec ^ ((uint64_t) getpid() << 16);
}

/* Sets offsets; returns the values' size, or 0 for a bad layout. */
static uint32_t table_layout(rapier_table_column_t *columns, uint32_t count)
{
	uint64_t offset = 0;
	uint32_t i;

	if (count == 0 || count > RAPIER_TABLE_COLUMNS_MAX) {
		return 0;
	}
	for (i = 0; i < count; i++) {
		columns[i].offset = (uint32_t) offset;
		if (columns[i].type == RAPIER_TABLE_STRING) {
			if (columns[i].size == 0 || columns[i].size > RAPIER_TABLE_STRING_MAX) {
				return 0;
			}
			offset = align8(offset + sizeof(uint32_t) + columns[i].size);
		} else {
			offset += sizeof(rapier_table_number_t);
		}
	}
	return (uint32_t) offset;
}

static uint32_t pow2_at_least(uint32_t n)
{
	uint32_t p = 1;

	while (p < n) {
		p <<= 1;
	}
	return p;
}

int rapier_table_create(rapier_table_t *t, uint32_t rows, rapier_table_column_t *columns, uint32_t column_count)
{
	uint32_t values_size = table_layout(columns, column_count);
	uint32_t buckets, locks, i;
	size_t head, len;
	rapier_table_shm_t *shm;
	int rc;

	memset(t, 0, sizeof(*t));
	if (values_size == 0 || rows == 0 || rows > RAPIER_TABLE_ROWS_MAX) {
		return -EINVAL;
	}
	buckets = pow2_at_least(rows);
	locks = buckets < TABLE_LOCKS_MAX ? buckets : TABLE_LOCKS_MAX;
	t->slot_size = align8(TABLE_SLOT_VALUES + values_size);
	head = align8(sizeof(rapier_table_shm_t)) + (size_t) locks * sizeof(pthread_mutex_t);
	head = align8(head + (size_t) buckets * sizeof(uint32_t));
	len = head + (size_t) rows * t->slot_size;

	shm = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shm == MAP_FAILED) {
		return -errno;
	}
	/* The mapping starts zeroed: every bucket is empty, count and high 0. */
	t->shm = shm;
	t->map_len = len;
	t->columns = columns;
	t->column_count = column_count;
	t->values_size = values_size;
	shm->seed = table_seed();
	shm->rows = rows;
	shm->bucket_mask = buckets - 1;
	shm->lock_mask = locks - 1;
	rc = mutex_init_shared(&shm->free_lock);
	for (i = 0; rc == 0 && i < locks; i++) {
		rc = mutex_init_shared(&table_locks(t)[i]);
	}
	if (rc != 0) {
		rapier_table_destroy(t);
		return -rc;
	}
	return 0;
}

void rapier_table_destroy(rapier_table_t *t)
{
	if (t->shm != NULL) {
		munmap(t->shm, t->map_len);
		t->shm = NULL;
	}
}

size_t rapier_table_memory_size(const rapier_table_t *t)
{
	return t->map_len;
}

uint32_t rapier_table_rows(const rapier_table_t *t)
{
	return t->shm->rows;
}

uint32_t rapier_table_count(const rapier_table_t *t)
{
	return __atomic_load_n(&t->shm->count, __ATOMIC_RELAXED);
}

/*
 * Under the stripe lock of hash: the row of key, or NULL. With link, *link
 * is what points at the row found (rapier_table_delete() unlinks it there).
 */
static table_slot_t *chain_find(const rapier_table_t *t, uint32_t hash, const char *key, size_t key_len, uint32_t **link)
{
	uint32_t *at = &table_buckets(t)[hash & t->shm->bucket_mask];

	while (*at != 0) {
		table_slot_t *slot = table_slot(t, *at - 1);

		if (slot->hash == hash && slot->key_len == key_len && memcmp(slot->key, key, key_len) == 0) {
			break;
		}
		at = &slot->next;
	}
	if (link != NULL) {
		*link = at;
	}
	return *at != 0 ? table_slot(t, *at - 1) : NULL;
}

/* Takes a slot: a recycled one, else the next never used; NULL when full. */
static table_slot_t *slot_alloc(rapier_table_t *t)
{
	rapier_table_shm_t *shm = t->shm;
	table_slot_t *slot = NULL;

	table_lock(&shm->free_lock);
	if (shm->free_head != 0) {
		slot = table_slot(t, shm->free_head - 1);
		shm->free_head = slot->next;
	} else if (shm->high < shm->rows) {
		slot = table_slot(t, shm->high);
		__atomic_store_n(&shm->high, shm->high + 1, __ATOMIC_RELEASE);
	}
	table_unlock(&shm->free_lock);
	return slot;
}

static void slot_free(rapier_table_t *t, table_slot_t *slot)
{
	rapier_table_shm_t *shm = t->shm;

	table_lock(&shm->free_lock);
	slot->next = shm->free_head;
	shm->free_head = slot_index(t, slot) + 1;
	table_unlock(&shm->free_lock);
}

static void copy_column(const rapier_table_t *t, char *to, const char *from, uint32_t col)
{
	const rapier_table_column_t *c = &t->columns[col];
	uint32_t len;

	if (c->type != RAPIER_TABLE_STRING) {
		memcpy(to + c->offset, from + c->offset, sizeof(rapier_table_number_t));
		return;
	}
	/* Only the bytes in use: a string column may be large and mostly empty. */
	memcpy(&len, from + c->offset, sizeof(len));
	memcpy(to + c->offset, from + c->offset, sizeof(len) + len);
}

static void zero_column(const rapier_table_t *t, char *values, uint32_t col)
{
	const rapier_table_column_t *c = &t->columns[col];

	memset(values + c->offset, 0, c->type == RAPIER_TABLE_STRING ? sizeof(uint32_t) : sizeof(rapier_table_number_t));
}

static void copy_row(const rapier_table_t *t, char *to, const char *from)
{
	uint32_t col;

	for (col = 0; col < t->column_count; col++) {
		copy_column(t, to, from, col);
	}
}

/*
 * Under the stripe lock: a new row for key, linked at the head of its
 * chain. It is filled, then linked, then marked used: a holder that dies
 * before the link leaks one slot, after it leaves a row lookups find.
 */
static table_slot_t *row_insert(rapier_table_t *t, uint32_t hash, const char *key, size_t key_len)
{
	uint32_t *head = &table_buckets(t)[hash & t->shm->bucket_mask];
	table_slot_t *slot = slot_alloc(t);
	uint32_t col;

	if (slot == NULL) {
		return NULL;
	}
	slot->key_len = (uint8_t) key_len;
	memcpy(slot->key, key, key_len);
	__atomic_store_n(&slot->hash, hash, __ATOMIC_RELAXED);
	for (col = 0; col < t->column_count; col++) {
		zero_column(t, slot_values(slot), col);
	}
	slot->next = *head;
	*head = slot_index(t, slot) + 1;
	/* Release: rapier_table_next() that sees used also sees hash. */
	__atomic_store_n(&slot->used, 1, __ATOMIC_RELEASE);
	__atomic_add_fetch(&t->shm->count, 1, __ATOMIC_RELAXED);
	return slot;
}

/* Under the stripe lock: the row of key, made if there is none; NULL when the table is full. */
static table_slot_t *row_find_or_insert(rapier_table_t *t, uint32_t hash, const char *key, size_t key_len)
{
	table_slot_t *slot = chain_find(t, hash, key, key_len, NULL);

	return slot != NULL ? slot : row_insert(t, hash, key, key_len);
}

rapier_table_status_t rapier_table_get(rapier_table_t *t, const char *key, size_t key_len, void *image)
{
	uint32_t hash = table_hash(t, key, key_len);
	pthread_mutex_t *lock = stripe_lock(t, hash);
	table_slot_t *slot;

	table_lock(lock);
	slot = chain_find(t, hash, key, key_len, NULL);
	if (slot != NULL && image != NULL) {
		copy_row(t, image, slot_values(slot));
	}
	table_unlock(lock);
	return slot != NULL ? RAPIER_TABLE_OK : RAPIER_TABLE_NOT_FOUND;
}

static void row_write(const rapier_table_t *t, table_slot_t *slot, const void *image, uint64_t columns_mask)
{
	uint32_t col;

	for (col = 0; col < t->column_count; col++) {
		if (columns_mask & ((uint64_t) 1 << col)) {
			copy_column(t, slot_values(slot), image, col);
		}
	}
}

/* Whether the row holds what `expected` has in the columns of the mask. */
static bool row_matches(const rapier_table_t *t, table_slot_t *slot, const char *expected, uint64_t expected_mask)
{
	const char *values = slot_values(slot);
	uint32_t col;

	for (col = 0; col < t->column_count; col++) {
		const rapier_table_column_t *c = &t->columns[col];
		size_t len = sizeof(rapier_table_number_t);

		if (!(expected_mask & ((uint64_t) 1 << col))) {
			continue;
		}
		if (c->type == RAPIER_TABLE_STRING) {
			uint32_t slen;

			/* The length first: equal lengths bound the bytes compared next. */
			memcpy(&slen, expected + c->offset, sizeof(slen));
			len = sizeof(slen) + slen;
		}
		if (memcmp(values + c->offset, expected + c->offset, len) != 0) {
			return false;
		}
	}
	return true;
}

rapier_table_status_t rapier_table_set(rapier_table_t *t, const char *key, size_t key_len, const void *image, uint64_t columns_mask)
{
	uint32_t hash = table_hash(t, key, key_len);
	pthread_mutex_t *lock = stripe_lock(t, hash);
	table_slot_t *slot;

	table_lock(lock);
	slot = row_find_or_insert(t, hash, key, key_len);
	if (slot != NULL) {
		row_write(t, slot, image, columns_mask);
	}
	table_unlock(lock);
	return slot != NULL ? RAPIER_TABLE_OK : RAPIER_TABLE_FULL;
}

rapier_table_status_t rapier_table_add(rapier_table_t *t, const char *key, size_t key_len, const void *image, uint64_t columns_mask)
{
	uint32_t hash = table_hash(t, key, key_len);
	pthread_mutex_t *lock = stripe_lock(t, hash);
	rapier_table_status_t status = RAPIER_TABLE_EXISTS;
	table_slot_t *slot;

	table_lock(lock);
	if (chain_find(t, hash, key, key_len, NULL) == NULL) {
		slot = row_insert(t, hash, key, key_len);
		status = RAPIER_TABLE_FULL;
		if (slot != NULL) {
			row_write(t, slot, image, columns_mask);
			status = RAPIER_TABLE_OK;
		}
	}
	table_unlock(lock);
	return status;
}

rapier_table_status_t rapier_table_replace(rapier_table_t *t, const char *key, size_t key_len, const void *image,
	uint64_t columns_mask, const void *expected, uint64_t expected_mask)
{
	uint32_t hash = table_hash(t, key, key_len);
	pthread_mutex_t *lock = stripe_lock(t, hash);
	rapier_table_status_t status = RAPIER_TABLE_NOT_FOUND;
	table_slot_t *slot;

	table_lock(lock);
	slot = chain_find(t, hash, key, key_len, NULL);
	if (slot != NULL) {
		status = RAPIER_TABLE_MISMATCH;
		if (row_matches(t, slot, expected, expected_mask)) {
			row_write(t, slot, image, columns_mask);
			status = RAPIER_TABLE_OK;
		}
	}
	table_unlock(lock);
	return status;
}

static rapier_table_status_t number_add(const rapier_table_column_t *c, char *at, rapier_table_number_t by, rapier_table_number_t *result)
{
	rapier_table_number_t n;

	memcpy(&n, at, sizeof(n));
	if (c->type == RAPIER_TABLE_INT) {
		if (__builtin_add_overflow(n.i, by.i, &n.i)) {
			return RAPIER_TABLE_OVERFLOW;
		}
	} else {
		n.d += by.d;
	}
	memcpy(at, &n, sizeof(n));
	*result = n;
	return RAPIER_TABLE_OK;
}

rapier_table_status_t rapier_table_incr(rapier_table_t *t, const char *key, size_t key_len, uint32_t col,
	rapier_table_number_t by, rapier_table_number_t *result)
{
	uint32_t hash = table_hash(t, key, key_len);
	pthread_mutex_t *lock = stripe_lock(t, hash);
	rapier_table_status_t status = RAPIER_TABLE_FULL;
	table_slot_t *slot;

	table_lock(lock);
	slot = row_find_or_insert(t, hash, key, key_len);
	if (slot != NULL) {
		status = number_add(&t->columns[col], slot_values(slot) + t->columns[col].offset, by, result);
	}
	table_unlock(lock);
	return status;
}

/* Unlinked first, then marked unused, then freed: a death between leaks the slot. */
rapier_table_status_t rapier_table_delete(rapier_table_t *t, const char *key, size_t key_len,
	const void *expected, uint64_t expected_mask)
{
	uint32_t hash = table_hash(t, key, key_len);
	pthread_mutex_t *lock = stripe_lock(t, hash);
	rapier_table_status_t status = RAPIER_TABLE_NOT_FOUND;
	table_slot_t *slot;
	uint32_t *link;

	table_lock(lock);
	slot = chain_find(t, hash, key, key_len, &link);
	if (slot != NULL && !row_matches(t, slot, expected, expected_mask)) {
		status = RAPIER_TABLE_MISMATCH;
	} else if (slot != NULL) {
		*link = slot->next;
		__atomic_store_n(&slot->used, 0, __ATOMIC_RELEASE);
		__atomic_sub_fetch(&t->shm->count, 1, __ATOMIC_RELAXED);
		status = RAPIER_TABLE_OK;
	}
	table_unlock(lock);
	if (status == RAPIER_TABLE_OK) {
		slot_free(t, slot);
	}
	return status;
}

/*
 * A slot's used flag and hash are read without its lock to find the lock
 * to take, then checked again under it: meanwhile the row may have been
 * deleted, or the slot reused for a key under another lock.
 */
static bool slot_copy_if_used(rapier_table_t *t, table_slot_t *slot, char *key, size_t *key_len, void *image)
{
	uint32_t hash, lock_mask = t->shm->lock_mask;
	pthread_mutex_t *lock;
	bool copied = false;

	if (!__atomic_load_n(&slot->used, __ATOMIC_ACQUIRE)) {
		return false;
	}
	hash = __atomic_load_n(&slot->hash, __ATOMIC_RELAXED);
	lock = stripe_lock(t, hash);
	table_lock(lock);
	if (__atomic_load_n(&slot->used, __ATOMIC_ACQUIRE)
			&& (__atomic_load_n(&slot->hash, __ATOMIC_RELAXED) & lock_mask) == (hash & lock_mask)) {
		*key_len = slot->key_len;
		memcpy(key, slot->key, slot->key_len);
		copy_row(t, image, slot_values(slot));
		copied = true;
	}
	table_unlock(lock);
	return copied;
}

bool rapier_table_next(rapier_table_t *t, uint32_t *cursor, char *key, size_t *key_len, void *image)
{
	uint32_t high = __atomic_load_n(&t->shm->high, __ATOMIC_ACQUIRE);

	while (*cursor < high) {
		table_slot_t *slot = table_slot(t, (*cursor)++);

		if (slot_copy_if_used(t, slot, key, key_len, image)) {
			return true;
		}
	}
	return false;
}
