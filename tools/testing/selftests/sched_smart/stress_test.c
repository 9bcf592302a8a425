// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART stress: for a while (default 30 s; -d SECONDS or
 * SMART_STRESS_SECONDS) run at once
 *
 *   forkers   processes forking short-lived children that do a little work,
 *             sometimes enter SCHED_SMART themselves and sometimes fork a
 *             grandchild; every child is reaped with its expected status
 *   victims   long-lived threads alternating spinning and sleeping
 *   flippers  threads hitting random live tasks (victims, forkers, storm
 *             children) with policy changes between SCHED_OTHER, BATCH,
 *             IDLE, FIFO(1) and SMART, random smart_setattr() values (valid
 *             and invalid), nice changes, affinity changes and getattr
 *
 * and assert: no task lost (all children reaped with the right status),
 * every syscall failing only with a documented errno for its arguments,
 * and every worker finishing after the stop.  The kernel log is scanned
 * for splats by the pipeline.
 *
 * Storm children are only targeted while they are alive or zombies: the
 * forker waits with WNOWAIT, retracts the pid and waits for flippers using
 * it to drop it before reaping, so no pid is reused under a flipper.
 */
#include <stdarg.h>
#include "../kselftest_harness.h"
#include "util.h"

#define MAX_FORKERS	8
#define MAX_VICTIMS	8
#define NFLIPPERS	2
#define NMSGS		16
#define GRACE_SEC	60

static int stress_secs = 30;

struct slot {
	int pid;	/* current storm child, 0 if none */
	int users;	/* flippers using pid */
};

struct stress {
	int stop_flip;	/* flippers stop first, so live targets stay alive */
	int stop;	/* then forkers and victims */
	int nforkers, nvictims;
	pid_t forker[MAX_FORKERS];
	int victim_tid[MAX_VICTIMS];
	struct slot slot[MAX_FORKERS];

	long forks, reaped_ok, grandchildren;
	long ops[6], op_ok[6], op_esrch[6], op_einval[6];
	long unexpected;
	int nmsg;
	char msg[NMSGS][200];
};

static struct stress *S;

static void report(const char *fmt, ...)
{
	int i = __atomic_fetch_add(&S->nmsg, 1, __ATOMIC_RELAXED);
	va_list ap;

	__atomic_fetch_add(&S->unexpected, 1, __ATOMIC_RELAXED);
	if (i >= NMSGS)
		return;
	va_start(ap, fmt);
	vsnprintf(S->msg[i], sizeof(S->msg[i]), fmt, ap);
	va_end(ap);
}

static bool stopping(void)
{
	return __atomic_load_n(&S->stop, __ATOMIC_RELAXED);
}

static inline unsigned int rnd(unsigned long long *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (unsigned int)(*s >> 11);
}

static unsigned long long seed(void)
{
	return (unsigned long long)mono_ns() * 2654435761ULL ^
	       ((unsigned long long)sys_gettid() << 32) ^ 1;
}

/* ------------------------------------------------------------------ */
/* Storm children                                                      */

static int storm_child(unsigned int seq)
{
	unsigned long long r = seed() ^ seq;
	struct sched_param sp = { 0 };
	unsigned int what = rnd(&r) % 16;

	if (what < 4 && sched_setscheduler(0, SCHED_SMART, &sp))
		report("storm child: sched_setscheduler(SMART): %s", strerror(errno));
	if (what >= 4 && what < 6) {
		int e = smart_set(0, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE,
				  (int)(rnd(&r) % 33) - 16, 1 + rnd(&r) % 4096);

		if (e)
			report("storm child: smart_setattr(self): %s", strerror(-e));
	}
	if (what == 6 || what == 7) {
		pid_t g = fork();
		int st;

		if (g == 0) {
			spin_cpu_ns(100000);
			_exit(7);
		}
		if (g < 0) {
			report("storm child: fork: %s", strerror(errno));
		} else {
			__atomic_fetch_add(&S->grandchildren, 1, __ATOMIC_RELAXED);
			if (waitpid(g, &st, 0) != g)
				report("storm child: waitpid(grandchild): %s", strerror(errno));
			else if (!WIFEXITED(st) || WEXITSTATUS(st) != 7)
				report("grandchild %d: status %#x, expected exit 7", g, st);
		}
	}
	spin_cpu_ns(rnd(&r) % 500000);
	if (what == 8)
		usleep(rnd(&r) % 2000);
	return seq & 63;
}

