#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-class-scale.sh: time linear and memory flat on hostile input, for
# every tool of the build (built_tools: bin_PROGRAMS), from a pipe and
# from compressed input as from a file; and decompression bombs.
#
# Each tool reads an input kind (tool_kind of tests/testlib.sh: PGN,
# EPD or PGC); a tool missing from that table fails the test, so that
# a new tool is covered the day it is added.  The inputs of each kind, made here:
#   PGN: blanks  a line of spaces, tabs and CRs without a line end
#        game    one game of short moves (knights to and fro)
#        comment one game with a comment of many lines
#        tag     one game with one tag value of all the bytes
#   EPD: line    a line of letters without a line end
#   PGC: game    the game above in PGC
# Each is given at a small and a large size (four times as many bytes)
# as a file and through a pipe (cat f | tool), and at the large size
# compressed (zstd, gzip, where the programs are there).  The user and
# system time and the peak resident memory of each run are measured
# (GNU time, else wait4 in python3); a run fails when:
#   - it does not exit 0 or 1 (a timeout, a signal, exit 2);
#   - the large size takes more than 8 times the small one, plus
#     0.3 s (a linear reader takes 4 times; a quadratic one 16), from a
#     file or from a pipe;
#   - from a pipe or compressed it takes more than 3 times as long as
#     from the file, plus 0.3 s (the reader scanned again what it had
#     scanned before each read: one read from a pipe is 64 KiB);
#   - its memory exceeds the tool's bound: for blanks and EPD lines
#     (no game to hold) flat: what the tool takes for a one-game input
#     plus 16 MiB, whatever the size; for a game, that plus 25 bytes
#     for each byte of the game (pgn-sort: plus its -S of 16 MiB).
# Decompression bombs: 64 MiB of spaces in zstd, gzip, xz and .zip (a
# few KB to a few hundred each: 16 frames, members or streams of 4 MiB;
# the zip one member) go through every tool (two formats each, in turn)
# within 5 s (linear: a fraction of a second; the quadratic reader took
# 26 s) and in 40 MiB more than a one-game input (the zstd reader
# decodes frames of 4 MiB ahead on threads: 25 MiB).  --memlimit (every
# tool takes it) refuses an xz input whose dictionary needs 64 MiB and
# a zstd frame whose window needs 128 MiB under --memlimit=16M, with a
# message naming it and exit 2, in 16 MiB more than a one-game input.
# pgn-sort -m over 40 xz inputs (1 MiB of dictionary each, all of it
# used) stays within -S 32M: the decoders' dictionaries counted, and
# given back before the merge of its runs (the two added up: 54 MB).
#
# Not under the sanitizers (time and memory are theirs).  Skipped
# without python3.
set -u
NAME=class-scale
. "$top_srcdir/tests/testlib.sh"
: "${tooldir:?}"
B=$tooldir

if grep -q '^SAN_CFLAGS = .*-fsanitize=' "$top_builddir/Makefile" \
    2>/dev/null; then
	skip "sanitizer build (time and memory are the sanitizers')"
fi
command -v python3 >/dev/null 2>&1 || skip "no python3"

# args TOOL RUN: the options a tool runs with (pgn-sort within 16 MiB,
# pgn-split into a directory of the run's own)
args() {
	case $1 in
	pgn-sort) echo "-q -S 16M -T $T" ;;
	pgn-split) echo "-q -l 100000 -d $T/split.$2" ;;
	*) echo "-q" ;;
	esac
}

TOOLS=$(built_tools)
[ -n "$TOOLS" ] || skip "no tool built"
for t in $TOOLS; do
	[ "$(tool_kind "$t")" != none ] ||
	    fail "$t: no input kind in tool_kind of tests/testlib.sh"
done
have_zstd=0 have_gzip=0 have_xz=0
command -v zstd >/dev/null 2>&1 && have_zstd=1
command -v gzip >/dev/null 2>&1 && have_gzip=1
command -v xz >/dev/null 2>&1 && have_xz=1

MiB=1048576

