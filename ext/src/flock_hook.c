/*
 * flock() inside coroutines (see flock_hook.h).
 *
 * Linux says nothing when a file lock is released: no descriptor becomes
 * readable, and a blocking flock() ends only with the lock or a signal. So a
 * coroutine that cannot have the lock at once waits in the loop and tries
 * again with LOCK_NB: at once when a holder in this process unlocks the file
 * with flock() or closes it with fclose(), otherwise (a holder in another
 * process, or a stream freed without fclose()) on a timer that starts at
 * 1 ms and doubles up to 20 ms. Only the oldest waiter of each file polls;
 * the others wait until it leaves (with the lock, with an error, or
 * canceled), and the next oldest then tries at once and polls from there,
 * so a thousand coroutines queued on one lock cost one try per poll, not a
 * thousand.
 *
 * Files are told apart by device and inode. Two fopen()s of one file are two
 * open file descriptions, which flock() treats as two holders even inside
 * one process: that is how one coroutine's lock blocked another's.
 */
#include "php_rapier.h"
#include "zend_exceptions.h"
#include "ext/spl/spl_directory.h"
#include "ext/standard/file.h"
#include "ext/standard/flock_compat.h"
#include "main/streams/php_stream_plain_wrapper.h"

#include <errno.h>
#include <sys/file.h>

#include "coroutine.h"
#include "flock_hook.h"
#include "hook.h"
#include "list.h"

#define POLL_FIRST_NS 1000000    /* 1 ms */
#define POLL_MAX_NS   20000000   /* 20 ms */

/* A coroutine waiting for a lock, on its stack. */
typedef struct {
	rapier_list_node_t link;
	rapier_coro_t *co;
	uint64_t ticket;    /* arrival order: the oldest waiter of a file polls for it */
	bool identified;    /* dev and ino are known (fstat() did not fail) */
	dev_t dev;
	ino_t ino;
} lock_waiter_t;

static rapier_list_t waiters;    /* every waiting coroutine, in ticket order */
static uint64_t next_ticket;
static zif_handler stock_flock, stock_spl_flock, stock_fclose, stock_file_put_contents;

static ZEND_FUNCTION(rapier_flock);
static ZEND_METHOD(rapier_SplFileObject, flock);
static ZEND_FUNCTION(rapier_flock_fclose);
static ZEND_FUNCTION(rapier_file_put_contents);

void rapier_flock_hook_minit(void)
{
	stock_flock = rapier_hook_replace_handler(ZEND_STRL("flock"), ZEND_FN(rapier_flock));
	stock_spl_flock = rapier_hook_replace_handler_in(&spl_ce_SplFileObject->function_table, ZEND_STRL("flock"),
		ZEND_MN(rapier_SplFileObject_flock));
	stock_fclose = rapier_hook_replace_handler(ZEND_STRL("fclose"), ZEND_FN(rapier_flock_fclose));
	stock_file_put_contents = rapier_hook_replace_handler(ZEND_STRL("file_put_contents"),
		ZEND_FN(rapier_file_put_contents));
}

void rapier_flock_hook_mshutdown(void)
{
	rapier_hook_replace_handler(ZEND_STRL("flock"), stock_flock);
	rapier_hook_replace_handler_in(&spl_ce_SplFileObject->function_table, ZEND_STRL("flock"), stock_spl_flock);
	rapier_hook_replace_handler(ZEND_STRL("fclose"), stock_fclose);
	rapier_hook_replace_handler(ZEND_STRL("file_put_contents"), stock_file_put_contents);
}

static bool may_yield(void)
{
	return rapier_hook_enabled(RAPIER_HOOK_FLOCK) && rapier_coro_can_yield();
}

static bool identify(php_stream *stream, dev_t *dev, ino_t *ino)
{
	php_stream_statbuf ssb;

	if (php_stream_stat(stream, &ssb) != 0) {
		return false;
	}
	*dev = ssb.sb.st_dev;
	*ino = ssb.sb.st_ino;
	return true;
}

/* The oldest waiter of the file, or NULL. */
static lock_waiter_t *oldest_waiter_of(dev_t dev, ino_t ino)
{
	for (rapier_list_node_t *node = waiters.head; node; node = node->next) {
		lock_waiter_t *w = RAPIER_LIST_ENTRY(node, lock_waiter_t, link);

		if (w->identified && w->dev == dev && w->ino == ino) {
			return w;
		}
	}
	return NULL;
}

/* Puts back a waiter that tried again, in its place: it keeps its turn. */
static void requeue(lock_waiter_t *w)
{
	rapier_list_node_t *node = waiters.head;

	while (node && RAPIER_LIST_ENTRY(node, lock_waiter_t, link)->ticket < w->ticket) {
		node = node->next;
	}
	rapier_list_insert_before(&waiters, node, &w->link);
}

