/*
 * Rapier\parallel(): a group of coroutines that the caller waits for as one.
 *
 * The caller (the waiter) starts its children and sleeps; each child's
 * finish callback stores its result or exception in its slot and wakes the
 * waiter, which starts more (under a limit) or, once all have ended, builds
 * the result. The group is stopped by the first exception a child lets out,
 * the timeout, or a cancel of the waiter: no child starts after that, the
 * running ones are canceled, and the waiter still waits for every one of
 * them to end, so none outlives the call (what they hold, such as a pooled
 * connection, is back where it belongs when parallel() throws).
 *
 * The group lives in the waiter's call. Should the waiter's fiber be
 * destroyed (the end of a run), the children still alive are handed a
 * finish callback that needs no group.
 */
#include "php.h"
#include "zend_exceptions.h"

#include "php_rapier.h"
#include "coroutine.h"
#include "parallel.h"
#include "timer.h"

typedef struct parallel_group_s parallel_group_t;

typedef struct {
	parallel_group_t *group;
	zval callable;                /* a copy: the caller's array may hold references to change */
	zend_fcall_info_cache fcc;
	zend_ulong h;
	zend_string *key;             /* NULL for an integer key (h) */
	zend_long id;                 /* its coroutine while it runs, else 0 */
	zval result;                  /* UNDEF until it has returned */
} parallel_slot_t;

struct parallel_group_s {
	rapier_coro_t *waiter;        /* the caller while it waits for a child */
	uint32_t count;
	uint32_t started;
	uint32_t finished;
	uint32_t returned;            /* finished with a result */
	bool stopping;                /* nothing more starts; the running children were canceled */
	zend_object *failure;         /* the first exception a child let out */
	zend_long failure_id;         /* and the child's id */
	parallel_slot_t slots[];
};

/* What a child lets out once nobody will rethrow it: CanceledException is the group's own doing. */
static void drop_exception(zend_long id, zend_object *ex)
{
	if (!instanceof_function(ex->ce, rapier_ce_canceled_exception)) {
		rapier_coro_report_uncaught_id(id, ex);
	}
	OBJ_RELEASE(ex);
}

static void wake_waiter(parallel_group_t *group)
{
	rapier_coro_t *waiter = group->waiter;

	if (waiter) {
		group->waiter = NULL;
		rapier_coro_wake(waiter, RAPIER_WAKE_OK);
	}
}

static void unlink_waiter(rapier_coro_t *co, void *data)
{
	(void) co;
	((parallel_group_t *) data)->waiter = NULL;
}

/* Finish callback of a child: runs in the child, after its defers. */
static void child_finished(rapier_coro_t *co, zval *retval, zend_object *ex, void *data)
{
	parallel_slot_t *slot = data;
	parallel_group_t *group = slot->group;

	slot->id = 0;
	group->finished++;
	if (ex == NULL) {
		ZVAL_COPY_DEREF(&slot->result, retval);
		group->returned++;
	} else if (group->failure == NULL && !group->stopping) {
		group->failure = ex;
		group->failure_id = co->id;
		ex = NULL;
	}
	wake_waiter(group);
	/* Last: reporting runs the exception handler, which may wait, and the group may be gone by then. */
	if (ex) {
		drop_exception(co->id, ex);
	}
}

/* Finish callback of a child whose waiter is gone. */
static void orphan_finished(rapier_coro_t *co, zval *retval, zend_object *ex, void *data)
{
	(void) retval;
	(void) data;
	if (ex) {
		drop_exception(co->id, ex);
	}
}

static void key_to_string(parallel_slot_t *slot, char *buf, size_t size)
{
	if (slot->key) {
		snprintf(buf, size, "\"%s\"", ZSTR_VAL(slot->key));
	} else {
		snprintf(buf, size, ZEND_ULONG_FMT, slot->h);
	}
}

static void group_free(parallel_group_t *group)
{
	for (uint32_t i = 0; i < group->count; i++) {
		parallel_slot_t *slot = &group->slots[i];

		zval_ptr_dtor(&slot->callable);
		zval_ptr_dtor(&slot->result);
		if (slot->key) {
			zend_string_release(slot->key);
		}
	}
	if (group->failure) {
		OBJ_RELEASE(group->failure);
	}
	efree(group);
}

/* The group for callables, or NULL with a TypeError thrown. */
static parallel_group_t *group_new(HashTable *callables)
{
	uint32_t count = zend_hash_num_elements(callables), i = 0;
	parallel_group_t *group = ecalloc(1, sizeof(*group) + count * sizeof(parallel_slot_t));
	zend_string *key;
	zend_ulong h;
	zval *callable;

	ZEND_HASH_FOREACH_KEY_VAL(callables, h, key, callable) {
		parallel_slot_t *slot = &group->slots[i++];

		slot->group = group;
		slot->h = h;
		slot->key = key ? zend_string_copy(key) : NULL;
		ZVAL_COPY_DEREF(&slot->callable, callable);
		ZVAL_UNDEF(&slot->result);
		group->count = i;   /* the slots group_free() releases, should this one be refused */
		if (!zend_is_callable_ex(&slot->callable, NULL, 0, NULL, &slot->fcc, NULL)) {
			char name[64];

			key_to_string(slot, name, sizeof(name));
			zend_argument_type_error(1, "must contain only callables, %s given at key %s",
				zend_zval_type_name(&slot->callable), name);
			group_free(group);
			return NULL;
		}
	} ZEND_HASH_FOREACH_END();
	return group;
}

