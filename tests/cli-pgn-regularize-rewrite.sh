#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-pgn-regularize-rewrite.sh: the rewrites of pgn-regularize (what
# pgn-extract users change in their games), each on a small game with
# every kind of annotation: the movetext written, the tags kept, the
# rest of the export format unchanged.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"
P="$tooldir/pgn-regularize"
NAME=pgnrew
. "$top_srcdir/tests/testlib.sh"

cat >"$T/in.pgn" <<'PGN'
[Event "Rewrites"]
[White "A"]
[Black "B"]
[Result "1-0"]
[Annotator "X"]

{Before.} 1. e4 $1 {Best by test.} e5 (1... c5 $2 {Sicilian} 2. Nf3) 2. Nf3
Nc6 {Knight.} 3. Bb5 a6 (3... Nf6 4. O-O (4. d3)) 4. Ba4 1-0

[Event "Empty"]
[Result "*"]

*
PGN

expect 0 "$P" "$T/in.pgn"
grep '^\[' "$T/out" >"$T/tags"
[ "$(wc -l <"$T/tags")" -eq 15 ] || fail "plain run: tags"

# rewrite NAME OPTION...: run, the tags must be those of the plain run,
# the movetext goes to $T/NAME
rewrite() {
	n=$1
	shift
	expect 0 "$P" "$@" "$T/in.pgn"
	grep '^\[' "$T/out" | cmp -s - "$T/tags" || fail "$*: tags changed"
	grep -v '^\[' "$T/out" >"$T/$n"
}

# check NAME: $T/NAME against standard input
check() {
	cmp -s - "$T/$1" || { fail "$1: movetext differs"; cat "$T/$1" >&2; }
}

rewrite nc --no-comments
check nc <<'OUT'

1. e4 $1 1... e5 ( 1... c5 $2 2. Nf3 ) 2. Nf3 Nc6 3. Bb5 a6 ( 3... Nf6 4. O-O (
4. d3 ) ) 4. Ba4 1-0


*

OUT
rewrite nn --no-nags
check nn <<'OUT'

{ Before. } 1. e4 { Best by test. } 1... e5 ( 1... c5 { Sicilian } 2. Nf3 ) 2.
Nf3 Nc6 { Knight. } 3. Bb5 a6 ( 3... Nf6 4. O-O ( 4. d3 ) ) 4. Ba4 1-0


*

OUT
rewrite nv --no-variations
check nv <<'OUT'

{ Before. } 1. e4 $1 { Best by test. } 1... e5 2. Nf3 Nc6 { Knight. } 3. Bb5 a6
4. Ba4 1-0


*

OUT
# no marker after the last move; a game without moves keeps its own
rewrite nr --no-results
check nr <<'OUT'

{ Before. } 1. e4 $1 { Best by test. } 1... e5 ( 1... c5 $2 { Sicilian } 2. Nf3
) 2. Nf3 Nc6 { Knight. } 3. Bb5 a6 ( 3... Nf6 4. O-O ( 4. d3 ) ) 4. Ba4


*

OUT
rewrite nm --no-move-numbers
check nm <<'OUT'

{ Before. } e4 $1 { Best by test. } e5 ( c5 $2 { Sicilian } Nf3 ) Nf3 Nc6
{ Knight. } Bb5 a6 ( Nf6 O-O ( d3 ) ) Ba4 1-0


*

OUT
# all five: a move list
rewrite all --no-comments --no-nags --no-variations --no-results \
    --no-move-numbers
check all <<'OUT'

e4 e5 Nf3 Nc6 Bb5 a6 Ba4


*

OUT
# the reduced form already leaves annotations out: the same with them
expect 0 "$P" -r "$T/in.pgn"
cp "$T/out" "$T/r1"
expect 0 "$P" -r --no-comments --no-nags --no-variations "$T/in.pgn"
cmp -s "$T/out" "$T/r1" || fail "-r with the --no options differs"

