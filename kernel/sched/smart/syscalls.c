// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART system calls: smart_setattr() and smart_getattr() for a
 * thread's importance, smart_constraint_begin() and smart_constraint_end()
 * for the calling thread's time constraints.
 *
 * struct smart_attr and struct smart_constraint are size-versioned like
 * struct sched_attr: callers pass the size they know, unknown trailing
 * fields must be zero.  Every check runs before anything changes, so a
 * failed call changes nothing.
 */
#include <linux/cred.h>
#include <linux/security.h>
#include <linux/syscalls.h>
#include <linux/sched/clock.h>
#include <linux/sched/smart.h>
#include <uapi/linux/sched/types.h>
#include <linux/mmu_context.h>
#include "../sched.h"
#include <trace/events/smart.h>

/*
 * Copy in a size-versioned struct whose first field is its __u32 size.
 * Return: the size user space gave, or -EFAULT, -EINVAL (smaller than
 * @ver0), -E2BIG (larger than a page, or unknown fields not zero).
 */
static int smart_copy_sized(void *dst, size_t ksize, const void __user *src,
			    u32 ver0)
{
	u32 size;
	int ret;

	if (get_user(size, (const u32 __user *)src))
		return -EFAULT;
	if (size < ver0)
		return -EINVAL;
	if (size > PAGE_SIZE)
		return -E2BIG;

	ret = copy_struct_from_user(dst, ksize, src, size);
	if (ret)
		return ret;
	*(u32 *)dst = size;
	return 0;
}

static int smart_copy_attr(struct smart_attr __user *uattr,
			   struct smart_attr *attr)
{
	return smart_copy_sized(attr, sizeof(*attr), uattr, SMART_ATTR_SIZE_VER0);
}

static int smart_check_attr(const struct smart_attr *attr)
{
	if (attr->mask & ~SMART_ATTR_ALL)
		return -EINVAL;
	if ((attr->mask & SMART_ATTR_PRIORITY) &&
	    (attr->priority < SMART_PRIO_MIN || attr->priority > SMART_PRIO_MAX))
		return -EINVAL;
	if ((attr->mask & SMART_ATTR_SHARE) &&
	    (attr->share < SMART_SHARE_MIN || attr->share > SMART_SHARE_MAX))
		return -EINVAL;
	/*
	 * A signal the kernel raises on the user's behalf may be caught:
	 * never SIGKILL or SIGSTOP (0 means SIGXCPU).
	 */
	if ((attr->mask & SMART_ATTR_SIGNAL) &&
	    (attr->notify_signal < 0 || attr->notify_signal > SIGRTMAX ||
	     attr->notify_signal == SIGKILL || attr->notify_signal == SIGSTOP))
		return -EINVAL;
	if ((attr->mask & SMART_ATTR_FLAGS) && (attr->flags & ~SMART_FLAG_ALL))
		return -EINVAL;
	return 0;
}

/* The task's priority and share as SMART sees them, or would on entry. */
static void smart_current_params(struct task_struct *p, s32 *prio, u32 *share)
{
	*prio = p->smart.ent.prio;
	if (p->sched_class == &smart_sched_class)
		*share = p->smart.ent.own_share;
	else
		*share = smart_share_of_weight(p->se.load.weight);
}

/*
 * Without CAP_SYS_NICE a caller may only touch its own user's threads
 * and may lower, never raise, a thread's priority or share.  Nor may it
 * clear SMART_FLAG_RESET_ON_FORK, as the kernel forbids for
 * SCHED_RESET_ON_FORK: an administrator who set it meant the children.
 */
static int smart_check_perm(struct task_struct *p, const struct smart_attr *attr)
{
	bool unreset = (attr->mask & SMART_ATTR_FLAGS) &&
		       (p->smart.flags & SMART_FLAG_RESET_ON_FORK) &&
		       !(attr->flags & SMART_FLAG_RESET_ON_FORK);
	s32 prio;
	u32 share;

	smart_current_params(p, &prio, &share);
	if (!check_same_owner(p) || unreset ||
	    ((attr->mask & SMART_ATTR_PRIORITY) && attr->priority > prio) ||
	    ((attr->mask & SMART_ATTR_SHARE) && attr->share > share)) {
		if (!capable(CAP_SYS_NICE))
			return -EPERM;
	}
	return security_task_setscheduler(p);
}

