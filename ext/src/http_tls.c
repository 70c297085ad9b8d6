/*
 * HTTPS for the HTTP server (http_tls.h).
 *
 * OpenSSL reads and writes the socket itself, through socket_bio.h's BIO
 * (MSG_DONTWAIT, MSG_NOSIGNAL), so a session is one SSL object on the
 * connection's descriptor and every call returns at once.
 *
 * Writes run in SSL_MODE_ENABLE_PARTIAL_WRITE: each SSL_write() seals and
 * sends one record of at most 16 KiB, so a full socket costs at most the
 * record in flight, which OpenSSL keeps until the same bytes are offered
 * again (SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER lets them come from another
 * buffer). Small pieces (a response head and a short body) are gathered
 * into one record first: one encryption and one send(), as the plain
 * server's one sendmsg(). SSL_MODE_RELEASE_BUFFERS gives a session's 34
 * KiB of buffers back while its connection is idle: ten thousand
 * keep-alive connections must not hold 340 MB.
 */
#include "http2.h"
#include "http_tls.h"
#include "socket_bio.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

/* Bytes of a file read per pread() before they are sealed, four records. */
#define TLS_FILE_CHUNK (4 * RAPIER_HTTP_TLS_RECORD_MAX)

struct rapier_http_tls_ctx_s {
	SSL_CTX *ssl_ctx;              /* cert_file's: every session starts with it */
	SSL_CTX **sni_ctx;             /* one per sni_identities entry, with the same settings */
	size_t sni_count;
};

struct rapier_http_tls_s {
	SSL *ssl;
	bool broken;                   /* a fatal error: no close_notify, no more calls */
};

/* One worker, one thread: the gathering buffers are shared by every connection. */
static unsigned char record_buffer[RAPIER_HTTP_TLS_RECORD_MAX];
static unsigned char file_buffer[TLS_FILE_CHUNK];

static const unsigned char alpn_http11[] = "\x08http/1.1";
static const unsigned char alpn_h2[] = RAPIER_H2_ALPN;

/*
 * ALPN: h2 when HTTP/2 is on and the client offers it, else HTTP/1.1 if it
 * offers that; otherwise none, as without ALPN. arg: non-NULL with HTTP/2.
 */
static int select_alpn(SSL *ssl, const unsigned char **out, unsigned char *out_len, const unsigned char *in,
	unsigned int in_len, void *arg)
{
	const unsigned char *ours = arg ? alpn_h2 : alpn_http11;
	unsigned int ours_len = arg ? sizeof(alpn_h2) - 1 : sizeof(alpn_http11) - 1;
	unsigned char *selected;

	(void) ssl;
	if (SSL_select_next_proto(&selected, out_len, ours, ours_len, in, in_len) != OPENSSL_NPN_NEGOTIATED) {
		return SSL_TLSEXT_ERR_NOACK;
	}
	*out = selected;
	return SSL_TLSEXT_ERR_OK;
}

/* OpenSSL's first reason for the failure just seen ("no start line", "key values mismatch"). */
static const char *openssl_reason(void)
{
	const char *reason = ERR_reason_error_string(ERR_peek_error());

	return reason ? reason : "not a PEM file OpenSSL can use";
}

/* Says what failed in err, forgets OpenSSL's queued errors, and returns false. */
static bool fail(char *err, size_t err_len, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vsnprintf(err, err_len, fmt, args);
	va_end(args);
	ERR_clear_error();
	return false;
}

/* The file must be readable by this process: say so in its own words before OpenSSL says "system lib". */
static bool check_readable(const char *what, const char *path, char *err, size_t err_len)
{
	if (access(path, R_OK) < 0) {
		return fail(err, err_len, "%s %s: %s", what, path, strerror(errno));
	}
	return true;
}

/* The option names an identity's errors give: "tls_cert_file", or "tls_certificates[1] cert_file". */
typedef struct {
	char cert[64];
	char key[64];
} identity_labels_t;

