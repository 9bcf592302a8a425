// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART bounded waiting: the quantum of a constraint with a large
 * estimate (up to the largest accepted, INFEASIBLE) is capped, so the
 * thread neither holds a CPU nor starves.
 *
 * Every test SKIPs when the kernel has no SCHED_SMART.
 */
#include "../kselftest_harness.h"
#include "util.h"
#include "harden.h"

#define RT_QUANTUM_MAX	(100 * MS)	/* SMART_RT_QUANTUM_MAX_NS (spec §1) */

/*
 * Bounded waiting whatever the estimate.  The RT quantum is capped in the
 * value (SMART_RT_QUANTUM_MAX_NS, 100 ms): a thread with a large estimate
 * spinning on one CPU beside an equal-share hog takes turns with it of
 * about 100 ms.  The constrained thread drops to nobody before it begins
 * (a thread already in SCHED_SMART needs no privilege).  Each of the two
 * records the gaps in its own progress (the time the other held the CPU)
 * and must get its part of the CPU.  Without the cap the BVFT is
 * v + estimate / S and the thread starves for the length of its estimate.
 *
 *   est60_dl30	the largest estimate, beyond its deadline (INFEASIBLE)
 *   est30_dl60	feasible, over 12 s: the thread gets >= 45%
 *   est2_dl4	feasible, the whole constraint in the window
 */
#define CAP_CPU		0
#define CAP_LONG_GAP	(250 * MS)	/* 100 ms turns + TCG noise */

struct cap_worker {
	int constrained;
	long long estimate, ahead;
	int begun;
	int err;
	unsigned int status;
	long long last;		/* last time it ran */
	long long max_gap;	/* longest gap inside the window */
	long long long_gaps;	/* gaps > CAP_LONG_GAP inside the window */
};

struct cap_shared {
	long long start, stop;
	struct cap_worker w[2];
};

static struct cap_shared *cap;

static void cap_gap(struct cap_worker *w, long long from, long long to)
{
	long long start = __atomic_load_n(&cap->start, __ATOMIC_RELAXED);
	long long stop = __atomic_load_n(&cap->stop, __ATOMIC_RELAXED);
	long long gap;

	if (!start)
		return;
	gap = (to < stop ? to : stop) - (from > start ? from : start);
	if (gap > w->max_gap)
		__atomic_store_n(&w->max_gap, gap, __ATOMIC_RELAXED);
	if (gap > CAP_LONG_GAP)
		__atomic_store_n(&w->long_gaps, w->long_gaps + 1, __ATOMIC_RELAXED);
}

static void cap_body(void *arg)
{
	struct cap_worker *w = arg;
	struct smart_constraint c;
	long long last, t;

	if (w->constrained) {
		w->err = -drop_to_nobody();
		if (!w->err) {
			smart_tc_init(&c, 0, mono_ns() + w->ahead, w->estimate, 0, COOKIE);
			w->err = smart_constraint_begin(&c, 0) ? errno : 0;
			w->status = c.status;
		}
		__atomic_store_n(&w->begun, 1, __ATOMIC_RELEASE);
	}
	last = mono_ns();
	for (;;) {
		t = mono_ns();
		if (t - last > 50000)		/* off the CPU for > 50 us */
			cap_gap(w, last, t);
		last = t;
		__atomic_store_n(&w->last, t, __ATOMIC_RELAXED);
	}
}

FIXTURE(bounds_wait) {
	struct hog_set h;
};

FIXTURE_VARIANT(bounds_wait) {
	long long estimate, ahead;	/* of the constraint */
	long long window;		/* measured, from 300 ms after begin */
	long long min_pct;		/* of each of the two */
};

FIXTURE_VARIANT_ADD(bounds_wait, est60_dl30) {
	.estimate = MAX_AHEAD, .ahead = 30 * SEC, .window = 4 * SEC, .min_pct = 30 };
FIXTURE_VARIANT_ADD(bounds_wait, est30_dl60) {
	.estimate = 30 * SEC, .ahead = MAX_AHEAD, .window = 12 * SEC, .min_pct = 45 };
FIXTURE_VARIANT_ADD(bounds_wait, est2_dl4) {
	.estimate = 2 * SEC, .ahead = 4 * SEC, .window = 3500 * MS, .min_pct = 40 };

