// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART user API: privilege rules for unprivileged users.  Without
 * CAP_SYS_NICE a thread may only lower its own priority and share, may not
 * change another user's thread (but may read it), and may enter SCHED_SMART
 * only with sched_smart=all.  And the selftests' own hogs that drop to
 * nobody still die with the test that spawned them.
 *
 * Every SCHED_SMART test SKIPs when the kernel has no SCHED_SMART.
 */
#include "../kselftest_harness.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* Privilege                                                           */

static int unpriv_own_child(void *arg)
{
	struct smart_attr a, b;
	int fails = 0, r;

	(void)arg;
	/* as root: SMART at priority -2, share 512 */
	r = smart_set(0, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, -2, 512);
	CHK(r == 0, "setup setattr as root: %s", strerror(-r));
	r = drop_to_nobody();
	CHK(r == 0, "drop to uid %d: %s", NOBODY_ID, strerror(-r));
	CHK(cap_eff() == 0, "CapEff after drop: %#llx, expected 0", cap_eff());
	if (fails)
		return fails;

	struct { int prio; unsigned int share; unsigned int mask; int err; const char *what; }
	rows[] = {
		{ 1, 0, SMART_ATTR_PRIORITY, EPERM, "raise priority above 0" },
		{ -1, 0, SMART_ATTR_PRIORITY, EPERM, "raise priority -2 -> -1" },
		{ 0, 0, SMART_ATTR_PRIORITY, EPERM, "raise priority -2 -> 0" },
		{ 0, 2048, SMART_ATTR_SHARE, EPERM, "raise share above 1024" },
		{ 0, 1000, SMART_ATTR_SHARE, EPERM, "raise share 512 -> 1000" },
		{ -5, 2048, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, EPERM,
		  "lower priority but raise share" },
		{ -3, 256, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, 0, "lower both" },
		{ -3, 0, SMART_ATTR_PRIORITY, 0, "same priority" },
		{ 0, 256, SMART_ATTR_SHARE, 0, "same share" },
		{ -4, 300, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, EPERM,
		  "lower priority but raise share 256 -> 300" },
		{ -4, 0, SMART_ATTR_PRIORITY, 0, "lower priority -3 -> -4" },
		{ 0, 100, SMART_ATTR_SHARE, 0, "lower share 256 -> 100" },
		{ -3, 0, SMART_ATTR_PRIORITY, EPERM, "raise back -4 -> -3" },
	};
	for (unsigned int i = 0; i < ARRAY_SIZE(rows); i++) {
		smart_get(0, &b);
		r = smart_set(0, rows[i].mask, rows[i].prio, rows[i].share);
		smart_get(0, &a);
		CHK(r == -rows[i].err, "%s: expected %s, got %s", rows[i].what,
		    rows[i].err ? strerror(rows[i].err) : "success",
		    r ? strerror(-r) : "success");
		if (rows[i].err)
			CHK(smart_attr_same(&a, &b), "%s: refused but changed " ATTR_FMT
			    " -> " ATTR_FMT, rows[i].what, ATTR_ARG(b), ATTR_ARG(a));
		else
			CHK((!(rows[i].mask & SMART_ATTR_PRIORITY) || a.priority == rows[i].prio) &&
			    (!(rows[i].mask & SMART_ATTR_SHARE) || a.share == rows[i].share),
			    "%s: accepted but attributes are " ATTR_FMT, rows[i].what, ATTR_ARG(a));
	}
	CHK(sched_getscheduler(0) == SCHED_SMART, "policy %d, expected SCHED_SMART",
	    sched_getscheduler(0));
	return fails;
}

TEST(unpriv_own_thread)
{
	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_CHILD_OK(run_child(unpriv_own_child, NULL));
}

static int unpriv_other_child(void *arg)
{
	pid_t victim = *(pid_t *)arg;
	struct smart_attr a;
	int fails = 0, r;

	r = drop_to_nobody();
	CHK(r == 0, "drop to uid %d: %s", NOBODY_ID, strerror(-r));
	if (fails)
		return fails;
	r = smart_set(victim, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, -6, 10);
	CHK(r == -EPERM, "setattr (lowering) on root's thread %d: expected EPERM, got %s",
	    victim, r ? strerror(-r) : "success");
	r = smart_set(victim, SMART_ATTR_PRIORITY, 5, 0);
	CHK(r == -EPERM, "setattr (raising) on root's thread %d: expected EPERM, got %s",
	    victim, r ? strerror(-r) : "success");
	r = smart_get(victim, &a);
	CHK(r == 0, "getattr on root's thread %d: expected success, got %s",
	    victim, strerror(-r));
	CHK(r || (a.priority == -1 && a.share == 700),
	    "getattr on root's thread: expected prio -1 share 700, got " ATTR_FMT, ATTR_ARG(a));
	return fails;
}

