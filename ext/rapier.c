/*
 * Rapier module entry: ini settings and the module lifecycle. Everything
 * else lives in src/ (engine) and binding/ (PHP classes and functions).
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "php_ini.h"
#include "ext/standard/info.h"

#include "php_rapier.h"
#include "src/coroutine.h"
#include "src/exit.h"
#include "src/hook.h"
#include "src/sigwait.h"
#include "src/transport.h"
#include "binding/functions_arginfo.h"
#include "binding/http.h"

PHP_INI_BEGIN()
	PHP_INI_ENTRY("rapier.hooks", "1", PHP_INI_ALL, rapier_hook_ini_update)
PHP_INI_END()

static PHP_MINIT_FUNCTION(rapier)
{
	REGISTER_INI_ENTRIES();
	register_functions_symbols(module_number);
	rapier_exceptions_minit();
	rapier_coroutine_class_minit();
	rapier_timer_class_minit();
	rapier_runtime_class_minit();
	rapier_channel_class_minit();
	rapier_waitgroup_class_minit();
	rapier_process_state_class_minit();
	rapier_table_class_minit();
	rapier_file_watcher_class_minit();
	rapier_http_server_class_minit();
	rapier_http_request_class_minit();
	rapier_http_response_class_minit();
	rapier_http_websocket_class_minit();
	rapier_http_sapi_minit();
	rapier_coroutine_minit();
	rapier_exit_minit();
	rapier_sigwait_minit();
	rapier_hook_minit();
	rapier_transport_minit();
	return SUCCESS;
}

static PHP_MSHUTDOWN_FUNCTION(rapier)
{
	rapier_transport_mshutdown();
	rapier_http_sapi_mshutdown();
	rapier_hook_mshutdown();
	rapier_exit_mshutdown();
	UNREGISTER_INI_ENTRIES();
	return SUCCESS;
}

static PHP_RINIT_FUNCTION(rapier)
{
	rapier_hook_rinit();
	return SUCCESS;
}

static PHP_RSHUTDOWN_FUNCTION(rapier)
{
	rapier_coroutine_rshutdown();
	rapier_transport_uninstall();
	return SUCCESS;
}

static PHP_MINFO_FUNCTION(rapier)
{
	php_info_print_table_start();
	php_info_print_table_row(2, "Rapier support", "enabled");
	php_info_print_table_row(2, "Version", PHP_RAPIER_VERSION);
	php_info_print_table_end();
	DISPLAY_INI_ENTRIES();
}

/* Started before this module when loaded, so that MINIT finds the class it wraps (memcached_hook.c). */
static const zend_module_dep rapier_deps[] = {
	ZEND_MOD_OPTIONAL("memcached")
	ZEND_MOD_END
};

zend_module_entry rapier_module_entry = {
	STANDARD_MODULE_HEADER_EX,
	NULL,
	rapier_deps,
	"rapier",
	ext_functions,
	PHP_MINIT(rapier),
	PHP_MSHUTDOWN(rapier),
	PHP_RINIT(rapier),
	PHP_RSHUTDOWN(rapier),
	PHP_MINFO(rapier),
	PHP_RAPIER_VERSION,
	STANDARD_MODULE_PROPERTIES
};

#ifdef COMPILE_DL_RAPIER
ZEND_GET_MODULE(rapier)
#endif
