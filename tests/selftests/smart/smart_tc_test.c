// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART time constraints (sched-smart.rst §4.3, paper §2 and
 * §6.1): smart_constraint_begin()/smart_constraint_end() argument handling
 * (every row of the table, one test each), what begin predicts (available,
 * status) and end reports (used, status, the constraint that ended), the
 * met/missed/notification counters, and notification delivery: signal,
 * si_code, cookie and the thread that receives it.
 *
 * Everything that is timed runs pinned to CPU 0 so that "alone on a CPU"
 * means it; every test SKIPs when the kernel has no SCHED_SMART.
 *
 * Which notification a case gets is chosen from the semantics:
 *   - a constraint whose remaining estimate no longer fits before its
 *     deadline (also while its thread sleeps: its latest start time
 *     passes) is predicted infeasible: SMART_NOTIFY_INFEASIBLE;
 *   - a constraint whose estimate is used up is conventional and always
 *     "fits", so when its deadline passes the only notification is
 *     SMART_NOTIFY_EXPIRED.  The EXPIRED tests therefore use up their
 *     1 ms estimate first and then sleep or spin past the deadline;
 *     notify_once_either_code covers the case where both codes are
 *     allowed (only once per constraint, and a consistent time).
 */
#include <semaphore.h>
#include <sys/mman.h>
#include "kselftest_harness.h"
#include "smart_util.h"

#define MS		NSEC_PER_MSEC
#define COOKIE		0x5eedc0de00c0ffeeULL
#define CPU_T		0	/* the CPU timed work is pinned to */

_Static_assert(sizeof(struct smart_constraint) == SMART_CONSTRAINT_SIZE_VER0,
	       "struct smart_constraint is VER0");

static double ms(long long ns)
{
	return ns / 1e6;
}

static long long min_ll(long long a, long long b)
{
	return a < b ? a : b;
}

/* the state letter of /proc/pid/stat (R, S, D, ...), 0 on error */
static char proc_state(pid_t pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

/* pin to CPU_T, enter SCHED_SMART with the recorder's signal */
#define SETUP_SELF() do {						\
	int __r;							\
	ASSERT_EQ(0, pin_to(0, CPU_T));					\
	ASSERT_EQ(0, smart_note_install(SMART_NOTE_SIG));		\
	__r = smart_set_signal(SMART_NOTE_SIG);				\
	ASSERT_EQ(0, __r) {						\
		TH_LOG("smart_setattr(SIGNAL %d): %s", SMART_NOTE_SIG,	\
		       strerror(-__r));					\
	}								\
} while (0)

/* counters moved by exactly (met, missed, notified) */
#define EXPECT_COUNTS(b, a, dmet, dmissed, dnotif) do {			\
	EXPECT_TRUE((a).met - (b).met == (dmet) &&			\
		    (a).missed - (b).missed == (dmissed) &&		\
		    (a).notified - (b).notified == (dnotif)) {		\
		TH_LOG("counters moved met %+lld missed %+lld notifications %+lld, " \
		       "expected %+d %+d %+d", (a).met - (b).met,	\
		       (a).missed - (b).missed, (a).notified - (b).notified, \
		       (dmet), (dmissed), (dnotif));			\
	}								\
} while (0)

/* a successful begin reports a status that matches its prediction */
#define EXPECT_STATUS_CONSISTENT(c) do {				\
	EXPECT_EQ(smart_status_for(&(c)), (c).status) {		\
		TH_LOG("begin: available %.3f ms, estimate %.3f ms: expected %s, got %s (%u)", \
		       ms((c).available), ms((c).estimate),		\
		       smart_status_name(smart_status_for(&(c))),	\
		       smart_status_name((c).status), (c).status);	\
	}								\
} while (0)

/* ------------------------------------------------------------------ */
/* Rejected arguments: one test per row                                */

enum { PTR_OK, PTR_NULL, PTR_ONE, PTR_NONE, PTR_EDGE, PTR_RO };
enum { DL_DEFAULT, DL_REL, DL_ABS };

FIXTURE(tc_bad) {
	unsigned char *map;	/* 3 read-write pages, then a PROT_NONE page */
	unsigned char *ro;	/* one page, read-only when used */
	long pg;
};

FIXTURE_VARIANT(tc_bad) {
	bool end;		/* the call under test is smart_constraint_end() */
	unsigned int sysflags;	/* the syscall's flags argument */
	unsigned int size;	/* 0: sizeof(struct smart_constraint) */
	bool size_zero;		/* size 0 */
	bool tail;		/* a non-zero byte at offset size - 1 */
	int ptr;		/* PTR_* */
	unsigned int cflags;	/* struct smart_constraint::flags */
	bool est_zero;		/* estimate 0 */
	long long estimate;	/* 0: 1 ms */
	long long period;
	int dl;			/* DL_DEFAULT (now + 1 s), DL_REL, DL_ABS */
	long long dl_rel;	/* deadline = now + dl_rel */
	unsigned long long dl_abs;
	unsigned int reserved;
	int expect;		/* errno */
};

FIXTURE_SETUP(tc_bad)
{
	self->map = MAP_FAILED;
	self->ro = MAP_FAILED;
	REQUIRE_SMART();
	REQUIRE_ROOT();
	self->pg = sysconf(_SC_PAGESIZE);
	self->map = mmap(NULL, 4 * self->pg, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->map);
	ASSERT_EQ(0, mprotect(self->map + 3 * self->pg, self->pg, PROT_NONE));
	self->ro = mmap(NULL, self->pg, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->ro);
	/* in SCHED_SMART, so EPERM cannot get in the way */
	ASSERT_EQ(0, smart_set(0, SMART_ATTR_PRIORITY, 0, 0));
	ASSERT_EQ(SCHED_SMART, sched_getscheduler(0));
}

FIXTURE_TEARDOWN(tc_bad)
{
	if (self->map != MAP_FAILED)
		munmap(self->map, 4 * self->pg);
	if (self->ro != MAP_FAILED)
		munmap(self->ro, self->pg);
}

#define BAD(name, ...) FIXTURE_VARIANT_ADD(tc_bad, name) { __VA_ARGS__ }
#define PAST	.dl = DL_REL, .dl_rel = -10 * MS

/* the syscall's flags */
BAD(sysflags_1,		.sysflags = 1, .expect = EINVAL);
BAD(sysflags_high,	.sysflags = 0x80000000u, .expect = EINVAL);
/* pointers */
BAD(ptr_null,		.ptr = PTR_NULL, .expect = EFAULT);
BAD(ptr_one,		.ptr = PTR_ONE, .expect = EFAULT);
BAD(ptr_prot_none,	.ptr = PTR_NONE, .expect = EFAULT);
BAD(ptr_straddles_prot_none, .ptr = PTR_EDGE, .expect = EFAULT);
BAD(ptr_read_only,	.ptr = PTR_RO, .expect = EFAULT);
/* sizes */
BAD(size_zero,		.size_zero = true, .expect = EINVAL);
BAD(size_1,		.size = 1, .expect = EINVAL);
BAD(size_below_ver0,	.size = SMART_CONSTRAINT_SIZE_VER0 - 1, .expect = EINVAL);
BAD(size_4097,		.size = 4097, .expect = E2BIG);
BAD(size_8192,		.size = 8192, .expect = E2BIG);
BAD(size_u32_max,	.size = 0xffffffffu, .expect = E2BIG);
BAD(size_72_dirty_tail,	.size = 72, .tail = true, .expect = E2BIG);
BAD(size_4096_dirty_tail, .size = 4096, .tail = true, .expect = E2BIG);
/* fields */
BAD(reserved_1,		.reserved = 1, .expect = EINVAL);
BAD(reserved_high,	.reserved = 0x80000000u, .expect = EINVAL);
BAD(flag_unknown,	.cflags = 0x4, .expect = EINVAL);
BAD(flag_high,		.cflags = 0x80000000u, .expect = EINVAL);
BAD(flag_notify_plus_unknown, .cflags = SMART_CONSTRAINT_NOTIFY | 0x8, .expect = EINVAL);
BAD(flag_query_plus_unknown, .cflags = SMART_CONSTRAINT_QUERY | 0x10, .expect = EINVAL);
BAD(estimate_zero,	.est_zero = true, .expect = EINVAL);
BAD(period_1ns,		.estimate = MS, .period = 1, .expect = EINVAL);
BAD(period_below_estimate, .estimate = 10 * MS, .period = 10 * MS - 1, .expect = EINVAL);
BAD(query_estimate_zero, .cflags = SMART_CONSTRAINT_QUERY, .est_zero = true, .expect = EINVAL);
/* deadline <= now: ETIME */
BAD(deadline_past,	PAST, .expect = ETIME);
BAD(deadline_now,	.dl = DL_REL, .dl_rel = 0, .expect = ETIME);
BAD(deadline_zero,	.dl = DL_ABS, .dl_abs = 0, .expect = ETIME);
BAD(deadline_one,	.dl = DL_ABS, .dl_abs = 1, .expect = ETIME);
BAD(query_deadline_past, .cflags = SMART_CONSTRAINT_QUERY, PAST, .expect = ETIME);
/* deadline more than 60 s ahead (as a __u64): EINVAL */
BAD(deadline_61s,	.dl = DL_REL, .dl_rel = 61 * NSEC_PER_SEC, .expect = EINVAL);
BAD(deadline_60s_10ms,	.dl = DL_REL, .dl_rel = 60 * NSEC_PER_SEC + 10 * MS, .expect = EINVAL);
BAD(deadline_2p63,	.dl = DL_ABS, .dl_abs = 1ULL << 63, .expect = EINVAL);
BAD(deadline_u64_max,	.dl = DL_ABS, .dl_abs = ~0ULL, .expect = EINVAL);
/* check order: the EINVAL checks come before ETIME */
BAD(order_estimate_zero_past, .est_zero = true, PAST, .expect = EINVAL);
BAD(order_flag_unknown_past, .cflags = 0x4, PAST, .expect = EINVAL);
BAD(order_period_past,	.estimate = 10 * MS, .period = MS, PAST, .expect = EINVAL);
BAD(order_reserved_past, .reserved = 1, PAST, .expect = EINVAL);
BAD(order_estimate_zero_far, .est_zero = true, .dl = DL_REL,
    .dl_rel = 61 * NSEC_PER_SEC, .expect = EINVAL);

