/*
 * WebSocket connections: the handshake's checks and its 101, receiving
 * (with pings and the close handshake answered on the way), sending, and
 * how an upgraded connection ends (see http_websocket.h).
 *
 * The receiving coroutine reads into a buffer shared by the worker and
 * parses at once; bytes behind the event it stops at are copied to the
 * connection's own buffer before anything may wait, since another
 * coroutine may read into the shared one meanwhile. A connection costs no
 * buffer while its bytes are all parsed, only its parser's state and a
 * message it is assembling.
 *
 * The watcher serves the reader and a writer waiting for the socket to
 * drain at once (rapier__ws_watch); when neither waits it is paused, not
 * stopped, so a reader that waits message after message costs no
 * epoll_ctl().
 */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include "php_rapier.h"

#include <errno.h>
#include <poll.h>
#include <strings.h>
#include <sys/socket.h>

#include "http_server.h"
#include "http_server_internal.h"
#include "http_websocket.h"
#include "websocket_deflate.h"

/* Bytes per recv(): several ordinary messages at once, or a large one in big steps. */
#define WS_READ_CHUNK (64 * 1024)

static char ws_read_buffer[WS_READ_CHUNK];

/* What next_event() found besides a parser event. */
#define WS_WAIT (-1)   /* nothing to read yet */
#define WS_GONE (-2)   /* end of stream or a socket error */

/* The handshake */

/* Whether the comma-separated header list VALUE holds TOKEN, in any case or exactly. */
static bool list_has_token(const char *value, size_t len, const char *token, size_t token_len, bool any_case)
{
	const char *end = value + len;

	while (value < end) {
		const char *item = value, *item_end;
		while (item < end && (*item == ' ' || *item == '\t' || *item == ',')) {
			item++;
		}
		item_end = item;
		while (item_end < end && *item_end != ',') {
			item_end++;
		}
		value = item_end;
		while (item_end > item && (item_end[-1] == ' ' || item_end[-1] == '\t')) {
			item_end--;
		}
		if ((size_t) (item_end - item) == token_len
				&& (any_case ? strncasecmp(item, token, token_len) : memcmp(item, token, token_len)) == 0) {
			return true;
		}
	}
	return false;
}

/* Whether any NAME header (lower-case) of req lists TOKEN: a field may be sent on several lines. */
static bool header_lists(const rapier_http_request_t *req, const char *name, const char *token, size_t token_len,
	bool any_case)
{
	for (size_t i = 0; i < req->header_count; i++) {
		const rapier_http_header_t *h = &req->headers[i];
		if (strcmp(h->name, name) == 0 && list_has_token(h->value, h->value_len, token, token_len, any_case)) {
			return true;
		}
	}
	return false;
}

static bool header_has_token(const rapier_http_request_t *req, const char *name, const char *token)
{
	return header_lists(req, name, token, strlen(token), true);
}

/*
 * permessage-deflate, when the server compresses and the client offers it
 * (on any Sec-WebSocket-Extensions line): the window our compressor keeps
 * to, and the answer for the 101 in response; 0 when not agreed.
 */
static int negotiate_deflate(const rapier_http_conn_t *conn, char response[RAPIER_WS_DEFLATE_RESPONSE_MAX])
{
	const rapier_http_request_t *req = rapier_http_conn_request(conn);
	int window_bits;

	if (!conn->server->cfg.websocket_compression) {
		return 0;
	}
	for (size_t i = 0; i < req->header_count; i++) {
		const rapier_http_header_t *h = &req->headers[i];
		if (strcmp(h->name, "sec-websocket-extensions") == 0
				&& rapier_ws_deflate_negotiate(h->value, h->value_len, &window_bits, response)) {
			return window_bits;
		}
	}
	return 0;
}

bool rapier_ws_protocol_offered(const rapier_http_request_t *req, const char *protocol, size_t len)
{
	/* Subprotocol names are compared exactly (RFC 6455 4.1). */
	return len > 0 && header_lists(req, "sec-websocket-protocol", protocol, len, false);
}

