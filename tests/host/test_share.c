// SPDX-License-Identifier: GPL-2.0
/*
 * Proportional sharing, priorities, bias and sleep credit of the SMART
 * core, measured on the one-CPU simulator (sim.h).  Defaults: Q 10 ms,
 * b 10 ms, bias bounded by 100 ms, sleep credit 100 ms, 1 ms tick.
 *
 * Shares are measured as CPU time over a window; "+- 1%" is one
 * percentage point of the window.
 */
#include "tap.h"
#include "sim.h"

#define MS(x)	SIM_MS(x)
#define SEC(x)	SIM_S(x)
#define US(x)	SIM_US(x)

static char nbuf[256];
#define NAME(...) (snprintf(nbuf, sizeof(nbuf), __VA_ARGS__), nbuf)

/* ns (u64 or s64) to ms for messages */
static double ms(double ns)
{
	return ns / 1e6;
}

/* CPU of each task over [s->now, end) in percent of the window. */
static void run_window(struct sim *s, u64 end, double *pct)
{
	u64 before[SIM_MAX_TASKS];
	u64 start = s->now;
	int i;

	for (i = 0; i < s->nr; i++)
		before[i] = s->task[i]->cpu_ns;
	sim_run_until(s, end);
	for (i = 0; i < s->nr; i++)
		pct[i] = sim_pct(s->task[i]->cpu_ns - before[i], end - start);
}

/* ---- proportional shares among hogs ------------------------------------ */

static const struct share_case {
	const char *name;
	int nr;
	u32 share[4];
	double pct[4];	/* S_i / sum(S) */
} share_cases[] = {
	{ "1:1", 2, { 1024, 1024 }, { 50.0, 50.0 } },
	{ "1:2", 2, { 1024, 2048 }, { 100.0 / 3, 200.0 / 3 } },
	{ "1:1:2", 3, { 1024, 1024, 2048 }, { 25.0, 25.0, 50.0 } },
	{ "1:3 (256:768)", 2, { 256, 768 }, { 25.0, 75.0 } },
	{ "1:1:1:1", 4, { 1024, 1024, 1024, 1024 }, { 25.0, 25.0, 25.0, 25.0 } },
};

static void test_shares(void)
{
	static const char *const names[] = { "A", "B", "C", "D" };
	size_t c;
	int i;

	for (c = 0; c < ARRAY_SIZE(share_cases); c++) {
		const struct share_case *sc = &share_cases[c];
		double pct[SIM_MAX_TASKS];
		struct sim s;

		sim_init(&s);
		for (i = 0; i < sc->nr; i++)
			sim_hog(&s, names[i], 0, sc->share[i]);
		run_window(&s, SEC(10), pct);
		for (i = 0; i < sc->nr; i++)
			tap_pct(NAME("shares %s: hog %s (S=%u) over 10 s", sc->name,
				     names[i], sc->share[i]),
				sc->pct[i], pct[i], 1.0);
		sim_free(&s);
	}
}

/* Equal shares: A, B, A, B ... one quantum each. */
static void test_alternate(void)
{
	struct sim s;
	size_t i, bad = 0, first_bad = 0;

	sim_init(&s);
	sim_hog(&s, "A", 0, 1024);
	sim_hog(&s, "B", 0, 1024);
	sim_run_until(&s, SEC(10));
	/*
	 * Both join at V=0 with beta 10 ms; A is first in the tree.  Each
	 * quantum moves the runner's beta by (10 + b) ms and puts it after
	 * an equal BVFT, so they strictly alternate by quantum.
	 */
	for (i = 0; i < s.nr_runs; i++) {
		const struct sim_run *r = &s.runs[i];

		if (r->task != (int)(i % 2) || r->end - r->start != MS(10) ||
		    r->start != i * MS(10)) {
			if (!bad++)
				first_bad = i;
		}
	}
	if (bad)
		tap_ok(false, "equal shares: runs alternate A,B,A,B... of exactly one quantum (10 ms)",
		       "expected 1000 runs of 10 ms alternating, seen %zu runs, %zu out of pattern (first #%zu: %s [%.3f, %.3f) ms)",
		       s.nr_runs, bad, first_bad, s.task[s.runs[first_bad].task]->name,
		       ms(s.runs[first_bad].start), ms(s.runs[first_bad].end));
	else
		tap_ok(s.nr_runs == 1000,
		       "equal shares: runs alternate A,B,A,B... of exactly one quantum (10 ms)",
		       "expected 1000 runs of 10 ms alternating, seen %zu runs, all in pattern",
		       s.nr_runs);
	tap_pct("equal shares: A over 10 s", 50.0, sim_pct(s.task[0]->cpu_ns, SEC(10)), 1.0);
	tap_pct("equal shares: B over 10 s", 50.0, sim_pct(s.task[1]->cpu_ns, SEC(10)), 1.0);
	sim_free(&s);
}

