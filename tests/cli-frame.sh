#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-frame.sh: how every PGN tool frames games, alike.
#
# - Memory stays flat on input that is no PGN: 256 MiB of NUL bytes and
#   a 256 MiB line of letters, each through a pipe, through
#   pgn-regularize, pgn-sort, pgn-select, pgn2json, pgn-split and
#   pgn2epd under an address-space limit (ulimit -v) of 64 MiB more
#   than the tool needs for a one-move game (the reader kept such a
#   line whole before: 256 MiB and more).  Not under the sanitizers.
# - Binary data is reported, never passed off as games: the same tools
#   on a file whose first bytes are damaged compressed data, and on a
#   game with a NUL byte between good games, exit 1 with "not PGN text:
#   binary data" or "binary data (NUL byte)", and pgn-sort and
#   pgn-select write the good games only.  A control byte (not tab,
#   a line end, VT, FF, SUB or ESC) is binary data too: a game holding
#   one, and seeded random bytes without a NUL, in every tool that reads
#   PGN (the paths that read tags only too).
# - A brace comment holding lines that are tag pairs stays in its game
#   (one game for every tool, pgn-split's parts too); a comment never
#   closed is rejected and the games after it are all read; a second
#   Event tag is the same game's (-v warns).
set -u
NAME=frame
. "$top_srcdir/tests/testlib.sh"
: "${tooldir:?}"
B=$tooldir

sanitized=0
grep -q '^SAN_CFLAGS = .*-fsanitize=' "$top_builddir/Makefile" \
    2>/dev/null && sanitized=1

# args TOOL: the options each tool runs with here (one thread, no
# progress line; pgn-split into $T/parts)
args() {
	case $1 in
	pgn-sort) echo "-q -S 16M" ;;
	pgn-split) echo "-q -l 1 -d $T/parts" ;;
	pgn-select) echo "-q -j 1" ;;
	*) echo "-q -j 1" ;;
	esac
}
TOOLS="pgn-regularize pgn-sort pgn-select pgn2json pgn-split pgn2epd"

# ---- memory on input that is no PGN ----
if [ "$sanitized" -eq 0 ]; then
	printf '[Event "base"]\n\n1. e4 1-0\n' >"$T/base.pgn"
	for tool in $TOOLS; do
		# the least address space (4 MB steps) that reads one game
		base=8192
		while ! (ulimit -v "$base" && exec "$B/$tool" $(args "$tool") \
		    "$T/base.pgn") >/dev/null 2>&1; do
			base=$((base + 4096))
			[ "$base" -le 2097152 ] ||
			    { fail "$tool: no limit reads one game"; break; }
		done
		limit=$((base + 65536))
		for kind in zeros letters; do
			rm -rf "$T/parts"
			# (pgn-select: 1, no game selected)
			want=0 msg=""
			[ "$kind" = zeros ] || [ "$tool" = pgn-select ] && want=1
			[ "$kind" = zeros ] && msg="not PGN text: binary data"
			head -c 268435456 /dev/zero |
			    if [ "$kind" = zeros ]; then cat; else tr '\0' a; fi |
			    (ulimit -v "$limit" && exec timeout 120 \
			    "$B/$tool" $(args "$tool") -) >"$T/out" 2>"$T/err"
			rc=$?
			[ "$rc" -eq "$want" ] || { fail "$tool: 256 MiB of $kind" \
			    "under ulimit -v $limit: exit $rc, expected $want"; \
			    head -c 300 "$T/err" >&2; }
			[ -z "$msg" ] || grep -q "$msg" "$T/err" ||
			    fail "$tool: 256 MiB of $kind: no message /$msg/"
		done
	done
fi

# ---- binary data ----
good='[Event "good"]

1. e4 e5 1-0

'
# damaged compressed data first (a zstd frame with its magic number
# broken: not known as zstd, read as it is), then good games
if command -v zstd >/dev/null 2>&1; then
	head -c 200000 /dev/urandom | zstd -q -c >"$T/z"
	{ printf '\001\002'; tail -c +3 "$T/z"; printf '\n%s%s' "$good" "$good"; } \
	    >"$T/damaged.pgn"
else
	{ printf '\000\001'; head -c 200000 /dev/urandom;
	    printf '\n%s%s' "$good" "$good"; } >"$T/damaged.pgn"
fi
printf '%s[Event "nul"]\n\n1. e4 {a\000b} e5 1-0\n\n%s' "$good" "$good" \
    >"$T/nulgame.pgn"
