/*
 * Networks as configured ("10.0.0.0/8", "2001:db8::/32", "127.0.0.1"), and
 * whether an address is in one: the proxies the HTTP server trusts to say
 * who the client is (real_ip_from).
 */
#ifndef RAPIER_NETMASK_H
#define RAPIER_NETMASK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

typedef struct {
	int family;                  /* AF_INET or AF_INET6 */
	unsigned bits;               /* the prefix length: 32 or 128 for one address */
	uint8_t addr[16];            /* network order, host bits cleared */
} rapier_netmask_t;

/* Parses "address" or "address/bits" (len bytes of text); false when it is neither. */
bool rapier_netmask_parse(const char *text, size_t len, rapier_netmask_t *out);

/*
 * Parses one address ("192.0.2.7", "2001:db8::7") of len bytes into sa;
 * an IPv4-mapped IPv6 address becomes the IPv4 one. False when it is none.
 */
bool rapier_netmask_address(const char *text, size_t len, struct sockaddr_storage *sa, socklen_t *sa_len);

/* Whether sa (IPv4, IPv6, or IPv4-mapped IPv6) is in one of the count networks. */
bool rapier_netmask_contains(const rapier_netmask_t *masks, size_t count, const struct sockaddr *sa);

#endif
