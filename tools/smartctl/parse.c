// SPDX-License-Identifier: GPL-2.0
/*
 * smartctl: parsing and formatting of command-line values (see parse.h).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <linux/smart_sched.h>

#include "parse.h"

enum parse_err parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	/* strtol() skips leading blanks; a value with them is a typo */
	if (!s || !*s || isspace((unsigned char)*s))
		return PARSE_SYNTAX;
	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end)
		return PARSE_SYNTAX;
	if (errno == ERANGE || v < min || v > max)
		return PARSE_RANGE;
	*out = v;
	return PARSE_OK;
}

enum parse_err parse_pid(const char *s, pid_t *out)
{
	enum parse_err e;
	long v;

	e = parse_long(s, 1, INT_MAX, &v);
	if (e == PARSE_OK)
		*out = (pid_t)v;
	return e;
}

enum parse_err parse_priority(const char *s, int *out)
{
	enum parse_err e;
	long v;

	e = parse_long(s, SMART_PRIO_MIN, SMART_PRIO_MAX, &v);
	if (e == PARSE_OK)
		*out = (int)v;
	return e;
}

enum parse_err parse_share(const char *s, unsigned int *out)
{
	enum parse_err e;
	long v;

	e = parse_long(s, SMART_SHARE_MIN, SMART_SHARE_MAX, &v);
	if (e == PARSE_OK)
		*out = (unsigned int)v;
	return e;
}

/* The standard signals by the C library's numbers (correct on any arch). */
static const struct {
	const char *name;
	int sig;
} sig_names[] = {
	{ "HUP", SIGHUP }, { "INT", SIGINT }, { "QUIT", SIGQUIT },
	{ "ILL", SIGILL }, { "TRAP", SIGTRAP }, { "ABRT", SIGABRT },
	{ "BUS", SIGBUS }, { "FPE", SIGFPE }, { "KILL", SIGKILL },
	{ "USR1", SIGUSR1 }, { "SEGV", SIGSEGV }, { "USR2", SIGUSR2 },
	{ "PIPE", SIGPIPE }, { "ALRM", SIGALRM }, { "TERM", SIGTERM },
#ifdef SIGSTKFLT
	{ "STKFLT", SIGSTKFLT },
#endif
	{ "CHLD", SIGCHLD }, { "CONT", SIGCONT }, { "STOP", SIGSTOP },
	{ "TSTP", SIGTSTP }, { "TTIN", SIGTTIN }, { "TTOU", SIGTTOU },
	{ "URG", SIGURG }, { "XCPU", SIGXCPU }, { "XFSZ", SIGXFSZ },
	{ "VTALRM", SIGVTALRM }, { "PROF", SIGPROF }, { "WINCH", SIGWINCH },
	{ "IO", SIGIO },
#ifdef SIGPWR
	{ "PWR", SIGPWR },
#endif
	{ "SYS", SIGSYS },
	/* aliases: parsed, never printed (they come after the real names) */
	{ "IOT", SIGABRT }, { "CLD", SIGCHLD }, { "POLL", SIGIO },
};

#define N_SIG_NAMES ARRAY_SIZE(sig_names)

/* "+N"/"-N" after RTMIN/RTMAX, or nothing */
static enum parse_err parse_rt_offset(const char *s, int base, int sign, int *out)
{
	long off = 0;

	if (*s) {
		if ((sign > 0 && *s != '+') || (sign < 0 && *s != '-'))
			return PARSE_SYNTAX;
		s++;
		if (!isdigit((unsigned char)*s))
			return PARSE_SYNTAX;
		if (parse_long(s, 0, SMARTCTL_SIGMAX, &off) != PARSE_OK)
			return PARSE_RANGE;
	}
	off = base + sign * off;
	if (off < SIGRTMIN || off > SIGRTMAX)
		return PARSE_RANGE;
	*out = (int)off;
	return PARSE_OK;
}

