/*
 * The supervisor's policy: forks request workers and task workers, restarts
 * them with a back-off, reloads them one generation at a time and stops
 * them. master.c holds the run loop and the master's own resources; both
 * files share the structures in process_internal.h.
 *
 * Model: a logical slot per configured worker (role, index) and a process
 * record per status-table entry. A slot has at most one "current" process,
 * the one kept alive, and during a reload one "candidate" of the next
 * generation; any number of others may be draining. Everything here runs in
 * callbacks of the master's loop: SIGCHLD and the control signals, "ready"
 * and "recycle me" records from workers, and timers for back-off and
 * deadlines. The callbacks never fork: they mark slots as needing a process,
 * and master.c's run loop forks between polls (its design note says why).
 *
 * Rejected: waitpid(-1) (it would steal statuses of children the PHP script
 * made itself); per-slot reload swaps (a reload is all or nothing, so a
 * broken deploy never half-replaces a pool).
 */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include "process_internal.h"
#include "reuseport.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * What the kernel sends a child when the master dies. Not SIGTERM itself:
 * a worker reads SIGTERM from its loop's signalfd, which a handler stuck in
 * a CPU loop never lets run, and that worker would hold the port for ever
 * with no master left to kill it. This one has a handler, which runs
 * whatever the worker is doing: it starts the drain with SIGTERM and arms
 * the master's SIGKILL deadline on a timer of the worker's own. SIGPWR's
 * default action ends the process too, should anything reset the handler.
 */
#define MASTER_DEATH_SIGNAL SIGPWR

#define NS_PER_MS 1000000ull

/*
 * Status entries per slot: its current process, a reload candidate, and two
 * more still draining from earlier reloads or recycles. If reloads come
 * faster than old generations drain, a further reload is refused (logged)
 * rather than growing the shared table after workers have mapped it.
 */
#define PROCS_PER_SLOT 4

/* Hard cap per role: keeps the table small and a typo (workers => 100000) harmless. */
#define MAX_PER_ROLE 1024

/* The crash counter stops here; beyond it the back-off sits at its cap anyway. */
#define MAX_FAILURES 32

/* The master handles these through its signalfd; children get them back at default. */
static const int handled_signals[] = { SIGCHLD, SIGTERM, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGHUP };
#define HANDLED_COUNT (sizeof(handled_signals) / sizeof(handled_signals[0]))

void rapier__process_signal_set(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < HANDLED_COUNT; i++) {
		sigaddset(set, handled_signals[i]);
	}
}

static void reload_begin(rapier_supervisor_t *sv, rapier_role_t role);
static void steer(rapier_supervisor_t *sv);
static void on_backoff(rapier_timer_t *timer);
static void on_deadline(rapier_timer_t *timer);

/* Logging. */

void rapier__process_log(rapier_supervisor_t *sv, rapier_log_level_t level, const char *fmt, ...)
{
	char message[1024];
	va_list ap;

	if (level > sv->cfg->log_level) {
		return;
	}
	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	sv->cfg->log(sv->cfg->log_data, level, message);
}

const char *rapier__process_role_label(rapier_role_t role)
{
	static const char *labels[] = { "worker", "task worker", "user process" };

	return labels[role];
}

/* Formats "worker #0 (pid 123, generation 1)" for log lines. */
#define PROC_FMT "%s #%u (pid %d, generation %u)"
#define PROC_ARGS(p) rapier__process_role_label((p)->slot->role), (p)->slot->index, (int) (p)->pid, (p)->generation

/* Configuration and lifetime. */

void rapier_master_config_init(rapier_master_config_t *config)
{
	memset(config, 0, sizeof(*config));
	config->workers = 1;
	/*
	 * 20 s: long enough for slow requests to finish, and shorter than the
	 * grace periods of Kubernetes (30 s) and systemd (90 s), so our own
	 * SIGKILL and pid file cleanup run before theirs.
	 */
	config->shutdown_timeout_ms = 20000;
	/* 30 s: workerStart may warm caches or wait for a database. */
	config->start_timeout_ms = 30000;
	/* 0, 100 ms, 200 ms... 5 s: an isolated crash is replaced at once, a crash loop costs little CPU. */
	config->backoff_base_ms = 100;
	config->backoff_max_ms = 5000;
	/* A worker that served for 10 s was healthy: its next crash starts the back-off over. */
	config->backoff_reset_ms = 10000;
	config->log_level = RAPIER_LOG_INFO;
	config->steer_fd = -1;
}

