// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART abuse by an unprivileged user (issue 10, item 8).
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
 *   huge_estimate        the original report: begin with estimate 3<<62,
 *                        1<<63 and U64_MAX (deadline 5 s ahead) must fail
 *                        with EINVAL; if 3<<62 is accepted the attacker
 *                        spins under it (begun again when it expires)
 *   largest_estimate     the largest accepted estimate (60 s) with a
 *                        deadline 60 s ahead, begun again when it expires;
 *                        also the other way round: an RT quantum is at
 *                        most 100 ms, so the attacker must not starve for
 *                        the length of its estimate (>= 25% of CPU 0)
 *   largest_estimate_1s  the same with the deadline 1 s ahead
 *   begin_end_loop       begin (estimate 1..10 ms, deadline 2 x estimate
 *                        ahead), spin 300 us, end, in a tight loop
 *   periodic_full_load   back-to-back periodic constraints with period ==
 *                        estimate (load 1.0), 20 ms and 5 ms
 *   fork_bomb            fork as fast as possible; each child begins a
 *                        constraint (estimate 60 s, deadline 1 s ahead),
 *                        spins 2..5 ms and exits; the parent waits for
 *                        each, so one attacker task is runnable at a time;
 *                        hundreds of children must get to run
 *   fork_bomb_100ms      the same with an estimate of 100 ms, what a 60 s
 *                        estimate amounts to with the RT quantum bounded
 *   fork_bomb_plain      the same without constraints: what fork alone
 *                        does (each child joins at the queue virtual time,
 *                        eq. (3), which the sleeping parent's share holds
 *                        back)
 *   fork_chain           a fork bomb with no parent waiting on CPU 0: each
 *                        child begins a constraint (estimate 60 s),
 *                        spins 2..5 ms, forks the next and exits, so a
 *                        fresh task joins the queue every few ms
 *
 * The fork_bomb cases with a waiting parent are held to a third of CPU 0,
 * not 45%: the parent sleeps for a few ms at a time, so it keeps its place
 * and its share on the queue (the sleep credit of the paper's §3.3), and
 * three shares (victim, parent, child) then divide the CPU; per thread,
 * the victim is entitled to a third (sched-smart.rst, 4.8).  fork_chain is
 * the same attack without that third share, held to 45%.
 *   sleep_wake           spin 1..4 ms, sleep 50 us..1 ms, to farm the
 *                        sleep credit and the bias reset of a wake-up
 *   sleep_wake_constrained  the same inside a constraint (begin, spin,
 *                        sleep, end)
 *   nice_share_changes   attempts to raise share, priority and nice (all
 *                        must fail with EPERM/EACCES) between lowering
 *                        steps by smart_setattr and renice +1; no attempt
 *                        may leave the share or priority above where they
 *                        were (a renice moves the share by the ratio of
 *                        the nice weights)
 *   query_loop           SMART_CONSTRAINT_QUERY with extreme and ordinary
 *                        estimates: extremes EINVAL, nothing installed
 *   yield_loop           spin 100 us, sched_yield(), in a loop
 *   notify_flood         infeasible constraints with NOTIFY and a deadline
 *                        0.5 ms ahead, back to back: a notification per
 *                        constraint, handled by the attacker
 *   late_on_purpose      constraints that fit when begun (4 ms by 6 ms
 *                        ahead) worked on until notified, each time: a
 *                        task told it is late while it waits runs a slice
 *                        out of order to hear it, which must not add up
 *                        to more than its share
 *   policy_flips         sched_setattr() policy changes within what an
 *                        unprivileged user may do (all mode: SCHED_OTHER
 *                        <-> SCHED_BATCH; opt-in: re-setting SCHED_SMART,
 *                        the reset-on-fork flag, then leaving SMART and
 *                        trying to come back, which must fail)
 *
 * The attacker counts its calls in shared memory; each test also checks
 * that the calls it expects to be refused were refused and that nothing
 * else failed (ETIME, a deadline that passed while the caller was
 * preempted, is counted, not a failure).  Every test prints the split it
 * measured, e.g. "largest_estimate: victim 49.8% attacker 50.1%"; "other"
 * is the rest of CPU 0 (interrupts, kernel threads, the exits of the fork
 * bomb's children).  Host stalls of the virtual CPU: see abuse_run().
 */
#include <stdarg.h>
#include "kselftest_harness.h"
#include "smart_util.h"

#define CPU0		1UL	/* affinity mask of CPU 0 */
#define MS		NSEC_PER_MSEC
#define US		1000LL
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
	long long stall[2];		/* CPU ns charged in host stalls, see spin() */
	long long victim_cpu;		/* the victim's CPU clock, see spin() */
	long long beat;			/* CLOCK_MONOTONIC of the last turn of spin() */
	long long big_stall_at;		/* and of the last stall of 20 ms or more */
	long long notes;		/* notifications the attacker received */
	long long infeasible;		/* begins that reported INFEASIBLE */
	long long late;			/* begins too late (ETIME): preempted */
	int extreme[3];			/* huge_estimate: begin's 0 or -errno */
	double min_pct;			/* the victim's minimum, if not VICTIM_MIN_PCT */
};

/* the last is the original report's: it is the one left installed */
static const unsigned long long extreme_est[3] = {
	1ULL << 63, ~0ULL, 3ULL << 62,
};

static void add(long long *v, long long n)
{
	__atomic_fetch_add(v, n, __ATOMIC_RELAXED);
}

/* Count a call that did what it must not; keep the first message. */
static void __attribute__((format(printf, 2, 3)))
bad(struct abuse *s, const char *fmt, ...)
{
	va_list ap;

	if (__atomic_fetch_add(&s->bad, 1, __ATOMIC_RELAXED))
		return;
	va_start(ap, fmt);
	vsnprintf(s->bad_msg, sizeof(s->bad_msg), fmt, ap);
	va_end(ap);
}

static void __attribute__((format(printf, 2, 3)))
role_fail(struct abuse_role *r, const char *fmt, ...)
{
	va_list ap;

	if (r->fails++)
		return;
	va_start(ap, fmt);
	vsnprintf(r->msg, sizeof(r->msg), fmt, ap);
	va_end(ap);
}

static const char *err_name(int r)
{
	return r ? strerror(-r) : "success";
}

/*
 * In the victim or attacker, released by hogs_go(): become uid 65534
 * without capabilities (and RLIMIT_NICE 0, so nice can only go up), and
 * check the policy, priority and share the test set up.
 */
static void enter_unprivileged(struct abuse *s, int who)
{
	struct abuse_role *r = &s->role[who];
	struct rlimit rl = { 0, 0 };
	pid_t parent = getppid();
	struct smart_attr a;
	int ret;

	if (setrlimit(RLIMIT_NICE, &rl))
		role_fail(r, "setrlimit(RLIMIT_NICE, 0): %s", strerror(errno));
	ret = drop_to_nobody();
	if (ret) {
		role_fail(r, "drop to uid %d: %s", NOBODY_ID, strerror(-ret));
		_exit(1);
	}
	/* a credential change clears the parent-death signal */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	if (cap_eff() != 0)
		role_fail(r, "CapEff %#llx after the drop, expected 0", cap_eff());
	ret = smart_get(0, &a);
	if (ret) {
		role_fail(r, "smart_getattr: %s", strerror(-ret));
		return;
	}
	if (a.priority != 0 || a.share != SMART_SHARE_DEFAULT)
		role_fail(r, "start at priority %d share %u, expected 0 / %u",
			  a.priority, a.share, SMART_SHARE_DEFAULT);
	ret = sched_getscheduler(0);
	if (ret != (s->mode ? SCHED_OTHER : SCHED_SMART))
		role_fail(r, "start policy %d, expected %d", ret,
			  s->mode ? SCHED_OTHER : SCHED_SMART);
}

/*
 * Busy-loop for ns of this thread's CPU time.  A virtual CPU that the
 * host does not run for a while charges the whole gap to the task that
 * was running: its CPU clock jumps between two reads of a loop that takes
 * microseconds (being preempted does not move it).  Such jumps are
 * summed in stall[who]: see abuse_run().
 *
 * The victim also publishes its CPU clock at every turn: read from
 * another process, a CPU clock leaves out what the running thread used
 * since the last tick or scheduler event, while this one is exact to the
 * microsecond (a preempted victim does not use CPU time).  Every turn
 * also stamps @beat: CPU 0 is running (see measure()).
 */
#define STALL_NS	(2 * MS)
#define BIG_STALL_NS	(20 * MS)

static void spin(struct abuse *s, int who, long long ns)
{
	long long prev = thread_cpu_ns(), end = prev + ns, now;

	while ((now = thread_cpu_ns()) < end) {
		if (now - prev >= STALL_NS)
			add(&s->stall[who], now - prev);
		if (now - prev >= BIG_STALL_NS)
			__atomic_store_n(&s->big_stall_at, mono_ns(), __ATOMIC_RELAXED);
		if (who == VICTIM)
			__atomic_store_n(&s->victim_cpu, now, __ATOMIC_RELAXED);
		__atomic_store_n(&s->beat, mono_ns(), __ATOMIC_RELAXED);
		prev = now;
	}
}

static void victim_body(void *p)
{
	enter_unprivileged(p, VICTIM);
	for (;;)
		spin(p, VICTIM, 10 * MS);
}

/*
 * A deadline computed just before a preemption may have passed by the
 * time begin runs: ETIME is then the right answer, counted, not a fault.
 */
static bool late(struct abuse *s, int r)
{
	if (r != -ETIME)
		return false;
	add(&s->late, 1);
	return true;
}

/* begin a constraint; 0 or -errno, c->status set on success */
static int tc_begin(struct smart_constraint *c, unsigned int flags,
		    long long deadline, unsigned long long estimate,
		    unsigned long long period)
{
	smart_tc_init(c, flags, deadline, 0, 0, 0);
	c->estimate = estimate;
	c->period = period;
	return smart_tc_begin(c);
}

/* ------------------------------------------------------------------ */
/* The attacks                                                        */

/*
 * Begin with each extreme estimate and attack with the last one accepted.
 * The begins run on the measuring CPU: where the estimate wraps, one of
 * them (1 << 63) puts the caller behind everything for good, and it would
 * wait a second for the starvation rescue before the next call.  Those
 * that are accepted are ended, but the last (the report's 3 << 62), which
 * comes back to CPU 0 with the attacker.
 */
static void atk_huge_estimate(void *p)
{
	struct abuse *s = p;
	struct smart_constraint c;
	unsigned long long use = 0;
	long long dl;
	int i, r;

	enter_unprivileged(s, ATTACKER);
	if (pin_to(0, s->cpu1))
		bad(s, "move to CPU %d: %s", s->cpu1, strerror(errno));
	for (i = 0; i < 3; i++) {
		dl = mono_ns() + 5 * NSEC_PER_SEC;
		r = tc_begin(&c, 0, dl, extreme_est[i], 0);
		s->extreme[i] = r;
		if (r)
			continue;
		use = extreme_est[i];
		if (i < 2 && smart_tc_end(&c))
			bad(s, "end estimate %#llx: %s", use, strerror(errno));
	}
	if (pin_mask(0, CPU0))
		bad(s, "back to CPU 0: %s", strerror(errno));
	for (;; s->iters++) {
		if (use && mono_ns() >= dl) {
			dl = mono_ns() + 5 * NSEC_PER_SEC;
			r = tc_begin(&c, 0, dl, use, 0);
			if (r)
				bad(s, "begin again with estimate %#llx: %s", use,
				    err_name(r));
		}
		spin(s, ATTACKER, MS);
	}
}

/* p[0]: how far ahead the deadline is; estimate 60 s */
static void atk_largest_estimate(void *p)
{
	struct abuse *s = p;
	struct smart_constraint c;
	long long dl = 0;
	int r;

	enter_unprivileged(s, ATTACKER);
	for (;; s->iters++) {
		if (mono_ns() >= dl) {
			dl = mono_ns() + s->p[0];
			r = tc_begin(&c, 0, dl, MAX_AHEAD, 0);
			if (late(s, r)) {
				dl = 0;
			} else if (r) {
				bad(s, "begin estimate %lld ns deadline %lld ms ahead: "
				    "expected success, got %s", MAX_AHEAD,
				    s->p[0] / MS, err_name(r));
				dl = mono_ns() + 10 * MS;
			} else {
				s->ok++;
				s->infeasible += c.status == SMART_STATUS_INFEASIBLE;
			}
		}
		spin(s, ATTACKER, MS);
	}
}

static void atk_begin_end(void *p)
{
	struct abuse *s = p;
	struct smart_constraint c;
	long long est;
	int r;

	enter_unprivileged(s, ATTACKER);
	for (;; s->iters++) {
		est = (1 + s->iters % 10) * MS;
		r = tc_begin(&c, 0, mono_ns() + 2 * est, est, 0);
		if (r) {
			if (!late(s, r))
				bad(s, "begin estimate %lld ms: %s", est / MS,
				    err_name(r));
			spin(s, ATTACKER, 300 * US);
			continue;
		}
		spin(s, ATTACKER, 300 * US);
		r = smart_tc_end(&c);
		/* ENOENT: preempted past the deadline, it expired */
		if (r && r != -ENOENT)
			bad(s, "end: expected success or ENOENT, got %s", err_name(r));
		else
			s->ok++;
	}
}

/* p[0]: period == estimate */
static void atk_periodic(void *p)
{
	struct abuse *s = p;
	long long per = s->p[0], dl, start;
	struct smart_constraint c;
	int r;

	enter_unprivileged(s, ATTACKER);
	dl = mono_ns() + per;
	for (;; s->iters++) {
		r = tc_begin(&c, 0, dl, per, per);
		if (late(s, r)) {
			/* fell behind by a whole period: start over */
			dl = mono_ns() + per;
			continue;
		}
		if (r) {
			bad(s, "begin periodic estimate = period = %lld ms: %s",
			    per / MS, err_name(r));
			spin(s, ATTACKER, MS);
			dl = mono_ns() + per;
			continue;
		}
		s->ok++;
		/* use the whole estimate, or run to the deadline */
		start = thread_cpu_ns();
		while (thread_cpu_ns() - start < per && mono_ns() < dl)
			spin(s, ATTACKER, 50 * US);
		dl += per;
	}
}

static long long tv_ns(const struct timeval *tv)
{
	return tv->tv_sec * NSEC_PER_SEC + tv->tv_usec * US;
}

static void atk_fork_bomb(void *p)
{
	struct abuse *s = p;
	struct smart_constraint c;
	pid_t pid, me = getpid();
	struct rusage ru;
	int r;

	enter_unprivileged(s, ATTACKER);
	for (;; s->iters++) {
		pid = fork();
		if (pid < 0) {
			bad(s, "fork: %s", strerror(errno));
			spin(s, ATTACKER, MS);
			continue;
		}
		if (pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != me)
				_exit(1);
			r = s->p[0] ? tc_begin(&c, 0, mono_ns() + NSEC_PER_SEC,
					       s->p[0], 0) : 0;
			if (r && !late(s, r))
				bad(s, "child: begin estimate %lld ms: %s",
				    s->p[0] / MS, err_name(r));
			else if (!r)
				add(&s->ok, 1);
			spin(s, ATTACKER, (2 + s->iters % 4) * MS);
			_exit(0);
		}
		/* the child's whole CPU time, its exit included */
		if (wait4(pid, NULL, 0, &ru) == pid)
			add(&s->child_cpu, tv_ns(&ru.ru_utime) + tv_ns(&ru.ru_stime));
	}
}

