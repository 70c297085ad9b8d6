/*
 * A request's handler: its start under the concurrency limit (or its wait
 * in the queue for a slot, queue_timeout), the connection while it runs
 * (its writer, its body's reader, and the watch for its client leaving),
 * and its end, which frees the slot for the next queued request.
 *
 * The connection itself (accepting, reading, parsing, closing) is
 * http_server.c's; the response's bytes are http_writer.c's.
 */
#include "php_rapier.h"

#include "http_redirect.h"
#include "http_server.h"
#include "http_server_internal.h"
#include "http_body.h"
#include "http_slowlog.h"
#include "http_websocket.h"

/* The queue */

/*
 * Requests waiting for a handler slot. Every one waits the same
 * queue_timeout, so the queue is in deadline order too, and one timer for
 * its oldest request does what a timer per request would, without moving
 * a heap timer for each queued request (the 10,000-connection case).
 */
static void queue_push(rapier_http_server_t *server, rapier_http_conn_t *conn)
{
	rapier_list_push(&server->queue, &conn->queued);
	if (server->cfg.queue_timeout_ns > 0) {
		conn->queued_until_ns = rapier_now_ns() + (uint64_t) server->cfg.queue_timeout_ns;
		/* An armed timer is due no later: it was set for an older request. */
		if (!rapier_timer_is_active(&server->queue_timer)) {
			rapier_timer_start_at(server->loop, &server->queue_timer, conn->queued_until_ns);
		}
	}
}

/* Unlinks CONN if it is queued. */
void rapier__http_queue_remove(rapier_http_server_t *server, rapier_http_conn_t *conn)
{
	rapier_list_remove(&server->queue, &conn->queued);
}

/* The oldest queued request, or NULL. */
static rapier_http_conn_t *queue_first(rapier_http_server_t *server)
{
	rapier_list_node_t *node = server->queue.head;

	return node ? RAPIER_LIST_ENTRY(node, rapier_http_conn_t, queued) : NULL;
}

/* queue_timeout: the requests that waited it get a 503, oldest first; the timer moves on to the next. */
void rapier__http_on_queue_timer(rapier_timer_t *timer)
{
	rapier_http_server_t *server = timer->data;
	uint64_t now = rapier_now_ns();
	rapier_http_conn_t *conn;

	while ((conn = queue_first(server)) != NULL && conn->queued_until_ns <= now) {
		rapier_http_conn_addref(conn);
		rapier__http_queue_remove(server, conn);
		server->stats.shed++;
		rapier__http_stats_changed(server);
		rapier__http_answer_busy(conn);
		rapier_http_conn_release(conn);
	}
	if (conn != NULL) {
		rapier_timer_start_at(server->loop, &server->queue_timer, conn->queued_until_ns);
	}
}

/* Starting a handler */

/*
 * Under the concurrency limit. server->limit holds it either way: without
 * latency_target it gets no samples and stays at max_concurrency.
 */
static bool handler_slot_free(rapier_http_server_t *server)
{
	uint32_t limit = rapier_http_limit_current(&server->limit);

	return limit == 0 || server->stats.handling < limit;
}

/*
 * max_requests counts every answered request, the loop's static files too.
 * The owner decides what follows; the server serves on meanwhile.
 */
static void check_max_requests(rapier_http_server_t *server)
{
	if (server->cfg.max_requests && server->stats.requests >= server->cfg.max_requests
			&& !server->limit_reported) {
		server->limit_reported = true;
		if (server->on_limit) {
			server->on_limit(server, server->dispatch_data);
		}
	}
}

void rapier__http_count_answer(rapier_http_server_t *server)
{
	server->stats.requests++;
	rapier__http_stats_changed(server);
	check_max_requests(server);
}

static void start_handler(rapier_http_conn_t *conn)
{
	rapier_http_server_t *server = conn->server;

	conn->state = RAPIER_HTTP_CONN_HANDLING;
	if (server->cfg.latency_target_ns || server->cfg.slowlog_timeout_ns) {
		conn->handler_start_ns = rapier_now_ns();
	}
	rapier_http_slowlog_start(conn);
	server->stats.handling++;
	rapier_list_push(&server->handlers, &conn->handling);
	rapier__http_stats_changed(server);
	/* From now until the response ends, the client's leaving is watched for (HTTP/2 sees a reset itself). */
	rapier__http_conn_watch(conn);
	server->dispatch(conn, server->dispatch_data);
}

