/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SCHED_SMART: what the rest of the scheduler sees of the SMART class.
 * Included from kernel/sched/sched.h; everything has a stub when
 * CONFIG_SCHED_SMART is off so that the hooks in kernel/sched/core.c and
 * kernel/sched/syscalls.c need no #ifdefs.
 */
#ifndef _KERNEL_SCHED_SMART_SMART_H
#define _KERNEL_SCHED_SMART_SMART_H

#include <linux/hrtimer.h>
#include <linux/jump_label.h>
#include <linux/smp.h>
#include <uapi/linux/sched.h>

struct rq;
struct task_struct;
struct task_group;
struct cfs_bandwidth;

#ifdef CONFIG_SCHED_SMART

#include "algo.h"

/**
 * struct smart_rq - per-CPU state of the SMART class
 * @q:		the algorithm's queues
 * @timer:	decision timer: fires at the running task's quantum end with
 *		resolution_ns granularity, independent of HZ
 * @timer_when: the expiry another CPU asked @timer for, 0 if none; it is
 *		started here by @timer_csd (smart_start_timer())
 * @timer_csd:	IPI that starts @timer on this CPU for another one
 * @kicked:	another CPU asked this one to pull (balance_smart())
 * @kick_src:	the CPU that asked last, where a task waits that may come
 *		here: the pull looks there first
 * @kick_rotate: it asked this one to take its waiting task in turn
 *		(smart_rotate_from()), not to even the load
 * @run_prio:	the priority of the task running here at the last tick
 * @run_recent:	its recent service, for other CPUs to compare with
 *		(smart_rotate_hint())
 * @run_epoch:	the epoch of @run_recent
 * @online:	between rq_online_smart() and rq_offline_smart()
 * @busy:	this CPU is in its root domain's smart_root::busy: it has
 *		runnable SMART tasks
 * @overloaded:	this CPU is in its root domain's smart_root::overload: a
 *		SMART task waits that may run on another CPU
 * @nr_movable:	waiting tasks that may run on another CPU
 * @probe:	the next CPU the tick compares its load with
 * @waiters:	runnable tasks that are not running, longest waiting first
 * @parked:	runnable tasks whose task group is out of its cpu.max quota
 *		here (bandwidth.c): on no queue, not in nr_running
 * @last_wake_preempt: rq_clock() of the last preemption by a woken
 *		conventional task of the running task's priority
 * @handoff_since: rq_clock() when a preemption of the running task was
 *		first put off because it had just woken a task, 0 if none
 *		since it was switched in
 * @nr_kthread_waiting: waiting kernel threads with sched_smart=all's
 *		standing (SMART_KTHREAD_STARVE_NS)
 * @last_rescue: when a starving task was last run out of value order
 * @last_kthread_rescue: when a waiting kernel thread was
 * @rescue_next: the task smart_next() picked out of value order
 * @rescue_kthread: @rescue_next is a kernel thread's rescue
 * @rescued:	the task running its rescue slice, if any
 * @last_told: rq_clock() when the task told it is late last ran its slice
 *		out of order (smart_told_now())
 * @told:	a task notified that it is late, to run one slice out of
 *		order so that it handles the signal (smart_tell_soon())
 * @scratch:	working space for predictions (smart_constraint_begin())
 */
struct smart_rq {
	struct smart_queue q;
	struct hrtimer timer;
#ifdef CONFIG_SMP
	ktime_t timer_when;
	call_single_data_t timer_csd;
#endif
	bool kicked;
	bool online;
	int kick_src;
	bool kick_rotate;
	s32 run_prio;
	u64 run_recent;
	u64 run_epoch;
	bool busy;
	bool overloaded;
	unsigned int nr_movable;
	int probe;
	struct list_head waiters;
	struct list_head parked;
	u64 last_wake_preempt;
	u64 handoff_since;
	unsigned int nr_kthread_waiting;
	u64 last_rescue;
	u64 last_kthread_rescue;
	u64 last_told;
	struct task_struct *rescue_next;
	bool rescue_kthread;
	struct task_struct *rescued;
	struct task_struct *told;
	struct smart_ws scratch;
};

