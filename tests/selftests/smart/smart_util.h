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

#include <linux/smart_sched.h>	/* the repo's copy, see Makefile */

#ifndef __NR_smart_setattr
#define __NR_smart_setattr		463
#endif
#ifndef __NR_smart_getattr
#define __NR_smart_getattr		464
#endif
#ifndef __NR_smart_constraint_begin
#define __NR_smart_constraint_begin	465
#endif
#ifndef __NR_smart_constraint_end
#define __NR_smart_constraint_end	466
#endif

#define SMART_SYSCTL_MODE	"/proc/sys/kernel/sched_smart_all"
#define SMART_SYSCTL_DIR	"/proc/sys/kernel/smart/"
#define KERNEL_SIGRTMAX		64	/* _NSIG on x86-64; glibc's SIGRTMAX is a call */
#define NOBODY_ID		65534
#define NSEC_PER_SEC		1000000000LL
#define NSEC_PER_MSEC		1000000LL

/* Documented defaults of the tunables (sched-smart.rst §5). */
#define DEF_QUANTUM_NS		10000000ULL
#define DEF_BIAS_STEP_NS	10000000ULL
#define DEF_BIAS_MAX_NS		100000000ULL
#define DEF_SLEEP_CREDIT_NS	100000000ULL
#define DEF_RESOLUTION_NS	1000000ULL

/* ------------------------------------------------------------------ */
/* Feature detection and syscall wrappers                              */

/*
 * A smoke run (SMART_SMOKE set: many vCPUs on fewer host CPUs): tests
 * check correctness and progress but do not assert timing.
 */
static inline bool smart_smoke(void)
{
	const char *v = getenv("SMART_SMOKE");

	return v && *v && strcmp(v, "0");
}

static inline bool smart_present(void)
{
	return access(SMART_SYSCTL_MODE, F_OK) == 0;
}

/* 0 = opt-in, 1 = sched_smart=all, -1 = unknown/absent */
static inline int smart_mode(void)
{
	FILE *f = fopen(SMART_SYSCTL_MODE, "r");
	int v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static inline const char *smart_mode_name(void)
{
	switch (smart_mode()) {
	case 0: return "opt-in";
	case 1: return "all";
	default: return "absent";
	}
}

static inline int smart_setattr(pid_t pid, const void *attr, unsigned int flags)
{
	if (!smart_present()) {
		errno = ENOSYS;
		return -1;
	}
	return syscall(__NR_smart_setattr, pid, attr, flags);
}

static inline int smart_getattr(pid_t pid, void *attr, unsigned int size,
				unsigned int flags)
{
	if (!smart_present()) {
		errno = ENOSYS;
		return -1;
	}
	return syscall(__NR_smart_getattr, pid, attr, size, flags);
}

/* smart_constraint_begin(2)/smart_constraint_end(2) on the calling thread */
static inline int smart_constraint_begin(void *c, unsigned int flags)
{
	if (!smart_present()) {
		errno = ENOSYS;
		return -1;
	}
	return syscall(__NR_smart_constraint_begin, c, flags);
}

static inline int smart_constraint_end(void *c, unsigned int flags)
{
	if (!smart_present()) {
		errno = ENOSYS;
		return -1;
	}
	return syscall(__NR_smart_constraint_end, c, flags);
}

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

static inline int sys_sched_setattr(pid_t pid, struct sched_attr *a,
				    unsigned int flags)
{
	return syscall(__NR_sched_setattr, pid, a, flags);
}

static inline pid_t sys_gettid(void)
{
	return syscall(__NR_gettid);
}

/* getattr into *a with the full size we know; returns 0 or -errno */
static inline int smart_get(pid_t pid, struct smart_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	if (smart_getattr(pid, a, sizeof(*a), 0))
		return -errno;
	return 0;
}

/* setattr with the given mask/values; returns 0 or -errno */
static inline int smart_set(pid_t pid, unsigned int mask, int prio,
			    unsigned int share)
{
	struct smart_attr a = {
		.size = sizeof(a), .mask = mask,
		.priority = prio, .share = share,
	};

	if (smart_setattr(pid, &a, 0))
		return -errno;
	return 0;
}

/* The settable fields equal? (out-only fields legitimately move) */
static inline bool smart_attr_same(const struct smart_attr *x,
				   const struct smart_attr *y)
{
	return x->priority == y->priority && x->share == y->share &&
	       x->notify_signal == y->notify_signal && x->flags == y->flags;
}

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

/* ------------------------------------------------------------------ */
/* Files and sysctls                                                   */

/* read one unsigned integer; 0 or -errno */
static inline int read_u64(const char *path, unsigned long long *v)
{
	char buf[64];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	if (sscanf(buf, "%llu", v) != 1)
		return -EIO;
	return 0;
}

/* one write(2) of s; 0 or -errno (open or write failure) */
static inline int write_str(const char *path, const char *s)
{
	ssize_t n;
	int fd = open(path, O_WRONLY);
	int err = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	if (n < 0)
		err = -errno;
	else if ((size_t)n != strlen(s))
		err = -EIO;
	close(fd);
	return err;
}

static inline unsigned long long smart_tunable(const char *name,
					       unsigned long long dflt)
{
	char path[128];
	unsigned long long v;

	snprintf(path, sizeof(path), SMART_SYSCTL_DIR "%s", name);
	return read_u64(path, &v) ? dflt : v;
}

/* ------------------------------------------------------------------ */
/* Time                                                                */

static inline long long ts_ns(const struct timespec *t)
{
	return t->tv_sec * NSEC_PER_SEC + t->tv_nsec;
}

static inline long long mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return ts_ns(&t);
}

