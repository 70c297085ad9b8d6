/*
 * Rapier status: how server processes report. Workers report to the master
 * (a shared-memory table of counters, a pipe of events); the master reports
 * to the outside (log lines, a pid file, a Unix socket that serves the
 * table as JSON).
 *
 * Engine code: no PHP headers. The master creates the table (an anonymous
 * shared mapping) before it forks, so every worker sees the same pages.
 * Each entry has two halves with exactly one writer each: the master half
 * (pid, role, state...) is written only by the master, the worker half
 * (counters) only by the worker that owns the entry. Each half is guarded
 * by its own seqlock, so a reader gets a consistent snapshot or retries,
 * and the worker's updates cost a few plain stores and no system call.
 */
#ifndef RAPIER_STATUS_H
#define RAPIER_STATUS_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "loop.h"

typedef enum {
	RAPIER_LOG_ERROR = 0,
	RAPIER_LOG_WARNING,
	RAPIER_LOG_NOTICE,
	RAPIER_LOG_INFO,
	RAPIER_LOG_DEBUG,
} rapier_log_level_t;

/* The master's log sink; message has no trailing newline. Called in the master only. */
typedef void (*rapier_log_fn)(void *data, rapier_log_level_t level, const char *message);

/* The default sink: "2024-01-02 03:04:05.678 [rapier master PID] level: message" on stderr. */
void rapier_status_log_stderr(void *data, rapier_log_level_t level, const char *message);

/* The same line for any process ("worker 2"), in one write(); message may span lines. */
void rapier_status_log_line(const char *process, rapier_log_level_t level, const char *message);

typedef enum {
	RAPIER_ROLE_WORKER = 0,       /* serves requests */
	RAPIER_ROLE_TASK_WORKER = 1,  /* runs $server->task() jobs */
	RAPIER_ROLE_USER_PROCESS = 2, /* runs a callable of $server->addProcess() */
} rapier_role_t;

#define RAPIER_ROLE_COUNT 3

typedef enum {
	RAPIER_PROC_FREE = 0,   /* entry unused */
	RAPIER_PROC_STARTING,   /* forked, has not reported ready */
	RAPIER_PROC_READY,      /* reported ready: listening / taking tasks */
	RAPIER_PROC_DRAINING,   /* told to stop (SIGTERM or SIGKILL sent) */
	RAPIER_PROC_EXITED,     /* reaped; the entry may be reused */
} rapier_proc_state_t;

/* Written by the master only. */
typedef struct {
	_Atomic uint32_t seq;
	_Atomic int32_t pid;
	_Atomic uint32_t role;
	_Atomic uint32_t state;
	_Atomic uint32_t index;
	_Atomic uint32_t generation;
	_Atomic uint64_t started_at_ms;  /* wall clock, for display */
	_Atomic uint64_t started_ns;     /* monotonic (rapier_now_ns), for uptime */
	_Atomic uint64_t rss;            /* bytes, sampled from /proc by the master */
} rapier_status_master_part_t;

/* Written by the worker that owns the entry only. */
typedef struct {
	_Atomic uint32_t seq;
	_Atomic uint32_t in_flight;
	_Atomic uint32_t connections;
	_Atomic uint32_t concurrency_limit;
	_Atomic uint32_t websockets;
	_Atomic uint64_t requests;
	_Atomic uint64_t shed;
	_Atomic uint64_t abandoned;
	_Atomic uint64_t slow;
	_Atomic uint64_t tls_handshake_failures;
	_Atomic uint64_t memory;         /* bytes, as the worker measures it (PHP's usage) */
	_Atomic uint64_t messages_sent;  /* Server::sendMessage()/broadcastMessage(), one per receiving worker */
	_Atomic uint64_t messages_received; /* message handlers started */
} rapier_status_worker_part_t;

/*
 * The halves sit on separate cache lines: a busy worker bumping its counters
 * must not make the master's readers (or writers) bounce its line.
 */
typedef struct rapier_status_entry_s {
	alignas(64) rapier_status_master_part_t master;
	alignas(64) rapier_status_worker_part_t worker;
} rapier_status_entry_t;

/*
 * Table header fields are single values written by the master; each is read
 * on its own, so they need no seqlock.
 */
typedef struct rapier_status_table_s {
	_Atomic int32_t master_pid;
	_Atomic uint64_t started_at_ms;
	_Atomic uint64_t started_ns;
	_Atomic uint32_t shutdown_timeout_ms; /* when the master SIGKILLs a stopping worker */
	_Atomic uint64_t restarts;          /* unexpected deaths that were restarted */
	_Atomic uint64_t recycles;          /* max_requests / max_memory replacements */
	_Atomic uint64_t reload_failures;   /* reloads abandoned: the new generation did not start */
	_Atomic uint64_t retired_requests;  /* requests served by processes already reaped */
	_Atomic uint64_t retired_shed;      /* requests they refused with 503 (queue_timeout) */
	_Atomic uint64_t retired_abandoned; /* queued requests whose client left */
	_Atomic uint64_t retired_slow;      /* requests the slow request log logged */
	_Atomic uint64_t retired_tls_handshake_failures; /* TLS handshakes that failed */
	_Atomic uint64_t retired_messages_sent;
	_Atomic uint64_t retired_messages_received;
	_Atomic uint32_t generation[RAPIER_ROLE_COUNT];         /* serving */
	_Atomic uint32_t newest_generation[RAPIER_ROLE_COUNT];  /* newest started: above serving while a reload runs */
	_Atomic uint32_t failed_generation[RAPIER_ROLE_COUNT];  /* newest abandoned reload's, 0: none */
	uint32_t capacity;
	size_t map_size;
	alignas(64) rapier_status_entry_t entries[];
} rapier_status_table_t;

