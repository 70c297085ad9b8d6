/*
 * The standard streams inside coroutines (RAPIER_HOOK_STDIO): reads of
 * STDIN and writes to STDOUT and STDERR, and of the streams php://stdin,
 * php://stdout, php://stderr and php://fd/N open, suspend only the calling
 * coroutine while the pipe, socket or terminal behind them is not ready.
 * Outside a coroutine, with the flag off, on a regular file and on a
 * stream made non-blocking, PHP's own code runs unchanged.
 */
#ifndef RAPIER_STDIO_HOOK_H
#define RAPIER_STDIO_HOOK_H

void rapier_stdio_hook_minit(void);
void rapier_stdio_hook_mshutdown(void);

#endif
