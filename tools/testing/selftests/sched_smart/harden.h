/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the harden_*_test.c selftests (SCHED_SMART against
 * hostile input and ordinary process life).
 */
#ifndef SMART_SELFTEST_HARDEN_H
#define SMART_SELFTEST_HARDEN_H

#include <stdbool.h>
#include <sys/types.h>

#define SEC		NSEC_PER_SEC
#define MAX_AHEAD	((long long)SMART_CONSTRAINT_MAX_AHEAD_NS)
#define COOKIE		0xbadc0ffee0ddf00dULL
#define SELF_EXE	"/proc/self/exe"

/* harden_read_all() - the whole file into a NUL-terminated malloc()ed buffer; length or -errno */
ssize_t harden_read_all(const char *path, char **out);

/*
 * A child process that talks to the parent over two pipes: fn(arg, rd, wr)
 * runs in it and its return value (failures) is the exit status.
 */
struct harden_peer {
	pid_t pid;
	int rd;		/* parent reads what the child writes */
	int wr;		/* parent writes what the child reads */
};

/* harden_peer_start() - fork a peer that runs @fn(@arg, rd, wr); 0 or -1 */
int harden_peer_start(struct harden_peer *pe, int (*fn)(void *, int, int), void *arg);

/* harden_put_byte() - write one byte to @fd; true on success */
bool harden_put_byte(int fd);

/* harden_get_byte() - read one byte from @fd; true on success */
bool harden_get_byte(int fd);

/* harden_peer_wait() - close the pipes and wait; the wait status, -1 on error */
int harden_peer_wait(struct harden_peer *pe);

#endif /* SMART_SELFTEST_HARDEN_H */
