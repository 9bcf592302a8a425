// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the api_*_test.c SCHED_SMART selftests (declared in
 * api.h).
 */
#include "util.h"
#include "api.h"

/* a child that blocks (SCHED_NORMAL, never runs much) until killed */
pid_t api_spawn_blocked(int nice)
{
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (nice)
			setpriority(PRIO_PROCESS, 0, nice);
		for (;;)
			pause();
	}
	return pid;
}

void api_reap(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}
