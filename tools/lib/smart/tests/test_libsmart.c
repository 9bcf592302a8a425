// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of libsmart: the §6.1 estimator, the relative-deadline
 * helper, the ENOSYS guard and smart_strerror().  Runs on any kernel: on
 * one without SCHED_SMART every call must fail with ENOSYS without
 * entering the kernel (463..466 are the xattr calls on >= 6.13).
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "smart.h"
#include "tap.h"

#define MS 1000000ULL

static void test_sizes(void)
{
	/* the latest version; a VER0 caller passes 64 and gets 64 bytes */
	tap_eq("uapi: sizeof(struct smart_attr) is SMART_ATTR_SIZE_VER1",
	       SMART_ATTR_SIZE_VER1, sizeof(struct smart_attr), "bytes");
	tap_eq("uapi: sizeof(struct smart_constraint) is SMART_CONSTRAINT_SIZE_VER0",
	       SMART_CONSTRAINT_SIZE_VER0, sizeof(struct smart_constraint), "bytes");
}

static void test_estimator_init(void)
{
	static const struct {
		double alpha, margin;
		int ok;
		const char *name;
	} rows[] = {
		{ 0.25, 0.10, 1, "alpha 0.25 margin 0.10" },
		{ 1.0, 0.0, 1, "alpha 1 (last frame only), margin 0" },
		{ 0.0, 0.10, 0, "alpha 0 refused" },
		{ -0.5, 0.10, 0, "alpha < 0 refused" },
		{ 1.5, 0.10, 0, "alpha > 1 refused" },
		{ 0.5, -0.1, 0, "margin < 0 refused" },
		{ NAN, 0.10, 0, "alpha NaN refused" },
		{ 0.5, NAN, 0, "margin NaN refused" },
	};
	struct smart_estimator e;
	char name[128];
	size_t i;
	int r;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		memset(&e, 0x5a, sizeof(e));
		errno = 0;
		r = smart_estimator_init(&e, rows[i].alpha, rows[i].margin);
		snprintf(name, sizeof(name), "estimator init: %s", rows[i].name);
		if (rows[i].ok)
			tap_ok(r == 0 && e.samples == 0 && smart_estimator_get(&e) == 0, name,
			       "expected 0 and no estimate yet, seen %d, estimate %llu", r,
			       (unsigned long long)smart_estimator_get(&e));
		else
			tap_ok(r == -1 && errno == EINVAL, name,
			       "expected -1/EINVAL, seen %d/%s", r, strerror(errno));
	}
}

/* feed samples (ms) and compare the estimate (ns) after the last one */
static void estimator_row(const char *name, double alpha, double margin,
			  const unsigned long long *ms, int n, unsigned long long want)
{
	struct smart_estimator e;
	char full[160];
	int i;

	smart_estimator_init(&e, alpha, margin);
	for (i = 0; i < n; i++)
		smart_estimator_update(&e, ms[i] * MS);
	snprintf(full, sizeof(full), "estimator: %s", name);
	tap_eq(full, (long long)want, (long long)smart_estimator_get(&e), "ns");
}

