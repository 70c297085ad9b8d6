/*
 * Rapier channels: wait queues and the ring buffer behind Rapier\Channel.
 *
 * A channel is a ring buffer of zvals plus two FIFO wait queues. The
 * invariants that keep it fair and lossless:
 *   - poppers wait only while the buffer is empty, pushers only while it is
 *     full (for capacity 0: always, until a partner arrives);
 *   - a push with a popper waiting hands the value straight to that popper;
 *   - a pop that frees a slot moves the first waiting pusher's value into the
 *     buffer and wakes it, so arrival order is also delivery order.
 * The waker completes the waiter's operation before waking it (the value is
 * already in the popper's slot, or taken from the pusher's), so a woken
 * coroutine never competes again for what it waited for.
 *
 * Waiter nodes live on the waiting coroutine's stack and point at zvals in its
 * frame; nothing is copied until the operation completes. Timeouts and
 * cancellation unlink the node through the scheduler's unlink callback.
 * Rejected: a growing array of waiters (O(n) removal on timeout) and
 * heap-allocated nodes (an allocation per wait, and an owner to find after a
 * bailout).
 */
#include "channel.h"

/* First allocation of a buffered channel's ring; it doubles up to capacity. */
#define RING_MIN_ALLOC 8

void rapier__wait_queue_push(rapier_wait_queue_t *q, rapier_waiter_t *w)
{
	w->queue = q;
	rapier_list_push(&q->waiters, &w->link);
}

void rapier__wait_queue_remove(rapier_waiter_t *w)
{
	if (w->queue) {
		rapier_list_remove(&w->queue->waiters, &w->link);
		w->queue = NULL;
	}
}

rapier_waiter_t *rapier__wait_queue_shift(rapier_wait_queue_t *q)
{
	rapier_list_node_t *node = q->waiters.head;
	rapier_waiter_t *w;

	if (!node) {
		return NULL;
	}
	w = RAPIER_LIST_ENTRY(node, rapier_waiter_t, link);
	rapier__wait_queue_remove(w);
	return w;
}

void rapier__waiter_unlink(rapier_coro_t *co, void *data)
{
	rapier__wait_queue_remove((rapier_waiter_t *) data);
}

void rapier__waiter_serve(rapier_waiter_t *w, rapier_wake_t reason)
{
	w->served = true;
	w->reason = reason;
	rapier_coro_wake(w->co, reason);
}

rapier_wake_t rapier__waiter_wait(rapier_wait_queue_t *q, zval *slot, int64_t timeout_ns, const char *what)
{
	rapier_waiter_t w = {0};
	rapier_wake_t why;

	w.co = rapier_coro_current();
	w.slot = slot;
	rapier__wait_queue_push(q, &w);
	why = rapier_coro_wait(timeout_ns, rapier__waiter_unlink, &w, what);
	/* The scheduler unlinks on timeout and cancel; this covers a wait that
	 * returned at once (a cancel already pending) without doing so. */
	rapier__wait_queue_remove(&w);
	/* Once served, the operation has happened whatever woke us. */
	return w.served ? w.reason : why;
}

void rapier_chan_init(rapier_chan_t *ch, uint32_t capacity)
{
	memset(ch, 0, sizeof(*ch));
	ch->capacity = capacity;
}

void rapier_chan_destroy(rapier_chan_t *ch)
{
	while (ch->length > 0) {
		zval_ptr_dtor(&ch->buf[ch->head]);
		ch->head = (ch->head + 1) % ch->alloc;
		ch->length--;
	}
	if (ch->buf) {
		efree(ch->buf);
		ch->buf = NULL;
	}
	ch->alloc = 0;
	ch->pushers = (rapier_wait_queue_t) { 0 };
	ch->poppers = (rapier_wait_queue_t) { 0 };
}

/*
 * Makes room for one more value; the caller checked length < capacity.
 * No overflow: alloc <= capacity <= INT32_MAX, so doubling fits 32 bits.
 */
static void ring_grow(rapier_chan_t *ch)
{
	uint32_t alloc = ch->alloc ? ch->alloc * 2 : RING_MIN_ALLOC;
	zval *buf;
	uint32_t i;

	if (alloc > ch->capacity) {
		alloc = ch->capacity;
	}
	buf = safe_emalloc(alloc, sizeof(zval), 0);
	for (i = 0; i < ch->length; i++) {
		ZVAL_COPY_VALUE(&buf[i], &ch->buf[(ch->head + i) % ch->alloc]);
	}
	if (ch->buf) {
		efree(ch->buf);
	}
	ch->buf = buf;
	ch->alloc = alloc;
	ch->head = 0;
}

