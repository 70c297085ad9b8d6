/*
 * Coroutine-aware stream transports: tcp, udp, unix, udg, and ssl/tls.
 *
 * These are complete php_stream_ops of our own, in the shape of
 * main/streams/xp_socket.c, and not wrappers of PHP's: ext/openssl owns the
 * stock tcp factory (so a stream can switch to TLS later) and xp_socket.c
 * tells unix from tcp by comparing ops pointers, so wrapping either breaks
 * one of them (ENGINE-NOTES trap 1). TLS is ours too (tls.c).
 *
 * The descriptor is always O_NONBLOCK. A stream PHP considers blocking
 * waits in rapier_socket_wait(): inside a coroutine it suspends, anywhere
 * else it blocks in poll(), with the stream's timeout, the same return
 * values and the same warnings as xp_socket.c (false plus E_WARNING,
 * timed_out in the metadata). So streams created while hooked keep working
 * after the hook is removed (hook.h) or the scheduler has ended.
 *
 * Persistent streams (PDO::ATTR_PERSISTENT, phpredis pconnect) never
 * suspend: PDO and phpredis look a persistent connection up, connect, then
 * register it, and are not re-entrant; a connect that suspended in between
 * would let a second coroutine run the same path over the same entry and
 * crash in mysqlnd (ENGINE-NOTES trap 3). Blocking I/O serialises them.
 *
 * Host names resolve on a thread of their own inside a coroutine
 * (resolve.h), with php_network_getaddresses() elsewhere; stream_select()
 * on these streams waits in the loop too (select.h).
 */
#include "php_rapier.h"
#include "php_network.h"
#include "ext/standard/file.h"
#include "zend_exceptions.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/un.h>

#include "coroutine.h"
#include "hook.h"
#include "list.h"
#include "pipe.h"
#include "resolve.h"
#include "socket.h"
#include "tls.h"
#include "transport.h"

typedef enum { XPORT_TCP, XPORT_UDP, XPORT_UNIX, XPORT_UDG } xport_kind_t;

typedef struct xsock_s {
	php_netstream_data_t net;      /* first: phpredis and others reach ->socket through it */
	xport_kind_t kind;
	zend_long hook_flag;           /* RAPIER_HOOK_* that lets this stream suspend */
	bool persistent;
	bool enable_on_connect;        /* ssl:// and tls://: handshake right after connect or accept */
	int crypto_method;             /* STREAM_CRYPTO_METHOD_* for enable_on_connect */
	struct timeval connect_timeout; /* also bounds a client handshake, as ext/openssl does */
	char *url_host;                /* the host connected to: the default TLS peer name */
	rapier_tls_t *tls;
	bool tls_client;               /* tls was set up for the client side */
	uint32_t busy;                 /* operations in progress that may suspend (see pin()) */
	php_stream *pinned_stream;     /* while busy: the stream, listed in pinned_list */
	rapier_list_node_t pinned_link;
} xsock_t;

/* Busy sockets, so that a bailout that abandons their coroutines can unpin them. */
static rapier_list_t pinned_list;

static const php_stream_ops tcp_ops, udp_ops, unix_ops, udg_ops;

/* Waiting */

static bool may_yield(const xsock_t *sock)
{
	return !sock->persistent && rapier_hook_enabled(sock->hook_flag) && rapier_coro_can_yield();
}

static void throw_busy(int fd, uint32_t events)
{
	bool reading = (events & RAPIER_IO_READ) != 0;

	zend_throw_exception_ex(rapier_ce_exception, 0,
		"Cannot %s socket fd %d: coroutine #" ZEND_LONG_FMT " is already %s it; "
		"use one connection per coroutine or a pool",
		reading ? "read from" : "write to", fd, rapier_socket_waiter_id(fd, events),
		reading ? "reading from" : "writing to");
}

/*
 * Turns the wait failures that are not I/O results into PHP errors: a
 * second coroutine on the socket, or a cancellation. Returns true if it threw.
 */
static bool throw_wait_failure(int err, int fd, uint32_t events)
{
	if (err == -EBUSY) {
		throw_busy(fd, events);
		return true;
	}
	if (err == -ECANCELED) {
		if (!EG(exception)) {
			zend_throw_exception_ex(rapier_ce_canceled_exception, 0,
				"Coroutine was canceled while waiting for socket fd %d", fd);
		}
		return true;
	}
	return false;
}

/*
 * While an operation may suspend, the stream must outlive it: if another
 * coroutine fclose()d it, PHP would free the php_stream and our callers in
 * main/streams (fgets' line loop, mysqlnd, phpredis) would use it after we
 * return. in_free is PHP's own re-entrancy guard in _php_stream_free():
 * while it is raised a free is ignored. fclose() of a busy socket is
 * refused with a Rapier\Exception before it gets there (hooked_fclose); a
 * close from C code (mysqlnd, phpredis) while busy is deferred until the
 * resource itself is released, at the latest at the end of the request.
 */
static bool pin(php_stream *stream, xsock_t *sock)
{
	if (!may_yield(sock)) {
		return false;
	}
	stream->in_free++;
	if (sock->busy++ == 0) {
		sock->pinned_stream = stream;
		rapier_list_push(&pinned_list, &sock->pinned_link);
	}
	return true;
}

static void unlist(xsock_t *sock)
{
	rapier_list_remove(&pinned_list, &sock->pinned_link);
	sock->pinned_stream = NULL;
}

static void unpin(php_stream *stream, xsock_t *sock, bool pinned)
{
	if (pinned) {
		stream->in_free--;
		if (--sock->busy == 0) {
			unlist(sock);
		}
	}
}