TEST(unpriv_other_user)
{
	struct smart_attr before, after;
	pid_t me = sys_gettid();

	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_EQ(0, smart_set(0, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, -1, 700));
	ASSERT_EQ(0, smart_get(0, &before));
	ASSERT_CHILD_OK(run_child(unpriv_other_child, &me));
	ASSERT_EQ(0, smart_get(0, &after));
	EXPECT_TRUE(smart_attr_same(&before, &after)) {
		TH_LOG("unprivileged child changed root's thread: " ATTR_FMT " -> " ATTR_FMT,
		       ATTR_ARG(before), ATTR_ARG(after));
	}
}

static int unpriv_enter_child(void *arg)
{
	struct sched_param sp = { 0 };
	int mode = *(int *)arg;
	struct smart_attr a;
	int fails = 0, r;

	r = drop_to_nobody();
	CHK(r == 0, "drop to uid %d: %s", NOBODY_ID, strerror(-r));
	CHK(sched_getscheduler(0) == SCHED_OTHER, "start policy %d", sched_getscheduler(0));
	if (fails)
		return fails;

	if (mode == 0) {
		r = sched_setscheduler(0, SCHED_SMART, &sp) ? -errno : 0;
		CHK(r == -EPERM,
		    "opt-in: unprivileged sched_setscheduler(SMART): expected EPERM, got %s",
		    r ? strerror(-r) : "success");
		r = smart_set(0, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, -1, 100);
		CHK(r == -EPERM,
		    "opt-in: unprivileged smart_setattr from SCHED_OTHER: expected EPERM, got %s",
		    r ? strerror(-r) : "success");
		CHK(sched_getscheduler(0) == SCHED_OTHER, "refused entry left policy %d",
		    sched_getscheduler(0));
	} else {
		/* all mode: no class boundary to cross; same importance is allowed */
		r = sched_setscheduler(0, SCHED_SMART, &sp) ? -errno : 0;
		CHK(r == 0,
		    "all mode: unprivileged sched_setscheduler(SMART) at nice 0: expected success, got %s",
		    strerror(-r));
		CHK(sched_getscheduler(0) == SCHED_SMART, "policy %d after entry",
		    sched_getscheduler(0));
		r = smart_get(0, &a);
		CHK(r == 0 && a.priority == 0 && a.share == 1024,
		    "after entry: expected prio 0 share 1024, got " ATTR_FMT, ATTR_ARG(a));
	}
	return fails;
}

TEST(unpriv_enter)
{
	int mode;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	mode = smart_mode();
	TH_LOG("mode %s", smart_mode_name());
	ASSERT_CHILD_OK(run_child(unpriv_enter_child, &mode));
}

/* ------------------------------------------------------------------ */
/* The selftests' own hogs                                             */

struct dropped {
	pid_t hog;
	int ok;		/* 1 once the hog runs as nobody */
};

static void dropping_body(void *arg)
{
	struct dropped *d = arg;

	if (drop_to_nobody())
		_exit(5);
	__atomic_store_n(&d->ok, 1, __ATOMIC_RELEASE);
	for (;;)
		pause();
}

/* spawns the hog, waits until it dropped, and dies without killing it */
static int dropping_parent(void *arg)
{
	struct dropped *d = arg;
	struct hog_set h;
	int i;

	hogs_init(&h);
	d->hog = hog_spawn(&h, 0, dropping_body, d);
	if (d->hog < 0)
		return 1;
	hogs_go(&h);
	for (i = 0; i < 2000 && !__atomic_load_n(&d->ok, __ATOMIC_ACQUIRE); i++)
		sleep_ns(NSEC_PER_MSEC);
	return 0;
}

/*
 * A hog that drops to nobody (the kernel clears the parent-death signal on
 * the change of credentials) still dies with the process that spawned it:
 * a fixture whose ASSERT fails leaves no such hog behind (one that kept a
 * pipe of the test runner open stalled a whole run).
 */
TEST(dropped_hog_dies_with_parent)
{
	struct dropped *d = shared_alloc(sizeof(*d));
	bool gone;

	REQUIRE_ROOT();
	ASSERT_NE(NULL, d);
	ASSERT_EQ(0, run_child(dropping_parent, d));
	ASSERT_EQ(1, d->ok);
	gone = pid_exits_within(d->hog, 2000);
	if (!gone)
		kill(d->hog, SIGKILL);
	EXPECT_TRUE(gone) {
		TH_LOG("hog %d, as nobody, outlived its parent by 2 s", d->hog);
	}
}

TEST_HARNESS_MAIN
