#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-pgn-select-conditions.sh: pgn-select's boolean and newer
# conditions and the answers it must share with the other tools:
# --where against -t and -v (and, or, not over every pair of a list of
# conditions), --winner and --loser against --white/--black and
# --result, --games, --moves, --placement, --occurs and --wrong-result
# on hand-made games (files/select-laws.pgn: each case once, and
# pgn-regularize -v warning on the same games), the one result of
# every tool (pgn2json's), integers of any length, operators that are
# errors, regerror's reason, Latin-1 names as pgn2tsv shows them,
# warnings for a tag no game has and a quoted -t value, -m and --games
# opening no further input (a missing file, a FIFO), -c for each file
# and -s.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"
P="$tooldir/pgn-select"
NAME=pgnselectc
. "$top_srcdir/tests/testlib.sh"
R="$F/select-rules.pgn"
L="$F/select-laws.pgn"

events() {
	sed -n 's/^\[Event "\(.*\)"\]\r*$/\1/p' | paste -sd'|' -
}
# on FILE WANT OPTION...: the events pgn-select selects from FILE
on() {
	file=$1
	want=$2
	shift 2
	got=$("$P" -q "$@" "$file" 2>"$T/on.err" | events)
	[ "$got" = "$want" ] || fail "$*: got '$got', want '$want'"
}
n() {
	"$P" -q -c "$@" "$R" 2>/dev/null
}

# --where: and, or, not of every pair against -t and -v
set -- 'WhiteElo>=2700' 'BlackElo<2800' 'Date>=1991' 'Round=11' \
    'White~Carlsen' 'ECO~^[BD]' 'Result=1-0' 'Opening!=x' 'Event>m'
total=$(n)
for a in "$@"; do
	na=$(n -t "$a")
	[ "$(n --where="$a")" = "$na" ] || fail "--where=$a"
	[ "$(n --where="not $a")" = "$(n -v -t "$a")" ] ||
	    fail "--where='not $a'"
	[ "$((na + $(n --where="not ($a)")))" -eq "$total" ] ||
	    fail "--where: $a and its complement"
	for b in "$@"; do
		both=$(n -t "$a" -t "$b")
		[ "$(n --where="$a and $b")" = "$both" ] ||
		    fail "--where='$a and $b'"
		[ "$(n --where="$a or $b")" = \
		    "$((na + $(n -t "$b") - both))" ] ||
		    fail "--where='$a or $b'"
		[ "$(n --where="not ($a or $b)")" = \
		    "$(n --where="not $a and not $b")" ] ||
		    fail "--where: De Morgan on $a, $b"
	done
done
on "$R" 'threefold|fivefold|Sicilian|illegal move|no final newline' \
    --where='(White ~ Carlsen or Black ~ Carlsen)'
on "$R" 'threefold|fivefold|illegal move|no final newline' \
    --where='(White ~ Carlsen or Black ~ Carlsen) and not Result = "1-0" or Event = "illegal move"'
for bad in '' 'White ~' '(White=x' 'White=x)' 'White=x and' 'White x' \
    'White=="x"' 'White="x'; do
	expect 2 "$P" --where="$bad" "$R"
	grep -q "^pgn-select: --where '.*': .* at column [0-9]" "$T/err" ||
	    fail "--where='$bad': $(cat "$T/err")"
done

# --winner, --loser: by the result
for p in Carlsen Nobody Kasparov .; do
	w=$(($(n --white="$p" --result=1-0) + $(n --black="$p" --result=0-1)))
	l=$(($(n --white="$p" --result=0-1) + $(n --black="$p" --result=1-0)))
	[ "$(n --winner="$p")" = "$w" ] || fail "--winner=$p: not $w"
	[ "$(n --loser="$p")" = "$l" ] || fail "--loser=$p: not $l"
	[ $(($(n --winner="$p") + $(n -v --winner="$p"))) -eq "$total" ] ||
	    fail "-v --winner=$p"
done

# --games: numbers of every game read, over all inputs; nothing past
# the last one is read
on "$R" 'stalemate|threefold|Sicilian' --games=2-3,14
on "$R" 'no final newline|checkmate' --games=17-18 "$R"
[ "$(n --games=5-)" = 13 ] && [ "$(n -v --games=5-)" = 4 ] ||
    fail "--games=5-: $(n --games=5-), -v $(n -v --games=5-)"
expect 0 "$P" -c --games=1-2 "$R" "$T/no-such.pgn"
[ "$(cat "$T/out")" = "$R:2" ] || fail "--games read a missing file"
# a game outside the list is not parsed: its illegal move is not told
expect 0 "$P" --games=1 --plies=0.. "$R"
[ -s "$T/err" ] && fail "--games=1: $(cat "$T/err")"
expect 0 "$P" --games=16,17 --plies=0.. "$R"
grep -q 'game 16: 2. Ke3: illegal move' "$T/err" ||
    fail "--games=16: no message"

