/*
 * TLS sessions for the coroutine-aware transports.
 *
 * OpenSSL never blocks: it reads and writes the socket through a BIO of
 * ours that passes MSG_DONTWAIT (the descriptor may be in blocking mode:
 * ext/sockets keeps the one socket_export_stream() hands over so), reports
 * SSL_ERROR_WANT_READ or SSL_ERROR_WANT_WRITE, and we wait for exactly that
 * with socket.h (suspending inside a coroutine), then call it again. Either
 * operation can want either direction: a read can need a write during a
 * renegotiation or a TLS 1.3 key update, and the reverse.
 *
 * Each session gets its own SSL_CTX built from the stream context's "ssl"
 * options (verify_peer, verify_peer_name, peer_name, allow_self_signed,
 * cafile, capath, verify_depth, local_cert, local_pk, passphrase,
 * ciphers, SNI_enabled). Sharing one SSL_CTX per context was rejected for
 * now: contexts are mutable PHP values and a stale cached CTX would apply
 * old options; one CTX per connection costs a few microseconds. Peer
 * verification uses OpenSSL's chain check (with allow_self_signed
 * accepting a self-signed leaf) and X509_check_host()/X509_check_ip_asc()
 * for the name, so warnings have the shape ext/openssl gives them.
 *
 * Not supported: capture_peer_cert (it needs ext/openssl's certificate
 * objects), session reuse between streams, SNI certificates on servers.
 */
#include "tls.h"
#include "resolve.h"
#include "socket.h"
#include "socket_bio.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "ext/standard/php_smart_string.h"

#if OPENSSL_VERSION_NUMBER < 0x30000000L
/* OpenSSL 1.1.1 has the same call under its older name. */
# define SSL_get1_peer_certificate SSL_get_peer_certificate
#endif

struct rapier_tls_s {
	SSL_CTX *ctx;
	SSL *ssl;
	bool client;
	bool active;               /* handshake done and peer accepted */
	bool allow_self_signed;
	bool verify_peer;
	bool verify_peer_name;
	bool persistent;
	char *peer_name;           /* expected name; NULL: none known */
};

void rapier_tls_mshutdown(void)
{
	rapier_socket_bio_mshutdown();
}

static zval *ssl_option(php_stream_context *context, const char *name)
{
	return context ? php_stream_context_get_option(context, "ssl", name) : NULL;
}

static bool ssl_option_bool(php_stream_context *context, const char *name, bool fallback)
{
	zval *val = ssl_option(context, name);

	return val ? zend_is_true(val) : fallback;
}

static const char *ssl_option_string(php_stream_context *context, const char *name)
{
	zval *val = ssl_option(context, name);

	return val && Z_TYPE_P(val) == IS_STRING && Z_STRLEN_P(val) > 0 ? Z_STRVAL_P(val) : NULL;
}

int rapier_tls_scheme_method(const char *scheme, size_t len, php_stream_context *context)
{
	zval *opt = ssl_option(context, "crypto_method");

	if (opt) {
		return (int) zval_get_long(opt);
	}
	if (len == 3) {
		return strncmp(scheme, "ssl", 3) == 0 ? STREAM_CRYPTO_METHOD_ANY_CLIENT : STREAM_CRYPTO_METHOD_TLS_CLIENT;
	}
	switch (scheme[len - 1]) {          /* "tlsv1.N" */
		case '0': return STREAM_CRYPTO_METHOD_TLSv1_0_CLIENT;
		case '1': return STREAM_CRYPTO_METHOD_TLSv1_1_CLIENT;
		case '2': return STREAM_CRYPTO_METHOD_TLSv1_2_CLIENT;
		default: return STREAM_CRYPTO_METHOD_TLSv1_3_CLIENT;
	}
}

/* Emits the warnings ext/openssl gives for a failed SSL call. */
static void report_ssl_error(SSL *ssl, int ret, int err)
{
	unsigned long code = ERR_get_error();
	smart_string msg = {0};
	char buf[256];

	if (err == SSL_ERROR_ZERO_RETURN) {
		return;              /* the peer ended TLS: PHP says nothing either */
	}
	if (err == SSL_ERROR_SYSCALL && code == 0) {
		/* An EOF without close_notify is silent in PHP; a socket error is named. */
		if (ret != 0) {
			char *estr = php_socket_strerror(errno, NULL, 0);
			php_error_docref(NULL, E_WARNING, "SSL: %s", estr);
			efree(estr);
		}
		return;
	}
	for (; code != 0; code = ERR_get_error()) {
		ERR_error_string_n(code, buf, sizeof(buf));
		if (msg.len) {
			smart_string_appendc(&msg, '\n');
		}
		smart_string_appends(&msg, buf);
	}
	smart_string_0(&msg);
	php_error_docref(NULL, E_WARNING, "SSL operation failed with code %d. %s%s", err,
		msg.len ? "OpenSSL Error messages:\n" : "", msg.len ? msg.c : "");
	smart_string_free(&msg);
}