/* Move @p into SCHED_SMART with the checks of sched_setattr(). */
static int smart_enter(struct task_struct *p)
{
	struct sched_attr attr = {
		.size		= sizeof(attr),
		.sched_policy	= SCHED_SMART,
		.sched_nice	= task_nice(p),
		.sched_flags	= p->sched_reset_on_fork ? SCHED_FLAG_RESET_ON_FORK : 0,
	};

	if (p->policy == SCHED_SMART)
		return 0;
	return sched_setattr(p, &attr);
}

static void smart_apply(struct task_struct *p, const struct smart_attr *attr)
{
	struct sched_smart_entity *sse = &p->smart;
	struct smart_params sp = smart_params_now();
	s32 prio = sse->ent.prio;
	u32 share = sse->ent.own_share;
	struct rq_flags rf;
	struct rq *rq;

	if (attr->mask & SMART_ATTR_PRIORITY)
		prio = attr->priority;
	if (attr->mask & SMART_ATTR_SHARE)
		share = attr->share;

	/* V of the queue must include what the running task used. */
	rq = smart_lock_charged(p, &rf);
	if (attr->mask & SMART_ATTR_SIGNAL)
		sse->notify_signal = attr->notify_signal;
	if (attr->mask & SMART_ATTR_FLAGS)
		sse->flags = attr->flags;
	/* A priority given to a kernel thread is someone's choice. */
	if (attr->mask & SMART_ATTR_PRIORITY)
		sse->ent.kthread_prio = false;

	/* On no queue (not a SMART task yet) this only stores the values. */
	smart_set_params(&sse->ent, prio, share, rq_clock(rq), &sp);
	if (p->sched_class == &smart_sched_class) {
		if (task_current(rq, p))
			resched_curr(rq);
		else if (task_on_rq_queued(p) && !p->smart.parked)
			wakeup_preempt(rq, p, 0);
	}
	task_rq_unlock(rq, p, &rf);
}

static struct task_struct *smart_find_get_task(pid_t pid)
{
	struct task_struct *p;

	if (pid < 0)
		return ERR_PTR(-EINVAL);
	guard(rcu)();
	p = pid ? find_task_by_vpid(pid) : current;
	if (!p)
		return ERR_PTR(-ESRCH);
	get_task_struct(p);
	return p;
}

/**
 * sys_smart_setattr - set the SMART attributes of a thread
 * @pid: the thread id, 0 for the calling thread
 * @uattr: the attributes; ->mask says which fields apply
 * @flags: must be 0
 *
 * A thread not yet in SCHED_SMART is moved there, with the permission
 * rules of sched_setattr() (in opt-in mode that needs CAP_SYS_NICE).
 *
 * Return: 0 on success, -EINVAL, -E2BIG, -EFAULT, -ESRCH or -EPERM; on
 * error nothing is changed.
 */
SYSCALL_DEFINE3(smart_setattr, pid_t, pid, struct smart_attr __user *, uattr,
		unsigned int, flags)
{
	struct smart_attr attr;
	struct task_struct *p;
	int ret;

	if (flags)
		return -EINVAL;
	ret = smart_copy_attr(uattr, &attr);
	if (ret)
		return ret;
	ret = smart_check_attr(&attr);
	if (ret)
		return ret;

	p = smart_find_get_task(pid);
	if (IS_ERR(p))
		return PTR_ERR(p);

	ret = smart_check_perm(p, &attr);
	if (!ret)
		ret = smart_enter(p);
	if (!ret)
		smart_apply(p, &attr);

	put_task_struct(p);
	return ret;
}

