// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART abuse by an unprivileged user: a flood of constraint
 * notifications leaves the victim its part of CPU 0.  The measurement:
 * see abuse.h.
 *
 *   notify_flood         infeasible constraints with NOTIFY and a deadline
 *                        0.5 ms ahead, back to back: a notification per
 *                        constraint, handled by the attacker
 *   late_on_purpose      constraints that fit when begun (4 ms by 6 ms
 *                        ahead) worked on until notified, each time: a
 *                        task told it is late while it waits runs a slice
 *                        out of order to hear it, which must not add up
 *                        to more than its share
 */
#include "../kselftest_harness.h"
#include "util.h"
#include "abuse.h"

/* The attacker's notifications: recorded by smart_note_handler(). */
static void note_setup(struct abuse *s)
{
	int r = smart_note_install(SMART_NOTE_SIG);

	if (!r)
		r = smart_set_signal(SMART_NOTE_SIG);
	if (r)
		abuse_bad(s, "notify signal %d: %s", SMART_NOTE_SIG, abuse_err_name(r));
}

static void atk_notify(void *p)
{
	struct abuse *s = p;
	struct smart_constraint c;
	int r;

	abuse_enter_unprivileged(s, ATTACKER);
	note_setup(s);
	for (;; s->iters++) {
		r = abuse_tc_begin(&c, SMART_CONSTRAINT_NOTIFY, mono_ns() + 500 * US,
				   2 * MS, 0);
		if (r && !abuse_late(s, r))
			abuse_bad(s, "begin NOTIFY: %s", abuse_err_name(r));
		abuse_spin(s, ATTACKER, MS);
		r = smart_tc_end(&c);
		if (r && r != -ENOENT)
			abuse_bad(s, "end: %s", abuse_err_name(r));
		s->notes = smart_note_count();
	}
}

/*
 * Late on purpose: a constraint that fits when begun (4 ms by 6 ms ahead)
 * and is then worked on past its latest start time, so that it is
 * notified while it waits and may run a slice out of order to hear it
 * (sched-smart.rst 2.9); spins until the notification or 8 ms, then
 * begins the next.
 */
static void atk_late(void *p)
{
	struct abuse *s = p;
	struct smart_constraint c;
	long n;
	int r, k;

	abuse_enter_unprivileged(s, ATTACKER);
	note_setup(s);
	for (;; s->iters++) {
		n = smart_note_count();
		r = abuse_tc_begin(&c, SMART_CONSTRAINT_NOTIFY, mono_ns() + 6 * MS,
				   4 * MS, 0);
		if (r && !abuse_late(s, r))
			abuse_bad(s, "begin NOTIFY: %s", abuse_err_name(r));
		for (k = 0; k < 16 && smart_note_count() == n; k++)
			abuse_spin(s, ATTACKER, 500 * US);
		r = smart_tc_end(&c);
		if (r && r != -ENOENT)
			abuse_bad(s, "end: %s", abuse_err_name(r));
		s->notes = smart_note_count();
	}
}

TEST_F(abuse, notify_flood)
{
	abuse_run(_metadata, self, "notify_flood", atk_notify);
	TH_LOG("%lld constraints, %lld notifications handled", self->s->iters,
	       self->s->notes);
	EXPECT_GT(self->s->notes, 10);
	EXPECT_NO_BAD(self->s);
}

TEST_F(abuse, late_on_purpose)
{
	abuse_run(_metadata, self, "late_on_purpose", atk_late);
	TH_LOG("%lld constraints, %lld notifications handled", self->s->iters,
	       self->s->notes);
	EXPECT_GT(self->s->notes, 10);
	EXPECT_NO_BAD(self->s);
}

TEST_HARNESS_MAIN
