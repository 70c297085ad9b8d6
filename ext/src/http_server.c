/*
 * One worker's HTTP/1.1 server: accept, read, parse, dispatch, write.
 *
 * Reading happens in the loop's I/O phase, never in a coroutine: bytes are
 * read into one buffer shared by the whole worker and fed straight to the
 * connection's parser, so an idle connection costs no read buffer (10,000
 * idle keep-alive clients must not pin 10,000 buffers). Only the bytes of
 * pipelined requests that arrive behind the one being handled are copied
 * into a buffer of the connection's own.
 *
 * A complete request is dispatched to the binding, which runs the PHP
 * handler in a coroutine; its response is written from that coroutine
 * (http_writer.c). Answers the server gives itself (400, 408, 413, 431,
 * 503, the HTTPS redirect) and static files are written from the loop
 * (http_answer.c); after an error answer the connection is closed with a
 * lingering close so the client reads the answer instead of a reset.
 *
 * A connection is freed when it is closed and no PHP object (Request,
 * Response) still holds it.
 */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include "php_rapier.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "http2.h"
#include "http_server.h"
#include "http_server_internal.h"
#include "http_body.h"
#include "http_slowlog.h"
#include "http_websocket.h"
#include "websocket_deflate.h"

/*
 * Bytes read per read() call. Large enough for a typical request with its
 * headers in one call, small enough to keep one shared buffer cheap.
 */
#define RAPIER_HTTP_READ_CHUNK (64 * 1024)

/*
 * Connections accepted per listener event. Bounded so that a connection
 * storm on one worker cannot starve the requests it already has; the rest
 * wait for the next loop iteration (the listener is level-triggered).
 */
#define RAPIER_HTTP_ACCEPT_BATCH 64

/*
 * When the server drains, a new connection whose first request has not
 * arrived yet gets this long for it (less if read_timeout ends sooner): a
 * client that has just connected is served, while a speculative preconnect
 * that may never send anything delays the stop by this much at most.
 */
#define RAPIER_HTTP_DRAIN_FIRST_REQUEST_NS (1000 * 1000000ll)

/* Reads per connection event, for the same reason. */
#define RAPIER_HTTP_READS_PER_EVENT 4

static char read_buffer[RAPIER_HTTP_READ_CHUNK];

static void conn_process(rapier_http_conn_t *conn, const char *data, size_t len);
static void conn_read(rapier_http_conn_t *conn);
static void conn_on_io(rapier_io_t *io, uint32_t events);

void rapier_http_config_default(rapier_http_config_t *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	rapier_http_limits_default(&cfg->limits);
	cfg->read_timeout_ns = 30 * (int64_t) 1000000000;
	cfg->keepalive_timeout_ns = 60 * (int64_t) 1000000000;
	cfg->write_timeout_ns = 60 * (int64_t) 1000000000;
	cfg->tcp_keepalive = 60;
	cfg->websocket_max_message = 1024 * 1024;
	cfg->websocket_close_timeout_ns = 2 * (int64_t) 1000000000;
	cfg->max_connections = 10240;
	cfg->backlog = 8192;
	cfg->gzip = true;
	rapier_compress_config_init(&cfg->compress);
	cfg->http2_max_streams = 100;
	cfg->body_buffer_size = RAPIER_HTTP_DEFAULT_BODY_BUFFER_SIZE;
	cfg->max_body_discard = RAPIER_HTTP_DEFAULT_MAX_BODY_DISCARD;
	cfg->static_compress_max_size = RAPIER_FILE_COMPRESS_DEFAULT_MAX_SIZE;
	cfg->static_compress_cache = RAPIER_FILE_CACHE_DEFAULT_MAX_BYTES;
	cfg->request_buffering = true;
	cfg->max_file_uploads = -1;
}

/*
 * A connection's timeout moves with every request (read, then idle, then
 * read...), almost always later. Moving a heap timer costs two heap
 * operations per request, which add up at 10,000 connections; so, as nginx
 * does, the armed timer is left alone when it fires no later than the new
 * deadline, and when it fires early it re-arms itself for the rest.
 * Clearing is lazy too: the timer fires and finds no deadline. Closing a
 * connection stops its timer for real.
 */
static void conn_set_deadline(rapier_http_conn_t *conn, uint64_t now_ns, int64_t timeout_ns)
{
	if (timeout_ns <= 0) {
		conn->deadline_ns = 0;
		return;
	}
	conn->deadline_ns = now_ns + (uint64_t) timeout_ns;
	if (rapier_timer_is_active(&conn->timer) && conn->timer.due_ns <= conn->deadline_ns) {
		return;
	}
	rapier_timer_start_at(conn->server->loop, &conn->timer, conn->deadline_ns);
}

/* The same from now. The clock is read only when there is a deadline to set. */
static void conn_set_timer(rapier_http_conn_t *conn, int64_t timeout_ns)
{
	conn_set_deadline(conn, timeout_ns > 0 ? rapier_now_ns() : 0, timeout_ns);
}

void rapier__http_conn_set_timer(rapier_http_conn_t *conn, int64_t timeout_ns)
{
	conn_set_timer(conn, timeout_ns);
}

/* A request's first byte: its start (the access log's duration) and its read deadline, from one clock reading. */
static void conn_start_request(rapier_http_conn_t *conn)
{
	conn->idle = false;
	conn->body_timed = false;
	conn->client_named = false;     /* the last request's client; this one's is known once its head is */
	conn->client_https = -1;
	conn->request_start_ns = rapier_now_ns();
	conn_set_deadline(conn, conn->request_start_ns, conn->server->cfg.read_timeout_ns);
}

/* Whether the timer that fired is the connection's deadline (else it was re-armed, or nothing is due). */
static bool conn_timer_due(rapier_http_conn_t *conn)
{
	uint64_t now = rapier_now_ns();

	if (conn->deadline_ns == 0) {
		return false;
	}
	if (conn->deadline_ns > now) {
		rapier_timer_start_at(conn->server->loop, &conn->timer, conn->deadline_ns);
		return false;
	}
	conn->deadline_ns = 0;
	return true;
}