/* After a bailout the pinning operations will never return: release their streams. */
static void unpin_abandoned(void)
{
	while (!rapier_list_is_empty(&pinned_list)) {
		xsock_t *sock = RAPIER_LIST_ENTRY(pinned_list.head, xsock_t, pinned_link);

		sock->pinned_stream->in_free -= sock->busy;
		sock->busy = 0;
		unlist(sock);
	}
}

/*
 * Takes one direction of the socket for the current coroutine for a whole
 * read or write, so no other coroutine can take or interleave its bytes
 * (socket.h). Returns 1 (release it after), 0 (nothing to release) or -1
 * with a Rapier\Exception thrown.
 */
static int acquire(xsock_t *sock, bool pinned, uint32_t events)
{
	int got = pinned ? rapier_socket_acquire(sock->net.socket, events) : 0;

	if (got == -EBUSY) {
		throw_busy(sock->net.socket, events);
	} else if (got < 0) {
		zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot wait for socket fd %d: %s",
			sock->net.socket, strerror(-got));
	}
	return got < 0 ? -1 : got;
}

static void release(xsock_t *sock, int acquired, uint32_t events)
{
	if (acquired == 1) {
		rapier_socket_release(sock->net.socket, events);
	}
}

static rapier_tls_wait_t tls_wait_for(xsock_t *sock, int64_t timeout_ns)
{
	rapier_tls_wait_t how = {
		.fd = sock->net.socket,
		.timeout_ns = timeout_ns,
		.may_yield = may_yield(sock),
		.blocking = sock->net.is_blocked,
	};
	return how;
}

/* Stream operations */

static void send_failed(php_stream *stream, size_t count, int err)
{
	if (!(stream->flags & PHP_STREAM_FLAG_SUPPRESS_ERRORS)) {
		char *estr = php_socket_strerror(err, NULL, 0);
		php_error_docref(NULL, E_NOTICE, "Send of " ZEND_LONG_FMT " bytes failed with errno=%d %s",
			(zend_long) count, err, estr);
		efree(estr);
	}
}

static ssize_t plain_write(php_stream *stream, xsock_t *sock, const char *buf, size_t count)
{
	int64_t timeout_ns = sock->net.is_blocked ? rapier_socket_timeval_ns(&sock->net.timeout) : 0;
	ssize_t n = rapier_socket_send(sock->net.socket, buf, count, timeout_ns, may_yield(sock));

	if (n >= 0) {
		return n;
	}
	if (n == -EAGAIN && !sock->net.is_blocked) {
		/* Not an error for a non-blocking stream: nothing was written. */
		return 0;
	}
	if (throw_wait_failure((int) n, sock->net.socket, RAPIER_IO_WRITE)) {
		return -1;
	}
	if (n == -ETIMEDOUT || n == -EAGAIN) {
		sock->net.timeout_event = 1;
		n = -EAGAIN;
	}
	send_failed(stream, count, (int) -n);
	return -1;
}

static ssize_t tls_write(xsock_t *sock, const char *buf, size_t count)
{
	rapier_tls_wait_t how = tls_wait_for(sock, rapier_socket_timeval_ns(&sock->net.timeout));
	ssize_t n = rapier_tls_write(sock->tls, buf, count, &how);

	if (n >= 0) {
		return n;
	}
	if (throw_wait_failure((int) n, how.fd, RAPIER_IO_WRITE)) {
		return -1;
	}
	/* As PHP's TLS streams: a timeout is a failure (false), without the
	 * notice plain sockets give; a TLS error is reported and counts as
	 * nothing written (0), like a non-blocking stream that cannot write. */
	if (n == -ETIMEDOUT) {
		sock->net.timeout_event = 1;
		return -1;
	}
	return 0;
}

static ssize_t op_write(php_stream *stream, const char *buf, size_t count)
{
	xsock_t *sock = stream->abstract;
	ssize_t n;
	bool pinned;
	int acquired;

	if (!sock || sock->net.socket == -1) {
		return 0;
	}
	pinned = pin(stream, sock);
	if ((acquired = acquire(sock, pinned, RAPIER_IO_WRITE)) < 0) {
		n = -1;
	} else if (rapier_tls_is_active(sock->tls)) {
		n = tls_write(sock, buf, count);
	} else {
		n = plain_write(stream, sock, buf, count);
	}
	release(sock, acquired, RAPIER_IO_WRITE);
	unpin(stream, sock, pinned);
	if (n > 0) {
		php_stream_notify_progress_increment(PHP_STREAM_CONTEXT(stream), n, 0);
	}
	return n;
}

static ssize_t plain_read(php_stream *stream, xsock_t *sock, char *buf, size_t count)
{
	int64_t timeout_ns = sock->net.is_blocked ? rapier_socket_timeval_ns(&sock->net.timeout) : 0;
	ssize_t n = rapier_socket_recv(sock->net.socket, buf, count, timeout_ns, may_yield(sock));

	if (n > 0) {
		return n;
	}
	if (n == 0) {
		stream->eof = 1;
		return 0;
	}
	if (throw_wait_failure((int) n, sock->net.socket, RAPIER_IO_READ)) {
		return -1;
	}
	if (n == -ETIMEDOUT || n == -EAGAIN) {
		/* No data is not an error for a non-blocking stream; a blocking one's
		 * timeout is, so fread() gives false as PHP's own sockets do. */
		if (!sock->net.is_blocked) {
			return 0;
		}
		sock->net.timeout_event = 1;
		return -1;
	}
	stream->eof = 1;
	return -1;
}

