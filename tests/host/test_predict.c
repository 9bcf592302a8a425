// SPDX-License-Identifier: GPL-2.0
/*
 * Does a FEASIBLE prediction hold?  smart_tc_available() is what
 * smart_constraint_begin() returns as ->available; ->status is FEASIBLE
 * when it covers the estimate.  In a steady workload, where nothing new
 * arrives after the begin, a FEASIBLE constraint whose estimate is exact
 * must end MET.  This runs many random scenarios through the core and
 * counts.
 *
 * A scenario is one CPU with up to NR_TASKS tasks of random priorities
 * (mostly equal) and shares:
 *
 *  - hogs, always runnable;
 *  - constrained tasks, which at t0 begin a constraint (deadline 10-400
 *    ms ahead, estimate 2-60% of that, declared periodic or not), need
 *    exactly their estimate, end it and block for good;
 *  - the probe, a constrained task that begins last, at t0.
 *
 * Before t0 every task runs as a conventional hog for a random warm-up
 * (up to 300 ms), some of them blocking for a while and waking at t0, so
 * that virtual times, biases and sleep credit differ.  From t0 on nothing
 * arrives.  The CPU is decided as the kernel does (smart_pick_tc() at
 * every event: the end of a quantum, a 1 ms resolution tick, a job done,
 * a deadline), constraints expire at their deadline, and each probe is
 * run twice: with a random estimate, and with an estimate equal to what
 * was predicted available (the boundary, where a prediction that is a
 * little optimistic shows).  The starvation valve (1 s) never acts within
 * a scenario's 700 ms.
 */
#include "tap.h"
#include "sim.h"

#define MS(x)		((u64)(x) * 1000000ULL)
#define NR_TASKS	8
#define NR_SCENARIOS	3000
#define TICK		MS(1)

struct ptask {
	struct smart_entity se;
	bool constrained;
	u64 deadline, estimate, period;
	u64 work;		/* CPU its job still needs (constrained, from t0) */
	bool asleep, done, met;
	u64 sleep_at, wake_at;	/* warm-up sleep */
};

struct scenario {
	struct smart_queue q;
	struct ptask t[NR_TASKS];
	int nr;
	int probe;
	u64 now;
};

static const struct smart_params params = {
	.quantum_ns = MS(10), .bias_step_ns = MS(10),
	.bias_max_ns = MS(100), .sleep_credit_ns = MS(100),
};

static int expired_before;	/* constraints of others that expired first */

static const u32 shares[] = { 256, 512, 1024, 1024, 1024, 2048, 4096 };

/* Run the CPU from s->now to @end: pick, charge, expire, finish jobs. */
static void run_until(struct scenario *s, u64 end, bool warm)
{
	struct smart_ws ws, rej;

	while (s->now < end) {
		struct smart_entity *se;
		struct ptask *p;
		u64 stop, left;
		int i;

		for (i = 0; i < s->nr; i++) {
			struct ptask *t = &s->t[i];

			if (warm && !t->asleep && t->sleep_at && t->sleep_at <= s->now &&
			    t->wake_at > s->now) {
				smart_sleep(&s->q, &t->se, s->now, &params);
				t->asleep = true;
			}
			if (warm && t->asleep && t->wake_at <= s->now) {
				smart_wake(&s->q, &t->se, s->now, &params);
				t->asleep = false;
				t->sleep_at = 0;
			}
			/* The constraint timer: expiry at the deadline. */
			if (!warm && t->se.tc.deadline && t->se.tc.deadline <= s->now) {
				if (!s->t[s->probe].done && t != &s->t[s->probe])
					expired_before++;
				smart_tc_end(&s->q, &t->se, &params);
			}
		}

		se = smart_pick_tc(&s->q, s->now, &ws, &rej);
		stop = (s->now / TICK + 1) * TICK;
		if (stop > end)
			stop = end;
		for (i = 0; i < s->nr; i++) {
			struct ptask *t = &s->t[i];

			if (warm && !t->asleep && t->sleep_at > s->now && t->sleep_at < stop)
				stop = t->sleep_at;
			if (warm && t->asleep && t->wake_at < stop)
				stop = t->wake_at;
			if (t->se.tc.deadline && t->se.tc.deadline < stop)
				stop = t->se.tc.deadline;
		}
		if (!se) {
			s->now = stop;
			continue;
		}
		p = container_of(se, struct ptask, se);
		left = smart_quantum_left(se);
		if (left && s->now + left < stop)
			stop = s->now + left;
		if (!warm && p->constrained && !p->done && s->now + p->work < stop)
			stop = s->now + p->work;

		smart_charge(&s->q, se, stop, stop - s->now, &params);
		if (!warm && p->constrained && !p->done) {
			p->work -= stop - s->now;
			if (!p->work) {
				p->done = true;
				p->met = se->tc.deadline && stop <= se->tc.deadline;
				if (se->tc.deadline)
					smart_tc_end(&s->q, se, &params);
				smart_sleep(&s->q, se, stop, &params);
			}
		}
		s->now = stop;
	}
}