static void waiter_unlink(rapier_coro_t *co, void *data)
{
	lock_waiter_t *w = data;

	(void) co;
	rapier_list_remove(&waiters, &w->link);
}

/* Makes the oldest waiter of the file try again now. */
static void wake_oldest_of(dev_t dev, ino_t ino)
{
	lock_waiter_t *w = oldest_waiter_of(dev, ino);

	if (w) {
		rapier_list_remove(&waiters, &w->link);
		rapier_coro_wake(w->co, RAPIER_WAKE_OK);
	}
}

/*
 * w, out of the queue, waits no more. If it was its file's poller (no older
 * waiter of the file is left), the next oldest takes over: it tries at once
 * (a shared lock may be its now too) and polls from then on.
 */
static void leave(lock_waiter_t *w)
{
	lock_waiter_t *next;

	if (!w->identified) {
		return;
	}
	next = oldest_waiter_of(w->dev, w->ino);
	if (next && next->ticket > w->ticket) {
		wake_oldest_of(w->dev, w->ino);
	}
}

/* A holder in this process unlocked the file: its oldest waiter need not wait for its next poll. */
static void tell_unlocked(zend_resource *res)
{
	php_stream *stream = rapier_hook_stream_of_res(res);
	dev_t dev;
	ino_t ino;

	if (stream && identify(stream, &dev, &ino)) {
		wake_oldest_of(dev, ino);
	}
}

typedef enum {
	LOCK_TAKEN,
	LOCK_TAKEN_AFTER_WAITING,    /* the file's next waiter, if any, was told to try (leave()) */
	LOCK_FAILED,                 /* flock() failed otherwise than with EWOULDBLOCK */
	LOCK_STREAM_CLOSED,          /* another coroutine closed the stream meanwhile */
	LOCK_CANCELED,               /* an exception is thrown or pending */
} lock_outcome_t;

/*
 * Takes operation (flock(2)'s LOCK_SH or LOCK_EX) on the plain file behind
 * res, in a coroutine: LOCK_NB tries until one succeeds or fails otherwise
 * than with EWOULDBLOCK, waiting in between. The stream is fetched again
 * after every wait, since another coroutine may have closed it meanwhile.
 * caller names the PHP function in the message of a cancel.
 */
static lock_outcome_t wait_for_lock(zend_resource *res, php_stream *stream, int operation, const char *caller)
{
	lock_waiter_t w = { .co = NULL };
	int64_t poll_ns = POLL_FIRST_NS;
	bool locked;

	while (!(locked = php_stream_lock(stream, operation | LOCK_NB) == 0) && errno == EWOULDBLOCK) {
		bool polls;
		rapier_wake_t why;

		if (w.co == NULL) {
			w.co = rapier_coro_current();
			w.ticket = next_ticket++;
			w.identified = identify(stream, &w.dev, &w.ino);
			rapier_list_push(&waiters, &w.link);
		} else {
			requeue(&w);
		}
		polls = !w.identified || oldest_waiter_of(w.dev, w.ino) == &w;
		why = rapier_coro_wait(polls ? poll_ns : -1, waiter_unlink, &w, "a file lock");
		if (why == RAPIER_WAKE_CANCELED) {
			/* With an exception already pending the fiber is being destroyed: return at once. */
			if (!EG(exception)) {
				leave(&w);
				zend_throw_exception_ex(rapier_ce_canceled_exception, 0,
					"Coroutine was canceled while waiting for a file lock (%s())", caller);
			}
			return LOCK_CANCELED;
		}
		poll_ns = why == RAPIER_WAKE_TIMEOUT ? MIN(2 * poll_ns, POLL_MAX_NS) : POLL_FIRST_NS;
		if ((stream = rapier_hook_stream_of_res(res)) == NULL) {
			leave(&w);
			return LOCK_STREAM_CLOSED;
		}
	}
	if (w.co) {
		leave(&w);
	}
	if (!locked) {
		return LOCK_FAILED;
	}
	return w.co ? LOCK_TAKEN_AFTER_WAITING : LOCK_TAKEN;
}

static void lock_in_coroutine(zend_resource *res, php_stream *stream, int operation, zval *return_value)
{
	switch (wait_for_lock(res, stream, operation, "flock")) {
		case LOCK_TAKEN:
		case LOCK_TAKEN_AFTER_WAITING:
			RETURN_TRUE;
		case LOCK_FAILED:
			RETURN_FALSE;
		case LOCK_STREAM_CLOSED:
			php_error_docref(NULL, E_WARNING, "The stream was closed while this coroutine waited for its lock");
			RETURN_FALSE;
		case LOCK_CANCELED:
			return;
	}
}

