// SPDX-License-Identifier: GPL-2.0
/*
 * grpbench: the hierarchical scheduling experiments of SFQ-H (Goyal, Guo
 * and Vin, OSDI '96, §5) on cgroup v2's cpu controller, for SMART and for
 * EEVDF's task groups in the same boot.  Every task is pinned to CPU 0;
 * the controller runs at SCHED_FIFO 99 and sleeps while tasks are
 * measured.  One JSON record on stdout (bench/SCHEMA.md, experiment
 * "groups").
 *
 *   grpbench scale    --label L --threads N --depth D --duration S
 *	Fig. 7: N spinning processes in one leaf group D levels deep (0: no
 *	group); the record has the loop iterations they completed, whose
 *	ratio to D = 0 is the cost of the hierarchy.
 *   grpbench fluct    --label L --duration S
 *	Fig. 8: groups a and b (cpu.weight 100 and 300, 2 hogs each) while
 *	group c's load changes every second (0, 2, 6, 2 hogs, ...), after
 *	2 s with c empty; then
 *	isolation: a (1 hog) against b (8 hogs), equal weights.  CPU time
 *	per group per second.
 *   grpbench periodic --label L --duration S
 *	Fig. 9 in spirit: a periodic task (4 ms every 20 ms, a time
 *	constraint under SMART) in group a, groups b and c saturated with 4
 *	hogs each; its dispatch latency and the deadlines it meets.
 *
 * Groups are made under /sys/fs/cgroup/grpbench-<pid> and removed at the
 * end.  Under label SMART the tasks are SCHED_SMART (opt-in boot).
 */
#include <fcntl.h>
#include <stdbool.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "benchutil.h"

#define CGROOT		"/sys/fs/cgroup"
#define MAX_TASKS	32
#define MAX_DEPTH	30
#define NSEC		1000000000ULL
#define MSEC		1000000ULL

static enum bu_label label;
static char top[256];
static char made[MAX_DEPTH + 4][256];
static int nr_made;

static void cg_write(const char *dir, const char *file, const char *val)
{
	char path[320];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		bu_die("write '%s' to %s: %s", val, path, strerror(errno));
	close(fd);
}

static const char *cg_make(const char *parent, const char *name, int weight,
			   bool controls)
{
	char *dir = made[nr_made];
	char w[16];

	snprintf(dir, sizeof(made[0]), "%s/%s", parent, name);
	if (mkdir(dir, 0755))
		bu_die("mkdir %s: %s", dir, strerror(errno));
	nr_made++;
	if (weight) {
		snprintf(w, sizeof(w), "%d", weight);
		cg_write(dir, "cpu.weight", w);
	}
	if (controls)
		cg_write(dir, "cgroup.subtree_control", "+cpu");
	return dir;
}

static void cg_setup(void)
{
	struct stat st;

	if (stat(CGROOT "/cgroup.controllers", &st) &&
	    mount("none", CGROOT, "cgroup2", 0, NULL))
		bu_die("mount cgroup2 on " CGROOT ": %s", strerror(errno));
	cg_write(CGROOT, "cgroup.subtree_control", "+cpu");
	snprintf(top, sizeof(top), "grpbench-%d", getpid());
	cg_make(CGROOT, top, 0, true);
	snprintf(top, sizeof(top), "%s", made[0]);
}

static void cg_enter(const char *dir, pid_t pid)
{
	char s[16];

	snprintf(s, sizeof(s), "%d", pid);
	cg_write(dir, "cgroup.procs", s);
}

/* ---- tasks: forked, released together, killed at the end ------------- */

struct task {
	pid_t pid;
	const char *group;
};

static struct task task[MAX_TASKS];
static int nr_task;
static int go[2] = { -1, -1 };
static volatile uint64_t *counter;	/* shared: iterations per task */

static void spin_body(int i)
{
	volatile uint64_t *c = &counter[i];

	for (;;)
		(*c)++;
}

/*
 * Fork task @i into group @dir running @body after the release.  The
 * child has closed its copy of the release pipe's write end before this
 * returns, so that stopping it cannot hold the others back.
 */
static pid_t spawn(const char *dir, void (*body)(int), int i)
{
	int ready[2];
	char c;
	pid_t pid;

	if (nr_task >= MAX_TASKS)
		bu_die("more than %d tasks", MAX_TASKS);
	if (pipe(ready))
		bu_die("pipe: %s", strerror(errno));
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		bu_die("fork: %s", strerror(errno));
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(go[1]);
		close(ready[0]);
		bu_set_policy(label, 0, 0);
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		close(ready[1]);
		if (read(go[0], &c, 1) < 0)
			_exit(1);
		body(i);
		_exit(0);
	}
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1)
		bu_die("task %d did not start", nr_task);
	close(ready[0]);
	if (dir)
		cg_enter(dir, pid);
	task[nr_task].pid = pid;
	task[nr_task].group = dir;
	nr_task++;
	return pid;
}

