/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A discrete-event simulator over one SMART algorithm instance: one
 * smart_queue is one CPU.
 *
 * Tasks have a priority, a share and a behaviour (always runnable; run Y
 * then sleep X, repeatedly; block once for T).  The clock is in ns and
 * starts at 0.  The loop mimics the kernel glue:
 *
 *  - pick: smart_pick() - the highest value tuple runs;
 *  - run the pick until the earliest of: the end of its quantum
 *    (smart_quantum_left()), the next resolution tick (every tick_ns,
 *    1 ms), the next wake-up of any task, the moment the pick blocks,
 *    the end of the run;
 *  - there: smart_charge() the interval, block the pick if its burst is
 *    over (smart_sleep()), deliver wake-ups that are due (smart_wake()),
 *    and pick again - so a woken task with a higher value preempts at
 *    once, and a task whose quantum completed yields if it is no longer
 *    first.
 *
 * When nothing is runnable the clock jumps to the next wake-up and no
 * virtual time advances (V_P only moves while a member runs, eq. (2)).
 * Everything is deterministic: no wall clock, no randomness; ties are
 * resolved by the algorithm (an entity re-inserted with an equal BVFT goes
 * after the ones already there) and wake-ups due together are delivered
 * in task creation order.
 */
#ifndef __SMART_SIM_H
#define __SMART_SIM_H

#include <stddef.h>
#include "../../kernel/sched/smart/algo.h"

#define SIM_US(x)	((u64)(x) * 1000ULL)
#define SIM_MS(x)	((u64)(x) * 1000000ULL)
#define SIM_S(x)	((u64)(x) * 1000000000ULL)

#define SIM_MAX_TASKS	16

enum sim_kind {
	SIM_HOG,	/* always runnable */
	SIM_PERIODIC,	/* run run_ns of CPU, then sleep sleep_ns; repeat */
	SIM_SLEEP_ONCE,	/* a hog that, when it runs at or after at_ns, blocks once for sleep_ns */
};

/**
 * struct sim_task - a simulated task
 * @name:		for messages
 * @id:			index in sim::task
 * @se:			its SMART entity
 * @kind:		behaviour
 * @run_ns:		SIM_PERIODIC: CPU per burst
 * @sleep_ns:		SIM_PERIODIC, SIM_SLEEP_ONCE: length of a sleep
 * @at_ns:		SIM_SLEEP_ONCE: earliest time it blocks
 * @asleep:		blocked, waiting for @wake_at
 * @slept:		SIM_SLEEP_ONCE: has blocked already
 * @wake_at:		when a blocked task wakes
 * @burst_left:		SIM_PERIODIC: CPU left in the current burst
 * @cpu_ns:		CPU received
 * @nr_wakeups:		wake-ups delivered
 * @nr_fast_wakeups:	wake-ups after which it was picked within one tick
 * @max_wake_lat_ns:	longest wake-up to pick
 * @wait_pick:		woken, not yet picked
 * @last_wake:		time of the last wake-up
 * @last_sleep:		time it last blocked
 * @slept_ns:		how long its last sleep lasted (smart_earns_credit())
 * @nr_sleeps:		times it blocked (not counting hand-overs)
 * @nr_credited:	of those, the sleeps that kept the sleep credit
 * @lag_at_sleep:	smart_lag_ns() when it last blocked
 * @lag_at_wake:	smart_lag_ns() right after it last woke
 * @max_lag_at_wake:	largest @lag_at_wake so far
 * @partner:		SIM_PERIODIC: at the end of each burst it wakes
 *			@partner and sleeps until @partner wakes it (two
 *			tasks that hand work to each other), not sleep_ns
 * @period_ns:		SIM_PERIODIC, sim_paced(): a job of run_ns is
 *			released every @period_ns; a job done early sleeps
 *			until the next release, one done late is followed at
 *			once by the next (BeRate's never-dropping srtsim)
 * @gop:		sim_paced(): jobs follow BeRate's IBBPBBPBBPBB frame
 *			pattern (run_ns 125%, 105%, 95%), not all run_ns
 * @release:		sim_paced(): release time of the current job
 * @nr_jobs:		sim_paced(): jobs done
 * @nr_missed:		sim_paced(): of those, done after the next release
 * @cpu_at_wake:	@cpu_ns when it last woke
 */
