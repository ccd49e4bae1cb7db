#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-positions-duckdb.sh: the recipe of pgn2tsv(1) --positions on the
# online exports: the rows loaded into DuckDB (npm's @duckdb/node-api,
# as cli-duckdb.sh installs it) and written to Parquet; the games that
# reach the position after 1. e4 c5 by key (any move order) are
# pgn-select --position's count, and the moves played from it and
# their games pgn-tree's.  Skipped without node, npm, network or the
# corpus.
set -u
NAME=posdb
. "$top_srcdir/tests/testlib.sh"
O="${CORPUS:-/nonexistent}/online"
[ -d "$O" ] || { echo "SKIP: no corpus at $O"; exit 77; }
. "$top_srcdir/tests/npm-lib.sh"
D="${DUCKDB_DIR:-$top_builddir/tests/duckdb}"
npm_package @duckdb/node-api@1.5.6-r.1 "$D" ||
    { echo "SKIP: $npm_why"; exit 77; }
cd "$T" || exit 99
"$tooldir/pgn2tsv" -q --positions "$O"/*.pgn.xz >p.tsv
[ $? -eq 1 ] || fail "pgn2tsv: exit status $? (the variants' games are rejected: 1)"
fen='rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2'
key=644d4afe02564aeb
node "$top_srcdir/tests/positions-duckdb.mjs" "$D" p.tsv p.parquet $key \
    >got 2>err || { fail "DuckDB: $(cat err)"; exit 1; }
cat err
{
	echo "rows $(($(wc -l <p.tsv) - 1))"
	n=$("$tooldir/pgn-select" -q -c --position="$fen" "$O"/*.pgn.xz |
	    awk -F: '{ n += $NF } END { print n }')
	echo "games $n"
	echo "parquet_games $n"
	"$tooldir/pgn-tree" -q --tsv --moves='1. e4 c5' "$O"/*.pgn.xz |
	    awk -F'\t' 'NR > 1 { print "move " $2 " " $3 }' |
	    sort -k3,3nr -k2,2
} >want
[ "$(sed -n 's/^games //p' want)" -gt 1000 ] || fail "few games: $(head -3 want)"
cmp -s got want || { fail "DuckDB and pgn-select/pgn-tree differ"; diff want got >&2; }
exit "$status"
