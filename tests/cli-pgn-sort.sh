#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-pgn-sort.sh: pgn-sort end to end: help, version, usage errors,
# golden outputs (every key and tie-break, -r, -u, skipped text, an
# unclosed comment, no final newline), -c, -m, -o on an input, the
# external sort of an input 20 times larger than -S compared with the
# in-memory result (also with -r and -u), temporary files removed on
# every exit and on SIGTERM, and, when the corpus is there, a real
# archive sorted both ways.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"
P="$tooldir/pgn-sort"
NAME=pgnsort
. "$top_srcdir/tests/testlib.sh"

# --help, --version, usage errors
expect 0 "$P" --help
grep -q '^Usage: pgn-sort ' "$T/out" || fail "--help: no usage line"
[ -s "$T/err" ] && fail "--help wrote to stderr"
expect 0 "$P" --version
grep -q '^pgn-sort (chessdata) ' "$T/out" || fail "--version"
expect 2 "$P" --no-such-option
grep -q "^pgn-sort: unknown option" "$T/err" || fail "bad option message"
expect 2 "$P" -S
grep -q "needs a value" "$T/err" || fail "-S without value message"
expect 2 "$P" -S 12Q "$F/sort-keys.pgn"
grep -q "invalid size '12Q'" "$T/err" || fail "bad size message"
expect 2 "$P" -c -m "$F/sort-keys.pgn"
expect 2 "$P" "$T/no-such-file.pgn"
grep -q "no-such-file.pgn: No such file" "$T/err" || fail "missing file message"

# golden outputs (see tests/README for what they hold)
expect 0 "$P" "$F/sort-keys.pgn"
cmp -s "$T/out" "$E/sort-keys.pgn" || fail "sort-keys.pgn differs"
[ -s "$T/err" ] && fail "sort-keys.pgn: stderr not empty"
expect 0 "$P" -r "$F/sort-keys.pgn"
cmp -s "$T/out" "$E/sort-keys-r.pgn" || fail "-r: sort-keys-r.pgn differs"
expect 0 "$P" -u "$F/sort-keys.pgn"
cmp -s "$T/out" "$E/sort-keys-u.pgn" || fail "-u: sort-keys-u.pgn differs"
expect 0 "$P" "$F/sort-odd.pgn"
cmp -s "$T/out" "$E/sort-odd.pgn" || fail "sort-odd.pgn differs"
grep -q "^pgn-sort: .*sort-odd.pgn:1:1: warning: game 1: skipped 35 bytes of text that is not PGN before it$" \
    "$T/err" || fail "sort-odd.pgn: no warning about skipped text"
# standard input, by name and by default
"$P" - <"$F/sort-keys.pgn" | cmp -s - "$E/sort-keys.pgn" || fail "stdin (-)"
"$P" <"$F/sort-keys.pgn" | cmp -s - "$E/sort-keys.pgn" || fail "stdin"

# byte for byte: the same bytes (plus the line end and empty line added
# to the last game, which had none), and sorting is idempotent
in_size=$(wc -c <"$F/sort-keys.pgn")
out_size=$(wc -c <"$E/sort-keys.pgn")
[ "$out_size" -eq $((in_size + 2)) ] || fail "sizes $in_size -> $out_size"
"$P" "$E/sort-keys.pgn" | cmp -s - "$E/sort-keys.pgn" || fail "not idempotent"

# -c: the output is in order, the input is not (named at its game)
expect 0 "$P" -c "$E/sort-keys.pgn"
expect 0 "$P" -c -r "$E/sort-keys-r.pgn"
expect 0 "$P" -cu "$E/sort-keys-u.pgn"
expect 1 "$P" -cu "$E/sort-keys.pgn"
grep -q "sort-keys.pgn:3: game 2 is equal to the one before it" "$T/err" ||
    fail "-cu message: $(cat "$T/err")"
expect 1 "$P" -c "$F/sort-keys.pgn"
grep -q "^pgn-sort: .*sort-keys.pgn:15: game 4 is out of order$" "$T/err" ||
    fail "-c message: $(cat "$T/err")"
[ -s "$T/out" ] && fail "-c wrote games"