static void on_conn_timer(rapier_timer_t *timer);

/* inet_ntop formats with sprintf: once per connection, not once per request. */
void rapier__http_conn_format_peer(rapier_http_conn_t *conn)
{
	const struct sockaddr *sa = (const struct sockaddr *) &conn->peer;

	conn->peer_text[0] = '\0';
	conn->peer_port = 0;
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *) sa;
		inet_ntop(AF_INET, &in->sin_addr, conn->peer_text, sizeof(conn->peer_text));
		conn->peer_port = ntohs(in->sin_port);
	} else if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *) sa;
		inet_ntop(AF_INET6, &in6->sin6_addr, conn->peer_text, sizeof(conn->peer_text));
		conn->peer_port = ntohs(in6->sin6_port);
	}
}

static int local_port(int fd)
{
	struct sockaddr_storage local;
	socklen_t len = sizeof(local);

	if (getsockname(fd, (struct sockaddr *) &local, &len) < 0) {
		return 0;
	}
	if (local.ss_family == AF_INET6) {
		return ntohs(((struct sockaddr_in6 *) &local)->sin6_port);
	}
	return local.ss_family == AF_INET ? ntohs(((struct sockaddr_in *) &local)->sin_port) : 0;
}

/* The TLS session goes (with close_notify if notify and it is sound); what is read or written after is raw. */
static void conn_end_tls(rapier_http_conn_t *conn, bool notify)
{
	rapier_http_tls_free(conn->tls, notify);
	conn->tls = NULL;
}

/* HTTPS: the connection begins with the handshake, which read_timeout bounds as it does a request. */
static bool conn_start_tls(rapier_http_conn_t *conn)
{
	conn->tls_handshaking = true;
	return (conn->tls = rapier_http_tls_new(conn->server->cfg.tls, conn->fd)) != NULL;
}

static void conn_open(rapier_http_listener_t *listener, int fd, struct sockaddr_storage *peer, socklen_t peer_len)
{
	rapier_http_server_t *server = listener->server;
	rapier_http_conn_t *conn = ecalloc(1, sizeof(*conn));
	int one = 1;

	/* Responses leave in one sendmsg; Nagle would only delay them. */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	conn->server = server;
	conn->fd = fd;
	conn->refcount = 1;
	conn->state = RAPIER_HTTP_CONN_READING;
	conn->idle = true;
	conn->request_start_ns = rapier_now_ns();
	conn->file_fd = -1;
	conn->peer = *peer;
	conn->peer_len = peer_len;
	conn->local_port = local_port(fd);
	conn->via_plain_listener = listener->plain;
	conn->proxy_pending = server->cfg.proxy_protocol;
	conn->proxy_https = -1;
	rapier__http_conn_format_peer(conn);
	rapier_http_parser_init(&conn->parser, &server->cfg.limits);
	conn->parser_ready = true;
	rapier_io_init(&conn->io, fd, conn_on_io, conn);
	/* New requests wait behind the I/O of those being handled (loop.h). */
	rapier_io_set_low_priority(&conn->io);
	rapier_timer_init(&conn->timer, on_conn_timer, conn);
	rapier_http_slowlog_init(conn);

	rapier_list_push(&server->conns, &conn->link);
	server->stats.connections++;
	server->stats.accepted++;
	rapier__http_stats_changed(server);

	if (server->cfg.tls && !listener->plain && !conn_start_tls(conn)) {
		rapier__http_conn_close(conn);
		return;
	}
	rapier_io_start(server->loop, &conn->io, RAPIER_HTTP_CONN_READ);
	conn_set_deadline(conn, conn->request_start_ns, server->cfg.read_timeout_ns);
}

/* Accepts up to max waiting connections: fewer when the backlog empties or max_connections is reached. */
static void accept_some(rapier_http_listener_t *listener, int max)
{
	rapier_http_server_t *server = listener->server;

	for (int i = 0; i < max; i++) {
		struct sockaddr_storage peer;
		socklen_t peer_len = sizeof(peer);
		int fd;

		if (server->stats.connections >= server->cfg.max_connections) {
			rapier__http_listeners_pause(server, true);
			return;
		}
		fd = accept4(listener->fd, (struct sockaddr *) &peer, &peer_len, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			/*
			 * EAGAIN: drained. EMFILE/ENFILE: out of descriptors; the
			 * connection waits in the backlog until one is freed.
			 * ECONNABORTED: the client left first. All end this batch.
			 */
			return;
		}
		conn_open(listener, fd, &peer, peer_len);
	}
}

static void on_accept(rapier_io_t *io, uint32_t events)
{
	accept_some(io->data, RAPIER_HTTP_ACCEPT_BATCH);
}

void rapier_http_server_init(rapier_http_server_t *server, const rapier_http_config_t *cfg, rapier_loop_t *loop,
	int listen_fd, rapier_http_dispatch_fn dispatch, void *dispatch_data)
{
	memset(server, 0, sizeof(*server));
	server->cfg = *cfg;
	server->loop = loop;
	server->dispatch = dispatch;
	server->dispatch_data = dispatch_data;
	rapier_http_date_cache_init(&server->date);
	rapier_encoder_pool_init(&server->encoders, &cfg->compress, RAPIER_COMPRESS_POOL_DEFAULT_MAX_IDLE);
	rapier_file_cache_init(&server->file_cache, cfg->static_compress_cache);
	/* Answers made in C (errors, static files' heads): small, so the limit is only a backstop. */
	rapier_http_buf_init(&server->scratch, NULL, 0, (size_t) 1 << 31);
	rapier_http_limit_init(&server->limit, cfg->max_concurrency, cfg->latency_target_ns, rapier_now_ns());
	rapier_timer_init(&server->queue_timer, rapier__http_on_queue_timer, server);
	/* Requests queue only while handlers run, and those keep the loop alive. */
	server->queue_timer.unref = true;
	/*
	 * Listeners keep normal priority, unlike connections: a client
	 * waiting to be accepted has already sent its request, and its clock
	 * runs while it waits behind thousands of readable connections.
	 */
	rapier__http_listener_init(&server->listeners[0], server, listen_fd, false, on_accept);
	rapier__http_listener_init(&server->listeners[1], server, -1, true, on_accept);
}

