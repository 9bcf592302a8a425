// SPDX-License-Identifier: GPL-2.0
/*
 * smart_decide() keeps the working schedule between decisions and
 * changes it as the tree changes (§3.5) instead of rebuilding it.  It
 * must decide exactly as a rebuild would: after every event of many
 * random runs, its pick, its working schedule (entries and order) and
 * its rejected candidates are compared with those of smart_pick_tc() on
 * the queue as it is, at the same time.
 *
 * A run is one CPU with up to NR_TASKS entities of random priorities
 * and shares.  The events are those the kernel glue makes: the pick runs
 * for a while (only the pick is charged, as on a CPU, except for rare
 * rescue-like slices of another task), yields, blocks, begins or ends a
 * constraint (periodic or not, some infeasible), or its budget is read
 * again from the thread clock; another entity wakes, migrates away and
 * back, or has its priority or share changed; constraints expire at
 * their deadline.  Runs with many constrained entities exceed
 * SMART_WS_MAX candidates.
 *
 * Then pickcost's case: 32 constrained entities that share one deadline
 * take turns by sched_yield(): no decision after the first may rebuild.
 */
#include "tap.h"
#include "sim.h"

#define MS(x)		((u64)(x) * 1000000ULL)
#define US(x)		((u64)(x) * 1000ULL)
#define NR_TASKS	100
#define NR_RUNS		400
#define NR_EVENTS	600

struct itask {
	struct smart_entity se;
	bool away;		/* migrated off the queue */
};

static struct itask task[NR_TASKS];
static struct smart_queue q;
static u64 now;
static int nr;

static const struct smart_params params = {
	.quantum_ns = MS(10), .bias_step_ns = MS(10),
	.bias_max_ns = MS(100), .sleep_credit_ns = MS(100),
};

static const u32 shares[] = { 1, 256, 1024, 1024, 1024, 4096, 1048576 };

static struct {
	unsigned long decisions, rebuilds, kept, mismatches, all_fit;
} st;

static bool same_ws(const struct smart_ws *a, const struct smart_ws *b)
{
	unsigned int i;

	if (a->nr != b->nr)
		return false;
	for (i = 0; i < a->nr; i++)
		if (a->se[i] != b->se[i])
			return false;
	return true;
}

/* Decide as the kernel does, and as a rebuild would; count a mismatch. */
static struct smart_entity *decide(const char *what, unsigned long run)
{
	static struct smart_ws ws, rej;
	bool rebuild = q.changed, kept = !q.changed && !q.stale;
	bool moved = q.ws_moved, isnew = q.ws_new != NULL, stale = q.stale;
	/* As the class calls it: no clock when it does not need one. */
	struct smart_entity *pick = smart_decide(&q, smart_decide_needs_clock(&q) ? now : 0);
	struct smart_entity *full = smart_pick_tc(&q, now, &ws, &rej);

	st.decisions++;
	st.rebuilds += rebuild;
	st.kept += kept;
	st.all_fit += q.ws_all;
	if (pick != full || !same_ws(&q.ws, &ws) || !same_ws(&q.rejected, &rej)) {
		if (st.mismatches++ < 5)
			tap_diag("run %lu after %s: pick %ld/%ld ws %u/%u rejected %u/%u (changed %d stale %d new %d moved %d future %d)",
				 run, what, pick ? (long)(container_of(pick, struct itask, se) - task) : -1,
				 full ? (long)(container_of(full, struct itask, se) - task) : -1,
				 q.ws.nr, ws.nr, q.rejected.nr, rej.nr, rebuild, stale,
				 isnew, moved, !RB_EMPTY_ROOT(&q.future.rb_root));
		/* Go on from the right decision. */
		q.changed = true;
		pick = smart_decide(&q, now);
	}
	return pick;
}

static void begin(struct smart_entity *se)
{
	u64 rel = sim_rnd_in(5, 300) * MS(1);
	struct smart_tc tc = {
		.deadline = now + rel,
		.estimate = rel * sim_rnd_in(1, 60) / 100 + 1,
	};

	if (sim_rnd() % 2) {
		tc.period = rel * sim_rnd_in(100, 200) / 100;
		tc.load = smart_tc_load(tc.estimate, tc.period);
	}
	smart_tc_begin(se->queue, se, &tc);
}

