/*
 * Who the client is, when proxies stand between it and the server.
 *
 * Connections through a TCP load balancer that speaks the PROXY protocol
 * (proxy_protocol on: HAProxy's send-proxy, AWS NLB, nginx's stream proxy).
 * The header is read off first, before TLS or HTTP, and the client's
 * address it names replaces the balancer's for the connection's requests.
 *
 * Only the header's own bytes are taken from the socket: what is there is
 * peeked, and consumed up to the header's end, so the ClientHello or the
 * request behind it stays in the kernel for the TLS or HTTP reader. A
 * header that comes in pieces is kept in proxy_buf; a connection whose
 * first bytes are no PROXY header is closed unanswered, as nginx does, and
 * one whose header does not come within read_timeout too.
 */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include "php_rapier.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <strings.h>
#include <sys/socket.h>

#include "http_server.h"
#include "http_server_internal.h"
#include "netmask.h"
#include "proxy_protocol.h"

/*
 * Requests through HTTP proxies (real_ip_header, real_ip_from: nginx's
 * real_ip module with real_ip_recursive on): a request whose connection
 * comes from a trusted proxy is from the client that proxy names, per
 * request, since a proxy's one connection carries many clients' requests.
 */

/* Takes n bytes the peek saw off the socket, where they are sure to be. */
static bool consume(rapier_http_conn_t *conn, unsigned char *into, size_t n)
{
	ssize_t got;

	do {
		got = recv(conn->fd, into, n, 0);
	} while (got < 0 && errno == EINTR);
	return got == (ssize_t) n;
}

/* Sets name to value in *vars, made on first use. */
static void tlv_var(zend_array **vars, const char *name, zval *value)
{
	if (*vars == NULL) {
		*vars = zend_new_array(4);
	}
	zend_hash_str_update(*vars, name, strlen(name), value);
}

/*
 * What the header's TLVs tell of the client's connection to the balancer,
 * as the request's server variables, named after nginx's
 * $proxy_protocol_tlv_* (PROXY_PROTOCOL_TLV_AUTHORITY...); NULL when they
 * tell nothing. Made once for the connection, shared by its requests.
 */
static zend_array *tlv_vars(const rapier_proxy_header_t *h)
{
	static const char *const names[RAPIER_PROXY_TLV_COUNT] = {
		[RAPIER_PROXY_TLV_ALPN] = "PROXY_PROTOCOL_TLV_ALPN",
		[RAPIER_PROXY_TLV_AUTHORITY] = "PROXY_PROTOCOL_TLV_AUTHORITY",
		[RAPIER_PROXY_TLV_UNIQUE_ID] = "PROXY_PROTOCOL_TLV_UNIQUE_ID",
		[RAPIER_PROXY_TLV_NETNS] = "PROXY_PROTOCOL_TLV_NETNS",
		[RAPIER_PROXY_TLV_SSL_VERSION] = "PROXY_PROTOCOL_TLV_SSL_VERSION",
		[RAPIER_PROXY_TLV_SSL_CN] = "PROXY_PROTOCOL_TLV_SSL_CN",
		[RAPIER_PROXY_TLV_SSL_CIPHER] = "PROXY_PROTOCOL_TLV_SSL_CIPHER",
		[RAPIER_PROXY_TLV_SSL_SIG_ALG] = "PROXY_PROTOCOL_TLV_SSL_SIG_ALG",
		[RAPIER_PROXY_TLV_SSL_KEY_ALG] = "PROXY_PROTOCOL_TLV_SSL_KEY_ALG",
		[RAPIER_PROXY_TLV_AWS_VPCE_ID] = "PROXY_PROTOCOL_TLV_AWS_VPCE_ID",
	};
	zend_array *vars = NULL;
	zval value;

	for (int i = 0; i < RAPIER_PROXY_TLV_COUNT; i++) {
		if (h->tlv[i].at != NULL) {
			ZVAL_STRINGL(&value, (const char *) h->tlv[i].at, h->tlv[i].len);
			tlv_var(&vars, names[i], &value);
		}
	}
	if (h->ssl == 1) {
		/* The raw result says 0 for no certificate too: the client bits tell, as mod_ssl's SSL_CLIENT_VERIFY does. */
		bool sent = h->ssl_client & (RAPIER_PROXY_CLIENT_CERT_CONN | RAPIER_PROXY_CLIENT_CERT_SESS);

		ZVAL_LONG(&value, (zend_long) h->ssl_verify);
		tlv_var(&vars, "PROXY_PROTOCOL_TLV_SSL_VERIFY", &value);
		ZVAL_STRING(&value, !sent ? "NONE" : h->ssl_verify == 0 ? "SUCCESS" : "FAILED");
		tlv_var(&vars, "PROXY_PROTOCOL_SSL_CLIENT_VERIFY", &value);
	}
	if (h->has_azure_pel_id) {
		ZVAL_LONG(&value, (zend_long) h->azure_pel_id);
		tlv_var(&vars, "PROXY_PROTOCOL_TLV_AZURE_PEL_ID", &value);
	}
	return vars;
}