void rapier_http_server_add_plain_listener(rapier_http_server_t *server, int fd, bool shared)
{
	rapier__http_listener_init(&server->listeners[1], server, fd, true, on_accept);
	server->listeners[1].shared = shared;
}

void rapier_http_server_start(rapier_http_server_t *server)
{
	server->started = true;
	if (!server->draining) {
		rapier__http_listeners_pause(server, false);
	}
}

/* Connection life cycle */

/*
 * Besides the PHP objects, the loop's entry points into a connection (its
 * I/O and timer callbacks, the queue timer, the end of its handler) hold
 * it for their duration: answering one request can close the connection
 * deep inside the call, and the callers up the stack still look at its
 * state.
 */
void rapier_http_conn_addref(rapier_http_conn_t *conn)
{
	conn->refcount++;
}

/* A spooled body nobody took (refused request, closed connection): its files go too. */
void rapier__http_drop_upload(rapier_http_conn_t *conn)
{
	if (conn->upload) {
		rapier_upload_free(conn->upload);
		free(conn->upload);
		conn->upload = NULL;
	}
}

rapier_upload_t *rapier_http_conn_take_upload(rapier_http_conn_t *conn)
{
	rapier_upload_t *upload = conn->upload;

	conn->upload = NULL;
	return upload;
}

void rapier_http_conn_release(rapier_http_conn_t *conn)
{
	if (--conn->refcount > 0) {
		return;
	}
	rapier__http_drop_upload(conn);
	rapier__ws_free(conn);
	if (conn->h2s) {
		rapier__h2_stream_free(conn);
	}
	if (conn->parser_ready) {
		rapier_http_parser_free(&conn->parser);
	}
	if (conn->rbuf) {
		efree(conn->rbuf);
	}
	if (conn->wbuf) {
		efree(conn->wbuf);
	}
	if (conn->proxy_buf) {
		efree(conn->proxy_buf);
	}
	if (conn->proxy_vars) {
		zend_array_release(conn->proxy_vars);
	}
	efree(conn);
}

void rapier__http_check_drained(rapier_http_server_t *server)
{
	/* Handlers still running on closed connections count: workerStop must come after them. */
	if (server->draining && rapier_list_is_empty(&server->conns) && rapier_list_is_empty(&server->handlers)
			&& server->on_drained) {
		rapier_http_drained_fn done = server->on_drained;
		server->on_drained = NULL;
		done(server, server->drained_data);
	}
}

/* The coroutines waiting to write to a closing connection: each wakes to find it closed. */
static void wake_writers(rapier_http_conn_t *conn)
{
	if (conn->writer) {
		rapier_coro_t *writer = conn->writer;
		conn->writer = NULL;
		rapier_coro_wake(writer, RAPIER_WAKE_CLOSED);
	}
	rapier__http_wake_queued_writers(conn);
}

/*
 * An HTTP/2 stream's object closes: the stream is reset if it is still
 * open (http2.c), whoever waits on it is woken, and the session's
 * reference goes. A handler still running keeps the object until it ends.
 */
static void stream_close(rapier_http_conn_t *conn)
{
	if (conn->state == RAPIER_HTTP_CONN_QUEUED) {
		rapier__http_queue_remove(conn->server, conn);
	}
	conn->state = RAPIER_HTTP_CONN_CLOSED;
	rapier_timer_stop(conn->server->loop, &conn->timer);
	wake_writers(conn);
	rapier__http_body_detach(conn, 499, "the client reset the stream before the body ended");
	rapier__http_encoder_release(conn);
	rapier__h2_stream_closed(conn);
	rapier_http_conn_release(conn);
}

void rapier__http_conn_close(rapier_http_conn_t *conn)
{
	rapier_http_server_t *server = conn->server;

	if (conn->state == RAPIER_HTTP_CONN_CLOSED) {
		return;
	}
	if (conn->h2s) {
		stream_close(conn);
		return;
	}
	if (conn->state == RAPIER_HTTP_CONN_QUEUED) {
		rapier__http_queue_remove(server, conn);
	}
	if (conn->discarding) {
		/* An unread rest that stalled, or whose client closed, or a server stopping. */
		conn->discarding = false;
		server->stats.unread_bodies_closed++;
	}
	conn->state = RAPIER_HTTP_CONN_CLOSED;
	rapier_io_stop(server->loop, &conn->io);
	rapier_timer_stop(server->loop, &conn->timer);
	wake_writers(conn);
	rapier__http_body_detach(conn, 499, "the connection closed before the body ended");
	rapier__ws_conn_closed(conn);
	rapier__http_encoder_release(conn);
	if (conn->file_fd >= 0) {
		close(conn->file_fd);
		conn->file_fd = -1;
	}
	if (conn->h2) {
		rapier__h2_conn_closed(conn);
	}
	conn_end_tls(conn, true);
	close(conn->fd);
	conn->fd = -1;
	rapier_list_remove(&server->conns, &conn->link);
	server->stats.connections--;
	rapier__http_stats_changed(server);
	if (!server->draining && server->stats.connections < server->cfg.max_connections) {
		rapier__http_listeners_pause(server, false);
	}
	rapier__http_check_drained(server);
	rapier_http_conn_release(conn);
}