static struct itask *any(void)
{
	return &task[sim_rnd() % nr];
}

static const char *event(struct smart_entity *pick)
{
	struct itask *t = any();
	struct smart_entity *se = &t->se;
	u64 r = sim_rnd() % 100, d;

	if (pick && r < 40) {
		d = sim_rnd() % 3 ? US(sim_rnd_in(50, 3000)) : MS(sim_rnd_in(3, 15));
		now += d;
		smart_charge(&q, pick, now, d, &params);
		return "run";
	}
	if (pick && r < 50) {
		smart_yield(&q, pick, &params);
		return "yield";
	}
	if (pick && r < 56) {
		smart_sleep(&q, pick, now, &params);
		return "sleep";
	}
	if (r < 66) {
		if (t->away || se->state == SMART_SE_RUNNABLE)
			return "none";
		smart_wake(&q, se, now, &params);
		return "wake";
	}
	if (r < 74) {
		if (t->away)
			return "none";
		begin(pick && r < 71 ? pick : se);
		return "begin";
	}
	if (r < 80) {
		if (!se->tc.deadline)
			return "none";
		smart_tc_end(se->queue, se, &params);
		return "end";
	}
	if (r < 83) {
		if (t->away || !se->queue) {
			if (t->away) {
				smart_join(&q, se, SMART_JOIN_MOVE, &params);
				t->away = false;
			}
			return "back";
		}
		smart_leave(&q, se);
		t->away = true;
		return "away";
	}
	if (r < 86) {
		smart_set_params(se, (s32)sim_rnd_in(0, 2) - 1,
				 shares[sim_rnd() % 7], now, &params);
		return "params";
	}
	if (r < 89) {
		if (!se->tc.deadline)
			return "none";
		smart_tc_set_used(se, sim_rnd() % 2 ? 0 : se->tc.estimate);
		return "resync";
	}
	if (r < 90 && se->state == SMART_SE_RUNNABLE && se != pick) {
		/* A rescue slice, or time another class took. */
		d = US(sim_rnd_in(10, 1000));
		now += d;
		smart_charge(&q, se, now, d, &params);
		return "other";
	}
	return "none";
}

static void run(unsigned long seed)
{
	int i, k;

	sim_rng_state = seed * 0x9E3779B97F4A7C15ULL + 7;
	smart_queue_init(&q);
	now = MS(1000);
	nr = seed % 4 == 3 ? NR_TASKS : (int)sim_rnd_in(2, 24);
	for (i = 0; i < nr; i++) {
		struct itask *t = &task[i];
		u64 r = sim_rnd() % 100;

		smart_entity_init(&t->se, r < 80 ? 0 : r < 90 ? -1 : 1,
				  shares[sim_rnd() % 7]);
		t->away = false;
		smart_join(&q, &t->se, SMART_JOIN_NEW, &params);
		if (sim_rnd() % 100 < (nr == NR_TASKS ? 95 : 60))
			begin(&t->se);
	}
	for (k = 0; k < NR_EVENTS; k++) {
		struct smart_entity *pick = decide("event", seed);
		const char *what = event(pick);

		/* The constraint timers: expiry at the deadline. */
		for (i = 0; i < nr; i++) {
			struct smart_entity *se = &task[i].se;

			if (se->tc.deadline && (s64)(se->tc.deadline - now) <= 0)
				smart_tc_end(se->queue, se, &params);
		}
		decide(what, seed);
	}
	for (i = 0; i < nr; i++)
		if (task[i].se.queue)
			smart_leave(&q, &task[i].se);
}

