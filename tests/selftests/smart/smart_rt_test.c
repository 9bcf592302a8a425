// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART real-time behaviour with time constraints, measured (paper
 * §3.2, §3.4, §4.1, §6.1).  The tasks under test are threads of the test
 * process, pinned to CPU 0 with their hogs; the controlling thread sits on
 * CPU 1 (when there is one) as SCHED_FIFO.  A job meets its deadline when
 * smart_constraint_end() reports SMART_STATUS_MET after its work is done.
 * Notifications use an RT signal whose handler records the receiving
 * thread, si_code, cookie (thread id << 32 | job) and time.
 *
 *   underload    25 fps task needing 20% among 3 hogs of its priority and
 *                share: >= 99% of 150 deadlines met; the same task without
 *                constraints as SCHED_NORMAL among SCHED_NORMAL hogs is
 *                reported for comparison
 *   overload     two tasks needing 60% each, dropping a job when notified
 *                and working ahead: each gets about half the CPU, and
 *                notifications arrive before the deadline of their job
 *   priority     a priority-1 and a priority-0 task needing 60% each: the
 *                high one meets >= 99%, the low one sheds (is notified)
 *   earlier_deadline_lower_priority  §4.1: a lower-priority task with an
 *                earlier deadline runs first when the higher one can still
 *                make its deadline
 *   resolution   a constrained task waking among a hog starts within
 *                resolution_ns + 0.5 ms of its latest start time (p99; jobs
 *                that waited through a host stall of the vCPU are left out,
 *                and a run over the limit is repeated once)
 *   stress       64 unpinned threads begin/end/replace/query random
 *                constraints for SMART_STRESS_SECONDS (default 30): only
 *                documented errors, and the kernel's met/missed/notification
 *                counters agree with what each thread saw
 */
#include <semaphore.h>
#include <stdarg.h>
#include "kselftest_harness.h"
#include "smart_util.h"

#define CPU0		1UL	/* affinity mask of CPU 0 */
#define MS		NSEC_PER_MSEC
#define PERIOD		(40 * MS)
#define NJOBS		150	/* 6 s at 25 fps */

static int stress_secs = 30;

static double ms(long long ns)
{
	return ns / 1e6;
}

FIXTURE(rt) {
	struct hog_set h;
	long long old_res;	/* resolution_ns to restore, -1: untouched */
};

FIXTURE_SETUP(rt)
{
	self->old_res = -1;
	hogs_init(&self->h);
	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_EQ(0, smart_note_install(SMART_NOTE_SIG));
	TH_LOG("mode %s, %d CPUs, quantum %llu ns, resolution %llu ns", smart_mode_name(),
	       online_cpus(), smart_tunable("quantum_ns", DEF_QUANTUM_NS),
	       smart_tunable("resolution_ns", DEF_RESOLUTION_NS));
	controller_setup(controller_cpu());
}

FIXTURE_TEARDOWN(rt)
{
	char buf[32];

	hogs_kill(&self->h);
	if (self->old_res >= 0) {
		snprintf(buf, sizeof(buf), "%lld\n", self->old_res);
		if (write_str(SMART_SYSCTL_DIR "resolution_ns", buf))
			TH_LOG("could not restore resolution_ns to %lld", self->old_res);
	}
}

/* spawn a spinning hog on CPU 0, SMART at (prio, share) if smart */
static void hog(struct __test_metadata *_metadata, struct hog_set *h, bool smart,
		int prio, unsigned int share)
{
	pid_t pid = hog_spawn(h, CPU0, hog_spin_forever, NULL);
	int r;

	ASSERT_GT(pid, 0) {
		TH_LOG("hog_spawn: %s", strerror(errno));
	}
	if (!smart) {
		ASSERT_EQ(SCHED_OTHER, sched_getscheduler(pid));
		return;
	}
	r = smart_set(pid, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, prio, share);
	ASSERT_EQ(0, r) {
		TH_LOG("smart_setattr(hog %d, prio %d share %u): %s", pid, prio, share,
		       strerror(-r));
	}
}

/* enter SCHED_SMART at (prio, share) with the recorder's signal; 0 or -errno */
static int enter_smart(int prio, unsigned int share)
{
	struct smart_attr a = {
		.size = sizeof(a),
		.mask = SMART_ATTR_PRIORITY | SMART_ATTR_SHARE | SMART_ATTR_SIGNAL,
		.priority = prio, .share = share, .notify_signal = SMART_NOTE_SIG,
	};

	return smart_setattr(0, &a, 0) ? -errno : 0;
}

/* ------------------------------------------------------------------ */
/* Periodic tasks                                                      */

struct ptask {
	/* in */
	const char *name;
	bool smart;		/* enter SCHED_SMART at prio/share */
	int prio;
	unsigned int share;
	bool constrained;	/* one time constraint per job */
	bool drop;		/* abandon a job when its notification arrives */
	bool workahead;		/* start a job up to a period before its release */
	unsigned int flags;	/* of the constraints */
	long long period, work, estimate;
	int njobs;
	long long t0;		/* first release, CLOCK_MONOTONIC (set by run_ptasks) */
	pthread_barrier_t *ready, *go;
	/* out */
	pid_t tid;
	int errors;
	char errmsg[160];
	int met;		/* work done, MET (unconstrained: done by the deadline) */
	int late;		/* work done, MISSED (unconstrained: after the deadline) */
	int expired;		/* work done after the constraint expired (ENOENT) */
	int dropped;		/* notified, work abandoned */
	int skipped;		/* release found at or past its deadline, or ETIME */
	int infeasible;		/* begin predicted INFEASIBLE */
	long long cpu_ns;	/* CPU time over [t0, t0 + njobs * period) */
	long long worst;	/* latest completion of a job, from its release */
	struct pjob {
		long long wake;	/* first ran after the release, from it */
		long long done;	/* work done or dropped, from the release */
		char what;	/* M met, L late, E expired, D dropped, S skipped, ! error */
	} *job;
	/* from the notification log */
	int notified, n_infeasible, n_expired;
};

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
static void *ptask_fn(void *arg)
{
	struct ptask *t = arg;
	int ret = 0;

	t->tid = sys_gettid();
	t->job = calloc(t->njobs, sizeof(*t->job));
	if (!t->job)
		ptask_error(t, "out of memory");
	else if (t->smart && (ret = enter_smart(t->prio, t->share)))
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
	}
	sleep_until_ns(t->t0 + t->njobs * t->period);
	t->cpu_ns = thread_cpu_ns() - cpu0;
	return NULL;
}

