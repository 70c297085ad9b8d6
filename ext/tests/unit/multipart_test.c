/*
 * Unit tests for the multipart/form-data parser. Each well-formed fixture is
 * parsed whole, byte by byte, and split in two at every byte offset; every
 * run must produce the same parts.
 */
#include "unit.h"

#include "multipart.c"

typedef struct {
	char log[16384];
	size_t len;
	int abort_on_data;
} recorder_t;

static void log_bytes(recorder_t *r, const char *s, size_t n)
{
	if (r->len + n < sizeof(r->log)) {
		memcpy(r->log + r->len, s, n);
		r->len += n;
		r->log[r->len] = '\0';
	}
}

static void log_field(recorder_t *r, const char *s, size_t n)
{
	if (s == NULL) {
		log_bytes(r, "-", 1);
	} else {
		log_bytes(r, "'", 1);
		log_bytes(r, s, n);
		log_bytes(r, "'", 1);
	}
}

static int on_begin(void *data, const rapier_multipart_part_t *part)
{
	recorder_t *r = data;

	log_bytes(r, "{", 1);
	log_field(r, part->name, part->name_len);
	log_bytes(r, " ", 1);
	log_field(r, part->filename, part->filename_len);
	log_bytes(r, " ", 1);
	log_field(r, part->content_type, part->content_type_len);
	log_bytes(r, ":", 1);
	return 0;
}

static int on_data(void *data, const char *buf, size_t len)
{
	recorder_t *r = data;

	CHECK(len > 0);
	log_bytes(r, buf, len);
	return r->abort_on_data;
}

static int on_end(void *data)
{
	log_bytes(data, "}", 1);
	return 0;
}

static const rapier_multipart_callbacks_t callbacks = { on_begin, on_data, on_end };

/* Parses body cut at the given offsets (sorted, ended by len); returns the
 * finish() result, or -1 when a feed failed. */
static int parse_cuts(const char *body, size_t len, const size_t *cuts, size_t ncuts,
	const rapier_multipart_limits_t *limits, recorder_t *r, rapier_multipart_t *mp)
{
	size_t pos = 0;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	CHECK_EQ_INT(rapier_multipart_init(mp, "XyZ", 3, limits, &callbacks, r), 0);
	for (size_t i = 0; i < ncuts && rc == 0; i++) {
		rc = rapier_multipart_feed(mp, body + pos, cuts[i] - pos);
		pos = cuts[i];
	}
	if (rc == 0) {
		rc = rapier_multipart_finish(mp);
	}
	rapier_multipart_free(mp);
	return rc;
}

static recorder_t whole, other;

/* Runs body whole, byte by byte and split at every offset; returns the
 * whole run's rc with its log in `whole`. */
static int run_all(const char *body, size_t len, const rapier_multipart_limits_t *limits, const char *what)
{
	rapier_multipart_t mp;
	size_t cuts[2] = { 0, len }, *bytes = malloc((len + 1) * sizeof(size_t));
	int before = unit_failures;
	int rc = parse_cuts(body, len, &cuts[1], 1, limits, &whole, &mp);

	for (size_t i = 0; i < len; i++) {
		bytes[i] = i + 1;
	}
	CHECK_EQ_INT(parse_cuts(body, len, bytes, len, limits, &other, &mp), rc);
	CHECK_EQ_STR(other.log, whole.log);
	for (size_t at = 0; at <= len && unit_failures == before; at++) {
		cuts[0] = at;
		CHECK_EQ_INT(parse_cuts(body, len, cuts, 2, limits, &other, &mp), rc);
		if (rc == 0) {
			CHECK_EQ_STR(other.log, whole.log);
		}
	}
	free(bytes);
	if (unit_failures != before) {
		fprintf(stderr, "  in fixture: %s\n", what);
	}
	return rc;
}

#define RUN(body) run_all(body, sizeof(body) - 1, NULL, #body)