static bool load_identity(SSL_CTX *ssl_ctx, const rapier_http_tls_identity_t *id, const identity_labels_t *labels,
	char *err, size_t err_len)
{
	const char *key_what = id->key_file ? labels->key : labels->cert;
	const char *key_file = id->key_file ? id->key_file : id->cert_file;

	if (!check_readable(labels->cert, id->cert_file, err, err_len)
			|| (id->key_file && !check_readable(labels->key, id->key_file, err, err_len))) {
		return false;
	}
	if (SSL_CTX_use_certificate_chain_file(ssl_ctx, id->cert_file) != 1) {
		return fail(err, err_len, "%s %s: no certificate: %s", labels->cert, id->cert_file, openssl_reason());
	}
	if (SSL_CTX_use_PrivateKey_file(ssl_ctx, key_file, SSL_FILETYPE_PEM) != 1) {
		unsigned long e = ERR_peek_error();

		if (ERR_GET_LIB(e) == ERR_LIB_X509 && ERR_GET_REASON(e) == X509_R_KEY_VALUES_MISMATCH) {
			return fail(err, err_len, "%s %s: the key does not belong to the certificate", key_what, key_file);
		}
		if (id->key_file == NULL) {
			return fail(err, err_len, "%s %s holds no private key: name the key's file in %s", labels->cert,
				id->cert_file, labels->key);
		}
		return fail(err, err_len, "%s %s: no private key: %s", labels->key, key_file, openssl_reason());
	}
	if (SSL_CTX_check_private_key(ssl_ctx) != 1) {
		return fail(err, err_len, "%s %s: the key does not belong to the certificate", key_what, key_file);
	}
	return true;
}

/*
 * Feeds the file's bytes to the digest; false if it cannot be read. What
 * the file holds is checked by OpenSSL, which has loaded it already.
 */
static bool digest_file(EVP_MD_CTX *md, const char *path)
{
	unsigned char buf[4096];
	size_t n;
	FILE *f = fopen(path, "rb");
	bool ok = f != NULL;

	while (ok && (n = fread(buf, 1, sizeof(buf), f)) > 0) {
		ok = EVP_DigestUpdate(md, buf, n) == 1;
	}
	if (f) {
		ok = ok && !ferror(f);
		fclose(f);
	}
	return ok;
}

/*
 * A session resumes only where its context matches: the context names how
 * clients are verified (mode, depth), by which authorities and against
 * which revocations, so a session verified under other rules (before a
 * reload changed them, or never asked for a certificate) starts a full
 * handshake instead of skipping verification: a certificate revoked since
 * is refused.
 */
static bool set_session_context(SSL_CTX *ssl_ctx, const rapier_http_tls_config_t *cfg, char *err, size_t err_len)
{
	unsigned char context[EVP_MAX_MD_SIZE];
	unsigned int len = 0;
	int rules[2] = { (int) cfg->verify_client, cfg->verify_depth };
	EVP_MD_CTX *md;
	bool ok;

	if (cfg->verify_client == RAPIER_HTTP_TLS_VERIFY_NONE) {
		SSL_CTX_set_session_id_context(ssl_ctx, (const unsigned char *) "rapier-http", sizeof("rapier-http") - 1);
		return true;
	}
	if ((md = EVP_MD_CTX_new()) == NULL) {
		return fail(err, err_len, "out of memory");
	}
	ok = EVP_DigestInit_ex(md, EVP_sha256(), NULL) == 1 && EVP_DigestUpdate(md, rules, sizeof(rules)) == 1
		&& digest_file(md, cfg->client_ca_file)
		&& (cfg->client_crl_file == NULL || (EVP_DigestUpdate(md, "crl", 3) == 1 && digest_file(md, cfg->client_crl_file)))
		&& EVP_DigestFinal_ex(md, context, &len) == 1;
	EVP_MD_CTX_free(md);
	if (!ok || len > SSL_MAX_SID_CTX_LENGTH) {
		return fail(err, err_len, "tls_client_ca_file %s or tls_crl_file: cannot read it", cfg->client_ca_file);
	}
	SSL_CTX_set_session_id_context(ssl_ctx, context, len);
	return true;
}