void rapier__http_dispatch(rapier_http_conn_t *conn)
{
	rapier_http_server_t *server = conn->server;

	if (!conn->h2s) {
		rapier__http_conn_set_timer(conn, 0);
		/*
		 * No reading while the request is handled: pipelined bytes wait in the
		 * kernel. Paused, not stopped: a handler's watch for its client leaving,
		 * and reading again after the response, cost no epoll_ctl().
		 */
		rapier_io_pause(server->loop, &conn->io);
	}
	conn->response_started = conn->response_ended = conn->response_chunked = false;
	conn->response_keep_alive = false;
	conn->response_no_body = false;
	conn->response_status = 0;
	conn->response_bytes = 0;
	conn->unread_waits = false;
	rapier__http_real_ip(conn);
	if (conn->via_plain_listener && server->cfg.https_redirect_port) {
		/* Certbot's webroot challenges must be answered over plain HTTP; everything else moves to HTTPS. */
		if (!(server->cfg.static_root && rapier_http_is_acme_challenge(rapier_http_conn_request(conn)) && rapier__http_serve_static(conn))) {
			rapier__http_redirect_to_https(conn);
		}
		return;
	}
	if (server->cfg.static_root && rapier__http_serve_static(conn)) {
		return;
	}
	/*
	 * Behind any request already waiting: a pipelined request, dispatched
	 * as the one before it on its connection ends, would otherwise take
	 * the slot that request freed ahead of the queue.
	 */
	if (!handler_slot_free(server) || !rapier_list_is_empty(&server->queue)) {
		conn->state = RAPIER_HTTP_CONN_QUEUED;
		queue_push(server, conn);
		/*
		 * Watched while it waits, for its client leaving: a request whose
		 * client gave up would otherwise still take a handler slot at its
		 * turn. Unpausing costs no syscall (RAPIER_HTTP_CONN_READ). An HTTP/2 stream's
		 * reset comes through its connection.
		 */
		if (!conn->h2s) {
			rapier_io_start(server->loop, &conn->io, RAPIER_HTTP_CONN_READ);
		}
		return;
	}
	start_handler(conn);
}


/* While it runs */

void rapier__http_conn_watch(rapier_http_conn_t *conn)
{
	rapier_loop_t *loop = conn->server->loop;
	uint32_t events = 0;

	if (conn->h2s || conn->state != RAPIER_HTTP_CONN_HANDLING) {
		return;
	}
	if (conn->writer) {
		events |= RAPIER_IO_WRITE;
	}
	if (conn->body && conn->body->reader) {
		events |= RAPIER_HTTP_CONN_READ;
	} else if (rapier__http_conn_watched(conn)) {
		/*
		 * Its client leaving, seen while the handler runs (nginx's
		 * ngx_http_test_reading()); nothing is read. The paused interest, so
		 * that arming it and reading after the response cost no epoll_ctl();
		 * EPOLLRDHUP alone once bytes wait in the kernel (rapier__http_handling_io()).
		 */
		events |= conn->unread_waits ? EPOLLRDHUP : RAPIER_HTTP_CONN_READ;
	}
	if (events) {
		rapier_io_start(loop, &conn->io, events);
	} else {
		rapier_io_pause(loop, &conn->io);
	}
}

/* A handler runs: the socket serves its writer, its body's reader and the watch for its client leaving at once. */
void rapier__http_handling_io(rapier_http_conn_t *conn, uint32_t events)
{
	rapier_coro_t *co;
	bool reading = conn->body && conn->body->reader;

	/*
	 * A waiting reader reads what came before the end first. A half-close
	 * counts as leaving, as for a queued request: an HTTP client does not
	 * half-close and still wait for its answer.
	 */
	if (!reading && (events & (EPOLLRDHUP | EPOLLERR | EPOLLHUP)) && rapier__http_conn_watched(conn)) {
		rapier__http_response_cut(conn, 499);
		return;
	}
	if ((events & (EPOLLOUT | EPOLLERR | EPOLLHUP)) && (co = conn->writer) != NULL) {
		conn->writer = NULL;
		rapier_coro_wake(co, RAPIER_WAKE_OK);
	}
	if ((events & (EPOLLIN | EPOLLRDHUP | EPOLLERR | EPOLLHUP)) && reading) {
		co = conn->body->reader;
		conn->body->reader = NULL;
		rapier_coro_wake(co, RAPIER_WAKE_OK);
	} else if (events & EPOLLIN) {
		/* A pipelined request, or a body's rest nobody reads yet: it waits in the kernel. */
		conn->unread_waits = true;
	}
	rapier__http_conn_watch(conn);
}

