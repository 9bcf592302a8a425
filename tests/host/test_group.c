// SPDX-License-Identifier: GPL-2.0
/*
 * Hierarchical shares (group.c, the SFQ-H model) on the one-CPU
 * simulator: what a group gets does not depend on how many tasks it
 * has, nested groups divide their parent's share, weights and moves take
 * effect under load, priorities stay global, and the bookkeeping (the
 * groups' sums, the level's sum of shares, every entity's share) matches
 * a recomputation from scratch after any sequence of events.
 *
 * "+- 1%" is one percentage point of the measuring window.
 */
#include <time.h>
#include "tap.h"
#include "sim.h"

#define MS(x)	SIM_MS(x)
#define SEC(x)	SIM_S(x)
#define W(cpu_weight)	((u32)(cpu_weight) * 1024 / 100)	/* cpu.weight */

static char nbuf[256];
#define NAME(...) (snprintf(nbuf, sizeof(nbuf), __VA_ARGS__), nbuf)

/*
 * CPU of each task over [start, end) in percent of the window, where
 * start is 2 s from now: the bias of a task with a small share takes
 * that long to reach its bound (10 quanta), and until then the group
 * with more tasks is charged more bias in all (as with flat shares).
 */
static void run_window(struct sim *s, u64 end, double *pct)
{
	u64 before[SIM_MAX_TASKS];
	u64 start;
	int i;

	sim_run_until(s, s->now + SEC(2));
	start = s->now;

	for (i = 0; i < s->nr; i++)
		before[i] = s->task[i]->cpu_ns;
	sim_run_until(s, end);
	for (i = 0; i < s->nr; i++)
		pct[i] = sim_pct(s->task[i]->cpu_ns - before[i], end - start);
}

static double sum_pct(const double *pct, int from, int to)
{
	double sum = 0;

	for (; from < to; from++)
		sum += pct[from];
	return sum;
}

/* The case: cpu.weight 100 with 4 hogs against 300 with 1. */
static void test_isolation(void)
{
	struct smart_group a, b;
	double pct[SIM_MAX_TASKS];
	struct sim s;
	int i;

	sim_init(&s);
	smart_group_init(&a, NULL, W(100));
	smart_group_init(&b, NULL, W(300));
	s.new_group = &a;
	for (i = 0; i < 4; i++)
		sim_hog(&s, "a", 0, 1024);
	s.new_group = &b;
	sim_hog(&s, "b", 0, 1024);
	run_window(&s, SEC(12), pct);
	tap_pct("weights 100:300, 4 hogs vs 1: group A gets 25%", 25.0,
		sum_pct(pct, 0, 4), 1.0);
	tap_pct("weights 100:300, 4 hogs vs 1: group B gets 75%", 75.0,
		pct[4], 1.0);
	for (i = 0; i < 4; i++)
		tap_pct(NAME("weights 100:300: hog a%d gets a quarter of A", i),
			6.25, pct[i], 1.0);

	/* 15 hogs in A change nothing for B. */
	s.new_group = &a;
	for (i = 0; i < 11; i++)
		sim_hog(&s, "a+", 0, 1024);
	/*
	 * Each new hog gains bias (§3.3) until it is bounded, 10 quanta of
	 * its own: with 15 hogs in A that takes 15 * 4 * 10 * 10 ms.
	 */
	sim_run_until(&s, s.now + SEC(6));
	run_window(&s, SEC(50), pct);
	tap_pct("15 hogs in A (100) vs 1 in B (300): B still gets 75%", 75.0,
		pct[4], 1.0);
	sim_free(&s);
}

