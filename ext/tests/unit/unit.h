/*
 * A minimal assertion helper for the engine's C unit tests: a failed check
 * prints where and what, and the test binary exits 1 at the end.
 */
#ifndef RAPIER_UNIT_H
#define RAPIER_UNIT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int unit_failures;
static int unit_checks;

#define CHECK(cond) do { \
	unit_checks++; \
	if (!(cond)) { \
		unit_failures++; \
		fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
	} \
} while (0)

#define CHECK_EQ_INT(a, b) do { \
	long long unit_a = (long long) (a), unit_b = (long long) (b); \
	unit_checks++; \
	if (unit_a != unit_b) { \
		unit_failures++; \
		fprintf(stderr, "%s:%d: %s == %lld, expected %s == %lld\n", __FILE__, __LINE__, #a, unit_a, #b, unit_b); \
	} \
} while (0)

#define CHECK_EQ_STR(a, b) do { \
	const char *unit_a = (a), *unit_b = (b); \
	unit_checks++; \
	if (unit_a == NULL || unit_b == NULL || strcmp(unit_a, unit_b) != 0) { \
		unit_failures++; \
		fprintf(stderr, "%s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #a, \
			unit_a ? unit_a : "(null)", unit_b ? unit_b : "(null)"); \
	} \
} while (0)

static inline int unit_finish(const char *name)
{
	printf("%s: %d checks, %d failed\n", name, unit_checks, unit_failures);
	return unit_failures ? 1 : 0;
}

#endif
