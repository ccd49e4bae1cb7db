#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-pgn-tree.sh: pgn-tree on tests/files/tree-games.pgn (transpositions,
# a position repeated in one game, a FEN start that joins the tree, two
# Chess960 games, games without a result, an Elo or a date, an Elo that
# is no number, an illegal game): its --tsv table equals the one
# tests/tree-check.py computes from pgn2json --fens (another reading of
# the same games) from several roots and depths; the text table and
# JSON lines hold the same rows, JSON keys named as the TSV columns;
# -j, standard input, a compressed input; the illegal game rejected
# (exit 1, its bytes in --rejects); --book beside the archive; usage
# errors (exit 2).
set -u
NAME=tree
. "$top_srcdir/tests/testlib.sh"
P="$tooldir/pgn-tree"
G="$F/tree-games.pgn"
START='rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
AFTER_E4E5='rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2'
AFTER_E4='rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'
F960='bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1'

expect 0 "$P" --help
grep -q -- '--polyglot=FILE' "$T/out" || fail "--help: no --polyglot"
expect 0 "$P" --version
grep -q '^pgn-tree (chessdata) ' "$T/out" || fail "--version: $(cat "$T/out")"

# the illegal game: rejected, reported, kept in --rejects; the others
# counted
expect 1 "$P" --tsv --rejects="$T/rej.pgn" "$G"
grep -q "^pgn-tree: $G:131:13: game 11: 2. Ke3: illegal move\$" "$T/err" ||
    fail "illegal game: $(cat "$T/err")"
grep -q '^\[Event "Bad"\]' "$T/rej.pgn" || fail "rejects: no bad game"
[ "$(grep -c '^\[Event ' "$T/rej.pgn")" -eq 1 ] || fail "rejects: not one game"
cp "$T/out" "$T/start.tsv"
# 1. e4: games 6, 12, 13, 14 (the FEN game starts after it, game 11
# is rejected): 2 White wins, a draw, a Black win
grep -q "$(printf '^\te4\t4\t2\t1\t1\t62.5\t')" "$T/start.tsv" ||
    fail "1. e4 row: $(grep 'e4' "$T/start.tsv")"
# 1. Nf3, played twice in game 5 (the start position again after 2...
# Ng8), counts it once: games 3, 5 and 8
grep -q "$(printf '^\tNf3\t3\t0\t1\t2\t')" "$T/start.tsv" ||
    fail "1. Nf3 row: $(grep 'Nf3' "$T/start.tsv")"

# from the position after 1. d4, the illegal game (1. e4 e5 2. Ke3)
# never comes near: it is not parsed, nor rejected
expect 0 "$P" --tsv '--moves=1. d4' "$G"
[ -s "$T/err" ] && fail "1. d4: $(cat "$T/err")"
grep -q "$(printf '^\tNf6\t1\t1\t0\t0\t')" "$T/out" || fail "1. d4: $(cat "$T/out")"

# --moves from --fen: the position after them, whatever way it is
# named; 3. Bb5 by two move orders (games 6 and 8)
"$P" --tsv -d 2 "--fen=$AFTER_E4E5" '--moves=2. Nf3' "$G" >"$T/a.tsv" 2>/dev/null
"$P" --tsv -d 2 '--moves=1. e4 e5 2. Nf3' "$G" >"$T/b.tsv" 2>/dev/null
cmp -s "$T/a.tsv" "$T/b.tsv" || fail "--fen and --moves: $(cat "$T/a.tsv")"
grep -q "$(printf '^2... Nc6\tBb5\t2\t1\t0\t1\t')" "$T/a.tsv" ||
    fail "3. Bb5 by two move orders: $(cat "$T/a.tsv")"

