// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART real-time behaviour with time constraints, measured:
 * resolution_ns, latest start times are honoured.  The task is a thread
 * pinned to CPU 0 with its hog (see rt.h).
 *
 *   resolution   a constrained task waking among a hog starts within
 *                resolution_ns + 0.5 ms of its latest start time (p99; jobs
 *                that waited through a host stall of the vCPU are left out,
 *                and a run over the limit is repeated once)
 */
#include "../kselftest_harness.h"
#include "util.h"
#include "rt.h"

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

	t->err = rt_enter_smart(0, 1024);
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
		       "after it, end %s", k, smart_ms(t->began[k]),
		       t->begin_r[k] ? strerror(-t->begin_r[k]) : "ok",
		       smart_status_name(t->status[k]), smart_ms(t->wake[k]),
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
	       "%d MET, %d expired", n, smart_ms(res), smart_ms(pct_ll(wake, n, 50)),
	       smart_ms(pct_ll(wake, n, 99)), smart_ms(wake[n - 1]), smart_ms(p99),
	       smart_ms(res + MS / 2), t->met, t->expired);
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
			TH_LOG("p99 %.3f ms over the limit: once more", smart_ms(p99));
	}
	if (p99 == RES_STALLED) {
		munmap(st, sizeof(*st));
		free(t);
		SKIP(return, "the host stopped the vCPU during more than %d of %d jobs",
		     RES_JOBS / 10, RES_JOBS);
	}
	EXPECT_LE(p99, res + MS / 2) {
		TH_LOG("p99 lateness %.3f ms past the latest start time in two runs, expected "
		       "<= resolution_ns + 0.5 ms = %.3f ms", smart_ms(p99),
		       smart_ms(res + MS / 2));
	}
	munmap(st, sizeof(*st));
	free(t);
}

TEST_HARNESS_MAIN
