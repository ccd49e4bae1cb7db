#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-chess-perft.sh: chess-perft's options, messages, exit status and
# golden outputs (tests/expected/perft-*; the --divide ones were checked
# against Stockfish's "go perft").
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"

P="$tooldir/chess-perft"
X="$top_srcdir/tests/expected"
NAME=perft
. "$top_srcdir/tests/testlib.sh"
KIWI='r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -'
known=0

# A known bug of the library: reported, counted, and the test fails at
# the end so it stays visible.
known_bug() {
	echo "KNOWN BUG: $*" >&2
	known=$((known + 1))
}

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

cd "$F" || exit 99

# --help, --version
run 0 "$P" --help
grep -q '^Usage: chess-perft ' "$T/out" || fail "--help text"
grep -q -- '--divide' "$T/out" || fail "--help lists --divide"
[ -s "$T/err" ] && fail "--help wrote to stderr"
run 0 "$P" -h
grep -q '^Usage: chess-perft ' "$T/out" || fail "-h text"
run 0 "$P" --version
grep -q '^chess-perft (chessdata) [0-9][0-9.]*$' "$T/out" || fail "--version text"
run 0 "$P" -V
grep -q '^chess-perft (chessdata) ' "$T/out" || fail "-V text"

# usage errors: exit 2, a message and a hint, nothing on stdout
run 2 "$P" -x perft-blocks.perft
grep -q "^chess-perft: unknown option '-x'" "$T/err" || fail "-x message"
grep -q "Try 'chess-perft --help'" "$T/err" || fail "-x hint"
[ -s "$T/out" ] && fail "-x wrote to stdout"
run 2 "$P" --bogus perft-blocks.perft
grep -q "unknown option '--bogus'" "$T/err" || fail "--bogus message"
run 2 "$P" -d
grep -q "needs a value" "$T/err" || fail "-d without value"
run 2 "$P" --depth=abc perft-blocks.perft
grep -q "bad depth 'abc'" "$T/err" || fail "--depth=abc message"
run 2 "$P" --depth=-1 perft-blocks.perft
run 2 "$P" --depth=33 perft-blocks.perft
[ -s "$T/out" ] && fail "a bad depth wrote to stdout"

# golden outputs: block form, EPD form, --divide (standard and 960)
run 0 "$P" -q perft-blocks.perft
cmp "$T/out" "$X/perft-blocks.out" || fail "perft-blocks.out differs"
[ -s "$T/err" ] && fail "perft-blocks.perft: stderr not empty"
run 0 "$P" -q --depth=2 perft-standard.epd
cmp "$T/out" "$X/perft-epd.out" || fail "perft-epd.out differs"
run 0 "$P" -q --divide -d 3 -f "$KIWI"
cmp "$T/out" "$X/perft-divide.out" || fail "perft-divide.out differs"
run 0 "$P" -q --960 --divide -d 2 -f '4k3/8/8/8/8/8/8/R5KR w HA - 0 1'
cmp "$T/out" "$X/perft-divide-960.out" || fail "perft-divide-960.out differs"
# the divide lines add up to the count of the position
sum=$(awk -F': ' 'NF == 2 { s += $2 } END { print s }' "$X/perft-divide.out")
[ "$sum" = 97862 ] || fail "divide lines add up to $sum, not 97862"

# standard input, "-", -o
run 0 sh -c "'$P' -q <perft-blocks.perft"
cmp "$T/out" "$X/perft-blocks.out" || fail "stdin output"
run 0 "$P" -q -o "$T/o.perft" - <perft-blocks.perft
[ -s "$T/out" ] && fail "-o also wrote to stdout"
cmp "$T/o.perft" "$X/perft-blocks.out" || fail "-o output"
# the output is itself a suite that passes
run 0 "$P" -q "$T/o.perft"
cmp "$T/out" "$X/perft-blocks.out" || fail "output read back"

# --depth limits what is counted and checked
sed 's/^perft 3 8902$/perft 3 8903/' perft-blocks.perft >"$T/wrong.perft"
run 0 "$P" -q --depth=2 "$T/wrong.perft"
grep -q '^perft 3 ' "$T/out" && fail "--depth=2 counted depth 3"
run 1 "$P" -q --depth=3 "$T/wrong.perft"
grep -q "^chess-perft: $T/wrong.perft:10: D3: 8902 nodes, expected 8903\$" \
    "$T/err" || fail "wrong count message (block form)"
