#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-pgn2epd.sh: pgn2epd's options, messages, exit status, golden
# outputs (tests/expected/p2e-*), the standard's FEN examples, rejects,
# --unique, --first/--last, --ops, --variations, and the pipeline
# pgn2epd | epd-validate over every PGN fixture (and the same output
# from the FEN writer's plain code, CHESSDATA_NO_SSSE3=1, and its SSSE3
# code, CHESSDATA_NO_AVX2=1).
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"

P="$tooldir/pgn2epd"
V="$tooldir/epd-validate"
X="$top_srcdir/tests/expected"
NAME=p2e
. "$top_srcdir/tests/testlib.sh"

# run EXPECTED-STATUS CMD...: stdout to $T/out, stderr to $T/err
run() {
	want=$1
	shift
	"$@" >"$T/out" 2>"$T/err"
	got=$?
	[ "$got" -eq "$want" ] || {
		cat "$T/err" >&2
		fail "exit $got, expected $want: $*"
	}
}

# lines N: the number of lines of $T/out is N
lines() {
	n=$(grep -c '' "$T/out")
	[ "$n" -eq "$1" ] || fail "$n lines, expected $1: $2"
}

cd "$F" || exit 99

# --help, --version, usage errors
run 0 "$P" --help
grep -q '^Usage: pgn2epd ' "$T/out" || fail "--help text"
for o in --first=N --last=N --ops=LIST --rejects=FILE --stats --unique \
    --variations --output=FILE --quiet; do
	grep -q -- "$o" "$T/out" || fail "--help lists $o"
done
[ -s "$T/err" ] && fail "--help wrote to stderr"
run 0 "$P" -h
run 0 "$P" --version
grep -q '^pgn2epd (chessdata) [0-9]' "$T/out" || fail "--version text"
run 2 "$P" -x p2e-games.pgn
grep -q "^pgn2epd: unknown option '-x'" "$T/err" || fail "-x message"
grep -q "Try 'pgn2epd --help'" "$T/err" || fail "-x hint"
[ -s "$T/out" ] && fail "-x wrote to stdout"
run 2 "$P" --bogus p2e-games.pgn
grep -q "unknown option '--bogus'" "$T/err" || fail "--bogus message"
run 2 "$P" --ops=c0,xx p2e-games.pgn
grep -q "unknown operation 'xx' in --ops" "$T/err" || fail "--ops=xx message"
[ -s "$T/out" ] && fail "--ops=xx wrote to stdout"
run 2 "$P" --first=-1 p2e-games.pgn
grep -q "invalid number '-1' for --first" "$T/err" || fail "--first=-1"
run 2 "$P" --last=x p2e-games.pgn
grep -q "invalid number 'x' for --last" "$T/err" || fail "--last=x"
run 2 "$P" -o
grep -q "needs a value" "$T/err" || fail "-o without argument"

# The standard's FEN examples (16.1.4): 1. e4 c5 2. Nf3 gives exactly
# these positions, the clocks as fmvn and hmvc, an en passant square
# after each double push.
printf '1. e4 c5 2. Nf3 *\n' >"$T/fen.pgn"
run 0 "$P" --ops=fmvn,hmvc "$T/fen.pgn"
cat >"$T/fen.epd" <<'EOF'
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - fmvn 1; hmvc 0;
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 fmvn 1; hmvc 0;
rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 fmvn 2; hmvc 0;
rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - fmvn 2; hmvc 1;
EOF
cmp "$T/out" "$T/fen.epd" || fail "the positions of 16.1.4"
# the same from standard input, and the default operations on it
run 0 "$P" --ops=fmvn,hmvc <"$T/fen.pgn"
cmp "$T/out" "$T/fen.epd" || fail "16.1.4 from standard input"
run 0 "$P" - <"$T/fen.pgn"
lines 4 "default operations"
sed -n 1p "$T/out" | grep -q ' c0 "? - ?, ?, ?, ????.??.??"; c1 "\*"; fmvn 1; hmvc 0; id "1.0"; sm e4;$' ||
    fail "default operations of a game without tags"