static void header_done(rapier_http_conn_t *conn, const rapier_proxy_header_t *h)
{
	conn->proxy_pending = false;
	conn->proxy_len = 0;
	if (conn->proxy_buf) {
		efree(conn->proxy_buf);
		conn->proxy_buf = NULL;
	}
	conn->proxy_https = (int8_t) h->ssl;
	conn->proxy_vars = tlv_vars(h);
	if (h->has_source) {
		memcpy(&conn->peer, &h->source, h->source_len);
		conn->peer_len = h->source_len;
		rapier__http_conn_format_peer(conn);
	}
}

bool rapier__http_proxy_read(rapier_http_conn_t *conn)
{
	unsigned char data[RAPIER_PROXY_MAX];
	size_t have = conn->proxy_len, take;
	rapier_proxy_header_t h;
	rapier_proxy_result_t rc;
	ssize_t n;

	if (have) {
		memcpy(data, conn->proxy_buf, have);
	}
	do {
		n = recv(conn->fd, data + have, sizeof(data) - have, MSG_PEEK);
	} while (n < 0 && errno == EINTR);
	if (n < 0 && errno == EAGAIN) {
		return false;
	}
	if (n <= 0) {
		/* The balancer's health check that connects and closes, or a client gone. */
		rapier__http_conn_close(conn);
		return false;
	}
	rc = rapier_proxy_parse(data, have + (size_t) n, &h);
	if (rc == RAPIER_PROXY_INVALID) {
		/* A client straight to the port, or a balancer not set to send the header. */
		rapier__http_conn_close(conn);
		return false;
	}
	/* Incomplete, all that came is header. */
	take = rc == RAPIER_PROXY_DONE ? h.length - have : (size_t) n;
	if (!consume(conn, data + have, take)) {
		rapier__http_conn_close(conn);
		return false;
	}
	if (rc == RAPIER_PROXY_MORE) {
		if (conn->proxy_buf == NULL) {
			conn->proxy_buf = emalloc(RAPIER_PROXY_MAX);
		}
		memcpy(conn->proxy_buf + have, data + have, take);
		conn->proxy_len = (uint16_t) (have + take);
		return false;
	}
	header_done(conn, &h);
	return true;
}

/* The last field named name: the one the nearest proxy wrote (an earlier one may be the client's own). */
static const char *last_field(const rapier_http_request_t *req, const char *name, size_t *len)
{
	size_t name_len = strlen(name);
	const char *value = NULL;

	for (size_t i = 0; i < req->header_count; i++) {
		if (req->headers[i].name_len == name_len && memcmp(req->headers[i].name, name, name_len) == 0) {
			value = req->headers[i].value;
			*len = req->headers[i].value_len;
		}
	}
	return value;
}