/* run n periodic tasks, released together 100 ms after they are set up */
static void run_ptasks(struct __test_metadata *_metadata, struct ptask *t, int n)
{
	pthread_barrier_t ready, go;
	pthread_t th[4];
	int i;

	ASSERT_LE(n, 4);
	ASSERT_EQ(0, pthread_barrier_init(&ready, NULL, n + 1));
	ASSERT_EQ(0, pthread_barrier_init(&go, NULL, n + 1));
	for (i = 0; i < n; i++) {
		t[i].ready = &ready;
		t[i].go = &go;
		ASSERT_EQ(0, pthread_create(&th[i], NULL, ptask_fn, &t[i]));
	}
	pthread_barrier_wait(&ready);
	t[0].t0 = mono_ns() + 100 * MS;
	for (i = 1; i < n; i++)
		t[i].t0 = t[0].t0;
	pthread_barrier_wait(&go);
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
}

/* wake-up latency over all jobs, and the jobs that went wrong */
static void pjob_log(struct __test_metadata *_metadata, const struct ptask *t)
{
	long long *w = malloc(t->njobs * sizeof(*w));
	int k, n = 0, shown = 0;

	if (!w)
		return;
	for (k = 0; k < t->njobs; k++)
		w[k] = t->job[k].wake;
	qsort(w, t->njobs, sizeof(*w), smart_cmp_ll);
	TH_LOG("%s: wake-up after release p50 %.3f ms, p99 %.3f ms, max %.3f ms", t->name,
	       ms(pct_ll(w, t->njobs, 50)), ms(pct_ll(w, t->njobs, 99)), ms(w[t->njobs - 1]));
	free(w);
	for (k = 0; k < t->njobs; k++)
		n += t->job[k].what != 'M' && t->job[k].what != 'D';
	for (k = 0; k < t->njobs && shown < 8; k++) {
		const struct pjob *j = &t->job[k];

		if (j->what == 'M' || j->what == 'D')
			continue;
		shown++;
		TH_LOG("%s: job %d (of %d not met or dropped): %s, woke %+.3f ms and finished "
		       "%+.3f ms after its release (deadline +%.0f ms)", t->name, k, n,
		       j->what == 'L' ? "late" : j->what == 'E' ? "expired" :
		       j->what == 'S' ? "skipped (woke after its deadline)" : "error",
		       ms(j->wake), ms(j->done), ms(t->period));
	}
}

static void ptask_log(struct __test_metadata *_metadata, const struct ptask *t)
{
	long long window = t->njobs * t->period;

	TH_LOG("%s (tid %d%s, prio %d): %d jobs: %d met, %d late, %d expired, %d dropped, "
	       "%d skipped; begin said INFEASIBLE %d; notified %d (INFEASIBLE %d, EXPIRED %d); "
	       "CPU %.1f ms = %.1f%%; worst completion %.1f ms after release",
	       t->name, t->tid, t->smart ? "" : ", SCHED_NORMAL", t->prio, t->njobs, t->met,
	       t->late, t->expired, t->dropped, t->skipped, t->infeasible, t->notified,
	       t->n_infeasible, t->n_expired, ms(t->cpu_ns), 100.0 * t->cpu_ns / window,
	       ms(t->worst));
	if (t->errors)
		TH_LOG("%s: %d errors, first: %s", t->name, t->errors, t->errmsg);
	if (t->job)
		pjob_log(_metadata, t);
}

struct note_stats {
	int n;			/* notifications to the tasks */
	int stray;		/* to another thread, or with a foreign cookie */
	int before;		/* arrived before the deadline of their job */
	long long lead[SMART_NOTE_MAX];	/* deadline - arrival, sorted */
};

/*
 * Attribute the process' notifications to the tasks by their cookies
 * (tid << 32 | job) and check they ran in the thread that owns the cookie.
 */
static void note_stats(struct ptask *t, int nt, struct note_stats *s)
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
	}
	qsort(s->lead, s->n, sizeof(s->lead[0]), smart_cmp_ll);
}

#define ASSERT_NO_ERRORS(t) do {					\
	ASSERT_EQ(0, (t)->errors) {					\
		TH_LOG("%s: %d unexpected errors, first: %s", (t)->name,	\
		       (t)->errors, (t)->errmsg);			\
	}								\
} while (0)

/* ------------------------------------------------------------------ */

TEST_F(rt, underload)
{
	struct ptask v = {
		.name = "video", .smart = true, .prio = 0, .share = 1024,
		.constrained = true, .flags = SMART_CONSTRAINT_NOTIFY,
		.period = PERIOD, .work = 8 * MS, .estimate = 8 * MS, .njobs = NJOBS,
	}, base = {
		.name = "video-normal", .period = PERIOD, .work = 8 * MS, .njobs = NJOBS,
	};
	struct note_stats *ns = malloc(sizeof(*ns));
	int i;

	ASSERT_NE(NULL, ns);
	for (i = 0; i < 3; i++)
		hog(_metadata, &self->h, true, 0, 1024);
	hogs_go(&self->h);
	sleep_ns(300 * MS);
	run_ptasks(_metadata, &v, 1);
	note_stats(&v, 1, ns);
	hogs_kill(&self->h);

	/* the same load without constraints, all SCHED_NORMAL */
	hogs_init(&self->h);
	for (i = 0; i < 3; i++)
		hog(_metadata, &self->h, false, 0, 0);
	hogs_go(&self->h);
	sleep_ns(300 * MS);
	run_ptasks(_metadata, &base, 1);
	hogs_kill(&self->h);

	ptask_log(_metadata, &v);
	TH_LOG("SMART, 3 SMART hogs of equal share: %d of %d deadlines met (%.1f%%), "
	       "%d notifications", v.met, v.njobs, 100.0 * v.met / v.njobs, ns->n);
	TH_LOG("for comparison, no constraints, SCHED_NORMAL task and hogs (%s): "
	       "%d of %d completed by the deadline (%.1f%%)",
	       smart_mode() == 1 ? "all mode: SCHED_NORMAL is SMART" : "opt-in: the fair class",
	       base.met, base.njobs, 100.0 * base.met / base.njobs);
	ptask_log(_metadata, &base);
	ASSERT_NO_ERRORS(&v);
	ASSERT_NO_ERRORS(&base);
	EXPECT_EQ(0, ns->stray);
	EXPECT_GE(v.met * 100, v.njobs * 99) {
		TH_LOG("underload (20%% of the CPU, fair share 25%%): expected >= 99%% of "
		       "deadlines met, got %d of %d", v.met, v.njobs);
	}
	free(ns);
}

