// SPDX-License-Identifier: GPL-2.0
/*
 * The measurement shared by the abuse_*_test.c selftests (declared in
 * abuse.h): the victim, what every attacker does around its trick, and
 * the measurement of the victim/attacker split of CPU 0.
 */
#include <stdarg.h>
#include "util.h"
#include "abuse.h"

void abuse_add(long long *v, long long n)
{
	__atomic_fetch_add(v, n, __ATOMIC_RELAXED);
}

/* Count a call that did what it must not; keep the first message. */
void __attribute__((format(printf, 2, 3)))
abuse_bad(struct abuse *s, const char *fmt, ...)
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

const char *abuse_err_name(int r)
{
	return r ? strerror(-r) : "success";
}

/*
 * In the victim or attacker, released by hogs_go(): become uid 65534
 * without capabilities (and RLIMIT_NICE 0, so nice can only go up), and
 * check the policy, priority and share the test set up.
 */
void abuse_enter_unprivileged(struct abuse *s, int who)
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
 * also stamps @beat: CPU 0 is running (see abuse_measure()).
 */
#define STALL_NS	(2 * MS)
#define BIG_STALL_NS	(20 * MS)

void abuse_spin(struct abuse *s, int who, long long ns)
{
	long long prev = thread_cpu_ns(), end = prev + ns, now;

	while ((now = thread_cpu_ns()) < end) {
		if (now - prev >= STALL_NS)
			abuse_add(&s->stall[who], now - prev);
		if (now - prev >= BIG_STALL_NS)
			__atomic_store_n(&s->big_stall_at, mono_ns(), __ATOMIC_RELAXED);
		if (who == VICTIM)
			__atomic_store_n(&s->victim_cpu, now, __ATOMIC_RELAXED);
		__atomic_store_n(&s->beat, mono_ns(), __ATOMIC_RELAXED);
		prev = now;
	}
}

void abuse_victim_body(void *p)
{
	abuse_enter_unprivileged(p, VICTIM);
	for (;;)
		abuse_spin(p, VICTIM, 10 * MS);
}

/*
 * A deadline computed just before a preemption may have passed by the
 * time begin runs: ETIME is then the right answer, counted, not a fault.
 */
bool abuse_late(struct abuse *s, int r)
{
	if (r != -ETIME)
		return false;
	abuse_add(&s->late, 1);
	return true;
}

/* begin a constraint; 0 or -errno, c->status set on success */
int abuse_tc_begin(struct smart_constraint *c, unsigned int flags,
		   long long deadline, unsigned long long estimate,
		   unsigned long long period)
{
	smart_tc_init(c, flags, deadline, 0, 0, 0);
	c->estimate = estimate;
	c->period = period;
	return smart_tc_begin(c);
}

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

struct abuse_split abuse_measure(struct hog_set *h, struct abuse *s)
{
	long long c[2], vc[2], st[2][2], v, a;
	struct abuse_split r;
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
