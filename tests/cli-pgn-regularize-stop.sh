#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-pgn-regularize-stop.sh: pgn-regularize --stop-at-material,
# --stop-at-occurs, --stop-at-placement and --stop-at-position, the
# game cut at the first position where pgn-select's condition holds:
# hand-made games with known cut points (the start, a move in the
# middle, the final position, never; @N; with --drop-plies and
# --max-plies; variations and comments of the moves kept); then, with
# the shared corpus, the OTB archive cut at two material balances: the
# games cut are exactly those pgn-select --material selects, each cut
# at its first position with that material (awk over the FEN comments
# of the cut games), the others written whole.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"
P="$tooldir/pgn-regularize"
C="${CORPUS:-}"
NAME=pgnstop
. "$top_srcdir/tests/testlib.sh"

# queens off at ply 8 (4... Nxd7), the first check at ply 5, the first
# capture at ply 4
cat >"$T/q.pgn" <<'PGN'
[Event "Queens"]
[Site "?"]
[Date "?"]
[Round "1"]
[White "A"]
[Black "B"]
[Result "1/2-1/2"]
[PlyCount "10"]

{Start.} 1. d4 d5 2. c4 dxc4 3. Qa4+ $1 {check} Qd7 4. Qxd7+ Nxd7 (4... Kxd7
5. e4) {queens off} 5. e3 Ngf6 1/2-1/2
PGN

# cut NAME OPTION...: the movetext written (its lines joined) into
# $T/NAME, and the PlyCount tag's value into $T/NAME.n
cut() {
	n=$1
	shift
	expect 0 "$P" "$@" "$T/q.pgn"
	grep -v '^\[' "$T/out" | tr '\n' ' ' | sed 's/  *$//; s/^ *//' \
	    >"$T/$n"
	sed -n 's/^\[PlyCount "\(.*\)"\]$/\1/p' "$T/out" >"$T/$n.n"
}
# is NAME PLIES MOVETEXT
is() {
	[ "$(cat "$T/$1")" = "$3" ] ||
	    fail "$1: movetext '$(cat "$T/$1")', expected '$3'"
	[ "$(cat "$T/$1.n")" = "$2" ] ||
	    fail "$1: PlyCount $(cat "$T/$1.n"), expected $2"
}
QL='R*B*N*P*r*b*n*p*'	# no queen
cut mat --stop-at-material="$QL"
is mat 8 '{ Start. } 1. d4 d5 2. c4 dxc4 3. Qa4+ $1 { check } 3... Qd7 4. Qxd7+ Nxd7 { queens off } ( 4... Kxd7 5. e4 ) *'
grep -q '^\[Result "\*"\]$' "$T/out" || fail "mat: Result tag not *"
# held for 2 plies: from ply 8 to the final position, nothing cut
cut mat2 --stop-at-material="$QL@2"
is mat2 10 '{ Start. } 1. d4 d5 2. c4 dxc4 3. Qa4+ $1 { check } 3... Qd7 4. Qxd7+ Nxd7 { queens off } ( 4... Kxd7 5. e4 ) 5. e3 Ngf6 1/2-1/2'
grep -q '^\[Result "1/2-1/2"\]$' "$T/out" || fail "mat2: Result tag changed"
# held for 3: never, written whole
cut mat3 --stop-at-material="$QL@3"
cmp -s "$T/mat3" "$T/mat2" || fail "mat3: not the whole game"
# a relation: White has fewer pawns after 2... dxc4
cut rel --stop-at-material='Q*R*B*N*P*q*r*b*n*p*,P<p'
is rel 4 '{ Start. } 1. d4 d5 2. c4 dxc4 *'
cut occ --stop-at-occurs=check
is occ 5 '{ Start. } 1. d4 d5 2. c4 dxc4 3. Qa4+ $1 { check } *'
# the start: no move kept
cut start --stop-at-position='rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
is start 0 '{ Start. } *'
cut pos --stop-at-position='rnb1kbnr/pppqpppp/8/8/Q1pP4/8/PP2PPPP/RNB1KBNR w KQkq - 2 4'
is pos 6 '{ Start. } 1. d4 d5 2. c4 dxc4 3. Qa4+ $1 { check } 3... Qd7 *'
# a placement with `?`: a black knight on d7 (move 4 of the main line;
# the variation's 4... Kxd7 is not the main line)
cut pl --stop-at-placement='????????/???n????/????????/????????/????????/????????/????????/????????'
is pl 8 "$(cat "$T/mat")"
# two kinds: the first position by which both have held
cut both --stop-at-occurs=check --stop-at-material="$QL"
is both 8 "$(cat "$T/mat")"
# repeated, one kind: any of them
cut any --stop-at-material="$QL" --stop-at-material='Q*R*B*N*P*q*r*b*n*p*,P<p'
is any 4 "$(cat "$T/rel")"
# with --max-plies, the shorter; with --drop-plies, counted from the
# start
cut max --stop-at-material="$QL" --max-plies=3
is max 3 '{ Start. } 1. d4 d5 2. c4 *'
cut max2 --stop-at-occurs=check --max-plies=7
is max2 5 "$(cat "$T/occ")"
cut drop --stop-at-occurs=check --drop-plies=2
is drop 3 '2. c4 dxc4 3. Qa4+ $1 { check } *'
cut drop2 --stop-at-occurs=check --drop-plies=6
is drop2 0 '*'
# never: the game whole, as without the option
cut never --stop-at-material=KRkr
cut plain
cmp -s "$T/never" "$T/plain" || fail "never: the game changed"
expect 0 "$P" --stop-at-material=KRkr "$T/q.pgn"
cp "$T/out" "$T/never.pgn"
expect 0 "$P" "$T/q.pgn"
cmp -s "$T/out" "$T/never.pgn" || fail "never: output differs"
# what does not read: a usage error
for o in --stop-at-material=KX --stop-at-occurs=nothing \
    --stop-at-placement=9/8 --stop-at-position=x; do
	expect 2 "$P" "$o" "$T/q.pgn"
	grep -q "^pgn-regularize: ${o%%=*} '${o#*=}': " "$T/err" ||
	    fail "$o: message $(cat "$T/err")"