/**
 * sys_smart_getattr - read the SMART attributes and state of a thread
 * @pid: the thread id, 0 for the calling thread
 * @uattr: where to store them
 * @usize: sizeof(struct smart_attr) as the caller knows it
 * @flags: must be 0
 *
 * Works on any thread the security policy lets the caller see (the
 * check of sched_getattr()); one not in SCHED_SMART reports the priority
 * and share it would enter with.  At most @usize bytes are written.
 *
 * Return: 0 on success, -EINVAL, -EFAULT, -ESRCH, or the LSM's error.
 */
SYSCALL_DEFINE4(smart_getattr, pid_t, pid, struct smart_attr __user *, uattr,
		unsigned int, usize, unsigned int, flags)
{
	struct smart_attr kattr = { };
	struct sched_smart_entity *sse;
	struct task_struct *p;
	struct rq_flags rf;
	struct rq *rq;
	int ret;

	if (flags || usize < SMART_ATTR_SIZE_VER0 || usize > PAGE_SIZE)
		return -EINVAL;

	p = smart_find_get_task(pid);
	if (IS_ERR(p))
		return PTR_ERR(p);
	ret = security_task_getscheduler(p);
	if (ret) {
		put_task_struct(p);
		return ret;
	}
	sse = &p->smart;

	rq = smart_lock_charged(p, &rf);
	if (p->sched_class == &smart_sched_class) {
		kattr.lag_ns = smart_lag_ns(&sse->ent);
		kattr.bias_ns = sse->ent.bias;
	}
	smart_current_params(p, &kattr.priority, &kattr.share);
	kattr.notify_signal = sse->notify_signal;
	kattr.flags = sse->flags;
	kattr.constraints_met = sse->constraints_met;
	kattr.constraints_missed = sse->constraints_missed;
	kattr.notifications = sse->notifications;
	if (smart_infer_periodic(&sse->infer)) {
		kattr.infer_period_ns = sse->infer.period;
		kattr.infer_demand_ns = sse->infer.demand;
	}
	task_rq_unlock(rq, p, &rf);
	put_task_struct(p);

	kattr.size = min_t(u32, usize, sizeof(kattr));
	kattr.mask = SMART_ATTR_ALL;
	if (copy_to_user(uattr, &kattr, kattr.size))
		return -EFAULT;
	return 0;
}

static int smart_put_constraint(struct smart_constraint __user *uc,
				const struct smart_constraint *c)
{
	if (copy_to_user(uc, c, min_t(u32, c->size, sizeof(*c))))
		return -EFAULT;
	return 0;
}

/*
 * Write a constraint call's outputs back under the rq lock, before the
 * call changes anything, without faulting (the lock is held with
 * interrupts off).  If the page is not there, the caller drops the lock,
 * faults it in with smart_retry_put() and tries again.
 */
static bool smart_put_locked(struct smart_constraint __user *uc,
			     const struct smart_constraint *c)
{
	return !copy_to_user_nofault(uc, c, min_t(u32, c->size, sizeof(*c)));
}

/*
 * The locked write-back faulted: write the struct back as it was read
 * (all of it: a struct may start in a writable page and end in a
 * read-only one), which faults the page in or fails.  A few retries
 * only: a page that keeps going away (another thread unmapping it) gets
 * -EFAULT, with nothing changed.
 *
 * Return: 0 to retry, or -EFAULT.
 */
static int smart_retry_put(struct smart_constraint __user *uc,
			   const struct smart_constraint *orig, int *tries)
{
	if (++*tries > 3)
		return -EFAULT;
	return smart_put_constraint(uc, orig);
}

/*
 * Copy in and check what both constraint calls take: the syscall @flags
 * (none defined), the constraint's own flags and reserved field.
 */
static int smart_copy_constraint(struct smart_constraint __user *uc,
				 struct smart_constraint *c, unsigned int flags)
{
	int ret;

	if (flags)
		return -EINVAL;
	ret = smart_copy_sized(c, sizeof(*c), uc, SMART_CONSTRAINT_SIZE_VER0);
	if (ret)
		return ret;
	if ((c->flags & ~SMART_CONSTRAINT_ALL) || c->__reserved)
		return -EINVAL;
	return 0;
}

