// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART against hostile input and ordinary process life (issue 10):
 * one test per behaviour the hardened kernel promises.
 *
 *   §1 bounds	estimate/period above 60 s and the wrapping values are
 *		EINVAL (begin and QUERY, nothing installed); the largest
 *		accepted estimate is INFEASIBLE and its quantum is capped,
 *		so it neither holds a CPU nor starves.
 *   §2 fork/exec	reset-on-fork (SMART's flag and sched_setattr's) never
 *		raises and clears the notify signal; an unprivileged
 *		caller cannot clear the SMART flag; nice changes the share
 *		relatively and starts a fresh quantum (bias 0); execve
 *		ends the constraint and drops its notification; a setuid
 *		exec resets the notify signal; SIGKILL/SIGSTOP refused.
 *   §3 helpers	a usermode helper (cgroup v1 release agent, core-dump
 *		pipe) starts at the user default priority in
 *		sched_smart=all; kernel threads at 16.
 *   §4 EFAULT	begin/end with a struct that ends in a read-only page
 *		change nothing.
 *   §5 visibility	/proc/<pid>/sched hides the constraint of another
 *		user's thread; the debugfs queues view escapes comm.
 *   §6 races	a PI boost/de-boost keeps share, priority and lag;
 *		sched_get_priority_min/max(SCHED_SMART) are 0; the CPU
 *		kick IPI survives two CPUs kicking a third (>= 3 CPUs).
 *
 * The binary is also its own helper: with --core-helper it is the
 * core_pattern pipe program, with "/smart_harden_umh.<n>" the release
 * agent, with --exec-check / --exec-suid-check the program a test execs.
 * Paths come from /proc/self/exe.
 *
 * Every test SKIPs when the kernel has no SCHED_SMART.
 */
#include <semaphore.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include "kselftest_harness.h"
#include "smart_util.h"

#define MS		NSEC_PER_MSEC
#define SEC		NSEC_PER_SEC
#define MAX_AHEAD	((long long)SMART_CONSTRAINT_MAX_AHEAD_NS)
#define RT_QUANTUM_MAX	(100 * MS)	/* SMART_RT_QUANTUM_MAX_NS (spec §1) */
#define COOKIE		0xbadc0ffee0ddf00dULL
#define SELF_EXE	"/proc/self/exe"
#define QUEUES		"/sys/kernel/debug/sched/smart/queues"

static double ms(long long ns)
{
	return ns / 1e6;
}

/* smart_setattr() with every field; 0 or -errno */
static int smart_set_all(pid_t pid, unsigned int mask, int prio,
			 unsigned int share, int sig, unsigned int flags)
{
	struct smart_attr a = {
		.size = sizeof(a), .mask = mask, .priority = prio,
		.share = share, .notify_signal = sig, .flags = flags,
	};

	return smart_setattr(pid, &a, 0) ? -errno : 0;
}

/* the whole file into a NUL-terminated malloc()ed buffer; length or -errno */
static ssize_t read_all(const char *path, char **out)
{
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	ssize_t n;
	int fd;

	*out = NULL;
	if (!buf)
		return -ENOMEM;
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		n = -errno;
		free(buf);
		return n;
	}
	for (;;) {
		if (cap - len < 2048) {
			char *nb = realloc(buf, cap * 2);

			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n <= 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = 0;
	*out = buf;
	return len;
}

/* does @text have a line that starts with @name followed by ' ' or ':'? */
static bool has_line(const char *text, const char *name)
{
	size_t n = strlen(name);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, name, n) && (p[n] == ' ' || p[n] == ':'))
			return true;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return false;
}

