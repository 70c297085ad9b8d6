/*
 * The PROXY protocol header, as haproxy.org/download/2.6/doc/proxy-protocol.txt
 * defines it: version 1 is one text line, version 2 a binary block that
 * begins with a 12-byte signature no HTTP or TLS client sends.
 */
#include "proxy_protocol.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

static const unsigned char v2_signature[12] = { 0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A };

#define V1_PREFIX "PROXY "
#define V2_FIXED 16

/* Version 2's TLV types (proxy-protocol.txt 2.2). */
#define PP2_TYPE_ALPN 0x01
#define PP2_TYPE_AUTHORITY 0x02
#define PP2_TYPE_CRC32C 0x03
#define PP2_TYPE_UNIQUE_ID 0x05
#define PP2_TYPE_SSL 0x20
#define PP2_SUBTYPE_SSL_VERSION 0x21
#define PP2_SUBTYPE_SSL_CN 0x22
#define PP2_SUBTYPE_SSL_CIPHER 0x23
#define PP2_SUBTYPE_SSL_SIG_ALG 0x24
#define PP2_SUBTYPE_SSL_KEY_ALG 0x25
#define PP2_TYPE_NETNS 0x30
#define PP2_TYPE_AWS 0xEA
#define PP2_TYPE_AZURE 0xEE

/* A header that says nothing beyond the addresses. */
static void no_tlvs(rapier_proxy_header_t *out)
{
	out->has_source = false;
	out->ssl = -1;
	out->ssl_client = 0;
	out->ssl_verify = 0;
	memset(out->tlv, 0, sizeof(out->tlv));
	out->has_azure_pel_id = false;
	out->azure_pel_id = 0;
}

/* Whether data[0..len) may begin what[0..what_len): the part that has arrived matches. */
static bool begins(const unsigned char *data, size_t len, const void *what, size_t what_len)
{
	return memcmp(data, what, len < what_len ? len : what_len) == 0;
}

/* A decimal port of one to five digits, at most 65535. */
static bool parse_port(const char *text, size_t len, unsigned *port)
{
	unsigned value = 0;

	if (len == 0 || len > 5) {
		return false;
	}
	for (size_t i = 0; i < len; i++) {
		if (text[i] < '0' || text[i] > '9') {
			return false;
		}
		value = value * 10 + (unsigned) (text[i] - '0');
	}
	*port = value;
	return value <= 65535;
}

/* The next field of a version 1 line, up to a single space (or the end when last). */
static bool v1_field(const char **at, const char *end, bool last, char *out, size_t out_size, size_t *out_len)
{
	const char *stop = last ? end : memchr(*at, ' ', (size_t) (end - *at));
	size_t n;

	if (stop == NULL || stop == *at || (size_t) (stop - *at) >= out_size) {
		return false;
	}
	n = (size_t) (stop - *at);
	memcpy(out, *at, n);
	out[n] = '\0';
	*out_len = n;
	*at = last ? stop : stop + 1;
	return true;
}

/* "TCP4 src dst sport dport" or "TCP6 ...", after "PROXY ": the source, checked with the rest. */
static bool v1_addresses(const char *at, const char *end, int family, rapier_proxy_header_t *out)
{
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN], sport[8], dport[8];
	size_t n;
	unsigned src_port, dst_port;
	unsigned char scratch[sizeof(struct in6_addr)];

	if (!v1_field(&at, end, false, src, sizeof(src), &n) || !v1_field(&at, end, false, dst, sizeof(dst), &n)
			|| !v1_field(&at, end, false, sport, sizeof(sport), &n) || !parse_port(sport, n, &src_port)
			|| !v1_field(&at, end, true, dport, sizeof(dport), &n) || !parse_port(dport, n, &dst_port)
			|| inet_pton(family, dst, scratch) != 1) {
		return false;
	}
	memset(&out->source, 0, sizeof(out->source));
	if (family == AF_INET) {
		struct sockaddr_in *in = (struct sockaddr_in *) &out->source;
		in->sin_family = AF_INET;
		in->sin_port = htons((uint16_t) src_port);
		out->source_len = sizeof(*in);
		return inet_pton(AF_INET, src, &in->sin_addr) == 1;
	}
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *) &out->source;
	in6->sin6_family = AF_INET6;
	in6->sin6_port = htons((uint16_t) src_port);
	out->source_len = sizeof(*in6);
	return inet_pton(AF_INET6, src, &in6->sin6_addr) == 1;
}