# -m: sorted pieces merge into the whole; equal games from the first
# input first
awk 'NR % 2 == 1' RS= ORS='\n\n' "$F/sort-keys.pgn" >"$T/odd.pgn"
awk 'NR % 2 == 0' RS= ORS='\n\n' "$F/sort-keys.pgn" >"$T/even.pgn"
"$P" -o "$T/odd.s" "$T/odd.pgn" && "$P" -o "$T/even.s" "$T/even.pgn" ||
    fail "sorting the halves"
cat "$T/odd.pgn" "$T/even.pgn" | "$P" >"$T/whole.s"
"$P" -m "$T/odd.s" "$T/even.s" >"$T/merged.s" || fail "-m exit"
cmp -s "$T/merged.s" "$T/whole.s" || fail "-m differs from the sort"
"$P" -m -S 64K "$T/odd.s" "$T/even.s" "$T/odd.s" >"$T/merged3.s" ||
    fail "-m three"
"$P" -c "$T/merged3.s" || fail "-m three: not sorted"

# -o naming an input
cp "$F/sort-keys.pgn" "$T/inplace.pgn"
"$P" -o "$T/inplace.pgn" "$T/inplace.pgn" || fail "-o on the input"
cmp -s "$T/inplace.pgn" "$E/sort-keys.pgn" || fail "-o on the input differs"
ls -A "$T" | grep -q '^\.pgn-sort\.' && fail "-o left a temporary file"

# An input 20 times larger than -S: 6000 generated games (about 2 MB,
# many equal keys, multipart rounds, query dates, CRLF, comments; the
# Annotator tag, no key, tells equal games apart, so stability shows).
awk 'BEGIN {
	x = 7
	for (i = 1; i <= 6000; i++) {
		x = (x * 1103515245 + 12345) % 2147483648
		y = 1990 + x % 7; m = int(x / 7) % 13; d = int(x / 91) % 29
		date = y "." (m == 0 ? "??" : sprintf("%02d", m)) "." \
		    (d == 0 ? "??" : sprintf("%02d", d))
		r = int(x / 2639) % 6
		round = r == 0 ? "?" : r == 1 ? "-" : (r % 3) "." (int(x / 13) % 12)
		eol = (i % 17 == 0) ? "\r" : ""
		printf "[Event \"E%d\"]%s\n[Site \"S\"]%s\n[Date \"%s\"]%s\n", \
		    int(x / 7) % 3, eol, eol, date, eol
		printf "[Round \"%s\"]%s\n[White \"W%d\"]%s\n[Black \"B\"]%s\n", \
		    round, eol, int(x / 5) % 4, eol, eol
		printf "[Result \"*\"]%s\n[Annotator \"%d\"]%s\n%s\n", eol, i, \
		    eol, eol
		printf "1. e4 {"
		for (k = 0; k < 30; k++)
			printf "padding "
		printf "} %s *%s\n%s\n", (x % 5 == 0 ? "e5" : "c5"), eol, eol
	}
}' >"$T/big.pgn"
size=$(wc -c <"$T/big.pgn")
[ "$size" -gt $((20 * 100 * 1024)) ] || fail "generated input too small"
mkdir "$T/tmp"
for opt in "" -r -u; do
	"$P" $opt -S 64M "$T/big.pgn" >"$T/big.mem" || fail "in memory $opt"
	"$P" $opt -S 100K -T "$T/tmp" "$T/big.pgn" >"$T/big.ext" ||
	    fail "external $opt"
	cmp -s "$T/big.mem" "$T/big.ext" || fail "external sort $opt differs"
	"$P" -c $opt "$T/big.ext" || fail "-c $opt on the external output"
	[ -z "$(ls "$T/tmp")" ] || fail "temporary files left ($opt)"
done
[ "$(wc -c <"$T/big.mem")" -lt "$size" ] || fail "-u dropped nothing"
# A named file's games stay in it until they are written (keys and
# movetext prefixes in memory, bytes read back); through a pipe they are
# copied: the same output, in memory and through runs.  The movetexts
# here are longer than the prefix and many begin alike (the comparison
# reads them back), and some have CRLF line ends.
for opt in "" -r; do
	cat "$T/big.pgn" | "$P" $opt -S 64M >"$T/big.pipe" ||
	    fail "pipe $opt"
	"$P" $opt -S 64M "$T/big.pgn" | cmp -s - "$T/big.pipe" ||
	    fail "file and pipe differ $opt"
	cat "$T/big.pgn" | "$P" $opt -S 100K -T "$T/tmp" |
	    cmp -s - "$T/big.pipe" || fail "pipe, external $opt"
