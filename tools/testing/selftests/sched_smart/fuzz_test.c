// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART syscall fuzzer.
 *
 * SMART_FUZZ_CALLS calls (default 100000, what `make test` runs; `make fuzz`
 * runs 10^6 on a debug kernel) spread over concurrent callers:
 *
 *   root threads     two threads of the test process, root
 *   nobody threads   two threads of a child that dropped to uid 65534
 *   pid namespace    a child that is pid 1 of a new pid namespace (when the
 *                    kernel has CONFIG_PID_NS), recreated every few hundred
 *                    calls: it dies with a constraint active
 *   churn            a thread that keeps creating threads and processes
 *                    (root and uid 65534) that begin NOTIFY constraints with
 *                    deadlines a few microseconds to milliseconds ahead,
 *                    notify with a handled signal and exit while the
 *                    constraint timer fires; a few exec while one is
 *                    pending; zombies and exited pids to aim at
 *   controller       takes CPU 1 offline and back a few times meanwhile
 *                    (/sys/devices/system/cpu/cpu1/online), prints progress
 *
 * Each call is one of smart_setattr, smart_getattr, smart_constraint_begin,
 * smart_constraint_end, sched_setattr (mostly SCHED_SMART), setpriority /
 * nice, sched_setaffinity / getaffinity, a write of a SMART sysctl
 * (/proc/sys/kernel/smart/ *, saved before and restored after) or a read
 * (sched_getattr, /proc/PID/sched, the debugfs queues), with random and
 * boundary values in every field, struct sizes (0, 1, VER0 - 1, VER0, larger
 * with a zero or non-zero tail, PAGE_SIZE, PAGE_SIZE + 1, ...), flags and
 * mask bits, pointers (NULL, unmapped, read-only, kernel, non-canonical, a
 * struct straddling a writable and a read-only or unmapped page) and pids
 * (self, another thread, another process, another user's process, a zombie,
 * an exited pid, a thread that is exiting, pid namespace numbers, -1,
 * INT_MIN, INT_MAX, above pid_max).
 *
 * A call fails the test when it returns an errno outside the documented set
 * of that call (the error tables of sched-smart.rst §4), when it
 * accepts an input the documentation says is invalid (estimate or period
 * above 60 s, SIGKILL as notify signal, ...), or when what it returns breaks
 * an invariant (a field out of range, bytes written beyond the size asked
 * for, begin's status against its available).  So does an EFAULT that
 * changed something (a begin whose struct ends in a read-only page that
 * installed a constraint, an end that ended one), and an exec probe: a
 * process that execs with a notification pending or about to be sent, whose
 * new program must neither get it nor find the constraint.  The first few
 * failures of each kind are printed with the call and its arguments when
 * they happen; the summary counts every kind.  Afterwards the "health" test
 * checks that the sysctls hold their saved values, CPU 1 is online, no
 * process of the fuzzer is left and spinning children get CPU time; the
 * pipeline scans the kernel log for splats.
 *
 * Env: SMART_FUZZ_CALLS (number of calls), SMART_FUZZ_SEED (the seed is
 * printed; giving it again repeats every caller's sequence of calls, not
 * their interleaving), SMART_FUZZ_SECONDS (time cap, default 60 + calls /
 * 1000: reaching it is a failure), SMART_FUZZ_HOTPLUG=0 (no CPU hotplug).
 */
#include <assert.h>
#include <stdarg.h>
#include <dirent.h>
#include <sys/sysinfo.h>
#include "../kselftest_harness.h"
#include "util.h"

#define NROOT		2	/* fuzzing threads of the test process */
#define NNOBODY		2	/* fuzzing threads of the uid 65534 child */
#define NCHURN		4	/* short-lived threads alive at once */
#define MAX_CLASS	48	/* kinds of failure told apart */
#define PRINT_PER_CLASS	3	/* failures of one kind printed as they happen */
#define MSG_LEN		512
#define NS_CALLS	300	/* calls of one pid namespace episode */
#define CALLS_PER_HOTPLUG 25000
#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"
#define QUEUES		"/sys/kernel/debug/sched/smart/queues"
#define PID_MAX_LIMIT	(4 * 1024 * 1024)
#define SEC		NSEC_PER_SEC
#define MAX_AHEAD	((long long)SMART_CONSTRAINT_MAX_AHEAD_NS)
#define PG		4096

static_assert(sizeof(struct smart_attr) == SMART_ATTR_SIZE_VER1, "VER1");
static_assert(sizeof(struct smart_constraint) == SMART_CONSTRAINT_SIZE_VER0, "VER0");

/* ------------------------------------------------------------------ */
/* What is fuzzed, what each call may return                           */

enum op {
	OP_SETATTR, OP_GETATTR, OP_BEGIN, OP_END, OP_SCHED_SETATTR, OP_NICE,
	OP_AFFINITY, OP_SYSCTL, OP_READ, OP_CHURN, OP_NR
};

static const char *const op_name[OP_NR] = {
	"smart_setattr", "smart_getattr", "smart_constraint_begin",
	"smart_constraint_end", "sched_setattr", "setpriority/nice",
	"sched_[gs]etaffinity", "sysctl write", "reads", "churn",
};

/* cumulative weights of the ops a fuzzing thread picks */
static const int op_weight[OP_NR] = {
	[OP_SETATTR] = 22, [OP_GETATTR] = 16, [OP_BEGIN] = 18, [OP_END] = 12,
	[OP_SCHED_SETATTR] = 10, [OP_NICE] = 7, [OP_AFFINITY] = 7,
	[OP_SYSCTL] = 2, [OP_READ] = 6,
};

static const int ok_setattr[] = { EINVAL, E2BIG, EFAULT, ESRCH, EPERM, 0 };
static const int ok_getattr[] = { EINVAL, EFAULT, ESRCH, 0 };
static const int ok_begin[] = { EINVAL, E2BIG, EFAULT, ETIME, EPERM, 0 };
static const int ok_end[] = { EINVAL, E2BIG, EFAULT, ENOENT, 0 };
/* sched_setattr(2): EOPNOTSUPP for SCHED_FLAG_UTIL_CLAMP without UCLAMP_TASK */
static const int ok_sched_setattr[] = { EINVAL, E2BIG, EFAULT, ESRCH, EPERM, EOPNOTSUPP, 0 };
static const int ok_sched_getattr[] = { EINVAL, E2BIG, EFAULT, ESRCH, 0 };
static const int ok_nice[] = { EINVAL, ESRCH, EPERM, EACCES, 0 };
static const int ok_affinity[] = { EINVAL, EFAULT, ESRCH, EPERM, 0 };
static const int ok_sysctl[] = { EINVAL, 0 };
static const int ok_sysctl_nobody[] = { EACCES, EPERM, 0 };
static const int ok_proc[] = { ENOENT, ESRCH, EACCES, 0 };

/* errnos counted by name in the summary; the last slot is "other" */
static const int hist_errno[] = {
	EINVAL, E2BIG, EFAULT, ESRCH, EPERM, ETIME, ENOENT, EACCES, EOPNOTSUPP,
};

#define NHIST	((int)ARRAY_SIZE(hist_errno) + 1)

static const struct {
	const char *name;
	unsigned long long min, max;
} sysctl_tab[] = {
	{ "quantum_ns",		1000000,	1000000000 },
	{ "bias_step_ns",	0,		1000000000 },
	{ "bias_max_ns",	0,		10000000000ULL },
	{ "sleep_credit_ns",	0,		10000000000ULL },
	{ "resolution_ns",	100000,		10000000 },
};

#define NSYSCTL	((int)ARRAY_SIZE(sysctl_tab))

/* values the fuzzer reaches for first */
static const unsigned long long u64_edge[] = {
	0, 1, 2, 3, 7, 8, 63, 64, 65, 4095, 4096, 4097, 1000, 1000000,
	10000000, 100000000, 1000000000, 59999999999ULL, 60000000000ULL,
	60000000001ULL, 0x7fffffffULL, 0x80000000ULL, 0xffffffffULL,
	0x100000000ULL, 1ULL << 62, 3ULL << 62, (1ULL << 63) - 1, 1ULL << 63,
	(1ULL << 63) + 1, ~0ULL - 1, ~0ULL,
};

static const int s32_edge[] = {
	0, 1, -1, 2, -2, 9, 15, 16, 17, -15, -16, -17, 19, 20, -20, -21, 31,
	32, 33, 34, 63, 64, 65, 100, 1023, 1024, 1025, 1048575, 1048576,
	1048577, INT_MAX, INT_MIN, INT_MAX - 1, INT_MIN + 1, 0x10000,
};

/* ------------------------------------------------------------------ */
/* State shared by every caller (MAP_SHARED: children and namespaces)  */

struct shared {
	long ncalls;		/* calls to make */
	long calls;		/* tickets taken */
	int go, stop, stop_ns;
	long long t0;
	unsigned long long seed;
	long n[OP_NR], ok[OP_NR], err[OP_NR][NHIST];
	long fails;
	struct fail_class {
		int state;		/* 0 free, 1 being claimed, 2 ready */
		long count;
		char name[96];
		char first[MSG_LEN];
	} cls[MAX_CLASS];
	long unclassified;

	/* targets */
	pid_t root_tid[NROOT], root_victim;
	pid_t nobody_pid, nobody_tid[NNOBODY], nobody_victim;
	pid_t other_pid, other_tid;	/* another root process, two threads */
	pid_t user_pid;			/* another user's process (inert) */
	pid_t inert_pid;		/* a root process that never begins */
	pid_t zombie_pid, dead_pid, ns_pid;
	pid_t churn_tid[NCHURN], churn_pid;
	pid_t pid_max;

	/* what happened */
	long threads, procs, execs, ns_runs, ns_calls, zombies;
	long hotplugs, hotplug_refused, notes, other_signals;
	bool ns_unsupported, cpu1;
};

static struct shared *S;
static unsigned long long sysctl_saved[NSYSCTL];
static bool sysctl_have[NSYSCTL];
static bool cpu1_was_online;
static long fuzz_calls = 100000;
static long fuzz_seconds;
static bool fuzz_hotplug = true;
static unsigned long long fuzz_seed;

/* ------------------------------------------------------------------ */
/* Random numbers                                                      */

struct worker {
	unsigned long long rng;
	char who[32];
	bool root;		/* may write sysctls, CAP_SYS_NICE */
	bool in_ns;		/* pid 1 of a child pid namespace */
	pid_t tid;
	pid_t ns_child;		/* pid (in the namespace) of its child */
	unsigned char *arena;	/* pages: RW RW RO NONE RW NONE */
};

static unsigned long long splitmix(unsigned long long *x)
{
	unsigned long long z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned long long rnd(struct worker *w)
{
	unsigned long long x = w->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	w->rng = x;
	return x * 0x2545f4914f6cdd1dULL;
}

static unsigned long long below(struct worker *w, unsigned long long n)
{
	return n ? rnd(w) % n : 0;
}

static bool chance(struct worker *w, unsigned int pct)
{
	return below(w, 100) < pct;
}

static long long range(struct worker *w, long long lo, long long hi)
{
	return lo + (long long)below(w, hi - lo + 1);
}

static unsigned long long pick_u64(struct worker *w)
{
	return chance(w, 80) ? u64_edge[below(w, ARRAY_SIZE(u64_edge))] : rnd(w);
}

static int pick_s32(struct worker *w)
{
	return chance(w, 80) ? s32_edge[below(w, ARRAY_SIZE(s32_edge))] : (int)rnd(w);
}

/* a caller with its own random stream; @arena: map its pages for pointers */
static void worker_init(struct worker *w, const char *who, unsigned long long stream,
			bool arena)
{
	unsigned long long x = S->seed + 0x1000 * stream;

	memset(w, 0, sizeof(*w));
	snprintf(w->who, sizeof(w->who), "%s", who);
	w->rng = splitmix(&x) | 1;
	w->root = geteuid() == 0;
	w->tid = sys_gettid();
	if (!arena)
		return;
	w->arena = mmap(NULL, 6 * PG, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (w->arena == MAP_FAILED) {
		w->arena = NULL;
		return;
	}
	mprotect(w->arena + 2 * PG, PG, PROT_READ);
	mprotect(w->arena + 3 * PG, PG, PROT_NONE);
	mprotect(w->arena + 5 * PG, PG, PROT_NONE);
}

static void worker_fini(struct worker *w)
{
	if (w->arena)
		munmap(w->arena, 6 * PG);
	w->arena = NULL;
}

/* ------------------------------------------------------------------ */
/* Reporting                                                           */

/* async-signal-safe enough for forked children: no stdio locks */
static void say(const char *fmt, ...)
{
	char buf[MSG_LEN + 32];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(STDERR_FILENO, buf, n) < 0)
		return;
}

/* the slot of failure kind @name, claimed if new; NULL when the table is full */
static struct fail_class *fail_class(const char *name)
{
	struct fail_class *c;
	int i, st;

	for (i = 0; i < MAX_CLASS; i++) {
		c = &S->cls[i];
		st = __atomic_load_n(&c->state, __ATOMIC_ACQUIRE);
		if (st == 0) {
			int zero = 0;

			if (__atomic_compare_exchange_n(&c->state, &zero, 1, false,
							__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
				snprintf(c->name, sizeof(c->name), "%s", name);
				__atomic_store_n(&c->state, 2, __ATOMIC_RELEASE);
				return c;
			}
			st = zero;
		}
		while (st == 1)
			st = __atomic_load_n(&c->state, __ATOMIC_ACQUIRE);
		if (!strcmp(c->name, name))
			return c;
	}
	return NULL;
}

/*
 * A failure of kind @kind (what the summary counts), described by @fmt.
 * The first few of each kind are printed when they happen.
 */
static void fail(const char *kind, const char *fmt, ...)
{
	struct fail_class *c = fail_class(kind);
	char buf[MSG_LEN];
	va_list ap;
	long n;

	__atomic_fetch_add(&S->fails, 1, __ATOMIC_RELAXED);
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!c) {
		if (__atomic_fetch_add(&S->unclassified, 1, __ATOMIC_RELAXED) < PRINT_PER_CLASS)
			say("# FAIL %s", buf);
		return;
	}
	n = __atomic_fetch_add(&c->count, 1, __ATOMIC_RELAXED);
	if (!n)
		memcpy(c->first, buf, sizeof(buf));
	if (n < PRINT_PER_CLASS)
		say("# FAIL %s", buf);
}

static const char *ename(int e)
{
	const char *s = e ? strerrorname_np(e) : "0";

	return s ? s : "E?";
}

static bool in_set(const int *set, int e)
{
	for (; *set; set++)
		if (*set == e)
			return true;
	return false;
}

static void set_str(const int *set, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (; *set && n < len; set++)
		n += snprintf(buf + n, len - n, "%s%s", n ? "/" : "", ename(*set));
}

static bool take_ticket(void)
{
	if (__atomic_load_n(&S->stop, __ATOMIC_RELAXED))
		return false;
	return __atomic_fetch_add(&S->calls, 1, __ATOMIC_RELAXED) < S->ncalls;
}

static bool stopping(void)
{
	return __atomic_load_n(&S->stop, __ATOMIC_RELAXED) ||
	       __atomic_load_n(&S->calls, __ATOMIC_RELAXED) >= S->ncalls;
}

/*
 * Account one call and judge it: @ret/@err as the call gave them, @set the
 * errnos it may fail with, @invalid non-NULL when the documentation says
 * the input must be refused (the reason).  Returns true when the call is a
 * failure, with the reason in @why; the caller then describes the call
 * (descriptions are only built for failures: they cost more than a call).
 */
struct verdict {
	char why[256];		/* what was wrong with the result */
	char kind[96];		/* the kind of failure, counted in the summary */
};

static bool judge(enum op op, long ret, int err, const int *set, const char *invalid,
		  struct verdict *v)
{
	char s[128];
	int i;

	__atomic_fetch_add(&S->n[op], 1, __ATOMIC_RELAXED);
	if (ret >= 0) {
		__atomic_fetch_add(&S->ok[op], 1, __ATOMIC_RELAXED);
		if (!invalid)
			return false;
		snprintf(v->why, sizeof(v->why), "= %ld: accepted an invalid input (%s)",
			 ret, invalid);
		snprintf(v->kind, sizeof(v->kind), "%s accepted: %s", op_name[op], invalid);
		return true;
	}
	for (i = 0; i < NHIST - 1 && hist_errno[i] != err; i++)
		;
	__atomic_fetch_add(&S->err[op][i], 1, __ATOMIC_RELAXED);
	if (in_set(set, err))
		return false;
	set_str(set, s, sizeof(s));
	snprintf(v->why, sizeof(v->why), "= -1 %s: not a documented error (0 or %s)",
		 ename(err), s);
	snprintf(v->kind, sizeof(v->kind), "%s: undocumented %s", op_name[op], ename(err));
	return true;
}

/* ------------------------------------------------------------------ */
/* Signals: every catchable one is handled, notifications counted      */

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (si->si_code == SMART_NOTIFY_INFEASIBLE || si->si_code == SMART_NOTIFY_EXPIRED) {
		__atomic_fetch_add(&S->notes, 1, __ATOMIC_RELAXED);
		return;
	}
	if (si->si_code > 0 && (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL ||
				sig == SIGFPE || sig == SIGTRAP)) {
		signal(sig, SIG_DFL);	/* a real fault: die of it */
		return;
	}
	__atomic_fetch_add(&S->other_signals, 1, __ATOMIC_RELAXED);
}

static void handle_all_signals(void)
{
	struct sigaction sa;
	sigset_t none;
	int sig;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (sig = 1; sig <= KERNEL_SIGRTMAX; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigaction(sig, &sa, NULL);	/* glibc refuses 32, 33 */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

static int pick_notify_sig(struct worker *w)
{
	static const int sigs[] = { 0, SIGUSR1, SIGUSR2, SIGXCPU, SIGALRM, SIGCHLD,
				    SIGSEGV, SIGTERM, SIGHUP, 34, 40, 50, 63, 64 };

	return sigs[below(w, ARRAY_SIZE(sigs))];
}

/* ------------------------------------------------------------------ */
/* Pointers                                                            */

enum ptr_kind {
	PK_GOOD, PK_MISALIGNED, PK_PAGE_END, PK_NULL, PK_LOW, PK_NONE,
	PK_RO, PK_STRADDLE_RO, PK_STRADDLE_NONE, PK_KERNEL, PK_NONCANON, PK_NR
};

static const char *const pk_name[PK_NR] = {
	"buf", "misaligned", "page-end", "NULL", "low", "unmapped", "read-only",
	"straddle-ro", "straddle-unmapped", "kernel", "non-canonical",
};

struct uptr {
	void *p;
	enum ptr_kind kind;
	int straddle;		/* writable bytes before the read-only/unmapped page */
	bool good;		/* readable and writable for len bytes */
	char label[48];
};

static enum ptr_kind pick_kind(struct worker *w)
{
	unsigned long long r = below(w, 100);

	if (!w->arena)
		return PK_NULL;
	if (r < 72)
		return PK_GOOD;
	if (r < 76)
		return PK_MISALIGNED;
	if (r < 79)
		return PK_PAGE_END;
	return PK_NULL + (enum ptr_kind)below(w, PK_NR - PK_NULL);
}

/*
 * Place @len bytes of @src for a call where @kind says, followed by zeros
 * up to @tail bytes in all (the struct's unknown tail), as far as the
 * pages allow.  The arena's pages are RW RW RO NONE RW NONE.
 */
static void place(struct worker *w, struct uptr *u, enum ptr_kind kind,
		  const void *src, size_t len, size_t tail)
{
	static const int straddles[] = { 4, 8, 12, 16, 24, 32, 40, 48, 56, 60 };
	unsigned char *a = w->arena, *ro = a + 2 * PG;
	size_t room = 0, n;

	memset(u, 0, sizeof(*u));
	u->kind = kind;
	if (tail < len)
		tail = len;
	switch (kind) {
	case PK_GOOD:
	case PK_MISALIGNED:
		u->p = a + (kind == PK_MISALIGNED ? 1 + below(w, 7) : 0);
		room = ro - (unsigned char *)u->p;
		u->good = true;
		break;
	case PK_PAGE_END:
		/* the struct ends where the read-only page starts */
		n = len < PG ? len : PG;
		u->p = ro - n;
		room = n;
		u->good = true;
		break;
	case PK_NULL:
		u->p = NULL;
		break;
	case PK_LOW:
		u->p = (void *)(uintptr_t)(chance(w, 50) ? 1 : 0x1000);
		break;
	case PK_NONE:
		u->p = a + 3 * PG;
		break;
	case PK_RO:
	case PK_STRADDLE_RO:
		u->straddle = kind == PK_RO ? 0 : straddles[below(w, ARRAY_SIZE(straddles))];
		u->p = ro - u->straddle;
		n = tail < PG + (size_t)u->straddle ? tail : PG + (size_t)u->straddle;
		mprotect(ro, PG, PROT_READ | PROT_WRITE);
		memset(u->p, 0, n);
		memcpy(u->p, src, len < n ? len : n);
		mprotect(ro, PG, PROT_READ);
		break;
	case PK_STRADDLE_NONE:
		u->straddle = straddles[below(w, ARRAY_SIZE(straddles))];
		u->p = a + 5 * PG - u->straddle;
		memcpy(u->p, src, (size_t)u->straddle < len ? (size_t)u->straddle : len);
		break;
	case PK_KERNEL:
		u->p = (void *)0xffffffff81000000UL;
		break;
	case PK_NONCANON:
		u->p = (void *)(chance(w, 50) ? 0x0000800000000000UL : 0xdead000000000000UL);
		break;
	default:
		break;
	}
	if (room) {
		n = tail < room ? tail : room;
		memset(u->p, 0, n);
		memcpy(u->p, src, len < n ? len : n);
	}
	if (u->straddle)
		snprintf(u->label, sizeof(u->label), "%s-%d", pk_name[kind], u->straddle);
	else
		snprintf(u->label, sizeof(u->label), "%s", pk_name[kind]);
}

/* size field of a size-versioned struct, and whether its tail is dirty */
static unsigned int pick_size(struct worker *w, bool *dirty)
{
	static const unsigned int sizes[] = {
		0, 1, 4, 8, 32, SMART_ATTR_SIZE_VER0 - 1, SMART_ATTR_SIZE_VER0,
		SMART_ATTR_SIZE_VER0 + 1, 72, 80, 128, 256, PG - 1, PG, PG + 1,
		2 * PG, 0x7fffffff, 0x80000000, 0xffffffff,
	};
	unsigned int s;

	*dirty = false;
	if (chance(w, 75))
		return SMART_ATTR_SIZE_VER0;
	s = sizes[below(w, ARRAY_SIZE(sizes))];
	if (s > SMART_ATTR_SIZE_VER0 && s <= PG)
		*dirty = chance(w, 50);
	return s;
}

/*
 * A non-zero byte somewhere in [ksize, size) of a good buffer, where
 * ksize is the size of the kernel's struct; false if none.
 */
static bool dirty_tail(struct worker *w, struct uptr *u, unsigned int size,
		       unsigned int ksize)
{
	unsigned char *p = u->p;

	if (!u->good || u->kind == PK_PAGE_END || size <= ksize || size > PG)
		return false;
	p[ksize + below(w, size - ksize)] = 1 + below(w, 255);
	return true;
}

/* ------------------------------------------------------------------ */
/* Targets                                                             */

struct target {
	pid_t pid;
	const char *name;
	bool inert;		/* never begins a constraint: any signal is harmless */
	bool invalid;		/* no such thread, ever: the call must fail */
	bool may_vanish;	/* exited or exiting: ESRCH or a live result */
};

static pid_t pick_of(struct worker *w, const pid_t *v, int n)
{
	return v[below(w, n)];
}

static void pick_invalid(struct worker *w, struct target *t)
{
	static const pid_t bad[] = { -1, -2, INT_MIN, INT_MAX, INT_MIN + 1, PID_MAX_LIMIT + 1 };

	t->invalid = true;
	if (chance(w, 30) && S->pid_max > 0 && S->pid_max < PID_MAX_LIMIT) {
		t->pid = S->pid_max + (pid_t)below(w, 3);	/* above pid_max */
		t->name = "above pid_max";
	} else {
		t->pid = bad[below(w, ARRAY_SIZE(bad))];
		t->name = "invalid pid";
	}
}

/*
 * A target for a call.  @mutating: the call may change the target; root
 * then only aims at this test's own tasks (and pids that cannot exist).
 */
static void pick_target(struct worker *w, struct target *t, bool mutating)
{
	unsigned long long r = below(w, 100);

	memset(t, 0, sizeof(*t));
	if (w->in_ns) {
		/* numbers as this pid namespace sees them */
		if (r < 30) {
			t->pid = 0;
			t->name = "self";
		} else if (r < 45) {
			t->pid = chance(w, 50) ? 1 : w->tid;
			t->name = "self (ns pid 1)";
		} else if (r < 65) {
			t->pid = w->ns_child;
			t->name = "ns child (ns pid 2)";
		} else if (r < 75) {
			t->pid = 3 + (pid_t)below(w, 5);
			t->name = "free ns pid";
			t->may_vanish = true;
		} else if (r < 90) {
			t->pid = pick_of(w, S->root_tid, NROOT);
			t->name = "global pid from inside the ns";
			t->may_vanish = true;
		} else {
			pick_invalid(w, t);
		}
		return;
	}
	if (r < 14) {
		t->pid = 0;
		t->name = "self (0)";
	} else if (r < 20) {
		t->pid = w->tid;
		t->name = "self (tid)";
	} else if (r < 30) {
		if (w->root)
			t->pid = pick_of(w, S->root_tid, NROOT);
		else
			t->pid = pick_of(w, S->nobody_tid, NNOBODY);
		t->name = "sibling thread";
	} else if (r < 36) {
		t->pid = w->root ? S->root_victim : S->nobody_victim;
		t->name = "victim thread";
	} else if (r < 44) {
		t->pid = chance(w, 50) ? S->other_pid : S->other_tid;
		t->name = "other process";
	} else if (r < 50) {
		t->pid = S->user_pid;
		t->name = w->root ? "other user's process" : "own user's process";
		t->inert = true;
	} else if (r < 54) {
		t->pid = S->inert_pid;
		t->name = "inert root process";
		t->inert = true;
	} else if (r < 60) {
		if (w->root)
			t->pid = pick_of(w, S->nobody_tid, NNOBODY);
		else
			t->pid = pick_of(w, S->root_tid, NROOT);
		t->name = w->root ? "uid 65534 thread" : "root thread";
	} else if (r < 64) {
		t->pid = S->zombie_pid;
		t->name = "zombie";
		t->may_vanish = true;
	} else if (r < 68) {
		t->pid = S->dead_pid;
		t->name = "exited pid";
		t->may_vanish = true;
	} else if (r < 72) {
		t->pid = S->ns_pid;
		t->name = "pid namespace init";
		t->may_vanish = true;
	} else if (r < 80) {
		t->pid = S->churn_tid[below(w, NCHURN)];
		t->name = "exiting thread";
		t->may_vanish = true;
	} else if (r < 83) {
		t->pid = S->churn_pid;
		t->name = "exiting process";
		t->may_vanish = true;
	} else if (r < 86 && (!mutating || !w->root)) {
		t->pid = 1;
		t->name = "init";
	} else if (r < 88) {
		t->pid = getppid();
		t->name = "parent";
		if (mutating && w->root) {
			t->pid = 0;
			t->name = "self (0)";
		}
	} else {
		pick_invalid(w, t);
	}
	if (!t->pid && strcmp(t->name, "self (0)")) {
		/* not there (yet): the slot is empty */
		t->pid = 0;
		t->name = "self (0)";
		t->inert = false;
		t->may_vanish = false;
	}
}

/* ------------------------------------------------------------------ */
/* The calls                                                           */

static long long now_ns(void)
{
	return mono_ns();
}

/* report a failed call: its description and the verdict */
static void report(struct worker *w, const char *desc, const struct verdict *v)
{
	fail(v->kind, "[%s] %s %s", w->who, desc, v->why);
}

static const char *attr_invalid(const struct smart_attr *a, unsigned int size,
				bool dirty, unsigned int flags)
{
	if (flags)
		return "flags argument not 0";
	if (size < SMART_ATTR_SIZE_VER0)
		return "size below SMART_ATTR_SIZE_VER0";
	if (size > PG)
		return "size above the page size";
	if (dirty)
		return "non-zero byte beyond the kernel's struct";
	if (a->mask & ~SMART_ATTR_ALL)
		return "unknown mask bit";
	if ((a->mask & SMART_ATTR_PRIORITY) &&
	    (a->priority < SMART_PRIO_MIN || a->priority > SMART_PRIO_MAX))
		return "priority out of range";
	if ((a->mask & SMART_ATTR_SHARE) &&
	    (a->share < SMART_SHARE_MIN || a->share > SMART_SHARE_MAX))
		return "share out of range";
	if ((a->mask & SMART_ATTR_SIGNAL) &&
	    (a->notify_signal < 0 || a->notify_signal > KERNEL_SIGRTMAX))
		return "notify_signal out of 0..SIGRTMAX";
	if ((a->mask & SMART_ATTR_SIGNAL) &&
	    (a->notify_signal == SIGKILL || a->notify_signal == SIGSTOP))
		return "notify_signal SIGKILL/SIGSTOP (issue 10)";
	if ((a->mask & SMART_ATTR_FLAGS) && (a->flags & ~SMART_FLAG_ALL))
		return "unknown flag";
	return NULL;
}

static void gen_attr(struct worker *w, struct smart_attr *a, const struct target *t)
{
	static const unsigned int shares[] = { 1, 2, 15, 100, 1024, 3000, 88761, 1048576 };

	memset(a, 0, sizeof(*a));
	if (chance(w, 75))
		a->mask = 1 + below(w, SMART_ATTR_ALL);
	else if (chance(w, 40))
		a->mask = (unsigned int)pick_u64(w);
	else if (chance(w, 50))
		a->mask = SMART_ATTR_ALL | (1u << (4 + below(w, 28)));
	a->priority = chance(w, 70) ? (int)range(w, SMART_PRIO_MIN, SMART_PRIO_MAX) :
				      pick_s32(w);
	if (chance(w, 70))
		a->share = chance(w, 50) ? shares[below(w, ARRAY_SIZE(shares))] :
					   (unsigned int)range(w, 1, SMART_SHARE_MAX);
	else
		a->share = (unsigned int)pick_s32(w);
	a->notify_signal = chance(w, 75) ? pick_notify_sig(w) : pick_s32(w);
	a->flags = chance(w, 80) ? (unsigned int)below(w, 2) : (unsigned int)pick_u64(w);
	a->lag_ns = (long long)rnd(w);	/* out fields: ignored on input */
	a->bias_ns = rnd(w);
	a->constraints_met = rnd(w);
	/*
	 * Signals this program cannot handle only for targets that never
	 * begin a constraint: SIGKILL and SIGSTOP (a kernel that accepts
	 * them, issue 10, would kill or stop the caller at its next
	 * notification) and glibc's internal 32 and 33 (no handler until
	 * glibc installs its own: the default action kills).
	 */
	if ((a->mask & SMART_ATTR_SIGNAL) && !t->inert &&
	    (a->notify_signal == SIGKILL || a->notify_signal == SIGSTOP ||
	     a->notify_signal == 32 || a->notify_signal == 33))
		a->notify_signal = SIGUSR2;
}

static int fmt_attr(char *b, size_t n, const struct smart_attr *a)
{
	return snprintf(b, n, "{size %u mask %#x prio %d share %u sig %d flags %#x}",
			a->size, a->mask, a->priority, a->share, a->notify_signal, a->flags);
}

static void op_setattr(struct worker *w)
{
	unsigned int flags = chance(w, 92) ? 0 : (unsigned int)pick_u64(w);
	char desc[MSG_LEN], fa[160];
	struct verdict why;
	const char *inv = NULL;
	struct smart_attr a;
	struct target t;
	struct uptr u;
	bool dirty;
	long ret;
	int err;

	pick_target(w, &t, true);
	gen_attr(w, &a, &t);
	a.size = pick_size(w, &dirty);
	place(w, &u, pick_kind(w), &a, sizeof(a), a.size);
	dirty = dirty && dirty_tail(w, &u, a.size, sizeof(struct smart_attr));
	if (u.good || u.kind == PK_RO || u.kind == PK_STRADDLE_RO) {
		/* readable: setattr never writes back */
		inv = attr_invalid(&a, a.size, dirty, flags);
		if (!inv && t.invalid)
			inv = "no such thread";
	} else {
		inv = flags ? "flags argument not 0" : "unreadable struct";
	}
	ret = syscall(__NR_smart_setattr, t.pid, u.p, flags);
	err = errno;
	if (judge(OP_SETATTR, ret, err, ok_setattr, inv, &why)) {
		fmt_attr(fa, sizeof(fa), &a);
		snprintf(desc, sizeof(desc), "smart_setattr(pid %d [%s], %s %s, flags %#x)",
			 t.pid, t.name, u.label, fa, flags);
		report(w, desc, &why);
	}
}

static void op_getattr(struct worker *w)
{
	static const unsigned int usizes[] = {
		0, 1, 8, SMART_ATTR_SIZE_VER0 - 1, SMART_ATTR_SIZE_VER0 + 1, 72, 128,
		PG - 1, PG, PG + 1, 0x80000000u, 0xffffffffu,
	};
	unsigned int flags = chance(w, 92) ? 0 : (unsigned int)pick_u64(w);
	unsigned int usize = chance(w, 75) ? SMART_ATTR_SIZE_VER0 :
					     usizes[below(w, ARRAY_SIZE(usizes))];
	/* the kernel's struct is the one of the header this is built with */
	unsigned int want = usize < sizeof(struct smart_attr) ? usize : sizeof(struct smart_attr);
	unsigned char fill[PG + 64], *out;
	char desc[MSG_LEN];
	struct verdict why;
	const char *inv = NULL;
	struct smart_attr a;
	struct target t;
	struct uptr u;
	long ret;
	int err, i;

	pick_target(w, &t, false);
	memset(fill, 0xa5, sizeof(fill));
	place(w, &u, pick_kind(w), fill, usize <= PG ? usize + 16 : 64, 0);
	if (flags)
		inv = "flags argument not 0";
	else if (usize < SMART_ATTR_SIZE_VER0)
		inv = "size below SMART_ATTR_SIZE_VER0";
	else if (usize > PG)
		inv = "size above the page size";
	else if (t.invalid)
		inv = "no such thread";
	else if (!u.good)
		inv = "struct not writable";
	ret = syscall(__NR_smart_getattr, t.pid, u.p, usize, flags);
	err = errno;
	snprintf(desc, sizeof(desc), "smart_getattr(pid %d [%s], %s, size %u, flags %#x)",
		 t.pid, t.name, u.label, usize, flags);
	if (judge(OP_GETATTR, ret, err, ok_getattr, inv, &why))
		report(w, desc, &why);
	if (ret || !u.good || u.kind == PK_PAGE_END)
		return;
	/* what came back: sizes and ranges, and not a byte more */
	out = u.p;
	memset(&a, 0, sizeof(a));
	memcpy(&a, out, want);
	if (a.size != want || a.priority < SMART_PRIO_MIN || a.priority > SMART_PRIO_MAX ||
	    a.share < SMART_SHARE_MIN || a.share > SMART_SHARE_MAX ||
	    a.notify_signal < 0 || a.notify_signal > KERNEL_SIGRTMAX ||
	    (a.flags & ~SMART_FLAG_ALL)) {
		char fa[160];

		fmt_attr(fa, sizeof(fa), &a);
		fail("smart_getattr: result out of range",
		     "[%s] %s = 0 returned %s: size not %u or a field out of range",
		     w->who, desc, fa, want);
	}
	for (i = 0; i < 16; i++) {
		if (out[want + i] != 0xa5) {
			fail("smart_getattr: wrote beyond size",
			     "[%s] %s = 0 wrote byte %u, beyond min(size, %u)", w->who, desc,
			     want + i, (unsigned int)sizeof(struct smart_attr));
			break;
		}
	}
}

/* a deadline: mostly some time ahead, sometimes at or beyond the edges */
static unsigned long long pick_deadline(struct worker *w, long long now)
{
	static const long long rel[] = {
		-SEC, -1, 0, 1, 1000, 10 * US, 100 * US, MS, 10 * MS, SEC,
		MAX_AHEAD - MS, MAX_AHEAD, MAX_AHEAD + MS, 2 * MAX_AHEAD,
	};
	unsigned long long r = below(w, 100);

	if (r < 55)
		return now + range(w, 2 * US, 20 * MS);
	if (r < 70)
		return now + range(w, 20 * MS, 2 * SEC);
	if (r < 88)
		return now + rel[below(w, ARRAY_SIZE(rel))];
	return pick_u64(w);
}

static unsigned long long pick_estimate(struct worker *w)
{
	unsigned long long r = below(w, 100);

	if (r < 60)
		return range(w, US, 5 * MS);
	if (r < 70)
		return range(w, 5 * MS, MAX_AHEAD);
	return pick_u64(w);
}

static void gen_constraint(struct worker *w, struct smart_constraint *c, long long now)
{
	memset(c, 0, sizeof(*c));
	c->flags = chance(w, 85) ? (unsigned int)below(w, 4) : (unsigned int)pick_u64(w);
	c->deadline = pick_deadline(w, now);
	c->estimate = pick_estimate(w);
	if (chance(w, 50))
		c->period = 0;
	else if (chance(w, 50))
		c->period = c->estimate * (1 + below(w, 4));
	else
		c->period = pick_u64(w);
	c->cookie = rnd(w);
	c->available = rnd(w);	/* out fields */
	c->used = rnd(w);
	c->status = (unsigned int)rnd(w);
	c->__reserved = chance(w, 95) ? 0 : (unsigned int)pick_u64(w);
}

static void fmt_tc(char *b, size_t n, const char *call, const struct uptr *u,
		   const struct smart_constraint *c, long long now, unsigned int flags)
{
	snprintf(b, n, "%s(%s {size %u flags %#x deadline now%+lld (%llu) estimate %llu "
		 "period %llu reserved %#x}, flags %#x)", call, u->label, c->size, c->flags,
		 (long long)(c->deadline - now), (unsigned long long)c->deadline,
		 (unsigned long long)c->estimate, (unsigned long long)c->period,
		 c->__reserved, flags);
}

/* what smart_constraint_begin/end must refuse whatever the clock says */
static const char *tc_invalid_common(const struct smart_constraint *c, unsigned int flags,
				     bool dirty)
{
	if (flags)
		return "flags argument not 0";
	if (c->size < SMART_CONSTRAINT_SIZE_VER0)
		return "size below SMART_CONSTRAINT_SIZE_VER0";
	if (c->size > PG)
		return "size above the page size";
	if (dirty)
		return "non-zero byte beyond the kernel's struct";
	if (c->flags & ~SMART_CONSTRAINT_ALL)
		return "unknown constraint flag";
	if (c->__reserved)
		return "__reserved not 0";
	return NULL;
}

static const char *tc_invalid_begin(const struct smart_constraint *c, long long before,
				    long long after)
{
	if (!c->estimate)
		return "estimate 0";
	if (c->estimate > (unsigned long long)MAX_AHEAD)
		return "estimate above 60 s (issue 10)";
	if (c->period > (unsigned long long)MAX_AHEAD)
		return "period above 60 s (issue 10)";
	if (c->period && c->period < c->estimate)
		return "0 < period < estimate";
	if (c->deadline <= (unsigned long long)before)
		return "deadline not in the future";
	if (c->deadline > (unsigned long long)(after + MAX_AHEAD))
		return "deadline more than 60 s ahead";
	return NULL;
}

/* end whatever is active with a good struct; returns 0 or the errno */
static int tc_end_good(void)
{
	struct smart_constraint c;

	smart_tc_init(&c, 0, 0, 0, 0, 0);
	return syscall(__NR_smart_constraint_end, &c, 0) ? errno : 0;
}

static void op_begin(struct worker *w)
{
	unsigned int flags = chance(w, 94) ? 0 : (unsigned int)pick_u64(w);
	char desc[MSG_LEN];
	struct verdict why;
	struct smart_constraint c;
	const char *inv = NULL;
	long long before, after;
	bool dirty, probe;
	struct uptr u;
	long ret;
	int err, e;

	before = now_ns();
	gen_constraint(w, &c, before);
	c.size = pick_size(w, &dirty);
	place(w, &u, pick_kind(w), &c, sizeof(c), c.size);
	dirty = dirty && dirty_tail(w, &u, c.size, sizeof(struct smart_constraint));
	/*
	 * A struct that is right but for its read-only end: begin must fail
	 * with EFAULT and install nothing (issue 10), so a later end finds
	 * nothing to end.  Start from no constraint.
	 */
	probe = u.kind == PK_STRADDLE_RO && !flags && c.size == sizeof(c) && !dirty &&
		!(c.flags & ~SMART_CONSTRAINT_NOTIFY) && !c.__reserved;
	if (probe) {
		tc_end_good();
		before = now_ns();
		c.deadline = before + range(w, 100 * MS, 10 * SEC);
		c.estimate = range(w, US, 5 * MS);
		c.period = 0;
		place(w, &u, PK_STRADDLE_RO, &c, sizeof(c), c.size);
	}
	ret = syscall(__NR_smart_constraint_begin, u.p, flags);
	err = errno;
	after = now_ns();
	if (u.good || u.kind == PK_RO || u.kind == PK_STRADDLE_RO) {
		inv = tc_invalid_common(&c, flags, dirty);
		if (!inv && u.good)
			inv = tc_invalid_begin(&c, before, after);
		if (!inv && !u.good)
			inv = "struct not writable";
	} else {
		inv = "unreadable struct";
	}
	desc[0] = 0;
	if (judge(OP_BEGIN, ret, err, ok_begin, inv, &why)) {
		fmt_tc(desc, sizeof(desc), "smart_constraint_begin", &u, &c, before, flags);
		report(w, desc, &why);
	}
	if (!ret && u.good) {
		const struct smart_constraint *o = u.p;

		if (o->status != (o->available >= c.estimate ? SMART_STATUS_FEASIBLE :
							       SMART_STATUS_INFEASIBLE)) {
			fmt_tc(desc, sizeof(desc), "smart_constraint_begin", &u, &c, before, flags);
			fail("smart_constraint_begin: status disagrees with available",
			     "[%s] %s = 0: status %u with available %llu, estimate %llu",
			     w->who, desc, o->status, (unsigned long long)o->available,
			     (unsigned long long)c.estimate);
		}
	}
	if (probe && ret && err == EFAULT) {
		e = tc_end_good();
		if (e != ENOENT) {
			fmt_tc(desc, sizeof(desc), "smart_constraint_begin", &u, &c, before, flags);
			if (!e)
				fail("smart_constraint_begin: EFAULT installed a constraint (issue 10)",
				     "[%s] %s = -1 EFAULT, yet a constraint was installed (the next "
				     "end succeeded; EFAULT must change nothing, issue 10)",
				     w->who, desc);
			else
				fail("smart_constraint_end after a failed begin",
				     "[%s] smart_constraint_end after %s = -1 %s", w->who, desc,
				     ename(e));
		}
	}
	/* an old kernel accepts estimates that make this thread a monopoly */
	if (!ret && inv)
		tc_end_good();
}

/*
 * After an end that failed with EFAULT found nothing left to end: was it
 * that end, or did another caller take the thread out of SMART (which ends
 * its constraint) in between?  Try twice more; true if it happened again.
 */
static bool end_efault_again(struct worker *w, const struct smart_constraint *tmpl)
{
	struct smart_constraint in;
	struct uptr u;
	int i, err;

	for (i = 0; i < 2; i++) {
		smart_tc_init(&in, 0, now_ns() + 10 * SEC, range(w, US, MS), 0, 0);
		if (syscall(__NR_smart_constraint_begin, &in, 0))
			return false;
		place(w, &u, PK_STRADDLE_RO, tmpl, sizeof(*tmpl), sizeof(*tmpl));
		if (!syscall(__NR_smart_constraint_end, u.p, 0))
			return false;
		err = errno;
		if (err != EFAULT || !tc_end_good())
			return false;
	}
	return true;
}

static void op_end(struct worker *w)
{
	unsigned int flags = chance(w, 94) ? 0 : (unsigned int)pick_u64(w);
	char desc[MSG_LEN];
	struct verdict why;
	struct smart_constraint c, in;
	const char *inv = NULL;
	long long now = now_ns();
	bool dirty, probe = false;
	struct uptr u;
	long ret;
	int err, e;

	gen_constraint(w, &c, now);
	c.size = pick_size(w, &dirty);
	place(w, &u, pick_kind(w), &c, sizeof(c), c.size);
	dirty = dirty && dirty_tail(w, &u, c.size, sizeof(struct smart_constraint));
	/*
	 * An end whose struct ends in a read-only page must fail with EFAULT
	 * and leave the constraint active (issue 10): begin one first.
	 */
	if (u.kind == PK_STRADDLE_RO && !flags && c.size == sizeof(c) && !dirty &&
	    !(c.flags & ~SMART_CONSTRAINT_ALL) && !c.__reserved) {
		smart_tc_init(&in, 0, now + 10 * SEC, range(w, US, MS), 0, 0);
		probe = !syscall(__NR_smart_constraint_begin, &in, 0);
	}
	ret = syscall(__NR_smart_constraint_end, u.p, flags);
	err = errno;
	if (u.good || u.kind == PK_RO || u.kind == PK_STRADDLE_RO) {
		inv = tc_invalid_common(&c, flags, dirty);
		if (!inv && !u.good)
			inv = "struct not writable";
	} else {
		inv = "unreadable struct";
	}
	if (judge(OP_END, ret, err, ok_end, inv, &why)) {
		fmt_tc(desc, sizeof(desc), "smart_constraint_end", &u, &c, now, flags);
		report(w, desc, &why);
	}
	if (!ret && u.good) {
		const struct smart_constraint *o = u.p;

		if (o->status != SMART_STATUS_MET && o->status != SMART_STATUS_MISSED) {
			fmt_tc(desc, sizeof(desc), "smart_constraint_end", &u, &c, now, flags);
			fail("smart_constraint_end: bad status",
			     "[%s] %s = 0: status %u is neither MET nor MISSED", w->who, desc,
			     o->status);
		}
	}
	if (!probe)
		return;
	e = ret ? tc_end_good() : 0;
	if (ret && err == EFAULT && e && end_efault_again(w, &c)) {
		fmt_tc(desc, sizeof(desc), "smart_constraint_end", &u, &c, now, flags);
		fail("smart_constraint_end: EFAULT ended the constraint (issue 10)",
		     "[%s] %s = -1 EFAULT, yet it ended the active constraint (the next end: "
		     "%s; twice more alike; EFAULT must change nothing, issue 10)", w->who, desc,
		     ename(e));
	}
}

static void op_sched_setattr(struct worker *w)
{
	static const int bad_policies[] = { 4, 7, 9, 100, -1, INT_MAX, INT_MIN, 0x40000008 };
	static const unsigned int sizes[] = { 0, 1, 47, 48, 56, 64, 128, PG, PG + 1 };
	unsigned int flags = chance(w, 95) ? 0 : (unsigned int)pick_u64(w);
	unsigned long long r = below(w, 100);
	char desc[MSG_LEN];
	struct verdict why;
	const char *inv = NULL;
	struct sched_attr a;
	struct target t;
	struct uptr u;
	bool rt;
	long ret;
	int err;

	pick_target(w, &t, true);
	memset(&a, 0, sizeof(a));
	a.sched_policy = r < 60 ? SCHED_SMART : r < 70 ? SCHED_OTHER : r < 75 ? SCHED_BATCH :
			 r < 80 ? SCHED_IDLE : r < 84 ? SCHED_FIFO : r < 86 ? SCHED_RR :
			 (unsigned int)bad_policies[below(w, ARRAY_SIZE(bad_policies))];
	rt = a.sched_policy == SCHED_FIFO || a.sched_policy == SCHED_RR;
	if (chance(w, 70))
		a.sched_flags = 0;
	else if (chance(w, 50))
		a.sched_flags = SCHED_FLAG_RESET_ON_FORK;
	else
		a.sched_flags = (chance(w, 50) ? 0x7fULL : rnd(w)) & rnd(w) & ~0x6ULL;
	a.sched_nice = chance(w, 80) ? (int)range(w, -20, 19) : pick_s32(w);
	if (rt)
		a.sched_priority = chance(w, 90) ? range(w, 1, 10) : (unsigned int)pick_s32(w);
	else
		a.sched_priority = chance(w, 85) ? 0 : (unsigned int)pick_s32(w);
	/* no real-time caller above the controller (priority 20) */
	if (rt && a.sched_priority > 10 && a.sched_priority < 100)
		a.sched_priority = 10;
	a.sched_runtime = pick_u64(w);
	a.sched_deadline = pick_u64(w);
	a.sched_period = pick_u64(w);
	a.sched_util_min = (unsigned int)rnd(w);
	a.sched_util_max = (unsigned int)rnd(w);
	a.size = chance(w, 80) ? sizeof(a) : sizes[below(w, ARRAY_SIZE(sizes))];
	place(w, &u, chance(w, 90) ? PK_GOOD : pick_kind(w), &a, sizeof(a), a.size);
	if (u.good && a.size > sizeof(a) && a.size <= PG && chance(w, 50))
		dirty_tail(w, &u, a.size, 64);
	if (u.good && !flags && (!a.size || a.size >= 48) && a.size <= PG &&
	    a.sched_policy == SCHED_SMART && a.sched_priority &&
	    !(a.sched_flags & ~(unsigned long long)SCHED_FLAG_RESET_ON_FORK))
		inv = "SCHED_SMART with sched_priority not 0";
	ret = syscall(__NR_sched_setattr, t.pid, u.p, flags);
	err = errno;
	if (judge(OP_SCHED_SETATTR, ret, err, ok_sched_setattr, inv, &why)) {
		snprintf(desc, sizeof(desc), "sched_setattr(pid %d [%s], %s {size %u policy %d "
			 "flags %#llx nice %d prio %u}, flags %#x)", t.pid, t.name, u.label,
			 a.size, (int)a.sched_policy, (unsigned long long)a.sched_flags,
			 a.sched_nice, a.sched_priority, flags);
		report(w, desc, &why);
	}
}

static void op_nice(struct worker *w)
{
	unsigned long long r = below(w, 100);
	char desc[MSG_LEN];
	struct verdict why;
	const char *inv = NULL, *name;
	int which = PRIO_PROCESS, who, prio;
	struct target t;
	long ret;
	int err;

	prio = chance(w, 80) ? (int)range(w, -20, 19) : pick_s32(w);
	if (r < 70) {
		pick_target(w, &t, true);
		who = t.pid;
		name = t.name;
		if (t.invalid)
			inv = "no such process";
	} else if (r < 85) {
		/* nice(inc) is getpriority + setpriority of the calling thread */
		prio = getpriority(PRIO_PROCESS, 0) + (int)range(w, -5, 5);
		who = 0;
		name = "nice(): self";
	} else if (r < 92) {
		which = PRIO_PGRP;
		who = chance(w, 70) ? S->user_pid : (chance(w, 50) ? -1 : PID_MAX_LIMIT + 1);
		name = "process group of the other user's process";
	} else if (r < 97) {
		which = PRIO_USER;
		who = w->root ? (chance(w, 50) ? NOBODY_ID : 54321) :
				(chance(w, 50) ? 0 : NOBODY_ID);
		name = "user";
	} else {
		which = chance(w, 50) ? 3 : -1;
		who = 0;
		name = "bad which";
		inv = "which not PRIO_PROCESS/PGRP/USER";
	}
	ret = setpriority(which, who, prio);
	err = errno;
	if (judge(OP_NICE, ret, err, ok_nice, inv, &why)) {
		snprintf(desc, sizeof(desc), "setpriority(%d, %d [%s], %d)",
			 which, who, name, prio);
		report(w, desc, &why);
	}
}

static void op_affinity(struct worker *w)
{
	static const unsigned int sizes[] = { 0, 1, 4, 7, 16, 128, PG, 8 * PG };
	unsigned int size = chance(w, 75) ? 8 : sizes[below(w, ARRAY_SIZE(sizes))];
	enum ptr_kind k = chance(w, 90) ? PK_GOOD : pick_kind(w);
	unsigned long long r = below(w, 100), mask[8];
	char desc[MSG_LEN];
	struct verdict why;
	const char *inv = NULL, *mname;
	struct target t;
	struct uptr u;
	bool get;
	long ret;
	int err, i;

	pick_target(w, &t, true);
	memset(mask, 0, sizeof(mask));
	get = chance(w, 15);
	if (r < 30) {
		mask[0] = ~0ULL;
		mname = "all";
	} else if (r < 50) {
		mask[0] = 1;
		mname = "cpu0";
	} else if (r < 70) {
		mask[0] = 2;
		mname = "cpu1";
	} else if (r < 78) {
		/* NR_CPUS is 8 in these kernels: no CPU of the mask exists */
		mask[0] = 0xf0;
		mname = "cpus 4-7";
		if (k == PK_GOOD && get_nprocs_conf() <= 4)
			inv = "no online CPU in the mask";
	} else if (r < 84) {
		mname = "empty";
		if (k == PK_GOOD)
			inv = "empty mask";
	} else {
		for (i = 0; i < 8; i++)
			mask[i] = rnd(w);
		mname = "random";
	}
	place(w, &u, k, mask, sizeof(mask), 0);
	if (get) {
		/* size must cover nr_cpu_ids and be a multiple of sizeof(long) */
		ret = syscall(__NR_sched_getaffinity, t.pid, size, u.p);
		inv = t.invalid ? "no such thread" : NULL;
	} else {
		if (!inv && t.invalid && u.good)
			inv = "no such thread";
		ret = syscall(__NR_sched_setaffinity, t.pid, size, u.p);
	}
	err = errno;
	if (judge(OP_AFFINITY, ret, err, ok_affinity, inv, &why)) {
		if (get)
			snprintf(desc, sizeof(desc), "sched_getaffinity(pid %d [%s], size %u, %s)",
				 t.pid, t.name, size, u.label);
		else
			snprintf(desc, sizeof(desc), "sched_setaffinity(pid %d [%s], size %u, "
				 "%s {%s %#llx})", t.pid, t.name, size, u.label, mname, mask[0]);
		report(w, desc, &why);
	}
}

static int sysctl_path(int i, char *buf, size_t len)
{
	return snprintf(buf, len, SMART_SYSCTL_DIR "%s", sysctl_tab[i].name);
}

static void op_sysctl(struct worker *w)
{
	static const char *const junk[] = {
		"", "-1", "abc", "1e3", " 5000000\n", "10000000 20000000", "0x10",
		"18446744073709551615", "18446744073709551616", "99999999999999999999999",
		"-0", "+7", "\n", "1000000\n2", "5000000,",
	};
	static const long long d[] = { -1, 0, 1 };
	unsigned long long r = below(w, 100), v = 0;
	char path[128], val[64], desc[MSG_LEN];
	struct verdict why;
	int i = below(w, NSYSCTL), fd;
	const char *inv = NULL;
	long ret;
	int err;

	sysctl_path(i, path, sizeof(path));
	if (r < 40) {
		v = range(w, sysctl_tab[i].min, sysctl_tab[i].max);
		snprintf(val, sizeof(val), "%llu", v);
	} else if (r < 80) {
		if (r < 65)
			v = (chance(w, 50) ? sysctl_tab[i].min : sysctl_tab[i].max) +
			    d[below(w, 3)];
		else
			v = pick_u64(w);
		snprintf(val, sizeof(val), "%llu", v);
		if (v < sysctl_tab[i].min || v > sysctl_tab[i].max)
			inv = "value out of range";
	} else if (r < 90 && sysctl_have[i]) {
		snprintf(val, sizeof(val), "%llu", sysctl_saved[i]);	/* back to sane */
	} else {
		snprintf(val, sizeof(val), "%s", junk[below(w, ARRAY_SIZE(junk))]);
	}
	fd = open(path, O_WRONLY);
	if (fd < 0) {
		err = errno;
		if (judge(OP_SYSCTL, -1, err, w->root ? ok_sysctl : ok_sysctl_nobody, NULL,
			  &why)) {
			snprintf(desc, sizeof(desc), "open(%s, O_WRONLY) as uid %d", path,
				 geteuid());
			report(w, desc, &why);
		}
		return;
	}
	ret = write(fd, val, strlen(val));
	err = errno;
	close(fd);
	snprintf(desc, sizeof(desc), "write(%s, \"%s\") as uid %d", path, val, geteuid());
	if (judge(OP_SYSCTL, ret, err, w->root ? ok_sysctl : ok_sysctl_nobody,
		  w->root ? inv : "not root", &why))
		report(w, desc, &why);
	if (read_u64(path, &v) == 0 && (v < sysctl_tab[i].min || v > sysctl_tab[i].max))
		fail("sysctl: value out of range",
		     "[%s] after %s the sysctl reads %llu, outside %llu..%llu", w->who, desc,
		     v, sysctl_tab[i].min, sysctl_tab[i].max);
}

static void read_file_all(struct worker *w, const char *path)
{
	char buf[4096], desc[MSG_LEN];
	struct verdict why;
	ssize_t n;
	int fd, err;

	fd = open(path, O_RDONLY);
	if (fd < 0) {
		err = errno;
		if (judge(OP_READ, -1, err, ok_proc, NULL, &why)) {
			snprintf(desc, sizeof(desc), "open(%s)", path);
			report(w, desc, &why);
		}
		return;
	}
	do {
		n = read(fd, buf, sizeof(buf));
	} while (n > 0);
	err = errno;
	close(fd);
	if (judge(OP_READ, n, err, ok_proc, NULL, &why)) {
		snprintf(desc, sizeof(desc), "read(%s)", path);
		report(w, desc, &why);
	}
}

static void op_read(struct worker *w)
{
	static const unsigned int sizes[] = { 0, 1, 47, 48, 56, 64, PG, PG + 1 };
	unsigned long long r = below(w, 100);
	char desc[MSG_LEN], path[64];
	struct verdict why;
	unsigned char buf[64];
	struct target t;
	struct uptr u;
	long ret;
	int err;

	pick_target(w, &t, false);
	if (r < 40) {
		unsigned int size = chance(w, 70) ? 56 : sizes[below(w, ARRAY_SIZE(sizes))];
		unsigned int flags = chance(w, 92) ? 0 : (unsigned int)pick_u64(w);

		memset(buf, 0, sizeof(buf));
		place(w, &u, chance(w, 85) ? PK_GOOD : pick_kind(w), buf, sizeof(buf), 0);
		ret = syscall(__NR_sched_getattr, t.pid, u.p, size, flags);
		err = errno;
		if (judge(OP_READ, ret, err, ok_sched_getattr, NULL, &why)) {
			snprintf(desc, sizeof(desc), "sched_getattr(pid %d [%s], %s, size %u, "
				 "flags %#x)", t.pid, t.name, u.label, size, flags);
			report(w, desc, &why);
		}
	} else if (r < 60) {
		ret = sched_getscheduler(t.pid);
		err = errno;
		if (judge(OP_READ, ret, err, ok_sched_getattr, t.invalid ? "no such thread" : NULL,
			  &why)) {
			snprintf(desc, sizeof(desc), "sched_getscheduler(%d [%s])", t.pid, t.name);
			report(w, desc, &why);
		}
	} else if (r < 99 || !w->root || w->in_ns) {
		if (t.pid <= 0)
			snprintf(path, sizeof(path), "/proc/thread-self/sched");
		else
			snprintf(path, sizeof(path), "/proc/%d/sched", t.pid);
		read_file_all(w, path);
	} else {
		read_file_all(w, QUEUES);
	}
}

static void do_op(struct worker *w)
{
	int total = 0, i;
	long long r;

	for (i = 0; i < OP_NR; i++)
		total += op_weight[i];
	r = below(w, total);
	for (i = 0; i < OP_NR; i++) {
		r -= op_weight[i];
		if (r < 0)
			break;
	}
	switch (i) {
	case OP_SETATTR:
		op_setattr(w);
		break;
	case OP_GETATTR:
		op_getattr(w);
		break;
	case OP_BEGIN:
		op_begin(w);
		break;
	case OP_END:
		op_end(w);
		break;
	case OP_SCHED_SETATTR:
		op_sched_setattr(w);
		break;
	case OP_NICE:
		op_nice(w);
		break;
	case OP_AFFINITY:
		op_affinity(w);
		break;
	case OP_SYSCTL:
		op_sysctl(w);
		break;
	default:
		op_read(w);
		break;
	}
}

static void fuzz_loop(struct worker *w, long max)
{
	while (max-- && take_ticket())
		do_op(w);
}

/* ------------------------------------------------------------------ */
/* Victims, churn, namespaces                                          */

static void wait_go(void)
{
	while (!__atomic_load_n(&S->go, __ATOMIC_ACQUIRE) &&
	       !__atomic_load_n(&S->stop, __ATOMIC_RELAXED))
		usleep(1000);
}

/* spin and sleep in turns, sometimes under a constraint, until the stop */
static void victim_loop(struct worker *w, bool constraints)
{
	struct smart_constraint c;

	while (!stopping()) {
		if (constraints && chance(w, 30)) {
			smart_tc_init(&c, chance(w, 50) ? SMART_CONSTRAINT_NOTIFY : 0,
				      now_ns() + range(w, 100 * US, 20 * MS),
				      range(w, US, 5 * MS), 0, rnd(w));
			syscall(__NR_smart_constraint_begin, &c, 0);
		}
		spin_cpu_ns(range(w, 50 * US, 500 * US));
		sleep_ns(range(w, 500 * US, 5 * MS));
	}
}

static void *victim_thread(void *arg)
{
	static int streams;
	pid_t *slot = arg;
	struct worker w;

	worker_init(&w, "victim", 100 + __atomic_fetch_add(&streams, 1, __ATOMIC_RELAXED),
		    false);
	__atomic_store_n(slot, w.tid, __ATOMIC_RELEASE);
	wait_go();
	victim_loop(&w, true);
	return NULL;
}

struct fuzz_arg {
	const char *who;
	int stream;
	pid_t *slot;
};

static void *fuzz_thread(void *arg)
{
	struct fuzz_arg *a = arg;
	struct worker w;

	worker_init(&w, a->who, a->stream, true);
	__atomic_store_n(a->slot, w.tid, __ATOMIC_RELEASE);
	wait_go();
	fuzz_loop(&w, -1);
	worker_fini(&w);
	return NULL;
}

/*
 * A short-lived thread: enters SMART with a handled notify signal, begins
 * a NOTIFY constraint whose deadline is microseconds to milliseconds
 * ahead, and exits around the time its timer fires.
 */
struct churn_arg {
	unsigned long long stream;
	int slot;
};

static void *churn_thread_fn(void *arg)
{
	struct churn_arg *ca = arg;
	struct smart_constraint c;
	struct smart_attr a;
	struct worker w;

	worker_init(&w, "exiting thread", ca->stream, false);
	if (ca->slot >= 0)
		__atomic_store_n(&S->churn_tid[ca->slot], w.tid, __ATOMIC_RELEASE);
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.mask = SMART_ATTR_SIGNAL | (chance(&w, 50) ? SMART_ATTR_PRIORITY | SMART_ATTR_SHARE : 0);
	a.notify_signal = pick_notify_sig(&w);
	a.priority = range(&w, -4, 4);
	a.share = range(&w, 100, 4096);
	syscall(__NR_smart_setattr, 0, &a, 0);
	smart_tc_init(&c, SMART_CONSTRAINT_NOTIFY, now_ns() + range(&w, 5 * US, 3 * MS),
		      range(&w, US, 5 * MS), chance(&w, 20) ? 10 * MS : 0, rnd(&w));
	syscall(__NR_smart_constraint_begin, &c, 0);
	if (chance(&w, 60))
		spin_cpu_ns(range(&w, 0, 3 * MS));
	else
		sleep_ns(range(&w, 0, 3 * MS));
	if (chance(&w, 20))
		syscall(__NR_smart_constraint_end, &c, 0);
	return NULL;	/* exits with the timer armed or firing */
}

static void reap_status(const char *what, pid_t pid, int st, bool exec_probe)
{
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return;
	if (exec_probe && WIFSIGNALED(st))
		fail("execve: notification reached the new program (issue 10)",
		     "exec probe %d: killed by signal %d after execve: a notification "
		     "asked for before the exec reached the new program (issue 10)",
		     pid, WTERMSIG(st));
	else if (exec_probe && WIFEXITED(st) && WEXITSTATUS(st) == 2)
		fail("execve: constraint survived (issue 10)",
		     "exec probe %d: smart_constraint_end in the new program succeeded: "
		     "the constraint survived execve (issue 10)", pid);
	else if (WIFSIGNALED(st))
		fail("child killed by a signal", "%s %d: killed by signal %d", what, pid,
		     WTERMSIG(st));
	else
		fail("child exit status", "%s %d: exit status %d", what, pid, WEXITSTATUS(st));
}

/*
 * A short-lived process (root or uid 65534) with constraints in two
 * threads that exits while they are active; or, for @exec_probe, one
 * that execs with a notification about to be sent (or already pending).
 */
static void churn_process(struct worker *w, bool exec_probe)
{
	unsigned long long stream = rnd(w);
	pid_t pid;
	int st;

	pid = fork();
	if (pid < 0)
		return;
	if (!pid) {
		struct churn_arg ca = { .stream = stream + 1, .slot = -1 };
		struct smart_constraint c;
		struct worker cw;
		pthread_t th;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		worker_init(&cw, "exiting process", stream, false);
		if (exec_probe) {
			/*
			 * SIGUSR1 kills the new program if it gets there: a
			 * notification left pending (blocked over the exec),
			 * one not sent yet (the deadline passes after it), or
			 * the constraint itself (the new program ends it).
			 */
			static char *const mode[] = { "wait", "wait", "end" };
			int m = below(&cw, 3);
			char *const argv[] = { "smart_fuzz_test", "--exec-probe", mode[m], NULL };
			sigset_t usr1;

			smart_set_signal(SIGUSR1);
			if (m == 0) {
				sigemptyset(&usr1);
				sigaddset(&usr1, SIGUSR1);
				sigprocmask(SIG_BLOCK, &usr1, NULL);
				smart_tc_init(&c, SMART_CONSTRAINT_NOTIFY,
					      now_ns() + range(&cw, 200 * US, 2 * MS),
					      50 * MS, 0, 42);
			} else {
				smart_tc_init(&c, SMART_CONSTRAINT_NOTIFY,
					      now_ns() +
					      (m == 1 ? range(&cw, 20 * MS, 40 * MS) : 10 * SEC),
					      MS, 0, 42);
			}
			syscall(__NR_smart_constraint_begin, &c, 0);
			if (m == 0)
				spin_cpu_ns(range(&cw, 0, MS));
			execv("/proc/self/exe", argv);
			_exit(3);
		}
		if (chance(&cw, 50) && drop_to_nobody())
			_exit(4);
		if (chance(&cw, 70) && !pthread_create(&th, NULL, churn_thread_fn, &ca))
			pthread_detach(th);
		smart_set(0, SMART_ATTR_PRIORITY, (int)range(&cw, -2, 2), 0);
		smart_tc_init(&c, SMART_CONSTRAINT_NOTIFY, now_ns() + range(&cw, 5 * US, 2 * MS),
			      range(&cw, US, 3 * MS), 0, 7);
		syscall(__NR_smart_constraint_begin, &c, 0);
		spin_cpu_ns(range(&cw, 0, 2 * MS));
		_exit(0);	/* exit_group with constraints and timers live */
	}
	__atomic_store_n(&S->churn_pid, pid, __ATOMIC_RELEASE);
	__atomic_fetch_add(exec_probe ? &S->execs : &S->procs, 1, __ATOMIC_RELAXED);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	__atomic_store_n(&S->churn_pid, 0, __ATOMIC_RELEASE);
	reap_status(exec_probe ? "exec probe" : "churn process", pid, st, exec_probe);
}

/* a new zombie to aim at; the previous one becomes the exited pid */
static void churn_zombie(void)
{
	pid_t old = S->zombie_pid, pid;
	int st;

	pid = fork();
	if (!pid)
		_exit(0);
	if (pid < 0)
		return;
	__atomic_store_n(&S->zombie_pid, pid, __ATOMIC_RELEASE);
	__atomic_fetch_add(&S->zombies, 1, __ATOMIC_RELAXED);
	if (old > 0) {
		while (waitpid(old, &st, 0) < 0 && errno == EINTR)
			;
		__atomic_store_n(&S->dead_pid, old, __ATOMIC_RELEASE);
	}
}

/* pid 1 of a new pid namespace: fuzz from inside, then die with a constraint */
static int ns_init(unsigned long long stream)
{
	struct smart_constraint c;
	struct worker w;
	pid_t child;

	child = fork();
	if (!child) {
		struct worker cw;

		worker_init(&cw, "pid ns child", stream + 1, false);
		victim_loop(&cw, true);
		_exit(0);
	}
	worker_init(&w, "pid ns init", stream, true);
	w.in_ns = true;
	w.ns_child = child > 0 ? child : 2;
	fuzz_loop(&w, NS_CALLS);
	__atomic_fetch_add(&S->ns_calls, NS_CALLS, __ATOMIC_RELAXED);
	smart_tc_init(&c, SMART_CONSTRAINT_NOTIFY, now_ns() + range(&w, 5 * US, MS), MS, 0, 1);
	syscall(__NR_smart_constraint_begin, &c, 0);
	return 0;	/* the namespace dies: its child is killed */
}

static void churn_ns(struct worker *w)
{
	unsigned long long stream = rnd(w);
	pid_t helper, init = 0;
	int p[2], st;

	if (S->ns_unsupported || pipe(p))
		return;
	helper = fork();
	if (helper < 0) {
		close(p[0]);
		close(p[1]);
		return;
	}
	if (!helper) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(p[0]);
		if (unshare(CLONE_NEWPID)) {
			S->ns_unsupported = true;
			_exit(0);
		}
		init = fork();
		if (!init) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			_exit(ns_init(stream));
		}
		if (init > 0 && write(p[1], &init, sizeof(init)) != sizeof(init))
			_exit(5);
		while (init > 0 && waitpid(init, &st, 0) < 0 && errno == EINTR)
			;
		if (init > 0 && !(WIFEXITED(st) && !WEXITSTATUS(st)))
			_exit(WIFSIGNALED(st) ? 100 + WTERMSIG(st) : WEXITSTATUS(st));
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], &init, sizeof(init)) == sizeof(init)) {
		__atomic_store_n(&S->ns_pid, init, __ATOMIC_RELEASE);
		__atomic_fetch_add(&S->ns_runs, 1, __ATOMIC_RELAXED);
	}
	close(p[0]);
	while (waitpid(helper, &st, 0) < 0 && errno == EINTR)
		;
	__atomic_store_n(&S->ns_pid, 0, __ATOMIC_RELEASE);
	reap_status("pid namespace helper (100 + N: its init died of signal N)", helper, st,
		    false);
}

