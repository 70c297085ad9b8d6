/*
 * Status: the table, the notify pipe, the pid file and the status channel.
 *
 * The table is one anonymous MAP_SHARED mapping made by the master before it
 * forks: a header (master pid, counters) and an array of entries, one per
 * server process, reused once the process has been reaped. Every field is a
 * C11 atomic accessed relaxed, and each half of an entry is guarded by a
 * seqlock with a single writer, so readers never see a half-written
 * snapshot and writers never wait. A mutex in shared memory was rejected: a
 * worker killed while holding it would wedge the master's status channel.
 * Per-field atomics without a seqlock were rejected too: "requests" and
 * "in_flight" would not agree with each other in one document.
 *
 * Everything by which processes report lives here: workers report to the
 * master through the table (counters) and the notify pipe (events: ready,
 * recycle me); the master reports to the outside through log lines, the
 * pid file and, beside it, the status socket. process.c holds only the policy.
 *
 * The status channel is a Unix stream socket: a client connects and reads
 * one JSON document until EOF. No request is parsed, so a client cannot
 * make the master do anything but render. The master samples each
 * process's RSS from /proc at that moment rather than asking workers to
 * (reading /proc is a syscall workers should not pay per request).
 */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include "status.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/*
 * A reader gives up after this many busy or changed sequences. A writer's
 * critical section is a few stores, so a retry normally succeeds at once;
 * only a writer preempted (or killed) mid-update keeps the count odd, and
 * a stats reader must never spin on it.
 */
#define STATUS_READ_RETRIES 1000

/* Concurrent status clients; more are closed at once. One CLI at a time is normal. */
#define STATUS_MAX_CLIENTS 8
/* Connections accepted per readiness event, so signals and exits are not starved. */
#define STATUS_ACCEPTS_PER_EVENT 16
/* A client that does not read its document within this time is dropped. */
#define STATUS_WRITE_TIMEOUT_NS (5 * 1000000000ull)

#define LOAD(field) atomic_load_explicit(&(field), memory_order_relaxed)
#define STORE(field, v) atomic_store_explicit(&(field), (v), memory_order_relaxed)

int rapier_status_table_create(rapier_status_table_t **out, uint32_t capacity)
{
	size_t size = sizeof(rapier_status_table_t) + (size_t) capacity * sizeof(rapier_status_entry_t);
	rapier_status_table_t *t;

	t = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (t == MAP_FAILED) {
		return -errno;
	}
	/* Anonymous mappings are zero-filled: every entry starts FREE. */
	t->capacity = capacity;
	t->map_size = size;
	*out = t;
	return 0;
}

void rapier_status_table_destroy(rapier_status_table_t *table)
{
	if (table != NULL) {
		munmap(table, table->map_size);
	}
}

static uint64_t wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t) ts.tv_sec * 1000 + (uint64_t) ts.tv_nsec / 1000000;
}

void rapier_status_entry_begin(rapier_status_entry_t *e, rapier_role_t role, uint32_t index, uint32_t generation)
{
	uint32_t s;

	/*
	 * The worker half is written here by the master, which is safe only
	 * because no process owns the entry yet: the previous owner was reaped
	 * and the next is not forked.
	 */
	s = rapier__status_write_begin(&e->worker.seq);
	STORE(e->worker.in_flight, 0);
	STORE(e->worker.connections, 0);
	STORE(e->worker.concurrency_limit, 0);
	STORE(e->worker.websockets, 0);
	STORE(e->worker.requests, 0);
	STORE(e->worker.shed, 0);
	STORE(e->worker.abandoned, 0);
	STORE(e->worker.slow, 0);
	STORE(e->worker.tls_handshake_failures, 0);
	STORE(e->worker.memory, 0);
	STORE(e->worker.messages_sent, 0);
	STORE(e->worker.messages_received, 0);
	rapier__status_write_end(&e->worker.seq, s);

	s = rapier__status_write_begin(&e->master.seq);
	STORE(e->master.pid, 0);
	STORE(e->master.role, (uint32_t) role);
	STORE(e->master.state, (uint32_t) RAPIER_PROC_STARTING);
	STORE(e->master.index, index);
	STORE(e->master.generation, generation);
	STORE(e->master.started_at_ms, wall_ms());
	STORE(e->master.started_ns, rapier_now_ns());
	STORE(e->master.rss, 0);
	rapier__status_write_end(&e->master.seq, s);
}

