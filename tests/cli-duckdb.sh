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
# (DUCKDB_DIR); skipped without node, npm, network or the corpus
# (after the text and the usage errors of --sql-dialect=duckdb, which
# need none of them).  Then the rows of both SQL dialects against the TSV's, and the types
# read_csv gives the ratings of all the online exports.
set -u
NAME=duckdb
. "$top_srcdir/tests/testlib.sh"

# First, without DuckDB: the text of --sql-dialect=duckdb (a quote
# doubled, '?' empty: NULL) and its usage errors.
printf '[White "O'"'"'Hara"]\n[WhiteElo "2100"]\n\n1. e4 *\n\n' >"$T/s.pgn"
printf '[White "?"]\n[WhiteElo "?"]\n\n1. d4 *\n' >>"$T/s.pgn"
{
	printf '%s\n' 'CREATE TABLE "games" ("_game" INTEGER, "White" TEXT, "WhiteElo" INTEGER);' \
	    'BEGIN;' 'INSERT INTO "games" SELECT'
	for i in 1 2 3; do
		printf "NULLIF(unnest(string_split(c%d, chr(31))), '')%s\n" $i \
		    "$([ $i = 3 ] || echo ,)"
	done
	printf "FROM (SELECT\n'1\037%s' AS c1,\n'O''Hara\037' AS c2,\n" 2
	printf "'2100\037' AS c3) AS v;\nCOMMIT;\n"
} >"$T/s.want"
"$tooldir/pgn2tsv" --sql --sql-dialect=duckdb -f @game,White,WhiteElo \
    "$T/s.pgn" >"$T/s.sql" || fail "--sql-dialect=duckdb: exit status $?"
cmp -s "$T/s.want" "$T/s.sql" ||
    { fail "--sql-dialect=duckdb: not the statement"; diff "$T/s.want" "$T/s.sql" >&2; }
"$tooldir/pgn2tsv" --sql-dialect=duckdb "$T/s.pgn" >"$T/out" 2>"$T/err"
[ $? = 2 ] && grep -q 'needs --sql' "$T/err" ||
    fail "--sql-dialect without --sql: $(cat "$T/err")"
"$tooldir/pgn2tsv" --sql --sql-dialect=mysql "$T/s.pgn" >"$T/out" 2>"$T/err"
[ $? = 2 ] && grep -q "'mysql' is neither" "$T/err" ||
    fail "--sql-dialect=mysql: $(cat "$T/err")"

C="${CORPUS:-/nonexistent}/online/pnmadelaine-chess--lichess.pgn.xz"
[ "$status" = 0 ] || exit 1
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

# The rows of --sql, standard and --sql-dialect=duckdb, are those of
# the TSV: the export five times over and the 201 games above (10,751
# rows; an illegal game among them, rejected: 10,752 game numbers, 11
# standard INSERTs, 2 DuckDB ones), loaded by DuckDB (both forms) and sqlite3 (the standard one),
# against awk's reading of the TSV ('?', '????.??.??' and empty NULL,
# an integer column's non-integers NULL, '+12' 12).  The DuckDB form is
# the same with -j1 and -j2.
F=@game,Event,Site,Date,Round,White,Black,Result,WhiteElo,BlackElo,ECO
F=$F,TimeControl,Termination,@plies,@elo_diff,@result,@termination
xz -dc "$C" >one.pgn
printf '\n[White "X"]\n\n1. e4 e5 2. Ke3 *\n' >bad.pgn
cat one.pgn one.pgn "$in" bad.pgn one.pgn one.pgn one.pgn >big.pgn
"$tooldir/pgn2tsv" -q -f "$F" big.pgn >big.tsv 2>err
[ $? = 1 ] || fail "pgn2tsv big.pgn: exit status not 1"
"$tooldir/pgn2tsv" -q -j2 --sql -f "$F" big.pgn >std.sql 2>err
"$tooldir/pgn2tsv" -q -j2 --sql --sql-dialect=duckdb -f "$F" big.pgn >duck.sql 2>err
"$tooldir/pgn2tsv" -q -j1 --sql --sql-dialect=duckdb -f "$F" big.pgn >duck1.sql 2>err
cmp -s duck.sql duck1.sql || fail "--sql-dialect=duckdb: -j1 and -j2 differ"
[ "$(grep -c '^INSERT' std.sql) $(grep -c '^INSERT' duck.sql)" = "11 2" ] ||
    fail "not 11 and 2 INSERTs: $(grep -c '^INSERT' std.sql) $(grep -c '^INSERT' duck.sql)"
