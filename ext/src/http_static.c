/*
 * Rapier static files.
 *
 * Resolution happens in two independent layers, so that a bug in one does
 * not open the file system: first the request path is normalised lexically
 * ("." and empty segments dropped, ".." pops, popping above the root is a
 * 400, dotfiles refused); then the relative result is opened against the
 * root's directory descriptor with openat2(RESOLVE_BENEATH), which makes the
 * kernel refuse any step (a symlink, a bind mount trick) that leaves the
 * root. Kernels without openat2 get a plain openat() followed by a check of
 * the opened file's real location through /proc/self/fd, which looks at the
 * file actually opened and so has no check-then-use race.
 *
 * Files are opened O_NONBLOCK: opening a FIFO someone left in the tree would
 * otherwise block the whole worker; only regular files are then served.
 *
 * ETags are strong, built from mtime (with nanoseconds) and size, as nginx
 * does without the nanoseconds: a strong validator is what lets If-Range
 * resume downloads (weak ones never match there), and an inode is left out
 * so several servers sharing a deployment agree on the tag. A body
 * compressed on the fly gets the same tag made weak, as nginx's gzip does.
 *
 * The plan follows RFC 9110 13.2.2's order: method, If-None-Match or else
 * If-Modified-Since, then Range guarded by If-Range.
 */
#include "http_static.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "http_date.h"

#if __has_include(<valgrind/valgrind.h>)
# include <valgrind/valgrind.h>
#endif

/* Cleared for good after ENOSYS (kernel before 5.6, or a seccomp filter); tests clear it to run the fallback. */
static int openat2_usable = 1;

/*
 * Debian 12's valgrind (3.19) does not know openat2: every call fails with
 * ENOSYS and logs a warning, which run-tests.php -m counts as a leak. Under
 * valgrind the fallback is used from the start.
 */
static bool under_valgrind(void)
{
#ifdef RUNNING_ON_VALGRIND
	return RUNNING_ON_VALGRIND != 0;
#else
	return false;
#endif
}

int rapier_static_root_open(rapier_static_root_t *root, const char *path, unsigned flags)
{
	/* O_RDONLY rather than O_PATH: O_PATH needs _GNU_SOURCE, which unit tests cannot set after their includes. */
	root->dir_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root->dir_fd < 0) {
		return -errno;
	}
	if (under_valgrind()) {
		openat2_usable = 0;
	}
	root->real = realpath(path, NULL);
	if (!root->real) {
		int err = errno;
		close(root->dir_fd);
		root->dir_fd = -1;
		return -err;
	}
	root->real_len = strlen(root->real);
	root->flags = flags;
	return 0;
}

void rapier_static_root_close(rapier_static_root_t *root)
{
	if (root->dir_fd >= 0) {
		close(root->dir_fd);
	}
	free(root->real);
	root->dir_fd = -1;
	root->real = NULL;
}

/* Appends one segment to out ("a/b"), or pops for ".."; returns 0 or a negative errno. */
static int push_segment(char *out, size_t *out_len, const char *seg, size_t seg_len)
{
	if (seg_len == 0 || (seg_len == 1 && seg[0] == '.')) {
		return 0;
	}
	if (seg_len == 2 && seg[0] == '.' && seg[1] == '.') {
		if (*out_len == 0) {
			return -EINVAL;
		}
		while (*out_len > 0 && out[*out_len - 1] != '/') {
			(*out_len)--;
		}
		if (*out_len > 0) {
			(*out_len)--;
		}
		return 0;
	}
	/* Room for the "/index.html" and NUL that may follow. */
	if (*out_len + 1 + seg_len + sizeof("/index.html") > PATH_MAX) {
		return -ENAMETOOLONG;
	}
	if (*out_len > 0) {
		out[(*out_len)++] = '/';
	}
	memcpy(out + *out_len, seg, seg_len);
	*out_len += seg_len;
	return 0;
}

/*
 * "/a/./b//../c/" -> "a/c" (NUL-terminated, "." for the root itself) and
 * *dir_form = true when the request names a directory (trailing "/", "/."
 * or "/..").
 */