/*
 * Long runs at the extreme shares: eq. (4) adds (Q + b) / S to the BVFT
 * once per quantum, and V of eq. (2) keeps its fraction of a virtual ns;
 * if the BVFT dropped its fraction, a task of share 2^20 (a quantum is
 * 9765.625 virtual ns) would fall 0.625 virtual ns behind V per quantum,
 * 125 ms of lag after 2000 s.  Hogs that all joined at V = 0 have lags
 * that sum to zero, whoever ran (V * sum(S) is the CPU time they all
 * had, v * S what each had): the sum stays within 0.1 ms for the whole
 * run.  Each lag stays within Q + the bias bound + a tick of zero for
 * every other hog: a hog waits until V_P reaches its BVFT, which is Q and
 * its bias ahead, while the others are ahead by as much.
 */
static const struct long_case {
	const char *name;
	int nr;
	u32 share[3];
} long_cases[] = {
	{ "1048576:1048576", 2, { SMART_SHARE_MAX, SMART_SHARE_MAX } },
	{ "1:1024:1048576", 3, { SMART_SHARE_MIN, 1024, SMART_SHARE_MAX } },
	{ "1:1", 2, { SMART_SHARE_MIN, SMART_SHARE_MIN } },
	{ "3:1048573", 2, { 3, SMART_SHARE_MAX - 3 } },
	{ "1000:3000:1048576", 3, { 1000, 3000, SMART_SHARE_MAX } },
};

static void test_long_run_lag(void)
{
	const s64 sum_bound = MS(1) / 10;
	size_t c;
	int i;

	for (c = 0; c < ARRAY_SIZE(long_cases); c++) {
		const struct long_case *lc = &long_cases[c];
		s64 bound = (lc->nr - 1) * (MS(10) + MS(100) + MS(1));
		s64 worst = 0, worst_sum = 0, sum = 0;
		struct sim s;
		u64 t;

		sim_init(&s);
		for (i = 0; i < lc->nr; i++)
			sim_hog(&s, "hog", 0, lc->share[i]);
		for (t = SEC(1); t <= SEC(2000); t += SEC(1)) {
			sim_run_until(&s, t);
			sum = 0;
			for (i = 0; i < lc->nr; i++) {
				s64 lag = smart_lag_ns(&s.task[i]->se);

				sum += lag;
				if (llabs(lag) > llabs(worst))
					worst = lag;
			}
			if (llabs(sum) > llabs(worst_sum))
				worst_sum = sum;
		}
		tap_ok(llabs(worst) <= bound && llabs(worst_sum) <= sum_bound,
		       NAME("shares %s, 2000 s: every lag within %.0f ms, their sum within "
			    "%.1f ms", lc->name, ms(bound), ms(sum_bound)),
		       "largest lag %.3f ms, largest sum %.6f ms, sum at 2000 s %.6f ms",
		       ms(worst), ms(worst_sum), ms(sum));
		sim_free(&s);
	}
}

/* ---- priorities ----------------------------------------------------------- */

static void test_priority(void)
{
	struct sim s;
	struct sim_task *hi, *lo;

	sim_init(&s);
	lo = sim_hog(&s, "lo", 0, 1024);
	hi = sim_hog(&s, "hi", 1, 1024);
	sim_run_until(&s, SEC(10));
	tap_eq("priority: prio 0 hog next to a prio 1 hog gets nothing in 10 s",
	       0, lo->cpu_ns, "ns");
	tap_eq("priority: prio 1 hog gets all 10 s", SEC(10), hi->cpu_ns, "ns");
	sim_free(&s);

	/*
	 * A prio 1 task with a tiny share blocks once for 500 ms: the prio 0
	 * hog with a huge share runs exactly while it sleeps, and the wake-up
	 * preempts at once (value tuple: priority first, §4.1).
	 */
	sim_init(&s);
	lo = sim_hog(&s, "lo", 0, SMART_SHARE_MAX);
	hi = sim_sleep_once(&s, "hi", 1, SMART_SHARE_MIN, SEC(1), MS(500));
	sim_run_until(&s, SEC(3));
	tap_eq("priority: prio 0 (S=max) runs only while prio 1 (S=min) sleeps 500 ms",
	       MS(500), lo->cpu_ns, "ns");
	tap_eq("priority: the prio 1 wake-up preempts at once", 0,
	       hi->max_wake_lat_ns, "ns latency");
	sim_free(&s);
}

