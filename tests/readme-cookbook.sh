#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# readme-cookbook.sh: every recipe of the README's Cookbook, taken from
# the README itself (the lines "    $ COMMAND" of that section), run as
# written in a directory holding games.pgn (files/cookbook.pgn: eight
# games, one a copy of another under other names, one with a variation
# and a comment, one with an illegal move) and eco.tsv
# (files/openings-small.tsv); each output checked against what awk and
# the tools' other modes say.  A line that needs sqlite3 or duckdb is
# skipped with a note when it is missing; without the duckdb CLI, a
# duckdb command that runs it with npm's @duckdb/node-api stands in
# (tests/duckdb-check.mjs --cli), installed as tests/cli-duckdb.sh does.  A recipe this
# test has no check for, or a check no recipe reached, fails.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"
NAME=cookbook
. "$top_srcdir/tests/testlib.sh"

W="$T/work"
mkdir "$W" || exit 99
cp "$F/cookbook.pgn" "$W/games.pgn" && cp "$F/openings-small.tsv" \
    "$W/eco.tsv" || exit 99
PATH="$(cd "$tooldir" && pwd):$PATH"
export PATH

# the recipes, one a line
sed -n '/^Cookbook$/,/^Quick start$/s/^    \$ //p' "$top_srcdir/README" \
    >"$T/recipes"
[ "$(wc -l <"$T/recipes")" -ge 10 ] ||
    fail "the README's Cookbook has $(wc -l <"$T/recipes") recipes"

# games FILE: the number of games in FILE
games() {
	grep -c '^\[Event ' "$1"
}
# tags FILE TAG: the values of TAG in FILE, one a line
tags() {
	sed -n "s/^\\[$2 \"\\(.*\\)\"\\]\$/\\1/p" "$1"
}

ran=""
check() {
	ran="$ran $1"
	case $1 in
	regularize)
		[ "$(games clean.pgn)" -eq 7 ] || fail "clean.pgn: $(games clean.pgn) games"
		[ "$(games bad.pgn)" -eq 1 ] && grep -q 'Ke3' bad.pgn ||
		    fail "bad.pgn: not the broken game"
		pgn-regularize clean.pgn >"$T/again" 2>/dev/null
		cmp -s clean.pgn "$T/again" || fail "clean.pgn is not export format" ;;
	won-white)
		want=$(awk '/^\[White /{w=$0} /^\[Result /{
		    if (w ~ /"Carlsen/ && $0 ~ /"1-0"/) n++ } END {print n+0}' games.pgn)
		[ "$want" -ge 2 ] || fail "the sample has $want such games"
		[ "$(games won-white.pgn)" -eq "$want" ] ||
		    fail "won-white.pgn: $(games won-white.pgn) games, want $want"
		tags won-white.pgn Result | sort -u | grep -qvx '1-0' &&
		    fail "won-white.pgn: a game not won by White"
		tags won-white.pgn White | grep -qv '^Carlsen' &&
		    fail "won-white.pgn: another White" ;;
	unique)
		[ "$(games unique.pgn)" -eq 6 ] || fail "unique.pgn: $(games unique.pgn) games"
		[ "$(pgn-dedup -c unique.pgn)" -eq 6 ] || fail "unique.pgn has copies"
		want=$(pgn2tsv -H --openings=eco.tsv -f @eco unique.pgn | grep -c .)
		[ "$want" -ge 1 ] || fail "no opening of the sample classifies"
		[ "$(tags unique.pgn ECO | wc -l)" -eq 6 ] &&
		    [ "$(tags unique.pgn Opening | wc -l)" -eq "$want" ] ||
		    fail "unique.pgn: openings not named" ;;
	mainline)
		[ "$(games mainline.pgn)" -eq 7 ] || fail "mainline.pgn: $(games mainline.pgn) games"
		grep -v '^\[' mainline.pgn | grep -q '(' && fail "mainline.pgn: a variation"
		grep '^\[' clean.pgn >"$T/t1"
		grep '^\[' mainline.pgn >"$T/t2"
		cmp -s "$T/t1" "$T/t2" || fail "mainline.pgn: other tags"
		pgn2tsv -f @moves games.pgn >"$T/m1" 2>/dev/null
		pgn2tsv -f @moves mainline.pgn >"$T/m2" 2>/dev/null
		cmp -s "$T/m1" "$T/m2" || fail "mainline.pgn: other moves" ;;
	split)
		for y in $(tags games.pgn Date | cut -c1-4 | sort -u); do
			n=$(tags games.pgn Date | grep -c "^$y")
			[ -f "years/$y.pgn" ] && [ "$(games "years/$y.pgn")" -eq "$n" ] ||
			    fail "years/$y.pgn: not its $n games"
		done
		[ "$(cat years/*.pgn | games -)" -eq "$(games games.pgn)" ] ||
		    fail "years/: not every game" ;;
	sqlite)
		[ "$(sqlite3 games.db 'SELECT count(*) FROM games')" -eq 7 ] ||
		    fail "games.db: not 7 games"
		[ "$(sqlite3 games.db "SELECT count(*) FROM games WHERE White LIKE 'Carlsen%' AND Result = '1-0'")" -eq \
		    "$(games won-white.pgn)" ] || fail "games.db: not the wins of won-white.pgn"
		[ "$(sqlite3 games.db "SELECT _reason FROM games WHERE White = 'Carlsen,M' AND Black = 'Daly,C'")" = unknown ] ||
		    fail "games.db: _reason" ;;
	duckdb)
		# the counts by @speed and Result, from awk (NULL for an
		# empty speed); the output's rows of three values, from
		# duckdb's boxes or CSV
		awk -F'\t' 'NR > 1 { n[($4 == "" ? "NULL" : $4) " " $3]++ }
		    END { for (k in n) print k, n[k] }' games.tsv | sort >"$T/want"
		[ "$(wc -l <"$T/want")" -ge 3 ] || fail "duckdb: few results"
		sed 's/[│|,]/ /g' "$T/stdout" | awk 'NF == 3 && $2 ~ /^(1-0|0-1|1\/2-1\/2|\*)$/ {
		    print $1, $2, $3 }' | sort >"$T/got"
		cmp -s "$T/want" "$T/got" ||
		    fail "duckdb: $(cat "$T/stdout" "$T/stderr")" ;;
	epd)
		want=$(pgn2tsv -H -f @plies games.pgn 2>/dev/null | awk '$1 >= 30' | wc -l)
		[ "$(wc -l <move15.epd)" -eq "$want" ] ||
		    fail "move15.epd: $(wc -l <move15.epd) lines, want $want"
		grep -qv ' w .* fmvn 16; ' move15.epd && fail "move15.epd: not after move 15" ;;
	explorer)
		want=$(pgn2tsv -H -f @moves games.pgn 2>/dev/null | grep -c '^e4 ')
		got=$(awk '$1 == "1..." { n += $3 } END { print n + 0 }' "$T/stdout")
		[ "$got" -eq "$want" ] && [ "$want" -gt 0 ] ||
		    fail "explorer: $got games after 1. e4, want $want"
		grep -q '^  2\. ' "$T/stdout" || fail "explorer: not two plies deep" ;;
	book)
		n=$(wc -c <book.bin)
		[ "$n" -gt 0 ] && [ $((n % 16)) -eq 0 ] || fail "book.bin: $n bytes"
		pgn-tree --book=book.bin | grep -q '^1\. e4 ' || fail "book.bin: no 1. e4" ;;
	esac
}

