#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-pgn-regularize-extract.sh: the rewrites of pgn-regularize against
# pgn-extract's options of the same meaning, game by game, on the OTB
# archive and four online exports of the corpus ($CORPUS), the first
# megabyte of each (CORPUS_MB).  Both sides
# are written with 79-column lines (pgn-extract -w79) and their tags
# beyond the roster put in byte order (pgn-extract keeps input order).
# A game must come out byte for byte the same, unless its movetext
# keeps comments, variations or NAGs (pgn-extract lays them out
# otherwise than the export format of pgn(5): see pgn-regularize(1)) or
# it is a Chess960 game (pgn-extract copies its FEN tag, castling
# rights as given).  The counts of each comparison are printed.
# Skipped (77) without the corpus, xz or pgn-extract.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"
P="$tooldir/pgn-regularize"
C="${CORPUS:-}"
X=$(command -v pgn-extract || true)
[ -n "$X" ] || [ ! -x /usr/games/pgn-extract ] || X=/usr/games/pgn-extract
if [ -z "$C" ] || [ ! -d "$C/pgn" ] || ! command -v xz >/dev/null ||
    [ -z "$X" ]; then
	echo "corpus, xz or pgn-extract not found: skipped"
	exit 77
fi
NAME=pgnrewx
. "$top_srcdir/tests/testlib.sh"
LC_ALL=C
export LC_ALL

# the first CORPUS_MB MB of each file, whole games (1 by default: the
# 27 option rows run pgn-extract on each, which takes most of the time;
# CORPUS_MB=0 for the whole files)
first() {
	corpus_head "${CORPUS_MB:-1}" "$1" >"$2" || exit 99
}
first "$C/pgn/otb-14539.pgn.xz" "$T/otb.pgn"
set -- otb
for f in kdave-pgn-toys--lichess Allan-Cao-Magnus-Carlsen-Chess-Games--games \
    pnmadelaine-chess--lichess etiennebonnafoux-lichess_analyse--lichess_games; do
	first "$C/online/$f.pgn.xz" "$T/$f.pgn"
	set -- "$@" "$f"
done
FILES="$*"

