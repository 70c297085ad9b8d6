/*
 * A shared library for plt_test.c, built twice (full RELRO and lazily
 * bound): it calls getpid() through its PLT, and loads getppid's address
 * from its global offset table (a GLOB_DAT relocation).
 */
#include <sys/types.h>
#include <unistd.h>

pid_t probe_getpid(void)
{
	return getpid();
}

pid_t probe_getppid(void)
{
	pid_t (*volatile fn)(void) = getppid;

	return fn();
}
