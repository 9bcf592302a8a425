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
 */
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

TEST_HARNESS_MAIN
