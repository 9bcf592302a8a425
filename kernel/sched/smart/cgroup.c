// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART and the cpu controller.  Every task group but the root has
 * one struct smart_group per CPU (group.c), linked to its parent's on
 * the same CPU; its weight is the group's cpu.weight (cpu.weight.nice,
 * cpu.shares) as a share, the minimal weight while cpu.idle is set, as
 * for fair, divided among the CPUs in proportion to where the group's
 * tasks are (smart_tg_cpu_weight()).  A SMART task joins the node of its
 * group on the CPU of its queue when it is enqueued; sched_move_task()
 * takes it off its queue to change its group (task_change_group_smart()).
 * Groups nested deeper than SMART_GROUP_DEPTH_MAX are attached beside
 * their parent (smart_group_init()), so that no event walks more levels.
 *
 * Shares are hierarchical within a priority; priorities and the working
 * schedule of time constraints are per CPU across groups.  See
 * Documentation/scheduler/sched-smart.rst, "Task groups".
 */
#include <linux/mmu_context.h>
#include "../sched.h"

static u32 smart_tg_weight(struct task_group *tg)
{
	return smart_share_of_weight(READ_ONCE(tg->shares));
}

/*
 * A group's weight on @cpu: its cpu.weight in proportion to the part of
 * its tasks (in it and below it) that are on @cpu's queue, as fair's
 * calc_group_shares() divides a group's shares by its load on each CPU.
 * Then a group with one task beside another group's task on one CPU and
 * three tasks on another CPU does not take half of the first CPU with a
 * third of its tasks.  The other CPUs' counts are read without their
 * locks: a hint, refreshed at the ticks of the group's tasks
 * (smart_tick_groups()).
 */
static u32 smart_tg_cpu_weight(struct task_group *tg, int cpu)
{
	unsigned int here = READ_ONCE(per_cpu_ptr(tg->smart, cpu)->nr);
	u64 w = smart_tg_weight(tg), all = 0;
	int c;

	if (!here)
		return w;
	for_each_online_cpu(c)
		all += READ_ONCE(per_cpu_ptr(tg->smart, c)->nr);
	if (all > here)
		w = div64_u64(w * here, all);
	return max_t(u64, w, SMART_SHARE_MIN);
}

/*
 * smart_tg_cpu_weight() reads the count of every online CPU.  So that the
 * ticks cost on average what they cost with this many CPUs, a group's
 * weight on a CPU is refreshed at most once every
 * DIV_ROUND_UP(num_online_cpus(), this) jiffies: at every tick up to this
 * many CPUs, every 16th jiffy with 128.
 */
#define SMART_GROUP_TICK_CPUS	8

/**
 * smart_tick_groups() - bring the weights of a task's groups on its CPU
 *			 up to date with where their tasks are
 * @rq:	the rq, locked, its running task @p charged
 * @p:	the running task
 *
 * A weight moves only when it is off by more than an eighth, so that
 * tasks coming and going elsewhere do not re-share this CPU's queue at
 * every tick.
 */
void smart_tick_groups(struct rq *rq, struct task_struct *p)
{
	unsigned long every = DIV_ROUND_UP(num_online_cpus(),
					   SMART_GROUP_TICK_CPUS);
	struct smart_group *g;
	bool changed = false;

	/* The nodes, not the task groups: at most SMART_GROUP_DEPTH_MAX. */
	for (g = smart_task_group(p, cpu_of(rq)); g; g = g->parent) {
		u32 w;

		if (!g->nr || time_before(jiffies, g->refreshed + every))
			continue;
		g->refreshed = jiffies;
		w = smart_tg_cpu_weight(g->tg, cpu_of(rq));
		if (abs((s64)w - g->weight) * 8 > g->weight) {
			smart_group_set_weight(&rq->smart.q, g, w);
			changed = true;
		}
	}
	if (changed)
		smart_preempt_check(rq);
}

/**
 * smart_alloc_group() - set up a new task group's SMART nodes
 * @tg:		the group, its fair part already set up
 * @parent:	its parent
 *
 * Return: false if out of memory.
 */
bool smart_alloc_group(struct task_group *tg, struct task_group *parent)
{
	int cpu;

	tg->smart = alloc_percpu(struct smart_group);
	if (!tg->smart)
		return false;
	for_each_possible_cpu(cpu) {
		struct smart_group *up = NULL;

		if (parent->smart)
			up = per_cpu_ptr(parent->smart, cpu);
		smart_group_init(per_cpu_ptr(tg->smart, cpu), up,
				 smart_tg_weight(tg));
		per_cpu_ptr(tg->smart, cpu)->tg = tg;
	}
	return true;
}

/**
 * smart_free_group() - free a task group's SMART nodes
 * @tg:	the group: no task is in it, so none of its nodes is on a queue
 */
void smart_free_group(struct task_group *tg)
{
	int cpu;

	if (!tg->smart)
		return;
	for_each_possible_cpu(cpu)
		WARN_ON_ONCE(per_cpu_ptr(tg->smart, cpu)->nr);
	free_percpu(tg->smart);
}

/**
 * smart_group_set_shares() - a task group's weight changed
 * @rq:	a CPU's rq, locked, clock updated
 * @tg:	the group, its new weight in @tg->shares
 *
 * Called for every possible CPU by __sched_group_set_shares().  The
 * running task is charged with the shares it ran under first.
 */
void smart_group_set_shares(struct rq *rq, struct task_group *tg)
{
	struct smart_group *g;

	if (!tg->smart)
		return;
	g = per_cpu_ptr(tg->smart, cpu_of(rq));
	if (g->nr)
		rq->donor->sched_class->update_curr(rq);
	smart_group_set_weight(&rq->smart.q, g,
			       smart_tg_cpu_weight(tg, cpu_of(rq)));
	if (g->nr)
		smart_preempt_check(rq);
}

/**
 * smart_task_group() - the SMART node of a task's group on a CPU
 * @p:		the task, its rq locked
 * @cpu:	the CPU of the queue it joins
 *
 * Return: the node, NULL for the root group.
 */
struct smart_group *smart_task_group(struct task_struct *p, int cpu)
{
	struct task_group *tg = task_group(p);

	return tg->smart ? per_cpu_ptr(tg->smart, cpu) : NULL;
}
