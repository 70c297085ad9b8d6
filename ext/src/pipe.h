/*
 * Waits on PHP's stdio streams inside coroutines: the pipes of proc_open()
 * and popen() (proc_hook.c, shell_hook.c) and the standard streams, pipes
 * or terminals (stdio_hook.c). The streams stay PHP's; each hook gives them
 * the ops table of their kind, a copy of PHP's whose read and write wait
 * in the loop first when that kind's flag is on and the caller may yield.
 */
#ifndef RAPIER_PIPE_H
#define RAPIER_PIPE_H

#include "php.h"

/* What a pipe is, for the messages that name it. */
typedef enum {
	RAPIER_PIPE_CHILD,     /* a child process's pipe: "pipe fd N" */
	RAPIER_PIPE_STDIO,     /* a standard stream: "fd N (STDIN)" */
} rapier_pipe_kind_t;

/* Fills the ops tables; before any hook's minit asks for one. */
void rapier_pipe_minit(void);

/*
 * A copy of PHP's stdio ops for a pipe of that kind, its flag deciding
 * (RAPIER_HOOK_PROC, RAPIER_HOOK_STDIO). read: when the caller may yield
 * and the pipe blocks, waits until there is something to read, then reads
 * what is there, as read(2) would. write: the same, and the coroutine
 * waits for its turn among the writers of the descriptor, then writes all
 * of buf. close: PHP's, after waking a stream_select() that watches the
 * descriptor. Otherwise, and on a non-blocking pipe, PHP's answers. A copy
 * with a close of its own (popen()'s) starts from this one.
 */
const php_stream_ops *rapier_pipe_ops(rapier_pipe_kind_t kind);

/*
 * PHP's output layer (echo, print, printf()...) writing count bytes to fd,
 * a standard stream in blocking mode, with ub_write, the SAPI's own
 * writer; the caller may yield. Waits for the coroutine's turn among the
 * writers of the pipe (STDOUT's fwrite() included), then writes all of buf
 * as the stream ops do, waiting whenever the pipe is full. Returns the
 * bytes written; a cancel throws Rapier\CanceledException.
 */
size_t rapier_pipe_write_output(int fd, const char *buf, size_t count, size_t (*ub_write)(const char *str, size_t len));

/*
 * Throws a Rapier\Exception and returns true when a coroutine waits on
 * stream (to read, for room, or for its turn to write), or an echo waits
 * on its descriptor: closing it would free the stream under that
 * coroutine, or hand the echo's bytes to whatever opens the number next.
 * fclose() (transport.c), pclose() and proc_close() ask first.
 */
bool rapier_pipe_close_refused(php_stream *stream);

/* A run ended: after a bailout, lets go of the streams and turns its abandoned coroutines left behind. */
void rapier_pipe_on_run_end(void);

#endif
