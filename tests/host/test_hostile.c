// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile inputs to the constraint path of the algorithm: every field of a
 * time constraint at 0, 1, 2^63 and U64_MAX (and the 60 s bound of the
 * API), the estimate that used to make a CPU monopoly, and thousands of
 * constrained tasks on one queue.  The syscalls refuse most of these
 * values; the algorithm must not wrap on them anyway.  Built with ASan and
 * UBSan (tests/host/Makefile).
 */
#include "tap.h"
#include "sim.h"

#define MS(x)		((u64)(x) * 1000000ULL)
#define SEC(x)		((u64)(x) * 1000000000ULL)
#define MAX_AHEAD	SMART_CONSTRAINT_MAX_AHEAD_NS
#define NOW		SEC(1000)	/* a "now" well after boot */

static const struct smart_params params = {
	.quantum_ns = MS(10), .bias_step_ns = MS(10),
	.bias_max_ns = MS(100), .sleep_credit_ns = MS(100),
};

static const u64 extremes[] = {
	0, 1, 1ULL << 63, U64_MAX, MAX_AHEAD, MAX_AHEAD + 1, 3ULL << 62,
};
#define NR_EXTREMES	(sizeof(extremes) / sizeof(extremes[0]))

static void on_queue(struct smart_queue *q, struct smart_entity *se, s32 prio,
		     u32 share)
{
	smart_entity_init(se, prio, share);
	smart_join(q, se, SMART_JOIN_NEW, &params);
}

/*
 * eq. (9) with exact 128-bit sums, for the entries of @ws in deadline
 * order, times to the deadline clamped as the algorithm clamps them (at 2^36
 * ns, beyond anything the API accepts).  @last, inserted last, counts
 * without its future load (§3.4: that counts from the next insertion).
 */
static bool ws_feasible_ref(const struct smart_ws *ws, u64 now,
			    const struct smart_entity *last)
{
	unsigned int i, j;

	for (i = 0; i < ws->nr; i++) {
		const struct smart_tc *ci = &ws->se[i]->tc;
		unsigned __int128 ri = ci->deadline - now, need = 0, f = 0;

		if (ri > (1ULL << 36))
			ri = 1ULL << 36;
		for (j = 0; j <= i; j++) {
			const struct smart_tc *cj = &ws->se[j]->tc;
			unsigned __int128 rj = cj->deadline - now;

			if (rj > (1ULL << 36))
				rj = 1ULL << 36;
			need += smart_tc_left(cj);
			if (ws->se[j] != last)
				f += (unsigned __int128)cj->load * (ri - rj);
		}
		if (need + (f >> SMART_LOAD_SHIFT) > ri)
			return false;
	}
	return true;
}

/*
 * Every field at every extreme, inserted into a schedule that already
 * holds two ordinary constraints: whatever is kept must be feasible by
 * exact arithmetic, an estimate longer than the time to its deadline is
 * never kept, and the prediction never exceeds the time to the deadline.
 */
static void test_extremes(void)
{
	unsigned int d, e, p, u, kept = 0, bad = 0, wrapped = 0, over = 0;
	struct smart_entity base[2], x;
	struct smart_queue q;
	struct smart_ws ws, scratch;

	smart_queue_init(&q);
	on_queue(&q, &base[0], 0, SMART_SHARE_DEFAULT);
	on_queue(&q, &base[1], 0, SMART_SHARE_DEFAULT);
	base[0].tc = (struct smart_tc){ .deadline = NOW + MS(50),
		.estimate = MS(20), .load = smart_tc_load(MS(20), MS(40)) };
	base[1].tc = (struct smart_tc){ .deadline = NOW + SEC(30),
		.estimate = MS(500), .load = smart_tc_load(MS(500), SEC(60)) };

	for (d = 0; d < NR_EXTREMES; d++)
	for (e = 0; e < NR_EXTREMES; e++)
	for (p = 0; p < NR_EXTREMES; p++)
	for (u = 0; u < NR_EXTREMES; u++) {
		u64 deadline = NOW + extremes[d], avail;
		bool in;

		smart_entity_init(&x, 0, SMART_SHARE_DEFAULT);
		x.tc = (struct smart_tc){ .deadline = deadline,
			.estimate = extremes[e], .used = extremes[u],
			.load = smart_tc_load(extremes[e], extremes[p]) };
		if (x.tc.load > SMART_LOAD_ONE)
			bad++;
		ws.nr = 0;
		smart_ws_insert(&ws, &base[0], NOW, NULL);
		smart_ws_insert(&ws, &base[1], NOW, NULL);
		in = smart_ws_insert(&ws, &x, NOW, NULL);
		kept += in;
		if (in && !ws_feasible_ref(&ws, NOW, &x))
			wrapped++;
		if (in && smart_tc_left(&x.tc) > deadline - NOW)
			wrapped++;
		avail = smart_tc_available(&q, &base[0], &x.tc, NOW, &scratch, &params);
		if ((s64)(deadline - NOW) > 0 ? avail > deadline - NOW : avail)
			over++;
	}
	tap_ok(!bad, "extremes: F = estimate / period is at most one CPU for every pair",
	       "%u pairs gave F > 1", bad);
	tap_ok(!wrapped, "extremes: no insertion is kept that exact arithmetic finds infeasible",
	       "%u of %u kept insertions were infeasible (a sum wrapped)", wrapped, kept);
	tap_ok(kept > 0, "extremes: ordinary values among the extremes are still kept",
	       "kept %u of %u combinations", kept, (unsigned int)(NR_EXTREMES * NR_EXTREMES *
						 NR_EXTREMES * NR_EXTREMES));
	tap_ok(!over, "extremes: the prediction never exceeds the time to the deadline",
	       "%u predictions did", over);
}