/* smart_constraint_end() with a constraint active */
BAD(end_sysflags_1,	.end = true, .sysflags = 1, .expect = EINVAL);
BAD(end_sysflags_high,	.end = true, .sysflags = 0x80000000u, .expect = EINVAL);
BAD(end_ptr_null,	.end = true, .ptr = PTR_NULL, .expect = EFAULT);
BAD(end_ptr_one,	.end = true, .ptr = PTR_ONE, .expect = EFAULT);
BAD(end_ptr_prot_none,	.end = true, .ptr = PTR_NONE, .expect = EFAULT);
BAD(end_ptr_straddles_prot_none, .end = true, .ptr = PTR_EDGE, .expect = EFAULT);
BAD(end_ptr_read_only,	.end = true, .ptr = PTR_RO, .expect = EFAULT);
BAD(end_size_zero,	.end = true, .size_zero = true, .expect = EINVAL);
BAD(end_size_below_ver0, .end = true, .size = SMART_CONSTRAINT_SIZE_VER0 - 1, .expect = EINVAL);
BAD(end_size_4097,	.end = true, .size = 4097, .expect = E2BIG);
BAD(end_size_72_dirty_tail, .end = true, .size = 72, .tail = true, .expect = E2BIG);
BAD(end_reserved,	.end = true, .reserved = 1, .expect = EINVAL);
BAD(end_flag_unknown,	.end = true, .cflags = 0x4, .expect = EINVAL);

/* the argument of the call under test, built right before the call */
static void *bad_arg(FIXTURE_DATA(tc_bad) *self, const FIXTURE_VARIANT(tc_bad) *v)
{
	unsigned int size = v->size_zero ? 0 : v->size ? v->size : SMART_CONSTRAINT_SIZE_VER0;
	long long now = mono_ns();
	struct smart_constraint *c;
	unsigned long long dl;

	switch (v->dl) {
	case DL_REL:
		dl = now + v->dl_rel;
		break;
	case DL_ABS:
		dl = v->dl_abs;
		break;
	default:
		dl = now + NSEC_PER_SEC;
	}

	switch (v->ptr) {
	case PTR_NULL:
		return NULL;
	case PTR_ONE:
		return (void *)1;
	case PTR_NONE:
		return self->map + 3 * self->pg;
	case PTR_EDGE:
		/* size and flags readable, the rest in the PROT_NONE page */
		c = (void *)(self->map + 3 * self->pg - 8);
		c->size = SMART_CONSTRAINT_SIZE_VER0;
		c->flags = v->cflags;
		return c;
	case PTR_RO:
		/* a valid constraint that cannot be written back */
		mprotect(self->ro, self->pg, PROT_READ | PROT_WRITE);
		smart_tc_init((void *)self->ro, v->cflags, dl, MS, 0, COOKIE + 1);
		mprotect(self->ro, self->pg, PROT_READ);
		return self->ro;
	}

	memset(self->map, 0, 3 * self->pg);
	c = (void *)self->map;
	c->size = size;
	c->flags = v->cflags;
	c->deadline = dl;
	c->estimate = v->est_zero ? 0 : v->estimate ? v->estimate : MS;
	c->period = v->period;
	c->cookie = COOKIE + 1;
	c->__reserved = v->reserved;
	if (v->tail && size <= 3 * self->pg)
		self->map[size - 1] = 0x5a;
	return c;
}

TEST_F(tc_bad, rejected)
{
	struct smart_counts before, after;
	struct smart_constraint ok;
	int r, err;
	void *arg;

	if (variant->end) {
		smart_tc_init(&ok, 0, mono_ns() + 5 * NSEC_PER_SEC, MS, 0, COOKIE);
		r = smart_tc_begin(&ok);
		ASSERT_EQ(0, r) {
			TH_LOG("setup begin: %s", strerror(-r));
		}
	}
	before = smart_counts_self();
	ASSERT_LE(0, before.met);

	arg = bad_arg(self, variant);
	if (variant->end)
		r = smart_constraint_end(arg, variant->sysflags);
	else
		r = smart_constraint_begin(arg, variant->sysflags);
	err = r ? errno : 0;
	ASSERT_EQ(variant->expect, err) {
		TH_LOG("smart_constraint_%s: expected %s, got %s", variant->end ? "end" : "begin",
		       strerror(variant->expect), err ? strerror(err) : "success");
	}
	after = smart_counts_self();

	if (!variant->end) {
		EXPECT_COUNTS(before, after, 0, 0, 0);
		/* nothing installed: end finds nothing */
		smart_tc_init(&ok, 0, mono_ns() + NSEC_PER_SEC, MS, 0, 0);
		r = smart_tc_end(&ok);
		EXPECT_EQ(-ENOENT, r) {
			TH_LOG("end after a rejected begin: expected ENOENT, got %s "
			       "(the rejected begin installed a constraint, cookie %#llx)",
			       r ? strerror(-r) : "success", (unsigned long long)ok.cookie);
		}
		return;
	}
	if (variant->ptr == PTR_RO) {
		/* what an end that could not write back did is not specified */
		r = smart_tc_end(&ok);
		TH_LOG("end into a read-only page: EFAULT; afterwards end returns %s",
		       r ? strerror(-r) : "success (constraint was still active)");
		return;
	}
	/* a rejected end changes nothing: the constraint is still active */
	EXPECT_COUNTS(before, after, 0, 0, 0);
	smart_tc_init(&ok, 0, mono_ns() + NSEC_PER_SEC, MS, 0, 0);
	r = smart_tc_end(&ok);
	EXPECT_EQ(0, r) {
		TH_LOG("end after a rejected end: expected success, got %s "
		       "(the rejected end ended the constraint)", strerror(-r));
	}
	if (!r) {
		EXPECT_EQ(COOKIE, ok.cookie);
		EXPECT_EQ((__u32)SMART_STATUS_MET, ok.status);
	}
}

/* sizes above the struct with a zero tail are accepted by both calls */
TEST(size_larger_zero_tail)
{
	static const unsigned int sizes[] = { 72, 128, 4096 };
	struct smart_counts b, a;
	unsigned char *buf;
	unsigned int i;
	int r;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_EQ(0, smart_set(0, SMART_ATTR_PRIORITY, 0, 0));
	buf = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, buf);
	b = smart_counts_self();
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct smart_constraint *c = (void *)buf;

		memset(buf, 0, 8192);
		smart_tc_init(c, 0, mono_ns() + NSEC_PER_SEC, MS, 0, COOKIE + i);
		c->size = sizes[i];
		r = smart_tc_begin(c);
		ASSERT_EQ(0, r) {
			TH_LOG("begin with size %u, zero tail: %s", sizes[i], strerror(-r));
		}
		for (unsigned int j = SMART_CONSTRAINT_SIZE_VER0; j < sizes[i]; j++) {
			ASSERT_EQ(0, buf[j]) {
				TH_LOG("begin size %u wrote byte %u of the tail", sizes[i], j);
			}
		}
		memset(buf, 0, 8192);
		c->size = sizes[i];
		r = smart_tc_end(c);
		ASSERT_EQ(0, r) {
			TH_LOG("end with size %u, zero tail: %s", sizes[i], strerror(-r));
		}
		EXPECT_EQ(COOKIE + i, c->cookie);
		EXPECT_EQ((__u32)SMART_STATUS_MET, c->status);
	}
	a = smart_counts_self();
	EXPECT_COUNTS(b, a, 3, 0, 0);
	munmap(buf, 8192);
}

TEST(deadline_59s_accepted)
{
	struct smart_constraint c;
	int r;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	smart_tc_init(&c, 0, mono_ns() + 59 * NSEC_PER_SEC, MS, 2 * MS, COOKIE);
	r = smart_tc_begin(&c);
	ASSERT_EQ(0, r) {
		TH_LOG("deadline now + 59 s, period = 2 x estimate: %s", strerror(-r));
	}
	smart_tc_init(&c, 0, mono_ns() + 59 * NSEC_PER_SEC, MS, MS, COOKIE + 1);
	r = smart_tc_begin(&c);
	ASSERT_EQ(0, r) {
		TH_LOG("period == estimate: %s", strerror(-r));
	}
	ASSERT_EQ(0, smart_tc_end(&c));
	EXPECT_EQ(COOKIE + 1, c.cookie);
}

