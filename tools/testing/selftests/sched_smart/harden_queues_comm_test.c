// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART debugfs queues view: comm is escaped, so a thread name
 * cannot forge a line.
 *
 * Every test SKIPs when the kernel has no SCHED_SMART.
 */
#include <sys/mount.h>
#include <sys/stat.h>
#include "../kselftest_harness.h"
#include "util.h"
#include "harden.h"

#define QUEUES		"/sys/kernel/debug/sched/smart/queues"

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
	if (access(QUEUES, R_OK)) {
		mkdir("/sys/kernel/debug", 0755);
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	}
	if (access(QUEUES, R_OK))
		SKIP(return, "%s: %s", QUEUES, strerror(errno));
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

TEST_HARNESS_MAIN
