// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART time constraints: the life of a constraint from begin to
 * end, and the notifications it can send (paper §2, §3.2 step 4).
 *
 *   smart_tc_install()    begin: the budget starts from the task's CPU
 *                         clock, the deadline timer is armed
 *   smart_tc_watch()      the task stops running: the timer moves to its
 *                         latest start time, to notify
 *   smart_tc_timer_fn()   latest start time passed (notify), or the
 *                         deadline (expire)
 *   smart_tc_finish()     end, replace, expiry, exit, leaving the class
 *                         or exec: counted met or missed, the task is
 *                         conventional again
 *   smart_notify()        decided under the rq lock, signalled from an
 *                         irq_work once it is dropped, or by the begin
 *                         that decided it (smart_notify_deliver())
 *
 * The algorithm's side (the real-time BVFT, the working schedule, the
 * prediction) is in algo.c; the decisions that use it are in class.c.
 *
 * See Documentation/scheduler/sched-smart.rst, sections 2.6 and 2.9.
 */
#include <linux/sched/smart.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/compat.h>
#include <linux/irq_work.h>
#include <linux/task_work.h>
#include <linux/mmu_context.h>
#include "../sched.h"

#include <trace/events/smart.h>

/*
 * Notifications (paper §2, §3.2 step 4) are decided under the rq lock,
 * where a signal cannot be sent: the task is put on this CPU's list and
 * an irq_work, once the lock is dropped, queues ->notify_work to the task
 * (TWA_SIGNAL: a running task is kicked, a sleeping one woken), which
 * sends the signal from the task's own context on its way back to user
 * space.  Sent from there, the siginfo's si_pid and si_uid of 0 are not
 * translated into the namespaces of whatever task the irq_work
 * interrupted, and an exec cannot come in between: the notification
 * goes to the program whose constraint it is, or, withdrawn by the exec
 * (->notify_code cleared), to none.  A notification the task's own
 * syscall decided (a begin answered SMART_STATUS_INFEASIBLE) is sent by
 * that syscall before it returns (smart_notify_deliver()).
 *
 * A task is on a list at most once (while ->notify_queued is set) and has
 * ->notify_work queued at most once (while ->notify_work_queued is set); a
 * newer notification replaces a pending one.
 */
static DEFINE_PER_CPU(struct llist_head, smart_notify_list);

/*
 * Send the calling task its pending notification, if any.  @work: called
 * as ->notify_work, which may be queued again from now on.
 */
static void smart_notify_take(bool work)
{
	struct task_struct *p = current;
	struct sched_smart_entity *sse = &p->smart;
	kernel_siginfo_t info;
	struct rq_flags rf;
	struct rq *rq;
	int code, sig;
	bool compat;
	u64 cookie;

	rq = task_rq_lock(p, &rf);
	code = sse->notify_code;
	cookie = sse->notify_cookie;
	compat = sse->notify_compat;
	sig = sse->notify_signal ?: SIGXCPU;
	sse->notify_code = 0;
	if (work)
		sse->notify_work_queued = false;
	if (code)
		sse->notifications++;
	task_rq_unlock(rq, p, &rf);
	if (!code)
		return;

	clear_siginfo(&info);
	info.si_signo = sig;
	info.si_code = code;
	/*
	 * A 32-bit task is given si_int (copy_siginfo_to_user32(), SIL_RT),
	 * which on a big-endian kernel is the high half of si_ptr.
	 */
	if (compat)
		info.si_int = (u32)cookie;
	else
		info.si_ptr = (void __user *)(unsigned long)cookie;
	send_sig_info(sig, &info, p);
}

static void smart_notify_send(struct callback_head *work)
{
	smart_notify_take(true);
}

/**
 * smart_notify_deliver() - send the calling task its pending notification
 *
 * From the task's own context, with no lock held: a syscall that decided
 * a notification calls it before it returns, so that the signal is
 * handled on the way back to user space, before the program sees what
 * the call answered.  ->notify_work, queued meanwhile, then finds nothing
 * to send.  A notification set after the lockless look is sent by
 * ->notify_work, as one decided elsewhere is.
 */
