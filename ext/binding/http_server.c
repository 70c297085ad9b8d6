/*
 * Rapier\Http\Server: handlers and the worker's life (its options: http_options.c).
 *
 * start() binds once in the calling process to report a taken port at
 * once, then either serves in this process ("workers" => 0) or forks the
 * workers under the supervisor (src/process.c). The master opens one
 * SO_REUSEPORT listener per worker slot and keeps it; each worker serves
 * its slot's listener and runs a scheduler whose main coroutine is the
 * private workerMain(): it starts the HTTP engine on the worker's loop,
 * watches SIGTERM/SIGINT/SIGQUIT through a signalfd, and runs the
 * workerStart handler. Every request then runs the request handler in a
 * coroutine of its own. On a stop signal the engine drains: the listener
 * closes, idle connections close, workerStopping runs beside the handlers
 * still running, which finish (bounded by shutdown_timeout), then, once
 * workerStopping has returned too, workerStop runs and the scheduler returns.
 */
#include "php_rapier.h"
#include "zend_exceptions.h"
#include "php_open_temporary_file.h"

#include <fcntl.h>
#include <signal.h>
#include <pthread.h>
#include <sys/signalfd.h>
#include <unistd.h>
#include <openssl/ssl.h>

#include "child_signals.h"
#include "coroutine.h"
#include "hook.h"
#include "http.h"
#include "process.h"
#include "sigwait.h"
#include "stdio_hook.h"
#include "http_task.h"
#include "http_server_object.h"
#include "http_server_arginfo.h"

zend_class_entry *rapier_ce_http_server;
static zend_object_handlers server_handlers;

/* The server this worker process runs (one per process). */
static server_t *worker_server;

/*
 * A worker that asked to be recycled asks again this often until the
 * master's SIGTERM comes: a request lost in a full pipe, or made while the
 * master was busy with a reload, is not lost for good.
 */
#define RECYCLE_REPEAT_MS 1000

/* How long after shutdown_timeout the master waits before it SIGKILLs a stopping worker. */
#define MASTER_KILL_GRACE_MS 5000

static const char *event_names[EV_COUNT] = {
	"request", "workerStart", "workerStopping", "workerStop", "task", "message"
};

static zend_object *server_create(zend_class_entry *ce)
{
	server_t *srv = zend_object_alloc(sizeof(server_t), ce);

	zend_object_std_init(&srv->std, ce);
	object_properties_init(&srv->std, ce);
	srv->std.handlers = &server_handlers;
	rapier_http_config_default(&srv->cfg);
	srv->workers = sysconf(_SC_NPROCESSORS_ONLN) > 0 ? sysconf(_SC_NPROCESSORS_ONLN) : 1;
	srv->shutdown_timeout_ns = 30 * (int64_t) 1000000000;
	srv->worker_id = -1;
	srv->listen_fd = -1;
	srv->plain_fd = -1;
	srv->https_redirect = -1;
	srv->signal_fd = -1;
	srv->tls_min_version = TLS1_2_VERSION;
	srv->tls_verify_depth = -1;
	rapier_tasks_init(&srv->tasks);
	srv->tasks.server = &srv->std;
	rapier_messages_init(&srv->messages);
	srv->messages.server = &srv->std;
	for (int i = 0; i < EV_COUNT; i++) {
		ZVAL_UNDEF(&srv->handlers[i]);
	}
	ZVAL_UNDEF(&srv->user_processes);
	return &srv->std;
}

/*
 * A server that has stopped calls none of its callbacks again (start() runs
 * once): they go when start() ends, or when a server never started is
 * freed, and with them what they captured. A callback that captured the
 * server itself (use ($server)) would otherwise hold it in a cycle that
 * PHP's end-of-script shutdown does not collect.
 */
static void release_callbacks(server_t *srv)
{
	zval handlers[EV_COUNT], user_processes;

	/* Detached first: a destructor the release runs may call the server. */
	memcpy(handlers, srv->handlers, sizeof(handlers));
	ZVAL_COPY_VALUE(&user_processes, &srv->user_processes);
	for (int i = 0; i < EV_COUNT; i++) {
		ZVAL_UNDEF(&srv->handlers[i]);
		srv->fcc[i] = empty_fcall_info_cache;
	}
	ZVAL_UNDEF(&srv->user_processes);
	if (srv->user_process_fcc) {
		efree(srv->user_process_fcc);
		srv->user_process_fcc = NULL;
	}
	for (int i = 0; i < EV_COUNT; i++) {
		zval_ptr_dtor(&handlers[i]);
	}
	zval_ptr_dtor(&user_processes);
}

static void close_plain_listener(server_t *srv)
{
	if (srv->plain_fd >= 0) {
		close(srv->plain_fd);
		srv->plain_fd = -1;
	}
}

static void server_free(zend_object *obj)
{
	server_t *srv = server_from(obj);

	release_callbacks(srv);
	if (srv->host) {
		zend_string_release(srv->host);
	}
	if (srv->document_root) {
		zend_string_release(srv->document_root);
	}
	if (srv->server_name) {
		zend_string_release(srv->server_name);
	}
	if (srv->real_ip_header) {
		zend_string_release(srv->real_ip_header);
	}
	if (srv->real_scheme_header) {
		zend_string_release(srv->real_scheme_header);
	}
	if (srv->real_ip_from) {
		efree(srv->real_ip_from);
	}
	if (srv->pid_file) {
		zend_string_release(srv->pid_file);
	}
	if (srv->access_log_path) {
		zend_string_release(srv->access_log_path);
	}
	if (srv->error_log_path) {
		zend_string_release(srv->error_log_path);
	}
	if (srv->tls_cert_file) {
		zend_string_release(srv->tls_cert_file);
	}
	if (srv->tls_key_file) {
		zend_string_release(srv->tls_key_file);
	}
	if (srv->tls_ciphers) {
		zend_string_release(srv->tls_ciphers);
	}
	if (srv->tls_client_ca_file) {
		zend_string_release(srv->tls_client_ca_file);
	}
	if (srv->tls_crl_file) {
		zend_string_release(srv->tls_crl_file);
	}
	rapier_http_server_free_certificate_files(srv);
	rapier_http_tls_ctx_free(srv->cfg.tls);
	rapier_tasks_free(&srv->tasks);
	rapier_messages_free(&srv->messages);
	if (srv->static_root_open) {
		rapier_static_root_close(&srv->static_root);
	}
	if (srv->listen_fd >= 0) {
		close(srv->listen_fd);
	}
	close_plain_listener(srv);
	zend_object_std_dtor(obj);
}

static HashTable *server_get_gc(zend_object *obj, zval **table, int *n)
{
	server_t *srv = server_from(obj);
	zend_get_gc_buffer *buf = zend_get_gc_buffer_create();

	for (int i = 0; i < EV_COUNT; i++) {
		zend_get_gc_buffer_add_zval(buf, &srv->handlers[i]);
	}
	zend_get_gc_buffer_add_zval(buf, &srv->user_processes);
	zend_get_gc_buffer_use(buf, table, n);
	return zend_std_get_properties(obj);
}

