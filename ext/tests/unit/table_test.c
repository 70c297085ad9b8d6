/* Unit tests for the shared-memory table: rows, limits, iteration, and processes sharing it. */
#include "unit.h"

#include <sys/wait.h>

#include "table.c"

enum { COL_HITS, COL_SCORE, COL_NAME, COLUMNS };

static rapier_table_column_t columns[COLUMNS];

static int make(rapier_table_t *t, uint32_t rows)
{
	columns[COL_HITS] = (rapier_table_column_t) { RAPIER_TABLE_INT, 0, 0 };
	columns[COL_SCORE] = (rapier_table_column_t) { RAPIER_TABLE_FLOAT, 0, 0 };
	columns[COL_NAME] = (rapier_table_column_t) { RAPIER_TABLE_STRING, 10, 0 };
	return rapier_table_create(t, rows, columns, COLUMNS);
}

static int64_t hits_of(rapier_table_t *t, const char *key)
{
	char image[64];

	if (rapier_table_get(t, key, strlen(key), image) != RAPIER_TABLE_OK) {
		return -1;
	}
	return rapier_table_image_number(t, image, COL_HITS).i;
}

static rapier_table_status_t set_hits(rapier_table_t *t, const char *key, int64_t hits)
{
	char image[64];

	rapier_table_image_put_number(t, image, COL_HITS, (rapier_table_number_t) { .i = hits });
	return rapier_table_set(t, key, strlen(key), image, 1u << COL_HITS);
}

static void test_layouts(void)
{
	rapier_table_column_t bad[2] = { { RAPIER_TABLE_STRING, 0, 0 }, { RAPIER_TABLE_INT, 0, 0 } };
	rapier_table_t t;

	CHECK_EQ_INT(rapier_table_create(&t, 10, bad, 2), -EINVAL);
	bad[0].size = RAPIER_TABLE_STRING_MAX + 1;
	CHECK_EQ_INT(rapier_table_create(&t, 10, bad, 2), -EINVAL);
	bad[0].size = 3;
	CHECK_EQ_INT(rapier_table_create(&t, 10, bad, 0), -EINVAL);
	CHECK_EQ_INT(rapier_table_create(&t, 0, bad, 2), -EINVAL);
	CHECK_EQ_INT(rapier_table_create(&t, RAPIER_TABLE_ROWS_MAX + 1, bad, 2), -EINVAL);
	CHECK_EQ_INT(rapier_table_create(&t, 10, bad, 2), 0);
	/* A string's length and bytes, rounded up to 8, then the number. */
	CHECK_EQ_INT(bad[0].offset, 0);
	CHECK_EQ_INT(bad[1].offset, 8);
	CHECK_EQ_INT(t.values_size, 16);
	rapier_table_destroy(&t);
	CHECK(t.shm == NULL);
}