static inline long long thread_cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return ts_ns(&t);
}

/* CPU time (ns) consumed by process pid (all its threads); -1 on error */
static inline long long proc_cpu_ns(pid_t pid)
{
	struct timespec t;
	clockid_t cid;

	if (clock_getcpuclockid(pid, &cid))
		return -1;
	if (clock_gettime(cid, &t))
		return -1;
	return ts_ns(&t);
}

static inline void sleep_until_ns(long long abs_mono)
{
	struct timespec t = {
		.tv_sec = abs_mono / NSEC_PER_SEC,
		.tv_nsec = abs_mono % NSEC_PER_SEC,
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR)
		;
}

static inline void sleep_ns(long long ns)
{
	sleep_until_ns(mono_ns() + ns);
}

/* busy-loop until this thread has consumed ns more CPU time */
static inline void spin_cpu_ns(long long ns)
{
	long long end = thread_cpu_ns() + ns;

	while (thread_cpu_ns() < end)
		;
}

/* ------------------------------------------------------------------ */
/* CPUs                                                                */

static inline int online_cpus(void)
{
	cpu_set_t s;

	if (sched_getaffinity(0, sizeof(s), &s))
		return (int)sysconf(_SC_NPROCESSORS_ONLN);
	return CPU_COUNT(&s);
}

static inline int pin_to(pid_t pid, int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	return sched_setaffinity(pid, sizeof(s), &s);
}

/* affinity = all CPUs in mask bits (bit i = CPU i); mask 0 = all */
static inline int pin_mask(pid_t pid, unsigned long mask)
{
	cpu_set_t s;
	int i;

	CPU_ZERO(&s);
	for (i = 0; i < CPU_SETSIZE; i++)
		if (!mask || (i < (int)(8 * sizeof(mask)) && (mask & (1UL << i))))
			CPU_SET(i, &s);
	return sched_setaffinity(pid, sizeof(s), &s);
}

/*
 * Make the calling (measuring) process stay out of the way of the tasks
 * under test: pin it to cpu (if >= 0) and make it SCHED_FIFO so it wakes
 * on time whatever SMART does to the fair class.  SCHED_RESET_ON_FORK so
 * its children start as plain SCHED_NORMAL.  Best effort.
 */
static inline void controller_setup(int cpu)
{
	struct sched_param sp = { .sched_priority = 10 };

	if (cpu >= 0)
		pin_to(0, cpu);
	sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp);
}

