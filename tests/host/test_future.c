// SPDX-License-Identifier: GPL-2.0
/*
 * The next constraint of a periodic task between two of its constraints
 * (struct smart_future): eq. (8) gives a periodic constraint the future
 * load F (t - D) after its deadline, but a task that ended its constraint
 * and sleeps until its next period is in no working schedule.  Its next
 * request still comes, with an earlier deadline than a long constraint
 * begun meanwhile, and takes the CPU from it.  The core keeps that next
 * constraint on the queue as the last one predicts it (released at the
 * last deadline, due a period later, the same estimate and load) and
 * counts it, for the more important tasks, in the prediction and the
 * decision.
 *
 * First worked numbers, then random periodic worlds: periodic tasks with
 * exact estimates that declare their period, or do not, hogs, and a probe
 * that begins one constraint at a random time.  A FEASIBLE prediction of
 * the probe must end MET, as in test_predict, now that what arrives was
 * foreseen.
 */
#include "tap.h"
#include "sim.h"

#define MS(x)		((u64)(x) * 1000000ULL)

#define TICK		MS(1)

static const struct smart_params params = {
	.quantum_ns = MS(10), .bias_step_ns = MS(10),
	.bias_max_ns = MS(100), .sleep_credit_ns = MS(100),
};

static struct smart_tc mk_tc(u64 deadline, u64 estimate, u64 period)
{
	return (struct smart_tc){
		.deadline = deadline, .estimate = estimate,
		.load = smart_tc_load(estimate, period), .period = period,
	};
}

/*
 * N (period 30 ms, estimate 15 ms: F = 0.5) ends its constraint due at
 * 10 ms and sleeps; E is runnable.  Both joined at V = 0 with share
 * 1024, so N's value tuple is (0, 10 ms), ahead of E's once E begins a
 * constraint of 40 ms: (0, 40 ms).
 */
static void setup(struct smart_queue *q, struct smart_entity *n,
		  struct smart_entity *e, s32 n_prio, u64 n_period)
{
	struct smart_tc tc = mk_tc(MS(10), n_period / 2, n_period);

	smart_queue_init(q);
	smart_entity_init(n, n_prio, 1024);
	smart_entity_init(e, 0, 1024);
	smart_join(q, n, SMART_JOIN_NEW, &params);
	smart_join(q, e, SMART_JOIN_NEW, &params);
	smart_tc_begin(q, n, &tc);
	smart_tc_end(q, n, &params);
	smart_sleep(q, n, 0, &params);
}

