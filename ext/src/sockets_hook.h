/*
 * ext/sockets inside coroutines: socket_connect(), socket_accept(),
 * socket_read(), socket_write(), socket_recv*() and socket_send*() on a
 * blocking socket, socket_select() and the host name lookups of
 * socket_connect(), socket_sendto() and socket_addrinfo_lookup() suspend
 * only the calling coroutine (RAPIER_HOOK_SOCKETS).
 *
 * ext/sockets calls libc itself, so its imports are rebound (plt.h) in
 * the loaded sockets.so. Outside a coroutine, with the flag off, and on a
 * socket made non-blocking by its owner, each call is the libc call PHP
 * would have made.
 */
#ifndef RAPIER_SOCKETS_HOOK_H
#define RAPIER_SOCKETS_HOOK_H

/* Rebinds sockets.so's imports if it is loaded; again at each run start, for a dl() since. */
void rapier_sockets_hook_install(void);
void rapier_sockets_hook_mshutdown(void);

#endif