static int copy_config(rapier_master_config_t *dst, const rapier_master_config_t *src)
{
	char *socket_path = NULL;

	*dst = *src;
	dst->pid_file = src->pid_file != NULL ? strdup(src->pid_file) : NULL;
	if (src->status_socket != NULL) {
		socket_path = strdup(src->status_socket);
	} else if (src->pid_file != NULL && asprintf(&socket_path, "%s.sock", src->pid_file) < 0) {
		socket_path = NULL;
	}
	dst->status_socket = socket_path;
	if (dst->log == NULL) {
		dst->log = rapier_status_log_stderr;
	}
	if ((src->pid_file != NULL && dst->pid_file == NULL)
			|| ((src->status_socket != NULL || src->pid_file != NULL) && socket_path == NULL)) {
		return -ENOMEM;
	}
	return 0;
}

static unsigned role_count(const rapier_master_config_t *cfg, rapier_role_t role)
{
	switch (role) {
		case RAPIER_ROLE_WORKER:
			return cfg->workers;
		case RAPIER_ROLE_TASK_WORKER:
			return cfg->task_workers;
		default:
			return cfg->user_processes;
	}
}

static void init_slots(rapier_supervisor_t *sv)
{
	unsigned n = 0;

	for (unsigned r = 0; r < RAPIER_ROLE_COUNT; r++) {
		unsigned count = role_count(sv->cfg, (rapier_role_t) r);
		for (unsigned i = 0; i < count; i++, n++) {
			slot_t *s = &sv->slots[n];
			s->role = (rapier_role_t) r;
			s->index = i;
			s->sv = sv;
			rapier_timer_init(&s->backoff, on_backoff, s);
		}
		sv->generation[r] = sv->max_generation[r] = 1;
		sv->reload[r].size = count;
	}
	for (unsigned i = 0; i < sv->nprocs; i++) {
		sv->procs[i].sv = sv;
		rapier_timer_init(&sv->procs[i].deadline, on_deadline, &sv->procs[i]);
	}
}

void rapier__process_supervisor_free(rapier_supervisor_t *sv)
{
	free(sv->slots);
	free(sv->procs);
	free(sv->served);
	free(sv);
}

int rapier_master_init(rapier_master_t *m, const rapier_master_config_t *config)
{
	rapier_supervisor_t *sv;
	int rc;

	memset(m, 0, sizeof(*m));
	m->self.notify_fd = -1;
	if (config->workers + config->task_workers == 0 || config->workers > MAX_PER_ROLE
			|| config->task_workers > MAX_PER_ROLE || config->user_processes > MAX_PER_ROLE) {
		return -EINVAL;
	}
	rc = copy_config(&m->config, config);
	if (rc < 0) {
		rapier_master_free(m);
		return rc;
	}
	sv = m->sv = calloc(1, sizeof(*sv));
	if (sv == NULL) {
		rapier_master_free(m);
		return -ENOMEM;
	}
	sv->m = m;
	sv->cfg = &m->config;
	sv->signal_fd = sv->notify_rd = sv->notify_wr = -1;
	sv->nslots = config->workers + config->task_workers + config->user_processes;
	sv->nprocs = sv->nslots * PROCS_PER_SLOT;
	sv->slots = calloc(sv->nslots, sizeof(slot_t));
	sv->procs = calloc(sv->nprocs, sizeof(proc_t));
	sv->served = calloc(config->workers + 1, sizeof(uint32_t));
	rc = sv->slots && sv->procs && sv->served ? rapier_status_table_create(&m->table, sv->nprocs) : -ENOMEM;
	if (rc < 0) {
		rapier_master_free(m);
		return rc;
	}
	init_slots(sv);
	return 0;
}

/* Pid file: the files themselves are handled in status.c. */

int rapier__process_pid_file_check(rapier_supervisor_t *sv)
{
	pid_t owner = 0;
	int rc = rapier_pidfile_check(sv->cfg->pid_file, sv->pid, &owner);

	if (rc == -EEXIST) {
		rapier__process_log(sv, RAPIER_LOG_ERROR, "pid file %s names running process %d: another server seems to "
			"be running (stop it, or remove the file if it is not a server)", sv->cfg->pid_file, (int) owner);
	} else if (owner > 0) {
		rapier__process_log(sv, RAPIER_LOG_NOTICE, "replacing stale pid file %s (process %d is gone)",
			sv->cfg->pid_file, (int) owner);
	}
	return rc;
}

/* Process records. */

static rapier_status_entry_t *entry_of(rapier_supervisor_t *sv, proc_t *p)
{
	return &sv->m->table->entries[p - sv->procs];
}

static void set_state(rapier_supervisor_t *sv, proc_t *p, rapier_proc_state_t state)
{
	p->state = state;
	rapier_status_entry_set_state(entry_of(sv, p), state);
}

