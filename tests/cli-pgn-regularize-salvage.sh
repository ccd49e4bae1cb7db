#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-pgn-regularize-salvage.sh: pgn-regularize --salvage on hand-made
# broken games: a game is kept up to its last legal move (a broken
# variation up to its own), with a comment and a warning at each cut,
# its bytes in the rejects file, exit status 1; what --salvage cannot
# keep is rejected as without it, and a game that reads is the same.
# On the corpus's odd files ($CORPUS/quirks, when there): the same
# rejects file, more games written, and they read again.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"
P="$tooldir/pgn-regularize"
NAME=pgnsalv
. "$top_srcdir/tests/testlib.sh"

# game G FILE MOVETEXT [RESULT]: a game named G, appended to FILE
game() {
	printf '[Event "%s"]\n[Result "%s"]\n\n%s\n\n' "$1" "${4:-1-0}" "$3" \
	    >>"$T/$2"
}

# the movetext written for each game of $T/out, one a line
movetext() {
	awk '/^\[/ { next } /^$/ { if (m != "") print m; m = ""; next }
	    { m = m (m == "" ? "" : " ") $0 } END { if (m != "") print m }' \
	    "$T/out"
}

# main line: an illegal move in the middle, an ambiguous move, a token
# that is no move, a brace comment never closed
game mid main.pgn '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxe8 Nf6 5. O-O 1-0'
game amb main.pgn '1. d4 d5 2. Nf3 Nf6 3. Nd2 e6 1-0'
game junk main.pgn '1. e4 e5 2. Nf3 xyzzy 3. Bc4 1-0'
game brace main.pgn '1. e4 e5 2. Nf3 {never closed 1-0'
expect 1 "$P" --salvage --rejects="$T/rej.pgn" "$T/main.pgn"
cmp -s "$T/rej.pgn" "$T/main.pgn" ||
    fail "main line: the rejects file is not the input"
movetext >"$T/got"
cat >"$T/want" <<'OUT'
1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 { salvaged: 4. Bxe8: illegal move, at line 4 col 34 } *
1. d4 d5 2. Nf3 Nf6 { salvaged: 3. Nd2: ambiguous move, at line 9 col 24 } *
1. e4 e5 2. Nf3 { salvaged: 2... xyzzy: unreadable move, at line 14 col 17 } *
1. e4 e5 2. Nf3 { salvaged: brace comment never closed, at line 19 col 17 } *
OUT
cmp -s "$T/got" "$T/want" || fail "main line: $(diff "$T/want" "$T/got")"
[ "$(grep -c '^\[Result "\*"\]$' "$T/out")" -eq 4 ] ||
    fail "main line: the Result tags: $(grep Result "$T/out")"
cat >"$T/want" <<OUT
pgn-regularize: $T/main.pgn:4:34: warning: game 1: 4. Bxe8: illegal move: game kept up to ply 6
pgn-regularize: $T/main.pgn:9:24: warning: game 2: 3. Nd2: ambiguous move: game kept up to ply 4
pgn-regularize: $T/main.pgn:14:17: warning: game 3: 2... xyzzy: unreadable move: game kept up to ply 3
pgn-regularize: $T/main.pgn:19:17: warning: game 4: brace comment never closed: game kept up to ply 3
OUT
cmp -s "$T/err" "$T/want" || fail "main line: $(diff "$T/want" "$T/err")"
# the same games without --salvage: all rejected, nothing written
expect 1 "$P" "$T/main.pgn"
[ -s "$T/out" ] && fail "without --salvage: written: $(cat "$T/out")"
[ "$(grep -c ': game [1-4]: ' "$T/err")" -eq 4 ] ||
    fail "without --salvage: $(cat "$T/err")"

# variations: cut where they break (dropped when no move is left), in
# nested variations too; the main line goes on with its result
game var var.pgn '1. e4 (1. d4 d5 2. Qxh7 e6) (1. c4 Kxe5) 1... e5 2. Nf3 (2. N@f3) Nc6 (2... c5 (2... d6 3. Ke3) 3. Nc3 Qxh7 4. d4) 3. Bc4 1-0'
expect 1 "$P" --salvage --rejects="$T/rej.pgn" "$T/var.pgn"
cmp -s "$T/rej.pgn" "$T/var.pgn" ||
    fail "variations: the rejects file is not the input"
movetext >"$T/got"
cat >"$T/want" <<'OUT'
1. e4 ( 1. d4 d5 { salvaged: 2. Qxh7: illegal move, at line 4 col 20 } ) ( 1. c4 { salvaged: 1... Kxe5: illegal move, at line 4 col 36 } ) 1... e5 2. Nf3 { salvaged: 2. N@f3: unreadable move, at line 4 col 61 } 2... Nc6 ( 2... c5 3. Nc3 { salvaged: 3... Qxh7: illegal move, at line 4 col 104 } ) ( 2... d6 { salvaged: 3. Ke3: illegal move, at line 4 col 92 } ) 3. Bc4 1-0
OUT
cmp -s "$T/got" "$T/want" || fail "variations: $(diff "$T/want" "$T/got")"
grep -q '^\[Result "1-0"\]$' "$T/out" || fail "variations: the result"
[ "$(grep -c ': warning: game 1: .*: variation cut$' "$T/err")" -eq 5 ] ||
    fail "variations: $(cat "$T/err")"

