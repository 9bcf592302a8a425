/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-task state of the SMART scheduling class (SCHED_SMART), embedded in
 * task_struct.  The algorithm that moves it lives in kernel/sched/smart/.
 */
#ifndef _LINUX_SCHED_SMART_H
#define _LINUX_SCHED_SMART_H

#include <linux/types.h>
#include <linux/hrtimer_types.h>
#include <linux/llist.h>
#include <linux/rbtree_types.h>

struct smart_queue;
struct smart_group;

enum smart_se_state {
	SMART_SE_OFF,		/* on no queue; @delta holds its lag */
	SMART_SE_RUNNABLE,	/* on a queue and in its value-tuple tree */
	SMART_SE_SLEEPING,	/* asleep, still on a queue (sleep credit) */
};

/* Which step of the paper's decision (§3.2) picked a task. */
enum smart_pick_reason {
	SMART_PICK_CONVENTIONAL,	/* step 1: the most important is conventional */
	SMART_PICK_SCHEDULE,		/* step 3: earliest deadline of the working schedule */
	SMART_PICK_FALLBACK,		/* step 4: none feasible, the most important one */
	SMART_PICK_RESCUE,		/* a starving task's slice, out of value order */
};

/* Why a time constraint ended. */
enum smart_tc_end_reason {
	SMART_TC_END,		/* smart_constraint_end() */
	SMART_TC_REPLACED,	/* a new smart_constraint_begin() */
	SMART_TC_EXPIRED,	/* its deadline passed while active */
	SMART_TC_EXIT,		/* the thread exited */
	SMART_TC_LEFT,		/* the thread left SCHED_SMART */
	SMART_TC_EXEC,		/* the thread exec'd another program */
};

/* How an entity joins a queue. */
enum smart_join {
	SMART_JOIN_NEW,		/* eq. (3): at the queue virtual time */
	SMART_JOIN_WAKE,	/* eq. (7): restore delta, new quantum, no bias */
	SMART_JOIN_MOVE,	/* restore delta, keep quantum progress and bias */
};

/**
 * struct smart_tc - a time constraint (paper §2, §3.4)
 * @deadline:	D, absolute time (ns); 0 when there is no constraint
 * @estimate:	Q, CPU time needed before @deadline (ns)
 * @used:	E, CPU time used since the constraint began (ns)
 * @load:	F = estimate / period of a periodic activity, in units of
 *		2^-SMART_LOAD_SHIFT of a CPU; 0 if aperiodic
 * @period:	the period of a periodic activity (ns); 0 if aperiodic
 */
struct smart_tc {
	u64 deadline;
	u64 estimate;
	u64 used;
	u64 load;
	u64 period;
};

/**
 * struct smart_future - the next request of a periodic task between two
 *			 of its constraints
 * @node:	in smart_queue::future, a tree by deadline, while @tc is set
 *		and the entity is on a queue; RB_EMPTY_NODE() otherwise
 * @tc:		its next constraint as the last one predicts it: released at
 *		the last deadline, due one period later, with the same
 *		estimate and load; @tc.deadline is 0 when there is none.  By
 *		that deadline a periodic task has begun it; one that has not
 *		is no longer counted.
 */
struct smart_future {
	struct rb_node node;
	struct smart_tc tc;
};

/**
 * struct smart_infer - the rhythm the scheduler observes in a task that
 *			makes no SMART call (kernel/sched/smart/infer.c)
 * @release:	when its current period began (ns), 0 before its first
 *		wake-up
 * @runtime:	its CPU time then (ns)
 * @period:	T, the smoothed time between releases (ns), 0 while unknown
 * @jitter:	mean deviation of the releases from @period (ns)
 * @demand:	the smoothed CPU time it uses per period (ns)
 * @demand_dev:	mean deviation of that (ns)
 * @hits:	credit of releases that came in rhythm
 * @misses:	wake-ups in a row that did not
 * @shortest:	the shortest interval among those @misses
 */