int rapier_ws_handshake_check(const rapier_http_request_t *req, char accept[RAPIER_WS_ACCEPT_LEN + 1], const char **why)
{
	const char *value;
	size_t len;

	if (!header_has_token(req, "upgrade", "websocket")) {
		*why = "this resource speaks WebSocket: the request must ask for Upgrade: websocket";
		return 426;
	}
	if (req->method != HTTP_GET) {
		*why = "a WebSocket handshake must be a GET request";
		return 400;
	}
	if (req->version_major != 1 || req->version_minor < 1) {
		*why = "a WebSocket handshake must be HTTP/1.1";
		return 400;
	}
	if (!header_has_token(req, "connection", "upgrade")) {
		*why = "a WebSocket handshake must send Connection: Upgrade";
		return 400;
	}
	value = rapier_http_request_header(req, "sec-websocket-version", &len);
	if (value == NULL || len != 2 || memcmp(value, "13", 2) != 0) {
		*why = "this server speaks WebSocket version 13 only";
		return 426;
	}
	value = rapier_http_request_header(req, "sec-websocket-key", &len);
	if (value == NULL || rapier_ws_accept_key(value, len, accept) != 0) {
		*why = "Sec-WebSocket-Key must be 16 bytes in base64";
		return 400;
	}
	return 0;
}

int rapier_http_conn_upgrade(rapier_http_conn_t *conn, rapier_http_head_t *head, const char *accept,
	const char *protocol, size_t protocol_len)
{
	static const char upgrade_lines[] = "Upgrade: websocket\r\nConnection: Upgrade\r\n";
	rapier_http_server_t *server = conn->server;
	char accept_line[sizeof("Sec-WebSocket-Accept: \r\n") + RAPIER_WS_ACCEPT_LEN];
	char deflate[RAPIER_WS_DEFLATE_RESPONSE_MAX];
	int deflate_bits = negotiate_deflate(conn, deflate);
	rapier_http_finish_t fin;
	struct iovec iov[2];
	rapier_ws_t *ws;
	int rc;

	if (server->draining) {
		return -ESHUTDOWN;
	}
	rapier_http_head_set_status(head, 101, NULL, 0);
	/* The connection stays open whatever the application said: it is no longer HTTP's to close. */
	head->app_close = false;
	snprintf(accept_line, sizeof(accept_line), "Sec-WebSocket-Accept: %s\r\n", accept);
	if ((rc = rapier_http_head_add_line(head, upgrade_lines, sizeof(upgrade_lines) - 1)) < 0
		|| (rc = rapier_http_head_add_line(head, accept_line, strlen(accept_line))) < 0
		|| (protocol && (rc = rapier_http_head_add(head, ZEND_STRL("Sec-WebSocket-Protocol"), protocol,
			protocol_len)) < 0)
		|| (deflate_bits && (rc = rapier_http_head_add(head, ZEND_STRL("Sec-WebSocket-Extensions"), deflate,
			strlen(deflate))) < 0)) {
		return rc;
	}
	rapier__http_fill_finish(conn, &fin, RAPIER_HTTP_LENGTH_UNKNOWN);
	fin.request_keep_alive = true;
	fin.server_close = false;
	if ((rc = rapier_http_head_finish(head, &fin, iov)) < 0) {
		return rc;
	}
	ws = ecalloc(1, sizeof(*ws));
	rapier_ws_parser_init(&ws->parser, server->cfg.websocket_max_message);
	if (deflate_bits) {
		rapier_ws_parser_allow_compressed(&ws->parser);
		ws->deflate_bits = deflate_bits;
	}
	conn->ws = ws;
	if (conn->rlen > 0) {
		/* Frames the client sent right behind its handshake. */
		ws->ibuf = conn->rbuf;
		ws->ilen = conn->rlen;
		conn->rbuf = NULL;
		conn->rlen = 0;
	}
	rapier__http_conn_upgraded(conn);
	return rapier__http_write_all(conn, iov, 2);
}

/* State */

bool rapier_ws_is_open(const rapier_http_conn_t *conn)
{
	const rapier_ws_t *ws = conn->ws;

	return ws && conn->state == RAPIER_HTTP_CONN_WEBSOCKET && !ws->close_sent && !ws->close_received;
}

