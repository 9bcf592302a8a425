// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART real-time behaviour with time constraints, measured (paper
 * §3.2, §4.1): priority decides who meets its deadlines.  The tasks are
 * threads pinned to CPU 0 (see rt.h).
 *
 *   priority     a priority-1 and a priority-0 task needing 60% each: the
 *                high one meets >= 99%, the low one sheds (is notified)
 *   earlier_deadline_lower_priority  §4.1: a lower-priority task with an
 *                earlier deadline runs first when the higher one can still
 *                make its deadline
 */
#include <semaphore.h>
#include "../kselftest_harness.h"
#include "util.h"
#include "rt.h"

/*
 * Same two tasks, H at priority 1: H is always the most important and
 * alone fits (60%), so it meets its deadlines; L never fits beside it and
 * is shed: every L job that is not met (and did begin) is notified.
 */
TEST_F(rt, priority)
{
	struct ptask t[2];
	struct rt_note_stats *ns = malloc(sizeof(*ns));
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
		t[i].estimate = 24 * MS;
		t[i].work = t[i].estimate;
		t[i].njobs = NJOBS;
	}
	run_ptasks(_metadata, t, 2);
	rt_note_stats(t, 2, ns);
	for (i = 0; i < 2; i++)
		ptask_log(_metadata, &t[i]);

	for (i = 0; i < 2; i++)
		ASSERT_NO_ERRORS(&t[i]);
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

	s->setup_err[a->who] = rt_enter_smart(a->who ? 0 : 1, 1024);
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
		if (a->who) {
			sem_post(&s->l_begun);
		} else {
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
		       smart_ms(l->t_done - l->deadline),
		       l->end_r ? strerror(-l->end_r) : smart_status_name(l->status),
		       smart_ms(h->t_done - h->deadline),
		       h->end_r ? strerror(-h->end_r) : smart_status_name(h->status),
		       l->t_done < h->t_done ? "before" : "after", ok ? "" : "  <- bad");
		if (!ok)
			TH_LOG("round %2d: L began %+.3f ms after H; L off the CPU for %.3f ms "
			       "from %+.3f ms (after %.3f ms of its work); H off the CPU for "
			       "%.3f ms from %+.3f ms (after %.3f ms); used L %.3f H %.3f ms", k,
			       smart_ms(l->t_begin - h->t_begin), smart_ms(l->gap),
			       smart_ms(l->gap_t - h->t_begin), smart_ms(l->gap_at),
			       smart_ms(h->gap), smart_ms(h->gap_t - h->t_begin),
			       smart_ms(h->gap_at),
			       smart_ms(l->end_r ? 0 : l->used), smart_ms(h->end_r ? 0 : h->used));
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

TEST_HARNESS_MAIN