static void test_fields_and_files(void)
{
	static const char body[] =
		"This is the preamble.\r\nIt is ignored.\r\n"
		"--XyZ\r\n"
		"Content-Disposition: form-data; name=\"title\"\r\n"
		"\r\n"
		"Hello\r\nWorld\r\n"
		"--XyZ\r\n"
		"content-disposition: form-data; name=\"upload\"; filename=\"C:\\dir\\a \\\"b\\\".txt\"\r\n"
		"Content-Type: text/plain\r\n"
		"\r\n"
		"a--XyZ\r\n--Xy\r\n-\r\r\n--xyz\r\n\r\n--XyX\r\r\n\r\n--\r\n"
		"--XyZ\r\n"
		"Content-Disposition: form-data; name=\"empty\"; filename=\"\"\r\n"
		"Content-Type: application/octet-stream\r\n"
		"\r\n"
		"\r\n"
		"--XyZ  \t\r\n"
		"Content-Disposition: form-data; name=caf\xc3\xa9; filename*=UTF-8''x\r\n"
		"X-Ignored: yes\r\n"
		"\r\n"
		"\r\n"
		"\r\n"
		"--XyZ--\r\n"
		"This is the epilogue. --XyZ\r\n";

	CHECK_EQ_INT(RUN(body), 0);
	CHECK_EQ_STR(whole.log,
		"{'title' - -:Hello\r\nWorld}"
		"{'upload' 'C:\\dir\\a \"b\".txt' 'text/plain':a--XyZ\r\n--Xy\r\n-\r\r\n--xyz\r\n\r\n--XyX\r\r\n\r\n--}"
		"{'empty' '' 'application/octet-stream':}"
		"{'caf\xc3\xa9' - -:\r\n}");
}

static void test_edge_bodies(void)
{
	CHECK_EQ_INT(RUN("--XyZ--"), 0);
	CHECK_EQ_STR(whole.log, "");
	CHECK_EQ_INT(RUN("--XyZ\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--XyZ--"), 0);
	CHECK_EQ_STR(whole.log, "{'a' - -:1}");
	/* A preamble that looks like a boundary but is not at a line start. */
	CHECK_EQ_INT(RUN("x--XyZ\r\n--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n\r\n--XyZ--"), 0);
	CHECK_EQ_STR(whole.log, "{'a' - -:}");
	/* Binary data full of CRs and delimiter prefixes. */
	CHECK_EQ_INT(RUN("--XyZ\r\nContent-Disposition: form-data; name=\"b\"\r\n\r\n\r\r\r\n\r\n-\r\n--\r\n--X\r\n--Xy\r\n\r\n--XyZ--"), 0);
	CHECK_EQ_STR(whole.log, "{'b' - -:\r\r\r\n\r\n-\r\n--\r\n--X\r\n--Xy\r\n}");
}

static void expect_error(const char *body, size_t len, const rapier_multipart_limits_t *limits, const char *what)
{
	int before = unit_failures;

	CHECK_EQ_INT(run_all(body, len, limits, what), -1);
	if (unit_failures != before) {
		fprintf(stderr, "  expected an error for: %s\n", what);
	}
}

#define BAD(body) expect_error(body, sizeof(body) - 1, NULL, #body)
#define CD "Content-Disposition: form-data; name=\"a\"\r\n"

