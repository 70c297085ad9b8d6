/*
 * Shared by the libFuzzer drivers in this directory: how an input is cut
 * into reads, a digest of what a parse produced, and the check that turns a
 * broken invariant into a crash libFuzzer (or the replay main) reports.
 *
 * The server reads in whatever pieces the kernel hands it, so every driver
 * parses each input three times: whole, byte by byte, and cut at sizes drawn
 * from a seed byte the fuzzer mutates like any other. The three runs must
 * produce the same digest; a parser that answers differently depending on
 * where a read ended is a bug even when nothing crashes.
 */
#ifndef RAPIER_FUZZ_H
#define RAPIER_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A failed check aborts: libFuzzer saves the input, replay names the file. */
#define FUZZ_CHECK(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: fuzz check failed: %s\n", __FILE__, __LINE__, #cond); \
		abort(); \
	} \
} while (0)

enum { FUZZ_WHOLE, FUZZ_BYTES, FUZZ_SEEDED, FUZZ_RUNS };

typedef struct {
	int mode;
	uint32_t state;
} fuzz_cutter_t;

static inline void fuzz_cutter_init(fuzz_cutter_t *c, int mode, uint8_t seed)
{
	c->mode = mode;
	/* xorshift32 must not start at 0; spread the 256 seeds apart. */
	c->state = ((uint32_t) seed + 1) * 2654435761u;
}

static inline uint32_t fuzz_random(fuzz_cutter_t *c)
{
	uint32_t x = c->state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return c->state = x;
}

/* Size of the next read, at most left (> 0). Seeded sizes are spread
 * log-uniformly over 1..1024 so that both single bytes and whole heads come. */
static inline size_t fuzz_next_cut(fuzz_cutter_t *c, size_t left)
{
	size_t n;

	switch (c->mode) {
	case FUZZ_BYTES:
		return 1;
	case FUZZ_SEEDED:
		n = 1 + fuzz_random(c) % ((uint32_t) 1 << (fuzz_random(c) % 11));
		return n < left ? n : left;
	default:
		return left;
	}
}

/* FNV-1a over everything a run produced; equal runs give equal digests. */
static inline void fuzz_digest(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++) {
		*h = (*h ^ b[i]) * 1099511628211ull;
	}
}

static inline void fuzz_digest_u64(uint64_t *h, uint64_t v)
{
	fuzz_digest(h, &v, sizeof(v));
}

#define FUZZ_DIGEST_INIT 14695981039346656037ull

#endif