sed -n 4p "$T/out" | grep -q 'hmvc 1; id "1.3";$' || fail "no sm at the end"

# An en passant square after every double push, none otherwise: after a
# pawn push two squares (the square it passed over empty before it), the
# square behind the pawn; after any other move, '-'.
run 1 "$P" --ops=sm p2e-games.pgn
awk '
	# the piece on file f (1-8), rank r of a placement, "" if none
	function at(pl, f, r,   rows, row, i, c, col) {
		split(pl, rows, "/")
		row = rows[9 - r]
		col = 0
		for (i = 1; i <= length(row); i++) {
			c = substr(row, i, 1)
			if (c ~ /[1-8]/) {
				col += c
				if (col >= f)
					return ""
			} else if (++col == f)
				return c
		}
		return ""
	}
	prev != "" {
		ep = "-"
		r = substr(prev, 2, 1)
		if (prev ~ /^[a-h][45]$/ && r == ($2 == "b" ? 4 : 5)) {
			mid = r == 4 ? 3 : 6
			if (at(ppl, index("abcdefgh", substr(prev, 1, 1)), mid) == "")
				ep = substr(prev, 1, 1) mid
		}
		if ($4 != ep) {
			print "line " NR ": ep " $4 " after " prev ", expected " ep
			bad = 1
		}
		n++
	}
	{ prev = ""; if ($5 == "sm") { prev = $6; sub(/;$/, "", prev) }; ppl = $1 }
	END { if (n < 60) { print "only " n " moves checked"; bad = 1 }; exit bad }' \
    "$T/out" >&2 || fail "en passant squares"
grep -q ' b KQkq e3 sm' "$T/out" || fail "e3 after 1. e4"
grep -q '^8/3k4/8/8/3Pp3/8/8/4K2R b K d3 sm exd3;$' "$T/out" ||
    fail "d3 before an en passant capture"

# Golden output: default operations, messages, rejects (games 7 and 13,
# the last without a final line end); games read = written + rejected.
run 1 "$P" --stats --rejects="$T/rej" p2e-games.pgn
cmp "$T/out" "$X/p2e-games.epd" || fail "p2e-games.epd differs"
grep -v ' games read, ' "$T/err" | cmp - "$X/p2e-games.err" ||
    fail "p2e-games.err differs"
cmp "$T/rej" "$X/p2e-games.rej" || fail "p2e-games.rej differs"
grep -q '^pgn2epd: 13 games read, 11 written, 2 rejected in ' "$T/err" ||
    fail "--stats line"
# the output is canonical: epd-validate -n leaves it unchanged, with
# no finding at all (a 255-byte c0 string draws no note)
"$V" -n "$X/p2e-games.epd" >"$T/norm" 2>"$T/verr" ||
    fail "epd-validate rejects p2e-games.epd"
[ -s "$T/verr" ] && { cat "$T/verr" >&2; fail "findings on p2e-games.epd"; }
cmp "$T/norm" "$X/p2e-games.epd" || fail "output not canonical"
# c0: escapes, missing tags, the cut at 255 bytes before a UTF-8
# character
grep -q '^[^"]*c0 "Edwards, \\"Steven\\" J\. - Back\\\\slash, FEN examples, 16\.1\.4, Standard, 1994\.03\.12"; c1 "\*";' \
    "$T/out" || fail "c0 with escapes"
long=$(sed -n 's/.* c0 "\(A - B, Long [^"]*\)";.*/\1/p' "$T/out" | sed -n 1p)
[ "$(printf '%s' "$long" | wc -c)" -eq 255 ] || fail "c0 not cut at 255"
case $long in *" é") ;; *) fail "c0 cut inside a character" ;; esac
# Chess960: rights standard chess cannot have name their file (an EPD
# reader takes KQkq as standard chess); a null move: no sm before it
grep -q '^bqnbrkrn/pppppp1p/6p1/8/8/6P1/PPPPPP1P/BQNBRRKN b ge - .*sm O-O;$' \
    "$T/out" || fail "Chess960 castling"