static void record_close(rapier_ws_t *ws, uint16_t code, const char *reason, size_t len)
{
	if (ws->close_code != 0) {
		return;
	}
	ws->close_code = code;
	ws->close_reason_len = len < sizeof(ws->close_reason) ? len : sizeof(ws->close_reason);
	if (ws->close_reason_len > 0) {
		memcpy(ws->close_reason, reason, ws->close_reason_len);
	}
}

/* The connection leaves WebSocket mode: counted once, however it ends. */
static void mark_ended(rapier_http_conn_t *conn)
{
	rapier_ws_t *ws = conn->ws;

	if (ws->ended) {
		return;
	}
	ws->ended = true;
	record_close(ws, RAPIER_WS_CLOSE_ABNORMAL, NULL, 0);
	conn->server->stats.websockets--;
}

/*
 * The close handshake is done (or given up): the server closes the TCP
 * connection first (RFC 6455 7.1.1), lingering so that a client still
 * sending does not turn our close into a reset that loses our close frame.
 */
static void end_websocket(rapier_http_conn_t *conn)
{
	mark_ended(conn);
	rapier__http_stats_changed(conn->server);
	if (conn->state == RAPIER_HTTP_CONN_WEBSOCKET) {
		conn->state = RAPIER_HTTP_CONN_READING;
		rapier__http_conn_linger(conn);
	}
}

void rapier__ws_conn_closed(rapier_http_conn_t *conn)
{
	rapier_ws_t *ws = conn->ws;

	if (ws == NULL) {
		return;
	}
	if (ws->reader) {
		rapier_coro_t *reader = ws->reader;
		ws->reader = NULL;
		rapier_coro_wake(reader, RAPIER_WAKE_CLOSED);
	}
	mark_ended(conn);   /* the caller publishes the stats */
}

void rapier__ws_free(rapier_http_conn_t *conn)
{
	rapier_ws_t *ws = conn->ws;

	if (ws == NULL) {
		return;
	}
	rapier_ws_parser_free(&ws->parser);
	if (ws->ibuf) {
		efree(ws->ibuf);
	}
	efree(ws);
	conn->ws = NULL;
}

/* Watching */

void rapier__ws_watch(rapier_http_conn_t *conn)
{
	rapier_loop_t *loop = conn->server->loop;
	uint32_t events = 0;

	if (conn->state != RAPIER_HTTP_CONN_WEBSOCKET) {
		return;
	}
	if (conn->writer) {
		events |= RAPIER_IO_WRITE;
	}
	if (conn->ws->reader) {
		events |= RAPIER_IO_READ | EPOLLRDHUP;
	}
	if (events) {
		rapier_io_start(loop, &conn->io, events);
	} else {
		rapier_io_pause(loop, &conn->io);
	}
}

void rapier__ws_on_io(rapier_http_conn_t *conn, uint32_t events)
{
	rapier_ws_t *ws = conn->ws;

	if ((events & (EPOLLOUT | EPOLLERR | EPOLLHUP)) && conn->writer) {
		rapier_coro_t *writer = conn->writer;
		conn->writer = NULL;
		rapier_coro_wake(writer, RAPIER_WAKE_OK);
	}
	if ((events & (EPOLLIN | EPOLLERR | EPOLLHUP | EPOLLRDHUP)) && ws->reader) {
		rapier_coro_t *reader = ws->reader;
		ws->reader = NULL;
		rapier_coro_wake(reader, RAPIER_WAKE_OK);
	}
	/* Level-triggered: what nobody waits for any more must not fire again before they run. */
	rapier__ws_watch(conn);
}

static void unlink_reader(rapier_coro_t *co, void *data)
{
	rapier_http_conn_t *conn = data;

	if (conn->ws->reader == co) {
		conn->ws->reader = NULL;
	}
	rapier__ws_watch(conn);
}