static int verify_callback(int ok, X509_STORE_CTX *store)
{
	SSL *ssl = X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx());
	rapier_tls_t *tls = SSL_get_app_data(ssl);

	if (!ok && tls->allow_self_signed
			&& X509_STORE_CTX_get_error(store) == X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT) {
		X509_STORE_CTX_set_error(store, X509_V_OK);
		return 1;
	}
	return ok;
}

/* Lowest and highest protocol versions named by STREAM_CRYPTO_METHOD_* bits. */
static void set_versions(SSL_CTX *ctx, int method)
{
	static const int versions[] = { 0, 0, SSL3_VERSION, TLS1_VERSION, TLS1_1_VERSION, TLS1_2_VERSION, TLS1_3_VERSION };
	int min = 0, max = 0;

	for (int bit = 2; bit <= 6; bit++) {
		if (method & (1 << bit)) {
			if (min == 0) {
				min = versions[bit];
			}
			max = versions[bit];
		}
	}
	if (min) {
		SSL_CTX_set_min_proto_version(ctx, min);
		SSL_CTX_set_max_proto_version(ctx, max);
	}
}

static bool load_verify_locations(SSL_CTX *ctx, php_stream_context *context)
{
	const char *cafile = ssl_option_string(context, "cafile");
	const char *capath = ssl_option_string(context, "capath");

	if (cafile == NULL && capath == NULL) {
		/* The openssl.cafile / openssl.capath ini settings, as ext/openssl uses them. */
		cafile = zend_ini_string_ex("openssl.cafile", sizeof("openssl.cafile") - 1, 0, NULL);
		capath = zend_ini_string_ex("openssl.capath", sizeof("openssl.capath") - 1, 0, NULL);
		cafile = cafile && *cafile ? cafile : NULL;
		capath = capath && *capath ? capath : NULL;
	}
	if (cafile == NULL && capath == NULL) {
		SSL_CTX_set_default_verify_paths(ctx);
		return true;
	}
	if (!SSL_CTX_load_verify_locations(ctx, cafile, capath)) {
		php_error_docref(NULL, E_WARNING, "Unable to set verify locations `%s' `%s'",
			cafile ? cafile : "", capath ? capath : "");
		ERR_clear_error();
		return false;
	}
	return true;
}

static int passphrase_callback(char *buf, int size, int rwflag, void *data)
{
	const char *pass = data;
	int len = (int) strlen(pass);

	if (len >= size) {
		return 0;
	}
	memcpy(buf, pass, len + 1);
	return len;
}

static bool load_local_cert(SSL_CTX *ctx, php_stream_context *context)
{
	const char *cert = ssl_option_string(context, "local_cert");
	const char *key = ssl_option_string(context, "local_pk");
	const char *pass = ssl_option_string(context, "passphrase");

	if (cert == NULL) {
		return true;
	}
	if (pass) {
		SSL_CTX_set_default_passwd_cb(ctx, passphrase_callback);
		SSL_CTX_set_default_passwd_cb_userdata(ctx, (void *) pass);
	}
	if (SSL_CTX_use_certificate_chain_file(ctx, cert) != 1) {
		php_error_docref(NULL, E_WARNING, "Unable to set local cert chain file `%s'; Check that your cafile/capath "
			"settings include details of your certificate and its issuer", cert);
		return false;
	}
	if (SSL_CTX_use_PrivateKey_file(ctx, key ? key : cert, SSL_FILETYPE_PEM) != 1) {
		php_error_docref(NULL, E_WARNING, "Unable to set private key file `%s'", key ? key : cert);
		return false;
	}
	if (!SSL_CTX_check_private_key(ctx)) {
		php_error_docref(NULL, E_WARNING, "Private key does not match certificate!");
		return false;
	}
	/* The passphrase belongs to the context zval: drop the pointer now the key is loaded. */
	SSL_CTX_set_default_passwd_cb_userdata(ctx, NULL);
	return true;
}

