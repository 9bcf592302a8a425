// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART and the cgroup v2 cpu controller: cpu.weight divides the
 * CPU among SMART tasks by group, whatever each group's number of tasks
 * (SFQ-H's model, kernel/sched/smart/group.c).  In opt-in mode the hogs
 * are made SCHED_SMART; with sched_smart=all they are plain SCHED_NORMAL
 * processes, as a user's would be.  Hogs are pinned to CPU 0 unless a
 * test says otherwise; CPU time is read from the tasks' CPU clocks.
 *
 *   weights_100_300   4 hogs at weight 100 against 1 at 300: 25% / 75%
 *   nested            A{A1 (2 hogs, 100), A2 (1 hog, 300)} : B (1 hog)
 *   weight_change     cpu.weight written while the hogs run
 *   move_running      a running hog moves to another group
 *   idle_group        cpu.idle makes a group's weight minimal
 *   churn             tasks move among groups while running and
 *                     sleeping, weights change, CPU 1 goes offline and
 *                     online, groups are removed: no task lost
 *   per_cpu           a pair of groups on every CPU, each CPU 25% / 75%
 *   spread            two CPUs, equal weights, 1 hog against 3: a group's
 *                     weight is divided among the CPUs where its tasks are
 *   sleepers_elsewhere  a group's hog beside another group's on CPU 0, and
 *                     three tasks of its group asleep on CPU 1, where
 *                     nothing else of SMART runs: once their sleep credit
 *                     is over they do not count, and the hogs get 50/50
 *   flood             an unprivileged process with 200 threads that
 *                     sleep past their credit and wake, again and again
 *                     (83% of a CPU in all), in a group of the same weight
 *                     as one hog's: the hog keeps at least half the CPU
 *   delegated_deep    nobody, delegated a subtree, nests 1000 groups
 *                     with the cpu controller and runs two threads that
 *                     wake every 0.2 ms in the deepest, one moving
 *                     between CPUs 0 and 1, beside a SMART task on CPU 0
 *                     that sleeps 1 ms at a time: its wake-ups are not
 *                     held back by work under the rq lock that grows with
 *                     the depth (a tick re-weighting the chain took 2 s)
 *   delegated_deep_limited  the same with cpu.max set at every level
 *   constrained       a periodic time-constrained task in a group meets
 *                     its deadlines while another group is saturated
 *   cpu_max           a group limited to 20 ms per 100 ms beside another
 *                     group's hog gets 20 +- 2% of the CPU, cpu.stat
 *                     counts the throttled periods and time, and
 *                     /proc/<pid>/sched shows the hog parked
 *   cpu_max_nested    a{a1 limited to 10%, a2} limited to 40% beside b:
 *                     a1 10%, a 40%, b the rest; "max" while throttled
 *                     gives a its weight's half again at once
 *   cpu_max_small     a quota smaller than a slice per CPU (5 ms per 100 ms)
 *                     for one hog on each of up to 4 CPUs: every hog runs
 *   cpu_max_offline   a limited group's hog pinned to a CPU that goes
 *                     offline while the group is throttled there runs
 *                     on elsewhere, and limited again
 */
#include <ftw.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include "../kselftest_harness.h"
#include "util.h"

#define CGROOT	"/sys/fs/cgroup"
#define CPU0	1UL

FIXTURE(cg) {
	struct hog_set h;
	char top[128];
	char made[16][192];	/* groups cg_make() made, by name */
	int nr_made;
};

static bool cg_ready(void)
{
	struct stat st;

	if (stat(CGROOT "/cgroup.controllers", &st) &&
	    mount("none", CGROOT, "cgroup2", 0, NULL))
		return false;
	return !write_in(CGROOT, "cgroup.subtree_control", "+cpu");
}

/* mkdir @name under @parent (a path below self->top or top itself) */
static const char *cg_make(FIXTURE_DATA(cg) * self, const char *parent,
			   const char *name, int weight)
{
	char *dir = self->made[self->nr_made];
	char w[16];

	snprintf(dir, sizeof(self->made[0]), "%s/%s", parent, name);
	if (mkdir(dir, 0755) && errno != EEXIST)
		return NULL;
	self->nr_made++;
	snprintf(w, sizeof(w), "%d", weight);
	if (weight && write_in(dir, "cpu.weight", w))
		return NULL;
	return dir;
}

static int cg_enter(const char *dir, pid_t pid)
{
	char s[16];

	snprintf(s, sizeof(s), "%d", pid);
	return write_in(dir, "cgroup.procs", s);
}

FIXTURE_SETUP(cg)
{
	hogs_init(&self->h);
	self->nr_made = 0;
	REQUIRE_SMART();
	REQUIRE_ROOT();
	if (!cg_ready())
		SKIP(return, "no cgroup v2 cpu controller at " CGROOT ": %s",
		     strerror(errno));
	snprintf(self->top, sizeof(self->top), CGROOT "/smart-test-%d", getpid());
	ASSERT_EQ(0, mkdir(self->top, 0755)) {
		TH_LOG("mkdir %s: %s", self->top, strerror(errno));
	}
	ASSERT_EQ(0, write_in(self->top, "cgroup.subtree_control", "+cpu")) {
		TH_LOG("enable cpu below %s: %s", self->top, strerror(errno));
	}
	TH_LOG("mode %s, %d CPUs", smart_mode_name(), online_cpus());
	controller_setup(controller_cpu());
}

static int rmdir_one(const char *path, const struct stat *st, int flag,
		     struct FTW *ftw)
{
	if (flag == FTW_DP)
		rmdir(path);
	return 0;
}

/*
 * Whether the test passed or an ASSERT cut it short (a _PARENT teardown:
 * 6.12's harness skips a plain one after a failed ASSERT): the hogs are
 * gone, then every group below top, deepest first, a delegated user's too.
 */
FIXTURE_TEARDOWN_PARENT(cg)
{
	hogs_kill(&self->h);
	nftw(self->top, rmdir_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* a hog on @mask in group @dir, SMART in opt-in mode */
static pid_t cg_hog(struct __test_metadata *_metadata, FIXTURE_DATA(cg) * self,
		    const char *dir, unsigned long mask, hog_body_t body,
		    void *arg)
{
	pid_t pid = hog_spawn(&self->h, mask, body ? body : hog_spin_forever,
			      arg);

	ASSERT_GT(pid, 0) {
		TH_LOG("hog_spawn: %s", strerror(errno));
	}
	if (smart_mode() != 1) {
		ASSERT_EQ(0, smart_set(pid, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE,
				       0, 1024));
	}
	ASSERT_EQ(0, cg_enter(dir, pid)) {
		TH_LOG("%d into %s: %s", pid, dir, strerror(errno));
	}
	return pid;
}

/* percent of the hogs' total CPU that hogs [from, to) got */
static double part(const struct hog_set *h, int from, int to)
{
	long long sum = 0, all = 0;
	int i;

	for (i = 0; i < h->n; i++) {
		all += hog_delta(h, i);
		if (i >= from && i < to)
			sum += hog_delta(h, i);
	}
	return all ? 100.0 * sum / all : 0;
}

/*
 * Let the hogs' bias reach its bound (a hog of a quarter of a 25% group
 * needs 10 quanta, 1.6 s), then measure.
 */
static void settle_measure(struct hog_set *h)
{
	sleep_ns(2 * NSEC_PER_SEC);
	hogs_measure(h, 4 * NSEC_PER_SEC);
}

#define EXPECT_PART(h, from, to, want, what) do {			\
	double __got = part(h, from, to);				\
	TH_LOG("%s: %.1f%% (expected %.1f%% +- 5)", what, __got,	\
	       (double)(want));						\
	EXPECT_TRUE(__got >= (want) - 5 && __got <= (want) + 5) {	\
		TH_LOG("%s: %.1f%%, expected %.1f%% +- 5 points",	\
		       what, __got, (double)(want));			\
	}								\
} while (0)

TEST_F(cg, weights_100_300)
{
	const char *a = cg_make(self, self->top, "a", 100);
	const char *b = cg_make(self, self->top, "b", 300);
	int i;

	ASSERT_TRUE(a && b);
	for (i = 0; i < 4; i++)
		cg_hog(_metadata, self, a, CPU0, NULL, NULL);
	cg_hog(_metadata, self, b, CPU0, NULL, NULL);
	hogs_go(&self->h);
	settle_measure(&self->h);
	EXPECT_PART(&self->h, 0, 4, 25, "group a (weight 100, 4 hogs)");
	EXPECT_PART(&self->h, 4, 5, 75, "group b (weight 300, 1 hog)");
}

/* top/a{a1 (100), a2 (@w2)} and top/b (100), all made, or false */
static bool cg_nest(FIXTURE_DATA(cg) * self, int w2, const char **a,
		    const char **b, const char **a1, const char **a2)
{
	*a = cg_make(self, self->top, "a", 100);
	*b = cg_make(self, self->top, "b", 100);
	if (!*a || !*b || write_in(*a, "cgroup.subtree_control", "+cpu"))
		return false;
	*a1 = cg_make(self, *a, "a1", 100);
	*a2 = cg_make(self, *a, "a2", w2);
	return *a1 && *a2;
}

TEST_F(cg, nested)
{
	const char *a, *b, *a1, *a2;

	ASSERT_TRUE(cg_nest(self, 300, &a, &b, &a1, &a2));
	cg_hog(_metadata, self, a1, CPU0, NULL, NULL);
	cg_hog(_metadata, self, a1, CPU0, NULL, NULL);
	cg_hog(_metadata, self, a2, CPU0, NULL, NULL);
	cg_hog(_metadata, self, b, CPU0, NULL, NULL);
	hogs_go(&self->h);
	settle_measure(&self->h);
	EXPECT_PART(&self->h, 0, 2, 12.5, "a/a1 (100 of a, 2 hogs)");
	EXPECT_PART(&self->h, 2, 3, 37.5, "a/a2 (300 of a, 1 hog)");
	EXPECT_PART(&self->h, 3, 4, 50, "b (1 hog)");
}

TEST_F(cg, weight_change)
{
	const char *a = cg_make(self, self->top, "a", 100);
	const char *b = cg_make(self, self->top, "b", 100);

	ASSERT_TRUE(a && b);
	cg_hog(_metadata, self, a, CPU0, NULL, NULL);
	cg_hog(_metadata, self, a, CPU0, NULL, NULL);
	cg_hog(_metadata, self, b, CPU0, NULL, NULL);
	hogs_go(&self->h);
	settle_measure(&self->h);
	EXPECT_PART(&self->h, 0, 2, 50, "a (100, 2 hogs) before");
	ASSERT_EQ(0, write_in(a, "cpu.weight", "300"));
	settle_measure(&self->h);
	EXPECT_PART(&self->h, 0, 2, 75, "a after cpu.weight 300");
	ASSERT_EQ(0, write_in(a, "cpu.weight.nice", "19"));
	settle_measure(&self->h);
	/*
	 * nice 19 is weight 15 against b's 1024: 1.4% in the long run.
	 * The hogs' bias (100 ms of their own CPU) costs them 100 ms / 1.4%
	 * of wall time first, so in this window they get less.
	 */
	TH_LOG("a after cpu.weight.nice 19: %.2f%% (at most 1.4%% + 1)",
	       part(&self->h, 0, 2));
	EXPECT_LE(part(&self->h, 0, 2), 2.4);
}

TEST_F(cg, move_running)
{
	const char *a = cg_make(self, self->top, "a", 100);
	const char *b = cg_make(self, self->top, "b", 300);

	ASSERT_TRUE(a && b);
	cg_hog(_metadata, self, a, CPU0, NULL, NULL);
	cg_hog(_metadata, self, a, CPU0, NULL, NULL);
	cg_hog(_metadata, self, b, CPU0, NULL, NULL);
	hogs_go(&self->h);
	sleep_ns(NSEC_PER_SEC);
	/* hog 1 moves from a to b while it runs: a 1 hog, b 2 hogs */
	ASSERT_EQ(0, cg_enter(b, self->h.pid[1]));
	settle_measure(&self->h);
	EXPECT_PART(&self->h, 0, 1, 25, "a's remaining hog");
	EXPECT_PART(&self->h, 1, 3, 75, "b's two hogs");
	EXPECT_PART(&self->h, 1, 2, 37.5, "the moved hog");
}

TEST_F(cg, idle_group)
{
	const char *a = cg_make(self, self->top, "a", 0);
	const char *b = cg_make(self, self->top, "b", 0);

	ASSERT_TRUE(a && b);
	ASSERT_EQ(0, write_in(a, "cpu.idle", "1"));
	cg_hog(_metadata, self, a, CPU0, NULL, NULL);
	cg_hog(_metadata, self, a, CPU0, NULL, NULL);
	cg_hog(_metadata, self, b, CPU0, NULL, NULL);
	hogs_go(&self->h);
	settle_measure(&self->h);
	/* an idle group weighs 3 against 1024: 0.3%, less in this window */
	TH_LOG("a (cpu.idle 1, 2 hogs): %.2f%% (at most 0.3%% + 1)",
	       part(&self->h, 0, 2));
	EXPECT_LE(part(&self->h, 0, 2), 1.3);
	ASSERT_EQ(0, write_in(a, "cpu.idle", "0"));
	settle_measure(&self->h);
	EXPECT_PART(&self->h, 0, 2, 50, "a after cpu.idle 0");
}

/* sleeps 1-20 ms and spins 1-5 ms, forever */
static void sleepy_body(void *arg)
{
	unsigned int seed = getpid();

	(void)arg;
	for (;;) {
		sleep_ns((1 + rand_r(&seed) % 20) * NSEC_PER_MSEC);
		spin_cpu_ns((1 + rand_r(&seed) % 5) * NSEC_PER_MSEC);
	}
}

#define CPU1_ONLINE "/sys/devices/system/cpu/cpu1/online"

TEST_F(cg, churn)
{
	const char *g[3];
	long long end;
	int i, moves = 0, fails = 0, plugs = 0;
	bool hotplug = sysconf(_SC_NPROCESSORS_ONLN) > 1 &&
		       !access(CPU1_ONLINE, W_OK);

	g[0] = cg_make(self, self->top, "a", 100);
	g[1] = cg_make(self, self->top, "b", 200);
	g[2] = cg_make(self, self->top, "c", 50);
	ASSERT_TRUE(g[0] && g[1] && g[2]);
	for (i = 0; i < 8; i++)
		cg_hog(_metadata, self, g[i % 3], 0, i % 2 ? sleepy_body : NULL,
		       NULL);
	hogs_go(&self->h);
	end = mono_ns() + 3 * NSEC_PER_SEC;
	while (mono_ns() < end) {
		i = moves % self->h.n;
		if (cg_enter(g[(moves / self->h.n) % 3], self->h.pid[i]))
			fails++;
		if (!(moves % 50))
			write_in(g[moves % 3], "cpu.weight",
				 moves % 100 ? "1000" : "10");
		/* CPU 1 leaves and comes back: its sleepers leave its queue */
		if (hotplug && !(moves % 200) &&
		    !write_str(CPU1_ONLINE, moves % 400 ? "1" : "0"))
			plugs++;
		moves++;
		sleep_ns(NSEC_PER_MSEC);
	}
	if (hotplug)
		ASSERT_EQ(0, write_str(CPU1_ONLINE, "1"));
	TH_LOG("%d moves among 3 groups in 3 s, %d failed, %d hotplug steps",
	       moves, fails, plugs);
	EXPECT_EQ(0, fails);
	/* everyone back to the top, the groups go away under load */
	for (i = 0; i < self->h.n; i++)
		ASSERT_EQ(0, cg_enter(CGROOT, self->h.pid[i]));
	while (self->nr_made > 0) {
		const char *dir = self->made[--self->nr_made];

		EXPECT_EQ(0, rmdir(dir)) {
			TH_LOG("rmdir %s: %s", dir, strerror(errno));
		}
	}
	hogs_measure(&self->h, NSEC_PER_SEC);
	for (i = 0; i < self->h.n; i++) {
		EXPECT_TRUE(hog_alive(&self->h, i));
		EXPECT_GT(hog_delta(&self->h, i), 0) {
			TH_LOG("hog %d got no CPU after the churn", i);
		}
	}
}

TEST_F(cg, per_cpu)
{
	const char *a = cg_make(self, self->top, "a", 100);
	const char *b = cg_make(self, self->top, "b", 300);
	/* online_cpus() counts the affinity, pinned by the fixture */
	int n = (int)sysconf(_SC_NPROCESSORS_ONLN), cpu;

	ASSERT_TRUE(a && b);
	if (n > MAX_HOGS / 2)
		n = MAX_HOGS / 2;
	for (cpu = 0; cpu < n; cpu++) {
		cg_hog(_metadata, self, a, 1UL << cpu, NULL, NULL);
		cg_hog(_metadata, self, b, 1UL << cpu, NULL, NULL);
	}
	hogs_go(&self->h);
	settle_measure(&self->h);
	for (cpu = 0; cpu < n; cpu++) {
		long long x = hog_delta(&self->h, 2 * cpu);
		long long y = hog_delta(&self->h, 2 * cpu + 1);
		double got = x + y ? 100.0 * x / (x + y) : 0;

		TH_LOG("CPU %d of %d: a %.1f%% (expected 25 +- 5)", cpu, n, got);
		EXPECT_TRUE(got >= 20 && got <= 30);
	}
}

TEST_F(cg, spread)
{
	const char *a = cg_make(self, self->top, "a", 100);
	const char *b = cg_make(self, self->top, "b", 100);
	long long wall;
	double got;
	int i;

	ASSERT_TRUE(a && b);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "one CPU");
	cg_hog(_metadata, self, a, 3UL, NULL, NULL);
	for (i = 0; i < 3; i++)
		cg_hog(_metadata, self, b, 3UL, NULL, NULL);
	hogs_go(&self->h);
	settle_measure(&self->h);
	wall = self->h.t1 - self->h.t0;
	/*
	 * The counts even out at two tasks per CPU, so a's hog shares a CPU
	 * with one of b's three: with b's weight there a third of its 100
	 * (b has a third of its tasks there), a gets 75% of that CPU; with
	 * the whole of b's weight on every CPU it would get 50%.
	 */
	got = 100.0 * hog_delta(&self->h, 0) / wall;
	TH_LOG("a (1 hog) beside b (3 hogs) on 2 CPUs: a %.1f%% of a CPU, b %.1f%%",
	       got, 100.0 * (hog_delta(&self->h, 1) + hog_delta(&self->h, 2) +
			     hog_delta(&self->h, 3)) / wall);
	EXPECT_GE(got, 65.0);
}

static void nap_body(void *arg)
{
	spin_cpu_ns(5 * NSEC_PER_MSEC);
	pause();
}

TEST_F(cg, sleepers_elsewhere)
{
	const char *a = cg_make(self, self->top, "a", 100);
	const char *b = cg_make(self, self->top, "b", 100);
	int i;

	ASSERT_TRUE(a && b);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "one CPU");
	cg_hog(_metadata, self, a, CPU0, NULL, NULL);
	cg_hog(_metadata, self, b, CPU0, NULL, NULL);
	for (i = 0; i < 3; i++)
		cg_hog(_metadata, self, a, 2UL, nap_body, NULL);
	hogs_go(&self->h);
	settle_measure(&self->h);
	EXPECT_PART(&self->h, 0, 1, 50, "a's hog beside b's, 3 of a asleep on CPU 1");
}