done
# Movetexts that differ around the prefix's end (128 bytes), with CR LF
# line ends at and near it, in every order of input.
awk 'BEGIN {
	for (i = 0; i < 240; i++) {
		n = 100 + i % 40
		eol = i % 3 == 0 ? "\r" : ""
		printf "[Event \"?\"]\n\n1. e4 {"
		for (k = 0; k < n; k++)
			printf "%s", k % 16 == 15 ? eol "\n" : "x"
		printf "} %s *%s\n\n", (i * 7) % 11 < 5 ? "e5" : "c5", eol
	}
}' >"$T/prefix.pgn"
cat "$T/prefix.pgn" | "$P" >"$T/prefix.pipe" || fail "prefix: pipe"
"$P" "$T/prefix.pgn" | cmp -s - "$T/prefix.pipe" ||
    fail "prefix: file and pipe differ"
"$P" -S 64K -T "$T/tmp" "$T/prefix.pgn" | cmp -s - "$T/prefix.pipe" ||
    fail "prefix: file, external"
"$P" -c "$T/prefix.pipe" || fail "prefix: -c on the output"
# Games of more than 2 KiB stay in their file; smaller ones are copied
# while the copies take at most half the budget.  The games above with
# a long tag (no key) each: in memory, through runs, and mixed with the
# small ones where the copies run out (-S 64K: 32 KiB of them).  Games
# that follow each other in their file are read back with one read:
# sorting the sorted output again reads it in long runs of games, -r
# in reverse order.
pad=$(awk 'BEGIN { for (i = 0; i < 2100; i++) printf "p" }')
awk -v pad="$pad" '{ print }
    /^\[Event / { print "[Annotator \"" pad "\"]" }' "$T/prefix.pgn" \
    >"$T/large.pgn"
[ "$(wc -c <"$T/large.pgn")" -gt $((240 * 2200)) ] || fail "large: too small"
cat "$T/large.pgn" | "$P" >"$T/large.pipe" || fail "large: pipe"
"$P" "$T/large.pgn" | cmp -s - "$T/large.pipe" ||
    fail "large: file and pipe differ"
"$P" -S 64K -T "$T/tmp" "$T/large.pgn" | cmp -s - "$T/large.pipe" ||
    fail "large: file, external"
"$P" "$T/large.pipe" | cmp -s - "$T/large.pipe" || fail "large: sorted again"
"$P" -r "$T/large.pipe" >"$T/large.r" || fail "large: -r"
cat "$T/large.pipe" | "$P" -r | cmp -s - "$T/large.r" ||
    fail "large: -r, file and pipe differ"
"$P" -r "$T/large.r" | cmp -s - "$T/large.r" || fail "large: -r again"
cat "$T/prefix.pgn" "$T/large.pgn" "$T/prefix.pgn" >"$T/mixed.pgn"
cat "$T/mixed.pgn" | "$P" >"$T/mixed.pipe" || fail "mixed: pipe"
for budget in 64K 64M; do
	"$P" -S $budget -T "$T/tmp" "$T/mixed.pgn" |
	    cmp -s - "$T/mixed.pipe" ||
	    fail "mixed: file and pipe differ (-S $budget)"
done
[ -z "$(ls "$T/tmp")" ] || fail "temporary files left (large)"
# A file that changes before its games are read back is an error: the
# second input, a FIFO, is opened only when the first is read.
cp "$T/prefix.pgn" "$T/change.pgn"
mkfifo "$T/cfifo" || exit 99
"$P" "$T/change.pgn" "$T/cfifo" >/dev/null 2>"$T/cerr" &
pid=$!
exec 3>"$T/cfifo"
echo '[Event "late"]' >>"$T/change.pgn"
exec 3>&-
wait $pid
[ $? -eq 2 ] || fail "changed input: exit status"
grep -q "change.pgn: changed while being sorted" "$T/cerr" ||
    fail "changed input: message: $(cat "$T/cerr")"
"$P" "$T/big.pgn" >"$T/big.sorted"
[ "$(wc -c <"$T/big.sorted")" -eq "$size" ] || fail "bytes lost"
[ "$(grep -c '^\[Annotator' "$T/big.sorted")" -eq 6000 ] || fail "games lost"

# -u drops only games equal as text: tag values byte for byte and
# movetext, not games that merely sort together ("1993.?1.01" and
# "1993.01.01", Round "1" and "01"), in memory and through runs, with
# the text-equal copies anywhere in the input.
g() {
	printf '[Event "E"]\n[Site "S"]\n[Date "%s"]\n[Round "%s"]\n' "$1" "$2"
	printf '[White "W"]\n[Black "B"]\n[Result "*"]\n[Annotator "%s"]\n' "$3"
	printf '\n1. e4 {%s} *\n\n' "$4"
}
{
	i=0
	while [ $i -lt 300 ]; do
		g 1993.01.01 1 "a$i" "padding padding padding padding padding"
		g 1993.?1.01 1 "b$i" "padding padding padding padding padding"
		g 1993.01.01 01 "c$i" "padding padding padding padding padding"
		g 1993.01.01 1 "d$i" "padding padding padding padding padding"
		g 1993.01.01 "1 " "e$i" "padding padding padding padding padding"
		g 1993.1.01 1 "f$i" "padding padding padding padding padding"
		g 1993.01.01 1 "g$i" "padding padding padding padding padding "
		i=$((i + 1))
	done
} >"$T/uniq.pgn"
for S in 64M 8K; do
	"$P" -u -S $S -T "$T/tmp" "$T/uniq.pgn" >"$T/out" 2>"$T/err" ||
	    fail "-u -S $S: exit $?"
	got=$(grep '^\[Annotator' "$T/out" | tr -d '[]"0-9' | sort | tr '\n' ' ')
	[ "$got" = "Annotator a Annotator b Annotator c Annotator e Annotator \
f Annotator g " ] || fail "-u -S $S kept: $got"
	"$P" -cu "$T/out" || fail "-cu on the -u -S $S output"
done
"$P" -u "$T/uniq.pgn" "$T/uniq.pgn" >"$T/out2" || fail "-u twice"
cmp -s "$T/out" "$T/out2" || fail "-u of the input twice differs"
{ g 1993.01.01 1 x ""; g 1993.?1.01 1 x ""; g 1993.?1.01 1 x ""; } >"$T/dup"
expect 1 "$P" -cu "$T/dup"
grep -q "dup:23: game 3 is equal to the one before it" "$T/err" ||
    fail "-cu: no message: $(cat "$T/err")"

# Temporary files go on SIGTERM too: the input stalls after the runs
# are written, then the sort is killed.
mkfifo "$T/fifo" || exit 99
"$P" -S 64K -T "$T/tmp" "$T/fifo" >/dev/null 2>&1 &
pid=$!
exec 3>"$T/fifo"
cat "$T/big.pgn" >&3
n=0
while [ -z "$(ls "$T/tmp")" ] && [ $n -lt 100 ]; do
	sleep 0.1
	n=$((n + 1))
done
[ -n "$(ls "$T/tmp")" ] || fail "no temporary file while sorting"
kill -TERM $pid
wait $pid 2>/dev/null
rc=$?
exec 3>&-
[ $rc -eq 143 ] || fail "SIGTERM: exit $rc"
[ -z "$(ls "$T/tmp")" ] || fail "temporary files left after SIGTERM"

# An error exit removes them as well (the output cannot be written).
if [ -w /dev/full ]; then
	"$P" -S 64K -T "$T/tmp" "$T/big.pgn" >/dev/full 2>"$T/err"
	[ $? -eq 2 ] || fail "write error: exit status"
	grep -q "write error" "$T/err" || fail "write error: message"
	[ -z "$(ls "$T/tmp")" ] || fail "temporary files left after an error"
fi

# -k: random games sorted by tags first, the order checked with sort(1):
# numbers as numbers (sort -g), dates and times (zero-padded: byte
# order), in memory and in runs the same; a missing tag first; then
# the standard's keys; -c agrees.
awk 'BEGIN { srand(7); for (i = 0; i < 400; i++) {
	n = int(rand() * 2000) - 1000
	if (i % 3 == 0) n = n "." int(rand() * 100)
	if (i % 7 == 0) n = "00" int(rand() * 50)
	printf "[Event \"e%d\"]\n[Round \"%d\"]\n", i % 5, i % 11
	printf "[UTCDate \"2024.%02d.%02d\"]\n", 1 + int(rand() * 3), 1 + int(rand() * 3)
	printf "[UTCTime \"%02d:%02d:00\"]\n", int(rand() * 3), int(rand() * 3)
	printf "[N \"%s\"]\n\n1. e4 *\n\n", n } }' >"$T/k.pgn"
