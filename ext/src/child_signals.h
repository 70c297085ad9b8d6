/*
 * The signal state Rapier changes for its own use (signals blocked for a
 * signalfd, signals ignored in an HTTP worker), which a program the
 * application starts must not inherit: its mask and its ignored signals
 * survive exec.
 *
 * A fork()ed child puts them back in pthread_atfork() handlers (sigwait.c,
 * the HTTP worker's binding). A command started with posix_spawn()
 * (shell_hook.c), where no fork handler runs, gets them in its spawn
 * attributes instead, from the providers registered here by the same code.
 */
#ifndef RAPIER_CHILD_SIGNALS_H
#define RAPIER_CHILD_SIGNALS_H

#include <signal.h>
#include <spawn.h>

/*
 * Adds to *unblock the signals its owner blocked for itself and to
 * *to_default those it ignored, where the application has not changed them
 * since. Async-signal-safe: an atfork child handler may call it.
 */
typedef void (*rapier_child_signals_fn)(sigset_t *unblock, sigset_t *to_default);

/* At MINIT; a handful of providers at most. */
void rapier_child_signals_register(rapier_child_signals_fn provider);

/*
 * Sets attr's signal mask (this thread's, less every provider's unblock)
 * and its default signals, so the child starts as a child of plain PHP
 * would. 0, or an error number from posix_spawnattr_*().
 */
int rapier_child_signals_spawnattr(posix_spawnattr_t *attr);

#endif
