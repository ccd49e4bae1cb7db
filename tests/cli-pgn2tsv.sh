#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-pgn2tsv.sh: pgn2tsv: help, version, usage errors, the golden TSV
# and CSV of tests/files/json-games.pgn, the tag-only path (no parse,
# no game rejected, the same values as the parsed path), --no-header.
set -u
NAME=p2t
. "$top_srcdir/tests/testlib.sh"
P="$tooldir/pgn2tsv"
cd "$F" || exit 99

expect 0 "$P" --help
grep -q -- '--fields' "$T/out" || fail "--help does not list --fields"
expect 0 "$P" --version
expect 2 "$P" -f White,@nope json-games.pgn
grep -q "^pgn2tsv: unknown field '@nope'" "$T/err" || fail "@nope: $(cat "$T/err")"
expect 2 "$P" -f White,,Black json-games.pgn
expect 2 "$P" -x

# default columns: the roster and @plies; game 3 rejected
expect 1 "$P" json-games.pgn
cmp -s "$T/out" "$E/json-games.tsv" || { fail "json-games.tsv differs"; diff "$E/json-games.tsv" "$T/out" >&2; }
sed 's/^pgn2json:/pgn2tsv:/' "$E/json-games.err" >"$T/err.want"
cmp -s "$T/err" "$T/err.want" || fail "messages differ: $(cat "$T/err")"

# every computed field, CSV
expect 1 "$P" --csv -f @game,White,@start,@moves,@uci,@plies,@result,@final,@termination,Missing json-games.pgn
cmp -s "$T/out" "$E/json-games.csv" || { fail "json-games.csv differs"; diff "$E/json-games.csv" "$T/out" >&2; }

# tags only: nothing parsed, nothing rejected, the same values
expect 0 "$P" -H -f Event,White,Black,Result,ECO json-games.pgn
[ "$(wc -l <"$T/out")" -eq 6 ] || fail "tag-only: $(wc -l <"$T/out") rows, expected 6"
[ "$(cat "$T/err")" = "pgn2tsv: warning: no game has a tag 'ECO': an empty column" ] || fail "tag-only: messages: $(cat "$T/err")"
grep -v '^Illegal' "$T/out" >"$T/tags"
"$P" -H -f Event,White,Black,Result,ECO,@plies json-games.pgn 2>/dev/null |
    cut -f1-5 >"$T/parsed"
cmp -s "$T/tags" "$T/parsed" || { fail "tag-only and parsed values differ"; diff "$T/tags" "$T/parsed" >&2; }
# every row one line
[ "$(awk -F'\t' 'NF != 5' "$T/out" | wc -l)" -eq 0 ] || fail "rows with other than 5 fields"

# the value rules (tests/files/tsv-values.pgn): a value with a double
# quote quoted as RFC 4180 says, backslashes as they are, C1, U+2028 and
# U+2029 spaces, Result the tag as written (a missing one the marker);
# both paths, TSV and CSV
for fl in "" "--csv"; do
	ext=tsv; [ -n "$fl" ] && ext=csv
	expect 0 "$P" $fl -f Event,White,Black,Result,@result tsv-values.pgn
	cmp -s "$T/out" "$E/tsv-values.$ext" || { fail "tsv-values.$ext differs"; diff "$E/tsv-values.$ext" "$T/out" >&2; }
	expect 0 "$P" $fl -f Event,White,Black,Result tsv-values.pgn
	cut -d"$(printf '\t')" -f1-4 "$E/tsv-values.$ext" >"$T/want"
	[ -n "$fl" ] && sed 's/,[^,]*$/\r/' "$E/tsv-values.$ext" >"$T/want"
	cmp -s "$T/out" "$T/want" || { fail "tags only: tsv-values.$ext differs"; diff "$T/want" "$T/out" >&2; }
done
# every tag value loads back intact into sqlite3 from TSV (tab mode)
# and from CSV: compared with the values pgn2json writes
if command -v sqlite3 >/dev/null 2>&1 && command -v jq >/dev/null 2>&1; then
	for f in tsv-values.pgn json-games.pgn; do
		# pgn2json escapes C1, U+2028 and U+2029: spaces here
		"$tooldir/pgn2json" "$f" 2>/dev/null | jq -r '.tags |
		    [.Event, .White, .Black] | map(gsub("[\u0080-\u009f\u2028\u2029]"; " ")) |
		    @json' >"$T/want"
		"$P" -f Event,White,Black,@plies "$f" >"$T/t.tsv" 2>/dev/null
		"$P" --csv -f Event,White,Black,@plies "$f" >"$T/t.csv" 2>/dev/null
		rm -f "$T/t.db"
		sqlite3 "$T/t.db" '.mode tabs' ".import $T/t.tsv t" \
		    '.mode csv' ".import $T/t.csv c" || fail "sqlite3 .import of $f"
		for x in t c; do
			sqlite3 -json "$T/t.db" "SELECT Event, White, Black FROM $x" |
			    jq -r '.[] | [.Event, .White, .Black] | @json' >"$T/sql.$x"
		done
		for x in t c; do
			cmp -s "$T/want" "$T/sql.$x" || { fail "$f: sqlite3 reads other values from table $x"; diff "$T/want" "$T/sql.$x" >&2; }
		done
	done
