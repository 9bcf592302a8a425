// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART on a machine whose CPUs come and go, with tasks pinned to
 * subsets of them (correctness, not timing):
 *
 *   pinned_sleepers  tasks pinned to one or two CPUs (the last one, the
 *                    second, a pair in the middle) sleep while those CPUs
 *                    go offline, then are woken: each runs within 2 s,
 *                    and again once the CPUs are back.  A wake-up that
 *                    finds no active allowed CPU must not pick CPU -1
 *                    (the kernel log of the boot is checked for splats)
 *   suspend          every non-boot CPU offline in turn and back, as
 *                    suspend does, under a hog pinned to each CPU, free
 *                    hogs and pinned sleepers: no hog lost, every hog
 *                    runs while only CPU 0 is left, every sleeper wakes,
 *                    and the CPUs are used again afterwards
 *   pinned_pairs     4+ CPUs: two hogs pinned to CPU 1 and two movable
 *                    hogs started on CPU 2: the movable ones end up on
 *                    CPUs of their own (>= 75% of a CPU each), although
 *                    CPU 1 has waiting tasks too, which cannot move
 *   partitions       4+ CPUs: a cgroup v2 cpuset partition of CPUs 2-3 as
 *                    a root partition (a root domain of its own), then
 *                    isolated, then a member again, with four hogs in it
 *                    and two outside, and CPU 3 unplugged and back while
 *                    it is a root partition: the hogs in it stay on its
 *                    CPUs and share them, the others stay out, none is
 *                    lost
 *   pull_past_probes 12+ CPUs: two hogs on CPU 2 that may also run on CPU
 *                    3, while CPUs 4-7 are overloaded with hogs that may
 *                    not come to CPU 3 (nor leave for CPUs 8-11, as busy):
 *                    CPU 3 pulls one, so each hog gets >= 75% of a CPU.
 *                    A pull probes at most 4 overloaded CPUs from the
 *                    next one on: CPU 3 probed CPUs 4-7 and stayed idle,
 *                    until the CPU that kicks it says where to look
 *   partition_apart  the same with CPUs 2-3 a root partition: with one
 *                    set of overload masks for all root domains CPU 3
 *                    looked at the CPUs outside it first
 *   wake_cost        two tasks that wake each other through pipes, as
 *                    `perf bench sched pipe` does, free to run anywhere:
 *                    a round trip with every CPU online costs at most
 *                    1.5x what it costs with CPUs 2 and up offline (the
 *                    placement of a wake-up must not scan the machine)
 */
#include "../kselftest_harness.h"
#include "util.h"
#include <poll.h>
#include <sys/mount.h>
#include <sys/stat.h>

#define MAX_CPUS	64

static int present_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	return n > MAX_CPUS ? MAX_CPUS : (int)n;
}

static void online_path(char *buf, size_t len, int cpu)
{
	snprintf(buf, len, "/sys/devices/system/cpu/cpu%d/online", cpu);
}

static bool can_hotplug(int cpu)
{
	char path[64];

	online_path(path, sizeof(path), cpu);
	return !access(path, W_OK);
}

FIXTURE(hp) {
	struct hog_set h;
	int ncpu;
	bool offlined[MAX_CPUS];
	char part[128];		/* a cpuset partition to remove */
};

static int set_online(FIXTURE_DATA(hp) * self, int cpu, bool on)
{
	char path[64];
	int r;

	online_path(path, sizeof(path), cpu);
	r = write_str(path, on ? "1\n" : "0\n");
	if (!r)
		self->offlined[cpu] = !on;
	return r;
}

FIXTURE_SETUP(hp)
{
	hogs_init(&self->h);
	memset(self->offlined, 0, sizeof(self->offlined));
	self->part[0] = 0;
	REQUIRE_SMART();
	REQUIRE_ROOT();
	self->ncpu = present_cpus();
	if (online_cpus() < 3 || online_cpus() != self->ncpu)
		SKIP(return, "needs >= 3 CPUs, all online (%d of %d online)",
		     online_cpus(), self->ncpu);
	if (!can_hotplug(1))
		SKIP(return, "CPU 1 cannot be hot-unplugged");
	TH_LOG("mode %s, %d CPUs", smart_mode_name(), self->ncpu);
}

