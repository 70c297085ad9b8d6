/*
 * Streaming multipart/form-data parser. Body bytes come in pieces of any
 * size (as they leave the HTTP codec); parts go out as begin/data/end
 * callbacks, so an upload can be written to disk without ever being held in
 * memory. Only one part header block (bounded) is buffered at a time.
 *
 * The delimiter is "\r\n--boundary". The body is read as if it started with
 * "\r\n", so the first boundary line needs no special case and a preamble is
 * just data that is thrown away. Boundary characters (RFC 2046 bchars) never
 * include CR, so CR appears only at the delimiter's first byte: a partial
 * match that fails can only restart at a CR, and the bytes held back are
 * always a prefix of the delimiter itself. That makes a matcher with one
 * counter enough (no KMP table, no copy of held-back bytes), correct for a
 * delimiter split across feeds at any position, and memchr() does the work
 * on ordinary data.
 * Rejected: buffering whole parts (uploads would live in memory) and
 * tolerating bare LF line ends (browsers and curl always send CRLF; the
 * ambiguity only helps a request slip past a filter that reads it otherwise).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "multipart.h"

enum {
	ST_PREAMBLE,	/* before the first delimiter: data discarded */
	ST_AFTER_DELIM,	/* right after a delimiter: "--", padding or CRLF */
	ST_PADDING,	/* transport padding (SP, HT) before the CRLF */
	ST_DELIM_LF,	/* CR seen, LF expected */
	ST_CLOSE_DASH,	/* one '-' of the closing "--" seen */
	ST_HEADERS,	/* collecting a part's header block */
	ST_DATA,	/* part body */
	ST_END,		/* after the closing delimiter: epilogue discarded */
	ST_ERROR
};

typedef struct {
	const char *ptr;
	size_t len;
} slice_t;

static int is_ows(char c)
{
	return c == ' ' || c == '\t';
}