FIXTURE_SETUP(bounds_wait)
{
	hogs_init(&self->h);
	REQUIRE_SMART();
	REQUIRE_ROOT();
	cap = shared_alloc(sizeof(*cap));
	ASSERT_NE(NULL, cap);
}

FIXTURE_TEARDOWN_PARENT(bounds_wait)
{
	hogs_kill(&self->h);
	if (cap)
		munmap(cap, sizeof(*cap));
	cap = NULL;
}

TEST_F(bounds_wait, turns)
{
	struct hog_set *h = &self->h;
	long long t0, t1, dl, share[2];
	int i, r;

	controller_setup(controller_cpu());
	cap->w[0].constrained = 1;
	cap->w[0].estimate = variant->estimate;
	cap->w[0].ahead = variant->ahead;
	for (i = 0; i < 2; i++) {
		pid_t pid = hog_spawn(h, 1UL << CAP_CPU, cap_body, &cap->w[i]);

		ASSERT_GT(pid, 0);
		r = smart_set(pid, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, 0, 1024);
		ASSERT_EQ(0, r) {
			TH_LOG("worker %d: smart_setattr(prio 0, share 1024): %s", pid,
			       strerror(-r));
		}
	}
	hogs_go(h);
	dl = mono_ns() + 2 * SEC;
	while (!__atomic_load_n(&cap->w[0].begun, __ATOMIC_ACQUIRE) && mono_ns() < dl)
		sleep_ns(MS);
	ASSERT_TRUE(cap->w[0].begun) {
		TH_LOG("the constrained worker did not begin its constraint within 2 s");
	}
	ASSERT_EQ(0, cap->w[0].err) {
		TH_LOG("begin as nobody, estimate %.0f ms, deadline +%.0f ms: expected success, "
		       "got %s", smart_ms(variant->estimate), smart_ms(variant->ahead),
		       strerror(cap->w[0].err));
	}
	TH_LOG("%s mode, estimate %.0f ms, deadline +%.0f ms, as nobody: status %s",
	       smart_mode_name(), smart_ms(variant->estimate), smart_ms(variant->ahead),
	       smart_status_name(cap->w[0].status));

	sleep_ns(300 * MS);
	t0 = hogs_sample(h, h->cpu0);
	__atomic_store_n(&cap->stop, t0 + variant->window, __ATOMIC_RELAXED);
	__atomic_store_n(&cap->start, t0, __ATOMIC_RELEASE);
	sleep_until_ns(t0 + variant->window);
	t1 = hogs_sample(h, h->cpu1);
	sleep_ns(20 * MS);
	hogs_kill(h);
	for (i = 0; i < 2; i++) {
		long long last = cap->w[i].last;

		/* a worker that did not run again: its gap lasts to the end */
		if (last < t0 + variant->window)
			cap_gap(&cap->w[i], last, t0 + variant->window);
		share[i] = (h->cpu1[i] - h->cpu0[i]) * 100 / (t1 - t0);
	}

	for (i = 0; i < 2; i++) {
		const char *who = i ? "equal hog" : "constrained thread";

		TH_LOG("%s: %lld%% of CPU %d in %.0f ms, longest gap %.1f ms, %lld gaps > %.0f ms",
		       who, share[i], CAP_CPU, smart_ms(t1 - t0), smart_ms(cap->w[i].max_gap),
		       cap->w[i].long_gaps, smart_ms(CAP_LONG_GAP));
		EXPECT_GE(share[i], variant->min_pct) {
			TH_LOG("%s: expected >= %lld%% of the CPU, got %lld%%", who,
			       variant->min_pct, share[i]);
		}
		EXPECT_LE(cap->w[i].long_gaps, 2) {
			TH_LOG("%s waited > %.0f ms for the CPU %lld times: expected turns of "
			       "about %.0f ms (at most 2 longer ones for host stalls)", who,
			       smart_ms(CAP_LONG_GAP), cap->w[i].long_gaps,
			       smart_ms(RT_QUANTUM_MAX));
		}
		EXPECT_LE(cap->w[i].max_gap, SEC) {
			TH_LOG("%s: longest wait %.1f ms, expected below 1 s", who,
			       smart_ms(cap->w[i].max_gap));
		}
	}
}

TEST_HARNESS_MAIN
