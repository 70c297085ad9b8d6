/*
 * The HTTP/1.1 server of one worker process: a listener, its connections,
 * request parsing (http_parser), and the response writer. It knows nothing
 * about PHP objects: a complete request is handed to the dispatch callback
 * (the binding, which runs the PHP handler in a coroutine), and the binding
 * answers through rapier_http_conn_respond/write/end.
 *
 * A connection handles one request at a time: pipelined requests wait in
 * the read buffer until the response before them has ended, which keeps
 * responses in request order as HTTP/1.1 requires.
 */
#ifndef RAPIER_HTTP_SERVER_H
#define RAPIER_HTTP_SERVER_H

#include <netinet/in.h>
#include <sys/socket.h>

#include "php.h"

#include "coroutine.h"
#include "http_date.h"
#include "http_compress.h"
#include "http_file_cache.h"
#include "http_limit.h"
#include "http_log.h"
#include "http_parser.h"
#include "http_response.h"
#include "netmask.h"
#include "http_static.h"
#include "http_tls.h"
#include "http_upload.h"
#include "list.h"
#include "loop.h"

typedef struct rapier_http_server_s rapier_http_server_t;
typedef struct rapier_http_conn_s rapier_http_conn_t;
typedef struct rapier_ws_s rapier_ws_t;
typedef struct rapier_h2_session_s rapier_h2_session_t;
typedef struct rapier_h2_stream_s rapier_h2_stream_t;

typedef struct {
	rapier_http_limits_t limits;
	int64_t read_timeout_ns;       /* a request must arrive whole within this (slowloris) */
	int64_t body_timeout_ns;       /* instead, once its head has: no body byte for this long; 0: read_timeout covers the body */
	int64_t keepalive_timeout_ns;  /* an idle keep-alive connection is closed after this */
	int64_t write_timeout_ns;      /* a client that accepts no bytes for this long is cut off */
	int tcp_keepalive;             /* seconds of silence before the kernel probes a peer (every third of it after,
	                                * 3 unanswered drop it); 0: off */
	uint32_t max_connections;      /* per worker; the listener pauses at the limit */
	uint32_t max_concurrency;      /* request handlers running at once per worker; 0: no limit */
	int64_t queue_timeout_ns;      /* a request waits this long for a handler slot, then gets a 503; 0: no limit */
	int64_t latency_target_ns;     /* adapt the limit below max_concurrency to this handler time (http_limit.h); 0: fixed */
	int64_t slowlog_timeout_ns;    /* a handler running this long has its backtrace logged (http_slowlog.h); 0: never */
	uint64_t max_requests;         /* the worker stops gracefully after this many; 0: never */
	int backlog;
	bool gzip;                     /* false: no response is compressed, whatever compress.codings says */
	rapier_compress_config_t compress;
	const char *server_name;       /* Server header value, or NULL for none */
	rapier_static_root_t *static_root; /* document_root, or NULL */
	bool static_precompressed;     /* serve "<file>.zst", ".br", ".gz" beside a static file, in compress's codings */
	uint64_t static_compress_max_size; /* static files up to this size are compressed on the fly; 0: never */
	size_t static_compress_cache;  /* compressed bytes of static files kept per worker; 0: compress every time */
	rapier_access_log_t *access_log;   /* or NULL */
	int worker_id;                     /* for the access log */
	const char *upload_tmp_dir;        /* spool multipart bodies to files here while they arrive; NULL: buffer them */
	uint64_t body_buffer_size;         /* other bodies past this size go to a file in upload_tmp_dir; 0: never */
	uint64_t max_body_discard;         /* a streamed body's rest its handler left unread, read and dropped up to
	                                      this size to keep the connection; 0: the connection closes instead */
	uint64_t upload_max_file_size;     /* PHP's upload_max_filesize for multipart files; 0: no limit */
	int64_t max_file_uploads;          /* PHP's max_file_uploads (0 with file_uploads off); < 0: no limit */
	uint64_t websocket_max_message;    /* a WebSocket message larger than this is refused with close 1009 */
	int64_t websocket_close_timeout_ns; /* a close frame sent, the peer's answer is awaited this long */
	bool websocket_compression;        /* agree to permessage-deflate when a client offers it (at compress.gzip_level) */
	rapier_http_tls_ctx_t *tls;        /* HTTPS: every connection starts with a TLS handshake; NULL: plain HTTP */
	int https_redirect_port;           /* requests on the plain listener beside HTTPS get a 308 to https on this
	                                    * port; 0: the application serves them */
	bool request_buffering;            /* a body arrives whole before the handler; false: read while it arrives (http_body.h) */
	bool early_hints;                  /* Response::earlyHints() sends its 103; off by default: nginx before 1.29,
	                                    * the usual front, takes a 103 for the response */
	bool http2;                        /* HTTP/2: h2 by ALPN over TLS, and prior knowledge (h2c) on plain HTTP */
	uint32_t http2_max_streams;        /* SETTINGS_MAX_CONCURRENT_STREAMS of each HTTP/2 connection */
	bool proxy_protocol;               /* every connection begins with a PROXY protocol header (http_proxy.c) */
	const char *real_ip_header;        /* lower case: the header trusted proxies name the client in; NULL: none */
	const char *real_scheme_header;    /* lower case: the header trusted proxies name the client's scheme in
	                                    * ("https" or "http"); NULL: none */
	bool real_ip_forwarded;            /* real_ip_header is RFC 7239's Forwarded: the client from its for= */
	bool real_scheme_forwarded;        /* real_scheme_header is Forwarded: the scheme from the client's hop's proto= */
	const rapier_netmask_t *real_ip_from; /* the proxies trusted to (a request's connection from one of them) */
	size_t real_ip_from_count;
} rapier_http_config_t;