grep -q 'b KQkq e3 c0 "A - B, Null move in the main line, ?, 2025.08.08"; c1 "\*"; fmvn 1; hmvc 0; id "12.1";$' \
    "$T/out" || fail "sm before a null move"

# -o, -q, two inputs: ids go on counting, messages count per file; a
# --plies=N..M: exactly the lines of the whole output whose id ply
# ("game.ply") is in N..M, in order, for ranges open and closed;
# --plies=..M is --first=M+1
"$P" -q --ops=id sample.pgn >"$T/plies-all.epd" 2>/dev/null
for r in 0 3 0..0 1..4 2.. ..5 10..12 40..400 500..; do
	lo=${r%%..*}; hi=${r##*..}
	[ -z "$lo" ] && lo=0
	[ -z "$hi" ] && hi=999999
	awk -v lo="$lo" -v hi="$hi" '{ p = $0; sub(/.*id "[0-9]+\./, "", p); sub(/".*/, "", p)
	    if (p + 0 >= lo && p + 0 <= hi) print }' "$T/plies-all.epd" >"$T/plies-want.epd"
	"$P" -q --ops=id --plies="$r" sample.pgn >"$T/plies.epd" 2>/dev/null
	cmp -s "$T/plies.epd" "$T/plies-want.epd" || fail "--plies=$r: $(wc -l <"$T/plies.epd") lines, expected $(wc -l <"$T/plies-want.epd")"
done
[ "$(wc -l <"$T/plies-want.epd")" -eq 0 ] || fail "--plies=500..: not empty"
"$P" -q --plies=..9 p2e-games.pgn >"$T/a.epd" 2>/dev/null
"$P" -q --first=10 p2e-games.pgn >"$T/b.epd" 2>/dev/null
cmp -s "$T/a.epd" "$T/b.epd" || fail "--plies=..9 is not --first=10"
for bad in 5..3 x 1..y -1 ""; do
	run 2 "$P" --plies="$bad" sample.pgn
done

# missing file is exit 2 and the others are still read
run 1 "$P" -q -o "$T/o.epd" p2e-games.pgn p2e-games.pgn
[ -s "$T/out" ] && fail "-o wrote to stdout"
[ "$(grep -c '' "$T/o.epd")" -eq 170 ] || fail "-o output"
grep -q 'id "14\.0"; sm e4;$' "$T/o.epd" || fail "ids over two inputs"
[ "$(grep -c 'p2e-games.pgn:77:13: game 7: ' "$T/err")" -eq 2 ] ||
    fail "message numbering per file"
run 2 "$P" "$T/missing.pgn" "$T/fen.pgn"
grep -q "missing.pgn" "$T/err" || fail "missing file message"
lines 4 "the file after a missing one"

# --ops: any order, the output in ASCII order; empty: four fields only
run 1 "$P" --ops=sm,id,c1 p2e-games.pgn
sed -n 1p "$T/out" | grep -q ' - c1 "\*"; id "1.0"; sm e4;$' ||
    fail "--ops=sm,id,c1"
run 1 "$P" --ops= p2e-games.pgn
lines 85 "--ops="
grep -q ';' "$T/out" && fail "--ops= wrote an operation"
awk 'NF != 4 { exit 1 }' "$T/out" || fail "--ops= fields"

