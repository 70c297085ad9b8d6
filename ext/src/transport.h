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

#endif
