/*
 * The answers the loop gives itself, without a coroutine or PHP: errors
 * (400, 408, 413, 431...), the 503 of a request that waited queue_timeout,
 * the redirect to HTTPS, and static files from document_root.
 *
 * The head goes to the connection's write buffer and out as the socket
 * takes it; what does not fit waits for the socket to drain (write_timeout
 * bounds it), then a static file's body follows with sendfile(). On an
 * HTTP/2 stream the answer goes to the stream's frames instead (http2.c).
 * An error answer ends in a lingering close; any other answer hands the
 * connection back to http_server.c for its next request.
 */
#include "php_rapier.h"

#include <errno.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "http2.h"
#include "http_redirect.h"
#include "http_server.h"
#include "http_server_internal.h"
#include "http_static.h"

static void pump_file(rapier_http_conn_t *conn);

/*
 * The socket is full; the rest goes when it is writable. An error answer
 * (state READING) keeps reading to discard what the client still sends.
 * The loop's own answer to a request (a static file, a 503) reads nothing
 * meanwhile: pipelined bytes wait in the kernel, where a level-triggered
 * read watch would fire on every turn. Its client has write_timeout to
 * take the answer.
 */
static void flush_later(rapier_http_conn_t *conn)
{
	rapier_http_server_t *server = conn->server;

	if (conn->state == RAPIER_HTTP_CONN_READING) {
		rapier_io_start(server->loop, &conn->io, RAPIER_HTTP_CONN_READ | RAPIER_IO_WRITE);
		return;
	}
	rapier_io_start(server->loop, &conn->io, RAPIER_IO_WRITE);
	rapier__http_conn_set_timer(conn, server->cfg.write_timeout_ns);
}

static void flush_wbuf(rapier_http_conn_t *conn)
{
	while (conn->wpos < conn->wlen) {
		ssize_t n = rapier__http_conn_send(conn, conn->wbuf + conn->wpos, conn->wlen - conn->wpos);
		if (n < 0) {
			if (errno == EINTR) {
				continue;
			}
			if (errno == EAGAIN) {
				flush_later(conn);
				return;
			}
			rapier__http_conn_close(conn);
			return;
		}
		conn->wpos += (size_t) n;
	}
	/* Idle connections must not keep buffers. */
	efree(conn->wbuf);
	conn->wbuf = NULL;
	conn->wlen = conn->wpos = 0;
	if (conn->close_after_write) {
		rapier__http_conn_linger(conn);
	} else if (conn->answered_by_loop) {
		pump_file(conn);
	} else if (conn->state == RAPIER_HTTP_CONN_READING) {
		rapier_io_start(conn->server->loop, &conn->io, RAPIER_HTTP_CONN_READ);
	} else {
		rapier_io_stop(conn->server->loop, &conn->io);
	}
}

static void wbuf_append(rapier_http_conn_t *conn, const char *data, size_t len)
{
	conn->wbuf = erealloc(conn->wbuf, conn->wlen + len);
	memcpy(conn->wbuf + conn->wlen, data, len);
	conn->wlen += len;
}

static void loop_write(rapier_http_conn_t *conn, const char *data, size_t len, bool close_after)
{
	wbuf_append(conn, data, len);
	conn->close_after_write = conn->close_after_write || close_after;
	flush_wbuf(conn);
}

/*
 * The loop answers this request itself (a static file, a shed request):
 * the head goes to the write buffer, and flush_wbuf() goes on through
 * pump_file() to the file, if any, then to the next request.
 */
static void loop_answer_head(rapier_http_conn_t *conn, const rapier_http_head_t *head, const struct iovec iov[2],
	int status, uint64_t body_bytes)
{
	conn->state = RAPIER_HTTP_CONN_HANDLING;
	conn->answered_by_loop = true;
	conn->response_started = conn->response_ended = true;
	conn->response_keep_alive = head->keep_alive;
	rapier__http_log_access(conn, status, head->body_allowed ? body_bytes : 0);
	wbuf_append(conn, iov[0].iov_base, iov[0].iov_len);
	wbuf_append(conn, iov[1].iov_base, iov[1].iov_len);
}