fi

# --sql: the golden SQL (both fixtures: quotes, a backslash, NULL for
# '?', a missing tag or an unknown date, INTEGER columns), and what
# sqlite3 makes of it
expect 1 "$P" --sql -f Event,White,Black,Date,Result,WhiteElo,@plies,@result,@termination tsv-values.pgn json-games.pgn
cmp -s "$T/out" "$E/tsv-values.sql" || { fail "tsv-values.sql differs"; diff "$E/tsv-values.sql" "$T/out" >&2; }
expect 2 "$P" --sql=1games tsv-values.pgn
# --sql and --csv exclude each other, in either order
expect 2 "$P" --sql --csv tsv-values.pgn
grep -q "^pgn2tsv: --csv and --sql exclude each other" "$T/err" ||
    fail "--sql --csv: $(cat "$T/err")"
expect 2 "$P" --csv --sql=t tsv-values.pgn
[ -s "$T/out" ] && fail "--csv --sql: output written"
expect 2 "$P" --sql -f WhiteElo,whiteelo tsv-values.pgn
grep -q "have one name in SQL" "$T/err" || fail "--sql clash: $(cat "$T/err")"
expect 0 "$P" --sql=t -H -f White tsv-values.pgn
head -1 "$T/out" | grep -q '^BEGIN;$' || fail "--sql -H: $(head -1 "$T/out")"
if command -v sqlite3 >/dev/null 2>&1; then
	rm -f "$T/s.db"
	sqlite3 "$T/s.db" <"$E/tsv-values.sql" || fail "sqlite3 refuses tsv-values.sql"
	[ "$(sqlite3 "$T/s.db" 'SELECT count(*), count(White), sum(WhiteElo > 1000), typeof(_plies) FROM games')" = "9|4|1|integer" ] ||
	    fail "sqlite3 reads tsv-values.sql as $(sqlite3 "$T/s.db" 'SELECT count(*), count(White), sum(WhiteElo > 1000), typeof(_plies) FROM games')"
	# TimeControl as numbers: REAL, NULL where there is none
	printf '[TimeControl "10+0.1"]\n\n1. e4 *\n\n[TimeControl "40/9000:300"]\n\n1. d4 *\n\n[TimeControl "?"]\n\n1. c4 *\n' >"$T/tc.pgn"
	rm -f "$T/tc.db"
	"$P" --sql -f @base,@increment "$T/tc.pgn" | sqlite3 "$T/tc.db" || fail "sqlite3 refuses --sql of TimeControl"
	[ "$(sqlite3 "$T/tc.db" 'SELECT _base * 2, _increment * 10, typeof(_base) FROM games' | tr '\n' ' ')" = "20.0|1.0|real 18000.0|0.0|real ||null " ] ||
	    fail "@base, @increment in sqlite3: $(sqlite3 "$T/tc.db" 'SELECT _base * 2, _increment * 10, typeof(_base) FROM games' | tr '\n' ' ')"
	# the OTB archive (more than one transaction): typed comparisons
	# in sqlite3 agree with awk on the TSV of the same games
	otb="${CORPUS:-/nonexistent}/pgn/otb-14539.pgn.xz"
	if [ -f "$otb" ]; then
		cols=White,WhiteElo,BlackElo,PlyCount,Date,@plies
		"$P" -q --sql -f $cols "$otb" 2>/dev/null >"$T/otb.sql"
		"$P" -q -H -f $cols "$otb" 2>/dev/null >"$T/otb.tsv"
		rm -f "$T/otb.db"
		sqlite3 "$T/otb.db" <"$T/otb.sql" || fail "sqlite3 refuses the OTB SQL"
		got=$(sqlite3 "$T/otb.db" "SELECT count(*), count(WhiteElo),
		    sum(WhiteElo > 2000), sum(BlackElo >= 2700),
		    sum(PlyCount < 40), sum(_plies > 100),
		    sum(Date IS NULL), sum(White IS NULL),
		    sum(typeof(WhiteElo) NOT IN ('integer', 'null'))
		    FROM games" | tr '|' ' ')
		want=$(awk -F'\t' 'function isint(v) { return v ~ /^[+-]?[0-9]+$/ }
		    { n++; if (isint($2)) { e++; if ($2 + 0 > 2000) w++ }
		      if (isint($3) && $3 + 0 >= 2700) b++
		      if (isint($4) && $4 + 0 < 40) p++
		      if ($6 + 0 > 100) m++
		      if ($5 == "????.??.??") d++
		      if ($1 == "?" || $1 == "") u++ }
		    END { printf "%d %d %d %d %d %d %d %d 0\n", n, e, w, b, p, m, d, u }' "$T/otb.tsv")
		[ "$got" = "$want" ] || fail "OTB in sqlite3: $got, awk: $want"
		# one transaction of multi-row INSERTs (at most 1000 rows
		# and a batch a statement): few statements
		[ "$(grep -c '^COMMIT;$' "$T/otb.sql")" -eq 1 ] || fail "OTB: not one transaction"
		n=$(grep -c '^INSERT INTO "games" VALUES$' "$T/otb.sql")
		[ "$n" -ge 14 ] && [ "$n" -le 40 ] || fail "OTB: $n INSERT statements"
	fi
	# 2500 games, game 1500 rejected: INSERTs of games 1-1000,
	# 1001-2000 (one row fewer) and 2001-2500, the same SQL with -j 1
	# and -j 2 (however the games fall into batches), tags alone too
	awk 'BEGIN { for (i = 1; i <= 2500; i++)
	    printf "[Event \"e%d\"]\n[WhiteElo \"%d\"]\n\n1. %s *\n\n", i, i,
	    i == 1500 ? "Ke3" : "e4" }' >"$T/many.pgn"
	for f in Event,WhiteElo,@plies Event,WhiteElo; do
		"$P" -q -j 1 --sql -f $f "$T/many.pgn" >"$T/m1.sql" 2>/dev/null
		"$P" -q -j 2 --sql -f $f "$T/many.pgn" >"$T/m2.sql" 2>/dev/null
		cmp -s "$T/m1.sql" "$T/m2.sql" || fail "--sql -f $f: -j 1 and -j 2 differ"
		awk '/^INSERT/ { if (n) printf "%d ", n; n = 0; next }
		    /^\(/ { n++ } END { print n }' "$T/m1.sql" >"$T/rows"
		case $f in
		*@plies) want="1000 999 500" ;;
		*) want="1000 1000 500" ;;
		esac
		[ "$(cat "$T/rows")" = "$want" ] || fail "--sql -f $f: rows by statement $(cat "$T/rows")"
		rm -f "$T/m.db"
		sqlite3 "$T/m.db" <"$T/m1.sql" || fail "--sql -f $f: sqlite3"
		[ "$(sqlite3 "$T/m.db" 'SELECT count(*), sum(WhiteElo) FROM games WHERE WhiteElo > 2000')" = "500|1125250" ] ||
		    fail "--sql -f $f: $(sqlite3 "$T/m.db" 'SELECT count(*), sum(WhiteElo) FROM games WHERE WhiteElo > 2000')"
	done
	# Every identifier quoted: tags named with the words that SQLite,
	# DuckDB or PostgreSQL reserve load, as do a table named so
	words="Transaction Commit Add Leading Only Array Order Group Select Table Values Limit"
	for w in $words; do printf '[%s "%s"]\n' "$w" "v$w"; done >"$T/rw.pgn"
	printf '\n1. e4 *\n' >>"$T/rw.pgn"
	"$P" --sql=Order -f "$(echo $words | tr ' ' ,)" "$T/rw.pgn" >"$T/rw.sql" ||
	    fail "--sql of reserved words: exit status"
	rm -f "$T/rw.db"
	sqlite3 "$T/rw.db" <"$T/rw.sql" || fail "sqlite3 refuses reserved words as names"
	[ "$(sqlite3 "$T/rw.db" 'SELECT "Transaction", "Limit" FROM "Order"')" = "vTransaction|vLimit" ] ||
	    fail "reserved words: $(sqlite3 "$T/rw.db" 'SELECT * FROM "Order"')"
	# Every computed field whose values are integers is an INTEGER
	# column (the fields from --help, so a new one is covered): on
	# games where each gives a value, typeof() in sqlite3 says integer
	# exactly where the TSV value is digits
	comp=$("$P" --help | tr -c '@a-z_\n' ' ' | tr ' ' '\n' | grep '^@[a-z_]*$' | sort -u)
	[ "$(echo "$comp" | wc -l)" -ge 10 ] || fail "computed fields from --help: $comp"
	for c in $comp; do
		case $c in @eco|@opening|@opening_ply) continue ;; esac	# (need tables)
		"$P" -H -f "$c" json-games.pgn >"$T/c.tsv" 2>/dev/null
		"$P" --sql -f "$c" json-games.pgn 2>/dev/null >"$T/c.sql"
		rm -f "$T/c.db"
		sqlite3 "$T/c.db" <"$T/c.sql" || fail "$c: sqlite3 refuses its SQL"
		t=$(sqlite3 "$T/c.db" "SELECT DISTINCT typeof(\"_${c#@}\") FROM games WHERE \"_${c#@}\" IS NOT NULL")
		if grep -qvx '[0-9][0-9]*' "$T/c.tsv"; then
			[ "$t" != integer ] || fail "$c: INTEGER, but TSV values are no integers"
		else
			[ "$t" = integer ] || fail "$c: integers typed as '$t' in SQL"
		fi
	done
	# a comparison with a number compares numbers
	"$P" --sql -f @fullmoves json-games.pgn 2>/dev/null >"$T/fm.sql"
	rm -f "$T/fm.db"
	sqlite3 "$T/fm.db" <"$T/fm.sql" || fail "@fullmoves: sqlite3"
	want=$("$P" -H -f @fullmoves json-games.pgn 2>/dev/null | awk '$1 > 3' | wc -l)
	[ "$(sqlite3 "$T/fm.db" 'SELECT count(*) FROM games WHERE _fullmoves > 3')" -eq "$want" ] ||
	    fail "_fullmoves > 3: not $want games"