/* ---- bias ----------------------------------------------------------------- */

static void test_bias(void)
{
	double pct[SIM_MAX_TASKS];
	struct sim_task *a, *b;
	struct sim s;
	size_t r;

	/*
	 * A runs alone for 1 s = 100 quanta: V = v_A = 1000 ms, bias 100 ms,
	 * beta_A = v + Q + B = 1110 ms.  B joins at 1 s: beta_B = V + Q =
	 * 1010 ms.  B runs first; each of its quanta adds Q + b = 20 ms, so
	 * it keeps the CPU until 1010 + 20k >= 1110: k = 5 quanta = 50 ms
	 * (on the tie A, already in the tree, goes first).
	 */
	sim_init(&s);
	a = sim_hog(&s, "A", 0, 1024);
	sim_run_until(&s, SEC(1));
	tap_ok(a->se.bias == MS(100) && a->se.bvft == MS(1110),
	       "bias: a hog alone for 1 s reaches the bias bound 100 ms, beta 1110 ms",
	       "expected bias 100000000 beta 1110000000, seen %llu %llu",
	       (unsigned long long)a->se.bias, (unsigned long long)a->se.bvft);
	b = sim_hog(&s, "B", 0, 1024);
	tap_eq("bias: fresh B joins at beta = V + Q = 1010 ms", MS(1010), b->se.bvft, "ns");
	run_window(&s, SEC(11), pct);
	r = sim_run_at(&s, SEC(1));
	tap_ok(r < s.nr_runs && s.runs[r].task == b->id && s.runs[r].start == SEC(1),
	       "bias: the fresh task runs first, at once",
	       "expected B's run starting at 1000 ms, seen task %s at %.3f ms",
	       r < s.nr_runs ? s.task[s.runs[r].task]->name : "none",
	       r < s.nr_runs ? ms(s.runs[r].start) : -1.0);
	tap_eq("bias: B keeps the CPU until the BVFTs meet: 5 quanta (k*(Q+b) >= B_A)",
	       MS(50), r < s.nr_runs ? s.runs[r].end - s.runs[r].start : 0, "ns");
	tap_pct("bias: long run (10 s after the join) A stays at 50%", 50.0, pct[a->id], 1.0);
	tap_pct("bias: long run (10 s after the join) B stays at 50%", 50.0, pct[b->id], 1.0);
	sim_free(&s);
}

/* ---- sleep credit ------------------------------------------------------- */

/*
 * A, B hogs and C, which blocks once (when it runs at or after 1 s) for
 * @sleep.  While C is on the queue its share slows V; when the credit
 * runs out it leaves and keeps only delta (eq. 5).  So its lag grows by
 * V's advance over min(sleep, credit): min(sleep, 100 ms) * 1024/3072.
 * Its extra service after waking, over 4 s, compared with a fair 1/3 of
 * those 4 s, must not exceed credit + Q = 110 ms.
 */
