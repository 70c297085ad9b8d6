/*
 * HTTP/2 connections: the nghttp2 session of each, the request streams
 * as they arrive, and the frames going out (see http2.h).
 *
 * Reading happens in the loop, as for HTTP/1.1: bytes go to
 * nghttp2_session_mem_recv(), whose callbacks gather each stream's request
 * into the stream's own connection object; a whole request is dispatched
 * once mem_recv() has returned, never from inside nghttp2. Writing is
 * pulled: nghttp2_session_mem_send() serializes what is due, frames are
 * gathered into one buffer per connection and sent with one call, and
 * what the socket does not take waits for it to drain. A response body is
 * read by nghttp2 from the stream (rapier_h2_stream_t's sources) as flow
 * control allows; the coroutine that wrote it waits until it has all been
 * taken, so it is never copied and a slow client holds back its writer as
 * on HTTP/1.1.
 */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include "php_rapier.h"

#include <ctype.h>
#include <errno.h>
#include <nghttp2/nghttp2.h>
#include <unistd.h>

#include "http2.h"
#include "http_server.h"
#include "http_server_internal.h"
#include "http_body.h"
#include "http_slowlog.h"

/* Frames gathered before one send: a few DATA frames of the default 16 KiB. */
#define H2_SEND_CHUNK (64 * 1024)

/* A stream's receive window: an upload of a few MB goes at loopback speed without a WINDOW_UPDATE per 64 KiB. */
#define H2_STREAM_WINDOW (1 << 20)
#define H2_CONN_WINDOW (16 << 20)

/*
 * The rest of a request body nobody will read, once its response is out:
 * up to this much is let in and dropped; a larger or open-ended rest is
 * refused with RST_STREAM NO_ERROR (RFC 9113 8.1). Some clients (curl 7.88)
 * count a reset after a whole response as a failed transfer.
 */
#define H2_DRAIN_MAX (64 * 1024)

/* Reads per connection event, as for HTTP/1.1 connections. */
#define H2_READS_PER_EVENT 4

typedef enum { PSEUDO_METHOD, PSEUDO_PATH, PSEUDO_AUTHORITY, PSEUDO_SCHEME, PSEUDO_COUNT } pseudo_t;

/* A request header field: offsets into the stream's arena, each string NUL-terminated there. */
typedef struct {
	size_t name, name_len;
	size_t value, value_len;
} field_t;

struct rapier_h2_session_s {
	rapier_http_conn_t *conn;      /* the HTTP/2 connection */
	nghttp2_session *ng;
	rapier_list_t streams;         /* stream objects whose nghttp2 stream is open (their link) */
	uint32_t live;                 /* stream objects not yet freed, handlers of reset streams included */
	rapier_http_conn_t **ready;    /* requests complete during mem_recv(), dispatched after it */
	size_t ready_len, ready_cap;
	char *out;                     /* frames not yet taken by the socket */
	size_t out_len, out_pos, out_cap;
	rapier_defer_t flush_later;    /* h2_flush(): the frames of this pass's responses go in one send */
	bool flushing;                 /* h2_flush_now() runs: a nested call leaves the work to it */
	bool held;                     /* frames wait for one flush after: in mem_recv(), or a failing worker's answers */
	bool going_away;               /* GOAWAY submitted: close once the streams are done */
};

struct rapier_h2_stream_s {
	rapier_http_conn_t *conn;      /* the stream's own connection object */
	rapier_http_conn_t *parent;    /* the connection it came on, held until this is freed */
	int32_t id;
	bool open;                     /* nghttp2 still has the stream */
	bool request_done;             /* END_STREAM came: the request is whole */
	bool rejected;                 /* answered (413, 431...) before its request was whole: the rest is dropped */
	bool deferred;                 /* the body reader ran dry; resume it when bytes come */
	bool end_sent;                 /* the response's last frame went out */
	int error_status;              /* a limit the request broke, answered at the end of its headers */
	const char *error_reason;

	rapier_http_buf_t arena;       /* header names and values */
	field_t *fields;
	size_t field_count, field_cap;
	size_t header_bytes;           /* as max_header_size counts them: "name: value\r\n" */
	bool has_pseudo[PSEUDO_COUNT];
	field_t pseudo[PSEUDO_COUNT];
	rapier_http_header_t *headers; /* the request's, pointing into arena */
	rapier_http_buf_t body;

	/* The response body, read by nghttp2 in this order. */
	rapier_http_buf_t own;         /* copied bytes: loop answers, writes made where no wait is possible */
	size_t own_pos;
	const char *out;               /* the waiting writer's bytes, not copied */
	size_t out_len;
	int file_fd;                   /* a file after those, or -1 */
	bool file_owned;               /* a loop answer's file, closed with the stream (else the writer's) */
	uint64_t file_off, file_left;
	bool eof;                      /* the body ends after these */
	rapier_http_buf_t trailers;    /* "Name: value\r\n" lines sent as HEADERS after the body, or empty */
};

