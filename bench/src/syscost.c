// SPDX-License-Identifier: GPL-2.0
/*
 * syscost - cost of the SMART system calls (paper §6.3: setting a time
 * constraint 20 µs, reading the scheduling state 10 µs on a 1997 CPU).
 *
 * The caller enters SCHED_SMART (priority 0, share 1024), pins itself to
 * CPU 0, and times --calls calls of each of, in this order:
 *
 *   sched_getattr          the kernel's own sched_getattr(2): the baseline
 *                          of a scheduler system call that reads a
 *                          thread's attributes under no lock
 *   sched_setattr          the kernel's own sched_setattr(2) with the
 *                          attributes sched_getattr gave (SCHED_SMART,
 *                          its nice value): the baseline of one that
 *                          writes them (permission checks, rq lock)
 *   getattr                smart_getattr(0, ...): attributes and counters
 *                          of the caller (takes its rq lock, charges it)
 *   setattr                smart_setattr(0, ...) with the values it already
 *                          has (priority, share, signal, flags: all four
 *                          mask bits), so nothing changes but the checks,
 *                          the locking and the parameter update path run
 *   constraint_begin+end   one smart_constraint_begin() (deadline 1 s
 *                          ahead, estimate 1 ms, aperiodic, no
 *                          notification) followed by one
 *                          smart_constraint_end(): a pair, reported as
 *                          ns per pair; begin predicts the available time
 *                          (a walk of the caller's queue, here only the
 *                          caller) and installs the constraint, end
 *                          counts it and makes the caller conventional
 *
 * Each loop is timed with CLOCK_MONOTONIC around all its calls; the
 * deadline of the constraints is refreshed (one clock read) every 256
 * pairs so that it stays about 1 s ahead.  Every call's return value is
 * checked; any failure is fatal.  --label must be SMART (the calls are
 * those of SCHED_SMART).
 *
 * Output: one JSON record per call (bench/SCHEMA.md, experiment
 * "syscall"), one per line, on stdout.
 */
#include <getopt.h>
#include <sys/syscall.h>

#include "benchutil.h"

/* struct sched_attr of sched_getattr(2) (SCHED_ATTR_SIZE_VER1); glibc 2.36
 * has none, and <linux/sched/types.h> clashes with <sched.h>. */
struct bench_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min;
	uint32_t sched_util_max;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: syscost --label SMART [--calls N]\n"
		"\n"
		"Times N calls each of sched_getattr (baseline), smart_getattr,\n"
		"smart_setattr (same values) and smart_constraint_begin+end (one pair,\n"
		"deadline 1 s ahead, estimate 1 ms) from a SCHED_SMART thread; prints\n"
		"one JSON record per call.\n"
		"\n"
		"  --label SMART   the only label (the caller runs in SCHED_SMART)\n"
		"  --calls N       calls (pairs) per measurement (default 100000)\n");
}

static void record(const char *call, uint64_t ns, uint64_t calls)
{
	bu_json_begin("syscall", BU_SMART, ns / 1e9);
	printf(",\"call\":\"%s\",\"ns_per_call\":%.1f,\"calls\":%llu", call,
	       (double)ns / calls, (unsigned long long)calls);
	bu_json_end();
}

static uint64_t time_sched_getattr(uint64_t calls)
{
	struct bench_sched_attr a;
	uint64_t i, t0;

	t0 = bu_now_ns();
	for (i = 0; i < calls; i++)
		if (syscall(SYS_sched_getattr, 0, &a, sizeof(a), 0))
			bu_die("sched_getattr: %s", strerror(errno));
	if (a.sched_policy != SCHED_SMART)
		bu_die("sched_getattr reports policy %u, not SCHED_SMART", a.sched_policy);
	return bu_now_ns() - t0;
}

