#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-pgn-select-corpus.sh: pgn-select's counts on the OTB archive of
# the shared corpus (14,539 games) against independent computations:
# awk over the tag lines for a rating condition, a player regular
# expression and a date range (and the game count); chessops (npm) for
# --position after 1. e4 c5 2. Nf3 d6, --material=KRkr and every
# --ends kind (tests/select-peer.mjs); -v giving the complement; the
# same bytes with one thread and two.  The newer conditions on the OTB
# archive and on the online exports (the games of them that read; the
# first 4 MB of each):
# awk for --winner, --loser, --where and --games, chessops for a
# repeated --material, --moves, --placement, every --occurs kind and
# --wrong-result, each with its -v complement (chessops reads the OTB
# archive once for both parts: the newer conditions' counts are of the
# games it reads, and the archive is taken without the others).
# --material's relations and @N against awk over pgn-regularize's FEN
# comments.
#
# chessops is taken from CHESSOPS_DIR (a directory with
# node_modules/chessops), else from $top_builddir/tests/chessops, where
# npm installs it the first time (tests/npm-lib.sh); without node, or
# when that fails, the chessops half is skipped with a message and the
# rest runs.
# Skipped (77) without the corpus.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"
P="$tooldir/pgn-select"
C="${CORPUS:-}"
NAME=selc
. "$top_srcdir/tests/testlib.sh"
[ -f "$C/pgn/otb-14539.pgn.xz" ] || skip "no corpus at ${C:-(unset)}"
G="$T/otb.pgn"
xz -dc "$C/pgn/otb-14539.pgn.xz" >"$G" || fatal "xz"

# count N NAME OPTION...: pgn-select -c gives N
count() {
	n=$1
	name=$2
	shift 2
	got=$("$P" -q -c "$@" "$G")
	echo "$name: pgn-select $got, independent $n"
	[ "$got" = "$n" ] || fail "$name: pgn-select $got, independent $n"
}
# same N NAME OPTION...: the same, and -v gives the rest
same() {
	count "$@"
	shift 2
	inv=$("$P" -q -c -v "$@" "$G")
	[ $((got + inv)) -eq "$total" ] ||
	    fail "$name: -v gives $inv, not $total - $got"
}

