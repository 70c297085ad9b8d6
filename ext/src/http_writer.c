/*
 * Writing responses from the handler's coroutine: the head built by the
 * binding, bodies whole or chunked, compressed (zstd, br, gzip), and files with sendfile().
 *
 * Everything goes out with sendmsg(MSG_NOSIGNAL), so a vanished client is
 * an error, not SIGPIPE. When the socket is full the coroutine waits for it
 * to drain, bounded by write_timeout; outside a coroutine the wait is a
 * poll(). A failed write closes the connection: the rest of a response that
 * cannot be delivered whole must not be taken for complete.
 *
 * One coroutine writes to a connection at a time. A response may be written
 * by several (a handler and the coroutines it starts, say a stream and its
 * heartbeat); one that waits for the client holds the connection until its
 * bytes are all out, and the others queue behind it in arrival order, so a
 * chunk never lands in the middle of another.
 */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include "php_rapier.h"

#include <errno.h>
#include <poll.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <time.h>

#include "http2.h"
#include "http_server.h"
#include "http_server_internal.h"
#include "http_body.h"
#include "http_websocket.h"

static void unlink_writer(rapier_coro_t *co, void *data)
{
	rapier_http_conn_t *conn = data;

	if (conn->writer == co) {
		conn->writer = NULL;
	}
	if (conn->state == RAPIER_HTTP_CONN_WEBSOCKET) {
		rapier__ws_watch(conn);
	} else if (conn->body || rapier__http_conn_watched(conn)) {
		rapier__http_conn_watch(conn);
	} else if (conn->state != RAPIER_HTTP_CONN_CLOSED) {
		rapier_io_stop(conn->server->loop, &conn->io);
	}
}

/* Waits for the socket to accept more bytes. 0, or -errno. */
static int wait_writable(rapier_http_conn_t *conn)
{
	rapier_wake_t why;

	if (!rapier_coro_can_yield()) {
		struct pollfd pfd = { .fd = conn->fd, .events = POLLOUT };
		int ms = (int) (conn->server->cfg.write_timeout_ns / 1000000);
		return poll(&pfd, 1, ms) > 0 ? 0 : -ETIMEDOUT;
	}
	conn->writer = rapier_coro_current();
	if (conn->state == RAPIER_HTTP_CONN_WEBSOCKET) {
		/* A coroutine may be waiting to read meanwhile: the watcher serves both. */
		rapier__ws_watch(conn);
		why = rapier_coro_wait(conn->server->cfg.write_timeout_ns, unlink_writer, conn, "a client write");
		return rapier_wake_errno(why, -EPIPE);
	}
	if (conn->body || rapier__http_conn_watched(conn)) {
		/*
		 * The handler may be reading its body meanwhile (http_body.h), and a
		 * streamed response watches for its client leaving: the watcher serves all.
		 */
		rapier__http_conn_watch(conn);
		why = rapier_coro_wait(conn->server->cfg.write_timeout_ns, unlink_writer, conn, "a client write");
		/* Another coroutine may have ended the response meanwhile: the watch follows (free when unchanged). */
		rapier__http_conn_watch(conn);
		return rapier_wake_errno(why, -EPIPE);
	}
	rapier_io_start(conn->server->loop, &conn->io, RAPIER_IO_WRITE);
	why = rapier_coro_wait(conn->server->cfg.write_timeout_ns, unlink_writer, conn, "a client write");
	if (conn->state != RAPIER_HTTP_CONN_CLOSED) {
		rapier_io_stop(conn->server->loop, &conn->io);
	}
	return rapier_wake_errno(why, -EPIPE);
}

/* A coroutine waiting for its turn to write. */
typedef struct {
	rapier_list_node_t link;       /* in conn->write_queue */
	rapier_http_conn_t *conn;
	rapier_coro_t *co;
	bool served;                   /* handed the connection by the writer before it */
} queued_writer_t;

static void unlink_queued_writer(rapier_coro_t *co, void *data)
{
	queued_writer_t *w = data;

	(void) co;
	rapier_list_remove(&w->conn->write_queue, &w->link);
}

