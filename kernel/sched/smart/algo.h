/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SMART algorithm: the scheduling algorithm of Nieh & Lam, "The design,
 * implementation and evaluation of SMART: a scheduler for multimedia
 * applications" (SOSP '97), as plain data structures and integer time.
 *
 * Nothing here knows about task_struct, runqueue locks or clocks: the
 * class glue (class.c) feeds events in with the current time and asks
 * which entity to run.  What it needs from the kernel is in
 * algo_types.h, so that the same code can also be built and tested in
 * user space.
 *
 * Time is in ns.  Virtual time is in "virtual ns": CPU ns of a task with
 * the default share (SMART_SHARE_DEFAULT), so a task of share S that runs
 * for t ns advances its virtual time by t * 1024 / S (eq. 1).
 */
#ifndef __SMART_ALGO_H
#define __SMART_ALGO_H

#include "algo_types.h"

#define SMART_NR_PRIO		(SMART_PRIO_MAX - SMART_PRIO_MIN + 1)

/*
 * Inside the algorithm a share S is counted in units of 2^-SMART_SHARE_SHIFT
 * of a share (smart_core_share()), so that the part of a group's share a
 * task of a crowded group gets (group.c) is not rounded up to a whole
 * share: a group of weight 3 with 1000 tasks must stay at 3.
 *
 * Share to virtual time: x * 1024 / S is computed as
 * (x * inv) >> SMART_INV_SHIFT with inv = 2^62 / (S << SMART_SHARE_SHIFT),
 * which keeps full precision for totals up to 2^42 shares and needs no
 * division on the charging path.
 */
#define SMART_SHARE_SHIFT	10
#define SMART_INV_SHIFT		(52 - SMART_SHARE_SHIFT)
#define SMART_INV_NUM		BIT_ULL(62)

/* A share of the uapi (SMART_SHARE_MIN..MAX) in the algorithm's units. */
static inline u32 smart_core_share(u32 share)
{
	return share << SMART_SHARE_SHIFT;
}

/* Shares in the algorithm's units, rounded to the uapi's (for the views). */
static inline u64 smart_user_shares(u64 shares)
{
	return (shares + (1U << (SMART_SHARE_SHIFT - 1))) >> SMART_SHARE_SHIFT;
}

/* One entity's share, as smart_user_shares(). */
static inline u32 smart_user_share(u32 share)
{
	return smart_user_shares(share);
}

/**
 * struct smart_params - tunables the algorithm reads (sysctls in the kernel)
 * @quantum_ns:		Q of a conventional task
 * @bias_step_ns:	bias added per completed quantum, b of eq. (4)
 * @bias_max_ns:	bound on the accumulated bias
 * @sleep_credit_ns:	how long a sleeping task stays on its queue (§3.3)
 * @long_sleep_ns:	a task keeps that credit when it blocks again only if
 *			its last sleep and the CPU time it used since add up
 *			to this (smart_earns_credit()); 0: every sleep does,
 *			as in the paper
 */
struct smart_params {
	u64 quantum_ns;
	u64 bias_step_ns;
	u64 bias_max_ns;
	u64 sleep_credit_ns;
	u64 long_sleep_ns;
};

/**
 * struct smart_level - one priority's queue virtual time, eq. (2)
 * @vtime:	V_P (virtual ns)
 * @vfrac:	fraction of a virtual ns of @vtime, in units of 2^-SMART_INV_SHIFT
 * @shares:	sum of the shares of the entities on this level, sleeping or
 *		not, in units of 2^-SMART_SHARE_SHIFT
 * @inv_shares:	SMART_INV_NUM / @shares
 * @nr:		entities on this level
 */
struct smart_level {
	u64 vtime;
	u64 vfrac;
	u64 shares;
	u64 inv_shares;
	unsigned int nr;
};

/* F of a periodic constraint is a fixed-point fraction of a CPU. */
#define SMART_LOAD_SHIFT	20
#define SMART_LOAD_ONE		BIT_ULL(SMART_LOAD_SHIFT)

