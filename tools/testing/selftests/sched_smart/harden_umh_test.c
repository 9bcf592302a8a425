// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART and usermode helpers: a usermode helper (cgroup v1 release
 * agent, core-dump pipe) starts at the user default priority in
 * sched_smart=all, whatever the priority of the kernel thread that forks
 * it (kernel threads themselves: kthread_test).
 *
 * The binary is also its own helper: with --core-helper it is the
 * core_pattern pipe program, with "/smart_harden_umh.<n>" the release
 * agent.  Paths come from /proc/self/exe.
 *
 * Every test SKIPs when the kernel has no SCHED_SMART.
 */
#include <sys/mount.h>
#include <sys/stat.h>
#include "../kselftest_harness.h"
#include "util.h"
#include "harden.h"

#define CORE_PATTERN	"/proc/sys/kernel/core_pattern"

/* a usermode helper: write what SMART says about it to @out */
static int umh_report(const char *out)
{
	char tmp[PATH_MAX];
	struct smart_attr a;
	int fd, r, nice;

	r = smart_get(0, &a);
	errno = 0;
	nice = getpriority(PRIO_PROCESS, 0);
	snprintf(tmp, sizeof(tmp), "%s.tmp", out);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return 1;
	dprintf(fd, "err %d prio %d share %u nice %d policy %d pid %d ppid %d\n", -r,
		a.priority, a.share, nice, sched_getscheduler(0), getpid(), getppid());
	close(fd);
	return rename(tmp, out) ? 1 : 0;
}

/* wait up to 10 s for a helper's report; 0 or -errno, the text in *res */
static int umh_wait_report(const char *out, char **res)
{
	long long end = mono_ns() + 10 * SEC;
	ssize_t n;

	while (access(out, F_OK) && mono_ns() < end)
		sleep_ns(10 * MS);
	n = harden_read_all(out, res);
	unlink(out);
	return n > 0 ? 0 : n < 0 ? (int)n : -ENODATA;
}

/* the helper started at the user defaults: prio 0, the share of its nice */
static void umh_check(struct __test_metadata *_metadata, const char *what,
		      const char *res)
{
	int err = -1, prio = INT_MIN, nice = INT_MIN, policy = -1;
	unsigned int share = 0;

	if (sscanf(res, "err %d prio %d share %u nice %d policy %d", &err, &prio, &share,
		   &nice, &policy) != 5)
		TH_LOG("%s: incomplete report \"%s\"", what, res);
	ASSERT_EQ(0, err) {
		TH_LOG("%s: smart_getattr(0): %s", what, strerror(err));
	}
	EXPECT_EQ(SMART_PRIO_DEFAULT, prio) {
		TH_LOG("%s (a usermode helper, not a kernel thread): expected priority %d, got %d",
		       what, SMART_PRIO_DEFAULT, prio);
	}
	if (nice >= -20 && nice <= 19) {
		EXPECT_EQ(nice_to_weight(nice), share) {
			TH_LOG("%s at nice %d: expected share %u, got %u", what, nice,
			       nice_to_weight(nice), share);
		}
	}
}

/*
 * The release agent of a named cgroup v1 hierarchy: the kernel runs it
 * (call_usermodehelper() from a kworker) when a notify_on_release cgroup
 * becomes empty, with the cgroup's path as its only argument.
 */
#define UMH_CG		"smart_harden_umh"

static void umh_out_path(char *buf, size_t size, const char *cg)
{
	snprintf(buf, size, "/tmp/%s.out", cg);
}