/* Hands the connection straight to the next queued writer, so that none can slip in before it. */
static void write_unlock(rapier_http_conn_t *conn)
{
	rapier_list_node_t *node = rapier_list_shift(&conn->write_queue);
	queued_writer_t *next;

	if (node == NULL) {
		conn->writing = false;
		return;
	}
	next = RAPIER_LIST_ENTRY(node, queued_writer_t, link);
	next->served = true;
	rapier_coro_wake(next->co, RAPIER_WAKE_OK);
}

/*
 * Takes the connection for writing, waiting behind the coroutines already
 * writing to it. 0, or -errno: -EPIPE (it closed meanwhile), -ECANCELED, or
 * -EBUSY where this caller cannot wait.
 */
static int write_lock(rapier_http_conn_t *conn)
{
	queued_writer_t w = { .conn = conn };
	rapier_wake_t why;

	/* Nobody would wake a writer queued on a closed connection. */
	if (conn->state == RAPIER_HTTP_CONN_CLOSED) {
		return -EPIPE;
	}
	if (!conn->writing) {
		conn->writing = true;
		return 0;
	}
	if (!rapier_coro_can_yield()) {
		return -EBUSY;
	}
	w.co = rapier_coro_current();
	rapier_list_push(&conn->write_queue, &w.link);
	/* No timeout of its own: the writer ahead is bounded by write_timeout, and a failure closes the connection. */
	why = rapier_coro_wait(-1, unlink_queued_writer, &w, "its turn to write to a client");
	/* A cancel already pending returns at once, still queued. */
	rapier_list_remove(&conn->write_queue, &w.link);
	if (w.served && conn->state == RAPIER_HTTP_CONN_CLOSED) {
		/* Handed the connection, then it closed before this ran: let go of it. */
		write_unlock(conn);
		return -EPIPE;
	}
	if (w.served) {
		return 0;
	}
	return rapier_wake_errno(why, -EPIPE);
}

void rapier__http_wake_queued_writers(rapier_http_conn_t *conn)
{
	rapier_list_node_t *node;

	/* Each wakes owning nothing: the connection is gone. */
	while ((node = rapier_list_shift(&conn->write_queue)) != NULL) {
		rapier_coro_wake(RAPIER_LIST_ENTRY(node, queued_writer_t, link)->co, RAPIER_WAKE_CLOSED);
	}
}

/*
 * nginx keeps the status of a response whose head went out, whatever cut it
 * short, and says 499 for one whose client left before. The close wakes a
 * writer waiting on the socket, and makes isWritable() false; on_abort then
 * tells the owner, for the handler's onAbort() callbacks. A response sent
 * whole was logged as it began.
 */
void rapier__http_response_cut(rapier_http_conn_t *conn, int unsent)
{
	rapier_http_server_t *server = conn->server;
	bool aborted = false;

	if (conn->state == RAPIER_HTTP_CONN_HANDLING && !conn->response_ended) {
		rapier__http_log_access(conn, conn->response_status ? conn->response_status : unsent, conn->response_bytes);
		/* Its handler runs on (it holds conn through its Response); not after handler_done(). */
		aborted = conn->handler_co != NULL;
	}
	rapier__http_conn_close(conn);
	if (aborted && server->on_abort) {
		server->on_abort(conn, server->dispatch_data);
	}
}

/* A write failed: the connection closes. A streamed response is logged as it stands (408: write_timeout). */
static void write_failed(rapier_http_conn_t *conn, int rc)
{
	int unsent = rc == -EPIPE || rc == -ECONNRESET ? 499 : rc == -ETIMEDOUT ? 408 : 500;

	rapier__http_response_cut(conn, unsent);
}

/*
 * Its client left before the handler began its response (the watch closed
 * the connection, logging 499): the response is over, neither sent nor
 * logged again.
 */
static bool closed_before(rapier_http_conn_t *conn)
{
	if (conn->state != RAPIER_HTTP_CONN_CLOSED) {
		return false;
	}
	conn->response_ended = true;
	return true;
}