/* Lingering close: stop writing, discard what the client still sends, then close. */
void rapier__http_conn_linger(rapier_http_conn_t *conn)
{
	/* TLS ends with close_notify; what the client still sends is discarded unread, ciphertext or not. */
	conn_end_tls(conn, true);
	if (shutdown(conn->fd, SHUT_WR) < 0) {
		rapier__http_conn_close(conn);
		return;
	}
	conn->lingering = true;
	conn->close_after_write = false;
	conn->wlen = conn->wpos = 0;
	rapier_io_start(conn->server->loop, &conn->io, RAPIER_HTTP_CONN_READ);
	conn_set_timer(conn, RAPIER_HTTP_LINGER_NS);
}

void rapier__http_log_access(rapier_http_conn_t *conn, int status, uint64_t bytes)
{
	rapier_access_log_t *log = conn->server->cfg.access_log;
	rapier_access_entry_t entry;
	int port;

	if (log == NULL) {
		return;
	}
	entry.remote = rapier_http_conn_peer(conn, &port);
	entry.status = status;
	entry.bytes = bytes;
	entry.duration_ns = (int64_t) (rapier_now_ns() - conn->request_start_ns);
	entry.wall_time = (int64_t) time(NULL);
	entry.worker_id = conn->server->cfg.worker_id;
	rapier_access_log_write(log, rapier_http_conn_request(conn), &entry);
}

/* Reading and parsing */

static void keep_leftover(rapier_http_conn_t *conn, const char *data, size_t len)
{
	char *copy = emalloc(len);

	/* data may point into conn->rbuf itself. */
	memcpy(copy, data, len);
	if (conn->rbuf) {
		efree(conn->rbuf);
	}
	conn->rbuf = copy;
	conn->rlen = len;
}

/* What follows a complete message in a read is the next request's start: kept until that request is read. */
static void keep_next_request(rapier_http_conn_t *conn, const char *data, size_t len)
{
	if (len > 0) {
		keep_leftover(conn, data, len);
	} else {
		conn->rlen = 0;
	}
}

/*
 * A body too large to keep in memory, or whose size is not known yet
 * (chunked, HTTP/2 without content-length), is kept by a spool that moves it
 * to a temporary file once it passes body_buffer_size. A smaller one goes to
 * the request buffer as it always did.
 */
static bool body_may_outgrow_memory(const rapier_http_config_t *cfg, const rapier_http_request_t *req)
{
	return cfg->body_buffer_size > 0
		&& (req->content_length < 0 || (uint64_t) req->content_length > cfg->body_buffer_size);
}

/* A multipart body goes to temporary files while it arrives, a large one of another type to one. */
bool rapier__http_spool_upload(rapier_http_conn_t *conn)
{
	const rapier_http_config_t *cfg = &conn->server->cfg;
	const rapier_http_request_t *req = rapier_http_parser_request(&conn->parser);
	const char *type;
	size_t type_len;
	rapier_upload_t *upload;

	rapier__http_drop_upload(conn);
	if (cfg->upload_tmp_dir == NULL || (upload = malloc(sizeof(*upload))) == NULL) {
		return false;
	}
	if ((type = rapier_http_request_header(req, "content-type", &type_len)) != NULL
		&& rapier_upload_init(upload, type, type_len, cfg->upload_tmp_dir) == 0) {
		upload->max_file_size = cfg->upload_max_file_size;
		upload->max_files = cfg->max_file_uploads;
		conn->upload = upload;
		return true;
	}
	/* A length known to be over the bound goes to its file from the first byte, not by way of memory. */
	if (body_may_outgrow_memory(cfg, req)
		&& rapier_upload_init_raw(upload, cfg->upload_tmp_dir, req->content_length > 0 ? 0 : cfg->body_buffer_size) == 0) {
		conn->upload = upload;
		return true;
	}
	free(upload);
	return false;
}

/*
 * Expect: 100-continue. The interim answer must leave whole before any
 * byte of the final one, which the handler writes on its own; a client
 * whose socket cannot take these 25 bytes is not reading, and is cut off.
 * Returns false when the connection closed.
 */
static bool send_continue(rapier_http_conn_t *conn)
{
	static const char cont[] = "HTTP/1.1 100 Continue\r\n\r\n";
	ssize_t n;

	do {
		n = rapier__http_conn_send(conn, cont, sizeof(cont) - 1);
	} while (n < 0 && errno == EINTR);
	if (n != (ssize_t) sizeof(cont) - 1) {
		rapier__http_conn_close(conn);
		return false;
	}
	return true;
}

bool rapier__http_streams_body(const rapier_http_conn_t *conn)
{
	const rapier_http_config_t *cfg = &conn->server->cfg;
	const rapier_http_request_t *req = rapier_http_conn_request(conn);
	const char *type;
	size_t type_len;

	if (cfg->request_buffering || req->method == HTTP_GET || req->method == HTTP_HEAD
			|| (conn->via_plain_listener && cfg->https_redirect_port)) {
		return false;
	}
	type = rapier_http_request_header(req, "content-type", &type_len);
	return type == NULL || type_len < 19 || strncasecmp(type, "multipart/form-data", 19) != 0;
}

/* Bytes of a body read while it arrives: through the parser to conn->body. What follows it is the next request's. */
static void body_feed(rapier_http_conn_t *conn, const char *data, size_t len)
{
	rapier_http_parser_t *p = &conn->parser;
	ssize_t used = rapier_http_parser_feed(p, data, len);

	if (used < 0 || p->state == RAPIER_HTTP_ERROR) {
		rapier__http_body_end(conn->body, p->error_status, p->error_reason);
		return;
	}
	if (p->state == RAPIER_HTTP_MESSAGE_COMPLETE) {
		rapier__http_body_end(conn->body, 0, NULL);
		keep_next_request(conn, data + used, len - (size_t) used);
	}
}