FIXTURE_TEARDOWN_PARENT(hp)
{
	int c;

	for (c = 0; c < MAX_CPUS; c++)
		if (self->offlined[c] && set_online(self, c, true))
			TH_LOG("could not bring CPU %d back online", c);
	hogs_kill(&self->h);
	if (self->part[0] && rmdir(self->part))
		TH_LOG("could not remove %s: %s", self->part, strerror(errno));
}

/* ------------------------------------------------------------------ */

/*
 * A sleeper: blocks in read() on its ping pipe and answers each byte with
 * the CPU it woke on.  SMART as every hog here is (smart_set()).
 */
struct sleeper {
	pid_t pid;
	int ping, pong;		/* our ends */
	unsigned long mask;
};

static void sleeper_loop(int in, int out)
{
	char c;
	int cpu;

	while (read(in, &c, 1) == 1) {
		cpu = sched_getcpu();
		if (write(out, &cpu, sizeof(cpu)) != sizeof(cpu))
			break;
	}
	_exit(0);
}

static int sleeper_start(struct sleeper *s, unsigned long mask)
{
	int a[2], b[2];

	if (pipe(a) || pipe(b))
		return -1;
	fflush(stdout);
	fflush(stderr);
	s->pid = fork();
	if (s->pid < 0)
		return -1;
	if (s->pid == 0) {
		int fd;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* Nothing else of the parent's: a hog's go pipe must close. */
		for (fd = 3; fd < 1024; fd++)
			if (fd != a[0] && fd != b[1])
				close(fd);
		if (pin_mask(0, mask))
			_exit(2);
		sleeper_loop(a[0], b[1]);
	}
	close(a[0]);
	close(b[1]);
	s->ping = a[1];
	s->pong = b[0];
	s->mask = mask;
	return smart_set(s->pid, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, 0, 1024);
}

/* Wake it; return the CPU it answered from, -1 if none within @ms. */
static int sleeper_ping(struct sleeper *s, int ms)
{
	struct pollfd pfd = { .fd = s->pong, .events = POLLIN };
	int cpu;

	if (write(s->ping, "p", 1) != 1 || poll(&pfd, 1, ms) != 1 ||
	    read(s->pong, &cpu, sizeof(cpu)) != sizeof(cpu))
		return -1;
	return cpu;
}

static void sleeper_stop(struct sleeper *s)
{
	if (s->pid <= 0)
		return;
	close(s->ping);
	close(s->pong);
	kill(s->pid, SIGKILL);
	waitpid(s->pid, NULL, 0);
	s->pid = -1;
}

/* Back in read(), asleep (for at most a second). */
static void wait_asleep(struct sleeper *s)
{
	long long end = mono_ns() + NSEC_PER_SEC;

	while (proc_state(s->pid) != 'S' && mono_ns() < end)
		sleep_ns(NSEC_PER_MSEC);
}

/* ------------------------------------------------------------------ */

#define SETS	4

TEST_F_TIMEOUT(hp, pinned_sleepers, 240)
{
	int n = self->ncpu, last = n - 1, mid = n / 2;
	unsigned long sets[SETS] = {
		1UL << last,				/* the last CPU */
		1UL << 1,				/* the second */
		(1UL << mid) | (1UL << (mid + 1 < n ? mid + 1 : 1)),
		(1UL << 1) | (1UL << last),		/* two far apart */
	};
	struct sleeper s[2];
	int i, k, c, cpu, r;

	for (i = 0; i < SETS; i++) {
		unsigned long m = sets[i];

		for (c = 1; c < n; c++)
			if (((m >> c) & 1) && !can_hotplug(c))
				SKIP(return, "CPU %d cannot be hot-unplugged", c);
		/* Two per set: a wake-up from each side of the offlining. */
		for (k = 0; k < 2; k++) {
			ASSERT_EQ(0, sleeper_start(&s[k], m));
			cpu = sleeper_ping(&s[k], 2000);
			ASSERT_TRUE(cpu >= 0 && ((m >> cpu) & 1)) {
				TH_LOG("set %#lx: the sleeper answered from CPU %d", m, cpu);
			}
			wait_asleep(&s[k]);
		}
		for (c = 1; c < n; c++) {
			if (!((m >> c) & 1))
				continue;
			r = set_online(self, c, false);
			ASSERT_EQ(0, r) {
				TH_LOG("offlining CPU %d: %s", c, strerror(-r));
			}
		}
		for (k = 0; k < 2; k++) {
			cpu = sleeper_ping(&s[k], 2000);
			EXPECT_GE(cpu, 0) {
				TH_LOG("set %#lx offline: sleeper %d did not wake within 2 s", m, k);
			}
			TH_LOG("set %#lx offline: sleeper %d woke on CPU %d", m, k, cpu);
		}
		for (c = 1; c < n; c++) {
			if (!self->offlined[c])
				continue;
			r = set_online(self, c, true);
			ASSERT_EQ(0, r) {
				TH_LOG("onlining CPU %d: %s", c, strerror(-r));
			}
		}
		for (k = 0; k < 2; k++) {
			EXPECT_GE(sleeper_ping(&s[k], 2000), 0) {
				TH_LOG("set %#lx back: sleeper %d did not wake within 2 s", m, k);
			}
			sleeper_stop(&s[k]);
		}
	}
}

