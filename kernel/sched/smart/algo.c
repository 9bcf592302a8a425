// SPDX-License-Identifier: GPL-2.0
/*
 * SMART algorithm: value tuples and biased virtual finishing times.
 *
 * Importance of a task is its value tuple (priority, BVFT): a higher
 * priority always wins; within a priority the earlier biased virtual
 * finishing time wins (paper §3.2).  Each priority P has a queue virtual
 * time V_P that advances while one of its members runs, at the rate
 * 1 / (sum of the shares of the members), eq. (2).  A task's virtual
 * time v advances at 1 / S while it runs, eq. (1); its BVFT is the
 * virtual time it would reach at the end of its quantum, plus its bias:
 *
 *	beta = v + (Q - E) / S + B / S				eq. (6)
 *
 * The events that move beta:
 *
 *	join (creation, priority change)  beta = V_P + Q / S	eq. (3)
 *	quantum completed		  beta += Q / S + b / S	eq. (4)
 *	leave (sleep credit expired)	  delta = v - V_P	eq. (5)
 *	rejoin (wake-up after leaving)	  beta = V_P + delta + Q / S, B = 0  eq. (7)
 *
 * A sleeping task stays on its queue, its share still slowing V_P, for
 * at most sleep_credit_ns; then it leaves and keeps only delta.  A task
 * that wakes is never more than sleep_credit_ns of CPU behind its share.
 *
 * All divisions by a share use a precomputed inverse (smart_scale()).
 * Comparisons of virtual times are wraparound safe: (s64)(a - b) < 0.
 *
 * See Documentation/scheduler/sched-smart.rst.
 */
#include "algo.h"

/* SMART_INV_NUM / @shares, 0 for an empty level */
static inline u64 smart_inv(u64 shares)
{
	return shares ? div64_u64(SMART_INV_NUM, shares) : 0;
}

void smart_queue_init(struct smart_queue *q)
{
	int i;

	q->tree = RB_ROOT_CACHED;
	INIT_LIST_HEAD(&q->sleepers);
	q->future = RB_ROOT_CACHED;
	for (i = 0; i < SMART_NR_PRIO; i++)
		q->level[i] = (struct smart_level){ };
	q->nr_runnable = 0;
	q->nr_queued = 0;
	q->ws.nr = 0;
	q->rejected.nr = 0;
	q->pick = NULL;
	q->ws_stop = NULL;
	q->ws_new = NULL;
	q->ws_all = false;
	q->ws_moved = false;
	q->stale = false;
	q->changed = true;
	q->share_gen = 0;
}

void smart_entity_init(struct smart_entity *se, s32 prio, u32 share)
{
	RB_CLEAR_NODE(&se->node);
	INIT_LIST_HEAD(&se->sleep_node);
	se->queue = NULL;
	se->bvft = 0;
	se->bfrac = 0;
	se->quantum = 0;
	se->exec = 0;
	se->bias = 0;
	se->delta = 0;
	se->sleep_expire = 0;
	se->left_q = NULL;
	se->left_vtime = 0;
	se->prio = prio;
	se->share = smart_core_share(share);
	se->own_share = share;
	se->inv_share = smart_inv(se->share);
	se->state = SMART_SE_OFF;
	se->kthread_prio = false;
	se->tc = (struct smart_tc){ };
	RB_CLEAR_NODE(&se->future.node);
	se->future.tc = (struct smart_tc){ };
	se->group = NULL;
	se->share_gen = 0;
}

/**
 * smart_value_before() - does @a have a higher value tuple than @b?
 * @a: an entity
 * @b: an entity
 *
 * Higher priority first; within a priority the earlier BVFT (§3.2).
 *
 * Return: true if @a is more important than @b.
 */
bool smart_value_before(const struct smart_entity *a,
			const struct smart_entity *b)
{
	s64 d;

	if (a->prio != b->prio)
		return a->prio > b->prio;
	d = (s64)(a->bvft - b->bvft);
	/* Among real-time tasks the deadline breaks a tie (§3.6). */
	if (!d && a->tc.deadline && b->tc.deadline)
		return (s64)(a->tc.deadline - b->tc.deadline) < 0;
	return d < 0;
}

static bool smart_node_less(struct rb_node *a, const struct rb_node *b)
{
	return smart_value_before(rb_entry(a, struct smart_entity, node),
				  rb_entry(b, struct smart_entity, node));
}

/*
 * The working schedule is kept between decisions (§3.5: "a new working
 * schedule can be incrementally built from the existing working schedule
 * as new tasks arrive ... When only deletions are made, the existing
 * working schedule can simply be used").  While the last decision placed
 * every candidate (@q->ws_all), the schedule is the set of candidates,
 * and as the tree changes:
 *
 * - a candidate that leaves the tree leaves the schedule: a subset of a
 *   feasible schedule is feasible, and every insertion that succeeded
 *   had no more to fit than before (O(1) for the head);
 * - one that joins it, ahead of @q->ws_stop, is placed by the next
 *   decision (smart_ws_place());
 * - anything else that could change the candidates or the load they are
 *   checked against (the first conventional task moves, a conventional
 *   task overtakes the candidates, a task with a predicted next
 *   constraint moves, a second candidate joins) makes the next decision
 *   rebuild the schedule from scratch.
 *
 * Changes behind @q->ws_stop play no part in the decision.  Once the
 * last decision could not place every candidate, any change rebuilds.
 *
 * smart_ws_follows(): can the schedule follow a change of @se in the
 * tree?  If not, the next decision rebuilds it.
 */
static bool smart_ws_follows(struct smart_queue *q,
			     const struct smart_entity *se)
{
	if (q->changed)
		return false;
	if (!q->ws_all || se->future.tc.deadline) {
		q->changed = true;
		return false;
	}
	return true;
}

/* @se leaves the tree.  Return: true if it left the working schedule. */
static bool smart_ws_forget(struct smart_queue *q, struct smart_entity *se)
{
	unsigned int i;

	if (!smart_ws_follows(q, se))
		return false;
	if (se == q->ws_stop) {
		q->changed = true;
		return false;
	}
	if (se == q->ws_new) {
		q->ws_new = NULL;
		return false;
	}
	for (i = 0; i < q->ws.nr; i++) {
		if (q->ws.se[i] == se) {
			q->ws.nr--;
			memmove(&q->ws.se[i], &q->ws.se[i + 1],
				(q->ws.nr - i) * sizeof(q->ws.se[0]));
			q->stale = true;
			return true;
		}
	}
	return false;
}

/* @se joins the tree. */
static void smart_ws_consider(struct smart_queue *q, struct smart_entity *se)
{
	if (!smart_ws_follows(q, se))
		return;
	if (q->ws_stop && !smart_value_before(se, q->ws_stop))
		return;
	if (!smart_is_rt(se) || q->ws_new) {
		q->changed = true;
		return;
	}
	q->ws_new = se;
	q->ws_moved = false;
	q->stale = true;
}

static void smart_tree_add(struct smart_queue *q, struct smart_entity *se)
{
	rb_add_cached(&se->node, &q->tree, smart_node_less);
	q->nr_runnable++;
	smart_ws_consider(q, se);
}

/* Return: true if @se also left the working schedule. */
static bool smart_tree_del(struct smart_queue *q, struct smart_entity *se)
{
	bool in_ws = smart_ws_forget(q, se);

	rb_erase_cached(&se->node, &q->tree);
	RB_CLEAR_NODE(&se->node);
	q->nr_runnable--;
	return in_ws;
}

/*
 * A new quantum: Q, or for a real-time task what is left of its estimate,
 * in chunks of at most SMART_RT_QUANTUM_MAX_NS.
 */
static u64 smart_fresh_quantum(const struct smart_entity *se,
			       const struct smart_params *p)
{
	return smart_is_rt(se) ? smart_rt_quantum(smart_tc_left(&se->tc)) :
				 p->quantum_ns;
}