static int normalise(const char *path, size_t len, char *out, size_t *out_len, bool *dir_form)
{
	if (len == 0 || path[0] != '/' || memchr(path, '\0', len)) {
		return -EINVAL;
	}
	*out_len = 0;
	size_t i = 1;
	const char *seg = path + 1;
	size_t seg_len = 0;
	while (i <= len) {
		if (i == len || path[i] == '/') {
			seg = path + i - seg_len;
			int rc = push_segment(out, out_len, seg, seg_len);
			if (rc < 0) {
				return rc;
			}
			seg_len = 0;
		} else {
			seg_len++;
		}
		i++;
	}
	/* seg is the last segment seen: empty after a trailing "/", or "." / "..". */
	*dir_form = (seg == path + len) || (seg[0] == '.' && (seg + 1 == path + len
		|| (seg[1] == '.' && seg + 2 == path + len)));
	if (*out_len == 0) {
		out[(*out_len)++] = '.';
	}
	out[*out_len] = '\0';
	return 0;
}

/* Dotfiles (".env", ".git/...") are refused unless allowed; "/.well-known/" (RFC 8615) is always public. */
static bool has_hidden_segment(const char *rel, size_t len)
{
	size_t i = 0;

	if (len >= 11 && memcmp(rel, ".well-known", 11) == 0 && (len == 11 || rel[11] == '/')) {
		i = 12;
	}
	for (; i < len; i++) {
		if (rel[i] == '.' && (i == 0 || rel[i - 1] == '/') && !(len == 1 && i == 0)) {
			return true;
		}
	}
	return false;
}

/* The opened file must lie inside the root's real path (fallback for kernels without openat2). */
static int check_inside(const rapier_static_root_t *root, int fd)
{
	char link[32], real[PATH_MAX];

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, real, sizeof(real) - 1);
	if (n < 0) {
		/* No /proc: we cannot prove the file is inside, so refuse. */
		return -EACCES;
	}
	if (root->real_len == 1) {
		return 0;
	}
	if ((size_t) n < root->real_len || memcmp(real, root->real, root->real_len) != 0
		|| ((size_t) n > root->real_len && real[root->real_len] != '/')) {
		return -EACCES;
	}
	return 0;
}

static int open_fallback(const rapier_static_root_t *root, const char *rel, int flags)
{
	int fd = openat(root->dir_fd, rel, flags);

	if (fd < 0) {
		return -errno;
	}
	int rc = check_inside(root, fd);
	if (rc < 0) {
		close(fd);
		return rc;
	}
	return fd;
}

static int open_beneath(const rapier_static_root_t *root, const char *rel)
{
	int flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;

	if (root->flags & RAPIER_STATIC_SYMLINKS_ANY) {
		int fd = openat(root->dir_fd, rel, flags);
		return fd < 0 ? -errno : fd;
	}
	if (!openat2_usable) {
		return open_fallback(root, rel, flags);
	}
	struct open_how how = { .flags = (uint64_t) flags, .resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS };
	/* EAGAIN means a concurrent rename raced the walk; a few retries, then give up rather than spin. */
	for (int attempt = 0; attempt < 3; attempt++) {
		long fd = syscall(SYS_openat2, root->dir_fd, rel, &how, sizeof(how));
		if (fd >= 0) {
			return (int) fd;
		}
		if (errno == ENOSYS) {
			openat2_usable = 0;
			return open_fallback(root, rel, flags);
		}
		if (errno == EXDEV) {
			return -EACCES;
		}
		if (errno != EAGAIN) {
			return -errno;
		}
	}
	return -EAGAIN;
}

/* Opens rel and fstat()s it; directories and other non-regular files come back closed with st filled. */
static int open_stat(const rapier_static_root_t *root, const char *rel, struct stat *st)
{
	int fd = open_beneath(root, rel);

	if (fd < 0) {
		return fd == -ENOTDIR || fd == -ELOOP ? -ENOENT : fd;
	}
	if (fstat(fd, st) != 0) {
		int err = errno;
		close(fd);
		return -err;
	}
	if (!S_ISREG(st->st_mode)) {
		close(fd);
		return S_ISDIR(st->st_mode) ? -EISDIR : -ENOENT;
	}
	return fd;
}

static void fill_file(rapier_static_file_t *out, int fd, const struct stat *st, const char *name, size_t name_len)
{
	out->fd = fd;
	out->dev = (uint64_t) st->st_dev;
	out->ino = (uint64_t) st->st_ino;
	out->size = (uint64_t) st->st_size;
	out->mtime = (int64_t) st->st_mtim.tv_sec;
	out->mtime_nsec = st->st_mtim.tv_nsec;
	out->mime = rapier_static_mime(name, name_len, &out->mime_len);
	int n = snprintf(out->etag, sizeof(out->etag), "\"%llx.%08lx-%llx\"", (unsigned long long) out->mtime,
		(unsigned long) out->mtime_nsec, (unsigned long long) out->size);
	out->etag_len = (size_t) n;
	out->weak = false;
}

