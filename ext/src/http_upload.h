/*
 * Spooling request bodies while they arrive, so a large upload never sits
 * in the request buffer. multipart/form-data: file parts go straight to
 * temporary files, text fields are kept in memory. Any other body (a raw
 * PUT of a file, a large JSON document): kept in memory up to a bound,
 * then the whole of it goes to one temporary file.
 *
 * Engine code: no PHP headers. The server feeds body bytes as the parser's
 * body sink (http_parser.h); the Request binding later turns the parts into
 * $_POST / $_FILES shapes and takes over the temporary files.
 */
#ifndef RAPIER_HTTP_UPLOAD_H
#define RAPIER_HTTP_UPLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "multipart.h"

/* PHP's UPLOAD_ERR_* values, which $_FILES[...]['error'] carries. */
#define RAPIER_UPLOAD_ERR_INI_SIZE   1
#define RAPIER_UPLOAD_ERR_FORM_SIZE  2
#define RAPIER_UPLOAD_ERR_NO_FILE    4
#define RAPIER_UPLOAD_ERR_NO_TMP_DIR 6

typedef struct rapier_upload_part_s rapier_upload_part_t;

struct rapier_upload_part_s {
	char *name;                 /* the field name, NUL-terminated */
	char *filename;             /* NULL for a text field; raw client filename */
	size_t filename_len;
	char *content_type;         /* file parts: "" when the part had none */
	char *value;                /* text fields: the value (not NUL-terminated) */
	size_t value_len, value_cap;
	char *tmp_path;             /* file parts that got a temporary file; NULL once taken */
	uint64_t size;
	int error;                  /* UPLOAD_ERR_*, 0 for a good file */
	bool skipped;               /* a file part past max_files: no file, and left out of $_FILES */
	rapier_upload_part_t *next;
};

typedef struct {
	rapier_multipart_t mp;
	char *tmp_dir;
	rapier_upload_part_t *parts, *last;
	int fd;                     /* the file part being written, or -1 */
	int status;                 /* 0, or the HTTP status the body was refused with */
	const char *error;          /* why, for the answer */
	/*
	 * PHP's limits on multipart files, set after init (by default none):
	 * a file past max_file_size bytes (upload_max_filesize), or past the
	 * body's own MAX_FILE_SIZE field, is cancelled (its file removed at once,
	 * UPLOAD_ERR_INI_SIZE or _FORM_SIZE); file parts after max_files of them
	 * (max_file_uploads; < 0: no limit) are skipped.
	 */
	uint64_t max_file_size;     /* 0: no limit */
	int64_t max_files;
	uint64_t form_max_file_size; /* the body's MAX_FILE_SIZE field, 0: none */
	int64_t files;              /* file parts that were given a temporary file */
	bool raw;                   /* not multipart: parts is the one body part (rapier_upload_init_raw) */
	size_t memory_max;          /* raw: bytes kept in memory; past them the body goes to a file */
} rapier_upload_t;

/*
 * Starts a spool for a body with this Content-Type into tmp_dir. Returns 0,
 * or -1 when the Content-Type is not multipart/form-data with a valid
 * boundary (the body is then left to the buffer).
 */
int rapier_upload_init(rapier_upload_t *u, const char *content_type, size_t content_type_len, const char *tmp_dir);

/*
 * Starts a spool for a body of any other type: its bytes are kept in the
 * body part's value while there are at most memory_max of them, then all of
 * them go to a temporary file in tmp_dir (from the first byte with
 * memory_max 0). Returns 0, or -1 out of memory.
 */
int rapier_upload_init_raw(rapier_upload_t *u, const char *tmp_dir, size_t memory_max);

/* A raw spool's body: value (tmp_path NULL) or tmp_path, and size. */
rapier_upload_part_t *rapier_upload_body(rapier_upload_t *u);

/*
 * Body bytes (a rapier_http_body_sink_t). Returns 0, or the HTTP status to
 * refuse the request with: 400 for a malformed body, 507 when the disk is
 * full (the part's file is removed at once), 500 when no temporary file can
 * be made for a raw body.
 */
int rapier_upload_feed(void *u, const char *buf, size_t len);

/* End of body: 0, or 400 when the closing boundary never came. */
int rapier_upload_finish(rapier_upload_t *u);

/* Frees everything; temporary files not taken (tmp_path still set) are removed. */
void rapier_upload_free(rapier_upload_t *u);

#endif
