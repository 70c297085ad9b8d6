/*
 * Host name resolution off the event loop (see resolve.h).
 *
 * Ownership: a lookup belongs to its waiting coroutine until that stops
 * waiting, then to the loop. Threads only run the call and push the
 * lookup onto the done list (the one thing shared, under a mutex); every
 * other field is the loop thread's. A lookup whose waiter is gone is freed
 * when the loop drains it.
 *
 * State is per process: a forked child (HTTP workers are forked from the
 * master) has none of its parent's threads, so the first lookup in a new
 * process starts afresh.
 */
#include "php_rapier.h"
#include "php_network.h"
#include "zend_exceptions.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "coroutine.h"
#include "list.h"
#include "loop.h"
#include "resolve.h"

/* A getaddrinfo() call. */
typedef struct {
	rapier_lookup_t base;
	struct addrinfo hints;      /* flags, family, socktype and protocol only */
	const char *service;        /* NULL, or in host's allocation, after it */
	int status;                 /* getaddrinfo()'s result */
	int sys_errno;              /* errno after it, for PHP's "null result pointer" message */
	struct addrinfo *result;
	char host[];
} addrinfo_lookup_t;

static struct {
	pid_t pid;                  /* the process this state belongs to */
	int efd;                    /* written by a thread after it pushed onto done */
	rapier_io_t io;             /* efd, watched while a coroutine waits */
	rapier_loop_t *loop;        /* the loop io is registered with */
	uint32_t waiting;           /* coroutines waiting on a lookup */
	uint32_t running;           /* threads started whose lookup is not drained yet */
	uint32_t generation;
	rapier_list_t queue;        /* lookups waiting for a thread, oldest first */
	pthread_mutex_t lock;       /* guards done */
	rapier_lookup_t *done;
	bool pinned;
	int ipv6;                   /* -1: not probed yet */
} resolver = { .efd = -1, .ipv6 = -1 };

static void lookup_free(rapier_lookup_t *lookup)
{
	if (lookup->release) {
		lookup->release(lookup);
	} else {
		free(lookup);
	}
}

/* Runs on the lookup's own thread. */
static void *lookup_main(void *arg)
{
	rapier_lookup_t *lookup = arg;
	uint64_t one = 1;
	int efd = resolver.efd;

	lookup->run(lookup);

	pthread_mutex_lock(&resolver.lock);
	lookup->next = resolver.done;
	resolver.done = lookup;
	pthread_mutex_unlock(&resolver.lock);
	/* From here the loop may have freed the lookup: only the eventfd is left to touch. */
	while (write(efd, &one, sizeof(one)) < 0 && errno == EINTR) {
	}
	return NULL;
}

static void start_thread(rapier_lookup_t *lookup)
{
	pthread_attr_t attr;
	pthread_t thread;
	sigset_t all, saved;
	int err;

	lookup->started = true;
	resolver.running++;
	/*
	 * Born with every signal blocked, so that none meant for the process
	 * (max_execution_time's SIGPROF, SIGCHLD, SIGTERM) is delivered there.
	 */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &saved);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	err = pthread_create(&thread, &attr, lookup_main, lookup);
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	if (err != 0) {
		/* No thread to be had: run it here, blocking, as PHP itself would; on_done() wakes the waiter. */
		lookup_main(lookup);
	}
}

static void queue_push(rapier_lookup_t *lookup)
{
	rapier_list_push(&resolver.queue, &lookup->queued);
}

static rapier_lookup_t *queue_pop(void)
{
	rapier_list_node_t *node = rapier_list_shift(&resolver.queue);

	return node ? RAPIER_LIST_ENTRY(node, rapier_lookup_t, queued) : NULL;
}

static void queue_remove(rapier_lookup_t *lookup)
{
	rapier_list_remove(&resolver.queue, &lookup->queued);
}

static void start_queued(void)
{
	while (!rapier_list_is_empty(&resolver.queue) && resolver.running < RAPIER_RESOLVE_MAX_THREADS) {
		start_thread(queue_pop());
	}
}

static void unwait(void)
{
	if (--resolver.waiting == 0 && resolver.io.active) {
		rapier_io_stop(resolver.loop, &resolver.io);
	}
}

static rapier_lookup_t *take_done(void)
{
	rapier_lookup_t *list;

	pthread_mutex_lock(&resolver.lock);
	list = resolver.done;
	resolver.done = NULL;
	pthread_mutex_unlock(&resolver.lock);
	return list;
}

/* Hands finished lookups to their coroutines (or frees them), then starts queued ones. */
static void on_done(rapier_io_t *io, uint32_t events)
{
	rapier_lookup_t *list, *lookup;
	uint64_t count;

	(void) !read(resolver.efd, &count, sizeof(count));
	list = take_done();
	while ((lookup = list) != NULL) {
		list = lookup->next;
		resolver.running--;
		if (lookup->waiter && lookup->generation == resolver.generation) {
			rapier_coro_t *co = lookup->waiter;
			lookup->waiter = NULL;
			unwait();
			rapier_coro_wake(co, RAPIER_WAKE_OK);
		} else {
			lookup_free(lookup);
		}
	}
	start_queued();
}