static void forker(int idx)
{
	struct slot *sl = &S->slot[idx];
	unsigned int seq = 0;
	siginfo_t si;
	pid_t pid;
	int st;

	while (!stopping()) {
		seq++;
		fflush(stderr);
		pid = fork();
		if (pid < 0) {
			report("%s %d: fork: %s", __func__, idx, strerror(errno));
			usleep(10000);
			continue;
		}
		if (pid == 0)
			_exit(storm_child(seq));
		__atomic_fetch_add(&S->forks, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&sl->pid, pid, __ATOMIC_SEQ_CST);

		/* wait for exit but leave the zombie, so the pid stays ours */
		memset(&si, 0, sizeof(si));
		while (waitid(P_PID, pid, &si, WEXITED | WNOWAIT) && errno == EINTR)
			;
		__atomic_store_n(&sl->pid, 0, __ATOMIC_SEQ_CST);
		/*
		 * Sleep, not sched_yield(): this forker may have been made
		 * FIFO or a high SMART priority, and yielding to a lower
		 * priority flipper is a no-op under strict priority (a
		 * user-space livelock on one CPU, not a kernel bug).
		 */
		while (__atomic_load_n(&sl->users, __ATOMIC_SEQ_CST))
			usleep(100);

		if (waitpid(pid, &st, 0) != pid) {
			report("%s %d: waitpid(%d): %s", __func__, idx, pid, strerror(errno));
			continue;
		}
		if (!WIFEXITED(st) || WEXITSTATUS(st) != (int)(seq & 63)) {
			report("storm child %d: status %#x, expected exit %u", pid, st, seq & 63);
			continue;
		}
		__atomic_fetch_add(&S->reaped_ok, 1, __ATOMIC_RELAXED);
	}
	_exit(0);
}

/* ------------------------------------------------------------------ */
/* Victims                                                             */

static void *victim_thread(void *arg)
{
	int idx = (int)(long)arg;
	unsigned long long r = seed();
	struct timespec ts;
	int chunks;

	__atomic_store_n(&S->victim_tid[idx], sys_gettid(), __ATOMIC_RELEASE);
	while (!stopping()) {
		/* spin up to 3 ms of CPU in 100 us chunks, watching stop */
		for (chunks = rnd(&r) % 30; chunks > 0 && !stopping(); chunks--)
			spin_cpu_ns(100000);
		switch (rnd(&r) % 3) {
		case 0:
			ts.tv_sec = 0;
			ts.tv_nsec = rnd(&r) % 3000000;
			nanosleep(&ts, NULL);
			break;
		case 1:
			sched_yield();
			break;
		}
	}
	return NULL;
}

static void victims(void)
{
	pthread_t th[MAX_VICTIMS];
	int i;

	for (i = 0; i < S->nvictims; i++)
		if (pthread_create(&th[i], NULL, victim_thread, (void *)(long)i))
			report("victim: pthread_create failed");
	for (i = 0; i < S->nvictims; i++)
		pthread_join(th[i], NULL);
	_exit(0);
}

/* ------------------------------------------------------------------ */
/* Flippers                                                            */

enum { OP_POLICY, OP_SMART, OP_NICE, OP_AFFINITY, OP_GETATTR, OP_GETSCHED };
static const char *const op_name[] = {
	"sched_setattr", "smart_setattr", "setpriority", "sched_setaffinity",
	"smart_getattr", "sched_getscheduler",
};