/* the priority field (18) of /proc/self/task/<tid>/stat; INT_MIN on error */
static int stat_prio(pid_t tid)
{
	char path[64], buf[512], *p;
	int i, fd, prio;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return INT_MIN;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return INT_MIN;
	buf[n] = 0;
	p = strrchr(buf, ')');
	/* after "pid (comm)": state is field 3, priority field 18 */
	for (i = 0; p && i < 16; i++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%d", &prio) != 1)
		return INT_MIN;
	return prio;
}

/*
 * A child process that talks to the parent over two pipes: fn(arg, rd, wr)
 * runs in it and its return value (failures) is the exit status.
 */
struct peer {
	pid_t pid;
	int rd;		/* parent reads what the child writes */
	int wr;		/* parent writes what the child reads */
};

static int peer_start(struct peer *pe, int (*fn)(void *, int, int), void *arg)
{
	int up[2], down[2];

	pe->pid = -1;
	if (pipe(up))
		return -1;
	if (pipe(down)) {
		close(up[0]);
		close(up[1]);
		return -1;
	}
	fflush(stdout);
	fflush(stderr);
	pe->pid = fork();
	if (pe->pid == 0) {
		int fails;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(up[0]);
		close(down[1]);
		fails = fn(arg, down[0], up[1]);
		fflush(stdout);
		fflush(stderr);
		_exit(fails > 100 ? 100 : fails);
	}
	close(up[1]);
	close(down[0]);
	pe->rd = up[0];
	pe->wr = down[1];
	return pe->pid < 0 ? -1 : 0;
}

static bool put_byte(int fd)
{
	return write(fd, "x", 1) == 1;
}

static bool get_byte(int fd)
{
	char c;

	return read(fd, &c, 1) == 1;
}

/* close the pipes and wait; the wait status, -1 on error */
static int peer_wait(struct peer *pe)
{
	int st;

	close(pe->rd);
	close(pe->wr);
	if (pe->pid <= 0 || waitpid(pe->pid, &st, 0) != pe->pid)
		return -1;
	return st;
}

/* ------------------------------------------------------------------ */
/* §1 Estimate / period bounds                                         */

FIXTURE(bounds) {};
FIXTURE_VARIANT(bounds) {
	unsigned int cflags;
	unsigned long long estimate;	/* 0: 1 ms */
	unsigned long long period;
};

FIXTURE_SETUP(bounds)
{
	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_EQ(0, smart_set(0, SMART_ATTR_PRIORITY, 0, 0));
}

FIXTURE_TEARDOWN(bounds) {}

#define EST(name, q, e)	FIXTURE_VARIANT_ADD(bounds, name) { .cflags = (q), .estimate = (e) }
#define PER(name, q, p)	FIXTURE_VARIANT_ADD(bounds, name) { .cflags = (q), .period = (p) }
#define BQ		SMART_CONSTRAINT_QUERY

EST(estimate_60s_plus_1,	0, SMART_CONSTRAINT_MAX_AHEAD_NS + 1);
EST(estimate_61s,		0, 61ULL * SEC);
EST(estimate_3_shl_62,		0, 3ULL << 62);
EST(estimate_2p63,		0, 1ULL << 63);
EST(estimate_u64_max,		0, ~0ULL);
PER(period_60s_plus_1,		0, SMART_CONSTRAINT_MAX_AHEAD_NS + 1);
PER(period_3_shl_62,		0, 3ULL << 62);
PER(period_u64_max,		0, ~0ULL);
EST(query_estimate_60s_plus_1,	BQ, SMART_CONSTRAINT_MAX_AHEAD_NS + 1);
EST(query_estimate_3_shl_62,	BQ, 3ULL << 62);
EST(query_estimate_2p63,	BQ, 1ULL << 63);
EST(query_estimate_u64_max,	BQ, ~0ULL);
PER(query_period_60s_plus_1,	BQ, SMART_CONSTRAINT_MAX_AHEAD_NS + 1);
PER(query_period_u64_max,	BQ, ~0ULL);

/*
 * A begin that failed (@what) installed nothing: the met/missed counters
 * did not move, and an end finds no constraint.
 */
static void expect_nothing_installed(struct __test_metadata *_metadata,
				     const struct smart_counts *before,
				     const char *what)
{
	struct smart_counts after = smart_counts_self();
	struct smart_constraint c;
	int r;

	EXPECT_TRUE(after.met == before->met && after.missed == before->missed) {
		TH_LOG("counters moved by %s: met %+lld missed %+lld, expected 0 0", what,
		       after.met - before->met, after.missed - before->missed);
	}
	smart_tc_init(&c, 0, mono_ns() + SEC, MS, 0, 0);
	r = smart_tc_end(&c);
	EXPECT_EQ(-ENOENT, r) {
		TH_LOG("end after %s: expected ENOENT, got %s (it installed a constraint "
		       "with estimate %#llx, cookie %#llx)", what,
		       r ? strerror(-r) : "success", (unsigned long long)c.estimate,
		       (unsigned long long)c.cookie);
	}
}

TEST_F(bounds, einval_nothing_installed)
{
	unsigned long long est = variant->estimate ?: (unsigned long long)MS;
	struct smart_counts before;
	struct smart_constraint c;
	int r;

	before = smart_counts_self();
	ASSERT_LE(0, before.met);
	smart_tc_init(&c, variant->cflags, mono_ns() + SEC, 0, 0, COOKIE);
	c.estimate = est;
	c.period = variant->period;
	r = smart_tc_begin(&c);
	EXPECT_EQ(-EINVAL, r) {
		TH_LOG("%s estimate %#llx period %#llx, deadline +1 s: expected EINVAL, got %s "
		       "(available %llu status %s)", variant->cflags ? "QUERY" : "begin",
		       est, (unsigned long long)variant->period,
		       r ? strerror(-r) : "success", (unsigned long long)c.available,
		       smart_status_name(c.status));
	}
	expect_nothing_installed(_metadata, &before, "the rejected begin");
}

/* The largest accepted estimate is accepted and reported INFEASIBLE. */
TEST(bounds_max_estimate_infeasible)
{
	static const struct {
		unsigned int cflags;
		long long ahead, period;
	} row[] = {
		{ 0, 1 * SEC, 0 },
		{ SMART_CONSTRAINT_QUERY, 1 * SEC, 0 },
		{ 0, 30 * SEC, MAX_AHEAD },
		{ SMART_CONSTRAINT_QUERY, 30 * SEC, MAX_AHEAD },
	};
	struct smart_constraint c;
	unsigned int i;
	long long t0;
	int r;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_EQ(0, smart_set(0, SMART_ATTR_PRIORITY, 0, 0));
	for (i = 0; i < sizeof(row) / sizeof(row[0]); i++) {
		const char *what = row[i].cflags ? "QUERY" : "begin";

		t0 = mono_ns();
		smart_tc_init(&c, row[i].cflags, t0 + row[i].ahead, MAX_AHEAD,
			      row[i].period, COOKIE + i);
		r = smart_tc_begin(&c);
		ASSERT_EQ(0, r) {
			TH_LOG("%s estimate 60 s, deadline +%.0f s, period %.0f s: expected success, got %s",
			       what, ms(row[i].ahead) / 1000, ms(row[i].period) / 1000,
			       strerror(-r));
		}
		EXPECT_EQ((__u32)SMART_STATUS_INFEASIBLE, c.status) {
			TH_LOG("%s estimate 60 s, deadline +%.0f s: expected INFEASIBLE, got %s "
			       "(available %.3f ms)", what, ms(row[i].ahead) / 1000,
			       smart_status_name(c.status), ms(c.available));
		}
		EXPECT_LE((long long)c.available, row[i].ahead) {
			TH_LOG("%s: available %.3f ms is more than the %.3f ms to the deadline (wrap?)",
			       what, ms(c.available), ms(row[i].ahead));
		}
		if (!row[i].cflags) {
			r = smart_tc_end(&c);
			EXPECT_EQ(0, r) {
				TH_LOG("end of the 60 s constraint: %s", strerror(-r));
			}
			EXPECT_EQ((__u32)SMART_STATUS_MET, c.status);
		}
	}
}

/*
 * Bounded waiting whatever the estimate.  The RT quantum is capped in the
 * value (SMART_RT_QUANTUM_MAX_NS, 100 ms): a thread with a large estimate
 * spinning on one CPU beside an equal-share hog takes turns with it of
 * about 100 ms.  The constrained thread drops to nobody before it begins
 * (a thread already in SCHED_SMART needs no privilege).  Each of the two
 * records the gaps in its own progress (the time the other held the CPU)
 * and must get its part of the CPU.  Without the cap the BVFT is
 * v + estimate / S and the thread starves for the length of its estimate.
 *
 *   est60_dl30	the largest estimate, beyond its deadline (INFEASIBLE)
 *   est30_dl60	feasible, over 12 s: the thread gets >= 45%
 *   est2_dl4	feasible, the whole constraint in the window
 */
#define CAP_CPU		0
#define CAP_LONG_GAP	(250 * MS)	/* 100 ms turns + TCG noise */

struct cap_worker {
	int constrained;
	long long estimate, ahead;
	int begun;
	int err;
	unsigned int status;
	long long last;		/* last time it ran */
	long long max_gap;	/* longest gap inside the window */
	long long long_gaps;	/* gaps > CAP_LONG_GAP inside the window */
};

struct cap_shared {
	long long start, stop;
	struct cap_worker w[2];
};

static struct cap_shared *cap;

static void cap_gap(struct cap_worker *w, long long from, long long to)
{
	long long start = __atomic_load_n(&cap->start, __ATOMIC_RELAXED);
	long long stop = __atomic_load_n(&cap->stop, __ATOMIC_RELAXED);
	long long gap;

	if (!start)
		return;
	gap = (to < stop ? to : stop) - (from > start ? from : start);
	if (gap > w->max_gap)
		__atomic_store_n(&w->max_gap, gap, __ATOMIC_RELAXED);
	if (gap > CAP_LONG_GAP)
		__atomic_store_n(&w->long_gaps, w->long_gaps + 1, __ATOMIC_RELAXED);
}

static void cap_body(void *arg)
{
	struct cap_worker *w = arg;
	struct smart_constraint c;
	long long last, t;

	if (w->constrained) {
		w->err = -drop_to_nobody();
		if (!w->err) {
			smart_tc_init(&c, 0, mono_ns() + w->ahead, w->estimate, 0, COOKIE);
			w->err = smart_constraint_begin(&c, 0) ? errno : 0;
			w->status = c.status;
		}
		__atomic_store_n(&w->begun, 1, __ATOMIC_RELEASE);
	}
	last = mono_ns();
	for (;;) {
		t = mono_ns();
		if (t - last > 50000)		/* off the CPU for > 50 us */
			cap_gap(w, last, t);
		last = t;
		__atomic_store_n(&w->last, t, __ATOMIC_RELAXED);
	}
}

FIXTURE(bounds_wait) {
	struct hog_set h;
};

FIXTURE_VARIANT(bounds_wait) {
	long long estimate, ahead;	/* of the constraint */
	long long window;		/* measured, from 300 ms after begin */
	long long min_pct;		/* of each of the two */
};

FIXTURE_VARIANT_ADD(bounds_wait, est60_dl30) {
	.estimate = MAX_AHEAD, .ahead = 30 * SEC, .window = 4 * SEC, .min_pct = 30 };
FIXTURE_VARIANT_ADD(bounds_wait, est30_dl60) {
	.estimate = 30 * SEC, .ahead = MAX_AHEAD, .window = 12 * SEC, .min_pct = 45 };
FIXTURE_VARIANT_ADD(bounds_wait, est2_dl4) {
	.estimate = 2 * SEC, .ahead = 4 * SEC, .window = 3500 * MS, .min_pct = 40 };

FIXTURE_SETUP(bounds_wait)
{
	hogs_init(&self->h);
	REQUIRE_SMART();
	REQUIRE_ROOT();
	cap = shared_alloc(sizeof(*cap));
	ASSERT_NE(NULL, cap);
}

FIXTURE_TEARDOWN(bounds_wait)
{
	hogs_kill(&self->h);
	if (cap)
		munmap(cap, sizeof(*cap));
	cap = NULL;
}

TEST_F(bounds_wait, turns)
{
	struct hog_set *h = &self->h;
	long long t0, t1, dl, share[2];
	int i, r;

	controller_setup(controller_cpu());
	cap->w[0].constrained = 1;
	cap->w[0].estimate = variant->estimate;
	cap->w[0].ahead = variant->ahead;
	for (i = 0; i < 2; i++) {
		pid_t pid = hog_spawn(h, 1UL << CAP_CPU, cap_body, &cap->w[i]);

		ASSERT_GT(pid, 0);
		r = smart_set(pid, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, 0, 1024);
		ASSERT_EQ(0, r) {
			TH_LOG("worker %d: smart_setattr(prio 0, share 1024): %s", pid, strerror(-r));
		}
	}
	hogs_go(h);
	dl = mono_ns() + 2 * SEC;
	while (!__atomic_load_n(&cap->w[0].begun, __ATOMIC_ACQUIRE) && mono_ns() < dl)
		sleep_ns(MS);
	ASSERT_TRUE(cap->w[0].begun) {
		TH_LOG("the constrained worker did not begin its constraint within 2 s");
	}
	ASSERT_EQ(0, cap->w[0].err) {
		TH_LOG("begin as nobody, estimate %.0f ms, deadline +%.0f ms: expected success, "
		       "got %s", ms(variant->estimate), ms(variant->ahead),
		       strerror(cap->w[0].err));
	}
	TH_LOG("%s mode, estimate %.0f ms, deadline +%.0f ms, as nobody: status %s",
	       smart_mode_name(), ms(variant->estimate), ms(variant->ahead),
	       smart_status_name(cap->w[0].status));

	sleep_ns(300 * MS);
	t0 = hogs_sample(h, h->cpu0);
	__atomic_store_n(&cap->stop, t0 + variant->window, __ATOMIC_RELAXED);
	__atomic_store_n(&cap->start, t0, __ATOMIC_RELEASE);
	sleep_until_ns(t0 + variant->window);
	t1 = hogs_sample(h, h->cpu1);
	sleep_ns(20 * MS);
	hogs_kill(h);
	for (i = 0; i < 2; i++) {
		long long last = cap->w[i].last;

		/* a worker that did not run again: its gap lasts to the end */
		if (last < t0 + variant->window)
			cap_gap(&cap->w[i], last, t0 + variant->window);
		share[i] = (h->cpu1[i] - h->cpu0[i]) * 100 / (t1 - t0);
	}

	for (i = 0; i < 2; i++) {
		const char *who = i ? "equal hog" : "constrained thread";

		TH_LOG("%s: %lld%% of CPU %d in %.0f ms, longest gap %.1f ms, %lld gaps > %.0f ms",
		       who, share[i], CAP_CPU, ms(t1 - t0), ms(cap->w[i].max_gap),
		       cap->w[i].long_gaps, ms(CAP_LONG_GAP));
		EXPECT_GE(share[i], variant->min_pct) {
			TH_LOG("%s: expected >= %lld%% of the CPU, got %lld%%", who,
			       variant->min_pct, share[i]);
		}
		EXPECT_LE(cap->w[i].long_gaps, 2) {
			TH_LOG("%s waited > %.0f ms for the CPU %lld times: expected turns of about "
			       "%.0f ms (at most 2 longer ones for host stalls)", who,
			       ms(CAP_LONG_GAP), cap->w[i].long_gaps, ms(RT_QUANTUM_MAX));
		}
		EXPECT_LE(cap->w[i].max_gap, SEC) {
			TH_LOG("%s: longest wait %.1f ms, expected below 1 s", who,
			       ms(cap->w[i].max_gap));
		}
	}
}

/* ------------------------------------------------------------------ */
/* §2 fork: reset-on-fork never raises                                 */

FIXTURE(reset_fork) {};
FIXTURE_VARIANT(reset_fork) {
	bool sched_flag;	/* sched_setattr(SCHED_FLAG_RESET_ON_FORK), else SMART's */
	int prio;
	unsigned int share;
	int want_prio;
	unsigned int want_share;
};

FIXTURE_SETUP(reset_fork)
{
	REQUIRE_SMART();
	REQUIRE_ROOT();
}

FIXTURE_TEARDOWN(reset_fork) {}

FIXTURE_VARIANT_ADD(reset_fork, sched_flag_raised) {
	.sched_flag = true, .prio = 5, .share = 4096, .want_prio = 0, .want_share = 1024 };
FIXTURE_VARIANT_ADD(reset_fork, sched_flag_lowered) {
	.sched_flag = true, .prio = -3, .share = 100, .want_prio = -3, .want_share = 100 };
FIXTURE_VARIANT_ADD(reset_fork, sched_flag_mixed) {
	.sched_flag = true, .prio = -3, .share = 4096, .want_prio = -3, .want_share = 1024 };
FIXTURE_VARIANT_ADD(reset_fork, smart_flag_lowered) {
	.prio = -3, .share = 100, .want_prio = -3, .want_share = 100 };
FIXTURE_VARIANT_ADD(reset_fork, smart_flag_mixed) {
	.prio = 5, .share = 100, .want_prio = 0, .want_share = 100 };

static int reset_fork_child(void *arg)
{
	const FIXTURE_VARIANT(reset_fork) *v = arg;
	struct smart_attr a;
	int fails = 0, r;

	r = smart_get(0, &a);
	CHK(r == 0, "child getattr: %s", strerror(-r));
	CHK(a.priority == v->want_prio && a.share == v->want_share,
	    "child of a parent at prio %d share %u (%s reset): expected prio %d share %u, got "
	    ATTR_FMT, v->prio, v->share, v->sched_flag ? "SCHED_FLAG_RESET_ON_FORK" :
	    "SMART_FLAG_RESET_ON_FORK", v->want_prio, v->want_share, ATTR_ARG(a));
	CHK(a.notify_signal == 0 || a.notify_signal == SIGXCPU,
	    "child: expected notify_signal reset to 0 (SIGXCPU), got %d", a.notify_signal);
	CHK(a.flags == 0, "child: expected SMART flags 0, got %#x", a.flags);
	printf("# child policy %d " ATTR_FMT "\n", sched_getscheduler(0), ATTR_ARG(a));
	return fails;
}

TEST_F(reset_fork, never_raises)
{
	struct sched_attr sa = {
		.size = sizeof(sa), .sched_policy = SCHED_SMART,
		.sched_flags = SCHED_FLAG_RESET_ON_FORK,
	};
	struct smart_attr before, after;
	int r;

	r = smart_set_all(0, SMART_ATTR_ALL, variant->prio, variant->share, SIGUSR1,
			  variant->sched_flag ? 0 : SMART_FLAG_RESET_ON_FORK);
	ASSERT_EQ(0, r) {
		TH_LOG("setup smart_setattr: %s", strerror(-r));
	}
	if (variant->sched_flag) {
		ASSERT_EQ(0, sys_sched_setattr(0, &sa, 0)) {
			TH_LOG("sched_setattr(SCHED_SMART, SCHED_FLAG_RESET_ON_FORK): %s",
			       strerror(errno));
		}
		ASSERT_EQ(SCHED_SMART | SCHED_RESET_ON_FORK, sched_getscheduler(0));
		ASSERT_EQ(0, smart_get(0, &before));
		if (before.priority != variant->prio || before.share != variant->share) {
			/* not what this test is about: note it, set them again */
			TH_LOG("note: sched_setattr(SCHED_SMART, nice 0) on a SMART task at nice 0 "
			       "changed prio %d share %u to prio %d share %u", variant->prio,
			       variant->share, before.priority, before.share);
			r = smart_set(0, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, variant->prio,
				      variant->share);
			ASSERT_EQ(0, r);
		}
	}
	ASSERT_EQ(0, smart_get(0, &before));
	ASSERT_TRUE(before.priority == variant->prio && before.share == variant->share) {
		TH_LOG("parent after setup: expected prio %d share %u, got " ATTR_FMT,
		       variant->prio, variant->share, ATTR_ARG(before));
	}
	ASSERT_CHILD_OK(run_child(reset_fork_child, (void *)variant));
	ASSERT_EQ(0, smart_get(0, &after));
	EXPECT_TRUE(smart_attr_same(&before, &after)) {
		TH_LOG("parent changed by fork: " ATTR_FMT " -> " ATTR_FMT,
		       ATTR_ARG(before), ATTR_ARG(after));
	}
}

/* An unprivileged caller cannot clear the flag root set. */
static int clear_flag_child(void *arg, int rd, int wr)
{
	struct smart_attr a, b;
	int fails = 0, r;

	(void)arg;
	r = drop_to_nobody();
	CHK(r == 0, "drop to uid %d: %s", NOBODY_ID, strerror(-r));
	if (!put_byte(wr) || !get_byte(rd))
		return fails + 1;
	if (fails)
		return fails;
	r = smart_get(0, &b);
	CHK(r == 0 && b.flags == SMART_FLAG_RESET_ON_FORK,
	    "root set SMART_FLAG_RESET_ON_FORK on this thread, but getattr says %s flags %#x",
	    r ? strerror(-r) : "ok", b.flags);

	r = smart_set_all(0, SMART_ATTR_FLAGS, 0, 0, 0, 0);
	CHK(r == -EPERM, "uid %d clearing SMART_FLAG_RESET_ON_FORK: expected EPERM, got %s",
	    NOBODY_ID, r ? strerror(-r) : "success");
	smart_get(0, &a);
	CHK(a.flags == SMART_FLAG_RESET_ON_FORK, "after the refused clear: flags %#x, expected %#x",
	    a.flags, SMART_FLAG_RESET_ON_FORK);
	CHK(smart_attr_same(&a, &b), "refused clear changed " ATTR_FMT " -> " ATTR_FMT,
	    ATTR_ARG(b), ATTR_ARG(a));

	/* setting it stays allowed */
	r = smart_set_all(0, SMART_ATTR_FLAGS, 0, 0, 0, SMART_FLAG_RESET_ON_FORK);
	CHK(r == 0, "uid %d setting SMART_FLAG_RESET_ON_FORK: expected success, got %s",
	    NOBODY_ID, strerror(-r));
	return fails;
}

TEST(fork_unpriv_cannot_clear_reset_flag)
{
	struct peer pe;
	int r;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_EQ(0, peer_start(&pe, clear_flag_child, NULL));
	ASSERT_TRUE(get_byte(pe.rd));
	r = smart_set_all(pe.pid, SMART_ATTR_FLAGS, 0, 0, 0, SMART_FLAG_RESET_ON_FORK);
	EXPECT_EQ(0, r) {
		TH_LOG("root: smart_setattr(pid %d, RESET_ON_FORK): %s", pe.pid, strerror(-r));
	}
	put_byte(pe.wr);
	ASSERT_CHILD_OK(peer_wait(&pe));
}

/* ------------------------------------------------------------------ */
/* §2 nice: relative share, fresh quantum                              */

static int renice_child(void *arg, int rd, int wr)
{
	unsigned int low = 100 * nice_to_weight(5) / nice_to_weight(0);
	struct smart_attr a;
	int fails = 0, r;

	(void)arg;
	r = drop_to_nobody();
	CHK(r == 0, "drop to uid %d: %s", NOBODY_ID, strerror(-r));
	if (!put_byte(wr) || !get_byte(rd))
		return fails + 1;
	if (fails)
		return fails;
	r = smart_get(0, &a);
	CHK(r == 0 && a.share == 100, "root set share 100: getattr %s share %u",
	    r ? strerror(-r) : "ok", a.share);

	r = setpriority(PRIO_PROCESS, 0, 0) ? -errno : 0;
	CHK(r == 0, "renice 0 by the owner: %s", strerror(-r));
	smart_get(0, &a);
	CHK(a.share == 100, "renice 0 by the owner (uid %d): expected share 100, got %u",
	    NOBODY_ID, a.share);

	r = setpriority(PRIO_PROCESS, 0, 5) ? -errno : 0;
	CHK(r == 0, "renice +5 by the owner: %s", strerror(-r));
	smart_get(0, &a);
	CHK(a.share >= low && a.share <= low + 1,
	    "nice 0 -> 5 with share 100: expected share 100 * %u / %u = %u, got %u",
	    nice_to_weight(5), nice_to_weight(0), low, a.share);

	/* setpriority(2) says EACCES for a nice it may not lower */
	r = setpriority(PRIO_PROCESS, 0, 0) ? -errno : 0;
	CHK(r == -EACCES, "renice 5 -> 0 unprivileged: expected EACCES, got %s",
	    r ? strerror(-r) : "success");
	smart_get(0, &a);
	CHK(a.share >= low && a.share <= low + 1, "after the refused renice: share %u, expected %u",
	    a.share, low);
	return fails;
}

TEST(renice_share_relative)
{
	struct peer pe;
	int r;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_EQ(0, peer_start(&pe, renice_child, NULL));
	ASSERT_TRUE(get_byte(pe.rd));
	r = smart_set(pe.pid, SMART_ATTR_SHARE, 0, 100);
	EXPECT_EQ(0, r) {
		TH_LOG("root: smart_setattr(pid %d, share 100): %s", pe.pid, strerror(-r));
	}
	put_byte(pe.wr);
	ASSERT_CHILD_OK(peer_wait(&pe));
}

/* A nice change follows eq. (7): fresh quantum, bias 0. */
TEST(renice_resets_bias)
{
	long long q = smart_tunable("quantum_ns", DEF_QUANTUM_NS), t0, t1;
	struct smart_attr b, a;
	struct hog_set h;
	pid_t hog;
	int try, r;

	hogs_init(&h);
	REQUIRE_SMART();
	REQUIRE_ROOT();
	controller_setup(controller_cpu());
	hog = hog_spawn(&h, 1UL << 0, hog_spin_forever, NULL);
	ASSERT_GT(hog, 0);
	r = smart_set(hog, SMART_ATTR_PRIORITY, 0, 0);
	ASSERT_EQ(0, r) {
		TH_LOG("hog %d into SCHED_SMART: %s", hog, strerror(-r));
		hogs_kill(&h);
	}
	hogs_go(&h);
	sleep_ns(300 * MS);

	for (try = 1; try <= 3; try++) {
		r = smart_get(hog, &b);
		ASSERT_TRUE(r == 0 && b.bias_ns > 0) {
			TH_LOG("setup: a hog alone on CPU 0 for 300 ms should have bias > 0: %s, bias %llu",
			       r ? strerror(-r) : "ok", (unsigned long long)b.bias_ns);
			hogs_kill(&h);
		}
		t0 = mono_ns();
		r = setpriority(PRIO_PROCESS, hog, try) ? -errno : 0;
		smart_get(hog, &a);
		t1 = mono_ns();
		ASSERT_EQ(0, r) {
			TH_LOG("renice hog to %d: %s", try, strerror(-r));
			hogs_kill(&h);
		}
		TH_LOG("nice %d -> %d: bias %.1f -> %.1f ms, share %u -> %u (%.3f ms between)",
		       try - 1, try, ms(b.bias_ns), ms(a.bias_ns), b.share, a.share, ms(t1 - t0));
		/* it may have completed another quantum if this took that long */
		if (!a.bias_ns || t1 - t0 < q)
			break;
		sleep_ns(100 * MS);
	}
	hogs_kill(&h);
	EXPECT_EQ(0ull, a.bias_ns) {
		TH_LOG("right after a nice change the bias must be 0 (eq. 7), got %.1f ms (was %.1f ms)",
		       ms(a.bias_ns), ms(b.bias_ns));
	}
}

/* ------------------------------------------------------------------ */
/* §2 execve                                                           */

#define EXEC_WAIT	(150 * MS)	/* how long past the deadline the new program waits */

FIXTURE(exec_tc) {};
FIXTURE_VARIANT(exec_tc) {
	long long ahead;	/* deadline - now at begin */
	long long estimate;
	bool pending;		/* the notification is queued before the exec */
	bool end_first;		/* the new program ends before it waits */
};

FIXTURE_SETUP(exec_tc)
{
	REQUIRE_SMART();
	REQUIRE_ROOT();
}

FIXTURE_TEARDOWN(exec_tc) {}

/*
 * Feasible at the exec: notified (latest start) while the new program
 * sleeps, unless the exec ended it.  The margins allow for a slow exec.
 */
FIXTURE_VARIANT_ADD(exec_tc, end_then_wait) {
	.ahead = 250 * MS, .estimate = 100 * MS, .end_first = true };
FIXTURE_VARIANT_ADD(exec_tc, not_yet_sent) {
	.ahead = 250 * MS, .estimate = 100 * MS };
/* infeasible from the start: the notification is pending at the exec */
FIXTURE_VARIANT_ADD(exec_tc, pending) {
	.ahead = 200 * MS, .estimate = 500 * MS, .pending = true };

static void block_notes(int sig)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGXCPU);
	sigaddset(&s, sig);
	sigprocmask(SIG_BLOCK, &s, NULL);
}

