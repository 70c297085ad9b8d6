/*
 * Messages between workers: Server::sendMessage(), broadcastMessage() and
 * on('message').
 *
 * The master opens one Unix listener per worker id (request workers, then
 * task workers; abstract addresses, src/task.c) before forking and keeps
 * them, so a restarted or reloaded worker takes over its id's queue. A
 * sending process connects to a worker on its first message there and
 * keeps that channel; a message is one MESSAGE frame of the serialized
 * value with the sender's worker id. Frames from one sender to one worker
 * arrive in order, and the receiver starts a coroutine per message in that
 * order, through the private Server::runMessage().
 *
 * A send returns once the frame is queued; only when a channel holds more
 * than HIGH_WATER unwritten bytes (the receiver is slower than its
 * senders) does the sender wait, so a flood cannot grow memory without
 * bound. A draining worker (stop, reload, recycle) stops accepting, says
 * GOODBYE on each channel and reads on until the sender has closed it:
 * the sender closes the channel once what it queued there is written and
 * sends later messages on a new one, which the successor accepts. So a
 * reload loses no message; a worker that dies loses what was on its way to
 * it (at most once, as a crash loses its requests).
 */
#include "php_rapier.h"
#include "zend_exceptions.h"

#include <unistd.h>

#include "coroutine.h"
#include "http_message.h"
#include "http_task.h"
#include "status.h"

/* Unwritten bytes a channel may hold before its senders wait. */
#define HIGH_WATER (1024 * 1024)

/*
 * Handlers a worker runs at once before it stops reading its channels (so
 * that the queues fill and the senders wait), and when it reads again.
 */
#define MAX_RUNNING 1000
#define RESUME_RUNNING (MAX_RUNNING / 2)

struct message_link_s {
	rapier_task_conn_t conn;
	rapier_messages_t *messages;
	rapier_list_t writers;          /* senders waiting for the queue to go down */
	unsigned slot;                  /* its worker id */
	bool retiring;                  /* GOODBYE received: closed once written out */
	message_link_t *next;           /* in messages->retired */
};

typedef struct {
	rapier_coro_t *co;
	rapier_list_t *list;            /* link->writers, or messages->local_writers */
	rapier_list_node_t node;
} message_writer_t;

typedef struct {
	rapier_task_conn_t conn;
	rapier_messages_t *messages;
	rapier_list_node_t node;        /* in messages->peers */
} message_peer_t;

static inline message_peer_t *peer_of(rapier_list_node_t *node)
{
	return node ? RAPIER_LIST_ENTRY(node, message_peer_t, node) : NULL;
}

void rapier_messages_init(rapier_messages_t *messages)
{
	memset(messages, 0, sizeof(*messages));
	rapier_task_acceptor_init(&messages->acceptor);
	messages->self_id = -1;
	messages->max_payload = 8 * 1024 * 1024;
}

int rapier_messages_listen(rapier_messages_t *messages, int backlog)
{
	return rapier_task_listeners_open(&messages->listeners, messages->count, backlog);
}

void rapier_messages_close_listeners(rapier_messages_t *messages, int keep)
{
	rapier_task_listeners_close(&messages->listeners, keep);
}

void rapier_messages_start(rapier_messages_t *messages, zend_long self_id)
{
	messages->self_id = self_id;
}

/* rapier status and the metrics read them there, for every process of the server. */
static void publish_counts(rapier_messages_t *messages)
{
	if (messages->status) {
		rapier_status_messages_update(messages->status, messages->sent, messages->received);
	}
}

/* Receiving */

static void drained(rapier_messages_t *messages)
{
	rapier_messages_drained_fn fn = messages->on_drained;

	if (fn) {
		messages->on_drained = NULL;
		fn(messages);
	}
}

/* Done when every channel has closed and, unless aborted, every handler has returned. */
static void check_drained(rapier_messages_t *messages)
{
	if (messages->draining && rapier_list_is_empty(&messages->peers)
		&& (messages->running == 0 || messages->aborted)) {
		drained(messages);
	}
}

