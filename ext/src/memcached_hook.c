/*
 * ext/memcached (libmemcached) inside coroutines.
 *
 * libmemcached keeps its sockets non-blocking and waits for them in poll(),
 * which libhook.c rebinds; its getaddrinfo() is rebound here, so a host
 * name resolves on a lookup thread. Yielding there is not safe by itself:
 * a memcached_st is one conversation with its servers, and libmemcached
 * starts a command by reading and dropping the answers still pending on
 * them. A coroutine calling a method of a Memcached object while another
 * one waits inside that object for an answer would take that answer, or
 * throw it away. So every method of the Memcached class takes a turn on
 * the object's memcached_st first (the objects of one persistent id share
 * it): callers wait in arrival order, the holder's own nested calls (a
 * read-through callback using the same object) go straight in, and
 * libmemcached suspends only a coroutine inside its turn. A getDelayed()
 * without a callback leaves answers on the wire for later fetch() calls,
 * so its caller keeps the turn until fetch() returns false, fetchAll()
 * returns, it calls another method, or it ends.
 *
 * A constructor with a persistent id takes a turn on the id: its callback
 * may suspend before the connection is registered under the id, and a
 * second constructor of the id would then register another one over it,
 * freeing the first while it is in use.
 *
 * The turns key on what the object points to, read through the object
 * handlers' offset: php-memcached's object struct starts with its
 * memcached_st pointer. No build dependency on its headers.
 */
#include "php_rapier.h"
#include "zend_exceptions.h"

#include <netdb.h>

#include "coroutine.h"
#include "hook.h"
#include "list.h"
#include "memcached_hook.h"
#include "plt.h"
#include "resolve.h"

/* How often a coroutine waiting behind a getDelayed() caller looks whether that caller has ended. */
#define DELAYED_CHECK_NS (10 * 1000 * 1000)

typedef enum {
	METHOD_PLAIN,
	METHOD_CONSTRUCT,
	METHOD_GET_DELAYED,         /* getDelayed(keys, with_cas, value_cb) */
	METHOD_GET_DELAYED_BY_KEY,  /* getDelayedByKey(server_key, keys, with_cas, value_cb) */
	METHOD_FETCH,
	METHOD_FETCH_ALL,
} method_kind_t;

typedef struct {
	zif_handler handler;   /* php-memcached's */
	method_kind_t kind;
} wrapped_method_t;

typedef struct {
	rapier_list_node_t link;   /* in turns */
	const void *memc;          /* the connection, or NULL for a persistent id's constructors */
	zend_string *persistent_id;
	zend_long holder;          /* coroutine id, 0: free */
	uint32_t depth;            /* the holder's calls in progress */
	bool delayed;              /* the holder's getDelayed() answers are unread */
	rapier_list_t waiters;     /* turn_waiter_t, in arrival order */
} memc_turn_t;

/* A coroutine waiting for a turn, on its stack. */
typedef struct {
	rapier_list_node_t link;
	rapier_coro_t *co;
	bool granted;
} turn_waiter_t;

typedef struct {
	memc_turn_t *turn;
	const wrapped_method_t *method;
} call_t;

typedef int (*getaddrinfo_fn)(const char *node, const char *service, const struct addrinfo *hints,
	struct addrinfo **res);

static zend_class_entry *memcached_ce;
static HashTable wrapped;          /* method name, as declared => wrapped_method_t */
static rapier_list_t turns;        /* held or waited for; few at a time */
static rapier_plt_rebinding_t memc_getaddrinfo = { .count = 0 };

/* Turns */

static memc_turn_t *find_turn(const void *memc, const zend_string *persistent_id)
{
	for (rapier_list_node_t *node = turns.head; node != NULL; node = node->next) {
		memc_turn_t *turn = RAPIER_LIST_ENTRY(node, memc_turn_t, link);

		if (memc != NULL ? turn->memc == memc
				: turn->persistent_id != NULL && zend_string_equals(turn->persistent_id, persistent_id)) {
			return turn;
		}
	}
	return NULL;
}

static memc_turn_t *new_turn(const void *memc, zend_string *persistent_id)
{
	memc_turn_t *turn = ecalloc(1, sizeof(*turn));

	turn->memc = memc;
	turn->persistent_id = persistent_id != NULL ? zend_string_copy(persistent_id) : NULL;
	rapier_list_push(&turns, &turn->link);
	return turn;
}

static void free_turn(memc_turn_t *turn)
{
	rapier_list_remove(&turns, &turn->link);
	if (turn->persistent_id != NULL) {
		zend_string_release(turn->persistent_id);
	}
	efree(turn);
}