/*
 * Two tasks needing 60% each, released together: at most one job fits
 * in a period.  A notified task drops its job and goes on to the next
 * one, at most a period ahead of its release (the paper's video player,
 * §6.1), so nobody idles and SMART's proportional share decides who
 * sheds: each gets 50% +-10% of the CPU, and every job that is dropped
 * was notified before its deadline (>= 95%; the lead times are reported).
 */
TEST_F(rt, overload)
{
	struct ptask t[2];
	struct note_stats *ns = malloc(sizeof(*ns));
	long long total, window = NJOBS * PERIOD;
	int i;

	ASSERT_NE(NULL, ns);
	memset(t, 0, sizeof(t));
	for (i = 0; i < 2; i++) {
		t[i].name = i ? "B" : "A";
		t[i].smart = true;
		t[i].share = 1024;
		t[i].constrained = true;
		t[i].drop = true;
		t[i].workahead = true;
		t[i].flags = SMART_CONSTRAINT_NOTIFY;
		t[i].period = PERIOD;
		t[i].work = 24 * MS;
		/*
		 * The paper's player asks for its measured time plus 10%
		 * (§6.1).  An estimate with no margin is overrun by the
		 * syscalls around the work, and a task past its estimate
		 * competes as a conventional one: it learns of its miss only
		 * at the deadline (EXPIRED), not ahead of it.
		 */
		t[i].estimate = t[i].work * 11 / 10;
		t[i].njobs = NJOBS;
	}
	run_ptasks(_metadata, t, 2);
	note_stats(t, 2, ns);

	total = t[0].cpu_ns + t[1].cpu_ns;
	for (i = 0; i < 2; i++)
		ptask_log(_metadata, &t[i]);
	TH_LOG("CPU: A %.1f%%, B %.1f%% of the window (idle %.1f%%); split A %.1f%% / B %.1f%%; "
	       "jobs met %d of %d periods", 100.0 * t[0].cpu_ns / window,
	       100.0 * t[1].cpu_ns / window, 100.0 - 100.0 * total / window,
	       total ? 100.0 * t[0].cpu_ns / total : 0, total ? 100.0 * t[1].cpu_ns / total : 0,
	       t[0].met + t[1].met, NJOBS);
	TH_LOG("%d notifications: %d before the job's deadline; lead (deadline - arrival) "
	       "min %.3f ms, median %.3f ms, max %.3f ms", ns->n, ns->before,
	       ms(ns->n ? ns->lead[0] : 0), ms(pct_ll(ns->lead, ns->n, 50)),
	       ms(ns->n ? ns->lead[ns->n - 1] : 0));

	for (i = 0; i < 2; i++) {
		ASSERT_NO_ERRORS(&t[i]);
	}
	ASSERT_LE(smart_notes()->n, SMART_NOTE_MAX);
	EXPECT_EQ(0, ns->stray) {
		TH_LOG("%d notifications ran in the wrong thread or carried a foreign cookie",
		       ns->stray);
	}
	ASSERT_GT(total, 0);
	for (i = 0; i < 2; i++) {
		double cpu = (double)t[i].cpu_ns / window;

		/* 120% demand, nobody idles: each about half the CPU. */
		EXPECT_TRUE(cpu >= 0.40 && cpu <= 0.60) {
			TH_LOG("%s: expected 50%% +-10%% of the CPU, got %.1f%%",
			       t[i].name, 100 * cpu);
		}
	}
	EXPECT_GT(ns->n, 0) {
		TH_LOG("120%% demand with NOTIFY constraints and no notification");
	}
	EXPECT_GE(ns->before * 100, ns->n * 95) {
		TH_LOG("expected >= 95%% of notifications before their job's deadline, got "
		       "%d of %d", ns->before, ns->n);
	}
	free(ns);
}

/*
 * Same two tasks, H at priority 1: H is always the most important and
 * alone fits (60%), so it meets its deadlines; L never fits beside it and
 * is shed: every L job that is not met (and did begin) is notified.
 */
TEST_F(rt, priority)
{
	struct ptask t[2];
	struct note_stats *ns = malloc(sizeof(*ns));
	int i, shed;

	ASSERT_NE(NULL, ns);
	memset(t, 0, sizeof(t));
	for (i = 0; i < 2; i++) {
		t[i].name = i ? "L (prio 0)" : "H (prio 1)";
		t[i].smart = true;
		t[i].prio = i ? 0 : 1;
		t[i].share = 1024;
		t[i].constrained = true;
		t[i].drop = true;
		t[i].flags = SMART_CONSTRAINT_NOTIFY;
		t[i].period = PERIOD;
		t[i].work = t[i].estimate = 24 * MS;
		t[i].njobs = NJOBS;
	}
	run_ptasks(_metadata, t, 2);
	note_stats(t, 2, ns);
	for (i = 0; i < 2; i++)
		ptask_log(_metadata, &t[i]);

	for (i = 0; i < 2; i++) {
		ASSERT_NO_ERRORS(&t[i]);
	}
	EXPECT_EQ(0, ns->stray);
	EXPECT_GE(t[0].met * 100, t[0].njobs * 99) {
		TH_LOG("priority 1 task needing 60%%: expected >= 99%% met, got %d of %d",
		       t[0].met, t[0].njobs);
	}
	shed = t[1].njobs - t[1].met - t[1].skipped;
	TH_LOG("L: %d met, %d not met (of which notified %d), %d skipped", t[1].met, shed,
	       t[1].notified, t[1].skipped);
	EXPECT_GE(t[1].notified * 100, shed * 95) {
		TH_LOG("the low-priority task must be told it is shed: %d of its %d unmet "
		       "jobs notified", t[1].notified, shed);
	}
	free(ns);
}

