/*
 * Adaptive concurrency limit: see http_limit.h for the rule and the why.
 * The median, not the mean: a few inherently slow endpoints (a report, an
 * export) should not throttle the many quick ones.
 */
#include "http_limit.h"

#include <stdlib.h>

#define GROW_AT_MOST   1.25
#define SHRINK_AT_MOST 0.5

void rapier_http_limit_init(rapier_http_limit_t *lim, uint32_t max, int64_t target_ns, uint64_t now_ns)
{
	lim->limit = max;
	lim->max = max;
	lim->target_ns = target_ns;
	lim->window_start_ns = now_ns;
	lim->seen = 0;
	lim->rng = 2463534242u;
}

static uint32_t next_random(rapier_http_limit_t *lim)
{
	uint32_t x = lim->rng;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return lim->rng = x;
}

static int compare_ns(const void *a, const void *b)
{
	int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;

	return (x > y) - (x < y);
}

static int64_t window_median(rapier_http_limit_t *lim)
{
	uint32_t n = lim->seen < RAPIER_HTTP_LIMIT_RESERVOIR ? lim->seen : RAPIER_HTTP_LIMIT_RESERVOIR;

	qsort(lim->samples, n, sizeof(lim->samples[0]), compare_ns);
	return lim->samples[n / 2];
}

static void adjust(rapier_http_limit_t *lim, int64_t median_ns)
{
	double ratio = median_ns > 0 ? (double) lim->target_ns / (double) median_ns : GROW_AT_MOST;
	double limit;

	if (ratio < 1) {
		limit = lim->limit * (ratio > SHRINK_AT_MOST ? ratio : SHRINK_AT_MOST);
	} else {
		/* Plus one: from a limit of 1, a quarter more would never reach 2. */
		limit = lim->limit * (ratio < GROW_AT_MOST ? ratio : GROW_AT_MOST) + 1;
	}
	lim->limit = limit < 1 ? 1 : limit > lim->max ? lim->max : limit;
}

void rapier_http_limit_sample(rapier_http_limit_t *lim, int64_t handler_ns, uint64_t now_ns)
{
	if (lim->seen < RAPIER_HTTP_LIMIT_RESERVOIR) {
		lim->samples[lim->seen] = handler_ns;
	} else {
		/* Reservoir sampling: every handler time of the window is kept with the same chance. */
		uint32_t slot = next_random(lim) % (lim->seen + 1);
		if (slot < RAPIER_HTTP_LIMIT_RESERVOIR) {
			lim->samples[slot] = handler_ns;
		}
	}
	lim->seen++;
	if (now_ns - lim->window_start_ns < RAPIER_HTTP_LIMIT_WINDOW_NS || lim->seen < RAPIER_HTTP_LIMIT_MIN_SAMPLES) {
		return;
	}
	adjust(lim, window_median(lim));
	lim->seen = 0;
	lim->window_start_ns = now_ns;
}

uint32_t rapier_http_limit_current(const rapier_http_limit_t *lim)
{
	return (uint32_t) lim->limit;
}
