// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART CPU kick IPI: it survives two CPUs (0 and 1) kicking a
 * third (CPU 2); needs >= 3 CPUs.
 *
 * Every test SKIPs when the kernel has no SCHED_SMART.
 */
#include "../kselftest_harness.h"
#include "util.h"
#include "harden.h"

#define KICK_TARGET	2
#define KICK_MOVERS	4		/* per source CPU */
#define KICK_SPINNERS	3		/* per source CPU */
#define KICK_SECONDS	8
#define KICK_STALL	(2 * SEC)

struct kick {
	int stop;
	int err;
	long long beat;			/* last time the thread on CPU 2 ran */
	pid_t mover[2 * KICK_MOVERS];
	long long progress[2 * KICK_MOVERS];
};

struct kick_arg {
	struct kick *k;
	int idx;
};

static void kick_enter(struct kick *k, int cpu_mask_bits, int prio)
{
	int r = pin_mask(0, cpu_mask_bits) ? -errno : smart_set(0, SMART_ATTR_PRIORITY, prio, 0);

	if (r)
		__atomic_store_n(&k->err, -r, __ATOMIC_RELAXED);
}

/*
 * Back to its source CPU, runs, allowed on CPU 2 again, runs, sleeps a
 * little: while it waits on its source CPU that CPU's tick and wake-ups
 * kick CPU 2, and the pull takes it there, over and over.
 */
static void *kick_mover(void *arg)
{
	struct kick_arg *a = arg;
	struct kick *k = a->k;
	int src = a->idx < KICK_MOVERS ? 0 : 1;

	kick_enter(k, (1 << src) | (1 << KICK_TARGET), 0);
	__atomic_store_n(&k->mover[a->idx], sys_gettid(), __ATOMIC_RELEASE);
	while (!__atomic_load_n(&k->stop, __ATOMIC_RELAXED)) {
		long long end;

		pin_mask(0, 1 << src);
		end = mono_ns() + 100000;
		while (mono_ns() < end)
			;
		pin_mask(0, (1 << src) | (1 << KICK_TARGET));
		end = mono_ns() + 100000;
		while (mono_ns() < end)
			;
		usleep(50);
		__atomic_fetch_add(&k->progress[a->idx], 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

/*
 * Keeps its source CPU loaded.  A priority below the movers' puts a
 * waiting mover (which may run on CPU 2) first in value order, the task
 * smart_kick_balance() looks at.
 */
static void *kick_spinner(void *arg)
{
	struct kick_arg *a = arg;
	struct kick *k = a->k;

	kick_enter(k, 1 << (a->idx % 2), -1);
	while (!__atomic_load_n(&k->stop, __ATOMIC_RELAXED))
		;
	return NULL;
}

static void *kick_heart(void *arg)
{
	struct kick *k = arg;

	kick_enter(k, 1 << KICK_TARGET, 0);
	while (!__atomic_load_n(&k->stop, __ATOMIC_RELAXED)) {
		__atomic_store_n(&k->beat, mono_ns(), __ATOMIC_RELAXED);
		usleep(500);
	}
	return NULL;
}

/* function-call IPIs CPU @cpu received (/proc/interrupts CAL), -1 if unknown */
static long long cal_ipis(int cpu)
{
	char *text = NULL, *line, *p;
	long long v = -1;
	int i;

	if (harden_read_all("/proc/interrupts", &text) > 0) {
		line = strstr(text, "CAL:");
		for (p = line ? line + 4 : NULL, i = 0; p && i <= cpu; i++)
			v = strtoll(p, &p, 10);
	}
	free(text);
	return v;
}

TEST(kick_ipi_torture)
{
	struct kick_arg ma[2 * KICK_MOVERS], sa[2 * KICK_SPINNERS];
	pthread_t mt[2 * KICK_MOVERS], st[2 * KICK_SPINNERS], ht;
	long long end, now, stall = 0, flips = 0, ipi0, ipi1;
	struct kick *k;
	int i;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	if (online_cpus() < 3)
		SKIP(return, "needs >= 3 CPUs (%d online)", online_cpus());
	k = calloc(1, sizeof(*k));
	ASSERT_NE(NULL, k);
	controller_setup(0);
	k->beat = mono_ns();
	ASSERT_EQ(0, pthread_create(&ht, NULL, kick_heart, k));
	for (i = 0; i < 2 * KICK_SPINNERS; i++) {
		sa[i] = (struct kick_arg){ k, i };
		ASSERT_EQ(0, pthread_create(&st[i], NULL, kick_spinner, &sa[i]));
	}
	for (i = 0; i < 2 * KICK_MOVERS; i++) {
		ma[i] = (struct kick_arg){ k, i };
		ASSERT_EQ(0, pthread_create(&mt[i], NULL, kick_mover, &ma[i]));
	}
	for (i = 0; i < 2 * KICK_MOVERS; i++)
		while (!__atomic_load_n(&k->mover[i], __ATOMIC_ACQUIRE))
			sleep_ns(MS);

	ipi0 = cal_ipis(KICK_TARGET);
	end = mono_ns() + KICK_SECONDS * SEC;
	while ((now = mono_ns()) < end) {
		long long beat = __atomic_load_n(&k->beat, __ATOMIC_RELAXED);

		if (now - beat > stall)
			stall = now - beat;
		if (stall > KICK_STALL)
			break;
		sleep_ns(10 * MS);
	}
	ipi1 = cal_ipis(KICK_TARGET);
	__atomic_store_n(&k->stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < 2 * KICK_MOVERS; i++)
		pthread_join(mt[i], NULL);
	for (i = 0; i < 2 * KICK_SPINNERS; i++)
		pthread_join(st[i], NULL);
	pthread_join(ht, NULL);

	ASSERT_EQ(0, k->err) {
		TH_LOG("thread setup: %s", strerror(k->err));
	}
	for (i = 0; i < 2 * KICK_MOVERS; i++)
		flips += k->progress[i];
	TH_LOG("%lld mover rounds in %d s, %lld function-call IPIs to CPU %d; its longest "
	       "silence %.1f ms", flips, KICK_SECONDS, ipi1 - ipi0, KICK_TARGET, smart_ms(stall));
	EXPECT_LE(stall, KICK_STALL) {
		TH_LOG("the thread on CPU %d did not run for %.1f ms (IPI handler stuck?)",
		       KICK_TARGET, smart_ms(stall));
	}
	for (i = 0; i < 2 * KICK_MOVERS; i++) {
		EXPECT_LT(0, k->progress[i]) {
			TH_LOG("mover %d (tid %d) made no progress", i, k->mover[i]);
		}
	}
	free(k);
}

TEST_HARNESS_MAIN
