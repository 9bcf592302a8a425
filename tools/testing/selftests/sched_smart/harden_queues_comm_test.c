// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART debugfs queues view: comm is escaped, so a thread name
 * cannot forge a line; a task in an autogroup is listed in the root cgroup.
 *
 * Every test SKIPs when the kernel has no SCHED_SMART.
 */
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include "../kselftest_harness.h"
#include "util.h"
#include "harden.h"

#define QUEUES		"/sys/kernel/debug/sched/smart/queues"
#define AUTOGROUP	"/proc/sys/kernel/sched_autogroup_enabled"

/* 0 when QUEUES can be read, mounting debugfs if need be; else -errno */
static int queues_readable(void)
{
	if (access(QUEUES, R_OK)) {
		mkdir("/sys/kernel/debug", 0755);
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	}
	return access(QUEUES, R_OK) ? -errno : 0;
}

/* the line of task @tid in @text (cut at its end, in place), or NULL */
static char *queues_line(char *text, pid_t tid)
{
	char want[32], *line, *next;

	snprintf(want, sizeof(want), "task %d ", tid);
	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		if (!strncmp(line, want, strlen(want)))
			return line;
	}
	return NULL;
}

/* debugfs queues: comm cannot forge a line */
#define FORGED_NAME	"a\ntask 1 state R"

struct named {
	pid_t tid;
	int err;
	int stop;
};

static void *named_thread(void *arg)
{
	struct named *x = arg;
	int r;

	r = smart_set(0, SMART_ATTR_PRIORITY, 0, 0);
	if (!r && prctl(PR_SET_NAME, FORGED_NAME))
		r = -errno;
	x->err = -r;
	__atomic_store_n(&x->tid, sys_gettid(), __ATOMIC_RELEASE);
	while (!__atomic_load_n(&x->stop, __ATOMIC_RELAXED))
		;
	return NULL;
}

TEST(debugfs_queues_comm_escaped)
{
	struct named x = { 0 };
	char *text = NULL, *line, *next, want[32];
	bool listed = false;
	int forged = 0;
	pthread_t th;
	ssize_t n;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	n = queues_readable();
	if (n)
		SKIP(return, "%s: %s", QUEUES, strerror(-n));
	ASSERT_EQ(0, pthread_create(&th, NULL, named_thread, &x));
	while (!__atomic_load_n(&x.tid, __ATOMIC_ACQUIRE))
		sleep_ns(MS);
	sleep_ns(20 * MS);
	n = harden_read_all(QUEUES, &text);
	__atomic_store_n(&x.stop, 1, __ATOMIC_RELAXED);
	pthread_join(th, NULL);
	ASSERT_EQ(0, x.err) {
		TH_LOG("setup of the named thread: %s", strerror(x.err));
	}
	ASSERT_LT(0, n) {
		TH_LOG("read %s: %s", QUEUES, strerror(-n));
	}

	snprintf(want, sizeof(want), "task %d ", x.tid);
	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		/* pid 1 may be listed (all mode), but only as a whole record */
		if (!strncmp(line, "task 1 ", 7) && (!strstr(line, " prio ") ||
						     !strstr(line, " comm "))) {
			forged++;
			TH_LOG("forged line: \"%s\"", line);
		}
		if (!strncmp(line, want, strlen(want))) {
			const char *comm = strstr(line, " comm ");

			listed = true;
			TH_LOG("the named thread: \"%s\"", line);
			EXPECT_TRUE(comm && !strncmp(comm + 6, "a\\012task", 9)) {
				TH_LOG("comm of thread %d: expected it escaped as "
				       "\"a\\012task 1 state\", got \"%s\"", x.tid,
				       comm ? comm + 6 : "(no comm field)");
			}
		}
	}
	EXPECT_EQ(0, forged) {
		TH_LOG("a thread named \"a\\ntask 1 state R\" produced %d line(s) starting with "
		       "\"task 1 \"", forged);
	}
	EXPECT_TRUE(listed) {
		TH_LOG("the spinning SMART thread %d is not listed in %s", x.tid, QUEUES);
	}
	free(text);
}

/*
 * Debian's kernels have CONFIG_SCHED_AUTOGROUP: setsid() puts a task of the
 * root cpu cgroup in a task group of its own that has no cgroup.  Listing
 * such a SMART task once dereferenced the autogroup's NULL css.cgroup under
 * the rq lock.
 */
TEST(debugfs_queues_autogroup)
{
	unsigned long long was;
	char *text = NULL, *line, ag[64] = "";
	int go[2], st, r;
	pid_t pid;
	ssize_t n;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	if (read_u64(AUTOGROUP, &was))
		SKIP(return, "%s: no autogroups in this kernel", AUTOGROUP);
	n = queues_readable();
	if (n)
		SKIP(return, "%s: %s", QUEUES, strerror(-n));
	ASSERT_EQ(0, write_str(AUTOGROUP, "1"));
	ASSERT_EQ(0, pipe(go));
	fflush(stdout);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		char c;

		close(go[1]);
		if (setsid() < 0 || smart_set(0, SMART_ATTR_PRIORITY, 0, 0))
			_exit(1);
		/* runnable until the parent closes the pipe */
		fcntl(go[0], F_SETFL, O_NONBLOCK);
		while ((r = read(go[0], &c, 1)) < 0 && errno == EAGAIN)
			;
		_exit(r == 0 ? 0 : 2);
	}
	close(go[0]);
	sleep_ns(50 * MS);
	{
		char path[64];
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/autogroup", pid);
		f = fopen(path, "r");
		if (f && !fgets(ag, sizeof(ag), f))
			ag[0] = 0;
		if (f)
			fclose(f);
	}
	n = harden_read_all(QUEUES, &text);
	close(go[1]);
	r = waitpid(pid, &st, 0);
	write_str(AUTOGROUP, was ? "1" : "0");
	ASSERT_EQ(pid, r);
	ASSERT_TRUE(WIFEXITED(st) && !WEXITSTATUS(st)) {
		TH_LOG("child: setsid() and SCHED_SMART failed (status %#x)", st);
	}
	TH_LOG("child %d is in %s", pid, ag[0] ? strtok(ag, "\n") : "(no autogroup file)");
	EXPECT_TRUE(!strncmp(ag, "/autogroup-", 11)) {
		TH_LOG("setsid() did not put the child in an autogroup");
	}
	ASSERT_LT(0, n) {
		TH_LOG("read %s: %s", QUEUES, strerror(-n));
	}
	line = queues_line(text, pid);
	EXPECT_TRUE(line && strstr(line, " group 1 ")) {
		TH_LOG("task %d: expected \"group 1\" (the root cgroup), got \"%s\"",
		       pid, line ? line : "(not listed)");
	}
	free(text);
}

TEST_HARNESS_MAIN