#define FLOOD_THREADS 200

/* sleeps 101-140 ms (past the 100 ms credit), spins 0.5 ms, forever */
static void *flood_thread(void *arg)
{
	unsigned int seed = (unsigned int)(uintptr_t)arg;

	for (;;) {
		sleep_ns((101 + rand_r(&seed) % 40) * NSEC_PER_MSEC);
		spin_cpu_ns(500000);
	}
	return NULL;
}

static void flood_body(void *arg)
{
	pthread_t t;
	int i;

	(void)arg;
	if (drop_to_nobody())
		_exit(5);
	for (i = 0; i < FLOOD_THREADS; i++)
		if (pthread_create(&t, NULL, flood_thread, (void *)(uintptr_t)i))
			_exit(6);
	pause();
}

TEST_F(cg, flood)
{
	const char *a = cg_make(self, self->top, "a", 100);
	const char *b = cg_make(self, self->top, "b", 100);
	long long wall;
	double got;

	ASSERT_TRUE(a && b);
	cg_hog(_metadata, self, a, CPU0, NULL, NULL);
	cg_hog(_metadata, self, b, CPU0, flood_body, NULL);
	hogs_go(&self->h);
	settle_measure(&self->h);
	wall = self->h.t1 - self->h.t0;
	got = 100.0 * hog_delta(&self->h, 0) / wall;
	TH_LOG("hog in a: %.1f%% of CPU 0; %d threads of nobody in b: %.1f%%",
	       got, FLOOD_THREADS, 100.0 * hog_delta(&self->h, 1) / wall);
	EXPECT_TRUE(hog_alive(&self->h, 1));
	EXPECT_GE(got, 45.0);
}