/* A{A1 (2 hogs, 100), A2 (1 hog, 300)} : B (1 hog), A and B 100. */
static void test_nested(void)
{
	struct smart_group a, a1, a2, b;
	double pct[SIM_MAX_TASKS];
	struct sim s;

	sim_init(&s);
	smart_group_init(&a, NULL, W(100));
	smart_group_init(&a1, &a, W(100));
	smart_group_init(&a2, &a, W(300));
	smart_group_init(&b, NULL, W(100));
	s.new_group = &a1;
	sim_hog(&s, "a1", 0, 1024);
	sim_hog(&s, "a1", 0, 1024);
	s.new_group = &a2;
	sim_hog(&s, "a2", 0, 1024);
	s.new_group = &b;
	sim_hog(&s, "b", 0, 1024);
	run_window(&s, SEC(12), pct);
	tap_pct("nested A{A1:A2 = 1:3}:B = 1:1: A1's two hogs 12.5%", 12.5,
		pct[0] + pct[1], 1.0);
	tap_pct("nested: A2's hog 37.5%", 37.5, pct[2], 1.0);
	tap_pct("nested: B's hog 50%", 50.0, pct[3], 1.0);

	/* A root task competes with the root's child groups by its share. */
	s.new_group = NULL;
	sim_hog(&s, "root", 0, 2048);
	run_window(&s, SEC(40), pct);
	tap_pct("nested + a root hog of share 2048 (A, B 1024 each): root 50%",
		50.0, pct[4], 1.0);
	tap_pct("nested + root hog: B 25%", 25.0, pct[3], 1.0);
	sim_free(&s);
}

/* One hog at depth 30 against a root hog: the chain divides nothing. */
static void test_deep(void)
{
	struct smart_group g[30];
	double pct[SIM_MAX_TASKS];
	struct sim s;
	int i;

	sim_init(&s);
	for (i = 0; i < 30; i++)
		smart_group_init(&g[i], i ? &g[i - 1] : NULL, W(100));
	s.new_group = &g[29];
	sim_hog(&s, "deep", 0, 1024);
	s.new_group = NULL;
	sim_hog(&s, "root", 0, 1024);
	run_window(&s, SEC(12), pct);
	tap_pct("a hog 30 groups deep vs a root hog: 50%", 50.0, pct[0], 1.0);
	tap_eq("a hog 30 groups deep has its own share", smart_core_share(1024),
	       s.task[0]->se.share, "");
	sim_free(&s);
}

/*
 * Below SMART_GROUP_DEPTH_MAX a group is placed beside its parent: in a
 * chain of 12 groups, the 9th (weight 100) and the 12th (300) divide the
 * 7th's share as siblings, 1:3, where nesting would give the 12th a
 * part of the 9th.
 */
static void test_depth_cap(void)
{
	struct smart_group g[12];
	double pct[SIM_MAX_TASKS];
	struct sim s;
	int i;

	sim_init(&s);
	for (i = 0; i < 12; i++)
		smart_group_init(&g[i], i ? &g[i - 1] : NULL,
				 i == 11 ? W(300) : W(100));
	tap_ok(g[7].depth == SMART_GROUP_DEPTH_MAX && g[8].depth == g[7].depth &&
	       g[11].depth == g[7].depth && g[8].parent == &g[6] &&
	       g[11].parent == &g[6],
	       "groups below depth 8 are attached beside their parent",
	       "depths %u %u %u, parents of the 9th and 12th: the %s and the %s",
	       g[7].depth, g[8].depth, g[11].depth,
	       g[8].parent == &g[6] ? "7th" : "other",
	       g[11].parent == &g[6] ? "7th" : "other");
	s.new_group = &g[8];
	sim_hog(&s, "9th", 0, 1024);
	s.new_group = &g[11];
	sim_hog(&s, "12th", 0, 1024);
	run_window(&s, SEC(12), pct);
	tap_pct("a hog 9 groups deep (weight 100) beside one 12 deep (300): 25%",
		25.0, pct[0], 1.0);
	tap_pct("... and 75%", 75.0, pct[1], 1.0);
	sim_free(&s);
}

