/*
 * stream_select() that suspends only the calling coroutine
 * (RAPIER_HOOK_STREAM_SELECT); PHP's own handler everywhere else.
 */
#ifndef RAPIER_SELECT_H
#define RAPIER_SELECT_H

void rapier_select_hook_minit(void);
void rapier_select_hook_mshutdown(void);

#endif
