// SPDX-License-Identifier: GPL-2.0
/*
 * Shared helpers of the SCHED_SMART selftests (declared in util.h).
 */
#include <poll.h>
#include "util.h"

static bool env_set(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0");
}

bool smart_smoke(void)
{
	return env_set("SMART_SMOKE");
}

bool smart_stolen_clock(void)
{
	return env_set("SMART_STOLEN_CLOCK");
}

bool smart_present(void)
{
	return access(SMART_SYSCTL_MODE, F_OK) == 0;
}

int smart_mode(void)
{
	FILE *f = fopen(SMART_SYSCTL_MODE, "r");
	int v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

const char *smart_mode_name(void)
{
	switch (smart_mode()) {
	case 0: return "opt-in";
	case 1: return "all";
	default: return "absent";
	}
}

int smart_setattr(pid_t pid, const void *attr, unsigned int flags)
{
	if (!smart_present()) {
		errno = ENOSYS;
		return -1;
	}
	return syscall(__NR_smart_setattr, pid, attr, flags);
}

int smart_getattr(pid_t pid, void *attr, unsigned int size, unsigned int flags)
{
	if (!smart_present()) {
		errno = ENOSYS;
		return -1;
	}
	return syscall(__NR_smart_getattr, pid, attr, size, flags);
}

int smart_constraint_begin(void *c, unsigned int flags)
{
	if (!smart_present()) {
		errno = ENOSYS;
		return -1;
	}
	return syscall(__NR_smart_constraint_begin, c, flags);
}

int smart_constraint_end(void *c, unsigned int flags)
{
	if (!smart_present()) {
		errno = ENOSYS;
		return -1;
	}
	return syscall(__NR_smart_constraint_end, c, flags);
}

int sys_sched_setattr(pid_t pid, struct sched_attr *a, unsigned int flags)
{
	return syscall(__NR_sched_setattr, pid, a, flags);
}

pid_t sys_gettid(void)
{
	return syscall(__NR_gettid);
}

int smart_get(pid_t pid, struct smart_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	if (smart_getattr(pid, a, sizeof(*a), 0))
		return -errno;
	return 0;
}

int smart_set(pid_t pid, unsigned int mask, int prio, unsigned int share)
{
	struct smart_attr a = {
		.size = sizeof(a), .mask = mask,
		.priority = prio, .share = share,
	};

	if (smart_setattr(pid, &a, 0))
		return -errno;
	return 0;
}

bool smart_attr_same(const struct smart_attr *x, const struct smart_attr *y)
{
	return x->priority == y->priority && x->share == y->share &&
	       x->notify_signal == y->notify_signal && x->flags == y->flags;
}

int read_u64(const char *path, unsigned long long *v)
{
	char buf[64];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	if (sscanf(buf, "%llu", v) != 1)
		return -EIO;
	return 0;
}

int write_str(const char *path, const char *s)
{
	ssize_t n;
	int fd = open(path, O_WRONLY);
	int err = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	if (n < 0)
		err = -errno;
	else if ((size_t)n != strlen(s))
		err = -EIO;
	close(fd);
	return err;
}

unsigned long long smart_tunable(const char *name, unsigned long long dflt)
{
	char path[128];
	unsigned long long v;

	snprintf(path, sizeof(path), SMART_SYSCTL_DIR "%s", name);
	return read_u64(path, &v) ? dflt : v;
}

long long ts_ns(const struct timespec *t)
{
	return t->tv_sec * NSEC_PER_SEC + t->tv_nsec;
}

long long mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return ts_ns(&t);
}

double smart_ms(long long ns)
{
	return ns / 1e6;
}

long long thread_cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return ts_ns(&t);
}

/* the value of "smart.<name>" in /proc/<pid>/sched, or LLONG_MIN */
long long proc_smart_field(pid_t pid, const char *name)
{
	char path[64], line[256], key[64];
	long long v = LLONG_MIN;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/sched", pid);
	snprintf(key, sizeof(key), "smart.%s ", name);
	f = fopen(path, "r");
	if (!f)
		return v;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!strncmp(line, key, strlen(key)) && colon)
			v = atoll(colon + 1);
	}
	fclose(f);
	return v;
}