/* ------------------------------------------------------------------ */
/* §4.1: a lower-priority task with an earlier deadline goes first     */

#define ED_ROUNDS	20

struct ed_job {
	int begin_r, end_r;
	unsigned int status;		/* of end */
	long long t_begin;		/* begin returned, CLOCK_MONOTONIC */
	long long t_done;		/* work finished */
	long long deadline;
	long long used;			/* of end */
	long long gap;			/* longest time off the CPU while working */
	long long gap_at;		/* CPU time done when it started */
	long long gap_t;		/* when it started, CLOCK_MONOTONIC */
};

/* spin ns of CPU time, recording the longest stretch off the CPU */
static void spin_track(long long ns, struct ed_job *j)
{
	long long c0 = thread_cpu_ns(), c = c0, t = mono_ns(), c1, t1;

	j->gap = 0;
	while (c - c0 < ns) {
		c1 = thread_cpu_ns();
		t1 = mono_ns();
		/* wall time that passed without this thread's CPU time */
		if ((t1 - t) - (c1 - c) > j->gap) {
			j->gap = (t1 - t) - (c1 - c);
			j->gap_at = c - c0;
			j->gap_t = t;
		}
		c = c1;
		t = t1;
	}
}

struct ed_shared {
	pthread_barrier_t start, done;
	sem_t h_begun, l_begun;
	int setup_err[2];
	struct ed_job job[2][ED_ROUNDS];	/* [0] H, [1] L */
};

struct ed_arg {
	struct ed_shared *s;
	int who;			/* 0 H, 1 L */
};

static void *ed_fn(void *arg)
{
	struct ed_arg *a = arg;
	struct ed_shared *s = a->s;
	long long est = a->who ? 10 * MS : 20 * MS;
	long long dl = a->who ? 30 * MS : 100 * MS;
	struct smart_constraint c;
	long long cpu0;
	int k;

	s->setup_err[a->who] = enter_smart(a->who ? 0 : 1, 1024);
	if (!s->setup_err[a->who] && pin_to(0, 0))
		s->setup_err[a->who] = -errno;
	for (k = 0; k < ED_ROUNDS; k++) {
		struct ed_job *j = &s->job[a->who][k];

		pthread_barrier_wait(&s->start);
		if (a->who)
			sem_wait(&s->h_begun);	/* L begins right after H */
		smart_tc_init(&c, 0, mono_ns() + dl, est, 0, k);
		cpu0 = thread_cpu_ns();
		j->begin_r = smart_tc_begin(&c);
		j->t_begin = mono_ns();
		j->deadline = c.deadline;
		if (a->who)
			sem_post(&s->l_begun);
		else {
			sem_post(&s->h_begun);
			sem_wait(&s->l_begun);
		}
		/*
		 * Work until 90% of the estimate is used, counted from before
		 * begin (the calls cost CPU time too): a task that has used up
		 * its estimate is conventional (§3.2), and the priority-1 task
		 * would then rightly preempt L before its end call.
		 */
		spin_track(est * 9 / 10 - (thread_cpu_ns() - cpu0), j);
		j->t_done = mono_ns();
		j->end_r = smart_tc_end(&c);
		j->status = c.status;
		j->used = c.used;
		pthread_barrier_wait(&s->done);
	}
	return NULL;
}

TEST_F(rt, earlier_deadline_lower_priority)
{
	struct ed_shared *s = calloc(1, sizeof(*s));
	struct ed_arg arg[2];
	pthread_t th[2];
	int i, k, good = 0;

	ASSERT_NE(NULL, s);
	ASSERT_EQ(0, pthread_barrier_init(&s->start, NULL, 3));
	ASSERT_EQ(0, pthread_barrier_init(&s->done, NULL, 3));
	ASSERT_EQ(0, sem_init(&s->h_begun, 0, 0));
	ASSERT_EQ(0, sem_init(&s->l_begun, 0, 0));
	for (i = 0; i < 2; i++) {
		arg[i].s = s;
		arg[i].who = i;
		ASSERT_EQ(0, pthread_create(&th[i], NULL, ed_fn, &arg[i]));
	}
	for (k = 0; k < ED_ROUNDS; k++) {
		pthread_barrier_wait(&s->start);
		pthread_barrier_wait(&s->done);
		sleep_ns(50 * MS);
	}
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);

	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, s->setup_err[i]) {
			TH_LOG("%s: setup: %s", i ? "L" : "H", strerror(-s->setup_err[i]));
		}
	}
	for (k = 0; k < ED_ROUNDS; k++) {
		struct ed_job *h = &s->job[0][k], *l = &s->job[1][k];
		bool ok = !h->begin_r && !l->begin_r && !h->end_r && !l->end_r &&
			  h->status == SMART_STATUS_MET && l->status == SMART_STATUS_MET &&
			  l->t_done < h->t_done;

		good += ok;
		TH_LOG("round %2d: L (prio 0, 10 ms by +30) done %+.3f ms from its deadline, %s; "
		       "H (prio 1, 20 ms by +100) done %+.3f ms, %s; L %s H%s", k,
		       ms(l->t_done - l->deadline),
		       l->end_r ? strerror(-l->end_r) : smart_status_name(l->status),
		       ms(h->t_done - h->deadline),
		       h->end_r ? strerror(-h->end_r) : smart_status_name(h->status),
		       l->t_done < h->t_done ? "before" : "after", ok ? "" : "  <- bad");
		if (!ok)
			TH_LOG("round %2d: L began %+.3f ms after H; L off the CPU for %.3f ms from "
			       "%+.3f ms (after %.3f ms of its work); H off the CPU for %.3f ms from "
			       "%+.3f ms (after %.3f ms); used L %.3f H %.3f ms", k,
			       ms(l->t_begin - h->t_begin), ms(l->gap), ms(l->gap_t - h->t_begin),
			       ms(l->gap_at), ms(h->gap), ms(h->gap_t - h->t_begin), ms(h->gap_at),
			       ms(l->end_r ? 0 : l->used), ms(h->end_r ? 0 : h->used));
		EXPECT_EQ(0, h->begin_r);
		EXPECT_EQ(0, l->begin_r);
	}
	TH_LOG("%d of %d rounds: L finished first and both met their deadlines", good,
	       ED_ROUNDS);
	EXPECT_GE(good, ED_ROUNDS - 1) {
		TH_LOG("expected >= %d good rounds", ED_ROUNDS - 1);
	}
	free(s);
}

