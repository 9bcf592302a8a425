// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART user API: fork inheritance.  A child inherits the policy,
 * priority and share of its parent, or the defaults with
 * SMART_FLAG_RESET_ON_FORK; clearing the flag restores inheritance.
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

TEST_HARNESS_MAIN