long long proc_cpu_ns(pid_t pid)
{
	struct timespec t;
	clockid_t cid;

	if (clock_getcpuclockid(pid, &cid))
		return -1;
	if (clock_gettime(cid, &t))
		return -1;
	return ts_ns(&t);
}

void sleep_until_ns(long long abs_mono)
{
	struct timespec t = {
		.tv_sec = abs_mono / NSEC_PER_SEC,
		.tv_nsec = abs_mono % NSEC_PER_SEC,
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR)
		;
}

void sleep_ns(long long ns)
{
	sleep_until_ns(mono_ns() + ns);
}

void spin_cpu_ns(long long ns)
{
	long long end = thread_cpu_ns() + ns;

	while (thread_cpu_ns() < end)
		;
}

int online_cpus(void)
{
	cpu_set_t s;

	if (sched_getaffinity(0, sizeof(s), &s))
		return (int)sysconf(_SC_NPROCESSORS_ONLN);
	return CPU_COUNT(&s);
}

int pin_to(pid_t pid, int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	return sched_setaffinity(pid, sizeof(s), &s);
}

int pin_mask(pid_t pid, unsigned long mask)
{
	cpu_set_t s;
	int i;

	CPU_ZERO(&s);
	for (i = 0; i < CPU_SETSIZE; i++)
		if (!mask || (i < (int)(8 * sizeof(mask)) && (mask & (1UL << i))))
			CPU_SET(i, &s);
	return sched_setaffinity(pid, sizeof(s), &s);
}

void controller_setup(int cpu)
{
	struct sched_param sp = { .sched_priority = 10 };

	if (cpu >= 0)
		pin_to(0, cpu);
	sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp);
}

int controller_cpu(void)
{
	return online_cpus() >= 2 ? 1 : 0;
}

void hog_spin_forever(void *arg)
{
	(void)arg;
	for (;;)
		__asm__ __volatile__("" ::: "memory");
}

void hogs_init(struct hog_set *h)
{
	memset(h, 0, sizeof(*h));
	h->owner = getpid();
	if (pipe(h->go)) {
		h->go[0] = -1;
		h->go[1] = -1;
	}
}

pid_t hog_spawn(struct hog_set *h, unsigned long mask, hog_body_t body, void *arg)
{
	pid_t parent = getpid();
	int ready[2];
	char c;
	pid_t pid;

	if (h->n >= MAX_HOGS || h->go[0] < 0 || pipe(ready))
		return -1;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		close(ready[0]);
		close(ready[1]);
		return -1;
	}
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		close(h->go[1]);
		close(ready[0]);
		if (pin_mask(0, mask))
			_exit(2);
		if (write(ready[1], "r", 1) != 1)
			_exit(3);
		close(ready[1]);
		if (read(h->go[0], &c, 1) < 0)
			_exit(4);
		body(arg);
		_exit(0);
	}
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1) {
		close(ready[0]);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -1;
	}
	close(ready[0]);
	h->pid[h->n++] = pid;
	return pid;
}

void hogs_go(struct hog_set *h)
{
	close(h->go[1]);
	h->go[1] = -1;
}

long long hogs_sample(struct hog_set *h, long long *out)
{
	long long t = mono_ns();
	int i;

	for (i = 0; i < h->n; i++)
		out[i] = proc_cpu_ns(h->pid[i]);
	return t;
}

void hogs_measure(struct hog_set *h, long long window_ns)
{
	h->t0 = hogs_sample(h, h->cpu0);
	sleep_until_ns(h->t0 + window_ns);
	h->t1 = hogs_sample(h, h->cpu1);
}

/* /proc/PID/stat into @buf; the fields after "pid (comm)", NULL on error */
static const char *proc_stat_fields(pid_t pid, char *buf, size_t len)
{
	char path[64], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return NULL;
	buf[n] = 0;
	p = strrchr(buf, ')');	/* comm may contain spaces */
	return p && p[1] == ' ' ? p + 2 : NULL;
}

