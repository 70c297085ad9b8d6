/* Unit tests for the PROXY protocol parser: versions 1 and 2, headers arriving in pieces, and what is refused. */
#include "unit.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include "proxy_protocol.c"

/* "address port" of a parsed source, "-" when there is none, or "MORE" / "INVALID". */
static const char *parse(const void *data, size_t len, size_t *length)
{
	static char text[INET6_ADDRSTRLEN + 8];
	rapier_proxy_header_t h;
	rapier_proxy_result_t rc;

	memset(&h, 0xAB, sizeof(h));
	rc = rapier_proxy_parse(data, len, &h);
	if (rc != RAPIER_PROXY_DONE) {
		return rc == RAPIER_PROXY_MORE ? "MORE" : "INVALID";
	}
	if (length) {
		*length = h.length;
	}
	if (!h.has_source) {
		return "-";
	}
	if (h.source.ss_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *) &h.source;
		CHECK_EQ_INT(h.source_len, sizeof(*in));
		inet_ntop(AF_INET, &in->sin_addr, text, sizeof(text));
		snprintf(text + strlen(text), 8, " %u", ntohs(in->sin_port));
	} else {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *) &h.source;
		CHECK_EQ_INT(h.source.ss_family, AF_INET6);
		CHECK_EQ_INT(h.source_len, sizeof(*in6));
		inet_ntop(AF_INET6, &in6->sin6_addr, text, sizeof(text));
		snprintf(text + strlen(text), 8, " %u", ntohs(in6->sin6_port));
	}
	return text;
}

static const char *parse_str(const char *s, size_t *length)
{
	return parse(s, strlen(s), length);
}

static void test_v1(void)
{
	size_t length = 0;
	const char *line = "PROXY TCP4 192.0.2.7 198.51.100.1 51234 443\r\nGET / HTTP/1.1\r\n";

	CHECK_EQ_STR(parse_str(line, &length), "192.0.2.7 51234");
	CHECK_EQ_INT(length, strlen("PROXY TCP4 192.0.2.7 198.51.100.1 51234 443\r\n"));
	CHECK_EQ_STR(parse_str("PROXY TCP6 2001:db8::7 2001:db8::1 65535 8080\r\n", NULL), "2001:db8::7 65535");
	CHECK_EQ_STR(parse_str("PROXY UNKNOWN\r\n", &length), "-");
	CHECK_EQ_INT(length, 15);
	CHECK_EQ_STR(parse_str("PROXY UNKNOWN ffff::1 ffff::2 1 2\r\n", NULL), "-");
	/* The longest line the specification allows. */
	CHECK_EQ_STR(parse_str("PROXY UNKNOWN ffff:f...f:ffff ffff:f...f:ffff 65535 65535 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\r\n",
		&length), "-");
	CHECK_EQ_INT(length, 107);
}

static void test_v1_in_pieces(void)
{
	const char *line = "PROXY TCP4 192.0.2.7 198.51.100.1 51234 443\r\n";

	for (size_t n = 0; n < strlen(line); n++) {
		CHECK_EQ_STR(parse(line, n, NULL), "MORE");
	}
	CHECK_EQ_STR(parse(line, strlen(line), NULL), "192.0.2.7 51234");
}