/**
 * smart_vtime() - the virtual time v of an entity, eq. (6)
 * @se: the entity
 *
 * v = beta - (Q - E) / S - B / S.  Written so that E > Q (a quantum
 * overrun not yet accounted) stays exact.
 *
 * Return: v in virtual ns.
 */
u64 smart_vtime(const struct smart_entity *se)
{
	return se->bvft - smart_scale(se->quantum + se->bias, se->inv_share) +
	       smart_scale(se->exec, se->inv_share);
}

/* beta from v, the inverse of eq. (6) */
static void smart_set_bvft(struct smart_entity *se, u64 vtime)
{
	se->bvft = vtime + smart_scale(se->quantum + se->bias, se->inv_share) -
		   smart_scale(se->exec, se->inv_share);
	se->bfrac = 0;
}

/*
 * @lag * @from / @to, sign kept: a lag in virtual ns of share @from as
 * virtual ns of share @to, the same CPU time ahead or behind (as EEVDF's
 * reweight_entity() keeps vlag * w).  Bounded before the division, so
 * that the quotient fits (a divide error otherwise) and a share cut a
 * million-fold cannot overflow it: the lag kept is at most 2^41 ns (36
 * minutes) of CPU time, far more than the sleep credit lets a task keep.
 */
static s64 smart_lag_rescale(s64 lag, u32 from, u32 to)
{
	u64 m = lag < 0 ? -(u64)lag : lag;

	m = min_t(u64, m, (1ULL << 61) / max_t(u32, from, 1));
	m = mul_u64_u64_div_u64(m, from, max_t(u32, to, 1));
	return lag < 0 ? -(s64)m : (s64)m;
}

/**
 * smart_lag_ns() - how far an entity is behind its proportional share
 * @se: the entity
 *
 * Return: (V_P - v) * S / SMART_SHARE_DEFAULT, i.e. CPU ns the entity is
 * behind (positive) or ahead (negative) of its share.
 */
s64 smart_lag_ns(const struct smart_entity *se)
{
	s64 lag;

	if (se->queue)
		lag = (s64)(smart_level_of(se->queue, se)->vtime - smart_vtime(se));
	else
		lag = -se->delta;
	return smart_lag_rescale(lag, se->share,
				 smart_core_share(SMART_SHARE_DEFAULT));
}

#define SMART_FRAC_MASK		((1ULL << SMART_INV_SHIFT) - 1)

/*
 * *@v += @ns / S for @inv = SMART_INV_NUM / S, the fraction below a
 * virtual ns carried in *@frac: a million 1 ms charges add up to exactly
 * what one charge of 1000 s would.  The low bits of the 128-bit product
 * are those of the 64-bit one.
 */
static void smart_vadd(u64 *v, u64 *frac, u64 ns, u64 inv)
{
	u64 f = *frac + ((ns * inv) & SMART_FRAC_MASK);

	*v += smart_scale(ns, inv) + (f >> SMART_INV_SHIFT);
	*frac = f & SMART_FRAC_MASK;
}

/* *@v -= @ns / S, exactly as smart_vadd() adds it. */
static void smart_vsub(u64 *v, u64 *frac, u64 ns, u64 inv)
{
	u64 lo = (ns * inv) & SMART_FRAC_MASK;

	*v -= smart_scale(ns, inv);
	if (*frac < lo) {
		*frac += 1ULL << SMART_INV_SHIFT;
		(*v)--;
	}
	*frac -= lo;
}

/* V_P += ns / sum(S), eq. (2). */
static void smart_level_advance(struct smart_level *l, u64 ns)
{
	smart_vadd(&l->vtime, &l->vfrac, ns, l->inv_shares);
}

static void smart_level_add(struct smart_level *l, u32 share)
{
	l->shares += share;
	l->inv_shares = smart_inv(l->shares);
	l->nr++;
}

static void smart_level_sub(struct smart_level *l, u32 share)
{
	l->shares -= share;
	l->inv_shares = smart_inv(l->shares);
	l->nr--;
}

static inline u64 smart_future_deadline(const struct rb_node *n)
{
	return rb_entry(n, struct smart_entity, future.node)->future.tc.deadline;
}

static bool smart_future_less(struct rb_node *a, const struct rb_node *b)
{
	return (s64)(smart_future_deadline(a) - smart_future_deadline(b)) < 0;
}

/*
 * The next constraint of a periodic task between two of them waits on
 * its queue's tree in deadline order (after those due at the same time),
 * O(log n) however many other periodic tasks sleep on the queue.
 */
static void smart_future_add(struct smart_queue *q, struct smart_entity *se)
{
	q->changed = true;
	rb_add_cached(&se->future.node, &q->future, smart_future_less);
}

/* The entity's next constraint leaves its queue's tree (if it is on one). */
static void smart_future_unlink(struct smart_entity *se)
{
	if (RB_EMPTY_NODE(&se->future.node))
		return;
	rb_erase_cached(&se->future.node, &se->queue->future);
	RB_CLEAR_NODE(&se->future.node);
	se->queue->changed = true;
}

/* The entity has nothing more to count: it began, or stopped, its period. */
static void smart_future_drop(struct smart_entity *se)
{
	smart_future_unlink(se);
	se->future.tc = (struct smart_tc){ };
}

/*
 * An entity off its queue takes the share it will have on it, keeping
 * its lag in CPU time.
 */
static void smart_set_share(struct smart_entity *se, u32 share)
{
	if (share == se->share)
		return;
	se->delta = smart_lag_rescale(se->delta, se->share, share);
	se->share = share;
	se->inv_share = smart_inv(share);
}

/**
 * smart_reshare() - change the share S of an entity on its queue
 * @q:		its queue
 * @se:		a runnable or sleeping entity on @q
 * @share:	its new S
 *
 * Its group's division changed (struct smart_group).  The entity keeps
 * its lag in CPU time and its quantum progress, and a smaller share
 * does not stretch its bias; its BVFT follows from eq. (6) with the new
 * share, and the level's sum of shares takes the difference.
 */
void smart_reshare(struct smart_queue *q, struct smart_entity *se, u32 share)
{
	struct smart_level *l = smart_level_of(q, se);
	bool runnable = se->state == SMART_SE_RUNNABLE;
	s64 lag;

	if (share == se->share)
		return;
	lag = smart_lag_rescale((s64)(smart_vtime(se) - l->vtime), se->share,
				share);
	if (runnable)
		smart_tree_del(q, se);
	l->shares = l->shares - se->share + share;
	l->inv_shares = smart_inv(l->shares);
	/*
	 * A smaller share would stretch the bias, B / S of its BVFT, in the
	 * same proportion: a batch task of a group that three more join
	 * would drop back by 3 * B / S at once.  It keeps its deferral in
	 * virtual time instead and its bias grows again by eq. (4).
	 */
	if (share < se->share)
		se->bias = mul_u64_u64_div_u64(se->bias, share, se->share);
	se->share = share;
	se->inv_share = smart_inv(share);
	smart_set_bvft(se, l->vtime + lag);
	if (runnable)
		smart_tree_add(q, se);
	q->changed = true;
}

/**
 * smart_join() - put an entity on a queue and make it runnable
 * @q:		the queue
 * @se:		an entity on no queue
 * @how:	SMART_JOIN_NEW: eq. (3), v = V_P, fresh quantum, no bias (or
 *		later by a debt @se->delta > 0 inherited at fork);
 *		SMART_JOIN_WAKE: eq. (7), v = V_P + delta, fresh quantum, no bias;
 *		SMART_JOIN_MOVE: v = V_P + delta, quantum progress and bias kept
 *		(migration, and the save/restore of attribute changes)
 * @p:		tunables
 */
void smart_join(struct smart_queue *q, struct smart_entity *se,
		enum smart_join how, const struct smart_params *p)
{
	struct smart_level *l = smart_level_of(q, se);

