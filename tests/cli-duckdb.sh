#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-duckdb.sh: the DuckDB examples of pgn2tsv(1) and pgn2json(1) on
# 201 games (the first 199 of a lichess export, one whose White begins
# with a `"` and one rated `?`, read from a file whose name holds a
# tab, so that @file is a quoted TSV field with a tab in it): read_csv
# (with nullstr as pgn2tsv(1) says: WhiteElo typed BIGINT) and
# read_json load them, pgn2tsv --sql's script runs, counts and typed
# comparisons agree with awk and jq, and a Parquet file written with
# COPY reads back the same.  DuckDB is npm's
# @duckdb/node-api, installed once into $top_builddir/tests/duckdb
# (DUCKDB_DIR); skipped without node, npm, network or the corpus.
set -u
NAME=duckdb
. "$top_srcdir/tests/testlib.sh"
C="${CORPUS:-/nonexistent}/online/pnmadelaine-chess--lichess.pgn.xz"
[ -f "$C" ] || { echo "SKIP: no corpus at $C"; exit 77; }
command -v jq >/dev/null 2>&1 || { echo "SKIP: jq is not installed"; exit 77; }
. "$top_srcdir/tests/npm-lib.sh"
D="${DUCKDB_DIR:-$top_builddir/tests/duckdb}"
npm_package @duckdb/node-api@1.5.6-r.1 "$D" ||
    { echo "SKIP: $npm_why"; exit 77; }
cd "$T" || exit 99
in=$(printf 'a\tb.pgn')
xz -dc "$C" | head -c 600000 | "$tooldir/pgn-select" -q --games=1-199 >"$in"
printf '\n[White "\\"Q\\" Smith"]\n[WhiteElo "2100"]\n\n1. e4 *\n' >>"$in"
printf '\n[White "Anonymous"]\n[WhiteElo "?"]\n\n1. d4 *\n' >>"$in"
"$tooldir/pgn2tsv" -f @game,White,Black,WhiteElo,@plies,@file "$in" >g.tsv ||
    fail "pgn2tsv: exit status $?"
"$tooldir/pgn2json" "$in" >g.ndjson || fail "pgn2json: exit status $?"
"$tooldir/pgn2tsv" --sql -f @game,White,Black,WhiteElo,@plies "$in" >g.sql ||
    fail "pgn2tsv --sql: exit status $?"
node "$top_srcdir/tests/duckdb-check.mjs" "$D" g.tsv g.ndjson g.parquet g.sql >got 2>err ||
    { fail "DuckDB: $(cat err)"; exit 1; }
# the same from awk (the columns before @file) and jq
{
	awk -F'\t' 'NR > 1 { n++; if ($4 ~ /^[0-9]+$/ && $4 > 2000) e++;
	    if ($5 > 100) p++; if ($2 == "\"\"\"Q\"\" Smith\"") qq++ }
	    END { printf "tsv_rows %d\ntsv_elo_type BIGINT\ntsv_elo2000 %d\ntsv_plies100 %d\ntsv_quoted %d\ntsv_tab %d\n", n, e, p, qq, n
	      printf "sql_rows %d\nsql_elo2000 %d\nsql_plies100 %d\nsql_types INTEGER INTEGER\n", n, e, p }' g.tsv
	jq -s -r '"json_rows \(length)",
	    "json_plies100 \(map(select(.plies > 100)) | length)",
	    "json_clocks \([.[] | .clocks // [] | .[] | select(. != null)] | length)",
	    "parquet_rows \(length)",
	    "parquet_plies \(map(.plies) | add)",
	    "parquet_quoted \(map(select(.tags.White == "\"Q\" Smith")) | length)"' g.ndjson
} >want
[ "$(sed -n 's/^tsv_rows //p' want)" = 201 ] || fail "not 201 games: $(cat want)"
[ "$(sed -n 's/^json_clocks //p' want)" -gt 1000 ] || fail "few clocks: $(cat want)"
cmp -s got want || { fail "DuckDB and awk/jq differ"; diff want got >&2; }
exit "$status"