static SSL_CTX *context_new(rapier_tls_t *tls, php_stream_context *context, int method)
{
	SSL_CTX *ctx = SSL_CTX_new(tls->client ? TLS_client_method() : TLS_server_method());
	const char *ciphers = ssl_option_string(context, "ciphers");
	zval *depth = ssl_option(context, "verify_depth");
	uint64_t options = SSL_OP_ALL | SSL_OP_NO_COMPRESSION;

	if (ctx == NULL) {
		php_error_docref(NULL, E_WARNING, "SSL context creation failure");
		return NULL;
	}
#ifdef SSL_OP_IGNORE_UNEXPECTED_EOF
	/* A peer that closes without close_notify ends the stream, as with ext/openssl. */
	options |= SSL_OP_IGNORE_UNEXPECTED_EOF;
#endif
	SSL_CTX_set_options(ctx, options);
	/* Partial writes: the stream layer loops; moving buffer: PHP may retry from a new address. */
	SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
	set_versions(ctx, method);
	if (tls->verify_peer) {
		SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, verify_callback);
		if (depth) {
			SSL_CTX_set_verify_depth(ctx, (int) zval_get_long(depth));
		}
		if (!load_verify_locations(ctx, context)) {
			goto fail;
		}
	} else {
		SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL);
	}
	if (ciphers && SSL_CTX_set_cipher_list(ctx, ciphers) != 1) {
		php_error_docref(NULL, E_WARNING, "Failed setting cipher list: `%s'", ciphers);
		goto fail;
	}
	if (!load_local_cert(ctx, context)) {
		goto fail;
	}
	return ctx;
fail:
	ERR_clear_error();
	SSL_CTX_free(ctx);
	return NULL;
}

rapier_tls_t *rapier_tls_new(php_stream_context *context, int fd, int method, const char *url_host, bool persistent)
{
	rapier_tls_t *tls = pecalloc(1, sizeof(*tls), persistent);
	const char *peer_name = ssl_option_string(context, "peer_name");
	BIO *bio;

	tls->persistent = persistent;
	tls->client = (method & 1) != 0;
	/* Servers do not ask for a client certificate unless told to, as ext/openssl. */
	tls->verify_peer = ssl_option_bool(context, "verify_peer", tls->client);
	tls->verify_peer_name = ssl_option_bool(context, "verify_peer_name", tls->client);
	tls->allow_self_signed = ssl_option_bool(context, "allow_self_signed", false);
	if (peer_name || url_host) {
		tls->peer_name = pestrdup(peer_name ? peer_name : url_host, persistent);
	}
	tls->ctx = context_new(tls, context, method);
	if (tls->ctx == NULL) {
		goto fail;
	}
	tls->ssl = SSL_new(tls->ctx);
	if (tls->ssl == NULL || (bio = rapier_socket_bio_new(fd)) == NULL) {
		php_error_docref(NULL, E_WARNING, "SSL handle creation failure");
		goto fail;
	}
	SSL_set_bio(tls->ssl, bio, bio);
	SSL_set_app_data(tls->ssl, tls);
	if (tls->client) {
		SSL_set_connect_state(tls->ssl);
		if (tls->peer_name && ssl_option_bool(context, "SNI_enabled", true) && !rapier_ip_literal(tls->peer_name)) {
			SSL_set_tlsext_host_name(tls->ssl, tls->peer_name);
		}
	} else {
		SSL_set_accept_state(tls->ssl);
	}
	return tls;
fail:
	ERR_clear_error();
	rapier_tls_free(tls);
	return NULL;
}

/* Waits for what OpenSSL asked for; deadline_ns 0: no limit. */
static int wait_want(const rapier_tls_wait_t *how, int err, uint64_t deadline_ns)
{
	uint32_t events = err == SSL_ERROR_WANT_READ ? RAPIER_IO_READ : RAPIER_IO_WRITE;
	int64_t timeout_ns = -1;

	if (!how->blocking) {
		return -EAGAIN;
	}
	if (deadline_ns) {
		uint64_t now = rapier_now_ns();
		timeout_ns = deadline_ns > now ? (int64_t) (deadline_ns - now) : 0;
	}
	return how->may_yield ? rapier_socket_wait(how->fd, events, timeout_ns)
		: rapier_socket_poll(how->fd, events, timeout_ns);
}

static uint64_t deadline_of(const rapier_tls_wait_t *how)
{
	return how->timeout_ns >= 0 ? rapier_now_ns() + (uint64_t) how->timeout_ns : 0;
}

static bool check_peer(rapier_tls_t *tls)
{
	X509 *cert = SSL_get1_peer_certificate(tls->ssl);
	bool ok = true;

	if (cert == NULL) {
		if (tls->verify_peer || tls->verify_peer_name) {
			php_error_docref(NULL, E_WARNING, "Could not get peer certificate");
			return false;
		}
		return true;
	}
	if (tls->verify_peer_name && tls->peer_name) {
		ok = rapier_ip_literal(tls->peer_name)
			? X509_check_ip_asc(cert, tls->peer_name, 0) == 1
			: X509_check_host(cert, tls->peer_name, 0, 0, NULL) == 1;
		if (!ok) {
			char cn[256] = "";
			X509_NAME_get_text_by_NID(X509_get_subject_name(cert), NID_commonName, cn, sizeof(cn));
			php_error_docref(NULL, E_WARNING, "Peer certificate CN=`%s' did not match expected CN=`%s'",
				cn, tls->peer_name);
		}
	}
	X509_free(cert);
	return ok;
}