# --first, --last (counts of positions per line, plies from the start)
run 1 "$P" --ops=id --first=2 p2e-games.pgn
# 11 games, 2 positions each but 1 for the game without moves
lines 21 "--first=2"
grep -q '"1.2"' "$T/out" && fail "--first=2 wrote ply 2"
grep -q '"3.1"' "$T/out" || fail "--first=2 on a game from a position"
run 1 "$P" --ops=id --last=1 p2e-games.pgn
lines 11 "--last=1"
sed -n 1p "$T/out" | grep -q 'id "1.3";$' || fail "--last=1 is the final position"
run 1 "$P" --ops=id --first=1 --last=1 p2e-games.pgn
lines 21 "--first=1 --last=1"
run 1 "$P" --ops=id --first=0 p2e-games.pgn
lines 0 "--first=0"
run 1 "$P" --ops=id --last=1000 p2e-games.pgn
lines 85 "--last=1000"

# --variations: the positions of every line in PGN order, ids with vN
run 1 "$P" --variations --ops=id,sm p2e-games.pgn
cmp "$T/out" "$X/p2e-games-var.epd" || fail "p2e-games-var.epd differs"
grep '"5\.' "$T/out" | sed 's/.* id "\([^"]*\)".*/\1/' | tr '\n' ' ' \
    >"$T/ids"
[ "$(cat "$T/ids")" = "5.0 5.1 5.1v1 5.2v1 5.2v2 5.3v2 5.3v1 5.1v3 5.2 5.3 5.3v4 5.4v4 5.4 " ] ||
    fail "variation order: $(cat "$T/ids")"
run 1 "$P" --variations --ops=id --last=1 p2e-games.pgn
grep '"5\.' "$T/out" | sed 's/.* id "\([^"]*\)".*/\1/' | tr '\n' ' ' \
    >"$T/ids"
[ "$(cat "$T/ids")" = "5.3v2 5.3v1 5.1v3 5.4v4 5.4 " ] ||
    fail "--last=1 with variations: $(cat "$T/ids")"

# --unique: the first occurrence of each four fields; 1. e4 after a
# tempo loss (game 10) is the same, 5. e4 of game 11 is not (no
# en passant square, though the Zobrist key is the same)
run 1 "$P" -u --ops=id p2e-games.pgn
cut -d' ' -f1-4 "$T/out" | sort | uniq -d | grep -q . &&
    fail "--unique wrote a position twice"
"$P" --ops= p2e-games.pgn 2>/dev/null | sort -u >"$T/all"
lines "$(grep -c '' "$T/all")" "--unique count"
grep -q 'id "10.[456]"' "$T/out" && fail "--unique kept a repeated position"
grep -q 'id "10.3"' "$T/out" || fail "--unique dropped a new position"
grep -q '^rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id "11.9";$' \
    "$T/out" || fail "--unique merged two en passant fields"
run 1 "$P" --unique --first=1 --ops= p2e-games.pgn
lines 4 "--unique --first=1"

# pgn2epd | epd-validate on every PGN fixture, with variations: every
# line valid and canonical; games read = written + rejected
for f in "$F"/*.pgn; do
	"$P" -q --stats --variations "$f" >"$T/p.epd" 2>"$T/p.err"
	rc=$?
	[ "$rc" -le 1 ] || fail "$f: exit $rc"
	sed -n 's/^pgn2epd: \([0-9]*\) games read, \([0-9]*\) written, \([0-9]*\) rejected in .*/\1 \2 \3/p' \
	    "$T/p.err" >"$T/counts"
	read -r r w j <"$T/counts" || fail "$f: no --stats line"
	[ "$r" -eq $((w + j)) ] || fail "$f: $r read, $w written, $j rejected"
	msgs=$(grep -v ': warning: ' "$T/p.err" | grep -c ': game [0-9]*: ')
	[ "$msgs" -eq "$j" ] || fail "$f: $msgs messages for $j rejected"
	"$V" -q -n "$T/p.epd" >"$T/v.epd" 2>"$T/v.err" ||
	    { cat "$T/v.err" >&2; fail "$f: epd-validate found invalid lines"; }
	cmp -s "$T/p.epd" "$T/v.epd" || fail "$f: output not canonical"
	# the FEN writer's plain code (no SSSE3) writes the same, and so
	# does its SSSE3 code (no AVX2)
	CHESSDATA_NO_SSSE3=1 "$P" -q --variations "$f" >"$T/p2.epd" 2>/dev/null
	cmp -s "$T/p.epd" "$T/p2.epd" ||
	    fail "$f: CHESSDATA_NO_SSSE3=1 changes the output"
	CHESSDATA_NO_AVX2=1 "$P" -q --variations "$f" >"$T/p2.epd" 2>/dev/null
	cmp -s "$T/p.epd" "$T/p2.epd" ||
	    fail "$f: CHESSDATA_NO_AVX2=1 changes the output"
