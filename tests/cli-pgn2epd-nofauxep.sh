#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-pgn2epd-nofauxep.sh: pgn2epd --nofauxep writes an en passant
# square only where the capture is legal, so that -u meets
# transpositions: 1. d4 Nf6 2. c4 and 1. c4 Nf6 2. d4 reach one
# position (one line with --nofauxep, two without), and a legal
# en passant square stays.  Against pgn-extract (when installed, with
# the corpus): the four fields of every position of the OTB archive
# byte for byte, with and without --nofauxep, and the count of
# distinct positions of -u --nofauxep that of sort -u over
# pgn-extract's.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"
P="$tooldir/pgn2epd"
NAME=p2enofaux
. "$top_srcdir/tests/testlib.sh"

printf '1. d4 Nf6 2. c4 *\n\n1. c4 Nf6 2. d4 *\n\n1. e4 a6 2. e5 d5 *\n' \
    >"$T/tr.pgn"
expect 0 "$P" --ops= -u "$T/tr.pgn"
grep -c '/PP2PPPP/RNBQKBNR b KQkq [cd]3$' "$T/out" >"$T/n"
[ "$(cat "$T/n")" -eq 2 ] || fail "-u: the faux squares tell apart: $(cat "$T/n")"
expect 0 "$P" --ops= -u --nofauxep "$T/tr.pgn"
[ "$(grep -c '/PP2PPPP/RNBQKBNR b KQkq -$' "$T/out")" -eq 1 ] ||
    fail "-u --nofauxep: the transposition not met"
grep -q '^rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6$' \
    "$T/out" || fail "--nofauxep: the legal d6 lost"
grep ' [a-h][36]$' "$T/out" | grep -qv ' d6$' && fail "--nofauxep: a faux square"
[ "$(wc -l <"$T/out")" -eq 10 ] || fail "-u --nofauxep: $(wc -l <"$T/out") lines"
# the other operations follow the square
expect 0 "$P" --nofauxep "$T/tr.pgn"
grep -q 'KQkq - c0 "? - ?, ?, ?, ????.??.??"; c1 "\*"; fmvn 2; hmvc 0; id "1.3"' \
    "$T/out" || fail "--nofauxep with operations: $(sed -n 4p "$T/out")"

C="${CORPUS:-}"
X=$(command -v pgn-extract || ls /usr/games/pgn-extract 2>/dev/null)
if [ -z "$X" ] || [ ! -f "$C/pgn/otb-14539.pgn.xz" ]; then
	echo "pgn-extract or the corpus missing: its half skipped"
	exit $status
fi
xz -dc "$C/pgn/otb-14539.pgn.xz" >"$T/otb.pgn" || exit 99
for o in --nofauxep ""; do
	"$X" -s -Wepd $o "$T/otb.pgn" 2>/dev/null | grep -av '^$' |
	    cut -d' ' -f1-4 >"$T/pe"
	"$P" --ops= $o "$T/otb.pgn" >"$T/cd" 2>/dev/null
	[ -s "$T/pe" ] && cmp -s "$T/pe" "$T/cd" ||
	    fail "pgn-extract -Wepd $o: other positions ($(wc -l <"$T/pe") and $(wc -l <"$T/cd") lines)"
done
"$X" -s -Wepd --nofauxep "$T/otb.pgn" 2>/dev/null | grep -av '^$' |
    cut -d' ' -f1-4 | sort -u | wc -l >"$T/want"
"$P" --ops= -u --nofauxep "$T/otb.pgn" 2>/dev/null | wc -l >"$T/got"
cmp -s "$T/want" "$T/got" ||
    fail "-u --nofauxep: $(cat "$T/got") positions, pgn-extract $(cat "$T/want")"
exit $status
