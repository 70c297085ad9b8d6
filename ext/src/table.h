/*
 * Rapier tables: a fixed-size hash table of typed rows in shared memory.
 *
 * The table lives in one MAP_SHARED anonymous mapping, so every process
 * forked after rapier_table_create() (the server's workers, task workers,
 * user processes) reads and writes the same rows. Processes coordinate
 * with process-shared robust mutexes: one per stripe of buckets, one for
 * the free list. A process killed while holding one leaves it to the next
 * locker (EOWNERDEAD), and every change to a chain is ordered so that a
 * chain is whole at each step; what such a death can cost is the row being
 * written (some of its columns new, some old) or one slot, never the table.
 *
 * Pure C, no PHP: the binding converts values; the unit test forks.
 */
#ifndef RAPIER_TABLE_H
#define RAPIER_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define RAPIER_TABLE_KEY_MAX 64
#define RAPIER_TABLE_COLUMNS_MAX 64
#define RAPIER_TABLE_STRING_MAX (1u << 20)
#define RAPIER_TABLE_ROWS_MAX (1u << 30)

typedef enum {
	RAPIER_TABLE_INT = 0,     /* int64_t */
	RAPIER_TABLE_FLOAT,       /* double */
	RAPIER_TABLE_STRING,      /* up to `size` bytes, binary-safe */
} rapier_table_type_t;

typedef struct {
	rapier_table_type_t type;
	uint32_t size;            /* STRING: the most bytes a value holds */
	uint32_t offset;          /* in a row's values; set by rapier_table_create() */
} rapier_table_column_t;

typedef enum {
	RAPIER_TABLE_OK = 0,
	RAPIER_TABLE_NOT_FOUND,
	RAPIER_TABLE_FULL,        /* every row is taken */
	RAPIER_TABLE_OVERFLOW,    /* an INT increment would overflow; the row is unchanged */
	RAPIER_TABLE_EXISTS,      /* rapier_table_add(): the key has a row */
	RAPIER_TABLE_MISMATCH,    /* the row is not as `expected` says; it is unchanged */
} rapier_table_status_t;

typedef union {
	int64_t i;
	double d;
} rapier_table_number_t;

typedef struct rapier_table_shm_s rapier_table_shm_t;

/* A process's handle on a table; after fork() the child's copy is its own. */
typedef struct {
	rapier_table_shm_t *shm;
	size_t map_len;
	const rapier_table_column_t *columns;  /* the caller's array, kept alive */
	uint32_t column_count;
	uint32_t values_size;     /* bytes of one row's values: see the image below */
	size_t slot_size;
} rapier_table_t;

/*
 * Sets each column's offset and maps a table of `rows` rows. Returns 0, or
 * -errno (-EINVAL for a bad layout, -ENOMEM when it cannot be mapped).
 */
int rapier_table_create(rapier_table_t *t, uint32_t rows, rapier_table_column_t *columns, uint32_t column_count);

/* Unmaps this process's view; other processes keep theirs. */
void rapier_table_destroy(rapier_table_t *t);

/* Bytes the mapping reserves (pages are only resident once rows use them). */
size_t rapier_table_memory_size(const rapier_table_t *t);

uint32_t rapier_table_rows(const rapier_table_t *t);
uint32_t rapier_table_count(const rapier_table_t *t);

/*
 * An image is a buffer of values_size bytes holding one row's values in
 * the table's layout: INT and FLOAT 8 bytes, STRING a 4-byte length then
 * its bytes. The accessors below are the only code that knows the layout.
 */
static inline void rapier_table_image_put_number(const rapier_table_t *t, void *image, uint32_t col, rapier_table_number_t n)
{
	memcpy((char *) image + t->columns[col].offset, &n, sizeof(n));
}

static inline rapier_table_number_t rapier_table_image_number(const rapier_table_t *t, const void *image, uint32_t col)
{
	rapier_table_number_t n;

	memcpy(&n, (const char *) image + t->columns[col].offset, sizeof(n));
	return n;
}

/* len must not pass the column's size: the binding checks it first. */
static inline void rapier_table_image_put_string(const rapier_table_t *t, void *image, uint32_t col, const char *s, uint32_t len)
{
	char *at = (char *) image + t->columns[col].offset;

	memcpy(at, &len, sizeof(len));
	memcpy(at + sizeof(len), s, len);
}

static inline const char *rapier_table_image_string(const rapier_table_t *t, const void *image, uint32_t col, uint32_t *len)
{
	const char *at = (const char *) image + t->columns[col].offset;

	memcpy(len, at, sizeof(*len));
	return at + sizeof(*len);
}

/*
 * Copies the row of `key` into image (NULL: only checks it is there).
 * Keys are 1 to RAPIER_TABLE_KEY_MAX bytes; the binding checks.
 */
rapier_table_status_t rapier_table_get(rapier_table_t *t, const char *key, size_t key_len, void *image);

/*
 * Writes the columns whose bit is set in `columns_mask` from image into the
 * row of `key`, creating the row (its other columns 0 or empty) if needed.
 */
rapier_table_status_t rapier_table_set(rapier_table_t *t, const char *key, size_t key_len, const void *image, uint64_t columns_mask);

/*
 * Adds `by` to a number column of the row of `key` (created if needed) and
 * stores the new value in *result: one step, whoever else adds at once.
 */
rapier_table_status_t rapier_table_incr(rapier_table_t *t, const char *key, size_t key_len, uint32_t col,
	rapier_table_number_t by, rapier_table_number_t *result);

/*
 * Conditional writes, each one step under the row's lock: what a caller
 * read with rapier_table_get() is still there when it writes, or nothing
 * is written. `expected` is an image whose columns in `expected_mask` the
 * row must hold, compared byte for byte (a float by its bits); with a mask
 * of 0 any row matches.
 */

/* rapier_table_set() of a new row only: RAPIER_TABLE_EXISTS if the key has one. */
rapier_table_status_t rapier_table_add(rapier_table_t *t, const char *key, size_t key_len, const void *image, uint64_t columns_mask);

/* rapier_table_set() of an existing row that matches: NOT_FOUND or MISMATCH otherwise. */
rapier_table_status_t rapier_table_replace(rapier_table_t *t, const char *key, size_t key_len, const void *image,
	uint64_t columns_mask, const void *expected, uint64_t expected_mask);

/* Removes the row of `key` if it matches: NOT_FOUND or MISMATCH otherwise. */
rapier_table_status_t rapier_table_delete(rapier_table_t *t, const char *key, size_t key_len,
	const void *expected, uint64_t expected_mask);

/*
 * Iteration: copies the next row at or after slot *cursor into key (of
 * RAPIER_TABLE_KEY_MAX bytes), *key_len and image, and moves *cursor past
 * it. Returns false at the end. Each row is copied whole; rows set or
 * deleted meanwhile may or may not be seen.
 */
bool rapier_table_next(rapier_table_t *t, uint32_t *cursor, char *key, size_t *key_len, void *image);

#endif