# -m and --games open no further input: no error for a missing file,
# no wait on a FIFO
expect 0 "$P" -m 1 "$R" "$T/no-such.pgn"
[ -s "$T/err" ] && fail "-m 1 opened the next file: $(cat "$T/err")"
if mkfifo "$T/fifo" 2>/dev/null; then
	for o in "-m 1" "-m 0" "--games=1"; do
		timeout 20 "$P" $o "$R" "$T/fifo" >/dev/null 2>&1
		[ $? -eq 124 ] && fail "$o: blocked on a FIFO"
	done
	timeout 20 "$P" -m 0 "$T/fifo" >/dev/null 2>&1
	[ $? -eq 1 ] || fail "-m 0 blocked or selected"
fi

# --moves, --placement
on "$R" 'Sicilian' --moves='1. e4 c5 2. Nf3'
# (the game with an illegal move is rejected)
on "$R" 'Sicilian' --moves='e4' --moves='1.e4 c5'
on "$R" 'no final newline' --moves='1. d4 d5'
count_moves=$(n --moves='1. e4')
[ $((count_moves + $(n -v --moves='1. e4'))) -eq 16 ] ||
    fail "-v --moves"
on "$R" 'Sicilian' \
    --placement='????????/????????/????????/????????/???N????/????????/????????/????????'
on "$R" 'rook ending' --placement='????????/?????r??/8/8/8/8/?????R??/4K3'
for bad in 8/8/8 9/8/8/8/8/8/8/8 '8/8/8/8/8/8/8/8 w'; do
	expect 2 "$P" --placement="$bad" "$R"
	grep -q "^pgn-select: --placement '.*': invalid placement" "$T/err" ||
	    fail "--placement=$bad: $(cat "$T/err")"
done
# decided by its first move, the game with an illegal second move is
# not parsed, and so not reported
expect 0 "$P" --moves='1. d4' "$R"
[ -s "$T/err" ] && fail "--moves=d4: parsed: $(cat "$T/err")"
expect 0 "$P" --moves='1. e4 c5' "$R"
[ -s "$T/err" ] && fail "--moves='e4 c5': parsed: $(cat "$T/err")"
expect 0 "$P" --moves='1. e4 e5 2. Nf3' --moves='1. e4 c5' "$R"
grep -q 'game 16: 2. Ke3: illegal move' "$T/err" ||
    fail "--moves='1. e4 e5 2. Nf3': not parsed"
expect 2 "$P" --moves='1. e5' "$R"
grep -q "^pgn-select: --moves '1. e5': .*illegal" "$T/err" ||
    fail "--moves=e5: $(cat "$T/err")"

# --occurs, each kind, on the hand-made games
on "$L" 'fivefold, decisive|threefold, decisive|threefold passed' \
    --occurs=threefold
on "$L" 'fivefold, decisive' --occurs=fivefold
on "$L" 'fifty passed|seventyfive passed' --occurs=fifty
on "$L" 'seventyfive passed' --occurs=seventyfive
on "$L" 'underpromotion' --occurs=underpromotion
on "$L" 'mate, scored for the mated side|mate, scored as a draw|mate, right|mate, unknown|check' \
    --occurs=check
on "$L" 'underpromotion|seventyfive passed' \
    --occurs=underpromotion,seventyfive
on "$L" '' --occurs=check --occurs=underpromotion
on "$L" 'fivefold, decisive|threefold, decisive' --occurs=threefold \
    --occurs=threefold,check --ends=threefold
for k in threefold fivefold fifty seventyfive check underpromotion; do
	a=$("$P" -c --occurs=$k "$L")
	b=$("$P" -c -v --occurs=$k "$L")
	[ $((a + b)) -eq 22 ] || fail "-v --occurs=$k: $a + $b"
done

# --wrong-result, each case; pgn-regularize -v warns on the same games
# (and on a game the Laws ended whose result is *)
# ("lone king wins" has no Termination: a resignation, allowed)
W='mate, scored for the mated side|mate, scored as a draw|stalemate, decisive|dead, decisive|knight against queen, won by the knight|bishop against rook, won by the bishop|fivefold, decisive'
on "$L" "$W" --wrong-result
"$tooldir/pgn-regularize" -v "$L" 2>&1 >/dev/null |
    sed -n 's/.*game \([0-9]*\): the game .* but the result is \(.*\)/\1 \2/p' \
    >"$T/warned"
sel=$("$P" --wrong-result "$L" | grep -c '^\[Event ')
[ "$(grep -vc ' \*$' "$T/warned")" -eq "$sel" ] ||
    fail "pgn-regularize -v warns on $(grep -vc ' \*$' "$T/warned"), not $sel"
