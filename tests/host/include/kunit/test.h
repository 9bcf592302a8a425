/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host stand-in for <kunit/test.h>: just enough of the KUnit API for
 * kernel/sched/smart/tests/algo_kunit.c to build and run in user space
 * (tests/host/test_kunit.c), printing one TAP line per test case and
 * parameter.  Semantics follow the kernel's: KUNIT_EXPECT_* records a
 * failure and goes on, KUNIT_ASSERT_* ends the test case (here by
 * returning from the test function, which is where the suite uses them).
 *
 * Include tap.h before this file.
 */
#ifndef __SMART_HOST_KUNIT_TEST_H
#define __SMART_HOST_KUNIT_TEST_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/types.h>

#undef strscpy
static inline long strscpy(char *dst, const char *src, size_t size)
{
	size_t n = strlen(src);

	if (!size)
		return -E2BIG;
	if (n >= size) {
		memcpy(dst, src, size - 1);
		dst[size - 1] = '\0';
		return -E2BIG;
	}
	memcpy(dst, src, n + 1);
	return n;
}

#ifndef abs
#define abs(x) ({ typeof(x) __abs_x = (x); __abs_x < 0 ? -__abs_x : __abs_x; })
#endif
#ifndef MODULE_LICENSE
#define MODULE_LICENSE(x)
#endif
#ifndef MODULE_DESCRIPTION
#define MODULE_DESCRIPTION(x)
#endif

#define KUNIT_PARAM_DESC_SIZE	128
#define KUNIT_HOST_MAX_ALLOCS	64

struct kunit {
	const char *name;
	void *priv;
	const void *param_value;
	int checks;
	int failed;
	void *allocs[KUNIT_HOST_MAX_ALLOCS];
	int nr_allocs;
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
	const void *(*generate_params)(const void *prev, char *desc);
};

struct kunit_suite {
	const char name[256];
	int (*init)(struct kunit *test);
	void (*exit)(struct kunit *test);
	struct kunit_case *test_cases;
};

#define KUNIT_CASE(test_name) { .run_case = test_name, .name = #test_name }
#define KUNIT_CASE_PARAM(test_name, gen_params)				\
	{ .run_case = test_name, .name = #test_name,			\
	  .generate_params = gen_params }

/* As in the kernel. */
#define KUNIT_ARRAY_PARAM(name, array, get_desc)						\
	static const void *name##_gen_params(const void *prev, char *desc)			\
	{											\
		typeof((array)[0]) *__next = prev ? ((typeof(__next)) prev) + 1 : (array);	\
		if (__next - (array) < ARRAY_SIZE((array))) {					\
			void (*__get_desc)(typeof(__next), char *) = get_desc;			\
			if (__get_desc)								\
				__get_desc(__next, desc);					\
			return __next;								\
		}										\
		return NULL;									\
	}

#define kunit_test_suite(suite)						\
	static struct kunit_suite *const kunit_host_suite = &(suite)

static inline void *kunit_kzalloc(struct kunit *test, size_t size, gfp_t gfp)
{
	void *p;

	if (test->nr_allocs == KUNIT_HOST_MAX_ALLOCS)
		return NULL;
	p = calloc(1, size);
	if (p)
		test->allocs[test->nr_allocs++] = p;
	return p;
}

/* A failed check: say where, what was expected and what was seen. */
static inline void kunit_host_fail(struct kunit *test, const char *file, int line,
				   const char *what, const char *fmt, ...)
{
	va_list ap;

	test->failed++;
	printf("#   FAIL %s:%d: %s\n", file, line, what);
	if (fmt && fmt[0]) {
		printf("#        ");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
	}
}

