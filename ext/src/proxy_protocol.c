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

/* Version 2's TLV the client's TLS is told in, and its first byte's bit for "over TLS". */
#define PP2_TYPE_SSL 0x20
#define PP2_CLIENT_SSL 0x01

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
	out->has_source = false;
	out->ssl = -1;
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

/*
 * Version 2's TLVs, at[0..end): what PP2_TYPE_SSL says of the client's
 * TLS. The others (AWS's, CRC32C, ALPN, the authority) are skipped; a TLV
 * that runs past the header ends the walk, and the addresses still stand.
 */
static void v2_tlvs(const unsigned char *at, const unsigned char *end, rapier_proxy_header_t *out)
{
	while (end - at >= 3) {
		unsigned type = at[0];
		size_t len = ((size_t) at[1] << 8) | at[2];

		if ((size_t) (end - at) - 3 < len) {
			return;
		}
		/* The client byte, then the 32-bit verify result, then sub-TLVs. */
		if (type == PP2_TYPE_SSL && len >= 5) {
			out->ssl = (at[3] & PP2_CLIENT_SSL) ? 1 : 0;
		}
		at += 3 + len;
	}
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
	out->has_source = false;
	out->ssl = -1;
	/* LOCAL: the balancer's own connection (a health check); other families and datagrams: no TCP client. */
	if (command == 0) {
		return RAPIER_PROXY_DONE;
	}
	if (v2_address_length(family) <= body) {
		v2_tlvs(data + V2_FIXED + v2_address_length(family), data + total, out);
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
