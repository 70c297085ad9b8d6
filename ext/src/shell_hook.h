/*
 * Shell commands inside coroutines (RAPIER_HOOK_PROC): popen(), exec(),
 * system(), passthru(), shell_exec() and the backtick operator run their
 * command through /bin/sh -c as PHP does, but its output is read, and
 * pclose() or the function waits for its exit, in the loop, suspending
 * only the calling coroutine. Outside a coroutine, and with the flag off,
 * PHP's own functions run unchanged.
 */
#ifndef RAPIER_SHELL_HOOK_H
#define RAPIER_SHELL_HOOK_H

void rapier_shell_hook_minit(void);
void rapier_shell_hook_mshutdown(void);

/* A run ended: after a bailout, kills and reaps the commands its abandoned coroutines were running. */
void rapier_shell_hook_on_run_end(void);

#endif
