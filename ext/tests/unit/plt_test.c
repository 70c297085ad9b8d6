/*
 * Import rebinding (plt.c) on two builds of plt_probe.c: linked with full
 * RELRO as Debian links libcurl (the table read-only, bound at load), and
 * lazily bound with a writable table (an entry not bound yet points into
 * the library's own PLT).
 */
#define _GNU_SOURCE   /* before any libc header: plt.c needs dl_iterate_phdr */
#include "unit.h"
#include "../../src/plt.c"

#include <libgen.h>
#include <limits.h>

typedef pid_t (*pid_fn)(void);

static pid_t fake_getpid(void)
{
	return 4242;
}

static pid_t fake_getppid(void)
{
	return 4343;
}

static void *open_probe(const char *dir, const char *name, pid_fn *getpid_fn, pid_fn *getppid_fn)
{
	char path[PATH_MAX];
	void *lib;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (lib == NULL) {
		fprintf(stderr, "%s\n", dlerror());
		exit(1);
	}
	*getpid_fn = (pid_fn) dlsym(lib, "probe_getpid");
	*getppid_fn = (pid_fn) dlsym(lib, "probe_getppid");
	return lib;
}

static void test_rebind_and_restore(const char *dir, const char *name, const char *prefix, bool call_first)
{
	rapier_plt_rebinding_t pid = { .count = 0 }, ppid = { .count = 0 };
	pid_fn probe_getpid, probe_getppid;
	void *lib = open_probe(dir, name, &probe_getpid, &probe_getppid);

	if (call_first) {
		CHECK_EQ_INT(probe_getpid(), getpid());
	}
	CHECK_EQ_INT(rapier_plt_rebind(&pid, prefix, "getpid", (void *) fake_getpid), 1);
	CHECK_EQ_INT(rapier_plt_rebind(&ppid, prefix, "getppid", (void *) fake_getppid), 1);
	CHECK_EQ_INT(probe_getpid(), 4242);
	CHECK_EQ_INT(probe_getppid(), 4343);
	/* Only the library's own calls change. */
	CHECK_EQ_INT(getpid() == 4242, 0);
	/* The original is the real function, never the library's PLT stub. */
	CHECK((void *) rapier_plt_original(&pid) == dlsym(RTLD_DEFAULT, "getpid"));

	/* Again: nothing new to rebind, and the recorded original stays. */
	CHECK_EQ_INT(rapier_plt_rebind(&pid, prefix, "getpid", (void *) fake_getpid), 0);
	CHECK_EQ_INT(pid.count, 1);

	rapier_plt_restore(&pid);
	rapier_plt_restore(&ppid);
	CHECK_EQ_INT(pid.count, 0);
	CHECK_EQ_INT(probe_getpid(), getpid());
	CHECK_EQ_INT(probe_getppid(), getppid());
	dlclose(lib);
}

/*
 * PHP unloads an extension loaded after rapier.so before rapier.so's
 * MSHUTDOWN restores: the entry's page is unmapped by then. The lazily
 * bound build has a writable table, so a store there would fault.
 */
static void test_restore_after_unload(const char *dir)
{
	rapier_plt_rebinding_t pid = { .count = 0 };
	pid_fn probe_getpid, probe_getppid;
	void *lib = open_probe(dir, "libplt_lazy.so", &probe_getpid, &probe_getppid);
	void **slot;

	CHECK_EQ_INT(rapier_plt_rebind(&pid, "libplt_lazy.so", "getpid", (void *) fake_getpid), 1);
	slot = pid.patches[0].slot;
	CHECK(still_loaded(slot));
	dlclose(lib);
	CHECK(!still_loaded(slot));
	rapier_plt_restore(&pid);
	CHECK_EQ_INT(pid.count, 0);
}

static void test_unknown_library_or_symbol(void)
{
	rapier_plt_rebinding_t none = { .count = 0 };

	CHECK_EQ_INT(rapier_plt_rebind(&none, "libnot-loaded.so.", "getpid", (void *) fake_getpid), 0);
	CHECK_EQ_INT(rapier_plt_rebind(&none, "libc.so.", "no_such_import", (void *) fake_getpid), 0);
	CHECK(rapier_plt_original(&none) == NULL);
}

/* Loads and unloads are noticed; nothing in between reads as a change. */
static void test_objects_changed(const char *dir)
{
	pid_fn probe_getpid, probe_getppid;
	void *lib;

	rapier_plt_objects_changed();
	CHECK(!rapier_plt_objects_changed());
	lib = open_probe(dir, "libplt_now.so", &probe_getpid, &probe_getppid);
	CHECK(rapier_plt_objects_changed());
	CHECK(!rapier_plt_objects_changed());
	dlclose(lib);
	CHECK(rapier_plt_objects_changed());
	CHECK(!rapier_plt_objects_changed());
}

int main(int argc, char **argv)
{
	char self[PATH_MAX];
	const char *dir;

	(void) argc;
	snprintf(self, sizeof(self), "%s", argv[0]);
	dir = dirname(self);
	test_rebind_and_restore(dir, "libplt_now.so", "libplt_now.so", true);
	test_rebind_and_restore(dir, "libplt_lazy.so", "libplt_lazy.so", false);
	test_restore_after_unload(dir);
	test_unknown_library_or_symbol();
	test_objects_changed(dir);
	return unit_finish("plt_test");
}