# Tags.  A game with a FEN, tags beyond the roster, and one without
cat >"$T/tags.pgn" <<'PGN'
[Event "E"]
[Round "1"]
[White "W"]
[Black "B"]
[Result "*"]
[Zeta "z"]
[ECO "C20"]
[Annotator "a"]
[PlyCount "9"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]

1. Rh8+ Kd7 (1... Ke7 2. Rh7+) 2. Rh7+ *

[Event "M"]
[Result "1-0"]

1. f3 e5 2. g4 Qh4# 1-0

[Event "S"]
[Result "1-0"]
[SetUp "1"]
[FEN "7k/5Q2/8/8/8/8/8/K7 w - - 0 1"]

1. Qg6 1-0
PGN
# tagsof OPTION...: the tag lines of the first game, joined by spaces
tagsof() {
	expect 0 "$P" "$@" "$T/tags.pgn"
	sed -n '/^$/q;s/^\[\([^ ]*\) .*/\1/p' "$T/out" | tr '\n' ' '
}
R7="Event Site Date Round White Black Result"
[ "$(tagsof)" = "$R7 Annotator ECO FEN PlyCount SetUp Zeta " ] ||
    fail "tags: plain: $(tagsof)"
# the roster; SetUp and FEN whatever the lists say
[ "$(tagsof --seven-tags)" = "$R7 FEN SetUp " ] ||
    fail "--seven-tags: $(tagsof --seven-tags)"
[ "$(tagsof --keep-tags=Zeta,ECO)" = "$R7 ECO FEN SetUp Zeta " ] ||
    fail "--keep-tags: $(tagsof --keep-tags=Zeta,ECO)"
[ "$(tagsof --keep-tags=Zeta --keep-tags=ECO)" = "$R7 ECO FEN SetUp Zeta " ] ||
    fail "--keep-tags twice"
[ "$(tagsof --drop-tags=ECO,Zeta,FEN)" = "$R7 Annotator FEN PlyCount SetUp " ] ||
    fail "--drop-tags: $(tagsof --drop-tags=ECO,Zeta,FEN)"
# a roster tag dropped is written with its default
"$P" --drop-tags=Round,White "$T/tags.pgn" | grep -q '^\[White "?"\]$' ||
    fail "--drop-tags=White: no default"
[ "$(tagsof --tag-order=Zeta,PlyCount,Nope)" = "$R7 Zeta PlyCount Annotator ECO FEN SetUp " ] ||
    fail "--tag-order: $(tagsof --tag-order=Zeta,PlyCount,Nope)"
expect 2 "$P" --keep-tags='Bad Name' "$T/tags.pgn"
grep -q "^pgn-regularize: --keep-tags: 'Bad Name' is not a tag name" \
    "$T/err" || fail "--keep-tags: bad name message: $(cat "$T/err")"
# no tags: the movetext alone
expect 0 "$P" --no-tags "$T/tags.pgn"
cat >"$T/want" <<'OUT'
1. Rh8+ Kd7 ( 1... Ke7 2. Rh7+ ) 2. Rh7+ *

1. f3 e5 2. g4 Qh4# 1-0

1. Qg6 1-0

OUT
cmp -s "$T/out" "$T/want" || fail "--no-tags"
# ply counts: the main line, the tree; with -v the value replaced
expect 0 "$P" -v --plycount --total-plycount "$T/tags.pgn"
[ "$(grep -c '^\[PlyCount "3"\]$' "$T/out")" -eq 1 ] &&
    [ "$(grep -c '^\[PlyCount "4"\]$' "$T/out")" -eq 1 ] &&
    [ "$(grep -c '^\[TotalPlyCount "5"\]$' "$T/out")" -eq 1 ] &&
    [ "$(grep -c '^\[TotalPlyCount "4"\]$' "$T/out")" -eq 1 ] &&
    [ "$(grep -c '^\[PlyCount "1"\]$' "$T/out")" -eq 1 ] ||
    fail "--plycount, --total-plycount"
