/*
 * Rapier static files: resolve a request path safely under a document root,
 * then plan the response (status, validators, range) for the server to send
 * with sendfile(). No socket I/O here.
 *
 * Engine code: no PHP headers. Functions return 0 or a negative errno value.
 */
#ifndef RAPIER_HTTP_STATIC_H
#define RAPIER_HTTP_STATIC_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "http_response.h"

/* Flags for rapier_static_root_open. */
#define RAPIER_STATIC_INDEX          0x1  /* "/dir/" serves "/dir/index.html" */
#define RAPIER_STATIC_DOTFILES       0x2  /* serve names starting with "." (default: only under /.well-known/) */
#define RAPIER_STATIC_SYMLINKS_ANY   0x4  /* follow symlinks wherever they point (nginx's default); see below */

/*
 * A document root, opened once per worker.
 *
 * Symlink policy (default): a symlink is followed only while the whole
 * resolution stays beneath the root. With openat2(RESOLVE_BENEATH) (Linux
 * 5.6+) the kernel enforces it during the walk, and also refuses absolute
 * symlinks even when they point inside the root. Without openat2 the file is
 * opened normally and its final location (/proc/self/fd) must be inside the
 * root's real path; there, absolute symlinks into the root are accepted.
 * RAPIER_STATIC_SYMLINKS_ANY trusts every symlink placed by the site's owner
 * (for example Laravel's public/storage link); request paths still cannot
 * leave the root, because ".." is resolved lexically first.
 */
typedef struct rapier_static_root_s {
	int dir_fd;          /* O_DIRECTORY descriptor of the root */
	char *real;          /* realpath() of the root, for the /proc check */
	size_t real_len;
	unsigned flags;
} rapier_static_root_t;

/* Returns 0, or a negative errno (-ENOTDIR, -ENOENT, -EACCES, -ENOMEM...). */
int rapier_static_root_open(rapier_static_root_t *root, const char *path, unsigned flags);
void rapier_static_root_close(rapier_static_root_t *root);

/* "W/" + quotes + 16 hex (seconds) + "." + 8 hex (nanoseconds) + "-" + 16 hex (size) + NUL. */
#define RAPIER_STATIC_ETAG_MAX 48

typedef struct rapier_static_file_s {
	int fd;                  /* regular file, O_RDONLY; close with rapier_static_file_close */
	uint64_t dev;
	uint64_t ino;
	uint64_t size;
	int64_t mtime;           /* seconds */
	long mtime_nsec;
	const char *mime;        /* static string, e.g. "text/html; charset=utf-8" */
	size_t mime_len;
	char etag[RAPIER_STATIC_ETAG_MAX];
	size_t etag_len;
	bool weak;               /* the body is a coding made on the fly: a weak ETag, no ranges */
	char rel[PATH_MAX];      /* its path relative to the root, for a precompressed sibling */
	size_t rel_len;
} rapier_static_file_t;

/*
 * Resolves a request path (already percent-decoded, without the query) under
 * root and opens the regular file it names. Returns 0, or:
 *   -EINVAL        400: not starting with "/", a NUL byte, or ".." above the root
 *   -ENOENT        404: missing, not a regular file, a dotfile, a directory without index
 *   -EACCES        403: permission denied, or a symlink leaving the root
 *   -EISDIR        301: a directory named without its trailing slash while
 *                  RAPIER_STATIC_INDEX is on; redirect to path + "/"
 *   -ENAMETOOLONG  414
 *   other          500 (-EMFILE, -ENOMEM...)
 */
int rapier_static_resolve(const rapier_static_root_t *root, const char *path, size_t len, rapier_static_file_t *out);
void rapier_static_file_close(rapier_static_file_t *file);

/*
 * Opens the precompressed sibling of a resolved file, its name with suffix
 * appended ("app.js.br" for "app.js"), under the root's rules. On success
 * the file's descriptor, size, dates and ETag become the sibling's, and its
 * type stays the file's own. Returns 0, or -ENOENT (no such regular file),
 * -ESTALE (the sibling's mtime is an earlier second than the file's: made
 * from an earlier version), -EACCES or another negative errno, the file unchanged.
 */
int rapier_static_open_precompressed(const rapier_static_root_t *root, rapier_static_file_t *file,
	const char *suffix);

/*
 * With weak, marks the response as a coding of the file made on the fly (RFC 9110
 * 8.8.3: another representation, so not the file's strong ETag): the ETag
 * becomes weak, If-None-Match still matches it (weak comparison), and no
 * range is offered or applied (Accept-Ranges is left out, If-Range never
 * holds), as the byte positions of a coding made anew are not stable.
 * Without, the file is sent as it is again.
 */
void rapier_static_file_set_weak(rapier_static_file_t *file, bool weak);

/* MIME type for the file name's extension (case-insensitive); application/octet-stream when unknown. */
const char *rapier_static_mime(const char *name, size_t len, size_t *mime_len);

/* Request fields the plan reads; NULL when the header is absent. Repeated headers joined with ", ". */
typedef struct rapier_static_request_s {
	const char *method;
	size_t method_len;
	const char *if_none_match;
	size_t if_none_match_len;
	const char *if_modified_since;
	size_t if_modified_since_len;
	const char *range;
	size_t range_len;
	const char *if_range;
	size_t if_range_len;
} rapier_static_request_t;

typedef struct rapier_static_plan_s {
	int status;                /* 200, 206, 304, 405 or 416 */
	uint64_t offset;           /* first byte of the file to send */
	uint64_t length;           /* bytes to sendfile(); 0 when no body is sent */
	uint64_t content_length;   /* the Content-Length to announce (HEAD: of the would-be body) */
	bool head;                 /* HEAD request: announce content_length, send nothing */
	char content_range[72];    /* Content-Range for 206 and 416, else empty: "bytes " + 3 x 20 digits + "-" + "/" */
	size_t content_range_len;
} rapier_static_plan_t;

/*
 * Decides the response for a resolved file:
 *  - methods other than GET and HEAD: 405 (add "Allow: GET, HEAD").
 *  - If-None-Match (weak comparison, lists and "*") and, only when it is
 *    absent, If-Modified-Since (an unparsable date is ignored): 304.
 *  - Range, for GET only: one "bytes=a-b", "a-" or "-n" gives 206; a range
 *    starting at or beyond the end, "-0", or any range of an empty file gives
 *    416 with a Content-Range of "bytes", a space, "*", "/" and the size.
 *    Several ranges give the whole file with 200 (no multipart/byteranges:
 *    rare, and a classic amplification vector); a malformed Range is ignored
 *    (RFC 9110 14.2).
 *  - If-Range: the range applies only if it equals our strong ETag or our
 *    Last-Modified date exactly; otherwise 200 with the whole file.
 * Returns 0.
 */
int rapier_static_plan(const rapier_static_file_t *file, const rapier_static_request_t *req,
	rapier_static_plan_t *plan);

/*
 * Adds the file's headers to head for the plan: Content-Type (not for 304),
 * ETag, Last-Modified, Accept-Ranges, Content-Range, Allow for 405. Framing
 * (Content-Length) is left to rapier_http_head_finish with
 * plan->content_length. Returns 0 or a rapier_http_head_add error.
 */
int rapier_static_add_headers(const rapier_static_file_t *file, const rapier_static_plan_t *plan,
	rapier_http_head_t *head);

#endif
