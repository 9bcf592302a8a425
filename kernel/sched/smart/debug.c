// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART state views (CONFIG_SCHED_DEBUG):
 *
 * - the SMART fields of /proc/<pid>/sched (smart_proc_show_task());
 * - /sys/kernel/debug/sched/smart/queues: every CPU's queues, one record
 *   per line, in a format meant for tools:
 *
 *	version 1
 *	now <CLOCK_MONOTONIC ns>
 *	cpu <n> curr <pid> nr_runnable <n> nr_queued <n>
 *	level <prio> vtime <virtual ns> shares <sum> nr <n>
 *	task <pid> state <R|Q|S> prio <p> share <S> bvft <v> lag <ns>
 *	     bias <ns> quantum <ns> exec <ns> deadline <ns> estimate <ns>
 *	     used <ns> own <share> group <cgroup id> period <ns>
 *	     demand <ns> comm <comm>  (one line)
 *	ws <pid> deadline <ns> left <ns>
 *
 *   Records after a cpu line belong to that CPU.  Levels are listed when
 *   not empty; tasks in value order (R running, Q waiting), then those
 *   asleep on the queue (S, sleep credit).  share is what the task gets
 *   on the queue, own the share it was given: they differ in a task group
 *   (group.c), whose cgroup id (the inode of its directory in the cgroup
 *   v2 hierarchy, 1 for the root) is group.  period and demand are what
 *   the scheduler inferred of a task that makes no constraint of its own
 *   (infer.c), 0 if it is not taken as periodic.  ws is the working schedule of
 *   the §3.2 decision, in deadline order.  comm is last and runs to the
 *   end of the line; a thread names itself, so every byte of it that is
 *   not printable ASCII, and the backslash, is printed as \ooo (octal) and
 *   no name can forge a record.  Each CPU is printed under its rq lock, so
 *   its records are one consistent snapshot.
 */
#include <linux/debugfs.h>
#include <linux/mmu_context.h>
#include <linux/ptrace.h>
#include <linux/string_helpers.h>
#include <linux/sched/smart.h>
#include <linux/seq_file.h>
#include "../sched.h"
#include "../autogroup.h"

/*
 * The cgroup id of @p's task group (1 for the root), 0 without groups.  An
 * autogroup has no cgroup of its own (css.cgroup is NULL): its tasks are in
 * the root cgroup.
 */
static u64 smart_group_id(struct task_struct *p)
{
#ifdef CONFIG_CGROUP_SCHED
	struct task_group *tg = task_group(p);

	if (task_group_is_autogroup(tg))
		tg = &root_task_group;
	return cgroup_id(tg->css.cgroup);
#else
	return 0;
#endif
}

static void smart_show_entity(struct seq_file *m, struct rq *rq,
			      struct smart_entity *sme)
{
	struct task_struct *p = smart_task_of(sme);
	char state = sme->state == SMART_SE_SLEEPING ? 'S' :
		     rq->donor == p ? 'R' : 'Q';

	bool periodic = smart_infer_periodic(&p->smart.infer);

	seq_printf(m, "task %d state %c prio %d share %u bvft %llu lag %lld bias %llu quantum %llu exec %llu deadline %llu estimate %llu used %llu own %u group %llu period %llu demand %llu comm ",
		   task_pid_nr(p), state, sme->prio, smart_user_share(sme->share),
		   sme->bvft,
		   smart_lag_ns(sme), sme->bias, sme->quantum, sme->exec,
		   sme->tc.deadline, sme->tc.estimate, sme->tc.used, sme->own_share,
		   smart_group_id(p), periodic ? p->smart.infer.period : 0,
		   periodic ? p->smart.infer.demand : 0);
	seq_escape_str(m, p->comm, ESCAPE_OCTAL | ESCAPE_NAP | ESCAPE_APPEND,
		       "\\");
	seq_putc(m, '\n');
}

