/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the SMART algorithm needs from its environment.  A user-space
 * build of the algorithm provides its own file with the same include
 * guard.
 */
#ifndef __SMART_ALGO_TYPES_H
#define __SMART_ALGO_TYPES_H

#include <linux/types.h>
#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/bits.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/sched/smart.h>
#include <uapi/linux/smart_sched.h>

#endif /* __SMART_ALGO_TYPES_H */
