// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libsmart: system call wrappers and helpers for SCHED_SMART.
 * The interface and its contract are documented in smart.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "smart.h"

/*
 * The numbers of the 6.12 SMART series, for headers older than a SMART
 * kernel's: right after mseal (462) in every architecture's table, 110
 * further on alpha and from the ABI's base on mips and x32.  On >=
 * 6.13 the same numbers are the xattr calls, hence smart_available()
 * before every call.
 */
#ifndef __NR_smart_setattr
#if defined(__alpha__)
#define SMART_NR_FIRST			573
#elif defined(__mips__)
#define SMART_NR_FIRST			(__NR_Linux + 463)
#elif defined(__x86_64__) && defined(__ILP32__)	/* x32 */
#define SMART_NR_FIRST			(__X32_SYSCALL_BIT + 463)
#else
#define SMART_NR_FIRST			463
#endif
#define __NR_smart_setattr		SMART_NR_FIRST
#define __NR_smart_getattr		(SMART_NR_FIRST + 1)
#define __NR_smart_constraint_begin	(SMART_NR_FIRST + 2)
#define __NR_smart_constraint_end	(SMART_NR_FIRST + 3)
#endif

#define NSEC_PER_SEC	1000000000ULL

/* 0 = not checked yet, 1 = present, 2 = absent; the kernel never changes */
static int smart_present_cache;

int smart_available(void)
{
	int v = __atomic_load_n(&smart_present_cache, __ATOMIC_RELAXED);

	if (!v) {
		int saved = errno;

		v = access(SMART_MODE_SYSCTL, F_OK) == 0 ? 1 : 2;
		errno = saved;
		__atomic_store_n(&smart_present_cache, v, __ATOMIC_RELAXED);
	}
	return v == 1;
}

int smart_mode(void)
{
	FILE *f;
	int v;

	if (!smart_available()) {
		errno = ENOSYS;
		return -1;
	}
	f = fopen(SMART_MODE_SYSCTL, "re");
	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1 || (v != SMART_MODE_OPTIN && v != SMART_MODE_ALL)) {
		fclose(f);
		errno = EIO;
		return -1;
	}
	fclose(f);
	return v;
}

int smart_setattr(pid_t pid, const struct smart_attr *attr, unsigned int flags)
{
	if (!smart_available()) {
		errno = ENOSYS;
		return -1;
	}
	return syscall(__NR_smart_setattr, pid, attr, flags) ? -1 : 0;
}

int smart_getattr(pid_t pid, struct smart_attr *attr, unsigned int size,
		  unsigned int flags)
{
	if (!smart_available()) {
		errno = ENOSYS;
		return -1;
	}
	return syscall(__NR_smart_getattr, pid, attr, size, flags) ? -1 : 0;
}

int smart_constraint_begin(struct smart_constraint *c, unsigned int flags)
{
	if (!smart_available()) {
		errno = ENOSYS;
		return -1;
	}
	return syscall(__NR_smart_constraint_begin, c, flags) ? -1 : 0;
}

int smart_constraint_end(struct smart_constraint *c, unsigned int flags)
{
	if (!smart_available()) {
		errno = ENOSYS;
		return -1;
	}
	return syscall(__NR_smart_constraint_end, c, flags) ? -1 : 0;
}

/* one smart_setattr() with one field */
static int smart_set_one(pid_t pid, unsigned int mask, int prio,
			 unsigned int share, int sig, unsigned int flags)
{
	struct smart_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.mask = mask;
	a.priority = prio;
	a.share = share;
	a.notify_signal = sig;
	a.flags = flags;
	return smart_setattr(pid, &a, 0);
}

int smart_set_priority(pid_t pid, int priority)
{
	return smart_set_one(pid, SMART_ATTR_PRIORITY, priority, 0, 0, 0);
}

int smart_set_share(pid_t pid, unsigned int share)
{
	return smart_set_one(pid, SMART_ATTR_SHARE, 0, share, 0, 0);
}

int smart_set_signal(pid_t pid, int sig)
{
	return smart_set_one(pid, SMART_ATTR_SIGNAL, 0, 0, sig, 0);
}

int smart_set_flags(pid_t pid, unsigned int flags)
{
	return smart_set_one(pid, SMART_ATTR_FLAGS, 0, 0, 0, flags);
}

