// SPDX-License-Identifier: GPL-2.0
/*
 * The BVFT equations of Nieh & Lam (SOSP '97) §3.3 with worked numbers.
 *
 * Units: time in ns, virtual time in virtual ns (CPU ns of a share-1024
 * task).  Q = 10 ms, b = 10 ms, bias bounded by 100 ms, sleep credit
 * 100 ms unless a case says otherwise.  S' below is S / 1024, so a
 * virtual interval is x / S'.  Every expected number is worked out by
 * hand in the comment next to it.
 */
#include "tap.h"
#include "sim.h"

#define MS(x)	SIM_MS(x)

static const struct smart_params P = {
	.quantum_ns = MS(10),
	.bias_step_ns = MS(10),
	.bias_max_ns = MS(100),
	.sleep_credit_ns = MS(100),
};

static char nbuf[256];
#define NAME(...) (snprintf(nbuf, sizeof(nbuf), __VA_ARGS__), nbuf)

static struct smart_level *lvl(struct smart_queue *q, s32 prio)
{
	return &q->level[prio - SMART_PRIO_MIN];
}

/* "A", "B" or "C" for messages */
static const char *ename(const struct smart_entity *se, const struct smart_entity *a,
			 const struct smart_entity *b, const struct smart_entity *c)
{
	if (!se)
		return "NULL";
	return se == a ? "A" : se == b ? "B" : se == c ? "C" : "another";
}

static void join_new(struct smart_queue *q, struct smart_entity *se, s32 prio,
		     u32 share)
{
	smart_entity_init(se, prio, share);
	smart_join(q, se, SMART_JOIN_NEW, &P);
}

/* Charge @se for [from, to) in 1 ms ticks, as the tick would; returns quanta completed. */
static int charge_ticks(struct smart_queue *q, struct smart_entity *se,
			u64 from, u64 to, const struct smart_params *p)
{
	int done = 0;

	while (from < to) {
		u64 next = from + MS(1) < to ? from + MS(1) : to;

		done += smart_charge(q, se, next, next - from, p);
		from = next;
	}
	return done;
}

/* ---- eq. (3): beta = V_P + Q / S' ------------------------------------- */

static const struct eq3_case {
	s32 prio;
	u32 share;
	u64 vtime;	/* V_P before the join */
	u64 bvft;	/* expected beta */
} eq3_cases[] = {
	{ 0, 1024, 0, MS(10) },			/* 0 + 10 ms / 1 */
	{ 0, 2048, 0, MS(5) },			/* 0 + 10 ms / 2 */
	{ 0, 512, 0, MS(20) },			/* 0 + 10 ms / 0.5 */
	{ 0, 3072, 0, 3333333 },		/* 10 ms / 3 = 3333333.3, floored */
	{ 3, 1024, MS(7), MS(17) },		/* 7 ms + 10 ms */
	{ SMART_PRIO_MIN, SMART_SHARE_MIN, 0, 10240000000ULL },	/* 10 ms * 1024 / 1 */
	{ SMART_PRIO_MAX, SMART_SHARE_MAX, 0, 9765 },	/* 10 ms * 1024 / 2^20 = 9765.6 */
};

static void test_eq3(void)
{
	struct smart_queue q;
	struct smart_entity a, b;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(eq3_cases); i++) {
		const struct eq3_case *c = &eq3_cases[i];

		smart_queue_init(&q);
		lvl(&q, c->prio)->vtime = c->vtime;
		join_new(&q, &a, c->prio, c->share);
		tap_eq(NAME("eq3: prio %d share %u at V=%llu: beta = V + Q/S'",
			    c->prio, c->share, (unsigned long long)c->vtime),
		       c->bvft, a.bvft, "ns");
	}

	/* The brief's pair: S=1024 and S=2048 join one queue at V=0. */
	smart_queue_init(&q);
	join_new(&q, &a, 0, 1024);
	join_new(&q, &b, 0, 2048);
	tap_eq("eq3: S=1024 at V=0 -> beta 10 ms", MS(10), a.bvft, "ns");
	tap_eq("eq3: S=2048 at V=0 -> beta 5 ms", MS(5), b.bvft, "ns");
	tap_ok(a.bias == 0 && a.exec == 0 && a.quantum == MS(10) && a.delta == 0,
	       "eq3: a new entity has no bias, no execution, quantum Q, delta 0",
	       "expected bias 0 exec 0 quantum 10000000 delta 0, seen bias %llu exec %llu quantum %llu delta %lld",
	       (unsigned long long)a.bias, (unsigned long long)a.exec,
	       (unsigned long long)a.quantum, (long long)a.delta);
	tap_eq("eq3: level sum of shares 1024 + 2048", 3072,
	       lvl(&q, 0)->shares >> SMART_SHARE_SHIFT, "shares");
	tap_ok(smart_pick(&q) == &b, "eq3: the earlier BVFT (S=2048, 5 ms) is picked",
	       "expected the S=2048 entity, seen the S=%u entity",
	       smart_pick(&q) ? smart_user_share(smart_pick(&q)->share) : 0);
}

/* ---- eqs. (1), (2): v += t / S', V_P += t * 1024 / sum(S) ------------- */