static void free_if_unused(memc_turn_t *turn)
{
	if (turn->holder == 0 && rapier_list_is_empty(&turn->waiters)) {
		free_turn(turn);
	}
}

/* Ended, or a forked child's copy of its parent's coroutine, which never runs there. */
static bool holder_gone(const memc_turn_t *turn)
{
	return turn->holder != 0 && rapier_coro_find(turn->holder) == NULL;
}

/* Hands the turn straight to the oldest waiter, so that no later caller slips in before it. */
static void pass_turn(memc_turn_t *turn)
{
	rapier_list_node_t *node;

	turn->holder = 0;
	turn->depth = 0;
	turn->delayed = false;
	while ((node = rapier_list_shift(&turn->waiters)) != NULL) {
		turn_waiter_t *w = RAPIER_LIST_ENTRY(node, turn_waiter_t, link);

		if (w->co->inherited) {
			continue;   /* a forked child's copy: it would never take it */
		}
		turn->holder = w->co->id;
		turn->depth = 1;
		w->granted = true;
		rapier_coro_wake(w->co, RAPIER_WAKE_OK);   /* no-op if already woken: it finds granted */
		return;
	}
	free_turn(turn);
}

static void forget_inherited_waiters(memc_turn_t *turn)
{
	rapier_list_node_t *node = turn->waiters.head;

	while (node != NULL) {
		turn_waiter_t *w = RAPIER_LIST_ENTRY(node, turn_waiter_t, link);

		node = node->next;
		if (w->co->inherited) {
			rapier_list_remove(&turn->waiters, &w->link);
		}
	}
}

/* After a getDelayed(): the waiters wait again, with a timeout, to see whether its caller ends. */
static void recheck_waiters(memc_turn_t *turn)
{
	for (rapier_list_node_t *node = turn->waiters.head; node != NULL; node = node->next) {
		rapier_coro_wake(RAPIER_LIST_ENTRY(node, turn_waiter_t, link)->co, RAPIER_WAKE_TIMEOUT);
	}
}

static const char *method_name(const zend_execute_data *execute_data)
{
	return ZSTR_VAL(execute_data->func->common.function_name);
}

/*
 * Waits in turn's queue until the turn is handed over. False, with
 * CanceledException thrown, when canceled meanwhile. The waiter stays
 * queued across its own wake-ups (a timeout, a recheck), so it keeps its
 * place: the waits get no unlink callback and the waiter leaves the queue
 * itself.
 */
static bool wait_for_turn(memc_turn_t *turn, zend_execute_data *execute_data)
{
	turn_waiter_t w = { .co = rapier_coro_current() };
	zend_long holder = turn->holder;
	rapier_wake_t why;

	rapier_list_push(&turn->waiters, &w.link);
	do {
		why = rapier_coro_wait(turn->delayed ? DELAYED_CHECK_NS : -1, NULL, NULL, "its turn on a Memcached connection");
		if (!w.granted && why != RAPIER_WAKE_CANCELED && holder_gone(turn)) {
			pass_turn(turn);   /* to the oldest waiter, which may be w */
		}
	} while (!w.granted && why != RAPIER_WAKE_CANCELED);

	if (why != RAPIER_WAKE_CANCELED) {
		return true;
	}
	rapier_list_remove(&turn->waiters, &w.link);
	if (w.granted) {
		pass_turn(turn);
	} else {
		free_if_unused(turn);
	}
	if (!EG(exception)) {
		zend_throw_exception_ex(rapier_ce_canceled_exception, 0,
			"Coroutine was canceled while waiting for its turn to call Memcached::%s() (coroutine #" ZEND_LONG_FMT
			" was using the connection)", method_name(execute_data), holder);
	}
	return false;
}

/* Takes turn for the current coroutine. False, with an exception thrown, when it could not. */
static bool take_turn(memc_turn_t *turn, zend_execute_data *execute_data, method_kind_t kind)
{
	zend_long me = rapier_coro_current()->id;

	if (turn->holder != me && holder_gone(turn)) {
		/* It ended after a getDelayed(), or is a forked child's copy: the oldest live waiter goes first. */
		forget_inherited_waiters(turn);
		if (rapier_list_is_empty(&turn->waiters)) {
			turn->holder = 0;
			turn->depth = 0;
			turn->delayed = false;
		} else {
			pass_turn(turn);
		}
	}
	if (turn->holder == me) {
		/* Its own nested call. Any call but a fetch ends a getDelayed(): libmemcached drops its answers. */
		turn->delayed = turn->delayed && (kind == METHOD_FETCH || kind == METHOD_FETCH_ALL);
		turn->depth++;
		return true;
	}
	if (turn->holder == 0 && rapier_list_is_empty(&turn->waiters)) {
		turn->holder = me;
		turn->depth = 1;
		return true;
	}
	if (!rapier_coro_can_yield()) {
		zend_throw_exception_ex(rapier_ce_exception, 0,
			"Cannot call Memcached::%s() here: coroutine #" ZEND_LONG_FMT " is using the connection, and this"
			" code cannot wait for it (a destructor run by the garbage collector cannot suspend); use one"
			" Memcached object per coroutine, or a pool", method_name(execute_data), turn->holder);
		free_if_unused(turn);
		return false;
	}
	return wait_for_turn(turn, execute_data);
}

