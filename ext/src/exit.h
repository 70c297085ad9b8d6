/*
 * Telling an exit() apart from a fatal error. PHP unwinds the stack with the
 * same internal object for both: exit() throws it, and PHP 8.2's delayed
 * out-of-memory handling (a memory_limit error is reported, then unwound at
 * the next safe point) throws it too. Code that stops an exit() to let the
 * script go on (Rapier\trap_exit(), request handlers) must let a fatal error
 * through: counting the fatal errors PHP reports tells which it was (and,
 * should another error callback hide them from the count, PHP's record of
 * the last error).
 */
#ifndef RAPIER_EXIT_H
#define RAPIER_EXIT_H

#include "php.h"

void rapier_exit_minit(void);
void rapier_exit_mshutdown(void);

/* Taken before calling code whose exit() is to be stopped. */
typedef struct {
	uint32_t fatal_errors;   /* reported in this process so far */
	int exit_status;         /* EG(exit_status) before the call */
} rapier_exit_mark_t;

void rapier_exit_mark(rapier_exit_mark_t *mark);

/*
 * Whether ex is the unwinding of a plain exit() or die() made since mark.
 * If so, *status gets the exit's status and EG(exit_status) is put back as
 * it was at the mark; dropping ex is the caller's.
 */
bool rapier_exit_trapped(const zend_object *ex, const rapier_exit_mark_t *mark, zend_long *status);

#endif
