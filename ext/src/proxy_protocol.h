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
#include <stdint.h>
#include <sys/socket.h>

/* Version 1's longest line (the specification's 107 bytes), and the cap on version 2's (its TLVs included). */
#define RAPIER_PROXY_V1_MAX 107
#define RAPIER_PROXY_MAX 4096

typedef enum {
	RAPIER_PROXY_INVALID = -1,   /* not a PROXY header, or a malformed one */
	RAPIER_PROXY_MORE = 0,       /* a valid beginning: the rest has not arrived */
	RAPIER_PROXY_DONE = 1,
} rapier_proxy_result_t;

/*
 * Version 2's TLVs that tell of the client's connection to the balancer,
 * by the names nginx gives them ($proxy_protocol_tlv_alpn...).
 */
typedef enum {
	RAPIER_PROXY_TLV_ALPN,         /* the protocol the client and the balancer agreed on ("h2") */
	RAPIER_PROXY_TLV_AUTHORITY,    /* the host name the client sent (TLS SNI) */
	RAPIER_PROXY_TLV_UNIQUE_ID,    /* the balancer's id of the connection */
	RAPIER_PROXY_TLV_NETNS,        /* the network namespace it came in */
	RAPIER_PROXY_TLV_SSL_VERSION,  /* PP2_TYPE_SSL's sub-TLVs: "TLSv1.3" */
	RAPIER_PROXY_TLV_SSL_CN,       /* the Common Name of the client certificate's subject */
	RAPIER_PROXY_TLV_SSL_CIPHER,
	RAPIER_PROXY_TLV_SSL_SIG_ALG,  /* of the certificate the balancer presented: its signature's algorithm */
	RAPIER_PROXY_TLV_SSL_KEY_ALG,  /* ...and its key's ("RSA2048", "EC256") */
	RAPIER_PROXY_TLV_AWS_VPCE_ID,  /* AWS PrivateLink: the VPC endpoint the client came through */
	RAPIER_PROXY_TLV_COUNT
} rapier_proxy_tlv_t;

/* A TLV's value, pointing into the parsed bytes (valid while they are); at NULL when absent. */
typedef struct {
	const unsigned char *at;
	size_t len;
} rapier_proxy_value_t;

/* PP2_TYPE_SSL's client bits: over TLS, and a certificate sent on this connection or in its TLS session. */
#define RAPIER_PROXY_CLIENT_SSL 0x01
#define RAPIER_PROXY_CLIENT_CERT_CONN 0x02
#define RAPIER_PROXY_CLIENT_CERT_SESS 0x04

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
	unsigned ssl_client;         /* with ssl >= 0: PP2_TYPE_SSL's client bits, RAPIER_PROXY_CLIENT_* */
	uint32_t ssl_verify;         /* with ssl >= 0: 0 when the client sent a certificate and it was verified */
	rapier_proxy_value_t tlv[RAPIER_PROXY_TLV_COUNT];
	bool has_azure_pel_id;       /* Azure Private Link: the private endpoint's LINKID */
	uint32_t azure_pel_id;
} rapier_proxy_header_t;

/*
 * Parses the header at the start of data[0..len); out is filled when it
 * returns RAPIER_PROXY_DONE. A version 2 header whose CRC32C TLV does not
 * match its bytes is invalid.
 */
rapier_proxy_result_t rapier_proxy_parse(const unsigned char *data, size_t len, rapier_proxy_header_t *out);

#endif
