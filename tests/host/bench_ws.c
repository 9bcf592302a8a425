// SPDX-License-Identifier: GPL-2.0
/*
 * Cost of the §3.2 decision against the number of candidates N_R (not a
 * test: prints ns per decision; compare the ratios within one run).
 *
 *   make -C tests/host bench
 *
 * worst:  N_R constrained tasks, all feasible, inserted in value order
 *         with deadlines in reverse order (each insertion walks the whole
 *         schedule): O(N_R^2).
 * reject: the most important task leaves no slack before its deadline,
 *         which comes after all others: every later insertion is refused
 *         after two steps: O(N_R).
 * conv:   a conventional task is the most important: step 1, O(1).
 * turns:  smart_decide() as the kernel runs it, N_R feasible constrained
 *         tasks with one deadline taking turns by smart_yield() (the
 *         schedule is kept and the yielding task moved back in it): ns
 *         per yield and decision, O(log N_R).
 */
#include <time.h>
#include "tap.h"
#include "sim.h"

#define MS(x)	((u64)(x) * 1000000ULL)

static const struct smart_params params = {
	.quantum_ns = MS(10), .bias_step_ns = MS(10),
	.bias_max_ns = MS(100), .sleep_credit_ns = MS(100),
};

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static double bench(int n, int kind)
{
	static struct smart_entity se[SMART_WS_MAX + 1];
	struct smart_ws ws, rej;
	struct smart_queue q;
	int i, iters = 20000;
	volatile void *sink;
	double t0;

	smart_queue_init(&q);
	for (i = 0; i < n; i++) {
		/* value order = index order (estimates grow, beta = Q / S) */
		smart_entity_init(&se[i], 0, SMART_SHARE_DEFAULT);
		se[i].tc.estimate = MS(1) + i;
		se[i].tc.deadline = MS(10 * (n - i) + 100 * n);
		if (kind == 1)
			se[i].tc.deadline = MS(500) + i;
		if (kind == 1 && i == 0) {
			/* a huge share puts it first; it fills all time to 1 s */
			smart_entity_init(&se[i], 0, SMART_SHARE_MAX);
			se[i].tc.estimate = MS(1000);
			se[i].tc.deadline = MS(1000);
		}
		smart_join(&q, &se[i], SMART_JOIN_NEW, &params);
	}
	if (kind == 2) {
		smart_entity_init(&se[n], 1, SMART_SHARE_DEFAULT);
		smart_join(&q, &se[n], SMART_JOIN_NEW, &params);
	}
	t0 = now_ns();
	for (i = 0; i < iters; i++)
		sink = smart_pick_tc(&q, 0, &ws, &rej);
	(void)sink;
	return (now_ns() - t0) / iters;
}

static double turns(int n)
{
	static struct smart_entity se[SMART_WS_MAX];
	struct smart_tc tc = { .deadline = MS(50000), .estimate = MS(40000) / n };
	struct smart_queue q;
	int i, iters = 200000;
	volatile void *sink;
	double t0;

	smart_queue_init(&q);
	for (i = 0; i < n; i++) {
		smart_entity_init(&se[i], 0, SMART_SHARE_DEFAULT);
		smart_join(&q, &se[i], SMART_JOIN_NEW, &params);
		smart_tc_begin(&q, &se[i], &tc);
	}
	sink = smart_decide(&q, 0);
	t0 = now_ns();
	for (i = 0; i < iters; i++) {
		smart_yield(&q, q.pick, &params);
		sink = smart_decide(&q, 0);
	}
	(void)sink;
	return (now_ns() - t0) / iters;
}

int main(void)
{
	int n, k;

	printf("# ns per smart_pick_tc() rebuild; turns: per yield + smart_decide()\n");
	printf("# N_R   worst   reject   conv    turns\n");
	for (n = 1; n <= SMART_WS_MAX; n *= 2) {
		printf("%5d", n);
		for (k = 0; k < 3; k++)
			printf(" %8.0f", bench(n, k));
		printf(" %8.0f\n", turns(n));
	}
	return 0;
}
