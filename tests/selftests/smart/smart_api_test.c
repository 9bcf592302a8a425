// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART user API: policy entry, nice <-> share, smart_setattr() and
 * smart_getattr() argument handling (every row of the error tables in sched-smart.rst §4),
 * privilege rules and fork inheritance.
 *
 * Every test SKIPs when the kernel has no SCHED_SMART.
 */
#include "kselftest_harness.h"
#include "smart_util.h"

/* a child that blocks (SCHED_NORMAL, never runs much) until killed */
static pid_t spawn_blocked(int nice)
{
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (nice)
			setpriority(PRIO_PROCESS, 0, nice);
		for (;;)
			pause();
	}
	return pid;
}

static void reap(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

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

/* ------------------------------------------------------------------ */
/* setattr/getattr targets                                             */

TEST(setattr_moves_to_smart)
{
	struct smart_attr a;

	REQUIRE_SMART();
	REQUIRE_ROOT();

	ASSERT_EQ(SCHED_OTHER, sched_getscheduler(0));
	ASSERT_EQ(0, smart_set(0, SMART_ATTR_PRIORITY, 2, 0));
	ASSERT_EQ(SCHED_SMART, sched_getscheduler(0)) {
		TH_LOG("smart_setattr on a SCHED_OTHER thread must move it to SCHED_SMART");
	}
	ASSERT_EQ(0, smart_get(0, &a));
	EXPECT_EQ(2, a.priority);
	EXPECT_EQ(1024u, a.share);
}

static void *block_thread(void *arg)
{
	pid_t *tid = arg;

	__atomic_store_n(tid, sys_gettid(), __ATOMIC_RELEASE);
	for (;;)
		pause();
	return NULL;
}

TEST(setattr_targets_one_thread)
{
	struct smart_attr main_before, main_after, t;
	pthread_t th;
	pid_t tid = 0;

	REQUIRE_SMART();
	REQUIRE_ROOT();

	ASSERT_EQ(0, pthread_create(&th, NULL, block_thread, &tid));
	while (!__atomic_load_n(&tid, __ATOMIC_ACQUIRE))
		usleep(1000);

	ASSERT_EQ(0, smart_get(0, &main_before));
	ASSERT_EQ(0, smart_set(tid, SMART_ATTR_SHARE | SMART_ATTR_PRIORITY, -4, 512));
	ASSERT_EQ(0, smart_get(tid, &t));
	EXPECT_EQ(-4, t.priority);
	EXPECT_EQ(512u, t.share);
	EXPECT_EQ(SCHED_SMART, sched_getscheduler(tid));

	ASSERT_EQ(0, smart_get(0, &main_after));
	EXPECT_TRUE(smart_attr_same(&main_before, &main_after)) {
		TH_LOG("setattr on tid %d changed the main thread: " ATTR_FMT " -> " ATTR_FMT,
		       tid, ATTR_ARG(main_before), ATTR_ARG(main_after));
	}
	EXPECT_EQ(SCHED_OTHER, sched_getscheduler(0)) {
		TH_LOG("setattr on another thread moved the main thread");
	}
}

TEST(getattr_non_smart_task)
{
	struct smart_attr a;
	pid_t child;

	REQUIRE_SMART();

	child = spawn_blocked(5);
	ASSERT_GT(child, 0);
	usleep(50000);	/* let it apply its nice */

	ASSERT_EQ(0, smart_get(child, &a));
	EXPECT_EQ(SCHED_OTHER, sched_getscheduler(child)) {
		TH_LOG("smart_getattr must not move a task to SCHED_SMART");
	}
	EXPECT_EQ(0, a.priority);
	EXPECT_EQ(335u, a.share) {
		TH_LOG("non-SMART nice 5 task: expected share 335, got %u", a.share);
	}
	EXPECT_EQ(0u, a.flags);
	EXPECT_TRUE(a.notify_signal == 0 || a.notify_signal == SIGXCPU) {
		TH_LOG("fresh task: expected notify_signal 0 or SIGXCPU, got %d",
		       a.notify_signal);
	}
	TH_LOG("fresh task out fields: lag %lld bias %llu met %llu missed %llu notif %llu",
	       (long long)a.lag_ns, (unsigned long long)a.bias_ns,
	       (unsigned long long)a.constraints_met,
	       (unsigned long long)a.constraints_missed,
	       (unsigned long long)a.notifications);
	EXPECT_EQ(0ull, a.bias_ns);
	EXPECT_EQ(0ull, a.constraints_met);
	EXPECT_EQ(0ull, a.constraints_missed);
	EXPECT_EQ(0ull, a.notifications);
	reap(child);
}

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

	*fair_child = spawn_blocked(0);
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
	reap(self->fair_child);
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

static int bad_call(const FIXTURE_VARIANT(setattr_bad) *v, pid_t pid)
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
	reap(self->fair_child);
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
		     const FIXTURE_VARIANT(setattr_ok) *v, pid_t pid)
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
		TH_LOG("smart_setattr(pid %d, " ATTR_FMT " mask %#x size %u): expected success, got %s",
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

/* ------------------------------------------------------------------ */
/* smart_getattr sizes and flags                                       */

TEST(getattr_sizes)
{
	unsigned char buf[256] __attribute__((aligned(8)));
	struct smart_attr *a = (void *)buf, ref;
	unsigned int bad[] = { 0, 1, 8, SMART_ATTR_SIZE_VER0 - 1 };
	unsigned int i, ks;

	REQUIRE_SMART();
	ASSERT_EQ(0, smart_get(0, &ref));

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(buf, 0xa5, sizeof(buf));
		ASSERT_EQ(-1, smart_getattr(0, buf, bad[i], 0)) {
			TH_LOG("getattr size %u: expected EINVAL, got success", bad[i]);
		}
		ASSERT_EQ(EINVAL, errno) {
			TH_LOG("getattr size %u: expected EINVAL, got %s", bad[i], strerror(errno));
		}
	}

	/* exactly VER0: nothing written past it */
	memset(buf, 0xa5, sizeof(buf));
	ASSERT_EQ(0, smart_getattr(0, buf, SMART_ATTR_SIZE_VER0, 0)) {
		TH_LOG("getattr size VER0: %s", strerror(errno));
	}
	EXPECT_EQ((__u32)SMART_ATTR_SIZE_VER0, a->size);
	EXPECT_EQ(ref.priority, a->priority);
	EXPECT_EQ(ref.share, a->share);
	for (i = SMART_ATTR_SIZE_VER0; i < sizeof(buf); i++) {
		ASSERT_EQ(0xa5, buf[i]) {
			TH_LOG("getattr size %u wrote byte %u (0x%02x)",
			       SMART_ATTR_SIZE_VER0, i, buf[i]);
		}
	}

	/* larger than the kernel's struct: nothing written past what it copied */
	memset(buf, 0xa5, sizeof(buf));
	ASSERT_EQ(0, smart_getattr(0, buf, sizeof(buf), 0)) {
		TH_LOG("getattr size %zu: %s", sizeof(buf), strerror(errno));
	}
	ks = a->size;
	TH_LOG("kernel struct smart_attr size: %u", ks);
	ASSERT_TRUE(ks >= SMART_ATTR_SIZE_VER0 && ks <= sizeof(buf)) {
		TH_LOG("getattr size %zu reported size %u, expected %u..%zu",
		       sizeof(buf), ks, SMART_ATTR_SIZE_VER0, sizeof(buf));
	}
	EXPECT_EQ(ref.priority, a->priority);
	EXPECT_EQ(ref.share, a->share);
	for (i = ks; i < sizeof(buf); i++) {
		ASSERT_EQ(0xa5, buf[i]) {
			TH_LOG("getattr size %zu (kernel %u) wrote byte %u (0x%02x)",
			       sizeof(buf), ks, i, buf[i]);
		}
	}

	/* flags must be 0 */
	ASSERT_EQ(-1, smart_getattr(0, buf, sizeof(struct smart_attr), 1));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(-1, smart_getattr(0, buf, sizeof(struct smart_attr), 0x80000000u));
	ASSERT_EQ(EINVAL, errno);
}

