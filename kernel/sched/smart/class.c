// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART scheduling class: glue between the scheduler core and the
 * SMART algorithm in algo.c.
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
 *   dequeue(SLEEP)  -> smart_sleep()   stays on queue for the sleep credit,
 *                      or smart_sleep_no_credit() right after a wake-up it
 *                      did, or smart_sleep_short() after a short sleep
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
#include <linux/sched/clock.h>
#include <linux/sched/smart.h>
#include <linux/sched/task.h>
#include <linux/mmu_context.h>
#include "../sched.h"
#include "../pelt.h"

#define CREATE_TRACE_POINTS
#include <trace/events/smart.h>

bool sched_smart_all __ro_after_init;
DEFINE_STATIC_KEY_FALSE(__sched_smart_active);

struct smart_params smart_params __read_mostly = {
	.quantum_ns	 = 10 * NSEC_PER_MSEC,
	.bias_step_ns	 = 10 * NSEC_PER_MSEC,
	.bias_max_ns	 = 100 * NSEC_PER_MSEC,
	.sleep_credit_ns = 100 * NSEC_PER_MSEC,
	.long_sleep_ns	 = 10 * NSEC_PER_MSEC,
};

unsigned long smart_resolution_ns __read_mostly = NSEC_PER_MSEC;
unsigned long smart_handoff_ns __read_mostly = NSEC_PER_MSEC;

static int __init setup_sched_smart(char *str)
{
	if (!str)
		return -EINVAL;
	if (!strcmp(str, "all")) {
		sched_smart_all = true;
	} else if (strcmp(str, "optin")) {
		pr_warn("sched_smart=%s: expected 'all' or 'optin'\n", str);
		return -EINVAL;
	}
	return 0;
}
early_param("sched_smart", setup_sched_smart);

/**
 * sched_smart_activate() - SMART is about to be used: enable smart_active()
 *
 * Called on the way into SCHED_SMART (__sched_setscheduler()), before any
 * lock is taken; with sched_smart=all, at boot before the other CPUs come
 * up.  Once enabled the key stays enabled.
 *
 * Context: process context, may sleep (it patches code).
 */
void sched_smart_activate(void)
{
	might_sleep();
	if (!smart_active())
		static_branch_enable(&__sched_smart_active);
}

static int __init smart_activate_all(void)
{
	if (sched_smart_all)
		sched_smart_activate();
	return 0;
}
early_initcall(smart_activate_all);

static inline struct smart_entity *smart_se(struct task_struct *p)
{
	return &p->smart.ent;
}

static inline struct smart_queue *smart_q(struct rq *rq)
{
	return &rq->smart.q;
}

#ifdef CONFIG_SMP
static void smart_update_masks(struct rq *rq);
#else
static inline void smart_update_masks(struct rq *rq) { }
#endif

/*
 * @rq's decision timer at @when, unless it is already due by then: its
 * callback decides and re-arms for the running task (smart_timer_fn()),
 * so a context switch among tasks with time left in their quanta costs no
 * reprogramming of the clock event device, only one early callback per
 * quantum at most.  The expiry is only ever written on @rq's own CPU
 * under its lock; another CPU, holding the lock, may read it.
 */
static bool smart_timer_due_by(struct rq *rq, ktime_t when)
{
	struct hrtimer *timer = &rq->smart.timer;

	return hrtimer_is_queued(timer) &&
	       ktime_compare(hrtimer_get_expires(timer), when) <= 0;
}

static void smart_timer_set(struct rq *rq, ktime_t when)
{
	if (!smart_timer_due_by(rq, when))
		hrtimer_start(&rq->smart.timer, when, HRTIMER_MODE_ABS_PINNED_HARD);
}

#ifdef CONFIG_SMP
/* On @rq's CPU: start the timer another CPU asked for. */
static void smart_timer_remote(void *arg)
{
	struct rq *rq = arg;
	struct rq_flags rf;

	rq_lock(rq, &rf);
	if (rq->smart.timer_when) {
		smart_timer_set(rq, rq->smart.timer_when);
		rq->smart.timer_when = 0;
	}
	rq_unlock(rq, &rf);
}

/*
 * Another CPU's timer is started on that CPU, as hrtick_start() does, so
 * that it fires where its rq is: the earliest expiry asked for waits in
 * ->timer_when for the IPI.  One pending at a time; a later request that
 * is earlier finds it pending and moves ->timer_when.
 */
static void smart_timer_set_remote(struct rq *rq, ktime_t when)
{
	if (smart_timer_due_by(rq, when) ||
	    (rq->smart.timer_when && ktime_compare(rq->smart.timer_when, when) <= 0))
		return;
	rq->smart.timer_when = when;
	if (smp_call_function_single_async(cpu_of(rq), &rq->smart.timer_csd) == -ENXIO)
		rq->smart.timer_when = 0;	/* offline: nothing to decide */
}
#endif

/* The next decision on @rq (locked) in @delay ns, or earlier. */
static void smart_start_timer(struct rq *rq, u64 delay)
{
	ktime_t when = ktime_add_ns(ktime_get(), delay);

#ifdef CONFIG_SMP
	if (rq != this_rq()) {
		smart_timer_set_remote(rq, when);
		return;
	}
#endif
	smart_timer_set(rq, when);
}

typedef bool (*smart_waiter_match_t)(const struct sched_smart_entity *w,
				     const struct smart_entity *pick);

/*
 * The task that has waited longest on @rq among those that have waited
 * at least @min_wait and @match, looking at the first SMART_WS_MAX
 * waiting tasks only; NULL if none.  Inlined, so @match is a direct call.
 */
static __always_inline struct sched_smart_entity *
smart_find_waiter(struct rq *rq, u64 now, u64 min_wait,
		  smart_waiter_match_t match, const struct smart_entity *pick)
{
	struct sched_smart_entity *pos;
	unsigned int seen = 0;

	list_for_each_entry(pos, &rq->smart.waiters, wait_node) {
		if (seen++ >= SMART_WS_MAX ||
		    (s64)(now - pos->wait_start) < (s64)min_wait)
			break;
		if (match(pos, pick))
			return pos;
	}
	return NULL;
}

/* A kernel thread with sched_smart=all's standing, other than @pick. */
static bool smart_waiter_kthread(const struct sched_smart_entity *w,
				 const struct smart_entity *pick)
{
	return w->kthread_waiting && &w->ent != pick;
}

/*
 * In how many ns (at least resolution_ns) the kernel thread that has
 * waited longest on @rq may be rescued (smart_next()); U64_MAX if none
 * of the first SMART_WS_MAX waiting tasks is one.
 */
static u64 smart_kthread_due(struct rq *rq)
{
	u64 now = rq_clock(rq), res = READ_ONCE(smart_resolution_ns), due;
	struct sched_smart_entity *w;

	w = smart_find_waiter(rq, now, 0, smart_waiter_kthread, NULL);
	if (!w)
		return U64_MAX;
	due = max(w->wait_start, rq->smart.last_kthread_rescue) +
	      SMART_KTHREAD_STARVE_NS;
	return (s64)(due - now) > (s64)res ? due - now : res;
}

/*
 * Decide again when @p's quantum ends, but no sooner than resolution_ns,
 * if another SMART task could then run instead: alone on the CPU, @p is
 * charged its quanta at the next event as exactly (smart_charge() moves
 * its BVFT once per quantum), and a task that joins it re-arms the timer
 * (smart_check_preempt(), pick_task_smart()).
 */
static void smart_arm_timer(struct rq *rq, struct task_struct *p)
{
	u64 delay;

	if (smart_q(rq)->nr_runnable < 2)
		return;
	delay = max_t(u64, smart_quantum_left(smart_se(p)),
		      READ_ONCE(smart_resolution_ns));
	if (rq->smart.nr_kthread_waiting)
		delay = min(delay, smart_kthread_due(rq));
	smart_start_timer(rq, delay);
}

/*
 * @p waits on @rq: runnable, not running.  One that may run on another
 * CPU counts in ->nr_movable, which makes @rq overloaded (a CPU that may
 * pull from it, smart_update_masks()), as rt.c's pushable tasks drive
 * its rto_mask: tasks pinned to @rq make no other CPU look at it.
 */
static void smart_wait_start(struct rq *rq, struct task_struct *p)
{
	p->smart.wait_start = rq_clock(rq);
	list_move_tail(&p->smart.wait_node, &rq->smart.waiters);
	if (!p->smart.kthread_waiting && p->smart.ent.kthread_prio) {
		p->smart.kthread_waiting = true;
		rq->smart.nr_kthread_waiting++;
		/* Decide again when it may be rescued, whatever the quantum. */
		if (smart_q(rq)->nr_runnable >= 2)
			smart_start_timer(rq, smart_kthread_due(rq));
	}
	if (!p->smart.movable && p->nr_cpus_allowed > 1) {
		p->smart.movable = true;
		rq->smart.nr_movable++;
	}
	smart_update_masks(rq);
}

static void smart_wait_end(struct rq *rq, struct task_struct *p)
{
	list_del_init(&p->smart.wait_node);
	if (p->smart.kthread_waiting) {
		p->smart.kthread_waiting = false;
		rq->smart.nr_kthread_waiting--;
	}
	if (p->smart.movable) {
		p->smart.movable = false;
		rq->smart.nr_movable--;
	}
	smart_update_masks(rq);
}

/*
 * The §3.2 decision for the queue as it is (smart_decide() keeps it
 * between changes).  CPU time that goes to another class than SMART eats
 * into everyone's slack: a decision taken while another class runs does
 * not stand, and put_prev_task_smart() has the schedule rebuilt when
 * SMART gives the CPU away.
 */