/* A full schedule (64 entries) at the API's bounds: every sum at its largest. */
static void test_full_schedule_at_bounds(void)
{
	static struct smart_entity se[SMART_WS_MAX + 1];
	struct smart_ws ws = { };
	unsigned int i, kept = 0;

	for (i = 0; i <= SMART_WS_MAX; i++) {
		smart_entity_init(&se[i], 0, SMART_SHARE_DEFAULT);
		/* tiny estimates, period = estimate (F = 1) for one, else F ~ 0 */
		se[i].tc = (struct smart_tc){ .deadline = NOW + MAX_AHEAD - i,
			.estimate = 1, .load = smart_tc_load(1, MAX_AHEAD) };
		kept += smart_ws_insert(&ws, &se[i], NOW, NULL);
	}
	tap_ok(kept == SMART_WS_MAX && ws_feasible_ref(&ws, NOW, NULL),
	       "bounds: 64 constraints 60 s ahead fill the schedule and stay feasible",
	       "expected 64 kept and feasible, seen %u kept", kept);

	for (i = 0; i < SMART_WS_MAX; i++)
		se[i].tc = (struct smart_tc){ .deadline = NOW + MAX_AHEAD,
			.estimate = MAX_AHEAD, .load = SMART_LOAD_ONE };
	ws.nr = 0;
	kept = 0;
	for (i = 0; i < SMART_WS_MAX; i++)
		kept += smart_ws_insert(&ws, &se[i], NOW, NULL);
	tap_eq("bounds: 64 x (60 s by 60 s, F = 1): only the first fits", 1, kept,
	       "kept");
}

/*
 * The report of issue 10: estimate 3 << 62 made beta = v + estimate / S
 * wrap to the earliest value.  With the quantum capped, beta moves by at
 * most 100 ms / S, even at the largest estimate and the smallest share.
 */
static void test_rt_quantum_cap(void)
{
	struct smart_tc tc = { .deadline = NOW + MAX_AHEAD, .estimate = MAX_AHEAD };
	struct smart_entity a, b;
	struct smart_queue q;
	u64 v;

	smart_queue_init(&q);
	on_queue(&q, &a, 0, SMART_SHARE_MIN);
	on_queue(&q, &b, 0, SMART_SHARE_DEFAULT);
	v = smart_vtime(&a);
	smart_tc_begin(&q, &a, &tc);
	tap_ok(a.quantum == SMART_RT_QUANTUM_MAX_NS &&
	       a.bvft - v == SMART_RT_QUANTUM_MAX_NS * SMART_SHARE_DEFAULT,
	       "cap: estimate 60 s at share 1: quantum 100 ms, beta = v + 100 ms * 1024",
	       "seen quantum %llu, beta - v %llu", (unsigned long long)a.quantum,
	       (unsigned long long)(a.bvft - v));
	tap_ok(smart_value_before(&b, &a),
	       "cap: the peer's value stays ahead (no wrap to the earliest value)",
	       "beta a %llu, b %llu", (unsigned long long)a.bvft,
	       (unsigned long long)b.bvft);

	smart_charge(&q, &a, NOW, SMART_RT_QUANTUM_MAX_NS, &params);
	tap_ok(smart_is_rt(&a) && a.quantum == SMART_RT_QUANTUM_MAX_NS &&
	       a.tc.used == SMART_RT_QUANTUM_MAX_NS,
	       "cap: after a 100 ms chunk it is still real-time, with the next 100 ms chunk",
	       "seen rt %d quantum %llu used %llu", smart_is_rt(&a),
	       (unsigned long long)a.quantum, (unsigned long long)a.tc.used);

	smart_queue_init(&q);
	on_queue(&q, &a, 0, SMART_SHARE_DEFAULT);
	tc.estimate = MS(30);
	smart_tc_begin(&q, &a, &tc);
	tap_eq("cap: an ordinary 30 ms estimate is the quantum, as in eq. (3)", MS(30),
	       a.quantum, "ns");
}

