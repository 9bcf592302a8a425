/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of the SCHED_SMART class: what it decided and why.
 *
 *   smart_pick			a task chosen to run, with the §3.2 step
 *				that chose it and its value tuple
 *   smart_quantum		a quantum completed: the new BVFT, eq. (4)
 *   smart_constraint_begin	a time constraint begun (or queried)
 *   smart_constraint_end	a time constraint ended, and why
 *   smart_infer		a task's period and demand as inferred from
 *				its wake-ups (infer.c)
 *   smart_notify		a notification decided (sent outside the
 *				rq lock right after)
 *   smart_rotate		a waiting task handed to a CPU with one task
 *				less, for fairness across CPUs
 *
 * Record them with `trace-cmd record -e smart`.  See
 * Documentation/scheduler/sched-smart.rst.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM smart

#if !defined(_TRACE_SMART_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_SMART_H

#include <linux/sched.h>
#include <linux/tracepoint.h>
#include <uapi/linux/smart_sched.h>

#include <linux/sched/smart.h>

/* user space (trace-cmd) sees the values of the enums, not their names */
TRACE_DEFINE_ENUM(SMART_PICK_CONVENTIONAL);
TRACE_DEFINE_ENUM(SMART_PICK_SCHEDULE);
TRACE_DEFINE_ENUM(SMART_PICK_FALLBACK);
TRACE_DEFINE_ENUM(SMART_PICK_RESCUE);
TRACE_DEFINE_ENUM(SMART_TC_END);
TRACE_DEFINE_ENUM(SMART_TC_REPLACED);
TRACE_DEFINE_ENUM(SMART_TC_EXPIRED);
TRACE_DEFINE_ENUM(SMART_TC_EXIT);
TRACE_DEFINE_ENUM(SMART_TC_LEFT);
TRACE_DEFINE_ENUM(SMART_TC_EXEC);

TRACE_EVENT(smart_pick,

	TP_PROTO(int cpu, struct task_struct *p, enum smart_pick_reason reason,
		 unsigned int ws_nr),

	TP_ARGS(cpu, p, reason, ws_nr),

	TP_STRUCT__entry(
		__array(char,		comm,	TASK_COMM_LEN)
		__field(pid_t,		pid)
		__field(int,		cpu)
		__field(int,		prio)
		__field(int,		reason)
		__field(unsigned int,	ws_nr)
		__field(u64,		bvft)
		__field(u64,		deadline)
	),

	TP_fast_assign(
		memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
		__entry->pid		= p->pid;
		__entry->cpu		= cpu;
		__entry->prio		= p->smart.ent.prio;
		__entry->reason		= reason;
		__entry->ws_nr		= ws_nr;
		__entry->bvft		= p->smart.ent.bvft;
		__entry->deadline	= p->smart.ent.tc.deadline;
	),

	TP_printk("cpu=%d comm=%s pid=%d prio=%d bvft=%llu reason=%s deadline=%llu ws_nr=%u",
		  __entry->cpu, __entry->comm, __entry->pid, __entry->prio,
		  __entry->bvft,
		  __print_symbolic(__entry->reason,
				   { SMART_PICK_CONVENTIONAL,	"conventional" },
				   { SMART_PICK_SCHEDULE,	"schedule" },
				   { SMART_PICK_FALLBACK,	"fallback" },
				   { SMART_PICK_RESCUE,		"rescue" }),
		  __entry->deadline, __entry->ws_nr)
);

TRACE_EVENT(smart_quantum,

	TP_PROTO(struct task_struct *p),

	TP_ARGS(p),

	TP_STRUCT__entry(
		__array(char,	comm,	TASK_COMM_LEN)
		__field(pid_t,	pid)
		__field(int,	prio)
		__field(u64,	bvft)
		__field(u64,	bias)
		__field(u64,	quantum)
	),

	TP_fast_assign(
		memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
		__entry->pid		= p->pid;
		__entry->prio		= p->smart.ent.prio;
		__entry->bvft		= p->smart.ent.bvft;
		__entry->bias		= p->smart.ent.bias;
		__entry->quantum	= p->smart.ent.quantum;
	),

	TP_printk("comm=%s pid=%d prio=%d bvft=%llu bias=%llu quantum=%llu",
		  __entry->comm, __entry->pid, __entry->prio, __entry->bvft,
		  __entry->bias, __entry->quantum)
);

TRACE_EVENT(smart_rotate,

	TP_PROTO(struct task_struct *p, int src_cpu, int dst_cpu),

	TP_ARGS(p, src_cpu, dst_cpu),

	TP_STRUCT__entry(
		__array(char,	comm,	TASK_COMM_LEN)
		__field(pid_t,	pid)
		__field(int,	src_cpu)
		__field(int,	dst_cpu)
		__field(u64,	recent)
	),

	TP_fast_assign(
		memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
		__entry->pid		= p->pid;
		__entry->src_cpu	= src_cpu;
		__entry->dst_cpu	= dst_cpu;
		__entry->recent		= p->smart.recent;
	),

	TP_printk("comm=%s pid=%d src_cpu=%d dst_cpu=%d recent=%llu",
		  __entry->comm, __entry->pid, __entry->src_cpu,
		  __entry->dst_cpu, __entry->recent)
);

