// SPDX-License-Identifier: GPL-2.0
/*
 * smartctl - show and change SCHED_SMART attributes, run a command under
 * SCHED_SMART, watch the SMART run queues, read and write the tunables.
 *
 *	smartctl [get] [-a] -p PID...
 *	smartctl set [-a] -p PID [--priority N] [--share N] [--signal SIG] [--reset-on-fork]
 *	smartctl run [--priority N] [--share N] [--signal SIG] [--reset-on-fork] -- CMD ARGS...
 *	smartctl top [--once] [--json] [--interval SEC] [--cpu N]
 *	smartctl tune [NAME[=VALUE]...]
 *
 * The command-line conventions are util-linux chrt(1)'s.  Invoked with an
 * argument naming a device (/dev/...), it hands over to smartmontools'
 * smartctl when that is installed: see smartctl(8), NOTES.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "smart.h"
#include "parse.h"
#include "queues.h"

#ifndef SCHED_RESET_ON_FORK
#define SCHED_RESET_ON_FORK	0x40000000
#endif
#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE		6
#endif
#ifndef SCHED_EXT
#define SCHED_EXT		7
#endif

#define SMARTMONTOOLS_PATH	"/usr/sbin/smartctl"
#define SMARTMONTOOLS_ENV	"SMARTCTL_SMARTMONTOOLS"

enum cmd { CMD_GET, CMD_SET, CMD_RUN, CMD_TOP, CMD_TUNE, NR_CMDS };

static const char *const cmd_names[NR_CMDS] = {
	[CMD_GET] = "get", [CMD_SET] = "set", [CMD_RUN] = "run",
	[CMD_TOP] = "top", [CMD_TUNE] = "tune",
};

static const char *prog = "smartctl";
static int fail_status = EXIT_FAILURE;	/* 125 for run, like env(1) */

struct opts {
	pid_t *pids;
	size_t npids;
	bool all_tasks;
	bool has_prio, has_share, has_signal, has_flags;
	int prio;
	unsigned int share;
	int signal;
	unsigned int flags_set, flags_clear;	/* SMART_FLAG_* to set, to clear */
	bool once, json, verbose, values;
	uint64_t interval_ns;
	int cpu;
	const char *file;
};

/* ------------------------------------------------------------------ */
/* Messages                                                            */