static ssize_t tls_read(php_stream *stream, xsock_t *sock, char *buf, size_t count)
{
	rapier_tls_wait_t how = tls_wait_for(sock, rapier_socket_timeval_ns(&sock->net.timeout));
	ssize_t n = rapier_tls_read(sock->tls, buf, count, &how);

	if (n > 0) {
		return n;
	}
	if (n < 0 && throw_wait_failure((int) n, how.fd, RAPIER_IO_READ)) {
		return -1;
	}
	if (n == -EAGAIN) {
		return 0;
	}
	if (n == -ETIMEDOUT) {
		sock->net.timeout_event = 1;
		return -1;
	}
	/* The peer's close or a TLS error: end of stream, nothing read (PHP's own give 0 for both). */
	stream->eof = 1;
	return 0;
}

static ssize_t op_read(php_stream *stream, char *buf, size_t count)
{
	xsock_t *sock = stream->abstract;
	ssize_t n;
	bool pinned;
	int acquired;

	if (!sock || sock->net.socket == -1) {
		return -1;
	}
	/* PHP clears timed_out when a plain blocking read starts waiting; a
	 * non-blocking read, and any TLS read, leave it as it was. */
	if (sock->net.is_blocked && !rapier_tls_is_active(sock->tls)) {
		sock->net.timeout_event = 0;
	}
	pinned = pin(stream, sock);
	if ((acquired = acquire(sock, pinned, RAPIER_IO_READ)) < 0) {
		n = -1;
	} else if (rapier_tls_is_active(sock->tls)) {
		n = tls_read(stream, sock, buf, count);
	} else {
		n = plain_read(stream, sock, buf, count);
	}
	release(sock, acquired, RAPIER_IO_READ);
	unpin(stream, sock, pinned);
	if (n > 0) {
		php_stream_notify_progress_increment(PHP_STREAM_CONTEXT(stream), n, 0);
	}
	return n;
}

static int op_close(php_stream *stream, int close_handle)
{
	xsock_t *sock = stream->abstract;
	bool persistent = php_stream_is_persistent(stream);

	if (!sock) {
		return 0;
	}
	rapier_tls_free(sock->tls);
	sock->tls = NULL;
	if (close_handle && sock->net.socket != -1) {
		rapier_socket_close(sock->net.socket);
		sock->net.socket = -1;
	}
	if (sock->url_host) {
		pefree(sock->url_host, persistent);
	}
	pefree(sock, persistent);
	return 0;
}

static int op_flush(php_stream *stream)
{
	return 0;
}

static int op_stat(php_stream *stream, php_stream_statbuf *ssb)
{
	xsock_t *sock = stream->abstract;

	return zend_fstat(sock->net.socket, &ssb->sb);
}

static int op_cast(php_stream *stream, int castas, void **ret)
{
	xsock_t *sock = stream->abstract;

	if (!sock) {
		return FAILURE;
	}
	switch (castas) {
		case PHP_STREAM_AS_STDIO:
			if (ret) {
				*(FILE **) ret = fdopen(sock->net.socket, stream->mode);
				return *ret ? SUCCESS : FAILURE;
			}
			return SUCCESS;
		case PHP_STREAM_AS_FD_FOR_SELECT:
			/*
			 * select() cannot see what OpenSSL has already decrypted: move up
			 * to a chunk of it into the stream buffer, where PHP looks first.
			 */
			if (ret && stream->writepos == stream->readpos && rapier_tls_pending(sock->tls) > 0) {
				size_t pending = (size_t) rapier_tls_pending(sock->tls);
				php_stream_fill_read_buffer(stream, pending < stream->chunk_size ? pending : stream->chunk_size);
			}
			ZEND_FALLTHROUGH;
		case PHP_STREAM_AS_FD:
		case PHP_STREAM_AS_SOCKETD:
			if (ret) {
				*(php_socket_t *) ret = sock->net.socket;
			}
			return SUCCESS;
		default:
			return FAILURE;
	}
}

/* Options */

static int check_liveness(xsock_t *sock, int value)
{
	struct timeval tv = { value, 0 };

	if (sock->net.socket == -1) {
		return PHP_STREAM_OPTION_RETURN_ERR;
	}
	/* Decrypted bytes waiting in OpenSSL are still to be read, whatever the socket says. */
	if (rapier_tls_pending(sock->tls) > 0) {
		return PHP_STREAM_OPTION_RETURN_OK;
	}
	if (value == -1) {
		tv = sock->net.timeout.tv_sec == -1 ? (struct timeval) { FG(default_socket_timeout), 0 } : sock->net.timeout;
	}
	return rapier_socket_alive(sock->net.socket, rapier_socket_timeval_ns(&tv), may_yield(sock))
		? PHP_STREAM_OPTION_RETURN_OK : PHP_STREAM_OPTION_RETURN_ERR;
}

static int crypto_option(php_stream *stream, xsock_t *sock, php_stream_xport_crypto_param *cparam);
static int xport_option(php_stream *stream, xsock_t *sock, php_stream_xport_param *xparam);