#ifdef CONFIG_SMP
/**
 * struct smart_root - SMART's part of a root domain
 * @busy:		its CPUs with a runnable SMART task
 * @overload:		those where one waits that may run on another CPU
 * @overload_count:	how many CPUs are in @overload
 *
 * As rt.c keeps its rto_mask per root domain: a CPU's bits are in the
 * root domain it is attached to, between rq_online_smart() and
 * rq_offline_smart(), so that the CPUs of one cpuset partition neither
 * look at nor pull from another's, and no mask is shared by all CPUs.
 */
struct smart_root {
	cpumask_var_t busy;
	cpumask_var_t overload;
	atomic_t overload_count;
};

struct root_domain;
int smart_init_rootdomain(struct root_domain *rd);
void smart_free_rootdomain(struct root_domain *rd);
#endif

/*
 * Priorities are strict (paper §4.1), but a task that has waited this
 * long runs for one resolution_ns slice out of value order, at most once
 * per this period per CPU: a low-priority task preempted inside an RCU
 * read-side section or holding a lock must not stall the system.  That
 * is at most 0.1% of a CPU (1 ms per second) taken from the important
 * tasks; starving tasks take turns, longest waiting first.
 */
#define SMART_STARVE_NS		NSEC_PER_SEC

/*
 * With sched_smart=all kernel threads are SMART tasks of the default
 * priority with the share of their nice value, as fair gives them their
 * weight: a user's work that a kernel thread does for it (cryptd, a
 * softirq, a filesystem's workers) counts as one more task of that
 * share, never as a priority above every user.  Tasks an administrator
 * raised above the default would starve them, and RCU, writeback and
 * the workqueues with them: a kernel thread that has waited this long
 * runs one resolution_ns slice out of value order, at most once per this
 * period per CPU.  That is at most 5% of a CPU (1 ms in 20 ms), as RT
 * throttling leaves fair tasks 5% beside SCHED_FIFO.
 */
#define SMART_KTHREAD_STARVE_NS	(20 * NSEC_PER_MSEC)

/*
 * A waiting task told that its constraint cannot be met runs one
 * resolution_ns slice out of order, so that it hears it before its
 * deadline (smart_tell_soon()): at most one such slice per this many
 * resolution_ns per CPU, 10% of a CPU.
 */
#define SMART_TOLD_EVERY	10

extern bool sched_smart_all;
DECLARE_STATIC_KEY_FALSE(__sched_smart_active);
extern struct smart_params smart_params;
extern unsigned long smart_resolution_ns;
extern unsigned long smart_handoff_ns;

/**
 * task_should_smart() - does the SMART class schedule this policy?
 * @policy: SCHED_* policy
 *
 * SCHED_SMART always; SCHED_NORMAL, SCHED_BATCH and SCHED_IDLE too when
 * booted with sched_smart=all.
 *
 * Return: true if a task of @policy (not PI-boosted) belongs to SMART.
 */
static inline bool task_should_smart(int policy)
{
	if (policy == SCHED_SMART)
		return true;
	return sched_smart_all && (policy == SCHED_NORMAL ||
				   policy == SCHED_BATCH ||
				   policy == SCHED_IDLE);
}

/*
 * Has any task ever been in SMART?  Then kernel/sched/core.c keeps
 * SMART's balance in the pick path (see __pick_next_task()).  A static
 * key, enabled once by sched_smart_activate(), so that a kernel that
 * never runs a SMART task pays one patched-out branch.
 */
static __always_inline bool smart_active(void)
{
	return static_branch_unlikely(&__sched_smart_active);
}

void sched_smart_activate(void);

/*
 * Entering SCHED_SMART from a non-realtime policy needs CAP_SYS_NICE in
 * opt-in mode: the class sits above fair.
 */
static inline bool smart_setscheduler_needs_priv(struct task_struct *p,
						 int policy)
{
	return policy == SCHED_SMART && p->policy != SCHED_SMART &&
	       !sched_smart_all && !rt_policy(p->policy) &&
	       !dl_policy(p->policy);
}