void rapier_status_entry_set_pid(rapier_status_entry_t *e, pid_t pid)
{
	uint32_t s = rapier__status_write_begin(&e->master.seq);
	STORE(e->master.pid, (int32_t) pid);
	rapier__status_write_end(&e->master.seq, s);
}

void rapier_status_entry_set_state(rapier_status_entry_t *e, rapier_proc_state_t state)
{
	uint32_t s = rapier__status_write_begin(&e->master.seq);
	STORE(e->master.state, (uint32_t) state);
	rapier__status_write_end(&e->master.seq, s);
}

static bool entry_is_live(uint32_t state)
{
	return state == RAPIER_PROC_STARTING || state == RAPIER_PROC_READY || state == RAPIER_PROC_DRAINING;
}

static uint64_t read_rss(pid_t pid)
{
	char path[64], line[128];
	unsigned long size, resident;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/statm", (int) pid);
	f = fopen(path, "re");
	if (f == NULL) {
		return 0;
	}
	if (fgets(line, sizeof(line), f) == NULL || sscanf(line, "%lu %lu", &size, &resident) != 2) {
		resident = 0;
	}
	fclose(f);
	return (uint64_t) resident * (uint64_t) sysconf(_SC_PAGESIZE);
}

void rapier_status_table_sample_rss(rapier_status_table_t *table)
{
	for (uint32_t i = 0; i < table->capacity; i++) {
		rapier_status_entry_t *e = &table->entries[i];
		pid_t pid = LOAD(e->master.pid);
		uint32_t s;

		if (pid <= 0 || !entry_is_live(LOAD(e->master.state))) {
			continue;
		}
		s = rapier__status_write_begin(&e->master.seq);
		STORE(e->master.rss, read_rss(pid));
		rapier__status_write_end(&e->master.seq, s);
	}
}

/* Seqlock read side: true when the copy made between begin and end is consistent. */
static uint32_t read_begin(const _Atomic uint32_t *seq)
{
	return atomic_load_explicit(seq, memory_order_acquire);
}

static bool read_ok(const _Atomic uint32_t *seq, uint32_t begin)
{
	/* Orders the data loads before the second look at the sequence. */
	atomic_thread_fence(memory_order_acquire);
	return (begin & 1) == 0 && atomic_load_explicit(seq, memory_order_relaxed) == begin;
}

static bool read_master_part(const rapier_status_entry_t *e, rapier_status_view_t *v)
{
	uint32_t s = read_begin(&e->master.seq);

	v->pid = LOAD(e->master.pid);
	v->role = (rapier_role_t) LOAD(e->master.role);
	v->state = (rapier_proc_state_t) LOAD(e->master.state);
	v->index = LOAD(e->master.index);
	v->generation = LOAD(e->master.generation);
	v->started_at_ms = LOAD(e->master.started_at_ms);
	v->started_ns = LOAD(e->master.started_ns);
	v->rss = LOAD(e->master.rss);
	return read_ok(&e->master.seq, s);
}

static bool read_worker_part(const rapier_status_entry_t *e, rapier_status_view_t *v)
{
	uint32_t s = read_begin(&e->worker.seq);

	v->requests = LOAD(e->worker.requests);
	v->shed = LOAD(e->worker.shed);
	v->abandoned = LOAD(e->worker.abandoned);
	v->slow = LOAD(e->worker.slow);
	v->tls_handshake_failures = LOAD(e->worker.tls_handshake_failures);
	v->memory = LOAD(e->worker.memory);
	v->messages_sent = LOAD(e->worker.messages_sent);
	v->messages_received = LOAD(e->worker.messages_received);
	v->in_flight = LOAD(e->worker.in_flight);
	v->connections = LOAD(e->worker.connections);
	v->concurrency_limit = LOAD(e->worker.concurrency_limit);
	v->websockets = LOAD(e->worker.websockets);
	return read_ok(&e->worker.seq, s);
}

