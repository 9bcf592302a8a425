// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART user API: smart_setattr() argument handling (every row of the
 * error tables in sched-smart.rst §4).  Rejected arguments fail with
 * EINVAL/E2BIG and change nothing; the boundary values are accepted and
 * set exactly the fields in the mask, on the caller in SCHED_SMART and on
 * another thread in SCHED_OTHER.
 *
 * Every test SKIPs when the kernel has no SCHED_SMART.
 */
#include "../kselftest_harness.h"
#include "util.h"
#include "api.h"

/* ------------------------------------------------------------------ */
/* smart_setattr: rejected arguments (EINVAL / E2BIG, nothing changed) */

/* the state the "self" target is put in before each row */
#define SETUP_PRIO	(-3)
#define SETUP_SHARE	500
#define SETUP_SIG	SIGUSR1

FIXTURE(setattr_bad) {
	pid_t fair_child;
};

FIXTURE_VARIANT(setattr_bad) {
	unsigned int size;	/* 0: sizeof(struct smart_attr) */
	bool tail;		/* poke a non-zero byte at offset size - 1 */
	bool zero_size;		/* pass size 0 (size field = 0) */
	unsigned int mask;
	int priority;
	unsigned int share;
	int sig;
	unsigned int aflags;
	unsigned int sysflags;
	int expect;		/* errno */
};

/*
 * Both setattr tables start alike: a blocked SCHED_OTHER child (forked
 * first: children of a SMART task are SMART), and the caller in SMART
 * with known values.
 */
static void setattr_targets(struct __test_metadata *_metadata, pid_t *fair_child)
{
	struct smart_attr a = {
		.size = sizeof(a),
		.mask = SMART_ATTR_PRIORITY | SMART_ATTR_SHARE | SMART_ATTR_SIGNAL,
		.priority = SETUP_PRIO, .share = SETUP_SHARE, .notify_signal = SETUP_SIG,
	};

	*fair_child = api_spawn_blocked(0);
	ASSERT_GT(*fair_child, 0);
	ASSERT_EQ(SCHED_OTHER, sched_getscheduler(*fair_child));
	ASSERT_EQ(0, smart_setattr(0, &a, 0)) {
		TH_LOG("setup smart_setattr: %s", strerror(errno));
	}
}

FIXTURE_SETUP(setattr_bad)
{
	self->fair_child = -1;
	REQUIRE_SMART();
	REQUIRE_ROOT();
	setattr_targets(_metadata, &self->fair_child);
}

FIXTURE_TEARDOWN(setattr_bad)
{
	api_reap(self->fair_child);
}

#define BAD(name, ...) FIXTURE_VARIANT_ADD(setattr_bad, name) { __VA_ARGS__ }

BAD(mask_unknown_bit,	.mask = SMART_ATTR_PRIORITY | 0x10, .priority = -5, .expect = EINVAL);
BAD(mask_high_bit,	.mask = 0x80000000u, .expect = EINVAL);
BAD(prio_above_max,	.mask = SMART_ATTR_PRIORITY, .priority = 17, .expect = EINVAL);
BAD(prio_below_min,	.mask = SMART_ATTR_PRIORITY, .priority = -17, .expect = EINVAL);
BAD(prio_int_min,	.mask = SMART_ATTR_PRIORITY, .priority = INT_MIN, .expect = EINVAL);
BAD(share_zero,		.mask = SMART_ATTR_SHARE, .share = 0, .expect = EINVAL);
BAD(share_above_max,	.mask = SMART_ATTR_SHARE, .share = 1048577, .expect = EINVAL);
BAD(share_u32_max,	.mask = SMART_ATTR_SHARE, .share = UINT_MAX, .expect = EINVAL);
BAD(signal_negative,	.mask = SMART_ATTR_SIGNAL, .sig = -1, .expect = EINVAL);
BAD(signal_above_rtmax,	.mask = SMART_ATTR_SIGNAL, .sig = KERNEL_SIGRTMAX + 1, .expect = EINVAL);
BAD(signal_int_max,	.mask = SMART_ATTR_SIGNAL, .sig = INT_MAX, .expect = EINVAL);
BAD(flag_unknown,	.mask = SMART_ATTR_FLAGS, .aflags = 0x4, .expect = EINVAL);
BAD(flag_high,		.mask = SMART_ATTR_FLAGS, .aflags = 0x80000000u, .expect = EINVAL);
BAD(flag_known_plus_unknown, .mask = SMART_ATTR_FLAGS,
	.aflags = SMART_FLAG_RESET_ON_FORK | 0x8, .expect = EINVAL);
