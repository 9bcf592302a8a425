// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART time constraints (sched-smart.rst §4.3): SMART_CONSTRAINT_QUERY.
 * A QUERY begin predicts like begin (available, status) but installs
 * nothing: end then finds nothing, an infeasible QUERY with
 * SMART_CONSTRAINT_NOTIFY sends no notification, a QUERY neither ends nor
 * replaces an active constraint, and no counter moves.
 *
 * Everything that is timed runs pinned to CPU 0 so that "alone on a CPU"
 * means it; every test SKIPs when the kernel has no SCHED_SMART.
 */
#include "../kselftest_harness.h"
#include "util.h"
#include "tc.h"

TEST(query_installs_nothing)
{
	struct smart_constraint q, c;
	struct smart_counts b, a;
	long notes0;
	int r;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	SETUP_SELF();
	b = smart_counts_self();
	notes0 = smart_note_count();

	/* alone: same outputs as begin, nothing to end */
	smart_tc_init(&q, SMART_CONSTRAINT_QUERY, mono_ns() + 100 * MS, 10 * MS, 0, COOKIE);
	r = smart_tc_begin(&q);
	ASSERT_EQ(0, r) {
		TH_LOG("QUERY: %s", strerror(-r));
	}
	TH_LOG("QUERY alone: available %.3f ms, status %s", smart_ms(q.available),
	       smart_status_name(q.status));
	EXPECT_STATUS_CONSISTENT(q);
	smart_tc_init(&c, 0, mono_ns() + NSEC_PER_SEC, MS, 0, 0);
	r = smart_tc_end(&c);
	EXPECT_EQ(-ENOENT, r) {
		TH_LOG("end after QUERY: expected ENOENT, got %s", r ? strerror(-r) : "success");
	}

	/* a QUERY with NOTIFY that is infeasible sends nothing */
	smart_tc_init(&q, SMART_CONSTRAINT_QUERY | SMART_CONSTRAINT_NOTIFY,
		      mono_ns() + 20 * MS, 50 * MS, 0, COOKIE + 1);
	ASSERT_EQ(0, smart_tc_begin(&q));
	EXPECT_EQ((__u32)SMART_STATUS_INFEASIBLE, q.status) {
		TH_LOG("QUERY estimate 50 ms, deadline +20 ms: available %.3f ms, status %s",
		       smart_ms(q.available), smart_status_name(q.status));
	}
	spin_cpu_ns(10 * MS);
	sleep_ns(40 * MS);
	EXPECT_EQ(notes0, smart_note_count()) {
		TH_LOG("an infeasible NOTIFY QUERY sent a notification (code %d cookie %#llx)",
		       smart_note_self()->last.code, smart_note_self()->last.cookie);
	}
	EXPECT_EQ(-ENOENT, smart_tc_end(&c));

	/* with a constraint active: QUERY neither ends nor replaces it */
	smart_tc_init(&c, 0, mono_ns() + NSEC_PER_SEC, 5 * MS, 0, COOKIE + 2);
	ASSERT_EQ(0, smart_tc_begin(&c));
	smart_tc_init(&q, SMART_CONSTRAINT_QUERY, mono_ns() + 500 * MS, 10 * MS, 0, COOKIE + 3);
	ASSERT_EQ(0, smart_tc_begin(&q));
	TH_LOG("QUERY with a constraint active: available %.3f ms, status %s",
	       smart_ms(q.available), smart_status_name(q.status));
	EXPECT_STATUS_CONSISTENT(q);
	a = smart_counts_self();
	EXPECT_COUNTS(b, a, 0, 0, 0);
	r = smart_tc_end(&c);
	ASSERT_EQ(0, r) {
		TH_LOG("end: expected the constraint begun before the QUERY, got %s",
		       strerror(-r));
	}
	EXPECT_EQ(COOKIE + 2, c.cookie) {
		TH_LOG("QUERY replaced the active constraint: end returned cookie %#llx",
		       (unsigned long long)c.cookie);
	}
	EXPECT_EQ(-ENOENT, smart_tc_end(&c));
	a = smart_counts_self();
	EXPECT_COUNTS(b, a, 1, 0, 0);
}

TEST_HARNESS_MAIN
