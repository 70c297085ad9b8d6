/*
 * HTTPS for the HTTP server: the certificate and settings every
 * connection shares (one SSL_CTX per worker) and each connection's
 * session. Nothing here waits: an operation that needs the socket says so
 * and the caller watches the descriptor (http_server.c, http_writer.c,
 * http_websocket.c), exactly as for the plain bytes.
 */
#ifndef RAPIER_HTTP_TLS_H
#define RAPIER_HTTP_TLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

/* The most plaintext one TLS record carries, so the most one read returns. */
#define RAPIER_HTTP_TLS_RECORD_MAX 16384

/* Session ticket keys: name (16), HMAC secret (32), AES key (32). */
#define RAPIER_HTTP_TLS_TICKET_KEY_LEN 80

typedef struct rapier_http_tls_ctx_s rapier_http_tls_ctx_t;
typedef struct rapier_http_tls_s rapier_http_tls_t;

/* Whether a client must present a certificate (mutual TLS). */
typedef enum {
	RAPIER_HTTP_TLS_VERIFY_NONE,      /* no certificate is asked for */
	RAPIER_HTTP_TLS_VERIFY_OPTIONAL,  /* asked for; one that is sent must verify */
	RAPIER_HTTP_TLS_VERIFY_REQUIRE,   /* a verified certificate, or no handshake */
} rapier_http_tls_verify_t;

/* A certificate and its key. */
typedef struct {
	const char *cert_file;         /* PEM: the certificate, then the chain to send with it */
	const char *key_file;          /* PEM private key; NULL: it is in cert_file */
} rapier_http_tls_identity_t;

typedef struct {
	const char *cert_file;         /* PEM: the certificate, then the chain to send with it */
	const char *key_file;          /* PEM private key; NULL: it is in cert_file */
	int min_version;               /* TLS1_2_VERSION or TLS1_3_VERSION */
	const char *ciphers;           /* OpenSSL cipher list for TLS 1.2; NULL: OpenSSL's default */
	/* Shared by the workers, so a session resumes whichever worker takes the connection; NULL: OpenSSL's own. */
	const unsigned char *ticket_key;
	rapier_http_tls_verify_t verify_client;
	const char *client_ca_file;    /* PEM: the authorities a client certificate must chain to */
	int verify_depth;              /* the most intermediates in that chain; negative: OpenSSL's default */
	const char *client_crl_file;   /* PEM: revocation lists, one per authority of the chain; NULL: none checked */
	/*
	 * More certificates, each served to a client that asks (SNI) for a name
	 * it holds; cert_file's is served to the others, and to clients that ask
	 * for a name it holds too.
	 */
	const rapier_http_tls_identity_t *sni_identities;
	size_t sni_count;
	bool http2;                    /* offer h2 by ALPN (preferred to http/1.1) */
} rapier_http_tls_config_t;

/*
 * Loads the certificates and keys and checks that they match. NULL on
 * failure, with what went wrong (file and OpenSSL's reason) in err.
 */
rapier_http_tls_ctx_t *rapier_http_tls_ctx_new(const rapier_http_tls_config_t *cfg, char *err, size_t err_len);
void rapier_http_tls_ctx_free(rapier_http_tls_ctx_t *ctx);

/* Fills key with fresh random ticket key material; false if the random source failed. */
bool rapier_http_tls_ticket_key_generate(unsigned char key[RAPIER_HTTP_TLS_TICKET_KEY_LEN]);

/* A server session on the connected socket fd, or NULL (out of memory). */
rapier_http_tls_t *rapier_http_tls_new(rapier_http_tls_ctx_t *ctx, int fd);

/*
 * Frees the session. With notify, a close_notify alert is sent first if
 * the socket takes it at once and the session is sound (never waits).
 */
void rapier_http_tls_free(rapier_http_tls_t *tls, bool notify);

typedef enum {
	RAPIER_HTTP_TLS_DONE,          /* the handshake is complete */
	RAPIER_HTTP_TLS_WANT_READ,     /* call again when the socket is readable */
	RAPIER_HTTP_TLS_WANT_WRITE,    /* ... writable */
	RAPIER_HTTP_TLS_PLAIN_HTTP,    /* the client spoke plain HTTP: it may be told so in the clear */
	RAPIER_HTTP_TLS_FAILED,        /* not TLS, an alert, or the peer left: close */
} rapier_http_tls_step_t;

/* Advances the server side of the handshake as far as the socket allows. */
rapier_http_tls_step_t rapier_http_tls_handshake(rapier_http_tls_t *tls);

/*
 * Application data, with the conventions of recv(), send() and sendfile()
 * on a non-blocking socket: the bytes moved; 0 from recv at the end of the
 * stream (close_notify, or the peer closing without one); -1 with errno
 * EAGAIN when the socket must be waited on, or another errno (EPROTO for
 * a TLS failure) when the session is dead.
 *
 * A send that did not take everything it was offered (EAGAIN, or fewer
 * bytes) must be called again with at least the rest of those bytes:
 * OpenSSL may have sealed some of them into a record that is partly on the
 * wire, and sends that record's rest first. Every writer of the server
 * goes on with all it still has to send, which is exactly that.
 */
ssize_t rapier_http_tls_recv(rapier_http_tls_t *tls, char *buf, size_t len);
ssize_t rapier_http_tls_sendv(rapier_http_tls_t *tls, const struct iovec *iov, int iovcnt);
ssize_t rapier_http_tls_sendfile(rapier_http_tls_t *tls, int fd, off_t *offset, size_t len);

/* The negotiated protocol version ("TLSv1.3") and cipher, for $_SERVER. */
/* Whether the handshake chose h2 by ALPN. */
bool rapier_http_tls_alpn_h2(const rapier_http_tls_t *tls);

const char *rapier_http_tls_version(const rapier_http_tls_t *tls);
const char *rapier_http_tls_cipher(const rapier_http_tls_t *tls);

/* The host name the client asked for (SNI), or NULL. */
const char *rapier_http_tls_server_name(const rapier_http_tls_t *tls);

/*
 * The client's certificate, for $_SERVER's SSL_CLIENT_* variables. It is
 * verified (a certificate that fails verification fails the handshake), and
 * it outlives the connection: a request keeps its own reference.
 */
typedef struct x509_st rapier_http_tls_peer_t;   /* OpenSSL's X509, opaque to the callers */

typedef enum {
	RAPIER_HTTP_TLS_PEER_SUBJECT,     /* distinguished name, RFC 2253 ("CN=alice,O=Example") */
	RAPIER_HTTP_TLS_PEER_ISSUER,
	RAPIER_HTTP_TLS_PEER_SERIAL,      /* upper-case hex */
	RAPIER_HTTP_TLS_PEER_NOT_BEFORE,  /* "Nov 24 16:33:00 2026 GMT" */
	RAPIER_HTTP_TLS_PEER_NOT_AFTER,
	RAPIER_HTTP_TLS_PEER_PEM,         /* the certificate itself */
} rapier_http_tls_peer_field_t;

/* Whether the session asked the client for a certificate. */
bool rapier_http_tls_verifies_client(const rapier_http_tls_t *tls);

/* A new reference to the client's verified certificate, or NULL: none was sent. */
rapier_http_tls_peer_t *rapier_http_tls_peer(const rapier_http_tls_t *tls);
void rapier_http_tls_peer_release(rapier_http_tls_peer_t *peer);

/* One field of the certificate as a string to free(), its length in *len; NULL when out of memory. */
char *rapier_http_tls_peer_field(const rapier_http_tls_peer_t *peer, rapier_http_tls_peer_field_t field, size_t *len);

#endif
