// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_SMART tunables in /proc/sys/kernel/smart/: defaults, the valid
 * range of each, rejection of bad values (EINVAL, old value kept) and of
 * unprivileged writes.  Every test that writes restores the defaults.
 */
#include "../kselftest_harness.h"
#include "util.h"

static const struct knob {
	const char *name;
	unsigned long long dflt;
} knobs[] = {
	{ "resolution_ns",	DEF_RESOLUTION_NS },
	{ "quantum_ns",		DEF_QUANTUM_NS },
	{ "bias_step_ns",	DEF_BIAS_STEP_NS },
	{ "bias_max_ns",	DEF_BIAS_MAX_NS },
	{ "sleep_credit_ns",	DEF_SLEEP_CREDIT_NS },
	{ "handoff_ns",		DEF_HANDOFF_NS },
	{ "long_sleep_ns",	DEF_LONG_SLEEP_NS },
};

#define NKNOBS ARRAY_SIZE(knobs)

static void knob_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, SMART_SYSCTL_DIR "%s", name);
}

static void restore_defaults(struct __test_metadata *_metadata)
{
	char path[128], val[32];
	unsigned int i;
	int r;

	for (i = 0; i < NKNOBS; i++) {
		knob_path(path, sizeof(path), knobs[i].name);
		snprintf(val, sizeof(val), "%llu\n", knobs[i].dflt);
		r = write_str(path, val);
		if (r)
			TH_LOG("restoring %s=%llu failed: %s", knobs[i].name,
			       knobs[i].dflt, strerror(-r));
	}
}

TEST(defaults)
{
	char path[128];
	unsigned long long v;
	unsigned int i;

	REQUIRE_SMART();
	for (i = 0; i < NKNOBS; i++) {
		knob_path(path, sizeof(path), knobs[i].name);
		ASSERT_EQ(0, read_u64(path, &v)) {
			TH_LOG("cannot read %s", path);
		}
		EXPECT_EQ(knobs[i].dflt, v) {
			TH_LOG("%s: expected default %llu, read %llu",
			       knobs[i].name, knobs[i].dflt, v);
		}
	}
}

/* ------------------------------------------------------------------ */

FIXTURE(write) {};
FIXTURE_VARIANT(write) {
	const char *knob;
	const char *value;		/* written as is, in one write(2) */
	bool ok;
	unsigned long long expect;	/* read back when ok */
};

FIXTURE_SETUP(write)
{
	REQUIRE_SMART();
	REQUIRE_ROOT();
}

FIXTURE_TEARDOWN_PARENT(write)
{
	restore_defaults(_metadata);
}