static char read_buffer[64 * 1024];

static void h2_flush(rapier_h2_session_t *h2);
static void h2_flush_now(rapier_h2_session_t *h2);
static int submit_head(rapier_http_conn_t *conn, const rapier_http_head_t *head, const struct iovec *block, bool more);
static int submit_trailers(rapier_http_conn_t *conn);

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
static void h2_flush(rapier_h2_session_t *h2)
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

/* The stream's writer waits no more: its bytes were taken, or will never be. */
static void wake_writer(rapier_http_conn_t *conn, rapier_wake_t why)
{
	rapier_coro_t *writer = conn->writer;

	if (writer) {
		conn->writer = NULL;
		rapier_coro_wake(writer, why);
	}
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
	h2_flush(h2);
}

/* Answered before its request was whole: the rest of it is dropped, and so is what was spooled of it. */
static void refuse(rapier_http_conn_t *conn, int status, const char *reason)
{
	conn->h2s->rejected = true;
	rapier__http_drop_upload(conn);
	rapier__http_answer_error(conn, status, reason);
}

static void stream_timeout(rapier_http_conn_t *conn)
{
	rapier_h2_stream_t *s = conn->h2s;

	if (conn->state != RAPIER_HTTP_CONN_READING || s->request_done || conn->response_started) {
		return;
	}
	/* Part of a request arrived, the rest did not in time. */
	refuse(conn, 408, "the request did not arrive in time");
}

static void on_stream_timer(rapier_timer_t *timer)
{
	rapier_http_conn_t *conn = timer->data;

	rapier_http_conn_addref(conn);
	stream_timeout(conn);
	rapier_http_conn_release(conn);
}

/* The request as it arrives */

static const struct {
	const char *name;
	int method;
} methods[] = {
#define H2_METHOD(num, name, string) { #string, HTTP_##name },
	HTTP_METHOD_MAP(H2_METHOD)
#undef H2_METHOD
};

/* The llhttp method of name, or -1 for one llhttp does not know (as HTTP/1.1 would refuse it). */
static int method_of(const char *name, size_t len, const char **static_name)
{
	for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
		if (strlen(methods[i].name) == len && memcmp(methods[i].name, name, len) == 0) {
			*static_name = methods[i].name;
			return methods[i].method;
		}
	}
	return -1;
}

/* Appends a NUL-terminated copy to the arena; its offset, or -1 when the arena is full. */
static ssize_t arena_put(rapier_h2_stream_t *s, const uint8_t *data, size_t len)
{
	size_t at = s->arena.len;

	if (rapier_http_buf_reserve(&s->arena, len + 1) != 0) {
		return -1;
	}
	memcpy(s->arena.data + at, data, len);
	s->arena.data[at + len] = '\0';
	s->arena.len += len + 1;
	return (ssize_t) at;
}

static void reject(rapier_h2_stream_t *s, int status, const char *reason)
{
	if (s->error_status == 0) {
		s->error_status = status;
		s->error_reason = reason;
	}
}

static void add_field(rapier_h2_stream_t *s, const uint8_t *name, size_t name_len, const uint8_t *value,
	size_t value_len)
{
	const rapier_http_limits_t *limits = &s->conn->server->cfg.limits;
	field_t f = { .name_len = name_len, .value_len = value_len };
	ssize_t n, v;

	/* As the HTTP/1.1 parser does, a long target is told apart from large fields. */
	if (name_len == 5 && memcmp(name, ":path", 5) == 0 && value_len > limits->max_url_size) {
		reject(s, 414, "the request target is longer than the limit");
		return;
	}
	s->header_bytes += name_len + value_len + 4;
	if (s->header_bytes > limits->max_header_size) {
		reject(s, 431, "the request's header fields are larger than max_header_size");
		return;
	}
	if (name_len > 0 && name[0] == ':') {
		static const char *const names[PSEUDO_COUNT] = { ":method", ":path", ":authority", ":scheme" };
		for (int i = 0; i < PSEUDO_COUNT; i++) {
			if (strlen(names[i]) == name_len && memcmp(names[i], name, name_len) == 0) {
				if ((v = arena_put(s, value, value_len)) < 0) {
					reject(s, 431, "the request's header fields are too large");
					return;
				}
				s->pseudo[i].value = (size_t) v;
				s->pseudo[i].value_len = value_len;
				s->has_pseudo[i] = true;
			}
		}
		return;
	}
	if (s->field_count + 1 >= limits->max_header_count) {
		/* The Host field HTTP/1.1 would carry counts too. */
		reject(s, 431, "the request has more header fields than max_header_count");
		return;
	}
	if ((n = arena_put(s, name, name_len)) < 0 || (v = arena_put(s, value, value_len)) < 0) {
		reject(s, 431, "the request's header fields are too large");
		return;
	}
	f.name = (size_t) n;
	f.value = (size_t) v;
	if (s->field_count == s->field_cap) {
		s->field_cap = s->field_cap ? s->field_cap * 2 : 16;
		s->fields = erealloc(s->fields, s->field_cap * sizeof(*s->fields));
	}
	s->fields[s->field_count++] = f;
}

