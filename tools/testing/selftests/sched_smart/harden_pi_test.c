// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART and priority inheritance: a PI boost/de-boost keeps share,
 * priority and lag; a task that leaves SCHED_SMART while boosted leaves it
 * for good: its constraint ends without a notification, and it enters
 * again as a new task (eq. (3)), not with the lag it had.
 *
 * Every test SKIPs when the kernel has no SCHED_SMART.
 */
#include <semaphore.h>
#include "../kselftest_harness.h"
#include "util.h"
#include "harden.h"

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
	int leave_policy;	/* pi_leaver: the policy it takes while boosted */
	long notes;		/* pi_leaver: notifications it got */
};

/*
 * Pinned to PI_CPU beside the hog, SMART at PI_PRIO / PI_SHARE: sleep
 * past long_sleep_ns, run a little, take the PI mutex, sleep while the hog runs (so it falls
 * behind its share), and record its attributes in @x->a0.
 * Return: false (with @x->err, @x->what) if it could not.
 */
static bool pi_prologue(struct pi_ctx *x)
{
	int r;

	if (pin_to(0, PI_CPU)) {
		x->err = errno;
		x->what = "pin the holder";
		return false;
	}
	r = smart_set(0, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, PI_PRIO, PI_SHARE);
	if (r) {
		x->err = -r;
		x->what = "smart_setattr(prio 2, share 3000)";
		return false;
	}
	/* A long sleep first, so that the one below earns the sleep credit. */
	sleep_ns(smart_tunable("long_sleep_ns", DEF_LONG_SLEEP_NS) + MS);
	spin_cpu_ns(30 * MS);
	pthread_mutex_lock(&x->m);
	sleep_ns(50 * MS);
	smart_get(0, &x->a0);
	return true;
}

/* Let the SCHED_FIFO waiter block on the mutex; spin until boosted. */
static void pi_await_boost(struct pi_ctx *x, pid_t tid)
{
	long long end = mono_ns() + 200 * MS;

	sem_post(&x->go);
	while ((x->prio_boosted = stat_prio(tid)) >= 0 && mono_ns() < end)
		;
}

static void *pi_holder(void *arg)
{
	struct pi_ctx *x = arg;
	pid_t tid = sys_gettid();

	if (!pi_prologue(x))
		return NULL;
	x->prio0 = stat_prio(tid);
	pi_await_boost(x, tid);
	pthread_mutex_unlock(&x->m);
	smart_get(0, &x->a1);
	x->prio_after = stat_prio(tid);
	x->policy_after = sched_getscheduler(0);
	return NULL;
}

/*
 * Behind its share, with a notifying constraint, boosted: it leaves
 * SCHED_SMART, is de-boosted, sleeps past its deadline and enters SMART
 * again.
 */
static void *pi_leaver(void *arg)
{
	struct sched_param sp0 = { 0 }, sp1 = { .sched_priority = 1 };
	struct smart_constraint c;
	struct pi_ctx *x = arg;
	int r;

	if (smart_note_install(SMART_NOTE_SIG) || smart_set_signal(SMART_NOTE_SIG)) {
		x->err = errno ? errno : EINVAL;
		x->what = "notification signal";
		return NULL;
	}
	if (!pi_prologue(x))
		return NULL;
	smart_tc_init(&c, SMART_CONSTRAINT_NOTIFY, mono_ns() + 100 * MS, 20 * MS, 0, 7);
	if (smart_tc_begin(&c) < 0) {
		x->err = errno;
		x->what = "smart_constraint_begin";
		pthread_mutex_unlock(&x->m);
		return NULL;
	}
	pi_await_boost(x, sys_gettid());
	r = sched_setscheduler(0, x->leave_policy,
			       x->leave_policy == SCHED_FIFO ? &sp1 : &sp0);
	pthread_mutex_unlock(&x->m);
	x->policy_after = sched_getscheduler(0);
	if (r) {
		x->err = errno;
		x->what = "sched_setscheduler() while boosted";
		return NULL;
	}
	sleep_ns(150 * MS);	/* past the deadline */
	x->notes = smart_note_count();
	r = smart_set(0, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, PI_PRIO, PI_SHARE);
	if (r) {
		x->err = -r;
		x->what = "smart_setattr() to enter again";
		return NULL;
	}
	smart_get(0, &x->a1);
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

/*
 * A SMART hog of the holder's priority on PI_CPU, a SCHED_FIFO waiter
 * there, and @holder_fn on @x: run them and wait for the threads.
 */
static void pi_run(struct __test_metadata *_metadata, struct pi_ctx *x,
		   void *(*holder_fn)(void *))
{
	struct sched_param sp = { .sched_priority = PI_FIFO };
	pthread_mutexattr_t ma;
	pthread_t holder, waiter;
	pthread_attr_t fa;
	struct hog_set h;
	cpu_set_t cs;
	pid_t hog;
	int r;

	hogs_init(&h);
	if (online_cpus() >= 2)
		pin_to(0, 1);
	ASSERT_EQ(0, pthread_mutexattr_init(&ma));
	ASSERT_EQ(0, pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT));
	ASSERT_EQ(0, pthread_mutex_init(&x->m, &ma));
	ASSERT_EQ(0, sem_init(&x->go, 0, 0));

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
	r = pthread_create(&waiter, &fa, pi_waiter, x);
	ASSERT_EQ(0, r) {
		TH_LOG("SCHED_FIFO waiter: %s", strerror(r));
		hogs_kill(&h);
	}
	ASSERT_EQ(0, pthread_create(&holder, NULL, holder_fn, x));
	pthread_join(holder, NULL);
	if (!x->f_locked)
		sem_post(&x->go);
	pthread_join(waiter, NULL);
	hogs_kill(&h);
	ASSERT_EQ(0, x->err) {
		TH_LOG("holder setup: %s: %s", x->what, strerror(x->err));
	}
}