ZEND_METHOD(Rapier_Http_Server, __construct)
{
	server_t *srv = server_from(Z_OBJ_P(ZEND_THIS));
	zend_string *host = NULL;
	zend_long port = 8080;
	HashTable *opts = NULL;

	ZEND_PARSE_PARAMETERS_START(0, 3)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR(host)
		Z_PARAM_LONG(port)
		Z_PARAM_ARRAY_HT(opts)
	ZEND_PARSE_PARAMETERS_END();

	if (port < 0 || port > 65535) {
		zend_argument_value_error(2, "must be between 0 and 65535");
		RETURN_THROWS();
	}
	srv->host = host ? zend_string_copy(host) : zend_string_init(ZEND_STRL("127.0.0.1"), 0);
	srv->port = port;
	if (opts && !rapier_http_server_parse_options(srv, opts)) {
		RETURN_THROWS();
	}
}

ZEND_METHOD(Rapier_Http_Server, on)
{
	server_t *srv = server_from(Z_OBJ_P(ZEND_THIS));
	zend_string *event;
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	int i;

	ZEND_PARSE_PARAMETERS_START(2, 2)
		Z_PARAM_STR(event)
		Z_PARAM_FUNC(fci, fcc)
	ZEND_PARSE_PARAMETERS_END();

	for (i = 0; i < EV_COUNT; i++) {
		if (zend_string_equals_cstr(event, event_names[i], strlen(event_names[i]))) {
			break;
		}
	}
	if (i == EV_COUNT) {
		zend_argument_value_error(1,
			"must be one of \"request\", \"workerStart\", \"workerStopping\", \"workerStop\", \"task\" or \"message\"");
		RETURN_THROWS();
	}
	if (srv->started) {
		zend_throw_exception(rapier_ce_exception, "Cannot set a handler once the server has started", 0);
		RETURN_THROWS();
	}
	zval_ptr_dtor(&srv->handlers[i]);
	ZVAL_COPY(&srv->handlers[i], &fci.function_name);
	srv->fcc[i] = fcc;
	RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
}

/* How many addProcess() callables a server takes; the master's cap per role. */
#define MAX_USER_PROCESSES 1024

ZEND_METHOD(Rapier_Http_Server, addProcess)
{
	server_t *srv = server_from(Z_OBJ_P(ZEND_THIS));
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	uint32_t n;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_FUNC(fci, fcc)
	ZEND_PARSE_PARAMETERS_END();

	if (srv->started) {
		zend_throw_exception(rapier_ce_exception, "Cannot add a process once the server has started", 0);
		RETURN_THROWS();
	}
	if (srv->workers == 0) {
		zend_throw_exception(rapier_ce_exception,
			"Cannot add a process to a server without a master: set the \"workers\" option to 1 or more", 0);
		RETURN_THROWS();
	}
	if (Z_TYPE(srv->user_processes) == IS_UNDEF) {
		array_init(&srv->user_processes);
	}
	n = zend_hash_num_elements(Z_ARRVAL(srv->user_processes));
	if (n >= MAX_USER_PROCESSES) {
		zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot add more than %d processes", MAX_USER_PROCESSES);
		RETURN_THROWS();
	}
	Z_TRY_ADDREF(fci.function_name);
	add_next_index_zval(&srv->user_processes, &fci.function_name);
	/* Kept as resolved here: a private method is callable from this scope, not from the child's. */
	srv->user_process_fcc = safe_erealloc(srv->user_process_fcc, n + 1, sizeof(fcc), 0);
	srv->user_process_fcc[n] = fcc;
	RETURN_LONG((zend_long) n);
}

static unsigned user_process_count(const server_t *srv)
{
	return Z_TYPE(srv->user_processes) == IS_ARRAY ? zend_hash_num_elements(Z_ARRVAL(srv->user_processes)) : 0;
}

/* Requests */

static void begin_stop(server_t *srv);

/*
 * max_requests or max_memory reached. A forked worker asks the master for a
 * successor and serves on, connections and keep-alive as before, until the
 * master's SIGTERM says the successor is ready. Stopping before that would
 * leave its slot's connections waiting on a start that may take long, or
 * fail for good (broken code on disk): a failed successor is retried with
 * the crash back-off while this process still serves. A single process has
 * no successor: it stops.
 */
static void on_recycle_timer(rapier_timer_t *timer)
{
	server_t *srv = timer->data;

	if (!srv->in_child) {
		begin_stop(srv);
		return;
	}
	rapier_worker_recycle(&srv->master.self);
}

/*
 * The request is sent from the loop, since the engine tells of max_requests
 * deep inside the request that reached it; a forked worker repeats it until
 * the drain stops the timer.
 */
static void recycle_self(server_t *srv)
{
	if (srv->stopping || rapier_timer_is_active(&srv->recycle_timer)) {
		return;
	}
	rapier_timer_start(rapier_sched_loop(), &srv->recycle_timer, 0,
		srv->in_child ? (uint64_t) RECYCLE_REPEAT_MS * 1000000 : 0);
}

static void on_http_limit(rapier_http_server_t *http, void *data)
{
	(void) http;
	recycle_self(data);
}

/* The limit on concurrent handlers now: where latency_target has taken it, or the fixed one (0: none). */
static zend_long concurrency_limit(const server_t *srv)
{
	return srv->http_ready ? rapier_http_limit_current(&srv->http.limit) : srv->cfg.max_concurrency;
}

/*
 * This worker's counters in the master's status table (rapier status,
 * metrics): published whenever the HTTP server's counters change
 * (on_http_stats), so a response is counted before a client can see it.
 */
static void publish_status(server_t *srv)
{
	if (srv->in_child) {
		rapier_status_counters_t counters = {
			.requests = srv->http.stats.requests,
			.shed = srv->http.stats.shed,
			.abandoned = srv->http.stats.abandoned,
			.slow = srv->http.stats.slow,
			.tls_handshake_failures = srv->http.stats.tls_handshake_failures,
			.memory = zend_memory_usage(0),
			.in_flight = srv->http.stats.handling,
			.connections = srv->http.stats.connections,
			.websockets = srv->http.stats.websockets,
			.concurrency_limit = (uint32_t) concurrency_limit(srv),
		};
		rapier_status_self_update(srv->master.self.status, &counters);
	}
}

static void on_http_stats(rapier_http_server_t *http, void *data)
{
	(void) http;
	publish_status(data);
}

/*
 * data: the Response, which the coroutine's arguments hold until after this
 * runs. Only they hold it for the coroutine: an exit() elsewhere that unwinds
 * this one, which then never gets here, must not leave it referenced.
 */
static void on_request_done(rapier_coro_t *co, zval *retval, zend_object *exception, void *data)
{
	server_t *srv = NULL;

	(void) co;
	(void) retval;
	rapier_http_response_handler_done(data, exception);
	if (exception) {
		OBJ_RELEASE(exception);
	}
	srv = worker_server;
	if (srv == NULL || !srv->http_ready) {
		return;
	}
	if (srv->max_memory && zend_memory_usage(0) > srv->max_memory) {
		recycle_self(srv);
	}
}

#define HANDLER_ARG_REQUEST 0
#define HANDLER_ARG_RESPONSE 1

/*
 * The Request or the Response of the request whose handler runs in co: its
 * coroutine holds them as its arguments until it ends. NULL for any other
 * coroutine (those a handler starts are not handlers: pass them what they need).
 */
static zend_object *handler_arg(rapier_coro_t *co, uint32_t i)
{
	if (co == NULL || co->on_finish != on_request_done || co->argc <= i || Z_TYPE(co->args[i]) != IS_OBJECT) {
		return NULL;
	}
	return Z_OBJ(co->args[i]);
}

