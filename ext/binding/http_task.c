/*
 * Task workers: $server->task() and on('task').
 *
 * The master opens one Unix listener per task slot (abstract addresses,
 * src/task.c) before forking and keeps them, like the HTTP listeners, so a
 * restarted or reloaded task worker takes over its slot's queue. A request
 * worker connects to each slot on first use and keeps that channel: a task
 * is a CALL frame with the serialized data, and its caller's coroutine waits,
 * registered by task id, until the RESULT or ERROR frame with the same id
 * comes back (or its timeout passes: a late answer is then dropped). The
 * task worker runs every task in a coroutine of its own, through the
 * private Server::runTask(), so tasks may wait on I/O too.
 *
 * Draining a task worker (stop, reload, recycle) never loses a task: it
 * stops accepting and sends GOODBYE on each channel; the request worker
 * takes that channel off its slot, sends nothing more there and closes it
 * once its tasks on it have come back; the task worker ends when every
 * channel has closed. The slot's next task opens a new channel, which waits
 * in the master's listener until the successor accepts it.
 *
 * With workers = 0 there are no processes to send to: the task runs in a
 * coroutine of the same process, its data and result still serialized so
 * that both sides see copies, as they would across processes.
 */
#include "php_rapier.h"
#include "zend_exceptions.h"
#include "zend_smart_str.h"
#include "ext/standard/php_var.h"

#include <unistd.h>

#include "coroutine.h"
#include "http_task.h"

struct task_link_s {
	rapier_task_conn_t conn;
	rapier_tasks_t *tasks;
	unsigned pending;               /* callers waiting on this channel */
	unsigned slot;                  /* its index in tasks->links until it retires */
	bool retiring;                  /* GOODBYE received: off its slot, closed once pending is 0 */
	task_link_t *next;              /* in tasks->retired */
};

struct task_peer_s {
	rapier_task_conn_t conn;
	rapier_tasks_t *tasks;
	unsigned running;               /* tasks of this peer still running here */
	bool closed;
	rapier_list_node_t link;        /* in tasks->peers */
};

/* The peer NODE (a node of tasks->peers, or NULL) is the link of. */
static inline task_peer_t *peer_of(rapier_list_node_t *node)
{
	return node ? RAPIER_LIST_ENTRY(node, task_peer_t, link) : NULL;
}

typedef struct {
	rapier_tasks_t *tasks;
	uint64_t id;
	task_link_t *link;              /* NULL for a local task */
	rapier_coro_t *co;
	uint8_t kind;                   /* RESULT or ERROR once answered, 0 before */
	zend_string *payload;
} task_call_t;

typedef struct {
	rapier_tasks_t *tasks;
	task_peer_t *peer;              /* NULL for a local task */
	uint64_t id;
} task_job_t;

void rapier_tasks_init(rapier_tasks_t *tasks)
{
	memset(tasks, 0, sizeof(*tasks));
	rapier_task_acceptor_init(&tasks->acceptor);
	tasks->max_payload = 8 * 1024 * 1024;
}

int rapier_tasks_listen(rapier_tasks_t *tasks, int backlog)
{
	return rapier_task_listeners_open(&tasks->listeners, tasks->count, backlog);
}

void rapier_tasks_close_listeners(rapier_tasks_t *tasks, int keep)
{
	rapier_task_listeners_close(&tasks->listeners, keep);
}

/* Serializing and unserializing, in the coroutine that owns the value (user code may run). */

zend_string *rapier_task_serialize(zval *value)
{
	php_serialize_data_t var_hash;
	smart_str buf = {0};

	PHP_VAR_SERIALIZE_INIT(var_hash);
	php_var_serialize(&buf, value, &var_hash);
	PHP_VAR_SERIALIZE_DESTROY(var_hash);
	if (EG(exception)) {
		smart_str_free(&buf);
		return NULL;
	}
	return smart_str_extract(&buf);
}

bool rapier_task_unserialize(zval *out, zend_string *payload)
{
	php_unserialize_data_t var_hash;
	const unsigned char *p = (const unsigned char *) ZSTR_VAL(payload);
	bool ok;

	/* A payload broken at its first byte leaves out as it was: it must be something to free. */
	ZVAL_NULL(out);
	PHP_VAR_UNSERIALIZE_INIT(var_hash);
	ok = php_var_unserialize(out, &p, p + ZSTR_LEN(payload), &var_hash);
	PHP_VAR_UNSERIALIZE_DESTROY(var_hash);
	if (!ok) {
		zval_ptr_dtor(out);
		ZVAL_UNDEF(out);
	}
	return ok;
}