/* Weights change and tasks move while everything runs. */
static void test_changes(void)
{
	struct smart_group a, b;
	double pct[SIM_MAX_TASKS];
	struct sim s;

	sim_init(&s);
	smart_group_init(&a, NULL, W(100));
	smart_group_init(&b, NULL, W(100));
	s.new_group = &a;
	sim_hog(&s, "a0", 0, 1024);
	sim_hog(&s, "a1", 0, 1024);
	s.new_group = &b;
	sim_hog(&s, "b", 0, 1024);
	run_window(&s, SEC(12), pct);
	tap_pct("1:1, 2 hogs vs 1: B 50%", 50.0, pct[2], 1.0);

	smart_group_set_weight(&s.q, &a, W(300));
	run_window(&s, SEC(20), pct);
	tap_pct("weight of A 100 -> 300 under load: A 75%", 75.0,
		pct[0] + pct[1], 1.0);
	tap_pct("weight of A 100 -> 300 under load: B 25%", 25.0, pct[2], 1.0);

	/* A running hog of A moves to B: A 1 hog (300), B 2 hogs (100). */
	sim_move(&s, s.task[1], &b);
	run_window(&s, SEC(30), pct);
	tap_pct("a hog moves from A to B while runnable: A's last hog 75%",
		75.0, pct[0], 1.0);
	tap_pct("after the move: B's hogs 12.5% each", 12.5, pct[1], 1.0);

	/* ... and to the root group. */
	sim_move(&s, s.task[1], NULL);
	run_window(&s, SEC(40), pct);
	tap_eq("a hog moved to the root group has its own share",
	       smart_core_share(1024), s.task[1]->se.share, "");
	tap_pct("root hog 1024 beside A (3072) and B (1024): 20%", 20.0,
		pct[1], 1.0);
	sim_free(&s);
}

/* Priorities are global: a group's weight is divided per priority. */
static void test_priority(void)
{
	struct smart_group a, b;
	double pct[SIM_MAX_TASKS];
	struct sim s;

	sim_init(&s);
	smart_group_init(&a, NULL, W(100));
	smart_group_init(&b, NULL, W(10000));
	s.new_group = &a;
	sim_hog(&s, "a-high", 1, 1024);
	sim_hog(&s, "a-low", 0, 1024);
	s.new_group = &b;
	sim_hog(&s, "b-low", 0, 1024);
	run_window(&s, SEC(5), pct);
	tap_pct("a priority-1 hog in a light group beats a heavy group's priority-0 hog",
		100.0, pct[0], 0.1);
	tap_eq("the priority-1 hog alone at its priority has all of A's weight",
	       smart_core_share(W(100)), s.task[0]->se.share, "");
	tap_eq("so has A's priority-0 hog at priority 0", smart_core_share(W(100)),
	       s.task[1]->se.share, "");
	sim_set_params(&s, s.task[0], 0, 1024);
	run_window(&s, SEC(15), pct);
	tap_pct("both of A's hogs at priority 0: A 1%", 100.0 / 101,
		pct[0] + pct[1], 0.5);
	sim_free(&s);
}

/* An idle-like group (weight 3) against a normal one. */
static void test_idle_group(void)
{
	struct smart_group a, b;
	double pct[SIM_MAX_TASKS];
	struct sim s;
	int i;

	sim_init(&s);
	smart_group_init(&a, NULL, 3);
	smart_group_init(&b, NULL, 1024);
	s.new_group = &a;
	sim_hog(&s, "idle0", 0, 1024);
	sim_hog(&s, "idle1", 0, 1024);
	s.new_group = &b;
	sim_hog(&s, "b", 0, 1024);
	run_window(&s, SEC(12), pct);
	tap_pct("a weight-3 group's two hogs against a weight-1024 group's one",
		100.0 * 3 / 1027, pct[0] + pct[1], 0.3);
	tap_ok(s.task[0]->se.share >= 1 && s.task[1]->se.share >= 1,
	       "a hog's share in a weight-3 group of 2 stays at least 1",
	       "shares %u and %u", s.task[0]->se.share, s.task[1]->se.share);
	sim_free(&s);

	/*
	 * A crowded light group gets no more than its weight: each of its 15
	 * tasks has 1/5 of a share, which the algorithm keeps (were shares whole
	 * numbers, each would get 1 and the group 15, five times its 3).
	 */
	sim_init(&s);
	smart_group_init(&a, NULL, 3);
	smart_group_init(&b, NULL, 1024);
	s.new_group = &a;
	for (i = 0; i < 15; i++)
		sim_hog(&s, "idle", 0, 1024);
	s.new_group = &b;
	sim_hog(&s, "b", 0, 1024);
	run_window(&s, SEC(30), pct);
	tap_ok(sum_pct(pct, 0, 15) <= 100.0 * 3 / 1027 + 0.05,
	       "15 hogs in a weight-3 group get at most its 0.29%",
	       "seen %.3f%%, shares of its hogs %u (in 1/%u of a share)",
	       sum_pct(pct, 0, 15), s.task[0]->se.share, 1U << SMART_SHARE_SHIFT);
	sim_free(&s);
}