#define DEEP		1000

struct deep_shared {
	char dir[256];		/* the delegated subtree's root */
	bool limited;		/* nobody sets cpu.max at every level */
	int built;		/* groups nobody made, -errno on failure */
	long long wakes, late_max;
};

/* wakes every 0.2 ms for @ns */
static void deep_wakes(long long ns)
{
	long long end = mono_ns() + ns;

	while (mono_ns() < end) {
		sleep_ns(200 * 1000);
		spin_cpu_ns(50 * 1000);
	}
}

/*
 * The second thread of the deep group moves between CPU 0 and CPU 1 every
 * 50 ms: the group's tasks on CPU 0 go from one to two and back, and the
 * tick there re-weights every group of the chain (smart_tick_groups()).
 */
static void *deep_mover(void *arg)
{
	int i;

	for (i = 0;; i++) {
		pin_to(0, i & 1);
		deep_wakes(50 * NSEC_PER_MSEC);
	}
	return NULL;
}

/*
 * As nobody: DEEP nested groups below the delegated directory, the cpu
 * controller on at each level, then into the deepest with two threads
 * that wake every 0.2 ms, one on CPU 0 and one moving.  Relative paths:
 * the chain is longer than a path buffer here.
 */
static void deep_body(void *arg)
{
	struct deep_shared *sh = arg;
	pthread_t t;
	int fd, i;

	if (drop_to_nobody() || chdir(sh->dir))
		_exit(5);
	for (i = 0; i < DEEP; i++) {
		fd = open("cgroup.subtree_control", O_WRONLY);
		if (fd < 0 || write(fd, "+cpu", 4) != 4 ||
		    (mkdir("x", 0755) && errno != EEXIST) ||
		    (sh->limited && write_in("x", "cpu.max", "100000 100000")) ||
		    chdir("x")) {
			sh->built = -errno;
			_exit(6);
		}
		close(fd);
		sh->built = i + 1;
	}
	fd = open("cgroup.procs", O_WRONLY);
	if (fd < 0 || write(fd, "0", 1) != 1) {
		sh->built = -errno;
		_exit(7);
	}
	close(fd);
	if (pthread_create(&t, NULL, deep_mover, NULL))
		_exit(8);
	for (;;)
		deep_wakes(NSEC_PER_SEC);
}

