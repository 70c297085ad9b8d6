/* Unit tests for the plain-HTTP port's redirect: the Location made from Host and the target, and what is refused. */
#include "unit.h"

#include <errno.h>

#include "http_parser.c"
#include "http_response.c"
#include "http_redirect.c"

/* Location for a request with this Host (NULL: none) and path/query, or "-EINVAL". */
static const char *location(const char *host, const char *path, const char *query, int port)
{
	static char text[512];
	rapier_http_header_t header = { "host", host, 4, host ? strlen(host) : 0 };
	rapier_http_request_t req;
	rapier_http_buf_t out;
	int rc;

	memset(&req, 0, sizeof(req));
	req.headers = host ? &header : NULL;
	req.header_count = host ? 1 : 0;
	req.path = path;
	req.path_len = strlen(path);
	req.query = query;
	req.query_len = query ? strlen(query) : 0;
	rapier_http_buf_init(&out, NULL, 0, 0);
	rapier_http_buf_append(&out, "x", 1); /* what is there already stays */
	rc = rapier_http_https_location(&req, port, &out);
	if (rc == 0) {
		CHECK(out.data[0] == 'x');
		snprintf(text, sizeof(text), "%.*s", (int) out.len - 1, out.data + 1);
	} else {
		CHECK_EQ_INT(out.len, 1);
		snprintf(text, sizeof(text), "%s", rc == -EINVAL ? "-EINVAL" : "other error");
	}
	rapier_http_buf_free(&out);
	return text;
}

static void test_locations(void)
{
	CHECK_EQ_STR(location("example.com", "/", NULL, 443), "https://example.com/");
	CHECK_EQ_STR(location("example.com:80", "/a/b", "x=1&y=%20", 443), "https://example.com/a/b?x=1&y=%20");
	CHECK_EQ_STR(location("shop.example:8080", "/cart", NULL, 8443), "https://shop.example:8443/cart");
	CHECK_EQ_STR(location("127.0.0.1:8080", "/", "q", 8443), "https://127.0.0.1:8443/?q");
	CHECK_EQ_STR(location("[::1]:8080", "/v6", NULL, 8443), "https://[::1]:8443/v6");
	CHECK_EQ_STR(location("[2001:db8::1]", "/", NULL, 443), "https://[2001:db8::1]/");
	CHECK_EQ_STR(location("under_score-ok.example", "/", NULL, 443), "https://under_score-ok.example/");
	/* "OPTIONS *" and an empty path go to the root. */
	CHECK_EQ_STR(location("example.com", "*", NULL, 443), "https://example.com/");
}

static void test_refused_hosts(void)
{
	const char *bad[] = {
		NULL, "", ":80", "exa mple.com", "example.com\r\nSet-Cookie: a=b", "evil.example/path",
		"user@example.com", "example.com:80x", "example.com:80:90", "[::1", "[]", "[::1]x", "[::g]",
		"example.com?", "exa\"mple", "%65xample.com",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *got = location(bad[i], "/", NULL, 443);

		if (strcmp(got, "-EINVAL") != 0) {
			fprintf(stderr, "host \"%s\" was not refused: %s\n", bad[i] ? bad[i] : "(none)", got);
		}
		CHECK_EQ_STR(got, "-EINVAL");
	}
}

static void test_acme_challenge(void)
{
	rapier_http_request_t req;

	memset(&req, 0, sizeof(req));
	req.path = "/.well-known/acme-challenge/abc123";
	req.path_len = strlen(req.path);
	CHECK(rapier_http_is_acme_challenge(&req));
	req.path = "/.well-known/acme-challenge/";
	req.path_len = strlen(req.path);
	CHECK(!rapier_http_is_acme_challenge(&req));
	req.path = "/.well-known/security.txt";
	req.path_len = strlen(req.path);
	CHECK(!rapier_http_is_acme_challenge(&req));
}

int main(void)
{
	test_locations();
	test_refused_hosts();
	test_acme_challenge();
	return unit_finish("http_redirect");
}