/* ------------------------------------------------------------------ */
/* resolution_ns: latest start times are honoured                       */

#define RES_JOBS	400
#define RES_PERIOD	(20 * MS)

struct res_task {
	long long t0;
	pthread_barrier_t ready, go;
	int err;
	int met, expired;
	long long wake[RES_JOBS];	/* first run after release - release */
	long long began[RES_JOBS];	/* begin returned, from the release */
	int begin_r[RES_JOBS], end_r[RES_JOBS];
	unsigned int status[RES_JOBS];	/* of begin */
};

/*
 * Under TCG the host deschedules a vCPU thread for a host time slice (about
 * 3 ms) now and then; the guest clock runs on and a task waiting through it
 * looks late.  The hog of this test watches for that: its CPU time and the
 * monotonic clock advance together by microseconds per iteration of its
 * loop.  When the guest preempts it, only the clock advances; when the
 * host stops the vCPU, the guest charges the whole gap to it as CPU time.
 * Jobs whose wait overlaps such a gap are left out of the statistics.
 */
#define RES_STALL_NS	(1000 * 1000)
#define RES_STALLS	4096

struct res_stalls {
	long n;
	long long at[RES_STALLS];	/* CLOCK_MONOTONIC before the gap */
	long long len[RES_STALLS];	/* CPU time charged in one iteration */
};

static void res_hog(void *arg)
{
	struct res_stalls *st = arg;
	long long t = mono_ns(), c = thread_cpu_ns(), t1, c1;

	for (;;) {
		t1 = mono_ns();
		c1 = thread_cpu_ns();
		if (c1 - c > RES_STALL_NS && st->n < RES_STALLS) {
			st->at[st->n] = t;
			st->len[st->n] = c1 - c;
			__atomic_store_n(&st->n, st->n + 1, __ATOMIC_RELEASE);
		}
		t = t1;
		c = c1;
	}
}

/* did the host stop the vCPU between @from and @to? */
static bool res_stalled(const struct res_stalls *st, long long from, long long to)
{
	long i, n = __atomic_load_n(&st->n, __ATOMIC_ACQUIRE);

	for (i = 0; i < n; i++)
		if (st->at[i] < to && st->at[i] + st->len[i] > from)
			return true;
	return false;
}

static void *res_fn(void *arg)
{
	struct res_task *t = arg;
	struct smart_constraint c;
	long long r, start;
	int k, ret;

	t->err = enter_smart(0, 1024);
	if (!t->err && pin_to(0, 0))
		t->err = -errno;
	pthread_barrier_wait(&t->ready);
	pthread_barrier_wait(&t->go);
	if (t->err)
		return NULL;
	for (k = 0; k < RES_JOBS; k++) {
		r = t->t0 + k * RES_PERIOD;
		/* begun before sleeping: D = R + 3 ms, latest start R + 1 ms */
		smart_tc_init(&c, 0, r + 3 * MS, 2 * MS, RES_PERIOD, k);
		ret = smart_tc_begin(&c);
		t->began[k] = mono_ns() - r;
		t->begin_r[k] = ret;
		t->status[k] = c.status;
		if (ret && ret != -ETIME) {
			t->err = ret;
			return NULL;
		}
		sleep_until_ns(r);
		start = mono_ns();
		t->wake[k] = start - r;
		/* within the estimate: the sleep and wake-up are charged to it too */
		spin_cpu_ns(3 * MS / 2);
		ret = smart_tc_end(&c);
		t->end_r[k] = ret;
		if (!ret && c.status == SMART_STATUS_MET)
			t->met++;
		if (ret == -ENOENT)
			t->expired++;
	}
	return NULL;
}

/* res_run(): too many jobs waited through a host stall */
#define RES_STALLED	LLONG_MIN

/*
 * One run of RES_JOBS jobs; returns the p99 lateness against the latest
 * start time over the jobs that did not wait through a host stall (below
 * zero when they started before it), or RES_STALLED when too many did.
 */