/* sleeps 1 ms at a time, the latest wake-up is recorded */
static void waker_body(void *arg)
{
	struct deep_shared *sh = arg;

	for (;;) {
		long long t = mono_ns(), late;

		sleep_ns(NSEC_PER_MSEC);
		late = mono_ns() - t - NSEC_PER_MSEC;
		sh->wakes++;
		if (late > sh->late_max)
			sh->late_max = late;
	}
}

static void delegated_deep(struct __test_metadata *_metadata,
			   FIXTURE_DATA(cg) * self, bool limited)
{
	const char *a = cg_make(self, self->top, "a", 100);
	const char *d = cg_make(self, self->top, "d", 100);
	const char *home = d ? cg_make(self, d, "home", 0) : NULL;
	static const char *const own[] = {
		"", "cgroup.procs", "cgroup.threads", "cgroup.subtree_control",
	};
	struct deep_shared *sh = shared_alloc(sizeof(*sh));
	char path[4096];
	size_t len;
	int i, polls;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "one CPU");
	/* 60 s to build, 4 min on a smoke run (KCSAN under TCG: 60-70 s) */
	polls = smart_smoke() ? 4800 : 1200;
	ASSERT_TRUE(a && d && home && sh);
	/*
	 * delegated as systemd delegates user@.service's subtree; its
	 * process starts in a leaf (no internal processes)
	 */
	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", d, own[i]);
		ASSERT_EQ(0, chown(path, NOBODY_ID, NOBODY_ID)) {
			TH_LOG("chown %s: %s", path, strerror(errno));
		}
	}
	snprintf(sh->dir, sizeof(sh->dir), "%s", d);
	sh->limited = limited;
	cg_hog(_metadata, self, a, CPU0, waker_body, sh);
	cg_hog(_metadata, self, home, CPU0, deep_body, sh);
	hogs_go(&self->h);
	for (i = 0; i < polls && sh->built >= 0 && sh->built < DEEP; i++)
		sleep_ns(50 * NSEC_PER_MSEC);
	ASSERT_EQ(DEEP, sh->built) {
		TH_LOG("nobody made %d nested groups (%s)", sh->built,
		       sh->built < 0 ? strerror(-sh->built) : "timed out");
	}
	sleep_ns(500 * NSEC_PER_MSEC);	/* the deep task moved in, settled */
	sh->late_max = 0;
	sh->wakes = 0;
	sleep_ns(2 * NSEC_PER_SEC);
	TH_LOG("%lld wake-ups of a 1 ms sleeper beside a task %d groups deep: "
	       "the latest %.2f ms late", sh->wakes, DEEP, sh->late_max / 1e6);
	EXPECT_TRUE(hog_alive(&self->h, 1));
	EXPECT_GT(sh->wakes, 100);
	EXPECT_LT(sh->late_max, 50 * NSEC_PER_MSEC);
	hogs_kill(&self->h);
	/* the chain, deepest first */
	len = snprintf(path, sizeof(path), "%s", d);
	for (i = 0; i < DEEP; i++)
		len += snprintf(path + len, sizeof(path) - len, "/x");
	for (i = 0; i < DEEP; i++) {
		if (len >= sizeof(path) || rmdir(path))
			break;
		len -= 2;
		path[len] = 0;
	}
	EXPECT_EQ(DEEP, i) {
		TH_LOG("rmdir %s: %s", path, strerror(errno));
	}
}

