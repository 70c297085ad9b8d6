/*
 * HTTP/2 connections: the nghttp2 session of each, its output, and the
 * life of its streams (see http2.h). The request as it arrives is
 * http2_request.c's; the response frames, http2_response.c's.
 *
 * Reading happens in the loop, as for HTTP/1.1: bytes go to
 * nghttp2_session_mem_recv(), whose callbacks gather each stream's request
 * into the stream's own connection object; a whole request is dispatched
 * once mem_recv() has returned, never from inside nghttp2. Writing is
 * pulled: nghttp2_session_mem_send() serializes what is due, frames are
 * gathered into one buffer per connection and sent with one call, and
 * what the socket does not take waits for it to drain.
 */
#include "php_rapier.h"

#include <errno.h>
#include <unistd.h>

#include "http2_internal.h"
#include "http_slowlog.h"

/* Frames gathered before one send: a few DATA frames of the default 16 KiB. */
#define H2_SEND_CHUNK (64 * 1024)

/* A stream's receive window: an upload of a few MB goes at loopback speed without a WINDOW_UPDATE per 64 KiB. */
#define H2_STREAM_WINDOW (1 << 20)
#define H2_CONN_WINDOW (16 << 20)

/* Reads per connection event, as for HTTP/1.1 connections. */
#define H2_READS_PER_EVENT 4

static char read_buffer[64 * 1024];

static void h2_flush_now(rapier_h2_session_t *h2);

bool rapier__h2_is_preface(const char *data, size_t len)
{
	return len > 0 && memcmp(data, RAPIER_H2_PREFACE, len < RAPIER_H2_PREFACE_LEN ? len : RAPIER_H2_PREFACE_LEN) == 0;
}

/* Output */

/*
 * Outside PHP's memory_limit, as the other transport buffers are: the last
 * answers of a worker that ran out of memory still need it.
 */
static bool out_append(rapier_h2_session_t *h2, const uint8_t *data, size_t len)
{
	if (h2->out_len + len > h2->out_cap) {
		size_t cap = h2->out_len + len > H2_SEND_CHUNK ? h2->out_len + len : H2_SEND_CHUNK;
		char *out = realloc(h2->out, cap);

		if (out == NULL) {
			return false;
		}
		h2->out = out;
		h2->out_cap = cap;
	}
	memcpy(h2->out + h2->out_len, data, len);
	h2->out_len += len;
	return true;
}

/*
 * The deadline of the connection itself: write_timeout while frames wait
 * for the socket, keepalive_timeout while no stream is open, none while
 * requests are being answered (each has its own clock).
 */
static void arm_timer(rapier_h2_session_t *h2)
{
	rapier_http_conn_t *conn = h2->conn;
	const rapier_http_config_t *cfg = &conn->server->cfg;

	if (h2->out_pos < h2->out_len) {
		rapier__http_conn_set_timer(conn, cfg->write_timeout_ns);
	} else if (rapier_list_is_empty(&h2->streams)) {
		rapier__http_conn_set_timer(conn, cfg->keepalive_timeout_ns);
	} else {
		rapier__http_conn_set_timer(conn, 0);
	}
}

/* Sends what is gathered; false when the socket is full (the rest waits) or the connection closed. */
static bool send_out(rapier_h2_session_t *h2)
{
	rapier_http_conn_t *conn = h2->conn;

	while (h2->out_pos < h2->out_len) {
		ssize_t n = rapier__http_conn_send(conn, h2->out + h2->out_pos, h2->out_len - h2->out_pos);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n < 0 && errno == EAGAIN) {
			rapier_io_start(conn->server->loop, &conn->io, RAPIER_IO_READ | RAPIER_IO_WRITE);
			return false;
		}
		if (n < 0) {
			rapier__http_conn_close(conn);
			return false;
		}
		h2->out_pos += (size_t) n;
	}
	h2->out_len = h2->out_pos = 0;
	return true;
}