static proc_t *proc_by_pid(rapier_supervisor_t *sv, pid_t pid)
{
	for (unsigned i = 0; i < sv->nprocs; i++) {
		if (sv->procs[i].pid == pid && pid > 0) {
			return &sv->procs[i];
		}
	}
	return NULL;
}

static unsigned live_count(rapier_supervisor_t *sv)
{
	unsigned n = 0;

	for (unsigned i = 0; i < sv->nprocs; i++) {
		n += sv->procs[i].pid != 0;
	}
	return n;
}

static void check_done(rapier_supervisor_t *sv)
{
	if (sv->phase == PHASE_STOPPING && live_count(sv) == 0) {
		sv->phase = PHASE_DONE;
	}
}

/* SIGTERM, then SIGKILL if it has not exited within shutdown_timeout. */
static void stop_proc(rapier_supervisor_t *sv, proc_t *p)
{
	rapier__process_log(sv, RAPIER_LOG_INFO, "stopping " PROC_FMT, PROC_ARGS(p));
	kill(p->pid, SIGTERM);
	set_state(sv, p, RAPIER_PROC_DRAINING);
	rapier_timer_start(&sv->loop, &p->deadline, sv->cfg->shutdown_timeout_ms * NS_PER_MS, 0);
}

static void on_deadline(rapier_timer_t *timer)
{
	proc_t *p = timer->data;
	rapier_supervisor_t *sv = p->sv;

	if (p->pid == 0) {
		return;
	}
	if (p->state == RAPIER_PROC_STARTING) {
		rapier__process_log(sv, RAPIER_LOG_WARNING, PROC_FMT " did not report ready within %u ms: sending SIGKILL",
			PROC_ARGS(p), sv->cfg->start_timeout_ms);
	} else {
		rapier__process_log(sv, RAPIER_LOG_WARNING, PROC_FMT " did not stop within %u ms: sending SIGKILL",
			PROC_ARGS(p), sv->cfg->shutdown_timeout_ms);
	}
	/* The state is kept: a process killed while STARTING died unexpectedly. */
	kill(p->pid, SIGKILL);
}

/* Stops the processes a slot's new current process replaces, once it is ready. */
static void stop_retiring(rapier_supervisor_t *sv, slot_t *s)
{
	for (unsigned i = 0; i < sv->nprocs; i++) {
		proc_t *p = &sv->procs[i];
		if (p->pid != 0 && p->slot == s && p->retiring && p->state != RAPIER_PROC_DRAINING) {
			stop_proc(sv, p);
		}
	}
}

/* Back-off. */

static uint64_t backoff_ms(const rapier_master_config_t *cfg, unsigned failures)
{
	uint64_t delay;

	if (failures == 0) {
		return 0;
	}
	/* Shifting a 64-bit value by 31 at most cannot overflow a 32-bit base. */
	delay = (uint64_t) cfg->backoff_base_ms << (failures - 1 < 31 ? failures - 1 : 31);
	return delay < cfg->backoff_max_ms ? delay : cfg->backoff_max_ms;
}

static void on_backoff(rapier_timer_t *timer)
{
	slot_t *s = timer->data;

	if (s->sv->phase == PHASE_RUNNING && s->current == NULL) {
		s->need_current = true;
	}
}

/* Schedules a new current process for s; lived_ns is how long the last one ran. */
void rapier__process_schedule_restart(rapier_supervisor_t *sv, slot_t *s, uint64_t lived_ns)
{
	uint64_t delay;

	if (lived_ns >= sv->cfg->backoff_reset_ms * NS_PER_MS) {
		s->failures = 0;
	}
	delay = backoff_ms(sv->cfg, s->failures);
	if (s->failures < MAX_FAILURES) {
		s->failures++;
	}
	if (delay == 0) {
		s->need_current = true;
		rapier__process_log(sv, RAPIER_LOG_NOTICE, "restarting %s #%u now",
			rapier__process_role_label(s->role), s->index);
		return;
	}
	rapier__process_log(sv, RAPIER_LOG_NOTICE, "restarting %s #%u in %llu ms (%u failures in a row)",
		rapier__process_role_label(s->role), s->index, (unsigned long long) delay, s->failures);
	rapier_timer_start(&sv->loop, &s->backoff, delay * NS_PER_MS, 0);
}

/* Forking. */

static void restore_signals(rapier_supervisor_t *sv)
{
	for (size_t i = 0; i < HANDLED_COUNT; i++) {
		signal(handled_signals[i], SIG_DFL);
	}
	sigprocmask(SIG_SETMASK, &sv->old_mask, NULL);
}