printf '[Event "none"]\n\n1. d4 *\n\n' >>"$T/k.pgn"
# tagval NAME: the values of tag NAME on standard input, in order
tagval() {
	sed -n "s/^\[$1 \"\(.*\)\"\]\$/\1/p"
}
"$P" -k N "$T/k.pgn" >"$T/k.out" || fail "-k N: exit status"
sed -n 1p "$T/k.out" | grep -q '"none"' || fail "-k N: a missing tag not first"
tagval N <"$T/k.out" | sort -c -s -g || fail "-k N: not in numeric order"
"$P" -r -k N "$T/k.pgn" | tagval N | sort -c -s -g -r || fail "-r -k N: order"
"$P" -k UTCDate,UTCTime "$T/k.pgn" >"$T/k.out2"
tagval UTCDate <"$T/k.out2" >"$T/k.d"
tagval UTCTime <"$T/k.out2" >"$T/k.t"
paste -d' ' "$T/k.d" "$T/k.t" | sort -c || fail "-k UTCDate,UTCTime: order"
# within equal tags, the standard's keys: Event, then Round as numbers
"$P" -k UTCDate,UTCTime "$T/k.pgn" | awk '
	/^\[UTCDate / { d = $2 } /^\[UTCTime / { t = $2 }
	/^\[Event / { e = $2 } /^\[Round / { r = $2 + 0 }
	/^1\./ { k = d " " t; if (k == pk && (e < pe || (e == pe && r < pr)))
		bad = 1; pk = k; pe = e; pr = r }
	END { exit bad }' || fail "-k: ties not in the collating order"
"$P" -k UTCDate -k UTCTime "$T/k.pgn" | cmp -s - "$T/k.out2" ||
    fail "-k A -k B differs from -k A,B"
mkdir -p "$T/ktmp"
"$P" -S 64K -T "$T/ktmp" -k UTCDate,UTCTime "$T/k.pgn" |
    cmp -s - "$T/k.out2" || fail "-k: runs and memory differ"
"$P" -c -k UTCDate,UTCTime "$T/k.out2" || fail "-c -k: sorted output refused"
"$P" -c -k N "$T/k.out2" 2>/dev/null && fail "-c -k N: unsorted input passed"
# the strongest first (pgn-sort(1)): -r -k WhiteElo puts the ratings
# from the highest, then the values that are no number ('?', '-',
# words), then the empty and missing ones
for e in 1500 '?' 2700 - '' 900 unrated 2100 none; do
	[ "$e" = none ] && printf '[White "no elo"]\n\n1. e4 *\n\n' && continue
	printf '[White "%s"]\n[WhiteElo "%s"]\n\n1. e4 *\n\n' "w$e" "$e"
done >"$T/elo.pgn"
"$P" -r -k WhiteElo "$T/elo.pgn" >"$T/elo.out" 2>"$T/err" ||
    fail "-r -k WhiteElo: exit status"
[ -s "$T/err" ] && fail "-r -k WhiteElo: a message: $(cat "$T/err")"
[ "$(tagval White <"$T/elo.out" | tr '\n' ' ')" = "w2700 w2100 w1500 w900 wunrated w? w- w no elo " ] ||
    fail "-r -k WhiteElo: $(tagval White <"$T/elo.out" | tr '\n' ' ')"
"$P" -k WhiteElo "$T/elo.pgn" | tagval White | tr '\n' ' ' >"$T/elo.w"
[ "$(cat "$T/elo.w")" = "no elo w w- w? wunrated w900 w1500 w2100 w2700 " ] ||
    fail "-k WhiteElo: $(cat "$T/elo.w")"
# tag names are case-sensitive: a -k tag that no game has is a warning,
# naming the tag of another case that games have; the games are sorted
# and written all the same
"$P" -k whiteelo "$T/elo.pgn" >"$T/elo.out" 2>"$T/err" ||
    fail "-k whiteelo: exit status"
grep -qx "pgn-sort: warning: no game has a tag 'whiteelo' (some have 'WhiteElo': tag names are case-sensitive)" "$T/err" ||
    fail "-k whiteelo: no warning: $(cat "$T/err")"
"$P" "$T/elo.pgn" | cmp -s - "$T/elo.out" || fail "-k whiteelo: not the standard's order"
"$P" -k BlackElo,WhiteElo "$T/elo.pgn" >/dev/null 2>"$T/err" ||
    fail "-k BlackElo: exit status"
[ "$(cat "$T/err")" = "pgn-sort: warning: no game has a tag 'BlackElo'" ] ||
    fail "-k BlackElo: warning: $(cat "$T/err")"
for bad in "" "A,,B" "Bad Tag" "A,"; do
	"$P" -k "$bad" "$T/k.pgn" >/dev/null 2>"$T/err"
	[ $? -eq 2 ] || fail "-k '$bad': exit status"
	grep -q "^pgn-sort: -k" "$T/err" || fail "-k '$bad': message"
done

# The corpus, when it is there: a real archive, external and in memory.
X="${CORPUS:-}/pgn/otb-14539.pgn.xz"

# A read error (a directory as input) is reported as by every tool, the
# other inputs are sorted, exit 2; -c stops at the first game out of
# order without opening the inputs after it.
"$P" "$T/rd.none" / "$F/sort-keys.pgn" >"$T/rd.out" 2>"$T/rd.err"
[ $? -eq 2 ] || fail "read error: exit status"
grep -q "^pgn-sort: /: read error: Is a directory\$" "$T/rd.err" ||
    fail "read error message: $(cat "$T/rd.err")"
cmp -s "$T/rd.out" "$E/sort-keys.pgn" || fail "read error: other inputs"
"$P" -c "$F/sort-keys.pgn" "$T/rd.none" >/dev/null 2>"$T/rd.err"
[ $? -eq 1 ] || fail "-c: exit status at the first game out of order"
grep -q 'rd.none' "$T/rd.err" && fail "-c opened an input after the end"
if [ -f "$X" ] && command -v xz >/dev/null; then
	xz -dc "$X" >"$T/otb.pgn"
	"$P" -S 256M "$T/otb.pgn" >"$T/otb.mem" || fail "otb in memory"
	"$P" -S 500K -T "$T/tmp" "$T/otb.pgn" >"$T/otb.ext" || fail "otb ext"
	cmp -s "$T/otb.mem" "$T/otb.ext" || fail "otb: external sort differs"
	"$P" -c "$T/otb.ext" || fail "otb: -c on the output"
	# nothing lost: every game (each has an Event tag), every byte (an
	# empty line is added only after the few games that had none)
	[ "$(grep -c '^\[Event ' "$T/otb.ext")" -eq 14539 ] || fail "otb: games lost"
	tr -d '\r\n' <"$T/otb.pgn" | wc -c >"$T/otb.n1"
	tr -d '\r\n' <"$T/otb.ext" | wc -c >"$T/otb.n2"
	cmp -s "$T/otb.n1" "$T/otb.n2" || fail "otb: bytes lost"
	"$P" "$T/otb.ext" | cmp -s - "$T/otb.ext" || fail "otb: not idempotent"
	cat "$T/otb.pgn" | "$P" -S 500K -T "$T/tmp" | cmp -s - "$T/otb.ext" ||
	    fail "otb: pipe and file differ"
else
	echo "corpus not found: skipping the corpus part"
fi

exit $status
