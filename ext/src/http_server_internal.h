/*
 * What http_server.c (connections, reading, dispatch), http_answer.c (the
 * loop's own answers, static files), http_writer.c (responses from
 * coroutines) and http_listen.c (listening sockets) share. Not an API.
 */
#ifndef RAPIER_HTTP_SERVER_INTERNAL_H
#define RAPIER_HTTP_SERVER_INTERNAL_H

#include "http_server.h"

#include <sys/epoll.h>
#include <sys/sendfile.h>
#include <sys/socket.h>

/*
 * A client connection is read with EPOLLRDHUP too, so that a queued
 * request, or one being handled, sees its client leave (conn_on_io)
 * without an epoll_ctl() to watch for it: the interest stays the same from
 * reading to queued, and to handling (rapier__http_conn_watch()).
 */
#define RAPIER_HTTP_CONN_READ (RAPIER_IO_READ | EPOLLRDHUP)

/*
 * How long a closing connection keeps discarding what the client still
 * sends after our error answer, so that closing with unread bytes does not
 * reset the connection before the client has read the answer.
 */
#define RAPIER_HTTP_LINGER_NS (2 * (int64_t) 1000000000)

/* Closes the connection now: stops its watchers, wakes a waiting writer, drops the server's reference. */
void rapier__http_conn_close(rapier_http_conn_t *conn);

/* Answers a request the server refuses itself (status 0: none), then closes the connection or resets the stream (http_answer.c). */
void rapier__http_answer_error(rapier_http_conn_t *conn, int status, const char *reason);

/* 503 with Retry-After to a request that waited queue_timeout for a handler slot (http_answer.c). */
void rapier__http_answer_busy(rapier_http_conn_t *conn);

/* 308 to the same target over HTTPS, for a request to the plain-HTTP port (http_answer.c). */
void rapier__http_redirect_to_https(rapier_http_conn_t *conn);

/* Answers the request from document_root if it names a file there; false to hand it on (http_answer.c). */
bool rapier__http_serve_static(rapier_http_conn_t *conn);

/* The socket can take more of the loop's answer: its head, then its file (http_answer.c). */
void rapier__http_answer_flush(rapier_http_conn_t *conn);

/* A request the loop answered itself: counted, and max_requests checked. */
void rapier__http_count_answer(rapier_http_server_t *server);

/* A response has ended: the connection reads or processes its next request, or closes. */
void rapier__http_conn_next_request(rapier_http_conn_t *conn);

/* A whole request: to static files, the HTTPS redirect, the queue or a handler (an HTTP/2 stream's too). */
void rapier__http_dispatch(rapier_http_conn_t *conn);

/* http_handler.c: queue_timeout of the oldest queued requests (the server's queue_timer). */
void rapier__http_on_queue_timer(rapier_timer_t *timer);

/* Takes conn off the queue of requests waiting for a handler slot, if it is on it. */
void rapier__http_queue_remove(rapier_http_server_t *server, rapier_http_conn_t *conn);

/* An HTTP/1.1 connection's I/O while its handler runs (http_handler.c). */
void rapier__http_handling_io(rapier_http_conn_t *conn, uint32_t events);

/* Calls on_drained once a draining server has no connection and no handler left. */
void rapier__http_check_drained(rapier_http_server_t *server);

/*
 * Starts spooling the request's body to upload_tmp_dir (a multipart one, or
 * one that may pass body_buffer_size): true when
 * conn->upload is to take its bytes (rapier_upload_feed), false to buffer it.
 */
bool rapier__http_spool_upload(rapier_http_conn_t *conn);

/*
 * Whether the request's body is read while it arrives (request_buffering
 * off), HTTP/1.1 or HTTP/2. Not a multipart body: post and files need it
 * whole, and it is spooled to its files as before. Not a GET or HEAD body,
 * which nobody reads, nor a request the loop answers itself (the redirect
 * to HTTPS).
 */
bool rapier__http_streams_body(const rapier_http_conn_t *conn);

