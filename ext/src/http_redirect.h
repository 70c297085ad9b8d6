/*
 * The plain-HTTP port beside HTTPS (http_port): where its requests are
 * redirected, made from the request alone, and the one path it still
 * serves itself.
 */
#ifndef RAPIER_HTTP_REDIRECT_H
#define RAPIER_HTTP_REDIRECT_H

#include <stdbool.h>

#include "http_parser.h"
#include "http_response.h"

/*
 * Appends "https://host[:port]/path?query" for req to out: the name of its
 * Host header (its port dropped, "[v6]" kept) with the given port, which is
 * left out when it is 443. Returns 0; -EINVAL, with nothing appended, when
 * Host is missing or holds anything a host name or address cannot (the URL
 * goes into a header of ours); or what rapier_http_buf_append() returns.
 */
int rapier_http_https_location(const rapier_http_request_t *req, int port, rapier_http_buf_t *out);

/* RFC 8555's http-01 challenge path, which an ACME client such as certbot serves over plain HTTP. */
bool rapier_http_is_acme_challenge(const rapier_http_request_t *req);

#endif