static int exec_child(void *arg)
{
	const FIXTURE_VARIANT(exec_tc) *v = arg;
	char a_dl[32], a_met[32], a_missed[32], a_sig[16];
	struct smart_constraint c;
	struct smart_counts n;
	int fails = 0, r;
	long long dl;
	sigset_t p;

	block_notes(SMART_NOTE_SIG);
	r = smart_set_signal(SMART_NOTE_SIG);
	CHK(r == 0, "notify_signal %d: %s", SMART_NOTE_SIG, strerror(-r));
	n = smart_counts_self();
	dl = mono_ns() + v->ahead;
	smart_tc_init(&c, SMART_CONSTRAINT_NOTIFY, dl, v->estimate, 0, COOKIE);
	r = smart_tc_begin(&c);
	CHK(r == 0, "begin NOTIFY estimate %.0f ms deadline +%.0f ms: %s", ms(v->estimate),
	    ms(v->ahead), strerror(-r));
	if (v->pending) {
		sleep_ns(30 * MS);
		sigpending(&p);
		CHK(sigismember(&p, SMART_NOTE_SIG),
		    "setup: estimate %.0f ms, deadline +%.0f ms (%s): no notification pending "
		    "30 ms later", ms(v->estimate), ms(v->ahead), smart_status_name(c.status));
	}
	if (fails)
		return fails;
	snprintf(a_dl, sizeof(a_dl), "%lld", dl);
	snprintf(a_met, sizeof(a_met), "%lld", n.met);
	snprintf(a_missed, sizeof(a_missed), "%lld", n.missed);
	snprintf(a_sig, sizeof(a_sig), "%d", SMART_NOTE_SIG);
	fflush(stdout);
	fflush(stderr);
	execl(SELF_EXE, SELF_EXE, "--exec-check", v->end_first ? "end-first" : "wait-first",
	      a_dl, a_met, a_missed, a_sig, (char *)NULL);
	CHK(0, "execl(%s): %s", SELF_EXE, strerror(errno));
	return fails;
}