/* The loop answers with a finished head (iov) and a body from memory, copied. */
static void loop_answer_bytes(rapier_http_conn_t *conn, const rapier_http_head_t *head, const struct iovec iov[2],
	const char *body, size_t body_len)
{
	if (conn->h2s) {
		rapier__http_log_access(conn, head->status, head->body_allowed ? body_len : 0);
		rapier__h2_answer(conn, head, &iov[1], body, body_len, -1, 0, 0);
		return;
	}
	loop_answer_head(conn, head, iov, head->status, body_len);
	if (head->body_allowed) {
		wbuf_append(conn, body, body_len);
	}
	flush_wbuf(conn);
}

/*
 * The loop answers the request with a short text body. head holds the
 * status and the answer's own headers; the connection closes if the head
 * cannot be made (no memory).
 */
static void loop_answer_text(rapier_http_conn_t *conn, rapier_http_head_t *head, const char *body, size_t body_len)
{
	static const char type[] = "Content-Type: text/plain; charset=utf-8\r\n";
	rapier_http_finish_t fin;
	struct iovec iov[2];

	rapier__http_fill_finish(conn, &fin, body_len);
	if (rapier_http_head_add_line(head, type, sizeof(type) - 1) < 0 || rapier_http_head_finish(head, &fin, iov) < 0) {
		rapier__http_conn_close(conn);
		return;
	}
	loop_answer_bytes(conn, head, iov, body, body_len);
}

/* The same on an HTTP/2 stream: the stream ends with the answer, the connection goes on. */
static void h2_answer_text(rapier_http_conn_t *conn, int status, const char *body, size_t body_len)
{
	rapier_http_head_t head;

	rapier_http_buf_reset(&conn->server->scratch);
	rapier_http_head_init(&head, &conn->server->scratch);
	rapier_http_head_set_status(&head, status, NULL, 0);
	loop_answer_text(conn, &head, body, body_len);
}

/* Answers a request the server refuses itself, then closes the connection (an HTTP/2 stream: ends it). */
void rapier__http_answer_error(rapier_http_conn_t *conn, int status, const char *reason)
{
	char buf[512];
	const char *text = rapier_http_reason(status);
	char body[160];
	int body_len, len;

	if (status == 0 || (conn->h2s && conn->response_started)) {
		rapier__http_conn_close(conn);
		return;
	}
	body_len = snprintf(body, sizeof(body), "%d %s%s%s\n", status, text ? text : "",
		reason ? ": " : "", reason ? reason : "");
	if (body_len >= (int) sizeof(body)) {
		body_len = (int) sizeof(body) - 1;
	}
	if (conn->h2s) {
		h2_answer_text(conn, status, body, (size_t) body_len);
		return;
	}
	len = snprintf(buf, sizeof(buf),
		"HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\n%sConnection: close\r\n\r\n%.*s",
		status, text ? text : "", body_len,
		rapier_http_date_cache_line(&conn->server->date, (int64_t) time(NULL)), body_len, body);
	conn->response_started = true;
	rapier__http_log_access(conn, status, (uint64_t) body_len);
	rapier__http_conn_set_timer(conn, RAPIER_HTTP_LINGER_NS);
	loop_write(conn, buf, (size_t) len, true);
}

/*
 * A request waited queue_timeout for a handler slot: the loop answers 503
 * itself, so an overloaded worker turns a backlog into quick refusals (as
 * nginx does for an upstream it cannot reach) instead of clients timing
 * out. The request was read whole, so the connection stays open when the
 * request allows it.
 */
