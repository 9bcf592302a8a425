// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the SCHED_SMART real-time tests (rt_*_test.c): the
 * periodic task engine and the attribution of notifications; see rt.h.
 */
#include <stdarg.h>
#include "../kselftest.h"
#include "util.h"
#include "rt.h"

/* enter SCHED_SMART at (prio, share) with the recorder's signal; 0 or -errno */
int rt_enter_smart(int prio, unsigned int share)
{
	struct smart_attr a = {
		.size = sizeof(a),
		.mask = SMART_ATTR_PRIORITY | SMART_ATTR_SHARE | SMART_ATTR_SIGNAL,
		.priority = prio, .share = share, .notify_signal = SMART_NOTE_SIG,
	};

	return smart_setattr(0, &a, 0) ? -errno : 0;
}

static void *ptask_run(struct ptask *t);

static void ptask_error(struct ptask *t, const char *fmt, ...)
{
	va_list ap;

	if (!t->errors++) {
		va_start(ap, fmt);
		vsnprintf(t->errmsg, sizeof(t->errmsg), fmt, ap);
		va_end(ap);
	}
}

/*
 * Set up (SMART first, then CPU 0: in opt-in mode a fair task on CPU 0
 * would wait behind SMART hogs for the fair server), tell run_ptasks(),
 * and wait for it to fix the first release.
 */
void *ptask_fn(void *arg)
{
	struct ptask *t = arg;
	int ret = 0;

	t->tid = sys_gettid();
	t->job = calloc(t->njobs, sizeof(*t->job));
	if (t->job && t->smart)
		ret = rt_enter_smart(t->prio, t->share);
	if (!t->job)
		ptask_error(t, "out of memory");
	else if (ret)
		ptask_error(t, "smart_setattr(prio %d share %u): %s", t->prio, t->share,
			    strerror(-ret));
	else if (pin_to(0, 0))
		ptask_error(t, "sched_setaffinity(CPU 0): %s", strerror(errno));
	pthread_barrier_wait(t->ready);
	pthread_barrier_wait(t->go);
	if (t->errors)
		return NULL;
	return ptask_run(t);
}

static void *ptask_run(struct ptask *t)
{
	struct smart_constraint c, e;
	long long cpu0 = 0, r, d, work_end, done;
	unsigned long long cookie;
	bool dropped;
	long notes0;
	int k, ret;

	for (k = 0; k < t->njobs; k++) {
		struct pjob *j = &t->job[k];

		r = t->t0 + k * t->period;
		d = r + t->period;
		/*
		 * Like the paper's video player (§6.1), a work-ahead task
		 * goes on to the next frame as soon as it is done with (or
		 * dropped) the last one, only never more than a period early.
		 */
		sleep_until_ns(t->workahead && k ? r - t->period : r);
		j->wake = mono_ns() - r;
		if (k == 0 && t->spread && pin_mask(0, t->spread))
			ptask_error(t, "sched_setaffinity(%#lx): %s", t->spread,
				    strerror(errno));
		if (k == 0)
			cpu0 = thread_cpu_ns();
		if (!t->constrained) {
			spin_cpu_ns(t->work);
			done = mono_ns();
			j->done = done - r;
			j->what = done <= d ? 'M' : 'L';
			if (done <= d)
				t->met++;
			else
				t->late++;
			if (done - r > t->worst)
				t->worst = done - r;
			continue;
		}
		if (r + j->wake >= d) {
			j->what = 'S';
			t->skipped++;
			continue;
		}
		cookie = ((unsigned long long)t->tid << 32) | k;
		smart_tc_init(&c, t->flags, d, t->estimate, t->period, cookie);
		notes0 = smart_note_count();
		ret = smart_tc_begin(&c);
		if (ret == -ETIME) {
			j->what = 'S';
			t->skipped++;
			continue;
		}
		if (ret) {
			j->what = '!';
			ptask_error(t, "job %d: begin: %s", k, strerror(-ret));
			continue;
		}
		if (c.status == SMART_STATUS_INFEASIBLE)
			t->infeasible++;
		dropped = false;
		work_end = thread_cpu_ns() + t->work;
		while (thread_cpu_ns() < work_end) {
			if (t->drop && smart_note_count() != notes0 &&
			    smart_note_self()->last.cookie == cookie) {
				dropped = true;
				break;
			}
		}
		done = mono_ns();
		j->done = done - r;
		e = c;
		ret = smart_tc_end(&e);
		if (dropped) {
			j->what = 'D';
			t->dropped++;
		} else if (ret == -ENOENT) {
			j->what = 'E';
			t->expired++;
		} else if (ret) {
			j->what = '!';
			ptask_error(t, "job %d: end: %s", k, strerror(-ret));
		} else if (e.status == SMART_STATUS_MET) {
			j->what = 'M';
			t->met++;
		} else {
			j->what = 'L';
			t->late++;
		}
		if (!dropped && done - r > t->worst)
			t->worst = done - r;
		ret = sched_getcpu();
		t->moves += k && ret != t->cpu;
		t->cpu = ret;
	}
	sleep_until_ns(t->t0 + t->njobs * t->period);
	t->cpu_ns = thread_cpu_ns() - cpu0;
	return NULL;
}

/*
 * Attribute the process' notifications to the tasks by their cookies
 * (tid << 32 | job) and check they ran in the thread that owns the cookie.
 */
void rt_note_stats(struct ptask *t, int nt, struct rt_note_stats *s)
{
	struct smart_note_log *log = smart_notes();
	int i, j, n = log->n < SMART_NOTE_MAX ? log->n : SMART_NOTE_MAX;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < n; i++) {
		const struct smart_note *no = &log->note[i];
		struct ptask *p = NULL;
		long long d;

		for (j = 0; j < nt; j++)
			if (t[j].tid == no->tid)
				p = &t[j];
		if (!p || (pid_t)(no->cookie >> 32) != no->tid) {
			s->stray++;
			continue;
		}
		d = p->t0 + ((long long)(no->cookie & 0xffffffffu) + 1) * p->period;
		p->notified++;
		p->n_infeasible += no->code == SMART_NOTIFY_INFEASIBLE;
		p->n_expired += no->code == SMART_NOTIFY_EXPIRED;
		s->lead[s->n++] = d - no->t;
		s->before += no->t < d;
		if (no->t >= d && s->nlate < (int)ARRAY_SIZE(s->late)) {
			s->late[s->nlate].name = p->name;
			s->late[s->nlate].job = no->cookie & 0xffffffffu;
			s->late[s->nlate++].arrival = no->t - (d - p->period);
		}
	}
	qsort(s->lead, s->n, sizeof(s->lead[0]), smart_cmp_ll);
}