/* A child's deadline after its master died: the timer delivers SIGKILL, which nothing can catch. */
static timer_t orphan_timer;
static bool orphan_timer_created;
static struct itimerspec orphan_deadline;

static void on_master_death(int signo)
{
	int saved_errno = errno;

	(void) signo;
	/* Both async-signal-safe. */
	if (orphan_timer_created) {
		timer_settime(orphan_timer, 0, &orphan_deadline, NULL);
	}
	kill(getpid(), SIGTERM);
	errno = saved_errno;
}

static void watch_master_death(rapier_supervisor_t *sv, pid_t master)
{
	struct sigevent kill_me = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGKILL };
	uint32_t ms = sv->cfg->shutdown_timeout_ms;

	orphan_deadline.it_value.tv_sec = ms / 1000;
	orphan_deadline.it_value.tv_nsec = (long) (ms % 1000) * 1000000;
	orphan_timer_created = timer_create(CLOCK_MONOTONIC, &kill_me, &orphan_timer) == 0;
	sigaction(MASTER_DEATH_SIGNAL, &(struct sigaction) { .sa_handler = on_master_death, .sa_flags = SA_RESTART }, NULL);
	prctl(PR_SET_PDEATHSIG, MASTER_DEATH_SIGNAL);
	if (getppid() != master) {
		/* The master died before prctl() took effect: act as if the kernel had said so. */
		on_master_death(MASTER_DEATH_SIGNAL);
	}
}

/* In the new child: keep what a worker needs, drop every master-only resource. */
static void become_child(rapier_supervisor_t *sv, proc_t *p)
{
	rapier_master_t *m = sv->m;
	pid_t master = sv->pid;

	m->self.role = p->slot->role;
	m->self.index = p->slot->index;
	m->self.generation = p->generation;
	m->self.master_pid = master;
	m->self.notify_fd = sv->notify_wr;
	m->self.table = m->table;
	m->self.status = entry_of(sv, p);
	close(sv->notify_rd);
	close(sv->signal_fd);
	/*
	 * The epoll instance is shared with the master after fork: closing our
	 * descriptor is harmless, but EPOLL_CTL_DEL (rapier_io_stop) would remove
	 * the master's registrations. So nothing here stops a watcher.
	 */
	rapier_status_server_abandon(sv->status);
	rapier_loop_close(&sv->loop);
	/* While the signals are still blocked, so the SIGTERM it may send cannot be lost. */
	watch_master_death(sv, master);
	restore_signals(sv);
	rapier__process_supervisor_free(sv);
	m->sv = NULL;
}

static proc_t *proc_alloc(rapier_supervisor_t *sv)
{
	for (unsigned i = 0; i < sv->nprocs; i++) {
		if (sv->procs[i].pid == 0) {
			return &sv->procs[i];
		}
	}
	return NULL;
}

int rapier__process_spawn(rapier_supervisor_t *sv, slot_t *s, uint32_t generation, bool candidate)
{
	proc_t *p = proc_alloc(sv);
	pid_t pid;

	if (p == NULL) {
		return -EAGAIN;
	}
	p->slot = s;
	p->generation = generation;
	p->candidate = candidate;
	p->retiring = p->recycle_wanted = p->fatal = false;
	p->state = RAPIER_PROC_STARTING;
	p->started_ns = rapier_now_ns();
	rapier_status_entry_begin(entry_of(sv, p), s->role, s->index, generation);
	/* Unwritten stdio buffers would otherwise be written twice, once per process. */
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int rc = -errno;
		rapier_status_entry_set_state(entry_of(sv, p), RAPIER_PROC_FREE);
		return rc;
	}
	if (pid == 0) {
		become_child(sv, p);
		return RAPIER_MASTER_CHILD;
	}
	p->pid = pid;
	rapier_status_entry_set_pid(entry_of(sv, p), pid);
	*(candidate ? &s->candidate : &s->current) = p;
	rapier_timer_start(&sv->loop, &p->deadline, sv->cfg->start_timeout_ms * NS_PER_MS, 0);
	rapier__process_log(sv, RAPIER_LOG_INFO, "started " PROC_FMT, PROC_ARGS(p));
	return 0;
}

/* Reload: the new generation starts, and only when all of it is ready does the old one stop. */

static void recycle(rapier_supervisor_t *sv, proc_t *p)
{
	rapier__process_log(sv, RAPIER_LOG_INFO, PROC_FMT " asked to be recycled: starting its successor", PROC_ARGS(p));
	p->retiring = true;
	p->recycle_wanted = false;
	p->slot->current = NULL;
	p->slot->need_current = true;
	atomic_fetch_add(&sv->m->table->recycles, 1);
}

