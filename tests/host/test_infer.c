// SPDX-License-Identifier: GPL-2.0
/*
 * Inferred constraints (kernel/sched/smart/infer.c): a task's wake-up
 * times and CPU time go in, a period, a demand and an implicit
 * constraint come out.  The traces are synthetic and seeded: a player
 * with jitter and skipped frames, an MPEG-like srtsim, a typist, a task
 * that passes messages, and a task whose rate changes.
 */
#include <math.h>
#include "tap.h"
#include "sim.h"

#define MS(x)	((u64)((x) * 1000000.0))

static u64 rs = 12345;

static double unit(void)
{
	rs = rs * 6364136223846793005ULL + 1442695040888963407ULL;
	return ((rs >> 11) + 0.5) / (double)(1ULL << 53);
}

/* A trace: wake at release + jitter, use @demand, sleep. */
struct trace {
	u64 t, cpu;
	unsigned int releases, periodic;
};

static bool wake(struct smart_infer *inf, struct trace *tr, u64 at, u64 use)
{
	bool rel = smart_infer_wake(inf, at, tr->cpu);

	tr->t = at;
	tr->cpu += use;
	tr->releases++;
	tr->periodic += rel;
	return rel;
}

static void test_player(void)
{
	struct smart_infer inf = { };
	struct trace tr = { };
	double period = 1000.0 / 15, demand = 28.35;
	struct smart_tc tc;
	bool last = false;
	int i;

	for (i = 0; i < 300; i++) {
		double j = (unit() - 0.5) * 6;	/* +-3 ms of jitter */

		/* one frame in ten is skipped: no wake-up for it */
		if (i % 10 == 9)
			continue;
		last = wake(&inf, &tr, MS(100 + i * period + j),
			    MS(demand * (0.92 + 0.16 * unit())));
	}
	tap_ok(last && smart_infer_periodic(&inf), "player: periodic",
	       "periodic after %u releases, %u of them began a constraint",
	       tr.releases, tr.periodic);
	tap_near("player: period within 10%", MS(period), inf.period,
		 MS(period / 10), "ns");
	tap_near("player: demand within 10%", MS(demand), inf.demand,
		 MS(demand / 10), "ns");
	tap_ok(tr.periodic >= tr.releases - 20, "player: learned within 20 releases",
	       "%u of %u releases began a constraint", tr.periodic, tr.releases);
	smart_infer_tc(&inf, MS(1000), &tc);
	tap_eq("player: implicit deadline at the next release",
	       MS(1000) + inf.period, tc.deadline, "ns");
	tap_ok(tc.estimate >= inf.demand + inf.demand / 4 &&
	       tc.estimate <= inf.period, "player: estimate = demand + margin",
	       "demand %llu, estimate %llu, period %llu", (unsigned long long)inf.demand,
	       (unsigned long long)tc.estimate, (unsigned long long)inf.period);
	tap_eq("player: periodic load", smart_tc_load(tc.estimate, tc.period),
	       tc.load, "");
}

/* BeRate's srtsim: IBBPBBPBBPBB, I 1.25, P 1.05, B 0.95, 5% noise. */
static void test_srtsim(int fps, int util)
{
	static const char gop[] = "IBBPBBPBBPBB";
	struct smart_infer inf = { };
	struct trace tr = { };
	double period = 1000.0 / fps, mean = period * util / 100;
	char name[64];
	int k;

	for (k = 0; k < 200; k++) {
		double rel = gop[k % 12] == 'I' ? 1.25 : gop[k % 12] == 'P' ? 1.05 : 0.95;

		wake(&inf, &tr, MS(k * period), MS(mean * rel * (0.95 + 0.1 * unit())));
	}
	snprintf(name, sizeof(name), "srtsim %d fps %d%%: periodic", fps, util);
	tap_ok(smart_infer_periodic(&inf), name, "%u of %u releases began a constraint",
	       tr.periodic, tr.releases);
	snprintf(name, sizeof(name), "srtsim %d fps %d%%: period within 10%%", fps, util);
	tap_near(name, MS(period), inf.period, MS(period / 10), "ns");
	snprintf(name, sizeof(name), "srtsim %d fps %d%%: demand within 10%%", fps, util);
	tap_near(name, MS(mean), inf.demand, MS(mean / 10), "ns");
}

/* A typist: 60 ms plus an exponential pause of mean 168 ms. */
static void test_typist(void)
{
	struct smart_infer inf = { };
	struct trace tr = { };
	u64 t = MS(50);
	int i;

	for (i = 0; i < 2000; i++) {
		t += MS(60 - log(unit()) * 168.3);
		wake(&inf, &tr, t, MS(2));
	}
	tap_eq("typist: no release begins a constraint", 0, tr.periodic, "releases");
}