char proc_state(pid_t pid)
{
	char buf[1024];
	const char *p = proc_stat_fields(pid, buf, sizeof(buf));

	return p ? p[0] : 0;
}

int proc_stat_cpu(pid_t pid)
{
	char buf[1024];
	const char *p = proc_stat_fields(pid, buf, sizeof(buf));
	int field, cpu = -1;

	/* p is at field 3 (state); the CPU is field 39 */
	for (field = 3; p && field < 39; field++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	if (p)
		sscanf(p, "%d", &cpu);
	return cpu;
}

int write_in(const char *dir, const char *file, const char *val)
{
	char path[320];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return write_str(path, val);
}

long long hog_delta(const struct hog_set *h, int i)
{
	return h->cpu1[i] - h->cpu0[i];
}

bool hog_alive(const struct hog_set *h, int i)
{
	int st;

	return waitpid(h->pid[i], &st, WNOHANG) == 0;
}

bool pid_exits_within(pid_t pid, int ms)
{
	struct pollfd p = { .events = POLLIN };
	int r;

	p.fd = syscall(SYS_pidfd_open, pid, 0);
	if (p.fd < 0)
		return errno == ESRCH;
	r = poll(&p, 1, ms);
	close(p.fd);
	return r == 1;
}

void hogs_kill(struct hog_set *h)
{
	bool mine = getpid() == h->owner;
	int i;

	for (i = 0; i < h->n; i++)
		if (h->pid[i] > 0)
			kill(h->pid[i], SIGKILL);
	for (i = 0; i < h->n; i++) {
		if (h->pid[i] <= 0)
			continue;
		if (mine)
			waitpid(h->pid[i], NULL, 0);
		else
			pid_exits_within(h->pid[i], 10000);
	}
	h->n = 0;
	/* the pipe's descriptors are the owner's; here they may be others */
	if (mine && h->go[0] >= 0)
		close(h->go[0]);
	if (mine && h->go[1] >= 0)
		close(h->go[1]);
	h->go[0] = -1;
	h->go[1] = -1;
}

void *shared_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

int run_child(int (*fn)(void *), void *arg)
{
	int st = 0;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fails = fn(arg);

		fflush(stdout);
		fflush(stderr);
		_exit(fails > 100 ? 100 : fails);
	}
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return st;
}

int drop_to_nobody(void)
{
	pid_t parent = getppid();
	int sig = 0;

	if (prctl(PR_GET_PDEATHSIG, &sig))
		return -errno;
	if (setgroups(0, NULL) && errno != EPERM)
		return -errno;
	if (setresgid(NOBODY_ID, NOBODY_ID, NOBODY_ID))
		return -errno;
	if (setresuid(NOBODY_ID, NOBODY_ID, NOBODY_ID))
		return -errno;
	if (sig && prctl(PR_SET_PDEATHSIG, sig))
		return -errno;
	if (sig && getppid() != parent)
		raise(sig);	/* the parent died in between */
	return 0;
}

unsigned long long cap_eff(void)
{
	char line[256];
	unsigned long long v = ~0ULL;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return v;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &v) == 1)
			break;
	fclose(f);
	return v;
}

unsigned int nice_to_weight(int nice)
{
	static const unsigned int w[40] = {
		/* -20 */ 88761, 71755, 56483, 46273, 36291,
		/* -15 */ 29154, 23254, 18705, 14949, 11916,
		/* -10 */  9548,  7620,  6100,  4904,  3906,
		/*  -5 */  3121,  2501,  1991,  1586,  1277,
		/*   0 */  1024,   820,   655,   526,   423,
		/*   5 */   335,   272,   215,   172,   137,
		/*  10 */   110,    87,    70,    56,    45,
		/*  15 */    36,    29,    23,    18,    15,
	};

	return w[nice + 20];
}

void smart_tc_init(struct smart_constraint *c, unsigned int flags,
		   long long deadline, long long estimate,
		   long long period, unsigned long long cookie)
{
	memset(c, 0, sizeof(*c));
	c->size = sizeof(*c);
	c->flags = flags;
	c->deadline = deadline;
	c->estimate = estimate;
	c->period = period;
	c->cookie = cookie;
}

