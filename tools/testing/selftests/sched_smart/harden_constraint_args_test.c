// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART constraint begin/end refuse bad arguments and change
 * nothing: an estimate or period above 60 s and the wrapping values are
 * EINVAL (begin and QUERY, nothing installed), while the largest accepted
 * estimate is accepted and INFEASIBLE; begin/end with a struct that ends
 * in a read-only page are EFAULT and change nothing.
 *
 * Every test SKIPs when the kernel has no SCHED_SMART.
 */
#include "../kselftest_harness.h"
#include "util.h"
#include "harden.h"

/* Estimate / period bounds */
FIXTURE(bounds) {};
FIXTURE_VARIANT(bounds) {
	unsigned int cflags;
	unsigned long long estimate;	/* 0: 1 ms */
	unsigned long long period;
};

FIXTURE_SETUP(bounds)
{
	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_EQ(0, smart_set(0, SMART_ATTR_PRIORITY, 0, 0));
}

FIXTURE_TEARDOWN(bounds) {}

#define EST(name, q, e)	FIXTURE_VARIANT_ADD(bounds, name) { .cflags = (q), .estimate = (e) }
#define PER(name, q, p)	FIXTURE_VARIANT_ADD(bounds, name) { .cflags = (q), .period = (p) }
#define BQ		SMART_CONSTRAINT_QUERY

EST(estimate_60s_plus_1,	0, SMART_CONSTRAINT_MAX_AHEAD_NS + 1);
EST(estimate_61s,		0, 61ULL * SEC);
EST(estimate_3_shl_62,		0, 3ULL << 62);
EST(estimate_2p63,		0, 1ULL << 63);
EST(estimate_u64_max,		0, ~0ULL);
PER(period_60s_plus_1,		0, SMART_CONSTRAINT_MAX_AHEAD_NS + 1);
PER(period_3_shl_62,		0, 3ULL << 62);
PER(period_u64_max,		0, ~0ULL);
EST(query_estimate_60s_plus_1,	BQ, SMART_CONSTRAINT_MAX_AHEAD_NS + 1);
EST(query_estimate_3_shl_62,	BQ, 3ULL << 62);
EST(query_estimate_2p63,	BQ, 1ULL << 63);
EST(query_estimate_u64_max,	BQ, ~0ULL);
PER(query_period_60s_plus_1,	BQ, SMART_CONSTRAINT_MAX_AHEAD_NS + 1);
PER(query_period_u64_max,	BQ, ~0ULL);

/*
 * A begin that failed (@what) installed nothing: the met/missed counters
 * did not move, and an end finds no constraint.
 */
static void expect_nothing_installed(struct __test_metadata *_metadata,
				     const struct smart_counts *before,
				     const char *what)
{
	struct smart_counts after = smart_counts_self();
	struct smart_constraint c;
	int r;

	EXPECT_TRUE(after.met == before->met && after.missed == before->missed) {
		TH_LOG("counters moved by %s: met %+lld missed %+lld, expected 0 0", what,
		       after.met - before->met, after.missed - before->missed);
	}
	smart_tc_init(&c, 0, mono_ns() + SEC, MS, 0, 0);
	r = smart_tc_end(&c);
	EXPECT_EQ(-ENOENT, r) {
		TH_LOG("end after %s: expected ENOENT, got %s (it installed a constraint "
		       "with estimate %#llx, cookie %#llx)", what,
		       r ? strerror(-r) : "success", (unsigned long long)c.estimate,
		       (unsigned long long)c.cookie);
	}
}

TEST_F(bounds, einval_nothing_installed)
{
	unsigned long long est = variant->estimate ?: (unsigned long long)MS;
	struct smart_counts before;
	struct smart_constraint c;
	int r;

	before = smart_counts_self();
	ASSERT_LE(0, before.met);
	smart_tc_init(&c, variant->cflags, mono_ns() + SEC, 0, 0, COOKIE);
	c.estimate = est;
	c.period = variant->period;
	r = smart_tc_begin(&c);
	EXPECT_EQ(-EINVAL, r) {
		TH_LOG("%s estimate %#llx period %#llx, deadline +1 s: expected EINVAL, got %s "
		       "(available %llu status %s)", variant->cflags ? "QUERY" : "begin",
		       est, (unsigned long long)variant->period,
		       r ? strerror(-r) : "success", (unsigned long long)c.available,
		       smart_status_name(c.status));
	}
	expect_nothing_installed(_metadata, &before, "the rejected begin");
}