void smart_notify_deliver(void)
{
	if (READ_ONCE(current->smart.notify_code))
		smart_notify_take(false);
}

static void smart_notify_fn(struct irq_work *work)
{
	struct llist_node *list = llist_del_all(this_cpu_ptr(&smart_notify_list));
	struct sched_smart_entity *sse, *tmp;

	llist_for_each_entry_safe(sse, tmp, list, notify_node) {
		struct task_struct *p = container_of(sse, struct task_struct, smart);
		struct rq_flags rf;
		struct rq *rq;
		bool queue;

		rq = task_rq_lock(p, &rf);
		sse->notify_queued = false;
		queue = sse->notify_code && !sse->notify_work_queued;
		sse->notify_work_queued |= queue;
		task_rq_unlock(rq, p, &rf);

		if (queue) {
			init_task_work(&sse->notify_work, smart_notify_send);
			/* An exiting task is past caring. */
			if (task_work_add(p, &sse->notify_work, TWA_SIGNAL)) {
				rq = task_rq_lock(p, &rf);
				sse->notify_code = 0;
				sse->notify_work_queued = false;
				task_rq_unlock(rq, p, &rf);
			}
		}
		put_task_struct(p);
	}
}

static DEFINE_PER_CPU(struct irq_work, smart_notify_work) =
	IRQ_WORK_INIT(smart_notify_fn);

/**
 * smart_notify() - tell a task that its constraint will not be met
 * @p:		the task, its rq locked
 * @code:	SMART_NOTIFY_INFEASIBLE or SMART_NOTIFY_EXPIRED
 *
 * Once per constraint, and only if it asked (SMART_CONSTRAINT_NOTIFY).
 *
 * Return: true if @p is notified now, false if it was already or did not
 * ask.
 */
bool smart_notify(struct task_struct *p, int code)
{
	struct sched_smart_entity *sse = &p->smart;

	if (!(sse->tc_flags & SMART_CONSTRAINT_NOTIFY) || sse->tc_notified)
		return false;
	sse->tc_notified = true;
	trace_smart_notify(p, code, ktime_get_ns());
	sse->notify_cookie = sse->tc_cookie;
	sse->notify_runtime = p->se.sum_exec_runtime;
	sse->notify_compat = sse->tc_compat;
	if (!sse->notify_queued) {
		sse->notify_queued = true;
		get_task_struct(p);
		llist_add(&sse->notify_node, this_cpu_ptr(&smart_notify_list));
		irq_work_queue(this_cpu_ptr(&smart_notify_work));
	}
	WRITE_ONCE(sse->notify_code, code);
	return true;
}

/*
 * Time constraints.  Each task has one hrtimer for its active constraint
 * (the tasks of a CPU come and go, the constraint goes with the task):
 * it fires at the deadline, to expire the constraint, and while the task
 * waits, at its latest start time D - (estimate - used), to notify it
 * when what is left of its estimate no longer fits (§3.2 step 4).  While
 * the task runs its latest start time moves with the clock, so the timer
 * is moved back to it only when the task stops running.
 *
 * The timer is left armed when a constraint ends: a begin finds it armed
 * no later than its own deadline (a player's constraints follow each
 * other with growing deadlines) and leaves it there, and the callback,
 * finding a later deadline or none, moves it on or lets it go.  One
 * callback per constraint at most, instead of a cancel in every end and a
 * reprogramming in every begin.  Only an exit cancels it, so that a dead
 * task's reference is not held.
 *
 * The armed timer holds a reference on the task (->tc_timer_ref); arming,
 * cancelling and the callback's decision all happen under the task's rq
 * lock, so the reference changes hands exactly once.
 */
