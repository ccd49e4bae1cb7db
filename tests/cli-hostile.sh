#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-hostile.sh: hostile inputs for every tool: a 100 MB line,
# 1,000,000 nested variations (and as many open parentheses), a comment
# never closed (before another game, and 10 MB of it to the end), 100,000
# tags in one game (distinct, and one name repeated), a 10 MB tag value,
# NUL and other control bytes, invalid UTF-8, a file that is not PGN
# (random bytes, plain text), a truncated file, and PGC that is random,
# all zero, truncated or PGN text.
#
# Every run must end within a time limit (timeout), within a memory
# limit (ulimit -v; not under the sanitizers, which reserve huge
# address space), with the expected exit status (never a signal), with
# every line on standard error in the form "prog: ...", and with a
# message when the input has a fault.  Tools that can reject must
# account for every game (--stats: read = written + rejected), and
# pgn-regularize's output must be a fixed point of pgn-regularize.
#
# The inputs are made here, in $TMPDIR, never committed.  A failing
# input is kept in $top_builddir/hostile-failed/ to replay.
#
# KNOWN_BUGS lists "case:tool" pairs reported in the bug list and not
# fixed yet: they print XFAIL instead of failing, and fail as XPASS
# once they pass (then remove them from the list).
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"
B="$tooldir"
NAME=hostile
. "$top_srcdir/tests/testlib.sh"
ran=0

KNOWN_BUGS="${KNOWN_BUGS-}"

# Sanitizer builds: no address-space limit, more time, and a sanitizer
# report must not pass for a rejected game's exit 1.
# The sizes are divided by 10 there (the full sizes run in the plain
# build; memory errors show at the smaller ones too).
if grep -q '^SAN_CFLAGS = .*-fsanitize=' "$top_builddir/Makefile" \
    2>/dev/null; then
	sanitized=1
	div=10
	TL=600
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86"
	UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=87"
	export ASAN_OPTIONS UBSAN_OPTIONS
else
	sanitized=0
	div=1
	TL=60
fi

have() {
	[ -x "$B/$1" ] && return 0
	echo "SKIP: $1 is not built"
	return 1
}

# keep CASE TOOL: save the input of a failed case
keep() {
	mkdir -p "$top_builddir/hostile-failed"
	cp "$T/in.$1" "$top_builddir/hostile-failed/$1.$2" 2>/dev/null
	echo "  input kept in $top_builddir/hostile-failed/$1.$2" >&2
}

# check CASE TOOL MEM_MB SECONDS EXITS MSG ARGS...: run TOOL on
# $T/in.CASE with ARGS; its exit status must be one of EXITS (a list
# like "0 1"), and, when MSG is not empty, standard error must match
# the extended regular expression MSG.
check() {
	c=$1 tool=$2 mem=$3 secs=$4 exits=$5 msg=$6
	shift 6
	have "$tool" || return 0
	ran=$((ran + 1))
	err=""
	if [ "$sanitized" -eq 1 ]; then
		timeout "$TL" "$B/$tool" "$@" "$T/in.$c" >"$T/out" 2>"$T/err"
		rc=$?
	else
		# pgn-sort takes its whole buffer (-S, 256 MiB) at the start
		[ "$tool" = pgn-sort ] && mem=$((mem + 320))
		(ulimit -v $((mem * 1024)) &&
		    exec timeout "$secs" "$B/$tool" "$@" "$T/in.$c") \
		    >"$T/out" 2>"$T/err"
		rc=$?
	fi
	case " $exits " in
	*" $rc "*) ;;
	*)	if [ "$rc" -eq 124 ]; then
			err="no end within $secs s"
		elif [ "$rc" -gt 124 ]; then
			err="exit $rc (killed by a signal?)"
		else
			err="exit $rc, expected one of: $exits"
		fi ;;
	esac
	if [ -z "$err" ] && grep -v -e "^$tool: " -e "^Try '$tool --help'" \
	    "$T/err" >"$T/badlines"; then
		err="stderr lines not of the form '$tool: ...': $(head -c 300 \
		    "$T/badlines")"
	fi
	if [ -z "$err" ] && [ -n "$msg" ] && ! grep -Eq "$msg" "$T/err"; then
		err="no message matching /$msg/ (stderr: $(head -c 200 \
		    "$T/err"))"
	fi
	if [ -z "$err" ] && [ "$rc" -ne 124 ]; then
		account "$tool" || err="$acct"
	fi
	case " $(echo $KNOWN_BUGS) " in
	*" $c:$tool "*)
		if [ -n "$err" ]; then
			echo "XFAIL: $c: $tool: $err (known bug)"
		elif [ "$sanitized" -eq 1 ]; then
			# (time limits do not hold under the sanitizers)
			echo "XPASS: $c: $tool (sanitizer build: not enforced)"
		else
			fail "$c: $tool: XPASS: passes now, remove" \
			    "'$c:$tool' from KNOWN_BUGS"
		fi
		return 0 ;;
	esac
	if [ -n "$err" ]; then
		fail "$c: $tool $*: $err"
		head -c 600 "$T/err" >&2
		keep "$c" "$tool"
	else
		echo "ok: $c: $tool (exit $rc)"
	fi
}