static rapier_proxy_result_t parse_v1(const unsigned char *data, size_t len, rapier_proxy_header_t *out)
{
	size_t scan = len < RAPIER_PROXY_V1_MAX ? len : RAPIER_PROXY_V1_MAX;
	const unsigned char *lf = memchr(data, '\n', scan);
	const char *line = (const char *) data + sizeof(V1_PREFIX) - 1, *end;

	if (!begins(data, len, V1_PREFIX, sizeof(V1_PREFIX) - 1)) {
		return RAPIER_PROXY_INVALID;
	}
	if (lf == NULL) {
		return len >= RAPIER_PROXY_V1_MAX ? RAPIER_PROXY_INVALID : RAPIER_PROXY_MORE;
	}
	if (lf - data < (ptrdiff_t) sizeof(V1_PREFIX) || lf[-1] != '\r') {
		return RAPIER_PROXY_INVALID;
	}
	end = (const char *) lf - 1;
	out->length = (size_t) (lf - data) + 1;
	no_tlvs(out);
	if (end - line >= 7 && memcmp(line, "UNKNOWN", 7) == 0 && (end - line == 7 || line[7] == ' ')) {
		/* The balancer could not tell (another protocol): what follows on the line is to be ignored. */
		return RAPIER_PROXY_DONE;
	}
	if (end - line > 5 && (memcmp(line, "TCP4 ", 5) == 0 || memcmp(line, "TCP6 ", 5) == 0)) {
		int family = line[3] == '4' ? AF_INET : AF_INET6;
		if (!v1_addresses(line + 5, end, family, out)) {
			return RAPIER_PROXY_INVALID;
		}
		out->has_source = true;
		return RAPIER_PROXY_DONE;
	}
	return RAPIER_PROXY_INVALID;
}

/* The bytes of version 2's address block for a family: the TLVs follow them. */
static size_t v2_address_length(unsigned family)
{
	switch (family) {
		case 1:
			return 12;
		case 2:
			return 36;
		case 3:
			return 216;
		default:
			return 0;
	}
}

static uint32_t be32(const unsigned char *at)
{
	return ((uint32_t) at[0] << 24) | ((uint32_t) at[1] << 16) | ((uint32_t) at[2] << 8) | at[3];
}

/*
 * CRC32C (Castagnoli) of the header, its checksum's 4 bytes at `sum` taken
 * as zero, as the sender computed it. Bit by bit: a header is at most 4 KiB
 * and only a balancer told to (HAProxy's proxy-v2-options crc32c) sends it.
 */
static uint32_t header_crc32c(const unsigned char *header, size_t len, size_t sum)
{
	uint32_t crc = 0xFFFFFFFF;

	for (size_t i = 0; i < len; i++) {
		crc ^= i >= sum && i < sum + 4 ? 0 : header[i];
		for (int bit = 0; bit < 8; bit++) {
			crc = (crc >> 1) ^ (0x82F63B78 & (0 - (crc & 1)));
		}
	}
	return ~crc;
}

/* A TLV type whose value is handed on as it is, and the slot it goes to. */
typedef struct {
	unsigned type;
	rapier_proxy_tlv_t tlv;
} tlv_slot_t;

static const tlv_slot_t plain_tlvs[] = {
	{ PP2_TYPE_ALPN, RAPIER_PROXY_TLV_ALPN },
	{ PP2_TYPE_AUTHORITY, RAPIER_PROXY_TLV_AUTHORITY },
	{ PP2_TYPE_UNIQUE_ID, RAPIER_PROXY_TLV_UNIQUE_ID },
	{ PP2_TYPE_NETNS, RAPIER_PROXY_TLV_NETNS },
};

/* PP2_TYPE_SSL's sub-TLVs: its version, the client certificate's CN, the cipher and the balancer certificate's algorithms. */
static const tlv_slot_t ssl_tlvs[] = {
	{ PP2_SUBTYPE_SSL_VERSION, RAPIER_PROXY_TLV_SSL_VERSION },
	{ PP2_SUBTYPE_SSL_CN, RAPIER_PROXY_TLV_SSL_CN },
	{ PP2_SUBTYPE_SSL_CIPHER, RAPIER_PROXY_TLV_SSL_CIPHER },
	{ PP2_SUBTYPE_SSL_SIG_ALG, RAPIER_PROXY_TLV_SSL_SIG_ALG },
	{ PP2_SUBTYPE_SSL_KEY_ALG, RAPIER_PROXY_TLV_SSL_KEY_ALG },
};

/* Keeps value[0..len) in type's slot, if slots[0..count) has one; false if not. */
static bool keep_value(rapier_proxy_header_t *out, const tlv_slot_t *slots, size_t count, unsigned type,
	const unsigned char *value, size_t len)
{
	for (size_t i = 0; i < count; i++) {
		if (slots[i].type == type) {
			out->tlv[slots[i].tlv].at = value;
			out->tlv[slots[i].tlv].len = len;
			return true;
		}
	}
	return false;
}

/*
 * The TLV at *at, of those in [*at, end): its type and value, *at moved
 * past it. False at the end, and for one that runs past it (the walk ends
 * there; what came before stands).
 */
static bool next_tlv(const unsigned char **at, const unsigned char *end, unsigned *type,
	const unsigned char **value, size_t *len)
{
	if (end - *at < 3) {
		return false;
	}
	*type = (*at)[0];
	*len = ((size_t) (*at)[1] << 8) | (*at)[2];
	if ((size_t) (end - *at) - 3 < *len) {
		return false;
	}
	*value = *at + 3;
	*at = *value + *len;
	return true;
}