int rapier_status_entry_read(const rapier_status_entry_t *e, rapier_status_view_t *view)
{
	bool master_ok = false, worker_ok = false;

	for (int tries = 0; tries < STATUS_READ_RETRIES && !(master_ok && worker_ok); tries++) {
		if (!master_ok) {
			master_ok = read_master_part(e, view);
		}
		if (!worker_ok) {
			worker_ok = read_worker_part(e, view);
		}
	}
	return master_ok && worker_ok ? 0 : -EAGAIN;
}

/* JSON rendering into a growing buffer; an allocation failure sticks. */
typedef struct {
	char *data;
	size_t len;
	size_t cap;
	bool failed;
} strbuf_t;

static void __attribute__((format(printf, 2, 3))) sb_printf(strbuf_t *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (sb->failed) {
		return;
	}
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(sb->data + sb->len, sb->cap - sb->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			sb->failed = true;
			return;
		}
		if ((size_t) n < sb->cap - sb->len) {
			sb->len += (size_t) n;
			return;
		}
		size_t cap = sb->cap * 2 + (size_t) n;
		char *data = realloc(sb->data, cap);
		if (data == NULL) {
			sb->failed = true;
			return;
		}
		sb->data = data;
		sb->cap = cap;
	}
}

static const char *role_name(rapier_role_t role)
{
	static const char *names[] = { "worker", "task_worker", "user_process" };

	return (unsigned) role < RAPIER_ROLE_COUNT ? names[role] : "unknown";
}

static const char *state_name(rapier_proc_state_t state)
{
	static const char *names[] = { "free", "starting", "ready", "draining", "exited" };

	return (unsigned) state < sizeof(names) / sizeof(names[0]) ? names[state] : "unknown";
}

/* Seconds with millisecond precision, as JSON numbers. */
static void sb_seconds(strbuf_t *sb, const char *name, uint64_t ms)
{
	sb_printf(sb, "\"%s\":%llu.%03u", name, (unsigned long long) (ms / 1000), (unsigned) (ms % 1000));
}

typedef struct {
	uint64_t requests, shed, abandoned, slow, tls_handshake_failures, rss, messages_sent, messages_received;
	uint64_t in_flight, connections, websockets;
	unsigned count[RAPIER_ROLE_COUNT];
} totals_t;

static void render_entry(strbuf_t *sb, const rapier_status_view_t *v, uint64_t now_ns, bool first)
{
	uint64_t up_ms = now_ns > v->started_ns ? (now_ns - v->started_ns) / 1000000 : 0;

	sb_printf(sb, "%s{\"pid\":%d,\"role\":\"%s\",\"index\":%u,\"generation\":%u,\"state\":\"%s\",",
		first ? "" : ",", (int) v->pid, role_name(v->role), v->index, v->generation, state_name(v->state));
	sb_seconds(sb, "started_at", v->started_at_ms);
	sb_printf(sb, ",");
	sb_seconds(sb, "uptime", up_ms);
	sb_printf(sb, ",\"requests\":%llu,\"in_flight\":%u,\"connections\":%u,\"websockets\":%u,\"shed\":%llu,"
		"\"abandoned\":%llu,\"slow\":%llu,\"tls_handshake_failures\":%llu,\"concurrency_limit\":%u,"
		"\"messages_sent\":%llu,\"messages_received\":%llu,\"memory\":%llu,\"rss\":%llu}",
		(unsigned long long) v->requests, v->in_flight, v->connections, v->websockets, (unsigned long long) v->shed,
		(unsigned long long) v->abandoned, (unsigned long long) v->slow,
		(unsigned long long) v->tls_handshake_failures, v->concurrency_limit,
		(unsigned long long) v->messages_sent, (unsigned long long) v->messages_received,
		(unsigned long long) v->memory, (unsigned long long) v->rss);
}