fi

# a name that is no tag name, or a tag no game has: a warning each, the
# column empty; @fullmoves and @file (white and black to move first,
# no moves; both paths for @file)
expect 1 "$P" -f "White, Black",plies,@file,@fullmoves,@plies json-games.pgn
grep -q "^pgn2tsv: warning: field ' Black' is no tag name" "$T/err" || fail "no warning for ' Black': $(cat "$T/err")"
grep -q "^pgn2tsv: warning: no game has a tag 'plies'" "$T/err" || fail "no warning for plies: $(cat "$T/err")"
[ "$(cut -f4- "$T/out" | tr '\t\n' ' |')" = "@file @fullmoves @plies|json-games.pgn 2 4|json-games.pgn 5 10|json-games.pgn 2 3|json-games.pgn 0 0|json-games.pgn 1 1|" ] ||
    fail "@file, @fullmoves: $(cut -f4- "$T/out" | tr '\t\n' ' |')"
printf '[FEN "4k3/8/8/8/8/8/8/4K2R b K - 0 7"]\n\n7... Kd7 8. Rh7+ Ke6 *\n' >"$T/black.pgn"
expect 0 "$P" -H -f @fullmoves,@plies "$T/black.pgn"
[ "$(cat "$T/out")" = "$(printf '2\t3')" ] || fail "@fullmoves from black: $(cat "$T/out")"
expect 0 "$P" -H -f Event,@file - <json-games.pgn
[ "$(cut -f2 "$T/out" | sort -u)" = "<stdin>" ] || fail "@file of standard input: $(cut -f2 "$T/out" | sort -u)"
[ -s "$T/err" ] && fail "tags and @file: messages: $(cat "$T/err")"