TEST(end_without_begin)
{
	struct smart_constraint c;
	struct smart_counts b, a;
	int r;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_EQ(0, smart_set(0, SMART_ATTR_PRIORITY, 0, 0));
	b = smart_counts_self();
	smart_tc_init(&c, 0, mono_ns() + NSEC_PER_SEC, MS, 0, 0);
	r = smart_tc_end(&c);
	EXPECT_EQ(-ENOENT, r) {
		TH_LOG("end with nothing active: expected ENOENT, got %s",
		       r ? strerror(-r) : "success");
	}
	smart_tc_init(&c, 0, mono_ns() + NSEC_PER_SEC, MS, 0, COOKIE);
	ASSERT_EQ(0, smart_tc_begin(&c));
	ASSERT_EQ(0, smart_tc_end(&c));
	r = smart_tc_end(&c);
	EXPECT_EQ(-ENOENT, r) {
		TH_LOG("second end: expected ENOENT, got %s", r ? strerror(-r) : "success");
	}
	a = smart_counts_self();
	EXPECT_COUNTS(b, a, 1, 0, 0);
}

/* ------------------------------------------------------------------ */
/* Privilege and entering SCHED_SMART                                  */

static int unpriv_begin_child(void *arg)
{
	int mode = *(int *)arg, fails = 0, r;
	struct smart_constraint c;

	r = drop_to_nobody();
	CHK(r == 0, "drop to uid %d: %s", NOBODY_ID, strerror(-r));
	CHK(cap_eff() == 0, "CapEff after drop: %#llx", cap_eff());
	CHK(sched_getscheduler(0) == SCHED_OTHER, "start policy %d", sched_getscheduler(0));
	if (fails)
		return fails;

	smart_tc_init(&c, 0, mono_ns() + 200 * MS, MS, 0, COOKIE);
	r = smart_tc_begin(&c);
	if (mode == 0) {
		CHK(r == -EPERM, "opt-in: unprivileged SCHED_NORMAL begin: expected EPERM, got %s",
		    r ? strerror(-r) : "success");
		smart_tc_init(&c, SMART_CONSTRAINT_QUERY, mono_ns() + 200 * MS, MS, 0, COOKIE);
		r = smart_tc_begin(&c);
		CHK(r == -EPERM, "opt-in: unprivileged SCHED_NORMAL QUERY: expected EPERM, got %s",
		    r ? strerror(-r) : "success");
		CHK(sched_getscheduler(0) == SCHED_OTHER, "refused begin left policy %d",
		    sched_getscheduler(0));
		/* nothing is active; whether end checks the caller first is open */
		r = smart_tc_end(&c);
		CHK(r == -ENOENT || r == -EPERM, "end after EPERM: expected ENOENT (or EPERM), "
		    "got %s", r ? strerror(-r) : "success");
		printf("# opt-in: unprivileged SCHED_NORMAL end: %s\n", strerror(-r));
	} else {
		CHK(r == 0, "all mode: an unprivileged SCHED_NORMAL task is SMART: expected "
		    "success, got %s", strerror(-r));
		printf("# all mode: policy after an unprivileged begin: %d\n",
		       sched_getscheduler(0));
		r = smart_tc_end(&c);
		CHK(r == 0 && c.status == SMART_STATUS_MET,
		    "end: expected success/MET, got %s/%s", r ? strerror(-r) : "success",
		    smart_status_name(c.status));
	}
	return fails;
}

TEST(unpriv_not_smart)
{
	int mode;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	mode = smart_mode();
	TH_LOG("mode %s", smart_mode_name());
	ASSERT_CHILD_OK(run_child(unpriv_begin_child, &mode));
}

/* already in SCHED_SMART (entered as root): begin needs no privilege */
static int unpriv_smart_child(void *arg)
{
	struct smart_constraint c;
	int fails = 0, r;

	(void)arg;
	r = smart_set(0, SMART_ATTR_PRIORITY, 0, 0);
	CHK(r == 0, "enter SMART as root: %s", strerror(-r));
	r = drop_to_nobody();
	CHK(r == 0, "drop to uid %d: %s", NOBODY_ID, strerror(-r));
	if (fails)
		return fails;
	smart_tc_init(&c, 0, mono_ns() + 200 * MS, MS, 0, COOKIE);
	r = smart_tc_begin(&c);
	CHK(r == 0, "unprivileged SCHED_SMART task: begin: expected success, got %s",
	    strerror(-r));
	r = smart_tc_end(&c);
	CHK(r == 0 && c.status == SMART_STATUS_MET && c.cookie == COOKIE,
	    "end: expected success/MET/cookie, got %s/%s/%#llx", r ? strerror(-r) : "success",
	    smart_status_name(c.status), (unsigned long long)c.cookie);
	return fails;
}

TEST(unpriv_in_smart)
{
	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_CHILD_OK(run_child(unpriv_smart_child, NULL));
}

TEST(begin_enters_smart)
{
	struct smart_constraint c;
	int r, pol;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_EQ(SCHED_OTHER, sched_getscheduler(0));
	smart_tc_init(&c, 0, mono_ns() + 200 * MS, MS, 0, COOKIE);
	r = smart_tc_begin(&c);
	ASSERT_EQ(0, r) {
		TH_LOG("root SCHED_NORMAL begin: %s", strerror(-r));
	}
	pol = sched_getscheduler(0);
	TH_LOG("mode %s: policy after begin %d, available %.3f ms, status %s",
	       smart_mode_name(), pol, ms(c.available), smart_status_name(c.status));
	if (smart_mode() == 0) {
		EXPECT_EQ(SCHED_SMART, pol) {
			TH_LOG("opt-in: begin with CAP_SYS_NICE must move the caller to SCHED_SMART");
		}
	}
	EXPECT_STATUS_CONSISTENT(c);
	r = smart_tc_end(&c);
	ASSERT_EQ(0, r) {
		TH_LOG("end: expected the constraint installed by begin, got %s", strerror(-r));
	}
	EXPECT_EQ(COOKIE, c.cookie);
	EXPECT_EQ((__u32)SMART_STATUS_MET, c.status);
}

/* ------------------------------------------------------------------ */
/* QUERY                                                               */

TEST(query_installs_nothing)
{
	struct smart_constraint q, c;
	struct smart_counts b, a;
	long notes0;
	int r;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	SETUP_SELF();
	b = smart_counts_self();
	notes0 = smart_note_count();

	/* alone: same outputs as begin, nothing to end */
	smart_tc_init(&q, SMART_CONSTRAINT_QUERY, mono_ns() + 100 * MS, 10 * MS, 0, COOKIE);
	r = smart_tc_begin(&q);
	ASSERT_EQ(0, r) {
		TH_LOG("QUERY: %s", strerror(-r));
	}
	TH_LOG("QUERY alone: available %.3f ms, status %s", ms(q.available),
	       smart_status_name(q.status));
	EXPECT_STATUS_CONSISTENT(q);
	smart_tc_init(&c, 0, mono_ns() + NSEC_PER_SEC, MS, 0, 0);
	r = smart_tc_end(&c);
	EXPECT_EQ(-ENOENT, r) {
		TH_LOG("end after QUERY: expected ENOENT, got %s", r ? strerror(-r) : "success");
	}

	/* a QUERY with NOTIFY that is infeasible sends nothing */
	smart_tc_init(&q, SMART_CONSTRAINT_QUERY | SMART_CONSTRAINT_NOTIFY,
		      mono_ns() + 20 * MS, 50 * MS, 0, COOKIE + 1);
	ASSERT_EQ(0, smart_tc_begin(&q));
	EXPECT_EQ((__u32)SMART_STATUS_INFEASIBLE, q.status) {
		TH_LOG("QUERY estimate 50 ms, deadline +20 ms: available %.3f ms, status %s",
		       ms(q.available), smart_status_name(q.status));
	}
	spin_cpu_ns(10 * MS);
	sleep_ns(40 * MS);
	EXPECT_EQ(notes0, smart_note_count()) {
		TH_LOG("an infeasible NOTIFY QUERY sent a notification (code %d cookie %#llx)",
		       smart_note_self()->last.code, smart_note_self()->last.cookie);
	}
	EXPECT_EQ(-ENOENT, smart_tc_end(&c));

	/* with a constraint active: QUERY neither ends nor replaces it */
	smart_tc_init(&c, 0, mono_ns() + NSEC_PER_SEC, 5 * MS, 0, COOKIE + 2);
	ASSERT_EQ(0, smart_tc_begin(&c));
	smart_tc_init(&q, SMART_CONSTRAINT_QUERY, mono_ns() + 500 * MS, 10 * MS, 0, COOKIE + 3);
	ASSERT_EQ(0, smart_tc_begin(&q));
	TH_LOG("QUERY with a constraint active: available %.3f ms, status %s",
	       ms(q.available), smart_status_name(q.status));
	EXPECT_STATUS_CONSISTENT(q);
	a = smart_counts_self();
	EXPECT_COUNTS(b, a, 0, 0, 0);
	r = smart_tc_end(&c);
	ASSERT_EQ(0, r) {
		TH_LOG("end: expected the constraint begun before the QUERY, got %s",
		       strerror(-r));
	}
	EXPECT_EQ(COOKIE + 2, c.cookie) {
		TH_LOG("QUERY replaced the active constraint: end returned cookie %#llx",
		       (unsigned long long)c.cookie);
	}
	EXPECT_EQ(-ENOENT, smart_tc_end(&c));
	a = smart_counts_self();
	EXPECT_COUNTS(b, a, 1, 0, 0);
}

/* ------------------------------------------------------------------ */
/* available and status                                                */