/* A body past this many bytes, or of unknown size, is kept in a temporary file once it passes them. */
#define RAPIER_HTTP_DEFAULT_BODY_BUFFER_SIZE (1024 * 1024)
/* As Go's server: a rest this small costs less to read than a new connection (and TLS handshake) would. */
#define RAPIER_HTTP_DEFAULT_MAX_BODY_DISCARD (256 * 1024)

void rapier_http_config_default(rapier_http_config_t *cfg);

typedef enum {
	RAPIER_HTTP_CONN_READING,      /* waiting for (the rest of) a request */
	RAPIER_HTTP_CONN_QUEUED,       /* complete request waiting for a handler slot */
	RAPIER_HTTP_CONN_HANDLING,     /* the request handler runs */
	RAPIER_HTTP_CONN_WEBSOCKET,    /* upgraded: WebSocket frames (http_websocket.c); the handler runs on */
	RAPIER_HTTP_CONN_HTTP2,        /* speaks HTTP/2: each stream is a request of its own (http2.c) */
	RAPIER_HTTP_CONN_CLOSED,
} rapier_http_conn_state_t;

struct rapier_http_conn_s {
	rapier_http_server_t *server;
	int fd;
	rapier_io_t io;
	rapier_timer_t timer;
	uint64_t deadline_ns;          /* when the connection's current timeout is due (rapier_now_ns()), 0: none */
	rapier_http_conn_state_t state;
	uint32_t refcount;             /* the server while open, plus each PHP object holding it */
	rapier_coro_t *handler_co;     /* the coroutine running the request handler, or NULL */

	char *rbuf;                    /* bytes read and not yet parsed */
	size_t rlen;
	rapier_http_parser_t parser;
	bool parser_ready;
	rapier_upload_t *upload;       /* the current request's spooled body (multipart or raw), or NULL */
	struct rapier_http_body_s *body; /* the current request's body read while it arrives (http_body.h), or NULL */
	bool idle;                     /* no byte of the next request has arrived yet */
	bool body_timed;               /* its body is arriving under body_timeout, reset by each read */
	bool in_next_request;          /* conn_next_request() runs: a nested call only flags more work */
	bool next_request_pending;     /* ...and this is that flag */
	bool kept_alive;               /* has answered a request: idle means between keep-alive requests */
	bool lingering;                /* answered and shut down: discarding input until close */
	bool discarding;               /* answered: the rest of a body its handler left unread is read and dropped,
	                                  then the next request (max_body_discard) */
	uint64_t discarded;            /* ...so many body bytes so far */
	bool protocol_known;           /* its first bytes were seen: HTTP/1.x, or HTTP/2's preface */