/* The head is in: the handler starts now and reads the body itself (http_body.h). */
static void dispatch_streaming(rapier_http_conn_t *conn, const char *data, size_t len)
{
	rapier_http_parser_t *p = &conn->parser;

	if (rapier__http_body_start(conn, p->req.expect_continue) == NULL) {
		rapier__http_answer_error(conn, 503, "out of memory");
		return;
	}
	rapier_http_parser_set_body_sink(p, rapier__http_body_append, conn->body);
	/* The body's limit is checked by its reader (rapier_http_body_read()), which may change it first. */
	rapier_http_parser_set_max_body_size(p, SIZE_MAX);
	/* What came with the head is the body's start: in before any read of the handler's. */
	if (len > 0) {
		body_feed(conn, data, len);
	}
	rapier__http_dispatch(conn);
}

int rapier__http_body_pull(rapier_http_conn_t *conn)
{
	rapier_http_body_t *body = conn->body;
	ssize_t n;

	if (conn->h2s) {
		return rapier__h2_body_pull(conn);
	}
	if (body->continue_due) {
		/* The client waits for this before the body: it goes out when the handler wants the body, not before. */
		body->continue_due = false;
		/* Not into an interim answer (103) still going out: the client goes on after its own wait. */
		if (!conn->response_started && !conn->writing && !send_continue(conn)) {
			return -1;  /* closed: the body was ended by the close */
		}
	}
	n = rapier__http_conn_recv(conn, read_buffer, sizeof(read_buffer));
	if (n > 0) {
		body_feed(conn, read_buffer, (size_t) n);
		return 1;
	}
	if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
		return 0;
	}
	rapier__http_body_end(body, 499, "the client closed the connection before the body ended");
	/* As when the watch sees the client leave: the response is cut, and the handler's onAbort() callbacks run. */
	rapier__http_response_cut(conn, 499);
	return -1;
}

/*
 * The handler answered, keeping the connection, and left the rest of its
 * body unread: it is parsed and dropped, up to max_body_discard, and what
 * follows it is the next request. A rest that breaks the bound or the
 * framing (the answer is out already) ends the connection as an unread
 * body always did, lingering.
 */
static int discard_sink(void *data, const char *buf, size_t len)
{
	rapier_http_conn_t *conn = data;

	(void) buf;
	conn->discarded += len;
	return conn->discarded > conn->server->cfg.max_body_discard ? 413 : 0;
}

static void discard_feed(rapier_http_conn_t *conn, const char *data, size_t len)
{
	rapier_http_parser_t *p = &conn->parser;
	ssize_t used = rapier_http_parser_feed(p, data, len);

	if (used < 0 || p->state == RAPIER_HTTP_ERROR) {
		conn->discarding = false;
		conn->server->stats.unread_bodies_closed++;
		rapier__http_conn_linger(conn);
		return;
	}
	if (p->state != RAPIER_HTTP_MESSAGE_COMPLETE) {
		conn_set_timer(conn, rapier__http_body_wait_ns(&conn->server->cfg));
		return;
	}
	conn->discarding = false;
	conn->server->stats.unread_bodies_dropped++;
	keep_next_request(conn, data + used, len - (size_t) used);
	rapier__http_conn_next_request(conn);
}

void rapier__http_conn_discard_body(rapier_http_conn_t *conn)
{
	conn->discarding = true;
	conn->discarded = 0;
	rapier_http_parser_set_body_sink(&conn->parser, discard_sink, conn);
	conn_set_timer(conn, rapier__http_body_wait_ns(&conn->server->cfg));
	rapier_io_start(conn->server->loop, &conn->io, RAPIER_HTTP_CONN_READ);
	/* Not left to epoll: a TLS session may hold a record already read. */
	conn_read(conn);
}

static void conn_process(rapier_http_conn_t *conn, const char *data, size_t len)
{
	rapier_http_parser_t *p = &conn->parser;

	if (conn->body_timed) {
		/* Bytes of the body came: it may take body_timeout again for the next ones. */
		conn_set_timer(conn, conn->server->cfg.body_timeout_ns);
	}

	while (conn->state == RAPIER_HTTP_CONN_READING) {
		ssize_t used = rapier_http_parser_feed(p, data, len);

		if (used < 0 || p->state == RAPIER_HTTP_ERROR) {
			const char *reason = conn->upload && conn->upload->error ? conn->upload->error : p->error_reason;
			rapier__http_drop_upload(conn);
			rapier__http_answer_error(conn, p->error_status, reason);
			return;
		}
		data += used;
		len -= (size_t) used;
		if (p->state == RAPIER_HTTP_HEADERS_COMPLETE) {
			if (rapier__http_streams_body(conn)) {
				dispatch_streaming(conn, data, len);
				return;
			}
			if (p->req.expect_continue && !conn->response_started && !send_continue(conn)) {
				return;
			}
			if (rapier__http_spool_upload(conn)) {
				rapier_http_parser_set_body_sink(p, rapier_upload_feed, conn->upload);
			}
			if (conn->server->cfg.body_timeout_ns > 0) {
				/* A large upload is bounded by its progress, not by read_timeout. */
				conn->body_timed = true;
				conn_set_timer(conn, conn->server->cfg.body_timeout_ns);
			}
			continue;
		}
		if (p->state == RAPIER_HTTP_MESSAGE_COMPLETE) {
			conn->body_timed = false;
			if (conn->upload && rapier_upload_finish(conn->upload) != 0) {
				int status = conn->upload->status;
				const char *error = conn->upload->error;   /* static text */
				rapier__http_drop_upload(conn);
				rapier__http_answer_error(conn, status, error);
				return;
			}
			keep_next_request(conn, data, len);
			rapier__http_dispatch(conn);
			return;
		}
		/* NEED_MORE consumed everything. */
		return;
	}
}

/*
 * The bytes of the empty lines (CRLF pairs) that open DATA. A server SHOULD
 * ignore empty lines before a request line (RFC 9112 2.2), and some clients
 * send a CRLF after a body: they neither start a request nor end an idle
 * connection's idleness. A bare LF is not an empty line: the parser
 * refuses it, as anywhere in a head.
 */