static void smart_tc_arm(struct task_struct *p, u64 when)
{
	struct sched_smart_entity *sse = &p->smart;

	hrtimer_start(&sse->tc_timer, ns_to_ktime(when), HRTIMER_MODE_ABS_HARD);
	if (!sse->tc_timer_ref) {
		get_task_struct(p);
		sse->tc_timer_ref = true;
	}
}

/**
 * smart_tc_disarm() - cancel a task's constraint timer
 * @p:	the task, its rq locked; never the last reference (the caller has
 *	@p: current, or queued)
 */
void smart_tc_disarm(struct task_struct *p)
{
	struct sched_smart_entity *sse = &p->smart;

	if (sse->tc_timer_ref && hrtimer_try_to_cancel(&sse->tc_timer) == 1) {
		sse->tc_timer_ref = false;
		put_task_struct(p);
	}
}

/* @p stops running: watch its latest start time if it wants notification. */
void smart_tc_watch(struct task_struct *p)
{
	struct sched_smart_entity *sse = &p->smart;
	const struct smart_tc *tc = &sse->ent.tc;
	u64 left = smart_tc_left(tc), now;

	if (!tc->deadline || !left || sse->tc_notified ||
	    !(sse->tc_flags & SMART_CONSTRAINT_NOTIFY))
		return;
	now = ktime_get_ns();
	/* Its latest start time D - left, unless that passed (left <= 60 s). */
	smart_tc_arm(p, (s64)(tc->deadline - now) > (s64)left ?
			tc->deadline - left : now);
}

/*
 * End @p's active constraint without a new decision: smart_tc_finish(),
 * or the wake-up that begins the next implicit one.  An implicit
 * constraint is not counted with those the task began (it has no
 * notification and no trace of its own): it was met if the task went to
 * sleep before its deadline (smart_infer_sleep_task()), missed if it was
 * still running when the deadline passed.
 */
static u64 smart_tc_close(struct task_struct *p, u64 now,
			  enum smart_tc_end_reason why)
{
	struct sched_smart_entity *sse = &p->smart;
	struct smart_entity *sme = &sse->ent;
	struct smart_params sp = smart_params_now();
	bool met = why != SMART_TC_EXPIRED &&
		   (s64)(now - sme->tc.deadline) <= 0;
	u64 used;

	smart_tc_sync(p);
	if (sse->tc_flags & SMART_TC_IMPLICIT) {
		if (!(sse->tc_flags & SMART_TC_DONE) && !met)
			sse->infer_missed++;
	} else {
		if (met)
			sse->constraints_met++;
		else
			sse->constraints_missed++;
		if (why == SMART_TC_EXPIRED)
			smart_notify(p, SMART_NOTIFY_EXPIRED);
		trace_smart_constraint_end(p, sme->tc.used, met, why);
	}
	used = smart_tc_end(sme->queue, sme, &sp);
	sse->tc_flags = 0;
	/* The timer stays: a callback with no constraint lets it go. */
	return used;
}

/**
 * smart_tc_finish() - end a task's active time constraint
 * @rq:		the task's rq, locked, clock updated
 * @p:		the task (its CPU time so far charged)
 * @now:	CLOCK_MONOTONIC time
 * @why:	SMART_TC_END, _REPLACED, _EXPIRED (the deadline passed while it
 *		was active), _EXIT, _LEFT or _EXEC
 *
 * Counts it met or missed, notifies an expiry, and makes @p a
 * conventional task again.
 *
 * Return: the CPU time used under the constraint.
 */
u64 smart_tc_finish(struct rq *rq, struct task_struct *p, u64 now,
		    enum smart_tc_end_reason why)
{
	u64 used = smart_tc_close(p, now, why);

	/*
	 * smart_tc_end() moved @p in the tree, if it is in it: re-decide,
	 * unless one task at most is runnable.  That one keeps the CPU and
	 * @p's change cannot make it infeasible: @p is conventional now,
	 * or not runnable and so in no working schedule.
	 */
	if (rq->smart.q.nr_runnable > 1)
		smart_preempt_check(rq);
	return used;
}

