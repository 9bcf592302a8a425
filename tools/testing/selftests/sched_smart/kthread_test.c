// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel threads under sched_smart=all: they start at the default
 * priority with the share of their nice value, and one that waits behind
 * tasks raised above them runs within SMART_KTHREAD_STARVE_NS (20 ms)
 * and a slice.
 *
 *   kthreadd_default_standing  pid 2 has priority 0 and the default share
 *   kworker.beside_hogs        per-CPU work (a write to
 *                              /proc/sys/vm/stat_refresh runs a work item
 *                              on every CPU and waits for them all)
 *                              finishes within 100 ms beside two
 *                              priority-0 hogs per CPU
 *   kworker.beside_raised_hogs ... and beside a hog an administrator
 *                              raised to SMART_PRIO_MAX on every CPU
 *
 * The writer runs on the controller CPU as SCHED_FIFO, without a hog.
 * Every test SKIPs outside sched_smart=all.
 */
#include "../kselftest_harness.h"
#include "util.h"

#define STAT_REFRESH	"/proc/sys/vm/stat_refresh"
#define WRITES		20
#define WAIT_MAX_NS	(100 * MS)

#define REQUIRE_ALL() do {						\
	if (smart_mode() != 1)						\
		SKIP(return, "sched_smart=all only (mode: %s)",		\
		     smart_mode_name());				\
} while (0)

TEST(kthreadd_default_standing)
{
	struct smart_attr a;
	char *comm = NULL;
	FILE *f;

	REQUIRE_SMART();
	REQUIRE_ALL();
	f = fopen("/proc/2/comm", "r");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(1, fscanf(f, "%ms", &comm));
	fclose(f);
	ASSERT_STREQ("kthreadd", comm);
	free(comm);
	ASSERT_EQ(0, smart_get(2, &a));
	EXPECT_EQ(SMART_PRIO_DEFAULT, a.priority);
	EXPECT_EQ((__u32)SMART_SHARE_DEFAULT, a.share);
}

FIXTURE(kworker) {
	struct hog_set h;
	int ncpu;
	int ctl;
};

FIXTURE_SETUP(kworker)
{
	hogs_init(&self->h);
	REQUIRE_SMART();
	REQUIRE_ROOT();
	REQUIRE_ALL();
	self->ncpu = online_cpus();	/* before controller_setup() pins us */
	if (self->ncpu < 2)
		SKIP(return, "needs 2 CPUs: one for the writer");
	if (access(STAT_REFRESH, W_OK))
		SKIP(return, "%s: %s", STAT_REFRESH, strerror(errno));
	self->ctl = controller_cpu();
	controller_setup(self->ctl);
}

FIXTURE_TEARDOWN(kworker)
{
	hogs_kill(&self->h);
}

/*
 * Spawn @per_cpu hogs on every CPU but the controller's, at @prio, and
 * time WRITES writes to STAT_REFRESH; each must end within WAIT_MAX_NS.
 */
static void kworker_run(struct __test_metadata *_metadata,
			FIXTURE_DATA(kworker) * self, int per_cpu, int prio)
{
	long long t, worst = 0, sum = 0;
	int cpu, i, r, ncpu = self->ncpu;
	pid_t pid;

	for (cpu = 0; cpu < ncpu && cpu < 64; cpu++) {
		if (cpu == self->ctl)
			continue;
		for (i = 0; i < per_cpu; i++) {
			pid = hog_spawn(&self->h, 1UL << cpu, hog_spin_forever, NULL);
			ASSERT_LT(0, pid);
			r = smart_set(pid, SMART_ATTR_PRIORITY, prio, 0);
			ASSERT_EQ(0, r) {
				TH_LOG("priority %d for hog %d: %s", prio, pid, strerror(-r));
			}
		}
	}
	hogs_go(&self->h);
	sleep_ns(200 * MS);
	for (i = 0; i < WRITES; i++) {
		t = mono_ns();
		r = write_str(STAT_REFRESH, "1");
		t = mono_ns() - t;
		ASSERT_EQ(0, r) {
			TH_LOG("write %s: %s", STAT_REFRESH, strerror(-r));
		}
		sum += t;
		worst = t > worst ? t : worst;
		sleep_ns(10 * MS);
	}
	TH_LOG("%d hog(s) at priority %d on each of %d CPUs: %d writes took %.1f ms "
	       "on average, %.1f ms at most", per_cpu, prio, ncpu - 1, WRITES,
	       sum / WRITES / 1e6, worst / 1e6);
	for (i = 0; i < self->h.n; i++)
		ASSERT_TRUE(hog_alive(&self->h, i));
	EXPECT_LE(worst, WAIT_MAX_NS) {
		TH_LOG("the kworkers of the hogs' CPUs waited up to %.1f ms, expected "
		       "at most %.0f", worst / 1e6, WAIT_MAX_NS / 1e6);
	}
}

TEST_F(kworker, beside_hogs)
{
	kworker_run(_metadata, self, 2, SMART_PRIO_DEFAULT);
}

TEST_F(kworker, beside_raised_hogs)
{
	kworker_run(_metadata, self, 1, SMART_PRIO_MAX);
}

TEST_HARNESS_MAIN
