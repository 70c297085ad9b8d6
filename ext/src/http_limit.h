/*
 * An adaptive limit on the request handlers a worker runs at once (the
 * server's latency_target option).
 *
 * Engine code: no PHP headers. Each finished handler gives a sample, its
 * time; every window (100 ms with at least 8 samples) the limit is scaled
 * by target / median: shrunk, at most by half, when handlers take longer
 * than the target, grown, at most by a quarter (plus one), when they take
 * less. It stays between 1 and the configured concurrency.
 *
 * Why: a fixed limit cannot suit both kinds of request. Those that wait on
 * I/O (a slow query, a remote API) want many at once, and one more costs
 * the others nothing. Those that share the CPU or the database get slower
 * for every one admitted, and past the clients' patience none is answered
 * in time. The handler time tells them apart without knowing the app.
 */
#ifndef RAPIER_HTTP_LIMIT_H
#define RAPIER_HTTP_LIMIT_H

#include <stdint.h>

#define RAPIER_HTTP_LIMIT_WINDOW_NS   100000000
#define RAPIER_HTTP_LIMIT_MIN_SAMPLES 8
/* The median is taken from a uniform sample of at most this many handler times per window. */
#define RAPIER_HTTP_LIMIT_RESERVOIR   64

typedef struct {
	double limit;
	uint32_t max;
	int64_t target_ns;
	uint64_t window_start_ns;
	uint32_t seen;           /* handler times offered in this window */
	uint32_t rng;            /* xorshift state for the reservoir */
	int64_t samples[RAPIER_HTTP_LIMIT_RESERVOIR];
} rapier_http_limit_t;

/* Starts at max: the limit only comes down when handler times say so. */
void rapier_http_limit_init(rapier_http_limit_t *lim, uint32_t max, int64_t target_ns, uint64_t now_ns);
/* Records one handler's time; at the end of a window, adjusts the limit. */
void rapier_http_limit_sample(rapier_http_limit_t *lim, int64_t handler_ns, uint64_t now_ns);
uint32_t rapier_http_limit_current(const rapier_http_limit_t *lim);

#endif
