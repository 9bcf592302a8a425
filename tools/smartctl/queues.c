// SPDX-License-Identifier: GPL-2.0
/*
 * smartctl top: parse /sys/kernel/debug/sched/smart/queues and print it
 * as text or JSON (see queues.h for the format).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/stat.h>

#include "parse.h"
#include "queues.h"

/* ------------------------------------------------------------------ */
/* Parsing                                                             */

enum sq_ftype { F_U64, F_S64, F_U32, F_INT, F_STATE, F_COMM };

struct sq_field {
	const char *key;
	enum sq_ftype type;
	size_t off;
	bool optional;
};

#define FLD(st, key, type, member) { key, type, offsetof(st, member), false }
/* a field a later kernel added: may be missing */
#define FLDO(st, key, type, member) { key, type, offsetof(st, member), true }

/* the record keyword comes first: its value is the first field */
static const struct sq_field cpu_fields[] = {
	FLD(struct sq_cpu, "cpu", F_INT, cpu),
	FLD(struct sq_cpu, "curr", F_INT, curr),
	FLD(struct sq_cpu, "nr_runnable", F_U32, nr_runnable),
	FLD(struct sq_cpu, "nr_queued", F_U32, nr_queued),
};

static const struct sq_field level_fields[] = {
	FLD(struct sq_level, "level", F_INT, prio),
	FLD(struct sq_level, "vtime", F_U64, vtime),
	FLD(struct sq_level, "shares", F_U64, shares),
	FLD(struct sq_level, "nr", F_U32, nr),
};

static const struct sq_field task_fields[] = {
	FLD(struct sq_task, "task", F_INT, pid),
	FLD(struct sq_task, "state", F_STATE, state),
	FLD(struct sq_task, "prio", F_INT, prio),
	FLD(struct sq_task, "share", F_U32, share),
	FLD(struct sq_task, "bvft", F_U64, bvft),
	FLD(struct sq_task, "lag", F_S64, lag),
	FLD(struct sq_task, "bias", F_U64, bias),
	FLD(struct sq_task, "quantum", F_U64, quantum),
	FLD(struct sq_task, "exec", F_U64, exec),
	FLD(struct sq_task, "deadline", F_U64, deadline),
	FLD(struct sq_task, "estimate", F_U64, estimate),
	FLD(struct sq_task, "used", F_U64, used),
	FLDO(struct sq_task, "own", F_U32, own_share),
	FLDO(struct sq_task, "group", F_U64, group_id),
	FLDO(struct sq_task, "period", F_U64, infer_period),
	FLDO(struct sq_task, "demand", F_U64, infer_demand),
	FLD(struct sq_task, "comm", F_COMM, comm),
};

static const struct sq_field ws_fields[] = {
	FLD(struct sq_ws, "ws", F_INT, pid),
	FLD(struct sq_ws, "deadline", F_U64, deadline),
	FLD(struct sq_ws, "left", F_S64, left),
};

static const struct sq_field version_fields[] = {
	FLD(struct sq_snapshot, "version", F_INT, version),
};

static const struct sq_field now_fields[] = {
	FLD(struct sq_snapshot, "now", F_U64, now),
};

/* a "key value" pair of a line; the line is cut up in place */
struct sq_kv {
	const char *k;
	const char *v;
};

#define SQ_MAX_PAIRS 64

/* split @line into pairs; returns their number or -1 (odd token count) */
static int sq_split(char *line, struct sq_kv *kv, int max)
{
	int n = 0;
	char *p = line;

	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			return n;
		if (n == max)
			return n;	/* ignore pairs beyond what we know */
		kv[n].k = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		if (!*p) {
			if (!strcmp(kv[n].k, "comm")) {	/* empty comm */
				kv[n++].v = p;
				return n;
			}
			return -1;
		}
		*p++ = '\0';
		if (!strcmp(kv[n].k, "comm")) {
			/* the value runs to the end of the line, blanks included */
			kv[n++].v = p;
			return n;
		}
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			return -1;
		kv[n].v = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		if (*p)
			*p++ = '\0';
		n++;
	}
}

static bool sq_u64(const char *s, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !*end && errno != ERANGE;
}

static bool sq_s64(const char *s, int64_t *v)
{
	char *end;
	long long x;

	if (!((*s >= '0' && *s <= '9') || (*s == '-' && s[1] >= '0' && s[1] <= '9')))
		return false;
	errno = 0;
	x = strtoll(s, &end, 10);
	*v = x;
	return !*end && errno != ERANGE;
}

/*
 * Store the pairs of one record into @rec through @fields.  Every field
 * must be present; unknown keys are skipped.
 */
