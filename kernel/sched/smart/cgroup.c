// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART and the cpu controller.  Every task group but the root has
 * one struct smart_group per CPU (group.c), linked to its parent's on
 * the same CPU; its weight is the group's cpu.weight (cpu.weight.nice,
 * cpu.shares) as a share, the minimal weight while cpu.idle is set, as
 * for fair.  A SMART task joins the node of its group on the CPU of its
 * queue when it is enqueued; sched_move_task() takes it off its queue to
 * change its group (task_change_group_smart()).
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
	smart_group_set_weight(&rq->smart.q, g, smart_tg_weight(tg));
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
