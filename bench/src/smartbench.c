// SPDX-License-Identifier: GPL-2.0
/*
 * smartbench - the workloads of the SMART paper (Nieh & Lam, SOSP '97, §6)
 * and of BeRate's Table 1, run under one scheduler label, one JSON record
 * on stdout (bench/SCHEMA.md).
 *
 *   smartbench fig3   --label L [--duration S] [--seed N]
 *   smartbench fig5   --label L [--duration S] [--seed N]
 *   smartbench realmix --label L [--duration S] [--seed N] [--player PATH]
 *                     [--media DIR] [--frames-dir DIR]
 *   smartbench berate --label L --case 1..6
 *                     --variant unmodified|unmodified-dropping|constraints|dropping
 *                     [--duration S] [--seed N]
 *
 * Labels (bench/README.md):
 *   SMART, SMART-nobias  every workload task SCHED_SMART, media apps use
 *                        time constraints with notification (paper §6.1);
 *                        the nobias run is the same program, the runner sets
 *                        kernel.smart.bias_max_ns = 0
 *   EEVDF                SCHED_NORMAL; media apps drop frames on their own
 *                        wall-clock estimate (the paper's SVR4 player)
 *   FIFO                 media apps SCHED_FIFO 50, the rest SCHED_NORMAL
 *   DEADLINE             media apps SCHED_DEADLINE, runtime = mean demand per
 *                        period; a task admission control refuses runs
 *                        SCHED_NORMAL and the record says so
 *   SMART-unmodified     the programs of EEVDF, unchanged (no SMART call), on
 *                        a sched_smart=all kernel: SMART schedules them and
 *                        infers their periods (kernel.smart.infer = 1)
 *   SMART-unmodified-noinfer  the same with kernel.smart.infer = 0, which the
 *                        runner sets
 *
 * realmix is the Figure 3 mix with real decoders: the News and Entertain
 * players are smart-play processes (tools/smart-play) playing news.mp4 and
 * entertain.mkv of scripts/mkclips (libavcodec; News with its audio),
 * beside the synthetic Typing and Dhrystone.  Under SMART and
 * SMART-nobias the players decode under time constraints; under the other
 * labels they run with --no-smart.  DEADLINE has no runtime to reserve
 * for a real decoder and is refused.
 *
 * Both unmodified labels check the kernel's mode and kernel.smart.infer and
 * refuse to run under the wrong ones, so that a record's label says what ran.
 *
 * CPU demand is CPU time: burn() spins until the thread's
 * CLOCK_THREAD_CPUTIME_ID has advanced by the demand, so the proportions of
 * the 1997 machine carry over whatever the CPU (or QEMU's -icount) speed.
 * Display times are CLOCK_MONOTONIC.  Every task is pinned to CPU 0 (the
 * paper's machine had one CPU), except SCHED_DEADLINE tasks on a guest with
 * more than one CPU, which admission control does not allow to be pinned.
 *
 * Each application is a process (News: an audio and a video thread), forked
 * by the driver, which sleeps as SCHED_FIFO 99 until the end; so does the
 * Typing "keyboard" that writes timestamped characters into a pipe, which
 * stands for the paper's hardware keyboard simulator.  Results go through
 * a shared mapping.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include "smart.h"

#define NSEC_PER_MSEC	1000000LL
#define NSEC_PER_SEC	1000000000LL
#define MS(x)		((int64_t)((x) * NSEC_PER_MSEC))

/* ---- the experiment description ---------------------------------------- */

enum label { L_SMART, L_NOBIAS, L_EEVDF, L_FIFO, L_DEADLINE, L_UNMOD, L_UNMOD_NOINFER };
static const char *const label_names[] = {
	"SMART", "SMART-nobias", "EEVDF", "FIFO", "DEADLINE", "SMART-unmodified",
	"SMART-unmodified-noinfer",
};

enum kind { K_AUDIO, K_VIDEO, K_TYPING, K_BATCH, K_SRT, K_PLAYER };
static const char *const kind_names[] = { "audio", "video", "typing", "batch", "srt", "player" };

#define MAX_APPS	6
#define MAX_PHASES	2
#define ERR_LO_MS	(-200)
#define ERR_BIN_MS	5
#define ERR_BINS	80	/* -200 .. +200 ms */
#define LAT_BIN_MS	5
#define LAT_BINS	60	/* 0 .. 300 ms */
#define LAT_MAX		16384	/* characters kept per phase for percentiles */

/* What one app (or News thread) measured in one phase. */
struct stats {
	int64_t cpu_ns;		/* CPU time spent in the phase */
	long units;		/* segments, frames, characters or jobs */
	long on_time, early, late, dropped, notified;
	long overran, expired;		/* SMART: used more than the estimate,
					 * still running at the deadline */
	long dropouts;		/* audio: times the device ran dry */
	double dropout_ms;
	double err_sum, err_sq;	/* display error, ms, of displayed frames */
	long err_hist[ERR_BINS];
	long processed, lt50, lt150, gt150;	/* typing */
	long lat_hist[LAT_BINS];
	long missed;		/* srtsim */
	long late_jobs, late_missed;	/* srtsim jobs released after 1 s */
};

struct app {
	char name[32];
	enum kind kind;
	bool media;		/* FIFO/DEADLINE apply to it */
	int priority;		/* SMART priority (fig5) */
	unsigned int share;	/* SMART share */
	int nice;		/* the EEVDF equivalent of share/priority */
	double mean_ms, sd_ms;	/* CPU demand per unit */
	double period_ms;	/* frame/segment/job period */
	int fps, util;		/* srtsim */
	int64_t stop_ns;	/* leaves at this time (News in fig5) */
	char media_file[64];	/* player: the clip, in --media */
	bool slaved;		/* News video: ideal times from the audio clock */
	/* filled in by the app */
	int policy;		/* the policy it actually ran with */
	char note[160];
	struct stats ph[MAX_PHASES];
};

/* Lives in a MAP_SHARED mapping: the driver, apps and keyboard share it. */
struct shared {
	int64_t t0;			/* start of the run, CLOCK_MONOTONIC */
	int64_t end;			/* end of the run */
	int64_t phase_at;		/* start of phase 2 (fig5), else end */
	int nphases;
	volatile int64_t play_base;	/* News audio: when media time 0 plays */
	int placed;			/* threads that took their policy */
	long chars_sent[MAX_PHASES];	/* typing: by the keyboard */
	int64_t lat_ns[MAX_PHASES][LAT_MAX];	/* typing latencies, for percentiles */
	long nlat[MAX_PHASES];
	int napps;
	struct app app[MAX_APPS];
};