/*
 * Serializes and sends what nghttp2 has due, until it has nothing more or
 * the socket is full; closes the connection once the session wants
 * neither to read nor to write (after GOAWAY, or a fatal error).
 */
static void h2_flush_now(rapier_h2_session_t *h2)
{
	rapier_http_conn_t *conn = h2->conn;

	/* Frames still waiting for the socket go first: EPOLLOUT comes back here. */
	if (h2->flushing || h2->held || h2->out_pos < h2->out_len) {
		return;
	}
	h2->flushing = true;
	rapier_http_conn_addref(conn);
	for (;;) {
		const uint8_t *data;
		ssize_t n;

		while ((n = nghttp2_session_mem_send(h2->ng, &data)) > 0) {
			if (!out_append(h2, data, (size_t) n)) {
				n = -1;
				break;
			}
			if (h2->out_len >= H2_SEND_CHUNK) {
				break;
			}
		}
		if (n < 0) {
			rapier__http_conn_close(conn);
			break;
		}
		if (h2->out_len == 0) {
			rapier_io_start(conn->server->loop, &conn->io, RAPIER_IO_READ);
			if (!nghttp2_session_want_read(h2->ng) && !nghttp2_session_want_write(h2->ng)) {
				rapier__http_conn_close(conn);
			}
			break;
		}
		if (!send_out(h2)) {
			break;
		}
	}
	/* A close has freed the session. */
	if (conn->state != RAPIER_HTTP_CONN_CLOSED) {
		arm_timer(h2);
		h2->flushing = false;
	}
	rapier_http_conn_release(conn);
}

static void on_flush_later(rapier_defer_t *defer)
{
	h2_flush_now(defer->data);
}

/*
 * The usual flush, once the ready coroutines have run: the responses that
 * handlers end in one pass (ten streams of a connection answered at once,
 * say) leave in one send, not one each, along with the acknowledgements
 * and window updates of the read that started them.
 */
void rapier__h2_flush(rapier_h2_session_t *h2)
{
	rapier_defer_start(h2->conn->server->loop, &h2->flush_later);
}

/* Streams */

static void on_stream_timer(rapier_timer_t *timer);

static rapier_http_conn_t *stream_new(rapier_h2_session_t *h2, int32_t id)
{
	rapier_http_conn_t *parent = h2->conn;
	rapier_http_conn_t *conn = ecalloc(1, sizeof(*conn));
	rapier_h2_stream_t *s = ecalloc(1, sizeof(*s));

	conn->server = parent->server;
	conn->fd = -1;
	conn->refcount = 1;            /* the session's, while nghttp2 has the stream */
	conn->state = RAPIER_HTTP_CONN_READING;
	conn->request_start_ns = rapier_now_ns();
	conn->file_fd = -1;
	conn->peer = parent->peer;
	conn->peer_len = parent->peer_len;
	memcpy(conn->peer_text, parent->peer_text, sizeof(conn->peer_text));
	conn->peer_port = parent->peer_port;
	conn->local_port = parent->local_port;
	conn->via_plain_listener = parent->via_plain_listener;
	conn->proxy_https = parent->proxy_https;
	if ((conn->proxy_vars = parent->proxy_vars) != NULL) {
		GC_ADDREF(conn->proxy_vars);
	}
	conn->h2s = s;
	rapier_timer_init(&conn->timer, on_stream_timer, conn);
	rapier_http_slowlog_init(conn);

	s->conn = conn;
	s->parent = parent;
	rapier_http_conn_addref(parent);
	s->id = id;
	s->open = true;
	s->file_fd = -1;
	rapier_http_buf_init(&s->arena, NULL, 0, (size_t) 4 << 20);
	rapier_http_buf_init(&s->body, NULL, 0, SIZE_MAX);
	rapier_http_buf_init(&s->own, NULL, 0, SIZE_MAX);
	rapier_http_buf_init(&s->trailers, NULL, 0, SIZE_MAX);
	/* What the access log and an early error answer read before the request line is known. */
	conn->parser.req.method = HTTP_GET;
	conn->parser.req.method_name = "GET";
	conn->parser.req.target = "";
	conn->parser.req.path = "";
	conn->parser.req.version_major = 2;
	conn->parser.req.keep_alive = 1;
	conn->parser.req.content_length = -1;

	rapier_list_push(&h2->streams, &conn->link);
	h2->live++;
	nghttp2_session_set_stream_user_data(h2->ng, id, conn);
	/* The whole request must arrive within read_timeout, as on HTTP/1.1. */
	if (conn->server->cfg.read_timeout_ns > 0) {
		rapier_timer_start(conn->server->loop, &conn->timer, (uint64_t) conn->server->cfg.read_timeout_ns, 0);
	}
	return conn;
}