static int sq_fill(void *rec, const struct sq_field *fields, size_t nf,
		   const struct sq_kv *kv, int n, char *err, size_t errlen, int lineno)
{
	uint64_t seen = 0, u;
	int64_t s;
	size_t f;
	int i;

	for (i = 0; i < n; i++) {
		char *dst;

		for (f = 0; f < nf; f++)
			if (!strcmp(kv[i].k, fields[f].key))
				break;
		if (f == nf)
			continue;		/* a key a later version added */
		dst = (char *)rec + fields[f].off;
		switch (fields[f].type) {
		case F_U64:
			if (!sq_u64(kv[i].v, &u))
				goto bad;
			memcpy(dst, &u, sizeof(u));
			break;
		case F_S64:
			if (!sq_s64(kv[i].v, &s))
				goto bad;
			memcpy(dst, &s, sizeof(s));
			break;
		case F_U32:
			if (!sq_u64(kv[i].v, &u) || u > UINT32_MAX)
				goto bad;
			*(uint32_t *)(void *)dst = (uint32_t)u;
			break;
		case F_INT:
			if (!sq_s64(kv[i].v, &s) || s < INT_MIN || s > INT_MAX)
				goto bad;
			*(int *)(void *)dst = (int)s;
			break;
		case F_STATE:
			if (!kv[i].v[0] || kv[i].v[1])
				goto bad;
			*dst = kv[i].v[0];
			break;
		case F_COMM:
			snprintf(dst, SQ_COMM_LEN, "%s", kv[i].v);
			break;
		}
		seen |= 1ULL << f;
		continue;
bad:
		snprintf(err, errlen, "line %d: %s: bad value '%s'", lineno, kv[i].k, kv[i].v);
		errno = EINVAL;
		return -1;
	}
	for (f = 0; f < nf; f++) {
		if (!(seen & (1ULL << f)) && !fields[f].optional) {
			snprintf(err, errlen, "line %d: %s record without '%s'",
				 lineno, fields[0].key, fields[f].key);
			errno = EINVAL;
			return -1;
		}
	}
	return 0;
}

/* append one zeroed element to a growing array */
static void *sq_push(void **arr, size_t *n, size_t size)
{
	void *p;

	/* the capacity is 4, then doubles: grow when n reaches it */
	if (*n == 0 || (*n >= 4 && (*n & (*n - 1)) == 0)) {
		size_t cap = *n ? *n * 2 : 4;

		p = realloc(*arr, cap * size);
		if (!p)
			return NULL;
		*arr = p;
	}
	p = (char *)*arr + *n * size;
	memset(p, 0, size);
	(*n)++;
	return p;
}

void sq_free(struct sq_snapshot *s)
{
	size_t i;

	for (i = 0; i < s->nr_cpus; i++) {
		free(s->cpus[i].levels);
		free(s->cpus[i].tasks);
		free(s->cpus[i].ws);
	}
	free(s->cpus);
	memset(s, 0, sizeof(*s));
}

