/*
 * The master's run loop and its own resources: the blocked signal mask and
 * its signalfd, the notify pipe, the status socket and the pid file. What
 * to fork, restart, reload or stop is decided in process.c; this file opens
 * the master, drives the loop and closes it again.
 *
 * The loop is a rapier_loop_t watching the signalfd (SIGCHLD and the control
 * signals), the notify pipe (workers report "ready" and "recycle me" as
 * 8-byte records) and the status socket, plus process.c's timers for
 * back-off and deadlines.
 *
 * fork() happens only at the top of rapier_master_run()'s loop, never inside
 * a callback: callbacks mark slots as needing a process, and the run loop
 * forks between polls. A child can then return RAPIER_MASTER_CHILD straight
 * away, with no half-dispatched event batch or caller frames of the master
 * on its stack (the rejected alternative was unwinding every callback).
 *
 * Rejected: a SIGCHLD handler with a self-pipe (signalfd is the same thing
 * without async-signal-safety rules).
 */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include "process_internal.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

/* The master's resources. */

static int open_signals(rapier_supervisor_t *sv)
{
	sigset_t set;

	rapier__process_signal_set(&set);
	/* Blocked before the first fork, so no SIGCHLD can be missed. */
	if (sigprocmask(SIG_BLOCK, &set, &sv->old_mask) < 0) {
		return -errno;
	}
	sv->mask_blocked = true;
	/*
	 * With SIGCHLD at SIG_IGN (a PHP script may have set it) the kernel reaps
	 * children itself and never queues the signal: we would never see a death.
	 */
	sigaction(SIGCHLD, &(struct sigaction) { .sa_handler = SIG_DFL }, &sv->old_chld);
	sv->signal_fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (sv->signal_fd < 0) {
		return -errno;
	}
	rapier_io_init(&sv->signal_io, sv->signal_fd, rapier__process_on_signal, sv);
	return rapier_io_start(&sv->loop, &sv->signal_io, RAPIER_IO_READ);
}

static int open_notify(rapier_supervisor_t *sv)
{
	int fds[2], rc = rapier_notify_open(fds);

	if (rc < 0) {
		return rc;
	}
	sv->notify_rd = fds[0];
	sv->notify_wr = fds[1];
	rapier_io_init(&sv->notify_io, sv->notify_rd, rapier__process_on_notify, sv);
	return rapier_io_start(&sv->loop, &sv->notify_io, RAPIER_IO_READ);
}

static int master_open(rapier_supervisor_t *sv)
{
	const rapier_master_config_t *cfg = sv->cfg;
	int rc;

	sv->pid = getpid();
	if (cfg->pid_file != NULL && (rc = rapier__process_pid_file_check(sv)) < 0) {
		return rc;
	}
	rc = rapier_loop_init(&sv->loop);
	if (rc < 0) {
		return rc;
	}
	sv->loop_open = true;
	if ((rc = open_signals(sv)) < 0 || (rc = open_notify(sv)) < 0) {
		rapier__process_log(sv, RAPIER_LOG_ERROR, "cannot set up the master: %s", strerror(-rc));
		return rc;
	}
	if (cfg->status_socket != NULL
			&& (rc = rapier_status_server_open(&sv->status, &sv->loop, sv->m->table, cfg->status_socket)) < 0) {
		rapier__process_log(sv, RAPIER_LOG_ERROR, "cannot listen on status socket %s: %s",
			cfg->status_socket, strerror(-rc));
		return rc;
	}
	if (cfg->pid_file != NULL) {
		if ((rc = rapier_pidfile_write(cfg->pid_file, sv->pid)) < 0) {
			rapier__process_log(sv, RAPIER_LOG_ERROR, "cannot write pid file %s: %s", cfg->pid_file, strerror(-rc));
			return rc;
		}
		sv->pid_file_written = true;
	}
	rapier_status_table_publish(sv->m->table, sv->pid, sv->generation, cfg->shutdown_timeout_ms);
	return 0;
}

static void close_fd(int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
	}
}

