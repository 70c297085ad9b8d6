/*
 * libFuzzer driver for the small decoders the server applies to parsed
 * fields (src/http_parser.c): rapier_http_decode_path() on any bytes (the
 * request codec only lets printable targets through, this driver does not
 * care), and rapier_http_cookie_next() on any Cookie value.
 *
 * Input: byte 0 even: the rest is a path; odd: the rest is a Cookie value.
 * Checked: decoding into a copy and in place agree, never grows the path
 * and never yields a NUL; every cookie pair lies inside the value, has a
 * non-empty name without OWS at its ends and no ';', and the iteration
 * always advances and ends at the end of the value.
 */
#include <string.h>

#include "fuzz.h"
#include "http_parser.c"

static void fuzz_path(const char *in, size_t len)
{
	char *out = malloc(len + 1), *inplace = malloc(len + 1);
	size_t out_len = 0, inplace_len = 0;
	int rc, rc2;

	memcpy(inplace, in, len);
	rc = rapier_http_decode_path(in, len, out, &out_len);
	rc2 = rapier_http_decode_path(inplace, len, inplace, &inplace_len);
	FUZZ_CHECK(rc == rc2 && (rc == 0 || rc == -1));
	if (rc == 0) {
		FUZZ_CHECK(out_len <= len && out_len == inplace_len);
		FUZZ_CHECK(memcmp(out, inplace, out_len) == 0);
		FUZZ_CHECK(memchr(out, '\0', out_len) == NULL);
		/* Without '%' the path comes out unchanged. */
		FUZZ_CHECK(memchr(in, '%', len) != NULL || (out_len == len && memcmp(out, in, len) == 0));
	}
	free(out);
	free(inplace);
}

static void fuzz_cookies(const char *value, size_t len)
{
	const char *cursor = value, *end = value + len, *last = value;
	rapier_http_cookie_t c;

	while (rapier_http_cookie_next(&cursor, end, &c) == 1) {
		FUZZ_CHECK(c.name >= last && c.name_len > 0 && c.name + c.name_len <= end);
		FUZZ_CHECK(c.value >= c.name + c.name_len && c.value + c.value_len <= end);
		FUZZ_CHECK(memchr(c.name, ';', c.name_len) == NULL && memchr(c.value, ';', c.value_len) == NULL);
		FUZZ_CHECK(memchr(c.name, '=', c.name_len) == NULL);
		FUZZ_CHECK(!is_ows(c.name[0]) && !is_ows(c.name[c.name_len - 1]));
		FUZZ_CHECK(c.value_len == 0 || (!is_ows(c.value[0]) && !is_ows(c.value[c.value_len - 1])));
		FUZZ_CHECK(cursor > last && cursor <= end);
		last = cursor;
	}
	FUZZ_CHECK(cursor == end);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *field;

	if (size < 1) {
		return 0;
	}
	/* A copy without slack, so that ASan sees any read past the field. */
	field = malloc(size > 1 ? size - 1 : 1);
	memcpy(field, data + 1, size - 1);
	if (data[0] & 1) {
		fuzz_cookies(field, size - 1);
	} else {
		fuzz_path(field, size - 1);
	}
	free(field);
	return 0;
}