static void test_eq1_eq2(void)
{
	struct smart_queue q;
	struct smart_entity a, b;
	bool done;

	smart_queue_init(&q);
	join_new(&q, &a, 0, 1024);
	join_new(&q, &b, 0, 2048);

	/* A runs 3 ms: V += 3 ms * 1024 / 3072 = 1 ms; v_A += 3 ms / 1 */
	done = smart_charge(&q, &a, MS(3), MS(3), &P);
	/*
	 * 1 ms exactly in rationals; the fixed-point inverse floor(2^62/3072)
	 * makes it 999999 ns: allow 1 ns.
	 */
	tap_near("eq2: 1024+2048 on a level, A runs 3 ms: V advances 3 ms*1024/3072 = 1 ms",
		 MS(1), lvl(&q, 0)->vtime, 1, "ns");
	tap_eq("eq1: v_A = 3 ms / 1 = 3 ms", MS(3), smart_vtime(&a), "ns");
	tap_eq("eq1: v_B unchanged (0) while A runs", 0, smart_vtime(&b), "ns");
	tap_ok(!done && a.bvft == MS(10),
	       "VFT property: beta does not move within a quantum",
	       "expected no quantum completed and beta 10000000, seen completed=%d beta %llu",
	       done, (unsigned long long)a.bvft);

	/* B runs 3 ms: V += 1 ms -> 2 ms; v_B = 3 ms / 2 = 1.5 ms */
	smart_charge(&q, &b, MS(6), MS(3), &P);
	tap_near("eq2: then B runs 3 ms: V = 2 ms", MS(2), lvl(&q, 0)->vtime, 2, "ns");
	tap_eq("eq1: v_B = 3 ms / 2 = 1.5 ms", 1500000, smart_vtime(&b), "ns");

	/* Power-of-two sum: exact.  1024+1024: 4 ms -> V += 2 ms. */
	smart_queue_init(&q);
	join_new(&q, &a, 0, 1024);
	join_new(&q, &b, 0, 1024);
	smart_charge(&q, &a, MS(4), MS(4), &P);
	tap_eq("eq2: 1024+1024, A runs 4 ms: V = 4 ms * 1024/2048 = 2 ms exactly",
	       MS(2), lvl(&q, 0)->vtime, "ns");

	/* An idle level does not move: charging prio 1 leaves V_0 alone. */
	{
		struct smart_entity c;

		join_new(&q, &c, 1, 1024);
		smart_charge(&q, &c, MS(9), MS(5), &P);
		tap_eq("eq2: V_0 does not advance while a prio-1 entity runs",
		       MS(2), lvl(&q, 0)->vtime, "ns");
		tap_eq("eq2: V_1 = 5 ms (c alone on its level)", MS(5),
		       lvl(&q, 1)->vtime, "ns");
	}
}

/* ---- eq. (4): beta += Q / S' + b / S' per quantum, bias bounded --------- */

static const struct eq4_case {
	u32 share;
	u64 step, max;	/* b and the bias bound */
	int quanta;
	u64 bvft;	/* expected beta after @quanta quanta, joined at V=0 */
	u64 bias;
} eq4_cases[] = {
	/* beta = (n + 1) * Q/S' + sum(b)/S' */
	{ 1024, MS(10), MS(100), 1, MS(30), MS(10) },	/* 10 + 10 + 10 */
	{ 1024, MS(10), MS(100), 10, MS(210), MS(100) },	/* 10 + 100 + 100 */
	{ 1024, MS(10), MS(100), 11, MS(220), MS(100) },	/* bias saturated: + 10 only */
	{ 2048, MS(10), MS(100), 1, MS(15), MS(10) },	/* 5 + 5 + 5 */
	{ 2048, MS(10), MS(100), 12, MS(115), MS(100) },	/* 5 + 60 + 100/2 */
	{ 512, MS(10), MS(100), 3, MS(140), MS(30) },	/* 20 + 60 + 30*2 */
	{ 1024, MS(30), MS(100), 3, MS(130), MS(90) },	/* 10 + 30 + 90 */
	{ 1024, MS(30), MS(100), 4, MS(150), MS(100) },	/* last step clipped: 10 + 40 + 100 */
	{ 1024, 0, 0, 5, MS(60), 0 },			/* no bias: plain VFT */
};