/*
 * A chain: each link begins a constraint of p[0] ns (0: none), spins
 * 2..5 ms, forks the next link (on CPU 0, as it is) and exits.  The root
 * forks the first link, moves to the measuring CPU and waits there as a
 * subreaper; links stop when it is gone (killed by the teardown).
 */
static void atk_fork_chain(void *p)
{
	struct abuse *s = p;
	struct smart_constraint c;
	pid_t root = getpid(), pid;
	long long n;
	int r;

	enter_unprivileged(s, ATTACKER);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	pid = fork();
	if (pid > 0) {
		pin_to(0, s->cpu1);
		for (;;)
			if (wait(NULL) < 0 && errno == ECHILD)
				pause();
	}
	if (pid < 0) {
		bad(s, "fork: %s", strerror(errno));
		return;
	}
	for (;;) {
		n = __atomic_add_fetch(&s->iters, 1, __ATOMIC_RELAXED);
		r = s->p[0] ? tc_begin(&c, 0, mono_ns() + NSEC_PER_SEC, s->p[0], 0) : 0;
		if (r && !late(s, r))
			bad(s, "link: begin estimate %lld ms: %s", s->p[0] / MS,
			    err_name(r));
		else if (!r)
			add(&s->ok, 1);
		spin(s, ATTACKER, (2 + n % 4) * MS);
		if (kill(root, 0))
			_exit(0);
		pid = fork();
		if (pid < 0) {
			bad(s, "link: fork: %s", strerror(errno));
			continue;
		}
		if (pid > 0) {
			add(&s->child_cpu, thread_cpu_ns());
			_exit(0);
		}
	}
}