/* The largest accepted estimate is accepted and reported INFEASIBLE. */
TEST(bounds_max_estimate_infeasible)
{
	static const struct {
		unsigned int cflags;
		long long ahead, period;
	} row[] = {
		{ 0, 1 * SEC, 0 },
		{ SMART_CONSTRAINT_QUERY, 1 * SEC, 0 },
		{ 0, 30 * SEC, MAX_AHEAD },
		{ SMART_CONSTRAINT_QUERY, 30 * SEC, MAX_AHEAD },
	};
	struct smart_constraint c;
	unsigned int i;
	long long t0;
	int r;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_EQ(0, smart_set(0, SMART_ATTR_PRIORITY, 0, 0));
	for (i = 0; i < ARRAY_SIZE(row); i++) {
		const char *what = row[i].cflags ? "QUERY" : "begin";

		t0 = mono_ns();
		smart_tc_init(&c, row[i].cflags, t0 + row[i].ahead, MAX_AHEAD,
			      row[i].period, COOKIE + i);
		r = smart_tc_begin(&c);
		ASSERT_EQ(0, r) {
			TH_LOG("%s estimate 60 s, deadline +%.0f s, period %.0f s: expected success, got %s",
			       what, smart_ms(row[i].ahead) / 1000,
			       smart_ms(row[i].period) / 1000, strerror(-r));
		}
		EXPECT_EQ((__u32)SMART_STATUS_INFEASIBLE, c.status) {
			TH_LOG("%s estimate 60 s, deadline +%.0f s: expected INFEASIBLE, got %s "
			       "(available %.3f ms)", what, smart_ms(row[i].ahead) / 1000,
			       smart_status_name(c.status), smart_ms(c.available));
		}
		EXPECT_LE((long long)c.available, row[i].ahead) {
			TH_LOG("%s: available %.3f ms is more than the %.3f ms to the deadline (wrap?)",
			       what, smart_ms(c.available), smart_ms(row[i].ahead));
		}
		if (!row[i].cflags) {
			r = smart_tc_end(&c);
			EXPECT_EQ(0, r) {
				TH_LOG("end of the 60 s constraint: %s", strerror(-r));
			}
			EXPECT_EQ((__u32)SMART_STATUS_MET, c.status);
		}
	}
}

/* EFAULT means nothing changed */
FIXTURE(efault) {
	unsigned char *map;
	long pg;
};

FIXTURE_VARIANT(efault) {
	bool end;
	unsigned int writable;	/* bytes of the struct in the writable page */
};

FIXTURE_SETUP(efault)
{
	self->map = MAP_FAILED;
	REQUIRE_SMART();
	REQUIRE_ROOT();
	self->pg = sysconf(_SC_PAGESIZE);
	self->map = mmap(NULL, 2 * self->pg, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->map);
	ASSERT_EQ(0, smart_set(0, SMART_ATTR_PRIORITY, 0, 0));
}

FIXTURE_TEARDOWN(efault)
{
	if (self->map != MAP_FAILED)
		munmap(self->map, 2 * self->pg);
}

FIXTURE_VARIANT_ADD(efault, begin_8)	{ .writable = 8 };
FIXTURE_VARIANT_ADD(efault, begin_16)	{ .writable = 16 };
FIXTURE_VARIANT_ADD(efault, begin_48)	{ .writable = 48 };
FIXTURE_VARIANT_ADD(efault, end_8)	{ .end = true, .writable = 8 };
FIXTURE_VARIANT_ADD(efault, end_16)	{ .end = true, .writable = 16 };
FIXTURE_VARIANT_ADD(efault, end_48)	{ .end = true, .writable = 48 };

TEST_F(efault, straddles_read_only_page)
{
	struct smart_constraint *c, ok;
	struct smart_counts before, after;
	int r, err;

	/* a valid constraint whose tail lies in a read-only page */
	c = (void *)(self->map + self->pg - variant->writable);
	smart_tc_init(c, 0, mono_ns() + 2 * SEC, MS, 0, COOKIE + 1);
	ASSERT_EQ(0, mprotect(self->map + self->pg, self->pg, PROT_READ));

	if (variant->end) {
		smart_tc_init(&ok, 0, mono_ns() + 5 * SEC, MS, 0, COOKIE);
		ASSERT_EQ(0, smart_tc_begin(&ok));
	}
	before = smart_counts_self();
	ASSERT_LE(0, before.met);
	r = variant->end ? smart_constraint_end(c, 0) : smart_constraint_begin(c, 0);
	err = r ? errno : 0;
	EXPECT_EQ(EFAULT, err) {
		TH_LOG("%s with the struct's last %u bytes read-only: expected EFAULT, got %s",
		       variant->end ? "end" : "begin", 64 - variant->writable,
		       err ? strerror(err) : "success");
	}

	if (!variant->end) {
		expect_nothing_installed(_metadata, &before, "the faulting begin");
		return;
	}
	smart_tc_init(&ok, 0, mono_ns() + SEC, MS, 0, 0);
	r = smart_tc_end(&ok);
	EXPECT_EQ(0, r) {
		TH_LOG("end with a good struct after the faulting end: expected success, got %s "
		       "(the faulting end ended the constraint)", r ? strerror(-r) : "success");
	}
	if (!r) {
		EXPECT_EQ(COOKIE, ok.cookie);
		EXPECT_EQ((__u32)SMART_STATUS_MET, ok.status);
	}
	after = smart_counts_self();
	EXPECT_EQ(1, (after.met + after.missed) - (before.met + before.missed)) {
		TH_LOG("faulting end + good end: counters met %+lld missed %+lld, expected one in total",
		       after.met - before.met, after.missed - before.missed);
	}
}

TEST_HARNESS_MAIN