/* After the method returned: hands the turn on, unless the holder is still inside or keeps it for fetch(). */
static void end_turn(memc_turn_t *turn, const call_t *call, zend_execute_data *execute_data, const zval *rv)
{
	uint32_t callback_arg = call->method->kind == METHOD_GET_DELAYED ? 3 : 4;

	switch (call->method->kind) {
		case METHOD_GET_DELAYED:
		case METHOD_GET_DELAYED_BY_KEY:
			/* With a callback the answers are read before it returns. */
			turn->delayed = Z_TYPE_P(rv) == IS_TRUE && (ZEND_NUM_ARGS() < callback_arg
				|| Z_TYPE_P(ZEND_CALL_ARG(execute_data, callback_arg)) == IS_NULL);
			break;
		case METHOD_FETCH:
			turn->delayed = turn->delayed && Z_TYPE_P(rv) != IS_FALSE;
			break;
		case METHOD_FETCH_ALL:
			turn->delayed = false;
			break;
		default:
			break;
	}
	if (--turn->depth > 0) {
		return;
	}
	if (turn->delayed) {
		recheck_waiters(turn);
		return;
	}
	pass_turn(turn);
}

/* Calls */

/* The memcached_st an object of the Memcached class points to, or NULL before its constructor ran. */
static const void *memc_of(const zend_object *object)
{
	if (object->handlers->offset < (int) sizeof(void *)) {
		return NULL;
	}
	return *(void *const *) ((const char *) object - object->handlers->offset);
}

static zend_string *persistent_id_arg(zend_execute_data *execute_data)
{
	zval *id = ZEND_NUM_ARGS() >= 1 ? ZEND_CALL_ARG(execute_data, 1) : NULL;

	return id != NULL && Z_TYPE_P(id) == IS_STRING && Z_STRLEN_P(id) > 0 ? Z_STR_P(id) : NULL;
}

/* The turn this call must take, or NULL when it needs none. */
static memc_turn_t *turn_for(zend_execute_data *execute_data, method_kind_t kind)
{
	const void *memc = NULL;
	zend_string *persistent_id = NULL;
	memc_turn_t *turn;

	if (Z_TYPE(EX(This)) != IS_OBJECT || !instanceof_function(Z_OBJCE(EX(This)), memcached_ce)) {
		return NULL;
	}
	if (kind == METHOD_CONSTRUCT) {
		persistent_id = persistent_id_arg(execute_data);
	} else {
		memc = memc_of(Z_OBJ(EX(This)));
	}
	if (memc == NULL && persistent_id == NULL) {
		return NULL;
	}
	turn = find_turn(memc, persistent_id);
	return turn != NULL ? turn : new_turn(memc, persistent_id);
}

