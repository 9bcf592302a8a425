// SPDX-License-Identifier: GPL-2.0
/*
 * rrlat - request/response wake-up latency and throughput, in the manner
 * of schbench: message threads wake worker threads that compute and sleep.
 *
 * --message-threads M threads each serve --workers W workers.  A worker
 * loops:
 *
 *	queue a request with its message thread (waking it if it sleeps),
 *	wait on a futex until the message thread posts it,
 *	record  latency = time it runs - time the message thread posted,
 *	compute --work-us of its own CPU time (thread CPU clock),
 *	sleep --sleep-us.
 *
 * A message thread sleeps until a request is queued, then posts every
 * queued request: it stamps the worker's post time and wakes it.  So each
 * request costs two wake-ups, the worker's is measured, and the CPU time
 * of a request is fixed: under contention requests per second fall.
 *
 * All threads are in the class of --label (SMART: SCHED_SMART priority 0
 * share 1024, EEVDF: SCHED_OTHER nice 0; under sched_smart=all
 * SCHED_OTHER is SMART, which the guest script records as SMART-all).
 * Nothing is pinned: placement is part of what is measured.  --hogs H
 * CPU-bound processes of the same class run beside them.  After
 * --warmup seconds, --runs windows of --seconds each are measured one
 * after the other; each gives its requests per second and wake-up
 * latency percentiles, and the record has every window and the medians.
 *
 * Output: one JSON record (bench/SCHEMA.md, experiment "rrlat") on stdout.
 */
#include <getopt.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "benchutil.h"

#define MAX_THREADS	256
#define MAX_HOGS	64
#define MAX_RUNS	100

struct msg_thread;

struct worker {
	struct msg_thread *m;
	struct worker *next;		/* on m->queue */
	_Atomic uint32_t posted;	/* futex word: 1 once posted */
	_Atomic uint64_t post_ns;
	struct sample *s;		/* measured wake-ups */
	uint64_t n, cap;
	bool lost;			/* a sample found no memory */
};

struct sample {
	uint64_t at, lat;		/* when it ran, how late */
};

struct msg_thread {
	_Atomic(struct worker *) queue;	/* Treiber stack of requests */
	_Atomic uint32_t pending;	/* futex word: requests queued */
};

static enum bu_label label = BU_SMART;
static uint64_t work_ns = 200000, sleep_ns = 2000000;
static _Atomic int measuring, stopping;
static pid_t hogs[MAX_HOGS];
static int nhogs;

static long futex(_Atomic uint32_t *uaddr, int op, uint32_t val)
{
	return syscall(SYS_futex, uaddr, op, val, NULL, NULL, 0);
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void compute(uint64_t ns)
{
	uint64_t end = thread_cpu_ns() + ns;
	volatile unsigned int x = 1;
	int i;

	do {
		for (i = 0; i < 1000; i++)
			x = x * 1103515245u + 12345u;
	} while (thread_cpu_ns() < end);
}

/* One wake-up of @w; the buffer grows (rarely: it starts at the expected need). */
static void record(struct worker *w, uint64_t at, uint64_t lat)
{
	struct sample *s = w->s;

	if (w->lost)
		return;
	if (w->n == w->cap) {
		s = realloc(w->s, 2 * w->cap * sizeof(*s));
		if (!s) {
			w->lost = true;
			return;
		}
		w->s = s;
		w->cap *= 2;
	}
	s[w->n].at = at;
	s[w->n++].lat = lat;
}

/* Hogs die with the program, however it ends. */
static void kill_hogs(void)
{
	int h;

	for (h = 0; h < nhogs; h++)
		kill(hogs[h], SIGKILL);
	for (h = 0; h < nhogs; h++)
		waitpid(hogs[h], NULL, 0);
	nhogs = 0;
}

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	struct msg_thread *m = w->m;
	uint64_t now;

	bu_set_policy(label, 0, 0);
	while (!atomic_load(&stopping)) {
		atomic_store(&w->posted, 0);
		w->next = atomic_load(&m->queue);
		while (!atomic_compare_exchange_weak(&m->queue, &w->next, w))
			;
		if (atomic_fetch_add(&m->pending, 1) == 0)
			futex(&m->pending, FUTEX_WAKE_PRIVATE, 1);
		while (!atomic_load(&w->posted))
			futex(&w->posted, FUTEX_WAIT_PRIVATE, 0);
		now = bu_now_ns();
		if (atomic_load(&measuring))
			record(w, now, now - atomic_load(&w->post_ns));
		compute(work_ns);
		if (sleep_ns)
			bu_sleep_ns(sleep_ns);
	}
	return NULL;
}