	smart_set_share(se, se->group ? smart_group_enter(q, se) :
					 smart_core_share(se->own_share));
	if (how == SMART_JOIN_NEW)
		se->delta = max_t(s64, se->delta, 0);
	/*
	 * A rejoining entity keeps at most sleep_credit_ns of credit; so does
	 * one whose quantum an attribute change ended (smart_set_params()).
	 */
	if (how == SMART_JOIN_WAKE || !se->quantum)
		se->delta = max_t(s64, se->delta, -smart_credit_limit(se, p));
	if (how != SMART_JOIN_MOVE || !se->quantum) {
		se->quantum = smart_fresh_quantum(se, p);
		se->exec = 0;
		se->bias = 0;
	}
	smart_set_bvft(se, l->vtime + se->delta);
	se->left_q = NULL;
	smart_level_add(l, se->share);
	se->queue = q;
	se->state = SMART_SE_RUNNABLE;
	q->nr_queued++;
	smart_tree_add(q, se);
	if (se->future.tc.deadline)
		smart_future_add(q, se);
}

/**
 * smart_leave() - take an entity off its queue, recording its lag
 * @q:	the queue the entity is on
 * @se:	a runnable or sleeping entity
 *
 * delta = v - V_P, eq. (5), restored by the next smart_join().
 */
void smart_leave(struct smart_queue *q, struct smart_entity *se)
{
	struct smart_level *l = smart_level_of(q, se);

	se->delta = (s64)(smart_vtime(se) - l->vtime);
	if (se->state == SMART_SE_RUNNABLE)
		smart_tree_del(q, se);
	else
		list_del_init(&se->sleep_node);
	smart_level_sub(l, se->share);
	smart_future_unlink(se);
	se->queue = NULL;
	se->state = SMART_SE_OFF;
	q->nr_queued--;
	if (se->group)
		smart_group_exit(q, se);
	/*
	 * Off its queue an entity has its own share; smart_join() gives it
	 * its part of its group's on the next.
	 */
	smart_set_share(se, smart_core_share(se->own_share));
}

static void smart_forfeit_leave(struct smart_queue *q, struct smart_entity *se,
				const struct smart_params *p);

/**
 * smart_sleep() - a runnable entity blocks
 * @q:		its queue
 * @se:		the entity
 * @now:	current time
 * @p:		tunables
 *
 * The entity stays on the queue, its share still counted in V_P, for
 * sleep_credit_ns (§3.3 "Blocking for I/O or events"), then leaves.
 */
void smart_sleep(struct smart_queue *q, struct smart_entity *se, u64 now,
		 const struct smart_params *p)
{
	struct smart_entity *pos;

	if (!p->sleep_credit_ns) {
		smart_forfeit_leave(q, se, p);
		return;
	}
	smart_tree_del(q, se);
	se->state = SMART_SE_SLEEPING;
	se->sleep_expire = now + p->sleep_credit_ns;

	/* Keep @sleepers sorted by expiry; new sleepers mostly go last. */
	list_for_each_entry_reverse(pos, &q->sleepers, sleep_node) {
		if ((s64)(pos->sleep_expire - se->sleep_expire) <= 0) {
			list_add(&se->sleep_node, &pos->sleep_node);
			return;
		}
	}
	list_add(&se->sleep_node, &q->sleepers);
}

/**
 * smart_sleep_no_credit() - a runnable entity blocks without sleep credit
 * @q:		its queue
 * @se:		the entity
 * @now:	current time
 * @p:		tunables
 *
 * It leaves its queue at once, as with sleep_credit_ns 0 (a departure
 * from §3.3), when it handed its work to a task it woke, or when it does
 * not earn the credit (smart_earns_credit()).  The time a task that
 * handed its work over waits is the other task's to run, not CPU it left
 * to the rest of the queue; had its share stayed in V_P, two tasks that
 * wake each other in turn would take two shares although only one of
 * them can run at a time.
 *
 * It keeps its lag, bounded as a credit is.
 *
 * A periodic task between two of its constraints (struct smart_future)
 * sleeps as any other (smart_sleep()): a player that hands its frame to
 * another thread and sleeps until the next keeps the credit that lets it
 * run ahead of a hog, and its next frame stays counted in the
 * predictions of the others, which only entities on the queue are.
 */
void smart_sleep_no_credit(struct smart_queue *q, struct smart_entity *se,
			   u64 now, const struct smart_params *p)
{
	if (se->future.tc.deadline) {
		smart_sleep(q, se, now, p);
		return;
	}
	smart_forfeit_leave(q, se, p);
}

/**
 * smart_sleep_short() - a runnable entity blocks after a short sleep
 * @q:		its queue
 * @se:		the entity
 * @now:	current time
 * @p:		tunables
 *
 * It did not earn the sleep credit (smart_earns_credit()): it sleeps as
 * smart_sleep_no_credit() has it, and if it wakes on this queue, the
 * service the others had meanwhile pays back its debt (smart_repay()).
 */
void smart_sleep_short(struct smart_queue *q, struct smart_entity *se,
		       u64 now, const struct smart_params *p)
{
	smart_sleep_no_credit(q, se, now, p);
	if (se->queue)
		return;
	se->left_q = q;
	se->left_vtime = smart_level_of(q, se)->vtime;
}

/*
 * The credit a waking entity keeps is bounded: it may be behind V_P by
 * at most sleep_credit_ns of its own CPU time.  Without the bound a task
 * that sleeps briefly but often never leaves the queue and its lag grows
 * without limit; once it turns into a hog it would lock everyone out for
 * as long.  Moving v forward by x also moves V_P by x * S / sum(S), so
 * that sum(S_i * (v_i - V_P)) over the queue stays what it was and the
 * other entities keep their virtual times.  The lag then shrinks by
 * x * (sum(S) - S) / sum(S), so to shed an excess e, x = e * sum(S) /
 * (sum(S) - S); an entity alone on its level just moves v.
 */
static void smart_bound_credit(struct smart_level *l, struct smart_entity *se,
			       const struct smart_params *p)
{
	s64 limit = smart_credit_limit(se, p);
	s64 lag = (s64)(l->vtime - smart_vtime(se));
	u64 x;

	if (lag <= limit)
		return;
	x = lag - limit;
	if (l->shares > se->share) {
		x = mul_u64_u64_div_u64(x, l->shares, l->shares - se->share);
		l->vtime += mul_u64_u64_div_u64(x, se->share, l->shares);
	}
	se->bvft += x;
}

/*
 * A sleeper leaves its queue (its credit ran out, or it had none): it
 * first forfeits what it would lose when it rejoins by eq. (7), and the
 * queue gets it back (smart_bound_credit()).  Taken away whole,
 * the lag the queue's other entities made up for stayed with them: the
 * sleeper's share slows V_P (eq. (2)), so a hog alone on its CPU beside a
 * task that sleeps there now and then ran ahead of V_P a little more at
 * each of its wake-ups, without bound (5 s after 20 s beside a task that
 * runs 0.1 ms every 200 ms), and whatever joined then (a new task, a
 * sleeper past its credit, the hog itself moved to a busy CPU) ran before
 * it for as long.
 */
static void smart_forfeit_leave(struct smart_queue *q, struct smart_entity *se,
				const struct smart_params *p)
{
	smart_bound_credit(smart_level_of(q, se), se, p);
	smart_leave(q, se);
}

/*
 * An entity that left its queue asleep without credit has joined it
 * again: the others' service while it slept pays back its debt (v ahead
 * of V_P) beyond half of bias_max_ns of its own CPU time, as in SFQ,
 * whose start tag is max(V, F): v goes back by at most as much as V_P
 * moved meanwhile, so that it gains no more on the others than they ran
 * while it slept.  It earns no credit: a lag behind V_P stays, and so
 * does a smaller debt, which keeps it behind the tasks that waited while
 * it ran (threads passing messages then find several waiting), yet ahead
 * of batch tasks with their whole bias.  Without the payment a task that
 * ran 1 ms and slept 9 ms beside three hogs (when the sleep alone earned
 * the credit) ran up 0.75 ms of debt per period and after a second
 * waited behind the hogs' bias.  Moving v back
 * by y moves V_P back by y * S / sum(S), so that sum(S_i * (v_i - V_P))
 * stays what it was (smart_bound_credit() in reverse); the debt then
 * shrinks by y * (sum(S) - S) / sum(S).  Called only on the queue it
 * left: on another its lag stays.
 */