static long long res_run(struct __test_metadata *_metadata, struct res_task *t,
			 const struct res_stalls *st, long long res)
{
	long long late[RES_JOBS], wake[RES_JOBS], p99;
	int k, r, n = 0, stalled = 0;
	pthread_t th;

	memset(t, 0, sizeof(*t));
	if (pthread_barrier_init(&t->ready, NULL, 2) || pthread_barrier_init(&t->go, NULL, 2) ||
	    pthread_create(&th, NULL, res_fn, t)) {
		TH_LOG("cannot start the task");
		return LLONG_MAX;
	}
	pthread_barrier_wait(&t->ready);
	t->t0 = mono_ns() + 100 * MS;
	pthread_barrier_wait(&t->go);
	pthread_join(th, NULL);
	pthread_barrier_destroy(&t->ready);
	pthread_barrier_destroy(&t->go);
	if (t->err) {
		TH_LOG("task: %s", strerror(-t->err));
		return LLONG_MAX;
	}
	for (k = 0, r = 0; k < RES_JOBS; k++) {
		long long rel = t->t0 + k * RES_PERIOD;

		if (res_stalled(st, rel - MS / 2, rel + t->wake[k])) {
			stalled++;
			continue;
		}
		wake[n] = t->wake[k];
		late[n++] = t->wake[k] - MS;	/* start - (D - estimate) */
		if (t->wake[k] <= res + MS + MS / 2 || r++ >= 8)
			continue;
		TH_LOG("job %3d: began %+.3f ms from its release (%s, %s), first ran %+.3f ms "
		       "after it, end %s", k, ms(t->began[k]),
		       t->begin_r[k] ? strerror(-t->begin_r[k]) : "ok",
		       smart_status_name(t->status[k]), ms(t->wake[k]),
		       t->end_r[k] ? strerror(-t->end_r[k]) : "ok");
	}
	TH_LOG("host stalls of the vCPU seen by the hog so far: %ld; %d of %d jobs "
	       "waited through one and are left out", st->n, stalled, RES_JOBS);
	if (stalled > RES_JOBS / 10)
		return RES_STALLED;
	qsort(wake, n, sizeof(wake[0]), smart_cmp_ll);
	qsort(late, n, sizeof(late[0]), smart_cmp_ll);
	p99 = pct_ll(late, n, 99);
	TH_LOG("%d jobs among a hog, resolution %.1f ms: start - release p50 %.3f ms, "
	       "p99 %.3f ms, max %.3f ms; lateness vs latest start p99 %.3f ms (limit %.3f ms); "
	       "%d MET, %d expired", n, ms(res), ms(pct_ll(wake, n, 50)),
	       ms(pct_ll(wake, n, 99)), ms(wake[n - 1]), ms(p99),
	       ms(res + MS / 2), t->met, t->expired);
	return p99;
}

TEST_F(rt, resolution)
{
	const long long res = 1000000;
	struct res_task *t = calloc(1, sizeof(*t));
	unsigned long long old;
	struct res_stalls *st;
	long long p99 = 0;
	int r, run;
	pid_t pid;

	ASSERT_NE(NULL, t);
	st = mmap(NULL, sizeof(*st), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, st);
	r = read_u64(SMART_SYSCTL_DIR "resolution_ns", &old);
	ASSERT_EQ(0, r) {
		TH_LOG("read resolution_ns: %s", strerror(-r));
	}
	self->old_res = old;
	r = write_str(SMART_SYSCTL_DIR "resolution_ns", "1000000\n");
	ASSERT_EQ(0, r) {
		TH_LOG("write resolution_ns: %s", strerror(-r));
	}
	/* the hog, SMART at priority 0, share 1024, watching for host stalls */
	pid = hog_spawn(&self->h, CPU0, res_hog, st);
	ASSERT_GT(pid, 0) {
		TH_LOG("hog_spawn: %s", strerror(errno));
	}
	r = smart_set(pid, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, 0, 1024);
	ASSERT_EQ(0, r) {
		TH_LOG("smart_setattr(hog %d): %s", pid, strerror(-r));
	}
	hogs_go(&self->h);
	sleep_ns(300 * MS);
	/*
	 * The emulated guest's timers can also be late when the host delays
	 * QEMU's own timer thread, which no task in the guest can see.  A run
	 * over the limit is therefore repeated once; a scheduler that does not
	 * honour latest start times fails both.
	 */
	for (run = 0; run < 2; run++) {
		p99 = res_run(_metadata, t, st, res);
		if (p99 != RES_STALLED && p99 <= res + MS / 2)
			break;
		if (p99 != RES_STALLED && run == 0)
			TH_LOG("p99 %.3f ms over the limit: once more", ms(p99));
	}
	if (p99 == RES_STALLED) {
		munmap(st, sizeof(*st));
		free(t);
		SKIP(return, "the host stopped the vCPU during more than %d of %d jobs",
		     RES_JOBS / 10, RES_JOBS);
	}
	EXPECT_LE(p99, res + MS / 2) {
		TH_LOG("p99 lateness %.3f ms past the latest start time in two runs, expected "
		       "<= resolution_ns + 0.5 ms = %.3f ms", ms(p99), ms(res + MS / 2));
	}
	munmap(st, sizeof(*st));
	free(t);
}

/* ------------------------------------------------------------------ */
/* Stress                                                              */

#define ST_THREADS	64
#define ST_SEEN_BITS	(1 << 16)
#define ST_NOTIFY_BIT	0x80000000u	/* in the cookie: the constraint had NOTIFY */

struct st {
	pid_t tid;
	unsigned int seq;
	/* counted by the thread */
	long begins, begin_ok, etime, queries, query_ok, replaced;
	long end_met, end_missed, end_enoent;
	long unexpected;
	char msg[2][200];
	struct smart_counts base, fin;
	bool finished;
	/* counted by its signal handler */
	long signals, bad_signals;
	unsigned char seen[ST_SEEN_BITS / 8];
};

static struct st *ST;
static int st_stop;
static long st_stray;
static pthread_barrier_t st_drain;
static __thread struct st *st_self;

static void st_report(struct st *s, const char *fmt, ...)
{
	va_list ap;

	if (s->unexpected < 2) {
		va_start(ap, fmt);
		vsnprintf(s->msg[s->unexpected], sizeof(s->msg[0]), fmt, ap);
		va_end(ap);
	}
	s->unexpected++;
}

