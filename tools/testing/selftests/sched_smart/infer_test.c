// SPDX-License-Identifier: GPL-2.0
/*
 * Inferred constraints: a SMART thread that makes no constraint of its
 * own but wakes once a period and uses about the same CPU time each time
 * is taken as periodic; smart_getattr() and /proc/<pid>/sched show the
 * period and demand the kernel inferred, and its releases run under an
 * implicit constraint.  A CPU-bound thread is left alone, an explicit
 * constraint overrides the inference, and kernel.smart.infer=0 or
 * SMART_FLAG_NO_INFER turn it off.
 *
 * The periodic thread runs in a child, pinned to one CPU, entering
 * SCHED_SMART by smart_setattr() (in sched_smart=all it is there
 * already); the child checks with CHK() and exits with its failure count.
 */
#include <sys/stat.h>
#include "../kselftest_harness.h"
#include "util.h"

#define PERIOD_NS	(40 * NSEC_PER_MSEC)
#define DEMAND_NS	(8 * NSEC_PER_MSEC)
#define RELEASES	40
#define INFER_KNOB	SMART_SYSCTL_DIR "infer"

/* What the child is to do and what it saw. */
struct infer_run {
	bool no_infer_flag;	/* set SMART_FLAG_NO_INFER first */
	bool explicit_after;	/* then RELEASES more with explicit constraints */
	bool cpu_bound;		/* spin without sleeping instead */
	bool expect_periodic;
	int end_errno;		/* smart_constraint_end() with only an implicit one */
	unsigned long long implicit, met, missed;
};

/* One field of /proc/self/task/<tid>/sched, -1 if absent. */
static long long proc_sched_field(const char *name)
{
	char path[64], line[256];
	long long v = -1;
	size_t len = strlen(name);
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/sched", (int)sys_gettid());
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *s = line;

		while (*s == ' ')
			s++;
		if (!strncmp(s, "smart.", 6) && !strncmp(s + 6, name, len) &&
		    (s[6 + len] == ' ' || s[6 + len] == ':')) {
			s = strchr(s, ':');
			if (s)
				v = atoll(s + 1);
			break;
		}
	}
	fclose(f);
	return v;
}

/*
 * RELEASES periods: sleep to the release, use DEMAND_NS of CPU.  Return
 * the demand per period as the kernel smooths it (infer.c): the thread's
 * CPU time from one wake-up to the next, moved by 1/8 towards each
 * sample whose wake-up keeps the rhythm (within a quarter of a period of
 * a whole number of periods after the last one kept).  The same CPU
 * clock on both sides, the same weights: a stalled virtual CPU or the
 * call to sleep adds to what the kernel sees and to this alike.
 */
static long long run_periods(long long *t)
{
	long long cpu, now, rel = 0, rel_cpu = 0, demand = 0;

	for (int i = 0; i < RELEASES; i++) {
		*t += PERIOD_NS;
		sleep_until_ns(*t);
		now = mono_ns();
		cpu = thread_cpu_ns();
		if (!rel) {
			rel = now;
			rel_cpu = cpu;
		} else {
			for (int k = 1; k <= 3; k++) {
				if (llabs(now - rel - k * PERIOD_NS) > PERIOD_NS / 4)
					continue;
				if (!demand)
					demand = cpu - rel_cpu;
				else
					demand += (cpu - rel_cpu - demand) / 8;
				rel = now;
				rel_cpu = cpu;
				break;
			}
		}
		spin_cpu_ns(DEMAND_NS);
	}
	return demand;
}

