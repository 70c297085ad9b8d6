/*
 * A socket BIO for OpenSSL that never blocks nor raises SIGPIPE: recv()
 * and send() with MSG_DONTWAIT and MSG_NOSIGNAL, whatever the descriptor's
 * own mode. The stream transports' TLS (tls.c) and the HTTP server's
 * (http_tls.c) read and write their sockets through it. No PHP here.
 */
#ifndef RAPIER_SOCKET_BIO_H
#define RAPIER_SOCKET_BIO_H

#include <openssl/bio.h>

/* A BIO on fd (left open when the BIO goes), or NULL when OpenSSL is out of memory. */
BIO *rapier_socket_bio_new(int fd);

/* Frees the BIO method, before the module is unloaded. */
void rapier_socket_bio_mshutdown(void);

#endif