	/* The response in progress. */
	bool response_started;         /* the head was sent */
	bool response_ended;
	bool response_chunked;
	bool response_keep_alive;
	bool response_no_body;         /* HEAD, 204, 304 */
	bool unread_waits;             /* bytes nobody reads now wait in the kernel (a pipelined request, a body's
	                                * rest): the client's leaving is watched with EPOLLRDHUP alone */
	int response_status;           /* of a streamed response whose head went out; 0 before */
	uint64_t response_bytes;       /* body bytes written (HTTP/2: taken by nghttp2) */
	uint64_t request_start_ns;     /* the request's first byte: the access log's duration, REQUEST_TIME_FLOAT */
	rapier_encoder_t *encoder;     /* of a streamed body being compressed, or NULL */
	rapier_coro_t *writer;         /* coroutine waiting for the socket to drain */
	bool writing;                  /* a coroutine is writing (http_writer.c): others queue */
	rapier_list_t write_queue;     /* coroutines waiting for their turn to write, oldest first */
	char *wbuf;                    /* bytes the loop must still write (error answers) */
	size_t wlen, wpos;
	bool close_after_write;
	bool answered_by_loop;         /* the loop answers this request itself: a static file, or a shed 503 */
	int file_fd;                   /* the static file being sent, or -1 */
	uint64_t file_offset, file_left;

	struct sockaddr_storage peer;
	socklen_t peer_len;
	char peer_text[48];            /* the peer's address as text, formatted once per connection */
	int peer_port;
	int local_port;                /* the port the client connected to */
	rapier_list_node_t link;              /* in the server's conns */
	rapier_list_node_t queued;            /* in the server's queue, waiting for a handler slot */
	rapier_list_node_t handling;          /* in the server's handlers while its handler runs, open or not */
	uint64_t queued_until_ns;             /* when waiting ends in a 503 (queue_timeout), rapier_now_ns() clock */
	uint64_t handler_start_ns;            /* when the handler was started, for latency_target and the slow log */
	rapier_timer_t slowlog_timer;         /* due slowlog_timeout after the handler started */
	rapier_http_tls_t *tls;               /* its TLS session (HTTPS), or NULL: plain, or lingering */
	bool tls_handshaking;                 /* the TLS handshake runs: no request byte yet */
	bool upgraded;                        /* its handler upgraded it to WebSocket: no longer holds a slot */
	bool via_plain_listener;              /* came to the plain-HTTP port beside HTTPS: no TLS */
	bool proxy_pending;                   /* its PROXY protocol header has not been read whole yet */
	bool client_named;                    /* this request's client is client_text, as real_ip_header says */
	uint16_t client_port;                 /* ...from this port, when the header says (Forwarded); else 0 */
	int8_t client_https;                  /* this request's client used HTTPS (1) or plain HTTP (0), as
	                                       * real_scheme_header or proxy_https says; -1: as the connection is */
	int8_t proxy_https;                   /* the PROXY header's PP2_TYPE_SSL: the client's connection to the
	                                       * balancer was TLS (1) or not (0); -1: not said */
	zend_array *proxy_vars;               /* the PROXY header's TLVs as server variables, or NULL (http_proxy.c);
	                                       * shared with the connection's HTTP/2 streams and requests */
	char client_text[48];

	uint16_t proxy_len;                   /* the header's bytes read so far, kept in proxy_buf */
	unsigned char *proxy_buf;             /* a header that came in pieces; NULL until one does */
	rapier_ws_t *ws;                      /* the WebSocket state once upgraded, or NULL */
	rapier_h2_session_t *h2;              /* an HTTP/2 connection's session, or NULL */
	rapier_h2_stream_t *h2s;              /* a request stream of an HTTP/2 connection, or NULL: the object
	                                       * stands for the stream, has no socket, and its parent holds one */
};

/* Called for each complete request; the binding starts the handler. */
typedef void (*rapier_http_dispatch_fn)(rapier_http_conn_t *conn, void *data);
/* Called once the server has stopped and every connection has closed. */
typedef void (*rapier_http_drained_fn)(rapier_http_server_t *server, void *data);
/* Called once when max_requests responses have ended; the server goes on serving. */
typedef void (*rapier_http_limit_fn)(rapier_http_server_t *server, void *data);
/* Called each time a counter in the server's stats has changed. */
typedef void (*rapier_http_stats_fn)(rapier_http_server_t *server, void *data);
/*
 * Called when the response of a handler still running was cut before it
 * ended: its client left, or a write failed or timed out. The connection is
 * closed by then.
 */
typedef void (*rapier_http_abort_fn)(rapier_http_conn_t *conn, void *data);