i=0
for e in $(sed -n 's/^\[Event "\(.*\)"\]$/\1/p' "$L" | tr ' ' '_'); do
	i=$((i + 1))
	case "|$W|" in
	*"|$(echo "$e" | tr '_' ' ')|"*)
		grep -q "^$i " "$T/warned" || fail "no warning for game $i" ;;
	*)
		grep "^$i " "$T/warned" | grep -vq ' \*$' &&
		    fail "warning for game $i" ;;
	esac
done

# --wrong-result and material (pgn-select(1)): a resignation loses in
# any position (FIDE 5.1.2), a lone king's opponent's too; a flag fall
# against a side that cannot mate draws (6.9); a dead position draws at
# once (5.2.2), whatever came after.  K+R against a lone king, and
# K+B against one (dead).
kr='k7/8/8/8/8/8/8/KR6 b - - 0 1'
kb='k7/8/8/8/8/8/8/KB6 b - - 0 1'
lw() {	# lw EVENT FEN RESULT TERMINATION
	printf '[Event "%s"]\n[Result "%s"]\n[SetUp "1"]\n[FEN "%s"]\n' "$1" "$3" "$2"
	[ -n "$4" ] && printf '[Termination "%s"]\n' "$4"
	printf '\n1... Ka7 %s\n\n' "$3"
}
{
	lw 'resigned against a lone king' "$kr" 0-1 'Black won by resignation'
	lw 'lone king, no termination' "$kr" 0-1 ''
	lw 'lone king wins on time' "$kr" 0-1 'Time forfeit'
	lw 'lone king wins on time, chess.com' "$kr" 0-1 'Hikaru won on time'
	lw 'rook wins on time' "$kr" 1-0 'time forfeit'
	lw 'drawn on time' "$kr" 1/2-1/2 'Game drawn by timeout vs insufficient material'
	lw 'dead, resigned' "$kb" 1-0 'White won by resignation'
	lw 'dead, drawn' "$kb" 1/2-1/2 ''
} >"$T/lone.pgn"
lone='lone king wins on time|lone king wins on time, chess.com|dead, resigned'
on "$T/lone.pgn" "$lone" --wrong-result
on "$T/lone.pgn" 'resigned against a lone king|lone king, no termination|rook wins on time|drawn on time|dead, drawn' -v --wrong-result
"$tooldir/pgn-regularize" -v "$T/lone.pgn" 2>&1 >/dev/null |
    sed -n 's/.*game \([0-9]*\): the game \(.*\) but the result is .*/\1 \2/p' >"$T/warned"
printf '%s\n' '3 ends on time with Black unable to checkmate' \
    '4 ends on time with Black unable to checkmate' '7 ends in a dead position' |
    cmp -s - "$T/warned" || fail "pgn-regularize -v on lone kings: $(cat "$T/warned")"

# one result in every tool: the one pgn2json writes selects the game
printf '%s\n' '[Event "a"]' '[Result "1/2"]' '' '1. e4' '' \
    '[Event "b"]' '[Result "1-0"]' '' '1. e4 0-1' '' '[Event "c"]' '' \
    '1. e4' '' '[Event "d"]' '[Result "0-1"]' '' '1. e4' '' \
    '[Event "e"]' '[Result "x"]' '' '1. e4 1/2' >"$T/results.pgn"
cat "$R" "$T/results.pgn" >"$T/all.pgn"
"$tooldir/pgn2json" "$T/all.pgn" 2>/dev/null | jq -r '.result' >"$T/json"
for r in 1-0 0-1 1/2-1/2 '*'; do
	a=$(grep -cxF -- "$r" "$T/json")
	b=$("$P" -q -c --result="$r" "$T/all.pgn" 2>/dev/null)
	c=$("$P" -q -c --plies=0.. --result="$r" "$T/all.pgn" 2>/dev/null)
	[ "$a" = "$c" ] || fail "--result=$r: $c, pgn2json $a"
	# the illegal game (1-0) is rejected when parsed
	[ "$r" = 1-0 ] && c=$((c + 1))
	[ "$b" = "$c" ] || fail "--result=$r: tags $b, parsed $c"
done

# integers of any length; blanks; operators that are errors
[ "$(n -t 'WhiteElo>99999999999999999998')" = 0 ] || fail "huge number"
[ "$(n -t 'WhiteElo<99999999999999999998')" = "$(n -t 'WhiteElo~^[0-9]+$')" ] ||
    fail "huge number <"
[ "$(n -t 'WhiteElo>= 2700 ')" = "$(n -t 'WhiteElo>=2700')" ] ||
    fail "trailing blank"
for bad in 'WhiteElo==2600' 'WhiteElo =>2600' 'Opening=~Sicilian'; do
	expect 2 "$P" -t "$bad" "$R"
	grep -q "^pgn-select: --tag '$bad': no operator" "$T/err" ||
	    fail "-t '$bad': $(cat "$T/err")"