/* The wait ended otherwise (timeout, cancel): the lookup is abandoned. */
static void on_unlink(rapier_coro_t *co, void *data)
{
	rapier_lookup_t *lookup = data;

	lookup->waiter = NULL;
	unwait();
	if (!lookup->started) {
		queue_remove(lookup);
		lookup_free(lookup);
	}
	/* Otherwise its thread still runs; on_done() frees it. */
}

/*
 * Lookup threads run this module's code and may outlive the coroutine, even
 * the request, that started them. Keeping the module mapped until the
 * process exits (RTLD_NODELETE) means PHP unloading it at shutdown never
 * pulls the code from under such a thread.
 */
static bool pin_module(void)
{
	Dl_info info;

	if (!resolver.pinned && dladdr((void *) pin_module, &info) && info.dli_fname) {
		resolver.pinned = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE) != NULL;
	}
	return resolver.pinned;
}

/* Sets up this process's state on first use (or first use after a fork). */
static bool resolver_ready(void)
{
	pid_t pid = getpid();

	if (resolver.pid == pid) {
		return true;
	}
	if (!pin_module()) {
		return false;
	}
	/* A parent's state is not ours: its threads did not survive the fork, its lock may look held. */
	if (resolver.efd >= 0) {
		close(resolver.efd);
	}
	resolver.waiting = resolver.running = 0;
	resolver.queue = (rapier_list_t) { 0 };
	resolver.done = NULL;
	resolver.loop = NULL;
	pthread_mutex_init(&resolver.lock, NULL);
	resolver.efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (resolver.efd < 0) {
		return false;
	}
	rapier_io_init(&resolver.io, resolver.efd, on_done, NULL);
	resolver.pid = pid;
	return true;
}

/* php_network_getaddresses()'s choice: both families when this host can make IPv6 sockets. */
static int lookup_family(void)
{
	if (resolver.ipv6 < 0) {
		int s = socket(AF_INET6, SOCK_DGRAM, 0);
		resolver.ipv6 = s >= 0;
		if (s >= 0) {
			close(s);
		}
	}
	return resolver.ipv6 ? AF_UNSPEC : AF_INET;
}

bool rapier_ip_literal(const char *host)
{
	unsigned char addr[sizeof(struct in6_addr)];

	return inet_pton(AF_INET, host, addr) == 1 || inet_pton(AF_INET6, host, addr) == 1;
}

/* The warning and error text of php_network_getaddresses(), word for word. */
static void report_failure(const addrinfo_lookup_t *lookup, zend_string **error_text)
{
	zend_string *message;

	if (lookup->status != 0) {
		message = strpprintf(0, "php_network_getaddresses: getaddrinfo for %s failed: %s",
			lookup->host, gai_strerror(lookup->status));
	} else if (error_text) {
		message = strpprintf(0, "php_network_getaddresses: getaddrinfo for %s failed (null result pointer) errno=%d",
			lookup->host, lookup->sys_errno);
	} else {
		message = strpprintf(0, "php_network_getaddresses: getaddrinfo for %s failed (null result pointer)",
			lookup->host);
	}
	php_error_docref(NULL, E_WARNING, "%s", ZSTR_VAL(message));
	if (error_text) {
		if (*error_text) {
			zend_string_release_ex(*error_text, 0);
		}
		*error_text = message;
	} else {
		zend_string_release_ex(message, 0);
	}
}

/* The addresses as php_network_getaddresses() returns them, or 0 after reporting. */
static int lookup_addresses(const addrinfo_lookup_t *lookup, struct sockaddr ***addrs, zend_string **error_text)
{
	struct addrinfo *ai;
	struct sockaddr **sa;
	int n = 0;

	if (lookup->status != 0 || lookup->result == NULL) {
		report_failure(lookup, error_text);
		return 0;
	}
	for (ai = lookup->result; ai; ai = ai->ai_next) {
		n++;
	}
	sa = *addrs = safe_emalloc(n + 1, sizeof(*sa), 0);
	for (ai = lookup->result; ai; ai = ai->ai_next) {
		*sa = emalloc(ai->ai_addrlen);
		memcpy(*sa++, ai->ai_addr, ai->ai_addrlen);
	}
	*sa = NULL;
	return n;
}

static void addrinfo_run(rapier_lookup_t *base)
{
	addrinfo_lookup_t *lookup = (addrinfo_lookup_t *) base;

	errno = 0;
	lookup->status = getaddrinfo(lookup->host, lookup->service, &lookup->hints, &lookup->result);
	lookup->sys_errno = errno;
}

static void addrinfo_release(rapier_lookup_t *base)
{
	addrinfo_lookup_t *lookup = (addrinfo_lookup_t *) base;

	if (lookup->result) {
		freeaddrinfo(lookup->result);
	}
	free(lookup);
}

