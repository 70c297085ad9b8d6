/*
 * stream_select() inside coroutines. PHP's handler is swapped once at
 * startup for a wrapper that calls it unchanged unless the caller can yield
 * and RAPIER_HOOK_STREAM_SELECT is on. Then, when nothing is ready yet and
 * the timeout is not zero, the wrapper waits for the streams' descriptors
 * in the event loop (a rapier_socket_group_t: an epoll set of their own,
 * watched as one descriptor) and afterwards lets PHP's handler answer with
 * a zero timeout: the arrays, their keys, buffered data and every warning
 * and error stay PHP's.
 */
#include "php_rapier.h"
#include "php_network.h"
#include "zend_exceptions.h"

#include <errno.h>
#include <sys/epoll.h>   /* EPOLLIN, EPOLLOUT, EPOLLPRI */

#include "coroutine.h"
#include "hook.h"
#include "loop.h"
#include "select.h"
#include "socket.h"

static zif_handler original_stream_select;

/*
 * Adds the descriptors of the streams in array to group for events (one in
 * several arrays, the common $except = $read, waits for the union of
 * theirs). Returns false when a stream is not something this wait can
 * watch (no descriptor, a regular file, buffered data to read): PHP's
 * handler then decides.
 */
static bool watch_array(rapier_socket_group_t *group, zval *array, uint32_t events)
{
	zval *elem;

	if (array == NULL) {
		return true;
	}
	ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(array), elem) {
		php_stream *stream;
		php_socket_t fd = -1;

		ZVAL_DEREF(elem);
		stream = rapier_hook_stream_of(elem);
		if (stream == NULL) {
			return false;        /* PHP's handler throws its TypeError */
		}
		/* Bytes already read into PHP's buffer make the stream ready: PHP's handler says so at once. */
		if ((events & EPOLLIN) && stream->writepos > stream->readpos) {
			return false;
		}
		if (php_stream_cast(stream, PHP_STREAM_AS_FD_FOR_SELECT | PHP_STREAM_CAST_INTERNAL, (void *) &fd, 1) != SUCCESS
				|| fd < 0) {
			return false;
		}
		if (rapier_socket_group_watch(group, fd, events) != 0) {
			return false;        /* EPERM: a regular file, always ready */
		}
	} ZEND_HASH_FOREACH_END();
	return true;
}

/*
 * Suspends until a stream of group is ready, closed by another coroutine,
 * or timeout_ns passes. Returns 1 once it has waited, 0 when it could not
 * (PHP's handler must wait instead), -1 with an exception when canceled.
 */
static int wait_ready(rapier_socket_group_t *group, int64_t timeout_ns)
{
	int err = rapier_socket_group_wait(group, timeout_ns);

	if (err == -ECANCELED) {
		if (!EG(exception)) {
			zend_throw_exception(rapier_ce_canceled_exception, "Coroutine was canceled while waiting in stream_select()", 0);
		}
		return -1;
	}
	/* A stream closed meanwhile (-EBADF) is PHP's handler's to report, at once. */
	return err == 0 || err == -ETIMEDOUT || err == -EBADF;
}

/* PHP's handler gets the timeout as parsed here (see rapier_hook_set_long_arg). */
static void set_timeout_args(zend_execute_data *execute_data, zend_long sec, bool sec_null, zend_long usec,
	bool usec_null)
{
	if (!sec_null) {
		rapier_hook_set_long_arg(execute_data, 4, sec);
	}
	if (ZEND_NUM_ARGS() >= 5 && !usec_null) {
		rapier_hook_set_long_arg(execute_data, 5, usec);
	}
}

static ZEND_FUNCTION(rapier_stream_select)
{
	zval *read = NULL, *write = NULL, *except = NULL;
	zend_long sec = 0, usec = 0;
	bool sec_null = true, usec_null = true;
	int64_t timeout_ns;
	int waited = 1;
	rapier_socket_group_t group = { .epfd = -1 };

	if (!rapier_hook_enabled(RAPIER_HOOK_STREAM_SELECT) || !rapier_coro_can_yield()) {
		goto passthru;
	}
	ZEND_PARSE_PARAMETERS_START_EX(ZEND_PARSE_PARAMS_QUIET, 4, 5)
		Z_PARAM_ARRAY_EX2(read, 1, 1, 0)
		Z_PARAM_ARRAY_EX2(write, 1, 1, 0)
		Z_PARAM_ARRAY_EX2(except, 1, 1, 0)
		Z_PARAM_LONG_OR_NULL(sec, sec_null)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG_OR_NULL(usec, usec_null)
	ZEND_PARSE_PARAMETERS_END_EX(goto parse_failed);
	set_timeout_args(execute_data, sec, sec_null, usec, usec_null);

	/* Odd arguments and a zero timeout are PHP's to handle (its errors, or no wait at all). */
	if (sec_null) {
		if (!usec_null && usec != 0) {
			goto passthru;
		}
		timeout_ns = -1;
	} else if (sec < 0 || usec < 0 || (sec == 0 && usec == 0) || sec > RAPIER_SOCKET_MAX_SECONDS
			|| usec / 1000000 > RAPIER_SOCKET_MAX_SECONDS - sec) {
		goto passthru;
	} else {
		timeout_ns = (int64_t) (sec + usec / 1000000) * 1000000000 + (int64_t) (usec % 1000000) * 1000;
	}
	if (rapier_socket_group_init(&group) != 0 || !watch_array(&group, read, EPOLLIN)
			|| !watch_array(&group, write, EPOLLOUT) || !watch_array(&group, except, EPOLLPRI) || group.count == 0) {
		goto passthru;
	}
	/* Only when nothing is ready yet is there anything to wait for. */
	if (!rapier_socket_group_ready(&group)) {
		waited = wait_ready(&group, timeout_ns);
		if (waited < 0) {
			rapier_socket_group_destroy(&group);
			RETURN_FALSE;
		}
	}
	if (waited != 0) {
		set_timeout_args(execute_data, 0, false, 0, false);
	}
	goto passthru;

parse_failed:
	if (EG(exception)) {
		/* An error handler threw from a conversion's deprecation, as it would in PHP's own parsing. */
		RETURN_THROWS();
	}
passthru:
	rapier_socket_group_destroy(&group);
	original_stream_select(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

void rapier_select_hook_minit(void)
{
	original_stream_select = rapier_hook_replace_handler(ZEND_STRL("stream_select"), ZEND_FN(rapier_stream_select));
}

void rapier_select_hook_mshutdown(void)
{
	rapier_hook_replace_handler(ZEND_STRL("stream_select"), original_stream_select);
}