/* One entry of a comma-separated list, spaces and tabs around it dropped. */
static void trim(const char **start, const char **end)
{
	while (*start < *end && (**start == ' ' || **start == '\t')) {
		(*start)++;
	}
	while (*end > *start && ((*end)[-1] == ' ' || (*end)[-1] == '\t')) {
		(*end)--;
	}
}

/* "https" (1) or "http" (0), any case; anything else says nothing (-1). */
static int8_t scheme_https(const char *value, size_t len)
{
	if (len == 5 && strncasecmp(value, "https", 5) == 0) {
		return 1;
	}
	return len == 4 && strncasecmp(value, "http", 4) == 0 ? 0 : -1;
}

/*
 * The last entry of the comma-separated list [list, *end), untrimmed:
 * returns its start and moves *end to the comma before it (to list for
 * the first entry).
 */
static const char *pop_entry(const char *list, const char **end)
{
	const char *start = *end;

	while (start > list && start[-1] != ',') {
		start--;
	}
	*end = start > list ? start - 1 : list;
	return start;
}

/* Entries of a comma-separated list (an empty value is one empty entry). */
static size_t list_entries(const char *value, size_t len)
{
	size_t n = 1;

	for (size_t i = 0; i < len; i++) {
		n += value[i] == ',';
	}
	return n;
}

/*
 * The client's hop in real_ip_header's list: each proxy appends one entry
 * there and, when it appends to X-Forwarded-Proto too, one there, so a
 * list of schemes as long lines up with the addresses.
 */
typedef struct {
	size_t entries;                /* entries of the address list; 0: no list */
	size_t client_from_right;      /* the client's entry, counted from the right (0: the nearest proxy's) */
} client_hop_t;

/*
 * The scheme the client used, as the trusted proxy says it: "https" or
 * "http", any case. A list ("https, http": proxies that append) names
 * the client's scheme only where it lines up with the address list that
 * named the client (hop); otherwise, or for anything else, it says
 * nothing, and the connection's own scheme stands.
 */
static int8_t named_scheme(const rapier_http_request_t *req, const char *header, const client_hop_t *hop)
{
	size_t len = 0;
	const char *value = last_field(req, header, &len);
	const char *end;
	size_t entries;

	if (value == NULL) {
		return -1;
	}
	end = value + len;
	entries = list_entries(value, len);
	if (entries > 1) {
		if (entries != hop->entries) {
			return -1;
		}
		/* The entry the client's hop appended: as many from the right as the client's address. */
		for (size_t at = 0; ; at++) {
			const char *entry_end = end;
			const char *start = pop_entry(value, &end);

			if (at == hop->client_from_right) {
				value = start;
				end = entry_end;
				break;
			}
		}
	}
	trim(&value, &end);
	return scheme_https(value, (size_t) (end - value));
}

/* The client's address, as text, and that it is named. */
static void name_client(rapier_http_conn_t *conn, const struct sockaddr_storage *client, uint16_t port)
{
	inet_ntop(client->ss_family, client->ss_family == AF_INET
		? (const void *) &((const struct sockaddr_in *) client)->sin_addr
		: (const void *) &((const struct sockaddr_in6 *) client)->sin6_addr, conn->client_text, sizeof(conn->client_text));
	conn->client_port = port;
	conn->client_named = true;
}

/* The client's address as the trusted proxy names it in real_ip_header, and its place in the list (hop). */
static void named_client(rapier_http_conn_t *conn, const char *header, client_hop_t *hop)
{
	const rapier_http_config_t *cfg = &conn->server->cfg;
	struct sockaddr_storage client;
	socklen_t client_len;
	const char *value, *end;
	size_t len = 0, at = 0, client_at = 0;
	bool named = false;

	if ((value = last_field(rapier_http_conn_request(conn), header, &len)) == NULL) {
		return;
	}
	/* From the right: each proxy appends whom it got the request from; the trusted ones are skipped. */
	for (end = value + len; end > value; at++) {
		const char *entry_end = end;
		const char *start = pop_entry(value, &end);

		trim(&start, &entry_end);
		if (!rapier_netmask_address(start, (size_t) (entry_end - start), &client, &client_len)) {
			/* Not an address ("unknown", a port, a typo): nothing of the list is to be believed. */
			return;
		}
		named = true;
		client_at = at;
		if (!rapier_netmask_contains(cfg->real_ip_from, cfg->real_ip_from_count, (struct sockaddr *) &client)) {
			break;
		}
	}
	if (named) {
		name_client(conn, &client, 0);
		hop->entries = list_entries(value, len);
		hop->client_from_right = client_at;
	}
}