/*
 * One CPU, the value order of the algorithm and a decision at every quantum
 * end (as the class's timer does): a task that begins constraints with
 * the largest estimate the API accepts against a conventional peer of
 * the same priority and share.  Each must get about half of 4 s, and
 * the constrained one never more than one capped quantum at a time.
 */
static void test_largest_estimate_split(void)
{
	struct smart_entity a, b, *run;
	struct smart_ws ws, rej;
	struct smart_queue q;
	u64 now = NOW, got[2] = { 0, 0 }, stretch = 0, longest = 0;
	const u64 tick = MS(1);
	int i;

	smart_queue_init(&q);
	on_queue(&q, &a, 0, SMART_SHARE_DEFAULT);
	on_queue(&q, &b, 0, SMART_SHARE_DEFAULT);
	run = smart_pick_tc(&q, now, &ws, &rej);
	for (i = 0; i < 4000; i++) {
		if (!a.tc.deadline) {
			struct smart_tc tc = { .deadline = now + MAX_AHEAD,
					       .estimate = MAX_AHEAD };

			smart_tc_begin(&q, &a, &tc);
			run = smart_pick_tc(&q, now, &ws, &rej);
		}
		now += tick;
		got[run == &b] += tick;
		stretch = run == &a ? stretch + tick : 0;
		longest = max(longest, stretch);
		if (smart_charge(&q, run, now, tick, &params))
			run = smart_pick_tc(&q, now, &ws, &rej);
		if (!smart_is_rt(&a) && a.tc.deadline)
			smart_tc_end(&q, &a, &params);
	}
	tap_pct("largest estimate: the constrained task gets half of 4 s", 50.0,
		100.0 * got[0] / (got[0] + got[1]), 5.0);
	tap_pct("largest estimate: its conventional peer gets half of 4 s", 50.0,
		100.0 * got[1] / (got[0] + got[1]), 5.0);
	tap_ok(longest <= SMART_RT_QUANTUM_MAX_NS,
	       "largest estimate: it never runs more than one 100 ms chunk in a row",
	       "longest stretch %llu ms", (unsigned long long)(longest / MS(1)));
}

/*
 * Thousands of constrained tasks on one queue: the decision and the
 * prediction look at the SMART_WS_MAX most important candidates only.
 */
static void test_bounded_walk(void)
{
	enum { N = 4096 };
	static struct smart_entity se[N];
	struct smart_entity me, conv;
	struct smart_ws ws, rej, scratch;
	struct smart_queue q;
	struct smart_tc tc;
	unsigned int i;

	smart_queue_init(&q);
	for (i = 0; i < N; i++) {
		on_queue(&q, &se[i], 2, SMART_SHARE_DEFAULT);
		/* all infeasible: each needs 2 s by a deadline 1 s ahead */
		tc = (struct smart_tc){ .deadline = NOW + SEC(1), .estimate = SEC(2) };
		smart_tc_begin(&q, &se[i], &tc);
	}
	on_queue(&q, &conv, 0, SMART_SHARE_DEFAULT);
	smart_pick_tc(&q, NOW, &ws, &rej);
	tap_ok(ws.nr == 0 && rej.nr == SMART_WS_MAX,
	       "walk: 4096 infeasible candidates: 64 looked at and rejected, the rest left alone",
	       "expected schedule 0, rejected 64; seen %u, %u", ws.nr, rej.nr);

	on_queue(&q, &me, 1, SMART_SHARE_DEFAULT);
	tc = (struct smart_tc){ .deadline = NOW + SEC(10), .estimate = MS(1) };
	tap_eq("walk: behind more than 64 more important constraints nothing is predicted",
	       0, smart_tc_available(&q, &me, &tc, NOW, &scratch, &params), "ns");
}

int main(void)
{
	test_extremes();
	test_full_schedule_at_bounds();
	test_rt_quantum_cap();
	test_largest_estimate_split();
	test_bounded_walk();
	return tap_done();
}