# account TOOL: games read = written + rejected in the --stats line, if
# the run printed one; sets $acct on failure.
account() {
	acct=""
	line=$(grep -E "^$1: [0-9]+ [a-z]+ read" "$T/err" | tail -n 1)
	[ -n "$line" ] || return 0
	set -- $(echo "$line" | sed -E 's/.* ([0-9]+) [a-z]+ read, ([0-9]+) written, ([0-9]+) rejected.*/\1 \2 \3/')
	if [ "$#" -ne 3 ] || [ "$1" -ne $(($2 + $3)) ]; then
		acct="games lost: $line"
		return 1
	fi
	return 0
}

# Options of a tool: --stats and --rejects where it has them.
opts() {
	"$B/$1" --help >"$T/help" 2>/dev/null
	o=""
	grep -q -- '--stats' "$T/help" && o="--stats"
	grep -q -- '--rejects' "$T/help" && o="$o --rejects=$T/rej"
	echo "$o"
}

PGN_TOOLS="pgn-regularize pgn-sort pgn2pgc pgn2epd"
PARSERS="pgn-regularize pgn2pgc pgn2epd"

# pgn CASE MEM SECS EXITS-PARSERS EXITS-SORT MSG-PARSERS: every PGN tool
# on in.CASE (pgn-sort reads without parsing: no message asked of it).
pgn() {
	# (sh has no local variables: none of check's names here)
	p_c=$1 p_mem=$2 p_secs=$3 p_ep=$4 p_es=$5 p_msg=$6
	for p_tool in $PGN_TOOLS; do
		have "$p_tool" || continue
		rm -f "$T/rej"
		if [ "$p_tool" = pgn-sort ]; then
			check "$p_c" "$p_tool" "$p_mem" "$p_secs" "$p_es" "" \
			    $(opts "$p_tool")
		else
			check "$p_c" "$p_tool" "$p_mem" "$p_secs" "$p_ep" \
			    "$p_msg" $(opts "$p_tool")
		fi
		if [ "$p_tool" = pgn-regularize ] && [ -s "$T/out" ]; then
			mv "$T/out" "$T/out1"
			"$B/pgn-regularize" "$T/out1" >"$T/out2" 2>"$T/err2"
			rc=$?
			[ "$rc" -eq 0 ] && cmp -s "$T/out1" "$T/out2" ||
			    fail "$p_c: pgn-regularize output is not a fixed" \
			    "point (exit $rc)"
			rm -f "$T/out1" "$T/out2"
		fi
	done
}

# A 100 MB line: a comment of 100 MB in one game.
{
	printf '[Event "long line"]\n\n1. e4 { '
	yes abcdefg | head -c $((100000000 / div)) | tr '\n' ' '
	printf '} e5 1-0\n'
} >"$T/in.line100m"
# (over 64 MiB, the most of one game, the game is rejected: too large)
if [ $((100000000 / div)) -gt 67108864 ]; then
	big="1" bigmsg="game 1: game too large"
else
	big="0" bigmsg=""
fi
pgn line100m 1024 "$TL" "$big" "$big" "$bigmsg"
# one game larger than pgn-sort's buffer
check line100m pgn-sort 1024 "$TL" "$big" "$bigmsg" -S 16M --stats
rm -f "$T/in.line100m"

