#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-fields-corpus.sh: pgn2tsv's @speed and @reason over the online
# exports of the shared corpus, against what the sites wrote
# themselves: every lichess game whose Event names its speed ("Rated
# Blitz game") gets that speed from its TimeControl; chess.com's
# Termination wording gives @reason, and where the text names an ending
# on the board (checkmate, resignation, agreement, repetition,
# stalemate, insufficient material, 50-move rule), the same games with
# lichess's "Normal" instead get it from the final position: they
# differ only where chess.com draws by insufficient material a position
# the Laws do not (at most 1 game in 500).  pgn2json's "reason" and
# "speed" are the same as the columns.
# Skipped (77) without the corpus.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"
C="${CORPUS:-}"
O="$C/online"
[ -f "$O/chesscom-monthly-archives.pgn.xz" ] ||
    { echo "SKIP: no corpus at ${C:-(unset)}"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/fldc.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
status=0
fail() {
	echo "FAIL: $*" >&2
	status=1
}
TSV="$tooldir/pgn2tsv"
JSON="$tooldir/pgn2json"

# lichess: the speed its Event names
for f in "$O"/*lichess*.pgn.xz "$O"/Jake-Moss*.pgn.xz; do
	xz -dc "$f"
done >"$T/li.pgn" || { echo "FAIL: xz" >&2; exit 1; }
"$TSV" -H -f Event,@speed "$T/li.pgn" >"$T/li.tsv" 2>/dev/null
awk -F'\t' '$1 ~ /^(Rated|Casual) [A-Za-z]+ game$/ {
	split($1, w, " "); n++
	if (tolower(w[2]) != $2) { bad++; print "  " $0 }
} END { printf "%d %d\n", n, bad + 0 }' "$T/li.tsv" >"$T/li.out"
set -- $(tail -n 1 "$T/li.out")
[ "$1" -gt 1000 ] || fail "lichess: only $1 games name their speed"
[ "$2" -eq 0 ] || { fail "lichess: $2 of $1 games of another speed";
    head -n 5 "$T/li.out" >&2; }

# chess.com: the wording, then the board where the text names it
xz -dc "$O/chesscom-monthly-archives.pgn.xz" >"$T/cc.pgn" ||
    { echo "FAIL: xz" >&2; exit 1; }
"$TSV" -H -f Termination,Result,@reason "$T/cc.pgn" >"$T/cc.tsv" 2>/dev/null
awk -F'\t' '
function want(t) {
	if (t ~ / won by checkmate$/) return "checkmate"
	if (t ~ / won by resignation$/) return "resignation"
	if (t ~ / won on time$/) return "time forfeit"
	if (t ~ / won - game abandoned$/) return "abandonment"
	if (t ~ / drawn by timeout vs insufficient material$/)
		return "time forfeit against insufficient material"
	if (t ~ / drawn by insufficient material$/)
		return "insufficient material"
	if (t ~ / drawn by 50-move rule$/) return "fifty moves"
	if (t ~ / drawn by (agreement|repetition|stalemate)$/) {
		sub(/.* drawn by /, "", t); return t
	}
	return "?"
}
{ n++; if (want($1) != $3) { bad++; print "  " $0 } }
END { printf "%d %d\n", n, bad + 0 }' "$T/cc.tsv" >"$T/cc.out"
set -- $(tail -n 1 "$T/cc.out")
[ "$1" -gt 30000 ] || fail "chess.com: only $1 games"
[ "$2" -eq 0 ] || { fail "chess.com: $2 of $1 games read otherwise";
    head -n 5 "$T/cc.out" >&2; }

sed -E 's/^\[Termination "[^"]* (won by (checkmate|resignation)|drawn by (agreement|repetition|stalemate|insufficient material|50-move rule))"\]/[Termination "Normal"]/' \
    "$T/cc.pgn" >"$T/normal.pgn"
cmp -s "$T/cc.pgn" "$T/normal.pgn" && fail "sed changed nothing"
"$TSV" -H -f @reason "$T/normal.pgn" >"$T/normal.tsv" 2>/dev/null
cut -f 3 "$T/cc.tsv" | paste - "$T/normal.tsv" | awk -F'\t' '
{ n++ } $1 != $2 { d++; if ($1 != "insufficient material" ||
    $2 != "agreement") { bad++; print "  " $0 } }
END { printf "%d %d %d\n", n, d + 0, bad + 0 }' >"$T/normal.out"
set -- $(tail -n 1 "$T/normal.out")
echo "chess.com games read from the board as its text says: $(($1 - $2)) of $1"
[ "$3" -eq 0 ] || { fail "the board against chess.com's text: $3 games";
    head -n 5 "$T/normal.out" >&2; }
[ "$(($2 * 500))" -le "$1" ] || fail "$2 of $1 chess.com draws by insufficient material with mating material"

# pgn2json's keys are the columns
head -c 3000000 "$T/li.pgn" >"$T/part.pgn"
"$TSV" -H -f @reason,@speed,@winner,@elo_diff "$T/part.pgn" \
    >"$T/cols" 2>/dev/null
"$JSON" "$T/part.pgn" 2>/dev/null | sed -E \
    's/.*"reason":"([^"]*)","speed":("([^"]*)"|null),"winner":("([^"]*)"|null),"elo_diff":(-?[0-9]+|null).*/\1	\3	\5	\6/; s/null$//' \
    >"$T/keys"
[ -s "$T/cols" ] || fail "no rows"
cmp -s "$T/cols" "$T/keys" || { fail "pgn2json keys differ from the columns";
    diff "$T/cols" "$T/keys" | head -n 5 >&2; }
exit $status
