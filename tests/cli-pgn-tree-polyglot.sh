#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-pgn-tree-polyglot.sh: pgn-tree --polyglot writes, byte for byte,
# the book `polyglot make-book` writes from the same games, with each of
# make-book's options (-max-ply, -min-game, -min-score, -only-white,
# -only-black, -uniform) under its long name: on the games of
# tests/files/tree-games.pgn that make-book reads, and, with the shared
# corpus, on the OTB archive, on TCEC (its first 40 MB: TCEC_MB=N for
# N MB, TCEC_MB=0 for the whole 433 MB) and on the online exports (their
# games without a FEN or Variant tag, which make-book cannot read; the
# online exports hold more than 16384 games, so make-book's halving of
# a position's counts is met).  Where make-book cannot read a game (a
# FEN start, here a Chess960 one) it writes no book at all, and
# pgn-tree writes one.  Skipped (77) without polyglot (Debian package
# polyglot).
set -u
NAME=tpg
. "$top_srcdir/tests/testlib.sh"
P="$tooldir/pgn-tree"
S="$tooldir/pgn-select"
MB=
for m in polyglot /usr/games/polyglot; do
	if command -v "$m" >/dev/null 2>&1; then MB=$(command -v "$m"); break; fi
done
[ -n "$MB" ] || { echo "SKIP: polyglot is not installed (apt-get install polyglot)"; exit 77; }

# make-book's option set, and pgn-tree's: "-max-ply 8" -> "--max-ply=8"
long() {
	echo " $1" | sed 's/ -\([a-z-]*\) \([0-9][0-9.]*\)/ --\1=\2/g; s/ -\([a-z]\)/ --\1/g'
}

# compare PGN OPTIONS...: both books of PGN, each option set
compare() {
	pgn=$1
	shift
	for o in "$@"; do
		rm -f "$T/ref.bin"
		# shellcheck disable=SC2086
		(cd "$T" && "$MB" make-book -pgn "$pgn" -bin ref.bin $o) \
		    >"$T/mb.log" 2>&1
		grep -q '^all done!' "$T/mb.log" || {
			fail "make-book $o on $pgn wrote nothing: $(grep -v allocat "$T/mb.log" | tail -2)"
			continue
		}
		# shellcheck disable=SC2046
		"$P" --polyglot="$T/ours.bin" $(long "$o") "$pgn" 2>"$T/err" ||
		    fail "pgn-tree $(long "$o") $pgn: exit $?: $(cat "$T/err")"
		if cmp -s "$T/ref.bin" "$T/ours.bin"; then
			echo "same book ($(($(wc -c <"$T/ref.bin") / 16)) entries): $o, $pgn"
		else
			fail "books differ: $o, $pgn"
		fi
	done
}

SETS="|-max-ply 6|-min-game 1|-min-game 2 -min-score 50|-only-white -min-game 1|-only-black -min-game 1|-uniform -min-game 1|-max-ply 5 -min-game 1 -min-score 40 -uniform"
IFS='|'
# shellcheck disable=SC2086
set -- $SETS
unset IFS

# the fixture's games that make-book reads (not the FEN starts, the
# Chess960 games nor the illegal game)
"$S" --games=1-6,8,12-14 "$F/tree-games.pgn" >"$T/std.pgn"
compare "$T/std.pgn" "$@"

# a game from a FEN: make-book plays its moves from the start position,
# finds one illegal and writes no book; pgn-tree keys the game's own
# positions
"$S" --games=9 "$F/tree-games.pgn" >"$T/fen.pgn"
(cd "$T" && "$MB" make-book -pgn fen.pgn -bin fen.bin) >"$T/mb.log" 2>&1
[ -s "$T/fen.bin" ] && fail "make-book read a Chess960 FEN game"
grep -q 'illegal move' "$T/mb.log" || fail "make-book: $(cat "$T/mb.log")"
expect 0 "$P" --polyglot="$T/fen-ours.bin" --min-game=1 "$T/fen.pgn"
# (White won: White's three moves; Black's score 0)
[ "$(wc -c <"$T/fen-ours.bin")" -eq $((3 * 16)) ] ||
    fail "FEN game: $(wc -c <"$T/fen-ours.bin") bytes"

C="${CORPUS:-}"
if [ -d "$C/pgn" ] && [ -d "$C/online" ]; then
	xz -dc "$C/pgn/otb-14539.pgn.xz" >"$T/otb.pgn"
	compare "$T/otb.pgn" "" "-max-ply 12 -min-game 2 -min-score 45" \
	    "-only-black -uniform"
	rm -f "$T/otb.pgn"
	# (whole games: 1,169 long engine games in the first 40 MB)
	corpus_head "${TCEC_MB:-40}" "$C/pgn/tcec-s01-s20.pgn.xz" |
	    "$S" -v --where='FEN ~ "." or Variant ~ "."' >"$T/tcec.pgn"
	compare "$T/tcec.pgn" "" "-max-ply 30 -only-white"
	rm -f "$T/tcec.pgn"
	xz -dc "$C"/online/*.pgn.xz |
	    "$S" -v --where='FEN ~ "." or Variant ~ "."' >"$T/online.pgn"
	compare "$T/online.pgn" "" "-max-ply 16 -min-game 1" \
	    "-min-score 55 -only-white" "-only-black -uniform -min-game 10"
else
	echo "no corpus at ${C:-(unset)}: the fixture alone"
fi
exit $status