/* In the new program: SMART notifications that arrive until @until. */
static int exec_wait_notes(int sig, long long until)
{
	struct timespec ts;
	siginfo_t si;
	long long left;
	int notes = 0, s;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGXCPU);
	sigaddset(&set, sig);
	while ((left = until - mono_ns()) > 0) {
		ts.tv_sec = left / SEC;
		ts.tv_nsec = left % SEC;
		s = sigtimedwait(&set, &si, &ts);
		if (s < 0)
			continue;	/* EAGAIN: time is up; EINTR: again */
		printf("# new program got signal %d si_code %d (%s) cookie %#llx\n", s,
		       si.si_code, smart_code_name(si.si_code),
		       (unsigned long long)(uintptr_t)si.si_value.sival_ptr);
		if (si.si_code == SMART_NOTIFY_INFEASIBLE || si.si_code == SMART_NOTIFY_EXPIRED)
			notes++;
	}
	return notes;
}

static int exec_end_enoent(void)
{
	struct smart_constraint c;
	int fails = 0, r;

	smart_tc_init(&c, 0, mono_ns() + SEC, MS, 0, 0);
	r = smart_tc_end(&c);
	CHK(r == -ENOENT, "new program: smart_constraint_end: expected ENOENT, got %s "
	    "(the constraint survived execve: cookie %#llx status %s)",
	    r ? strerror(-r) : "success", (unsigned long long)c.cookie,
	    smart_status_name(c.status));
	return fails;
}

/* --exec-check end-first|wait-first <deadline> <met> <missed> <signal> */
static int exec_check(char **argv)
{
	bool end_first = !strcmp(argv[2], "end-first");
	long long dl = atoll(argv[3]);
	long long met0 = atoll(argv[4]), missed0 = atoll(argv[5]);
	int sig = atoi(argv[6]), fails = 0, notes;
	struct smart_counts n;
	struct smart_attr a;

	if (end_first)
		fails += exec_end_enoent();
	notes = exec_wait_notes(sig, dl + EXEC_WAIT);
	CHK(notes == 0, "new program: expected no notification of the constraint begun before "
	    "execve, got %d (waited until %.0f ms past its deadline)", notes, ms(EXEC_WAIT));
	if (!end_first)
		fails += exec_end_enoent();
	n = smart_counts_self();
	CHK(n.met == met0 + 1 && n.missed == missed0,
	    "counters: met %+lld missed %+lld, expected +1 +0 (execve ends the constraint "
	    "before its deadline: met)", n.met - met0, n.missed - missed0);
	smart_get(0, &a);
	CHK(a.notify_signal == sig, "notify_signal across a plain execve: expected %d (kept), got %d",
	    sig, a.notify_signal);
	fflush(stdout);
	fflush(stderr);
	return fails > 100 ? 100 : fails;
}

