/*
 * libpq inside coroutines: the rules that make its yielding poll()
 * (libhook.c) safe for ext/pgsql and pdo_pgsql.
 *
 * Persistent connections. pg_pconnect() and `new PDO(..., [ATTR_PERSISTENT
 * => true])` look the connection up in EG(persistent_list), connect when
 * it is missing, then register it. Two coroutines that both miss would
 * both connect, and the second registration destroys the first one's
 * connection while it is still in use. A persistent connection is also
 * shared by every coroutine of the process, and pg_pconnect() sends
 * "RESET ALL" on it. So libpq never suspends inside those two calls nor on
 * a persistent connection's socket: it blocks, as persistent mysqlnd and
 * phpredis connections do (transport.c).
 *
 * Closing under a waiter. pg_close() (or the release of the last reference
 * to a connection, or pg_connect() replacing the default one) first reads
 * and drops the connection's pending results with PQgetResult(), then
 * calls PQfinish(), which frees the PGconn that another coroutine's libpq
 * call, suspended in poll(), will use again when it resumes. ext/pgsql's
 * imports of both are rebound: results a waiting coroutine is reading are
 * its own (PQgetResult() gives others none), and the PQfinish() is put off
 * until no coroutine waits inside libpq on that connection (its query ends
 * normally), checked on a timer of the loop, and done at the end of the
 * run at the latest. PQreset() (pg_connection_reset()) of such a
 * connection throws instead.
 *
 * Host names. libpq resolves a connection string's host with
 * getaddrinfo() inside its connect (and reset); its import is rebound so
 * that the lookup runs on a resolver thread (resolve.c) while only the
 * connecting coroutine waits, under the same rules as its poll().
 */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE   /* RTLD_DEFAULT */
#endif
#include "php_rapier.h"
#include "zend_exceptions.h"
#include "ext/pdo/php_pdo_driver.h"

#include <dlfcn.h>
#include <errno.h>
#include <netdb.h>

#include "coroutine.h"
#include "hook.h"
#include "libhook.h"
#include "loop.h"
#include "pgsql_hook.h"
#include "plt.h"
#include "resolve.h"

/* libpq's own types stay opaque: no build dependency on its headers. */
typedef void pgconn_t;
typedef int (*pq_socket_fn)(const pgconn_t *conn);
typedef void (*pq_conn_fn)(pgconn_t *conn);
typedef void *(*pq_get_result_fn)(pgconn_t *conn);
typedef int (*getaddrinfo_fn)(const char *node, const char *service, const struct addrinfo *hints,
	struct addrinfo **res);

/* How often a put-off close looks again whether its connection is free. */
#define FINISH_RETRY_NS (1000 * 1000)

typedef struct deferred_finish_s {
	pgconn_t *conn;
	struct deferred_finish_s *next;
} deferred_finish_t;

static pq_socket_fn pq_socket;
static rapier_plt_rebinding_t pq_finish, pq_reset, pq_get_result, pq_getaddrinfo;
static deferred_finish_t *deferred;
static rapier_timer_t finish_timer;

/* pg_pconnect() and persistent PDO constructors in progress (they may nest: a PDO subclass). */
static int blocking_calls;

static zif_handler original_pg_pconnect;
static zif_handler original_pdo_construct;

/*
 * Resource types of persistent pgsql links and PDO handles (0 until their
 * extension is loaded), looked up when the hook is installed: every wait
 * that may yield scans the persistent list with them.
 */
static int pgsql_plink_type, pdo_persistent_type;

/* The connection a persistent PDO handle holds, when its driver is pdo_pgsql. */
static pgconn_t *pdo_pgsql_connection(const pdo_dbh_t *dbh)
{
	if (dbh->driver == NULL || dbh->driver_data == NULL || dbh->driver->driver_name_len != sizeof("pgsql") - 1
			|| memcmp(dbh->driver->driver_name, "pgsql", sizeof("pgsql") - 1) != 0) {
		return NULL;
	}
	/* pdo_pgsql_db_handle starts with its PGconn *server, as it always has. */
	return *(pgconn_t **) dbh->driver_data;
}