/* p[0]: 1 = inside a constraint */
static void atk_sleep_wake(void *p)
{
	static const long long run[3] = { MS, 2 * MS, 4 * MS };
	static const long long nap[4] = { 50 * US, 200 * US, MS, 100 * US };
	struct abuse *s = p;
	struct smart_constraint c;
	long long sp, sl;
	int r = -1;

	enter_unprivileged(s, ATTACKER);
	for (;; s->iters++) {
		sp = run[s->iters % 3];
		sl = nap[s->iters % 4];
		if (s->p[0]) {
			r = tc_begin(&c, 0, mono_ns() + 2 * (sp + sl), sp + sl, 0);
			if (r && !late(s, r))
				bad(s, "begin: %s", err_name(r));
		}
		spin(s, ATTACKER, sp);
		sleep_ns(sl);
		if (s->p[0] && !r) {
			r = smart_tc_end(&c);
			if (r && r != -ENOENT)
				bad(s, "end: %s", err_name(r));
			else
				s->ok++;
		}
	}
}

/*
 * One raise attempt: @r is its result; the share and priority before and
 * after must not have gone up, and the call must have been refused.
 */
static void raise_check(struct abuse *s, const char *what, int r,
			const struct smart_attr *before)
{
	struct smart_attr a;

	if (smart_get(0, &a)) {
		bad(s, "smart_getattr after %s: %s", what, strerror(errno));
		return;
	}
	if (a.share > before->share || a.priority > before->priority) {
		add(&s->raised, 1);
		bad(s, "%s: share %u -> %u, priority %d -> %d (%s)", what,
		    before->share, a.share, before->priority, a.priority,
		    err_name(r));
	} else if (r == -EPERM || r == -EACCES) {
		add(&s->refused, 1);
	} else {
		bad(s, "%s: expected EPERM/EACCES, got %s", what, err_name(r));
	}
}

