// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART behaviour on one CPU (everything under test pinned to CPU 0;
 * the measuring process sits on CPU 1 when there is one, as SCHED_FIFO so
 * it samples on time).  Each test measures CPU time per task with the
 * tasks' CPU clocks (sum_exec_runtime), never wall time, and asserts with a
 * tolerance a broken scheduler would exceed:
 *
 *   shares_1_1_2        proportional share within a priority (paper §4.2)
 *   strict_priority     a higher priority always wins (paper §3.2)
 *   sleep_credit        a long sleeper gets at most sleep_credit_ns of
 *                       catch-up (paper §3.3), and is not starved
 *   lead_after_sleeper  a hog that ran 8 s beside a task waking every 200 ms
 *                       for 0.1 ms (a kworker) gets its half, less two
 *                       credits and a quantum, of the 2 s after a second
 *                       hog joins: the sleeper's share slowed V_P, and the
 *                       hog kept the lead it made (2 s: it got nothing)
 *   interactive_latency a 10% sleeper among hogs is run promptly
 *   optin_fair_bandwidth  opt-in mode: fair tasks keep the fair server's 5%
 *   all_mode_normal_task  all mode: a SCHED_NORMAL task is one more SMART
 *                       task of its nice's share
 *   quantum_end         a task that joins a running one without preempting
 *                       it (a fork child) runs when the quantum ends, not
 *                       at the next tick (1 ms resolution whatever HZ)
 */
#include "../kselftest_harness.h"
#include "util.h"

#define CPU0 1UL	/* affinity mask of CPU 0 */

FIXTURE(cpu0) {
	struct hog_set h;
	long long quantum, credit;
	bool quantum_changed;
};

FIXTURE_SETUP(cpu0)
{
	self->quantum_changed = false;
	hogs_init(&self->h);
	REQUIRE_SMART();
	REQUIRE_ROOT();
	self->quantum = smart_tunable("quantum_ns", DEF_QUANTUM_NS);
	self->credit = smart_tunable("sleep_credit_ns", DEF_SLEEP_CREDIT_NS);
	TH_LOG("mode %s, %d CPUs, quantum %lld ns, sleep credit %lld ns",
	       smart_mode_name(), online_cpus(), self->quantum, self->credit);
	controller_setup(controller_cpu());
}

FIXTURE_TEARDOWN_PARENT(cpu0)
{
	char v[32];

	hogs_kill(&self->h);
	snprintf(v, sizeof(v), "%lld\n", self->quantum);
	if (self->quantum_changed && write_str(SMART_SYSCTL_DIR "quantum_ns", v))
		TH_LOG("could not restore quantum_ns to %lld", self->quantum);
}

/* spawn a hog on CPU 0 and make it SMART with (prio, share) */
static pid_t smart_hog(struct __test_metadata *_metadata, struct hog_set *h,
		       hog_body_t body, void *arg, int prio, unsigned int share)
{
	pid_t pid = hog_spawn(h, CPU0, body ? body : hog_spin_forever, arg);
	int r;

	ASSERT_GT(pid, 0) {
		TH_LOG("hog_spawn: %s", strerror(errno));
	}
	r = smart_set(pid, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, prio, share);
	ASSERT_EQ(0, r) {
		TH_LOG("smart_setattr(hog %d, prio %d share %u): %s", pid, prio,
		       share, strerror(-r));
	}
	ASSERT_EQ(SCHED_SMART, sched_getscheduler(pid));
	return pid;
}

/* ------------------------------------------------------------------ */

