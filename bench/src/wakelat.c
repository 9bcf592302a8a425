// SPDX-License-Identifier: GPL-2.0
/*
 * wakelat - wake-up latency of a periodic task under CPU load, a small
 * cyclictest.
 *
 * Why not cyclictest itself: rt-tests' cyclictest sets the policy of its
 * measuring thread explicitly (sched_setscheduler(0, SCHED_OTHER, 0)
 * without -p), so run under `smartctl run --` it leaves SCHED_SMART and
 * measures the fair class.  This program measures all three labels the
 * same way, so the comparison is fair.
 *
 * The measuring task is pinned to CPU 0 and put into the class of
 * --label; --hogs CPU-bound processes (default 2) spin on the same CPU:
 *
 *	label  measuring task                 hogs
 *	SMART  SCHED_SMART prio 0, share 1024 SCHED_SMART prio 0, share 1024
 *	EEVDF  SCHED_OTHER nice 0             SCHED_OTHER nice 0
 *	FIFO   SCHED_FIFO 90                  SCHED_OTHER nice 0
 *
 * Like cyclictest, it sleeps with clock_nanosleep(CLOCK_MONOTONIC,
 * TIMER_ABSTIME) until the next multiple of --interval-us after its
 * start, reads CLOCK_MONOTONIC when it runs again, and records
 *
 *	latency = wake-up time - intended time
 *
 * (timer expiry, wake-up, preemption of the hog and the switch back to
 * user space).  Timer slack: the kernel lets the timers of tasks that are
 * not SCHED_FIFO/RR/DEADLINE expire up to timer_slack_ns (default 50 µs)
 * late, so that SMART and EEVDF tasks would see 50 µs more than FIFO
 * before any scheduling happens.  The measuring task therefore sets its
 * slack to --slack-ns (default 1 ns, the least prctl(PR_SET_TIMERSLACK)
 * allows) for every label, and the record says which ("timer_slack_ns");
 * --slack-ns 0 leaves the default (what cyclictest measures).  If a wake-up is later than the next period, the periods
 * it missed are skipped.  The first --warmup samples are not counted.
 * The latencies are sorted for min/mean/p50/p99/max (µs) and put in a
 * histogram from 0 in --bin-us bins, the last bin also counting
 * everything beyond it.
 *
 * Output: one JSON record (bench/SCHEMA.md, experiment "wakeup") on
 * stdout.
 */
#include <getopt.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "benchutil.h"

#define MAX_HOGS 16

static void usage(FILE *f)
{
	fprintf(f,
		"usage: wakelat --label SMART|EEVDF|FIFO [--samples N] [--interval-us US]\n"
		"               [--hogs H] [--warmup N] [--bin-us US] [--bins N]\n"
		"\n"
		"A periodic task on CPU 0 (clock_nanosleep TIMER_ABSTIME) measures how late\n"
		"it wakes while H CPU hogs run on the same CPU; prints one JSON record.\n"
		"\n"
		"  --label L          SMART (task and hogs SCHED_SMART), EEVDF (task and\n"
		"                     hogs SCHED_OTHER), FIFO (task SCHED_FIFO 90, hogs\n"
		"                     SCHED_OTHER)\n"
		"  --samples N        measured wake-ups (default 10000)\n"
		"  --interval-us US   period (default 1000)\n"
		"  --hogs H           CPU hogs, 0..%d (default 2)\n"
		"  --warmup N         wake-ups not counted first (default 100)\n"
		"  --bin-us US        histogram bin width (default 10)\n"
		"  --bins N           histogram bins (default 100)\n"
		"  --slack-ns NS      timer slack of the measuring task (default 1; 0: leave\n"
		"                     the kernel's default, 50 us for non-RT tasks)\n",
		MAX_HOGS);
}

static void ts_from_ns(struct timespec *ts, uint64_t ns)
{
	ts->tv_sec = ns / 1000000000;
	ts->tv_nsec = ns % 1000000000;
}

static pid_t hogs[MAX_HOGS];
static int nhogs;