void rapier__http_answer_busy(rapier_http_conn_t *conn)
{
	static const char body[] = "503 Service Unavailable: every handler slot stayed busy for queue_timeout\n";
	static const char retry[] = "Retry-After: 1\r\n";
	rapier_http_server_t *server = conn->server;
	rapier_http_head_t head;

	rapier_http_buf_reset(&server->scratch);
	rapier_http_head_init(&head, &server->scratch);
	if (rapier_http_head_set_status(&head, 503, NULL, 0) < 0
			|| rapier_http_head_add_line(&head, retry, sizeof(retry) - 1) < 0) {
		rapier__http_conn_close(conn);
		return;
	}
	loop_answer_text(conn, &head, body, sizeof(body) - 1);
}

/*
 * A request to the plain-HTTP port beside HTTPS: a 308 to the same path and
 * query over HTTPS (308 rather than 301, so that a POST stays a POST). The
 * request was read whole, so the connection stays open if it allows.
 */
void rapier__http_redirect_to_https(rapier_http_conn_t *conn)
{
	static const char body[] = "308 Permanent Redirect: this site is served over HTTPS\n";
	rapier_http_server_t *server = conn->server;
	rapier_http_buf_t location;
	rapier_http_head_t head;
	int rc;

	rapier_http_buf_init(&location, NULL, 0, 0);
	rc = rapier_http_https_location(rapier_http_conn_request(conn), server->cfg.https_redirect_port, &location);
	if (rc == -EINVAL) {
		rapier_http_buf_free(&location);
		rapier__http_answer_error(conn, 400, "a Host header naming the site is needed to redirect to HTTPS");
		return;
	}
	rapier_http_buf_reset(&server->scratch);
	rapier_http_head_init(&head, &server->scratch);
	if (rc < 0 || rapier_http_head_set_status(&head, 308, NULL, 0) < 0
			|| rapier_http_head_add(&head, "Location", 8, location.data, location.len) < 0) {
		rapier_http_buf_free(&location);
		rapier__http_conn_close(conn);
		return;
	}
	rapier_http_buf_free(&location);
	rapier__http_count_answer(server);
	loop_answer_text(conn, &head, body, sizeof(body) - 1);
}

/*
 * Static files (document_root) are served entirely from the loop, without
 * a coroutine or PHP: the head goes out like an error answer, the body with
 * sendfile() as the socket drains. A path that is not a file under the root
 * falls through to the PHP handler, as front controllers expect.
 */
static void static_request(const rapier_http_request_t *req, rapier_static_request_t *sr)
{
	memset(sr, 0, sizeof(*sr));
	sr->method = req->method_name;
	sr->method_len = strlen(req->method_name);
	sr->if_none_match = rapier_http_request_header(req, "if-none-match", &sr->if_none_match_len);
	sr->if_modified_since = rapier_http_request_header(req, "if-modified-since", &sr->if_modified_since_len);
	sr->range = rapier_http_request_header(req, "range", &sr->range_len);
	sr->if_range = rapier_http_request_header(req, "if-range", &sr->if_range_len);
}

/*
 * With static_precompressed, swaps file for its best precompressed sibling
 * the request accepts (the codings and their order are compression's), if
 * one exists; returns the coding, RAPIER_CODING_IDENTITY when the file
 * itself is sent.
 */
static rapier_coding_t open_precompressed(rapier_http_server_t *server, const rapier_http_request_t *req,
	rapier_static_file_t *file)
{
	rapier_coding_t ranked[RAPIER_CODING_COUNT];
	size_t accept_len, n;
	const char *accept = rapier_http_request_header(req, "accept-encoding", &accept_len);

	n = rapier_compress_rank(&server->cfg.compress, accept, accept_len, ranked);
	for (size_t i = 0; i < n; i++) {
		if (rapier_static_open_precompressed(server->cfg.static_root, file, rapier_coding_suffix(ranked[i])) == 0) {
			return ranked[i];
		}
	}
	return RAPIER_CODING_IDENTITY;
}

/*
 * The coding a file gets compressed in on the fly, as sendfile() would
 * send it. A GET with a Range gets the file as it is: ranges are of the
 * file's own bytes, which its strong ETag validates. Adds to *vary when
 * the answer depends on Accept-Encoding.
 */