static void wake_writers(rapier_list_t *writers, rapier_wake_t why)
{
	rapier_list_node_t *node;

	while ((node = rapier_list_shift(writers)) != NULL) {
		rapier_coro_wake(RAPIER_LIST_ENTRY(node, message_writer_t, node)->co, why);
	}
}

/* Stops or starts reading every channel to this worker. */
static void pause_peers(rapier_messages_t *messages, bool paused)
{
	messages->paused = paused;
	for (message_peer_t *peer = peer_of(messages->peers.head); peer; peer = peer_of(peer->node.next)) {
		rapier_task_conn_pause(&peer->conn, paused);
	}
}

static void on_message_finish(rapier_coro_t *co, zval *retval, zend_object *exception, void *data)
{
	rapier_messages_t *messages = data;

	(void) retval;
	if (exception) {
		/* Logged as any coroutine's would be; the worker goes on. */
		rapier_coro_report_uncaught(co, exception);
		OBJ_RELEASE(exception);
	}
	messages->running--;
	if (messages->running <= RESUME_RUNNING) {
		if (messages->paused) {
			pause_peers(messages, false);
		}
		wake_writers(&messages->local_writers, RAPIER_WAKE_OK);
	}
	check_drained(messages);
}

/* Starts the handler on a message. */
static void deliver(rapier_messages_t *messages, const char *payload, size_t len, zend_long from)
{
	if (rapier_task_spawn_method(messages->server, ZEND_STRL("runmessage"), payload, len, from, on_message_finish,
			messages) == NULL) {
		return;
	}
	messages->received++;
	messages->running++;
	publish_counts(messages);
	if (messages->running >= MAX_RUNNING && !messages->paused) {
		pause_peers(messages, true);
	}
}

static void peer_close(message_peer_t *peer)
{
	rapier_messages_t *messages = peer->messages;

	rapier_task_conn_close(&peer->conn);
	rapier_list_remove(&messages->peers, &peer->node);
	efree(peer);
	check_drained(messages);
}

static void on_peer_frame(rapier_task_conn_t *conn, const rapier_task_frame_t *frame)
{
	message_peer_t *peer = conn->data;

	if (frame->kind == RAPIER_TASK_MESSAGE) {
		deliver(peer->messages, frame->payload, frame->len, (zend_long) (int64_t) frame->id);
	}
}

/* The sender closed its channel: after GOODBYE, or it exited. */
static void on_peer_close(rapier_task_conn_t *conn, int error)
{
	(void) error;
	peer_close(conn->data);
}

static void on_accept(rapier_task_acceptor_t *acceptor, int fd)
{
	rapier_messages_t *messages = acceptor->data;
	message_peer_t *peer = ecalloc(1, sizeof(*peer));

	peer->messages = messages;
	rapier_task_conn_open(&peer->conn, rapier_sched_loop(), fd, messages->max_payload,
		on_peer_frame, on_peer_close, peer);
	/* An idle channel does not keep the worker alive: its drain waits for it instead. */
	rapier_task_conn_set_unref(&peer->conn, true);
	rapier_task_conn_pause(&peer->conn, messages->paused);
	rapier_list_push(&messages->peers, &peer->node);
}

void rapier_messages_serve(rapier_messages_t *messages, unsigned index)
{
	/* No listener without a handler, nor in one process ("workers" 0), whose messages never leave it. */
	rapier_task_acceptor_start(&messages->acceptor, rapier_sched_loop(),
		rapier_task_listeners_take(&messages->listeners, index), on_accept, messages);
	if (messages->acceptor.io.fd >= 0) {
		rapier_io_set_unref(rapier_sched_loop(), &messages->acceptor.io, true);
	}
}

void rapier_messages_drain(rapier_messages_t *messages, rapier_messages_drained_fn on_drained)
{
	if (messages->draining) {
		return;
	}
	messages->draining = true;
	messages->on_drained = on_drained;
	rapier_task_acceptor_stop(&messages->acceptor);
	for (message_peer_t *peer = peer_of(messages->peers.head); peer; peer = peer_of(peer->node.next)) {
		rapier_task_conn_send(&peer->conn, 0, RAPIER_TASK_GOODBYE, NULL, 0);
	}
	check_drained(messages);
}