/* The calling side */

static void link_close(task_link_t *link)
{
	rapier_task_conn_close(&link->conn);
	link->pending = 0;
}

/*
 * The task worker behind this channel drains: new calls go to a new channel
 * on the same slot, while the callers waiting here still get their answers.
 */
static void link_retire(task_link_t *link)
{
	rapier_tasks_t *tasks = link->tasks;

	ZEND_ASSERT(tasks->links[link->slot] == link);
	tasks->links[link->slot] = NULL;
	link->retiring = true;
	link->next = tasks->retired;
	tasks->retired = link;
}

/*
 * Frees the retired channels that have closed. Not from the channel's own
 * callbacks (task.c still uses the channel after them): from a coroutine.
 */
static void free_closed_links(rapier_tasks_t *tasks)
{
	task_link_t **at = &tasks->retired;

	while (*at) {
		task_link_t *link = *at;
		if (rapier_task_conn_is_open(&link->conn)) {
			at = &link->next;
			continue;
		}
		*at = link->next;
		efree(link);
	}
}

/* An idle channel must not keep a draining worker alive; a waited-on one must (or it is a deadlock). */
static void link_set_pending(task_link_t *link, int delta)
{
	link->pending = (unsigned) ((int) link->pending + delta);
	if (link->pending == 0 && link->retiring) {
		link_close(link);
		return;
	}
	if (rapier_task_conn_is_open(&link->conn)) {
		rapier_task_conn_set_unref(&link->conn, link->pending == 0);
	}
}

/* Takes a call off the table of waiting callers. */
static void call_forget(task_call_t *call)
{
	zend_hash_index_del(&call->tasks->pending, (zend_ulong) call->id);
	if (call->link) {
		link_set_pending(call->link, -1);
	}
}

/* Hands an answer to its caller, if it still waits. */
static void answer(rapier_tasks_t *tasks, uint64_t id, uint8_t kind, const char *payload, size_t len)
{
	task_call_t *call = zend_hash_index_find_ptr(&tasks->pending, (zend_ulong) id);

	if (call == NULL) {
		return;
	}
	/* Copied first: the payload lies in the link's read buffer, which
	 * call_forget() frees when this was a retiring link's last call. */
	call->kind = kind;
	call->payload = zend_string_init(payload, len, 0);
	call_forget(call);
	rapier_coro_wake(call->co, RAPIER_WAKE_OK);
}

static void on_link_frame(rapier_task_conn_t *conn, const rapier_task_frame_t *frame)
{
	task_link_t *link = conn->data;

	switch (frame->kind) {
		case RAPIER_TASK_RESULT:
		case RAPIER_TASK_ERROR:
			answer(link->tasks, frame->id, frame->kind, frame->payload, frame->len);
			break;
		case RAPIER_TASK_GOODBYE:
			if (!link->retiring) {
				link_retire(link);
				link_set_pending(link, 0);
			}
			break;
		default:
			break;
	}
}

/* The task worker went away: its callers learn it now rather than at their timeout. */
static void on_link_close(rapier_task_conn_t *conn, int error)
{
	task_link_t *link = conn->data;
	task_call_t *call;

	(void) error;
	/* Deleting the current element is safe during the walk: a deletion never resizes the table. */
	ZEND_HASH_FOREACH_PTR(&link->tasks->pending, call) {
		if (call->link == link) {
			zend_hash_index_del(&link->tasks->pending, (zend_ulong) call->id);
			call->link = NULL;
			rapier_coro_wake(call->co, RAPIER_WAKE_CLOSED);
		}
	} ZEND_HASH_FOREACH_END();
	link_close(link);
}

/* The caller's wait ended without an answer (timeout, cancel). */
static void call_unlink(rapier_coro_t *co, void *data)
{
	(void) co;
	call_forget(data);
}

void rapier_tasks_client_start(rapier_tasks_t *tasks, bool local)
{
	tasks->client = true;
	tasks->local = local;
	zend_hash_init(&tasks->pending, 8, NULL, NULL, 0);
	if (!local) {
		tasks->links = ecalloc(tasks->count, sizeof(task_link_t *));
	}
}

