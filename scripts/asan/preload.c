/*
 * Preloaded (with the ASan runtime) into every PHP process of make asan.
 *
 * PHP dlopen()s extensions with RTLD_DEEPBIND, which AddressSanitizer's
 * runtime refuses ("RTLD_DEEPBIND flag which is incompatible with
 * sanitizer runtime"); the dlopen() here drops that flag and passes the call
 * on. Rapier's module binds no symbol that another library also defines, so
 * deep binding changes nothing for it.
 *
 * The constructor takes LD_PRELOAD out of the environment once the loader
 * has used it, so that the programs PHP starts (curl, sh, nginx) run as
 * they always do: curl deadlocks in setlocale() with the ASan runtime
 * preloaded. A PHP child is started through scripts/asan/php (PHP_BINARY
 * is that script), which preloads both again.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>

void *dlopen(const char *file, int mode)
{
	static void *(*real_dlopen)(const char *, int);

	if (real_dlopen == NULL) {
		real_dlopen = (void *(*)(const char *, int)) dlsym(RTLD_NEXT, "dlopen");
	}
	return real_dlopen(file, mode & ~RTLD_DEEPBIND);
}

__attribute__((constructor)) static void forget_preload(void)
{
	unsetenv("LD_PRELOAD");
}