/*
 * RFC 7239's Forwarded header: a list of elements, one per proxy, each of
 * pairs (for=, proto=, by=, host=) whose values are tokens or quoted
 * strings: for=192.0.2.60;proto=https, for="[2001:db8::17]:4711". Each
 * proxy appends whom it got the request from (for=) and how (proto=).
 */
typedef struct {
	bool address;                  /* for= named an address (not "unknown", "_hidden", nothing) */
	struct sockaddr_storage addr;
	socklen_t addr_len;
	uint16_t port;                 /* 0: none named, or obfuscated */
	int8_t https;                  /* proto=https (1), http (0); -1: not said */
} forwarded_hop_t;

/* A pair's value, its quotes taken off; false for a quoted string with an escape (no node or scheme has one). */
static bool pair_value(const char **start, const char **end)
{
	if (*end - *start >= 2 && **start == '"' && (*end)[-1] == '"') {
		(*start)++;
		(*end)--;
		return memchr(*start, '\\', (size_t) (*end - *start)) == NULL;
	}
	return true;
}

/* An obfuscated identifier or port (RFC 7239 6.3): "_" then letters, digits, ".", "_", "-". */
static bool obfuscated(const char *s, const char *end)
{
	if (s == end || *s != '_') {
		return false;
	}
	for (s++; s < end; s++) {
		if (!isalnum((unsigned char) *s) && *s != '.' && *s != '_' && *s != '-') {
			return false;
		}
	}
	return true;
}

/* for=: "192.0.2.60", "192.0.2.60:4711", "[2001:db8::17]", "[2001:db8::17]:4711"; a port may be obfuscated. */
static void parse_node(forwarded_hop_t *hop, const char *s, const char *end)
{
	const char *host = s, *host_end, *port = NULL;
	unsigned long n = 0;

	if (s < end && *s == '[') {
		host = s + 1;
		if ((host_end = memchr(host, ']', (size_t) (end - host))) == NULL) {
			return;
		}
		s = host_end + 1;
		if (s < end && (*s != ':' || (port = s + 1) == end)) {
			return;
		}
	} else {
		host_end = memchr(s, ':', (size_t) (end - s));
		if (host_end == NULL) {
			host_end = end;
		} else if ((port = host_end + 1) == end || memchr(port, ':', (size_t) (end - port))) {
			return;   /* an IPv6 address without its brackets, or an empty port */
		}
	}
	if (port && !obfuscated(port, end)) {
		for (const char *d = port; d < end; d++) {
			if (!isdigit((unsigned char) *d) || end - port > 5 || (n = n * 10 + (unsigned long) (*d - '0')) > 65535) {
				return;
			}
		}
		hop->port = (uint16_t) n;
	}
	hop->address = rapier_netmask_address(host, (size_t) (host_end - host), &hop->addr, &hop->addr_len);
}

/* One pair of an element: for= and proto= are taken, other parameters passed over. */
static void parse_pair(forwarded_hop_t *hop, const char *s, const char *end)
{
	const char *name_end = memchr(s, '=', (size_t) (end - s));
	const char *value;

	if (name_end == NULL) {
		return;
	}
	value = name_end + 1;
	trim(&s, &name_end);
	trim(&value, &end);
	if (!pair_value(&value, &end)) {
		return;
	}
	if (name_end - s == 3 && strncasecmp(s, "for", 3) == 0) {
		parse_node(hop, value, end);
	} else if (name_end - s == 5 && strncasecmp(s, "proto", 5) == 0) {
		hop->https = scheme_https(value, (size_t) (end - value));
	}
}