static void smart_repay(struct smart_queue *q, struct smart_entity *se,
			const struct smart_params *p)
{
	struct smart_level *l = smart_level_of(q, se);
	s64 debt = (s64)(smart_vtime(se) - l->vtime) -
		   (s64)smart_scale(smart_debt_kept_ns(p), se->inv_share);
	s64 moved = (s64)(l->vtime - se->left_vtime);
	u64 others = l->shares - se->share;
	u64 y;

	if (debt <= 0 || moved <= 0)
		return;
	if (others) {
		y = min_t(u64, moved,
			  mul_u64_u64_div_u64(debt, l->shares, others));
		l->vtime -= mul_u64_u64_div_u64(y, se->share, l->shares);
	} else {
		y = min(debt, moved);
	}
	smart_tree_del(q, se);
	smart_set_bvft(se, smart_vtime(se) - y);
	smart_tree_add(q, se);
}

/**
 * smart_wake() - a blocked entity becomes runnable on @q
 * @q:		the queue it wakes on
 * @se:		the entity, sleeping on @q or on no queue
 * @now:	current time
 * @p:		tunables
 *
 * A wake-up from a voluntary sleep resets the bias (the paper resets it
 * on user interaction).  An entity that had left rejoins by eq. (7).
 */
void smart_wake(struct smart_queue *q, struct smart_entity *se, u64 now,
		const struct smart_params *p)
{
	smart_expire_sleepers(q, now, p);
	if (se->state != SMART_SE_SLEEPING) {
		bool back = se->left_q == q;

		smart_join(q, se, SMART_JOIN_WAKE, p);
		if (back)
			smart_repay(q, se, p);
		return;
	}
	list_del_init(&se->sleep_node);
	smart_vsub(&se->bvft, &se->bfrac, se->bias, se->inv_share);
	se->bias = 0;
	smart_group_update(q, se);
	smart_bound_credit(smart_level_of(q, se), se, p);
	se->state = SMART_SE_RUNNABLE;
	smart_tree_add(q, se);
}

static struct smart_entity *smart_first_sleeper(struct smart_queue *q)
{
	return list_first_entry_or_null(&q->sleepers, struct smart_entity,
					sleep_node);
}

/**
 * smart_expire_sleepers() - sleepers whose credit ran out leave the queue
 * @q:		the queue
 * @now:	current time
 * @p:		tunables
 */
void smart_expire_sleepers(struct smart_queue *q, u64 now,
			   const struct smart_params *p)
{
	struct smart_entity *se;

	while ((se = smart_first_sleeper(q)) &&
	       (s64)(se->sleep_expire - now) <= 0)
		smart_forfeit_leave(q, se, p);
}

/* A quantum completed: eq. (4), as often as E covers Q. */
static void smart_next_quantum(struct smart_queue *q, struct smart_entity *se,
			       const struct smart_params *p)
{
	/* In the schedule before, with the same constraint, moving back. */
	bool was_ws = smart_tree_del(q, se);

	while (se->exec >= se->quantum) {
		u64 b = 0;

		/* Real-time tasks have no bias (§3.3). */
		if (se->bias < p->bias_max_ns && !se->tc.deadline)
			b = min(p->bias_step_ns, p->bias_max_ns - se->bias);
		se->exec -= se->quantum;
		se->quantum = smart_fresh_quantum(se, p);
		se->bias += b;
		/* Eq. (4), the fraction of a virtual ns kept as V_P keeps it. */
		smart_vadd(&se->bvft, &se->bfrac, se->quantum + b, se->inv_share);
	}
	smart_tree_add(q, se);
	if (was_ws && q->ws_new == se)
		q->ws_moved = true;
}

/**
 * smart_charge() - account CPU time to the running entity
 * @q:		its queue
 * @se:		the entity that ran
 * @now:	end of the interval it ran
 * @delta:	length of the interval (ns)
 * @p:		tunables
 *
 * Advances V_P by delta / sum(S), eq. (2), splitting the interval where
 * a sleeper's credit expires so that each part uses the right sum of
 * shares.  The entity's own v advances through E, eq. (1).
 *
 * Return: true if the entity completed its quantum (its BVFT moved).
 */
bool smart_charge(struct smart_queue *q, struct smart_entity *se, u64 now,
		  u64 delta, const struct smart_params *p)
{
	struct smart_level *l = smart_level_of(q, se);
	u64 start = now - delta;
	struct smart_entity *s;

	while ((s = smart_first_sleeper(q)) &&
	       (s64)(s->sleep_expire - now) <= 0) {
		if ((s64)(s->sleep_expire - start) > 0) {
			smart_level_advance(l, s->sleep_expire - start);
			start = s->sleep_expire;
		}
		smart_forfeit_leave(q, s, p);
	}
	smart_level_advance(l, now - start);

	/*
	 * Time the head of the working schedule did not get: slack shrank.
	 * A task with a predicted next constraint that runs moves the value
	 * that constraint will have (smart_future_before()).
	 */
	if ((q->ws.nr && q->ws.se[0] != se) || se->future.tc.deadline)
		q->changed = true;
	se->exec += delta;
	if (se->tc.deadline)
		smart_tc_set_used(se, se->tc.used + delta);
	else if (se->future.tc.deadline &&
		 (s64)(now - se->future.tc.deadline) >= 0)
		smart_future_drop(se);
	/* What it ran was charged at the share it had; now its new one. */
	smart_group_update(q, se);
	if (se->exec < se->quantum)
		return false;
	smart_next_quantum(q, se, p);
	return true;
}

/**
 * smart_yield() - the running entity gives up the rest of its quantum
 * @q:	its queue
 * @se:	the entity
 * @p:	tunables
 *
 * It is charged as if it had used the whole quantum (its v moves to the
 * end of the quantum, eq. (4) gives the next BVFT); the queue virtual
 * time does not move, since no CPU time was used.
 */
void smart_yield(struct smart_queue *q, struct smart_entity *se,
		 const struct smart_params *p)
{
	if (se->exec < se->quantum)
		se->exec = se->quantum;
	smart_next_quantum(q, se, p);
}

/**
 * smart_set_params() - change an entity's priority and share
 * @se:		the entity
 * @prio:	new priority
 * @share:	new share
 * @now:	current time
 * @p:		tunables
 *
 * A new priority joins the new level by eq. (3); a new share leaves with
 * the old share (eq. (6) gives delta) and rejoins with the new one by
 * eq. (7) (§3.3 "Reassigned user parameters").  A sleeping entity
 * leaves its queue and will rejoin when it wakes.  An entity on no queue
 * (taken off for the change by the scheduler core, as nice(2) does) has
 * its quantum ended, so that whichever way it joins next it rejoins by
 * eq. (7) too: fresh quantum, no bias, bounded credit.
 */
void smart_set_params(struct smart_entity *se, s32 prio, u32 share,
		      u64 now, const struct smart_params *p)
{
	struct smart_queue *q = se->queue;
	bool runnable = se->state == SMART_SE_RUNNABLE;

	if (prio == se->prio && share == se->own_share)
		return;
	if (q) {
		smart_expire_sleepers(q, now, p);
		if (se->queue)
			smart_leave(q, se);
	}
	if (prio != se->prio)
		se->delta = 0;
	if (!q)
		se->quantum = 0;
	/* A debt it may have paid back is in another level's, or share's. */
	se->left_q = NULL;
	se->prio = prio;
	se->own_share = share;
	/* Off its queue now; in a group smart_join() gives it its part. */
	se->share = smart_core_share(share);
	se->inv_share = smart_inv(se->share);
	if (q && runnable)
		smart_join(q, se, SMART_JOIN_WAKE, p);
}