/* Writes every byte of iov, waiting while the socket is full; the caller holds the write lock. */
static int write_iov(rapier_http_conn_t *conn, struct iovec *iov, int iovcnt)
{
	while (iovcnt > 0) {
		ssize_t n;

		if (conn->state == RAPIER_HTTP_CONN_CLOSED) {
			return -EPIPE;
		}
		n = rapier__http_conn_sendv(conn, iov, iovcnt);
		if (n < 0) {
			int rc = -errno;
			if (rc == -EINTR) {
				continue;
			}
			/* -ETIMEDOUT, -EPIPE, or -ECANCELED: the caller's coroutine was canceled. */
			if (rc != -EAGAIN || (rc = wait_writable(conn)) < 0) {
				write_failed(conn, rc);
				return rc;
			}
			continue;
		}
		while (iovcnt > 0 && (size_t) n >= iov->iov_len) {
			n -= (ssize_t) iov->iov_len;
			iov++;
			iovcnt--;
		}
		if (iovcnt > 0) {
			iov->iov_base = (char *) iov->iov_base + n;
			iov->iov_len -= (size_t) n;
		}
	}
	return 0;
}

/*
 * Writes every byte of iov in its turn, waiting while the socket is full.
 * 0, or -errno with the connection closed: -ECANCELED when the wait was
 * canceled, -EBUSY when another coroutine was writing and this caller could
 * not wait (its bytes would have interleaved).
 */
static int write_all(rapier_http_conn_t *conn, struct iovec *iov, int iovcnt)
{
	int rc = write_lock(conn);

	if (rc < 0) {
		write_failed(conn, rc);
		return rc;
	}
	rc = write_iov(conn, iov, iovcnt);
	write_unlock(conn);
	return rc;
}

int rapier__http_write_all(rapier_http_conn_t *conn, struct iovec *iov, int iovcnt)
{
	return write_all(conn, iov, iovcnt);
}

/*
 * The same for an HTTP/2 stream (http2.c): the finished head as HEADERS
 * (when head), then body bytes, in the stream's write turn. more: a body
 * follows the head; eof: it ends after data, and the trailer fields (when
 * some) after it.
 */
static int h2_write(rapier_http_conn_t *conn, const rapier_http_head_t *head, const struct iovec *block, bool more,
	const char *data, size_t len, bool eof, const rapier_http_buf_t *trailers)
{
	int rc = write_lock(conn);

	if (rc < 0) {
		write_failed(conn, rc);
		return rc;
	}
	if (eof) {
		rc = rapier__h2_set_trailers(conn, trailers);
	}
	if (rc == 0 && head) {
		rc = rapier__h2_submit(conn, head, block, more);
	}
	if (rc == 0 && more && (len > 0 || eof)) {
		rc = rapier__h2_send(conn, data, len, eof);
	}
	write_unlock(conn);
	return rc;
}

/*
 * A body still arriving (request_buffering off) leaves the connection unfit
 * for another request, unless its handler's rest, if it leaves one, can be
 * dropped after it (rapier__http_conn_discard_body()). The loop's own
 * answers (a shed 503) drop nothing.
 */
static bool body_leaves_conn_unfit(const rapier_http_conn_t *conn)
{
	const rapier_http_body_t *body = conn->body;

	if (body == NULL || body->done) {
		return false;
	}
	return conn->handler_co == NULL || !rapier__http_body_discardable(body, conn->server->cfg.max_body_discard);
}

void rapier__http_fill_finish(rapier_http_conn_t *conn, rapier_http_finish_t *fin, uint64_t content_length)
{
	rapier_http_server_t *server = conn->server;
	const rapier_http_request_t *req = rapier_http_conn_request(conn);

	memset(fin, 0, sizeof(*fin));
	fin->content_length = content_length;
	fin->version_minor = req->version_minor;
	fin->request_keep_alive = req->keep_alive;
	fin->server_close = server->draining
		|| (server->cfg.max_requests && server->stats.requests + 1 >= server->cfg.max_requests)
		|| body_leaves_conn_unfit(conn);
	fin->head_request = req->method == HTTP_HEAD;
	fin->date_line = rapier_http_date_cache_line(&server->date, (int64_t) time(NULL));
	if (server->cfg.server_name) {
		fin->server = server->cfg.server_name;
		fin->server_len = strlen(server->cfg.server_name);
	}
}