static void test_sleep_credit(void)
{
	static const struct { u64 sleep; double gain_ms; } c[] = {
		{ SEC(5), 100.0 / 3 },	/* credit-bounded: 100 ms / 3 */
		{ MS(50), 50.0 / 3 },	/* less than the credit: all of it */
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		struct sim_task *t;
		struct sim s;
		u64 wake, cpu0, win = SEC(4);
		double gain, extra;

		sim_init(&s);
		sim_hog(&s, "A", 0, 1024);
		sim_hog(&s, "B", 0, 1024);
		t = sim_sleep_once(&s, "C", 0, 1024, SEC(1), c[i].sleep);
		sim_run_until(&s, SEC(1) + c[i].sleep + MS(20));
		wake = t->last_wake;
		/* measure from the wake-up on: run the window from there */
		tap_ok(t->nr_wakeups == 1 && t->max_wake_lat_ns == 0,
		       NAME("sleep %.0f ms: woke once, picked at once", ms(c[i].sleep)),
		       "expected 1 wake-up, latency 0, seen %llu wake-ups, latency %llu ns (slept at %.3f ms, woke at %.3f ms)",
		       (unsigned long long)t->nr_wakeups,
		       (unsigned long long)t->max_wake_lat_ns, ms(t->last_sleep), ms(wake));
		gain = ms(t->lag_at_wake - t->lag_at_sleep);
		tap_ok(gain > c[i].gain_ms - 0.01 && gain < c[i].gain_ms + 0.01,
		       NAME("sleep %.0f ms: lag gained while asleep = min(sleep, credit)/3", ms(c[i].sleep)),
		       "expected %.3f ms, seen %.6f ms (lag %.3f -> %.3f ms)",
		       c[i].gain_ms, gain, ms(t->lag_at_sleep), ms(t->lag_at_wake));

		/* Re-run from the wake-up to measure the service after it. */
		sim_free(&s);
		sim_init(&s);
		sim_hog(&s, "A", 0, 1024);
		sim_hog(&s, "B", 0, 1024);
		t = sim_sleep_once(&s, "C", 0, 1024, SEC(1), c[i].sleep);
		sim_run_until(&s, wake);
		cpu0 = t->cpu_ns;
		sim_run_until(&s, wake + win);
		extra = ms(t->cpu_ns - cpu0) - ms(win) / 3;
		tap_ok(extra <= ms(s.p.sleep_credit_ns + s.p.quantum_ns) && extra > 0,
		       NAME("sleep %.0f ms: extra service after waking <= credit + Q", ms(c[i].sleep)),
		       "expected 0 < extra <= 110 ms over %.0f ms after the wake-up, seen %.3f ms (C got %.3f ms, fair %.3f ms)",
		       ms(win), extra, ms(t->cpu_ns - cpu0), ms(win) / 3);
		sim_free(&s);
	}
}

/*
 * An interactive task (run 1 ms, sleep 9 ms) among 3 hogs asks for 10% of
 * the CPU, less than its 25% share: its BVFT stays the earliest, so each
 * wake-up preempts within a tick.
 */
static void test_interactive(void)
{
	double pct[SIM_MAX_TASKS];
	struct sim_task *it;
	struct sim s;
	u64 picked;
	int i;

	sim_init(&s);
	for (i = 0; i < 3; i++)
		sim_hog(&s, "hog", 0, 1024);
	it = sim_periodic(&s, "I", 0, 1024, MS(9), MS(1));
	run_window(&s, SEC(10), pct);
	/* a wake-up at the very end of the run may not be picked yet */
	picked = it->nr_wakeups - it->wait_pick;
	tap_ok(picked > 900 && it->nr_fast_wakeups * 100 >= picked * 99,
	       "interactive: picked within 1 tick of waking in >= 99% of wake-ups",
	       "expected >= 99%% of ~1000, seen %llu of %llu (%.2f%%), worst latency %.3f ms",
	       (unsigned long long)it->nr_fast_wakeups, (unsigned long long)picked,
	       sim_pct(it->nr_fast_wakeups, picked), ms(it->max_wake_lat_ns));
	tap_pct("interactive: gets all it asks for, 1 ms per 10 ms", 10.0, pct[it->id], 0.5);
	for (i = 0; i < 3; i++)
		tap_pct(NAME("interactive: hog %d shares the rest equally", i), 30.0, pct[i], 1.0);
	sim_free(&s);
}

/*
 * Credit must not accumulate across sleeps.  The same interactive task
 * (run 1 ms, sleep 9 ms) among 3 hogs never sleeps past the credit, so it
 * never leaves the queue; §3.3: "A blocked task should not be allowed to
 * accumulate credit to a fair share indefinitely while it is sleeping".
 * Its lag may hold about one credit's worth, not the sum over all of its
 * sleeps: after 20 s, when it turns into a hog, its extra service over a
 * fair 1/4 must stay within sleep_credit + Q = 110 ms (the same bound as
 * one long sleep), and the hogs must not be locked out for longer than
 * that.
 *
 * Rationale for the numbers: per 10 ms period V advances 10 ms * 1024 /
 * 4096 = 2.5 ms while the task's v advances 1 ms, so without a bound its
 * lag grows by 1.5 ms per period, 3 s after 20 s.
 */
