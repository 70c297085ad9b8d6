/*
 * Waits on PHP's stdio streams inside coroutines: the pipes of proc_open()
 * and popen() (proc_hook.c, shell_hook.c) and the standard streams, pipes
 * or terminals (stdio_hook.c). The streams stay PHP's; each hook gives them
 * a copy of PHP's ops table whose read and write call these first, with
 * its own flag deciding whether the caller may yield.
 */
#ifndef RAPIER_PIPE_H
#define RAPIER_PIPE_H

#include "php.h"

#include "coroutine.h"
#include "list.h"

/* What a pipe is, for the messages that name it. */
typedef enum {
	RAPIER_PIPE_CHILD,     /* a child process's pipe: "pipe fd N" */
	RAPIER_PIPE_STDIO,     /* a standard stream: "fd N (STDIN)" */
} rapier_pipe_kind_t;

/*
 * A coroutine that waits on a stream, on that coroutine's stack: while it
 * is pinned the stream cannot be freed (in_free, PHP's own guard in
 * _php_stream_free()), and fclose(), pclose() and proc_close() of it throw.
 */
typedef struct {
	php_stream *stream;
	rapier_coro_t *co;
	rapier_pipe_kind_t kind;
	rapier_list_node_t link;
} rapier_pipe_pin_t;

void rapier_pipe_pin(rapier_pipe_pin_t *pin, php_stream *stream, rapier_pipe_kind_t kind);
void rapier_pipe_unpin(rapier_pipe_pin_t *pin);

/* The stream's descriptor when it is in blocking mode, else -1 (PHP's own call is then the answer). */
int rapier_pipe_blocking_fd(php_stream *stream);

/* Whether fd is ready for events (POLLIN or POLLOUT) now. */
bool rapier_pipe_ready_now(int fd, short events);

/*
 * Suspends the current coroutine until fd, stream's descriptor, can be
 * read (or written: RAPIER_IO_WRITE) without blocking, the stream pinned
 * meanwhile. False, with an exception thrown, when another coroutine
 * already waits on that direction or this one was canceled.
 */
bool rapier_pipe_wait(php_stream *stream, int fd, uint32_t direction, rapier_pipe_kind_t kind);

/*
 * The ops of a hooked pipe. read: when may_yield and the pipe blocks, waits
 * until there is something to read, then reads what is there, as read(2)
 * would. write: when may_yield and the pipe blocks, waits for this
 * coroutine's turn among the writers of the descriptor, then writes all of
 * buf, PIPE_BUF bytes at a time (what a writable pipe takes without
 * blocking), waiting whenever the pipe is full; a failure after some bytes
 * returns those, and the stream layer's next call gets PHP's error.
 * Otherwise, and on a non-blocking pipe, PHP's answer. close: PHP's, after
 * waking a stream_select() that watches the descriptor.
 */
ssize_t rapier_pipe_read(php_stream *stream, char *buf, size_t count, bool may_yield, rapier_pipe_kind_t kind);
ssize_t rapier_pipe_write(php_stream *stream, const char *buf, size_t count, bool may_yield,
	rapier_pipe_kind_t kind);
int rapier_pipe_close(php_stream *stream, int close_handle);

/*
 * Throws a Rapier\Exception and returns true when a coroutine waits on
 * stream (to read, for room, or for its turn to write): closing it would
 * free the stream under that coroutine.
 * fclose() (transport.c), pclose() and proc_close() ask first.
 */
bool rapier_pipe_close_refused(php_stream *stream);

/* A run ended: after a bailout, lets go of the streams and turns its abandoned coroutines left behind. */
void rapier_pipe_on_run_end(void);

#endif