TEST_F(exec_tc, ends_constraint_drops_notification)
{
	ASSERT_CHILD_OK(run_child(exec_child, (void *)variant));
}

/* A setuid exec resets the notify signal. */
#define SUID_NOT_APPLIED	99

static int copy_file(const char *from, const char *to, mode_t mode)
{
	char buf[65536];
	int in, out, err = 0;
	ssize_t n;

	in = open(from, O_RDONLY);
	if (in < 0)
		return -errno;
	out = open(to, O_WRONLY | O_CREAT | O_EXCL, 0700);
	if (out < 0) {
		err = -errno;
		close(in);
		return err;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		if (write(out, buf, n) != n) {
			err = -EIO;
			break;
		}
	}
	if (n < 0)
		err = -errno;
	if (!err && (fchown(out, 0, 0) || fchmod(out, mode)))
		err = -errno;
	close(in);
	close(out);
	return err;
}

static int suid_child(void *arg)
{
	const char *copy = arg;
	struct smart_attr a;
	int fails = 0, r;

	r = smart_set_signal(SIGUSR2);
	CHK(r == 0, "notify_signal SIGUSR2: %s", strerror(-r));
	r = drop_to_nobody();
	CHK(r == 0, "drop to uid %d: %s", NOBODY_ID, strerror(-r));
	smart_get(0, &a);
	CHK(a.notify_signal == SIGUSR2, "before the exec: notify_signal %d", a.notify_signal);
	if (fails)
		return fails;
	fflush(stdout);
	fflush(stderr);
	execl(copy, copy, "--exec-suid-check", (char *)NULL);
	CHK(0, "execl(%s): %s", copy, strerror(errno));
	return fails;
}

static int exec_suid_check(void)
{
	struct smart_attr a;
	int fails = 0, r;

	if (geteuid() != 0)
		return SUID_NOT_APPLIED;
	r = smart_get(0, &a);
	CHK(r == 0, "getattr: %s", strerror(-r));
	CHK(a.notify_signal == 0 || a.notify_signal == SIGXCPU,
	    "after a setuid execve: expected notify_signal 0 (SIGXCPU), got %d (chosen by uid %d "
	    "before the exec)", a.notify_signal, NOBODY_ID);
	fflush(stdout);
	fflush(stderr);
	return fails;
}

TEST(exec_setuid_resets_signal)
{
	char copy[64];
	struct statvfs vfs;
	int r, st;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	snprintf(copy, sizeof(copy), "/tmp/smart_harden_suid.%d", getpid());
	unlink(copy);
	r = copy_file(SELF_EXE, copy, 04755);
	if (r) {
		unlink(copy);
		SKIP(return, "cannot make a setuid copy at %s: %s", copy, strerror(-r));
	}
	if (statvfs(copy, &vfs) == 0 && (vfs.f_flag & ST_NOSUID)) {
		unlink(copy);
		SKIP(return, "/tmp is mounted nosuid");
	}
	st = run_child(suid_child, copy);
	unlink(copy);
	if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == SUID_NOT_APPLIED)
		SKIP(return, "the setuid bit of %s was not applied", copy);
	ASSERT_CHILD_OK(st);
}

/* SIGKILL and SIGSTOP are not notification signals. */
TEST(notify_signal_kill_stop)
{
	static const int sigs[] = { SIGKILL, SIGSTOP };
	struct smart_attr before, after;
	unsigned int i;
	int r;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_EQ(0, smart_set_signal(SIGUSR1));
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		ASSERT_EQ(0, smart_get(0, &before));
		r = smart_set_signal(sigs[i]);
		ASSERT_EQ(0, smart_get(0, &after));
		EXPECT_EQ(-EINVAL, r) {
			TH_LOG("notify_signal %s: expected EINVAL, got %s", strsignal(sigs[i]),
			       r ? strerror(-r) : "success");
		}
		EXPECT_EQ(SIGUSR1, after.notify_signal) {
			TH_LOG("notify_signal after the refused %s: expected %d, got %d",
			       strsignal(sigs[i]), SIGUSR1, after.notify_signal);
		}
		if (!r)
			smart_set_signal(SIGUSR1);
	}
}

/* ------------------------------------------------------------------ */
/* §3 Usermode helpers                                                 */

#define CORE_PATTERN	"/proc/sys/kernel/core_pattern"

/* a usermode helper: write what SMART says about it to @out */
static int umh_report(const char *out)
{
	char tmp[PATH_MAX];
	struct smart_attr a;
	int fd, r, nice;

	r = smart_get(0, &a);
	errno = 0;
	nice = getpriority(PRIO_PROCESS, 0);
	snprintf(tmp, sizeof(tmp), "%s.tmp", out);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return 1;
	dprintf(fd, "err %d prio %d share %u nice %d policy %d pid %d ppid %d\n", -r,
		a.priority, a.share, nice, sched_getscheduler(0), getpid(), getppid());
	close(fd);
	return rename(tmp, out) ? 1 : 0;
}

/* wait up to 10 s for a helper's report; 0 or -errno, the text in *res */
static int umh_wait_report(const char *out, char **res)
{
	long long end = mono_ns() + 10 * SEC;
	ssize_t n;

	while (access(out, F_OK) && mono_ns() < end)
		sleep_ns(10 * MS);
	n = read_all(out, res);
	unlink(out);
	return n > 0 ? 0 : n < 0 ? (int)n : -ENODATA;
}

/* the helper started at the user defaults: prio 0, the share of its nice */
static void umh_check(struct __test_metadata *_metadata, const char *what,
		      const char *res)
{
	int err = -1, prio = INT_MIN, nice = INT_MIN, policy = -1;
	unsigned int share = 0;

	sscanf(res, "err %d prio %d share %u nice %d policy %d", &err, &prio, &share,
	       &nice, &policy);
	ASSERT_EQ(0, err) {
		TH_LOG("%s: smart_getattr(0): %s", what, strerror(err));
	}
	EXPECT_EQ(SMART_PRIO_DEFAULT, prio) {
		TH_LOG("%s (a usermode helper, not a kernel thread): expected priority %d, got %d",
		       what, SMART_PRIO_DEFAULT, prio);
	}
	if (nice >= -20 && nice <= 19) {
		EXPECT_EQ(nice_to_weight(nice), share) {
			TH_LOG("%s at nice %d: expected share %u, got %u", what, nice,
			       nice_to_weight(nice), share);
		}
	}
}

/*
 * The release agent of a named cgroup v1 hierarchy: the kernel runs it
 * (call_usermodehelper() from a kworker) when a notify_on_release cgroup
 * becomes empty, with the cgroup's path as its only argument.
 */
#define UMH_CG		"smart_harden_umh"

static void umh_out_path(char *buf, size_t size, const char *cg)
{
	snprintf(buf, size, "/tmp/%s.out", cg);
}

TEST(umh_release_agent_user_prio)
{
	char exe[PATH_MAX], opts[PATH_MAX + 128], cg[32], mnt[64], dir[128], file[160];
	char out[128], *res = NULL;
	pid_t pid;
	ssize_t n;
	int r, st;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	if (smart_mode() != 1)
		SKIP(return, "sched_smart=all only (opt-in mode: %s)", smart_mode_name());
	n = readlink(SELF_EXE, exe, sizeof(exe) - 1);
	ASSERT_GT(n, 0);
	exe[n] = 0;
	if (strchr(exe, ','))
		SKIP(return, "release_agent cannot be \"%.200s\" (a comma)", exe);
	snprintf(cg, sizeof(cg), UMH_CG ".%d", (int)getpid() & 0x3fffff);
	umh_out_path(out, sizeof(out), cg);
	unlink(out);
	snprintf(mnt, sizeof(mnt), "/tmp/%s.mnt", cg);
	ASSERT_EQ(0, mkdir(mnt, 0700));
	snprintf(opts, sizeof(opts), "none,name=%s,release_agent=%s", cg, exe);
	if (mount("cgroup", mnt, "cgroup", 0, opts)) {
		r = errno;
		rmdir(mnt);
		SKIP(return, "mount a cgroup v1 hierarchy (%.300s): %s", opts, strerror(r));
	}
	snprintf(dir, sizeof(dir), "%s/%s", mnt, cg);
	r = mkdir(dir, 0755) ? -errno : 0;
	if (!r) {
		snprintf(file, sizeof(file), "%s/notify_on_release", dir);
		r = write_str(file, "1");
	}
	if (!r) {
		/* a child joins the cgroup and exits: it is empty, the agent runs */
		snprintf(file, sizeof(file), "%s/cgroup.procs", dir);
		fflush(stdout);
		fflush(stderr);
		pid = fork();
		if (pid == 0)
			_exit(write_str(file, "0") ? 1 : 0);
		st = -1;
		if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
			r = -EIO;
	}
	if (!r)
		r = umh_wait_report(out, &res);
	rmdir(dir);
	umount2(mnt, MNT_DETACH);
	rmdir(mnt);

	ASSERT_EQ(0, r) {
		TH_LOG("release agent %s for /%s: no report in %s (%s)", exe, cg, out,
		       strerror(-r));
	}
	TH_LOG("release agent: %s", res);
	umh_check(_metadata, "cgroup release agent", res);
	free(res);
}