typedef struct {
	uint64_t requests;             /* responses ended */
	uint64_t accepted;
	uint32_t connections;          /* open now */
	uint32_t handling;             /* handlers running now */
	uint64_t shed;                 /* requests answered 503 after queue_timeout */
	uint64_t abandoned;            /* queued requests whose client left before a handler slot freed */
	uint64_t slow;                 /* requests the slow request log logged (slowlog_timeout) */
	uint64_t tls_handshake_failures; /* TLS handshakes that failed, plain HTTP to the HTTPS port included */
	uint64_t unread_bodies_dropped; /* bodies a handler left unread, read and dropped: the HTTP/1.1 connection
	                                 * served on, the HTTP/2 stream ended cleanly */
	uint64_t unread_bodies_closed; /* HTTP/1.1 connections closed for a body a handler left unread */
	uint64_t unread_bodies_reset;  /* HTTP/2 streams reset (NO_ERROR) for a body a handler left unread */
	uint32_t websockets;           /* WebSocket connections open now */
} rapier_http_stats_t;

/* A listening socket of a server; fd -1 when there is none. */
typedef struct {
	rapier_http_server_t *server;
	int fd;
	rapier_io_t io;
	bool listening;                /* io active (paused at max_connections) */
	bool plain;                    /* plain HTTP even when the server speaks HTTPS (http_port) */
	bool shared;                   /* other processes accept from this socket too, and it outlives ours */
} rapier_http_listener_t;

/* The port, and the plain-HTTP port beside HTTPS (rapier_http_server_add_plain_listener). */
#define RAPIER_HTTP_LISTENERS 2

struct rapier_http_server_s {
	rapier_http_config_t cfg;
	rapier_loop_t *loop;
	rapier_http_listener_t listeners[RAPIER_HTTP_LISTENERS];
	bool started;                  /* rapier_http_server_start(): accepting is allowed */
	bool draining;
	bool limit_reported;           /* on_limit was called */
	rapier_list_t conns;           /* every open connection */
	rapier_list_t handlers;        /* conns whose handler runs, including closed ones */
	rapier_list_t queue;           /* conns waiting for a handler slot, oldest first */
	rapier_timer_t queue_timer;    /* queue_timeout of the oldest queued request */
	rapier_http_limit_t limit;     /* the concurrency limit now; it moves only with latency_target */
	rapier_http_stats_t stats;
	rapier_http_dispatch_fn dispatch;
	void *dispatch_data;
	rapier_http_limit_fn on_limit; /* optional, set after init; gets dispatch_data; may be called deep
	                                * in a connection's processing, so it should only schedule */
	rapier_http_stats_fn on_stats; /* optional, set after init; gets dispatch_data; called before the
	                                * response it counts is written, so what it publishes is never
	                                * behind what a client has seen */
	rapier_http_abort_fn on_abort; /* optional, set after init; gets dispatch_data; called deep in a
	                                * write or an I/O callback, so it should only schedule */
	rapier_http_drained_fn on_drained;
	void *drained_data;
	rapier_http_date_cache_t date;
	rapier_encoder_pool_t encoders;
	rapier_file_cache_t file_cache; /* static files compressed on the fly */
	rapier_http_buf_t scratch;     /* answers made in C: errors, static files' heads */
};

/* The connection NODE (a node of a server's conns, or NULL) is the link of. */
static inline rapier_http_conn_t *rapier_http_conn_of(rapier_list_node_t *node)
{
	return node ? RAPIER_LIST_ENTRY(node, rapier_http_conn_t, link) : NULL;
}

/* The connection NODE (a node of a server's handlers, or NULL) is the handling node of. */
static inline rapier_http_conn_t *rapier_http_handler_of(rapier_list_node_t *node)
{
	return node ? RAPIER_LIST_ENTRY(node, rapier_http_conn_t, handling) : NULL;
}

/*
 * Creates a listening socket (SO_REUSEPORT so every worker binds its own
 * and the kernel balances connections). Returns the fd or -errno.
 */
int rapier_http_listen(const char *host, int port, int backlog);

/*
 * Whether a new server may take host:port: binds and listens without
 * SO_REUSEPORT, which fails with EADDRINUSE while anything listens there,
 * including another server whose listeners set SO_REUSEPORT (which would
 * otherwise share the port silently). Returns 0 or -errno.
 */
int rapier_http_check_port(const char *host, int port);

/*
 * Sets up a server for listen_fd on loop; the server owns listen_fd from now
 * on. Nothing is accepted until rapier_http_server_start(): connections wait
 * in the listen queue while the application gets ready (workerStart).
 */