static bool field_named(const rapier_h2_stream_t *s, const field_t *f, const char *name)
{
	return f->name_len == strlen(name) && memcmp(s->arena.data + f->name, name, f->name_len) == 0;
}

/*
 * HTTP/2 may split Cookie into one field per pair (RFC 9113 8.2.3); the
 * application sees them joined with "; ", as one HTTP/1.1 field would
 * carry them, where the first of them was.
 */
static void join_cookies(rapier_h2_stream_t *s)
{
	size_t count = 0, len = 0, kept = 0, at;
	bool placed = false;
	char *p;

	for (size_t i = 0; i < s->field_count; i++) {
		if (field_named(s, &s->fields[i], "cookie")) {
			len += (count++ ? 2 : 0) + s->fields[i].value_len;
		}
	}
	if (count < 2 || rapier_http_buf_reserve(&s->arena, len + 1) != 0) {
		return;
	}
	at = s->arena.len;
	p = s->arena.data + at;
	for (size_t i = 0; i < s->field_count; i++) {
		field_t f = s->fields[i];

		if (!field_named(s, &f, "cookie")) {
			s->fields[kept++] = f;
			continue;
		}
		if (placed) {
			memcpy(p, "; ", 2);
			p += 2;
		}
		memcpy(p, s->arena.data + f.value, f.value_len);
		p += f.value_len;
		if (!placed) {
			f.value = at;
			f.value_len = len;
			s->fields[kept++] = f;
			placed = true;
		}
	}
	*p = '\0';
	s->arena.len += len + 1;
	s->field_count = kept;
}

/* The request's fields for the application: the Host field from :authority when there is none. */
static void build_headers(rapier_http_conn_t *conn)
{
	rapier_h2_stream_t *s = conn->h2s;
	rapier_http_request_t *req = &conn->parser.req;
	const char *arena = s->arena.data;
	bool has_host = false;
	size_t n = 0;

	s->headers = emalloc((s->field_count + 1) * sizeof(*s->headers));
	for (size_t i = 0; i < s->field_count; i++) {
		const field_t *f = &s->fields[i];
		s->headers[n].name = arena + f->name;
		s->headers[n].name_len = f->name_len;
		s->headers[n].value = arena + f->value;
		s->headers[n].value_len = f->value_len;
		has_host |= field_named(s, f, "host");
		n++;
	}
	if (!has_host && s->has_pseudo[PSEUDO_AUTHORITY]) {
		s->headers[n].name = "host";
		s->headers[n].name_len = 4;
		s->headers[n].value = arena + s->pseudo[PSEUDO_AUTHORITY].value;
		s->headers[n].value_len = s->pseudo[PSEUDO_AUTHORITY].value_len;
		n++;
	}
	req->headers = s->headers;
	req->header_count = n;
}

/* The request line's parts from the pseudo-header fields; 0, or the status that refuses it and why. */
static int build_request_line(rapier_http_conn_t *conn, const char **reason)
{
	rapier_h2_stream_t *s = conn->h2s;
	rapier_http_request_t *req = &conn->parser.req;
	const rapier_http_limits_t *limits = &conn->server->cfg.limits;
	const char *target;

	if (!s->has_pseudo[PSEUDO_METHOD] || !s->has_pseudo[PSEUDO_PATH] || s->pseudo[PSEUDO_PATH].value_len == 0) {
		*reason = "CONNECT and requests without :path are not served";
		return 501;
	}
	target = s->arena.data + s->pseudo[PSEUDO_PATH].value;
	req->target = target;
	req->target_len = s->pseudo[PSEUDO_PATH].value_len;
	req->path = target;
	req->path_len = strcspn(target, "?#");
	req->query = NULL;
	req->query_len = 0;
	if (target[req->path_len] == '?') {
		req->query = target + req->path_len + 1;
		req->query_len = strcspn(req->query, "#");
	}
	req->method = method_of(s->arena.data + s->pseudo[PSEUDO_METHOD].value, s->pseudo[PSEUDO_METHOD].value_len,
		&req->method_name);
	if (req->method < 0 || req->method == HTTP_CONNECT) {
		/* Answered 501 at once; the access log names the method as it came. */
		req->method = HTTP_GET;
		req->method_name = s->arena.data + s->pseudo[PSEUDO_METHOD].value;
		*reason = "unknown method";
		return 501;
	}
	if (req->target_len > limits->max_url_size) {
		*reason = "the request target is longer than the limit";
		return 414;
	}
	return 0;
}