TEST(umh_core_helper_user_prio)
{
	char exe[PATH_MAX], out[64], pat[256], *old = NULL, *res = NULL;
	int st = 0, r;
	ssize_t n;
	pid_t pid;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	if (smart_mode() != 1)
		SKIP(return, "sched_smart=all only (opt-in mode: %s)", smart_mode_name());
	n = readlink(SELF_EXE, exe, sizeof(exe) - 1);
	ASSERT_GT(n, 0);
	exe[n] = 0;
	snprintf(out, sizeof(out), "/tmp/smart_harden_core.%d", getpid());
	unlink(out);
	if ((size_t)snprintf(pat, sizeof(pat), "|%s --core-helper %s", exe, out) >= 128 ||
	    strchr(exe, ' ') || strchr(exe, '%'))
		SKIP(return, "core_pattern would not hold \"%s\" (128 bytes, no spaces or %%)", pat);
	if (read_all(CORE_PATTERN, &old) < 0) {
		free(old);
		SKIP(return, "no %s (CONFIG_COREDUMP off)", CORE_PATTERN);
	}
	old[strcspn(old, "\n")] = 0;
	r = write_str(CORE_PATTERN, pat);
	ASSERT_EQ(0, r) {
		TH_LOG("write %s: %s", CORE_PATTERN, strerror(-r));
	}

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };

		setrlimit(RLIMIT_CORE, &rl);
		prctl(PR_SET_DUMPABLE, 1);
		abort();
	}
	if (pid > 0)
		waitpid(pid, &st, 0);
	r = umh_wait_report(out, &res);
	/* restore before anything can fail */
	write_str(CORE_PATTERN, old);

	ASSERT_GT(pid, 0);
	TH_LOG("crashing child: %s %d%s; helper: %s", WIFSIGNALED(st) ? "signal" : "exit",
	       WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st),
	       WIFSIGNALED(st) && WCOREDUMP(st) ? " (core dumped)" : "",
	       res ? res : "(no output)\n");
	ASSERT_EQ(0, r) {
		TH_LOG("the core_pattern helper did not write %s within 10 s: %s", out,
		       strerror(-r));
	}
	umh_check(_metadata, "core-dump pipe helper", res);
	free(old);
	free(res);
}

/* Kernel threads still start at SMART_PRIO_MAX in all mode. */
TEST(umh_kthread_prio_max)
{
	struct smart_attr a;
	char *comm = NULL;
	int r;

	REQUIRE_SMART();
	if (smart_mode() != 1)
		SKIP(return, "sched_smart=all only (opt-in mode: %s)", smart_mode_name());
	ASSERT_LT(0, read_all("/proc/2/comm", &comm));
	ASSERT_EQ(0, strncmp(comm, "kthreadd", 8)) {
		TH_LOG("pid 2 is %s, not kthreadd", comm);
	}
	r = smart_get(2, &a);
	ASSERT_EQ(0, r);
	EXPECT_EQ(SMART_PRIO_MAX, a.priority) {
		TH_LOG("kthreadd: expected priority %d, got %d", SMART_PRIO_MAX, a.priority);
	}
	free(comm);
}

/* ------------------------------------------------------------------ */
/* §4 EFAULT means nothing changed                                     */

FIXTURE(efault) {
	unsigned char *map;
	long pg;
};
FIXTURE_VARIANT(efault) {
	bool end;
	unsigned int writable;	/* bytes of the struct in the writable page */
};

FIXTURE_SETUP(efault)
{
	self->map = MAP_FAILED;
	REQUIRE_SMART();
	REQUIRE_ROOT();
	self->pg = sysconf(_SC_PAGESIZE);
	self->map = mmap(NULL, 2 * self->pg, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->map);
	ASSERT_EQ(0, smart_set(0, SMART_ATTR_PRIORITY, 0, 0));
}

FIXTURE_TEARDOWN(efault)
{
	if (self->map != MAP_FAILED)
		munmap(self->map, 2 * self->pg);
}

FIXTURE_VARIANT_ADD(efault, begin_8)	{ .writable = 8 };
FIXTURE_VARIANT_ADD(efault, begin_16)	{ .writable = 16 };
FIXTURE_VARIANT_ADD(efault, begin_48)	{ .writable = 48 };
FIXTURE_VARIANT_ADD(efault, end_8)	{ .end = true, .writable = 8 };
FIXTURE_VARIANT_ADD(efault, end_16)	{ .end = true, .writable = 16 };
FIXTURE_VARIANT_ADD(efault, end_48)	{ .end = true, .writable = 48 };

TEST_F(efault, straddles_read_only_page)
{
	struct smart_constraint *c, ok;
	struct smart_counts before, after;
	int r, err;

	/* a valid constraint whose tail lies in a read-only page */
	c = (void *)(self->map + self->pg - variant->writable);
	smart_tc_init(c, 0, mono_ns() + 2 * SEC, MS, 0, COOKIE + 1);
	ASSERT_EQ(0, mprotect(self->map + self->pg, self->pg, PROT_READ));

	if (variant->end) {
		smart_tc_init(&ok, 0, mono_ns() + 5 * SEC, MS, 0, COOKIE);
		ASSERT_EQ(0, smart_tc_begin(&ok));
	}
	before = smart_counts_self();
	ASSERT_LE(0, before.met);
	r = variant->end ? smart_constraint_end(c, 0) : smart_constraint_begin(c, 0);
	err = r ? errno : 0;
	EXPECT_EQ(EFAULT, err) {
		TH_LOG("%s with the struct's last %u bytes read-only: expected EFAULT, got %s",
		       variant->end ? "end" : "begin", 64 - variant->writable,
		       err ? strerror(err) : "success");
	}

	if (!variant->end) {
		expect_nothing_installed(_metadata, &before, "the faulting begin");
		return;
	}
	smart_tc_init(&ok, 0, mono_ns() + SEC, MS, 0, 0);
	r = smart_tc_end(&ok);
	EXPECT_EQ(0, r) {
		TH_LOG("end with a good struct after the faulting end: expected success, got %s "
		       "(the faulting end ended the constraint)", r ? strerror(-r) : "success");
	}
	if (!r) {
		EXPECT_EQ(COOKIE, ok.cookie);
		EXPECT_EQ((__u32)SMART_STATUS_MET, ok.status);
	}
	after = smart_counts_self();
	EXPECT_EQ(1, (after.met + after.missed) - (before.met + before.missed)) {
		TH_LOG("faulting end + good end: counters met %+lld missed %+lld, expected one in total",
		       after.met - before.met, after.missed - before.missed);
	}
}

/* ------------------------------------------------------------------ */
/* §5 Visibility                                                       */

static const char *const tc_fields[] = { "smart.deadline", "smart.estimate", "smart.used" };
#define N_TC_FIELDS	(sizeof(tc_fields) / sizeof(tc_fields[0]))

struct sched_reader {
	char path[96];
	bool drop;		/* read as uid 65534 */
	bool want_tc;		/* the constraint fields must be there */
};

/* check one read of /proc/<pid>/task/<tid>/sched; returns failures */
static int check_sched_file(const struct sched_reader *rd)
{
	int fails = 0;
	unsigned int i;
	char *text;
	ssize_t n;

	n = read_all(rd->path, &text);
	CHK(n > 0, "uid %d: read %s: %s", (int)geteuid(), rd->path,
	    n < 0 ? strerror(-n) : "empty");
	if (n <= 0) {
		free(text);
		return fails;
	}
	CHK(has_line(text, "smart.prio") && has_line(text, "smart.share"),
	    "uid %d reading %s: smart.prio / smart.share lines missing", (int)geteuid(), rd->path);
	for (i = 0; i < N_TC_FIELDS; i++) {
		bool seen = has_line(text, tc_fields[i]);

		CHK(seen == rd->want_tc, "uid %d reading %s (thread of uid %s): %s %s, expected %s",
		    (int)geteuid(), rd->path, rd->drop ? "0" : "the reader's",
		    tc_fields[i], seen ? "shown" : "hidden", rd->want_tc ? "shown" : "hidden");
	}
	free(text);
	return fails;
}

static int sched_reader_child(void *arg)
{
	const struct sched_reader *rd = arg;
	int fails = 0, r;

	if (rd->drop) {
		r = drop_to_nobody();
		CHK(r == 0, "drop to uid %d: %s", NOBODY_ID, strerror(-r));
		if (fails)
			return fails;
	}
	return check_sched_file(rd);
}

TEST(proc_sched_hides_constraint_from_others)
{
	struct sched_reader rd = { .drop = true };
	struct smart_constraint c;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	smart_tc_init(&c, 0, mono_ns() + 5 * SEC, 10 * MS, 0, COOKIE);
	ASSERT_EQ(0, smart_tc_begin(&c));
	snprintf(rd.path, sizeof(rd.path), "/proc/%d/task/%d/sched", getpid(), sys_gettid());
	ASSERT_CHILD_OK(run_child(sched_reader_child, &rd));
	ASSERT_EQ(0, smart_tc_end(&c));
}

