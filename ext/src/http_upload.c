/*
 * Request body spooling (http_upload.h).
 *
 * The streaming multipart parser hands over part data in pieces of any
 * size; a file part's pieces are written to its temporary file at once, so
 * memory holds at most one read buffer of it. A failed write is a full disk
 * (or a quota): the request is refused with 507 and that file removed, and
 * every other file of the request goes when the spool is freed, as the
 * server does for any refused request. Names and sizes still respect the
 * parser's limits (max_body_size counts sink bytes too).
 */
/* mkostemp() */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include "http_upload.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static char *dup_n(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

static int open_tmp(rapier_upload_t *u, rapier_upload_part_t *part)
{
	size_t len = strlen(u->tmp_dir) + sizeof("/rapierXXXXXX");
	char *path = malloc(len);

	if (path == NULL) {
		return -1;
	}
	snprintf(path, len, "%s/rapierXXXXXX", u->tmp_dir);
	u->fd = mkostemp(path, O_CLOEXEC);
	if (u->fd < 0) {
		free(path);
		return -1;
	}
	part->tmp_path = path;
	return 0;
}

static int on_part_begin(void *data, const rapier_multipart_part_t *mp_part)
{
	rapier_upload_t *u = data;
	rapier_upload_part_t *part = calloc(1, sizeof(*part));

	if (part == NULL || (part->name = dup_n(mp_part->name, mp_part->name_len)) == NULL) {
		free(part);
		return 500;
	}
	if (u->last) {
		u->last->next = part;
	} else {
		u->parts = part;
	}
	u->last = part;
	if (mp_part->filename == NULL) {
		return 0;
	}
	part->filename = dup_n(mp_part->filename, mp_part->filename_len);
	part->filename_len = mp_part->filename_len;
	part->content_type = dup_n(mp_part->content_type ? mp_part->content_type : "",
		mp_part->content_type ? mp_part->content_type_len : 0);
	if (part->filename == NULL || part->content_type == NULL) {
		return 500;
	}
	/* As PHP counts: past the limit even an empty file input is left out. */
	if (u->max_files >= 0 && u->files >= u->max_files) {
		part->skipped = true;
	} else if (mp_part->filename_len == 0) {
		part->error = RAPIER_UPLOAD_ERR_NO_FILE;
	} else {
		u->files++;
		if (open_tmp(u, part) < 0) {
			part->error = RAPIER_UPLOAD_ERR_NO_TMP_DIR;
		}
	}
	return 0;
}

/* A file over a size limit is not kept, as PHP does: its file goes at once, and the rest of its data nowhere. */
static void cancel_file(rapier_upload_t *u, rapier_upload_part_t *part, int error)
{
	close(u->fd);
	u->fd = -1;
	unlink(part->tmp_path);
	free(part->tmp_path);
	part->tmp_path = NULL;
	part->error = error;
}

/* The body's own MAX_FILE_SIZE field limits the files after it (PHP reads it as atoll() does). */
static void take_form_max_file_size(rapier_upload_t *u, const rapier_upload_part_t *part)
{
	uint64_t n = 0;
	size_t i = 0;

	if (strcasecmp(part->name, "MAX_FILE_SIZE") != 0) {
		return;
	}
	while (i < part->value_len && (part->value[i] == ' ' || part->value[i] == '\t')) {
		i++;
	}
	for (; i < part->value_len && part->value[i] >= '0' && part->value[i] <= '9' && n < UINT64_MAX / 10; i++) {
		n = n * 10 + (uint64_t) (part->value[i] - '0');
	}
	u->form_max_file_size = n;
}

static int append_value(rapier_upload_part_t *part, const char *buf, size_t len)
{
	if (part->value_len + len > part->value_cap) {
		size_t cap = part->value_cap ? part->value_cap * 2 : 256;
		char *grown;

		while (cap < part->value_len + len) {
			cap *= 2;
		}
		if ((grown = realloc(part->value, cap)) == NULL) {
			return 500;
		}
		part->value = grown;
		part->value_cap = cap;
	}
	memcpy(part->value + part->value_len, buf, len);
	part->value_len += len;
	return 0;
}

static int write_file(rapier_upload_t *u, rapier_upload_part_t *part, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(u->fd, buf, len);

		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n < 0) {
			u->error = errno == ENOSPC || errno == EDQUOT ? "no space left for the upload" : "cannot write the upload";
			close(u->fd);
			u->fd = -1;
			unlink(part->tmp_path);
			free(part->tmp_path);
			part->tmp_path = NULL;
			return 507;
		}
		buf += n;
		len -= (size_t) n;
		part->size += (uint64_t) n;
	}
	return 0;
}

