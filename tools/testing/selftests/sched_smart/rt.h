/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the SCHED_SMART real-time tests (rt_*_test.c): periodic tasks
 * with one time constraint per job, the attribution of notifications to
 * them, and the rt fixture.  The tasks under test are threads of the test
 * process, pinned to CPU 0 with their hogs; the controlling thread sits on
 * CPU 1 (when there is one) as SCHED_FIFO.  A job meets its deadline when
 * smart_constraint_end() reports SMART_STATUS_MET after its work is done.
 * Notifications use an RT signal whose handler records the receiving
 * thread, si_code, cookie (thread id << 32 | job) and time.
 *
 * The part below "Needs the harness" (the fixture, and the helpers that
 * assert or log) is only seen by files that include "../kselftest_harness.h"
 * first: the harness defines symbols of its own, so only the test file of a
 * binary includes it, rt.c does not.  A test file that does not use the
 * fixture defines RT_NO_FIXTURE before including this.
 */
#ifndef SMART_SELFTEST_RT_H
#define SMART_SELFTEST_RT_H

#include "util.h"

#define CPU0		1UL	/* affinity mask of CPU 0 */
#define PERIOD		(40 * MS)
#define NJOBS		150	/* 6 s at 25 fps */

/**
 * rt_enter_smart() - enter SCHED_SMART at (@prio, @share) with the
 * recorder's signal; 0 or -errno
 */
int rt_enter_smart(int prio, unsigned int share);

/* ------------------------------------------------------------------ */
/* Periodic tasks                                                      */

/* a periodic task: one job per period, released at t0 + k * period */
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
	unsigned long spread;	/* if set, the affinity from the first release on */
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
	int cpu;		/* the CPU it finished its last job on */
	int moves;		/* jobs finished on another CPU than the one before */
	struct pjob {
		long long wake;	/* first ran after the release, from it */
		long long done;	/* work done or dropped, from the release */
		char what;	/* M met, L late, E expired, D dropped, S skipped, ! error */
	} *job;
	/* from the notification log */
	int notified, n_infeasible, n_expired;
};

/**
 * ptask_fn() - thread body of a periodic task (pthread_create() it with the
 * task); see run_ptasks()
 */
void *ptask_fn(void *arg);

/* the notifications to a set of periodic tasks */
struct rt_note_stats {
	int n;			/* notifications to the tasks */
	int stray;		/* to another thread, or with a foreign cookie */
	int before;		/* arrived before the deadline of their job */
	long long lead[SMART_NOTE_MAX];	/* deadline - arrival, sorted */
	struct {		/* the first of those that arrived late */
		const char *name;
		int job;
		long long arrival;	/* from the job's release */
	} late[8];
	int nlate;
};

/**
 * rt_note_stats() - attribute the process' notifications to the @nt tasks
 * @t by their cookies, into @s and the tasks' notified counters
 */
void rt_note_stats(struct ptask *t, int nt, struct rt_note_stats *s);

/* ------------------------------------------------------------------ */
/* Needs the harness                                                   */

#ifdef __KSELFTEST_HARNESS_H

/* the task saw no unexpected error */
#define ASSERT_NO_ERRORS(t) do {					\
	ASSERT_EQ(0, (t)->errors) {					\
		TH_LOG("%s: %d unexpected errors, first: %s", (t)->name,	\
		       (t)->errors, (t)->errmsg);			\
	}								\
} while (0)

/* run n periodic tasks, released together 100 ms after they are set up */
static inline void run_ptasks(struct __test_metadata *_metadata, struct ptask *t,
			      int n)
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
static inline void pjob_log(struct __test_metadata *_metadata, const struct ptask *t)
{
	long long *w = malloc(t->njobs * sizeof(*w));
	int k, n = 0, shown = 0;

	if (!w)
		return;
	for (k = 0; k < t->njobs; k++)
		w[k] = t->job[k].wake;
	qsort(w, t->njobs, sizeof(*w), smart_cmp_ll);
	TH_LOG("%s: wake-up after release p50 %.3f ms, p99 %.3f ms, max %.3f ms", t->name,
	       smart_ms(pct_ll(w, t->njobs, 50)), smart_ms(pct_ll(w, t->njobs, 99)),
	       smart_ms(w[t->njobs - 1]));
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
		       smart_ms(j->wake), smart_ms(j->done), smart_ms(t->period));
	}
}

/* a task's counts, errors and jobs */
static inline void ptask_log(struct __test_metadata *_metadata, const struct ptask *t)
{
	long long window = t->njobs * t->period;

	TH_LOG("%s (tid %d%s, prio %d): %d jobs: %d met, %d late, %d expired, %d dropped, "
	       "%d skipped; begin said INFEASIBLE %d; notified %d (INFEASIBLE %d, EXPIRED %d); "
	       "CPU %.1f ms = %.1f%%; worst completion %.1f ms after release",
	       t->name, t->tid, t->smart ? "" : ", SCHED_NORMAL", t->prio, t->njobs, t->met,
	       t->late, t->expired, t->dropped, t->skipped, t->infeasible, t->notified,
	       t->n_infeasible, t->n_expired, smart_ms(t->cpu_ns), 100.0 * t->cpu_ns / window,
	       smart_ms(t->worst));
	if (t->errors)
		TH_LOG("%s: %d errors, first: %s", t->name, t->errors, t->errmsg);
	if (t->job)
		pjob_log(_metadata, t);
}

#ifndef RT_NO_FIXTURE

/*
 * Hogs of a test on CPU 0 (killed at the end), resolution_ns to restore;
 * the notification recorder installed, the controlling thread set up.
 */
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
	REQUIRE_OWN_CLOCK();
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

#endif /* RT_NO_FIXTURE */
#endif /* __KSELFTEST_HARNESS_H */
#endif /* SMART_SELFTEST_RT_H */
