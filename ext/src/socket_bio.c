/*
 * A socket BIO that never blocks nor raises SIGPIPE (socket_bio.h).
 */
#include "socket_bio.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>

static BIO_METHOD *socket_method;

/*
 * The BIO's read and write: OpenSSL's socket BIO with MSG_DONTWAIT (and
 * MSG_NOSIGNAL: a reset peer is an error, not SIGPIPE). Its create, destroy
 * and ctrl are the socket BIO's own, so the descriptor lives where
 * BIO_get_fd() and SSL_get_fd() look for it.
 */
static int socket_bio_read(BIO *bio, char *buf, int len)
{
	int fd = -1;
	ssize_t n;

	BIO_get_fd(bio, &fd);
	BIO_clear_retry_flags(bio);
	errno = 0;   /* BIO_sock_should_retry() reads errno for a 0 too */
	n = recv(fd, buf, (size_t) len, MSG_DONTWAIT);
	if (n <= 0 && BIO_sock_should_retry((int) n)) {
		BIO_set_retry_read(bio);
	} else if (n == 0) {
		BIO_set_flags(bio, BIO_FLAGS_IN_EOF);
	}
	return (int) n;
}

static int socket_bio_write(BIO *bio, const char *buf, int len)
{
	int fd = -1;
	ssize_t n;

	BIO_get_fd(bio, &fd);
	BIO_clear_retry_flags(bio);
	errno = 0;
	n = send(fd, buf, (size_t) len, MSG_DONTWAIT | MSG_NOSIGNAL);
	if (n <= 0 && BIO_sock_should_retry((int) n)) {
		BIO_set_retry_write(bio);
	}
	return (int) n;
}

static int socket_bio_puts(BIO *bio, const char *str)
{
	return socket_bio_write(bio, str, (int) strlen(str));
}

BIO *rapier_socket_bio_new(int fd)
{
	BIO *bio;

	if (socket_method == NULL) {
		const BIO_METHOD *stock = BIO_s_socket();
		BIO_METHOD *method = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK | BIO_TYPE_DESCRIPTOR,
			"rapier socket");

		if (method == NULL || !BIO_meth_set_read(method, socket_bio_read)
				|| !BIO_meth_set_write(method, socket_bio_write) || !BIO_meth_set_puts(method, socket_bio_puts)
				|| !BIO_meth_set_ctrl(method, BIO_meth_get_ctrl(stock))
				|| !BIO_meth_set_create(method, BIO_meth_get_create(stock))
				|| !BIO_meth_set_destroy(method, BIO_meth_get_destroy(stock))) {
			BIO_meth_free(method);
			return NULL;
		}
		socket_method = method;
	}
	if ((bio = BIO_new(socket_method)) != NULL) {
		BIO_set_fd(bio, fd, BIO_NOCLOSE);
	}
	return bio;
}

void rapier_socket_bio_mshutdown(void)
{
	BIO_meth_free(socket_method);
	socket_method = NULL;
}
