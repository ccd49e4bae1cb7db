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

# ---- hostile directories, failed runs ----
# N games of about 100 bytes, all of 2019.06.01, Event "eN"
games() {
	awk -v n="$1" 'BEGIN { for (i = 1; i <= n; i++)
	    printf "[Event \"e%d\"]\n[Date \"2019.06.01\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 {game %d} *\n\n", i, i }'
}
games 40 >"$T/g40.pgn"

# Planted links to a victim file: replaced, never written through, in
# every mode; --append refuses one.
for o in "-n 2" "-l 10" "-b 1K" "--by=event" "--by=year" "--by=month"; do
	rm -rf "$T/d"
	mkdir -p "$T/d/2019"
	printf 'victim\n' >"$T/victim.txt"
	for n in part001.pgn part002.pgn e1.pgn 2019.pgn 2019/201906.pgn; do
		ln -s "$T/victim.txt" "$T/d/$n"
	done
	# shellcheck disable=SC2086
	expect 0 pgn-split $o -d "$T/d" "$T/g40.pgn"
	[ "$(cat "$T/victim.txt")" = victim ] ||
	    fail "$o: written through a planted link"
	bad=$(find "$T/d" -type l | head -3 | tr '\n' ' ')
	case $o in
	-n*|-l*|-b*) [ -f "$T/d/part001.pgn" ] && [ ! -L "$T/d/part001.pgn" ] ||
	    fail "$o: part001.pgn is not a new file" ;;
	--by=event) [ ! -L "$T/d/e1.pgn" ] && grep -q '"e1"' "$T/d/e1.pgn" ||
	    fail "$o: e1.pgn is not a new file" ;;
	--by=year) [ ! -L "$T/d/2019.pgn" ] ||
	    fail "$o: 2019.pgn is still the link" ;;
	--by=month) [ ! -L "$T/d/2019/201906.pgn" ] ||
	    fail "$o: 2019/201906.pgn is still the link" ;;
	esac
	[ -z "$(find "$T/d" -name '.*' ! -name .)" ] ||
	    fail "$o: temporary files left: $(find "$T/d" -name '.*')"
	: "$bad"
done
rm -rf "$T/d"
mkdir -p "$T/d"
ln -s "$T/victim.txt" "$T/d/2019.pgn"
expect 2 pgn-split --by=year --append -d "$T/d" "$T/g40.pgn"
grep -q "2019.pgn: is a symbolic link: not appended to" "$T/err" ||
    fail "--append to a link: $(cat "$T/err")"
[ "$(cat "$T/victim.txt")" = victim ] || fail "--append wrote through a link"
# A directory, a fifo where a file goes: refused, named.
rm -rf "$T/d"
mkdir -p "$T/d/part001.pgn"
expect 2 pgn-split -l 10 -d "$T/d" "$T/g40.pgn"
grep -q "part001.pgn: exists and is not a regular file" "$T/err" ||
    fail "a directory named part001.pgn: $(cat "$T/err")"
rm -rf "$T/d"
mkdir -p "$T/d"
mkfifo "$T/d/e3.pgn"
expect 2 timeout 20 pgn-split --by=event -d "$T/d" "$T/g40.pgn"
grep -q "e3.pgn: exists and is not a regular file" "$T/err" ||
    fail "a fifo named e3.pgn: $(cat "$T/err")"
[ -p "$T/d/e3.pgn" ] || fail "the fifo was replaced"
# A planted year directory: 2019 -> elsewhere is refused, not followed.
for k in month day; do
	rm -rf "$T/d" "$T/elsewhere"
	mkdir -p "$T/d" "$T/elsewhere"
	ln -s "$T/elsewhere" "$T/d/2019"
	expect 2 pgn-split --by=$k -d "$T/d" "$T/g40.pgn"
	grep -q "$T/d/2019: is a symbolic link: not followed" "$T/err" ||
	    fail "--by=$k, 2019 a link: $(cat "$T/err")"
	[ -z "$(ls -A "$T/elsewhere")" ] ||
	    fail "--by=$k wrote through the 2019 link: $(ls -A "$T/elsewhere")"
done
# An existing part keeps its mode; a new one gets 0666 less the umask.
rm -rf "$T/d"
mkdir -p "$T/d"
: >"$T/d/part001.pgn"
chmod 640 "$T/d/part001.pgn"
(umask 022 && pgn-split -l 20 -d "$T/d" "$T/g40.pgn") || fail "modes"
[ "$(stat -c %a "$T/d/part001.pgn") $(stat -c %a "$T/d/part002.pgn")" = \
    "640 644" ] || fail "modes: $(stat -c %a "$T/d"/*)"

