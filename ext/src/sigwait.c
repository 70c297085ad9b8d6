/*
 * Coroutines waiting for signals: one signalfd for every awaited signal.
 *
 * Per-signal waiter counts decide what is taken: the first waiter of a
 * signal blocks it (remembering whether it was blocked already) and adds it
 * to the signalfd's mask; the last one to leave removes it from the mask,
 * then unblocks it unless it was blocked before. A signal that arrived
 * between the two is delivered as usual at the unblock: it is not lost.
 *
 * The waiters are records on their coroutines' stacks, linked while they
 * wait; every way a wait ends goes through leave(), which also runs as the
 * scheduler's unlink callback, so no record outlives its wait.
 *
 * A process forked during a run (pcntl_fork(), proc_open()) gets every
 * taken signal back at its old mask (pthread_atfork): a child, and what it
 * execs, must not inherit signals blocked for the parent's coroutines. A
 * command started with posix_spawn() gets the same (child_signals.h).
 */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include "php_rapier.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "child_signals.h"
#include "coroutine.h"
#include "list.h"
#include "sigwait.h"

typedef struct {
	rapier_coro_t *co;
	sigset_t set;                /* the signals it waits for */
	int signo;                   /* the one that woke it; 0 until then */
	bool linked;                 /* in state.waiters, holding its signals */
	rapier_list_node_t link;
} waiter_t;

static struct {
	rapier_list_t waiters;
	unsigned counts[_NSIG];      /* waiters per signal */
	sigset_t taken;              /* blocked by us and read from fd */
	sigset_t was_blocked;        /* of taken: blocked before we took them */
	int fd;                      /* -1 while nothing is taken */
	rapier_io_t io;
	bool stop_hooked;            /* on_sched_stop registered for this run */
	sigset_t reserved;
	const char *reserved_advice;
} state = { .fd = -1 };

const char *rapier_sigwait_refusal(int signo)
{
	switch (signo) {
		case SIGKILL:
		case SIGSTOP:
			return "the kernel never lets a process catch it";
		case SIGSEGV:
		case SIGBUS:
		case SIGFPE:
		case SIGILL:
		case SIGTRAP:
		case SIGSYS:
			return "it reports a fault of the instruction the process is running, which cannot wait";
		case SIGPROF:
			return "PHP's max_execution_time timer uses it";
	}
	if (signo > SIGSYS && signo < SIGRTMIN) {
		return "the C library uses it for its threads";
	}
	return NULL;
}

const char *rapier_signal_name(int signo)
{
	return sigabbrev_np(signo);
}

void rapier_sigwait_reserve(const sigset_t *set, const char *advice)
{
	if (set) {
		state.reserved = *set;
		state.reserved_advice = advice;
	} else {
		sigemptyset(&state.reserved);
		state.reserved_advice = NULL;
	}
}

const char *rapier_sigwait_reserved(int signo)
{
	return state.reserved_advice && sigismember(&state.reserved, signo) == 1 ? state.reserved_advice : NULL;
}

void rapier_sigset_minus(sigset_t *out, const sigset_t *a, const sigset_t *b)
{
	sigset_t result;

	/* Built apart: out may be a or b. */
	sigemptyset(&result);
	for (int s = 1; s < _NSIG; s++) {
		if (sigismember(a, s) == 1 && sigismember(b, s) != 1) {
			sigaddset(&result, s);
		}
	}
	*out = result;
}

static void on_readable(rapier_io_t *io, uint32_t events);

/* Points the signalfd at the taken set: created on first use, closed once empty. */
static int update_fd(void)
{
	rapier_loop_t *loop = rapier_sched_loop();
	int fd;

	if (sigisemptyset(&state.taken)) {
		if (state.fd >= 0) {
			rapier_io_stop(loop, &state.io);
			close(state.fd);
			state.fd = -1;
		}
		return 0;
	}
	fd = signalfd(state.fd, &state.taken, SFD_NONBLOCK | SFD_CLOEXEC);
	if (fd < 0) {
		return -errno;
	}
	if (state.fd < 0) {
		int rc;
		rapier_io_init(&state.io, fd, on_readable, NULL);
		if ((rc = rapier_io_start(loop, &state.io, RAPIER_IO_READ)) < 0) {
			close(fd);
			return rc;
		}
		state.fd = fd;
	}
	return 0;
}

/* Gives the signals of set back their old mask. */
static void restore(const sigset_t *set)
{
	sigset_t unblock;

	rapier_sigset_minus(&unblock, set, &state.was_blocked);
	if (!sigisemptyset(&unblock)) {
		sigprocmask(SIG_UNBLOCK, &unblock, NULL);
	}
}

/* Blocks the signals of set no waiter holds yet and reads them from the signalfd. */
static int take(const sigset_t *set)
{
	sigset_t fresh, old;
	int rc;

	sigemptyset(&fresh);
	for (int s = 1; s < _NSIG; s++) {
		if (sigismember(set, s) == 1 && state.counts[s] == 0) {
			sigaddset(&fresh, s);
		}
	}
	if (!sigisemptyset(&fresh)) {
		sigprocmask(SIG_BLOCK, &fresh, &old);
		for (int s = 1; s < _NSIG; s++) {
			if (sigismember(&fresh, s) == 1) {
				sigaddset(&state.taken, s);
				if (sigismember(&old, s) == 1) {
					sigaddset(&state.was_blocked, s);
				} else {
					sigdelset(&state.was_blocked, s);
				}
			}
		}
		if ((rc = update_fd()) < 0) {
			rapier_sigset_minus(&state.taken, &state.taken, &fresh);
			restore(&fresh);
			return rc;
		}
	}
	for (int s = 1; s < _NSIG; s++) {
		if (sigismember(set, s) == 1) {
			state.counts[s]++;
		}
	}
	return 0;
}

