/*
 * The responses of HTTP/2 streams: an HTTP/1.1 head turned into HEADERS,
 * the body read by nghttp2 from the stream as flow control allows, and
 * trailers. The coroutine that wrote a body waits until nghttp2 has taken
 * it all, so it is never copied and a slow client holds back its writer
 * as on HTTP/1.1.
 */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include "php_rapier.h"

#include <ctype.h>
#include <errno.h>
#include <unistd.h>

#include "http2_internal.h"

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

/* The stream's writer waits no more: its bytes were taken, or will never be. */
static void wake_writer(rapier_http_conn_t *conn, rapier_wake_t why)
{
	rapier_coro_t *writer = conn->writer;

	if (writer) {
		conn->writer = NULL;
		rapier_coro_wake(writer, why);
	}
}

/* Reads the response body for nghttp2: copied bytes, then the writer's, then the file. */
static ssize_t read_body(nghttp2_session *ng, int32_t id, uint8_t *buf, size_t length, uint32_t *flags,
	nghttp2_data_source *source, void *user_data)
{
	/* Looked up, not source->ptr: a stream reset from our side may be gone before nghttp2 drops its data. */
	rapier_http_conn_t *conn = rapier__h2_stream_conn(ng, id);
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

/*
 * ":status" and the fields of "Name: value\r\n" lines for nghttp2, which
 * copies them: the array, and the copy of the lines it points into
 * (*lines), are the caller's to free once submitted.
 */
static nghttp2_nv *status_and_fields(int status, char code[4], const char *data, size_t len, char **lines,
	size_t *count)
{
	size_t cap = 1 + lines_count(data, len);
	nghttp2_nv *nv = emalloc(cap * sizeof(*nv));

	*lines = emalloc(len + 1);
	memcpy(*lines, data, len);
	snprintf(code, 4, "%03d", status);
	nv[0] = (nghttp2_nv) { (uint8_t *) ":status", (uint8_t *) code, 7, 3, NGHTTP2_NV_FLAG_NONE };
	*count = 1 + lines_to_nv(*lines, len, nv + 1, cap - 1);
	return nv;
}

/* HEADERS from a finished HTTP/1.1 head: ":status", then each of its fields. */
static int submit_head(rapier_http_conn_t *conn, const rapier_http_head_t *head, const struct iovec *block, bool more)
{
	rapier_h2_stream_t *s = conn->h2s;
	nghttp2_data_provider body = { .read_callback = read_body };
	char code[4], *lines;
	size_t count;
	nghttp2_nv *nv = status_and_fields(head->status, code, block->iov_base, block->iov_len, &lines, &count);
	int rc = nghttp2_submit_response(s->parent->h2->ng, s->id, nv, count, more ? &body : NULL);

	efree(nv);
	efree(lines);
	return rc == 0 ? 0 : -EPIPE;
}

int rapier__h2_submit_interim(rapier_http_conn_t *conn, int status, const rapier_http_buf_t *fields)
{
	rapier_h2_stream_t *s = conn->h2s;
	char code[4], *lines;
	size_t count;
	nghttp2_nv *nv;
	int rc;

	if (conn->state == RAPIER_HTTP_CONN_CLOSED || !s->open) {
		return -EPIPE;
	}
	nv = status_and_fields(status, code, fields->data, fields->len, &lines, &count);
	/* A HEADERS frame that neither ends the stream nor stands for the response: nghttp2 takes 1xx as interim. */
	rc = nghttp2_submit_headers(s->parent->h2->ng, NGHTTP2_FLAG_NONE, s->id, NULL, nv, count, NULL);
	efree(nv);
	efree(lines);
	if (rc < 0) {
		rapier__http_conn_close(conn);
		return -EPIPE;
	}
	rapier__h2_flush(s->parent->h2);
	return conn->state == RAPIER_HTTP_CONN_CLOSED ? -EPIPE : 0;
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
	rapier__h2_flush(h2);
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
	rapier__h2_flush(s->parent->h2);
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
	rapier__h2_flush(s->parent->h2);
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