static void test_worked(void)
{
	struct smart_entity n, e;
	struct smart_queue q, q2;
	struct smart_ws ws, rej;
	struct smart_tc tc = mk_tc(MS(50), MS(40), 0);
	struct smart_entity *pick;

	setup(&q, &n, &e, 0, MS(30));
	tap_ok(!RB_EMPTY_ROOT(&q.future.rb_root) && n.future.tc.deadline == MS(40) &&
	       n.future.tc.estimate == MS(15) && n.future.tc.load == SMART_LOAD_ONE / 2,
	       "future: a periodic constraint due at 10 ms that ends predicts the next: D 40, Q 15, F 0.5",
	       "expected D 40 ms, Q 15 ms, F 2^19; seen %llu, %llu, %llu",
	       (unsigned long long)n.future.tc.deadline, (unsigned long long)n.future.tc.estimate,
	       (unsigned long long)n.future.tc.load);
	tap_eq("future: E (D 50, Q 40) gets 50 - (15 + 0.5 * (50 - 40)) = 30 ms", MS(30),
	       smart_tc_available(&q, &e, &tc, 0, &ws, &params), "ns");
	tc = mk_tc(MS(35), MS(20), 0);
	tap_eq("future: N's next constraint is due after E's (D 35): E gets all 35 ms", MS(35),
	       smart_tc_available(&q, &e, &tc, 0, &ws, &params), "ns");
	tc = mk_tc(MS(50), MS(10), 0);
	tap_eq("future: N's next constraint, (0, 0 + 15 ms), would come after E's (0, 10 ms): 50 ms",
	       MS(50), smart_tc_available(&q, &e, &tc, 0, &ws, &params), "ns");
	tc = mk_tc(MS(50), MS(40), 0);

	smart_tc_begin(&q, &e, &tc);
	pick = smart_pick_tc(&q, 0, &ws, &rej);
	tap_ok(pick == &e && ws.nr == 0 && rej.nr == 1,
	       "future: E is no candidate the schedule keeps (40 + 20 > 50), it runs work conserving",
	       "expected E, schedule 0, rejected 1; seen %s, %u, %u",
	       pick == &e ? "E" : "other", ws.nr, rej.nr);
	smart_tc_end(&q, &e, &params);

	tc = mk_tc(MS(60), MS(20), 0);
	tap_eq("future: at 20 ms, E (D 60) gets 40 - (15 + 0.5 * 20) = 15 ms",
	       MS(15), smart_tc_available(&q, &e, &tc, MS(20), &ws, &params), "ns");
	tc = mk_tc(MS(90), MS(10), 0);
	tap_eq("future: past its predicted deadline N no longer counts: 50 ms",
	       MS(50), smart_tc_available(&q, &e, &tc, MS(40), &ws, &params), "ns");

	/* It moves with its task, and its next constraint replaces it. */
	smart_queue_init(&q2);
	smart_leave(&q, &n);
	smart_join(&q2, &n, SMART_JOIN_MOVE, &params);
	tap_ok(RB_EMPTY_ROOT(&q.future.rb_root) && !RB_EMPTY_ROOT(&q2.future.rb_root),
	       "future: leaving a queue takes it along to the next",
	       "expected on q2 only");
	tc = mk_tc(MS(40), MS(15), MS(30));
	smart_tc_begin(&q2, &n, &tc);
	tap_ok(RB_EMPTY_ROOT(&q2.future.rb_root) && !n.future.tc.deadline,
	       "future: the next constraint begins and replaces it",
	       "expected none left, seen D %llu", (unsigned long long)n.future.tc.deadline);

	/* Only more important tasks keep their place. */
	setup(&q, &n, &e, -1, MS(30));
	tc = mk_tc(MS(50), MS(40), 0);
	tap_eq("future: a lower priority's next period does not count: 50 ms", MS(50),
	       smart_tc_available(&q, &e, &tc, 0, &ws, &params), "ns");
	setup(&q, &n, &e, 0, 0);
	tap_ok(RB_EMPTY_ROOT(&q.future.rb_root) &&
	       smart_tc_available(&q, &e, &tc, 0, &ws, &params) == MS(50),
	       "future: an aperiodic constraint leaves nothing: 50 ms",
	       "expected no future load and 50 ms");
}

/* ---- the queue's predicted constraints in order ------------------------- */

#define NR_ORDER	200

/*
 * Periodic tasks end constraints in random order with deadlines from a
 * small set (many ties): the queue holds every next constraint, earliest
 * first, those due together in the order they were predicted; a walk
 * that begins them from the first sees each once.
 */
static void test_order(void)
{
	static struct smart_entity se[NR_ORDER];
	unsigned int i, n = 0, bad = 0;
	struct smart_queue q;
	struct rb_node *nd;
	const struct smart_entity *last = NULL;

	smart_queue_init(&q);
	sim_rng_state = 42;
	for (i = 0; i < NR_ORDER; i++) {
		struct smart_tc tc = mk_tc(MS(sim_rnd_in(1, 8)), MS(1), MS(10));

		smart_entity_init(&se[i], 0, 1024);
		smart_join(&q, &se[i], SMART_JOIN_NEW, &params);
		smart_tc_begin(&q, &se[i], &tc);
		smart_tc_end(&q, &se[i], &params);
	}
	for (nd = rb_first_cached(&q.future); nd; nd = rb_next(nd), n++) {
		const struct smart_entity *o =
			rb_entry(nd, struct smart_entity, future.node);

		if (last && (last->future.tc.deadline > o->future.tc.deadline ||
			     (last->future.tc.deadline == o->future.tc.deadline &&
			      last > o)))
			bad++;
		last = o;
	}
	tap_ok(n == NR_ORDER && !bad,
	       "future: 200 predictions in random order: all on the queue, by deadline, ties in order",
	       "expected 200 in order; seen %u, %u out of order", n, bad);
	for (i = 0; i < NR_ORDER; i++) {
		struct smart_tc tc = mk_tc(MS(20), MS(1), MS(10));

		smart_tc_begin(&q, &se[i], &tc);
	}
	tap_ok(RB_EMPTY_ROOT(&q.future.rb_root),
	       "future: each next constraint begun leaves the queue", "some left");
}

/* ---- random periodic worlds -------------------------------------------- */

#define NR_TASKS	8
#define NR_WORLDS	2000

enum kind { HOG, PERIODIC, PROBE };

struct ftask {
	struct smart_entity se;
	enum kind kind;
	u64 period, estimate, release;	/* PERIODIC: its next release */
	u64 work;			/* CPU its job still needs */
	bool asleep, done, met;
};

