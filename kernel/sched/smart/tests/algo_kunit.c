// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the SMART algorithm (kernel/sched/smart/algo.c): the BVFT
 * equations of Nieh & Lam (SOSP '97) §3.3 with worked numbers, the
 * value-tuple order, the split of eq. (2) where a sleeper's credit
 * expires, proportional shares over a short run of hogs, and the
 * working schedule of §3.4 (eqs. (8)-(9)) with the §3.2 decision.
 *
 * Units: ns; virtual ns for V, v and beta.  Q = 10 ms, b = 10 ms, bias
 * bounded by 100 ms, sleep credit 100 ms.  S' = S / 1024.
 *
 *	./tools/testing/kunit/kunit.py run --kunitconfig=kernel/sched/smart
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/time64.h>
#include "../algo.h"

#define MS(x)	((u64)(x) * NSEC_PER_MSEC)

static const struct smart_params smart_test_params = {
	.quantum_ns = MS(10),
	.bias_step_ns = MS(10),
	.bias_max_ns = MS(100),
	.sleep_credit_ns = MS(100),
};

/* Per-test state, allocated (a queue is too big for a test's stack frame). */
struct smart_test_ctx {
	struct smart_queue q;
	struct smart_entity se[5];
	struct smart_params p;
	struct smart_ws ws, rej;
};

static int smart_test_init(struct kunit *test)
{
	struct smart_test_ctx *ctx;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	smart_queue_init(&ctx->q);
	ctx->p = smart_test_params;
	test->priv = ctx;
	return 0;
}

static struct smart_level *smart_test_level(struct smart_queue *q, s32 prio)
{
	return &q->level[prio - SMART_PRIO_MIN];
}

static void smart_test_join(struct smart_test_ctx *ctx, struct smart_entity *se,
			    s32 prio, u32 share)
{
	smart_entity_init(se, prio, share);
	smart_join(&ctx->q, se, SMART_JOIN_NEW, &ctx->p);
}

/* ---- eq. (3): beta = V_P + Q / S' ----------------------------------------- */

struct smart_eq3_case {
	const char *desc;
	s32 prio;
	u32 share;
	u64 vtime;	/* V_P before the join */
	u64 bvft;	/* expected beta */
};

static const struct smart_eq3_case smart_eq3_cases[] = {
	{ "S=1024 at V=0: 10 ms", 0, 1024, 0, MS(10) },
	{ "S=2048 at V=0: 10/2 = 5 ms", 0, 2048, 0, MS(5) },
	{ "S=512 at V=0: 10/0.5 = 20 ms", 0, 512, 0, MS(20) },
	{ "S=3072 at V=0: 10/3 ms, floored", 0, 3072, 0, 3333333 },
	{ "prio 3, S=1024 at V=7 ms: 17 ms", 3, 1024, MS(7), MS(17) },
	{ "S=1 (min): 10 ms * 1024", SMART_PRIO_MIN, SMART_SHARE_MIN, 0, 10240000000ULL },
	{ "S=2^20 (max): 10 ms / 1024, floored", SMART_PRIO_MAX, SMART_SHARE_MAX, 0, 9765 },
};

static void smart_eq3_desc(const struct smart_eq3_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(smart_eq3, smart_eq3_cases, smart_eq3_desc);

static void smart_eq3_test(struct kunit *test)
{
	const struct smart_eq3_case *c = test->param_value;
	struct smart_test_ctx *ctx = test->priv;
	struct smart_entity *a = &ctx->se[0];

	smart_test_level(&ctx->q, c->prio)->vtime = c->vtime;
	smart_test_join(ctx, a, c->prio, c->share);
	KUNIT_EXPECT_EQ_MSG(test, a->bvft, c->bvft, "beta = V + Q/S' for %s", c->desc);
	KUNIT_EXPECT_EQ(test, a->bias, 0ULL);
	KUNIT_EXPECT_EQ(test, a->exec, 0ULL);
	KUNIT_EXPECT_EQ(test, a->quantum, MS(10));
	KUNIT_EXPECT_EQ(test, smart_test_level(&ctx->q, c->prio)->shares,
			(u64)smart_core_share(c->share));
}

/* ---- eqs. (1), (2) --------------------------------------------------------- */

static void smart_eq1_eq2_test(struct kunit *test)
{
	struct smart_test_ctx *ctx = test->priv;
	struct smart_entity *a = &ctx->se[0], *b = &ctx->se[1], *c = &ctx->se[2];
	struct smart_level *l0 = smart_test_level(&ctx->q, 0);

	/* A, B 1024 and C 2048: sum 4096, so 4 ms of A moves V by exactly 1 ms. */
	smart_test_join(ctx, a, 0, 1024);
	smart_test_join(ctx, b, 0, 1024);
	smart_test_join(ctx, c, 0, 2048);
	KUNIT_EXPECT_FALSE(test, smart_charge(&ctx->q, a, MS(4), MS(4), &ctx->p));
	KUNIT_EXPECT_EQ_MSG(test, l0->vtime, MS(1), "eq2: V += 4 ms * 1024/4096");
	KUNIT_EXPECT_EQ_MSG(test, smart_vtime(a), MS(4), "eq1: v_A += 4 ms / 1");
	KUNIT_EXPECT_EQ_MSG(test, a->bvft, MS(10), "beta does not move within a quantum");

	/* C runs 2 ms: V = 1.5 ms, v_C = 2 ms / 2 = 1 ms */
	smart_charge(&ctx->q, c, MS(6), MS(2), &ctx->p);
	KUNIT_EXPECT_EQ(test, l0->vtime, 1500000ULL);
	KUNIT_EXPECT_EQ(test, smart_vtime(c), MS(1));

	/* lag = (V - v) * S': A -2.5 ms, B +1.5 ms, C (1.5 - 1) * 2 = +1 ms; sum 0 */
	KUNIT_EXPECT_EQ(test, smart_lag_ns(a), -2500000LL);
	KUNIT_EXPECT_EQ(test, smart_lag_ns(b), 1500000LL);
	KUNIT_EXPECT_EQ(test, smart_lag_ns(c), 1000000LL);

	/* A prio-1 entity running does not move V_0. */
	smart_test_join(ctx, &ctx->se[3], 1, 1024);
	smart_charge(&ctx->q, &ctx->se[3], MS(11), MS(5), &ctx->p);
	KUNIT_EXPECT_EQ(test, l0->vtime, 1500000ULL);
	KUNIT_EXPECT_EQ(test, smart_test_level(&ctx->q, 1)->vtime, MS(5));
}

/* ---- eq. (4): beta += Q/S' + b/S' per quantum, bias bounded --------------- */

struct smart_eq4_case {
	const char *desc;
	u32 share;
	u64 step, max;
	int quanta;
	u64 bvft, bias;	/* expected after @quanta quanta, joined at V=0 */
};

static const struct smart_eq4_case smart_eq4_cases[] = {
	/* beta = (n + 1) * Q/S' + sum(b)/S' */
	{ "S=1024, 1 quantum: 10+10+10", 1024, MS(10), MS(100), 1, MS(30), MS(10) },
	{ "S=1024, 10 quanta: 10+100+100", 1024, MS(10), MS(100), 10, MS(210), MS(100) },
	{ "S=1024, 11 quanta: bias saturated", 1024, MS(10), MS(100), 11, MS(220), MS(100) },
	{ "S=2048, 1 quantum: 5+5+5", 2048, MS(10), MS(100), 1, MS(15), MS(10) },
	{ "S=512, 3 quanta: 20+60+60", 512, MS(10), MS(100), 3, MS(140), MS(30) },
	{ "b=30 ms, 4 quanta: last step clipped", 1024, MS(30), MS(100), 4, MS(150), MS(100) },
	{ "no bias, 5 quanta: plain VFT", 1024, 0, 0, 5, MS(60), 0 },
};

static void smart_eq4_desc(const struct smart_eq4_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(smart_eq4, smart_eq4_cases, smart_eq4_desc);

static void smart_eq4_test(struct kunit *test)
{
	const struct smart_eq4_case *c = test->param_value;
	struct smart_test_ctx *ctx = test->priv;
	struct smart_entity *a = &ctx->se[0];
	u64 t;
	int done = 0;

	ctx->p.bias_step_ns = c->step;
	ctx->p.bias_max_ns = c->max;
	smart_test_join(ctx, a, 0, c->share);
	/* 1 ms ticks */
	for (t = MS(1); t <= c->quanta * MS(10); t += MS(1))
		done += smart_charge(&ctx->q, a, t, MS(1), &ctx->p);
	KUNIT_EXPECT_EQ(test, done, c->quanta);
	KUNIT_EXPECT_EQ_MSG(test, a->bvft, c->bvft, "%s", c->desc);
	KUNIT_EXPECT_EQ_MSG(test, a->bias, c->bias, "%s", c->desc);
	KUNIT_EXPECT_EQ(test, a->exec, 0ULL);
}

/* One 25 ms charge: two quanta; beta = 10 + 2 * 20 = 50, E = 5, v = 25. */
static void smart_eq4_overrun_test(struct kunit *test)
{
	struct smart_test_ctx *ctx = test->priv;
	struct smart_entity *a = &ctx->se[0];

	smart_test_join(ctx, a, 0, 1024);
	KUNIT_EXPECT_TRUE(test, smart_charge(&ctx->q, a, MS(25), MS(25), &ctx->p));
	KUNIT_EXPECT_EQ(test, a->bvft, MS(50));
	KUNIT_EXPECT_EQ(test, a->bias, MS(20));
	KUNIT_EXPECT_EQ(test, a->exec, MS(5));
	KUNIT_EXPECT_EQ(test, smart_vtime(a), MS(25));
}

/* ---- eqs. (5)-(7) ---------------------------------------------------------- */

/*
 * A, B 1024 at V=0.  A runs 10 ms (V 5, beta 30, B 10) then 4 ms (V 7,
 * E 4).  eq. (6): v_A = 30 - (10 - 4) - 10 = 14 ms.
 */
static void smart_test_setup_a14(struct smart_test_ctx *ctx)
{
	smart_test_join(ctx, &ctx->se[0], 0, 1024);
	smart_test_join(ctx, &ctx->se[1], 0, 1024);
	smart_charge(&ctx->q, &ctx->se[0], MS(10), MS(10), &ctx->p);
	smart_charge(&ctx->q, &ctx->se[0], MS(14), MS(4), &ctx->p);
}

struct smart_rejoin_case {
	const char *desc;
	enum smart_join how;
	u64 bvft, bias, exec;
};

static const struct smart_rejoin_case smart_rejoin_cases[] = {
	/* eq. (7): 13 + 7 + 10 */
	{ "JOIN_WAKE: eq7 beta = V + delta + Q/S'", SMART_JOIN_WAKE, MS(30), 0, 0 },
	/* 13 + 7 + (10 + 10 - 4) */
	{ "JOIN_MOVE: beta = V + delta + (Q + B - E)/S'", SMART_JOIN_MOVE, MS(36), MS(10), MS(4) },
};

static void smart_rejoin_desc(const struct smart_rejoin_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(smart_rejoin, smart_rejoin_cases, smart_rejoin_desc);

static void smart_eq5_7_test(struct kunit *test)
{
	const struct smart_rejoin_case *c = test->param_value;
	struct smart_test_ctx *ctx = test->priv;
	struct smart_entity *a = &ctx->se[0], *b = &ctx->se[1];
	struct smart_level *l0 = smart_test_level(&ctx->q, 0);

	smart_test_setup_a14(ctx);
	KUNIT_EXPECT_EQ_MSG(test, smart_vtime(a), MS(14), "eq6");
	KUNIT_EXPECT_EQ(test, l0->vtime, MS(7));

	smart_leave(&ctx->q, a);
	/* eq. (5): delta = 14 - 7 */
	KUNIT_EXPECT_EQ_MSG(test, a->delta, (s64)MS(7), "eq5");
	KUNIT_EXPECT_EQ(test, a->state, (unsigned int)SMART_SE_OFF);
	KUNIT_EXPECT_NULL(test, a->queue);
	KUNIT_EXPECT_EQ(test, l0->shares, (u64)smart_core_share(1024));
	KUNIT_EXPECT_EQ(test, smart_lag_ns(a), -(s64)MS(7));

	/* B alone 6 ms: V = 13 ms */
	smart_charge(&ctx->q, b, MS(20), MS(6), &ctx->p);
	KUNIT_EXPECT_EQ(test, l0->vtime, MS(13));

	smart_join(&ctx->q, a, c->how, &ctx->p);
	KUNIT_EXPECT_EQ_MSG(test, a->bvft, c->bvft, "%s", c->desc);
	KUNIT_EXPECT_EQ(test, a->bias, c->bias);
	KUNIT_EXPECT_EQ(test, a->exec, c->exec);
	KUNIT_EXPECT_EQ_MSG(test, smart_vtime(a), MS(20), "v = V + delta");
	KUNIT_EXPECT_EQ(test, smart_lag_ns(a), -(s64)MS(7));
}

/* ---- sleep credit ---------------------------------------------------------- */

static void smart_sleep_short_test(struct kunit *test)
{
	struct smart_test_ctx *ctx = test->priv;
	struct smart_entity *a = &ctx->se[0], *b = &ctx->se[1];
	u64 t;

	smart_test_setup_a14(ctx);
	smart_sleep(&ctx->q, a, MS(14), &ctx->p);
	KUNIT_EXPECT_EQ(test, a->state, (unsigned int)SMART_SE_SLEEPING);
	KUNIT_EXPECT_EQ(test, smart_test_level(&ctx->q, 0)->shares,
			(u64)smart_core_share(2048));
	KUNIT_EXPECT_EQ(test, ctx->q.nr_runnable, 1U);
	/* B runs 50 ms: V = 7 + 50/2 = 32 ms */
	for (t = MS(15); t <= MS(64); t += MS(1))
		smart_charge(&ctx->q, b, t, MS(1), &ctx->p);
	KUNIT_EXPECT_EQ(test, smart_test_level(&ctx->q, 0)->vtime, MS(32));
	smart_wake(&ctx->q, a, MS(64), &ctx->p);
	/* on the queue still: v kept, bias reset: beta = 30 - 10 */
	KUNIT_EXPECT_EQ(test, a->state, (unsigned int)SMART_SE_RUNNABLE);
	KUNIT_EXPECT_EQ(test, a->bvft, MS(20));
	KUNIT_EXPECT_EQ(test, a->bias, 0ULL);
	KUNIT_EXPECT_EQ(test, a->exec, MS(4));
	KUNIT_EXPECT_EQ(test, smart_vtime(a), MS(14));
	KUNIT_EXPECT_EQ(test, smart_lag_ns(a), (s64)MS(18));
}

static void smart_sleep_long_test(struct kunit *test)
{
	struct smart_test_ctx *ctx = test->priv;
	struct smart_entity *a = &ctx->se[0], *b = &ctx->se[1];
	u64 t;

	smart_test_setup_a14(ctx);
	smart_sleep(&ctx->q, a, MS(14), &ctx->p);	/* credit ends at 114 ms */
	for (t = MS(15); t <= MS(214); t += MS(1))
		smart_charge(&ctx->q, b, t, MS(1), &ctx->p);
	/* V(114) = 7 + 100/2 = 57: delta = 14 - 57; then B alone: V = 157 */
	KUNIT_EXPECT_EQ(test, a->state, (unsigned int)SMART_SE_OFF);
	KUNIT_EXPECT_EQ(test, a->delta, -(s64)MS(43));
	KUNIT_EXPECT_EQ(test, smart_test_level(&ctx->q, 0)->vtime, MS(157));
	smart_wake(&ctx->q, a, MS(214), &ctx->p);
	/* eq. (7): 157 - 43 + 10 */
	KUNIT_EXPECT_EQ(test, a->bvft, MS(124));
	KUNIT_EXPECT_EQ(test, smart_lag_ns(a), (s64)MS(43));
}

/* eq. (2) split where sleepers' credits expire inside one charge. */
static void smart_charge_split_test(struct kunit *test)
{
	struct smart_test_ctx *ctx = test->priv;
	struct smart_entity *a = &ctx->se[0], *c = &ctx->se[2], *d = &ctx->se[3];
	int i;

	for (i = 0; i < 4; i++)
		smart_test_join(ctx, &ctx->se[i], 0, 1024);
	smart_sleep(&ctx->q, c, 0, &ctx->p);			/* expires 100 ms */
	smart_charge(&ctx->q, a, MS(40), MS(40), &ctx->p);	/* V = 10 ms */
	smart_sleep(&ctx->q, d, MS(40), &ctx->p);		/* expires 140 ms */
	/*
	 * [40, 100) / 4096 = 15 -> 25 ms (C leaves, delta -25 ms)
	 * [100, 140) / 3072 = 13333333 -> 38333333 (D leaves)
	 * [140, 160) / 2048 = 10 -> 48333333
	 */
	smart_charge(&ctx->q, a, MS(160), MS(120), &ctx->p);
	KUNIT_EXPECT_EQ(test, smart_test_level(&ctx->q, 0)->vtime, 48333333ULL);
	KUNIT_EXPECT_EQ(test, c->delta, -(s64)MS(25));
	KUNIT_EXPECT_EQ(test, d->delta, -38333333LL);
	KUNIT_EXPECT_EQ(test, c->state, (unsigned int)SMART_SE_OFF);
	KUNIT_EXPECT_EQ(test, d->state, (unsigned int)SMART_SE_OFF);
	KUNIT_EXPECT_EQ(test, smart_test_level(&ctx->q, 0)->shares,
			(u64)smart_core_share(2048));
	KUNIT_EXPECT_EQ(test, ctx->q.nr_queued, 2U);
}

/*
 * eq. (7) keeps at most sleep_credit_ns of credit: A left 200 ms behind
 * (B ran 400 ms, V = 200) and rejoins with 100 ms of it:
 * beta = 200 - 100 + 10 ms.  A migration (JOIN_MOVE) keeps all of it.
 */
static void smart_rejoin_credit_test(struct kunit *test)
{
	struct smart_test_ctx *ctx = test->priv;
	struct smart_entity *a = &ctx->se[0], *b = &ctx->se[1];
	u64 t;

	smart_test_join(ctx, a, 0, 1024);
	smart_test_join(ctx, b, 0, 1024);
	for (t = MS(1); t <= MS(400); t += MS(1))
		smart_charge(&ctx->q, b, t, MS(1), &ctx->p);
	smart_leave(&ctx->q, a);
	KUNIT_EXPECT_EQ(test, a->delta, -(s64)MS(200));
	smart_join(&ctx->q, a, SMART_JOIN_WAKE, &ctx->p);
	KUNIT_EXPECT_EQ(test, a->bvft, MS(110));
	KUNIT_EXPECT_EQ(test, smart_lag_ns(a), (s64)MS(100));
	smart_leave(&ctx->q, a);
	a->delta = -(s64)MS(200);
	smart_join(&ctx->q, a, SMART_JOIN_MOVE, &ctx->p);
	KUNIT_EXPECT_EQ(test, smart_lag_ns(a), (s64)MS(200));
}

/* sched_yield(): the quantum counts as used (eq. (4)); V does not move. */
static void smart_yield_test(struct kunit *test)
{
	struct smart_test_ctx *ctx = test->priv;
	struct smart_entity *a = &ctx->se[0], *b = &ctx->se[1];

	smart_test_join(ctx, a, 0, 1024);
	smart_test_join(ctx, b, 0, 1024);
	smart_charge(&ctx->q, a, MS(4), MS(4), &ctx->p);	/* V = 2 ms */
	smart_yield(&ctx->q, a, &ctx->p);
	KUNIT_EXPECT_EQ(test, a->bvft, MS(30));			/* 10 + 10 + 10 */
	KUNIT_EXPECT_EQ(test, a->bias, MS(10));
	KUNIT_EXPECT_EQ(test, a->exec, 0ULL);
	KUNIT_EXPECT_EQ(test, smart_vtime(a), MS(10));
	KUNIT_EXPECT_EQ(test, smart_test_level(&ctx->q, 0)->vtime, MS(2));
	KUNIT_EXPECT_PTR_EQ(test, smart_pick(&ctx->q), b);
}

/* ---- reassigned parameters ------------------------------------------------- */

static void smart_set_params_test(struct kunit *test)
{
	struct smart_test_ctx *ctx = test->priv;
	struct smart_entity *a = &ctx->se[0], *c = &ctx->se[2];

	/* New priority: eq. (3) on the new level, where V_2 = 6 ms. */
	smart_test_setup_a14(ctx);
	smart_test_join(ctx, c, 2, 1024);
	smart_charge(&ctx->q, c, MS(20), MS(6), &ctx->p);
	smart_set_params(a, 2, 1024, MS(20), &ctx->p);
	KUNIT_EXPECT_EQ(test, a->prio, 2);
	KUNIT_EXPECT_EQ(test, a->bvft, MS(16));
	KUNIT_EXPECT_EQ(test, a->bias, 0ULL);
	KUNIT_EXPECT_EQ(test, a->delta, 0LL);
	KUNIT_EXPECT_EQ(test, smart_test_level(&ctx->q, 0)->shares,
			(u64)smart_core_share(1024));
	KUNIT_EXPECT_EQ(test, smart_test_level(&ctx->q, 2)->shares,
			(u64)smart_core_share(2048));
	KUNIT_EXPECT_PTR_EQ(test, smart_pick(&ctx->q), c);
}

static void smart_set_share_test(struct kunit *test)
{
	struct smart_test_ctx *ctx = test->priv;
	struct smart_entity *a = &ctx->se[0], *b = &ctx->se[1];

	/* A, B 1024; A runs 4 ms: V 2, v_A 4.  New share 2048 keeps delta 2 ms. */
	smart_test_join(ctx, a, 0, 1024);
	smart_test_join(ctx, b, 0, 1024);
	smart_charge(&ctx->q, a, MS(4), MS(4), &ctx->p);
	smart_set_params(a, 0, 2048, MS(4), &ctx->p);
	KUNIT_EXPECT_EQ(test, a->delta, (s64)MS(2));
	/* eq. (7) with S' = 2: 2 + 2 + 5 */
	KUNIT_EXPECT_EQ(test, a->bvft, MS(9));
	KUNIT_EXPECT_EQ(test, smart_vtime(a), MS(4));
	KUNIT_EXPECT_EQ(test, smart_test_level(&ctx->q, 0)->shares,
			(u64)smart_core_share(3072));
}

/* ---- value-tuple order ----------------------------------------------------- */

static void smart_order_test(struct kunit *test)
{
	static const struct { s32 prio; u32 share; } e[] = {
		{ 1, 1024 },			/* prio 1, beta 10 ms */
		{ 1, 1 },			/* prio 1, beta 10.24 s */
		{ 0, 2048 },			/* prio 0, beta 5 ms */
		{ 0, 1024 },			/* prio 0, beta 10 ms */
		{ -1, SMART_SHARE_MAX },	/* prio -1, beta 9765 ns */
	};
	static const int ins[] = { 4, 2, 0, 3, 1 };
	struct smart_test_ctx *ctx = test->priv;
	struct smart_entity *se = ctx->se;
	int i, j;

	for (i = 0; i < ARRAY_SIZE(ins); i++)
		smart_test_join(ctx, &se[ins[i]], e[ins[i]].prio, e[ins[i]].share);
	for (i = 0; i < ARRAY_SIZE(e); i++) {
		for (j = i + 1; j < ARRAY_SIZE(e); j++) {
			KUNIT_EXPECT_TRUE_MSG(test, smart_value_before(&se[i], &se[j]),
					      "entity %d before %d", i, j);
			KUNIT_EXPECT_FALSE_MSG(test, smart_value_before(&se[j], &se[i]),
					       "entity %d not before %d", j, i);
		}
	}
	for (i = 0; i < ARRAY_SIZE(e); i++) {
		struct smart_entity *p = smart_pick(&ctx->q);

		KUNIT_ASSERT_PTR_EQ_MSG(test, p, &se[i], "pick #%d", i + 1);
		smart_leave(&ctx->q, p);
	}
	KUNIT_EXPECT_NULL(test, smart_pick(&ctx->q));
}

/* Virtual time near 2^64 still orders by (s64)(a - b) < 0. */
static void smart_wrap_test(struct kunit *test)
{
	struct smart_test_ctx *ctx = test->priv;
	struct smart_entity *a = &ctx->se[0], *b = &ctx->se[1];

	/* V = 2^64 - 15 ms: beta_A = 2^64 - 5 ms, beta_B = 2^64 - 10 ms */
	smart_test_level(&ctx->q, 0)->vtime = 0ULL - MS(15);
	smart_test_join(ctx, a, 0, 1024);
	smart_test_join(ctx, b, 0, 2048);
	KUNIT_EXPECT_PTR_EQ(test, smart_pick(&ctx->q), b);
	/* B's quantum: beta_B += 5 + 5 -> wraps to 0 */
	smart_charge(&ctx->q, b, MS(10), MS(10), &ctx->p);
	KUNIT_EXPECT_EQ(test, b->bvft, 0ULL);
	KUNIT_EXPECT_PTR_EQ(test, smart_pick(&ctx->q), a);
	KUNIT_EXPECT_TRUE(test, smart_value_before(a, b));
	KUNIT_EXPECT_FALSE(test, smart_value_before(b, a));
	/* lag_A = V - v_A = 10 ms * 1024/3072, small and positive */
	KUNIT_EXPECT_GT(test, smart_lag_ns(a), 3333330LL);
	KUNIT_EXPECT_LT(test, smart_lag_ns(a), 3333336LL);
}

/* ---- proportional shares over a short run of hogs --------------------------- */

struct smart_share_case {
	const char *desc;
	int nr;
	u32 share[4];
};

static const struct smart_share_case smart_share_cases[] = {
	{ "1:1", 2, { 1024, 1024 } },
	{ "1:2", 2, { 1024, 2048 } },
	{ "1:1:2", 3, { 1024, 1024, 2048 } },
	{ "1:3", 2, { 256, 768 } },
	{ "1:1:1:1", 4, { 1024, 1024, 1024, 1024 } },
};

static void smart_share_desc(const struct smart_share_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(smart_share, smart_share_cases, smart_share_desc);

/*
 * Hogs charged 1 ms at a time, the pick re-evaluated after every charge.
 * After a 1 s warm-up (the bias, eq. (4), settles at its bound within 10
 * quanta of each task and leaves a fixed offset of at most bias_max), each
 * hog gets S_i / sum(S) of the next 4 s within 1% (40 ms).
 */
static void smart_share_test(struct kunit *test)
{
	const struct smart_share_case *c = test->param_value;
	struct smart_test_ctx *ctx = test->priv;
	u64 cpu[4] = { }, sum = 0, now, warm = MS(1000), win = MS(4000);
	int i;

	for (i = 0; i < c->nr; i++) {
		smart_test_join(ctx, &ctx->se[i], 0, c->share[i]);
		sum += c->share[i];
	}
	for (now = MS(1); now <= warm + win; now += MS(1)) {
		struct smart_entity *se = smart_pick(&ctx->q);

		KUNIT_ASSERT_NOT_NULL(test, se);
		smart_charge(&ctx->q, se, now, MS(1), &ctx->p);
		if (now > warm)
			cpu[se - ctx->se] += MS(1);
	}
	for (i = 0; i < c->nr; i++) {
		u64 want = div64_u64(win * c->share[i], sum);
		u64 err = cpu[i] > want ? cpu[i] - want : want - cpu[i];

		KUNIT_EXPECT_LE_MSG(test, err, win / 100,
				    "%s: hog %d (S=%u) got %llu ns of %llu, want %llu",
				    c->desc, i, c->share[i], cpu[i], win, want);
	}
}

static void smart_test_tc(struct smart_entity *se, u64 deadline, u64 estimate,
			  u64 period)
{
	se->tc.deadline = deadline;
	se->tc.estimate = estimate;
	se->tc.used = 0;
	se->tc.load = smart_tc_load(estimate, period);
}

/*
 * eqs. (8)-(9): periodic A (20 ms every 40 ms, D 40 ms) is in the
 * schedule; B (D 100 ms) fits with Q 50 ms, 20 + 50 + 0.5 * (100 - 40) =
 * 100 <= 100, but not with Q 51 ms: A's future load blocks it.
 */
static void smart_ws_eq9_test(struct kunit *test)
{
	struct smart_test_ctx *ctx = test->priv;
	struct smart_entity *a = &ctx->se[0], *b = &ctx->se[1];

	smart_test_tc(a, MS(40), MS(20), MS(40));
	KUNIT_EXPECT_EQ(test, a->tc.load, SMART_LOAD_ONE / 2);
	KUNIT_EXPECT_EQ(test, smart_tc_demand(&a->tc, MS(100)), MS(20 + 30));
	KUNIT_ASSERT_TRUE(test, smart_ws_insert(&ctx->ws, a, 0, NULL));

	smart_test_tc(b, MS(100), MS(51), 0);
	KUNIT_EXPECT_FALSE_MSG(test, smart_ws_insert(&ctx->ws, b, 0, NULL),
			       "20 + 51 + 30 = 101 ms > 100 ms must not fit");
	b->tc.estimate = MS(50);
	KUNIT_EXPECT_TRUE_MSG(test, smart_ws_insert(&ctx->ws, b, 0, NULL),
			      "20 + 50 + 30 = 100 ms <= 100 ms must fit");
	KUNIT_EXPECT_EQ(test, ctx->ws.nr, 2U);
	KUNIT_EXPECT_PTR_EQ(test, ctx->ws.se[0], a);
}

/*
 * §3.2 and §4.1: the more important A (priority 1, D 100 ms, Q 50 ms)
 * lets the less important B (priority 0, D 30 ms, Q 20 ms) run first;
 * C, conventional below both, is no candidate.  With B at Q 55 ms and
 * D 60 ms, A would need 105 ms: A runs and B is the one to notify.
 */
static void smart_pick_tc_test(struct kunit *test)
{
	struct smart_test_ctx *ctx = test->priv;
	struct smart_entity *a = &ctx->se[0], *b = &ctx->se[1], *c = &ctx->se[2];

	smart_test_join(ctx, a, 1, SMART_SHARE_DEFAULT);
	smart_test_join(ctx, b, 0, SMART_SHARE_DEFAULT);
	smart_test_join(ctx, c, -1, SMART_SHARE_DEFAULT);
	smart_test_tc(a, MS(100), MS(50), 0);
	smart_test_tc(b, MS(30), MS(20), 0);
	KUNIT_EXPECT_PTR_EQ(test, smart_pick_tc(&ctx->q, 0, &ctx->ws, &ctx->rej), b);
	KUNIT_EXPECT_EQ(test, ctx->ws.nr, 2U);
	KUNIT_EXPECT_EQ(test, ctx->rej.nr, 0U);

	smart_test_tc(b, MS(60), MS(55), 0);
	KUNIT_EXPECT_PTR_EQ(test, smart_pick_tc(&ctx->q, 0, &ctx->ws, &ctx->rej), a);
	KUNIT_EXPECT_EQ(test, ctx->rej.nr, 1U);
	KUNIT_EXPECT_PTR_EQ(test, ctx->rej.se[0], b);

	/* a conventional task of the highest value runs first (step 1) */
	smart_set_params(c, 2, SMART_SHARE_DEFAULT, 0, &ctx->p);
	KUNIT_EXPECT_PTR_EQ(test, smart_pick_tc(&ctx->q, 0, &ctx->ws, NULL), c);
	KUNIT_EXPECT_EQ(test, ctx->ws.nr, 0U);
}

static struct kunit_case smart_test_cases[] = {
	KUNIT_CASE_PARAM(smart_eq3_test, smart_eq3_gen_params),
	KUNIT_CASE(smart_eq1_eq2_test),
	KUNIT_CASE_PARAM(smart_eq4_test, smart_eq4_gen_params),
	KUNIT_CASE(smart_eq4_overrun_test),
	KUNIT_CASE_PARAM(smart_eq5_7_test, smart_rejoin_gen_params),
	KUNIT_CASE(smart_sleep_short_test),
	KUNIT_CASE(smart_sleep_long_test),
	KUNIT_CASE(smart_charge_split_test),
	KUNIT_CASE(smart_rejoin_credit_test),
	KUNIT_CASE(smart_yield_test),
	KUNIT_CASE(smart_set_params_test),
	KUNIT_CASE(smart_set_share_test),
	KUNIT_CASE(smart_order_test),
	KUNIT_CASE(smart_wrap_test),
	KUNIT_CASE_PARAM(smart_share_test, smart_share_gen_params),
	KUNIT_CASE(smart_ws_eq9_test),
	KUNIT_CASE(smart_pick_tc_test),
	{}
};

static struct kunit_suite smart_test_suite = {
	.name = "smart",
	.init = smart_test_init,
	.test_cases = smart_test_cases,
};

kunit_test_suite(smart_test_suite);

MODULE_DESCRIPTION("KUnit tests for the SMART scheduling algorithm");
MODULE_LICENSE("GPL");