static struct smart_entity *smart_decide_rq(struct rq *rq)
{
	struct smart_queue *q = smart_q(rq);

	if (rq->donor->sched_class != &smart_sched_class)
		q->changed = true;
	else if (smart_decided(q))
		return q->pick;
	/* A clock read only for a working schedule to build or keep. */
	return smart_decide(q, smart_decide_needs_clock(q) ? ktime_get_ns() : 0);
}

/*
 * @p waits on @rq and has not heard yet that it is late: it runs for one
 * resolution_ns slice out of order as soon as smart_told_now() allows,
 * and the decision timer is armed for then.  One task at a time per CPU.
 * Only a queued task: dequeue_task_smart() lets it go, so the pointer
 * never outlives it.  One whose constraint ended or is past its deadline
 * gives way, and so does one of lower priority than @p: smart_told_now()
 * runs it only when nothing of higher priority is picked, and it must
 * not keep a more important task from hearing in time.
 */
static void smart_tell(struct rq *rq, struct task_struct *p)
{
	struct task_struct *t = rq->smart.told;
	u64 res = READ_ONCE(smart_resolution_ns);
	s64 wait;

	if (smart_se(p)->state != SMART_SE_RUNNABLE ||
	    smart_se(p)->queue != smart_q(rq) ||
	    (t && smart_se(t)->prio >= smart_se(p)->prio &&
	     (s64)(smart_se(t)->tc.deadline - ktime_get_ns()) > 0))
		return;
	rq->smart.told = p;
	wait = rq->smart.last_told + SMART_TOLD_EVERY * res - rq_clock(rq);
	smart_start_timer(rq, max_t(s64, wait, res));
}

/*
 * Was @p told that it is late without having been able to act on it?
 * @p sends itself the signal (->notify_code is set until then,
 * smart_notify()), handles it on its way back to user space and then
 * runs its handler; it may be preempted at any of these steps.  So it is
 * told soon, as a waiting task is, if preempted before the signal is
 * delivered or before it has had resolution_ns of CPU since the
 * notification, while the constraint it was told about is still active
 * (->tc_notified stays set until the next one begins).
 */
static bool smart_unheard(struct task_struct *p)
{
	return p->smart.tc_notified && smart_se(p)->tc.deadline &&
	       (p->smart.notify_code || task_sigpending(p) ||
		p->se.sum_exec_runtime - p->smart.notify_runtime <
		READ_ONCE(smart_resolution_ns));
}

/**
 * smart_tell_soon() - let a waiting task hear that it is late
 * @rq:	its rq, locked
 * @p:	a task just notified that its constraint cannot be met
 *	(smart_notify())
 *
 * The signal is handled when @p next runs, which in the decision's order
 * may be after the jobs of the working schedule, after its deadline.  So
 * it runs for one resolution_ns slice out of order, as a rescue does,
 * once the working schedule can spare that (smart_told_now()).  The
 * running task hears it on its way back to user space, unless it is
 * preempted first: put_prev_task_smart() then tells it soon.
 */
void smart_tell_soon(struct rq *rq, struct task_struct *p)
{
	if (p != rq->donor)
		smart_tell(rq, p);
}

/*
 * Does the task told it is late (smart_tell_soon()) run now?  While its
 * deadline is ahead, the working schedule has resolution_ns of slack and
 * the decision's pick is of no higher priority; at most one such slice
 * per SMART_TOLD_EVERY slices per CPU, so that tasks that make themselves
 * late on purpose take at most that fraction of a CPU out of order (and
 * are charged it: their value tuples fall behind).
 */
static bool smart_told_now(struct rq *rq, const struct smart_entity *pick,
			   u64 now)
{
	struct task_struct *t = rq->smart.told;
	u64 res = READ_ONCE(smart_resolution_ns), mono;

	if (!t || !pick || smart_se(t) == pick ||
	    smart_se(t)->prio < pick->prio ||
	    (s64)(now - rq->smart.last_told) < (s64)(SMART_TOLD_EVERY * res))
		return false;
	mono = ktime_get_ns();
	return (s64)(smart_se(t)->tc.deadline - mono) > 0 &&
	       smart_ws_slack(smart_q(rq), mono) >= res;
}

/*
 * Notify the candidates the current decision could not place, once per
 * decision.  Called where the scheduler acts (a pick, a tick, the
 * decision timer, a change to the queue), never where it is only looked
 * at (a charge for a reader: getattr, /proc, debugfs).  The decision is
 * brought up to date first: a rejected entity is then still queued.
 */
static void smart_notify_rejected(struct rq *rq)
{
	struct smart_ws *rej = &smart_q(rq)->rejected;
	unsigned int i;

	smart_decide_rq(rq);
	for (i = 0; i < rej->nr; i++) {
		struct task_struct *p = smart_task_of(rej->se[i]);

		if (smart_notify(p, SMART_NOTIFY_INFEASIBLE))
			smart_tell_soon(rq, p);
	}
	rej->nr = 0;
}

/* Preempted inside an RCU read-side critical section: it holds up RCU. */
static inline bool smart_in_rcu_reader(struct task_struct *p)
{
#ifdef CONFIG_PREEMPT_RCU
	return READ_ONCE(p->rcu_read_lock_nesting) > 0;
#else
	return false;
#endif
}

/*
 * Which starving task a rescue runs: the one that has waited longest,
 * unless one of those that have waited SMART_STARVE_NS too is preempted
 * inside an RCU read-side section (among the first SMART_WS_MAX, in
 * waiting order): that one first, since every grace period of the
 * system waits for it, and a user with many starving threads of its own
 * must not be able to stall RCU for longer than the rescue rate allows.
 */
static bool smart_waiter_in_rcu(const struct sched_smart_entity *w,
				const struct smart_entity *pick)
{
	return smart_in_rcu_reader(container_of(w, struct task_struct, smart));
}

static struct sched_smart_entity *smart_rescue_pick(struct rq *rq,
						    struct sched_smart_entity *w,
						    u64 now)
{
	return smart_find_waiter(rq, now, SMART_STARVE_NS, smart_waiter_in_rcu,
				 NULL) ?: w;
}

/*
 * The task to run: the §3.2 decision, unless another task has starved
 * for SMART_STARVE_NS and none was rescued in that time, or a kernel
 * thread for SMART_KTHREAD_STARVE_NS and none was rescued in that time
 * (@kthread, if not NULL, says which), or a task was just told it is late
 * (smart_tell_soon()); then that one, for a slice (pick_task_smart()
 * marks it, set_next_task_smart() starts the slice).  Changes nothing
 * but the cached decision, so that anything may ask.
 */
static struct task_struct *smart_next(struct rq *rq, bool *kthread)
{
	struct sched_smart_entity *w;
	struct smart_entity *sme;
	u64 now = rq_clock(rq);

	if (kthread)
		*kthread = false;
	sme = smart_decide_rq(rq);
	w = list_first_entry_or_null(&rq->smart.waiters,
				     struct sched_smart_entity, wait_node);
	if (w && &w->ent != sme &&
	    (s64)(now - w->wait_start) >= (s64)SMART_STARVE_NS &&
	    (s64)(now - rq->smart.last_rescue) >= (s64)SMART_STARVE_NS) {
		w = smart_rescue_pick(rq, w, now);
		return container_of(w, struct task_struct, smart);
	}
	if (rq->smart.nr_kthread_waiting &&
	    (s64)(now - rq->smart.last_kthread_rescue) >=
	    (s64)SMART_KTHREAD_STARVE_NS) {
		/* The longest waiting one, not the decision's pick itself. */
		w = smart_find_waiter(rq, now, SMART_KTHREAD_STARVE_NS,
				      smart_waiter_kthread, sme);
		if (w) {
			if (kthread)
				*kthread = true;
			return container_of(w, struct task_struct, smart);
		}
	}
	if (smart_told_now(rq, sme, now))
		return rq->smart.told;
	return sme ? smart_task_of(sme) : NULL;
}

/*
 * A task's recent service (sched_smart_entity::recent): the virtual time
 * it ran, halved at every epoch of 2^SMART_RECENT_SHIFT ns (268 ms).
 * The epochs are the same on all CPUs, so the figures of tasks on two
 * CPUs compare: it is what the rotation between unevenly loaded CPUs
 * goes by (smart_rotates()).
 */
#define SMART_RECENT_SHIFT	28

/* @recent as of epoch @epoch, brought to the epoch of @now. */
static u64 smart_decay(u64 recent, u64 epoch, u64 now)
{
	s64 d = (s64)((now >> SMART_RECENT_SHIFT) - epoch);

	/* @now may be behind: the clock of the CPU it came from was ahead. */
	if (d <= 0)
		return recent;
	return d < 64 ? recent >> d : 0;
}

static u64 smart_recent(const struct task_struct *p, u64 now)
{
	return smart_decay(p->smart.recent, p->smart.recent_epoch, now);
}

static void smart_recent_charge(struct task_struct *p, u64 now, u64 vtime)
{
	p->smart.recent = smart_recent(p, now) + vtime;
	p->smart.recent_epoch = max(now >> SMART_RECENT_SHIFT,
				    p->smart.recent_epoch);
}

/*
 * Charge the running SMART task for the time since it was last charged.
 * If its quantum ended and another task should run now, reschedule.
 */