/* ------------------------------------------------------------------ */

/* Every hog alive, with >= 10% of its fair part; return their CPU time. */
static long long check_hogs(struct __test_metadata *_metadata, struct hog_set *h,
			    int cpus, const char *when)
{
	long long wall = h->t1 - h->t0, fair = wall * cpus / h->n, total = 0;
	int i;

	for (i = 0; i < h->n; i++) {
		total += hog_delta(h, i);
		EXPECT_TRUE(hog_alive(h, i)) {
			TH_LOG("%s: hog %d (pid %d) is gone", when, i, h->pid[i]);
		}
		EXPECT_GE(hog_delta(h, i) * 10, fair) {
			pid_t pid = h->pid[i];

			TH_LOG("%s: hog %d got %.1f ms in %.1f ms, expected at least 10%% "
			       "of its fair %.1f ms", when, i, smart_ms(hog_delta(h, i)),
			       smart_ms(wall), smart_ms(fair));
			/* where it is and what holds it back, beside hog 0 */
			TH_LOG("%s: hog %d on CPU %d: state %lld lag %lld bias %lld exec %lld; "
			       "hog 0 on CPU %d: lag %lld bias %lld", when, i,
			       proc_stat_cpu(pid), proc_smart_field(pid, "state"),
			       proc_smart_field(pid, "lag_ns"), proc_smart_field(pid, "bias"),
			       proc_smart_field(pid, "exec"), proc_stat_cpu(h->pid[0]),
			       proc_smart_field(h->pid[0], "lag_ns"),
			       proc_smart_field(h->pid[0], "bias"));
		}
	}
	TH_LOG("%s: %d hogs used %.2f CPUs", when, h->n, (double)total / wall);
	return total;
}

TEST_F_TIMEOUT(hp, suspend, 280)
{
	int n = self->ncpu, c, k, nh, cpu;
	struct sleeper s[MAX_CPUS];
	long long t, wall, total;

	memset(s, 0, sizeof(s));
	for (c = 1; c < n; c++)
		if (!can_hotplug(c))
			SKIP(return, "CPU %d cannot be hot-unplugged", c);
	for (c = 1; c < n; c++) {
		ASSERT_EQ(0, sleeper_start(&s[c], 1UL << c));
		ASSERT_EQ(c, sleeper_ping(&s[c], 2000));
		wait_asleep(&s[c]);
	}
	nh = n + n / 2 < MAX_HOGS ? n + n / 2 : MAX_HOGS;
	for (k = 0; k < nh; k++) {
		ASSERT_LT(0, hog_spawn(&self->h, k < n ? 1UL << k : 0, hog_spin_forever, NULL));
		ASSERT_EQ(0, smart_set(self->h.pid[k], SMART_ATTR_PRIORITY | SMART_ATTR_SHARE,
				       0, 1024));
	}
	hogs_go(&self->h);
	sleep_ns(300 * NSEC_PER_MSEC);

	t = mono_ns();
	for (c = 1; c < n; c++) {
		ASSERT_EQ(0, set_online(self, c, false)) {
			TH_LOG("offlining CPU %d", c);
		}
	}
	TH_LOG("CPUs 1-%d offline in %.0f ms", n - 1, smart_ms(mono_ns() - t));
	hogs_measure(&self->h, 2 * NSEC_PER_SEC);
	check_hogs(_metadata, &self->h, 1, "only CPU 0");
	for (c = 1; c < n; c++) {
		cpu = sleeper_ping(&s[c], 2000);
		EXPECT_EQ(0, cpu) {
			TH_LOG("sleeper pinned to CPU %d: answered from %d", c, cpu);
		}
	}

	t = mono_ns();
	for (c = 1; c < n; c++) {
		ASSERT_EQ(0, set_online(self, c, true)) {
			TH_LOG("onlining CPU %d", c);
		}
	}
	TH_LOG("CPUs 1-%d online in %.0f ms", n - 1, smart_ms(mono_ns() - t));
	sleep_ns(500 * NSEC_PER_MSEC);
	hogs_measure(&self->h, NSEC_PER_SEC);
	wall = self->h.t1 - self->h.t0;
	total = check_hogs(_metadata, &self->h, n, "all back");
	EXPECT_GT(total * 2, wall * n) {
		TH_LOG("%d hogs on %d CPUs used only %.2f CPUs once they were back",
		       nh, n, (double)total / wall);
	}
	for (c = 1; c < n; c++) {
		EXPECT_GE(sleeper_ping(&s[c], 2000), 0);
		sleeper_stop(&s[c]);
	}
}

