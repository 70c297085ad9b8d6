/*
 * Coroutines waiting for signals (Rapier\Coroutine::waitSignal()).
 *
 * While at least one coroutine waits for a signal, Rapier takes it: the
 * signal is blocked with sigprocmask() and read from one signalfd in the
 * scheduler's loop, whose mask follows the set of awaited signals. Each
 * arrival wakes every coroutine waiting for that signal. When its last
 * waiter leaves (woken, timed out, canceled, unwound, or the run ends),
 * the signal's mask is put back as it was, so a signal nobody waits for
 * gets its usual disposition (a pcntl_signal() handler, the default
 * action). The waiting signalfd watcher keeps the loop alive: a wait for
 * a signal is never a deadlock.
 */
#ifndef RAPIER_SIGWAIT_H
#define RAPIER_SIGWAIT_H

#include <signal.h>
#include <stdint.h>

/* Highest signal number accepted (SIGRTMAX on Linux, 64). */
#define RAPIER_SIGWAIT_MAX_SIGNO (_NSIG - 1)

/*
 * Why signo can never be waited for (it cannot be caught, reports a fault
 * of the process itself, or belongs to PHP or the C library), or NULL.
 * signo must be between 1 and RAPIER_SIGWAIT_MAX_SIGNO.
 */
const char *rapier_sigwait_refusal(int signo);

/*
 * Reserves signals that a component of this process reads itself (the HTTP
 * server's stop signals in a worker); advice says what to do instead. A
 * NULL set lifts the reservation. rapier_sigwait_reserved() returns the
 * advice for a reserved signo, or NULL.
 */
void rapier_sigwait_reserve(const sigset_t *set, const char *advice);
const char *rapier_sigwait_reserved(int signo);

/*
 * Suspends the current coroutine (rapier_coro_can_yield() must be true)
 * until a signal of set arrives: 0 with its number in *signo, -ETIMEDOUT
 * after timeout_ns (-1: none), -ECANCELED, or the negative errno of a
 * failed signalfd().
 */
int rapier_sigwait(const sigset_t *set, int64_t timeout_ns, int *signo);

/* out = the signals of a that are not in b (out may be a or b). */
void rapier_sigset_minus(sigset_t *out, const sigset_t *a, const sigset_t *b);

/* signo's abbreviation ("TERM" for SIGTERM), or NULL when it has none (real-time signals). */
const char *rapier_signal_name(int signo);

void rapier_sigwait_minit(void);

#endif
