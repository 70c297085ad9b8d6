/*
 * The signal state a started program gets back (see child_signals.h).
 */
#include <pthread.h>
#include <stddef.h>

#include "child_signals.h"

#define MAX_PROVIDERS 4

static rapier_child_signals_fn providers[MAX_PROVIDERS];
static int provider_count;

void rapier_child_signals_register(rapier_child_signals_fn provider)
{
	if (provider_count < MAX_PROVIDERS) {
		providers[provider_count++] = provider;
	}
}

int rapier_child_signals_spawnattr(posix_spawnattr_t *attr)
{
	sigset_t unblock, to_default, mask;
	int err;

	sigemptyset(&unblock);
	sigemptyset(&to_default);
	for (int i = 0; i < provider_count; i++) {
		providers[i](&unblock, &to_default);
	}
	pthread_sigmask(SIG_BLOCK, NULL, &mask);
	for (int signo = 1; signo < NSIG; signo++) {
		if (sigismember(&unblock, signo) == 1) {
			sigdelset(&mask, signo);
		}
	}
	if ((err = posix_spawnattr_setsigmask(attr, &mask)) != 0
			|| (err = posix_spawnattr_setsigdefault(attr, &to_default)) != 0) {
		return err;
	}
	return posix_spawnattr_setflags(attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
}