/*
 * Revocation: every certificate of a client's chain is looked up in the
 * CRL of the authority that signed it (nginx's ssl_crl does the same), so
 * the file needs a CRL of each authority; a certificate whose authority
 * has none there, or whose CRL is out of date, fails verification.
 */
static bool load_crls(SSL_CTX *ssl_ctx, const char *path, char *err, size_t err_len)
{
	X509_STORE *store = SSL_CTX_get_cert_store(ssl_ctx);
	X509_LOOKUP *lookup;

	if (!check_readable("tls_crl_file", path, err, err_len)) {
		return false;
	}
	if ((lookup = X509_STORE_add_lookup(store, X509_LOOKUP_file())) == NULL) {
		return fail(err, err_len, "tls_crl_file %s: %s", path, openssl_reason());
	}
	if (X509_load_crl_file(lookup, path, X509_FILETYPE_PEM) < 1) {
		return fail(err, err_len, "tls_crl_file %s: no certificate revocation list: %s", path, openssl_reason());
	}
	X509_STORE_set_flags(store, X509_V_FLAG_CRL_CHECK | X509_V_FLAG_CRL_CHECK_ALL);
	return true;
}

/* Mutual TLS: the client is asked for a certificate that chains to client_ca_file. */
static bool configure_client_verify(SSL_CTX *ssl_ctx, const rapier_http_tls_config_t *cfg, char *err, size_t err_len)
{
	STACK_OF(X509_NAME) *names;
	int mode = SSL_VERIFY_PEER;

	if (cfg->verify_client == RAPIER_HTTP_TLS_VERIFY_NONE) {
		return true;
	}
	if (!check_readable("tls_client_ca_file", cfg->client_ca_file, err, err_len)) {
		return false;
	}
	if (SSL_CTX_load_verify_locations(ssl_ctx, cfg->client_ca_file, NULL) != 1) {
		return fail(err, err_len, "tls_client_ca_file %s: no certificate: %s", cfg->client_ca_file, openssl_reason());
	}
	/* The request for a certificate names these authorities: a client with several picks one they signed. */
	if ((names = SSL_load_client_CA_file(cfg->client_ca_file)) == NULL) {
		return fail(err, err_len, "tls_client_ca_file %s: no certificate: %s", cfg->client_ca_file, openssl_reason());
	}
	SSL_CTX_set_client_CA_list(ssl_ctx, names);
	if (cfg->client_crl_file && !load_crls(ssl_ctx, cfg->client_crl_file, err, err_len)) {
		return false;
	}
	if (cfg->verify_client == RAPIER_HTTP_TLS_VERIFY_REQUIRE) {
		mode |= SSL_VERIFY_FAIL_IF_NO_PEER_CERT;
	}
	SSL_CTX_set_verify(ssl_ctx, mode, NULL);
	if (cfg->verify_depth >= 0) {
		SSL_CTX_set_verify_depth(ssl_ctx, cfg->verify_depth);
	}
	return true;
}

static bool configure(SSL_CTX *ssl_ctx, const rapier_http_tls_config_t *cfg, char *err, size_t err_len)
{
	uint64_t options = SSL_OP_NO_COMPRESSION | SSL_OP_CIPHER_SERVER_PREFERENCE | SSL_OP_NO_RENEGOTIATION;

#ifdef SSL_OP_IGNORE_UNEXPECTED_EOF
	/* Most clients close without close_notify; that is the end of the stream, not an error. */
	options |= SSL_OP_IGNORE_UNEXPECTED_EOF;
#endif
	SSL_CTX_set_options(ssl_ctx, options);
	SSL_CTX_set_mode(ssl_ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER
		| SSL_MODE_RELEASE_BUFFERS);
	if (SSL_CTX_set_min_proto_version(ssl_ctx, cfg->min_version) != 1) {
		return fail(err, err_len, "tls_min_version: %s", openssl_reason());
	}
	if (cfg->ciphers && SSL_CTX_set_cipher_list(ssl_ctx, cfg->ciphers) != 1) {
		return fail(err, err_len, "tls_ciphers \"%s\": no cipher OpenSSL knows in this list", cfg->ciphers);
	}
	SSL_CTX_set_alpn_select_cb(ssl_ctx, select_alpn, cfg->http2 ? (void *) alpn_h2 : NULL);
	if (!configure_client_verify(ssl_ctx, cfg, err, err_len) || !set_session_context(ssl_ctx, cfg, err, err_len)) {
		return false;
	}
	if (cfg->ticket_key && SSL_CTX_set_tlsext_ticket_keys(ssl_ctx, (void *) cfg->ticket_key,
			RAPIER_HTTP_TLS_TICKET_KEY_LEN) != 1) {
		return fail(err, err_len, "session ticket keys: %s", openssl_reason());
	}
	return true;
}