static int set_nice(int nice)
{
	return setpriority(PRIO_PROCESS, 0, nice) ? -errno : 0;
}

static void atk_nice_share(void *p)
{
	struct abuse *s = p;
	struct smart_attr a, b;
	long long next = 0;
	unsigned int want;
	int nice, r, step = 0;

	enter_unprivileged(s, ATTACKER);
	for (;; s->iters++) {
		spin(s, ATTACKER, MS);
		if (smart_get(0, &a)) {
			bad(s, "smart_getattr: %s", strerror(errno));
			continue;
		}
		errno = 0;
		nice = getpriority(PRIO_PROCESS, 0);

		if (a.share < SMART_SHARE_MAX) {
			r = smart_set(0, SMART_ATTR_SHARE, 0, a.share + 1);
			raise_check(s, "smart_setattr(share + 1)", r, &a);
			r = smart_set(0, SMART_ATTR_SHARE, 0, SMART_SHARE_MAX);
			raise_check(s, "smart_setattr(share max)", r, &a);
		}
		if (a.priority < SMART_PRIO_MAX) {
			r = smart_set(0, SMART_ATTR_PRIORITY, a.priority + 1, 0);
			raise_check(s, "smart_setattr(priority + 1)", r, &a);
		}
		if (nice > -20) {
			r = set_nice(nice - 1);
			raise_check(s, "setpriority(nice - 1)", r, &a);
		}
		if (nice > 0) {
			r = set_nice(0);
			raise_check(s, "setpriority(nice 0)", r, &a);
		}

		/* a lowering step every 100 ms */
		if (mono_ns() < next)
			continue;
		next = mono_ns() + 100 * MS;
		switch (step++ % 3) {
		case 0:
			want = a.share - a.share / 4;
			r = smart_set(0, SMART_ATTR_SHARE, 0, want ? want : 1);
			if (r)
				bad(s, "lower share %u -> %u: %s", a.share, want,
				    err_name(r));
			else
				s->ok++;
			break;
		case 1:
			if (nice >= 19)
				break;
			r = set_nice(nice + 1);
			if (r) {
				bad(s, "renice %d -> %d: %s", nice, nice + 1,
				    err_name(r));
				break;
			}
			s->ok++;
			if (smart_get(0, &b))
				break;
			/* the share follows nice relatively (+1 for rounding) */
			want = (unsigned long long)a.share * nice_to_weight(nice + 1) /
			       nice_to_weight(nice) + 1;
			if (b.share > want) {
				add(&s->raised, 1);
				bad(s, "renice %d -> %d raised share %u -> %u "
				    "(expected at most %u)", nice, nice + 1,
				    a.share, b.share, want);
			}
			break;
		case 2:
			/* lower the priority only late: it ends the contest */
			if (step < 20 || a.priority <= SMART_PRIO_MIN)
				break;
			r = smart_set(0, SMART_ATTR_PRIORITY, a.priority - 1, 0);
			if (r)
				bad(s, "lower priority %d: %s", a.priority,
				    err_name(r));
			else
				s->ok++;
			break;
		}
	}
}

