/*
 * Coroutine-aware stream transports: tcp, udp, unix, udg, ssl/tls.
 * Our own php_stream_ops (see socket.h for the descriptor layer).
 */
#ifndef RAPIER_TRANSPORT_H
#define RAPIER_TRANSPORT_H

#include "php.h"

/* Saves PHP's own transport factories. */
void rapier_transport_minit(void);
void rapier_transport_mshutdown(void);

/* Registers our factories for the transports named by flags (RAPIER_HOOK_*). */
void rapier_transport_install(zend_long flags);
/* Restores PHP's factories; streams already open keep working (blocking). */
void rapier_transport_uninstall(void);

/*
 * Makes a Unix socket stream PHP opened from a descriptor (the ends of
 * stream_socket_pair(), proc_open()'s "socket" descriptors) one of ours
 * while unix:// or udg:// is; leaves any other stream alone.
 */
void rapier_transport_adopt(php_stream *stream);

/*
 * Throws and returns true when a coroutine waits on stream, one of our
 * sockets: closing it would free it under that coroutine (fclose(), and
 * proc_close() for the sockets of proc_open()).
 */
bool rapier_transport_close_refused(php_stream *stream);

#endif