/* ------------------------------------------------------------------ */
/* ESRCH, EFAULT                                                       */

TEST(no_such_thread)
{
	struct smart_attr a = { .size = sizeof(a), .mask = SMART_ATTR_PRIORITY };
	pid_t pids[3];
	int i;

	REQUIRE_SMART();
	REQUIRE_ROOT();

	pids[0] = fork();
	ASSERT_GE(pids[0], 0);
	if (!pids[0])
		_exit(0);
	ASSERT_EQ(pids[0], waitpid(pids[0], NULL, 0));
	pids[1] = 4194304 + 1;	/* above PID_MAX_LIMIT */
	pids[2] = INT_MAX;

	for (i = 0; i < 3; i++) {
		ASSERT_EQ(-1, smart_setattr(pids[i], &a, 0));
		EXPECT_EQ(ESRCH, errno) {
			TH_LOG("setattr(pid %d): expected ESRCH, got %s", pids[i], strerror(errno));
		}
		ASSERT_EQ(-1, smart_getattr(pids[i], &a, sizeof(a), 0));
		EXPECT_EQ(ESRCH, errno) {
			TH_LOG("getattr(pid %d): expected ESRCH, got %s", pids[i], strerror(errno));
		}
	}
}

/* one call with a bad pointer: expect -1/EFAULT */
#define EXPECT_EFAULT(call, what) do {					\
	int __r = (call), __e = errno;					\
	EXPECT_TRUE(__r == -1 && __e == EFAULT) {			\
		TH_LOG("%s: expected EFAULT, got %s", what,		\
		       __r ? strerror(__e) : "success");		\
	}								\
} while (0)