static void test_malformed(void)
{
	BAD("");
	BAD("no boundary at all");
	BAD("--XyZ\r\n" CD "\r\ndata");
	BAD("--XyZ\r\n" CD "\r\ndata\r\n--XyZ");
	BAD("--XyZ\r\n" CD "\r\ndata\r\n--XyZ-");
	BAD("--XyZ\r\n" CD);
	BAD("--XyZ\r\n" CD "\r\n1\r\n--XyZx\r\n" CD "\r\n2\r\n--XyZ--");
	BAD("--XyZ\r\n" CD "\r\n1\r\n--XyZ-x");
	BAD("--XyZ\n" CD "\r\n1\r\n--XyZ--");
	BAD("--XyZ\r\r\n" CD "\r\n1\r\n--XyZ--");
	BAD("--XyZ\r\n\r\n1\r\n--XyZ--");
	/* An empty header block is seen at once, not at finish(). */
	rapier_multipart_t mp;
	CHECK_EQ_INT(rapier_multipart_init(&mp, "XyZ", 3, NULL, &callbacks, &other), 0);
	CHECK_EQ_INT(rapier_multipart_feed(&mp, "--XyZ\r\n\r\n", 9), -1);
	CHECK_EQ_STR(mp.error, "part without a form-data name");
	rapier_multipart_free(&mp);
	BAD("--XyZ\r\nContent-Type: text/plain\r\n\r\n1\r\n--XyZ--");
	BAD("--XyZ\r\nContent-Disposition: attachment; name=\"a\"\r\n\r\n1\r\n--XyZ--");
	BAD("--XyZ\r\nContent-Disposition: form-data\r\n\r\n1\r\n--XyZ--");
	BAD("--XyZ\r\nContent-Disposition: form-data; filename=\"f\"\r\n\r\n1\r\n--XyZ--");
	BAD("--XyZ\r\nContent-Disposition: form-data; name=\"a\"; name=\"b\"\r\n\r\n1\r\n--XyZ--");
	BAD("--XyZ\r\nContent-Disposition: form-data; name=\"a\"; filename=\"x\"; filename=\"y\"\r\n\r\n1\r\n--XyZ--");
	BAD("--XyZ\r\nContent-Disposition: form-data; name=\"a\r\n\r\n1\r\n--XyZ--");
	BAD("--XyZ\r\nContent-Disposition: form-data; name\r\n\r\n1\r\n--XyZ--");
	BAD("--XyZ\r\n" CD CD "\r\n1\r\n--XyZ--");
	BAD("--XyZ\r\n" CD "Content-Type: a\r\nContent-Type: b\r\n\r\n1\r\n--XyZ--");
	BAD("--XyZ\r\n" CD "NoColon\r\n\r\n1\r\n--XyZ--");
	BAD("--XyZ\r\n" CD "Bad Name: x\r\n\r\n1\r\n--XyZ--");
	BAD("--XyZ\r\n" CD " folded\r\n\r\n1\r\n--XyZ--");
	BAD("--XyZ\r\nContent-Disposition: form-data; name=\"a\"\nX: y\r\n\r\n1\r\n--XyZ--");
	BAD("--XyZ\r\nContent-Disposition: form-data; name=\"a\"\rX: y\r\n\r\n1\r\n--XyZ--");
	BAD("--XyZ\r\nContent-Disposition: form-data; name=\"a\0b\"\r\n\r\n1\r\n--XyZ--");
}

static void test_limits(void)
{
	rapier_multipart_limits_t l = { .max_parts = 2, .max_part_header_size = sizeof(CD) - 1 + 2 };
	static const char two[] = "--XyZ\r\n" CD "\r\n1\r\n--XyZ\r\n" CD "\r\n2\r\n--XyZ--";
	static const char three[] = "--XyZ\r\n" CD "\r\n1\r\n--XyZ\r\n" CD "\r\n2\r\n--XyZ\r\n" CD "\r\n3\r\n--XyZ--";
	static const char longer[] = "--XyZ\r\nContent-Disposition: form-data; name=\"ab\"\r\n\r\n1\r\n--XyZ--";

	/* Both parts' header blocks are exactly at the limit. */
	CHECK_EQ_INT(run_all(two, sizeof(two) - 1, &l, "two parts"), 0);
	CHECK_EQ_STR(whole.log, "{'a' - -:1}{'a' - -:2}");
	expect_error(three, sizeof(three) - 1, &l, "three parts");
	expect_error(longer, sizeof(longer) - 1, &l, "part header one over");
}

