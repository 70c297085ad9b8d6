/*
 * sleep(), usleep(), time_nanosleep() inside coroutines: the internal
 * function handlers are replaced at startup; each defers to PHP's own
 * handler whenever the caller cannot yield or RAPIER_HOOK_SLEEP is off.
 */
#ifndef RAPIER_SLEEP_H
#define RAPIER_SLEEP_H

#include "php.h"

void rapier_sleep_hook_minit(void);
void rapier_sleep_hook_mshutdown(void);

/*
 * Suspends the current coroutine for ns nanoseconds. Returns
 * RAPIER_WAKE_TIMEOUT once they have passed, RAPIER_WAKE_CANCELED when
 * canceled.
 */
int rapier_coro_sleep_ns(int64_t ns);

#endif