/*
 * The request's body is read while it arrives (http_body.h): asks the
 * connection for more of it. Answers a due 100 Continue, and on HTTP/1.1
 * reads the socket once: 1 when bytes (or the end) came, 0 when none is
 * there yet, -1 when the body ended in an error (set on conn->body).
 */
int rapier__http_body_pull(rapier_http_conn_t *conn);

/* How long the server waits for a body's next bytes: body_timeout, else read_timeout; -1: no limit (http_body.c). */
int64_t rapier__http_body_wait_ns(const rapier_http_config_t *cfg);

/* n bytes of the body were read: HTTP/2 opens the stream's window by as much (http2.c). */
void rapier__http_body_taken(rapier_http_conn_t *conn, size_t n);

/* HTTP/2's rapier__http_body_pull() (http2.c). */
int rapier__h2_body_pull(rapier_http_conn_t *conn);

/*
 * An HTTP/2 stream's body was detached (continue_unsent: its client still
 * waits for a 100 Continue): a stream answered whose unread rest is not
 * worth taking in is reset (http2.c).
 */
void rapier__h2_body_detached(rapier_http_conn_t *conn, bool continue_unsent);

/*
 * A handler's HTTP/1.1 connection watches for what its waiting writer and
 * body reader need, and for its client leaving until the response ends;
 * or pauses.
 */
void rapier__http_conn_watch(rapier_http_conn_t *conn);

/*
 * A handler's response will not end as it should: its client left (closed,
 * reset or shut down its side), a write failed, or the handler failed after
 * the head went out. The connection (or stream) closes, and the request is
 * logged once, as nginx logs it: the status sent with the body bytes that
 * went out, or unsent (499: the client left) when no head did (http_writer.c).
 */
void rapier__http_response_cut(rapier_http_conn_t *conn, int unsent);

/* Formats conn->peer as the text and port requests and the access log show. */
void rapier__http_conn_format_peer(rapier_http_conn_t *conn);

/*
 * Reads what the socket holds of the connection's PROXY protocol header
 * (http_proxy.c). True once it is whole, the client's address in place;
 * false while more is to come or when the connection was closed for it.
 */
bool rapier__http_proxy_read(rapier_http_conn_t *conn);

/*
 * The request's client as real_ip_header names it, and the scheme it used
 * as real_scheme_header does, when its connection comes from a proxy of
 * real_ip_from (http_proxy.c); else the connection's.
 */
void rapier__http_real_ip(rapier_http_conn_t *conn);

/* Frees the request's spooled body, if any, and removes the files nobody took. */
void rapier__http_drop_upload(rapier_http_conn_t *conn);

/* A queued request's client left: 499 in the access log, and the connection (or stream) closes. */
void rapier__http_conn_abandon(rapier_http_conn_t *conn);

/* Writes the access log line of the response that just ended, if there is an access log. */
void rapier__http_log_access(rapier_http_conn_t *conn, int status, uint64_t bytes);

/* Ends the wait of every coroutine queued to write on a closing connection (http_writer.c). */
void rapier__http_wake_queued_writers(rapier_http_conn_t *conn);

/* Gives a streamed response's compressor (if any) back to the pool, mid-stream or not (http_writer.c). */
void rapier__http_encoder_release(rapier_http_conn_t *conn);

/*
 * The coding a whole file goes in, decided as for a response body (gzip,
 * Accept-Encoding, the type, compression_min_length), for files up to
 * static_compress_max_size; *vary when the answer depends on
 * Accept-Encoding. Static files and sendfile() (http_writer.c).
 */
rapier_coding_t rapier__http_file_coding(rapier_http_conn_t *conn, int status, const char *content_type,
	size_t content_type_len, uint64_t size, bool *vary);

/* Fills the framing inputs of a response on conn (version, keep-alive, Date, Server). */
void rapier__http_fill_finish(rapier_http_conn_t *conn, rapier_http_finish_t *fin, uint64_t content_length);

