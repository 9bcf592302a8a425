/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the SCHED_SMART time constraint tests (tc_*_test.c): their
 * constants, the setup of a timed test and the checks of the met/missed/
 * notification counters and of begin's status.  The macros use the
 * harness: include this after "../kselftest_harness.h".
 */
#ifndef SMART_SELFTEST_TC_H
#define SMART_SELFTEST_TC_H

#include <assert.h>
#include "util.h"

#define COOKIE		0x5eedc0de00c0ffeeULL
#define CPU_T		0	/* the CPU timed work is pinned to */

static_assert(sizeof(struct smart_constraint) == SMART_CONSTRAINT_SIZE_VER0,
	      "struct smart_constraint is VER0");

/* pin to CPU_T, enter SCHED_SMART with the recorder's signal */
#define SETUP_SELF() do {						\
	int __r;							\
	ASSERT_EQ(0, pin_to(0, CPU_T));					\
	ASSERT_EQ(0, smart_note_install(SMART_NOTE_SIG));		\
	__r = smart_set_signal(SMART_NOTE_SIG);				\
	ASSERT_EQ(0, __r) {						\
		TH_LOG("smart_setattr(SIGNAL %d): %s", SMART_NOTE_SIG,	\
		       strerror(-__r));					\
	}								\
} while (0)

/* counters moved by exactly (met, missed, notified) */
#define EXPECT_COUNTS(b, a, dmet, dmissed, dnotif) do {			\
	EXPECT_TRUE((a).met - (b).met == (dmet) &&			\
		    (a).missed - (b).missed == (dmissed) &&		\
		    (a).notified - (b).notified == (dnotif)) {		\
		TH_LOG("counters moved met %+lld missed %+lld notifications %+lld, " \
		       "expected %+d %+d %+d", (a).met - (b).met,	\
		       (a).missed - (b).missed, (a).notified - (b).notified, \
		       (dmet), (dmissed), (dnotif));			\
	}								\
} while (0)

/* a successful begin reports a status that matches its prediction */
#define EXPECT_STATUS_CONSISTENT(c) do {				\
	EXPECT_EQ(smart_status_for(&(c)), (c).status) {		\
		TH_LOG("begin: available %.3f ms, estimate %.3f ms: expected %s, got %s (%u)", \
		       smart_ms((c).available), smart_ms((c).estimate),	\
		       smart_status_name(smart_status_for(&(c))),	\
		       smart_status_name((c).status), (c).status);	\
	}								\
} while (0)

#endif /* SMART_SELFTEST_TC_H */