static void test_credit_accumulation(void)
{
	struct sim_task *it;
	struct sim s;
	u64 cpu0, t0, win = SEC(4), longest = 0;
	double extra;
	s64 lag;
	size_t r;
	int i;

	sim_init(&s);
	for (i = 0; i < 3; i++)
		sim_hog(&s, "hog", 0, 1024);
	it = sim_periodic(&s, "I", 0, 1024, MS(9), MS(1));
	sim_run_until(&s, SEC(20));
	lag = it->max_lag_at_wake;
	tap_ok(lag <= (s64)(s.p.sleep_credit_ns + s.p.quantum_ns),
	       "credit bound: a task sleeping 9 ms every 10 ms wakes with at most ~one credit of lag",
	       "expected lag at every wake-up <= credit + Q = %.3f ms over 20 s, seen at most %.3f ms (%llu wake-ups; lag now %.3f ms)",
	       ms(s.p.sleep_credit_ns + s.p.quantum_ns), ms(lag),
	       (unsigned long long)it->nr_wakeups, ms(smart_lag_ns(&it->se)));

	sim_become_hog(&s, it);
	t0 = s.now;
	cpu0 = it->cpu_ns;
	sim_run_until(&s, t0 + win);
	extra = ms(it->cpu_ns - cpu0) - ms(win) / 4;
	for (r = sim_run_at(&s, t0); r < s.nr_runs; r++)
		if (s.runs[r].task == it->id && s.runs[r].end - s.runs[r].start > longest)
			longest = s.runs[r].end - s.runs[r].start;
	tap_ok(extra <= ms(s.p.sleep_credit_ns + s.p.quantum_ns),
	       "credit bound: after turning hog its extra service <= credit + Q",
	       "expected extra <= 110 ms over the %.0f ms after the change, seen %.3f ms (got %.3f ms, fair %.3f ms)",
	       ms(win), extra, ms(it->cpu_ns - cpu0), ms(win) / 4);
	tap_ok(longest <= s.p.sleep_credit_ns + s.p.bias_max_ns + s.p.quantum_ns,
	       "credit bound: the hogs are not locked out longer than credit + bias + Q",
	       "expected its longest run <= 210 ms, seen %.3f ms", ms(longest));
	sim_free(&s);
}

/*
 * The credit bound must hold whatever the shares: a short sleeper whose
 * share is most of its level is not exempt.  Each case: one hog and a
 * task that runs 1 ms and sleeps 9 ms, for 20 s; at every wake-up its
 * lag (smart_lag_ns(), CPU ns behind its share) must be at most
 * sleep_credit + Q = 110 ms.
 */