/*
 * Most entries a working schedule holds (bounds its sums, see algo.c),
 * and most real-time candidates a decision or a prediction looks at:
 * the walk under the rq lock is O(SMART_WS_MAX) whatever the number of
 * constrained tasks on the CPU.
 */
#define SMART_WS_MAX		64

/*
 * Most predicted next constraints of periodic tasks between two of their
 * constraints a decision or a prediction looks at (struct smart_future),
 * the earliest due first.  With SMART_WS_MAX entries and the constraint
 * being decided, the sums of eq. (9) then have fewer than 2^7 terms.
 */
#define SMART_FUTURE_MAX	(SMART_WS_MAX / 2)

/*
 * A real-time task's quantum enters its BVFT in chunks of at most this
 * much CPU time, whatever its estimate (a departure from eq. (3), see
 * smart_rt_quantum()).  Every estimate a media frame needs is below it.
 */
#define SMART_RT_QUANTUM_MAX_NS	(100ULL * 1000 * 1000)

/**
 * struct smart_ws - a working schedule (§3.4): entities in deadline order
 * @se:	the entities, earliest deadline first
 * @nr:	how many
 */
struct smart_ws {
	struct smart_entity *se[SMART_WS_MAX];
	unsigned int nr;
};

/**
 * struct smart_queue - one CPU's SMART queues
 * @tree:	runnable entities in decreasing value-tuple order
 * @sleepers:	sleeping entities still on the queue, by @sleep_expire
 * @future:	entities between two periodic constraints, by the deadline
 *		of the next one as predicted (struct smart_future)
 * @level:	per-priority queue virtual time, index prio - SMART_PRIO_MIN
 * @nr_runnable: entities in @tree
 * @nr_queued:	entities on the queue (runnable and sleeping)
 * @ws:		the working schedule of the last decision (smart_decide())
 * @rejected:	the candidates that decision could not place, in decreasing
 *		value order: the ones to notify.  The owner empties it.
 * @pick:	the last decision
 * @ws_stop:	the first conventional entity in @tree behind the
 *		candidates, NULL if none (valid while @ws_all)
 * @ws_new:	a candidate that joined since, still to be placed
 * @ws_all:	the last decision placed every candidate: @ws is the set of
 *		real-time entities ahead of @ws_stop, @ws_new aside
 * @ws_moved:	@ws_new was in @ws and only moved back in value order, with
 *		the same constraint
 * @stale:	@pick is out of date; @ws was kept up to date as @tree changed
 * @changed:	@ws and @pick must be rebuilt from scratch
 * @share_gen:	bumped by every change of a group's sum: a grouped entity
 *		whose smart_entity::share_gen differs has a share to
 *		recompute (smart_group_update())
 */
struct smart_queue {
	struct rb_root_cached tree;
	struct list_head sleepers;
	struct rb_root_cached future;
	struct smart_level level[SMART_NR_PRIO];
	unsigned int nr_runnable;
	unsigned int nr_queued;
	struct smart_ws ws;
	struct smart_ws rejected;
	struct smart_entity *pick;
	struct smart_entity *ws_stop;
	struct smart_entity *ws_new;
	bool ws_all;
	bool ws_moved;
	bool stale;
	bool changed;
	u64 share_gen;
};

/*
 * Group shares are computed in fixed point with this many fractional
 * bits, so that the ratios of a deep or crowded hierarchy multiply
 * without losing the entities' proportions; an entity's share is then
 * rounded to an integer.
 */
#define SMART_GROUP_SHIFT	16

/**
 * struct smart_group_level - a group's children at one priority
 * @sum:	the shares of its members (their @own_share) and the weights of
 *		its child groups that have an entity on the queue at it
 * @nr:		how many members and child groups that is
 */
struct smart_group_level {
	u64 sum;
	unsigned int nr;
};

/*
 * The most levels of groups below the root a queue models; deeper ones
 * share the division of their ancestor at this depth (group.c).  A
 * systemd user's application runs at depth 5 (user.slice/user-1000.slice/
 * user@1000.service/app.slice/app-x.scope), a container in it a few more.
 */
