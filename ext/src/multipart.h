/*
 * Streaming multipart/form-data parser (RFC 7578 over RFC 2046), no php.h,
 * no I/O: body bytes in, part callbacks out. See multipart.c.
 */
#ifndef RAPIER_MULTIPART_H
#define RAPIER_MULTIPART_H

#include <stddef.h>

/* RFC 2046 5.1.1: a boundary is 1 to 70 characters. */
#define RAPIER_MULTIPART_MAX_BOUNDARY 70
#define RAPIER_MULTIPART_DEFAULT_MAX_PARTS 1000
#define RAPIER_MULTIPART_DEFAULT_MAX_PART_HEADER_SIZE (8 * 1024)

typedef struct rapier_multipart_limits {
	size_t max_parts;		/* parts per body */
	size_t max_part_header_size;	/* bytes of one part's header block */
} rapier_multipart_limits_t;

/* Valid only during on_part_begin. filename and content_type are NULL when
 * the part has none; filename is raw (see rapier_multipart_basename()). */
typedef struct rapier_multipart_part {
	const char *name;
	size_t name_len;
	const char *filename;
	size_t filename_len;
	const char *content_type;
	size_t content_type_len;
} rapier_multipart_part_t;

/* Each returns 0 to go on; anything else stops the parser, and
 * rapier_multipart_feed() returns -1 with abort_code set to that value. */
typedef struct rapier_multipart_callbacks {
	int (*on_part_begin)(void *data, const rapier_multipart_part_t *part);
	int (*on_part_data)(void *data, const char *buf, size_t len);
	int (*on_part_end)(void *data);
} rapier_multipart_callbacks_t;

typedef struct rapier_multipart {
	rapier_multipart_limits_t limits;
	const rapier_multipart_callbacks_t *cb;
	void *data;
	const char *error;	/* why feed/finish failed, or NULL */
	int abort_code;		/* a callback's non-zero return, or 0 */

	/* Private from here on. */
	int state;
	size_t match;
	size_t parts;
	int in_part;
	char delim[4 + RAPIER_MULTIPART_MAX_BOUNDARY];	/* "\r\n--" boundary */
	size_t delim_len;
	char *hbuf;
	size_t hbuf_len;
	size_t hmatch;
} rapier_multipart_t;

/* Finds the boundary parameter of a multipart/form-data Content-Type value.
 * Returns 0 with *boundary pointing into content_type, or -1 when the type is
 * not multipart/form-data or the boundary is missing or invalid. */
int rapier_multipart_boundary(const char *content_type, size_t len, const char **boundary, size_t *boundary_len);

/* limits == NULL means the defaults. Returns 0, or -1 for an invalid boundary.
 * Allocates nothing until the first part header. */
int rapier_multipart_init(rapier_multipart_t *mp, const char *boundary, size_t boundary_len,
	const rapier_multipart_limits_t *limits, const rapier_multipart_callbacks_t *cb, void *data);

/* Feeds body bytes, in pieces of any size. Returns 0, or -1 (sticky). */
int rapier_multipart_feed(rapier_multipart_t *mp, const char *buf, size_t len);

/* End of body: returns 0 when the closing delimiter was seen, else -1. */
int rapier_multipart_finish(rapier_multipart_t *mp);

void rapier_multipart_free(rapier_multipart_t *mp);

/* The last path component of a client filename ('/' and '\' both separate);
 * "." and ".." become empty. Points into filename. */
const char *rapier_multipart_basename(const char *filename, size_t len, size_t *out_len);

#endif
