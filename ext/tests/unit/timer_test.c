/* Unit tests for the timer heap and the loop's timer phase. */
#define _GNU_SOURCE  /* before the first system header: dup3() in loop.c */
#include "unit.h"

#include "timer.c"
#include "loop.c"

static int fired[16];
static int fired_count;

static void on_timer(rapier_timer_t *timer)
{
	fired[fired_count++] = (int) (long) timer->data;
}

static void test_heap_order_and_fifo(void)
{
	rapier_timer_heap_t heap;
	rapier_timer_t t[6];
	uint64_t due[6] = { 50, 10, 30, 10, 20, 10 };

	rapier_timer_heap_init(&heap);
	for (int i = 0; i < 6; i++) {
		rapier_timer_init(&t[i], on_timer, (void *) (long) i);
		CHECK_EQ_INT(rapier_timer_heap_add(&heap, &t[i], due[i]), 0);
	}
	CHECK_EQ_INT(heap.ref_count, 6);
	/* Remove one from the middle: the rest must still come out ordered. */
	rapier_timer_heap_remove(&heap, &t[2]);
	CHECK(!rapier_timer_is_active(&t[2]));

	int expected[] = { 1, 3, 5, 4, 0 };
	for (int i = 0; i < 5; i++) {
		rapier_timer_t *first = rapier_timer_heap_peek(&heap);
		CHECK_EQ_INT((long) first->data, expected[i]);
		rapier_timer_heap_remove(&heap, first);
	}
	CHECK(rapier_timer_heap_peek(&heap) == NULL);
	CHECK_EQ_INT(heap.ref_count, 0);
	rapier_timer_heap_free(&heap);
}

static void test_heap_many_random(void)
{
	enum { N = 5000 };
	static rapier_timer_t t[N];
	rapier_timer_heap_t heap;
	uint64_t last = 0;

	rapier_timer_heap_init(&heap);
	srand(7);
	for (int i = 0; i < N; i++) {
		rapier_timer_init(&t[i], on_timer, NULL);
		rapier_timer_heap_add(&heap, &t[i], (uint64_t) (rand() % 100000));
	}
	for (int i = 0; i < N; i += 3) {
		rapier_timer_heap_remove(&heap, &t[i]);
	}
	while (rapier_timer_heap_peek(&heap)) {
		rapier_timer_t *first = rapier_timer_heap_peek(&heap);
		CHECK(first->due_ns >= last);
		last = first->due_ns;
		rapier_timer_heap_remove(&heap, first);
	}
	rapier_timer_heap_free(&heap);
}

static void test_loop_runs_due_timers_and_repeats(void)
{
	rapier_loop_t loop;
	rapier_timer_t once, tick;

	CHECK_EQ_INT(rapier_loop_init(&loop), 0);
	fired_count = 0;
	rapier_timer_init(&once, on_timer, (void *) 1L);
	rapier_timer_init(&tick, on_timer, (void *) 2L);
	rapier_timer_start(&loop, &once, 2000000, 0);
	rapier_timer_start(&loop, &tick, 1000000, 1000000);
	CHECK(rapier_loop_alive(&loop));
	while (fired_count < 4) {
		CHECK(rapier_loop_poll(&loop, -1) >= 0);
	}
	/* tick at 1 ms, then once and tick at 2 ms (once started first), tick at 3 ms. */
	CHECK_EQ_INT(fired[0], 2);
	CHECK(fired[1] == 1 || fired[2] == 1);
	CHECK_EQ_INT(fired[3], 2);
	CHECK(!rapier_timer_is_active(&once));
	CHECK(rapier_timer_is_active(&tick));
	rapier_timer_stop(&loop, &tick);
	CHECK(!rapier_loop_alive(&loop));
	rapier_loop_close(&loop);
}

int main(void)
{
	test_heap_order_and_fifo();
	test_heap_many_random();
	test_loop_runs_due_timers_and_repeats();
	return unit_finish("timer_test");
}
