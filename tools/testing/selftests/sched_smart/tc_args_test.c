// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART time constraints (sched-smart.rst §4.3): argument handling of
 * smart_constraint_begin()/smart_constraint_end().  Every rejected row of
 * the table is one variant of tc_bad: the errno, and that the rejected call
 * changes nothing (no constraint installed or ended, no counter moved).
 * Then what is accepted at the limits (sizes above the struct with a zero
 * tail, a deadline 59 s ahead, period == estimate) and end with no
 * constraint active (ENOENT).
 *
 * Every test SKIPs when the kernel has no SCHED_SMART.
 */
#include <sys/mman.h>
#include "../kselftest_harness.h"
#include "util.h"
#include "tc.h"

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
static void *bad_arg(FIXTURE_DATA(tc_bad) * self, const FIXTURE_VARIANT(tc_bad) * v)
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
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
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

TEST_HARNESS_MAIN
