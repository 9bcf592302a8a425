// SPDX-License-Identifier: GPL-2.0
/*
 * SMART algorithm: implicit time constraints for programs that make no SMART
 * call, inferred from their behaviour in the manner of BEST and BeRate
 * (Banachowski and Brandt).  A media program that never asks for a
 * constraint still wakes once per frame, runs for about as long each
 * time and sleeps until the next one; the kernel sees its wake-ups.
 *
 * Each wake-up is a candidate release.  The interval since the last
 * release is compared with the period learned so far:
 *
 *  - within a quarter of a period of 1, 2 or 3 periods (a player that
 *    skips a frame does not wake for it), it is a release: the period,
 *    its jitter, the CPU time the task used since the last release and
 *    that demand's deviation move by 1/8 towards the new sample, and the
 *    task earns a hit;
 *  - otherwise it is out of rhythm, a miss: the task loses half of its
 *    hits and the phase starts again from here.
 *
 * Three misses in a row and the period is learned again from scratch,
 * from the shortest of their intervals: a player that skips frames wakes
 * at multiples of its period, and the shortest is the likeliest period.
 * A job that blocks inside its period (on I/O or a lock) wakes out of
 * rhythm every time: such a task is not taken as periodic.
 * A task is periodic while it has SMART_INFER_HITS hits or more, its
 * jitter is at most a twelfth of its period and its demand at most
 * 7/8 of it.  Its releases then begin an implicit constraint
 * (smart_infer_tc()): due at the next release, with the smoothed demand
 * plus a margin as its estimate.
 *
 * A task that never sleeps is never released: a CPU-bound task is left
 * as it is.  One that wakes faster than SMART_INFER_PERIOD_MIN never
 * starts learning, so a wake-up costs a few compares to a task that
 * passes messages.  Irregular wake-ups (a typist) land near a multiple
 * of any period too rarely to keep their hits.
 *
 * Like the rest of the algorithm this has no clock and no task: the owner
 * gives the time and the task's CPU time at each wake-up.
 */
#include "algo.h"

/* The bounds of a learned period, a multiple of a release, the credit. */
#define SMART_INFER_PERIOD_MIN	(2ULL * 1000 * 1000)
#define SMART_INFER_PERIOD_MAX	(1000ULL * 1000 * 1000)
#define SMART_INFER_MULT_MAX	3
#define SMART_INFER_HITS_MAX	32
#define SMART_INFER_MISSES_MAX	3

static u64 smart_abs_diff(u64 a, u64 b)
{
	return a > b ? a - b : b - a;
}

/* x += (sample - x) / 8, in unsigned arithmetic. */
static void smart_infer_avg(u64 *x, u64 sample)
{
	if (sample >= *x)
		*x += (sample - *x) >> 3;
	else
		*x -= (*x - sample) >> 3;
}

/* Start learning a period from one interval, if it may be one. */
static void smart_infer_restart(struct smart_infer *inf, u64 interval,
				u64 demand)
{
	bool ok = interval >= SMART_INFER_PERIOD_MIN &&
		  interval <= SMART_INFER_PERIOD_MAX;

	inf->period = ok ? interval : 0;
	inf->jitter = 0;
	inf->demand = ok ? demand : 0;
	inf->demand_dev = 0;
	inf->hits = ok;
	inf->misses = 0;
}

/**
 * smart_infer_reset() - forget everything learned about a task
 * @inf:	its inference state
 */
void smart_infer_reset(struct smart_infer *inf)
{
	memset(inf, 0, sizeof(*inf));
}

/**
 * smart_infer_periodic() - is the task taken as periodic?
 * @inf:	its inference state
 *
 * Return: true if its releases begin implicit constraints.
 */
bool smart_infer_periodic(const struct smart_infer *inf)
{
	return inf->period && inf->hits >= SMART_INFER_HITS &&
	       inf->jitter <= inf->period / 12 &&
	       inf->demand <= inf->period - (inf->period >> 3);
}

/**
 * smart_infer_wake() - a task wakes up
 * @inf:	its inference state
 * @now:	the time (ns)
 * @runtime:	its CPU time so far (ns)
 *
 * Return: true if this wake-up is the release of a new period of a
 * periodic task: the caller begins its implicit constraint.
 */
bool smart_infer_wake(struct smart_infer *inf, u64 now, u64 runtime)
{
	u64 interval = now - inf->release, demand = runtime - inf->runtime;
	u64 period = inf->period, tol = period >> 2, sample = 0;
	unsigned int k;

	if (!inf->release) {
		inf->release = now;
		inf->runtime = runtime;
		return false;
	}
	if (!period) {
		smart_infer_restart(inf, interval, demand);
		goto released;
	}
	for (k = 1; k <= SMART_INFER_MULT_MAX; k++) {
		if (smart_abs_diff(interval, k * period) <= tol) {
			sample = k == 1 ? interval : div64_u64(interval, k);
			break;
		}
	}
	if (sample) {
		smart_infer_avg(&inf->jitter,
				smart_abs_diff(interval, k * period));
		smart_infer_avg(&inf->period, sample);
		smart_infer_avg(&inf->demand_dev,
				smart_abs_diff(demand, inf->demand));
		smart_infer_avg(&inf->demand, demand);
		inf->hits = min_t(u32, inf->hits + 1, SMART_INFER_HITS_MAX);
		inf->misses = 0;
		inf->release = now;
		inf->runtime = runtime;
		return smart_infer_periodic(inf);
	}
	/* The shortest of the intervals out of rhythm may be the period. */
	if (!inf->misses || interval < inf->shortest)
		inf->shortest = interval;
	if (++inf->misses >= SMART_INFER_MISSES_MAX)
		smart_infer_restart(inf, inf->shortest, demand);
	else
		inf->hits >>= 1;
released:
	inf->release = now;
	inf->runtime = runtime;
	return false;
}

/**
 * smart_infer_tc() - the implicit constraint of a periodic task's release
 * @inf:	its inference state (smart_infer_periodic())
 * @now:	the time of the release, on the clock of constraints
 * @tc:		filled in: due at the next release, the smoothed demand plus
 *		a margin of a quarter of it or twice its deviation, whichever
 *		is more, as the estimate (at most the period), periodic
 */
void smart_infer_tc(const struct smart_infer *inf, u64 now,
		    struct smart_tc *tc)
{
	u64 margin = max(inf->demand >> 2, 2 * inf->demand_dev);

	tc->deadline = now + inf->period;
	tc->estimate = clamp_t(u64, inf->demand + margin, 1, inf->period);
	tc->used = 0;
	tc->period = inf->period;
	tc->load = smart_tc_load(tc->estimate, tc->period);
}