/* A context with the settings of cfg and the one certificate of id; NULL with err filled in. */
static SSL_CTX *new_ssl_ctx(const rapier_http_tls_config_t *cfg, const rapier_http_tls_identity_t *id,
	const identity_labels_t *labels, char *err, size_t err_len)
{
	SSL_CTX *ssl_ctx = SSL_CTX_new(TLS_server_method());

	if (ssl_ctx == NULL) {
		fail(err, err_len, "OpenSSL: %s", openssl_reason());
		return NULL;
	}
	if (!configure(ssl_ctx, cfg, err, err_len) || !load_identity(ssl_ctx, id, labels, err, err_len)) {
		SSL_CTX_free(ssl_ctx);
		return NULL;
	}
	return ssl_ctx;
}

/* Whether the context's certificate is valid for the host name (its DNS names, "*." ones included). */
static bool holds_name(SSL_CTX *ssl_ctx, const char *name)
{
	return X509_check_host(SSL_CTX_get0_certificate(ssl_ctx), name, 0, 0, NULL) == 1;
}

/*
 * SNI: a client that asks for a name cert_file's certificate does not hold
 * gets the first of the others that holds it. One that none holds gets
 * cert_file's, as nginx's default server answers: the client decides.
 */
static int select_certificate(SSL *ssl, int *alert, void *arg)
{
	const rapier_http_tls_ctx_t *ctx = arg;
	const char *name = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name);

	(void) alert;
	if (name == NULL || holds_name(ctx->ssl_ctx, name)) {
		return SSL_TLSEXT_ERR_OK;
	}
	for (size_t i = 0; i < ctx->sni_count; i++) {
		if (holds_name(ctx->sni_ctx[i], name)) {
			SSL_set_SSL_CTX(ssl, ctx->sni_ctx[i]);
			break;
		}
	}
	ERR_clear_error();
	return SSL_TLSEXT_ERR_OK;
}

rapier_http_tls_ctx_t *rapier_http_tls_ctx_new(const rapier_http_tls_config_t *cfg, char *err, size_t err_len)
{
	rapier_http_tls_identity_t identity = { cfg->cert_file, cfg->key_file };
	identity_labels_t labels = { "tls_cert_file", "tls_key_file" };
	rapier_http_tls_ctx_t *ctx = calloc(1, sizeof(*ctx));

	ERR_clear_error();
	if (ctx == NULL || (cfg->sni_count > 0 && (ctx->sni_ctx = calloc(cfg->sni_count, sizeof(SSL_CTX *))) == NULL)) {
		snprintf(err, err_len, "out of memory");
		free(ctx);
		return NULL;
	}
	ctx->sni_count = cfg->sni_count;
	if ((ctx->ssl_ctx = new_ssl_ctx(cfg, &identity, &labels, err, err_len)) == NULL) {
		rapier_http_tls_ctx_free(ctx);
		return NULL;
	}
	for (size_t i = 0; i < cfg->sni_count; i++) {
		snprintf(labels.cert, sizeof(labels.cert), "tls_certificates[%zu] cert_file", i);
		snprintf(labels.key, sizeof(labels.key), "tls_certificates[%zu] key_file", i);
		if ((ctx->sni_ctx[i] = new_ssl_ctx(cfg, &cfg->sni_identities[i], &labels, err, err_len)) == NULL) {
			rapier_http_tls_ctx_free(ctx);
			return NULL;
		}
	}
	if (cfg->sni_count > 0) {
		SSL_CTX_set_tlsext_servername_callback(ctx->ssl_ctx, select_certificate);
		SSL_CTX_set_tlsext_servername_arg(ctx->ssl_ctx, ctx);
	}
	return ctx;
}