/* php://input: the body of the request whose handler is running. */
static php_stream *open_request_input(void)
{
	zend_object *request = handler_arg(rapier_coro_current(), HANDLER_ARG_REQUEST);

	return request ? rapier_http_request_input(request) : NULL;
}

zend_object *rapier_http_current_response(void)
{
	return handler_arg(rapier_coro_current(), HANDLER_ARG_RESPONSE);
}

/* The response of a handler still running was cut: its onAbort() callbacks start. */
static void on_http_abort(rapier_http_conn_t *conn, void *data)
{
	zend_object *response = handler_arg(conn->handler_co, HANDLER_ARG_RESPONSE);

	(void) data;
	if (response) {
		rapier_http_response_aborted(response);
	}
}

static void dispatch(rapier_http_conn_t *conn, void *data)
{
	server_t *srv = data;
	zval args[2];
	rapier_coro_t *co;

	rapier_http_sapi_request_begin();
	rapier_http_request_new(&args[0], conn);
	rapier_http_response_new(&args[1], conn, srv->debug);
	co = rapier_coro_spawn_ex(&srv->handlers[EV_REQUEST], &srv->fcc[EV_REQUEST], args, 2, on_request_done,
		Z_OBJ(args[1]));
	conn->handler_co = co;
	if (co == NULL) {
		zend_clear_exception();
		rapier_http_response_handler_done(Z_OBJ(args[1]), NULL);
	} else {
		/* exit() in a handler ends its request, not the worker's other requests. */
		co->trap_exit = true;
	}
	zval_ptr_dtor(&args[0]);
	zval_ptr_dtor(&args[1]);
}

/* Worker life */

static void call_handler(server_t *srv, int event)
{
	zval args[2], retval;

	if (Z_TYPE(srv->handlers[event]) == IS_UNDEF) {
		return;
	}
	ZVAL_OBJ_COPY(&args[0], &srv->std);
	ZVAL_LONG(&args[1], srv->worker_id);
	if (call_user_function(NULL, NULL, &srv->handlers[event], &retval, 2, args) == SUCCESS) {
		zval_ptr_dtor(&retval);
	}
	zval_ptr_dtor(&args[0]);
}

/*
 * Ends what the process's code left running: pending timers are cleared
 * and every other coroutine is canceled (each wait throws
 * CanceledException, finally blocks run). Left alone, a sleep loop or a
 * Timer::tick() would keep the run from ending, and a pop from a channel
 * nobody pushes to would end it in a DeadlockException.
 */
static void cancel_leftovers(void)
{
	rapier_user_timers_clear();
	rapier_coro_cancel_all();
}

/*
 * Once the server is done and both workerStart and workerStop have returned
 * (a stop may drain the server while workerStart still waits on I/O), what
 * still runs was left behind: a ticker or a consumer started in
 * workerStart, a coroutine a handler started and never waited for.
 */
static void end_leftovers(server_t *srv)
{
	if (srv->start_returned && srv->stop_returned) {
		cancel_leftovers();
	}
}

static void on_worker_stop_done(rapier_coro_t *co, zval *retval, zend_object *exception, void *data)
{
	server_t *srv = data;

	(void) retval;
	if (exception) {
		rapier_coro_report_uncaught(co, exception);
		OBJ_RELEASE(exception);
	}
	srv->stop_returned = true;
	end_leftovers(srv);
}

/* The stop is over but for workerStop: shutdown_timeout and stop signals have nothing left to cut short. */
static void run_worker_stop(server_t *srv)
{
	zval args[2];

	rapier_timer_stop(rapier_sched_loop(), &srv->shutdown_timer);
	if (srv->signal_fd >= 0) {
		rapier_io_stop(rapier_sched_loop(), &srv->signal_io);
	}
	if (Z_TYPE(srv->handlers[EV_WORKER_STOP]) == IS_UNDEF) {
		srv->stop_returned = true;
		end_leftovers(srv);
		return;
	}
	ZVAL_OBJ(&args[0], &srv->std);
	ZVAL_LONG(&args[1], srv->worker_id);
	if (rapier_coro_spawn_ex(&srv->handlers[EV_WORKER_STOP], &srv->fcc[EV_WORKER_STOP], args, 2,
			on_worker_stop_done, srv) == NULL) {
		srv->stop_returned = true;
		end_leftovers(srv);
	}
}

static void on_worker_stopping_done(rapier_coro_t *co, zval *retval, zend_object *exception, void *data)
{
	server_t *srv = data;

	(void) retval;
	if (exception) {
		rapier_coro_report_uncaught(co, exception);
		OBJ_RELEASE(exception);
	}
	srv->stopping_co = NULL;
	if (srv->drained) {
		run_worker_stop(srv);
	}
}

/*
 * A graceful stop has begun: workerStopping tells the application in a
 * coroutine of its own while the handlers still run, so that one serving a
 * long-lived response (a stream, a long poll) can end it instead of holding
 * the worker until shutdown_timeout cancels it.
 */
static void start_worker_stopping(server_t *srv)
{
	zval args[2];

	if (Z_TYPE(srv->handlers[EV_WORKER_STOPPING]) == IS_UNDEF) {
		return;
	}
	ZVAL_OBJ(&args[0], &srv->std);
	ZVAL_LONG(&args[1], srv->worker_id);
	srv->stopping_co = rapier_coro_spawn_ex(&srv->handlers[EV_WORKER_STOPPING], &srv->fcc[EV_WORKER_STOPPING],
		args, 2, on_worker_stopping_done, srv);
}

/*
 * workerStopping does not hold the drain, but workerStop comes after it:
 * until it returns, shutdown_timeout and SIGQUIT may still cancel it.
 */
static void worker_drained(server_t *srv)
{
	rapier_timer_stop(rapier_sched_loop(), &srv->recycle_timer);
	srv->drained = true;
	if (srv->stopping_co == NULL) {
		run_worker_stop(srv);
	}
}

/* A worker has drained once its HTTP server (or its tasks) and its messages have. */
static void part_drained(server_t *srv)
{
	if (srv->draining_parts > 0 && --srv->draining_parts == 0) {
		worker_drained(srv);
	}
}

static void on_drained(rapier_http_server_t *http, void *data)
{
	(void) http;
	part_drained(data);
}

static void on_tasks_drained(rapier_tasks_t *tasks)
{
	part_drained(server_from(tasks->server));
}

static void on_messages_drained(rapier_messages_t *messages)
{
	part_drained(server_from(messages->server));
}

/* Cancels the running request handlers and workerStopping (their waits throw) and closes every connection. */
static void abort_requests(server_t *srv)
{
	rapier_http_conn_t *conn, *next;

	if (srv->stopping_co) {
		/* Soon: were its wait answered already, its next one is canceled, as no timer bounds it any more. */
		rapier_coro_cancel_soon(srv->stopping_co);
	}
	rapier_messages_abort(&srv->messages);
	if (srv->is_task_worker) {
		rapier_tasks_abort(&srv->tasks);
		return;
	}
	/* Handlers whose connection already closed (a failed write) run on: they are canceled too. */
	for (conn = rapier_http_handler_of(srv->http.handlers.head); conn; conn = next) {
		next = rapier_http_handler_of(conn->handling.next);
		if (conn->handler_co) {
			rapier_coro_cancel(conn->handler_co);
		}
	}
	rapier_http_server_abort(&srv->http);
}

static void on_shutdown_timeout(rapier_timer_t *timer)
{
	server_t *srv = timer->data;

	/* Handlers still running past shutdown_timeout are canceled and lose their clients; workerStopping too. */
	abort_requests(srv);
}