struct world {
	struct smart_queue q;
	struct ftask t[NR_TASKS];
	int nr;
	bool declared;			/* periodic tasks declare their period */
	u64 now;
};

/* A periodic task's next job: released now, due one period later. */
static void release(struct world *w, struct ftask *t)
{
	struct smart_tc tc = mk_tc(t->release + t->period, t->estimate,
				   w->declared ? t->period : 0);

	if (t->asleep)
		smart_wake(&w->q, &t->se, w->now, &params);
	t->asleep = false;
	smart_tc_begin(&w->q, &t->se, &tc);
	t->work = t->estimate;
	t->release += t->period;
}

static void finish(struct world *w, struct ftask *t)
{
	if (t->se.tc.deadline)
		smart_tc_end(&w->q, &t->se, &params);
	t->work = 0;
	smart_sleep(&w->q, &t->se, w->now, &params);
	t->asleep = true;
}

static void run_until(struct world *w, u64 end)
{
	struct smart_ws ws, rej;

	while (w->now < end) {
		struct smart_entity *se;
		struct ftask *p;
		u64 stop = (w->now / TICK + 1) * TICK, d;
		int i;

		for (i = 0; i < w->nr; i++) {
			struct ftask *t = &w->t[i];

			/* expiry at the deadline: the job is abandoned */
			if (t->se.tc.deadline && t->se.tc.deadline <= w->now) {
				if (t->kind == PROBE)
					t->done = true;
				finish(w, t);
			}
			if (t->kind == PERIODIC && t->release <= w->now)
				release(w, t);
			if (t->kind == PERIODIC && t->release < stop)
				stop = t->release;
			d = t->se.tc.deadline;
			if (d && d < stop)
				stop = d;
		}
		if (stop > end)
			stop = end;
		se = smart_pick_tc(&w->q, w->now, &ws, &rej);
		if (!se) {
			w->now = stop;
			continue;
		}
		p = container_of(se, struct ftask, se);
		d = smart_quantum_left(se);
		if (d && w->now + d < stop)
			stop = w->now + d;
		if (p->work && w->now + p->work < stop)
			stop = w->now + p->work;
		smart_charge(&w->q, se, stop, stop - w->now, &params);
		d = stop - w->now;
		w->now = stop;
		if (p->kind == HOG || !p->work || (p->kind == PROBE && p->done))
			continue;
		p->work -= d;
		if (p->work)
			continue;
		if (p->kind == PROBE) {
			p->done = true;
			p->met = stop <= se->tc.deadline;
		}
		finish(w, p);
	}
}

struct tally {
	unsigned long feasible, met;
};

/*
 * One world from @seed; the probe's estimate is @estimate, or random if
 * 0.  Return: what was predicted available.
 */
static u64 world(unsigned long seed, bool declared, u64 estimate,
		 struct tally *res)
{
	struct world *w = calloc(1, sizeof(*w));
	u64 t0, rel, avail, util = 0;
	struct smart_ws scratch;
	struct smart_tc tc;
	struct ftask *pr;
	int i, nr_periodic, nr_hogs;

	sim_rng_state = seed * 0x9E3779B97F4A7C15ULL + 7;
	smart_queue_init(&w->q);
	w->declared = declared;
	nr_periodic = (int)sim_rnd_in(1, 4);
	nr_hogs = (int)sim_rnd_in(0, NR_TASKS - 1 - nr_periodic);
	w->nr = nr_periodic + nr_hogs + 1;
	for (i = 0; i < w->nr; i++) {
		struct ftask *t = &w->t[i];

		t->kind = i < nr_periodic ? PERIODIC : i < w->nr - 1 ? HOG : PROBE;
		smart_entity_init(&t->se, 0, 1024);
		smart_join(&w->q, &t->se, SMART_JOIN_NEW, &params);
		if (t->kind != PERIODIC)
			continue;
		t->period = sim_rnd_in(20, 100) * MS(1);
		/* together at most 70% of the CPU */
		t->estimate = t->period * sim_rnd_in(5, 70 / nr_periodic) / 100;
		util += t->estimate * 100 / t->period;
		t->release = sim_rnd_in(0, t->period / MS(1)) * MS(1);
		smart_sleep(&w->q, &t->se, 0, &params);
		t->asleep = true;
	}

	/* Warm up, then the probe begins one constraint. */
	t0 = sim_rnd_in(200, 600) * MS(1);
	run_until(w, t0);
	pr = &w->t[w->nr - 1];
	rel = sim_rnd_in(20, 300) * MS(1);
	tc = mk_tc(t0 + rel, estimate ?: rel * sim_rnd_in(2, 100 - util) / 100, 0);
	avail = smart_tc_available(&w->q, &pr->se, &tc, t0, &scratch, &params);
	smart_tc_begin(&w->q, &pr->se, &tc);
	pr->work = tc.estimate;
	run_until(w, t0 + rel + MS(1));
	if (avail >= tc.estimate) {
		res->feasible++;
		res->met += pr->met;
	}
	free(w);
	return avail;
}