# rows go out as games are read, not when the output buffer is full or
# the input ends: 2,000 games of 1 KiB (more than the reader takes in
# at once) from a pipe that then stalls for 6 s; the first row must
# come within 3 s, on both paths
awk 'BEGIN { c = sprintf("%1000s", ""); gsub(/ /, "x", c)
    for (i = 1; i <= 2000; i++) printf "[Event \"g%d\"]\n\n1. e4 {%s} *\n\n", i, c }' >"$T/stall.pgn"
for f in Event Event,@plies; do
	{ cat "$T/stall.pgn"; sleep 6; } | "$P" -H -f $f 2>/dev/null |
	    timeout 3 head -n 1 >"$T/first" 2>/dev/null
	[ "$(cut -f1 "$T/first")" = g1 ] || fail "-f $f: no row within 3 s of its game"
done

# standard input, -o, -j
"$P" -j 3 <json-games.pgn >"$T/j3" 2>/dev/null
cmp -s "$T/j3" "$E/json-games.tsv" || fail "-j 3 from standard input differs"
"$P" -q -o "$T/o.tsv" -H json-games.pgn 2>/dev/null
[ "$(wc -l <"$T/o.tsv")" -eq 5 ] || fail "-o -H: $(wc -l <"$T/o.tsv") rows"
exit $status
