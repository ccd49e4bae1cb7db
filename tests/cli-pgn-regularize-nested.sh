#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-pgn-regularize-nested.sh: --nested-comments, braces nested in a
# comment read as part of it (pgn-extract --nestedcomments): comments
# nested one and more levels deep, in variations, over lines (the
# positions of later messages), holding a termination marker, after
# the marker, and unbalanced (read as without the option); the inner
# braces written as parentheses; without the option the same input
# read as before (the standard's first `}` ends a comment); the other
# tools that read PGN take the option too (pgn-select, pgn2json,
# pgn-split, pgn-dedup, pgn-sort).
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"
P="$tooldir/pgn-regularize"
NAME=pgnnest
. "$top_srcdir/tests/testlib.sh"

# movetext FILE: the movetext lines of an output, joined
movetext() {
	grep -v '^\[' "$1" | tr '\n' ' ' | sed 's/  */ /g; s/^ //; s/ $//'
}

printf '[Event "a"]\n[Result "1-0"]\n\n1. e4 { a { b } c } e5 { x {y {z}} w } 2. Nf3 (2. Nc3 {v { w } } Nc6) Nc6 {p} {q {r} s {t}} 1-0\n' \
    >"$T/a.pgn"
expect 0 "$P" --nested-comments "$T/a.pgn"
got=$(movetext "$T/out")
want='1. e4 { a ( b ) c } 1... e5 { x (y (z)) w } 2. Nf3 ( 2. Nc3 { v ( w ) } 2... Nc6 ) 2... Nc6 { p } { q (r) s (t) } 1-0'
[ "$got" = "$want" ] || fail "nested: '$got'"
[ -s "$T/err" ] && fail "nested: messages $(cat "$T/err")"
# the output reads the same again, without the option too
cp "$T/out" "$T/a.out"
expect 0 "$P" "$T/a.out"
cmp -s "$T/out" "$T/a.out" || fail "nested: the output is no fixed point"
# without the option: the first `}` ends the comment, `c` is no move
expect 1 "$P" "$T/a.pgn"
grep -q "^pgn-regularize: .*a.pgn:4:17: game 1: 1\.\.\. c: " "$T/err" ||
    fail "without the option: $(cat "$T/err")"

# over lines: the place of a later error counts the comment's lines
printf '[Event "b"]\n\n1. e4 { a {\nb } c\n} e5 2. Zz4 *\n' >"$T/b.pgn"
expect 1 "$P" --nested-comments "$T/b.pgn"
grep -q "b.pgn:5:9: game 1: 2\. Zz4: " "$T/err" ||
    fail "over lines: $(cat "$T/err")"

# a marker inside a nested comment does not end the game; after the
# marker, a nested comment stays with the game
printf '[Event "c"]\n\n1. e4 { a { b } 1-0 } e5 1-0 { x { y } z }\n\n[Event "d"]\n\n1. d4 *\n' \
    >"$T/c.pgn"
expect 0 "$P" --nested-comments "$T/c.pgn"
[ "$(grep -c '^\[Event ' "$T/out")" = 2 ] || fail "marker: games $(cat "$T/out")"
grep -qx '1\. e4 { a ( b ) 1-0 } 1\.\.\. e5 { x ( y ) z } 1-0' "$T/out" ||
    fail "marker: $(cat "$T/out")"
[ -s "$T/err" ] && fail "marker: messages $(cat "$T/err")"
# (without the option the game ends at the 1-0 in the comment)
expect 0 "$P" "$T/c.pgn"
grep -q 'not PGN' "$T/err" || fail "marker without the option: $(cat "$T/err")"

# braces that do not balance: read as without the option
printf '[Event "e"]\n\n1. e4 { a { b } e5 *\n' >"$T/e.pgn"
expect 0 "$P" "$T/e.pgn"
cp "$T/out" "$T/e.std"
expect 0 "$P" --nested-comments "$T/e.pgn"
cmp -s "$T/out" "$T/e.std" || fail "unbalanced: $(cat "$T/out")"

# the other tools
expect 0 "$tooldir/pgn-select" -c --nested-comments --moves='1. e4 e5 2. Nf3' \
    "$T/a.pgn"
[ "$(cat "$T/out")" = 1 ] || fail "pgn-select --moves: $(cat "$T/out")"
expect 0 "$tooldir/pgn-select" -c --nested-comments "$T/c.pgn"
[ "$(cat "$T/out")" = 2 ] || fail "pgn-select: $(cat "$T/out")"
expect 0 "$tooldir/pgn2json" -c --nested-comments "$T/a.pgn"
grep -q '"a ( b ) c"' "$T/out" || fail "pgn2json: $(cat "$T/out")"
expect 0 "$tooldir/pgn-dedup" --nested-comments "$T/c.pgn"
[ "$(grep -c '^\[Event ' "$T/out")" = 2 ] || fail "pgn-dedup: $(cat "$T/out")"
mkdir "$T/split"
expect 0 "$tooldir/pgn-split" --nested-comments -n 2 -d "$T/split" "$T/c.pgn"
cat "$T/split/"part* | cmp -s - "$T/c.pgn" || fail "pgn-split: parts differ"
grep -q 'Event "d"' "$T/split/part002.pgn" 2>/dev/null ||
    fail "pgn-split: $(ls "$T/split")"
# pgn-sort keeps a game whole, its inner braces as read
expect 0 "$tooldir/pgn-sort" --nested-comments -r "$T/c.pgn"
[ "$(grep -c '^\[Event ' "$T/out")" = 2 ] || fail "pgn-sort: $(cat "$T/out")"
grep -q '^1\. e4 { a { b } 1-0 } e5 1-0 { x { y } z }$' "$T/out" ||
    fail "pgn-sort: $(cat "$T/out")"
[ "$(head -n 1 "$T/out")" = '[Event "d"]' ] || fail "pgn-sort -r: $(cat "$T/out")"

exit $status