static void smart_show_cpu(struct seq_file *m, int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	struct smart_queue *q = &rq->smart.q;
	struct smart_entity *sme;
	struct rb_node *n;
	struct rq_flags rf;
	unsigned int i;

	rq_lock_irqsave(rq, &rf);
	update_rq_clock(rq);
	rq->donor->sched_class->update_curr(rq);

	seq_printf(m, "cpu %d curr %d nr_runnable %u nr_queued %u\n", cpu,
		   rq->donor->sched_class == &smart_sched_class ?
		   task_pid_nr(rq->donor) : 0, q->nr_runnable, q->nr_queued);
	for (i = 0; i < SMART_NR_PRIO; i++) {
		const struct smart_level *l = &q->level[i];

		if (l->nr)
			seq_printf(m, "level %d vtime %llu shares %llu nr %u\n",
				   (int)i + SMART_PRIO_MIN, l->vtime,
				   smart_user_shares(l->shares), l->nr);
	}
	for (n = rb_first_cached(&q->tree); n; n = rb_next(n))
		smart_show_entity(m, rq, rb_entry(n, struct smart_entity, node));
	list_for_each_entry(sme, &q->sleepers, sleep_node)
		smart_show_entity(m, rq, sme);

	/* The working schedule as a decision now would build it, on the side. */
	smart_pick_tc(q, ktime_get_ns(), &rq->smart.scratch, NULL);
	for (i = 0; i < rq->smart.scratch.nr; i++) {
		sme = rq->smart.scratch.se[i];
		seq_printf(m, "ws %d deadline %llu left %llu\n",
			   task_pid_nr(smart_task_of(sme)), sme->tc.deadline,
			   smart_tc_left(&sme->tc));
	}
	rq_unlock_irqrestore(rq, &rf);
}

static int smart_queues_show(struct seq_file *m, void *v)
{
	int cpu;

	seq_puts(m, "version 1\n");
	seq_printf(m, "now %llu\n", ktime_get_ns());
	cpus_read_lock();
	for_each_online_cpu(cpu)
		smart_show_cpu(m, cpu);
	cpus_read_unlock();
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(smart_queues);

static __init int smart_debug_init(void)
{
	struct dentry *sched = debugfs_lookup("sched", NULL);
	struct dentry *dir = debugfs_create_dir("smart", sched);

	debugfs_create_file("queues", 0444, dir, NULL, &smart_queues_fops);
	dput(sched);
	return 0;
}
late_initcall_sync(smart_debug_init);

#define SMART_P(name, val) \
	seq_printf(m, "%-45s:%21lld\n", "smart." name, (long long)(val))

/**
 * smart_proc_show_task() - the SMART lines of /proc/<pid>/sched
 * @p:	the task
 * @m:	the seq_file of proc_sched_show_task()
 *
 * Anyone may read the file, as they may see a task's nice value; what a
 * task's time constraint says (deadline, estimate, CPU used under it) is
 * its own business, shown only to a reader that may ptrace-read it.
 */
void smart_proc_show_task(struct task_struct *p, struct seq_file *m)
{
	bool private = ptrace_may_access(p, PTRACE_MODE_READ_FSCREDS);
	struct sched_smart_entity *sse = &p->smart;
	struct smart_entity *sme = &sse->ent;
	struct rq_flags rf;
	struct rq *rq;

	rq = smart_lock_charged(p, &rf);
	SMART_P("prio", sme->prio);
	SMART_P("kthread_prio", sme->kthread_prio);
	SMART_P("share", smart_user_share(sme->share));
	SMART_P("own_share", sme->own_share);
	SMART_P("state", sme->state);
	SMART_P("parked", sse->parked);
	SMART_P("bvft", sme->bvft);
	SMART_P("lag_ns", smart_lag_ns(sme));
	SMART_P("bias", sme->bias);
	SMART_P("quantum", sme->quantum);
	SMART_P("exec", sme->exec);
	if (private) {
		SMART_P("deadline", sme->tc.deadline);
		SMART_P("estimate", sme->tc.estimate);
		SMART_P("used", sme->tc.used);
	}
	SMART_P("notify_signal", sse->notify_signal);
	SMART_P("constraints_met", sse->constraints_met);
	SMART_P("constraints_missed", sse->constraints_missed);
	SMART_P("notifications", sse->notifications);
	SMART_P("infer_periodic", smart_infer_periodic(&sse->infer));
	SMART_P("infer_period", sse->infer.period);
	SMART_P("infer_jitter", sse->infer.jitter);
	SMART_P("infer_demand", sse->infer.demand);
	SMART_P("infer_implicit", !!(sse->tc_flags & SMART_TC_IMPLICIT));
	SMART_P("infer_met", sse->infer_met);
	SMART_P("infer_missed", sse->infer_missed);
	task_rq_unlock(rq, p, &rf);
}
