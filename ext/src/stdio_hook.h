/*
 * The standard streams inside coroutines (RAPIER_HOOK_STDIO): reads of
 * STDIN and writes to STDOUT and STDERR, and of the streams php://stdin,
 * php://stdout, php://stderr and php://fd/N open, suspend only the calling
 * coroutine while the pipe, socket or terminal behind them is not ready.
 * Outside a coroutine, with the flag off, on a regular file and on a
 * stream made non-blocking, PHP's own code runs unchanged.
 *
 * php://input, which the CLI SAPI leaves empty, is the current request's
 * body inside an HTTP request handler, as under php-fpm: the "php" wrapper
 * asks the opener the HTTP binding sets here first.
 */
#ifndef RAPIER_STDIO_HOOK_H
#define RAPIER_STDIO_HOOK_H

#include "php_streams.h"

void rapier_stdio_hook_minit(void);
void rapier_stdio_hook_mshutdown(void);

/* Opens php://input for the calling code, or returns NULL to leave it to PHP. */
typedef php_stream *(*rapier_php_input_opener_t)(void);
void rapier_stdio_hook_set_input_opener(rapier_php_input_opener_t opener);

#endif