static void reload_finish(rapier_supervisor_t *sv, rapier_role_t role)
{
	reload_t *r = &sv->reload[role];

	r->active = false;
	for (unsigned i = 0; i < sv->nslots; i++) {
		proc_t *cur = sv->slots[i].current;
		if (sv->slots[i].role == role && cur != NULL && cur->recycle_wanted && cur->state == RAPIER_PROC_READY) {
			recycle(sv, cur);
		}
	}
	if (r->again) {
		r->again = false;
		reload_begin(sv, role);
	}
}

static void reload_commit(rapier_supervisor_t *sv, rapier_role_t role)
{
	reload_t *r = &sv->reload[role];

	for (unsigned i = 0; i < sv->nslots; i++) {
		slot_t *s = &sv->slots[i];
		if (s->role != role) {
			continue;
		}
		rapier_timer_stop(&sv->loop, &s->backoff);
		s->need_current = false;
		s->failures = 0;
		if (s->current != NULL) {
			s->current->retiring = true;
		}
		s->current = s->candidate;
		s->candidate = NULL;
		s->current->candidate = false;
		stop_retiring(sv, s);
	}
	sv->generation[role] = r->generation;
	atomic_store(&sv->m->table->generation[role], r->generation);
	rapier__process_log(sv, RAPIER_LOG_NOTICE, "reload of %ss done: generation %u serving, the previous one draining",
		rapier__process_role_label(role), r->generation);
	reload_finish(sv, role);
}

void rapier__process_reload_abort(rapier_supervisor_t *sv, rapier_role_t role, const char *why)
{
	reload_t *r = &sv->reload[role];

	if (!r->active) {
		return;
	}
	for (unsigned i = 0; i < sv->nslots; i++) {
		slot_t *s = &sv->slots[i];
		if (s->role != role) {
			continue;
		}
		s->need_candidate = false;
		if (s->candidate != NULL) {
			stop_proc(sv, s->candidate);
			s->candidate = NULL;
		}
	}
	atomic_fetch_add(&sv->m->table->reload_failures, 1);
	atomic_store(&sv->m->table->failed_generation[role], r->generation);
	rapier__process_log(sv, RAPIER_LOG_ERROR, "reload of %ss failed (%s): generation %u keeps serving",
		rapier__process_role_label(role), why, sv->generation[role]);
	reload_finish(sv, role);
	/* Also called from the run loop (a failed fork), where no batch of events ends with a steer. */
	steer(sv);
}

static void reload_begin(rapier_supervisor_t *sv, rapier_role_t role)
{
	reload_t *r = &sv->reload[role];

	if (sv->phase != PHASE_RUNNING) {
		return;
	}
	if (r->size == 0) {
		rapier__process_log(sv, RAPIER_LOG_NOTICE, "no %ss to reload", rapier__process_role_label(role));
		return;
	}
	if (r->active) {
		r->again = true;
		rapier__process_log(sv, RAPIER_LOG_NOTICE, "reload of %ss already running: another follows it",
			rapier__process_role_label(role));
		return;
	}
	r->active = true;
	r->ready = 0;
	r->generation = ++sv->max_generation[role];
	atomic_store(&sv->m->table->newest_generation[role], r->generation);
	for (unsigned i = 0; i < sv->nslots; i++) {
		if (sv->slots[i].role == role) {
			sv->slots[i].need_candidate = true;
		}
	}
	rapier__process_log(sv, RAPIER_LOG_NOTICE, "reloading %ss: starting generation %u",
		rapier__process_role_label(role), r->generation);
}

/* Stopping. */

static void enter_stopping(rapier_supervisor_t *sv)
{
	sv->phase = PHASE_STOPPING;
	for (unsigned i = 0; i < sv->nslots; i++) {
		rapier_timer_stop(&sv->loop, &sv->slots[i].backoff);
		sv->slots[i].need_current = sv->slots[i].need_candidate = false;
	}
	for (unsigned r = 0; r < RAPIER_ROLE_COUNT; r++) {
		sv->reload[r].active = sv->reload[r].again = false;
	}
}

static void graceful_stop(rapier_supervisor_t *sv)
{
	if (sv->phase != PHASE_RUNNING) {
		rapier__process_log(sv, RAPIER_LOG_NOTICE, "already stopping (SIGQUIT stops at once)");
		return;
	}
	enter_stopping(sv);
	for (unsigned i = 0; i < sv->nprocs; i++) {
		proc_t *p = &sv->procs[i];
		if (p->pid != 0 && p->state != RAPIER_PROC_DRAINING) {
			stop_proc(sv, p);
		}
	}
	check_done(sv);
}