TEST_F(cpu0, shares_1_1_2)
{
	static const unsigned int share[3] = { 1024, 1024, 2048 };
	long long total = 0, wall;
	int i;

	for (i = 0; i < 3; i++)
		smart_hog(_metadata, &self->h, NULL, NULL, 0, share[i]);
	hogs_go(&self->h);
	sleep_ns(300 * NSEC_PER_MSEC);
	/*
	 * 4 s, not 2: the bias (eq. 4, b/S) lets the share-2048 hog run
	 * ahead by ~55 ms of CPU while the biases ramp up to bias_max_ns
	 * (the paper's Figure 1 shows the same); that transient is 2.75%
	 * of 2 s of ideal CPU at 4 s, 5.5% at 2 s.
	 */
	hogs_measure(&self->h, 4 * NSEC_PER_SEC);
	wall = self->h.t1 - self->h.t0;

	for (i = 0; i < 3; i++)
		total += hog_delta(&self->h, i);
	TH_LOG("window %.1f ms, CPU 0 busy with hogs %.1f ms", smart_ms(wall), smart_ms(total));
	ASSERT_GT(total, wall / 2) {
		TH_LOG("CPU 0 mostly idle with 3 runnable hogs: %.1f of %.1f ms",
		       smart_ms(total), smart_ms(wall));
	}
	for (i = 0; i < 3; i++) {
		double ideal = share[i] / 4096.0;
		double got = (double)hog_delta(&self->h, i) / total;

		TH_LOG("hog %d share %u: %.1f ms = %.2f%% (ideal %.2f%%, error %+.1f%%)",
		       i, share[i], smart_ms(hog_delta(&self->h, i)), 100 * got,
		       100 * ideal, 100 * (got / ideal - 1));
		EXPECT_TRUE(got / ideal - 1 <= 0.05 && got / ideal - 1 >= -0.05) {
			TH_LOG("hog %d: expected %.1f%% +-5%% (relative) of CPU 0, got %.2f%%",
			       i, 100 * ideal, 100 * got);
		}
	}
}

TEST_F(cpu0, strict_priority)
{
	long long hi, lo, wall;

	smart_hog(_metadata, &self->h, NULL, NULL, 1, 1024);
	smart_hog(_metadata, &self->h, NULL, NULL, 0, 1024);
	hogs_go(&self->h);
	sleep_ns(200 * NSEC_PER_MSEC);
	hogs_measure(&self->h, 2 * NSEC_PER_SEC);
	wall = self->h.t1 - self->h.t0;
	hi = hog_delta(&self->h, 0);
	lo = hog_delta(&self->h, 1);

	TH_LOG("window %.1f ms: priority 1 hog %.1f ms, priority 0 hog %.1f ms (%.3f%%)",
	       smart_ms(wall), smart_ms(hi), smart_ms(lo), 100.0 * lo / wall);
	EXPECT_LT(lo * 100, wall) {
		TH_LOG("priority 0 hog: expected < 1%% of the window, got %.3f%%",
		       100.0 * lo / wall);
	}
	EXPECT_GT(hi * 2, wall) {
		TH_LOG("priority 1 hog: expected most of CPU 0, got %.1f%%",
		       100.0 * hi / wall);
	}
}

/* ------------------------------------------------------------------ */

struct sleeper_arg {
	long long run_until;	/* spin (wall) until, then sleep */
	long long wake_at;	/* absolute CLOCK_MONOTONIC */
};

static void sleeper_body(void *p)
{
	struct sleeper_arg *a = p;

	while (mono_ns() < a->run_until)
		;
	sleep_until_ns(a->wake_at);
	hog_spin_forever(NULL);
}

TEST_F(cpu0, sleep_credit)
{
	struct sleeper_arg *arg = shared_alloc(sizeof(*arg));
	long long s, total = 0, fair, extra, limit;
	int i;

	ASSERT_NE(NULL, arg);
	smart_hog(_metadata, &self->h, NULL, NULL, 0, 1024);
	smart_hog(_metadata, &self->h, NULL, NULL, 0, 1024);
	smart_hog(_metadata, &self->h, sleeper_body, arg, 0, 1024);

	/* run 0.5 s with the others, sleep 5 s, then hog */
	arg->run_until = mono_ns() + 500 * NSEC_PER_MSEC;
	arg->wake_at = arg->run_until + 5 * NSEC_PER_SEC;
	hogs_go(&self->h);

	sleep_until_ns(arg->wake_at);
	self->h.t0 = hogs_sample(&self->h, self->h.cpu0);
	sleep_until_ns(arg->wake_at + NSEC_PER_SEC);
	self->h.t1 = hogs_sample(&self->h, self->h.cpu1);

	for (i = 0; i < 3; i++)
		total += hog_delta(&self->h, i);
	s = hog_delta(&self->h, 2);
	fair = total / 3;
	extra = s - fair;
	limit = self->credit + self->quantum;
	TH_LOG("1 s after a 5 s sleep: sleeper %.1f ms, hogs %.1f / %.1f ms, fair %.1f ms, "
	       "extra %+.1f ms (limit %.1f ms)", smart_ms(s), smart_ms(hog_delta(&self->h, 0)),
	       smart_ms(hog_delta(&self->h, 1)), smart_ms(fair), smart_ms(extra), smart_ms(limit));
	EXPECT_LE(extra, limit) {
		TH_LOG("sleeper got %.1f ms beyond its fair %.1f ms: catch-up for the sleep "
		       "must be at most sleep_credit_ns + quantum_ns = %.1f ms",
		       smart_ms(extra), smart_ms(fair), smart_ms(limit));
	}
	EXPECT_GE(s * 2, fair) {
		TH_LOG("sleeper starved after waking: %.1f ms, expected at least half of its "
		       "fair %.1f ms", smart_ms(s), smart_ms(fair));
	}
}

