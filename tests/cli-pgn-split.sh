#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-pgn-split.sh: pgn-split.  Parts (-n, -l, -b) concatenate to the
# input byte for byte and give, read one by one, the games the whole
# input gives (pgn-regularize of the parts = of the whole), also for
# input that is not clean PGN and for a comment holding `[Event "`
# lines (which GNU parallel's --recstart cuts); part names sort in input
# order; -n on a pipe; --list; section 11 files (--by): the portable
# names, a game in both players' files, input order, the date tree,
# more files than the descriptor limit (ulimit -n 32); and, with the
# corpus, the OTB archive cut every way, a player's file against an
# independent count, and its YYYY/YYYYMM tree.
set -u
NAME=pgn-split
. "${top_srcdir:?}/tests/testlib.sh"
B="$tooldir"
S="$B/pgn-split"
[ -x "$S" ] || { echo "SKIP: pgn-split is not built"; exit 77; }
PATH="$B:$PATH"
export PATH

# ---- options ----
expect 0 pgn-split --help
grep -q '^Usage: pgn-split' "$T/out" || fail "--help"
expect 0 pgn-split -V
grep -q '^pgn-split (chessdata) ' "$T/out" || fail "--version"
expect 2 pgn-split --frobnicate
grep -q "unknown option '--frobnicate'" "$T/err" || fail "unknown option"
expect 2 pgn-split "$F/sample.pgn"
grep -q 'say how to split' "$T/err" || fail "no mode"
expect 2 pgn-split -n 2 -l 3 "$F/sample.pgn"
expect 2 pgn-split -n 0 "$F/sample.pgn"
expect 2 pgn-split -b 10X "$F/sample.pgn"
expect 2 pgn-split --by=colour "$F/sample.pgn"
expect 2 pgn-split -d "$T/d0" -n 2 "$T/no-such-file"
grep -q "pgn-split: $T/no-such-file: No such file" "$T/err" ||
    fail "no message for a missing file"

# ---- parts ----
# A comment holding tag lines; text that is not PGN; no final newline.
{
	printf 'From: someone\nSubject: games\n\n'
	printf '[Event "a"]\n[Site "?"]\n[Date "2020.01.01"]\n[Round "1"]\n'
	printf '[White "X"]\n[Black "Y"]\n[Result "*"]\n\n'
	printf '1. e4 {a game quoted:\n[Event "quoted" and more\n'
	printf '[Site "here"] too} e5 *\n\n'
	printf '[Event "b"]\n[Site "?"]\n[Date "2020.01.02"]\n[Round "2"]\n'
	printf '[White "X"]\n[Black "Y"]\n[Result "1-0"]\n\n'
	printf '1. d4 d5 1-0 and some words\nafter it\n\n'
	printf '1. c4 e5 {untagged} 0-1\n\n'
	printf '[Event "c"]\n[Site "?"]\n[Date "2020.01.03"]\n[Round "3"]\n'
	printf '[White "X"]\n[Black "Y"]\n[Result "*"]\n\n1. Nf3 *'
} >"$T/odd.pgn"