[ "$(wc -l <"$T/err")" -eq 1 ] || fail "one message for one wrong count"
run 1 "$P" -q "$T/wrong.perft"
# the other blocks are still counted and written
[ "$(grep -c '^id ' "$T/out")" -eq 7 ] || fail "blocks after a wrong count"
run 0 "$P" -q -d 1 -f '4k3/8/8/8/8/8/8/4K3 w - -'
[ "$(cat "$T/out")" = '4k3/8/8/8/8/8/8/4K3 w - - ;D1 5' ] ||
    fail "-d 1 output: $(cat "$T/out")"
run 0 "$P" -q -d 0 -f '4k3/8/8/8/8/8/8/4K3 w - -'

# EPD lines: a wrong count, a bad FEN with its column, a bad count
cat >"$T/bad.epd" <<'EOF'
# comment

4k3/8/8/8/8/8/8/4K3 w - - ;D1 5
4k3/8/8/8/8/8/8/4KX2 w - - ;D1 5
4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 5 ;D2 26
4k3/8/8/8/8/8/8/3KK3 w - - ;D1 5
4k3/8/8/8/8/8/8/4K3 w - - ;D1
4k3/8/8/8/8/8/8/4K3 b - - ;D1 5
EOF
run 1 "$P" -q "$T/bad.epd"
grep -q "^chess-perft: $T/bad.epd:4:19: unexpected character" "$T/err" ||
    fail "bad FEN message with file:line:col"
grep -q "^chess-perft: $T/bad.epd:5: D2: 25 nodes, expected 26\$" "$T/err" ||
    fail "wrong count message (EPD form)"
grep -q "^chess-perft: $T/bad.epd:6:1: more than one king" "$T/err" ||
    fail "two kings message"
grep -q "^chess-perft: $T/bad.epd:7: .*D1" "$T/err" ||
    fail "count missing message"
[ "$(wc -l <"$T/err")" -eq 4 ] || fail "four messages for four bad lines"
[ "$(wc -l <"$T/out")" -eq 3 ] || fail "the three good lines are written"
grep -q '^4k3/8/8/8/8/8/8/4K3 b - - ;D1 5$' "$T/out" || fail "line after errors"
# a bad -f position
run 1 "$P" -q -f 'not a fen'
grep -q "^chess-perft: <argument>" "$T/err" || fail "bad -f message"

# refused positions: the side not to move in check, castling without rook
run 1 "$P" -q -d 1 -f '4k3/8/8/8/8/8/8/4RK2 w - -'
grep -q 'not to move is in check' "$T/err" || fail "opposite check refused"
run 1 "$P" -q -d 1 -f '4k3/8/8/8/8/8/8/4K3 w K -'
grep -q 'castling' "$T/err" || fail "castling without rook refused"
# ... also after a fault the generator tolerates (a pawn on the last
# rank, too many pieces): never a king capture
for fen in 'P3k3/8/8/8/8/8/4R3/4K3 w - - 0 1' \
    '8/8/8/8/8/8/NNNNNNNN/NNN3Kk w - - 0 1'; do
	run 1 "$P" -q -d 1 --divide -f "$fen"
	grep -q 'not to move is in check' "$T/err" ||
	    fail "opposite check after a tolerated fault: $fen"
	[ ! -s "$T/out" ] || fail "counted: $fen: $(cat "$T/out")"
done
run 1 "$P" -q -d 1 -f 'P3k3/8/8/8/8/8/8/4K3 w K -'
grep -q 'castling' "$T/err" || fail "castling without rook after a pawn"
run 0 "$P" -q -d 1 -f 'P3k3/8/8/8/8/8/4R3/4K3 b - - 0 1'
grep -q ';D1 4$' "$T/out" || fail "tolerated pawn on the last rank"

# a wrong count in the block form is reported at its perft line (also
# above)
printf 'id a\nepd 4k3/8/8/8/8/8/8/4K3 w - -\nperft 1 5\nperft 2 26\n' \
    >"$T/wrong.perft"