static void render_workers(strbuf_t *sb, rapier_status_table_t *t, uint64_t now_ns, totals_t *tot)
{
	bool first = true;

	sb_printf(sb, "\"workers\":[");
	for (uint32_t i = 0; i < t->capacity; i++) {
		rapier_status_view_t v;

		rapier_status_entry_read(&t->entries[i], &v);
		if (!entry_is_live(v.state)) {
			continue;
		}
		render_entry(sb, &v, now_ns, first);
		first = false;
		tot->requests += v.requests;
		tot->shed += v.shed;
		tot->abandoned += v.abandoned;
		tot->slow += v.slow;
		tot->tls_handshake_failures += v.tls_handshake_failures;
		tot->messages_sent += v.messages_sent;
		tot->messages_received += v.messages_received;
		tot->rss += v.rss;
		tot->in_flight += v.in_flight;
		tot->connections += v.connections;
		tot->websockets += v.websockets;
		if ((unsigned) v.role < RAPIER_ROLE_COUNT) {
			tot->count[v.role]++;
		}
	}
	sb_printf(sb, "]");
}

static void render_master(strbuf_t *sb, rapier_status_table_t *t, uint64_t now_ns)
{
	uint64_t started_ns = LOAD(t->started_ns);
	uint64_t up_ms = now_ns > started_ns ? (now_ns - started_ns) / 1000000 : 0;

	sb_printf(sb, "{\"master\":{\"pid\":%d,", (int) LOAD(t->master_pid));
	sb_seconds(sb, "started_at", LOAD(t->started_at_ms));
	sb_printf(sb, ",");
	sb_seconds(sb, "uptime", up_ms);
	sb_printf(sb, ",");
	sb_seconds(sb, "shutdown_timeout", LOAD(t->shutdown_timeout_ms));
	sb_printf(sb, "},\"generations\":{\"worker\":%u,\"task_worker\":%u},",
		LOAD(t->generation[RAPIER_ROLE_WORKER]), LOAD(t->generation[RAPIER_ROLE_TASK_WORKER]));
	sb_printf(sb, "\"newest_generations\":{\"worker\":%u,\"task_worker\":%u},",
		LOAD(t->newest_generation[RAPIER_ROLE_WORKER]), LOAD(t->newest_generation[RAPIER_ROLE_TASK_WORKER]));
	sb_printf(sb, "\"failed_generations\":{\"worker\":%u,\"task_worker\":%u},",
		LOAD(t->failed_generation[RAPIER_ROLE_WORKER]), LOAD(t->failed_generation[RAPIER_ROLE_TASK_WORKER]));
	sb_printf(sb, "\"restarts\":%llu,\"recycles\":%llu,\"reload_failures\":%llu,",
		(unsigned long long) LOAD(t->restarts), (unsigned long long) LOAD(t->recycles),
		(unsigned long long) LOAD(t->reload_failures));
}

char *rapier_status_render_json(rapier_status_table_t *table, size_t *len)
{
	strbuf_t sb = { malloc(1024), 0, 1024, false };
	totals_t tot = { 0 };
	uint64_t now_ns = rapier_now_ns();

	if (sb.data == NULL) {
		return NULL;
	}
	render_master(&sb, table, now_ns);
	render_workers(&sb, table, now_ns, &tot);
	sb_printf(&sb, ",\"totals\":{\"processes\":%u,\"workers\":%u,\"task_workers\":%u,\"user_processes\":%u,",
		tot.count[0] + tot.count[1] + tot.count[2], tot.count[RAPIER_ROLE_WORKER], tot.count[RAPIER_ROLE_TASK_WORKER],
		tot.count[RAPIER_ROLE_USER_PROCESS]);
	sb_printf(&sb, "\"requests\":%llu,\"in_flight\":%llu,\"connections\":%llu,\"websockets\":%llu,\"shed\":%llu,"
		"\"abandoned\":%llu,\"slow\":%llu,\"tls_handshake_failures\":%llu,\"messages_sent\":%llu,"
		"\"messages_received\":%llu,\"rss\":%llu}}\n",
		(unsigned long long) (tot.requests + LOAD(table->retired_requests)),
		(unsigned long long) tot.in_flight, (unsigned long long) tot.connections, (unsigned long long) tot.websockets,
		(unsigned long long) (tot.shed + LOAD(table->retired_shed)),
		(unsigned long long) (tot.abandoned + LOAD(table->retired_abandoned)),
		(unsigned long long) (tot.slow + LOAD(table->retired_slow)),
		(unsigned long long) (tot.tls_handshake_failures + LOAD(table->retired_tls_handshake_failures)),
		(unsigned long long) (tot.messages_sent + LOAD(table->retired_messages_sent)),
		(unsigned long long) (tot.messages_received + LOAD(table->retired_messages_received)),
		(unsigned long long) tot.rss);
	if (sb.failed) {
		free(sb.data);
		return NULL;
	}
	*len = sb.len;
	return sb.data;
}

