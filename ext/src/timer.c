/*
 * Timer heap. A binary heap keyed by (deadline, insertion sequence) so that
 * timers with the same deadline fire in the order they were started, which
 * users expect of "after 0" callbacks. Each node knows its heap index, so
 * removal of an arbitrary timer (a canceled wait) is O(log n) without search.
 * A timing wheel was rejected: waits here mix microsecond and hour timeouts
 * and a heap keeps exact deadlines with no tick granularity to tune.
 */
#include "timer.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

uint64_t rapier_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

void rapier_timer_init(rapier_timer_t *timer, rapier_timer_cb cb, void *data)
{
	timer->due_ns = 0;
	timer->repeat_ns = 0;
	timer->seq = 0;
	timer->heap_index = RAPIER_TIMER_INACTIVE;
	timer->cb = cb;
	timer->data = data;
	timer->unref = false;
}

void rapier_timer_heap_init(rapier_timer_heap_t *heap)
{
	heap->nodes = NULL;
	heap->count = 0;
	heap->capacity = 0;
	heap->ref_count = 0;
	heap->next_seq = 0;
}

void rapier_timer_heap_free(rapier_timer_heap_t *heap)
{
	for (size_t i = 0; i < heap->count; i++) {
		heap->nodes[i]->heap_index = RAPIER_TIMER_INACTIVE;
	}
	free(heap->nodes);
	rapier_timer_heap_init(heap);
}

static bool before(const rapier_timer_t *a, const rapier_timer_t *b)
{
	if (a->due_ns != b->due_ns) {
		return a->due_ns < b->due_ns;
	}
	return a->seq < b->seq;
}

static void place(rapier_timer_heap_t *heap, size_t index, rapier_timer_t *timer)
{
	heap->nodes[index] = timer;
	timer->heap_index = index;
}

static void sift_up(rapier_timer_heap_t *heap, size_t index)
{
	rapier_timer_t *timer = heap->nodes[index];

	while (index > 0) {
		size_t parent = (index - 1) / 2;
		if (!before(timer, heap->nodes[parent])) {
			break;
		}
		place(heap, index, heap->nodes[parent]);
		index = parent;
	}
	place(heap, index, timer);
}

static void sift_down(rapier_timer_heap_t *heap, size_t index)
{
	rapier_timer_t *timer = heap->nodes[index];

	for (;;) {
		size_t child = 2 * index + 1;
		if (child >= heap->count) {
			break;
		}
		if (child + 1 < heap->count && before(heap->nodes[child + 1], heap->nodes[child])) {
			child++;
		}
		if (!before(heap->nodes[child], timer)) {
			break;
		}
		place(heap, index, heap->nodes[child]);
		index = child;
	}
	place(heap, index, timer);
}

int rapier_timer_heap_add(rapier_timer_heap_t *heap, rapier_timer_t *timer, uint64_t due_ns)
{
	if (rapier_timer_is_active(timer)) {
		rapier_timer_heap_remove(heap, timer);
	}
	if (heap->count == heap->capacity) {
		size_t capacity = heap->capacity ? heap->capacity * 2 : 64;
		rapier_timer_t **nodes = realloc(heap->nodes, capacity * sizeof(*nodes));
		if (nodes == NULL) {
			return -ENOMEM;
		}
		heap->nodes = nodes;
		heap->capacity = capacity;
	}
	timer->due_ns = due_ns;
	timer->seq = heap->next_seq++;
	heap->nodes[heap->count] = timer;
	sift_up(heap, heap->count++);
	if (!timer->unref) {
		heap->ref_count++;
	}
	return 0;
}

void rapier_timer_heap_remove(rapier_timer_heap_t *heap, rapier_timer_t *timer)
{
	size_t index = timer->heap_index;

	if (index == RAPIER_TIMER_INACTIVE) {
		return;
	}
	timer->heap_index = RAPIER_TIMER_INACTIVE;
	if (!timer->unref) {
		heap->ref_count--;
	}
	heap->count--;
	if (index == heap->count) {
		return;
	}
	place(heap, index, heap->nodes[heap->count]);
	if (index > 0 && before(heap->nodes[index], heap->nodes[(index - 1) / 2])) {
		sift_up(heap, index);
	} else {
		sift_down(heap, index);
	}
}

rapier_timer_t *rapier_timer_heap_peek(const rapier_timer_heap_t *heap)
{
	return heap->count ? heap->nodes[0] : NULL;
}

void rapier_timer_heap_forget(rapier_timer_heap_t *heap)
{
	for (size_t i = 0; i < heap->count; i++) {
		heap->nodes[i]->heap_index = RAPIER_TIMER_INACTIVE;
	}
	heap->count = 0;
	heap->ref_count = 0;
}
