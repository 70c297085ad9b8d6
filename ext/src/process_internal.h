/*
 * Internal to the supervisor, for process.c and master.c only (the API is
 * process.h): the structures both files use, and the functions process.c
 * lends master.c. process.c's design note describes the model.
 */
#ifndef RAPIER_PROCESS_INTERNAL_H
#define RAPIER_PROCESS_INTERNAL_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "process.h"

typedef struct slot_s slot_t;

typedef struct {
	pid_t pid;                 /* 0: record free */
	slot_t *slot;
	uint32_t generation;
	rapier_proc_state_t state; /* STARTING, READY or DRAINING while pid != 0 */
	bool candidate;            /* forked by a reload that has not committed */
	bool retiring;             /* replaced; stopped once the slot's current is ready */
	bool recycle_wanted;       /* asked for a recycle while a reload was running */
	bool fatal;                /* reported, before ready, that it cannot start: do not retry */
	uint64_t started_ns;
	rapier_timer_t deadline;   /* ready deadline while STARTING, SIGKILL deadline while DRAINING */
	rapier_supervisor_t *sv;
} proc_t;

struct slot_s {
	rapier_role_t role;
	unsigned index;
	proc_t *current;
	proc_t *candidate;
	bool need_current;         /* fork a current process at the next turn of the run loop */
	bool need_candidate;
	unsigned failures;         /* consecutive unexpected deaths: drives the back-off */
	bool steered_to;           /* in the served set last given to the listeners' group */
	rapier_timer_t backoff;
	rapier_supervisor_t *sv;
};

typedef struct {
	bool active;
	bool again;                /* another reload was asked for meanwhile */
	uint32_t generation;
	unsigned ready;
	unsigned size;
} reload_t;

typedef enum { PHASE_IDLE, PHASE_RUNNING, PHASE_STOPPING, PHASE_DONE } phase_t;

struct rapier_supervisor_s {
	rapier_master_t *m;
	rapier_master_config_t *cfg;
	phase_t phase;
	int result;
	pid_t pid;
	bool loop_open;
	bool mask_blocked;
	bool pid_file_written;
	bool all_ready_logged;
	rapier_loop_t loop;
	sigset_t old_mask;
	struct sigaction old_chld;
	int signal_fd;
	rapier_io_t signal_io;
	int notify_rd, notify_wr;
	rapier_io_t notify_io;
	rapier_status_server_t *status;
	uint32_t generation[RAPIER_ROLE_COUNT];      /* serving generation */
	uint32_t max_generation[RAPIER_ROLE_COUNT];  /* newest ever started */
	reload_t reload[RAPIER_ROLE_COUNT];
	unsigned nslots, nprocs;
	slot_t *slots;
	proc_t *procs;
	uint32_t *served;          /* scratch for steer() in process.c: one entry per request worker */
	bool steer_off;            /* the kernel refused a program: steering stays off */
};

/* Formats fmt and passes it to the configured log callback if level is verbose enough. */
void rapier__process_log(rapier_supervisor_t *sv, rapier_log_level_t level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "worker" or "task worker", for log lines. */
const char *rapier__process_role_label(rapier_role_t role);

/* Fills set with the signals the master takes through its signalfd; children get them back at default. */
void rapier__process_signal_set(sigset_t *set);

/* rapier_pidfile_check() on the configured pid file, logging a live owner (-EEXIST) or a stale file. */
int rapier__process_pid_file_check(rapier_supervisor_t *sv);

/* Watcher callbacks: the signalfd and the read end of the notify pipe. Both take sv as io->data. */
void rapier__process_on_signal(rapier_io_t *io, uint32_t events);
void rapier__process_on_notify(rapier_io_t *io, uint32_t events);

/*
 * Forks a process of generation for slot s, as its current process or as
 * its reload candidate. Returns 0 in the master, RAPIER_MASTER_CHILD in the
 * child, -EAGAIN if no process record is free, or fork()'s error.
 */
int rapier__process_spawn(rapier_supervisor_t *sv, slot_t *s, uint32_t generation, bool candidate);

/* Schedules a new current process for s; lived_ns is how long the last one ran. */
void rapier__process_schedule_restart(rapier_supervisor_t *sv, slot_t *s, uint64_t lived_ns);

/* Abandons role's running reload, if any: its candidates are stopped, the serving generation stays. */
void rapier__process_reload_abort(rapier_supervisor_t *sv, rapier_role_t role, const char *why);

/* Frees sv's memory; its descriptors, loop and signal mask are master_close()'s business. */
void rapier__process_supervisor_free(rapier_supervisor_t *sv);

#endif