/* The coding of this response, and whether it varies on Accept-Encoding. */
static rapier_coding_t decide_coding(rapier_http_conn_t *conn, int status,
	const char *content_type, size_t content_type_len, uint64_t body_len, bool *vary)
{
	const rapier_http_request_t *req = rapier_http_conn_request(conn);
	rapier_compress_input_t in;
	rapier_compress_decision_t d;

	*vary = false;
	if (!conn->server->cfg.gzip) {
		return RAPIER_CODING_IDENTITY;
	}
	memset(&in, 0, sizeof(in));
	in.status = status;
	in.accept_encoding = rapier_http_request_header(req, "accept-encoding", &in.accept_encoding_len);
	in.content_type = content_type;
	in.content_type_len = content_type_len;
	in.body_len = body_len;
	d = rapier_compress_decide(&conn->server->cfg.compress, &in);
	*vary = d.vary;
	return d.coding;
}

/*
 * The same, with an encoder of the coding from the pool: without one (out
 * of memory) the body goes out as it is, still with Vary.
 */
static rapier_encoder_t *compress_decide(rapier_http_conn_t *conn, rapier_http_head_t *head,
	const char *content_type, size_t content_type_len, uint64_t body_len, bool *vary)
{
	rapier_coding_t coding = decide_coding(conn, head->status, content_type, content_type_len, body_len, vary);

	return rapier_encoder_pool_get(&conn->server->encoders, coding);
}

rapier_coding_t rapier__http_file_coding(rapier_http_conn_t *conn, int status, const char *content_type,
	size_t content_type_len, uint64_t size, bool *vary)
{
	uint64_t max = conn->server->cfg.static_compress_max_size;

	*vary = false;
	if (max == 0 || size > max) {
		return RAPIER_CODING_IDENTITY;
	}
	return decide_coding(conn, status, content_type, content_type_len, size, vary);
}

/* Content-Encoding and Vary for a body in a coding; Vary alone for one sent as it is. */
static void add_coding_headers(rapier_http_head_t *head, rapier_coding_t coding, bool vary)
{
	if (coding != RAPIER_CODING_IDENTITY) {
		size_t len;
		const char *lines = rapier_compress_headers(coding, &len);
		rapier_http_head_encoded(head);
		rapier_http_head_add_line(head, lines, len);
	} else if (vary) {
		rapier_http_head_add_line(head, RAPIER_COMPRESS_VARY_HEADER, sizeof(RAPIER_COMPRESS_VARY_HEADER) - 1);
	}
}

static void response_finished(rapier_http_conn_t *conn, rapier_http_head_t *head, uint64_t bytes)
{
	rapier__http_log_access(conn, head->status, head->body_allowed ? bytes : 0);
	conn->response_ended = true;
	/* No more watch for the client leaving: paused, so that reading the next request costs no epoll_ctl(). */
	rapier__http_conn_watch(conn);
	conn->response_keep_alive = head->keep_alive;
	conn->server->stats.requests++;
	rapier__http_stats_changed(conn->server);
}

/*
 * Whether head's trailer fields go out: not for HEAD, nor to HTTP/1.0, which
 * has no chunks. Such a body is sent without Content-Length: chunked on
 * HTTP/1.1, the only framing with a place for them; on HTTP/2 the length is
 * not needed, and clients that stop reading once it is reached (curl) would
 * miss the fields.
 */
static bool trailers_sent(rapier_http_conn_t *conn, const rapier_http_head_t *head)
{
	const rapier_http_request_t *req = rapier_http_conn_request(conn);

	return rapier_http_head_has_trailers(head) && req->method != HTTP_HEAD
		&& (conn->h2s != NULL || req->version_minor >= 1);
}

/* The end of a chunked body: the last chunk, the trailer fields (or none), and the blank line that ends them. */
static int last_chunk(struct iovec *iov, const rapier_http_buf_t *trailers)
{
	if (trailers == NULL || trailers->len == 0) {
		iov[0].iov_base = (void *) RAPIER_HTTP_LAST_CHUNK;
		iov[0].iov_len = RAPIER_HTTP_LAST_CHUNK_LEN;
		return 1;
	}
	iov[0].iov_base = (void *) RAPIER_HTTP_LAST_CHUNK_HEAD;
	iov[0].iov_len = RAPIER_HTTP_LAST_CHUNK_HEAD_LEN;
	iov[1].iov_base = trailers->data;
	iov[1].iov_len = trailers->len;
	iov[2].iov_base = (void *) "\r\n";
	iov[2].iov_len = 2;
	return 3;
}

