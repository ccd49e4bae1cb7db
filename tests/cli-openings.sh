#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-openings.sh: --openings in every tool that classifies
# (pgn-regularize, pgn-select, pgn2json, pgn2tsv): the golden
# classification of tests/files/openings-games.pgn (the Caro-Kann
# that pgn-extract files as a French, en passant, two lines ending in
# one position, the last position counting, a FEN start), the TSV and
# PGN forms of one table giving the same, CHESSDATA_OPENINGS and the
# option over it, a compressed table, -j, what each tool does with the
# classification, and the errors: a table that cannot be read or does
# not read (exit 2, "prog: file:line:col: message"), a field or
# condition that needs a table.  With ../shared/data/openings and
# pgn-extract's eco.pgn present, a transposition on the real tables.
set -u
NAME=opn
. "$top_srcdir/tests/testlib.sh"
cd "$F" || exit 99
TSV=openings-small.tsv
PGN=openings-small.pgn
G=openings-games.pgn
FIELDS=@game,@eco,@opening,@opening_ply,Event

# every tool: --help names the option; a missing or bad table is exit 2
printf 'eco\tname\tpgn\nA00\tok\t1. e4\nA00\tbad\t1. e4 e5 2. Ke3\n' >"$T/bad.tsv"
for p in pgn-regularize pgn-select pgn2json pgn2tsv; do
	expect 0 "$tooldir/$p" --help
	grep -q -- '--openings=FILE' "$T/out" || fail "$p --help: no --openings"
	expect 2 "$tooldir/$p" --openings="$T/none.tsv" $G
	grep -q "^$p: .*none.tsv" "$T/err" || fail "$p missing table: $(cat "$T/err")"
	[ -s "$T/out" ] && fail "$p missing table: output written"
	expect 2 "$tooldir/$p" --openings="$T/bad.tsv" $G
	grep -q "^$p: $T/bad.tsv:3:21: Ke3: " "$T/err" ||
	    fail "$p bad table: $(cat "$T/err")"
	CHESSDATA_OPENINGS="$T/bad.tsv" expect 2 "$tooldir/$p" $G
	grep -q "^$p: $T/bad.tsv:3:21: " "$T/err" ||
	    fail "$p bad CHESSDATA_OPENINGS table: $(cat "$T/err")"
	# the option replaces the variable
	CHESSDATA_OPENINGS="$T/bad.tsv" expect 0 "$tooldir/$p" --openings=$TSV $G
done

# the golden classification; the PGN form, the variable (with empty
# parts), a compressed table, -j give the same
expect 0 "$tooldir/pgn2tsv" --openings=$TSV -f $FIELDS $G
cmp -s "$T/out" "$E/openings-games.tsv" ||
    { fail "openings-games.tsv differs"; diff "$E/openings-games.tsv" "$T/out" >&2; }
same() {
	cmp -s "$T/out" "$E/openings-games.tsv" ||
	    { fail "$1: differs"; diff "$E/openings-games.tsv" "$T/out" >&2; }
}
expect 0 "$tooldir/pgn2tsv" --openings=$PGN -f $FIELDS $G
same "PGN table"
CHESSDATA_OPENINGS=":$F/$TSV:" expect 0 "$tooldir/pgn2tsv" -f $FIELDS $G
same "CHESSDATA_OPENINGS"
xz -c $TSV >"$T/t.tsv.xz"
expect 0 "$tooldir/pgn2tsv" --openings="$T/t.tsv.xz" -j 3 -f $FIELDS $G
same "xz table, -j 3"
# two tables: the first read wins a position both name
printf 'eco\tname\tpgn\nZ99\tFirst table\t1. e4 c6\n' >"$T/first.tsv"
printf '1. e4 c6 *\n' >"$T/g.pgn"
expect 0 "$tooldir/pgn2tsv" --openings="$T/first.tsv" --openings=$TSV -H -f @eco,@opening "$T/g.pgn"
[ "$(cat "$T/out")" = "$(printf 'Z99\tFirst table')" ] || fail "two tables: $(cat "$T/out")"
expect 0 "$tooldir/pgn2tsv" --openings=$TSV --openings="$T/first.tsv" -H -f @eco,@opening "$T/g.pgn"
[ "$(cat "$T/out")" = "$(printf 'B10\tCaro-Kann Defense')" ] || fail "two tables, other order: $(cat "$T/out")"

