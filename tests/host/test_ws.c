// SPDX-License-Identifier: GPL-2.0
/*
 * The best-effort working schedule of §3.4: the resource requirement of
 * a constraint, eq. (8), and the feasibility test of eq. (9), with
 * worked numbers.  Entities are inserted in decreasing value order, as
 * the scheduler does; each test states the sums by hand.
 */
#include "tap.h"
#include "sim.h"

#define MS(x)	((u64)(x) * 1000000ULL)

static struct smart_entity tc_entity(u64 deadline, u64 estimate, u64 used,
				     u64 period)
{
	struct smart_entity se = { };

	se.tc.deadline = deadline;
	se.tc.estimate = estimate;
	se.tc.used = used;
	se.tc.load = smart_tc_load(estimate, period);
	return se;
}

static void test_demand(void)
{
	/* Q 40, E 10, every 80 ms: F = 0.5, D = 100 ms */
	struct smart_entity a = tc_entity(MS(100), MS(40), MS(10), MS(80));

	tap_eq("eq8: F = 40/80 = 0.5 CPU", SMART_LOAD_ONE / 2, a.tc.load, "/2^20");
	tap_eq("eq8: R(D) = Q - E = 30 ms", MS(30), smart_tc_demand(&a.tc, MS(100)), "ns");
	tap_eq("eq8: R(D + 80 ms) = 30 + 0.5 * 80 = 70 ms", MS(70),
	       smart_tc_demand(&a.tc, MS(180)), "ns");
	a.tc.used = MS(50);
	tap_eq("eq8: an overrun estimate leaves 0, not a negative demand", 0,
	       smart_tc_demand(&a.tc, MS(100)), "ns");
	tap_eq("eq8: aperiodic: F = 0", 0, smart_tc_load(MS(40), 0), "/2^20");
	tap_eq("eq8: F is at most one CPU", SMART_LOAD_ONE,
	       smart_tc_load(MS(90), MS(80)), "/2^20");
}

static void test_aperiodic(void)
{
	bool ok;
	struct smart_entity a = tc_entity(MS(80), MS(40), 0, 0);
	struct smart_entity b = tc_entity(MS(100), MS(50), 0, 0);
	struct smart_entity c = tc_entity(MS(90), MS(20), 0, 0);
	struct smart_entity late = tc_entity(MS(30), MS(40), 0, 0);
	struct smart_ws ws = { };

	ok = smart_ws_insert(&ws, &late, 0, NULL);
	tap_ok(!ok && ws.nr == 0,
	       "eq9: alone, 40 ms before a 30 ms deadline is infeasible",
	       "expected rejected, seen nr %u", ws.nr);
	tap_ok(smart_ws_insert(&ws, &a, 0, NULL),
	       "eq9: A (D 80, Q 40): 0 + 40 <= 80", "expected inserted");
	tap_ok(smart_ws_insert(&ws, &b, 0, NULL),
	       "eq9: B (D 100, Q 50): at B 40 + 50 = 90 <= 100", "expected inserted");
	ok = smart_ws_insert(&ws, &c, 0, NULL);
	tap_ok(!ok && ws.nr == 2,
	       "eq9: C (D 90, Q 20) fits at 60 <= 90 but makes B need 110 > 100",
	       "expected rejected, schedule keeps A, B; seen nr %u", ws.nr);
	tap_ok(ws.se[0] == &a && ws.se[1] == &b,
	       "eq9: the schedule is in deadline order A, B",
	       "expected A then B");
}

static void test_periodic_blocks(void)
{
	bool ok;
	/* A: 20 ms every 40 ms (F = 0.5), first deadline 40 ms */
	struct smart_entity a = tc_entity(MS(40), MS(20), 0, MS(40));
	struct smart_entity b_fit = tc_entity(MS(100), MS(50), 0, 0);
	struct smart_entity b_over = tc_entity(MS(100), MS(51), 0, 0);
	struct smart_ws ws = { };
	struct smart_ws alone = { };

	smart_ws_insert(&ws, &a, 0, NULL);
	tap_ok(smart_ws_insert(&ws, &b_fit, 0, NULL),
	       "eq8/9: B Q 50 by 100 after periodic A: 20 + 50 + 0.5 * (100 - 40) = 100 <= 100",
	       "expected inserted (boundary)");
	ws.nr = 1;
	ok = smart_ws_insert(&ws, &b_over, 0, NULL);
	tap_ok(!ok,
	       "eq8/9: B Q 51: 20 + 51 + 30 = 101 > 100, A's future load blocks it",
	       "expected rejected, seen nr %u", ws.nr);
	a.tc.load = 0;
	smart_ws_insert(&alone, &a, 0, NULL);
	tap_ok(smart_ws_insert(&alone, &b_over, 0, NULL),
	       "eq8/9: without the future load the same B fits: 20 + 51 = 71 <= 100",
	       "expected inserted");
}