int smart_tc_begin(struct smart_constraint *c)
{
	return smart_constraint_begin(c, 0) ? -errno : 0;
}

int smart_tc_end(struct smart_constraint *c)
{
	return smart_constraint_end(c, 0) ? -errno : 0;
}

const char *smart_status_name(unsigned int s)
{
	switch (s) {
	case SMART_STATUS_FEASIBLE: return "FEASIBLE";
	case SMART_STATUS_INFEASIBLE: return "INFEASIBLE";
	case SMART_STATUS_MET: return "MET";
	case SMART_STATUS_MISSED: return "MISSED";
	default: return "?";
	}
}

const char *smart_code_name(int code)
{
	switch (code) {
	case SMART_NOTIFY_INFEASIBLE: return "INFEASIBLE";
	case SMART_NOTIFY_EXPIRED: return "EXPIRED";
	default: return "?";
	}
}

unsigned int smart_status_for(const struct smart_constraint *c)
{
	return c->available >= c->estimate ? SMART_STATUS_FEASIBLE :
					     SMART_STATUS_INFEASIBLE;
}

long long smart_used_tol(long long ns)
{
	return 2 * NSEC_PER_MSEC + ns / 20;
}

bool smart_used_ok(long long used, long long inner, long long outer)
{
	return used >= inner - smart_used_tol(inner) &&
	       used <= outer + smart_used_tol(outer);
}

struct smart_counts smart_counts_self(void)
{
	struct smart_counts n = { -1, -1, -1 };
	struct smart_attr a;

	if (!smart_get(0, &a)) {
		n.met = a.constraints_met;
		n.missed = a.constraints_missed;
		n.notified = a.notifications;
	}
	return n;
}

int smart_set_signal(int sig)
{
	struct smart_attr a = {
		.size = sizeof(a), .mask = SMART_ATTR_SIGNAL, .notify_signal = sig,
	};

	return smart_setattr(0, &a, 0) ? -errno : 0;
}

struct smart_note_log *smart_notes(void)
{
	static struct smart_note_log log;

	return &log;
}

struct smart_note_self *smart_note_self(void)
{
	static __thread struct smart_note_self self;

	return &self;
}

long smart_note_count(void)
{
	long n = __atomic_load_n(&smart_note_self()->n, __ATOMIC_RELAXED);

	__atomic_signal_fence(__ATOMIC_ACQUIRE);
	return n;
}

void smart_note_handler(int sig, siginfo_t *si, void *uc)
{
	struct smart_note_self *self = smart_note_self();
	struct smart_note_log *log = smart_notes();
	int saved = errno, i;
	struct smart_note nt = {
		.tid = sys_gettid(), .signo = sig, .code = si->si_code,
		.pid = si->si_pid, .uid = si->si_uid,
		.cookie = (unsigned long long)(uintptr_t)si->si_value.sival_ptr,
		.t = mono_ns(),
	};

	(void)uc;
	i = __atomic_fetch_add(&log->n, 1, __ATOMIC_RELAXED);
	if (i < SMART_NOTE_MAX)
		log->note[i] = nt;
	self->last = nt;
	__atomic_signal_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&self->n, self->n + 1, __ATOMIC_RELAXED);
	errno = saved;
}

int smart_note_install(int sig)
{
	struct sigaction sa;
	sigset_t s;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = smart_note_handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, NULL))
		return -errno;
	sigemptyset(&s);
	sigaddset(&s, sig);
	return -pthread_sigmask(SIG_UNBLOCK, &s, NULL);
}

bool smart_note_wait(long n, long long timeout_ns)
{
	long long end = mono_ns() + timeout_ns;

	while (smart_note_count() <= n && mono_ns() < end)
		sleep_ns(NSEC_PER_MSEC);
	return smart_note_count() > n;
}

int smart_cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

long long pct_ll(const long long *v, int n, int p)
{
	int i = (int)(((long long)n * p + 99) / 100) - 1;

	if (n <= 0)
		return 0;
	return v[i < 0 ? 0 : i < n ? i : n - 1];
}
