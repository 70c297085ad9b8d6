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

/* How many fatal errors PHP has reported in this process: a mark to compare with. */
uint32_t rapier_exit_fatal_mark(void);

/* Whether ex is the unwinding of a plain exit() or die() made since the mark was taken. */
bool rapier_exit_is_plain(const zend_object *ex, uint32_t fatal_mark);

#endif
