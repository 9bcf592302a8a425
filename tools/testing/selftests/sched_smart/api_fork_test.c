// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART user API: fork inheritance.  A child inherits the policy,
 * priority and share of its parent, or the defaults with
 * SMART_FLAG_RESET_ON_FORK; clearing the flag restores inheritance.  It
 * inherits its parent's debt (a lag ahead of its share) up to what a
 * sleep keeps, bias_max_ns / 2, never more (fork_debt_bounded).
 *
 * Every test SKIPs when the kernel has no SCHED_SMART.
 */
#include "../kselftest_harness.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* fork                                                                */

struct fork_expect { int prio; unsigned int share; };

static int fork_child(void *arg)
{
	struct fork_expect *e = arg;
	struct smart_attr a;
	int fails = 0, r, pol;

	pol = sched_getscheduler(0);
	CHK((pol & ~SCHED_RESET_ON_FORK) == SCHED_SMART,
	    "child policy %d, expected SCHED_SMART", pol);
	r = smart_get(0, &a);
	CHK(r == 0, "child getattr: %s", strerror(-r));
	CHK(a.priority == e->prio && a.share == e->share,
	    "child: expected prio %d share %u, got " ATTR_FMT, e->prio, e->share, ATTR_ARG(a));
	return fails;
}

TEST(fork_inherits)
{
	struct fork_expect e = { .prio = 5, .share = 3000 };
	struct smart_attr before, after;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_EQ(0, smart_set(0, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, 5, 3000));
	ASSERT_EQ(0, smart_get(0, &before));
	ASSERT_CHILD_OK(run_child(fork_child, &e));
	ASSERT_EQ(0, smart_get(0, &after));
	EXPECT_TRUE(smart_attr_same(&before, &after));
}

TEST(fork_reset_on_fork)
{
	struct fork_expect e = { .prio = SMART_PRIO_DEFAULT, .share = SMART_SHARE_DEFAULT };
	struct smart_attr a = {
		.size = sizeof(a),
		.mask = SMART_ATTR_PRIORITY | SMART_ATTR_SHARE | SMART_ATTR_FLAGS,
		.priority = 5, .share = 3000, .flags = SMART_FLAG_RESET_ON_FORK,
	}, before, after;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_EQ(0, smart_setattr(0, &a, 0));
	ASSERT_EQ(0, smart_get(0, &before));
	ASSERT_EQ((__u32)SMART_FLAG_RESET_ON_FORK, before.flags);
	ASSERT_CHILD_OK(run_child(fork_child, &e));
	ASSERT_EQ(0, smart_get(0, &after));
	EXPECT_TRUE(smart_attr_same(&before, &after)) {
		TH_LOG("parent changed by fork: " ATTR_FMT " -> " ATTR_FMT,
		       ATTR_ARG(before), ATTR_ARG(after));
	}

	/* clearing the flag restores inheritance */
	a.mask = SMART_ATTR_FLAGS;
	a.flags = 0;
	ASSERT_EQ(0, smart_setattr(0, &a, 0));
	e.prio = 5;
	e.share = 3000;
	ASSERT_CHILD_OK(run_child(fork_child, &e));
}

/* ------------------------------------------------------------------ */
/* debt                                                                */

/* a task that sleeps 20 ms and runs 0.2 ms: it sleeps with the credit */
static void credited_sleeper(void *arg)
{
	for (;;) {
		sleep_ns(20 * MS);
		spin_cpu_ns(200 * US);
	}
}

/*
 * The child starts bias_max_ns / 2 ahead of V_P and runs on from there
 * until it asks (fork's return, copy-on-write faults): that CPU time adds
 * to its debt, at most one for one.
 */
static int debt_child(void *arg)
{
	long long kept = *(long long *)arg, ran;
	struct smart_attr a;
	int fails = 0, r;

	r = smart_get(0, &a);
	ran = thread_cpu_ns();
	CHK(r == 0, "child getattr: %s", strerror(-r));
	CHK(a.lag_ns >= -(kept + ran + MS),
	    "child lag %.1f ms after %.1f ms of CPU: more debt than the %.1f ms a short sleep keeps",
	    smart_ms(a.lag_ns), smart_ms(ran), smart_ms(kept));
	/* and it does inherit the debt: a fork does not wipe it out */
	CHK(a.lag_ns <= -kept / 2, "child lag %.1f ms: the debt of %.1f ms was not inherited",
	    smart_ms(a.lag_ns), smart_ms(kept));
	return fails;
}

/*
 * A parent that runs alone beside two sleepers that keep their shares on
 * the queue runs ahead of V_P (their shares hold V_P back) by as much as
 * they fall behind it, up to sleep_credit_ns each (smart_bound_credit()):
 * about 200 ms.  Its child starts with bias_max_ns / 2 of that debt, no
 * more: beyond it a task pays its debt back when it wakes from a short
 * sleep, and a hackbench whose 160 children each inherited a shell's
 * whole debt repaid it at every wake-up, with twice the switches.
 */
TEST(fork_debt_bounded)
{
	long long kept = smart_tunable("bias_max_ns", 100 * MS) / 2;
	int cpu = online_cpus() - 1;
	struct smart_attr a;
	struct hog_set h;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_EQ(0, smart_set(0, SMART_ATTR_PRIORITY, SMART_PRIO_DEFAULT, 0));
	ASSERT_EQ(0, pin_to(0, cpu));
	hogs_init(&h);
	ASSERT_LT(0, hog_spawn(&h, 1UL << cpu, credited_sleeper, NULL));
	ASSERT_LT(0, hog_spawn(&h, 1UL << cpu, credited_sleeper, NULL));
	hogs_go(&h);
	sleep_ns(50 * MS);
	spin_cpu_ns(600 * MS);
	ASSERT_EQ(0, smart_get(0, &a));
	TH_LOG("parent lag %.1f ms, a short sleep keeps %.1f ms", smart_ms(a.lag_ns),
	       smart_ms(kept));
	/* the setup: the parent is further ahead than a sleep keeps */
	ASSERT_LT(a.lag_ns, -(kept + 20 * MS));
	ASSERT_CHILD_OK(run_child(debt_child, &kept));
	hogs_kill(&h);
}

TEST_HARNESS_MAIN