static void update_curr_smart(struct rq *rq)
{
	struct task_struct *curr = rq->donor;
	struct smart_entity *sme = smart_se(curr);
	struct smart_params p = smart_params_now();
	s64 delta;

	if (curr->sched_class != &smart_sched_class)
		return;

	delta = update_curr_common(rq);
	if (delta <= 0)
		return;
	/* Its task group is out of its cpu.max quota: pick_task_smart() parks it. */
	if (smart_bw_charge(rq, curr, delta))
		resched_curr(rq);
	if (sme->state != SMART_SE_RUNNABLE) {
		/* Off the queue: no value to move, but the budget runs on. */
		smart_tc_sync(curr);
		return;
	}
	/* smart_charge() adds @delta to the budget. */
	if (sme->tc.deadline)
		smart_tc_set_used(sme, smart_tc_runtime(curr) - delta);
	smart_recent_charge(curr, rq_clock(rq), smart_scale(delta, sme->inv_share));

	if (smart_charge(smart_q(rq), sme, rq_clock(rq), delta, &p)) {
		trace_smart_quantum(curr);
		if (smart_next(rq, NULL) != curr)
			resched_curr(rq);
		else
			smart_arm_timer(rq, curr);
	}
}

/**
 * smart_lock_charged() - lock a task's rq with the running task charged
 * @p:	the task
 * @rf:	for task_rq_unlock()
 *
 * The queue virtual time, lags and constraint budgets are then current.
 *
 * Return: @p's rq, locked.
 */
struct rq *smart_lock_charged(struct task_struct *p, struct rq_flags *rf)
{
	struct rq *rq = task_rq_lock(p, rf);

	update_rq_clock(rq);
	rq->donor->sched_class->update_curr(rq);
	return rq;
}

/*
 * Preempt the running task if another one should run.  @told: it has
 * just begun a constraint that cannot be met and was told so; the
 * switch may then wait for the decision timer (smart_preempt_check_told()).
 */
static void smart_preempt(struct rq *rq, bool told)
{
	struct task_struct *curr = rq->donor, *next;
	u64 res = READ_ONCE(smart_resolution_ns);

	update_curr_smart(rq);
	if (curr->sched_class == &smart_sched_class) {
		next = smart_next(rq, NULL);
		/* Its quantum or its company may have changed: the timer. */
		if (next == curr)
			smart_arm_timer(rq, curr);
		else if (told && !test_tsk_need_resched(curr) && next &&
			 smart_se(next)->prio <= smart_se(curr)->prio &&
			 smart_ws_slack(smart_q(rq), ktime_get_ns()) >= res)
			smart_start_timer(rq, res);
		else
			resched_curr(rq);
	}
	smart_notify_rejected(rq);
}

/*
 * Something changed on @rq's queue: preempt if another task should run.
 * The running task is charged first, so that the decision sees what its
 * constraint has left.  @rq's clock is up to date.
 */
void smart_preempt_check(struct rq *rq)
{
	smart_preempt(rq, false);
}

/**
 * smart_preempt_check_told() - preempt a task just told it is late
 * @rq:	the rq, locked, clock updated; its running task has just begun a
 *	time constraint that cannot be met, and was told so
 *
 * As smart_preempt_check(), but when another task should run instead and
 * the working schedule has resolution_ns of slack (smart_ws_slack()) and
 * that task is of no higher priority, the decision is taken again by the
 * decision timer, resolution_ns later at most.  The task then hears the
 * news before its deadline and can act on it (drop the job, begin the
 * next one), instead of once every job ahead of it has run; no
 * constraint in the schedule is made late.  The timer is never moved
 * later, so a task that begins again in that time gets no more of it.
 */
void smart_preempt_check_told(struct rq *rq)
{
	smart_preempt(rq, true);
}

/* How long ago @p last woke a task itself, in its own running time. */
static u64 smart_woke_age(const struct task_struct *p)
{
	return local_clock() - READ_ONCE(p->smart.woke_at);
}

/*
 * The running task @curr has just woken a task: it may be handing its
 * work over (smart_handing_off()), so a task of its priority, real-time
 * or not, waits up to handoff_ns for it to block, counted from the first
 * preemption put off since it was switched in, whatever it wakes
 * meanwhile.  Return: true if the preemption is put off (the decision
 * timer is armed for the end of the wait).
 */
static bool smart_handoff_defer(struct rq *rq, struct task_struct *curr,
				u64 now)
{
	u64 handoff = READ_ONCE(smart_handoff_ns), age, since;

	if (curr != current)
		return false;
	age = smart_woke_age(curr);
	if (age >= handoff)
		return false;
	if (!rq->smart.handoff_since)
		rq->smart.handoff_since = now;
	since = now - rq->smart.handoff_since;
	if (since >= handoff)
		return false;
	smart_start_timer(rq, min(handoff - age, handoff - since));
	return true;
}

/*
 * A task woke up (or the decision timer fired): preempt the running task
 * if another one should run, at once or a little later.  Time constraints,
 * higher priorities and a rescue preempt at once.  Among conventional
 * tasks of one priority, in the manner of CFS's wake-up granularity and
 * EEVDF's run to parity:
 *
 *  - a woken task whose BVFT is earlier by no more than resolution_ns of
 *    the running task's virtual time waits for the end of its quantum
 *    (the decision timer is armed for it) or for it to block;
 *  - one that is further ahead (a sleeper with credit) preempts at once,
 *    but a CPU takes at most one such preemption per resolution_ns: a
 *    later one is decided by the decision timer, resolution_ns after the
 *    last.  A wake-up never waits longer than that, and a sleeper that
 *    wakes less often preempts at once;
 *  - a running task that has just woken a task is not preempted by one of
 *    its priority, real-time or not, for up to handoff_ns, so that it can
 *    block first (smart_handoff_defer()).
 *
 * Without the first rule every wake-up of a pipe peer preempts the
 * sender, one switch per message; without the second, every sleeper does.
 */
static void smart_check_preempt(struct rq *rq)
{
	struct task_struct *curr = rq->donor, *next;
	struct smart_entity *cse = smart_se(curr), *nse;
	u64 res = READ_ONCE(smart_resolution_ns), now = rq_clock(rq);
	bool same, conv;
	s64 since;

	if (curr->sched_class != &smart_sched_class)
		return;
	next = smart_next(rq, NULL);
	if (next == curr) {
		/* A task that joins it ends its quantum on time. */
		smart_arm_timer(rq, curr);
		return;
	}
	nse = next ? smart_se(next) : NULL;
	same = nse && nse->prio == cse->prio && !rq->smart.rescued;
	conv = same && !smart_is_rt(nse) && !smart_is_rt(cse);
	if (conv && (s64)(cse->bvft - nse->bvft) <=
		    (s64)smart_scale(res, cse->inv_share)) {
		smart_arm_timer(rq, curr);
		return;
	}
	if (same && smart_handoff_defer(rq, curr, now))
		return;
	if (conv) {
		since = now - rq->smart.last_wake_preempt;
		if (since < (s64)res) {
			smart_start_timer(rq, res - since);
			return;
		}
		rq->smart.last_wake_preempt = now;
	}
	resched_curr(rq);
}

/*
 * No SMART task runs on @rq: its sleepers would stay on its queue until
 * the next SMART event here, counted in their groups' presence on this
 * CPU (smart_tg_cpu_weight()), which may be never.  So the decision
 * timer sends them off when their credit runs out.
 */
static void smart_watch_sleepers(struct rq *rq)
{
	u64 when, now = rq_clock(rq);

	if (smart_sleepers_expire(smart_q(rq), &when))
		smart_start_timer(rq, (s64)(when - now) > 0 ? when - now : 0);
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
		} else if (!test_tsk_need_resched(curr)) {
			/* A wake-up may have left the decision to us. */
			smart_check_preempt(rq);
		}
		smart_notify_rejected(rq);
		/*
		 * Re-armed even when curr is to be switched out: the pick may
		 * return it again, and set_next_task_smart() is then not called.
		 */
		smart_arm_timer(rq, curr);
	} else {
		struct smart_params sp = smart_params_now();

		smart_expire_sleepers(smart_q(rq), rq_clock(rq), &sp);
		smart_watch_sleepers(rq);
	}
	rq_unlock(rq, &rf);

	return HRTIMER_NORESTART;
}

/*
 * @p wakes up.  When the SMART task running here wakes it itself (not an
 * interrupt, nor the target CPU doing a queued remote wake-up for it),
 * note the time: if the waker blocks right after, it waits for the task
 * it woke (smart_handing_off()).
 */
static void smart_note_waker(struct task_struct *p)
{
	struct task_struct *w = current;

	if (in_interrupt() || w == p || w->sched_class != &smart_sched_class)
		return;
	WRITE_ONCE(w->smart.woke_at, local_clock());
}

/*
 * @p (current) blocks within handoff_ns of waking another task: it handed
 * its work over, and the time it waits is that task's to run, not CPU it
 * leaves to the others on its queue.  With the sleep credit of §3.3 two
 * tasks that wake each other in turn took two shares beside a hog
 * although only one of them can run at a time.  A pipe write and the
 * read that blocks, a futex wake and wait, a request queued to a kworker
 * and the wait for it take a few microseconds, but the waker may be
 * preempted in between (handoff_ns is counted in its own running time,
 * smart_handoff_pause()), and under QEMU TCG, on the debug kernel, a futex
 * wake and the wait after it were up to 0.8 ms apart: the default is
 * 1 ms; 0 is the paper's rule.
 */
static bool smart_handing_off(struct task_struct *p)
{
	return p == current && smart_woke_age(p) < READ_ONCE(smart_handoff_ns);
}

/*
 * @p is preempted, maybe by the task it just woke: the time it waits
 * does not age that wake-up (smart_handoff_resume()).  Called where @p
 * is put back, in its own context unless an attribute change does it.
 */
static void smart_handoff_pause(struct task_struct *p)
{
	u64 age = smart_woke_age(p);

	p->smart.woke_age = age < READ_ONCE(smart_handoff_ns) ? age + 1 : 0;
}

