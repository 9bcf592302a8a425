// SPDX-License-Identifier: GPL-2.0
/*
 * smart-demo: three CPU hogs pinned to one CPU under SCHED_SMART with shares
 * 1024:1024:2048; prints the CPU time each got against its ideal share.
 *
 *   smart-demo [SECONDS] [CPU]        defaults: 3 s on CPU 0
 *
 * Built statically by `make demo` (build/demo/smart-demo); run in the guest by
 * scripts/demo.sh. Exit 1 if the SMART syscall fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/smart_sched.h>

#ifndef __NR_smart_setattr
#define __NR_smart_setattr 463
#endif

#define NCHILD 3
static const unsigned int shares[NCHILD] = { 1024, 1024, 2048 };

static void hog(int go_fd, int cpu)
{
	cpu_set_t set;
	char c;
	volatile unsigned long n = 0;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("sched_setaffinity");
	if (read(go_fd, &c, 1) < 0) /* blocks until the parent closes the pipe */
		_exit(2);
	for (;;)
		n++;
}

static long long cpu_ns(pid_t pid)
{
	clockid_t clk;
	struct timespec ts;

	if (clock_getcpuclockid(pid, &clk) || clock_gettime(clk, &ts))
		return -1;
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	int secs = argc > 1 ? atoi(argv[1]) : 3;
	int cpu = argc > 2 ? atoi(argv[2]) : 0;
	pid_t pid[NCHILD];
	long long ns[NCHILD], total = 0;
	unsigned int share_sum = 0;
	int go[2], i, err = 0;

	if (pipe(go)) {
		perror("pipe");
		return 1;
	}
	for (i = 0; i < NCHILD; i++) {
		pid[i] = fork();
		if (pid[i] < 0) {
			perror("fork");
			return 1;
		}
		if (pid[i] == 0) {
			close(go[1]);
			hog(go[0], cpu);
		}
	}
	close(go[0]);

	for (i = 0; i < NCHILD; i++) {
		struct smart_attr attr;

		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.mask = SMART_ATTR_SHARE;
		attr.share = shares[i];
		if (syscall(__NR_smart_setattr, pid[i], &attr, 0)) {
			err = errno;
			fprintf(stderr, "smart-demo: smart_setattr(pid %d, share %u) [syscall %d] failed: errno %d (%s)\n",
				pid[i], shares[i], __NR_smart_setattr, err, strerror(err));
			break;
		}
		share_sum += shares[i];
	}
	if (err) {
		for (i = 0; i < NCHILD; i++)
			kill(pid[i], SIGKILL);
		while (wait(NULL) > 0)
			;
		if (err == ENOSYS)
			fprintf(stderr, "smart-demo: this kernel has no SMART syscalls (not a SMART kernel?)\n");
		return 1;
	}

	printf("smart-demo: %d hogs on CPU %d under SCHED_SMART for %d s\n", NCHILD, cpu, secs);
	close(go[1]); /* start */
	sleep(secs);
	for (i = 0; i < NCHILD; i++) {
		ns[i] = cpu_ns(pid[i]);
		total += ns[i] > 0 ? ns[i] : 0;
	}
	for (i = 0; i < NCHILD; i++)
		kill(pid[i], SIGKILL);
	while (wait(NULL) > 0)
		;

	printf("%-6s %-8s %6s %10s %8s %8s %8s\n", "child", "pid", "share", "cpu_ms", "got%", "ideal%", "got/ideal");
	for (i = 0; i < NCHILD; i++) {
		double got = total ? 100.0 * ns[i] / total : 0;
		double ideal = 100.0 * shares[i] / share_sum;

		printf("%-6d %-8d %6u %10.1f %7.1f%% %7.1f%% %8.2f\n", i, pid[i], shares[i],
		       ns[i] / 1e6, got, ideal, ideal ? got / ideal : 0);
	}
	printf("total cpu %.1f ms in %d s\n", total / 1e6, secs);
	return 0;
}