static int op_set_option(php_stream *stream, int option, int value, void *ptrparam)
{
	xsock_t *sock = stream->abstract;
	bool pinned;
	int old, ret;

	if (!sock) {
		return PHP_STREAM_OPTION_RETURN_NOTIMPL;
	}
	switch (option) {
		case PHP_STREAM_OPTION_CHECK_LIVENESS:
			pinned = pin(stream, sock);
			ret = check_liveness(sock, value);
			unpin(stream, sock, pinned);
			return ret;
		case PHP_STREAM_OPTION_BLOCKING:
			/* The descriptor stays non-blocking: "blocking" only decides whether we wait. */
			old = sock->net.is_blocked;
			sock->net.is_blocked = value;
			return old;
		case PHP_STREAM_OPTION_READ_TIMEOUT:
			sock->net.timeout = *(struct timeval *) ptrparam;
			sock->net.timeout_event = 0;
			return PHP_STREAM_OPTION_RETURN_OK;
		case PHP_STREAM_OPTION_META_DATA_API:
			add_assoc_bool((zval *) ptrparam, "timed_out", sock->net.timeout_event);
			add_assoc_bool((zval *) ptrparam, "blocked", sock->net.is_blocked);
			add_assoc_bool((zval *) ptrparam, "eof", stream->eof);
			if (sock->tls) {
				rapier_tls_meta_data(sock->tls, (zval *) ptrparam);
			}
			return PHP_STREAM_OPTION_RETURN_OK;
		case PHP_STREAM_OPTION_XPORT_API:
		case PHP_STREAM_OPTION_CRYPTO_API:
			pinned = pin(stream, sock);
			ret = option == PHP_STREAM_OPTION_XPORT_API
				? xport_option(stream, sock, ptrparam) : crypto_option(stream, sock, ptrparam);
			unpin(stream, sock, pinned);
			return ret;
		default:
			return PHP_STREAM_OPTION_RETURN_NOTIMPL;
	}
}

static zval *socket_option(php_stream *stream, const char *name)
{
	return PHP_STREAM_CONTEXT(stream) ? php_stream_context_get_option(PHP_STREAM_CONTEXT(stream), "socket", name) : NULL;
}

static void set_error(php_stream_xport_param *xparam, int err)
{
	xparam->outputs.error_code = err;
	if (xparam->want_errortext && xparam->outputs.error_text == NULL) {
		xparam->outputs.error_text = php_socket_error_str(err);
	}
}

/* TLS on a stream */

static bool tls_setup(php_stream *stream, xsock_t *sock, int method)
{
	sock->tls = rapier_tls_new(PHP_STREAM_CONTEXT(stream), sock->net.socket, method, sock->url_host, sock->persistent);
	sock->tls_client = (method & 1) != 0;
	return sock->tls != NULL;
}

/* Returns 1 when done, 0 when a non-blocking stream must call again, -1 on failure. */
static int tls_handshake(xsock_t *sock)
{
	int64_t timeout_ns = rapier_socket_timeval_ns(sock->tls_client ? &sock->connect_timeout : &sock->net.timeout);
	rapier_tls_wait_t how = tls_wait_for(sock, timeout_ns);
	int ret = rapier_tls_handshake(sock->tls, &how);

	if (ret < 0) {
		throw_wait_failure(ret, how.fd, RAPIER_IO_READ);
		return -1;
	}
	return ret;
}

static int crypto_option(php_stream *stream, xsock_t *sock, php_stream_xport_crypto_param *cparam)
{
	if (cparam->op == STREAM_XPORT_CRYPTO_OP_SETUP) {
		if (sock->tls) {
			/* A non-blocking caller repeats stream_socket_enable_crypto() until it is done. */
			if (sock->net.is_blocked) {
				php_error_docref(NULL, E_WARNING, "SSL/TLS already set-up for this stream");
			}
			cparam->outputs.returncode = sock->net.is_blocked ? -1 : 0;
		} else {
			cparam->outputs.returncode = tls_setup(stream, sock, cparam->inputs.method) ? 0 : -1;
		}
		return PHP_STREAM_OPTION_RETURN_OK;
	}
	cparam->outputs.returncode = -1;
	if (sock->tls && cparam->inputs.activate && !rapier_tls_is_active(sock->tls)) {
		cparam->outputs.returncode = tls_handshake(sock);
	} else if (sock->tls && !cparam->inputs.activate) {
		/* Back to plain text; like ext/openssl this reports -1 (false) all the same. */
		rapier_tls_shutdown(sock->tls);
	}
	return PHP_STREAM_OPTION_RETURN_OK;
}

/* Connect */

static int connect_inet(php_stream *stream, xsock_t *sock, php_stream_xport_param *xparam)
{
	zend_string **errp = xparam->want_errortext ? &xparam->outputs.error_text : NULL;
	rapier_connect_opts_t opts = {
		.type = sock->kind == XPORT_UDP ? SOCK_DGRAM : SOCK_STREAM,
		.timeout_ns = rapier_socket_timeval_ns(xparam->inputs.timeout),
		.async = xparam->op == STREAM_XPORT_OP_CONNECT_ASYNC,
		.may_yield = may_yield(sock),
	};
	char *host, *bindto = NULL;
	int port, fd;
	zval *opt;

	host = rapier_socket_parse_address(xparam->inputs.name, xparam->inputs.namelen, &port, errp);
	if (host == NULL) {
		return -1;
	}
	if ((opt = socket_option(stream, "bindto")) != NULL) {
		if (Z_TYPE_P(opt) != IS_STRING) {
			if (errp) {
				*errp = strpprintf(0, "local_addr context option is not a string.");
			}
			efree(host);
			return -1;
		}
		opts.bindto = bindto = rapier_socket_parse_address(Z_STRVAL_P(opt), Z_STRLEN_P(opt), &opts.bindport, errp);
	}
	if (sock->kind == XPORT_TCP && (opt = socket_option(stream, "tcp_nodelay")) && zend_is_true(opt)) {
		opts.sockopts |= STREAM_SOCKOP_TCP_NODELAY;
	}
	if (sock->kind == XPORT_UDP && (opt = socket_option(stream, "so_broadcast")) && zend_is_true(opt)) {
		opts.sockopts |= STREAM_SOCKOP_SO_BROADCAST;
	}
	fd = rapier_socket_connect_host(host, port, &opts, errp);
	if (fd >= 0) {
		sock->net.socket = fd;
		sock->url_host = pestrdup(host, sock->persistent);
	} else if (fd == -ECANCELED) {
		/* Canceled while looking the name up or waiting for the handshake: no socket to name. */
		if (!EG(exception)) {
			zend_throw_exception_ex(rapier_ce_canceled_exception, 0,
				"Coroutine was canceled while connecting to %s", host);
		}
		/* stream_socket_client() warns on any failure: say why rather than "Unknown error". */
		if (errp && !*errp) {
			*errp = strpprintf(0, "canceled while connecting to %s", host);
		}
	} else if (fd != RAPIER_SOCKET_ERESOLVE && !throw_wait_failure(fd, -1, RAPIER_IO_WRITE)) {
		set_error(xparam, -fd);
	}
	efree(host);
	if (bindto) {
		efree(bindto);
	}
	return fd >= 0 ? 0 : -1;
}

