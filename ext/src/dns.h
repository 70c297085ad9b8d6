/*
 * PHP's DNS functions inside coroutines: gethostbyname(), gethostbynamel(),
 * gethostbyaddr(), and dns_get_record(), checkdnsrr() and getmxrr() (with
 * their dns_* aliases) suspend only the calling coroutine while the system
 * resolver works, on a lookup thread (resolve.h). Whenever the caller cannot
 * yield or RAPIER_HOOK_DNS is off, PHP's own code runs unchanged.
 */
#ifndef RAPIER_DNS_H
#define RAPIER_DNS_H

void rapier_dns_hook_minit(void);
void rapier_dns_hook_mshutdown(void);

#endif
