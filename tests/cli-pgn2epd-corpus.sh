#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-pgn2epd-corpus.sh: pgn2epd | epd-validate over the shared corpus:
# every quirks file, and the first 2000 games (at most about 12 MB) of
# each big PGN file, with variations.  No EPD line may be invalid, every game read must be
# written or rejected (with one message each), and the output of a
# sample must be canonical (epd-validate -n leaves it unchanged), and
# the FEN writer's plain code (CHESSDATA_NO_SSSE3=1) must write the same.
# Skipped (77) without the corpus.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"
P="$tooldir/pgn2epd"
V="$tooldir/epd-validate"
C="${CORPUS:-}"
NAME=p2ec
. "$top_srcdir/tests/testlib.sh"
[ -d "$C/pgn" ] && [ -d "$C/quirks" ] ||
    skip "no corpus at ${C:-(unset)}"
SAMPLE=${SAMPLE:-2000}
SAMPLE_MB=${SAMPLE_MB:-12}

total=0

# check NAME FILE...: the files through pgn2epd, then epd-validate
check() {
	name=$1
	shift
	"$P" -q --stats --variations --rejects="$T/rej" "$@" \
	    >"$T/out.epd" 2>"$T/err"
	rc=$?
	CHESSDATA_NO_SSSE3=1 "$P" -q --variations "$@" >"$T/plain.epd" \
	    2>/dev/null
	if ! cmp -s "$T/out.epd" "$T/plain.epd"; then
		fail "$name: CHESSDATA_NO_SSSE3=1 changes the output"
	fi
	if [ "$rc" -gt 1 ]; then
		fail "$name: pgn2epd exit $rc"
		head -3 "$T/err" >&2
		return
	fi
	set -- "$name" $(sed -n 's/^pgn2epd: \([0-9]*\) games read, \([0-9]*\) written, \([0-9]*\) rejected in .*/\1 \2 \3/p' "$T/err")
	if [ $# -ne 4 ] || [ "$2" -ne $(($3 + $4)) ]; then
		fail "$1: games lost ($*)"
	fi
	msgs=$(grep ': game [0-9]*: ' "$T/err" | grep -vc 'no termination marker at the end of the input')
	if [ "$msgs" -ne "${4:-0}" ]; then
		fail "$1: $msgs messages for ${4:-0} rejected games"
	fi
	if [ "${4:-0}" -gt 0 ] && [ ! -s "$T/rej" ]; then
		fail "$1: rejects file empty"
	fi
	"$V" -q -n "$T/out.epd" >"$T/norm.epd" 2>"$T/verr"
	if [ $? -ne 0 ]; then
		fail "$1: invalid EPD lines:"
		head -5 "$T/verr" >&2
	elif ! cmp -s "$T/out.epd" "$T/norm.epd"; then
		fail "$1: output not canonical"
	fi
	total=$((total + $(grep -c '' "$T/out.epd")))
}

# all quirks files in one run (a tool started per file costs more than
# the work); the messages name the files
set -- "$C"/quirks/*/*.pgn
[ $# -gt 20 ] || fail "only $# quirks files"
check quirks "$@"

# the first SAMPLE games of each big file, at most about SAMPLE_MB
# megabytes of them (the engine games carry long comments); each game
# of those files starts with an Event tag at the start of a line
for f in "$C"/pgn/*.pgn.xz; do
	xz -dc "$f" | awk -v max="$SAMPLE" -v cap="$SAMPLE_MB" '
	    /^\[Event / && (++n > max || bytes > cap * 1000000) { exit }
	    { print; bytes += length($0) + 1 }' >"$T/in.pgn"
	check "${f#"$C"/} (first $(grep -c '^\[Event ' "$T/in.pgn") games)" \
	    "$T/in.pgn"
done
echo "$total positions checked"
finish
