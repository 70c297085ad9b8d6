/*
 * Unit tests for the master/worker supervisor, with real processes.
 *
 * The test process (the driver) forks a master, which calls
 * rapier_master_run(); its workers run worker_main() below and report what
 * they do ('S' started, 'R' ready, 'T' got SIGTERM) as fixed-size records on
 * a pipe whose read end only the driver holds. Records are written before
 * the action they announce, so their order on the pipe is the order of
 * events, and each carries the time it was written (when the driver got
 * around to reading it says little on a loaded machine). The driver
 * sequences everything on those records and on EOF of the pipe (every
 * master and worker gone); it never sleeps to wait for a state, except
 * when polling the status socket for the end of a reload that announces
 * nothing. The master reports its own checks (return code,
 * descriptors leaked, zombies, CPU used) as a final 'M' record.
 * The driver is a child subreaper, so at the end no process of any test may
 * be left: waitpid(-1) must say ECHILD.
 */
#define _GNU_SOURCE
#include "unit.h"

#include "timer.c"
#include "loop.c"
#include "status.c"
#include "reuseport.c"
#include "process.c"
#include "master.c"

#ifdef __SANITIZE_ADDRESS__
/* From ASan's runtime (GCC installs no header for it). */
size_t __sanitizer_get_current_allocated_bytes(void);
#endif
#include <dirent.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>

typedef struct {
	char kind;        /* S, R, T, or M (the master's report) */
	uint8_t role;
	uint8_t ok;       /* S: the child's view of itself checked out; T: it freed everything */
	uint8_t nth;      /* how many processes this slot had before this one */
	uint32_t generation;
	int32_t pid;      /* M: run()'s return code */
	int32_t index;    /* M: descriptors after run minus before */
	int32_t extra;    /* M: zombies left (0/1) * 100000 + CPU milliseconds */
	uint64_t at_ns;   /* when the writer wrote it (CLOCK_MONOTONIC, shared by all processes) */
} rec_t;

#define REC_WIRE sizeof(rec_t)

/* What a worker does. */
enum {
	BEHAVE_NORMAL,     /* ready, waits for SIGTERM, exits 0 */
	BEHAVE_CRASH,      /* exits 3 before ready */
	BEHAVE_KILLED,     /* SIGKILLs itself before ready */
	BEHAVE_STRAGGLER,  /* ready, ignores SIGTERM */
	BEHAVE_RECYCLE,    /* ready, asks to be recycled, then as normal */
	BEHAVE_EXIT_121,   /* ready, then exits 121 and 120 on later runs, as an application's exit() might */
	BEHAVE_FATAL,      /* reports "cannot start" before ready, then exits 1 */
	BEHAVE_HANG,       /* never reports ready */
	BEHAVE_ASK_RELOAD, /* ready, asks for a reload of both roles (Server::reload()), then as normal */
	BEHAVE_ASK_STOP,   /* ready, asks for a graceful stop (Server::shutdown()), then as normal */
};

typedef int (*plan_fn)(rapier_role_t role, unsigned index, uint32_t generation, int nth);

static plan_fn plan;
static int log_wr = -1;      /* the records pipe, write end */
static int master_log = -1;  /* the master's log lines, a file */
static int master_fds_before;
static size_t heap_before;
static bool caller_ignores_sigchld;  /* as a PHP script with pcntl_signal(SIGCHLD, SIG_IGN) */       /* the master's heap use before rapier_master_init() */
static char tmpdir[64];

/* Spawns per slot, across all processes of a test (MAP_SHARED). */
static struct { _Atomic int spawns[RAPIER_ROLE_COUNT][8]; } *shared;

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0;

	while ((de = readdir(d)) != NULL) {
		n += de->d_name[0] != '.';
	}
	closedir(d);
	return n - 1;  /* the directory stream's own descriptor */
}

static void emit(char kind, const rapier_worker_self_t *self, int nth, bool ok)
{
	rec_t r = { .kind = kind, .role = (uint8_t) self->role, .ok = ok, .nth = (uint8_t) nth,
		.generation = self->generation, .pid = getpid(), .index = (int32_t) self->index,
		.at_ns = rapier_now_ns() };

	if (write(log_wr, &r, REC_WIRE) != (ssize_t) REC_WIRE) {
		_exit(99);
	}
}

/* The fork-return contract: signals back to default, master-only descriptors closed. */
static bool child_contract_ok(const rapier_master_t *m)
{
	sigset_t mask;
	struct sigaction sa;

	sigprocmask(SIG_SETMASK, NULL, &mask);
	sigaction(SIGTERM, NULL, &sa);
	return m->sv == NULL && m->self.master_pid == getppid() && m->self.status != NULL
		&& !sigismember(&mask, SIGTERM) && !sigismember(&mask, SIGCHLD) && sa.sa_handler == SIG_DFL
		&& count_fds() == master_fds_before + 1  /* + the notify pipe */
		&& atomic_load(&m->self.status->master.generation) == m->self.generation;
}

/*
 * Heap bytes in use. A leak check at exit cannot tell here: stale copies of
 * the master's pointers on the reused stack keep blocks "reachable".
 */
static size_t heap_in_use(void)
{
#ifdef __SANITIZE_ADDRESS__
	return __sanitizer_get_current_allocated_bytes();
#else
	return 0;
#endif
}

static void wait_for_sigterm(void)
{
	sigset_t set;
	struct timespec limit = { 15, 0 };  /* a safety net: a test never waits this long */

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	/* A handler (the master-death one) interrupts the wait. */
	while (sigtimedwait(&set, NULL, &limit) < 0 && errno == EINTR) {
	}
}