static void release(void)
{
	close(go[1]);
	go[1] = -1;
}

static uint64_t cpu_ns(pid_t pid)
{
	struct timespec ts;
	clockid_t clk = ((~(clockid_t)pid) << 3) | 2;	/* CPUCLOCK_SCHED of the process */

	if (clock_gettime(clk, &ts))
		return 0;
	return ts.tv_sec * NSEC + ts.tv_nsec;
}

static void cleanup(void)
{
	int i;

	for (i = 0; i < nr_task; i++)
		kill(task[i].pid, SIGKILL);
	for (i = 0; i < nr_task; i++)
		waitpid(task[i].pid, NULL, 0);
	nr_task = 0;
	for (i = nr_made - 1; i >= 0; i--)
		rmdir(made[i]);
	nr_made = 0;
}

/* ---- Fig. 7: the cost of the hierarchy --------------------------------- */

static void run_scale(int threads, int depth, double duration)
{
	const char *leaf = NULL;
	uint64_t sum = 0;
	char name[8];
	int i;

	for (i = 0; i < depth; i++) {
		snprintf(name, sizeof(name), "d%d", i);
		leaf = cg_make(i ? made[nr_made - 1] : top, name, 0, i < depth - 1);
	}
	for (i = 0; i < threads; i++)
		spawn(leaf, spin_body, i);
	release();
	bu_sleep_ns(duration * NSEC);
	for (i = 0; i < threads; i++)
		sum += counter[i];
	bu_json_begin("groups", label, duration);
	printf(",\"kind\":\"scale\",\"threads\":%d,\"depth\":%d,\"iterations\":%llu",
	       threads, depth, (unsigned long long)sum);
	bu_json_end();
}

/* ---- Fig. 8: shares under fluctuating load, and isolation ------------- */

static void hog_body(int i)
{
	(void)i;
	for (;;)
		__asm__ __volatile__("" ::: "memory");
}

static uint64_t group_cpu(const char *g)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < nr_task; i++)
		if (task[i].group == g)
			sum += cpu_ns(task[i].pid);
	return sum;
}

static void run_fluct(double duration)
{
	static const int c_load[] = { 0, 2, 6, 2 };
	const char *a = cg_make(top, "a", 100, false);
	const char *b = cg_make(top, "b", 300, false);
	const char *c = cg_make(top, "c", 100, false);
	int secs = duration, s, i, first_c;
	uint64_t pa, pb, pc;

	for (i = 0; i < 2; i++) {
		spawn(a, hog_body, 0);
		spawn(b, hog_body, 0);
	}
	first_c = nr_task;
	for (i = 0; i < 6; i++)
		spawn(c, hog_body, 0);
	for (i = first_c; i < nr_task; i++)
		kill(task[i].pid, SIGSTOP);
	release();
	/*
	 * Two seconds for a and b to settle: under SMART their bias grows
	 * for 10 quanta of each hog first (2.3), which a hog of a 20% group
	 * reaches after a second.  c's hogs rejoin after every stop as
	 * tasks back from a long sleep do, by eq. (7).
	 */
	bu_sleep_ns(2 * NSEC);
	bu_json_begin("groups", label, duration);
	printf(",\"kind\":\"fluct\",\"weights\":[100,300,100],\"seconds\":[");
	pa = group_cpu(a);
	pb = group_cpu(b);
	pc = group_cpu(c);
	for (s = 0; s < secs; s++) {
		int load = c_load[s % 4];
		uint64_t na, nb, nc;

		for (i = 0; i < 6; i++)
			kill(task[first_c + i].pid, i < load ? SIGCONT : SIGSTOP);
		bu_sleep_ns(NSEC);
		na = group_cpu(a);
		nb = group_cpu(b);
		nc = group_cpu(c);
		printf("%s{\"c_hogs\":%d,\"a_ms\":%.3f,\"b_ms\":%.3f,\"c_ms\":%.3f}",
		       s ? "," : "", load, (na - pa) / 1e6, (nb - pb) / 1e6,
		       (nc - pc) / 1e6);
		pa = na;
		pb = nb;
		pc = nc;
	}
	printf("]");
	cleanup();
	cg_setup();
	close(go[0]);
	if (pipe(go))
		bu_die("pipe: %s", strerror(errno));
	a = cg_make(top, "a", 100, false);
	b = cg_make(top, "b", 100, false);
	spawn(a, hog_body, 0);
	for (i = 0; i < 8; i++)
		spawn(b, hog_body, 0);
	release();
	bu_sleep_ns(2 * NSEC);
	pa = group_cpu(a);
	pb = group_cpu(b);
	bu_sleep_ns(4 * NSEC);
	printf(",\"isolation\":{\"a_tasks\":1,\"b_tasks\":8,\"a_ms\":%.3f,\"b_ms\":%.3f}",
	       (group_cpu(a) - pa) / 1e6, (group_cpu(b) - pb) / 1e6);
	bu_json_end();
}