static void test_lower_value_earlier_deadline(void)
{
	bool ok;
	/* §4.1: the more important A has the later deadline */
	struct smart_entity a = tc_entity(MS(100), MS(50), 0, 0);
	struct smart_entity b = tc_entity(MS(30), MS(20), 0, 0);
	struct smart_entity c = tc_entity(MS(60), MS(40), 0, 0);
	struct smart_ws ws = { };

	smart_ws_insert(&ws, &a, 0, NULL);
	ok = smart_ws_insert(&ws, &b, 0, NULL);
	tap_ok(ok && ws.se[0] == &b,
	       "eq9: less important B (D 30, Q 20) goes first: B 20 <= 30, A 70 <= 100",
	       "expected inserted at the head, seen nr %u", ws.nr);
	tap_ok(!smart_ws_insert(&ws, &c, 0, NULL),
	       "eq9: C (D 60, Q 40) would fit at 60 <= 60 but A then needs 110 > 100",
	       "expected rejected");
}

static void test_figure1_start(void)
{
	bool ok;
	/* Figure 1 at t = 0: A and B need 40 ms every 80 ms, out of phase */
	struct smart_entity a = tc_entity(MS(80), MS(40), 0, MS(80));
	struct smart_entity b = tc_entity(MS(120), MS(40), 0, MS(80));
	struct smart_ws ws = { };

	ok = smart_ws_insert(&ws, &a, 0, NULL) && smart_ws_insert(&ws, &b, 0, NULL);
	tap_ok(ok,
	       "figure 1, t=0: A 40 <= 80; B 40 + 40 + 0.5 * 40 = 100 <= 120",
	       "expected both inserted, seen nr %u", ws.nr);
	tap_ok(ws.se[0] == &a, "figure 1, t=0: A runs first (earliest deadline)",
	       "expected A at the head");
}

static void test_edges(void)
{
	u64 now = (u64)-MS(5);	/* 5 ms before the clock wraps */
	struct smart_entity a = tc_entity(now + MS(10), MS(4), 0, 0);
	struct smart_entity past = tc_entity(now, MS(1), 0, 0);
	struct smart_entity many[SMART_WS_MAX + 1];
	struct smart_ws ws = { };
	unsigned int i;

	tap_ok(smart_ws_insert(&ws, &a, now, NULL),
	       "eq9: a deadline past the u64 wrap is compared wrap-safely",
	       "expected inserted");
	ws.nr = 0;
	tap_ok(!smart_ws_insert(&ws, &past, now, NULL),
	       "eq9: a deadline at now can never be met", "expected rejected");

	for (i = 0; i <= SMART_WS_MAX; i++)
		many[i] = tc_entity(MS(1000 + i), 1000, 0, 0);
	for (i = 0; i <= SMART_WS_MAX; i++)
		smart_ws_insert(&ws, &many[i], 0, NULL);
	tap_eq("eq9: the schedule holds at most SMART_WS_MAX entries",
	       SMART_WS_MAX, ws.nr, "entries");
}

static const struct smart_params params = {
	.quantum_ns = MS(10), .bias_step_ns = MS(10),
	.bias_max_ns = MS(100), .sleep_credit_ns = MS(100),
};

/* A runnable entity of priority @prio on @q, with a constraint if @deadline. */
static void on_queue(struct smart_queue *q, struct smart_entity *se, s32 prio,
		     u64 deadline, u64 estimate)
{
	smart_entity_init(se, prio, SMART_SHARE_DEFAULT);
	se->tc.deadline = deadline;
	se->tc.estimate = estimate;
	smart_join(q, se, SMART_JOIN_NEW, &params);
}