static void __attribute__((format(printf, 1, 2))) warnx(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void __attribute__((noreturn)) errtryhelp(void)
{
	fprintf(stderr, "Try '%s --help' for more information.\n", prog);
	exit(fail_status);
}

static void usage(void)
{
	FILE *out = stdout;

	fprintf(out, "\nUsage:\n"
		" %1$s [get] [options] -p <pid>...\n"
		" %1$s set [options] -p <pid>... [attributes]\n"
		" %1$s run [attributes] [--] <command> [<argument>...]\n"
		" %1$s top [options]\n"
		" %1$s tune [<name>[=<value>]...]\n",
		prog);
	fputs("\nShow or change the SCHED_SMART attributes of a thread, run a command under\n"
	      "SCHED_SMART, watch the SMART run queues, or read and write its tunables.\n"
	      "\nCommands:\n"
	      " get                      show policy, priority, share, notify signal, flags,\n"
	      "                            lag, bias, constraint counters and the period\n"
	      "                            SMART inferred (the default)\n"
	      " set                      change attributes; moves the thread into SCHED_SMART\n"
	      " run                      run a command in SCHED_SMART with the attributes given\n"
	      " top                      show the per-CPU SMART queues (needs debugfs, root)\n"
	      " tune                     list, read or write the tunables (writing: root)\n"
	      "\nOptions for get and set:\n"
	      " -p, --pid <pid>          the process or thread to act on (repeatable)\n"
	      " -a, --all-tasks          act on all threads of each <pid>\n"
	      " -v, --verbose            set: show the attributes afterwards\n"
	      "\nAttributes (set and run):\n"
	      " -P, --priority <n>       priority, -16..16, higher is more important (default 0)\n"
	      " -s, --share <n>          proportional share within a priority, 1..1048576\n"
	      "                            (1024 = the weight of nice 0)\n"
	      " -S, --signal <sig>       notification signal: a number 1..64, a name (XCPU, USR1,\n"
	      "                            RTMIN+1, RTMAX-2), or 'default' (SIGXCPU)\n"
	      " -R, --reset-on-fork      children start with at most the default priority and share\n"
	      "     --no-reset-on-fork   clear that flag (needs CAP_SYS_NICE once set)\n"
	      "     --no-infer           no time constraints inferred from its wake-ups\n"
	      "     --infer              clear that flag\n"
	      "\nOptions for top:\n"
	      " -1, --once               print one snapshot and exit\n"
	      " -j, --json               print one snapshot as a JSON object and exit\n"
	      " -i, --interval <sec>     refresh interval in seconds (default 1; 0.5, 200ms)\n"
	      " -c, --cpu <n>            only CPU <n>\n"
	      " -f, --file <path>        read the queues from <path> (default\n"
	      "                            " SQ_PATH ")\n"
	      "\nOptions for tune:\n"
	      " -n, --values             print values only\n"
	      "                          <value> is in ns, or has a unit: ns, us, ms, s\n"
	      "\n -h, --help               display this help\n"
	      " -V, --version            display version\n"
	      "\nA <pid> is a thread id; a process id names its main thread (see --all-tasks).\n"
	      "An argument that names a device (/dev/...) hands over to smartmontools'\n"
	      SMARTMONTOOLS_PATH " (disk S.M.A.R.T.) when it is installed.\n"
	      "\nFor more details see smartctl(8).\n", out);
	exit(EXIT_SUCCESS);
}

static void version(void)
{
	printf("%s from smart-tools %s (SCHED_SMART scheduler, libsmart %s)\n",
	       prog, LIBSMART_VERSION, LIBSMART_VERSION);
	exit(EXIT_SUCCESS);
}

/* ------------------------------------------------------------------ */
/* smartmontools hand-over                                             */

static bool is_command(const char *s)
{
	int i;

	if (!strcmp(s, "help"))
		return true;
	for (i = 0; i < NR_CMDS; i++)
		if (!strcmp(s, cmd_names[i]))
			return true;
	return false;
}

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/*
 * "smartctl -a /dev/sda" is smartmontools' command line: if an argument
 * names a device and the first is not one of our commands, run
 * smartmontools' smartctl with the same argv.
 */
static void maybe_smartmontools(int argc, char **argv)
{
	const char *tool = getenv(SMARTMONTOOLS_ENV);
	const char *dev = NULL;
	int i;

	if (argc < 2 || is_command(argv[1]))
		return;
	for (i = 1; i < argc && !dev; i++)
		if (!strncmp(argv[i], "/dev/", 5))
			dev = argv[i];
	if (!dev)
		return;
	if (!tool || !*tool)
		tool = SMARTMONTOOLS_PATH;
	if (access(tool, X_OK) == 0 && !same_file(tool, "/proc/self/exe")) {
		int err;

		execv(tool, argv);
		err = errno;
		warnx("failed to execute %s: %s", tool, strerror(err));
		exit(err == ENOENT ? 127 : 126);
	}
	warnx("'%s' names a device, but this %s is the SCHED_SMART scheduler tool; "
	      "disk S.M.A.R.T. is smartmontools' %s, which is not installed",
	      dev, prog, tool);
	exit(EXIT_FAILURE);
}

/* ------------------------------------------------------------------ */
/* Option parsing                                                      */

enum {
	OPT_NO_RESET_ON_FORK = 0x100,
	OPT_INFER,
	OPT_NO_INFER,
};

/* which commands take each option */
#define GS	((1 << CMD_GET) | (1 << CMD_SET))
#define ATTR	((1 << CMD_SET) | (1 << CMD_RUN))
#define TOP	(1 << CMD_TOP)
#define TUNE	(1 << CMD_TUNE)
#define ANY	((1 << NR_CMDS) - 1)

static const struct option longopts[] = {
	{ "pid",		required_argument, NULL, 'p' },
	{ "all-tasks",		no_argument,	   NULL, 'a' },
	{ "verbose",		no_argument,	   NULL, 'v' },
	{ "priority",		required_argument, NULL, 'P' },
	{ "share",		required_argument, NULL, 's' },
	{ "signal",		required_argument, NULL, 'S' },
	{ "reset-on-fork",	no_argument,	   NULL, 'R' },
	{ "no-reset-on-fork",	no_argument,	   NULL, OPT_NO_RESET_ON_FORK },
	{ "infer",		no_argument,	   NULL, OPT_INFER },
	{ "no-infer",		no_argument,	   NULL, OPT_NO_INFER },
	{ "once",		no_argument,	   NULL, '1' },
	{ "json",		no_argument,	   NULL, 'j' },
	{ "interval",		required_argument, NULL, 'i' },
	{ "cpu",		required_argument, NULL, 'c' },
	{ "file",		required_argument, NULL, 'f' },
	{ "values",		no_argument,	   NULL, 'n' },
	{ "help",		no_argument,	   NULL, 'h' },
	{ "version",		no_argument,	   NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static int opt_cmds(int c)
{
	switch (c) {
	case 'p': case 'a': return GS;
	case 'v': return GS | (1 << CMD_RUN);
	case 'P': case 's': case 'S': case 'R': case OPT_NO_RESET_ON_FORK:
	case OPT_INFER: case OPT_NO_INFER:
		return ATTR;
	case '1': case 'j': case 'i': case 'c': case 'f': return TOP;
	case 'n': return TUNE;
	default: return ANY;
	}
}

static const char *opt_name(int c)
{
	const struct option *o;

	for (o = longopts; o->name; o++)
		if (o->val == c)
			return o->name;
	return "?";
}

static void add_pid(struct opts *o, const char *arg)
{
	pid_t pid;

	if (parse_pid(arg, &pid) != PARSE_OK) {
		warnx("invalid pid '%s': must be a positive integer (a process or thread id)", arg);
		errtryhelp();
	}
	o->pids = realloc(o->pids, (o->npids + 1) * sizeof(*o->pids));
	if (!o->pids) {
		warnx("out of memory");
		exit(fail_status);
	}
	o->pids[o->npids++] = pid;
}

static void parse_opts(enum cmd cmd, int argc, char **argv, struct opts *o, int *first_arg)
{
	/* '+': run stops at the command; the others allow options anywhere */
	const char *shortopts = cmd == CMD_RUN ? "+p:avP:s:S:R1ji:c:f:nhV"
					       : "p:avP:s:S:R1ji:c:f:nhV";
	unsigned int flag;
	uint64_t ns;
	long v;
	int c;

	memset(o, 0, sizeof(*o));
	o->cpu = -1;
	o->interval_ns = 1000000000ULL;

	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (c == 'h')
			usage();
		if (c == 'V')
			version();
		if (c == '?')
			errtryhelp();
		if (!(opt_cmds(c) & (1 << cmd))) {
			warnx("option --%s is not used by '%s'", opt_name(c), cmd_names[cmd]);
			errtryhelp();
		}
		switch (c) {
		case 'p':
			add_pid(o, optarg);
			break;
		case 'a':
			o->all_tasks = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'P':
			if (parse_priority(optarg, &o->prio) != PARSE_OK) {
				warnx("invalid priority '%s': must be an integer in %d..%d",
				      optarg, SMART_PRIO_MIN, SMART_PRIO_MAX);
				errtryhelp();
			}
			o->has_prio = true;
			break;
		case 's':
			if (parse_share(optarg, &o->share) != PARSE_OK) {
				warnx("invalid share '%s': must be an integer in %d..%d",
				      optarg, SMART_SHARE_MIN, SMART_SHARE_MAX);
				errtryhelp();
			}
			o->has_share = true;
			break;
		case 'S':
			switch (parse_signal(optarg, &o->signal)) {
			case PARSE_OK:
				break;
			case PARSE_RANGE:
				warnx("invalid signal '%s': must be in 1..%d "
				      "(0 or 'default': SIGXCPU)", optarg, SMARTCTL_SIGMAX);
				errtryhelp();
			default:
				warnx("unknown signal '%s': use a number 1..%d, a name such as "
				      "XCPU or USR1, RTMIN+N, RTMAX-N, or 'default'",
				      optarg, SMARTCTL_SIGMAX);
				errtryhelp();
			}
			o->has_signal = true;
			break;
		case 'R':
		case OPT_NO_INFER:
			o->has_flags = true;
			flag = c == 'R' ? SMART_FLAG_RESET_ON_FORK : SMART_FLAG_NO_INFER;
			o->flags_set |= flag;
			o->flags_clear &= ~flag;
			break;
		case OPT_NO_RESET_ON_FORK:
		case OPT_INFER:
			o->has_flags = true;
			flag = c == OPT_INFER ? SMART_FLAG_NO_INFER : SMART_FLAG_RESET_ON_FORK;
			o->flags_clear |= flag;
			o->flags_set &= ~flag;
			break;
		case '1':
			o->once = true;
			break;
		case 'j':
			o->json = true;
			break;
		case 'i':
			if (parse_duration_ns(optarg, 1000000000ULL, &ns) != PARSE_OK ||
			    ns < 1000000 || ns > 3600000000000ULL) {
				warnx("invalid interval '%s': seconds (or a unit: ms, s), "
				      "0.001..3600", optarg);
				errtryhelp();
			}
			o->interval_ns = ns;
			break;
		case 'c':
			if (parse_long(optarg, 0, INT_MAX, &v) != PARSE_OK) {
				warnx("invalid cpu '%s': must be a CPU number, 0 or more", optarg);
				errtryhelp();
			}
			o->cpu = (int)v;
			break;
		case 'f':
			o->file = optarg;
			break;
		case 'n':
			o->values = true;
			break;
		}
	}
	*first_arg = optind;
}

/* ------------------------------------------------------------------ */
/* Threads and their owners                                            */

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return x < y ? -1 : x > y;
}

/* the thread ids of process pid, sorted; NULL with errno on failure */
static pid_t *list_tasks(pid_t pid, size_t *n)
{
	char path[64];
	struct dirent *d;
	pid_t *v = NULL, tid, *nv;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir) {
		if (errno == ENOENT)
			errno = ESRCH;
		return NULL;
	}
	*n = 0;
	while ((d = readdir(dir))) {
		if (parse_pid(d->d_name, &tid) != PARSE_OK)
			continue;
		nv = realloc(v, (*n + 1) * sizeof(*v));
		if (!nv) {
			free(v);
			closedir(dir);
			errno = ENOMEM;
			return NULL;
		}
		v = nv;
		v[(*n)++] = tid;
	}
	closedir(dir);
	if (!*n) {
		errno = ESRCH;
		return NULL;
	}
	qsort(v, *n, sizeof(*v), cmp_pid);
	return v;
}