TEST(bad_pointers)
{
	long pg = sysconf(_SC_PAGESIZE);
	struct smart_attr before, after, *edge;
	unsigned char *m;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_EQ(0, smart_set(0, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, -2, 600));
	ASSERT_EQ(0, smart_get(0, &before));

	/* page 0 read-write, page 1 inaccessible */
	m = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, m);
	ASSERT_EQ(0, mprotect(m + pg, pg, PROT_NONE));
	/* a struct whose size/mask are readable but whose body faults */
	edge = (void *)(m + pg - 8);
	edge->size = sizeof(*edge);
	edge->mask = SMART_ATTR_PRIORITY;

	EXPECT_EFAULT(smart_setattr(0, NULL, 0), "setattr(NULL)");
	EXPECT_EFAULT(smart_setattr(0, (void *)1, 0), "setattr((void *)1)");
	EXPECT_EFAULT(smart_setattr(0, m + pg, 0), "setattr(PROT_NONE page)");
	EXPECT_EFAULT(smart_setattr(0, edge, 0), "setattr(struct straddling into a PROT_NONE page)");
	ASSERT_EQ(0, smart_get(0, &after));
	EXPECT_TRUE(smart_attr_same(&before, &after)) {
		TH_LOG("faulting setattr changed attributes: " ATTR_FMT " -> " ATTR_FMT,
		       ATTR_ARG(before), ATTR_ARG(after));
	}

	EXPECT_EFAULT(smart_getattr(0, NULL, sizeof(after), 0), "getattr(NULL)");
	EXPECT_EFAULT(smart_getattr(0, (void *)1, sizeof(after), 0), "getattr((void *)1)");
	EXPECT_EFAULT(smart_getattr(0, m + pg, sizeof(after), 0), "getattr(PROT_NONE page)");
	EXPECT_EFAULT(smart_getattr(0, edge, sizeof(after), 0),
		      "getattr(buffer straddling into a PROT_NONE page)");
	ASSERT_EQ(0, mprotect(m, pg, PROT_READ));
	EXPECT_EFAULT(smart_getattr(0, m, sizeof(after), 0), "getattr(read-only page)");
	munmap(m, 2 * pg);
}

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
	for (unsigned int i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
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
		CHK(r == -EPERM, "opt-in: unprivileged sched_setscheduler(SMART): expected EPERM, got %s",
		    r ? strerror(-r) : "success");
		r = smart_set(0, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, -1, 100);
		CHK(r == -EPERM, "opt-in: unprivileged smart_setattr from SCHED_OTHER: expected EPERM, got %s",
		    r ? strerror(-r) : "success");
		CHK(sched_getscheduler(0) == SCHED_OTHER, "refused entry left policy %d",
		    sched_getscheduler(0));
	} else {
		/* all mode: no class boundary to cross; same importance is allowed */
		r = sched_setscheduler(0, SCHED_SMART, &sp) ? -errno : 0;
		CHK(r == 0, "all mode: unprivileged sched_setscheduler(SMART) at nice 0: expected success, got %s",
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