int sq_parse(FILE *f, struct sq_snapshot *s, char *err, size_t errlen)
{
	struct sq_kv kv[SQ_MAX_PAIRS];
	struct sq_cpu *cpu = NULL;
	bool have_version = false;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int lineno = 0, n, ret = -1;

	memset(s, 0, sizeof(*s));
	snprintf(err, errlen, "no error");
	while ((len = getline(&line, &cap, f)) >= 0) {
		const struct sq_field *fields;
		size_t nf, *cnt = NULL, size = 0;
		void **arr = NULL, *rec;

		lineno++;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		n = sq_split(line, kv, SQ_MAX_PAIRS);
		if (n == 0 || kv[0].k[0] == '#')
			continue;
		if (n < 0) {
			snprintf(err, errlen, "line %d: a key without a value", lineno);
			errno = EINVAL;
			goto out;
		}

		if (!strcmp(kv[0].k, "version")) {
			if (sq_fill(s, version_fields, 1, kv, 1, err, errlen, lineno))
				goto out;
			if (s->version < 1) {
				snprintf(err, errlen, "line %d: unknown version %d",
					 lineno, s->version);
				errno = EINVAL;
				goto out;
			}
			have_version = true;
			continue;
		}
		if (!strcmp(kv[0].k, "now")) {
			if (sq_fill(s, now_fields, 1, kv, 1, err, errlen, lineno))
				goto out;
			continue;
		}
		if (!strcmp(kv[0].k, "cpu")) {
			cpu = sq_push((void **)&s->cpus, &s->nr_cpus, sizeof(*cpu));
			if (!cpu)
				goto nomem;
			if (sq_fill(cpu, cpu_fields, ARRAY_SIZE(cpu_fields), kv, n,
				    err, errlen, lineno))
				goto out;
			continue;
		}
		if (!strcmp(kv[0].k, "level")) {
			fields = level_fields;
			nf = ARRAY_SIZE(level_fields);
			size = sizeof(struct sq_level);
		} else if (!strcmp(kv[0].k, "task")) {
			fields = task_fields;
			nf = ARRAY_SIZE(task_fields);
			size = sizeof(struct sq_task);
		} else if (!strcmp(kv[0].k, "ws")) {
			fields = ws_fields;
			nf = ARRAY_SIZE(ws_fields);
			size = sizeof(struct sq_ws);
		} else {
			continue;	/* a record a later version added */
		}
		if (!cpu) {
			snprintf(err, errlen, "line %d: %s record before any cpu record",
				 lineno, kv[0].k);
			errno = EINVAL;
			goto out;
		}
		if (fields == level_fields) {
			arr = (void **)&cpu->levels; cnt = &cpu->nr_levels;
		} else if (fields == task_fields) {
			arr = (void **)&cpu->tasks; cnt = &cpu->nr_tasks;
		} else {
			arr = (void **)&cpu->ws; cnt = &cpu->nr_ws;
		}
		rec = sq_push(arr, cnt, size);
		if (!rec)
			goto nomem;
		if (sq_fill(rec, fields, nf, kv, n, err, errlen, lineno))
			goto out;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "read error after line %d", lineno);
		errno = EIO;
		goto out;
	}
	if (!have_version) {
		snprintf(err, errlen, "no 'version' line (empty or not a SMART queues file)");
		errno = EINVAL;
		goto out;
	}
	ret = 0;
	goto out;
nomem:
	snprintf(err, errlen, "line %d: out of memory", lineno);
	errno = ENOMEM;
out:
	free(line);
	return ret;
}

const struct sq_cpu *sq_find_cpu(const struct sq_snapshot *s, int cpu)
{
	size_t i;

	for (i = 0; i < s->nr_cpus; i++)
		if (s->cpus[i].cpu == cpu)
			return &s->cpus[i];
	return NULL;
}

const char *sq_state_name(char state)
{
	switch (state) {
	case 'R': return "running";
	case 'Q': return "runnable";
	case 'S': return "sleeping";
	default: return "unknown";
	}
}

/* ------------------------------------------------------------------ */
/* Text                                                                */

/* comm for a terminal: control characters shown as '?', at most 16 */
static const char *sq_comm_text(const char *comm, char *buf, size_t len)
{
	size_t i;

	for (i = 0; comm[i] && i + 1 < len && i < 16; i++)
		buf[i] = ((unsigned char)comm[i] < 0x20 || comm[i] == 0x7f) ? '?' : comm[i];
	buf[i] = '\0';
	return buf;
}

static const struct sq_task *sq_find_task(const struct sq_cpu *c, pid_t pid)
{
	size_t i;

	for (i = 0; i < c->nr_tasks; i++)
		if (c->tasks[i].pid == pid)
			return &c->tasks[i];
	return NULL;
}

