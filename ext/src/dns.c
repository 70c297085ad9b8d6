/*
 * PHP's DNS functions inside coroutines (see dns.h).
 *
 * gethostbyname(), gethostbynamel() and gethostbyaddr() are replaced whole,
 * as the sleep family is (sleep.c): PHP keeps gethostbyname_r()'s buffer in
 * a process global that its next call frees, which a second coroutine would
 * do while the first one's lookup still fills it. The replacements return
 * what PHP's would, and hand names PHP refuses (too long, not an address)
 * and IP literals to PHP's own handler, so its warnings stay word for word.
 *
 * dns_get_record(), checkdnsrr() and getmxrr() keep PHP's code, which
 * parses the answer; only PHP's res_nsearch() import is rebound (plt.h).
 * The query runs on the thread with a resolver state and an answer buffer
 * of its own, copied into PHP's when it returns: a coroutine that stops
 * waiting leaves nothing on its stack for the thread to write to.
 */
#include "php_rapier.h"
#include "php_network.h"
#include "zend_exceptions.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <resolv.h>
#include <stdlib.h>
#include <string.h>

#include "coroutine.h"
#include "dns.h"
#include "hook.h"
#include "plt.h"
#include "resolve.h"

typedef int (*res_nsearch_fn)(res_state statp, const char *dname, int class, int type, unsigned char *answer,
	int anslen);

static zif_handler php_gethostbyname, php_gethostbynamel, php_gethostbyaddr;
static rapier_plt_rebinding_t php_res_nsearch;

static bool may_yield(void)
{
	return rapier_hook_enabled(RAPIER_HOOK_DNS) && rapier_coro_can_yield();
}

/* Runs lookup on a thread; false, with CanceledException thrown, when the coroutine was canceled. */
static bool run_lookup(rapier_lookup_t *lookup, const char *what, const char *subject)
{
	if (rapier_lookup_run(lookup, -1, "a DNS lookup") == RAPIER_WAKE_OK) {
		return true;
	}
	/* The resolver owns the lookup now. */
	rapier_lookup_throw_canceled(what, subject);
	return false;
}

/* gethostbyname_r(), as PHP's php_network_gethostbyname() calls it: the host's IPv4 addresses. */
typedef struct {
	rapier_lookup_t base;
	bool found;                /* a host entry came back (it may list no address) */
	int count;
	struct in_addr *addrs;     /* count of them */
	char name[];
} host_lookup_t;

static void host_copy(host_lookup_t *lookup, const struct hostent *entry)
{
	int n = 0;

	while (entry->h_addr_list[n] != NULL) {
		n++;
	}
	if (n > 0 && (lookup->addrs = malloc(n * sizeof(struct in_addr))) == NULL) {
		return;
	}
	for (int i = 0; i < n; i++) {
		memcpy(&lookup->addrs[i], entry->h_addr_list[i], sizeof(struct in_addr));
	}
	lookup->count = n;
	lookup->found = true;
}

static void host_run(rapier_lookup_t *base)
{
	host_lookup_t *lookup = (host_lookup_t *) base;
	struct hostent entry, *found = NULL;
	size_t size = 1024;
	char *buf = NULL, *grown;
	int err = ENOMEM, h_err;

	/* As PHP does: a buffer twice as large each time glibc finds it too small. */
	while ((grown = realloc(buf, size)) != NULL) {
		buf = grown;
		err = gethostbyname_r(lookup->name, &entry, buf, size, &found, &h_err);
		if (err != ERANGE) {
			break;
		}
		size *= 2;
	}
	if (err == 0 && found != NULL) {
		host_copy(lookup, found);
	}
	free(buf);
}

static void host_release(rapier_lookup_t *base)
{
	host_lookup_t *lookup = (host_lookup_t *) base;

	free(lookup->addrs);
	free(lookup);
}

/* The lookup of name, done; NULL when the coroutine was canceled. */
static host_lookup_t *lookup_host(const char *name, size_t name_len)
{
	host_lookup_t *lookup = pecalloc(1, sizeof(*lookup) + name_len + 1, 1);

	lookup->base.run = host_run;
	lookup->base.release = host_release;
	memcpy(lookup->name, name, name_len + 1);
	return run_lookup(&lookup->base, "looking up host", name) ? lookup : NULL;
}

/*
 * The done lookup of a gethostbyname() or gethostbynamel() call's host
 * name, or NULL when the call is over: an argument error or a cancel was
 * thrown, or PHP's own handler took the call because the caller cannot
 * yield, or the name is one PHP warns about (too long), or an address
 * (nothing to look up).
 */
