// SPDX-License-Identifier: GPL-2.0
/*
 * SMART algorithm: hierarchical shares, the model of SFQ-H (Goyal, Guo and
 * Vin, "A hierarchical CPU scheduler for multimedia operating systems",
 * OSDI '96).  Each task group is a node that divides its bandwidth
 * among its children in proportion to their weights, so that what a
 * group gets does not depend on how many tasks it has.
 *
 * SMART needs one order over all runnable tasks: its decision (§3.2)
 * looks for the conventional task with the highest value tuple and
 * builds a working schedule of the real-time tasks ahead of it (§3.4),
 * and the feasibility test uses each task's fraction of the CPU.  So
 * the tree is flattened onto the one queue.  At priority P an entity of
 * group g_0, whose ancestors below the root are g_1, ..., g_k, gets
 *
 *   S = own / sum_P(g_0) * w(g_0) / sum_P(g_1) * ... * w(g_k-1) / sum_P(g_k)
 *       * w(g_k)
 *
 * its part of its group's share, which is the group's part of its
 * parent's, and so on up to g_k, a child of the root whose share is its
 * weight w.  sum_P(g) adds the own shares of g's members and the weights
 * of g's child groups that have an entity on the queue at P.  Entities
 * of the root group keep their own share.  On one CPU the long-run
 * proportions are SFQ-H's; between two changes of membership they are
 * those of one SFQ over the leaves.
 *
 * When a group's membership at P changes (an entity joins or leaves the
 * queue, a child group gains its first or loses its last entity at P),
 * the shares below the highest group whose sum changed are recomputed
 * (smart_group_reshare()): O(entities below it) on that CPU, at most
 * once per join or leave.  A sleeper keeps its place on the queue for
 * the sleep credit (§3.3), so short sleeps change nothing.
 */
#include "algo.h"

static inline unsigned int smart_prio_idx(s32 prio)
{
	return prio - SMART_PRIO_MIN;
}

void smart_group_init(struct smart_group *g, struct smart_group *parent,
		      u32 weight)
{
	memset(g, 0, sizeof(*g));
	g->parent = parent;
	g->weight = clamp_t(u32, weight, SMART_SHARE_MIN, SMART_SHARE_MAX);
	INIT_LIST_HEAD(&g->members);
	INIT_LIST_HEAD(&g->children);
	INIT_LIST_HEAD(&g->sibling);
	INIT_LIST_HEAD(&g->dirty_node);
}

/*
 * @g's share on the queue at priority index @i, in the algorithm's units
 * (smart_core_share()) with SMART_GROUP_SHIFT more fractional bits.  The
 * one computation of it: smart_group_reshare() and smart_group_enter()
 * must give an entity the same share.
 */
static u64 smart_group_hshare(const struct smart_group *g, unsigned int i)
{
	u64 h = (u64)smart_core_share(g->weight) << SMART_GROUP_SHIFT;
	const struct smart_group *a;

	for (a = g->parent; a; g = a, a = a->parent)
		h = mul_u64_u64_div_u64(h, a->weight, max_t(u64, a->at[i].sum, 1));
	return h;
}

/*
 * The S of a part @own of a sum @sum of a group whose share is @h, in the
 * algorithm's units: at least one of them, 2^-SMART_SHARE_SHIFT of a share, so
 * that only a group with more than 2^SMART_SHARE_SHIFT tasks per unit of
 * its weight on one CPU gets more than its weight.
 */
static u32 smart_group_part(u64 h, u64 own, u64 sum)
{
	u64 s = mul_u64_u64_div_u64(h, own, max_t(u64, sum, 1));

	s = (s + (1ULL << (SMART_GROUP_SHIFT - 1))) >> SMART_GROUP_SHIFT;
	return clamp_t(u64, s, 1, smart_core_share(SMART_SHARE_MAX));
}

/**
 * smart_group_share() - the S an entity of @g with share @own gets
 * @g:		its group, which counts it in its sum at @prio
 * @prio:	its priority
 * @own:	its own share
 *
 * Return: its share on the queue.
 */
u32 smart_group_share(const struct smart_group *g, s32 prio, u32 own)
{
	unsigned int i = smart_prio_idx(prio);

	return smart_group_part(smart_group_hshare(g, i), own, g->at[i].sum);
}

/* The next child group of @g after @pos (NULL: the first) active at @i. */
static struct smart_group *smart_group_next_child(struct smart_group *g,
						  struct smart_group *pos,
						  unsigned int i)
{
	pos = list_prepare_entry(pos, &g->children, sibling);
	list_for_each_entry_continue(pos, &g->children, sibling) {
		if (pos->at[i].nr)
			return pos;
	}
	return NULL;
}

/*
 * Give every entity of priority index @i below @top (in @top and in the
 * groups under it) its share after a change of a sum at or below @top.
 * A pre-order walk of the active subtree without recursion: cgroups may
 * nest deeply and this runs under the rq lock.
 */