/* ---- bookkeeping against a recomputation from scratch ------------------ */

#define NG	7

static struct smart_group grp[NG];

static bool below(const struct smart_group *g, const struct smart_group *top)
{
	for (; g; g = g->parent)
		if (g == top)
			return true;
	return false;
}

/*
 * Recompute every group's sums from the entities on the queue, and
 * every entity's share from the tree, and compare: sums and the level's
 * sum exactly, and the shares of the entities that ran or woke since the
 * last change exactly (the others take theirs then, group.c).
 */
static bool check_books(struct sim *s, char *why, size_t len)
{
	int i, j, k;

	for (j = 0; j < NG; j++) {
		for (k = 0; k < SMART_NR_PRIO; k++) {
			u64 sum = 0;
			unsigned int nr = 0;

			for (i = 0; i < s->nr; i++) {
				struct smart_entity *se = &s->task[i]->se;

				if (se->queue && se->group == &grp[j] &&
				    se->prio - SMART_PRIO_MIN == k) {
					sum += se->own_share;
					nr++;
				}
			}
			for (i = 0; i < NG; i++) {
				bool active = false;
				int t;

				if (grp[i].parent != &grp[j])
					continue;
				for (t = 0; t < s->nr; t++) {
					struct smart_entity *se = &s->task[t]->se;

					if (se->queue && below(se->group, &grp[i]) &&
					    se->prio - SMART_PRIO_MIN == k)
						active = true;
				}
				if (active) {
					sum += grp[i].weight;
					nr++;
				}
			}
			if (grp[j].at[k].sum != sum || grp[j].at[k].nr != nr) {
				snprintf(why, len, "group %d prio %d: sum %llu nr %u, recomputed %llu %u",
					 j, k + SMART_PRIO_MIN,
					 (unsigned long long)grp[j].at[k].sum,
					 grp[j].at[k].nr, (unsigned long long)sum, nr);
				return false;
			}
		}
	}
	for (k = 0; k < SMART_NR_PRIO; k++) {
		u64 shares = 0;

		for (i = 0; i < s->nr; i++) {
			struct smart_entity *se = &s->task[i]->se;
			u32 want;

			if (!se->queue || se->prio - SMART_PRIO_MIN != k)
				continue;
			shares += se->share;
			want = se->group ? smart_group_share(se->group, se->prio,
							     se->own_share) :
					   smart_core_share(se->own_share);
			/* a share may be stale until the entity runs or wakes */
			if (se->group && se->share_gen != s->q.share_gen)
				continue;
			if (se->share != want) {
				snprintf(why, len, "task %d: share %u, recomputed %u",
					 i, se->share, want);
				return false;
			}
		}
		if (s->q.level[k].shares != shares) {
			snprintf(why, len, "level %d: sum of shares %llu, recomputed %llu",
				 k + SMART_PRIO_MIN,
				 (unsigned long long)s->q.level[k].shares,
				 (unsigned long long)shares);
			return false;
		}
	}
	return true;
}

