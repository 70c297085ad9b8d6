/*
 * The PROXY protocol (HAProxy's, versions 1 and 2): the header a TCP load
 * balancer (HAProxy, AWS NLB, nginx's stream proxy) writes before the
 * client's bytes, saying whom the connection is from. A parser only: the
 * HTTP server reads the header off a new connection (http_proxy.c).
 */
#ifndef RAPIER_PROXY_PROTOCOL_H
#define RAPIER_PROXY_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

/* Version 1's longest line (the specification's 107 bytes), and the cap on version 2's (its TLVs included). */
#define RAPIER_PROXY_V1_MAX 107
#define RAPIER_PROXY_MAX 4096

typedef enum {
	RAPIER_PROXY_INVALID = -1,   /* not a PROXY header, or a malformed one */
	RAPIER_PROXY_MORE = 0,       /* a valid beginning: the rest has not arrived */
	RAPIER_PROXY_DONE = 1,
} rapier_proxy_result_t;

typedef struct {
	size_t length;               /* the header's bytes; what follows is the client's */
	/*
	 * The client's address and port, for a proxied TCP connection over IPv4
	 * or IPv6. False for version 2's LOCAL (the balancer's own health
	 * check), version 1's UNKNOWN and other families: the connection's own
	 * address stands.
	 */
	bool has_source;
	struct sockaddr_storage source;
	socklen_t source_len;
	/*
	 * Version 2's PP2_TYPE_SSL: the client's connection to the balancer was
	 * TLS (1: the balancer terminated HTTPS, as HAProxy's send-proxy-v2-ssl
	 * tells) or not (0); -1 when the header does not say.
	 */
	int ssl;
} rapier_proxy_header_t;

/* Parses the header at the start of data[0..len); out is filled when it returns RAPIER_PROXY_DONE. */
rapier_proxy_result_t rapier_proxy_parse(const unsigned char *data, size_t len, rapier_proxy_header_t *out);

#endif
