/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartctl: parsing and formatting of command-line values.  Pure functions
 * (no kernel, no files), unit-tested on the host by tests/test_parse.c.
 */
#ifndef SMARTCTL_PARSE_H
#define SMARTCTL_PARSE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* what a parse_*() function found wrong */
enum parse_err {
	PARSE_OK = 0,
	PARSE_SYNTAX,		/* not a number / not a name */
	PARSE_RANGE,		/* a number, but out of range */
};

/**
 * parse_long() - a whole string as a decimal integer in [min, max]
 * @s:		the string (leading '+' or '-' allowed, nothing after)
 * @min:	smallest allowed value
 * @max:	largest allowed value
 * @out:	the value, set only on PARSE_OK
 *
 * Return: PARSE_OK, PARSE_SYNTAX or PARSE_RANGE.
 */
enum parse_err parse_long(const char *s, long min, long max, long *out);

/**
 * parse_pid() - a thread/process id: a positive decimal integer
 * @s:		the string
 * @out:	the pid
 *
 * Return: PARSE_OK, PARSE_SYNTAX or PARSE_RANGE (0 or too large).
 */
enum parse_err parse_pid(const char *s, pid_t *out);

/**
 * parse_priority() - a SMART priority, SMART_PRIO_MIN..SMART_PRIO_MAX
 * @s:		the string
 * @out:	the priority
 *
 * Return: PARSE_OK, PARSE_SYNTAX or PARSE_RANGE.
 */
enum parse_err parse_priority(const char *s, int *out);

/**
 * parse_share() - a SMART share, SMART_SHARE_MIN..SMART_SHARE_MAX
 * @s:		the string
 * @out:	the share
 *
 * Return: PARSE_OK, PARSE_SYNTAX or PARSE_RANGE.
 */
enum parse_err parse_share(const char *s, unsigned int *out);

/* the kernel's SIGRTMAX on Linux (_NSIG); the notify signal's upper bound */
#define SMARTCTL_SIGMAX	64

/**
 * parse_signal() - a notification signal
 * @s:		a number (0..64; 0 is the default, SIGXCPU), "default", or a
 *		name with or without "SIG", any case: XCPU, sigusr1,
 *		RTMIN, RTMIN+N, RTMAX, RTMAX-N (the C library's SIGRTMIN and
 *		SIGRTMAX, as kill(1) and the application see them)
 * @out:	the signal number, 0 for the default
 *
 * Return: PARSE_OK, PARSE_SYNTAX (no such name) or PARSE_RANGE (a number
 * or an RTMIN/RTMAX offset outside 0..64).
 */
enum parse_err parse_signal(const char *s, int *out);

/**
 * signal_name() - the name of a signal for output
 * @sig:	signal number
 * @buf:	where to write names that are not constant (SIGRTMIN+3)
 * @len:	size of @buf
 *
 * Return: "SIGXCPU", "SIGRTMIN+3", ... or "SIG<n>" for numbers with no
 * name (32 and 33 under glibc, which keeps them).
 */
const char *signal_name(int sig, char *buf, size_t len);

/**
 * parse_duration_ns() - a time as ns
 * @s:		decimal number with an optional fraction and unit: ns, us,
 *		ms or s ("10000000", "10ms", "1.5ms", "0.01s"); no unit means
 *		@dflt_unit_ns
 * @dflt_unit_ns: ns per unit when @s has no unit (1 for ns, 1e9 for s)
 * @out:	the time in ns; fractions of a ns are refused
 *
 * Return: PARSE_OK, PARSE_SYNTAX or PARSE_RANGE (more than 2^64-1 ns or
 * a fraction of a ns).
 */
enum parse_err parse_duration_ns(const char *s, uint64_t dflt_unit_ns, uint64_t *out);

/**
 * format_ms() - ns as milliseconds with 3 decimals ("12.345")
 * @ns:		signed time in ns
 * @buf:	output buffer
 * @len:	its size (24 is enough)
 *
 * Return: @buf.
 */
char *format_ms(int64_t ns, char *buf, size_t len);

#endif /* SMARTCTL_PARSE_H */
