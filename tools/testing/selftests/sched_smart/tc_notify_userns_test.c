// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART notifications in a user namespace: the siginfo of a
 * notification says it comes from the kernel, si_pid = si_uid = 0, in the
 * namespaces of the thread that receives it.
 *
 * The thread enters SCHED_SMART as root, then moves into a new user
 * namespace with no uid mapped (so the initial root is not mapped there
 * either: getuid() is the overflow uid), uses up the estimate of a
 * constraint and sleeps past its deadline.  The expiry is decided in the
 * timer interrupt while the thread sleeps, on behalf of whatever runs on
 * the CPU then: had si_uid been read in that context's user namespace,
 * the thread would see the overflow uid (65534) instead of 0.
 */
#include <sched.h>

#include "../kselftest_harness.h"
#include "util.h"
#include "tc.h"

TEST(expired_in_user_namespace)
{
	struct smart_note_log *log = smart_notes();
	struct smart_constraint c;
	long notes0;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	SETUP_SELF();
	if (unshare(CLONE_NEWUSER))
		SKIP(return, "no user namespaces: %s", strerror(errno));
	ASSERT_EQ(NOBODY_ID, (int)getuid()) {
		TH_LOG("the initial root should not be mapped in a new namespace");
	}

	notes0 = smart_note_count();
	smart_tc_init(&c, SMART_CONSTRAINT_NOTIFY, mono_ns() + 20 * MS, MS, 0, COOKIE);
	ASSERT_EQ(0, smart_tc_begin(&c));
	spin_cpu_ns(2 * MS);	/* the estimate is used up: only expiry is left */
	sleep_until_ns(c.deadline + 40 * MS);
	EXPECT_EQ(-ENOENT, smart_tc_end(&c));

	ASSERT_EQ(notes0 + 1, smart_note_count()) {
		TH_LOG("expected one notification, got %ld", smart_note_count() - notes0);
	}
	EXPECT_EQ(SMART_NOTIFY_EXPIRED, log->note[0].code);
	EXPECT_EQ(COOKIE, log->note[0].cookie);
	EXPECT_EQ(0, (int)log->note[0].pid);
	EXPECT_EQ(0, (int)log->note[0].uid) {
		TH_LOG("si_uid %u: translated through another user namespace",
		       log->note[0].uid);
	}
}

TEST_HARNESS_MAIN