# fields and conditions that need a table
expect 2 "$tooldir/pgn2tsv" -f @eco $G
grep -q "^pgn2tsv: field '@eco' needs opening tables" "$T/err" || fail "@eco without table: $(cat "$T/err")"
expect 2 "$tooldir/pgn-select" --opening=French $G
grep -q "^pgn-select: --opening needs opening tables" "$T/err" || fail "--opening without table: $(cat "$T/err")"

# pgn2json: "opening" after "termination", null when no line
expect 0 "$tooldir/pgn2json" --openings=$TSV $G
if command -v jq >/dev/null 2>&1; then
	jq -r '[.game, (.opening.eco // ""), (.opening.name // ""), (.opening.ply // ""), .tags.Event] | @tsv' \
	    "$T/out" >"$T/json.tsv"
	tail -n +2 "$E/openings-games.tsv" | cmp -s - "$T/json.tsv" ||
	    { fail "pgn2json opening differs"; diff "$T/json.tsv" "$E/openings-games.tsv" >&2; }
fi
grep -q '"termination":null,"opening":null' "$T/out" || fail "pgn2json: no null opening"
expect 0 "$tooldir/pgn2json" $G
grep -q '"opening"' "$T/out" && fail "pgn2json without tables writes opening"

# pgn-select: --opening and --eco on the computed classification
# (game 1 has the tags ECO C02 and Opening French: without tables they
# count)
expect 0 "$tooldir/pgn-select" -c --openings=$TSV --opening='^French' $G
[ "$(cat "$T/out")" = 3 ] || fail "--opening=^French: $(cat "$T/out") games, expected 3"
expect 0 "$tooldir/pgn-select" -c --openings=$TSV --eco=C02 $G
[ "$(cat "$T/out")" = 2 ] || fail "--openings --eco=C02: $(cat "$T/out") games, expected 2"
expect 0 "$tooldir/pgn-select" -c --eco=C02 $G
[ "$(cat "$T/out")" = 1 ] || fail "--eco=C02 (tag): $(cat "$T/out") games, expected 1"
expect 0 "$tooldir/pgn-select" -c -i --openings=$TSV --opening='caro-kann.*advance' --eco=B12 $G
[ "$(cat "$T/out")" = 1 ] || fail "-i --opening --eco: $(cat "$T/out")"

# a table that the games, or another table, are read from too, where
# reading uses it up: standard input, a FIFO (a usage error, nothing
# written, before anything is read); a regular file may be both, and
# "-" is the table when the games are named
mkfifo "$T/fifo" || fail "mkfifo"
for p in pgn-regularize pgn-select pgn2json pgn2tsv; do
	a=
	[ "$p" = pgn-select ] && a=-c
	expect 2 "$tooldir/$p" $a --openings=- <$G
	grep -q "^$p: --openings=-: the opening table and the games cannot both be read from standard input\$" "$T/err" ||
	    fail "$p --openings=- <games: $(cat "$T/err")"
	[ -s "$T/out" ] && fail "$p --openings=- <games: output written"
	expect 2 "$tooldir/$p" $a --openings=$TSV --openings=- - <$G
	grep -q "^$p: --openings=-: the opening table and the games" "$T/err" ||
	    fail "$p --openings=- -: $(cat "$T/err")"
	expect 2 "$tooldir/$p" $a --openings=- --openings=- $G <$TSV
	grep -q "^$p: --openings=-: standard input is named as two" "$T/err" ||
	    fail "$p two tables -: $(cat "$T/err")"
	# (standard input a pipe: /dev/stdin is the same pipe)
	cat $G | CHESSDATA_OPENINGS=/dev/stdin expect 2 "$tooldir/$p" $a
	grep -q "^$p: CHESSDATA_OPENINGS names /dev/stdin: the opening table is the standard input the games are read from\$" "$T/err" ||
	    fail "$p CHESSDATA_OPENINGS=/dev/stdin: $(cat "$T/err")"
	# (a tool that opens the FIFO waits for a writer: timeout)
	expect 2 timeout 20 "$tooldir/$p" $a --openings="$T/fifo" $G "$T/fifo"
	grep -q "^$p: --openings=$T/fifo: the opening table is also a games input, and it can be read only once\$" "$T/err" ||
	    fail "$p FIFO table and input: $(cat "$T/err")"
	expect 0 "$tooldir/$p" $a --openings=- $G <$TSV
	"$tooldir/$p" $a --openings=$TSV $G >"$T/want" 2>/dev/null
	cmp -s "$T/want" "$T/out" || fail "$p --openings=- with the games named"
	expect 0 "$tooldir/$p" $a --openings=$PGN $PGN