# A missing input makes no part and no directory, in every mode.
for o in "-n 3" "-l 5" "-b 1K" "--by=year"; do
	rm -rf "$T/d"
	# shellcheck disable=SC2086
	expect 2 pgn-split $o -d "$T/d" "$T/no-such.pgn"
	[ ! -e "$T/d" ] || fail "$o on a missing input made: $(ls -A "$T/d")"
done

# SIGTERM in the middle: the parts left are whole (the input's games
# up to a game boundary), no temporary file is left, and the --by files
# keep what they held.
if command -v mkfifo >/dev/null 2>&1; then
	# (more than the reader's buffer before the pause)
	games 40000 >"$T/big.pgn"
	cut=$(($(wc -c <"$T/big.pgn") / 2 + 37))	# inside a game
	for o in "-l 3000" "-b 200K" "--by=year" "--by=month"; do
		rm -rf "$T/d" "$T/fifo"
		mkdir -p "$T/d/2019"
		printf 'old\n' >"$T/d/2019/201906.pgn"
		printf 'old\n' >"$T/d/2019.pgn"
		mkfifo "$T/fifo"
		# shellcheck disable=SC2086
		pgn-split -q $o -d "$T/d" <"$T/fifo" 2>"$T/err" &
		pid=$!
		# half the input, a pause (the split waits mid-game), then TERM
		{ head -c "$cut" "$T/big.pgn"; sleep 30; } >"$T/fifo" &
		feeder=$!
		i=0
		while [ $i -lt 200 ]; do
			case $o in
			--by*) [ -n "$(find "$T/d" -name '.*.pgn.*')" ] &&
			    break ;;
			*) [ -f "$T/d/part003.pgn" ] && break ;;
			esac
			sleep 0.1
			i=$((i + 1))
		done
		sleep 1
		kill -TERM "$pid"
		wait "$pid"
		rc=$?
		kill "$feeder" 2>/dev/null
		wait "$feeder" 2>/dev/null
		[ "$rc" -eq 143 ] || fail "$o: SIGTERM: exit $rc"
		[ -z "$(find "$T/d" -name '.*' ! -name .)" ] ||
		    fail "$o: SIGTERM left $(find "$T/d" -name '.*' ! -name .)"
		case $o in
		-[lb]*)
			n=$(ls "$T/d" | grep -c '^part')
			[ "$n" -ge 3 ] || fail "$o: SIGTERM: $n parts"
			# shellcheck disable=SC2046
			cat $(ls -d "$T/d"/part* | LC_ALL=C sort) >"$T/cat"
			len=$(wc -c <"$T/cat")
			head -c "$len" "$T/big.pgn" | cmp -s - "$T/cat" ||
			    fail "$o: SIGTERM: the parts are not the input's start"
			tail -c +$((len + 1)) "$T/big.pgn" | head -1 |
			    grep -q '^\[Event ' ||
			    fail "$o: SIGTERM: a part ends mid-game (at $len)" ;;
		*)
			[ "$(cat "$T/d/2019.pgn")" = old ] &&
			    [ "$(cat "$T/d/2019/201906.pgn")" = old ] ||
			    fail "$o: SIGTERM changed the files" ;;
		esac
	done
	echo "ok: SIGTERM mid-game leaves whole parts and no temporary file"
fi