static void test_v1_refused(void)
{
	const char *bad[] = {
		"GET / HTTP/1.1\r\n", "PROXX", "proxy TCP4 1.2.3.4 1.2.3.4 1 2\r\n",
		"PROXY TCP4 1.2.3.4 1.2.3.4 1 2\n",           /* LF alone */
		"PROXY TCP4  1.2.3.4 1.2.3.4 1 2\r\n",        /* two spaces */
		"PROXY TCP4 1.2.3.4 1.2.3.4 1 2 \r\n",        /* a trailing space */
		"PROXY TCP4 1.2.3.4 1.2.3.4 1\r\n",
		"PROXY TCP4 1.2.3.4 1.2.3.4 1 2 3\r\n",
		"PROXY TCP4 1.2.3.256 1.2.3.4 1 2\r\n",
		"PROXY TCP4 2001:db8::1 1.2.3.4 1 2\r\n",    /* the wrong family */
		"PROXY TCP6 1.2.3.4 2001:db8::1 1 2\r\n",
		"PROXY TCP4 1.2.3.4 1.2.3.4 65536 2\r\n",
		"PROXY TCP4 1.2.3.4 1.2.3.4 123456 2\r\n",
		"PROXY TCP4 1.2.3.4 1.2.3.4 -1 2\r\n",
		"PROXY TCP4 1.2.3.4 1.2.3.4 1 x\r\n",
		"PROXY UDP4 1.2.3.4 1.2.3.4 1 2\r\n",
		"PROXY UNKNOWNX\r\n",
		"PROXY \r\n",
		"PROXY\r\n",
	};
	char longer[RAPIER_PROXY_V1_MAX + 8];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *got = parse_str(bad[i], NULL);
		if (strcmp(got, "INVALID") != 0) {
			fprintf(stderr, "accepted: %s", bad[i]);
		}
		CHECK_EQ_STR(got, "INVALID");
	}
	/* 107 bytes without an end: no valid line is that long. */
	memset(longer, 'x', sizeof(longer));
	memcpy(longer, "PROXY UNKNOWN ", 14);
	CHECK_EQ_STR(parse(longer, RAPIER_PROXY_V1_MAX - 1, NULL), "MORE");
	CHECK_EQ_STR(parse(longer, RAPIER_PROXY_V1_MAX, NULL), "INVALID");
}

/* A version 2 header: command, family byte, then body bytes. */
static size_t v2(unsigned char *out, unsigned command, unsigned family, const void *body, size_t body_len)
{
	memcpy(out, v2_signature, 12);
	out[12] = (unsigned char) (0x20 | command);
	out[13] = (unsigned char) family;
	out[14] = (unsigned char) (body_len >> 8);
	out[15] = (unsigned char) body_len;
	memcpy(out + 16, body, body_len);
	return 16 + body_len;
}

static void test_v2(void)
{
	unsigned char buf[RAPIER_PROXY_MAX + 64], body[600];
	size_t len, length = 0;

	/* TCP over IPv4: 192.0.2.7:51234 to 198.51.100.1:443, then a TLV (as AWS NLB adds). */
	memcpy(body, "\xC0\x00\x02\x07" "\xC6\x33\x64\x01" "\xC8\x22" "\x01\xBB" "\xEA\x00\x03" "abc", 19);
	len = v2(buf, 1, 0x11, body, 19);
	memcpy(buf + len, "GET", 3);
	CHECK_EQ_STR(parse(buf, len + 3, &length), "192.0.2.7 51234");
	CHECK_EQ_INT(length, 16 + 19);
	for (size_t n = 0; n < len; n++) {
		CHECK_EQ_STR(parse(buf, n, NULL), "MORE");
	}
	/* TCP over IPv6. */
	memset(body, 0, 36);
	body[0] = 0x20; body[1] = 0x01; body[2] = 0x0d; body[3] = 0xb8; body[15] = 7;
	body[32] = 0x1F; body[33] = 0x90;
	len = v2(buf, 1, 0x21, body, 36);
	CHECK_EQ_STR(parse(buf, len, NULL), "2001:db8::7 8080");
	/* LOCAL (a health check), UNSPEC, Unix and UDP: no client address. */
	CHECK_EQ_STR(parse(buf, v2(buf, 0, 0x00, body, 0), &length), "-");
	CHECK_EQ_INT(length, 16);
	CHECK_EQ_STR(parse(buf, v2(buf, 0, 0x11, body, 12), NULL), "-");
	CHECK_EQ_STR(parse(buf, v2(buf, 1, 0x00, body, 0), NULL), "-");
	CHECK_EQ_STR(parse(buf, v2(buf, 1, 0x31, body, 216), NULL), "-");
	CHECK_EQ_STR(parse(buf, v2(buf, 1, 0x12, body, 12), NULL), "-");
	/* The largest allowed. */
	memset(body, 0, sizeof(body));
	len = v2(buf, 1, 0x11, body, 12);
	buf[14] = (unsigned char) ((RAPIER_PROXY_MAX - 16) >> 8);
	buf[15] = (unsigned char) (RAPIER_PROXY_MAX - 16);
	CHECK_EQ_STR(parse(buf, RAPIER_PROXY_MAX, &length), "0.0.0.0 0");
	CHECK_EQ_INT(length, RAPIER_PROXY_MAX);
}

