/*
 * The slow request log. The timer fires in the loop, so the handler's
 * coroutine is suspended where it waits, and its stack can be read there
 * (rapier_coro_backtrace()). A handler that computes without ever waiting
 * holds the loop: if it is still running when it first waits, it is logged
 * then; one that ends without waiting is not (max_execution_time is the
 * limit for those).
 */
#include "php.h"
#include "zend_builtin_functions.h"
#include "zend_smart_str.h"

#include "coroutine.h"
#include "http_server_internal.h"
#include "http_slowlog.h"
#include "status.h"
#include "timer.h"

/* Frames logged per request: enough to reach the application from a framework's depths. */
#define RAPIER_SLOWLOG_MAX_FRAMES 40
/* Bytes of the request target logged. */
#define RAPIER_SLOWLOG_MAX_TARGET 512

static void append_frames(smart_str *out, rapier_coro_t *co)
{
	zval trace, *frame;
	uint32_t n = 0, total;

	rapier_coro_backtrace(co, DEBUG_BACKTRACE_IGNORE_ARGS, 0, &trace);
	total = zend_hash_num_elements(Z_ARRVAL(trace));
	ZEND_HASH_FOREACH_VAL(Z_ARRVAL(trace), frame) {
		if (n == RAPIER_SLOWLOG_MAX_FRAMES) {
			smart_str_append_printf(out, "\n    ... %u more frames", total - n);
			break;
		}
		smart_str_append_printf(out, "\n    #%u ", n++);
		rapier_coro_describe_frame(out, frame);
	} ZEND_HASH_FOREACH_END();
	if (total == 0) {
		smart_str_appends(out, "\n    (it has not started: the worker is too busy to run it)");
	}
	zval_ptr_dtor(&trace);
}

static void on_slow(rapier_timer_t *timer)
{
	rapier_http_conn_t *conn = timer->data;
	rapier_http_server_t *server = conn->server;
	const rapier_http_request_t *req = rapier_http_conn_request(conn);
	rapier_coro_t *co = conn->handler_co;
	smart_str msg = {0};
	char process[32];
	int port;
	const char *peer = rapier_http_conn_peer(conn, &port);

	if (co == NULL) {
		return;
	}
	server->stats.slow++;
	rapier__http_stats_changed(server);
	/* The parser has refused control bytes in the target: it cannot break the line. */
	smart_str_append_printf(&msg, "slow request: %s ", req->method_name);
	smart_str_appendl(&msg, req->target, MIN(req->target_len, RAPIER_SLOWLOG_MAX_TARGET));
	if (req->target_len > RAPIER_SLOWLOG_MAX_TARGET) {
		smart_str_appends(&msg, "...");
	}
	smart_str_append_printf(&msg, " from %s:%d has run %.3f s (slowlog_timeout %.3f s); its handler, coroutine #"
		ZEND_LONG_FMT ", waits in:", peer, port, (double) (rapier_now_ns() - conn->handler_start_ns) / 1e9,
		(double) server->cfg.slowlog_timeout_ns / 1e9, co->id);
	append_frames(&msg, co);
	smart_str_0(&msg);
	snprintf(process, sizeof(process), "worker %d", server->cfg.worker_id);
	rapier_status_log_line(process, RAPIER_LOG_WARNING, ZSTR_VAL(msg.s));
	smart_str_free(&msg);
}

void rapier_http_slowlog_init(rapier_http_conn_t *conn)
{
	rapier_timer_init(&conn->slowlog_timer, on_slow, conn);
}

void rapier_http_slowlog_start(rapier_http_conn_t *conn)
{
	rapier_http_server_t *server = conn->server;

	if (server->cfg.slowlog_timeout_ns > 0) {
		rapier_timer_start(server->loop, &conn->slowlog_timer, (uint64_t) server->cfg.slowlog_timeout_ns, 0);
	}
}

void rapier_http_slowlog_stop(rapier_http_conn_t *conn)
{
	/* Every request ends here: without the option, nothing to do. */
	if (conn->server->cfg.slowlog_timeout_ns > 0) {
		rapier_timer_stop(conn->server->loop, &conn->slowlog_timer);
	}
}