static void *churn_main(void *arg)
{
	struct churn_arg ca[NCHURN];
	bool live[NCHURN] = { false };
	pthread_t th[NCHURN];
	struct worker w;
	int i;

	(void)arg;
	worker_init(&w, "churn", 200, false);
	/* not starved by the callers; what it creates starts as SCHED_OTHER */
	sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK,
			   &(struct sched_param){ .sched_priority = 15 });
	churn_zombie();
	churn_zombie();
	wait_go();
	while (take_ticket()) {
		unsigned long long r = below(&w, 1000);

		__atomic_fetch_add(&S->n[OP_CHURN], 1, __ATOMIC_RELAXED);
		if (r < 820) {
			i = below(&w, NCHURN);
			if (live[i]) {
				pthread_join(th[i], NULL);
				__atomic_store_n(&S->churn_tid[i], 0, __ATOMIC_RELEASE);
				live[i] = false;
			}
			ca[i] = (struct churn_arg){ .stream = rnd(&w), .slot = i };
			if (!pthread_create(&th[i], NULL, churn_thread_fn, &ca[i])) {
				live[i] = true;
				__atomic_fetch_add(&S->threads, 1, __ATOMIC_RELAXED);
			}
		} else if (r < 940) {
			churn_process(&w, false);
		} else if (r < 950) {
			churn_process(&w, true);
		} else if (r < 980) {
			churn_zombie();
		} else {
			churn_ns(&w);
		}
		usleep(range(&w, 0, 2000));
	}
	for (i = 0; i < NCHURN; i++)
		if (live[i])
			pthread_join(th[i], NULL);
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Processes                                                           */