struct rapier_http_tls_s *rapier__h2_stream_tls(const rapier_http_conn_t *conn)
{
	return conn->h2s->parent->tls;
}

void rapier__h2_stream_free(rapier_http_conn_t *conn)
{
	rapier_h2_stream_t *s = conn->h2s;
	rapier_h2_session_t *h2 = s->parent->h2;

	if (s->file_fd >= 0 && s->file_owned) {
		close(s->file_fd);
	}
	rapier_http_buf_free(&s->arena);
	rapier_http_buf_free(&s->body);
	rapier_http_buf_free(&s->own);
	rapier_http_buf_free(&s->trailers);
	if (s->fields) {
		efree(s->fields);
	}
	if (s->headers) {
		efree(s->headers);
	}
	if (h2) {
		h2->live--;
	}
	rapier_http_conn_release(s->parent);
	efree(s);
	conn->h2s = NULL;
}

void rapier__h2_stream_closed(rapier_http_conn_t *conn)
{
	rapier_h2_stream_t *s = conn->h2s;
	rapier_h2_session_t *h2 = s->parent->h2;

	s->out = NULL;
	s->out_len = 0;
	if (s->file_fd >= 0 && s->file_owned) {
		close(s->file_fd);
	}
	s->file_fd = -1;
	s->file_left = 0;
	if (!s->open) {
		return;
	}
	s->open = false;
	rapier_list_remove(&h2->streams, &conn->link);
	nghttp2_session_set_stream_user_data(h2->ng, s->id, NULL);
	/* Closed from our side: a response that cannot be completed, or the connection ending. */
	nghttp2_submit_rst_stream(h2->ng, NGHTTP2_FLAG_NONE, s->id, NGHTTP2_INTERNAL_ERROR);
	rapier__h2_flush(h2);
}

static void stream_timeout(rapier_http_conn_t *conn)
{
	rapier_h2_stream_t *s = conn->h2s;

	if (conn->state != RAPIER_HTTP_CONN_READING || s->request_done || conn->response_started) {
		return;
	}
	/* Part of a request arrived, the rest did not in time. */
	rapier__h2_refuse(conn, 408, "the request did not arrive in time");
}

static void on_stream_timer(rapier_timer_t *timer)
{
	rapier_http_conn_t *conn = timer->data;

	rapier_http_conn_addref(conn);
	stream_timeout(conn);
	rapier_http_conn_release(conn);
}

/* nghttp2's callbacks for the streams' lives */

static int on_begin_headers(nghttp2_session *ng, const nghttp2_frame *frame, void *user_data)
{
	rapier_h2_session_t *h2 = user_data;
	uint32_t cap = h2->conn->server->cfg.http2_max_streams;

	if (frame->hd.type != NGHTTP2_HEADERS || frame->headers.cat != NGHTTP2_HCAT_REQUEST) {
		return 0;
	}
	/*
	 * Handlers go on after their stream is reset, so a client resetting
	 * each request at once could start them without end; past twice the
	 * streams it may have open, a new one is refused until some finish.
	 */
	if (h2->live >= 2 * cap) {
		nghttp2_submit_rst_stream(ng, NGHTTP2_FLAG_NONE, frame->hd.stream_id, NGHTTP2_REFUSED_STREAM);
		return 0;
	}
	stream_new(h2, frame->hd.stream_id);
	return 0;
}

