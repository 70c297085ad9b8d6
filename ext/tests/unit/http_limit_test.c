/* Unit tests for the adaptive concurrency limit (latency_target). */
#include "unit.h"

#include "http_limit.c"

#define MS 1000000LL

/* Feeds count handler times of ns each, spread over one window; returns the limit after. */
static uint32_t window(rapier_http_limit_t *lim, uint64_t *now, int count, int64_t ns)
{
	for (int i = 0; i < count; i++) {
		*now += RAPIER_HTTP_LIMIT_WINDOW_NS / count + 1;
		rapier_http_limit_sample(lim, ns, *now);
	}
	return rapier_http_limit_current(lim);
}

/* Feeds n windows of 20 handler times of ns each; returns the limit after. */
static uint32_t windows(rapier_http_limit_t *lim, uint64_t *now, int n, int64_t ns)
{
	for (int i = 0; i < n; i++) {
		window(lim, now, 20, ns);
	}
	return rapier_http_limit_current(lim);
}

/* Handlers slower than the target: the limit shrinks in proportion, at most by half a window. */
static void test_shrinks_in_proportion(void)
{
	rapier_http_limit_t lim;
	uint64_t now = 1000 * MS;

	rapier_http_limit_init(&lim, 100, 10 * MS, now);
	CHECK_EQ_INT(rapier_http_limit_current(&lim), 100);
	CHECK_EQ_INT(window(&lim, &now, 20, 40 * MS), 50);   /* 4x the target: halved, no more */
	CHECK_EQ_INT(window(&lim, &now, 20, 40 * MS), 25);
	CHECK_EQ_INT(window(&lim, &now, 20, 12500000), 20);  /* 1.25x: times 0.8 */
	CHECK_EQ_INT(windows(&lim, &now, 20, 1000 * MS), 1); /* never below one */
}

/* Handlers faster than the target: the limit grows by a quarter plus one a window, up to max. */
static void test_grows_back_to_max(void)
{
	rapier_http_limit_t lim;
	uint64_t now = 1000 * MS;

	rapier_http_limit_init(&lim, 100, 10 * MS, now);
	CHECK_EQ_INT(windows(&lim, &now, 20, 1000 * MS), 1);
	CHECK_EQ_INT(window(&lim, &now, 20, 1 * MS), 2);      /* 1 * 1.25 + 1 */
	CHECK_EQ_INT(window(&lim, &now, 20, 1 * MS), 3);      /* 2.25 * 1.25 + 1 = 3.81 */
	CHECK_EQ_INT(window(&lim, &now, 20, 9 * MS), 5);      /* 3.81 * 10/9 + 1 = 5.2 */
	CHECK_EQ_INT(windows(&lim, &now, 30, 1 * MS), 100);  /* never above max */
}

/* A window ends after 100 ms and 8 handler times, whichever comes last. */
static void test_window_needs_time_and_samples(void)
{
	rapier_http_limit_t lim;
	uint64_t now = 1000 * MS;

	rapier_http_limit_init(&lim, 64, 10 * MS, now);
	/* Many samples at once: no window has passed. */
	for (int i = 0; i < 1000; i++) {
		rapier_http_limit_sample(&lim, 100 * MS, now);
	}
	CHECK_EQ_INT(rapier_http_limit_current(&lim), 64);
	/* Time has passed but few samples: the window goes on. */
	now += 10 * RAPIER_HTTP_LIMIT_WINDOW_NS;
	rapier_http_limit_init(&lim, 64, 10 * MS, now - 10 * RAPIER_HTTP_LIMIT_WINDOW_NS);
	for (int i = 0; i < RAPIER_HTTP_LIMIT_MIN_SAMPLES - 1; i++) {
		rapier_http_limit_sample(&lim, 100 * MS, now);
	}
	CHECK_EQ_INT(rapier_http_limit_current(&lim), 64);
	rapier_http_limit_sample(&lim, 100 * MS, now);
	CHECK_EQ_INT(rapier_http_limit_current(&lim), 32);
}

/* The median decides: a minority of slow handlers (a report, an export) does not throttle the rest. */
static void test_median_ignores_a_slow_minority(void)
{
	rapier_http_limit_t lim;
	uint64_t now = 1000 * MS;

	rapier_http_limit_init(&lim, 40, 10 * MS, now);
	window(&lim, &now, 20, 1000 * MS);
	CHECK_EQ_INT(rapier_http_limit_current(&lim), 20);
	for (int i = 0; i < 1000; i++) {
		/* Past the reservoir's size: 40% slow, 60% quick, sampled uniformly. */
		now += RAPIER_HTTP_LIMIT_WINDOW_NS / 1000;
		rapier_http_limit_sample(&lim, i % 5 < 2 ? 1000 * MS : 2 * MS, now);
	}
	now += RAPIER_HTTP_LIMIT_WINDOW_NS;
	rapier_http_limit_sample(&lim, 2 * MS, now);
	CHECK_EQ_INT(rapier_http_limit_current(&lim), 26);    /* 20 * 1.25 + 1: grown, not shrunk */
}

int main(void)
{
	test_shrinks_in_proportion();
	test_grows_back_to_max();
	test_window_needs_time_and_samples();
	test_median_ignores_a_slow_minority();
	return unit_finish("http_limit_test");
}