/**
 * smart_pick() - the runnable entity with the highest value tuple
 * @q: the queue
 *
 * Return: the entity, or NULL if none is runnable.
 */
struct smart_entity *smart_pick(struct smart_queue *q)
{
	struct rb_node *n = rb_first_cached(&q->tree);

	return n ? rb_entry(n, struct smart_entity, node) : NULL;
}

/**
 * smart_tc_load() - F of a periodic constraint, eq. (8)
 * @estimate:	CPU time per period (ns)
 * @period:	the period (ns), 0 for an aperiodic constraint
 *
 * Return: @estimate / @period in units of 2^-SMART_LOAD_SHIFT of a CPU
 * (at most SMART_LOAD_ONE), 0 if @period is 0.
 */
u64 smart_tc_load(u64 estimate, u64 period)
{
	if (!period)
		return 0;
	return min_t(u64, mul_u64_u64_div_u64(estimate, SMART_LOAD_ONE, period),
		     SMART_LOAD_ONE);
}

static inline u64 smart_sub0(u64 a, u64 b)
{
	return a > b ? a - b : 0;
}

static inline u64 smart_add_sat(u64 a, u64 b)
{
	return a + b < a ? U64_MAX : a + b;
}

/*
 * Times to a deadline enter the sums of eq. (9) clamped to this horizon
 * (about 68.7 s, beyond SMART_CONSTRAINT_MAX_AHEAD_NS).  With F <= 1
 * (2^20) and at most SMART_WS_MAX + 1 (< 2^7) entries, r * sum(F) and
 * sum(F * r) then stay below 2^63 whatever the inputs, and what is left
 * of the estimates is added with saturation: no input, not even one the
 * syscalls refuse, can make a sum wrap and a schedule look feasible.
 * The syscalls refuse deadlines more than 60 s ahead, so the clamp never
 * changes a decision about a constraint user space can begin.
 */
#define SMART_TC_HORIZON_NS	BIT_ULL(36)

/* r = D - t for a deadline after @now, clamped to the horizon */
static inline u64 smart_tc_ahead(const struct smart_tc *tc, u64 now)
{
	return min_t(u64, tc->deadline - now, SMART_TC_HORIZON_NS);
}

/*
 * Eq. (9) is checked at the deadlines of a schedule in order, with running
 * sums: with r_i = D_i - t, sum F_j (D_i - D_j) = r_i * sum F_j -
 * sum F_j r_j.  Times are clamped to the horizon, so every sum stays below
 * 2^63 (SMART_TC_HORIZON_NS); what is left of the estimates saturates.
 */
struct smart_sums {
	u64 left;
	u64 load;
	u64 load_at;
};

/* Constraint @c, due at t + @r, joins the sums. */
static inline void smart_sums_add(struct smart_sums *s,
				  const struct smart_tc *c, u64 r)
{
	s->left = smart_add_sat(s->left, smart_tc_left(c));
	s->load += c->load;
	s->load_at += c->load * r;
}

/* sum R_j(t + @r) over the constraints added, all due by t + @r */
static inline u64 smart_sums_need(const struct smart_sums *s, u64 r)
{
	return smart_add_sat(s->left, (r * s->load - s->load_at) >> SMART_LOAD_SHIFT);
}

/*
 * A periodic task between two constraints will ask again: its next
 * constraint, as its last one predicts it (struct smart_future), joins
 * the sums like an entry of the schedule, R(x) = Q + F (x - D) at every
 * deadline x after its own D (eq. (8)).  Only the next constraints of
 * tasks more important than @me count, as only more important
 * constraints keep their place (§3.4); the first SMART_FUTURE_MAX are
 * looked at.  A prediction does not check their own deadlines (see "The
 * working schedule" in Documentation/scheduler/sched-smart.rst);
 * smart_ws_slack() does.
 */
struct smart_future_walk {
	const struct rb_node *pos;
	const struct smart_entity *me;
	const struct smart_entity *skip;
	u64 now;
	u64 check_from;
	u64 slack;
	unsigned int seen;
};

static void smart_future_start(struct smart_future_walk *w,
			       const struct smart_queue *q,
			       const struct smart_entity *me,
			       const struct smart_entity *skip, u64 now)
{
	/* NULL once there is nothing (more) to walk */
	w->pos = q ? rb_first_cached(&q->future) : NULL;
	w->me = me;
	w->skip = skip;
	w->now = now;
	w->check_from = SMART_TC_HORIZON_NS + 1;
	w->slack = SMART_TC_HORIZON_NS;
	w->seen = 0;
}

/*
 * Will @o's next constraint be more important than @me?  It will have
 * the value tuple (P, v + Q / S) (eq. (3)), and a sleeping entity's v
 * does not move.  Its value tuple now, that of a conventional task, would
 * not do: two periodic tasks could then each count the other's next
 * constraint as the more important, and both be told theirs cannot fit.
 */
static bool smart_future_before(const struct smart_entity *o,
				const struct smart_entity *me)
{
	const struct smart_tc *c = &o->future.tc;
	s64 d;

	if (o->prio != me->prio)
		return o->prio > me->prio;
	d = (s64)(smart_vtime(o) +
		  smart_scale(smart_rt_quantum(c->estimate), o->inv_share) -
		  me->bvft);
	if (!d)
		return (s64)(c->deadline - me->tc.deadline) < 0;
	return d < 0;
}

/*
 * Add the next constraints due by t + @r to @s, in deadline order.  The
 * sums go by value: their address never escapes the hot loops.  Those due
 * at or after t + @w->check_from are checked like entries of the
 * schedule, eq. (9) at their own deadline: @w->slack is the least
 * r - need(r) among them (smart_ws_slack() only).
 */
static struct smart_sums smart_future_fold(struct smart_future_walk *w,
					   u64 r, struct smart_sums s)
{
	while (w->pos) {
		const struct smart_entity *o =
			rb_entry(w->pos, struct smart_entity, future.node);
		const struct smart_tc *c = &o->future.tc;
		bool due = (s64)(c->deadline - w->now) > 0;
		u64 rc = due ? smart_tc_ahead(c, w->now) : 0;

		if (rc > r)
			break;
		w->pos = ++w->seen < SMART_FUTURE_MAX ? rb_next(w->pos) : NULL;
		if (!due || o == w->skip ||
		    (w->me && !smart_future_before(o, w->me)))
			continue;
		smart_sums_add(&s, c, rc);
		if (rc >= w->check_from)
			w->slack = min(w->slack,
				       smart_sub0(rc, smart_sums_need(&s, rc)));
	}
	return s;
}

/**
 * smart_tc_demand() - the resource requirement R of a constraint, eq. (8)
 * @tc:	the constraint
 * @t:	a time at or after its deadline
 *
 * R(t) = Q - E + F * (t - D): what is left of the estimate, plus the
 * future load of a periodic activity up to @t.
 *
 * Return: R(@t) in ns.
 */
u64 smart_tc_demand(const struct smart_tc *tc, u64 t)
{
	u64 r = smart_tc_left(tc);

	if ((s64)(t - tc->deadline) > 0)
		r = smart_add_sat(r, mul_u64_u64_shr(t - tc->deadline, tc->load,
						     SMART_LOAD_SHIFT));
	return r;
}