static int infer_child(void *arg)
{
	struct infer_run *r = arg;
	struct smart_attr a = { .size = sizeof(a), .mask = SMART_ATTR_PRIORITY };
	struct smart_constraint c;
	long long t, demand = 0;
	int fails = 0;

	pin_to(0, 0);
	if (r->no_infer_flag) {
		a.mask |= SMART_ATTR_FLAGS;
		a.flags = SMART_FLAG_NO_INFER;
	}
	/* In sched_smart=all mode an unmodified program makes no call. */
	if (smart_mode() != 1 || r->no_infer_flag)
		CHK(smart_setattr(0, &a, 0) == 0, "smart_setattr: %s", strerror(errno));
	t = mono_ns();
	if (r->cpu_bound)
		spin_cpu_ns(RELEASES * PERIOD_NS / 2);
	else
		demand = run_periods(&t);

	CHK(smart_get(0, &a) == 0, "smart_getattr");
	r->implicit = proc_sched_field("infer_implicit");
	r->met = proc_sched_field("infer_met");
	r->missed = proc_sched_field("infer_missed");
	smart_tc_init(&c, 0, 0, 0, 0, 0);
	r->end_errno = smart_tc_end(&c);
	if (r->expect_periodic) {
		long long dp = (long long)a.infer_period_ns - PERIOD_NS;
		long long dd = (long long)a.infer_demand_ns - demand;

		CHK(llabs(dp) <= PERIOD_NS / 10,
		    "period: expected %lld ns +- 10%%, inferred %llu ns",
		    PERIOD_NS, (unsigned long long)a.infer_period_ns);
		CHK(llabs(dd) <= demand / 10,
		    "demand: expected %lld ns +- 10%% (measured, smoothed alike), inferred %llu ns",
		    demand, (unsigned long long)a.infer_demand_ns);
		CHK(r->implicit == 1, "infer_implicit: expected 1, read %llu", r->implicit);
		CHK(r->met >= RELEASES / 2,
		    "implicit constraints met: expected >= %d, read %llu (missed %llu)",
		    RELEASES / 2, r->met, r->missed);
		printf("# inferred period %llu ns, demand %llu ns (measured %lld); implicit met %llu, missed %llu\n",
		       (unsigned long long)a.infer_period_ns,
		       (unsigned long long)a.infer_demand_ns, demand, r->met, r->missed);
	} else {
		CHK(a.infer_period_ns == 0 && a.infer_demand_ns == 0,
		    "expected nothing inferred, got period %llu demand %llu",
		    (unsigned long long)a.infer_period_ns,
		    (unsigned long long)a.infer_demand_ns);
		CHK(r->implicit == 0, "infer_implicit: expected 0, read %llu", r->implicit);
	}
	/* An implicit constraint is not the thread's to end. */
	CHK(r->end_errno == -ENOENT, "smart_constraint_end: expected ENOENT, got %s",
	    strerror(-r->end_errno));

	if (r->explicit_after) {
		unsigned long long met0 = a.constraints_met;

		for (int i = 0; i < RELEASES; i++) {
			t += PERIOD_NS;
			sleep_until_ns(t);
			smart_tc_init(&c, 0, t + PERIOD_NS, 2 * DEMAND_NS, PERIOD_NS, i);
			CHK(smart_tc_begin(&c) == 0, "begin: %s", strerror(errno));
			spin_cpu_ns(DEMAND_NS);
			smart_tc_init(&c, 0, 0, 0, 0, 0);
			CHK(smart_tc_end(&c) == 0, "end of an explicit one: %s", strerror(errno));
			CHK(c.cookie == (unsigned long long)i && c.estimate == 2 * DEMAND_NS,
			    "end returned cookie %llu estimate %llu: not the explicit one",
			    (unsigned long long)c.cookie, (unsigned long long)c.estimate);
		}
		CHK(smart_get(0, &a) == 0, "smart_getattr");
		CHK(a.infer_period_ns == 0, "explicit constraints: inference goes on (period %llu)",
		    (unsigned long long)a.infer_period_ns);
		CHK(a.constraints_met - met0 >= RELEASES * 9 / 10,
		    "explicit constraints met: %llu of %d",
		    (unsigned long long)(a.constraints_met - met0), RELEASES);
		CHK(proc_sched_field("infer_implicit") == 0, "an implicit constraint is active");
	}
	return fails;
}

static void set_infer(struct __test_metadata *_metadata, const char *v)
{
	int r = write_str(INFER_KNOB, v);

	ASSERT_EQ(0, r) {
		TH_LOG("writing %s to " INFER_KNOB ": %s", v, strerror(-r));
	}
}

TEST(periodic_is_inferred)
{
	struct infer_run *r = shared_alloc(sizeof(*r));

	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_NE(NULL, r);
	r->expect_periodic = true;
	ASSERT_CHILD_OK(run_child(infer_child, r));
}

