// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART and cpu.max: a task group's CPU quota holds for its SMART
 * tasks as it does for its fair ones, so that with sched_smart=all, where
 * every task of a container is SMART's, a container's limit still
 * limits it.
 *
 * The pool is fair's: the group's struct cfs_bandwidth (quota, period,
 * burst, the runtime left in this period, the period timer and the
 * cpu.stat counters).  SMART tasks draw on it as fair's cfs_rqs do: each
 * of the group's nodes (struct smart_group, one per CPU) takes
 * SMART_BW_SLICE_NS at a time from the pool and runs it down as the
 * group's tasks run on its CPU (smart_bw_charge()).  When the pool is
 * empty the node is throttled, and a task below it is parked when it is
 * picked or enqueued (smart_bw_parks()): off its queue with its lag, out
 * of rq->nr_running, on its rq's parked list (class.c), as fair's
 * throttle_cfs_rq() takes a group's entities off.  Every limited group
 * up to the root counts, as every limited level counts for fair, so a
 * delegated subtree cannot escape a limit set above it by nesting.
 *
 * The period timer refills the pool and hands it out to fair's throttled
 * cfs_rqs, then to SMART's throttled nodes (smart_bw_distribute()), which
 * unpark their tasks.  A change of the quota resets the nodes and
 * unthrottles them (smart_bw_set()), as tg_set_cfs_bandwidth() does
 * fair's.  A CPU going offline unthrottles its nodes for good
 * (smart_bw_offline()): a parked task is never picked, so it could not
 * be pushed off the dying CPU.
 *
 * Differences from fair: runtime a node holds when its tasks leave its
 * CPU is not returned to the pool (fair's slack timer); it stays with the
 * node for their next run, so a group may run up to one slice per CPU
 * ahead of its quota once, never more in the long run.
 */
#include <linux/mmu_context.h>
#include <linux/random.h>
#include "../sched.h"

DEFINE_STATIC_KEY_FALSE(smart_bw_used);

/* What a node takes from its group's pool at a time: fair's default. */
#define SMART_BW_SLICE_NS	(5 * NSEC_PER_MSEC)

static inline bool smart_bw_on(void)
{
	return static_branch_unlikely(&smart_bw_used);
}

static inline bool smart_bw_limited(struct task_group *tg)
{
	return READ_ONCE(tg->cfs_bandwidth.quota) != RUNTIME_INF;
}

/*
 * Take runtime from @b's pool to bring @g's, which is not positive, up to
 * @target; @rq, @g's, is locked (rq lock before cfs_b->lock, as in fair).
 * A node the pool cannot serve is throttled under the pool's lock, as
 * throttle_cfs_rq() lists a cfs_rq, so that a period timer that refills
 * the pool meanwhile sees it.
 *
 * Return: @g has runtime left.
 */
static bool smart_bw_assign(struct rq *rq, struct cfs_bandwidth *b,
			    struct smart_group *g, u64 target)
{
	u64 want = target - g->bw_remaining;

	guard(raw_spinlock)(&b->lock);
	if (b->quota == RUNTIME_INF) {
		g->bw_remaining = target;
		return true;
	}
	start_cfs_bandwidth(b);
	if (b->runtime > 0) {
		u64 amount = min(b->runtime, want);

		b->runtime -= amount;
		g->bw_remaining += amount;
		b->idle = 0;
	}
	if (g->bw_remaining > 0)
		return true;
	if (!g->bw_throttled) {
		g->bw_throttled_at = rq_clock(rq);
		WRITE_ONCE(g->bw_throttled, true);
	}
	return false;
}

/*
 * Is @g, the node of the limited group @tg on @rq's CPU, out of runtime?
 * One that has none left takes a slice from the pool, or is throttled.
 */
static bool smart_bw_out(struct rq *rq, struct task_group *tg,
			 struct smart_group *g)
{
	if (g->bw_throttled)
		return true;
	return g->bw_remaining <= 0 &&
	       !smart_bw_assign(rq, &tg->cfs_bandwidth, g, SMART_BW_SLICE_NS);
}

/* @g is throttled: it has runtime again, or its limit changed. */
static void smart_bw_unthrottle(struct rq *rq, struct task_group *tg,
				struct smart_group *g)
{
	struct cfs_bandwidth *b = &tg->cfs_bandwidth;

	scoped_guard(raw_spinlock, &b->lock)
		b->throttled_time += rq_clock(rq) - g->bw_throttled_at;
	WRITE_ONCE(g->bw_throttled, false);
}

/**
 * __smart_bw_charge() - charge a SMART task's CPU time to its groups' quotas
 * @rq:		its rq, locked, clock updated
 * @p:		the running task
 * @delta:	the CPU time it ran since it was last charged
 *
 * O(depth) in the task group tree, as fair's charge, and only once some
 * group has had a limit.
 *
 * Return: a group of @p is now throttled on @rq's CPU: @p must stop.
 */
bool __smart_bw_charge(struct rq *rq, struct task_struct *p, u64 delta)
{
	struct task_group *tg;
	bool out = false;

	if (!rq->smart.online)
		return false;
	for (tg = task_group(p); tg && tg->smart; tg = tg->parent) {
		struct smart_group *g;

		if (!smart_bw_limited(tg))
			continue;
		g = per_cpu_ptr(tg->smart, cpu_of(rq));
		g->bw_remaining -= delta;
		if (smart_bw_out(rq, tg, g))
			out = true;
	}
	return out;
}

/**
 * __smart_bw_parks() - is a task's group, or one above it, throttled?
 * @rq:	the rq @p is queued on, locked, clock updated
 * @p:	a SMART task
 *
 * An offline rq throttles nothing: its tasks must run to be pushed away.
 *
 * Return: @p must not run on @rq until its groups are refilled.
 */
bool __smart_bw_parks(struct rq *rq, struct task_struct *p)
{
	struct task_group *tg;

	if (!rq->smart.online)
		return false;
	for (tg = task_group(p); tg && tg->smart; tg = tg->parent) {
		if (smart_bw_limited(tg) &&
		    smart_bw_out(rq, tg, per_cpu_ptr(tg->smart, cpu_of(rq))))
			return true;
	}
	return false;
}

/**
 * smart_bw_task_throttled() - is a task's group throttled on a CPU?
 * @p:		a SMART task
 * @cpu:	a CPU, its rq not necessarily locked
 *
 * A hint without the rq lock: core scheduling must not pick a parked task
 * from its tree, and a pull should not bring a task where it would be
 * parked.
 *
 * Return: a limited group of @p, or above it, is throttled on @cpu.
 */
bool smart_bw_task_throttled(struct task_struct *p, int cpu)
{
	struct task_group *tg;

	if (!smart_bw_on())
		return false;
	for (tg = task_group(p); tg && tg->smart; tg = tg->parent) {
		if (READ_ONCE(per_cpu_ptr(tg->smart, cpu)->bw_throttled))
			return true;
	}
	return false;
}

/**
 * smart_bw_constrained() - may a task's group be throttled?
 * @p:	a SMART task, its rq locked
 *
 * Its CPU keeps the tick while it runs, or nothing would charge it on a
 * nohz_full CPU (as fair's cfs_task_bw_constrained()).
 *
 * Return: a group of @p, or above it, has a limit.
 */
bool smart_bw_constrained(struct task_struct *p)
{
	struct task_group *tg;

	if (!smart_bw_on())
		return false;
	for (tg = task_group(p); tg && tg->smart; tg = tg->parent) {
		if (smart_bw_limited(tg))
			return true;
	}
	return false;
}

/* How many of @tg's nodes on online CPUs are throttled, without their locks. */
static unsigned int smart_bw_nr_throttled(struct task_group *tg)
{
	unsigned int nr = 0;
	int cpu;

	if (!smart_bw_on() || !tg->smart)
		return 0;
	for_each_online_cpu(cpu)
		nr += READ_ONCE(per_cpu_ptr(tg->smart, cpu)->bw_throttled);
	return nr;
}

/**
 * smart_bw_throttled() - has a group any throttled SMART node?
 * @b:	the group's pool, locked
 *
 * The period timer keeps running while one has (do_sched_cfs_period_timer()).
 *
 * Return: a node of the group on an online CPU is throttled.
 */
bool smart_bw_throttled(struct cfs_bandwidth *b)
{
	struct task_group *tg = container_of(b, struct task_group,
					     cfs_bandwidth);

	return smart_bw_nr_throttled(tg);
}

/**
 * smart_bw_distribute() - hand a refilled pool out to throttled nodes
 * @b:	the group's pool, not locked (the period timer dropped its lock,
 *	as for distribute_cfs_runtime())
 *
 * Each throttled node takes what pays its overrun and a nanosecond more,
 * as fair's cfs_rqs do, if the pool has it, and its CPU unparks the tasks
 * that nothing else throttles; they take their slices as they run.  The
 * walk starts at a throttled node drawn at random, so that when the pool
 * cannot serve every node, each is served first as often as the others
 * (fair serves its throttled cfs_rqs in the order they were throttled).
 * Walked in one fixed order, the first CPUs took the pool every period
 * and the others' tasks stayed parked.
 *
 * Return: a node is still throttled: the pool ran dry.
 */
bool smart_bw_distribute(struct cfs_bandwidth *b)
{
	struct task_group *tg = container_of(b, struct task_group,
					     cfs_bandwidth);
	unsigned int nr = smart_bw_nr_throttled(tg), skip;
	bool throttled = false;
	int cpu, start = -1;

	if (!nr)
		return false;
	skip = get_random_u32_below(nr);
	for_each_online_cpu(cpu) {
		if (READ_ONCE(per_cpu_ptr(tg->smart, cpu)->bw_throttled) &&
		    !skip--) {
			start = cpu;
			break;
		}
	}
	if (start < 0)		/* they changed meanwhile */
		start = cpumask_first(cpu_online_mask);
	for_each_cpu_wrap(cpu, cpu_online_mask, start) {
		struct smart_group *g = per_cpu_ptr(tg->smart, cpu);
		struct rq *rq = cpu_rq(cpu);

		if (!READ_ONCE(g->bw_throttled))
			continue;
		guard(rq_lock_irqsave)(rq);
		update_rq_clock(rq);
		if (!g->bw_throttled)
			continue;
		if (!smart_bw_assign(rq, b, g, 1)) {
			throttled = true;
			continue;
		}
		smart_bw_unthrottle(rq, tg, g);
		smart_unpark_ready(rq);
	}
	return throttled;
}

/**
 * smart_bw_set() - a group's limit changed
 * @tg:	the group, its new quota in @tg->cfs_bandwidth
 *
 * Called by tg_set_cfs_bandwidth() with the CPUs read-locked: every node
 * starts again with no runtime, and a throttled one lets its tasks go, as
 * fair's cfs_rqs do.
 */
void smart_bw_set(struct task_group *tg)
{
	int cpu;

	if (!tg->smart)
		return;
	if (smart_bw_limited(tg))
		static_branch_enable_cpuslocked(&smart_bw_used);
	if (!smart_bw_on())
		return;
	for_each_online_cpu(cpu) {
		struct smart_group *g = per_cpu_ptr(tg->smart, cpu);
		struct rq *rq = cpu_rq(cpu);

		guard(rq_lock_irq)(rq);
		update_rq_clock(rq);
		g->bw_remaining = 0;
		if (g->bw_throttled) {
			smart_bw_unthrottle(rq, tg, g);
			smart_unpark_ready(rq);
		}
	}
}

/**
 * smart_bw_offline() - unthrottle every group on a CPU going offline
 * @rq:	its rq, locked, clock updated, no longer online
 *
 * As fair's unthrottle_offline_cfs_rqs(): the parked tasks must run to
 * leave, and smart_bw_parks() parks nothing on an offline rq.  What a
 * node held is dropped (not returned to the pool), as fair drops it.
 */
void smart_bw_offline(struct rq *rq)
{
	struct task_group *tg;

	if (!smart_bw_on())
		return;
	rcu_read_lock();
	list_for_each_entry_rcu(tg, &task_groups, list) {
		struct smart_group *g;

		if (!tg->smart)
			continue;
		g = per_cpu_ptr(tg->smart, cpu_of(rq));
		g->bw_remaining = 0;
		if (g->bw_throttled)
			smart_bw_unthrottle(rq, tg, g);
	}
	rcu_read_unlock();
	smart_unpark_ready(rq);
}
