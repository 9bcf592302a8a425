// SPDX-License-Identifier: GPL-2.0
/*
 * pickcost - cost of a scheduling decision against the number of runnable
 * tasks (1 ... 1000) and the number of tasks with a time constraint.
 *
 * N worker processes (--tasks), all pinned to CPU 0 and all in the class
 * of --label, call sched_yield() in a loop for --duration seconds and
 * count their calls in shared memory.  The result is
 *
 *	us_per_switch = elapsed / total sched_yield() calls
 *
 * reported with "switches" = total calls: each call is one scheduling
 * decision (schedule() and the class's pick) and, whenever another task
 * is picked, one context switch.  How many of the calls really handed the
 * CPU to another task is counted too ("task_switches": a worker finding
 * that the previous worker to return from sched_yield() was another one);
 * with N = 1, or with one constrained task above everyone else (below),
 * the decision picks the caller again and nothing is switched.  The
 * figure includes the system call itself, so compare it across N and
 * labels rather than reading it as the cost of the pick alone.
 *
 * What sched_yield() does per class (6.12 + SMART):
 *  - SMART, yield_task_smart() (kernel/sched/smart/class.c): the caller
 *    is charged its CPU time, then smart_yield() charges it as if it had
 *    used its whole quantum: its virtual time moves to the end of the
 *    quantum and eq. (4) gives its next BVFT (for a conventional task
 *    plus a bias step, up to bias_max; for a real-time task the new
 *    quantum is what is left of its estimate, no bias).  That re-inserts
 *    it in the value-tuple rb-tree (O(log N)) and marks the cached
 *    decision stale, so the pick that follows recomputes the §3.2
 *    decision (smart_decide()): O(1) when the most important task is
 *    conventional (step 1); otherwise the real-time prefix of the tree
 *    is walked and the working schedule rebuilt, O(M^2) for M candidates.
 *    The queue virtual time does not move (no CPU time was used).
 *  - EEVDF, yield_task_fair(): the caller's deadline is pushed back by
 *    one slice; the next pick is the eligible task with the earliest
 *    deadline (augmented rb-tree).
 *  - FIFO: the caller moves to the tail of its priority list; O(1).
 *    (RT throttling, 950 ms per second by default, stops FIFO workers
 *    for 50 ms of every second and that time counts: use --label FIFO
 *    with sched_rt_runtime_us = -1, or not at all.)
 *
 * --constrained M (SMART only): workers 0..M-1 run at SMART priority 1
 * and hold a time constraint for the whole measurement: all share one
 * deadline 50 s after the start, each with estimate 40 s / M, so the set
 * is feasible (the estimates sum to 40 s < 50 s) and none uses up its
 * estimate (each gets at most the measured time), i.e. all stay
 * real-time tasks.  Being more important than every conventional task
 * (priority 1 against 0), they are the candidates of step 2 at every
 * decision, so every pick rebuilds a working schedule of M entries;
 * with equal deadlines the schedule keeps value order and its head is
 * the one with the earliest BVFT, and a yield moves that one's BVFT
 * behind the others: the M constrained workers take turns.  The N - M
 * conventional workers stay runnable on the queue (in the tree) but do
 * not run, apart from SMART's starvation rescue (one resolution_ns slice
 * per second per CPU); their calls count as well.  At the end each
 * constrained worker ends its constraint and checks that it was still
 * active, met, and within its estimate.
 *
 * Timing: the controller (this process, SCHED_FIFO 99 so that it runs
 * on time however many workers are runnable) forks the workers; each
 * sets its class (and constraint) and blocks on a futex; once all are
 * ready the controller wakes them all, takes the start time and sleeps
 * for the duration; then it takes the end time and raises the stop flag.
 * Creation and set-up are not timed, and all N workers are runnable
 * from the start.  Workers are processes with nothing but their small
 * stacks of their own, so N = 1000 fits in a small guest.
 *
 * Output: one JSON record (bench/SCHEMA.md, experiment "pick") on stdout.
 */
#include <getopt.h>
#include <limits.h>
#include <linux/futex.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "benchutil.h"

#define MAX_TASKS	4096
/*
 * Up to every task: beyond SMART_WS_MAX (64, the working schedule's
 * capacity and the most candidates a decision looks at) the cost of a
 * decision must not grow (issue 10: 4096 constrained tasks on one CPU).
 */
#define MAX_CONSTRAINED	MAX_TASKS
/*
 * The kernel's SMART_WS_MAX: with more constrained tasks than this, the
 * ones beyond the 64 most important are not candidates of a decision and
 * the prediction of those behind 64 others is 0, so the workers then
 * neither check that begin predicted FEASIBLE nor that they stayed
 * real-time: only the cost is measured.
 */
#define WS_MAX		64

