#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-pgn2json.sh: pgn2json: help, version, usage errors, the golden
# NDJSON of tests/files/json-games.pgn (clocks, elapsed times, evals,
# comments, variations, Latin-1 and broken UTF-8, a rejected game),
# comments as written with -c,
# every line valid JSON (jq, when installed), the same output with any
# number of threads; and pgn-regularize --strip-commands.
set -u
NAME=p2j
. "$top_srcdir/tests/testlib.sh"
P="$tooldir/pgn2json"
R="$tooldir/pgn-regularize"
G="$F/json-games.pgn"

expect 0 "$P" --help
grep -q -- '--variations' "$T/out" || fail "--help does not list --variations"
expect 0 "$P" -V
grep -q '^pgn2json ' "$T/out" || fail "-V: $(cat "$T/out")"
expect 2 "$P" --bogus
grep -q "^pgn2json: unknown option '--bogus'" "$T/err" ||
    fail "--bogus: $(cat "$T/err")"
expect 2 "$P" "$T/missing.pgn"
grep -q "^pgn2json: .*missing.pgn" "$T/err" || fail "missing file: $(cat "$T/err")"

# the golden output: games 1, 2, 4, 5, 6 written, 3 rejected
cd "$F" || exit 99
expect 1 "$P" -c --variations --rejects="$T/rej" json-games.pgn
cmp -s "$T/out" "$E/json-games.ndjson" || { fail "json-games.ndjson differs"; diff "$E/json-games.ndjson" "$T/out" | head -5 >&2; }
cmp -s "$T/err" "$E/json-games.err" || { fail "json-games.err differs"; cat "$T/err" >&2; }
printf '[Event "Illegal"]\n[Result "*"]\n\n1. e4 e5 2. Ke3 *\n\n' >"$T/rej.want"
cmp -s "$T/rej" "$T/rej.want" || fail "rejects file differs"
cp "$T/out" "$T/golden"

# any number of threads, standard input, -o
for j in 1 3; do
	"$P" -j $j -c --variations <json-games.pgn >"$T/j$j" 2>/dev/null
	cmp -s "$T/j$j" "$T/golden" || fail "-j $j changes the output"
done
"$P" -q -o "$T/o.json" json-games.pgn 2>/dev/null
[ "$(wc -l <"$T/o.json")" -eq 5 ] || fail "-o: $(wc -l <"$T/o.json") lines"

# --fens: a FEN per ply, the last one the final position
"$P" -f json-games.pgn 2>/dev/null >"$T/fens"
if command -v jq >/dev/null 2>&1; then
	jq -e . "$T/golden" >/dev/null 2>&1 || fail "jq cannot read the output"
	n=$(jq -r 'select((.fens | length) == .plies and (.plies == 0 or .fens[-1] == .final)) | .game' "$T/fens" | wc -l)
	[ "$n" -eq 5 ] || fail "--fens: $n games with plies FENs ending at final"
	w=$(jq -r 'select(.game == 1) | .tags.White' "$T/golden")
	[ "$w" = "Müller" ] || fail "Latin-1 tag read as '$w'"
else
	echo "jq not installed: JSON syntax not checked"
fi

# -c: comments as written (line ends, tabs, runs of spaces, a `}` in a
# `;` comment), CRLF line ends as LF, the white space around a command
# taken out made one space, several comments at one place joined by a
# space; on one thread and on three
cd "$T" || exit 99
printf '[Event "c"]\r\n\r\n{ before\r\nthe  game } 1. e4 { a\n\tb [%%clk 0:01:00]\n c }\r\n' >c.pgn
printf '{[%%eval 0.2]\nnext} e5 ; line } here\n{ [%%emt 0:00:02] } {x\t\ty} 2. Nf3 {\n\n} *\n' >>c.pgn
for j in 1 3; do
	"$P" -j $j -c c.pgn >c.json 2>c.err || fail "-c: exit status $?"
	grep -qF '"comments":["before\nthe  game","a\n\tb c next","line } here x\t\ty",null]' c.json ||
	    fail "-c -j $j: comments not as written: $(cat c.json)"
	grep -qF '"clocks":[60,null,null],"emt":[null,2,null],"evals":[{"cp":20},null,null]' c.json ||
	    fail "-c -j $j: commands: $(cat c.json)"