/* A snapshot of the tunables, read once per event. */
static inline struct smart_params smart_params_now(void)
{
	return (struct smart_params){
		.quantum_ns	 = READ_ONCE(smart_params.quantum_ns),
		.bias_step_ns	 = READ_ONCE(smart_params.bias_step_ns),
		.bias_max_ns	 = READ_ONCE(smart_params.bias_max_ns),
		.sleep_credit_ns = READ_ONCE(smart_params.sleep_credit_ns),
		.long_sleep_ns	 = READ_ONCE(smart_params.long_sleep_ns),
	};
}

/* The share of a nice value: the load weight the fair class gives it. */
static inline u32 smart_share_of_weight(unsigned long weight)
{
	return clamp_t(unsigned long, scale_load_down(weight),
		       SMART_SHARE_MIN, SMART_SHARE_MAX);
}

void init_smart_rq(struct rq *rq);
void sched_smart_fork(struct task_struct *p);
void sched_smart_setscheduler(struct rq *rq, struct task_struct *p);

static inline struct task_struct *smart_task_of(struct smart_entity *sme)
{
	return container_of(sme, struct task_struct, smart.ent);
}

struct rq_flags;
struct rq *smart_lock_charged(struct task_struct *p, struct rq_flags *rf);

struct seq_file;
#ifdef CONFIG_SCHED_DEBUG
void smart_proc_show_task(struct task_struct *p, struct seq_file *m);
#else
static inline void smart_proc_show_task(struct task_struct *p,
					struct seq_file *m) { }
#endif

bool sched_smart_can_stop_tick(struct rq *rq);

#ifdef CONFIG_SCHED_CORE
bool smart_prio_less(const struct task_struct *a, const struct task_struct *b);
#endif

/* The cpu controller (cgroup.c): a task group's SMART nodes. */
#ifdef CONFIG_FAIR_GROUP_SCHED
bool smart_alloc_group(struct task_group *tg, struct task_group *parent);
void smart_free_group(struct task_group *tg);
void smart_group_set_shares(struct rq *rq, struct task_group *tg);
struct smart_group *smart_task_group(struct task_struct *p, int cpu);
void smart_tick_groups(struct rq *rq, struct task_struct *p);
#else
static inline bool smart_alloc_group(struct task_group *tg,
				     struct task_group *parent)
{
	return true;
}

static inline void smart_free_group(struct task_group *tg) { }
static inline struct smart_group *smart_task_group(struct task_struct *p,
						   int cpu)
{
	return NULL;
}

static inline void smart_tick_groups(struct rq *rq, struct task_struct *p) { }
#endif

/* cpu.max for SMART tasks (bandwidth.c). */
#ifdef CONFIG_CFS_BANDWIDTH
/* Set once a group first has a limit: until then a charge costs a nop. */
DECLARE_STATIC_KEY_FALSE(smart_bw_used);
bool __smart_bw_charge(struct rq *rq, struct task_struct *p, u64 delta);
bool __smart_bw_parks(struct rq *rq, struct task_struct *p);

static inline bool smart_bw_charge(struct rq *rq, struct task_struct *p,
				   u64 delta)
{
	return static_branch_unlikely(&smart_bw_used) &&
	       __smart_bw_charge(rq, p, delta);
}

static inline bool smart_bw_parks(struct rq *rq, struct task_struct *p)
{
	return static_branch_unlikely(&smart_bw_used) &&
	       __smart_bw_parks(rq, p);
}

bool smart_bw_task_throttled(struct task_struct *p, int cpu);
bool smart_bw_constrained(struct task_struct *p);
bool smart_bw_throttled(struct cfs_bandwidth *b);
bool smart_bw_distribute(struct cfs_bandwidth *b);
void smart_bw_set(struct task_group *tg);
void smart_bw_offline(struct rq *rq);
#else
static inline bool smart_bw_charge(struct rq *rq, struct task_struct *p,
				   u64 delta)
{
	return false;
}

static inline bool smart_bw_parks(struct rq *rq, struct task_struct *p)
{
	return false;
}