static int connect_unix(php_stream *stream, xsock_t *sock, php_stream_xport_param *xparam)
{
	rapier_connect_opts_t opts = {
		.type = sock->kind == XPORT_UNIX ? SOCK_STREAM : SOCK_DGRAM,
		.timeout_ns = rapier_socket_timeval_ns(xparam->inputs.timeout),
		.async = xparam->op == STREAM_XPORT_OP_CONNECT_ASYNC,
		.may_yield = may_yield(sock),
	};
	int fd = rapier_socket_connect_unix(xparam->inputs.name, xparam->inputs.namelen, &opts);

	if (fd < 0) {
		if (!throw_wait_failure(fd, -1, RAPIER_IO_WRITE)) {
			set_error(xparam, -fd);
		}
		return -1;
	}
	sock->net.socket = fd;
	return 0;
}

static int do_connect(php_stream *stream, xsock_t *sock, php_stream_xport_param *xparam)
{
	bool is_unix = sock->kind == XPORT_UNIX || sock->kind == XPORT_UDG;
	int ret = is_unix ? connect_unix(stream, sock, xparam) : connect_inet(stream, sock, xparam);

	if (ret == 0 && sock->enable_on_connect && xparam->op == STREAM_XPORT_OP_CONNECT) {
		if (!tls_setup(stream, sock, sock->crypto_method) || tls_handshake(sock) != 1) {
			if (!EG(exception)) {
				php_error_docref(NULL, E_WARNING, "Failed to enable crypto");
			}
			ret = -1;
		}
	}
	if (ret == 0 && xparam->op == STREAM_XPORT_OP_CONNECT_ASYNC) {
		/* Still in progress for all we know: tell the caller to wait for writability. */
		xparam->outputs.error_code = EINPROGRESS;
		return 1;
	}
	return ret;
}

/* Server side */

static int do_bind(php_stream *stream, xsock_t *sock, php_stream_xport_param *xparam)
{
	zend_string **errp = xparam->want_errortext ? &xparam->outputs.error_text : NULL;
	long sockopts = STREAM_SOCKOP_NONE;
	int port, err = 0;
	char *host;
	zval *opt;

	if (sock->kind == XPORT_UNIX || sock->kind == XPORT_UDG) {
		struct sockaddr_un addr;
		int fd = rapier_socket_create(AF_UNIX, sock->kind == XPORT_UNIX ? SOCK_STREAM : SOCK_DGRAM, 0);
		if (fd < 0) {
			if (errp) {
				*errp = strpprintf(0, "Failed to create unix%s socket %s",
					sock->kind == XPORT_UNIX ? "" : "datagram", strerror(-fd));
			}
			return -1;
		}
		sock->net.socket = fd;
		socklen_t len = rapier_socket_unix_address(xparam->inputs.name, xparam->inputs.namelen, &addr);
		return bind(fd, (struct sockaddr *) &addr, len) == 0 ? 0 : -1;
	}
	host = rapier_socket_parse_address(xparam->inputs.name, xparam->inputs.namelen, &port, errp);
	if (host == NULL) {
		return -1;
	}
	if ((opt = socket_option(stream, "ipv6_v6only")) && Z_TYPE_P(opt) != IS_NULL) {
		sockopts |= STREAM_SOCKOP_IPV6_V6ONLY | (zend_is_true(opt) ? STREAM_SOCKOP_IPV6_V6ONLY_ENABLED : 0);
	}
	if ((opt = socket_option(stream, "so_reuseport")) && zend_is_true(opt)) {
		sockopts |= STREAM_SOCKOP_SO_REUSEPORT;
	}
	if (sock->kind == XPORT_UDP && (opt = socket_option(stream, "so_broadcast")) && zend_is_true(opt)) {
		sockopts |= STREAM_SOCKOP_SO_BROADCAST;
	}
	sock->net.socket = php_network_bind_socket_to_local_addr(host, port,
		sock->kind == XPORT_UDP ? SOCK_DGRAM : SOCK_STREAM, sockopts, errp, &err);
	efree(host);
	if (sock->net.socket == -1) {
		return -1;
	}
	fcntl(sock->net.socket, F_SETFL, fcntl(sock->net.socket, F_GETFL) | O_NONBLOCK);
	return 0;
}