/* wakes every 200 ms to run 0.1 ms of CPU, as a kworker does */
static void ticker_body(void *p)
{
	long long next = mono_ns();

	for (;;) {
		next += 200 * NSEC_PER_MSEC;
		sleep_until_ns(next);
		spin_cpu_ns(NSEC_PER_MSEC / 10);
	}
}

TEST_F_TIMEOUT(cpu0, lead_after_sleeper, 60)
{
	struct sleeper_arg *arg = shared_alloc(sizeof(*arg));
	long long old, late, fair, limit;

	ASSERT_NE(NULL, arg);
	smart_hog(_metadata, &self->h, NULL, NULL, 0, 1024);
	smart_hog(_metadata, &self->h, ticker_body, NULL, 0, 1024);
	smart_hog(_metadata, &self->h, sleeper_body, arg, 0, 1024);

	/* hog 0 with the ticker for 8 s, then hog 2 too */
	arg->run_until = 0;
	arg->wake_at = mono_ns() + 8 * NSEC_PER_SEC;
	hogs_go(&self->h);

	sleep_until_ns(arg->wake_at);
	self->h.t0 = hogs_sample(&self->h, self->h.cpu0);
	sleep_until_ns(arg->wake_at + 2 * NSEC_PER_SEC);
	self->h.t1 = hogs_sample(&self->h, self->h.cpu1);

	old = hog_delta(&self->h, 0);
	late = hog_delta(&self->h, 2);
	fair = (old + late) / 2;
	/* the late one's credit and the old one's lead, each at most one credit */
	limit = 2 * self->credit + self->quantum;
	TH_LOG("2 s after a hog joined one that ran 8 s beside a ticker: old %.1f ms, "
	       "new %.1f ms, ticker %.1f ms (fair %.1f ms, limit -%.1f ms)", smart_ms(old),
	       smart_ms(late), smart_ms(hog_delta(&self->h, 1)), smart_ms(fair), smart_ms(limit));
	EXPECT_GE(old, fair - limit) {
		TH_LOG("the old hog got %.1f ms of its fair %.1f ms: it ran ahead of V_P "
		       "while the ticker slept on the queue", smart_ms(old), smart_ms(fair));
	}
}

/* ------------------------------------------------------------------ */

#define IA_MAX 4096

struct ia_shared {
	long long start_at, end_at;
	int n;
	long long lat[IA_MAX];
};

