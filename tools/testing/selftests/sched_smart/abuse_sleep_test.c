// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART abuse by an unprivileged user: giving up CPU 0 on purpose,
 * by short sleeps or sched_yield(), earns the attacker no more than its
 * part of CPU 0.  The measurement: see abuse.h.
 *
 *   sleep_wake           spin 1..4 ms, sleep 50 us..1 ms, to farm the
 *                        sleep credit and the bias reset of a wake-up
 *   sleep_wake_constrained  the same inside a constraint (begin, spin,
 *                        sleep, end)
 *   yield_loop           spin 100 us, sched_yield(), in a loop
 *   wake_partner         two threads that spin 2 ms each, then wake the
 *                        other and wait for it: never runnable together,
 *                        they must not take two shares
 *   wake_helper          spin, and wake a helper thread that goes back
 *                        to sleep every 100 us, to put off preemption
 *                        (a waker is given handoff_ns to block)
 */
#include <linux/futex.h>
#include <pthread.h>
#include <sys/syscall.h>
#include "../kselftest_harness.h"
#include "util.h"
#include "abuse.h"

/* p[0]: 1 = inside a constraint */
static void atk_sleep_wake(void *p)
{
	static const long long run[3] = { MS, 2 * MS, 4 * MS };
	static const long long nap[4] = { 50 * US, 200 * US, MS, 100 * US };
	struct abuse *s = p;
	struct smart_constraint c;
	long long sp, sl;
	int r = -1;

	abuse_enter_unprivileged(s, ATTACKER);
	for (;; s->iters++) {
		sp = run[s->iters % 3];
		sl = nap[s->iters % 4];
		if (s->p[0]) {
			r = abuse_tc_begin(&c, 0, mono_ns() + 2 * (sp + sl), sp + sl, 0);
			if (r && !abuse_late(s, r))
				abuse_bad(s, "begin: %s", abuse_err_name(r));
		}
		abuse_spin(s, ATTACKER, sp);
		sleep_ns(sl);
		if (s->p[0] && !r) {
			r = smart_tc_end(&c);
			if (r && r != -ENOENT)
				abuse_bad(s, "end: %s", abuse_err_name(r));
			else
				s->ok++;
		}
	}
}

static void atk_yield(void *p)
{
	struct abuse *s = p;

	abuse_enter_unprivileged(s, ATTACKER);
	for (;; s->iters++) {
		abuse_spin(s, ATTACKER, 100 * US);
		sched_yield();
	}
}

static int turn;

static void futex_wait(int *addr, int val)
{
	syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(int *addr)
{
	syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/*
 * One of the two partners (@me 0 or 1): when it is its turn, spin
 * s->p[0] ns, give the turn to the other, wake it and wait.
 */
static void partner_loop(struct abuse *s, int me)
{
	for (;; abuse_add(&s->iters, 1)) {
		while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) != me)
			futex_wait(&turn, !me);
		abuse_spin(s, ATTACKER, s->p[0]);
		__atomic_store_n(&turn, !me, __ATOMIC_RELEASE);
		futex_wake(&turn);
	}
}

static void *partner_thread(void *p)
{
	partner_loop(p, 1);
	return NULL;
}

static void atk_wake_partner(void *p)
{
	struct abuse *s = p;
	pthread_t t;

	abuse_enter_unprivileged(s, ATTACKER);
	if (pthread_create(&t, NULL, partner_thread, s))
		abuse_bad(s, "pthread_create failed");
	partner_loop(s, 0);
}

/* The helper: sleeps until it is woken, and at once again. */
static void *helper_thread(void *p)
{
	int seen = 0, now;

	for (;;) {
		now = __atomic_load_n(&turn, __ATOMIC_ACQUIRE);
		if (now == seen)
			futex_wait(&turn, seen);
		seen = now;
	}
	return NULL;
}

static void atk_wake_helper(void *p)
{
	struct abuse *s = p;
	pthread_t t;

	abuse_enter_unprivileged(s, ATTACKER);
	if (pthread_create(&t, NULL, helper_thread, s))
		abuse_bad(s, "pthread_create failed");
	for (;; s->iters++) {
		abuse_spin(s, ATTACKER, 100 * US);
		__atomic_add_fetch(&turn, 1, __ATOMIC_RELEASE);
		futex_wake(&turn);
	}
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

TEST_F(abuse, yield_loop)
{
	abuse_run(_metadata, self, "yield_loop", atk_yield);
	EXPECT_NO_BAD(self->s);
}

TEST_F(abuse, wake_partner)
{
	self->s->p[0] = 2 * MS;
	abuse_run(_metadata, self, "wake_partner", atk_wake_partner);
	EXPECT_NO_BAD(self->s);
}

TEST_F(abuse, wake_partner_short)
{
	self->s->p[0] = 200 * US;
	abuse_run(_metadata, self, "wake_partner_short", atk_wake_partner);
	EXPECT_NO_BAD(self->s);
}

TEST_F(abuse, wake_helper)
{
	abuse_run(_metadata, self, "wake_helper", atk_wake_helper);
	EXPECT_NO_BAD(self->s);
}

TEST_HARNESS_MAIN