/* Closes the listeners and lets what runs finish, up to shutdown_timeout; worker_drained() follows. */
static void drain(server_t *srv)
{
	rapier_timer_start(rapier_sched_loop(), &srv->shutdown_timer, (uint64_t) srv->shutdown_timeout_ns, 0);
	srv->draining_parts = 2;
	rapier_messages_drain(&srv->messages, on_messages_drained);
	if (srv->is_task_worker) {
		rapier_tasks_drain(&srv->tasks, on_tasks_drained);
		return;
	}
	rapier_http_server_drain(&srv->http, on_drained, srv);
}

/* A graceful stop. */
static void begin_stop(server_t *srv)
{
	if (srv->stopping) {
		return;
	}
	srv->stopping = true;
	/* Queued first: a drain with nothing to wait for ends at once, and workerStop must wait for it. */
	start_worker_stopping(srv);
	drain(srv);
}

/*
 * SIGQUIT: what runs is canceled now rather than asked to finish, so a stop
 * that begins here runs no workerStopping; one a graceful stop started is
 * canceled with the handlers.
 */
static void stop_now(server_t *srv)
{
	abort_requests(srv);
	if (!srv->stopping) {
		srv->stopping = true;
		drain(srv);
	}
}

static void on_signal(rapier_io_t *io, uint32_t events)
{
	server_t *srv = io->data;
	struct signalfd_siginfo info;

	while (read(srv->signal_fd, &info, sizeof(info)) == sizeof(info)) {
		if (info.ssi_signo == SIGQUIT) {
			stop_now(srv);
		} else {
			begin_stop(srv);
		}
	}
}

/*
 * Coroutine::waitSignal() must not take the server's stop signals, nor in a
 * forked worker the reload signals that belong to the master (child_main).
 */
static void reserve_signals(server_t *srv, const sigset_t *stop)
{
	sigset_t owned = *stop;

	if (srv->in_child) {
		sigaddset(&owned, SIGHUP);
		sigaddset(&owned, SIGUSR1);
		sigaddset(&owned, SIGUSR2);
	}
	rapier_sigwait_reserve(&owned, "the HTTP server owns it in this worker (a stop or a reload ends the worker). Do the work that must run at a stop "
		"in the workerStopping event ($server->on('workerStopping', ...)), which runs as the stop begins, beside the "
		"requests still being handled, or in workerStop, which runs once the worker has drained");
}

/*
 * What a worker changed in its signal dispositions for its own sake: the
 * stop signals watch_signals() blocked and the master's signals child_main()
 * ignores, where they were not so before. A process forked from the worker
 * (proc_open(), pcntl_fork()) gets them back as they were, or
 * proc_terminate() could not stop the program it runs: masks and ignored
 * signals survive exec.
 */
static sigset_t blocked_for_worker, ignored_for_worker;
static bool worker_blocks_signals;

/*
 * What a program started from the worker gets back (child_signals.h): the
 * stop signals blocked, and the master's signals ignored, unless the
 * application has installed a handler of its own since. Async-signal-safe.
 */
static void worker_signals_for_child(sigset_t *unblock, sigset_t *to_default)
{
	struct sigaction now;

	for (int signo = 1; signo < NSIG; signo++) {
		if (worker_blocks_signals && sigismember(&blocked_for_worker, signo) == 1) {
			sigaddset(unblock, signo);
		}
		if (sigismember(&ignored_for_worker, signo) == 1 && sigaction(signo, NULL, &now) == 0
				&& !(now.sa_flags & SA_SIGINFO) && now.sa_handler == SIG_IGN) {
			sigaddset(to_default, signo);
		}
	}
}

/* pthread_atfork() child handler: only async-signal-safe calls. */
static void undo_worker_signals_in_child(void)
{
	sigset_t unblock, to_default;
	struct sigaction dfl;

	sigemptyset(&unblock);
	sigemptyset(&to_default);
	worker_signals_for_child(&unblock, &to_default);
	sigprocmask(SIG_UNBLOCK, &unblock, NULL);
	worker_blocks_signals = false;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (int signo = 1; signo < NSIG; signo++) {
		if (sigismember(&to_default, signo) == 1) {
			sigaction(signo, &dfl, NULL);
		}
	}
	sigemptyset(&ignored_for_worker);
}

/* Ignores signo in this worker (see child_main()), remembering to undo it in forked children. */
static void ignore_for_worker(int signo)
{
	struct sigaction ign, old;

	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	if (sigaction(signo, &ign, &old) == 0 && !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL) {
		sigaddset(&ignored_for_worker, signo);
	}
}

static void watch_signals(server_t *srv)
{
	sigset_t mask;

	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGQUIT);
	sigprocmask(SIG_BLOCK, &mask, &srv->old_mask);
	rapier_sigset_minus(&blocked_for_worker, &mask, &srv->old_mask);
	worker_blocks_signals = true;
	reserve_signals(srv, &mask);
	srv->signal_fd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (srv->signal_fd < 0) {
		return;
	}
	rapier_io_init(&srv->signal_io, srv->signal_fd, on_signal, srv);
	/* A stop signal may come or not: it must not keep the loop alive by itself. */
	rapier_io_set_unref(rapier_sched_loop(), &srv->signal_io, true);
	rapier_io_start(rapier_sched_loop(), &srv->signal_io, RAPIER_IO_READ);
}

static void unwatch_signals(server_t *srv)
{
	rapier_sigwait_reserve(NULL, NULL);
	worker_blocks_signals = false;
	if (srv->signal_fd >= 0) {
		close(srv->signal_fd);
		srv->signal_fd = -1;
	}
	/*
	 * A forked worker is about to exit: a late SIGTERM from the master (sent
	 * after a recycle) must not kill it by default action now, so the signals
	 * stay blocked there.
	 */
	if (!srv->in_child) {
		sigprocmask(SIG_SETMASK, &srv->old_mask, NULL);
	}
}

/*
 * The scheduler stops: normally the server has drained by then and nothing
 * is left; after a fatal error (the scheduler is abandoned mid-request) the
 * requests being handled get a last 500 before the process ends, and the
 * master replaces the worker.
 */
static void on_sched_stop(void)
{
	server_t *srv = worker_server;

	if (srv && srv->http_ready && !srv->is_task_worker) {
		rapier_http_server_fail(&srv->http);
	}
}

static void ignore_tasks_drained(rapier_tasks_t *tasks)
{
	(void) tasks;
}

/*
 * The TLS context of the HTTPS options, or NULL with Rapier\Exception
 * thrown. Each worker loads the files itself, so a reload serves a renewed
 * certificate; the session ticket keys come from the master, so a session
 * resumes on whichever worker the next connection lands.
 */