TEST(available_idle_cpu)
{
	static const struct { unsigned int flags; long long est; } row[] = {
		{ SMART_CONSTRAINT_QUERY, 10 * MS },
		{ 0, 10 * MS },
		{ SMART_CONSTRAINT_QUERY, 150 * MS },
	};
	struct smart_constraint c;
	unsigned int i;
	long long t0;
	int r;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	SETUP_SELF();
	sleep_ns(50 * MS);	/* let CPU 0 settle */

	for (i = 0; i < sizeof(row) / sizeof(row[0]); i++) {
		t0 = mono_ns();
		smart_tc_init(&c, row[i].flags, t0 + 100 * MS, row[i].est, 0, COOKIE);
		r = smart_tc_begin(&c);
		ASSERT_EQ(0, r) {
			TH_LOG("begin: %s", strerror(-r));
		}
		TH_LOG("alone on CPU %d: %s estimate %.0f ms deadline +100 ms: available %.3f ms, %s",
		       CPU_T, row[i].flags ? "QUERY" : "begin", ms(row[i].est),
		       ms(c.available), smart_status_name(c.status));
		EXPECT_GE(c.available, (__u64)90 * MS) {
			TH_LOG("idle CPU: expected >= 90 ms of the 100 ms available, got %.3f ms",
			       ms(c.available));
		}
		EXPECT_LE((long long)c.available, (long long)c.deadline - t0) {
			TH_LOG("available %.3f ms exceeds the time to the deadline %.3f ms",
			       ms(c.available), ms(c.deadline - t0));
		}
		EXPECT_STATUS_CONSISTENT(c);
		EXPECT_EQ((__u32)(row[i].est <= 90 * MS ? SMART_STATUS_FEASIBLE :
				  SMART_STATUS_INFEASIBLE), c.status);
		if (!(row[i].flags & SMART_CONSTRAINT_QUERY)) {
			ASSERT_EQ(0, smart_tc_end(&c));
		}
	}
}

/* one SMART hog of @share on CPU_T, held until hogs_go() */
static bool hog_on_cpu_t(struct __test_metadata *_metadata, struct hog_set *h,
			 unsigned int share)
{
	pid_t pid = hog_spawn(h, 1UL << CPU_T, hog_spin_forever, NULL);
	int r;

	if (pid <= 0) {
		TH_LOG("hog_spawn failed");
		return false;
	}
	r = smart_set(pid, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, 0, share);
	if (r)
		TH_LOG("hog %d: smart_setattr: %s", pid, strerror(-r));
	return !r;
}

/*
 * Paper §3.3: a real-time task's quantum is its estimate and it has no
 * bias, so it competes with the value tuple (P, v + estimate / S); the
 * kernel caps the quantum in the value at 100 ms (sched-smart.rst 2.6).
 * The thread first spins with three hogs of its priority and share (so
 * its v is within about a quantum of theirs), lowers its share to a
 * quarter and asks about an estimate larger than quantum + bias_max +
 * 40 ms: its value offset, min(estimate, 100 ms) * 4, is then beyond any
 * hog's (quantum + bias), it cannot be more important than them, and it
 * can at best count on its proportional share; in fact each hog runs
 * until its value tuple passes the thread's, and the thread, asked to
 * spin to the deadline, must get no more than was predicted.
 */
TEST(available_under_load)
{
	long long q = smart_tunable("quantum_ns", DEF_QUANTUM_NS);
	long long bmax = smart_tunable("bias_max_ns", DEF_BIAS_MAX_NS);
	long long big = q + bmax + 40 * MS, end, t0;
	struct smart_constraint idle, load, small, real;
	long long got, cpu0;
	struct hog_set h;
	struct smart_attr me;
	int i, r, r2;

	hogs_init(&h);
	REQUIRE_SMART();
	REQUIRE_ROOT();
	SETUP_SELF();
	for (i = 0; i < 3; i++)
		ASSERT_TRUE(hog_on_cpu_t(_metadata, &h, 1024));
	ASSERT_EQ(0, smart_set(0, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, 0, 1024));

	/* the hogs exist but block (once they have run up to their read): CPU 0 is idle */
	for (i = 0; i < 3; i++) {
		end = mono_ns() + 2 * NSEC_PER_SEC;
		while (proc_state(h.pid[i]) != 'S' && mono_ns() < end)
			sleep_ns(5 * MS);
		ASSERT_EQ('S', proc_state(h.pid[i])) {
			TH_LOG("hog %d did not block waiting to start", h.pid[i]);
		}
	}
	t0 = mono_ns();
	smart_tc_init(&idle, SMART_CONSTRAINT_QUERY, t0 + 100 * MS, big, 0, COOKIE);
	ASSERT_EQ(0, smart_tc_begin(&idle));

	hogs_go(&h);
	end = mono_ns() + NSEC_PER_SEC;
	while (mono_ns() < end)
		;
	ASSERT_EQ(0, smart_set(0, SMART_ATTR_SHARE, 0, 256));
	t0 = mono_ns();
	smart_tc_init(&load, SMART_CONSTRAINT_QUERY, t0 + 100 * MS, big, 0, COOKIE);
	r = smart_tc_begin(&load);
	smart_tc_init(&small, SMART_CONSTRAINT_QUERY, mono_ns() + 100 * MS, 5 * MS, 0, COOKIE);
	ASSERT_EQ(0, smart_tc_begin(&small));
	smart_get(0, &me);
	/* What it gets: the same constraint for real, spinning to its deadline. */
	smart_tc_init(&real, 0, mono_ns() + 100 * MS, big, 0, COOKIE);
	r2 = smart_tc_begin(&real);
	cpu0 = thread_cpu_ns();
	while (mono_ns() < (long long)real.deadline)
		;
	got = thread_cpu_ns() - cpu0;
	smart_tc_end(&real);
	hogs_kill(&h);
	ASSERT_EQ(0, r) {
		TH_LOG("QUERY under load: %s", strerror(-r));
	}
	ASSERT_EQ(0, r2) {
		TH_LOG("begin under load: %s", strerror(-r2));
	}

	TH_LOG("estimate %.0f ms, deadline +100 ms: available idle %.3f ms (%s), with 3 hogs "
	       "%.3f ms (%s); estimate 5 ms with 3 hogs: %.3f ms (%s); lag %.3f ms",
	       ms(big), ms(idle.available), smart_status_name(idle.status),
	       ms(load.available), smart_status_name(load.status),
	       ms(small.available), smart_status_name(small.status), ms(me.lag_ns));
	EXPECT_GE(idle.available, (__u64)90 * MS) {
		TH_LOG("idle CPU: expected >= 90 ms available, got %.3f ms", ms(idle.available));
	}
	EXPECT_LE(load.available * 2, idle.available) {
		TH_LOG("3 hogs, thread not more important: expected at most half of the "
		       "idle prediction (%.3f ms), got %.3f ms", ms(idle.available),
		       ms(load.available));
	}
	/*
	 * The prediction against what happens: behind the three hogs (each
	 * runs until its value tuple passes the thread's, some 300 ms), the
	 * thread gets what was predicted, not more than 10 ms beyond it.
	 */
	TH_LOG("the same constraint begun for real: %.3f ms of CPU before its deadline "
	       "(predicted %.3f ms)", ms(got), ms(real.available));
	EXPECT_LE(got, (long long)real.available + 10 * MS) {
		TH_LOG("3 hogs: got %.3f ms before the deadline, predicted %.3f ms",
		       ms(got), ms(real.available));
	}
	if (real.status == SMART_STATUS_FEASIBLE)
		EXPECT_GE(got + MS, big);
	EXPECT_STATUS_CONSISTENT(idle);
	EXPECT_STATUS_CONSISTENT(load);
	EXPECT_STATUS_CONSISTENT(small);
}

/*
 * A FEASIBLE prediction holds in a steady workload: beside three SMART hogs
 * of shares 512, 1024 and 2048 on the thread's CPU (nothing else arrives),
 * the thread sleeps a random 0-60 ms (so its place among them varies from
 * well ahead, with sleep credit, to behind), begins a constraint with a
 * deadline 20-200 ms ahead and an estimate of 5-80% of that, and if told
 * FEASIBLE spins its estimate of CPU time (less the calls' own cost) and
 * ends it: it must end
 * MET in at least 99% of the FEASIBLE cases (the target, and what
 * tests/host/test_predict.c measures on the host).
 */
#define FEASIBLE_RUNS		200
#define FEASIBLE_CALLS_NS	(MS / 2)	/* what begin and end add to used, at most */