TEST(cpu_bound_left_alone)
{
	struct infer_run *r = shared_alloc(sizeof(*r));

	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_NE(NULL, r);
	r->cpu_bound = true;
	ASSERT_CHILD_OK(run_child(infer_child, r));
}

TEST(explicit_overrides)
{
	struct infer_run *r = shared_alloc(sizeof(*r));

	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_NE(NULL, r);
	r->expect_periodic = true;
	r->explicit_after = true;
	ASSERT_CHILD_OK(run_child(infer_child, r));
}

TEST(sysctl_off)
{
	struct infer_run *r = shared_alloc(sizeof(*r));
	unsigned long long v;
	int st;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, read_u64(INFER_KNOB, &v));
	EXPECT_EQ(1ULL, v) TH_LOG("kernel.smart.infer: expected default 1, read %llu", v);
	/* out of range: refused, the value kept */
	EXPECT_EQ(-EINVAL, write_str(INFER_KNOB, "2\n"));
	EXPECT_EQ(-EINVAL, write_str(INFER_KNOB, "-1\n"));
	ASSERT_EQ(0, read_u64(INFER_KNOB, &v));
	EXPECT_EQ(1ULL, v);
	set_infer(_metadata, "0\n");
	st = run_child(infer_child, r);
	set_infer(_metadata, "1\n");
	ASSERT_CHILD_OK(st);
}

TEST(flag_off)
{
	struct infer_run *r = shared_alloc(sizeof(*r));
	struct smart_attr a;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_NE(NULL, r);
	r->no_infer_flag = true;
	ASSERT_CHILD_OK(run_child(infer_child, r));
	/* and the flag reads back */
	a = (struct smart_attr){ .size = sizeof(a), .mask = SMART_ATTR_FLAGS,
				 .flags = SMART_FLAG_NO_INFER };
	ASSERT_EQ(0, smart_setattr(0, &a, 0));
	ASSERT_EQ(0, smart_get(0, &a));
	EXPECT_EQ((__u32)SMART_FLAG_NO_INFER, a.flags);
	a.mask = SMART_ATTR_FLAGS;
	a.flags = 0;
	ASSERT_EQ(0, smart_setattr(0, &a, 0));
}

/* The smart_infer tracepoint reports the period when it is found. */
TEST(tracepoint)
{
	static const char inst[] = "/sys/kernel/tracing/instances/smart_infer_test";
	struct infer_run *r = shared_alloc(sizeof(*r));
	char path[160], line[512];
	bool seen = false;
	int st, n = 0;
	FILE *f;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_NE(NULL, r);
	rmdir(inst);
	if (mkdir(inst, 0755))
		SKIP(return, "no tracefs instance at %s: %s", inst, strerror(errno));
	snprintf(path, sizeof(path), "%s/events/smart/smart_infer/enable", inst);
	if (write_str(path, "1\n")) {
		rmdir(inst);
		SKIP(return, "no smart_infer event in this kernel");
	}
	r->expect_periodic = true;
	st = run_child(infer_child, r);
	write_str(path, "0\n");
	snprintf(path, sizeof(path), "%s/trace", inst);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long period = 0;
		char *p = strstr(line, "smart_infer:");

		if (!p)
			continue;
		p = strstr(p, " period=");
		if (!p)
			continue;
		n++;
		period = strtoull(p + 8, NULL, 10);
		if (period >= PERIOD_NS - PERIOD_NS / 10 &&
		    period <= PERIOD_NS + PERIOD_NS / 10)
			seen = true;
	}
	if (f)
		fclose(f);
	rmdir(inst);
	ASSERT_CHILD_OK(st);
	EXPECT_TRUE(seen) TH_LOG("no smart_infer event with period %lld ns +- 10%% among %d",
				 PERIOD_NS, n);
}

TEST(unprivileged_sysctl)
{
	int st;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	st = fork();
	ASSERT_LE(0, st);
	if (st == 0) {
		if (drop_to_nobody())
			_exit(2);
		_exit(write_str(INFER_KNOB, "0\n") == -EACCES ? 0 : 1);
	}
	ASSERT_EQ(st, waitpid(st, &st, 0));
	ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0)
		TH_LOG("nobody could write " INFER_KNOB " (or could not drop privileges)");
}

TEST_HARNESS_MAIN
