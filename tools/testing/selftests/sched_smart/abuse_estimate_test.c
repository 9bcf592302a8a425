// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART abuse by an unprivileged user: time constraints with the
 * largest (and larger) estimates, and constraint calls in a tight loop,
 * leave the victim its part of CPU 0.  The measurement: see abuse.h.
 *
 *   huge_estimate        the original report: begin with estimate 3<<62,
 *                        1<<63 and U64_MAX (deadline 5 s ahead) must fail
 *                        with EINVAL; if 3<<62 is accepted the attacker
 *                        spins under it (begun again when it expires)
 *   largest_estimate     the largest accepted estimate (60 s) with a
 *                        deadline 60 s ahead, begun again when it expires;
 *                        also the other way round: an RT quantum is at
 *                        most 100 ms, so the attacker must not starve for
 *                        the length of its estimate (>= 25% of CPU 0)
 *   largest_estimate_1s  the same with the deadline 1 s ahead
 *   begin_end_loop       begin (estimate 1..10 ms, deadline 2 x estimate
 *                        ahead), spin 300 us, end, in a tight loop
 *   periodic_full_load   back-to-back periodic constraints with period ==
 *                        estimate (load 1.0), 20 ms and 5 ms
 *   query_loop           SMART_CONSTRAINT_QUERY with extreme and ordinary
 *                        estimates: extremes EINVAL, nothing installed
 */
#include "../kselftest_harness.h"
#include "util.h"
#include "abuse.h"

/* the last is the original report's: it is the one left installed */
static const unsigned long long extreme_est[3] = {
	1ULL << 63, ~0ULL, 3ULL << 62,
};

/*
 * Begin with each extreme estimate and attack with the last one accepted.
 * The begins run on the measuring CPU: where the estimate wraps, one of
 * them (1 << 63) puts the caller behind everything for good, and it would
 * wait a second for the starvation rescue before the next call.  Those
 * that are accepted are ended, but the last (the report's 3 << 62), which
 * comes back to CPU 0 with the attacker.
 */
static void atk_huge_estimate(void *p)
{
	struct abuse *s = p;
	struct smart_constraint c;
	unsigned long long use = 0;
	long long dl;
	int i, r;

	abuse_enter_unprivileged(s, ATTACKER);
	if (pin_to(0, s->cpu1))
		abuse_bad(s, "move to CPU %d: %s", s->cpu1, strerror(errno));
	for (i = 0; i < 3; i++) {
		dl = mono_ns() + 5 * NSEC_PER_SEC;
		r = abuse_tc_begin(&c, 0, dl, extreme_est[i], 0);
		s->extreme[i] = r;
		if (r)
			continue;
		use = extreme_est[i];
		if (i < 2 && smart_tc_end(&c))
			abuse_bad(s, "end estimate %#llx: %s", use, strerror(errno));
	}
	if (pin_mask(0, CPU0))
		abuse_bad(s, "back to CPU 0: %s", strerror(errno));
	for (;; s->iters++) {
		if (use && mono_ns() >= dl) {
			dl = mono_ns() + 5 * NSEC_PER_SEC;
			r = abuse_tc_begin(&c, 0, dl, use, 0);
			if (r)
				abuse_bad(s, "begin again with estimate %#llx: %s", use,
					  abuse_err_name(r));
		}
		abuse_spin(s, ATTACKER, MS);
	}
}

/* p[0]: how far ahead the deadline is; estimate 60 s */
static void atk_largest_estimate(void *p)
{
	struct abuse *s = p;
	struct smart_constraint c;
	long long dl = 0;
	int r;

	abuse_enter_unprivileged(s, ATTACKER);
	for (;; s->iters++) {
		if (mono_ns() >= dl) {
			dl = mono_ns() + s->p[0];
			r = abuse_tc_begin(&c, 0, dl, MAX_AHEAD, 0);
			if (abuse_late(s, r)) {
				dl = 0;
			} else if (r) {
				abuse_bad(s, "begin estimate %lld ns deadline %lld ms ahead: "
					  "expected success, got %s", MAX_AHEAD,
					  s->p[0] / MS, abuse_err_name(r));
				dl = mono_ns() + 10 * MS;
			} else {
				s->ok++;
				s->infeasible += c.status == SMART_STATUS_INFEASIBLE;
			}
		}
		abuse_spin(s, ATTACKER, MS);
	}
}

static void atk_begin_end(void *p)
{
	struct abuse *s = p;
	struct smart_constraint c;
	long long est;
	int r;

	abuse_enter_unprivileged(s, ATTACKER);
	for (;; s->iters++) {
		est = (1 + s->iters % 10) * MS;
		r = abuse_tc_begin(&c, 0, mono_ns() + 2 * est, est, 0);
		if (r) {
			if (!abuse_late(s, r))
				abuse_bad(s, "begin estimate %lld ms: %s", est / MS,
					  abuse_err_name(r));
			abuse_spin(s, ATTACKER, 300 * US);
			continue;
		}
		abuse_spin(s, ATTACKER, 300 * US);
		r = smart_tc_end(&c);
		/* ENOENT: preempted past the deadline, it expired */
		if (r && r != -ENOENT)
			abuse_bad(s, "end: expected success or ENOENT, got %s", abuse_err_name(r));
		else
			s->ok++;
	}
}