/* The open channel with the fewest waiting callers, connecting slots on the way; NULL with *err set. */
static task_link_t *pick_link(rapier_tasks_t *tasks, int *err)
{
	task_link_t *best = NULL;

	free_closed_links(tasks);
	*err = -ENOENT;
	for (unsigned n = 0; n < tasks->count; n++) {
		unsigned i = (tasks->next_slot + n) % tasks->count;
		task_link_t *link = tasks->links[i];

		if (link == NULL) {
			link = tasks->links[i] = ecalloc(1, sizeof(task_link_t));
			link->tasks = tasks;
			link->slot = i;
			link->conn.io.fd = -1;
		}
		if (!rapier_task_conn_is_open(&link->conn)) {
			int fd = rapier_task_listeners_connect(&tasks->listeners, i);
			if (fd < 0) {
				*err = fd;
				continue;
			}
			rapier_task_conn_open(&link->conn, rapier_sched_loop(), fd, tasks->max_payload,
				on_link_frame, on_link_close, link);
			rapier_task_conn_set_unref(&link->conn, true);
		}
		if (best == NULL || link->pending < best->pending) {
			best = link;
		}
	}
	tasks->next_slot = (tasks->next_slot + 1) % tasks->count;
	return best;
}

static void spawn_job(rapier_tasks_t *tasks, task_peer_t *peer, uint64_t id, const char *payload, size_t len);

/* Sends the call (or starts it here); false with an exception thrown. */
static bool call_begin(rapier_tasks_t *tasks, task_call_t *call, zend_string *data)
{
	int rc;

	if (tasks->local) {
		spawn_job(tasks, NULL, call->id, ZSTR_VAL(data), ZSTR_LEN(data));
		return !EG(exception);
	}
	call->link = pick_link(tasks, &rc);
	if (call->link == NULL) {
		zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot reach a task worker: %s", strerror(-rc));
		return false;
	}
	/* The size was checked by the caller: what fails here is the channel itself. */
	rc = rapier_task_conn_send(&call->link->conn, call->id, RAPIER_TASK_CALL, ZSTR_VAL(data), ZSTR_LEN(data));
	if (rc < 0) {
		zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot send the task: %s", strerror(-rc));
		return false;
	}
	return true;
}

/* The outcome of a finished wait, as the return value or an exception. */
static void call_finish(task_call_t *call, rapier_wake_t why, int64_t timeout_ns, zval *return_value)
{
	switch (why) {
		case RAPIER_WAKE_OK:
			if (call->kind == RAPIER_TASK_ERROR) {
				zend_throw_exception_ex(rapier_ce_exception, 0, "The task failed: %s", ZSTR_VAL(call->payload));
			} else if (!rapier_task_unserialize(return_value, call->payload) && !EG(exception)) {
				zend_throw_exception(rapier_ce_exception, "Cannot unserialize the task's result", 0);
			}
			break;
		case RAPIER_WAKE_TIMEOUT:
			zend_throw_exception_ex(rapier_ce_timeout_exception, 0,
				"The task did not finish within %.3f s", (double) timeout_ns / 1e9);
			break;
		case RAPIER_WAKE_CLOSED:
			zend_throw_exception(rapier_ce_exception,
				"The task worker exited before answering (see the server log); the task may or may not have run", 0);
			break;
		default:
			if (!EG(exception)) {
				zend_throw_exception(rapier_ce_canceled_exception, "Coroutine was canceled while waiting for a task", 0);
			}
			break;
	}
	if (call->payload) {
		zend_string_release(call->payload);
	}
}

void rapier_tasks_call(rapier_tasks_t *tasks, zval *data, int64_t timeout_ns, zval *return_value)
{
	task_call_t call = { .tasks = tasks };
	zend_string *payload;
	rapier_wake_t why;

	payload = rapier_task_serialize(data);
	if (payload == NULL) {
		return;
	}
	if (ZSTR_LEN(payload) > tasks->max_payload) {
		zend_throw_exception_ex(rapier_ce_exception, 0,
			"Cannot send a task of %zu bytes serialized: the limit is task_max_payload (%zu)",
			ZSTR_LEN(payload), tasks->max_payload);
		zend_string_release(payload);
		return;
	}
	call.id = ++tasks->next_id;
	call.co = rapier_coro_current();
	if (!call_begin(tasks, &call, payload)) {
		zend_string_release(payload);
		return;
	}
	zend_string_release(payload);
	zend_hash_index_add_new_ptr(&tasks->pending, (zend_ulong) call.id, &call);
	if (call.link) {
		link_set_pending(call.link, 1);
	}
	why = rapier_coro_wait(timeout_ns, call_unlink, &call, "a task");
	call_finish(&call, why, timeout_ns, return_value);
}

/* The serving side */

