#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-pgc.sh: pgn2pgc and pgc2pgn end to end: help, version, usage
# errors, golden PGC and PGN outputs, the round trip against
# pgn-regularize (with and without --comments, full and reduced), games
# PGC cannot hold (message, exit 1, --rejects), damaged PGC (every kind
# of damage named with its offset, earlier games written), the sample
# cut at every byte offset (never a crash, always a prefix of the
# games), random bytes, and, when the corpus is there, the round trip
# of a real archive.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"
ENC="$tooldir/pgn2pgc"
DEC="$tooldir/pgc2pgn"
REG="$tooldir/pgn-regularize"
NAME=pgc
. "$top_srcdir/tests/testlib.sh"

# --help, --version, usage errors, missing files
for p in pgn2pgc pgc2pgn; do
	P="$tooldir/$p"
	expect 0 "$P" --help
	grep -q "^Usage: $p " "$T/out" || fail "$p --help: no usage line"
	[ -s "$T/err" ] && fail "$p --help wrote to stderr"
	expect 0 "$P" -V
	grep -q "^$p (chessdata) " "$T/out" || fail "$p --version"
	expect 2 "$P" --no-such-option
	grep -q "^$p: unknown option" "$T/err" || fail "$p: bad option message"
	expect 2 "$P" -o
	grep -q "needs a value" "$T/err" || fail "$p: -o without value"
	expect 2 "$P" "$T/no-such-file"
	grep -q "no-such-file: No such file" "$T/err" || fail "$p: missing file"
done

# golden outputs: the PGC of the sample with and without comments, and
# its decoding, which is what pgn-regularize writes
expect 0 "$ENC" --comments "$F/pgc-sample.pgn"
cmp -s "$T/out" "$E/pgc-sample.pgc" || fail "pgc-sample.pgc differs"
[ -s "$T/err" ] && fail "pgn2pgc --comments: stderr not empty"
cp "$T/out" "$T/sample.pgc"
expect 0 "$ENC" "$F/pgc-sample.pgn"
cmp -s "$T/out" "$E/pgc-sample-nc.pgc" || fail "pgc-sample-nc.pgc differs"
grep -q "^pgn2pgc: dropped 4 comments of 2 games (--comments keeps them)$" \
    "$T/err" || fail "no summary of dropped comments"
cp "$T/out" "$T/sample-nc.pgc"
expect 0 "$ENC" -q "$F/pgc-sample.pgn"
[ -s "$T/err" ] && fail "pgn2pgc -q: stderr not empty"
expect 0 "$DEC" "$E/pgc-sample.pgc"
cmp -s "$T/out" "$E/pgc-sample.pgn" || fail "pgc-sample.pgn differs"
cp "$T/out" "$T/sample.pgn"
"$REG" "$F/pgc-sample.pgn" >"$T/reg.pgn" 2>/dev/null
cmp -s "$T/sample.pgn" "$T/reg.pgn" || fail "round trip differs from pgn-regularize"
"$REG" -r "$F/pgc-sample.pgn" >"$T/regr.pgn" 2>/dev/null
expect 0 "$DEC" -r "$T/sample-nc.pgc"
cmp -s "$T/out" "$T/regr.pgn" || fail "--reduced round trip differs"
# standard input, several files, -o, --stats
"$ENC" --comments <"$F/pgc-sample.pgn" | "$DEC" >"$T/out" 2>"$T/err" ||
    fail "pipe: exit status"
cmp -s "$T/out" "$T/reg.pgn" || fail "pipe: round trip differs"
expect 0 "$DEC" -o "$T/two.pgn" --stats "$T/sample.pgc" - <"$T/sample.pgc"
cat "$T/sample.pgn" "$T/sample.pgn" | cmp -s - "$T/two.pgn" || fail "-o, two inputs"
grep -q "^pgc2pgn: 10 games read, 10 written, 0 rejected" "$T/err" ||
    fail "pgc2pgn --stats"
