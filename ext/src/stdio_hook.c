/*
 * The standard streams inside coroutines (see stdio_hook.h).
 *
 * PHP opens STDIN, STDOUT and STDERR, as every php://stdin, php://stdout,
 * php://stderr and php://fd/N stream, through its "php" wrapper. At startup
 * Rapier registers a copy of that wrapper in its place whose opener is
 * PHP's, plus one step: such a stream on a pipe, a socket or a terminal
 * gets ops whose reads and writes wait in the loop (pipe.h). A stream on a
 * regular file or a block device keeps PHP's ops, since nothing on the
 * other end can keep it waiting; so does every other php:// stream. As the
 * streams are made at startup, outside any run, the ops are theirs for
 * good and ask the flag and the caller on every call.
 *
 * Writes take turns. A coroutine's fwrite() to STDOUT is written whole
 * before another coroutine's write to that descriptor starts, as in a
 * process of plain PHP: a writer that finds the pipe full keeps its turn
 * while it waits in the loop, and the others queue behind it in arrival
 * order, so no log line is cut by another. Two coroutines reading one
 * standard stream is an error, as for any pipe: they would share its bytes
 * at random.
 */
#include "php_rapier.h"
#include "php_network.h"
#include "zend_exceptions.h"
#include "ext/standard/php_fopen_wrappers.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <strings.h>
#include <sys/stat.h>

#include "coroutine.h"
#include "hook.h"
#include "list.h"
#include "pipe.h"
#include "stdio_hook.h"

/* A coroutine writing to a standard stream, or queued to, on its stack. */
typedef struct {
	rapier_list_node_t link;
	rapier_coro_t *co;
	int fd;
	bool writing;        /* its turn: the first writer of fd, or handed the turn */
} stdio_writer_t;

static rapier_list_t writers;    /* in arrival order: the first of each descriptor writes */
static php_stream_ops stdio_ops;
static php_stream_wrapper_ops php_wrapper_ops;
static php_stream_wrapper php_wrapper;

static bool may_yield(void)
{
	return rapier_hook_enabled(RAPIER_HOOK_STDIO) && rapier_coro_can_yield();
}

/* The first writer of fd, or NULL. A forked child's copies of its parent's writers never write: forgotten. */
static stdio_writer_t *first_writer_of(int fd)
{
	rapier_list_node_t *node = writers.head;

	while (node != NULL) {
		stdio_writer_t *w = RAPIER_LIST_ENTRY(node, stdio_writer_t, link);

		node = node->next;
		if (w->co->inherited) {
			rapier_list_remove(&writers, &w->link);
		} else if (w->fd == fd) {
			return w;
		}
	}
	return NULL;
}

static void unlink_writer(rapier_coro_t *co, void *data)
{
	stdio_writer_t *w = data;

	(void) co;
	rapier_list_remove(&writers, &w->link);
}

/* Waits until it is w's turn to write to w->fd. False, with CanceledException thrown, when canceled meanwhile. */
static bool take_turn(stdio_writer_t *w, php_stream *stream)
{
	rapier_pipe_pin_t pin;

	w->co = rapier_coro_current();
	w->writing = first_writer_of(w->fd) == NULL;
	rapier_list_push(&writers, &w->link);
	if (w->writing) {
		return true;
	}
	rapier_pipe_pin(&pin, stream, RAPIER_PIPE_STDIO);
	rapier_coro_wait(-1, unlink_writer, w, "its turn to write to a standard stream");
	rapier_pipe_unpin(&pin);
	if (w->writing) {
		return true;
	}
	/* Canceled (one already pending returns at once, still queued). */
	rapier_list_remove(&writers, &w->link);
	if (!EG(exception)) {
		zend_throw_exception_ex(rapier_ce_canceled_exception, 0,
			"Coroutine was canceled while waiting for its turn to write to fd %d", w->fd);
	}
	return false;
}

/* Hands the turn straight to the next writer of w->fd, so that no later one can slip in before it. */
static void pass_turn(stdio_writer_t *w)
{
	stdio_writer_t *next;

	rapier_list_remove(&writers, &w->link);
	if ((next = first_writer_of(w->fd)) != NULL) {
		next->writing = true;
		rapier_coro_wake(next->co, RAPIER_WAKE_OK);
	}
}