static addrinfo_lookup_t *addrinfo_lookup_new(const char *host, const char *service, const struct addrinfo *hints)
{
	size_t len = strlen(host), service_len = service ? strlen(service) + 1 : 0;
	addrinfo_lookup_t *lookup = calloc(1, sizeof(*lookup) + len + 1 + service_len);

	if (lookup) {
		lookup->base.run = addrinfo_run;
		lookup->base.release = addrinfo_release;
		memcpy(lookup->host, host, len + 1);
		if (service) {
			lookup->service = memcpy(lookup->host + len + 1, service, service_len);
		}
		lookup->hints.ai_flags = hints->ai_flags;
		lookup->hints.ai_family = hints->ai_family;
		lookup->hints.ai_socktype = hints->ai_socktype;
		lookup->hints.ai_protocol = hints->ai_protocol;
	}
	return lookup;
}

/* Starts watching for finished lookups as the first coroutine begins to wait. */
static bool wait_begin(void)
{
	if (resolver.waiting == 0) {
		resolver.loop = rapier_sched_loop();
		if (rapier_io_start(resolver.loop, &resolver.io, RAPIER_IO_READ) < 0) {
			return false;
		}
	}
	resolver.waiting++;
	return true;
}

rapier_wake_t rapier_lookup_run(rapier_lookup_t *lookup, int64_t timeout_ns, const char *what)
{
	if (!rapier_coro_can_yield() || !resolver_ready() || !wait_begin()) {
		lookup->run(lookup);
		return RAPIER_WAKE_OK;
	}
	lookup->waiter = rapier_coro_current();
	lookup->generation = resolver.generation;
	lookup->started = false;
	if (resolver.running < RAPIER_RESOLVE_MAX_THREADS) {
		start_thread(lookup);
	} else {
		queue_push(lookup);
	}
	return rapier_coro_wait(timeout_ns, on_unlink, lookup, what);
}

int rapier_resolve(const char *host, int socktype, int64_t timeout_ns, struct sockaddr ***addrs,
	zend_string **error_text)
{
	struct addrinfo hints = { 0 };
	addrinfo_lookup_t *lookup;
	rapier_wake_t why;
	int n;

	hints.ai_socktype = socktype;
	if (host == NULL || rapier_ip_literal(host) || !rapier_coro_can_yield()) {
		return php_network_getaddresses(host, socktype, addrs, error_text);
	}
	hints.ai_family = lookup_family();
	if ((lookup = addrinfo_lookup_new(host, NULL, &hints)) == NULL) {
		return php_network_getaddresses(host, socktype, addrs, error_text);
	}
	why = rapier_lookup_run(&lookup->base, timeout_ns, "a host name lookup");
	if (why != RAPIER_WAKE_OK) {
		/* on_unlink() ran: the lookup is no longer ours to touch. */
		return why == RAPIER_WAKE_TIMEOUT ? -ETIMEDOUT : -ECANCELED;
	}
	n = lookup_addresses(lookup, addrs, error_text);
	addrinfo_release(&lookup->base);
	return n;
}

void rapier_lookup_throw_canceled(const char *doing, const char *subject)
{
	if (!EG(exception)) {
		zend_throw_exception_ex(rapier_ce_canceled_exception, 0, "Coroutine was canceled while %s %s", doing,
			subject);
	}
}

int rapier_resolve_addrinfo(const char *node, const char *service, const struct addrinfo *hints,
	struct addrinfo **res, const char *doing)
{
	struct addrinfo none = { 0 };
	addrinfo_lookup_t *lookup;
	int status;

	if (hints == NULL) {
		hints = &none;
		none.ai_flags = AI_V4MAPPED | AI_ADDRCONFIG;   /* glibc's default for no hints */
	}
	if (node == NULL || (hints->ai_flags & AI_NUMERICHOST) || rapier_ip_literal(node)
			|| !rapier_coro_can_yield() || (lookup = addrinfo_lookup_new(node, service, hints)) == NULL) {
		return getaddrinfo(node, service, hints, res);
	}
	if (rapier_lookup_run(&lookup->base, -1, "a host name lookup") != RAPIER_WAKE_OK) {
		rapier_lookup_throw_canceled(doing, node);
		errno = ECANCELED;
		return EAI_SYSTEM;
	}
	status = lookup->status;
	errno = lookup->sys_errno;
	*res = lookup->result;
	lookup->result = NULL;
	addrinfo_release(&lookup->base);
	return status;
}

void rapier_resolve_reset(void)
{
	rapier_lookup_t *lookup;

	if (resolver.pid != getpid()) {
		return;
	}
	/* The waiters are gone with their scheduler; running lookups are freed as they finish. */
	resolver.generation++;
	while ((lookup = queue_pop()) != NULL) {
		lookup_free(lookup);
	}
	resolver.waiting = 0;
	resolver.io.active = false;   /* its loop, and that loop's epoll set, are gone */
	resolver.loop = NULL;
}

void rapier_resolve_mshutdown(void)
{
	rapier_lookup_t *lookup, *list;

	if (resolver.pid != getpid()) {
		return;
	}
	rapier_resolve_reset();
	list = take_done();
	while ((lookup = list) != NULL) {
		list = lookup->next;
		lookup_free(lookup);
	}
	/*
	 * Lookups still running keep their memory, the lock and the eventfd,
	 * which their threads still use; the module stays mapped for them.
	 */
}
