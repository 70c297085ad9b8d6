/*
 * Task workers for Rapier\Http\Server: $server->task() in request workers,
 * the on('task') handler in task workers (binding/http_task.c).
 */
#ifndef RAPIER_BINDING_HTTP_TASK_H
#define RAPIER_BINDING_HTTP_TASK_H

#include "php.h"
#include "list.h"
#include "task.h"
#include "coroutine.h"

typedef struct task_link_s task_link_t;
typedef struct task_peer_s task_peer_t;
typedef struct rapier_tasks_s rapier_tasks_t;

/* A task worker has drained: every channel to it has closed. */
typedef void (*rapier_tasks_drained_fn)(rapier_tasks_t *tasks);

struct rapier_tasks_s {
	/* Set before start(). */
	unsigned count;                 /* task workers; 0: none */
	size_t max_payload;             /* the largest serialized task or result */
	zend_object *server;            /* passed to Server::runTask() (not owned) */

	/* The master's listener per task slot and its address, inherited by every child. */
	rapier_task_listeners_t listeners;

	/* A request worker (or a process with workers = 0): the calling side. */
	bool client;
	bool local;                     /* no task processes: tasks run in this process */
	task_link_t **links;            /* the channel per task slot, opened on first use */
	task_link_t *retired;           /* channels to draining task workers, until freed */
	HashTable pending;              /* task id => task_call_t*, while its caller waits */
	uint64_t next_id;
	unsigned next_slot;

	/* A task worker: the serving side. */
	rapier_task_acceptor_t acceptor;
	rapier_list_t peers;            /* one per request worker connected */
	bool draining;
	rapier_tasks_drained_fn on_drained;
	uint64_t done;                  /* tasks answered */
	uint64_t running;
};

void rapier_tasks_init(rapier_tasks_t *tasks);

/* In the master, before forking: one listener per task slot. 0 or a negative errno. */
int rapier_tasks_listen(rapier_tasks_t *tasks, int backlog);

/* Closes the master's listeners except the one of slot keep (-1: all). */
void rapier_tasks_close_listeners(rapier_tasks_t *tasks, int keep);

/* In a request worker's scheduler: task() may be called from now on. local: run tasks in this process. */
void rapier_tasks_client_start(rapier_tasks_t *tasks, bool local);

/* Sends data to a task worker and suspends the calling coroutine until its result is back (Server::task()). */
void rapier_tasks_call(rapier_tasks_t *tasks, zval *data, int64_t timeout_ns, zval *return_value);

/* In task worker slot index's scheduler: serve its listener. */
void rapier_tasks_serve(rapier_tasks_t *tasks, unsigned index);

/* A task worker stops: no new channels, GOODBYE on each, on_drained once all have closed. */
void rapier_tasks_drain(rapier_tasks_t *tasks, rapier_tasks_drained_fn on_drained);

/* Closes every channel now (shutdown_timeout passed); running tasks lose their callers. */
void rapier_tasks_abort(rapier_tasks_t *tasks);

/* Frees what the process holds; pending callers must be gone (their coroutines ended). */
void rapier_tasks_free(rapier_tasks_t *tasks);

/*
 * A value as its serialize() string, or NULL with the exception thrown; and
 * back, false when the payload is not one (maybe with an exception thrown).
 * In the coroutine that owns the value: user code may run. Messages between
 * workers (http_message.c) travel the same way.
 */
zend_string *rapier_task_serialize(zval *value);
bool rapier_task_unserialize(zval *out, zend_string *payload);

/*
 * Starts a coroutine running the server's private method of that lower-case
 * name ("runtask", "runmessage") on (payload, arg), finished by on_finish;
 * the handler's data is unserialized there, where user code may run. NULL
 * when the engine cannot run PHP code any more.
 */
rapier_coro_t *rapier_task_spawn_method(zend_object *server, const char *lc_method, size_t lc_method_len,
	const char *payload, size_t len, zend_long arg, rapier_coro_finish_fn on_finish, void *data);

/*
 * Those methods' body: calls the handler (unserialize(payload), arg) in the
 * running coroutine, leaving its result in return_value; what names the
 * payload in the exception when it cannot be unserialized.
 */
void rapier_task_call_handler(zend_fcall_info_cache *fcc, zend_string *payload, zend_long arg, const char *what,
	zval *return_value);

#endif
