/*
 * Hook flags and their life cycle. The flags come from rapier.hooks at
 * request start ("1"/"on": all, "0"/"off": none, or a number of
 * RAPIER_HOOK_* bits) and from Rapier\Runtime at run time. Transports are
 * only swapped while a scheduler runs: see hook.h.
 */
#include "php_rapier.h"
#include "hook.h"
#include "coroutine.h"
#include "dns.h"
#include "flock_hook.h"
#include "libhook.h"
#include "memcached_hook.h"
#include "pgsql_hook.h"
#include "plt.h"
#include "pipe.h"
#include "proc_hook.h"
#include "shell_hook.h"
#include "select.h"
#include "sleep.h"
#include "sockets_hook.h"
#include "stdio_hook.h"
#include "transport.h"

static zend_long hook_flags = RAPIER_HOOK_ALL;
static zend_long ini_flags = RAPIER_HOOK_ALL;
static bool transports_installed;

static zend_long parse_ini_flags(zend_string *value)
{
	if (zend_string_equals_literal_ci(value, "on") || zend_string_equals_literal_ci(value, "yes")
			|| zend_string_equals_literal_ci(value, "true")) {
		return RAPIER_HOOK_ALL;
	}
	if (ZSTR_LEN(value) == 0 || zend_string_equals_literal_ci(value, "off")
			|| zend_string_equals_literal_ci(value, "no") || zend_string_equals_literal_ci(value, "false")) {
		return 0;
	}
	zend_long flags = ZEND_STRTOL(ZSTR_VAL(value), NULL, 0);
	/* "1" is the documented spelling of "everything", not just the tcp bit. */
	return flags == 1 ? RAPIER_HOOK_ALL : (flags & RAPIER_HOOK_ALL);
}

ZEND_INI_MH(rapier_hook_ini_update)
{
	ini_flags = parse_ini_flags(new_value);
	if (stage == ZEND_INI_STAGE_RUNTIME) {
		rapier_hook_set_flags(ini_flags);
	}
	return SUCCESS;
}

zif_handler rapier_hook_replace_handler_in(HashTable *functions, const char *name, size_t name_len,
	zif_handler replacement)
{
	zend_function *fn = zend_hash_str_find_ptr(functions, name, name_len);
	zif_handler previous;

	if (fn == NULL || fn->type != ZEND_INTERNAL_FUNCTION || replacement == NULL) {
		return NULL;
	}
	previous = fn->internal_function.handler;
	fn->internal_function.handler = replacement;
	return previous;
}

zif_handler rapier_hook_replace_handler(const char *name, size_t name_len, zif_handler replacement)
{
	return rapier_hook_replace_handler_in(CG(function_table), name, name_len, replacement);
}

/* Rebinds C libraries' imports (libhook.c, pgsql_hook.c, sockets_hook.c) in what is loaded so far. */
static void rebind_libraries(void)
{
	/* A walk of every loaded object per symbol: only worth it after a dlopen() (a dl()) or at startup. */
	if (!rapier_plt_objects_changed()) {
		return;
	}
	rapier_libhook_rebind();
	rapier_pgsql_hook_install();
	rapier_sockets_hook_install();
}

void rapier_hook_minit(void)
{
	rapier_sleep_hook_minit();
	rapier_select_hook_minit();
	rapier_dns_hook_minit();
	rapier_pipe_minit();
	rapier_proc_hook_minit();
	rapier_shell_hook_minit();
	rapier_flock_hook_minit();
	rapier_stdio_hook_minit();
	rebind_libraries();
	rapier_memcached_hook_install();
}

/* In the reverse order of rapier_hook_minit(): fclose() is wrapped by more than one hook. */
void rapier_hook_mshutdown(void)
{
	rapier_memcached_hook_mshutdown();
	rapier_pgsql_hook_mshutdown();
	rapier_sockets_hook_mshutdown();
	rapier_libhook_mshutdown();
	rapier_stdio_hook_mshutdown();
	rapier_flock_hook_mshutdown();
	rapier_shell_hook_mshutdown();
	rapier_proc_hook_mshutdown();
	rapier_dns_hook_mshutdown();
	rapier_select_hook_mshutdown();
	rapier_sleep_hook_mshutdown();
}

void rapier_hook_rinit(void)
{
	hook_flags = ini_flags;
	transports_installed = false;
}

zend_long rapier_hook_flags(void)
{
	return hook_flags;
}

bool rapier_hook_enabled(zend_long flag)
{
	return (hook_flags & flag) != 0;
}

static void reinstall_transports(void)
{
	if (transports_installed) {
		rapier_transport_uninstall();
		transports_installed = false;
	}
	if (rapier_sched_running() && (hook_flags & ~RAPIER_HOOK_SLEEP)) {
		rapier_transport_install(hook_flags);
		transports_installed = true;
	}
}

void rapier_hook_set_flags(zend_long flags)
{
	hook_flags = flags & RAPIER_HOOK_ALL;
	reinstall_transports();
}

void rapier_hook_on_run_start(void)
{
	rebind_libraries();
	/* Once installed it returns at once; until then ext/memcached may have come with a dl(). */
	rapier_memcached_hook_install();
	reinstall_transports();
}

void rapier_hook_on_run_end(void)
{
	rapier_libhook_on_run_end();
	rapier_pgsql_hook_on_run_end();
	rapier_memcached_hook_on_run_end();
	rapier_pipe_on_run_end();
	rapier_shell_hook_on_run_end();
	if (transports_installed) {
		rapier_transport_uninstall();
		transports_installed = false;
	}
}