static rapier_http_tls_ctx_t *load_tls(server_t *srv)
{
	rapier_http_tls_config_t cfg = {
		.cert_file = ZSTR_VAL(srv->tls_cert_file),
		.key_file = srv->tls_key_file ? ZSTR_VAL(srv->tls_key_file) : NULL,
		.min_version = srv->tls_min_version,
		.ciphers = srv->tls_ciphers ? ZSTR_VAL(srv->tls_ciphers) : NULL,
		.ticket_key = srv->tls_ticket_key,
		.verify_client = (rapier_http_tls_verify_t) srv->tls_verify_client,
		.client_ca_file = srv->tls_client_ca_file ? ZSTR_VAL(srv->tls_client_ca_file) : NULL,
		.verify_depth = srv->tls_verify_depth,
		.client_crl_file = srv->tls_crl_file ? ZSTR_VAL(srv->tls_crl_file) : NULL,
		.http2 = srv->cfg.http2,
	};
	char err[512];
	rapier_http_tls_ctx_t *ctx;

	if (srv->tls_certificate_count > 0) {
		rapier_http_tls_identity_t *more = safe_emalloc(srv->tls_certificate_count, sizeof(*more), 0);

		for (uint32_t i = 0; i < srv->tls_certificate_count; i++) {
			zend_string *key = srv->tls_certificate_files[2 * i + 1];
			more[i].cert_file = ZSTR_VAL(srv->tls_certificate_files[2 * i]);
			more[i].key_file = key ? ZSTR_VAL(key) : NULL;
		}
		cfg.sni_identities = more;
		cfg.sni_count = srv->tls_certificate_count;
	}
	ctx = rapier_http_tls_ctx_new(&cfg, err, sizeof(err));
	if (cfg.sni_identities) {
		efree((void *) cfg.sni_identities);
	}
	if (ctx == NULL) {
		zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot serve HTTPS: %s", err);
	}
	return ctx;
}

static zif_handler stock_pcntl_fork;

/*
 * pcntl_fork() in a process that serves: the child would be a second copy
 * of the worker holding its connections, and the child's end (its handler
 * returning, exit(), its run's end) would answer and close the requests it
 * copied while the worker still serves them. Refused, as under php-fpm (no
 * pcntl there) and Swoole (no fork inside a coroutine); outside serving,
 * pcntl_fork() is PHP's.
 */
