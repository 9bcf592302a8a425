// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART real-time behaviour with time constraints under stress.
 *
 *   stress       64 unpinned threads begin/end/replace/query random
 *                constraints for SMART_STRESS_SECONDS (default 30): only
 *                documented errors, and the kernel's met/missed/notification
 *                counters agree with what each thread saw
 */
#include <stdarg.h>
#include "../kselftest_harness.h"
#include "util.h"
#define RT_NO_FIXTURE	/* TEST(stress) sets itself up */
#include "rt.h"

static int stress_secs = 30;

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
			  query ? " QUERY" : "", smart_ms(c->deadline - before),
			  smart_ms(c->estimate), smart_ms(c->period), strerror(-r));
		return false;
	}
	if (c->status != smart_status_for(c))
		st_report(s, "begin: available %.3f ms estimate %.3f ms but status %s",
			  smart_ms(c->available), smart_ms(c->estimate),
			  smart_status_name(c->status));
	if ((long long)c->available > (long long)c->deadline - before)
		st_report(s, "begin: available %.3f ms > time to the deadline %.3f ms",
			  smart_ms(c->available), smart_ms(c->deadline - before));
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
					  smart_ms(c.deadline - after));
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
					  smart_ms(before - c.deadline));
		} else if (e.status == SMART_STATUS_MISSED) {
			s->end_missed++;
			if (after <= (long long)c.deadline)
				st_report(s, "end: MISSED though back %.3f ms before the deadline",
					  smart_ms(c.deadline - after));
		} else {
			st_report(s, "end: status %u", e.status);
		}
		if (!smart_used_ok(e.used, cpu_e0 - cpu_b1, cpu_e1 - cpu_b0))
			st_report(s, "end: used %.3f ms, thread CPU time from begin to end "
				  "%.3f..%.3f ms", smart_ms(e.used), smart_ms(cpu_e0 - cpu_b1),
				  smart_ms(cpu_e1 - cpu_b0));
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

/* TEST_HARNESS_MAIN, with the stress test's timeout from SMART_STRESS_SECONDS */
int main(int argc, char **argv)
{
	const char *env = getenv("SMART_STRESS_SECONDS");

	if (env && atoi(env) > 0)
		stress_secs = atoi(env);
	_stress_object.timeout = stress_secs + 90;
	return test_harness_run(argc, argv);
}