# the independent script, from several roots
if command -v python3 >/dev/null 2>&1; then
	"$tooldir/pgn2json" --fens "$G" >"$T/games.ndjson" 2>/dev/null
	for args in "$START|4|1|" "$START|6|1|" "$START|3|2|" \
	    "$AFTER_E4|3|1|--moves=1. e4" "$AFTER_E4E5|3|1|--fen=$AFTER_E4E5" \
	    "$F960|6|1|--fen=$F960"; do
		root=${args%%|*}; r=${args#*|}
		depth=${r%%|*}; r=${r#*|}
		min=${r%%|*}; opt=${r#*|}
		python3 "$top_srcdir/tests/tree-check.py" "$root" "$depth" \
		    "$min" <"$T/games.ndjson" >"$T/want.tsv" ||
		    fail "tree-check.py $root"
		[ "$(wc -l <"$T/want.tsv")" -gt 1 ] || fail "no rows: $root"
		if [ -n "$opt" ]; then
			"$P" --tsv --depth="$depth" --min-games="$min" "$opt" \
			    "$G" >"$T/got.tsv" 2>/dev/null
		else
			"$P" --tsv --depth="$depth" --min-games="$min" \
			    "$G" >"$T/got.tsv" 2>/dev/null
		fi
		cmp -s "$T/want.tsv" "$T/got.tsv" || {
			fail "tree from $root depth $depth: differs"
			diff "$T/want.tsv" "$T/got.tsv" >&2
		}
	done
	# JSON: the same rows, keys named as the TSV columns
	"$P" --json -d 4 "$G" >"$T/tree.json" 2>/dev/null
	"$P" --tsv -d 4 "$G" >"$T/tree.tsv" 2>/dev/null
	python3 - "$T/tree.json" "$T/tree.tsv" <<'PY' || fail "JSON and TSV differ"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
tsv = [l.rstrip('\n').split('\t') for l in open(sys.argv[2])]
head = tsv[0]
assert len(rows) == len(tsv) - 1, (len(rows), len(tsv))
for r, t in zip(rows, tsv[1:]):
    assert list(r) == head, (list(r), head)
    for k, v in zip(head, t):
        got = r[k]
        assert ('' if got is None else str(got)) == v, (k, got, v)
PY
else
	echo "python3 absent: the independent script is not run"
fi

# the text table: a header and the same rows
expect 1 "$P" -d 4 "$G"
[ "$(wc -l <"$T/out")" -eq "$(wc -l <"$T/tree.tsv")" ] ||
    fail "text table: $(wc -l <"$T/out") lines"
head -1 "$T/out" | grep -q '^move  *games  *white  *draws  *black' ||
    fail "text header: $(head -1 "$T/out")"
grep -q '^    2\. c4 ' "$T/out" || fail "text table: no indented 2. c4"

# threads, standard input, compressed input: the same table
expect 1 "$P" --tsv -d 4 -j 3 "$G"
cmp -s "$T/out" "$T/tree.tsv" || fail "-j 3 differs"
"$P" --tsv -d 4 -j 1 <"$G" >"$T/out" 2>/dev/null
cmp -s "$T/out" "$T/tree.tsv" || fail "standard input differs"
if command -v gzip >/dev/null 2>&1; then
	gzip -c "$G" >"$T/g.pgn.gz"
	"$P" --tsv -d 4 "$T/g.pgn.gz" >"$T/out" 2>/dev/null
	cmp -s "$T/out" "$T/tree.tsv" || fail "gzip input differs"
fi

# --book: the book of the games with a White win or a draw, beside all
# games; 1. e4 has weight 5 (two wins, a draw), 1. c4 (a loss) none
expect 1 "$P" --polyglot="$T/book.bin" --min-game=1 "$G"
[ -s "$T/book.bin" ] || fail "--polyglot: no book"
[ $(( $(wc -c <"$T/book.bin") % 16 )) -eq 0 ] || fail "book size"
# the same book with any number of threads, from standard input too
for j in 1 3; do
	"$P" --polyglot="$T/book$j.bin" --min-game=1 -j $j <"$G" 2>/dev/null
	cmp -s "$T/book.bin" "$T/book$j.bin" || fail "--polyglot -j $j differs"
done
expect 1 "$P" --tsv --book="$T/book.bin" "$G"
head -1 "$T/out" | grep -q "$(printf '\tbook$')" || fail "--book: no column"
grep -q "$(printf '^\te4\t4\t.*\t5$')" "$T/out" || fail "--book e4: $(cat "$T/out")"
grep -q "$(printf '^\tc4\t1\t.*\t$')" "$T/out" || fail "--book c4: $(cat "$T/out")"
# from the first game alone: the book's other moves, played in no game
"$tooldir/pgn-select" --games=1 "$G" >"$T/one.pgn"
expect 0 "$P" --tsv --book="$T/book.bin" "$T/one.pgn"
grep -q "$(printf '^\te4\t0\t0\t0\t0\t.*\t5$')" "$T/out" ||
    fail "--book, unplayed e4: $(cat "$T/out")"

# --openings: the position a move leads to, named by the table
expect 1 "$P" --tsv -d 2 --openings="$F/openings-small.tsv" "$G"
head -1 "$T/out" | grep -q "$(printf '\teco\topening$')" ||
    fail "--openings: no columns: $(head -1 "$T/out")"
grep -q "$(printf '^1. e4\td5\t1\t.*\tB01\tScandinavian Defense$')" "$T/out" ||
    fail "--openings: $(cat "$T/out")"

# usage errors
for bad in --depth=0 --min-games=x --max-ply=4 --moves=Ke2 --moves=1. \
    --fen=bad '--polyglot=x --depth=2'; do
	# shellcheck disable=SC2086
	expect 2 "$P" $bad "$G"
	grep -q '^pgn-tree: ' "$T/err" || fail "$bad: $(cat "$T/err")"
done
expect 2 "$P" "$T/none.pgn"
grep -q "^pgn-tree: .*none.pgn" "$T/err" || fail "missing file: $(cat "$T/err")"
exit $status
