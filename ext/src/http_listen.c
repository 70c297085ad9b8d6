/*
 * A server's listening sockets: opening them (http_server.h) and watching
 * them from the loop (http_server_internal.h). Accepting is the server's.
 */
#include "php_rapier.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include "http_server.h"
#include "http_server_internal.h"

static int listen_on(const char *host, int port, int backlog, bool reuseport)
{
	struct addrinfo hints, *res = NULL, *ai;
	char service[16];
	int fd = -1, err = -EADDRNOTAVAIL, one = 1;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	snprintf(service, sizeof(service), "%d", port);
	if (getaddrinfo(host, service, &hints, &res) != 0) {
		return -EADDRNOTAVAIL;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
		if (fd < 0) {
			err = -errno;
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (reuseport) {
			/* Every worker binds its own listener; the kernel spreads connections. */
			setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one));
		}
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, backlog) == 0) {
			break;
		}
		err = -errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	return fd >= 0 ? fd : err;
}

int rapier_http_listen(const char *host, int port, int backlog)
{
	return listen_on(host, port, backlog, true);
}

int rapier_http_check_port(const char *host, int port)
{
	int fd = listen_on(host, port, 1, false);

	if (fd < 0) {
		return fd;
	}
	close(fd);
	return 0;
}

/*
 * TCP keepalive, set on the listener for the connections it accepts to
 * inherit: a peer that vanished without a FIN or RST (a host gone, a NAT
 * entry dropped) is noticed within twice the idle time, and a handler waiting
 * on it (a request body with no timeout, a long stream) learns of it.
 */
static void set_keepalive(int fd, int idle)
{
	int on = idle > 0, interval = idle / 3 > 0 ? idle / 3 : 1, probes = 3;

	setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof(on));
	if (on) {
		setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
		setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof(interval));
		setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &probes, sizeof(probes));
	}
}

void rapier__http_listener_init(rapier_http_listener_t *listener, rapier_http_server_t *server, int fd, bool plain,
	rapier_io_cb on_accept)
{
	listener->server = server;
	listener->fd = fd;
	listener->listening = false;
	listener->plain = plain;
	listener->shared = false;
	rapier_io_init(&listener->io, fd, on_accept, listener);
	if (fd >= 0) {
		set_keepalive(fd, server->cfg.tcp_keepalive);
	}
}

void rapier__http_listeners_pause(rapier_http_server_t *server, bool pause)
{
	for (int i = 0; i < RAPIER_HTTP_LISTENERS; i++) {
		rapier_http_listener_t *listener = &server->listeners[i];

		if (listener->fd < 0 || listener->listening == !pause || (!pause && !server->started)) {
			continue;
		}
		if (pause) {
			rapier_io_stop(server->loop, &listener->io);
		} else {
			rapier_io_start(server->loop, &listener->io, RAPIER_IO_READ);
		}
		listener->listening = !pause;
	}
}

void rapier__http_listeners_close(rapier_http_server_t *server)
{
	for (int i = 0; i < RAPIER_HTTP_LISTENERS; i++) {
		rapier_http_listener_t *listener = &server->listeners[i];

		if (listener->fd >= 0) {
			close(listener->fd);
			listener->fd = -1;
		}
	}
}