/* sleep ~9 ms, run ~1 ms of CPU, record wake-up latency */
static void interactive_body(void *p)
{
	struct ia_shared *s = p;
	long long next, now;

	for (;;) {
		next = mono_ns() + 9 * NSEC_PER_MSEC;
		sleep_until_ns(next);
		now = mono_ns();
		if (now > s->end_at)
			break;
		if (next >= s->start_at && s->n < IA_MAX)
			s->lat[s->n++] = now - next;
		spin_cpu_ns(NSEC_PER_MSEC);
	}
	_exit(0);
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

TEST_F(cpu0, interactive_latency)
{
	struct ia_shared *s = shared_alloc(sizeof(*s));
	long long p50, p99, max, deadline;
	pid_t ia;
	int st = 0, i, reaped = 0;

	/*
	 * A stolen clock charges the sleeper for the host's stalls, and one
	 * charged more than its share waits its turn, a quantum or two.
	 */
	REQUIRE_OWN_CLOCK();
	ASSERT_NE(NULL, s);
	for (i = 0; i < 3; i++)
		smart_hog(_metadata, &self->h, NULL, NULL, 0, 1024);
	ia = smart_hog(_metadata, &self->h, interactive_body, s, 0, 1024);

	s->start_at = mono_ns() + 300 * NSEC_PER_MSEC;
	s->end_at = s->start_at + 3 * NSEC_PER_SEC;
	hogs_go(&self->h);
	sleep_until_ns(s->end_at);

	/* it exits by itself shortly after end_at unless starved */
	deadline = mono_ns() + 5 * NSEC_PER_SEC;
	while (!reaped && mono_ns() < deadline) {
		reaped = waitpid(ia, &st, WNOHANG) == ia;
		if (!reaped)
			sleep_ns(10 * NSEC_PER_MSEC);
	}
	for (i = 0; i < self->h.n; i++)
		if (self->h.pid[i] == ia)
			self->h.pid[i] = -1;	/* reaped or to be killed here */
	if (!reaped) {
		kill(ia, SIGKILL);
		waitpid(ia, NULL, 0);
	}
	ASSERT_TRUE(reaped && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
		TH_LOG("interactive task did not finish cleanly within 5 s of its end "
		       "(reaped %d, status %#x)", reaped, st);
	}
	ASSERT_GE(s->n, 100) {
		TH_LOG("only %d wake-ups in 3 s (expected ~300)", s->n);
	}

	qsort(s->lat, s->n, sizeof(s->lat[0]), cmp_ll);
	p50 = s->lat[s->n / 2];
	p99 = s->lat[(s->n * 99) / 100];
	max = s->lat[s->n - 1];
	TH_LOG("%d wake-ups: latency p50 %.3f ms, p99 %.3f ms, max %.3f ms (limit p99 < %.1f ms)",
	       s->n, smart_ms(p50), smart_ms(p99), smart_ms(max), smart_ms(2 * self->quantum));
	EXPECT_LT(p99, 2 * self->quantum) {
		TH_LOG("p99 wake-up latency %.3f ms, expected < 2 x quantum_ns = %.1f ms",
		       smart_ms(p99), smart_ms(2 * self->quantum));
	}
}

/* ------------------------------------------------------------------ */

/* a SCHED_NORMAL hog and two SMART hogs on CPU 0 */
static void normal_plus_two_smart(struct __test_metadata *_metadata,
				  struct hog_set *h, long long window)
{
	pid_t normal = hog_spawn(h, CPU0, hog_spin_forever, NULL);

	ASSERT_GT(normal, 0);
	ASSERT_EQ(SCHED_OTHER, sched_getscheduler(normal));
	smart_hog(_metadata, h, NULL, NULL, 0, 1024);
	smart_hog(_metadata, h, NULL, NULL, 0, 1024);
	hogs_go(h);
	sleep_ns(300 * NSEC_PER_MSEC);
	hogs_measure(h, window);
	TH_LOG("window %.1f ms: SCHED_NORMAL hog %.1f ms, SMART hogs %.1f / %.1f ms",
	       smart_ms(h->t1 - h->t0), smart_ms(hog_delta(h, 0)), smart_ms(hog_delta(h, 1)),
	       smart_ms(hog_delta(h, 2)));
}

TEST_F(cpu0, optin_fair_bandwidth)
{
	long long wall, n;

	if (smart_mode() != 0)
		SKIP(return, "opt-in mode only (mode is %s)", smart_mode_name());
	normal_plus_two_smart(_metadata, &self->h, 3 * NSEC_PER_SEC);
	wall = self->h.t1 - self->h.t0;
	n = hog_delta(&self->h, 0);
	EXPECT_GE(n * 100, wall * 4) {
		TH_LOG("SCHED_NORMAL hog under 2 SMART hogs: expected >= 4%% of CPU 0 "
		       "(fair server 5%%), got %.2f%%", 100.0 * n / wall);
	}
}

TEST_F(cpu0, all_mode_normal_task)
{
	long long total = 0;
	int i;

	if (smart_mode() != 1)
		SKIP(return, "sched_smart=all mode only (mode is %s)", smart_mode_name());
	normal_plus_two_smart(_metadata, &self->h, 2 * NSEC_PER_SEC);
	for (i = 0; i < 3; i++)
		total += hog_delta(&self->h, i);
	for (i = 0; i < 3; i++) {
		double got = 3.0 * hog_delta(&self->h, i) / total;

		EXPECT_TRUE(got - 1 <= 0.10 && got - 1 >= -0.10) {
			TH_LOG("%s hog %d: expected 1/3 +-10%% (relative) of CPU 0, got %.2f%%",
			       i ? "SMART" : "SCHED_NORMAL", i, 100.0 * got / 3);
		}
	}
}

/* ------------------------------------------------------------------ */

#define QE_ROUNDS	20
#define QE_QUANTUM_NS	(4 * NSEC_PER_MSEC)
/*
 * Children that may start late for another reason: a fair task the fair
 * server runs ahead of SMART in opt-in mode, a kernel thread woken on
 * CPU 0.  Waiting for the tick made 10 to 13 of 20 late, by up to 7.8 ms
 * (HZ=100, -icount, both modes); with the timer none was.
 */
#define QE_LATE_MAX	2

struct qe_shared {
	int n;
	long long forked[QE_ROUNDS];
	volatile long long started[QE_ROUNDS];
};

/*
 * Wake with a fresh quantum and no bias, run an eighth of it, fork: the
 * child joins at the queue's virtual time (eq. (3)), later than this
 * task's finishing time, so it waits for the quantum to end.
 */
static void quantum_end_body(void *p)
{
	struct qe_shared *s = p;
	long long end;
	pid_t c;
	int i;

	for (i = 0; i < QE_ROUNDS; i++) {
		sleep_ns(20 * NSEC_PER_MSEC);
		spin_cpu_ns(QE_QUANTUM_NS / 8);
		c = fork();
		if (c == 0) {
			s->started[i] = mono_ns();
			_exit(0);
		}
		s->forked[i] = mono_ns();
		if (c < 0)
			_exit(1);
		/* Run on until the child has run (or 100 ms have passed). */
		end = s->forked[i] + 100 * NSEC_PER_MSEC;
		while (!s->started[i] && mono_ns() < end)
			;
		waitpid(c, NULL, 0);
		s->n = i + 1;
	}
	_exit(0);
}

TEST_F(cpu0, quantum_end)
{
	struct qe_shared *s = shared_alloc(sizeof(*s));
	long long limit = QE_QUANTUM_NS + 2 * DEF_RESOLUTION_NS, d, max = 0;
	char v[32];
	int i, late = 0;
	pid_t pid;

	/* A host stall in the quantum is charged to the task: it ends early. */
	REQUIRE_OWN_CLOCK();
	ASSERT_NE(NULL, s);
	snprintf(v, sizeof(v), "%lld\n", (long long)QE_QUANTUM_NS);
	ASSERT_EQ(0, write_str(SMART_SYSCTL_DIR "quantum_ns", v));
	self->quantum_changed = true;
	pid = smart_hog(_metadata, &self->h, quantum_end_body, s, 0, 1024);
	hogs_go(&self->h);
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	for (i = 0; i < self->h.n; i++)
		self->h.pid[i] = -1;	/* reaped */
	ASSERT_EQ(QE_ROUNDS, s->n);
	for (i = 0; i < QE_ROUNDS; i++) {
		d = s->started[i] - s->forked[i];
		max = d > max ? d : max;
		late += d > limit;
	}
	TH_LOG("%d forks: the child ran at most %.2f ms after the fork returned "
	       "(quantum %.1f ms, limit %.1f ms), %d later", QE_ROUNDS, smart_ms(max),
	       smart_ms(QE_QUANTUM_NS), smart_ms(limit), late);
	EXPECT_LE(late, QE_LATE_MAX) {
		TH_LOG("%d of %d children waited past the quantum's end plus 2 ms "
		       "(for the tick?)", late, QE_ROUNDS);
	}
}

TEST_HARNESS_MAIN
