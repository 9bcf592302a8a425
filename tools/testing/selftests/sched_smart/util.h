/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared helpers of the SCHED_SMART selftests: syscall wrappers, feature
 * detection, sysctl access, CPU-time measurement, "hog" processes, time
 * constraints and a recorder for their notification signals.
 *
 * Safety note on feature detection: the fallback syscall numbers 463..466
 * belong to setxattrat/getxattrat/listxattrat/removexattrat on kernels
 * >= 6.13.  Calling them blindly on such a kernel would run an xattr
 * syscall with our arguments, so the wrappers below never enter the kernel
 * unless /proc/sys/kernel/sched_smart_all exists (the SMART kernel always
 * registers it); otherwise they fail with ENOSYS and the tests SKIP.
 */
#ifndef SMART_SELFTEST_UTIL_H
#define SMART_SELFTEST_UTIL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <linux/sched.h>		/* SCHED_RESET_ON_FORK, SCHED_FLAG_* */

#include <linux/smart_sched.h>	/* from the kernel headers (KHDR_INCLUDES) */

/* The kernel's headers (make headers) number the system calls. */
#ifndef __NR_smart_setattr
#error "no __NR_smart_*: build against the SCHED_SMART kernel's headers"
#endif

#define SMART_SYSCTL_MODE	"/proc/sys/kernel/sched_smart_all"
#define SMART_SYSCTL_DIR	"/proc/sys/kernel/smart/"
#define KERNEL_SIGRTMAX		64	/* _NSIG on x86-64; glibc's SIGRTMAX is a call */
#define NOBODY_ID		65534
#define NSEC_PER_SEC		1000000000LL
#define NSEC_PER_MSEC		1000000LL
#define MS			NSEC_PER_MSEC
#define US			1000LL

/* Documented defaults of the tunables (sched-smart.rst §5). */
#define DEF_QUANTUM_NS		10000000ULL
#define DEF_BIAS_STEP_NS	10000000ULL
#define DEF_BIAS_MAX_NS		100000000ULL
#define DEF_SLEEP_CREDIT_NS	100000000ULL
#define DEF_RESOLUTION_NS	1000000ULL
#define DEF_HANDOFF_NS		1000000ULL
#define DEF_LONG_SLEEP_NS	10000000ULL

/* ------------------------------------------------------------------ */
/* Feature detection and syscall wrappers                              */

/*
 * A smoke run (SMART_SMOKE set: many vCPUs on fewer host CPUs): tests
 * check correctness and progress but do not assert timing.
 */
bool smart_smoke(void);

/*
 * SMART_STOLEN_CLOCK set: the clock runs on while the host stops this
 * machine's vCPU (QEMU TCG without -icount on a busy host), and the stolen
 * time is charged to whichever task was on it.  Tests that measure
 * deadlines to the millisecond skip there (REQUIRE_OWN_CLOCK()), or guard
 * just those checks with if (!smart_stolen_clock()); under -icount the
 * guest's clock counts only what the guest executes, and scripts/test-all
 * runs them again there.
 */
bool smart_stolen_clock(void);

bool smart_present(void);

/* 0 = opt-in, 1 = sched_smart=all, -1 = unknown/absent */
int smart_mode(void);

const char *smart_mode_name(void);

int smart_setattr(pid_t pid, const void *attr, unsigned int flags);

int smart_getattr(pid_t pid, void *attr, unsigned int size, unsigned int flags);

/* smart_constraint_begin(2)/smart_constraint_end(2) on the calling thread */
int smart_constraint_begin(void *c, unsigned int flags);

int smart_constraint_end(void *c, unsigned int flags);

/* the 6.12 struct sched_attr (<linux/sched/types.h> clashes with glibc) */
struct sched_attr {
	__u32 size;
	__u32 sched_policy;
	__u64 sched_flags;
	__s32 sched_nice;
	__u32 sched_priority;
	__u64 sched_runtime;
	__u64 sched_deadline;
	__u64 sched_period;
	__u32 sched_util_min;
	__u32 sched_util_max;
};

int sys_sched_setattr(pid_t pid, struct sched_attr *a, unsigned int flags);

pid_t sys_gettid(void);

/* getattr into *a with the full size we know; returns 0 or -errno */
int smart_get(pid_t pid, struct smart_attr *a);

/* setattr with the given mask/values; returns 0 or -errno */
int smart_set(pid_t pid, unsigned int mask, int prio, unsigned int share);

/* The settable fields equal? (out-only fields legitimately move) */
bool smart_attr_same(const struct smart_attr *x, const struct smart_attr *y);

#define ATTR_FMT "{prio %d share %u sig %d flags %#x}"
#define ATTR_ARG(a) (a).priority, (a).share, (a).notify_signal, (a).flags

/*
 * Skip unless the running kernel has SCHED_SMART; if it claims to (the sysctl
 * exists) the syscalls must answer, anything else is a failure.
 */
