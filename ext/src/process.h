/*
 * Rapier process supervisor: a master that forks request workers and task
 * workers, restarts them, reloads them without downtime and stops them.
 *
 * Engine code: no PHP headers. The API has fork()'s shape, because a worker
 * must go on running PHP in the child: rapier_master_run() returns
 * RAPIER_MASTER_CHILD in each worker (with m->self describing it) and
 * returns 0 in the master only once the server has stopped. The caller runs
 * the worker's own loop in the child and ends that process itself.
 *
 * Signals to the master: SIGTERM, SIGINT graceful stop; SIGQUIT immediate
 * stop; SIGUSR1 reload request workers; SIGUSR2 reload task workers; SIGHUP
 * reload both (user processes are never reloaded). See
 * docs/design/processes.md.
 * Functions return 0 or a negative errno value.
 */
#ifndef RAPIER_PROCESS_H
#define RAPIER_PROCESS_H

#include <stdint.h>
#include <sys/types.h>

#include "status.h"

/* rapier_master_run() returned in a freshly forked worker. */
#define RAPIER_MASTER_CHILD 1


typedef struct {
	unsigned workers;              /* request workers (0 allowed if task_workers > 0) */
	unsigned task_workers;
	/*
	 * Long-running companions ($server->addProcess()): restarted with the
	 * crash back-off whenever they end, stopped with the server, never
	 * reloaded. Each reports ready like a worker. Not counted as a server by
	 * themselves: workers + task_workers must still be at least 1.
	 */
	unsigned user_processes;
	uint32_t shutdown_timeout_ms;  /* drain time before SIGKILL; default 20000 */
	uint32_t start_timeout_ms;     /* time to report ready before SIGKILL; default 30000 */
	uint32_t backoff_base_ms;      /* second consecutive crash waits this; default 100 */
	uint32_t backoff_max_ms;       /* doubling stops here; default 5000 */
	uint32_t backoff_reset_ms;     /* a worker that lived this long clears its slot's crash count; default 10000 */
	const char *pid_file;          /* NULL: none */
	const char *status_socket;     /* NULL: "<pid_file>.sock", or none without a pid file */
	rapier_log_fn log;             /* NULL: timestamped lines on stderr */
	void *log_data;
	rapier_log_level_t log_level;  /* most verbose level passed on; default RAPIER_LOG_INFO */
	/*
	 * Any listener of the request workers' SO_REUSEPORT group, whose members
	 * are one listener per slot, joined in index order and kept open by the
	 * caller while the master runs: new connections are then steered to the
	 * slots that have a ready worker (reuseport.h). -1 (the default): none.
	 */
	int steer_fd;
} rapier_master_config_t;

/* What a child learns about itself; valid after run returned RAPIER_MASTER_CHILD. */
typedef struct {
	rapier_role_t role;
	unsigned index;                /* 0..count-1 within its role */
	uint32_t generation;           /* 1 at start, then one more per reload of the role */
	pid_t master_pid;
	int notify_fd;                 /* write end of the master's notify pipe (CLOEXEC, non-blocking) */
	rapier_status_table_t *table;  /* the shared status table (read-only for the worker) */
	rapier_status_entry_t *status; /* this process's entry: update it with rapier_status_self_*() */
} rapier_worker_self_t;

typedef struct rapier_supervisor_s rapier_supervisor_t;

typedef struct {
	rapier_master_config_t config; /* a copy; strings duplicated */
	rapier_worker_self_t self;
	rapier_status_table_t *table;
	rapier_supervisor_t *sv;       /* master-only state; NULL in a child */
} rapier_master_t;

/* Fills in the defaults: one worker, no task workers, no pid file. */
void rapier_master_config_init(rapier_master_config_t *config);

/* Validates and copies config, creates the status table. Free with rapier_master_free(). */
int rapier_master_init(rapier_master_t *m, const rapier_master_config_t *config);

/*
 * Runs the master once. In the master returns 0 after a stop (SIGTERM,
 * SIGINT, SIGQUIT), -EEXIST if the pid file names a live server, -ECANCELED
 * after a worker's FATAL exit, or another negative errno. In a child returns
 * RAPIER_MASTER_CHILD with m->self filled in, its signal mask and the
 * dispositions of the seven signals above restored to default, every
 * master-only descriptor closed, and PR_SET_PDEATHSIG set so that a worker
 * whose master dies gets SIGTERM (it drains and exits instead of serving
 * unsupervised) and SIGKILL shutdown_timeout later, in case it cannot.
 * Every other descriptor open at the call is inherited as is.
 */
int rapier_master_run(rapier_master_t *m);

/* Releases everything; call it in the master after run, and in a child before it exits. */
void rapier_master_free(rapier_master_t *m);

/*
 * Worker side, each one write() of 8 bytes to the master.
 *
 * ready: call once after the listener is bound and workerStart has run;
 * until then the master keeps the process in STARTING (and a reload keeps
 * the old generation serving).
 *
 * recycle: ask to be replaced (max_requests, max_memory); keep serving until
 * SIGTERM arrives, which the master sends once the successor is ready. If
 * the successor cannot start, this process serves on while the master
 * retries with the crash back-off. Asking again is harmless.
 *
 * fatal: "this configuration cannot work" (the listener is unusable), sent
 * before ready and followed by the exit. The master then does not retry:
 * it stops the server and rapier_master_run() returns -ECANCELED; a reload's
 * new process only abandons that reload, and a recycle's successor leaves
 * its predecessor serving. No exit code means anything by itself: an
 * application's exit(N) is an ordinary crash.
 */
int rapier_worker_ready(const rapier_worker_self_t *self);
int rapier_worker_recycle(const rapier_worker_self_t *self);
int rapier_worker_fatal(const rapier_worker_self_t *self);

/*
 * From any child (worker, task worker, user process): ask the master to
 * stop the whole server gracefully, as SIGTERM to it does, or to reload the
 * workers and task workers (tasks_only: the task workers), as SIGHUP
 * (SIGUSR2) does. Unlike a signal to the master's pid, a request can never
 * reach another process: the pipe leads only to this child's own master.
 */
int rapier_worker_request_stop(const rapier_worker_self_t *self);
int rapier_worker_request_reload(const rapier_worker_self_t *self, bool tasks_only);

#endif