TEST(feasible_is_met)
{
	static const unsigned int shares[] = { 512, 1024, 2048 };
	unsigned long long seed = 0x5eed;
	int i, r, feasible = 0, met = 0, infeasible = 0, passed = 0;
	double worst = 0;
	struct hog_set h;

	hogs_init(&h);
	REQUIRE_SMART();
	REQUIRE_ROOT();
	SETUP_SELF();
	for (i = 0; i < 3; i++)
		ASSERT_TRUE(hog_on_cpu_t(_metadata, &h, shares[i]));
	ASSERT_EQ(0, smart_set(0, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, 0, 1024));
	hogs_go(&h);

	for (i = 0; i < FEASIBLE_RUNS; i++) {
		struct smart_constraint c;
		long long rel, est;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		sleep_ns((long long)((seed >> 33) % 61) * MS);
		rel = (20 + (long long)((seed >> 17) % 181)) * MS;
		est = rel * (5 + (long long)((seed >> 45) % 76)) / 100;
		smart_tc_init(&c, 0, mono_ns() + rel, est, 0, COOKIE);
		r = smart_tc_begin(&c);
		/*
		 * Preempted by the hogs between reading the clock and the
		 * call for longer than rel: the deadline passed, nothing was
		 * predicted (ETIME, as documented).  Rare, and counted.
		 */
		if (r == -ETIME) {
			passed++;
			continue;
		}
		ASSERT_EQ(0, r) {
			TH_LOG("begin %d: %s", i, strerror(-r));
		}
		EXPECT_STATUS_CONSISTENT(c);
		if (c.status != SMART_STATUS_FEASIBLE) {
			infeasible++;
			smart_tc_end(&c);
			continue;
		}
		feasible++;
		/*
		 * The estimate covers the work and the calls: used counts
		 * from inside begin to inside end (within 0.5 ms, see
		 * used_exact), and once it reaches the estimate the thread is
		 * conventional and may wait for the hogs before it ends.
		 */
		spin_cpu_ns(est - FEASIBLE_CALLS_NS);
		r = smart_tc_end(&c);
		if (!r && c.status == SMART_STATUS_MET) {
			met++;
			continue;
		}
		TH_LOG("run %d: FEASIBLE (available %.3f ms, estimate %.3f ms, deadline +%.0f ms) "
		       "but %s", i, ms(c.available), ms(est), ms(rel),
		       r ? "expired" : "MISSED");
		if (ms(est) > worst)
			worst = ms(est);
	}
	hogs_kill(&h);

	TH_LOG("%s mode: %d of %d FEASIBLE constraints MET, %d INFEASIBLE, "
	       "%d deadlines passed before the call (ETIME)",
	       smart_mode() ? "all" : "opt-in", met, feasible, infeasible, passed);
	EXPECT_LE(passed, FEASIBLE_RUNS / 50);
	EXPECT_GE(feasible, FEASIBLE_RUNS / 8);
	EXPECT_GE(met * 100, feasible * 99) {
		TH_LOG("expected >= 99%% of the FEASIBLE ones MET, got %d of %d", met, feasible);
	}
}

/*
 * A periodic task between two constraints (sched-smart.rst 2.8): a
 * thread on CPU_T begins one frame (estimate 15 ms, deadline +30 ms,
 * period @period), runs 5 ms of it, ends it and sleeps.  Right after,
 * this thread asks (QUERY) for 50 ms by +100 ms: it would be less
 * important, (v + 50 ms) after (v + 15 ms).  Return: what is available.
 */
struct frame_once {
	long long period;
	pthread_barrier_t *ended;
	pid_t tid;
	int err;
};

static void *frame_once_fn(void *arg)
{
	struct frame_once *f = arg;
	struct smart_constraint c;

	f->tid = sys_gettid();
	f->err = pin_to(0, CPU_T) ? -errno : 0;
	if (!f->err) {
		smart_tc_init(&c, 0, mono_ns() + 30 * MS, 15 * MS, f->period, COOKIE);
		f->err = smart_tc_begin(&c);
	}
	if (!f->err) {
		spin_cpu_ns(5 * MS);
		f->err = smart_tc_end(&c);
	}
	pthread_barrier_wait(f->ended);
	sleep_ns(50 * MS);
	return NULL;
}

static long long available_after_frame(struct __test_metadata *_metadata,
				       long long period)
{
	pthread_barrier_t ended;
	struct frame_once f = { .period = period, .ended = &ended };
	struct smart_constraint c;
	pthread_t th;
	int r;

	ASSERT_EQ(0, pthread_barrier_init(&ended, NULL, 2));
	ASSERT_EQ(0, pthread_create(&th, NULL, frame_once_fn, &f));
	pthread_barrier_wait(&ended);
	/* asleep, not a conventional task runnable ahead of this one */
	while (proc_state(f.tid) != 'S')
		sleep_ns(MS / 2);
	smart_tc_init(&c, SMART_CONSTRAINT_QUERY, mono_ns() + 100 * MS, 50 * MS, 0, COOKIE);
	r = smart_tc_begin(&c);
	pthread_join(th, NULL);
	pthread_barrier_destroy(&ended);
	ASSERT_EQ(0, f.err) {
		TH_LOG("frame thread: %s", strerror(-f.err));
	}
	ASSERT_EQ(0, r) {
		TH_LOG("QUERY: %s", strerror(-r));
	}
	return c.available;
}

/*
 * Its next frame, predicted due at +70 ms with 15 ms, counts: about
 * 100 - (15 + 0.375 * 30) = 74 ms is available, against about 100 ms
 * when the frame was not declared periodic.
 */
TEST(next_frame_counted)
{
	long long periodic, aperiodic;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	SETUP_SELF();
	sleep_ns(50 * MS);	/* let CPU_T settle */
	periodic = available_after_frame(_metadata, 40 * MS);
	sleep_ns(100 * MS);	/* its predicted deadline passes */
	aperiodic = available_after_frame(_metadata, 0);
	TH_LOG("%s mode: available %.3f ms after a periodic frame, %.3f ms after an aperiodic one",
	       smart_mode() ? "all" : "opt-in", ms(periodic), ms(aperiodic));
	EXPECT_GE(aperiodic, 90 * MS);
	EXPECT_GE(periodic, 60 * MS);
	EXPECT_LE(periodic, aperiodic - 20 * MS) {
		TH_LOG("the next periodic frame (15 ms by +70 ms) was not counted");
	}
}

/* ------------------------------------------------------------------ */
/* end: used, status and the constraint that ended                     */

TEST(used_and_status)
{
	struct smart_constraint c, e;
	struct smart_counts b, a;
	long long c0, c0b, c1a, c1;
	int r;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	SETUP_SELF();
	b = smart_counts_self();

	/* spin 20 ms */
	smart_tc_init(&c, 0, mono_ns() + 500 * MS, 25 * MS, 0, COOKIE);
	c0 = thread_cpu_ns();
	r = smart_tc_begin(&c);
	c0b = thread_cpu_ns();
	ASSERT_EQ(0, r);
	spin_cpu_ns(20 * MS);
	e = c;
	c1a = thread_cpu_ns();
	r = smart_tc_end(&e);
	c1 = thread_cpu_ns();
	ASSERT_EQ(0, r) {
		TH_LOG("end: %s", strerror(-r));
	}
	TH_LOG("spin 20 ms: used %.3f ms, CLOCK_THREAD_CPUTIME_ID %.3f ms between the calls, "
	       "%.3f ms including them, status %s", ms(e.used), ms(c1a - c0b), ms(c1 - c0),
	       smart_status_name(e.status));
	EXPECT_TRUE(smart_used_ok(e.used, c1a - c0b, c1 - c0)) {
		TH_LOG("used %.3f ms vs thread CPU time %.3f..%.3f ms: off by more than 2 ms + 5%%",
		       ms(e.used), ms(c1a - c0b), ms(c1 - c0));
	}
	EXPECT_EQ((__u32)SMART_STATUS_MET, e.status);
	EXPECT_EQ(c.flags, e.flags);
	EXPECT_EQ(c.deadline, e.deadline);
	EXPECT_EQ(c.estimate, e.estimate);
	EXPECT_EQ(c.period, e.period);
	EXPECT_EQ(c.cookie, e.cookie);

	/* spin 5, sleep 30, spin 5: used is CPU time, not wall time */
	smart_tc_init(&c, SMART_CONSTRAINT_NOTIFY, mono_ns() + 500 * MS, 20 * MS, 40 * MS,
		      COOKIE + 1);
	c0 = thread_cpu_ns();
	r = smart_tc_begin(&c);
	c0b = thread_cpu_ns();
	ASSERT_EQ(0, r);
	spin_cpu_ns(5 * MS);
	sleep_ns(30 * MS);
	spin_cpu_ns(5 * MS);
	memset(&e, 0, sizeof(e));
	e.size = sizeof(e);
	c1a = thread_cpu_ns();
	r = smart_tc_end(&e);
	c1 = thread_cpu_ns();
	ASSERT_EQ(0, r) {
		TH_LOG("end: %s", strerror(-r));
	}
	TH_LOG("spin 5 + sleep 30 + spin 5 ms: used %.3f ms, CLOCK_THREAD_CPUTIME_ID %.3f ms "
	       "between the calls, %.3f ms including them, status %s", ms(e.used),
	       ms(c1a - c0b), ms(c1 - c0), smart_status_name(e.status));
	EXPECT_TRUE(smart_used_ok(e.used, c1a - c0b, c1 - c0)) {
		TH_LOG("used %.3f ms vs thread CPU time %.3f..%.3f ms: off by more than 2 ms + 5%%",
		       ms(e.used), ms(c1a - c0b), ms(c1 - c0));
	}
	EXPECT_EQ((__u32)SMART_STATUS_MET, e.status);
	/* end fills in the constraint that ended, from a zeroed struct */
	EXPECT_EQ((__u32)SMART_CONSTRAINT_NOTIFY, e.flags);
	EXPECT_EQ(c.deadline, e.deadline);
	EXPECT_EQ(c.estimate, e.estimate);
	EXPECT_EQ(c.period, e.period);
	EXPECT_EQ(c.cookie, e.cookie);

	a = smart_counts_self();
	EXPECT_COUNTS(b, a, 2, 0, 0);
}