/* the CPU the controller uses while tasks under test are pinned to CPU 0 */
static inline int controller_cpu(void)
{
	return online_cpus() >= 2 ? 1 : 0;
}

/* ------------------------------------------------------------------ */
/* Hogs: child processes released together, measured, then killed      */

#define MAX_HOGS 16

typedef void (*hog_body_t)(void *arg);

struct hog_set {
	int n;
	int go[2];			/* closing go[1] releases every hog */
	pid_t pid[MAX_HOGS];
	long long cpu0[MAX_HOGS];	/* CPU ns at window start */
	long long cpu1[MAX_HOGS];	/* CPU ns at window end */
	long long t0, t1;		/* CLOCK_MONOTONIC window */
};

static inline void hog_spin_forever(void *arg)
{
	(void)arg;
	for (;;)
		__asm__ __volatile__("" ::: "memory");
}

static inline void hogs_init(struct hog_set *h)
{
	memset(h, 0, sizeof(*h));
	if (pipe(h->go))
		h->go[0] = h->go[1] = -1;
}

/*
 * Fork a hog with affinity mask (0 = all CPUs).  The child blocks until
 * hogs_go(), then runs body(arg) (never returns for spinners).  Dies with
 * its parent (PR_SET_PDEATHSIG) so a failed assertion cannot leak spinners.
 * Returns the pid or -1.
 */
static inline pid_t hog_spawn(struct hog_set *h, unsigned long mask,
			      hog_body_t body, void *arg)
{
	pid_t parent = getpid();
	int ready[2];
	char c;
	pid_t pid;

	if (h->n >= MAX_HOGS || h->go[0] < 0 || pipe(ready))
		return -1;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		close(ready[0]);
		close(ready[1]);
		return -1;
	}
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		close(h->go[1]);
		close(ready[0]);
		if (pin_mask(0, mask))
			_exit(2);
		if (write(ready[1], "r", 1) != 1)
			_exit(3);
		close(ready[1]);
		if (read(h->go[0], &c, 1) < 0)
			_exit(4);
		body(arg);
		_exit(0);
	}
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1) {
		close(ready[0]);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -1;
	}
	close(ready[0]);
	h->pid[h->n++] = pid;
	return pid;
}

static inline void hogs_go(struct hog_set *h)
{
	close(h->go[1]);
	h->go[1] = -1;
}

/* read every hog's CPU time into out[]; returns the CLOCK_MONOTONIC stamp */
static inline long long hogs_sample(struct hog_set *h, long long *out)
{
	long long t = mono_ns();
	int i;

	for (i = 0; i < h->n; i++)
		out[i] = proc_cpu_ns(h->pid[i]);
	return t;
}

/* sample, sleep window_ns, sample again */
static inline void hogs_measure(struct hog_set *h, long long window_ns)
{
	h->t0 = hogs_sample(h, h->cpu0);
	sleep_until_ns(h->t0 + window_ns);
	h->t1 = hogs_sample(h, h->cpu1);
}

static inline long long hog_delta(const struct hog_set *h, int i)
{
	return h->cpu1[i] - h->cpu0[i];
}

static inline bool hog_alive(const struct hog_set *h, int i)
{
	int st;

	return waitpid(h->pid[i], &st, WNOHANG) == 0;
}

static inline void hogs_kill(struct hog_set *h)
{
	int i;

	for (i = 0; i < h->n; i++)
		if (h->pid[i] > 0)
			kill(h->pid[i], SIGKILL);
	for (i = 0; i < h->n; i++)
		if (h->pid[i] > 0)
			waitpid(h->pid[i], NULL, 0);
	h->n = 0;
	if (h->go[0] >= 0)
		close(h->go[0]);
	if (h->go[1] >= 0)
		close(h->go[1]);
	h->go[0] = h->go[1] = -1;
}

