# SPDX-License-Identifier: BSD-2-Clause
# tests/testlib.sh: what every shell test shares: the tests report
# every failure and go on.  Sourced after `set -u`, with top_srcdir and
# top_builddir in the environment (make check sets them) and NAME set
# to a word for the temporary directory.  Sets F (test inputs), E
# (expected outputs), T (a temporary directory removed on exit) and
# status (0 until a failure); defines fail, fatal, skip, finish and
# expect.  Every shell test reports a failure through these, not with
# lines of its own.
: "${top_srcdir:?}" "${top_builddir:?}" "${NAME:?}"
F="$top_srcdir/tests/files"
E="$top_srcdir/tests/expected"
T=$(mktemp -d "${TMPDIR:-/tmp}/$NAME.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
status=0

# fail MESSAGE: report; the test goes on and exits 1 at the end (exit
# $status, or finish).  The failure is kept in $T/failed too, so that
# one in a subshell (a pipeline's loop, $(...)) counts for finish.
fail() {
	echo "FAIL: $*" >&2
	status=1
	echo "$*" >>"$T/failed"
}

# fatal MESSAGE: report and exit 1 at once, for a test that cannot go
# on (a build product or a step every later check needs is missing)
fatal() {
	echo "FAIL: $*" >&2
	exit 1
}

# skip MESSAGE: report why and exit 77 (the test is skipped)
skip() {
	echo "SKIP: $*"
	exit 77
}

# finish: the test's exit: 1 if fail was called, in this shell or in a
# subshell, else 0
finish() {
	[ "$status" -eq 0 ] && [ ! -e "$T/failed" ] || exit 1
	exit 0
}

# expect STATUS COMMAND...: run (output in $T/out and $T/err), compare
# the exit status
expect() {
	want=$1
	shift
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq "$want" ] || { fail "exit $rc, expected $want: $*"; cat "$T/err" >&2; }
}

# built_tools: the name of every program the build installs (make
# check passes bin_PROGRAMS as $bin_programs), one a line, so that a
# test over all tools covers a new one the day it is added
built_tools() {
	for p in ${bin_programs:?}; do
		p=${p##*/}
		echo "${p%.exe}"
	done
}

# tool_kind TOOL: the kind of input the tool reads (pgn, epd or pgc),
# for the class tests that run every tool of the build; a tool missing
# here prints "none", and those tests FAIL on it: add a new tool here
tool_kind() {
	case $1 in
	pgn-regularize | pgn-sort | pgn-select | pgn-dedup | pgn2json | \
	    pgn2tsv | pgn-split | pgn2epd | pgn2pgc | pgn-tree)
		echo pgn ;;
	epd-validate | chess-perft) echo epd ;;
	pgc2pgn) echo pgc ;;
	*) echo none ;;
	esac
}

# corpus_head MB FILE: the games of the xz archive FILE (of the shared
# corpus) from its start up to the first Event tag line past MB
# megabytes (of 10^6 bytes): whole games, the file cut at a game's
# start; MB 0: the whole file.  The corpus tests take such a prefix
# where a few MB prove what the whole file would, CORPUS_MB=N (0: the
# whole files) giving another size.
corpus_head() {
	if [ "$1" -eq 0 ]; then
		xz -dc "$2"
	else
		xz -dc "$2" | awk -v max=$(($1 * 1000000)) \
		    '/^\[Event / && n > max { exit } { n += length($0) + 1; print }'
	fi
}