#define KUNIT_HOST_CHECK(test, cond, is_assert, what_fmt, ...)		\
	do {								\
		char __what[512];					\
		(test)->checks++;					\
		if (cond)						\
			break;						\
		snprintf(__what, sizeof(__what), what_fmt, ##__VA_ARGS__); \
		kunit_host_fail(test, __FILE__, __LINE__, __what, NULL); \
		if (is_assert)						\
			return;						\
	} while (0)

#define KUNIT_HOST_BINARY(test, left, op, right, is_assert, fmt, ...)	\
	do {								\
		const typeof(left) __left = (left);			\
		const typeof(right) __right = (right);			\
		(test)->checks++;					\
		if (__left op __right)					\
			break;						\
		{							\
			char __what[512];				\
			snprintf(__what, sizeof(__what),		\
				 "expected %s %s %s, seen %lld (%#llx) %s %lld (%#llx)", \
				 #left, #op, #right,			\
				 (long long)__left, (unsigned long long)__left, #op, \
				 (long long)__right, (unsigned long long)__right); \
			kunit_host_fail(test, __FILE__, __LINE__, __what, fmt, ##__VA_ARGS__); \
		}							\
		if (is_assert)						\
			return;						\
	} while (0)

#define KUNIT_HOST_PTR(test, left, op, right, is_assert, fmt, ...)	\
	do {								\
		const void *__left = (left);				\
		const void *__right = (right);				\
		(test)->checks++;					\
		if (__left op __right)					\
			break;						\
		{							\
			char __what[512];				\
			snprintf(__what, sizeof(__what),		\
				 "expected %s %s %s, seen %p %s %p",	\
				 #left, #op, #right, __left, #op, __right); \
			kunit_host_fail(test, __FILE__, __LINE__, __what, fmt, ##__VA_ARGS__); \
		}							\
		if (is_assert)						\
			return;						\
	} while (0)

#define KUNIT_HOST_BOOL(test, cond, want, is_assert, fmt, ...)		\
	do {								\
		bool __c = !!(cond);					\
		(test)->checks++;					\
		if (__c == (want))					\
			break;						\
		kunit_host_fail(test, __FILE__, __LINE__,		\
				want ? "expected " #cond " to be true, seen false" \
				     : "expected " #cond " to be false, seen true", \
				fmt, ##__VA_ARGS__);			\
		if (is_assert)						\
			return;						\
	} while (0)

#define KUNIT_EXPECT_TRUE(t, c)			KUNIT_HOST_BOOL(t, c, true, 0, "")
#define KUNIT_EXPECT_TRUE_MSG(t, c, f, ...)	KUNIT_HOST_BOOL(t, c, true, 0, f, ##__VA_ARGS__)
#define KUNIT_EXPECT_FALSE(t, c)		KUNIT_HOST_BOOL(t, c, false, 0, "")
#define KUNIT_EXPECT_FALSE_MSG(t, c, f, ...)	KUNIT_HOST_BOOL(t, c, false, 0, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_TRUE(t, c)			KUNIT_HOST_BOOL(t, c, true, 1, "")
#define KUNIT_ASSERT_FALSE(t, c)		KUNIT_HOST_BOOL(t, c, false, 1, "")

#define KUNIT_EXPECT_EQ(t, l, r)		KUNIT_HOST_BINARY(t, l, ==, r, 0, "")
#define KUNIT_EXPECT_EQ_MSG(t, l, r, f, ...)	KUNIT_HOST_BINARY(t, l, ==, r, 0, f, ##__VA_ARGS__)
#define KUNIT_EXPECT_NE(t, l, r)		KUNIT_HOST_BINARY(t, l, !=, r, 0, "")
#define KUNIT_EXPECT_LT(t, l, r)		KUNIT_HOST_BINARY(t, l, <, r, 0, "")
#define KUNIT_EXPECT_LE(t, l, r)		KUNIT_HOST_BINARY(t, l, <=, r, 0, "")
#define KUNIT_EXPECT_LE_MSG(t, l, r, f, ...)	KUNIT_HOST_BINARY(t, l, <=, r, 0, f, ##__VA_ARGS__)
#define KUNIT_EXPECT_GT(t, l, r)		KUNIT_HOST_BINARY(t, l, >, r, 0, "")
#define KUNIT_EXPECT_GE(t, l, r)		KUNIT_HOST_BINARY(t, l, >=, r, 0, "")
#define KUNIT_ASSERT_EQ(t, l, r)		KUNIT_HOST_BINARY(t, l, ==, r, 1, "")
#define KUNIT_ASSERT_EQ_MSG(t, l, r, f, ...)	KUNIT_HOST_BINARY(t, l, ==, r, 1, f, ##__VA_ARGS__)

#define KUNIT_EXPECT_PTR_EQ(t, l, r)		KUNIT_HOST_PTR(t, l, ==, r, 0, "")
#define KUNIT_EXPECT_PTR_EQ_MSG(t, l, r, f, ...) KUNIT_HOST_PTR(t, l, ==, r, 0, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_PTR_EQ(t, l, r)		KUNIT_HOST_PTR(t, l, ==, r, 1, "")
#define KUNIT_ASSERT_PTR_EQ_MSG(t, l, r, f, ...) KUNIT_HOST_PTR(t, l, ==, r, 1, f, ##__VA_ARGS__)
#define KUNIT_EXPECT_NULL(t, p)			KUNIT_HOST_PTR(t, p, ==, NULL, 0, "")
#define KUNIT_EXPECT_NOT_NULL(t, p)		KUNIT_HOST_PTR(t, p, !=, NULL, 0, "")
#define KUNIT_ASSERT_NOT_NULL(t, p)		KUNIT_HOST_PTR(t, p, !=, NULL, 1, "")

/* Run one case (one parameter) and print its TAP line. */
static inline void kunit_host_run_one(struct kunit_suite *suite,
				      struct kunit_case *c, const void *param,
				      const char *desc)
{
	struct kunit test = { .name = c->name, .param_value = param };
	char name[512];
	int i;

	snprintf(name, sizeof(name), "%s.%s%s%s%s", suite->name, c->name,
		 desc ? " [" : "", desc ? desc : "", desc ? "]" : "");
	if (suite->init && suite->init(&test)) {
		tap_ok(false, name, "expected the suite's init to succeed, seen an error");
		return;
	}
	c->run_case(&test);
	if (suite->exit)
		suite->exit(&test);
	for (i = 0; i < test.nr_allocs; i++)
		free(test.allocs[i]);
	tap_ok(!test.failed, name, "expected all %d checks to hold, seen %d failed",
	       test.checks, test.failed);
}

static inline int kunit_host_run(struct kunit_suite *suite)
{
	struct kunit_case *c;

	tap_diag("KUnit suite '%s' on the host", suite->name);
	for (c = suite->test_cases; c->run_case; c++) {
		const void *param = NULL;
		char desc[KUNIT_PARAM_DESC_SIZE];

		if (!c->generate_params) {
			kunit_host_run_one(suite, c, NULL, NULL);
			continue;
		}
		desc[0] = '\0';
		while ((param = c->generate_params(param, desc))) {
			kunit_host_run_one(suite, c, param, desc);
			desc[0] = '\0';
		}
	}
	return tap_done();
}

#endif /* __SMART_HOST_KUNIT_TEST_H */