static void immediate_stop(rapier_supervisor_t *sv)
{
	if (sv->phase == PHASE_DONE) {
		return;
	}
	if (sv->phase == PHASE_RUNNING) {
		enter_stopping(sv);
	}
	for (unsigned i = 0; i < sv->nprocs; i++) {
		proc_t *p = &sv->procs[i];
		if (p->pid != 0) {
			kill(p->pid, SIGKILL);
			set_state(sv, p, RAPIER_PROC_DRAINING);
			rapier_timer_stop(&sv->loop, &p->deadline);
		}
	}
	check_done(sv);
}

/* Exits. */

static void log_exit(rapier_supervisor_t *sv, proc_t *p, int status, bool expected)
{
	rapier_log_level_t level = expected ? RAPIER_LOG_INFO : RAPIER_LOG_WARNING;

	if (status < 0) {
		rapier__process_log(sv, level, PROC_FMT " was reaped by someone else (exit status unknown)", PROC_ARGS(p));
	} else if (WIFEXITED(status)) {
		rapier__process_log(sv, level, PROC_FMT " exited with code %d", PROC_ARGS(p), WEXITSTATUS(status));
	} else {
		const char *name = sigabbrev_np(WTERMSIG(status));
		rapier__process_log(sv, WTERMSIG(status) == SIGKILL ? RAPIER_LOG_WARNING : level,
			PROC_FMT " was killed by signal %d (SIG%s)%s", PROC_ARGS(p), WTERMSIG(status),
			name ? name : "?", WCOREDUMP(status) ? ", core dumped" : "");
	}
}

/* Whether a process of s still accepts on its listener: a recycled one serves until its successor is ready. */
static bool slot_served(rapier_supervisor_t *sv, const slot_t *s)
{
	for (unsigned i = 0; i < sv->nprocs; i++) {
		const proc_t *p = &sv->procs[i];
		if (p->pid != 0 && p->slot == s && p->state == RAPIER_PROC_READY) {
			return true;
		}
	}
	return false;
}

/*
 * Steers new connections to the request workers' slots that have a ready
 * process, when that set has changed (reuseport.h says why). Run after
 * every batch of notifications and exits, the only events that change it.
 */
static void steer(rapier_supervisor_t *sv)
{
	uint32_t count = 0;
	bool changed = false;
	int rc;

	if (sv->cfg->steer_fd < 0 || sv->steer_off || sv->phase != PHASE_RUNNING) {
		return;
	}
	/* One pass over the processes marks the slots (by index) that have a ready one... */
	memset(sv->served, 0, sv->cfg->workers * sizeof(*sv->served));
	for (unsigned i = 0; i < sv->nprocs; i++) {
		const proc_t *p = &sv->procs[i];
		if (p->pid != 0 && p->state == RAPIER_PROC_READY && p->slot->role == RAPIER_ROLE_WORKER) {
			sv->served[p->slot->index] = 1;
		}
	}
	/* ...then the marks become the list of their indexes, in place (request worker slots come first). */
	for (unsigned i = 0; i < sv->cfg->workers; i++) {
		slot_t *s = &sv->slots[i];
		bool served = sv->served[i] != 0;
		changed |= served != s->steered_to;
		s->steered_to = served;
		if (served) {
			sv->served[count++] = i;
		}
	}
	if (!changed) {
		return;
	}
	rc = rapier_reuseport_steer(sv->cfg->steer_fd, sv->served, count, sv->cfg->workers);
	if (rc < 0) {
		/* No stale program may go on steering by an old set: back to the kernel's hash for good. */
		rapier_reuseport_steer(sv->cfg->steer_fd, NULL, 0, sv->cfg->workers);
		sv->steer_off = true;
		rapier__process_log(sv, RAPIER_LOG_WARNING, "cannot steer new connections away from workers that are not "
			"ready (%s): a slot without a worker keeps its share of them until it has one", strerror(-rc));
	} else if (count > 0 && count < sv->cfg->workers) {
		rapier__process_log(sv, RAPIER_LOG_DEBUG, "new connections go to the %u of %u workers that are ready",
			count, sv->cfg->workers);
	} else {
		rapier__process_log(sv, RAPIER_LOG_DEBUG, "new connections go to any of the %u workers", sv->cfg->workers);
	}
}

