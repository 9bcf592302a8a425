// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of smartctl top's parser and printers (queues.c) on the
 * fixtures in tests/fixtures: values, forward compatibility (unknown keys
 * and records), every parse error, JSON string escaping, and the text and
 * JSON output of queues-2cpu.txt against queues-2cpu.{out,json}.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "queues.h"
#include "tap.h"

#ifndef FIXTURES
#define FIXTURES "tests/fixtures"
#endif

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;
	FILE *m;
	int c;

	if (!f)
		return NULL;
	m = open_memstream(&buf, &len);
	while ((c = fgetc(f)) != EOF)
		fputc(c, m);
	fclose(m);
	fclose(f);
	return buf;
}

static int parse_file(const char *name, struct sq_snapshot *s, char *err, size_t errlen)
{
	char path[512];
	FILE *f;
	int r;

	snprintf(path, sizeof(path), "%s/%s", FIXTURES, name);
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	r = sq_parse(f, s, err, errlen);
	fclose(f);
	return r;
}

static int parse_str(const char *text, struct sq_snapshot *s, char *err, size_t errlen)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int r;

	r = sq_parse(f, s, err, errlen);
	fclose(f);
	return r;
}

/* output of a printer into a malloc'ed string */
#define CAPTURE(buf, call) do {						\
		size_t __len;						\
		FILE *out = open_memstream(&(buf), &__len);		\
		call;							\
		fclose(out);						\
	} while (0)

static void test_fixture_values(void)
{
	struct sq_snapshot s;
	const struct sq_cpu *c0, *c1;
	const struct sq_task *t;
	char err[160];
	int r;

	r = parse_file("queues-2cpu.txt", &s, err, sizeof(err));
	if (!tap_ok(r == 0, "queues-2cpu.txt parses", "expected 0, seen %d (%s)", r, err))
		return;
	tap_ok(s.version == 1 && s.now == 123456789012ULL && s.nr_cpus == 2,
	       "header: version 1, now, 2 CPUs", "seen version %d now %llu cpus %zu",
	       s.version, (unsigned long long)s.now, s.nr_cpus);
	c0 = sq_find_cpu(&s, 0);
	c1 = sq_find_cpu(&s, 1);
	tap_ok(c0 && c0->curr == 301 && c0->nr_runnable == 3 && c0->nr_queued == 4,
	       "cpu 0: curr 301, 3 runnable, 4 queued", "seen curr %d %u %u",
	       c0 ? c0->curr : -1, c0 ? c0->nr_runnable : 0, c0 ? c0->nr_queued : 0);
	if (!c0 || !c1)
		goto out;
	tap_ok(c0->nr_levels == 2 && c0->levels[0].prio == 3 &&
	       c0->levels[0].vtime == 5000000 && c0->levels[0].shares == 1801 &&
	       c0->levels[0].nr == 2 && c0->levels[1].prio == 0,
	       "cpu 0: levels 3 and 0 with vtime, shares, nr", "seen %zu levels, first prio %d",
	       c0->nr_levels, c0->nr_levels ? c0->levels[0].prio : 99);
	tap_ok(c0->nr_tasks == 4 && c0->tasks[0].state == 'R' && c0->tasks[1].state == 'Q' &&
	       c0->tasks[2].state == 'Q' && c0->tasks[3].state == 'S',
	       "cpu 0: 4 tasks in value order R Q Q S", "seen %zu tasks", c0->nr_tasks);
	t = &c0->tasks[0];
	tap_ok(t->pid == 301 && t->prio == 3 && t->share == 777 && t->bvft == 17178882 &&
	       t->lag == 250000 && t->quantum == 10000000 && t->exec == 4000000 &&
	       t->deadline == 0 && !strcmp(t->comm, "spin"),
	       "task 301: prio 3 share 777 and the rest", "seen pid %d prio %d share %u comm '%s'",
	       t->pid, t->prio, t->share, t->comm);
	t = &c0->tasks[1];
	tap_ok(t->pid == 302 && t->lag == -1500000 && t->deadline == 123466789012ULL &&
	       t->estimate == 3000000 && t->used == 1000000 && !strcmp(t->comm, "video player"),
	       "task 302: negative lag, a deadline, comm with a blank",
	       "seen lag %lld deadline %llu comm '%s'", (long long)t->lag,
	       (unsigned long long)t->deadline, t->comm);
	tap_ok(c0->nr_ws == 1 && c0->ws[0].pid == 302 && c0->ws[0].deadline == 123466789012ULL &&
	       c0->ws[0].left == 2000000, "cpu 0: working schedule 302",
	       "seen %zu entries", c0->nr_ws);
	tap_ok(c1->curr == 0 && !c1->nr_levels && !c1->nr_tasks && !c1->nr_ws,
	       "cpu 1: idle, empty", "seen curr %d, %zu levels %zu tasks %zu ws", c1->curr,
	       c1->nr_levels, c1->nr_tasks, c1->nr_ws);
out:
	sq_free(&s);
}