# 1,000,000 nested variations, each a legal move; then as many "(" with
# no move inside (an error).
{
	printf '[Event "deep"]\n\n1. e4 '
	yes '( 1. d4' | head -n $((1000000 / div)) | tr '\n' ' '
	yes ')' | head -n $((1000000 / div)) | tr -d '\n'
	printf ' 1-0\n'
} >"$T/in.nested"
pgn nested 2048 "$TL" "0" "0" ""
rm -f "$T/in.nested"
{
	printf '[Event "open"]\n\n1. e4 '
	yes '(' | head -n $((1000000 / div)) | tr -d '\n'
	printf ' e5 1-0\n'
} >"$T/in.parens"
pgn parens 512 "$TL" "1" "0" "game 1: .*variation"

# A comment never closed, before a good game; and 10 MB of one to the
# end of the file.
printf '[Event "a"]\n\n1. e4 { never closed e5 1-0\n\n[Event "b"]\n\n1. d4 d5 1-0\n' \
    >"$T/in.unclosed"
pgn unclosed 256 "$TL" "1" "0" "game 1: .*never closed"
{
	printf '[Event "a"]\n\n1. e4 { '
	yes 'word' | head -c $((10000000 / div))
} >"$T/in.unclosed10m"
pgn unclosed10m 512 "$TL" "1" "0" "game 1: .*never closed"

# 100,000 tags in one game: distinct names (5 s is ample for a linear
# reader: it takes a fraction of a second); one name repeated.
{
	printf '[Event "many tags"]\n'
	awk -v n=$((100000 / div)) 'BEGIN { for (i = 0; i < n; i++)
		printf "[T%06d \"v%d\"]\n", i, i }'
	printf '\n1. e4 e5 1-0\n'
} >"$T/in.tags100k"
pgn tags100k 512 5 "0" "0" ""
{
	printf '[Event "one name"]\n'
	awk -v n=$((100000 / div)) 'BEGIN { for (i = 0; i < n; i++)
		printf "[Same \"v%d\"]\n", i }'
	printf '\n1. e4 e5 1-0\n'
} >"$T/in.tagsame"
pgn tagsame 512 5 "0" "0" ""

# 200,000 tags in one game, their names in descending order (an
# insertion sort of the names, as the writer had, is quadratic: 20 s
# for these; the names ascending, as above, hide that): every tool that
# writes or selects games within 10 s (in a fraction of it, linear).
{
	printf '[Event "many tags, backwards"]\n'
	awk -v n=$((200000 / div)) 'BEGIN { for (i = n; i > 0; i--)
		printf "[T%06d \"v%d\"]\n", i, i }'
	printf '\n1. e4 e5 1-0\n'
} >"$T/in.tagsdown"
for t_tool in pgn-regularize pgn2json pgn2pgc pgn2tsv pgn-select pgn2epd \
    pgn-sort; do
	# (pgn-sort: its buffer of 256 MiB on top)
	check tagsdown "$t_tool" 512 10 "0" ""
done
rm -f "$T/in.tagsdown"

# A tag value of 10 MB (PGC cannot hold it: pgn2pgc rejects the game).
{
	printf '[Event "'
	yes v | head -n $((10000000 / div)) | tr -d '\n'
	printf '"]\n\n1. e4 e5 1-0\n'
} >"$T/in.bigtag"
PGN_TOOLS="pgn-regularize pgn-sort pgn2epd" pgn bigtag 512 "$TL" "0" "0" ""
check bigtag pgn2pgc 512 "$TL" "1" "game 1: .*255" $(opts pgn2pgc)

# NUL and other control bytes in tags, comments and movetext; a good
# game between the bad ones.
printf '[Event "nul\000here"]\n[Site "ctl\001\002\033\177"]\n\n1. e4 {com\000ment\001} e5 2. Nf3\000 Nc6 1-0\n\n[Event "ok"]\n\n1. d4 d5 1/2-1/2\n\n[Event "x"]\n\n1. e4 \001 e5 *\n' \
    >"$T/in.control"
pgn control 256 "$TL" "1" "1" "game 1: "