BAD(syscall_flags,	.mask = SMART_ATTR_PRIORITY, .priority = -5, .sysflags = 1,
	.expect = EINVAL);
BAD(syscall_flags_high,	.mask = SMART_ATTR_PRIORITY, .priority = -5, .sysflags = 0x80000000u,
	.expect = EINVAL);
BAD(valid_prio_bad_share, .mask = SMART_ATTR_PRIORITY | SMART_ATTR_SHARE,
	.priority = -5, .share = 0, .expect = EINVAL);
BAD(valid_share_bad_sig, .mask = SMART_ATTR_SHARE | SMART_ATTR_SIGNAL,
	.share = 100, .sig = KERNEL_SIGRTMAX + 1, .expect = EINVAL);
BAD(valid_prio_bad_flag, .mask = SMART_ATTR_PRIORITY | SMART_ATTR_FLAGS,
	.priority = -5, .aflags = 0x4, .expect = EINVAL);
BAD(size_zero,		.zero_size = true, .mask = SMART_ATTR_PRIORITY, .priority = -5,
	.expect = EINVAL);
BAD(size_below_ver0,	.size = SMART_ATTR_SIZE_VER0 - 1, .mask = SMART_ATTR_PRIORITY,
	.priority = -5, .expect = EINVAL);
BAD(size_8,		.size = 8, .mask = SMART_ATTR_PRIORITY, .priority = -5, .expect = EINVAL);
BAD(size_big_dirty_tail, .size = 128, .tail = true, .mask = SMART_ATTR_PRIORITY,
	.priority = -5, .expect = E2BIG);
BAD(size_256_dirty_tail, .size = 256, .tail = true, .mask = SMART_ATTR_PRIORITY,
	.priority = -5, .expect = E2BIG);

static int bad_call(const FIXTURE_VARIANT(setattr_bad) * v, pid_t pid)
{
	unsigned char buf[512] __attribute__((aligned(8)));
	struct smart_attr *a = (void *)buf;

	memset(buf, 0, sizeof(buf));
	a->size = v->zero_size ? 0 : (v->size ? v->size : sizeof(*a));
	a->mask = v->mask;
	a->priority = v->priority;
	a->share = v->share;
	a->notify_signal = v->sig;
	a->flags = v->aflags;
	if (v->tail)
		buf[a->size - 1] = 0x5a;
	return smart_setattr(pid, a, v->sysflags) ? errno : 0;
}

TEST_F(setattr_bad, self_smart)
{
	struct smart_attr before, after;
	int err;

	ASSERT_EQ(0, smart_get(0, &before));
	err = bad_call(variant, 0);
	ASSERT_EQ(variant->expect, err) {
		TH_LOG("smart_setattr: expected %s, got %s",
		       strerror(variant->expect), err ? strerror(err) : "success");
	}
	ASSERT_EQ(0, smart_get(0, &after));
	EXPECT_TRUE(smart_attr_same(&before, &after)) {
		TH_LOG("rejected call changed attributes: " ATTR_FMT " -> " ATTR_FMT,
		       ATTR_ARG(before), ATTR_ARG(after));
	}
	EXPECT_EQ(SCHED_SMART, sched_getscheduler(0));
}

TEST_F(setattr_bad, other_fair)
{
	struct smart_attr before, after;
	pid_t pid = self->fair_child;
	int err;

	ASSERT_EQ(0, smart_get(pid, &before));
	err = bad_call(variant, pid);
	ASSERT_EQ(variant->expect, err) {
		TH_LOG("smart_setattr(pid %d): expected %s, got %s", pid,
		       strerror(variant->expect), err ? strerror(err) : "success");
	}
	ASSERT_EQ(0, smart_get(pid, &after));
	EXPECT_TRUE(smart_attr_same(&before, &after)) {
		TH_LOG("rejected call changed attributes: " ATTR_FMT " -> " ATTR_FMT,
		       ATTR_ARG(before), ATTR_ARG(after));
	}
	EXPECT_EQ(SCHED_OTHER, sched_getscheduler(pid)) {
		TH_LOG("rejected call moved the target out of SCHED_OTHER");
	}
}

/* ------------------------------------------------------------------ */
/* smart_setattr: accepted arguments                                   */

FIXTURE(setattr_ok) {
	pid_t fair_child;
};