run 1 "$P" -q "$T/wrong.perft"
[ "$(cat "$T/err")" = "chess-perft: $T/wrong.perft:4: D2: 25 nodes, \
expected 26" ] || fail "block count message: $(cat "$T/err")"
# but positions no game reaches are counted (python-chess tricky.perft)
run 0 "$P" -q -d 3 -f '3R4/8/q4k2/2B5/1NK5/3b4/8/8 w - -'
grep -q ';D1 4 ;D2 125 ;D3 2854$' "$T/out" || fail "align-diag-1 counts"
# Chess960 rights are found without --960
run 0 "$P" -q -d 2 -f 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9'
grep -q ';D1 21 ;D2 528$' "$T/out" || fail "Chess960 without --960"

# --stats: one line on stderr
run 0 "$P" -q --stats perft-blocks.perft
grep -q '^chess-perft: 7 positions, 18 counts checked, 0 mismatches, [0-9]* nodes in ' \
    "$T/err" || fail "--stats line: $(cat "$T/err")"

# an unreadable file is a system error (exit 2, chess-perft(1)); the
# other files are still read
"$P" -q perft-blocks.perft "$T/nosuch.perft" >"$T/out" 2>"$T/err"
st=$?
grep -q "^chess-perft: $T/nosuch.perft: No such file" "$T/err" ||
    fail "missing file message"
cmp "$T/out" "$X/perft-blocks.out" || fail "files before a missing one"
[ "$st" -eq 2 ] || known_bug "missing file: exit $st, chess-perft(1) says 2"

# an en passant square no double push made is refused or ignored, never
# a capture (Stockfish: 6 moves here)
"$P" -q -d 1 --divide -f '4k3/8/8/8/4p3/8/3P4/4K3 w - e3' >"$T/out" 2>"$T/err"
grep -q '^d2e3:' "$T/out" && known_bug "backward en passant d2e3 generated"

# a write error is a system error
if [ -w /dev/full ]; then
	"$P" -q perft-blocks.perft >/dev/full 2>"$T/err"
	st=$?
	[ "$st" -eq 2 ] || fail "write error: exit $st"
	[ -s "$T/err" ] || fail "write error: no message"
fi

# input of the wrong kind: PGN and binary data get one message each and
# are not read (exit 2); the other files are
"$tooldir/pgn2pgc" sample.pgn >"$T/s.pgc" 2>/dev/null
"$P" -q -d 1 sample.pgn "$T/s.pgc" perft-blocks.perft >"$T/out" 2>"$T/err"
st=$?
[ "$st" -eq 2 ] || fail "wrong kind: exit $st"
[ "$(wc -l <"$T/err")" -eq 2 ] || fail "wrong kind: $(cat "$T/err")"
grep -q "^chess-perft: sample.pgn: looks like PGN, not EPD (use pgn2epd \
to get its positions); not read$" "$T/err" || fail "PGN message"
grep -q "^chess-perft: $T/s.pgc: binary data, not EPD; not read$" \
    "$T/err" || fail "binary message"
grep -q '^epd ' "$T/out" || fail "files after PGN and PGC"

# a compressed input cut by damage: its cut last line is no position
printf '%s\n%s' '4k3/8/8/8/8/8/8/4K3 w - - ;D1 5' \
    '4k3/8/8/8/8/8/8/3K4 w - - ;D1 5' >"$T/cut.epd"
"$P" -q "$T/cut.epd" >"$T/out" 2>"$T/err" || fail "plain last line"
[ "$(wc -l <"$T/out")" -eq 2 ] || fail "last line without LF"
for z in xz zstd; do
	command -v $z >/dev/null || continue
	$z -c "$T/cut.epd" >"$T/cut.z"
	size=$(wc -c <"$T/cut.z")
	dd if="$T/cut.z" of="$T/cut4.z" bs=1 count=$((size - 4)) 2>/dev/null
	"$P" -q "$T/cut4.z" >"$T/out" 2>"$T/err"
	st=$?
	[ "$st" -eq 2 ] || fail "$z cut: exit $st"
	[ "$(cat "$T/out")" = '4k3/8/8/8/8/8/8/4K3 w - - ;D1 5' ] ||
	    fail "$z cut: output $(cat "$T/out")"
	grep -q ':2: last line cut short by the read error' "$T/err" ||
	    fail "$z cut: $(cat "$T/err")"
done

[ "$known" -eq 0 ] || fail "$known known core bug(s), see above"
finish