enum parse_err parse_signal(const char *s, int *out)
{
	enum parse_err e;
	size_t i;
	long v;

	if (!s || !*s)
		return PARSE_SYNTAX;
	if (!strcasecmp(s, "default")) {
		*out = 0;
		return PARSE_OK;
	}
	if (!strncasecmp(s, "SIG", 3) && s[3])
		s += 3;
	if (isdigit((unsigned char)*s)) {
		e = parse_long(s, 0, SMARTCTL_SIGMAX, &v);
		if (e == PARSE_OK)
			*out = (int)v;
		return e;
	}
	if (!strncasecmp(s, "RTMIN", 5))
		return parse_rt_offset(s + 5, SIGRTMIN, 1, out);
	if (!strncasecmp(s, "RTMAX", 5))
		return parse_rt_offset(s + 5, SIGRTMAX, -1, out);
	for (i = 0; i < N_SIG_NAMES; i++) {
		if (!strcasecmp(s, sig_names[i].name)) {
			*out = sig_names[i].sig;
			return PARSE_OK;
		}
	}
	return PARSE_SYNTAX;
}

const char *signal_name(int sig, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < N_SIG_NAMES; i++) {
		if (sig_names[i].sig == sig) {
			snprintf(buf, len, "SIG%s", sig_names[i].name);
			return buf;
		}
	}
	if (sig == SIGRTMIN)
		snprintf(buf, len, "SIGRTMIN");
	else if (sig == SIGRTMAX)
		snprintf(buf, len, "SIGRTMAX");
	else if (sig > SIGRTMIN && sig < SIGRTMAX)
		snprintf(buf, len, "SIGRTMIN+%d", sig - SIGRTMIN);
	else
		snprintf(buf, len, "SIG%d", sig);
	return buf;
}

enum parse_err parse_duration_ns(const char *s, uint64_t dflt_unit_ns, uint64_t *out)
{
	static const struct {
		const char *suffix;
		uint64_t ns;
	} units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	};
	uint64_t whole = 0, frac = 0, frac_div = 1, unit = dflt_unit_ns, v;
	const char *p = s;
	int digits = 0;
	size_t i;

	if (!s)
		return PARSE_SYNTAX;
	for (; isdigit((unsigned char)*p); p++, digits++) {
		uint64_t d = (uint64_t)(*p - '0');

		if (whole > (UINT64_MAX - d) / 10)
			return PARSE_RANGE;
		whole = whole * 10 + d;
	}
	if (*p == '.') {
		p++;
		for (; isdigit((unsigned char)*p); p++, digits++) {
			if (frac_div >= 1000000000000000000ULL)
				return PARSE_RANGE;	/* more than 18 decimals */
			frac = frac * 10 + (uint64_t)(*p - '0');
			frac_div *= 10;
		}
	}
	if (!digits)
		return PARSE_SYNTAX;
	if (*p) {
		for (i = 0; i < ARRAY_SIZE(units); i++)
			if (!strcmp(p, units[i].suffix))
				break;
		if (i == ARRAY_SIZE(units))
			return PARSE_SYNTAX;
		unit = units[i].ns;
	}
	if (unit && whole > UINT64_MAX / unit)
		return PARSE_RANGE;
	v = whole * unit;
	if (frac) {
		/* unit <= 1e9 and frac < frac_div <= 1e18: use 128 bits */
		unsigned __int128 f = (unsigned __int128)frac * unit;

		if (f % frac_div)
			return PARSE_RANGE;		/* a fraction of a ns */
		f /= frac_div;
		if (f > UINT64_MAX - v)
			return PARSE_RANGE;
		v += (uint64_t)f;
	}
	*out = v;
	return PARSE_OK;
}

char *format_ms(int64_t ns, char *buf, size_t len)
{
	uint64_t a = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;

	snprintf(buf, len, "%s%" PRIu64 ".%03" PRIu64, ns < 0 ? "-" : "",
		 a / 1000000, (a / 1000) % 1000);
	return buf;
}
