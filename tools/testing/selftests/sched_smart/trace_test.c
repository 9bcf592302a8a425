// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART tracepoints, recorded with trace-cmd (as a user would) during
 * a known workload on one CPU with a SMART hog beside it:
 *
 *   1. a feasible NOTIFY constraint (5 ms by +50 ms, cookie A) that sleeps
 *      1 ms in the middle: smart_constraint_begin (feasible, its deadline,
 *      estimate and cookie), smart_pick of the thread by the working
 *      schedule (reason=schedule, its deadline), smart_constraint_end
 *      (met, why=end);
 *   2. an infeasible NOTIFY constraint (40 ms by +20 ms, cookie B):
 *      smart_notify (code=infeasible, cookie B, lead_ns > 0) and the signal;
 *   3. a constraint that sleeps past its deadline: smart_constraint_end
 *      (missed, why=expired);
 *   4. the hog completes quanta: smart_quantum with its pid.
 *
 * And the state views: /proc/<pid>/sched shows a hog's SMART priority and
 * share; /sys/kernel/debug/sched/smart/queues lists it on its CPU with
 * them, as running or waiting.
 *
 * SKIPs without SMART, trace-cmd or debugfs.
 */
#include <sys/stat.h>
#include "../kselftest_harness.h"
#include "util.h"

#define TRACE_DAT	"/tmp/smart_trace_test.dat"
#define COOKIE_A	0x5a5a0001ULL
#define COOKIE_B	0x5a5a0002ULL

static bool have_trace_cmd(void)
{
	return system("trace-cmd --help >/dev/null 2>&1") != 127 * 256 &&
	       system("command -v trace-cmd >/dev/null 2>&1") == 0;
}

/*
 * trace-cmd record -e smart until SIGINT; returns once it says it is
 * recording ("Hit Ctrl^C to stop recording"), or after 20 s.
 */
