/*
 * TLS over a non-blocking socket with OpenSSL, for the stream transports:
 * ssl:// and tls:// clients and servers, and STARTTLS through
 * stream_socket_enable_crypto(). Every wait goes through socket.h, so a
 * handshake, read or write suspends the coroutine instead of blocking.
 */
#ifndef RAPIER_TLS_H
#define RAPIER_TLS_H

#include "php.h"
#include "php_network.h"
#include "php_streams.h"

typedef struct rapier_tls_s rapier_tls_t;

/* How an operation waits when OpenSSL needs the socket. */
typedef struct {
	int fd;
	int64_t timeout_ns;     /* -1: no limit */
	bool may_yield;         /* suspend the coroutine rather than poll() */
	bool blocking;          /* false: return -EAGAIN instead of waiting */
} rapier_tls_wait_t;

/*
 * The STREAM_CRYPTO_METHOD_* of a scheme (ssl, tls, tlsv1.0 ... tlsv1.3),
 * unless the context's ssl crypto_method option says otherwise.
 */
int rapier_tls_scheme_method(const char *scheme, size_t len, php_stream_context *context);

/*
 * Prepares a TLS session on fd from the "ssl" options of context.
 * method: STREAM_CRYPTO_METHOD_* bits (client bit set for a client);
 * url_host: the host the stream was opened for (default peer name, SNI).
 * Emits PHP's own warnings and returns NULL on failure.
 */
rapier_tls_t *rapier_tls_new(php_stream_context *context, int fd, int method, const char *url_host, bool persistent);

/*
 * Runs the handshake and verifies the peer. Returns 1 when done, 0 when a
 * non-blocking stream must call again, or a negative errno: -EIO (a
 * warning was emitted), -ETIMEDOUT, -EBUSY, -ECANCELED, -EBADF.
 */
int rapier_tls_handshake(rapier_tls_t *tls, const rapier_tls_wait_t *how);

/*
 * Read and write once the handshake is done. Return the bytes moved, 0
 * from read at the end of the TLS stream, or a negative errno: -EAGAIN
 * (non-blocking and nothing to do), -EIO (warning emitted; the stream is
 * dead), or a wait failure as above.
 */
ssize_t rapier_tls_read(rapier_tls_t *tls, char *buf, size_t len, const rapier_tls_wait_t *how);
ssize_t rapier_tls_write(rapier_tls_t *tls, const char *buf, size_t len, const rapier_tls_wait_t *how);

/* Bytes OpenSSL has decrypted but not yet handed out (tls may be NULL). */
int rapier_tls_pending(rapier_tls_t *tls);

/* True once the handshake is done (tls may be NULL). */
bool rapier_tls_is_active(const rapier_tls_t *tls);

/* Adds the "crypto" entry of stream_get_meta_data() to meta. */
void rapier_tls_meta_data(rapier_tls_t *tls, zval *meta);

/* Sends close_notify without waiting (stream_socket_enable_crypto(false)). */
void rapier_tls_shutdown(rapier_tls_t *tls);

/* Sends close_notify if it can without waiting, then frees the session. */
void rapier_tls_free(rapier_tls_t *tls);

/* Frees what the sessions share, before the module is unloaded. */
void rapier_tls_mshutdown(void);

#endif
