// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART user API: the thread smart_setattr() and smart_getattr() act
 * on.  smart_setattr() moves a SCHED_OTHER thread into SCHED_SMART and
 * changes only the thread it names; smart_getattr() on a task outside
 * SCHED_SMART reports its nice share without moving it; a thread that does
 * not exist is ESRCH for both.
 *
 * Every test SKIPs when the kernel has no SCHED_SMART.
 */
#include "../kselftest_harness.h"
#include "util.h"
#include "api.h"

/* ------------------------------------------------------------------ */
/* setattr/getattr targets                                             */

TEST(setattr_moves_to_smart)
{
	struct smart_attr a;

	REQUIRE_SMART();
	REQUIRE_ROOT();

	ASSERT_EQ(SCHED_OTHER, sched_getscheduler(0));
	ASSERT_EQ(0, smart_set(0, SMART_ATTR_PRIORITY, 2, 0));
	ASSERT_EQ(SCHED_SMART, sched_getscheduler(0)) {
		TH_LOG("smart_setattr on a SCHED_OTHER thread must move it to SCHED_SMART");
	}
	ASSERT_EQ(0, smart_get(0, &a));
	EXPECT_EQ(2, a.priority);
	EXPECT_EQ(1024u, a.share);
}

static void *block_thread(void *arg)
{
	pid_t *tid = arg;

	__atomic_store_n(tid, sys_gettid(), __ATOMIC_RELEASE);
	for (;;)
		pause();
	return NULL;
}

TEST(setattr_targets_one_thread)
{
	struct smart_attr main_before, main_after, t;
	pthread_t th;
	pid_t tid = 0;

	REQUIRE_SMART();
	REQUIRE_ROOT();

	ASSERT_EQ(0, pthread_create(&th, NULL, block_thread, &tid));
	while (!__atomic_load_n(&tid, __ATOMIC_ACQUIRE))
		usleep(1000);

	ASSERT_EQ(0, smart_get(0, &main_before));
	ASSERT_EQ(0, smart_set(tid, SMART_ATTR_SHARE | SMART_ATTR_PRIORITY, -4, 512));
	ASSERT_EQ(0, smart_get(tid, &t));
	EXPECT_EQ(-4, t.priority);
	EXPECT_EQ(512u, t.share);
	EXPECT_EQ(SCHED_SMART, sched_getscheduler(tid));

	ASSERT_EQ(0, smart_get(0, &main_after));
	EXPECT_TRUE(smart_attr_same(&main_before, &main_after)) {
		TH_LOG("setattr on tid %d changed the main thread: " ATTR_FMT " -> " ATTR_FMT,
		       tid, ATTR_ARG(main_before), ATTR_ARG(main_after));
	}
	EXPECT_EQ(SCHED_OTHER, sched_getscheduler(0)) {
		TH_LOG("setattr on another thread moved the main thread");
	}
}

TEST(getattr_non_smart_task)
{
	struct smart_attr a;
	pid_t child;

	REQUIRE_SMART();

	child = api_spawn_blocked(5);
	ASSERT_GT(child, 0);
	usleep(50000);	/* let it apply its nice */

	ASSERT_EQ(0, smart_get(child, &a));
	EXPECT_EQ(SCHED_OTHER, sched_getscheduler(child)) {
		TH_LOG("smart_getattr must not move a task to SCHED_SMART");
	}
	EXPECT_EQ(0, a.priority);
	EXPECT_EQ(335u, a.share) {
		TH_LOG("non-SMART nice 5 task: expected share 335, got %u", a.share);
	}
	EXPECT_EQ(0u, a.flags);
	EXPECT_TRUE(a.notify_signal == 0 || a.notify_signal == SIGXCPU) {
		TH_LOG("fresh task: expected notify_signal 0 or SIGXCPU, got %d",
		       a.notify_signal);
	}
	TH_LOG("fresh task out fields: lag %lld bias %llu met %llu missed %llu notif %llu",
	       (long long)a.lag_ns, (unsigned long long)a.bias_ns,
	       (unsigned long long)a.constraints_met,
	       (unsigned long long)a.constraints_missed,
	       (unsigned long long)a.notifications);
	EXPECT_EQ(0ull, a.bias_ns);
	EXPECT_EQ(0ull, a.constraints_met);
	EXPECT_EQ(0ull, a.constraints_missed);
	EXPECT_EQ(0ull, a.notifications);
	api_reap(child);
}

/* ------------------------------------------------------------------ */
/* ESRCH                                                               */

TEST(no_such_thread)
{
	struct smart_attr a = { .size = sizeof(a), .mask = SMART_ATTR_PRIORITY };
	pid_t pids[3];
	int i;

	REQUIRE_SMART();
	REQUIRE_ROOT();

	pids[0] = fork();
	ASSERT_GE(pids[0], 0);
	if (!pids[0])
		_exit(0);
	ASSERT_EQ(pids[0], waitpid(pids[0], NULL, 0));
	pids[1] = 4194304 + 1;	/* above PID_MAX_LIMIT */
	pids[2] = INT_MAX;

	for (i = 0; i < 3; i++) {
		ASSERT_EQ(-1, smart_setattr(pids[i], &a, 0));
		EXPECT_EQ(ESRCH, errno) {
			TH_LOG("setattr(pid %d): expected ESRCH, got %s", pids[i], strerror(errno));
		}
		ASSERT_EQ(-1, smart_getattr(pids[i], &a, sizeof(a), 0));
		EXPECT_EQ(ESRCH, errno) {
			TH_LOG("getattr(pid %d): expected ESRCH, got %s", pids[i], strerror(errno));
		}
	}
}

TEST_HARNESS_MAIN