/* Random intervals of 2-200 ms with random demand. */
static void test_irregular(void)
{
	struct smart_infer inf = { };
	struct trace tr = { };
	u64 t = 0;
	int i;

	for (i = 0; i < 5000; i++) {
		t += MS(2 + 198 * unit());
		wake(&inf, &tr, t, MS(unit()));
	}
	tap_ok(tr.periodic < tr.releases / 100, "irregular: under 1% of wake-ups",
	       "%u of %u wake-ups began a constraint", tr.periodic, tr.releases);
}

/* A pipe peer: woken every 50 us; never starts learning. */
static void test_messages(void)
{
	struct smart_infer inf = { };
	struct trace tr = { };
	int i;

	for (i = 0; i < 100000; i++)
		wake(&inf, &tr, MS(0.05 * (i + 1)), MS(0.02));
	tap_eq("pipe peer (50 us): none", 0, tr.periodic, "releases");
	tap_eq("pipe peer (50 us): no period learned", 0, inf.period, "ns");
}

/* Periodic but using 95% of its period: left alone (as CPU-bound). */
static void test_heavy(void)
{
	struct smart_infer inf = { };
	struct trace tr = { };
	int i;

	for (i = 0; i < 200; i++)
		wake(&inf, &tr, MS(20 * i), MS(19));
	tap_eq("95% of its period: none", 0, tr.periodic, "releases");
}

/* One wake-up inside each period (a job that waits for I/O): left alone. */
static void test_io_inside(void)
{
	struct smart_infer inf = { };
	struct trace tr = { };
	int i;

	for (i = 0; i < 200; i++) {
		wake(&inf, &tr, MS(40 * i), MS(5));
		wake(&inf, &tr, MS(40 * i + 12), MS(5));
	}
	tap_eq("I/O inside the period: none", 0, tr.periodic, "releases");
}

/* 25 fps, then 50 fps: the new period is learned. */
static void test_change(void)
{
	struct smart_infer inf = { };
	struct trace tr = { };
	u64 t = 0;
	int i;

	for (i = 0; i < 100; i++, t += MS(40))
		wake(&inf, &tr, t, MS(10));
	tr.periodic = 0;
	for (i = 0; i < 100; i++, t += MS(20))
		wake(&inf, &tr, t, MS(5));
	tap_ok(smart_infer_periodic(&inf), "25 -> 50 fps: periodic again",
	       "period %llu ns", (unsigned long long)inf.period);
	tap_near("25 -> 50 fps: period", MS(20), inf.period, MS(2), "ns");
	tap_ok(tr.periodic >= 80, "25 -> 50 fps: learned within 20 releases",
	       "%u of 100", tr.periodic);
}

/* Hostile inputs: the clock going back, huge intervals, zero demand. */
static void test_hostile(void)
{
	struct smart_infer inf = { };
	struct trace tr = { };
	struct smart_tc tc;
	int i;

	for (i = 0; i < 50; i++)
		wake(&inf, &tr, MS(10 * i), 0);
	tap_ok(smart_infer_periodic(&inf), "zero demand: periodic", "demand %llu",
	       (unsigned long long)inf.demand);
	smart_infer_tc(&inf, MS(500), &tc);
	tap_ok(tc.estimate >= 1 && tc.load <= SMART_LOAD_ONE, "zero demand: estimate >= 1",
	       "estimate %llu, load %llu", (unsigned long long)tc.estimate,
	       (unsigned long long)tc.load);
	wake(&inf, &tr, MS(400), 0);	/* the clock went back */
	wake(&inf, &tr, ~0ULL - 5, ~0ULL);
	wake(&inf, &tr, 1, 1);
	tap_ok(!smart_infer_periodic(&inf) || inf.period <= MS(1000),
	       "hostile times: period stays bounded", "period %llu", (unsigned long long)inf.period);
	smart_infer_reset(&inf);
	tap_eq("reset: forgotten", 0, inf.period + inf.release + inf.hits, "");
}

int main(void)
{
	test_player();
	test_srtsim(25, 50);
	test_srtsim(25, 25);
	test_srtsim(33, 67);
	test_srtsim(50, 50);
	test_typist();
	test_irregular();
	test_messages();
	test_heavy();
	test_io_inside();
	test_change();
	test_hostile();
	return tap_done();
}