/* ---- Fig. 9: a periodic task in a group beside saturated groups ------- */

#define PERIOD_NS	(20 * MSEC)
#define WORK_NS		(4 * MSEC)
#define LAT_BINS	64	/* 0.5 ms each */

struct periodic_out {
	uint64_t jobs, met, lat_max;
	uint64_t lat_hist[LAT_BINS];
};

static struct periodic_out *pout;
static uint64_t periodic_jobs;

static void periodic_body(int i)
{
	uint64_t t = bu_now_ns() + PERIOD_NS, j;

	(void)i;
	for (j = 0; j < periodic_jobs; j++) {
		struct smart_constraint c;
		uint64_t start, lat, spent;

		while (bu_now_ns() < t)
			bu_sleep_ns(t - bu_now_ns());
		start = bu_now_ns();
		lat = start - t;
		if (label == BU_SMART) {
			smart_constraint_prepare(&c, PERIOD_NS, WORK_NS + WORK_NS / 4,
						 PERIOD_NS, 0, j);
			c.deadline = t + PERIOD_NS;
			smart_constraint_begin(&c, 0);
		}
		spent = smart_thread_cpu_ns();
		while (smart_thread_cpu_ns() - spent < WORK_NS)
			;
		if (label == BU_SMART)
			smart_constraint_end(&c, 0);
		pout->jobs++;
		if (bu_now_ns() <= t + PERIOD_NS)
			pout->met++;
		pout->lat_hist[lat / (MSEC / 2) < LAT_BINS ? lat / (MSEC / 2) : LAT_BINS - 1]++;
		if (lat > pout->lat_max)
			pout->lat_max = lat;
		t += PERIOD_NS;
	}
	pause();
}

static void run_periodic(double duration)
{
	const char *a = cg_make(top, "a", 100, false);
	const char *b = cg_make(top, "b", 100, false);
	const char *c = cg_make(top, "c", 100, false);
	int i;

	pout = mmap(NULL, sizeof(*pout), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (pout == MAP_FAILED)
		bu_die("mmap: %s", strerror(errno));
	memset(pout, 0, sizeof(*pout));
	periodic_jobs = duration * NSEC / PERIOD_NS - 2;
	spawn(a, periodic_body, 0);
	for (i = 0; i < 4; i++) {
		spawn(b, hog_body, 0);
		spawn(c, hog_body, 0);
	}
	release();
	bu_sleep_ns(duration * NSEC);
	bu_json_begin("groups", label, duration);
	printf(",\"kind\":\"periodic\",\"period_ms\":20,\"work_ms\":4,\"jobs\":%llu,\"met\":%llu,"
	       "\"latency_max_ms\":%.3f,\"latency_bin_ms\":0.5,\"latency_hist\":[",
	       (unsigned long long)pout->jobs, (unsigned long long)pout->met,
	       pout->lat_max / 1e6);
	for (i = 0; i < LAT_BINS; i++)
		printf("%s%llu", i ? "," : "", (unsigned long long)pout->lat_hist[i]);
	printf("]");
	bu_json_end();
}

static void __attribute__((noreturn)) usage(void)
{
	fprintf(stderr,
		"usage: grpbench scale --label L --threads N --depth D --duration S\n"
		"       grpbench fluct --label L --duration S\n"
		"       grpbench periodic --label L --duration S\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int threads = 1, depth = 0, i;
	double duration = 10;
	const char *what;

	bu_prog = "grpbench";
	if (argc < 2)
		usage();
	what = argv[1];
	label = BU_EEVDF;
	for (i = 2; i < argc; i++) {
		if (i + 1 >= argc)
			usage();
		if (!strcmp(argv[i], "--label"))
			label = bu_parse_label(argv[++i]);
		else if (!strcmp(argv[i], "--threads"))
			threads = bu_parse_u64("--threads", argv[++i], 1, MAX_TASKS);
		else if (!strcmp(argv[i], "--depth"))
			depth = bu_parse_u64("--depth", argv[++i], 0, MAX_DEPTH);
		else if (!strcmp(argv[i], "--duration"))
			duration = bu_parse_seconds("--duration", argv[++i], 3600);
		else
			usage();
	}
	if (label == BU_FIFO)
		bu_die("label FIFO has no task groups to compare; use SMART or EEVDF");
	counter = mmap(NULL, MAX_TASKS * sizeof(*counter), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (counter == MAP_FAILED || pipe(go))
		bu_die("setup: %s", strerror(errno));
	bu_pin_cpu0();
	cg_setup();
	bu_set_controller();
	if (!strcmp(what, "scale"))
		run_scale(threads, depth, duration);
	else if (!strcmp(what, "fluct"))
		run_fluct(duration);
	else if (!strcmp(what, "periodic"))
		run_periodic(duration);
	else
		usage();
	cleanup();
	return 0;
}