static void worker_main(rapier_master_t *m)
{
	const rapier_worker_self_t *self = &m->self;
	int nth = atomic_fetch_add(&shared->spawns[self->role][self->index], 1);
	int behave = plan(self->role, self->index, self->generation, nth);
	sigset_t term;

	emit('S', self, nth, child_contract_ok(m));
	switch (behave) {
	case BEHAVE_CRASH: _exit(3);
	case BEHAVE_KILLED: raise(SIGKILL); break;
	case BEHAVE_FATAL: rapier_worker_fatal(self); _exit(1);
	case BEHAVE_HANG: wait_for_sigterm(); _exit(0);
	}
	/* Blocked before "ready": the master may send SIGTERM right after it. */
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigprocmask(SIG_BLOCK, &term, NULL);
	emit('R', self, nth, true);
	rapier_status_self_request_begin(self->status);
	rapier_status_self_request_end(self->status);
	rapier_worker_ready(self);
	if (behave == BEHAVE_RECYCLE) {
		rapier_worker_recycle(self);
	} else if (behave == BEHAVE_ASK_RELOAD) {
		rapier_worker_request_reload(self, false);
	} else if (behave == BEHAVE_ASK_STOP) {
		rapier_worker_request_stop(self);
	} else if (behave == BEHAVE_EXIT_121) {
		_exit(nth == 0 ? 121 : 120);
	}
	wait_for_sigterm();
	/* The child gives back everything it inherited from the master. */
	rapier_master_free(m);
	emit('T', self, nth, heap_in_use() == heap_before);
	if (behave == BEHAVE_STRAGGLER) {
		wait_for_sigterm();
	}
	exit(0);
}

static void log_to_file(void *data, rapier_log_level_t level, const char *message)
{
	dprintf(master_log, "%d %s\n", (int) level, message);
	if (getenv("RAPIER_TEST_VERBOSE")) {
		fprintf(stderr, "  master: %s\n", message);
	}
}

