/*
 * Rapier: a coroutine application server for PHP, as an extension.
 * Module-wide declarations shared by the binding files.
 */
#ifndef PHP_RAPIER_H
#define PHP_RAPIER_H

#include "php.h"

#define PHP_RAPIER_VERSION "0.1.0"

extern zend_module_entry rapier_module_entry;
#define phpext_rapier_ptr &rapier_module_entry

#ifdef ZTS
# error "Rapier needs a non-thread-safe (NTS) PHP build"
#endif

/* Exception classes (binding/exceptions.c). */
extern zend_class_entry *rapier_ce_exception;          /* Rapier\Exception */
extern zend_class_entry *rapier_ce_canceled_exception; /* Rapier\CanceledException */
extern zend_class_entry *rapier_ce_deadlock_exception; /* Rapier\DeadlockException */
extern zend_class_entry *rapier_ce_timeout_exception;  /* Rapier\TimeoutException */
extern zend_class_entry *rapier_ce_exit_exception;     /* Rapier\ExitException */
extern zend_class_entry *rapier_ce_table_full_exception; /* Rapier\TableFullException */

/* Rapier\Coroutine (binding/coroutine.c): owns the fibers' entry method. */
extern zend_class_entry *rapier_ce_coroutine;

/* Hook flags for Rapier\Runtime::enableHooks() (Rapier\HOOK_*). */
#define RAPIER_HOOK_TCP   (1 << 0)
#define RAPIER_HOOK_UDP   (1 << 1)
#define RAPIER_HOOK_UNIX  (1 << 2)
#define RAPIER_HOOK_UDG   (1 << 3)
#define RAPIER_HOOK_SSL   (1 << 4)
#define RAPIER_HOOK_SLEEP (1 << 5)
#define RAPIER_HOOK_STREAM_SELECT (1 << 6)
#define RAPIER_HOOK_CURL  (1 << 7)
#define RAPIER_HOOK_PGSQL (1 << 8)
#define RAPIER_HOOK_DNS   (1 << 9)
#define RAPIER_HOOK_SOCKETS (1 << 10)
#define RAPIER_HOOK_PROC  (1 << 11)
#define RAPIER_HOOK_FLOCK (1 << 12)
#define RAPIER_HOOK_STDIO (1 << 13)
#define RAPIER_HOOK_MEMCACHED (1 << 14)
#define RAPIER_HOOK_ALL   (RAPIER_HOOK_TCP | RAPIER_HOOK_UDP | RAPIER_HOOK_UNIX | RAPIER_HOOK_UDG \
	| RAPIER_HOOK_SSL | RAPIER_HOOK_SLEEP | RAPIER_HOOK_STREAM_SELECT | RAPIER_HOOK_CURL | RAPIER_HOOK_PGSQL \
	| RAPIER_HOOK_DNS | RAPIER_HOOK_SOCKETS | RAPIER_HOOK_PROC | RAPIER_HOOK_FLOCK \
	| RAPIER_HOOK_STDIO | RAPIER_HOOK_MEMCACHED)

/* Each binding file registers its classes in MINIT. */
void rapier_exceptions_minit(void);
void rapier_coroutine_class_minit(void);
void rapier_timer_class_minit(void);
/* Clears every pending Timer::after() and Timer::tick(); returns how many there were. */
uint32_t rapier_user_timers_clear(void);
void rapier_runtime_class_minit(void);
void rapier_channel_class_minit(void);
void rapier_waitgroup_class_minit(void);
void rapier_process_state_class_minit(void);
void rapier_table_class_minit(void);
void rapier_file_watcher_class_minit(void);

/*
 * Throws Rapier\Exception when not inside a Rapier coroutine.
 * what: the operation, e.g. "Rapier\\Coroutine::sleep()". Returns false if thrown.
 */
bool rapier_require_coroutine(const char *what);

/*
 * Converts a timeout argument in seconds to nanoseconds: a negative value
 * (conventionally -1) means "no timeout" and gives -1; NaN or a value too
 * large for the clock throws ValueError on argument arg_num and returns -2.
 */
int64_t rapier_timeout_arg_ns(double seconds, uint32_t arg_num);

#endif
