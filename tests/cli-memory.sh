#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-memory.sh: the memory of the move tree.  One game of 2,000,000
# nested variations (18 MB: "1. e4 ( 1. d4 ( 1. d4 ..." then as many
# closing parentheses) must go through pgn-regularize within 20 times
# its size of address space (ulimit -v) beyond what the program needs
# for a one-move game, and come out in the canonical
# layout of export-format.md rule 11: 2,000,000 variations of 1. e4.
# A game whose variations nest for real (each after the second move of
# its parent) is held to 30 times its size.  Not under the sanitizers
# (they reserve far more address space than any limit).
set -u
NAME=memory
. "$top_srcdir/tests/testlib.sh"
P="$tooldir/pgn-regularize"

if grep -q '^SAN_CFLAGS = .*-fsanitize=' "$top_builddir/Makefile" \
    2>/dev/null; then
	skip "sanitizer build (ulimit -v does not apply)"
fi

# The address space the program needs whatever the game (code, the
# shared libraries it loads, tables, buffers): the least ulimit -v, in
# steps of 4 MB, under which it writes a one-move game.
printf '[Event "base"]\n\n1. e4 1-0\n' >"$T/base.pgn"
base=4096
while ! (ulimit -v "$base" && exec "$P" -q -j 1 "$T/base.pgn") \
    >/dev/null 2>&1; do
	base=$((base + 4096))
	[ "$base" -le 1048576 ] || fatal "no limit runs a one-move game"
done

# run NAME TIMES: pgn-regularize on $T/NAME.pgn under TIMES its size,
# beyond what it needs for any game
run() {
	size=$(wc -c <"$T/$1.pgn")
	limit=$((base + size * $2 / 1024))
	(ulimit -v "$limit" && exec timeout 60 "$P" -q -j 1 "$T/$1.pgn") \
	    >"$T/$1.out" 2>"$T/$1.err"
	rc=$?
	[ "$rc" -eq 0 ] || { fail "$1: exit $rc within $((limit / 1024)) MB" \
	    "($2 times $size bytes)"; head -c 300 "$T/$1.err" >&2; }
}

n=2000000
{
	printf '[Event "deep"]\n\n1. e4 '
	yes '( 1. d4' | head -n $n | tr '\n' ' '
	yes ')' | head -n $n | tr -d '\n'
	printf ' 1-0\n'
} >"$T/nested.pgn"
run nested 20
[ "$(tr '\n' ' ' <"$T/nested.out" | grep -o '( 1\. d4 )' | wc -l)" \
    -eq "$n" ] ||
    fail "nested: not $n variations of 1. e4"

# nesting that stays nesting: each variation opens after the second
# move of its parent (knights to and fro, four levels a round): two
# moves and a packed position a level, for 12 bytes of input: 30 times
n=100000
{
	printf '[Event "deeper"]\n\n1. Nf3 Nf6 '
	yes '( Nf6 Ng1 ( Ng1 Ng8 ( Ng8 Nf3 ( Nf3 Nf6 ' | head -n $n | tr -d '\n'
	yes ') ) ) )' | head -n $n | tr -d '\n'
	printf ' 1-0\n'
} >"$T/deeper.pgn"
run deeper 30
[ "$(tr '\n' ' ' <"$T/deeper.out" | grep -o '( [0-9]*\.* *Ng1 Ng8' | wc -l)" \
    -eq "$n" ] || fail "deeper: not $n variations"
finish