static void test_callback_abort(void)
{
	static const char body[] = "--XyZ\r\n" CD "\r\n1\r\n--XyZ--";
	rapier_multipart_t mp;
	recorder_t r = { .abort_on_data = 507 };

	CHECK_EQ_INT(rapier_multipart_init(&mp, "XyZ", 3, NULL, &callbacks, &r), 0);
	CHECK_EQ_INT(rapier_multipart_feed(&mp, body, sizeof(body) - 1), -1);
	CHECK_EQ_INT(mp.abort_code, 507);
	CHECK_EQ_INT(rapier_multipart_feed(&mp, "x", 1), -1);
	CHECK_EQ_INT(rapier_multipart_finish(&mp), -1);
	rapier_multipart_free(&mp);
}

static void check_boundary(const char *ct, const char *want)
{
	const char *b = NULL;
	size_t len = 0;
	int rc = rapier_multipart_boundary(ct, strlen(ct), &b, &len);

	CHECK_EQ_INT(rc, want ? 0 : -1);
	if (want && rc == 0) {
		char got[128];

		snprintf(got, sizeof(got), "%.*s", (int) len, b);
		CHECK_EQ_STR(got, want);
	} else if (want == NULL && rc == 0) {
		fprintf(stderr, "  unexpected boundary in: %s\n", ct);
	}
}

static void test_boundary_extraction(void)
{
	char ct[200];
	rapier_multipart_t mp;

	check_boundary("multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW", "----WebKitFormBoundary7MA4YWxkTrZu0gW");
	check_boundary("Multipart/Form-Data;BOUNDARY=\"a b:c\"", "a b:c");
	check_boundary("multipart/form-data; charset=utf-8; boundary=abc", "abc");
	check_boundary("multipart/form-data; foo=\"x; boundary=evil\"; boundary=good", "good");
	check_boundary(" multipart/form-data ; boundary=abc ", "abc");
	check_boundary("multipart/mixed; boundary=abc", NULL);
	check_boundary("multipart/form-dataX; boundary=abc", NULL);
	check_boundary("multipart/form-data", NULL);
	check_boundary("multipart/form-data; boundary=", NULL);
	check_boundary("multipart/form-data; boundary=\"\"", NULL);
	check_boundary("multipart/form-data; boundary=abc; boundary=abc", NULL);
	check_boundary("multipart/form-data; boundary=\"abc \"", NULL);
	check_boundary("multipart/form-data; boundary=\"a\\\"b\"", NULL);
	check_boundary("multipart/form-data; boundary=a\x01", NULL);
	check_boundary("multipart/form-data; boundary=\"abc", NULL);
	check_boundary("multipart/form-data; boundary", NULL);
	snprintf(ct, sizeof(ct), "multipart/form-data; boundary=%070d", 7);
	check_boundary(ct, ct + 30);
	snprintf(ct, sizeof(ct), "multipart/form-data; boundary=%071d", 7);
	check_boundary(ct, NULL);
	CHECK_EQ_INT(rapier_multipart_init(&mp, "", 0, NULL, &callbacks, NULL), -1);
	CHECK_EQ_INT(rapier_multipart_init(&mp, "a\rb", 3, NULL, &callbacks, NULL), -1);
}

static void check_basename(const char *in, const char *want)
{
	size_t len;
	const char *b = rapier_multipart_basename(in, strlen(in), &len);
	char got[64];

	snprintf(got, sizeof(got), "%.*s", (int) len, b);
	CHECK_EQ_STR(got, want);
}

static void test_basename(void)
{
	check_basename("a.txt", "a.txt");
	check_basename("/etc/passwd", "passwd");
	check_basename("C:\\Users\\me\\photo.jpg", "photo.jpg");
	check_basename("../../x", "x");
	check_basename("dir/", "");
	check_basename("..", "");
	check_basename("a/..", "");
	check_basename(".", "");
	check_basename("...", "...");
	check_basename("", "");
}

int main(void)
{
	test_fields_and_files();
	test_edge_bodies();
	test_malformed();
	test_limits();
	test_callback_abort();
	test_boundary_extraction();
	test_basename();
	return unit_finish("multipart_test");
}
