/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers shared by the overhead micro-benchmarks (ctxsw, pickcost,
 * syscost, wakelat): errors, option parsing, CPU pinning, putting the
 * caller into the scheduling class of a label, and the common part of
 * the JSON records of bench/SCHEMA.md.
 *
 * Labels:
 *   SMART  SCHED_SMART (policy 8), via smart_setattr(); checked with
 *          sched_getscheduler() == SCHED_SMART
 *   EEVDF  SCHED_OTHER, nice 0 (the fair class of 6.12)
 *   FIFO   SCHED_FIFO at the priority the caller asks for
 */
#ifndef BENCHUTIL_H
#define BENCHUTIL_H

#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "smart.h"

enum bu_label { BU_SMART, BU_EEVDF, BU_FIFO };

static const char *const bu_label_names[] = {
	[BU_SMART] = "SMART", [BU_EEVDF] = "EEVDF", [BU_FIFO] = "FIFO",
};

static const char *bu_prog = "bench";

static inline void __attribute__((noreturn, format(printf, 1, 2)))
bu_die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", bu_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static inline void __attribute__((format(printf, 1, 2)))
bu_warn(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: warning: ", bu_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* "SMART", "EEVDF" or "FIFO"; anything else is fatal. */
static inline enum bu_label bu_parse_label(const char *s)
{
	unsigned int i;

	for (i = 0; i < sizeof(bu_label_names) / sizeof(bu_label_names[0]); i++)
		if (!strcmp(s, bu_label_names[i]))
			return (enum bu_label)i;
	bu_die("unknown label '%s' (SMART, EEVDF or FIFO)", s);
}

/* A decimal number in [min, max] for option @opt; anything else is fatal. */
static inline uint64_t bu_parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || v < min || v > max)
		bu_die("%s: '%s' is not a number in %llu..%llu", opt, s,
		       (unsigned long long)min, (unsigned long long)max);
	return v;
}

/* A duration in seconds (decimal fraction allowed), > 0 and <= @max. */
static inline double bu_parse_seconds(const char *opt, const char *s, double max)
{
	double v;
	char *end;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0) || v > max)
		bu_die("%s: '%s' is not a duration in (0, %g] seconds", opt, s, max);
	return v;
}

/* Pin the calling thread (and what it forks later) to CPU 0. */
static inline void bu_pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		bu_die("sched_setaffinity(CPU 0): %s", strerror(errno));
}

/* Die unless the caller is scheduled by SCHED_SMART. */
static inline void bu_check_smart(const char *who)
{
	int pol = sched_getscheduler(0);

	if (pol != SCHED_SMART)
		bu_die("%s: sched_getscheduler() = %d, expected SCHED_SMART (%d)",
		       who, pol, SCHED_SMART);
}

/*
 * Put the calling thread into the class of @label: SCHED_SMART at SMART
 * priority @smart_prio (share 1024), SCHED_OTHER nice 0, or SCHED_FIFO at
 * @fifo_prio.  Children forked afterwards inherit it.  Fatal on failure.
 */
static inline void bu_set_policy(enum bu_label label, int smart_prio, int fifo_prio)
{
	struct sched_param sp = { 0 };

	switch (label) {
	case BU_SMART:
		if (smart_set_priority(0, smart_prio))
			bu_die("smart_set_priority(%d): %s", smart_prio,
			       smart_strerror(SMART_CALL_SETATTR, errno));
		bu_check_smart("after smart_set_priority()");
		break;
	case BU_EEVDF:
		if (sched_setscheduler(0, SCHED_OTHER, &sp))
			bu_die("sched_setscheduler(SCHED_OTHER): %s", strerror(errno));
		if (setpriority(PRIO_PROCESS, 0, 0))
			bu_die("setpriority(nice 0): %s", strerror(errno));
		if (sched_getscheduler(0) != SCHED_OTHER)
			bu_die("not SCHED_OTHER after sched_setscheduler()");
		break;
	case BU_FIFO:
		sp.sched_priority = fifo_prio;
		if (sched_setscheduler(0, SCHED_FIFO, &sp))
			bu_die("sched_setscheduler(SCHED_FIFO, %d): %s", fifo_prio,
			       strerror(errno));
		if (sched_getscheduler(0) != SCHED_FIFO)
			bu_die("not SCHED_FIFO after sched_setscheduler()");
		break;
	}
}

/* Die unless the caller is in the class @label put it in. */
static inline void bu_check_policy(enum bu_label label, const char *who)
{
	static const int want[] = {
		[BU_SMART] = SCHED_SMART, [BU_EEVDF] = SCHED_OTHER, [BU_FIFO] = SCHED_FIFO,
	};
	int pol = sched_getscheduler(0);

	if (pol != want[label])
		bu_die("%s: sched_getscheduler() = %d, expected %d for label %s",
		       who, pol, want[label], bu_label_names[label]);
}

/*
 * The controlling process of a multi-process benchmark runs at SCHED_FIFO
 * 99, above every measured class (SMART sits between RT and fair), so
 * that it starts and stops the measurement on time however many tasks
 * are runnable.  It sleeps while the measurement runs.
 */
static inline void bu_set_controller(void)
{
	struct sched_param sp = { .sched_priority = 99 };

	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		bu_die("sched_setscheduler(SCHED_FIFO, 99) for the controller: %s",
		       strerror(errno));
}

static inline uint64_t bu_now_ns(void)
{
	return smart_now_ns();
}

/* Sleep @ns on CLOCK_MONOTONIC (restarted on EINTR). */
static inline void bu_sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000 };

	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
}

/* qsort() order of uint64_t and of double values. */
static inline int bu_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static inline int bu_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The p-th quantile (0..1) of sorted @v (@n >= 1), nearest rank. */
static inline uint64_t bu_quantile(const uint64_t *v, uint64_t n, double p)
{
	uint64_t k = (uint64_t)(p * n + 0.999999);

	if (k < 1)
		k = 1;
	return v[(k > n ? n : k) - 1];
}

/* The start of a record: '{' and the fields common to every record, no '}'. */
static inline void bu_json_begin(const char *experiment, enum bu_label label, double duration_s)
{
	printf("{\"schema\":1,\"experiment\":\"%s\",\"label\":\"%s\",\"duration_s\":%.6f",
	       experiment, bu_label_names[label], duration_s);
}

/* The end of a record; the record is on stdout when this returns. */
static inline void bu_json_end(void)
{
	printf("}\n");
	if (fflush(stdout) || ferror(stdout))
		bu_die("writing the record to stdout failed");
}

#endif /* BENCHUTIL_H */