static int on_part_data(void *data, const char *buf, size_t len)
{
	rapier_upload_t *u = data;
	rapier_upload_part_t *part = u->last;

	if (part->filename == NULL) {
		return append_value(part, buf, len);
	}
	if (u->fd < 0) {
		return 0; /* no file (NO_FILE, NO_TMP_DIR, skipped, cancelled): the data goes nowhere */
	}
	if (u->max_file_size && part->size + len > u->max_file_size) {
		cancel_file(u, part, RAPIER_UPLOAD_ERR_INI_SIZE);
		return 0;
	}
	if (u->form_max_file_size && part->size + len > u->form_max_file_size) {
		cancel_file(u, part, RAPIER_UPLOAD_ERR_FORM_SIZE);
		return 0;
	}
	return write_file(u, part, buf, len);
}

static int on_part_end(void *data)
{
	rapier_upload_t *u = data;

	if (u->last && u->last->filename == NULL) {
		take_form_max_file_size(u, u->last);
	}
	if (u->fd >= 0) {
		close(u->fd);
		u->fd = -1;
	}
	return 0;
}

/*
 * A raw body past memory_max: what was kept moves to a temporary file, and
 * the rest follows it there. A failure to make the file is the server's
 * (upload_tmp_dir missing or not writable), not the client's: 500.
 */
static int raw_spill(rapier_upload_t *u, rapier_upload_part_t *body)
{
	char *kept = body->value;
	size_t kept_len = body->value_len;
	int status;

	if (open_tmp(u, body) < 0) {
		u->error = "cannot create a temporary file for the request body in upload_tmp_dir";
		return 500;
	}
	body->value = NULL;
	body->value_len = body->value_cap = 0;
	body->size = 0;
	status = kept_len ? write_file(u, body, kept, kept_len) : 0;
	free(kept);
	return status;
}

static int raw_feed(rapier_upload_t *u, const char *buf, size_t len)
{
	rapier_upload_part_t *body = u->parts;
	int status;

	if (body->tmp_path == NULL && body->value_len + len <= u->memory_max) {
		if ((status = append_value(body, buf, len)) == 0) {
			body->size += len;
		}
		return status;
	}
	if (body->tmp_path == NULL && (status = raw_spill(u, body)) != 0) {
		return status;
	}
	return write_file(u, body, buf, len);
}

static const rapier_multipart_callbacks_t callbacks = { on_part_begin, on_part_data, on_part_end };

int rapier_upload_init(rapier_upload_t *u, const char *content_type, size_t content_type_len, const char *tmp_dir)
{
	const char *boundary;
	size_t boundary_len;

	memset(u, 0, sizeof(*u));
	u->fd = -1;
	u->max_files = -1;
	if (rapier_multipart_boundary(content_type, content_type_len, &boundary, &boundary_len) != 0
		|| rapier_multipart_init(&u->mp, boundary, boundary_len, NULL, &callbacks, u) != 0) {
		return -1;
	}
	if ((u->tmp_dir = strdup(tmp_dir)) == NULL) {
		rapier_multipart_free(&u->mp);
		return -1;
	}
	return 0;
}

int rapier_upload_init_raw(rapier_upload_t *u, const char *tmp_dir, size_t memory_max)
{
	memset(u, 0, sizeof(*u));
	u->fd = -1;
	u->max_files = -1;
	u->raw = true;
	u->memory_max = memory_max;
	if ((u->parts = u->last = calloc(1, sizeof(*u->parts))) == NULL) {
		return -1;
	}
	if ((u->tmp_dir = strdup(tmp_dir)) == NULL) {
		free(u->parts);
		u->parts = u->last = NULL;
		return -1;
	}
	return 0;
}

rapier_upload_part_t *rapier_upload_body(rapier_upload_t *u)
{
	return u->raw ? u->parts : NULL;
}

int rapier_upload_feed(void *data, const char *buf, size_t len)
{
	rapier_upload_t *u = data;

	if (u->status) {
		return u->status;
	}
	if (u->raw) {
		return u->status = raw_feed(u, buf, len);
	}
	if (rapier_multipart_feed(&u->mp, buf, len) != 0) {
		u->status = u->mp.abort_code ? u->mp.abort_code : 400;
		if (u->error == NULL) {
			u->error = u->mp.error ? u->mp.error : "malformed multipart/form-data body";
		}
	}
	return u->status;
}

int rapier_upload_finish(rapier_upload_t *u)
{
	if (u->raw) {
		if (u->fd >= 0) {
			close(u->fd);
			u->fd = -1;
		}
		return u->status;
	}
	if (u->status == 0 && rapier_multipart_finish(&u->mp) != 0) {
		u->status = 400;
		u->error = u->mp.error ? u->mp.error : "the multipart/form-data body ends early";
	}
	return u->status;
}

void rapier_upload_free(rapier_upload_t *u)
{
	rapier_upload_part_t *part = u->parts;

	if (u->fd >= 0) {
		close(u->fd);
		u->fd = -1;
	}
	while (part) {
		rapier_upload_part_t *next = part->next;
		if (part->tmp_path) {
			unlink(part->tmp_path);
			free(part->tmp_path);
		}
		free(part->name);
		free(part->filename);
		free(part->content_type);
		free(part->value);
		free(part);
		part = next;
	}
	u->parts = u->last = NULL;
	rapier_multipart_free(&u->mp);
	free(u->tmp_dir);
	u->tmp_dir = NULL;
}
