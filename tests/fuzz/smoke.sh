#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Run each named libFuzzer harness for SECONDS over its seeds:
#	smoke.sh SECONDS NAME...
# from the top of a build configured with CC=clang --enable-fuzz, with
# top_srcdir and CORPUS set (make fuzz-smoke does this).  The seeds are
# what tests/fuzz/replay_NAME --seeds lists; inputs the fuzzer finds go
# to fuzz-out/NAME (the seed directories are never written), a crash to
# fuzz-out/crash-NAME-*.  Exit 1 when a harness fails, naming the input
# to keep in tests/fuzz/regress/NAME.
# FUZZ_ARGS adds libFuzzer options.
set -u
secs=${1:?usage: smoke.sh SECONDS NAME...}
shift
mkdir -p fuzz-out
status=0
run_one() {
	name=$1
	out=fuzz-out/$name
	mkdir -p "$out"
	seeds=$(tests/fuzz/replay_"$name" --seeds) || return 1
	log=fuzz-out/$name.log
	# shellcheck disable=SC2086
	tests/fuzz/fuzz_"$name" -max_total_time="$secs" -max_len=16384 \
	    -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
	    -artifact_prefix="fuzz-out/crash-$name-" ${FUZZ_ARGS-} \
	    "$out" $seeds >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
	if [ "$rc" -ne 0 ]; then
		echo "fuzz-smoke: $name: FAILED (exit $rc), see $log:"
		grep -E 'ERROR|property failed|SUMMARY|Test unit written' \
		    "$log" | head -20
		return 1
	fi
	echo "fuzz-smoke: $name: ok, ${execs:-?} runs in ${secs} s" \
	    "(${rate:-?}/s), $cov"
}
for name in "$@"; do
	run_one "$name" || status=1
done
exit $status