TEST_F_TIMEOUT(cg, delegated_deep, 360)
{
	delegated_deep(_metadata, self, false);
}

/*
 * The same with a limit at every level nobody made (one CPU each, never
 * reached): each of the deep task's charges walks the thousand limited
 * groups (kernel/sched/smart/bandwidth.c), as fair's walks its levels.
 */
TEST_F_TIMEOUT(cg, delegated_deep_limited, 360)
{
	delegated_deep(_metadata, self, true);
}

struct periodic_result {
	long long met, missed;
};

/* 4 ms of work every 20 ms for 3 s, each period a constraint */
static void periodic_body(void *arg)
{
	struct periodic_result *r = arg;
	long long period = 20 * NSEC_PER_MSEC, t = mono_ns();
	struct smart_counts n;
	int i;

	for (i = 0; i < 150; i++) {
		struct smart_constraint c;

		smart_tc_init(&c, 0, t + period, 5 * NSEC_PER_MSEC, period, i);
		smart_tc_begin(&c);
		spin_cpu_ns(4 * NSEC_PER_MSEC);
		smart_tc_end(&c);
		t += period;
		sleep_until_ns(t);
	}
	n = smart_counts_self();
	r->met = n.met;
	r->missed = n.missed;
	pause();
}

TEST_F(cg, constrained)
{
	const char *a = cg_make(self, self->top, "a", 100);
	const char *b = cg_make(self, self->top, "b", 100);
	struct periodic_result *r = shared_alloc(sizeof(*r));
	int i;

	ASSERT_TRUE(a && b && r);
	r->missed = -1;
	r->met = -1;
	cg_hog(_metadata, self, a, CPU0, periodic_body, r);
	for (i = 0; i < 4; i++)
		cg_hog(_metadata, self, b, CPU0, NULL, NULL);
	hogs_go(&self->h);
	sleep_ns(3500 * NSEC_PER_MSEC);
	TH_LOG("20%% periodic task in a (100) beside 4 hogs in b (100): %lld met, %lld missed",
	       r->met, r->missed);
	ASSERT_GE(r->met, 0);
	EXPECT_GE(r->met * 100, (r->met + r->missed) * 95);
	EXPECT_GE(r->met + r->missed, 140);
}