static uint64_t time_sched_setattr(uint64_t calls)
{
	struct bench_sched_attr a;
	uint64_t i, t0;

	if (syscall(SYS_sched_getattr, 0, &a, sizeof(a), 0))
		bu_die("sched_getattr: %s", strerror(errno));
	a.size = sizeof(a);
	a.sched_flags = 0;
	t0 = bu_now_ns();
	for (i = 0; i < calls; i++)
		if (syscall(SYS_sched_setattr, 0, &a, 0))
			bu_die("sched_setattr: %s", strerror(errno));
	return bu_now_ns() - t0;
}

static uint64_t time_getattr(uint64_t calls)
{
	struct smart_attr a;
	uint64_t i, t0;

	t0 = bu_now_ns();
	for (i = 0; i < calls; i++)
		if (smart_getattr(0, &a, sizeof(a), 0))
			bu_die("smart_getattr: %s", smart_strerror(SMART_CALL_GETATTR, errno));
	return bu_now_ns() - t0;
}

static uint64_t time_setattr(uint64_t calls)
{
	struct smart_attr a;
	uint64_t i, t0;

	if (smart_getattr(0, &a, sizeof(a), 0))
		bu_die("smart_getattr: %s", smart_strerror(SMART_CALL_GETATTR, errno));
	a.size = sizeof(a);
	a.mask = SMART_ATTR_ALL;
	t0 = bu_now_ns();
	for (i = 0; i < calls; i++)
		if (smart_setattr(0, &a, 0))
			bu_die("smart_setattr: %s", smart_strerror(SMART_CALL_SETATTR, errno));
	return bu_now_ns() - t0;
}

static uint64_t time_constraint(uint64_t calls)
{
	struct smart_constraint c, e;
	uint64_t i, t0, deadline = 0;

	memset(&c, 0, sizeof(c));
	memset(&e, 0, sizeof(e));
	c.size = sizeof(c);
	c.estimate = 1000000;		/* 1 ms */
	t0 = bu_now_ns();
	for (i = 0; i < calls; i++) {
		if (!(i & 255))
			deadline = bu_now_ns() + 1000000000;	/* 1 s */
		c.deadline = deadline;
		if (smart_constraint_begin(&c, 0))
			bu_die("smart_constraint_begin: %s",
			       smart_strerror(SMART_CALL_CONSTRAINT_BEGIN, errno));
		e.size = sizeof(e);
		if (smart_constraint_end(&e, 0))
			bu_die("smart_constraint_end: %s",
			       smart_strerror(SMART_CALL_CONSTRAINT_END, errno));
	}
	t0 = bu_now_ns() - t0;
	if (c.status != SMART_STATUS_FEASIBLE || e.status != SMART_STATUS_MET)
		bu_die("unexpected constraint status: begin %u, end %u", c.status, e.status);
	return t0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "label", required_argument, NULL, 'l' },
		{ "calls", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t calls = 100000;
	int opt, have_label = 0;

	bu_prog = "syscost";
	while ((opt = getopt_long(argc, argv, "l:n:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'l':
			if (bu_parse_label(optarg) != BU_SMART)
				bu_die("--label must be SMART");
			have_label = 1;
			break;
		case 'n': calls = bu_parse_u64("--calls", optarg, 1, 1000000000); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 1;
		}
	}
	if (optind != argc || !have_label) {
		usage(stderr);
		return 1;
	}
	if (!smart_available())
		bu_die("this kernel has no SCHED_SMART (%s missing)", SMART_MODE_SYSCTL);

	bu_pin_cpu0();
	bu_set_policy(BU_SMART, 0, 0);

	/* A short untimed round of each first (caches, page faults). */
	time_sched_getattr(calls / 100 + 1);
	time_sched_setattr(calls / 100 + 1);
	time_getattr(calls / 100 + 1);
	time_setattr(calls / 100 + 1);
	time_constraint(calls / 100 + 1);

	record("sched_getattr", time_sched_getattr(calls), calls);
	record("sched_setattr", time_sched_setattr(calls), calls);
	record("getattr", time_getattr(calls), calls);
	record("setattr", time_setattr(calls), calls);
	record("constraint_begin+end", time_constraint(calls), calls);
	bu_check_smart("after the measurements");
	return 0;
}
