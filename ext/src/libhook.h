/*
 * C libraries that wait for their own sockets, made to yield inside
 * coroutines: libcurl (ext/curl: curl_exec(), curl_multi_select()),
 * libpq (pgsql, pdo_pgsql) and libmemcached (ext/memcached).
 *
 * Such a library keeps its descriptors non-blocking and waits for them in
 * poll(); its poll import is rebound (plt.h) to one that, when the caller
 * may yield and the library's RAPIER_HOOK_* flag is on, suspends only the
 * calling coroutine. Everywhere else the library's own poll() runs as is.
 */
#ifndef RAPIER_LIBHOOK_H
#define RAPIER_LIBHOOK_H

#include <poll.h>

#include "php.h"

/* Rebinds the libraries loaded so far (hook.c: at startup, and at a run start after a dl()). */
void rapier_libhook_rebind(void);

/*
 * poll() for ext/sockets' socket_select() (sockets_hook.c): the same wait,
 * under RAPIER_HOOK_SOCKETS, with libc's poll() as the library's own.
 */
int rapier_libhook_sockets_poll(struct pollfd *fds, nfds_t nfds, int timeout);

/*
 * The id of a coroutine suspended inside a hooked library's poll() on fd
 * (the library is in the middle of a call using it), or 0.
 */
zend_long rapier_libhook_waiter(int fd);

/* Forgets the waits of a run that ended (after a bailout they never return). */
void rapier_libhook_on_run_end(void);

/* Puts the libraries' own poll() back, before this module can be unloaded. */
void rapier_libhook_mshutdown(void);

#endif
