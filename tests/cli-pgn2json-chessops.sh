#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-pgn2json-chessops.sh: pgn2json against an independent computation.
# For every game of the corpus files with clock and evaluation comments
# (online/*, the first 12 MB of the chess.com archive, CORPUS_MB=N for
# more; the quirks files with [%clk] or [%eval]), tests/json-check.mjs
# replays the game with chessops (npm), reads the comment commands with
# its own regular expressions, and compares the SAN and UCI moves, the
# final FEN, the clocks, elapsed times and evaluations with pgn2json's.
# chessops is installed once with npm into $top_builddir/tests/chessops
# (or taken from CHESSOPS_DIR, a directory with node_modules/chessops).
# Skipped (77) without the corpus, node, or chessops.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"
J="$tooldir/pgn2json"
C="${CORPUS:-}"
NAME=p2jx
. "$top_srcdir/tests/testlib.sh"
[ -d "$C/online" ] && [ -d "$C/quirks" ] ||
    skip "no corpus at ${C:-(unset)}"
. "$top_srcdir/tests/chessops-lib.sh"

# compare FILE: pgn2json of the file, then the independent check
compare() {
	"$J" -q "$1" >"$T/out.json" 2>"$T/err"
	if [ $? -gt 1 ]; then
		fail "$1: pgn2json: $(head -3 "$T/err")"
		return
	fi
	node "$top_srcdir/tests/json-check.mjs" "$D" "$1" "$T/out.json" ||
	    fail "$1: json-check.mjs failed"
}

for f in "$C"/online/*.pgn.xz; do
	b=$(basename "$f" .pgn.xz)
	corpus_head "${CORPUS_MB:-12}" "$f" >"$T/$b.pgn"
	compare "$T/$b.pgn"
	rm -f "$T/$b.pgn"
done
for f in $(grep -l -e '%clk' -e '%eval' -e '%emt' "$C"/quirks/*/*); do
	compare "$f"
done
finish
