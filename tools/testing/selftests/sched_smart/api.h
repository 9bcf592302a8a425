/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the api_*_test.c SCHED_SMART selftests (api.c).
 */
#ifndef SMART_SELFTEST_API_H
#define SMART_SELFTEST_API_H

#include <sys/types.h>

/* api_spawn_blocked() - fork a child that blocks at @nice until killed */
pid_t api_spawn_blocked(int nice);

/* api_reap() - SIGKILL and reap a child of api_spawn_blocked() (if @pid > 0) */
void api_reap(pid_t pid);

#endif /* SMART_SELFTEST_API_H */