# split NAME FILE OPTS...: the parts in $T/p, concatenated = FILE, and
# pgn-regularize of each part, one after the other = of FILE
split_ok() {
	name=$1 in=$2
	shift 2
	rm -rf "$T/p"
	pgn-split -q -d "$T/p" "$@" "$in" 2>"$T/err" ||
	    { fail "$name: pgn-split $*: $(cat "$T/err")"; return; }
	# shellcheck disable=SC2046
	cat $(ls -d "$T/p"/* | LC_ALL=C sort) | cmp -s - "$in" ||
	    { fail "$name $*: the parts are not the input"; return; }
	pgn-regularize -q "$in" >"$T/whole" 2>/dev/null
	for p in $(ls -d "$T/p"/* | LC_ALL=C sort); do
		pgn-regularize -q "$p" 2>/dev/null
	done >"$T/byparts"
	cmp -s "$T/whole" "$T/byparts" ||
	    fail "$name $*: the parts read one by one give other games"
	nparts=$(ls "$T/p" | grep -c .)
}
for f in "$T/odd.pgn" "$F/sort-odd.pgn" "$F/regularize-import.pgn" \
    "$F/sample.pgn"; do
	split_ok "$(basename "$f")" "$f" -n 3
	split_ok "$(basename "$f")" "$f" -b 300
done
split_ok odd "$T/odd.pgn" -l 1
[ "$nparts" -eq 4 ] || fail "odd.pgn -l 1: $nparts parts, not 4"
grep -q 'Site "here"' "$T/p/part001.pgn" ||
    fail "the comment's tag lines left their game"
split_ok odd-n "$T/odd.pgn" -n 7
[ "$nparts" -eq 7 ] || fail "-n 7: $nparts parts"
[ "$(cat "$T/p"/* | wc -c)" -eq "$(wc -c <"$T/odd.pgn")" ] ||
    fail "-n 7: bytes"

# The --recstart recipe cuts inside that comment.
if command -v parallel >/dev/null 2>&1 &&
    parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
	n=$(parallel --will-cite --pipe --recend '\n' --recstart '[Event ' \
	    --block 10 -k 'pgn-regularize -q 2>/dev/null | grep -c "^\[Event "' \
	    <"$T/odd.pgn" 2>/dev/null | awk '{ s += $1 } END { print s }')
	m=$(grep -c '^\[Event ' "$T/whole")
	[ "$n" != "$m" ] || fail "the --recstart recipe was expected to break"
	echo "ok: --recstart cuts the comment ($n games instead of $m);" \
	    "pgn-split does not"
fi

# -n on a pipe, --list, --prefix
rm -rf "$T/p"
cat "$T/odd.pgn" | pgn-split -n 3 -d "$T/p" --list --prefix=x- >"$T/list" ||
    fail "-n on a pipe"
printf '%s\n' "$T/p/x-001.pgn" "$T/p/x-002.pgn" "$T/p/x-003.pgn" |
    cmp -s - "$T/list" || fail "--list: $(cat "$T/list")"
cat "$T/p"/x-*.pgn | cmp -s - "$T/odd.pgn" || fail "-n on a pipe: bytes"

# Names sort in input order past 899 parts: 905 one-game parts.
awk 'BEGIN { for (i = 1; i <= 905; i++) printf "[Round \"%d\"]\n\n1. e4 *\n\n", i }' \
    >"$T/many.pgn"
rm -rf "$T/p"
pgn-split -l 1 -d "$T/p" "$T/many.pgn" || fail "-l 1 of 905 games"
[ -f "$T/p/part899.pgn" ] && [ -f "$T/p/part90000.pgn" ] &&
    [ -f "$T/p/part90005.pgn" ] || fail "part names past 899: $(ls "$T/p" | tail -3)"
# shellcheck disable=SC2046
cat $(ls -d "$T/p"/* | LC_ALL=C sort) | cmp -s - "$T/many.pgn" ||
    fail "905 parts: not in input order"
rm -rf "$T/p"
pgn-split -n 1000 -d "$T/p" "$T/many.pgn" || fail "-n 1000"
[ -f "$T/p/part0001.pgn" ] && [ -f "$T/p/part1000.pgn" ] ||
    fail "-n 1000: four digits"
# An output never overwrites an input.
cp "$T/odd.pgn" "$T/p/part001.pgn"
expect 2 pgn-split -l 1 -d "$T/p" "$T/p/part001.pgn"
grep -q 'is an input file' "$T/err" || fail "an input overwritten"

# ---- section 11 ----
g() {	# g WHITE BLACK DATE EVENT
	printf '[Event "%s"]\n[Site "?"]\n[Date "%s"]\n[Round "?"]\n' "$4" "$3"
	printf '[White "%s"]\n[Black "%s"]\n[Result "*"]\n\n1. e4 *\n\n' "$1" "$2"
}
{
	g 'Carlsen, Magnus' 'Caruana, Fabiano' '2019.06.01' 'Norway Chess'
	g 'CARLSEN, M.' 'So, Wesley' '2019.??.??' 'norway chess'
	g 'Réti, Richard' 'Müller, Hans' '1925.03.??' 'Baden/Baden 1925'
	printf '[White "R\351ti, R"]\n[Black "?"]\n[Date "1925"]\n\n1. d4 *\n\n'
	g 'Polgar, Judit' 'Polgar, Susan' 'bad date' ''
	g 'Кarpov' 'con' '2001.05.17' '  ...  '
	g 'Carlsen, Magnus' 'Caruana, Fabiano' '2019.06.02' 'Norway Chess'
} >"$T/s11.pgn"
rm -rf "$T/p"
pgn-split --by=player -d "$T/p" "$T/s11.pgn" || fail "--by=player"
(cd "$T/p" && ls) >"$T/ls"
printf '%s\n' _unknown.pgn carlsen.pgn caruana.pgn con_.pgn d09aarpov.pgn \
    muller.pgn polgar.pgn reti.pgn so.pgn | cmp -s - "$T/ls" ||
    fail "--by=player names: $(tr '\n' ' ' <"$T/ls")"
[ "$(grep -c '^\[White' "$T/p/carlsen.pgn")" -eq 3 ] || fail "carlsen.pgn"
[ "$(grep -c '^\[White' "$T/p/reti.pgn")" -eq 2 ] ||
    fail "reti.pgn: UTF-8 and Latin-1 spellings"
[ "$(grep -c '^\[White' "$T/p/polgar.pgn")" -eq 1 ] ||
    fail "polgar.pgn: a game of two Polgars written twice"
grep '^\[Date' "$T/p/caruana.pgn" | tr -d '\n' |
    grep -q '2019.06.01.*2019.06.02' || fail "caruana.pgn: not in input order"
pgn-split --by=event -d "$T/e" "$T/s11.pgn" || fail "--by=event"
(cd "$T/e" && ls) | tr '\n' ' ' >"$T/ls"
[ "$(cat "$T/ls")" = "_unknown.pgn baden_baden_1925.pgn norway_chess.pgn " ] ||
    fail "--by=event names: $(cat "$T/ls")"
pgn-split --by=month -d "$T/m" "$T/s11.pgn" || fail "--by=month"
(cd "$T/m" && find . -type f | LC_ALL=C sort) | tr '\n' ' ' >"$T/ls"
[ "$(cat "$T/ls")" = "./1925/192503.pgn ./1925/192500.pgn ./2001/200105.pgn ./2019/201900.pgn ./2019/201906.pgn ./_unknown.pgn " ] ||
[ "$(cat "$T/ls")" = "./1925/192500.pgn ./1925/192503.pgn ./2001/200105.pgn ./2019/201900.pgn ./2019/201906.pgn ./_unknown.pgn " ] ||
    fail "--by=month files: $(cat "$T/ls")"
pgn-split --by=day -d "$T/dd" "$T/s11.pgn" || fail "--by=day"
[ -f "$T/dd/2019/201906/20190602.pgn" ] && [ -f "$T/dd/1925/192500/19250000.pgn" ] ||
    fail "--by=day tree"
pgn-split --by=year -d "$T/y" "$T/s11.pgn" "$T/s11.pgn" || fail "--by=year"
[ "$(grep -c '^\[White' "$T/y/2019.pgn")" -eq 6 ] || fail "--by=year, twice"
# a second run starts the files anew; --append adds to them
pgn-split --by=year -d "$T/y" "$T/s11.pgn" &&
    pgn-split --by=year --append -d "$T/y" "$T/s11.pgn" || fail "--append"
[ "$(grep -c '^\[White' "$T/y/2019.pgn")" -eq 6 ] || fail "--append count"

# More player files than descriptors.
awk 'BEGIN { for (i = 1; i <= 600; i++)
	printf "[White \"P%d, A\"]\n[Black \"Q%d, B\"]\n\n1. e4 *\n\n", i % 150, i % 97 }' \
    >"$T/players.pgn"
rm -rf "$T/p"
(ulimit -n 32 && pgn-split --by=player -d "$T/p" "$T/players.pgn") \
    2>"$T/err" || fail "ulimit -n 32: $(cat "$T/err")"
n=$(ls "$T/p" | grep -c .)
[ "$n" -eq 247 ] || fail "ulimit -n 32: $n files, not 247"
[ "$(cat "$T/p"/*.pgn | grep -c '^\[White')" -eq 1200 ] ||
    fail "ulimit -n 32: games lost or doubled"
awk '/^\[White "P7,/ { print }' "$T/players.pgn" | cmp -s - \
    "$(grep -l . "$T/p/p7.pgn")" 2>/dev/null ||
    grep '^\[White' "$T/p/p7.pgn" | cmp -s - "$T/want" 2>/dev/null ||
    { grep '^\[White "P7,' "$T/players.pgn" >"$T/want";
      grep '^\[White' "$T/p/p7.pgn" | cmp -s - "$T/want" ||
	  fail "p7.pgn: not its games in input order"; }

# ---- the corpus ----
if [ -f "${CORPUS:-}/pgn/otb-14539.pgn.xz" ]; then
	xz -dc "$CORPUS/pgn/otb-14539.pgn.xz" >"$T/otb.pgn"
	for o in "-n 8" "-l 1000" "-b 1M"; do
		rm -rf "$T/p"
		# shellcheck disable=SC2086
		pgn-split -q $o -d "$T/p" "$T/otb.pgn" || fail "otb $o"
		cat "$T/p"/*.pgn | cmp -s - "$T/otb.pgn" ||
		    fail "otb $o: the parts are not the archive"
	done
	echo "ok: otb-14539: -n 8, -l 1000, -b 1M concatenate to the archive"
	# games of the parts = games of the archive (the reader's hashes)
	"$helperdir/pgn-games" "$T/otb.pgn" | grep -v '^skipped' |
	    cut -d' ' -f4 >"$T/whole"
	for p in "$T/p"/*.pgn; do
		"$helperdir/pgn-games" "$p"
	done | grep -v '^skipped' | cut -d' ' -f4 >"$T/byparts"
	cmp -s "$T/whole" "$T/byparts" || fail "otb -b 1M: games differ"
	rm -rf "$T/p"
	# a player's file against an independent count: games whose White
	# or Black tag has that last name, case folded
	pgn-split -q --by=player --stats -d "$T/p" "$T/otb.pgn" 2>"$T/err" ||
	    fail "otb --by=player"
	for who in carlsen kasparov korchnoi; do
		want=$(awk -v who="$who" '
		    /^\[Event / { n += hit; hit = 0 }
		    /^\[(White|Black) "/ {
			v = $0; sub(/^\[[A-Za-z]+ "/, "", v); sub(/".*/, "", v)
			sub(/,.*/, "", v); gsub(/^ +| +$/, "", v)
			if (tolower(v) == who) hit = 1 }
		    END { print n + hit }' "$T/otb.pgn")
		got=$("$helperdir/pgn-games" "$T/p/$who.pgn" |
		    grep -vc '^skipped')
		[ "$want" -gt 100 ] && [ "$got" -eq "$want" ] ||
		    fail "otb $who.pgn: $got games, independent count $want"
		echo "ok: otb $who.pgn: $got games, as counted independently"
	done
	rm -rf "$T/p"
	pgn-split -q --by=month -d "$T/p" "$T/otb.pgn" || fail "otb --by=month"
	# every game in YYYY/YYYYMM.pgn is of that month (query marks as 0)
	bad=$(cd "$T/p" && grep -r '^\[Date "' . | awk -F: '
	    { f = $1; d = $2; sub(/^\[Date "/, "", d); gsub(/\?/, "0", d)
	      want = "./" substr(d, 1, 4) "/" substr(d, 1, 4) substr(d, 6, 2) ".pgn"
	      if (f != want && f != "./_unknown.pgn") { print f, d; exit } }')
	[ -z "$bad" ] || fail "otb --by=month: $bad"
	n=$(cat "$T/p"/*/*.pgn "$T/p"/*.pgn 2>/dev/null | grep -c '^\[Event ')
	[ "$n" -eq "$(grep -c '^\[Event ' "$T/otb.pgn")" ] ||
	    fail "otb --by=month: $n games"
	echo "ok: otb --by=month: $(ls "$T/p" | grep -c .) years," \
	    "$(find "$T/p" -name '*.pgn' | grep -c .) files, $n games"
else
	echo "SKIP: no corpus: the archive part"
fi
exit $status
