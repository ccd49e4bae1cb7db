#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-pgn-regularize-rules.sh: pgn-regularize -v and the FIDE endings
# (chessdata/rules.h): a game that goes on after a fivefold repetition
# or 75 moves is told once, at the move that drew; a fivefold or a
# 75-move position scored as a win is told; a mate on the 150th
# half-move, fifty moves and a threefold (claims only) are not.  The
# same with two threads; nothing without -v.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"
P="$tooldir/pgn-regularize"
NAME=regrules
. "$top_srcdir/tests/testlib.sh"

(cd "$F" && "$P" -v -j 1 regularize-rules.pgn) >"$T/out" 2>"$T/err" ||
    fail "exit status $?"
cmp -s "$T/err" "$E/regularize-rules.err" ||
    { fail "warnings differ"; diff "$E/regularize-rules.err" "$T/err" >&2; }
(cd "$F" && "$P" -v -j 2 regularize-rules.pgn) >"$T/out2" 2>"$T/err2" ||
    fail "-j 2: exit status $?"
cmp -s "$T/err2" "$E/regularize-rules.err" || fail "-j 2: warnings differ"
cmp -s "$T/out" "$T/out2" || fail "-j 2: output differs"
[ "$(grep -c '^\[Event ' "$T/out")" -eq 7 ] || fail "games lost"
"$P" "$F/regularize-rules.pgn" 2>"$T/err3" | cmp -s - "$T/out" ||
    fail "without -v: output differs"
[ -s "$T/err3" ] && fail "without -v: warnings: $(cat "$T/err3")"
exit $status