struct sim_task {
	const char *name;
	int id;
	struct smart_entity se;
	enum sim_kind kind;
	u64 run_ns;
	u64 sleep_ns;
	u64 at_ns;

	bool asleep;
	bool slept;
	u64 wake_at;
	u64 burst_left;

	u64 cpu_ns;
	u64 nr_wakeups;
	u64 nr_fast_wakeups;
	u64 max_wake_lat_ns;
	bool wait_pick;
	u64 last_wake;
	u64 last_sleep;
	u64 slept_ns;
	u64 nr_sleeps;
	u64 nr_credited;
	s64 lag_at_sleep;
	s64 lag_at_wake;
	s64 max_lag_at_wake;
	struct sim_task *partner;
	u64 period_ns;
	bool gop;
	u64 release;
	u64 nr_jobs;
	u64 nr_missed;
	u64 cpu_at_wake;
};

/* One uninterrupted stretch of CPU given to a task. */
struct sim_run {
	int task;
	u64 start;
	u64 end;
};

/**
 * struct sim - one simulated CPU
 * @q:		the algorithm's queue
 * @p:		tunables (defaults: Q 10 ms, b 10 ms, bias max 100 ms,
 *		sleep credit 100 ms, for every sleep: long_sleep_ns 0)
 * @now:	clock, ns
 * @tick_ns:	resolution tick: the running task is charged at least this often
 * @task:	tasks, in creation order
 * @nr:		number of tasks
 * @idle_ns:	time nothing was runnable
 * @nr_switches: picks that changed the running task
 * @runs:	trace of uninterrupted runs (merged while the same task runs on)
 * @nr_runs:	entries in @runs
 * @cap_runs:	allocated entries
 * @last:	task that ran last, or -1
 * @new_group:	the group tasks created from now on join (NULL: the root)
 * @handoff:	a task that wakes its partner and sleeps leaves its queue
 *		at once (smart_sleep_no_credit()), as the kernel's glue does
 */
struct sim {
	struct smart_queue q;
	struct smart_params p;
	u64 now;
	u64 tick_ns;
	struct sim_task *task[SIM_MAX_TASKS];
	int nr;
	u64 idle_ns;
	unsigned long nr_switches;
	struct sim_run *runs;
	size_t nr_runs;
	size_t cap_runs;
	int last;
	struct smart_group *new_group;
	bool handoff;
};

void sim_init(struct sim *s);
void sim_free(struct sim *s);

/* New tasks join the queue at s->now by eq. (3). */
struct sim_task *sim_hog(struct sim *s, const char *name, s32 prio, u32 share);
struct sim_task *sim_periodic(struct sim *s, const char *name, s32 prio,
			      u32 share, u64 sleep_ns, u64 run_ns);
/* A SIM_PERIODIC task paced by its period (struct sim_task @period_ns). */
struct sim_task *sim_paced(struct sim *s, const char *name, s32 prio,
			   u32 share, u64 period_ns, u64 run_ns, bool gop);
struct sim_task *sim_sleep_once(struct sim *s, const char *name, s32 prio,
				u32 share, u64 at_ns, u64 sleep_ns);

/* @a and @b (SIM_PERIODIC) wake each other at the end of each burst. */
void sim_partners(struct sim_task *a, struct sim_task *b);
/* Turn a task into a hog from now on (it stays runnable once woken). */
void sim_become_hog(struct sim *s, struct sim_task *t);

/* Run the CPU until s->now == end. */
void sim_run_until(struct sim *s, u64 end);

/* smart_set_params() at s->now, as the sched_setattr() path would. */
void sim_set_params(struct sim *s, struct sim_task *t, s32 prio, u32 share);

/*
 * Move a task to group @g (NULL: the root) at s->now, as sched_move_task()
 * does: a runnable task leaves and rejoins (keeping its lag), a sleeping
 * one leaves its queue.
 */
void sim_move(struct sim *s, struct sim_task *t, struct smart_group *g);

/* Index of the first run starting at or after @t, or s->nr_runs. */
size_t sim_run_at(const struct sim *s, u64 t);

/* A xorshift64* generator for random scenarios; seed sim_rng_state. */
extern u64 sim_rng_state;
u64 sim_rnd(void);
/* Uniform in [lo, hi]. */
u64 sim_rnd_in(u64 lo, u64 hi);

static inline double sim_pct(u64 part, u64 whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

#endif /* __SMART_SIM_H */