/*
 * used counts exactly the thread's own CPU time between begin and end,
 * on every path its run time is charged by: a quantum boundary just
 * before begin (it spins 0.5 to 9.5 ms first, so its quantum ends at
 * any point of the constraint), a preemption by a hog of its policy,
 * five short sleeps (dequeue, the switch after it, a wake-up on any CPU),
 * and the end.  Checked on every one of ITERS constraints against
 * CLOCK_THREAD_CPUTIME_ID within 0.5 ms: at least the time between the
 * calls, at most the time including them.  "pinned": the thread and two
 * hogs share CPU 0 (one CPU's worth); "spread": nothing pinned, so the
 * thread also wakes and is pulled across CPUs.
 */
#define USED_EXACT_ITERS	150
#define USED_EXACT_TOL		(MS / 2)

FIXTURE(used_exact) {
	struct hog_set h;
};

FIXTURE_VARIANT(used_exact) {
	bool pinned;
};

FIXTURE_VARIANT_ADD(used_exact, pinned) {
	.pinned = true,
};

FIXTURE_VARIANT_ADD(used_exact, spread) {
	.pinned = false,
};

FIXTURE_SETUP(used_exact)
{
	unsigned long mask = variant->pinned ? 1UL << CPU_T : 0;
	int i, r;

	hogs_init(&self->h);
	REQUIRE_SMART();
	REQUIRE_ROOT();
	SETUP_SELF();
	ASSERT_EQ(0, pin_mask(0, mask));
	for (i = 0; i < 2; i++) {
		pid_t pid = hog_spawn(&self->h, mask, hog_spin_forever, NULL);

		ASSERT_GT(pid, 0);
		r = smart_set(pid, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, 0, 1024);
		ASSERT_EQ(0, r) {
			TH_LOG("hog %d: smart_setattr: %s", pid, strerror(-r));
		}
	}
	ASSERT_EQ(0, smart_set(0, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, 0, 1024));
	hogs_go(&self->h);
}

FIXTURE_TEARDOWN(used_exact)
{
	hogs_kill(&self->h);
}

TEST_F(used_exact, every_constraint)
{
	long long c0, c0b, c1a, c1, inner, outer;
	long long lo = LLONG_MAX, hi = LLONG_MAX;
	struct smart_constraint c, e;
	int i, k, r, bad = 0;

	for (i = 0; i < USED_EXACT_ITERS; i++) {
		/* 0.5 .. 9.5 ms in 37 steps: the quantum ends anywhere */
		spin_cpu_ns(MS / 2 + (i * 37 % 91) * MS / 10);
		smart_tc_init(&c, 0, mono_ns() + 200 * MS, 10 * MS, 0, COOKIE);
		c0 = thread_cpu_ns();
		r = smart_tc_begin(&c);
		c0b = thread_cpu_ns();
		ASSERT_EQ(0, r) {
			TH_LOG("begin %d: %s", i, strerror(-r));
		}
		spin_cpu_ns(2 * MS);
		for (k = 0; k < 5; k++) {
			sleep_ns(MS / 20);
			spin_cpu_ns(MS / 5);
		}
		e = c;
		c1a = thread_cpu_ns();
		r = smart_tc_end(&e);
		c1 = thread_cpu_ns();
		ASSERT_EQ(0, r) {
			TH_LOG("end %d: %s", i, strerror(-r));
		}
		inner = c1a - c0b;
		outer = c1 - c0;
		if ((long long)e.used < inner - USED_EXACT_TOL ||
		    (long long)e.used > outer + USED_EXACT_TOL) {
			if (bad++ < 5)
				TH_LOG("constraint %d: used %.3f ms, thread CPU time %.3f ms "
				       "between the calls, %.3f ms including them", i,
				       ms(e.used), ms(inner), ms(outer));
		}
		lo = min_ll(lo, (long long)e.used - inner);
		hi = min_ll(hi, outer - (long long)e.used);
	}
	TH_LOG("%s mode, %s: %d of %d constraints off by more than %.1f ms; smallest "
	       "margins: used minus the time between the calls %.3f ms, the time "
	       "including them minus used %.3f ms", smart_mode_name(),
	       variant->pinned ? "pinned with 2 hogs" : "spread with 2 hogs", bad,
	       USED_EXACT_ITERS, ms(USED_EXACT_TOL), ms(lo), ms(hi));
	EXPECT_EQ(0, bad);
}

/* the kernel priority of the calling thread (/proc stat field 18): < 0 for RT */
static int thread_prio(void)
{
	char buf[512], *p;
	int fd, i, prio = INT_MAX;
	ssize_t n;

	fd = open("/proc/thread-self/stat", O_RDONLY);
	if (fd < 0)
		return prio;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return prio;
	buf[n] = 0;
	p = strrchr(buf, ')');
	for (i = 0; p && i < 16; i++)
		p = strchr(p + 1, ' ');
	if (p)
		prio = atoi(p + 1);
	return prio;
}

struct pi_waiter {
	pthread_mutex_t *m;
	sem_t go;
};

static void *pi_waiter_fn(void *arg)
{
	struct pi_waiter *w = arg;

	sem_wait(&w->go);
	pthread_mutex_lock(w->m);
	pthread_mutex_unlock(w->m);
	return NULL;
}

/*
 * A thread under a constraint holds a priority-inheritance mutex that a
 * SCHED_FIFO thread waits for: it runs boosted, out of SCHED_SMART, and
 * that CPU time is still its own and the constraint's.
 */
TEST(used_while_boosted)
{
	long long c0, c0b, c1a, c1, inner, outer;
	long long lo = LLONG_MAX, hi = LLONG_MAX;
	struct sched_param sp = { .sched_priority = 10 };
	struct smart_constraint c, e;
	pthread_mutexattr_t ma;
	pthread_mutex_t m;
	pthread_attr_t ta;
	int i, r, prio, bad = 0;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	SETUP_SELF();
	ASSERT_EQ(0, pthread_mutexattr_init(&ma));
	ASSERT_EQ(0, pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT));
	ASSERT_EQ(0, pthread_mutex_init(&m, &ma));
	ASSERT_EQ(0, pthread_attr_init(&ta));
	ASSERT_EQ(0, pthread_attr_setinheritsched(&ta, PTHREAD_EXPLICIT_SCHED));
	ASSERT_EQ(0, pthread_attr_setschedpolicy(&ta, SCHED_FIFO));
	ASSERT_EQ(0, pthread_attr_setschedparam(&ta, &sp));

	for (i = 0; i < 20; i++) {
		struct pi_waiter w = { .m = &m };
		pthread_t th;
		long long end;

		ASSERT_EQ(0, sem_init(&w.go, 0, 0));
		ASSERT_EQ(0, pthread_mutex_lock(&m));
		ASSERT_EQ(0, pthread_create(&th, &ta, pi_waiter_fn, &w));
		smart_tc_init(&c, 0, mono_ns() + 200 * MS, 10 * MS, 0, COOKIE);
		c0 = thread_cpu_ns();
		r = smart_tc_begin(&c);
		c0b = thread_cpu_ns();
		ASSERT_EQ(0, r);
		sem_post(&w.go);
		end = mono_ns() + NSEC_PER_SEC;
		while ((prio = thread_prio()) >= 0 && mono_ns() < end)
			;
		spin_cpu_ns(3 * MS);
		pthread_mutex_unlock(&m);
		spin_cpu_ns(MS);
		e = c;
		c1a = thread_cpu_ns();
		r = smart_tc_end(&e);
		c1 = thread_cpu_ns();
		pthread_join(th, NULL);
		sem_destroy(&w.go);
		ASSERT_EQ(0, r);
		ASSERT_LT(prio, 0) {
			TH_LOG("the SCHED_FIFO waiter did not boost the holder (prio %d)", prio);
		}
		inner = c1a - c0b;
		outer = c1 - c0;
		if ((long long)e.used < inner - USED_EXACT_TOL ||
		    (long long)e.used > outer + USED_EXACT_TOL) {
			if (bad++ < 5)
				TH_LOG("constraint %d, boosted 3 of 4 ms: used %.3f ms, thread CPU "
				       "time %.3f ms between the calls, %.3f ms including them",
				       i, ms(e.used), ms(inner), ms(outer));
		}
		lo = min_ll(lo, (long long)e.used - inner);
		hi = min_ll(hi, outer - (long long)e.used);
	}
	pthread_mutex_destroy(&m);
	TH_LOG("%s mode: %d of 20 constraints off by more than %.1f ms; smallest margins: "
	       "used minus the time between the calls %.3f ms, the time including them "
	       "minus used %.3f ms", smart_mode_name(), bad, ms(USED_EXACT_TOL), ms(lo),
	       ms(hi));
	EXPECT_EQ(0, bad);
}