static void kill_hogs(void)
{
	int i;

	for (i = 0; i < nhogs; i++)
		if (hogs[i] > 0)
			kill(hogs[i], SIGKILL);
	for (i = 0; i < nhogs; i++)
		if (hogs[i] > 0)
			waitpid(hogs[i], NULL, 0);
	nhogs = 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "label", required_argument, NULL, 'l' },
		{ "samples", required_argument, NULL, 'n' },
		{ "interval-us", required_argument, NULL, 'i' },
		{ "hogs", required_argument, NULL, 'H' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "bin-us", required_argument, NULL, 'b' },
		{ "bins", required_argument, NULL, 'B' },
		{ "slack-ns", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t samples = 10000, interval_us = 1000, warmup = 100, bin_us = 10, bins = 100;
	uint64_t slack = 1;
	int slack_now;
	uint64_t *lat, *counts, i, n = 0, next, now, t0, t1, interval, sum = 0, skipped = 0;
	enum bu_label label = BU_SMART;
	int opt, have_label = 0, h, want_hogs = 2;
	struct timespec ts;

	bu_prog = "wakelat";
	while ((opt = getopt_long(argc, argv, "l:n:i:H:w:b:B:s:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'l': label = bu_parse_label(optarg); have_label = 1; break;
		case 'n': samples = bu_parse_u64("--samples", optarg, 1, 100000000); break;
		case 'i': interval_us = bu_parse_u64("--interval-us", optarg, 10, 10000000); break;
		case 'H': want_hogs = bu_parse_u64("--hogs", optarg, 0, MAX_HOGS); break;
		case 'w': warmup = bu_parse_u64("--warmup", optarg, 0, 100000000); break;
		case 'b': bin_us = bu_parse_u64("--bin-us", optarg, 1, 1000000); break;
		case 'B': bins = bu_parse_u64("--bins", optarg, 1, 100000); break;
		case 's': slack = bu_parse_u64("--slack-ns", optarg, 0, 1000000000); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 1;
		}
	}
	if (optind != argc || !have_label) {
		usage(stderr);
		return 1;
	}
	if (label == BU_SMART && !smart_available())
		bu_die("this kernel has no SCHED_SMART (%s missing)", SMART_MODE_SYSCTL);

	/*
	 * Timers must be high resolution, else clock_nanosleep() wakes at the
	 * tick and the latency is the phase of the tick.  A guest switches
	 * when its TSC clocksource is verified, a second or two after boot:
	 * wait for it, at most 10 s.
	 */
	for (i = 0;; i++) {
		if (clock_getres(CLOCK_MONOTONIC, &ts))
			bu_die("clock_getres: %s", strerror(errno));
		if (!ts.tv_sec && ts.tv_nsec == 1)
			break;
		if (i == 100)
			bu_die("high resolution timers are not active (CLOCK_MONOTONIC "
			       "resolution %ld ns after 10 s)", ts.tv_nsec);
		bu_sleep_ns(100000000);
	}

	lat = calloc(samples, sizeof(*lat));
	counts = calloc(bins, sizeof(*counts));
	if (!lat || !counts)
		bu_die("out of memory");
	interval = interval_us * 1000;

	bu_pin_cpu0();
	bu_set_policy(label, 0, 90);
	/* Hogs: the class of the label for SMART and EEVDF, SCHED_OTHER for FIFO. */
	for (h = 0; h < want_hogs; h++) {
		pid_t pid = fork();

		if (pid < 0) {
			int err = errno;

			kill_hogs();
			bu_die("fork: %s", strerror(err));
		}
		if (pid == 0) {
			bu_prog = "wakelat (hog)";
			bu_set_policy(label == BU_SMART ? BU_SMART : BU_EEVDF, 0, 0);
			for (;;)
				__asm__ __volatile__("" ::: "memory");
		}
		hogs[nhogs++] = pid;
	}
	atexit(kill_hogs);
	if (slack && prctl(PR_SET_TIMERSLACK, (unsigned long)slack, 0, 0, 0))
		bu_die("prctl(PR_SET_TIMERSLACK, %llu): %s", (unsigned long long)slack,
		       strerror(errno));
	slack_now = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);

	t0 = bu_now_ns();
	next = t0 + interval;
	for (i = 0; n < samples; i++) {
		ts_from_ns(&ts, next);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		now = bu_now_ns();
		if (i >= warmup) {
			lat[n++] = now - next;
			sum += now - next;
		}
		next += interval;
		while ((int64_t)(now - next) >= 0) {	/* missed periods: skip them */
			next += interval;
			skipped++;
		}
	}
	t1 = bu_now_ns();
	bu_check_policy(label, "after the measurement");
	for (h = 0; h < nhogs; h++)
		if (waitpid(hogs[h], NULL, WNOHANG) != 0)
			bu_die("hog %d (pid %d) exited during the measurement", h, (int)hogs[h]);
	kill_hogs();

	qsort(lat, n, sizeof(*lat), bu_cmp_u64);
	for (i = 0; i < n; i++) {
		uint64_t b = lat[i] / 1000 / bin_us;

		counts[b < bins ? b : bins - 1]++;
	}

	bu_json_begin("wakeup", label, (t1 - t0) / 1e9);
	printf(",\"tool\":\"wakelat (cyclictest-like clock_nanosleep loop; used for all "
	       "labels since cyclictest resets its policy to SCHED_OTHER)\","
	       "\"load\":\"%d hogs\",\"interval_us\":%llu,\"samples\":%llu,"
	       "\"missed_periods\":%llu,\"timer_slack_ns\":%d,",
	       want_hogs, (unsigned long long)interval_us, (unsigned long long)n,
	       (unsigned long long)skipped, slack_now);
	printf("\"us\":{\"min\":%.3f,\"mean\":%.3f,\"p50\":%.3f,\"p99\":%.3f,\"max\":%.3f},",
	       lat[0] / 1e3, (double)sum / n / 1e3, bu_quantile(lat, n, 0.50) / 1e3,
	       bu_quantile(lat, n, 0.99) / 1e3, lat[n - 1] / 1e3);
	printf("\"hist\":{\"lo_us\":0,\"bin_us\":%llu,\"counts\":[", (unsigned long long)bin_us);
	for (i = 0; i < bins; i++)
		printf("%s%llu", i ? "," : "", (unsigned long long)counts[i]);
	printf("]}");
	bu_json_end();
	return 0;
}
