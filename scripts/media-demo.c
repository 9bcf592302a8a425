// SPDX-License-Identifier: GPL-2.0
/*
 * smart-media: a media-player-shaped workload for tracing SCHED_SMART.
 *
 *   smart-media [SECONDS] [CPU]        defaults: 4 s on CPU 0
 *
 * On one CPU, all in SCHED_SMART:
 *   audio  priority 1, every 20 ms needs 3 ms, deadline the next period;
 *   video  priority 0, 25 fps: a frame costs 6..30 ms (some frames are
 *          too big for their period); it asks for its exponential average
 *          + 10 % (paper §6.1) with NOTIFY and drops a frame when notified;
 *   batch  priority 0, a CPU hog (conventional).
 * Prints what each got.  Built statically by `make demo`; traced by
 * `make trace` (scripts/trace-demo.sh).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/smart_sched.h>

#ifndef __NR_smart_setattr
#define __NR_smart_setattr		463
#define __NR_smart_constraint_begin	465
#define __NR_smart_constraint_end	466
#endif
#define MS		1000000LL
#define NOTE_SIG	(SIGRTMIN + 1)

static long long t_end;
static int cpu;

static long long now_ns(clockid_t c)
{
	struct timespec t;

	clock_gettime(c, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void spin(long long ns)
{
	long long end = now_ns(CLOCK_THREAD_CPUTIME_ID) + ns;

	while (now_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		;
}

static void sleep_until(long long t)
{
	struct timespec ts = { t / 1000000000LL, t % 1000000000LL };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* This thread into SCHED_SMART at @prio, notifications on NOTE_SIG. */
static void enter(const char *name, int prio)
{
	struct smart_attr a = {
		.size = sizeof(a), .priority = prio, .share = SMART_SHARE_DEFAULT,
		.notify_signal = NOTE_SIG,
		.mask = SMART_ATTR_PRIORITY | SMART_ATTR_SHARE | SMART_ATTR_SIGNAL,
	};
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	sched_setaffinity(0, sizeof(s), &s);
	if (syscall(__NR_smart_setattr, 0, &a, 0)) {
		fprintf(stderr, "smart-media: %s: smart_setattr: %s\n", name, strerror(errno));
		exit(1);
	}
	pthread_setname_np(pthread_self(), name);
}

static __thread volatile uint64_t notified;	/* cookie of the last notification */

static void on_note(int sig, siginfo_t *si, void *uc)
{
	(void)sig; (void)uc;
	notified = (uint64_t)(uintptr_t)si->si_value.sival_ptr;
}

struct stream {
	const char *name;
	int prio;
	long long period;
	int met, late, dropped;
};

static void *play(void *arg)
{
	struct stream *s = arg;
	long long release = now_ns(CLOCK_MONOTONIC), avg = 0;
	unsigned int seed = s->prio + 1;
	uint64_t frame = 0;

	enter(s->name, s->prio);
	for (; release < t_end; release += s->period, frame++) {
		long long cost = s->prio ? 3 * MS : (6 + rand_r(&seed) % 25) * MS;
		long long est = avg ? avg + avg / 10 : cost;
		struct smart_constraint c = {
			.size = sizeof(c), .flags = SMART_CONSTRAINT_NOTIFY,
			.deadline = release + s->period, .estimate = est,
			.period = s->period, .cookie = frame + 1,
		};
		long long done, t0;

		sleep_until(release);
		if (syscall(__NR_smart_constraint_begin, &c, 0))
			continue;
		t0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		while (now_ns(CLOCK_THREAD_CPUTIME_ID) - t0 < cost && notified != frame + 1)
			spin(MS / 4);
		syscall(__NR_smart_constraint_end, &c, 0);
		done = now_ns(CLOCK_MONOTONIC);
		if (notified == frame + 1)
			s->dropped++;
		else if (done <= release + s->period)
			s->met++;
		else
			s->late++;
		/* §6.1: exponential average of what frames took */
		avg = avg ? (7 * avg + cost) / 8 : cost;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct stream audio = { .name = "audio", .prio = 1, .period = 20 * MS };
	struct stream video = { .name = "video", .prio = 0, .period = 40 * MS };
	int secs = argc > 1 ? atoi(argv[1]) : 4;
	struct sigaction sa = { .sa_sigaction = on_note, .sa_flags = SA_SIGINFO | SA_RESTART };
	pthread_t ta, tv;
	pid_t batch;

	cpu = argc > 2 ? atoi(argv[2]) : 0;
	sigaction(NOTE_SIG, &sa, NULL);
	/*
	 * SMART (and pinned) before creating anyone: the threads and the
	 * batch process inherit both, so none of them starts as a fair task
	 * queued behind SMART ones.
	 */
	enter("smart-media", 0);
	t_end = now_ns(CLOCK_MONOTONIC) + secs * 1000000000LL;
	batch = fork();
	if (batch == 0) {
		enter("batch", 0);
		for (;;)
			;
	}
	pthread_create(&ta, NULL, play, &audio);
	pthread_create(&tv, NULL, play, &video);
	pthread_join(ta, NULL);
	pthread_join(tv, NULL);
	kill(batch, SIGKILL);
	waitpid(batch, NULL, 0);
	printf("smart-media: %d s on CPU %d: audio %d met, %d late, %d dropped; video %d met, %d late, %d dropped\n",
	       secs, cpu, audio.met, audio.late, audio.dropped, video.met, video.late,
	       video.dropped);
	return 0;
}