/* Waits for bytes until deadline_ns (0: none). 0 (readable, or closed meanwhile), -ETIMEDOUT or -ECANCELED. */
static int wait_readable(rapier_http_conn_t *conn, uint64_t deadline_ns)
{
	int64_t timeout_ns = -1;
	rapier_wake_t why;

	if (deadline_ns) {
		uint64_t now = rapier_now_ns();
		if (now >= deadline_ns) {
			return -ETIMEDOUT;
		}
		timeout_ns = (int64_t) (deadline_ns - now);
	}
	if (!rapier_coro_can_yield()) {
		struct pollfd pfd = { .fd = conn->fd, .events = POLLIN | POLLRDHUP };
		int ms = timeout_ns < 0 ? -1 : (int) ((timeout_ns + 999999) / 1000000);
		return poll(&pfd, 1, ms) == 0 ? -ETIMEDOUT : 0;
	}
	conn->ws->reader = rapier_coro_current();
	rapier__ws_watch(conn);
	why = rapier_coro_wait(timeout_ns, unlink_reader, conn, "a WebSocket message");
	return rapier_wake_errno(why, 0);
}

/* Receiving */

static void drop_consumed_input(rapier_ws_t *ws)
{
	if (ws->ipos == ws->ilen && ws->ibuf) {
		efree(ws->ibuf);
		ws->ibuf = NULL;
		ws->ilen = ws->ipos = 0;
	}
}

/*
 * The next event of the connection: from the bytes kept, else from what a
 * read brings (whose rest is kept at once). A parser event, NEED_MORE
 * when a full read left more to read, WS_WAIT or WS_GONE.
 */
static int next_event(rapier_http_conn_t *conn)
{
	rapier_ws_t *ws = conn->ws;
	rapier_ws_event_t ev;
	size_t used;
	ssize_t n;

	if (ws->ipos < ws->ilen) {
		ev = rapier_ws_parser_feed(&ws->parser, ws->ibuf + ws->ipos, ws->ilen - ws->ipos, &used);
		ws->ipos += used;
		drop_consumed_input(ws);
		if (ev != RAPIER_WS_NEED_MORE) {
			return ev;
		}
	}
	do {
		n = rapier__http_conn_recv(conn, ws_read_buffer, sizeof(ws_read_buffer));
	} while (n < 0 && errno == EINTR);
	if (n == 0 || (n < 0 && errno != EAGAIN)) {
		return WS_GONE;
	}
	if (n < 0) {
		return WS_WAIT;
	}
	ev = rapier_ws_parser_feed(&ws->parser, ws_read_buffer, (size_t) n, &used);
	if (used < (size_t) n) {
		ws->ibuf = emalloc((size_t) n - used);
		memcpy(ws->ibuf, ws_read_buffer + used, (size_t) n - used);
		ws->ilen = (size_t) n - used;
		ws->ipos = 0;
	}
	if (ev == RAPIER_WS_NEED_MORE && rapier__http_conn_read_drained(conn, (size_t) n, sizeof(ws_read_buffer))) {
		return WS_WAIT;
	}
	return ev;
}

/*
 * One frame, in the connection's write turn (a pong or our close too,
 * whether or not the WebSocket is open); compressed: a deflated message.
 */
static int send_frame(rapier_http_conn_t *conn, rapier_ws_opcode_t opcode, const void *payload, size_t len,
	bool compressed)
{
	uint8_t header[RAPIER_WS_FRAME_HEADER_MAX];
	struct iovec iov[2];

	iov[0].iov_base = header;
	iov[0].iov_len = rapier_ws_frame_header(header, opcode, len);
	if (compressed) {
		header[0] |= RAPIER_WS_FRAME_COMPRESSED;
	}
	iov[1].iov_base = (void *) payload;
	iov[1].iov_len = len;
	return rapier__http_write_all(conn, iov, len > 0 ? 2 : 1);
}

/* Sends our close frame (once), in the connection's write turn. */
static int send_close(rapier_http_conn_t *conn, uint16_t code, const char *reason, size_t reason_len)
{
	uint8_t payload[RAPIER_WS_CONTROL_MAX];
	size_t len = code == RAPIER_WS_CLOSE_NO_STATUS ? 0 : rapier_ws_close_payload(payload, code, reason, reason_len);

	conn->ws->close_sent = true;
	return send_frame(conn, RAPIER_WS_OP_CLOSE, payload, len, false);
}