#define CHUNKED_BODY_IOV 6

/* One chunk of len > 0 bytes: its size line, the data and the CRLF after it, in 3 iovecs. */
static int one_chunk(struct iovec iov[3], char chunk_head[RAPIER_HTTP_CHUNK_HEADER_MAX], const char *data, size_t len)
{
	iov[0].iov_base = chunk_head;
	iov[0].iov_len = rapier_http_chunk_header(chunk_head, len);
	iov[1].iov_base = (void *) data;
	iov[1].iov_len = len;
	iov[2].iov_base = (void *) RAPIER_HTTP_CHUNK_TAIL;
	iov[2].iov_len = RAPIER_HTTP_CHUNK_TAIL_LEN;
	return 3;
}

/* A whole body as one chunk (none when empty) and the end; fills up to CHUNKED_BODY_IOV iovecs, returns the count. */
static int chunked_body(struct iovec *iov, char chunk_head[RAPIER_HTTP_CHUNK_HEADER_MAX], const char *body,
	size_t len, const rapier_http_buf_t *trailers)
{
	int n = len > 0 ? one_chunk(iov, chunk_head, body, len) : 0;

	return n + last_chunk(&iov[n], trailers);
}

/* The head, its coding headers added, and the whole body (in that coding), with the trailer fields if any. */
static int send_whole(rapier_http_conn_t *conn, rapier_http_head_t *head, const char *body, size_t body_len)
{
	rapier_http_finish_t fin;
	struct iovec iov[2 + CHUNKED_BODY_IOV];
	char chunk_head[RAPIER_HTTP_CHUNK_HEADER_MAX];
	int iovcnt = 2, rc;

	rapier__http_fill_finish(conn, &fin, trailers_sent(conn, head) ? RAPIER_HTTP_LENGTH_UNKNOWN : body_len);
	if ((rc = rapier_http_head_finish(head, &fin, iov)) < 0) {
		return rc;
	}
	if (head->chunked && conn->h2s == NULL) {
		iovcnt = 2 + chunked_body(&iov[2], chunk_head, body, body_len, head->trailers);
	} else if (head->body_allowed && body_len > 0) {
		iov[2].iov_base = (void *) body;
		iov[2].iov_len = body_len;
		iovcnt = 3;
	}
	conn->response_started = true;
	response_finished(conn, head, body_len);
	if (conn->h2s) {
		bool more = head->body_allowed && (body_len > 0 || rapier_http_head_has_trailers(head));
		return h2_write(conn, head, &iov[1], more, body, body_len, true, head->trailers);
	}
	return write_all(conn, iov, iovcnt);
}

int rapier_http_conn_respond(rapier_http_conn_t *conn, rapier_http_head_t *head, const char *content_type,
	size_t content_type_len, const char *body, size_t body_len)
{
	rapier_http_server_t *server = conn->server;
	rapier_encoder_t *enc;
	bool vary;
	int rc;
	/*
	 * This response's own buffer, not one of the server's: write_all() may
	 * suspend this coroutine on a slow client while others respond.
	 */
	rapier_http_buf_t zbuf;

	if (closed_before(conn)) {
		return -EPIPE;
	}
	enc = compress_decide(conn, head, content_type, content_type_len, body_len, &vary);
	rapier_http_buf_init(&zbuf, NULL, 0, (size_t) 1 << 31);
	if (enc && rapier_encoder_compress(enc, body, body_len, &zbuf) != 0) {
		/* Sent as it is, then, which is always correct. */
		rapier_encoder_pool_put(&server->encoders, enc);
		enc = NULL;
	}
	add_coding_headers(head, enc ? enc->coding : RAPIER_CODING_IDENTITY, vary);
	if (enc) {
		body = zbuf.data;
		body_len = zbuf.len;
		rapier_encoder_pool_put(&server->encoders, enc);
	}
	rc = send_whole(conn, head, body, body_len);
	rapier_http_buf_free(&zbuf);
	return rc;
}

