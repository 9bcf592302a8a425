/* SPDX-License-Identifier: GPL-2.0 */
/* Host stand-in: the algorithm never touches a task's llist node. */
#ifndef _LINUX_LLIST_H
#define _LINUX_LLIST_H

struct llist_node {
	struct llist_node *next;
};

#endif
