/*
 * WebSocket connections (RFC 6455) of the HTTP server: the handshake, then
 * messages both ways on the connection the request came on.
 *
 * The request's handler upgrades its connection and goes on running in its
 * coroutine for as long as it talks WebSocket; the connection no longer
 * counts against the handler slots (concurrency), but the server's stop
 * still waits for the handler to return. Reading happens in the coroutine
 * that receives (rapier_ws_recv), not in the loop: nothing is read, nor
 * buffered, while nobody waits for a message, and a client that sends
 * faster than the application receives fills its own socket, not the
 * worker's memory. Pings are answered and the close handshake is done
 * inside rapier_ws_recv(). Any coroutine may send; frames never interleave
 * (the connection's write turn, http_writer.c).
 */
#ifndef RAPIER_HTTP_WEBSOCKET_H
#define RAPIER_HTTP_WEBSOCKET_H

#include "http_server.h"
#include "websocket_frame.h"

struct rapier_ws_s {
	rapier_ws_parser_t parser;
	rapier_coro_t *reader;         /* the coroutine waiting for bytes in rapier_ws_recv(), or NULL */
	bool receiving;                /* a coroutine is in rapier_ws_recv() */
	char *ibuf;                    /* bytes read and not yet parsed (behind a message returned before them) */
	size_t ilen, ipos;
	bool close_sent;               /* our close frame went out: nothing more may be sent */
	bool close_received;           /* the peer's close frame arrived */
	bool ended;                    /* the connection has left WebSocket mode (closed or lingering) */
	int deflate_bits;              /* permessage-deflate agreed: our compressor's window (9..15); 0: not */
	uint16_t close_code;           /* how it ended: the peer's code, ours on a protocol error, 1006 without a close */
	size_t close_reason_len;
	char close_reason[RAPIER_WS_CLOSE_REASON_MAX];
};

/* A received message: data is malloc'ed (NULL when empty); the caller frees it. */
typedef struct {
	char *data;
	size_t len;
	bool binary;
} rapier_ws_message_t;

/*
 * Checks that conn's request is a WebSocket handshake (RFC 6455 4.2.1):
 * GET, HTTP/1.1 or later, Upgrade: websocket, Connection: upgrade, a
 * Sec-WebSocket-Key of 16 bytes in base64, Sec-WebSocket-Version: 13.
 * Returns 0 with accept filled, or the status to refuse it with (400, or
 * 426 for a version other than 13, which must be answered with
 * "Sec-WebSocket-Version: 13") and *why set to a static explanation.
 */
int rapier_ws_handshake_check(const rapier_http_request_t *req, char accept[RAPIER_WS_ACCEPT_LEN + 1], const char **why);

/* Whether the client offered subprotocol PROTOCOL in Sec-WebSocket-Protocol. */
bool rapier_ws_protocol_offered(const rapier_http_request_t *req, const char *protocol, size_t len);

/*
 * Answers the handshake with 101 (head's application headers included,
 * plus Sec-WebSocket-Protocol when protocol is not NULL) and turns conn into
 * a WebSocket connection: the response has ended, the handler's slot is
 * free, the access log has its 101. 0, or -errno with the connection closed.
 */
int rapier_http_conn_upgrade(rapier_http_conn_t *conn, rapier_http_head_t *head, const char *accept,
	const char *protocol, size_t protocol_len);

/* Whether messages may still be sent: upgraded, no close frame sent or received, not closed. */
bool rapier_ws_is_open(const rapier_http_conn_t *conn);

/*
 * Waits for the next message, answering pings and closes on the way.
 * Returns 1 with *msg filled; 0 once the connection has ended (the close
 * handshake, a protocol error answered with its close code, the peer gone):
 * conn->ws->close_code says how; -ETIMEDOUT after timeout_ns (-1: none);
 * -ECANCELED; -EBUSY when another coroutine is receiving (one at a time).
 */
int rapier_ws_recv(rapier_http_conn_t *conn, int64_t timeout_ns, rapier_ws_message_t *msg);

/*
 * Sends one frame (a message, or a ping or pong of at most 125 bytes),
 * waiting while the socket is full. 0; -EPIPE when the WebSocket is closing
 * or closed, or the client has gone; -ECANCELED.
 */
int rapier_ws_send(rapier_http_conn_t *conn, rapier_ws_opcode_t opcode, const char *data, size_t len);

/*
 * Starts the close handshake: sends a close frame with code and reason.
 * The peer's answer is read by rapier_ws_recv(), which then returns 0;
 * the connection closes when it comes, or after websocket_close_timeout.
 * Returns as rapier_ws_send().
 */
int rapier_ws_close(rapier_http_conn_t *conn, uint16_t code, const char *reason, size_t reason_len);

/* For http_server.c. */

/* The connection's events while upgraded: wake the reader, the writer. */
void rapier__ws_on_io(rapier_http_conn_t *conn, uint32_t events);
/* The server stops: close 1001 to the client, whose answer ends the handler's rapier_ws_recv(). */
void rapier__ws_going_away(rapier_http_conn_t *conn);
/* The handler has returned: a close (1000, or 1011 after an uncaught exception) if none was sent, then the end. */
void rapier__ws_handler_done(rapier_http_conn_t *conn, bool failed);
/* The connection has closed: the reader wakes and finds it ended. */
void rapier__ws_conn_closed(rapier_http_conn_t *conn);
/* The interest of conn's watcher from who waits: the reader, the writer. */
void rapier__ws_watch(rapier_http_conn_t *conn);
void rapier__ws_free(rapier_http_conn_t *conn);

#endif