static host_lookup_t *host_call_lookup(INTERNAL_FUNCTION_PARAMETERS, zif_handler php_handler, char **name,
	size_t *name_len)
{
	if (may_yield()) {
		ZEND_PARSE_PARAMETERS_START(1, 1)
			Z_PARAM_PATH(*name, *name_len)
		ZEND_PARSE_PARAMETERS_END_EX(return NULL);
		if (*name_len <= MAXFQDNLEN && !rapier_ip_literal(*name)) {
			return lookup_host(*name, *name_len);
		}
	}
	php_handler(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	return NULL;
}

static ZEND_FUNCTION(rapier_gethostbyname)
{
	char *name, text[INET_ADDRSTRLEN];
	size_t name_len;
	host_lookup_t *lookup = host_call_lookup(INTERNAL_FUNCTION_PARAM_PASSTHRU, php_gethostbyname, &name, &name_len);

	if (lookup == NULL) {
		return;
	}
	if (lookup->count > 0 && inet_ntop(AF_INET, &lookup->addrs[0], text, sizeof(text)) != NULL) {
		RETVAL_STRING(text);
	} else {
		RETVAL_STRINGL(name, name_len);
	}
	host_release(&lookup->base);
}

static ZEND_FUNCTION(rapier_gethostbynamel)
{
	char *name, text[INET_ADDRSTRLEN];
	size_t name_len;
	host_lookup_t *lookup = host_call_lookup(INTERNAL_FUNCTION_PARAM_PASSTHRU, php_gethostbynamel, &name, &name_len);

	if (lookup == NULL) {
		return;
	}
	if (lookup->found) {
		array_init_size(return_value, lookup->count);
		for (int i = 0; i < lookup->count; i++) {
			if (inet_ntop(AF_INET, &lookup->addrs[i], text, sizeof(text)) != NULL) {
				add_next_index_string(return_value, text);
			}
		}
	} else {
		RETVAL_FALSE;
	}
	host_release(&lookup->base);
}

/* getnameinfo(), as PHP's gethostbyaddr() calls it: the name an address has in DNS. */
typedef struct {
	rapier_lookup_t base;
	union {
		struct sockaddr any;
		struct sockaddr_in v4;
		struct sockaddr_in6 v6;
	} addr;
	socklen_t addr_len;
	int status;
	char host[NI_MAXHOST];
} name_lookup_t;

static void name_run(rapier_lookup_t *base)
{
	name_lookup_t *lookup = (name_lookup_t *) base;

	lookup->status = getnameinfo(&lookup->addr.any, lookup->addr_len, lookup->host, sizeof(lookup->host), NULL,
		0, NI_NAMEREQD);
}

/* Whether text is an address, which goes into lookup as PHP's gethostbyaddr() puts it. */
static bool name_lookup_address(name_lookup_t *lookup, const char *text)
{
	if (inet_pton(AF_INET6, text, &lookup->addr.v6.sin6_addr) == 1) {
		lookup->addr.v6.sin6_family = AF_INET6;
		lookup->addr_len = sizeof(lookup->addr.v6);
		return true;
	}
	if (inet_pton(AF_INET, text, &lookup->addr.v4.sin_addr) == 1) {
		lookup->addr.v4.sin_family = AF_INET;
		lookup->addr_len = sizeof(lookup->addr.v4);
		return true;
	}
	return false;
}

static ZEND_FUNCTION(rapier_gethostbyaddr)
{
	char *text;
	size_t text_len;
	name_lookup_t *lookup;

	if (may_yield()) {
		ZEND_PARSE_PARAMETERS_START(1, 1)
			Z_PARAM_PATH(text, text_len)
		ZEND_PARSE_PARAMETERS_END();
		lookup = pecalloc(1, sizeof(*lookup), 1);
		if (name_lookup_address(lookup, text)) {
			lookup->base.run = name_run;
			if (!run_lookup(&lookup->base, "looking up the host name of", text)) {
				RETURN_THROWS();
			}
			if (lookup->status == 0) {
				RETVAL_STRING(lookup->host);
			} else {
				RETVAL_STRINGL(text, text_len);
			}
			free(lookup);
			return;
		}
		free(lookup);
	}
	/* Outside a coroutine, or not an address: PHP's warning. */
	php_gethostbyaddr(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

/* res_nsearch(), as dns_get_record(), checkdnsrr() and getmxrr() call it. */
typedef struct {
	rapier_lookup_t base;
	res_nsearch_fn search;
	int class;
	int type;
	int length;                /* res_nsearch()'s result: the answer's length, or -1 */
	int h_err;                 /* the h_errno it left */
	int answer_size;
	unsigned char *answer;     /* answer_size bytes */
	char name[];
} query_lookup_t;

static void query_run(rapier_lookup_t *base)
{
	query_lookup_t *query = (query_lookup_t *) base;
	struct __res_state state;

	memset(&state, 0, sizeof(state));
	if (res_ninit(&state) != 0) {
		query->length = -1;
		query->h_err = NETDB_INTERNAL;
		return;
	}
	query->length = query->search(&state, query->name, query->class, query->type, query->answer,
		query->answer_size);
	query->h_err = state.res_h_errno;
	res_nclose(&state);
}

static void query_release(rapier_lookup_t *base)
{
	query_lookup_t *query = (query_lookup_t *) base;

	free(query->answer);
	free(query);
}

/* What res_nsearch() leaves for its caller to read: h_errno and statp's copy of it. */
static int query_result(res_state statp, int length, int h_err)
{
	h_errno = h_err;
	statp->res_h_errno = h_err;
	return length;
}

static int yielding_res_nsearch(res_state statp, const char *dname, int class, int type, unsigned char *answer,
	int anslen)
{
	res_nsearch_fn search = (res_nsearch_fn) rapier_plt_original(&php_res_nsearch);
	size_t name_len;
	query_lookup_t *query;
	int length;

	if (!may_yield() || dname == NULL || anslen < 0) {
		return search(statp, dname, class, type, answer, anslen);
	}
	if (EG(exception)) {
		/* Canceled during an earlier query of this call (dns_get_record() asks type by type): no more. */
		return query_result(statp, -1, HOST_NOT_FOUND);
	}
	name_len = strlen(dname);
	query = pecalloc(1, sizeof(*query) + name_len + 1, 1);
	query->base.run = query_run;
	query->base.release = query_release;
	query->search = search;
	query->class = class;
	query->type = type;
	query->answer_size = anslen;
	query->answer = pemalloc(anslen > 0 ? anslen : 1, 1);
	memcpy(query->name, dname, name_len + 1);
	if (!run_lookup(&query->base, "querying DNS for", dname)) {
		return query_result(statp, -1, HOST_NOT_FOUND);
	}
	if (query->length > 0) {
		memcpy(answer, query->answer, query->length < anslen ? query->length : anslen);
	}
	length = query_result(statp, query->length, query->h_err);
	query_release(&query->base);
	return length;
}

/* PHP's own code (the file dns_get_record() is in) calls res_nsearch() under either name. */
static void rebind_res_nsearch(void)
{
	zend_function *fn = zend_hash_str_find_ptr(CG(function_table), ZEND_STRL("dns_get_record"));

	if (fn == NULL || fn->type != ZEND_INTERNAL_FUNCTION) {
		return;
	}
	rapier_plt_rebind_in(&php_res_nsearch, (void *) fn->internal_function.handler, "res_nsearch",
		(void *) yielding_res_nsearch);
	rapier_plt_rebind_in(&php_res_nsearch, (void *) fn->internal_function.handler, "__res_nsearch",
		(void *) yielding_res_nsearch);
}

/* What rapier_dns_gethostbyname() returns, valid until its next call, as gethostbyname()'s entry is. */
static struct {
	struct hostent entry;
	char *aliases[1];
	char **addr_list;          /* the addresses, NULL-terminated */
	struct in_addr *addrs;
	char *name;
} last_host;

static void last_host_free(void)
{
	free(last_host.addr_list);
	free(last_host.addrs);
	free(last_host.name);
	memset(&last_host, 0, sizeof(last_host));
}

/* Makes lookup's addresses the last host entry; false when out of memory. */
static bool last_host_take(host_lookup_t *lookup, const char *name)
{
	last_host_free();
	last_host.addr_list = calloc(lookup->count + 1, sizeof(char *));
	last_host.name = strdup(name);
	if (last_host.addr_list == NULL || last_host.name == NULL) {
		return false;
	}
	last_host.addrs = lookup->addrs;
	lookup->addrs = NULL;
	for (int i = 0; i < lookup->count; i++) {
		last_host.addr_list[i] = (char *) &last_host.addrs[i];
	}
	last_host.entry = (struct hostent) {
		.h_name = last_host.name, .h_aliases = last_host.aliases, .h_addrtype = AF_INET,
		.h_length = sizeof(struct in_addr), .h_addr_list = last_host.addr_list,
	};
	return true;
}

struct hostent *rapier_dns_gethostbyname(const char *name)
{
	host_lookup_t *lookup = lookup_host(name, strlen(name));
	struct hostent *entry = NULL;

	if (lookup == NULL) {
		return NULL;
	}
	if (lookup->found && last_host_take(lookup, name)) {
		entry = &last_host.entry;
	}
	host_release(&lookup->base);
	return entry;
}

void rapier_dns_hook_minit(void)
{
	php_gethostbyname = rapier_hook_replace_handler(ZEND_STRL("gethostbyname"), ZEND_FN(rapier_gethostbyname));
	php_gethostbynamel = rapier_hook_replace_handler(ZEND_STRL("gethostbynamel"), ZEND_FN(rapier_gethostbynamel));
	php_gethostbyaddr = rapier_hook_replace_handler(ZEND_STRL("gethostbyaddr"), ZEND_FN(rapier_gethostbyaddr));
	rebind_res_nsearch();
}

void rapier_dns_hook_mshutdown(void)
{
	rapier_hook_replace_handler(ZEND_STRL("gethostbyname"), php_gethostbyname);
	rapier_hook_replace_handler(ZEND_STRL("gethostbynamel"), php_gethostbynamel);
	rapier_hook_replace_handler(ZEND_STRL("gethostbyaddr"), php_gethostbyaddr);
	rapier_plt_restore(&php_res_nsearch);
	last_host_free();
}