/* A consistent copy of one entry, for readers. */
typedef struct {
	pid_t pid;
	rapier_role_t role;
	rapier_proc_state_t state;
	uint32_t index;
	uint32_t generation;
	uint64_t started_at_ms;
	uint64_t started_ns;
	uint64_t rss;
	uint64_t requests;
	uint64_t shed;
	uint64_t abandoned;
	uint64_t slow;
	uint64_t tls_handshake_failures;
	uint64_t memory;
	uint64_t messages_sent;
	uint64_t messages_received;
	uint32_t in_flight;
	uint32_t connections;
	uint32_t concurrency_limit;
	uint32_t websockets;
} rapier_status_view_t;

/* A worker's own counters, published together (rapier_status_self_update). */
typedef struct {
	uint64_t requests;           /* responses ended */
	uint64_t shed;               /* requests the server refused with 503 after queue_timeout */
	uint64_t abandoned;          /* queued requests whose client left before a handler slot freed */
	uint64_t slow;               /* requests whose handler ran past slowlog_timeout */
	uint64_t tls_handshake_failures; /* TLS handshakes that failed, plain HTTP to the HTTPS port included */
	uint64_t memory;             /* bytes, PHP's usage */
	uint32_t in_flight;          /* handlers running */
	uint32_t connections;        /* open client connections */
	uint32_t concurrency_limit;  /* handlers allowed at once now; 0: no limit */
	uint32_t websockets;         /* WebSocket connections open now */
} rapier_status_counters_t;

/* Creates a zeroed table of capacity entries in MAP_SHARED|MAP_ANONYMOUS memory. */
int rapier_status_table_create(rapier_status_table_t **out, uint32_t capacity);
void rapier_status_table_destroy(rapier_status_table_t *table);

/* Master side: describe an entry before fork (state STARTING, counters zeroed). */
void rapier_status_entry_begin(rapier_status_entry_t *e, rapier_role_t role, uint32_t index, uint32_t generation);
void rapier_status_entry_set_pid(rapier_status_entry_t *e, pid_t pid);
void rapier_status_entry_set_state(rapier_status_entry_t *e, rapier_proc_state_t state);
/* Reads /proc/PID/statm of every live entry into its rss field. */
void rapier_status_table_sample_rss(rapier_status_table_t *table);

/*
 * Copies an entry. Returns 0, or -EAGAIN if a writer kept it busy through
 * every retry (the copy is then possibly torn, which is harmless for stats).
 */
int rapier_status_entry_read(const rapier_status_entry_t *e, rapier_status_view_t *view);

/* Renders the whole table as one JSON document (malloc'd, NUL-terminated). */
char *rapier_status_render_json(rapier_status_table_t *table, size_t *len);

/* Seqlock write side (Boehm's fence-based form): odd while a write is in progress. */
static inline uint32_t rapier__status_write_begin(_Atomic uint32_t *seq)
{
	uint32_t s = atomic_load_explicit(seq, memory_order_relaxed);

	atomic_store_explicit(seq, s + 1, memory_order_relaxed);
	/* Orders the odd sequence before the data stores that follow. */
	atomic_thread_fence(memory_order_release);
	return s;
}

static inline void rapier__status_write_end(_Atomic uint32_t *seq, uint32_t s)
{
	atomic_store_explicit(seq, s + 2, memory_order_release);
}

#define RAPIER__RELAXED_ADD(field, delta) \
	atomic_store_explicit(&(field), atomic_load_explicit(&(field), memory_order_relaxed) + (delta), \
		memory_order_relaxed)

/*
 * Worker side. Only the process that owns the entry may call these. Each is
 * a few plain stores on x86 and arm64 (no locked instruction, no syscall):
 * the owner is the only writer, so it may read its own fields relaxed.
 */
static inline void rapier_status_self_request_begin(rapier_status_entry_t *e)
{
	uint32_t s = rapier__status_write_begin(&e->worker.seq);
	RAPIER__RELAXED_ADD(e->worker.in_flight, 1);
	rapier__status_write_end(&e->worker.seq, s);
}

static inline void rapier_status_self_request_end(rapier_status_entry_t *e)
{
	uint32_t s = rapier__status_write_begin(&e->worker.seq);
	RAPIER__RELAXED_ADD(e->worker.in_flight, -1);
	RAPIER__RELAXED_ADD(e->worker.requests, 1);
	rapier__status_write_end(&e->worker.seq, s);
}