/*
 * Lock the calling thread's rq, its CPU time charged.  Running with
 * interrupts off, current cannot move to another rq, and every change to
 * its scheduling state holds that rq's lock: its pi_lock is not needed.
 */
static struct rq *smart_lock_current(struct rq_flags *rf)
{
	struct rq *rq = this_rq_lock_irq(rf);

	update_rq_clock(rq);
	rq->donor->sched_class->update_curr(rq);
	return rq;
}

/*
 * A constraint's budget counts the thread's CPU clock from the snapshot
 * smart_tc_install() takes under the rq lock.  An interrupt that arrives
 * while that lock is held is served when it is dropped, still inside the
 * call: its time, and that of the softirqs it raises (a timer tick that
 * frees a burst of RCU callbacks can take milliseconds on a slow CPU),
 * is charged to the thread (without CONFIG_IRQ_TIME_ACCOUNTING) and
 * would count as used before the caller's first
 * instruction under the constraint.  So if the call returns more than
 * SMART_TC_RESYNC_NS after the snapshot, the snapshot is taken again: one
 * clock read in the common case, one more lock in the rare one.
 */
#define SMART_TC_RESYNC_NS	(50 * NSEC_PER_USEC)

static void smart_tc_resync(struct task_struct *p, u64 deadline, u64 since)
{
	struct rq_flags rf;
	struct rq *rq;

	if (local_clock() - since < SMART_TC_RESYNC_NS)
		return;
	rq = smart_lock_current(&rf);
	/* Unless it expired meanwhile: that one was counted already. */
	if (p->smart.ent.tc.deadline == deadline) {
		p->smart.tc_runtime = p->se.sum_exec_runtime;
		smart_tc_set_used(&p->smart.ent, 0);
	}
	rq_unlock_irq(rq, &rf);
}

/**
 * sys_smart_constraint_begin - begin a time constraint on the calling thread
 * @uc: deadline, estimate, period, cookie and SMART_CONSTRAINT_* flags;
 *	->available and ->status are written back
 * @flags: must be 0
 *
 * The thread becomes a real-time task until smart_constraint_end(), a
 * later begin (which ends this one) or the deadline, when the constraint
 * expires.  ->available is the CPU time the scheduler predicts the thread
 * gets before the deadline from the queue it runs on (the working
 * schedule and its share); ->status says whether that covers the
 * estimate.  With SMART_CONSTRAINT_QUERY nothing is installed.  A thread
 * not in SCHED_SMART is moved there if it has CAP_SYS_NICE.
 *
 * Every input is bounded before it enters any arithmetic: the deadline,
 * the estimate and the period are at most SMART_CONSTRAINT_MAX_AHEAD_NS
 * (ahead of now, for the deadline).  An estimate longer than the time to
 * the deadline is accepted and reported infeasible.
 *
 * Return: 0, or -EINVAL, -E2BIG, -EFAULT, -ETIME (deadline not in the
 * future) or -EPERM; on error nothing is changed.
 */