/* The budget of a constraint @p begins now counts its CPU clock from here. */
static void smart_tc_start(struct task_struct *p, const struct smart_tc *tc,
			   u32 flags)
{
	struct sched_smart_entity *sse = &p->smart;

	smart_tc_begin(sse->ent.queue, &sse->ent, tc);
	sse->tc_runtime = p->se.sum_exec_runtime;
	sse->tc_flags = flags;
	sse->tc_notified = false;
}

/*
 * Implicit constraints (infer.c) for tasks that make none of their own.
 * On by default; kernel.smart.infer turns it off for every task and
 * SMART_FLAG_NO_INFER for one.
 */
int smart_infer_on = 1;

static bool smart_infers(const struct task_struct *p)
{
	return READ_ONCE(smart_infer_on) && !p->smart.tc_explicit &&
	       !(p->smart.flags & SMART_FLAG_NO_INFER);
}

/* Report a change of what is inferred of @p: begun, ended, moved by 1/8. */
static void smart_infer_show(struct task_struct *p)
{
	struct sched_smart_entity *sse = &p->smart;
	const struct smart_infer *inf = &sse->infer;
	bool on = smart_infer_periodic(inf);
	u64 period = on ? inf->period : 0, demand = on ? inf->demand : 0;
	bool same = period ? sse->infer_shown &&
			     abs_diff(period, sse->infer_shown) <= period >> 3 :
			     !sse->infer_shown;

	if (same && abs_diff(demand, sse->infer_shown_demand) <= demand >> 3)
		return;
	sse->infer_shown = period;
	sse->infer_shown_demand = demand;
	trace_smart_infer(p, period, demand, inf->jitter);
}

/**
 * smart_infer_forget() - forget what was learned of a task's rhythm
 * @p:	the task, its rq locked (or not yet running)
 */
void smart_infer_forget(struct task_struct *p)
{
	smart_infer_reset(&p->smart.infer);
	smart_infer_show(p);
}

/**
 * smart_infer_wake_task() - a SMART task woke up
 * @rq:	its rq, locked, clock updated
 * @p:	the task, just put back in its queue's tree
 *
 * The wake-up is shown to the inference.  If it begins a new period of a
 * periodic task, the implicit constraint of the last period ends and
 * that of this one begins: due at the next release, with the demand and
 * a margin as its estimate (smart_infer_tc()).  An implicit constraint
 * whose deadline has passed ends here at the latest.  The decision that
 * follows the wake-up (wakeup_preempt()) sees the result.
 */
void smart_infer_wake_task(struct rq *rq, struct task_struct *p)
{
	struct sched_smart_entity *sse = &p->smart;
	bool implicit = sse->tc_flags & SMART_TC_IMPLICIT, release = false;
	enum smart_tc_end_reason why = SMART_TC_END;
	struct smart_tc tc;
	bool close = true;
	u64 now;

	if (smart_infers(p))
		release = smart_infer_wake(&sse->infer, rq_clock(rq),
					   p->se.sum_exec_runtime);
	else if (sse->infer.release)
		smart_infer_forget(p);
	if (!release && !implicit)
		goto show;
	now = ktime_get_ns();
	if (release)
		why = SMART_TC_REPLACED;
	else if ((s64)(now - sse->ent.tc.deadline) >= 0)
		why = SMART_TC_EXPIRED;
	else if (!smart_infers(p))
		why = SMART_TC_LEFT;
	else
		close = false;
	if (implicit && close)
		smart_tc_close(p, now, why);
	if (release) {
		smart_infer_tc(&sse->infer, now, &tc);
		smart_tc_start(p, &tc, SMART_TC_IMPLICIT);
	}
show:
	smart_infer_show(p);
}

/**
 * smart_infer_sleep_task() - a SMART task goes to sleep
 * @p:	the task, its rq locked
 *
 * Under an implicit constraint that is its job done: counted met if it
 * is before the deadline.  The constraint stays until the next release
 * (a wake-up inside the period finds what is left of the estimate).
 */