#define SMART_GROUP_DEPTH_MAX	8

struct task_group;

/**
 * struct smart_group - a task group on one CPU: an interior node of the
 *			SFQ-H tree (Goyal, Guo and Vin, OSDI '96)
 * @parent:	the enclosing group on the same CPU, NULL for a child of
 *		the root group
 * @weight:	its share among its siblings (from cpu.weight)
 * @nr:		entities on the queue in this group and below
 * @depth:	1 for a child of the root group, at most SMART_GROUP_DEPTH_MAX
 * @at:		per priority, index prio - SMART_PRIO_MIN
 * @tg:		the task group it is a node of (in the kernel only)
 * @refreshed:	jiffies when the tick last brought @weight up to date with
 *		where the group's tasks are (smart_tick_groups(), in the
 *		kernel only)
 * @bw_remaining: the group's cpu.max runtime this node holds (bandwidth.c,
 *		in the kernel only, like the two below)
 * @bw_throttled_at: rq clock when it was last throttled
 * @bw_throttled: out of runtime, its tasks parked until the period timer
 *		refills it
 *
 * Priorities are global and shares hierarchical within a priority: at
 * priority P a group's weight is divided among its members and child
 * groups that have an entity at P, in proportion to their shares and
 * weights, down to the leaves.  The hierarchy is flattened: an entity's
 * S is its part of the product of those ratios (smart_group_share()),
 * and the queue keeps one value-tuple order, so the decision of §3.2
 * and the working schedule of §3.4 are unchanged.
 */
struct smart_group {
	struct smart_group *parent;
	u32 weight;
	unsigned int nr;
	unsigned int depth;
	struct smart_group_level at[SMART_NR_PRIO];
	struct task_group *tg;
	unsigned long refreshed;
	s64 bw_remaining;
	u64 bw_throttled_at;
	bool bw_throttled;
};

void smart_group_init(struct smart_group *g, struct smart_group *parent,
		      u32 weight);
u32 smart_group_enter(struct smart_queue *q, struct smart_entity *se);
void smart_group_exit(struct smart_queue *q, struct smart_entity *se);
void smart_group_set_weight(struct smart_queue *q, struct smart_group *g,
			    u32 weight);
void smart_group_refresh(struct smart_queue *q, struct smart_entity *se);

/*
 * A grouped entity takes its new share if a group's sum changed since it
 * last did (group.c): when it is charged and when it wakes up.
 */
static inline void smart_group_update(struct smart_queue *q,
				      struct smart_entity *se)
{
	if (se->group && se->share_gen != q->share_gen)
		smart_group_refresh(q, se);
}

u32 smart_group_share(const struct smart_group *g, s32 prio, u32 own);
void smart_reshare(struct smart_queue *q, struct smart_entity *se, u32 share);

void smart_queue_init(struct smart_queue *q);
void smart_entity_init(struct smart_entity *se, s32 prio, u32 share);

void smart_join(struct smart_queue *q, struct smart_entity *se,
		enum smart_join how, const struct smart_params *p);
void smart_leave(struct smart_queue *q, struct smart_entity *se);
void smart_sleep(struct smart_queue *q, struct smart_entity *se, u64 now,
		 const struct smart_params *p);
void smart_sleep_no_credit(struct smart_queue *q, struct smart_entity *se,
			   u64 now, const struct smart_params *p);
void smart_sleep_short(struct smart_queue *q, struct smart_entity *se,
		       u64 now, const struct smart_params *p);
void smart_wake(struct smart_queue *q, struct smart_entity *se, u64 now,
		const struct smart_params *p);
void smart_expire_sleepers(struct smart_queue *q, u64 now,
			   const struct smart_params *p);

/* When the first sleeper's credit runs out (queue time); false if none. */
static inline bool smart_sleepers_expire(struct smart_queue *q, u64 *when)
{
	struct smart_entity *se;

	se = list_first_entry_or_null(&q->sleepers, struct smart_entity,
				      sleep_node);
	if (se)
		*when = se->sleep_expire;
	return se;
}