/* Calls the drained callback, once. */
static void drained(rapier_tasks_t *tasks)
{
	rapier_tasks_drained_fn fn = tasks->on_drained;

	if (fn) {
		tasks->on_drained = NULL;
		fn(tasks);
	}
}

/* A draining task worker is done when no channel is open and no task runs. */
static void check_drained(rapier_tasks_t *tasks)
{
	if (tasks->draining && rapier_list_is_empty(&tasks->peers) && tasks->running == 0) {
		drained(tasks);
	}
}

static void peer_free_if_done(task_peer_t *peer)
{
	rapier_tasks_t *tasks = peer->tasks;

	if (!peer->closed || peer->running > 0) {
		return;
	}
	efree(peer);
	check_drained(tasks);
}

static void peer_close(task_peer_t *peer)
{
	rapier_tasks_t *tasks = peer->tasks;

	if (peer->closed) {
		return;
	}
	rapier_task_conn_close(&peer->conn);
	peer->closed = true;
	rapier_list_remove(&tasks->peers, &peer->link);
	peer_free_if_done(peer);
}

static void on_peer_frame(rapier_task_conn_t *conn, const rapier_task_frame_t *frame)
{
	task_peer_t *peer = conn->data;

	if (frame->kind == RAPIER_TASK_CALL) {
		spawn_job(peer->tasks, peer, frame->id, frame->payload, frame->len);
	}
}

/* The request worker closed its channel (done after GOODBYE, or it exited). */
static void on_peer_close(rapier_task_conn_t *conn, int error)
{
	task_peer_t *peer = conn->data;

	(void) error;
	peer_close(peer);
}

static void on_accept(rapier_task_acceptor_t *acceptor, int fd)
{
	rapier_tasks_t *tasks = acceptor->data;
	task_peer_t *peer = ecalloc(1, sizeof(*peer));

	peer->tasks = tasks;
	rapier_task_conn_open(&peer->conn, rapier_sched_loop(), fd, tasks->max_payload, on_peer_frame, on_peer_close, peer);
	rapier_list_push(&tasks->peers, &peer->link);
}

void rapier_tasks_serve(rapier_tasks_t *tasks, unsigned index)
{
	rapier_task_acceptor_start(&tasks->acceptor, rapier_sched_loop(), rapier_task_listeners_take(&tasks->listeners, index),
		on_accept, tasks);
}

static void job_answer(task_job_t *job, uint8_t kind, zend_string *payload)
{
	if (job->peer == NULL) {
		answer(job->tasks, job->id, kind, ZSTR_VAL(payload), ZSTR_LEN(payload));
	} else if (!job->peer->closed) {
		int rc = rapier_task_conn_send(&job->peer->conn, job->id, kind, ZSTR_VAL(payload), ZSTR_LEN(payload));
		if (rc == -EMSGSIZE) {
			zend_string *msg = zend_strpprintf(0, "its result of %zu bytes serialized is over task_max_payload (%zu)",
				ZSTR_LEN(payload), job->tasks->max_payload);
			rapier_task_conn_send(&job->peer->conn, job->id, RAPIER_TASK_ERROR, ZSTR_VAL(msg), ZSTR_LEN(msg));
			zend_string_release(msg);
		}
	}
}

/* "Class: message", what the caller's exception says about a task that threw. */
static zend_string *describe_exception(zend_object *ex)
{
	zval rv, *message = zend_read_property_ex(ex->ce, ex, ZSTR_KNOWN(ZEND_STR_MESSAGE), 1, &rv);

	return zend_strpprintf(0, "%s: %s", ZSTR_VAL(ex->ce->name),
		Z_TYPE_P(message) == IS_STRING ? Z_STRVAL_P(message) : "");
}

/* In the task's coroutine, once the handler has returned or thrown. */
static void on_job_finish(rapier_coro_t *co, zval *retval, zend_object *exception, void *data)
{
	task_job_t *job = data;
	zend_string *payload = NULL;
	uint8_t kind = RAPIER_TASK_RESULT;

	(void) co;
	if (exception == NULL && retval) {
		payload = rapier_task_serialize(retval);
		if (payload == NULL && EG(exception)) {
			exception = EG(exception);
			GC_ADDREF(exception);
			zend_clear_exception();
		}
	}
	if (payload == NULL) {
		kind = RAPIER_TASK_ERROR;
		payload = exception ? describe_exception(exception) : zend_string_init(ZEND_STRL("the task ended without a result"), 0);
	}
	job_answer(job, kind, payload);
	zend_string_release(payload);
	if (exception) {
		OBJ_RELEASE(exception);
	}
	job->tasks->done++;
	job->tasks->running--;
	if (job->peer) {
		job->peer->running--;
		peer_free_if_done(job->peer);
	} else {
		check_drained(job->tasks);
	}
	efree(job);
}