static int nr_constrained;	/* --constrained, seen by the workers */
#define TC_AHEAD_NS	50000000000ULL	/* the shared deadline: 50 s from the start */
#define TC_BUDGET_NS	40000000000ULL	/* sum of the estimates */

struct worker {
	uint64_t yields;	/* sched_yield() calls while measuring */
	uint64_t switches;	/* calls after which another worker had run */
	uint64_t tc_used;	/* constrained: CPU time used under the constraint */
	int done;		/* 1 once the counts above are written */
};

struct shared {
	int go;			/* futex: 0 until the controller starts the run */
	int stop;		/* 1 once the measurement is over */
	int ready;		/* workers set up and about to wait */
	int failed;		/* a worker failed (it said why on stderr) */
	int last;		/* the worker that last returned from sched_yield() */
	uint64_t deadline;	/* constrained: the shared deadline */
	uint64_t estimate;	/* constrained: each one's estimate */
	struct worker w[];
};

static struct shared *sh;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pickcost --label SMART|EEVDF|FIFO [--tasks N] [--constrained M]\n"
		"                [--duration SECONDS]\n"
		"\n"
		"N processes on CPU 0 in the class of the label call sched_yield() in a\n"
		"loop; prints one JSON record with us_per_switch = elapsed / total calls.\n"
		"\n"
		"  --label L          SMART (SCHED_SMART prio 0), EEVDF (SCHED_OTHER nice 0),\n"
		"                     FIFO (SCHED_FIFO 50)\n"
		"  --tasks N          runnable tasks, 1..%d (default 10)\n"
		"  --constrained M    SMART only: M of them (1..%d) at priority 1 with a time\n"
		"                     constraint (deadline 50 s ahead, estimate 40 s / M)\n"
		"  --duration S       measured time in seconds (default 1)\n",
		MAX_TASKS, MAX_CONSTRAINED);
}

static long futex(int *uaddr, int op, int val)
{
	return syscall(SYS_futex, uaddr, op, val, NULL, NULL, 0);
}

static void __attribute__((noreturn)) worker_fail(void)
{
	__atomic_store_n(&sh->failed, 1, __ATOMIC_SEQ_CST);
	_exit(1);
}

static void __attribute__((noreturn)) worker(int me, enum bu_label label, int constrained)
{
	struct worker *w = &sh->w[me];
	struct smart_constraint c;
	uint64_t yields = 0, switches = 0;

	bu_prog = "pickcost (worker)";
	if (label == BU_SMART && constrained) {
		bu_set_policy(label, 1, 0);
		memset(&c, 0, sizeof(c));
		c.size = sizeof(c);
		c.deadline = sh->deadline;
		c.estimate = sh->estimate;
		c.cookie = me;
		if (smart_constraint_begin(&c, 0)) {
			fprintf(stderr, "pickcost: worker %d: smart_constraint_begin: %s\n", me,
				smart_strerror(SMART_CALL_CONSTRAINT_BEGIN, errno));
			worker_fail();
		}
		if (c.status != SMART_STATUS_FEASIBLE && nr_constrained <= WS_MAX) {
			fprintf(stderr, "pickcost: worker %d: constraint predicted infeasible "
				"(available %llu ns < estimate %llu ns)\n", me,
				(unsigned long long)c.available, (unsigned long long)c.estimate);
			worker_fail();
		}
	} else {
		bu_set_policy(label, 0, 50);
	}

	__atomic_add_fetch(&sh->ready, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&sh->go, __ATOMIC_ACQUIRE))
		futex(&sh->go, FUTEX_WAIT, 0);

	while (!__atomic_load_n(&sh->stop, __ATOMIC_RELAXED)) {
		sched_yield();
		yields++;
		if (__atomic_load_n(&sh->last, __ATOMIC_RELAXED) != me) {
			switches++;
			__atomic_store_n(&sh->last, me, __ATOMIC_RELAXED);
		}
	}

	w->yields = yields;
	w->switches = switches;
	if (label == BU_SMART && constrained) {
		memset(&c, 0, sizeof(c));
		c.size = sizeof(c);
		if (smart_constraint_end(&c, 0)) {
			fprintf(stderr, "pickcost: worker %d: smart_constraint_end: %s "
				"(the constraint did not last the measurement)\n", me,
				smart_strerror(SMART_CALL_CONSTRAINT_END, errno));
			worker_fail();
		}
		w->tc_used = c.used;
		if (nr_constrained <= WS_MAX &&
		    (c.status != SMART_STATUS_MET || c.used >= c.estimate)) {
			fprintf(stderr, "pickcost: worker %d: constraint %s, used %llu of %llu ns: "
				"it was not real-time for the whole measurement\n", me,
				c.status == SMART_STATUS_MET ? "met" : "missed",
				(unsigned long long)c.used, (unsigned long long)c.estimate);
			worker_fail();
		}
	}
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	_exit(0);
}

