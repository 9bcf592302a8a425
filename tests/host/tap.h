/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal TAP (Test Anything Protocol) output for the host tests.
 *
 *	ok 3 - eq3/share=2048: beta = V + Q*1024/S
 *	# expected 5000000 ns, seen 5000000 ns
 *	not ok 4 - ...
 *	1..4
 *
 * Every check prints one "ok N - name" or "not ok N - name" line and a
 * "# ..." line that states what was expected and what was seen, pass or
 * fail, so a log shows the measured numbers.  The plan goes last (TAP
 * allows a trailing plan), so a test file does not have to count its
 * checks.  tap_done() returns the exit code: non-zero if any check failed.
 */
#ifndef __SMART_TAP_H
#define __SMART_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

static int tap_count;
static int tap_failed;

/* tap_ok() - one check; @fmt describes "expected ..., seen ..." */
static inline __attribute__((format(printf, 3, 4)))
bool tap_ok(bool pass, const char *name, const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	if (!pass)
		tap_failed++;
	printf("%sok %d - %s\n", pass ? "" : "not ", tap_count, name);
	printf("#   ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return pass;
}

/* A free-form note, e.g. a section header. */
static inline __attribute__((format(printf, 1, 2)))
void tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* Exact integer equality. */
static inline bool tap_eq(const char *name, long long expected, long long seen,
			  const char *unit)
{
	return tap_ok(expected == seen, name, "expected %lld %s, seen %lld %s",
		      expected, unit, seen, unit);
}

/* |seen - expected| <= tol */
static inline bool tap_near(const char *name, long long expected,
			    long long seen, long long tol, const char *unit)
{
	long long d = seen - expected;

	return tap_ok(d <= tol && d >= -tol, name,
		      "expected %lld %s +- %lld, seen %lld %s (off by %lld)",
		      expected, unit, tol, seen, unit, d);
}

/* A percentage within +- tol percentage points. */
static inline bool tap_pct(const char *name, double expected, double seen,
			   double tol)
{
	double d = seen - expected;

	return tap_ok(d <= tol && d >= -tol, name,
		      "expected %.2f%% +- %.2f, seen %.3f%%", expected, tol,
		      seen);
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	if (tap_failed)
		printf("# FAILED %d of %d\n", tap_failed, tap_count);
	fflush(stdout);
	return tap_failed ? 1 : 0;
}

#endif /* __SMART_TAP_H */
