#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-positions.sh: positions as data.  pgn2tsv --positions on
# tests/files/positions.pgn: the golden rows (the keys of games 1 and 2
# are the values published with the Polyglot format), one row per
# position (plies + 1 a game), the same rows as CSV, at any -j, from
# gzip input, with the rejected game in --rejects; pgn2json --positions
# the same values; a key's rows give pgn-select --position's games and
# pgn-tree's moves (a transposition whose EPDs differ by an en passant
# square no pawn can take); pgn2epd --key and @key the same keys; with
# the corpus, the online exports at -j1 and -j2 alike and their counts.
set -u
NAME=pos
. "$top_srcdir/tests/testlib.sh"
P="$tooldir/pgn2tsv"
in="$F/positions.pgn"
cd "$T" || exit 99

expect 2 "$P" --positions -f White "$in"
grep -q 'no --fields' err || fail "--positions -f: $(cat err)"
expect 2 "$tooldir/pgn2json" --positions --fens "$in"

# the golden rows; game 5 (an illegal move) rejected and kept
expect 1 "$P" --positions --rejects=rej.pgn "$in"
cmp -s out "$E/positions.tsv" || { fail "positions.tsv differs"; diff "$E/positions.tsv" out >&2; }
grep -q '^\[Event "bad"\]' rej.pgn || fail "the rejected game is not in --rejects"
# published keys (the Polyglot format's description): by hand
for want in '1	0	463b96181691fc9c' '1	1	823c9b50fd114196' \
    '1	2	0756b94461c50fb0' '1	3	662fafb965db29d4' \
    '1	4	22a48b5a8e47ff78' '1	5	652a607ca3f242c1' \
    '1	6	00fdd303c946bdd9' '2	5	3c8123ea7b067637' \
    '2	7	5c3f9b829b279560'; do
	grep -q "^$want	" out || fail "no row '$want'"
done
# the move from the final position is empty; Elos numbers or empty
grep -q '^1	6	00fdd303c946bdd9	[^	]*		1-0	2500	$' out ||
    fail "game 1's final row: $(grep '^1	6' out)"
grep -q '^2	0	.*	a4	0-1	100	1900$' out || fail "Elo 0100 not 100"

# rows = plies + 1 for each game
rows=$(($(wc -l <out) - 1))
want=$("$P" -q -H -f @plies "$in" | awk '{ n += $1 + 1 } END { print n }')
[ "$rows" -eq "$want" ] && [ "$rows" -eq 27 ] ||
    fail "$rows rows, $want plies + games (27)"

# CSV: the same rows (no field needs quotes)
"$P" -q --positions --csv "$in" >csv
tr ',' '\t' <csv | tr -d '\r' | cmp -s - out || fail "CSV rows differ"
# -j and gzip: the same bytes
for i in 1 2 3 4 5 6 7 8; do cat "$in"; done >many.pgn
"$P" -q --positions -j1 many.pgn >j1
"$P" -q --positions -j2 many.pgn >j2
cmp -s j1 j2 || fail "-j1 and -j2 differ"
gzip -c "$in" >in.pgn.gz
"$P" -q --positions in.pgn.gz >gz
cmp -s gz out || fail "gzip input differs"

# --sql: table positions, one INSERT a thousand games at any -j, the
# same rows in sqlite3 (an empty move or Elo NULL)
"$P" -q --positions --sql -j1 many.pgn >s1
"$P" -q --positions --sql -j2 many.pgn >s2
cmp -s s1 s2 || fail "--sql: -j1 and -j2 differ"
grep -q '^CREATE TABLE "positions" ("game" INTEGER, "ply" INTEGER, "key" TEXT, "epd" TEXT, "move" TEXT, "result" TEXT, "white_elo" INTEGER, "black_elo" INTEGER);$' s1 ||
    fail "--sql: $(head -1 s1)"