static int is_tchar(unsigned char c)
{
	if ((c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z')) {
		return 1;
	}
	return c != 0 && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

/* RFC 2046 5.1.1 bchars; a space may not be last. */
static int valid_boundary(const char *b, size_t len)
{
	if (len == 0 || len > RAPIER_MULTIPART_MAX_BOUNDARY || b[len - 1] == ' ') {
		return 0;
	}
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char) b[i];

		if (!((c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z')
				|| (c != 0 && strchr("'()+_,-./:=? ", c) != NULL))) {
			return 0;
		}
	}
	return 1;
}

static int slice_is(slice_t s, const char *lower)
{
	return s.len == strlen(lower) && strncasecmp(s.ptr, lower, s.len) == 0;
}

/* The media type or disposition type that opens a header value. */
static int type_is(const char **pp, const char *end, const char *lower)
{
	const char *p = *pp;
	size_t n = strlen(lower);

	while (p < end && is_ows(*p)) {
		p++;
	}
	if ((size_t) (end - p) < n || strncasecmp(p, lower, n) != 0) {
		return 0;
	}
	p += n;
	if (p < end && *p != ';' && !is_ows(*p)) {
		return 0;
	}
	*pp = p;
	return 1;
}

/* One parameter: ';' OWS token '=' (token | quoted-string). Returns 1 with
 * the raw value (inside the quotes, escapes left as they are), 0 at the end,
 * -1 when malformed. */
static int next_param(const char **pp, const char *end, slice_t *name, slice_t *value, int *quoted)
{
	const char *p = *pp;

	while (p < end && is_ows(*p)) {
		p++;
	}
	if (p < end && *p != ';') {
		return -1;
	}
	while (p < end && (is_ows(*p) || *p == ';')) {
		p++;
	}
	if (p == end) {
		*pp = p;
		return 0;
	}
	name->ptr = p;
	while (p < end && is_tchar((unsigned char) *p) && *p != '=') {
		p++;
	}
	name->len = (size_t) (p - name->ptr);
	if (name->len == 0 || p == end || *p != '=') {
		return -1;
	}
	*quoted = ++p < end && *p == '"';
	value->ptr = *quoted ? ++p : p;
	while (p < end && (*quoted ? *p != '"' : (*p != ';' && !is_ows(*p)))) {
		p += (*quoted && *p == '\\' && p + 1 < end) ? 2 : 1;
	}
	if (*quoted && p >= end) {
		return -1;
	}
	value->len = (size_t) (p - value->ptr);
	*pp = *quoted ? p + 1 : p;
	return 1;
}

int rapier_multipart_boundary(const char *content_type, size_t len, const char **boundary, size_t *boundary_len)
{
	const char *p = content_type, *end = content_type + len;
	slice_t name, value;
	int quoted, rc, found = 0;

	if (!type_is(&p, end, "multipart/form-data")) {
		return -1;
	}
	while ((rc = next_param(&p, end, &name, &value, &quoted)) == 1) {
		if (!slice_is(name, "boundary")) {
			continue;
		}
		/* Two boundaries: two parsers could pick different ones. */
		if (found++ || (quoted && memchr(value.ptr, '\\', value.len))) {
			return -1;
		}
		*boundary = value.ptr;
		*boundary_len = value.len;
	}
	return rc == 0 && found && valid_boundary(*boundary, *boundary_len) ? 0 : -1;
}

int rapier_multipart_init(rapier_multipart_t *mp, const char *boundary, size_t boundary_len,
	const rapier_multipart_limits_t *limits, const rapier_multipart_callbacks_t *cb, void *data)
{
	if (!valid_boundary(boundary, boundary_len)) {
		return -1;
	}
	memset(mp, 0, sizeof(*mp));
	if (limits) {
		mp->limits = *limits;
	} else {
		mp->limits.max_parts = RAPIER_MULTIPART_DEFAULT_MAX_PARTS;
		mp->limits.max_part_header_size = RAPIER_MULTIPART_DEFAULT_MAX_PART_HEADER_SIZE;
	}
	mp->cb = cb;
	mp->data = data;
	memcpy(mp->delim, "\r\n--", 4);
	memcpy(mp->delim + 4, boundary, boundary_len);
	mp->delim_len = 4 + boundary_len;
	mp->state = ST_PREAMBLE;
	/* The virtual "\r\n" before the body is already matched. */
	mp->match = 2;
	return 0;
}

void rapier_multipart_free(rapier_multipart_t *mp)
{
	free(mp->hbuf);
	mp->hbuf = NULL;
}

static int error(rapier_multipart_t *mp, const char *why)
{
	mp->error = why;
	mp->state = ST_ERROR;
	return -1;
}

static int callback_rc(rapier_multipart_t *mp, int rc)
{
	if (rc != 0) {
		mp->abort_code = rc;
		return error(mp, "stopped by a callback");
	}
	return 0;
}

static int emit(rapier_multipart_t *mp, const char *buf, size_t len)
{
	if (len == 0 || mp->state != ST_DATA || mp->cb->on_part_data == NULL) {
		return 0;
	}
	return callback_rc(mp, mp->cb->on_part_data(mp->data, buf, len));
}

static int delimiter_found(rapier_multipart_t *mp)
{
	int was_data = mp->state == ST_DATA;

	mp->state = ST_AFTER_DELIM;
	if (was_data && mp->cb->on_part_end) {
		return callback_rc(mp, mp->cb->on_part_end(mp->data));
	}
	return 0;
}

/* Part data (or preamble) up to the next delimiter. mark is where a partial
 * match began in this buffer, NULL when it began in an earlier feed: those
 * held-back bytes are a delimiter prefix, re-emitted from delim if the match
 * fails. */
static int scan_data(rapier_multipart_t *mp, const char **pp, const char *end)
{
	const char *p = *pp, *run = p, *mark = NULL;

	while (p < end) {
		if (mp->match == 0) {
			const char *cr = memchr(p, '\r', (size_t) (end - p));

			if (cr == NULL) {
				p = end;
				break;
			}
			mark = cr;
			p = cr + 1;
			mp->match = 1;
			continue;
		}
		if (*p == mp->delim[mp->match]) {
			p++;
			if (++mp->match < mp->delim_len) {
				continue;
			}
			mp->match = 0;
			*pp = p;
			if (emit(mp, run, mark ? (size_t) (mark - run) : 0) != 0) {
				return -1;
			}
			return delimiter_found(mp);
		}
		if (mark == NULL) {
			if (emit(mp, mp->delim, mp->match) != 0) {
				return -1;
			}
			run = p;
		}
		/* The current byte is looked at again: it may be a CR. */
		mp->match = 0;
		mark = NULL;
	}
	*pp = p;
	return emit(mp, run, (size_t) ((mp->match > 0 ? (mark ? mark : run) : p) - run));
}

/* Rewrites a quoted-string in place: \" and \\ lose their backslash; any
 * other backslash stays (old IE sent "C:\dir\file.txt" unescaped). */
static size_t unquote(char *s, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\\' && i + 1 < len && (s[i + 1] == '"' || s[i + 1] == '\\')) {
			i++;
		}
		s[o++] = s[i];
	}
	return o;
}

