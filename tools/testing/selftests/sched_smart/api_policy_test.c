// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART user API: policy entry with sched_setscheduler() and
 * sched_setattr() (sched_priority must be 0), the mode sysctl, and the
 * share that follows nice (entering SCHED_SMART, renicing in it, and an
 * explicit share scaled by the next nice change).
 *
 * Every test SKIPs when the kernel has no SCHED_SMART.
 */
#include "../kselftest_harness.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* Policy                                                              */

TEST(mode_sysctl)
{
	int mode;

	REQUIRE_SMART();
	mode = smart_mode();
	TH_LOG("mode: %s (sched_smart_all=%d)", smart_mode_name(), mode);
	ASSERT_TRUE(mode == 0 || mode == 1) {
		TH_LOG("%s: expected 0 or 1, read %d", SMART_SYSCTL_MODE, mode);
	}
	/* in both modes a plain task keeps its policy number */
	ASSERT_EQ(SCHED_OTHER, sched_getscheduler(0));
}

TEST(policy_setscheduler)
{
	struct sched_param sp = { .sched_priority = 1 };
	struct smart_attr a;

	REQUIRE_SMART();
	REQUIRE_ROOT();

	/* sched_priority must be 0 */
	ASSERT_EQ(-1, sched_setscheduler(0, SCHED_SMART, &sp));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(SCHED_OTHER, sched_getscheduler(0)) {
		TH_LOG("rejected sched_setscheduler changed the policy");
	}

	sp.sched_priority = 0;
	ASSERT_EQ(0, sched_setscheduler(0, SCHED_SMART, &sp)) {
		TH_LOG("sched_setscheduler(SCHED_SMART): %s", strerror(errno));
	}
	ASSERT_EQ(SCHED_SMART, sched_getscheduler(0));
	ASSERT_EQ(0, smart_get(0, &a));
	EXPECT_EQ(SMART_PRIO_DEFAULT, a.priority);
	EXPECT_EQ(1024u, a.share) {
		TH_LOG("nice 0 task entering SMART: expected share 1024, got %u", a.share);
	}

	sp.sched_priority = 1;
	ASSERT_EQ(-1, sched_setscheduler(0, SCHED_SMART, &sp));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(SCHED_SMART, sched_getscheduler(0));

	/* and back out */
	sp.sched_priority = 0;
	ASSERT_EQ(0, sched_setscheduler(0, SCHED_OTHER, &sp));
	ASSERT_EQ(SCHED_OTHER, sched_getscheduler(0));
}

TEST(policy_sched_setattr)
{
	struct sched_attr sa = {
		.size = sizeof(sa), .sched_policy = SCHED_SMART,
		.sched_priority = 1,
	};

	REQUIRE_SMART();
	REQUIRE_ROOT();

	ASSERT_EQ(-1, sys_sched_setattr(0, &sa, 0));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(SCHED_OTHER, sched_getscheduler(0));

	sa.sched_priority = 0;
	ASSERT_EQ(0, sys_sched_setattr(0, &sa, 0)) {
		TH_LOG("sched_setattr(SCHED_SMART): %s", strerror(errno));
	}
	ASSERT_EQ(SCHED_SMART, sched_getscheduler(0));

	memset(&sa, 0, sizeof(sa));
	ASSERT_EQ(0, syscall(__NR_sched_getattr, 0, &sa, sizeof(sa), 0));
	ASSERT_EQ((__u32)SCHED_SMART, sa.sched_policy);
}

/* ------------------------------------------------------------------ */
/* nice <-> share                                                      */

FIXTURE(nice_share) {};
FIXTURE_VARIANT(nice_share) {
	int nice_enter;		/* nice when entering SCHED_SMART */
	int nice_after;		/* nice set while in SCHED_SMART */
	bool via_setattr;	/* enter with smart_setattr(PRIORITY) */
};

FIXTURE_SETUP(nice_share) {}
FIXTURE_TEARDOWN(nice_share) {}

FIXTURE_VARIANT_ADD(nice_share, n0_to_5)    { .nice_enter = 0,   .nice_after = 5 };
FIXTURE_VARIANT_ADD(nice_share, n5_to_m5)   { .nice_enter = 5,   .nice_after = -5 };
FIXTURE_VARIANT_ADD(nice_share, nm5_to_0)   { .nice_enter = -5,  .nice_after = 0 };
FIXTURE_VARIANT_ADD(nice_share, n19_to_m20) { .nice_enter = 19,  .nice_after = -20 };
FIXTURE_VARIANT_ADD(nice_share, nm20_to_19) { .nice_enter = -20, .nice_after = 19 };
FIXTURE_VARIANT_ADD(nice_share, setattr_n5_to_1) {
	.nice_enter = 5, .nice_after = 1, .via_setattr = true };

TEST_F(nice_share, share_follows_nice)
{
	struct sched_param sp = { 0 };
	struct smart_attr a;
	unsigned int w_enter = nice_to_weight(variant->nice_enter);
	unsigned int w_after = nice_to_weight(variant->nice_after);

	REQUIRE_SMART();
	REQUIRE_ROOT();

	ASSERT_EQ(0, setpriority(PRIO_PROCESS, 0, variant->nice_enter));
	if (variant->via_setattr) {
		ASSERT_EQ(0, smart_set(0, SMART_ATTR_PRIORITY, 0, 0));
	} else {
		ASSERT_EQ(0, sched_setscheduler(0, SCHED_SMART, &sp));
	}
	ASSERT_EQ(SCHED_SMART, sched_getscheduler(0));

	ASSERT_EQ(0, smart_get(0, &a));
	EXPECT_EQ(w_enter, a.share) {
		TH_LOG("entered at nice %d: expected share %u, got %u",
		       variant->nice_enter, w_enter, a.share);
	}
	EXPECT_EQ(0, a.priority);

	ASSERT_EQ(0, setpriority(PRIO_PROCESS, 0, variant->nice_after));
	ASSERT_EQ(0, smart_get(0, &a));
	EXPECT_EQ(w_after, a.share) {
		TH_LOG("nice %d -> %d in SMART: expected share %u, got %u",
		       variant->nice_enter, variant->nice_after, w_after, a.share);
	}
	EXPECT_EQ(0, a.priority);
	EXPECT_EQ(SCHED_SMART, sched_getscheduler(0));

	/*
	 * An explicit share is scaled by the next nice change, by the ratio
	 * of the weights (rounded down): a share an administrator lowered
	 * stays lowered relative to the nice value.
	 */
	ASSERT_EQ(0, smart_set(0, SMART_ATTR_SHARE, 0, 500));
	ASSERT_EQ(0, smart_get(0, &a));
	EXPECT_EQ(500u, a.share);
	ASSERT_EQ(0, setpriority(PRIO_PROCESS, 0, variant->nice_enter));
	ASSERT_EQ(0, smart_get(0, &a));
	unsigned long long want = 500ULL * w_enter / w_after;

	if (want < SMART_SHARE_MIN)
		want = SMART_SHARE_MIN;
	if (want > SMART_SHARE_MAX)
		want = SMART_SHARE_MAX;
	EXPECT_EQ(want, a.share) {
		TH_LOG("share 500 then nice %d -> %d: expected share 500 * %u / %u = %llu, got %u",
		       variant->nice_after, variant->nice_enter, w_enter, w_after,
		       want, a.share);
	}
}

TEST_HARNESS_MAIN