static void kill_all(pid_t *pids, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGKILL);
	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			waitpid(pids[i], NULL, 0);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "label", required_argument, NULL, 'l' },
		{ "tasks", required_argument, NULL, 'n' },
		{ "constrained", required_argument, NULL, 'm' },
		{ "duration", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t t0, t1, deadline_wait, yields = 0, switches = 0, ymin = UINT64_MAX, ymax = 0;
	int n = 10, m = 0, i, opt, have_label = 0, failed = 0, ran = 0;
	enum bu_label label = BU_SMART;
	double duration = 1.0;
	size_t size;
	pid_t *pids;

	bu_prog = "pickcost";
	while ((opt = getopt_long(argc, argv, "l:n:m:d:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'l': label = bu_parse_label(optarg); have_label = 1; break;
		case 'n': n = bu_parse_u64("--tasks", optarg, 1, MAX_TASKS); break;
		case 'm': m = bu_parse_u64("--constrained", optarg, 1, MAX_CONSTRAINED); break;
		case 'd': duration = bu_parse_seconds("--duration", optarg, 30.0); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 1;
		}
	}
	if (optind != argc || !have_label) {
		usage(stderr);
		return 1;
	}
	if (m && label != BU_SMART)
		bu_die("--constrained needs --label SMART");
	if (m > n)
		bu_die("--constrained %d is more than --tasks %d", m, n);
	if (label == BU_SMART && !smart_available())
		bu_die("this kernel has no SCHED_SMART (%s missing)", SMART_MODE_SYSCTL);

	size = sizeof(*sh) + (size_t)n * sizeof(sh->w[0]);
	sh = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		bu_die("mmap: %s", strerror(errno));
	pids = calloc(n, sizeof(*pids));
	if (!pids)
		bu_die("out of memory");
	sh->last = -1;
	if (m) {
		sh->deadline = bu_now_ns() + TC_AHEAD_NS;
		sh->estimate = TC_BUDGET_NS / m;
	}

	nr_constrained = m;
	bu_pin_cpu0();
	bu_set_controller();
	for (i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			int err = errno;

			kill_all(pids, i);
			bu_die("fork of worker %d: %s", i, strerror(err));
		}
		if (pids[i] == 0)
			worker(i, label, i < m);
	}

	/* All set up and waiting (or failed)? At most 60 s. */
	deadline_wait = bu_now_ns() + 60000000000ULL;
	while (__atomic_load_n(&sh->ready, __ATOMIC_SEQ_CST) < n) {
		if (__atomic_load_n(&sh->failed, __ATOMIC_SEQ_CST)) {
			kill_all(pids, n);
			bu_die("a worker failed during set-up");
		}
		if (waitpid(-1, NULL, WNOHANG) > 0) {
			kill_all(pids, n);
			bu_die("a worker exited during set-up");
		}
		if (bu_now_ns() > deadline_wait) {
			kill_all(pids, n);
			bu_die("only %d of %d workers ready after 60 s", sh->ready, n);
		}
		bu_sleep_ns(2000000);
	}

	/* Go: every worker becomes runnable on CPU 0 before we sleep. */
	__atomic_store_n(&sh->go, 1, __ATOMIC_RELEASE);
	futex(&sh->go, FUTEX_WAKE, INT_MAX);
	t0 = bu_now_ns();
	bu_sleep_ns((uint64_t)(duration * 1e9));
	t1 = bu_now_ns();
	__atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);

	for (i = 0; i < n; i++) {
		int status;

		if (waitpid(pids[i], &status, 0) != pids[i])
			bu_die("waitpid: %s", strerror(errno));
		if (!WIFEXITED(status) || WEXITSTATUS(status) || !sh->w[i].done)
			failed++;
	}
	if (failed || sh->failed)
		bu_die("%d of %d workers failed", failed, n);

	for (i = 0; i < n; i++) {
		uint64_t y = sh->w[i].yields;

		yields += y;
		switches += sh->w[i].switches;
		ran += y > 0;
		ymin = y < ymin ? y : ymin;
		ymax = y > ymax ? y : ymax;
	}
	if (!yields)
		bu_die("no sched_yield() calls counted");

	bu_json_begin("pick", label, (t1 - t0) / 1e9);
	printf(",\"runnable\":%d,\"constrained\":%d,\"us_per_switch\":%.4f,"
	       "\"switches\":%llu,\"task_switches\":%llu,\"tasks_ran\":%d,"
	       "\"yields_min\":%llu,\"yields_max\":%llu",
	       n, m, (t1 - t0) / 1e3 / yields, (unsigned long long)yields,
	       (unsigned long long)switches, ran, (unsigned long long)ymin,
	       (unsigned long long)ymax);
	if (m)
		printf(",\"tc_deadline_s\":%.1f,\"tc_estimate_s\":%.3f",
		       TC_AHEAD_NS / 1e9, sh->estimate / 1e9);
	bu_json_end();
	return 0;
}