/* ------------------------------------------------------------------ */

TEST_F(hp, pinned_pairs)
{
	long long wall;
	int k;

	if (self->ncpu < 4)
		SKIP(return, "needs >= 4 CPUs (have %d)", self->ncpu);
	for (k = 0; k < 4; k++) {
		ASSERT_LT(0, hog_spawn(&self->h, k < 2 ? 1UL << 1 : 1UL << 2,
				       hog_spin_forever, NULL));
		ASSERT_EQ(0, smart_set(self->h.pid[k], SMART_ATTR_PRIORITY | SMART_ATTR_SHARE,
				       0, 1024));
	}
	hogs_go(&self->h);
	sleep_ns(200 * NSEC_PER_MSEC);
	/* Now the two on CPU 2 may go anywhere. */
	ASSERT_EQ(0, pin_mask(self->h.pid[2], 0));
	ASSERT_EQ(0, pin_mask(self->h.pid[3], 0));
	sleep_ns(NSEC_PER_SEC);
	hogs_measure(&self->h, 2 * NSEC_PER_SEC);
	wall = self->h.t1 - self->h.t0;
	for (k = 0; k < 4; k++)
		TH_LOG("hog %d (%s): %.0f%% of a CPU", k, k < 2 ? "CPU 1" : "movable",
		       100.0 * hog_delta(&self->h, k) / wall);
	for (k = 2; k < 4; k++) {
		EXPECT_GE(hog_delta(&self->h, k) * 4, wall * 3) {
			TH_LOG("movable hog %d: %.0f%% of a CPU with %d CPUs idle",
			       k, 100.0 * hog_delta(&self->h, k) / wall, self->ncpu - 3);
		}
	}
}

/* ------------------------------------------------------------------ */

#define CGROOT		"/sys/fs/cgroup"

/* The CPUs hogs [from, to) are on now, from /proc. */
static unsigned long hogs_cpus(struct hog_set *h, int from, int to)
{
	unsigned long m = 0;
	int i, cpu;

	for (i = from; i < to; i++) {
		cpu = proc_stat_cpu(h->pid[i]);
		if (cpu >= 0 && cpu < 64)
			m |= 1UL << cpu;
	}
	return m;
}

/* the hogs in the partition (0-3) and outside (4-5), sampled a few times */
static void check_partition(struct __test_metadata *_metadata, struct hog_set *h,
			    unsigned long part, int part_cpus, const char *what)
{
	unsigned long in = 0, out = 0;
	long long wall, sum = 0;
	int k, round;

	sleep_ns(300 * NSEC_PER_MSEC);
	h->t0 = hogs_sample(h, h->cpu0);
	for (round = 0; round < 10; round++) {
		sleep_ns(100 * NSEC_PER_MSEC);
		in |= hogs_cpus(h, 0, 4);
		out |= hogs_cpus(h, 4, 6);
	}
	h->t1 = hogs_sample(h, h->cpu1);
	wall = h->t1 - h->t0;
	for (k = 0; k < 4; k++)
		sum += hog_delta(h, k);
	TH_LOG("%s: hogs inside on CPUs %#lx used %.2f CPUs; outside on %#lx, "
	       "%.0f%% and %.0f%% of a CPU", what, in, (double)sum / wall, out,
	       100.0 * hog_delta(h, 4) / wall, 100.0 * hog_delta(h, 5) / wall);
	for (k = 0; k < 6; k++) {
		EXPECT_TRUE(hog_alive(h, k)) {
			TH_LOG("%s: hog %d is gone", what, k);
		}
	}
	EXPECT_EQ(0UL, in & ~part) {
		TH_LOG("%s: a hog of the partition ran outside it (%#lx)", what, in);
	}
	EXPECT_EQ(0UL, out & part) {
		TH_LOG("%s: a hog outside ran in the partition (%#lx)", what, out);
	}
	/* 4 hogs on the partition's CPUs: they use them (at least 80%). */
	EXPECT_GE(sum * 10, wall * part_cpus * 8) {
		TH_LOG("%s: the hogs of the partition used %.2f of its %d CPUs", what,
		       (double)sum / wall, part_cpus);
	}
}