struct result {
	unsigned long feasible, feasible_met, infeasible, infeasible_met;
	unsigned long worst_scenario;
	unsigned long miss_expired, miss_steady;
	s64 worst_short;	/* largest (finish - deadline) of a FEASIBLE miss */
};

/*
 * One scenario from @seed; the probe's estimate is @estimate, or random
 * if 0.  Return: what was predicted available (for the boundary run).
 */
static u64 scenario(unsigned long seed, u64 estimate, struct result *res)
{
	struct scenario *s = calloc(1, sizeof(*s));
	u64 t0, avail, rel;
	struct smart_ws scratch;
	struct smart_tc tc;
	struct ptask *pr;
	int i, order[NR_TASKS];

	sim_rng_state = seed * 0x9E3779B97F4A7C15ULL + 1;
	smart_queue_init(&s->q);
	s->nr = (int)sim_rnd_in(2, NR_TASKS);
	s->probe = s->nr - 1;
	t0 = sim_rnd_in(0, 300) * MS(1);
	for (i = 0; i < s->nr; i++) {
		struct ptask *t = &s->t[i];
		u64 r = sim_rnd() % 100;
		s32 prio = r < 80 ? 0 : r < 90 ? -1 : 1;

		if (i == s->probe)
			prio = 0;
		smart_entity_init(&t->se, prio, shares[sim_rnd() % 7]);
		smart_join(&s->q, &t->se, SMART_JOIN_NEW, &params);
		t->constrained = i == s->probe || sim_rnd() % 100 < 60;
		if (t0 && sim_rnd() % 100 < 30) {
			t->sleep_at = sim_rnd_in(1, t0);
			t->wake_at = t0;
		}
	}
	run_until(s, t0, true);
	for (i = 0; i < s->nr; i++)
		if (s->t[i].asleep) {
			smart_wake(&s->q, &s->t[i].se, t0, &params);
			s->t[i].asleep = false;
		}

	/* The other constraints begin at t0, in random order. */
	for (i = 0; i < s->nr; i++)
		order[i] = i;
	for (i = s->nr - 2; i > 0; i--) {
		int j = (int)(sim_rnd() % (i + 1)), x = order[i];

		order[i] = order[j];
		order[j] = x;
	}
	for (i = 0; i < s->nr - 1; i++) {
		struct ptask *t = &s->t[order[i]];

		if (!t->constrained)
			continue;
		rel = sim_rnd_in(10, 400) * MS(1);
		t->deadline = t0 + rel;
		t->estimate = rel * sim_rnd_in(2, 60) / 100;
		t->period = sim_rnd() % 2 ? rel * sim_rnd_in(100, 300) / 100 : 0;
		t->work = t->estimate;
		tc = (struct smart_tc){ .deadline = t->deadline, .estimate = t->estimate,
					.load = smart_tc_load(t->estimate, t->period) };
		smart_tc_begin(&s->q, &t->se, &tc);
	}

	/* The probe begins last. */
	pr = &s->t[s->probe];
	rel = sim_rnd_in(10, 400) * MS(1);
	pr->deadline = t0 + rel;
	pr->estimate = estimate ?: rel * sim_rnd_in(2, 100) / 100;
	pr->period = sim_rnd() % 2 ? rel : 0;
	pr->work = pr->estimate;
	tc = (struct smart_tc){ .deadline = pr->deadline, .estimate = pr->estimate,
				.load = smart_tc_load(pr->estimate, pr->period) };
	avail = smart_tc_available(&s->q, &pr->se, &tc, t0, &scratch, &params);
	smart_tc_begin(&s->q, &pr->se, &tc);

	expired_before = 0;
	run_until(s, t0 + MS(400), false);
	if (avail >= pr->estimate && !pr->met) {
		if (expired_before)
			res->miss_expired++;
		else
			res->miss_steady++;
	}

	if (avail >= pr->estimate) {
		res->feasible++;
		if (pr->met) {
			res->feasible_met++;
		} else {
			s64 late = pr->done ? (s64)(s->now - pr->deadline) : (s64)pr->work;

			if (late > res->worst_short || !res->worst_scenario) {
				res->worst_short = late;
				res->worst_scenario = seed;
			}
		}
	} else {
		res->infeasible++;
		res->infeasible_met += pr->met;
	}
	free(s);
	return avail;
}

