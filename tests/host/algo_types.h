/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for kernel/sched/smart/algo_types.h: same include
 * guard, so including this first makes the kernel's algo.c build on the
 * host against the kernel tree's tools/include (rbtree, list).
 */
#ifndef __SMART_ALGO_TYPES_H
#define __SMART_ALGO_TYPES_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <linux/types.h>
#include <linux/bits.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/rbtree.h>
/* the kernel's <linux/types.h> defines it, tools/include's does not */
struct callback_head {
	struct callback_head *next;
	void (*func)(struct callback_head *head);
};
#include "../../include/linux/sched/smart.h"
#include "../../include/uapi/linux/smart_sched.h"

typedef int32_t s32;

#ifndef clamp_t
#define clamp_t(type, v, lo, hi)	min_t(type, max_t(type, v, lo), hi)
#endif

#ifndef U64_MAX
#define U64_MAX		((u64)~0ULL)
#endif

static inline u64 mul_u64_u64_shr(u64 a, u64 b, unsigned int shift)
{
	return (u64)(((unsigned __int128)a * b) >> shift);
}

static inline u64 mul_u64_u64_div_u64(u64 a, u64 b, u64 c)
{
	return (u64)((unsigned __int128)a * b / c);
}

static inline u64 div64_u64(u64 a, u64 b)
{
	return a / b;
}

#endif /* __SMART_ALGO_TYPES_H */