static void atk_query(void *p)
{
	static const long long ahead[2] = { MS, MAX_AHEAD - 10 * MS };
	static const unsigned long long est[4] = {
		MS, SMART_CONSTRAINT_MAX_AHEAD_NS, 3ULL << 62, ~0ULL,
	};
	struct abuse *s = p;
	struct smart_constraint c;
	unsigned long long e;
	int r;

	enter_unprivileged(s, ATTACKER);
	for (;; s->iters++) {
		e = est[s->iters % 4];
		r = tc_begin(&c, SMART_CONSTRAINT_QUERY,
			     mono_ns() + ahead[(s->iters / 4) % 2], e, 0);
		/* EINVAL is checked before ETIME */
		if (e > SMART_CONSTRAINT_MAX_AHEAD_NS && r != -EINVAL)
			bad(s, "QUERY estimate %#llx: expected EINVAL, got %s", e,
			    err_name(r));
		else if (e <= SMART_CONSTRAINT_MAX_AHEAD_NS && r && !late(s, r))
			bad(s, "QUERY estimate %llu: %s", e, err_name(r));
		else if (e > SMART_CONSTRAINT_MAX_AHEAD_NS || !r)
			s->ok++;
		if (s->iters % 64 == 63) {
			r = smart_tc_end(&c);
			if (r != -ENOENT)
				bad(s, "end after QUERY only: expected ENOENT, got %s",
				    err_name(r));
		}
		spin(s, ATTACKER, 200 * US);
	}
}

static void atk_yield(void *p)
{
	struct abuse *s = p;

	enter_unprivileged(s, ATTACKER);
	for (;; s->iters++) {
		spin(s, ATTACKER, 100 * US);
		sched_yield();
	}
}

/* The attacker's notifications: recorded by smart_note_handler(). */
static void note_setup(struct abuse *s)
{
	int r = smart_note_install(SMART_NOTE_SIG);

	if (!r)
		r = smart_set_signal(SMART_NOTE_SIG);
	if (r)
		bad(s, "notify signal %d: %s", SMART_NOTE_SIG, err_name(r));
}

