/*
 * libFuzzer driver for the PROXY protocol parser (src/proxy_protocol.c).
 * The server peeks at a new connection's first bytes as they come and
 * parses what it has each time (http_proxy.c); a client that reaches the
 * port without the balancer may send anything.
 *
 * Checked, for every prefix of the input as well as the whole: a prefix
 * shorter than a header that parses is MORE, and every longer one parses
 * to the same header; once a prefix is INVALID every longer one is; a
 * parsed header lies within the bytes it was given and within
 * RAPIER_PROXY_MAX, and so does each TLV value; the source, when there is
 * one, is an IPv4 or IPv6 address of its family's length.
 */
#include <string.h>

#include "fuzz.h"
#include "proxy_protocol.c"

static void check_header(const uint8_t *data, size_t len, const rapier_proxy_header_t *h)
{
	FUZZ_CHECK(h->length > 0 && h->length <= len && h->length <= RAPIER_PROXY_MAX);
	FUZZ_CHECK(h->ssl >= -1 && h->ssl <= 1);
	if (h->has_source) {
		FUZZ_CHECK((h->source.ss_family == AF_INET && h->source_len == sizeof(struct sockaddr_in))
			|| (h->source.ss_family == AF_INET6 && h->source_len == sizeof(struct sockaddr_in6)));
	}
	for (int i = 0; i < RAPIER_PROXY_TLV_COUNT; i++) {
		if (h->tlv[i].at != NULL) {
			FUZZ_CHECK(h->tlv[i].at >= data && h->tlv[i].at + h->tlv[i].len <= data + h->length);
		}
	}
}

/* What a parse said, to compare one prefix's with another's. */
static uint64_t digest(const rapier_proxy_header_t *h, const uint8_t *data)
{
	uint64_t d = 1469598103934665603ull;

	fuzz_digest(&d, &h->length, sizeof(h->length));
	fuzz_digest(&d, &h->has_source, sizeof(h->has_source));
	if (h->has_source) {
		fuzz_digest(&d, &h->source, h->source_len);
	}
	fuzz_digest(&d, &h->ssl, sizeof(h->ssl));
	fuzz_digest(&d, &h->ssl_client, sizeof(h->ssl_client));
	fuzz_digest(&d, &h->ssl_verify, sizeof(h->ssl_verify));
	fuzz_digest(&d, &h->has_azure_pel_id, sizeof(h->has_azure_pel_id));
	fuzz_digest(&d, &h->azure_pel_id, sizeof(h->azure_pel_id));
	for (int i = 0; i < RAPIER_PROXY_TLV_COUNT; i++) {
		size_t offset = h->tlv[i].at ? (size_t) (h->tlv[i].at - data) : 0;

		fuzz_digest(&d, &offset, sizeof(offset));
		fuzz_digest(&d, &h->tlv[i].len, sizeof(h->tlv[i].len));
	}
	return d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	rapier_proxy_header_t whole, part;
	rapier_proxy_result_t rc = rapier_proxy_parse(data, size, &whole);
	bool invalid = false;

	if (rc == RAPIER_PROXY_DONE) {
		check_header(data, size, &whole);
	}
	for (size_t n = 0; n <= size; n++) {
		rapier_proxy_result_t prc = rapier_proxy_parse(data, n, &part);

		if (invalid) {
			FUZZ_CHECK(prc == RAPIER_PROXY_INVALID);
			continue;
		}
		invalid = prc == RAPIER_PROXY_INVALID;
		if (rc == RAPIER_PROXY_DONE) {
			if (n < whole.length) {
				FUZZ_CHECK(prc == RAPIER_PROXY_MORE);
			} else {
				FUZZ_CHECK(prc == RAPIER_PROXY_DONE);
				check_header(data, n, &part);
				FUZZ_CHECK(digest(&part, data) == digest(&whole, data));
			}
		} else if (rc == RAPIER_PROXY_MORE) {
			FUZZ_CHECK(prc == RAPIER_PROXY_MORE);
		}
	}
	/* An input that ends INVALID got there at some prefix, and never parsed before it. */
	FUZZ_CHECK(invalid == (rc == RAPIER_PROXY_INVALID));
	return 0;
}