static rapier_coding_t on_the_fly_coding(rapier_http_conn_t *conn, const rapier_static_file_t *file,
	const rapier_static_request_t *sr, bool *vary)
{
	bool file_varies;
	rapier_coding_t coding = rapier__http_file_coding(conn, 200, file->mime, file->mime_len, file->size, &file_varies);

	*vary = *vary || file_varies;
	return sr->range && rapier_http_conn_request(conn)->method == HTTP_GET ? RAPIER_CODING_IDENTITY : coding;
}

/* The file compressed in coding, from the worker's cache or made now (into tmp when not kept). */
static int compressed_copy(rapier_http_server_t *server, const rapier_static_file_t *file, rapier_coding_t coding,
	rapier_http_buf_t *tmp, const char **data, size_t *len)
{
	rapier_file_version_t version = { file->dev, file->ino, file->size, file->mtime, file->mtime_nsec };

	return rapier_file_cache_get(&server->file_cache, &server->encoders, coding, file->fd, &version, tmp, data, len);
}

/*
 * Content-Encoding, with Vary, for a body in a coding (a precompressed
 * sibling or one made on the fly); Vary alone for the file as it is and for
 * answers without its body (304, 416) when the answer depends on
 * Accept-Encoding. With siblings served, any file may.
 */
static void add_coding_headers(rapier_http_head_t *head, rapier_coding_t coding, int status, bool vary)
{
	size_t len;
	const char *lines;

	if (coding != RAPIER_CODING_IDENTITY && (status == 200 || status == 206)) {
		lines = rapier_compress_headers(coding, &len);
	} else if (vary) {
		lines = RAPIER_COMPRESS_VARY_HEADER;
		len = sizeof(RAPIER_COMPRESS_VARY_HEADER) - 1;
	} else {
		return;
	}
	rapier_http_head_add_line(head, lines, len);
}

/*
 * With a coding chosen on the fly (the file made weak), the plan's 200
 * gets the compressed copy: its length is announced and *body points to
 * it. When the copy cannot be made (the file changed under us, no memory),
 * the file goes as it is, re-planned with its strong ETag. Returns the
 * coding the body is in.
 */
static rapier_coding_t plan_compressed(rapier_http_server_t *server, rapier_static_file_t *file,
	const rapier_static_request_t *sr, rapier_coding_t coding, rapier_static_plan_t *plan,
	rapier_http_buf_t *tmp, const char **body)
{
	size_t len;

	if (plan->status != 200) {
		return coding;
	}
	if (compressed_copy(server, file, coding, tmp, body, &len) != 0) {
		*body = NULL;
		rapier_static_file_set_weak(file, false);
		rapier_static_plan(file, sr, plan);
		return RAPIER_CODING_IDENTITY;
	}
	plan->content_length = len;
	plan->length = plan->head ? 0 : len;
	return coding;
}

