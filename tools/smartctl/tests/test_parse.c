// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of smartctl's value parsing (parse.c): pids, priority
 * and share ranges, signal names and numbers, durations for tune/top.
 */
#include <signal.h>
#include <string.h>

#include <linux/smart_sched.h>

#include "parse.h"
#include "tap.h"

static const char *err_name(enum parse_err e)
{
	switch (e) {
	case PARSE_OK: return "ok";
	case PARSE_SYNTAX: return "syntax";
	case PARSE_RANGE: return "range";
	}
	return "?";
}

static void test_ranges(void)
{
	static const struct {
		const char *what, *s;
		enum parse_err want;
		long v;
	} rows[] = {
		{ "priority", "0", PARSE_OK, 0 },
		{ "priority", "16", PARSE_OK, 16 },
		{ "priority", "-16", PARSE_OK, -16 },
		{ "priority", "+3", PARSE_OK, 3 },
		{ "priority", "17", PARSE_RANGE, 0 },
		{ "priority", "-17", PARSE_RANGE, 0 },
		{ "priority", "99999999999999999999", PARSE_RANGE, 0 },
		{ "priority", "3x", PARSE_SYNTAX, 0 },
		{ "priority", "", PARSE_SYNTAX, 0 },
		{ "priority", " 3", PARSE_SYNTAX, 0 },
		{ "priority", "three", PARSE_SYNTAX, 0 },
		{ "share", "1", PARSE_OK, 1 },
		{ "share", "1024", PARSE_OK, 1024 },
		{ "share", "1048576", PARSE_OK, 1048576 },
		{ "share", "0", PARSE_RANGE, 0 },
		{ "share", "1048577", PARSE_RANGE, 0 },
		{ "share", "-5", PARSE_RANGE, 0 },
		{ "share", "1.5", PARSE_SYNTAX, 0 },
		{ "pid", "1", PARSE_OK, 1 },
		{ "pid", "4194304", PARSE_OK, 4194304 },
		{ "pid", "0", PARSE_RANGE, 0 },
		{ "pid", "-1", PARSE_RANGE, 0 },
		{ "pid", "2147483648", PARSE_RANGE, 0 },
		{ "pid", "abc", PARSE_SYNTAX, 0 },
		{ "pid", "12abc", PARSE_SYNTAX, 0 },
	};
	char name[128];
	enum parse_err e;
	unsigned int u = 0;
	size_t i;
	pid_t pid = 0;
	int v = 0;
	long got;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (!strcmp(rows[i].what, "priority")) {
			e = parse_priority(rows[i].s, &v);
			got = v;
		} else if (!strcmp(rows[i].what, "share")) {
			e = parse_share(rows[i].s, &u);
			got = (long)u;
		} else {
			e = parse_pid(rows[i].s, &pid);
			got = pid;
		}
		snprintf(name, sizeof(name), "parse %s '%s': %s", rows[i].what, rows[i].s,
			 err_name(rows[i].want));
		tap_ok(e == rows[i].want && (e != PARSE_OK || got == rows[i].v), name,
		       "expected %s %ld, seen %s %ld", err_name(rows[i].want), rows[i].v,
		       err_name(e), e == PARSE_OK ? got : 0);
	}
	tap_ok(SMART_PRIO_MIN == -16 && SMART_PRIO_MAX == 16 && SMART_SHARE_MIN == 1 &&
	       SMART_SHARE_MAX == 1048576, "ranges: the uapi header's limits",
	       "expected -16..16 and 1..1048576, seen %d..%d and %d..%d",
	       SMART_PRIO_MIN, SMART_PRIO_MAX, SMART_SHARE_MIN, SMART_SHARE_MAX);
}