static void test_estimator_values(void)
{
	static const unsigned long long one[] = { 10 };
	static const unsigned long long two[] = { 10, 20 };
	static const unsigned long long three[] = { 10, 20, 40 };
	static const unsigned long long flat[] = { 8, 8, 8, 8, 8, 8, 8, 8 };
	struct smart_estimator e;
	double avg;
	int i;

	/* paper §6.1: the exponential average scaled by 10% */
	estimator_row("first sample sets the average: 10 ms * 1.1", 0.5, 0.10, one, 1, 11 * MS);
	estimator_row("alpha 0.5: avg(10, 20) = 15 ms, * 1.1", 0.5, 0.10, two, 2, 16500000);
	/* 0.25*20 + 0.75*10 = 12.5; 0.25*40 + 0.75*12.5 = 19.375 ms */
	estimator_row("alpha 0.25: 10, 20, 40 -> 19.375 ms, * 1.1", 0.25, 0.10, three, 3,
		      21312500);
	estimator_row("alpha 1: the last frame only, 40 ms * 1.1", 1.0, 0.10, three, 3, 44 * MS);
	estimator_row("margin 0: the average itself", 0.5, 0.0, two, 2, 15 * MS);
	estimator_row("constant frames: estimate = frame * 1.1", 0.2, 0.10, flat, 8, 8800000);

	/* a step from 10 to 30 ms: avg_n = 30 - 20 * (1 - alpha)^(n-1) */
	smart_estimator_init(&e, 0.3, 0.0);
	smart_estimator_update(&e, 10 * MS);
	for (i = 0; i < 5; i++)
		smart_estimator_update(&e, 30 * MS);
	avg = 30e6 - 20e6 * pow(0.7, 5);
	tap_near("estimator: a step 10 -> 30 ms closes (1 - alpha)^n of the gap",
		 (long long)(avg + 0.5), (long long)smart_estimator_get(&e), 1, "ns");
	tap_eq("estimator: counts its samples", 6, (long long)e.samples, "samples");
	tap_eq("estimator: keeps the newest sample", 30 * MS, (long long)e.last, "ns");

	/* rounding to nearest: 1 ns * 1.1 = 1.1 -> 1; 5 ns * 1.1 = 5.5 -> 6 */
	smart_estimator_init(&e, 1.0, 0.10);
	smart_estimator_update(&e, 1);
	tap_eq("estimator: 1 ns * 1.1 rounds to 1 ns", 1, (long long)smart_estimator_get(&e), "ns");
	smart_estimator_update(&e, 5);
	tap_eq("estimator: 5 ns * 1.1 rounds to 6 ns", 6, (long long)smart_estimator_get(&e), "ns");

	/* no overflow: a huge sample saturates */
	smart_estimator_update(&e, UINT64_MAX);
	tap_ok(smart_estimator_get(&e) == UINT64_MAX, "estimator: 2^64-1 ns * 1.1 saturates",
	       "expected %llu, seen %llu", (unsigned long long)UINT64_MAX,
	       (unsigned long long)smart_estimator_get(&e));
}

static void test_prepare(void)
{
	struct smart_constraint c;
	uint64_t before, after;
	int r;

	memset(&c, 0x5a, sizeof(c));
	before = smart_now_ns();
	r = smart_constraint_prepare(&c, 5 * MS, 2 * MS, 40 * MS, SMART_CONSTRAINT_NOTIFY, 77);
	after = smart_now_ns();
	tap_eq("prepare: returns 0", 0, r, "");
	tap_ok(c.deadline >= before + 5 * MS && c.deadline <= after + 5 * MS,
	       "prepare: deadline = CLOCK_MONOTONIC now + 5 ms",
	       "expected %llu..%llu, seen %llu", (unsigned long long)(before + 5 * MS),
	       (unsigned long long)(after + 5 * MS), (unsigned long long)c.deadline);
	tap_ok(c.size == sizeof(c) && c.flags == SMART_CONSTRAINT_NOTIFY &&
	       c.estimate == 2 * MS && c.period == 40 * MS && c.cookie == 77,
	       "prepare: size, flags, estimate, period, cookie as given",
	       "expected {64, 1, 2000000, 40000000, 77}, seen {%u, %u, %llu, %llu, %llu}",
	       c.size, c.flags, (unsigned long long)c.estimate,
	       (unsigned long long)c.period, (unsigned long long)c.cookie);
	tap_ok(!c.available && !c.used && !c.status && !c.__reserved,
	       "prepare: outputs and reserved field zeroed",
	       "expected 0 0 0 0, seen %llu %llu %u %u", (unsigned long long)c.available,
	       (unsigned long long)c.used, c.status, c.__reserved);

	errno = 0;
	r = smart_constraint_prepare(&c, UINT64_MAX, 1, 0, 0, 0);
	tap_ok(r == -1 && errno == EINVAL, "prepare: a deadline past 2^64 ns is EINVAL",
	       "expected -1/EINVAL, seen %d/%s", r, strerror(errno));
}