static int do_accept(php_stream *stream, xsock_t *sock, php_stream_xport_param *xparam STREAMS_DC)
{
	php_sockaddr_storage sa;
	socklen_t sl = sizeof(sa);
	int listener = sock->net.socket;
	int fd = rapier_socket_accept(listener, (struct sockaddr *) &sa, &sl, 0,
		rapier_socket_timeval_ns(xparam->inputs.timeout), may_yield(sock));
	xsock_t *client;
	zval *opt;

	xparam->outputs.client = NULL;
	if (fd < 0) {
		/*
		 * PHP warns "Accept failed: <text>" after any failure, also one that
		 * throws (a cancel): the text says what happened, not "Unknown error".
		 * No client within a zero timeout: PHP reports that as a timeout too.
		 */
		throw_wait_failure(fd, listener, RAPIER_IO_READ);
		set_error(xparam, fd == -EAGAIN ? ETIMEDOUT : -fd);
		return -1;
	}
	if (xparam->want_textaddr || xparam->want_addr) {
		php_network_populate_name_from_sockaddr((struct sockaddr *) &sa, sl,
			xparam->want_textaddr ? &xparam->outputs.textaddr : NULL,
			xparam->want_addr ? &xparam->outputs.addr : NULL, &xparam->outputs.addrlen);
	}
	if ((opt = socket_option(stream, "tcp_nodelay")) && zend_is_true(opt)) {
		int on = 1;
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
	}
	client = emalloc(sizeof(*client));
	*client = *sock;
	client->net.socket = fd;
	client->net.timeout_event = 0;
	client->persistent = false;
	client->url_host = NULL;
	client->tls = NULL;
	client->busy = 0;
	client->pinned_stream = NULL;
	client->pinned_link = (rapier_list_node_t) { NULL, NULL };
	xparam->outputs.client = php_stream_alloc_rel(stream->ops, client, NULL, "r+");
	xparam->outputs.client->ctx = stream->ctx;
	if (stream->ctx) {
		GC_ADDREF(stream->ctx);
	}
	if (sock->enable_on_connect) {
		/* The listener's method is a client one (ssl://): clear the client bit. */
		if (!tls_setup(xparam->outputs.client, client, sock->crypto_method & ~1) || tls_handshake(client) != 1) {
			if (!EG(exception)) {
				php_error_docref(NULL, E_WARNING, "Failed to enable crypto");
			}
			php_stream_close(xparam->outputs.client);
			xparam->outputs.client = NULL;
			return -1;
		}
	}
	return 0;
}

/* Datagrams and the rest of the transport API */

/* stream_socket_recvfrom() and sendto(): like xp_socket.c, a blocking stream waits without a timeout. */
static int xport_recv(xsock_t *sock, php_stream_xport_param *xparam)
{
	int flags = ((xparam->inputs.flags & STREAM_OOB) ? MSG_OOB : 0) | ((xparam->inputs.flags & STREAM_PEEK) ? MSG_PEEK : 0);
	bool want_name = xparam->want_textaddr || xparam->want_addr;
	php_sockaddr_storage sa;
	socklen_t sl = sizeof(sa);
	ssize_t n = rapier_socket_recvfrom(sock->net.socket, xparam->inputs.buf, xparam->inputs.buflen, flags,
		want_name ? (struct sockaddr *) &sa : NULL, want_name ? &sl : NULL, sock->net.is_blocked ? -1 : 0, may_yield(sock));

	if (n < 0) {
		throw_wait_failure((int) n, sock->net.socket, RAPIER_IO_READ);
		return -1;
	}
	if (want_name && sl) {
		php_network_populate_name_from_sockaddr((struct sockaddr *) &sa, sl,
			xparam->want_textaddr ? &xparam->outputs.textaddr : NULL,
			xparam->want_addr ? &xparam->outputs.addr : NULL, &xparam->outputs.addrlen);
	} else if (xparam->want_textaddr) {
		xparam->outputs.textaddr = ZSTR_EMPTY_ALLOC();
	}
	return (int) n;
}

static int xport_send(xsock_t *sock, php_stream_xport_param *xparam)
{
	ssize_t n = rapier_socket_sendto(sock->net.socket, xparam->inputs.buf, xparam->inputs.buflen,
		(xparam->inputs.flags & STREAM_OOB) ? MSG_OOB : 0, xparam->inputs.addr, xparam->inputs.addrlen,
		sock->net.is_blocked ? -1 : 0, may_yield(sock));

	if (n < 0 && !throw_wait_failure((int) n, sock->net.socket, RAPIER_IO_WRITE)) {
		char *estr = php_socket_strerror((long) -n, NULL, 0);
		php_error_docref(NULL, E_WARNING, "%s\n", estr);
		efree(estr);
	}
	return n < 0 ? -1 : (int) n;
}