static void atk_notify(void *p)
{
	struct abuse *s = p;
	struct smart_constraint c;
	int r;

	enter_unprivileged(s, ATTACKER);
	note_setup(s);
	for (;; s->iters++) {
		r = tc_begin(&c, SMART_CONSTRAINT_NOTIFY, mono_ns() + 500 * US,
			     2 * MS, 0);
		if (r && !late(s, r))
			bad(s, "begin NOTIFY: %s", err_name(r));
		spin(s, ATTACKER, MS);
		r = smart_tc_end(&c);
		if (r && r != -ENOENT)
			bad(s, "end: %s", err_name(r));
		s->notes = smart_note_count();
	}
}

/*
 * Late on purpose: a constraint that fits when begun (4 ms by 6 ms ahead)
 * and is then worked on past its latest start time, so that it is
 * notified while it waits and may run a slice out of order to hear it
 * (sched-smart.rst 2.9); spins until the notification or 8 ms, then
 * begins the next.
 */
static void atk_late(void *p)
{
	struct abuse *s = p;
	struct smart_constraint c;
	long n;
	int r, k;

	enter_unprivileged(s, ATTACKER);
	note_setup(s);
	for (;; s->iters++) {
		n = smart_note_count();
		r = tc_begin(&c, SMART_CONSTRAINT_NOTIFY, mono_ns() + 6 * MS,
			     4 * MS, 0);
		if (r && !late(s, r))
			bad(s, "begin NOTIFY: %s", err_name(r));
		for (k = 0; k < 16 && smart_note_count() == n; k++)
			spin(s, ATTACKER, 500 * US);
		r = smart_tc_end(&c);
		if (r && r != -ENOENT)
			bad(s, "end: %s", err_name(r));
		s->notes = smart_note_count();
	}
}

static int set_policy(int policy, unsigned long long flags)
{
	struct sched_attr a = {
		.size = sizeof(a), .sched_policy = policy, .sched_flags = flags,
	};

	return sys_sched_setattr(0, &a, 0) ? -errno : 0;
}

static void atk_policy(void *p)
{
	struct abuse *s = p;
	struct smart_attr a;
	int r;

	enter_unprivileged(s, ATTACKER);
	for (;; s->iters++) {
		spin(s, ATTACKER, 500 * US);
		if (s->mode) {
			/* all mode: both policies are SMART tasks */
			r = set_policy(s->iters % 2 ? SCHED_OTHER : SCHED_BATCH, 0);
			if (r)
				bad(s, "sched_setattr(%s): %s",
				    s->iters % 2 ? "OTHER" : "BATCH", err_name(r));
			else
				s->ok++;
			continue;
		}
		if (s->iters < 200) {
			/* re-set SCHED_SMART; then set reset-on-fork, try to clear it */
			r = set_policy(SCHED_SMART, s->iters < 100 ? 0 :
				       SCHED_FLAG_RESET_ON_FORK);
			if (r)
				bad(s, "sched_setattr(SMART): %s", err_name(r));
			else
				s->ok++;
			if (s->iters >= 100) {
				smart_get(0, &a);
				r = set_policy(SCHED_SMART, 0);
				raise_check(s, "clear SCHED_FLAG_RESET_ON_FORK", r, &a);
			}
			continue;
		}
		if (s->iters == 200) {
			r = set_policy(SCHED_BATCH, SCHED_FLAG_RESET_ON_FORK);
			if (r)
				bad(s, "leave SMART for SCHED_BATCH: %s", err_name(r));
			continue;
		}
		/* opt-in: back into SMART needs CAP_SYS_NICE */
		r = set_policy(SCHED_SMART, SCHED_FLAG_RESET_ON_FORK);
		if (!r) {
			add(&s->raised, 1);
			bad(s, "unprivileged SCHED_BATCH -> SCHED_SMART succeeded");
			set_policy(SCHED_BATCH, SCHED_FLAG_RESET_ON_FORK);
		} else if (r == -EPERM) {
			s->refused++;
		} else {
			bad(s, "SCHED_BATCH -> SCHED_SMART: expected EPERM, got %s",
			    err_name(r));
		}
	}
}

/* ------------------------------------------------------------------ */
/* The harness                                                        */

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

/* one window of the split: victim and attacker in % of CPU 0 */
struct split {
	long long wall;			/* ns */
	long long stall;		/* ns charged in host stalls */
	long long late;			/* ns the measuring process woke late */
	double victim, attacker;
};

/*
 * Where a window starts and ends (see abuse_run()): not within 0.5 s of
 * a stall of 20 ms or more, whose payback to the other task takes about
 * as long as the stall (waiting at most @max_ns for that), and not while
 * CPU 0 is stalled (it ran within the last 2 ms; waiting at most 0.5 s):
 * a sample then would miss the stall, which is charged afterwards.
 */
static void wait_cpu0_quiet(struct abuse *s, long long max_ns)
{
	long long until = mono_ns() + max_ns;

	while (mono_ns() - __atomic_load_n(&s->big_stall_at, __ATOMIC_RELAXED) <
	       500 * MS && mono_ns() < until)
		sleep_ns(10 * MS);
	until = mono_ns() + 500 * MS;
	while (mono_ns() - __atomic_load_n(&s->beat, __ATOMIC_RELAXED) > 2 * MS &&
	       mono_ns() < until)
		sleep_ns(200 * US);
}

