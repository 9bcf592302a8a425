// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART in /proc/<pid>/sched: the constraint fields of another
 * user's thread are hidden; the owner and root still see them.
 *
 * Every test SKIPs when the kernel has no SCHED_SMART.
 */
#include "../kselftest_harness.h"
#include "util.h"
#include "harden.h"

/* does @text have a line that starts with @name followed by ' ' or ':'? */
static bool has_line(const char *text, const char *name)
{
	size_t n = strlen(name);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, name, n) && (p[n] == ' ' || p[n] == ':'))
			return true;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return false;
}

static const char *const tc_fields[] = { "smart.deadline", "smart.estimate", "smart.used" };
#define N_TC_FIELDS	ARRAY_SIZE(tc_fields)

struct sched_reader {
	char path[96];
	bool drop;		/* read as uid 65534 */
	bool want_tc;		/* the constraint fields must be there */
};

/* check one read of /proc/<pid>/task/<tid>/sched; returns failures */
static int check_sched_file(const struct sched_reader *rd)
{
	int fails = 0;
	unsigned int i;
	char *text;
	ssize_t n;

	n = harden_read_all(rd->path, &text);
	CHK(n > 0, "uid %d: read %s: %s", (int)geteuid(), rd->path,
	    n < 0 ? strerror(-n) : "empty");
	if (n <= 0) {
		free(text);
		return fails;
	}
	CHK(has_line(text, "smart.prio") && has_line(text, "smart.share"),
	    "uid %d reading %s: smart.prio / smart.share lines missing", (int)geteuid(), rd->path);
	for (i = 0; i < N_TC_FIELDS; i++) {
		bool seen = has_line(text, tc_fields[i]);

		CHK(seen == rd->want_tc, "uid %d reading %s (thread of uid %s): %s %s, expected %s",
		    (int)geteuid(), rd->path, rd->drop ? "0" : "the reader's",
		    tc_fields[i], seen ? "shown" : "hidden", rd->want_tc ? "shown" : "hidden");
	}
	free(text);
	return fails;
}

static int sched_reader_child(void *arg)
{
	const struct sched_reader *rd = arg;
	int fails = 0, r;

	if (rd->drop) {
		r = drop_to_nobody();
		CHK(r == 0, "drop to uid %d: %s", NOBODY_ID, strerror(-r));
		if (fails)
			return fails;
	}
	return check_sched_file(rd);
}

TEST(proc_sched_hides_constraint_from_others)
{
	struct sched_reader rd = { .drop = true };
	struct smart_constraint c;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	smart_tc_init(&c, 0, mono_ns() + 5 * SEC, 10 * MS, 0, COOKIE);
	ASSERT_EQ(0, smart_tc_begin(&c));
	snprintf(rd.path, sizeof(rd.path), "/proc/%d/task/%d/sched", getpid(), sys_gettid());
	ASSERT_CHILD_OK(run_child(sched_reader_child, &rd));
	ASSERT_EQ(0, smart_tc_end(&c));
}

/* control: root and the owning user still see them */
static int owner_child(void *arg)
{
	struct sched_reader rd = { .want_tc = true };
	struct smart_constraint c;
	int fails = 0, r, st;
	pid_t pid;

	(void)arg;
	r = smart_set(0, SMART_ATTR_PRIORITY, 0, 0);
	CHK(r == 0, "enter SMART as root: %s", strerror(-r));
	r = drop_to_nobody();
	CHK(r == 0, "drop to uid %d: %s", NOBODY_ID, strerror(-r));
	prctl(PR_SET_DUMPABLE, 1);
	smart_tc_init(&c, 0, mono_ns() + 5 * SEC, 10 * MS, 0, COOKIE);
	r = smart_tc_begin(&c);
	CHK(r == 0, "uid %d: begin: %s", NOBODY_ID, strerror(-r));
	if (fails)
		return fails;
	snprintf(rd.path, sizeof(rd.path), "/proc/%d/task/%d/sched", getpid(), sys_gettid());
	fails += check_sched_file(&rd);		/* the thread itself */
	fflush(stdout);
	fflush(stderr);
	pid = fork();				/* another process of the same user */
	if (pid == 0)
		_exit(check_sched_file(&rd));
	CHK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && !WEXITSTATUS(st),
	    "a process of the same user does not see the constraint fields");
	return fails;
}

TEST(proc_sched_shows_constraint_to_owner_and_root)
{
	struct sched_reader rd = { .want_tc = true };
	struct smart_constraint c;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_CHILD_OK(run_child(owner_child, NULL));
	/* root reading another root thread */
	smart_tc_init(&c, 0, mono_ns() + 5 * SEC, 10 * MS, 0, COOKIE);
	ASSERT_EQ(0, smart_tc_begin(&c));
	snprintf(rd.path, sizeof(rd.path), "/proc/%d/task/%d/sched", getpid(), sys_gettid());
	ASSERT_CHILD_OK(run_child(sched_reader_child, &rd));
	ASSERT_EQ(0, smart_tc_end(&c));
}

TEST_HARNESS_MAIN