# ---- the inputs ----
blanks() {	# blanks BYTES
	yes "$(printf ' \t \r')" | tr -d '\n' | head -c "$1"
}
game() {	# game BYTES: about BYTES of knight moves
	printf '[Event "long"]\n\n'
	yes 'Nf3 Nf6 Ng1 Ng8' | head -c "$1" | tr '\n' ' '
	printf ' 1/2-1/2\n'
}
comment() {	# comment BYTES
	printf '[Event "comment"]\n\n1. e4 { '
	yes 'a comment of many lines, and no brace in it' | head -c "$1"
	printf '} e5 1-0\n'
}
tag() {		# tag BYTES
	printf '[Event "'
	head -c "$1" /dev/zero | tr '\0' v
	printf '"]\n\n1. e4 e5 1-0\n'
}
line() {	# line BYTES: EPD, no line end
	head -c "$1" /dev/zero | tr '\0' a
}
# sizes: small, then large (four times)
size_of() {
	case $1 in
	blanks|line) echo $((8 * MiB)) ;;
	comment|tag) echo $((4 * MiB)) ;;
	game) echo $((MiB)) ;;
	esac
}
for i in blanks game comment tag line; do
	s=$(size_of "$i")
	$i "$s" >"$T/$i.s"
	$i $((4 * s)) >"$T/$i.l"
	[ "$have_zstd" -eq 1 ] && zstd -q -1 -c "$T/$i.l" >"$T/$i.l.zst"
	[ "$have_gzip" -eq 1 ] && gzip -1 -c "$T/$i.l" >"$T/$i.l.gz"
done
for sz in s l; do
	"$B/pgn2pgc" -q "$T/game.$sz" >"$T/pgc.$sz" ||
	    fail "pgn2pgc: cannot make the PGC input"
done
[ "$have_zstd" -eq 1 ] && zstd -q -1 -c "$T/pgc.l" >"$T/pgc.l.zst"
[ "$have_gzip" -eq 1 ] && gzip -1 -c "$T/pgc.l" >"$T/pgc.l.gz"
printf '[Event "base"]\n\n1. e4 1-0\n' >"$T/base.pgn"
printf '4k3/8/8/8/8/8/8/4K3 w - - id "base";\n' >"$T/base.epd"
"$B/pgn2pgc" -q "$T/base.pgn" >"$T/base.pgc"

# inputs_of KIND: the inputs of a kind, and the file of its base run
inputs_of() {
	case $1 in
	pgn) echo "blanks game comment tag" ;;
	epd) echo "line" ;;
	pgc) echo "pgc" ;;
	esac
}
base_of() {
	case $1 in
	pgn) echo "$T/base.pgn" ;;
	epd) echo "$T/base.epd" ;;
	pgc) echo "$T/base.pgc" ;;
	esac
}
# the file of input I at size SZ (pgc: pgc.SZ)
file_of() {
	case $1 in
	pgc) echo "$T/pgc.$2" ;;
	*) echo "$T/$1.$2" ;;
	esac
}

# ---- the runs: one command a line (ID TAB COMMAND), run by one python3
# process that reports "ID STATUS SECONDS KB" for each ----
: >"$T/runs"
run() {	# run ID COMMAND
	printf '%s\t%s\n' "$1" "$2" >>"$T/runs"
}
for t in $TOOLS; do
	k=$(tool_kind "$t")
	[ "$k" != none ] || continue
	run "$t.base" "exec $B/$t $(args "$t" base) $(base_of "$k")"
	for i in $(inputs_of "$k"); do
		for sz in s l; do
			f=$(file_of "$i" "$sz")
			run "$t.$i.file.$sz" "exec timeout 60 $B/$t $(args "$t" \
			    "$i.file.$sz") $f"
			run "$t.$i.pipe.$sz" "cat $f | timeout 60 $B/$t \
			    $(args "$t" "$i.pipe.$sz")"
		done
		for z in zst gz; do
			[ -f "$f.$z" ] || continue
			run "$t.$i.$z.l" "exec timeout 60 $B/$t $(args "$t" \
			    "$i.$z.l") $f.$z"
		done
	done
done

# ---- decompression bombs: 64 MiB of spaces, made of 16 copies of
# 4 MiB compressed once (zstd, gzip and xz read concatenated frames,
# members and streams); in .zip, one member of 64 MiB ----
bomb=$((64 * MiB))
head -c $((4 * MiB)) /dev/zero | tr '\0' ' ' >"$T/sp16"
bombs=""
for z in zst gz xz; do
	case $z in
	zst) [ "$have_zstd" -eq 1 ] || continue
	     zstd -q -3 -c "$T/sp16" >"$T/one.$z" ;;
	gz) [ "$have_gzip" -eq 1 ] || continue
	     gzip -1 -c "$T/sp16" >"$T/one.$z" ;;
	xz) [ "$have_xz" -eq 1 ] || continue
	     xz -1 -c "$T/sp16" >"$T/one.$z" ;;
	esac
	for n in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
		cat "$T/one.$z"
	done >"$T/bomb.$z"
	bombs="$bombs $z"
