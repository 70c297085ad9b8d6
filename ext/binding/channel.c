/*
 * Rapier\Channel: the PHP face of src/channel.c.
 *
 * Each method parses its arguments, calls one engine function and turns the
 * status into a return value or an exception. A coroutine that waits holds a
 * reference on the object, so the channel outlives every wait on it even if
 * the user drops the last variable meanwhile.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_exceptions.h"

#include "php_rapier.h"
#include "src/channel.h"
#include "channel_arginfo.h"

typedef struct {
	rapier_chan_t chan;
	bool constructed;
	zend_object std;
} channel_object;

static zend_class_entry *rapier_ce_channel;
static zend_object_handlers channel_handlers;

static inline channel_object *channel_from(zend_object *obj)
{
	return (channel_object *) ((char *) obj - XtOffsetOf(channel_object, std));
}

#define THIS_CHANNEL() channel_from(Z_OBJ_P(ZEND_THIS))

static zend_object *channel_create(zend_class_entry *ce)
{
	channel_object *ch = zend_object_alloc(sizeof(channel_object), ce);

	rapier_chan_init(&ch->chan, 0);
	ch->constructed = false;
	zend_object_std_init(&ch->std, ce);
	object_properties_init(&ch->std, ce);
	ch->std.handlers = &channel_handlers;
	return &ch->std;
}

static void channel_free(zend_object *obj)
{
	rapier_chan_destroy(&channel_from(obj)->chan);
	zend_object_std_dtor(obj);
}

/* Buffered values may hold the channel itself (a channel of channels). */
static HashTable *channel_get_gc(zend_object *obj, zval **table, int *n)
{
	zend_get_gc_buffer *gc_buffer = zend_get_gc_buffer_create();

	rapier_chan_gc(&channel_from(obj)->chan, gc_buffer);
	zend_get_gc_buffer_use(gc_buffer, table, n);
	return NULL;
}

/*
 * Turns a failed wait into an exception; returns false when the method
 * must return at once (exception thrown or already pending).
 */
static bool check_wait(rapier_chan_status_t st, const char *method)
{
	if (st == RAPIER_CHAN_CANNOT_WAIT) {
		/* The engine found that the caller cannot yield, so this throws. */
		rapier_require_coroutine(method);
		return false;
	}
	if (st == RAPIER_CHAN_CANCELED) {
		if (!EG(exception)) {
			zend_throw_exception_ex(rapier_ce_canceled_exception, 0,
				"Coroutine was canceled while waiting on a channel");
		}
		return false;
	}
	return !EG(exception);
}

ZEND_METHOD(Rapier_Channel, __construct)
{
	channel_object *ch = THIS_CHANNEL();
	zend_long capacity = 0;

	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(capacity)
	ZEND_PARSE_PARAMETERS_END();

	if (ch->constructed) {
		zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot call Rapier\\Channel::__construct() twice");
		RETURN_THROWS();
	}
	if (capacity < 0 || capacity > RAPIER_CHAN_MAX_CAPACITY) {
		zend_argument_value_error(1, "must be between 0 and " ZEND_LONG_FMT, RAPIER_CHAN_MAX_CAPACITY);
		RETURN_THROWS();
	}
	ch->constructed = true;
	rapier_chan_init(&ch->chan, (uint32_t) capacity);
}

ZEND_METHOD(Rapier_Channel, push)
{
	zend_object *obj = Z_OBJ_P(ZEND_THIS);
	zval *value;
	double timeout = -1;
	int64_t timeout_ns;
	rapier_chan_status_t st;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_ZVAL(value)
		Z_PARAM_OPTIONAL
		Z_PARAM_DOUBLE(timeout)
	ZEND_PARSE_PARAMETERS_END();

	timeout_ns = rapier_timeout_arg_ns(timeout, 2);
	if (timeout_ns == -2) {
		RETURN_THROWS();
	}
	GC_ADDREF(obj);
	st = rapier_chan_push(&channel_from(obj)->chan, value, timeout_ns);
	OBJ_RELEASE(obj);
	if (!check_wait(st, "Rapier\\Channel::push()")) {
		RETURN_THROWS();
	}
	RETURN_BOOL(st == RAPIER_CHAN_OK);
}

ZEND_METHOD(Rapier_Channel, pop)
{
	zend_object *obj = Z_OBJ_P(ZEND_THIS);
	double timeout = -1;
	int64_t timeout_ns;
	rapier_chan_status_t st;
	zval value;

	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_DOUBLE(timeout)
	ZEND_PARSE_PARAMETERS_END();

	timeout_ns = rapier_timeout_arg_ns(timeout, 1);
	if (timeout_ns == -2) {
		RETURN_THROWS();
	}
	GC_ADDREF(obj);
	st = rapier_chan_pop(&channel_from(obj)->chan, &value, timeout_ns);
	OBJ_RELEASE(obj);
	if (!check_wait(st, "Rapier\\Channel::pop()")) {
		zval_ptr_dtor(&value);
		RETURN_THROWS();
	}
	if (st != RAPIER_CHAN_OK) {
		RETURN_FALSE;
	}
	RETURN_COPY_VALUE(&value);
}

ZEND_METHOD(Rapier_Channel, close)
{
	ZEND_PARSE_PARAMETERS_NONE();

	rapier_chan_close(&THIS_CHANNEL()->chan);
}

ZEND_METHOD(Rapier_Channel, length)
{
	ZEND_PARSE_PARAMETERS_NONE();

	RETURN_LONG(THIS_CHANNEL()->chan.length);
}

ZEND_METHOD(Rapier_Channel, capacity)
{
	ZEND_PARSE_PARAMETERS_NONE();

	RETURN_LONG(THIS_CHANNEL()->chan.capacity);
}

ZEND_METHOD(Rapier_Channel, isClosed)
{
	ZEND_PARSE_PARAMETERS_NONE();

	RETURN_BOOL(THIS_CHANNEL()->chan.closed);
}

void rapier_channel_class_minit(void)
{
	rapier_ce_channel = register_class_Rapier_Channel();
	rapier_ce_channel->create_object = channel_create;

	memcpy(&channel_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	channel_handlers.offset = XtOffsetOf(channel_object, std);
	channel_handlers.free_obj = channel_free;
	channel_handlers.get_gc = channel_get_gc;
	channel_handlers.clone_obj = NULL;
}