/* p[0]: period == estimate */
static void atk_periodic(void *p)
{
	struct abuse *s = p;
	long long per = s->p[0], dl, start;
	struct smart_constraint c;
	int r;

	abuse_enter_unprivileged(s, ATTACKER);
	dl = mono_ns() + per;
	for (;; s->iters++) {
		r = abuse_tc_begin(&c, 0, dl, per, per);
		if (abuse_late(s, r)) {
			/* fell behind by a whole period: start over */
			dl = mono_ns() + per;
			continue;
		}
		if (r) {
			abuse_bad(s, "begin periodic estimate = period = %lld ms: %s",
				  per / MS, abuse_err_name(r));
			abuse_spin(s, ATTACKER, MS);
			dl = mono_ns() + per;
			continue;
		}
		s->ok++;
		/* use the whole estimate, or run to the deadline */
		start = thread_cpu_ns();
		while (thread_cpu_ns() - start < per && mono_ns() < dl)
			abuse_spin(s, ATTACKER, 50 * US);
		dl += per;
	}
}

static void atk_query(void *p)
{
	static const long long ahead[2] = { MS, MAX_AHEAD - 10 * MS };
	static const unsigned long long est[4] = {
		MS, SMART_CONSTRAINT_MAX_AHEAD_NS, 3ULL << 62, ~0ULL,
	};
	struct abuse *s = p;
	struct smart_constraint c;
	unsigned long long e;
	int r;

	abuse_enter_unprivileged(s, ATTACKER);
	for (;; s->iters++) {
		e = est[s->iters % 4];
		r = abuse_tc_begin(&c, SMART_CONSTRAINT_QUERY,
				   mono_ns() + ahead[(s->iters / 4) % 2], e, 0);
		/* EINVAL is checked before ETIME */
		if (e > SMART_CONSTRAINT_MAX_AHEAD_NS && r != -EINVAL)
			abuse_bad(s, "QUERY estimate %#llx: expected EINVAL, got %s", e,
				  abuse_err_name(r));
		else if (e <= SMART_CONSTRAINT_MAX_AHEAD_NS && r && !abuse_late(s, r))
			abuse_bad(s, "QUERY estimate %llu: %s", e, abuse_err_name(r));
		else if (e > SMART_CONSTRAINT_MAX_AHEAD_NS || !r)
			s->ok++;
		if (s->iters % 64 == 63) {
			r = smart_tc_end(&c);
			if (r != -ENOENT)
				abuse_bad(s, "end after QUERY only: expected ENOENT, got %s",
					  abuse_err_name(r));
		}
		abuse_spin(s, ATTACKER, 200 * US);
	}
}

TEST_F(abuse, huge_estimate)
{
	struct abuse *s = self->s;
	int i;

	abuse_run(_metadata, self, "huge_estimate", atk_huge_estimate);
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(-EINVAL, s->extreme[i]) {
			TH_LOG("begin with estimate %#llx, deadline 5 s ahead: "
			       "expected EINVAL, got %s", extreme_est[i],
			       abuse_err_name(s->extreme[i]));
		}
	}
	EXPECT_NO_BAD(s);
}

/*
 * Also the other way round (spec: an RT quantum is at most 100 ms): the
 * thread with the largest estimate is not itself starved for the length
 * of its estimate or deadline; it gets a fair part too.
 */
#define ATTACKER_MIN_PCT	25.0

#define EXPECT_ATTACKER_NOT_STARVED(name) do {				\
	EXPECT_GE(self->attacker, ATTACKER_MIN_PCT) {			\
		TH_LOG("%s: the attacker (60 s estimate) got %.1f%% of CPU 0, " \
		       "expected >= %.0f%%: its quantum must be bounded, not " \
		       "its estimate", name, self->attacker, ATTACKER_MIN_PCT); \
	}								\
} while (0)

TEST_F(abuse, largest_estimate)
{
	self->s->p[0] = MAX_AHEAD;
	abuse_run(_metadata, self, "largest_estimate", atk_largest_estimate);
	TH_LOG("%lld begins, %lld INFEASIBLE, %lld late", self->s->ok,
	       self->s->infeasible, self->s->late);
	EXPECT_GT(self->s->ok, 0);
	EXPECT_NO_BAD(self->s);
	EXPECT_ATTACKER_NOT_STARVED("largest_estimate");
}

TEST_F(abuse, largest_estimate_1s)
{
	self->s->p[0] = NSEC_PER_SEC;
	abuse_run(_metadata, self, "largest_estimate_1s", atk_largest_estimate);
	TH_LOG("%lld begins, %lld INFEASIBLE, %lld late", self->s->ok,
	       self->s->infeasible, self->s->late);
	EXPECT_GT(self->s->ok, 0);
	EXPECT_NO_BAD(self->s);
	EXPECT_ATTACKER_NOT_STARVED("largest_estimate_1s");
}

TEST_F(abuse, begin_end_loop)
{
	abuse_run(_metadata, self, "begin_end_loop", atk_begin_end);
	TH_LOG("%lld begin/end pairs", self->s->ok);
	EXPECT_GT(self->s->ok, 100);
	EXPECT_NO_BAD(self->s);
}

TEST_F(abuse, periodic_full_load_20ms)
{
	self->s->p[0] = 20 * MS;
	abuse_run(_metadata, self, "periodic_full_load_20ms", atk_periodic);
	TH_LOG("%lld periods begun", self->s->ok);
	EXPECT_GT(self->s->ok, 10);
	EXPECT_NO_BAD(self->s);
}

TEST_F(abuse, periodic_full_load_5ms)
{
	self->s->p[0] = 5 * MS;
	abuse_run(_metadata, self, "periodic_full_load_5ms", atk_periodic);
	TH_LOG("%lld periods begun", self->s->ok);
	EXPECT_GT(self->s->ok, 10);
	EXPECT_NO_BAD(self->s);
}

TEST_F(abuse, query_loop)
{
	abuse_run(_metadata, self, "query_loop", atk_query);
	TH_LOG("%lld QUERY calls as expected", self->s->ok);
	EXPECT_NO_BAD(self->s);
}

TEST_HARNESS_MAIN