struct smart_infer {
	u64 release;
	u64 runtime;
	u64 period;
	u64 jitter;
	u64 demand;
	u64 demand_dev;
	u32 hits;
	u32 misses;
	u64 shortest;
};

/**
 * struct smart_entity - the per-task state of the algorithm
 * @node:		in smart_queue::tree while runnable
 * @sleep_node:		in smart_queue::sleepers while sleeping on the queue
 * @queue:		queue the entity is on, NULL when SMART_SE_OFF
 * @bvft:		biased virtual finishing time beta (virtual ns)
 * @bfrac:		fraction of a virtual ns of @bvft, in units of
 *			2^-SMART_INV_SHIFT (see smart_vadd())
 * @quantum:		Q, the quantum (ns) @bvft was computed for
 * @exec:		E, execution (ns) received toward @quantum
 * @bias:		B, accumulated bias (ns)
 * @delta:		eq. (5): v - V recorded when the entity left a queue
 * @sleep_expire:	time (ns) a sleeping entity leaves its queue
 * @left_q:		the queue it left asleep without credit
 *			(smart_sleep_no_credit()), NULL otherwise; only
 *			compared, never followed
 * @left_vtime:		V_P of its level on @left_q then
 * @inv_share:		SMART_INV_NUM / @share
 * @share:		S, what the entity gets on its queue: @own_share in the
 *			root group, its part of its group's share otherwise
 *			(smart_group_enter())
 * @own_share:		the share it was given (smart_setattr(), nice)
 * @prio:		P, SMART_PRIO_MIN..SMART_PRIO_MAX
 * @state:		enum smart_se_state
 * @kthread_prio:	a kernel thread with the standing sched_smart=all
 *			gives them (the default priority, the share of its
 *			nice value) rather than one anyone chose: it is
 *			rescued after SMART_KTHREAD_STARVE_NS of waiting, and
 *			a prediction counts a quantum of it, not the whole
 *			CPU (smart_tc_available())
 * @tc:			its time constraint, if any
 * @future:		between two periodic constraints, the next one as predicted
 * @group:		its task group on the CPU of its queue, NULL for the
 *			root group; set by the owner before smart_join()
 * @share_gen:		smart_queue::share_gen when @share was computed
 */
struct smart_entity {
	struct rb_node node;
	struct list_head sleep_node;
	struct smart_queue *queue;
	u64 bvft;
	u64 bfrac;
	u64 quantum;
	u64 exec;
	u64 bias;
	s64 delta;
	u64 sleep_expire;
	struct smart_queue *left_q;
	u64 left_vtime;
	u64 inv_share;
	u32 share;
	u32 own_share;
	s32 prio;
	unsigned int state;
	bool kthread_prio;
	struct smart_tc tc;
	struct smart_future future;
	struct smart_group *group;
	u64 share_gen;
};

