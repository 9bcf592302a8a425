# shellcheck shell=bash
# Common settings for the SMART build/boot/test scripts. Source it, don't run it.
# Every path can be overridden from the environment.

SMART_REPO=${SMART_REPO:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
SMART_BUILD=${SMART_BUILD:-$SMART_REPO/build}
SMART_TARBALL=${SMART_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
SMART_TARBALL_TOP=${SMART_TARBALL_TOP:-linux-source-6.12}
# pristine unpack (never modified) and the working tree (overlay + patches)
SMART_PRISTINE=$SMART_BUILD/pristine/$SMART_TARBALL_TOP
SMART_SRC=${SMART_SRC:-$SMART_BUILD/linux}
SMART_STATE=$SMART_BUILD/state
SMART_CONFIG=${SMART_CONFIG:-${CONFIG:-test}}
SMART_OBJ=${SMART_OBJ:-$SMART_BUILD/obj-$SMART_CONFIG}
SMART_LOGS=$SMART_BUILD/logs
SMART_INITRAMFS=${SMART_INITRAMFS:-$SMART_BUILD/initramfs.cpio}
SMART_ARCH=x86_64
SMART_JOBS=${SMART_JOBS:-$(nproc)}

# ccache lives outside the clone so fresh CI clones on this machine stay warm;
# base_dir makes hits independent of where the clone is.
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/smart-ccache}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$SMART_BUILD}
export CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
export KBUILD_BUILD_USER=smart KBUILD_BUILD_HOST=smart-build

smart_log()  { printf '%s\n' "[$(basename "$0")] $*" >&2; }
smart_die()  { printf '%s\n' "[$(basename "$0")] ERROR: $*" >&2; exit 1; }

smart_kmake() {
	local cc=gcc
	command -v ccache >/dev/null 2>&1 && cc="ccache gcc"
	make -C "$SMART_SRC" O="$SMART_OBJ" ARCH=$SMART_ARCH CC="$cc" HOSTCC="$cc" \
		-j"$SMART_JOBS" "$@"
}

# TAP for the check scripts (check-patches, deb-test): set SMART_TAP_PREFIX,
# call smart_tap ok|fail DESCRIPTION per check and smart_tap_finish at the end
# (prints the plan, exits 1 if a check failed).
smart_tap_n=0 smart_tap_bad=0
smart_tap() {
	smart_tap_n=$((smart_tap_n + 1))
	if [ "$1" = ok ]; then
		echo "ok $smart_tap_n - ${SMART_TAP_PREFIX:-}$2"
	else
		echo "not ok $smart_tap_n - ${SMART_TAP_PREFIX:-}$2"
		smart_tap_bad=$((smart_tap_bad + 1))
	fi
}
smart_tap_finish() { echo "1..$smart_tap_n"; exit $((smart_tap_bad > 0)); }

# (re)build the test initramfs ($SMART_INITRAMFS) when it is missing or
# older than its inputs
smart_initramfs_fresh() {
	if [ ! -f "$SMART_INITRAMFS" ] || [ "$SMART_REPO/scripts/initramfs/init" -nt "$SMART_INITRAMFS" ] ||
	   [ "$SMART_REPO/scripts/mkinitramfs" -nt "$SMART_INITRAMFS" ]; then
		"$SMART_REPO/scripts/mkinitramfs" >&2
	fi
}
