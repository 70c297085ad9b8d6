/*
 * Rapier wait groups: a counter plus a FIFO of coroutines waiting for it to
 * reach zero (the wait queue of channel.c). Reaching zero wakes every waiter
 * at once and completes their wait: a later add() does not put them back to
 * sleep, they were served when the count was zero. A waiter holds a
 * reference on the PHP object (binding/waitgroup.c), so a wait group is never
 * freed under a waiting coroutine.
 */
#include "waitgroup.h"

void rapier_wg_init(rapier_wg_t *wg)
{
	memset(wg, 0, sizeof(*wg));
}

rapier_wg_status_t rapier_wg_add(rapier_wg_t *wg, zend_long delta)
{
	rapier_waiter_t *w;

	if (delta > 0 && wg->count > ZEND_LONG_MAX - delta) {
		return RAPIER_WG_OVERFLOW;
	}
	/* count >= 0 always, so count + delta cannot underflow for delta >= -ZEND_LONG_MAX. */
	if (delta < 0 && (delta == ZEND_LONG_MIN || wg->count + delta < 0)) {
		return RAPIER_WG_NEGATIVE;
	}
	wg->count += delta;
	if (wg->count == 0) {
		while ((w = rapier__wait_queue_shift(&wg->waiters)) != NULL) {
			rapier__waiter_serve(w, RAPIER_WAKE_OK);
		}
	}
	return RAPIER_WG_OK;
}

rapier_wg_status_t rapier_wg_wait(rapier_wg_t *wg, int64_t timeout_ns)
{
	if (wg->count == 0) {
		return RAPIER_WG_OK;
	}
	if (timeout_ns == 0) {
		return RAPIER_WG_TIMEOUT;
	}
	if (!rapier_coro_can_yield()) {
		return RAPIER_WG_CANNOT_WAIT;
	}
	switch (rapier__waiter_wait(&wg->waiters, NULL, timeout_ns, "a WaitGroup")) {
		case RAPIER_WAKE_OK:
			return RAPIER_WG_OK;
		case RAPIER_WAKE_TIMEOUT:
			return RAPIER_WG_TIMEOUT;
		default:
			return RAPIER_WG_CANCELED;
	}
}