static pid_t spawn(void (*fn)(void))
{
	pid_t parent = getpid(), pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		fn();
		_exit(0);
	}
	return pid;
}

/* a root process that never begins a constraint: any notify signal is safe */
static void inert_root(void)
{
	while (!__atomic_load_n(&S->stop, __ATOMIC_RELAXED))
		usleep(20000);
}

/* another user's process: spins and sleeps, never begins a constraint */
static void other_user(void)
{
	struct worker w;

	setpgid(0, 0);
	if (drop_to_nobody())
		_exit(2);
	worker_init(&w, "other user", 300, false);
	wait_go();
	victim_loop(&w, false);
}

/* another root process: two threads with constraints */
static void other_process(void)
{
	struct worker w;
	pthread_t th;

	if (pthread_create(&th, NULL, victim_thread, &S->other_tid))
		_exit(2);
	worker_init(&w, "other process", 301, false);
	wait_go();
	victim_loop(&w, true);
	pthread_join(th, NULL);
}

/* uid 65534: two fuzzing threads and a victim */
static void nobody_process(void)
{
	static struct fuzz_arg fa[NNOBODY];
	pthread_t th[NNOBODY], vt;
	int i;

	if (drop_to_nobody())
		_exit(2);
	if (pthread_create(&vt, NULL, victim_thread, &S->nobody_victim))
		_exit(3);
	for (i = 0; i < NNOBODY; i++) {
		fa[i] = (struct fuzz_arg){ "uid 65534 thread", 10 + i, &S->nobody_tid[i] };
		if (pthread_create(&th[i], NULL, fuzz_thread, &fa[i]))
			_exit(3);
	}
	for (i = 0; i < NNOBODY; i++)
		pthread_join(th[i], NULL);
	pthread_join(vt, NULL);
}

