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

exit $status
