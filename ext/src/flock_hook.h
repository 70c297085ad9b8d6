/*
 * flock() and SplFileObject::flock() inside coroutines (RAPIER_HOOK_FLOCK):
 * a blocking LOCK_SH or LOCK_EX on a plain file that another holder has
 * suspends only the calling coroutine, so a lock held across a wait by one
 * coroutine no longer freezes the worker when another coroutine of the same
 * worker asks for it. file_put_contents() with LOCK_EX, which locks inside
 * PHP's own code, waits for its lock the same way before PHP's handler runs.
 * The internal handlers are swapped once at startup; they call PHP's own
 * whenever the caller cannot yield, the flag is off, LOCK_NB is given, or
 * the stream is not a plain file.
 */
#ifndef RAPIER_FLOCK_HOOK_H
#define RAPIER_FLOCK_HOOK_H

void rapier_flock_hook_minit(void);
void rapier_flock_hook_mshutdown(void);

#endif