static ZEND_NAMED_FUNCTION(guarded_pcntl_fork)
{
	if (worker_server != NULL) {
		zend_throw_exception(rapier_ce_exception,
			"Cannot pcntl_fork() a process of the server while it serves: the child would be a second copy of it, "
			"with its connections, coroutines and timers. Run a command with proc_open() or exec(), and work in "
			"the background with Server::task() or a user process (Server::addProcess())", 0);
		RETURN_THROWS();
	}
	stock_pcntl_fork(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

/* Once per process, when it first serves: ext/pcntl may be loaded after Rapier. */
static void guard_pcntl_fork(void)
{
	if (stock_pcntl_fork == NULL) {
		stock_pcntl_fork = rapier_hook_replace_handler(ZEND_STRL("pcntl_fork"), guarded_pcntl_fork);
	}
}

/* A worker's main coroutine. */
ZEND_METHOD(Rapier_Http_Server, workerMain)
{
	server_t *srv = server_from(Z_OBJ_P(ZEND_THIS));

	ZEND_PARSE_PARAMETERS_NONE();
	if ((srv->listen_fd < 0 && !srv->is_task_worker) || srv->http_ready || !rapier_sched_running()) {
		zend_throw_exception(rapier_ce_exception, "Cannot call workerMain(): the server calls it in each worker", 0);
		RETURN_THROWS();
	}
	if (srv->static_root_open) {
		srv->cfg.static_root = &srv->static_root;
	}
	if (srv->access_log_path) {
		int rc = rapier_access_log_open(&srv->access_log, ZSTR_VAL(srv->access_log_path),
			(rapier_access_log_format_t) srv->access_log_format);
		if (rc < 0) {
			zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot open access_log %s: %s",
				ZSTR_VAL(srv->access_log_path), strerror(-rc));
			RETURN_THROWS();
		}
		srv->access_log_open = true;
		rapier_access_log_attach(&srv->access_log, rapier_sched_loop());
		srv->cfg.access_log = &srv->access_log;
	}
	if (srv->tls_cert_file && !srv->is_task_worker && (srv->cfg.tls = load_tls(srv)) == NULL) {
		RETURN_THROWS();
	}
	srv->cfg.worker_id = (int) srv->worker_id;
	srv->cfg.https_redirect_port = srv->http_port ? (int) srv->https_redirect : 0;
	/* Both strings live as long as the process: the ini value, or PHP's cached temporary directory. */
	srv->cfg.upload_tmp_dir = PG(upload_tmp_dir) && *PG(upload_tmp_dir) ? PG(upload_tmp_dir)
		: php_get_temporary_directory();
	/* PHP's own upload limits, as php-fpm applies them (they cannot change at run time). */
	srv->cfg.upload_max_file_size = PG(upload_max_filesize) > 0 ? (uint64_t) PG(upload_max_filesize) : 0;
	srv->cfg.max_file_uploads = PG(file_uploads) ? MAX(zend_ini_long(ZEND_STRL("max_file_uploads"), 0), 0) : 0;
	if (srv->worker_id == 0 && !srv->is_task_worker && access(srv->cfg.upload_tmp_dir, W_OK | X_OK) != 0) {
		/* Said once, at start: otherwise only the clients would learn it, one failed upload at a time. */
		php_error_docref(NULL, E_WARNING, "upload_tmp_dir %s is not a writable directory (%s): multipart uploads will "
			"get UPLOAD_ERR_NO_TMP_DIR, and bodies past body_buffer_size a 500", srv->cfg.upload_tmp_dir, strerror(errno));
	}
	if (!srv->is_task_worker) {
		rapier_http_server_init(&srv->http, &srv->cfg, rapier_sched_loop(), srv->listen_fd, dispatch, srv);
		srv->http.on_limit = on_http_limit;
		srv->http.on_abort = on_http_abort;
		if (srv->in_child) {
			srv->http.on_stats = on_http_stats;
		}
		srv->listen_fd = -1;
		if (srv->plain_fd >= 0) {
			/* The master keeps the socket, and the other workers accept from it. */
			rapier_http_server_add_plain_listener(&srv->http, srv->plain_fd, srv->in_child);
			srv->plain_fd = -1;
		}
		if (srv->task_workers > 0) {
			rapier_tasks_client_start(&srv->tasks, !srv->in_child);
		}
	}
	srv->messages.status = srv->in_child ? srv->master.self.status : NULL;
	rapier_messages_start(&srv->messages, srv->worker_id);
	srv->http_ready = true;
	worker_server = srv;
	guard_pcntl_fork();
	rapier_sched_on_stop(on_sched_stop);
	rapier_timer_init(&srv->shutdown_timer, on_shutdown_timeout, srv);
	rapier_timer_init(&srv->recycle_timer, on_recycle_timer, srv);
	watch_signals(srv);
	call_handler(srv, EV_WORKER_START);
	if (EG(exception)) {
		/*
		 * workerStart failed (the application does not load): this worker
		 * must not serve, nor be reported ready. The exception ends the
		 * scheduler and then the process, so the master sees a worker that
		 * died before it was ready (a failed start, an abandoned reload).
		 */
		srv->stopping = true;
		if (srv->is_task_worker) {
			rapier_tasks_drain(&srv->tasks, ignore_tasks_drained);
		} else {
			rapier_http_server_abort(&srv->http);
		}
		/* What workerStart started before it failed would hold the exception back for ever. */
		cancel_leftovers();
		return;
	}
	srv->start_returned = true;
	/*
	 * Only now, with the application ready, are connections (or tasks)
	 * taken: workerStart may have waited on I/O, and the loop ran meanwhile.
	 * A stop that came during workerStart has already begun the drain, and
	 * may have finished it.
	 */
	end_leftovers(srv);
	if (!srv->stopping) {
		if (srv->is_task_worker) {
			rapier_tasks_serve(&srv->tasks, srv->master.self.index);
		} else {
			rapier_http_server_start(&srv->http);
		}
		rapier_messages_serve(&srv->messages, (unsigned) srv->worker_id);
	}
	/* Not ready when stopping already: the master would send connections to a slot nobody serves. */
	if (srv->in_child && !srv->stopping) {
		publish_status(srv);
		rapier_worker_ready(&srv->master.self);
	}
}

static void run_worker(server_t *srv)
{
	zval callable;
	zend_fcall_info_cache fcc;
	zval retval;

	ZVAL_UNDEF(&retval);
	memset(&fcc, 0, sizeof(fcc));
	fcc.function_handler = zend_hash_str_find_ptr(&rapier_ce_http_server->function_table, ZEND_STRL("workermain"));
	fcc.object = &srv->std;
	fcc.called_scope = rapier_ce_http_server;
	fcc.calling_scope = rapier_ce_http_server;
	ZVAL_STR(&callable, zend_string_init(ZEND_STRL("Rapier\\Http\\Server::workerMain"), 0));
	rapier_sched_run(&callable, &fcc, NULL, 0, &retval);
	zval_ptr_dtor(&callable);
	zval_ptr_dtor(&retval);
}

static void serve_worker(server_t *srv)
{
	rapier_http_sapi_capture_begin();
	run_worker(srv);
	rapier_http_sapi_capture_end();
	if (srv->access_log_open) {
		rapier_access_log_close(&srv->access_log);
		srv->access_log_open = false;
		srv->cfg.access_log = NULL;
	}
	if (srv->http_ready) {
		unwatch_signals(srv);
		if (!srv->is_task_worker) {
			rapier_http_server_free(&srv->http);
		}
		rapier_http_tls_ctx_free(srv->cfg.tls);
		srv->cfg.tls = NULL;
		srv->http_ready = false;
		worker_server = NULL;
	}
	rapier_tasks_free(&srv->tasks);
	rapier_messages_free(&srv->messages);
}

/* In a forked worker: bind, serve until stopped, then end the process (never return to the script). */
static void close_slot_fds(server_t *srv, int keep)
{
	for (unsigned i = 0; i < srv->slot_count; i++) {
		if (srv->slot_fds[i] >= 0 && srv->slot_fds[i] != keep) {
			close(srv->slot_fds[i]);
		}
	}
	efree(srv->slot_fds);
	srv->slot_fds = NULL;
	srv->slot_count = 0;
}

/*
 * A user process: the callable runs as the main coroutine of a scheduler of
 * its own, so go(), channels, timers and the hooks work as in a worker. It
 * has no listener and no signal handling of its own: SIGTERM at its default
 * ends it, unless the callable installed a handler. Whatever way it ends,
 * the process exits here and the master starts another, as for a crash.
 */
static void run_user_process(server_t *srv)
{
	unsigned index = srv->master.self.index;
	zval *callable = zend_hash_index_find(Z_ARRVAL(srv->user_processes), index);
	zval args[2], retval;

	ZVAL_UNDEF(&retval);
	EG(exit_status) = 0;
	rapier_worker_ready(&srv->master.self);
	ZVAL_OBJ_COPY(&args[0], &srv->std);
	ZVAL_LONG(&args[1], (zend_long) index);
	/* It sends messages (no worker id of its own), but takes none. */
	srv->messages.status = srv->in_child ? srv->master.self.status : NULL;
	rapier_messages_start(&srv->messages, -1);
	/* A callable that throws is restarted: what it started must not hold the exception back. */
	rapier_sched_run_ex(callable, &srv->user_process_fcc[index], args, 2, &retval, cancel_leftovers);
	rapier_messages_free(&srv->messages);
	zval_ptr_dtor(&args[0]);
	zval_ptr_dtor(&retval);
	/*
	 * An uncaught exception is handled as at the end of a script, by the
	 * set_exception_handler() handler or as PHP's fatal error (exit status
	 * 255), and never thrown into the code after start().
	 */
	if (EG(exception) == NULL || zend_is_unwind_exit(EG(exception))) {
		return;
	}
	EG(exit_status) = 255;
	if (Z_TYPE(EG(user_exception_handler)) != IS_UNDEF) {
		zend_user_exception_handler();
	}
	if (EG(exception)) {
		zend_exception_error(EG(exception), E_ERROR);
	}
}

static void child_main(server_t *srv)
{
	unsigned index = srv->master.self.index;
	int fd = index < srv->slot_count ? srv->slot_fds[index] : -EBADF;

	srv->in_child = true;
	srv->pid = getpid();
	srv->worker_id = (zend_long) index;
	/*
	 * Signals meant for the master that reach the whole process group (a
	 * closed terminal sends SIGHUP to it; kill -USR1 -PGID): at SIG_DFL they
	 * would kill every worker at once, each death counted as a crash. The
	 * master acts on them for everyone (docs/design/processes.md).
	 */
	ignore_for_worker(SIGHUP);
	ignore_for_worker(SIGUSR1);
	ignore_for_worker(SIGUSR2);
	if (srv->master.self.role == RAPIER_ROLE_USER_PROCESS) {
		srv->worker_id = -1;
		close_slot_fds(srv, -1);
		close_plain_listener(srv);
		rapier_tasks_close_listeners(&srv->tasks, -1);
		rapier_messages_close_listeners(&srv->messages, -1);
		/*
		 * Ctrl-C and Ctrl-\ too, which workers read from their loop: the
		 * master answers SIGINT with the SIGTERM a user process may handle,
		 * SIGQUIT with SIGKILL.
		 */
		ignore_for_worker(SIGINT);
		ignore_for_worker(SIGQUIT);
		run_user_process(srv);
		rapier_master_free(&srv->master);
		if (!EG(exception)) {
			zend_throw_unwind_exit();
		}
		return;
	}
	if (srv->master.self.role == RAPIER_ROLE_TASK_WORKER) {
		/* Task workers are numbered after the request workers, as Swoole does. */
		srv->is_task_worker = true;
		srv->worker_id = srv->workers + (zend_long) index;
		close_slot_fds(srv, -1);
		close_plain_listener(srv);
		rapier_tasks_close_listeners(&srv->tasks, (int) index);
		fd = 0;
	} else {
		/* This worker serves its slot's listener only. */
		close_slot_fds(srv, fd);
		rapier_tasks_close_listeners(&srv->tasks, -1);
	}
	/* Its own message listener only: the others' addresses are kept for sending. */
	rapier_messages_close_listeners(&srv->messages, (int) srv->worker_id);
	if (fd < 0) {
		fprintf(stderr, "Rapier: worker %u cannot listen on %s:" ZEND_LONG_FMT ": %s\n", srv->master.self.index,
			ZSTR_VAL(srv->host), srv->port, strerror(-fd));
		/* Every successor would fail alike: the master stops the server instead of retrying. */
		rapier_worker_fatal(&srv->master.self);
		rapier_master_free(&srv->master);
		EG(exit_status) = 1;
		zend_throw_unwind_exit();
		return;
	}
	srv->listen_fd = srv->is_task_worker ? -1 : fd;
	serve_worker(srv);
	rapier_master_free(&srv->master);
	/* The worker is done: end its script here, with shutdown functions, as exit() would. */
	if (!EG(exception)) {
		EG(exit_status) = 0;
		zend_throw_unwind_exit();
	}
}

static void run_master(server_t *srv)
{
	rapier_master_config_t mc;
	int rc;

	/*
	 * One SO_REUSEPORT listener per worker slot, opened here and kept by the
	 * master for the server's whole life; every worker of a slot (the
	 * replacement of a crashed one, the next generation of a reload)
	 * inherits the same socket. A worker that drains or dies therefore
	 * never destroys a listen queue: connections the kernel put there wait
	 * for the slot's next worker instead of being reset.
	 */
	srv->slot_count = (unsigned) srv->workers;
	srv->slot_fds = safe_emalloc(srv->slot_count, sizeof(int), 0);
	for (unsigned i = 0; i < srv->slot_count; i++) {
		srv->slot_fds[i] = -1;
	}
	for (unsigned i = 0; i < srv->slot_count; i++) {
		srv->slot_fds[i] = rapier_http_listen(ZSTR_VAL(srv->host), (int) srv->port, srv->cfg.backlog);
		if (srv->slot_fds[i] < 0) {
			zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot listen on %s:" ZEND_LONG_FMT ": %s",
				ZSTR_VAL(srv->host), srv->port, strerror(-srv->slot_fds[i]));
			close_slot_fds(srv, -1);
			return;
		}
	}
	srv->tasks.count = (unsigned) srv->task_workers;
	if (srv->tasks.count && (rc = rapier_tasks_listen(&srv->tasks, srv->cfg.backlog)) < 0) {
		close_slot_fds(srv, -1);
		zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot open the task workers' sockets: %s", strerror(-rc));
		return;
	}
	if (Z_TYPE(srv->handlers[EV_MESSAGE]) != IS_UNDEF) {
		srv->messages.count = (unsigned) (srv->workers + srv->task_workers);
		if ((rc = rapier_messages_listen(&srv->messages, srv->cfg.backlog)) < 0) {
			close_slot_fds(srv, -1);
			rapier_tasks_free(&srv->tasks);
			zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot open the workers' message sockets: %s",
				strerror(-rc));
			return;
		}
	}
	rapier_master_config_init(&mc);
	mc.workers = (unsigned) srv->workers;
	mc.task_workers = (unsigned) srv->task_workers;
	mc.user_processes = user_process_count(srv);
	/* A worker's own shutdown_timeout runs from when it reads SIGTERM, and
	 * then it still cancels its handlers and runs workerStop: the master
	 * kills it only if it is alive a grace period after that. */
	mc.shutdown_timeout_ms = (uint32_t) (srv->shutdown_timeout_ns / 1000000) + MASTER_KILL_GRACE_MS;
	mc.pid_file = srv->pid_file ? ZSTR_VAL(srv->pid_file) : NULL;
	/* The slot listeners joined their group in index order just above, and live as long as the master. */
	mc.steer_fd = srv->slot_count > 0 ? srv->slot_fds[0] : -1;
	if ((rc = rapier_master_init(&srv->master, &mc)) < 0) {
		close_slot_fds(srv, -1);
		rapier_tasks_free(&srv->tasks);
		rapier_messages_free(&srv->messages);
		zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot start the master process: %s", strerror(-rc));
		return;
	}
	rc = rapier_master_run(&srv->master);
	if (rc == RAPIER_MASTER_CHILD) {
		child_main(srv);
		return;
	}
	close_slot_fds(srv, -1);
	close_plain_listener(srv);
	rapier_tasks_free(&srv->tasks);
	rapier_messages_free(&srv->messages);
	rapier_master_free(&srv->master);
	if (rc == -EEXIST) {
		zend_throw_exception_ex(rapier_ce_exception, 0,
			"Cannot start: another server is running with pid file %s (stop it, or remove a stale file)",
			mc.pid_file ? mc.pid_file : "");
	} else if (rc < 0 && rc != -ECANCELED) {
		zend_throw_exception_ex(rapier_ce_exception, 0, "The master process failed: %s", strerror(-rc));
	} else if (rc == -ECANCELED) {
		zend_throw_exception(rapier_ce_exception, "The server stopped: a worker could not start (see the log)", 0);
	}
}