grep -q ':1:1: warning: game 1: PlyCount "9" replaced by "3"$' "$T/err" ||
    fail "--plycount -v: $(cat "$T/err")"
# the result from a checkmate (0-1 for 1-0) and a stalemate
expect 0 "$P" -v --fix-result "$T/tags.pgn"
grep -E '^\[Result|(1-0|0-1|1\/2-1\/2|\*)$' "$T/out" | tr '\n' ' ' >"$T/res"
[ "$(cat "$T/res")" = '[Result "*"] 1. Rh8+ Kd7 ( 1... Ke7 2. Rh7+ ) 2. Rh7+ * [Result "0-1"] 1. f3 e5 2. g4 Qh4# 0-1 [Result "1/2-1/2"] 1. Qg6 1/2-1/2 ' ] ||
    fail "--fix-result: $(cat "$T/res")"
grep -q ':15:1: warning: game 2: result 1-0 made 0-1: the game ends in checkmate$' \
    "$T/err" && grep -q 'warning: game 3: result 1-0 made 1/2-1/2: the game ends in stalemate$' \
    "$T/err" || fail "--fix-result -v: $(cat "$T/err")"
[ "$(wc -l <"$T/err")" -eq 2 ] || fail "--fix-result -v: $(cat "$T/err")"
expect 0 "$P" "$T/tags.pgn"
grep -q 'Qh4# 1-0$' "$T/out" || fail "without --fix-result the result changed"

# Truncating: the first plies (variations of the kept moves kept, `*`
# when moves were cut, PlyCount what is left), or the game from the
# position after them
expect 0 "$P" --max-plies=3 "$T/in.pgn"
grep -v '^\[' "$T/out" >"$T/mp"
check mp <<'OUT'

{ Before. } 1. e4 $1 { Best by test. } 1... e5 ( 1... c5 $2 { Sicilian } 2. Nf3
) 2. Nf3 *


*

OUT
expect 0 "$P" --max-plies=3 "$T/in.pgn"
[ "$(grep -c '^\[Result "\*"\]$' "$T/out")" -eq 2 ] ||
    fail "--max-plies: Result tag not *"
expect 0 "$P" --max-plies=7 "$T/in.pgn"
grep -q 'Ba4 1-0$' "$T/out" || fail "--max-plies=7: the whole game is cut"
expect 0 "$P" --drop-plies=3 "$T/in.pgn"
cat >"$T/want" <<'OUT'
[Event "Rewrites"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "A"]
[Black "B"]
[Result "1-0"]
[Annotator "X"]
[FEN "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"]
[SetUp "1"]

2... Nc6 { Knight. } 3. Bb5 a6 ( 3... Nf6 4. O-O ( 4. d3 ) ) 4. Ba4 1-0

OUT
"$P" --drop-plies=3 "$T/in.pgn" | sed -n 1,13p | cmp -s - "$T/want" ||
    fail "--drop-plies=3: $(cat "$T/out")"
# beyond the end: the final position, no move; from a FEN, counted
# from it; PlyCount made what is left
expect 0 "$P" --drop-plies=30 "$T/in.pgn"
grep -q '^\[FEN "r1bqkbnr/1ppp1ppp/p1n5/4p3/B3P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 1 4"\]$' \
    "$T/out" || fail "--drop-plies=30: not the final position"
expect 0 "$P" --drop-plies=1 --max-plies=1 "$T/tags.pgn"
grep -q '^1\.\.\. Kd7 ( 1\.\.\. Ke7 2\. Rh7+ ) \*$' "$T/out" &&
    grep -q '^\[FEN "4k2R/8/8/8/8/8/8/4K3 b - - 1 1"\]$' "$T/out" &&
    grep -q '^\[PlyCount "1"\]$' "$T/out" ||
    fail "--drop-plies=1 --max-plies=1 from a FEN: $(cat "$T/out")"
expect 2 "$P" --max-plies=0 "$T/in.pgn"
grep -q "^pgn-regularize: --max-plies: '0' is not a number of plies above 0" \
    "$T/err" || fail "--max-plies=0 message: $(cat "$T/err")"
