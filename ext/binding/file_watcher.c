/*
 * Rapier\FileWatcher: the PHP face of src/fswatch.c.
 *
 * wait() collects every change that is waiting once the first one comes,
 * each path once, and leaves debouncing to the caller (the CLI's watch
 * mode waits for a quiet moment before it reloads). In a coroutine it
 * waits on the inotify descriptor through the loop; elsewhere it blocks in
 * poll(), as stock PHP code would.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_exceptions.h"

#include <poll.h>

#include "php_rapier.h"
#include "src/coroutine.h"
#include "src/fswatch.h"
#include "file_watcher_arginfo.h"

typedef struct {
	rapier_fswatch_t fs;
	rapier_io_t io;
	rapier_coro_t *waiter;
	zend_object std;
} watcher_object;

static zend_class_entry *rapier_ce_file_watcher;
static zend_object_handlers watcher_handlers;

static inline watcher_object *watcher_from(zend_object *obj)
{
	return (watcher_object *) ((char *) obj - XtOffsetOf(watcher_object, std));
}

static zend_object *watcher_create(zend_class_entry *ce)
{
	watcher_object *w = zend_object_alloc(sizeof(watcher_object), ce);

	w->fs.fd = -1;
	zend_object_std_init(&w->std, ce);
	object_properties_init(&w->std, ce);
	w->std.handlers = &watcher_handlers;
	return &w->std;
}

static void watcher_free(zend_object *obj)
{
	rapier_fswatch_close(&watcher_from(obj)->fs);
	zend_object_std_dtor(obj);
}

ZEND_METHOD(Rapier_FileWatcher, __construct)
{
	watcher_object *w = watcher_from(Z_OBJ_P(ZEND_THIS));
	HashTable *paths;
	zval *path;
	int rc;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_ARRAY_HT(paths)
	ZEND_PARSE_PARAMETERS_END();

	if (zend_hash_num_elements(paths) == 0) {
		zend_argument_value_error(1, "must not be empty");
		RETURN_THROWS();
	}
	ZEND_HASH_FOREACH_VAL(paths, path) {
		if (Z_TYPE_P(path) != IS_STRING || Z_STRLEN_P(path) == 0) {
			zend_argument_value_error(1, "must contain only non-empty strings");
			RETURN_THROWS();
		}
	} ZEND_HASH_FOREACH_END();
	if (w->fs.fd < 0 && (rc = rapier_fswatch_init(&w->fs)) < 0) {
		zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot start inotify: %s", strerror(-rc));
		RETURN_THROWS();
	}
	ZEND_HASH_FOREACH_VAL(paths, path) {
		if ((rc = rapier_fswatch_add(&w->fs, Z_STRVAL_P(path))) < 0) {
			zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot watch %s: %s%s", Z_STRVAL_P(path),
				strerror(-rc), rc == -ENOSPC ? " (raise fs.inotify.max_user_watches)" : "");
			RETURN_THROWS();
		}
	} ZEND_HASH_FOREACH_END();
}

static void on_readable(rapier_io_t *io, uint32_t events)
{
	watcher_object *w = io->data;
	rapier_coro_t *co = w->waiter;

	(void) events;
	rapier_io_stop(rapier_sched_loop(), &w->io);
	w->waiter = NULL;
	if (co) {
		rapier_coro_wake(co, RAPIER_WAKE_OK);
	}
}

static void unlink_waiter(rapier_coro_t *co, void *data)
{
	watcher_object *w = data;

	(void) co;
	rapier_io_stop(rapier_sched_loop(), &w->io);
	w->waiter = NULL;
}

/* Waits for the descriptor to be readable: 1, 0 on timeout, or -1 with an exception. */
static int wait_readable(watcher_object *w, int64_t timeout_ns)
{
	rapier_wake_t why;

	if (!rapier_coro_can_yield()) {
		struct pollfd pfd = { .fd = w->fs.fd, .events = POLLIN };
		int n = poll(&pfd, 1, timeout_ns < 0 ? -1 : (int) ((timeout_ns + 999999) / 1000000));
		return n > 0 ? 1 : 0;
	}
	rapier_io_init(&w->io, w->fs.fd, on_readable, w);
	rapier_io_start(rapier_sched_loop(), &w->io, RAPIER_IO_READ);
	w->waiter = rapier_coro_current();
	GC_ADDREF(&w->std);
	why = rapier_coro_wait(timeout_ns, unlink_waiter, w, "a file watcher");
	OBJ_RELEASE(&w->std);
	if (why == RAPIER_WAKE_CANCELED) {
		if (!EG(exception)) {
			zend_throw_exception(rapier_ce_canceled_exception, "Coroutine was canceled while watching files", 0);
		}
		return -1;
	}
	return why == RAPIER_WAKE_OK;
}

static void add_change(void *data, const char *path)
{
	zend_hash_str_add_empty_element(data, path, strlen(path));
}

ZEND_METHOD(Rapier_FileWatcher, wait)
{
	watcher_object *w = watcher_from(Z_OBJ_P(ZEND_THIS));
	double timeout = -1;
	int64_t timeout_ns;
	HashTable seen;
	zend_string *path;
	int rc;

	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_DOUBLE(timeout)
	ZEND_PARSE_PARAMETERS_END();

	if ((timeout_ns = rapier_timeout_arg_ns(timeout, 1)) == -2) {
		RETURN_THROWS();
	}
	if (w->fs.fd < 0) {
		zend_throw_exception(rapier_ce_exception, "Cannot wait: the watcher is closed", 0);
		RETURN_THROWS();
	}
	if (w->waiter) {
		zend_throw_exception(rapier_ce_exception, "Cannot wait: another coroutine already waits on this watcher", 0);
		RETURN_THROWS();
	}
	zend_hash_init(&seen, 8, NULL, NULL, 0);
	rc = rapier_fswatch_read(&w->fs, add_change, &seen);
	if (rc == 0 && (rc = wait_readable(w, timeout_ns)) > 0) {
		rc = rapier_fswatch_read(&w->fs, add_change, &seen);
	}
	if (rc < 0 && !EG(exception)) {
		zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot read inotify events: %s", strerror(-rc));
	}
	if (EG(exception)) {
		zend_hash_destroy(&seen);
		RETURN_THROWS();
	}
	array_init_size(return_value, zend_hash_num_elements(&seen));
	ZEND_HASH_FOREACH_STR_KEY(&seen, path) {
		add_next_index_str(return_value, zend_string_copy(path));
	} ZEND_HASH_FOREACH_END();
	zend_hash_destroy(&seen);
}

ZEND_METHOD(Rapier_FileWatcher, count)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_LONG((zend_long) watcher_from(Z_OBJ_P(ZEND_THIS))->fs.watch_count);
}

ZEND_METHOD(Rapier_FileWatcher, close)
{
	watcher_object *w = watcher_from(Z_OBJ_P(ZEND_THIS));

	ZEND_PARSE_PARAMETERS_NONE();
	if (w->waiter) {
		zend_throw_exception(rapier_ce_exception, "Cannot close the watcher while a coroutine waits on it", 0);
		RETURN_THROWS();
	}
	rapier_fswatch_close(&w->fs);
}

void rapier_file_watcher_class_minit(void)
{
	rapier_ce_file_watcher = register_class_Rapier_FileWatcher();
	rapier_ce_file_watcher->create_object = watcher_create;
	memcpy(&watcher_handlers, &std_object_handlers, sizeof(watcher_handlers));
	watcher_handlers.offset = XtOffsetOf(watcher_object, std);
	watcher_handlers.free_obj = watcher_free;
	watcher_handlers.clone_obj = NULL;
}