/* With body_timeout, the stream's body is bounded by its progress (as on HTTP/1.1), not by read_timeout. */
static void restart_body_timer(rapier_http_conn_t *conn)
{
	int64_t timeout_ns = conn->server->cfg.body_timeout_ns;

	if (timeout_ns > 0) {
		rapier_timer_start(conn->server->loop, &conn->timer, (uint64_t) timeout_ns, 0);
	}
}

/* Expect: 100-continue: a client waiting for it before the body gets the interim answer. */
static void send_continue(rapier_http_conn_t *conn)
{
	static const nghttp2_nv cont[] = { { (uint8_t *) ":status", (uint8_t *) "100", 7, 3, NGHTTP2_NV_FLAG_NONE } };
	rapier_h2_stream_t *s = conn->h2s;

	nghttp2_submit_headers(s->parent->h2->ng, NGHTTP2_FLAG_NONE, s->id, NULL, cont, 1, NULL);
}

static rapier_h2_session_t *h2_of(rapier_http_conn_t *conn)
{
	return conn->h2s->parent->h2;
}

/* Dispatched once mem_recv() returns. */
static void make_ready(rapier_h2_session_t *h2, rapier_http_conn_t *conn)
{
	if (h2->ready_len == h2->ready_cap) {
		h2->ready_cap = h2->ready_cap ? h2->ready_cap * 2 : 8;
		h2->ready = erealloc(h2->ready, h2->ready_cap * sizeof(*h2->ready));
	}
	rapier_http_conn_addref(conn);
	h2->ready[h2->ready_len++] = conn;
}

/* The end of the request's header block: its parts are laid out for the application. */
static void headers_done(rapier_http_conn_t *conn, bool end_stream)
{
	rapier_h2_stream_t *s = conn->h2s;
	rapier_http_request_t *req = &conn->parser.req;
	const char *reason = NULL;
	const char *length;
	int status;

	join_cookies(s);
	if ((status = build_request_line(conn, &reason)) != 0) {
		reject(s, status, reason);
	}
	build_headers(conn);
	/* nghttp2 checked that it is a number, and checks the DATA frames against it. */
	if ((length = rapier_http_request_header(req, "content-length", NULL)) != NULL) {
		req->content_length = (int64_t) strtoull(length, NULL, 10);
	}
	if (req->content_length > 0 && (uint64_t) req->content_length > conn->server->cfg.limits.max_body_size) {
		reject(s, 413, "the request body is larger than max_body_size");
	}
	if (s->error_status) {
		refuse(conn, s->error_status, s->error_reason);
		return;
	}
	if (!end_stream && rapier__http_streams_body(conn)) {
		/* request_buffering off: the handler starts now and reads the body as DATA comes (http_body.h). */
		if (rapier__http_body_start(conn, rapier_http_request_header(req, "expect", NULL) != NULL) == NULL) {
			refuse(conn, 503, "out of memory");
			return;
		}
		rapier_timer_stop(conn->server->loop, &conn->timer);
		make_ready(h2_of(conn), conn);
		return;
	}
	if (!end_stream) {
		/* A multipart or large body goes to upload_tmp_dir while it arrives, as on HTTP/1.1. */
		rapier__http_spool_upload(conn);
		restart_body_timer(conn);
		if (rapier_http_request_header(req, "expect", NULL) != NULL) {
			send_continue(conn);
		}
	}
}

/* END_STREAM: the request is whole; dispatched once mem_recv() returns. */
static void request_done(rapier_h2_session_t *h2, rapier_http_conn_t *conn)
{
	rapier_h2_stream_t *s = conn->h2s;
	rapier_http_request_t *req = &conn->parser.req;

	s->request_done = true;
	rapier_timer_stop(conn->server->loop, &conn->timer);
	if (conn->body) {
		/* Dispatched at its head already. */
		rapier__http_body_end(conn->body, 0, NULL);
		return;
	}
	if (s->rejected || conn->state != RAPIER_HTTP_CONN_READING) {
		return;
	}
	if (conn->upload && rapier_upload_finish(conn->upload) != 0) {
		refuse(conn, conn->upload->status, conn->upload->error);
		return;
	}
	req->body = s->body.len ? s->body.data : NULL;
	req->body_len = s->body.len;
	make_ready(h2, conn);
}

static void dispatch_ready(rapier_h2_session_t *h2)
{
	for (size_t i = 0; i < h2->ready_len; i++) {
		rapier_http_conn_t *conn = h2->ready[i];

		if (conn->state == RAPIER_HTTP_CONN_READING) {
			rapier__http_dispatch(conn);
		}
		rapier_http_conn_release(conn);
	}
	h2->ready_len = 0;
}