/* What an errno means for each call, as sched-smart.rst §4 says. */
const char *smart_strerror(enum smart_call call, int err)
{
	if (err == ENOSYS)
		return "Function not implemented (no SCHED_SMART in this kernel: "
		       SMART_MODE_SYSCTL " is missing)";
	if (err == ESRCH)
		return "No such process (no thread with that id)";

	switch (call) {
	case SMART_CALL_SETATTR:
		if (err == EPERM)
			return "Operation not permitted (raising priority or share, "
			       "changing another user's thread or entering SCHED_SMART "
			       "in opt-in mode needs CAP_SYS_NICE)";
		if (err == EINVAL)
			return "Invalid argument (priority, share, signal or flags out of range)";
		break;
	case SMART_CALL_GETATTR:
		break;
	case SMART_CALL_CONSTRAINT_BEGIN:
		if (err == ETIME)
			return "Timer expired (the deadline is not in the future)";
		if (err == EINVAL)
			return "Invalid argument (estimate 0, deadline more than 60 s ahead, "
			       "period shorter than the estimate, or unknown flag)";
		if (err == EPERM)
			return "Operation not permitted (not in SCHED_SMART: in opt-in mode "
			       "that needs CAP_SYS_NICE)";
		break;
	case SMART_CALL_CONSTRAINT_END:
		if (err == ENOENT)
			return "No such file or directory (no active time constraint)";
		break;
	}
	return strerror(err);
}

static uint64_t smart_clock_ns(clockid_t id)
{
	struct timespec t;

	if (clock_gettime(id, &t))
		return 0;
	return (uint64_t)t.tv_sec * NSEC_PER_SEC + (uint64_t)t.tv_nsec;
}

uint64_t smart_now_ns(void)
{
	return smart_clock_ns(CLOCK_MONOTONIC);
}

uint64_t smart_thread_cpu_ns(void)
{
	return smart_clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

int smart_constraint_prepare(struct smart_constraint *c, uint64_t rel_deadline_ns,
			     uint64_t estimate_ns, uint64_t period_ns,
			     unsigned int flags, uint64_t cookie)
{
	uint64_t now = smart_now_ns();

	if (rel_deadline_ns > UINT64_MAX - now) {
		errno = EINVAL;
		return -1;
	}
	memset(c, 0, sizeof(*c));
	c->size = sizeof(*c);
	c->flags = flags;
	c->deadline = now + rel_deadline_ns;
	c->estimate = estimate_ns;
	c->period = period_ns;
	c->cookie = cookie;
	return 0;
}

int smart_begin_in(struct smart_constraint *c, uint64_t rel_deadline_ns,
		   uint64_t estimate_ns, uint64_t period_ns, unsigned int flags,
		   uint64_t cookie)
{
	if (smart_constraint_prepare(c, rel_deadline_ns, estimate_ns, period_ns,
				     flags, cookie))
		return -1;
	return smart_constraint_begin(c, 0);
}

int smart_estimator_init(struct smart_estimator *e, double alpha, double margin)
{
	/* written so that NaN fails too */
	if (!(alpha > 0.0 && alpha <= 1.0) || !(margin >= 0.0 && margin < 1e6)) {
		errno = EINVAL;
		return -1;
	}
	memset(e, 0, sizeof(*e));
	e->alpha = alpha;
	e->margin = margin;
	return 0;
}

void smart_estimator_update(struct smart_estimator *e, uint64_t sample_ns)
{
	double x = (double)sample_ns;

	/* §6.1: an exponential average of the previous frames' times */
	if (e->samples == 0)
		e->avg = x;
	else
		e->avg = e->alpha * x + (1.0 - e->alpha) * e->avg;
	e->last = sample_ns;
	e->samples++;
}

uint64_t smart_estimator_get(const struct smart_estimator *e)
{
	double est;

	if (e->samples == 0)
		return 0;
	/* "scaled by 10%" in the paper: avg * (1 + margin) */
	est = e->avg * (1.0 + e->margin);
	if (est >= 18446744073709549568.0)	/* largest double below 2^64 */
		return UINT64_MAX;
	return (uint64_t)(est + 0.5);		/* nearest */
}