static struct split measure(struct hog_set *h, struct abuse *s)
{
	long long c[2], vc[2], st[2][2], v, a;
	struct split r;
	int i;

	for (i = 0; i < 2; i++) {
		if (i) {
			sleep_until_ns(h->t0 + WINDOW_NS);
			r.late = mono_ns() - h->t0 - WINDOW_NS;
		}
		wait_cpu0_quiet(s, i ? 2 * NSEC_PER_SEC : NSEC_PER_SEC);
		c[i] = __atomic_load_n(&s->child_cpu, __ATOMIC_RELAXED);
		vc[i] = __atomic_load_n(&s->victim_cpu, __ATOMIC_RELAXED);
		st[i][VICTIM] = __atomic_load_n(&s->stall[VICTIM], __ATOMIC_RELAXED);
		st[i][ATTACKER] = __atomic_load_n(&s->stall[ATTACKER], __ATOMIC_RELAXED);
		if (!i)
			h->t0 = hogs_sample(h, h->cpu0);
		else
			h->t1 = hogs_sample(h, h->cpu1);
	}
	v = vc[1] - vc[0];
	a = hog_delta(h, ATTACKER) + c[1] - c[0];
	r.stall = st[1][VICTIM] - st[0][VICTIM] + st[1][ATTACKER] - st[0][ATTACKER];
	r.wall = h->t1 - h->t0;
	r.victim = 100.0 * v / r.wall;
	r.attacker = 100.0 * a / r.wall;
	return r;
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
		      FIXTURE_DATA(abuse) *self, const char *name,
		      hog_body_t attack)
{
	struct abuse *s = self->s;
	double min_pct = s->min_pct ?: VICTIM_MIN_PCT;
	long long deficit, other;
	struct split r;
	pid_t pid[2];
	int i, ret;

	pid[VICTIM] = hog_spawn(&self->h, CPU0, victim_body, s);
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
		r = measure(&self->h, s);
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

TEST_F(abuse, huge_estimate)
{
	struct abuse *s = self->s;
	int i;

	abuse_run(_metadata, self, "huge_estimate", atk_huge_estimate);
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(-EINVAL, s->extreme[i]) {
			TH_LOG("begin with estimate %#llx, deadline 5 s ahead: "
			       "expected EINVAL, got %s", extreme_est[i],
			       err_name(s->extreme[i]));
		}
	}
	EXPECT_NO_BAD(s);
}

/*
 * Also the other way round (spec: an RT quantum is at most 100 ms): the
 * thread with the largest estimate is not itself starved for the length
 * of its estimate or deadline; it gets a fair part too.
 */
#define ATTACKER_MIN_PCT	25.0

#define EXPECT_ATTACKER_NOT_STARVED(name) do {				\
	EXPECT_GE(self->attacker, ATTACKER_MIN_PCT) {			\
		TH_LOG("%s: the attacker (60 s estimate) got %.1f%% of CPU 0, " \
		       "expected >= %.0f%%: its quantum must be bounded, not " \
		       "its estimate", name, self->attacker, ATTACKER_MIN_PCT); \
	}								\
} while (0)

TEST_F(abuse, largest_estimate)
{
	self->s->p[0] = MAX_AHEAD;
	abuse_run(_metadata, self, "largest_estimate", atk_largest_estimate);
	TH_LOG("%lld begins, %lld INFEASIBLE, %lld late", self->s->ok,
	       self->s->infeasible, self->s->late);
	EXPECT_GT(self->s->ok, 0);
	EXPECT_NO_BAD(self->s);
	EXPECT_ATTACKER_NOT_STARVED("largest_estimate");
}

TEST_F(abuse, largest_estimate_1s)
{
	self->s->p[0] = NSEC_PER_SEC;
	abuse_run(_metadata, self, "largest_estimate_1s", atk_largest_estimate);
	TH_LOG("%lld begins, %lld INFEASIBLE, %lld late", self->s->ok,
	       self->s->infeasible, self->s->late);
	EXPECT_GT(self->s->ok, 0);
	EXPECT_NO_BAD(self->s);
	EXPECT_ATTACKER_NOT_STARVED("largest_estimate_1s");
}

TEST_F(abuse, begin_end_loop)
{
	abuse_run(_metadata, self, "begin_end_loop", atk_begin_end);
	TH_LOG("%lld begin/end pairs", self->s->ok);
	EXPECT_GT(self->s->ok, 100);
	EXPECT_NO_BAD(self->s);
}

TEST_F(abuse, periodic_full_load_20ms)
{
	self->s->p[0] = 20 * MS;
	abuse_run(_metadata, self, "periodic_full_load_20ms", atk_periodic);
	TH_LOG("%lld periods begun", self->s->ok);
	EXPECT_GT(self->s->ok, 10);
	EXPECT_NO_BAD(self->s);
}