/* @p runs again (not yet current): its wake-up is as old as it was. */
static void smart_handoff_resume(struct task_struct *p)
{
	if (p->smart.woke_age) {
		WRITE_ONCE(p->smart.woke_at,
			   local_clock() - (p->smart.woke_age - 1));
		p->smart.woke_age = 0;
	}
}

/* @p, on no queue and not counted in nr_running, waits on @rq's list. */
static void smart_park_list(struct rq *rq, struct task_struct *p)
{
	list_add_tail(&p->smart.wait_node, &rq->smart.parked);
	p->smart.parked = true;
}

/*
 * cpu.max (bandwidth.c): a runnable task whose task group is out of its
 * quota on @rq's CPU is parked, as fair's throttle_cfs_rq() takes a
 * group's tasks off: off the queue with its lag, off the waiters (no
 * valve may run it), out of rq->nr_running, its wait_node on the rq's
 * parked list.  dequeue_task_smart() of a parked task only unlinks it.
 */
static void smart_park(struct rq *rq, struct task_struct *p)
{
	smart_leave(smart_q(rq), smart_se(p));
	smart_wait_end(rq, p);
	smart_park_list(rq, p);
	if (rq->smart.rescue_next == p)
		rq->smart.rescue_next = NULL;
	if (rq->smart.told == p)
		rq->smart.told = NULL;
	sub_nr_running(rq, 1);
}

static void smart_unpark(struct rq *rq, struct task_struct *p)
{
	struct smart_entity *sme = smart_se(p);
	struct smart_params sp = smart_params_now();

	list_del_init(&p->smart.wait_node);
	p->smart.parked = false;
	sme->group = smart_task_group(p, cpu_of(rq));
	smart_join(smart_q(rq), sme, SMART_JOIN_MOVE, &sp);
	add_nr_running(rq, 1);
	if (!task_current(rq, p))
		smart_wait_start(rq, p);
}

/**
 * smart_unpark_ready() - requeue the parked tasks that may run again
 * @rq:	the rq, locked, clock updated; a group was refilled or unlimited
 *	on its CPU, or the CPU is going offline
 */
void smart_unpark_ready(struct rq *rq)
{
	struct sched_smart_entity *sse, *tmp;
	bool any = false;

	list_for_each_entry_safe(sse, tmp, &rq->smart.parked, wait_node) {
		struct task_struct *p = container_of(sse, struct task_struct,
						     smart);

		if (smart_bw_parks(rq, p))
			continue;
		smart_unpark(rq, p);
		any = true;
	}
	if (!any)
		return;
	if (rq->donor->sched_class == &smart_sched_class)
		smart_preempt_check(rq);
	else if (sched_class_above(&smart_sched_class, rq->donor->sched_class))
		resched_curr(rq);
}

static void enqueue_task_smart(struct rq *rq, struct task_struct *p, int flags)
{
	struct smart_entity *sme = smart_se(p);
	struct smart_queue *q = smart_q(rq);
	struct smart_params sp = smart_params_now();

	update_curr_smart(rq);

	/* migrate_task_rq_smart() took it off any other CPU's queue. */
	WARN_ON_ONCE(sme->queue && sme->queue != q);
	if (!sme->queue)
		sme->group = smart_task_group(p, cpu_of(rq));
	if (flags & ENQUEUE_WAKEUP) {
		/* Another CPU's clock may be behind the one it blocked on. */
		p->smart.slept = p->smart.blocked_at ?
			max_t(s64, rq_clock(rq) - p->smart.blocked_at, 0) : 0;
		p->smart.woke_exec = p->se.sum_exec_runtime;
	}

	/*
	 * Its task group is out of its cpu.max quota here: parked at once,
	 * before a wake-up is counted or a constraint inferred for it (a
	 * sleeper still on the queue leaves it with its lag).  The running
	 * task is parked by the pick.
	 */
	if (unlikely(!task_current(rq, p) && smart_bw_parks(rq, p))) {
		if (sme->queue)
			smart_leave(q, sme);
		smart_park_list(rq, p);
		return;
	}

	if (flags & ENQUEUE_WAKEUP) {
		smart_note_waker(p);
		smart_wake(q, sme, rq_clock(rq), &sp);
		smart_infer_wake_task(rq, p);
	} else if (flags & ENQUEUE_INITIAL) {
		smart_join(q, sme, SMART_JOIN_NEW, &sp);
	} else {
		smart_join(q, sme, SMART_JOIN_MOVE, &sp);
	}

	if (!task_current(rq, p))
		smart_wait_start(rq, p);
	add_nr_running(rq, 1);
	smart_update_masks(rq);
	if (unlikely(task_current(rq, p) && smart_bw_parks(rq, p)))
		resched_curr(rq);
}

/* An exiting task's constraint ends. */
static void smart_exit_tc(struct rq *rq, struct task_struct *p)
{
	if (smart_se(p)->tc.deadline)
		smart_tc_finish(rq, p, ktime_get_ns(), SMART_TC_EXIT);
	smart_tc_disarm(p);
}

static bool dequeue_task_smart(struct rq *rq, struct task_struct *p, int flags)
{
	struct smart_entity *sme = smart_se(p);
	struct smart_queue *q = smart_q(rq);
	struct smart_params sp = smart_params_now();

	update_curr_smart(rq);

	/* Parked: on no queue and not in nr_running already. */
	if (unlikely(p->smart.parked)) {
		list_del_init(&p->smart.wait_node);
		p->smart.parked = false;
		if (READ_ONCE(p->__state) == TASK_DEAD)
			smart_exit_tc(rq, p);
		return true;
	}

	/* An exiting task must not stay on the queue as a sleeper. */
	if ((flags & DEQUEUE_SLEEP) && READ_ONCE(p->__state) != TASK_DEAD) {
		smart_infer_sleep_task(p);
		p->smart.blocked_at = rq_clock(rq);
		if (smart_handing_off(p))
			smart_sleep_no_credit(q, sme, rq_clock(rq), &sp);
		else if (!smart_earns_credit(sme, p->smart.slept,
					     p->se.sum_exec_runtime -
					     p->smart.woke_exec, &sp))
			smart_sleep_short(q, sme, rq_clock(rq), &sp);
		else
			smart_sleep(q, sme, rq_clock(rq), &sp);
	} else {
		if (READ_ONCE(p->__state) == TASK_DEAD)
			smart_exit_tc(rq, p);
		smart_leave(q, sme);
	}

	smart_wait_end(rq, p);
	if (rq->smart.rescue_next == p)
		rq->smart.rescue_next = NULL;
	if (rq->smart.told == p)
		rq->smart.told = NULL;
	sub_nr_running(rq, 1);
	smart_update_masks(rq);
	return true;
}

/* sched_yield(): give up the rest of the quantum, as if it was used. */
static void yield_task_smart(struct rq *rq)
{
	struct smart_entity *sme = smart_se(rq->donor);
	struct smart_params sp = smart_params_now();

	/* do_sched_yield() does not update the clock; as yield_task_fair(). */
	update_rq_clock(rq);
	update_curr_smart(rq);
	rq_clock_skip_update(rq);
	if (sme->state != SMART_SE_RUNNABLE)
		return;
	smart_yield(smart_q(rq), sme, &sp);
}

/* A task woke up on @rq: it may run now, or a little later. */
static void wakeup_preempt_smart(struct rq *rq, struct task_struct *p, int flags)
{
	update_curr_smart(rq);
	smart_check_preempt(rq);
}

/* Which step of §3.2 chose @p (for the smart_pick tracepoint). */
static enum smart_pick_reason smart_pick_reason(struct rq *rq,
						struct task_struct *p)
{
	struct smart_entity *sme = smart_se(p);

	if (p == rq->smart.rescue_next)
		return SMART_PICK_RESCUE;
	if (!smart_is_rt(sme))
		return SMART_PICK_CONVENTIONAL;
	if (smart_q(rq)->ws.nr && smart_q(rq)->ws.se[0] == sme)
		return SMART_PICK_SCHEDULE;
	return SMART_PICK_FALLBACK;
}

static struct task_struct *pick_task_smart(struct rq *rq)
{
	struct task_struct *p;
	bool kthread;

	if (!smart_q(rq)->nr_runnable)
		return NULL;

	update_curr_smart(rq);
	/* Each turn takes one task off the queue: at most nr_runnable turns. */
	while ((p = smart_next(rq, &kthread)) && smart_bw_parks(rq, p))
		smart_park(rq, p);
	smart_notify_rejected(rq);
	/* Out of the decision's order: a rescue (set_next_task_smart()). */
	rq->smart.rescue_next = p && smart_se(p) != smart_q(rq)->pick ? p : NULL;
	rq->smart.rescue_kthread = kthread;
	/* The pick keeps the running task: set_next_task_smart() is not called. */
	if (p && p == rq->curr && cpu_of(rq) == smp_processor_id())
		smart_arm_timer(rq, p);
	if (p && trace_smart_pick_enabled())
		trace_smart_pick(cpu_of(rq), p, smart_pick_reason(rq, p),
				 smart_q(rq)->ws.nr);
	return p;
}

static void put_prev_task_smart(struct rq *rq, struct task_struct *p,
				struct task_struct *next)
{
	update_curr_smart(rq);
	update_rt_rq_load_avg(rq_clock_pelt(rq), rq, 1);
	rq->smart.rescued = NULL;
	/*
	 * Not task_on_rq_queued(): a class or attribute change dequeues the
	 * task before putting it, with p->on_rq still set.
	 */
	if (smart_se(p)->state == SMART_SE_RUNNABLE) {
		smart_wait_start(rq, p);
		smart_handoff_pause(p);
		/* Preempted before it heard that it is late (smart_notify()). */
		if (smart_unheard(p))
			smart_tell(rq, p);
	}
	smart_tc_watch(p);
	if (!next || next->sched_class != &smart_sched_class) {
		hrtimer_try_to_cancel(&rq->smart.timer);
		smart_watch_sleepers(rq);
		/* Another class runs now: the working schedule loses slack. */
		smart_q(rq)->changed = true;
	}
}