static void spawn_job(rapier_tasks_t *tasks, task_peer_t *peer, uint64_t id, const char *payload, size_t len)
{
	task_job_t *job = emalloc(sizeof(*job));

	job->tasks = tasks;
	job->peer = peer;
	job->id = id;
	if (rapier_task_spawn_method(tasks->server, ZEND_STRL("runtask"), payload, len, (zend_long) id, on_job_finish, job)
		== NULL) {
		/* Nothing to answer: the engine cannot run PHP code any more. */
		efree(job);
		return;
	}
	tasks->running++;
	if (peer) {
		peer->running++;
	}
}

rapier_coro_t *rapier_task_spawn_method(zend_object *server, const char *lc_method, size_t lc_method_len,
	const char *payload, size_t len, zend_long arg, rapier_coro_finish_fn on_finish, void *data)
{
	zend_fcall_info_cache fcc;
	zval callable, args[2];
	rapier_coro_t *co;

	memset(&fcc, 0, sizeof(fcc));
	/* Once per task or message: a lower-case name to look up, no formatting. */
	fcc.function_handler = zend_hash_str_find_ptr(&server->ce->function_table, lc_method, lc_method_len);
	fcc.object = server;
	fcc.called_scope = server->ce;
	fcc.calling_scope = server->ce;
	ZVAL_STR(&callable, zend_string_concat3(ZSTR_VAL(server->ce->name), ZSTR_LEN(server->ce->name), ZEND_STRL("::"),
		ZSTR_VAL(fcc.function_handler->common.function_name), ZSTR_LEN(fcc.function_handler->common.function_name)));
	ZVAL_STRINGL(&args[0], payload, len);
	ZVAL_LONG(&args[1], arg);
	/* Spawning only fails when the engine cannot run PHP code any more. */
	if ((co = rapier_coro_spawn_ex(&callable, &fcc, args, 2, on_finish, data)) == NULL) {
		zend_clear_exception();
	}
	zval_ptr_dtor(&callable);
	zval_ptr_dtor(&args[0]);
	return co;
}

void rapier_task_call_handler(zend_fcall_info_cache *fcc, zend_string *payload, zend_long arg, const char *what,
	zval *return_value)
{
	zval args[2];

	if (!rapier_task_unserialize(&args[0], payload)) {
		if (!EG(exception)) {
			zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot unserialize %s", what);
		}
		return;
	}
	ZVAL_LONG(&args[1], arg);
	zend_call_known_function(fcc->function_handler, fcc->object, fcc->called_scope, return_value, 2, args, NULL);
	zval_ptr_dtor(&args[0]);
}

void rapier_tasks_drain(rapier_tasks_t *tasks, rapier_tasks_drained_fn on_drained)
{
	if (tasks->draining) {
		return;
	}
	tasks->draining = true;
	tasks->on_drained = on_drained;
	rapier_task_acceptor_stop(&tasks->acceptor);
	for (task_peer_t *peer = peer_of(tasks->peers.head); peer; peer = peer_of(peer->link.next)) {
		rapier_task_conn_send(&peer->conn, 0, RAPIER_TASK_GOODBYE, NULL, 0);
	}
	check_drained(tasks);
}

void rapier_tasks_abort(rapier_tasks_t *tasks)
{
	while (!rapier_list_is_empty(&tasks->peers)) {
		peer_close(peer_of(tasks->peers.head));
	}
	/* Tasks still running finish unheard; the worker stops without waiting for them. */
	drained(tasks);
}

void rapier_tasks_free(rapier_tasks_t *tasks)
{
	if (tasks->links) {
		for (unsigned i = 0; i < tasks->count; i++) {
			if (tasks->links[i]) {
				rapier_task_conn_close(&tasks->links[i]->conn);
				efree(tasks->links[i]);
			}
		}
		efree(tasks->links);
		tasks->links = NULL;
	}
	for (task_link_t *link = tasks->retired; link; link = link->next) {
		rapier_task_conn_close(&link->conn);
	}
	free_closed_links(tasks);
	if (tasks->client) {
		zend_hash_destroy(&tasks->pending);
		tasks->client = false;
	}
	rapier_task_acceptor_close(&tasks->acceptor);
	rapier_task_listeners_free(&tasks->listeners);
}