static void *msg_fn(void *arg)
{
	struct msg_thread *m = arg;
	struct worker *w, *next;

	bu_set_policy(label, 0, 0);
	for (;;) {
		while (!atomic_load(&m->pending)) {
			if (atomic_load(&stopping))
				return NULL;
			futex(&m->pending, FUTEX_WAIT_PRIVATE, 0);
		}
		atomic_store(&m->pending, 0);
		for (w = atomic_exchange(&m->queue, NULL); w; w = next) {
			next = w->next;
			atomic_store(&w->post_ns, bu_now_ns());
			atomic_store(&w->posted, 1);
			futex(&w->posted, FUTEX_WAKE_PRIVATE, 1);
		}
	}
}

/* One measured window: requests per second and wake-up percentiles (ns). */
struct window {
	double rps;
	uint64_t p50, p90, p99, p999, max;
};

/* The median of @v (@n >= 1), which it sorts. */
static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), bu_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The samples of every worker that ran in [@from, @to), into @w. */
static void measure_window(const struct worker *ws, uint64_t nws, uint64_t *buf,
			   uint64_t from, uint64_t to, struct window *w)
{
	uint64_t i, k, n = 0;

	for (i = 0; i < nws; i++)
		for (k = 0; k < ws[i].n; k++)
			if (ws[i].s[k].at >= from && ws[i].s[k].at < to)
				buf[n++] = ws[i].s[k].lat;
	memset(w, 0, sizeof(*w));
	if (!n)
		return;
	qsort(buf, n, sizeof(*buf), bu_cmp_u64);
	w->rps = n * 1e9 / (to - from);
	w->p50 = bu_quantile(buf, n, 0.50);
	w->p90 = bu_quantile(buf, n, 0.90);
	w->p99 = bu_quantile(buf, n, 0.99);
	w->p999 = bu_quantile(buf, n, 0.999);
	w->max = buf[n - 1];
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: rrlat --label SMART|EEVDF [--message-threads M] [--workers W]\n"
		"             [--work-us US] [--sleep-us US] [--seconds S] [--warmup S]\n"
		"             [--hogs H] [--runs N]\n"
		"\n"
		"Message threads wake workers that compute and sleep (schbench-like);\n"
		"prints the workers' wake-up latency and requests per second as JSON.\n"
		"\n"
		"  --message-threads M  message threads (default 2)\n"
		"  --workers W          workers per message thread (default 4)\n"
		"  --work-us US         CPU time per request (default 200)\n"
		"  --sleep-us US        a worker's sleep after each request (default 2000)\n"
		"  --seconds S          length of a measured window (default 10)\n"
		"  --runs N             windows, 1..%d (default 1)\n"
		"  --warmup S           time not counted first (default 1)\n"
		"  --hogs H             CPU hogs of the same class, 0..%d (default 0)\n",
		MAX_RUNS, MAX_HOGS);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "label", required_argument, NULL, 'l' },
		{ "message-threads", required_argument, NULL, 'm' },
		{ "workers", required_argument, NULL, 't' },
		{ "work-us", required_argument, NULL, 'c' },
		{ "sleep-us", required_argument, NULL, 's' },
		{ "seconds", required_argument, NULL, 'r' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "hogs", required_argument, NULL, 'H' },
		{ "runs", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct window win[MAX_RUNS];
	static double rps[MAX_RUNS], p50[MAX_RUNS], p99[MAX_RUNS];
	uint64_t nm = 2, nw = 4, i, n = 0, t0, t1, *buf;
	double seconds = 10, warmup = 1;
	int opt, have_label = 0, want_hogs = 0, err, r, runs = 1;
	pthread_t tid[MAX_THREADS];
	struct msg_thread *ms;
	struct worker *ws;

	bu_prog = "rrlat";
	while ((opt = getopt_long(argc, argv, "l:m:t:c:s:r:w:H:n:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'l': label = bu_parse_label(optarg); have_label = 1; break;
		case 'm': nm = bu_parse_u64("--message-threads", optarg, 1, MAX_THREADS); break;
		case 't': nw = bu_parse_u64("--workers", optarg, 1, MAX_THREADS); break;
		case 'c': work_ns = 1000 * bu_parse_u64("--work-us", optarg, 0, 1000000); break;
		case 's': sleep_ns = 1000 * bu_parse_u64("--sleep-us", optarg, 0, 1000000); break;
		case 'r': seconds = bu_parse_seconds("--seconds", optarg, 3600); break;
		case 'w': warmup = bu_parse_seconds("--warmup", optarg, 3600); break;
		case 'H': want_hogs = bu_parse_u64("--hogs", optarg, 0, MAX_HOGS); break;
		case 'n': runs = bu_parse_u64("--runs", optarg, 1, MAX_RUNS); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 1;
		}
	}
	if (optind != argc || !have_label || label == BU_FIFO) {
		usage(stderr);
		return 1;
	}
	if (nm * (nw + 1) > MAX_THREADS)
		bu_die("--message-threads x (--workers + 1) must be at most %d", MAX_THREADS);
	if (label == BU_SMART && !smart_available())
		bu_die("this kernel has no SCHED_SMART (%s missing)", SMART_MODE_SYSCTL);

	ms = calloc(nm, sizeof(*ms));
	ws = calloc(nm * nw, sizeof(*ws));
	if (!ms || !ws)
		bu_die("out of memory");
	for (i = 0; i < nm * nw; i++) {
		ws[i].m = &ms[i / nw];
		/* a request per work + sleep + 20 us, to begin with */
		ws[i].cap = (uint64_t)(runs * seconds * 1e9 /
					(work_ns + sleep_ns + 20000)) + 1000;
		ws[i].s = malloc(ws[i].cap * sizeof(*ws[i].s));
		if (!ws[i].s)
			bu_die("out of memory");
	}

	/* The controller (this thread) must stop the run on time. */
	bu_set_controller();
	atexit(kill_hogs);
	while (nhogs < want_hogs) {
		pid_t pid = fork();

		if (pid < 0)
			bu_die("fork: %s", strerror(errno));
		if (pid == 0) {
			bu_prog = "rrlat (hog)";
			nhogs = 0;	/* its exit kills nobody */
			bu_set_policy(label, 0, 0);
			for (;;)
				__asm__ __volatile__("" ::: "memory");
		}
		hogs[nhogs++] = pid;
	}
	for (i = 0; i < nm + nm * nw; i++) {
		err = i < nm ? pthread_create(&tid[i], NULL, msg_fn, &ms[i]) :
			       pthread_create(&tid[i], NULL, worker_fn, &ws[i - nm]);
		if (err)
			bu_die("pthread_create: %s", strerror(err));
	}

	bu_sleep_ns((uint64_t)(warmup * 1e9));
	t0 = bu_now_ns();
	atomic_store(&measuring, 1);
	bu_sleep_ns((uint64_t)(runs * seconds * 1e9));
	atomic_store(&measuring, 0);
	t1 = bu_now_ns();
	atomic_store(&stopping, 1);
	for (i = 0; i < nm * nw; i++)
		pthread_join(tid[nm + i], NULL);
	for (i = 0; i < nm; i++) {
		atomic_fetch_add(&ms[i].pending, 1);
		futex(&ms[i].pending, FUTEX_WAKE_PRIVATE, 1);
		pthread_join(tid[i], NULL);
	}
	kill_hogs();

	for (i = 0; i < nm * nw; i++) {
		if (ws[i].lost)
			bu_die("out of memory for the samples of worker %llu",
			       (unsigned long long)i);
		n += ws[i].n;
	}
	buf = malloc((n ? n : 1) * sizeof(*buf));
	if (!buf)
		bu_die("out of memory");
	for (r = 0; r < runs; r++) {
		uint64_t from = t0 + (t1 - t0) * r / runs, to = t0 + (t1 - t0) * (r + 1) / runs;

		measure_window(ws, nm * nw, buf, from, to, &win[r]);
		if (!win[r].rps)
			bu_die("no request was served in window %d of %d", r + 1, runs);
		rps[r] = win[r].rps;
		p50[r] = win[r].p50 / 1e3;
		p99[r] = win[r].p99 / 1e3;
	}

	bu_json_begin("rrlat", label, (t1 - t0) / 1e9);
	printf(",\"cpus\":%ld,\"message_threads\":%llu,\"workers\":%llu,"
	       "\"work_us\":%llu,\"sleep_us\":%llu,\"hogs\":%d,\"runs\":[",
	       sysconf(_SC_NPROCESSORS_ONLN), (unsigned long long)nm,
	       (unsigned long long)nw, (unsigned long long)work_ns / 1000,
	       (unsigned long long)sleep_ns / 1000, want_hogs);
	for (r = 0; r < runs; r++)
		printf("%s{\"rps\":%.1f,\"p50_us\":%.1f,\"p90_us\":%.1f,\"p99_us\":%.1f,"
		       "\"p999_us\":%.1f,\"max_us\":%.1f}", r ? "," : "", win[r].rps,
		       win[r].p50 / 1e3, win[r].p90 / 1e3, win[r].p99 / 1e3,
		       win[r].p999 / 1e3, win[r].max / 1e3);
	printf("],\"rps\":%.1f,\"p50_us\":%.1f,\"p99_us\":%.1f",
	       median(rps, runs), median(p50, runs), median(p99, runs));
	bu_json_end();
	return 0;
}