static void start_children(parallel_group_t *group, uint32_t limit)
{
	while (!group->stopping && group->started < group->count
			&& (limit == 0 || group->started - group->finished < limit)) {
		parallel_slot_t *slot = &group->slots[group->started];
		rapier_coro_t *co = rapier_coro_spawn_ex(&slot->callable, &slot->fcc, NULL, 0, child_finished, slot);

		if (co == NULL) {
			/* Only outside a run, which the caller has ruled out; stop as a failure would. */
			group->failure = EG(exception);
			GC_ADDREF(group->failure);
			zend_clear_exception();
			group->stopping = true;
			return;
		}
		slot->id = co->id;
		group->started++;
	}
}

static void stop(parallel_group_t *group)
{
	group->stopping = true;
	for (uint32_t i = 0; i < group->started; i++) {
		rapier_coro_t *co = group->slots[i].id ? rapier_coro_find(group->slots[i].id) : NULL;

		if (co) {
			rapier_coro_cancel_soon(co);
		}
	}
}

/* The waiter's fiber is being destroyed: the children still alive must not reach the group. */
static void detach(parallel_group_t *group)
{
	for (uint32_t i = 0; i < group->started; i++) {
		parallel_slot_t *slot = &group->slots[i];
		rapier_coro_t *co = slot->id ? rapier_coro_find(slot->id) : NULL;

		if (co && co->finish_data == slot) {
			co->on_finish = orphan_finished;
			co->finish_data = NULL;
		}
	}
	group_free(group);
}

static void build_result(parallel_group_t *group, zval *return_value)
{
	array_init_size(return_value, group->count);
	for (uint32_t i = 0; i < group->count; i++) {
		parallel_slot_t *slot = &group->slots[i];

		if (slot->key) {
			zend_hash_add_new(Z_ARRVAL_P(return_value), slot->key, &slot->result);
		} else {
			zend_hash_index_add_new(Z_ARRVAL_P(return_value), slot->h, &slot->result);
		}
		ZVAL_UNDEF(&slot->result);
	}
}

/* Throws what stopped the group: the caller's cancel, a child's exception, or the timeout. */
static void throw_outcome(parallel_group_t *group, rapier_wake_t stopped_by, uint32_t missing, double timeout)
{
	if (stopped_by == RAPIER_WAKE_CANCELED) {
		/* The cancel is what the caller's canceller is promised; a child's exception is reported, not lost. */
		if (group->failure) {
			rapier_coro_report_uncaught_id(group->failure_id, group->failure);
		}
		zend_throw_exception(rapier_ce_canceled_exception,
			"Coroutine was canceled while waiting in Rapier\\parallel(); the callables still running were canceled", 0);
	} else if (group->failure) {
		zval ex;

		ZVAL_OBJ(&ex, group->failure);
		group->failure = NULL;
		zend_throw_exception_object(&ex);
	} else {
		zend_throw_exception_ex(rapier_ce_timeout_exception, 0,
			"Rapier\\parallel() timed out after %.3f seconds: %u of %u callables had not returned and were canceled",
			timeout, missing, group->count);
	}
}

void rapier_parallel(HashTable *callables, double timeout, int64_t timeout_ns, uint32_t limit, zval *return_value)
{
	parallel_group_t *group = group_new(callables);
	uint64_t deadline = timeout_ns >= 0 ? rapier_now_ns() + (uint64_t) timeout_ns : 0;
	rapier_wake_t stopped_by = RAPIER_WAKE_OK;
	uint32_t missing = 0;

	if (group == NULL) {
		return;
	}
	for (;;) {
		int64_t wait_ns = -1;
		rapier_wake_t why;

		if (group->failure && !group->stopping) {
			stop(group);
		}
		start_children(group, limit);
		if (group->finished == group->started && (group->stopping || group->started == group->count)) {
			break;
		}
		if (timeout_ns >= 0 && !group->stopping) {
			uint64_t now = rapier_now_ns();
			wait_ns = now < deadline ? (int64_t) (deadline - now) : 0;
		}
		group->waiter = rapier_coro_current();
		why = rapier_coro_wait(wait_ns, unlink_waiter, group, "Rapier\\parallel()");
		if (why == RAPIER_WAKE_CANCELED && EG(exception)) {
			detach(group);
			return;
		}
		if (why != RAPIER_WAKE_OK && !group->stopping) {
			/* A timeout, or a cancel of the caller; one while stopping already changes nothing. */
			stopped_by = why;
			missing = group->count - group->returned;
			stop(group);
		}
	}
	if (stopped_by == RAPIER_WAKE_OK && group->failure == NULL) {
		build_result(group, return_value);
	} else {
		throw_outcome(group, stopped_by, missing, timeout);
	}
	group_free(group);
}