/* ------------------------------------------------------------------ */
/* The tests                                                           */

static bool cpu1_online(void)
{
	unsigned long long v = 0;

	return read_u64(CPU1_ONLINE, &v) == 0 && v == 1;
}

static bool set_cpu1(bool on)
{
	int i;

	for (i = 0; i < 50; i++) {
		int e = write_str(CPU1_ONLINE, on ? "1\n" : "0\n");

		if (!e || (on && e == -EINVAL && cpu1_online()))
			return true;
		if (e != -EBUSY && e != -EAGAIN)
			return false;
		usleep(20000);
	}
	return false;
}

static void restore_sysctls(void)
{
	char path[128], val[32];
	int i;

	for (i = 0; i < NSYSCTL; i++) {
		if (!sysctl_have[i])
			continue;
		sysctl_path(i, path, sizeof(path));
		snprintf(val, sizeof(val), "%llu", sysctl_saved[i]);
		write_str(path, val);
	}
}

static void log_summary(struct __test_metadata *_metadata, double secs)
{
	char line[512];
	int i, j, n;

	TH_LOG("%ld calls in %.1f s (%.0f/s), seed %llu, mode %s, %d CPUs online at start",
	       S->calls < S->ncalls ? S->calls : S->ncalls, secs,
	       (S->calls < S->ncalls ? S->calls : S->ncalls) / (secs > 0 ? secs : 1),
	       S->seed, smart_mode_name(), online_cpus());
	for (i = 0; i < OP_NR; i++) {
		if (!S->n[i])
			continue;
		n = snprintf(line, sizeof(line), "%-24s %8ld calls %8ld ok", op_name[i], S->n[i],
			     S->ok[i]);
		for (j = 0; j < NHIST && n < (int)sizeof(line); j++)
			if (S->err[i][j])
				n += snprintf(line + n, sizeof(line) - n, " %s %ld",
					      j < NHIST - 1 ? ename(hist_errno[j]) : "other",
					      S->err[i][j]);
		TH_LOG("%s", line);
	}
	TH_LOG("churn: %ld exiting threads, %ld processes, %ld exec probes, %ld zombies, "
	       "%ld pid namespaces (%s, %ld calls inside)", S->threads, S->procs, S->execs,
	       S->zombies, S->ns_runs, S->ns_unsupported ? "not in this kernel" : "ok",
	       S->ns_calls);
	TH_LOG("CPU 1 hotplug: %ld off/on cycles, %ld refused; notifications received %ld, "
	       "other signals %ld", S->hotplugs, S->hotplug_refused, S->notes, S->other_signals);
}

