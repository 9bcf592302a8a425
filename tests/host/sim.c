// SPDX-License-Identifier: GPL-2.0
/*
 * Discrete-event simulator over one SMART algorithm instance; see sim.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"

static void *sim_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p) {
		fprintf(stderr, "sim: out of memory\n");
		exit(2);
	}
	return p;
}

void sim_init(struct sim *s)
{
	memset(s, 0, sizeof(*s));
	smart_queue_init(&s->q);
	s->p.quantum_ns = SIM_MS(10);
	s->p.bias_step_ns = SIM_MS(10);
	s->p.bias_max_ns = SIM_MS(100);
	s->p.sleep_credit_ns = SIM_MS(100);
	s->tick_ns = SIM_MS(1);
	s->last = -1;
}

void sim_free(struct sim *s)
{
	int i;

	for (i = 0; i < s->nr; i++)
		free(s->task[i]);
	free(s->runs);
	s->runs = NULL;
	s->nr = 0;
}

static struct sim_task *sim_add(struct sim *s, const char *name, s32 prio,
				u32 share, enum sim_kind kind)
{
	struct sim_task *t;

	if (s->nr == SIM_MAX_TASKS) {
		fprintf(stderr, "sim: more than %d tasks\n", SIM_MAX_TASKS);
		exit(2);
	}
	t = sim_xcalloc(1, sizeof(*t));
	t->name = name;
	t->id = s->nr;
	t->kind = kind;
	smart_entity_init(&t->se, prio, share);
	t->se.group = s->new_group;
	smart_join(&s->q, &t->se, SMART_JOIN_NEW, &s->p);
	s->task[s->nr++] = t;
	return t;
}

struct sim_task *sim_hog(struct sim *s, const char *name, s32 prio, u32 share)
{
	return sim_add(s, name, prio, share, SIM_HOG);
}

struct sim_task *sim_periodic(struct sim *s, const char *name, s32 prio,
			      u32 share, u64 sleep_ns, u64 run_ns)
{
	struct sim_task *t = sim_add(s, name, prio, share, SIM_PERIODIC);

	t->sleep_ns = sleep_ns;
	t->run_ns = run_ns;
	t->burst_left = run_ns;
	return t;
}

/* BeRate's srtsim: IBBPBBPBBPBB, I 125%, P 105%, B 95% of the mean. */
static u64 sim_job_run(const struct sim_task *t)
{
	static const char gop[] = "IBBPBBPBBPBB";
	char f = gop[t->nr_jobs % (sizeof(gop) - 1)];

	if (!t->gop)
		return t->run_ns;
	return t->run_ns * (f == 'I' ? 125 : f == 'P' ? 105 : 95) / 100;
}

struct sim_task *sim_paced(struct sim *s, const char *name, s32 prio,
			   u32 share, u64 period_ns, u64 run_ns, bool gop)
{
	struct sim_task *t = sim_periodic(s, name, prio, share, 0, run_ns);

	t->period_ns = period_ns;
	t->gop = gop;
	t->release = s->now;
	t->burst_left = sim_job_run(t);
	return t;
}

struct sim_task *sim_sleep_once(struct sim *s, const char *name, s32 prio,
				u32 share, u64 at_ns, u64 sleep_ns)
{
	struct sim_task *t = sim_add(s, name, prio, share, SIM_SLEEP_ONCE);

	t->at_ns = at_ns;
	t->sleep_ns = sleep_ns;
	return t;
}

void sim_partners(struct sim_task *a, struct sim_task *b)
{
	a->partner = b;
	b->partner = a;
}

void sim_become_hog(struct sim *s, struct sim_task *t)
{
	t->kind = SIM_HOG;
}

void sim_set_params(struct sim *s, struct sim_task *t, s32 prio, u32 share)
{
	smart_set_params(&t->se, prio, share, s->now, &s->p);
}

void sim_move(struct sim *s, struct sim_task *t, struct smart_group *g)
{
	bool runnable = t->se.state == SMART_SE_RUNNABLE;

	smart_expire_sleepers(&s->q, s->now, &s->p);
	if (t->se.queue)
		smart_leave(&s->q, &t->se);
	t->se.group = g;
	if (runnable)
		smart_join(&s->q, &t->se, SMART_JOIN_MOVE, &s->p);
}

/* The running task blocks now. */
static void sim_block(struct sim *s, struct sim_task *t, u64 sleep_ns)
{
	t->lag_at_sleep = smart_lag_ns(&t->se);
	if (smart_earns_credit(&t->se, t->slept_ns,
			       t->cpu_ns - t->cpu_at_wake, &s->p)) {
		smart_sleep(&s->q, &t->se, s->now, &s->p);
		t->nr_credited++;
	} else {
		smart_sleep_short(&s->q, &t->se, s->now, &s->p);
	}
	t->nr_sleeps++;
	t->asleep = true;
	t->last_sleep = s->now;
	t->wake_at = s->now + sleep_ns;
}

/* A paced task's job is done: sleep until the next release, if early. */
static void sim_job_done(struct sim *s, struct sim_task *t)
{
	t->nr_missed += s->now > t->release + t->period_ns;
	t->nr_jobs++;
	t->release += t->period_ns;
	if (s->now >= t->release) {
		t->burst_left = sim_job_run(t);
		return;
	}
	sim_block(s, t, t->release - s->now);
}

/*
 * The running task wakes its partner (now, if it sleeps) and sleeps until
 * its partner wakes it.
 */
