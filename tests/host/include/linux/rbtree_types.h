/* SPDX-License-Identifier: GPL-2.0 */
/* Host build: struct rb_node and friends come from tools/include/linux/rbtree.h. */
#include <linux/rbtree.h>