#define WR_OK(id, k, v) FIXTURE_VARIANT_ADD(write, id) \
	{ .knob = k, .value = #v "\n", .ok = true, .expect = v##ULL }
#define WR_BAD(id, k, s) FIXTURE_VARIANT_ADD(write, id) \
	{ .knob = k, .value = s, .ok = false }

WR_OK(resolution_min,		"resolution_ns", 100000);
WR_OK(resolution_max,		"resolution_ns", 10000000);
WR_OK(resolution_mid,		"resolution_ns", 500000);
WR_BAD(resolution_below,		"resolution_ns", "99999\n");
WR_BAD(resolution_above,		"resolution_ns", "10000001\n");
WR_BAD(resolution_zero,		"resolution_ns", "0\n");
WR_BAD(resolution_negative,	"resolution_ns", "-1\n");
WR_BAD(resolution_garbage,	"resolution_ns", "abc\n");

WR_OK(handoff_zero,		"handoff_ns", 0);
WR_OK(handoff_max,		"handoff_ns", 10000000);
WR_BAD(handoff_above,		"handoff_ns", "10000001\n");
WR_BAD(handoff_negative,		"handoff_ns", "-1\n");

WR_OK(long_sleep_zero,		"long_sleep_ns", 0);
WR_OK(long_sleep_max,		"long_sleep_ns", 1000000000);
WR_BAD(long_sleep_above,		"long_sleep_ns", "1000000001\n");
WR_BAD(long_sleep_negative,	"long_sleep_ns", "-1\n");

WR_OK(quantum_min,		"quantum_ns", 1000000);
WR_OK(quantum_max,		"quantum_ns", 1000000000);
WR_OK(quantum_mid,		"quantum_ns", 20000000);
WR_BAD(quantum_below,		"quantum_ns", "999999\n");
WR_BAD(quantum_above,		"quantum_ns", "1000000001\n");
WR_BAD(quantum_zero,		"quantum_ns", "0\n");
WR_BAD(quantum_negative,		"quantum_ns", "-10000000\n");
WR_BAD(quantum_garbage,		"quantum_ns", "ten ms\n");
WR_BAD(quantum_trailing_junk,	"quantum_ns", "20000000abc\n");
WR_BAD(quantum_overflow,		"quantum_ns", "99999999999999999999999\n");

WR_OK(bias_step_zero,		"bias_step_ns", 0);
WR_OK(bias_step_max,		"bias_step_ns", 1000000000);
WR_BAD(bias_step_above,		"bias_step_ns", "1000000001\n");
WR_BAD(bias_step_negative,	"bias_step_ns", "-1\n");
WR_BAD(bias_step_garbage,	"bias_step_ns", "x\n");

WR_OK(bias_max_zero,		"bias_max_ns", 0);
WR_OK(bias_max_max,		"bias_max_ns", 10000000000);
WR_BAD(bias_max_above,		"bias_max_ns", "10000000001\n");
WR_BAD(bias_max_negative,	"bias_max_ns", "-100000000\n");
WR_BAD(bias_max_garbage,		"bias_max_ns", "1e8\n");

WR_OK(sleep_credit_zero,		"sleep_credit_ns", 0);
WR_OK(sleep_credit_max,		"sleep_credit_ns", 10000000000);
WR_BAD(sleep_credit_above,	"sleep_credit_ns", "10000000001\n");
WR_BAD(sleep_credit_negative,	"sleep_credit_ns", "-1\n");
WR_BAD(sleep_credit_garbage,	"sleep_credit_ns", "lots\n");
WR_BAD(sleep_credit_u64_max,	"sleep_credit_ns", "18446744073709551615\n");

TEST_F(write, value)
{
	unsigned long long before, after;
	char path[128];
	int r;

	knob_path(path, sizeof(path), variant->knob);
	ASSERT_EQ(0, read_u64(path, &before)) {
		TH_LOG("cannot read %s", path);
	}
	r = write_str(path, variant->value);
	ASSERT_EQ(0, read_u64(path, &after));

	if (variant->ok) {
		ASSERT_EQ(0, r) {
			TH_LOG("write %s <- %.*s: expected success, got %s", variant->knob,
			       (int)strcspn(variant->value, "\n"), variant->value,
			       strerror(-r));
		}
		EXPECT_EQ(variant->expect, after) {
			TH_LOG("%s: wrote %llu, read back %llu", variant->knob,
			       variant->expect, after);
		}
	} else {
		ASSERT_EQ(-EINVAL, r) {
			TH_LOG("write %s <- \"%.*s\": expected EINVAL, got %s", variant->knob,
			       (int)strcspn(variant->value, "\n"), variant->value,
			       r ? strerror(-r) : "success");
		}
		EXPECT_EQ(before, after) {
			TH_LOG("%s: rejected write changed %llu -> %llu", variant->knob,
			       before, after);
		}
	}
}

/* ------------------------------------------------------------------ */

static int unpriv_write_child(void *arg)
{
	char path[128];
	unsigned int i;
	int fails = 0, r;

	(void)arg;
	r = drop_to_nobody();
	CHK(r == 0, "drop to uid %d: %s", NOBODY_ID, strerror(-r));
	if (r)
		return fails;
	for (i = 0; i < NKNOBS; i++) {
		knob_path(path, sizeof(path), knobs[i].name);
		r = write_str(path, "5000000\n");
		CHK(r == -EACCES || r == -EPERM,
		    "unprivileged write %s: expected EACCES or EPERM, got %s",
		    knobs[i].name, r ? strerror(-r) : "success");
	}
	return fails;
}

TEST(unprivileged_write)
{
	unsigned long long before[NKNOBS], v;
	char path[128];
	unsigned int i;

	REQUIRE_SMART();
	REQUIRE_ROOT();
	restore_defaults(_metadata);
	for (i = 0; i < NKNOBS; i++) {
		knob_path(path, sizeof(path), knobs[i].name);
		ASSERT_EQ(0, read_u64(path, &before[i]));
	}
	ASSERT_CHILD_OK(run_child(unpriv_write_child, NULL));
	for (i = 0; i < NKNOBS; i++) {
		knob_path(path, sizeof(path), knobs[i].name);
		ASSERT_EQ(0, read_u64(path, &v));
		EXPECT_EQ(before[i], v) {
			TH_LOG("%s changed by an unprivileged write: %llu -> %llu",
			       knobs[i].name, before[i], v);
		}
	}
	restore_defaults(_metadata);
}

TEST_HARNESS_MAIN
