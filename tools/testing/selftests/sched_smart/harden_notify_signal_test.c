// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART notification signals: SIGKILL and SIGSTOP are refused
 * (EINVAL) and leave the notify signal as it was.
 *
 * Every test SKIPs when the kernel has no SCHED_SMART.
 */
#include "../kselftest_harness.h"
#include "util.h"

/* SIGKILL and SIGSTOP are not notification signals. */
TEST(notify_signal_kill_stop)
{
	static const int sigs[] = { SIGKILL, SIGSTOP };
	struct smart_attr before, after;
	unsigned int i;
	int r;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_EQ(0, smart_set_signal(SIGUSR1));
	for (i = 0; i < ARRAY_SIZE(sigs); i++) {
		ASSERT_EQ(0, smart_get(0, &before));
		r = smart_set_signal(sigs[i]);
		ASSERT_EQ(0, smart_get(0, &after));
		EXPECT_EQ(-EINVAL, r) {
			TH_LOG("notify_signal %s: expected EINVAL, got %s", strsignal(sigs[i]),
			       r ? strerror(-r) : "success");
		}
		EXPECT_EQ(SIGUSR1, after.notify_signal) {
			TH_LOG("notify_signal after the refused %s: expected %d, got %d",
			       strsignal(sigs[i]), SIGUSR1, after.notify_signal);
		}
		if (!r)
			smart_set_signal(SIGUSR1);
	}
}

TEST_HARNESS_MAIN
