/*
 * File-system change notification with inotify, for watch mode (a server
 * that reloads when the application's files change).
 *
 * Engine code: no PHP headers. A watcher covers files and whole directory
 * trees: every directory under a watched directory gets a watch of its own,
 * including directories created later. Events are reported as the path of
 * what changed; the caller debounces.
 */
#ifndef RAPIER_FSWATCH_H
#define RAPIER_FSWATCH_H

#include <stddef.h>
#include <sys/types.h>

typedef struct {
	int fd;                  /* the inotify descriptor (non-blocking), -1 when closed */
	char **paths;            /* by watch descriptor: the watched path */
	size_t paths_cap;
	size_t watch_count;
	char **roots;            /* what rapier_fswatch_add() was given, to walk again after a fork */
	size_t root_count;
	pid_t owner;             /* the process whose paths[] matches the kernel's watches */
} rapier_fswatch_t;

/* Called once per change, with the full path of what changed. */
typedef void (*rapier_fswatch_fn)(void *data, const char *path);

int rapier_fswatch_init(rapier_fswatch_t *w);

/* Watches path: a file, or a directory and everything below it. 0 or a negative errno. */
int rapier_fswatch_add(rapier_fswatch_t *w, const char *path);

/*
 * Reads the events waiting (never blocks), calling fn for each change. In a
 * process forked after the watcher was made, it first walks the watched
 * trees again: the kernel's watches and queue are shared with the other
 * processes, the table that names them is not, and an earlier reader may
 * have added watches (directories created since) this copy does not know.
 * When the kernel's queue overflowed (fs.inotify.max_queued_events), the
 * trees are walked again too, and each watched path is reported as changed.
 * Returns the number of changes reported, 0 when none was waiting, or a
 * negative errno.
 */
int rapier_fswatch_read(rapier_fswatch_t *w, rapier_fswatch_fn fn, void *data);

void rapier_fswatch_close(rapier_fswatch_t *w);

#endif