/* control: root and the owning user still see them */
static int owner_child(void *arg)
{
	struct sched_reader rd = { .want_tc = true };
	struct smart_constraint c;
	int fails = 0, r, st;
	pid_t pid;

	(void)arg;
	r = smart_set(0, SMART_ATTR_PRIORITY, 0, 0);
	CHK(r == 0, "enter SMART as root: %s", strerror(-r));
	r = drop_to_nobody();
	CHK(r == 0, "drop to uid %d: %s", NOBODY_ID, strerror(-r));
	prctl(PR_SET_DUMPABLE, 1);
	smart_tc_init(&c, 0, mono_ns() + 5 * SEC, 10 * MS, 0, COOKIE);
	r = smart_tc_begin(&c);
	CHK(r == 0, "uid %d: begin: %s", NOBODY_ID, strerror(-r));
	if (fails)
		return fails;
	snprintf(rd.path, sizeof(rd.path), "/proc/%d/task/%d/sched", getpid(), sys_gettid());
	fails += check_sched_file(&rd);		/* the thread itself */
	fflush(stdout);
	fflush(stderr);
	pid = fork();				/* another process of the same user */
	if (pid == 0)
		_exit(check_sched_file(&rd));
	CHK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && !WEXITSTATUS(st),
	    "a process of the same user does not see the constraint fields");
	return fails;
}

TEST(proc_sched_shows_constraint_to_owner_and_root)
{
	struct sched_reader rd = { .want_tc = true };
	struct smart_constraint c;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_CHILD_OK(run_child(owner_child, NULL));
	/* root reading another root thread */
	smart_tc_init(&c, 0, mono_ns() + 5 * SEC, 10 * MS, 0, COOKIE);
	ASSERT_EQ(0, smart_tc_begin(&c));
	snprintf(rd.path, sizeof(rd.path), "/proc/%d/task/%d/sched", getpid(), sys_gettid());
	ASSERT_CHILD_OK(run_child(sched_reader_child, &rd));
	ASSERT_EQ(0, smart_tc_end(&c));
}

/* debugfs queues: comm cannot forge a line */
#define FORGED_NAME	"a\ntask 1 state R"

struct named {
	pid_t tid;
	int err;
	int stop;
};

static void *named_thread(void *arg)
{
	struct named *x = arg;
	int r;

	r = smart_set(0, SMART_ATTR_PRIORITY, 0, 0);
	if (!r && prctl(PR_SET_NAME, FORGED_NAME))
		r = -errno;
	x->err = -r;
	__atomic_store_n(&x->tid, sys_gettid(), __ATOMIC_RELEASE);
	while (!__atomic_load_n(&x->stop, __ATOMIC_RELAXED))
		;
	return NULL;
}

TEST(debugfs_queues_comm_escaped)
{
	struct named x = { 0 };
	char *text = NULL, *line, *next, want[32];
	bool listed = false;
	int forged = 0;
	pthread_t th;
	ssize_t n;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	if (access(QUEUES, R_OK)) {
		mkdir("/sys/kernel/debug", 0755);
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	}
	if (access(QUEUES, R_OK))
		SKIP(return, "%s: %s", QUEUES, strerror(errno));
	ASSERT_EQ(0, pthread_create(&th, NULL, named_thread, &x));
	while (!__atomic_load_n(&x.tid, __ATOMIC_ACQUIRE))
		sleep_ns(MS);
	sleep_ns(20 * MS);
	n = read_all(QUEUES, &text);
	__atomic_store_n(&x.stop, 1, __ATOMIC_RELAXED);
	pthread_join(th, NULL);
	ASSERT_EQ(0, x.err) {
		TH_LOG("setup of the named thread: %s", strerror(x.err));
	}
	ASSERT_LT(0, n) {
		TH_LOG("read %s: %s", QUEUES, strerror(-n));
	}

	snprintf(want, sizeof(want), "task %d ", x.tid);
	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		/* pid 1 may be listed (all mode), but only as a whole record */
		if (!strncmp(line, "task 1 ", 7) && (!strstr(line, " prio ") ||
						     !strstr(line, " comm "))) {
			forged++;
			TH_LOG("forged line: \"%s\"", line);
		}
		if (!strncmp(line, want, strlen(want))) {
			const char *comm = strstr(line, " comm ");

			listed = true;
			TH_LOG("the named thread: \"%s\"", line);
			EXPECT_TRUE(comm && !strncmp(comm + 6, "a\\012task", 9)) {
				TH_LOG("comm of thread %d: expected it escaped as \"a\\012task 1 state\", "
				       "got \"%s\"", x.tid, comm ? comm + 6 : "(no comm field)");
			}
		}
	}
	EXPECT_EQ(0, forged) {
		TH_LOG("a thread named \"a\\ntask 1 state R\" produced %d line(s) starting with "
		       "\"task 1 \"", forged);
	}
	EXPECT_TRUE(listed) {
		TH_LOG("the spinning SMART thread %d is not listed in %s", x.tid, QUEUES);
	}
	free(text);
}

/* ------------------------------------------------------------------ */
/* §6 Priority inheritance                                             */

#define PI_CPU		0
#define PI_PRIO		2
#define PI_SHARE	3000u
#define PI_FIFO		10

struct pi_ctx {
	pthread_mutex_t m;
	sem_t go;
	int err;
	const char *what;
	struct smart_attr a0, a1;
	int prio0, prio_boosted, prio_after;
	int policy_after;
	int f_locked;
};

static void *pi_holder(void *arg)
{
	struct pi_ctx *x = arg;
	pid_t tid = sys_gettid();
	long long end;
	int r;

	if (pin_to(0, PI_CPU)) {
		x->err = errno;
		x->what = "pin the holder";
		return NULL;
	}
	r = smart_set(0, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, PI_PRIO, PI_SHARE);
	if (r) {
		x->err = -r;
		x->what = "smart_setattr(prio 2, share 3000)";
		return NULL;
	}
	spin_cpu_ns(30 * MS);
	pthread_mutex_lock(&x->m);
	/* asleep while the hog runs: it falls behind its share */
	sleep_ns(50 * MS);
	smart_get(0, &x->a0);
	x->prio0 = stat_prio(tid);
	/* the SCHED_FIFO waiter on this CPU runs at once and blocks on m */
	sem_post(&x->go);
	end = mono_ns() + 200 * MS;
	while ((x->prio_boosted = stat_prio(tid)) >= 0 && mono_ns() < end)
		;
	pthread_mutex_unlock(&x->m);
	smart_get(0, &x->a1);
	x->prio_after = stat_prio(tid);
	x->policy_after = sched_getscheduler(0);
	return NULL;
}

static void *pi_waiter(void *arg)
{
	struct pi_ctx *x = arg;

	while (sem_wait(&x->go))
		;
	pthread_mutex_lock(&x->m);
	x->f_locked = 1;
	pthread_mutex_unlock(&x->m);
	return NULL;
}

TEST(pi_deboost_keeps_state)
{
	struct sched_param sp = { .sched_priority = PI_FIFO };
	pthread_attr_t fa;
	pthread_mutexattr_t ma;
	struct pi_ctx x = { 0 };
	pthread_t holder, waiter;
	long long tol, dlag;
	struct hog_set h;
	cpu_set_t cs;
	pid_t hog;
	int r;

	hogs_init(&h);
	REQUIRE_SMART();
	REQUIRE_ROOT();
	if (online_cpus() >= 2)
		pin_to(0, 1);
	ASSERT_EQ(0, pthread_mutexattr_init(&ma));
	ASSERT_EQ(0, pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT));
	ASSERT_EQ(0, pthread_mutex_init(&x.m, &ma));
	ASSERT_EQ(0, sem_init(&x.go, 0, 0));

	/* a hog of the holder's priority on its CPU */
	hog = hog_spawn(&h, 1UL << PI_CPU, hog_spin_forever, NULL);
	ASSERT_GT(hog, 0);
	r = smart_set(hog, SMART_ATTR_PRIORITY, PI_PRIO, 0);
	ASSERT_EQ(0, r) {
		TH_LOG("hog into SCHED_SMART prio %d: %s", PI_PRIO, strerror(-r));
		hogs_kill(&h);
	}
	hogs_go(&h);

	ASSERT_EQ(0, pthread_attr_init(&fa));
	ASSERT_EQ(0, pthread_attr_setinheritsched(&fa, PTHREAD_EXPLICIT_SCHED));
	ASSERT_EQ(0, pthread_attr_setschedpolicy(&fa, SCHED_FIFO));
	ASSERT_EQ(0, pthread_attr_setschedparam(&fa, &sp));
	CPU_ZERO(&cs);
	CPU_SET(PI_CPU, &cs);
	ASSERT_EQ(0, pthread_attr_setaffinity_np(&fa, sizeof(cs), &cs));
	r = pthread_create(&waiter, &fa, pi_waiter, &x);
	ASSERT_EQ(0, r) {
		TH_LOG("SCHED_FIFO waiter: %s", strerror(r));
		hogs_kill(&h);
	}
	ASSERT_EQ(0, pthread_create(&holder, NULL, pi_holder, &x));
	pthread_join(holder, NULL);
	if (x.err)
		sem_post(&x.go);
	pthread_join(waiter, NULL);
	hogs_kill(&h);

	ASSERT_EQ(0, x.err) {
		TH_LOG("holder setup: %s: %s", x.what, strerror(x.err));
	}
	TH_LOG("holder: /proc stat priority %d -> %d while the FIFO waiter blocks -> %d",
	       x.prio0, x.prio_boosted, x.prio_after);
	TH_LOG("before: " ATTR_FMT " lag %.3f ms; after: " ATTR_FMT " lag %.3f ms, policy %d",
	       ATTR_ARG(x.a0), ms(x.a0.lag_ns), ATTR_ARG(x.a1), ms(x.a1.lag_ns), x.policy_after);
	ASSERT_TRUE(x.prio0 >= 0 && x.prio_boosted < 0 && x.f_locked) {
		TH_LOG("setup: the holder was not boosted by the SCHED_FIFO waiter "
		       "(priority %d -> %d, waiter locked: %d)", x.prio0, x.prio_boosted,
		       x.f_locked);
	}
	ASSERT_GE(x.a0.lag_ns, 5 * MS) {
		TH_LOG("setup: the holder should be clearly behind its share after sleeping "
		       "50 ms beside a hog: lag %.3f ms", ms(x.a0.lag_ns));
	}
	EXPECT_EQ(SCHED_SMART, x.policy_after);
	EXPECT_EQ(PI_SHARE, x.a1.share) {
		TH_LOG("after the PI de-boost: expected share %u (set by smart_setattr), got %u",
		       PI_SHARE, x.a1.share);
	}
	EXPECT_EQ(PI_PRIO, x.a1.priority) {
		TH_LOG("after the PI de-boost: expected priority %d, got %d", PI_PRIO,
		       x.a1.priority);
	}
	tol = x.a0.lag_ns / 4 > 3 * MS ? x.a0.lag_ns / 4 : 3 * MS;
	dlag = x.a1.lag_ns - x.a0.lag_ns;
	EXPECT_LE(dlag < 0 ? -dlag : dlag, tol) {
		TH_LOG("after the PI de-boost: expected lag %.3f ms +- %.3f ms, got %.3f ms",
		       ms(x.a0.lag_ns), ms(tol), ms(x.a1.lag_ns));
	}
	pthread_mutex_destroy(&x.m);
	sem_destroy(&x.go);
}

