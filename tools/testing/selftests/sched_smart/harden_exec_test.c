// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART and execve: execve ends the constraint and drops its
 * notification; a setuid exec resets the notify signal.
 *
 * The binary is also the program a test execs: with --exec-check /
 * --exec-suid-check it checks the state the exec left.  Paths come from
 * /proc/self/exe.
 *
 * Every test SKIPs when the kernel has no SCHED_SMART.
 */
#include <sys/stat.h>
#include <sys/statvfs.h>
#include "../kselftest_harness.h"
#include "util.h"
#include "harden.h"

#define EXEC_WAIT	(150 * MS)	/* how long past the deadline the new program waits */

FIXTURE(exec_tc) {};
FIXTURE_VARIANT(exec_tc) {
	long long ahead;	/* deadline - now at begin */
	long long estimate;
	bool pending;		/* the notification is queued before the exec */
	bool end_first;		/* the new program ends before it waits */
};

FIXTURE_SETUP(exec_tc)
{
	REQUIRE_SMART();
	REQUIRE_ROOT();
}

FIXTURE_TEARDOWN(exec_tc) {}

/*
 * Feasible at the exec: notified (latest start) while the new program
 * sleeps, unless the exec ended it.  The margins allow for a slow exec.
 */
FIXTURE_VARIANT_ADD(exec_tc, end_then_wait) {
	.ahead = 250 * MS, .estimate = 100 * MS, .end_first = true };
FIXTURE_VARIANT_ADD(exec_tc, not_yet_sent) {
	.ahead = 250 * MS, .estimate = 100 * MS };
/* infeasible from the start: the notification is pending at the exec */
FIXTURE_VARIANT_ADD(exec_tc, pending) {
	.ahead = 200 * MS, .estimate = 500 * MS, .pending = true };

static void block_notes(int sig)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGXCPU);
	sigaddset(&s, sig);
	sigprocmask(SIG_BLOCK, &s, NULL);
}

static int exec_child(void *arg)
{
	const FIXTURE_VARIANT(exec_tc) * v = arg;
	char a_dl[32], a_met[32], a_missed[32], a_sig[16];
	struct smart_constraint c;
	struct smart_counts n;
	int fails = 0, r;
	long long dl;
	sigset_t p;

	block_notes(SMART_NOTE_SIG);
	r = smart_set_signal(SMART_NOTE_SIG);
	CHK(r == 0, "notify_signal %d: %s", SMART_NOTE_SIG, strerror(-r));
	n = smart_counts_self();
	dl = mono_ns() + v->ahead;
	smart_tc_init(&c, SMART_CONSTRAINT_NOTIFY, dl, v->estimate, 0, COOKIE);
	r = smart_tc_begin(&c);
	CHK(r == 0, "begin NOTIFY estimate %.0f ms deadline +%.0f ms: %s", smart_ms(v->estimate),
	    smart_ms(v->ahead), strerror(-r));
	if (v->pending) {
		sleep_ns(30 * MS);
		sigpending(&p);
		CHK(sigismember(&p, SMART_NOTE_SIG),
		    "setup: estimate %.0f ms, deadline +%.0f ms (%s): no notification pending "
		    "30 ms later", smart_ms(v->estimate), smart_ms(v->ahead),
		    smart_status_name(c.status));
	}
	if (fails)
		return fails;
	snprintf(a_dl, sizeof(a_dl), "%lld", dl);
	snprintf(a_met, sizeof(a_met), "%lld", n.met);
	snprintf(a_missed, sizeof(a_missed), "%lld", n.missed);
	snprintf(a_sig, sizeof(a_sig), "%d", SMART_NOTE_SIG);
	fflush(stdout);
	fflush(stderr);
	execl(SELF_EXE, SELF_EXE, "--exec-check", v->end_first ? "end-first" : "wait-first",
	      a_dl, a_met, a_missed, a_sig, (char *)NULL);
	CHK(0, "execl(%s): %s", SELF_EXE, strerror(errno));
	return fails;
}

/* In the new program: SMART notifications that arrive until @until. */
static int exec_wait_notes(int sig, long long until)
{
	struct timespec ts;
	siginfo_t si;
	long long left;
	int notes = 0, s;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGXCPU);
	sigaddset(&set, sig);
	while ((left = until - mono_ns()) > 0) {
		ts.tv_sec = left / SEC;
		ts.tv_nsec = left % SEC;
		s = sigtimedwait(&set, &si, &ts);
		if (s < 0)
			continue;	/* EAGAIN: time is up; EINTR: again */
		printf("# new program got signal %d si_code %d (%s) cookie %#llx\n", s,
		       si.si_code, smart_code_name(si.si_code),
		       (unsigned long long)(uintptr_t)si.si_value.sival_ptr);
		if (si.si_code == SMART_NOTIFY_INFEASIBLE || si.si_code == SMART_NOTIFY_EXPIRED)
			notes++;
	}
	return notes;
}