/* does the caller's euid own tid (as the kernel checks: euid or uid)? */
static bool same_owner(pid_t tid)
{
	char path[64], line[256];
	unsigned int r, e;
	bool same = true;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	f = fopen(path, "re");
	if (!f)
		return true;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Uid: %u %u", &r, &e) == 2) {
			same = geteuid() == r || geteuid() == e;
			break;
		}
	}
	fclose(f);
	return same;
}

/* ------------------------------------------------------------------ */
/* get                                                                 */

static const char *policy_name(int pol)
{
	switch (pol) {
	case SCHED_OTHER: return "SCHED_OTHER";
	case SCHED_FIFO: return "SCHED_FIFO";
	case SCHED_RR: return "SCHED_RR";
	case SCHED_BATCH: return "SCHED_BATCH";
	case SCHED_IDLE: return "SCHED_IDLE";
	case SCHED_DEADLINE: return "SCHED_DEADLINE";
	case SCHED_EXT: return "SCHED_EXT";
	case SCHED_SMART: return "SCHED_SMART";
	default: return "unknown";
	}
}

/* the class that schedules a thread of this policy (ignoring PI boosts) */
static const char *class_name(int pol, int mode)
{
	switch (pol) {
	case SCHED_SMART:
		return "SMART";
	case SCHED_OTHER: case SCHED_BATCH: case SCHED_IDLE:
		return mode == SMART_MODE_ALL ? "SMART (sched_smart=all)" : "fair";
	case SCHED_FIFO: case SCHED_RR:
		return "realtime";
	case SCHED_DEADLINE:
		return "deadline";
	case SCHED_EXT:
		return "ext";
	default:
		return "unknown";
	}
}