static void test_pick(void)
{
	struct smart_entity a, b, c, conv;
	struct smart_ws ws, rej;
	struct smart_queue q;
	struct smart_entity *pick;

	smart_queue_init(&q);
	on_queue(&q, &conv, 1, 0, 0);
	on_queue(&q, &a, 0, MS(10), MS(5));
	pick = smart_pick_tc(&q, 0, &ws, &rej);
	tap_ok(pick == &conv && ws.nr == 0,
	       "3.2 step 1: the highest value tuple is conventional: run it",
	       "expected the prio-1 conventional task, working schedule empty (nr %u)", ws.nr);

	smart_queue_init(&q);
	on_queue(&q, &a, 1, MS(100), MS(50));
	on_queue(&q, &b, 0, MS(30), MS(20));
	on_queue(&q, &conv, -1, 0, 0);
	pick = smart_pick_tc(&q, 0, &ws, &rej);
	tap_ok(pick == &b && ws.nr == 2 && rej.nr == 0,
	       "3.2 step 3, 4.1: lower-priority B (D 30) runs first, A (D 100) still fits",
	       "expected B; schedule %u, rejected %u", ws.nr, rej.nr);

	smart_queue_init(&q);
	on_queue(&q, &a, 1, MS(100), MS(50));
	on_queue(&q, &b, 0, MS(60), MS(55));
	on_queue(&q, &conv, -1, 0, 0);
	pick = smart_pick_tc(&q, 0, &ws, &rej);
	tap_ok(pick == &a && ws.nr == 1 && rej.nr == 1 && rej.se[0] == &b,
	       "3.2 step 3: B would make A need 105 > 100: A runs, B is the one to notify",
	       "expected A, schedule 1, rejected {B}; seen schedule %u, rejected %u",
	       ws.nr, rej.nr);

	smart_queue_init(&q);
	on_queue(&q, &a, 1, MS(100), MS(50));
	on_queue(&q, &conv, 0, 0, 0);
	on_queue(&q, &c, -1, MS(5), MS(1));
	pick = smart_pick_tc(&q, 0, &ws, &rej);
	tap_ok(pick == &a && ws.nr == 1,
	       "3.2 step 2: candidates stop at the best conventional task (C below it is not one)",
	       "expected A alone in the schedule, seen %u", ws.nr);

	smart_queue_init(&q);
	on_queue(&q, &a, 0, MS(10), MS(40));
	on_queue(&q, &b, -1, MS(5), MS(20));
	pick = smart_pick_tc(&q, 0, &ws, &rej);
	tap_ok(pick == &a && ws.nr == 0 && rej.nr == 2,
	       "3.2 step 4: nothing feasible and no conventional task: run the most important",
	       "expected A (work conserving), schedule 0, rejected 2; seen %u, %u",
	       ws.nr, rej.nr);

	/*
	 * A departure from §3.4, which would run the conventional task here
	 * and leave A waiting for its deadline (sched-smart.rst 2.7).
	 */
	smart_queue_init(&q);
	on_queue(&q, &a, 1, MS(10), MS(40));
	on_queue(&q, &b, 0, MS(5), MS(20));
	on_queue(&q, &conv, -1, 0, 0);
	pick = smart_pick_tc(&q, 0, &ws, &rej);
	tap_ok(pick == &a && ws.nr == 0 && rej.nr == 2,
	       "3.2 step 4: nothing feasible, a less important conventional task: still run the most important",
	       "expected A (value order), schedule 0, rejected 2; seen %s, %u, %u",
	       pick == &conv ? "the conventional task" : pick == &b ? "B" : "A",
	       ws.nr, rej.nr);

	smart_queue_init(&q);
	on_queue(&q, &a, 0, MS(50), MS(5));
	on_queue(&q, &b, 0, MS(40), MS(5));
	tap_ok(smart_pick(&q) == &b,
	       "3.6: equal BVFTs of real-time tasks: the earlier deadline has the higher value",
	       "expected B (D 40) before A (D 50)");
}

/*
 * The slack of the decided schedule: how long another task may run
 * before one of its entries would be late (eq. (9) at each deadline).
 */