/**
 * smart_ws_insert() - add an entity to a working schedule if it stays
 *		       feasible, eq. (9)
 * @ws:		the schedule, in deadline order
 * @se:		a runnable entity with a time constraint
 * @now:	t
 * @q:		the queue whose periodic tasks between constraints count
 *		(struct smart_future), or NULL for none
 *
 * The schedule W + @se is feasible if for every i in it, in deadline
 * order,
 *
 *	D_i >= t + sum(R_j(D_i) for j in W with D_j <= D_i)	eq. (9)
 *
 * Callers insert candidates in decreasing value order, so an insertion
 * is kept only if it makes none of the more important constraints (nor
 * their future periodic load, nor that of more important periodic tasks
 * between two constraints) miss (§3.4).  The paper counts the future
 * load of a periodic task "in subsequent feasibility tests": @se's own,
 * F (D_i - D), is left out of this one, where only Q - E of it counts.
 * Only the entries due at or after @se are checked: it adds nothing to
 * what the earlier ones need.
 * One pass over the schedule with running sums: O(|W|) per insertion,
 * O(N_R^2) for a whole schedule, as the paper states.  A deadline at or
 * before @now can never be met and is not inserted.
 *
 * Return: true if @se was inserted.
 */
bool smart_ws_insert(struct smart_ws *ws, struct smart_entity *se, u64 now,
		     const struct smart_queue *q)
{
	const struct smart_tc *tc = &se->tc;
	struct smart_sums s = { };
	unsigned int i, pos, n = ws->nr + 1;
	struct smart_future_walk w;

	if (ws->nr >= SMART_WS_MAX || (s64)(tc->deadline - now) <= 0)
		return false;

	/* Its place in deadline order; ties keep the earlier insertion first. */
	for (pos = ws->nr; pos > 0; pos--)
		if ((s64)(ws->se[pos - 1]->tc.deadline - tc->deadline) <= 0)
			break;

	/* Walk W + @se and the next constraints in deadline order. */
	smart_future_start(&w, q, se, se, now);
	for (i = 0; i < n; i++) {
		const struct smart_tc *c;
		u64 r;

		if (i == pos)
			c = tc;
		else
			c = &ws->se[i < pos ? i : i - 1]->tc;
		r = smart_tc_ahead(c, now);
		if (w.pos)
			s = smart_future_fold(&w, r, s);
		/*
		 * Its own future load counts from the next insertion on
		 * (§3.4): what it needs now, not its next request, must fit
		 * beside the more important ones.
		 */
		if (i == pos)
			s.left = smart_add_sat(s.left, smart_tc_left(c));
		else
			smart_sums_add(&s, c, r);
		if (smart_sums_need(&s, r) > r && i >= pos)
			return false;
	}

	memmove(&ws->se[pos + 1], &ws->se[pos],
		(ws->nr - pos) * sizeof(ws->se[0]));
	ws->se[pos] = se;
	ws->nr++;
	return true;
}

/*
 * The decision of smart_pick_tc(); *@stop is where the walk of the tree
 * stopped (the first conventional entity, or NULL at the end), *@all
 * whether the schedule took every candidate.
 */
static struct smart_entity *smart_build(struct smart_queue *q, u64 now,
					struct smart_ws *ws,
					struct smart_ws *rejected,
					struct rb_node **stop, bool *all)
{
	struct rb_node *n = rb_first_cached(&q->tree);
	struct smart_entity *first;
	unsigned int seen = 0;

	ws->nr = 0;
	if (rejected)
		rejected->nr = 0;
	*stop = n;
	*all = true;
	if (!n)
		return NULL;
	first = rb_entry(n, struct smart_entity, node);
	if (!smart_is_rt(first))
		return first;					/* step 1 */

	for (; n; n = rb_next(n), seen++) {			/* 2, 3 */
		struct smart_entity *se = rb_entry(n, struct smart_entity, node);

		if (!smart_is_rt(se))
			break;
		if (seen >= SMART_WS_MAX) {
			*all = false;
			break;
		}
		if (smart_ws_insert(ws, se, now, q))
			continue;
		*all = false;
		if (rejected)
			rejected->se[rejected->nr++] = se;
	}
	*stop = n;
	return ws->nr ? ws->se[0] : first;			/* step 4 */
}

/**
 * smart_pick_tc() - the SMART scheduling decision, §3.2
 * @q:		the queue
 * @now:	t
 * @ws:		filled with the working schedule (may stay empty)
 * @rejected:	filled with the candidates that could not be placed, in
 *		decreasing value order (the ones to notify), or NULL
 *
 * 1. If the task with the highest value tuple is conventional, run it.
 * 2. Otherwise the candidates are the real-time tasks (with a time
 *    constraint) of higher value than the best conventional task: in the
 *    value-ordered tree, exactly the prefix before the first conventional
 *    entity.
 * 3. Insert them in decreasing value order into the working schedule,
 *    keeping only insertions that leave it feasible (smart_ws_insert()),
 *    and run the earliest deadline in it.
 * 4. If none can be placed, run the most important candidate anyway:
 *    the scheduler is work conserving.  Even with a conventional task
 *    runnable, unlike the paper's §3.4: an estimate that cannot fit must
 *    not keep its task off the CPU until its deadline.
 *
 * Only the SMART_WS_MAX most important candidates are looked at: this
 * runs under the rq lock with interrupts off, and a user may create
 * thousands of constrained threads.  Candidates beyond them are neither
 * scheduled nor rejected here; their latest-start timers still notify
 * them.
 *
 * Cost: O(min(N_R, SMART_WS_MAX)^2), whatever N_R.  smart_decide() keeps
 * the result between decisions and rebuilds it only when it must.
 *
 * Return: the entity to run, or NULL if none is runnable.
 */
struct smart_entity *smart_pick_tc(struct smart_queue *q, u64 now,
				   struct smart_ws *ws, struct smart_ws *rejected)
{
	struct rb_node *stop;
	bool all;

	return smart_build(q, now, ws, rejected, &stop, &all);
}

/*
 * Place @q->ws_new, a candidate that joined since the last decision, as
 * a rebuild would: one that only moved back in value order, with the
 * same constraint, into the same set (feasible as a whole when no
 * predicted constraint is about), O(log N_R); the least important
 * candidate by one insertion, O(N_R), exactly the last step of a
 * rebuild.  Anything else needs the rebuild: return false.
 */
static bool smart_ws_place(struct smart_queue *q, u64 now)
{
	struct smart_entity *se = q->ws_new;
	struct rb_node *stop = q->ws_stop ? &q->ws_stop->node : NULL;
	unsigned int lo = 0, hi = q->ws.nr;

	if (q->ws.nr >= SMART_WS_MAX)
		return false;
	if (q->ws_moved && RB_EMPTY_ROOT(&q->future.rb_root)) {
		/* Deadline order, ties in value order as insertions make it. */
		while (lo < hi) {
			unsigned int mid = (lo + hi) / 2;
			const struct smart_entity *o = q->ws.se[mid];
			s64 d = (s64)(o->tc.deadline - se->tc.deadline);

			if (d < 0 || (!d && !smart_value_before(se, o)))
				lo = mid + 1;
			else
				hi = mid;
		}
		memmove(&q->ws.se[lo + 1], &q->ws.se[lo],
			(q->ws.nr - lo) * sizeof(q->ws.se[0]));
		q->ws.se[lo] = se;
		q->ws.nr++;
		return true;
	}
	if (rb_next(&se->node) != stop)
		return false;
	if (!smart_ws_insert(&q->ws, se, now, q)) {
		q->rejected.se[0] = se;
		q->rejected.nr = 1;
		q->ws_all = false;
	}
	return true;
}

/**
 * smart_decide() - the §3.2 decision for the queue as it is
 * @q:		the queue
 * @now:	t
 *
 * Predicted next constraints (struct smart_future) whose deadline passed
 * are dropped first.  The last decision stands while nothing it depends
 * on changed (see smart_ws_forget()): while the head of the working
 * schedule runs within its estimate, the slack of the others does not
 * change, so the schedule
 * stays feasible.  A candidate that joined is placed in O(N_R) or less,
 * one that left costs nothing; otherwise the schedule is rebuilt
 * (smart_pick_tc()).  @q->rejected then holds the candidates to notify.
 *
 * Return: the entity to run, or NULL if none is runnable.
 */
struct smart_entity *smart_decide(struct smart_queue *q, u64 now)
{
	struct rb_node *n, *stop;