int rapier_static_resolve(const rapier_static_root_t *root, const char *path, size_t len, rapier_static_file_t *out)
{
	char *rel = out->rel;
	size_t rel_len;
	bool dir_form;
	struct stat st;

	out->fd = -1;
	int rc = normalise(path, len, rel, &rel_len, &dir_form);
	if (rc < 0) {
		return rc;
	}
	if (!(root->flags & RAPIER_STATIC_DOTFILES) && has_hidden_segment(rel, rel_len)) {
		return -ENOENT;
	}
	int fd = open_stat(root, rel, &st);
	if (fd >= 0 && dir_form) {
		/* "/file.txt/": lexically stripped above, but a file is not a directory. */
		close(fd);
		return -ENOENT;
	}
	if (fd == -EISDIR) {
		if (!(root->flags & RAPIER_STATIC_INDEX)) {
			return -ENOENT;
		}
		if (!dir_form) {
			return -EISDIR;
		}
		if (rel_len == 1 && rel[0] == '.') {
			rel_len = 0;
		}
		memcpy(rel + rel_len, rel_len ? "/index.html" : "index.html", rel_len ? 12 : 11);
		fd = open_stat(root, rel, &st);
		if (fd == -EISDIR) {
			return -ENOENT;
		}
	}
	if (fd < 0) {
		return fd;
	}
	out->rel_len = strlen(rel);
	fill_file(out, fd, &st, rel, out->rel_len);
	return 0;
}

int rapier_static_open_precompressed(const rapier_static_root_t *root, rapier_static_file_t *file,
	const char *suffix)
{
	size_t suffix_len = strlen(suffix);
	struct stat st;
	int fd;

	if (file->rel_len + suffix_len >= sizeof(file->rel)) {
		return -ENAMETOOLONG;
	}
	memcpy(file->rel + file->rel_len, suffix, suffix_len + 1);
	fd = open_stat(root, file->rel, &st);
	file->rel[file->rel_len] = '\0';
	if (fd < 0) {
		return fd == -EISDIR ? -ENOENT : fd;
	}
	/*
	 * Made before the file's last change: it would serve the old content.
	 * Whole seconds: brotli's tool copies the file's mtime without them.
	 */
	if (st.st_mtim.tv_sec < file->mtime) {
		close(fd);
		return -ESTALE;
	}
	close(file->fd);
	fill_file(file, fd, &st, file->rel, file->rel_len);
	return 0;
}

void rapier_static_file_set_weak(rapier_static_file_t *file, bool weak)
{
	if (weak == file->weak) {
		return;
	}
	if (weak) {
		memmove(file->etag + 2, file->etag, file->etag_len + 1);
		memcpy(file->etag, "W/", 2);
		file->etag_len += 2;
	} else {
		memmove(file->etag, file->etag + 2, file->etag_len - 1);
		file->etag_len -= 2;
	}
	file->weak = weak;
}

void rapier_static_file_close(rapier_static_file_t *file)
{
	if (file->fd >= 0) {
		close(file->fd);
		file->fd = -1;
	}
}

typedef struct {
	const char *ext;
	const char *type;
} mime_entry_t;

/*
 * Text types carry "; charset=utf-8" so browsers do not guess. JSON and XML do
 * not: JSON has no charset parameter (RFC 8259) and XML declares its own
 * encoding, which a charset parameter would override.
 */
static const mime_entry_t mime_table[] = {
	{ "html", "text/html; charset=utf-8" }, { "htm", "text/html; charset=utf-8" },
	{ "css", "text/css; charset=utf-8" }, { "js", "text/javascript; charset=utf-8" },
	{ "mjs", "text/javascript; charset=utf-8" }, { "json", "application/json" },
	{ "map", "application/json" }, { "txt", "text/plain; charset=utf-8" },
	{ "xml", "application/xml" }, { "svg", "image/svg+xml" }, { "png", "image/png" },
	{ "jpg", "image/jpeg" }, { "jpeg", "image/jpeg" }, { "gif", "image/gif" }, { "webp", "image/webp" },
	{ "avif", "image/avif" }, { "ico", "image/x-icon" }, { "woff", "font/woff" }, { "woff2", "font/woff2" },
	{ "ttf", "font/ttf" }, { "otf", "font/otf" }, { "wasm", "application/wasm" },
	{ "pdf", "application/pdf" }, { "zip", "application/zip" }, { "gz", "application/gzip" },
	{ "mp4", "video/mp4" }, { "webm", "video/webm" }, { "mp3", "audio/mpeg" }, { "ogg", "audio/ogg" },
	{ "wav", "audio/wav" }, { "csv", "text/csv; charset=utf-8" }, { "md", "text/markdown; charset=utf-8" },
};