# awk: one line per game (WhiteElo, Date, White, Black, BlackElo,
# Result), a game starting at the first tag line after movetext
tags_tsv() {
LC_ALL=C awk '
function flush() {
	if (ingame) print we "\t" dt "\t" wh "\t" bl "\t" be "\t" rs
	ingame = 0; we = dt = wh = bl = be = rs = "-"
}
BEGIN { we = dt = wh = bl = be = rs = "-" }
{ sub(/\r$/, "") }
/^\[[A-Za-z0-9_]+ "/ {
	if (!intags) { flush(); intags = 1; ingame = 1 }
	name = $0; sub(/^\[/, "", name); sub(/ .*/, "", name)
	v = $0; sub(/^\[[A-Za-z0-9_]+ "/, "", v); sub(/"\][ \t]*$/, "", v)
	if (name == "WhiteElo") we = v
	else if (name == "Date") dt = v
	else if (name == "White") wh = v
	else if (name == "Black") bl = v
	else if (name == "BlackElo") be = v
	else if (name == "Result") rs = v
	next
}
/^[ \t]*$/ { next }
{ intags = 0 }
END { flush() }' "$1"
}
tags_tsv "$G" >"$T/tags.tsv"
total=$(wc -l <"$T/tags.tsv")
n=$("$P" -q -c "$G")
echo "games: pgn-select $n, awk $total"
[ "$n" -eq "$total" ] && [ "$total" -eq 14539 ] ||
    fail "games: pgn-select $n, awk $total"

n=$(LC_ALL=C awk -F'\t' '$1 ~ /^[0-9]+$/ && $1 + 0 >= 2700' "$T/tags.tsv" |
    wc -l)
same "$n" "WhiteElo>=2700" -t 'WhiteElo>=2700'
n=$(LC_ALL=C awk -F'\t' '$3 ~ /Carlsen|Kasparov/ || $4 ~ /Carlsen|Kasparov/' \
    "$T/tags.tsv" | wc -l)
same "$n" "--player='Carlsen|Kasparov'" --player='Carlsen|Kasparov'
# a year's ? digits count as zeros, as in the collating order
n=$(LC_ALL=C awk -F'\t' '{ y = substr($2, 1, 4); gsub(/\?/, "0", y) }
    $2 ~ /^[0-9?][0-9?][0-9?][0-9?]/ && y + 0 >= 2000 && y + 0 < 2010' \
    "$T/tags.tsv" | wc -l)
same "$n" "Date 2000..2009" -t 'Date>=2000' -t 'Date<2010'

# the same bytes with one thread and two, and no game lost
"$P" -q -j 1 --ends=threefold,fifty "$G" >"$T/j1" || fail "-j 1 exit"
"$P" -q -j 2 --ends=threefold,fifty "$G" >"$T/j2" || fail "-j 2 exit"
cmp -s "$T/j1" "$T/j2" || fail "-j 2 output differs from -j 1"
"$P" -q --stats --ends=dead "$G" 2>"$T/stats" >/dev/null
grep -q "^pgn-select: 14539 games read, [0-9]* written, 0 rejected" \
    "$T/stats" || fail "--stats: $(cat "$T/stats")"

# chessops
. "$top_srcdir/tests/npm-lib.sh"
D=$CHESSOPS_D
FEN='rnbqkbnr/pp2pppp/3p4/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3'
PRE='1. e4 c5 2. Nf3'
PL='????????/R???????/8/????????/????????/????????/????????/????????'
peer() { sed -n "s/^$1 //p" "$T/peer"; }
if ! npm_package "$CHESSOPS" "$D"; then
	echo "SKIP (part): $npm_why: the chessops counts are not checked"
	D=
else
	# (one run over the archive for the counts here and for the
	# newer conditions below: those count only the games chessops
	# reads, as over the archive without the others)
	node "$top_srcdir/tests/select-peer.mjs" "$D" "$FEN" KRkr KQkq \
	    "$PRE" "$PL" <"$G" >"$T/peer.otb" 2>"$T/peer.err" ||
	    { fail "select-peer.mjs failed"; cat "$T/peer.err" >&2; }
	cp "$T/peer.otb" "$T/peer"
	[ "$(peer games)" = "$total" ] ||
	    fail "chessops read $(peer games) games, not $total"
	# a game chessops cannot read is told; pgn-select rejects none
	echo "chessops cannot read $(peer bad) game(s)"
	same "$(peer position)" "--position (Sicilian, 2...d6)" \
	    --position="$FEN"
	count "$(peer material)" "--material=KRkr" --material=KRkr
	for k in checkmate stalemate dead fivefold seventyfive fifty; do
		count "$(peer $k)" "--ends=$k" --ends=$k
	done
	same "$(peer threefold)" "--ends=threefold" --ends=threefold
	BAD=$(peer bad_games)
fi

# the newer conditions on one file: GAMES FILE [PEER] (the file G is
# then; chessops's counts from PEER, select-peer.mjs's output over a
# file of which FILE holds the games chessops reads, else from a run
# over FILE)
newer() {
	G=$2
	total=$1
	tags_tsv "$G" >"$T/new.tsv"
	rx='Carlsen|Kasparov|Nakamura'
	n=$(LC_ALL=C awk -F'\t' -v rx="$rx" '($3 ~ rx && $6 == "1-0") ||
	    ($4 ~ rx && $6 == "0-1")' "$T/new.tsv" | wc -l)
	same "$n" "--winner" --winner="$rx"
	n=$(LC_ALL=C awk -F'\t' -v rx="$rx" '($3 ~ rx && $6 == "0-1") ||
	    ($4 ~ rx && $6 == "1-0")' "$T/new.tsv" | wc -l)
	same "$n" "--loser" --loser="$rx"
	n=$(LC_ALL=C awk -F'\t' '($1 ~ /^[0-9]+$/ && $1 + 0 >= 2700 ||
	    $5 ~ /^[0-9]+$/ && $5 + 0 >= 2700) && $6 != "1/2-1/2"' \
	    "$T/new.tsv" | wc -l)
	same "$n" "--where" \
	    --where='(WhiteElo >= 2700 or BlackElo >= 2700) and not Result = "1/2-1/2"'
	n=$(LC_ALL=C awk -F'\t' 'NR <= 100 || NR == 250' "$T/new.tsv" | wc -l)
	same "$n" "--games=1-100,250" --games=1-100,250
	[ -z "${D:-}" ] && return
	if [ $# -ge 3 ]; then
		cp "$3" "$T/peer"
		n=$(($(peer games) - $(peer bad)))
		[ "$total" -eq "$n" ] ||
		    fail "$total games without those chessops cannot read, not $n"
	else
		node "$top_srcdir/tests/select-peer.mjs" "$D" "$FEN" KRkr \
		    KQkq "$PRE" "$PL" <"$G" >"$T/peer" 2>"$T/peer.err" ||
		    { fail "select-peer.mjs failed"; cat "$T/peer.err" >&2; }
		[ "$(peer bad)" = 0 ] ||
		    fail "chessops cannot read $(peer bad_games)"
	fi
	same "$(peer material_any)" "--material=KRkr --material=KQkq" \
	    --material=KRkr --material=KQkq
	same "$(peer prefix)" "--moves='$PRE'" --moves="$PRE"
	same "$(peer placement)" "--placement=$PL" --placement="$PL"
	for k in threefold fivefold fifty seventyfive check underpromotion; do
		same "$(peer occ_$k)" "--occurs=$k" --occurs=$k
	done
	same "$(peer wrong)" "--wrong-result" --wrong-result
}
# the OTB archive without the games chessops cannot read; the online
# exports without the games that do not read (other variants)
if [ -n "${D:-}" ] && [ "${BAD:--}" != "-" ]; then
	"$P" -q -v --games="$BAD" "$G" >"$T/otb2.pgn"
	G="$T/otb2.pgn"
fi
newer "$("$P" -c "$G")" "$G" ${D:+"$T/peer.otb"}
# (the first 4 MB of each export, whole games; CORPUS_MB=N for N MB,
# CORPUS_MB=0 for the whole files)
for f in "$C"/online/*.pgn.xz; do
	corpus_head "${CORPUS_MB:-4}" "$f"
	echo
done | "$P" -q -s --plies=0.. >"$T/online.pgn"
newer "$("$P" -c "$T/online.pgn")" "$T/online.pgn"
# --material relations and @N against awk over the placements that
# pgn-regularize --fen-comments writes after each move (the start from
# the FEN tag or the standard one) of the OTB archive: the longest run
# of positions where White's count of a type is <, > or = Black's
G="$T/otb.pgn"
"$tooldir/pgn-regularize" -q --fen-comments --no-comments "$G" \
    >"$T/fens.pgn" 2>/dev/null
# runs SPEC...: for each SPEC "W B OP HOLD", the games with HOLD + 1
# positions in a row where the count of the letters W (White's) against
# B (Black's) is OP; one line each, in order (one pass over the file)
runs() {
	awk -v specs="$*" '
	BEGIN {
		ns = split(specs, f, " ") / 4
		for (s = 1; s <= ns; s++) {
			w[s] = "[" f[4 * s - 3] "]"; b[s] = "[" f[4 * s - 2] "]"
			op[s] = f[4 * s - 1]; hold[s] = f[4 * s] + 0
		}
	}
	function holds(s, pl,  x, y, t) {
		t = pl; x = gsub(w[s], "", t)
		t = pl; y = gsub(b[s], "", t)
		return op[s] == "<" ? x < y : op[s] == ">" ? x > y : x == y
	}
	function game(  pl, s, left, t) {
		if (text == "") return
		pl = start; t = text; left = ns
		for (s = 1; s <= ns; s++) { run[s] = 0; ok[s] = 0 }
		for (;;) {
			for (s = 1; s <= ns; s++) {
				if (ok[s]) continue
				run[s] = holds(s, pl) ? run[s] + 1 : 0
				if (run[s] >= hold[s] + 1) { ok[s] = 1; n[s]++; left-- }
			}
			if (left == 0 || !match(t, /\{ [^ ]+ [wb] /)) break
			pl = substr(t, RSTART + 2, RLENGTH - 5)
			t = substr(t, RSTART + RLENGTH)
		}
	}
	/^\[Event / { game(); text = " "; start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR" }
	/^\[FEN "/ { start = substr($2, 2) }
	!/^\[/ { text = text " " $0 }
	END { game(); for (s = 1; s <= ns; s++) print n[s] + 0 }' "$T/fens.pgn"
}
set -- $(runs P p '>' 30 NB nb '>' 20 NB nb '>' 0 Q q '<' 5 NB nb '=' 100)
count "$1" '--material=,P>p@30' --material=,P\>p@30
count "$2" '--material=,L>l@20' --material=,L\>l@20
count "$3" '--material=,L>l' --material=,L\>l
count "$4" '--material=,Q<q@5' --material=,q\>Q@5
count "$5" '--material=,L=l@100' --material=,L=l@100
finish
