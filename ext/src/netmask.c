/* Networks and the addresses in them: see netmask.h. */
#include "netmask.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

/* The longest text an address takes, its prefix length included ("ffff:...:ffff/128"). */
#define TEXT_MAX (INET6_ADDRSTRLEN + 4)

static bool copy_text(const char *text, size_t len, char *out)
{
	if (len == 0 || len >= TEXT_MAX || memchr(text, '\0', len) != NULL) {
		return false;
	}
	memcpy(out, text, len);
	out[len] = '\0';
	return true;
}

bool rapier_netmask_parse(const char *text, size_t len, rapier_netmask_t *out)
{
	char buf[TEXT_MAX], *slash;
	unsigned bits = 0, max;

	if (!copy_text(text, len, buf)) {
		return false;
	}
	if ((slash = strchr(buf, '/')) != NULL) {
		const char *d = slash + 1;
		if (*d == '\0' || strlen(d) > 3) {
			return false;
		}
		for (; *d; d++) {
			if (*d < '0' || *d > '9') {
				return false;
			}
			bits = bits * 10 + (unsigned) (*d - '0');
		}
		*slash = '\0';
	}
	memset(out, 0, sizeof(*out));
	if (inet_pton(AF_INET, buf, out->addr) == 1) {
		out->family = AF_INET;
		max = 32;
	} else if (inet_pton(AF_INET6, buf, out->addr) == 1) {
		out->family = AF_INET6;
		max = 128;
	} else {
		return false;
	}
	if (slash == NULL) {
		bits = max;
	} else if (bits > max) {
		return false;
	}
	out->bits = bits;
	/* Host bits cleared, so that 10.1.2.3/8 means 10.0.0.0/8 as nginx takes it. */
	for (unsigned i = bits; i < max; i++) {
		out->addr[i / 8] &= (uint8_t) ~(0x80u >> (i % 8));
	}
	return true;
}

static const uint8_t v4_mapped_prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF };

bool rapier_netmask_address(const char *text, size_t len, struct sockaddr_storage *sa, socklen_t *sa_len)
{
	char buf[TEXT_MAX];
	struct in6_addr in6;

	if (!copy_text(text, len, buf)) {
		return false;
	}
	memset(sa, 0, sizeof(*sa));
	if (inet_pton(AF_INET, buf, &((struct sockaddr_in *) sa)->sin_addr) == 1) {
		sa->ss_family = AF_INET;
		*sa_len = sizeof(struct sockaddr_in);
		return true;
	}
	if (inet_pton(AF_INET6, buf, &in6) != 1) {
		return false;
	}
	if (memcmp(in6.s6_addr, v4_mapped_prefix, 12) == 0) {
		sa->ss_family = AF_INET;
		memcpy(&((struct sockaddr_in *) sa)->sin_addr, in6.s6_addr + 12, 4);
		*sa_len = sizeof(struct sockaddr_in);
		return true;
	}
	sa->ss_family = AF_INET6;
	((struct sockaddr_in6 *) sa)->sin6_addr = in6;
	*sa_len = sizeof(struct sockaddr_in6);
	return true;
}

static bool prefix_equal(const uint8_t *a, const uint8_t *b, unsigned bits)
{
	unsigned whole = bits / 8, rest = bits % 8;

	if (memcmp(a, b, whole) != 0) {
		return false;
	}
	return rest == 0 || ((a[whole] ^ b[whole]) & (uint8_t) (0xFF00u >> rest)) == 0;
}

bool rapier_netmask_contains(const rapier_netmask_t *masks, size_t count, const struct sockaddr *sa)
{
	const uint8_t *addr;
	int family = sa->sa_family;

	if (family == AF_INET) {
		addr = (const uint8_t *) &((const struct sockaddr_in *) sa)->sin_addr;
	} else if (family == AF_INET6) {
		addr = ((const struct sockaddr_in6 *) sa)->sin6_addr.s6_addr;
		if (memcmp(addr, v4_mapped_prefix, 12) == 0) {
			/* A server listening on [::] sees IPv4 clients so: matched against the IPv4 networks. */
			family = AF_INET;
			addr += 12;
		}
	} else {
		return false;
	}
	for (size_t i = 0; i < count; i++) {
		if (masks[i].family == family && prefix_equal(addr, masks[i].addr, masks[i].bits)) {
			return true;
		}
	}
	return false;
}