static void test_worlds(void)
{
	struct tally with = { }, without = { }, edge = { }, edge_without = { };
	unsigned long seed;
	u64 avail;

	for (seed = 1; seed <= NR_WORLDS; seed++) {
		avail = world(seed, true, 0, &with);
		if (avail >= MS(1))
			world(seed, true, avail, &edge);
		avail = world(seed, false, 0, &without);
		if (avail >= MS(1))
			world(seed, false, avail, &edge_without);
	}
	tap_diag("periods declared: random estimates %lu FEASIBLE, %lu MET (%.2f%%); estimate = available %lu, %lu MET (%.2f%%)",
		 with.feasible, with.met, sim_pct(with.met, with.feasible),
		 edge.feasible, edge.met, sim_pct(edge.met, edge.feasible));
	tap_diag("no period declared: random estimates %lu FEASIBLE, %lu MET (%.2f%%); estimate = available %lu, %lu MET (%.2f%%)",
		 without.feasible, without.met, sim_pct(without.met, without.feasible),
		 edge_without.feasible, edge_without.met,
		 sim_pct(edge_without.met, edge_without.feasible));
	tap_ok(with.feasible >= NR_WORLDS / 10 && with.met * 100 >= with.feasible * 99,
	       "future: beside periodic tasks between constraints, FEASIBLE ends MET in >= 99%",
	       "expected >= 99%% of >= %d; seen %lu of %lu (%.2f%%)", NR_WORLDS / 10,
	       with.met, with.feasible, sim_pct(with.met, with.feasible));
	/*
	 * At the boundary most of the rest miss because a next constraint
	 * due after the probe's deadline counts only there: the probe may
	 * take what that one needs before its deadline, and once it is a
	 * candidate, more important, it keeps its place and the probe is
	 * rejected (65 of 730).  Checking those deadlines too makes this
	 * 97.4% but costs the Figure 3 players a third of their frames (see
	 * Documentation/scheduler/sched-smart.rst, "The working schedule").
	 */
	tap_ok(edge.feasible >= NR_WORLDS / 10 && edge.met * 100 >= edge.feasible * 90 &&
	       sim_pct(edge.met, edge.feasible) >=
	       sim_pct(edge_without.met, edge_without.feasible) + 25,
	       "future: at estimate = available, >= 90% MET, 25 points above not counting it",
	       "expected >= 90%% of >= %d and +25 points; seen %lu of %lu (%.2f%%), without %.2f%%",
	       NR_WORLDS / 10, edge.met, edge.feasible, sim_pct(edge.met, edge.feasible),
	       sim_pct(edge_without.met, edge_without.feasible));
}

/*
 * A task that hands its work over and sleeps (smart_sleep_no_credit())
 * leaves its queue, unless it is a periodic task between two of its
 * constraints: that one keeps its credit and its predicted next
 * constraint, counted for the others.
 */
static void test_handoff(void)
{
	struct smart_tc tc = mk_tc(MS(10), MS(15), MS(30));
	struct smart_entity n, e;
	struct smart_queue q;
	int periodic;
	bool stays;

	for (periodic = 0; periodic < 2; periodic++) {
		smart_queue_init(&q);
		smart_entity_init(&n, 0, 1024);
		smart_entity_init(&e, 0, 1024);
		smart_join(&q, &n, SMART_JOIN_NEW, &params);
		smart_join(&q, &e, SMART_JOIN_NEW, &params);
		if (periodic) {
			smart_tc_begin(&q, &n, &tc);
			smart_tc_end(&q, &n, &params);
		}
		smart_sleep_no_credit(&q, &n, 0, &params);
		stays = n.state == SMART_SE_SLEEPING && n.queue == &q &&
			!RB_EMPTY_ROOT(&q.future.rb_root);
		tap_ok(periodic ? stays : !n.queue,
		       periodic ? "future: hand-off: a periodic task sleeps on the queue, predicted" :
				  "future: hand-off: an aperiodic task leaves the queue",
		       "expected it %s the queue; it is %s (state %d)",
		       periodic ? "on" : "off", n.queue ? "on" : "off", n.state);
	}
}

int main(void)
{
	test_worked();
	test_handoff();
	test_order();
	test_worlds();
	return tap_done();
}
