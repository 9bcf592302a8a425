// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART abuse by an unprivileged user through a kernel thread: work
 * a kernel thread does on the attacker's behalf earns the attacker no
 * more than its part of CPU 0.  The measurement: see abuse.h; the kernel
 * thread's time is in "other".
 *
 *   cryptd_hash   stream 64 KiB buffers into an AF_ALG hash socket bound
 *                 to cryptd(sha256-generic): cryptd's per-CPU kworker
 *                 does the hashing while the attacker sleeps in send()
 *
 * With sched_smart=all kernel threads once ran at SMART_PRIO_MAX, above
 * every user task: the victim got 9% of CPU 0.  It now gets 44-46%, and
 * 48% under EEVDF: the attacker and the kworker wake each other, and
 * each wakes with the sleep credit of the time the other ran, as two
 * user threads that wake each other do (sched-smart.rst, Limitations).
 * Until the sleep credit counts that, the victim is held to 40%.
 */
#include <sys/socket.h>
#include <linux/if_alg.h>
#include "../kselftest_harness.h"
#include "util.h"
#include "abuse.h"

#ifndef AF_ALG
#define AF_ALG		38
#endif

#define CRYPTD_HASH	"cryptd(sha256-generic)"
#define CHUNK		(64 << 10)

/* an operation socket of CRYPTD_HASH, or -errno */
static int cryptd_open(void)
{
	struct sockaddr_alg sa = {
		.salg_family = AF_ALG,
		.salg_type = "hash",
		.salg_name = CRYPTD_HASH,
	};
	int tfm, op, err;

	tfm = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (tfm < 0)
		return -errno;
	if (bind(tfm, (struct sockaddr *)&sa, sizeof(sa))) {
		err = -errno;
		close(tfm);
		return err;
	}
	op = accept(tfm, NULL, 0);
	err = op < 0 ? -errno : op;
	close(tfm);
	return err;
}

static void atk_cryptd(void *p)
{
	static char buf[CHUNK];
	struct abuse *s = p;
	int op;

	abuse_enter_unprivileged(s, ATTACKER);
	memset(buf, 0x5a, sizeof(buf));
	op = cryptd_open();
	if (op < 0)
		abuse_bad(s, "AF_ALG %s as uid %d: %s", CRYPTD_HASH, (int)getuid(),
			  strerror(-op));
	/* one update per send(), never finalised: the hash state stays small */
	for (; op >= 0; s->iters++) {
		if (send(op, buf, sizeof(buf), MSG_MORE) != sizeof(buf)) {
			abuse_bad(s, "send: %s", strerror(errno));
			break;
		}
		s->ok++;
	}
	for (;;)
		pause();
}

TEST_F(abuse, cryptd_hash)
{
	int op = cryptd_open();

	if (op < 0)
		SKIP(return, "AF_ALG %s: %s", CRYPTD_HASH, strerror(-op));
	close(op);
	self->s->min_pct = 40;
	abuse_run(_metadata, self, "cryptd_hash", atk_cryptd);
	TH_LOG("%lld buffers of %d KiB hashed", self->s->ok, CHUNK >> 10);
	EXPECT_GT(self->s->ok, 10);
	EXPECT_NO_BAD(self->s);
}

TEST_HARNESS_MAIN
