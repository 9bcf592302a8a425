// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART reset-on-fork (SMART's flag and sched_setattr's) never
 * raises and clears the notify signal; an unprivileged caller cannot
 * clear the SMART flag.
 *
 * Every test SKIPs when the kernel has no SCHED_SMART.
 */
#include "../kselftest_harness.h"
#include "util.h"
#include "harden.h"

/* smart_setattr() with every field; 0 or -errno */
static int smart_set_all(pid_t pid, unsigned int mask, int prio,
			 unsigned int share, int sig, unsigned int flags)
{
	struct smart_attr a = {
		.size = sizeof(a), .mask = mask, .priority = prio,
		.share = share, .notify_signal = sig, .flags = flags,
	};

	return smart_setattr(pid, &a, 0) ? -errno : 0;
}

FIXTURE(reset_fork) {};
FIXTURE_VARIANT(reset_fork) {
	bool sched_flag;	/* sched_setattr(SCHED_FLAG_RESET_ON_FORK), else SMART's */
	int prio;
	unsigned int share;
	int want_prio;
	unsigned int want_share;
};

FIXTURE_SETUP(reset_fork)
{
	REQUIRE_SMART();
	REQUIRE_ROOT();
}

FIXTURE_TEARDOWN(reset_fork) {}

FIXTURE_VARIANT_ADD(reset_fork, sched_flag_raised) {
	.sched_flag = true, .prio = 5, .share = 4096, .want_prio = 0, .want_share = 1024 };
FIXTURE_VARIANT_ADD(reset_fork, sched_flag_lowered) {
	.sched_flag = true, .prio = -3, .share = 100, .want_prio = -3, .want_share = 100 };
FIXTURE_VARIANT_ADD(reset_fork, sched_flag_mixed) {
	.sched_flag = true, .prio = -3, .share = 4096, .want_prio = -3, .want_share = 1024 };
FIXTURE_VARIANT_ADD(reset_fork, smart_flag_lowered) {
	.prio = -3, .share = 100, .want_prio = -3, .want_share = 100 };
FIXTURE_VARIANT_ADD(reset_fork, smart_flag_mixed) {
	.prio = 5, .share = 100, .want_prio = 0, .want_share = 100 };

static int reset_fork_child(void *arg)
{
	const FIXTURE_VARIANT(reset_fork) * v = arg;
	struct smart_attr a;
	int fails = 0, r;

	r = smart_get(0, &a);
	CHK(r == 0, "child getattr: %s", strerror(-r));
	CHK(a.priority == v->want_prio && a.share == v->want_share,
	    "child of a parent at prio %d share %u (%s reset): expected prio %d share %u, got "
	    ATTR_FMT, v->prio, v->share, v->sched_flag ? "SCHED_FLAG_RESET_ON_FORK" :
	    "SMART_FLAG_RESET_ON_FORK", v->want_prio, v->want_share, ATTR_ARG(a));
	CHK(a.notify_signal == 0 || a.notify_signal == SIGXCPU,
	    "child: expected notify_signal reset to 0 (SIGXCPU), got %d", a.notify_signal);
	CHK(a.flags == 0, "child: expected SMART flags 0, got %#x", a.flags);
	printf("# child policy %d " ATTR_FMT "\n", sched_getscheduler(0), ATTR_ARG(a));
	return fails;
}

