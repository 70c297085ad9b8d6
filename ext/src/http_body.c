/*
 * Request bodies read while they arrive (see http_body.h). The transport
 * side (reading an HTTP/1.1 socket, opening an HTTP/2 window) stays with the
 * connection code: rapier__http_body_pull() and rapier__http_body_taken().
 */
#include "php_rapier.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "coroutine.h"
#include "http_body.h"
#include "http_server.h"
#include "http_server_internal.h"

int64_t rapier__http_body_wait_ns(const rapier_http_config_t *cfg)
{
	return cfg->body_timeout_ns > 0 ? cfg->body_timeout_ns : cfg->read_timeout_ns > 0 ? cfg->read_timeout_ns : -1;
}

rapier_http_body_t *rapier__http_body_start(rapier_http_conn_t *conn, bool expect_continue)
{
	rapier_http_body_t *body = calloc(1, sizeof(*body));
	const rapier_http_config_t *cfg = &conn->server->cfg;

	if (body == NULL) {
		return NULL;
	}
	/* Bounded by the reader, who empties it before more is read (HTTP/1.1) or the window lets more come (HTTP/2). */
	rapier_http_buf_init(&body->buf, NULL, 0, SIZE_MAX);
	body->max_size = cfg->limits.max_body_size;
	body->timeout_ns = rapier__http_body_wait_ns(cfg);
	body->length = conn->parser.req.content_length;
	body->refcount = 1;
	body->conn = conn;
	body->continue_due = expect_continue;
	conn->body = body;
	return body;
}

void rapier_http_body_addref(rapier_http_body_t *body)
{
	body->refcount++;
}

void rapier_http_body_release(rapier_http_body_t *body)
{
	if (--body->refcount > 0) {
		return;
	}
	rapier_http_buf_free(&body->buf);
	free(body);
}

static void wake_reader(rapier_http_body_t *body)
{
	rapier_coro_t *reader = body->reader;

	if (reader == NULL) {
		return;
	}
	body->reader = NULL;
	if (body->conn) {
		rapier__http_conn_watch(body->conn);
	}
	rapier_coro_wake(reader, RAPIER_WAKE_OK);
}

int rapier__http_body_append(void *data, const char *buf, size_t len)
{
	rapier_http_body_t *body = data;

	if (body->pos == body->buf.len) {
		body->pos = 0;
		rapier_http_buf_reset(&body->buf);
	}
	if (rapier_http_buf_append(&body->buf, buf, len) != 0) {
		return 503;
	}
	body->received += len;
	wake_reader(body);
	return 0;
}

void rapier__http_body_end(rapier_http_body_t *body, int status, const char *reason)
{
	if (body->done || body->error) {
		return;
	}
	if (status == 0) {
		body->done = true;
	} else {
		body->error = status;
		body->reason = reason;
	}
	wake_reader(body);
}

void rapier__http_body_detach(rapier_http_conn_t *conn, int status, const char *reason)
{
	rapier_http_body_t *body = conn->body;
	bool continue_unsent;

	if (body == NULL) {
		return;
	}
	continue_unsent = body->continue_due;
	/* What nobody will read opens the window again, so the connection's other streams go on. */
	if (body->buf.len > body->pos) {
		rapier__http_body_taken(conn, body->buf.len - body->pos);
	}
	rapier__http_body_end(body, status, reason);
	body->conn = NULL;
	conn->body = NULL;
	if (conn->h2s) {
		rapier__h2_body_detached(conn, continue_unsent);
	}
	rapier_http_body_release(body);
}

bool rapier__http_body_discardable(const rapier_http_body_t *body, uint64_t max_discard)
{
	if (max_discard == 0 || body->error || body->continue_due) {
		return false;
	}
	return body->length < 0 || (uint64_t) body->length - body->received <= max_discard;
}

/* The body breaks its limit: what arrived unread is dropped (an HTTP/2 window opens by it), the reader told. */
static void refuse_rest(rapier_http_body_t *body)
{
	size_t unread = body->buf.len - body->pos;

	/* Even a body that arrived whole: the reader must not take a cut one for all of it. */
	body->done = false;
	rapier__http_body_end(body, 413, body->own_max_size ? "the request body is larger than the handler's limit"
		: "the request body is larger than max_body_size");
	body->pos = body->buf.len;
	if (unread > 0 && body->conn) {
		rapier__http_body_taken(body->conn, unread);
	}
}

void rapier_http_body_set_max_size(rapier_http_body_t *body, uint64_t max_size)
{
	if (body->error) {
		return;
	}
	body->max_size = max_size;
	body->own_max_size = true;
	if (body->received > max_size || (body->length > 0 && (uint64_t) body->length > max_size)) {
		refuse_rest(body);
	}
}

void rapier_http_body_set_timeout(rapier_http_body_t *body, int64_t timeout_ns)
{
	body->timeout_ns = timeout_ns;
}

int64_t rapier_http_body_size(const rapier_http_body_t *body, int64_t content_length)
{
	return body->done ? (int64_t) body->received : content_length;
}

static void unlink_reader(rapier_coro_t *co, void *data)
{
	rapier_http_body_t *body = data;

	if (body->reader == co) {
		body->reader = NULL;
	}
	if (body->conn) {
		rapier__http_conn_watch(body->conn);
	}
}

/* Waits for the connection to bring more of the body: 0, or -errno with the body ended. */
static int wait_for_bytes(rapier_http_body_t *body)
{
	rapier_wake_t why;

	body->reader = rapier_coro_current();
	rapier__http_conn_watch(body->conn);
	why = rapier_coro_wait(body->timeout_ns, unlink_reader, body, "a request body");
	if (why == RAPIER_WAKE_TIMEOUT) {
		rapier__http_body_end(body, 408, "no byte of the request body came in time");
		return -EIO;
	}
	return why == RAPIER_WAKE_OK ? 0 : -ECANCELED;
}

static size_t take(rapier_http_body_t *body, char *buf, size_t len)
{
	size_t have = body->buf.len - body->pos;
	size_t n = have < len ? have : len;

	memcpy(buf, body->buf.data + body->pos, n);
	body->pos += n;
	body->taken += n;
	if (body->conn) {
		rapier__http_body_taken(body->conn, n);
	}
	return n;
}

ssize_t rapier_http_body_read(rapier_http_body_t *body, char *buf, size_t len)
{
	int rc;

	for (;;) {
		if (body->buf.len > body->pos) {
			/* The limit is the reader's, checked as it reads: bytes that came before it was set were not judged. */
			if (body->taken >= body->max_size) {
				refuse_rest(body);
				return -EIO;
			}
			if (len > body->max_size - body->taken) {
				len = (size_t) (body->max_size - body->taken);
			}
			return (ssize_t) take(body, buf, len);
		}
		if (body->done) {
			return 0;
		}
		if (body->error || body->conn == NULL) {
			return -EIO;
		}
		if (body->reader) {
			/* One reader at a time: a second would take bytes the first is owed. */
			return -EBUSY;
		}
		if ((rc = rapier__http_body_pull(body->conn)) > 0) {
			continue;
		}
		if (rc < 0 || body->error || body->done) {
			continue;
		}
		if (!rapier_coro_can_yield()) {
			return -EAGAIN;
		}
		if ((rc = wait_for_bytes(body)) == -ECANCELED) {
			return rc;
		}
	}
}