static inline void rapier_status_self_connections(rapier_status_entry_t *e, int delta)
{
	uint32_t s = rapier__status_write_begin(&e->worker.seq);
	RAPIER__RELAXED_ADD(e->worker.connections, delta);
	rapier__status_write_end(&e->worker.seq, s);
}

/* The messages between workers this process has sent and received so far (any role). */
static inline void rapier_status_messages_update(rapier_status_entry_t *e, uint64_t sent, uint64_t received)
{
	uint32_t s = rapier__status_write_begin(&e->worker.seq);
	atomic_store_explicit(&e->worker.messages_sent, sent, memory_order_relaxed);
	atomic_store_explicit(&e->worker.messages_received, received, memory_order_relaxed);
	rapier__status_write_end(&e->worker.seq, s);
}

/* Sets every counter at once (a worker that keeps its own totals). */
static inline void rapier_status_self_update(rapier_status_entry_t *e, const rapier_status_counters_t *c)
{
	uint32_t s = rapier__status_write_begin(&e->worker.seq);
	atomic_store_explicit(&e->worker.requests, c->requests, memory_order_relaxed);
	atomic_store_explicit(&e->worker.shed, c->shed, memory_order_relaxed);
	atomic_store_explicit(&e->worker.abandoned, c->abandoned, memory_order_relaxed);
	atomic_store_explicit(&e->worker.slow, c->slow, memory_order_relaxed);
	atomic_store_explicit(&e->worker.tls_handshake_failures, c->tls_handshake_failures, memory_order_relaxed);
	atomic_store_explicit(&e->worker.memory, c->memory, memory_order_relaxed);
	atomic_store_explicit(&e->worker.in_flight, c->in_flight, memory_order_relaxed);
	atomic_store_explicit(&e->worker.connections, c->connections, memory_order_relaxed);
	atomic_store_explicit(&e->worker.concurrency_limit, c->concurrency_limit, memory_order_relaxed);
	atomic_store_explicit(&e->worker.websockets, c->websockets, memory_order_relaxed);
	rapier__status_write_end(&e->worker.seq, s);
}

/*
 * Worker-to-master events on one pipe shared by all workers: 8-byte records
 * (pid, kind). A record is below PIPE_BUF, so concurrent writes never
 * interleave and reads return whole records. Both ends are non-blocking
 * and close-on-exec: a worker must never hang on a stuck master.
 */
typedef enum {
	RAPIER_NOTIFY_READY = 1,    /* listening and workerStart done */
	RAPIER_NOTIFY_RECYCLE = 2,  /* please start my successor, then stop me */
	RAPIER_NOTIFY_FATAL = 3,    /* I cannot start with this configuration: do not retry */
	RAPIER_NOTIFY_STOP = 4,     /* stop the server gracefully, as SIGTERM does (Server::shutdown()) */
	RAPIER_NOTIFY_RELOAD = 5,   /* reload the workers and task workers, as SIGHUP does (Server::reload()) */
	RAPIER_NOTIFY_RELOAD_TASKS = 6, /* reload the task workers, as SIGUSR2 does (Server::reload(true)) */
} rapier_notify_kind_t;

typedef void (*rapier_notify_cb)(void *data, pid_t pid, rapier_notify_kind_t kind);

int rapier_notify_open(int fds[2]);
/* One write() of one record; returns 0 or a negative errno (-EAGAIN if the pipe is full). */
int rapier_notify_send(int fd, rapier_notify_kind_t kind);
/* Reads every pending record and calls cb for each. */
void rapier_notify_drain(int fd, rapier_notify_cb cb, void *data);

/* Master side, at start: its pid and start time, the serving generations, and its SIGKILL deadline for a stopping worker. */
void rapier_status_table_publish(rapier_status_table_t *table, pid_t master, const uint32_t generation[RAPIER_ROLE_COUNT],
	uint32_t shutdown_timeout_ms);

/*
 * Pid file (the CLI's way to find the master, and the status socket beside
 * it). check: 0 if the file is absent, garbage, names no process, names a
 * process running another program, or names self (a container restart
 * where the old master was pid 1 as well); then *owner is the stale pid or
 * 0. -EEXIST if it names a live process running our program (*owner).
 * write: atomically (temporary file + rename). remove: only if it still
 * names pid, so a successor's file is left alone.
 */
int rapier_pidfile_check(const char *path, pid_t self, pid_t *owner);
int rapier_pidfile_write(const char *path, pid_t pid);
void rapier_pidfile_remove(const char *path, pid_t pid);

/*
 * The status channel: a listening Unix socket in the master's loop. Each
 * client that connects receives one JSON document, then the server closes.
 */
typedef struct rapier_status_server_s rapier_status_server_t;

/* Binds path (a stale socket file there is replaced), mode 0660. */
int rapier_status_server_open(rapier_status_server_t **out, rapier_loop_t *loop,
	rapier_status_table_t *table, const char *path);
/* Stops watching, closes every socket and unlinks the path. */
void rapier_status_server_close(rapier_status_server_t *srv);
/*
 * In a freshly forked child: closes the inherited sockets and frees memory,
 * touching neither the shared epoll instance nor the socket path.
 */
void rapier_status_server_abandon(rapier_status_server_t *srv);

#endif