static void test_credit_bound_shares(void)
{
	static const struct { u32 sleeper, hog; } c[] = {
		{ 1024, 1024 },
		{ 4096, 1024 },
		{ 16384, 1024 },
		{ 99 * 1024, 1024 },
		{ 1024, 99 * 1024 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		struct sim_task *it;
		struct sim s;

		sim_init(&s);
		sim_hog(&s, "hog", 0, c[i].hog);
		it = sim_periodic(&s, "I", 0, c[i].sleeper, MS(9), MS(1));
		sim_run_until(&s, SEC(20));
		tap_ok(it->max_lag_at_wake <= (s64)(s.p.sleep_credit_ns + s.p.quantum_ns),
		       NAME("credit bound at shares %u:%u (sleeper:hog): lag at wake-up <= credit + Q",
			    c[i].sleeper, c[i].hog),
		       "expected <= %.3f ms at each of %llu wake-ups over 20 s, seen at most %.3f ms",
		       ms(s.p.sleep_credit_ns + s.p.quantum_ns),
		       (unsigned long long)it->nr_wakeups, ms(it->max_lag_at_wake));
		sim_free(&s);
	}
}

/*
 * The same imbalance seen by a newcomer: eq. (3) places a new task at
 * V_P, which is meant to be where a task that "has received its
 * proportional allocation" stands (§3.3).  After 20 s of 3 hogs and the
 * interactive task, a fresh hog D must get about a fair 1/4 of what the
 * interactive task leaves: (4 s - its CPU) / 4, give or take the bias
 * bound and a quantum (110 ms).
 */
static void test_newcomer_after_sleeper(void)
{
	struct sim_task *it, *d;
	struct sim s;
	u64 t0, it0, win = SEC(4);
	double fair, extra;
	s64 lag0;
	int i;

	sim_init(&s);
	for (i = 0; i < 3; i++)
		sim_hog(&s, "hog", 0, 1024);
	it = sim_periodic(&s, "I", 0, 1024, MS(9), MS(1));
	sim_run_until(&s, SEC(20));
	lag0 = smart_lag_ns(&s.task[0]->se);
	d = sim_hog(&s, "D", 0, 1024);
	t0 = s.now;
	it0 = it->cpu_ns;
	sim_run_until(&s, t0 + win);
	fair = (ms(win) - ms(it->cpu_ns - it0)) / 4;
	extra = ms(d->cpu_ns) - fair;
	tap_ok(extra <= ms(s.p.bias_max_ns + s.p.quantum_ns),
	       "newcomer: a hog joining next to hogs and a short sleeper gets ~ its fair share",
	       "expected D's extra over a fair %.3f ms <= 110 ms in the 4 s after joining, seen %.3f ms (D got %.3f ms; old hogs' lag at the join %.3f ms)",
	       fair, extra, ms(d->cpu_ns), ms(lag0));
	sim_free(&s);
}

/*
 * The same when the sleeper's credit runs out between its wake-ups (a
 * kworker: 0.1 ms every 200 ms beside a hog, alone on its CPU).  It left
 * the queue with the lag the hog had made up for, came back with at most
 * its credit, and V_P, slowed by its share while it slept there, fell
 * 250 ms behind the hog per second: 5 s after 20 s.  A hog D joining
 * then at V_P ran alone for those 5 s.  Each gets half of the 4 s after
 * the join, give or take the bias bound and a quantum.
 */
static void test_newcomer_after_expiring_sleeper(void)
{
	struct sim_task *h, *k, *d;
	u64 t0, h0, k0, win = SEC(4);
	struct sim s;
	double fair;
	s64 lag0;

	sim_init(&s);
	h = sim_hog(&s, "hog", 0, 1024);
	k = sim_periodic(&s, "kworker", 0, 1024, MS(200), SIM_US(100));
	sim_run_until(&s, SEC(20));
	lag0 = smart_lag_ns(&h->se);
	d = sim_hog(&s, "D", 0, 1024);
	t0 = s.now;
	h0 = h->cpu_ns;
	k0 = k->cpu_ns;
	sim_run_until(&s, t0 + win);
	fair = (ms(win) - ms(k->cpu_ns - k0)) / 2;
	tap_ok(ms(h->cpu_ns - h0) >= fair - ms(s.p.bias_max_ns + s.p.quantum_ns),
	       "newcomer after a sleeper that leaves: the old hog keeps ~ half",
	       "expected the old hog >= %.3f - 110 ms in the 4 s after D joined, seen %.3f ms (D %.3f ms; its lag at the join %.3f ms)",
	       fair, ms(h->cpu_ns - h0), ms(d->cpu_ns), ms(lag0));
	sim_free(&s);
}

/* Share change mid-run: 1:1 for 5 s, then B's share doubles. */
static void test_share_change(void)
{
	double pct[SIM_MAX_TASKS];
	struct sim_task *a, *b;
	struct sim s;

	sim_init(&s);
	a = sim_hog(&s, "A", 0, 1024);
	b = sim_hog(&s, "B", 0, 1024);
	run_window(&s, SEC(5), pct);
	tap_pct("share change: before, A at 1:1", 50.0, pct[a->id], 1.0);
	tap_pct("share change: before, B at 1:1", 50.0, pct[b->id], 1.0);
	sim_set_params(&s, b, 0, 2048);
	run_window(&s, SEC(15), pct);
	tap_pct("share change: B 1024 -> 2048 at 5 s; A over the next 10 s", 100.0 / 3,
		pct[a->id], 1.0);
	tap_pct("share change: B 1024 -> 2048 at 5 s; B over the next 10 s", 200.0 / 3,
		pct[b->id], 1.0);
	sim_set_params(&s, b, 0, 512);
	run_window(&s, SEC(25), pct);
	tap_pct("share change: B 2048 -> 512 at 15 s; A over the next 10 s", 200.0 / 3,
		pct[a->id], 1.0);
	tap_pct("share change: B 2048 -> 512 at 15 s; B over the next 10 s", 100.0 / 3,
		pct[b->id], 1.0);
	sim_free(&s);
}

/*
 * Two tasks that hand work to each other (each runs, wakes the other and
 * sleeps until it is woken) are runnable one at a time, so beside a hog
 * they take one share between them, as one task would.  With the sleep
 * credit of §3.3 the one that waits stays on the queue, its share slowing
 * V_P, and the pair took two shares (the hog 33%); the glue now lets a
 * task that blocks right after a wake-up leave without credit
 * (smart_sleep_no_credit()).
 */
static const struct handoff_case {
	const char *name;
	u64 run_a, run_b;
	u32 hog_share;
	bool handoff;
	double hog;	/* expected % */
} handoff_cases[] = {
	{ "2 ms each, the old rule", MS(2), MS(2), 1024, false, 100.0 / 3 },
	{ "2 ms each", MS(2), MS(2), 1024, true, 50.0 },
	{ "0.2 ms each", US(200), US(200), 1024, true, 50.0 },
	{ "0.1 and 2 ms", US(100), MS(2), 1024, true, 50.0 },
	{ "2 ms each, hog S=2048", MS(2), MS(2), 2048, true, 200.0 / 3 },
};

static void test_handoff(void)
{
	const struct handoff_case *c;
	double pct[SIM_MAX_TASKS];
	struct sim_task *h, *a, *b;
	struct sim s;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(handoff_cases); i++) {
		c = &handoff_cases[i];
		sim_init(&s);
		s.handoff = c->handoff;
		h = sim_hog(&s, "hog", 0, c->hog_share);
		a = sim_periodic(&s, "A", 0, 1024, 0, c->run_a);
		b = sim_periodic(&s, "B", 0, 1024, 0, c->run_b);
		sim_partners(a, b);
		run_window(&s, SEC(1), pct);
		run_window(&s, SEC(11), pct);
		tap_pct(NAME("hand-off: %s: the hog beside the pair, 10 s", c->name),
			c->hog, pct[h->id], 1.0);
		sim_free(&s);
	}
}