static void master_close(rapier_supervisor_t *sv)
{
	rapier_status_server_close(sv->status);
	sv->status = NULL;
	if (sv->pid_file_written) {
		rapier_pidfile_remove(sv->cfg->pid_file, sv->pid);
		sv->pid_file_written = false;
	}
	if (sv->loop_open) {
		rapier_io_stop(&sv->loop, &sv->signal_io);
		rapier_io_stop(&sv->loop, &sv->notify_io);
		rapier_loop_close(&sv->loop);
		sv->loop_open = false;
	}
	close_fd(&sv->signal_fd);
	close_fd(&sv->notify_rd);
	close_fd(&sv->notify_wr);
	if (sv->mask_blocked) {
		sigaction(SIGCHLD, &sv->old_chld, NULL);
		sigprocmask(SIG_SETMASK, &sv->old_mask, NULL);
		sv->mask_blocked = false;
	}
}

/* Last resort when the loop itself fails: kill and reap synchronously. */
static void kill_all_and_wait(rapier_supervisor_t *sv)
{
	for (unsigned i = 0; i < sv->nprocs; i++) {
		proc_t *p = &sv->procs[i];
		if (p->pid != 0) {
			kill(p->pid, SIGKILL);
			waitpid(p->pid, NULL, 0);
			p->pid = 0;
		}
	}
	sv->phase = PHASE_DONE;
}

/* The run loop. */

/* Forks whatever the callbacks asked for. Returns RAPIER_MASTER_CHILD in a child. */
static int spawn_pending(rapier_supervisor_t *sv)
{
	for (unsigned i = 0; i < sv->nslots && sv->phase == PHASE_RUNNING; i++) {
		slot_t *s = &sv->slots[i];
		int rc = 0;

		if (s->need_current) {
			s->need_current = false;
			if ((rc = rapier__process_spawn(sv, s, sv->generation[s->role], false)) < 0) {
				rapier__process_log(sv, RAPIER_LOG_ERROR, "cannot start %s #%u: %s",
					rapier__process_role_label(s->role), s->index, strerror(-rc));
				rapier__process_schedule_restart(sv, s, 0);
			}
		}
		if (rc != RAPIER_MASTER_CHILD && s->need_candidate) {
			s->need_candidate = false;
			if ((rc = rapier__process_spawn(sv, s, sv->reload[s->role].generation, true)) < 0) {
				rapier__process_reload_abort(sv, s->role,
					rc == -EAGAIN ? "too many processes still draining" : strerror(-rc));
			}
		}
		if (rc == RAPIER_MASTER_CHILD) {
			return rc;
		}
	}
	return 0;
}

int rapier_master_run(rapier_master_t *m)
{
	rapier_supervisor_t *sv = m->sv;
	int rc;

	if (sv == NULL || sv->phase != PHASE_IDLE) {
		return -EINVAL;
	}
	rc = master_open(sv);
	if (rc < 0) {
		master_close(sv);
		sv->phase = PHASE_DONE;
		return rc;
	}
	sv->phase = PHASE_RUNNING;
	for (unsigned i = 0; i < sv->nslots; i++) {
		sv->slots[i].need_current = true;
	}
	rapier__process_log(sv, RAPIER_LOG_NOTICE, "master %d started: %u workers, %u task workers, %u user processes%s%s",
		(int) sv->pid, sv->cfg->workers, sv->cfg->task_workers, sv->cfg->user_processes,
		sv->cfg->status_socket ? ", status on " : "", sv->cfg->status_socket ? sv->cfg->status_socket : "");
	for (;;) {
		if (spawn_pending(sv) == RAPIER_MASTER_CHILD) {
			return RAPIER_MASTER_CHILD;
		}
		if (sv->phase == PHASE_DONE) {
			break;
		}
		rc = rapier_loop_poll(&sv->loop, -1);
		if (rc < 0) {
			rapier__process_log(sv, RAPIER_LOG_ERROR, "master loop failed: %s; killing every process", strerror(-rc));
			sv->result = rc;
			kill_all_and_wait(sv);
		}
	}
	master_close(sv);
	rapier__process_log(sv, RAPIER_LOG_NOTICE, "master %d stopped", (int) sv->pid);
	return sv->result;
}

void rapier_master_free(rapier_master_t *m)
{
	if (m->sv != NULL) {
		master_close(m->sv);
		rapier__process_supervisor_free(m->sv);
		m->sv = NULL;
	}
	if (m->self.notify_fd >= 0) {
		close(m->self.notify_fd);
		m->self.notify_fd = -1;
	}
	rapier_status_table_destroy(m->table);
	m->table = NULL;
	free((char *) m->config.pid_file);
	free((char *) m->config.status_socket);
	m->config.pid_file = m->config.status_socket = NULL;
}
