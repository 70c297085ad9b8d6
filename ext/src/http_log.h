/*
 * The HTTP access log: one line per response, in the Common Log Format or
 * as a JSON object, appended to a file (or stderr/stdout).
 *
 * Lines are gathered in a buffer and written when it fills, when the
 * flush timer fires (so a quiet server's log is at most a fraction of a
 * second behind), and when the worker stops. A write per request would
 * cost a system call on the hot path; nginx buffers the same way.
 */
#ifndef RAPIER_HTTP_LOG_H
#define RAPIER_HTTP_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "http_parser.h"
#include "loop.h"

typedef enum {
	RAPIER_ACCESS_LOG_COMMON,      /* host - - [date] "request line" status bytes */
	RAPIER_ACCESS_LOG_JSON,        /* one JSON object per line */
} rapier_access_log_format_t;

typedef struct {
	int fd;                        /* -1: no access log */
	bool owns_fd;
	rapier_access_log_format_t format;
	char *buf;
	size_t len, cap;
	rapier_loop_t *loop;
	rapier_timer_t flush_timer;
} rapier_access_log_t;

/* What one log line needs beyond the request itself. */
typedef struct {
	const char *remote;            /* peer address text */
	int status;
	uint64_t bytes;                /* body bytes sent */
	int64_t duration_ns;           /* from the request's first byte to the end of the response */
	int64_t wall_time;             /* seconds since the epoch */
	int worker_id;
} rapier_access_entry_t;

/*
 * Opens the log: path "stderr", "stdout", or a file opened for appending
 * (created 0644). Returns 0 or -errno.
 */
int rapier_access_log_open(rapier_access_log_t *log, const char *path, rapier_access_log_format_t format);
void rapier_access_log_close(rapier_access_log_t *log);

/* Starts the flush timer on loop (unref'd: it never keeps a worker alive). */
void rapier_access_log_attach(rapier_access_log_t *log, rapier_loop_t *loop);
void rapier_access_log_detach(rapier_access_log_t *log);

void rapier_access_log_write(rapier_access_log_t *log, const rapier_http_request_t *req,
	const rapier_access_entry_t *entry);
void rapier_access_log_flush(rapier_access_log_t *log);

#endif