TEST(replace_counts)
{
	struct smart_constraint c1, c2, e;
	struct smart_counts b, a;
	long long t0, t0b, t1a, t1;
	int r;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	SETUP_SELF();
	b = smart_counts_self();

	smart_tc_init(&c1, 0, mono_ns() + NSEC_PER_SEC, 30 * MS, 0, COOKIE);
	ASSERT_EQ(0, smart_tc_begin(&c1));
	spin_cpu_ns(20 * MS);
	smart_tc_init(&c2, 0, mono_ns() + 2 * NSEC_PER_SEC, 10 * MS, 20 * MS, COOKIE + 1);
	t0 = thread_cpu_ns();
	r = smart_tc_begin(&c2);
	t0b = thread_cpu_ns();
	ASSERT_EQ(0, r) {
		TH_LOG("begin while active: %s", strerror(-r));
	}
	a = smart_counts_self();
	TH_LOG("after the replacing begin: met %+lld missed %+lld", a.met - b.met,
	       a.missed - b.missed);
	EXPECT_COUNTS(b, a, 1, 0, 0);

	spin_cpu_ns(5 * MS);
	e = c2;
	t1a = thread_cpu_ns();
	r = smart_tc_end(&e);
	t1 = thread_cpu_ns();
	ASSERT_EQ(0, r) {
		TH_LOG("end: %s", strerror(-r));
	}
	TH_LOG("end: cookie %#llx used %.3f ms (CPU since the replacing begin %.3f..%.3f ms)",
	       (unsigned long long)e.cookie, ms(e.used), ms(t1a - t0b), ms(t1 - t0));
	EXPECT_EQ(COOKIE + 1, e.cookie) {
		TH_LOG("end must report the replacing constraint");
	}
	EXPECT_EQ(c2.deadline, e.deadline);
	EXPECT_EQ(c2.estimate, e.estimate);
	EXPECT_EQ(c2.period, e.period);
	EXPECT_EQ((__u32)SMART_STATUS_MET, e.status);
	EXPECT_TRUE(smart_used_ok(e.used, t1a - t0b, t1 - t0)) {
		TH_LOG("used %.3f ms: expected the CPU time since the replacing begin, "
		       "%.3f..%.3f ms", ms(e.used), ms(t1a - t0b), ms(t1 - t0));
	}
	EXPECT_EQ(-ENOENT, smart_tc_end(&e));
	a = smart_counts_self();
	EXPECT_COUNTS(b, a, 2, 0, 0);
}

TEST(expiry_counts)
{
	struct smart_constraint c;
	struct smart_counts b, a;
	long notes0;
	long long end;
	int r;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	SETUP_SELF();
	b = smart_counts_self();
	notes0 = smart_note_count();

	/* sleeping through the deadline */
	smart_tc_init(&c, 0, mono_ns() + 20 * MS, MS, 0, COOKIE);
	ASSERT_EQ(0, smart_tc_begin(&c));
	sleep_ns(50 * MS);
	a = smart_counts_self();
	EXPECT_COUNTS(b, a, 0, 1, 0);
	r = smart_tc_end(&c);
	EXPECT_EQ(-ENOENT, r) {
		TH_LOG("end 30 ms after the deadline: expected ENOENT (expired), got %s/%s",
		       r ? strerror(-r) : "success", smart_status_name(c.status));
	}

	/* spinning through the deadline */
	smart_tc_init(&c, 0, mono_ns() + 20 * MS, 5 * MS, 0, COOKIE + 1);
	ASSERT_EQ(0, smart_tc_begin(&c));
	end = mono_ns() + 50 * MS;
	while (mono_ns() < end)
		;
	r = smart_tc_end(&c);
	EXPECT_EQ(-ENOENT, r) {
		TH_LOG("end 30 ms after the deadline (spinning): expected ENOENT, got %s/%s",
		       r ? strerror(-r) : "success", smart_status_name(c.status));
	}
	a = smart_counts_self();
	EXPECT_COUNTS(b, a, 0, 2, 0);
	EXPECT_EQ(notes0, smart_note_count()) {
		TH_LOG("expiry without SMART_CONSTRAINT_NOTIFY sent a notification");
	}

	/* and the thread goes on as before */
	smart_tc_init(&c, 0, mono_ns() + 100 * MS, MS, 0, COOKIE + 2);
	ASSERT_EQ(0, smart_tc_begin(&c));
	ASSERT_EQ(0, smart_tc_end(&c));
	EXPECT_EQ((__u32)SMART_STATUS_MET, c.status);
	a = smart_counts_self();
	EXPECT_COUNTS(b, a, 1, 2, 0);
}

TEST(bias_zero_while_active)
{
	struct smart_constraint c;
	struct smart_attr a0, a1, a2, a3;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	SETUP_SELF();

	/* ten quanta without sleeping: eq. (4) gives a bias */
	spin_cpu_ns(100 * MS);
	ASSERT_EQ(0, smart_get(0, &a0));
	smart_tc_init(&c, 0, mono_ns() + NSEC_PER_SEC, 100 * MS, 0, COOKIE);
	ASSERT_EQ(0, smart_tc_begin(&c));
	ASSERT_EQ(0, smart_get(0, &a1));
	spin_cpu_ns(30 * MS);
	ASSERT_EQ(0, smart_get(0, &a2));
	spin_cpu_ns(100 * MS);	/* estimate used up, still active */
	ASSERT_EQ(0, smart_get(0, &a3));
	ASSERT_EQ(0, smart_tc_end(&c));
	TH_LOG("bias: before begin %.1f ms; active: at begin %.1f ms, after 30 ms %.1f ms, "
	       "after 130 ms (estimate 100 ms used up) %.1f ms", ms(a0.bias_ns), ms(a1.bias_ns),
	       ms(a2.bias_ns), ms(a3.bias_ns));
	EXPECT_GT(a0.bias_ns, 0ull) {
		TH_LOG("precondition: 100 ms of spinning gave no bias, so this test shows little");
	}
	EXPECT_EQ(0ull, a1.bias_ns);
	EXPECT_EQ(0ull, a2.bias_ns);
	EXPECT_EQ(0ull, a3.bias_ns);
}

/* ------------------------------------------------------------------ */
/* Notifications                                                       */

struct nt_worker {
	/* in */
	const char *name;
	int cpu;
	long long estimate, dl_rel;	/* constraint relative to begin */
	long long spin_wall_past;	/* >= 0: spin (wall) until deadline + this */
	long long work;			/* else spin this much CPU */
	unsigned long long cookie;
	pthread_barrier_t *go;
	/* out */
	pid_t tid;
	int setup_err, begin_r, end_r;
	struct smart_constraint c, e;
	struct smart_counts before, after;
	long notes;
};

static void *nt_worker_fn(void *arg)
{
	struct nt_worker *w = arg;
	long long end;

	w->tid = sys_gettid();
	w->setup_err = pin_to(0, w->cpu) ? -errno : smart_set_signal(SMART_NOTE_SIG);
	w->before = smart_counts_self();
	pthread_barrier_wait(w->go);
	if (w->setup_err)
		return NULL;

	smart_tc_init(&w->c, SMART_CONSTRAINT_NOTIFY, mono_ns() + w->dl_rel, w->estimate,
		      0, w->cookie);
	w->begin_r = smart_tc_begin(&w->c);
	if (w->spin_wall_past >= 0) {
		end = w->c.deadline + w->spin_wall_past;
		while (mono_ns() < end)
			;
	} else {
		spin_cpu_ns(w->work);
	}
	w->e = w->c;
	w->end_r = smart_tc_end(&w->e);
	sleep_ns(50 * MS);	/* signals in flight arrive */
	w->after = smart_counts_self();
	w->notes = smart_note_count();
	return NULL;
}

/*
 * Main thread and two workers on one CPU, all with the same notify
 * signal: A's constraint (estimate 50 ms, deadline +20 ms) is infeasible
 * from the start, B's (5 ms of work, deadline +200 ms) is not.  Only A
 * is notified, once, with INFEASIBLE and its cookie, before its deadline
 * (it is a prediction); at its expiry it is not notified again.
 */