static void test_eq4(void)
{
	struct smart_queue q;
	struct smart_entity a;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(eq4_cases); i++) {
		const struct eq4_case *c = &eq4_cases[i];
		struct smart_params p = P;
		int done;

		p.bias_step_ns = c->step;
		p.bias_max_ns = c->max;
		smart_queue_init(&q);
		join_new(&q, &a, 0, c->share);
		done = charge_ticks(&q, &a, 0, c->quanta * MS(10), &p);
		tap_ok(done == c->quanta && a.bvft == c->bvft &&
		       a.bias == c->bias && a.exec == 0,
		       NAME("eq4: S=%u b=%llu ms max=%llu ms after %d quanta", c->share,
			    (unsigned long long)(c->step / MS(1)),
			    (unsigned long long)(c->max / MS(1)), c->quanta),
		       "expected %d quanta, beta %llu, bias %llu, exec 0; seen %d, %llu, %llu, %llu",
		       c->quanta, (unsigned long long)c->bvft,
		       (unsigned long long)c->bias, done,
		       (unsigned long long)a.bvft, (unsigned long long)a.bias,
		       (unsigned long long)a.exec);
	}

	/* One 25 ms charge completes two quanta and keeps 5 ms toward the third. */
	smart_queue_init(&q);
	join_new(&q, &a, 0, 1024);
	smart_charge(&q, &a, MS(25), MS(25), &P);
	/* beta = 10 + 2 * (10 + 10) = 50; v = 50 - (10 - 5) - 20 = 25 */
	tap_ok(a.bvft == MS(50) && a.bias == MS(20) && a.exec == MS(5) &&
	       smart_vtime(&a) == MS(25),
	       "eq4: a 25 ms charge completes 2 quanta (beta 50 ms, bias 20, E 5, v 25)",
	       "expected beta 50000000 bias 20000000 exec 5000000 v 25000000, seen %llu %llu %llu %llu",
	       (unsigned long long)a.bvft, (unsigned long long)a.bias,
	       (unsigned long long)a.exec, (unsigned long long)smart_vtime(&a));
}

/* ---- eqs. (5)-(7): leave records delta, rejoin restores it ------------- */

/*
 * Common start: A, B share 1024 join at V=0 (sum 2048).  A runs 10 ms:
 * V = 5 ms, quantum done, beta_A = 10 + 10 + 10 = 30 ms, B_A = 10 ms.
 * A runs 4 ms more: V = 7 ms, E_A = 4 ms.
 * eq. (6): v_A = 30 - (10 - 4) - 10 = 14 ms.
 */
static void setup_a14(struct smart_queue *q, struct smart_entity *a,
		      struct smart_entity *b)
{
	smart_queue_init(q);
	join_new(q, a, 0, 1024);
	join_new(q, b, 0, 1024);
	smart_charge(q, a, MS(10), MS(10), &P);
	smart_charge(q, a, MS(14), MS(4), &P);
}

static const struct rejoin_case {
	const char *name;
	enum smart_join how;
	u64 bvft, bias, exec;
} rejoin_cases[] = {
	/* eq. (7): beta = V + delta + Q/S' = 13 + 7 + 10; B = 0, E = 0 */
	{ "eq7: JOIN_WAKE: beta = V + delta + Q/S' = 13+7+10 ms, B=0, E=0",
	  SMART_JOIN_WAKE, MS(30), 0, 0 },
	/* migration keeps progress: beta = 13 + 7 + (10 + 10 - 4) = 36 */
	{ "JOIN_MOVE: beta = V + delta + (Q + B - E)/S' = 13+7+16 ms, B and E kept",
	  SMART_JOIN_MOVE, MS(36), MS(10), MS(4) },
};

static void test_eq5_7(void)
{
	struct smart_queue q;
	struct smart_entity a, b;
	size_t i;

	setup_a14(&q, &a, &b);
	tap_eq("eq6: v = beta - (Q - E)/S' - B/S' = 30 - 6 - 10 = 14 ms",
	       MS(14), smart_vtime(&a), "ns");
	tap_eq("setup: V = 14 ms * 1024/2048 = 7 ms", MS(7), lvl(&q, 0)->vtime, "ns");

	for (i = 0; i < ARRAY_SIZE(rejoin_cases); i++) {
		const struct rejoin_case *c = &rejoin_cases[i];

		setup_a14(&q, &a, &b);
		smart_leave(&q, &a);
		/* eq. (5): delta = v - V = 14 - 7 = 7 ms */
		tap_ok(a.delta == (s64)MS(7) && a.state == SMART_SE_OFF && !a.queue &&
		       lvl(&q, 0)->shares == smart_core_share(1024) && lvl(&q, 0)->nr == 1,
		       "eq5: leave: delta = v - V = 14 - 7 = 7 ms, off the queue",
		       "expected delta 7000000, OFF, level shares 1024 nr 1; seen delta %lld state %u shares %llu nr %u",
		       (long long)a.delta, a.state,
		       (unsigned long long)lvl(&q, 0)->shares >> SMART_SHARE_SHIFT, lvl(&q, 0)->nr);
		tap_eq("lag of a departed entity = -delta * S' = -7 ms",
		       -(s64)MS(7), smart_lag_ns(&a), "ns");
		/* B alone 6 ms: V = 7 + 6 = 13 ms */
		smart_charge(&q, &b, MS(20), MS(6), &P);
		smart_join(&q, &a, c->how, &P);
		tap_ok(a.bvft == c->bvft && a.bias == c->bias && a.exec == c->exec,
		       c->name,
		       "expected beta %llu bias %llu exec %llu, seen %llu %llu %llu",
		       (unsigned long long)c->bvft, (unsigned long long)c->bias,
		       (unsigned long long)c->exec, (unsigned long long)a.bvft,
		       (unsigned long long)a.bias, (unsigned long long)a.exec);
		tap_ok(smart_vtime(&a) == MS(20) && smart_lag_ns(&a) == -(s64)MS(7),
		       NAME("%s: v = V + delta = 20 ms, lag kept at -7 ms",
			    c->how == SMART_JOIN_WAKE ? "eq7" : "move"),
		       "expected v 20000000 lag -7000000, seen v %llu lag %lld",
		       (unsigned long long)smart_vtime(&a), (long long)smart_lag_ns(&a));
	}
}