done
if python3 - "$T/bomb.zip" "$bomb" <<'EOF'
import sys, zipfile
# one member of n spaces, deflated as it is written (never held whole)
path, n = sys.argv[1], int(sys.argv[2])
with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
    with z.open("spaces.pgn", "w", force_zip64=True) as m:
        block = b" " * (1 << 20)
        for _ in range(n >> 20):
            m.write(block)
EOF
then
	bombs="$bombs zip"
fi
rm -f "$T/sp16" "$T/one."*
# (each tool two of the formats, in turn: every format goes through
# half of the tools, all of them through the same reader)
nb=$(echo $bombs | wc -w)
ti=0
for t in $TOOLS; do
	[ "$(tool_kind "$t")" != none ] || continue
	ti=$((ti + 1))
	bi=0
	for z in $bombs; do
		bi=$((bi + 1))
		[ "$nb" -le 2 ] || [ $(((bi - ti) % nb)) -eq 0 ] ||
		    [ $(((bi - ti - 1) % nb)) -eq 0 ] || continue
		run "$t.bomb.$z" "exec timeout 10 $B/$t $(args "$t" bomb.$z) \
		    $T/bomb.$z"
	done
done

# --memlimit: an xz dictionary of 64 MiB and a zstd window of 128 MiB
# under --memlimit=16M
head -c $((MiB)) /dev/zero | tr '\0' ' ' >"$T/sp1"
ml=""
if [ "$have_xz" -eq 1 ] && xz -q -c --lzma2=preset=1,dict=64MiB "$T/sp1" \
    >"$T/big.xz"; then
	ml="$ml xz"
fi
# (from a pipe: zstd declares the window whole when the size is unknown)
if [ "$have_zstd" -eq 1 ] && cat "$T/sp1" | zstd -q -c --long=27 \
    >"$T/big.zst" && [ -s "$T/big.zst" ]; then
	ml="$ml zst"
fi
for t in $TOOLS; do
	[ "$(tool_kind "$t")" != none ] || continue
	for z in $ml; do
		run "$t.memlimit.$z" "exec timeout 30 $B/$t $(args "$t" \
		    ml.$z) --memlimit=16M $T/big.$z 2>$T/ml.$t.$z"
	done
done

# pgn-sort -m: 40 xz inputs, each needing 1 MiB of dictionary and more
# than a megabyte to read, under -S 32M
msort=0
case " $(echo $TOOLS) " in
*" pgn-sort "*)
	if [ "$have_xz" -eq 1 ]; then
		awk 'BEGIN { for (i = 0; i < 20000; i++)
			printf "[Event \"e%06d\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n", i }' \
		    >"$T/sorted.pgn"
		xz -q -c --lzma2=preset=1,dict=1MiB "$T/sorted.pgn" >"$T/m.xz"
		mfiles=""
		for n in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 \
		    18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 \
		    37 38 39 40; do
			cp "$T/m.xz" "$T/m$n.xz"
			mfiles="$mfiles $T/m$n.xz"
		done
		run "pgn-sort.merge" "exec timeout 60 $B/pgn-sort -q -m \
		    -S 32M -T $T $mfiles"
		run "pgn-sort.merge.base" "exec $B/pgn-sort -q -m -S 32M \
		    $T/m01.xz"
		msort=1
	fi ;;
esac

# (GNU time measures a shell it starts: the peak memory of the shell
# and the programs of the run; without it, wait4's figures count the
# pages of the python3 process that started the run too: 10 to 14 MB)
gnutime=""
/usr/bin/time -f %M -o "$T/tv" true 2>/dev/null && [ -s "$T/tv" ] &&
    gnutime=/usr/bin/time
python3 - "$T/runs" "$gnutime" "$T/tv" >"$T/results" <<'EOF'
import os, subprocess, sys
runs, gnutime, tv = sys.argv[1:4]
for row in open(runs):
    rid, cmd = row.rstrip("\n").split("\t", 1)
    argv = ["sh", "-c", cmd + " >/dev/null"]
    if gnutime:
        argv = [gnutime, "-f", "%x %U %S %M", "-o", tv] + argv
    p = subprocess.Popen(argv, stderr=subprocess.DEVNULL)
    _, st, ru = os.wait4(p.pid, 0)
    p.returncode = 0
    rc = os.waitstatus_to_exitcode(st)
    secs, kb = ru.ru_utime + ru.ru_stime, ru.ru_maxrss
    if gnutime:
        f = open(tv).read().split()
        rc, secs, kb = int(f[-4]), float(f[-3]) + float(f[-2]), int(f[-1])
    print(rid, rc, "%.3f" % secs, kb)