/*
 * A cgroup v2 cpuset of CPUs 2-3 in self->part (removed at teardown).
 * Return: false if the test was skipped or failed.
 */
static bool cpuset_2_3(struct __test_metadata *_metadata,
		       FIXTURE_DATA(hp) * self)
{
	char *dir = self->part;
	struct stat st;

	if (stat(CGROOT "/cgroup.controllers", &st) &&
	    mount("none", CGROOT, "cgroup2", 0, NULL))
		SKIP(return false, "no cgroup v2 at " CGROOT);
	if (write_in(CGROOT, "cgroup.subtree_control", "+cpuset"))
		SKIP(return false, "no cpuset controller: %s", strerror(errno));
	snprintf(dir, sizeof(self->part), CGROOT "/smart-part-%d", getpid());
	ASSERT_EQ(0, mkdir(dir, 0755)) {
		dir[0] = 0;
	}
	EXPECT_EQ(0, write_in(dir, "cpuset.cpus", "2-3"));
	EXPECT_EQ(0, write_in(dir, "cpuset.mems", "0"));
	return !_metadata->exit_code;
}

TEST_F_TIMEOUT(hp, partitions, 120)
{
	char *dir = self->part, pids[32];
	unsigned long part = (1UL << 2) | (1UL << 3);
	int k, r;

	if (self->ncpu < 4)
		SKIP(return, "needs >= 4 CPUs (have %d)", self->ncpu);
	if (!cpuset_2_3(_metadata, self))
		return;
	for (k = 0; k < 6; k++) {
		ASSERT_LT(0, hog_spawn(&self->h, 0, hog_spin_forever, NULL));
		ASSERT_EQ(0, smart_set(self->h.pid[k], SMART_ATTR_PRIORITY | SMART_ATTR_SHARE,
				       0, 1024));
		if (k < 4) {
			snprintf(pids, sizeof(pids), "%d\n", self->h.pid[k]);
			ASSERT_EQ(0, write_in(dir, "cgroup.procs", pids));
		}
	}
	/* The outside ones may not use the partition's CPUs once it is one. */
	hogs_go(&self->h);

	r = write_in(dir, "cpuset.cpus.partition", "root");
	EXPECT_EQ(0, r) {
		TH_LOG("root partition: %s", strerror(-r));
	}
	if (!r) {
		check_partition(_metadata, &self->h, part, 2, "root partition");
		ASSERT_EQ(0, set_online(self, 3, false));
		check_partition(_metadata, &self->h, 1UL << 2, 1, "root partition, CPU 3 offline");
		ASSERT_EQ(0, set_online(self, 3, true));
		check_partition(_metadata, &self->h, part, 2, "root partition, CPU 3 back");
	}
	r = write_in(dir, "cpuset.cpus.partition", "isolated");
	EXPECT_EQ(0, r) {
		TH_LOG("isolated partition: %s", strerror(-r));
	}
	if (!r)
		check_partition(_metadata, &self->h, part, 2, "isolated partition");
	EXPECT_EQ(0, write_in(dir, "cpuset.cpus.partition", "member"));
}

