/*
 * Host name resolution that suspends only the calling coroutine.
 *
 * getaddrinfo() has no non-blocking form (nor have gethostbyname_r(),
 * getnameinfo() or res_nsearch()), so, as libuv does, each lookup runs on
 * a thread of its own; the thread hands its result back through a
 * completion list and wakes the event loop with an eventfd. At most
 * RAPIER_RESOLVE_MAX_THREADS lookups run at once, the others queue in
 * order. A coroutine that stops waiting (timeout, cancel) abandons its
 * lookup: the thread finishes it and the loop frees it later.
 */
#ifndef RAPIER_RESOLVE_H
#define RAPIER_RESOLVE_H

#include <stdbool.h>
#include <stdint.h>
#include <netdb.h>
#include <sys/socket.h>

#include "php.h"
#include "coroutine.h"
#include "list.h"

#define RAPIER_RESOLVE_MAX_THREADS 16

typedef struct rapier_lookup_s rapier_lookup_t;

/*
 * One blocking resolver call, run on a lookup thread. A caller embeds it
 * first in a struct of its own that holds the call's arguments and room
 * for its results; run() makes the call there and must touch nothing
 * else (no PHP, no emalloc). release() frees the whole struct (NULL: it is
 * one malloc()ed block, for free()), on the loop's thread, when the waiter
 * gave up before it finished.
 */
struct rapier_lookup_s {
	void (*run)(rapier_lookup_t *lookup);
	void (*release)(rapier_lookup_t *lookup);
	/* The resolver's own. */
	rapier_list_node_t queued;  /* waiting for a thread */
	rapier_lookup_t *next;      /* in the done list */
	rapier_coro_t *waiter;      /* NULL once abandoned */
	uint32_t generation;        /* abandoned by a reset when older than the resolver's */
	bool started;               /* a thread has it; otherwise it is queued */
};

/*
 * Runs lookup->run() on a lookup thread while only the calling coroutine
 * waits, at most timeout_ns (-1: as long as the call takes); what names the
 * wait (Coroutine diagnostics). RAPIER_WAKE_OK: it ran and the lookup is
 * the caller's again. Otherwise (timeout, cancel) the resolver owns it and
 * releases it once its thread is done. A caller that cannot yield, or a
 * process that cannot start the resolver, runs it right here, blocking.
 */
rapier_wake_t rapier_lookup_run(rapier_lookup_t *lookup, int64_t timeout_ns, const char *what);

/*
 * php_network_getaddresses() for a coroutine: the same addresses in the
 * same order, the same warning and *error_text when the name does not
 * resolve, but only the calling coroutine waits, at most timeout_ns (-1:
 * as long as the system resolver takes). Numeric addresses, and callers
 * that cannot suspend, go straight to php_network_getaddresses().
 *
 * Returns the number of addresses (free them with
 * php_network_freeaddresses()), 0 when the name did not resolve (PHP has
 * warned), -ETIMEDOUT or -ECANCELED.
 */
int rapier_resolve(const char *host, int socktype, int64_t timeout_ns, struct sockaddr ***addrs,
	zend_string **error_text);

/*
 * getaddrinfo() for a coroutine, for C libraries that call it themselves:
 * the same call, made on a lookup thread while only the calling coroutine
 * waits, as long as the system resolver takes. *res is the caller's to
 * free with freeaddrinfo(). Numeric hosts, and callers that cannot
 * suspend, call getaddrinfo() directly. Returns getaddrinfo()'s status;
 * EAI_SYSTEM with errno ECANCELED when the coroutine was canceled, with
 * the CanceledException "…while <doing> <node>" thrown
 * (rapier_lookup_throw_canceled()).
 */
int rapier_resolve_addrinfo(const char *node, const char *service, const struct addrinfo *hints,
	struct addrinfo **res, const char *doing);

/*
 * After a lookup's wait was canceled: throws CanceledException "Coroutine
 * was canceled while <doing> <subject>", unless an exception (the cancel's
 * own) is already there. One wording for every kind of lookup.
 */
void rapier_lookup_throw_canceled(const char *doing, const char *subject);

/* Whether host is an IPv4 or IPv6 address: nothing to look up. */
bool rapier_ip_literal(const char *host);

/*
 * Forgets every waiting coroutine without touching them: for when no
 * scheduler runs any more (after a bailout). Their lookups are abandoned.
 */
void rapier_resolve_reset(void);
void rapier_resolve_mshutdown(void);

#endif
