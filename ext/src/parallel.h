/*
 * Rapier\parallel(): callables run in coroutines of their own, awaited
 * together by the coroutine that started them. None outlives the call.
 */
#ifndef RAPIER_PARALLEL_H
#define RAPIER_PARALLEL_H

#include "php.h"

/*
 * Runs every callable of callables in a coroutine of its own, at most limit
 * at a time (0: all at once), in the array's order, and waits for them all
 * (the caller must be able to yield). return_value gets their results under
 * the array's keys, in its order.
 *
 * The first exception a callable lets out, timeout_ns passing (-1: none;
 * timeout is the same in seconds, for the message), or a cancel of the
 * caller stops the group: the callables not started never start, the
 * running ones are canceled, and once they have all ended that exception,
 * a Rapier\TimeoutException or a Rapier\CanceledException is thrown.
 * A value that is not callable throws a TypeError before anything starts.
 */
void rapier_parallel(HashTable *callables, double timeout, int64_t timeout_ns, uint32_t limit, zval *return_value);

#endif