static void on_current_died(rapier_supervisor_t *sv, slot_t *s, proc_t *p)
{
	if (p->fatal && !slot_served(sv, s)) {
		rapier__process_log(sv, RAPIER_LOG_ERROR,
			"%s #%u reported that it cannot start: not restarting it, stopping the server",
			rapier__process_role_label(s->role), s->index);
		sv->result = -ECANCELED;
		graceful_stop(sv);
		return;
	}
	if (p->fatal) {
		rapier__process_log(sv, RAPIER_LOG_ERROR,
			"%s #%u reported that it cannot start: the process it replaces keeps serving",
			rapier__process_role_label(s->role), s->index);
	}
	atomic_fetch_add(&sv->m->table->restarts, 1);
	rapier__process_schedule_restart(sv, s, rapier_now_ns() - p->started_ns);
}

static void on_proc_exit(rapier_supervisor_t *sv, proc_t *p, int status)
{
	slot_t *s = p->slot;
	rapier_status_view_t view;
	bool expected = sv->phase != PHASE_RUNNING || p->state == RAPIER_PROC_DRAINING;
	bool was_current = s->current == p;

	log_exit(sv, p, status, expected);
	rapier_status_entry_read(entry_of(sv, p), &view);
	atomic_fetch_add(&sv->m->table->retired_requests, view.requests);
	atomic_fetch_add(&sv->m->table->retired_shed, view.shed);
	atomic_fetch_add(&sv->m->table->retired_abandoned, view.abandoned);
	atomic_fetch_add(&sv->m->table->retired_slow, view.slow);
	atomic_fetch_add(&sv->m->table->retired_tls_handshake_failures, view.tls_handshake_failures);
	atomic_fetch_add(&sv->m->table->retired_messages_sent, view.messages_sent);
	atomic_fetch_add(&sv->m->table->retired_messages_received, view.messages_received);
	rapier_status_entry_set_state(entry_of(sv, p), RAPIER_PROC_EXITED);
	rapier_timer_stop(&sv->loop, &p->deadline);
	p->pid = 0;
	if (was_current) {
		s->current = NULL;
	}
	if (s->candidate == p) {
		s->candidate = NULL;
	}
	/* A retiring process that leaves early: its successor is already on the way. */
	if (expected || p->retiring) {
		return;
	}
	if (p->candidate) {
		rapier__process_reload_abort(sv, s->role, "a new process exited before the whole generation was ready");
	} else if (was_current) {
		on_current_died(sv, s, p);
	}
}

static void reap(rapier_supervisor_t *sv)
{
	for (unsigned i = 0; i < sv->nprocs; i++) {
		proc_t *p = &sv->procs[i];
		int status;
		pid_t rc;

		if (p->pid == 0) {
			continue;
		}
		rc = waitpid(p->pid, &status, WNOHANG);
		if (rc == p->pid) {
			on_proc_exit(sv, p, status);
		} else if (rc < 0 && errno == ECHILD) {
			on_proc_exit(sv, p, -1);
		}
	}
	steer(sv);
	check_done(sv);
}

/* Notifications from workers. */

static void log_all_ready(rapier_supervisor_t *sv)
{
	if (sv->all_ready_logged) {
		return;
	}
	for (unsigned i = 0; i < sv->nslots; i++) {
		if (sv->slots[i].current == NULL || sv->slots[i].current->state != RAPIER_PROC_READY) {
			return;
		}
	}
	sv->all_ready_logged = true;
	rapier__process_log(sv, RAPIER_LOG_NOTICE, "all %u processes ready", sv->nslots);
}

static void on_ready(rapier_supervisor_t *sv, proc_t *p)
{
	reload_t *r = &sv->reload[p->slot->role];

	if (p->state != RAPIER_PROC_STARTING) {
		return;
	}
	set_state(sv, p, RAPIER_PROC_READY);
	rapier_timer_stop(&sv->loop, &p->deadline);
	rapier__process_log(sv, RAPIER_LOG_INFO, PROC_FMT " ready", PROC_ARGS(p));
	if (p->candidate) {
		if (r->active && ++r->ready == r->size) {
			reload_commit(sv, p->slot->role);
		}
		return;
	}
	if (p->slot->current == p) {
		stop_retiring(sv, p->slot);
		log_all_ready(sv);
	}
}

static void on_recycle(rapier_supervisor_t *sv, proc_t *p)
{
	if (sv->phase != PHASE_RUNNING || p->state != RAPIER_PROC_READY) {
		return;
	}
	if (p->candidate && p->slot->candidate == p) {
		/* A new process already at its max_requests: recycled once the reload has made it current. */
		p->recycle_wanted = true;
		return;
	}
	if (p->slot->current != p) {
		return;
	}
	if (sv->reload[p->slot->role].active) {
		/* The reload replaces it anyway; if the reload fails, it is recycled then. */
		p->recycle_wanted = true;
		return;
	}
	recycle(sv, p);
}