static const char *signal_desc(int sig, char *buf, size_t len)
{
	char name[32];

	if (sig == 0)
		snprintf(buf, len, "default (SIGXCPU)");
	else
		snprintf(buf, len, "%s (%d)", signal_name(sig, name, sizeof(name)), sig);
	return buf;
}

static const char *flags_desc(unsigned int flags, char *buf, size_t len)
{
	static const struct { unsigned int flag; const char *name; } names[] = {
		{ SMART_FLAG_RESET_ON_FORK, "reset-on-fork" },
		{ SMART_FLAG_NO_INFER, "no-infer" },
	};
	size_t i, n = 0;

	if (!flags) {
		snprintf(buf, len, "none");
		return buf;
	}
	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (!(flags & names[i].flag))
			continue;
		n += snprintf(buf + n, n < len ? len - n : 0, "%s%s", n ? "|" : "",
			      names[i].name);
		flags &= ~names[i].flag;
	}
	if (flags)
		snprintf(buf + n, n < len ? len - n : 0, "%s%#x", n ? "|" : "", flags);
	return buf;
}

static int get_one(pid_t tid, int mode)
{
	struct smart_attr a;
	char buf[64];
	int pol;

	pol = sched_getscheduler(tid);
	if (pol < 0) {
		warnx("failed to get pid %d's policy: %s", (int)tid, strerror(errno));
		return -1;
	}
	printf("pid %d's current scheduling policy: %s%s\n", (int)tid,
	       policy_name(pol & ~SCHED_RESET_ON_FORK),
	       pol & SCHED_RESET_ON_FORK ? "|SCHED_RESET_ON_FORK" : "");
	if (mode >= 0)
		printf("pid %d's current scheduling class: %s\n", (int)tid,
		       class_name(pol & ~SCHED_RESET_ON_FORK, mode));

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	if (smart_getattr(tid, &a, sizeof(a), 0)) {
		warnx("failed to get pid %d's SMART attributes: %s", (int)tid,
		      smart_strerror(SMART_CALL_GETATTR, errno));
		return -1;
	}
	printf("pid %d's current SMART priority: %d\n", (int)tid, a.priority);
	printf("pid %d's current SMART share: %u\n", (int)tid, a.share);
	printf("pid %d's current SMART notify signal: %s\n", (int)tid,
	       signal_desc(a.notify_signal, buf, sizeof(buf)));
	printf("pid %d's current SMART flags: %s\n", (int)tid,
	       flags_desc(a.flags, buf, sizeof(buf)));
	printf("pid %d's current SMART lag: %lld ns\n", (int)tid, (long long)a.lag_ns);
	printf("pid %d's current SMART bias: %llu ns\n", (int)tid, (unsigned long long)a.bias_ns);
	printf("pid %d's SMART constraints met: %llu\n", (int)tid,
	       (unsigned long long)a.constraints_met);
	printf("pid %d's SMART constraints missed: %llu\n", (int)tid,
	       (unsigned long long)a.constraints_missed);
	printf("pid %d's SMART notifications: %llu\n", (int)tid,
	       (unsigned long long)a.notifications);
	if (a.infer_period_ns)
		printf("pid %d's inferred SMART period: %llu ns, demand %llu ns\n", (int)tid,
		       (unsigned long long)a.infer_period_ns,
		       (unsigned long long)a.infer_demand_ns);
	else
		printf("pid %d's inferred SMART period: none\n", (int)tid);
	return 0;
}