static void st_handler(int sig, siginfo_t *si, void *uc)
{
	unsigned long long ck = (unsigned long long)(uintptr_t)si->si_value.sival_ptr;
	unsigned int seq = ck & ~ST_NOTIFY_BIT & 0xffffffffu;
	struct st *s = st_self;

	(void)sig;
	(void)uc;
	if (!s) {
		__atomic_fetch_add(&st_stray, 1, __ATOMIC_RELAXED);
		return;
	}
	__atomic_store_n(&s->signals, s->signals + 1, __ATOMIC_RELAXED);
	if ((si->si_code != SMART_NOTIFY_INFEASIBLE && si->si_code != SMART_NOTIFY_EXPIRED) ||
	    (pid_t)(ck >> 32) != s->tid || !(ck & ST_NOTIFY_BIT)) {
		s->bad_signals++;
	} else if (seq < ST_SEEN_BITS) {
		if (s->seen[seq / 8] & (1 << (seq % 8)))
			s->bad_signals++;	/* twice for one constraint */
		s->seen[seq / 8] |= 1 << (seq % 8);
	}
}

static inline unsigned int st_rnd(unsigned long long *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (unsigned int)(*s >> 11);
}

/* deadline now + U(1..50 ms), estimate U(0.1..20 ms), period 0 or >= estimate */
static void st_random(struct st *s, struct smart_constraint *c, unsigned long long *r,
		      bool query)
{
	long long est = 100000 + st_rnd(r) % (20 * MS - 100000 + 1);
	long long dl = mono_ns() + MS + st_rnd(r) % (49 * MS + 1);
	long long period = st_rnd(r) % 2 ? 0 : est + st_rnd(r) % (40 * MS);
	bool notify = st_rnd(r) % 2;
	unsigned long long cookie;

	s->seq = (s->seq + 1) & ~ST_NOTIFY_BIT;
	cookie = ((unsigned long long)s->tid << 32) | (notify ? ST_NOTIFY_BIT : 0) | s->seq;
	smart_tc_init(c, (notify ? SMART_CONSTRAINT_NOTIFY : 0) |
		      (query ? SMART_CONSTRAINT_QUERY : 0), dl, est, period, cookie);
}

/* begin c; true if it was installed (or answered, for QUERY) */
static bool st_begin(struct st *s, struct smart_constraint *c)
{
	bool query = c->flags & SMART_CONSTRAINT_QUERY;
	long long before = mono_ns(), after;
	int r = smart_tc_begin(c);

	after = mono_ns();
	if (query)
		s->queries++;
	else
		s->begins++;
	if (r == -ETIME && (long long)c->deadline <= after) {
		s->etime++;
		return false;
	}
	if (r) {
		st_report(s, "begin%s (deadline %+.3f ms, estimate %.3f ms, period %.3f ms): %s",
			  query ? " QUERY" : "", ms(c->deadline - before), ms(c->estimate),
			  ms(c->period), strerror(-r));
		return false;
	}
	if (c->status != smart_status_for(c))
		st_report(s, "begin: available %.3f ms estimate %.3f ms but status %s",
			  ms(c->available), ms(c->estimate), smart_status_name(c->status));
	if ((long long)c->available > (long long)c->deadline - before)
		st_report(s, "begin: available %.3f ms > time to the deadline %.3f ms",
			  ms(c->available), ms(c->deadline - before));
	if (query)
		s->query_ok++;
	else
		s->begin_ok++;
	return true;
}

static void *st_fn(void *arg)
{
	struct st *s = arg;
	unsigned long long r;
	struct smart_constraint c, c2, e, q;
	long long cpu_b0 = 0, cpu_b1 = 0, cpu_e0, cpu_e1, cpu, before, after;
	bool active;
	int kind, ret;

	s->tid = sys_gettid();
	st_self = s;
	r = (unsigned long long)mono_ns() * 2654435761ULL ^ ((unsigned long long)s->tid << 32) ^ 1;
	if (pin_mask(0, 0))
		st_report(s, "sched_setaffinity(all): %s", strerror(errno));
	ret = smart_set_signal(SMART_NOTE_SIG);
	if (ret)
		st_report(s, "smart_setattr(SIGNAL): %s", strerror(-ret));
	s->base = smart_counts_self();

	while (!__atomic_load_n(&st_stop, __ATOMIC_RELAXED)) {
		kind = st_rnd(&r) % 16;
		if (kind == 0) {
			st_random(s, &q, &r, true);
			st_begin(s, &q);
			spin_cpu_ns(st_rnd(&r) % (2 * MS));
			continue;
		}
		st_random(s, &c, &r, false);
		cpu = thread_cpu_ns();
		active = st_begin(s, &c);
		if (active) {
			cpu_b0 = cpu;
			cpu_b1 = thread_cpu_ns();
		}
		spin_cpu_ns(st_rnd(&r) % (10 * MS));
		if (st_rnd(&r) % 4 == 0)
			sleep_ns(st_rnd(&r) % (20 * MS));
		if (kind == 1) {
			/* begin while (maybe) active: replaces it */
			st_random(s, &c2, &r, false);
			cpu = thread_cpu_ns();
			if (st_begin(s, &c2)) {
				s->replaced += active;
				active = true;
				c = c2;
				cpu_b0 = cpu;
				cpu_b1 = thread_cpu_ns();
			}
			spin_cpu_ns(st_rnd(&r) % (3 * MS));
		}
		memset(&e, 0, sizeof(e));
		e.size = sizeof(e);
		cpu_e0 = thread_cpu_ns();
		before = mono_ns();
		ret = smart_tc_end(&e);
		after = mono_ns();
		cpu_e1 = thread_cpu_ns();
		if (ret == -ENOENT) {
			s->end_enoent++;
			if (active && (long long)c.deadline > after)
				st_report(s, "end: ENOENT %.3f ms before the deadline",
					  ms(c.deadline - after));
			continue;
		}
		if (ret) {
			st_report(s, "end: %s", strerror(-ret));
			continue;
		}
		if (!active) {
			st_report(s, "end succeeded (cookie %#llx) with nothing begun",
				  (unsigned long long)e.cookie);
			continue;
		}
		if (e.cookie != c.cookie || e.deadline != c.deadline)
			st_report(s, "end: cookie %#llx deadline %llu, expected %#llx %llu",
				  (unsigned long long)e.cookie, (unsigned long long)e.deadline,
				  (unsigned long long)c.cookie, (unsigned long long)c.deadline);
		if (e.status == SMART_STATUS_MET) {
			s->end_met++;
			if (before > (long long)c.deadline)
				st_report(s, "end: MET though called %.3f ms after the deadline",
					  ms(before - c.deadline));
		} else if (e.status == SMART_STATUS_MISSED) {
			s->end_missed++;
			if (after <= (long long)c.deadline)
				st_report(s, "end: MISSED though back %.3f ms before the deadline",
					  ms(c.deadline - after));
		} else {
			st_report(s, "end: status %u", e.status);
		}
		if (!smart_used_ok(e.used, cpu_e0 - cpu_b1, cpu_e1 - cpu_b0))
			st_report(s, "end: used %.3f ms, thread CPU time from begin to end "
				  "%.3f..%.3f ms", ms(e.used), ms(cpu_e0 - cpu_b1),
				  ms(cpu_e1 - cpu_b0));
	}

	/* everyone stops, then in-flight notifications land, then count */
	pthread_barrier_wait(&st_drain);
	sleep_ns(200 * MS);
	s->fin = smart_counts_self();
	__atomic_store_n(&s->finished, true, __ATOMIC_RELEASE);
	return NULL;
}