static void sim_hand_over(struct sim *s, struct sim_task *t)
{
	struct sim_task *o = t->partner;

	if (o->asleep)
		o->wake_at = s->now;
	if (!s->handoff) {
		sim_block(s, t, ~0ULL - s->now);
		return;
	}
	t->lag_at_sleep = smart_lag_ns(&t->se);
	smart_sleep_no_credit(&s->q, &t->se, s->now, &s->p);
	t->asleep = true;
	t->last_sleep = s->now;
	t->wake_at = ~0ULL;
}

/* Deliver the wake-ups that are due, in creation order. */
static void sim_wake_due(struct sim *s)
{
	int i;

	for (i = 0; i < s->nr; i++) {
		struct sim_task *t = s->task[i];

		if (!t->asleep || t->wake_at > s->now)
			continue;
		smart_wake(&s->q, &t->se, s->now, &s->p);
		t->asleep = false;
		t->slept_ns = s->now - t->last_sleep;
		t->burst_left = sim_job_run(t);
		t->cpu_at_wake = t->cpu_ns;
		t->nr_wakeups++;
		t->wait_pick = true;
		t->last_wake = s->now;
		t->lag_at_wake = smart_lag_ns(&t->se);
		if (t->nr_wakeups == 1 || t->lag_at_wake > t->max_lag_at_wake)
			t->max_lag_at_wake = t->lag_at_wake;
	}
}

/* Earliest pending wake-up, or @limit. */
static u64 sim_next_wake(const struct sim *s, u64 limit)
{
	u64 next = limit;
	int i;

	for (i = 0; i < s->nr; i++)
		if (s->task[i]->asleep && s->task[i]->wake_at < next)
			next = s->task[i]->wake_at;
	return next;
}

/* smart_pick(), after letting a due SIM_SLEEP_ONCE pick block. */
static struct sim_task *sim_pick(struct sim *s)
{
	struct smart_entity *se;
	struct sim_task *t;

	while ((se = smart_pick(&s->q))) {
		t = container_of(se, struct sim_task, se);
		if (t->kind == SIM_SLEEP_ONCE && !t->slept && t->at_ns <= s->now) {
			t->slept = true;
			sim_block(s, t, t->sleep_ns);
			continue;
		}
		return t;
	}
	return NULL;
}

static void sim_trace(struct sim *s, struct sim_task *t, u64 start, u64 end)
{
	struct sim_run *r;

	if (s->last != t->id)
		s->nr_switches++;
	s->last = t->id;
	if (s->nr_runs) {
		r = &s->runs[s->nr_runs - 1];
		if (r->task == t->id && r->end == start) {
			r->end = end;
			return;
		}
	}
	if (s->nr_runs == s->cap_runs) {
		s->cap_runs = s->cap_runs ? 2 * s->cap_runs : 1024;
		s->runs = realloc(s->runs, s->cap_runs * sizeof(*s->runs));
		if (!s->runs) {
			fprintf(stderr, "sim: out of memory\n");
			exit(2);
		}
	}
	s->runs[s->nr_runs++] = (struct sim_run){ t->id, start, end };
}

static u64 sim_min(u64 a, u64 b)
{
	return a < b ? a : b;
}

void sim_run_until(struct sim *s, u64 end)
{
	while (s->now < end) {
		struct sim_task *t = sim_pick(s);
		u64 stop, delta, left;

		if (!t) {
			/* Idle: no V_P moves; jump to the next wake-up. */
			stop = sim_next_wake(s, end);
			s->idle_ns += stop - s->now;
			s->now = stop;
			sim_wake_due(s);
			continue;
		}

		if (t->wait_pick) {
			u64 lat = s->now - t->last_wake;

			t->wait_pick = false;
			if (lat <= s->tick_ns)
				t->nr_fast_wakeups++;
			if (lat > t->max_wake_lat_ns)
				t->max_wake_lat_ns = lat;
		}

		/* Run until the earliest event. */
		stop = (s->now / s->tick_ns + 1) * s->tick_ns;
		left = smart_quantum_left(&t->se);
		if (left)
			stop = sim_min(stop, s->now + left);
		stop = sim_min(stop, sim_next_wake(s, end));
		if (t->kind == SIM_PERIODIC)
			stop = sim_min(stop, s->now + t->burst_left);
		if (t->kind == SIM_SLEEP_ONCE && !t->slept)
			stop = sim_min(stop, t->at_ns);

		delta = stop - s->now;
		sim_trace(s, t, s->now, stop);
		s->now = stop;
		t->cpu_ns += delta;
		smart_charge(&s->q, &t->se, s->now, delta, &s->p);

		if (t->kind == SIM_PERIODIC) {
			t->burst_left -= delta;
			if (!t->burst_left && t->period_ns)
				sim_job_done(s, t);
			else if (!t->burst_left && t->partner)
				sim_hand_over(s, t);
			else if (!t->burst_left)
				sim_block(s, t, t->sleep_ns);
		}
		sim_wake_due(s);
	}
}

size_t sim_run_at(const struct sim *s, u64 t)
{
	size_t i;

	for (i = 0; i < s->nr_runs; i++)
		if (s->runs[i].start >= t)
			return i;
	return s->nr_runs;
}

u64 sim_rng_state;

u64 sim_rnd(void)
{
	sim_rng_state ^= sim_rng_state >> 12;
	sim_rng_state ^= sim_rng_state << 25;
	sim_rng_state ^= sim_rng_state >> 27;
	return sim_rng_state * 0x2545F4914F6CDD1DULL;
}

u64 sim_rnd_in(u64 lo, u64 hi)
{
	return lo + sim_rnd() % (hi - lo + 1);
}
