/*
 * PHP's DNS functions inside coroutines: gethostbyname(), gethostbynamel(),
 * gethostbyaddr(), and dns_get_record(), checkdnsrr() and getmxrr() (with
 * their dns_* aliases) suspend only the calling coroutine while the system
 * resolver works, on a lookup thread (resolve.h). Whenever the caller cannot
 * yield or RAPIER_HOOK_DNS is off, PHP's own code runs unchanged.
 */
#ifndef RAPIER_DNS_H
#define RAPIER_DNS_H

#include <netdb.h>

/*
 * php_network_gethostbyname() in a coroutine that may yield, for C code
 * that calls it (ext/sockets): the lookup runs on a lookup thread. The
 * entry (IPv4 addresses) is valid until the next call; NULL when the name
 * did not resolve, or with a CanceledException thrown. Like PHP's (which
 * calls gethostbyname_r()), it leaves h_errno as it was.
 */
struct hostent *rapier_dns_gethostbyname(const char *name);

void rapier_dns_hook_minit(void);
void rapier_dns_hook_mshutdown(void);

#endif