static int xport_option(php_stream *stream, xsock_t *sock, php_stream_xport_param *xparam)
{
	static const int shutdown_how[] = { SHUT_RD, SHUT_WR, SHUT_RDWR };
	int *rc = &xparam->outputs.returncode;

	switch (xparam->op) {
		case STREAM_XPORT_OP_CONNECT:
		case STREAM_XPORT_OP_CONNECT_ASYNC:
			*rc = do_connect(stream, sock, xparam);
			break;
		case STREAM_XPORT_OP_BIND:
			*rc = do_bind(stream, sock, xparam);
			break;
		case STREAM_XPORT_OP_LISTEN:
			*rc = listen(sock->net.socket, xparam->inputs.backlog) == 0 ? 0 : -1;
			break;
		case STREAM_XPORT_OP_ACCEPT:
			*rc = do_accept(stream, sock, xparam STREAMS_CC);
			break;
		case STREAM_XPORT_OP_GET_NAME:
		case STREAM_XPORT_OP_GET_PEER_NAME:
			*rc = (xparam->op == STREAM_XPORT_OP_GET_NAME ? php_network_get_sock_name : php_network_get_peer_name)(
				sock->net.socket,
				xparam->want_textaddr ? &xparam->outputs.textaddr : NULL,
				xparam->want_addr ? &xparam->outputs.addr : NULL,
				xparam->want_addr ? &xparam->outputs.addrlen : NULL);
			break;
		case STREAM_XPORT_OP_RECV:
		case STREAM_XPORT_OP_SEND: {
			/* op_set_option() pinned the stream on the same condition. */
			uint32_t events = xparam->op == STREAM_XPORT_OP_RECV ? RAPIER_IO_READ : RAPIER_IO_WRITE;
			int acquired = acquire(sock, may_yield(sock), events);
			if (acquired < 0) {
				*rc = -1;
			} else {
				*rc = events == RAPIER_IO_READ ? xport_recv(sock, xparam) : xport_send(sock, xparam);
			}
			release(sock, acquired, events);
			break;
		}
		case STREAM_XPORT_OP_SHUTDOWN:
			*rc = shutdown(sock->net.socket, shutdown_how[xparam->how]);
			break;
		default:
			return PHP_STREAM_OPTION_RETURN_NOTIMPL;
	}
	return PHP_STREAM_OPTION_RETURN_OK;
}

/*
 * The labels stream_get_meta_data() reports as stream_type: PHP's, with
 * "/rapier" in place of "/ssl", so a script can tell a hooked stream.
 */
static const php_stream_ops tcp_ops = {
	op_write, op_read, op_close, op_flush, "tcp_socket/rapier", NULL, op_cast, op_stat, op_set_option,
};
static const php_stream_ops udp_ops = {
	op_write, op_read, op_close, op_flush, "udp_socket/rapier", NULL, op_cast, op_stat, op_set_option,
};
static const php_stream_ops unix_ops = {
	op_write, op_read, op_close, op_flush, "unix_socket/rapier", NULL, op_cast, op_stat, op_set_option,
};
static const php_stream_ops udg_ops = {
	op_write, op_read, op_close, op_flush, "udg_socket/rapier", NULL, op_cast, op_stat, op_set_option,
};

/* Factories */

typedef struct {
	const char *name;
	zend_long flag;
	php_stream_transport_factory saved;   /* PHP's own, restored on uninstall */
	bool installed;
} xport_entry_t;

/* What we stand in for: the first four in xport_kind_t order, then the TLS schemes. */
static xport_entry_t xports[] = {
	{ "tcp", RAPIER_HOOK_TCP }, { "udp", RAPIER_HOOK_UDP }, { "unix", RAPIER_HOOK_UNIX }, { "udg", RAPIER_HOOK_UDG },
	{ "ssl", RAPIER_HOOK_SSL }, { "tls", RAPIER_HOOK_SSL }, { "tlsv1.0", RAPIER_HOOK_SSL },
	{ "tlsv1.1", RAPIER_HOOK_SSL }, { "tlsv1.2", RAPIER_HOOK_SSL }, { "tlsv1.3", RAPIER_HOOK_SSL },
};

static const php_stream_ops *const kind_ops[] = { &tcp_ops, &udp_ops, &unix_ops, &udg_ops };

static size_t find_xport(const char *proto, size_t protolen)
{
	for (size_t i = 0; i < sizeof(xports) / sizeof(xports[0]); i++) {
		if (strlen(xports[i].name) == protolen && strncmp(xports[i].name, proto, protolen) == 0) {
			return i;
		}
	}
	return 0;
}

static php_stream *socket_factory(const char *proto, size_t protolen, const char *resourcename,
	size_t resourcenamelen, const char *persistent_id, int options, int flags, struct timeval *timeout,
	php_stream_context *context STREAMS_DC)
{
	bool persistent = persistent_id != NULL;
	size_t i = find_xport(proto, protolen);
	xsock_t *sock;
	php_stream *stream;

	sock = pecalloc(1, sizeof(*sock), persistent);
	sock->net.socket = -1;
	sock->net.is_blocked = 1;
	sock->net.timeout.tv_sec = FG(default_socket_timeout);
	sock->kind = i <= XPORT_UDG ? (xport_kind_t) i : XPORT_TCP;
	sock->hook_flag = xports[i].flag;
	sock->persistent = persistent;
	sock->connect_timeout = timeout ? *timeout : sock->net.timeout;
	if (xports[i].flag == RAPIER_HOOK_SSL) {
		sock->enable_on_connect = true;
		sock->crypto_method = rapier_tls_scheme_method(proto, protolen, context);
	}
	stream = php_stream_alloc_rel(kind_ops[sock->kind], sock, persistent_id, "r+");
	if (stream == NULL) {
		pefree(sock, persistent);
	}
	return stream;
}

/* fclose() guard */

static zif_handler stock_fclose;

static bool is_ours(const php_stream *stream)
{
	return stream->ops == &tcp_ops || stream->ops == &udp_ops || stream->ops == &unix_ops || stream->ops == &udg_ops;
}

/*
 * fclose() of a socket another coroutine is suspended on: refused with a
 * clear error, because PHP would free the stream under that coroutine (see
 * pin()). stream_socket_shutdown() is the way to interrupt a reader.
 */