static int on_frame_send(nghttp2_session *ng, const nghttp2_frame *frame, void *user_data)
{
	rapier_http_conn_t *conn;

	if ((frame->hd.type != NGHTTP2_HEADERS && frame->hd.type != NGHTTP2_DATA)
			|| !(frame->hd.flags & NGHTTP2_FLAG_END_STREAM)
			|| (conn = rapier__h2_stream_conn(ng, frame->hd.stream_id)) == NULL) {
		return 0;
	}
	conn->h2s->end_sent = true;
	/*
	 * Answered before the request was whole (413, 408...): the client may
	 * stop sending it (RFC 9113 8.1). A handler reading its body as it
	 * arrives may go on reading after its response: it is told when the
	 * handler returns (rapier__h2_body_detached()).
	 */
	if (conn->h2s->request_done || conn->body != NULL) {
		return 0;
	}
	if (conn->h2s->rest_unread) {
		rapier__h2_settle_rest(conn);
	} else if (rapier__h2_rest_refused(conn)) {
		nghttp2_submit_rst_stream(ng, NGHTTP2_FLAG_NONE, frame->hd.stream_id, NGHTTP2_NO_ERROR);
	}
	return 0;
}

/*
 * A stream ended by its client (a reset, or the connection closing), or
 * after its response: as a closed HTTP/1.1 connection, a queued request is
 * dropped and a response not ended is cut (499 in the access log when no
 * head went out).
 */
static void stream_left(rapier_http_conn_t *conn)
{
	if (conn->state == RAPIER_HTTP_CONN_QUEUED) {
		rapier__http_conn_abandon(conn);
	} else {
		rapier__http_response_cut(conn, 499);
	}
}

static int on_stream_close(nghttp2_session *ng, int32_t id, uint32_t error_code, void *user_data)
{
	rapier_h2_session_t *h2 = user_data;
	rapier_http_conn_t *conn = rapier__h2_stream_conn(ng, id);
	rapier_h2_stream_t *s;

	if (conn == NULL) {
		return 0;
	}
	s = conn->h2s;
	s->open = false;
	rapier_list_remove(&h2->streams, &conn->link);
	nghttp2_session_set_stream_user_data(ng, id, NULL);
	stream_left(conn);
	return 0;
}

/* The session */

static nghttp2_session_callbacks *callbacks_new(void)
{
	nghttp2_session_callbacks *cb;

	if (nghttp2_session_callbacks_new(&cb) != 0) {
		return NULL;
	}
	nghttp2_session_callbacks_set_on_begin_headers_callback(cb, on_begin_headers);
	nghttp2_session_callbacks_set_on_header_callback(cb, rapier__h2_on_header);
	nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, rapier__h2_on_data_chunk);
	nghttp2_session_callbacks_set_on_frame_recv_callback(cb, rapier__h2_on_frame_recv);
	nghttp2_session_callbacks_set_on_frame_send_callback(cb, on_frame_send);
	nghttp2_session_callbacks_set_on_stream_close_callback(cb, on_stream_close);
	return cb;
}