expect 2 "$P" --drop-plies=-1 "$T/in.pgn"

# Positions as comments: the FEN or the Polyglot key (the published
# keys of the start, of 1. e4, 1... e5 and 1... d5) after every move, variations
# too, after the game's own comments; the final FEN, quoted; the key of
# the final position as a tag
printf '[Event "x"]\n\n1. e4 {c} e5 (1... d5) *\n\n[Event "y"]\n\n*\n' \
    >"$T/pos.pgn"
expect 0 "$P" --hash-comments --fen-comments --final-fen "$T/pos.pgn"
grep -v '^\[' "$T/out" >"$T/pos"
check pos <<'OUT'

1. e4 { c } { rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 }
{ 823c9b50fd114196 } 1... e5 { rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR
w KQkq e6 0 2 } { 844931a6ef4b9a0 }
{ "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2" } ( 1... d5
{ rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2 }
{ 756b94461c50fb0 } ) *


*

OUT
# with --no-comments the game's comments go, those added stay
expect 0 "$P" --no-comments --fen-comments "$T/pos.pgn"
grep -q '{ c }' "$T/out" && fail "--no-comments --fen-comments: { c } kept"
[ "$(grep -o '{ [^}]* }' "$T/out" | wc -l)" -eq 3 ] ||
    fail "--no-comments --fen-comments: $(cat "$T/out")"
expect 0 "$P" --hash-tag "$T/pos.pgn"
grep -q '^\[PolyglotKey "0844931a6ef4b9a0"\]$' "$T/out" &&
    grep -q '^\[PolyglotKey "463b96181691fc9c"\]$' "$T/out" ||
    fail "--hash-tag: $(cat "$T/out")"

# Each line a game: the main line, then each variation in the order
# written (a variation's own after it), from its position or from the
# start; `*` for a variation
expect 0 "$P" --split-variations "$T/in.pgn"
[ "$(grep -c '^\[Event ' "$T/out")" -eq 5 ] || fail "--split-variations: games"
grep -v '^\[[SDRWB]' "$T/out" >"$T/split"
check split <<'OUT'
[Event "Rewrites"]
[Annotator "X"]

{ Before. } 1. e4 $1 { Best by test. } 1... e5 2. Nf3 Nc6 { Knight. } 3. Bb5 a6
4. Ba4 1-0

[Event "Rewrites"]
[Annotator "X"]
[FEN "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"]

1... c5 $2 { Sicilian } 2. Nf3 *

[Event "Rewrites"]
[Annotator "X"]
[FEN "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"]

3... Nf6 4. O-O *

[Event "Rewrites"]
[Annotator "X"]
[FEN "r1bqkb1r/pppp1ppp/2n2n2/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"]

4. d3 *

[Event "Empty"]

*

OUT
expect 0 "$P" --split-variations=start "$T/in.pgn"
grep -q '^{ Before\. } 1\. e4 \$1 { Best by test\. } 1\.\.\. e5 2\. Nf3 Nc6 { Knight\. } 3\. Bb5$' \
    "$T/out" && grep -q '^Nf6 4\. d3 \*$' "$T/out" ||
    fail "--split-variations=start: $(cat "$T/out")"
expect 2 "$P" --split-variations=middle "$T/in.pgn"

# Notations: long algebraic, hyphenated, with the piece (en passant
# "ep", as pgn-extract -Welalg), UCI (no check marks, promotion in lower
# case); castling the king's move
printf '[Event "n"]\n[SetUp "1"]\n[FEN "r3k3/6P1/8/8/8/8/8/4K2R w Kq - 0 1"]\n\n1. O-O O-O-O 2. g8=Q Rxg8+ 3. Kh2 *\n' \
    >"$T/not.pgn"