static void test_rows(void)
{
	rapier_table_t t;
	char image[64];
	const char *s;
	uint32_t len;

	CHECK_EQ_INT(make(&t, 8), 0);
	CHECK_EQ_INT(rapier_table_rows(&t), 8);
	CHECK_EQ_INT(rapier_table_count(&t), 0);
	CHECK_EQ_INT(rapier_table_get(&t, "a", 1, NULL), RAPIER_TABLE_NOT_FOUND);

	/* A new row: the columns not written are 0 and empty. */
	CHECK_EQ_INT(set_hits(&t, "a", 5), RAPIER_TABLE_OK);
	CHECK_EQ_INT(rapier_table_get(&t, "a", 1, image), RAPIER_TABLE_OK);
	CHECK_EQ_INT(rapier_table_image_number(&t, image, COL_HITS).i, 5);
	CHECK(rapier_table_image_number(&t, image, COL_SCORE).d == 0.0);
	rapier_table_image_string(&t, image, COL_NAME, &len);
	CHECK_EQ_INT(len, 0);
	CHECK_EQ_INT(rapier_table_count(&t), 1);

	/* Writing some columns leaves the others as they were. */
	rapier_table_image_put_string(&t, image, COL_NAME, "alice\0bob", 9);
	rapier_table_image_put_number(&t, image, COL_HITS, (rapier_table_number_t) { .i = 99 });
	CHECK_EQ_INT(rapier_table_set(&t, "a", 1, image, 1u << COL_NAME), RAPIER_TABLE_OK);
	memset(image, 0x55, sizeof(image));
	CHECK_EQ_INT(rapier_table_get(&t, "a", 1, image), RAPIER_TABLE_OK);
	CHECK_EQ_INT(rapier_table_image_number(&t, image, COL_HITS).i, 5);
	s = rapier_table_image_string(&t, image, COL_NAME, &len);
	CHECK_EQ_INT(len, 9);
	CHECK(memcmp(s, "alice\0bob", 9) == 0);
	CHECK_EQ_INT(rapier_table_count(&t), 1);

	/* Keys are bytes: "a" and "a\0" differ, and so does the longest key. */
	CHECK_EQ_INT(rapier_table_get(&t, "a\0", 2, NULL), RAPIER_TABLE_NOT_FOUND);
	{
		char key[RAPIER_TABLE_KEY_MAX];

		memset(key, 'k', sizeof(key));
		CHECK_EQ_INT(rapier_table_set(&t, key, sizeof(key), image, 0), RAPIER_TABLE_OK);
		CHECK_EQ_INT(rapier_table_get(&t, key, sizeof(key), NULL), RAPIER_TABLE_OK);
		CHECK_EQ_INT(rapier_table_get(&t, key, sizeof(key) - 1, NULL), RAPIER_TABLE_NOT_FOUND);
	}

	CHECK_EQ_INT(rapier_table_delete(&t, "a", 1, NULL, 0), RAPIER_TABLE_OK);
	CHECK_EQ_INT(rapier_table_delete(&t, "a", 1, NULL, 0), RAPIER_TABLE_NOT_FOUND);
	CHECK_EQ_INT(rapier_table_get(&t, "a", 1, NULL), RAPIER_TABLE_NOT_FOUND);
	CHECK_EQ_INT(rapier_table_count(&t), 1);
	rapier_table_destroy(&t);
}

static void test_full_and_reuse(void)
{
	rapier_table_t t;
	char key[32];
	int i;

	CHECK_EQ_INT(make(&t, 3), 0);
	for (i = 0; i < 3; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		CHECK_EQ_INT(set_hits(&t, key, i), RAPIER_TABLE_OK);
	}
	CHECK_EQ_INT(set_hits(&t, "k3", 3), RAPIER_TABLE_FULL);
	CHECK_EQ_INT(rapier_table_get(&t, "k3", 2, NULL), RAPIER_TABLE_NOT_FOUND);
	/* An existing row is still written when the table is full. */
	CHECK_EQ_INT(set_hits(&t, "k1", 10), RAPIER_TABLE_OK);
	CHECK_EQ_INT(hits_of(&t, "k1"), 10);
	{
		rapier_table_number_t by = { .i = 1 }, result;

		CHECK_EQ_INT(rapier_table_incr(&t, "k9", 2, COL_HITS, by, &result), RAPIER_TABLE_FULL);
	}
	/* A deleted row's slot serves the next new key, again and again. */
	CHECK_EQ_INT(rapier_table_delete(&t, "k0", 2, NULL, 0), RAPIER_TABLE_OK);
	for (i = 0; i < 100; i++) {
		snprintf(key, sizeof(key), "n%d", i);
		CHECK_EQ_INT(set_hits(&t, key, i), RAPIER_TABLE_OK);
		if (i < 99) {
			CHECK_EQ_INT(rapier_table_delete(&t, key, strlen(key), NULL, 0), RAPIER_TABLE_OK);
		}
	}
	CHECK_EQ_INT(rapier_table_count(&t), 3);
	CHECK_EQ_INT(hits_of(&t, "n99"), 99);
	CHECK_EQ_INT(t.shm->high, 3);
	rapier_table_destroy(&t);
}