# a variation never closed: the main line ends at its `(`
game open open.pgn '1. e4 e5 (1... c5 2. Nf3 2. Bc4 1-0'
expect 1 "$P" --salvage "$T/open.pgn"
movetext >"$T/got"
grep -q '^1\. e4 e5 { salvaged: 2\.\.\. Bc4: illegal move, at line 4 col 29 } \*$' \
    "$T/got" || fail "variation never closed: $(cat "$T/got")"

# what --salvage does not keep: no legal move in the main line, a tag
# section that does not read (a bad FEN): rejected as without it
game first none.pgn '1. e5 e5 0-1' 0-1
printf '[Event "fen"]\n[FEN "bad"]\n[Result "*"]\n\n1. e4 xyzzy *\n\n' \
    >>"$T/none.pgn"
expect 1 "$P" --rejects="$T/rej0.pgn" "$T/none.pgn"
mv "$T/err" "$T/err0"
expect 1 "$P" --salvage --rejects="$T/rej.pgn" "$T/none.pgn"
[ -s "$T/out" ] && fail "not salvaged: written: $(cat "$T/out")"
cmp -s "$T/err" "$T/err0" || fail "not salvaged: $(diff "$T/err0" "$T/err")"
cmp -s "$T/rej.pgn" "$T/none.pgn" || fail "not salvaged: the rejects"

# a game that reads is written the same, exit 0; with broken games
# among them, on threads too, in input order
game good good.pgn '1. e4 e5 (1... c5 {Sicilian} 2. Nf3) 2. Nf3 $1 Nc6 1-0'
expect 0 "$P" "$T/good.pgn"
mv "$T/out" "$T/out0"
expect 0 "$P" --salvage "$T/good.pgn"
cmp -s "$T/out" "$T/out0" || fail "a game that reads: $(cat "$T/out")"
cat "$T/main.pgn" "$T/good.pgn" "$T/var.pgn" "$T/none.pgn" \
    "$T/good.pgn" >"$T/all.pgn"
expect 1 "$P" --salvage -j1 --stats "$T/all.pgn"
mv "$T/out" "$T/out1"
grep -q '9 games read, 7 written, 2 rejected' \
    "$T/err" || fail "--stats: $(grep -v warning "$T/err")"
expect 1 "$P" --salvage -j2 "$T/all.pgn"
cmp -s "$T/out" "$T/out1" || fail "-j2: another output"

# the corpus's odd files ($CORPUS/quirks, when there): with --salvage
# the rejects file holds the same bytes as without (nothing lost), more
# games are written, and what is written reads again, every game
counts() {
	sed -n 's/^pgn-regularize: \([0-9]*\) games read, \([0-9]*\) written, \([0-9]*\) rejected in .*/\1 \2 \3/p' "$1"
}
C="${CORPUS:-}"
if [ -n "$C" ] && [ -d "$C/quirks" ]; then
	find "$C/quirks" -type f -name '*.pgn' | LC_ALL=C sort >"$T/quirks"
	# (a file at a time: a file of binary data stops none of the rest)
	while read -r f; do
		"$P" -j1 --stats --rejects="$T/q0.pgn" "$f" >"$T/o0" \
		    2>"$T/e0"
		"$P" -j1 --stats --salvage --rejects="$T/q1.pgn" "$f" \
		    >"$T/o1" 2>"$T/e1"
		set -- $(counts "$T/e0") $(counts "$T/e1")
		[ $# -eq 6 ] || { fail "$f: --stats: $(cat "$T/e1")"; continue; }
		[ "$1" -eq "$4" ] && [ "$5" -ge "$2" ] &&
		    [ "$5" -eq $(($2 + $3 - $6)) ] ||
		    fail "$f: counts $1 $2 $3, with --salvage $4 $5 $6"
		[ -e "$T/q0.pgn" ] && ! cmp -s "$T/q0.pgn" "$T/q1.pgn" &&
		    fail "$f: the rejects differ with --salvage"
		if [ "$5" -gt "$2" ]; then
			echo "$f" >>"$T/salvaged"
			"$P" -j1 "$T/o1" >"$T/o2" 2>"$T/e2" ||
			    fail "$f: salvaged output does not read: $(cat "$T/e2")"
		fi
		rm -f "$T/q0.pgn" "$T/q1.pgn"
	done <"$T/quirks"
	[ -s "$T/salvaged" ] || fail "quirks: no game salvaged"
	echo "quirks: games salvaged in $(wc -l <"$T/salvaged") files"
fi

finish
