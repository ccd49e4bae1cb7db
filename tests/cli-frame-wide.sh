#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-frame-wide.sh: the framer's wide scan of movetext (sixty-four
# bytes at a time, lib/pgn/frame.c: wide_next) frames every input as
# the narrow one does, byte at a time (CHESSDATA_NARROW_FRAME=1), with
# AVX2 and without (CHESSDATA_NO_AVX2=1, the SSE2 code), through
# pgn-split -l 100 (parts of 100 games), pgn-select (each game's bytes
# as they came) and pgn-select -c, and pgn-regularize (games, messages
# with their line and column, exit status):
# - seeded text (python3): games whose movetext holds each of the 256
#   byte values at each place of a 64-byte block and around it, in
#   comments and out, comments that end on their line, that span
#   blocks, that hold line ends or tag pairs, and random mixes of the
#   bytes the framer looks at; tag values of each length up to 150
#   (pgn-regularize writes them as they were);
# - the archives of the shared corpus (pgn/ but the TCEC archive,
#   online/, quirks/), when it is there.
# The fuzz harness tests/fuzz/fuzz_pgn_frame.c compares the two scans
# on every input too; its replay runs here with CHESSDATA_NO_AVX2=1.
# Skipped (77) with neither python3 nor the corpus.
set -u
NAME=framewide
. "$top_srcdir/tests/testlib.sh"
: "${tooldir:?}"
B=$tooldir
C=${CORPUS:-}

# run TOOL ARG...: the tool of the build, the narrow scan when $narrow
# is 1, without AVX2 when $noavx is 1
run() {
	tool=$1
	shift
	env CHESSDATA_NARROW_FRAME="$narrow" CHESSDATA_NO_AVX2="$noavx" \
	    "$B/$tool" "$@"
}

# frame FILE WHAT: the framing of FILE by the three tools into
# $T/WHAT.* (the parts, the outputs, the messages and the exit status)
frame() {
	rm -rf "$T/parts"
	run pgn-split -q -l 100 -d "$T/parts" "$1" 2>"$T/$2.split.err"
	echo "split $?" >"$T/$2.rc"
	find "$T/parts" -type f | sort | xargs cat >"$T/$2.parts"
	ls "$T/parts" | wc -l >>"$T/$2.rc"
	run pgn-select -c "$1" >"$T/$2.count" 2>"$T/$2.select.err"
	echo "select $?" >>"$T/$2.rc"
	run pgn-select -q -j 1 "$1" >"$T/$2.games" 2>"$T/$2.games.err"
	echo "select games $?" >>"$T/$2.rc"
	run pgn-regularize -q -j 1 "$1" >"$T/$2.reg" 2>"$T/$2.reg.err"
	echo "regularize $?" >>"$T/$2.rc"
	for f in parts count games reg split.err select.err reg.err; do
		cksum <"$T/$2.$f"
	done >>"$T/$2.rc"
}

# compare FILE: the wide scan (AVX2 where the processor has it, then
# SSE2) frames FILE as the narrow one
compare() {
	narrow=1 noavx=
	frame "$1" narrow
	narrow=
	frame "$1" wide
	cmp -s "$T/narrow.rc" "$T/wide.rc" ||
	    fail "$1: the wide scan frames it otherwise than the narrow one"
	noavx=1
	frame "$1" sse2
	cmp -s "$T/narrow.rc" "$T/sse2.rc" ||
	    fail "$1: the SSE2 scan frames it otherwise than the narrow one"
}

ran=0
if command -v python3 >/dev/null 2>&1; then
	python3 - "$T/bytes.pgn" "$T/tags.pgn" "$T/tags.want" <<'EOF'
import random
import sys

r = random.Random(64)
out = []
clk = b"{[%clk 0:02:59]} "


def game(n, movetext, nl=b"\n"):
    out.append(b'[Event "w%d"]' % n + nl + b'[Result "*"]' + nl + nl +
               movetext + nl + nl)


