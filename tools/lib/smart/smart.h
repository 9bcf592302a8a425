/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * libsmart: user-space interface to SCHED_SMART, the SMART scheduler for
 * multimedia applications (Nieh & Lam, SOSP '97) as a Linux scheduling
 * class.
 *
 * What it gives an application:
 *
 *  - the four system calls (smart_setattr(), smart_getattr(),
 *    smart_constraint_begin(), smart_constraint_end()) as functions that
 *    return 0 or -1 with errno, and that fail with ENOSYS without entering
 *    the kernel when the running kernel has no SCHED_SMART (see "Safety"
 *    below);
 *  - smart_set_priority(), smart_set_share(), smart_set_signal(),
 *    smart_set_flags(): one attribute at a time;
 *  - smart_begin_in(): a time constraint whose deadline is relative to now;
 *  - struct smart_estimator: the per-frame CPU-time estimate of the paper's
 *    video player (§6.1): an exponential average of the CPU time of the
 *    previous frames, scaled up by a margin (10% in the paper);
 *  - smart_thread_cpu_ns() and smart_now_ns(): the clocks to measure with;
 *  - smart_available(), smart_mode() and smart_strerror(): feature
 *    detection and error messages that say which rule refused a call.
 *
 * A frame loop:
 *
 *	struct smart_estimator e;
 *	struct smart_constraint c;
 *	uint64_t t0;
 *
 *	smart_estimator_init(&e, 0.25, SMART_ESTIMATOR_MARGIN_PAPER);
 *	smart_estimator_update(&e, 8000000);		// a first guess: 8 ms
 *	for (;;) {
 *		t0 = smart_thread_cpu_ns();
 *		smart_begin_in(&c, next_display - smart_now_ns(),
 *			       smart_estimator_get(&e), frame_period,
 *			       SMART_CONSTRAINT_NOTIFY, frame_no);
 *		decode_frame();
 *		smart_constraint_end(&c, 0);		// c.used, c.status
 *		smart_estimator_update(&e, smart_thread_cpu_ns() - t0);
 *	}
 *
 * Safety: the syscall numbers used when <asm/unistd.h> does not define
 * __NR_smart_* (463..466) belong to the xattr syscalls on kernels >= 6.13.
 * libsmart therefore never enters the kernel unless
 * /proc/sys/kernel/sched_smart_all exists (every SMART kernel has it);
 * otherwise every call fails with ENOSYS.
 *
 * Link with -lsmart (pkg-config --cflags --libs libsmart).
 */
#ifndef LIBSMART_SMART_H
#define LIBSMART_SMART_H

#include <stdint.h>
#include <sys/types.h>

#include <linux/smart_sched.h>	/* struct smart_attr, struct smart_constraint */

#ifdef __cplusplus
extern "C" {
#endif

#define LIBSMART_VERSION	"0.1.0"

/* The sysctl whose presence says the running kernel has SCHED_SMART. */
#define SMART_MODE_SYSCTL	"/proc/sys/kernel/sched_smart_all"
/* Directory of the tunables (quantum_ns, bias_step_ns, ...). */
#define SMART_TUNABLES_DIR	"/proc/sys/kernel/smart"

/* smart_mode() */
#define SMART_MODE_OPTIN	0	/* tasks enter SCHED_SMART explicitly */
#define SMART_MODE_ALL		1	/* booted with sched_smart=all */

/* The paper's margin on the per-frame estimate: +10% (§6.1). */
#define SMART_ESTIMATOR_MARGIN_PAPER	0.10

/* ------------------------------------------------------------------ */
/* System calls                                                        */

/**
 * smart_setattr() - set the SMART attributes of a thread
 * @pid:	thread id, 0 for the calling thread
 * @attr:	the attributes; @attr->size must be set (sizeof(*attr)) and
 *		@attr->mask says which of priority, share, notify_signal and
 *		flags to apply (SMART_ATTR_*)
 * @flags:	must be 0
 *
 * A thread not yet in SCHED_SMART is moved there.  In opt-in mode that
 * needs CAP_SYS_NICE, as does raising the priority above 0 or the share
 * above 1024 or above the thread's current value, and changing another
 * user's thread.
 *
 * Return: 0, or -1 with errno: EINVAL (a value out of range, unknown mask
 * bit or flag), ESRCH (no such thread), EPERM (see above), EFAULT, E2BIG,
 * ENOSYS (kernel without SCHED_SMART).  On error nothing is changed.
 */
int smart_setattr(pid_t pid, const struct smart_attr *attr, unsigned int flags);

/**
 * smart_getattr() - read the SMART attributes and counters of a thread
 * @pid:	thread id, 0 for the calling thread
 * @attr:	where to store them
 * @size:	sizeof(*attr) (at least SMART_ATTR_SIZE_VER0)
 * @flags:	must be 0
 *
 * Works on any thread.  One that is not scheduled by SMART reports the
 * priority and share it would enter with, and zero lag and bias.
 *
 * Return: 0, or -1 with errno: EINVAL, ESRCH, EFAULT, ENOSYS.
 */
int smart_getattr(pid_t pid, struct smart_attr *attr, unsigned int size,
		  unsigned int flags);

/**
 * smart_constraint_begin() - start a time constraint on the calling thread
 * @c:		the constraint: size, flags, absolute CLOCK_MONOTONIC
 *		deadline (ns), estimate (CPU ns needed), period (0 or ns),
 *		cookie; on return @c->available and @c->status
 *		(SMART_STATUS_FEASIBLE or SMART_STATUS_INFEASIBLE)
 * @flags:	must be 0
 *
 * An active constraint is ended (and counted) first.  With
 * SMART_CONSTRAINT_QUERY in @c->flags nothing is installed: only the
 * prediction is returned.
 *
 * Return: 0, or -1 with errno: ETIME (deadline not in the future), EINVAL
 * (estimate 0, deadline more than 60 s ahead, 0 < period < estimate,
 * unknown flag), EPERM (not in SCHED_SMART in opt-in mode without
 * CAP_SYS_NICE), EFAULT, E2BIG, ENOSYS.
 */
int smart_constraint_begin(struct smart_constraint *c, unsigned int flags);

/**
 * smart_constraint_end() - end the calling thread's time constraint
 * @c:		filled in with the constraint that ended: its flags,
 *		deadline, estimate, period and cookie, the CPU time it
 *		@used and its @status (SMART_STATUS_MET or SMART_STATUS_MISSED)
 * @flags:	must be 0
 *
 * Return: 0, or -1 with errno: ENOENT (no active constraint), EINVAL,
 * EFAULT, ENOSYS.
 */
int smart_constraint_end(struct smart_constraint *c, unsigned int flags);

/* ------------------------------------------------------------------ */
/* Feature detection                                                   */

/**
 * smart_available() - does the running kernel have SCHED_SMART?
 *
 * Checks once for SMART_MODE_SYSCTL and remembers the answer.
 *
 * Return: 1 if it has, 0 if not.
 */
int smart_available(void);

/**
 * smart_mode() - how the running kernel uses SMART
 *
 * Return: SMART_MODE_OPTIN (tasks enter SCHED_SMART explicitly),
 * SMART_MODE_ALL (booted with sched_smart=all: SMART schedules every
 * SCHED_NORMAL, SCHED_BATCH and SCHED_IDLE task), or -1 with errno
 * (ENOSYS: no SCHED_SMART in this kernel; EIO: unreadable).
 */
int smart_mode(void);

/* ------------------------------------------------------------------ */
/* Conveniences                                                        */

/**
 * smart_set_priority() - set a thread's SMART priority
 * @pid:	thread id, 0 for the calling thread
 * @priority:	SMART_PRIO_MIN..SMART_PRIO_MAX, higher is more important
 *
 * Moves the thread into SCHED_SMART if it is not there yet.
 *
 * Return: as smart_setattr().
 */
int smart_set_priority(pid_t pid, int priority);

/**
 * smart_set_share() - set a thread's proportional share
 * @pid:	thread id, 0 for the calling thread
 * @share:	SMART_SHARE_MIN..SMART_SHARE_MAX (1024 = nice 0)
 *
 * Return: as smart_setattr().
 */
int smart_set_share(pid_t pid, unsigned int share);

/**
 * smart_set_signal() - set the signal a thread's notifications come with
 * @pid:	thread id, 0 for the calling thread
 * @sig:	1..SIGRTMAX, or 0 for the default (SIGXCPU)
 *
 * Return: as smart_setattr().
 */
int smart_set_signal(pid_t pid, int sig);

/**
 * smart_set_flags() - set a thread's SMART flags
 * @pid:	thread id, 0 for the calling thread
 * @flags:	SMART_FLAG_* (replaces the current flags)
 *
 * Return: as smart_setattr().
 */
int smart_set_flags(pid_t pid, unsigned int flags);

/* smart_strerror(): which call failed */
enum smart_call {
	SMART_CALL_SETATTR,		/* smart_setattr() and smart_set_*() */
	SMART_CALL_GETATTR,		/* smart_getattr() */
	SMART_CALL_CONSTRAINT_BEGIN,	/* smart_constraint_begin(), smart_begin_in() */
	SMART_CALL_CONSTRAINT_END,	/* smart_constraint_end() */
};

/**
 * smart_strerror() - explain a failed libsmart call
 * @call:	the call that failed (enum smart_call)
 * @err:	its errno
 *
 * Return: a static string that says what @err means for that call, e.g.
 * "Operation not permitted (raising priority or share, changing another
 * user's thread or entering SCHED_SMART in opt-in mode needs
 * CAP_SYS_NICE)" for EPERM from smart_setattr(); strerror(@err) when
 * there is nothing to add.  Not thread-safe for unknown @err values (as
 * strerror()).
 */
const char *smart_strerror(enum smart_call call, int err);

/* ------------------------------------------------------------------ */
/* Time constraints with relative deadlines                            */

/**
 * smart_now_ns() - the current CLOCK_MONOTONIC time
 *
 * Return: ns; the clock deadlines are expressed in.
 */
uint64_t smart_now_ns(void);

/**
 * smart_thread_cpu_ns() - CPU time consumed by the calling thread
 *
 * CLOCK_THREAD_CPUTIME_ID: the quantity a constraint's estimate and
 * used fields count.  Take it before and after a frame to feed
 * smart_estimator_update().
 *
 * Return: ns.
 */
uint64_t smart_thread_cpu_ns(void);

/**
 * smart_constraint_prepare() - fill in a constraint with a relative deadline
 * @c:			the constraint to fill (every field is written)
 * @rel_deadline_ns:	deadline, ns from now (CLOCK_MONOTONIC)
 * @estimate_ns:	CPU time needed before the deadline, ns
 * @period_ns:		0, or the period of a periodic activity, ns
 * @flags:		SMART_CONSTRAINT_*
 * @cookie:		returned in the notification's si_value.sival_ptr
 *
 * Does not enter the kernel.  @c->deadline = smart_now_ns() +
 * @rel_deadline_ns.
 *
 * Return: 0, or -1 with errno EINVAL if the deadline does not fit in
 * 64 bits.
 */
int smart_constraint_prepare(struct smart_constraint *c, uint64_t rel_deadline_ns,
			     uint64_t estimate_ns, uint64_t period_ns,
			     unsigned int flags, uint64_t cookie);

/**
 * smart_begin_in() - start a time constraint whose deadline is relative
 * @c:			filled in as by smart_constraint_prepare(), then
 *			passed to smart_constraint_begin(); on return it
 *			holds the prediction (@c->available, @c->status)
 * @rel_deadline_ns:	deadline, ns from now (CLOCK_MONOTONIC)
 * @estimate_ns:	CPU time needed before the deadline, ns
 * @period_ns:		0, or the period of a periodic activity, ns
 * @flags:		SMART_CONSTRAINT_*
 * @cookie:		returned in the notification's si_value.sival_ptr
 *
 * End it with smart_constraint_end(@c, 0).
 *
 * Return: as smart_constraint_begin() (@rel_deadline_ns 0 gives ETIME).
 */
int smart_begin_in(struct smart_constraint *c, uint64_t rel_deadline_ns,
		   uint64_t estimate_ns, uint64_t period_ns, unsigned int flags,
		   uint64_t cookie);

/* ------------------------------------------------------------------ */
/* Per-frame CPU time estimate (paper §6.1)                            */

/**
 * struct smart_estimator - exponential average of per-frame CPU time
 * @alpha:	weight of the newest sample, 0 < alpha <= 1
 * @margin:	relative margin added to the average (0.10: the paper's 10%)
 * @avg:	the exponential average, ns
 * @last:	the newest sample, ns
 * @samples:	number of samples taken
 *
 * avg_1 = x_1, avg_n = alpha * x_n + (1 - alpha) * avg_(n-1), and the
 * estimate is avg_n * (1 + margin).  Keep one per kind of frame (the
 * paper notes MPEG needs one per frame type).
 */
struct smart_estimator {
	double alpha;
	double margin;
	double avg;
	uint64_t last;
	uint64_t samples;
};

/**
 * smart_estimator_init() - start an estimator with no samples
 * @e:		the estimator
 * @alpha:	weight of the newest sample, 0 < @alpha <= 1 (1: the last
 *		frame only; smaller: smoother)
 * @margin:	relative margin, >= 0 (SMART_ESTIMATOR_MARGIN_PAPER = 0.10)
 *
 * Return: 0, or -1 with errno EINVAL (@alpha or @margin out of range;
 * @e is then untouched).
 */
int smart_estimator_init(struct smart_estimator *e, double alpha, double margin);

/**
 * smart_estimator_update() - add one frame's CPU time
 * @e:		the estimator
 * @sample_ns:	CPU time the frame took, ns
 *
 * The first sample sets the average; later ones are blended in with
 * weight @e->alpha.
 */
void smart_estimator_update(struct smart_estimator *e, uint64_t sample_ns);

/**
 * smart_estimator_get() - the estimate for the next frame
 * @e:		the estimator
 *
 * Return: avg * (1 + margin) in ns, rounded to nearest; 0 before the
 * first sample (an estimate of 0 is refused by smart_constraint_begin(),
 * so seed the estimator with a first guess).
 */
uint64_t smart_estimator_get(const struct smart_estimator *e);

#ifdef __cplusplus
}
#endif

#endif /* LIBSMART_SMART_H */