TEST(fuzz)
{
	static struct fuzz_arg fa[NROOT];
	struct sched_param sp = { .sched_priority = 20 };
	pthread_t th[NROOT], vt, ct;
	pid_t kids[4];
	long long t_end, next_report;
	long cycles, done_cycles = 0, step;
	double secs;
	int i, st;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_NE(NULL, S);

	S->ncalls = fuzz_calls;
	S->seed = fuzz_seed;
	S->pid_max = 0;
	{
		unsigned long long v;

		if (!read_u64("/proc/sys/kernel/pid_max", &v))
			S->pid_max = (pid_t)v;
	}
	S->cpu1 = fuzz_hotplug && cpu1_was_online && online_cpus() >= 2;
	TH_LOG("seed %llu (SMART_FUZZ_SEED=%llu repeats it), %ld calls (SMART_FUZZ_CALLS), "
	       "time cap %ld s, mode %s, %d CPUs, CPU 1 hotplug %s", fuzz_seed, fuzz_seed,
	       fuzz_calls, fuzz_seconds, smart_mode_name(), online_cpus(),
	       S->cpu1 ? "on" : fuzz_hotplug ? "off (no CPU 1)" : "off (SMART_FUZZ_HOTPLUG=0)");
	handle_all_signals();

	kids[0] = spawn(inert_root);
	S->inert_pid = kids[0];
	kids[1] = spawn(other_user);
	S->user_pid = kids[1];
	kids[2] = spawn(other_process);
	S->other_pid = kids[2];
	kids[3] = spawn(nobody_process);
	S->nobody_pid = kids[3];
	for (i = 0; i < 4; i++)
		ASSERT_GT(kids[i], 0);

	ASSERT_EQ(0, pthread_create(&vt, NULL, victim_thread, &S->root_victim));
	for (i = 0; i < NROOT; i++) {
		fa[i] = (struct fuzz_arg){ "root thread", i, &S->root_tid[i] };
		ASSERT_EQ(0, pthread_create(&th[i], NULL, fuzz_thread, &fa[i]));
	}
	ASSERT_EQ(0, pthread_create(&ct, NULL, churn_main, NULL));

	/* every target published before the first call */
	t_end = mono_ns() + 10 * SEC;
	while (mono_ns() < t_end &&
	       !(S->root_victim && S->root_tid[NROOT - 1] && S->nobody_victim &&
		 S->nobody_tid[NNOBODY - 1] && S->other_tid && S->zombie_pid && S->dead_pid))
		usleep(1000);
	EXPECT_NE(0, S->nobody_tid[NNOBODY - 1]);
	EXPECT_NE(0, S->other_tid);

	/* the controller wakes on time whatever the callers do to the classes */
	sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp);
	cycles = S->cpu1 ? fuzz_calls / CALLS_PER_HOTPLUG : 0;
	if (S->cpu1 && cycles < 2)
		cycles = 2;
	step = cycles ? fuzz_calls / (cycles + 1) : 0;
	S->t0 = mono_ns();
	t_end = S->t0 + fuzz_seconds * SEC;
	next_report = fuzz_calls / 10;
	__atomic_store_n(&S->go, 1, __ATOMIC_RELEASE);

	while (!stopping()) {
		long calls = __atomic_load_n(&S->calls, __ATOMIC_RELAXED);

		if (mono_ns() > t_end) {
			fail("time cap",
			     "time cap: %ld of %ld calls after %ld s (SMART_FUZZ_SECONDS)",
			     calls, fuzz_calls, fuzz_seconds);
			break;
		}
		if (calls >= next_report) {
			say("# fuzz: %ld/%ld calls, %.1f s, %ld failures", calls, fuzz_calls,
			    (mono_ns() - S->t0) / 1e9, S->fails);
			next_report += fuzz_calls / 10;
		}
		if (done_cycles < cycles && calls >= step * (done_cycles + 1)) {
			done_cycles++;
			if (set_cpu1(false)) {
				usleep(1000 + (done_cycles * 7919) % 50000);
				S->hotplugs++;
			} else {
				S->hotplug_refused++;
			}
			if (!set_cpu1(true))
				fail("hotplug", "CPU 1 did not come back online");
		}
		usleep(10000);
	}
	__atomic_store_n(&S->stop, 1, __ATOMIC_SEQ_CST);
	secs = (mono_ns() - S->t0) / 1e9;

	for (i = 0; i < NROOT; i++)
		pthread_join(th[i], NULL);
	pthread_join(vt, NULL);
	pthread_join(ct, NULL);
	t_end = mono_ns() + 30 * SEC;
	for (i = 0; i < 4; i++) {
		int r;

		while ((r = waitpid(kids[i], &st, WNOHANG)) == 0 && mono_ns() < t_end)
			usleep(10000);
		if (r == 0) {
			fail("worker did not stop",
			     "worker process %d did not stop within 30 s", kids[i]);
			kill(kids[i], SIGKILL);
			waitpid(kids[i], &st, 0);
		} else if (r == kids[i]) {
			reap_status("worker process", kids[i], st, false);
		}
	}
	if (S->zombie_pid > 0)
		waitpid(S->zombie_pid, NULL, 0);
	restore_sysctls();
	if (S->cpu1 && !cpu1_online() && !set_cpu1(true))
		fail("hotplug", "CPU 1 is offline at the end");

	log_summary(_metadata, secs);
	for (i = 0; i < MAX_CLASS && S->cls[i].state == 2; i++)
		TH_LOG("failure kind %d: %s: %ld times; first: %s", i + 1, S->cls[i].name,
		       S->cls[i].count, S->cls[i].first);
	if (S->unclassified)
		TH_LOG("%ld failures of further kinds", S->unclassified);
	EXPECT_GE(S->calls, S->ncalls) {
		TH_LOG("stopped after %ld of %ld calls", S->calls, S->ncalls);
	}
	EXPECT_EQ(0, S->fails) {
		TH_LOG("%ld failures (their kinds listed above); seed %llu", S->fails, S->seed);
	}
}