/* shared anonymous memory visible to hogs and the controller */
static inline void *shared_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

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
static inline int run_child(int (*fn)(void *), void *arg)
{
	int st = 0;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fails = fn(arg);

		fflush(stdout);
		fflush(stderr);
		_exit(fails > 100 ? 100 : fails);
	}
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return st;
}

#define ASSERT_CHILD_OK(status) do {					\
	int __st = (status);	/* evaluated once: it runs the child */	\
	bool __ok = __st != -1 && WIFEXITED(__st) && WEXITSTATUS(__st) == 0; \
	if (!__ok)							\
		TH_LOG("child: expected exit 0, got %s %d (failures listed above)", \
		       __st != -1 && WIFEXITED(__st) ? "exit" : "wait status", \
		       __st != -1 && WIFEXITED(__st) ? WEXITSTATUS(__st) : __st); \
	ASSERT_TRUE(__ok);						\
} while (0)

/* drop to nobody with no capabilities; 0 or -errno */
static inline int drop_to_nobody(void)
{
	if (setgroups(0, NULL) && errno != EPERM)
		return -errno;
	if (setresgid(NOBODY_ID, NOBODY_ID, NOBODY_ID))
		return -errno;
	if (setresuid(NOBODY_ID, NOBODY_ID, NOBODY_ID))
		return -errno;
	return 0;
}

/* CapEff of the calling thread, or ~0 if unreadable */
static inline unsigned long long cap_eff(void)
{
	char line[256];
	unsigned long long v = ~0ULL;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return v;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &v) == 1)
			break;
	fclose(f);
	return v;
}

/* load weight of a nice value (kernel/sched/core.c sched_prio_to_weight) */
static inline unsigned int nice_to_weight(int nice)
{
	static const unsigned int w[40] = {
		/* -20 */ 88761, 71755, 56483, 46273, 36291,
		/* -15 */ 29154, 23254, 18705, 14949, 11916,
		/* -10 */  9548,  7620,  6100,  4904,  3906,
		/*  -5 */  3121,  2501,  1991,  1586,  1277,
		/*   0 */  1024,   820,   655,   526,   423,
		/*   5 */   335,   272,   215,   172,   137,
		/*  10 */   110,    87,    70,    56,    45,
		/*  15 */    36,    29,    23,    18,    15,
	};

	return w[nice + 20];
}

/* ------------------------------------------------------------------ */
/* Time constraints and notifications                                  */

/* a constraint ready for smart_constraint_begin(); deadline is absolute */
static inline void smart_tc_init(struct smart_constraint *c, unsigned int flags,
				 long long deadline, long long estimate,
				 long long period, unsigned long long cookie)
{
	memset(c, 0, sizeof(*c));
	c->size = sizeof(*c);
	c->flags = flags;
	c->deadline = deadline;
	c->estimate = estimate;
	c->period = period;
	c->cookie = cookie;
}

/* begin/end with the struct as it is; 0 or -errno */
static inline int smart_tc_begin(struct smart_constraint *c)
{
	return smart_constraint_begin(c, 0) ? -errno : 0;
}

static inline int smart_tc_end(struct smart_constraint *c)
{
	return smart_constraint_end(c, 0) ? -errno : 0;
}

static inline const char *smart_status_name(unsigned int s)
{
	switch (s) {
	case SMART_STATUS_FEASIBLE: return "FEASIBLE";
	case SMART_STATUS_INFEASIBLE: return "INFEASIBLE";
	case SMART_STATUS_MET: return "MET";
	case SMART_STATUS_MISSED: return "MISSED";
	default: return "?";
	}
}

static inline const char *smart_code_name(int code)
{
	switch (code) {
	case SMART_NOTIFY_INFEASIBLE: return "INFEASIBLE";
	case SMART_NOTIFY_EXPIRED: return "EXPIRED";
	default: return "?";
	}
}

/* the status begin must report for what it predicted */
static inline unsigned int smart_status_for(const struct smart_constraint *c)
{
	return c->available >= c->estimate ? SMART_STATUS_FEASIBLE :
					     SMART_STATUS_INFEASIBLE;
}

