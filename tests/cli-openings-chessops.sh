#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-openings-chessops.sh: opening classification against an
# independent computation, game by game.  For the OTB archive and the
# online exports (the first 4 MB of each; CORPUS_MB=N for N MB,
# CORPUS_MB=0 for the whole files),
# made export format by pgn-regularize (so that both readers
# frame the same games), pgn2tsv -f @game,@eco,@opening,@opening_ply
# with the five lichess tables, and with pgn-extract's eco.pgn, must
# equal tests/opening-check.mjs, which classifies with chessops (npm):
# the EPD of every main-line position looked up in the same tables.
# chessops is installed once with npm into $top_builddir/tests/chessops
# (or taken from CHESSOPS_DIR).  Skipped (77) without the corpus, the
# tables, node or chessops; eco.pgn is skipped when absent.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"
C="${CORPUS:-}"
O="$C/../data/openings"
NAME=opnx
. "$top_srcdir/tests/testlib.sh"
[ -d "$C/online" ] && [ -f "$C/pgn/otb-14539.pgn.xz" ] ||
    skip "no corpus at ${C:-(unset)}"
[ -f "$O/a.tsv" ] || skip "no opening tables at $O"
. "$top_srcdir/tests/chessops-lib.sh"
LICHESS="$O/a.tsv $O/b.tsv $O/c.tsv $O/d.tsv $O/e.tsv"
ECO=/usr/share/pgn-extract/eco.pgn

# compare FILE NAME TABLE...: both classifications of FILE
compare() {
	f=$1 name=$2
	shift 2
	opts=
	for t in "$@"; do opts="$opts --openings=$t"; done
	# shellcheck disable=SC2086
	"$tooldir/pgn2tsv" -q -H $opts -f @game,@eco,@opening,@opening_ply \
	    "$f" >"$T/ours" 2>"$T/err"
	if [ $? -ne 0 ]; then
		fail "$name: pgn2tsv: $(head -3 "$T/err")"
		return
	fi
	if ! node "$top_srcdir/tests/opening-check.mjs" "$D" "$f" "$@" \
	    >"$T/theirs"; then
		fail "$name: opening-check.mjs failed"
		return
	fi
	n=$(wc -l <"$T/ours")
	if cmp -s "$T/ours" "$T/theirs"; then
		echo "$name: $n games, $(cut -f2 "$T/ours" | grep -c .) classified, the same"
	else
		fail "$name: the classifications differ"
		diff "$T/theirs" "$T/ours" | head -10 >&2
	fi
}

for f in "$C/pgn/otb-14539.pgn.xz" "$C"/online/*.pgn.xz; do
	b=$(basename "$f" .pgn.xz)
	corpus_head "${CORPUS_MB:-4}" "$f" |
	    "$tooldir/pgn-regularize" -q >"$T/$b.pgn" 2>/dev/null
	[ -s "$T/$b.pgn" ] || { fail "$b: nothing regularized"; continue; }
	# shellcheck disable=SC2086
	compare "$T/$b.pgn" "$b (lichess tables)" $LICHESS
	case $b in otb-*|kdave-*)
		[ -f "$ECO" ] && compare "$T/$b.pgn" "$b (eco.pgn)" "$ECO" ;;
	esac
	rm -f "$T/$b.pgn"
done
finish