int rapier_http_conn_interim(rapier_http_conn_t *conn, int status, const rapier_http_buf_t *fields)
{
	const rapier_http_request_t *req = rapier_http_conn_request(conn);
	const char *reason = rapier_http_reason(status);
	char line[RAPIER_HTTP_STATUS_LINE_MAX];
	struct iovec iov[3];
	int rc;

	/* Not closed_before(): the final response is still the handler's to attempt, as if it had sent no hints. */
	if (conn->state == RAPIER_HTTP_CONN_CLOSED) {
		return -EPIPE;
	}
	/*
	 * Off unless asked for: nginx before 1.29 takes a 103 for the response.
	 * And none to an HTTP/1.0 client, which would too (RFC 9110 15.2).
	 */
	if (!conn->server->cfg.early_hints || (conn->h2s == NULL && req->version_major == 1 && req->version_minor == 0)) {
		return 0;
	}
	if (conn->h2s) {
		if ((rc = write_lock(conn)) < 0) {
			write_failed(conn, rc);
			return rc;
		}
		rc = rapier__h2_submit_interim(conn, status, fields);
		write_unlock(conn);
		return rc < 0 ? rc : 1;
	}
	iov[0].iov_base = line;
	iov[0].iov_len = (size_t) snprintf(line, sizeof(line), "HTTP/1.1 %03d %s\r\n", status, reason ? reason : "");
	iov[1].iov_base = fields->data;
	iov[1].iov_len = fields->len;
	iov[2].iov_base = (void *) "\r\n";
	iov[2].iov_len = 2;
	rc = write_all(conn, iov, 3);
	return rc < 0 ? rc : 1;
}

static int send_stream_head(rapier_http_conn_t *conn, rapier_http_head_t *head)
{
	rapier_http_finish_t fin;
	struct iovec iov[2];
	int rc;

	rapier__http_fill_finish(conn, &fin, RAPIER_HTTP_LENGTH_UNKNOWN);
	if ((rc = rapier_http_head_finish(head, &fin, iov)) < 0) {
		return rc;
	}
	conn->response_started = true;
	conn->response_bytes = 0;
	conn->response_chunked = head->chunked;
	conn->response_no_body = !head->body_allowed;
	conn->response_keep_alive = head->keep_alive;
	rc = conn->h2s ? h2_write(conn, head, &iov[1], head->body_allowed, NULL, 0, false, NULL) : write_all(conn, iov, 2);
	if (rc == 0) {
		/* The head went out: a cut from now on is logged with its status. */
		conn->response_status = head->status;
	}
	return rc;
}

/* One chunk (or, for HTTP/1.0, raw bytes) of a streamed body. */
static int send_body_bytes(rapier_http_conn_t *conn, const char *data, size_t len)
{
	char chunk_head[RAPIER_HTTP_CHUNK_HEADER_MAX];
	struct iovec iov[3];

	if (conn->h2s) {
		return h2_write(conn, NULL, NULL, true, data, len, false, NULL);
	}
	if (!conn->response_chunked) {
		/* HTTP/1.0: the body ends when the connection closes. */
		iov[0].iov_base = (void *) data;
		iov[0].iov_len = len;
		return write_all(conn, iov, 1);
	}
	return write_all(conn, iov, one_chunk(iov, chunk_head, data, len));
}

/* The same, counted for the access log once it has gone out whole: a response cut short logs what was sent. */
static int write_body_bytes(rapier_http_conn_t *conn, const char *data, size_t len)
{
	int rc = send_body_bytes(conn, data, len);

	/* HTTP/2 counts them as nghttp2 takes them (http2.c). */
	if (rc == 0 && conn->h2s == NULL) {
		conn->response_bytes += len;
	}
	return rc;
}

/* A streamed body is compressed as it goes when the request and the Content-Type allow it. */
static void stream_compress_begin(rapier_http_conn_t *conn, rapier_http_head_t *head, const char *content_type,
	size_t content_type_len)
{
	bool vary;

	conn->encoder = compress_decide(conn, head, content_type, content_type_len, RAPIER_HTTP_LENGTH_UNKNOWN, &vary);
	add_coding_headers(head, conn->encoder ? conn->encoder->coding : RAPIER_CODING_IDENTITY, vary);
}

void rapier__http_encoder_release(rapier_http_conn_t *conn)
{
	if (conn->encoder == NULL) {
		return;
	}
	rapier_encoder_pool_put(&conn->server->encoders, conn->encoder);
	conn->encoder = NULL;
}

