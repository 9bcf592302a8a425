/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartctl top: the SMART run queues as /sys/kernel/debug/sched/smart/queues
 * shows them, parsed into a snapshot, printed as text or JSON.  No kernel
 * calls here: tests/test_queues.c runs it on fixtures on the host.
 *
 * The file (version 1): one record per line, a record keyword and its
 * value, then "key value" pairs; "comm" is always last and its value runs
 * to the end of the line.
 *
 *	version 1
 *	now <CLOCK_MONOTONIC ns>
 *	cpu <n> curr <pid|0> nr_runnable <n> nr_queued <n>
 *	level <prio> vtime <virtual ns> shares <sum> nr <n>
 *	task <pid> state <R|Q|S> prio <p> share <S> bvft <ns> lag <ns> bias <ns>
 *	     quantum <ns> exec <ns> deadline <ns|0> estimate <ns> used <ns>
 *	     [own <share> group <cgroup id>] comm <...>
 *	ws <pid> deadline <ns> left <ns>
 *
 * own and group (the task's own share, and the cgroup id of its task
 * group: the inode of its cgroup v2 directory) are optional: kernels
 * before task groups do not print them.  Records after a cpu line belong
 * to that CPU.  Unknown keys and unknown
 * record keywords are ignored (a later kernel may add some); a missing key
 * or a malformed number is an error naming the line.
 */
#ifndef SMARTCTL_QUEUES_H
#define SMARTCTL_QUEUES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define SQ_PATH		"/sys/kernel/debug/sched/smart/queues"
#define SQ_COMM_LEN	64
#define SQ_GROUP_LEN	256
#define SQ_CGROUP_ROOT	"/sys/fs/cgroup"

/* one non-empty priority level of a CPU's queue */
struct sq_level {
	int prio;
	uint64_t vtime;		/* the level's virtual time, virtual ns */
	uint64_t shares;	/* sum of the shares of its tasks */
	unsigned int nr;	/* its tasks */
};

/* one task on a CPU's queue */
struct sq_task {
	pid_t pid;
	char state;		/* 'R' running, 'Q' runnable, 'S' asleep on the queue */
	int prio;
	uint32_t share;
	uint64_t bvft;		/* biased virtual finishing time, virtual ns */
	int64_t lag;		/* ns of CPU behind (+) or ahead (-) of its share */
	uint64_t bias;
	uint64_t quantum;
	uint64_t exec;
	uint64_t deadline;	/* absolute CLOCK_MONOTONIC ns, 0 = no constraint */
	uint64_t estimate;
	uint64_t used;
	uint32_t own_share;	/* the share it was given; 0: not printed */
	uint64_t group_id;	/* cgroup id of its task group; 0: unknown */
	uint64_t infer_period;	/* period SMART inferred, ns; 0: none */
	uint64_t infer_demand;	/* CPU time per inferred period, ns */
	char comm[SQ_COMM_LEN];
	char group[SQ_GROUP_LEN];	/* its path below the cgroup root, or "" */
};

/* one entry of the working schedule (deadline order) */
struct sq_ws {
	pid_t pid;
	uint64_t deadline;
	int64_t left;		/* estimate left, ns */
};

struct sq_cpu {
	int cpu;
	pid_t curr;		/* 0: idle or not a SMART task */
	unsigned int nr_runnable;
	unsigned int nr_queued;
	struct sq_level *levels;
	size_t nr_levels;
	struct sq_task *tasks;
	size_t nr_tasks;
	struct sq_ws *ws;
	size_t nr_ws;
};

struct sq_snapshot {
	int version;
	uint64_t now;
	struct sq_cpu *cpus;
	size_t nr_cpus;
};

/**
 * sq_parse() - read a queues file into a snapshot
 * @f:		the open file (read to its end)
 * @s:		the snapshot (initialised here; sq_free() it in any case)
 * @err:	on failure, "line N: what is wrong"
 * @errlen:	size of @err
 *
 * Return: 0, or -1 with @err filled in (errno ENOMEM on allocation
 * failure, EIO on a read error, EINVAL for bad contents).
 */
int sq_parse(FILE *f, struct sq_snapshot *s, char *err, size_t errlen);

/**
 * sq_free() - free what sq_parse() allocated
 * @s:		the snapshot
 */
void sq_free(struct sq_snapshot *s);

/**
 * sq_find_cpu() - the CPU record of @cpu in @s
 * @s:		the snapshot
 * @cpu:	CPU number
 *
 * Return: the record or NULL.
 */
const struct sq_cpu *sq_find_cpu(const struct sq_snapshot *s, int cpu);

/**
 * sq_state_name() - the state letter as a word
 * @state:	'R', 'Q' or 'S'
 *
 * Return: "running", "runnable", "sleeping", or "unknown".
 */
const char *sq_state_name(char state);

/**
 * sq_print_text() - the snapshot for a terminal
 * @out:	where to print
 * @s:		the snapshot
 * @cpu:	only this CPU, or -1 for all
 * @mode:	"opt-in", "all", or NULL if unknown
 *
 * Per CPU: its current task and counts, the virtual time of each
 * priority level, the tasks in value order and the working schedule.
 * Times are in ms, deadlines relative to the snapshot's "now".
 */
void sq_print_text(FILE *out, const struct sq_snapshot *s, int cpu, const char *mode);

/**
 * sq_print_json() - the snapshot as one JSON object and a newline
 * @out:	where to print
 * @s:		the snapshot
 * @cpu:	only this CPU, or -1 for all
 * @mode:	"opt-in", "all", or NULL (printed as null)
 *
 * Schema: see smartctl(8), section OUTPUT.
 */
void sq_print_json(FILE *out, const struct sq_snapshot *s, int cpu, const char *mode);

/**
 * json_print_string() - a C string as a JSON string literal
 * @out:	where to print
 * @str:	the string; invalid UTF-8 bytes become U+FFFD
 */
void json_print_string(FILE *out, const char *str);

/*
 * Name every task's group: the path (below @root, "/" for the root) of the
 * cgroup v2 directory whose inode is its group id.  Groups not found keep
 * an empty name.
 */
void sq_resolve_groups(struct sq_snapshot *s, const char *root);

#endif /* SMARTCTL_QUEUES_H */