static int parse_disposition(rapier_multipart_t *mp, const char *v, size_t len, rapier_multipart_part_t *part)
{
	const char *p = v, *end = v + len;
	slice_t name, value;
	int quoted, rc;

	if (!type_is(&p, end, "form-data")) {
		return error(mp, "part is not form-data");
	}
	while ((rc = next_param(&p, end, &name, &value, &quoted)) == 1) {
		const char **dst = slice_is(name, "name") ? &part->name
			: slice_is(name, "filename") ? &part->filename : NULL;
		size_t *dst_len = dst == &part->name ? &part->name_len : &part->filename_len;
		char *w = mp->hbuf + (value.ptr - mp->hbuf);

		if (dst == NULL) {
			continue;	/* filename* and unknown parameters (RFC 7578 4.2) */
		}
		/* Two names: a filter and the app could each read another one. */
		if (*dst != NULL) {
			return error(mp, "duplicate Content-Disposition parameter");
		}
		*dst = w;
		*dst_len = quoted ? unquote(w, value.len) : value.len;
	}
	return rc == 0 ? 0 : error(mp, "malformed Content-Disposition");
}

static int parse_header_line(rapier_multipart_t *mp, const char *line, size_t len, rapier_multipart_part_t *part,
	int *seen_disposition)
{
	const char *colon = memchr(line, ':', len), *v, *end = line + len;
	slice_t name;

	if (memchr(line, '\n', len) || memchr(line, '\0', len)) {
		return error(mp, "bare LF or NUL in a part header");
	}
	if (colon == NULL || colon == line || is_ows(line[0])) {
		return error(mp, "malformed part header");
	}
	name.ptr = line;
	name.len = (size_t) (colon - line);
	for (size_t i = 0; i < name.len; i++) {
		if (!is_tchar((unsigned char) line[i])) {
			return error(mp, "invalid part header name");
		}
	}
	for (v = colon + 1; v < end && is_ows(*v); v++) {
	}
	while (end > v && is_ows(end[-1])) {
		end--;
	}
	if (slice_is(name, "content-disposition")) {
		if ((*seen_disposition)++) {
			return error(mp, "duplicate Content-Disposition");
		}
		return parse_disposition(mp, v, (size_t) (end - v), part);
	}
	if (slice_is(name, "content-type")) {
		if (part->content_type) {
			return error(mp, "duplicate Content-Type");
		}
		part->content_type = v;
		part->content_type_len = (size_t) (end - v);
	}
	return 0;
}