static void test_incr(void)
{
	rapier_table_t t;
	rapier_table_number_t result = { .i = 0 };

	CHECK_EQ_INT(make(&t, 4), 0);
	CHECK_EQ_INT(rapier_table_incr(&t, "c", 1, COL_HITS, (rapier_table_number_t) { .i = 2 }, &result), RAPIER_TABLE_OK);
	CHECK_EQ_INT(result.i, 2);
	CHECK_EQ_INT(rapier_table_incr(&t, "c", 1, COL_HITS, (rapier_table_number_t) { .i = -5 }, &result), RAPIER_TABLE_OK);
	CHECK_EQ_INT(result.i, -3);
	CHECK_EQ_INT(rapier_table_incr(&t, "c", 1, COL_SCORE, (rapier_table_number_t) { .d = 0.5 }, &result), RAPIER_TABLE_OK);
	CHECK(result.d == 0.5);
	CHECK_EQ_INT(set_hits(&t, "c", INT64_MAX - 1), RAPIER_TABLE_OK);
	CHECK_EQ_INT(rapier_table_incr(&t, "c", 1, COL_HITS, (rapier_table_number_t) { .i = 1 }, &result), RAPIER_TABLE_OK);
	CHECK(result.i == INT64_MAX);
	CHECK_EQ_INT(rapier_table_incr(&t, "c", 1, COL_HITS, (rapier_table_number_t) { .i = 1 }, &result), RAPIER_TABLE_OVERFLOW);
	CHECK(hits_of(&t, "c") == INT64_MAX);
	CHECK_EQ_INT(set_hits(&t, "c", INT64_MIN), RAPIER_TABLE_OK);
	CHECK_EQ_INT(rapier_table_incr(&t, "c", 1, COL_HITS, (rapier_table_number_t) { .i = -1 }, &result), RAPIER_TABLE_OVERFLOW);
	rapier_table_destroy(&t);
}

/* Many keys in few buckets' worth of rows: every one found, each seen once by iteration. */
static void test_many_keys_and_iteration(void)
{
	enum { N = 5000 };
	static unsigned char seen[N];
	rapier_table_t t;
	char key[RAPIER_TABLE_KEY_MAX], image[64];
	size_t key_len;
	uint32_t cursor = 0;
	int i, found = 0, wrong = 0;

	CHECK_EQ_INT(make(&t, N), 0);
	for (i = 0; i < N; i++) {
		snprintf(key, sizeof(key), "user:%d", i);
		if (set_hits(&t, key, i) != RAPIER_TABLE_OK) {
			wrong++;
		}
	}
	CHECK_EQ_INT(wrong, 0);
	CHECK_EQ_INT(rapier_table_count(&t), N);
	for (i = 0; i < N; i += 2) {
		snprintf(key, sizeof(key), "user:%d", i);
		rapier_table_delete(&t, key, strlen(key), NULL, 0);
	}
	for (i = 0; i < N; i++) {
		snprintf(key, sizeof(key), "user:%d", i);
		if (hits_of(&t, key) != (i % 2 ? i : -1)) {
			wrong++;
		}
	}
	CHECK_EQ_INT(wrong, 0);
	while (rapier_table_next(&t, &cursor, key, &key_len, image)) {
		int n;

		key[key_len] = '\0';
		n = atoi(key + 5);
		if (n < 0 || n >= N || seen[n] || rapier_table_image_number(&t, image, COL_HITS).i != n) {
			wrong++;
		} else {
			seen[n] = 1;
		}
		found++;
	}
	CHECK_EQ_INT(wrong, 0);
	CHECK_EQ_INT(found, N / 2);
	CHECK(!rapier_table_next(&t, &cursor, key, &key_len, image));
	rapier_table_destroy(&t);
}

/* Forked processes adding to one row at once lose no addition. */
static void test_processes_share(void)
{
	enum { CHILDREN = 4, ADDS = 20000 };
	rapier_table_t t;
	pid_t pids[CHILDREN];
	int i, status, clean = 0;

	CHECK_EQ_INT(make(&t, 16), 0);
	for (i = 0; i < CHILDREN; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			rapier_table_number_t one = { .i = 1 }, result;
			char key[32];
			int n;

			snprintf(key, sizeof(key), "child%d", i);
			set_hits(&t, key, getpid());
			for (n = 0; n < ADDS; n++) {
				rapier_table_incr(&t, "total", 5, COL_HITS, one, &result);
			}
			_exit(0);
		}
	}
	for (i = 0; i < CHILDREN; i++) {
		char key[32];

		if (waitpid(pids[i], &status, 0) == pids[i] && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			clean++;
		}
		snprintf(key, sizeof(key), "child%d", i);
		CHECK_EQ_INT(hits_of(&t, key), pids[i]);
	}
	CHECK_EQ_INT(clean, CHILDREN);
	CHECK_EQ_INT(hits_of(&t, "total"), CHILDREN * ADDS);
	CHECK_EQ_INT(rapier_table_count(&t), CHILDREN + 1);
	rapier_table_destroy(&t);
}