if command -v sqlite3 >/dev/null 2>&1; then
	"$P" -q --positions --sql "$in" | sqlite3 db.sqlite
	sqlite3 -separator '	' -header -cmd '.nullvalue ""' db.sqlite \
	    'SELECT * FROM positions ORDER BY game, ply' >sq
	cmp -s sq out || { fail "sqlite3 rows differ"; diff out sq >&2; }
	n=$(sqlite3 db.sqlite "SELECT count(*) FROM positions WHERE move IS NULL AND typeof(white_elo) = 'integer'")
	[ "$n" -eq 2 ] || fail "sqlite3: $n final rows with a White Elo, 2 wanted"
fi

# pgn2json --positions: the same values
"$tooldir/pgn2json" -q --positions "$in" >json
[ "$(wc -l <json)" -eq "$rows" ] || fail "pgn2json: $(wc -l <json) objects"
if command -v jq >/dev/null 2>&1; then
	jq -r '[.game, .ply, .key, .epd, .move // "", .result,
	    .white_elo // "", .black_elo // ""] | @tsv' json >jt
	tail -n +2 out | cmp -s - jt || { fail "pgn2json and pgn2tsv differ"; diff jt out >&2; }
fi

# a key's rows: the games reaching the position (1. e4 c5 2. Nf3 and
# 1. Nf3 c5 2. e4, whose EPD has e3) and the moves played from it
k=bf29a6086ab02bd6
games=$(awk -F'\t' -v k=$k '$3 == k { g[$1] } END { print length(g) }' out)
sel=$("$tooldir/pgn-select" -q -c \
    --position='rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2' "$in")
[ "$games" -eq 2 ] && [ "$sel" -eq 2 ] || fail "key $k: $games games, pgn-select $sel"
moves=$(awk -F'\t' -v k=$k '$3 == k && $5 != "" { print $5 }' out)
tree=$("$tooldir/pgn-tree" -q --tsv --moves='1. e4 c5 2. Nf3' "$in" |
    awk -F'\t' 'NR > 1 { print $2 }')
[ "$moves" = d6 ] && [ "$tree" = d6 ] || fail "key $k: moves '$moves', pgn-tree '$tree'"

# pgn2epd --key (Key in --ops) and @key: the same keys
expect 1 "$tooldir/pgn2epd" --key "$in"
sed -n 's/.* Key "\([0-9a-f]*\)";.*/\1/p' out >ek
[ "$(wc -l <ek)" -eq "$rows" ] || fail "pgn2epd --key: $(wc -l <ek) keys"
"$P" -q -H --positions "$in" | cut -f3 | cmp -s - ek || fail "pgn2epd keys differ"
"$tooldir/pgn2epd" -q --ops=Key,sm "$in" >ops
"$tooldir/epd-validate" -n ops | cmp -s - ops || fail "epd-validate -n changes Key lines"
grep -q '^rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - Key "463b96181691fc9c"; sm e4;$' ops ||
    fail "--ops=Key,sm: $(head -1 ops)"
"$P" -q -H -f @key "$in" >fk
"$P" -q -H --positions "$in" | awk -F'\t' '$5 == "" { print $3 }' |
    cmp -s - fk || fail "@key is not the final rows' key"
expect 2 "$tooldir/pgn2epd" --ops=key "$in"

# the online exports: -j1 and -j2 alike, rows = plies + games
C="${CORPUS:-/nonexistent}/online/pnmadelaine-chess--lichess.pgn.xz"
if [ -f "$C" ]; then
	"$P" -q --positions -j1 "$C" >c1
	"$P" -q --positions -j2 "$C" >c2
	cmp -s c1 c2 || fail "corpus: -j1 and -j2 differ"
	want=$("$P" -q -H -f @plies "$C" | awk '{ n += $1 + 1 } END { print n }')
	[ $(($(wc -l <c1) - 1)) -eq "$want" ] || fail "corpus: $(wc -l <c1) rows, $want wanted"
fi
exit "$status"