for n in san:'O-O O-O-O 2. g8=Q Rxg8+ 3. Kh2' \
    lan:'e1g1 e8c8 2. g7g8Q d8g8+ 3. g1h2' \
    hlan:'e1-g1 e8-c8 2. g7-g8Q d8-g8+ 3. g1-h2' \
    elan:'e1g1 e8c8 2. g7g8Q Rd8g8+ 3. Kg1h2' \
    uci:'e1g1 e8c8 2. g7g8q d8g8 3. g1h2'; do
	expect 0 "$P" --notation="${n%%:*}" "$T/not.pgn"
	grep -q "^1\. ${n#*:} \*\$" "$T/out" ||
	    fail "--notation=${n%%:*}: $(tail -2 "$T/out")"
done
printf '[Event "ep"]\n\n1. e4 a6 2. e5 f5 3. exf6 *\n' >"$T/ep.pgn"
expect 0 "$P" --notation=elan "$T/ep.pgn"
grep -q '^1\. e2e4 a7a6 2\. e4e5 f7f5 3\. e5f6ep \*$' "$T/out" ||
    fail "--notation=elan: en passant: $(tail -2 "$T/out")"
expect 2 "$P" --notation=klingon "$T/not.pgn"
grep -q "^pgn-regularize: --notation: 'klingon' is none of san, san:LANG, lan, hlan, elan, uci, figurine" \
    "$T/err" || fail "--notation=klingon: $(cat "$T/err")"

# --width / -w: lines of at most N columns, filled greedily (each line
# full: its next token would not have fitted), words and moves the same
# as at 79; comments cut between words; a word wider than the line alone
printf '[Event "w"]\n\n1. e4 {a bb ccc dddd eeeee ffffff} e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 {abcdefghijklmnopqrstuvwxyz} 6. Re1 b5 *\n' >"$T/w.pgn"
expect 0 "$P" "$T/w.pgn"
sed '1,/^$/d' "$T/out" | tr -s ' \n' '  ' >"$T/w79"
for w in 8 12 16 17 20 33 60; do
	expect 0 "$P" -w "$w" "$T/w.pgn"
	sed '1,/^$/d' "$T/out" | sed '$d' >"$T/wm"
	awk -v w="$w" '
	    # the first token of a line (a comment`s braces joined to it)
	    function first(  t, i) {
		t = $1; i = 1
		if ($1 == "{") { t = t " " $2; i = 2 }
		if ($(i + 1) == "}") t = t " }"
		return t
	    }
	    {
		one = NF == 1 || (NF == 2 && ($1 == "{" || $2 == "}")) ||
		    (NF == 3 && $1 == "{" && $3 == "}")
		if (length($0) > w && !one) { print "line " NR " too long: " $0; bad = 1 }
		if (NR > 1 && length(prev) + 1 + length(first()) <= w) {
			print "line " NR - 1 " not full: " prev; bad = 1
		}
		prev = $0
	    }
	    END { exit bad }' "$T/wm" >"$T/wbad" ||
	    fail "-w $w: $(cat "$T/wbad")"
	tr -s ' \n' '  ' <"$T/wm" | cmp -s - "$T/w79" ||
	    fail "-w $w: other tokens than at 79"
	expect 0 "$P" --width="$w" "$T/w.pgn"
	sed '1,/^$/d' "$T/out" | sed '$d' | cmp -s - "$T/wm" ||
	    fail "--width=$w differs from -w $w"
done
expect 0 "$P" -w 20 "$T/w.pgn"
grep -qx '{ abcdefghijklmnopqrstuvwxyz }' "$T/out" ||
    fail "-w 20: a long comment word: $(cat "$T/out")"
# the default is 79 exactly: -w 79 is the same output
expect 0 "$P" "$T/in.pgn"
cp "$T/out" "$T/in79"
expect 0 "$P" -w 79 "$T/in.pgn"
cmp -s "$T/out" "$T/in79" || fail "-w 79 is not the default"
for bad in 0 -3 x 65536; do
	expect 2 "$P" --width="$bad" "$T/w.pgn"
	grep -q "^pgn-regularize: --width: '$bad' is not a line length of 1 to 65535" \
	    "$T/err" || fail "--width=$bad: $(cat "$T/err")"