static ssize_t stdio_read(php_stream *stream, char *buf, size_t count)
{
	return rapier_pipe_read(stream, buf, count, may_yield(), RAPIER_PIPE_STDIO);
}

/*
 * Writes all of buf in this coroutine's turn, PIPE_BUF bytes at a time
 * (what a writable pipe takes without blocking), waiting whenever the pipe
 * is full. A failure after some bytes returns those; the stream layer asks
 * again for the rest and gets PHP's error then.
 */
static ssize_t stdio_write(php_stream *stream, const char *buf, size_t count)
{
	stdio_writer_t w = { 0 };
	size_t written = 0;
	ssize_t n = 0;

	if (!may_yield() || (w.fd = rapier_pipe_blocking_fd(stream)) < 0) {
		return php_stream_stdio_ops.write(stream, buf, count);
	}
	if (!take_turn(&w, stream)) {
		return -1;
	}
	while (written < count) {
		if (!rapier_pipe_ready_now(w.fd, POLLOUT)
				&& !rapier_pipe_wait(stream, w.fd, RAPIER_IO_WRITE, RAPIER_PIPE_STDIO)) {
			written = 0;   /* canceled: the exception is the answer */
			n = -1;
			break;
		}
		n = php_stream_stdio_ops.write(stream, buf + written, MIN(count - written, PIPE_BUF));
		if (n <= 0) {
			break;
		}
		written += (size_t) n;
	}
	pass_turn(&w);
	return written > 0 ? (ssize_t) written : n;
}

/* php://stdin, php://stdout, php://stderr, php://fd/N: PHP's names for the standard streams and descriptors. */
static bool names_descriptor(const char *path)
{
	if (strncasecmp(path, "php://", 6) == 0) {
		path += 6;
	}
	return strcasecmp(path, "stdin") == 0 || strcasecmp(path, "stdout") == 0 || strcasecmp(path, "stderr") == 0
		|| strncasecmp(path, "fd/", 3) == 0;
}

/* Whether the other end of the stream's descriptor can keep a read or a write waiting. */
static bool may_wait(php_stream *stream)
{
	php_socket_t fd = -1;
	struct stat st;

	if (php_stream_stdio_ops.cast(stream, PHP_STREAM_AS_FD_FOR_SELECT, (void **) &fd) != SUCCESS || fd < 0
			|| fstat(fd, &st) != 0) {
		return false;
	}
	return S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISCHR(st.st_mode);
}

static php_stream *open_php_stream(php_stream_wrapper *wrapper, const char *path, const char *mode, int options,
	zend_string **opened_path, php_stream_context *context STREAMS_DC)
{
	php_stream *stream = php_stream_php_wrapper.wops->stream_opener(wrapper, path, mode, options, opened_path,
		context STREAMS_REL_CC);

	if (stream != NULL && stream->ops == &php_stream_stdio_ops && names_descriptor(path) && may_wait(stream)) {
		stream->ops = &stdio_ops;
	}
	return stream;
}

void rapier_stdio_hook_minit(void)
{
	stdio_ops = php_stream_stdio_ops;
	stdio_ops.read = stdio_read;
	stdio_ops.write = stdio_write;
	stdio_ops.close = rapier_pipe_close;
	php_wrapper_ops = *php_stream_php_wrapper.wops;
	php_wrapper_ops.stream_opener = open_php_stream;
	php_wrapper = php_stream_php_wrapper;
	php_wrapper.wops = &php_wrapper_ops;
	if (php_unregister_url_stream_wrapper("php") == SUCCESS
			&& php_register_url_stream_wrapper("php", &php_wrapper) != SUCCESS) {
		php_register_url_stream_wrapper("php", &php_stream_php_wrapper);
	}
}

void rapier_stdio_hook_mshutdown(void)
{
	HashTable *wrappers = php_stream_get_url_stream_wrappers_hash_global();

	if (zend_hash_str_find_ptr(wrappers, ZEND_STRL("php")) == &php_wrapper) {
		php_unregister_url_stream_wrapper("php");
		php_register_url_stream_wrapper("php", &php_stream_php_wrapper);
	}
}

void rapier_stdio_hook_on_run_end(void)
{
	/* Only a bailout leaves writers behind; their coroutines will never pass the turn. */
	writers.head = writers.tail = NULL;
}