/* Server::shutdown() in a child: what SIGTERM to the master does. */
static void on_stop_request(rapier_supervisor_t *sv, proc_t *p)
{
	if (sv->phase != PHASE_RUNNING) {
		return;
	}
	rapier__process_log(sv, RAPIER_LOG_NOTICE, PROC_FMT " asked the server to stop: stopping gracefully (at most %u ms)",
		PROC_ARGS(p), sv->cfg->shutdown_timeout_ms);
	graceful_stop(sv);
}

static void on_notification(void *data, pid_t pid, rapier_notify_kind_t kind)
{
	rapier_supervisor_t *sv = data;
	proc_t *p = proc_by_pid(sv, pid);

	if (p != NULL && kind == RAPIER_NOTIFY_READY) {
		on_ready(sv, p);
	} else if (p != NULL && kind == RAPIER_NOTIFY_RECYCLE) {
		on_recycle(sv, p);
	} else if (p != NULL && kind == RAPIER_NOTIFY_FATAL && p->state == RAPIER_PROC_STARTING) {
		p->fatal = true;
	} else if (p != NULL && kind == RAPIER_NOTIFY_STOP) {
		on_stop_request(sv, p);
	} else if (p != NULL && (kind == RAPIER_NOTIFY_RELOAD || kind == RAPIER_NOTIFY_RELOAD_TASKS)) {
		rapier__process_log(sv, RAPIER_LOG_NOTICE, PROC_FMT " asked for a reload of the %s", PROC_ARGS(p),
			kind == RAPIER_NOTIFY_RELOAD ? "workers and task workers" : "task workers");
		if (kind == RAPIER_NOTIFY_RELOAD) {
			reload_begin(sv, RAPIER_ROLE_WORKER);
		}
		reload_begin(sv, RAPIER_ROLE_TASK_WORKER);
	}
}

/* Also run before reaping, so a "ready" or "recycle" sent just before an exit is seen first. */
static void drain_notify(rapier_supervisor_t *sv)
{
	rapier_notify_drain(sv->notify_rd, on_notification, sv);
	/* Before the status socket can report a new ready worker, connections may go to it. */
	steer(sv);
}

void rapier__process_on_notify(rapier_io_t *io, uint32_t events)
{
	drain_notify(io->data);
}

/* Signals. */

static void handle_signal(rapier_supervisor_t *sv, int signo)
{
	switch (signo) {
	case SIGCHLD:
		drain_notify(sv);
		reap(sv);
		break;
	case SIGTERM:
	case SIGINT:
		rapier__process_log(sv, RAPIER_LOG_NOTICE, "SIG%s: stopping gracefully (at most %u ms)",
			sigabbrev_np(signo), sv->cfg->shutdown_timeout_ms);
		graceful_stop(sv);
		break;
	case SIGQUIT:
		rapier__process_log(sv, RAPIER_LOG_NOTICE, "SIGQUIT: stopping now");
		immediate_stop(sv);
		break;
	case SIGUSR1:
		reload_begin(sv, RAPIER_ROLE_WORKER);
		break;
	case SIGUSR2:
		reload_begin(sv, RAPIER_ROLE_TASK_WORKER);
		break;
	case SIGHUP:
		/* A reload, never a stop: a closed terminal must not take the server down. */
		reload_begin(sv, RAPIER_ROLE_WORKER);
		reload_begin(sv, RAPIER_ROLE_TASK_WORKER);
		break;
	}
}

void rapier__process_on_signal(rapier_io_t *io, uint32_t events)
{
	rapier_supervisor_t *sv = io->data;
	struct signalfd_siginfo si;

	while (read(sv->signal_fd, &si, sizeof(si)) == (ssize_t) sizeof(si)) {
		handle_signal(sv, (int) si.ssi_signo);
	}
}

/* Worker side. */

int rapier_worker_ready(const rapier_worker_self_t *self)
{
	return rapier_notify_send(self->notify_fd, RAPIER_NOTIFY_READY);
}

int rapier_worker_recycle(const rapier_worker_self_t *self)
{
	return rapier_notify_send(self->notify_fd, RAPIER_NOTIFY_RECYCLE);
}

int rapier_worker_fatal(const rapier_worker_self_t *self)
{
	return rapier_notify_send(self->notify_fd, RAPIER_NOTIFY_FATAL);
}

int rapier_worker_request_stop(const rapier_worker_self_t *self)
{
	return rapier_notify_send(self->notify_fd, RAPIER_NOTIFY_STOP);
}

int rapier_worker_request_reload(const rapier_worker_self_t *self, bool tasks_only)
{
	return rapier_notify_send(self->notify_fd, tasks_only ? RAPIER_NOTIFY_RELOAD_TASKS : RAPIER_NOTIFY_RELOAD);
}