/* What a header says of the client's TLS: 1, 0, -1 (not said), or -2 when it is not a whole, valid one. */
static int ssl_of(const unsigned char *data, size_t len)
{
	rapier_proxy_header_t h;

	memset(&h, 0xAB, sizeof(h));
	return rapier_proxy_parse(data, len, &h) == RAPIER_PROXY_DONE ? h.ssl : -2;
}

/* A version 2 body: the addresses of family (0x11, 0x21 or 0x00), then tlvs. */
static size_t v2_with(unsigned char *out, unsigned command, unsigned family, const void *tlvs, size_t tlvs_len)
{
	unsigned char body[256] = { 0 };
	size_t addresses = family == 0x11 ? 12 : family == 0x21 ? 36 : 0;

	if (family == 0x11) {
		memcpy(body, "\xC0\x00\x02\x07" "\xC6\x33\x64\x01" "\xC8\x22" "\x01\xBB", 12);
	}
	memcpy(body + addresses, tlvs, tlvs_len);
	return v2(out, command, family, body, addresses + tlvs_len);
}

static void test_v2_ssl(void)
{
	/* PP2_TYPE_SSL as HAProxy's send-proxy-v2-ssl writes it: the client byte, verify, then a version sub-TLV. */
	static const unsigned char over_tls[] = "\x20\x00\x0F" "\x01" "\x00\x00\x00\x00" "\x21\x00\x07" "TLSv1.3";
	static const unsigned char plain[] = "\x20\x00\x05" "\x00" "\x00\x00\x00\x00";
	static const unsigned char aws_then_tls[] = "\xEA\x00\x03" "abc" "\x20\x00\x05" "\x05" "\x00\x00\x00\x00";
	unsigned char buf[512];
	size_t len, length = 0;

	len = v2_with(buf, 1, 0x11, over_tls, sizeof(over_tls) - 1);
	CHECK_EQ_INT(ssl_of(buf, len), 1);
	CHECK_EQ_STR(parse(buf, len, &length), "192.0.2.7 51234");
	CHECK_EQ_INT(length, 16 + 12 + sizeof(over_tls) - 1);
	CHECK_EQ_INT(ssl_of(buf, v2_with(buf, 1, 0x11, plain, sizeof(plain) - 1)), 0);
	/* After another TLV; client bits besides "over TLS" (a certificate sent) change nothing. */
	CHECK_EQ_INT(ssl_of(buf, v2_with(buf, 1, 0x11, aws_then_tls, sizeof(aws_then_tls) - 1)), 1);
	CHECK_EQ_INT(ssl_of(buf, v2_with(buf, 1, 0x21, over_tls, sizeof(over_tls) - 1)), 1);
	/* UNSPEC: the connection's own address, but the TLS still told. */
	CHECK_EQ_INT(ssl_of(buf, v2_with(buf, 1, 0x00, over_tls, sizeof(over_tls) - 1)), 1);

	/* Not said: no TLV, LOCAL, version 1, an SSL TLV too short to hold its client byte and verify. */
	CHECK_EQ_INT(ssl_of(buf, v2_with(buf, 1, 0x11, "", 0)), -1);
	CHECK_EQ_INT(ssl_of(buf, v2_with(buf, 0, 0x11, over_tls, sizeof(over_tls) - 1)), -1);
	CHECK_EQ_INT(ssl_of((const unsigned char *) "PROXY TCP4 192.0.2.7 198.51.100.1 51234 443\r\n", 45), -1);
	CHECK_EQ_INT(ssl_of(buf, v2_with(buf, 1, 0x11, "\x20\x00\x01\x01", 4)), -1);
	/* A TLV that runs past the header, or a stray byte or two: the walk ends there, the addresses stand. */
	len = v2_with(buf, 1, 0x11, "\x20\x00\x40\x01\x00\x00\x00\x00", 8);
	CHECK_EQ_INT(ssl_of(buf, len), -1);
	CHECK_EQ_STR(parse(buf, len, NULL), "192.0.2.7 51234");
	CHECK_EQ_INT(ssl_of(buf, v2_with(buf, 1, 0x11, "\x20\x00\x05\x01\x00\x00\x00\x00\xEA\x00", 10)), 1);
}