static void test_enosys(void)
{
	struct smart_constraint c;
	struct smart_attr a;
	int r;

	if (smart_available()) {
		tap_diag("this kernel has SCHED_SMART: the ENOSYS checks do not apply");
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		r = smart_getattr(0, &a, sizeof(a), 0);
		tap_ok(r == 0, "SMART kernel: smart_getattr(0) works",
		       "expected 0, seen %d (%s)", r, strerror(errno));
		return;
	}
	tap_ok(access(SMART_MODE_SYSCTL, F_OK) != 0, "no SMART: " SMART_MODE_SYSCTL " absent",
	       "smart_available() says 0");

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
#define EXPECT_ENOSYS(call) do {						\
		errno = 0;							\
		r = (call);							\
		tap_ok(r == -1 && errno == ENOSYS, "no SMART: " #call " fails with ENOSYS", \
		       "expected -1/ENOSYS, seen %d/%s", r, strerror(errno));	\
	} while (0)
	EXPECT_ENOSYS(smart_setattr(0, &a, 0));
	EXPECT_ENOSYS(smart_getattr(0, &a, sizeof(a), 0));
	EXPECT_ENOSYS(smart_constraint_begin(&c, 0));
	EXPECT_ENOSYS(smart_constraint_end(&c, 0));
	EXPECT_ENOSYS(smart_set_priority(0, 1));
	EXPECT_ENOSYS(smart_set_share(0, 100));
	EXPECT_ENOSYS(smart_set_signal(0, 10));
	EXPECT_ENOSYS(smart_set_flags(0, 0));
	EXPECT_ENOSYS(smart_mode());
	EXPECT_ENOSYS(smart_begin_in(&c, 10 * MS, MS, 0, 0, 5));
	tap_ok(c.estimate == MS && c.cookie == 5 && c.deadline > smart_now_ns(),
	       "no SMART: smart_begin_in() still fills in the constraint",
	       "expected estimate 1000000 cookie 5 deadline in the future, seen %llu %llu",
	       (unsigned long long)c.estimate, (unsigned long long)c.cookie);
}

static void test_strerror(void)
{
	static const struct {
		enum smart_call call;
		int err;
		const char *fragment;
	} rows[] = {
		{ SMART_CALL_SETATTR, EPERM, "needs CAP_SYS_NICE" },
		{ SMART_CALL_SETATTR, EINVAL, "out of range" },
		{ SMART_CALL_SETATTR, ESRCH, "No such process" },
		{ SMART_CALL_GETATTR, ENOSYS, "no SCHED_SMART in this kernel" },
		{ SMART_CALL_CONSTRAINT_BEGIN, ETIME, "not in the future" },
		{ SMART_CALL_CONSTRAINT_BEGIN, EINVAL, "60 s ahead" },
		{ SMART_CALL_CONSTRAINT_BEGIN, EPERM, "opt-in mode" },
		{ SMART_CALL_CONSTRAINT_END, ENOENT, "no active time constraint" },
		{ SMART_CALL_GETATTR, EFAULT, "Bad address" },
	};
	char name[128];
	const char *s;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		s = smart_strerror(rows[i].call, rows[i].err);
		snprintf(name, sizeof(name), "smart_strerror(%d, %s) explains", rows[i].call,
			 strerror(rows[i].err));
		tap_ok(strstr(s, rows[i].fragment) != NULL, name,
		       "expected '%s' in it, seen '%s'", rows[i].fragment, s);
	}
}

static void test_clocks(void)
{
	uint64_t t0 = smart_now_ns(), c0 = smart_thread_cpu_ns(), c1;
	volatile unsigned long x = 0;

	while ((c1 = smart_thread_cpu_ns()) - c0 < 2 * MS)
		x++;
	tap_ok(c1 - c0 >= 2 * MS && smart_now_ns() - t0 >= c1 - c0 - 100000,
	       "clocks: 2 ms of thread CPU time take at least 2 ms of CLOCK_MONOTONIC",
	       "cpu %llu ns, wall %llu ns", (unsigned long long)(c1 - c0),
	       (unsigned long long)(smart_now_ns() - t0));
}

int main(void)
{
	tap_diag("libsmart %s, SCHED_SMART %s", LIBSMART_VERSION,
		 smart_available() ? "present" : "absent");
	test_sizes();
	test_estimator_init();
	test_estimator_values();
	test_prepare();
	test_enosys();
	test_strerror();
	test_clocks();
	return tap_done();
}