/*
 * error_log: the master's log lines, PHP's errors (error_log unset in the
 * CLI means stderr) and uncaught handler exceptions all go to stderr, so
 * pointing stderr at the file catches every one of them, in every process.
 */
static bool redirect_stderr(zend_string *path)
{
	int fd;

	if (zend_string_equals_literal(path, "stderr")) {
		return true;
	}
	fd = open(ZSTR_VAL(path), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot open error_log %s: %s", ZSTR_VAL(path),
			strerror(errno));
		return false;
	}
	fflush(stderr);
	dup2(fd, STDERR_FILENO);
	close(fd);
	return true;
}

/*
 * http_port's listener: one socket that every request worker accepts from,
 * unlike the port's listener per slot, kept by the master: a worker that
 * drains or dies leaves the connections in its queue to the others, with
 * no steering needed. Returns the fd, or -1 with an exception thrown.
 */
static int open_plain_listener(server_t *srv)
{
	int fd = rapier_http_check_port(ZSTR_VAL(srv->host), (int) srv->http_port);

	if (fd == 0) {
		fd = rapier_http_listen(ZSTR_VAL(srv->host), (int) srv->http_port, srv->cfg.backlog);
	}
	if (fd < 0) {
		zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot listen on %s:" ZEND_LONG_FMT " (http_port): %s",
			ZSTR_VAL(srv->host), srv->http_port, strerror(-fd));
		return -1;
	}
	return fd;
}

ZEND_METHOD(Rapier_Http_Server, start)
{
	server_t *srv = server_from(Z_OBJ_P(ZEND_THIS));
	int fd;

	ZEND_PARSE_PARAMETERS_NONE();
	if (srv->started) {
		zend_throw_exception(rapier_ce_exception, "Cannot start the server twice", 0);
		RETURN_THROWS();
	}
	if (Z_TYPE(srv->handlers[EV_REQUEST]) == IS_UNDEF) {
		zend_throw_exception(rapier_ce_exception,
			"Cannot start the server without a request handler: call $server->on('request', fn) first", 0);
		RETURN_THROWS();
	}
	if (rapier_sched_running()) {
		zend_throw_exception(rapier_ce_exception, "Cannot start the server inside Rapier\\run()", 0);
		RETURN_THROWS();
	}
	if (srv->task_workers > 0 && Z_TYPE(srv->handlers[EV_TASK]) == IS_UNDEF) {
		zend_throw_exception(rapier_ce_exception,
			"Cannot start task workers without a task handler: call $server->on('task', fn) first", 0);
		RETURN_THROWS();
	}
	if (srv->error_log_path && !redirect_stderr(srv->error_log_path)) {
		RETURN_THROWS();
	}
	if (srv->document_root) {
		int rc = rapier_static_root_open(&srv->static_root, ZSTR_VAL(srv->document_root), 0);
		if (rc < 0) {
			zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot serve document_root %s: %s",
				ZSTR_VAL(srv->document_root), strerror(-rc));
			RETURN_THROWS();
		}
		srv->static_root_open = true;
	}
	if (srv->tls_cert_file) {
		rapier_http_tls_ctx_t *probe;

		if (!rapier_http_tls_ticket_key_generate(srv->tls_ticket_key)) {
			zend_throw_exception(rapier_ce_exception, "Cannot serve HTTPS: no random bytes for session ticket keys", 0);
			RETURN_THROWS();
		}
		/* Checked here, so a wrong file fails the start rather than every worker. */
		if ((probe = load_tls(srv)) == NULL) {
			RETURN_THROWS();
		}
		rapier_http_tls_ctx_free(probe);
	}
	/* With SO_REUSEPORT a second server would share a taken port silently: check without it first. */
	fd = srv->port ? rapier_http_check_port(ZSTR_VAL(srv->host), (int) srv->port) : 0;
	if (fd == 0) {
		fd = rapier_http_listen(ZSTR_VAL(srv->host), (int) srv->port, srv->cfg.backlog);
	}
	if (fd < 0) {
		zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot listen on %s:" ZEND_LONG_FMT ": %s",
			ZSTR_VAL(srv->host), srv->port, strerror(-fd));
		RETURN_THROWS();
	}
	if (srv->http_port && (srv->plain_fd = open_plain_listener(srv)) < 0) {
		close(fd);
		RETURN_THROWS();
	}
	srv->started = true;
	srv->pid = getpid();
	if (srv->workers == 0) {
		srv->tasks.count = (unsigned) srv->task_workers;
		/* One process: it is worker 0, and every message is for it. */
		srv->messages.count = Z_TYPE(srv->handlers[EV_MESSAGE]) != IS_UNDEF ? 1 : 0;
		srv->listen_fd = fd;
		srv->worker_id = 0;
		serve_worker(srv);
		release_callbacks(srv);
		return;
	}
	/* This probe is no slot's listener: the kernel would queue connections on it that nobody accepts. */
	close(fd);
	/* Returns in the master once the server has stopped, and in every child once it is done. */
	run_master(srv);
	release_callbacks(srv);
}