done

# a line without its names is an error where it is (exit 2, nothing
# written): an empty eco or name column, a PGN line without its ECO or
# Opening tag, a file of games read as a table
printf 'eco\tname\tpgn\nB10\tCaro\t1. e4 c6\nB12\t\t1. e4 c6 2. d4 d5 3. e5\n' >"$T/noname.tsv"
printf 'eco\tname\tpgn\n\tCaro\t1. e4 c6\n' >"$T/noeco.tsv"
printf '[ECO "B10"]\n[Opening "Caro"]\n\n1. e4 c6 *\n\n[ECO "B12"]\n\n1. e4 c6 2. d4 d5 3. e5 *\n' >"$T/noname.pgn"
for p in pgn-regularize pgn2json pgn2tsv; do
	expect 2 "$tooldir/$p" --openings="$T/noname.tsv" $G
	grep -q "^$p: $T/noname.tsv:3:5: empty name column: " "$T/err" ||
	    fail "$p empty name: $(cat "$T/err")"
	[ -s "$T/out" ] && fail "$p empty name: output written"
	expect 2 "$tooldir/$p" --openings="$T/noeco.tsv" $G
	grep -q "^$p: $T/noeco.tsv:2:1: empty eco column: " "$T/err" ||
	    fail "$p empty eco: $(cat "$T/err")"
	expect 2 "$tooldir/$p" --openings="$T/noname.pgn" $G
	grep -q "^$p: $T/noname.pgn:6:1: game 2 has no Opening tag: " "$T/err" ||
	    fail "$p no Opening tag: $(cat "$T/err")"
	expect 2 "$tooldir/$p" --openings=sample.pgn $G
	grep -q "^$p: sample.pgn:1:1: game 1 has no .*Opening tag: not an opening table (a file of games?)\$" "$T/err" ||
	    fail "$p games as a table: $(cat "$T/err")"
	[ -s "$T/out" ] && fail "$p games as a table: output written"
done
expect 1 "$tooldir/pgn-select" --openings=$TSV --opening='Sicilian' $G

# pgn-regularize: the tags written, as the classification says; -v
# tells what was replaced; a game no line classifies keeps its tags
expect 0 "$tooldir/pgn-regularize" -q --openings=$TSV $G
"$tooldir/pgn2tsv" -H -f @game,ECO,Opening "$T/out" >"$T/tags" 2>/dev/null
cut -f1-3 "$E/openings-games.tsv" | tail -n +2 | cmp -s - "$T/tags" ||
    { fail "pgn-regularize tags differ"; diff "$T/tags" "$E/openings-games.tsv" >&2; }
expect 0 "$tooldir/pgn-regularize" -q -v --openings=$TSV $G
grep -q 'game 1: ECO "C02" replaced by "B12"' "$T/err" || fail "-v: ECO: $(cat "$T/err")"
grep -q 'game 1: Opening "French" replaced by "Caro-Kann Defense: Advance Variation"' "$T/err" ||
    fail "-v: Opening: $(cat "$T/err")"