done

# --notation=san:LANG and figurine: SAN with other piece names, the
# lines cut where the English ones are (a figurine is one column); read
# back (--lang, figurines) they are the game again
printf '[Event "p"]\n[SetUp "1"]\n[FEN "8/4P3/8/8/8/8/k7/2K1R3 w - - 0 1"]\n\n1. e8=Q Kb3 2. Qb5+ Kc3 3. Re3+ Kd4 *\n' >"$T/p.pgn"
for n in 'san:de:1. e8=D Kb3 2. Db5+ Kc3 3. Te3+ Kd4 \*' \
    'san:German:1. e8=D Kb3 2. Db5+ Kc3 3. Te3+ Kd4 \*' \
    'san:BSLTDK:1. e8=D Kb3 2. Db5+ Kc3 3. Te3+ Kd4 \*' \
    'san:fr:1. e8=D Rb3 2. Db5+ Rc3 3. Te3+ Rd4 \*' \
    'figurine:1. e8=♕ ♔b3 2. ♕b5+ ♔c3 3. ♖e3+ ♔d4 \*'; do
	a=${n%%:[1-9]*}
	expect 0 "$P" --notation="$a" "$T/p.pgn"
	grep -qx "${n#"$a":}" "$T/out" ||
	    fail "--notation=$a: $(tail -2 "$T/out")"
done
cat "$T/in.pgn" "$T/w.pgn" >"$T/l.pgn"
printf '[Event "long"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nc3 Nc6 6. Nb1 Nb8 7. Nc3 Nc6 8. Nb1 Nb8 9. Nf3 Nf6 10. Ng1 Ng8 11. Nc3 Nc6 12. Nb1 Nb8 13. Nf3 Nf6 14. Ng1 Ng8 15. Nc3 Nc6 16. Nb1 Nb8 17. Nf3 Nf6 18. Ng1 Ng8 19. Nc3 Nc6 20. Nb1 Nb8 *\n' >>"$T/l.pgn"
expect 0 "$P" "$T/l.pgn"
cp "$T/out" "$T/l.en"
expect 0 "$P" --notation=figurine "$T/l.pgn"
cp "$T/out" "$T/l.fig"
sed 's/♘/N/g; s/♗/B/g; s/♖/R/g; s/♕/Q/g; s/♔/K/g' "$T/l.fig" |
    cmp -s - "$T/l.en" || fail "--notation=figurine: other lines than SAN"
grep -q '♘' "$T/l.fig" || fail "--notation=figurine: no figurine"
expect 0 "$P" "$T/l.fig"
cmp -s "$T/out" "$T/l.en" || fail "--notation=figurine: not read back"
expect 0 "$P" --notation=san:de "$T/l.pgn"
cp "$T/out" "$T/l.de"
grep -q ' Sf3 ' "$T/l.de" || fail "--notation=san:de: no German letters"
expect 0 "$P" --lang=de "$T/l.de"
cmp -s "$T/out" "$T/l.en" || fail "--notation=san:de: not read back"
expect 0 "$P" --notation=san:de --notation=san "$T/l.pgn"
cmp -s "$T/out" "$T/l.en" || fail "--notation=san after san:de"
expect 0 "$P" --notation=san:de --notation=lan "$T/p.pgn"
grep -qx '1\. e7e8Q a2b3 2\. e8b5+ b3c3 3\. e1e3+ c3d4 \*' "$T/out" ||
    fail "--notation=lan after san:de: $(tail -2 "$T/out")"
for bad in san:xx san:BSLTD san:BSLTDKK san:bsltdk; do
	expect 2 "$P" --notation="$bad" "$T/p.pgn"
	grep -q "^pgn-regularize: --notation: '${bad#san:}' is neither a language nor six upper-case letters for P N B R Q K" \
	    "$T/err" || fail "--notation=$bad: $(cat "$T/err")"
done

exit $status
