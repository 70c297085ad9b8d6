/*
 * A main() for the fuzz drivers without libFuzzer: runs every file given
 * (or found in the directories given) once through LLVMFuzzerTestOneInput.
 * make fuzz-replay links each driver with it under ASan and UBSan and runs
 * the committed corpus and regressions, so `make test` needs no clang and
 * replays in seconds. Each input is read into a buffer of exactly its size,
 * as libFuzzer does, so that a read past its end is caught.
 *
 * Prints "replay NAME: N inputs" and exits 0; a failed check or a sanitizer
 * report names the input and exits non-zero.
 */
#include <dirent.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sanitizer/common_interface_defs.h>

#include "fuzz.h"

static const char *current;

static void name_current(void)
{
	if (current) {
		fprintf(stderr, "replay: failed on %s\n", current);
	}
}

static void on_abort(int sig)
{
	name_current();
	signal(sig, SIG_DFL);
	raise(sig);
}

static int replay_file(const char *path)
{
	struct stat st;
	uint8_t *buf;
	FILE *f = fopen(path, "rb");

	if (f == NULL || fstat(fileno(f), &st) != 0) {
		fprintf(stderr, "replay: cannot read %s\n", path);
		if (f) {
			fclose(f);
		}
		return -1;
	}
	buf = malloc(st.st_size > 0 ? (size_t) st.st_size : 1);
	if (buf == NULL || fread(buf, 1, (size_t) st.st_size, f) != (size_t) st.st_size) {
		fprintf(stderr, "replay: cannot read %s\n", path);
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	current = path;
	LLVMFuzzerTestOneInput(buf, (size_t) st.st_size);
	current = NULL;
	free(buf);
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Every regular file of dir except dotfiles and READMEs, in name order. */
static int replay_dir(const char *dir, long *count)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, by_name), rc = 0;

	if (n < 0) {
		fprintf(stderr, "replay: cannot read %s\n", dir);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char path[4096];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		if (names[i]->d_name[0] != '.' && strncmp(names[i]->d_name, "README", 6) != 0
				&& stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			if (replay_file(path) != 0) {
				rc = -1;
			}
			(*count)++;
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	long count = 0;
	int rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s NAME FILE|DIR...\n", argv[0]);
		return 2;
	}
	__sanitizer_set_death_callback(name_current);
	signal(SIGABRT, on_abort);
	for (int i = 2; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			rc |= replay_dir(argv[i], &count);
		} else {
			rc |= replay_file(argv[i]);
			count++;
		}
	}
	printf("replay %s: %ld inputs\n", argv[1], count);
	return rc ? 1 : 0;
}