grep -q 'VALUES' duck.sql && fail "--sql-dialect=duckdb: a VALUES list"
awk -F'\t' -v OFS='\t' 'NR > 1 { for (i = 1; i <= NF; i++) {
	v = $i
	if (v ~ /^"/) { v = substr(v, 2, length(v) - 2); gsub(/""/, "\"", v) }
	if (v == "" || v == "?" || v == "????.??.??") v = "@NULL@"
	if (i == 1 || i == 9 || i == 10 || i == 14 || i == 15) {
		if (v ~ /^[-+]?[0-9]+$/) sub(/^\+/, "", v); else v = "@NULL@"
	}
	$i = v } print }' big.tsv >rows.want
[ "$(wc -l <rows.want)" = 10751 ] || fail "not 10751 rows: $(wc -l <rows.want)"
for s in std duck; do
	node "$top_srcdir/tests/duckdb-check.mjs" "$D" --rows $s.sql >$s.rows 2>err ||
	    fail "DuckDB --rows $s.sql: $(cat err)"
	cmp -s rows.want $s.rows ||
	    { fail "DuckDB's rows of $s.sql differ from the TSV"; diff rows.want $s.rows | head >&2; }
done
if command -v sqlite3 >/dev/null 2>&1; then
	sqlite3 :memory: '.read std.sql' '.mode tabs' '.nullvalue @NULL@' \
	    'SELECT * FROM games ORDER BY 1' >sqlite.rows 2>err ||
	    fail "sqlite3: $(cat err)"
	cmp -s rows.want sqlite.rows ||
	    { fail "sqlite3's rows differ from the TSV"; diff rows.want sqlite.rows | head >&2; }
fi

# A value with the unit separator (a file name here): that statement is
# written in the standard form, and loads the same.
u=$(printf 'u\037v.pgn')
cp "$in" "$u"
"$tooldir/pgn2tsv" --sql --sql-dialect=duckdb -f @game,@file,White "$u" >u.sql ||
    fail "pgn2tsv --sql-dialect=duckdb: exit status $?"
grep -q '^INSERT INTO "games" VALUES$' u.sql || fail "no VALUES list for 0x1f"
node "$top_srcdir/tests/duckdb-check.mjs" "$D" --rows u.sql >u.rows 2>err ||
    fail "DuckDB --rows u.sql: $(cat err)"
awk -F'\t' -v u="$u" '{ n++; if ($2 == u) k++ } END { print n, k }' u.rows >u.got
echo "201 201" | cmp -s - u.got || fail "file name with 0x1f: $(cat u.got)"

# The types read_csv gives the ratings of the online exports, with
# nullstr as pgn2tsv(1) says: BIGINT, though '?' stands for some.
for f in "${CORPUS}"/online/*.pgn.xz; do xz -dc "$f"; done |
    "$tooldir/pgn2tsv" -q -f White,WhiteElo,BlackElo,Date >online.tsv
grep -q '	?	' online.tsv || fail "no '?' rating in the online exports"
node "$top_srcdir/tests/duckdb-check.mjs" "$D" --types online.tsv >types 2>err ||
    fail "DuckDB --types: $(cat err)"
printf 'White VARCHAR\nWhiteElo BIGINT\nBlackElo BIGINT\nDate DATE\n' |
    cmp -s - types || { fail "read_csv's types"; cat types >&2; }
exit "$status"
