/*
 * What makes libpq's yielding poll() (libhook.c) safe for the way ext/pgsql
 * and pdo_pgsql use their connections: persistent connections never
 * yield, and a connection is not freed or reset under a coroutine that
 * waits on it.
 */
#ifndef RAPIER_PGSQL_HOOK_H
#define RAPIER_PGSQL_HOOK_H

#include <poll.h>
#include <stdbool.h>

/*
 * Whether libpq may suspend the caller while it waits for fds: not inside
 * pg_pconnect() or a persistent PDO constructor, and not on the socket of
 * a persistent connection.
 */
bool rapier_pgsql_may_yield(const struct pollfd *fds, nfds_t nfds);

/* Installs the guards on what is loaded so far; again at each run start. */
void rapier_pgsql_hook_install(void);

/* Closes the connections whose close waited for a coroutine (none can wait any more). */
void rapier_pgsql_hook_on_run_end(void);

void rapier_pgsql_hook_mshutdown(void);

#endif