TEST(stress)
{
	struct sched_param sp = { .sched_priority = 10 };
	long long t_end, deadline;
	struct sigaction sa;
	pthread_t th[ST_THREADS];
	long tot[12] = { 0 };
	int i, joined = 0, bad_counts = 0, bad_notes = 0;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	ST = calloc(ST_THREADS, sizeof(*ST));
	ASSERT_NE(NULL, ST);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = st_handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	ASSERT_EQ(0, sigaction(SMART_NOTE_SIG, &sa, NULL));
	ASSERT_EQ(0, pthread_barrier_init(&st_drain, NULL, ST_THREADS));
	/* threads start SCHED_NORMAL and enter SMART themselves */
	sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp);
	TH_LOG("mode %s, %d CPUs, %d threads, %d s", smart_mode_name(), online_cpus(),
	       ST_THREADS, stress_secs);

	for (i = 0; i < ST_THREADS; i++) {
		ASSERT_EQ(0, pthread_create(&th[i], NULL, st_fn, &ST[i]));
	}
	t_end = mono_ns() + stress_secs * NSEC_PER_SEC;
	while (mono_ns() < t_end)
		sleep_ns(NSEC_PER_SEC / 2);
	__atomic_store_n(&st_stop, 1, __ATOMIC_RELAXED);

	deadline = mono_ns() + 60 * NSEC_PER_SEC;
	for (i = 0; i < ST_THREADS; i++) {
		struct timespec ts = { .tv_sec = 0 };

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += (deadline - mono_ns()) / NSEC_PER_SEC + 1;
		if (!pthread_timedjoin_np(th[i], NULL, &ts))
			joined++;
	}
	TH_LOG("%d of %d threads finished within 60 s of the stop", joined, ST_THREADS);
	ASSERT_EQ(ST_THREADS, joined);

	for (i = 0; i < ST_THREADS; i++) {
		struct st *s = &ST[i];
		long long dmet = s->fin.met - s->base.met;
		long long dmissed = s->fin.missed - s->base.missed;
		long long dnotif = s->fin.notified - s->base.notified;

		tot[0] += s->begins;
		tot[1] += s->begin_ok;
		tot[2] += s->etime;
		tot[3] += s->queries;
		tot[4] += s->query_ok;
		tot[5] += s->replaced;
		tot[6] += s->end_met;
		tot[7] += s->end_missed;
		tot[8] += s->end_enoent;
		tot[9] += s->signals;
		tot[10] += s->unexpected;
		tot[11] += s->bad_signals;
		if (dmet + dmissed != s->begin_ok) {
			if (bad_counts++ < 4)
				TH_LOG("tid %d: kernel met %lld + missed %lld = %lld, but %ld "
				       "constraints were begun (ended %ld+%ld, ENOENT %ld, "
				       "replaced %ld)", s->tid, dmet, dmissed, dmet + dmissed,
				       s->begin_ok, s->end_met, s->end_missed, s->end_enoent,
				       s->replaced);
		}
		if (dnotif != s->signals) {
			if (bad_notes++ < 4)
				TH_LOG("tid %d: kernel counted %lld notifications, the thread "
				       "received %ld", s->tid, dnotif, s->signals);
		}
		if (s->unexpected)
			TH_LOG("tid %d: %ld unexpected: %s%s%s", s->tid, s->unexpected, s->msg[0],
			       s->unexpected > 1 ? "; " : "", s->unexpected > 1 ? s->msg[1] : "");
	}
	TH_LOG("begins %ld (ok %ld, ETIME %ld), replacements %ld, QUERY %ld (ok %ld); "
	       "ends MET %ld, MISSED %ld, ENOENT %ld; notifications %ld",
	       tot[0], tot[1], tot[2], tot[5], tot[3], tot[4], tot[6], tot[7], tot[8], tot[9]);
	EXPECT_EQ(0, tot[10]) {
		TH_LOG("%ld unexpected results (listed above)", tot[10]);
	}
	EXPECT_EQ(0, tot[11]) {
		TH_LOG("%ld notifications with a wrong si_code, a foreign cookie, a cookie of a "
		       "constraint without NOTIFY, or twice for one constraint", tot[11]);
	}
	EXPECT_EQ(0, st_stray) {
		TH_LOG("%ld notifications ran in a thread that begins no constraints", st_stray);
	}
	EXPECT_EQ(0, bad_counts) {
		TH_LOG("%d threads: met + missed != successful non-QUERY begins", bad_counts);
	}
	EXPECT_EQ(0, bad_notes) {
		TH_LOG("%d threads: notifications counted != received", bad_notes);
	}
	EXPECT_GT(tot[1], 0);
	free(ST);
}

int main(int argc, char **argv)
{
	const char *env = getenv("SMART_STRESS_SECONDS");

	if (env && atoi(env) > 0)
		stress_secs = atoi(env);
	_stress_object.timeout = stress_secs + 90;
	return test_harness_run(argc, argv);
}