#define REQUIRE_SMART() do {						\
	struct smart_attr __a;						\
	int __r;							\
	if (!smart_present())						\
		SKIP(return, "SCHED_SMART not in this kernel (%s missing)", \
		     SMART_SYSCTL_MODE);				\
	__r = smart_get(0, &__a);					\
	if (__r)							\
		TH_LOG("smart_getattr(0) on a SMART kernel: expected 0, got %s", \
		       strerror(-__r));					\
	ASSERT_EQ(0, __r);						\
} while (0)

#define REQUIRE_ROOT() do {						\
	if (geteuid() != 0)						\
		SKIP(return, "needs root (uid %d)", (int)geteuid());	\
} while (0)

/* Skip a test that measures deadlines where the host steals the clock. */
#define REQUIRE_OWN_CLOCK() do {					\
	if (smart_stolen_clock())					\
		SKIP(return, "SMART_STOLEN_CLOCK: no deadline is measured on this clock"); \
} while (0)

/* ------------------------------------------------------------------ */
/* Files and sysctls                                                   */

/* read one unsigned integer; 0 or -errno */
int read_u64(const char *path, unsigned long long *v);

/* one write(2) of s; 0 or -errno (open or write failure) */
int write_str(const char *path, const char *s);

/* write_str() to DIR/FILE (a cgroup's file) */
int write_in(const char *dir, const char *file, const char *val);

unsigned long long smart_tunable(const char *name, unsigned long long dflt);

/* ------------------------------------------------------------------ */
/* Time                                                                */

long long ts_ns(const struct timespec *t);

long long mono_ns(void);

long long thread_cpu_ns(void);

/* CPU time (ns) consumed by process pid (all its threads); -1 on error */
/* the value of "smart.<name>" in /proc/<pid>/sched, or LLONG_MIN */
long long proc_smart_field(pid_t pid, const char *name);

long long proc_cpu_ns(pid_t pid);

/* @ns in milliseconds, for messages */
double smart_ms(long long ns);

void sleep_until_ns(long long abs_mono);

void sleep_ns(long long ns);

/* busy-loop until this thread has consumed ns more CPU time */
void spin_cpu_ns(long long ns);

/* ------------------------------------------------------------------ */
/* CPUs                                                                */

int online_cpus(void);

int pin_to(pid_t pid, int cpu);

/* affinity = all CPUs in mask bits (bit i = CPU i); mask 0 = all */
int pin_mask(pid_t pid, unsigned long mask);

/*
 * Make the calling (measuring) process stay out of the way of the tasks
 * under test: pin it to cpu (if >= 0) and make it SCHED_FIFO so it wakes
 * on time whatever SMART does to the fair class.  SCHED_RESET_ON_FORK so
 * its children start as plain SCHED_NORMAL.  Best effort.
 */
void controller_setup(int cpu);

/* the CPU the controller uses while tasks under test are pinned to CPU 0 */
int controller_cpu(void);

/* ------------------------------------------------------------------ */
/* Hogs: child processes released together, measured, then killed      */

#define MAX_HOGS 64

typedef void (*hog_body_t)(void *arg);

struct hog_set {
	pid_t owner;			/* the process that spawned the hogs */
	int n;
	int go[2];			/* closing go[1] releases every hog */
	pid_t pid[MAX_HOGS];
	long long cpu0[MAX_HOGS];	/* CPU ns at window start */
	long long cpu1[MAX_HOGS];	/* CPU ns at window end */
	long long t0, t1;		/* CLOCK_MONOTONIC window */
};

void hog_spin_forever(void *arg);

void hogs_init(struct hog_set *h);

/*
 * Fork a hog with affinity mask (0 = all CPUs).  The child blocks until
 * hogs_go(), then runs body(arg) (never returns for spinners).  Dies with
 * its parent (PR_SET_PDEATHSIG, kept by drop_to_nobody()) so a failed
 * assertion cannot leak spinners.  Returns the pid or -1.
 */
pid_t hog_spawn(struct hog_set *h, unsigned long mask, hog_body_t body, void *arg);

void hogs_go(struct hog_set *h);

/* read every hog's CPU time into out[]; returns the CLOCK_MONOTONIC stamp */
long long hogs_sample(struct hog_set *h, long long *out);

/* sample, sleep window_ns, sample again */
void hogs_measure(struct hog_set *h, long long window_ns);

long long hog_delta(const struct hog_set *h, int i);

/* the state letter of /proc/PID/stat (R, S, D, ...), 0 on error */
char proc_state(pid_t pid);

/* the CPU a task last ran on (field 39 of /proc/PID/stat), -1 on error */
int proc_stat_cpu(pid_t pid);

bool hog_alive(const struct hog_set *h, int i);

/* whether @pid (any process, not only a child) exits within @ms */
bool pid_exits_within(pid_t pid, int ms);

/*
 * Kill every hog and wait until each has exited.  Also from a fixture's
 * teardown run in the parent (FIXTURE_TEARDOWN_PARENT), where the hogs are
 * not children: then the wait is on a pidfd.
 */
void hogs_kill(struct hog_set *h);