/* the value of @key in @dir's cpu.stat, -1 if none */
static long long cpu_stat(const char *dir, const char *key)
{
	char path[256], k[64];
	long long v, r = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cpu.stat", dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", k, &v) == 2) {
		if (!strcmp(k, key))
			r = v;
	}
	fclose(f);
	return r;
}

/* percent of one CPU hog @i had in the last window */
static double cpu_pct(const struct hog_set *h, int i)
{
	return 100.0 * hog_delta(h, i) / (h->t1 - h->t0);
}

#define EXPECT_PCT(h, i, want, tol, what) do {				\
	double __got = cpu_pct(h, i);					\
	TH_LOG("%s: %.1f%% of a CPU (expected %.1f +- %.1f)", what,	\
	       __got, (double)(want), (double)(tol));			\
	EXPECT_TRUE(__got >= (want) - (tol) && __got <= (want) + (tol)) { \
		TH_LOG("%s: %.1f%% of a CPU, expected %.1f +- %.1f",	\
		       what, __got, (double)(want), (double)(tol));	\
	}								\
} while (0)

/* cpu.max written, or the test skipped where the kernel has none */
#define CPU_MAX(dir, val) do {						\
	int __r = write_in(dir, "cpu.max", val);			\
	if (__r == -ENOENT)						\
		SKIP(return, "no cpu.max (CONFIG_CFS_BANDWIDTH off)");	\
	ASSERT_EQ(0, __r) {						\
		TH_LOG("cpu.max %s in %s: %s", val, dir, strerror(-__r)); \
	}								\
} while (0)