/* ---- sleeping: on the queue for the credit, then eq. (5) ---------------- */

static void test_sleep(void)
{
	struct smart_queue q;
	struct smart_entity a, b;
	struct smart_params p0 = P;

	/* Short sleep: A (v 14 ms, beta 30, B 10, E 4) sleeps at 14 ms for 50 ms. */
	setup_a14(&q, &a, &b);
	smart_sleep(&q, &a, MS(14), &P);
	tap_ok(a.state == SMART_SE_SLEEPING && a.queue == &q &&
	       lvl(&q, 0)->shares == smart_core_share(2048) && q.nr_runnable == 1 && q.nr_queued == 2,
	       "sleep: a sleeper stays on its queue, its share still counted",
	       "expected SLEEPING, shares 2048, runnable 1, queued 2; seen state %u shares %llu runnable %u queued %u",
	       a.state, (unsigned long long)lvl(&q, 0)->shares >> SMART_SHARE_SHIFT, q.nr_runnable,
	       q.nr_queued);
	/* B runs 50 ms: V = 7 + 50 * 1024/2048 = 32 ms (A's share still slows V) */
	charge_ticks(&q, &b, MS(14), MS(64), &P);
	tap_eq("sleep: V = 7 + 50/2 = 32 ms while A sleeps on the queue",
	       MS(32), lvl(&q, 0)->vtime, "ns");
	smart_wake(&q, &a, MS(64), &P);
	/* still on the queue: v kept (14), bias reset: beta = 30 - 10 = 20, E kept */
	tap_ok(a.state == SMART_SE_RUNNABLE && a.bvft == MS(20) && a.bias == 0 &&
	       a.exec == MS(4) && smart_vtime(&a) == MS(14),
	       "wake within credit: v kept (14 ms), bias reset: beta 30 - 10 = 20 ms",
	       "expected RUNNABLE beta 20000000 bias 0 exec 4000000 v 14000000, seen state %u %llu %llu %llu %llu",
	       a.state, (unsigned long long)a.bvft, (unsigned long long)a.bias,
	       (unsigned long long)a.exec, (unsigned long long)smart_vtime(&a));
	tap_eq("wake within credit: keeps its credit, lag = 32 - 14 = 18 ms",
	       MS(18), smart_lag_ns(&a), "ns");

	/* Long sleep: A sleeps at 14 ms for 200 ms; credit expires at 114 ms. */
	setup_a14(&q, &a, &b);
	smart_sleep(&q, &a, MS(14), &P);
	charge_ticks(&q, &b, MS(14), MS(214), &P);
	/* V(114) = 7 + 100/2 = 57; delta = 14 - 57 = -43; then alone: V = 57 + 100 = 157 */
	tap_ok(a.state == SMART_SE_OFF && a.delta == -(s64)MS(43),
	       "credit expired at 114 ms: left with delta = 14 - 57 = -43 ms",
	       "expected OFF delta -43000000, seen state %u delta %lld",
	       a.state, (long long)a.delta);
	tap_eq("after expiry B is alone: V = 57 + 100 = 157 ms", MS(157),
	       lvl(&q, 0)->vtime, "ns");
	smart_wake(&q, &a, MS(214), &P);
	/* eq. (7): beta = 157 - 43 + 10 = 124 ms */
	tap_eq("wake after expiry: eq7 beta = 157 - 43 + 10 = 124 ms", MS(124),
	       a.bvft, "ns");
	tap_eq("wake after expiry: lag = credit's worth only, 43 ms (not 157 - 14 = 143)",
	       MS(43), smart_lag_ns(&a), "ns");

	/* sleep_credit_ns = 0: leave at once. */
	p0.sleep_credit_ns = 0;
	setup_a14(&q, &a, &b);
	smart_sleep(&q, &a, MS(14), &p0);
	tap_ok(a.state == SMART_SE_OFF && a.delta == (s64)MS(7) &&
	       lvl(&q, 0)->shares == smart_core_share(1024),
	       "no sleep credit: a sleeper leaves at once with delta 7 ms",
	       "expected OFF delta 7000000 shares 1024, seen state %u delta %lld shares %llu",
	       a.state, (long long)a.delta, (unsigned long long)lvl(&q, 0)->shares >> SMART_SHARE_SHIFT);
}

/* ---- the credit bound on wake-up, and yield ------------------------------ */

/*
 * A waking entity keeps at most sleep_credit_ns (100 ms) of CPU lag; the
 * credit it forfeits goes back to the others (the share-weighted lags
 * still sum to 0).
 */