static void sq_print_cpu_text(FILE *out, const struct sq_snapshot *s,
			      const struct sq_cpu *c)
{
	char b1[32], b2[32], b3[32], b4[32], b5[32], b6[32], b7[32];
	const struct sq_task *cur = sq_find_task(c, c->curr);
	size_t i;

	if (c->curr)
		fprintf(out, "cpu %d: curr %d %s, %u runnable, %u on the queue\n", c->cpu,
			(int)c->curr, cur ? sq_comm_text(cur->comm, b1, sizeof(b1)) : "?",
			c->nr_runnable, c->nr_queued);
	else
		fprintf(out, "cpu %d: curr idle or not SMART, %u runnable, %u on the queue\n",
			c->cpu, c->nr_runnable, c->nr_queued);
	if (c->nr_levels) {
		fprintf(out, "  %5s %14s %10s %5s\n", "LEVEL", "VTIME(ms)", "SHARES", "NR");
		for (i = 0; i < c->nr_levels; i++) {
			const struct sq_level *l = &c->levels[i];

			fprintf(out, "  %5d %14s %10" PRIu64 " %5u\n", l->prio,
				format_ms((int64_t)l->vtime, b1, sizeof(b1)), l->shares, l->nr);
		}
	}
	if (c->nr_tasks) {
		fprintf(out, "  %7s %-16s %-8s %4s %7s %7s %10s %9s %12s %9s %9s %10s %s\n",
			"PID", "COMM", "STATE", "PRIO", "SHARE", "OWN", "LAG(ms)", "BIAS(ms)",
			"DEADLINE(ms)", "EST(ms)", "USED(ms)", "PERIOD(ms)", "GROUP");
		for (i = 0; i < c->nr_tasks; i++) {
			const struct sq_task *t = &c->tasks[i];
			const char *dl = "-", *est = "-", *used = "-", *per = "-";

			if (t->deadline) {
				int64_t rel = (int64_t)(t->deadline - s->now);

				format_ms(rel, b4 + 1, sizeof(b4) - 1);
				b4[0] = '+';
				dl = rel < 0 ? b4 + 1 : b4;
				est = format_ms((int64_t)t->estimate, b5, sizeof(b5));
				used = format_ms((int64_t)t->used, b6, sizeof(b6));
			}
			if (t->infer_period)
				per = format_ms((int64_t)t->infer_period, b7, sizeof(b7));
			fprintf(out, "  %7d %-16s %-8s %4d %7u %7u %10s %9s %12s %9s %9s %10s %s\n",
				(int)t->pid, sq_comm_text(t->comm, b1, sizeof(b1)),
				sq_state_name(t->state), t->prio, t->share,
				t->own_share ? t->own_share : t->share,
				format_ms(t->lag, b2, sizeof(b2)),
				format_ms((int64_t)t->bias, b3, sizeof(b3)), dl, est, used, per,
				t->group[0] ? t->group : "-");
		}
	}
	if (c->nr_ws) {
		fprintf(out, "  working schedule:");
		for (i = 0; i < c->nr_ws; i++) {
			const struct sq_ws *w = &c->ws[i];
			int64_t rel = (int64_t)(w->deadline - s->now);

			fprintf(out, "%s %d (deadline %s%s ms, %s ms left)", i ? "," : "",
				(int)w->pid, rel < 0 ? "" : "+", format_ms(rel, b1, sizeof(b1)),
				format_ms(w->left, b2, sizeof(b2)));
		}
		fprintf(out, "\n");
	} else {
		fprintf(out, "  working schedule: empty\n");
	}
}

void sq_print_text(FILE *out, const struct sq_snapshot *s, int cpu, const char *mode)
{
	size_t i;

	fprintf(out, "SMART queues at %" PRIu64 ".%06" PRIu64 " s, mode %s, %zu CPU%s "
		"(format version %d)\n", s->now / 1000000000, (s->now / 1000) % 1000000,
		mode ? mode : "unknown", s->nr_cpus, s->nr_cpus == 1 ? "" : "s", s->version);
	for (i = 0; i < s->nr_cpus; i++) {
		if (cpu >= 0 && s->cpus[i].cpu != cpu)
			continue;
		fprintf(out, "\n");
		sq_print_cpu_text(out, s, &s->cpus[i]);
	}
}

/* ------------------------------------------------------------------ */
/* JSON                                                                */