/* Compresses data (with data NULL: ends the compressed stream) and writes what comes out, flushed. */
static int write_compressed(rapier_http_conn_t *conn, const char *data, size_t len)
{
	rapier_http_buf_t zbuf;
	int rc;

	rapier_http_buf_init(&zbuf, NULL, 0, (size_t) 1 << 31);
	rc = data ? rapier_encoder_stream_write(conn->encoder, data, len, &zbuf)
		: rapier_encoder_stream_finish(conn->encoder, &zbuf);
	if (rc == 0 && zbuf.len > 0) {
		rc = write_body_bytes(conn, zbuf.data, zbuf.len);
	}
	rapier_http_buf_free(&zbuf);
	return rc < 0 ? rc : 0;
}

int rapier_http_conn_write(rapier_http_conn_t *conn, rapier_http_head_t *head, const char *content_type,
	size_t content_type_len, const char *data, size_t len)
{
	int rc;

	if (!conn->response_started) {
		stream_compress_begin(conn, head, content_type, content_type_len);
		if ((rc = send_stream_head(conn, head)) < 0) {
			return rc;
		}
	}
	if (len == 0 || conn->response_no_body) {
		return 0;
	}
	return conn->encoder ? write_compressed(conn, data, len) : write_body_bytes(conn, data, len);
}

int rapier_http_conn_end_stream(rapier_http_conn_t *conn, const rapier_http_buf_t *trailers)
{
	struct iovec iov[3];

	if (closed_before(conn)) {
		/* Its client left, or a write failed (logged then): over, but neither sent nor logged as complete. */
		return -EPIPE;
	}
	if (conn->encoder) {
		int rc = conn->response_no_body ? 0 : write_compressed(conn, NULL, 0);
		/* The connection may have closed meanwhile, releasing the encoder with it. */
		rapier__http_encoder_release(conn);
		if (rc < 0) {
			return rc;
		}
	}
	conn->response_ended = true;
	/* No more watch for the client leaving: paused, so that reading the next request costs no epoll_ctl(). */
	rapier__http_conn_watch(conn);
	conn->server->stats.requests++;
	rapier__http_stats_changed(conn->server);
	rapier__http_log_access(conn, conn->response_status, conn->response_bytes);
	if (conn->h2s) {
		return conn->response_no_body ? 0 : h2_write(conn, NULL, NULL, true, NULL, 0, true, trailers);
	}
	if (!conn->response_chunked || conn->response_no_body) {
		if (!conn->response_chunked && !conn->response_no_body) {
			conn->response_keep_alive = false;
		}
		return 0;
	}
	return write_all(conn, iov, last_chunk(iov, trailers));
}

/* length bytes of fd from off with sendfile(); the caller holds the write lock. */
static int send_file_body(rapier_http_conn_t *conn, int fd, off_t off, uint64_t length)
{
	int rc = 0;

	while (length > 0) {
		ssize_t n = rapier__http_conn_sendfile(conn, fd, &off, length > (1u << 30) ? (1u << 30) : (size_t) length);
		if (n > 0) {
			length -= (uint64_t) n;
			continue;
		}
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n < 0 && errno == EAGAIN && (rc = wait_writable(conn)) == 0) {
			continue;
		}
		/* The file shrank, the client left, or it stopped reading: the length promised cannot be kept. */
		rc = n == 0 ? -EIO : (rc < 0 ? rc : -errno);
		rapier__http_conn_close(conn);
		return rc;
	}
	return 0;
}

/* The head, the file as one chunk and the end with the trailer fields; the caller holds the write lock. */
static int send_file_chunked(rapier_http_conn_t *conn, struct iovec head_iov[2], int fd, off_t off, uint64_t length,
	const rapier_http_buf_t *trailers)
{
	char chunk_head[RAPIER_HTTP_CHUNK_HEADER_MAX];
	struct iovec iov[2 + 4];
	int iovcnt = 2, rc;

	iov[0] = head_iov[0];
	iov[1] = head_iov[1];
	if (length > 0) {
		iov[2].iov_base = chunk_head;
		iov[2].iov_len = rapier_http_chunk_header(chunk_head, length);
		iovcnt = 3;
	}
	if ((rc = write_iov(conn, iov, iovcnt)) < 0 || (length > 0 && (rc = send_file_body(conn, fd, off, length)) < 0)) {
		return rc;
	}
	iovcnt = 0;
	if (length > 0) {
		iov[0].iov_base = (void *) RAPIER_HTTP_CHUNK_TAIL;
		iov[0].iov_len = RAPIER_HTTP_CHUNK_TAIL_LEN;
		iovcnt = 1;
	}
	iovcnt += last_chunk(&iov[iovcnt], trailers);
	return write_iov(conn, iov, iovcnt);
}