/* call fn for pid, or for each of its threads with --all-tasks */
static int apply_to_target(const struct opts *o, pid_t pid, const char *what,
			   int (*fn)(pid_t, const struct opts *, int), int mode)
{
	pid_t *tids;
	size_t n, i;
	int ret = 0;

	if (!o->all_tasks)
		return fn(pid, o, mode);
	tids = list_tasks(pid, &n);
	if (!tids) {
		warnx("failed to %s pid %d's threads: %s", what, (int)pid, strerror(errno));
		return -1;
	}
	for (i = 0; i < n && !ret; i++)
		ret = fn(tids[i], o, mode);
	free(tids);
	return ret;
}

static int get_fn(pid_t tid, const struct opts *o, int mode)
{
	(void)o;
	return get_one(tid, mode);
}

static int cmd_get(struct opts *o, int argc, char **argv)
{
	int i, mode, ret = 0;
	size_t k;

	for (i = 0; i < argc; i++)
		add_pid(o, argv[i]);
	if (!o->npids) {
		warnx("no pid given (use -p <pid>)");
		errtryhelp();
	}
	mode = smart_mode();
	for (k = 0; k < o->npids; k++)
		if (apply_to_target(o, o->pids[k], "list", get_fn, mode))
			ret = -1;
	return ret ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* set (and run)                                                       */

/* what the attributes of o are called in a message */
static const char *fields_desc(const struct opts *o)
{
	int n = o->has_prio + o->has_share + o->has_signal + o->has_flags;

	if (n == 0)
		return "policy";
	if (n > 1)
		return "SMART attributes";
	if (o->has_prio)
		return "priority";
	if (o->has_share)
		return "share";
	if (o->has_signal)
		return "notify signal";
	return "flags";
}

static int set_one(pid_t tid, const struct opts *o, int mode)
{
	const char *field = fields_desc(o);
	struct smart_attr cur, a;
	char hint[160] = "";
	int err, pol;

	memset(&cur, 0, sizeof(cur));
	cur.size = sizeof(cur);
	if (smart_getattr(tid, &cur, sizeof(cur), 0)) {
		warnx("failed to set pid %d's %s: %s", (int)tid, field,
		      smart_strerror(SMART_CALL_GETATTR, errno));
		return -1;
	}
	pol = sched_getscheduler(tid) & ~SCHED_RESET_ON_FORK;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	if (o->has_prio) {
		a.mask |= SMART_ATTR_PRIORITY;
		a.priority = o->prio;
	}
	if (o->has_share) {
		a.mask |= SMART_ATTR_SHARE;
		a.share = o->share;
	}
	if (o->has_signal) {
		a.mask |= SMART_ATTR_SIGNAL;
		a.notify_signal = o->signal;
	}
	if (o->has_flags) {
		a.mask |= SMART_ATTR_FLAGS;
		/* the flags not named keep their value */
		a.flags = (cur.flags & ~o->flags_clear) | o->flags_set;
	}
	if (!smart_setattr(tid, &a, 0))
		return 0;
	err = errno;

	if (err == EPERM) {
		/* which of the EPERM rules of sched-smart.rst §4.8 applies */
		if (o->has_prio && o->prio > cur.priority) {
			field = "priority";
			snprintf(hint, sizeof(hint),
				 " (raising it from %d to %d needs CAP_SYS_NICE)",
				 cur.priority, o->prio);
		} else if (o->has_share && o->share > cur.share) {
			field = "share";
			snprintf(hint, sizeof(hint),
				 " (raising it from %u to %u needs CAP_SYS_NICE)",
				 cur.share, o->share);
		} else if (!same_owner(tid)) {
			snprintf(hint, sizeof(hint), " (pid %d belongs to another user: "
				 "that needs CAP_SYS_NICE)", (int)tid);
		} else if (pol != SCHED_SMART && mode == SMART_MODE_OPTIN) {
			field = "policy";
			snprintf(hint, sizeof(hint), " (entering SCHED_SMART in opt-in mode "
				 "needs CAP_SYS_NICE)");
		}
		warnx("failed to set pid %d's %s: %s%s", (int)tid, field, strerror(err), hint);
	} else if (err == ESRCH) {
		warnx("failed to set pid %d's %s: %s", (int)tid, field, strerror(err));
	} else {
		warnx("failed to set pid %d's %s: %s", (int)tid, field,
		      smart_strerror(SMART_CALL_SETATTR, err));
	}
	return -1;
}

static int set_fn(pid_t tid, const struct opts *o, int mode)
{
	if (set_one(tid, o, mode))
		return -1;
	return o->verbose ? get_one(tid, mode) : 0;
}

static int cmd_set(struct opts *o, int argc, char **argv)
{
	int i, mode;
	size_t k;

	for (i = 0; i < argc; i++)
		add_pid(o, argv[i]);
	if (!o->npids) {
		warnx("no pid given (use -p <pid>)");
		errtryhelp();
	}
	mode = smart_mode();
	for (k = 0; k < o->npids; k++)
		if (apply_to_target(o, o->pids[k], "list", set_fn, mode))
			return EXIT_FAILURE;
	return EXIT_SUCCESS;
}

static int cmd_run(struct opts *o, int argc, char **argv)
{
	int mode, err;

	if (argc < 1) {
		warnx("no command given");
		errtryhelp();
	}
	mode = smart_mode();
	/* smartctl is single-threaded: its pid is the thread that will exec */
	if (set_one(getpid(), o, mode))
		return fail_status;
	if (o->verbose && get_one(getpid(), mode))
		return fail_status;
	fflush(stdout);
	execvp(argv[0], argv);
	err = errno;
	warnx("failed to execute %s: %s", argv[0], strerror(err));
	return err == ENOENT ? 127 : 126;
}

/* ------------------------------------------------------------------ */
/* top                                                                 */

static const char *mode_name(int mode)
{
	switch (mode) {
	case SMART_MODE_OPTIN: return "opt-in";
	case SMART_MODE_ALL: return "all";
	default: return NULL;
	}
}

static int top_read(const char *path, struct sq_snapshot *s)
{
	char err[160];
	FILE *f;
	int e;

	f = fopen(path, "re");
	if (!f) {
		e = errno;
		if (e == ENOENT && !strncmp(path, "/sys/kernel/debug/", 18)) {
			if (access("/sys/kernel/debug/sched", F_OK))
				warnx("cannot open %s: %s (is debugfs mounted? "
				      "mount -t debugfs none /sys/kernel/debug)",
				      path, strerror(e));
			else
				warnx("cannot open %s: %s (this kernel does not export the "
				      "SMART queues: SCHED_SMART with debugfs needed)",
				      path, strerror(e));
		} else if (e == EACCES || e == EPERM) {
			warnx("cannot open %s: %s (debugfs is readable by root only)",
			      path, strerror(e));
		} else {
			warnx("cannot open %s: %s", path, strerror(e));
		}
		return -1;
	}
	if (sq_parse(f, s, err, sizeof(err))) {
		warnx("%s: %s", path, err);
		fclose(f);
		sq_free(s);
		return -1;
	}
	fclose(f);
	return 0;
}

static int cmd_top(struct opts *o, int argc, char **argv)
{
	const char *path = o->file ? o->file : SQ_PATH;
	const char *mode = mode_name(smart_mode());
	bool tty = isatty(STDOUT_FILENO);
	struct sq_snapshot s;
	struct timespec ts;
	size_t i;

	(void)argv;
	if (argc > 0) {
		warnx("top: unexpected argument '%s'", argv[0]);
		errtryhelp();
	}
	for (;;) {
		if (top_read(path, &s))
			return EXIT_FAILURE;
		/* a file given with --file may come from another machine */
		if (!o->file)
			sq_resolve_groups(&s, SQ_CGROUP_ROOT);
		if (o->cpu >= 0 && !sq_find_cpu(&s, o->cpu)) {
			char list[256] = "";
			size_t len = 0;

			for (i = 0; i < s.nr_cpus && len < sizeof(list) - 16; i++)
				len += (size_t)snprintf(list + len, sizeof(list) - len, " %d",
							s.cpus[i].cpu);
			warnx("no cpu %d in %s (its CPUs:%s)", o->cpu, path,
			      s.nr_cpus ? list : " none");
			sq_free(&s);
			return EXIT_FAILURE;
		}
		if (o->json) {
			sq_print_json(stdout, &s, o->cpu, mode);
		} else {
			if (!o->once && tty)
				fputs("\033[H\033[2J", stdout);
			sq_print_text(stdout, &s, o->cpu, mode);
		}
		sq_free(&s);
		if (fflush(stdout) || ferror(stdout)) {
			warnx("write error: %s", strerror(errno));
			return EXIT_FAILURE;
		}
		if (o->once || o->json)
			return EXIT_SUCCESS;
		if (!tty)
			putchar('\n');
		ts.tv_sec = (time_t)(o->interval_ns / 1000000000ULL);
		ts.tv_nsec = (long)(o->interval_ns % 1000000000ULL);
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
}

/* ------------------------------------------------------------------ */
/* tune                                                                */

/* valid ranges, for messages only: the kernel decides (sysctl.c) */
static const struct {
	const char *name;
	uint64_t min, max;
} tune_ranges[] = {
	{ "quantum_ns",      1000000ULL, 1000000000ULL },
	{ "bias_step_ns",    0,          1000000000ULL },
	{ "bias_max_ns",     0,          10000000000ULL },
	{ "sleep_credit_ns", 0,          10000000000ULL },
	{ "resolution_ns",   100000ULL,  10000000ULL },
	{ "handoff_ns",      0,          10000000ULL },
	{ "long_sleep_ns",   0,          1000000000ULL },
	{ "infer",           0,          1 },
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the tunables' names, sorted; NULL with errno on failure */
static char **tune_names(size_t *n)
{
	struct dirent *d;
	char **v = NULL, **nv;
	DIR *dir;

	dir = opendir(SMART_TUNABLES_DIR);
	if (!dir)
		return NULL;
	*n = 0;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		nv = realloc(v, (*n + 1) * sizeof(*v));
		if (nv)
			nv[*n] = strdup(d->d_name);
		if (!nv || !nv[*n]) {
			free(nv ? nv : v);
			closedir(dir);
			errno = ENOMEM;
			return NULL;
		}
		v = nv;
		(*n)++;
	}
	closedir(dir);
	if (*n)
		qsort(v, *n, sizeof(*v), cmp_str);
	return v;
}

static void free_names(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static bool valid_tune_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

/* read one tunable (or "mode") into buf; 0 or -1 with errno */
static int tune_read(const char *name, char *buf, size_t len)
{
	char path[256];
	ssize_t n;
	int fd;

	if (!strcmp(name, "mode"))
		snprintf(path, sizeof(path), "%s", SMART_MODE_SYSCTL);
	else
		snprintf(path, sizeof(path), SMART_TUNABLES_DIR "/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (!strcmp(name, "mode")) {
		const char *m = !strcmp(buf, "0") ? "opt-in" : !strcmp(buf, "1") ? "all" : NULL;

		if (m)
			snprintf(buf, len, "%s", m);
	}
	return 0;
}

static void tune_print(const struct opts *o, const char *name, const char *value)
{
	if (o->values)
		printf("%s\n", value);
	else
		printf("%s = %s\n", name, value);
}

static void tune_unknown(const char *name)
{
	char **names;
	size_t n = 0, i;

	names = tune_names(&n);
	if (!names && access(SMART_MODE_SYSCTL, F_OK)) {
		warnx("unknown tunable '%s' (no SCHED_SMART in this kernel: %s is missing)",
		      name, SMART_TUNABLES_DIR);
		return;
	}
	fflush(stdout);
	fprintf(stderr, "%s: unknown tunable '%s' (known:", prog, name);
	for (i = 0; i < n; i++)
		fprintf(stderr, " %s", names[i]);
	fprintf(stderr, " mode)\n");
	free_names(names, n);
}

static int tune_write(const struct opts *o, const char *name, const char *value)
{
	char path[256], buf[64], range[96] = "";
	uint64_t ns;
	size_t i;
	int fd, err = 0;
	ssize_t n;

	if (!strcmp(name, "mode")) {
		warnx("failed to set mode: it is read-only (boot with sched_smart=all "
		      "for all mode)");
		return -1;
	}
	if (!valid_tune_name(name) || (tune_read(name, buf, sizeof(buf)) && errno == ENOENT)) {
		tune_unknown(name);
		return -1;
	}
	if (parse_duration_ns(value, 1, &ns) != PARSE_OK) {
		warnx("invalid value '%s' for %s: ns, or a number with a unit (ns, us, ms, s)",
		      value, name);
		return -1;
	}
	for (i = 0; i < ARRAY_SIZE(tune_ranges); i++)
		if (!strcmp(name, tune_ranges[i].name))
			snprintf(range, sizeof(range), ": valid %" PRIu64 "..%" PRIu64 " ns",
				 tune_ranges[i].min, tune_ranges[i].max);

	snprintf(path, sizeof(path), SMART_TUNABLES_DIR "/%s", name);
	snprintf(buf, sizeof(buf), "%" PRIu64, ns);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
	} else {
		n = write(fd, buf, strlen(buf));
		if (n < 0)
			err = errno;
		else if ((size_t)n != strlen(buf))
			err = EIO;
		if (close(fd) && !err)
			err = errno;
	}
	if (err == EACCES || err == EPERM)
		warnx("failed to set %s to %s: %s (the tunables are writable by root only)",
		      name, buf, strerror(err));
	else if (err == EINVAL)
		warnx("failed to set %s to %s: %s (out of range%s)", name, buf,
		      strerror(err), range);
	else if (err)
		warnx("failed to set %s to %s: %s", name, buf, strerror(err));
	if (err)
		return -1;
	if (tune_read(name, buf, sizeof(buf))) {
		warnx("failed to read %s back: %s", name, strerror(errno));
		return -1;
	}
	tune_print(o, name, buf);
	return 0;
}

static int cmd_tune(struct opts *o, int argc, char **argv)
{
	char buf[64], **names;
	size_t n = 0, i;
	int k, ret = EXIT_SUCCESS;

	if (argc == 0) {
		names = tune_names(&n);
		if (!names) {
			warnx("cannot read %s: %s%s", SMART_TUNABLES_DIR, strerror(errno),
			      errno == ENOENT ? " (no SCHED_SMART in this kernel)" : "");
			return EXIT_FAILURE;
		}
		for (i = 0; i < n; i++) {
			if (tune_read(names[i], buf, sizeof(buf))) {
				warnx("failed to read %s: %s", names[i], strerror(errno));
				ret = EXIT_FAILURE;
				continue;
			}
			tune_print(o, names[i], buf);
		}
		free_names(names, n);
		if (tune_read("mode", buf, sizeof(buf))) {
			warnx("failed to read mode (%s): %s", SMART_MODE_SYSCTL, strerror(errno));
			return EXIT_FAILURE;
		}
		tune_print(o, "mode", buf);
		return ret;
	}
	for (k = 0; k < argc; k++) {
		char *eq = strchr(argv[k], '=');

		if (eq) {
			*eq = '\0';
			if (tune_write(o, argv[k], eq + 1))
				ret = EXIT_FAILURE;
			continue;
		}
		if (!valid_tune_name(argv[k])) {
			tune_unknown(argv[k]);
			ret = EXIT_FAILURE;
			continue;
		}
		if (tune_read(argv[k], buf, sizeof(buf))) {
			if (errno == ENOENT)
				tune_unknown(argv[k]);
			else
				warnx("failed to read %s: %s", argv[k], strerror(errno));
			ret = EXIT_FAILURE;
			continue;
		}
		tune_print(o, argv[k], buf);
	}
	return ret;
}

/* ------------------------------------------------------------------ */

int main(int argc, char **argv)
{
	enum cmd cmd = CMD_GET;
	struct opts o;
	int shift = 0, first, i;

	if (argc > 0 && argv[0] && *argv[0]) {
		const char *slash = strrchr(argv[0], '/');

		prog = slash ? slash + 1 : argv[0];
	}
	maybe_smartmontools(argc, argv);

	if (argc > 1 && argv[1][0] != '-') {
		if (!strcmp(argv[1], "help"))
			usage();
		for (i = 0; i < NR_CMDS; i++)
			if (!strcmp(argv[1], cmd_names[i]))
				break;
		if (i < NR_CMDS) {
			cmd = (enum cmd)i;
			shift = 1;
		} else if (!isdigit((unsigned char)argv[1][0])) {
			warnx("unknown command '%s'", argv[1]);
			errtryhelp();
		}
	}
	if (cmd == CMD_RUN)
		fail_status = 125;

	/* getopt sees the command word (or the program name) as argv[0] */
	parse_opts(cmd, argc - shift, argv + shift, &o, &first);
	argc -= shift + first;
	argv += shift + first;

	switch (cmd) {
	case CMD_GET: return cmd_get(&o, argc, argv);
	case CMD_SET: return cmd_set(&o, argc, argv);
	case CMD_RUN: return cmd_run(&o, argc, argv);
	case CMD_TOP: return cmd_top(&o, argc, argv);
	case CMD_TUNE: return cmd_tune(&o, argc, argv);
	default: return EXIT_FAILURE;
	}
}