bool rapier_transport_close_refused(php_stream *stream)
{
	int fd;
	zend_long reader, id;

	if (stream == NULL || !is_ours(stream) || stream->abstract == NULL || !((xsock_t *) stream->abstract)->busy) {
		return false;
	}
	fd = ((xsock_t *) stream->abstract)->net.socket;
	reader = rapier_socket_waiter_id(fd, RAPIER_IO_READ);
	id = reader ? reader : rapier_socket_waiter_id(fd, RAPIER_IO_WRITE);
	zend_throw_exception_ex(rapier_ce_exception, 0,
		"Cannot close socket fd %d: coroutine #" ZEND_LONG_FMT " is %s it; "
		"use stream_socket_shutdown() to interrupt it", fd, id, reader ? "reading from" : "using");
	return true;
}

static ZEND_NAMED_FUNCTION(hooked_fclose)
{
	zval *arg = ZEND_NUM_ARGS() == 1 ? ZEND_CALL_ARG(execute_data, 1) : NULL;
	php_stream *stream = rapier_hook_stream_of(arg);

	if (rapier_transport_close_refused(stream) || rapier_pipe_close_refused(stream)) {
		RETURN_THROWS();
	}
	stock_fclose(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

static void hook_fclose(bool on)
{
	if (on) {
		stock_fclose = rapier_hook_replace_handler(ZEND_STRL("fclose"), hooked_fclose);
	} else {
		rapier_hook_replace_handler(ZEND_STRL("fclose"), stock_fclose);
	}
}

/* Sockets PHP opens from a descriptor */

/*
 * php_stream_sock_open_from_socket() makes the ends of stream_socket_pair()
 * and the parent's ends of proc_open()'s "socket" descriptors, with generic
 * socket ops that block (their table is not exported: its label tells it).
 * While unix:// (udg:// for datagrams) is ours, such a stream of a Unix
 * socket becomes one of ours in place: our ops, a non-blocking descriptor,
 * and PHP's settings for it (blocking, default_socket_timeout) kept.
 */
void rapier_transport_adopt(php_stream *stream)
{
	php_netstream_data_t *net;
	xsock_t *sock;
	xport_kind_t kind;
	int domain, type, flags;
	socklen_t len = sizeof(domain);

	if (stream == NULL || strcmp(stream->ops->label, "generic_socket") != 0 || php_stream_is_persistent(stream)) {
		return;
	}
	net = stream->abstract;
	if (getsockopt(net->socket, SOL_SOCKET, SO_DOMAIN, &domain, &len) != 0 || domain != AF_UNIX) {
		return;
	}
	len = sizeof(type);
	if (getsockopt(net->socket, SOL_SOCKET, SO_TYPE, &type, &len) != 0 || (type != SOCK_STREAM && type != SOCK_DGRAM)) {
		return;
	}
	kind = type == SOCK_DGRAM ? XPORT_UDG : XPORT_UNIX;
	if (!xports[kind].installed || (flags = fcntl(net->socket, F_GETFL)) < 0
			|| fcntl(net->socket, F_SETFL, flags | O_NONBLOCK) < 0) {
		return;
	}
	sock = ecalloc(1, sizeof(*sock));
	sock->net = *net;
	sock->kind = kind;
	sock->hook_flag = xports[kind].flag;
	sock->connect_timeout = net->timeout;
	efree(net);
	stream->abstract = sock;
	stream->ops = kind_ops[kind];
}

static zif_handler stock_stream_socket_pair;

static ZEND_NAMED_FUNCTION(hooked_stream_socket_pair)
{
	zval *end;

	stock_stream_socket_pair(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	if (Z_TYPE_P(return_value) == IS_ARRAY) {
		ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(return_value), end) {
			rapier_transport_adopt(rapier_hook_stream_of(end));
		} ZEND_HASH_FOREACH_END();
	}
}

/* Installing */

void rapier_transport_minit(void)
{
	for (size_t i = 0; i < sizeof(xports) / sizeof(xports[0]); i++) {
		xports[i].saved = zend_hash_str_find_ptr(php_stream_xport_get_hash(), xports[i].name, strlen(xports[i].name));
	}
	/* Our streams only ever exist once installed, and then only a busy one changes fclose(). */
	hook_fclose(true);
	/* PHP's own unless unix:// or udg:// is ours (a run with the hook on). */
	stock_stream_socket_pair = rapier_hook_replace_handler(ZEND_STRL("stream_socket_pair"), hooked_stream_socket_pair);
}

void rapier_transport_mshutdown(void)
{
	rapier_transport_uninstall();
	hook_fclose(false);
	rapier_hook_replace_handler(ZEND_STRL("stream_socket_pair"), stock_stream_socket_pair);
	rapier_socket_mshutdown();
	rapier_resolve_mshutdown();
	rapier_tls_mshutdown();
}

void rapier_transport_install(zend_long flags)
{
	for (size_t i = 0; i < sizeof(xports) / sizeof(xports[0]); i++) {
		xport_entry_t *x = &xports[i];
		/* Only replace what PHP has: no ssl:// without ext/openssl, no unix:// where absent. */
		if ((flags & x->flag) && x->saved && !x->installed) {
			php_stream_xport_register(x->name, socket_factory);
			x->installed = true;
		}
	}
}

void rapier_transport_uninstall(void)
{
	for (size_t i = 0; i < sizeof(xports) / sizeof(xports[0]); i++) {
		xport_entry_t *x = &xports[i];
		if (x->installed) {
			php_stream_xport_register(x->name, x->saved);
			x->installed = false;
		}
	}
	if (!rapier_sched_running()) {
		/* No scheduler: no wait can be live, and a bailout may have left stale ones. */
		unpin_abandoned();
		rapier_socket_reset();
		rapier_resolve_reset();
	}
}