static void test_golden_output(void)
{
	char *want_json = slurp(FIXTURES "/queues-2cpu.json");
	char *want_text = slurp(FIXTURES "/queues-2cpu.out");
	char *json = NULL, *text = NULL, *mode = NULL, *one = NULL, err[160];
	struct sq_snapshot s;
	bool pass;

	if (parse_file("queues-2cpu.txt", &s, err, sizeof(err))) {
		tap_ok(0, "golden: fixture parses", "%s", err);
		return;
	}
	CAPTURE(json, sq_print_json(out, &s, -1, NULL));
	CAPTURE(text, sq_print_text(out, &s, -1, NULL));
	CAPTURE(mode, sq_print_json(out, &s, -1, "opt-in"));
	CAPTURE(one, sq_print_json(out, &s, 1, "all"));
	tap_ok(want_json && !strcmp(json, want_json), "JSON of queues-2cpu.txt is queues-2cpu.json",
	       "%s", want_json && !strcmp(json, want_json) ? "identical" : json);
	tap_ok(want_text && !strcmp(text, want_text), "text of queues-2cpu.txt is queues-2cpu.out",
	       "%s", want_text && !strcmp(text, want_text) ? "identical" : text);
	tap_ok(strstr(mode, "\"mode\": \"opt-in\",") != NULL, "JSON: the mode as a string",
	       "expected \"mode\": \"opt-in\" in the output");
	pass = strstr(one, "\"cpu\": 1,") && !strstr(one, "\"cpu\": 0,") && !strstr(one, "\"pid\"");
	tap_ok(pass, "JSON --cpu 1: only cpu 1, no tasks", "%s", pass ? "yes" : one);
	free(want_json);
	free(want_text);
	free(json);
	free(text);
	free(mode);
	free(one);
	sq_free(&s);
}

static void test_forward_compat(void)
{
	struct sq_snapshot s;
	const struct sq_cpu *c;
	const struct sq_task *t;
	char err[160], *json = NULL;
	bool pass;
	int r;

	r = parse_file("queues-odd.txt", &s, err, sizeof(err));
	if (!tap_ok(r == 0, "queues-odd.txt (version 2, unknown keys/records) parses",
		    "expected 0, seen %d (%s)", r, err))
		return;
	tap_ok(s.version == 2 && s.nr_cpus == 2 && sq_find_cpu(&s, 3) && !sq_find_cpu(&s, 1),
	       "odd: version 2, cpus 0 and 3", "seen version %d, %zu cpus", s.version, s.nr_cpus);
	c = sq_find_cpu(&s, 0);
	t = c && c->nr_tasks ? &c->tasks[0] : NULL;
	tap_ok(t && t->prio == -16 && t->share == 1 && t->lag == INT64_MIN &&
	       t->exec == UINT64_MAX && !strcmp(t->comm, "a \"q\" \\b\tt/x"),
	       "odd: extreme numbers; comm keeps quotes, backslash, tab",
	       "seen comm '%s'", t ? t->comm : "(none)");
	tap_ok(c && c->nr_ws == 1 && c->ws[0].left == -1000000,
	       "odd: negative 'left' in the working schedule", "seen %zu entries", c ? c->nr_ws : 0);
	c = sq_find_cpu(&s, 3);
	tap_ok(c && c->nr_tasks == 1 && c->tasks[0].comm[0] == '\0' && c->tasks[0].state == 'S',
	       "odd: empty comm at the end of the line", "seen %zu tasks", c ? c->nr_tasks : 0);
	CAPTURE(json, sq_print_json(out, &s, -1, NULL));
	pass = strstr(json, "\"comm\": \"a \\\"q\\\" \\\\b\\tt/x\"") != NULL;
	tap_ok(pass, "JSON: comm escaped (quote, backslash, tab)", "%s", pass ? "yes" : json);
	free(json);
	sq_free(&s);

	r = parse_file("queues-bytes.txt", &s, err, sizeof(err));
	tap_ok(r == 0, "queues-bytes.txt parses", "%s", r ? err : "ok");
	if (!r) {
		json = NULL;
		CAPTURE(json, sq_print_json(out, &s, -1, NULL));
		pass = strstr(json, "\"comm\": \"bad\\u0001\\ufffd\xc3\xa9\"") != NULL;
		tap_ok(pass, "JSON: control byte as \\u0001, invalid UTF-8 as U+FFFD, valid UTF-8 kept",
		       "%s", pass ? "yes" : json);
		free(json);
	}
	sq_free(&s);
}