static struct shared *sh;
static enum label label;
static unsigned int seed = 1;
static bool use_constraints;	/* media apps use SMART time constraints */
static bool srt_drop;		/* srtsim drops a job it is notified of (berate dropping) */
static bool srt_guess;		/* srtsim drops a job its own estimate says is late */
static int ncpus;
static const char *player = "smart-play";	/* realmix */
static const char *media_dir = "build/media";
static const char *frames_dir;
static pid_t driver_pid;

/* ---- small utilities ------------------------------------------------------- */

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "smartbench: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static int64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * NSEC_PER_SEC + t.tv_nsec;
}

static int64_t cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * NSEC_PER_SEC + t.tv_nsec;
}

static void sleep_until(int64_t t)
{
	struct timespec ts = { t / NSEC_PER_SEC, t % NSEC_PER_SEC };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* xorshift64*: a deterministic stream per app */
static uint64_t rnd_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static double rnd_unit(uint64_t *s)
{
	return ((rnd_next(s) >> 11) + 0.5) / 9007199254740992.0;
}

static double rnd_normal(uint64_t *s, double mean, double sd)
{
	double u1 = rnd_unit(s), u2 = rnd_unit(s);

	return mean + sd * sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

/* A unit's CPU demand: normal, clipped to [mean/5, mean + 4 sd]. */
static int64_t demand(uint64_t *s, const struct app *a)
{
	double d = rnd_normal(s, a->mean_ms, a->sd_ms);
	double lo = a->mean_ms / 5, hi = a->mean_ms + 4 * a->sd_ms;

	return MS(d < lo ? lo : d > hi ? hi : d);
}

/* ---- phases ---------------------------------------------------------------- */

/*
 * Each thread charges its CPU time to the phase it was spent in.  It samples
 * its clock at the phase boundary from its loops and from inside burn(); a
 * thread asleep at the boundary samples when it wakes, before it runs.
 */
static __thread struct app *me;
static __thread int64_t cpu_mark;	/* thread CPU at the start of the phase */
static __thread int cur_phase;

static int phase_of(int64_t t)
{
	return sh->nphases > 1 && t >= sh->phase_at ? 1 : 0;
}

static void phase_poll(void)
{
	if (cur_phase == 0 && sh->nphases > 1 && now_ns() >= sh->phase_at) {
		int64_t c = cpu_ns();

		me->ph[0].cpu_ns += c - cpu_mark;
		cpu_mark = c;
		cur_phase = 1;
	}
}

static void phase_close(void)
{
	phase_poll();
	me->ph[cur_phase].cpu_ns += cpu_ns() - cpu_mark;
}

/* ---- CPU demand ------------------------------------------------------------ */

static volatile uint64_t sink;
static long spins_per_50us = 1000;

static void spin(long n)
{
	uint64_t x = sink;

	for (long i = 0; i < n; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	sink = x;
}

/* Calibrate spin() to about 50 us of CPU per call (the clock is a syscall). */
static void calibrate(void)
{
	long n = 1000;

	for (;;) {
		int64_t c = cpu_ns();

		spin(n);
		c = cpu_ns() - c;
		if (c >= 2 * NSEC_PER_MSEC) {
			spins_per_50us = n * 50000LL / c;
			break;
		}
		n *= 2;
	}
	if (spins_per_50us < 1)
		spins_per_50us = 1;
}

/* Use @ns of this thread's CPU time; returns early at @until (0: never). */
static void burn(int64_t ns, int64_t until)
{
	int64_t target = cpu_ns() + ns;

	while (cpu_ns() < target) {
		spin(spins_per_50us);
		phase_poll();
		if (until && now_ns() >= until)
			break;
	}
}

/* ---- scheduling policy of a task ------------------------------------------- */

struct dl_attr {	/* struct sched_attr, as in include/uapi/linux/sched/types.h */
	uint32_t size, sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period;
	uint32_t util_min, util_max;
};

/* An integer from a /proc file, -1 if it cannot be read. */
static long read_knob(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static void pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity: %s", strerror(errno));
}

static void set_fifo(int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	/* children of the FIFO driver start as SCHED_OTHER, nice 0 */
	if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp))
		die("SCHED_FIFO %d: %s", prio, strerror(errno));
}

/* Put the calling thread where @label wants app @a; records what it got. */
static void apply_policy(struct app *a)
{
	bool media = a->media;

	pin_cpu0();
	if ((label == L_SMART || label == L_NOBIAS)) {
		struct smart_attr at = {
			.size = sizeof(at),
			.mask = SMART_ATTR_PRIORITY | SMART_ATTR_SHARE,
			.priority = a->priority,
			.share = a->share,
		};

		if (smart_setattr(0, &at, 0))
			die("%s: smart_setattr: %s", a->name, smart_strerror(SMART_CALL_SETATTR, errno));
	} else if (label == L_FIFO && media) {
		set_fifo(50);
	} else if (label == L_DEADLINE && media) {
		struct dl_attr at = {
			.size = sizeof(at),
			.sched_policy = SCHED_DEADLINE,
			.sched_runtime = MS(a->mean_ms),
			.sched_deadline = MS(a->period_ms),
			.sched_period = MS(a->period_ms),
		};

		/* admission control refuses a reservation pinned to a subset */
		if (ncpus > 1) {
			cpu_set_t set;

			CPU_ZERO(&set);
			for (int i = 0; i < ncpus; i++)
				CPU_SET(i, &set);
			sched_setaffinity(0, sizeof(set), &set);
		}
		if (syscall(SYS_sched_setattr, 0, &at, 0)) {
			snprintf(a->note, sizeof(a->note),
				 "%s: SCHED_DEADLINE %.2f/%.2f ms refused (%s), ran SCHED_NORMAL",
				 a->name, a->mean_ms, a->period_ms, strerror(errno));
			pin_cpu0();
		}
	} else if (a->nice && setpriority(PRIO_PROCESS, 0, a->nice)) {
		die("%s: nice %d: %s", a->name, a->nice, strerror(errno));
	}
	a->policy = sched_getscheduler(0) & ~SCHED_RESET_ON_FORK;
}

/* ---- notifications (SMART) -------------------------------------------------- */

static __thread volatile uint64_t notified_cookie;

static void on_notify(int sig, siginfo_t *si, void *ctx)
{
	if (si->si_code == SMART_NOTIFY_INFEASIBLE || si->si_code == SMART_NOTIFY_EXPIRED)
		notified_cookie = (uintptr_t)si->si_value.sival_ptr;
}

static void install_notify(void)
{
	struct sigaction sa = { .sa_sigaction = on_notify, .sa_flags = SA_SIGINFO | SA_RESTART };

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGXCPU, &sa, NULL))
		die("sigaction: %s", strerror(errno));
}

