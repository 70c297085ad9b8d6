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
 * Writes take turns (pipe.c), so that one coroutine's fwrite() to STDOUT
 * goes out whole, as in a process of plain PHP.
 *
 * echo, print and the rest of PHP's output layer reach standard output
 * through the SAPI's ub_write, not a stream: under the CLI SAPI Rapier puts
 * a writer of its own in front of it that waits the same way, in the same
 * turns as STDOUT's writers, and otherwise calls PHP's.
 */
#include "php_rapier.h"
#include "php_network.h"
#include "SAPI.h"
#include "ext/standard/php_fopen_wrappers.h"

#include <fcntl.h>
#include <limits.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "coroutine.h"
#include "hook.h"
#include "pipe.h"
#include "stdio_hook.h"

static php_stream_wrapper_ops php_wrapper_ops;
static php_stream_wrapper php_wrapper;
static size_t (*php_ub_write)(const char *str, size_t len);   /* the CLI SAPI's */
static rapier_php_input_opener_t input_opener;

void rapier_stdio_hook_set_input_opener(rapier_php_input_opener_t opener)
{
	input_opener = opener;
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

/* Whether the other end of fd can keep a read or a write waiting. */
static bool fd_may_wait(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISCHR(st.st_mode));
}

static bool may_wait(php_stream *stream)
{
	php_socket_t fd = -1;

	return php_stream_stdio_ops.cast(stream, PHP_STREAM_AS_FD_FOR_SELECT, (void **) &fd) == SUCCESS && fd >= 0
		&& fd_may_wait(fd);
}

static php_stream *open_php_stream(php_stream_wrapper *wrapper, const char *path, const char *mode, int options,
	zend_string **opened_path, php_stream_context *context STREAMS_DC)
{
	php_stream *stream;

	if (input_opener && strcasecmp(path + (strncasecmp(path, "php://", 6) == 0 ? 6 : 0), "input") == 0
			&& (stream = input_opener()) != NULL) {
		return stream;
	}
	stream = php_stream_php_wrapper.wops->stream_opener(wrapper, path, mode, options, opened_path, context STREAMS_REL_CC);

	if (stream != NULL && stream->ops == &php_stream_stdio_ops && names_descriptor(path) && may_wait(stream)) {
		stream->ops = rapier_pipe_ops(RAPIER_PIPE_STDIO);
	}
	return stream;
}

/*
 * Whether PHP's state lets other coroutines run while this output waits.
 * Not while ob_flush() writes: it takes its buffer off the output stack
 * and puts it back after, and another coroutine's ob_start() or
 * ob_end_clean() in between would break the stack. Not while PHP compiles
 * a file (a warning it displays): the compiler's state is global. Not
 * while it displays a fatal error: it bails out next, maybe with its
 * memory manager over the limit. Not with an exception pending, which a
 * suspend would carry into the others.
 */
static bool output_state_allows_yield(void)
{
	php_output_handler **top;

	if (EG(exception) || CG(in_compilation)
			|| (PG(last_error_type) & (E_ERROR | E_CORE_ERROR | E_COMPILE_ERROR | E_USER_ERROR | E_RECOVERABLE_ERROR | E_PARSE))) {
		return false;
	}
	if (OG(active) == NULL) {
		return true;
	}
	top = zend_stack_top(&OG(handlers));
	return top != NULL && *top == OG(active);
}

/* Standard output is in blocking mode and, for a write longer than a pipe takes at once, not a regular file. */
static bool output_may_wait(size_t len)
{
	int flags = fcntl(STDOUT_FILENO, F_GETFL);

	/* A short write to a regular file finds room at once anyway, without an fstat(). */
	return flags >= 0 && !(flags & O_NONBLOCK) && (len <= PIPE_BUF || fd_may_wait(STDOUT_FILENO));
}

static size_t output_write(const char *str, size_t len)
{
	if (len == 0 || !rapier_hook_enabled(RAPIER_HOOK_STDIO) || !rapier_coro_can_yield()
			|| !output_state_allows_yield() || !output_may_wait(len)) {
		return php_ub_write(str, len);
	}
	return rapier_pipe_write_output(STDOUT_FILENO, str, len, php_ub_write);
}

void rapier_stdio_hook_minit(void)
{
	/* Other SAPIs write elsewhere (php -S to its client, FPM to FastCGI), never inside a run. */
	if (strcmp(sapi_module.name, "cli") == 0) {
		php_ub_write = sapi_module.ub_write;
		sapi_module.ub_write = output_write;
	}
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

	if (sapi_module.ub_write == output_write) {
		sapi_module.ub_write = php_ub_write;
	}
	if (zend_hash_str_find_ptr(wrappers, ZEND_STRL("php")) == &php_wrapper) {
		php_unregister_url_stream_wrapper("php");
		php_register_url_stream_wrapper("php", &php_stream_php_wrapper);
	}
}