#define TASK_TAIL "state R prio 0 share 1024 bvft 0 lag 0 bias 0 quantum 1 exec 0 " \
		  "deadline 0 estimate 0 used 0 comm x\n"
#define HDR "version 1\nnow 1\n"
#define CPU0 "cpu 0 curr 0 nr_runnable 0 nr_queued 0\n"

static void test_errors(void)
{
	static const struct {
		const char *name, *text, *msg;
	} rows[] = {
		{ "empty file", "", "no 'version' line" },
		{ "no version line", "now 1\n" CPU0, "no 'version' line" },
		{ "version 0", "version 0\n", "line 1: unknown version 0" },
		{ "task before any cpu", HDR "task 5 " TASK_TAIL, "line 3: task record before any cpu" },
		{ "level before any cpu", HDR "level 0 vtime 0 shares 1 nr 1\n",
		  "line 3: level record before any cpu" },
		{ "cpu without nr_queued", HDR "cpu 0 curr 0 nr_runnable 0\n",
		  "line 3: cpu record without 'nr_queued'" },
		{ "task without comm", HDR CPU0 "task 5 state R prio 0 share 1024 bvft 0 lag 0 "
		  "bias 0 quantum 1 exec 0 deadline 0 estimate 0 used 0\n",
		  "line 4: task record without 'comm'" },
		{ "task without share", HDR CPU0 "task 5 state R prio 0 bvft 0 lag 0 bias 0 "
		  "quantum 1 exec 0 deadline 0 estimate 0 used 0 comm x\n",
		  "line 4: task record without 'share'" },
		{ "ws without left", HDR CPU0 "ws 5 deadline 9\n", "line 4: ws record without 'left'" },
		{ "lag not a number", HDR CPU0 "task 5 state R prio 0 share 1024 bvft 0 lag abc "
		  "bias 0 quantum 1 exec 0 deadline 0 estimate 0 used 0 comm x\n",
		  "line 4: lag: bad value 'abc'" },
		{ "state of two letters", HDR CPU0 "task 5 state RQ prio 0 share 1024 bvft 0 lag 0 "
		  "bias 0 quantum 1 exec 0 deadline 0 estimate 0 used 0 comm x\n",
		  "line 4: state: bad value 'RQ'" },
		{ "share beyond 32 bits", HDR CPU0 "task 5 state R prio 0 share 4294967296 bvft 0 "
		  "lag 0 bias 0 quantum 1 exec 0 deadline 0 estimate 0 used 0 comm x\n",
		  "line 4: share: bad value '4294967296'" },
		{ "negative vtime", HDR CPU0 "level 0 vtime -1 shares 1 nr 1\n",
		  "line 4: vtime: bad value '-1'" },
		{ "u64 overflow", "version 1\nnow 18446744073709551616\n",
		  "line 2: now: bad value '18446744073709551616'" },
		{ "a key without a value", HDR "cpu 0 curr\n", "line 3: a key without a value" },
		{ "pid not a number", HDR "cpu x curr 0 nr_runnable 0 nr_queued 0\n",
		  "line 3: cpu: bad value 'x'" },
	};
	struct sq_snapshot s;
	char err[160], name[128];
	size_t i;
	int r;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		errno = 0;
		r = parse_str(rows[i].text, &s, err, sizeof(err));
		snprintf(name, sizeof(name), "parse error: %s", rows[i].name);
		tap_ok(r == -1 && errno == EINVAL && strstr(err, rows[i].msg), name,
		       "expected -1/EINVAL '%s', seen %d/%s '%s'", rows[i].msg, r,
		       strerror(errno), r ? err : "");
		sq_free(&s);
	}

	/* blank lines, comments and CRLF are fine */
	r = parse_str("# comment\r\nversion 1\r\n\r\nnow 7\r\n" CPU0, &s, err, sizeof(err));
	tap_ok(r == 0 && s.now == 7 && s.nr_cpus == 1, "comments, blank lines and CRLF accepted",
	       "seen %d '%s'", r, r ? err : "");
	sq_free(&s);
}