/* Random joins, sleeps, moves, weight and parameter changes. */
static void test_books(void)
{
	static const int parent[NG] = { -1, 0, 0, 1, -1, 4, 5 };
	char why[256] = "";
	unsigned long events = 0;
	bool ok = true;
	struct sim s;
	int i, round;

	sim_rng_state = 0x5eed6e0u;
	sim_init(&s);
	for (i = 0; i < NG; i++)
		smart_group_init(&grp[i], parent[i] < 0 ? NULL : &grp[parent[i]],
				 sim_rnd_in(1, 4096));
	for (i = 0; i < SIM_MAX_TASKS; i++) {
		int g = sim_rnd_in(0, NG);

		s.new_group = g == NG ? NULL : &grp[g];
		if (i % 3)
			sim_hog(&s, "hog", sim_rnd_in(0, 2), sim_rnd_in(1, 4096));
		else
			sim_periodic(&s, "periodic", sim_rnd_in(0, 2),
				     sim_rnd_in(1, 4096), MS(sim_rnd_in(1, 300)),
				     MS(sim_rnd_in(1, 20)));
	}
	for (round = 0; round < 2000 && ok; round++) {
		struct sim_task *t = s.task[sim_rnd_in(0, s.nr - 1)];
		int g = sim_rnd_in(0, NG);

		switch (sim_rnd_in(0, 3)) {
		case 0:
			sim_move(&s, t, g == NG ? NULL : &grp[g]);
			break;
		case 1:
			smart_group_set_weight(&s.q, &grp[g % NG],
					       sim_rnd_in(1, 10000));
			break;
		case 2:
			sim_set_params(&s, t, sim_rnd_in(0, 2),
				       sim_rnd_in(1, 4096));
			break;
		default:
			break;
		}
		sim_run_until(&s, s.now + MS(sim_rnd_in(1, 50)));
		events++;
		ok = check_books(&s, why, sizeof(why));
	}
	tap_ok(ok, "group sums and shares match a recomputation after 2000 random events",
	       "%lu events: %s", events, ok ? "all matched" : why);

	/* Everything leaves: no count is left behind. */
	for (i = 0; i < s.nr; i++)
		if (s.task[i]->se.queue)
			smart_leave(&s.q, &s.task[i]->se);
	ok = true;
	for (i = 0; i < NG; i++) {
		int k;

		ok &= grp[i].nr == 0;
		for (k = 0; k < SMART_NR_PRIO; k++)
			ok &= grp[i].at[k].nr == 0 && grp[i].at[k].sum == 0;
	}
	tap_ok(ok, "once every task left, every group is empty", "%s",
	       ok ? "all zero" : "counts left behind");
	sim_free(&s);
}

/*
 * Many sleepers of one group expire at once: each leave costs O(depth),
 * and the one left takes its share when it is charged (the time is
 * printed: leaving one by one re-shared the rest each time, O(N^2), until
 * a batch re-shared once at the end; now nothing is re-shared).
 */
static void test_mass_expiry(void)
{
	enum { N = 4000 };
	static struct smart_entity se[N];
	struct smart_params p = { .quantum_ns = MS(10), .bias_step_ns = MS(10),
				  .bias_max_ns = MS(100),
				  .sleep_credit_ns = MS(100) };
	struct smart_queue q;
	struct smart_group g;
	struct timespec t0, t1;
	u64 sum = 0;
	int i;

	smart_queue_init(&q);
	smart_group_init(&g, NULL, 1024);
	/* the cost of N joins one by one into a group, printed */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < N; i++) {
		smart_entity_init(&se[i], 0, 1024);
		se[i].group = &g;
		smart_join(&q, &se[i], SMART_JOIN_NEW, &p);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	tap_diag("%d joins one by one into one group: %.2f us each on average",
		 N, ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / 1e3 / N);
	for (i = 1; i < N; i++)
		smart_sleep(&q, &se[i], MS(1), &p);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	smart_expire_sleepers(&q, MS(200), &p);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* it takes its share when it is charged */
	smart_charge(&q, &se[0], MS(201), MS(1), &p);
	for (i = 0; i < N; i++)
		if (se[i].queue)
			sum += se[i].share;
	tap_ok(q.nr_queued == 1 && g.at[-SMART_PRIO_MIN].nr == 1 &&
	       se[0].share == smart_core_share(1024) &&
	       q.level[-SMART_PRIO_MIN].shares == sum,
	       "3999 sleepers of a group expire at once: the last one, charged, has the group's share",
	       "queued %u, group nr %u, share %u, level %llu; %.2f ms for the batch",
	       q.nr_queued, g.at[-SMART_PRIO_MIN].nr, se[0].share,
	       (unsigned long long)q.level[-SMART_PRIO_MIN].shares,
	       (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
	smart_leave(&q, &se[0]);
}

int main(void)
{
	tap_diag("test_group: hierarchical shares (SFQ-H) on a simulated CPU");
	test_isolation();
	test_nested();
	test_deep();
	test_depth_cap();
	test_changes();
	test_priority();
	test_idle_group();
	test_books();
	test_mass_expiry();
	return tap_done();
}