static size_t empty_lines(const char *data, size_t len)
{
	size_t n = 0;

	while (n + 1 < len && data[n] == '\r' && data[n + 1] == '\n') {
		n += 2;
	}
	return n;
}

/*
 * The first bytes of a request arrived on an idle connection: the whole of
 * it must arrive within read_timeout, counted from now between keep-alive
 * requests, and from the accept for a connection's first request.
 */
static void conn_leave_idle(rapier_http_conn_t *conn)
{
	if (conn->kept_alive) {
		conn_start_request(conn);
		return;
	}
	/* The access log's duration still starts at the first byte; the deadline set at the accept stays. */
	conn->idle = false;
	conn->request_start_ns = rapier_now_ns();
}

/*
 * HTTP/2 with prior knowledge: a connection whose first bytes are the
 * client preface turns HTTP/2 (an HTTP/1.1 request cannot begin so). A
 * preface cut short is kept until the rest comes. Returns false when data
 * is HTTP/1.x for the parser; true when it was taken.
 */
static bool take_preface(rapier_http_conn_t *conn, const char *data, size_t len)
{
	size_t have = conn->rlen, total = have + len;
	char *joined = NULL;

	if (have == 0 && !rapier__h2_is_preface(data, len)) {
		return false;
	}
	if (have > 0) {
		/* The start of the preface came in an earlier read. */
		joined = emalloc(total);
		memcpy(joined, conn->rbuf, have);
		memcpy(joined + have, data, len);
		data = joined;
		conn->rlen = 0;
	}
	if (!rapier__h2_is_preface(data, total)) {
		/* What looked like the preface's start was HTTP/1.x after all ("P..."). */
		conn->protocol_known = true;
		conn_process(conn, data, total);
	} else if (total < RAPIER_H2_PREFACE_LEN) {
		keep_leftover(conn, data, total);
	} else {
		conn->protocol_known = true;
		rapier__h2_start(conn, data, total);
	}
	if (joined) {
		efree(joined);
	}
	return true;
}

static void conn_read(rapier_http_conn_t *conn)
{
	for (int i = 0; i < RAPIER_HTTP_READS_PER_EVENT && conn->state == RAPIER_HTTP_CONN_READING; i++) {
		ssize_t n = rapier__http_conn_recv(conn, read_buffer, sizeof(read_buffer));

		if (n > 0) {
			const char *data = read_buffer;
			size_t len = (size_t) n;

			if (conn->lingering || conn->wlen > conn->wpos) {
				continue; /* answered already: discard */
			}
			if (conn->discarding) {
				discard_feed(conn, data, len);
				if (rapier__http_conn_read_drained(conn, (size_t) n, sizeof(read_buffer))) {
					return;
				}
				continue;
			}
			if (conn->idle) {
				size_t skip = empty_lines(data, len);
				data += skip;
				len -= skip;
				if (len > 0) {
					conn_leave_idle(conn);
				}
			}
			if (len > 0 && !conn->protocol_known && conn->server->cfg.http2 && take_preface(conn, data, len)) {
				return;
			}
			conn->protocol_known = true;
			if (len > 0) {
				conn_process(conn, data, len);
			}
			if (rapier__http_conn_read_drained(conn, (size_t) n, sizeof(read_buffer))) {
				return;
			}
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			return;
		}
		/* End of stream or error. A request cut short gets no answer: nobody reads it. */
		rapier__http_conn_close(conn);
		return;
	}
}

/*
 * The client of a queued request closed its connection or shut down its
 * side of it: nobody will read the answer, so the handler never runs. As
 * nginx does for a request waiting on its upstream, a half-close counts as
 * leaving, and the access log says 499.
 */
void rapier__http_conn_abandon(rapier_http_conn_t *conn)
{
	conn->server->stats.abandoned++;
	rapier__http_log_access(conn, 499, 0);
	rapier__http_conn_close(conn); /* publishes the stats, the count above included */
}

/*
 * The TLS handshake, as far as the socket allows; the first request may
 * have come with the client's last handshake message. A client that sent
 * plain HTTP is told in the clear, as nginx does; any other failure (a
 * scanner, an alert, a client that left) just closes. Both count as failed
 * handshakes, and so does a client that connects and closes without
 * sending a byte: OpenSSL meets the end of the stream where the ClientHello
 * should be. A handshake cut short by read_timeout is not counted: that is
 * the timeout's close (conn_timeout), as for a plain connection.
 */
static void conn_tls_handshake(rapier_http_conn_t *conn)
{
	rapier_http_server_t *server = conn->server;
	rapier_loop_t *loop = server->loop;

	switch (rapier_http_tls_handshake(conn->tls)) {
		case RAPIER_HTTP_TLS_DONE:
			conn->tls_handshaking = false;
			if (rapier_http_tls_alpn_h2(conn->tls)) {
				conn->protocol_known = true;
				rapier__h2_start(conn, NULL, 0);
				return;
			}
			rapier_io_start(loop, &conn->io, RAPIER_HTTP_CONN_READ);
			conn_read(conn);
			return;
		case RAPIER_HTTP_TLS_WANT_READ:
			rapier_io_start(loop, &conn->io, RAPIER_HTTP_CONN_READ);
			return;
		case RAPIER_HTTP_TLS_WANT_WRITE:
			rapier_io_start(loop, &conn->io, RAPIER_HTTP_CONN_READ | RAPIER_IO_WRITE);
			return;
		case RAPIER_HTTP_TLS_PLAIN_HTTP:
			server->stats.tls_handshake_failures++;
			rapier__http_stats_changed(server);
			conn_end_tls(conn, false);
			conn->tls_handshaking = false;
			rapier__http_answer_error(conn, 400, "this port speaks HTTPS; the request came as plain HTTP");
			return;
		case RAPIER_HTTP_TLS_FAILED:
			server->stats.tls_handshake_failures++;
			rapier__http_conn_close(conn); /* publishes the stats, the count above included */
			return;
	}
}

