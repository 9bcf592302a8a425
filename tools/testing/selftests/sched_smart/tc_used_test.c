// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART time constraints (sched-smart.rst §4.3): what end reports,
 * used (the thread's own CPU time between begin and end, not wall time),
 * status and the constraint that ended.  used is checked against
 * CLOCK_THREAD_CPUTIME_ID: on every path the thread's run time is charged
 * by (quantum boundaries, preemption, sleeps, migration: used_exact) and
 * while it runs boosted out of SCHED_SMART by priority inheritance
 * (used_while_boosted).  scripts/test-all also runs these two on one vCPU.
 *
 * Everything that is timed runs pinned to CPU 0 so that "alone on a CPU"
 * means it (used_exact's "spread" variant excepted); every test SKIPs when
 * the kernel has no SCHED_SMART.
 */
#include <semaphore.h>
#include "../kselftest_harness.h"
#include "util.h"
#include "tc.h"

static long long min_ll(long long a, long long b)
{
	return a < b ? a : b;
}

TEST(used_and_status)
{
	struct smart_constraint c, e;
	struct smart_counts b, a;
	long long c0, c0b, c1a, c1;
	int r;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	SETUP_SELF();
	b = smart_counts_self();

	/* spin 20 ms */
	smart_tc_init(&c, 0, mono_ns() + 500 * MS, 25 * MS, 0, COOKIE);
	c0 = thread_cpu_ns();
	r = smart_tc_begin(&c);
	c0b = thread_cpu_ns();
	ASSERT_EQ(0, r);
	spin_cpu_ns(20 * MS);
	e = c;
	c1a = thread_cpu_ns();
	r = smart_tc_end(&e);
	c1 = thread_cpu_ns();
	ASSERT_EQ(0, r) {
		TH_LOG("end: %s", strerror(-r));
	}
	TH_LOG("spin 20 ms: used %.3f ms, CLOCK_THREAD_CPUTIME_ID %.3f ms between the calls, "
	       "%.3f ms including them, status %s", smart_ms(e.used), smart_ms(c1a - c0b),
	       smart_ms(c1 - c0), smart_status_name(e.status));
	EXPECT_TRUE(smart_used_ok(e.used, c1a - c0b, c1 - c0)) {
		TH_LOG("used %.3f ms vs thread CPU time %.3f..%.3f ms: off by more than 2 ms + 5%%",
		       smart_ms(e.used), smart_ms(c1a - c0b), smart_ms(c1 - c0));
	}
	EXPECT_EQ((__u32)SMART_STATUS_MET, e.status);
	EXPECT_EQ(c.flags, e.flags);
	EXPECT_EQ(c.deadline, e.deadline);
	EXPECT_EQ(c.estimate, e.estimate);
	EXPECT_EQ(c.period, e.period);
	EXPECT_EQ(c.cookie, e.cookie);

	/* spin 5, sleep 30, spin 5: used is CPU time, not wall time */
	smart_tc_init(&c, SMART_CONSTRAINT_NOTIFY, mono_ns() + 500 * MS, 20 * MS, 40 * MS,
		      COOKIE + 1);
	c0 = thread_cpu_ns();
	r = smart_tc_begin(&c);
	c0b = thread_cpu_ns();
	ASSERT_EQ(0, r);
	spin_cpu_ns(5 * MS);
	sleep_ns(30 * MS);
	spin_cpu_ns(5 * MS);
	memset(&e, 0, sizeof(e));
	e.size = sizeof(e);
	c1a = thread_cpu_ns();
	r = smart_tc_end(&e);
	c1 = thread_cpu_ns();
	ASSERT_EQ(0, r) {
		TH_LOG("end: %s", strerror(-r));
	}
	TH_LOG("spin 5 + sleep 30 + spin 5 ms: used %.3f ms, CLOCK_THREAD_CPUTIME_ID %.3f ms "
	       "between the calls, %.3f ms including them, status %s", smart_ms(e.used),
	       smart_ms(c1a - c0b), smart_ms(c1 - c0), smart_status_name(e.status));
	EXPECT_TRUE(smart_used_ok(e.used, c1a - c0b, c1 - c0)) {
		TH_LOG("used %.3f ms vs thread CPU time %.3f..%.3f ms: off by more than 2 ms + 5%%",
		       smart_ms(e.used), smart_ms(c1a - c0b), smart_ms(c1 - c0));
	}
	EXPECT_EQ((__u32)SMART_STATUS_MET, e.status);
	/* end fills in the constraint that ended, from a zeroed struct */
	EXPECT_EQ((__u32)SMART_CONSTRAINT_NOTIFY, e.flags);
	EXPECT_EQ(c.deadline, e.deadline);
	EXPECT_EQ(c.estimate, e.estimate);
	EXPECT_EQ(c.period, e.period);
	EXPECT_EQ(c.cookie, e.cookie);

	a = smart_counts_self();
	EXPECT_COUNTS(b, a, 2, 0, 0);
}

/*
 * used counts exactly the thread's own CPU time between begin and end,
 * on every path its run time is charged by: a quantum boundary just
 * before begin (it spins 0.5 to 9.5 ms first, so its quantum ends at
 * any point of the constraint), a preemption by a hog of its policy,
 * five short sleeps (dequeue, the switch after it, a wake-up on any CPU),
 * and the end.  Checked on every one of ITERS constraints against
 * CLOCK_THREAD_CPUTIME_ID within 0.5 ms: at least the time between the
 * calls, at most the time including them.  "pinned": the thread and two
 * hogs share CPU 0 (one CPU's worth); "spread": nothing pinned, so the
 * thread also wakes and is pulled across CPUs.
 */
#define USED_EXACT_ITERS	150
#define USED_EXACT_TOL		(MS / 2)

FIXTURE(used_exact) {
	struct hog_set h;
};

FIXTURE_VARIANT(used_exact) {
	bool pinned;
};

FIXTURE_VARIANT_ADD(used_exact, pinned) {
	.pinned = true,
};

FIXTURE_VARIANT_ADD(used_exact, spread) {
	.pinned = false,
};

FIXTURE_SETUP(used_exact)
{
	unsigned long mask = variant->pinned ? 1UL << CPU_T : 0;
	int i, r;

	hogs_init(&self->h);
	REQUIRE_SMART();
	REQUIRE_ROOT();
	SETUP_SELF();
	ASSERT_EQ(0, pin_mask(0, mask));
	for (i = 0; i < 2; i++) {
		pid_t pid = hog_spawn(&self->h, mask, hog_spin_forever, NULL);

		ASSERT_GT(pid, 0);
		r = smart_set(pid, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, 0, 1024);
		ASSERT_EQ(0, r) {
			TH_LOG("hog %d: smart_setattr: %s", pid, strerror(-r));
		}
	}
	ASSERT_EQ(0, smart_set(0, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, 0, 1024));
	hogs_go(&self->h);
}

FIXTURE_TEARDOWN_PARENT(used_exact)
{
	hogs_kill(&self->h);
}

TEST_F(used_exact, every_constraint)
{
	long long c0, c0b, c1a, c1, inner, outer;
	long long lo = LLONG_MAX, hi = LLONG_MAX;
	struct smart_constraint c, e;
	int i, k, r, bad = 0;

	for (i = 0; i < USED_EXACT_ITERS; i++) {
		/* 0.5 .. 9.5 ms in 37 steps: the quantum ends anywhere */
		spin_cpu_ns(MS / 2 + (i * 37 % 91) * MS / 10);
		smart_tc_init(&c, 0, mono_ns() + 200 * MS, 10 * MS, 0, COOKIE);
		c0 = thread_cpu_ns();
		r = smart_tc_begin(&c);
		c0b = thread_cpu_ns();
		ASSERT_EQ(0, r) {
			TH_LOG("begin %d: %s", i, strerror(-r));
		}
		spin_cpu_ns(2 * MS);
		for (k = 0; k < 5; k++) {
			sleep_ns(MS / 20);
			spin_cpu_ns(MS / 5);
		}
		e = c;
		c1a = thread_cpu_ns();
		r = smart_tc_end(&e);
		c1 = thread_cpu_ns();
		ASSERT_EQ(0, r) {
			TH_LOG("end %d: %s", i, strerror(-r));
		}
		inner = c1a - c0b;
		outer = c1 - c0;
		if ((long long)e.used < inner - USED_EXACT_TOL ||
		    (long long)e.used > outer + USED_EXACT_TOL) {
			if (bad++ < 5)
				TH_LOG("constraint %d: used %.3f ms, thread CPU time %.3f ms "
				       "between the calls, %.3f ms including them", i,
				       smart_ms(e.used), smart_ms(inner), smart_ms(outer));
		}
		lo = min_ll(lo, (long long)e.used - inner);
		hi = min_ll(hi, outer - (long long)e.used);
	}
	TH_LOG("%s mode, %s: %d of %d constraints off by more than %.1f ms; smallest "
	       "margins: used minus the time between the calls %.3f ms, the time "
	       "including them minus used %.3f ms", smart_mode_name(),
	       variant->pinned ? "pinned with 2 hogs" : "spread with 2 hogs", bad,
	       USED_EXACT_ITERS, smart_ms(USED_EXACT_TOL), smart_ms(lo), smart_ms(hi));
	EXPECT_EQ(0, bad);
}

/* the kernel priority of the calling thread (/proc stat field 18): < 0 for RT */
static int thread_prio(void)
{
	char buf[512], *p;
	int fd, i, prio = INT_MAX;
	ssize_t n;

	fd = open("/proc/thread-self/stat", O_RDONLY);
	if (fd < 0)
		return prio;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return prio;
	buf[n] = 0;
	p = strrchr(buf, ')');
	for (i = 0; p && i < 16; i++)
		p = strchr(p + 1, ' ');
	if (p)
		prio = atoi(p + 1);
	return prio;
}

struct pi_waiter {
	pthread_mutex_t *m;
	sem_t go;
};

static void *pi_waiter_fn(void *arg)
{
	struct pi_waiter *w = arg;

	sem_wait(&w->go);
	pthread_mutex_lock(w->m);
	pthread_mutex_unlock(w->m);
	return NULL;
}

/*
 * A thread under a constraint holds a priority-inheritance mutex that a
 * SCHED_FIFO thread waits for: it runs boosted, out of SCHED_SMART, and
 * that CPU time is still its own and the constraint's.
 */
TEST(used_while_boosted)
{
	long long c0, c0b, c1a, c1, inner, outer;
	long long lo = LLONG_MAX, hi = LLONG_MAX;
	struct sched_param sp = { .sched_priority = 10 };
	struct smart_constraint c, e;
	pthread_mutexattr_t ma;
	pthread_mutex_t m;
	pthread_attr_t ta;
	int i, r, prio, bad = 0;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	SETUP_SELF();
	ASSERT_EQ(0, pthread_mutexattr_init(&ma));
	ASSERT_EQ(0, pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT));
	ASSERT_EQ(0, pthread_mutex_init(&m, &ma));
	ASSERT_EQ(0, pthread_attr_init(&ta));
	ASSERT_EQ(0, pthread_attr_setinheritsched(&ta, PTHREAD_EXPLICIT_SCHED));
	ASSERT_EQ(0, pthread_attr_setschedpolicy(&ta, SCHED_FIFO));
	ASSERT_EQ(0, pthread_attr_setschedparam(&ta, &sp));

	for (i = 0; i < 20; i++) {
		struct pi_waiter w = { .m = &m };
		pthread_t th;
		long long end;

		ASSERT_EQ(0, sem_init(&w.go, 0, 0));
		ASSERT_EQ(0, pthread_mutex_lock(&m));
		ASSERT_EQ(0, pthread_create(&th, &ta, pi_waiter_fn, &w));
		smart_tc_init(&c, 0, mono_ns() + 200 * MS, 10 * MS, 0, COOKIE);
		c0 = thread_cpu_ns();
		r = smart_tc_begin(&c);
		c0b = thread_cpu_ns();
		ASSERT_EQ(0, r);
		sem_post(&w.go);
		end = mono_ns() + NSEC_PER_SEC;
		while ((prio = thread_prio()) >= 0 && mono_ns() < end)
			;
		spin_cpu_ns(3 * MS);
		pthread_mutex_unlock(&m);
		spin_cpu_ns(MS);
		e = c;
		c1a = thread_cpu_ns();
		r = smart_tc_end(&e);
		c1 = thread_cpu_ns();
		pthread_join(th, NULL);
		sem_destroy(&w.go);
		ASSERT_EQ(0, r);
		ASSERT_LT(prio, 0) {
			TH_LOG("the SCHED_FIFO waiter did not boost the holder (prio %d)", prio);
		}
		inner = c1a - c0b;
		outer = c1 - c0;
		if ((long long)e.used < inner - USED_EXACT_TOL ||
		    (long long)e.used > outer + USED_EXACT_TOL) {
			if (bad++ < 5)
				TH_LOG("constraint %d, boosted 3 of 4 ms: used %.3f ms, thread CPU "
				       "time %.3f ms between the calls, %.3f ms including them",
				       i, smart_ms(e.used), smart_ms(inner), smart_ms(outer));
		}
		lo = min_ll(lo, (long long)e.used - inner);
		hi = min_ll(hi, outer - (long long)e.used);
	}
	pthread_mutex_destroy(&m);
	TH_LOG("%s mode: %d of 20 constraints off by more than %.1f ms; smallest margins: "
	       "used minus the time between the calls %.3f ms, the time including them "
	       "minus used %.3f ms", smart_mode_name(), bad, smart_ms(USED_EXACT_TOL), smart_ms(lo),
	       smart_ms(hi));
	EXPECT_EQ(0, bad);
}

TEST_HARNESS_MAIN