TEST_F(abuse, periodic_full_load_5ms)
{
	self->s->p[0] = 5 * MS;
	abuse_run(_metadata, self, "periodic_full_load_5ms", atk_periodic);
	TH_LOG("%lld periods begun", self->s->ok);
	EXPECT_GT(self->s->ok, 10);
	EXPECT_NO_BAD(self->s);
}

static void fork_bomb(struct __test_metadata *_metadata,
		      FIXTURE_DATA(abuse) *self, const char *name, long long est)
{
	long long n;

	self->s->p[0] = est;
	/* a third (victim, waiting parent, child), less 5 points */
	self->s->min_pct = 100.0 / 3 - 5;
	abuse_run(_metadata, self, name, atk_fork_bomb);
	TH_LOG("%lld children forked, %lld began their constraint, %lld late",
	       self->s->iters, self->s->ok, self->s->late);
	/* each child needs 2..5 ms: hundreds in the window unless starved */
	n = est ? self->s->ok : self->s->iters;
	EXPECT_GT(n, 50) {
		TH_LOG("%s: only %lld children in %.1f s: the children (estimate "
		       "%lld ms) starve", name, n, (WARMUP_NS + WINDOW_NS) / 1e9,
		       est / MS);
	}
	EXPECT_NO_BAD(self->s);
}

TEST_F(abuse, fork_bomb)
{
	fork_bomb(_metadata, self, "fork_bomb", MAX_AHEAD);
}

/* the estimate at the RT quantum bound: what the 60 s one becomes */
TEST_F(abuse, fork_bomb_100ms)
{
	fork_bomb(_metadata, self, "fork_bomb_100ms", 100 * MS);
}

/* children without a constraint: the part fork alone plays */
TEST_F(abuse, fork_bomb_plain)
{
	fork_bomb(_metadata, self, "fork_bomb_plain", 0);
}

/* no waiting parent: a fresh constrained task every few ms, victim >= 45% */
TEST_F(abuse, fork_chain)
{
	self->s->p[0] = MAX_AHEAD;
	abuse_run(_metadata, self, "fork_chain", atk_fork_chain);
	TH_LOG("%lld links, %lld began their constraint, %lld late",
	       self->s->iters, self->s->ok, self->s->late);
	EXPECT_GT(self->s->ok, 50);
	EXPECT_NO_BAD(self->s);
}

TEST_F(abuse, sleep_wake)
{
	abuse_run(_metadata, self, "sleep_wake", atk_sleep_wake);
	EXPECT_NO_BAD(self->s);
}

TEST_F(abuse, sleep_wake_constrained)
{
	self->s->p[0] = 1;
	abuse_run(_metadata, self, "sleep_wake_constrained", atk_sleep_wake);
	TH_LOG("%lld constraints", self->s->ok);
	EXPECT_GT(self->s->ok, 10);
	EXPECT_NO_BAD(self->s);
}

TEST_F(abuse, nice_share_changes)
{
	struct abuse *s = self->s;

	abuse_run(_metadata, self, "nice_share_changes", atk_nice_share);
	TH_LOG("%lld raise attempts refused, %lld raised, %lld lowering steps",
	       s->refused, s->raised, s->ok);
	EXPECT_GT(s->refused, 100);
	EXPECT_EQ(0, s->raised);
	EXPECT_NO_BAD(s);
}

TEST_F(abuse, query_loop)
{
	abuse_run(_metadata, self, "query_loop", atk_query);
	TH_LOG("%lld QUERY calls as expected", self->s->ok);
	EXPECT_NO_BAD(self->s);
}

TEST_F(abuse, yield_loop)
{
	abuse_run(_metadata, self, "yield_loop", atk_yield);
	EXPECT_NO_BAD(self->s);
}

TEST_F(abuse, notify_flood)
{
	abuse_run(_metadata, self, "notify_flood", atk_notify);
	TH_LOG("%lld constraints, %lld notifications handled", self->s->iters,
	       self->s->notes);
	EXPECT_GT(self->s->notes, 10);
	EXPECT_NO_BAD(self->s);
}

TEST_F(abuse, late_on_purpose)
{
	abuse_run(_metadata, self, "late_on_purpose", atk_late);
	TH_LOG("%lld constraints, %lld notifications handled", self->s->iters,
	       self->s->notes);
	EXPECT_GT(self->s->notes, 10);
	EXPECT_NO_BAD(self->s);
}

TEST_F(abuse, policy_flips)
{
	struct abuse *s = self->s;

	abuse_run(_metadata, self, "policy_flips", atk_policy);
	TH_LOG("%lld policy changes, %lld refused, %lld raised", s->ok,
	       s->refused, s->raised);
	EXPECT_EQ(0, s->raised);
	EXPECT_NO_BAD(s);
}

TEST_HARNESS_MAIN