void rapier_http_server_init(rapier_http_server_t *server, const rapier_http_config_t *cfg, rapier_loop_t *loop,
	int listen_fd, rapier_http_dispatch_fn dispatch, void *dispatch_data);
/*
 * Adds a plain-HTTP listener beside an HTTPS one (the server owns fd from
 * now on): its requests are redirected to HTTPS (cfg.https_redirect_port),
 * or dispatched as any other when that is 0. shared: other processes accept
 * from the same socket, which outlives this server's copy, so a drain leaves
 * the connections waiting there to them. Call before start.
 */
void rapier_http_server_add_plain_listener(rapier_http_server_t *server, int fd, bool shared);
void rapier_http_server_start(rapier_http_server_t *server);

/*
 * Graceful stop: close the listener, close idle connections, let running
 * handlers finish (their connections close after the response), then call
 * on_drained. rapier_http_server_abort() closes everything now.
 */
void rapier_http_server_drain(rapier_http_server_t *server, rapier_http_drained_fn on_drained, void *data);
void rapier_http_server_abort(rapier_http_server_t *server);
/* A fatal error ends the process: a last 500 for each request being handled, then everything closes. */
void rapier_http_server_fail(rapier_http_server_t *server);
void rapier_http_server_free(rapier_http_server_t *server);

/* The request being handled on conn (valid until the response ends). */
/*
 * The current request's spooled multipart body (its parts and temporary
 * files), handed over to the caller, who frees it with rapier_upload_free()
 * and free(); NULL when the body was not spooled.
 */
rapier_upload_t *rapier_http_conn_take_upload(rapier_http_conn_t *conn);

const rapier_http_request_t *rapier_http_conn_request(const rapier_http_conn_t *conn);

void rapier_http_conn_addref(rapier_http_conn_t *conn);
void rapier_http_conn_release(rapier_http_conn_t *conn);

/*
 * Sends the whole response: head (with its status and application headers)
 * and body, gzip-compressed when the request allows it. May suspend the
 * calling coroutine while the socket is full. Returns 0, or -errno when the
 * client is gone (the connection is then closed); -ECANCELED when the
 * coroutine was canceled while it waited (the connection is closed too: the
 * response cannot be completed).
 */
int rapier_http_conn_respond(rapier_http_conn_t *conn, rapier_http_head_t *head, const char *content_type,
	size_t content_type_len, const char *body, size_t body_len);

/*
 * Before the response's head: an interim response (103 Early Hints) with
 * fields, "Name: value\r\n" lines already validated. 1 when sent, 0 when
 * the client cannot take one (an HTTP/1.0 request) or early_hints is off, -errno when the
 * connection is gone (closed), as rapier_http_conn_respond().
 */
int rapier_http_conn_interim(rapier_http_conn_t *conn, int status, const rapier_http_buf_t *fields);

/* Streams: sends the head (chunked) on first use, then one chunk. */
int rapier_http_conn_write(rapier_http_conn_t *conn, rapier_http_head_t *head, const char *content_type,
	size_t content_type_len, const char *data, size_t len);
/* Ends a streamed response (the last chunk), with trailer fields when trailers holds some (may be NULL). */
int rapier_http_conn_end_stream(rapier_http_conn_t *conn, const rapier_http_buf_t *trailers);

/*
 * Sends length bytes of a file from offset as the whole response, with
 * sendfile(); a whole file (version is its fstat()) whose content type
 * calls for it goes compressed instead, as a body would, from the worker's
 * cache of compressed files when its size allows (static_compress_max_size).
 */
int rapier_http_conn_sendfile(rapier_http_conn_t *conn, rapier_http_head_t *head, const char *content_type,
	size_t content_type_len, int fd, uint64_t offset, uint64_t length, const rapier_file_version_t *version);

/*
 * The handler has finished: answers 500 if it never responded (or aborts
 * a half-sent response), then reads the next request or closes.
 */
void rapier_http_conn_handler_done(rapier_http_conn_t *conn, bool failed);

/* Whether the response can still be written (not ended, client not gone). */
bool rapier_http_conn_writable(const rapier_http_conn_t *conn);

/* The TLS session the request came through (its HTTP/2 connection's for a stream), or NULL. */
rapier_http_tls_t *rapier_http_conn_tls(const rapier_http_conn_t *conn);

/* "a.b.c.d" or IPv6 text of the peer (valid while conn lives), and its port. */
const char *rapier_http_conn_peer(const rapier_http_conn_t *conn, int *port);

#endif