static long cpu_ms(int who)
{
	struct rusage ru;

	getrusage(who, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000L + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000;
}

static void master_main(rapier_master_config_t *cfg)
{
	rapier_master_t m;
	rec_t r = { .kind = 'M' };
	int rc, zombie;

	if (caller_ignores_sigchld) {
		signal(SIGCHLD, SIG_IGN);
	}
	master_fds_before = count_fds();
	heap_before = heap_in_use();
	rc = rapier_master_init(&m, cfg);
	if (rc == 0) {
		rc = rapier_master_run(&m);
	}
	if (rc == RAPIER_MASTER_CHILD) {
		worker_main(&m);
	}
	zombie = !(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD);
	rapier_master_free(&m);
	r.pid = rc;
	r.index = count_fds() - master_fds_before;
	r.extra = zombie * 100000 + (int32_t) cpu_ms(RUSAGE_SELF);
	if (write(log_wr, &r, REC_WIRE) < 0) {
		_exit(98);
	}
	exit(0);
}

/* Driver side. */

typedef struct {
	pid_t master;
	int rd;
	rec_t recs[256];
	int n;
	bool eof;
	uint64_t started_ns;  /* before the master was forked, so before any of its workers */
	char pid_file[96];
	char socket[108];
	char log_path[128];
} run_t;

static void base_config(run_t *run, rapier_master_config_t *cfg, unsigned workers, unsigned task_workers)
{
	rapier_master_config_init(cfg);
	cfg->workers = workers;
	cfg->task_workers = task_workers;
	cfg->pid_file = run->pid_file;
	cfg->log = log_to_file;
	cfg->log_level = RAPIER_LOG_DEBUG;
	/* Short limits keep the suite fast; each test that depends on one sets it. */
	cfg->shutdown_timeout_ms = 3000;
	cfg->start_timeout_ms = 3000;
	cfg->backoff_base_ms = 20;
	cfg->backoff_max_ms = 160;
}

static void run_prepare(run_t *run)
{
	memset(run, 0, sizeof(*run));
	snprintf(run->pid_file, sizeof(run->pid_file), "%s/rapier.pid", tmpdir);
	snprintf(run->socket, sizeof(run->socket), "%s.sock", run->pid_file);
	snprintf(run->log_path, sizeof(run->log_path), "%s/master.log", tmpdir);
	memset(shared, 0, sizeof(*shared));
}

static void run_start(run_t *run, rapier_master_config_t *cfg)
{
	int fds[2];

	CHECK_EQ_INT(pipe2(fds, O_CLOEXEC), 0);
	master_log = open(run->log_path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
	fflush(NULL);
	run->started_ns = rapier_now_ns();
	run->master = fork();
	if (run->master == 0) {
		close(fds[0]);
		log_wr = fds[1];
		master_main(cfg);
	}
	close(fds[1]);
	close(master_log);
	run->rd = fds[0];
}

/* Reads one record within timeout_ms; false on timeout or EOF. */
static bool read_rec(run_t *run, int timeout_ms)
{
	struct pollfd pfd = { .fd = run->rd, .events = POLLIN };
	rec_t *r = &run->recs[run->n];

	if (run->eof || run->n == (int) (sizeof(run->recs) / sizeof(run->recs[0])) || poll(&pfd, 1, timeout_ms) <= 0) {
		return false;
	}
	ssize_t got = read(run->rd, r, REC_WIRE);
	if (got == 0) {
		run->eof = true;
		return false;
	}
	run->n++;
	return got == (ssize_t) REC_WIRE;
}

static bool matches(const rec_t *r, char kind, int role, int generation)
{
	return r->kind == kind && (role < 0 || r->role == role) && (generation < 0 || (int) r->generation == generation);
}

static int count(run_t *run, char kind, int role, int generation)
{
	int n = 0;

	for (int i = 0; i < run->n; i++) {
		n += matches(&run->recs[i], kind, role, generation);
	}
	return n;
}

/* Waits until n records match; role and generation -1 match any. */
static bool await(run_t *run, char kind, int role, int generation, int n, int timeout_ms)
{
	uint64_t until = rapier_now_ns() + (uint64_t) timeout_ms * 1000000;

	while (count(run, kind, role, generation) < n) {
		int64_t left = (int64_t) (until - rapier_now_ns()) / 1000000;
		if (left <= 0 || !read_rec(run, (int) left)) {
			if (count(run, kind, role, generation) < n) {
				fprintf(stderr, "  timed out waiting for %d '%c' records (role %d, generation %d)\n",
					n, kind, role, generation);
				return false;
			}
		}
	}
	return true;
}

static int first_index(run_t *run, char kind, int role, int generation)
{
	for (int i = 0; i < run->n; i++) {
		if (matches(&run->recs[i], kind, role, generation)) {
			return i;
		}
	}
	return -1;
}

static int last_index(run_t *run, char kind, int role, int generation)
{
	int last = -1;

	for (int i = 0; i < run->n; i++) {
		if (matches(&run->recs[i], kind, role, generation)) {
			last = i;
		}
	}
	return last;
}

static bool all_children_ok(run_t *run);

/*
 * Reads to EOF (every process gone), reaps the master and returns its
 * report. Checks the report: no leaked descriptor, no zombie.
 */
static rec_t run_finish(run_t *run, int timeout_ms)
{
	uint64_t until = rapier_now_ns() + (uint64_t) timeout_ms * 1000000;
	rec_t none = { .kind = '?', .pid = 12345 };
	int status = -1;

	while (!run->eof && rapier_now_ns() < until) {
		read_rec(run, 50);
	}
	CHECK(run->eof);
	if (!run->eof) {
		kill(run->master, SIGKILL);
	}
	waitpid(run->master, &status, 0);
	close(run->rd);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(all_children_ok(run));
	int at = last_index(run, 'M', -1, -1);
	if (at < 0) {
		return none;
	}
	CHECK_EQ_INT(run->recs[at].index, 0);            /* descriptors leaked by the master */
	CHECK_EQ_INT(run->recs[at].extra / 100000, 0);   /* zombies left to the master */
	return run->recs[at];
}

static const char *log_text(run_t *run)
{
	static char text[65536];
	int fd = open(run->log_path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, text, sizeof(text) - 1);

	if (fd >= 0) {
		close(fd);
	}
	text[n > 0 ? n : 0] = '\0';
	return text;
}

static bool log_has(run_t *run, const char *needle)
{
	if (strstr(log_text(run), needle) == NULL) {
		fprintf(stderr, "  master log lacks \"%s\"\n", needle);
		return false;
	}
	return true;
}

/* Whether the master's log announces worker #0's first restarts as want[], in order ("now\n", "in 20 ms (", ...). */
static bool restarts_announced(run_t *run, const char *const *want, int n)
{
	static const char tag[] = "restarting worker #0 ";
	const char *p = log_text(run);

	for (int i = 0; i < n; i++) {
		if ((p = strstr(p, tag)) == NULL || strncmp(p + strlen(tag), want[i], strlen(want[i])) != 0) {
			fprintf(stderr, "  restart %d of worker #0 was not announced as \"%s\"\n", i + 1, want[i]);
			return false;
		}
		p += strlen(tag);
	}
	return true;
}

/* Connects to the status socket and reads the whole document. */
static char *status_doc(run_t *run)
{
	static char doc[65536];
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct timeval tv = { 2, 0 };
	size_t len = 0;
	ssize_t n;
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	memcpy(addr.sun_path, run->socket, sizeof(addr.sun_path));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *) &addr, sizeof(addr)) < 0) {
		close(fd);
		return NULL;
	}
	while ((n = read(fd, doc + len, sizeof(doc) - 1 - len)) > 0) {
		len += (size_t) n;
	}
	close(fd);
	doc[len] = '\0';
	return n == 0 ? doc : NULL;
}

/* Minimal JSON check: balanced brackets outside strings, one top-level object. */
static bool json_balanced(const char *s)
{
	int depth = 0;
	bool in_string = false;

	if (*s != '{') {
		return false;
	}
	for (; *s; s++) {
		if (in_string) {
			if (*s == '\\') {
				s++;
			} else if (*s == '"') {
				in_string = false;
			}
		} else if (*s == '"') {
			in_string = true;
		} else if (*s == '{' || *s == '[') {
			depth++;
		} else if (*s == '}' || *s == ']') {
			if (--depth < 0) {
				return false;
			}
		} else if (depth == 0 && *s != '\n') {
			return false;
		}
	}
	return depth == 0 && !in_string;
}

/* The integer after "key": at its first occurrence, or -1. */
static long json_int(const char *doc, const char *key)
{
	char pattern[64];
	const char *at;

	snprintf(pattern, sizeof(pattern), "\"%s\":", key);
	at = doc ? strstr(doc, pattern) : NULL;
	return at ? strtol(at + strlen(pattern), NULL, 10) : -1;
}

static int count_workers(const char *doc, const char *role, int generation)
{
	char pattern[96];
	int n = 0;

	snprintf(pattern, sizeof(pattern), "\"role\":\"%s\",\"index\":", role);
	for (const char *p = doc; (p = strstr(p, pattern)) != NULL; p++) {
		const char *gen = strstr(p, "\"generation\":");
		n += generation < 0 || strtol(gen + 13, NULL, 10) == generation;
	}
	return n;
}