/* The persistent connection (pg_pconnect(), persistent PDO) whose socket is fd, or whose PGconn is conn. */
static bool is_persistent(int fd, const pgconn_t *conn_wanted)
{
	zend_resource *le;

	ZEND_HASH_FOREACH_PTR(&EG(persistent_list), le) {
		pgconn_t *conn = NULL;

		if (le->ptr == NULL) {
			continue;
		}
		if (pgsql_plink_type != 0 && le->type == pgsql_plink_type) {
			conn = le->ptr;
		} else if (pdo_persistent_type != 0 && le->type == pdo_persistent_type) {
			conn = pdo_pgsql_connection(le->ptr);
		}
		if (conn != NULL && (conn == conn_wanted || (fd >= 0 && pq_socket(conn) == fd))) {
			return true;
		}
	} ZEND_HASH_FOREACH_END();
	return false;
}

bool rapier_pgsql_may_yield(const struct pollfd *fds, nfds_t nfds)
{
	if (blocking_calls > 0 || pq_socket == NULL) {
		return false;
	}
	for (nfds_t i = 0; i < nfds; i++) {
		if (fds[i].fd >= 0 && is_persistent(fds[i].fd, NULL)) {
			return false;
		}
	}
	return true;
}

static void blocking_pg_pconnect(INTERNAL_FUNCTION_PARAMETERS)
{
	blocking_calls++;
	original_pg_pconnect(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	blocking_calls--;
}

/* PDO::__construct(string $dsn, ?string $username, ?string $password, ?array $options) */
static bool pdo_args_persistent(zend_execute_data *execute_data)
{
	zval *options = ZEND_NUM_ARGS() >= 4 ? ZEND_CALL_ARG(execute_data, 4) : NULL;
	zval *persistent;

	if (options == NULL || Z_TYPE_P(options) != IS_ARRAY) {
		return false;
	}
	persistent = zend_hash_index_find(Z_ARRVAL_P(options), PDO_ATTR_PERSISTENT);
	return persistent != NULL && zend_is_true(persistent);
}

static void blocking_pdo_construct(INTERNAL_FUNCTION_PARAMETERS)
{
	bool persistent = pdo_args_persistent(execute_data);

	blocking_calls += persistent;
	original_pdo_construct(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	blocking_calls -= persistent;
}

/* The coroutine suspended inside libpq on conn, or 0. */
static zend_long waiter_of(pgconn_t *conn)
{
	return conn != NULL ? rapier_libhook_waiter(pq_socket(conn)) : 0;
}

static void finish_now(pgconn_t *conn)
{
	((pq_conn_fn) rapier_plt_original(&pq_finish))(conn);
}

static void finish_free_connections(rapier_timer_t *timer)
{
	deferred_finish_t **p = &deferred;

	while (*p != NULL) {
		deferred_finish_t *d = *p;

		if (waiter_of(d->conn) != 0) {
			p = &d->next;
			continue;
		}
		*p = d->next;
		finish_now(d->conn);
		free(d);
	}
	if (deferred == NULL) {
		rapier_timer_stop(rapier_sched_loop(), timer);
	}
}

static bool defer_finish(pgconn_t *conn)
{
	rapier_loop_t *loop = rapier_sched_loop();
	deferred_finish_t *d;

	if (loop == NULL || (d = malloc(sizeof(*d))) == NULL) {
		return false;
	}
	if (deferred == NULL) {
		rapier_timer_init(&finish_timer, finish_free_connections, NULL);
		/* The waiter keeps the run alive; the run's end closes what is left. */
		finish_timer.unref = true;
		rapier_timer_start(loop, &finish_timer, FINISH_RETRY_NS, FINISH_RETRY_NS);
	}
	*d = (deferred_finish_t) { .conn = conn, .next = deferred };
	deferred = d;
	return true;
}

/* ext/pgsql's PQfinish(). */
static void guarded_pq_finish(pgconn_t *conn)
{
	if (waiter_of(conn) != 0 && defer_finish(conn)) {
		return;
	}
	finish_now(conn);
}

/* ext/pgsql's PQreset(). */
static void guarded_pq_reset(pgconn_t *conn)
{
	zend_long waiter = waiter_of(conn);
	bool persistent;

	if (waiter != 0) {
		zend_throw_exception_ex(rapier_ce_exception, 0,
			"Cannot reset a PostgreSQL connection while coroutine #" ZEND_LONG_FMT " waits on it; "
			"use one connection per coroutine, or a pool", waiter);
		return;
	}
	/* Reconnecting a persistent connection: no other coroutine may find it half done. */
	persistent = is_persistent(-1, conn);
	blocking_calls += persistent;
	((pq_conn_fn) rapier_plt_original(&pq_reset))(conn);
	blocking_calls -= persistent;
}

/* ext/pgsql's PQgetResult(): a waiting coroutine's results are not another's to read. */
static void *guarded_pq_get_result(pgconn_t *conn)
{
	if (waiter_of(conn) != 0) {
		return NULL;
	}
	return ((pq_get_result_fn) rapier_plt_original(&pq_get_result))(conn);
}

/* libpq's getaddrinfo(). */
static int yielding_getaddrinfo(const char *node, const char *service, const struct addrinfo *hints,
	struct addrinfo **res)
{
	if (!rapier_hook_enabled(RAPIER_HOOK_PGSQL) || blocking_calls > 0) {
		return ((getaddrinfo_fn) rapier_plt_original(&pq_getaddrinfo))(node, service, hints, res);
	}
	return rapier_resolve_addrinfo(node, service, hints, res, "libpq looked up host");
}

static zend_function *pdo_constructor(void)
{
	zend_class_entry *ce = zend_hash_str_find_ptr(CG(class_table), "pdo", sizeof("pdo") - 1);

	return ce != NULL && ce->constructor != NULL && ce->constructor->type == ZEND_INTERNAL_FUNCTION
		? ce->constructor : NULL;
}

static void wrap_connect_functions(void)
{
	zend_function *ctor = pdo_constructor();

	if (original_pg_pconnect == NULL) {
		original_pg_pconnect = rapier_hook_replace_handler(ZEND_STRL("pg_pconnect"), blocking_pg_pconnect);
	}
	if (original_pdo_construct == NULL && ctor != NULL) {
		original_pdo_construct = ctor->internal_function.handler;
		ctor->internal_function.handler = blocking_pdo_construct;
	}
}

void rapier_pgsql_hook_install(void)
{
	if (pq_socket == NULL) {
		pq_socket = (pq_socket_fn) dlsym(RTLD_DEFAULT, "PQsocket");
	}
	if (pq_socket == NULL) {
		return;   /* libpq is not loaded */
	}
	pgsql_plink_type = zend_fetch_list_dtor_id("pgsql link persistent");
	pdo_persistent_type = zend_fetch_list_dtor_id("PDO persistent database");
	rapier_plt_rebind(&pq_finish, "pgsql.so", "PQfinish", (void *) guarded_pq_finish);
	rapier_plt_rebind(&pq_reset, "pgsql.so", "PQreset", (void *) guarded_pq_reset);
	rapier_plt_rebind(&pq_get_result, "pgsql.so", "PQgetResult", (void *) guarded_pq_get_result);
	rapier_plt_rebind(&pq_getaddrinfo, "libpq.so.", "getaddrinfo", (void *) yielding_getaddrinfo);
	wrap_connect_functions();
}

void rapier_pgsql_hook_on_run_end(void)
{
	/* The loop, and the timer in it, go with the run. */
	while (deferred != NULL) {
		deferred_finish_t *d = deferred;

		deferred = d->next;
		finish_now(d->conn);
		free(d);
	}
	/* A bailout out of pg_pconnect() or a persistent PDO constructor never came back to lower it. */
	blocking_calls = 0;
}

void rapier_pgsql_hook_mshutdown(void)
{
	zend_function *ctor = pdo_constructor();

	/* An extension loaded after this one is already gone: only what is still there is put back. */
	if (original_pg_pconnect != NULL) {
		zend_function *fn = zend_hash_str_find_ptr(CG(function_table), ZEND_STRL("pg_pconnect"));

		if (fn != NULL && fn->internal_function.handler == blocking_pg_pconnect) {
			fn->internal_function.handler = original_pg_pconnect;
		}
		original_pg_pconnect = NULL;
	}
	if (original_pdo_construct != NULL && ctor != NULL && ctor->internal_function.handler == blocking_pdo_construct) {
		ctor->internal_function.handler = original_pdo_construct;
	}
	original_pdo_construct = NULL;
	rapier_plt_restore(&pq_finish);
	rapier_plt_restore(&pq_reset);
	rapier_plt_restore(&pq_get_result);
	rapier_plt_restore(&pq_getaddrinfo);
	pq_socket = NULL;
	pgsql_plink_type = pdo_persistent_type = 0;
}