# duckdb_node PROGRAM: for duckdb, a command duckdb in PATH that runs
# `duckdb [DATABASE] -c SQL` with npm's @duckdb/node-api (as
# tests/cli-duckdb.sh installs it) where the CLI is missing; else false.
duckdb_node() {
	[ "$1" = duckdb ] || return 1
	[ -x "$T/bin/duckdb" ] && return 0
	. "$top_srcdir/tests/npm-lib.sh"
	npm_package @duckdb/node-api@1.5.6-r.1 "$duckdb_dir" ||
	    { echo "no duckdb CLI: $npm_why"; return 1; }
	mkdir -p "$T/bin" && printf '#!/bin/sh\nexec node "%s" "%s" --cli "$@"\n' \
	    "$duckdb_check" "$duckdb_dir" >"$T/bin/duckdb" &&
	    chmod +x "$T/bin/duckdb" || return 1
	PATH="$T/bin:$PATH"
	echo "duckdb: npm's @duckdb/node-api (no duckdb CLI)"
}

# (absolute: the recipes run in $W)
duckdb_dir=$(mkdir -p "${DUCKDB_DIR:-$top_builddir/tests/duckdb}" &&
    cd "${DUCKDB_DIR:-$top_builddir/tests/duckdb}" && pwd) || exit 99
duckdb_check="$(cd "$top_srcdir/tests" && pwd)/duckdb-check.mjs"
cd "$W" || exit 99
num=0
while IFS= read -r line; do
	num=$((num + 1))
	case $line in
	*'pgn-regularize --rejects'*) c=regularize ;;
	*'won-white.pgn'*) c=won-white ;;
	*'unique.pgn'*) c=unique ;;
	*'mainline.pgn'*) c=mainline ;;
	*'pgn-split'*) c=split ;;
	*sqlite3*) c=sqlite ;;
	*duckdb*) c=duckdb ;;
	*'.epd'*) c=epd ;;
	*'--polyglot'*) c=book ;;
	*'pgn-tree'*) c=explorer ;;
	*) fail "recipe $num has no check: $line"; continue ;;
	esac
	for p in sqlite3 duckdb; do
		case $line in *"| $p"* | *"&& $p"* | *"; $p"*)
			command -v $p >/dev/null 2>&1 || duckdb_node $p ||
			    { echo "recipe $num skipped: no $p"; ran="$ran $c";
			    continue 2; } ;;
		esac
	done
	sh -c "$line" >"$T/stdout" 2>"$T/stderr" </dev/null
	rc=$?
	[ "$rc" -le 1 ] || { fail "recipe $num exits $rc: $line"; cat "$T/stderr" >&2; }
	st=$status
	check $c
	[ "$status" -eq "$st" ] || echo "  (recipe $num: $line)" >&2
done <"$T/recipes"
for c in regularize won-white unique mainline split sqlite duckdb epd \
    explorer book; do
	case " $ran " in *" $c "*) ;; *) fail "no recipe for the $c check" ;; esac
done
exit $status
