/*
 * Rebinding one imported function of a loaded shared library: its global
 * offset table entry for the symbol (what its PLT stub, or code that took
 * the function's address, jumps through) is pointed at another function.
 * Only calls made from inside that library change; the process's other
 * callers of the symbol, PHP's own included, keep the real one.
 *
 * Used by libhook.c to make libcurl's and libpq's poll() yield, by
 * pgsql_hook.c for libpq's getaddrinfo(), and by dns.c for PHP's own
 * res_nsearch(). x86-64 and AArch64 only; elsewhere the rebinding
 * functions report -ENOTSUP.
 */
#ifndef RAPIER_PLT_H
#define RAPIER_PLT_H

#include <stdbool.h>

/* One table entry that was rebound, and what it held before. */
typedef struct {
	void **slot;
	void *original;
	bool read_only;   /* the page is read-only (RELRO) outside our stores */
} rapier_plt_patch_t;

typedef struct {
	rapier_plt_patch_t patches[4];   /* a library imports a symbol once; 4 leaves room for copies loaded twice */
	int count;
} rapier_plt_rebinding_t;

/*
 * Points the entries for symbol of every loaded object whose file name
 * starts with soname_prefix ("libcurl.so.") at replacement, and records
 * them in rebinding. Entries already pointing at replacement are left
 * alone, so calling it again (after a dl()) only adds what is new.
 * Returns how many entries were rebound by this call, or -errno.
 */
int rapier_plt_rebind(rapier_plt_rebinding_t *rebinding, const char *soname_prefix, const char *symbol,
	void *replacement);

/*
 * The same for the one loaded object whose image holds address (PHP's own,
 * found from one of its functions, whatever file it was loaded from).
 */
int rapier_plt_rebind_in(rapier_plt_rebinding_t *rebinding, const void *address, const char *symbol,
	void *replacement);

/*
 * The function the first recorded entry pointed at before rebinding (the
 * library's own binding of the symbol), or NULL when nothing was rebound.
 */
void *rapier_plt_original(const rapier_plt_rebinding_t *rebinding);

/* Puts every recorded entry back as it was and forgets them. */
void rapier_plt_restore(rapier_plt_rebinding_t *rebinding);

/*
 * Whether any object was loaded or unloaded since the last call (glibc's
 * dlpi_adds and dlpi_subs); true on the first call, and whenever the C
 * library does not count. Lets a caller skip a rebinding walk that would
 * find nothing new.
 */
bool rapier_plt_objects_changed(void);

#endif
