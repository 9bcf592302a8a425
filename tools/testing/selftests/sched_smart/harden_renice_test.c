// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART and nice: a nice change scales the share relatively and
 * starts a fresh quantum (bias 0).
 *
 * Every test SKIPs when the kernel has no SCHED_SMART.
 */
#include "../kselftest_harness.h"
#include "util.h"
#include "harden.h"

static int renice_child(void *arg, int rd, int wr)
{
	unsigned int low = 100 * nice_to_weight(5) / nice_to_weight(0);
	struct smart_attr a;
	int fails = 0, r;

	(void)arg;
	r = drop_to_nobody();
	CHK(r == 0, "drop to uid %d: %s", NOBODY_ID, strerror(-r));
	if (!harden_put_byte(wr) || !harden_get_byte(rd))
		return fails + 1;
	if (fails)
		return fails;
	r = smart_get(0, &a);
	CHK(r == 0 && a.share == 100, "root set share 100: getattr %s share %u",
	    r ? strerror(-r) : "ok", a.share);

	r = setpriority(PRIO_PROCESS, 0, 0) ? -errno : 0;
	CHK(r == 0, "renice 0 by the owner: %s", strerror(-r));
	smart_get(0, &a);
	CHK(a.share == 100, "renice 0 by the owner (uid %d): expected share 100, got %u",
	    NOBODY_ID, a.share);

	r = setpriority(PRIO_PROCESS, 0, 5) ? -errno : 0;
	CHK(r == 0, "renice +5 by the owner: %s", strerror(-r));
	smart_get(0, &a);
	CHK(a.share >= low && a.share <= low + 1,
	    "nice 0 -> 5 with share 100: expected share 100 * %u / %u = %u, got %u",
	    nice_to_weight(5), nice_to_weight(0), low, a.share);

	/* setpriority(2) says EACCES for a nice it may not lower */
	r = setpriority(PRIO_PROCESS, 0, 0) ? -errno : 0;
	CHK(r == -EACCES, "renice 5 -> 0 unprivileged: expected EACCES, got %s",
	    r ? strerror(-r) : "success");
	smart_get(0, &a);
	CHK(a.share >= low && a.share <= low + 1, "after the refused renice: share %u, expected %u",
	    a.share, low);
	return fails;
}

TEST(renice_share_relative)
{
	struct harden_peer pe;
	int r;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_EQ(0, harden_peer_start(&pe, renice_child, NULL));
	ASSERT_TRUE(harden_get_byte(pe.rd));
	r = smart_set(pe.pid, SMART_ATTR_SHARE, 0, 100);
	EXPECT_EQ(0, r) {
		TH_LOG("root: smart_setattr(pid %d, share 100): %s", pe.pid, strerror(-r));
	}
	harden_put_byte(pe.wr);
	ASSERT_CHILD_OK(harden_peer_wait(&pe));
}

/* A nice change follows eq. (7): fresh quantum, bias 0. */
TEST(renice_resets_bias)
{
	long long q = smart_tunable("quantum_ns", DEF_QUANTUM_NS), t0, t1;
	struct smart_attr b, a;
	struct hog_set h;
	pid_t hog;
	int try, r;

	hogs_init(&h);
	REQUIRE_SMART();
	REQUIRE_ROOT();
	controller_setup(controller_cpu());
	hog = hog_spawn(&h, 1UL << 0, hog_spin_forever, NULL);
	ASSERT_GT(hog, 0);
	r = smart_set(hog, SMART_ATTR_PRIORITY, 0, 0);
	ASSERT_EQ(0, r) {
		TH_LOG("hog %d into SCHED_SMART: %s", hog, strerror(-r));
		hogs_kill(&h);
	}
	hogs_go(&h);
	sleep_ns(300 * MS);

	for (try = 1; try <= 3; try++) {
		r = smart_get(hog, &b);
		ASSERT_TRUE(r == 0 && b.bias_ns > 0) {
			TH_LOG("setup: a hog alone on CPU 0 for 300 ms should have bias > 0: %s, bias %llu",
			       r ? strerror(-r) : "ok", (unsigned long long)b.bias_ns);
			hogs_kill(&h);
		}
		t0 = mono_ns();
		r = setpriority(PRIO_PROCESS, hog, try) ? -errno : 0;
		smart_get(hog, &a);
		t1 = mono_ns();
		ASSERT_EQ(0, r) {
			TH_LOG("renice hog to %d: %s", try, strerror(-r));
			hogs_kill(&h);
		}
		TH_LOG("nice %d -> %d: bias %.1f -> %.1f ms, share %u -> %u (%.3f ms between)",
		       try - 1, try, smart_ms(b.bias_ns), smart_ms(a.bias_ns), b.share, a.share,
		       smart_ms(t1 - t0));
		/* it may have completed another quantum if this took that long */
		if (!a.bias_ns || t1 - t0 < q)
			break;
		sleep_ns(100 * MS);
	}
	hogs_kill(&h);
	EXPECT_EQ(0ull, a.bias_ns) {
		TH_LOG("right after a nice change the bias must be 0 (eq. 7), got %.1f ms (was %.1f ms)",
		       smart_ms(a.bias_ns), smart_ms(b.bias_ns));
	}
}

TEST_HARNESS_MAIN