/* tolerance of end's @used against CLOCK_THREAD_CPUTIME_ID: 2 ms + 5% */
static inline long long smart_used_tol(long long ns)
{
	return 2 * NSEC_PER_MSEC + ns / 20;
}

/*
 * Is end's @used right?  The thread's CPU clock is read right before and
 * right after both calls: @inner is what it used from begin's return to
 * end's call (all of it under the constraint), @outer from before begin
 * to after end.  Reading the clock around each call keeps anything that
 * happens inside the calls (a preemption, a stalled virtual CPU charged
 * as run time) out of the comparison.
 */
static inline bool smart_used_ok(long long used, long long inner, long long outer)
{
	return used >= inner - smart_used_tol(inner) &&
	       used <= outer + smart_used_tol(outer);
}

/* the counters of the calling thread (0 on error: the caller asserts) */
struct smart_counts {
	long long met, missed, notified;
};

static inline struct smart_counts smart_counts_self(void)
{
	struct smart_counts n = { -1, -1, -1 };
	struct smart_attr a;

	if (!smart_get(0, &a)) {
		n.met = a.constraints_met;
		n.missed = a.constraints_missed;
		n.notified = a.notifications;
	}
	return n;
}

/* this thread's notify signal (0 = SIGXCPU); also enters SCHED_SMART */
static inline int smart_set_signal(int sig)
{
	struct smart_attr a = {
		.size = sizeof(a), .mask = SMART_ATTR_SIGNAL, .notify_signal = sig,
	};

	return smart_setattr(0, &a, 0) ? -errno : 0;
}

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

static inline struct smart_note_log *smart_notes(void)
{
	static struct smart_note_log log;

	return &log;
}

static inline struct smart_note_self *smart_note_self(void)
{
	static __thread struct smart_note_self self;

	return &self;
}

/* what the calling thread's handler has recorded so far */
static inline long smart_note_count(void)
{
	long n = __atomic_load_n(&smart_note_self()->n, __ATOMIC_RELAXED);

	__atomic_signal_fence(__ATOMIC_ACQUIRE);
	return n;
}

static inline void smart_note_handler(int sig, siginfo_t *si, void *uc)
{
	struct smart_note_self *self = smart_note_self();
	struct smart_note_log *log = smart_notes();
	int saved = errno, i;
	struct smart_note nt = {
		.tid = sys_gettid(), .signo = sig, .code = si->si_code,
		.pid = si->si_pid, .uid = si->si_uid,
		.cookie = (unsigned long long)(uintptr_t)si->si_value.sival_ptr,
		.t = mono_ns(),
	};

	(void)uc;
	i = __atomic_fetch_add(&log->n, 1, __ATOMIC_RELAXED);
	if (i < SMART_NOTE_MAX)
		log->note[i] = nt;
	self->last = nt;
	__atomic_signal_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&self->n, self->n + 1, __ATOMIC_RELAXED);
	errno = saved;
}

/* install the recorder for sig (process-wide) and unblock it here */
static inline int smart_note_install(int sig)
{
	struct sigaction sa;
	sigset_t s;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = smart_note_handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, NULL))
		return -errno;
	sigemptyset(&s);
	sigaddset(&s, sig);
	return -pthread_sigmask(SIG_UNBLOCK, &s, NULL);
}

/* wait (sleeping) until the calling thread has more than n notes */
static inline bool smart_note_wait(long n, long long timeout_ns)
{
	long long end = mono_ns() + timeout_ns;

	while (smart_note_count() <= n && mono_ns() < end)
		sleep_ns(NSEC_PER_MSEC);
	return smart_note_count() > n;
}

static inline int smart_cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/* the p-th percentile (1..100) of n sorted values, nearest rank */
static inline long long pct_ll(const long long *v, int n, int p)
{
	int i = (int)(((long long)n * p + 99) / 100) - 1;

	if (n <= 0)
		return 0;
	return v[i < 0 ? 0 : i < n ? i : n - 1];
}

#endif /* SMART_SELFTEST_UTIL_H */