done
# regerror's reason
expect 2 "$P" --player='a[' "$R"
grep -q "^pgn-select: --player 'a\[': invalid regular expression: ." \
    "$T/err" || fail "no reason: $(cat "$T/err")"

# warnings: a tag no game has, a quoted -t value
expect 1 "$P" -t 'WhiteELO>=2000' "$R"
grep -q "^pgn-select: warning: no game has a tag WhiteELO" "$T/err" ||
    fail "no warning for WhiteELO: $(cat "$T/err")"
expect 0 "$P" -c -t 'WhiteElo>=2000' --where='Round=1 or not BlackElo=1' "$R"
[ -s "$T/err" ] && fail "warning for tags that are there: $(cat "$T/err")"
expect 1 "$P" -c -t 'Opening ~ "Sicilian"' "$R"
grep -q "^pgn-select: warning: -t 'Opening ~ \"Sicilian\"': the quotes" \
    "$T/err" || fail "no warning for quotes: $(cat "$T/err")"

# Latin-1 names match as pgn2tsv shows them
printf '[Event "x"]\n[White "M\374ller, Hans"]\n[Black "B"]\n\n1. e4 *\n' \
    >"$T/latin1.pgn"
[ "$("$P" -c --white='Müller' "$T/latin1.pgn")" = 1 ] ||
    fail "Latin-1 name not matched"
[ "$("$P" -c --where='White = "Müller, Hans"' "$T/latin1.pgn")" = 1 ] ||
    fail "Latin-1 name not equal"
"$tooldir/pgn2tsv" "$T/latin1.pgn" 2>/dev/null | grep -q 'Müller' ||
    fail "pgn2tsv shows it otherwise"

# -s: no message about a game that does not read; still counted
expect 0 "$P" -s --stats --plies=0.. --rejects="$T/rej" "$R"
grep -q 'illegal move' "$T/err" && fail "-s: $(cat "$T/err")"
grep -q '17 games read, 16 written, 1 rejected' "$T/err" ||
    fail "-s: $(cat "$T/err")"
[ -s "$T/rej" ] || fail "-s: no rejects file"
# --material relations (,R>r: a count of White's against Black's, L
# the minor pieces) and @N (held for N plies: reached and unchanged N
# half-moves on)
cat >"$T/mat.pgn" <<'PGN'
[Event "krkr4"]
[SetUp "1"]
[FEN "r3k3/8/8/8/8/8/8/R3K3 w - - 0 1"]

1. Kd2 Kd7 2. Kd3 Kd6 *

[Event "later"]
[SetUp "1"]
[FEN "r3k3/7p/8/8/8/8/8/4K2R w - - 0 1"]

1. Rxh7 Kd8 2. Kd2 Kc8 *

[Event "minor"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/8/1N2KB2 w - - 0 1"]

1. Nc3 Kd7 *

[Event "exchange"]
[SetUp "1"]
[FEN "4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1"]

1. Rxd5 Ke7 2. Kd2 Ke6 *
PGN
M="$T/mat.pgn"
on "$M" 'krkr4|later' --material=KRkr
on "$M" 'krkr4|later' --material=KRkr@3
on "$M" 'krkr4' --material=KRkr@4
on "$M" '' --material=KRkr@5
on "$M" 'exchange' --material=KRk@3
on "$M" '' --material=KRk@4
on "$M" 'minor' --material=,L\>l
on "$M" 'minor' --material=,l\<L
on "$M" 'minor' --material=,N\>n,B\>b
on "$M" '' --material=,L\<l,L\>l
on "$M" 'krkr4|later|exchange' --material=,L=l
on "$M" 'exchange' --material=,L\<l
on "$M" '' --material=,L\<l@1
on "$M" 'krkr4|later|minor|exchange' --material=,P=p
on "$M" 'later' --material=,P\<p
on "$M" 'exchange' --material=,R\>r@4
on "$M" '' --material=,R\>r@5
on "$M" 'exchange' --material='KR*kr*,R>r'
on "$M" 'krkr4|later' --material='KR*kr*,R=r'
on "$M" 'krkr4|later|exchange' --material=',R=r@4' --material=',R>r@4'
for bad in ',X>x' ',R>R' ',r<r' ',R>b' ',R!r' 'KR,' 'KR@' 'KR@0' \
    'KR@2x' 'KR@-1' ',R>r,R>r,R>r,R>r,R>r,R>r,R>r,R>r,R>r'; do
	"$P" --material="$bad" "$M" >"$T/out" 2>"$T/err"
	[ $? -eq 2 ] || fail "--material='$bad': not an error"
	grep -q "^pgn-select: --material '$bad': invalid material" "$T/err" ||
	    fail "--material='$bad': $(cat "$T/err")"
done
exit $status