TEST(umh_release_agent_user_prio)
{
	char exe[PATH_MAX], opts[PATH_MAX + 128], cg[32], mnt[64], dir[128], file[160];
	char out[128], *res = NULL;
	pid_t pid;
	ssize_t n;
	int r, st;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	if (smart_mode() != 1)
		SKIP(return, "sched_smart=all only (opt-in mode: %s)", smart_mode_name());
	n = readlink(SELF_EXE, exe, sizeof(exe) - 1);
	ASSERT_GT(n, 0);
	exe[n] = 0;
	if (strchr(exe, ','))
		SKIP(return, "release_agent cannot be \"%.200s\" (a comma)", exe);
	snprintf(cg, sizeof(cg), UMH_CG ".%d", (int)getpid() & 0x3fffff);
	umh_out_path(out, sizeof(out), cg);
	unlink(out);
	snprintf(mnt, sizeof(mnt), "/tmp/%s.mnt", cg);
	ASSERT_EQ(0, mkdir(mnt, 0700));
	snprintf(opts, sizeof(opts), "none,name=%s,release_agent=%s", cg, exe);
	if (mount("cgroup", mnt, "cgroup", 0, opts)) {
		r = errno;
		rmdir(mnt);
		SKIP(return, "mount a cgroup v1 hierarchy (%.300s): %s", opts, strerror(r));
	}
	snprintf(dir, sizeof(dir), "%s/%s", mnt, cg);
	r = mkdir(dir, 0755) ? -errno : 0;
	if (!r) {
		snprintf(file, sizeof(file), "%s/notify_on_release", dir);
		r = write_str(file, "1");
	}
	if (!r) {
		/* a child joins the cgroup and exits: it is empty, the agent runs */
		snprintf(file, sizeof(file), "%s/cgroup.procs", dir);
		fflush(stdout);
		fflush(stderr);
		pid = fork();
		if (pid == 0)
			_exit(write_str(file, "0") ? 1 : 0);
		st = -1;
		if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
			r = -EIO;
	}
	if (!r)
		r = umh_wait_report(out, &res);
	rmdir(dir);
	umount2(mnt, MNT_DETACH);
	rmdir(mnt);

	ASSERT_EQ(0, r) {
		TH_LOG("release agent %s for /%s: no report in %s (%s)", exe, cg, out,
		       strerror(-r));
	}
	TH_LOG("release agent: %s", res);
	umh_check(_metadata, "cgroup release agent", res);
	free(res);
}

TEST(umh_core_helper_user_prio)
{
	char exe[PATH_MAX], out[64], pat[256], *old = NULL, *res = NULL;
	int st = 0, r;
	ssize_t n;
	pid_t pid;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	if (smart_mode() != 1)
		SKIP(return, "sched_smart=all only (opt-in mode: %s)", smart_mode_name());
	n = readlink(SELF_EXE, exe, sizeof(exe) - 1);
	ASSERT_GT(n, 0);
	exe[n] = 0;
	snprintf(out, sizeof(out), "/tmp/smart_harden_core.%d", getpid());
	unlink(out);
	if ((size_t)snprintf(pat, sizeof(pat), "|%s --core-helper %s", exe, out) >= 128 ||
	    strchr(exe, ' ') || strchr(exe, '%'))
		SKIP(return,
		     "core_pattern would not hold \"%s\" (128 bytes, no spaces or %%)", pat);
	if (harden_read_all(CORE_PATTERN, &old) < 0) {
		free(old);
		SKIP(return, "no %s (CONFIG_COREDUMP off)", CORE_PATTERN);
	}
	old[strcspn(old, "\n")] = 0;
	r = write_str(CORE_PATTERN, pat);
	ASSERT_EQ(0, r) {
		TH_LOG("write %s: %s", CORE_PATTERN, strerror(-r));
	}

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };

		setrlimit(RLIMIT_CORE, &rl);
		prctl(PR_SET_DUMPABLE, 1);
		abort();
	}
	if (pid > 0)
		waitpid(pid, &st, 0);
	r = umh_wait_report(out, &res);
	/* restore before anything can fail */
	write_str(CORE_PATTERN, old);

	ASSERT_GT(pid, 0);
	TH_LOG("crashing child: %s %d%s; helper: %s", WIFSIGNALED(st) ? "signal" : "exit",
	       WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st),
	       WIFSIGNALED(st) && WCOREDUMP(st) ? " (core dumped)" : "",
	       res ? res : "(no output)\n");
	ASSERT_EQ(0, r) {
		TH_LOG("the core_pattern helper did not write %s within 10 s: %s", out,
		       strerror(-r));
	}
	umh_check(_metadata, "core-dump pipe helper", res);
	free(old);
	free(res);
}

int main(int argc, char **argv)
{
	char out[128];

	if (argc == 3 && !strcmp(argv[1], "--core-helper"))
		return umh_report(argv[2]);
	/* the release agent: argv[1] is the released cgroup */
	if (argc == 2 && !strncmp(argv[1], "/" UMH_CG ".", strlen(UMH_CG) + 2)) {
		umh_out_path(out, sizeof(out), argv[1] + 1);
		return umh_report(out);
	}
	return test_harness_run(argc, argv);
}