void rapier_http_tls_ctx_free(rapier_http_tls_ctx_t *ctx)
{
	if (ctx == NULL) {
		return;
	}
	for (size_t i = 0; i < ctx->sni_count; i++) {
		SSL_CTX_free(ctx->sni_ctx[i]);
	}
	free(ctx->sni_ctx);
	SSL_CTX_free(ctx->ssl_ctx);
	free(ctx);
}

bool rapier_http_tls_ticket_key_generate(unsigned char key[RAPIER_HTTP_TLS_TICKET_KEY_LEN])
{
	bool ok = RAND_bytes(key, RAPIER_HTTP_TLS_TICKET_KEY_LEN) == 1;

	ERR_clear_error();
	return ok;
}

rapier_http_tls_t *rapier_http_tls_new(rapier_http_tls_ctx_t *ctx, int fd)
{
	rapier_http_tls_t *tls = calloc(1, sizeof(*tls));
	BIO *bio;

	if (tls == NULL) {
		return NULL;
	}
	if ((tls->ssl = SSL_new(ctx->ssl_ctx)) == NULL || (bio = rapier_socket_bio_new(fd)) == NULL) {
		SSL_free(tls->ssl);
		free(tls);
		ERR_clear_error();
		return NULL;
	}
	SSL_set_bio(tls->ssl, bio, bio);
	SSL_set_accept_state(tls->ssl);
	return tls;
}

void rapier_http_tls_free(rapier_http_tls_t *tls, bool notify)
{
	if (tls == NULL) {
		return;
	}
	if (notify && !tls->broken && SSL_is_init_finished(tls->ssl)) {
		/* One try: the alert is a courtesy, and a socket that cannot take 31 bytes is not read anyway. */
		SSL_shutdown(tls->ssl);
	}
	ERR_clear_error();
	SSL_free(tls->ssl);
	free(tls);
}

/*
 * After a call that returned ret <= 0: -1 with errno EAGAIN when the socket
 * must be waited on (either way: a read may need to write), 0 at the end of
 * the stream, or -1 with errno set and the session marked dead.
 */
static ssize_t settle(rapier_http_tls_t *tls, int ret)
{
	int saved = errno;

	switch (SSL_get_error(tls->ssl, ret)) {
		case SSL_ERROR_WANT_READ:
		case SSL_ERROR_WANT_WRITE:
			errno = EAGAIN;
			return -1;
		case SSL_ERROR_ZERO_RETURN:
			return 0;
		case SSL_ERROR_SYSCALL:
			tls->broken = true;
			ERR_clear_error();
			if (saved == 0) {
				return 0;   /* the peer closed the socket mid-record */
			}
			errno = saved;
			return -1;
		default:
			tls->broken = true;
			ERR_clear_error();
			errno = EPROTO;
			return -1;
	}
}

rapier_http_tls_step_t rapier_http_tls_handshake(rapier_http_tls_t *tls)
{
	int ret;

	ERR_clear_error();
	if ((ret = SSL_do_handshake(tls->ssl)) == 1) {
		return RAPIER_HTTP_TLS_DONE;
	}
	switch (SSL_get_error(tls->ssl, ret)) {
		case SSL_ERROR_WANT_READ:
			return RAPIER_HTTP_TLS_WANT_READ;
		case SSL_ERROR_WANT_WRITE:
			return RAPIER_HTTP_TLS_WANT_WRITE;
		default: {
			/* OpenSSL recognizes a request line, and has sent no alert then. */
			bool plain = ERR_GET_REASON(ERR_peek_error()) == SSL_R_HTTP_REQUEST;
			tls->broken = true;
			ERR_clear_error();
			return plain ? RAPIER_HTTP_TLS_PLAIN_HTTP : RAPIER_HTTP_TLS_FAILED;
		}
	}
}

