// SPDX-License-Identifier: GPL-2.0
/*
 * The paper's Figure 1 (§3.6), run through the algorithm's §3.2 decision.
 *
 * A and B are real-time: 40 ms of CPU every 80 ms, deadlines out of
 * phase (A: 80, 160, ...; B: 120, 200, ...), both runnable at t = 0.
 * They ask for notification and, when notified, drop the current job
 * and wait for the next one.  C is conventional, share 2 (A and B have
 * share 1), quantum 40 ms, and has accumulated a bias of 100 ms.  The
 * scheduler decides every millisecond (resolution_ns) with
 * smart_pick_tc(); a job's demand is its estimate, so a job that has
 * run 40 ms is done.
 *
 * Every switch to another task costs SWITCH (50 us), as dispatching does
 * on a real CPU.  That is what puts the decision at "about 120 ms" just
 * after C's quantum ends at 120 ms: A2 (D 160) needs 40 ms and no longer
 * fits, B2 runs and A is notified, as §3.6 describes.  With a zero-cost
 * switch A2 would fit exactly (120 + 40 = 160, eq. (9) allows equality).
 */
#include "tap.h"
#include "sim.h"

#define MS(x)		((u64)(x) * 1000000ULL)
#define PERIOD		MS(80)
#define WORK		MS(40)
#define NR		3
/* What a context switch costs: the next task starts this much later. */
#define SWITCH		(50 * 1000ULL)

struct rt_job {
	u64 release;	/* when the job becomes runnable */
	u64 deadline;
	bool waiting;	/* done or dropped, waiting for the next release */
	unsigned long met, missed, notified;
	u64 first_notify_at, first_notify_deadline;
};

static const struct smart_params params = {
	.quantum_ns = MS(40), .bias_step_ns = MS(10),
	.bias_max_ns = MS(100), .sleep_credit_ns = MS(100),
};

static void begin_job(struct smart_queue *q, struct smart_entity *se,
		      struct rt_job *j)
{
	struct smart_tc tc = {
		.deadline = j->deadline, .estimate = WORK,
		.load = smart_tc_load(WORK, PERIOD),
	};

	smart_tc_begin(q, se, &tc);
}

/* The job ended (done or dropped): sleep until the next release. */
static void end_job(struct smart_queue *q, struct smart_entity *se,
		    struct rt_job *j, u64 now)
{
	smart_tc_end(q, se, &params);
	smart_sleep(q, se, now, &params);
	j->waiting = true;
	j->deadline += PERIOD;
	j->release = j->deadline - PERIOD;
}

