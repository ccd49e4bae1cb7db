#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-pgn-tree-corpus.sh: pgn-tree's counts, scores, Elo averages,
# performances, years and latest games at every position of depth 4
# (every move of the first four plies, transpositions included) equal
# those tests/tree-check.py computes from pgn2json --fens, on the OTB
# archive and on the online exports (the first CORPUS_MB MB of each, 3
# by default, whole games; CORPUS_MB=0 for the whole files); and from
# the position after 1. e4 c5 on the OTB archive, 3 plies deep, as the
# -j 1 run gives it.  Skipped (77) without the corpus or python3.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"
P="$tooldir/pgn-tree"
J="$tooldir/pgn2json"
C="${CORPUS:-}"
NAME=ptc
. "$top_srcdir/tests/testlib.sh"
[ -d "$C/pgn" ] && [ -d "$C/online" ] ||
    skip "no corpus at ${C:-(unset)}"
command -v python3 >/dev/null 2>&1 || skip "no python3"
START='rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
SICILIAN='rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2'

# check NAME ROOT DEPTH [OPTION]: the script's table and pgn-tree's
check() {
	name=$1 root=$2 depth=$3
	shift 3
	python3 "$top_srcdir/tests/tree-check.py" "$root" "$depth" 1 \
	    <"$T/in.json" >"$T/want.tsv"
	"$P" --tsv -q --depth="$depth" "$@" "$T/in.pgn" >"$T/got.tsv" 2>/dev/null
	rows=$(($(wc -l <"$T/want.tsv") - 1))
	if [ "$rows" -lt 10 ]; then
		fail "$name: $rows rows"
	elif cmp -s "$T/want.tsv" "$T/got.tsv"; then
		echo "$name: $rows rows equal"
	else
		fail "$name: tables differ"
		diff "$T/want.tsv" "$T/got.tsv" | head -20 >&2
	fi
}

corpus_head "${CORPUS_MB:-3}" "$C/pgn/otb-14539.pgn.xz" >"$T/in.pgn"
"$J" --fens -q "$T/in.pgn" >"$T/in.json" 2>/dev/null
check "OTB archive, depth 4" "$START" 4
check "OTB archive, after 1. e4 c5, depth 3" "$SICILIAN" 3 '--moves=1. e4 c5' -j 1
for f in "$C"/online/*.pgn.xz; do
	corpus_head "${CORPUS_MB:-3}" "$f"
done >"$T/in.pgn"
"$J" --fens -q "$T/in.pgn" >"$T/in.json" 2>/dev/null
check "online exports, depth 4" "$START" 4
finish