	/* Predicted constraints that did not come count no more. */
	while ((n = rb_first_cached(&q->future)) &&
	       (s64)(smart_future_deadline(n) - now) <= 0)
		smart_future_drop(rb_entry(n, struct smart_entity, future.node));
	if (!q->changed && !q->stale)
		return q->pick;
	if (!q->changed && (!q->ws_new || smart_ws_place(q, now))) {
		q->pick = q->ws.nr ? q->ws.se[0] : smart_pick(q);
	} else {
		q->pick = smart_build(q, now, &q->ws, &q->rejected, &stop,
				      &q->ws_all);
		q->ws_stop = stop ? rb_entry(stop, struct smart_entity, node) :
				    NULL;
	}
	q->ws_new = NULL;
	q->stale = false;
	q->changed = false;
	return q->pick;
}

/**
 * smart_ws_slack() - how long the working schedule can wait
 * @q:		the queue, as smart_decide() left it
 * @now:	t
 *
 * Eq. (9) at the deadline of every entry of @q->ws and of every predicted
 * next constraint, all of these counted whatever their value.
 *
 * Return: the least r - need(r), the CPU time that may go elsewhere now
 * without making any of them late; 0 if one is late already.
 */
u64 smart_ws_slack(struct smart_queue *q, u64 now)
{
	struct smart_future_walk w;
	struct smart_sums s = {};
	u64 slack = SMART_TC_HORIZON_NS;
	unsigned int i;

	smart_future_start(&w, q, NULL, NULL, now);
	w.check_from = 0;
	for (i = 0; i < q->ws.nr; i++) {
		const struct smart_tc *c = &q->ws.se[i]->tc;
		u64 r = smart_tc_ahead(c, now);

		if (w.pos)
			s = smart_future_fold(&w, r, s);
		smart_sums_add(&s, c, r);
		slack = min(slack, smart_sub0(r, smart_sums_need(&s, r)));
	}
	if (w.pos)
		smart_future_fold(&w, SMART_TC_HORIZON_NS, s);
	return min(slack, w.slack);
}

/*
 * The CPU time a conventional entity @o, ahead of a value tuple of BVFT
 * @beta at its priority, runs before it falls behind: the rest of its
 * quantum, then every further quantum it starts still ahead.  At the end
 * of the quantum v = beta_o - b / S, and each quantum after it begins at
 * beta >= v + Q / S or later (the bias only adds), so it starts another
 * while v + Q / S < @beta: k = ceil((@beta - v - Q / S) / (Q / S)) more.
 */
static u64 smart_catch_up(const struct smart_entity *o, u64 beta,
			  const struct smart_params *p)
{
	u64 v = o->bvft - smart_scale(o->bias, o->inv_share);
	u64 qv = max_t(u64, smart_scale(p->quantum_ns, o->inv_share), 1);
	u64 ns = smart_quantum_left(o), k;

	if ((s64)(beta - v) > (s64)qv) {
		k = div64_u64(beta - v - 1, qv);
		/* Past the horizon: more than any deadline leaves. */
		if (k > div64_u64(SMART_TC_HORIZON_NS, max_t(u64, p->quantum_ns, 1)))
			return SMART_TC_HORIZON_NS;
		ns = smart_add_sat(ns, k * p->quantum_ns);
	}
	return ns;
}

/*
 * The shares of the entities at @me's priority that split the CPU with
 * it, @me included: the runnable ones, and the periodic tasks between two
 * constraints, which come back (struct smart_future).  Other sleepers are
 * members of the level too, but take no CPU.  Past SMART_WS_MAX entries
 * of the tree, the level's total bounds it.
 */
static u64 smart_runnable_shares(struct smart_queue *q,
				 const struct smart_entity *se,
				 const struct smart_entity *me)
{
	u64 shares = me->share;
	unsigned int seen = 0;
	struct smart_entity *o;
	struct rb_node *n;

	for (n = rb_first_cached(&q->future); n; n = rb_next(n)) {
		o = rb_entry(n, struct smart_entity, future.node);
		if (++seen > SMART_FUTURE_MAX)
			break;
		if (o != se && o->prio == me->prio &&
		    o->state != SMART_SE_RUNNABLE)
			shares += o->share;
	}
	seen = 0;

	for (n = rb_first_cached(&q->tree); n; n = rb_next(n)) {
		o = rb_entry(n, struct smart_entity, node);
		if (o->prio < me->prio)
			break;
		if (++seen > 2 * SMART_WS_MAX)
			return smart_level_of(q, me)->shares +
			       (se->queue == q ? 0 : me->share);
		if (o != se && o->prio == me->prio)
			shares += o->share;
	}
	return shares;
}

/**
 * smart_tc_available() - predict the CPU time a constraint would get
 * @q:		the queue it runs on (it may not be on it yet), or NULL
 * @se:		the entity, before it begins the constraint
 * @tc:		the constraint it would begin (@tc->used is ignored)
 * @now:	t
 * @ws:		scratch space
 * @p:		tunables
 *
 * The entity would compete with the value tuple (P, v + Q / S) of a
 * real-time task.  Walking the queue in value order from the top:
 *
 * - a more important conventional task of a higher priority runs first
 *   (step 1): nothing is available.  A kernel thread only there by the
 *   standing sched_smart=all gives it (@kthread_prio) runs in bursts,
 *   most of them far shorter than a quantum: a quantum of it is not
 *   available;
 * - the more important real-time tasks keep their place: they are put
 *   in a working schedule (step 3) and what they need before @tc's
 *   deadline, and the slack the later ones need to stay feasible, is
 *   not available (eqs. (8)-(9), the periodic loads included);
 * - so is what the next constraint of a more important periodic task
 *   between two constraints needs (struct smart_future): it comes, and
 *   takes the CPU from a later deadline;
 * - a more important conventional task of the same priority runs until
 *   its value tuple falls behind the entity's (smart_catch_up()), and
 *   until then every more important real-time task may be a candidate
 *   without the entity and run all it has left.  None of that time is
 *   available.  Once a candidate, the entity runs its
 *   quantum, the whole estimate when it is at most
 *   SMART_RT_QUANTUM_MAX_NS; a larger one advances in such chunks and
 *   shares the CPU with its peers, so it is also bounded by its
 *   proportional share of the time to the deadline;
 * - a less important real-time task of the same priority due before the
 *   entity that misses its deadline goes on as a conventional task with
 *   at most a conventional quantum left (smart_tc_end()), which may put
 *   it ahead: what it could then take between the two deadlines is not
 *   available.  The first SMART_WS_MAX tasks behind the entity are
 *   looked at.
 *
 * The prediction assumes the queue stays as it is; it is the input to
 * SMART_STATUS_FEASIBLE / INFEASIBLE of smart_constraint_begin().  Like
 * smart_pick_tc() it looks at no more than SMART_WS_MAX more important
 * real-time tasks; behind more than that, nothing is predicted available.
 *
 * Overflow: the syscall bounds @tc's deadline, estimate and period to
 * SMART_CONSTRAINT_MAX_AHEAD_NS, so with F <= 1 and at most SMART_WS_MAX
 * entries every sum below stays under 2^63 (see smart_ws_insert()).
 *
 * Return: CPU time (ns) predicted to be available before the deadline.
 */