/* length of a valid UTF-8 sequence at p (1..4), 0 if invalid */
static int utf8_len(const unsigned char *p)
{
	int n, i;
	uint32_t cp;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		n = 2; cp = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		n = 3; cp = p[0] & 0x0f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4; cp = p[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

void json_print_string(FILE *out, const char *str)
{
	const unsigned char *p = (const unsigned char *)str;

	fputc('"', out);
	while (*p) {
		int n;

		switch (*p) {
		case '"':
			fputs("\\\"", out);
			p++;
			continue;
		case '\\':
			fputs("\\\\", out);
			p++;
			continue;
		case '\n':
			fputs("\\n", out);
			p++;
			continue;
		case '\t':
			fputs("\\t", out);
			p++;
			continue;
		case '\r':
			fputs("\\r", out);
			p++;
			continue;
		}
		if (*p < 0x20 || *p == 0x7f) {
			fprintf(out, "\\u%04x", *p);
			p++;
			continue;
		}
		n = utf8_len(p);
		if (!n) {
			fputs("\\ufffd", out);
			p++;
			continue;
		}
		fwrite(p, 1, (size_t)n, out);
		p += n;
	}
	fputc('"', out);
}

void sq_print_json(FILE *out, const struct sq_snapshot *s, int cpu, const char *mode)
{
	bool first_cpu = true;
	size_t i, j;

	fprintf(out, "{\n  \"version\": %d,\n  \"now_ns\": %" PRIu64 ",\n  \"mode\": ",
		s->version, s->now);
	if (mode)
		json_print_string(out, mode);
	else
		fputs("null", out);
	fputs(",\n  \"cpus\": [", out);
	for (i = 0; i < s->nr_cpus; i++) {
		const struct sq_cpu *c = &s->cpus[i];

		if (cpu >= 0 && c->cpu != cpu)
			continue;
		fprintf(out, "%s\n    {\n      \"cpu\": %d, \"curr\": %d, \"nr_runnable\": %u, "
			"\"nr_queued\": %u,\n      \"levels\": [", first_cpu ? "" : ",",
			c->cpu, (int)c->curr, c->nr_runnable, c->nr_queued);
		first_cpu = false;
		for (j = 0; j < c->nr_levels; j++) {
			const struct sq_level *l = &c->levels[j];

			fprintf(out, "%s\n        {\"prio\": %d, \"vtime_ns\": %" PRIu64
				", \"shares\": %" PRIu64 ", \"nr\": %u}", j ? "," : "",
				l->prio, l->vtime, l->shares, l->nr);
		}
		fprintf(out, "%s],\n      \"tasks\": [", c->nr_levels ? "\n      " : "");
		for (j = 0; j < c->nr_tasks; j++) {
			const struct sq_task *t = &c->tasks[j];

			fprintf(out, "%s\n        {\"pid\": %d, \"comm\": ",
				j ? "," : "", (int)t->pid);
			json_print_string(out, t->comm);
			fprintf(out, ", \"state\": \"%s\", \"prio\": %d, \"share\": %u, "
				"\"bvft_ns\": %" PRIu64 ", \"lag_ns\": %" PRId64 ", "
				"\"bias_ns\": %" PRIu64 ", \"quantum_ns\": %" PRIu64 ", "
				"\"exec_ns\": %" PRIu64 ", \"deadline_ns\": %" PRIu64 ", "
				"\"estimate_ns\": %" PRIu64 ", \"used_ns\": %" PRIu64 ", "
				"\"own_share\": %u, \"infer_period_ns\": %" PRIu64 ", "
				"\"infer_demand_ns\": %" PRIu64 ", \"group_id\": %" PRIu64 ", "
				"\"group\": ",
				sq_state_name(t->state), t->prio, t->share, t->bvft, t->lag,
				t->bias, t->quantum, t->exec, t->deadline, t->estimate, t->used,
				t->own_share ? t->own_share : t->share, t->infer_period,
				t->infer_demand, t->group_id);
			if (t->group[0])
				json_print_string(out, t->group);
			else
				fputs("null", out);
			fputs("}", out);
		}
		fprintf(out, "%s],\n      \"working_schedule\": [", c->nr_tasks ? "\n      " : "");
		for (j = 0; j < c->nr_ws; j++) {
			const struct sq_ws *w = &c->ws[j];

			fprintf(out, "%s\n        {\"pid\": %d, \"deadline_ns\": %" PRIu64
				", \"left_ns\": %" PRId64 "}", j ? "," : "",
				(int)w->pid, w->deadline, w->left);
		}
		fprintf(out, "%s]\n    }", c->nr_ws ? "\n      " : "");
	}
	fprintf(out, "%s]\n}\n", first_cpu ? "" : "\n  ");
}

/* ------------------------------------------------------------------ */
/* Group names                                                         */

static struct sq_snapshot *resolve_snap;
static size_t resolve_root_len;

static void sq_name_group(uint64_t id, const char *path)
{
	const char *rel = path + resolve_root_len;
	size_t i, j;

	for (i = 0; i < resolve_snap->nr_cpus; i++) {
		struct sq_cpu *c = &resolve_snap->cpus[i];

		for (j = 0; j < c->nr_tasks; j++)
			if (c->tasks[j].group_id == id)
				snprintf(c->tasks[j].group, SQ_GROUP_LEN, "%s",
					 *rel ? rel : "/");
	}
}

static int sq_visit(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	(void)ftw;
	if (type == FTW_D)
		sq_name_group((uint64_t)st->st_ino, path);
	return 0;
}

void sq_resolve_groups(struct sq_snapshot *s, const char *root)
{
	size_t i, j;
	bool any = false;

	for (i = 0; i < s->nr_cpus; i++)
		for (j = 0; j < s->cpus[i].nr_tasks; j++)
			any |= s->cpus[i].tasks[j].group_id != 0;
	if (!any)
		return;
	resolve_snap = s;
	resolve_root_len = strlen(root);
	/* the root cgroup's id is 1, not its directory's inode */
	sq_name_group(1, root);
	nftw(root, sq_visit, 16, FTW_PHYS | FTW_MOUNT);
	resolve_snap = NULL;
}