done

# Variant: every spelling of standard chess and Chess960 that lichess,
# chess.com and python-chess write is read, by every tool that parses
# (the same reader); other variants are rejected
fen='rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'
for v in Standard standard Normal 'From Position' fromPosition \
    from_position FROMPOSITION Chess960 'Chess 960' chess960 FRC; do
	printf '[Variant "%s"]\n[SetUp "1"]\n[FEN "%s"]\n\n1... e5 *\n' "$v" "$fen" >v.pgn
	for tool in pgn2json pgn-regularize pgn2epd; do
		"$tooldir/$tool" v.pgn >/dev/null 2>v.err ||
		    fail "$tool: Variant '$v' not read: $(cat v.err)"
	done
	"$P" v.pgn | grep -qF "\"Variant\":\"$v\"" || fail "Variant '$v' not kept"
done
for v in Three-check Crazyhouse Antichess 'From Position 2' -; do
	printf '[Variant "%s"]\n\n1. e4 *\n' "$v" >v.pgn
	expect 1 "$P" v.pgn
	grep -qF "unsupported variant '$v'" "$T/err" || fail "Variant '$v': $(cat "$T/err")"
done
# SetUp as the game has it in "tags", with or without a FEN tag
printf '[SetUp "1"]\n\n1. e4 *\n\n[SetUp "0"]\n\n1. e4 *\n\n[SetUp "0"]\n[FEN "%s"]\n\n1... e5 *\n\n[FEN "%s"]\n\n1... e5 *\n' "$fen" "$fen" >s.pgn
"$P" s.pgn | sed 's/.*"Result":"\*"//; s/},"start".*//' >s.out
printf '%s\n' ',"SetUp":"1"' ',"SetUp":"0"' ",\"FEN\":\"$fen\",\"SetUp\":\"0\"" ",\"FEN\":\"$fen\",\"SetUp\":\"1\"" >s.want
cmp -s s.out s.want || { fail "SetUp in tags"; diff s.want s.out >&2; }

# --variations on 100,000 nested variations (each after the second move
# of its parent): a flat array that jq and Python load, each line's
# parent the one before it
n=25000
{
	printf '[Event "deep"]\n\n1. Nf3 Nf6 '
	yes '( Nf6 Ng1 ( Ng1 Ng8 ( Ng8 Nf3 ( Nf3 Nf6 ' | head -n $n | tr -d '\n'
	yes ') ) ) )' | head -n $n | tr -d '\n'
	printf ' 1-0\n'
} >deep.pgn
"$P" --variations deep.pgn >deep.json || fail "deep: exit status $?"
if command -v jq >/dev/null 2>&1; then
	k=$(jq '[.variations | to_entries[] | select(.value.parent == (if .key == 0 then null else .key - 1 end))] | length' deep.json)
	[ "$k" = 100000 ] || fail "deep: jq reads $k lines of 100000 in a chain"
