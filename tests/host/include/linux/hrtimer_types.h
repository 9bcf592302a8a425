/* SPDX-License-Identifier: GPL-2.0 */
/* Host stand-in: the algorithm never touches a task's hrtimer, only its size. */
#ifndef _LINUX_HRTIMER_TYPES_H
#define _LINUX_HRTIMER_TYPES_H

struct hrtimer {
	unsigned long opaque[8];
};

#endif
