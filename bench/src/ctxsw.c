// SPDX-License-Identifier: GPL-2.0
/*
 * ctxsw - context-switch cost by pipe ping-pong (paper §6.3: SVR4 27 µs,
 * WFQ 42 µs, SMART 47 µs per switch).
 *
 * Two processes, both pinned to CPU 0 and both in the class of --label,
 * pass one byte back and forth over two pipes.  Each round trip is two
 * context switches (parent -> child -> parent): the reader of an empty
 * pipe blocks, so every message hands the CPU to the other process.
 * After --warmup round trips the parent times --round-trips more with
 * CLOCK_MONOTONIC and reports
 *
 *	us_per_switch = elapsed / (2 * round_trips)
 *
 * which includes the pipe write and read system calls and the wake-up,
 * as `perf bench sched pipe` does.  The class is set before fork() so
 * that the child inherits it; both processes check sched_getscheduler()
 * and fail if they are not in the class asked for.  The parent's
 * context switches (getrusage, voluntary + involuntary) are reported as
 * well ("parent_csw"): one per round trip when every message hands the
 * CPU over (the parent either blocks in read() or is preempted by the
 * child it woke).
 *
 *	SMART: SCHED_SMART, priority 0, share 1024 (smart_set_priority(0, 0))
 *	EEVDF: SCHED_OTHER, nice 0
 *	FIFO:  SCHED_FIFO, priority 50
 *
 * Output: one JSON record (bench/SCHEMA.md, experiment "ctxsw") on stdout.
 */
#include <getopt.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "benchutil.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ctxsw --label SMART|EEVDF|FIFO [--round-trips N] [--warmup N]\n"
		"\n"
		"Pipe ping-pong between two processes pinned to CPU 0, both in the class\n"
		"of the label; prints one JSON record with us_per_switch =\n"
		"elapsed / (2 * round trips).\n"
		"\n"
		"  --label L        SMART (SCHED_SMART prio 0), EEVDF (SCHED_OTHER nice 0),\n"
		"                   FIFO (SCHED_FIFO 50)\n"
		"  --round-trips N  timed round trips (default 100000)\n"
		"  --warmup N       untimed round trips first (default 1000)\n");
}

static void xwrite(int fd, const char *who)
{
	char c = 'x';

	for (;;) {
		ssize_t n = write(fd, &c, 1);

		if (n == 1)
			return;
		if (n < 0 && errno == EINTR)
			continue;
		bu_die("%s: write: %s", who, n < 0 ? strerror(errno) : "short write");
	}
}

/* 1 on a byte, 0 at EOF. */
static int xread(int fd, const char *who)
{
	char c;

	for (;;) {
		ssize_t n = read(fd, &c, 1);

		if (n == 1)
			return 1;
		if (n == 0)
			return 0;
		if (errno != EINTR)
			bu_die("%s: read: %s", who, strerror(errno));
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "label", required_argument, NULL, 'l' },
		{ "round-trips", required_argument, NULL, 'n' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t trips = 100000, warmup = 1000, i, t0, t1;
	int to_child[2], to_parent[2], opt, status, have_label = 0;
	enum bu_label label = BU_SMART;
	struct rusage ru0, ru1;
	pid_t pid;

	bu_prog = "ctxsw";
	while ((opt = getopt_long(argc, argv, "l:n:w:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'l': label = bu_parse_label(optarg); have_label = 1; break;
		case 'n': trips = bu_parse_u64("--round-trips", optarg, 1, 1000000000); break;
		case 'w': warmup = bu_parse_u64("--warmup", optarg, 0, 1000000000); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 1;
		}
	}
	if (optind != argc || !have_label) {
		usage(stderr);
		return 1;
	}

	bu_pin_cpu0();
	bu_set_policy(label, 0, 50);
	if (pipe(to_child) || pipe(to_parent))
		bu_die("pipe: %s", strerror(errno));

	pid = fork();
	if (pid < 0)
		bu_die("fork: %s", strerror(errno));
	if (pid == 0) {
		/* The child echoes every byte until the parent closes its pipe. */
		bu_prog = "ctxsw (child)";
		close(to_child[1]);
		close(to_parent[0]);
		bu_check_policy(label, "child");
		while (xread(to_child[0], "child"))
			xwrite(to_parent[1], "child");
		_exit(0);
	}
	close(to_child[0]);
	close(to_parent[1]);
	bu_check_policy(label, "parent");

	for (i = 0; i < warmup; i++) {
		xwrite(to_child[1], "parent");
		if (!xread(to_parent[0], "parent"))
			bu_die("the child exited early");
	}
	getrusage(RUSAGE_SELF, &ru0);
	t0 = bu_now_ns();
	for (i = 0; i < trips; i++) {
		xwrite(to_child[1], "parent");
		if (!xread(to_parent[0], "parent"))
			bu_die("the child exited early");
	}
	t1 = bu_now_ns();
	getrusage(RUSAGE_SELF, &ru1);

	close(to_child[1]);
	if (waitpid(pid, &status, 0) != pid)
		bu_die("waitpid: %s", strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		bu_die("the child failed (status 0x%x)", status);

	bu_json_begin("ctxsw", label, (t1 - t0) / 1e9);
	printf(",\"method\":\"pipe\",\"round_trips\":%llu,\"us_per_switch\":%.4f,"
	       "\"parent_csw\":%ld",
	       (unsigned long long)trips, (t1 - t0) / 1e3 / (2.0 * trips),
	       (ru1.ru_nvcsw + ru1.ru_nivcsw) - (ru0.ru_nvcsw + ru0.ru_nivcsw));
	bu_json_end();
	return 0;
}