static void set_next_task_smart(struct rq *rq, struct task_struct *p, bool first)
{
	bool told;

	p->se.exec_start = rq_clock_task(rq);
	/* The time before was not SMART's (put_prev_task_smart() ends it). */
	update_rt_rq_load_avg(rq_clock_pelt(rq), rq, 0);
	smart_wait_end(rq, p);
	smart_handoff_resume(p);
	rq->smart.handoff_since = 0;
	told = rq->smart.told == p;
	if (told) {
		/* It runs: it hears it now, whichever way it was chosen. */
		rq->smart.told = NULL;
		rq->smart.last_told = rq_clock(rq);
	}
	if (rq->smart.rescue_next == p) {
		/* A starving or a told task out of order: one short slice. */
		if (rq->smart.rescue_kthread)
			rq->smart.last_kthread_rescue = rq_clock(rq);
		else if (!told)
			rq->smart.last_rescue = rq_clock(rq);
		rq->smart.rescue_next = NULL;
		rq->smart.rescued = p;
		smart_start_timer(rq, READ_ONCE(smart_resolution_ns));
		return;
	}
	smart_arm_timer(rq, p);
}

#ifdef CONFIG_SMP
static void smart_kick_balance(struct rq *rq, bool tick);
static void smart_publish_recent(struct rq *rq, struct task_struct *curr);
#else
static inline void smart_kick_balance(struct rq *rq, bool tick) { }
static inline void smart_publish_recent(struct rq *rq,
					struct task_struct *curr) { }
#endif

static void task_tick_smart(struct rq *rq, struct task_struct *p, int queued)
{
	update_curr_smart(rq);
	smart_infer_tick(rq, p);
	smart_tick_groups(rq, p);
	smart_notify_rejected(rq);
	update_rt_rq_load_avg(rq_clock_pelt(rq), rq, 1);
	smart_publish_recent(rq, p);
	smart_kick_balance(rq, true);
}

static void switching_to_smart(struct rq *rq, struct task_struct *p)
{
	struct smart_entity *sme = smart_se(p);
	struct smart_params sp = smart_params_now();

	/*
	 * The end of a priority-inheritance boost: the task never left
	 * SCHED_SMART, so its lag, quantum and share are what it had.  It
	 * may have been away long (or the flag may be stale, if its policy
	 * changed while boosted): it keeps at most the credit of a sleeper.
	 */
	if (p->smart.pi_boosted) {
		p->smart.pi_boosted = false;
		sme->delta = max_t(s64, sme->delta, -smart_credit_limit(sme, &sp));
		return;
	}
	/* Enter by eq. (3), with the share of the task's nice value. */
	sme->delta = 0;
	sme->quantum = 0;
	/* Its time away was no sleep of SMART's. */
	p->smart.blocked_at = 0;
	p->smart.slept = 0;
	p->smart.woke_exec = p->se.sum_exec_runtime;
	/* It is on no queue: this stores the share, @now is not used. */
	smart_set_params(sme, sme->prio, smart_share_of_weight(p->se.load.weight),
			 0, &sp);
}

/* @p leaves SMART for good: its constraint ends, nothing is kept. */
static void smart_left(struct rq *rq, struct task_struct *p)
{
	if (smart_se(p)->tc.deadline)
		smart_tc_finish(rq, p, ktime_get_ns(), SMART_TC_LEFT);
	smart_tc_disarm(p);
	smart_infer_forget(p);
}

static void switched_from_smart(struct rq *rq, struct task_struct *p)
{
	struct smart_entity *sme = smart_se(p);

	/* Its time since the last tick was SMART's. */
	if (task_current(rq, p))
		update_rt_rq_load_avg(rq_clock_pelt(rq), rq, 1);

	/* A task asleep on the queue leaves it with the class. */
	if (sme->queue)
		smart_leave(sme->queue, sme);
	smart_wait_end(rq, p);
	/*
	 * Still of a SMART policy: a priority-inheritance boost, which keeps
	 * the task's SMART state (switching_to_smart()).  Really leaving
	 * SMART ends a constraint.
	 */
	p->smart.pi_boosted = task_should_smart(p->policy);
	if (!p->smart.pi_boosted)
		smart_left(rq, p);
}

/**
 * sched_smart_setscheduler() - a task's policy changed
 * @rq:	its rq, locked, clock updated
 * @p:	the task, with its new policy; its class may be a PI boost's
 *
 * A task boosted out of SMART keeps its SMART state for the de-boost
 * (switched_from_smart()).  If it takes a policy SMART does not schedule
 * meanwhile, it has left for good, though no class change says so: its
 * constraint ends (no notification comes after it), and if it enters
 * again it does so as a new task (switching_to_smart()).
 */
void sched_smart_setscheduler(struct rq *rq, struct task_struct *p)
{
	if (p->smart.pi_boosted && !task_should_smart(p->policy)) {
		p->smart.pi_boosted = false;
		smart_left(rq, p);
	}
}

/* A waiting task whose class or priority changed may now outrank curr. */
static void switched_to_smart(struct rq *rq, struct task_struct *p)
{
	if (task_on_rq_queued(p) && !p->smart.parked && rq->donor != p)
		wakeup_preempt(rq, p, 0);
}

static void prio_changed_smart(struct rq *rq, struct task_struct *p, int oldprio)
{
	switched_to_smart(rq, p);
}

/*
 * nice(2) on a SMART task scales its share by the ratio of the weights of
 * the new and the old nice value: a task that entered with the share of
 * its nice value gets the share of the new one, and a share an
 * administrator lowered stays lowered (renice to the same or a higher
 * nice value never raises it; a lower nice value needs CAP_SYS_NICE or
 * RLIMIT_NICE, as for every policy).  The change takes effect as
 * smart_setattr()'s does, by eq. (7) (smart_set_params()).
 */
static void reweight_task_smart(struct rq *rq, struct task_struct *p,
				const struct load_weight *lw)
{
	struct smart_entity *sme = smart_se(p);
	struct smart_params sp = smart_params_now();
	unsigned long old = max(scale_load_down(p->se.load.weight), 1UL);
	u64 share;

	share = div64_ul((u64)sme->own_share * scale_load_down(lw->weight), old);
	p->se.load = *lw;
	if (sme->queue == smart_q(rq))
		update_curr_smart(rq);
	smart_set_params(sme, sme->prio,
			 clamp_t(u64, share, SMART_SHARE_MIN, SMART_SHARE_MAX),
			 rq_clock(rq), &sp);
}

#ifdef CONFIG_FAIR_GROUP_SCHED
/*
 * sched_move_task() took a queued task off its queue; one asleep on its
 * queue (sleep credit) leaves it too, uncounted from its old group.  It
 * joins its new group when it is next enqueued.
 */
