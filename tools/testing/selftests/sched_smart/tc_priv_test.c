// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART time constraints (sched-smart.rst §4.3): privilege and
 * entering SCHED_SMART.  An unprivileged SCHED_NORMAL task may not begin a
 * constraint (nor QUERY) in opt-in mode, and is SMART in all mode; an
 * unprivileged task already in SCHED_SMART needs no privilege; begin with
 * CAP_SYS_NICE moves a SCHED_NORMAL caller to SCHED_SMART (opt-in mode) and
 * installs the constraint.
 *
 * Every test SKIPs when the kernel has no SCHED_SMART.
 */
#include "../kselftest_harness.h"
#include "util.h"
#include "tc.h"

static int unpriv_begin_child(void *arg)
{
	int mode = *(int *)arg, fails = 0, r;
	struct smart_constraint c;

	r = drop_to_nobody();
	CHK(r == 0, "drop to uid %d: %s", NOBODY_ID, strerror(-r));
	CHK(cap_eff() == 0, "CapEff after drop: %#llx", cap_eff());
	CHK(sched_getscheduler(0) == SCHED_OTHER, "start policy %d", sched_getscheduler(0));
	if (fails)
		return fails;

	smart_tc_init(&c, 0, mono_ns() + 200 * MS, MS, 0, COOKIE);
	r = smart_tc_begin(&c);
	if (mode == 0) {
		CHK(r == -EPERM, "opt-in: unprivileged SCHED_NORMAL begin: expected EPERM, got %s",
		    r ? strerror(-r) : "success");
		smart_tc_init(&c, SMART_CONSTRAINT_QUERY, mono_ns() + 200 * MS, MS, 0, COOKIE);
		r = smart_tc_begin(&c);
		CHK(r == -EPERM, "opt-in: unprivileged SCHED_NORMAL QUERY: expected EPERM, got %s",
		    r ? strerror(-r) : "success");
		CHK(sched_getscheduler(0) == SCHED_OTHER, "refused begin left policy %d",
		    sched_getscheduler(0));
		/* nothing is active; whether end checks the caller first is open */
		r = smart_tc_end(&c);
		CHK(r == -ENOENT || r == -EPERM, "end after EPERM: expected ENOENT (or EPERM), "
		    "got %s", r ? strerror(-r) : "success");
		printf("# opt-in: unprivileged SCHED_NORMAL end: %s\n", strerror(-r));
	} else {
		CHK(r == 0, "all mode: an unprivileged SCHED_NORMAL task is SMART: expected "
		    "success, got %s", strerror(-r));
		printf("# all mode: policy after an unprivileged begin: %d\n",
		       sched_getscheduler(0));
		r = smart_tc_end(&c);
		CHK(r == 0 && c.status == SMART_STATUS_MET,
		    "end: expected success/MET, got %s/%s", r ? strerror(-r) : "success",
		    smart_status_name(c.status));
	}
	return fails;
}

TEST(unpriv_not_smart)
{
	int mode;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	mode = smart_mode();
	TH_LOG("mode %s", smart_mode_name());
	ASSERT_CHILD_OK(run_child(unpriv_begin_child, &mode));
}

/* already in SCHED_SMART (entered as root): begin needs no privilege */
static int unpriv_smart_child(void *arg)
{
	struct smart_constraint c;
	int fails = 0, r;

	(void)arg;
	r = smart_set(0, SMART_ATTR_PRIORITY, 0, 0);
	CHK(r == 0, "enter SMART as root: %s", strerror(-r));
	r = drop_to_nobody();
	CHK(r == 0, "drop to uid %d: %s", NOBODY_ID, strerror(-r));
	if (fails)
		return fails;
	smart_tc_init(&c, 0, mono_ns() + 200 * MS, MS, 0, COOKIE);
	r = smart_tc_begin(&c);
	CHK(r == 0, "unprivileged SCHED_SMART task: begin: expected success, got %s",
	    strerror(-r));
	r = smart_tc_end(&c);
	CHK(r == 0 && c.status == SMART_STATUS_MET && c.cookie == COOKIE,
	    "end: expected success/MET/cookie, got %s/%s/%#llx", r ? strerror(-r) : "success",
	    smart_status_name(c.status), (unsigned long long)c.cookie);
	return fails;
}

TEST(unpriv_in_smart)
{
	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_CHILD_OK(run_child(unpriv_smart_child, NULL));
}

TEST(begin_enters_smart)
{
	struct smart_constraint c;
	int r, pol;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_EQ(SCHED_OTHER, sched_getscheduler(0));
	smart_tc_init(&c, 0, mono_ns() + 200 * MS, MS, 0, COOKIE);
	r = smart_tc_begin(&c);
	ASSERT_EQ(0, r) {
		TH_LOG("root SCHED_NORMAL begin: %s", strerror(-r));
	}
	pol = sched_getscheduler(0);
	TH_LOG("mode %s: policy after begin %d, available %.3f ms, status %s",
	       smart_mode_name(), pol, smart_ms(c.available), smart_status_name(c.status));
	if (smart_mode() == 0) {
		EXPECT_EQ(SCHED_SMART, pol) {
			TH_LOG("opt-in: begin with CAP_SYS_NICE must move the caller to SCHED_SMART");
		}
	}
	EXPECT_STATUS_CONSISTENT(c);
	r = smart_tc_end(&c);
	ASSERT_EQ(0, r) {
		TH_LOG("end: expected the constraint installed by begin, got %s", strerror(-r));
	}
	EXPECT_EQ(COOKIE, c.cookie);
	EXPECT_EQ((__u32)SMART_STATUS_MET, c.status);
}

TEST_HARNESS_MAIN
