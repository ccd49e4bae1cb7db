#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Run libFuzzer harnesses over their seeds, in one of two modes:
#	smoke.sh --smoke SECONDS NAME...	(make fuzz-smoke)
#	smoke.sh --explore SECONDS NAME...	(make fuzz-explore)
# from the top of a build configured with CC=clang --enable-fuzz, with
# top_srcdir and CORPUS set (make does this).  The seeds are what
# tests/fuzz/replay_NAME --seeds lists (the kept inputs of
# tests/fuzz/regress/NAME first); the seed directories are never
# written.
#
# --smoke is a test: the same runs every time.  Each harness replays
# its seeds, then explores from a fixed seed (FUZZ_SEED, 1 unless set)
# for a fixed number of runs, sized to take about SECONDS on a machine
# of two cores (the rates below, measured there), starting from an
# empty corpus of its own (fuzz-out/smoke-NAME, emptied first): a run
# count, not a time, so that a faster or a busier machine explores the
# same inputs.  Without address randomization (setarch -R, where it
# exists) and without rereading the corpus, the runs are the same;
# only a harness's own threads (the stream's) may still make its
# coverage, hence the inputs it keeps, vary a little.
#
# --explore is open-ended fuzzing: SECONDS each, a new random seed
# every run (libFuzzer prints it: "INFO: Seed: N"; FUZZ_SEED sets it),
# the inputs found kept in fuzz-out/NAME from run to run.
#
# A crash goes to fuzz-out/crash-NAME-*, a log to fuzz-out/NAME.log
# (smoke-NAME.log).  Exit 1 when a harness fails, naming the input to
# keep in tests/fuzz/regress/NAME.  FUZZ_ARGS adds libFuzzer options.
set -u
mode=${1:?usage: smoke.sh --smoke|--explore SECONDS NAME...}
case $mode in
--smoke | --explore) shift ;;
*) echo "usage: smoke.sh --smoke|--explore SECONDS NAME..." >&2; exit 2 ;;
esac
secs=${1:?usage: smoke.sh --smoke|--explore SECONDS NAME...}
shift
mkdir -p fuzz-out
status=0
norand=
if setarch -R true 2>/dev/null; then
	norand='setarch -R'
fi

# Runs per second of each harness, explored from its seeds with
# -seed=1 (an ASan and UBSan build, on two cores shared with other
# work); a harness not listed: 200.
rate() {
	case $1 in
	fen) echo 500 ;;
	san) echo 400 ;;
	epd) echo 120 ;;
	pgn_lex) echo 700 ;;
	pgn) echo 90 ;;
	pgc) echo 450 ;;
	json) echo 550 ;;
	stream) echo 250 ;;
	pgn_frame) echo 850 ;;
	openings) echo 200 ;;
	*) echo 200 ;;
	esac
}

run_one() {
	name=$1
	seeds=$(tests/fuzz/replay_"$name" --seeds) || return 1
	if [ "$mode" = --smoke ]; then
		out=fuzz-out/smoke-$name
		log=fuzz-out/smoke-$name.log
		rm -rf "$out"
		# (the seeds' files, replayed first, then the exploration)
		# shellcheck disable=SC2086
		nseeds=$(find $seeds -type f 2>/dev/null | wc -l)
		runs=$((nseeds + $(rate "$name") * secs))
		# (a bound on time only against a hang: 30 times the
		# time expected)
		# (-reload=0: the corpus is not read again at times;
		# setarch -R below: the same addresses, where code goes
		# by the alignment of a buffer)
		limit="-seed=${FUZZ_SEED:-1} -runs=$runs -reload=0
		    -max_total_time=$((30 * secs + 60))"
		ra=$norand
	else
		out=fuzz-out/$name
		log=fuzz-out/$name.log
		limit="-max_total_time=$secs"
		ra=
		[ -n "${FUZZ_SEED-}" ] && limit="$limit -seed=$FUZZ_SEED"
	fi
	mkdir -p "$out"
	# shellcheck disable=SC2086
	$ra tests/fuzz/fuzz_"$name" $limit -max_len=16384 \
	    -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
	    -artifact_prefix="fuzz-out/crash-$name-" ${FUZZ_ARGS-} \
	    "$out" $seeds >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	seed=$(sed -n 's/^INFO: Seed: *//p' "$log" | head -1)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
	if [ "$rc" -ne 0 ]; then
		echo "fuzz-${mode#--}: $name: FAILED (exit $rc, seed" \
		    "${seed:-?}), see $log:"
		grep -E 'ERROR|property failed|SUMMARY|Test unit written' \
		    "$log" | head -20
		return 1
	fi
	echo "fuzz-${mode#--}: $name: ok, ${execs:-?} runs (${rate:-?}/s)," \
	    "seed ${seed:-?}, $cov"
}
for name in "$@"; do
	run_one "$name" || status=1
done
exit $status