printf '[ECO "A00"]\n[Opening "Mine"]\n[Variation "Old"]\n\n1. a3 *\n\n[ECO "A00"]\n[Variation "Old"]\n\n1. e4 c6 *\n' >"$T/keep.pgn"
expect 0 "$tooldir/pgn-regularize" -q -v --openings=$TSV "$T/keep.pgn"
"$tooldir/pgn2tsv" -H -f ECO,Opening,Variation "$T/out" >"$T/tags" 2>/dev/null
printf 'A00\tMine\tOld\nB10\tCaro-Kann Defense\t\n' | cmp -s - "$T/tags" || fail "kept tags: $(cat "$T/tags")"
grep -q 'game 2: Variation "Old" removed' "$T/err" || fail "-v: removed: $(cat "$T/err")"
# a PGN table writes Variation too
expect 0 "$tooldir/pgn-regularize" -q --openings=$PGN $G
"$tooldir/pgn2tsv" -H -f @game,ECO,Opening,Variation "$T/out" 2>/dev/null | head -1 >"$T/tags"
printf '1\tB12\tCaro-Kann Defense\tAdvance Variation\n' | cmp -s - "$T/tags" || fail "PGN table tags: $(cat "$T/tags")"

# control bytes in a table's names are spaces, as in tag columns (a
# PGN table or game holds only those that are not binary data: ESC)
printf 'eco\tname\tpgn\nB10\tCaro\001Kann\177x\t1. e4 c6\n' >"$T/ctl.tsv"
printf '[ECO "B\033"]\n[Opening "Caro\033Kann"]\n\n1. e4 c6 *\n' >"$T/ctl.pgn"
printf '[Event "a\033b"]\n\n1. e4 c6 *\n' >"$T/ctl-game.pgn"
expect 0 "$tooldir/pgn2tsv" -H -f Event,@eco,@opening --openings="$T/ctl.tsv" "$T/ctl-game.pgn"
printf 'a b\tB10\tCaro Kann x\n' | cmp -s - "$T/out" || fail "@opening control bytes: $(od -c "$T/out")"
expect 0 "$tooldir/pgn2tsv" -H -f Event,@eco,@opening --openings="$T/ctl.pgn" "$T/ctl-game.pgn"
printf 'a b\tB \tCaro Kann\n' | cmp -s - "$T/out" || fail "@eco control bytes: $(od -c "$T/out")"
expect 0 "$tooldir/pgn2json" --openings="$T/ctl.tsv" "$T/ctl-game.pgn"
grep -q '"opening":{"eco":"B10","name":"Caro Kann x",' "$T/out" || fail "pgn2json opening control bytes: $(cat "$T/out")"

# the real tables: a Caro-Kann reached by transposition, not a French
D="${CORPUS:-/nonexistent}/../data/openings"
printf '1. e4 c6 2. d4 d5 3. e5 c5 4. dxc5 e6 *\n' >"$T/transposed.pgn"
if [ -f "$D/a.tsv" ]; then
	expect 0 "$tooldir/pgn2tsv" -H -f @eco,@opening,@opening_ply \
	    --openings="$D/a.tsv" --openings="$D/b.tsv" --openings="$D/c.tsv" \
	    --openings="$D/d.tsv" --openings="$D/e.tsv" "$T/transposed.pgn"
	[ "$(cut -f1 "$T/out")" = B12 ] || fail "lichess tables: $(cat "$T/out")"
fi
if [ -f /usr/share/pgn-extract/eco.pgn ]; then
	expect 0 "$tooldir/pgn2tsv" -H -f @eco,@opening,@opening_ply \
	    --openings=/usr/share/pgn-extract/eco.pgn "$T/transposed.pgn"
	[ "$(cut -f1,2 "$T/out")" = "$(printf 'B12\tCaro-Kann: advance variation')" ] ||
	    fail "eco.pgn: $(cat "$T/out")"
fi
exit $status