/* Begin a constraint; false if there is none (deadline passed, no SMART). */
static bool tc_begin(struct smart_constraint *c, int64_t deadline, uint64_t estimate,
		     uint64_t period, unsigned int flags, uint64_t cookie)
{
	memset(c, 0, sizeof(*c));
	c->size = sizeof(*c);
	c->flags = flags;
	c->deadline = deadline;
	c->estimate = estimate ? estimate : 1;
	/* a job longer than its period (an MPEG I frame) is not periodic load */
	c->period = c->estimate <= period ? period : 0;
	c->cookie = cookie;
	if (smart_constraint_begin(c, 0) == 0)
		return true;
	if (errno != ETIME)
		die("%s: smart_constraint_begin: %s", me->name,
		    smart_strerror(SMART_CALL_CONSTRAINT_BEGIN, errno));
	return false;
}

enum tc_outcome { TC_WITHIN, TC_OVERRAN, TC_EXPIRED };

/* End the constraint: within its estimate, over it, or expired before. */
static enum tc_outcome tc_end(void)
{
	struct smart_constraint c = { .size = sizeof(c) };

	if (smart_constraint_end(&c, 0) == 0)
		return c.used > c.estimate ? TC_OVERRAN : TC_WITHIN;
	/* ENOENT: it expired at its deadline, already counted as missed */
	if (errno != ENOENT)
		die("%s: smart_constraint_end: %s", me->name,
		    smart_strerror(SMART_CALL_CONSTRAINT_END, errno));
	return TC_EXPIRED;
}

/* ---- the applications -------------------------------------------------------- */

/*
 * Take the label's policy, then wait for the start.  Every workload task is
 * created and placed before t0, while nothing else runs: in opt-in mode a
 * task that is still SCHED_NORMAL when SMART tasks run only gets the fair
 * server's 5%, and would start up to a second late.
 */
static void thread_start(struct app *a)
{
	me = a;
	apply_policy(a);
	__atomic_add_fetch(&sh->placed, 1, __ATOMIC_SEQ_CST);
	sleep_until(sh->t0);
	cpu_mark = cpu_ns();
	cur_phase = 0;
}

static int64_t app_end(const struct app *a)
{
	return a->stop_ns && a->stop_ns < sh->end ? a->stop_ns : sh->end;
}

/*
 * News audio (§6.1.2): 512-byte segments of 8-bit 8 kHz audio, up to 1 s of
 * work-ahead into the device buffer.  Deadline of a segment: the play-out
 * time of the last sample in the buffer.  The device runs dry when a segment
 * completes after the buffer's end: a dropout; playback resumes then.
 */
static void *audio_main(void *arg)
{
	struct app *a = arg;
	int64_t seg = MS(a->period_ms), ahead = NSEC_PER_SEC, end = app_end(a);
	int64_t buf_end = 0;	/* play-out time of the end of the buffer */
	struct smart_estimator est;
	uint64_t rs = seed * 7919 + 1;

	thread_start(a);
	smart_estimator_init(&est, 0.25, SMART_ESTIMATOR_MARGIN_PAPER);
	smart_estimator_update(&est, MS(a->mean_ms));
	for (long n = 0;; n++) {
		int64_t t = now_ns(), c0, done;
		struct smart_constraint c;
		bool tc = false;
		struct stats *st;

		if (n && buf_end - t > ahead - seg)
			sleep_until(buf_end - (ahead - seg));
		t = now_ns();
		phase_poll();
		if (t >= end)
			break;
		if (use_constraints)
			tc = tc_begin(&c, n ? buf_end : t + seg, smart_estimator_get(&est), 0, 0, n);
		c0 = cpu_ns();
		burn(demand(&rs, a), end);
		/* the segment is in the device buffer now, within the constraint */
		done = now_ns();
		smart_estimator_update(&est, cpu_ns() - c0);
		if (tc)
			tc_end();
		if (done >= end)
			break;	/* cut short by the end of the run */
		st = &a->ph[phase_of(done)];
		st->units++;
		if (n == 0) {
			/* the device starts playing 100 ms after the first segment */
			sh->play_base = done + MS(100);
			buf_end = sh->play_base;
		} else if (done > buf_end) {
			st->dropouts++;
			st->dropout_ms += (done - buf_end) / 1e6;
			sh->play_base += done - buf_end;
			buf_end = done;
		}
		buf_end += seg;
	}
	phase_close();
	return NULL;
}

static void record_display(struct stats *st, int64_t err)
{
	double ms = err / 1e6;
	int bin = (int)floor((ms - ERR_LO_MS) / ERR_BIN_MS);

	if (err < -MS(20))
		st->early++;
	else if (err > MS(20))
		st->late++;
	else
		st->on_time++;
	st->err_sum += ms;
	st->err_sq += ms * ms;
	st->err_hist[bin < 0 ? 0 : bin >= ERR_BINS ? ERR_BINS - 1 : bin]++;
}

/*
 * A video player (§6.1.1).  Frame i should be displayed at T_i = base +
 * i * period, where base is the audio's play-out clock (News) or the
 * stream's start (Entertain); on time means within 20 ms of T_i.
 *
 * Every label sleeps when the frame would complete more than 20 ms early,
 * on an exponential average of the wall-clock time frames took.  Without
 * SMART the player also drops a frame that this average says would be more
 * than 20 ms late.  With SMART it instead begins a time constraint with the
 * deadline T_i + 20 ms and the estimate avg(CPU time) x 1.1, asking to be
 * notified, and drops the frame if the notification came before it started.
 */