# games FILE: one line a game, its lines joined by \001, the tags
# beyond the seventh in byte order, \002 before the movetext
games() {
	awk '
	function flush(   i, j, v, s) {
		if (n == 0 && mt == "")
			return
		for (i = 9; i <= n; i++) {
			v = t[i]
			for (j = i - 1; j >= 8 && t[j] > v; j--)
				t[j + 1] = t[j]
			t[j + 1] = v
		}
		s = ""
		for (i = 1; i <= n; i++)
			s = s t[i] "\001"
		print s "\002" mt
		n = 0; mt = ""; inmt = 0
	}
	/^\[/ && inmt && prev == "" { flush() }
	/^\[/ && !inmt { t[++n] = $0; prev = $0; next }
	{
		if ($0 == "" && !inmt) { inmt = 1; prev = ""; next }
		mt = mt $0 "\001"; prev = $0
	}
	END { flush() }' "$1"
}

# compare LABEL OURS PGNEXTRACT: game by game; "LABEL: same N,
# annotations N, chess960 N" on stdout, a failure for any other
# difference (the first shown)
compare() {
	games "$2" >"$T/a"
	games "$3" >"$T/b"
	awk -v label="$1" -v allow="${ALLOW:-}" '
	NR == FNR { a[FNR] = $0; na = FNR; next }
	{
		nb = FNR
		if (a[FNR] == $0) { same++; next }

		if (index(a[FNR], "[Variant \"Chess960\"]")) { c960++; next }
		if (index(allow, "setup") && index(a[FNR], "[SetUp \"1\"]")) {
			setup++; next
		}
		x = a[FNR]; y = $0
		sub(/\[Result "[^"]*"\]\001/, "", x)
		sub(/\[Result "[^"]*"\]\001/, "", y)
		sub(/\[PlyCount "[^"]*"\]\001/, "", x)
		sub(/\[PlyCount "[^"]*"\]\001/, "", y)
		if (index(allow, "result") && x == y) { result++; next }
		# the same tokens, lines filled otherwise (a comment
		# added after every move: all games have one)
		x = a[FNR]; y = $0
		gsub(/\001/, " ", x); gsub(/\001/, " ", y)
		gsub(/\( /, "(", x); gsub(/ \)/, ")", x)
		gsub(/  +/, " ", x); gsub(/  +/, " ", y)
		if (index(allow, "fill") && x == y) { fill++; next }
		m = a[FNR] $0
		sub(/^[^\002]*\002/, "", m)
		if (m ~ /[{($]/) { ann++; next }
		other++
		if (other == 1) {
			x = a[FNR]; y = $0
			gsub(/\001/, "\n", x); gsub(/\001/, "\n", y)
			print "FIRST DIFFERENCE:\n" x "----\n" y > "/dev/stderr"
		}
	}
	END {
		if (na != nb)
			print label ": " na " games against " nb
		printf "%s: same %d, annotations %d, chess960 %d, %sother %d\n",
		    label, same, ann, c960, allow != "" ? allow " " \
		    setup + result + fill ", " : "", other
		exit (na != nb || other > 0)
	}' "$T/a" "$T/b" || fail "$1: pgn-regularize and pgn-extract differ"
}

# row OURS-OPTIONS -- PGN-EXTRACT-OPTIONS: compare on every file
row() {
	o=
	while [ "$1" != -- ]; do
		o="$o $1"
		shift
	done
	shift
	for f in $FILES; do
		# shellcheck disable=SC2086
		"$P" -q $o "$T/$f.pgn" >"$T/ours" 2>"$T/err"
		[ $? -le 1 ] || fail "$o: $f: exit status"
		"$X" -s -w79 "$@" "$T/$f.pgn" 2>/dev/null |
		    sed "${FIX:-}" >"$T/theirs"
		compare "${o# } ($f)" "$T/ours" "$T/theirs"
	done
}

row -- 
row --no-comments -- -C
row --no-nags -- -N
row --no-variations -- -V
row --no-results -- --noresults
row --no-move-numbers -- --nomovenumbers
# tags: -R with the roster first is --tag-order; with --xroster it
# drops SetUp and FEN too (the game no longer starts where it did),
# which --keep-tags keeps
printf '%s\n' Event Site Date Round White Black Result TimeControl ECO \
    >"$T/roster"
row --seven-tags -- -7
row --tag-order=TimeControl,ECO -- -R"$T/roster"
ALLOW=setup row --keep-tags=TimeControl,ECO -- -R"$T/roster" --xroster
row --plycount --total-plycount -- --plycount --totalplycount
row --fix-result -- --fixresulttags
# the first plies: pgn-extract ends the game with `*` but keeps its
# Result and PlyCount tags, pgn-regularize makes them `*` and the
# plies left; pgn-extract counts the
# plies of a game from a FEN from move 1, pgn-regularize from the FEN
ALLOW="result setup" row --max-plies=20 -- --plylimit 20
# the first plies dropped: pgn-extract leaves out a game shorter than
# that, pgn-regularize writes it from its final position; the plies of
# a game from a FEN as with --max-plies
for f in $FILES; do
	"$tooldir/pgn-select" --plies=20.. "$T/$f.pgn" >"$T/$f.20"
	"$P" -q --drop-plies=20 "$T/$f.20" >"$T/ours" 2>"$T/err"
	"$X" -s -w79 --dropply 20 "$T/$f.20" >"$T/theirs" 2>/dev/null
	ALLOW=setup compare "--drop-plies=20 ($f)" "$T/ours" "$T/theirs"
done
# comments after every move, and the final FEN: the same tokens (the
# Polyglot keys of --hash-comments are pgn-extract's --hashcomments)
ALLOW=fill row --no-comments --no-nags --no-variations --fen-comments -- \
    -C -N -V --fencomments
ALLOW=fill row --no-comments --no-nags --no-variations --hash-comments -- \
    -C -N -V --hashcomments
ALLOW=fill row --no-comments --no-nags --no-variations --final-fen -- \
    -C -N -V -F
# each line a game of its own (pgn-extract leaves an empty line after
# a comment before the first move)
ALLOW=fill row --split-variations=start -- --splitvariants
# notations (pgn-extract -Wuci writes no move numbers and no line ends)
row --notation=lan -- -Wlalg
# (pgn-extract -Whalg leaves the hyphen out of a promotion: put in,
# its line filled otherwise)
FIX='s/\([a-h][27]\)\([a-h][18][QRBN]\)/\1-\2/g' ALLOW=fill \
    row --notation=hlan -- -Whalg
row --notation=elan -- -Welalg
# another line length (pgn-extract's later -w wins), and another
# language's piece letters (pgn-extract takes them in PNBRQK order)
row --width=60 -- -w60
row --notation=san:de -- -WsanBSLTDK
# no tags: the whole outputs, annotations left out
for f in $FILES; do
	"$P" -q --no-tags --no-comments --no-nags --no-variations \
	    "$T/$f.pgn" >"$T/ours" 2>"$T/err"
	"$X" -s -w79 --notags -C -N -V "$T/$f.pgn" >"$T/theirs" 2>/dev/null
	cmp -s "$T/ours" "$T/theirs" ||
	    fail "--no-tags ($f): pgn-regularize and pgn-extract differ"
	echo "--no-tags ($f): $(grep -c '^$' "$T/ours") games the same"
done
row --no-comments --no-nags --no-variations --no-results \
    --no-move-numbers -- -C -N -V --noresults --nomovenumbers

# --nested-comments against pgn-extract --nestedcomments on hand-made
# games: the same text once pgn-extract's inner braces are made
# parentheses (pgn-regularize writes them so, the export format having
# no `}` inside a comment) and white space is left out (pgn-extract
# lays out variations otherwise)
printf '%s\n' '[Event "a"]' '[Site "?"]' '[Date "?"]' '[Round "?"]' \
    '[White "a"]' '[Black "b"]' '[Result "1-0"]' '' \
    '1. e4 { a { b } c } e5 { x {y {z}} w } 2. Nf3 (2. Nc3 {v { w } } Nc6)' \
    'Nc6 {p} {q {r} s {t}} 3. Bb5 { a {' 'b } c' '} a6 {  sp  { in } } 1-0' \
    '' '[Event "b"]' '[Site "?"]' '[Date "?"]' '[Round "?"]' '[White "a"]' \
    '[Black "b"]' '[Result "*"]' '' \
    '1. d4 { {x} } d5 { a {b} {c} d } 2. c4 { 1-0 { 0-1 } } *' >"$T/nest.pgn"
"$P" -q --nested-comments "$T/nest.pgn" >"$T/ours" 2>"$T/err" ||
    fail "--nested-comments: $(cat "$T/err")"
"$X" -s -w79 --nestedcomments "$T/nest.pgn" 2>/dev/null | awk '{
	o = ""
	for (i = 1; i <= length($0); i++) {
		c = substr($0, i, 1)
		if (c == "{") { if (d++ > 0) c = "(" }
		else if (c == "}") { if (--d > 0) c = ")" }
		o = o c
	}
	print o
}' | tr -d ' \n' >"$T/theirs"
[ -s "$T/theirs" ] || fail "--nested-comments: no output from pgn-extract"
tr -d ' \n' <"$T/ours" | cmp -s - "$T/theirs" ||
    fail "--nested-comments: pgn-regularize and pgn-extract differ"
grep -q '{ a ( b ) c }' "$T/ours" || fail "--nested-comments: $(cat "$T/ours")"
echo "--nested-comments: $(grep -c '^\[Event ' "$T/ours") games the same"

exit $status
