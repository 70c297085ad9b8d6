/*
 * A request body read while it arrives (request_buffering off), as PHP
 * sees it: a read-only stream that waits in its coroutine for the bytes
 * (bodyStream(), php://input), and the rest of it read whole (body(),
 * post). A body whose rest will not come (the client left, a limit, a
 * stall) throws Rapier\Http\BodyException carrying the HTTP status that
 * fits, which the server answers with when the handler lets it escape.
 */
#include "php_rapier.h"
#include "zend_exceptions.h"
#include "zend_smart_str.h"

#include "http.h"
#include "http_body.h"
#include "http_upload.h"

zend_class_entry *rapier_ce_http_body_exception;

/* Bytes asked of the body per step when it is read whole. */
#define BODY_READ_STEP (64 * 1024)

void rapier_http_body_throw(rapier_http_body_t *body, ssize_t rc)
{
	if (EG(exception)) {
		return;
	}
	switch (rc) {
		case -ECANCELED:
			zend_throw_exception(rapier_ce_canceled_exception,
				"Coroutine was canceled while reading the request body", 0);
			break;
		case -EBUSY:
			zend_throw_exception(rapier_ce_exception,
				"Another coroutine is reading this request's body: read it from one coroutine at a time", 0);
			break;
		case -EAGAIN:
			zend_throw_exception(rapier_ce_exception,
				"The request body is read while it arrives (request_buffering off): read it inside a coroutine", 0);
			break;
		default:
			zend_throw_exception_ex(rapier_ce_http_body_exception, body->error ? body->error : 400,
				"The request body cannot be read whole: %s", body->reason ? body->reason : "it ended early");
			break;
	}
}

zend_string *rapier_http_body_read_rest(rapier_http_body_t *body)
{
	smart_str out = {0};
	ssize_t n;

	for (;;) {
		smart_str_alloc(&out, BODY_READ_STEP, 0);
		n = rapier_http_body_read(body, ZSTR_VAL(out.s) + ZSTR_LEN(out.s), BODY_READ_STEP);
		if (n <= 0) {
			break;
		}
		ZSTR_LEN(out.s) += (size_t) n;
	}
	if (n < 0) {
		smart_str_free(&out);
		rapier_http_body_throw(body, n);
		return NULL;
	}
	smart_str_0(&out);
	return out.s;
}

rapier_upload_t *rapier_http_body_spool(rapier_http_body_t *body, size_t memory_max, const char *tmp_dir)
{
	rapier_upload_t *spool = malloc(sizeof(*spool));
	char *step;
	ssize_t n;
	int status = 0;

	if (spool == NULL || rapier_upload_init_raw(spool, tmp_dir, memory_max) != 0) {
		free(spool);
		zend_throw_exception(rapier_ce_exception, "Cannot keep the request body: out of memory", 0);
		return NULL;
	}
	step = emalloc(BODY_READ_STEP);
	while ((n = rapier_http_body_read(body, step, BODY_READ_STEP)) > 0
			&& (status = rapier_upload_feed(spool, step, (size_t) n)) == 0) {
	}
	efree(step);
	if (n == 0 && status == 0) {
		status = rapier_upload_finish(spool);
	}
	if (n < 0 || status != 0) {
		if (status != 0) {
			/* 507: the disk is full (the file is gone already); 500: no temporary file could be made. */
			zend_throw_exception_ex(rapier_ce_http_body_exception, status, "The request body cannot be kept in %s: %s",
				tmp_dir, spool->error ? spool->error : "cannot write the upload");
		} else {
			rapier_http_body_throw(body, n);
		}
		rapier_upload_free(spool);
		free(spool);
		return NULL;
	}
	return spool;
}

/* The stream */

static ssize_t body_stream_read(php_stream *stream, char *buf, size_t count)
{
	rapier_http_body_t *body = stream->abstract;
	ssize_t n;

	if (count == 0) {
		return 0;  /* not the end: nothing was asked for */
	}
	n = rapier_http_body_read(body, buf, count);

	if (n == 0) {
		stream->eof = 1;
	} else if (n < 0) {
		/* An error is not an end: fread() gives false, and the exception says why. */
		rapier_http_body_throw(body, n);
		return -1;
	}
	return n;
}

static ssize_t body_stream_write(php_stream *stream, const char *buf, size_t count)
{
	(void) stream;
	(void) buf;
	(void) count;
	return -1;
}

static int body_stream_close(php_stream *stream, int close_handle)
{
	(void) close_handle;
	rapier_http_body_release(stream->abstract);
	return 0;
}

static int body_stream_flush(php_stream *stream)
{
	(void) stream;
	return 0;
}

static const php_stream_ops body_stream_ops = {
	body_stream_write, body_stream_read, body_stream_close, body_stream_flush,
	"rapier/request-body",
	NULL, /* seek: what was read is gone */
	NULL, NULL, NULL,
};

php_stream *rapier_http_body_stream_open(rapier_http_body_t *body)
{
	php_stream *stream = php_stream_alloc(&body_stream_ops, body, 0, "rb");

	if (stream == NULL) {
		return NULL;
	}
	rapier_http_body_addref(body);
	/*
	 * Unbuffered: a read takes what it asked for, so bytes never hide in
	 * one stream object's buffer from another, or from body().
	 */
	stream->flags |= PHP_STREAM_FLAG_NO_SEEK | PHP_STREAM_FLAG_NO_BUFFER;
	return stream;
}