/**
 * struct sched_smart_entity - a task's SMART scheduling state
 * @ent:		the algorithm's entity (value tuple, BVFT, lag)
 * @wait_node:		in smart_rq::waiters while runnable and not running
 * @wait_start:		when it last started waiting (rq clock, ns)
 * @movable:		counted in its rq's smart.nr_movable: waiting, and
 *			allowed on another CPU
 * @parked:		runnable, but its task group is out of its cpu.max
 *			quota on this CPU: off the queue, @wait_node on its
 *			rq's smart.parked list (kernel/sched/smart/bandwidth.c)
 * @woke_at:		local_clock() when it last woke another task itself
 *			(smart_note_waker()), not counting the time it was
 *			preempted since; written by the task, and while it
 *			is switched in
 * @woke_age:		1 + the age of @woke_at when it was preempted within
 *			handoff_ns of the wake-up, else 0
 * @blocked_at:		rq clock when it last blocked, 0 before
 * @slept:		how long its last sleep lasted (ns), 0 before the
 *			first
 * @woke_exec:		se.sum_exec_runtime when it last woke (or entered
 *			SMART): it keeps its sleep credit when it blocks
 *			again if @slept and the CPU time since add up to
 *			long_sleep_ns or more (smart_earns_credit())
 * @kthread_waiting:	counted in its rq's smart.nr_kthread_waiting:
 *			waiting, and a kernel thread with the standing
 *			sched_smart=all gives it (smart_entity::kthread_prio)
 * @notify_signal:	signal for notifications, 0 means SIGXCPU
 * @flags:		SMART_FLAG_* from the uapi
 * @constraints_met:	time constraints that ended on time
 * @constraints_missed:	time constraints that ended late or expired
 * @notifications:	notifications sent to the task
 * @tc_timer:		fires at the constraint's latest start time (to
 *			notify) and at its deadline (to expire it)
 * @tc_timer_ref:	@tc_timer holds a reference on the task
 * @tc_flags:		SMART_CONSTRAINT_* of the active constraint, or
 *			SMART_TC_IMPLICIT and SMART_TC_DONE for one inferred
 * @tc_notified:	the active constraint was notified (once only)
 * @tc_compat:		the active constraint was begun by a 32-bit (compat)
 *			system call
 * @tc_cookie:		cookie of the active constraint
 * @tc_runtime:		the task's CPU time (se.sum_exec_runtime) when the
 *			active constraint began
 * @notify_node:	on a CPU's list of notifications to deliver
 * @notify_code:	si_code of the pending notification, 0 if none
 * @notify_queued:	@notify_node is on a list
 * @notify_cookie:	si_value of the pending notification
 * @notify_runtime:	the task's CPU time when it was last notified
 * @notify_work:	sends the pending notification from the task itself
 * @notify_work_queued:	@notify_work is queued to the task
 * @notify_compat:	the pending notification goes to a 32-bit caller:
 *			the cookie travels in si_int
 * @pi_boosted:		out of the class for a priority-inheritance boost,
 *			its SMART state kept for the de-boost
 * @infer:		its rhythm as observed (kernel/sched/smart/infer.c)
 * @infer_shown:	the period last reported by the smart_infer
 *			tracepoint, 0 while it is not taken as periodic
 * @infer_shown_demand: the demand it reported with it
 * @infer_met:		implicit constraints it finished in time
 * @infer_missed:	implicit constraints still running at their deadline
 * @tc_explicit:	it began a time constraint of its own since its last
 *			exec: no more are inferred for it
 * @recent:		its recent service: the virtual time it ran, halved
 *			at every epoch of 2^SMART_RECENT_SHIFT ns (class.c)
 * @recent_epoch:	the epoch @recent was last brought to
 *
 * The tc_*, notify_* and pi_boosted fields are protected by the task's
 * rq lock.
 */
struct sched_smart_entity {
	struct smart_entity ent;
	struct list_head wait_node;
	u64 wait_start;
	bool movable;
	bool parked;
	u64 woke_at;
	u64 woke_age;
	u64 blocked_at;
	u64 slept;
	u64 woke_exec;
	bool kthread_waiting;
	s32 notify_signal;
	u32 flags;
	u64 constraints_met;
	u64 constraints_missed;
	u64 notifications;
	struct hrtimer tc_timer;
	bool tc_timer_ref;
	bool tc_notified;
	bool tc_compat;
	u32 tc_flags;
	u64 tc_cookie;
	u64 tc_runtime;
	struct llist_node notify_node;
	int notify_code;
	bool notify_queued;
	bool notify_work_queued;
	bool notify_compat;
	bool pi_boosted;
	u64 notify_cookie;
	u64 notify_runtime;
	struct callback_head notify_work;
	struct smart_infer infer;
	u64 infer_shown;
	u64 infer_shown_demand;
	u64 infer_met;
	u64 infer_missed;
	bool tc_explicit;
	u64 recent;
	u64 recent_epoch;
};

#ifdef CONFIG_SCHED_SMART
void sched_smart_exec(bool secureexec);
#else
static inline void sched_smart_exec(bool secureexec) { }
#endif

#endif /* _LINUX_SCHED_SMART_H */