TEST(pi_leave_while_boosted)
{
	struct pi_ctx x = { 0 };

	REQUIRE_SMART();
	REQUIRE_ROOT();
	/* In all mode SCHED_OTHER is SMART too: leave for SCHED_FIFO there. */
	x.leave_policy = smart_mode() ? SCHED_FIFO : SCHED_OTHER;
	pi_run(_metadata, &x, pi_leaver);
	TH_LOG("boosted to /proc priority %d, left for policy %d (now %d); %ld notifications; "
	       "lag %.3f ms before, %.3f ms on entering again", x.prio_boosted,
	       x.leave_policy, x.policy_after, x.notes, smart_ms(x.a0.lag_ns),
	       smart_ms(x.a1.lag_ns));
	ASSERT_TRUE(x.prio_boosted < 0 && x.f_locked) {
		TH_LOG("setup: the holder was not boosted (priority %d, waiter locked %d)",
		       x.prio_boosted, x.f_locked);
	}
	ASSERT_GE(x.a0.lag_ns, 5 * MS) {
		TH_LOG("setup: the holder should be behind its share: lag %.3f ms",
		       smart_ms(x.a0.lag_ns));
	}
	EXPECT_EQ(x.leave_policy, x.policy_after);
	EXPECT_EQ(0, x.notes) {
		TH_LOG("a task that left SCHED_SMART was notified about its old constraint");
	}
	EXPECT_LE(x.a1.lag_ns < 0 ? -x.a1.lag_ns : x.a1.lag_ns, 2 * MS) {
		TH_LOG("entering SMART again: expected a new task's lag (0 +- 2 ms), got %.3f ms",
		       smart_ms(x.a1.lag_ns));
	}
	pthread_mutex_destroy(&x.m);
	sem_destroy(&x.go);
}

TEST(pi_deboost_keeps_state)
{
	struct pi_ctx x = { 0 };
	long long tol, dlag;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	pi_run(_metadata, &x, pi_holder);
	TH_LOG("holder: /proc stat priority %d -> %d while the FIFO waiter blocks -> %d",
	       x.prio0, x.prio_boosted, x.prio_after);
	TH_LOG("before: " ATTR_FMT " lag %.3f ms; after: " ATTR_FMT " lag %.3f ms, policy %d",
	       ATTR_ARG(x.a0), smart_ms(x.a0.lag_ns), ATTR_ARG(x.a1), smart_ms(x.a1.lag_ns),
	       x.policy_after);
	ASSERT_TRUE(x.prio0 >= 0 && x.prio_boosted < 0 && x.f_locked) {
		TH_LOG("setup: the holder was not boosted by the SCHED_FIFO waiter "
		       "(priority %d -> %d, waiter locked: %d)", x.prio0, x.prio_boosted,
		       x.f_locked);
	}
	ASSERT_GE(x.a0.lag_ns, 5 * MS) {
		TH_LOG("setup: the holder should be clearly behind its share after sleeping "
		       "50 ms beside a hog: lag %.3f ms", smart_ms(x.a0.lag_ns));
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
		       smart_ms(x.a0.lag_ns), smart_ms(tol), smart_ms(x.a1.lag_ns));
	}
	pthread_mutex_destroy(&x.m);
	sem_destroy(&x.go);
}

TEST_HARNESS_MAIN