void smart_infer_sleep_task(struct task_struct *p)
{
	struct sched_smart_entity *sse = &p->smart;

	if ((sse->tc_flags & (SMART_TC_IMPLICIT | SMART_TC_DONE)) !=
	    SMART_TC_IMPLICIT)
		return;
	sse->tc_flags |= SMART_TC_DONE;
	if ((s64)(ktime_get_ns() - sse->ent.tc.deadline) <= 0)
		sse->infer_met++;
	else
		sse->infer_missed++;
}

/**
 * smart_infer_tick() - the tick of a running SMART task
 * @rq:	its rq, locked, clock updated, @p charged
 * @p:	the task
 *
 * An implicit constraint still running at its deadline ends (missed):
 * the task was not what its rhythm said, and competes as a conventional
 * task again.
 */
void smart_infer_tick(struct rq *rq, struct task_struct *p)
{
	u64 now;

	if (!(p->smart.tc_flags & SMART_TC_IMPLICIT))
		return;
	now = ktime_get_ns();
	if ((s64)(now - p->smart.ent.tc.deadline) >= 0)
		smart_tc_finish(rq, p, now, SMART_TC_EXPIRED);
}

/**
 * smart_tc_install() - begin a time constraint
 * @rq:		the task's rq, locked, clock updated, CPU time charged
 * @p:		the task, in SCHED_SMART, without an active constraint
 * @c:		the constraint as user space gave it (flags, cookie)
 *		with its prediction (status)
 * @tc:		its deadline, estimate, load and period
 */
void smart_tc_install(struct rq *rq, struct task_struct *p,
		      const struct smart_constraint *c, const struct smart_tc *tc)
{
	struct sched_smart_entity *sse = &p->smart;

	smart_tc_start(p, tc, c->flags & SMART_CONSTRAINT_NOTIFY);
	sse->tc_cookie = c->cookie;
	sse->tc_compat = in_compat_syscall();
	/* A program that states its constraints is not second-guessed. */
	sse->tc_explicit = true;
	smart_infer_forget(p);
	/*
	 * @p is current: its latest start time is watched once it stops.
	 * Until then the timer fires by the deadline, or earlier where the
	 * last constraint left it (its callback then moves it here).
	 */
	if (!sse->tc_timer_ref || !hrtimer_is_queued(&sse->tc_timer) ||
	    ktime_to_ns(hrtimer_get_expires(&sse->tc_timer)) > tc->deadline)
		smart_tc_arm(p, tc->deadline);
	/*
	 * The answer is the notification (§2): a constraint predicted not to
	 * fit is notified now, whatever the decision below makes of it, and
	 * the caller sends the signal before it returns
	 * (smart_notify_deliver()).  A program that trusts the signal alone
	 * then acts as one that reads ->status.
	 */
	if (c->status == SMART_STATUS_INFEASIBLE)
		smart_notify(p, SMART_NOTIFY_INFEASIBLE);
	/* Alone on its queue @p keeps the CPU. */
	if (rq->smart.q.nr_runnable > 1) {
		if (c->status == SMART_STATUS_INFEASIBLE && rq->donor == p)
			smart_preempt_check_told(rq);
		else
			smart_preempt_check(rq);
	}
}

static enum hrtimer_restart smart_tc_timer_fn(struct hrtimer *timer)
{
	struct sched_smart_entity *sse =
		container_of(timer, struct sched_smart_entity, tc_timer);
	struct task_struct *p = container_of(sse, struct task_struct, smart);
	const struct smart_tc *tc = &sse->ent.tc;
	struct rq_flags rf;
	struct rq *rq;
	u64 now, left, next = 0;

