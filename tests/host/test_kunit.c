// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's KUnit suite for the SMART core,
 * kernel/sched/smart/tests/algo_kunit.c, built and run on the host
 * through the stand-in include/kunit/test.h: the same file, so its
 * worked numbers are checked by `make check` before any kernel build.
 */
#include "tap.h"
#include "../../kernel/sched/smart/tests/algo_kunit.c"

int main(void)
{
	return kunit_host_run(kunit_host_suite);
}