static void test_json_strings(void)
{
	static const struct {
		const char *in, *out;
	} rows[] = {
		{ "plain", "\"plain\"" },
		{ "with space", "\"with space\"" },
		{ "q\"b\\", "\"q\\\"b\\\\\"" },
		{ "\n\r\t\x1f\x7f", "\"\\n\\r\\t\\u001f\\u007f\"" },
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8e\xb5", "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8e\xb5\"" },
		{ "\xff\xfe", "\"\\ufffd\\ufffd\"" },
		{ "\xc0\xaf", "\"\\ufffd\\ufffd\"" },		/* overlong '/' */
		{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },	/* a surrogate */
		{ "\xe2\x82", "\"\\ufffd\\ufffd\"" },		/* truncated */
		{ "", "\"\"" },
	};
	char name[64], *buf;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		buf = NULL;
		CAPTURE(buf, json_print_string(out, rows[i].in));
		snprintf(name, sizeof(name), "json_print_string row %zu", i);
		tap_ok(!strcmp(buf, rows[i].out), name, "expected %s, seen %s", rows[i].out, buf);
		free(buf);
	}
}

/*
 * own and group: parsed when present, and the group named by the path of
 * the cgroup directory whose inode is its id (a scratch tree stands for
 * /sys/fs/cgroup).
 */
static void test_groups(void)
{
	char root[] = "/tmp/sq-groups-XXXXXX", a[64], ab[80], text[1024];
	char err[160], *buf = NULL;
	struct sq_snapshot s;
	const struct sq_cpu *c;
	struct stat st;
	int r;

	if (!mkdtemp(root) || snprintf(a, sizeof(a), "%s/a", root) < 0 ||
	    mkdir(a, 0700) || snprintf(ab, sizeof(ab), "%s/a/b", root) < 0 ||
	    mkdir(ab, 0700) || stat(ab, &st)) {
		tap_ok(false, "groups: scratch cgroup tree", "%s", strerror(errno));
		return;
	}
	snprintf(text, sizeof(text), HDR CPU0
		 "task 7 state R prio 0 share 256 bvft 0 lag 0 bias 0 quantum 1 exec 0 "
		 "deadline 0 estimate 0 used 0 own 1024 group %llu comm hog\n"
		 "task 8 state Q prio 0 share 1024 bvft 0 lag 0 bias 0 quantum 1 exec 0 "
		 "deadline 0 estimate 0 used 0 own 1024 group 1 comm sh\n",
		 (unsigned long long)st.st_ino);
	r = parse_str(text, &s, err, sizeof(err));
	if (!tap_ok(r == 0, "groups: own and group parse", "%s", r ? err : "ok"))
		goto out;
	c = sq_find_cpu(&s, 0);
	tap_ok(c && c->nr_tasks == 2 && c->tasks[0].own_share == 1024 &&
	       c->tasks[0].group_id == (uint64_t)st.st_ino,
	       "groups: own share and group id kept", "seen %zu tasks", c ? c->nr_tasks : 0);
	sq_resolve_groups(&s, root);
	tap_ok(c && !strcmp(c->tasks[0].group, "/a/b") && !strcmp(c->tasks[1].group, "/"),
	       "groups: named by their directory, the root as /",
	       "seen '%s' and '%s'", c ? c->tasks[0].group : "", c ? c->tasks[1].group : "");
	CAPTURE(buf, sq_print_text(out, &s, -1, NULL));
	tap_ok(strstr(buf, "256    1024") && strstr(buf, " /a/b\n"),
	       "groups: text shows SHARE, OWN and GROUP", "%s", buf);
	free(buf);
	buf = NULL;
	CAPTURE(buf, sq_print_json(out, &s, -1, NULL));
	tap_ok(strstr(buf, "\"own_share\": 1024, \"infer_period_ns\": 0, "
		      "\"infer_demand_ns\": 0, \"group_id\": 1, \"group\": \"/\"") != NULL,
	       "groups: JSON has own_share, group_id, group", "%s", buf);
	free(buf);
	sq_free(&s);
out:
	rmdir(ab);
	rmdir(a);
	rmdir(root);
}

int main(void)
{
	tap_diag("smartctl top: queues parser and printers, fixtures in %s", FIXTURES);
	test_fixture_values();
	test_golden_output();
	test_forward_compat();
	test_errors();
	test_json_strings();
	test_groups();
	return tap_done();
}