static inline bool smart_bw_task_throttled(struct task_struct *p, int cpu)
{
	return false;
}

static inline bool smart_bw_constrained(struct task_struct *p)
{
	return false;
}

static inline void smart_bw_offline(struct rq *rq) { }
#endif
void smart_unpark_ready(struct rq *rq);

/*
 * sched_smart_entity::tc_flags of an implicit constraint, one the kernel
 * inferred (infer.c) for a task that makes none of its own, and of one
 * whose task has gone to sleep under it (its job is done).
 */
#define SMART_TC_IMPLICIT	0x80000000U
#define SMART_TC_DONE		0x40000000U

extern int smart_infer_on;

/* Time constraints (constraint.c), called with the task's rq locked. */
u64 smart_tc_finish(struct rq *rq, struct task_struct *p, u64 now,
		    enum smart_tc_end_reason why);
void smart_infer_wake_task(struct rq *rq, struct task_struct *p);
void smart_infer_forget(struct task_struct *p);
void smart_infer_sleep_task(struct task_struct *p);
void smart_infer_tick(struct rq *rq, struct task_struct *p);
void smart_tc_install(struct rq *rq, struct task_struct *p,
		      const struct smart_constraint *c, const struct smart_tc *tc);
void smart_tc_watch(struct task_struct *p);
void smart_tc_disarm(struct task_struct *p);
bool smart_notify(struct task_struct *p, int code);
void smart_notify_deliver(void);
void smart_tc_fork(struct task_struct *p);

/* class.c: something changed on @rq's queue; @rq locked. */
void smart_preempt_check(struct rq *rq);
void smart_preempt_check_told(struct rq *rq);
void smart_tell_soon(struct rq *rq, struct task_struct *p);

/*
 * The CPU time @p ran under its active constraint: how far its own clock
 * (CLOCK_THREAD_CPUTIME_ID, as charged so far) moved since the constraint
 * began.  It counts what charging SMART's deltas alone would miss: the
 * time from a dequeue to the switch, when the task is no longer runnable,
 * and a priority-inheritance boost in another class.
 */
static inline u64 smart_tc_runtime(const struct task_struct *p)
{
	return p->se.sum_exec_runtime - p->smart.tc_runtime;
}

/* Bring @p's constraint budget up to its clock; @p's rq is locked. */
static inline void smart_tc_sync(struct task_struct *p)
{
	struct smart_tc *tc = &p->smart.ent.tc;

	if (tc->deadline)
		smart_tc_set_used(&p->smart.ent, smart_tc_runtime(p));
}

#else /* !CONFIG_SCHED_SMART */

struct smart_rq { };

static inline bool task_should_smart(int policy) { return false; }
static inline bool smart_active(void) { return false; }
static inline void sched_smart_activate(void) { }
static inline bool smart_setscheduler_needs_priv(struct task_struct *p,
						 int policy)
{
	return false;
}

static inline void init_smart_rq(struct rq *rq) { }
struct root_domain;
static inline int smart_init_rootdomain(struct root_domain *rd) { return 0; }
static inline void smart_free_rootdomain(struct root_domain *rd) { }
static inline bool smart_alloc_group(struct task_group *tg,
				     struct task_group *parent)
{
	return true;
}

static inline void smart_free_group(struct task_group *tg) { }
static inline void smart_group_set_shares(struct rq *rq,
					  struct task_group *tg) { }
static inline bool smart_bw_throttled(struct cfs_bandwidth *b)
{
	return false;
}

static inline bool smart_bw_distribute(struct cfs_bandwidth *b)
{
	return false;
}

static inline void smart_bw_set(struct task_group *tg) { }
static inline void sched_smart_fork(struct task_struct *p) { }
static inline void sched_smart_setscheduler(struct rq *rq,
					    struct task_struct *p) { }
static inline bool sched_smart_can_stop_tick(struct rq *rq) { return true; }
struct seq_file;
static inline void smart_proc_show_task(struct task_struct *p,
					struct seq_file *m) { }

#endif /* CONFIG_SCHED_SMART */

#endif /* _KERNEL_SCHED_SMART_SMART_H */