int main(void)
{
	struct smart_entity se[NR];
	struct rt_job job[2] = {
		{ .release = 0, .deadline = MS(80) },
		{ .release = 0, .deadline = MS(120) },
	};
	u64 cpu[NR] = { }, now, end = MS(20000);
	struct smart_queue q;
	struct smart_ws ws, rej;
	int first = -1, at120 = -1, prev = -1, i;

	smart_queue_init(&q);
	for (i = 0; i < NR; i++) {
		smart_entity_init(&se[i], 0, i == 2 ? 2048 : 1024);
		smart_join(&q, &se[i], SMART_JOIN_NEW, &params);
	}
	/* C has accumulated a bias of 100 ms: beta = (40 + 100) / 2 = 70 ms */
	se[2].bias = MS(100);
	smart_leave(&q, &se[2]);
	se[2].delta = 0;
	smart_join(&q, &se[2], SMART_JOIN_MOVE, &params);
	for (i = 0; i < 2; i++)
		begin_job(&q, &se[i], &job[i]);

	tap_eq("figure 1: A and B start with the same BVFT (40 ms)",
	       se[0].bvft, se[1].bvft, "ns");
	tap_eq("figure 1: C starts at (quantum + bias) / 2 = 70 ms", MS(70),
	       se[2].bvft, "ns");

	for (now = 0; now < end; now += MS(1)) {
		struct smart_entity *run;
		int r;

		for (i = 0; i < 2; i++) {
			if (job[i].waiting && now >= job[i].release) {
				smart_wake(&q, &se[i], now, &params);
				begin_job(&q, &se[i], &job[i]);
				job[i].waiting = false;
			}
		}
		/* A job whose remaining estimate no longer fits is dropped too. */
		for (i = 0; i < 2; i++) {
			u64 left = WORK - min_t(u64, se[i].tc.used, WORK);

			if (!job[i].waiting && now + left > job[i].deadline) {
				if (!job[i].notified++) {
					job[i].first_notify_at = now;
					job[i].first_notify_deadline = job[i].deadline;
				}
				job[i].missed++;
				end_job(&q, &se[i], &job[i], now);
			}
		}
		run = smart_pick_tc(&q, now, &ws, &rej);
		/* Step 4's notification: a rejected job is dropped. */
		for (i = 0; i < (int)rej.nr; i++) {
			int t = rej.se[i] - se;

			if (!job[t].notified++) {
				job[t].first_notify_at = now;
				job[t].first_notify_deadline = job[t].deadline;
			}
			job[t].missed++;
			if (rej.se[i] == run)
				run = NULL;
			end_job(&q, &se[t], &job[t], now);
		}
		if (!run)
			run = smart_pick_tc(&q, now, &ws, NULL);
		if (!run)
			continue;
		r = run - se;
		if (prev >= 0 && r != prev)
			now += SWITCH;
		prev = r;
		if (first < 0)
			first = r;
		if (at120 < 0 && now >= MS(125))
			at120 = r;
		smart_charge(&q, run, now + MS(1), MS(1), &params);
		cpu[r] += MS(1);
		if (r < 2 && run->tc.used >= WORK) {
			if (now + MS(1) <= job[r].deadline)
				job[r].met++;
			else
				job[r].missed++;
			end_job(&q, run, &job[r], now + MS(1));
		}
	}

	tap_ok(first == 0, "figure 1: A runs first at t = 0 (earlier deadline)",
	       "expected A, seen task %d", first);
	tap_ok(job[0].met >= 1 && job[1].met >= 1 &&
	       job[0].first_notify_deadline != MS(80) &&
	       job[1].first_notify_deadline != MS(120),
	       "figure 1: both first deadlines (A 80 ms, B 120 ms) are met",
	       "expected met; A met %lu, B met %lu, first notified deadlines %llu / %llu ms",
	       job[0].met, job[1].met,
	       (unsigned long long)job[0].first_notify_deadline / MS(1),
	       (unsigned long long)job[1].first_notify_deadline / MS(1));
	tap_ok(job[0].first_notify_deadline == MS(160) &&
	       job[0].first_notify_at >= MS(80) && job[0].first_notify_at <= MS(160),
	       "figure 1: A's second deadline (160 ms) cannot be met and A is notified before it",
	       "expected a notification for D = 160 ms between 80 and 160 ms; seen D = %llu ms at %llu ms",
	       (unsigned long long)job[0].first_notify_deadline / MS(1),
	       (unsigned long long)job[0].first_notify_at / MS(1));
	tap_ok(at120 == 1, "figure 1: at about 120 ms B runs",
	       "expected B at t = 125 ms, seen task %d", at120);
	for (i = 0; i < 2; i++) {
		double ratio = (double)cpu[2] / cpu[i];

		tap_ok(ratio >= 1.8 && ratio <= 2.2,
		       i ? "figure 1: over 20 s C gets twice B's CPU" :
			   "figure 1: over 20 s C gets twice A's CPU",
		       "expected C / %c = 2.00 +- 10%%, seen %.3f", 'A' + i, ratio);
	}
	tap_diag("CPU over 20 s: A %llu ms, B %llu ms, C %llu ms; A met %lu missed %lu, B met %lu missed %lu",
		 (unsigned long long)cpu[0] / MS(1), (unsigned long long)cpu[1] / MS(1),
		 (unsigned long long)cpu[2] / MS(1), job[0].met, job[0].missed,
		 job[1].met, job[1].missed);
	return tap_done();
}
