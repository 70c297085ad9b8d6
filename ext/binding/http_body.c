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
#include "php_open_temporary_file.h"

#include <errno.h>
#include <unistd.h>

#include "http.h"
#include "http_body.h"

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

/* Writes all of buf; false with errno set. */
static bool write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			return false;
		}
		buf += n;
		len -= (size_t) n;
	}
	return true;
}

/* What came so far moves to a new file in tmp_dir: its fd, or -1 with errno set. */
static int spool_start(const char *tmp_dir, zend_string **file, smart_str *kept)
{
	int fd = php_open_temporary_fd_ex(tmp_dir, "rapier", file, PHP_TMP_FILE_OPEN_BASEDIR_CHECK_ON_FALLBACK);

	if (fd < 0) {
		return -1;
	}
	if (!write_all(fd, ZSTR_VAL(kept->s), ZSTR_LEN(kept->s))) {
		int saved_errno = errno;

		close(fd);
		errno = saved_errno;
		return -1;
	}
	smart_str_free(kept);
	return fd;
}

static void throw_not_kept(const char *tmp_dir, int err)
{
	zend_throw_exception_ex(rapier_ce_http_body_exception, 507,
		"The request body cannot be kept in a temporary file in %s: %s", tmp_dir, strerror(err ? err : EIO));
}

bool rapier_http_body_keep_rest(rapier_http_body_t *body, uint64_t memory_max, const char *tmp_dir,
	zend_string **data, zend_string **file, uint64_t *size)
{
	smart_str kept = {0};
	char *step = NULL;
	int fd = -1, err = 0;
	ssize_t n;

	*data = *file = NULL;
	*size = 0;
	for (;;) {
		if (fd < 0) {
			smart_str_alloc(&kept, BODY_READ_STEP, 0);
			n = rapier_http_body_read(body, ZSTR_VAL(kept.s) + ZSTR_LEN(kept.s), BODY_READ_STEP);
			if (n > 0) {
				ZSTR_LEN(kept.s) += (size_t) n;
			}
		} else {
			n = rapier_http_body_read(body, step, BODY_READ_STEP);
			if (n > 0 && !write_all(fd, step, (size_t) n)) {
				err = errno;
				break;
			}
		}
		if (n <= 0) {
			break;
		}
		*size += (uint64_t) n;
		if (fd < 0 && tmp_dir && memory_max && *size > memory_max) {
			/* Past body_buffer_size: on disk from here, as the server spools a buffered body. */
			if ((fd = spool_start(tmp_dir, file, &kept)) < 0) {
				err = errno;
				break;
			}
			step = emalloc(BODY_READ_STEP);
		}
	}
	if (step) {
		efree(step);
	}
	if (fd >= 0 && close(fd) != 0 && err == 0 && n == 0) {
		err = errno;
	}
	if (n < 0 || err) {
		smart_str_free(&kept);
		if (*file) {
			VCWD_UNLINK(ZSTR_VAL(*file));
			zend_string_release(*file);
			*file = NULL;
		}
		if (err) {
			throw_not_kept(tmp_dir, err);
		} else {
			rapier_http_body_throw(body, n);
		}
		return false;
	}
	if (kept.s && ZSTR_LEN(kept.s) > 0) {
		smart_str_0(&kept);
		*data = kept.s;
	} else {
		smart_str_free(&kept);
	}
	return true;
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
