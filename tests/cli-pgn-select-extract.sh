#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-pgn-select-extract.sh: pgn-select --material against pgn-extract's
# material files (-y, and -z for both colours), game by game, on the OTB
# archive (14,539 games) and the online exports of the corpus but the
# largest (chesscom-monthly-archives: 33,550 games more of the same;
# 11,340 games): exact material, at least (`*`, and pgn-extract's `+`
# as PP*), relations with < > = (of a piece and of the minor pieces,
# L), stability counts (@N), eight patterns on each.
#
# The games go through pgn-regularize -r first (the same games for both:
# the ones that read, without comments or variations), each numbered by
# a tag GameNo; the selected games' numbers are compared.  pgn-extract
# never looks at the position after the last move (its loop tests the
# position before each move), so its copy gets a null move `--` before
# the result (--allownullmoves): the last real position is then tested
# too, and a null move changes no material.  pgn-extract (19.04)
# miscounts three kinds of game (see pgn-select(1)): a game selected by
# one tool only must have a promotion in its main line, start with Black
# to move, or be Chess960.  The counts of each pattern are printed.
# Skipped (77) without the corpus, xz or pgn-extract.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"
C="${CORPUS:-}"
X=$(command -v pgn-extract || true)
[ -n "$X" ] || [ ! -x /usr/games/pgn-extract ] || X=/usr/games/pgn-extract
if [ -z "$C" ] || [ ! -f "$C/pgn/otb-14539.pgn.xz" ] ||
    ! command -v xz >/dev/null || [ -z "$X" ]; then
	echo "corpus, xz or pgn-extract not found: skipped"
	exit 77
fi
NAME=selx
. "$top_srcdir/tests/testlib.sh"
LC_ALL=C
export LC_ALL

# FILE.pgn: the games of the archives named, regularized and numbered;
# FILE-nm.pgn: pgn-extract's copy, with a null move before the result
# on the movetext's last line (a game without moves too); FILE.odd: the
# numbers of the games pgn-extract may count otherwise (a promotion in
# the main line: no variations are left; a start with Black to move;
# Chess960)
prepare() {
	name=$1
	shift
	for f in "$@"; do
		xz -dc "$f" || exit 99
	done | "$tooldir/pgn-regularize" -q -r 2>/dev/null |
	    awk '{ print } /^\[Event / { printf "[GameNo \"%d\"]\n", ++n }' \
	    >"$T/$name.pgn"
	n=$(grep -c '^\[GameNo ' "$T/$name.pgn")
	[ "$n" -gt 10000 ] || { fail "$name: only $n games read"; exit 1; }
	awk 'function out() { if (held != "") { sub(/(1-0|0-1|1\/2-1\/2|\*)$/,
		"-- &", held); print held; held = "" } }
	    /^\[/ { print; next }
	    /^$/ { out(); print; next }
	    { if (held != "") print held; held = $0 }
	    END { out() }' "$T/$name.pgn" >"$T/$name-nm.pgn"
	[ "$(grep -c -- '-- \(1-0\|0-1\|1/2-1/2\|\*\)$' "$T/$name-nm.pgn")" = "$n" ] ||
	    { fail "$name: not a null move in every game"; exit 1; }
	awk '/^\[GameNo / { g = $2 }
	    /^\[FEN ".* b / || /^\[Variant "Chess960"\]/ || (!/^\[/ && /=[QRBN]/) {
		print g }' "$T/$name.pgn" | tr -d '"]' | sort -u >"$T/$name.odd"
	echo "$name: $n games, $(wc -l <"$T/$name.odd") with a promotion, Black to move first or Chess960"
}
prepare otb "$C/pgn/otb-14539.pgn.xz"
set --
for f in "$C"/online/*.pgn.xz; do
	case $f in *chesscom-monthly*) ;; *) set -- "$@" "$f" ;; esac
done
prepare online "$@"

# same FILE MODE LINE OPTION...: pgn-extract -MODE with the material
# file LINE against pgn-select OPTION... on the game numbers of FILE
same() {
	name=$1 mode=$2 line=$3
	shift 3
	printf '%s\n' "$line" >"$T/m"
	"$X" -s --allownullmoves "-$mode$T/m" "$T/$name-nm.pgn" 2>"$T/err" |
	    sed -n 's/^\[GameNo "\(.*\)"\]$/\1/p' | sort >"$T/x"
	"$tooldir/pgn-select" -q "$@" "$T/$name.pgn" 2>"$T/err2" |
	    sed -n 's/^\[GameNo "\(.*\)"\]$/\1/p' | sort >"$T/o"
	[ -s "$T/err2" ] && fail "pgn-select $*: $(cat "$T/err2")"
	comm -3 "$T/x" "$T/o" | tr -d '\t' | sort >"$T/d"
	bad=$(comm -23 "$T/d" "$T/$name.odd" | head -5 | tr '\n' ' ')
	printf '%-6s %-36s %-26s pgn-extract %5d, pgn-select %5d, %d differ\n' \
	    "$name" "$*" "-$mode '$line'" "$(wc -l <"$T/x")" "$(wc -l <"$T/o")" \
	    "$(wc -l <"$T/d")"
	[ -z "$bad" ] || fail "$name $*: games $bad differ from pgn-extract -$mode '$line'"
	[ -s "$T/o" ] || fail "$name $*: no game"
}

# OTB: exact material (the kings implied; no count: one), at least
# (`*` any number, P+ one or more: PP*), relations (pgn-extract puts
# them on the second set, Black's), stability (N half-moves after the
# first position that has it), -z (either side with the first set)
same otb y '0 R R' --material=KRkr
same otb y '0 RP RP' --material=KRPkrp
same otb y '0 RP* R' --material=KRP*kr
same otb y '0 QP+ QP*' --material=KQPP*kqp*
same otb y '0 R*P* R=P<' --material=R*P*r*p*,R=r,P\>p
same otb y '10 RP* RP*' --material=KRP*krp*@10
same otb y '20 Q*R*L*P* Q*R*L<P*' --material=,L\>l@20
same otb z '0 R RP' --material=KRkrp --material=KRPkr
# the online exports
same online y '0 Q Q' --material=Qq
same online y '0 BP* NP*' --material=KBP*knp*
same online y '0 Q*R*B*N*P* Q*R<B*N*P*' --material=,R\>r
same online y '0 Q*R*B*N*P* Q>R*B*N*P*' --material=,Q\<q
same online y '0 Q*R*L*P* Q*R*L=P>' --material=,L=l,P\<p
same online y '30 Q*R*B*N*P* Q*R*B*N*P<' --material=,P\>p@30
same online y '6 RP* R' --material=KRP*kr@6
same online z '8 RP* R' --material=KRP*kr@8 --material=KRkrp*@8
exit "$status"