/* The peer's close frame: answered with the same code unless ours went first (RFC 6455 5.5.1), then the end. */
static void on_close_frame(rapier_http_conn_t *conn)
{
	rapier_ws_t *ws = conn->ws;
	rapier_ws_parser_t *p = &ws->parser;

	ws->close_received = true;
	record_close(ws, p->close_code, p->close_reason, p->close_reason_len);
	if (!ws->close_sent) {
		send_close(conn, p->close_code, NULL, 0);
	}
	end_websocket(conn);
}

/* The peer broke the protocol: our close frame says how (1002, 1007, 1009), then the end. */
static void on_protocol_error(rapier_http_conn_t *conn)
{
	rapier_ws_t *ws = conn->ws;
	rapier_ws_parser_t *p = &ws->parser;

	record_close(ws, p->error_code, p->error, strlen(p->error));
	if (!ws->close_sent) {
		send_close(conn, p->error_code, p->error, strlen(p->error));
	}
	end_websocket(conn);
}

/* The message as sent: failing the connection (1009, 1007) when it inflates too large, is no deflate data, or no UTF-8 text. */
static bool inflate_message(rapier_http_conn_t *conn, rapier_ws_message_t *msg)
{
	rapier_ws_parser_t *p = &conn->ws->parser;
	char *data;
	size_t len;
	int rc = rapier_ws_inflate_message(msg->data, msg->len, conn->server->cfg.websocket_max_message, &data, &len);

	free(msg->data);
	msg->data = NULL;
	if (rc == 0 && !msg->binary && !rapier_ws_utf8_valid(data, len)) {
		free(data);
		rapier_ws_parser_fail(p, RAPIER_WS_CLOSE_INVALID_DATA, "text message is not valid UTF-8");
	} else if (rc == -E2BIG) {
		rapier_ws_parser_fail(p, RAPIER_WS_CLOSE_TOO_BIG, "message larger than max_message once inflated");
	} else if (rc == -ENOMEM) {
		rapier_ws_parser_fail(p, RAPIER_WS_CLOSE_INTERNAL_ERROR, "out of memory");
	} else if (rc < 0) {
		rapier_ws_parser_fail(p, RAPIER_WS_CLOSE_INVALID_DATA, "compressed message is not deflate data");
	} else {
		msg->data = data;
		msg->len = len;
		return true;
	}
	on_protocol_error(conn);
	return false;
}

static int receive(rapier_http_conn_t *conn, uint64_t deadline_ns, rapier_ws_message_t *msg)
{
	rapier_ws_t *ws = conn->ws;
	int rc;

	for (;;) {
		if (ws->ended || conn->state != RAPIER_HTTP_CONN_WEBSOCKET) {
			mark_ended(conn);
			return 0;
		}
		switch (next_event(conn)) {
			case RAPIER_WS_MESSAGE:
				msg->data = rapier_ws_parser_take_message(&ws->parser, &msg->len);
				msg->binary = ws->parser.message_binary;
				if (ws->parser.message_compressed && !inflate_message(conn, msg)) {
					return 0;
				}
				return 1;
			case RAPIER_WS_PING:
				/* Unless we are closing: a pong after our close frame would break the protocol. */
				if (!ws->close_sent && (rc = send_frame(conn, RAPIER_WS_OP_PONG, ws->parser.control,
						ws->parser.control_len, false)) == -ECANCELED) {
					return rc;
				}
				break;
			case RAPIER_WS_PONG:
			case RAPIER_WS_NEED_MORE:
				break;
			case RAPIER_WS_CLOSE:
				on_close_frame(conn);
				return 0;
			case RAPIER_WS_ERROR:
				on_protocol_error(conn);
				return 0;
			case WS_GONE:
				rapier__http_conn_close(conn);
				return 0;
			case WS_WAIT:
				if ((rc = wait_readable(conn, deadline_ns)) < 0) {
					return rc;
				}
				break;
		}
	}
}

