// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART abuse by an unprivileged user: attempts to raise the share,
 * priority or nice, or to change policy, are refused and leave the victim
 * its part of CPU 0.  The measurement: see abuse.h.
 *
 *   nice_share_changes   attempts to raise share, priority and nice (all
 *                        must fail with EPERM/EACCES) between lowering
 *                        steps by smart_setattr and renice +1; no attempt
 *                        may leave the share or priority above where they
 *                        were (a renice moves the share by the ratio of
 *                        the nice weights)
 *   policy_flips         sched_setattr() policy changes within what an
 *                        unprivileged user may do (all mode: SCHED_OTHER
 *                        <-> SCHED_BATCH; opt-in: re-setting SCHED_SMART,
 *                        the reset-on-fork flag, then leaving SMART and
 *                        trying to come back, which must fail)
 */
#include "../kselftest_harness.h"
#include "util.h"
#include "abuse.h"

/*
 * One raise attempt: @r is its result; the share and priority before and
 * after must not have gone up, and the call must have been refused.
 */
static void raise_check(struct abuse *s, const char *what, int r,
			const struct smart_attr *before)
{
	struct smart_attr a;

	if (smart_get(0, &a)) {
		abuse_bad(s, "smart_getattr after %s: %s", what, strerror(errno));
		return;
	}
	if (a.share > before->share || a.priority > before->priority) {
		abuse_add(&s->raised, 1);
		abuse_bad(s, "%s: share %u -> %u, priority %d -> %d (%s)", what,
			  before->share, a.share, before->priority, a.priority,
			  abuse_err_name(r));
	} else if (r == -EPERM || r == -EACCES) {
		abuse_add(&s->refused, 1);
	} else {
		abuse_bad(s, "%s: expected EPERM/EACCES, got %s", what, abuse_err_name(r));
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

	abuse_enter_unprivileged(s, ATTACKER);
	for (;; s->iters++) {
		abuse_spin(s, ATTACKER, MS);
		if (smart_get(0, &a)) {
			abuse_bad(s, "smart_getattr: %s", strerror(errno));
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
				abuse_bad(s, "lower share %u -> %u: %s", a.share, want,
					  abuse_err_name(r));
			else
				s->ok++;
			break;
		case 1:
			if (nice >= 19)
				break;
			r = set_nice(nice + 1);
			if (r) {
				abuse_bad(s, "renice %d -> %d: %s", nice, nice + 1,
					  abuse_err_name(r));
				break;
			}
			s->ok++;
			if (smart_get(0, &b))
				break;
			/* the share follows nice relatively (+1 for rounding) */
			want = (unsigned long long)a.share * nice_to_weight(nice + 1) /
			       nice_to_weight(nice) + 1;
			if (b.share > want) {
				abuse_add(&s->raised, 1);
				abuse_bad(s, "renice %d -> %d raised share %u -> %u "
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
				abuse_bad(s, "lower priority %d: %s", a.priority,
					  abuse_err_name(r));
			else
				s->ok++;
			break;
		}
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

	abuse_enter_unprivileged(s, ATTACKER);
	for (;; s->iters++) {
		abuse_spin(s, ATTACKER, 500 * US);
		if (s->mode) {
			/* all mode: both policies are SMART tasks */
			r = set_policy(s->iters % 2 ? SCHED_OTHER : SCHED_BATCH, 0);
			if (r)
				abuse_bad(s, "sched_setattr(%s): %s",
					  s->iters % 2 ? "OTHER" : "BATCH", abuse_err_name(r));
			else
				s->ok++;
			continue;
		}
		if (s->iters < 200) {
			/* re-set SCHED_SMART; then set reset-on-fork, try to clear it */
			r = set_policy(SCHED_SMART, s->iters < 100 ? 0 :
				       SCHED_FLAG_RESET_ON_FORK);
			if (r)
				abuse_bad(s, "sched_setattr(SMART): %s", abuse_err_name(r));
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
				abuse_bad(s, "leave SMART for SCHED_BATCH: %s", abuse_err_name(r));
			continue;
		}
		/* opt-in: back into SMART needs CAP_SYS_NICE */
		r = set_policy(SCHED_SMART, SCHED_FLAG_RESET_ON_FORK);
		if (!r) {
			abuse_add(&s->raised, 1);
			abuse_bad(s, "unprivileged SCHED_BATCH -> SCHED_SMART succeeded");
			set_policy(SCHED_BATCH, SCHED_FLAG_RESET_ON_FORK);
		} else if (r == -EPERM) {
			s->refused++;
		} else {
			abuse_bad(s, "SCHED_BATCH -> SCHED_SMART: expected EPERM, got %s",
				  abuse_err_name(r));
		}
	}
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
