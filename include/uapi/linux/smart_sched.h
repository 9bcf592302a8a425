/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * SMART: a scheduler for multimedia applications (Nieh & Lam, SOSP '97).
 *
 * User interface of the SCHED_SMART scheduling class: importance
 * (priority and proportional share) and time constraints with
 * notification.  See Documentation/scheduler/sched-smart.rst.
 *
 * The system call numbers (__NR_smart_*) come from <asm/unistd.h>.
 */
#ifndef _UAPI_LINUX_SMART_SCHED_H
#define _UAPI_LINUX_SMART_SCHED_H

#include <linux/types.h>

#ifndef SCHED_SMART
#define SCHED_SMART		8
#endif

/* Importance: strict priority, then proportional share within a priority. */
#define SMART_PRIO_MIN		(-16)
#define SMART_PRIO_MAX		16
#define SMART_PRIO_DEFAULT	0

#define SMART_SHARE_MIN		1
#define SMART_SHARE_MAX		1048576
#define SMART_SHARE_DEFAULT	1024	/* the load weight of nice 0 */

/* struct smart_attr::mask: which fields smart_setattr() applies */
#define SMART_ATTR_PRIORITY	0x01
#define SMART_ATTR_SHARE	0x02
#define SMART_ATTR_SIGNAL	0x04
#define SMART_ATTR_FLAGS	0x08
#define SMART_ATTR_ALL		(SMART_ATTR_PRIORITY | SMART_ATTR_SHARE | \
				 SMART_ATTR_SIGNAL | SMART_ATTR_FLAGS)

/* struct smart_attr::flags */
#define SMART_FLAG_RESET_ON_FORK 0x01	/* children: prio/share at most default */
#define SMART_FLAG_NO_INFER	0x02	/* no constraints inferred from its wake-ups */
#define SMART_FLAG_ALL		(SMART_FLAG_RESET_ON_FORK | SMART_FLAG_NO_INFER)

/**
 * struct smart_attr - SMART scheduling attributes of one thread
 * @size:		sizeof(struct smart_attr) as the caller knows it
 * @mask:		SMART_ATTR_* fields to apply (smart_setattr() only)
 * @priority:		SMART_PRIO_MIN..SMART_PRIO_MAX, higher is more important
 * @share:		SMART_SHARE_MIN..SMART_SHARE_MAX, proportional within a priority
 * @notify_signal:	signal sent for notifications, 0 means SIGXCPU; not
 *			SIGKILL or SIGSTOP
 * @flags:		SMART_FLAG_*
 * @lag_ns:		CPU time (ns) the thread is behind (+) or ahead (-) of
 *			its proportional share on its queue
 * @bias_ns:		current bias (paper eq. 4); 0 with an active constraint
 * @constraints_met:	time constraints that ended on time
 * @constraints_missed:	time constraints that ended late or expired
 * @notifications:	notifications sent to this thread
 * @infer_period_ns:	the period the scheduler inferred from the thread's
 *			wake-ups while it makes no constraint of its own,
 *			0 if it is not taken as periodic
 * @infer_demand_ns:	the CPU time it uses per inferred period (0 if none)
 */
struct smart_attr {
	__u32 size;
	__u32 mask;
	__s32 priority;
	__u32 share;
	__s32 notify_signal;
	__u32 flags;
	__s64 lag_ns;
	__u64 bias_ns;
	__u64 constraints_met;
	__u64 constraints_missed;
	__u64 notifications;
	__u64 infer_period_ns;
	__u64 infer_demand_ns;
};

#define SMART_ATTR_SIZE_VER0	64	/* sizeof first published struct */
#define SMART_ATTR_SIZE_VER1	80	/* adds infer_period_ns, infer_demand_ns */

/* struct smart_constraint::flags */
#define SMART_CONSTRAINT_NOTIFY	0x01	/* signal when the deadline cannot be met */
#define SMART_CONSTRAINT_QUERY	0x02	/* report availability, install nothing */
#define SMART_CONSTRAINT_ALL	(SMART_CONSTRAINT_NOTIFY | SMART_CONSTRAINT_QUERY)

/* struct smart_constraint::status */
#define SMART_STATUS_FEASIBLE	0	/* begin: predicted to complete in time */
#define SMART_STATUS_INFEASIBLE	1	/* begin: predicted not to */
#define SMART_STATUS_MET	2	/* end: ended before its deadline */
#define SMART_STATUS_MISSED	3	/* end: ended after its deadline */

/**
 * struct smart_constraint - a time constraint on a block of code
 * @size:	sizeof(struct smart_constraint) as the caller knows it
 * @flags:	SMART_CONSTRAINT_*
 * @deadline:	absolute CLOCK_MONOTONIC time, ns, at most
 *		SMART_CONSTRAINT_MAX_AHEAD_NS ahead
 * @estimate:	CPU time needed before @deadline, ns, 1..SMART_CONSTRAINT_MAX_AHEAD_NS
 * @period:	0, or the period of a periodic activity, ns, @estimate..
 *		SMART_CONSTRAINT_MAX_AHEAD_NS
 * @cookie:	passed back in the notification's si_value.sival_ptr
 * @available:	begin: CPU time (ns) predicted to be available before @deadline
 * @used:	end: CPU time (ns) used between begin and end
 * @status:	SMART_STATUS_*
 *
 * smart_constraint_end() fills in @flags, @deadline, @estimate, @period
 * and @cookie of the constraint that ended, with its @used and @status.
 * @__reserved:	must be zero
 */
struct smart_constraint {
	__u32 size;
	__u32 flags;
	__u64 deadline;
	__u64 estimate;
	__u64 period;
	__u64 cookie;
	__u64 available;
	__u64 used;
	__u32 status;
	__u32 __reserved;
};

#define SMART_CONSTRAINT_SIZE_VER0 64	/* sizeof first published struct */

/*
 * si_code of a notification signal, which is queued to the thread that
 * owns the constraint with si_value.sival_ptr = cookie and si_pid =
 * si_uid = 0.  The codes are negative, like SI_TIMER and SI_MESGQ (events
 * the kernel raises on a user's request), so that the value reaches
 * sigaction handlers, sigwaitinfo() and signalfd (ssi_ptr) alike.
 */
#define SMART_NOTIFY_INFEASIBLE	(-0x5301) /* predicted: cannot finish before deadline */
#define SMART_NOTIFY_EXPIRED	(-0x5302) /* the deadline passed while active */

/* Limits: of a deadline (ahead of now), an estimate and a period */
#define SMART_CONSTRAINT_MAX_AHEAD_NS	60000000000ULL	/* 60 s */

#endif /* _UAPI_LINUX_SMART_SCHED_H */