static bool session_new(rapier_h2_session_t *h2)
{
	const rapier_http_config_t *cfg = &h2->conn->server->cfg;
	nghttp2_session_callbacks *cb = callbacks_new();
	nghttp2_option *opt = NULL;
	nghttp2_settings_entry settings[] = {
		{ NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, cfg->http2_max_streams },
		{ NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, H2_STREAM_WINDOW },
		{ NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE, (uint32_t) cfg->limits.max_header_size },
		{ NGHTTP2_SETTINGS_ENABLE_PUSH, 0 },
	};
	int rc = -1;

	if (cb == NULL || nghttp2_option_new(&opt) != 0) {
		goto out;
	}
	/* The windows open by what was read (on_data_chunk()), so a body read while it arrives holds back its sender. */
	nghttp2_option_set_no_auto_window_update(opt, 1);
	/* A response head may be as large as the binding allows one (1 MiB), not nghttp2's 64 KiB. */
	nghttp2_option_set_max_send_header_block_length(opt, RAPIER_HTTP_BUF_DEFAULT_MAX + 4096);
	if (nghttp2_session_server_new2(&h2->ng, cb, h2, opt) != 0) {
		h2->ng = NULL;
		goto out;
	}
	rc = nghttp2_submit_settings(h2->ng, NGHTTP2_FLAG_NONE, settings, sizeof(settings) / sizeof(settings[0]));
	if (rc == 0) {
		rc = nghttp2_session_set_local_window_size(h2->ng, NGHTTP2_FLAG_NONE, 0, H2_CONN_WINDOW);
	}
out:
	if (opt) {
		nghttp2_option_del(opt);
	}
	if (cb) {
		nghttp2_session_callbacks_del(cb);
	}
	return rc == 0;
}

/*
 * Bytes from the client to nghttp2; the requests they complete are
 * dispatched after. False when the connection closed: on a protocol error
 * or a flood it sends the GOAWAY nghttp2 says why with, then closes.
 */
static bool feed(rapier_h2_session_t *h2, const char *data, size_t len)
{
	rapier_http_conn_t *conn = h2->conn;
	ssize_t used;

	h2->held = true;
	used = nghttp2_session_mem_recv(h2->ng, (const uint8_t *) data, len);
	h2->held = false;
	if (used < 0) {
		/* Not HTTP/2 after all: nothing to tell it. */
		if (used != NGHTTP2_ERR_BAD_CLIENT_MAGIC) {
			nghttp2_session_terminate_session(h2->ng,
				used == NGHTTP2_ERR_FLOODED ? NGHTTP2_ENHANCE_YOUR_CALM : NGHTTP2_PROTOCOL_ERROR);
			h2_flush_now(h2);
		}
		rapier__http_conn_close(conn);
		return false;
	}
	rapier__h2_dispatch_ready(h2);
	return conn->state != RAPIER_HTTP_CONN_CLOSED;
}

static void h2_read(rapier_h2_session_t *h2)
{
	rapier_http_conn_t *conn = h2->conn;

	for (int i = 0; i < H2_READS_PER_EVENT; i++) {
		ssize_t n = rapier__http_conn_recv(conn, read_buffer, sizeof(read_buffer));

		if (n > 0) {
			if (!feed(h2, read_buffer, (size_t) n)) {
				return;
			}
			if (rapier__http_conn_read_drained(conn, (size_t) n, sizeof(read_buffer))) {
				break;
			}
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			break;
		}
		/* The client closed, or the connection failed: its streams end with it. */
		rapier__http_conn_close(conn);
		return;
	}
	rapier__h2_flush(h2);
}

void rapier__h2_start(rapier_http_conn_t *conn, const char *data, size_t len)
{
	rapier_h2_session_t *h2 = ecalloc(1, sizeof(*h2));

	h2->conn = conn;
	rapier_defer_init(&h2->flush_later, on_flush_later, h2);
	conn->h2 = h2;
	conn->state = RAPIER_HTTP_CONN_HTTP2;
	conn->idle = false;
	if (!session_new(h2)) {
		rapier__http_conn_close(conn);
		return;
	}
	/* Its streams are the I/O of work in progress, not intake (loop.h). */
	rapier_io_set_normal_priority(&conn->io);
	rapier_io_start(conn->server->loop, &conn->io, RAPIER_IO_READ);
	rapier_http_conn_addref(conn);
	if (len == 0 || feed(h2, data, len)) {
		h2_read(h2);
	}
	rapier_http_conn_release(conn);
}