TEST_F(cg, cpu_max)
{
	const char *a = cg_make(self, self->top, "a", 100);
	const char *b = cg_make(self, self->top, "b", 100);
	long long periods, throttled, usec;
	int i, parked = 0;

	ASSERT_TRUE(a && b);
	CPU_MAX(a, "20000 100000");
	cg_hog(_metadata, self, a, CPU0, NULL, NULL);
	cg_hog(_metadata, self, b, CPU0, NULL, NULL);
	hogs_go(&self->h);
	sleep_ns(NSEC_PER_SEC);
	periods = cpu_stat(a, "nr_periods");
	throttled = cpu_stat(a, "nr_throttled");
	usec = cpu_stat(a, "throttled_usec");
	hogs_measure(&self->h, 4 * NSEC_PER_SEC);
	EXPECT_PCT(&self->h, 0, 20, 2, "a (cpu.max 20000 100000)");
	EXPECT_PCT(&self->h, 1, 80, 4, "b (no limit)");
	periods = cpu_stat(a, "nr_periods") - periods;
	throttled = cpu_stat(a, "nr_throttled") - throttled;
	usec = cpu_stat(a, "throttled_usec") - usec;
	TH_LOG("in 4 s: %lld periods, %lld throttled, %lld ms throttled",
	       periods, throttled, usec / 1000);
	/*
	 * 40 periods, each throttled for at most 80 ms: less when a's hog,
	 * unparked, waits for b's quantum before it uses its 20 ms.
	 */
	EXPECT_GE(periods, 36);
	EXPECT_GE(throttled, 36);
	EXPECT_GE(usec, 1600 * 1000LL);
	EXPECT_LE(usec, 3300 * 1000LL);
	/* /proc/<pid>/sched says when a's hog is parked: most of the time */
	if (proc_smart_field(self->h.pid[0], "parked") == LLONG_MIN)
		return;		/* no CONFIG_SCHED_DEBUG */
	for (i = 0; i < 50; i++) {
		parked += proc_smart_field(self->h.pid[0], "parked") == 1;
		sleep_ns(7 * NSEC_PER_MSEC);
	}
	TH_LOG("a's hog parked in %d of 50 looks", parked);
	EXPECT_GE(parked, 10);
	EXPECT_LE(parked, 49);
}