/* do one random operation on pid; returns 0 or the errno */
static int flip(pid_t pid, unsigned long long *r, int op, int ncpu, bool *invalid)
{
	*invalid = false;

	switch (op) {
	case OP_POLICY: {
		static const int pol[] = { SCHED_OTHER, SCHED_BATCH, SCHED_IDLE,
					   SCHED_FIFO, SCHED_SMART };
		struct sched_attr a = { .size = sizeof(a) };

		a.sched_policy = pol[rnd(r) % 5];
		if (a.sched_policy == SCHED_FIFO)
			a.sched_priority = 1;
		if (a.sched_policy == SCHED_OTHER || a.sched_policy == SCHED_BATCH)
			a.sched_nice = (int)(rnd(r) % 40) - 20;
		if (rnd(r) % 4 == 0)
			a.sched_flags = SCHED_FLAG_RESET_ON_FORK;
		return sys_sched_setattr(pid, &a, 0) ? errno : 0;
	}
	case OP_SMART: {
		static const unsigned int shares[] = { 0, 1, 1024, 1048576, 1048577, 7 };
		static const int sigs[] = {
			-1, 0, SIGXCPU, SIGUSR1, KERNEL_SIGRTMAX, KERNEL_SIGRTMAX + 1
		};
		struct smart_attr a = { .size = sizeof(a) };

		a.mask = 1 + rnd(r) % 15;		/* at least one known bit */
		if (rnd(r) % 16 == 0)
			a.mask |= 0x10;			/* unknown bit */
		a.priority = (int)(rnd(r) % 37) - 18;	/* -18..18 */
		a.share = rnd(r) % 2 ? 1 + rnd(r) % 8192 : shares[rnd(r) % 6];
		a.notify_signal = sigs[rnd(r) % 6];
		a.flags = rnd(r) % 8 == 0 ? 2 : rnd(r) % 2;
		*invalid = (a.mask & ~SMART_ATTR_ALL) ||
			((a.mask & SMART_ATTR_PRIORITY) &&
			 (a.priority < SMART_PRIO_MIN || a.priority > SMART_PRIO_MAX)) ||
			((a.mask & SMART_ATTR_SHARE) &&
			 (a.share < SMART_SHARE_MIN || a.share > SMART_SHARE_MAX)) ||
			((a.mask & SMART_ATTR_SIGNAL) &&
			 (a.notify_signal < 0 || a.notify_signal > KERNEL_SIGRTMAX)) ||
			((a.mask & SMART_ATTR_FLAGS) && (a.flags & ~SMART_FLAG_ALL));
		return smart_setattr(pid, &a, 0) ? errno : 0;
	}
	case OP_NICE:
		return setpriority(PRIO_PROCESS, pid, (int)(rnd(r) % 40) - 20) ? errno : 0;
	case OP_AFFINITY: {
		unsigned long mask;

		do
			mask = rnd(r) & ((1UL << ncpu) - 1);
		while (!mask);
		return pin_mask(pid, mask) ? errno : 0;
	}
	case OP_GETATTR: {
		struct smart_attr a;
		int e = smart_get(pid, &a);

		if (!e && (a.priority < SMART_PRIO_MIN || a.priority > SMART_PRIO_MAX ||
			   a.share < SMART_SHARE_MIN || a.share > SMART_SHARE_MAX ||
			   (a.flags & ~SMART_FLAG_ALL)))
			report("getattr(%d): out-of-range values " ATTR_FMT, pid, ATTR_ARG(a));
		return -e;
	}
	case OP_GETSCHED: {
		int p = sched_getscheduler(pid);

		if (p < 0)
			return errno;
		p &= ~SCHED_RESET_ON_FORK;
		if (p != SCHED_OTHER && p != SCHED_BATCH && p != SCHED_IDLE &&
		    p != SCHED_FIFO && p != SCHED_SMART)
			report("sched_getscheduler(%d): unexpected policy %d", pid, p);
		return 0;
	}
	}
	return 0;
}