/*
 * Whether the unread rest of a request whose response has ended is refused
 * rather than dropped (H2_DRAIN_MAX): always for a request the server
 * refused, or whose client still waits for a 100 Continue.
 */
static bool rest_refused(const rapier_http_conn_t *conn)
{
	const rapier_http_request_t *req = &conn->parser.req;

	return conn->h2s->rejected || req->content_length < 0 || req->body_received > (uint64_t) req->content_length
		|| (uint64_t) req->content_length - req->body_received > H2_DRAIN_MAX;
}

int rapier__h2_body_pull(rapier_http_conn_t *conn)
{
	rapier_h2_stream_t *s = conn->h2s;

	if (conn->body->continue_due) {
		conn->body->continue_due = false;
		if (s->open && !conn->response_started) {
			send_continue(conn);
			h2_flush(h2_of(conn));
		}
	}
	return 0;
}

void rapier__http_body_taken(rapier_http_conn_t *conn, size_t n)
{
	rapier_h2_stream_t *s = conn->h2s;

	/* A closed stream's bytes still count for its connection's window, while that is open. */
	if (s == NULL || n == 0 || s->parent->h2 == NULL) {
		return;
	}
	nghttp2_session_consume(h2_of(conn)->ng, s->id, n);
	h2_flush(h2_of(conn));
}

void rapier__h2_body_detached(rapier_http_conn_t *conn, bool continue_unsent)
{
	rapier_h2_stream_t *s = conn->h2s;

	if (continue_unsent) {
		/* Its client was never asked for the body: it is not to send it. */
		s->rejected = true;
	}
	/* The handler returned after its response ended and before the body did: nobody wants the rest. */
	if (conn->state != RAPIER_HTTP_CONN_CLOSED && s->open && s->end_sent && !s->request_done && rest_refused(conn)) {
		nghttp2_submit_rst_stream(h2_of(conn)->ng, NGHTTP2_FLAG_NONE, s->id, NGHTTP2_NO_ERROR);
		h2_flush(h2_of(conn));
	}
}

/* nghttp2's callbacks */

static rapier_http_conn_t *stream_conn(nghttp2_session *ng, int32_t id)
{
	return nghttp2_session_get_stream_user_data(ng, id);
}

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

static int on_header(nghttp2_session *ng, const nghttp2_frame *frame, const uint8_t *name, size_t name_len,
	const uint8_t *value, size_t value_len, uint8_t flags, void *user_data)
{
	rapier_http_conn_t *conn = stream_conn(ng, frame->hd.stream_id);

	/* Trailer fields (a second HEADERS) are not passed on, as on HTTP/1.1. */
	if (conn == NULL || frame->headers.cat != NGHTTP2_HCAT_REQUEST || conn->h2s->error_status) {
		return 0;
	}
	add_field(conn->h2s, name, name_len, value, value_len);
	return 0;
}

/* DATA of a body read while it arrives: kept for its reader, who checks it against the body's limit. */
static void body_data(rapier_http_conn_t *conn, const uint8_t *data, size_t len)
{
	rapier_http_body_t *body = conn->body;

	conn->parser.req.body_received += len;
	if (body->error || rapier__http_body_append(body, (const char *) data, len) != 0) {
		rapier__http_body_end(body, 503, "out of memory");
		nghttp2_session_consume(h2_of(conn)->ng, conn->h2s->id, len);
	}
}

static int on_data_chunk(nghttp2_session *ng, uint8_t flags, int32_t id, const uint8_t *data, size_t len,
	void *user_data)
{
	rapier_http_conn_t *conn = stream_conn(ng, id);
	rapier_http_request_t *req;
	int status;

	/*
	 * The window opens by what was read: a body read while it arrives is
	 * read by its handler (rapier__http_body_taken()); the rest here, at once.
	 */
	if (conn && conn->body) {
		body_data(conn, data, len);
		return 0;
	}
	nghttp2_session_consume(ng, id, len);
	if (conn == NULL || conn->h2s->rejected || conn->state != RAPIER_HTTP_CONN_READING) {
		return 0;
	}
	req = &conn->parser.req;
	if (len > conn->server->cfg.limits.max_body_size - req->body_received) {
		refuse(conn, 413, "the request body is larger than max_body_size");
		return 0;
	}
	req->body_received += len;
	restart_body_timer(conn);
	if (conn->upload) {
		if ((status = rapier_upload_feed(conn->upload, (const char *) data, len)) != 0) {
			refuse(conn, status, conn->upload->error);
		}
	} else if (rapier_http_buf_append(&conn->h2s->body, data, len) != 0) {
		refuse(conn, 413, "the request body is larger than max_body_size");
	}
	return 0;
}