void rapier_messages_abort(rapier_messages_t *messages)
{
	messages->aborted = true;
	while (!rapier_list_is_empty(&messages->peers)) {
		peer_close(peer_of(messages->peers.head));
	}
	/* Handlers still running are canceled with the worker's other leftovers. */
	drained(messages);
}

/* Sending */

/* Nothing queued: an idle channel must not keep the process alive; a retiring one is done. */
static void on_link_flushed(rapier_task_conn_t *conn)
{
	message_link_t *link = conn->data;

	rapier_task_conn_set_unref(conn, true);
	wake_writers(&link->writers, RAPIER_WAKE_OK);
	if (link->retiring) {
		rapier_task_conn_close(conn);
	}
}

/* The worker behind this channel drains: later messages go to its successor on a new channel. */
static void link_retire(message_link_t *link)
{
	rapier_messages_t *messages = link->messages;

	messages->links[link->slot] = NULL;
	link->retiring = true;
	link->next = messages->retired;
	messages->retired = link;
	if (rapier_task_conn_queued(&link->conn) == 0) {
		rapier_task_conn_close(&link->conn);
	}
}

static void on_link_frame(rapier_task_conn_t *conn, const rapier_task_frame_t *frame)
{
	message_link_t *link = conn->data;

	if (frame->kind == RAPIER_TASK_GOODBYE && !link->retiring) {
		link_retire(link);
	}
}

/* The worker went away (crash, or its end): what was queued for it is lost; its writers go on. */
static void on_link_close(rapier_task_conn_t *conn, int error)
{
	message_link_t *link = conn->data;

	(void) error;
	wake_writers(&link->writers, RAPIER_WAKE_CLOSED);
}

/* Frees the retired channels that have closed; not from their own callbacks (task.c still uses them). */
static void free_closed_links(rapier_messages_t *messages)
{
	message_link_t **at = &messages->retired;

	while (*at) {
		message_link_t *link = *at;
		if (rapier_task_conn_is_open(&link->conn)) {
			at = &link->next;
			continue;
		}
		*at = link->next;
		efree(link);
	}
}

/* The open channel to worker id, connecting it if need be; NULL with an exception thrown. */
static message_link_t *open_link(rapier_messages_t *messages, unsigned id)
{
	message_link_t *link;
	int fd;

	if (messages->links == NULL) {
		messages->links = ecalloc(messages->count, sizeof(message_link_t *));
	}
	if ((link = messages->links[id]) == NULL) {
		link = messages->links[id] = ecalloc(1, sizeof(message_link_t));
		link->messages = messages;
		link->slot = id;
		link->conn.io.fd = -1;
	}
	if (rapier_task_conn_is_open(&link->conn)) {
		return link;
	}
	if ((fd = rapier_task_listeners_connect(&messages->listeners, id)) < 0) {
		zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot reach worker %u for a message: %s", id, strerror(-fd));
		return NULL;
	}
	rapier_task_conn_open(&link->conn, rapier_sched_loop(), fd, messages->max_payload,
		on_link_frame, on_link_close, link);
	link->conn.on_flushed = on_link_flushed;
	rapier_task_conn_set_unref(&link->conn, true);
	return link;
}

static void writer_unlink(rapier_coro_t *co, void *data)
{
	message_writer_t *writer = data;

	(void) co;
	rapier_list_remove(writer->list, &writer->node);
}

/*
 * A message handler never waits to send: a worker stops reading while it
 * runs MAX_RUNNING of them, so two workers whose handlers message each
 * other could wait on each other for ever. Nor does code that cannot wait.
 * Their queue just grows.
 */
static bool may_wait(void)
{
	return rapier_coro_can_yield() && rapier_coro_current()->on_finish != on_message_finish;
}