bool smart_charge(struct smart_queue *q, struct smart_entity *se, u64 now,
		  u64 delta, const struct smart_params *p);
void smart_yield(struct smart_queue *q, struct smart_entity *se,
		 const struct smart_params *p);
void smart_set_params(struct smart_entity *se, s32 prio, u32 share,
		      u64 now, const struct smart_params *p);

struct smart_entity *smart_pick(struct smart_queue *q);

u64 smart_tc_load(u64 estimate, u64 period);
u64 smart_tc_available(struct smart_queue *q, const struct smart_entity *se,
		       const struct smart_tc *tc, u64 now, struct smart_ws *ws,
		       const struct smart_params *p);
u64 smart_tc_demand(const struct smart_tc *tc, u64 t);
bool smart_ws_insert(struct smart_ws *ws, struct smart_entity *se, u64 now,
		     const struct smart_queue *q);
void smart_tc_begin(struct smart_queue *q, struct smart_entity *se,
		    const struct smart_tc *tc);
u64 smart_tc_end(struct smart_queue *q, struct smart_entity *se,
		 const struct smart_params *p);
struct smart_entity *smart_pick_tc(struct smart_queue *q, u64 now,
				   struct smart_ws *ws, struct smart_ws *rejected);
struct smart_entity *smart_decide(struct smart_queue *q, u64 now);
u64 smart_ws_slack(struct smart_queue *q, u64 now);
void smart_tc_set_used(struct smart_entity *se, u64 used);
bool smart_value_before(const struct smart_entity *a,
			const struct smart_entity *b);

/*
 * Releases in rhythm (infer.c) before a task that makes no SMART call is
 * taken as periodic: half a second of a 15 frames/s player.
 */
#define SMART_INFER_HITS	8

void smart_infer_reset(struct smart_infer *inf);
bool smart_infer_periodic(const struct smart_infer *inf);
bool smart_infer_wake(struct smart_infer *inf, u64 now, u64 runtime);
void smart_infer_tc(const struct smart_infer *inf, u64 now,
		    struct smart_tc *tc);

u64 smart_vtime(const struct smart_entity *se);
s64 smart_lag_ns(const struct smart_entity *se);

/**
 * smart_scale() - convert CPU time to virtual time of a share
 * @ns:		CPU time
 * @inv:	SMART_INV_NUM / share (share in the algorithm's units)
 *
 * Return: @ns * SMART_SHARE_DEFAULT / share, in virtual ns.
 */
static inline u64 smart_scale(u64 ns, u64 inv)
{
	return mul_u64_u64_shr(ns, inv, SMART_INV_SHIFT);
}

static inline struct smart_level *smart_level_of(struct smart_queue *q,
						 const struct smart_entity *se)
{
	return &q->level[se->prio - SMART_PRIO_MIN];
}

/**
 * smart_decided() - does the last decision stand, whatever the time?
 * @q:	the queue
 *
 * Return: true if smart_decide() would return @q->pick without looking
 * at its @now: nothing changed, and no predicted constraint may expire.
 */
static inline bool smart_decided(const struct smart_queue *q)
{
	return !q->changed && !q->stale && RB_EMPTY_ROOT(&q->future.rb_root);
}

/**
 * smart_is_rt() - is the entity a real-time task (§3.3)?
 * @se: the entity
 *
 * One with a time constraint whose estimate is not used up.  Once it
 * has had its estimate it competes as a conventional task (without
 * bias) until the constraint ends, so that an inaccurate estimate cannot
 * push other real-time tasks past their deadlines.
 *
 * Return: true if @se takes part in the working schedule.
 */
static inline bool smart_is_rt(const struct smart_entity *se)
{
	return se->tc.deadline && se->tc.used < se->tc.estimate;
}

/**
 * smart_decide_needs_clock() - does smart_decide() look at its @now?
 * @q:	the queue
 *
 * Return: false if the decision is step 1 or no task is runnable (the
 * most important task is conventional: no working schedule) and no
 * predicted constraint may expire; smart_decide() may then be given 0.
 */