/*
 * long_sleep_ns: a task keeps the sleep credit when it blocks only if its
 * last sleep and the CPU time it used since add up to that
 * (smart_earns_credit()).  One that runs and sleeps a little at a time
 * leaves its queue at once, and is still picked at once beside hogs,
 * which carry a bias; one that sleeps for long between its jobs (BeRate's
 * 25 fps, 50% task beside a hog) keeps the credit that lets it start each
 * job at once.
 */
static const struct long_sleep_case {
	const char *name;
	int hogs;
	u64 run, sleep, long_sleep;
	bool credited;
	double pct;	/* what the task gets, % */
} long_sleep_cases[] = {
	{ "1 ms per 5 ms, 3 hogs, the paper's rule", 3, MS(1), MS(4), 0, true, 20.0 },
	{ "1 ms per 5 ms, 3 hogs", 3, MS(1), MS(4), MS(10), false, 20.0 },
	{ "20 ms per 40 ms, 1 hog", 1, MS(20), MS(20), MS(10), true, 50.0 },
	{ "1 ms per 20 ms, 3 hogs", 3, MS(1), MS(19), MS(10), true, 5.0 },
	{ "1 ms per 10 ms, 3 hogs (the bound)", 3, MS(1), MS(9), MS(10), true, 10.0 },
};

static void test_long_sleep(void)
{
	const struct long_sleep_case *c;
	double pct[SIM_MAX_TASKS];
	struct sim_task *t;
	u64 picked, ok;
	struct sim s;
	size_t i;
	int k;

	for (i = 0; i < ARRAY_SIZE(long_sleep_cases); i++) {
		c = &long_sleep_cases[i];
		sim_init(&s);
		s.p.long_sleep_ns = c->long_sleep;
		for (k = 0; k < c->hogs; k++)
			sim_hog(&s, "hog", 0, 1024);
		t = sim_periodic(&s, "T", 0, 1024, c->sleep, c->run);
		run_window(&s, SEC(10), pct);
		/* The first sleep, after none, has only the first run. */
		ok = c->credited ? t->nr_sleeps - (c->run < c->long_sleep) : 0;
		tap_ok(t->nr_sleeps > 100 && t->nr_credited == ok,
		       NAME("long sleep: %s: sleeps with credit", c->name),
		       "expected %llu of %llu, seen %llu", (unsigned long long)ok,
		       (unsigned long long)t->nr_sleeps,
		       (unsigned long long)t->nr_credited);
		picked = t->nr_wakeups - t->wait_pick;
		tap_ok(t->nr_fast_wakeups * 100 >= picked * 99,
		       NAME("long sleep: %s: picked within 1 tick of waking", c->name),
		       "expected >= 99%%, seen %llu of %llu, worst latency %.3f ms",
		       (unsigned long long)t->nr_fast_wakeups,
		       (unsigned long long)picked, ms(t->max_wake_lat_ns));
		tap_pct(NAME("long sleep: %s: gets what it asks for", c->name),
			c->pct, pct[t->id], 0.5);
		sim_free(&s);
	}
}

/*
 * A task that wants more than its share and sleeps briefly between its
 * runs gets its share, not more: if it leaves its queue (a short sleep),
 * the others' service pays back its debt, and v goes back by at most what
 * V_P moved while it slept (smart_repay()); if it keeps the sleep credit
 * (8 ms runs), smart_bound_credit() bounds what it keeps.
 */