static void conn_handle_io(rapier_http_conn_t *conn, uint32_t events)
{
	/* Before TLS and HTTP: the balancer's header, then whatever came behind it. */
	if (conn->proxy_pending && !rapier__http_proxy_read(conn)) {
		return;
	}
	if (conn->tls_handshaking) {
		conn_tls_handshake(conn);
		return;
	}
	if (conn->state == RAPIER_HTTP_CONN_WEBSOCKET) {
		rapier__ws_on_io(conn, events);
		return;
	}
	if (conn->state == RAPIER_HTTP_CONN_HTTP2) {
		rapier__h2_on_io(conn, events);
		return;
	}
	if (conn->state == RAPIER_HTTP_CONN_QUEUED) {
		if (events & (EPOLLRDHUP | EPOLLERR | EPOLLHUP)) {
			rapier__http_conn_abandon(conn);
		} else {
			/* Pipelined bytes: they wait in the kernel; watch for the client leaving only. */
			conn->unread_waits = true;
			rapier_io_start(conn->server->loop, &conn->io, EPOLLRDHUP);
		}
		return;
	}
	if (conn->state == RAPIER_HTTP_CONN_HANDLING && !conn->answered_by_loop) {
		rapier__http_handling_io(conn, events);
		return;
	}
	if ((events & (EPOLLOUT | EPOLLERR | EPOLLHUP)) && conn->writer) {
		rapier_coro_t *writer = conn->writer;
		conn->writer = NULL;
		rapier_coro_wake(writer, RAPIER_WAKE_OK);
		return;
	}
	if ((events & (EPOLLOUT | EPOLLERR | EPOLLHUP)) && (conn->wlen > conn->wpos || conn->file_fd >= 0)) {
		/* The loop's own answer goes on; an error or hang-up fails the send, which closes. */
		rapier__http_answer_flush(conn);
		return;
	}
	if (events & (EPOLLIN | EPOLLERR | EPOLLHUP)) {
		conn_read(conn);
	}
}

static void conn_on_io(rapier_io_t *io, uint32_t events)
{
	rapier_http_conn_t *conn = io->data;

	rapier_http_conn_addref(conn);
	conn_handle_io(conn, events);
	rapier_http_conn_release(conn);
}

static void conn_timeout(rapier_http_conn_t *conn)
{
	if (conn->state == RAPIER_HTTP_CONN_HTTP2) {
		rapier__h2_timeout(conn);
		return;
	}
	if (conn->state == RAPIER_HTTP_CONN_WEBSOCKET) {
		/* Our close frame went out websocket_close_timeout ago and no answer came. */
		rapier__http_conn_close(conn);
		return;
	}
	if (conn->answered_by_loop) {
		/* The loop's answer armed write_timeout: the client stopped reading it. */
		rapier__http_conn_close(conn);
		return;
	}
	if (conn->state != RAPIER_HTTP_CONN_READING) {
		return;
	}
	if (conn->idle || conn->lingering || conn->discarding || conn->wlen > conn->wpos) {
		/* Idle keep-alive, an answer the client does not read, or a dropped body's rest that stalled: just close. */
		rapier__http_conn_close(conn);
		return;
	}
	/* Part of a request arrived, the rest did not in time (slowloris). */
	rapier__http_answer_error(conn, 408, "the request did not arrive in time");
}

static void on_conn_timer(rapier_timer_t *timer)
{
	rapier_http_conn_t *conn = timer->data;

	if (!conn_timer_due(conn)) {
		return;
	}
	rapier_http_conn_addref(conn);
	conn_timeout(conn);
	rapier_http_conn_release(conn);
}

/* Responses from the handler's coroutine */

const rapier_http_request_t *rapier_http_conn_request(const rapier_http_conn_t *conn)
{
	return rapier_http_parser_request(&conn->parser);
}

/* The next request */

static void next_request_once(rapier_http_conn_t *conn)
{
	rapier_http_server_t *server = conn->server;

	/* An HTTP/2 stream ends when its last frame has gone out (http2.c), not here. */
	if (conn->state == RAPIER_HTTP_CONN_CLOSED || conn->h2s) {
		return;
	}
	if (!conn->response_keep_alive || server->draining) {
		rapier__http_conn_close(conn);
		return;
	}
	rapier__http_drop_upload(conn);
	conn->state = RAPIER_HTTP_CONN_READING;
	conn->response_started = false;
	conn->kept_alive = true;
	if (conn->rlen > 0) {
		size_t skip = empty_lines(conn->rbuf, conn->rlen);
		size_t len = conn->rlen - skip;

		conn->rlen = 0;
		if (len > 0) {
			/* A pipelined request is already here. */
			conn_start_request(conn);
			conn_process(conn, conn->rbuf + skip, len);
			if (conn->state == RAPIER_HTTP_CONN_READING) {
				rapier_io_start(server->loop, &conn->io, RAPIER_HTTP_CONN_READ);
			}
			return;
		}
	}
	if (conn->rbuf) {
		efree(conn->rbuf);
		conn->rbuf = NULL;
	}
	conn->idle = true;
	rapier_io_start(server->loop, &conn->io, RAPIER_HTTP_CONN_READ);
	conn_set_timer(conn, server->cfg.keepalive_timeout_ns);
}

/*
 * A response has ended: read or process the connection's next request.
 * Answering a pipelined request for static files ends it at once, which
 * comes back here; that nested call only flags the work and this loop does
 * it, so a read of a thousand pipelined requests does not nest a thousand
 * calls deep.
 */