int rapier_tls_handshake(rapier_tls_t *tls, const rapier_tls_wait_t *how)
{
	uint64_t deadline = deadline_of(how);

	if (tls->active) {
		return 1;
	}
	for (;;) {
		int ret, err, waited;

		ERR_clear_error();
		ret = SSL_do_handshake(tls->ssl);
		if (ret == 1) {
			break;
		}
		err = SSL_get_error(tls->ssl, ret);
		if (err != SSL_ERROR_WANT_READ && err != SSL_ERROR_WANT_WRITE) {
			report_ssl_error(tls->ssl, ret, err);
			return -EIO;
		}
		waited = wait_want(how, err, deadline);
		if (waited == -EAGAIN) {
			return 0;
		}
		if (waited == -ETIMEDOUT) {
			php_error_docref(NULL, E_WARNING, "SSL: Handshake timed out");
		}
		if (waited < 0) {
			return waited;
		}
	}
	if (!check_peer(tls)) {
		return -EIO;
	}
	tls->active = true;
	return 1;
}

/* The outcome of a failed SSL_read or SSL_write: retry (0) or a result. */
static ssize_t after_failure(rapier_tls_t *tls, int ret, const rapier_tls_wait_t *how, uint64_t deadline)
{
	int err = SSL_get_error(tls->ssl, ret);

	switch (err) {
		case SSL_ERROR_ZERO_RETURN:
			return 1;
		case SSL_ERROR_WANT_READ:
		case SSL_ERROR_WANT_WRITE:
			return wait_want(how, err, deadline);
		default:
			report_ssl_error(tls->ssl, ret, err);
			return -EIO;
	}
}

ssize_t rapier_tls_read(rapier_tls_t *tls, char *buf, size_t len, const rapier_tls_wait_t *how)
{
	uint64_t deadline = deadline_of(how);
	int chunk = len > INT_MAX ? INT_MAX : (int) len;

	for (;;) {
		ssize_t ret;

		ERR_clear_error();
		ret = SSL_read(tls->ssl, buf, chunk);
		if (ret > 0) {
			return ret;
		}
		ret = after_failure(tls, (int) ret, how, deadline);
		if (ret == 1) {
			return 0;          /* close_notify: the end of the stream */
		}
		if (ret < 0) {
			return ret;
		}
	}
}

ssize_t rapier_tls_write(rapier_tls_t *tls, const char *buf, size_t len, const rapier_tls_wait_t *how)
{
	uint64_t deadline = deadline_of(how);
	int chunk = len > INT_MAX ? INT_MAX : (int) len;

	for (;;) {
		ssize_t ret;

		ERR_clear_error();
		ret = SSL_write(tls->ssl, buf, chunk);
		if (ret > 0) {
			return ret;
		}
		ret = after_failure(tls, (int) ret, how, deadline);
		if (ret == 1) {
			return -EPIPE;     /* the peer closed the TLS stream */
		}
		if (ret < 0) {
			return ret;
		}
	}
}

int rapier_tls_pending(rapier_tls_t *tls)
{
	return tls && tls->active ? SSL_pending(tls->ssl) : 0;
}

bool rapier_tls_is_active(const rapier_tls_t *tls)
{
	return tls && tls->active;
}

void rapier_tls_meta_data(rapier_tls_t *tls, zval *meta)
{
	const SSL_CIPHER *cipher;
	zval crypto;
	int bits;

	if (!tls->active) {
		return;
	}
	cipher = SSL_get_current_cipher(tls->ssl);
	bits = SSL_CIPHER_get_bits(cipher, NULL);
	array_init(&crypto);
	add_assoc_string(&crypto, "protocol", (char *) SSL_get_version(tls->ssl));
	add_assoc_string(&crypto, "cipher_name", (char *) SSL_CIPHER_get_name(cipher));
	add_assoc_long(&crypto, "cipher_bits", bits);
	add_assoc_string(&crypto, "cipher_version", (char *) SSL_CIPHER_get_version(cipher));
	add_assoc_zval(meta, "crypto", &crypto);
}

void rapier_tls_shutdown(rapier_tls_t *tls)
{
	if (tls->active) {
		/* One try without waiting: close_notify is a courtesy, as in ext/openssl. */
		ERR_clear_error();
		SSL_shutdown(tls->ssl);
		ERR_clear_error();
		tls->active = false;
	}
}

void rapier_tls_free(rapier_tls_t *tls)
{
	if (tls == NULL) {
		return;
	}
	if (tls->ssl) {
		rapier_tls_shutdown(tls);
		SSL_free(tls->ssl);
	}
	if (tls->ctx) {
		SSL_CTX_free(tls->ctx);
	}
	if (tls->peer_name) {
		pefree(tls->peer_name, tls->persistent);
	}
	pefree(tls, tls->persistent);
}