void rapier_status_table_publish(rapier_status_table_t *table, pid_t master, const uint32_t generation[RAPIER_ROLE_COUNT],
	uint32_t shutdown_timeout_ms)
{
	atomic_store(&table->master_pid, (int32_t) master);
	atomic_store(&table->shutdown_timeout_ms, shutdown_timeout_ms);
	atomic_store(&table->started_at_ms, wall_ms());
	atomic_store(&table->started_ns, rapier_now_ns());
	for (unsigned r = 0; r < RAPIER_ROLE_COUNT; r++) {
		atomic_store(&table->generation[r], generation[r]);
		atomic_store(&table->newest_generation[r], generation[r]);
	}
}

/* Log lines. */

void rapier_status_log_line(const char *process, rapier_log_level_t level, const char *message)
{
	static const char *names[] = { "error", "warning", "notice", "info", "debug" };
	char stamp[32], *line;
	struct timespec ts;
	struct tm tm;
	size_t size;
	int n;

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S", &tm);
	size = strlen(message) + strlen(process) + 96;
	line = malloc(size);
	if (line == NULL) {
		return;
	}
	n = snprintf(line, size, "%s.%03ld [rapier %s %d] %s: %s\n", stamp, ts.tv_nsec / 1000000, process,
		(int) getpid(), names[level], message);
	/* One write per line, so lines from several processes do not mix. */
	if (n > 0 && write(STDERR_FILENO, line, (size_t) n) < 0) {
		/* stderr is gone: there is nowhere left to say so */
	}
	free(line);
}

void rapier_status_log_stderr(void *data, rapier_log_level_t level, const char *message)
{
	(void) data;
	rapier_status_log_line("master", level, message);
}

/* Notify pipe. */

typedef struct {
	int32_t pid;
	uint32_t kind;
} notify_record_t;

int rapier_notify_open(int fds[2])
{
	/* 64 KiB of pipe holds 8192 records, far more than can ever be outstanding. */
	return pipe2(fds, O_CLOEXEC | O_NONBLOCK) < 0 ? -errno : 0;
}

int rapier_notify_send(int fd, rapier_notify_kind_t kind)
{
	notify_record_t rec = { .pid = (int32_t) getpid(), .kind = (uint32_t) kind };
	ssize_t n;

	if (fd < 0) {
		return -EBADF;
	}
	do {
		n = write(fd, &rec, sizeof(rec));
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		return -errno;
	}
	return n == (ssize_t) sizeof(rec) ? 0 : -EIO;
}

void rapier_notify_drain(int fd, rapier_notify_cb cb, void *data)
{
	notify_record_t recs[64];
	ssize_t n;

	for (;;) {
		n = read(fd, recs, sizeof(recs));
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			return;
		}
		for (size_t i = 0; i < (size_t) n / sizeof(recs[0]); i++) {
			cb(data, (pid_t) recs[i].pid, (rapier_notify_kind_t) recs[i].kind);
		}
		if ((size_t) n < sizeof(recs)) {
			return;
		}
	}
}

/* Pid file. */

static pid_t pidfile_read(const char *path)
{
	char buf[32];
	ssize_t n;
	long pid;
	char *end;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		return 0;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0) {
		return 0;
	}
	buf[n] = '\0';
	pid = strtol(buf, &end, 10);
	/* Anything but a positive number (and a newline) is garbage: treated as stale. */
	return pid > 0 && pid <= INT_MAX && (*end == '\n' || *end == '\0') ? (pid_t) pid : 0;
}