static void *flipper(void *arg)
{
	unsigned long long r = seed() ^ (unsigned long long)(long)arg;
	int ncpu = online_cpus();
	bool invalid, slot_target;
	struct slot *sl = NULL;
	int op, e, kind;
	pid_t pid;

	if (ncpu > 32)
		ncpu = 32;
	while (!__atomic_load_n(&S->stop_flip, __ATOMIC_RELAXED)) {
		kind = rnd(&r) % 8;
		slot_target = kind < 4;
		if (slot_target) {
			sl = &S->slot[rnd(&r) % S->nforkers];
			__atomic_fetch_add(&sl->users, 1, __ATOMIC_SEQ_CST);
			pid = __atomic_load_n(&sl->pid, __ATOMIC_SEQ_CST);
		} else if (kind < 7) {
			pid = __atomic_load_n(&S->victim_tid[rnd(&r) % S->nvictims],
					      __ATOMIC_ACQUIRE);
		} else {
			pid = S->forker[rnd(&r) % S->nforkers];
		}
		if (pid > 0) {
			op = rnd(&r) % 6;
			e = flip(pid, &r, op, ncpu, &invalid);
			__atomic_fetch_add(&S->ops[op], 1, __ATOMIC_RELAXED);
			if (!e && invalid)
				report("%s(%d) with invalid arguments succeeded", op_name[op], pid);
			else if (e == EINVAL && invalid)
				__atomic_fetch_add(&S->op_einval[op], 1, __ATOMIC_RELAXED);
			else if (e == ESRCH && slot_target)	/* storm child exited */
				__atomic_fetch_add(&S->op_esrch[op], 1, __ATOMIC_RELAXED);
			else if (!e)
				__atomic_fetch_add(&S->op_ok[op], 1, __ATOMIC_RELAXED);
			else
				report("%s(%s %d)%s: unexpected %s", op_name[op],
				       slot_target ? "storm child" : "live task", pid,
				       invalid ? " (invalid args)" : "", strerror(e));
		}
		if (slot_target)
			__atomic_fetch_sub(&sl->users, 1, __ATOMIC_SEQ_CST);
	}
	return NULL;
}

/* ------------------------------------------------------------------ */

/* wait for pid until deadline; true if it exited with status 0 */
static bool wait_deadline(pid_t pid, long long deadline, int *status)
{
	int st;

	while (mono_ns() < deadline) {
		pid_t w = waitpid(pid, &st, WNOHANG);

		if (w == pid) {
			*status = st;
			return WIFEXITED(st) && WEXITSTATUS(st) == 0;
		}
		if (w < 0) {
			*status = -errno;
			return false;
		}
		usleep(20000);
	}
	*status = -ETIMEDOUT;
	return false;
}