# empty in, empty out
expect 0 "$ENC" /dev/null
[ -s "$T/out" ] && fail "empty PGN gives bytes"
expect 0 "$DEC" /dev/null
[ -s "$T/out" ] && fail "empty PGC gives bytes"

# games that PGC cannot hold, and one that does not read
(cd "$F" && "$ENC" --rejects="$T/rej.pgn" pgc-unfit.pgn) >"$T/out" 2>"$T/err"
[ $? -eq 1 ] || fail "pgc-unfit.pgn: exit status"
cmp -s "$T/err" "$E/pgc-unfit.err" || { fail "pgc-unfit.err differs"; cat "$T/err" >&2; }
cmp -s "$T/rej.pgn" "$E/pgc-unfit.rej" || fail "pgc-unfit.rej differs"
"$DEC" "$T/out" >"$T/fit.pgn" || fail "unfit: the written game does not decode"
[ "$(grep -c '^\[Event ' "$T/fit.pgn")" -eq 1 ] || fail "unfit: not one game written"

# the game of the pgc(5) example: 49 bytes, exactly those of the page
printf '[Event "Club ch"]\n[White "Smith"]\n[Black "Jones"]\n[Result "1-0"]\n\n1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6 4.Qxf7# 1-0\n' >"$T/ex.pgn"
"$ENC" "$T/ex.pgn" >"$T/ex.pgc" || fail "example: exit status"
hex=$(od -An -tx1 "$T/ex.pgc" | tr -d ' \n')
[ "$hex" = "0107436c7562206368013f0a3f3f3f3f2e3f3f2e3f3f013f05536d697468054a6f6e657303312d3007000d0c0e07020b1c" ] ||
    fail "example: bytes differ from pgc(5): $hex"
printf '[Event "Club ch"]\n[White "Smith"]\n[Black "Jones"]\n[Result "1-0"]\n[ECO "C20"]\n\n1.e4 e5 2.Qh5? (2.Nf3) Nc6 {Attack on f7} 3.Bc4 Nf6 4.Qxf7# 1-0\n' >"$T/ex2.pgn"
"$ENC" --comments "$T/ex2.pgn" >"$T/ex2.pgc" || fail "example 2: exit status"
hex=$(od -An -tx1 "$T/ex2.pgc" | tr -d ' \n')
[ "$hex" = "0502054576656e7407436c7562206368020453697465013f0204446174650a3f3f3f3f2e3f3f2e3f3f0205526f756e64013f0205576869746505536d6974680205426c61636b054a6f6e65730206526573756c7403312d30020345434f0343323003030d0c0e070208030109090301070b0c0041747461636b206f6e2066370303020b1c06" ] ||
    fail "example 2: bytes differ from pgc(5): $hex"
[ "$(wc -c <"$T/ex2.pgc")" -eq 133 ] || fail "example 2: not 133 bytes"