static bool read_comm(pid_t pid, char *buf, size_t size)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int) pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		return false;
	}
	n = read(fd, buf, size - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n > 0;
}

/* A program name without its version suffix: "php8.2" and "php" are the same PHP. */
static void strip_version(char *name)
{
	size_t len = strcspn(name, "\n");

	while (len > 0 && (isdigit((unsigned char) name[len - 1]) || name[len - 1] == '.')) {
		len--;
	}
	name[len] = '\0';
}

/*
 * "A live process of ours": it exists and runs the same program as we do,
 * "php" or "php8.2" alike (a daemon runs PHP_BINARY, a foreground master
 * whatever the shell found). /proc/PID/comm is readable for every user's
 * processes (exe is not), so a stale file naming another user's daemon
 * after a reboot is recognised.
 */
static bool pid_is_live_server(pid_t pid)
{
	char theirs[32], ours[32];

	if (kill(pid, 0) < 0 && errno == ESRCH) {
		return false;
	}
	if (!read_comm(pid, theirs, sizeof(theirs)) || !read_comm(getpid(), ours, sizeof(ours))) {
		/* Alive but unreadable: refusing is safer than running two servers. */
		return true;
	}
	strip_version(theirs);
	strip_version(ours);
	return strcmp(theirs, ours) == 0;
}

int rapier_pidfile_check(const char *path, pid_t self, pid_t *owner)
{
	pid_t pid = pidfile_read(path);

	*owner = 0;
	if (pid <= 0 || pid == self) {
		return 0;
	}
	*owner = pid;
	return pid_is_live_server(pid) ? -EEXIST : 0;
}

int rapier_pidfile_write(const char *path, pid_t pid)
{
	char tmp[PATH_MAX], text[24];
	int fd, len, rc = 0;

	len = snprintf(text, sizeof(text), "%d\n", (int) pid);
	if (snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int) pid) >= (int) sizeof(tmp)) {
		return -ENAMETOOLONG;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		return -errno;
	}
	if (write(fd, text, (size_t) len) != len) {
		rc = errno ? -errno : -EIO;
	}
	if (close(fd) < 0 && rc == 0) {
		rc = -errno;
	}
	/* rename() replaces the old file in one step: a reader sees the old pid or the new one. */
	if (rc == 0 && rename(tmp, path) < 0) {
		rc = -errno;
	}
	if (rc < 0) {
		unlink(tmp);
	}
	return rc;
}

void rapier_pidfile_remove(const char *path, pid_t pid)
{
	if (pidfile_read(path) == pid) {
		unlink(path);
	}
}

/* The status channel. */
typedef struct {
	int fd;                /* -1 when the slot is free */
	rapier_io_t io;
	rapier_timer_t timer;
	char *doc;
	size_t len, off;
	rapier_status_server_t *srv;
} status_client_t;

struct rapier_status_server_s {
	rapier_loop_t *loop;
	rapier_status_table_t *table;
	int fd;
	rapier_io_t io;
	char *path;
	status_client_t clients[STATUS_MAX_CLIENTS];
};

static void client_close(status_client_t *c)
{
	rapier_io_stop(c->srv->loop, &c->io);
	rapier_timer_stop(c->srv->loop, &c->timer);
	close(c->fd);
	c->fd = -1;
	free(c->doc);
	c->doc = NULL;
}

/* Returns true when the document is fully written (or the client is gone). */
static bool client_flush(status_client_t *c)
{
	while (c->off < c->len) {
		ssize_t n = send(c->fd, c->doc + c->off, c->len - c->off, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR) {
				continue;
			}
			return errno != EAGAIN && errno != EWOULDBLOCK;
		}
		c->off += (size_t) n;
	}
	return true;
}

static void on_client_writable(rapier_io_t *io, uint32_t events)
{
	status_client_t *c = io->data;

	if (client_flush(c)) {
		client_close(c);
	}
}

static void on_client_timeout(rapier_timer_t *timer)
{
	client_close(timer->data);
}