fi
if command -v python3 >/dev/null 2>&1; then
	k=$(python3 -c 'import json, sys
v = json.load(open(sys.argv[1]))["variations"]
print(sum(1 for i, x in enumerate(v) if x["parent"] == (i - 1 if i else None) and x["ply"] == i + 2))' deep.json)
	[ "$k" = 100000 ] || fail "deep: python3 reads $k lines of 100000 in a chain"
fi

# emt computed from clocks and TimeControl (worked by hand: 180+2, a
# missing clock; 2/100:60+1, a period with a move count, its next
# period's time and increment; Black first from a FEN), none for a
# sandclock, "?", no tag, or a game that has [%emt]
c='1. e4 {[%clk 0:01:30]} e5 {[%clk 0:01:40]} 2. Nf3 {[%clk 0:02:10]} Nc6 {[%clk 0:02:20]} 3. Bb5 {[%clk 0:02:00]} Nf6 {[%clk 0:02:20]} *'
{
	printf '[TimeControl "180+2"]\n\n1. e4 {[%%clk 0:03:00]} e5 {[%%clk 0:02:59.5]} 2. Nf3 {[%%clk 0:02:50]} Nc6 {[%%clk 0:03:01]} 3. Bb5 Nf6 {[%%clk 0:02:40]} 4. O-O {[%%clk 0:02:41]} *\n\n'
	printf '[TimeControl "2/100:60+1"]\n\n%s\n\n' "$c"
	printf '[TimeControl "*60"]\n\n%s\n\n[TimeControl "?"]\n\n%s\n\n%s\n\n' "$c" "$c" "$c"
	printf '[TimeControl "180+2"]\n\n1. e4 {[%%clk 0:03:00]} e5 {[%%clk 0:02:59] [%%emt 0:00:07]} *\n\n'
	printf '[TimeControl "10+0.5"]\n[SetUp "1"]\n[FEN "%s"]\n\n1... e5 {[%%clk 0:00:09.25]} 2. Nf3 {[%%clk 0:00:10.5]} *\n' "$fen"
} >emt.pgn
"$P" emt.pgn | sed 's/.*"emt"://; s/,"evals".*//; s/}$//; /"timecontrol\|"clocks/s/.*/none/' >emt.out
printf '%s\n' '[2,2.5,12,0.5,null,23,null]' '[10,0,20,20,11,1]' none none none \
    '[null,7]' '[1.25,0]' >emt.want
cmp -s emt.out emt.want || { fail "computed emt"; diff emt.want emt.out >&2; }
# over the online exports (a sample): computed times are never below
# -1 s (clocks in whole seconds) but where the opponent gave time
# (lichess: 15 s a press)
on="${CORPUS:-/nonexistent}/online"
if [ -d "$on" ] && command -v jq >/dev/null 2>&1; then
	for f in "$on"/*.pgn.xz; do
		xz -dc "$f" | head -c 2000000 | "$P" -q 2>/dev/null |
		    jq -r 'select(.emt and .clocks) | .emt[] | select(. != null)'
	done >emts
	[ "$(wc -l <emts)" -gt 100000 ] || fail "online: only $(wc -l <emts) computed emt"
	awk '$1 < -1 { n++ } $1 < -31 { far++ } END { exit !(n * 1000 < NR && far == 0) }' emts ||
	    fail "online: computed emt below -1 s: $(sort -n emts | head -3 | tr '\n' ' ')"
fi

# pgn-regularize --strip-commands: all, then a list
cat >strip.pgn <<'PGN'
[Event "x"]

{[%clk 0:03:00]} 1. e4 {[%eval 0.2] [%clk 0:02:59] good} e5 {[%clk 0:02:58]}
(1... c5 {[%csl Ra1][%cal Gc7c5] [%mine 3] fine}) 2. Nf3 {[%emt 0:00:01]} *
PGN
expect 0 "$R" --strip-commands strip.pgn
grep -q '^1\. e4 { good } 1\.\.\. e5 ( 1\.\.\. c5 { fine } ) 2\. Nf3 \*$' out ||
    fail "--strip-commands: $(cat out)"
expect 0 "$R" --strip-commands=clk,mine strip.pgn
grep -q '^1\. e4 { \[%eval 0\.2\] good } 1\.\.\. e5 ( 1\.\.\. c5 { \[%csl Ra1\]\[%cal Gc7c5\] fine } )$' out ||
    fail "--strip-commands=clk,mine: $(cat out)"
expect 0 "$R" strip.pgn
tr '\n' ' ' <out | grep -q '%clk 0:02:58' || fail "commands stripped without --strip-commands"
exit $status