TEST_F(cg, cpu_max_nested)
{
	const char *a, *b, *a1, *a2;

	ASSERT_TRUE(cg_nest(self, 100, &a, &b, &a1, &a2));
	CPU_MAX(a, "40000 100000");
	CPU_MAX(a1, "10000 100000");
	cg_hog(_metadata, self, a1, CPU0, NULL, NULL);
	cg_hog(_metadata, self, a2, CPU0, NULL, NULL);
	cg_hog(_metadata, self, a2, CPU0, NULL, NULL);
	cg_hog(_metadata, self, b, CPU0, NULL, NULL);
	hogs_go(&self->h);
	sleep_ns(NSEC_PER_SEC);
	hogs_measure(&self->h, 4 * NSEC_PER_SEC);
	EXPECT_PCT(&self->h, 0, 10, 2, "a/a1 (10 ms per 100 ms)");
	EXPECT_PART(&self->h, 0, 3, 40, "a (40 ms per 100 ms)");
	EXPECT_PART(&self->h, 3, 4, 60, "b (no limit)");
	/* the limits go while a is throttled: no task is left parked */
	CPU_MAX(a1, "max 100000");
	CPU_MAX(a, "max 100000");
	hogs_measure(&self->h, 2 * NSEC_PER_SEC);
	EXPECT_PART(&self->h, 0, 3, 50, "a after cpu.max max");
	EXPECT_PART(&self->h, 0, 1, 25, "a/a1 after cpu.max max");
}

TEST_F(cg, cpu_max_small)
{
	const char *a = cg_make(self, self->top, "a", 100);
	int i, n = (int)sysconf(_SC_NPROCESSORS_ONLN);
	double sum = 0;

	ASSERT_NE(NULL, a);
	if (n < 2)
		SKIP(return, "one CPU");
	n = n > 4 ? 4 : n;
	CPU_MAX(a, "5000 100000");
	for (i = 0; i < n; i++)
		cg_hog(_metadata, self, a, 1UL << i, NULL, NULL);
	hogs_go(&self->h);
	sleep_ns(NSEC_PER_SEC);
	hogs_measure(&self->h, 4 * NSEC_PER_SEC);
	for (i = 0; i < n; i++) {
		TH_LOG("hog on CPU %d: %.2f%% of a CPU", i, cpu_pct(&self->h, i));
		/* 5 / n % on average; 0.1% is 4 ms of the window */
		EXPECT_GT(cpu_pct(&self->h, i), 0.1);
		sum += cpu_pct(&self->h, i);
	}
	TH_LOG("a (5 ms per 100 ms) on %d CPUs: %.2f%% of a CPU", n, sum);
	EXPECT_LE(sum, 6);
	EXPECT_GE(sum, 4);
}

TEST_F(cg, cpu_max_offline)
{
	const char *a = cg_make(self, self->top, "a", 100);
	const char *b = cg_make(self, self->top, "b", 100);
	long long before, after;
	char online[64];
	int cpu = (int)sysconf(_SC_NPROCESSORS_ONLN) - 1;

	ASSERT_TRUE(a && b);
	snprintf(online, sizeof(online), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	if (cpu < 1 || access(online, W_OK))
		SKIP(return, "needs a CPU that can go offline");
	CPU_MAX(a, "20000 100000");
	cg_hog(_metadata, self, a, 1UL << cpu, NULL, NULL);
	cg_hog(_metadata, self, b, 1UL << cpu, NULL, NULL);
	hogs_go(&self->h);
	sleep_ns(NSEC_PER_SEC);
	/* a is throttled on @cpu most of the time: it goes then */
	ASSERT_EQ(0, write_str(online, "0"));
	hogs_measure(&self->h, 2 * NSEC_PER_SEC);
	before = hog_delta(&self->h, 0);
	TH_LOG("cpu%d offline: a %.1f%%, b %.1f%% of a CPU", cpu,
	       cpu_pct(&self->h, 0), cpu_pct(&self->h, 1));
	EXPECT_EQ(0, write_str(online, "1"));
	hogs_measure(&self->h, 2 * NSEC_PER_SEC);
	after = hog_delta(&self->h, 0);
	TH_LOG("cpu%d online again: a %.1f%% of a CPU", cpu,
	       cpu_pct(&self->h, 0));
	/* it ran, within its limit, while its CPU was away and after */
	EXPECT_GT(before, 0);
	EXPECT_LE(before, 2 * NSEC_PER_SEC * 24 / 100);
	EXPECT_GT(after, 0);
	EXPECT_LE(cpu_pct(&self->h, 0), 24);
}

TEST_HARNESS_MAIN