/* The header block is complete in hbuf: "line CRLF ... CRLF" or just CRLF. */
static int part_begin(rapier_multipart_t *mp)
{
	rapier_multipart_part_t part = { 0 };
	const char *p = mp->hbuf, *end = mp->hbuf + mp->hbuf_len - 2;
	int seen_disposition = 0;

	while (p < end) {
		const char *cr = memchr(p, '\r', (size_t) (end + 2 - p));

		if (cr[1] != '\n') {
			return error(mp, "bare CR in a part header");
		}
		if (parse_header_line(mp, p, (size_t) (cr - p), &part, &seen_disposition) != 0) {
			return -1;
		}
		p = cr + 2;
	}
	if (part.name == NULL) {
		return error(mp, "part without a form-data name");
	}
	mp->state = ST_DATA;
	mp->match = 0;
	if (mp->cb->on_part_begin) {
		return callback_rc(mp, mp->cb->on_part_begin(mp->data, &part));
	}
	return 0;
}

static int collect_headers(rapier_multipart_t *mp, const char **pp, const char *end)
{
	const char *p = *pp;

	if (mp->hbuf == NULL) {
		mp->hbuf = malloc(mp->limits.max_part_header_size);
		if (mp->hbuf == NULL) {
			return error(mp, "out of memory");
		}
	}
	while (p < end) {
		char c = *p++;

		if (mp->hbuf_len == mp->limits.max_part_header_size) {
			return error(mp, "part header too large");
		}
		mp->hbuf[mp->hbuf_len++] = c;
		mp->hmatch = c == "\r\n\r\n"[mp->hmatch] ? mp->hmatch + 1 : (c == '\r' ? 1 : 0);
		if (mp->hmatch == 4) {
			*pp = p;
			return part_begin(mp);
		}
	}
	*pp = p;
	return 0;
}

/* The bytes right after a delimiter: "--" closes, else padding then CRLF. */
static int delimiter_tail(rapier_multipart_t *mp, char c)
{
	switch (mp->state) {
	case ST_AFTER_DELIM:
		if (c == '-') {
			mp->state = ST_CLOSE_DASH;
			return 0;
		}
		/* fallthrough */
	case ST_PADDING:
		if (is_ows(c) || c == '\r') {
			mp->state = c == '\r' ? ST_DELIM_LF : ST_PADDING;
			return 0;
		}
		return error(mp, "malformed boundary line");
	case ST_DELIM_LF:
		if (c != '\n') {
			return error(mp, "malformed boundary line");
		}
		if (mp->parts == mp->limits.max_parts) {
			return error(mp, "too many parts");
		}
		mp->parts++;
		mp->hbuf_len = 0;
		/* The boundary line's CRLF counts: an immediate CRLF ends the block. */
		mp->hmatch = 2;
		mp->state = ST_HEADERS;
		return 0;
	default:	/* ST_CLOSE_DASH */
		if (c != '-') {
			return error(mp, "malformed closing boundary");
		}
		mp->state = ST_END;
		return 0;
	}
}

int rapier_multipart_feed(rapier_multipart_t *mp, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;

	while (p < end && mp->state != ST_ERROR) {
		switch (mp->state) {
		case ST_PREAMBLE:
		case ST_DATA:
			scan_data(mp, &p, end);
			break;
		case ST_HEADERS:
			collect_headers(mp, &p, end);
			break;
		case ST_END:
			return 0;	/* the epilogue is ignored */
		default:
			delimiter_tail(mp, *p++);
			break;
		}
	}
	return mp->state == ST_ERROR ? -1 : 0;
}

int rapier_multipart_finish(rapier_multipart_t *mp)
{
	if (mp->state == ST_END) {
		return 0;
	}
	if (mp->state != ST_ERROR) {
		error(mp, "missing closing boundary");
	}
	return -1;
}

const char *rapier_multipart_basename(const char *filename, size_t len, size_t *out_len)
{
	const char *base = filename;

	for (size_t i = 0; i < len; i++) {
		if (filename[i] == '/' || filename[i] == '\\') {
			base = filename + i + 1;
		}
	}
	*out_len = (size_t) (filename + len - base);
	if ((*out_len == 1 && base[0] == '.') || (*out_len == 2 && base[0] == '.' && base[1] == '.')) {
		*out_len = 0;
	}
	return base;
}