void rapier__http_conn_next_request(rapier_http_conn_t *conn)
{
	if (conn->in_next_request) {
		conn->next_request_pending = true;
		return;
	}
	conn->in_next_request = true;
	do {
		conn->next_request_pending = false;
		next_request_once(conn);
	} while (conn->next_request_pending && conn->state != RAPIER_HTTP_CONN_CLOSED);
	conn->in_next_request = false;
}

/* Stopping */

/* What is left of a new connection's time for its first request once the server drains. */
static int64_t first_request_grace(rapier_http_server_t *server, rapier_http_conn_t *conn)
{
	int64_t left = (int64_t) (conn->request_start_ns - rapier_now_ns()) + server->cfg.read_timeout_ns;

	if (left > RAPIER_HTTP_DRAIN_FIRST_REQUEST_NS) {
		return RAPIER_HTTP_DRAIN_FIRST_REQUEST_NS;
	}
	/* conn_set_timer() takes 0 as "no timer": one nanosecond closes it at the next loop turn. */
	return left > 0 ? left : 1;
}

void rapier_http_server_drain(rapier_http_server_t *server, rapier_http_drained_fn on_drained, void *data)
{
	rapier_http_conn_t *conn, *next;

	server->draining = true;
	server->on_drained = on_drained;
	server->drained_data = data;
	for (int i = 0; i < RAPIER_HTTP_LISTENERS && server->started; i++) {
		/*
		 * Closing a SO_REUSEPORT listener resets the connections still in its
		 * backlog (unless net.ipv4.tcp_migrate_req hands them to another
		 * listener of the port): accept them first, and serve them. Not
		 * before start: the application is not ready to. A shared
		 * listener's connections stay for the other processes.
		 */
		if (server->listeners[i].fd >= 0 && !server->listeners[i].shared) {
			accept_some(&server->listeners[i], INT_MAX);
		}
	}
	rapier__http_listeners_pause(server, true);
	rapier__http_listeners_close(server);
	for (conn = rapier_http_conn_of(server->conns.head); conn; conn = next) {
		next = rapier_http_conn_of(conn->link.next);
		/*
		 * Idle between keep-alive requests, or answered and only lingering or
		 * dropping a body's rest: nothing left to finish. A new connection whose first
		 * request has not arrived yet is not idle: its client connected to
		 * send one, and gets it answered (with Connection: close).
		 */
		if (conn->state == RAPIER_HTTP_CONN_READING && ((conn->idle && conn->kept_alive) || conn->lingering
				|| conn->discarding)) {
			rapier__http_conn_close(conn);
		} else if (conn->state == RAPIER_HTTP_CONN_WEBSOCKET) {
			rapier__ws_going_away(conn);
		} else if (conn->state == RAPIER_HTTP_CONN_HTTP2) {
			rapier__h2_going_away(conn);
		} else if (conn->state == RAPIER_HTTP_CONN_READING && conn->idle) {
			conn_set_timer(conn, first_request_grace(server, conn));
		}
	}
	rapier__http_check_drained(server);
}

void rapier_http_server_abort(rapier_http_server_t *server)
{
	server->draining = true;
	rapier__http_listeners_pause(server, true);
	while (!rapier_list_is_empty(&server->conns)) {
		rapier__http_conn_close(rapier_http_conn_of(server->conns.head));
	}
	/* Closing took every queued request off the queue. */
	rapier_timer_stop(server->loop, &server->queue_timer);
}

#define FAIL_REASON "the worker failed and is being replaced"

static const char fail_body[] = "500 Internal Server Error: " FAIL_REASON "\n";

static void fail_stream(rapier_http_conn_t *stream)
{
	rapier__http_answer_error(stream, 500, FAIL_REASON);
}

/*
 * The process is going down with a fatal error (memory_limit, a timeout,
 * a fatal in a handler): nothing will run again, so the loop cannot write.
 * Each request still being handled gets a last 500 with a plain blocking
 * send (small enough for any socket buffer), an HTTP/2 connection its
 * streams' 500s and a GOAWAY in one send, and every connection closes, so
 * clients see an answer or a close, never a hang.
 */
void rapier_http_server_fail(rapier_http_server_t *server)
{
	rapier_list_node_t *node, *next;
	char head[256];

	for (node = server->conns.head; node != NULL; node = next) {
		rapier_http_conn_t *conn = rapier_http_conn_of(node);

		/* A failed send closes the connection, and takes it off the list. */
		next = node->next;
		if (conn->state == RAPIER_HTTP_CONN_HTTP2) {
			rapier__h2_fail(conn, fail_stream);
		} else if (conn->state == RAPIER_HTTP_CONN_HANDLING && !conn->response_started) {
			int len = snprintf(head, sizeof(head),
				"HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain; charset=utf-8\r\n"
				"Content-Length: %zu\r\nConnection: close\r\n\r\n", sizeof(fail_body) - 1);
			struct iovec iov[2] = { { head, (size_t) len }, { (void *) fail_body, sizeof(fail_body) - 1 } };

			conn->response_started = true;
			rapier__http_log_access(conn, 500, sizeof(fail_body) - 1);
			(void) !rapier__http_conn_sendv(conn, iov, 2);
		}
	}
	rapier_http_server_abort(server);
}

void rapier_http_server_free(rapier_http_server_t *server)
{
	rapier_http_server_abort(server);
	rapier_ws_deflate_release();
	rapier__http_listeners_close(server);
	rapier_encoder_pool_free(&server->encoders);
	rapier_file_cache_free(&server->file_cache);
	rapier_http_buf_free(&server->scratch);
}

rapier_http_tls_t *rapier_http_conn_tls(const rapier_http_conn_t *conn)
{
	return conn->h2s ? rapier__h2_stream_tls(conn) : conn->tls;
}

const char *rapier_http_conn_peer(const rapier_http_conn_t *conn, int *port)
{
	*port = conn->client_named ? conn->client_port : conn->peer_port;
	return conn->client_named ? conn->client_text : conn->peer_text;
}