/* ------------------------------------------------------------------ */
/* §6 sched_get_priority_min/max                                       */

TEST(priority_min_max)
{
	int lo, hi, elo, ehi;

	REQUIRE_SMART();
	errno = 0;
	lo = sched_get_priority_min(SCHED_SMART);
	elo = errno;
	errno = 0;
	hi = sched_get_priority_max(SCHED_SMART);
	ehi = errno;
	EXPECT_EQ(0, lo) {
		TH_LOG("sched_get_priority_min(SCHED_SMART): expected 0, got %d (%s)", lo,
		       lo < 0 ? strerror(elo) : "no error");
	}
	EXPECT_EQ(0, hi) {
		TH_LOG("sched_get_priority_max(SCHED_SMART): expected 0, got %d (%s)", hi,
		       hi < 0 ? strerror(ehi) : "no error");
	}
}

/* ------------------------------------------------------------------ */
/* §6 The CPU kick IPI: CPUs 0 and 1 both kicking CPU 2                */

#define KICK_TARGET	2
#define KICK_MOVERS	4		/* per source CPU */
#define KICK_SPINNERS	3		/* per source CPU */
#define KICK_SECONDS	8
#define KICK_STALL	(2 * SEC)

struct kick {
	int stop;
	int err;
	long long beat;			/* last time the thread on CPU 2 ran */
	pid_t mover[2 * KICK_MOVERS];
	long long progress[2 * KICK_MOVERS];
};

struct kick_arg {
	struct kick *k;
	int idx;
};

static void kick_enter(struct kick *k, int cpu_mask_bits, int prio)
{
	int r = pin_mask(0, cpu_mask_bits) ? -errno : smart_set(0, SMART_ATTR_PRIORITY, prio, 0);

	if (r)
		__atomic_store_n(&k->err, -r, __ATOMIC_RELAXED);
}

/*
 * Back to its source CPU, runs, allowed on CPU 2 again, runs, sleeps a
 * little: while it waits on its source CPU that CPU's tick and wake-ups
 * kick CPU 2, and the pull takes it there, over and over.
 */
static void *kick_mover(void *arg)
{
	struct kick_arg *a = arg;
	struct kick *k = a->k;
	int src = a->idx < KICK_MOVERS ? 0 : 1;

	kick_enter(k, (1 << src) | (1 << KICK_TARGET), 0);
	__atomic_store_n(&k->mover[a->idx], sys_gettid(), __ATOMIC_RELEASE);
	while (!__atomic_load_n(&k->stop, __ATOMIC_RELAXED)) {
		long long end;

		pin_mask(0, 1 << src);
		end = mono_ns() + 100000;
		while (mono_ns() < end)
			;
		pin_mask(0, (1 << src) | (1 << KICK_TARGET));
		end = mono_ns() + 100000;
		while (mono_ns() < end)
			;
		usleep(50);
		__atomic_fetch_add(&k->progress[a->idx], 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

/*
 * Keeps its source CPU loaded.  A priority below the movers' puts a
 * waiting mover (which may run on CPU 2) first in value order, the task
 * smart_kick_balance() looks at.
 */
static void *kick_spinner(void *arg)
{
	struct kick_arg *a = arg;
	struct kick *k = a->k;

	kick_enter(k, 1 << (a->idx % 2), -1);
	while (!__atomic_load_n(&k->stop, __ATOMIC_RELAXED))
		;
	return NULL;
}

static void *kick_heart(void *arg)
{
	struct kick *k = arg;

	kick_enter(k, 1 << KICK_TARGET, 0);
	while (!__atomic_load_n(&k->stop, __ATOMIC_RELAXED)) {
		__atomic_store_n(&k->beat, mono_ns(), __ATOMIC_RELAXED);
		usleep(500);
	}
	return NULL;
}

/* function-call IPIs CPU @cpu received (/proc/interrupts CAL), -1 if unknown */
static long long cal_ipis(int cpu)
{
	char *text = NULL, *line, *p;
	long long v = -1;
	int i;

	if (read_all("/proc/interrupts", &text) > 0) {
		line = strstr(text, "CAL:");
		for (p = line ? line + 4 : NULL, i = 0; p && i <= cpu; i++)
			v = strtoll(p, &p, 10);
	}
	free(text);
	return v;
}

TEST(kick_ipi_torture)
{
	struct kick_arg ma[2 * KICK_MOVERS], sa[2 * KICK_SPINNERS];
	pthread_t mt[2 * KICK_MOVERS], st[2 * KICK_SPINNERS], ht;
	long long end, now, stall = 0, flips = 0, ipi0, ipi1;
	struct kick *k;
	int i;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	if (online_cpus() < 3)
		SKIP(return, "needs >= 3 CPUs (%d online)", online_cpus());
	k = calloc(1, sizeof(*k));
	ASSERT_NE(NULL, k);
	controller_setup(0);
	k->beat = mono_ns();
	ASSERT_EQ(0, pthread_create(&ht, NULL, kick_heart, k));
	for (i = 0; i < 2 * KICK_SPINNERS; i++) {
		sa[i] = (struct kick_arg){ k, i };
		ASSERT_EQ(0, pthread_create(&st[i], NULL, kick_spinner, &sa[i]));
	}
	for (i = 0; i < 2 * KICK_MOVERS; i++) {
		ma[i] = (struct kick_arg){ k, i };
		ASSERT_EQ(0, pthread_create(&mt[i], NULL, kick_mover, &ma[i]));
	}
	for (i = 0; i < 2 * KICK_MOVERS; i++)
		while (!__atomic_load_n(&k->mover[i], __ATOMIC_ACQUIRE))
			sleep_ns(MS);

	ipi0 = cal_ipis(KICK_TARGET);
	end = mono_ns() + KICK_SECONDS * SEC;
	while ((now = mono_ns()) < end) {
		long long beat = __atomic_load_n(&k->beat, __ATOMIC_RELAXED);

		if (now - beat > stall)
			stall = now - beat;
		if (stall > KICK_STALL)
			break;
		sleep_ns(10 * MS);
	}
	ipi1 = cal_ipis(KICK_TARGET);
	__atomic_store_n(&k->stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < 2 * KICK_MOVERS; i++)
		pthread_join(mt[i], NULL);
	for (i = 0; i < 2 * KICK_SPINNERS; i++)
		pthread_join(st[i], NULL);
	pthread_join(ht, NULL);

	ASSERT_EQ(0, k->err) {
		TH_LOG("thread setup: %s", strerror(k->err));
	}
	for (i = 0; i < 2 * KICK_MOVERS; i++)
		flips += k->progress[i];
	TH_LOG("%lld mover rounds in %d s, %lld function-call IPIs to CPU %d; its longest "
	       "silence %.1f ms", flips, KICK_SECONDS, ipi1 - ipi0, KICK_TARGET, ms(stall));
	EXPECT_LE(stall, KICK_STALL) {
		TH_LOG("the thread on CPU %d did not run for %.1f ms (IPI handler stuck?)",
		       KICK_TARGET, ms(stall));
	}
	for (i = 0; i < 2 * KICK_MOVERS; i++) {
		EXPECT_LT(0, k->progress[i]) {
			TH_LOG("mover %d (tid %d) made no progress", i, k->mover[i]);
		}
	}
	free(k);
}

/* ------------------------------------------------------------------ */

int main(int argc, char **argv)
{
	char out[128];

	if (argc == 3 && !strcmp(argv[1], "--core-helper"))
		return umh_report(argv[2]);
	/* the release agent: argv[1] is the released cgroup */
	if (argc == 2 && !strncmp(argv[1], "/" UMH_CG ".", strlen(UMH_CG) + 2)) {
		umh_out_path(out, sizeof(out), argv[1] + 1);
		return umh_report(out);
	}
	if (argc == 7 && !strcmp(argv[1], "--exec-check"))
		return exec_check(argv);
	if (argc == 2 && !strcmp(argv[1], "--exec-suid-check"))
		return exec_suid_check();
	return test_harness_run(argc, argv);
}