bool rapier_http_conn_writable(const rapier_http_conn_t *conn)
{
	return conn->state == RAPIER_HTTP_CONN_HANDLING && !conn->response_ended;
}

/* After the handler */

/* Starts queued requests while there are slots: more than one when latency_target raised the limit. */
static void dequeue(rapier_http_server_t *server)
{
	rapier_http_conn_t *next;

	while ((next = queue_first(server)) != NULL && handler_slot_free(server)) {
		rapier__http_queue_remove(server, next);
		/* Its watch while queued goes on for the handler (start_handler()), at no cost. */
		start_handler(next);
	}
}

/* An upgraded connection's handler has returned: it held no slot since the upgrade. */
static void upgraded_handler_done(rapier_http_conn_t *conn, bool failed)
{
	rapier_http_server_t *server = conn->server;

	rapier_list_remove(&server->handlers, &conn->handling);
	rapier_http_conn_addref(conn);
	rapier__ws_handler_done(conn, failed);
	rapier_http_conn_release(conn);
	rapier__http_check_drained(server);
}

void rapier_http_conn_handler_done(rapier_http_conn_t *conn, bool failed)
{
	rapier_http_server_t *server = conn->server;
	bool body_unread = conn->body && !conn->body->done;
	bool body_failed = conn->body && conn->body->error;

	conn->handler_co = NULL;
	if (conn->upgraded) {
		upgraded_handler_done(conn, failed);
		return;
	}
	rapier_http_slowlog_stop(conn);
	rapier__http_body_detach(conn, 500, "the request's handler returned before its body ended");
	server->stats.handling--;
	rapier_list_remove(&server->handlers, &conn->handling);
	rapier__http_stats_changed(server);
	rapier_http_conn_addref(conn);
	if (server->cfg.latency_target_ns) {
		uint64_t now = rapier_now_ns();
		rapier_http_limit_sample(&server->limit, (int64_t) (now - conn->handler_start_ns), now);
	}
	check_max_requests(server);
	if (conn->state == RAPIER_HTTP_CONN_HANDLING && !conn->response_ended) {
		if (conn->response_started) {
			/* A streamed response cut short: the client must not take it as complete. */
			rapier__http_response_cut(conn, 500);
		} else {
			/* The answer closes the connection once written. */
			conn->state = RAPIER_HTTP_CONN_READING;
			rapier__http_answer_error(conn, 500, failed ? NULL : "the handler sent no response");
		}
	} else if (body_unread && conn->state == RAPIER_HTTP_CONN_HANDLING && !conn->h2s) {
		conn->state = RAPIER_HTTP_CONN_READING;
		if (conn->response_keep_alive && !body_failed && !server->draining) {
			/* A small rest (the response kept the connection): dropped, then the next request. */
			rapier__http_conn_discard_body(conn);
		} else {
			/*
			 * The connection cannot carry another request: the response said
			 * Connection: close, or the rest failed (malformed, stalled).
			 * Lingering lets the client read the response before the close.
			 */
			server->stats.unread_bodies_closed++;
			rapier__http_conn_linger(conn);
		}
	} else {
		rapier__http_conn_next_request(conn);
	}
	rapier_http_conn_release(conn);
	dequeue(server);
	rapier__http_check_drained(server);
}

void rapier__http_conn_upgraded(rapier_http_conn_t *conn)
{
	rapier_http_server_t *server = conn->server;

	conn->upgraded = true;
	conn->state = RAPIER_HTTP_CONN_WEBSOCKET;
	conn->response_started = conn->response_ended = true;
	rapier_http_slowlog_stop(conn);
	rapier__http_log_access(conn, 101, 0);
	server->stats.requests++;
	server->stats.handling--;
	server->stats.websockets++;
	rapier__http_stats_changed(server);
	/* Its frames are the I/O of work in progress, not intake (loop.h). */
	rapier_io_stop(server->loop, &conn->io);
	rapier_io_set_normal_priority(&conn->io);
	check_max_requests(server);
	dequeue(server);
}