#define MIME_DEFAULT "application/octet-stream"
/* The longest extension in the table ("woff2"); longer ones cannot match. */
#define MIME_EXT_MAX 5

const char *rapier_static_mime(const char *name, size_t len, size_t *mime_len)
{
	size_t dot = len;

	while (dot > 0 && name[dot - 1] != '.' && name[dot - 1] != '/') {
		dot--;
	}
	size_t ext_len = len - dot;
	if (dot > 0 && name[dot - 1] == '.' && ext_len > 0 && ext_len <= MIME_EXT_MAX) {
		for (size_t i = 0; i < sizeof(mime_table) / sizeof(mime_table[0]); i++) {
			if (strlen(mime_table[i].ext) == ext_len && strncasecmp(name + dot, mime_table[i].ext, ext_len) == 0) {
				*mime_len = strlen(mime_table[i].type);
				return mime_table[i].type;
			}
		}
	}
	*mime_len = sizeof(MIME_DEFAULT) - 1;
	return MIME_DEFAULT;
}


static bool is_space_or_tab(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * If-None-Match: "*" or a list of entity tags, compared weakly (a "W/"
 * prefix on either side is ignored). A malformed element ends the scan
 * without a match, so garbage never yields a 304.
 */
static bool etag_list_matches(const char *s, size_t len, const char *etag, size_t etag_len)
{
	size_t i = 0;

	while (i < len) {
		while (i < len && (is_space_or_tab(s[i]) || s[i] == ',')) {
			i++;
		}
		if (i == len) {
			break;
		}
		if (s[i] == '*') {
			return true;
		}
		if (len - i >= 2 && s[i] == 'W' && s[i + 1] == '/') {
			i += 2;
		}
		if (i == len || s[i] != '"') {
			return false;
		}
		const char *close = memchr(s + i + 1, '"', len - i - 1);
		if (!close) {
			return false;
		}
		size_t tag_len = (size_t) (close - (s + i)) + 1;
		if (tag_len == etag_len && memcmp(s + i, etag, etag_len) == 0) {
			return true;
		}
		i += tag_len;
	}
	return false;
}

static bool not_modified(const rapier_static_file_t *file, const rapier_static_request_t *req)
{
	if (req->if_none_match) {
		/* Weak comparison: a "W/" on our side is ignored as on theirs. */
		size_t skip = file->weak ? 2 : 0;
		return etag_list_matches(req->if_none_match, req->if_none_match_len, file->etag + skip, file->etag_len - skip);
	}
	if (req->if_modified_since) {
		int64_t since;
		if (rapier_http_date_parse(req->if_modified_since, req->if_modified_since_len, &since) == 0) {
			return file->mtime <= since;
		}
	}
	return false;
}

/* If-Range: strong comparison with our ETag, or exact equality with Last-Modified. */
static bool if_range_holds(const rapier_static_file_t *file, const rapier_static_request_t *req)
{
	const char *v = req->if_range;
	size_t len = req->if_range_len;
	int64_t date;

	if (!v) {
		return true;
	}
	rapier_http_trim_ows(&v, &len);
	if (len > 0 && v[0] == '"') {
		return len == file->etag_len && memcmp(v, file->etag, len) == 0;
	}
	if (len >= 2 && v[0] == 'W' && v[1] == '/') {
		return false;
	}
	return rapier_http_date_parse(v, len, &date) == 0 && date == file->mtime;
}

/* Reads 1*DIGIT, saturating at UINT64_MAX (a huge position is simply past the end). */
static size_t parse_pos(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;

	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		unsigned d = (unsigned) (s[i] - '0');
		v = v > (UINT64_MAX - d) / 10 ? UINT64_MAX : v * 10 + d;
	}
	*out = v;
	return i;
}

typedef enum { RANGE_IGNORE, RANGE_OK, RANGE_UNSATISFIABLE } range_result_t;