# Invalid UTF-8 in tags, comments and movetext.
printf '[Event "\377\376\300\200 bad"]\n[White "\355\240\200"]\n\n1. e4 {\377\303} e5 2. Nf3 1-0\n\n[Event "b"]\n\n1. e4 \303\050 e5 0-1\n' \
    >"$T/in.utf8"
pgn utf8 256 "$TL" "1" "0" "game 2: "

# Not PGN: random bytes (a message, no game), plain text.
head -c 1000000 /dev/urandom >"$T/in.random"
pgn random 256 "$TL" "0 1" "0 1" "."
cp "$top_srcdir/COPYING" "$T/in.text"
pgn text 256 "$TL" "0 1" "0" "not PGN"

# A truncated file: the three games of sample.pgn and a fourth cut in a
# move ("truncated"), or between two moves ("cut": it reads as a game
# without a termination marker, so only a warning can tell).
{
	cat "$top_srcdir/tests/files/sample.pgn"
	printf '\n[Event "cut"]\n[Result "1-0"]\n\n1. e4 e5 2. c4 Bc5 3. Nf3 d6 4. d3 a6 5. a3 Bg4 6. h'
} >"$T/in.truncated"
pgn truncated 256 "$TL" "1" "0" "game 4: "
{
	cat "$top_srcdir/tests/files/sample.pgn"
	printf '\n[Event "cut"]\n[Result "1-0"]\n\n1. e4 e5 2. c4 Bc5 3. Nf3 d6 4. d3 a6 5. a3 Bg4 6. h3 '
} >"$T/in.cut"
pgn cut 256 "$TL" "0 1" "0" "game 4: "

# PGC: random bytes, all zero bytes (no-op records), PGN text, and a
# real PGC cut short.
if have pgc2pgn; then
	mv "$T/in.random" "$T/in.pgcrandom"
	check pgcrandom pgc2pgn 256 "$TL" "1" "." --stats
	head -c 1000000 /dev/zero >"$T/in.pgczero"
	check pgczero pgc2pgn 256 "$TL" "0" "" --stats
	cp "$top_srcdir/tests/files/sample.pgn" "$T/in.pgcpgn"
	check pgcpgn pgc2pgn 256 "$TL" "1" "." --stats
	if have pgn2pgc; then
		"$B/pgn2pgc" -q "$top_srcdir/tests/files/sample.pgn" \
		    >"$T/full.pgc" 2>/dev/null
		n=$(wc -c <"$T/full.pgc")
		head -c $((n - 7)) "$T/full.pgc" >"$T/in.pgccut"
		check pgccut pgc2pgn 256 "$TL" "1" "." --stats
	fi
fi

# EPD tools: a 100 MB line then a good one, control bytes, random
# bytes, a truncated line.
EPD_TOOLS="epd-validate chess-perft"
{
	head -c $((100000000 / div)) /dev/zero | tr '\0' a
	printf '\n4k3/8/8/8/8/8/8/4K3 w - - id "ok";\n'
} >"$T/in.epdline"
printf '4k3/8/8/8\000/8/8/8/4K3 w - - id "a\000b";\n4k3/8/8/8/8/8/8/4K3 w - - id "\001";\n4k3/8/8/8/8/8/8/4K3 w - - id "\377\376";\n' \
    >"$T/in.epdctl"
head -c 100000 /dev/urandom >"$T/in.epdrandom"
printf '4k3/8/8/8/8/8/8/4K3 w - - id "ok";\nrnbqkbnr/pppppppp/8/8/8/8/PP' \
    >"$T/in.epdcut"
check epdline epd-validate 1024 "$TL" "1" ":1:" -n --stats
for e_tool in $EPD_TOOLS; do
	[ "$e_tool" = chess-perft ] &&
	    check epdline "$e_tool" 1024 "$TL" "1" ":1:" --stats
	check epdctl "$e_tool" 256 "$TL" "1" ":1:"
	# (binary data: one message, the file not read)
	check epdrandom "$e_tool" 256 "$TL" "2" "binary data, not EPD; not read"
	check epdcut "$e_tool" 256 "$TL" "1" ":2:"
done

if [ "$ran" -eq 0 ]; then
	echo "SKIP: no tool built"
	exit 77
fi
exit $status
