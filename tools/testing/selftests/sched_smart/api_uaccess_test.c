// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART user API: the user memory smart_getattr() and smart_setattr()
 * access.  smart_getattr() rejects sizes below SMART_ATTR_SIZE_VER0 and
 * non-zero flags, and writes nothing past the size it was given or past its
 * own struct; a bad pointer is EFAULT for both calls and changes nothing.
 *
 * Every test SKIPs when the kernel has no SCHED_SMART.
 */
#include "../kselftest_harness.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* smart_getattr sizes and flags                                       */

TEST(getattr_sizes)
{
	unsigned char buf[256] __attribute__((aligned(8)));
	struct smart_attr *a = (void *)buf, ref;
	unsigned int bad[] = { 0, 1, 8, SMART_ATTR_SIZE_VER0 - 1 };
	unsigned int i, ks;

	REQUIRE_SMART();
	ASSERT_EQ(0, smart_get(0, &ref));

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		memset(buf, 0xa5, sizeof(buf));
		ASSERT_EQ(-1, smart_getattr(0, buf, bad[i], 0)) {
			TH_LOG("getattr size %u: expected EINVAL, got success", bad[i]);
		}
		ASSERT_EQ(EINVAL, errno) {
			TH_LOG("getattr size %u: expected EINVAL, got %s", bad[i], strerror(errno));
		}
	}

	/* exactly VER0: nothing written past it */
	memset(buf, 0xa5, sizeof(buf));
	ASSERT_EQ(0, smart_getattr(0, buf, SMART_ATTR_SIZE_VER0, 0)) {
		TH_LOG("getattr size VER0: %s", strerror(errno));
	}
	EXPECT_EQ((__u32)SMART_ATTR_SIZE_VER0, a->size);
	EXPECT_EQ(ref.priority, a->priority);
	EXPECT_EQ(ref.share, a->share);
	for (i = SMART_ATTR_SIZE_VER0; i < sizeof(buf); i++) {
		ASSERT_EQ(0xa5, buf[i]) {
			TH_LOG("getattr size %u wrote byte %u (0x%02x)",
			       SMART_ATTR_SIZE_VER0, i, buf[i]);
		}
	}

	/* larger than the kernel's struct: nothing written past what it copied */
	memset(buf, 0xa5, sizeof(buf));
	ASSERT_EQ(0, smart_getattr(0, buf, sizeof(buf), 0)) {
		TH_LOG("getattr size %zu: %s", sizeof(buf), strerror(errno));
	}
	ks = a->size;
	TH_LOG("kernel struct smart_attr size: %u", ks);
	ASSERT_TRUE(ks >= SMART_ATTR_SIZE_VER0 && ks <= sizeof(buf)) {
		TH_LOG("getattr size %zu reported size %u, expected %u..%zu",
		       sizeof(buf), ks, SMART_ATTR_SIZE_VER0, sizeof(buf));
	}
	EXPECT_EQ(ref.priority, a->priority);
	EXPECT_EQ(ref.share, a->share);
	for (i = ks; i < sizeof(buf); i++) {
		ASSERT_EQ(0xa5, buf[i]) {
			TH_LOG("getattr size %zu (kernel %u) wrote byte %u (0x%02x)",
			       sizeof(buf), ks, i, buf[i]);
		}
	}

	/* flags must be 0 */
	ASSERT_EQ(-1, smart_getattr(0, buf, sizeof(struct smart_attr), 1));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(-1, smart_getattr(0, buf, sizeof(struct smart_attr), 0x80000000u));
	ASSERT_EQ(EINVAL, errno);
}

/* ------------------------------------------------------------------ */
/* EFAULT                                                              */

/* one call with a bad pointer: expect -1/EFAULT */
#define EXPECT_EFAULT(call, what) do {					\
	int __r = (call), __e = errno;					\
	EXPECT_TRUE(__r == -1 && __e == EFAULT) {			\
		TH_LOG("%s: expected EFAULT, got %s", what,		\
		       __r ? strerror(__e) : "success");		\
	}								\
} while (0)

TEST(bad_pointers)
{
	long pg = sysconf(_SC_PAGESIZE);
	struct smart_attr before, after, *edge;
	unsigned char *m;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	ASSERT_EQ(0, smart_set(0, SMART_ATTR_PRIORITY | SMART_ATTR_SHARE, -2, 600));
	ASSERT_EQ(0, smart_get(0, &before));

	/* page 0 read-write, page 1 inaccessible */
	m = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, m);
	ASSERT_EQ(0, mprotect(m + pg, pg, PROT_NONE));
	/* a struct whose size/mask are readable but whose body faults */
	edge = (void *)(m + pg - 8);
	edge->size = sizeof(*edge);
	edge->mask = SMART_ATTR_PRIORITY;

	EXPECT_EFAULT(smart_setattr(0, NULL, 0), "setattr(NULL)");
	EXPECT_EFAULT(smart_setattr(0, (void *)1, 0), "setattr((void *)1)");
	EXPECT_EFAULT(smart_setattr(0, m + pg, 0), "setattr(PROT_NONE page)");
	EXPECT_EFAULT(smart_setattr(0, edge, 0),
		      "setattr(struct straddling into a PROT_NONE page)");
	ASSERT_EQ(0, smart_get(0, &after));
	EXPECT_TRUE(smart_attr_same(&before, &after)) {
		TH_LOG("faulting setattr changed attributes: " ATTR_FMT " -> " ATTR_FMT,
		       ATTR_ARG(before), ATTR_ARG(after));
	}

	EXPECT_EFAULT(smart_getattr(0, NULL, sizeof(after), 0), "getattr(NULL)");
	EXPECT_EFAULT(smart_getattr(0, (void *)1, sizeof(after), 0), "getattr((void *)1)");
	EXPECT_EFAULT(smart_getattr(0, m + pg, sizeof(after), 0), "getattr(PROT_NONE page)");
	EXPECT_EFAULT(smart_getattr(0, edge, sizeof(after), 0),
		      "getattr(buffer straddling into a PROT_NONE page)");
	ASSERT_EQ(0, mprotect(m, pg, PROT_READ));
	EXPECT_EFAULT(smart_getattr(0, m, sizeof(after), 0), "getattr(read-only page)");
	munmap(m, 2 * pg);
}

TEST_HARNESS_MAIN