static ZEND_FUNCTION(rapier_memcached_method)
{
	call_t call = { .method = zend_hash_find_ptr(&wrapped, execute_data->func->common.function_name) };

	if (call.method == NULL) {
		zend_throw_error(NULL, "Memcached::%s() lost its handler", method_name(execute_data));
		return;
	}
	if (!rapier_hook_enabled(RAPIER_HOOK_MEMCACHED) || !rapier_sched_running() || rapier_coro_current() == NULL
			|| (call.turn = turn_for(execute_data, call.method->kind)) == NULL) {
		call.method->handler(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	if (!take_turn(call.turn, execute_data, call.method->kind)) {
		return;
	}
	call.method->handler(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	end_turn(call.turn, &call, execute_data, return_value);
}

bool rapier_memcached_may_yield(const struct pollfd *fds, nfds_t nfds)
{
	rapier_coro_t *co = rapier_coro_current();

	(void) fds;
	(void) nfds;
	for (rapier_list_node_t *node = turns.head; node != NULL; node = node->next) {
		const memc_turn_t *turn = RAPIER_LIST_ENTRY(node, memc_turn_t, link);

		if (turn->holder == co->id && turn->depth > 0) {
			return true;
		}
	}
	return false;
}

static int yielding_getaddrinfo(const char *node, const char *service, const struct addrinfo *hints,
	struct addrinfo **res)
{
	if (!rapier_hook_enabled(RAPIER_HOOK_MEMCACHED) || !rapier_coro_can_yield()
			|| !rapier_memcached_may_yield(NULL, 0)) {
		return ((getaddrinfo_fn) rapier_plt_original(&memc_getaddrinfo))(node, service, hints, res);
	}
	return rapier_resolve_addrinfo(node, service, hints, res, "libmemcached looked up host");
}

/* Installation */

static method_kind_t kind_of(const zend_string *name)
{
	if (zend_string_equals_literal_ci(name, "__construct")) {
		return METHOD_CONSTRUCT;
	}
	if (zend_string_equals_literal_ci(name, "getDelayed")) {
		return METHOD_GET_DELAYED;
	}
	if (zend_string_equals_literal_ci(name, "getDelayedByKey")) {
		return METHOD_GET_DELAYED_BY_KEY;
	}
	if (zend_string_equals_literal_ci(name, "fetch")) {
		return METHOD_FETCH;
	}
	if (zend_string_equals_literal_ci(name, "fetchAll")) {
		return METHOD_FETCH_ALL;
	}
	return METHOD_PLAIN;
}

static void free_wrapped_method(zval *zv)
{
	free(Z_PTR_P(zv));
}

/*
 * Keyed by the declared name, which a subclass's copy of the method (PHP
 * copies an internal method into each class that inherits it) shares.
 */
static void wrap_methods(zend_class_entry *ce)
{
	zend_function *fn;

	zend_hash_init(&wrapped, zend_hash_num_elements(&ce->function_table), NULL, free_wrapped_method, 1);
	ZEND_HASH_MAP_FOREACH_PTR(&ce->function_table, fn) {
		wrapped_method_t *method;

		if (fn->type != ZEND_INTERNAL_FUNCTION || fn->common.scope != ce || (fn->common.fn_flags & ZEND_ACC_STATIC)) {
			continue;
		}
		method = malloc(sizeof(*method));
		if (method == NULL) {
			continue;   /* that method keeps running unwrapped, and libmemcached blocks inside it */
		}
		method->handler = fn->internal_function.handler;
		method->kind = kind_of(fn->common.function_name);
		zend_hash_add_new_ptr(&wrapped, fn->common.function_name, method);
		fn->internal_function.handler = ZEND_FN(rapier_memcached_method);
	} ZEND_HASH_FOREACH_END();
	memcached_ce = ce;
}

void rapier_memcached_hook_install(void)
{
	zend_class_entry *ce;

	if (memcached_ce != NULL) {
		return;
	}
	ce = zend_hash_str_find_ptr(CG(class_table), ZEND_STRL("memcached"));
	if (ce == NULL || ce->type != ZEND_INTERNAL_CLASS) {
		return;   /* ext/memcached is not loaded */
	}
	wrap_methods(ce);
	rapier_plt_rebind(&memc_getaddrinfo, "libmemcached.so.", "getaddrinfo", (void *) yielding_getaddrinfo);
}

void rapier_memcached_hook_on_run_end(void)
{
	/* Holders that ended after a getDelayed(), or, after a bailout, coroutines that never return. */
	while (!rapier_list_is_empty(&turns)) {
		memc_turn_t *turn = RAPIER_LIST_ENTRY(turns.head, memc_turn_t, link);

		turn->waiters.head = turn->waiters.tail = NULL;
		free_turn(turn);
	}
}

void rapier_memcached_hook_mshutdown(void)
{
	zend_class_entry *ce;
	zend_function *fn;

	if (memcached_ce == NULL) {
		return;
	}
	/* ext/memcached shut down first took its class with it: only what is still there is put back. */
	ce = zend_hash_str_find_ptr(CG(class_table), ZEND_STRL("memcached"));
	if (ce == memcached_ce) {
		ZEND_HASH_MAP_FOREACH_PTR(&ce->function_table, fn) {
			wrapped_method_t *method = zend_hash_find_ptr(&wrapped, fn->common.function_name);

			if (method != NULL && fn->type == ZEND_INTERNAL_FUNCTION
					&& fn->internal_function.handler == ZEND_FN(rapier_memcached_method)) {
				fn->internal_function.handler = method->handler;
			}
		} ZEND_HASH_FOREACH_END();
	}
	zend_hash_destroy(&wrapped);
	rapier_plt_restore(&memc_getaddrinfo);
	memcached_ce = NULL;
}