static range_result_t parse_range(const char *s, size_t len, uint64_t size, uint64_t *first, uint64_t *last)
{
	uint64_t a = 0, b = UINT64_MAX;
	bool suffix;

	rapier_http_trim_ows(&s, &len);
	if (len < 6 || strncasecmp(s, "bytes=", 6) != 0 || memchr(s, ',', len)) {
		return RANGE_IGNORE;
	}
	s += 6;
	len -= 6;
	rapier_http_trim_ows(&s, &len);
	size_t n = parse_pos(s, len, &a);
	suffix = n == 0;
	if (n == len || s[n] != '-') {
		return RANGE_IGNORE;
	}
	size_t m = parse_pos(s + n + 1, len - n - 1, &b);
	if (n + 1 + m != len || (suffix && m == 0)) {
		return RANGE_IGNORE;
	}
	if (suffix) {
		/* "-n": the last n bytes; nothing to give from an empty file or for n = 0. */
		if (b == 0 || size == 0) {
			return RANGE_UNSATISFIABLE;
		}
		*first = b >= size ? 0 : size - b;
		*last = size - 1;
		return RANGE_OK;
	}
	if (m == 0) {
		b = UINT64_MAX;
	} else if (b < a) {
		return RANGE_IGNORE;
	}
	if (a >= size) {
		return RANGE_UNSATISFIABLE;
	}
	*first = a;
	*last = b >= size ? size - 1 : b;
	return RANGE_OK;
}

static size_t put_u64(char *p, uint64_t v)
{
	return rapier_http_u64_to_dec(p, v);
}

static void apply_range(const rapier_static_file_t *file, const rapier_static_request_t *req,
	rapier_static_plan_t *plan)
{
	uint64_t first, last;
	char *p = plan->content_range;

	switch (parse_range(req->range, req->range_len, file->size, &first, &last)) {
		case RANGE_IGNORE:
			return;
		case RANGE_UNSATISFIABLE:
			plan->status = 416;
			plan->offset = plan->length = plan->content_length = 0;
			memcpy(p, "bytes */", 8);
			p += 8;
			p += put_u64(p, file->size);
			break;
		case RANGE_OK:
			plan->status = 206;
			plan->offset = first;
			plan->length = plan->content_length = last - first + 1;
			memcpy(p, "bytes ", 6);
			p += 6;
			p += put_u64(p, first);
			*p++ = '-';
			p += put_u64(p, last);
			*p++ = '/';
			p += put_u64(p, file->size);
			break;
	}
	plan->content_range_len = (size_t) (p - plan->content_range);
}

static bool method_is(const rapier_static_request_t *req, const char *m, size_t len)
{
	return req->method_len == len && memcmp(req->method, m, len) == 0;
}

int rapier_static_plan(const rapier_static_file_t *file, const rapier_static_request_t *req,
	rapier_static_plan_t *plan)
{
	bool get = method_is(req, "GET", 3);

	plan->head = method_is(req, "HEAD", 4);
	plan->status = 200;
	plan->offset = 0;
	plan->length = plan->content_length = file->size;
	plan->content_range_len = 0;
	plan->content_range[0] = '\0';
	if (!get && !plan->head) {
		plan->status = 405;
		plan->length = plan->content_length = 0;
		return 0;
	}
	if (not_modified(file, req)) {
		plan->status = 304;
		plan->length = plan->content_length = 0;
		return 0;
	}
	/* RFC 9110 14.2: range handling is defined for GET only; none offered for a coding made on the fly. */
	if (get && req->range && !file->weak && if_range_holds(file, req)) {
		apply_range(file, req, plan);
	}
	if (plan->head) {
		plan->length = 0;
	}
	return 0;
}

int rapier_static_add_headers(const rapier_static_file_t *file, const rapier_static_plan_t *plan,
	rapier_http_head_t *head)
{
	char date[RAPIER_HTTP_DATE_LEN + 1];
	int rc = 0;

	if (plan->status == 405) {
		return rapier_http_head_add(head, "Allow", 5, "GET, HEAD", 9);
	}
	if (plan->status == 200 || plan->status == 206) {
		rc = rapier_http_head_add(head, "Content-Type", 12, file->mime, file->mime_len);
		if (!file->weak) {
			rc = rc ? rc : rapier_http_head_add(head, "Accept-Ranges", 13, "bytes", 5);
		}
	}
	if (plan->status != 416) {
		rapier_http_date_format(file->mtime, date);
		rc = rc ? rc : rapier_http_head_add(head, "ETag", 4, file->etag, file->etag_len);
		rc = rc ? rc : rapier_http_head_add(head, "Last-Modified", 13, date, RAPIER_HTTP_DATE_LEN);
	}
	if (plan->content_range_len) {
		rc = rc ? rc : rapier_http_head_add(head, "Content-Range", 13, plan->content_range, plan->content_range_len);
	}
	return rc;
}