TEST(notify_right_thread)
{
	struct nt_worker w[2] = {
		{ .name = "A", .estimate = 50 * MS, .dl_rel = 20 * MS,
		  .spin_wall_past = 30 * MS, .cookie = COOKIE + 0xa },
		{ .name = "B", .estimate = 5 * MS, .dl_rel = 200 * MS,
		  .spin_wall_past = -1, .work = 5 * MS, .cookie = COOKIE + 0xb },
	};
	struct smart_note_log *log = smart_notes();
	struct smart_counts mb, ma;
	pthread_barrier_t go;
	pthread_t th[2];
	long main_notes;
	int i;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_EQ(0, smart_note_install(SMART_NOTE_SIG));
	/* the main thread waits on the other CPU (if any), with the same signal */
	ASSERT_EQ(0, pin_to(0, controller_cpu()));
	ASSERT_EQ(0, smart_set_signal(SMART_NOTE_SIG));
	mb = smart_counts_self();
	ASSERT_EQ(0, pthread_barrier_init(&go, NULL, 3));
	for (i = 0; i < 2; i++) {
		w[i].cpu = CPU_T;
		w[i].go = &go;
		ASSERT_EQ(0, pthread_create(&th[i], NULL, nt_worker_fn, &w[i]));
	}
	pthread_barrier_wait(&go);
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	main_notes = smart_note_count();
	ma = smart_counts_self();

	for (i = 0; i < 2; i++) {
		TH_LOG("worker %s tid %d: begin %s available %.3f ms %s; end %s%s; notes %ld, "
		       "counters met %+lld missed %+lld notifications %+lld", w[i].name,
		       w[i].tid, w[i].begin_r ? strerror(-w[i].begin_r) : "ok",
		       ms(w[i].c.available), smart_status_name(w[i].c.status),
		       w[i].end_r ? strerror(-w[i].end_r) : "ok ",
		       w[i].end_r ? "" : smart_status_name(w[i].e.status), w[i].notes,
		       w[i].after.met - w[i].before.met,
		       w[i].after.missed - w[i].before.missed,
		       w[i].after.notified - w[i].before.notified);
	}
	for (i = 0; i < log->n && i < SMART_NOTE_MAX; i++)
		TH_LOG("note %d: tid %d signal %d code %s (%d) cookie %#llx at %+.3f ms from A's "
		       "deadline", i, log->note[i].tid, log->note[i].signo,
		       smart_code_name(log->note[i].code), log->note[i].code,
		       log->note[i].cookie, ms(log->note[i].t - (long long)w[0].c.deadline));

	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, w[i].setup_err);
		ASSERT_EQ(0, w[i].begin_r);
	}
	EXPECT_EQ((__u32)SMART_STATUS_INFEASIBLE, w[0].c.status);
	EXPECT_EQ((__u32)SMART_STATUS_FEASIBLE, w[1].c.status);
	EXPECT_EQ(-ENOENT, w[0].end_r) {
		TH_LOG("A ended 30 ms after its deadline: expected ENOENT (expired)");
	}
	EXPECT_EQ(0, w[1].end_r);
	EXPECT_EQ((__u32)SMART_STATUS_MET, w[1].e.status);

	ASSERT_EQ(1, log->n) {
		TH_LOG("expected exactly one notification in the process, got %d", log->n);
	}
	EXPECT_EQ(w[0].tid, log->note[0].tid) {
		TH_LOG("the notification ran in tid %d, expected worker A (%d); B is %d, "
		       "main %d", log->note[0].tid, w[0].tid, w[1].tid, sys_gettid());
	}
	EXPECT_EQ(SMART_NOTE_SIG, log->note[0].signo);
	EXPECT_EQ(SMART_NOTIFY_INFEASIBLE, log->note[0].code);
	EXPECT_EQ(w[0].cookie, log->note[0].cookie);
	EXPECT_LT(log->note[0].t, (long long)w[0].c.deadline) {
		TH_LOG("INFEASIBLE (a prediction) arrived %.3f ms after the deadline",
		       ms(log->note[0].t - (long long)w[0].c.deadline));
	}
	EXPECT_EQ(1, w[0].notes);
	EXPECT_EQ(0, w[1].notes);
	EXPECT_EQ(0, main_notes);
	EXPECT_COUNTS(w[0].before, w[0].after, 0, 1, 1);
	EXPECT_COUNTS(w[1].before, w[1].after, 1, 0, 0);
	EXPECT_COUNTS(mb, ma, 0, 0, 0);
}

TEST(no_notify_when_feasible)
{
	struct smart_constraint c;
	struct smart_counts b, a;
	long notes0;
	int i, met = 0;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	SETUP_SELF();
	b = smart_counts_self();
	notes0 = smart_note_count();
	for (i = 0; i < 10; i++) {
		smart_tc_init(&c, SMART_CONSTRAINT_NOTIFY, mono_ns() + 50 * MS, 5 * MS, 0,
			      COOKIE + i);
		ASSERT_EQ(0, smart_tc_begin(&c));
		EXPECT_EQ((__u32)SMART_STATUS_FEASIBLE, c.status) {
			TH_LOG("round %d: alone, 5 ms in 50 ms: available %.3f ms", i,
			       ms(c.available));
		}
		spin_cpu_ns(5 * MS);
		ASSERT_EQ(0, smart_tc_end(&c));
		met += c.status == SMART_STATUS_MET;
		sleep_ns(10 * MS);
	}
	sleep_ns(50 * MS);
	a = smart_counts_self();
	TH_LOG("10 x (5 ms of 5 ms estimate, deadline +50 ms) alone: %d MET, %ld notifications",
	       met, smart_note_count() - notes0);
	EXPECT_EQ(10, met);
	EXPECT_EQ(notes0, smart_note_count());
	EXPECT_COUNTS(b, a, 10, 0, 0);
}

/* one notification of the constraint begun at t0 with deadline d */
static void check_one_note(struct __test_metadata *_metadata, long notes0, int sig,
			   int code, unsigned long long cookie, long long d)
{
	struct smart_note_log *log = smart_notes();
	struct smart_note *n = &log->note[0];

	ASSERT_EQ(notes0 + 1, smart_note_count()) {
		TH_LOG("expected one notification, got %ld", smart_note_count() - notes0);
	}
	ASSERT_EQ(1, log->n);
	TH_LOG("notification: signal %d code %s (%d) cookie %#llx si_pid %d si_uid %d, "
	       "%+.3f ms from the deadline", n->signo, smart_code_name(n->code), n->code,
	       n->cookie, n->pid, n->uid, ms(n->t - d));
	EXPECT_EQ(sys_gettid(), n->tid);
	EXPECT_EQ(sig, n->signo);
	EXPECT_EQ(code, n->code) {
		TH_LOG("expected %s, got %s", smart_code_name(code), smart_code_name(n->code));
	}
	EXPECT_EQ(cookie, n->cookie);
	EXPECT_EQ(0, n->pid);
	EXPECT_EQ(0u, n->uid);
	if (code == SMART_NOTIFY_EXPIRED) {
		EXPECT_GE(n->t, d) {
			TH_LOG("EXPIRED %.3f ms before the deadline", ms(d - n->t));
		}
		EXPECT_LE(n->t, d + 20 * MS) {
			TH_LOG("EXPIRED %.3f ms after the deadline, expected within 20 ms",
			       ms(n->t - d));
		}
	}
}

/* estimate used up, then asleep through the deadline: EXPIRED */
static void expired_case(struct __test_metadata *_metadata, int sig, bool sleeping)
{
	struct smart_constraint c;
	struct smart_counts b, a;
	long notes0;
	long long end;
	int r;

	ASSERT_EQ(0, pin_to(0, CPU_T));
	ASSERT_EQ(0, smart_note_install(sig));
	ASSERT_EQ(0, smart_set_signal(sig == SIGXCPU ? 0 : sig));
	b = smart_counts_self();
	notes0 = smart_note_count();
	smart_tc_init(&c, SMART_CONSTRAINT_NOTIFY, mono_ns() + 20 * MS, MS, 0, COOKIE + sig);
	ASSERT_EQ(0, smart_tc_begin(&c));
	spin_cpu_ns(2 * MS);	/* the estimate is used up: nothing left to not fit */
	end = c.deadline + 40 * MS;
	if (sleeping) {
		sleep_until_ns(end);
	} else {
		while (mono_ns() < end)
			;
	}
	r = smart_tc_end(&c);
	EXPECT_EQ(-ENOENT, r) {
		TH_LOG("end 40 ms after the deadline: expected ENOENT, got %s",
		       r ? strerror(-r) : "success");
	}
	check_one_note(_metadata, notes0, sig, SMART_NOTIFY_EXPIRED, COOKIE + sig, c.deadline);
	a = smart_counts_self();
	EXPECT_COUNTS(b, a, 0, 1, 1);
}

TEST(expired_sleeping)
{
	REQUIRE_SMART();
	REQUIRE_ROOT();
	expired_case(_metadata, SMART_NOTE_SIG, true);
}

TEST(expired_spinning)
{
	REQUIRE_SMART();
	REQUIRE_ROOT();
	expired_case(_metadata, SMART_NOTE_SIG, false);
}

TEST(expired_default_sigxcpu)
{
	struct smart_attr a;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	expired_case(_metadata, SIGXCPU, true);
	ASSERT_EQ(0, smart_get(0, &a));
	EXPECT_TRUE(a.notify_signal == 0 || a.notify_signal == SIGXCPU);
}

/*
 * Infeasible from the start and asleep past its latest start time, then
 * spinning past the deadline: INFEASIBLE (predicted) or EXPIRED are both
 * allowed, but only one, and INFEASIBLE before the deadline.
 */
TEST(notify_once_either_code)
{
	struct smart_note_log *log = smart_notes();
	struct smart_constraint c;
	struct smart_counts b, a;
	long notes0;
	long long end;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	SETUP_SELF();
	b = smart_counts_self();
	notes0 = smart_note_count();
	smart_tc_init(&c, SMART_CONSTRAINT_NOTIFY, mono_ns() + 20 * MS, 30 * MS, 0, COOKIE);
	ASSERT_EQ(0, smart_tc_begin(&c));
	EXPECT_EQ((__u32)SMART_STATUS_INFEASIBLE, c.status);
	sleep_ns(10 * MS);
	end = c.deadline + 40 * MS;
	while (mono_ns() < end)
		;
	EXPECT_EQ(-ENOENT, smart_tc_end(&c));
	ASSERT_EQ(notes0 + 1, smart_note_count()) {
		TH_LOG("expected exactly one notification, got %ld", smart_note_count() - notes0);
	}
	TH_LOG("code %s at %+.3f ms from the deadline", smart_code_name(log->note[0].code),
	       ms(log->note[0].t - (long long)c.deadline));
	EXPECT_EQ(c.cookie, log->note[0].cookie);
	EXPECT_EQ(sys_gettid(), log->note[0].tid);
	EXPECT_TRUE(log->note[0].code == SMART_NOTIFY_INFEASIBLE ||
		    log->note[0].code == SMART_NOTIFY_EXPIRED) {
		TH_LOG("si_code %d is neither INFEASIBLE nor EXPIRED", log->note[0].code);
	}
	if (log->note[0].code == SMART_NOTIFY_INFEASIBLE) {
		EXPECT_LT(log->note[0].t, (long long)c.deadline);
	} else {
		EXPECT_GE(log->note[0].t, (long long)c.deadline);
	}
	a = smart_counts_self();
	EXPECT_COUNTS(b, a, 0, 1, 1);
}

TEST_HARNESS_MAIN