/*
 * A whole file compressed as a body would be (its type, the request's
 * Accept-Encoding), up to static_compress_max_size, from the worker's
 * cache of compressed files (http_file_cache.h). Returns 1 when the file
 * is to go as it is (Vary added when another request could get it
 * compressed), else what sending the compressed copy returned.
 */
static int send_file_compressed(rapier_http_conn_t *conn, rapier_http_head_t *head, const char *content_type,
	size_t content_type_len, int fd, const rapier_file_version_t *version)
{
	rapier_http_server_t *server = conn->server;
	rapier_coding_t coding = RAPIER_CODING_IDENTITY;
	rapier_http_buf_t copy;
	const char *data;
	size_t len;
	bool vary = false;
	int rc = -1;

	if (!trailers_sent(conn, head)) {
		coding = rapier__http_file_coding(conn, head->status, content_type, content_type_len, version->size, &vary);
	}
	rapier_http_buf_init(&copy, NULL, 0, (size_t) 1 << 31);
	if (coding != RAPIER_CODING_IDENTITY) {
		rc = rapier_file_cache_get(&server->file_cache, &server->encoders, coding, fd, version, &copy, &data, &len);
	}
	/* A hit is copied out: the cache may change while this coroutine waits on the socket. */
	if (rc == 0 && copy.len == 0) {
		rc = rapier_http_buf_append(&copy, data, len) == 0 ? 0 : -ENOMEM;
	}
	if (rc != 0) {
		add_coding_headers(head, RAPIER_CODING_IDENTITY, vary);
		rapier_http_buf_free(&copy);
		return 1;
	}
	add_coding_headers(head, coding, vary);
	rc = send_whole(conn, head, copy.data, copy.len);
	rapier_http_buf_free(&copy);
	return rc;
}

int rapier_http_conn_sendfile(rapier_http_conn_t *conn, rapier_http_head_t *head, const char *content_type,
	size_t content_type_len, int fd, uint64_t offset, uint64_t length, const rapier_file_version_t *version)
{
	rapier_http_finish_t fin;
	struct iovec iov[2];
	int rc;

	if (closed_before(conn)) {
		return -EPIPE;
	}
	if (offset == 0 && length == version->size
			&& (rc = send_file_compressed(conn, head, content_type, content_type_len, fd, version)) != 1) {
		return rc;
	}
	rapier__http_fill_finish(conn, &fin, trailers_sent(conn, head) ? RAPIER_HTTP_LENGTH_UNKNOWN : length);
	if ((rc = rapier_http_head_finish(head, &fin, iov)) < 0) {
		return rc;
	}
	conn->response_started = true;
	response_finished(conn, head, length);
	/* Held to the last byte of the file, which is written outside write_iov(). */
	if ((rc = write_lock(conn)) < 0) {
		rapier__http_conn_close(conn);
		return rc;
	}
	if (conn->h2s) {
		bool more = head->body_allowed && (length > 0 || rapier_http_head_has_trailers(head));
		if (more) {
			rc = rapier__h2_set_trailers(conn, head->trailers);
		}
		if (rc == 0 && (rc = rapier__h2_submit(conn, head, &iov[1], more)) == 0 && more) {
			rc = rapier__h2_send_file(conn, fd, offset, length);
		}
	} else if (head->chunked) {
		rc = send_file_chunked(conn, iov, fd, (off_t) offset, length, head->trailers);
	} else if ((rc = write_iov(conn, iov, 2)) == 0 && head->body_allowed) {
		rc = send_file_body(conn, fd, (off_t) offset, length);
	}
	write_unlock(conn);
	return rc;
}
