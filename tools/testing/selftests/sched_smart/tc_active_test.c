// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART time constraints (sched-smart.rst §4.3): a constraint while it
 * is active, and how it ends other than by end.  A begin while one is active
 * replaces it (the replaced one counts as met; end reports the replacing one
 * and the CPU time since it began); at its deadline it expires (counted as
 * missed, end then finds nothing, no notification without
 * SMART_CONSTRAINT_NOTIFY, and the thread goes on as before); while it is
 * active, the thread has no bias, also once its estimate is used up.
 *
 * Everything that is timed runs pinned to CPU 0 so that "alone on a CPU"
 * means it; every test SKIPs when the kernel has no SCHED_SMART.
 */
#include "../kselftest_harness.h"
#include "util.h"
#include "tc.h"

TEST(replace_counts)
{
	struct smart_constraint c1, c2, e;
	struct smart_counts b, a;
	long long t0, t0b, t1a, t1;
	int r;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	SETUP_SELF();
	b = smart_counts_self();

	smart_tc_init(&c1, 0, mono_ns() + NSEC_PER_SEC, 30 * MS, 0, COOKIE);
	ASSERT_EQ(0, smart_tc_begin(&c1));
	spin_cpu_ns(20 * MS);
	smart_tc_init(&c2, 0, mono_ns() + 2 * NSEC_PER_SEC, 10 * MS, 20 * MS, COOKIE + 1);
	t0 = thread_cpu_ns();
	r = smart_tc_begin(&c2);
	t0b = thread_cpu_ns();
	ASSERT_EQ(0, r) {
		TH_LOG("begin while active: %s", strerror(-r));
	}
	a = smart_counts_self();
	TH_LOG("after the replacing begin: met %+lld missed %+lld", a.met - b.met,
	       a.missed - b.missed);
	EXPECT_COUNTS(b, a, 1, 0, 0);

	spin_cpu_ns(5 * MS);
	e = c2;
	t1a = thread_cpu_ns();
	r = smart_tc_end(&e);
	t1 = thread_cpu_ns();
	ASSERT_EQ(0, r) {
		TH_LOG("end: %s", strerror(-r));
	}
	TH_LOG("end: cookie %#llx used %.3f ms (CPU since the replacing begin %.3f..%.3f ms)",
	       (unsigned long long)e.cookie, smart_ms(e.used), smart_ms(t1a - t0b),
	       smart_ms(t1 - t0));
	EXPECT_EQ(COOKIE + 1, e.cookie) {
		TH_LOG("end must report the replacing constraint");
	}
	EXPECT_EQ(c2.deadline, e.deadline);
	EXPECT_EQ(c2.estimate, e.estimate);
	EXPECT_EQ(c2.period, e.period);
	EXPECT_EQ((__u32)SMART_STATUS_MET, e.status);
	EXPECT_TRUE(smart_used_ok(e.used, t1a - t0b, t1 - t0)) {
		TH_LOG("used %.3f ms: expected the CPU time since the replacing begin, "
		       "%.3f..%.3f ms", smart_ms(e.used), smart_ms(t1a - t0b), smart_ms(t1 - t0));
	}
	EXPECT_EQ(-ENOENT, smart_tc_end(&e));
	a = smart_counts_self();
	EXPECT_COUNTS(b, a, 2, 0, 0);
}

TEST(expiry_counts)
{
	struct smart_constraint c;
	struct smart_counts b, a;
	long notes0;
	long long end;
	int r;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	SETUP_SELF();
	b = smart_counts_self();
	notes0 = smart_note_count();

	/* sleeping through the deadline */
	smart_tc_init(&c, 0, mono_ns() + 20 * MS, MS, 0, COOKIE);
	ASSERT_EQ(0, smart_tc_begin(&c));
	sleep_ns(50 * MS);
	a = smart_counts_self();
	EXPECT_COUNTS(b, a, 0, 1, 0);
	r = smart_tc_end(&c);
	EXPECT_EQ(-ENOENT, r) {
		TH_LOG("end 30 ms after the deadline: expected ENOENT (expired), got %s/%s",
		       r ? strerror(-r) : "success", smart_status_name(c.status));
	}

	/* spinning through the deadline */
	smart_tc_init(&c, 0, mono_ns() + 20 * MS, 5 * MS, 0, COOKIE + 1);
	ASSERT_EQ(0, smart_tc_begin(&c));
	end = mono_ns() + 50 * MS;
	while (mono_ns() < end)
		;
	r = smart_tc_end(&c);
	EXPECT_EQ(-ENOENT, r) {
		TH_LOG("end 30 ms after the deadline (spinning): expected ENOENT, got %s/%s",
		       r ? strerror(-r) : "success", smart_status_name(c.status));
	}
	a = smart_counts_self();
	EXPECT_COUNTS(b, a, 0, 2, 0);
	EXPECT_EQ(notes0, smart_note_count()) {
		TH_LOG("expiry without SMART_CONSTRAINT_NOTIFY sent a notification");
	}

	/* and the thread goes on as before */
	smart_tc_init(&c, 0, mono_ns() + 100 * MS, MS, 0, COOKIE + 2);
	ASSERT_EQ(0, smart_tc_begin(&c));
	ASSERT_EQ(0, smart_tc_end(&c));
	EXPECT_EQ((__u32)SMART_STATUS_MET, c.status);
	a = smart_counts_self();
	EXPECT_COUNTS(b, a, 1, 2, 0);
}

TEST(bias_zero_while_active)
{
	struct smart_constraint c;
	struct smart_attr a0, a1, a2, a3;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	SETUP_SELF();

	/* ten quanta without sleeping: eq. (4) gives a bias */
	spin_cpu_ns(100 * MS);
	ASSERT_EQ(0, smart_get(0, &a0));
	smart_tc_init(&c, 0, mono_ns() + NSEC_PER_SEC, 100 * MS, 0, COOKIE);
	ASSERT_EQ(0, smart_tc_begin(&c));
	ASSERT_EQ(0, smart_get(0, &a1));
	spin_cpu_ns(30 * MS);
	ASSERT_EQ(0, smart_get(0, &a2));
	spin_cpu_ns(100 * MS);	/* estimate used up, still active */
	ASSERT_EQ(0, smart_get(0, &a3));
	ASSERT_EQ(0, smart_tc_end(&c));
	TH_LOG("bias: before begin %.1f ms; active: at begin %.1f ms, after 30 ms %.1f ms, "
	       "after 130 ms (estimate 100 ms used up) %.1f ms", smart_ms(a0.bias_ns),
	       smart_ms(a1.bias_ns), smart_ms(a2.bias_ns), smart_ms(a3.bias_ns));
	EXPECT_GT(a0.bias_ns, 0ull) {
		TH_LOG("precondition: 100 ms of spinning gave no bias, so this test shows little");
	}
	EXPECT_EQ(0ull, a1.bias_ns);
	EXPECT_EQ(0ull, a2.bias_ns);
	EXPECT_EQ(0ull, a3.bias_ns);
}

TEST_HARNESS_MAIN
