# SPDX-License-Identifier: BSD-2-Clause
# tests/outputs-lib.sh: what the class tests of the output promises
# (cli-output-class.sh, cli-output-signals.sh) share.  Sourced after
# tests/testlib.sh, with $tooldir set.  Every tool comes from the build
# (built_tools) and every file option from the tool's own --help, so a
# new tool or option is covered the day it is added:
# - tool_setup TOOL: $kind (pgn, epd or pgc: its input, tool_kind of
#   tests/testlib.sh) and $args (what makes the tool do its job: -q
#   and any option it needs); a tool tool_kind lacks FAILS (add it
#   there);
# - file_options TOOL: every option --help shows as --NAME=FILE, one a
#   line (-o as --output);
# - inputs KIND: $T/in.KIND (a few games or lines, with a game or line
#   the tools reject) and $T/big.KIND (more than 64 KiB of output for
#   every tool: written during the run, not only at its end);
# - classify TOOL OPTION: "output" when the option naming a new file
#   makes it, "input" when the run fails (exit 2) and makes none, else
#   a failure ("cannot tell").

tool_setup() {
	kind=$(tool_kind "$1")
	case $kind/$1 in
	none/*)
		fail "$1: not in tool_kind of tests/testlib.sh (the input" \
		    "kind of every tool): add it"
		return 1 ;;
	*/chess-perft) args="-q -d 1" ;;
	*/epd-validate) args="-q -n" ;;
	*/pgn-split) args="-q -l 100000 -d split" ;;
	*) args="-q" ;;
	esac
	return 0
}

file_options() {
	"$tooldir/$1" --help | grep -o -- '--[a-z][a-z-]*=FILE' |
	    sed 's/=FILE$//; s/^--//' | sort -u
}

inputs() {
	[ -f "$T/in.$1" ] && return 0
	case $1 in
	pgn)
		{ cat "$top_srcdir/tests/files/sample.pgn"
		  echo
		  cat "$top_srcdir/tests/files/sample.pgn"
		  printf '\n[Event "bad"]\n\n1. e5 *\n\n'; } >"$T/in.pgn" ;;
	epd)
		{ grep -v '^#' "$top_srcdir/tests/files/perft-standard.epd" |
		    head -3
		  echo 'rnbqkbnr/pppppppp/8/8 w KQkq -'; } >"$T/in.epd" ;;
	pgc)
		inputs pgn
		"$tooldir/pgn2pgc" -q -o "$T/in.pgc" "$T/in.pgn" 2>/dev/null
		[ -s "$T/in.pgc" ] || fail "pgn2pgc made no PGC input" ;;
	esac
	i=0
	while [ $i -lt 60 ]; do
		cat "$T/in.$1"
		i=$((i + 1))
	done >"$T/big.$1"
}

classify() {
	rm -f "$T/probe.new"
	# shellcheck disable=SC2086
	"$tooldir/$1" $args --"$2"="$T/probe.new" "$T/in.$kind" \
	    >/dev/null 2>&1 </dev/null
	rc=$?
	if [ -e "$T/probe.new" ] && [ $rc -le 1 ]; then
		echo output
	elif [ ! -e "$T/probe.new" ] && [ $rc -eq 2 ]; then
		echo input
	else
		echo "cannot tell (exit $rc)"
	fi
	rm -f "$T/probe.new"
}
