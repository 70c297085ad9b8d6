/*
 * Access log lines, buffered (see http_log.h). Common Log Format lines look
 * like nginx's default; JSON lines carry the same facts plus the duration,
 * the user agent and the worker, for log pipelines that parse JSON.
 * Strings from the client are escaped: quotes and control bytes never reach
 * the log raw, so a request cannot forge log lines.
 */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include "http_log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Buffered bytes that trigger a write; a line is at most a few KiB. */
#define RAPIER_ACCESS_LOG_FLUSH_AT (32 * 1024)

/* Longest a buffered line may wait on a quiet server. */
#define RAPIER_ACCESS_LOG_FLUSH_NS (200 * 1000000ull)

/* Longest client string (URL, user agent) copied into a line. */
#define RAPIER_ACCESS_LOG_MAX_FIELD 2048

static void on_flush_timer(rapier_timer_t *timer)
{
	rapier_access_log_flush(timer->data);
}

int rapier_access_log_open(rapier_access_log_t *log, const char *path, rapier_access_log_format_t format)
{
	memset(log, 0, sizeof(*log));
	log->fd = -1;
	log->format = format;
	if (strcmp(path, "stderr") == 0) {
		log->fd = STDERR_FILENO;
	} else if (strcmp(path, "stdout") == 0) {
		log->fd = STDOUT_FILENO;
	} else {
		log->fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
		if (log->fd < 0) {
			return -errno;
		}
		log->owns_fd = true;
	}
	rapier_timer_init(&log->flush_timer, on_flush_timer, log);
	log->flush_timer.unref = true;
	return 0;
}

void rapier_access_log_close(rapier_access_log_t *log)
{
	rapier_access_log_flush(log);
	rapier_access_log_detach(log);
	if (log->owns_fd && log->fd >= 0) {
		close(log->fd);
	}
	log->fd = -1;
	free(log->buf);
	log->buf = NULL;
	log->len = log->cap = 0;
}

void rapier_access_log_attach(rapier_access_log_t *log, rapier_loop_t *loop)
{
	log->loop = loop;
	if (log->fd >= 0) {
		rapier_timer_start(loop, &log->flush_timer, RAPIER_ACCESS_LOG_FLUSH_NS, RAPIER_ACCESS_LOG_FLUSH_NS);
	}
}

void rapier_access_log_detach(rapier_access_log_t *log)
{
	if (log->loop) {
		rapier_timer_stop(log->loop, &log->flush_timer);
		log->loop = NULL;
	}
}

void rapier_access_log_flush(rapier_access_log_t *log)
{
	size_t off = 0;

	while (off < log->len) {
		ssize_t n = write(log->fd, log->buf + off, log->len - off);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			break; /* a full disk loses log lines, never requests */
		}
		off += (size_t) n;
	}
	log->len = 0;
}

static bool reserve(rapier_access_log_t *log, size_t extra)
{
	if (log->len + extra <= log->cap) {
		return true;
	}
	size_t cap = log->cap ? log->cap : 4096;
	while (cap < log->len + extra) {
		cap *= 2;
	}
	char *buf = realloc(log->buf, cap);
	if (buf == NULL) {
		return false;
	}
	log->buf = buf;
	log->cap = cap;
	return true;
}

static void put(rapier_access_log_t *log, const char *s, size_t len)
{
	memcpy(log->buf + log->len, s, len);
	log->len += len;
}

/* Escapes a client string for both formats: \" \\ and \xHH for control bytes. */
static void put_escaped(rapier_access_log_t *log, const char *s, size_t len, bool json)
{
	static const char hex[] = "0123456789abcdef";

	if (len > RAPIER_ACCESS_LOG_MAX_FIELD) {
		len = RAPIER_ACCESS_LOG_MAX_FIELD;
	}
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char) s[i];
		if (c == '"' || c == '\\') {
			log->buf[log->len++] = '\\';
			log->buf[log->len++] = (char) c;
		} else if (c < 0x20 || c == 0x7f) {
			put(log, json ? "\\u00" : "\\x", json ? 4 : 2);
			log->buf[log->len++] = hex[c >> 4];
			log->buf[log->len++] = hex[c & 15];
		} else {
			log->buf[log->len++] = (char) c;
		}
	}
}

static void write_common(rapier_access_log_t *log, const rapier_http_request_t *req, const rapier_access_entry_t *e)
{
	char head[160], tail[64], date[40];
	struct tm tm;
	time_t t = (time_t) e->wall_time;
	int n;

	gmtime_r(&t, &tm);
	strftime(date, sizeof(date), "%d/%b/%Y:%H:%M:%S +0000", &tm);
	n = snprintf(head, sizeof(head), "%s - - [%s] \"", e->remote, date);
	put(log, head, (size_t) n);
	put_escaped(log, req->method_name ? req->method_name : "-", req->method_name ? strlen(req->method_name) : 1, false);
	put(log, " ", 1);
	put_escaped(log, req->target, req->target_len, false);
	n = snprintf(tail, sizeof(tail), " HTTP/%d.%d\" %d %llu\n", req->version_major, req->version_minor,
		e->status, (unsigned long long) e->bytes);
	put(log, tail, (size_t) n);
}

static void write_json(rapier_access_log_t *log, const rapier_http_request_t *req, const rapier_access_entry_t *e)
{
	size_t ua_len = 0;
	const char *ua = rapier_http_request_header(req, "user-agent", &ua_len);
	char buf[200];
	int n;

	n = snprintf(buf, sizeof(buf), "{\"time\":%lld,\"remote\":\"%s\",\"method\":\"", (long long) e->wall_time, e->remote);
	put(log, buf, (size_t) n);
	put_escaped(log, req->method_name ? req->method_name : "-", req->method_name ? strlen(req->method_name) : 1, true);
	put(log, "\",\"uri\":\"", 9);
	put_escaped(log, req->target, req->target_len, true);
	n = snprintf(buf, sizeof(buf), "\",\"protocol\":\"HTTP/%d.%d\",\"status\":%d,\"bytes\":%llu,\"duration_ms\":%.3f,"
		"\"worker\":%d,\"user_agent\":\"", req->version_major, req->version_minor, e->status,
		(unsigned long long) e->bytes, (double) e->duration_ns / 1e6, e->worker_id);
	put(log, buf, (size_t) n);
	if (ua) {
		put_escaped(log, ua, ua_len, true);
	}
	put(log, "\"}\n", 3);
}

void rapier_access_log_write(rapier_access_log_t *log, const rapier_http_request_t *req,
	const rapier_access_entry_t *entry)
{
	/* Every escaped byte takes at most 6; the fixed parts fit in 512. */
	if (log->fd < 0 || !reserve(log, 512 + 6 * (2 * RAPIER_ACCESS_LOG_MAX_FIELD + 32))) {
		return;
	}
	if (log->format == RAPIER_ACCESS_LOG_JSON) {
		write_json(log, req, entry);
	} else {
		write_common(log, req, entry);
	}
	if (log->len >= RAPIER_ACCESS_LOG_FLUSH_AT) {
		rapier_access_log_flush(log);
	}
}