SYSCALL_DEFINE2(smart_constraint_begin, struct smart_constraint __user *, uc,
		unsigned int, flags)
{
	struct task_struct *p = current;
	struct smart_params sp = smart_params_now();
	struct smart_constraint c, orig;
	struct smart_tc tc;
	struct rq_flags rf;
	int ret, tries = 0;
	struct rq *rq;
	u64 now;

	ret = smart_copy_constraint(uc, &c, flags);
	if (ret)
		return ret;
	if (!c.estimate || c.estimate > SMART_CONSTRAINT_MAX_AHEAD_NS ||
	    c.period > SMART_CONSTRAINT_MAX_AHEAD_NS ||
	    (c.period && c.period < c.estimate))
		return -EINVAL;
	now = ktime_get_ns();
	if (c.deadline <= now)
		return -ETIME;
	if (c.deadline - now > SMART_CONSTRAINT_MAX_AHEAD_NS)
		return -EINVAL;

	if (!task_should_smart(p->policy)) {
		if (!capable(CAP_SYS_NICE))
			return -EPERM;
		if (!(c.flags & SMART_CONSTRAINT_QUERY)) {
			/* The outputs must go back before the class changes. */
			ret = smart_put_constraint(uc, &c) ?: smart_enter(p);
			if (ret)
				return ret;
		}
	}

	tc = (struct smart_tc){
		.deadline = c.deadline,
		.estimate = c.estimate,
		.load = smart_tc_load(c.estimate, c.period),
		.period = c.period,
	};
	orig = c;
	for (;;) {
		bool done, installed = false;
		u64 since = 0;

		rq = smart_lock_current(&rf);
		c.available = smart_tc_available(&rq->smart.q, &p->smart.ent,
						 &tc, ktime_get_ns(),
						 &rq->smart.scratch, &sp);
		c.status = c.available >= c.estimate ? SMART_STATUS_FEASIBLE :
						       SMART_STATUS_INFEASIBLE;
		done = smart_put_locked(uc, &c);
		if (done) {
			trace_smart_constraint_begin(p, &c);
			if (!(c.flags & SMART_CONSTRAINT_QUERY)) {
				if (p->smart.ent.tc.deadline)
					smart_tc_finish(rq, p, ktime_get_ns(),
							SMART_TC_REPLACED);
				smart_tc_install(rq, p, &c, &tc);
				installed = true;
				since = rq_clock(rq);
			}
		}
		rq_unlock_irq(rq, &rf);
		if (installed) {
			smart_tc_resync(p, c.deadline, since);
			/* SMART_STATUS_INFEASIBLE: its signal first */
			smart_notify_deliver();
		}
		if (done)
			return 0;
		ret = smart_retry_put(uc, &orig, &tries);
		if (ret)
			return ret;
	}
}

/**
 * sys_smart_constraint_end - end the calling thread's time constraint
 * @uc: written back: the constraint that ended (flags, deadline,
 *	estimate, period, cookie), ->used and ->status (met or missed)
 * @flags: must be 0
 *
 * Return: 0, or -EINVAL (unknown flag, reserved field not zero), -E2BIG,
 * -EFAULT, or -ENOENT when no constraint is active (none was begun, or it
 * expired at its deadline).
 */
SYSCALL_DEFINE2(smart_constraint_end, struct smart_constraint __user *, uc,
		unsigned int, flags)
{
	struct task_struct *p = current;
	struct sched_smart_entity *sse = &p->smart;
	struct smart_constraint c, orig;
	struct rq_flags rf;
	int ret, tries = 0;
	struct rq *rq;
	u64 now;

	ret = smart_copy_constraint(uc, &c, flags);
	if (ret)
		return ret;

	orig = c;
	for (;;) {
		bool done;

		rq = smart_lock_current(&rf);
		/* An implicit constraint is not the caller's to end. */
		if (!sse->ent.tc.deadline ||
		    (sse->tc_flags & SMART_TC_IMPLICIT)) {
			rq_unlock_irq(rq, &rf);
			return -ENOENT;
		}
		now = ktime_get_ns();
		smart_tc_sync(p);
		c.flags = sse->tc_flags;
		c.deadline = sse->ent.tc.deadline;
		c.estimate = sse->ent.tc.estimate;
		c.period = sse->ent.tc.period;
		c.cookie = sse->tc_cookie;
		c.available = 0;
		c.status = (s64)(now - c.deadline) <= 0 ? SMART_STATUS_MET :
							  SMART_STATUS_MISSED;
		c.used = sse->ent.tc.used;
		done = smart_put_locked(uc, &c);
		if (done)
			smart_tc_finish(rq, p, now, SMART_TC_END);
		rq_unlock_irq(rq, &rf);
		if (done)
			return 0;
		ret = smart_retry_put(uc, &orig, &tries);
		if (ret)
			return ret;
	}
}