# A damaged compressed input: every mode writes the same games, those
# before the damage, reports the damage as pgn-regularize does, exit 2.
games 3000 >"$T/g3000.pgn"
for z in gzip zstd xz; do
	command -v $z >/dev/null 2>&1 || continue
	$z -c <"$T/g3000.pgn" >"$T/z.full"
	pgn-regularize -q "$T/z.full" >/dev/null 2>&1 || {
		echo "SKIP: $z: not read by this build"; continue; }
	size=$(wc -c <"$T/z.full")
	head -c $((size * 6 / 10)) "$T/z.full" >"$T/damaged.$z"
	pgn-regularize -q "$T/damaged.$z" >"$T/reg" 2>"$T/regerr"
	zmsg=$(grep -v warning "$T/regerr" | sed 's/^pgn-regularize: //')
	[ -n "$zmsg" ] || { fail "$z: pgn-regularize saw no damage"; continue; }
	ngames=$(grep -c '^\[Event ' "$T/reg")
	[ "$ngames" -gt 0 ] && [ "$ngames" -lt 3000 ] ||
	    fail "$z: $ngames games before the damage"
	first=
	for o in "-n 3" "-l 700" "-b 50K" "--by=year" "--by=event"; do
		rm -rf "$T/d"
		# shellcheck disable=SC2086
		expect 2 pgn-split -q $o -d "$T/d" "$T/damaged.$z"
		grep -v warning "$T/err" | sed 's/^pgn-split: //' >"$T/msg"
		[ "$(cat "$T/msg")" = "$zmsg" ] ||
		    fail "$z $o: message '$(cat "$T/msg")', not '$zmsg'"
		find "$T/d" -name '*.pgn' | LC_ALL=C sort |
		    while read -r f; do cat "$f"; done |
		    grep '^\[Event ' | LC_ALL=C sort >"$T/events"
		n=$(grep -c . "$T/events")
		[ "$n" -eq "$ngames" ] ||
		    fail "$z $o: $n games written, $ngames before the damage"
		if [ -z "$first" ]; then
			first=$o
			cp "$T/events" "$T/events0"
		else
			cmp -s "$T/events0" "$T/events" ||
			    fail "$z $o: other games than $first"
		fi
	done
	# and through a pipe (-n copies it first)
	rm -rf "$T/d"
	expect 2 sh -c "pgn-split -q -n 3 -d '$T/d' <'$T/damaged.$z'"
	n=$(cat "$T/d"/*.pgn | grep -c '^\[Event ')
	[ "$n" -eq "$ngames" ] || fail "$z -n 3 on a pipe: $n games"
	grep -q "<stdin>: " "$T/err" || fail "$z -n on a pipe: $(cat "$T/err")"
	echo "ok: $z damaged: $ngames games before the damage in every mode"
done

# Windows device names, with extensions too, get a `_` after the stem.
{
	for e in con.txt AUX.x Com1 lpt9.tar.gz nul prn. console com10 \
	    'CON .x' com0; do
		printf '[Event "%s"]\n\n1. e4 *\n\n' "$e"
	done
} >"$T/dev.pgn"
rm -rf "$T/d"
pgn-split --by=event -d "$T/d" "$T/dev.pgn" || fail "device names"
(cd "$T/d" && ls) | tr '\n' ' ' >"$T/ls"
[ "$(cat "$T/ls")" = "aux_.x.pgn com0.pgn com10.pgn com1_.pgn con_.txt.pgn con_.x.pgn console.pgn lpt9_.tar.gz.pgn nul_.pgn prn_.pgn " ] ||
    fail "device names: $(cat "$T/ls")"

# Dates: pgn-sort's order and pgn-split's files agree (one reader):
# VALUE FILE (of --by=day; - for _unknown.pgn, after all dates)
cat >"$T/dates" <<'EOF2'
1993.01.01 1993/199301/19930101.pgn
1993.1.1 -
01993.01.01 -
1993 1993/199300/19930000.pgn
1993.??.?? 1993/199300/19930000.pgn
1993.?? 1993/199300/19930000.pgn
1993.01 1993/199301/19930100.pgn
19?3.1?.?5 1903/190310/19031005.pgn
????.??.?? 0000/000000/00000000.pgn
9999.99.99 9999/999999/99999999.pgn
1993.01.1 -
993.01.01 -
1993/01/01 -
1993-01-01 -
? -
1993.01.01. -
EOF2
{
	while read -r v f; do
		printf '[Event "%s"]\n[Date "%s"]\n\n1. e4 *\n\n' "$v" "$v"
	done <"$T/dates"
	# no date, and an empty one: where ????.??.?? goes (pgn-sort's first)
	printf '[Event "nodate"]\n\n1. e4 *\n\n[Event "empty"]\n[Date ""]\n\n1. d4 *\n\n'
} >"$T/dates.pgn"
printf '%s\n' 'nodate 0000/000000/00000000.pgn' 'empty 0000/000000/00000000.pgn' \
    >>"$T/dates"
rm -rf "$T/d"
pgn-split --by=day -d "$T/d" "$T/dates.pgn" || fail "--by=day of the dates"
while read -r v f; do
	[ "$f" = - ] && f=_unknown.pgn
	grep -qxF "[Event \"$v\"]" "$T/d/$f" 2>/dev/null ||
	    fail "date '$v': not in $f"
done <"$T/dates"
# the files of a sorted archive, in the byte order of their names, are
# the sorted archive
pgn-sort "$T/dates.pgn" >"$T/dates-sorted.pgn" || fail "pgn-sort of the dates"
for by in year month day; do
	rm -rf "$T/d2"
	pgn-split --by=$by -d "$T/d2" "$T/dates-sorted.pgn" || fail "--by=$by"
	(cd "$T/d2" && find . -type f | LC_ALL=C sort) | while read -r f; do
		cat "$T/d2/$f"
	done | cmp -s - "$T/dates-sorted.pgn" ||
	    fail "--by=$by: the files in name order are not pgn-sort's order"
done
# pgn-sort: the files, in the order of the sorted games, never go back
pgn-sort "$T/dates.pgn" | sed -n 's/^\[Event "\(.*\)"\]$/\1/p' |
    while read -r v; do
	grep -lxF "[Event \"$v\"]" -r "$T/d" | sed "s|^$T/d/||;s|^_unknown|~|"
    done >"$T/order"
LC_ALL=C sort -c "$T/order" 2>/dev/null ||
    fail "pgn-sort and pgn-split disagree: $(tr '\n' ' ' <"$T/order")"

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