static void test_v2_refused(void)
{
	unsigned char buf[64], body[40] = {0};

	v2(buf, 1, 0x11, body, 12);
	buf[12] = 0x11;                                   /* version 1 in a version 2 block */
	CHECK_EQ_STR(parse(buf, 13, NULL), "INVALID");
	v2(buf, 2, 0x11, body, 12);                       /* command 2 */
	CHECK_EQ_STR(parse(buf, 28, NULL), "INVALID");
	CHECK_EQ_STR(parse(buf, v2(buf, 1, 0x11, body, 11), NULL), "INVALID");   /* too short for IPv4 */
	CHECK_EQ_STR(parse(buf, v2(buf, 1, 0x21, body, 35), NULL), "INVALID");   /* too short for IPv6 */
	v2(buf, 1, 0x11, body, 12);
	buf[14] = 0xFF;                                   /* past RAPIER_PROXY_MAX */
	CHECK_EQ_STR(parse(buf, 16, NULL), "INVALID");
	v2(buf, 1, 0x11, body, 12);
	buf[5] = 0x0E;                                    /* the signature, wrong */
	CHECK_EQ_STR(parse(buf, 6, NULL), "INVALID");
	/* TLS and HTTP/2 begin otherwise. */
	CHECK_EQ_STR(parse("\x16\x03\x01\x02\x00", 5, NULL), "INVALID");
	CHECK_EQ_STR(parse_str("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", NULL), "INVALID");
}

/* A TLV's value as text, "(none)" when the header had none, or "INVALID". */
static const char *tlv_of(const unsigned char *data, size_t len, rapier_proxy_tlv_t which)
{
	static char text[300];
	rapier_proxy_header_t h;

	memset(&h, 0xAB, sizeof(h));
	if (rapier_proxy_parse(data, len, &h) != RAPIER_PROXY_DONE) {
		return "INVALID";
	}
	if (h.tlv[which].at == NULL) {
		return "(none)";
	}
	snprintf(text, sizeof(text), "%.*s", (int) h.tlv[which].len, (const char *) h.tlv[which].at);
	return text;
}

