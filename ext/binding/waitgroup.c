/*
 * Rapier\WaitGroup: the PHP face of src/waitgroup.c.
 *
 * add() takes only n >= 0: decrements go through done(), so an unmatched
 * done() is always reported with the same message, and add(count($jobs))
 * with no jobs is a harmless no-op. A waiting coroutine holds a reference on
 * the object, as with channels.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_exceptions.h"

#include "php_rapier.h"
#include "src/waitgroup.h"
#include "waitgroup_arginfo.h"

typedef struct {
	rapier_wg_t wg;
	zend_object std;
} waitgroup_object;

static zend_class_entry *rapier_ce_waitgroup;
static zend_object_handlers waitgroup_handlers;

static inline waitgroup_object *waitgroup_from(zend_object *obj)
{
	return (waitgroup_object *) ((char *) obj - XtOffsetOf(waitgroup_object, std));
}

#define THIS_WAITGROUP() waitgroup_from(Z_OBJ_P(ZEND_THIS))

static zend_object *waitgroup_create(zend_class_entry *ce)
{
	waitgroup_object *wg = zend_object_alloc(sizeof(waitgroup_object), ce);

	rapier_wg_init(&wg->wg);
	zend_object_std_init(&wg->std, ce);
	object_properties_init(&wg->std, ce);
	wg->std.handlers = &waitgroup_handlers;
	return &wg->std;
}

/* Throws for a failed add(); returns false if it did. */
static bool check_add(rapier_wg_status_t st, zend_long n)
{
	if (st == RAPIER_WG_NEGATIVE) {
		zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot call done() more times than add()");
		return false;
	}
	if (st == RAPIER_WG_OVERFLOW) {
		zend_throw_exception_ex(rapier_ce_exception, 0,
			"Cannot add " ZEND_LONG_FMT ": the counter would overflow", n);
		return false;
	}
	return true;
}

ZEND_METHOD(Rapier_WaitGroup, add)
{
	zend_long n = 1;

	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(n)
	ZEND_PARSE_PARAMETERS_END();

	if (n < 0) {
		zend_argument_value_error(1, "must be greater than or equal to 0");
		RETURN_THROWS();
	}
	if (!check_add(rapier_wg_add(&THIS_WAITGROUP()->wg, n), n)) {
		RETURN_THROWS();
	}
}

ZEND_METHOD(Rapier_WaitGroup, done)
{
	ZEND_PARSE_PARAMETERS_NONE();

	if (!check_add(rapier_wg_add(&THIS_WAITGROUP()->wg, -1), -1)) {
		RETURN_THROWS();
	}
}

ZEND_METHOD(Rapier_WaitGroup, wait)
{
	zend_object *obj = Z_OBJ_P(ZEND_THIS);
	double timeout = -1;
	int64_t timeout_ns;
	rapier_wg_status_t st;

	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_DOUBLE(timeout)
	ZEND_PARSE_PARAMETERS_END();

	timeout_ns = rapier_timeout_arg_ns(timeout, 1);
	if (timeout_ns == -2) {
		RETURN_THROWS();
	}
	GC_ADDREF(obj);
	st = rapier_wg_wait(&waitgroup_from(obj)->wg, timeout_ns);
	OBJ_RELEASE(obj);
	if (st == RAPIER_WG_CANNOT_WAIT) {
		/* The engine found that the caller cannot yield, so this throws. */
		rapier_require_coroutine("Rapier\\WaitGroup::wait()");
		RETURN_THROWS();
	}
	if (st == RAPIER_WG_CANCELED) {
		if (!EG(exception)) {
			zend_throw_exception_ex(rapier_ce_canceled_exception, 0,
				"Coroutine was canceled while waiting on a WaitGroup");
		}
		RETURN_THROWS();
	}
	if (EG(exception)) {
		RETURN_THROWS();
	}
	RETURN_BOOL(st == RAPIER_WG_OK);
}

void rapier_waitgroup_class_minit(void)
{
	rapier_ce_waitgroup = register_class_Rapier_WaitGroup();
	rapier_ce_waitgroup->create_object = waitgroup_create;

	memcpy(&waitgroup_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	waitgroup_handlers.offset = XtOffsetOf(waitgroup_object, std);
	waitgroup_handlers.clone_obj = NULL;
}