static void test_slack(void)
{
	struct smart_entity a, b, conv;
	struct smart_queue q;

	smart_queue_init(&q);
	on_queue(&q, &conv, -1, 0, 0);
	smart_decide(&q, 0);
	tap_ok(q.ws.nr == 0 && smart_ws_slack(&q, 0) >= MS(60000),
	       "slack: no schedule, nothing to wait for",
	       "expected no bound (>= 60 s), seen %llu (schedule %u)",
	       (unsigned long long)smart_ws_slack(&q, 0), q.ws.nr);

	/* B (D 30, R 20) then A (D 100, R 50): min(30 - 20, 100 - 70) = 10 */
	smart_queue_init(&q);
	on_queue(&q, &a, 1, MS(100), MS(50));
	on_queue(&q, &b, 0, MS(30), MS(20));
	on_queue(&q, &conv, -1, 0, 0);
	smart_decide(&q, 0);
	tap_ok(q.ws.nr == 2 && smart_ws_slack(&q, 0) == MS(10),
	       "slack: B (D 30, 20 left) and A (D 100, 50 left): 10 ms",
	       "expected 10 ms, seen %llu ns (schedule %u)",
	       (unsigned long long)smart_ws_slack(&q, 0), q.ws.nr);
	/* 4 ms later, with B run 4 ms: min(26 - 16, 96 - 66) = 10 */
	b.tc.used = MS(4);
	tap_ok(smart_ws_slack(&q, MS(4)) == MS(10),
	       "slack: the head running does not change it",
	       "expected 10 ms, seen %llu ns", (unsigned long long)smart_ws_slack(&q, MS(4)));
	/* 4 ms later, B not run: min(26 - 20, 96 - 70) = 6 */
	b.tc.used = 0;
	tap_ok(smart_ws_slack(&q, MS(4)) == MS(6),
	       "slack: time given elsewhere comes off it",
	       "expected 6 ms, seen %llu ns", (unsigned long long)smart_ws_slack(&q, MS(4)));
	tap_ok(smart_ws_slack(&q, MS(12)) == 0,
	       "slack: 0 once an entry is late",
	       "expected 0, seen %llu ns", (unsigned long long)smart_ws_slack(&q, MS(12)));
}