done
# EPD given to every PGN tool (a file that is all skipped text, one that
# reads as a game without tags, the same after PGN games): one message
# that says so, exit status 1; PGN input draws no such message
grep -v '^#' epd-valid.epd >"$T/bare.epd"
cat sample.pgn epd-valid.epd >"$T/mixed.pgn"
for tool in pgn-regularize pgn-sort pgn-select pgn2json pgn2tsv pgn2pgc \
    pgn2epd; do
	for f in epd-valid.epd epd-odd.epd perft-standard.epd "$T/bare.epd"; do
		"$tooldir/$tool" "$f" >"$T/k.out" 2>"$T/k.err"
		st=$?
		[ "$st" -eq 1 ] || fail "$tool $f: exit $st, expected 1"
		[ "$(grep -c 'looks like EPD, not PGN (use epd-validate or chess-perft)$' \
		    "$T/k.err")" -eq 1 ] ||
		    fail "$tool $f: $(cat "$T/k.err")"
		grep -q "^$tool: $f: looks like EPD" "$T/k.err" ||
		    fail "$tool $f: message form: $(cat "$T/k.err")"
	done
	for f in sample.pgn "$T/mixed.pgn"; do
		"$tooldir/$tool" "$f" >"$T/k.out" 2>"$T/k.err"
		grep -q 'looks like EPD' "$T/k.err" && fail "$tool $f: EPD?"
	done
done
# the memory of one long game (160,000 plies of knights to and fro with
# comments, 4 MB): within 32 times its size of address space beyond
# what a one-move game needs (ulimit -v; it took 46 times when the
# parser kept a board per move), by default, with --variations and
# --unique.  Not under the sanitizers (they reserve far more).
if ! grep -q '^SAN_CFLAGS = .*-fsanitize=' "$top_builddir/Makefile" \
    2>/dev/null; then
	printf '[Event "base"]\n\n1. e4 1-0\n' >"$T/base.pgn"
	base=4096
	while ! (ulimit -v "$base" && exec "$P" -q -j 1 "$T/base.pgn") \
	    >/dev/null 2>&1; do
		base=$((base + 4096))
		[ "$base" -le 1048576 ] || fail "no limit runs a one-move game"
	done
	awk 'BEGIN { printf "[Event \"long\"]\n\n"
		for (i = 0; i < 80000; i++)
			printf "%d. Nf3 {a comment} Nf6 %d. Ng1 {another} Ng8\n",
			    2 * i + 1, 2 * i + 2
		print "1/2-1/2" }' >"$T/long.pgn"
	size=$(wc -c <"$T/long.pgn")
	for o in -q --variations --unique; do
		(ulimit -v $((base + size * 32 / 1024)) &&
		    exec "$P" -q -j 1 $o "$T/long.pgn") >"$T/long.epd" \
		    2>"$T/long.err" ||
		    fail "long game $o: not within 32 times its size: $(head -c 200 "$T/long.err")"
		[ "$(wc -l <"$T/long.epd")" -eq \
		    "$([ $o = --unique ] && echo 4 || echo 320001)" ] ||
		    fail "long game $o: $(wc -l <"$T/long.epd") lines"
	done
fi
finish