TEST(storm)
{
	struct sched_param sp = { .sched_priority = 10 };
	int ncpu = online_cpus(), i, st, unfinished = 0;
	pthread_t fl[NFLIPPERS];
	pid_t victim_pid;
	long long t_end, deadline, t;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	S = shared_alloc(sizeof(*S));
	ASSERT_NE(NULL, S);
	S->nvictims = 2 * ncpu;
	S->nforkers = S->nvictims;
	if (S->nforkers > MAX_FORKERS)
		S->nforkers = MAX_FORKERS;
	if (S->nvictims > MAX_VICTIMS)
		S->nvictims = MAX_VICTIMS;
	TH_LOG("mode %s, %d CPUs, %d s: %d forkers, %d victim threads, %d flippers",
	       smart_mode_name(), ncpu, stress_secs, S->nforkers, S->nvictims, NFLIPPERS);

	fflush(stdout);
	fflush(stderr);
	victim_pid = fork();
	ASSERT_GE(victim_pid, 0);
	if (!victim_pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		victims();
	}
	for (i = 0; i < S->nforkers; i++) {
		pid_t pid = fork();	/* not into S: the child would write 0 there */

		ASSERT_GE(pid, 0);
		if (!pid) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			forker(i);
		}
		S->forker[i] = pid;
	}
	/* victims publish their tids */
	t = mono_ns() + 10 * NSEC_PER_SEC;
	for (i = 0; i < S->nvictims; i++)
		while (!__atomic_load_n(&S->victim_tid[i], __ATOMIC_ACQUIRE) && mono_ns() < t)
			usleep(1000);
	for (i = 0; i < S->nvictims; i++)
		ASSERT_NE(0, S->victim_tid[i]);
	for (i = 0; i < NFLIPPERS; i++)
		ASSERT_EQ(0, pthread_create(&fl[i], NULL, flipper, (void *)(long)i));

	/* only this thread: wake up on time whatever the load does */
	sched_setscheduler(0, SCHED_FIFO, &sp);

	t_end = mono_ns() + stress_secs * NSEC_PER_SEC;
	while (mono_ns() < t_end) {
		sleep_ns(NSEC_PER_SEC);
		if (__atomic_load_n(&S->unexpected, __ATOMIC_RELAXED) > 100)
			break;	/* enough evidence */
	}
	__atomic_store_n(&S->stop_flip, 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < NFLIPPERS; i++)
		pthread_join(fl[i], NULL);
	TH_LOG("flippers stopped %.1f s after the end", (mono_ns() - t_end) / 1e9);
	for (i = 0; i < S->nvictims; i++) {
		struct smart_attr a = { 0 };

		smart_get(S->victim_tid[i], &a);
		TH_LOG("victim tid %d at the stop: policy %d, " ATTR_FMT, S->victim_tid[i],
		       sched_getscheduler(S->victim_tid[i]), ATTR_ARG(a));
	}
	__atomic_store_n(&S->stop, 1, __ATOMIC_SEQ_CST);
	deadline = mono_ns() + GRACE_SEC * NSEC_PER_SEC;
	for (i = 0; i < S->nforkers; i++) {
		if (!wait_deadline(S->forker[i], deadline, &st)) {
			TH_LOG("forker %d (pid %d) did not finish cleanly: status %d",
			       i, S->forker[i], st);
			kill(S->forker[i], SIGKILL);
			unfinished++;
		}
	}
	if (!wait_deadline(victim_pid, deadline, &st)) {
		TH_LOG("victim process %d did not finish cleanly: status %d", victim_pid, st);
		kill(victim_pid, SIGKILL);
		unfinished++;
	}

	TH_LOG("forks %ld, reaped with expected status %ld, grandchildren %ld",
	       S->forks, S->reaped_ok, S->grandchildren);
	for (i = 0; i < 6; i++)
		TH_LOG("%-18s %7ld calls: %7ld ok, %6ld ESRCH (exited storm child), "
		       "%6ld EINVAL (invalid args)", op_name[i], S->ops[i], S->op_ok[i],
		       S->op_esrch[i], S->op_einval[i]);
	for (i = 0; i < S->nmsg && i < NMSGS; i++)
		TH_LOG("unexpected: %s", S->msg[i]);

	EXPECT_EQ(0, unfinished) {
		TH_LOG("%d workers did not finish within %d s of the stop", unfinished,
		       GRACE_SEC);
	}
	EXPECT_EQ(0, S->unexpected) {
		TH_LOG("%ld unexpected results (first %d listed above)", S->unexpected, NMSGS);
	}
	EXPECT_EQ(S->forks, S->reaped_ok) {
		TH_LOG("%ld children forked, %ld reaped with their expected status",
		       S->forks, S->reaped_ok);
	}
	EXPECT_GT(S->forks, 0);
	EXPECT_GT(S->ops[OP_POLICY] + S->ops[OP_SMART], 0);
}

int main(int argc, char **argv)
{
	const char *env = getenv("SMART_STRESS_SECONDS");
	int i, j;

	if (env && atoi(env) > 0)
		stress_secs = atoi(env);
	/* -d SECONDS is ours; the harness owns the other options */
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-d") || i + 1 >= argc)
			continue;
		if (atoi(argv[i + 1]) > 0)
			stress_secs = atoi(argv[i + 1]);
		for (j = i; j + 2 <= argc; j++)
			argv[j] = argv[j + 2];
		argc -= 2;
		i--;
	}
	_storm_object.timeout = stress_secs + GRACE_SEC + 60;
	return test_harness_run(argc, argv);
}