/* Polls the status socket until cond holds (for changes no worker announces). */
static char *status_until(run_t *run, bool (*cond)(const char *doc), int timeout_ms)
{
	uint64_t until = rapier_now_ns() + (uint64_t) timeout_ms * 1000000;
	char *doc;

	do {
		doc = status_doc(run);
		if (doc != NULL && cond(doc)) {
			return doc;
		}
		usleep(10000);
	} while (rapier_now_ns() < until);
	return NULL;
}

/* Tests. */

static int plan_normal(rapier_role_t role, unsigned index, uint32_t generation, int nth)
{
	return BEHAVE_NORMAL;
}

static int find_rec(run_t *run, char kind, int role, int index, int nth)
{
	for (int i = 0; i < run->n; i++) {
		const rec_t *r = &run->recs[i];
		if (r->kind == kind && r->role == role && r->index == index && r->nth == nth) {
			return i;
		}
	}
	return -1;
}

static bool all_children_ok(run_t *run)
{
	for (int i = 0; i < run->n; i++) {
		if ((run->recs[i].kind == 'S' || run->recs[i].kind == 'T') && !run->recs[i].ok) {
			return false;
		}
	}
	return true;
}

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	CHECK(write(fd, text, strlen(text)) == (ssize_t) strlen(text));
	close(fd);
}

static long ms_between(run_t *run, int a, int b)
{
	return (long) ((int64_t) (run->recs[b].at_ns - run->recs[a].at_ns) / 1000000);
}

static int count_str(const char *doc, const char *needle)
{
	int n = 0;

	for (const char *p = doc; p && (p = strstr(p, needle)) != NULL; p++) {
		n++;
	}
	return n;
}

static bool four_ready(const char *doc)
{
	return count_str(doc, "\"state\":\"ready\"") == 4;
}

static void test_start_status_stop(void)
{
	run_t run;
	rapier_master_config_t cfg;
	char text[32];
	const char *doc;
	pid_t dead;

	run_prepare(&run);
	/* A stale pid file naming a process that has exited is replaced. */
	dead = fork();
	if (dead == 0) {
		_exit(0);
	}
	waitpid(dead, NULL, 0);
	snprintf(text, sizeof(text), "%d\n", (int) dead);
	write_file(run.pid_file, text);
	plan = plan_normal;
	base_config(&run, &cfg, 3, 1);
	run_start(&run, &cfg);
	CHECK(await(&run, 'R', -1, 1, 4, 5000));
	CHECK_EQ_INT(count(&run, 'S', -1, -1), 4);
	CHECK(all_children_ok(&run));
	CHECK_EQ_INT(pidfile_read(run.pid_file), run.master);

	doc = status_until(&run, four_ready, 3000);
	CHECK(doc != NULL && json_balanced(doc));
	CHECK_EQ_INT(json_int(doc, "pid"), run.master);
	CHECK_EQ_INT(count_workers(doc, "worker", 1), 3);
	CHECK_EQ_INT(count_workers(doc, "task_worker", 1), 1);
	CHECK_EQ_INT(json_int(doc ? strstr(doc, "\"totals\"") : NULL, "processes"), 4);
	CHECK_EQ_INT(json_int(doc ? strstr(doc, "\"totals\"") : NULL, "requests"), 4);
	CHECK_EQ_INT(json_int(doc, "restarts"), 0);

	kill(run.master, SIGTERM);
	CHECK(await(&run, 'T', -1, 1, 4, 5000));
	CHECK_EQ_INT(run_finish(&run, 5000).pid, 0);
	CHECK(access(run.pid_file, F_OK) < 0);
	CHECK(access(run.socket, F_OK) < 0);
	CHECK(log_has(&run, "replacing stale pid file"));
	CHECK(log_has(&run, "all 4 processes ready"));
}

static int plan_crash(rapier_role_t role, unsigned index, uint32_t generation, int nth)
{
	return BEHAVE_CRASH;
}

static void test_crash_loop_backs_off(void)
{
	/* Delay before the k-th start: 0 for the first crash, then 20 ms doubling up to 160. */
	static const int expect_ms[] = { 0, 0, 20, 40, 80, 160, 160, 160, 160 };
	static const char *const announced[] = {
		"now\n", "in 20 ms (", "in 40 ms (", "in 80 ms (", "in 160 ms (", "in 160 ms (", "in 160 ms (", "in 160 ms (",
	};
	run_t run;
	rapier_master_config_t cfg;
	int at[9];
	rec_t report;

	run_prepare(&run);
	plan = plan_crash;
	base_config(&run, &cfg, 1, 0);
	run_start(&run, &cfg);
	CHECK(await(&run, 'S', -1, -1, 9, 30000));
	for (int k = 0; k < 9; k++) {
		at[k] = find_rec(&run, 'S', RAPIER_ROLE_WORKER, 0, k);
	}
	/*
	 * Never early: the back-off timer starts when the master reaps a worker,
	 * after that worker's record, and the next record comes after the timer.
	 * How late depends on the machine's load; the delays the master chose,
	 * doubling and then capped, are in its log.
	 */
	for (int k = 2; k < 9 && at[k] >= 0; k++) {
		CHECK(ms_between(&run, at[k - 1], at[k]) >= expect_ms[k]);
	}
	CHECK(restarts_announced(&run, announced, 8));
	CHECK(json_int(status_doc(&run), "restarts") >= 8);
	kill(run.master, SIGTERM);
	report = run_finish(&run, 5000);
	CHECK_EQ_INT(report.pid, 0);
	/* No spinning: the master itself used little CPU through about a second of crashes. */
	CHECK(report.extra % 100000 < 300);
	CHECK(log_has(&run, "exited with code 3"));
}

