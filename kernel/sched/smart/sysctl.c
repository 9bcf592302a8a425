// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART tunables: /proc/sys/kernel/smart/ (ns, validated, root
 * only) and the read-only mode switch /proc/sys/kernel/sched_smart_all.
 * A value out of range is refused with -EINVAL and the old one is kept.
 */
#include <linux/sysctl.h>
#include <linux/sched/smart.h>
#include <linux/mmu_context.h>
#include "../sched.h"

static const unsigned long smart_res_min = 100 * NSEC_PER_USEC;
static const unsigned long smart_res_max = 10 * NSEC_PER_MSEC;
static const unsigned long smart_quantum_min = NSEC_PER_MSEC;
static const unsigned long smart_one_sec = NSEC_PER_SEC;
static const unsigned long smart_ten_sec = 10 * NSEC_PER_SEC;
static const unsigned long smart_zero;

#define SMART_NS_SYSCTL(_name, _data, _min, _max)		\
	{							\
		.procname	= _name,			\
		.data		= _data,			\
		.maxlen		= sizeof(unsigned long),	\
		.mode		= 0644,				\
		.proc_handler	= proc_doulongvec_minmax,	\
		.extra1		= (void *)(_min),		\
		.extra2		= (void *)(_max),		\
	}

static struct ctl_table smart_sysctls[] = {
	SMART_NS_SYSCTL("quantum_ns", &smart_params.quantum_ns,
			&smart_quantum_min, &smart_one_sec),
	SMART_NS_SYSCTL("bias_step_ns", &smart_params.bias_step_ns,
			&smart_zero, &smart_one_sec),
	SMART_NS_SYSCTL("bias_max_ns", &smart_params.bias_max_ns,
			&smart_zero, &smart_ten_sec),
	SMART_NS_SYSCTL("sleep_credit_ns", &smart_params.sleep_credit_ns,
			&smart_zero, &smart_ten_sec),
	SMART_NS_SYSCTL("long_sleep_ns", &smart_params.long_sleep_ns,
			&smart_zero, &smart_one_sec),
	SMART_NS_SYSCTL("resolution_ns", &smart_resolution_ns,
			&smart_res_min, &smart_res_max),
	SMART_NS_SYSCTL("handoff_ns", &smart_handoff_ns,
			&smart_zero, &smart_res_max),
	{
		/* 0 or 1: implicit constraints for tasks without their own */
		.procname	= "infer",
		.data		= &smart_infer_on,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
};

static struct ctl_table smart_mode_sysctls[] = {
	{
		.procname	= "sched_smart_all",
		.data		= &sched_smart_all,
		.maxlen		= sizeof(bool),
		.mode		= 0444,
		.proc_handler	= proc_dobool,
	},
};

static int __init smart_sysctl_init(void)
{
	/* The tunables are u64 in the algorithm and unsigned long here. */
	BUILD_BUG_ON(sizeof(smart_params.quantum_ns) != sizeof(unsigned long));

	register_sysctl_init("kernel/smart", smart_sysctls);
	register_sysctl_init("kernel", smart_mode_sysctls);
	return 0;
}
late_initcall(smart_sysctl_init);