static void serve_client(rapier_status_server_t *srv, int fd)
{
	status_client_t *c = NULL;

	for (int i = 0; i < STATUS_MAX_CLIENTS && c == NULL; i++) {
		if (srv->clients[i].fd < 0) {
			c = &srv->clients[i];
		}
	}
	if (c == NULL) {
		close(fd);
		return;
	}
	rapier_status_table_sample_rss(srv->table);
	c->fd = fd;
	c->off = 0;
	rapier_io_init(&c->io, fd, on_client_writable, c);
	rapier_timer_init(&c->timer, on_client_timeout, c);
	c->doc = rapier_status_render_json(srv->table, &c->len);
	if (c->doc == NULL || client_flush(c)) {
		client_close(c);
		return;
	}
	/* The socket buffer was full: finish from the loop, with a deadline. */
	if (rapier_io_start(srv->loop, &c->io, RAPIER_IO_WRITE) < 0
			|| rapier_timer_start(srv->loop, &c->timer, STATUS_WRITE_TIMEOUT_NS, 0) < 0) {
		client_close(c);
	}
}

static void on_listener_readable(rapier_io_t *io, uint32_t events)
{
	rapier_status_server_t *srv = io->data;

	for (int i = 0; i < STATUS_ACCEPTS_PER_EVENT; i++) {
		int fd = accept4(srv->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			return;
		}
		serve_client(srv, fd);
	}
}

static int listen_unix(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	mode_t old_umask;
	int fd, rc;

	if (strlen(path) >= sizeof(addr.sun_path)) {
		return -ENAMETOOLONG;
	}
	strcpy(addr.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		return -errno;
	}
	/* The caller has checked (pid file) that no live master owns the path. */
	unlink(path);
	/*
	 * Linux takes a socket file's mode from the umask at bind time: 0660 lets
	 * the server's group (a monitoring agent) read status, others not.
	 * The master is single-threaded, so changing the umask briefly is safe.
	 */
	old_umask = umask(0117);
	rc = bind(fd, (struct sockaddr *) &addr, sizeof(addr));
	umask(old_umask);
	/* Backlog 16: status requests are rare; a burst beyond that retries. */
	if (rc < 0 || listen(fd, 16) < 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	return fd;
}

int rapier_status_server_open(rapier_status_server_t **out, rapier_loop_t *loop,
	rapier_status_table_t *table, const char *path)
{
	rapier_status_server_t *srv = calloc(1, sizeof(*srv));
	int fd;

	if (srv == NULL || (srv->path = strdup(path)) == NULL) {
		free(srv);
		return -ENOMEM;
	}
	fd = listen_unix(path);
	if (fd < 0) {
		free(srv->path);
		free(srv);
		return fd;
	}
	srv->loop = loop;
	srv->table = table;
	srv->fd = fd;
	for (int i = 0; i < STATUS_MAX_CLIENTS; i++) {
		srv->clients[i].fd = -1;
		srv->clients[i].srv = srv;
	}
	rapier_io_init(&srv->io, fd, on_listener_readable, srv);
	fd = rapier_io_start(loop, &srv->io, RAPIER_IO_READ);
	if (fd < 0) {
		rapier_status_server_close(srv);
		return fd;
	}
	*out = srv;
	return 0;
}

void rapier_status_server_close(rapier_status_server_t *srv)
{
	if (srv == NULL) {
		return;
	}
	for (int i = 0; i < STATUS_MAX_CLIENTS; i++) {
		if (srv->clients[i].fd >= 0) {
			client_close(&srv->clients[i]);
		}
	}
	rapier_io_stop(srv->loop, &srv->io);
	close(srv->fd);
	unlink(srv->path);
	free(srv->path);
	free(srv);
}

void rapier_status_server_abandon(rapier_status_server_t *srv)
{
	if (srv == NULL) {
		return;
	}
	/*
	 * A forked child shares the master's epoll instance: EPOLL_CTL_DEL here
	 * would silence the master's own watchers. Closing our copies of the
	 * descriptors leaves the master's registrations alone.
	 */
	for (int i = 0; i < STATUS_MAX_CLIENTS; i++) {
		if (srv->clients[i].fd >= 0) {
			close(srv->clients[i].fd);
			free(srv->clients[i].doc);
		}
	}
	close(srv->fd);
	free(srv->path);
	free(srv);
}