static void test_rt_bvft(void)
{
	struct smart_entity a, c;
	struct smart_tc tc = { .deadline = MS(80), .estimate = MS(40) };
	struct smart_queue q;
	u64 used;

	smart_queue_init(&q);
	on_queue(&q, &a, 0, 0, 0);
	on_queue(&q, &c, 0, 0, 0);
	smart_charge(&q, &a, MS(10), MS(10), &params);	/* A: quantum done, bias 10 */
	tap_eq("3.3: conventional A after one quantum: beta = 10 + 10 + 10 (bias) ms",
	       MS(30), a.bvft, "ns");
	smart_tc_begin(&q, &a, &tc);
	tap_ok(a.bias == 0 && a.quantum == MS(40) && a.bvft == MS(10 + 40),
	       "3.3: a constraint makes A real-time: no bias, quantum = estimate, beta = v + 40 ms",
	       "expected bias 0, Q 40 ms, beta 50 ms; seen bias %llu, Q %llu, beta %llu",
	       (unsigned long long)a.bias, (unsigned long long)a.quantum,
	       (unsigned long long)a.bvft);
	smart_charge(&q, &a, MS(50), MS(40), &params);
	tap_ok(a.bias == 0 && a.bvft == MS(50 + 10) && a.tc.used == MS(40) &&
	       !smart_is_rt(&a),
	       "3.3/eq4: the estimate used up: no bias, a conventional quantum next (beta 50 + 10 ms), no longer a candidate",
	       "expected bias 0, beta 60 ms, used 40 ms, not rt; seen %llu, %llu, %llu, rt %d",
	       (unsigned long long)a.bias, (unsigned long long)a.bvft,
	       (unsigned long long)a.tc.used, smart_is_rt(&a));
	smart_charge(&q, &a, MS(55), MS(5), &params);
	used = smart_tc_end(&q, &a, &params);
	tap_eq("end: the CPU used under the constraint is reported", MS(45), used, "ns");
	tap_ok(!a.tc.deadline && a.quantum == MS(10) && a.exec == MS(5) &&
	       a.bvft == MS(55 + 5),
	       "end: back to conventional at v = 55 ms in the quantum it is in: beta stays 60 ms",
	       "expected Q 10 ms, E 5 ms, beta 60 ms; seen Q %llu, E %llu, beta %llu",
	       (unsigned long long)a.quantum, (unsigned long long)a.exec,
	       (unsigned long long)a.bvft);

	/* Early ends: the rest of the estimate, at most quantum_ns (10 ms) */
	tc.estimate = MS(8);
	tc.deadline = MS(200);
	smart_tc_begin(&q, &a, &tc);
	smart_charge(&q, &a, MS(62), MS(7), &params);
	smart_tc_end(&q, &a, &params);
	tap_ok(a.bias == 0 && a.bvft == MS(62 + 1) && !smart_is_rt(&a),
	       "end: 7 of an 8 ms estimate used: the 1 ms left is the quantum (beta = v + 1 ms), not a fresh 10 ms",
	       "expected bias 0, beta 63 ms; seen bias %llu, beta %llu",
	       (unsigned long long)a.bias, (unsigned long long)a.bvft);
	smart_charge(&q, &a, MS(63), MS(1), &params);
	tap_ok(a.quantum == MS(10) && a.exec == 0 && a.bvft == MS(63 + 10 + 10),
	       "end: that quantum completed: eq. (4), a fresh conventional quantum with bias",
	       "expected Q 10 ms, beta 83 ms; seen Q %llu, E %llu, beta %llu",
	       (unsigned long long)a.quantum, (unsigned long long)a.exec,
	       (unsigned long long)a.bvft);
	tc.estimate = MS(40);
	tc.deadline = MS(300);
	smart_tc_begin(&q, &a, &tc);
	smart_charge(&q, &a, MS(68), MS(5), &params);
	smart_tc_end(&q, &a, &params);
	tap_ok(a.quantum == MS(15) && a.exec == MS(5) && a.bvft == MS(68 + 10),
	       "end: 5 of a 40 ms estimate used: 35 ms left, cut to quantum_ns (beta = v + 10 ms)",
	       "expected Q 15 ms, E 5 ms, beta 78 ms; seen Q %llu, E %llu, beta %llu",
	       (unsigned long long)a.quantum, (unsigned long long)a.exec,
	       (unsigned long long)a.bvft);
}

/* smart_tc_available() of @me (on @q) for a constraint (D, Q, period). */
static u64 avail(struct smart_queue *q, struct smart_entity *me, u64 d, u64 est,
		 u64 period)
{
	struct smart_tc tc = { .deadline = d, .estimate = est,
			       .load = smart_tc_load(est, period) };
	struct smart_ws scratch;

	return smart_tc_available(q, me, &tc, 0, &scratch, &params);
}