static void test_short_sleeper_share(void)
{
	static const struct { int hogs; u64 run, sleep; } c[] = {
		{ 1, MS(2), MS(1) }, { 1, MS(6), MS(3) }, { 3, MS(2), MS(1) },
		{ 1, US(300), US(100) }, { 1, MS(8), MS(4) }, { 3, MS(8), MS(3) },
	};
	double pct[SIM_MAX_TASKS];
	struct sim_task *t;
	u64 credited;
	struct sim s;
	size_t i;
	int k;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		sim_init(&s);
		s.p.long_sleep_ns = MS(10);
		for (k = 0; k < c[i].hogs; k++)
			sim_hog(&s, "hog", 0, 1024);
		t = sim_periodic(&s, "T", 0, 1024, c[i].sleep, c[i].run);
		run_window(&s, SEC(2), pct);
		run_window(&s, SEC(12), pct);
		/* Runs under 10 ms: the first sleep never has the credit. */
		credited = c[i].run + c[i].sleep >= MS(10) ? t->nr_sleeps - 1 : 0;
		tap_ok(t->nr_credited == credited,
		       NAME("short sleeper over its share: run %.1f ms, sleep %.1f ms: %s",
			    ms(c[i].run), ms(c[i].sleep),
			    credited ? "keeps the credit" : "pays back its debt"),
		       "expected %llu sleeps with credit, seen %llu of %llu",
		       (unsigned long long)credited,
		       (unsigned long long)t->nr_credited,
		       (unsigned long long)t->nr_sleeps);
		tap_ok(pct[t->id] <= 100.0 / (c[i].hogs + 1) + 1.0,
		       NAME("short sleeper over its share: run %.1f ms, sleep %.1f ms, %d hog(s)",
			    ms(c[i].run), ms(c[i].sleep), c[i].hogs),
		       "expected <= %.1f%%, seen %.2f%%", 100.0 / (c[i].hogs + 1) + 1.0,
		       pct[t->id]);
		sim_free(&s);
	}
}

/*
 * BeRate's case 5 (Table 1), never dropping: a 33 fps task that needs 67%
 * beside a hog of half its share, which leaves it 66.7%: it runs late and
 * sleeps less than long_sleep_ns between its 20 ms jobs.  The run before
 * a sleep counts with it, so it keeps the credit and misses no more jobs
 * than under the paper's rule (with the sleep alone: 918 of 984 against
 * 503 over 30 s).  Beside a hog of 480, within its share (68.1%), it
 * misses none either way.
 */
static u64 paced_missed(u64 long_sleep, u32 hog_share, u64 *jobs)
{
	u64 period = SEC(1) / 33, missed;
	struct sim_task *t;
	struct sim s;

	sim_init(&s);
	s.p.long_sleep_ns = long_sleep;
	sim_hog(&s, "hog", 0, hog_share);
	sim_run_until(&s, MS(500));
	t = sim_paced(&s, "srtsim", 0, 1024, period, period * 67 / 100, true);
	sim_run_until(&s, MS(1500));
	*jobs = t->nr_jobs;
	missed = t->nr_missed;
	sim_run_until(&s, MS(31500));
	*jobs = t->nr_jobs - *jobs;
	missed = t->nr_missed - missed;
	sim_free(&s);
	return missed;
}

static void test_paced_over_share(void)
{
	static const u32 hog_share[] = { 512, 480 };
	u64 jobs, paper, missed;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(hog_share); i++) {
		paper = paced_missed(0, hog_share[i], &jobs);
		missed = paced_missed(MS(10), hog_share[i], &jobs);
		tap_ok(jobs >= 980 && missed <= paper + jobs / 100 &&
		       (hog_share[i] == 512 || !missed),
		       NAME("BeRate case 5, hog share %u: long_sleep_ns 10 ms misses %s",
			    hog_share[i], "no more than the paper's rule"),
		       "%llu of %llu jobs late, %llu with long_sleep_ns 0",
		       (unsigned long long)missed, (unsigned long long)jobs,
		       (unsigned long long)paper);
	}
}

int main(void)
{
	tap_diag("test_share: SMART proportional sharing on a simulated CPU");
	test_alternate();
	test_shares();
	test_long_run_lag();
	test_priority();
	test_bias();
	test_sleep_credit();
	test_interactive();
	test_credit_accumulation();
	test_credit_bound_shares();
	test_newcomer_after_sleeper();
	test_newcomer_after_expiring_sleeper();
	test_share_change();
	test_handoff();
	test_long_sleep();
	test_short_sleeper_share();
	test_paced_over_share();
	return tap_done();
}