static void test_signals(void)
{
	const struct {
		const char *s;
		enum parse_err want;
		int sig;
	} rows[] = {
		{ "XCPU", PARSE_OK, SIGXCPU },
		{ "SIGXCPU", PARSE_OK, SIGXCPU },
		{ "sigxcpu", PARSE_OK, SIGXCPU },
		{ "usr1", PARSE_OK, SIGUSR1 },
		{ "SIGUSR2", PARSE_OK, SIGUSR2 },
		{ "TERM", PARSE_OK, SIGTERM },
		{ "IOT", PARSE_OK, SIGABRT },
		{ "CLD", PARSE_OK, SIGCHLD },
		{ "POLL", PARSE_OK, SIGIO },
		{ "10", PARSE_OK, 10 },
		{ "SIG10", PARSE_OK, 10 },
		{ "64", PARSE_OK, 64 },
		{ "0", PARSE_OK, 0 },
		{ "default", PARSE_OK, 0 },
		{ "DEFAULT", PARSE_OK, 0 },
		{ "RTMIN", PARSE_OK, SIGRTMIN },
		{ "SIGRTMIN+1", PARSE_OK, SIGRTMIN + 1 },
		{ "rtmin+3", PARSE_OK, SIGRTMIN + 3 },
		{ "RTMAX", PARSE_OK, SIGRTMAX },
		{ "SIGRTMAX-2", PARSE_OK, SIGRTMAX - 2 },
		{ "65", PARSE_RANGE, 0 },
		{ "-1", PARSE_SYNTAX, 0 },
		{ "RTMIN+99", PARSE_RANGE, 0 },
		{ "RTMAX-99", PARSE_RANGE, 0 },
		{ "RTMIN-1", PARSE_SYNTAX, 0 },
		{ "RTMAX+1", PARSE_SYNTAX, 0 },
		{ "RTMIN+", PARSE_SYNTAX, 0 },
		{ "RTMIN+x", PARSE_SYNTAX, 0 },
		{ "FOO", PARSE_SYNTAX, 0 },
		{ "SIG", PARSE_SYNTAX, 0 },
		{ "", PARSE_SYNTAX, 0 },
		{ "XCPU2", PARSE_SYNTAX, 0 },
	};
	char name[128], buf[32];
	enum parse_err e;
	size_t i;
	int sig;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		sig = -1;
		e = parse_signal(rows[i].s, &sig);
		snprintf(name, sizeof(name), "parse signal '%s': %s %d", rows[i].s,
			 err_name(rows[i].want), rows[i].sig);
		tap_ok(e == rows[i].want && (e != PARSE_OK || sig == rows[i].sig), name,
		       "expected %s %d, seen %s %d", err_name(rows[i].want), rows[i].sig,
		       err_name(e), sig);
	}

	/* names for output, and that they parse back */
	{
		const struct {
			int sig;
			const char *name;
		} out[] = {
			{ SIGXCPU, "SIGXCPU" }, { SIGUSR1, "SIGUSR1" }, { SIGHUP, "SIGHUP" },
			{ SIGABRT, "SIGABRT" }, { SIGCHLD, "SIGCHLD" }, { SIGIO, "SIGIO" },
			{ SIGRTMIN, "SIGRTMIN" }, { SIGRTMAX, "SIGRTMAX" },
		};

		for (i = 0; i < sizeof(out) / sizeof(out[0]); i++) {
			snprintf(name, sizeof(name), "signal_name(%d) is %s", out[i].sig, out[i].name);
			tap_ok(!strcmp(signal_name(out[i].sig, buf, sizeof(buf)), out[i].name), name,
			       "expected %s, seen %s", out[i].name, buf);
		}
	}
	snprintf(name, sizeof(name), "signal_name(SIGRTMIN+1) is SIGRTMIN+1");
	tap_ok(!strcmp(signal_name(SIGRTMIN + 1, buf, sizeof(buf)), "SIGRTMIN+1"), name,
	       "expected SIGRTMIN+1, seen %s", buf);
	for (sig = 1; sig <= SMARTCTL_SIGMAX; sig++) {
		int back = -1;

		signal_name(sig, buf, sizeof(buf));
		if (parse_signal(buf, &back) != PARSE_OK || back != sig)
			break;
	}
	tap_ok(sig > SMARTCTL_SIGMAX, "every signal 1..64: its name parses back to it",
	       "first failure: %d (%s)", sig <= SMARTCTL_SIGMAX ? sig : 0, buf);
}

static void test_durations(void)
{
	static const struct {
		const char *s;
		uint64_t unit;
		enum parse_err want;
		uint64_t ns;
	} rows[] = {
		{ "10000000", 1, PARSE_OK, 10000000 },
		{ "10ms", 1, PARSE_OK, 10000000 },
		{ "1.5ms", 1, PARSE_OK, 1500000 },
		{ "250us", 1, PARSE_OK, 250000 },
		{ "0.01s", 1, PARSE_OK, 10000000 },
		{ "7ns", 1, PARSE_OK, 7 },
		{ "0", 1, PARSE_OK, 0 },
		{ "1", 1000000000, PARSE_OK, 1000000000 },
		{ "0.5", 1000000000, PARSE_OK, 500000000 },
		{ "200ms", 1000000000, PARSE_OK, 200000000 },
		{ ".5s", 1, PARSE_OK, 500000000 },
		{ "18446744073709551615", 1, PARSE_OK, UINT64_MAX },
		{ "18446744073709551616", 1, PARSE_RANGE, 0 },
		{ "18446744074s", 1, PARSE_RANGE, 0 },
		{ "1.5ns", 1, PARSE_RANGE, 0 },
		{ "", 1, PARSE_SYNTAX, 0 },
		{ "ms", 1, PARSE_SYNTAX, 0 },
		{ "10 ms", 1, PARSE_SYNTAX, 0 },
		{ "10min", 1, PARSE_SYNTAX, 0 },
		{ "-5", 1, PARSE_SYNTAX, 0 },
		{ "abc", 1, PARSE_SYNTAX, 0 },
		{ "1.", 1, PARSE_OK, 1 },
	};
	char name[128];
	enum parse_err e;
	uint64_t ns;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		ns = 0;
		e = parse_duration_ns(rows[i].s, rows[i].unit, &ns);
		snprintf(name, sizeof(name), "parse duration '%s' (default unit %llu ns): %s",
			 rows[i].s, (unsigned long long)rows[i].unit, err_name(rows[i].want));
		tap_ok(e == rows[i].want && (e != PARSE_OK || ns == rows[i].ns), name,
		       "expected %s %llu, seen %s %llu", err_name(rows[i].want),
		       (unsigned long long)rows[i].ns, err_name(e), (unsigned long long)ns);
	}
}

static void test_format(void)
{
	static const struct {
		int64_t ns;
		const char *s;
	} rows[] = {
		{ 0, "0.000" }, { 1500000, "1.500" }, { -1500000, "-1.500" },
		{ 999, "0.000" }, { 12345678, "12.345" }, { INT64_MIN, "-9223372036854.775" },
	};
	char name[96], buf[32];
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		snprintf(name, sizeof(name), "format_ms(%lld) is %s", (long long)rows[i].ns,
			 rows[i].s);
		tap_ok(!strcmp(format_ms(rows[i].ns, buf, sizeof(buf)), rows[i].s), name,
		       "expected %s, seen %s", rows[i].s, buf);
	}
}

int main(void)
{
	tap_diag("smartctl value parsing (SIGRTMIN %d, SIGRTMAX %d)", SIGRTMIN, SIGRTMAX);
	test_ranges();
	test_signals();
	test_durations();
	test_format();
	return tap_done();
}