static int on_frame_recv(nghttp2_session *ng, const nghttp2_frame *frame, void *user_data)
{
	rapier_h2_session_t *h2 = user_data;
	rapier_http_conn_t *conn;

	if (frame->hd.type != NGHTTP2_HEADERS && frame->hd.type != NGHTTP2_DATA) {
		return 0;
	}
	if ((conn = stream_conn(ng, frame->hd.stream_id)) == NULL) {
		return 0;
	}
	if (frame->hd.type == NGHTTP2_HEADERS && frame->headers.cat == NGHTTP2_HCAT_REQUEST) {
		headers_done(conn, frame->hd.flags & NGHTTP2_FLAG_END_STREAM);
	}
	if (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) {
		request_done(h2, conn);
	}
	return 0;
}

static int on_frame_send(nghttp2_session *ng, const nghttp2_frame *frame, void *user_data)
{
	rapier_http_conn_t *conn;

	if ((frame->hd.type != NGHTTP2_HEADERS && frame->hd.type != NGHTTP2_DATA)
			|| !(frame->hd.flags & NGHTTP2_FLAG_END_STREAM)
			|| (conn = stream_conn(ng, frame->hd.stream_id)) == NULL) {
		return 0;
	}
	conn->h2s->end_sent = true;
	/*
	 * Answered before the request was whole (413, 408...): the client may
	 * stop sending it (RFC 9113 8.1). A handler reading its body as it
	 * arrives may go on reading after its response: it is told when the
	 * handler returns (rapier__h2_body_detached()).
	 */
	if (!conn->h2s->request_done && conn->body == NULL && rest_refused(conn)) {
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
	rapier_http_conn_t *conn = stream_conn(ng, id);
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

/* Reads the response body for nghttp2: copied bytes, then the writer's, then the file. */
static ssize_t read_body(nghttp2_session *ng, int32_t id, uint8_t *buf, size_t length, uint32_t *flags,
	nghttp2_data_source *source, void *user_data)
{
	/* Looked up, not source->ptr: a stream reset from our side may be gone before nghttp2 drops its data. */
	rapier_http_conn_t *conn = stream_conn(ng, id);
	rapier_h2_stream_t *s;
	size_t n = 0;

	if (conn == NULL) {
		return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
	}
	s = conn->h2s;

	if (s->own_pos < s->own.len) {
		n = s->own.len - s->own_pos < length ? s->own.len - s->own_pos : length;
		memcpy(buf, s->own.data + s->own_pos, n);
		s->own_pos += n;
		if (s->own_pos == s->own.len) {
			s->own_pos = 0;
			rapier_http_buf_reset(&s->own);
		}
	}
	if (n < length && s->out_len > 0) {
		size_t take = s->out_len < length - n ? s->out_len : length - n;
		memcpy(buf + n, s->out, take);
		s->out += take;
		s->out_len -= take;
		n += take;
		if (s->out_len == 0) {
			wake_writer(conn, RAPIER_WAKE_OK);
		}
	}
	if (n < length && s->out_len == 0 && s->file_fd >= 0 && s->file_left > 0) {
		size_t want = s->file_left < length - n ? (size_t) s->file_left : length - n;
		ssize_t got = pread(s->file_fd, buf + n, want, (off_t) s->file_off);
		if (got <= 0) {
			/* The file shrank or failed: the length promised cannot be kept; the stream is reset. */
			return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
		}
		s->file_off += (uint64_t) got;
		s->file_left -= (uint64_t) got;
		n += (size_t) got;
		if (s->file_left == 0) {
			wake_writer(conn, RAPIER_WAKE_OK);
		}
	}
	/* Counted as nghttp2 takes them: a reset seen before the writer resumes still finds them in the access log. */
	conn->response_bytes += n;
	if (s->own.len == 0 && s->out_len == 0 && (s->file_fd < 0 || s->file_left == 0)) {
		if (s->eof) {
			*flags |= NGHTTP2_DATA_FLAG_EOF;
			/* nghttp2 lets the trailing HEADERS be submitted from here, to end the stream in place of this DATA. */
			if (s->trailers.len > 0) {
				*flags |= NGHTTP2_DATA_FLAG_NO_END_STREAM;
				if (submit_trailers(conn) < 0) {
					return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
				}
			}
		} else if (n == 0) {
			s->deferred = true;
			return NGHTTP2_ERR_DEFERRED;
		}
	}
	return (ssize_t) n;
}

/* The session */

static nghttp2_session_callbacks *callbacks_new(void)
{
	nghttp2_session_callbacks *cb;

	if (nghttp2_session_callbacks_new(&cb) != 0) {
		return NULL;
	}
	nghttp2_session_callbacks_set_on_begin_headers_callback(cb, on_begin_headers);
	nghttp2_session_callbacks_set_on_header_callback(cb, on_header);
	nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, on_data_chunk);
	nghttp2_session_callbacks_set_on_frame_recv_callback(cb, on_frame_recv);
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
	dispatch_ready(h2);
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
	h2_flush(h2);
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
	h2_flush(h2);
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

/* Responses */

static bool hop_by_hop(const char *name, size_t len)
{
	static const char *const names[] = { "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strlen(names[i]) == len && strncasecmp(names[i], name, len) == 0) {
			return true;
		}
	}
	return false;
}

/*
 * Header fields for nghttp2 from "Name: value\r\n" lines, edited in place
 * (names lower-cased), less the fields that only mean something to an
 * HTTP/1.1 connection (RFC 9113 8.2.2). nv has room for cap; returns the
 * count. The fields point into lines: keep it until they are submitted.
 */
static size_t lines_to_nv(char *lines, size_t len, nghttp2_nv *nv, size_t cap)
{
	char *p = lines, *end = lines + len;
	size_t count = 0;

	while (p < end) {
		char *eol = memchr(p, '\n', (size_t) (end - p)), *colon, *value;
		size_t line = (size_t) ((eol ? eol : end) - p);

		if (line > 0 && p[line - 1] == '\r') {
			line--;
		}
		colon = memchr(p, ':', line);
		if (colon && !hop_by_hop(p, (size_t) (colon - p)) && count < cap) {
			for (char *c = p; c < colon; c++) {
				*c = (char) tolower((unsigned char) *c);
			}
			value = colon + 1;
			while (value < p + line && (*value == ' ' || *value == '\t')) {
				value++;
			}
			nv[count++] = (nghttp2_nv) { (uint8_t *) p, (uint8_t *) value, (size_t) (colon - p),
				(size_t) (p + line - value), NGHTTP2_NV_FLAG_NONE };
		}
		p = eol ? eol + 1 : end;
	}
	return count;
}

/* How many fields lines can hold at most: one per line. */
static size_t lines_count(const char *lines, size_t len)
{
	size_t n = 0;

	for (const char *q = lines; q < lines + len; q++) {
		n += *q == '\n';
	}
	return n;
}

/* HEADERS from a finished HTTP/1.1 head: ":status", then each of its fields. */
static int submit_head(rapier_http_conn_t *conn, const rapier_http_head_t *head, const struct iovec *block, bool more)
{
	rapier_h2_stream_t *s = conn->h2s;
	rapier_h2_session_t *h2 = s->parent->h2;
	char *lines = emalloc(block->iov_len + 1);
	size_t cap = 1 + lines_count(block->iov_base, block->iov_len), count;
	nghttp2_nv *nv = emalloc(cap * sizeof(*nv));
	nghttp2_data_provider body = { .read_callback = read_body };
	char status[4];
	int rc;

	memcpy(lines, block->iov_base, block->iov_len);
	snprintf(status, sizeof(status), "%03d", head->status);
	nv[0] = (nghttp2_nv) { (uint8_t *) ":status", (uint8_t *) status, 7, 3, NGHTTP2_NV_FLAG_NONE };
	count = 1 + lines_to_nv(lines, block->iov_len, nv + 1, cap - 1);
	/* nghttp2 copies the fields: they may go once submitted. */
	rc = nghttp2_submit_response(h2->ng, s->id, nv, count, more ? &body : NULL);
	efree(nv);
	efree(lines);
	return rc == 0 ? 0 : -EPIPE;
}

/* The trailing HEADERS, from read_body() as the body ends. */
static int submit_trailers(rapier_http_conn_t *conn)
{
	rapier_h2_stream_t *s = conn->h2s;
	size_t cap = lines_count(s->trailers.data, s->trailers.len), count;
	nghttp2_nv *nv = emalloc((cap ? cap : 1) * sizeof(*nv));
	int rc;

	count = lines_to_nv(s->trailers.data, s->trailers.len, nv, cap);
	rc = nghttp2_submit_trailer(s->parent->h2->ng, s->id, nv, count);
	efree(nv);
	rapier_http_buf_reset(&s->trailers);
	return rc == 0 ? 0 : -EPIPE;
}

int rapier__h2_set_trailers(rapier_http_conn_t *conn, const rapier_http_buf_t *trailers)
{
	rapier_h2_stream_t *s = conn->h2s;

	rapier_http_buf_reset(&s->trailers);
	if (trailers == NULL || trailers->len == 0) {
		return 0;
	}
	return rapier_http_buf_append(&s->trailers, trailers->data, trailers->len) == 0 ? 0 : -ENOMEM;
}

/* More body bytes (or its end) for nghttp2 to read. */
static void body_ready(rapier_http_conn_t *conn)
{
	rapier_h2_stream_t *s = conn->h2s;
	rapier_h2_session_t *h2 = s->parent->h2;

	if (s->deferred) {
		s->deferred = false;
		nghttp2_session_resume_data(h2->ng, s->id);
	}
	h2_flush(h2);
}

void rapier__h2_answer(rapier_http_conn_t *conn, const rapier_http_head_t *head, const struct iovec *block,
	const char *body, size_t body_len, int fd, uint64_t offset, uint64_t length)
{
	rapier_h2_stream_t *s = conn->h2s;
	bool more = head->body_allowed && (body_len > 0 || (fd >= 0 && length > 0));

	conn->state = RAPIER_HTTP_CONN_HANDLING;
	conn->answered_by_loop = true;
	conn->response_started = conn->response_ended = true;
	rapier_timer_stop(conn->server->loop, &conn->timer);
	if (!s->open || s->parent->h2 == NULL) {
		if (fd >= 0) {
			close(fd);
		}
		return;
	}
	if (more) {
		rapier_http_buf_append(&s->own, body, body_len);
		s->file_fd = fd;
		s->file_owned = true;
		s->file_off = offset;
		s->file_left = length;
		s->eof = true;
	} else if (fd >= 0) {
		close(fd);
	}
	if (submit_head(conn, head, block, more) < 0) {
		rapier__http_conn_close(conn);
		return;
	}
	h2_flush(s->parent->h2);
}

int rapier__h2_submit(rapier_http_conn_t *conn, const rapier_http_head_t *head, const struct iovec *block, bool more)
{
	rapier_h2_stream_t *s = conn->h2s;
	int rc;

	if (conn->state == RAPIER_HTTP_CONN_CLOSED || !s->open) {
		return -EPIPE;
	}
	if ((rc = submit_head(conn, head, block, more)) < 0) {
		rapier__http_conn_close(conn);
		return rc;
	}
	h2_flush(s->parent->h2);
	return conn->state == RAPIER_HTTP_CONN_CLOSED ? -EPIPE : 0;
}

static void unlink_writer(rapier_coro_t *co, void *data)
{
	rapier_http_conn_t *conn = data;

	if (conn->writer == co) {
		conn->writer = NULL;
	}
}

/* Waits until nghttp2 has read the writer's bytes or file; -errno (the stream reset) when it will not. */
static int wait_taken(rapier_http_conn_t *conn)
{
	rapier_h2_stream_t *s = conn->h2s;

	while (s->out_len > 0 || (s->file_fd >= 0 && s->file_left > 0)) {
		rapier_wake_t why;

		if (conn->state == RAPIER_HTTP_CONN_CLOSED) {
			return -EPIPE;
		}
		conn->writer = rapier_coro_current();
		why = rapier_coro_wait(conn->server->cfg.write_timeout_ns, unlink_writer, conn, "a client write");
		if (why != RAPIER_WAKE_OK) {
			int rc = rapier_wake_errno(why, -EPIPE);
			rapier__http_conn_close(conn);
			return rc;
		}
	}
	/* All taken: a reset that came after (the client read them, then left) does not undo the write. */
	return 0;
}

int rapier__h2_send(rapier_http_conn_t *conn, const char *data, size_t len, bool eof)
{
	rapier_h2_stream_t *s = conn->h2s;

	if (conn->state == RAPIER_HTTP_CONN_CLOSED || !s->open) {
		return -EPIPE;
	}
	s->eof = eof;
	if (len > 0 && !rapier_coro_can_yield()) {
		/* A destructor, say: it cannot wait, so its bytes are copied. */
		if (rapier_http_buf_append(&s->own, data, len) != 0) {
			rapier__http_conn_close(conn);
			return -ENOMEM;
		}
		len = 0;
	}
	s->out = data;
	s->out_len = len;
	body_ready(conn);
	return len > 0 ? wait_taken(conn) : (conn->state == RAPIER_HTTP_CONN_CLOSED ? -EPIPE : 0);
}

int rapier__h2_send_file(rapier_http_conn_t *conn, int fd, uint64_t offset, uint64_t length)
{
	rapier_h2_stream_t *s = conn->h2s;
	int rc;

	if (conn->state == RAPIER_HTTP_CONN_CLOSED || !s->open) {
		return -EPIPE;
	}
	if (!rapier_coro_can_yield()) {
		return -EBUSY;
	}
	/* The caller's descriptor: read only while this waits. */
	s->file_fd = fd;
	s->file_owned = false;
	s->file_off = offset;
	s->file_left = length;
	s->eof = true;
	body_ready(conn);
	rc = wait_taken(conn);
	s->file_fd = -1;
	s->file_left = 0;
	return rc;
}
