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

static void header_done(rapier_http_conn_t *conn, const rapier_proxy_header_t *h)
{
	conn->proxy_pending = false;
	conn->proxy_len = 0;
	if (conn->proxy_buf) {
		efree(conn->proxy_buf);
		conn->proxy_buf = NULL;
	}
	conn->proxy_https = (int8_t) h->ssl;
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

/*
 * The scheme the client used, as the trusted proxy says it: "https" or
 * "http", any case; a list ("https, http": proxies that append) or anything
 * else says nothing, and the connection's own scheme stands.
 */
static int8_t named_scheme(const rapier_http_request_t *req, const char *header)
{
	size_t len = 0;
	const char *value = last_field(req, header, &len);
	const char *end;

	if (value == NULL) {
		return -1;
	}
	end = value + len;
	trim(&value, &end);
	len = (size_t) (end - value);
	if (len == 5 && strncasecmp(value, "https", 5) == 0) {
		return 1;
	}
	return len == 4 && strncasecmp(value, "http", 4) == 0 ? 0 : -1;
}

/* The client's address as the trusted proxy names it in real_ip_header. */
static void named_client(rapier_http_conn_t *conn, const char *header)
{
	const rapier_http_config_t *cfg = &conn->server->cfg;
	struct sockaddr_storage client;
	socklen_t client_len;
	const char *value, *end;
	size_t len = 0;
	bool named = false;

	if ((value = last_field(rapier_http_conn_request(conn), header, &len)) == NULL) {
		return;
	}
	/* From the right: each proxy appends whom it got the request from; the trusted ones are skipped. */
	for (end = value + len; end > value; ) {
		const char *start = end;
		while (start > value && start[-1] != ',') {
			start--;
		}
		const char *entry_end = end;
		end = start > value ? start - 1 : value;
		trim(&start, &entry_end);
		if (!rapier_netmask_address(start, (size_t) (entry_end - start), &client, &client_len)) {
			/* Not an address ("unknown", a port, a typo): nothing of the list is to be believed. */
			return;
		}
		named = true;
		if (!rapier_netmask_contains(cfg->real_ip_from, cfg->real_ip_from_count, (struct sockaddr *) &client)) {
			break;
		}
	}
	if (!named) {
		return;
	}
	inet_ntop(client.ss_family, client.ss_family == AF_INET
		? (const void *) &((struct sockaddr_in *) &client)->sin_addr
		: (const void *) &((struct sockaddr_in6 *) &client)->sin6_addr, conn->client_text, sizeof(conn->client_text));
	conn->client_named = true;
}

void rapier__http_real_ip(rapier_http_conn_t *conn)
{
	const rapier_http_config_t *cfg = &conn->server->cfg;

	conn->client_named = false;
	/* The balancer's word on the connection, unless a trusted proxy's header says otherwise for the request. */
	conn->client_https = conn->proxy_https;
	if ((cfg->real_ip_header == NULL && cfg->real_scheme_header == NULL)
			|| !rapier_netmask_contains(cfg->real_ip_from, cfg->real_ip_from_count, (struct sockaddr *) &conn->peer)) {
		return;
	}
	if (cfg->real_ip_header) {
		named_client(conn, cfg->real_ip_header);
	}
	if (cfg->real_scheme_header) {
		int8_t https = named_scheme(rapier_http_conn_request(conn), cfg->real_scheme_header);

		if (https >= 0) {
			conn->client_https = https;
		}
	}
}