u64 smart_tc_available(struct smart_queue *q, const struct smart_entity *se,
		       const struct smart_tc *tc, u64 now, struct smart_ws *ws,
		       const struct smart_params *p)
{
	u64 t = smart_tc_ahead(tc, now), avail = t, ahead = 0;
	struct smart_sums s = { };
	struct smart_entity me = *se;
	struct smart_future_walk w;
	bool before = false, behind = false;
	unsigned int i, seen = 0;
	struct rb_node *n;

	if ((s64)(tc->deadline - now) <= 0)
		return 0;
	ws->nr = 0;
	me.tc = *tc;
	me.tc.used = 0;
	me.bias = 0;
	me.exec = 0;
	me.quantum = smart_rt_quantum(tc->estimate);
	/* Off this queue it would join at its virtual time, eq. (3). */
	if (se->queue == q)
		smart_set_bvft(&me, smart_vtime(se));
	else if (q)
		smart_set_bvft(&me, smart_level_of(q, se)->vtime);

	for (n = q ? rb_first_cached(&q->tree) : NULL; n; n = rb_next(n)) {
		struct smart_entity *o = rb_entry(n, struct smart_entity, node);

		if (o == se)
			continue;
		if (!smart_value_before(o, &me))
			break;
		if (++seen > SMART_WS_MAX)
			return 0;
		if (!smart_is_rt(o)) {
			if (o->prio > me.prio) {
				if (!o->kthread_prio)
					return 0;
				ahead = smart_add_sat(ahead, p->quantum_ns);
				continue;
			}
			behind = true;
			ahead = smart_add_sat(ahead, smart_catch_up(o, me.bvft, p));
			continue;
		}
		smart_ws_insert(ws, o, now, q);
	}
	/*
	 * Behind it: one due first that misses goes on as a conventional
	 * task with a fresh quantum, ahead of the entity if v + Q / S is.
	 */
	for (seen = 0; n && seen < SMART_WS_MAX; n = rb_next(n), seen++) {
		struct smart_entity *o = rb_entry(n, struct smart_entity, node);
		u64 v = smart_vtime(o), lead;

		if (o == se || !smart_is_rt(o) || o->prio != me.prio ||
		    (s64)(o->tc.deadline - tc->deadline) >= 0 ||
		    (s64)(v + smart_scale(p->quantum_ns, o->inv_share) -
			  me.bvft) >= 0)
			continue;
		/* Clamped first: the quotient must fit in 64 bits. */
		lead = min_t(u64, me.bvft - v, SMART_TC_HORIZON_NS);
		lead = mul_u64_u64_div_u64(lead, o->share,
					   smart_core_share(SMART_SHARE_DEFAULT));
		ahead = smart_add_sat(ahead, min(lead, tc->deadline - o->tc.deadline));
		behind = true;
	}
	/*
	 * Behind a conventional task (or one that may come ahead as such)
	 * the entity is no candidate until that one has fallen behind it,
	 * quantum by quantum, and meanwhile the real-time tasks before it,
	 * on either side of that task, can be candidates without the
	 * entity: they may run all they have left first, whatever their
	 * deadlines.
	 */
	if (behind) {
		for (i = 0; i < ws->nr; i++)
			ahead = smart_add_sat(ahead, smart_tc_left(&ws->se[i]->tc));
		ws->nr = 0;
	}

	/*
	 * The more important schedule W in deadline order, with the running
	 * sums of smart_ws_insert(): need(x) = sum over D_j <= x of R_j(x).
	 * Before its deadline D the entity gets what W does not need by D;
	 * each later entry i keeps its slack r_i - need(D_i).  Its own
	 * future load is not counted there: as in smart_ws_insert(), it
	 * only counts against the insertions after it (§3.4).
	 */
	smart_future_start(&w, q, &me, se, now);
	for (i = 0; i <= ws->nr; i++) {
		const struct smart_tc *c = i < ws->nr ? &ws->se[i]->tc : NULL;
		u64 r = c ? smart_tc_ahead(c, now) : SMART_TC_HORIZON_NS;

		if (!before && r > t) {
			if (w.pos)
				s = smart_future_fold(&w, t, s);
			avail = min(avail, smart_sub0(t, smart_sums_need(&s, t)));
			before = true;
		}
		if (!c)
			break;
		if (w.pos)
			s = smart_future_fold(&w, r, s);
		smart_sums_add(&s, c, r);
		if (r <= t)
			continue;
		avail = min(avail, smart_sub0(r, smart_sums_need(&s, r)));
	}

	/* The time the conventional tasks ahead take comes first. */
	avail = smart_sub0(avail, ahead);
	if (tc->estimate > SMART_RT_QUANTUM_MAX_NS && q)
		avail = min(avail,
			    mul_u64_u64_div_u64(t, me.share,
						smart_runnable_shares(q, se, &me)));
	return avail;
}

/**
 * smart_tc_set_used() - set the CPU time an entity used under its constraint
 * @se:		the entity, with a time constraint
 * @used:	the CPU time (ns)
 *
 * One whose estimate this uses up stops being a real-time task, one whose
 * estimate it frees again becomes one, one given back budget needs more
 * than the working schedule counted: its queue's decision is rebuilt.
 */
void smart_tc_set_used(struct smart_entity *se, u64 used)
{
	bool rt = smart_is_rt(se), less = used < se->tc.used;

	se->tc.used = used;
	if (se->state == SMART_SE_RUNNABLE &&
	    (rt != smart_is_rt(se) || (rt && less)))
		se->queue->changed = true;
}

/*
 * A quantum of @quantum with @exec of it used, from the entity's current
 * virtual time (v kept), without bias.
 */
static void smart_requantum(struct smart_queue *q, struct smart_entity *se,
			    u64 quantum, u64 exec)
{
	u64 v = smart_vtime(se);
	bool queued = se->state == SMART_SE_RUNNABLE;

	if (queued)
		smart_tree_del(q, se);
	se->quantum = quantum;
	se->exec = exec;
	se->bias = 0;
	smart_set_bvft(se, v);
	if (queued)
		smart_tree_add(q, se);
}

/**
 * smart_tc_begin() - an entity starts a time constraint
 * @q:		its queue, or NULL if it is on none
 * @se:		the entity (its CPU time so far already charged)
 * @tc:		deadline, estimate and periodic load; @tc->used is ignored
 *
 * It becomes a real-time task (§3.3): no bias, and its quantum is the
 * estimate, so beta = v + estimate / S (eq. (3), the estimate capped by
 * smart_rt_quantum()).  Its virtual time is kept: a constraint neither
 * earns nor costs proportional share.  It replaces the next constraint
 * its last periodic one predicted.
 */
void smart_tc_begin(struct smart_queue *q, struct smart_entity *se,
		    const struct smart_tc *tc)
{
	smart_future_drop(se);
	se->tc = *tc;
	se->tc.used = 0;
	if (q)
		smart_requantum(q, se, smart_rt_quantum(tc->estimate), 0);
}

/**
 * smart_tc_end() - an entity's time constraint ends (or expires)
 * @q:	its queue, or NULL if it is on none
 * @se:	the entity (its CPU time so far already charged)
 * @p:	tunables
 *
 * Back to a conventional task, bias starting from 0.  It finishes the
 * quantum it is in, cut to at most a conventional one (quantum_ns), and
 * only then gets a fresh one: beta does not move back unless the rest of
 * an estimate was longer than quantum_ns.  A task that ends a constraint
 * early, as a periodic task does before it sleeps until its next release,
 * keeps its place long enough to get there instead of waiting for every
 * peer's quantum first.  Nothing is earned: v advances as it runs, and
 * once the quantum is done the task is rescheduled by eq. (4).
 * A periodic one leaves its next constraint on the queue, as predicted
 * (struct smart_future), until it begins it or the predicted deadline
 * has passed.
 *
 * Return: the CPU time used under the constraint.
 */
u64 smart_tc_end(struct smart_queue *q, struct smart_entity *se,
		 const struct smart_params *p)
{
	u64 used = se->tc.used;

	smart_future_drop(se);
	if (se->tc.load && se->tc.period) {
		se->future.tc = se->tc;
		se->future.tc.deadline += se->tc.period;
		se->future.tc.used = 0;
		if (q)
			smart_future_add(q, se);
	}
	se->tc = (struct smart_tc){ };
	if (q) {
		u64 left = min(smart_quantum_left(se), p->quantum_ns);

		if (left)
			smart_requantum(q, se, se->exec + left, se->exec);
		else
			smart_requantum(q, se, p->quantum_ns, 0);
	}
	return used;
}
