/*
 * The request of an HTTP/2 stream as it arrives: nghttp2's callbacks for
 * its header fields and DATA, the request line and fields laid out as the
 * HTTP/1.1 parser lays them out, the limits checked on the way, and its
 * body, whole, spooled or read by its handler while it arrives.
 */
#include "php_rapier.h"

#include "http2_internal.h"
#include "http_body.h"

/*
 * The rest of a request body nobody will read, once its response is out:
 * up to this much is let in and dropped; a larger or open-ended rest is
 * refused with RST_STREAM NO_ERROR (RFC 9113 8.1). Some clients (curl 7.88)
 * count a reset after a whole response as a failed transfer.
 */
#define H2_DRAIN_MAX (64 * 1024)

/* Answered before its request was whole: the rest of it is dropped, and so is what was spooled of it. */
void rapier__h2_refuse(rapier_http_conn_t *conn, int status, const char *reason)
{
	conn->h2s->rejected = true;
	rapier__http_drop_upload(conn);
	rapier__http_answer_error(conn, status, reason);
}

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
	rapier_h2_field_t f = { .name_len = name_len, .value_len = value_len };
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
		static const char *const names[H2_PSEUDO_COUNT] = { ":method", ":path", ":authority", ":scheme" };
		for (int i = 0; i < H2_PSEUDO_COUNT; i++) {
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

static bool field_named(const rapier_h2_stream_t *s, const rapier_h2_field_t *f, const char *name)
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
		rapier_h2_field_t f = s->fields[i];

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
		const rapier_h2_field_t *f = &s->fields[i];
		s->headers[n].name = arena + f->name;
		s->headers[n].name_len = f->name_len;
		s->headers[n].value = arena + f->value;
		s->headers[n].value_len = f->value_len;
		has_host |= field_named(s, f, "host");
		n++;
	}
	if (!has_host && s->has_pseudo[H2_PSEUDO_AUTHORITY]) {
		s->headers[n].name = "host";
		s->headers[n].name_len = 4;
		s->headers[n].value = arena + s->pseudo[H2_PSEUDO_AUTHORITY].value;
		s->headers[n].value_len = s->pseudo[H2_PSEUDO_AUTHORITY].value_len;
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

	if (!s->has_pseudo[H2_PSEUDO_METHOD] || !s->has_pseudo[H2_PSEUDO_PATH] || s->pseudo[H2_PSEUDO_PATH].value_len == 0) {
		*reason = "CONNECT and requests without :path are not served";
		return 501;
	}
	target = s->arena.data + s->pseudo[H2_PSEUDO_PATH].value;
	req->target = target;
	req->target_len = s->pseudo[H2_PSEUDO_PATH].value_len;
	req->path = target;
	req->path_len = strcspn(target, "?#");
	req->query = NULL;
	req->query_len = 0;
	if (target[req->path_len] == '?') {
		req->query = target + req->path_len + 1;
		req->query_len = strcspn(req->query, "#");
	}
	req->method = method_of(s->arena.data + s->pseudo[H2_PSEUDO_METHOD].value, s->pseudo[H2_PSEUDO_METHOD].value_len,
		&req->method_name);
	if (req->method < 0 || req->method == HTTP_CONNECT) {
		/* Answered 501 at once; the access log names the method as it came. */
		req->method = HTTP_GET;
		req->method_name = s->arena.data + s->pseudo[H2_PSEUDO_METHOD].value;
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
		rapier__h2_refuse(conn, s->error_status, s->error_reason);
		return;
	}
	if (!end_stream && rapier__http_streams_body(conn)) {
		/* request_buffering off: the handler starts now and reads the body as DATA comes (http_body.h). */
		if (rapier__http_body_start(conn, rapier_http_request_header(req, "expect", NULL) != NULL) == NULL) {
			rapier__h2_refuse(conn, 503, "out of memory");
			return;
		}
		rapier_timer_stop(conn->server->loop, &conn->timer);
		make_ready(rapier__h2_session_of(conn), conn);
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
		rapier__h2_refuse(conn, conn->upload->status, conn->upload->error);
		return;
	}
	req->body = s->body.len ? s->body.data : NULL;
	req->body_len = s->body.len;
	make_ready(h2, conn);
}

void rapier__h2_dispatch_ready(rapier_h2_session_t *h2)
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
bool rapier__h2_rest_refused(const rapier_http_conn_t *conn)
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
			rapier__h2_flush(rapier__h2_session_of(conn));
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
	nghttp2_session_consume(rapier__h2_session_of(conn)->ng, s->id, n);
	rapier__h2_flush(rapier__h2_session_of(conn));
}

void rapier__h2_settle_rest(rapier_http_conn_t *conn)
{
	rapier_h2_stream_t *s = conn->h2s;

	s->rest_unread = false;
	if (!rapier__h2_rest_refused(conn)) {
		conn->server->stats.unread_bodies_dropped++;
		return;
	}
	conn->server->stats.unread_bodies_reset++;
	nghttp2_submit_rst_stream(rapier__h2_session_of(conn)->ng, NGHTTP2_FLAG_NONE, s->id, NGHTTP2_NO_ERROR);
}

void rapier__h2_body_detached(rapier_http_conn_t *conn, bool continue_unsent)
{
	rapier_h2_stream_t *s = conn->h2s;

	if (continue_unsent) {
		/* Its client was never asked for the body: it is not to send it. */
		s->rejected = true;
	}
	/* The handler returned before the body ended: nobody wants the rest, settled once the response has ended. */
	if (conn->state != RAPIER_HTTP_CONN_CLOSED && s->open && !s->request_done) {
		s->rest_unread = true;
		if (s->end_sent) {
			rapier__h2_settle_rest(conn);
			rapier__h2_flush(rapier__h2_session_of(conn));
		}
	}
}

/* nghttp2's callbacks */

int rapier__h2_on_header(nghttp2_session *ng, const nghttp2_frame *frame, const uint8_t *name, size_t name_len,
	const uint8_t *value, size_t value_len, uint8_t flags, void *user_data)
{
	rapier_http_conn_t *conn = rapier__h2_stream_conn(ng, frame->hd.stream_id);

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
		nghttp2_session_consume(rapier__h2_session_of(conn)->ng, conn->h2s->id, len);
	}
}

int rapier__h2_on_data_chunk(nghttp2_session *ng, uint8_t flags, int32_t id, const uint8_t *data, size_t len,
	void *user_data)
{
	rapier_http_conn_t *conn = rapier__h2_stream_conn(ng, id);
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
		rapier__h2_refuse(conn, 413, "the request body is larger than max_body_size");
		return 0;
	}
	req->body_received += len;
	restart_body_timer(conn);
	if (conn->upload) {
		if ((status = rapier_upload_feed(conn->upload, (const char *) data, len)) != 0) {
			rapier__h2_refuse(conn, status, conn->upload->error);
		}
	} else if (rapier_http_buf_append(&conn->h2s->body, data, len) != 0) {
		rapier__h2_refuse(conn, 413, "the request body is larger than max_body_size");
	}
	return 0;
}

int rapier__h2_on_frame_recv(nghttp2_session *ng, const nghttp2_frame *frame, void *user_data)
{
	rapier_h2_session_t *h2 = user_data;
	rapier_http_conn_t *conn;

	if (frame->hd.type != NGHTTP2_HEADERS && frame->hd.type != NGHTTP2_DATA) {
		return 0;
	}
	if ((conn = rapier__h2_stream_conn(ng, frame->hd.stream_id)) == NULL) {
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

