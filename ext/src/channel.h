/*
 * Rapier channels: a bounded FIFO of zvals between coroutines.
 *
 * Capacity 0 is a rendezvous: a push completes only when a popper takes the
 * value. Waiting pushers and poppers queue in arrival order and are served
 * first come, first served. Operations that complete without waiting work
 * anywhere, even outside Rapier\run(); the others need a coroutine.
 */
#ifndef RAPIER_CHANNEL_H
#define RAPIER_CHANNEL_H

#include "php.h"

#include "coroutine.h"
#include "list.h"

/*
 * Largest capacity accepted: ring indexes are 32-bit. The buffer grows on
 * demand, so a large capacity costs nothing until it is filled.
 */
#define RAPIER_CHAN_MAX_CAPACITY ((zend_long) INT32_MAX)

typedef enum {
	RAPIER_CHAN_OK = 0,
	RAPIER_CHAN_CLOSED,        /* closed (pop: closed and drained) */
	RAPIER_CHAN_TIMEOUT,       /* the timeout passed (or was 0 and the channel was not ready) */
	RAPIER_CHAN_CANCELED,      /* the waiting coroutine was canceled */
	RAPIER_CHAN_CANNOT_WAIT,   /* would have to wait, but the caller cannot yield */
} rapier_chan_status_t;

typedef struct rapier_waiter_s rapier_waiter_t;

/* A FIFO of waiting coroutines; the nodes live on their stacks. */
typedef struct {
	rapier_list_t waiters;
} rapier_wait_queue_t;

struct rapier_waiter_s {
	rapier_coro_t *co;
	rapier_wait_queue_t *queue;   /* NULL once unlinked */
	rapier_list_node_t link;      /* in queue->waiters */
	zval *slot;                   /* a pusher's value, or where a popper receives one */
	bool served;                  /* the waker completed the operation */
	rapier_wake_t reason;         /* set with served */
};

typedef struct {
	zval *buf;                    /* ring of `length` values starting at `head` */
	uint32_t alloc;               /* slots allocated in buf, grown up to capacity */
	uint32_t head;
	uint32_t length;
	uint32_t capacity;
	bool closed;
	rapier_wait_queue_t pushers;  /* only while the buffer is full */
	rapier_wait_queue_t poppers;  /* only while the buffer is empty */
} rapier_chan_t;

void rapier_chan_init(rapier_chan_t *ch, uint32_t capacity);

/*
 * Frees buffered values. Waiting coroutines hold a reference on the owner of
 * the channel, so none can be queued here, except after a bailout, when their
 * stacks may already be gone: the queues are then dropped, never walked.
 */
void rapier_chan_destroy(rapier_chan_t *ch);

/* Copies value in (the caller keeps its own reference). timeout_ns: -1 none, 0 try. */
rapier_chan_status_t rapier_chan_push(rapier_chan_t *ch, zval *value, int64_t timeout_ns);

/* On RAPIER_CHAN_OK, out holds the value (a new reference); otherwise out is UNDEF. */
rapier_chan_status_t rapier_chan_pop(rapier_chan_t *ch, zval *out, int64_t timeout_ns);

/* Wakes every waiter with RAPIER_WAKE_CLOSED; buffered values stay poppable. Idempotent. */
void rapier_chan_close(rapier_chan_t *ch);

/* Adds the buffered values to a get_gc buffer. */
void rapier_chan_gc(rapier_chan_t *ch, zend_get_gc_buffer *gc_buffer);

/* Wait queue helpers, shared with waitgroup.c. */
void rapier__wait_queue_push(rapier_wait_queue_t *q, rapier_waiter_t *w);
rapier_waiter_t *rapier__wait_queue_shift(rapier_wait_queue_t *q);
void rapier__wait_queue_remove(rapier_waiter_t *w);

/* Unlinks a waiter: a rapier_wait_unlink_fn, idempotent. */
void rapier__waiter_unlink(rapier_coro_t *co, void *data);

/* Completes a waiter's operation and makes its coroutine ready. */
void rapier__waiter_serve(rapier_waiter_t *w, rapier_wake_t reason);

/*
 * Queues the current coroutine on q and waits. Returns the waker's reason
 * if served, else the scheduler's (timeout, canceled).
 */
rapier_wake_t rapier__waiter_wait(rapier_wait_queue_t *q, zval *slot, int64_t timeout_ns, const char *what);

#endif
