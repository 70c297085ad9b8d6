/*
 * The redirect of the plain-HTTP port beside HTTPS. See http_redirect.h.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "http_redirect.h"

/* The host part of a Host value ("name", "1.2.3.4", "[::1]"): its length, or 0 when it is not one. */
static size_t host_name_length(const char *host, size_t len)
{
	size_t end;

	if (len > 0 && host[0] == '[') {
		const char *close = memchr(host, ']', len);

		if (close == NULL || close == host + 1) {
			return 0;
		}
		end = (size_t) (close - host) + 1;
		for (size_t i = 1; i + 1 < end; i++) {
			if (!isxdigit((unsigned char) host[i]) && host[i] != ':' && host[i] != '.') {
				return 0;
			}
		}
	} else {
		for (end = 0; end < len && host[end] != ':'; end++) {
			if (!isalnum((unsigned char) host[end]) && host[end] != '-' && host[end] != '.' && host[end] != '_') {
				return 0;
			}
		}
	}
	if (end < len) {
		/* Only a port may follow: digits after the colon. */
		if (host[end] != ':') {
			return 0;
		}
		for (size_t i = end + 1; i < len; i++) {
			if (!isdigit((unsigned char) host[i])) {
				return 0;
			}
		}
	}
	return end;
}

static int append_url(rapier_http_buf_t *out, const char *host, size_t host_len, int port,
	const rapier_http_request_t *req)
{
	char port_text[16];
	int rc;

	if ((rc = rapier_http_buf_append(out, "https://", 8)) < 0 || (rc = rapier_http_buf_append(out, host, host_len)) < 0) {
		return rc;
	}
	if (port != 443) {
		int n = snprintf(port_text, sizeof(port_text), ":%d", port);

		if ((rc = rapier_http_buf_append(out, port_text, (size_t) n)) < 0) {
			return rc;
		}
	}
	if (req->path_len > 0 && req->path[0] == '/') {
		rc = rapier_http_buf_append(out, req->path, req->path_len);
	} else {
		rc = rapier_http_buf_append(out, "/", 1); /* "OPTIONS *": the site's root stands in */
	}
	if (rc < 0 || req->query_len == 0) {
		return rc;
	}
	if ((rc = rapier_http_buf_append(out, "?", 1)) < 0) {
		return rc;
	}
	return rapier_http_buf_append(out, req->query, req->query_len);
}

int rapier_http_https_location(const rapier_http_request_t *req, int port, rapier_http_buf_t *out)
{
	size_t host_len = 0, name_len, start = out->len;
	const char *host = rapier_http_request_header(req, "host", &host_len);
	int rc;

	if (host == NULL || (name_len = host_name_length(host, host_len)) == 0) {
		return -EINVAL;
	}
	if ((rc = append_url(out, host, name_len, port, req)) < 0) {
		out->len = start;
	}
	return rc;
}

bool rapier_http_is_acme_challenge(const rapier_http_request_t *req)
{
	static const char prefix[] = "/.well-known/acme-challenge/";

	return req->path_len > sizeof(prefix) - 1 && memcmp(req->path, prefix, sizeof(prefix) - 1) == 0;
}