static void test_available(void)
{
	struct smart_entity me, x, y, conv;
	struct smart_queue q;

	smart_queue_init(&q);
	on_queue(&q, &me, 0, 0, 0);
	tap_eq("available: alone, the whole 100 ms to the deadline", MS(100),
	       avail(&q, &me, MS(100), MS(10), 0), "ns");

	on_queue(&q, &x, 1, MS(30), MS(20));
	tap_eq("available: a more important constraint due first needs 20 ms: 100 - 20",
	       MS(80), avail(&q, &me, MS(100), MS(10), 0), "ns");

	smart_queue_init(&q);
	on_queue(&q, &me, 0, 0, 0);
	on_queue(&q, &x, 1, MS(100), MS(60));
	tap_eq("available: a more important one due later keeps its slack: min(50, 100 - 60)",
	       MS(40), avail(&q, &me, MS(50), MS(10), 0), "ns");

	smart_queue_init(&q);
	on_queue(&q, &me, 0, 0, 0);
	on_queue(&q, &x, 1, MS(20), MS(10));
	x.tc.load = smart_tc_load(MS(10), MS(20));
	tap_eq("available: eq8 future load of a periodic one (10 every 20 ms, D 20): 100 - (10 + 0.5 * 80)",
	       MS(50), avail(&q, &me, MS(100), MS(10), 0), "ns");

	smart_queue_init(&q);
	on_queue(&q, &me, 0, 0, 0);
	on_queue(&q, &y, 1, MS(200), MS(100));
	tap_eq("available: its own periodic load (10 every 40 ms) counts only from the next insertion (3.4): 200 - 100",
	       MS(100), avail(&q, &me, MS(100), MS(10), MS(40)), "ns");

	smart_queue_init(&q);
	on_queue(&q, &me, 0, 0, 0);
	on_queue(&q, &conv, 1, 0, 0);
	tap_eq("available: a runnable conventional task of a higher priority takes it all",
	       0, avail(&q, &me, MS(100), MS(10), 0), "ns");

	/* sched_smart=all puts kernel threads at the top priority */
	conv.kthread_prio = true;
	tap_eq("available: a kernel thread above it by sched_smart=all takes a quantum: 100 - 10",
	       MS(90), avail(&q, &me, MS(100), MS(10), 0), "ns");
	on_queue(&q, &y, 1, 0, 0);
	y.kthread_prio = true;
	tap_eq("available: two such kernel threads take a quantum each: 100 - 2 * 10",
	       MS(80), avail(&q, &me, MS(100), MS(10), 0), "ns");
	on_queue(&q, &x, 1, MS(30), MS(20));
	tap_eq("available: and a more important constraint due first keeps its 20 ms: 100 - 20 - 2 * 10",
	       MS(60), avail(&q, &me, MS(100), MS(10), 0), "ns");
	tap_eq("available: behind two kernel threads, 20 ms to the deadline leave nothing",
	       0, avail(&q, &me, MS(20), MS(10), 0), "ns");
	y.kthread_prio = false;
	tap_eq("available: a task at that priority by anyone's choice still takes it all",
	       0, avail(&q, &me, MS(100), MS(10), 0), "ns");

	smart_queue_init(&q);
	on_queue(&q, &me, 0, 0, 0);
	on_queue(&q, &conv, 0, 0, 0);	/* beta 10 ms */
	tap_eq("available: not a candidate (beta 0 + 20 > 10 ms of a conventional peer): 100 - its 10 ms quantum",
	       MS(90), avail(&q, &me, MS(100), MS(20), 0), "ns");

	/* me at v = 40 ms: beta 50 ms as a real-time task with Q 10 ms */
	smart_leave(&q, &me);
	me.delta = MS(40);
	smart_join(&q, &me, SMART_JOIN_MOVE, &params);
	tap_eq("available: a conventional peer 40 ms behind runs its quantum and 3 more first: 100 - 40",
	       MS(60), avail(&q, &me, MS(100), MS(10), 0), "ns");
	on_queue(&q, &x, 0, MS(200), MS(5));	/* beta 5 ms, before conv */
	tap_eq("available: a constraint before that peer runs whole first, due later or not: 100 - 5 - 40",
	       MS(55), avail(&q, &me, MS(100), MS(10), 0), "ns");

	/* y: behind me as a real-time task (beta 60), ahead as conventional (10) */
	smart_queue_init(&q);
	on_queue(&q, &me, 0, 0, 0);
	smart_leave(&q, &me);
	me.delta = MS(5);
	smart_join(&q, &me, SMART_JOIN_MOVE, &params);
	on_queue(&q, &y, 0, MS(50), MS(60));
	tap_eq("available: a less important one due first comes back ahead if it misses (beta 10 < 15): 100 - 15",
	       MS(85), avail(&q, &me, MS(100), MS(10), 0), "ns");

	smart_queue_init(&q);
	on_queue(&q, &me, 0, 0, 0);
	on_queue(&q, &conv, 0, 0, 0);	/* beta 10 ms */
	tap_eq("available: a candidate (beta 0 + 5 < 10 ms): the working schedule's 100 ms",
	       MS(100), avail(&q, &me, MS(100), MS(5), 0), "ns");
	tap_eq("available: a deadline already past leaves nothing", 0,
	       smart_tc_available(&q, &me, &(struct smart_tc){ .deadline = MS(1),
			.estimate = MS(1) }, MS(2), &(struct smart_ws){ }, &params), "ns");
}

int main(void)
{
	test_rt_bvft();
	test_available();
	test_pick();
	test_slack();
	test_demand();
	test_aperiodic();
	test_periodic_blocks();
	test_lower_value_earlier_deadline();
	test_figure1_start();
	test_edges();
	return tap_done();
}