/* Waits on writers until woken; false with CanceledException thrown when the wait was canceled. */
static bool wait_as_writer(rapier_list_t *writers)
{
	message_writer_t writer = { .co = rapier_coro_current(), .list = writers };

	rapier_list_push(writers, &writer.node);
	if (rapier_coro_wait(-1, writer_unlink, &writer, "room for a message") == RAPIER_WAKE_CANCELED) {
		if (!EG(exception)) {
			zend_throw_exception(rapier_ce_canceled_exception,
				"Coroutine was canceled while its message waited for room", 0);
		}
		return false;
	}
	return true;
}

/*
 * When the channel holds more than HIGH_WATER unwritten, the sender waits
 * until it is all written or the channel closes; the link may be freed
 * once the wait is over.
 */
static bool wait_for_room(message_link_t *link)
{
	if (rapier_task_conn_queued(&link->conn) <= HIGH_WATER || !may_wait()) {
		return true;
	}
	return wait_as_writer(&link->writers);
}

/* A message to this process waits while it runs MAX_RUNNING handlers, as one from elsewhere would. */
static bool wait_for_local_room(rapier_messages_t *messages)
{
	while (messages->running >= MAX_RUNNING && may_wait()) {
		if (!wait_as_writer(&messages->local_writers)) {
			return false;
		}
	}
	return true;
}

static bool send_to(rapier_messages_t *messages, zend_string *payload, unsigned id)
{
	message_link_t *link;
	int rc;

	if ((zend_long) id == messages->self_id) {
		if (!wait_for_local_room(messages)) {
			return false;
		}
		deliver(messages, ZSTR_VAL(payload), ZSTR_LEN(payload), messages->self_id);
		return !EG(exception);
	}
	if ((link = open_link(messages, id)) == NULL) {
		return false;
	}
	rc = rapier_task_conn_send(&link->conn, (uint64_t) (int64_t) messages->self_id, RAPIER_TASK_MESSAGE,
		ZSTR_VAL(payload), ZSTR_LEN(payload));
	if (rc == -EPIPE || rc == -ECONNRESET) {
		/* The worker went away since: as a message lost on its way, not the sender's error. */
		return true;
	}
	if (rc < 0) {
		zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot send a message to worker %u: %s", id, strerror(-rc));
		return false;
	}
	if (rapier_task_conn_queued(&link->conn) > 0) {
		/* Written out before the process may end. */
		rapier_task_conn_set_unref(&link->conn, false);
	}
	return wait_for_room(link);
}

zend_long rapier_messages_send(rapier_messages_t *messages, zval *message, zend_long worker_id)
{
	zend_string *payload;
	zend_long sent = 0;

	free_closed_links(messages);
	if ((payload = rapier_task_serialize(message)) == NULL) {
		return -1;
	}
	if (ZSTR_LEN(payload) > messages->max_payload) {
		zend_throw_exception_ex(rapier_ce_exception, 0,
			"Cannot send a message of %zu bytes serialized: the limit is message_max_payload (%zu)",
			ZSTR_LEN(payload), messages->max_payload);
		zend_string_release(payload);
		return -1;
	}
	for (unsigned id = 0; id < messages->count; id++) {
		if (worker_id >= 0 && (zend_long) id != worker_id) {
			continue;
		}
		if (!send_to(messages, payload, id)) {
			zend_string_release(payload);
			return -1;
		}
		messages->sent++;
		sent++;
	}
	zend_string_release(payload);
	publish_counts(messages);
	return sent;
}

void rapier_messages_free(rapier_messages_t *messages)
{
	if (messages->links) {
		for (unsigned i = 0; i < messages->count; i++) {
			if (messages->links[i]) {
				rapier_task_conn_close(&messages->links[i]->conn);
				efree(messages->links[i]);
			}
		}
		efree(messages->links);
		messages->links = NULL;
	}
	for (message_link_t *link = messages->retired; link; link = link->next) {
		rapier_task_conn_close(&link->conn);
	}
	free_closed_links(messages);
	while (!rapier_list_is_empty(&messages->peers)) {
		message_peer_t *peer = peer_of(rapier_list_shift(&messages->peers));
		rapier_task_conn_close(&peer->conn);
		efree(peer);
	}
	rapier_task_acceptor_close(&messages->acceptor);
	rapier_task_listeners_free(&messages->listeners);
}