bool rapier__http_serve_static(rapier_http_conn_t *conn)
{
	rapier_http_server_t *server = conn->server;
	const rapier_http_request_t *req = rapier_http_conn_request(conn);
	char path[4096];
	size_t path_len;
	rapier_static_file_t file;
	rapier_static_request_t sr;
	rapier_static_plan_t plan;
	rapier_http_head_t head;
	rapier_http_finish_t fin;
	struct iovec iov[2];
	rapier_coding_t coding = RAPIER_CODING_IDENTITY;
	bool vary = server->cfg.static_precompressed;
	const char *body = NULL;   /* the compressed copy, when the file is compressed on the fly */
	rapier_http_buf_t tmp;
	int rc;

	if ((req->method != HTTP_GET && req->method != HTTP_HEAD) || req->path_len >= sizeof(path)
			|| rapier_http_decode_path(req->path, req->path_len, path, &path_len) != 0) {
		return false;
	}
	rc = rapier_static_resolve(server->cfg.static_root, path, path_len, &file);
	if (rc == -EINVAL) {
		/* ".." above the root is an attack, not a route: the application never sees it. */
		rapier__http_answer_error(conn, 400, "the path leaves the document root");
		return true;
	}
	if (rc != 0) {
		return false;
	}
	static_request(req, &sr);
	if (server->cfg.static_precompressed) {
		coding = open_precompressed(server, req, &file);
	}
	if (coding == RAPIER_CODING_IDENTITY) {
		coding = on_the_fly_coding(conn, &file, &sr, &vary);
		rapier_static_file_set_weak(&file, coding != RAPIER_CODING_IDENTITY);
	}
	rapier_static_plan(&file, &sr, &plan);
	rapier_http_buf_init(&tmp, NULL, 0, (size_t) 1 << 31);
	if (file.weak) {
		coding = plan_compressed(server, &file, &sr, coding, &plan, &tmp, &body);
	}
	rapier_http_buf_reset(&server->scratch);
	rapier_http_head_init(&head, &server->scratch);
	rapier_http_head_set_status(&head, plan.status, NULL, 0);
	rapier_static_add_headers(&file, &plan, &head);
	add_coding_headers(&head, coding, plan.status, vary);
	rapier__http_fill_finish(conn, &fin, plan.content_length);
	if (rapier_http_head_finish(&head, &fin, iov) < 0) {
		rapier_http_buf_free(&tmp);
		rapier_static_file_close(&file);
		return false;
	}
	rapier__http_count_answer(server);
	if (body) {
		/* Copied out: the cached copy may be evicted while the socket drains. */
		loop_answer_bytes(conn, &head, iov, body, plan.length);
		rapier_http_buf_free(&tmp);
		rapier_static_file_close(&file);
		return true;
	}
	if (conn->h2s) {
		rapier__http_log_access(conn, plan.status, head.body_allowed ? plan.length : 0);
		rapier__h2_answer(conn, &head, &iov[1], NULL, 0, head.body_allowed ? file.fd : -1, plan.offset, plan.length);
		if (head.body_allowed) {
			file.fd = -1;
		}
		rapier_static_file_close(&file);
		return true;
	}
	loop_answer_head(conn, &head, iov, plan.status, plan.length);
	if (plan.length > 0 && head.body_allowed) {
		conn->file_fd = file.fd;
		conn->file_offset = plan.offset;
		conn->file_left = plan.length;
		file.fd = -1;
	}
	rapier_static_file_close(&file);
	flush_wbuf(conn);
	return true;
}

static void pump_file(rapier_http_conn_t *conn)
{
	if (conn->wlen > conn->wpos) {
		return; /* the head first; flush_wbuf comes back here through the next writable event */
	}
	while (conn->file_fd >= 0 && conn->file_left > 0) {
		off_t off = (off_t) conn->file_offset;
		ssize_t n = rapier__http_conn_sendfile(conn, conn->file_fd, &off,
			conn->file_left > (1u << 30) ? (1u << 30) : (size_t) conn->file_left);
		if (n > 0) {
			conn->file_offset += (uint64_t) n;
			conn->file_left -= (uint64_t) n;
			continue;
		}
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n < 0 && errno == EAGAIN) {
			rapier_io_start(conn->server->loop, &conn->io, RAPIER_IO_WRITE);
			rapier__http_conn_set_timer(conn, conn->server->cfg.write_timeout_ns);
			return;
		}
		/* The file shrank or the client left: the promised length cannot be kept. */
		rapier__http_conn_close(conn);
		return;
	}
	if (conn->file_fd >= 0) {
		close(conn->file_fd);
		conn->file_fd = -1;
	}
	conn->answered_by_loop = false;
	rapier__http_conn_set_timer(conn, 0);
	rapier__http_conn_next_request(conn);
}

void rapier__http_answer_flush(rapier_http_conn_t *conn)
{
	if (conn->wlen > conn->wpos) {
		flush_wbuf(conn);
	} else {
		pump_file(conn);
	}
}