static pid_t start_recorder(void)
{
	long long end = mono_ns() + 20 * NSEC_PER_SEC;
	char out[4096];
	size_t len = 0;
	int fd[2];
	pid_t pid;

	unlink(TRACE_DAT);
	if (pipe(fd))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		dup2(fd[1], 1);
		dup2(fd[1], 2);
		close(fd[0]);
		execlp("trace-cmd", "trace-cmd", "record", "-e", "smart",
		       "-o", TRACE_DAT, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	fcntl(fd[0], F_SETFL, O_NONBLOCK);
	while (mono_ns() < end && len < sizeof(out) - 1) {
		ssize_t n = read(fd[0], out + len, sizeof(out) - 1 - len);

		if (n > 0) {
			len += n;
			out[len] = 0;
			if (strstr(out, "Ctrl^C"))
				break;
		} else if (n < 0) {
			sleep_ns(20 * MS);
		} else {
			break;		/* it exited */
		}
	}
	/* its later output (statistics) fits in the pipe */
	return pid;
}

static int stop_recorder(pid_t pid)
{
	int st;

	kill(pid, SIGINT);
	if (waitpid(pid, &st, 0) != pid)
		return -1000;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
}

struct expect {
	const char *what;	/* the test's name for it */
	const char *event;	/* "smart_pick:" */
	char need[4][96];	/* fields that must all be on the line */
	bool lead_positive;	/* smart_notify: lead_ns > 0 */
	int seen;
	char line[320];
};

static void match(struct expect *e, const char *line)
{
	const char *ev = strstr(line, e->event);
	int i;

	if (!ev)
		return;
	for (i = 0; i < 4; i++)
		if (e->need[i][0] && !strstr(ev, e->need[i]))
			return;
	if (e->lead_positive) {
		const char *l = strstr(ev, "lead_ns=");

		if (!l || atoll(l + 8) <= 0)
			return;
	}
	if (!e->seen++)
		snprintf(e->line, sizeof(e->line), "%s", ev);
}

static void hog_body(void *arg)
{
	(void)arg;
	if (smart_mode() == 0) {
		struct sched_attr a = { .size = sizeof(a), .sched_policy = 8 };

		if (sys_sched_setattr(0, &a, 0))
			_exit(5);
	}
	hog_spin_forever(NULL);
}

/*
 * trace-cmd under a slow kernel (KCSAN under TCG) needs more than the
 * harness' 30 s: a fixture only for the timeout.
 */
FIXTURE(rec) {};
FIXTURE_SETUP(rec) {}
FIXTURE_TEARDOWN(rec) {}

TEST_F_TIMEOUT(rec, smart_events, 180)
{
	struct expect ex[] = {
		{ .what = "begin of the feasible constraint", .event = "smart_constraint_begin:" },
		{ .what = "its pick from the working schedule", .event = "smart_pick:" },
		{ .what = "its end (met)", .event = "smart_constraint_end:" },
		{ .what = "notification of the infeasible one", .event = "smart_notify:" },
		{ .what = "begin of the infeasible one", .event = "smart_constraint_begin:" },
		{ .what = "expiry of the sleeping one", .event = "smart_constraint_end:" },
		{ .what = "a quantum of the hog", .event = "smart_quantum:" },
	};
	struct smart_constraint c;
	struct hog_set h;
	char buf[512];
	long long d1, d2, now;
	pid_t rec, hog, tid = sys_gettid();
	long notes;
	FILE *f;
	int i, r;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	if (!have_trace_cmd())
		SKIP(return, "trace-cmd not found");

	/* The recorder first: unpinned, in its own policy. */
	rec = start_recorder();
	ASSERT_GT(rec, 0);
	ASSERT_EQ(0, pin_to(0, 0));
	if (smart_mode() == 0) {
		struct sched_attr a = { .size = sizeof(a), .sched_policy = 8 };

		ASSERT_EQ(0, sys_sched_setattr(0, &a, 0));
	}
	{
		struct smart_attr a = { .size = sizeof(a), .mask = SMART_ATTR_SIGNAL,
					.notify_signal = SMART_NOTE_SIG };

		ASSERT_EQ(0, smart_setattr(0, &a, 0));
	}
	ASSERT_EQ(0, smart_note_install(SMART_NOTE_SIG));

	hogs_init(&h);
	hog = hog_spawn(&h, 1, hog_body, NULL);
	ASSERT_GT(hog, 0);
	hogs_go(&h);
	sleep_ns(100 * MS);

	/* 1: feasible, sleeps 1 ms inside so that it is picked again */
	now = mono_ns();
	d1 = now + 50 * MS;
	smart_tc_init(&c, SMART_CONSTRAINT_NOTIFY, d1, 5 * MS, 0, COOKIE_A);
	ASSERT_EQ(0, smart_tc_begin(&c));
	spin_cpu_ns(1 * MS);
	sleep_ns(1 * MS);
	spin_cpu_ns(2 * MS);
	ASSERT_EQ(0, smart_tc_end(&c));

	/* 2: infeasible from the start */
	notes = smart_note_count();
	now = mono_ns();
	d2 = now + 20 * MS;
	smart_tc_init(&c, SMART_CONSTRAINT_NOTIFY, d2, 40 * MS, 0, COOKIE_B);
	ASSERT_EQ(0, smart_tc_begin(&c));
	EXPECT_TRUE(smart_note_wait(notes, 200 * MS));
	smart_tc_end(&c);

	/* 3: sleeps past its deadline */
	smart_tc_init(&c, 0, mono_ns() + 10 * MS, 1 * MS, 0, 3);
	ASSERT_EQ(0, smart_tc_begin(&c));
	sleep_ns(30 * MS);
	EXPECT_EQ(-ENOENT, smart_tc_end(&c));

	sleep_ns(100 * MS);
	r = stop_recorder(rec);
	hogs_kill(&h);
	ASSERT_EQ(0, r) {
		TH_LOG("trace-cmd record: exit status %d (negative: killed by that signal)", r);
	}

	snprintf(ex[0].need[0], 96, "pid=%d ", tid);
	snprintf(ex[0].need[1], 96, "deadline=%lld ", d1);
	snprintf(ex[0].need[2], 96, "estimate=5000000 ");
	snprintf(ex[0].need[3], 96, "status=feasible flags=notify cookie=%#llx", COOKIE_A);
	snprintf(ex[1].need[0], 96, "pid=%d ", tid);
	snprintf(ex[1].need[1], 96, "reason=schedule deadline=%lld ", d1);
	snprintf(ex[2].need[0], 96, "pid=%d ", tid);
	snprintf(ex[2].need[1], 96, "deadline=%lld ", d1);
	snprintf(ex[2].need[2], 96, "status=met why=end");
	snprintf(ex[3].need[0], 96, "pid=%d ", tid);
	snprintf(ex[3].need[1], 96, "code=infeasible cookie=%#llx deadline=%lld ", COOKIE_B, d2);
	ex[3].lead_positive = true;
	snprintf(ex[4].need[0], 96, "pid=%d ", tid);
	snprintf(ex[4].need[1], 96, "status=infeasible flags=notify cookie=%#llx", COOKIE_B);
	snprintf(ex[5].need[0], 96, "pid=%d ", tid);
	snprintf(ex[5].need[1], 96, "status=missed why=expired");
	snprintf(ex[6].need[0], 96, "pid=%d ", hog);

	f = popen("trace-cmd report -i " TRACE_DAT " 2>/dev/null", "r");
	ASSERT_NE(NULL, f);
	while (fgets(buf, sizeof(buf), f))
		for (i = 0; i < (int)ARRAY_SIZE(ex); i++)
			match(&ex[i], buf);
	pclose(f);

	for (i = 0; i < (int)ARRAY_SIZE(ex); i++) {
		if (ex[i].seen)
			TH_LOG("%s: %d events, e.g. %.200s", ex[i].what, ex[i].seen,
			       ex[i].line);
		EXPECT_GT(ex[i].seen, 0) {
			TH_LOG("%s: no %s event with \"%s\" \"%s\" \"%s\" \"%s\"%s",
			       ex[i].what, ex[i].event, ex[i].need[0], ex[i].need[1],
			       ex[i].need[2], ex[i].need[3],
			       ex[i].lead_positive ? " and lead_ns > 0" : "");
		}
	}
	unlink(TRACE_DAT);
}

/* a SMART hog on CPU 0 at priority 3, share 777 */
static void hog777_body(void *arg)
{
	struct smart_attr a = { .size = sizeof(a),
				.mask = SMART_ATTR_PRIORITY | SMART_ATTR_SHARE,
				.priority = 3, .share = 777 };

	(void)arg;
	if (smart_setattr(0, &a, 0))
		_exit(5);
	hog_spin_forever(NULL);
}

TEST(proc_sched_and_queues)
{
	char want[96], line[512];
	bool on_cpu0 = false, listed = false;
	struct hog_set h;
	int cpu = -1;
	pid_t hog;
	FILE *f;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	hogs_init(&h);
	hog = hog_spawn(&h, 1, hog777_body, NULL);
	ASSERT_GT(hog, 0);
	hogs_go(&h);
	sleep_ns(200 * MS);

	EXPECT_EQ(3, proc_smart_field(hog, "prio"));
	EXPECT_EQ(777, proc_smart_field(hog, "share"));
	EXPECT_EQ(0, proc_smart_field(hog, "deadline"));

	f = fopen("/sys/kernel/debug/sched/smart/queues", "r");
	if (!f) {
		hogs_kill(&h);
		SKIP(return, "no /sys/kernel/debug/sched/smart/queues: %s", strerror(errno));
	}
	snprintf(want, sizeof(want), "task %d state ", hog);
	ASSERT_NE(NULL, fgets(line, sizeof(line), f));
	EXPECT_STREQ("version 1\n", line);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "cpu %d", &cpu) == 1)
			continue;
		if (strncmp(line, want, strlen(want)))
			continue;
		listed = true;
		on_cpu0 = cpu == 0;
		TH_LOG("queues, cpu %d: %.200s", cpu, line);
		EXPECT_NE(NULL, strstr(line, " prio 3 share 777 "));
		EXPECT_TRUE(line[strlen(want)] == 'R' || line[strlen(want)] == 'Q');
	}
	fclose(f);
	hogs_kill(&h);
	EXPECT_TRUE(listed) {
		TH_LOG("hog %d not in the queues file", hog);
	}
	EXPECT_TRUE(on_cpu0) {
		TH_LOG("hog %d pinned to CPU 0 listed under cpu %d", hog, cpu);
	}
}

TEST_HARNESS_MAIN