static int plan_killed_first(rapier_role_t role, unsigned index, uint32_t generation, int nth)
{
	return index == 0 && nth == 0 ? BEHAVE_KILLED : BEHAVE_NORMAL;
}

static void test_crash_once_and_kill_9_are_replaced(void)
{
	run_t run;
	rapier_master_config_t cfg;
	int r1;

	run_prepare(&run);
	plan = plan_killed_first;
	base_config(&run, &cfg, 2, 0);
	caller_ignores_sigchld = true;
	run_start(&run, &cfg);
	caller_ignores_sigchld = false;
	CHECK(await(&run, 'R', -1, 1, 2, 5000));
	/* Worker #0 died once before ready and was restarted at once (no back-off yet). */
	CHECK(find_rec(&run, 'R', RAPIER_ROLE_WORKER, 0, 1) >= 0);
	CHECK(log_has(&run, "restarting worker #0 now"));
	/* kill -9 of a healthy worker: replaced, the other one untouched. */
	r1 = find_rec(&run, 'R', RAPIER_ROLE_WORKER, 1, 0);
	CHECK(r1 >= 0);
	if (r1 >= 0) {
		kill(run.recs[r1].pid, SIGKILL);
	}
	CHECK(await(&run, 'R', -1, 1, 3, 5000));
	CHECK(find_rec(&run, 'R', RAPIER_ROLE_WORKER, 1, 1) >= 0);
	CHECK_EQ_INT(count(&run, 'T', -1, -1), 0);
	kill(run.master, SIGTERM);
	CHECK_EQ_INT(run_finish(&run, 5000).pid, 0);
	CHECK_EQ_INT(count(&run, 'T', -1, -1), 2);
	CHECK(log_has(&run, "was killed by signal 9 (SIGKILL)"));
}

static int plan_straggler_1(rapier_role_t role, unsigned index, uint32_t generation, int nth)
{
	return index == 1 ? BEHAVE_STRAGGLER : BEHAVE_NORMAL;
}

static void test_sigterm_kills_stragglers_after_timeout(void)
{
	run_t run;
	rapier_master_config_t cfg;
	uint64_t t0;
	long took;

	run_prepare(&run);
	plan = plan_straggler_1;
	base_config(&run, &cfg, 2, 0);
	cfg.shutdown_timeout_ms = 300;
	run_start(&run, &cfg);
	CHECK(await(&run, 'R', -1, 1, 2, 5000));
	t0 = rapier_now_ns();
	kill(run.master, SIGTERM);
	CHECK_EQ_INT(run_finish(&run, 5000).pid, 0);
	/* Not before the timeout; how soon after it depends on the machine's load. */
	took = (long) ((rapier_now_ns() - t0) / 1000000);
	CHECK(took >= 300);
	CHECK_EQ_INT(count(&run, 'T', -1, -1), 2);
	CHECK(log_has(&run, "did not stop within 300 ms: sending SIGKILL"));
	CHECK(log_has(&run, "was killed by signal 9"));
}

/* Reaps pid (an orphan that became ours: the test process is a subreaper) within timeout_ms; its status or -1. */
static int reap_within(pid_t pid, int timeout_ms)
{
	uint64_t until = rapier_now_ns() + (uint64_t) timeout_ms * 1000000;
	int status;

	while (rapier_now_ns() < until) {
		if (waitpid(pid, &status, WNOHANG) == pid) {
			return status;
		}
		usleep(5000);
	}
	return -1;
}