/* other processes of this binary than the harness and this test: leftovers */
static int leftovers(void)
{
	char path[64], comm[64];
	struct dirent *d;
	int n = 0, fd;
	DIR *dir;
	ssize_t len;

	dir = opendir("/proc");
	if (!dir)
		return 0;
	while ((d = readdir(dir))) {
		pid_t pid = atoi(d->d_name);

		if (pid <= 0 || pid == getpid() || pid == getppid())
			continue;
		snprintf(path, sizeof(path), "/proc/%d/comm", pid);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		len = read(fd, comm, sizeof(comm) - 1);
		close(fd);
		if (len <= 0)
			continue;
		comm[len] = 0;
		comm[strcspn(comm, "\n")] = 0;
		if (!strncmp(comm, "smart_fuzz_test", 15)) {
			fprintf(stderr, "# leftover process %d (%s)\n", pid, comm);
			kill(pid, SIGKILL);
			n++;
		}
	}
	closedir(dir);
	return n;
}

static void spin_forever(void *arg)
{
	(void)arg;
	for (;;)
		__asm__ __volatile__("" ::: "memory");
}

TEST(health)
{
	struct hog_set h;
	char path[128];
	int i, r;

	REQUIRE_SMART();
	REQUIRE_ROOT();

	for (i = 0; i < NSYSCTL; i++) {
		unsigned long long v;

		if (!sysctl_have[i])
			continue;
		sysctl_path(i, path, sizeof(path));
		EXPECT_EQ(0, read_u64(path, &v));
		EXPECT_EQ(sysctl_saved[i], v) {
			TH_LOG("%s: %llu after the fuzz, %llu before", path, v, sysctl_saved[i]);
		}
	}
	restore_sysctls();
	if (cpu1_was_online) {
		EXPECT_TRUE(cpu1_online()) {
			TH_LOG("CPU 1 was online before the fuzz and is offline now");
			set_cpu1(true);
		}
	}
	EXPECT_EQ(0, leftovers());

	/* a fair spinner and a SMART spinner each get CPU time */
	hogs_init(&h);
	ASSERT_GT(hog_spawn(&h, 0, spin_forever, NULL), 0);
	ASSERT_GT(hog_spawn(&h, 0, spin_forever, NULL), 0);
	r = smart_set(h.pid[1], SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, 0, 1024);
	EXPECT_EQ(0, r) {
		TH_LOG("smart_setattr(spinner): %s", strerror(-r));
	}
	hogs_go(&h);
	usleep(100000);
	hogs_measure(&h, SEC);
	for (i = 0; i < h.n; i++) {
		double share = (double)hog_delta(&h, i) / (h.t1 - h.t0);

		TH_LOG("%s spinner: %.0f%% of a CPU over %.1f s", i ? "SMART" : "fair",
		       100 * share, (h.t1 - h.t0) / 1e9);
		EXPECT_GT(share, 0.2) {
			TH_LOG("a spinning child gets less than 20%% of a CPU after the fuzz");
		}
	}
	hogs_kill(&h);
}

