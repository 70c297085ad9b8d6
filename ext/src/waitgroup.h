/*
 * Rapier wait groups: a counter that coroutines wait on until it drops to 0.
 */
#ifndef RAPIER_WAITGROUP_H
#define RAPIER_WAITGROUP_H

#include "channel.h"

typedef enum {
	RAPIER_WG_OK = 0,
	RAPIER_WG_NEGATIVE,      /* done() without a matching add(); the counter is unchanged */
	RAPIER_WG_OVERFLOW,      /* add() would overflow the counter; it is unchanged */
	RAPIER_WG_TIMEOUT,
	RAPIER_WG_CANCELED,
	RAPIER_WG_CANNOT_WAIT,   /* would have to wait, but the caller cannot yield */
} rapier_wg_status_t;

typedef struct {
	zend_long count;
	rapier_wait_queue_t waiters;
} rapier_wg_t;

void rapier_wg_init(rapier_wg_t *wg);

/* Adds delta (may be negative); reaching 0 wakes every waiter. */
rapier_wg_status_t rapier_wg_add(rapier_wg_t *wg, zend_long delta);

/* Waits until the counter is 0. timeout_ns: -1 none, 0 only check. */
rapier_wg_status_t rapier_wg_wait(rapier_wg_t *wg, int64_t timeout_ns);

#endif