static void *video_main(void *arg)
{
	struct app *a = arg;
	int64_t period = MS(a->period_ms), end = app_end(a), base;
	struct smart_estimator wall, cpu;
	uint64_t rs = seed * 104729 + (a->slaved ? 3 : 5);

	thread_start(a);
	if (use_constraints)
		install_notify();
	smart_estimator_init(&wall, 0.25, 0);
	smart_estimator_init(&cpu, 0.25, SMART_ESTIMATOR_MARGIN_PAPER);
	smart_estimator_update(&wall, MS(a->mean_ms));
	smart_estimator_update(&cpu, MS(a->mean_ms));
	if (a->slaved) {
		while (!sh->play_base && now_ns() < end)
			usleep(1000);
	}
	for (long i = 0;; i++) {
		int64_t ideal, t, start, c0, done;
		int64_t w = smart_estimator_get(&wall);
		struct smart_constraint c;
		enum tc_outcome out = TC_WITHIN;
		bool tc = false;
		struct stats *st;

		base = a->slaved ? sh->play_base : sh->t0 + MS(100);
		ideal = base + i * period;
		if (ideal >= end)
			break;
		t = now_ns();
		if (t + w < ideal - MS(20))
			sleep_until(ideal - w);
		phase_poll();
		st = &a->ph[phase_of(ideal)];
		st->units++;
		if (!use_constraints) {
			if (now_ns() + w > ideal + MS(20)) {
				st->dropped++;
				continue;
			}
		} else {
			notified_cookie = 0;
			tc = tc_begin(&c, ideal + MS(20), smart_estimator_get(&cpu), period,
				      SMART_CONSTRAINT_NOTIFY, i + 1);
			/*
			 * An infeasible begin queues the notification; the
			 * status says the same thing synchronously, in case the
			 * signal has not been delivered yet.
			 */
			if (!tc || notified_cookie == (uint64_t)i + 1 ||
			    c.status == SMART_STATUS_INFEASIBLE) {
				if (tc)
					tc_end();
				st->notified += tc;
				st->dropped++;
				continue;
			}
		}
		start = now_ns();
		c0 = cpu_ns();
		burn(demand(&rs, a), end);
		/*
		 * Displayed: a player presents the frame before it ends the
		 * constraint that covers it.  Once the constraint ends the
		 * task is conventional again and may wait for its turn; that
		 * wait is not the frame's.
		 */
		done = now_ns();
		smart_estimator_update(&cpu, cpu_ns() - c0);
		if (tc) {
			out = tc_end();
			st->notified += notified_cookie == (uint64_t)i + 1;
		}
		if (done >= end) {
			st->units--;	/* cut short by the end of the run */
			break;
		}
		smart_estimator_update(&wall, done - start);
		record_display(st, done - ideal);
		st->overran += out == TC_OVERRAN;
		st->expired += out == TC_EXPIRED;
	}
	phase_close();
	return NULL;
}

struct keystroke {
	int64_t arrival;
	long seq;
};

static void typing_main(struct app *a, int fd)
{
	uint64_t rs = seed * 31337 + 11;
	struct keystroke k;

	thread_start(a);
	while (read(fd, &k, sizeof(k)) == sizeof(k)) {
		int64_t t, lat;
		struct stats *st;
		int bin;

		phase_poll();
		if (now_ns() >= sh->end)
			break;
		burn(demand(&rs, a), sh->end);
		t = now_ns();
		if (t >= sh->end)
			break;
		lat = t - k.arrival;
		st = &a->ph[phase_of(k.arrival)];
		st->processed++;
		if (lat < MS(50))
			st->lt50++;
		else if (lat <= MS(150))
			st->lt150++;
		else
			st->gt150++;
		bin = lat / MS(LAT_BIN_MS);
		st->lat_hist[bin >= LAT_BINS ? LAT_BINS - 1 : bin]++;
		if (sh->nlat[phase_of(k.arrival)] < LAT_MAX)
			sh->lat_ns[phase_of(k.arrival)][sh->nlat[phase_of(k.arrival)]++] = lat;
	}
	phase_close();
}

/*
 * The keyboard: 1314 characters in 300 s (paper Table 2), i.e. one every
 * 228 ms on average: 60 ms plus an exponential pause, from a fixed seed so
 * every label types the same text at the same times.
 */
static void keyboard_main(int fd)
{
	uint64_t rs = seed * 2654435761ULL + 17;
	int64_t t = sh->t0 + MS(50);

	set_fifo(99);
	pin_cpu0();
	for (long seq = 0;; seq++) {
		struct keystroke k;

		t += MS(60) + (int64_t)(-log(rnd_unit(&rs)) * MS(168.3));
		if (t >= sh->end)
			break;
		sleep_until(t);
		k.arrival = now_ns();
		k.seq = seq;
		if (write(fd, &k, sizeof(k)) != sizeof(k))
			break;
		sh->chars_sent[phase_of(k.arrival)]++;
	}
	close(fd);
}

/* Dhrystone stand-in: all the CPU it can get. */
static void batch_main(struct app *a)
{
	thread_start(a);
	while (now_ns() < sh->end)
		burn(MS(1), sh->end);
	phase_close();
}

/*
 * srtsim (BeRate §4): a periodic job with MPEG-like variation.  Frame types
 * follow the GOP IBBPBBPBBPBB; the CPU time of a frame is the mean times
 * I 1.25, P 1.05 or B 0.95 (a mean of exactly 1 over the GOP: decoding
 * time varies far less between frame types than frame size does) times
 * normal noise of 5%.  Job k is released at t0 + k * period and must finish
 * by the next release.  Late jobs are not skipped: the next one starts as
 * soon as the late one is done.  The constraints variant wraps each job in
 * a time constraint whose estimate is the per-frame-type exponential
 * average x 1.1 (the paper notes MPEG needs one average per frame type).
 * The dropping variant also asks to be notified and, as the SMART paper's
 * player does (§6.1), drops a job whose constraint is infeasible or
 * notified before it starts: it counts as missed, and its CPU time goes
 * to the next one.  The unmodified-dropping variant makes no SMART call
 * and drops a job that its own per-frame-type exponential average of the
 * wall-clock time jobs took says would end after the deadline, as the
 * EEVDF video player does: it counts as missed.
 */
