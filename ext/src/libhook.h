/*
 * C libraries that wait for their own sockets, made to yield inside
 * coroutines: libcurl (ext/curl: curl_exec(), curl_multi_select()).
 *
 * Such a library keeps its descriptors non-blocking and waits for them in
 * poll(); its poll import is rebound (plt.h) to one that, when the caller
 * may yield and the library's RAPIER_HOOK_* flag is on, suspends only the
 * calling coroutine. Everywhere else the library's own poll() runs as is.
 */
#ifndef RAPIER_LIBHOOK_H
#define RAPIER_LIBHOOK_H

/* Rebinds the libraries loaded so far; again at each run start, for a dl() since. */
void rapier_libhook_minit(void);
void rapier_libhook_rebind(void);

/* Puts the libraries' own poll() back, before this module can be unloaded. */
void rapier_libhook_mshutdown(void);

#endif