static void test_credit_bound(void)
{
	struct smart_queue q;
	struct smart_entity a, b;
	s64 la, lb;

	/*
	 * Still on the queue: A, B 1024 at V=0.  B runs 300 ms while A
	 * waits: V = 150 ms, lag_A = +150 ms.  A sleeps at 300 ms (on the
	 * queue), B runs to 310 ms: V = 155, lag_A = 155 ms > 100.
	 * Bounded: lag_A = 100 ms, so lag_B = -100 ms (sum 0):
	 * v_A + x = V + x * 1024/2048 - 100  ->  x = 110, V = 210, v_A = 110.
	 */
	smart_queue_init(&q);
	join_new(&q, &a, 0, 1024);
	join_new(&q, &b, 0, 1024);
	charge_ticks(&q, &b, 0, MS(300), &P);
	smart_sleep(&q, &a, MS(300), &P);
	charge_ticks(&q, &b, MS(300), MS(310), &P);
	tap_eq("credit bound: before the wake-up lag_A = 310/2 = 155 ms", MS(155),
	       smart_lag_ns(&a), "ns");
	smart_wake(&q, &a, MS(310), &P);
	la = smart_lag_ns(&a);
	lb = smart_lag_ns(&b);
	tap_eq("credit bound: a waking sleeper keeps at most sleep_credit (100 ms) of lag",
	       MS(100), la, "ns");
	tap_eq("credit bound: what it forfeits goes back, lag_A + lag_B = 0", 0, la + lb, "ns");

	/*
	 * Off the queue: A leaves with delta = 0 - 200 = -200 ms (B ran
	 * 400 ms, V = 200).  JOIN_WAKE, eq. (7), keeps at most 100 ms of it:
	 * beta = 200 - 100 + 10 = 110 ms.  JOIN_MOVE (migration) keeps all.
	 */
	smart_queue_init(&q);
	join_new(&q, &a, 0, 1024);
	join_new(&q, &b, 0, 1024);
	charge_ticks(&q, &b, 0, MS(400), &P);
	smart_leave(&q, &a);
	tap_eq("credit bound: A left 200 ms behind: delta -200 ms", -(s64)MS(200),
	       a.delta, "ns");
	smart_join(&q, &a, SMART_JOIN_WAKE, &P);
	tap_ok(a.bvft == MS(110) && smart_lag_ns(&a) == (s64)MS(100),
	       "credit bound: eq7 rejoin keeps 100 ms of the 200: beta = 200 - 100 + 10 ms",
	       "expected beta 110000000 lag 100000000, seen beta %llu lag %lld",
	       (unsigned long long)a.bvft, (long long)smart_lag_ns(&a));
	smart_leave(&q, &a);
	a.delta = -(s64)MS(200);
	smart_join(&q, &a, SMART_JOIN_MOVE, &P);
	tap_eq("credit bound: JOIN_MOVE (migration) keeps the whole lag, 200 ms",
	       MS(200), smart_lag_ns(&a), "ns");
}

/* sched_yield(): the rest of the quantum counts as used; V does not move. */
static void test_yield(void)
{
	struct smart_queue q;
	struct smart_entity a, b;

	/* A, B 1024.  A runs 4 ms: V = 2 ms.  Yield: E = Q, eq. (4): beta = 10 + 10 + 10. */
	smart_queue_init(&q);
	join_new(&q, &a, 0, 1024);
	join_new(&q, &b, 0, 1024);
	smart_charge(&q, &a, MS(4), MS(4), &P);
	smart_yield(&q, &a, &P);
	tap_ok(a.bvft == MS(30) && a.bias == MS(10) && a.exec == 0 &&
	       smart_vtime(&a) == MS(10),
	       "yield: the quantum counts as used: beta 30 ms, bias 10 ms, v 10 ms",
	       "expected beta 30000000 bias 10000000 exec 0 v 10000000, seen %llu %llu %llu %llu",
	       (unsigned long long)a.bvft, (unsigned long long)a.bias,
	       (unsigned long long)a.exec, (unsigned long long)smart_vtime(&a));
	tap_eq("yield: V does not move (no CPU time was used)", MS(2), lvl(&q, 0)->vtime, "ns");
	tap_ok(smart_pick(&q) == &b, "yield: the other entity runs next",
	       "expected B, seen %s", ename(smart_pick(&q), &a, &b, NULL));
}

/* ---- eq. (2) split where a sleeper's credit expires --------------------- */

static void test_charge_split(void)
{
	struct smart_queue q;
	struct smart_entity a, b, c, d;

	smart_queue_init(&q);
	join_new(&q, &a, 0, 1024);
	join_new(&q, &b, 0, 1024);
	join_new(&q, &c, 0, 1024);
	join_new(&q, &d, 0, 1024);
	smart_sleep(&q, &c, 0, &P);			/* expires at 100 ms */
	smart_charge(&q, &a, MS(40), MS(40), &P);	/* V = 40/4 = 10 ms */
	smart_sleep(&q, &d, MS(40), &P);		/* expires at 140 ms */
	/*
	 * One 120 ms charge [40, 160):
	 *   [40, 100)  over 4096: 60/4 = 15       -> V = 25 ms, C leaves, delta -25 ms
	 *   [100, 140) over 3072: 40/3 = 13333333 -> V = 38333333, D leaves
	 *   [140, 160) over 2048: 20/2 = 10       -> V = 48333333
	 * Unsplit it would be 40 ms (4096) or 70 ms (2048).
	 */
	smart_charge(&q, &a, MS(160), MS(120), &P);
	tap_eq("charge split at two sleeper expiries: V = 15 + 40/3 + 10 ms",
	       48333333, lvl(&q, 0)->vtime, "ns");
	tap_eq("sleeper C left at its expiry (V 25 ms): delta -25 ms", -(s64)MS(25),
	       c.delta, "ns");
	tap_eq("sleeper D left at its expiry (V 38.3 ms): delta", -38333333, d.delta, "ns");
	tap_ok(c.state == SMART_SE_OFF && d.state == SMART_SE_OFF &&
	       lvl(&q, 0)->shares == smart_core_share(2048) && q.nr_queued == 2,
	       "expired sleepers are off the queue",
	       "expected both OFF, shares 2048, queued 2; seen %u %u %llu %u",
	       c.state, d.state, (unsigned long long)lvl(&q, 0)->shares >> SMART_SHARE_SHIFT, q.nr_queued);
}