/* The end of what starts at s and ends at the first of stops outside a quoted string. */
static const char *field_end(const char *s, const char *end, const char *stops)
{
	bool quoted = false;

	for (; s < end; s++) {
		if (*s == '"') {
			quoted = !quoted;
		} else if (*s == '\\' && quoted && s + 1 < end) {
			s++;
		} else if (!quoted && strchr(stops, *s)) {
			break;
		}
	}
	return s;
}

/*
 * The hop that names the client, as for X-Forwarded-For but read left to
 * right: the last hop that is not a trusted proxy's address. A hop naming
 * no address makes nothing of the list believable (false), as does a
 * header absent or empty; every hop trusted: the first. Each field of the
 * name is the list's continuation (RFC 9110 5.3), so all are read.
 */
static bool forwarded_client(rapier_http_conn_t *conn, forwarded_hop_t *client)
{
	const rapier_http_config_t *cfg = &conn->server->cfg;
	const rapier_http_request_t *req = rapier_http_conn_request(conn);
	bool found = false;

	for (size_t i = 0; i < req->header_count; i++) {
		const char *s = req->headers[i].value, *end = s + req->headers[i].value_len;

		if (req->headers[i].name_len != 9 || memcmp(req->headers[i].name, "forwarded", 9) != 0) {
			continue;
		}
		while (s < end) {
			const char *element_end = field_end(s, end, ","), *element = s, *trimmed_end = element_end;
			forwarded_hop_t hop = { .https = -1 };

			if ((s = element_end) < end) {
				s++;
			}
			trim(&element, &trimmed_end);
			if (element == trimmed_end) {
				continue;   /* an empty list element, ignored (RFC 9110 5.6.1) */
			}
			for (const char *pair = element; ; pair++) {
				const char *pair_end = field_end(pair, element_end, ";");
				parse_pair(&hop, pair, pair_end);
				if ((pair = pair_end) == element_end) {
					break;
				}
			}
			if (!found || !hop.address
					|| !rapier_netmask_contains(cfg->real_ip_from, cfg->real_ip_from_count, (struct sockaddr *) &hop.addr)) {
				*client = hop;
				found = true;
			}
		}
	}
	return found && client->address;
}

/* The client, and its scheme, as trusted proxies name them in Forwarded (either or both of the options). */
static void forwarded(rapier_http_conn_t *conn, bool want_client, bool want_scheme)
{
	forwarded_hop_t hop;

	if (!forwarded_client(conn, &hop)) {
		return;
	}
	if (want_client) {
		name_client(conn, &hop.addr, hop.port);
	}
	if (want_scheme && hop.https >= 0) {
		conn->client_https = hop.https;
	}
}

void rapier__http_real_ip(rapier_http_conn_t *conn)
{
	const rapier_http_config_t *cfg = &conn->server->cfg;
	client_hop_t hop = { 0, 0 };

	conn->client_named = false;
	/* The balancer's word on the connection, unless a trusted proxy's header says otherwise for the request. */
	conn->client_https = conn->proxy_https;
	if ((cfg->real_ip_header == NULL && cfg->real_scheme_header == NULL)
			|| !rapier_netmask_contains(cfg->real_ip_from, cfg->real_ip_from_count, (struct sockaddr *) &conn->peer)) {
		return;
	}
	if (cfg->real_ip_forwarded || cfg->real_scheme_forwarded) {
		forwarded(conn, cfg->real_ip_forwarded, cfg->real_scheme_forwarded);
	}
	if (cfg->real_ip_header && !cfg->real_ip_forwarded) {
		named_client(conn, cfg->real_ip_header, &hop);
	}
	if (cfg->real_scheme_header && !cfg->real_scheme_forwarded) {
		int8_t https = named_scheme(rapier_http_conn_request(conn), cfg->real_scheme_header, &hop);

		if (https >= 0) {
			conn->client_https = https;
		}
	}
}