# damaged PGC: each case names the offset; the game before it is kept
damaged() {
	# damaged NAME 'printf bytes' 'message regex'
	cp "$T/ex.pgc" "$T/$1.pgc"
	printf "$2" >>"$T/$1.pgc"
	expect 1 "$DEC" "$T/$1.pgc"
	grep -q "^pgc2pgn: $T/$1.pgc: offset $3\$" "$T/err" ||
	    { fail "damaged $1: message"; cat "$T/err" >&2; }
	[ "$(grep -c '^\[Event ' "$T/out")" -eq 1 ] || fail "damaged $1: first game lost"
}
damaged marker '\014' '49: unknown marker 0x0c'
damaged marker-ff '\000\377' '50: unknown marker 0xff'
damaged trunc-string '\005\002\005Ev' '50: record 0x02 truncated at offset 54'
damaged trunc-seq '\005\003\002\015' '50: record 0x03 truncated at offset 53'
damaged trunc-game '\005\003\001\015' '53: end of input inside the game that begins at offset 49 (0x05 without 0x06)'
damaged ordinal '\001\000\000\000\000\000\000\001*\001\000\024' '60: move ordinal 20 beyond the 20 legal moves'
damaged ordinal-2 '\005\003\002\015\377\006' '53: move ordinal 255 beyond the 20 legal moves'
damaged rav-end '\005\003\001\015\011\006' '53: variation end (0x09) without 0x08'
damaged rav-open '\005\003\001\015\010\003\001\000\006' '57: game end (0x06) inside a variation (0x08 without 0x09)'
damaged rav-first '\005\010' '50: variation (0x08) before any move of its line'
damaged rav-no-move '\005\003\001\015\010\010\003\001\000\011\011\006' '57: move in a variation (0x08) that follows no move'
damaged tag-outside '\002\001a\001b' '49: record 0x02 outside a game (no 0x05 before it)'
damaged rav-outside '\011' '49: record 0x09 outside a game (no 0x05 before it)'
damaged tag-late '\005\003\001\015\002\001a\001b\006' '53: tag pair (0x02) after the movetext'
damaged tag-name '\005\002\002a]\001b\006' '50: tag name (0x02) that PGN cannot write'
damaged tag-name-ctl '\005\002\002a\006\001b\006' '50: tag name (0x02) that PGN cannot write'
damaged nested '\005\005' '50: record 0x05 inside the game that begins at offset 49'
damaged reduced-inside '\005\001' '50: record 0x01 inside the game that begins at offset 49'
damaged bad-fen '\005\002\003FEN\0038/8\006' '59: start position: .*'

# a small sample (both examples) cut at every offset: exit 0 at a game
# boundary, else 1 with an offset message; never a crash; the games
# written are always the first games of the whole decoding
# (check_pgc does the same in-process on the larger sample)
cat "$T/ex.pgc" "$T/ex2.pgc" >"$T/small.pgc"
"$DEC" "$T/small.pgc" >"$T/small.pgn" || fail "small sample: exit status"
size=$(wc -c <"$T/small.pgc")
n=0
while [ "$n" -lt "$size" ]; do
	head -c "$n" "$T/small.pgc" >"$T/cut.pgc"
	"$DEC" "$T/cut.pgc" >"$T/cut.pgn" 2>"$T/err"
	rc=$?
	if [ "$rc" -gt 1 ]; then
		fail "cut at $n: exit $rc"
	elif [ "$n" -eq 0 ] || [ "$n" -eq 49 ]; then
		[ "$rc" -eq 0 ] || fail "cut at $n: a game boundary, exit $rc"
	elif [ "$rc" -ne 1 ] || ! grep -q "^pgc2pgn: $T/cut.pgc: offset [0-9]*: " "$T/err"; then
		fail "cut at $n: exit $rc, no offset message"
	fi
	len=$(wc -c <"$T/cut.pgn")
	cmp -s -n "$len" "$T/cut.pgn" "$T/small.pgn" ||
	    fail "cut at $n: output is not a prefix"
	n=$((n + 1))
done

# random bytes: never a crash, never a hang
if [ -r /dev/urandom ]; then
	i=0
	while [ "$i" -lt 40 ]; do
		head -c $((i * 37 + 1)) /dev/urandom >"$T/rand.pgc"
		"$DEC" "$T/rand.pgc" >/dev/null 2>"$T/err"
		rc=$?
		[ "$rc" -le 1 ] || { fail "random bytes: exit $rc"; cp "$T/rand.pgc" "${TMPDIR:-/tmp}/pgc-crash.pgc"; }
		i=$((i + 1))
	done
fi

# pgn2pgc reports a game PGC cannot hold at the offending token, as
# every tool: a null move in a variation, a tag named too long
printf '[Event "x"]\n\n1. e4 (1. d4 d5\n2. c4 -- 3. Nc3) e5 *\n' >"$T/nullvar.pgn"
expect 1 "$ENC" "$T/nullvar.pgn"
grep -q "^pgn2pgc: $T/nullvar.pgn:4:7: game 1: 2... --: a null move" \
    "$T/err" || fail "null move in a variation: $(cat "$T/err")"