/* ---- lag ---------------------------------------------------------------- */

static void test_lag(void)
{
	struct smart_queue q;
	struct smart_entity a, b, c;
	s64 la, lb, lc;

	/* A, B 1024 and C 2048 (sum 4096).  A runs 4 ms: V = 1 ms. */
	smart_queue_init(&q);
	join_new(&q, &a, 0, 1024);
	join_new(&q, &b, 0, 1024);
	join_new(&q, &c, 0, 2048);
	smart_charge(&q, &a, MS(4), MS(4), &P);
	la = smart_lag_ns(&a);
	lb = smart_lag_ns(&b);
	lc = smart_lag_ns(&c);
	tap_eq("lag: A ran 4 ms of 4: ahead, (1 - 4) * 1 = -3 ms", -(s64)MS(3), la, "ns");
	tap_eq("lag: B did not run: behind, (1 - 0) * 1 = +1 ms", MS(1), lb, "ns");
	tap_eq("lag: C (S=2048) did not run: (1 - 0) * 2 = +2 ms", MS(2), lc, "ns");
	tap_eq("lag: share-weighted lags sum to 0", 0, la + lb + lc, "ns");
	smart_leave(&q, &a);
	tap_eq("lag of a departed entity: -delta * S' = -3 ms", -(s64)MS(3),
	       smart_lag_ns(&a), "ns");
}

/* ---- reassigned parameters (§3.3) --------------------------------------- */

static void test_set_params(void)
{
	struct smart_queue q;
	struct smart_entity a, b, c;

	/* Priority: A (v 14, V_0 7, B 10, E 4) moves to prio 2 where V_2 = 6 ms. */
	setup_a14(&q, &a, &b);
	join_new(&q, &c, 2, 1024);
	smart_charge(&q, &c, MS(20), MS(6), &P);	/* V_2 = 6 ms */
	smart_set_params(&a, 2, 1024, MS(20), &P);
	/* eq. (3) on the new level: beta = 6 + 10 = 16 ms, no delta, no bias */
	tap_ok(a.prio == 2 && a.bvft == MS(16) && a.bias == 0 && a.exec == 0 &&
	       a.delta == 0,
	       "new priority: eq3 on the new level, beta = V_2 + Q = 6 + 10 ms",
	       "expected prio 2 beta 16000000 bias 0 exec 0 delta 0, seen %d %llu %llu %llu %lld",
	       a.prio, (unsigned long long)a.bvft, (unsigned long long)a.bias,
	       (unsigned long long)a.exec, (long long)a.delta);
	tap_ok(lvl(&q, 0)->shares == smart_core_share(1024) && lvl(&q, 0)->nr == 1 &&
	       lvl(&q, 2)->shares == smart_core_share(2048) && lvl(&q, 2)->nr == 2,
	       "new priority: the share moves from level 0 to level 2",
	       "expected L0 1024/1, L2 2048/2, seen L0 %llu/%u, L2 %llu/%u",
	       (unsigned long long)lvl(&q, 0)->shares >> SMART_SHARE_SHIFT, lvl(&q, 0)->nr,
	       (unsigned long long)lvl(&q, 2)->shares >> SMART_SHARE_SHIFT, lvl(&q, 2)->nr);
	tap_ok(smart_pick(&q) == &c,
	       "new priority: C (beta 10 ms) still before A (16 ms) on prio 2",
	       "expected C picked, seen %s", ename(smart_pick(&q), &a, &b, &c));

	/* Share: A, B 1024; A runs 4 ms (V 2, v_A 4); A's share becomes 2048. */
	smart_queue_init(&q);
	join_new(&q, &a, 0, 1024);
	join_new(&q, &b, 0, 1024);
	smart_charge(&q, &a, MS(4), MS(4), &P);
	smart_set_params(&a, 0, 2048, MS(4), &P);
	/* leave with S=1024: delta = 4 - 2 = 2 ms; eq. (7) with S=2048: 2 + 2 + 10/2 = 9 */
	tap_ok(a.delta == (s64)MS(2) && a.bvft == MS(9) &&
	       a.share == smart_core_share(2048) &&
	       lvl(&q, 0)->shares == smart_core_share(3072) && smart_vtime(&a) == MS(4),
	       "new share: delta kept (2 ms), eq7 with S'=2: beta = 2 + 2 + 5 = 9 ms",
	       "expected delta 2000000 beta 9000000 share 2048 level 3072 v 4000000, seen %lld %llu %u %llu %llu",
	       (long long)a.delta, (unsigned long long)a.bvft,
	       smart_user_share(a.share),
	       (unsigned long long)lvl(&q, 0)->shares >> SMART_SHARE_SHIFT,
	       (unsigned long long)smart_vtime(&a));

	/* Share change while asleep on the queue: leaves now, rejoins on wake. */
	smart_queue_init(&q);
	join_new(&q, &a, 0, 1024);
	join_new(&q, &b, 0, 1024);
	smart_charge(&q, &a, MS(4), MS(4), &P);		/* V 2, v_A 4 */
	smart_sleep(&q, &a, MS(4), &P);
	smart_set_params(&a, 0, 512, MS(4), &P);
	tap_ok(a.state == SMART_SE_OFF && a.delta == (s64)MS(2) &&
	       lvl(&q, 0)->shares == smart_core_share(1024),
	       "new share while asleep: leaves with delta 2 ms",
	       "expected OFF delta 2000000 shares 1024, seen %u %lld %llu",
	       a.state, (long long)a.delta, (unsigned long long)lvl(&q, 0)->shares >> SMART_SHARE_SHIFT);
	smart_charge(&q, &b, MS(10), MS(6), &P);	/* B alone: V = 8 */
	smart_wake(&q, &a, MS(10), &P);
	/* eq. (7), S'=0.5: beta = 8 + 2 + 20 = 30 ms */
	tap_eq("new share while asleep: on wake eq7 beta = 8 + 2 + 10/0.5 = 30 ms",
	       MS(30), a.bvft, "ns");
}