static void smart_group_reshare(struct smart_queue *q, struct smart_group *top,
				unsigned int i)
{
	struct smart_group *g = top, *c;
	struct smart_entity *se;

	top->hshare = smart_group_hshare(top, i);
	for (;;) {
		u64 sum = g->at[i].sum;

		g->at[i].shared = sum;
		list_for_each_entry(se, &g->members, group_node) {
			if (smart_prio_idx(se->prio) == i)
				smart_reshare(q, se,
					      smart_group_part(g->hshare,
							       se->own_share, sum));
		}
		c = smart_group_next_child(g, NULL, i);
		/* No child at @i: the next sibling of @g or of an ancestor. */
		while (!c && g != top) {
			c = smart_group_next_child(g->parent, g, i);
			if (!c)
				g = g->parent;
		}
		if (!c)
			return;
		c->hshare = smart_group_hshare(c, i);
		g = c;
	}
}

/*
 * After a join or a leave changed the sum at @i of @top and of nothing
 * above it: if that is the entity's own group, recompute the shares of
 * its members only once the sum is more than 1/SMART_GROUP_DRIFT away
 * from the one they were computed with.  Members that join one by one
 * then cost O(log N) re-insertions each on average instead of O(N),
 * which a user with thousands of tasks in one group could otherwise turn
 * into quadratic work under the rq lock.  Meanwhile the members' shares
 * are within 1/SMART_GROUP_DRIFT of exact, so the group gets at most that
 * much more or less than its weight; the level's sum stays exact (it
 * adds the shares the entities have).  A change that reaches a group
 * above (a child group's first or last entity) re-shares at once.
 */
#define SMART_GROUP_DRIFT	32

static void smart_group_changed(struct smart_queue *q, struct smart_group *top,
				const struct smart_entity *se, unsigned int i)
{
	u64 sum = top->at[i].sum, was = top->at[i].shared;

	if (top != se->group || !was || !sum ||
	    (sum > was ? sum - was : was - sum) * SMART_GROUP_DRIFT > was)
		smart_group_reshare(q, top, i);
}

/**
 * smart_group_enter() - count an entity joining a queue in its group
 * @q:	the queue
 * @se:	the entity, with @se->group set, not yet on @q
 *
 * Adds its share to its group's sum at its priority, and the group's
 * weight to its parent's if that is the group's first entity at that
 * priority, and so on up; the other entities below the highest sum
 * that changed get their new shares.
 *
 * Return: the share @se gets on @q.
 */
u32 smart_group_enter(struct smart_queue *q, struct smart_entity *se)
{
	unsigned int i = smart_prio_idx(se->prio);
	struct smart_group *g, *top = NULL;
	u64 add = se->own_share;

	for (g = se->group; g; g = g->parent) {
		bool first = !g->at[i].nr++;

		g->at[i].sum += add;
		top = g;
		if (!first)
			break;
		add = g->weight;
	}
	for (g = se->group; g; g = g->parent) {
		if (!g->nr++ && g->parent)
			list_add_tail(&g->sibling, &g->parent->children);
	}
	smart_group_changed(q, top, se, i);
	list_add_tail(&se->group_node, &se->group->members);
	return smart_group_share(se->group, se->prio, se->own_share);
}

/**
 * smart_group_exit() - an entity left its queue: uncount it in its group
 * @q:	the queue it left
 * @se:	the entity, off @q, @se->group still set
 */
void smart_group_exit(struct smart_queue *q, struct smart_entity *se)
{
	unsigned int i = smart_prio_idx(se->prio);
	struct smart_group *g, *top = NULL;
	u64 sub = se->own_share;

	list_del_init(&se->group_node);
	for (g = se->group; g; g = g->parent) {
		bool last = !--g->at[i].nr;

		g->at[i].sum -= sub;
		top = g;
		if (!last)
			break;
		sub = g->weight;
	}
	for (g = se->group; g; g = g->parent) {
		if (!--g->nr && g->parent)
			list_del_init(&g->sibling);
	}
	if (!q->gbatch) {
		smart_group_changed(q, top, se, i);
		return;
	}
	if (!top->dirty)
		list_add_tail(&top->dirty_node, &q->gdirty);
	top->dirty |= 1ULL << i;
}

/**
 * smart_group_flush() - recompute the shares a batch of leaves left
 * @q:	the queue
 */
void smart_group_flush(struct smart_queue *q)
{
	struct smart_group *g;

	while ((g = list_first_entry_or_null(&q->gdirty, struct smart_group,
					     dirty_node))) {
		u64 dirty = g->dirty;

		list_del_init(&g->dirty_node);
		g->dirty = 0;
		while (dirty) {
			unsigned int i = __builtin_ctzll(dirty);

			dirty &= dirty - 1;
			smart_group_reshare(q, g, i);
		}
	}
}

/**
 * smart_group_set_weight() - a group's weight changed
 * @q:		the queue of @g's CPU
 * @g:		the group
 * @weight:	its new weight
 *
 * Where the group has entities, its parent's sum changes and the shares
 * below the parent are recomputed (below @g alone for a child of the
 * root, whose share is its weight).
 */
void smart_group_set_weight(struct smart_queue *q, struct smart_group *g,
			    u32 weight)
{
	u32 old = g->weight;
	unsigned int i;

	weight = clamp_t(u32, weight, SMART_SHARE_MIN, SMART_SHARE_MAX);
	if (weight == old)
		return;
	g->weight = weight;
	for (i = 0; i < SMART_NR_PRIO; i++) {
		if (!g->at[i].nr)
			continue;
		if (g->parent) {
			g->parent->at[i].sum += weight;
			g->parent->at[i].sum -= old;
		}
		smart_group_reshare(q, g->parent ?: g, i);
	}
}