/* pull_past_probes and partition_apart: CPUs 2-3, a partition or not */
static void two_on_cpu2(struct __test_metadata *_metadata,
			FIXTURE_DATA(hp) * self, bool partition)
{
	char *dir = self->part, pids[32];
	long long wall;
	int c, k, r;

	if (self->ncpu < 12)
		SKIP(return, "needs >= 12 CPUs (have %d)", self->ncpu);
	if (partition) {
		if (!cpuset_2_3(_metadata, self))
			return;
	}
	/* hogs 0-1 on CPU 2; two on each of CPUs 4-11 */
	for (k = 0; k < 18; k++) {
		unsigned long mask = 1UL << 2;

		c = 4 + (k - 2) / 2;
		if (k >= 2)
			mask = c < 8 ? (1UL << c) | (1UL << (c + 4)) : 1UL << c;
		ASSERT_LT(0, hog_spawn(&self->h, mask, hog_spin_forever, NULL));
		ASSERT_EQ(0, smart_set(self->h.pid[k], SMART_ATTR_PRIORITY | SMART_ATTR_SHARE,
				       0, 1024));
		if (partition && k < 2) {
			snprintf(pids, sizeof(pids), "%d\n", self->h.pid[k]);
			ASSERT_EQ(0, write_in(dir, "cgroup.procs", pids));
		}
	}
	if (partition) {
		r = write_in(dir, "cpuset.cpus.partition", "root");
		ASSERT_EQ(0, r) {
			TH_LOG("root partition: %s", strerror(-r));
		}
	}
	hogs_go(&self->h);
	sleep_ns(500 * NSEC_PER_MSEC);
	/* Now the two on CPU 2 may use CPU 3, idle. */
	for (k = 0; k < 2; k++)
		ASSERT_EQ(0, pin_mask(self->h.pid[k], (1UL << 2) | (1UL << 3)));
	sleep_ns(NSEC_PER_SEC);
	hogs_measure(&self->h, 2 * NSEC_PER_SEC);
	wall = self->h.t1 - self->h.t0;
	for (k = 0; k < 2; k++) {
		TH_LOG("hog %d on CPUs 2-3%s: %.0f%% of a CPU", k,
		       partition ? " (a partition)" : "",
		       100.0 * hog_delta(&self->h, k) / wall);
		EXPECT_GE(hog_delta(&self->h, k) * 4, wall * 3) {
			TH_LOG("CPU 3 stayed idle beside them");
		}
	}
}

TEST_F_TIMEOUT(hp, pull_past_probes, 120)
{
	two_on_cpu2(_metadata, self, false);
}

TEST_F_TIMEOUT(hp, partition_apart, 120)
{
	two_on_cpu2(_metadata, self, true);
}

/* ------------------------------------------------------------------ */

#define PP_ROUNDS	5
#define PP_TRIPS	4000
#define PP_ROUND_NS	(400 * NSEC_PER_MSEC)

/*
 * ns per round trip between this task and a SMART sleeper free to run
 * anywhere (its answer is the CPU it woke on): the best of PP_ROUNDS
 * rounds of PP_TRIPS trips, or of PP_ROUND_NS on a slow kernel (KCSAN, a
 * busy host)
 */
static long long pingpong_ns(void)
{
	struct sleeper s = { .pid = -1 };
	long long best = LLONG_MAX;
	int r, k, cpu;

	if (sleeper_start(&s, 0))
		best = -1;
	for (r = 0; r < PP_ROUNDS && best > 0; r++) {
		long long t = mono_ns();
		bool ok = true;

		for (k = 0; ok && k < PP_TRIPS && (k % 64 || mono_ns() - t < PP_ROUND_NS); k++)
			ok = write(s.ping, "p", 1) == 1 &&
			     read(s.pong, &cpu, sizeof(cpu)) == sizeof(cpu);
		t = ok ? (mono_ns() - t) / k : -1;
		best = t < 0 ? -1 : (t < best ? t : best);
	}
	sleeper_stop(&s);
	return best;
}

TEST_F_TIMEOUT(hp, wake_cost, 240)
{
	int n = self->ncpu, c;
	long long many, two, again;

	for (c = 2; c < n; c++)
		if (!can_hotplug(c))
			SKIP(return, "CPU %d cannot be hot-unplugged", c);
	ASSERT_EQ(0, smart_set(0, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, 0, 1024));
	many = pingpong_ns();
	for (c = 2; c < n; c++)
		ASSERT_EQ(0, set_online(self, c, false)) {
			TH_LOG("offlining CPU %d", c);
		}
	two = pingpong_ns();
	for (c = 2; c < n; c++)
		ASSERT_EQ(0, set_online(self, c, true)) {
			TH_LOG("onlining CPU %d", c);
		}
	again = pingpong_ns();
	ASSERT_LT(0, many);
	ASSERT_LT(0, two);
	ASSERT_LT(0, again);
	TH_LOG("round trip: %.1f us with %d CPUs, %.1f us with 2, %.1f us with %d again (%.2fx)",
	       many / 1e3, n, two / 1e3, again / 1e3, n,
	       (double)(many < again ? many : again) / two);
	/* the better of the two measurements with every CPU: the host may have stolen time */
	EXPECT_LE((many < again ? many : again) * 2, two * 3);
}

TEST_HARNESS_MAIN