/* Drops the waiter's hold on its signals; those nobody waits for any more are given back. */
static void leave(waiter_t *w)
{
	sigset_t gone;

	if (!w->linked) {
		return;
	}
	w->linked = false;
	rapier_list_remove(&state.waiters, &w->link);
	sigemptyset(&gone);
	for (int s = 1; s < _NSIG; s++) {
		if (sigismember(&w->set, s) == 1 && --state.counts[s] == 0) {
			sigaddset(&gone, s);
		}
	}
	if (sigisemptyset(&gone)) {
		return;
	}
	/* The signalfd lets go first, so a signal arriving now waits for the unblock. */
	rapier_sigset_minus(&state.taken, &state.taken, &gone);
	update_fd();
	restore(&gone);
}

static void unlink_waiter(rapier_coro_t *co, void *data)
{
	(void) co;
	leave(data);
}

/* One arrival of signo wakes every coroutine waiting for it. */
static void deliver(int signo)
{
	rapier_list_node_t *node, *next;

	for (node = state.waiters.head; node; node = next) {
		waiter_t *w = RAPIER_LIST_ENTRY(node, waiter_t, link);

		next = node->next;
		if (sigismember(&w->set, signo) == 1) {
			leave(w);
			w->signo = signo;
			rapier_coro_wake(w->co, RAPIER_WAKE_OK);
		}
	}
}

static void on_readable(rapier_io_t *io, uint32_t events)
{
	struct signalfd_siginfo info;

	(void) io;
	(void) events;
	/* Delivering may close the signalfd: its last waiters are gone. */
	while (state.fd >= 0 && read(state.fd, &info, sizeof(info)) == sizeof(info)) {
		deliver((int) info.ssi_signo);
	}
}

/*
 * The run ends: its waits were unlinked as their coroutines finished or were
 * abandoned; anything left (a record on a stack a bailout skipped) is
 * dropped, and every taken signal given back.
 */
static void on_sched_stop(void)
{
	rapier_list_node_t *node;

	while ((node = rapier_list_shift(&state.waiters)) != NULL) {
		RAPIER_LIST_ENTRY(node, waiter_t, link)->linked = false;
	}
	memset(state.counts, 0, sizeof(state.counts));
	restore(&state.taken);
	sigemptyset(&state.taken);
	update_fd();
	state.stop_hooked = false;
}

int rapier_sigwait(const sigset_t *set, int64_t timeout_ns, int *signo)
{
	waiter_t w;
	rapier_wake_t why;
	int rc;

	memset(&w, 0, sizeof(w));
	w.co = rapier_coro_current();
	w.set = *set;
	if (!state.stop_hooked) {
		rapier_sched_on_stop(on_sched_stop);
		state.stop_hooked = true;
	}
	if ((rc = take(set)) < 0) {
		return rc;
	}
	w.linked = true;
	rapier_list_push(&state.waiters, &w.link);
	why = rapier_coro_wait(timeout_ns, unlink_waiter, &w, "a signal");
	leave(&w);
	if (why == RAPIER_WAKE_OK && w.signo > 0) {
		*signo = w.signo;
		return 0;
	}
	return why == RAPIER_WAKE_TIMEOUT ? -ETIMEDOUT : -ECANCELED;
}

/*
 * In a child forked during a run: the taken signals go back to their old
 * mask, and the signalfd, whose mask the parent still uses, is left to the
 * parent. The child's waiters, if it runs on, are woken by a timeout or a
 * cancel only. Only async-signal-safe calls here: the parent may have threads.
 */
static void after_fork_in_child(void)
{
	if (state.fd < 0) {
		return;
	}
	restore(&state.taken);
	sigemptyset(&state.taken);
	memset(state.counts, 0, sizeof(state.counts));
	for (rapier_list_node_t *node = state.waiters.head; node; node = node->next) {
		RAPIER_LIST_ENTRY(node, waiter_t, link)->linked = false;
	}
	state.waiters.head = state.waiters.tail = NULL;
	/* Closed first, so the epoll_ctl(DEL) of the stop fails with EBADF instead of unwatching the parent's. */
	close(state.fd);
	state.fd = -1;
	rapier_io_stop(rapier_sched_loop(), &state.io);
}

/* For a program started without fork() (child_signals.h): the taken signals that were not blocked before. */
static void taken_for_child(sigset_t *unblock, sigset_t *to_default)
{
	(void) to_default;
	for (int s = 1; s < _NSIG; s++) {
		if (sigismember(&state.taken, s) == 1 && sigismember(&state.was_blocked, s) != 1) {
			sigaddset(unblock, s);
		}
	}
}

void rapier_sigwait_minit(void)
{
	pthread_atfork(NULL, NULL, after_fork_in_child);
	rapier_child_signals_register(taken_for_child);
}
