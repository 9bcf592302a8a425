# Sourced by the guest scripts of the bench (POSIX sh, busybox): one run of
# smartbench into one record.  Needs $out (the results directory, with raw/
# and logs/) and $fails (the count of failed runs, incremented here).
#
#   one NAME SMARTBENCH-ARGUMENTS...
#
# The record goes to $out/raw/NAME.json only if smartbench succeeded and
# wrote something; its stderr to $out/logs/NAME.err.
one() {
	name=$1; shift
	t0=$(cut -d' ' -f1 /proc/uptime)
	if smartbench "$@" >"$out/raw/$name.json.tmp" 2>"$out/logs/$name.err" &&
	   [ -s "$out/raw/$name.json.tmp" ]; then
		mv "$out/raw/$name.json.tmp" "$out/raw/$name.json"
		echo "# bench: $name ok ($(awk -v a="$t0" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN{printf "%.1f", b-a}') s)"
	else
		rm -f "$out/raw/$name.json.tmp"
		echo "# bench: $name FAILED: $(tail -1 "$out/logs/$name.err")"
		fails=$((fails + 1))
	fi
}
