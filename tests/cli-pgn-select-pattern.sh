#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-pgn-select-pattern.sh: pgn-select --placement with pgn-extract's
# FENPattern tokens (? ! * A a m M [set] [^set]) on hand-made games
# (each token meets the square it should and fails another), the
# patterns that do not read, and, with pgn-extract installed and the
# corpus, the games pgn-extract -Tf selects from the OTB archive for
# patterns with every token: the same games (their roster tags).
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"
P="$tooldir/pgn-select"
NAME=pgnselpat
. "$top_srcdir/tests/testlib.sh"

# the start, then 1. e4 (e4 a White pawn), 1... Nf6, 2. Qh5
printf '[Event "g1"]\n\n1. e4 Nf6 2. Qh5 *\n\n[Event "g2"]\n\n1. d4 *\n\n' \
    >"$T/g.pgn"
# sel WANT PATTERN: the events selected, joined by commas
sel() {
	got=$("$P" -q --placement="$2" "$T/g.pgn" |
	    sed -n 's/^\[Event "\(.*\)"\]$/\1/p' | paste -sd, -)
	[ "$got" = "$1" ] || fail "--placement='$2': got '$got', want '$1'"
}
sel g1 '*/*/*/*/4P3/*/*/*'
sel g1 '*/*/*/*/????P???/*/*/*'
sel g1,g2 '*/*/*/*/*P*/*/*/*'
sel g1,g2 '*/*/*/*/*!*/*/*/*'
sel g2 '*/*/*/*/???!????/*/*/*'
sel g1,g2 '*/*/*/*/*A*/*/*/*'
sel g1 '*/*/5n2/*/*/*/*/*'
sel g1 '*/*/*a*/*/*/*/*/*'
sel g1 '*/*/*/7Q/*/*/*/*'
sel g1 '*/*/*/*M/*/*/*/*'
sel g1,g2 '*/*/*/*m/*/*/*/*'
sel g1,g2 '*/*/*/*/*[^Pp]/*/*/*'
sel g1,g2 '*/*/*/*/*[Pp]*/*/*/*'
sel g1 '*/*/*/*[QN]/*/*/*/*'
sel '' 'rnbqkbnr/*/*/*/*/*/*/RNBQKBN1'
sel g1,g2 'rnbqkbnr/*/*/*/*/*/*/RNBQKBNR'
# patterns that do not read
for bad in '*/*/*/*/*/*/*' '*/*/*/*/*/*/*/*/*' '*/*/*/*/9/*/*/*' \
    '*/*/*/*/ppppppppp/*/*/*' '*/*/*/*/[Pp/*/*/*' '*/*/*/*/[?]/*/*/*' \
    '*/*/*/*/x/*/*/*'; do
	expect 2 "$P" --placement="$bad" "$T/g.pgn"
	grep -q "invalid placement" "$T/err" || fail "'$bad': $(cat "$T/err")"
done

C="${CORPUS:-}"
X=$(command -v pgn-extract || ls /usr/games/pgn-extract 2>/dev/null)
if [ -z "$X" ] || [ ! -f "$C/pgn/otb-14539.pgn.xz" ]; then
	echo "pgn-extract or the corpus missing: its half skipped"
	exit $status
fi
xz -dc "$C/pgn/otb-14539.pgn.xz" >"$T/otb.pgn" || exit 99
# roster FILE: the roster tags of each game, a line a game, sorted
roster() {
	LC_ALL=C awk '{ sub(/\r$/, "") }
	    /^\[[A-Za-z]+ / { t[$1] = $0; n++; next }
	    n > 0 { print t["[Event"] t["[Site"] t["[Date"] t["[Round"] \
		t["[White"] t["[Black"] t["[Result"]; n = 0; delete t }' "$1" |
	    LC_ALL=C sort
}
for pat in '*/*/*/*/???PP???/*/*/*' 'rnbqkbnr/*/*/*/*/*/*/RNBQKBNR' \
    '?????rk?/?????aaa/*/*/*/8/P[BP]P*/??KR????' '*/R*/*/*/*/*/*/*' \
    '*/*/*/*/*Q*q*/*/*/*' '*/*/*/*/*/*/[^Pp]*/*' \
    '??????k?/*/*/*/*/*/*/?!??????' '*A*/*/*/*/*/*/*/*' \
    '*/*/*/3m4/*/*/*/*'; do
	"$P" -q --placement="$pat" "$T/otb.pgn" >"$T/ours" 2>/dev/null
	"$X" -s -Tf"$pat" "$T/otb.pgn" >"$T/theirs" 2>/dev/null
	roster "$T/ours" >"$T/r1"
	roster "$T/theirs" >"$T/r2"
	[ -s "$T/r1" ] && cmp -s "$T/r1" "$T/r2" ||
	    fail "'$pat': $(wc -l <"$T/r1") games, pgn-extract $(wc -l <"$T/r2")"
done
exit $status