/* Appends value, taking over the reference the caller passes. */
static void ring_append(rapier_chan_t *ch, zval *value)
{
	if (ch->length == ch->alloc) {
		ring_grow(ch);
	}
	ZVAL_COPY_VALUE(&ch->buf[(ch->head + ch->length) % ch->alloc], value);
	ch->length++;
}

/* Moves the oldest value into out. */
static void ring_take(rapier_chan_t *ch, zval *out)
{
	ZVAL_COPY_VALUE(out, &ch->buf[ch->head]);
	ch->head = (ch->head + 1) % ch->alloc;
	ch->length--;
}

static rapier_chan_status_t status_of(rapier_wake_t why)
{
	switch (why) {
		case RAPIER_WAKE_OK:
			return RAPIER_CHAN_OK;
		case RAPIER_WAKE_TIMEOUT:
			return RAPIER_CHAN_TIMEOUT;
		case RAPIER_WAKE_CLOSED:
			return RAPIER_CHAN_CLOSED;
		default:
			return RAPIER_CHAN_CANCELED;
	}
}

/* RAPIER_CHAN_OK if the caller may wait, else why not; with timeout 0 it never does. */
static rapier_chan_status_t check_may_wait(int64_t timeout_ns)
{
	if (timeout_ns == 0) {
		return RAPIER_CHAN_TIMEOUT;
	}
	if (!rapier_coro_can_yield()) {
		return RAPIER_CHAN_CANNOT_WAIT;
	}
	return RAPIER_CHAN_OK;
}

rapier_chan_status_t rapier_chan_push(rapier_chan_t *ch, zval *value, int64_t timeout_ns)
{
	rapier_waiter_t *popper;
	rapier_chan_status_t st;
	zval copy;

	if (ch->closed) {
		return RAPIER_CHAN_CLOSED;
	}
	popper = rapier__wait_queue_shift(&ch->poppers);
	if (popper) {
		ZVAL_COPY_DEREF(popper->slot, value);
		rapier__waiter_serve(popper, RAPIER_WAKE_OK);
		return RAPIER_CHAN_OK;
	}
	if (ch->length < ch->capacity) {
		ZVAL_COPY_DEREF(&copy, value);
		ring_append(ch, &copy);
		return RAPIER_CHAN_OK;
	}
	st = check_may_wait(timeout_ns);
	if (st != RAPIER_CHAN_OK) {
		return st;
	}
	return status_of(rapier__waiter_wait(&ch->pushers, value, timeout_ns, "a channel push"));
}

rapier_chan_status_t rapier_chan_pop(rapier_chan_t *ch, zval *out, int64_t timeout_ns)
{
	rapier_waiter_t *pusher;
	rapier_chan_status_t st;

	ZVAL_UNDEF(out);
	if (ch->length > 0) {
		ring_take(ch, out);
		/* The freed slot goes to the longest-waiting pusher. */
		pusher = rapier__wait_queue_shift(&ch->pushers);
		if (pusher) {
			zval copy;

			ZVAL_COPY_DEREF(&copy, pusher->slot);
			ring_append(ch, &copy);
			rapier__waiter_serve(pusher, RAPIER_WAKE_OK);
		}
		return RAPIER_CHAN_OK;
	}
	pusher = rapier__wait_queue_shift(&ch->pushers);
	if (pusher) {
		ZVAL_COPY_DEREF(out, pusher->slot);
		rapier__waiter_serve(pusher, RAPIER_WAKE_OK);
		return RAPIER_CHAN_OK;
	}
	if (ch->closed) {
		return RAPIER_CHAN_CLOSED;
	}
	st = check_may_wait(timeout_ns);
	if (st != RAPIER_CHAN_OK) {
		return st;
	}
	/* Only a push serves a popper with OK, filling out; close() leaves it UNDEF. */
	return status_of(rapier__waiter_wait(&ch->poppers, out, timeout_ns, "a channel pop"));
}

void rapier_chan_close(rapier_chan_t *ch)
{
	rapier_waiter_t *w;

	if (ch->closed) {
		return;
	}
	ch->closed = true;
	while ((w = rapier__wait_queue_shift(&ch->pushers)) != NULL) {
		rapier__waiter_serve(w, RAPIER_WAKE_CLOSED);
	}
	/* Poppers wait only on an empty buffer: for them the channel is drained. */
	while ((w = rapier__wait_queue_shift(&ch->poppers)) != NULL) {
		rapier__waiter_serve(w, RAPIER_WAKE_CLOSED);
	}
}

void rapier_chan_gc(rapier_chan_t *ch, zend_get_gc_buffer *gc_buffer)
{
	uint32_t i;

	for (i = 0; i < ch->length; i++) {
		zend_get_gc_buffer_add_zval(gc_buffer, &ch->buf[(ch->head + i) % ch->alloc]);
	}
}
