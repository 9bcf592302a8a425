// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART scheduling class: glue between the scheduler core and the
 * SMART algorithm in core.c.
 *
 * Each CPU has one smart_queue.  Every SMART task that is runnable on the
 * CPU, the running one included, is in the queue's value-tuple tree; a
 * task that blocks stays on the queue for sleep_credit_ns (its share
 * still slows the queue virtual time) and then leaves, keeping only its
 * lag.  The running task is charged its CPU time at every decision point
 * (tick, decision timer, wake-up, pick); when its quantum is used up its
 * BVFT moves (eq. (4)) and the CPU reschedules if another task now has a
 * higher value tuple.  A per-CPU hrtimer ends quanta with resolution_ns
 * granularity, so SMART's time resolution does not depend on HZ.
 *
 *   dequeue(SLEEP)  -> smart_sleep()   stays on queue for the sleep credit
 *   enqueue(WAKEUP) -> smart_wake()    back in the tree (eq. (7) if it left)
 *   dequeue(other)  -> smart_leave()   migration, attribute save
 *   enqueue(other)  -> smart_join()    at the new queue's V with the old lag
 *   enqueue(INITIAL)-> smart_join(NEW) fork: eq. (3)
 *
 * SMP: tasks are placed by select_task_rq_smart() on the least loaded
 * allowed CPU; a CPU about to idle pulls a waiting task in
 * balance_smart(); a CPU with waiting tasks kicks (at wake-up and every
 * tick) an idle CPU, or one with at least two tasks fewer, so that it
 * pulls.  Migration keeps the lag v - V, so a task neither gains nor
 * loses its position by moving.
 *
 * See Documentation/scheduler/sched-smart.rst.
 */
#include <linux/sched/smart.h>
#include <linux/mmu_context.h>
#include "../sched.h"

bool sched_smart_all __ro_after_init;
bool sched_smart_active __read_mostly;

struct smart_params smart_params __read_mostly = {
	.quantum_ns	 = 10 * NSEC_PER_MSEC,
	.bias_step_ns	 = 10 * NSEC_PER_MSEC,
	.bias_max_ns	 = 100 * NSEC_PER_MSEC,
	.sleep_credit_ns = 100 * NSEC_PER_MSEC,
};

unsigned long smart_resolution_ns __read_mostly = NSEC_PER_MSEC;

static int __init setup_sched_smart(char *str)
{
	if (!str)
		return -EINVAL;
	if (!strcmp(str, "all")) {
		sched_smart_all = true;
		WRITE_ONCE(sched_smart_active, true);
	} else if (strcmp(str, "optin")) {
		pr_warn("sched_smart=%s: expected 'all' or 'optin'\n", str);
		return -EINVAL;
	}
	return 0;
}
early_param("sched_smart", setup_sched_smart);

static inline struct smart_entity *smart_se(struct task_struct *p)
{
	return &p->smart.core;
}

static inline struct task_struct *smart_task_of(struct smart_entity *se)
{
	return container_of(se, struct task_struct, smart.core);
}

static inline struct smart_queue *smart_q(struct rq *rq)
{
	return &rq->smart.q;
}

