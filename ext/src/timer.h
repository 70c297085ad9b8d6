/*
 * Rapier timers: a binary min-heap of deadlines on the monotonic clock.
 *
 * Engine code: no PHP headers. A timer is embedded in its owner (a coroutine
 * record, a Timer::after entry, a socket wait), so starting and stopping one
 * never allocates once the heap array has grown to its working size.
 */
#ifndef RAPIER_TIMER_H
#define RAPIER_TIMER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct rapier_timer_s rapier_timer_t;
typedef void (*rapier_timer_cb)(rapier_timer_t *timer);

struct rapier_timer_s {
	uint64_t due_ns;     /* absolute deadline, rapier_now_ns() clock */
	uint64_t repeat_ns;  /* 0 for a one-shot timer */
	uint64_t seq;        /* insertion order: equal deadlines fire FIFO */
	size_t heap_index;   /* position in the heap; RAPIER_TIMER_INACTIVE when stopped */
	rapier_timer_cb cb;
	void *data;
	bool unref;          /* an unref'd timer does not keep the loop alive */
};

#define RAPIER_TIMER_INACTIVE SIZE_MAX

typedef struct rapier_timer_heap_s {
	rapier_timer_t **nodes;
	size_t count;
	size_t capacity;
	size_t ref_count;    /* active timers that keep the loop alive */
	uint64_t next_seq;
} rapier_timer_heap_t;

/* Monotonic clock in nanoseconds. */
uint64_t rapier_now_ns(void);

void rapier_timer_init(rapier_timer_t *timer, rapier_timer_cb cb, void *data);
static inline bool rapier_timer_is_active(const rapier_timer_t *timer)
{
	return timer->heap_index != RAPIER_TIMER_INACTIVE;
}

void rapier_timer_heap_init(rapier_timer_heap_t *heap);
void rapier_timer_heap_free(rapier_timer_heap_t *heap);

/* Returns 0, or -ENOMEM. A running timer is restarted with the new deadline. */
int rapier_timer_heap_add(rapier_timer_heap_t *heap, rapier_timer_t *timer, uint64_t due_ns);
void rapier_timer_heap_remove(rapier_timer_heap_t *heap, rapier_timer_t *timer);
rapier_timer_t *rapier_timer_heap_peek(const rapier_timer_heap_t *heap);
/* Stops every timer at once, without calling anything: a forked child's copies of its parent's. */
void rapier_timer_heap_forget(rapier_timer_heap_t *heap);

#endif