static int exec_end_enoent(void)
{
	struct smart_constraint c;
	int fails = 0, r;

	smart_tc_init(&c, 0, mono_ns() + SEC, MS, 0, 0);
	r = smart_tc_end(&c);
	CHK(r == -ENOENT, "new program: smart_constraint_end: expected ENOENT, got %s "
	    "(the constraint survived execve: cookie %#llx status %s)",
	    r ? strerror(-r) : "success", (unsigned long long)c.cookie,
	    smart_status_name(c.status));
	return fails;
}

/* --exec-check end-first|wait-first <deadline> <met> <missed> <signal> */
static int exec_check(char **argv)
{
	bool end_first = !strcmp(argv[2], "end-first");
	long long dl = atoll(argv[3]);
	long long met0 = atoll(argv[4]), missed0 = atoll(argv[5]);
	int sig = atoi(argv[6]), fails = 0, notes;
	struct smart_counts n;
	struct smart_attr a;

	if (end_first)
		fails += exec_end_enoent();
	notes = exec_wait_notes(sig, dl + EXEC_WAIT);
	CHK(notes == 0, "new program: expected no notification of the constraint begun before "
	    "execve, got %d (waited until %.0f ms past its deadline)", notes, smart_ms(EXEC_WAIT));
	if (!end_first)
		fails += exec_end_enoent();
	n = smart_counts_self();
	CHK(n.met == met0 + 1 && n.missed == missed0,
	    "counters: met %+lld missed %+lld, expected +1 +0 (execve ends the constraint "
	    "before its deadline: met)", n.met - met0, n.missed - missed0);
	smart_get(0, &a);
	CHK(a.notify_signal == sig,
	    "notify_signal across a plain execve: expected %d (kept), got %d",
	    sig, a.notify_signal);
	fflush(stdout);
	fflush(stderr);
	return fails > 100 ? 100 : fails;
}

TEST_F(exec_tc, ends_constraint_drops_notification)
{
	ASSERT_CHILD_OK(run_child(exec_child, (void *)variant));
}

/* A setuid exec resets the notify signal. */
#define SUID_NOT_APPLIED	99

static int copy_file(const char *from, const char *to, mode_t mode)
{
	char buf[65536];
	int in, out, err = 0;
	ssize_t n;

	in = open(from, O_RDONLY);
	if (in < 0)
		return -errno;
	out = open(to, O_WRONLY | O_CREAT | O_EXCL, 0700);
	if (out < 0) {
		err = -errno;
		close(in);
		return err;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		if (write(out, buf, n) != n) {
			err = -EIO;
			break;
		}
	}
	if (n < 0)
		err = -errno;
	if (!err && (fchown(out, 0, 0) || fchmod(out, mode)))
		err = -errno;
	close(in);
	close(out);
	return err;
}

static int suid_child(void *arg)
{
	const char *copy = arg;
	struct smart_attr a;
	int fails = 0, r;

	r = smart_set_signal(SIGUSR2);
	CHK(r == 0, "notify_signal SIGUSR2: %s", strerror(-r));
	r = drop_to_nobody();
	CHK(r == 0, "drop to uid %d: %s", NOBODY_ID, strerror(-r));
	smart_get(0, &a);
	CHK(a.notify_signal == SIGUSR2, "before the exec: notify_signal %d", a.notify_signal);
	if (fails)
		return fails;
	fflush(stdout);
	fflush(stderr);
	execl(copy, copy, "--exec-suid-check", (char *)NULL);
	CHK(0, "execl(%s): %s", copy, strerror(errno));
	return fails;
}

static int exec_suid_check(void)
{
	struct smart_attr a;
	int fails = 0, r;

	if (geteuid() != 0)
		return SUID_NOT_APPLIED;
	r = smart_get(0, &a);
	CHK(r == 0, "getattr: %s", strerror(-r));
	CHK(a.notify_signal == 0 || a.notify_signal == SIGXCPU,
	    "after a setuid execve: expected notify_signal 0 (SIGXCPU), got %d (chosen by uid %d "
	    "before the exec)", a.notify_signal, NOBODY_ID);
	fflush(stdout);
	fflush(stderr);
	return fails;
}

TEST(exec_setuid_resets_signal)
{
	char copy[64];
	struct statvfs vfs;
	int r, st;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	snprintf(copy, sizeof(copy), "/tmp/smart_harden_suid.%d", getpid());
	unlink(copy);
	r = copy_file(SELF_EXE, copy, 04755);
	if (r) {
		unlink(copy);
		SKIP(return, "cannot make a setuid copy at %s: %s", copy, strerror(-r));
	}
	if (statvfs(copy, &vfs) == 0 && (vfs.f_flag & ST_NOSUID)) {
		unlink(copy);
		SKIP(return, "/tmp is mounted nosuid");
	}
	st = run_child(suid_child, copy);
	unlink(copy);
	if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == SUID_NOT_APPLIED)
		SKIP(return, "the setuid bit of %s was not applied", copy);
	ASSERT_CHILD_OK(st);
}

int main(int argc, char **argv)
{
	if (argc == 7 && !strcmp(argv[1], "--exec-check"))
		return exec_check(argv);
	if (argc == 2 && !strcmp(argv[1], "--exec-suid-check"))
		return exec_suid_check();
	return test_harness_run(argc, argv);
}