/* The next decision in @delay ns, but no sooner than resolution_ns. */
static void smart_start_timer(struct rq *rq, u64 delay)
{
	u64 res = READ_ONCE(smart_resolution_ns);

	hrtimer_start(&rq->smart.timer, ns_to_ktime(max(delay, res)),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

/* Decide again when @p's quantum ends. */
static void smart_arm_timer(struct rq *rq, struct task_struct *p)
{
	smart_start_timer(rq, smart_quantum_left(smart_se(p)));
}

static void smart_wait_start(struct rq *rq, struct task_struct *p)
{
	p->smart.wait_start = rq_clock(rq);
	list_move_tail(&p->smart.wait_node, &rq->smart.waiters);
}

static void smart_wait_end(struct task_struct *p)
{
	list_del_init(&p->smart.wait_node);
}

/*
 * The task to run: the highest value tuple (§3.2), unless another task
 * has starved for SMART_STARVE_NS and none was rescued in that time; then
 * that one, for a slice (set_next_task_smart()).
 */
static struct task_struct *smart_next(struct rq *rq)
{
	struct sched_smart_entity *w;
	struct smart_entity *se;
	u64 now = rq_clock(rq);

	se = smart_pick(smart_q(rq));
	w = list_first_entry_or_null(&rq->smart.waiters,
				     struct sched_smart_entity, wait_node);
	if (w && &w->core != se &&
	    (s64)(now - w->wait_start) >= (s64)SMART_STARVE_NS &&
	    (s64)(now - rq->smart.last_rescue) >= (s64)SMART_STARVE_NS) {
		rq->smart.rescue_next = container_of(w, struct task_struct, smart);
		return rq->smart.rescue_next;
	}
	return se ? smart_task_of(se) : NULL;
}

/*
 * Charge the running SMART task for the time since it was last charged.
 * If its quantum ended and another task should run now, reschedule.
 */
static void update_curr_smart(struct rq *rq)
{
	struct task_struct *curr = rq->donor;
	struct smart_entity *se = smart_se(curr);
	struct smart_params p = smart_params_now();
	s64 delta;

	if (curr->sched_class != &smart_sched_class)
		return;

	delta = update_curr_common(rq);
	if (delta <= 0 || se->state != SMART_SE_RUNNABLE)
		return;

	if (smart_charge(smart_q(rq), se, rq_clock(rq), delta, &p) &&
	    smart_next(rq) != curr)
		resched_curr(rq);
}

static enum hrtimer_restart smart_timer_fn(struct hrtimer *timer)
{
	struct rq *rq = container_of(timer, struct rq, smart.timer);
	struct task_struct *curr;
	struct rq_flags rf;

	rq_lock(rq, &rf);
	update_rq_clock(rq);
	curr = rq->donor;
	if (curr->sched_class == &smart_sched_class) {
		update_curr_smart(rq);
		if (rq->smart.rescued == curr) {
			/* The rescue slice is over: back to value order. */
			rq->smart.rescued = NULL;
			resched_curr(rq);
		}
		if (!test_tsk_need_resched(curr))
			smart_arm_timer(rq, curr);
	}
	rq_unlock(rq, &rf);

	return HRTIMER_NORESTART;
}

static void enqueue_task_smart(struct rq *rq, struct task_struct *p, int flags)
{
	struct smart_entity *se = smart_se(p);
	struct smart_queue *q = smart_q(rq);
	struct smart_params sp = smart_params_now();

	update_curr_smart(rq);

	/* migrate_task_rq_smart() took it off any other CPU's queue. */
	WARN_ON_ONCE(se->queue && se->queue != q);

	if (flags & ENQUEUE_WAKEUP)
		smart_wake(q, se, rq_clock(rq), &sp);
	else if (flags & ENQUEUE_INITIAL)
		smart_join(q, se, SMART_JOIN_NEW, &sp);
	else
		smart_join(q, se, SMART_JOIN_MOVE, &sp);

	if (!task_current(rq, p))
		smart_wait_start(rq, p);
	add_nr_running(rq, 1);
}

static bool dequeue_task_smart(struct rq *rq, struct task_struct *p, int flags)
{
	struct smart_entity *se = smart_se(p);
	struct smart_queue *q = smart_q(rq);
	struct smart_params sp = smart_params_now();

	update_curr_smart(rq);

	/* An exiting task must not stay on the queue as a sleeper. */
	if ((flags & DEQUEUE_SLEEP) && READ_ONCE(p->__state) != TASK_DEAD)
		smart_sleep(q, se, rq_clock(rq), &sp);
	else
		smart_leave(q, se);

	smart_wait_end(p);
	if (rq->smart.rescue_next == p)
		rq->smart.rescue_next = NULL;
	sub_nr_running(rq, 1);
	return true;
}

/* sched_yield(): give up the rest of the quantum, as if it was used. */
static void yield_task_smart(struct rq *rq)
{
	struct smart_entity *se = smart_se(rq->donor);
	struct smart_params sp = smart_params_now();

	/* do_sched_yield() does not update the clock; as yield_task_fair(). */
	update_rq_clock(rq);
	update_curr_smart(rq);
	rq_clock_skip_update(rq);
	if (se->state != SMART_SE_RUNNABLE)
		return;
	smart_yield(smart_q(rq), se, &sp);
}

static void wakeup_preempt_smart(struct rq *rq, struct task_struct *p, int flags)
{
	struct task_struct *curr = rq->donor;

	update_curr_smart(rq);
	if (smart_value_before(smart_se(p), smart_se(curr)))
		resched_curr(rq);
}

static struct task_struct *pick_task_smart(struct rq *rq)
{
	if (!smart_q(rq)->nr_runnable)
		return NULL;

	update_curr_smart(rq);
	return smart_next(rq);
}

static void put_prev_task_smart(struct rq *rq, struct task_struct *p,
				struct task_struct *next)
{
	update_curr_smart(rq);
	rq->smart.rescued = NULL;
	/*
	 * Not task_on_rq_queued(): a class or attribute change dequeues the
	 * task before putting it, with p->on_rq still set.
	 */
	if (smart_se(p)->state == SMART_SE_RUNNABLE)
		smart_wait_start(rq, p);
	if (!next || next->sched_class != &smart_sched_class)
		hrtimer_try_to_cancel(&rq->smart.timer);
}

static void set_next_task_smart(struct rq *rq, struct task_struct *p, bool first)
{
	p->se.exec_start = rq_clock_task(rq);
	smart_wait_end(p);
	if (rq->smart.rescue_next == p) {
		/* smart_next() chose a starving task: one short slice. */
		rq->smart.rescue_next = NULL;
		rq->smart.rescued = p;
		rq->smart.last_rescue = rq_clock(rq);
		smart_start_timer(rq, 0);
		return;
	}
	smart_arm_timer(rq, p);
}

#ifdef CONFIG_SMP
static void smart_kick_balance(struct rq *rq);
#else
static inline void smart_kick_balance(struct rq *rq) { }
#endif

static void task_tick_smart(struct rq *rq, struct task_struct *p, int queued)
{
	update_curr_smart(rq);
	smart_kick_balance(rq);
}

static void switching_to_smart(struct rq *rq, struct task_struct *p)
{
	struct smart_entity *se = smart_se(p);
	struct smart_params sp = smart_params_now();

	WRITE_ONCE(sched_smart_active, true);
	/* Enter by eq. (3), with the share of the task's nice value. */
	se->delta = 0;
	se->quantum = 0;
	/* It is on no queue: this stores the share, @now is not used. */
	smart_set_params(se, se->prio, smart_share_of_weight(p->se.load.weight),
			 0, &sp);
}

static void switched_from_smart(struct rq *rq, struct task_struct *p)
{
	struct smart_entity *se = smart_se(p);

	/* A task asleep on the queue leaves it with the class. */
	if (se->queue)
		smart_leave(se->queue, se);
	smart_wait_end(p);
}

/* A waiting task whose class or priority changed may now outrank curr. */
static void switched_to_smart(struct rq *rq, struct task_struct *p)
{
	if (task_on_rq_queued(p) && rq->donor != p)
		wakeup_preempt(rq, p, 0);
}

static void prio_changed_smart(struct rq *rq, struct task_struct *p, int oldprio)
{
	switched_to_smart(rq, p);
}

/* nice(2) on a SMART task sets its share to the weight of the nice value. */
static void reweight_task_smart(struct rq *rq, struct task_struct *p,
				const struct load_weight *lw)
{
	struct smart_entity *se = smart_se(p);
	struct smart_params sp = smart_params_now();

	p->se.load = *lw;
	if (se->queue == smart_q(rq))
		update_curr_smart(rq);
	smart_set_params(se, se->prio, smart_share_of_weight(lw->weight),
			 rq_clock(rq), &sp);
}

static unsigned int get_rr_interval_smart(struct rq *rq, struct task_struct *p)
{
	return nsecs_to_jiffies(READ_ONCE(smart_params.quantum_ns));
}

static void task_dead_smart(struct task_struct *p)
{
	/* dequeue_task_smart() takes exiting tasks off their queue. */
	WARN_ON_ONCE(smart_se(p)->queue);
}

#ifdef CONFIG_SMP

/*
 * The load a SMART task meets on @cpu: the tasks of SMART and of the
 * classes above it.  Fair tasks do not count: SMART runs before them
 * (a fair task waiting for the fair server would otherwise keep a CPU
 * looking busy for up to a second).
 */
static unsigned int smart_load(int cpu)
{
	struct rq *rq = cpu_rq(cpu);

	return READ_ONCE(rq->smart.q.nr_runnable) +
	       READ_ONCE(rq->rt.rt_nr_running) +
	       READ_ONCE(rq->dl.dl_nr_running);
}

/*
 * Place a waking or new task: its previous CPU if it has nothing else of
 * ours to run (cache, and its sleep credit is there), else the allowed
 * CPU with the fewest runnable tasks.
 */
static int select_task_rq_smart(struct task_struct *p, int prev_cpu, int wake_flags)
{
	unsigned int best_nr = UINT_MAX;
	int cpu, best = prev_cpu;

	if (!(wake_flags & (WF_TTWU | WF_FORK | WF_EXEC)))
		return prev_cpu;

	if (cpumask_test_cpu(prev_cpu, p->cpus_ptr) && cpu_active(prev_cpu)) {
		best_nr = smart_load(prev_cpu);
		if (!best_nr)
			return prev_cpu;
	}

	for_each_cpu_and(cpu, p->cpus_ptr, cpu_active_mask) {
		unsigned int nr = smart_load(cpu);

		if (nr < best_nr) {
			best_nr = nr;
			best = cpu;
			if (!nr)
				break;
		}
	}
	return best;
}

/*
 * A task migrating at wake-up may still be asleep on its old CPU's queue
 * (sleep credit): take it off there, under that CPU's lock, keeping its
 * lag.  Queued migrations were already handled by dequeue_task_smart().
 */
static void migrate_task_rq_smart(struct task_struct *p, int new_cpu)
{
	struct smart_entity *se = smart_se(p);
	struct rq *rq = task_rq(p);
	struct rq_flags rf;

	if (READ_ONCE(p->__state) != TASK_WAKING)
		return;

	rq_lock(rq, &rf);
	if (se->queue) {
		update_rq_clock(rq);
		smart_expire_sleepers(se->queue, rq_clock(rq));
		if (se->queue)
			smart_leave(se->queue, se);
	}
	rq_unlock(rq, &rf);
}

static bool smart_can_pull(struct rq *src, struct task_struct *p, int cpu)
{
	return !task_on_cpu(src, p) && !is_migration_disabled(p) &&
	       cpumask_test_cpu(cpu, p->cpus_ptr);
}

/* The most important task of @src that could run on @cpu instead. */
static struct task_struct *smart_pullable(struct rq *src, int cpu)
{
	struct rb_node *n;

	for (n = rb_first_cached(&smart_q(src)->tree); n; n = rb_next(n)) {
		struct task_struct *p =
			smart_task_of(rb_entry(n, struct smart_entity, node));

		if (smart_can_pull(src, p, cpu))
			return p;
	}
	return NULL;
}

/*
 * Moving one task from a CPU with @src_nr waiting SMART tasks to one
 * running @dst_nr tasks evens the load: the difference is at least two.
 */
static inline bool smart_imbalanced(unsigned int src_nr, unsigned int dst_nr)
{
	return src_nr >= dst_nr + 2;
}

/*
 * Pull one task from the CPU with the most runnable SMART tasks if that
 * evens the load.  Called with @rq locked and unpinned; may drop and
 * retake the lock.
 */
static void smart_pull(struct rq *rq)
{
	int this_cpu = cpu_of(rq), cpu;
	unsigned int most = 0;
	struct task_struct *p;
	struct rq *src = NULL;

	for_each_cpu(cpu, cpu_active_mask) {
		unsigned int nr;

		if (cpu == this_cpu)
			continue;
		nr = READ_ONCE(cpu_rq(cpu)->smart.q.nr_runnable);
		if (nr > most) {
			most = nr;
			src = cpu_rq(cpu);
		}
	}
	if (!src || !smart_imbalanced(most, smart_load(this_cpu)))
		return;

	double_lock_balance(rq, src);
	/* Recheck: both locks were free while we looked. */
	if (smart_imbalanced(smart_q(src)->nr_runnable, smart_load(this_cpu))) {
		p = smart_pullable(src, this_cpu);
		if (p) {
			deactivate_task(src, p, 0);
			set_task_cpu(p, this_cpu);
			activate_task(rq, p, 0);
			resched_curr(rq);
		}
	}
	double_unlock_balance(rq, src);
}

/*
 * Before a pick: a CPU about to idle, or one another CPU kicked, pulls.
 * Busy CPUs that nobody kicked skip the scan of the other CPUs.
 */
static int balance_smart(struct rq *rq, struct task_struct *prev,
			 struct rq_flags *rf)
{
	bool kicked = READ_ONCE(rq->smart.kicked);

	if ((kicked || smart_load(cpu_of(rq)) <= 1) && cpu_active(cpu_of(rq))) {
		if (kicked)
			WRITE_ONCE(rq->smart.kicked, false);
		rq_unpin_lock(rq, rf);
		smart_pull(rq);
		rq_repin_lock(rq, rf);
	}
	return sched_stop_runnable(rq) || sched_dl_runnable(rq) ||
	       sched_rt_runnable(rq) || smart_q(rq)->nr_runnable;
}

static void smart_kick_fn(void *info)
{
	/* On the kicked CPU itself: schedule, and balance_smart() pulls. */
	WRITE_ONCE(this_rq()->smart.kicked, true);
	set_tsk_need_resched(current);
	set_preempt_need_resched();
}

static DEFINE_PER_CPU(call_single_data_t, smart_kick_csd) =
	CSD_INIT(smart_kick_fn, NULL);

/*
 * @rq has tasks waiting: if a CPU that may run the most important of
 * them is idle or has at least two SMART tasks fewer, kick it so that it
 * pulls.  Called with @rq locked; takes no other rq lock.
 */
static void smart_kick_balance(struct rq *rq)
{
	unsigned int nr = smart_q(rq)->nr_runnable, best_nr;
	struct task_struct *curr = rq->donor;
	int cpu, best = -1;
	struct rb_node *n;

	if (nr < 2)
		return;

	for (n = rb_first_cached(&smart_q(rq)->tree); n; n = rb_next(n)) {
		struct task_struct *p =
			smart_task_of(rb_entry(n, struct smart_entity, node));

		if (p == curr || is_migration_disabled(p))
			continue;
		best_nr = nr - 1;
		for_each_cpu_and(cpu, p->cpus_ptr, cpu_active_mask) {
			unsigned int other = smart_load(cpu);

			if (cpu != cpu_of(rq) && other < best_nr) {
				best_nr = other;
				best = cpu;
			}
		}
		if (best >= 0 && smart_imbalanced(nr, best_nr))
			smp_call_function_single_async(best,
				per_cpu_ptr(&smart_kick_csd, best));
		return;
	}
}

static void task_woken_smart(struct rq *rq, struct task_struct *p)
{
	smart_kick_balance(rq);
}

static void rq_offline_smart(struct rq *rq)
{
	struct smart_entity *se, *tmp;

	/* Sleepers of a CPU going away leave its queue with their lag. */
	list_for_each_entry_safe(se, tmp, &smart_q(rq)->sleepers, sleep_node)
		smart_leave(smart_q(rq), se);
}

#endif /* CONFIG_SMP */

void init_smart_rq(struct rq *rq)
{
	smart_queue_init(&rq->smart.q);
	INIT_LIST_HEAD(&rq->smart.waiters);
	hrtimer_init(&rq->smart.timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	rq->smart.timer.function = smart_timer_fn;
}

/**
 * sched_smart_fork() - set up the SMART state of a new task
 * @p: the child, a copy of its parent
 *
 * The child keeps its parent's priority, share and signal unless the
 * parent asked for SMART_FLAG_RESET_ON_FORK; it joins a queue at the
 * queue virtual time when it is first enqueued (eq. (3)).
 */
void sched_smart_fork(struct task_struct *p)
{
	struct sched_smart_entity *sse = &p->smart;
	s32 prio = sse->core.prio;
	u32 share = sse->core.share;

	if (sse->flags & SMART_FLAG_RESET_ON_FORK) {
		prio = SMART_PRIO_DEFAULT;
		share = SMART_SHARE_DEFAULT;
		sse->flags = 0;
		sse->notify_signal = 0;
	}
	/*
	 * With sched_smart=all kernel threads are SMART too.  Priorities are
	 * strict, so a user task raised above them (by an administrator)
	 * would starve workqueues, RCU and friends; they run at the top
	 * priority, where a user task can at most share with them.
	 */
	if (sched_smart_all && (p->flags & PF_KTHREAD))
		prio = SMART_PRIO_MAX;
	if (!share)
		share = SMART_SHARE_DEFAULT;
	smart_entity_init(&sse->core, prio, share);
	INIT_LIST_HEAD(&sse->wait_node);
	sse->wait_start = 0;
	sse->constraints_met = 0;
	sse->constraints_missed = 0;
	sse->notifications = 0;
}

DEFINE_SCHED_CLASS(smart) = {
	.enqueue_task		= enqueue_task_smart,
	.dequeue_task		= dequeue_task_smart,
	.yield_task		= yield_task_smart,
	.wakeup_preempt		= wakeup_preempt_smart,

	.pick_task		= pick_task_smart,
	.put_prev_task		= put_prev_task_smart,
	.set_next_task		= set_next_task_smart,

#ifdef CONFIG_SMP
	.balance		= balance_smart,
	.select_task_rq		= select_task_rq_smart,
	.migrate_task_rq	= migrate_task_rq_smart,
	.task_woken		= task_woken_smart,
	.set_cpus_allowed	= set_cpus_allowed_common,
	.rq_offline		= rq_offline_smart,
#endif

	.task_tick		= task_tick_smart,
	.task_dead		= task_dead_smart,

	.switching_to		= switching_to_smart,
	.switched_from		= switched_from_smart,
	.switched_to		= switched_to_smart,
	.reweight_task		= reweight_task_smart,
	.prio_changed		= prio_changed_smart,

	.get_rr_interval	= get_rr_interval_smart,
	.update_curr		= update_curr_smart,
};