FIXTURE_VARIANT(setattr_ok) {
	unsigned int size;	/* 0: sizeof */
	unsigned int mask;
	int priority;
	unsigned int share;
	int sig;
	unsigned int aflags;
};

FIXTURE_SETUP(setattr_ok)
{
	self->fair_child = -1;
	REQUIRE_SMART();
	REQUIRE_ROOT();
	setattr_targets(_metadata, &self->fair_child);
}

FIXTURE_TEARDOWN(setattr_ok)
{
	api_reap(self->fair_child);
}

#define OK(name, ...) FIXTURE_VARIANT_ADD(setattr_ok, name) { __VA_ARGS__ }

OK(prio_max,		.mask = SMART_ATTR_PRIORITY, .priority = SMART_PRIO_MAX);
OK(prio_min,		.mask = SMART_ATTR_PRIORITY, .priority = SMART_PRIO_MIN);
OK(share_min,		.mask = SMART_ATTR_SHARE, .share = SMART_SHARE_MIN);
OK(share_max,		.mask = SMART_ATTR_SHARE, .share = SMART_SHARE_MAX);
OK(signal_rtmax,	.mask = SMART_ATTR_SIGNAL, .sig = KERNEL_SIGRTMAX);
OK(signal_usr2,		.mask = SMART_ATTR_SIGNAL, .sig = SIGUSR2);
OK(signal_default,	.mask = SMART_ATTR_SIGNAL, .sig = 0);
OK(flag_reset_on_fork,	.mask = SMART_ATTR_FLAGS, .aflags = SMART_FLAG_RESET_ON_FORK);
OK(all_fields,		.mask = SMART_ATTR_ALL, .priority = 4, .share = 2000,
	.sig = SIGUSR2, .aflags = SMART_FLAG_RESET_ON_FORK);
OK(size_ver0,		.size = SMART_ATTR_SIZE_VER0, .mask = SMART_ATTR_PRIORITY, .priority = 6);
OK(size_128_zero_tail,	.size = 128, .mask = SMART_ATTR_PRIORITY, .priority = 7);
OK(size_256_zero_tail,	.size = 256, .mask = SMART_ATTR_SHARE, .share = 777);

static void ok_check(struct __test_metadata *_metadata,
		     const FIXTURE_VARIANT(setattr_ok) * v, pid_t pid)
{
	unsigned char buf[512] __attribute__((aligned(8)));
	struct smart_attr *a = (void *)buf, before, after, want;

	ASSERT_EQ(0, smart_get(pid, &before));
	memset(buf, 0, sizeof(buf));
	a->size = v->size ? v->size : sizeof(*a);
	a->mask = v->mask;
	a->priority = v->priority;
	a->share = v->share;
	a->notify_signal = v->sig;
	a->flags = v->aflags;
	ASSERT_EQ(0, smart_setattr(pid, a, 0)) {
		TH_LOG("smart_setattr(pid %d, " ATTR_FMT
		       " mask %#x size %u): expected success, got %s",
		       pid, ATTR_ARG(*a), a->mask, a->size, strerror(errno));
	}
	ASSERT_EQ(0, smart_get(pid, &after));

	want = before;
	if (v->mask & SMART_ATTR_PRIORITY)
		want.priority = v->priority;
	if (v->mask & SMART_ATTR_SHARE)
		want.share = v->share;
	if (v->mask & SMART_ATTR_SIGNAL)
		want.notify_signal = v->sig;
	if (v->mask & SMART_ATTR_FLAGS)
		want.flags = v->aflags;
	/* signal 0 means SIGXCPU; the kernel may report either */
	if ((v->mask & SMART_ATTR_SIGNAL) && v->sig == 0 && after.notify_signal == SIGXCPU)
		want.notify_signal = SIGXCPU;
	EXPECT_TRUE(smart_attr_same(&want, &after)) {
		TH_LOG("expected " ATTR_FMT ", got " ATTR_FMT " (before " ATTR_FMT ")",
		       ATTR_ARG(want), ATTR_ARG(after), ATTR_ARG(before));
	}
	EXPECT_EQ(SCHED_SMART, sched_getscheduler(pid) & ~SCHED_RESET_ON_FORK);
}

TEST_F(setattr_ok, self_smart)
{
	ok_check(_metadata, variant, 0);
}

TEST_F(setattr_ok, other_fair)
{
	ok_check(_metadata, variant, self->fair_child);
}

TEST_HARNESS_MAIN