ssize_t rapier_http_tls_recv(rapier_http_tls_t *tls, char *buf, size_t len)
{
	int ret;

	if (tls->broken) {
		errno = EPROTO;
		return -1;
	}
	ERR_clear_error();
	errno = 0;
	ret = SSL_read(tls->ssl, buf, len > INT_MAX ? INT_MAX : (int) len);
	return ret > 0 ? ret : settle(tls, ret);
}

/* Seals and sends one record of buf (at most 16 KiB of it). */
static ssize_t send_record(rapier_http_tls_t *tls, const void *buf, size_t len)
{
	int ret;

	ERR_clear_error();
	errno = 0;
	ret = SSL_write(tls->ssl, buf, len > INT_MAX ? INT_MAX : (int) len);
	if (ret > 0) {
		return ret;
	}
	if (settle(tls, ret) == 0) {
		/* A write cannot meet the end of the stream: the peer is gone. */
		tls->broken = true;
		errno = EPIPE;
	}
	return -1;
}

/* Copies the first bytes of iov (at most max) into dst; the number copied. */
static size_t gather(unsigned char *dst, size_t max, const struct iovec *iov, int iovcnt)
{
	size_t len = 0;

	for (int i = 0; i < iovcnt && len < max; i++) {
		size_t take = iov[i].iov_len < max - len ? iov[i].iov_len : max - len;
		memcpy(dst + len, iov[i].iov_base, take);
		len += take;
	}
	return len;
}

ssize_t rapier_http_tls_sendv(rapier_http_tls_t *tls, const struct iovec *iov, int iovcnt)
{
	size_t total = 0;
	size_t skip = 0;               /* bytes of iov[0] already sent */

	if (tls->broken) {
		errno = EPIPE;
		return -1;
	}
	while (iovcnt > 0) {
		const char *base = (const char *) iov->iov_base + skip;
		size_t left = iov->iov_len - skip;
		const void *buf = base;
		size_t len = left;
		ssize_t n;

		if (left == 0) {
			iov++, iovcnt--, skip = 0;
			continue;
		}
		if (left < RAPIER_HTTP_TLS_RECORD_MAX && iovcnt > 1) {
			struct iovec first = { (void *) base, left };
			len = gather(record_buffer, RAPIER_HTTP_TLS_RECORD_MAX, &first, 1);
			len += gather(record_buffer + len, RAPIER_HTTP_TLS_RECORD_MAX - len, iov + 1, iovcnt - 1);
			buf = record_buffer;
		}
		if ((n = send_record(tls, buf, len)) < 0) {
			return total > 0 ? (ssize_t) total : -1;
		}
		total += (size_t) n;
		/* Step over the n bytes sent, across as many pieces as they covered. */
		for (size_t sent = (size_t) n; sent > 0 && iovcnt > 0;) {
			size_t in_piece = iov->iov_len - skip;
			if (sent < in_piece) {
				skip += sent;
				break;
			}
			sent -= in_piece;
			iov++, iovcnt--, skip = 0;
		}
	}
	return (ssize_t) total;
}

ssize_t rapier_http_tls_sendfile(rapier_http_tls_t *tls, int fd, off_t *offset, size_t len)
{
	size_t total = 0;
	ssize_t got;

	if (tls->broken) {
		errno = EPIPE;
		return -1;
	}
	do {
		got = pread(fd, file_buffer, len < sizeof(file_buffer) ? len : sizeof(file_buffer), *offset);
	} while (got < 0 && errno == EINTR);
	if (got <= 0) {
		return got;                /* 0: the file ended early, as sendfile() says it */
	}
	while (total < (size_t) got) {
		ssize_t n = send_record(tls, file_buffer + total, (size_t) got - total);
		if (n < 0) {
			break;
		}
		total += (size_t) n;
	}
	*offset += (off_t) total;
	return total > 0 ? (ssize_t) total : -1;
}