static void srt_main(struct app *a)
{
	static const char gop[] = "IBBPBBPBBPBB";
	const double rel[3] = { 1.25, 1.05, 0.95 };	/* I, P, B */
	struct smart_estimator est[3], wall[3];
	int64_t period = NSEC_PER_SEC / a->fps;
	double mean = a->util / 100.0 * period;
	uint64_t rs = seed * 7777 + a->fps * 13 + a->util;

	thread_start(a);
	if (srt_drop)
		install_notify();
	for (int f = 0; f < 3; f++) {
		smart_estimator_init(&est[f], 0.25, SMART_ESTIMATOR_MARGIN_PAPER);
		smart_estimator_update(&est[f], mean * rel[f]);
		smart_estimator_init(&wall[f], 0.25, 0);
		smart_estimator_update(&wall[f], mean * rel[f]);
	}
	for (long k = 0;; k++) {
		int64_t release = sh->t0 + k * period, deadline = release + period, c0, done, start;
		int f = gop[k % 12] == 'I' ? 0 : gop[k % 12] == 'P' ? 1 : 2;
		double cost = mean * rel[f] * rnd_normal(&rs, 1.0, 0.05);
		struct smart_constraint c;
		bool tc = false;

		if (deadline > sh->end)
			break;
		sleep_until(release);
		notified_cookie = 0;
		if (use_constraints)
			tc = tc_begin(&c, deadline, smart_estimator_get(&est[f]), period,
				      srt_drop ? SMART_CONSTRAINT_NOTIFY : 0, k + 1);
		if ((srt_drop && (!tc || c.status == SMART_STATUS_INFEASIBLE ||
				  notified_cookie == (uint64_t)k + 1)) ||
		    (srt_guess && now_ns() + (int64_t)smart_estimator_get(&wall[f]) > deadline)) {
			if (tc)
				tc_end();
			a->ph[0].notified += tc;
			a->ph[0].dropped++;
			a->ph[0].units++;
			a->ph[0].missed++;
			if (release - sh->t0 >= NSEC_PER_SEC) {
				a->ph[0].late_jobs++;
				a->ph[0].late_missed++;
			}
			continue;
		}
		c0 = cpu_ns();
		start = now_ns();
		/* a job still running at the end is cut short: missed */
		burn(cost > mean / 5 ? cost : mean / 5, sh->end);
		/* the job is done here, before its constraint ends (see video_main) */
		done = now_ns();
		smart_estimator_update(&est[f], cpu_ns() - c0);
		smart_estimator_update(&wall[f], done - start);
		if (tc)
			tc_end();
		a->ph[0].units++;
		a->ph[0].missed += done > deadline;
		/* the same after the first second, when all tasks have a history */
		if (release - sh->t0 >= NSEC_PER_SEC) {
			a->ph[0].late_jobs++;
			a->ph[0].late_missed += done > deadline;
		}
	}
	phase_close();
}

/* ---- realmix: the players ---------------------------------------------------- */

/* Where player @a writes its JSON record. */
static void player_out(const struct app *a, char *buf, size_t len)
{
	snprintf(buf, len, "/tmp/smartbench-%d-%s.json", (int)driver_pid, a->name);
}

/*
 * In the child of the driver: take the label's policy and become
 * smart-play, showing its first frame 200 ms after the start (as the
 * synthetic players), until the end of the run.
 */
static void player_exec(struct app *a)
{
	char out[128], clip[256], start[32], dur[32], frames[256];
	char *argv[16];
	int n = 0, fd;

	apply_policy(a);
	if (label == L_FIFO) {
		/* its decoding threads must be FIFO too: no reset on fork */
		struct sched_param sp = { .sched_priority = 50 };

		if (sched_setscheduler(0, SCHED_FIFO, &sp))
			die("SCHED_FIFO 50: %s", strerror(errno));
	}
	player_out(a, out, sizeof(out));
	snprintf(clip, sizeof(clip), "%s/%s", media_dir, a->media_file);
	snprintf(start, sizeof(start), "%.9f", (sh->t0 + MS(200)) / 1e9);
	snprintf(dur, sizeof(dur), "%.3f", (sh->end - sh->t0 - MS(200)) / 1e9);
	argv[n++] = (char *)player;
	argv[n++] = "--json";
	argv[n++] = "--start-at";
	argv[n++] = start;
	argv[n++] = "--duration";
	argv[n++] = dur;
	if (!use_constraints)
		argv[n++] = "--no-smart";
	if (frames_dir) {
		snprintf(frames, sizeof(frames), "%s/%s-%s.csv", frames_dir, label_names[label], a->name);
		argv[n++] = "--frames";
		argv[n++] = frames;
	}
	argv[n++] = clip;
	argv[n] = NULL;
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || dup2(fd, 1) < 0)
		die("%s: %s", out, strerror(errno));
	close(fd);
	__atomic_add_fetch(&sh->placed, 1, __ATOMIC_SEQ_CST);
	execvp(player, argv);
	die("cannot run the player '%s': %s", player, strerror(errno));
}