done

# ---- the OTB archive ----
if [ ! -f "$C/pgn/otb-14539.pgn.xz" ]; then
	echo "no corpus at ${C:-(unset)}: the archive part skipped"
	finish
fi
# the games that read, numbered by a tag N
xz -dc "$C/pgn/otb-14539.pgn.xz" | "$P" -q 2>/dev/null |
    awk '/^\[Event / { n++; print "[N \"" n "\"]" } { print }' >"$T/otb.pgn"
"$P" -q --plycount "$T/otb.pgn" | awk '/^\[N / { n = $2 }
    /^\[PlyCount / { print n, $2 }' >"$T/all.n"
# check SPEC AWKCOND: AWKCOND (on a placement p, its pieces counted by
# cnt(p, letters)) says whether a position has the material SPEC
check() {
	"$tooldir/pgn-select" -q --material="$1" "$T/otb.pgn" |
	    sed -n 's/^\[N "\(.*\)"\]$/\1/p' >"$T/sel"
	"$P" -q --stop-at-material="$1" --fen-comments --no-comments \
	    --plycount "$T/otb.pgn" >"$T/cut.pgn"
	: >"$T/cuterr"
	awk -v start='rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR' \
	    -v errs="$T/cuterr" '
	function cnt(pl, set) { return gsub("[" set "]", "", pl) }
	function has(p) { return '"$2"' }
	function done() {
		if (n == "")
			return
		# (--no-comments: the FEN comments alone)
		k = split(mt, part, /\{ /)
		for (i = 2; i <= k; i++)
			pl[np++] = substr(part[i], 1, index(part[i], " ") - 1)
		# the positions where it holds: none, or the last alone
		first = 0
		for (i = 0; i < np; i++)
			if (has(pl[i])) { first = i + 1; break }
		if (first != 0 && first != np)
			print "game " n ": cut at position " np ", first " \
			    first >errs
		else if (first != 0)
			print n
		np = 0
	}
	/^\[Event / { done(); pl[0] = start; np = 1; mt = "" }
	/^\[N / { n = $2; gsub(/"|\]/, "", n) }
	/^\[FEN / { f = $0; sub(/^\[FEN "/, "", f); sub(/ .*/, "", f); pl[0] = f }
	/^\[/ { next }
	{ mt = mt " " $0 }
	END { done() }' "$T/cut.pgn" >"$T/cutlist"
	[ -s "$T/cuterr" ] && fail "$1: $(head -3 "$T/cuterr")"
	nsel=$(wc -l <"$T/sel")
	echo "--material=$1: pgn-select $nsel games, cut $(wc -l <"$T/cutlist")"
	[ "$nsel" -gt 0 ] || fail "$1: no game selected"
	cmp -s "$T/sel" "$T/cutlist" || fail "$1: the games cut differ from pgn-select's"
	# the games not cut are whole: their PlyCount as without the cut
	awk '/^\[N / { n = $2 } /^\[PlyCount / { print n, $2 }' \
	    "$T/cut.pgn" >"$T/cut.n"
	shorter=$(paste -d' ' "$T/all.n" "$T/cut.n" |
	    awk '$1 != $3 { print "misaligned"; exit } $2 != $4' | wc -l)
	[ "$shorter" -gt 0 ] && [ "$shorter" -le "$nsel" ] ||
	    fail "$1: $shorter games shorter, $nsel selected"
}
check 'R*P*r*p*' 'cnt(p, "QBNqbn") == 0'
check 'Q*R*B*N*P*q*r*b*n*p*,L>l' 'cnt(p, "BN") > cnt(p, "bn")'
finish