/* ---- value-tuple order ---------------------------------------------------- */

static void test_order(void)
{
	/* prio, share -> beta at V=0; expected pick order by index */
	static const struct { s32 prio; u32 share; const char *what; } e[] = {
		{ 1, 1024, "prio 1, beta 10 ms" },
		{ 1, 1, "prio 1, beta 10.24 s" },
		{ 0, 2048, "prio 0, beta 5 ms" },
		{ 0, 1024, "prio 0, beta 10 ms" },
		{ -1, SMART_SHARE_MAX, "prio -1, beta 9765 ns" },
	};
	/* insertion order scrambled */
	static const int ins[] = { 4, 2, 0, 3, 1 };
	struct smart_entity se[ARRAY_SIZE(e)];
	struct smart_queue q;
	size_t i, j;
	bool pairs = true;

	smart_queue_init(&q);
	for (i = 0; i < ARRAY_SIZE(ins); i++)
		join_new(&q, &se[ins[i]], e[ins[i]].prio, e[ins[i]].share);
	for (i = 0; i < ARRAY_SIZE(e); i++)
		for (j = i + 1; j < ARRAY_SIZE(e); j++)
			if (!smart_value_before(&se[i], &se[j]) ||
			    smart_value_before(&se[j], &se[i]))
				pairs = false;
	tap_ok(pairs, "value tuple: higher prio first, then earlier BVFT (all pairs)",
	       "expected smart_value_before(i, j) && !(j, i) for i < j in the listed order, seen %s",
	       pairs ? "all pairs ordered" : "a pair out of order");
	for (i = 0; i < ARRAY_SIZE(e); i++) {
		struct smart_entity *p = smart_pick(&q);
		int got = p ? (int)(p - se) : -1;

		tap_ok(got == (int)i, NAME("pick #%zu: %s", i + 1, e[i].what),
		       "expected entity %zu (%s), seen %d", i, e[i].what, got);
		if (p)
			smart_leave(&q, p);
	}
	tap_ok(!smart_pick(&q) && q.nr_runnable == 0 && q.nr_queued == 0,
	       "empty queue: smart_pick() is NULL",
	       "expected NULL and 0/0, seen %p %u/%u", (void *)smart_pick(&q),
	       q.nr_runnable, q.nr_queued);
}

/* ---- wraparound of virtual time ------------------------------------------ */