/* The player's record, whole (NULL if it wrote none), malloc'ed. */
static char *player_record(const struct app *a)
{
	char out[128], *buf;
	long len;
	FILE *f;

	player_out(a, out, sizeof(out));
	f = fopen(out, "r");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = len > 0 ? malloc(len + 1) : NULL;
	if (buf && fread(buf, 1, len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (!buf)
		return NULL;
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		len--;
	buf[len] = 0;
	return buf;
}

/* The sum of every number after @key in @rec ("cpu_pct", "demand_pct"). */
static double record_sum(const char *rec, const char *key)
{
	char pat[64];
	double sum = 0;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	for (const char *p = rec; (p = strstr(p, pat)); p += strlen(pat))
		sum += strtod(p + strlen(pat), NULL);
	return sum;
}

/*
 * After the run: each player's CPU time and demand (what decoding every
 * frame would have taken, for Dhrystone's ideal share) from its record.
 */
static void players_collect(void)
{
	for (int i = 0; i < sh->napps; i++) {
		struct app *a = &sh->app[i];
		char *rec;

		if (a->kind != K_PLAYER)
			continue;
		rec = player_record(a);
		if (!rec || !strstr(rec, "\"streams\""))
			die("%s: the player wrote no record (see its stderr)", a->name);
		a->ph[0].cpu_ns = record_sum(rec, "cpu_pct") / 100 * (sh->end - sh->t0);
		a->mean_ms = record_sum(rec, "demand_pct");
		a->period_ms = 100;
		if (strstr(rec, "\"fell_back\":true")) {
			char note[sizeof(a->note)];

			snprintf(note, sizeof(note), "%s: the player fell back to --no-smart", a->name);
			memcpy(a->note, note, sizeof(note));
		}
		free(rec);
	}
}

/* ---- the driver ---------------------------------------------------------- */

static struct app *add_app(const char *name, enum kind kind, double mean, double sd,
			   double period)
{
	struct app *a;

	if (sh->napps == MAX_APPS)
		die("too many apps");
	a = &sh->app[sh->napps++];
	snprintf(a->name, sizeof(a->name), "%s", name);
	a->kind = kind;
	a->media = kind == K_AUDIO || kind == K_VIDEO || kind == K_PLAYER;
	a->share = SMART_SHARE_DEFAULT;
	a->mean_ms = mean;
	a->sd_ms = sd;
	a->period_ms = period;
	return a;
}

/* Table 2 of the paper. */
static void setup_mix(bool fig5, double duration)
{
	struct app *audio, *video, *ent;

	audio = add_app("news-audio", K_AUDIO, 1.54, 0.79, 63.6);
	video = add_app("news-video", K_VIDEO, 28.35, 2.19, 1000.0 / 15);
	video->slaved = true;
	ent = add_app("entertain", K_VIDEO, 39.16, 2.71, 1000.0 / 15);
	add_app("typing", K_TYPING, 1.96, 0.17, 0);
	add_app("dhrystone", K_BATCH, 0, 0, 0);
	if (fig5) {
		/* §6.5: News above everything, Entertain twice the share */
		audio->priority = video->priority = 1;
		ent->share = 2 * SMART_SHARE_DEFAULT;
		/*
		 * The nearest a Linux user gets: News at nice -20 (weight
		 * 88761, no strict priority) and Entertain at nice -3
		 * (weight 1991, twice nice 0).
		 */
		audio->nice = video->nice = -20;
		ent->nice = -3;
		audio->stop_ns = video->stop_ns = sh->t0 + (int64_t)(0.4 * duration * NSEC_PER_SEC);
		sh->phase_at = audio->stop_ns;
		sh->nphases = 2;
	}
}

/* Figure 3 with real decoders: News (H.264 + AAC), Entertain (MPEG-4). */
static void setup_realmix(void)
{
	struct app *a;

	a = add_app("news", K_PLAYER, 0, 0, 0);
	snprintf(a->media_file, sizeof(a->media_file), "news.mp4");
	a = add_app("entertain", K_PLAYER, 0, 0, 0);
	snprintf(a->media_file, sizeof(a->media_file), "entertain.mkv");
	add_app("typing", K_TYPING, 1.96, 0.17, 0);
	add_app("dhrystone", K_BATCH, 0, 0, 0);
}

/* BeRate Table 1 */
static void setup_berate(int c)
{
	static const struct { int hogs, hog_share, nsrt, srt[2][2]; } cases[] = {
		[1] = { 1, 1024, 1, { { 25, 50 } } },
		[2] = { 2, 1024, 2, { { 25, 25 }, { 25, 25 } } },
		[3] = { 2, 1024, 2, { { 25, 25 }, { 33, 25 } } },
		[4] = { 3, 1024, 1, { { 25, 25 } } },
		[5] = { 1, 512, 1, { { 33, 67 } } },
		[6] = { 1, 1024, 2, { { 25, 50 }, { 50, 50 } } },
	};
	char name[32];

	if (c < 1 || c > 6)
		die("--case must be 1..6");
	for (int i = 0; i < cases[c].nsrt; i++) {
		struct app *a;

		snprintf(name, sizeof(name), "srtsim-%dfps-%d", cases[c].srt[i][0], cases[c].srt[i][1]);
		a = add_app(name, K_SRT, 0, 0, 1000.0 / cases[c].srt[i][0]);
		a->media = true;
		a->fps = cases[c].srt[i][0];
		a->util = cases[c].srt[i][1];
		a->mean_ms = a->period_ms * a->util / 100;
	}
	for (int i = 0; i < cases[c].hogs; i++) {
		struct app *a;

		snprintf(name, sizeof(name), "cpu-bound-%d", i + 1);
		a = add_app(name, K_BATCH, 0, 0, 0);
		/*
		 * Case 5: BeRate's nice +10 halved a Linux 2.4 quantum, so the
		 * loop got 1/3 of the CPU and srtsim exactly its 2/3.  Today
		 * nice +10 would give it 9.7%; keep BeRate's 1:2 instead (share
		 * 512, nice +3 = weight 526).
		 */
		a->share = cases[c].hog_share;
		a->nice = a->share == 512 ? 3 : 0;
	}
}

static void *run_thread(void *arg)
{
	return ((struct app *)arg)->kind == K_AUDIO ? audio_main(arg) : video_main(arg);
}

/*
 * Wait until @n threads have taken their policy: the apps are placed one at
 * a time, in Table 2's order (News video before News audio, whose thread
 * creates it), so SCHED_DEADLINE admission control always refuses the same
 * app.
 */
static void wait_placed(int n)
{
	while (__atomic_load_n(&sh->placed, __ATOMIC_SEQ_CST) < n)
		usleep(1000);
}

/* Fork the apps (News: one process, two threads) and the keyboard. */
static void run(void)
{
	int kbd[2] = { -1, -1 }, nkids = 0, nthreads = 0;
	pid_t kids[MAX_APPS + 1];

	for (int i = 0; i < sh->napps; i++) {
		struct app *a = &sh->app[i];
		pid_t pid;

		if (a->kind == K_VIDEO && a->slaved)
			continue;	/* a thread of news-audio's process */
		if (a->kind == K_TYPING && pipe(kbd))
			die("pipe: %s", strerror(errno));
		pid = fork();
		if (pid < 0)
			die("fork: %s", strerror(errno));
		if (pid) {
			kids[nkids++] = pid;
			if (a->kind == K_TYPING)
				close(kbd[0]);
			nthreads += a->kind == K_AUDIO ? 2 : 1;
			wait_placed(nthreads);
			continue;
		}
		if (a->kind == K_TYPING)
			close(kbd[1]);
		switch (a->kind) {
		case K_AUDIO: {
			pthread_t th;

			/* the News video thread, slaved to this audio thread */
			if (pthread_create(&th, NULL, run_thread, a + 1))
				die("pthread_create");
			wait_placed(nthreads + 1);
			audio_main(a);
			pthread_join(th, NULL);
			break;
		}
		case K_VIDEO:
			video_main(a);
			break;
		case K_TYPING:
			typing_main(a, kbd[0]);
			break;
		case K_BATCH:
			batch_main(a);
			break;
		case K_SRT:
			srt_main(a);
			break;
		case K_PLAYER:
			player_exec(a);
			break;
		}
		_exit(0);
	}
	if (kbd[1] >= 0) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork: %s", strerror(errno));
		if (!pid) {
			keyboard_main(kbd[1]);
			_exit(0);
		}
		close(kbd[1]);
		kids[nkids++] = pid;
	}
	/* wait; anything still there 5 s after the end is killed and reported */
	sleep_until(sh->end);
	for (int i = 0; i < nkids; i++) {
		int st, left = 500;
		pid_t r;

		while ((r = waitpid(kids[i], &st, WNOHANG)) == 0 && left--)
			usleep(10000);
		if (r == 0) {
			kill(kids[i], SIGKILL);
			waitpid(kids[i], &st, 0);
			die("a workload process did not end 5 s after the run (killed)");
		}
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			die("a workload process failed (status %#x)", st);
	}
}

/* ---- output ---------------------------------------------------------------- */

static void json_hist(const char *name, const char *lo_key, int lo, const char *bin_key,
		      int bin, const long *h, int n)
{
	printf(",\"%s\":{\"%s\":%d,\"%s\":%d,\"counts\":[", name, lo_key, lo, bin_key, bin);
	for (int i = 0; i < n; i++)
		printf("%s%ld", i ? "," : "", h[i]);
	printf("]}");
}

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static void json_app(const struct app *a, int p, double len_ns, double ideal)
{
	const struct stats *st = &a->ph[p];
	double pct = 100.0 * st->cpu_ns / len_ns;

	printf("{\"app\":\"%s\",\"kind\":\"%s\",\"cpu_pct\":%.3f", a->name, kind_names[a->kind], pct);
	/* the controls this label applied */
	if (label == L_SMART || label == L_NOBIAS) {
		if (sh->nphases > 1 || a->priority || a->share != SMART_SHARE_DEFAULT)
			printf(",\"priority\":%d,\"share\":%u", a->priority, a->share);
	} else if (a->nice && (a->policy == SCHED_OTHER || a->policy == SCHED_BATCH)) {
		printf(",\"nice\":%d", a->nice);
	}
	printf(",\"policy\":%d", a->policy);
	switch (a->kind) {
	case K_AUDIO:
		printf(",\"segments\":%ld,\"dropouts\":%ld,\"dropout_ms\":%.3f",
		       st->units, st->dropouts, st->dropout_ms);
		break;
	case K_VIDEO: {
		long shown = st->on_time + st->early + st->late;
		double mean = shown ? st->err_sum / shown : 0;
		double var = shown ? st->err_sq / shown - mean * mean : 0;

		printf(",\"frames\":%ld,\"on_time\":%ld,\"early\":%ld,\"late\":%ld,\"dropped\":%ld,\"notified\":%ld",
		       st->units, st->on_time, st->early, st->late, st->dropped, st->notified);
		if (use_constraints)
			printf(",\"overran\":%ld,\"expired\":%ld", st->overran, st->expired);
		printf(",\"error_ms\":{\"mean\":%.3f,\"sd\":%.3f}", mean, var > 0 ? sqrt(var) : 0);
		json_hist("error_hist", "lo_ms", ERR_LO_MS, "bin_ms", ERR_BIN_MS, st->err_hist, ERR_BINS);
		break;
	}
	case K_TYPING: {
		/* latencies of this phase, sorted, for the percentiles */
		static int64_t v[LAT_MAX];
		long n = sh->nlat[p];
		double sum = 0, sq = 0;

		memcpy(v, sh->lat_ns[p], n * sizeof(*v));
		for (long i = 0; i < n; i++) {
			sum += v[i] / 1e6;
			sq += (v[i] / 1e6) * (v[i] / 1e6);
		}
		qsort(v, n, sizeof(*v), cmp64);
		printf(",\"chars\":%ld,\"processed\":%ld,\"lt50\":%ld,\"lt150\":%ld,\"gt150\":%ld",
		       sh->chars_sent[p], st->processed, st->lt50, st->lt150, st->gt150);
		printf(",\"latency_ms\":{\"mean\":%.3f,\"sd\":%.3f,\"p50\":%.3f,\"p99\":%.3f,\"max\":%.3f}",
		       n ? sum / n : 0, n ? sqrt(fmax(0, sq / n - (sum / n) * (sum / n))) : 0,
		       n ? v[n / 2] / 1e6 : 0, n ? v[(n * 99) / 100] / 1e6 : 0,
		       n ? v[n - 1] / 1e6 : 0);
		json_hist("hist", "lo_ms", 0, "bin_ms", LAT_BIN_MS, st->lat_hist, LAT_BINS);
		break;
	}
	case K_BATCH:
		if (ideal >= 0)
			printf(",\"ideal_pct\":%.3f", ideal);
		break;
	case K_PLAYER: {
		char *rec = player_record(a);

		printf(",\"clip\":\"%s\",\"demand_pct\":%.3f,\"player\":%s", a->media_file,
		       a->mean_ms, rec ? rec : "null");
		free(rec);
		break;
	}
	case K_SRT:
		printf(",\"fps\":%d,\"util_pct\":%d,\"jobs\":%ld,\"missed\":%ld,\"notified\":%ld,\"dropped\":%ld",
		       a->fps, a->util, st->units, st->missed, st->notified, st->dropped);
		printf(",\"jobs_after_1s\":%ld,\"missed_after_1s\":%ld", st->late_jobs, st->late_missed);
		break;
	}
	printf("}");
}

static void print_notes(void)
{
	int n = 0;

	printf(",\"notes\":[");
	for (int i = 0; i < sh->napps; i++) {
		if (sh->app[i].note[0])
			printf("%s\"%s\"", n++ ? "," : "", sh->app[i].note);
	}
	printf("]");
}

/*
 * The batch task's ideal CPU share in phase @p: what the light apps (audio,
 * typing: their measured use) and the more important apps (their mean
 * demand) leave, divided among the heavy apps of the batch task's priority
 * by share, no app getting more than its mean demand (water filling).  For
 * the fig3 mix this is the paper's third of the rest.
 */
static double batch_ideal(int p, double len_ns)
{
	const struct app *batch = NULL;
	double left = 100, want[MAX_APPS];
	bool open[MAX_APPS] = { false };
	int i, nopen = 0;

	for (i = 0; i < sh->napps; i++)
		if (sh->app[i].kind == K_BATCH)
			batch = &sh->app[i];
	for (i = 0; i < sh->napps; i++) {
		const struct app *a = &sh->app[i];
		bool here = !(p && a->stop_ns && a->stop_ns <= sh->phase_at);

		want[i] = a->kind == K_BATCH ? 100 : 100 * a->mean_ms / a->period_ms;
		if (!here)
			continue;
		if (a->kind == K_AUDIO || a->kind == K_TYPING)
			left -= 100.0 * a->ph[p].cpu_ns / len_ns;
		else if (a->priority > batch->priority)
			left -= want[i];
		else
			open[i] = true, nopen++;
	}
	while (nopen && left > 0) {
		double shares = 0, slice;
		bool capped = false;

		for (i = 0; i < sh->napps; i++)
			shares += open[i] ? sh->app[i].share : 0;
		for (i = 0; i < sh->napps; i++) {
			slice = left * sh->app[i].share / shares;
			if (open[i] && want[i] <= slice) {
				left -= want[i];
				open[i] = false, nopen--;
				capped = true;
			}
		}
		if (!capped)
			return left * batch->share / shares;
	}
	return batch == NULL ? 0 : want[batch - sh->app];
}

static void print_mix(const char *exp, double duration)
{
	printf("{\"schema\":1,\"experiment\":\"%s\",\"label\":\"%s\",\"duration_s\":%.3f",
	       exp, label_names[label], duration);
	print_notes();
	printf(",\"phases\":[");
	for (int p = 0; p < sh->nphases; p++) {
		int64_t from = p ? sh->phase_at : sh->t0;
		int64_t to = p || sh->nphases == 1 ? sh->end : sh->phase_at;
		double len = to - from, used = 0;
		int n = 0;

		printf("%s{\"name\":\"%s\",\"start_s\":%.3f,\"end_s\":%.3f", p ? "," : "",
		       sh->nphases == 1 ? "all" : p ? "phase2" : "phase1",
		       (from - sh->t0) / 1e9, (to - sh->t0) / 1e9);
		for (int i = 0; i < sh->napps; i++)
			used += sh->app[i].ph[p].cpu_ns;
		printf(",\"other_cpu_pct\":%.3f,\"apps\":[", 100.0 - 100.0 * used / len);
		for (int i = 0; i < sh->napps; i++) {
			const struct app *a = &sh->app[i];

			if (p && a->stop_ns && a->stop_ns <= sh->phase_at)
				continue;
			printf("%s", n++ ? "," : "");
			json_app(a, p, len, a->kind == K_BATCH ? batch_ideal(p, len) : -1);
		}
		printf("]}");
	}
	printf("]}\n");
}

static void print_berate(int c, const char *variant, double duration)
{
	printf("{\"schema\":1,\"experiment\":\"berate\",\"case\":%d,\"label\":\"%s\",\"variant\":\"%s\",\"duration_s\":%.3f",
	       c, label_names[label], variant, duration);
	print_notes();
	printf(",\"apps\":[");
	for (int i = 0; i < sh->napps; i++) {
		printf("%s", i ? "," : "");
		json_app(&sh->app[i], 0, (double)(sh->end - sh->t0), -1);
	}
	printf("]}\n");
}

static void usage(int st)
{
	fprintf(st ? stderr : stdout,
		"Usage: smartbench fig3|fig5|realmix|berate --label SMART|SMART-nobias|EEVDF|FIFO|DEADLINE|\n"
		"                  SMART-unmodified|SMART-unmodified-noinfer\n"
		"                  [--duration SECONDS] [--seed N]\n"
		"                  [--case 1..6 --variant unmodified|unmodified-dropping|constraints|dropping]\n"
		"                                                                     (berate)\n"
		"                  [--player PATH] [--media DIR] [--frames-dir DIR]  (realmix)\n"
		"Runs one workload of the evaluation suite and prints one JSON record\n"
		"(bench/SCHEMA.md).\n");
	exit(st);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "label", required_argument, NULL, 'l' },
		{ "duration", required_argument, NULL, 'd' },
		{ "seed", required_argument, NULL, 's' },
		{ "case", required_argument, NULL, 'c' },
		{ "variant", required_argument, NULL, 'v' },
		{ "player", required_argument, NULL, 'P' },
		{ "media", required_argument, NULL, 'M' },
		{ "frames-dir", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	const char *exp, *lab = NULL, *variant = NULL;
	double duration = 30;
	int opt, bcase = 0;
	char *endp;

	while ((opt = getopt_long(argc, argv, "l:d:s:c:v:P:M:F:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'l': lab = optarg; break;
		case 'd':
			duration = strtod(optarg, &endp);
			if (*endp || !(duration >= 1 && duration <= 3600))
				die("--duration: '%s' is not a number of seconds in 1..3600", optarg);
			break;
		case 's': seed = strtoul(optarg, NULL, 0); break;
		case 'c': bcase = atoi(optarg); break;
		case 'v': variant = optarg; break;
		case 'P': player = optarg; break;
		case 'M': media_dir = optarg; break;
		case 'F': frames_dir = optarg; break;
		case 'h': usage(0); break;
		default: usage(2);
		}
	}
	if (optind != argc - 1 || !lab)
		usage(2);
	exp = argv[optind];
	for (label = 0; label < (int)(sizeof(label_names) / sizeof(*label_names)); label++)
		if (!strcmp(lab, label_names[label]))
			break;
	if (label == (int)(sizeof(label_names) / sizeof(*label_names)))
		die("unknown --label '%s'", lab);
	if ((label == L_SMART || label == L_NOBIAS) && smart_available() != 1)
		die("--label %s: this kernel has no SCHED_SMART", lab);
	if (label == L_UNMOD || label == L_UNMOD_NOINFER) {
		if (read_knob("/proc/sys/kernel/sched_smart_all") != 1)
			die("--label %s: needs a kernel booted with sched_smart=all", lab);
		if (read_knob("/proc/sys/kernel/smart/infer") != (label == L_UNMOD))
			die("--label %s: kernel.smart.infer must be %d", lab, label == L_UNMOD);
	}
	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	driver_pid = getpid();

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		die("mmap: %s", strerror(errno));
	me = &(struct app){ .name = "driver" };
	pin_cpu0();
	calibrate();	/* before the driver turns FIFO 99 */
	set_fifo(99);
	sh->t0 = now_ns() + MS(200);
	sh->end = sh->t0 + (int64_t)(duration * NSEC_PER_SEC);
	sh->phase_at = sh->end;
	sh->nphases = 1;
	use_constraints = label == L_SMART || label == L_NOBIAS;
	if (!strcmp(exp, "fig3") || !strcmp(exp, "fig5")) {
		if (variant || bcase)
			die("--case/--variant are for berate");
		setup_mix(exp[3] == '5', duration);
		run();
		print_mix(exp, duration);
	} else if (!strcmp(exp, "realmix")) {
		if (variant || bcase)
			die("--case/--variant are for berate");
		if (label == L_DEADLINE)
			die("realmix: DEADLINE needs a runtime to reserve, which a real decoder does not know");
		/* the players load their libraries and open their clips first */
		sh->t0 = now_ns() + MS(4000);
		sh->end = sh->phase_at = sh->t0 + (int64_t)(duration * NSEC_PER_SEC);
		setup_realmix();
		run();
		players_collect();
		print_mix(exp, duration);
	} else if (!strcmp(exp, "berate")) {
		if (!variant || (strcmp(variant, "unmodified") && strcmp(variant, "constraints") &&
				 strcmp(variant, "dropping") && strcmp(variant, "unmodified-dropping")))
			die("berate needs --variant unmodified|unmodified-dropping|constraints|dropping");
		srt_drop = !strcmp(variant, "dropping");
		srt_guess = !strcmp(variant, "unmodified-dropping");
		if (!strncmp(variant, "unmodified", 10))
			use_constraints = false;
		else if (!use_constraints)
			die("--variant %s needs a SMART label", variant);
		setup_berate(bcase);
		run();
		print_berate(bcase, variant, duration);
	} else {
		die("unknown experiment '%s' (fig3, fig5, realmix, berate)", exp);
	}
	return 0;
}