/* shared anonymous memory visible to hogs and the controller */
void *shared_alloc(size_t size);

/* ------------------------------------------------------------------ */
/* Child processes that check things themselves                       */

/*
 * In a forked child the harness' EXPECT/ASSERT are not usable (TEST()
 * metadata is not shared), so children count failures with CHK() and exit
 * with the count; the parent asserts the child exited 0.
 */
#define CHK(cond, fmt, ...) do {					\
	if (!(cond)) {							\
		fprintf(stderr, "# %s:%d: child %d: FAIL: " fmt "\n",	\
			__FILE__, __LINE__, (int)getpid(), ##__VA_ARGS__); \
		fails++;						\
	}								\
} while (0)

/* run fn(arg) in a child; returns its wait status */
int run_child(int (*fn)(void *), void *arg);

#define ASSERT_CHILD_OK(status) do {					\
	int __st = (status);	/* evaluated once: it runs the child */	\
	bool __ok = __st != -1 && WIFEXITED(__st) && WEXITSTATUS(__st) == 0; \
	if (!__ok)							\
		TH_LOG("child: expected exit 0, got %s %d (failures listed above)", \
		       __st != -1 && WIFEXITED(__st) ? "exit" : "wait status", \
		       __st != -1 && WIFEXITED(__st) ? WEXITSTATUS(__st) : __st); \
	ASSERT_TRUE(__ok);						\
} while (0)

/*
 * Drop to nobody with no capabilities; 0 or -errno.  The parent-death
 * signal, which the kernel clears on a change of credentials, is set again:
 * a hog that drops still dies with the test that spawned it.
 */
int drop_to_nobody(void);

/* CapEff of the calling thread, or ~0 if unreadable */
unsigned long long cap_eff(void);

/* load weight of a nice value (kernel/sched/core.c sched_prio_to_weight) */
unsigned int nice_to_weight(int nice);

/* ------------------------------------------------------------------ */
/* Time constraints and notifications                                  */

/* a constraint ready for smart_constraint_begin(); deadline is absolute */
void smart_tc_init(struct smart_constraint *c, unsigned int flags,
		   long long deadline, long long estimate,
		   long long period, unsigned long long cookie);

/* begin/end with the struct as it is; 0 or -errno */
int smart_tc_begin(struct smart_constraint *c);

int smart_tc_end(struct smart_constraint *c);

const char *smart_status_name(unsigned int s);

const char *smart_code_name(int code);

/* the status begin must report for what it predicted */
unsigned int smart_status_for(const struct smart_constraint *c);

/* tolerance of end's @used against CLOCK_THREAD_CPUTIME_ID: 2 ms + 5% */
long long smart_used_tol(long long ns);

/*
 * Is end's @used right?  The thread's CPU clock is read right before and
 * right after both calls: @inner is what it used from begin's return to
 * end's call (all of it under the constraint), @outer from before begin
 * to after end.  Reading the clock around each call keeps anything that
 * happens inside the calls (a preemption, a stalled virtual CPU charged
 * as run time) out of the comparison.
 */
bool smart_used_ok(long long used, long long inner, long long outer);

/* the counters of the calling thread (0 on error: the caller asserts) */
struct smart_counts {
	long long met, missed, notified;
};

struct smart_counts smart_counts_self(void);

/* this thread's notify signal (0 = SIGXCPU); also enters SCHED_SMART */
int smart_set_signal(int sig);

/*
 * Notification recorder: a SA_SIGINFO handler that logs every signal it
 * gets (the receiving thread's tid, signal, si_code, cookie, pid/uid of
 * the sender and the CLOCK_MONOTONIC time it ran) in a process-wide log
 * and keeps the receiving thread's count and last note in thread-local
 * storage.  The handler runs in the thread the signal was queued to, so
 * note.tid tells which thread the kernel chose.
 */
#define SMART_NOTE_SIG	(SIGRTMIN + 1)
#define SMART_NOTE_MAX	1024

struct smart_note {
	pid_t tid;
	int signo;
	int code;
	pid_t pid;
	uid_t uid;
	unsigned long long cookie;
	long long t;
};

struct smart_note_log {
	int n;				/* notes taken (may exceed SMART_NOTE_MAX) */
	struct smart_note note[SMART_NOTE_MAX];
};

struct smart_note_self {
	long n;				/* notes this thread received */
	struct smart_note last;
};

struct smart_note_log *smart_notes(void);

struct smart_note_self *smart_note_self(void);

/* what the calling thread's handler has recorded so far */
long smart_note_count(void);

void smart_note_handler(int sig, siginfo_t *si, void *uc);

/* install the recorder for sig (process-wide) and unblock it here */
int smart_note_install(int sig);

/* wait (sleeping) until the calling thread has more than n notes */
bool smart_note_wait(long n, long long timeout_ns);

int smart_cmp_ll(const void *a, const void *b);

/* the p-th percentile (1..100) of n sorted values, nearest rank */
long long pct_ll(const long long *v, int n, int p);

#endif /* SMART_SELFTEST_UTIL_H */
