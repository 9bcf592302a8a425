// SPDX-License-Identifier: GPL-2.0
/*
 * libsmart in the guest: its syscall wrappers and helpers against the
 * real kernel (the host tests in tools/lib/smart/tests cover what needs
 * no SMART kernel).  Built from tools/lib/smart/libsmart.c directly.
 *
 *   relative_constraint  smart_begin_in(): deadline = now + rel, the
 *                        prediction comes back, end reports MET and the
 *                        CPU time used; end again is ENOENT
 *   estimator_frames     the §6.1 estimator fed real per-frame CPU times
 *                        (measured with smart_thread_cpu_ns()) predicts
 *                        the next frame within 20 %, and a constraint
 *                        begun with it on an idle CPU is met
 *   set_helpers          smart_set_priority/share/signal round trip
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "../kselftest_harness.h"
#include "smart.h"		/* libsmart only: no util.h */

#define MS	1000000ULL

/* the 6.12 struct sched_attr (<linux/sched/types.h> clashes with glibc) */
struct sched_attr {
	__u32 size, sched_policy;
	__u64 sched_flags;
	__s32 sched_nice;
	__u32 sched_priority;
	__u64 sched_runtime, sched_deadline, sched_period;
	__u32 sched_util_min, sched_util_max;
};

static void spin_cpu_ns(uint64_t ns)
{
	uint64_t end = smart_thread_cpu_ns() + ns;

	while (smart_thread_cpu_ns() < end)
		;
}

#define REQUIRE_SMART_ROOT() do {					\
	if (!smart_available())						\
		SKIP(return, "SCHED_SMART not in this kernel");		\
	if (geteuid() != 0)						\
		SKIP(return, "needs root");				\
} while (0)

/* this thread on CPU 0, in SCHED_SMART */
static void enter_smart_self(struct __test_metadata *_metadata)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(0, &s);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(s), &s));
	if (smart_mode() == 0) {
		struct sched_attr a = { .size = sizeof(a), .sched_policy = 8 };

		ASSERT_EQ(0, syscall(__NR_sched_setattr, 0, &a, 0));
	}
}

TEST(relative_constraint)
{
	struct smart_constraint c;
	uint64_t before, cpu0;

	REQUIRE_SMART_ROOT();
	enter_smart_self(_metadata);

	before = smart_now_ns();
	/*
	 * Before the call: an interrupt served on its way out is charged to
	 * the thread, and counts as used.
	 */
	cpu0 = smart_thread_cpu_ns();
	ASSERT_EQ(0, smart_begin_in(&c, 50 * MS, 5 * MS, 0,
				    SMART_CONSTRAINT_NOTIFY, 42)) {
		TH_LOG("smart_begin_in: %s", strerror(errno));
	}
	EXPECT_GE(c.deadline, before + 50 * MS);
	EXPECT_LE(c.deadline, smart_now_ns() + 50 * MS);
	EXPECT_EQ((__u32)SMART_STATUS_FEASIBLE, c.status);
	EXPECT_GE(c.available, 5 * MS);
	TH_LOG("begin_in(+50 ms, 5 ms): available %.3f ms, FEASIBLE", c.available / 1e6);
	spin_cpu_ns(3 * MS);
	ASSERT_EQ(0, smart_constraint_end(&c, 0));
	EXPECT_EQ((__u32)SMART_STATUS_MET, c.status);
	EXPECT_EQ(42ULL, c.cookie);
	EXPECT_GE(c.used, 3 * MS);
	EXPECT_LE(c.used, smart_thread_cpu_ns() - cpu0 + 2 * MS);
	TH_LOG("end: used %.3f ms, MET", c.used / 1e6);
	EXPECT_EQ(-1, smart_constraint_end(&c, 0));
	EXPECT_EQ(ENOENT, errno);
}

TEST(estimator_frames)
{
	struct smart_estimator e;
	struct smart_constraint c;
	uint64_t est, lo = UINT64_MAX, hi = 0;
	int i;

	REQUIRE_SMART_ROOT();
	enter_smart_self(_metadata);
	ASSERT_EQ(0, smart_estimator_init(&e, 0.25, SMART_ESTIMATOR_MARGIN_PAPER));
	for (i = 0; i < 12; i++) {
		uint64_t t0 = smart_thread_cpu_ns();

		uint64_t x;

		spin_cpu_ns((2 + i % 2) * MS);	/* frames of 2 and 3 ms */
		x = smart_thread_cpu_ns() - t0;
		lo = x < lo ? x : lo;
		hi = x > hi ? x : hi;
		smart_estimator_update(&e, x);
	}
	est = smart_estimator_get(&e);
	TH_LOG("estimate after 12 frames of 2/3 ms (measured %.3f..%.3f ms): %.3f ms (average %.3f ms + 10%%)",
	       lo / 1e6, hi / 1e6, est / 1e6, e.avg / 1e6);
	/* an average of the frames seen, plus 10% */
	EXPECT_GE(est, lo * 1.1 - 1);
	EXPECT_LE(est, hi * 1.1 + 1);
	EXPECT_GE(lo, 2 * MS);

	ASSERT_EQ(0, smart_begin_in(&c, 40 * MS, est, 40 * MS, 0, 7));
	spin_cpu_ns(2 * MS);
	ASSERT_EQ(0, smart_constraint_end(&c, 0));
	EXPECT_EQ((__u32)SMART_STATUS_MET, c.status);
}

TEST(set_helpers)
{
	struct smart_attr a;

	REQUIRE_SMART_ROOT();
	enter_smart_self(_metadata);
	ASSERT_EQ(0, smart_set_priority(0, 2));
	ASSERT_EQ(0, smart_set_share(0, 333));
	ASSERT_EQ(0, smart_set_signal(0, SIGRTMIN + 2));
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	ASSERT_EQ(0, smart_getattr(0, &a, sizeof(a), 0));
	EXPECT_EQ(2, a.priority);
	EXPECT_EQ(333U, a.share);
	EXPECT_EQ(SIGRTMIN + 2, a.notify_signal);
	EXPECT_EQ(-1, smart_set_priority(0, SMART_PRIO_MAX + 1));
	EXPECT_EQ(EINVAL, errno);
}

TEST_HARNESS_MAIN
