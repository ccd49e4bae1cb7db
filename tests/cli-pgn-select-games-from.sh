#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-pgn-select-games-from.sh: pgn-select --games-from on 30,000 small
# games made here: 20,000 scattered numbers (a fixed seed) select the
# games awk says; lines of ranges and lists with blanks, blank and CRLF
# lines as --games; standard input; -v the complement; a line that does
# not read named by file, line and column; an empty list and
# --games-from=- with games on standard input are usage errors.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"
P="$tooldir/pgn-select"
NAME=pgnselgf
. "$top_srcdir/tests/testlib.sh"

awk 'BEGIN { for (i = 1; i <= 30000; i++)
	printf "[Event \"g%d\"]\n[Result \"*\"]\n\n1. e4 *\n\n", i }' \
    >"$T/g.pgn"
# events: the numbers in the Event tags of the games on standard input
events() {
	sed -n 's/^\[Event "g\([0-9]*\)"\]$/\1/p'
}

awk 'BEGIN { srand(20240); for (i = 0; i < 20000; i++)
	print int(rand() * 30500) + 1 }' >"$T/nums"
sort -n -u "$T/nums" | awk '$1 <= 30000' >"$T/want"
expect 0 "$P" --games-from="$T/nums" "$T/g.pgn"
events <"$T/out" >"$T/got"
cmp -s "$T/got" "$T/want" ||
    fail "20,000 numbers: $(wc -l <"$T/got") games, want $(wc -l <"$T/want")"
expect 0 "$P" -c -v --games-from="$T/nums" "$T/g.pgn"
[ "$(cat "$T/out")" -eq $((30000 - $(wc -l <"$T/want"))) ] ||
    fail "-v: $(cat "$T/out") games"

# lines as --games takes them, blanks, blank and CRLF lines
printf ' 3 \n\n10-12\r\n\t20,25-26\n29990-\n' >"$T/list"
expect 0 "$P" --games-from="$T/list" "$T/g.pgn"
events <"$T/out" | paste -sd, - >"$T/got"
[ "$(cat "$T/got")" = "3,10,11,12,20,25,26,29990,29991,29992,29993,29994,29995,29996,29997,29998,29999,30000" ] ||
    fail "list: $(cat "$T/got")"
"$P" --games=3,10-12,20,25-26,29990- "$T/g.pgn" >"$T/by-games"
cmp -s "$T/out" "$T/by-games" || fail "--games-from differs from --games"
# standard input
expect 0 sh -c '"$1" --games-from=- "$2" <"$3"' sh "$P" "$T/g.pgn" "$T/list"
cmp -s "$T/out" "$T/by-games" || fail "--games-from=- differs"
# with --games: either
expect 0 "$P" -c --games=5 --games-from="$T/list" "$T/g.pgn"
[ "$(cat "$T/out")" = 19 ] || fail "--games and --games-from: $(cat "$T/out")"

# errors
printf '3\n\n  7-x\n' >"$T/bad"
expect 2 "$P" --games-from="$T/bad" "$T/g.pgn"
grep -q "^pgn-select: $T/bad:3:3: invalid game numbers" "$T/err" ||
    fail "bad line: $(cat "$T/err")"
printf '1,2,0\n' >"$T/bad"
expect 2 "$P" --games-from="$T/bad" "$T/g.pgn"
grep -q "^pgn-select: $T/bad:1:5: invalid game numbers" "$T/err" ||
    fail "bad item: $(cat "$T/err")"
printf '\n \n' >"$T/empty"
expect 2 "$P" --games-from="$T/empty" "$T/g.pgn"
grep -q "no game numbers" "$T/err" || fail "empty: $(cat "$T/err")"
expect 2 sh -c '"$1" --games-from=- <"$2"' sh "$P" "$T/list"
grep -q "name the PGN files" "$T/err" || fail "stdin twice: $(cat "$T/err")"
expect 2 "$P" --games-from="$T/missing" "$T/g.pgn"
grep -q "^pgn-select: .*missing" "$T/err" || fail "missing: $(cat "$T/err")"
exit $status