int rapier_ws_recv(rapier_http_conn_t *conn, int64_t timeout_ns, rapier_ws_message_t *msg)
{
	rapier_ws_t *ws = conn->ws;
	int rc;

	if (ws->receiving) {
		return -EBUSY;
	}
	ws->receiving = true;
	rapier_http_conn_addref(conn);
	rc = receive(conn, timeout_ns >= 0 ? rapier_now_ns() + (uint64_t) timeout_ns : 0, msg);
	ws->receiving = false;
	rapier_http_conn_release(conn);
	return rc;
}

/* Sending */

/* Our close frame is out: the peer has websocket_close_timeout to answer it (0: the next loop turn). */
static void arm_close_timer(rapier_http_conn_t *conn)
{
	int64_t timeout_ns = conn->server->cfg.websocket_close_timeout_ns;

	if (conn->state == RAPIER_HTTP_CONN_WEBSOCKET) {
		rapier__http_conn_set_timer(conn, timeout_ns > 0 ? timeout_ns : 1);
	}
}

/* A message worth compressing: as long as this, and not already compressed (media, archives) by the look of the result. */
#define WS_DEFLATE_MIN_LENGTH 128

int rapier_ws_send(rapier_http_conn_t *conn, rapier_ws_opcode_t opcode, const char *data, size_t len)
{
	char *deflated;
	size_t deflated_len;
	int rc;

	if (!rapier_ws_is_open(conn)) {
		return -EPIPE;
	}
	if (!conn->ws->deflate_bits || len < WS_DEFLATE_MIN_LENGTH || (opcode != RAPIER_WS_OP_TEXT && opcode != RAPIER_WS_OP_BINARY)
			|| rapier_ws_deflate_message(data, len, conn->ws->deflate_bits, conn->server->cfg.compress.gzip_level,
				&deflated, &deflated_len) < 0) {
		return send_frame(conn, opcode, data, len, false);
	}
	/* What does not shrink goes as it is: the receiver then has nothing to inflate. */
	rc = deflated_len < len ? send_frame(conn, opcode, deflated, deflated_len, true) : send_frame(conn, opcode, data, len, false);
	free(deflated);
	return rc;
}

int rapier_ws_close(rapier_http_conn_t *conn, uint16_t code, const char *reason, size_t reason_len)
{
	int rc;

	if (!rapier_ws_is_open(conn)) {
		return -EPIPE;
	}
	rc = send_close(conn, code, reason, reason_len);
	if (rc == 0) {
		arm_close_timer(conn);
	}
	return rc;
}

/* Ending from the loop */

/*
 * A close frame sent from the loop, where nothing may wait: whole at once
 * or not at all (a client whose socket cannot take 127 bytes is not
 * reading), and only between frames: with a coroutine in the middle of
 * one, the connection just closes. False when it closed.
 */
static bool close_from_loop(rapier_http_conn_t *conn, uint16_t code, const char *reason)
{
	uint8_t frame[RAPIER_WS_FRAME_HEADER_MAX + RAPIER_WS_CONTROL_MAX];
	size_t payload_len = rapier_ws_close_payload(frame + 2, code, reason, strlen(reason));
	size_t len = rapier_ws_frame_header(frame, RAPIER_WS_OP_CLOSE, payload_len) + payload_len;
	ssize_t n = -1;

	if (!conn->writing) {
		n = rapier__http_conn_send(conn, frame, len);
	}
	if (n != (ssize_t) len) {
		rapier__http_conn_close(conn);
		return false;
	}
	conn->ws->close_sent = true;
	return true;
}

void rapier__ws_going_away(rapier_http_conn_t *conn)
{
	if (conn->ws->close_sent) {
		return;   /* closing already, with its timeout */
	}
	if (close_from_loop(conn, RAPIER_WS_CLOSE_GOING_AWAY, "the server is stopping")) {
		arm_close_timer(conn);
	}
}

void rapier__ws_handler_done(rapier_http_conn_t *conn, bool failed)
{
	if (conn->state != RAPIER_HTTP_CONN_WEBSOCKET) {
		return;
	}
	if (conn->ws->close_sent || close_from_loop(conn, failed ? RAPIER_WS_CLOSE_INTERNAL_ERROR : RAPIER_WS_CLOSE_NORMAL,
			failed ? "the server's handler failed" : "")) {
		end_websocket(conn);
	}
}