TRACE_EVENT(smart_constraint_begin,

	TP_PROTO(struct task_struct *p, const struct smart_constraint *c),

	TP_ARGS(p, c),

	TP_STRUCT__entry(
		__field(pid_t,	pid)
		__field(u32,	flags)
		__field(u32,	status)
		__field(u64,	deadline)
		__field(u64,	estimate)
		__field(u64,	period)
		__field(u64,	available)
		__field(u64,	cookie)
	),

	TP_fast_assign(
		__entry->pid		= p->pid;
		__entry->flags		= c->flags;
		__entry->status		= c->status;
		__entry->deadline	= c->deadline;
		__entry->estimate	= c->estimate;
		__entry->period		= c->period;
		__entry->available	= c->available;
		__entry->cookie		= c->cookie;
	),

	TP_printk("pid=%d deadline=%llu estimate=%llu period=%llu available=%llu status=%s flags=%s cookie=%#llx",
		  __entry->pid, __entry->deadline, __entry->estimate,
		  __entry->period, __entry->available,
		  __entry->status == SMART_STATUS_FEASIBLE ? "feasible" : "infeasible",
		  __print_flags(__entry->flags, "|",
				{ SMART_CONSTRAINT_NOTIFY,	"notify" },
				{ SMART_CONSTRAINT_QUERY,	"query" }),
		  __entry->cookie)
);

TRACE_EVENT(smart_constraint_end,

	TP_PROTO(struct task_struct *p, u64 used, bool met,
		 enum smart_tc_end_reason why),

	TP_ARGS(p, used, met, why),

	TP_STRUCT__entry(
		__field(pid_t,	pid)
		__field(bool,	met)
		__field(int,	why)
		__field(u64,	deadline)
		__field(u64,	estimate)
		__field(u64,	used)
	),

	TP_fast_assign(
		__entry->pid		= p->pid;
		__entry->met		= met;
		__entry->why		= why;
		__entry->deadline	= p->smart.ent.tc.deadline;
		__entry->estimate	= p->smart.ent.tc.estimate;
		__entry->used		= used;
	),

	TP_printk("pid=%d deadline=%llu estimate=%llu used=%llu status=%s why=%s",
		  __entry->pid, __entry->deadline, __entry->estimate,
		  __entry->used, __entry->met ? "met" : "missed",
		  __print_symbolic(__entry->why,
				   { SMART_TC_END,	"end" },
				   { SMART_TC_REPLACED,	"replaced" },
				   { SMART_TC_EXPIRED,	"expired" },
				   { SMART_TC_EXIT,	"exit" },
				   { SMART_TC_LEFT,	"left" },
				   { SMART_TC_EXEC,	"exec" }))
);

/*
 * What the scheduler infers of a task that makes no time constraint of
 * its own changed (kernel/sched/smart/infer.c): it is now taken as
 * periodic, or no longer (period 0), or its period or demand moved by
 * more than an eighth.
 */
TRACE_EVENT(smart_infer,

	TP_PROTO(struct task_struct *p, u64 period, u64 demand, u64 jitter),

	TP_ARGS(p, period, demand, jitter),

	TP_STRUCT__entry(
		__array(char,	comm,	TASK_COMM_LEN)
		__field(pid_t,	pid)
		__field(u64,	period)
		__field(u64,	demand)
		__field(u64,	jitter)
	),

	TP_fast_assign(
		memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
		__entry->pid		= p->pid;
		__entry->period		= period;
		__entry->demand		= demand;
		__entry->jitter		= jitter;
	),

	TP_printk("comm=%s pid=%d period=%llu demand=%llu jitter=%llu",
		  __entry->comm, __entry->pid, __entry->period,
		  __entry->demand, __entry->jitter)
);

TRACE_EVENT(smart_notify,

	TP_PROTO(struct task_struct *p, int code, u64 now),

	TP_ARGS(p, code, now),

	TP_STRUCT__entry(
		__array(char,	comm,	TASK_COMM_LEN)
		__field(pid_t,	pid)
		__field(int,	code)
		__field(u64,	cookie)
		__field(u64,	deadline)
		__field(s64,	lead_ns)
	),

	TP_fast_assign(
		memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
		__entry->pid		= p->pid;
		__entry->code		= code;
		__entry->cookie		= p->smart.tc_cookie;
		__entry->deadline	= p->smart.ent.tc.deadline;
		__entry->lead_ns	= (s64)(p->smart.ent.tc.deadline - now);
	),

	TP_printk("comm=%s pid=%d code=%s cookie=%#llx deadline=%llu lead_ns=%lld",
		  __entry->comm, __entry->pid,
		  __entry->code == SMART_NOTIFY_EXPIRED ? "expired" : "infeasible",
		  __entry->cookie, __entry->deadline, __entry->lead_ns)
);

#endif /* _TRACE_SMART_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
