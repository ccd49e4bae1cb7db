#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-pgn-select-utf8.sh: pgn-select's regular expressions match
# characters, not bytes: values in UTF-8 and in Latin-1 (bytes that are
# not UTF-8) alike, patterns in UTF-8 or Latin-1; `.` is one character,
# a bracket holds characters, -i folds non-ASCII letters.  With the
# shared corpus, counts on the OTB archive's computed opening names
# equal grep -E's under LC_ALL=C.UTF-8 on the same names (pgn2tsv).
set -u
NAME=selu8
. "${top_srcdir:?}/tests/testlib.sh"
P="$top_builddir/src/pgn-select"

# game EVENT WHITE BLACK OPENING: a one-move game (values as bytes)
game() {
	printf '[Event "%s"]\n[White "%b"]\n[Black "%b"]\n[Opening "%b"]\n' \
	    "$1" "$2" "$3" "$4"
	printf '[Result "1-0"]\n\n1. e4 1-0\n\n'
}
{
	# UTF-8: ü is C3 BC, é C3 A9, É C3 89, Ø C3 98, ő C5 91
	game u8 'M\303\274ller, Karl' '\303\211tienne' 'Gr\303\274nfeld Defense'
	# Latin-1: ü FC, É C9
	game l1 'M\374ller, Karl' '\311tienne' 'Gr\374nfeld Defense'
	game ascii 'Muller, Karl' 'etienne' 'Grunfeld Defense'
	game two 'Mueller, Karl' 'Etienne' 'Gruenfeld Defense'
	game wide 'Erd\305\221s' '\303\230sterg\303\245rd' 'Sicilian'
} >"$T/g.pgn"

# sel WANT-EVENTS OPTION...: the Event of every game selected
sel() {
	want=$1
	shift
	"$P" "$@" "$T/g.pgn" >"$T/out" 2>"$T/err"
	got=$(sed -n 's/^\[Event "\(.*\)"\]/\1/p' "$T/out" | tr '\n' ' ')
	[ "$got" = "$want" ] || fail "$*: selected '$got', expected '$want'"
}

sel 'u8 l1 ascii ' -t 'Opening~^Gr.nfeld'
sel 'two ' -t 'Opening~^Gr..nfeld'
sel 'u8 l1 ascii ' --white='^M[üu]ller'
sel 'u8 l1 ' --white='^M[ü]ller'
sel 'ascii two ' --white='^M[^ü]'
sel 'u8 l1 ' --white='^Müller, Karl$'
sel 'u8 l1 ' --white='^M.ller, Karl$' --black='^.tienne$' \
    -t 'Event!~ascii'
sel 'u8 l1 ' --black='^Étienne'
sel '' --black='^étienne'
sel 'u8 l1 ' -i --black='^étienne'
sel 'u8 l1 ascii two ' -i --black='^[eé]tienne$'
sel 'u8 l1 ' -i --white='^MÜLLER'
sel 'u8 l1 ' -i -t 'Opening~GRÜNFELD'
sel 'wide ' --white='^Erd.s$' --black='^.sterg.rd$'
sel 'wide ' -i --white='^ERDŐS$'
sel 'wide ' --player='[ŐØ]'
sel 'u8 l1 ' --where='White ~ "^M.ller" and Black ~ "^[ÉE]tienne"'
# a pattern typed in Latin-1 (bytes that are not UTF-8): the same
sel 'u8 l1 ' --white="$(printf '^M\374ller')"
sel 'u8 l1 ' -i --black="$(printf '^\351tienne')"
# the ASCII games are matched as before
sel 'ascii two ' --white='^Mu'
sel 'u8 l1 ascii two ' -i --white='^m.*, karl$'
sel 'l1 ' --white='^M' -t 'Event~^l'
sel 'u8 l1 ascii two wide ' -v -t 'Opening~^X'
expect 2 "$P" --white='M[ü' "$T/g.pgn"
grep -q 'invalid regular expression' "$T/err" ||
    fail "an invalid pattern: no message"
# a range with non-ASCII ends: the C library's collation decides (glibc
# refuses it, as grep -E does); either an error or a match, never a
# byte range
"$P" --white='^M[à-ÿ]ller, Karl$' "$T/g.pgn" >"$T/out" 2>"$T/err"
rc=$?
case $rc in
2)	grep -q 'invalid regular expression' "$T/err" ||
	    fail "a range of non-ASCII: no message" ;;
0)	[ "$(grep -c '^\[Event' "$T/out")" = 2 ] ||
	    fail "a range of non-ASCII: not Müller in both encodings" ;;
*)	fail "a range of non-ASCII: exit status $rc" ;;
esac

# With the corpus: the computed opening names of the OTB archive
C="${CORPUS:-}"
D="$C/../data/openings"
if [ -f "$C/pgn/otb-14539.pgn.xz" ] && [ -f "$D/a.tsv" ]; then
	xz -dc "$C/pgn/otb-14539.pgn.xz" >"$T/otb.pgn" || fail "xz"
	set -- --openings="$D/a.tsv" --openings="$D/b.tsv" \
	    --openings="$D/c.tsv" --openings="$D/d.tsv" --openings="$D/e.tsv"
	"$top_builddir/src/pgn2tsv" -H -f @opening "$@" "$T/otb.pgn" \
	    >"$T/names" 2>/dev/null || fail "pgn2tsv @opening"
	for re in 'Gr.nfeld' 'Mar[óo]czy' 'S.misch' 'H[^ ]*mer' \
	    '^[^:]*ü' 'Hj.rring'; do
		want=$(LC_ALL=C.UTF-8 grep -cE -- "$re" "$T/names")
		got=$("$P" -c "$@" --opening="$re" "$T/otb.pgn")
		[ "$got" = "$want" ] ||
		    fail "otb --opening='$re': $got, grep -E $want"
		want=$(LC_ALL=C.UTF-8 grep -ciE -- "$re" "$T/names")
		got=$("$P" -c -i "$@" --opening="$re" "$T/otb.pgn")
		[ "$got" = "$want" ] ||
		    fail "otb -i --opening='$re': $got, grep -iE $want"
	done
	n=$("$P" -c "$@" --opening='Gr.nfeld' "$T/otb.pgn")
	[ "$n" -gt 0 ] || fail "otb: no Grünfeld game"
else
	echo "(no corpus or opening tables: the OTB half skipped)"
fi
exit $status
