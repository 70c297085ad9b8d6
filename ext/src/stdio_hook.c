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
 */
#include "php_rapier.h"
#include "php_network.h"
#include "ext/standard/php_fopen_wrappers.h"

#include <strings.h>
#include <sys/stat.h>

#include "pipe.h"
#include "stdio_hook.h"

static php_stream_wrapper_ops php_wrapper_ops;
static php_stream_wrapper php_wrapper;

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
		stream->ops = rapier_pipe_ops(RAPIER_PIPE_STDIO);
	}
	return stream;
}

void rapier_stdio_hook_minit(void)
{
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