/* A process that dies holding a row's lock does not stop the others. */
static void test_holder_dies(void)
{
	rapier_table_t t;
	pid_t pid;
	int status;

	CHECK_EQ_INT(make(&t, 4), 0);
	CHECK_EQ_INT(set_hits(&t, "k", 1), RAPIER_TABLE_OK);
	pid = fork();
	if (pid == 0) {
		table_lock(stripe_lock(&t, table_hash(&t, "k", 1)));
		table_lock(&t.shm->free_lock);
		_exit(0);
	}
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK_EQ_INT(set_hits(&t, "k", 2), RAPIER_TABLE_OK);
	CHECK_EQ_INT(hits_of(&t, "k"), 2);
	CHECK_EQ_INT(set_hits(&t, "new", 3), RAPIER_TABLE_OK);
	CHECK_EQ_INT(rapier_table_delete(&t, "new", 3, NULL, 0), RAPIER_TABLE_OK);
	CHECK_EQ_INT(rapier_table_count(&t), 1);
	rapier_table_destroy(&t);
}

/* add(), replace() and delete() with an expected row: each writes only when the row is as said. */
static void test_conditional(void)
{
	rapier_table_t t;
	char image[64], expected[64];
	uint64_t hits = 1u << COL_HITS, name = 1u << COL_NAME;

	CHECK_EQ_INT(make(&t, 2), 0);
	rapier_table_image_put_number(&t, image, COL_HITS, (rapier_table_number_t) { .i = 7 });
	rapier_table_image_put_string(&t, image, COL_NAME, "owner1", 6);
	CHECK_EQ_INT(rapier_table_add(&t, "lock", 4, image, hits | name), RAPIER_TABLE_OK);
	CHECK_EQ_INT(rapier_table_add(&t, "lock", 4, image, hits), RAPIER_TABLE_EXISTS);
	CHECK_EQ_INT(hits_of(&t, "lock"), 7);

	/* replace(): only an existing row, only one holding what is expected. */
	CHECK_EQ_INT(rapier_table_replace(&t, "none", 4, image, hits, NULL, 0), RAPIER_TABLE_NOT_FOUND);
	CHECK_EQ_INT(rapier_table_count(&t), 1);
	rapier_table_image_put_string(&t, expected, COL_NAME, "owner", 5);
	CHECK_EQ_INT(rapier_table_replace(&t, "lock", 4, image, hits, expected, name), RAPIER_TABLE_MISMATCH);
	rapier_table_image_put_string(&t, expected, COL_NAME, "owner2", 6);
	CHECK_EQ_INT(rapier_table_replace(&t, "lock", 4, image, hits, expected, name), RAPIER_TABLE_MISMATCH);
	rapier_table_image_put_string(&t, expected, COL_NAME, "owner1", 6);
	rapier_table_image_put_number(&t, expected, COL_HITS, (rapier_table_number_t) { .i = 7 });
	rapier_table_image_put_number(&t, image, COL_HITS, (rapier_table_number_t) { .i = 8 });
	CHECK_EQ_INT(rapier_table_replace(&t, "lock", 4, image, hits, expected, name | hits), RAPIER_TABLE_OK);
	CHECK_EQ_INT(hits_of(&t, "lock"), 8);
	CHECK_EQ_INT(rapier_table_replace(&t, "lock", 4, image, hits, expected, name | hits), RAPIER_TABLE_MISMATCH);
	CHECK_EQ_INT(rapier_table_replace(&t, "lock", 4, image, hits, NULL, 0), RAPIER_TABLE_OK);

	/* Floats compare by their bits: -0.0 is not 0.0. */
	rapier_table_image_put_number(&t, expected, COL_SCORE, (rapier_table_number_t) { .d = -0.0 });
	CHECK_EQ_INT(rapier_table_delete(&t, "lock", 4, expected, 1u << COL_SCORE), RAPIER_TABLE_MISMATCH);
	rapier_table_image_put_number(&t, expected, COL_SCORE, (rapier_table_number_t) { .d = 0.0 });
	rapier_table_image_put_string(&t, expected, COL_NAME, "owner2", 6);
	CHECK_EQ_INT(rapier_table_delete(&t, "lock", 4, expected, name), RAPIER_TABLE_MISMATCH);
	CHECK_EQ_INT(rapier_table_count(&t), 1);
	rapier_table_image_put_string(&t, expected, COL_NAME, "owner1", 6);
	CHECK_EQ_INT(rapier_table_delete(&t, "lock", 4, expected, name | (1u << COL_SCORE)), RAPIER_TABLE_OK);
	CHECK_EQ_INT(rapier_table_delete(&t, "lock", 4, expected, name), RAPIER_TABLE_NOT_FOUND);
	CHECK_EQ_INT(rapier_table_count(&t), 0);

	/* add() on a full table. */
	CHECK_EQ_INT(rapier_table_add(&t, "a", 1, image, hits), RAPIER_TABLE_OK);
	CHECK_EQ_INT(rapier_table_add(&t, "b", 1, image, hits), RAPIER_TABLE_OK);
	CHECK_EQ_INT(rapier_table_add(&t, "c", 1, image, hits), RAPIER_TABLE_FULL);
	CHECK_EQ_INT(rapier_table_add(&t, "a", 1, image, hits), RAPIER_TABLE_EXISTS);
	rapier_table_destroy(&t);
}