static void test_wrap(void)
{
	struct smart_queue q;
	struct smart_entity a, b, c;
	const u64 top = 0;	/* 2^64 == 0 mod 2^64 */

	/*
	 * V = 2^64 - 15 ms.  A (1024): beta = 2^64 - 5 ms.  B (2048):
	 * beta = 2^64 - 10 ms.  B runs its 10 ms quantum: beta_B += 5 + 5
	 * -> 2^64 + 0, i.e. wraps to 0.  A must now come first although
	 * 0 < 2^64 - 5 ms as plain unsigned numbers.
	 */
	smart_queue_init(&q);
	lvl(&q, 0)->vtime = top - MS(15);
	join_new(&q, &a, 0, 1024);
	join_new(&q, &b, 0, 2048);
	tap_ok(smart_pick(&q) == &b, "wrap: before: B (2^64 - 10 ms) before A (2^64 - 5 ms)",
	       "expected B, seen %s", ename(smart_pick(&q), &a, &b, &c));
	smart_charge(&q, &b, MS(10), MS(10), &P);
	tap_eq("wrap: B's BVFT wrapped to 2^64 + 0 = 0", 0, b.bvft, "ns");
	tap_ok(smart_pick(&q) == &a && smart_value_before(&a, &b) &&
	       !smart_value_before(&b, &a),
	       "wrap: A (2^64 - 5 ms) before B (wrapped to 0)",
	       "expected A picked and value_before(A, B), seen %s picked, before(A,B)=%d before(B,A)=%d",
	       ename(smart_pick(&q), &a, &b, &c), smart_value_before(&a, &b),
	       smart_value_before(&b, &a));
	/* V = V0 + 10 ms/3 -> lag_A = +3333333; v_B = V0 + 5 ms -> lag_B = (3.33 - 5) * 2 */
	tap_near("wrap: lag_A = +10/3 ms, small and positive", 3333333,
		 smart_lag_ns(&a), 1, "ns");
	tap_near("wrap: lag_B = (10/3 - 5) * 2 = -3.33 ms", -3333334,
		 smart_lag_ns(&b), 2, "ns");

	/* V itself crosses 2^64: V0 = 2^64 - 1 ms, A and B 1024, A runs 4 ms. */
	smart_queue_init(&q);
	lvl(&q, 0)->vtime = top - MS(1);
	join_new(&q, &a, 0, 1024);
	join_new(&q, &b, 0, 1024);
	smart_charge(&q, &a, MS(4), MS(4), &P);
	tap_eq("wrap: V crosses 2^64: 2^64 - 1 ms + 2 ms = 1 ms", MS(1),
	       lvl(&q, 0)->vtime, "ns");
	tap_ok(smart_lag_ns(&a) == -(s64)MS(2) && smart_lag_ns(&b) == (s64)MS(2),
	       "wrap: lags across the wrap: A -2 ms, B +2 ms",
	       "expected -2000000 and 2000000, seen %lld and %lld",
	       (long long)smart_lag_ns(&a), (long long)smart_lag_ns(&b));
	smart_leave(&q, &a);
	tap_eq("wrap: delta across the wrap: v_A - V = 3 ms - 1 ms = 2 ms",
	       MS(2), a.delta, "ns");

	/* Tree order straddling 2^64: V0 = 2^64 - 6 ms. */
	smart_queue_init(&q);
	lvl(&q, 0)->vtime = top - MS(6);
	join_new(&q, &a, 0, 1024);	/* beta = 4 ms (wrapped) */
	join_new(&q, &b, 0, 2048);	/* beta = 2^64 - 1 ms */
	join_new(&q, &c, 0, 4096);	/* beta = 2^64 - 3.5 ms */
	{
		struct smart_entity *order[3], *want[3] = { &c, &b, &a };
		int i;
		bool ok = true;

		for (i = 0; i < 3; i++) {
			order[i] = smart_pick(&q);
			if (order[i] != want[i])
				ok = false;
			if (order[i])
				smart_leave(&q, order[i]);
		}
		tap_ok(ok, "wrap: tree order across 2^64: 2^64-3.5 ms, 2^64-1 ms, 4 ms",
		       "expected S=4096, S=2048, S=1024, seen S=%u, S=%u, S=%u",
		       order[0] ? smart_user_share(order[0]->share) : 0,
		       order[1] ? smart_user_share(order[1]->share) : 0,
		       order[2] ? smart_user_share(order[2]->share) : 0);
	}
}

/* ---- precision of eq. (2) over a long run ------------------------------- */

/*
 * For a fixed set of entities, eqs. (1) and (2) keep
 *	sum_i S_i * (V_P - v_i) = 0
 * (running t ns adds t to sum S_i v_i and t / sum(S) to V_P).  Three
 * hogs of share 1024 (sum 3072: 1 ms moves V_P by 333333.3 ns) are
 * charged 1 ms at a time for one simulated hour (3.6 million charges).
 * The invariant must hold to 1 us; otherwise V_P drifts behind the
 * members and every task joining by eq. (3) - or a task that changes
 * priority - starts ahead of the tasks already there.
 */
static void test_precision(void)
{
	struct smart_queue q;
	struct smart_entity h[3];
	u64 now = 0;
	s64 sum = 0;
	long k;
	int i;

	smart_queue_init(&q);
	for (i = 0; i < 3; i++)
		join_new(&q, &h[i], 0, 1024);
	for (k = 0; k < 3600L * 1000; k++) {
		now += MS(1);
		smart_charge(&q, smart_pick(&q), now, MS(1), &P);
	}
	for (i = 0; i < 3; i++)
		sum += smart_lag_ns(&h[i]);
	tap_near("precision: sum of S'*(V - v) stays 0 over 1 h of 1 ms charges (3 x S=1024)",
		 0, sum, 1000, "ns");
	tap_near("precision: after 1 h a hog's lag is still 0 (a newcomer at V is not favoured)",
		 0, smart_lag_ns(&h[0]), 1000, "ns");
}

int main(void)
{
	tap_diag("test_bvft: SMART BVFT equations (1)-(7) with worked numbers");
	test_eq3();
	test_eq1_eq2();
	test_eq4();
	test_eq5_7();
	test_sleep();
	test_credit_bound();
	test_yield();
	test_charge_split();
	test_lag();
	test_set_params();
	test_order();
	test_wrap();
	test_precision();
	return tap_done();
}