/* Whether this process runs the server: a forked child of it, or the single process serving. */
static bool require_running(const server_t *srv, const char *what)
{
	if (!srv->in_child && !srv->http_ready) {
		zend_throw_exception_ex(rapier_ce_exception, 0,
			"Cannot %s the server: it is not running in this process (call it from the server's callbacks once "
			"start() has begun; a stopped server stays stopped)", what);
		return false;
	}
	if (srv->pid != getpid()) {
		/* A stop begun there would stop only its copy, and the master ignores a record from a pid it did not start. */
		zend_throw_exception_ex(rapier_ce_exception, 0,
			"Cannot %s the server from a process forked from one of its processes (pcntl_fork()): "
			"call it in the server's process, or signal the master", what);
		return false;
	}
	return true;
}

ZEND_METHOD(Rapier_Http_Server, shutdown)
{
	server_t *srv = server_from(Z_OBJ_P(ZEND_THIS));
	int rc;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!require_running(srv, "shut down")) {
		RETURN_THROWS();
	}
	if (!srv->in_child) {
		begin_stop(srv);
		return;
	}
	if ((rc = rapier_worker_request_stop(&srv->master.self)) < 0) {
		zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot ask the master process to stop the server: %s",
			strerror(-rc));
		RETURN_THROWS();
	}
}

ZEND_METHOD(Rapier_Http_Server, reload)
{
	server_t *srv = server_from(Z_OBJ_P(ZEND_THIS));
	bool tasks_only = false;
	int rc;

	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_BOOL(tasks_only)
	ZEND_PARSE_PARAMETERS_END();

	if (!require_running(srv, "reload")) {
		RETURN_THROWS();
	}
	if (!srv->in_child) {
		zend_throw_exception(rapier_ce_exception,
			"Cannot reload a server that runs in one process (\"workers\" is 0): there are no workers to replace; "
			"restart the process, or set \"workers\" to 1 or more", 0);
		RETURN_THROWS();
	}
	if ((rc = rapier_worker_request_reload(&srv->master.self, tasks_only)) < 0) {
		zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot ask the master process for a reload: %s",
			strerror(-rc));
		RETURN_THROWS();
	}
}

ZEND_METHOD(Rapier_Http_Server, stats)
{
	server_t *srv = server_from(Z_OBJ_P(ZEND_THIS));

	ZEND_PARSE_PARAMETERS_NONE();
	array_init(return_value);
	add_assoc_long(return_value, "worker_id", srv->worker_id);
	add_assoc_long(return_value, "requests", srv->http_ready ? (zend_long) srv->http.stats.requests : 0);
	add_assoc_long(return_value, "accepted", srv->http_ready ? (zend_long) srv->http.stats.accepted : 0);
	add_assoc_long(return_value, "connections", srv->http_ready ? srv->http.stats.connections : 0);
	add_assoc_long(return_value, "handling", srv->http_ready ? srv->http.stats.handling : 0);
	add_assoc_long(return_value, "shed", srv->http_ready ? (zend_long) srv->http.stats.shed : 0);
	add_assoc_long(return_value, "abandoned", srv->http_ready ? (zend_long) srv->http.stats.abandoned : 0);
	add_assoc_long(return_value, "slow", srv->http_ready ? (zend_long) srv->http.stats.slow : 0);
	add_assoc_long(return_value, "tls_handshake_failures",
		srv->http_ready ? (zend_long) srv->http.stats.tls_handshake_failures : 0);
	add_assoc_long(return_value, "websockets", srv->http_ready ? srv->http.stats.websockets : 0);
	add_assoc_long(return_value, "concurrency_limit", concurrency_limit(srv));
	add_assoc_long(return_value, "coroutines", rapier_coro_count());
	add_assoc_long(return_value, "memory", (zend_long) zend_memory_usage(0));
	add_assoc_long(return_value, "messages_sent", (zend_long) srv->messages.sent);
	add_assoc_long(return_value, "messages_received", (zend_long) srv->messages.received);
	add_assoc_long(return_value, "static_compress_hits", srv->http_ready ? (zend_long) srv->http.file_cache.hits : 0);
	add_assoc_long(return_value, "static_compress_misses",
		srv->http_ready ? (zend_long) srv->http.file_cache.misses : 0);
	add_assoc_long(return_value, "static_compress_cached_bytes",
		srv->http_ready ? (zend_long) srv->http.file_cache.bytes : 0);
	add_assoc_long(return_value, "unread_bodies_dropped",
		srv->http_ready ? (zend_long) srv->http.stats.unread_bodies_dropped : 0);
	add_assoc_long(return_value, "unread_bodies_closed",
		srv->http_ready ? (zend_long) srv->http.stats.unread_bodies_closed : 0);
	add_assoc_long(return_value, "unread_bodies_reset",
		srv->http_ready ? (zend_long) srv->http.stats.unread_bodies_reset : 0);
}

ZEND_METHOD(Rapier_Http_Server, workerId)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_LONG(server_from(Z_OBJ_P(ZEND_THIS))->worker_id);
}

void rapier_http_server_class_minit(void)
{
	rapier_ce_http_server = register_class_Rapier_Http_Server();
	rapier_ce_http_server->create_object = server_create;
	rapier_stdio_hook_set_input_opener(open_request_input);
	sigemptyset(&blocked_for_worker);
	sigemptyset(&ignored_for_worker);
	pthread_atfork(NULL, NULL, undo_worker_signals_in_child);
	rapier_child_signals_register(worker_signals_for_child);
	memcpy(&server_handlers, &std_object_handlers, sizeof(server_handlers));
	server_handlers.offset = XtOffsetOf(server_t, std);
	server_handlers.free_obj = server_free;
	server_handlers.get_gc = server_get_gc;
	server_handlers.clone_obj = NULL;
}