void rapier__h2_on_io(rapier_http_conn_t *conn, uint32_t events)
{
	rapier_h2_session_t *h2 = conn->h2;

	if ((events & (EPOLLOUT | EPOLLERR | EPOLLHUP)) && h2->out_pos < h2->out_len) {
		if (send_out(h2)) {
			h2_flush_now(h2);
		}
	}
	if (conn->state != RAPIER_HTTP_CONN_CLOSED && (events & (EPOLLIN | EPOLLERR | EPOLLHUP))) {
		h2_read(h2);
	}
}

void rapier__h2_timeout(rapier_http_conn_t *conn)
{
	rapier_h2_session_t *h2 = conn->h2;

	if (h2->out_pos < h2->out_len || !rapier_list_is_empty(&h2->streams)) {
		/* The client took no byte for write_timeout; or a request's own clock governs. */
		if (h2->out_pos < h2->out_len) {
			rapier__http_conn_close(conn);
		}
		return;
	}
	/* Idle for keepalive_timeout: say so, then close. */
	nghttp2_session_terminate_session(h2->ng, NGHTTP2_NO_ERROR);
	h2_flush_now(h2);
	rapier__http_conn_close(conn);
}

void rapier__h2_going_away(rapier_http_conn_t *conn)
{
	rapier_h2_session_t *h2 = conn->h2;

	if (h2->going_away) {
		return;
	}
	h2->going_away = true;
	/* Streams the client opened after the last one we saw are refused; it may send them again elsewhere. */
	nghttp2_submit_goaway(h2->ng, NGHTTP2_FLAG_NONE, nghttp2_session_get_last_proc_stream_id(h2->ng),
		NGHTTP2_NO_ERROR, NULL, 0);
	rapier__h2_flush(h2);
}

/*
 * The worker is failing (a fatal error): each stream whose handler had not
 * begun its answer gets one from answer(), the connection a GOAWAY, and all
 * of it goes out in one flush, as far as the socket takes it now.
 */
void rapier__h2_fail(rapier_http_conn_t *conn, void (*answer)(rapier_http_conn_t *stream))
{
	rapier_h2_session_t *h2 = conn->h2;
	rapier_list_node_t *node, *next;

	h2->held = true;
	for (node = h2->streams.head; node != NULL; node = next) {
		rapier_http_conn_t *stream = rapier_http_conn_of(node);

		/* Answering may end the stream, and take it off the list. */
		next = node->next;
		if (stream->state == RAPIER_HTTP_CONN_HANDLING && !stream->response_started) {
			answer(stream);
		}
	}
	h2->going_away = true;
	nghttp2_submit_goaway(h2->ng, NGHTTP2_FLAG_NONE, nghttp2_session_get_last_proc_stream_id(h2->ng),
		NGHTTP2_INTERNAL_ERROR, NULL, 0);
	h2->held = false;
	h2_flush_now(h2);
}

void rapier__h2_conn_closed(rapier_http_conn_t *conn)
{
	rapier_h2_session_t *h2 = conn->h2;
	rapier_list_node_t *node;

	while ((node = rapier_list_shift(&h2->streams)) != NULL) {
		rapier_http_conn_t *stream = rapier_http_conn_of(node);
		/* The connection is gone: nothing to reset. */
		stream->h2s->open = false;
		nghttp2_session_set_stream_user_data(h2->ng, stream->h2s->id, NULL);
		stream_left(stream);
	}
	for (size_t i = 0; i < h2->ready_len; i++) {
		rapier_http_conn_release(h2->ready[i]);
	}
	if (h2->ready) {
		efree(h2->ready);
	}
	free(h2->out);
	/* Last: closing the streams above may have asked for a flush. */
	rapier_defer_stop(conn->server->loop, &h2->flush_later);
	nghttp2_session_del(h2->ng);
	efree(h2);
	conn->h2 = NULL;
}

