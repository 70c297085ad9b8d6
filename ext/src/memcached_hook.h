/*
 * ext/memcached inside coroutines (RAPIER_HOOK_MEMCACHED).
 *
 * libmemcached waits for its non-blocking sockets in poll(), rebound by
 * libhook.c; it may suspend only inside a Memcached method that holds its
 * turn on the connection, which this module hands out (memcached_hook.c).
 */
#ifndef RAPIER_MEMCACHED_HOOK_H
#define RAPIER_MEMCACHED_HOOK_H

#include <poll.h>
#include <stdbool.h>

/* Wraps the Memcached class's methods and rebinds libmemcached's getaddrinfo(); idempotent. */
void rapier_memcached_hook_install(void);

/* libhook.c: whether libmemcached's poll() may suspend the current coroutine. */
bool rapier_memcached_may_yield(const struct pollfd *fds, nfds_t nfds);

/* Forgets the turns of a run that ended (after a bailout their holders never return). */
void rapier_memcached_hook_on_run_end(void);

/* Puts the methods' own handlers back. */
void rapier_memcached_hook_mshutdown(void);

#endif