n = 0
# each byte value at each place of a block and around it, bare and
# in a comment, after a run of comments that end on their line
for c in range(256):
    for at in range(0, 72, 5):
        lead = (b"1. e4 " + clk + b"e5 " + clk) * (1 + at % 3)
        pad = b"x" * at
        game(n, lead + pad + bytes([c]) + b" 2. Nf3 " + clk + b"1-0")
        game(n + 1, lead + b"{" + pad + bytes([c]) + b"} 2. d4 *")
        n += 2
# the bytes the framer looks at, and others, at random: comments over
# blocks and lines, strings, variations, markers, escapes, CR LF
pieces = [b"1.", b" e4", b" Nf3", b" O-O", b" 1-0", b" 0-1", b" 1/2-1/2",
          b" *", b" {", b"}", b" (", b")", b";", b"%", b"\"", b"[", b"]",
          b"\n", b"\r\n", b"\n\n", b"\n[Event \"x\"]\n", b"-", b"/",
          b"\xc2\xbd", b"\xe2\x80\x93", b"{[%clk 0:00:01]}", b" " * 70,
          b"a" * 40, b"\t", b"\\", b"$1", b"\x00", b"\x01", b"\x7f"]
for k in range(1500):
    mt = b"".join(r.choice(pieces) for _ in range(r.randrange(1, 90)))
    game(n, b"1. e4 " + mt + b" *", b"\r\n" if k % 7 == 0 else b"\n")
    n += 1
open(sys.argv[1], "wb").write(b"".join(out))
# tag values of each length from 0 to 150 (the usual tag lines are read
# sixteen bytes at a time, values up to 127 bytes), LF or CR LF
chars = b"abcXYZ019 :/.-_%{};"
tags, want = [], []
for k in range(453):
    val = bytes(r.choice(chars) for _ in range(k % 151)).strip()
    nl = b"\r\n" if k >= 302 else b"\n"
    tags.append(b'[Event "t%d"]' % k + nl + b'[Site "' + val + b'"]' + nl +
                b'[Annotator "' + val[::-1] + b'"]' + nl + nl + b"1. e4 *" +
                nl + nl)
    want.append(b'[Site "' + val + b'"]\n')
open(sys.argv[2], "wb").write(b"".join(tags))
open(sys.argv[3], "wb").write(b"".join(want))
EOF
	compare "$T/bytes.pgn"
	compare "$T/tags.pgn"
	"$B/pgn-regularize" -q -j 1 "$T/tags.pgn" >"$T/tags.out" 2>"$T/tags.err" ||
	    fail "tags.pgn: pgn-regularize: $(head -c 300 "$T/tags.err")"
	grep '^\[Site ' "$T/tags.out" | cmp -s - "$T/tags.want" ||
	    fail "tags.pgn: the Site values are not as written"
	ran=1
else
	echo "note: no python3: no seeded text"
fi

if [ -n "$C" ] && [ -d "$C/pgn" ]; then
	for f in "$C"/pgn/*.xz "$C"/online/*.xz "$C"/quirks/*/*; do
		case $f in
		*/tcec-*) continue ;;	# (433 MB: bench/framer compares it)
		esac
		[ -f "$f" ] || continue
		# an archive decompressed once, not by each of the twelve
		# runs (the compressed readers: cli-compressed.sh)
		case $f in
		*.xz)
			g="$T/${f##*/}"
			g=${g%.xz}
			xz -dc "$f" >"$g" || fatal "xz -dc $f"
			compare "$g"
			rm -f "$g" ;;
		*) compare "$f" ;;
		esac
	done
	ran=1
else
	echo "note: no corpus at '$C': the seeded text only"
fi
[ "$ran" -eq 1 ] || skip "neither python3 nor the corpus"

# the fuzz harness's kept inputs, with the SSE2 code
if [ -x "$top_builddir/tests/fuzz/replay_pgn_frame" ]; then
	(cd "$top_srcdir" && CHESSDATA_NO_AVX2=1 \
	    "$top_builddir/tests/fuzz/replay_pgn_frame") >"$T/replay" 2>&1 ||
	    fail "replay_pgn_frame with CHESSDATA_NO_AVX2=1: $(tail -3 "$T/replay")"
fi
finish