n300=$(printf '%300s' '' | tr ' ' n)
printf '[Event "x"]\n[Site "y"]\n  [%s "v"]\n\n1. e4 *\n' "$n300" >"$T/name.pgn"
expect 1 "$ENC" "$T/name.pgn"
grep -q "^pgn2pgc: $T/name.pgn:3:3: game 1: tag name nnnn" "$T/err" ||
    fail "long tag name: $(cat "$T/err")"

# no limits the decoder alone sets: what pgn2pgc writes, pgc2pgn reads
# (a game of 5,000 tags; one of 1,100,000 plies), and the game after
# it too
awk 'BEGIN {
	printf "[Event \"tags\"]\n"
	for (i = 0; i < 5000; i++)
		printf "[T%04d \"%d\"]\n", i, i
	printf "\n1. e4 e5 *\n\n"
	printf "[Event \"plies\"]\n\n"
	split("Nf3 Nf6 Ng1 Ng8", m, " ")
	for (i = 0; i < 1100000; i++) {
		if (i % 2 == 0)
			printf "%d. ", i / 2 + 1
		printf "%s%s", m[i % 4 + 1], i % 10 == 9 ? "\n" : " "
	}
	printf "*\n\n[Event \"after\"]\n\n1. d4 *\n"
}' >"$T/huge.pgn"
"$REG" -q "$T/huge.pgn" >"$T/huge-reg.pgn" || fail "huge: pgn-regularize"
"$ENC" -q "$T/huge.pgn" >"$T/huge.pgc" || fail "huge: pgn2pgc: exit $?"
"$DEC" "$T/huge.pgc" >"$T/huge-rt.pgn" 2>"$T/err" ||
    fail "huge: pgc2pgn: $(cat "$T/err")"
cmp -s "$T/huge-reg.pgn" "$T/huge-rt.pgn" || fail "huge: round trip differs"
[ "$(grep -c '^\[Event ' "$T/huge-rt.pgn")" -eq 3 ] || fail "huge: games lost"
rm -f "$T/huge.pgn" "$T/huge-reg.pgn" "$T/huge.pgc" "$T/huge-rt.pgn"

# the corpus: the OTB archive round trip, with comments and reduced
if [ -n "${CORPUS:-}" ] && [ -r "$CORPUS/pgn/otb-14539.pgn.xz" ] &&
    command -v xz >/dev/null 2>&1; then
	xz -dc "$CORPUS/pgn/otb-14539.pgn.xz" >"$T/otb.pgn"
	"$REG" -q "$T/otb.pgn" >"$T/otb-reg.pgn" 2>/dev/null
	"$ENC" -q --comments "$T/otb.pgn" 2>/dev/null | "$DEC" >"$T/otb-rt.pgn" ||
	    fail "corpus: pgc2pgn failed"
	cmp -s "$T/otb-reg.pgn" "$T/otb-rt.pgn" || fail "corpus: round trip differs"
	"$REG" -q -r "$T/otb.pgn" >"$T/otb-regr.pgn" 2>/dev/null
	"$ENC" -q "$T/otb.pgn" 2>/dev/null | "$DEC" -r >"$T/otb-rtr.pgn" ||
	    fail "corpus: pgc2pgn -r failed"
	cmp -s "$T/otb-regr.pgn" "$T/otb-rtr.pgn" || fail "corpus: reduced round trip differs"
fi
# NAGs before a first move, variations without a move, rule 11: the
# round trip equals pgn-regularize.
"$REG" -q "$top_srcdir/tests/files/export-decisions.pgn" >"$T/ed-reg.pgn" 2>/dev/null
"$ENC" -q --comments "$top_srcdir/tests/files/export-decisions.pgn" \
    2>/dev/null | "$DEC" >"$T/ed-rt.pgn" || fail "export decisions: pgc2pgn failed"
cmp -s "$T/ed-reg.pgn" "$T/ed-rt.pgn" || fail "export decisions: round trip differs"
exit $status
