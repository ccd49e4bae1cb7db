#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# lib-example.sh: the program of libchessdata(3) EXAMPLES, taken from
# the page's own text (so that the page cannot drift from what builds),
# compiled against the library of this build and run: on a .pgn.zst (two
# frames) its lines are those of pgn2tsv -f White,@final (see same), in
# at most six library calls; a game that does not read is named by its line and
# column, and the games after it are read; on the same file cut short it
# prints a prefix of them, then the stream's own message ("truncated
# zstd input ..."), and exits 1.
set -u
NAME=lib-example
. "$top_srcdir/tests/testlib.sh"
command -v zstd >/dev/null 2>&1 || exit 77
CC=${CC:-cc}
page="$top_srcdir/man/libchessdata.3"

# the first literal block of EXAMPLES, mdoc's \e made a backslash
awk '/^\.Sh EXAMPLES/ { e = 1; next }
    e && /^\.Sh / { exit }
    e && /^\.Bd -literal/ { b = 1; next }
    b && /^\.Ed/ { exit }
    b { gsub(/\\e/, "\\"); print }' "$page" >"$T/white-fen.c"
grep -q 'cd_pgn_reader_open(' "$T/white-fen.c" ||
    { echo "FAIL: no program in EXAMPLES of libchessdata(3)" >&2; exit 1; }
# the calls the page counts are the ones the program makes
calls=$(grep -o 'cd_[a-z_]*(' "$T/white-fen.c" | sort -u | tr -d '(' |
    tr '\n' ' ')
for c in $calls; do
	sed -n '/^\.Sh EXAMPLES/,/^\.Bd/p' "$page" | grep -q "^\.Fn $c\|Fn $c" ||
	    fail "EXAMPLES calls $c without counting it"
done
[ "$(echo $calls | wc -w)" -le 6 ] ||
    fail "EXAMPLES makes more than six library calls: $calls"
# (a library built with sanitizers wants its programs built so too)
lib="$top_builddir/lib/.libs/libchessdata.so"
san=
for s in address:asan undefined:ubsan thread:tsan; do
	ldd "$lib" 2>/dev/null | grep -q "lib${s#*:}" &&
	    san="$san -fsanitize=${s%:*}"
done
if ! $CC $san -o "$T/white-fen" "$T/white-fen.c" -I"$top_srcdir/lib" \
    -L"$top_builddir/lib/.libs" -lchessdata -lpthread -ldl -lm \
    2>"$T/cc.err"; then
	cat "$T/cc.err" >&2
	echo "FAIL: the program of EXAMPLES does not build" >&2
	exit 1
fi
LD_LIBRARY_PATH="$top_builddir/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LD_LIBRARY_PATH

# some games: fixtures, and a sample of the corpus when it is there
cat "$F/sample.pgn" "$F/regularize-example.pgn" \
    >"$T/games.pgn"
otb="$CORPUS/pgn/otb-14539.pgn.xz"
if [ -r "$otb" ]; then
	xz -dc "$otb" | head -n 20000 >>"$T/games.pgn"
fi
# (two frames, the first half of the lines and the rest: a cut inside
# the second leaves the games of the first whole, however few the games
# are; a single frame of the fixtures alone is one block, all lost)
half=$(($(wc -l <"$T/games.pgn") / 2))
head -n "$half" "$T/games.pgn" | zstd -q -19 >"$T/part1.zst" || exit 99
tail -n +$((half + 1)) "$T/games.pgn" | zstd -q -19 >"$T/part2.zst" ||
    exit 99
cat "$T/part1.zst" "$T/part2.zst" >"$T/games.pgn.zst"
"$tooldir/pgn2tsv" -q -H -j 1 -f White,@final "$T/games.pgn" \
    >"$T/want" 2>/dev/null
[ -s "$T/want" ] || fail "pgn2tsv gave nothing"

# the FENs exactly, White where pgn2tsv leaves it as it is (it writes
# tags as UTF-8 and escapes tabs; the program prints the bytes read)
same() {
	awk -F'\t' '{ print $NF }' "$1" >"$T/fen1"
	awk -F'\t' '{ print $NF }' "$2" >"$T/fen2"
	cmp -s "$T/fen1" "$T/fen2" || return 1
	LC_ALL=C awk -F'\t' 'NF == 2 && $1 !~ /[^ -~]/ { print $1 }' "$1" \
	    >"$T/w1"
	LC_ALL=C awk -F'\t' 'NF == 2 && $1 !~ /[^ -~]/ { print $1 }' "$2" \
	    >"$T/w2"
	[ -s "$T/w1" ] && cmp -s "$T/w1" "$T/w2"
}

expect 0 "$T/white-fen" "$T/games.pgn.zst"
same "$T/out" "$T/want" || fail "White and final FEN differ from pgn2tsv's"
[ "$(wc -l <"$T/out")" -eq "$(wc -l <"$T/want")" ] ||
    fail "not one line a game"
[ ! -s "$T/err" ] || fail "messages on a good file: $(head -2 "$T/err")"

size=$(($(wc -c <"$T/part1.zst") + $(wc -c <"$T/part2.zst") / 2))
head -c "$size" "$T/games.pgn.zst" >"$T/cut.pgn.zst"
expect 1 "$T/white-fen" "$T/cut.pgn.zst"
grep -q "^$T/cut.pgn.zst:[0-9]*:[0-9]*: truncated zstd input" "$T/err" ||
    fail "no stream message on a truncated file: $(cat "$T/err")"
n=$(wc -l <"$T/out")
[ "$n" -gt 0 ] || fail "no game before the cut"
[ "$n" -lt "$(wc -l <"$T/want")" ] || fail "every game read from a cut file"
head -n "$n" "$T/want" >"$T/want-cut"
same "$T/out" "$T/want-cut" ||
    fail "the games before the cut are not the first ones"
# a game that does not read, then the others
printf '[White "x"]\n\n1. e4 e5 2. Ke3 *\n\n' | cat - "$T/games.pgn" |
    zstd -q -o "$T/bad.pgn.zst" || exit 99
expect 1 "$T/white-fen" "$T/bad.pgn.zst"
[ "$(cat "$T/err")" = "$T/bad.pgn.zst:3:13: 2. Ke3: illegal move" ] ||
    fail "a game that does not read: $(cat "$T/err")"
same "$T/out" "$T/want" || fail "the games after a bad one are not read"
exit $status
