/*
 * Messages between the server's processes: Server::sendMessage() and
 * broadcastMessage() in any worker, task worker or user process, the
 * on('message') handler in request and task workers (binding/http_message.c).
 */
#ifndef RAPIER_BINDING_HTTP_MESSAGE_H
#define RAPIER_BINDING_HTTP_MESSAGE_H

#include "php.h"
#include "list.h"
#include "task.h"

typedef struct message_link_s message_link_t;
typedef struct rapier_messages_s rapier_messages_t;

/* A draining worker has read every channel to it to the end, and its handlers have returned. */
typedef void (*rapier_messages_drained_fn)(rapier_messages_t *messages);

struct rapier_messages_s {
	/* Set before start(). */
	unsigned count;                 /* worker ids that take messages (workers + task workers); 0: no handler */
	size_t max_payload;             /* the largest serialized message */
	zend_object *server;            /* passed to Server::runMessage() (not owned) */
	struct rapier_status_entry_s *status; /* this process's entry in the master's table, or NULL: counts go there */
	rapier_task_listeners_t listeners; /* the master's, one per worker id, inherited by every child */

	/* Sending, in any process of the server. */
	zend_long self_id;              /* the sender named in frames: the worker id, -1 in a user process */
	message_link_t **links;         /* the channel per worker id, opened on first use */
	message_link_t *retired;        /* channels to draining workers, closed once written out */
	uint64_t sent;                  /* messages sent, one per worker a broadcast went to */

	/* Receiving, in a request or task worker. */
	rapier_task_acceptor_t acceptor;
	rapier_list_t peers;            /* one channel per process that has sent here */
	uint64_t received;              /* handlers started */
	uint64_t running;               /* handlers not yet returned */
	bool paused;                    /* too many running: the channels are not read */
	rapier_list_t local_writers;    /* senders in this process waiting for fewer handlers to run here */
	bool draining;
	bool aborted;                   /* channels closed: the drain no longer waits for handlers */
	rapier_messages_drained_fn on_drained;
};

void rapier_messages_init(rapier_messages_t *messages);

/* In the master, before forking: one listener per worker id. 0 or a negative errno. */
int rapier_messages_listen(rapier_messages_t *messages, int backlog);

/* Closes the master's listeners except the one of worker keep (-1: all); the addresses stay. */
void rapier_messages_close_listeners(rapier_messages_t *messages, int keep);

/* In a process's scheduler: it sends as self_id from now on (with "workers" 0: worker 0, the only one). */
void rapier_messages_start(rapier_messages_t *messages, zend_long self_id);

/*
 * Sends message to worker_id (0..count-1, -1: every worker), serialized
 * once; may suspend the caller while the channel has more than its high
 * water mark queued. Returns how many workers it was sent to, or -1 with
 * an exception thrown.
 */
zend_long rapier_messages_send(rapier_messages_t *messages, zval *message, zend_long worker_id);

/* In worker index's scheduler, once its application is ready: take its channels. */
void rapier_messages_serve(rapier_messages_t *messages, unsigned index);

/* The worker stops: no new channels, GOODBYE on each, on_drained once all have closed and handlers returned. */
void rapier_messages_drain(rapier_messages_t *messages, rapier_messages_drained_fn on_drained);

/* Closes every channel to this worker now (shutdown_timeout passed): what they still held is lost. */
void rapier_messages_abort(rapier_messages_t *messages);

/* Frees what the process holds. */
void rapier_messages_free(rapier_messages_t *messages);

#endif