	rq = task_rq_lock(p, &rf);
	if (hrtimer_is_queued(timer)) {
		/* Re-armed while we waited for the lock: that one decides. */
		task_rq_unlock(rq, p, &rf);
		return HRTIMER_NORESTART;
	}
	update_rq_clock(rq);
	/* @p or another task: a decision below must see its time. */
	rq->donor->sched_class->update_curr(rq);
	smart_tc_sync(p);
	now = ktime_get_ns();

	if (!tc->deadline) {
		/* Ended: left armed by an end, or ended while we waited. */
	} else if ((s64)(now - tc->deadline) >= 0) {
		smart_tc_finish(rq, p, now, SMART_TC_EXPIRED);
	} else {
		next = tc->deadline;
		left = smart_tc_left(tc);
		if (now + left > tc->deadline &&
		    smart_notify(p, SMART_NOTIFY_INFEASIBLE))
			smart_tell_soon(rq, p);
		else if (rq->donor != p && left && !sse->tc_notified &&
			 (sse->tc_flags & SMART_CONSTRAINT_NOTIFY))
			next = min(tc->deadline,
				   max(tc->deadline - left,
				       now + READ_ONCE(smart_resolution_ns)));
	}

	if (next)
		hrtimer_set_expires(timer, ns_to_ktime(next));
	else
		sse->tc_timer_ref = false;
	task_rq_unlock(rq, p, &rf);
	if (!next)
		put_task_struct(p);
	return next ? HRTIMER_RESTART : HRTIMER_NORESTART;
}

/**
 * smart_tc_fork() - a new task starts without a constraint
 * @p:	the child, not yet running
 *
 * Time constraints and notifications are per thread: none is inherited.
 */
void smart_tc_fork(struct task_struct *p)
{
	struct sched_smart_entity *sse = &p->smart;

	hrtimer_init(&sse->tc_timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_HARD);
	sse->tc_timer.function = smart_tc_timer_fn;
	sse->tc_timer_ref = false;
	sse->tc_notified = false;
	sse->tc_compat = false;
	sse->tc_flags = 0;
	sse->tc_cookie = 0;
	sse->tc_runtime = 0;
	sse->notify_code = 0;
	sse->notify_queued = false;
	sse->notify_work_queued = false;
	sse->notify_compat = false;
	sse->notify_cookie = 0;
	sse->notify_runtime = 0;
	smart_infer_reset(&sse->infer);
	sse->infer_shown = 0;
	sse->infer_shown_demand = 0;
	sse->infer_met = 0;
	sse->infer_missed = 0;
	sse->tc_explicit = false;
}

/**
 * sched_smart_exec() - the calling thread is replacing its program
 * @secureexec: the new program runs with other credentials (setuid, setgid,
 *		file capabilities)
 *
 * Called by begin_new_exec() past the point of no return, beside the
 * removal of the POSIX timers.  A time constraint belongs to the program
 * that began it: it ends here (counted met or missed) and a notification
 * chosen for it, not yet sent or already queued, is withdrawn.  A change
 * of credentials also resets the notification signal, as it clears
 * pdeath_signal: a privileged program must not receive a signal chosen by
 * the program before it.  Until a task has entered SCHED_SMART
 * (smart_active()), no thread has a constraint, a notification or a
 * signal of its own, and there is nothing to do.
 */
void sched_smart_exec(bool secureexec)
{
	struct task_struct *p = current;
	struct sched_smart_entity *sse = &p->smart;
	struct rq_flags rf;
	struct rq *rq;

	if (!smart_active())
		return;
	rq = smart_lock_charged(p, &rf);
	if (sse->ent.tc.deadline)
		smart_tc_finish(rq, p, ktime_get_ns(), SMART_TC_EXEC);
	sse->notify_code = 0;
	if (secureexec)
		sse->notify_signal = 0;
	/* The new program's rhythm is learned afresh. */
	sse->tc_explicit = false;
	smart_infer_forget(p);
	task_rq_unlock(rq, p, &rf);

	spin_lock_irq(&p->sighand->siglock);
	flush_smart_signals(p);
	spin_unlock_irq(&p->sighand->siglock);
}