/* pickcost --tasks 100 --constrained 32, as the kernel sees it. */
static void turns(void)
{
	struct smart_tc tc = { .deadline = MS(50000), .estimate = MS(40000) / 32 };
	unsigned long rebuilds = 0, seen_all = 0, order_ok = 0;
	bool ran[32] = { };
	int i, k;

	smart_queue_init(&q);
	now = 0;
	for (i = 0; i < 100; i++) {
		smart_entity_init(&task[i].se, i < 32 ? 1 : 0, 1024);
		smart_join(&q, &task[i].se, SMART_JOIN_NEW, &params);
		if (i < 32)
			smart_tc_begin(&q, &task[i].se, &tc);
	}
	smart_decide(&q, now);
	for (k = 0; k < 3200; k++) {
		struct smart_entity *pick = q.pick;
		struct smart_ws ws, rej;

		now += US(3);
		smart_charge(&q, pick, now, US(3), &params);
		smart_yield(&q, pick, &params);
		rebuilds += q.changed;
		pick = smart_decide(&q, now);
		order_ok += pick == smart_pick_tc(&q, now, &ws, &rej) &&
			    same_ws(&q.ws, &ws);
		seen_all += q.ws.nr == 32;
		ran[container_of(pick, struct itask, se) - task] = true;
	}
	for (i = 0, k = 0; i < 32; i++)
		k += ran[i];
	tap_ok(rebuilds == 0 && order_ok == 3200 && seen_all == 3200 && k == 32,
	       "incremental: 32 constrained tasks take turns by yield without a rebuild",
	       "expected 0 rebuilds, 3200 decisions as a rebuild, 32 in the schedule, all 32 run; seen %lu rebuilds, %lu equal, %lu with 32, %d ran",
	       rebuilds, order_ok, seen_all, k);
	for (i = 0; i < 100; i++)
		smart_leave(&q, &task[i].se);
}

/* Decide, and compare with a rebuild at the same time. */
static bool equal(u64 t)
{
	static struct smart_ws ws, rej;
	struct smart_entity *pick = smart_decide(&q, t);

	return pick == smart_pick_tc(&q, t, &ws, &rej) && same_ws(&q.ws, &ws) &&
	       same_ws(&q.rejected, &rej);
}

static void leave_all(struct smart_entity *const *se, int n)
{
	while (n--)
		smart_leave(&q, se[n]);
}

/*
 * F (share 1) between two periodic constraints, its next one @tf as
 * predicted; A at priority @prio_a and B at 0 with constraints @ta, @tb.
 */
static void with_future(struct smart_entity *const fab[3], s32 prio_a,
			const struct smart_tc *tf, const struct smart_tc *ta,
			const struct smart_tc *tb)
{
	int i;

	smart_queue_init(&q);
	smart_entity_init(fab[0], 0, 1);
	smart_entity_init(fab[1], prio_a, 1024);
	smart_entity_init(fab[2], 0, 1024);
	for (i = 0; i < 3; i++)
		smart_join(&q, fab[i], SMART_JOIN_NEW, &params);
	smart_tc_begin(&q, fab[0], tf);
	smart_tc_end(&q, fab[0], &params);
	/* F is behind the others: it rejoins with a fresh quantum, eq. (7) */
	smart_leave(&q, fab[0]);
	smart_join(&q, fab[0], SMART_JOIN_WAKE, &params);
	smart_tc_begin(&q, fab[1], ta);
	smart_tc_begin(&q, fab[2], tb);
}

/*
 * Cases a review found, each with a task that runs out of turn or a
 * schedule at its size limit; random runs rarely make them.
 */