/* Writes every byte of iov in the connection's write turn (http_writer.c): 0, or -errno with the connection closed. */
int rapier__http_write_all(rapier_http_conn_t *conn, struct iovec *iov, int iovcnt);

/* Stops writing, discards what the client still sends, and closes when it is done or after a while. */
void rapier__http_conn_linger(rapier_http_conn_t *conn);

/* Reads and drops the rest of a body its handler left unread, then goes on to the next request (max_body_discard). */
void rapier__http_conn_discard_body(rapier_http_conn_t *conn);

/* Arms the connection's timeout (0: none); its expiry closes an upgraded connection. */
void rapier__http_conn_set_timer(rapier_http_conn_t *conn, int64_t timeout_ns);

/* conn's handler upgraded it: the response has ended (status 101) and its handler slot is free. */
void rapier__http_conn_upgraded(rapier_http_conn_t *conn);

/* Sets up a listener of server for fd (-1: none yet); on_accept runs when fd is readable (http_listen.c). */
void rapier__http_listener_init(rapier_http_listener_t *listener, rapier_http_server_t *server, int fd, bool plain,
	rapier_io_cb on_accept);
/* Stops or starts watching every listener (http_listen.c); none is watched before the server has started. */
void rapier__http_listeners_pause(rapier_http_server_t *server, bool pause);
/* Closes every listener's socket (http_listen.c). */
void rapier__http_listeners_close(rapier_http_server_t *server);

/*
 * The connection's bytes, in the clear or through its TLS session, with
 * the conventions of recv(), sendmsg() and sendfile() on a non-blocking
 * socket (-1 and errno EAGAIN: wait for the socket). Every read and write
 * of a connection's data goes through these.
 */
static inline ssize_t rapier__http_conn_recv(rapier_http_conn_t *conn, char *buf, size_t len)
{
	return conn->tls ? rapier_http_tls_recv(conn->tls, buf, len) : recv(conn->fd, buf, len, 0);
}

static inline ssize_t rapier__http_conn_sendv(rapier_http_conn_t *conn, const struct iovec *iov, int iovcnt)
{
	struct msghdr msg = { .msg_iov = (struct iovec *) iov, .msg_iovlen = (size_t) iovcnt };

	return conn->tls ? rapier_http_tls_sendv(conn->tls, iov, iovcnt) : sendmsg(conn->fd, &msg, MSG_NOSIGNAL);
}

static inline ssize_t rapier__http_conn_send(rapier_http_conn_t *conn, const void *buf, size_t len)
{
	struct iovec iov = { (void *) buf, len };

	return conn->tls ? rapier_http_tls_sendv(conn->tls, &iov, 1) : send(conn->fd, buf, len, MSG_NOSIGNAL);
}

static inline ssize_t rapier__http_conn_sendfile(rapier_http_conn_t *conn, int fd, off_t *offset, size_t len)
{
	return conn->tls ? rapier_http_tls_sendfile(conn->tls, fd, offset, len) : sendfile(conn->fd, fd, offset, len);
}

/*
 * Whether a read that returned n bytes into a buffer of size has emptied
 * the socket, so waiting beats another read that would find nothing. A
 * TLS read returns at most one record: only a short record says so.
 */
static inline bool rapier__http_conn_read_drained(const rapier_http_conn_t *conn, size_t n, size_t size)
{
	return n < (conn->tls ? RAPIER_HTTP_TLS_RECORD_MAX : size);
}

/*
 * An HTTP/1.1 request is being handled and its response has not ended: the
 * connection watches for its client leaving (rapier__http_conn_watch()),
 * with the interest the request was read with, so that it costs nothing.
 */
static inline bool rapier__http_conn_watched(const rapier_http_conn_t *conn)
{
	return conn->state == RAPIER_HTTP_CONN_HANDLING && !conn->response_ended && conn->h2s == NULL;
}

/* Tells the owner (on_stats) that server->stats changed. */
static inline void rapier__http_stats_changed(rapier_http_server_t *server)
{
	if (server->on_stats) {
		server->on_stats(server, server->dispatch_data);
	}
}

#endif
