/*
 * Child processes inside coroutines (RAPIER_HOOK_PROC): reads and writes on
 * the pipes of proc_open(), and proc_close()'s wait for the child, suspend
 * only the calling coroutine (popen() and the exec family: shell_hook.h).
 * Outside a coroutine, with the flag off, and on a pipe made non-blocking,
 * PHP's own code runs unchanged.
 */
#ifndef RAPIER_PROC_HOOK_H
#define RAPIER_PROC_HOOK_H

#include "php.h"

void rapier_proc_hook_minit(void);
void rapier_proc_hook_mshutdown(void);

/*
 * Gives stream, a pipe among PHP's stdio streams, reads and writes that
 * wait in the loop inside a coroutine (pipe.h: proc_open()'s pipes get
 * them, and shell_hook.c's).
 */
void rapier_proc_hook_pipe(php_stream *stream);

/*
 * Suspends the current coroutine until child pid has exited, leaving it a
 * zombie for the caller to reap with waitpid(). False, with
 * CanceledException thrown, when the coroutine was canceled meanwhile.
 */
bool rapier_proc_wait_exit(pid_t pid);

#endif