int main(void)
{
	struct result rnd_res = { }, edge_res = { };
	unsigned long seed;

	for (seed = 1; seed <= NR_SCENARIOS; seed++) {
		u64 avail = scenario(seed, 0, &rnd_res);

		/* The same scenario at the boundary: estimate = available. */
		if (avail >= MS(1))
			scenario(seed, avail, &edge_res);
	}

	tap_diag("FEASIBLE and missed: %lu after another constraint expired, %lu without",
		 rnd_res.miss_expired + edge_res.miss_expired,
		 rnd_res.miss_steady + edge_res.miss_steady);
	tap_diag("random estimates: %lu FEASIBLE, %lu of them MET; %lu INFEASIBLE, %lu of them MET",
		 rnd_res.feasible, rnd_res.feasible_met, rnd_res.infeasible,
		 rnd_res.infeasible_met);
	tap_diag("estimate = available: %lu FEASIBLE, %lu of them MET",
		 edge_res.feasible, edge_res.feasible_met);
	tap_ok(rnd_res.feasible >= NR_SCENARIOS / 10 &&
	       rnd_res.feasible_met * 100 >= rnd_res.feasible * 99,
	       "predict: FEASIBLE with an exact estimate ends MET in >= 99% of random scenarios",
	       "expected >= 99%% of >= %d; seen %lu of %lu (%.2f%%), worst: scenario %lu short by %.3f ms",
	       NR_SCENARIOS / 10, rnd_res.feasible_met, rnd_res.feasible,
	       sim_pct(rnd_res.feasible_met, rnd_res.feasible), rnd_res.worst_scenario,
	       rnd_res.worst_short / 1e6);
	tap_ok(edge_res.feasible >= NR_SCENARIOS / 10 &&
	       edge_res.feasible_met * 100 >= edge_res.feasible * 99,
	       "predict: FEASIBLE at estimate = available ends MET in >= 99% of scenarios",
	       "expected >= 99%% of >= %d; seen %lu of %lu (%.2f%%), worst: scenario %lu short by %.3f ms",
	       NR_SCENARIOS / 10, edge_res.feasible_met, edge_res.feasible,
	       sim_pct(edge_res.feasible_met, edge_res.feasible), edge_res.worst_scenario,
	       edge_res.worst_short / 1e6);
	return tap_done();
}