static void test_v2_tlvs(void)
{
	/* As HAProxy sends them with proxy-v2-options ssl,cert-cn,ssl-cipher,cert-sig,cert-key,authority,unique-id. */
	static const unsigned char all[] =
		"\x01\x00\x02" "h2"
		"\x02\x00\x0B" "example.com"
		"\x05\x00\x04" "id-7"
		"\x20\x00\x48" "\x07" "\x00\x00\x00\x00"
			"\x21\x00\x07" "TLSv1.3"
			"\x22\x00\x06" "caller"
			"\x23\x00\x16" "TLS_AES_256_GCM_SHA384"
			"\x24\x00\x0A" "RSA-SHA256"
			"\x25\x00\x07" "RSA2048"
		"\xEA\x00\x17" "\x01" "vpce-08d2bf15fac5001c9"
		"\xEE\x00\x05" "\x01" "\x2A\x00\x00\x01";
	/* The same header's CRC32C, computed apart (a table-driven implementation): 0x91A588E2. */
	static const unsigned char with_crc[] = "\x02\x00\x0B" "example.com" "\x03\x00\x04" "\x91\xA5\x88\xE2";
	unsigned char buf[512];
	rapier_proxy_header_t h;
	size_t len;

	len = v2_with(buf, 1, 0x11, all, sizeof(all) - 1);
	CHECK_EQ_STR(tlv_of(buf, len, RAPIER_PROXY_TLV_ALPN), "h2");
	CHECK_EQ_STR(tlv_of(buf, len, RAPIER_PROXY_TLV_AUTHORITY), "example.com");
	CHECK_EQ_STR(tlv_of(buf, len, RAPIER_PROXY_TLV_UNIQUE_ID), "id-7");
	CHECK_EQ_STR(tlv_of(buf, len, RAPIER_PROXY_TLV_NETNS), "(none)");
	CHECK_EQ_STR(tlv_of(buf, len, RAPIER_PROXY_TLV_SSL_VERSION), "TLSv1.3");
	CHECK_EQ_STR(tlv_of(buf, len, RAPIER_PROXY_TLV_SSL_CN), "caller");
	CHECK_EQ_STR(tlv_of(buf, len, RAPIER_PROXY_TLV_SSL_CIPHER), "TLS_AES_256_GCM_SHA384");
	CHECK_EQ_STR(tlv_of(buf, len, RAPIER_PROXY_TLV_SSL_SIG_ALG), "RSA-SHA256");
	CHECK_EQ_STR(tlv_of(buf, len, RAPIER_PROXY_TLV_SSL_KEY_ALG), "RSA2048");
	CHECK_EQ_STR(tlv_of(buf, len, RAPIER_PROXY_TLV_AWS_VPCE_ID), "vpce-08d2bf15fac5001c9");
	CHECK_EQ_INT(rapier_proxy_parse(buf, len, &h), RAPIER_PROXY_DONE);
	CHECK_EQ_INT(h.ssl, 1);
	CHECK_EQ_INT(h.ssl_verify, 0);
	CHECK_EQ_INT(h.has_azure_pel_id, 1);
	CHECK_EQ_INT(h.azure_pel_id, 0x0100002A);

	/* A certificate that failed verification (X509_V_ERR_CERT_HAS_EXPIRED, 10); AWS's other subtypes say nothing. */
	len = v2_with(buf, 1, 0x11, "\x20\x00\x05\x07\x00\x00\x00\x0A" "\xEA\x00\x03\x02xy", 14);
	CHECK_EQ_INT(rapier_proxy_parse(buf, len, &h), RAPIER_PROXY_DONE);
	CHECK_EQ_INT(h.ssl_verify, 10);
	CHECK_EQ_STR(tlv_of(buf, len, RAPIER_PROXY_TLV_AWS_VPCE_ID), "(none)");
	CHECK_EQ_INT(h.has_azure_pel_id, 0);
	/* Empty values are values. A sub-TLV past its SSL TLV ends the sub-walk, not the walk. */
	len = v2_with(buf, 1, 0x11, "\x01\x00\x00" "\x20\x00\x08\x01\x00\x00\x00\x00\x21\x00\x09" "\x02\x00\x01x", 18);
	CHECK_EQ_STR(tlv_of(buf, len, RAPIER_PROXY_TLV_ALPN), "");
	CHECK_EQ_STR(tlv_of(buf, len, RAPIER_PROXY_TLV_SSL_VERSION), "(none)");
	CHECK_EQ_STR(tlv_of(buf, len, RAPIER_PROXY_TLV_AUTHORITY), "x");
	/* Version 1, and LOCAL: none. */
	CHECK_EQ_STR(tlv_of((const unsigned char *) "PROXY TCP4 192.0.2.7 198.51.100.1 51234 443\r\n", 45,
		RAPIER_PROXY_TLV_ALPN), "(none)");
	CHECK_EQ_STR(tlv_of(buf, v2_with(buf, 0, 0x11, all, sizeof(all) - 1), RAPIER_PROXY_TLV_ALPN), "(none)");

	/* CRC32C: the header as sent is valid; any byte changed, or the checksum, is not. */
	len = v2_with(buf, 1, 0x11, with_crc, sizeof(with_crc) - 1);
	CHECK_EQ_STR(tlv_of(buf, len, RAPIER_PROXY_TLV_AUTHORITY), "example.com");
	buf[16 + 12 + 3] = 'E';
	CHECK_EQ_STR(tlv_of(buf, len, RAPIER_PROXY_TLV_AUTHORITY), "INVALID");
	buf[16 + 12 + 3] = 'e';
	buf[len - 1] ^= 1;
	CHECK_EQ_STR(tlv_of(buf, len, RAPIER_PROXY_TLV_AUTHORITY), "INVALID");
	buf[len - 1] ^= 1;
	buf[16 + 3] ^= 0x40;                              /* the client's address */
	CHECK_EQ_STR(tlv_of(buf, len, RAPIER_PROXY_TLV_AUTHORITY), "INVALID");
}

int main(void)
{
	test_v1();
	test_v1_in_pieces();
	test_v1_refused();
	test_v2();
	test_v2_refused();
	test_v2_ssl();
	test_v2_tlvs();
	return unit_finish("proxy_protocol");
}
