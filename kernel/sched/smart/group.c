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
 * queue, a child group gains its first or loses its last entity at P,
 * a weight changes), the S of every entity below the highest group whose
 * sum changed moves.  Recomputing them there and then would cost one
 * re-insertion per entity under the rq lock: with a thousand sibling
 * groups, a thousand at every wake-up in one of them.  So shares are
 * lazy: a change only bumps the queue's share generation, and an entity
 * takes its new S the next time it is charged or wakes up
 * (smart_group_refresh()).  Until then it keeps the S, and so the BVFT,
 * of its current quantum, as SFQ stamps a packet with the rate it had on
 * arrival; what it runs is charged at its new S.  The level's sum of
 * shares adds the S the entities have, so V_P stays consistent with
 * them.  Every event costs O(depth): the sums are updated up the chain
 * of groups, and a share is the product of the ratios up to the root.
 *
 * The depth that costs is bounded: a group nested more than
 * SMART_GROUP_DEPTH_MAX levels below the root is placed beside its
 * parent (smart_group_init()), so everything below that depth divides
 * the share of its ancestor at SMART_GROUP_DEPTH_MAX - 1 by weight, as
 * siblings.  cgroup.max.depth is unlimited by default, and a user who
 * was delegated a subtree could nest a thousand groups: without the
 * bound, every wake-up walked the thousand, and a tick re-weighting the
 * chain (smart_tick_groups()) recomputed it a thousand times.
 */
#include "algo.h"

static inline unsigned int smart_prio_idx(s32 prio)
{
	return prio - SMART_PRIO_MIN;
}

/**
 * smart_group_init() - set up a group's node on one CPU
 * @g:		the node
 * @parent:	the node of its parent group on the same CPU, NULL for a
 *		child of the root group
 * @weight:	its weight among its siblings
 *
 * A node below a parent at SMART_GROUP_DEPTH_MAX is attached beside it.
 */
void smart_group_init(struct smart_group *g, struct smart_group *parent,
		      u32 weight)
{
	memset(g, 0, sizeof(*g));
	/* Below the deepest level, beside the parent. */
	if (parent && parent->depth >= SMART_GROUP_DEPTH_MAX)
		parent = parent->parent;
	g->parent = parent;
	g->depth = parent ? parent->depth + 1 : 1;
	g->weight = clamp_t(u32, weight, SMART_SHARE_MIN, SMART_SHARE_MAX);
}

/*
 * @g's share on the queue at priority index @i, in the algorithm's units
 * (smart_core_share()) with SMART_GROUP_SHIFT more fractional bits:
 * O(depth), at most SMART_GROUP_DEPTH_MAX steps.
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

/**
 * smart_group_enter() - count an entity joining a queue in its group
 * @q:	the queue
 * @se:	the entity, with @se->group set, not yet on @q
 *
 * Adds its share to its group's sum at its priority, and the group's
 * weight to its parent's if that is the group's first entity at that
 * priority, and so on up; the entities already on @q take their new
 * shares lazily (smart_group_refresh()).
 *
 * Return: the share @se gets on @q.
 */
u32 smart_group_enter(struct smart_queue *q, struct smart_entity *se)
{
	unsigned int i = smart_prio_idx(se->prio);
	struct smart_group *g;
	u64 add = se->own_share;

	for (g = se->group; g; g = g->parent) {
		bool first = !g->at[i].nr++;

		g->at[i].sum += add;
		if (!first)
			break;
		add = g->weight;
	}
	for (g = se->group; g; g = g->parent)
		g->nr++;
	se->share_gen = ++q->share_gen;
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
	struct smart_group *g;
	u64 sub = se->own_share;

	for (g = se->group; g; g = g->parent) {
		bool last = !--g->at[i].nr;

		g->at[i].sum -= sub;
		if (!last)
			break;
		sub = g->weight;
	}
	for (g = se->group; g; g = g->parent)
		g->nr--;
	q->share_gen++;
}

/**
 * smart_group_refresh() - an entity takes the share its group's
 *			   division gives it now
 * @q:	its queue
 * @se:	a grouped entity on @q whose share is older than @q's last change
 *	(smart_group_stale())
 *
 * O(depth).  It keeps its lag in CPU time and its quantum progress
 * (smart_reshare()).
 */
void smart_group_refresh(struct smart_queue *q, struct smart_entity *se)
{
	se->share_gen = q->share_gen;
	smart_reshare(q, se, smart_group_share(se->group, se->prio,
					       se->own_share));
}

/**
 * smart_group_set_weight() - a group's weight changed
 * @q:		the queue of @g's CPU
 * @g:		the group
 * @weight:	its new weight
 *
 * Where the group has entities, its parent's sum changes; the shares
 * below follow lazily.  O(number of priorities).
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
	if (!g->nr)
		return;
	for (i = 0; i < SMART_NR_PRIO; i++) {
		if (g->at[i].nr && g->parent) {
			g->parent->at[i].sum += weight;
			g->parent->at[i].sum -= old;
		}
	}
	q->share_gen++;
}