TEST_F(reset_fork, never_raises)
{
	struct sched_attr sa = {
		.size = sizeof(sa), .sched_policy = SCHED_SMART,
		.sched_flags = SCHED_FLAG_RESET_ON_FORK,
	};
	struct smart_attr before, after;
	int r;

	r = smart_set_all(0, SMART_ATTR_ALL, variant->prio, variant->share, SIGUSR1,
			  variant->sched_flag ? 0 : SMART_FLAG_RESET_ON_FORK);
	ASSERT_EQ(0, r) {
		TH_LOG("setup smart_setattr: %s", strerror(-r));
	}
	if (variant->sched_flag) {
		ASSERT_EQ(0, sys_sched_setattr(0, &sa, 0)) {
			TH_LOG("sched_setattr(SCHED_SMART, SCHED_FLAG_RESET_ON_FORK): %s",
			       strerror(errno));
		}
		ASSERT_EQ(SCHED_SMART | SCHED_RESET_ON_FORK, sched_getscheduler(0));
		ASSERT_EQ(0, smart_get(0, &before));
		if (before.priority != variant->prio || before.share != variant->share) {
			/* not what this test is about: note it, set them again */
			TH_LOG("note: sched_setattr(SCHED_SMART, nice 0) on a SMART task at nice 0 "
			       "changed prio %d share %u to prio %d share %u", variant->prio,
			       variant->share, before.priority, before.share);
			r = smart_set(0, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, variant->prio,
				      variant->share);
			ASSERT_EQ(0, r);
		}
	}
	ASSERT_EQ(0, smart_get(0, &before));
	ASSERT_TRUE(before.priority == variant->prio && before.share == variant->share) {
		TH_LOG("parent after setup: expected prio %d share %u, got " ATTR_FMT,
		       variant->prio, variant->share, ATTR_ARG(before));
	}
	ASSERT_CHILD_OK(run_child(reset_fork_child, (void *)variant));
	ASSERT_EQ(0, smart_get(0, &after));
	EXPECT_TRUE(smart_attr_same(&before, &after)) {
		TH_LOG("parent changed by fork: " ATTR_FMT " -> " ATTR_FMT,
		       ATTR_ARG(before), ATTR_ARG(after));
	}
}

/* An unprivileged caller cannot clear the flag root set. */
static int clear_flag_child(void *arg, int rd, int wr)
{
	struct smart_attr a, b;
	int fails = 0, r;

	(void)arg;
	r = drop_to_nobody();
	CHK(r == 0, "drop to uid %d: %s", NOBODY_ID, strerror(-r));
	if (!harden_put_byte(wr) || !harden_get_byte(rd))
		return fails + 1;
	if (fails)
		return fails;
	r = smart_get(0, &b);
	CHK(r == 0 && b.flags == SMART_FLAG_RESET_ON_FORK,
	    "root set SMART_FLAG_RESET_ON_FORK on this thread, but getattr says %s flags %#x",
	    r ? strerror(-r) : "ok", b.flags);

	r = smart_set_all(0, SMART_ATTR_FLAGS, 0, 0, 0, 0);
	CHK(r == -EPERM, "uid %d clearing SMART_FLAG_RESET_ON_FORK: expected EPERM, got %s",
	    NOBODY_ID, r ? strerror(-r) : "success");
	smart_get(0, &a);
	CHK(a.flags == SMART_FLAG_RESET_ON_FORK, "after the refused clear: flags %#x, expected %#x",
	    a.flags, SMART_FLAG_RESET_ON_FORK);
	CHK(smart_attr_same(&a, &b), "refused clear changed " ATTR_FMT " -> " ATTR_FMT,
	    ATTR_ARG(b), ATTR_ARG(a));

	/* setting it stays allowed */
	r = smart_set_all(0, SMART_ATTR_FLAGS, 0, 0, 0, SMART_FLAG_RESET_ON_FORK);
	CHK(r == 0, "uid %d setting SMART_FLAG_RESET_ON_FORK: expected success, got %s",
	    NOBODY_ID, strerror(-r));
	return fails;
}

TEST(fork_unpriv_cannot_clear_reset_flag)
{
	struct harden_peer pe;
	int r;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_EQ(0, harden_peer_start(&pe, clear_flag_child, NULL));
	ASSERT_TRUE(harden_get_byte(pe.rd));
	r = smart_set_all(pe.pid, SMART_ATTR_FLAGS, 0, 0, 0, SMART_FLAG_RESET_ON_FORK);
	EXPECT_EQ(0, r) {
		TH_LOG("root: smart_setattr(pid %d, RESET_ON_FORK): %s", pe.pid, strerror(-r));
	}
	harden_put_byte(pe.wr);
	ASSERT_CHILD_OK(harden_peer_wait(&pe));
}

TEST_HARNESS_MAIN