static void test_master_killed_workers_drain_then_are_killed(void)
{
	run_t run;
	rapier_master_config_t cfg;
	pid_t normal, straggler;
	int status;
	uint64_t t0;

	run_prepare(&run);
	plan = plan_straggler_1;
	base_config(&run, &cfg, 2, 0);
	cfg.shutdown_timeout_ms = 300;
	run_start(&run, &cfg);
	CHECK(await(&run, 'R', -1, 1, 2, 5000));
	normal = run.recs[find_rec(&run, 'R', 0, 0, 0)].pid;
	straggler = run.recs[find_rec(&run, 'R', 0, 1, 0)].pid;
	t0 = rapier_now_ns();
	kill(run.master, SIGKILL);
	waitpid(run.master, &status, 0);
	/* Both got SIGTERM; the one that exits on it does, the straggler is killed when the deadline passes. */
	CHECK(await(&run, 'T', -1, 1, 2, 3000));
	status = reap_within(normal, 3000);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	status = reap_within(straggler, 3000);
	CHECK(status != -1 && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	CHECK((rapier_now_ns() - t0) / 1000000 >= 300);
	if (status == -1) {
		kill(straggler, SIGKILL);
		waitpid(straggler, NULL, 0);
	}
	close(run.rd);
}

static int plan_straggler(rapier_role_t role, unsigned index, uint32_t generation, int nth)
{
	return BEHAVE_STRAGGLER;
}

static void test_sigquit_stops_at_once(void)
{
	run_t run;
	rapier_master_config_t cfg;

	run_prepare(&run);
	plan = plan_straggler;
	base_config(&run, &cfg, 2, 1);
	/* Waiting for the stragglers would take this long: run_finish() gives up long before. */
	cfg.shutdown_timeout_ms = 120000;
	run_start(&run, &cfg);
	CHECK(await(&run, 'R', -1, 1, 3, 5000));
	kill(run.master, SIGQUIT);
	CHECK_EQ_INT(run_finish(&run, 30000).pid, 0);
	/* SIGKILL straight away: nobody saw a SIGTERM. */
	CHECK_EQ_INT(count(&run, 'T', -1, -1), 0);
	CHECK(access(run.pid_file, F_OK) < 0);
}

static bool reloaded_both(const char *doc)
{
	return json_int(strstr(doc, "\"totals\""), "processes") == 3 && count_workers(doc, "worker", 2) == 2
		&& count_workers(doc, "task_worker", 2) == 1;
}

/* The whole new generation of a role is ready before the old one hears SIGTERM. */
static void check_reload_order(run_t *run, rapier_role_t role, int old, int gen, int n)
{
	CHECK(await(run, 'R', role, gen, n, 5000));
	CHECK(await(run, 'T', role, old, n, 5000));
	CHECK(last_index(run, 'R', role, gen) < first_index(run, 'T', role, old));
}

static void test_reload_starts_new_generation_first(void)
{
	run_t run;
	rapier_master_config_t cfg;
	const char *doc;

	run_prepare(&run);
	plan = plan_normal;
	base_config(&run, &cfg, 2, 1);
	run_start(&run, &cfg);
	CHECK(await(&run, 'R', -1, 1, 3, 5000));

	kill(run.master, SIGUSR1);
	check_reload_order(&run, RAPIER_ROLE_WORKER, 1, 2, 2);
	CHECK_EQ_INT(count(&run, 'T', RAPIER_ROLE_TASK_WORKER, -1), 0);

	kill(run.master, SIGUSR2);
	check_reload_order(&run, RAPIER_ROLE_TASK_WORKER, 1, 2, 1);
	doc = status_until(&run, reloaded_both, 3000);
	CHECK(doc != NULL && strstr(doc, "\"generations\":{\"worker\":2,\"task_worker\":2}") != NULL);

	/* SIGHUP reloads both roles. */
	kill(run.master, SIGHUP);
	check_reload_order(&run, RAPIER_ROLE_WORKER, 2, 3, 2);
	check_reload_order(&run, RAPIER_ROLE_TASK_WORKER, 2, 3, 1);

	kill(run.master, SIGTERM);
	CHECK_EQ_INT(run_finish(&run, 5000).pid, 0);
	CHECK(all_children_ok(&run));
}

/* User processes: started with the workers, replaced when killed, left alone by a reload, stopped with the server. */
static void test_user_processes_are_supervised_not_reloaded(void)
{
	run_t run;
	rapier_master_config_t cfg;
	const char *doc;
	int r;

	run_prepare(&run);
	plan = plan_normal;
	base_config(&run, &cfg, 1, 0);
	cfg.user_processes = 2;
	run_start(&run, &cfg);
	CHECK(await(&run, 'R', -1, 1, 3, 5000));
	CHECK_EQ_INT(count(&run, 'R', RAPIER_ROLE_USER_PROCESS, 1), 2);
	doc = status_doc(&run);
	CHECK(doc != NULL && count_workers(doc, "user_process", 1) == 2
		&& strstr(doc, "\"user_processes\":2,") != NULL);

	/* kill -9: replaced, like a worker. */
	r = find_rec(&run, 'R', RAPIER_ROLE_USER_PROCESS, 1, 0);
	CHECK(r >= 0);
	if (r >= 0) {
		kill(run.recs[r].pid, SIGKILL);
	}
	CHECK(await(&run, 'R', -1, 1, 4, 5000));
	CHECK(find_rec(&run, 'R', RAPIER_ROLE_USER_PROCESS, 1, 1) >= 0);

	/* SIGHUP reloads the workers only. */
	kill(run.master, SIGHUP);
	check_reload_order(&run, RAPIER_ROLE_WORKER, 1, 2, 1);
	CHECK_EQ_INT(count(&run, 'S', RAPIER_ROLE_USER_PROCESS, -1), 3);
	CHECK_EQ_INT(count(&run, 'T', RAPIER_ROLE_USER_PROCESS, -1), 0);

	kill(run.master, SIGTERM);
	CHECK_EQ_INT(run_finish(&run, 5000).pid, 0);
	CHECK_EQ_INT(count(&run, 'T', RAPIER_ROLE_USER_PROCESS, -1), 2);
	CHECK(all_children_ok(&run));
	CHECK(log_has(&run, "user process #1 (pid"));
}

static int plan_generation_2_fails(rapier_role_t role, unsigned index, uint32_t generation, int nth)
{
	return generation == 2 ? BEHAVE_CRASH : BEHAVE_NORMAL;
}

static bool reload_abandoned(const char *doc)
{
	return json_int(strstr(doc, "\"totals\""), "processes") == 2 && count_workers(doc, "worker", 1) == 2;
}

static void test_failed_reload_keeps_old_generation(void)
{
	run_t run;
	rapier_master_config_t cfg;
	pid_t old[2];

	run_prepare(&run);
	plan = plan_generation_2_fails;
	base_config(&run, &cfg, 2, 0);
	run_start(&run, &cfg);
	CHECK(await(&run, 'R', -1, 1, 2, 5000));
	for (int i = 0; i < 2; i++) {
		old[i] = run.recs[find_rec(&run, 'R', RAPIER_ROLE_WORKER, i, 0)].pid;
	}
	kill(run.master, SIGUSR1);
	CHECK(await(&run, 'S', -1, 2, 1, 5000));
	/* Candidates were registered before the first one ran, so "none left" means abandoned. */
	CHECK(status_until(&run, reload_abandoned, 3000) != NULL);
	CHECK_EQ_INT(count(&run, 'T', -1, -1), 0);
	CHECK(kill(old[0], 0) == 0 && kill(old[1], 0) == 0);
	CHECK(log_has(&run, "reload of workers failed"));

	/* The next reload (generation 3) works and replaces generation 1. */
	kill(run.master, SIGUSR1);
	check_reload_order(&run, RAPIER_ROLE_WORKER, 1, 3, 2);
	kill(run.master, SIGTERM);
	CHECK_EQ_INT(run_finish(&run, 5000).pid, 0);
}

static int plan_recycles(rapier_role_t role, unsigned index, uint32_t generation, int nth)
{
	if (nth == 0) {
		return index == 0 ? BEHAVE_RECYCLE : BEHAVE_NORMAL;
	}
	return BEHAVE_NORMAL;
}

static bool recycled_once(const char *doc)
{
	return json_int(doc, "recycles") == 1 && json_int(strstr(doc, "\"totals\""), "processes") == 2;
}

static void test_recycle_starts_successor_first(void)
{
	run_t run;
	rapier_master_config_t cfg;
	const char *doc;

	run_prepare(&run);
	plan = plan_recycles;
	base_config(&run, &cfg, 2, 0);
	run_start(&run, &cfg);
	CHECK(await(&run, 'R', -1, 1, 3, 5000));
	CHECK(await(&run, 'T', -1, 1, 1, 5000));
	/* Worker #0 asked: its successor was ready before it was told to stop. */
	CHECK(find_rec(&run, 'R', 0, 0, 1) >= 0);
	CHECK(find_rec(&run, 'R', 0, 0, 1) < find_rec(&run, 'T', 0, 0, 0));
	doc = status_until(&run, recycled_once, 3000);
	CHECK(doc != NULL);
	CHECK_EQ_INT(json_int(doc, "restarts"), 0);
	kill(run.master, SIGTERM);
	CHECK_EQ_INT(run_finish(&run, 5000).pid, 0);
	CHECK(log_has(&run, "asked to be recycled"));
}

/* Worker #0 asks to be recycled; its first successor crashes, the second cannot start, the third works. */
static int plan_recycle_successors_fail(rapier_role_t role, unsigned index, uint32_t generation, int nth)
{
	static const int behave[] = { BEHAVE_RECYCLE, BEHAVE_CRASH, BEHAVE_FATAL, BEHAVE_NORMAL };

	return index == 0 && nth < 4 ? behave[nth] : BEHAVE_NORMAL;
}

static bool restarted_twice(const char *doc)
{
	return json_int(doc, "recycles") == 1 && json_int(doc, "restarts") == 2;
}

static void test_recycled_worker_serves_until_a_successor_is_ready(void)
{
	run_t run;
	rapier_master_config_t cfg;

	run_prepare(&run);
	plan = plan_recycle_successors_fail;
	base_config(&run, &cfg, 1, 0);
	run_start(&run, &cfg);
	CHECK(await(&run, 'R', -1, 1, 2, 5000));
	CHECK(await(&run, 'T', -1, 1, 1, 5000));
	/* Two failed successors, neither a reason to stop the server nor the process that still serves. */
	CHECK(find_rec(&run, 'S', 0, 0, 2) >= 0);
	CHECK(find_rec(&run, 'R', 0, 0, 3) >= 0);
	CHECK(find_rec(&run, 'R', 0, 0, 3) < find_rec(&run, 'T', 0, 0, 0));
	CHECK(status_until(&run, restarted_twice, 3000) != NULL);
	kill(run.master, SIGTERM);
	CHECK_EQ_INT(run_finish(&run, 5000).pid, 0);
	CHECK(log_has(&run, "the process it replaces keeps serving"));
}

/* A steering target the kernel refuses (not a socket): one warning, and the server runs on. */
static void test_steering_refused_is_logged_once(void)
{
	run_t run;
	rapier_master_config_t cfg;
	int not_a_socket = open("/dev/null", O_RDONLY | O_CLOEXEC);
	const char *text;

	run_prepare(&run);
	plan = plan_normal;
	base_config(&run, &cfg, 2, 0);
	cfg.steer_fd = not_a_socket;
	run_start(&run, &cfg);
	close(not_a_socket);
	CHECK(await(&run, 'R', -1, 1, 2, 5000));
	kill(run.master, SIGTERM);
	CHECK_EQ_INT(run_finish(&run, 5000).pid, 0);
	text = log_text(&run);
	CHECK(strstr(text, "cannot steer new connections") != NULL);
	CHECK(strstr(text, "cannot steer") == NULL || strstr(strstr(text, "cannot steer") + 1, "cannot steer") == NULL);
}

/* Exit codes mean nothing by themselves: an application's exit(121) or exit(120) is a crash. */
static int plan_exit_121_twice(rapier_role_t role, unsigned index, uint32_t generation, int nth)
{
	return nth < 2 ? BEHAVE_EXIT_121 : BEHAVE_NORMAL;
}

static bool crashed_twice(const char *doc)
{
	return json_int(doc, "restarts") == 2 && json_int(doc, "recycles") == 0;
}

static void test_exit_codes_of_a_ready_worker_are_crashes(void)
{
	run_t run;
	rapier_master_config_t cfg;

	run_prepare(&run);
	plan = plan_exit_121_twice;
	base_config(&run, &cfg, 1, 0);
	run_start(&run, &cfg);
	CHECK(await(&run, 'R', -1, 1, 3, 5000));
	CHECK(status_until(&run, crashed_twice, 3000) != NULL);
	kill(run.master, SIGTERM);
	CHECK_EQ_INT(run_finish(&run, 5000).pid, 0);
	CHECK(log_has(&run, "exited with code 121"));
	CHECK(strstr(log_text(&run), "cannot start") == NULL);
}

static void test_live_pid_file_refuses_start(void)
{
	run_t run;
	rapier_master_config_t cfg;
	char text[32];

	run_prepare(&run);
	/* The driver runs the same program, so it looks like a live server. */
	snprintf(text, sizeof(text), "%d\n", (int) getpid());
	write_file(run.pid_file, text);
	plan = plan_normal;
	base_config(&run, &cfg, 1, 0);
	run_start(&run, &cfg);
	CHECK_EQ_INT(run_finish(&run, 5000).pid, -EEXIST);
	CHECK_EQ_INT(count(&run, 'S', -1, -1), 0);
	CHECK_EQ_INT(pidfile_read(run.pid_file), getpid());
	CHECK(log_has(&run, "another server seems to be running"));
	unlink(run.pid_file);
}

static int plan_fatal_0(rapier_role_t role, unsigned index, uint32_t generation, int nth)
{
	return index == 0 ? BEHAVE_FATAL : BEHAVE_NORMAL;
}

static void test_fatal_report_stops_server(void)
{
	run_t run;
	rapier_master_config_t cfg;

	run_prepare(&run);
	plan = plan_fatal_0;
	base_config(&run, &cfg, 2, 0);
	run_start(&run, &cfg);
	CHECK_EQ_INT(run_finish(&run, 5000).pid, -ECANCELED);
	CHECK_EQ_INT(count(&run, 'S', RAPIER_ROLE_WORKER, -1) <= 2, 1);
	CHECK(log_has(&run, "reported that it cannot start: not restarting it"));
}

static int plan_hang_first(rapier_role_t role, unsigned index, uint32_t generation, int nth)
{
	return nth == 0 ? BEHAVE_HANG : BEHAVE_NORMAL;
}

static void test_start_timeout_kills_and_restarts(void)
{
	run_t run;
	rapier_master_config_t cfg;
	int second;

	run_prepare(&run);
	plan = plan_hang_first;
	base_config(&run, &cfg, 1, 0);
	cfg.start_timeout_ms = 200;
	run_start(&run, &cfg);
	CHECK(await(&run, 'R', -1, 1, 1, 5000));
	/* The hung worker was forked after run_start() and killed 200 ms later at the earliest. */
	second = find_rec(&run, 'S', 0, 0, 1);
	CHECK(second >= 0 && run.recs[second].at_ns - run.started_ns >= 200 * 1000000ull);
	kill(run.master, SIGTERM);
	CHECK_EQ_INT(run_finish(&run, 5000).pid, 0);
	CHECK(log_has(&run, "did not report ready within 200 ms"));
}

/* The worker's first process asks for a reload; its successor, once ready, asks for the stop. */
static int plan_children_ask(rapier_role_t role, unsigned index, uint32_t generation, int nth)
{
	return generation == 1 ? BEHAVE_ASK_RELOAD : BEHAVE_ASK_STOP;
}

static void test_children_ask_for_reload_and_stop(void)
{
	run_t run;
	rapier_master_config_t cfg;

	run_prepare(&run);
	plan = plan_children_ask;
	base_config(&run, &cfg, 1, 0);
	run_start(&run, &cfg);
	CHECK(await(&run, 'R', RAPIER_ROLE_WORKER, 2, 1, 5000));
	CHECK_EQ_INT(run_finish(&run, 5000).pid, 0);
	/* A reload as any other: the successor was ready before its predecessor was told to stop. */
	CHECK(last_index(&run, 'R', RAPIER_ROLE_WORKER, 2) < first_index(&run, 'T', RAPIER_ROLE_WORKER, 1));
	CHECK_EQ_INT(count(&run, 'S', -1, -1), 2);
	CHECK_EQ_INT(count(&run, 'T', -1, -1), 2);
	CHECK(log_has(&run, "worker #0 (pid"));
	CHECK(log_has(&run, "generation 1) asked for a reload of the workers and task workers"));
	CHECK(log_has(&run, "generation 2) asked the server to stop: stopping gracefully"));
}

int main(void)
{
	uint64_t t0 = rapier_now_ns();
	char path[128];

	/* A hung test fails the suite instead of blocking it. */
	alarm(60);
	/*
	 * As PHP's CLI does, which every master and worker runs under: a child
	 * that reports to a master killed a moment before gets EPIPE, not a
	 * SIGPIPE that kills it before the test sees what it does next.
	 */
	signal(SIGPIPE, SIG_IGN);
	/* Orphans of any test become ours, so the final check below sees them. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/rapier-process-test-XXXXXX");
	if (shared == MAP_FAILED || mkdtemp(tmpdir) == NULL) {
		perror("setup");
		return 1;
	}
	test_start_status_stop();
	test_crash_loop_backs_off();
	test_crash_once_and_kill_9_are_replaced();
	test_sigterm_kills_stragglers_after_timeout();
	test_master_killed_workers_drain_then_are_killed();
	test_sigquit_stops_at_once();
	test_reload_starts_new_generation_first();
	test_user_processes_are_supervised_not_reloaded();
	test_failed_reload_keeps_old_generation();
	test_recycle_starts_successor_first();
	test_children_ask_for_reload_and_stop();
	test_recycled_worker_serves_until_a_successor_is_ready();
	test_exit_codes_of_a_ready_worker_are_crashes();
	test_steering_refused_is_logged_once();
	test_live_pid_file_refuses_start();
	test_fatal_report_stops_server();
	test_start_timeout_kills_and_restarts();

	/* Not one process of any test is left, running or zombie. */
	CHECK(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD);
	snprintf(path, sizeof(path), "%s/master.log", tmpdir);
	unlink(path);
	rmdir(tmpdir);
	munmap(shared, sizeof(*shared));
	printf("process_test: %.1f s\n", (double) (rapier_now_ns() - t0) / 1e9);
	return unit_finish("process_test");
}