/*
 * The new program of an exec probe ("wait": unblock and wait for a
 * notification that must not come; "end": there must be no constraint).
 */
static int exec_probe(const char *mode)
{
	struct smart_constraint c;
	sigset_t none;
	int r;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (mode && !strcmp(mode, "end")) {
		smart_tc_init(&c, 0, 0, 0, 0, 0);
		r = smart_constraint_end(&c, 0) ? errno : 0;
		return r == 0 ? 2 : 0;
	}
	sleep_ns(80 * MS);	/* past the deadline: a late notification kills */
	return 0;
}

int main(int argc, char **argv)
{
	const char *e;
	char path[128];
	int i;

	if (argc > 1 && !strcmp(argv[1], "--exec-probe"))
		return exec_probe(argc > 2 ? argv[2] : NULL);

	e = getenv("SMART_FUZZ_CALLS");
	if (e && atol(e) > 0)
		fuzz_calls = atol(e);
	e = getenv("SMART_FUZZ_SEED");
	if (e && *e) {
		fuzz_seed = strtoull(e, NULL, 0);
	} else {
		unsigned long long x = mono_ns() ^ ((unsigned long long)getpid() << 32);

		fuzz_seed = splitmix(&x) % 1000000000000ULL;
	}
	fuzz_seconds = 60 + fuzz_calls / 1000;
	e = getenv("SMART_FUZZ_SECONDS");
	if (e && atol(e) > 0)
		fuzz_seconds = atol(e);
	_fuzz_object.timeout = fuzz_seconds + 120;
	e = getenv("SMART_FUZZ_HOTPLUG");
	if (e && !strcmp(e, "0"))
		fuzz_hotplug = false;

	for (i = 0; i < NSYSCTL; i++) {
		sysctl_path(i, path, sizeof(path));
		sysctl_have[i] = read_u64(path, &sysctl_saved[i]) == 0;
	}
	cpu1_was_online = cpu1_online();
	S = shared_alloc(sizeof(*S));
	return test_harness_run(argc, argv);
}