static void cases(void)
{
	static struct smart_entity f, a, b, c, many[SMART_WS_MAX + 1];
	struct smart_entity *const fab[] = { &f, &a, &b }, *const abc[] = { &a, &b, &c };
	u64 t = MS(1000);
	struct smart_tc tf = { .deadline = t + MS(5) - US(1), .estimate = US(1), .period = US(1) };
	struct smart_tc ta = { .deadline = t + MS(20), .estimate = MS(30) };
	struct smart_tc tb = { .deadline = t + MS(20), .estimate = MS(5) };
	bool ok;
	int i;

	/*
	 * F (share 1) has a predicted next constraint; A (priority 1) can
	 * never fit, B fits but for F's next constraint.  F runs 4 us out of
	 * turn: its v, and so its next constraint's value, moves past B's.
	 */
	tf.load = smart_tc_load(tf.estimate, tf.period);
	with_future(fab, 1, &tf, &ta, &tb);
	ok = equal(t) && q.ws.nr == 0;
	t += US(4);
	smart_charge(&q, &f, t, US(4), &params);
	ok = ok && equal(t);
	tap_ok(ok, "incremental: a task with a predicted constraint that runs out of turn rebuilds",
	       "expected the decision of a rebuild; seen pick %s, ws %u, rejected %u",
	       q.pick == &a ? "A" : q.pick == &b ? "B" : "other", q.ws.nr,
	       q.rejected.nr);
	leave_all(fab, 3);

	/* A conventional task's time out of turn shrinks every slack. */
	ta = (struct smart_tc){ .deadline = t + MS(100), .estimate = MS(50) };
	tb = (struct smart_tc){ .deadline = t + MS(60), .estimate = MS(45) };
	smart_queue_init(&q);
	smart_entity_init(&a, 1, 1024);
	smart_entity_init(&b, 0, 1024);
	smart_entity_init(&c, 0, 1);
	for (i = 0; i < 3; i++)
		smart_join(&q, abc[i], SMART_JOIN_NEW, &params);
	smart_tc_begin(&q, &a, &ta);
	smart_tc_begin(&q, &b, &tb);
	ok = equal(t) && q.ws.nr == 2;
	t += MS(6);
	smart_charge(&q, &c, t, MS(6), &params);
	ok = ok && equal(t) && q.pick == &a && q.rejected.nr == 1;
	tap_ok(ok, "incremental: a conventional task's time out of turn rebuilds",
	       "expected A to run and B rejected; seen pick %s, rejected %u",
	       q.pick == &a ? "A" : q.pick == &b ? "B" : "other", q.rejected.nr);
	leave_all(abc, 3);

	/* A yield moves a candidate behind a predicted constraint. */
	tf = (struct smart_tc){ .deadline = t + US(500) - 2000, .estimate = 1000,
				.period = 2000 };
	tf.load = smart_tc_load(tf.estimate, tf.period);
	ta = (struct smart_tc){ .deadline = t + US(700), .estimate = US(600) };
	tb = (struct smart_tc){ .deadline = t + MS(100), .estimate = MS(5) };
	with_future(fab, 0, &tf, &ta, &tb);
	ok = equal(t) && q.ws.nr == 2;
	smart_yield(&q, &a, &params);
	ok = ok && equal(t) && q.ws.nr == 1 && q.rejected.nr == 1;
	tap_ok(ok, "incremental: a yield behind a predicted constraint checks it again",
	       "expected ws 1, rejected 1; seen ws %u, rejected %u", q.ws.nr,
	       q.rejected.nr);
	leave_all(fab, 3);

	/* A schedule of SMART_WS_MAX, and one more candidate behind them. */
	smart_queue_init(&q);
	ta = (struct smart_tc){ .deadline = t + MS(50000), .estimate = MS(600) };
	for (i = 0; i <= SMART_WS_MAX; i++) {
		smart_entity_init(&many[i], 1, 1024);
		smart_join(&q, &many[i], SMART_JOIN_NEW, &params);
		if (i == SMART_WS_MAX)
			ta.deadline += MS(1);
		smart_tc_begin(&q, &many[i], &ta);
		if (i == SMART_WS_MAX - 1)
			ok = equal(t) && q.ws.nr == SMART_WS_MAX && q.ws_all;
	}
	ok = ok && equal(t) && q.ws.nr == SMART_WS_MAX && !q.rejected.nr &&
	     !q.ws_all;
	tap_ok(ok, "incremental: a candidate beyond SMART_WS_MAX is neither placed nor rejected",
	       "expected ws %d, rejected 0; seen ws %u, rejected %u", SMART_WS_MAX,
	       q.ws.nr, q.rejected.nr);
	for (i = 0; i <= SMART_WS_MAX; i++)
		smart_leave(&q, &many[i]);
}

int main(void)
{
	unsigned long seed;

	for (seed = 1; seed <= NR_RUNS; seed++)
		run(seed);
	tap_diag("%lu decisions: %lu rebuilt, %lu kept as they were, %lu changed in place; %lu with every candidate placed",
		 st.decisions, st.rebuilds, st.kept,
		 st.decisions - st.rebuilds - st.kept, st.all_fit);
	tap_ok(st.mismatches == 0,
	       "incremental: every decision equals a rebuild (pick, schedule, rejected)",
	       "expected 0 mismatches in %lu decisions, seen %lu", st.decisions,
	       st.mismatches);
	tap_ok((st.decisions - st.rebuilds - st.kept) * 10 >=
	       st.decisions - st.kept,
	       "incremental: a fair part of the new decisions changed the schedule in place",
	       "expected >= 10%% of %lu, seen %lu", st.decisions - st.kept,
	       st.decisions - st.rebuilds - st.kept);
	turns();
	cases();
	return tap_done();
}