bool rapier_http_tls_alpn_h2(const rapier_http_tls_t *tls)
{
	const unsigned char *proto;
	unsigned int len;

	SSL_get0_alpn_selected(tls->ssl, &proto, &len);
	return len == 2 && memcmp(proto, "h2", 2) == 0;
}

const char *rapier_http_tls_version(const rapier_http_tls_t *tls)
{
	return SSL_get_version(tls->ssl);
}

const char *rapier_http_tls_cipher(const rapier_http_tls_t *tls)
{
	return SSL_get_cipher_name(tls->ssl);
}

const char *rapier_http_tls_server_name(const rapier_http_tls_t *tls)
{
	return SSL_get_servername(tls->ssl, TLSEXT_NAMETYPE_host_name);
}

bool rapier_http_tls_verifies_client(const rapier_http_tls_t *tls)
{
	return (SSL_get_verify_mode(tls->ssl) & SSL_VERIFY_PEER) != 0;
}

rapier_http_tls_peer_t *rapier_http_tls_peer(const rapier_http_tls_t *tls)
{
	/* Without verification OpenSSL would hand over whatever the client sent. */
	if (!rapier_http_tls_verifies_client(tls) || SSL_get_verify_result(tls->ssl) != X509_V_OK) {
		return NULL;
	}
	return SSL_get1_peer_certificate(tls->ssl);
}

void rapier_http_tls_peer_release(rapier_http_tls_peer_t *peer)
{
	X509_free(peer);
}

/* What was written to the memory BIO, as a NUL-terminated string to free(). */
static char *take_bio_text(BIO *bio, size_t *len)
{
	char *data;
	long n = BIO_get_mem_data(bio, &data);
	char *text = n >= 0 ? malloc((size_t) n + 1) : NULL;

	if (text) {
		memcpy(text, data, (size_t) n);
		text[n] = '\0';
		*len = (size_t) n;
	}
	return text;
}

char *rapier_http_tls_peer_field(const rapier_http_tls_peer_t *peer, rapier_http_tls_peer_field_t field, size_t *len)
{
	/* As nginx's $ssl_client_s_dn: RFC 2253, with UTF-8 kept as it is rather than escaped byte by byte. */
	const unsigned long dn_flags = XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB;
	BIO *bio = BIO_new(BIO_s_mem());
	char *text = NULL;
	bool ok = false;

	if (bio == NULL) {
		ERR_clear_error();
		return NULL;
	}
	switch (field) {
		case RAPIER_HTTP_TLS_PEER_SUBJECT:
			ok = X509_NAME_print_ex(bio, X509_get_subject_name(peer), 0, dn_flags) >= 0;
			break;
		case RAPIER_HTTP_TLS_PEER_ISSUER:
			ok = X509_NAME_print_ex(bio, X509_get_issuer_name(peer), 0, dn_flags) >= 0;
			break;
		case RAPIER_HTTP_TLS_PEER_SERIAL:
			ok = i2a_ASN1_INTEGER(bio, X509_get0_serialNumber(peer)) >= 0;
			break;
		case RAPIER_HTTP_TLS_PEER_NOT_BEFORE:
			ok = ASN1_TIME_print(bio, X509_get0_notBefore(peer)) == 1;
			break;
		case RAPIER_HTTP_TLS_PEER_NOT_AFTER:
			ok = ASN1_TIME_print(bio, X509_get0_notAfter(peer)) == 1;
			break;
		case RAPIER_HTTP_TLS_PEER_PEM:
			ok = PEM_write_bio_X509(bio, peer) == 1;
			break;
	}
	if (ok) {
		text = take_bio_text(bio, len);
	}
	BIO_free(bio);
	ERR_clear_error();
	return text;
}