/* PP2_TYPE_SSL's sub-TLVs, at[0..end). */
static void v2_ssl_tlvs(const unsigned char *at, const unsigned char *end, rapier_proxy_header_t *out)
{
	const unsigned char *value;
	unsigned type;
	size_t len;

	while (next_tlv(&at, end, &type, &value, &len)) {
		keep_value(out, ssl_tlvs, sizeof(ssl_tlvs) / sizeof(ssl_tlvs[0]), type, value, len);
	}
}

/*
 * Version 2's TLVs, from `at` to the header's end; false only for a
 * CRC32C that does not match, which makes the header invalid.
 */
static bool v2_tlvs(const unsigned char *header, size_t total, const unsigned char *at, rapier_proxy_header_t *out)
{
	const unsigned char *end = header + total, *value;
	unsigned type;
	size_t len;

	while (next_tlv(&at, end, &type, &value, &len)) {
		if (keep_value(out, plain_tlvs, sizeof(plain_tlvs) / sizeof(plain_tlvs[0]), type, value, len)) {
			continue;
		}
		switch (type) {
			case PP2_TYPE_CRC32C:
				if (len == 4 && header_crc32c(header, total, (size_t) (value - header)) != be32(value)) {
					return false;
				}
				break;
			case PP2_TYPE_SSL:
				/* The client byte, the 32-bit verify result, then sub-TLVs. */
				if (len >= 5) {
					out->ssl = (value[0] & RAPIER_PROXY_CLIENT_SSL) ? 1 : 0;
					out->ssl_client = value[0];
					out->ssl_verify = be32(value + 1);
					v2_ssl_tlvs(value + 5, value + len, out);
				}
				break;
			case PP2_TYPE_AWS:
				/* Subtype 0x01: the VPC endpoint's id, as text. */
				if (len >= 1 && value[0] == 0x01) {
					out->tlv[RAPIER_PROXY_TLV_AWS_VPCE_ID].at = value + 1;
					out->tlv[RAPIER_PROXY_TLV_AWS_VPCE_ID].len = len - 1;
				}
				break;
			case PP2_TYPE_AZURE:
				/* Subtype 0x01: the LINKID, a 32-bit number, little-endian. */
				if (len == 5 && value[0] == 0x01) {
					out->has_azure_pel_id = true;
					out->azure_pel_id = (uint32_t) value[1] | ((uint32_t) value[2] << 8)
						| ((uint32_t) value[3] << 16) | ((uint32_t) value[4] << 24);
				}
				break;
			default:
				break;
		}
	}
	return true;
}

static rapier_proxy_result_t parse_v2(const unsigned char *data, size_t len, rapier_proxy_header_t *out)
{
	size_t body, total;
	unsigned command, family, transport;

	if (!begins(data, len, v2_signature, sizeof(v2_signature))) {
		return RAPIER_PROXY_INVALID;
	}
	if (len < V2_FIXED) {
		return len > 12 && (data[12] >> 4) != 2 ? RAPIER_PROXY_INVALID : RAPIER_PROXY_MORE;
	}
	command = data[12] & 0x0F;
	family = data[13] >> 4;
	transport = data[13] & 0x0F;
	body = ((size_t) data[14] << 8) | data[15];
	total = V2_FIXED + body;
	if ((data[12] >> 4) != 2 || command > 1 || total > RAPIER_PROXY_MAX) {
		return RAPIER_PROXY_INVALID;
	}
	if (len < total) {
		return RAPIER_PROXY_MORE;
	}
	out->length = total;
	no_tlvs(out);
	/* LOCAL: the balancer's own connection (a health check); other families and datagrams: no TCP client. */
	if (command == 0) {
		return RAPIER_PROXY_DONE;
	}
	if (v2_address_length(family) <= body
		&& !v2_tlvs(data, total, data + V2_FIXED + v2_address_length(family), out)) {
		return RAPIER_PROXY_INVALID;
	}
	if (transport != 1 || (family != 1 && family != 2)) {
		return RAPIER_PROXY_DONE;
	}
	memset(&out->source, 0, sizeof(out->source));
	if (family == 1) {
		struct sockaddr_in *in = (struct sockaddr_in *) &out->source;
		if (body < 12) {
			return RAPIER_PROXY_INVALID;
		}
		in->sin_family = AF_INET;
		memcpy(&in->sin_addr, data + V2_FIXED, 4);
		memcpy(&in->sin_port, data + V2_FIXED + 8, 2);
		out->source_len = sizeof(*in);
	} else {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *) &out->source;
		if (body < 36) {
			return RAPIER_PROXY_INVALID;
		}
		in6->sin6_family = AF_INET6;
		memcpy(&in6->sin6_addr, data + V2_FIXED, 16);
		memcpy(&in6->sin6_port, data + V2_FIXED + 32, 2);
		out->source_len = sizeof(*in6);
	}
	out->has_source = true;
	return RAPIER_PROXY_DONE;
}

rapier_proxy_result_t rapier_proxy_parse(const unsigned char *data, size_t len, rapier_proxy_header_t *out)
{
	if (len == 0) {
		return RAPIER_PROXY_MORE;
	}
	if (data[0] == 'P') {
		return parse_v1(data, len, out);
	}
	return data[0] == v2_signature[0] ? parse_v2(data, len, out) : RAPIER_PROXY_INVALID;
}