/*
 * flock() and SplFileObject::flock(): PHP's own handler unless a blocking
 * lock of a plain file is asked for in a coroutine that may yield. res is
 * the stream's resource (NULL: not one), op_arg the number of the operation
 * argument, $would_block the one after it. Arguments PHP would refuse go to
 * PHP's handler, so its errors stay exactly PHP's; the operation is parsed
 * once (then handed on as an int) so that a deprecation is not raised twice.
 */
static void hooked_flock(INTERNAL_FUNCTION_PARAMETERS, zif_handler stock, zend_resource *res, uint32_t op_arg)
{
	uint32_t argc = ZEND_NUM_ARGS();
	php_stream *stream;
	zend_long operation;
	int lock;

	if (res == NULL || argc < op_arg || argc > op_arg + 1 || (stream = rapier_hook_stream_of_res(res)) == NULL) {
		stock(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	if (!zend_parse_arg_long(ZEND_CALL_ARG(execute_data, op_arg), &operation, NULL, false, op_arg)) {
		if (EG(exception)) {
			RETURN_THROWS();
		}
		stock(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	rapier_hook_set_long_arg(execute_data, op_arg, operation);

	switch (operation & PHP_LOCK_UN) {
		case PHP_LOCK_SH:
			lock = LOCK_SH;
			break;
		case PHP_LOCK_EX:
			lock = LOCK_EX;
			break;
		case PHP_LOCK_UN:
			stock(INTERNAL_FUNCTION_PARAM_PASSTHRU);
			if (Z_TYPE_P(return_value) == IS_TRUE && !rapier_list_is_empty(&waiters)) {
				tell_unlocked(res);
			}
			return;
		default:
			stock(INTERNAL_FUNCTION_PARAM_PASSTHRU);
			return;
	}
	if ((operation & PHP_LOCK_NB) || !may_yield() || !php_stream_is(stream, PHP_STREAM_IS_STDIO)) {
		stock(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	if (argc > op_arg) {
		/* PHP clears $would_block first, whatever happens next. */
		ZEND_TRY_ASSIGN_REF_LONG(ZEND_CALL_ARG(execute_data, op_arg + 1), 0);
		if (EG(exception)) {
			/* PHP locks anyway, blocking, the exception pending; no coroutine may wait with one. */
			RETURN_BOOL(php_stream_lock(stream, lock) == 0);
		}
	}
	lock_in_coroutine(res, stream, lock, return_value);
}

/* Nothing to wait for, and nobody waiting to be told of an unlock: PHP's own handler, untouched. */
static bool stock_will_do(void)
{
	return !may_yield() && rapier_list_is_empty(&waiters);
}

static ZEND_FUNCTION(rapier_flock)
{
	zval *stream_arg = ZEND_NUM_ARGS() >= 1 ? ZEND_CALL_ARG(execute_data, 1) : NULL;

	if (stock_will_do()) {
		stock_flock(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	hooked_flock(INTERNAL_FUNCTION_PARAM_PASSTHRU, stock_flock,
		stream_arg && Z_TYPE_P(stream_arg) == IS_RESOURCE ? Z_RES_P(stream_arg) : NULL, 2);
}

/*
 * The resource of an SplFileObject's stream, or NULL (not initialized).
 * SplFileObject keeps it in its internal struct, which spl_directory.h
 * publishes for extensions.
 */
static zend_resource *spl_file_resource(zend_object *object)
{
	spl_filesystem_object *intern = (spl_filesystem_object *) ((char *) object - XtOffsetOf(spl_filesystem_object, std));

	if (!instanceof_function(object->ce, spl_ce_SplFileObject) || intern->type != SPL_FS_FILE
			|| intern->u.file.stream == NULL || Z_TYPE(intern->u.file.zresource) != IS_RESOURCE) {
		return NULL;
	}
	return Z_RES(intern->u.file.zresource);
}

static ZEND_METHOD(rapier_SplFileObject, flock)
{
	if (stock_will_do() || Z_TYPE(EX(This)) != IS_OBJECT) {
		stock_spl_flock(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	hooked_flock(INTERNAL_FUNCTION_PARAM_PASSTHRU, stock_spl_flock, spl_file_resource(Z_OBJ(EX(This))), 1);
}

/*
 * fclose(): closing a file releases the lock its description held, so a
 * waiter of that file need not wait for its next poll. (A stream freed
 * without fclose(), at the end of a request say, is noticed by the poll.)
 */
static ZEND_FUNCTION(rapier_flock_fclose)
{
	php_stream *stream;
	dev_t dev;
	ino_t ino;

	if (rapier_list_is_empty(&waiters) || ZEND_NUM_ARGS() != 1
			|| (stream = rapier_hook_stream_of(ZEND_CALL_ARG(execute_data, 1))) == NULL
			|| !php_stream_is(stream, PHP_STREAM_IS_STDIO) || !identify(stream, &dev, &ino)) {
		stock_fclose(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	stock_fclose(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	if (Z_TYPE_P(return_value) == IS_TRUE) {
		wake_oldest_of(dev, ino);
	}
}

/*
 * The file file_put_contents() with LOCK_EX is about to lock, opened on a
 * descriptor of our own without truncating it (PHP's handler would create
 * it too), or NULL where PHP's handler is left to do everything: arguments
 * it refuses before opening, FILE_USE_INCLUDE_PATH, a path that is not a
 * plain file or is outside open_basedir (PHP reports it), anything but a
 * regular file (a FIFO would see two writers), a file that cannot be
 * opened (PHP reports why).
 */
static php_stream *open_file_to_lock(zend_execute_data *execute_data, zend_long flags)
{
	zval *path = ZEND_CALL_ARG(execute_data, 1);
	zval *data = ZEND_CALL_ARG(execute_data, 2);
	zval *context = ZEND_NUM_ARGS() == 4 ? ZEND_CALL_ARG(execute_data, 4) : NULL;
	const char *name, *local;
	zend_stat_t st;
	php_stream *stream;

	if ((flags & PHP_FILE_USE_INCLUDE_PATH) || Z_TYPE_P(path) != IS_STRING || Z_STRLEN_P(path) == 0
			|| strlen(Z_STRVAL_P(path)) != Z_STRLEN_P(path)
			|| (Z_TYPE_P(data) == IS_RESOURCE && rapier_hook_stream_of(data) == NULL)
			|| (context && Z_TYPE_P(context) != IS_NULL
				&& (Z_TYPE_P(context) != IS_RESOURCE || Z_RES_TYPE_P(context) != php_le_stream_context()))) {
		return NULL;
	}
	name = Z_STRVAL_P(path);
	if ((strstr(name, "://") && strncasecmp(name, "file://", sizeof("file://") - 1) != 0)
			|| php_stream_locate_url_wrapper(name, &local, 0) != &php_plain_files_wrapper
			|| php_check_open_basedir_ex(local, 0) != 0
			|| (VCWD_STAT(local, &st) == 0 && !S_ISREG(st.st_mode))) {
		return NULL;
	}
	stream = php_stream_open_wrapper_ex(name, "cb", 0, NULL, NULL);
	if (stream && !php_stream_is(stream, PHP_STREAM_IS_STDIO)) {
		php_stream_close(stream);
		return NULL;
	}
	return stream;
}

/*
 * file_put_contents() with LOCK_EX takes its lock inside PHP's own code,
 * blocking. In a coroutine the lock is first waited for here, in the loop,
 * on a descriptor of our own, and let go just before PHP's handler runs:
 * nothing else of this worker runs in between, so PHP's lock can no longer
 * wait for a coroutine of this worker. (A process may take it in that
 * instant; PHP then waits for it as it always did.)
 */
static ZEND_FUNCTION(rapier_file_put_contents)
{
	zend_long flags;
	php_stream *own;
	lock_outcome_t outcome;
	bool identified;
	dev_t dev;
	ino_t ino;

	if (!may_yield() || ZEND_NUM_ARGS() < 3 || ZEND_NUM_ARGS() > 4) {
		stock_file_put_contents(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	if (!zend_parse_arg_long(ZEND_CALL_ARG(execute_data, 3), &flags, NULL, false, 3)) {
		if (EG(exception)) {
			RETURN_THROWS();
		}
		stock_file_put_contents(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	rapier_hook_set_long_arg(execute_data, 3, flags);
	if (!(flags & PHP_LOCK_EX) || (own = open_file_to_lock(execute_data, flags)) == NULL) {
		stock_file_put_contents(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	/* Only a waiter there now can need the wake below: none can come unless this call waits too. */
	identified = !rapier_list_is_empty(&waiters) && identify(own, &dev, &ino);
	outcome = wait_for_lock(own->res, own, LOCK_EX, "file_put_contents");
	php_stream_close(own);
	if (outcome == LOCK_CANCELED) {
		return;
	}
	stock_file_put_contents(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	/*
	 * PHP's handler closed its stream, and with it its lock: a waiter that
	 * polls need not wait for its next poll. (After a wait, leave() has
	 * already told the next one.)
	 */
	if (outcome != LOCK_TAKEN_AFTER_WAITING && identified && !rapier_list_is_empty(&waiters)) {
		wake_oldest_of(dev, ino);
	}
}
