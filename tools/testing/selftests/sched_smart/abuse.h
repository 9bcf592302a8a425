/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The measurement shared by the abuse_*_test.c selftests: SCHED_SMART
 * abuse by an unprivileged user.
 *
 * Each test runs two processes pinned to CPU 0, both uid/gid 65534 with
 * no capabilities: a victim that spins, and an attacker that spins while
 * it plays one trick with the SMART interface.  In opt-in mode root first
 * moves both into SCHED_SMART at priority 0, share 1024; with
 * sched_smart=all both stay SCHED_OTHER (SMART schedules them anyway).
 * After a 0.5 s warm-up the victim's CPU time over a 3 s window, measured
 * with its CPU clock (sum_exec_runtime), must be at least 45% of the
 * window: with equal priority and share, and one attacker task runnable
 * at a time, its fair part of CPU 0 is 50%.  The measuring process runs
 * on CPU 1 (when there is one) as SCHED_FIFO.  About 4 s per test.
 *
 * The attacker counts its calls in shared memory; each test also checks
 * that the calls it expects to be refused were refused and that nothing
 * else failed (ETIME, a deadline that passed while the caller was
 * preempted, is counted, not a failure).  Every test prints the split it
 * measured, e.g. "largest_estimate: victim 49.8% attacker 50.1%"; "other"
 * is the rest of CPU 0 (interrupts, kernel threads, the exits of the fork
 * bomb's children).  Host stalls of the virtual CPU: see abuse_run().
 *
 * The attacker side and the measurement are in abuse.c; the fixture and
 * abuse_run(), which use the kselftest harness, are at the end of this
 * file.
 */
#ifndef SMART_SELFTEST_ABUSE_H
#define SMART_SELFTEST_ABUSE_H

#include "util.h"

#define CPU0		1UL	/* affinity mask of CPU 0 */
#define WARMUP_NS	(500 * MS)
#define WINDOW_NS	(3 * NSEC_PER_SEC)
#define VICTIM_MIN_PCT	45.0
#define MAX_AHEAD	((long long)SMART_CONSTRAINT_MAX_AHEAD_NS)

enum { VICTIM, ATTACKER };

struct abuse_role {
	int fails;			/* setup problems, the first in msg */
	char msg[160];
};

/* Shared by the test, the victim and the attacker (and its children). */
struct abuse {
	int mode;			/* smart_mode(): 0 opt-in, 1 all */
	int cpu1;			/* the measuring process' CPU */
	long long p[2];			/* case parameters */
	struct abuse_role role[2];
	long long iters;		/* attack loop iterations */
	long long ok;			/* calls that did what they should */
	long long refused;		/* raise attempts refused */
	long long raised;		/* raise attempts that raised something */
	long long bad;			/* calls that did what they should not */
	char bad_msg[200];		/* the first of those */
	long long child_cpu;		/* CPU ns of the attacker's exited children */
	long long stall[2];		/* CPU ns charged in host stalls, see abuse_spin() */
	long long victim_cpu;		/* the victim's CPU clock, see abuse_spin() */
	long long beat;			/* CLOCK_MONOTONIC of abuse_spin()'s last turn */
	long long big_stall_at;		/* and of the last stall of 20 ms or more */
	long long notes;		/* notifications the attacker received */
	long long infeasible;		/* begins that reported INFEASIBLE */
	long long late;			/* begins too late (ETIME): preempted */
	int extreme[3];			/* huge_estimate: begin's 0 or -errno */
	double min_pct;			/* the victim's minimum, if not VICTIM_MIN_PCT */
	bool exit_overlap;		/* the attacker's exits overlap its next task */
};

/* one window of the split: victim and attacker in % of CPU 0 */
struct abuse_split {
	long long wall;			/* ns */
	long long stall;		/* ns charged in host stalls */
	long long late;			/* ns the measuring process woke late */
	double victim, attacker;
};

/* abuse_add() - add @n to the shared counter *@v */
void abuse_add(long long *v, long long n);

/* abuse_bad() - count a call that did what it must not; keep the first message */
void __attribute__((format(printf, 2, 3)))
abuse_bad(struct abuse *s, const char *fmt, ...);

/* abuse_err_name() - "success" for 0, else strerror(-@r) */
const char *abuse_err_name(int r);

/* abuse_enter_unprivileged() - become uid 65534 in the victim or attacker, check the start */
void abuse_enter_unprivileged(struct abuse *s, int who);

/* abuse_spin() - busy-loop for @ns of this thread's CPU time, noting host stalls */
void abuse_spin(struct abuse *s, int who, long long ns);

/* abuse_victim_body() - the victim: abuse_spin() forever (a hog_body_t) */
void abuse_victim_body(void *p);

/* abuse_late() - is @r ETIME (a deadline passed while preempted)? counted in s->late */
bool abuse_late(struct abuse *s, int r);

/* abuse_tc_begin() - begin a constraint; 0 or -errno, c->status set on success */
int abuse_tc_begin(struct smart_constraint *c, unsigned int flags,
		   long long deadline, unsigned long long estimate,
		   unsigned long long period);

/* abuse_measure() - measure one window of the victim/attacker split of CPU 0 */
struct abuse_split abuse_measure(struct hog_set *h, struct abuse *s);

/*
 * The fixture and abuse_run() use the kselftest harness, which only one
 * file of a binary may include (it defines the test runner): they are
 * compiled in each test file, which includes the harness first.
 */
#ifdef __KSELFTEST_HARNESS_H

FIXTURE(abuse) {
	struct hog_set h;
	struct abuse *s;
	double victim, attacker;	/* % of CPU 0 in the window */
};

FIXTURE_SETUP(abuse)
{
	hogs_init(&self->h);
	REQUIRE_SMART();
	REQUIRE_ROOT();
	self->s = shared_alloc(sizeof(*self->s));
	ASSERT_NE(NULL, self->s);
	self->s->mode = smart_mode();
	ASSERT_TRUE(self->s->mode == 0 || self->s->mode == 1);
	/* the attacker's orphans come back to us: reaped in the teardown */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	self->s->cpu1 = controller_cpu();
	controller_setup(self->s->cpu1);
}

FIXTURE_TEARDOWN(abuse)
{
	hogs_kill(&self->h);
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

/*
 * Run the victim and @attack on CPU 0 for the warm-up and the window,
 * log the split and check the victim's part of CPU 0 and the setup of
 * both.  The tasks keep running until the teardown kills them.
 *
 * Host stalls: the time a stalled virtual CPU did not run is charged to
 * the task that was running, and the scheduler, which is fair in charged
 * time, pays the other one back afterwards.  A stall near either end of
 * the window therefore shifts the split by up to its length, with no
 * attack at all (a 300 ms stall, common when the host is busy, moves it
 * by up to 10%); one that spans a sample is charged only after it, so the
 * split then adds up to more or less than 100%.  The window is placed
 * away from stalls where it can be (wait_cpu0_quiet()); a window that fails
 * by less than the stalls seen in it (by the tasks, or by the measuring
 * process in its own wake-up), or than what is missing from or in excess
 * of 100%, is measured again, up to twice.  Leaving the stalls out instead
 * would be wrong the other way: the payback would then count as an unfair
 * gain.
 */
static void abuse_run(struct __test_metadata *_metadata,
		      FIXTURE_DATA(abuse) * self, const char *name,
		      hog_body_t attack)
{
	struct abuse *s = self->s;
	double min_pct = s->min_pct ?: VICTIM_MIN_PCT;
	long long deficit, other;
	double exits;
	struct abuse_split r;
	pid_t pid[2];
	int i, ret;

	pid[VICTIM] = hog_spawn(&self->h, CPU0, abuse_victim_body, s);
	pid[ATTACKER] = hog_spawn(&self->h, CPU0, attack, s);
	ASSERT_TRUE(pid[VICTIM] > 0 && pid[ATTACKER] > 0) {
		TH_LOG("hog_spawn: %s", strerror(errno));
	}
	for (i = 0; i < 2 && s->mode == 0; i++) {
		ret = smart_set(pid[i], SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, 0,
				SMART_SHARE_DEFAULT);
		ASSERT_EQ(0, ret) {
			TH_LOG("smart_setattr(%d, priority 0, share %u) as root: %s",
			       pid[i], SMART_SHARE_DEFAULT, strerror(-ret));
		}
	}
	hogs_go(&self->h);
	sleep_ns(WARMUP_NS);

	for (i = 0; i < 3; i++) {
		r = abuse_measure(&self->h, s);
		/*
		 * A task that forks its successor and exits runs its exit
		 * beside the successor: three threads then share CPU 0, and
		 * per thread the victim is entitled to a third of that time,
		 * as beside a waiting parent.  The exits are what neither side
		 * counts ("other"); the victim's part is half of the rest.
		 */
		if (s->exit_overlap) {
			exits = 100 - r.victim - r.attacker;
			exits = exits > 0 ? exits : 0;
			min_pct = (100 - exits) / 2 - 5;
			min_pct = min_pct < VICTIM_MIN_PCT ? min_pct : VICTIM_MIN_PCT;
			TH_LOG("%s: exits %.1f%% of CPU 0 beside the next link: the victim's "
			       "part is (100 - %.1f) / 2, at least %.1f%%", name, exits,
			       exits, min_pct);
		}
		TH_LOG("%s: victim %.1f%% attacker %.1f%% (other %.1f%%; mode %s, "
		       "window %.0f ms, host stalls %.0f ms, %lld attack iterations)",
		       name, r.victim, r.attacker,
		       100 - r.victim - r.attacker, smart_mode_name(), r.wall / 1e6,
		       r.stall / 1e6, s->iters);
		deficit = (min_pct - r.victim) / 100 * r.wall;
		other = llabs((long long)((100 - r.victim - r.attacker) / 100 * r.wall));
		if (r.victim >= min_pct ||
		    (r.stall < deficit && r.late < deficit && other < deficit))
			break;
		if (i < 2)
			TH_LOG("%s: host stall (%.0f ms charged, woke %.0f ms late, "
			       "%.0f ms unaccounted): measuring again", name,
			       r.stall / 1e6, r.late / 1e6, other / 1e6);
	}
	self->victim = r.victim;
	self->attacker = r.attacker;

	for (i = 0; i < 2; i++) {
		EXPECT_EQ(0, s->role[i].fails) {
			TH_LOG("%s setup: %s", i ? "attacker" : "victim",
			       s->role[i].msg);
		}
		EXPECT_TRUE(hog_alive(&self->h, i)) {
			TH_LOG("the %s died", i ? "attacker" : "victim");
		}
	}
	EXPECT_GE(self->victim, min_pct) {
		TH_LOG("%s: expected the victim to keep >= %.0f%% of CPU 0, got %.1f%% "
		       "(attacker %.1f%%)", name, min_pct, self->victim,
		       self->attacker);
	}
}

/* no call went wrong in the attacker */
#define EXPECT_NO_BAD(s) do {						\
	EXPECT_EQ(0, (s)->bad) {					\
		TH_LOG("%lld attacker calls went wrong; the first: %s",	\
		       (s)->bad, (s)->bad_msg);				\
	}								\
} while (0)

#endif /* __KSELFTEST_HARNESS_H */

#endif /* SMART_SELFTEST_ABUSE_H */