EOF
[ -s "$T/results" ] || fatal "no measure"
[ -n "${CLASS_SCALE_KEEP-}" ] && cp "$T/results" "$CLASS_SCALE_KEEP"

# get ID: sets rc, secs (in milliseconds: ms) and kb of a run
get() {
	set -- $(grep "^$1 " "$T/results")
	[ "$#" -eq 4 ] || { rc=99 ms=0 kb=0; return 1; }
	rc=$2 kb=$4
	ms=$(echo "$3" | awk '{ printf "%d", $1 * 1000 }')
}
status_ok() {	# status_ok ID
	get "$1" || { fail "$1: not run"; return 1; }
	case $rc in
	0|1) return 0 ;;
	124) fail "$1: no end within the time limit" ;;
	*) fail "$1: exit $rc" ;;
	esac
	return 1
}
for t in $TOOLS; do
	k=$(tool_kind "$t")
	[ "$k" != none ] || continue
	status_ok "$t.base" || continue
	base_kb=$kb
	for i in $(inputs_of "$k"); do
		case $i in
		blanks|line) flat=1 ;;
		*) flat=0 ;;
		esac
		s=$(wc -c <"$(file_of "$i" l)")
		[ "$i" = pgc ] && s=$(wc -c <"$T/game.l")
		limit=$((base_kb + 16 * 1024))
		[ "$flat" -eq 1 ] || limit=$((limit + 25 * s / 1024))
		[ "$t" = pgn-sort ] && limit=$((limit + 16 * 1024))
		for m in file pipe; do
			status_ok "$t.$i.$m.s" || continue
			small=$ms
			status_ok "$t.$i.$m.l" || continue
			[ "$ms" -le $((8 * small + 300)) ] ||
			    fail "$t: $i from a $m: not linear: $small ms," \
			    "four times the bytes $ms ms"
		done
		get "$t.$i.file.l" || continue
		file_ms=$ms
		for m in file.l pipe.l zst.l gz.l; do
			grep -q "^$t.$i.$m " "$T/results" || continue
			status_ok "$t.$i.$m" || continue
			[ "$ms" -le $((3 * file_ms + 300)) ] ||
			    fail "$t: $i ($m): $ms ms, from the file $file_ms ms"
			[ "$kb" -le "$limit" ] ||
			    fail "$t: $i ($m): $kb KB of memory, more than" \
			    "$limit KB"
		done
	done
	for z in $bombs; do
		grep -q "^$t.bomb.$z " "$T/results" || continue
		status_ok "$t.bomb.$z" || continue
		[ "$ms" -le 5000 ] ||
		    fail "$t: 64 MiB of spaces in .$z: $ms ms"
		[ "$kb" -le $((base_kb + 40 * 1024)) ] ||
		    fail "$t: 64 MiB of spaces in .$z: $kb KB of memory"
	done
	for z in $ml; do
		get "$t.memlimit.$z" || { fail "$t.memlimit.$z: not run"; continue; }
		[ "$rc" -eq 2 ] || fail "$t --memlimit=16M on a .$z input" \
		    "needing more: exit $rc, expected 2"
		grep -q "^$t: .*memlimit" "$T/ml.$t.$z" ||
		    fail "$t --memlimit=16M on a .$z input needing more:" \
		    "no message naming --memlimit ($(head -c 200 \
		    "$T/ml.$t.$z"))"
		[ "$kb" -le $((base_kb + 16 * 1024)) ] ||
		    fail "$t --memlimit=16M: $kb KB of memory"
	done
done
if [ "$msort" -eq 1 ] && status_ok pgn-sort.merge.base; then
	mbase=$kb
	if status_ok pgn-sort.merge; then
		# (the budget, the few MB of one input, and 4 MiB of slack)
		[ "$kb" -le $((mbase + 32 * 1024 + 4096)) ] ||
		    fail "pgn-sort -m -S 32M over 40 xz inputs: $kb KB," \
		    "with one input $mbase KB"
	fi
fi
finish