static void task_change_group_smart(struct task_struct *p)
{
	struct smart_entity *sme = smart_se(p);
	struct rq *rq = task_rq(p);

	if (sme->queue) {
		update_curr_smart(rq);
		smart_leave(sme->queue, sme);
	}
	set_task_rq(p, task_cpu(p));
}
#endif

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
 * Two masks per root domain (struct smart_root) keep placement and
 * balancing from visiting every CPU: busy holds the CPUs with a runnable
 * SMART task, overload those where one waits that may run elsewhere
 * (->nr_movable, as rt.c's pushable tasks set its rto_mask), and
 * overload_count their number.  A CPU is in its root domain's masks only
 * between rq_online_smart() and rq_offline_smart(), which
 * rq_attach_root() calls around a move to another root domain.  A CPU
 * updates its bits only when its own state changes (under its rq lock,
 * smart_update_masks()); readers take them as hints and check the CPU
 * they chose.  With no waiting SMART task in the root domain the pull
 * path costs one atomic read.
 */
int smart_init_rootdomain(struct root_domain *rd)
{
	if (!zalloc_cpumask_var(&rd->smart.busy, GFP_KERNEL))
		return -ENOMEM;
	if (!zalloc_cpumask_var(&rd->smart.overload, GFP_KERNEL)) {
		free_cpumask_var(rd->smart.busy);
		return -ENOMEM;
	}
	atomic_set(&rd->smart.overload_count, 0);
	return 0;
}

void smart_free_rootdomain(struct root_domain *rd)
{
	free_cpumask_var(rd->smart.overload);
	free_cpumask_var(rd->smart.busy);
}

static void smart_update_masks(struct rq *rq)
{
	struct smart_root *sr = &rq->rd->smart;
	unsigned int nr = smart_q(rq)->nr_runnable;
	bool busy = nr && rq->smart.online;
	bool over = busy && nr >= 2 && rq->smart.nr_movable;

	if (busy != rq->smart.busy) {
		rq->smart.busy = busy;
		if (busy)
			cpumask_set_cpu(cpu_of(rq), sr->busy);
		else
			cpumask_clear_cpu(cpu_of(rq), sr->busy);
	}
	if (over != rq->smart.overloaded) {
		rq->smart.overloaded = over;
		if (over) {
			cpumask_set_cpu(cpu_of(rq), sr->overload);
			/* The bit before the count, as rt_set_overload(). */
			smp_wmb();
			atomic_inc(&sr->overload_count);
		} else {
			atomic_dec(&sr->overload_count);
			cpumask_clear_cpu(cpu_of(rq), sr->overload);
		}
	}
}

/*
 * The load a SMART task meets on @cpu: the tasks of SMART and of the
 * classes above it.  Fair tasks, which SMART runs before, count only
 * through the fair server: a DL entity, queued while they are and its
 * budget lasts (the CPU is then not in cpudl's free mask either).
 */
static unsigned int smart_load(int cpu)
{
	struct rq *rq = cpu_rq(cpu);

	return READ_ONCE(rq->smart.q.nr_runnable) +
	       READ_ONCE(rq->rt.rt_nr_running) +
	       READ_ONCE(rq->dl.dl_nr_running);
}

static inline bool smart_cpu_ok(struct task_struct *p, int cpu)
{
	return cpumask_test_cpu(cpu, p->cpus_ptr) && cpu_active(cpu);
}

/*
 * The first CPU of @span (NULL: any) that @p may run on and that runs no
 * SMART, RT or DL task, as @rd's masks say: the SMART busy mask, the CPUs
 * without RT tasks (cpupri's normal vector) and those without DL tasks
 * (cpudl's free mask), one walk of their words, so that CPUs running RT or
 * DL work, or not allowed, cost nothing however many there are.  The masks
 * are hints; the CPU found is checked (smart_load()).  -1 if none.
 */
static int smart_first_free(struct task_struct *p, struct root_domain *rd,
			    const struct cpumask *span)
{
	const unsigned long *allowed = cpumask_bits(p->cpus_ptr);
	const unsigned long *busy = cpumask_bits(rd->smart.busy);
	const unsigned long *no_rt =
		cpumask_bits(rd->cpupri.pri_to_cpu[CPUPRI_NORMAL].mask);
	const unsigned long *no_dl = cpumask_bits(rd->cpudl.free_cpus);
	const unsigned long *in = span ? cpumask_bits(span) : NULL;
	unsigned int w;

	for (w = 0; w < BITS_TO_LONGS(nr_cpu_ids); w++) {
		unsigned long m = allowed[w];

		/* Hints: each CPU writes its bits under its own rq lock. */
		m &= ~data_race(busy[w]) & data_race(no_rt[w]);
		/* The same for cpudl_set() and cpudl_clear(). */
		m &= data_race(no_dl[w]);

		if (in)
			m &= in[w];
		for (; m; m &= m - 1) {
			unsigned int cpu = w * BITS_PER_LONG + __ffs(m);

			if (cpu >= nr_cpu_ids)
				return -1;
			if (cpu_active(cpu) && !smart_load(cpu))
				return cpu;
		}
	}
	return -1;
}

/*
 * A CPU @p may run on with no SMART (or RT, DL) task, in the last-level
 * cache of @prev first.  Return -1 if there is none.
 */
static int smart_find_free(struct task_struct *p, int prev)
{
	struct sched_domain *sd;
	struct root_domain *rd;
	int cpu = -1;

	/* A root domain is freed after a grace period (free_rootdomain()). */
	rcu_read_lock();
	rd = READ_ONCE(cpu_rq(prev)->rd);
	sd = rcu_dereference(per_cpu(sd_llc, prev));
	if (sd)
		cpu = smart_first_free(p, rd, sched_domain_span(sd));
	if (cpu < 0)
		cpu = smart_first_free(p, rd, NULL);
	rcu_read_unlock();
	return cpu;
}

/*
 * The active allowed CPU with the fewest runnable tasks, @best on a tie;
 * @best if there is none (it may be -1).
 */
static int smart_least_loaded(struct task_struct *p, int best)
{
	unsigned int best_nr = UINT_MAX;
	int cpu;

	if (best >= 0)
		best_nr = smart_load(best);
	for_each_cpu_and(cpu, p->cpus_ptr, cpu_active_mask) {
		unsigned int nr = smart_load(cpu);

		if (nr < best_nr) {
			best_nr = nr;
			best = cpu;
		}
	}
	return best;
}

/*
 * Place a waking or new task:
 *  1. its previous CPU if nothing of ours runs there (cache, and its
 *     sleep credit is there);
 *  2. else a CPU with nothing of ours, in the previous CPU's LLC first;
 *  3. else, at fork and exec, the least loaded allowed CPU (one walk of
 *     the CPUs per new program, as fair's fork balancing);
 *  4. else, at wake-up, the previous CPU, or the waker's if that has at
 *     least two tasks fewer (wake-affine).  Uneven busy CPUs are evened
 *     by the tick (smart_kick_balance()), not at every wake-up.
 */
static int select_task_rq_smart(struct task_struct *p, int prev_cpu, int wake_flags)
{
	int this_cpu = smp_processor_id(), cpu;
	bool prev_ok = smart_cpu_ok(p, prev_cpu);

	if (!(wake_flags & (WF_TTWU | WF_FORK | WF_EXEC)))
		return prev_cpu;
	if (prev_ok && !smart_load(prev_cpu))
		return prev_cpu;
	cpu = smart_find_free(p, prev_cpu);
	if (cpu >= 0)
		return cpu;
	/*
	 * No active CPU allowed (a task pinned to CPUs that went offline
	 * while it slept): @prev_cpu, and select_task_rq() falls back.
	 */
	if (!prev_ok || (wake_flags & (WF_FORK | WF_EXEC))) {
		cpu = smart_least_loaded(p, prev_ok ? prev_cpu : -1);
		return cpu >= 0 ? cpu : prev_cpu;
	}
	if (this_cpu != prev_cpu && smart_cpu_ok(p, this_cpu) &&
	    smart_load(this_cpu) + 2 <= smart_load(prev_cpu))
		return this_cpu;
	return prev_cpu;
}

/*
 * A task migrating at wake-up may still be asleep on its old CPU's queue
 * (sleep credit): take it off there, under that CPU's lock, keeping its
 * lag.  Queued migrations were already handled by dequeue_task_smart().
 */
static void migrate_task_rq_smart(struct task_struct *p, int new_cpu)
{
	struct smart_entity *sme = smart_se(p);
	struct rq *rq = task_rq(p);
	struct rq_flags rf;

	if (READ_ONCE(p->__state) != TASK_WAKING)
		return;

	rq_lock(rq, &rf);
	if (sme->queue) {
		update_rq_clock(rq);
		/*
		 * Its group may re-share the running task: charge that first
		 * (which may expire @sme's credit too).
		 */
		update_curr_smart(rq);
		if (sme->queue) {
			struct smart_params sp = smart_params_now();

			smart_expire_sleepers(sme->queue, rq_clock(rq), &sp);
		}
		if (sme->queue)
			smart_leave(sme->queue, sme);
	}
	rq_unlock(rq, &rf);
}

/*
 * Fairness across CPUs.  Each CPU's queue shares its CPU fairly, but a
 * task moves only when that evens the load (smart_imbalanced()): 3 equal
 * hogs on 2 CPUs would get 100, 50 and 50% of a CPU for ever.  So, as
 * fair's balancer moves a task back and forth between CPUs whose loads
 * differ by one, a CPU with one SMART task more than another hands that
 * one its waiting task if the task has had clearly less recent service
 * than the one running there: the tasks take turns on the less loaded
 * CPU, and over time each gets the same (weighted) part of the CPUs.
 * A waiting task of higher priority than the running one's always goes
 * (priorities are strict), one of lower priority never; a task with a
 * time constraint is not moved (its CPU is chosen for its deadlines), but
 * a waiting task may go to a CPU where one runs: a constraint must not
 * keep a hog alone on its CPU.
 *
 * "Clearly less": by more than 1/2^SMART_ROTATE_MARGIN of the running
 * task's, which must be at least 1/4 epoch, so that tasks do not move
 * back and forth on noise.  With 3 hogs on 2 CPUs each moves 3 to 5
 * times a second (2 to 3 under EEVDF) and gets 64 to 69% of a CPU over
 * 6 s.  Epochs of 134 ms and a margin of 1/4 let it drift to 58 to 73%
 * without -icount.
 */
#define SMART_ROTATE_MARGIN	3
#define SMART_ROTATE_MIN	(1ULL << (SMART_RECENT_SHIFT - 2))

/*
 * Does a waiting task of priority @wprio and recent service @waiting go
 * before a running one of @rprio and @running?
 */
static bool smart_rotates_past(s32 wprio, u64 waiting, s32 rprio, u64 running)
{
	if (wprio != rprio)
		return wprio > rprio;
	return running >= SMART_ROTATE_MIN &&
	       waiting < running - (running >> SMART_ROTATE_MARGIN);
}

/*
 * Should waiting @p replace running @curr on the CPU of @curr, one task
 * less loaded than @p's?  Both rqs locked.
 */
static bool smart_rotates(struct task_struct *p, struct task_struct *curr,
			  u64 now)
{
	const struct smart_entity *a = smart_se(p), *b = smart_se(curr);

	if (curr->sched_class != &smart_sched_class ||
	    b->state != SMART_SE_RUNNABLE || a->tc.deadline)
		return false;
	return smart_rotates_past(a->prio, smart_recent(p, now),
				  b->prio, smart_recent(curr, now));
}

/*
 * The running task's priority and recent service as its CPU published
 * them at its last tick, for other CPUs to look at without its lock
 * (smart_rotate_hint()).
 */
static void smart_publish_recent(struct rq *rq, struct task_struct *curr)
{
	u64 now = rq_clock(rq);

	WRITE_ONCE(rq->smart.run_prio, smart_se(curr)->prio);
	WRITE_ONCE(rq->smart.run_recent, smart_recent(curr, now));
	WRITE_ONCE(rq->smart.run_epoch, now >> SMART_RECENT_SHIFT);
}

/*
 * Would waiting @p (of @rq, as seen at @now) replace what runs on @cpu?
 * A hint without @cpu's lock: smart_rotate_from() checks under it.
 */
static bool smart_rotate_hint(struct rq *rq, struct task_struct *p, int cpu)
{
	struct rq *dst = cpu_rq(cpu);
	u64 now = rq_clock(rq);

	if (smart_se(p)->tc.deadline ||
	    READ_ONCE(dst->smart.q.nr_runnable) != smart_load(cpu))
		return false;
	return smart_rotates_past(smart_se(p)->prio, smart_recent(p, now),
				  READ_ONCE(dst->smart.run_prio),
				  smart_decay(READ_ONCE(dst->smart.run_recent),
					      READ_ONCE(dst->smart.run_epoch),
					      now));
}

static bool smart_can_pull(struct rq *src, struct task_struct *p, int cpu)
{
	return p->nr_cpus_allowed > 1 && !task_on_cpu(src, p) &&
	       !is_migration_disabled(p) &&
	       (cpu < 0 || (cpumask_test_cpu(cpu, p->cpus_ptr) &&
			    !smart_bw_task_throttled(p, cpu)));
}

/*
 * The most important waiting task of @src that may migrate, to @cpu if
 * @cpu >= 0, among the first SMART_WS_MAX: the walk holds the rq lock (two
 * for a pull), and thousands of tasks pinned to @src must not make it long.
 */
static struct task_struct *smart_pullable(struct rq *src, int cpu)
{
	unsigned int seen = 0;
	struct rb_node *n;

	for (n = rb_first_cached(&smart_q(src)->tree); n && seen < SMART_WS_MAX;
	     n = rb_next(n), seen++) {
		struct task_struct *p =
			smart_task_of(rb_entry(n, struct smart_entity, node));

		if (smart_can_pull(src, p, cpu))
			return p;
	}
	return NULL;
}

/* Move waiting @p from @src to @rq, both locked. */
static void smart_move(struct rq *src, struct task_struct *p, struct rq *rq)
{
	deactivate_task(src, p, 0);
	set_task_cpu(p, cpu_of(rq));
	activate_task(rq, p, 0);
	resched_curr(rq);
}

/*
 * Moving one task from a CPU with @src_nr waiting SMART tasks to one
 * running @dst_nr tasks evens the load: the difference is at least two.
 */
static inline bool smart_imbalanced(unsigned int src_nr, unsigned int dst_nr)
{
	return src_nr >= dst_nr + 2;
}

/* Overloaded CPUs a pull looks at: its cost must not grow with the CPUs. */
#define SMART_PULL_PROBES	4

/*
 * Pull the most important movable waiting task of @src to @rq if that
 * evens the load.  Return: true if one came.
 */
static bool smart_pull_from(struct rq *rq, struct rq *src)
{
	struct task_struct *p = NULL;

	double_lock_balance(rq, src);
	/* Recheck: both locks were free while we looked. */
	if (src->smart.nr_movable &&
	    smart_imbalanced(smart_q(src)->nr_runnable, smart_load(cpu_of(rq)))) {
		p = smart_pullable(src, cpu_of(rq));
		if (p)
			smart_move(src, p, rq);
	}
	double_unlock_balance(rq, src);
	return p;
}

/*
 * Take the waiting task of @src, one SMART task more loaded than @rq, if
 * it has had clearly less recent service than @prev, which runs here
 * (smart_rotates()), as of @now.  Called with @rq locked and unpinned.
 */
static void smart_rotate_from(struct rq *rq, struct rq *src,
			      struct task_struct *prev, u64 now)
{
	struct task_struct *p;

	double_lock_balance(rq, src);
	if (src->smart.nr_movable &&
	    smart_q(src)->nr_runnable == smart_load(cpu_of(rq)) + 1) {
		p = smart_pullable(src, cpu_of(rq));
		if (p && smart_rotates(p, prev, now)) {
			trace_smart_rotate(p, cpu_of(src), cpu_of(rq));
			smart_move(src, p, rq);
		}
	}
	double_unlock_balance(rq, src);
}

/*
 * Pull one task from an overloaded CPU if that evens the load: from
 * @first if it is a CPU (the one that kicked this one for a task that may
 * come here), else from the first of at most SMART_PULL_PROBES
 * overloaded CPUs, from this one on, that has at least two runnable
 * SMART tasks more than this one and a waiting task allowed here.  Called
 * with @rq locked and unpinned; may drop and retake the lock.
 * Return: true if a task came.
 */
static bool smart_pull(struct rq *rq, int first)
{
	struct smart_root *sr = &rq->rd->smart;
	int this_cpu = cpu_of(rq), cpu, probes = 0;

	/*
	 * The probes alone could miss it: overloaded CPUs whose tasks may
	 * not come here can come first, as many as there are probes.
	 */
	if (first >= 0 && first != this_cpu &&
	    smart_imbalanced(READ_ONCE(cpu_rq(first)->smart.q.nr_runnable),
			     smart_load(this_cpu)) &&
	    smart_pull_from(rq, cpu_rq(first)))
		return true;
	if (!atomic_read(&sr->overload_count))
		return false;
	/* The count before the mask, as pull_rt_task(). */
	smp_rmb();
	for_each_cpu_wrap(cpu, sr->overload, this_cpu + 1) {
		struct rq *src = cpu_rq(cpu);

		if (cpu == this_cpu)
			continue;
		if (smart_imbalanced(READ_ONCE(src->smart.q.nr_runnable),
				     smart_load(this_cpu)) &&
		    smart_pull_from(rq, src))
			return true;
		if (++probes >= SMART_PULL_PROBES)
			break;
	}
	return false;
}

/*
 * Before a pick: a CPU about to idle, or one another CPU kicked, pulls.
 * Busy CPUs that nobody kicked skip it.
 */
static int balance_smart(struct rq *rq, struct task_struct *prev,
			 struct rq_flags *rf)
{
	bool kicked = READ_ONCE(rq->smart.kicked);

	/* Cleared whatever comes: it makes an idle CPU pick (smart_kicked()). */
	if (kicked)
		WRITE_ONCE(rq->smart.kicked, false);
	if ((kicked || !smart_load(cpu_of(rq))) && cpu_active(cpu_of(rq))) {
		int src = kicked ? READ_ONCE(rq->smart.kick_src) : -1;
		bool rotate = kicked && READ_ONCE(rq->smart.kick_rotate);
		/* Now: a double_lock_balance() clears the clock's update. */
		u64 now = rq_clock(rq);

		rq_unpin_lock(rq, rf);
		if (!smart_pull(rq, src) && rotate && src >= 0 &&
		    src != cpu_of(rq))
			smart_rotate_from(rq, cpu_rq(src), prev, now);
		rq_repin_lock(rq, rf);
	}
	return sched_stop_runnable(rq) || sched_dl_runnable(rq) ||
	       sched_rt_runnable(rq) || smart_q(rq)->nr_runnable;
}

/*
 * A kick is an IPI on one csd per target CPU, which may be queued only
 * once at a time: several CPUs (ticks, wake-ups) may kick the same one,
 * so a pending bit lets the first through and the others find the kick
 * already on its way, as kick_ilb() does.  The handler clears the bit
 * when it runs; the csd is unlocked by then.
 */
static DEFINE_PER_CPU(atomic_t, smart_kick_pending);

static void smart_kick_fn(void *info)
{
	atomic_set(this_cpu_ptr(&smart_kick_pending), 0);
	/*
	 * On the kicked CPU itself: schedule, and balance_smart() pulls.  An
	 * idle CPU picks although nothing is queued here (smart_kicked()).
	 */
	WRITE_ONCE(this_rq()->smart.kicked, true);
	set_tsk_need_resched(current);
	set_preempt_need_resched();
}

static DEFINE_PER_CPU(call_single_data_t, smart_kick_csd) =
	CSD_INIT(smart_kick_fn, NULL);

static void smart_kick(int cpu, int src, bool rotate)
{
	atomic_t *pending = per_cpu_ptr(&smart_kick_pending, cpu);

	/* Before the IPI (atomic_xchg() orders it); a later kicker's wins. */
	WRITE_ONCE(cpu_rq(cpu)->smart.kick_src, src);
	WRITE_ONCE(cpu_rq(cpu)->smart.kick_rotate, rotate);
	if (atomic_xchg(pending, 1))
		return;
	if (smp_call_function_single_async(cpu, per_cpu_ptr(&smart_kick_csd, cpu)))
		atomic_set(pending, 0);		/* went offline */
}

/*
 * @rq has tasks waiting: kick a CPU that may run the most important
 * movable one and has no SMART task, so that it pulls.  At the tick
 * (@tick), if there is none, compare with the next CPU in turn (one CPU
 * per tick, whatever their number) and kick it if it has at least two
 * tasks fewer: uneven busy CPUs are evened within nr_cpus ticks; or one
 * task fewer, to take the waiting task in turn (smart_rotate_hint()).
 * Called with @rq locked; takes no other rq lock.
 */
static void smart_kick_balance(struct rq *rq, bool tick)
{
	unsigned int nr = smart_q(rq)->nr_runnable, load;
	struct task_struct *p;
	int cpu;

	if (nr < 2 || !rq->smart.nr_movable)
		return;
	p = smart_pullable(rq, -1);
	if (!p)
		return;
	cpu = smart_find_free(p, cpu_of(rq));
	if (cpu >= 0 && cpu != cpu_of(rq)) {
		smart_kick(cpu, cpu_of(rq), false);
		return;
	}
	if (!tick)
		return;
	cpu = cpumask_next(rq->smart.probe, p->cpus_ptr);
	if (cpu >= nr_cpu_ids)
		cpu = cpumask_first(p->cpus_ptr);
	rq->smart.probe = cpu;
	if (cpu == cpu_of(rq) || !cpu_active(cpu))
		return;
	load = smart_load(cpu);
	if (smart_imbalanced(nr, load))
		smart_kick(cpu, cpu_of(rq), false);
	else if (nr == load + 1 && smart_rotate_hint(rq, p, cpu))
		smart_kick(cpu, cpu_of(rq), true);
}

static void task_woken_smart(struct rq *rq, struct task_struct *p)
{
	smart_kick_balance(rq, false);
}

static void rq_online_smart(struct rq *rq)
{
	rq->smart.online = true;
	smart_update_masks(rq);
}

/*
 * @rq leaves its root domain: the CPU goes offline (it is no longer
 * active), or the root domains are rebuilt (a cpuset change, another
 * CPU's hotplug), when an active CPU goes offline and online again at
 * once.  Only a CPU going away sends its sleepers off with their lag.
 */
static void rq_offline_smart(struct rq *rq)
{
	struct smart_entity *sme, *tmp;

	rq->smart.online = false;
	smart_update_masks(rq);
	if (cpu_active(cpu_of(rq)))
		return;
	/* Their groups' sums change the running task's share: charge it. */
	update_rq_clock(rq);
	update_curr_smart(rq);
	list_for_each_entry_safe(sme, tmp, &smart_q(rq)->sleepers, sleep_node)
		smart_leave(smart_q(rq), sme);
	smart_bw_offline(rq);
}

#endif /* CONFIG_SMP */

void init_smart_rq(struct rq *rq)
{
	smart_queue_init(&rq->smart.q);
	INIT_LIST_HEAD(&rq->smart.waiters);
	INIT_LIST_HEAD(&rq->smart.parked);
	rq->smart.kick_src = -1;
	hrtimer_init(&rq->smart.timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_HARD);
	rq->smart.timer.function = smart_timer_fn;
#ifdef CONFIG_SMP
	INIT_CSD(&rq->smart.timer_csd, smart_timer_remote, rq);
#endif
}

/*
 * What the forking task has received beyond its proportional share, in
 * ns of CPU (0 if it is behind or not on a SMART queue).  Eq. (3) places
 * a new task at V_P; a parent that is ahead of V_P would have that debt
 * forgiven with every child it forks, and a chain of short-lived children
 * (each forks the next and exits) would take more than one share.  So a
 * child starts at least as late in virtual time as its parent: it
 * inherits the parent's debt, never its credit (a departure from eq. (3),
 * as CFS placed a child at its parent's vruntime).  It inherits at most
 * smart_debt_kept_ns() of it: beyond that, a task that wakes from a short
 * sleep pays its debt back out of V_P (smart_repay()), and a whole debt
 * copied into each child was paid back by every child at every wake-up.
 * A shell 126 ms ahead of V_P (it sleeps with the credit while it waits,
 * so it keeps its debt) made each wake-up of the 160 children of a
 * hackbench it started a repayment, which moves a task ahead as the sleep
 * credit does: twice the switches.
 */
static u64 smart_fork_debt(struct task_struct *p)
{
	struct smart_params params = smart_params_now();
	struct task_struct *parent = current;
	struct rq_flags rf;
	struct rq *rq;
	s64 lag = 0;

	if (!(p->flags & PF_KTHREAD) && parent->sched_class == &smart_sched_class) {
		rq = smart_lock_charged(parent, &rf);
		if (parent->smart.ent.queue)
			lag = smart_lag_ns(&parent->smart.ent);
		task_rq_unlock(rq, parent, &rf);
	}
	if (lag >= 0)
		return 0;
	return min_t(u64, -lag, smart_debt_kept_ns(&params));
}

/**
 * sched_smart_fork() - set up the SMART state of a new task
 * @p: the child, a copy of its parent
 *
 * The child keeps its parent's priority, share and signal unless the
 * parent asked for a reset on fork (SMART_FLAG_RESET_ON_FORK, or
 * sched_setattr()'s SCHED_FLAG_RESET_ON_FORK, still set here: sched_fork()
 * calls this before it acts on that flag); it joins a queue at the queue
 * virtual time when it is first enqueued (eq. (3)).
 */
void sched_smart_fork(struct task_struct *p)
{
	struct sched_smart_entity *sse = &p->smart;
	s32 prio = sse->ent.prio;
	u32 share = sse->ent.own_share;
	u64 debt = smart_fork_debt(p);
	bool kthread_prio = sched_smart_all && (p->flags & PF_KTHREAD);

	/*
	 * Like the kernel's reset of a negative nice only, a reset lowers
	 * what is above the defaults and never raises a lowered task.
	 */
	if ((sse->flags & SMART_FLAG_RESET_ON_FORK) || p->sched_reset_on_fork) {
		prio = min(prio, SMART_PRIO_DEFAULT);
		share = min(share, SMART_SHARE_DEFAULT);
		sse->flags = 0;
		sse->notify_signal = 0;
	}
	/*
	 * With sched_smart=all kernel threads are SMART too, at the default
	 * priority with the share of their nice value: what one does for a
	 * user counts as one more task of that share, not as a priority above
	 * every user (SMART_KTHREAD_STARVE_NS keeps them from starving behind
	 * raised tasks).  A user-mode helper forked by a kernel thread
	 * (modprobe, a core-dump pipe) starts from the same defaults, without
	 * the flags and signal of its parent.
	 */
	if (kthread_prio ||
	    (!(p->flags & PF_KTHREAD) && (current->flags & PF_KTHREAD))) {
		prio = SMART_PRIO_DEFAULT;
		share = smart_share_of_weight(p->se.load.weight);
		sse->flags = 0;
		sse->notify_signal = 0;
	}
	if (!share)
		share = SMART_SHARE_DEFAULT;
	smart_entity_init(&sse->ent, prio, share);
	sse->ent.kthread_prio = kthread_prio;
	if (debt && prio == current->smart.ent.prio)
		sse->ent.delta = smart_scale(debt, sse->ent.inv_share);
	INIT_LIST_HEAD(&sse->wait_node);
	sse->wait_start = 0;
	sse->movable = false;
	sse->kthread_waiting = false;
	sse->woke_at = 0;
	sse->woke_age = 0;
	sse->blocked_at = 0;
	sse->slept = 0;
	sse->woke_exec = 0;
	sse->constraints_met = 0;
	sse->constraints_missed = 0;
	sse->notifications = 0;
	/*
	 * recent and recent_epoch stay the parent's: a child that started
	 * as the least served task would never be rotated off its CPU, and a
	 * task forking itself anew would keep a CPU to itself.
	 */
	/* Time constraints are per thread: none is inherited. */
	smart_tc_fork(p);
	sse->pi_boosted = false;
}

/**
 * sched_smart_can_stop_tick() - may a nohz_full CPU stop its tick?
 * @rq: the CPU's rq, locked
 *
 * The decision timer ends quanta, but the tick also charges the running
 * task and evens the load between CPUs: it keeps running while SMART
 * tasks compete for the CPU.
 *
 * Return: true if at most one SMART task is runnable on @rq.
 */
bool sched_smart_can_stop_tick(struct rq *rq)
{
	if (smart_q(rq)->nr_runnable > 1)
		return false;
	/* Its cpu.max quota is charged at the tick (bandwidth.c). */
	return rq->curr->sched_class != &smart_sched_class ||
	       !smart_bw_constrained(rq->curr);
}

#ifdef CONFIG_SCHED_CORE
/* Core scheduling must not pick a parked task from its tree. */
static int task_is_throttled_smart(struct task_struct *p, int cpu)
{
	return p->smart.parked || smart_bw_task_throttled(p, cpu);
}

/**
 * smart_prio_less() - order two SMART tasks for core scheduling
 * @a:	a task
 * @b:	a task, maybe on a sibling CPU's queue
 *
 * The value tuple (§3.1) across queues: the SMART priority first, then a
 * time constraint whose estimate is not used up, then the BVFT relative
 * to the virtual time of the task's own queue (virtual times of two CPUs
 * are unrelated, as fair's vruntimes are, which cfs_prio_less() meets
 * the same way).
 *
 * Return: true if @a should run after @b.
 */
bool smart_prio_less(const struct task_struct *a, const struct task_struct *b)
{
	const struct smart_entity *sa = &a->smart.ent, *sb = &b->smart.ent;
	s64 ra = 0, rb = 0;

	if (sa->prio != sb->prio)
		return sa->prio < sb->prio;
	if (smart_is_rt(sa) != smart_is_rt(sb))
		return smart_is_rt(sb);
	if (sa->queue)
		ra = sa->bvft - smart_level_of(sa->queue, sa)->vtime;
	if (sb->queue)
		rb = sb->bvft - smart_level_of(sb->queue, sb)->vtime;
	return ra > rb;
}
#endif

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
	.rq_online		= rq_online_smart,
	.rq_offline		= rq_offline_smart,
#endif

	.task_tick		= task_tick_smart,
	.task_dead		= task_dead_smart,

	.switching_to		= switching_to_smart,
	.switched_from		= switched_from_smart,
	.switched_to		= switched_to_smart,
	.reweight_task		= reweight_task_smart,
	.prio_changed		= prio_changed_smart,
#ifdef CONFIG_FAIR_GROUP_SCHED
	.task_change_group	= task_change_group_smart,
#endif

	.get_rr_interval	= get_rr_interval_smart,
	.update_curr		= update_curr_smart,
#ifdef CONFIG_SCHED_CORE
	.task_is_throttled	= task_is_throttled_smart,
#endif
};