static inline bool smart_decide_needs_clock(const struct smart_queue *q)
{
	struct rb_node *n = rb_first_cached(&q->tree);

	return !RB_EMPTY_ROOT(&q->future.rb_root) ||
	       (n && smart_is_rt(rb_entry(n, struct smart_entity, node)));
}

/* What is left of a constraint's estimate, Q - E (0 once overrun). */
static inline u64 smart_tc_left(const struct smart_tc *tc)
{
	return tc->used < tc->estimate ? tc->estimate - tc->used : 0;
}

/**
 * smart_rt_quantum() - the quantum of a real-time task, eq. (3) bounded
 * @left:	what is left of its estimate (ns)
 *
 * Eq. (3) makes the whole estimate the quantum, so the BVFT of a task
 * that begins a constraint sits estimate / S ahead of its virtual time:
 * with a 30 s estimate it waits until every peer has run 30 s more, and
 * once picked it keeps the CPU for 30 s.  Capping the quantum bounds
 * both: the value tuple advances in chunks of at most
 * SMART_RT_QUANTUM_MAX_NS, while the working schedule still uses the
 * whole of @left (smart_tc_left()).  Ordinary estimates are unchanged.
 *
 * Return: min(@left, SMART_RT_QUANTUM_MAX_NS).
 */
static inline u64 smart_rt_quantum(u64 left)
{
	return min_t(u64, left, SMART_RT_QUANTUM_MAX_NS);
}

/**
 * smart_credit_limit() - the most credit an entity may keep, §3.3
 * @se:	the entity
 * @p:	tunables
 *
 * Return: sleep_credit_ns of its own CPU time, in its virtual ns: the
 * most it may be behind V_P when it (re)joins or wakes.
 */
static inline s64 smart_credit_limit(const struct smart_entity *se,
				     const struct smart_params *p)
{
	return smart_scale(p->sleep_credit_ns, se->inv_share);
}

/**
 * smart_debt_kept_ns() - the debt an entity keeps across a sleep
 * @p:	tunables
 *
 * An entity ahead of V_P by more than this, in ns of its own CPU time,
 * pays the rest back when it wakes on the queue it left (smart_repay());
 * a child inherits its parent's debt up to this much (sched_smart_fork()).
 *
 * Return: half of bias_max_ns.
 */
static inline u64 smart_debt_kept_ns(const struct smart_params *p)
{
	return p->bias_max_ns / 2;
}

/**
 * smart_earns_credit() - does an entity that blocks keep its sleep credit?
 * @se:			the entity
 * @last_sleep_ns:	how long its previous sleep lasted (0 before the
 *			first)
 * @ran_ns:		the CPU time it used since it woke from that sleep
 * @p:			tunables
 *
 * The paper gives every sleep the credit (§3.3), which lets a task that
 * waits for I/O or for its next frame keep its place.  A task that blocks
 * and is woken again within a fraction of a quantum, over and over (a
 * thread passing messages), keeps its place anyway; its credit only keeps
 * its share in V_P, so that it is picked ahead of the task that runs as
 * soon as that one blocks, and each wake-up carries one message.  Such a
 * task sleeps without credit (smart_sleep_short()).  A task whose last
 * sleep and the run since add up to long_sleep_ns or more keeps it: one
 * that sleeps for long between its jobs, and one whose jobs are long even
 * if it sleeps little between them (a player running late), which wakes
 * at most once per long_sleep_ns of its own time.  So does one under a
 * time constraint.
 *
 * Return: true if the entity sleeps with the credit (smart_sleep()).
 */
static inline bool smart_earns_credit(const struct smart_entity *se,
				      u64 last_sleep_ns, u64 ran_ns,
				      const struct smart_params *p)
{
	return last_sleep_ns + ran_ns >= p->long_sleep_ns || se->tc.deadline;
}

/* The remaining part of the current quantum, in ns. */
static inline u64 smart_quantum_left(const struct smart_entity *se)
{
	return se->exec < se->quantum ? se->quantum - se->exec : 0;
}

#endif /* __SMART_ALGO_H */
