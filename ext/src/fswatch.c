/*
 * inotify watches over files and directory trees (fswatch.h).
 *
 * inotify watches one directory level per watch: a tree is walked once at
 * add time, and a directory created later is added when its IN_CREATE
 * arrives (what was written into it before the watch existed is reported
 * as that directory's change, which is all a reload needs). Paths are kept
 * per watch descriptor so an event's name can be made whole again.
 */
#include "fswatch.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#define WATCH_MASK (IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO \
	| IN_DELETE_SELF | IN_ATTRIB)

/* A tree deeper than this is a symlink loop or not an application. */
#define MAX_DEPTH 32

int rapier_fswatch_init(rapier_fswatch_t *w)
{
	memset(w, 0, sizeof(*w));
	w->owner = getpid();
	w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	return w->fd < 0 ? -errno : 0;
}

static int remember(rapier_fswatch_t *w, int wd, const char *path)
{
	if ((size_t) wd >= w->paths_cap) {
		size_t cap = w->paths_cap ? w->paths_cap : 64;
		char **grown;

		while (cap <= (size_t) wd) {
			cap *= 2;
		}
		grown = realloc(w->paths, cap * sizeof(char *));
		if (grown == NULL) {
			return -ENOMEM;
		}
		memset(grown + w->paths_cap, 0, (cap - w->paths_cap) * sizeof(char *));
		w->paths = grown;
		w->paths_cap = cap;
	}
	if (w->paths[wd] == NULL) {
		w->watch_count++;
	}
	free(w->paths[wd]);
	w->paths[wd] = strdup(path);
	return w->paths[wd] ? 0 : -ENOMEM;
}

static int add_tree(rapier_fswatch_t *w, const char *path, int depth)
{
	struct stat st;
	DIR *dir;
	struct dirent *de;
	int wd, rc;

	if (stat(path, &st) < 0) {
		return -errno;
	}
	wd = inotify_add_watch(w->fd, path, WATCH_MASK);
	if (wd < 0) {
		return -errno;
	}
	if ((rc = remember(w, wd, path)) < 0 || !S_ISDIR(st.st_mode) || depth >= MAX_DEPTH) {
		return rc;
	}
	if ((dir = opendir(path)) == NULL) {
		return 0;
	}
	while ((de = readdir(dir)) != NULL) {
		char sub[4096];

		/* Dot entries: ., .., and .git and friends, which change without the app changing. */
		if (de->d_name[0] == '.' || (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)) {
			continue;
		}
		if (snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name) >= (int) sizeof(sub)) {
			continue;
		}
		if (stat(sub, &st) == 0 && S_ISDIR(st.st_mode)) {
			add_tree(w, sub, depth + 1);
		}
	}
	closedir(dir);
	return 0;
}

int rapier_fswatch_add(rapier_fswatch_t *w, const char *path)
{
	char **grown;
	int rc = add_tree(w, path, 0);

	if (rc < 0) {
		return rc;
	}
	grown = realloc(w->roots, (w->root_count + 1) * sizeof(char *));
	if (grown == NULL) {
		return -ENOMEM;
	}
	w->roots = grown;
	if ((w->roots[w->root_count] = strdup(path)) == NULL) {
		return -ENOMEM;
	}
	w->root_count++;
	return 0;
}

/*
 * Walks the roots again, for a table that may not name every watch: in a
 * process forked after an earlier reader added some, or after the kernel
 * dropped the events of new directories. inotify_add_watch() on a path this
 * instance already watches returns the existing descriptor, so what is
 * known stays, what is new is added, and no queued event is lost.
 */
static void rewalk_roots(rapier_fswatch_t *w)
{
	w->owner = getpid();
	for (size_t i = 0; i < w->root_count; i++) {
		add_tree(w, w->roots[i], 0);
	}
}

static void forget(rapier_fswatch_t *w, int wd)
{
	if (wd >= 0 && (size_t) wd < w->paths_cap && w->paths[wd]) {
		free(w->paths[wd]);
		w->paths[wd] = NULL;
		w->watch_count--;
	}
}

/*
 * A directory that appeared (created, or moved in) may have files already:
 * written before its watch existed, or moved in whole. They are changes too.
 */
static int report_tree(const char *path, rapier_fswatch_fn fn, void *data, int depth)
{
	DIR *dir = opendir(path);
	struct dirent *de;
	int found = 0;

	if (dir == NULL) {
		return 0;
	}
	while ((de = readdir(dir)) != NULL) {
		char sub[4096];
		struct stat st;

		if (de->d_name[0] == '.'
			|| snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name) >= (int) sizeof(sub)
			|| stat(sub, &st) < 0) {
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			found += depth < MAX_DEPTH ? report_tree(sub, fn, data, depth + 1) : 0;
		} else {
			fn(data, sub);
			found++;
		}
	}
	closedir(dir);
	return found;
}

/*
 * The kernel's queue overflowed (IN_Q_OVERFLOW, max_queued_events): events
 * were dropped, the creation of directories among them. Each root is
 * reported as changed: that something changed is all that is left to tell.
 */
static int recover_overflow(rapier_fswatch_t *w, rapier_fswatch_fn fn, void *data)
{
	rewalk_roots(w);
	for (size_t i = 0; i < w->root_count; i++) {
		fn(data, w->roots[i]);
	}
	return (int) w->root_count;
}

int rapier_fswatch_read(rapier_fswatch_t *w, rapier_fswatch_fn fn, void *data)
{
	char buf[16384] __attribute__((aligned(__alignof__(struct inotify_event))));
	int changes = 0;

	if (w->owner != getpid()) {
		rewalk_roots(w);
	}
	for (;;) {
		ssize_t n = read(w->fd, buf, sizeof(buf));

		if (n < 0) {
			return errno == EAGAIN ? changes : (errno == EINTR ? changes : -errno);
		}
		for (char *p = buf; p < buf + n; ) {
			const struct inotify_event *ev = (const struct inotify_event *) p;
			const char *base = ev->wd >= 0 && (size_t) ev->wd < w->paths_cap ? w->paths[ev->wd] : NULL;
			char path[4096];

			p += sizeof(*ev) + ev->len;
			if (ev->mask & IN_Q_OVERFLOW) {
				changes += recover_overflow(w, fn, data);
				continue;
			}
			if (ev->mask & IN_IGNORED) {
				forget(w, ev->wd);
				continue;
			}
			if (base == NULL) {
				continue;
			}
			if (ev->len > 0) {
				snprintf(path, sizeof(path), "%s/%s", base, ev->name);
			} else {
				snprintf(path, sizeof(path), "%s", base);
			}
			fn(data, path);
			changes++;
			if ((ev->mask & IN_ISDIR) && (ev->mask & (IN_CREATE | IN_MOVED_TO)) && ev->name[0] != '.') {
				add_tree(w, path, 1);
				changes += report_tree(path, fn, data, 1);
			}
		}
	}
}

void rapier_fswatch_close(rapier_fswatch_t *w)
{
	if (w->fd >= 0) {
		close(w->fd);
		w->fd = -1;
	}
	for (size_t i = 0; i < w->paths_cap; i++) {
		free(w->paths[i]);
	}
	free(w->paths);
	w->paths = NULL;
	w->paths_cap = w->watch_count = 0;
	for (size_t i = 0; i < w->root_count; i++) {
		free(w->roots[i]);
	}
	free(w->roots);
	w->roots = NULL;
	w->root_count = 0;
}
