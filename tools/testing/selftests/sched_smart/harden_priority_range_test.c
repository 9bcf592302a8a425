// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART priority range: sched_get_priority_min/max(SCHED_SMART)
 * are 0.
 *
 * Every test SKIPs when the kernel has no SCHED_SMART.
 */
#include "../kselftest_harness.h"
#include "util.h"

TEST(priority_min_max)
{
	int lo, hi, elo, ehi;

	REQUIRE_SMART();
	errno = 0;
	lo = sched_get_priority_min(SCHED_SMART);
	elo = errno;
	errno = 0;
	hi = sched_get_priority_max(SCHED_SMART);
	ehi = errno;
	EXPECT_EQ(0, lo) {
		TH_LOG("sched_get_priority_min(SCHED_SMART): expected 0, got %d (%s)", lo,
		       lo < 0 ? strerror(elo) : "no error");
	}
	EXPECT_EQ(0, hi) {
		TH_LOG("sched_get_priority_max(SCHED_SMART): expected 0, got %d (%s)", hi,
		       hi < 0 ? strerror(ehi) : "no error");
	}
}

TEST_HARNESS_MAIN