/*
 * Forked processes race: each adds the same keys (exactly one add() of a
 * key wins), and each adds 1 to a counter by reading it and replacing it
 * only if unchanged, retrying otherwise: no addition is lost.
 */
static void test_processes_race_conditionally(void)
{
	enum { CHILDREN = 4, KEYS = 2000, ADDS = 5000 };
	rapier_table_t t;
	pid_t pids[CHILDREN];
	int i, status, won = 0;

	CHECK_EQ_INT(make(&t, KEYS + 1 + CHILDREN), 0);
	CHECK_EQ_INT(set_hits(&t, "counter", 0), RAPIER_TABLE_OK);
	for (i = 0; i < CHILDREN; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			char key[32], image[64], expected[64];
			int n, wins = 0;

			rapier_table_image_put_number(&t, image, COL_HITS, (rapier_table_number_t) { .i = i });
			for (n = 0; n < KEYS; n++) {
				snprintf(key, sizeof(key), "key%d", n);
				wins += rapier_table_add(&t, key, strlen(key), image, 1u << COL_HITS) == RAPIER_TABLE_OK;
			}
			for (n = 0; n < ADDS; n++) {
				do {
					rapier_table_get(&t, "counter", 7, expected);
					rapier_table_image_put_number(&t, image, COL_HITS, (rapier_table_number_t) {
						.i = rapier_table_image_number(&t, expected, COL_HITS).i + 1 });
				} while (rapier_table_replace(&t, "counter", 7, image, 1u << COL_HITS, expected, 1u << COL_HITS) != RAPIER_TABLE_OK);
			}
			snprintf(key, sizeof(key), "wins%d", i);
			set_hits(&t, key, wins);
			_exit(0);
		}
	}
	for (i = 0; i < CHILDREN; i++) {
		char key[32];

		CHECK(waitpid(pids[i], &status, 0) == pids[i] && WIFEXITED(status) && WEXITSTATUS(status) == 0);
		snprintf(key, sizeof(key), "wins%d", i);
		won += (int) hits_of(&t, key);
	}
	CHECK_EQ_INT(won, KEYS);
	CHECK_EQ_INT(hits_of(&t, "counter"), CHILDREN * ADDS);
	CHECK_EQ_INT(rapier_table_count(&t), KEYS + 1 + CHILDREN);
	rapier_table_destroy(&t);
}

int main(void)
{
	test_layouts();
	test_rows();
	test_full_and_reuse();
	test_incr();
	test_many_keys_and_iteration();
	test_processes_share();
	test_holder_dies();
	test_conditional();
	test_processes_race_conditionally();
	return unit_finish("table_test");
}