for tool in $TOOLS; do
	for f in damaged nulgame; do
		rm -rf "$T/parts"
		"$B/$tool" $(args "$tool") "$T/$f.pgn" >"$T/out" 2>"$T/err"
		rc=$?
		[ "$rc" -eq 1 ] || fail "$tool $f: exit $rc, expected 1"
		if [ "$f" = damaged ]; then
			msg="^$tool: .*damaged.pgn:1:1: not PGN text: binary data"
			n=1
		else
			msg="^$tool: .*nulgame.pgn:7:9: game 2: binary data \(NUL byte\)"
			n=1
		fi
		[ "$(grep -Ec "$msg" "$T/err")" -eq "$n" ] ||
		    fail "$tool $f: messages: $(head -c 300 "$T/err")"
		case $tool in
		pgn-sort|pgn-select)
			# the good games only, as they came
			printf '%s%s' "$good" "$good" >"$T/want"
			cmp -s "$T/out" "$T/want" ||
			    fail "$tool $f: writes more than the good games" ;;
		pgn-split)
			# every byte still in the parts, in order
			cat "$T/parts"/* | cmp -s - "$T/$f.pgn" ||
			    fail "pgn-split $f: the parts are not the input" ;;
		esac
	done
done

# ---- control bytes ----
# The standard (4.1) allows no control character but tab and line
# ends: a game holding one is rejected as binary data at its place, and
# random bytes with control bytes but no NUL (a seeded stream) are
# binary data, never a game; in every tool that reads PGN, the paths
# that read only tags included (pgn-select -t, pgn-sort, pgn-split,
# pgn-dedup).
printf '%s[Event "ctl"]\n\n1. e4 {a\001b} e5 1-0\n\n%s' "$good" "$good" \
    >"$T/ctlgame.pgn"
if command -v python3 >/dev/null 2>&1; then
	python3 -c 'import random, sys
r = random.Random(44)
sys.stdout.buffer.write(bytes(r.getrandbits(8) for _ in range(4000)))' |
	    tr -d '\000' >"$T/noise"
	{ cat "$T/noise"; printf '\n%s%s' "$good" "$good"; } >"$T/noise.pgn"
	cases="ctlgame noise"
else
	echo "note: no python3: no seeded noise"
	cases=ctlgame
fi
for run in pgn-regularize pgn-sort pgn-select pgn-select:-t pgn-dedup \
    pgn2json pgn2tsv pgn-split pgn2epd pgn2pgc; do
	tool=${run%%:*} opt=
	[ "$run" = pgn-select:-t ] && opt="-t Event!=none"
	for f in $cases; do
		rm -rf "$T/parts"
		"$B/$tool" $(args "$tool") $opt "$T/$f.pgn" >"$T/out" 2>"$T/err"
		rc=$?
		[ "$rc" -eq 1 ] || fail "$run $f: exit $rc, expected 1"
		if [ "$f" = noise ]; then
			msg="^$tool: .*noise.pgn:1:1: not PGN text: binary data \([0-9]+ bytes skipped before game 1\)\$"
		else
			msg="^$tool: .*ctlgame.pgn:7:9: game 2: binary data \(control byte 0x01\)\$"
		fi
		[ "$(grep -Ec "$msg" "$T/err")" -eq 1 ] ||
		    fail "$run $f: messages: $(head -c 300 "$T/err")"
		case $tool in
		pgn-sort|pgn-select|pgn-dedup)
			printf '%s%s' "$good" "$good" >"$T/want"
			[ "$tool" = pgn-dedup ] && printf '%s' "$good" >"$T/want"
			cmp -s "$T/out" "$T/want" ||
			    fail "$run $f: writes more than the good games" ;;
		pgn2tsv)
			[ "$(wc -l <"$T/out")" -eq 3 ] ||
			    fail "$run $f: not the two good games' rows" ;;
		pgn-split)
			cat "$T/parts"/* | cmp -s - "$T/$f.pgn" ||
			    fail "pgn-split $f: the parts are not the input" ;;
		esac
	done
done

# ---- comments and tag sections ----
# one game each: a comment holding tag pairs (before the movetext, in
# it, over CR LF), tags repeated
cat >"$T/one.pgn" <<'EOF'
[Event "a"]
[Site "s"]
[Event "b"]

{
[Event "quoted"]
[Site "x"]
}
1. e4 { see:
[Event "c"]
[White "w"]

1. d4 *
} e5 1-0
EOF
for tool in $TOOLS; do
	rm -rf "$T/parts"
	"$B/$tool" $(args "$tool") "$T/one.pgn" >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq 0 ] || { fail "$tool one.pgn: exit $rc"; cat "$T/err" >&2; }
	case $tool in
	pgn-regularize)
		[ "$(grep -c '^\[Event ' "$T/out")" -eq 1 ] &&
		    grep -q '^\[Event "b"\]' "$T/out" ||
		    fail "pgn-regularize one.pgn: not one game, Event b" ;;
	pgn-sort|pgn-select)
		# (as it came, then the blank line that ends a game)
		{ cat "$T/one.pgn"; echo; } | cmp -s "$T/out" - ||
		    fail "$tool one.pgn: not the game as it came" ;;
	pgn2json)
		[ "$(wc -l <"$T/out")" -eq 1 ] ||
		    fail "pgn2json one.pgn: $(wc -l <"$T/out") games" ;;
	pgn-split)
		[ "$(ls "$T/parts" | wc -l)" -eq 1 ] ||
		    fail "pgn-split one.pgn: $(ls "$T/parts" | wc -l) parts" ;;
	esac
done
"$B/pgn-regularize" -v "$T/one.pgn" >/dev/null 2>"$T/err"
grep -q "one.pgn:3:1: warning: game 1: tag Event given twice" "$T/err" ||
    fail "pgn-regularize -v: no warning for Event twice: $(cat "$T/err")"

# a comment never closed: that game rejected, the next ones read
cat >"$T/open.pgn" <<'EOF'
[Event "a"]

1. e4 { never closed e5 1-0

[Event "b"]

1. d4 d5 1-0

[Event "c"]

1. c4 { closed } c5 0-1
EOF
"$B/pgn-regularize" -q "$T/open.pgn" >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 1 ] || fail "open.pgn: exit $rc, expected 1"
grep -q "open.pgn:3:7: game 1: brace comment never closed" "$T/err" ||
    fail "open.pgn: $(cat "$T/err")"
[ "$(grep -c '^\[Event "[bc]"\]' "$T/out")" -eq 2 ] ||
    fail "open.pgn: games b and c not both written"
exit $status
