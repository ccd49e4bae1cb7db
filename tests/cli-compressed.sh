#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-compressed.sh: compressed input and output of every tool.
# - Every tool gives the same bytes (output and messages, the file name
#   aside) for x, x.zst, x.gz, x.bz2 and x.xz, as files and on standard
#   input: the fixtures, and the corpus's otb and online archives
#   when $CORPUS is there.
# - zstd of many frames, decoded a frame per thread, whole and cut
# - zstd with a leading (and a trailing) skippable frame, pzstd's
#   frames, concatenated gzip members, bzip2 and xz streams.
# - -z FORMAT and -o NAME.zst/.gz/.bz2/.xz write what zstd, gzip, bzip2
#   and xz read back; --level and -z errors.
# - A compressed file cut at every 4 KB and with bytes flipped: exit 2,
#   a message naming the file and the damage, and the output the games
#   complete before it, each whole (a prefix of the full output).
# - The compression libraries are loaded when an input or output of
#   their format is met: none for plain text (LD_DEBUG=files, glibc).
# A format whose compressor is not installed is skipped (with a note).
set -u
NAME=clicompressed
. "${top_srcdir:?}/tests/testlib.sh"
B="$tooldir"
LC_ALL=C
export LC_ALL

FORMATS=
for z in zstd gzip bzip2 xz; do
	if ! command -v $z >/dev/null 2>&1; then
		echo "note: $z not installed: its format is not tested"
	elif echo x | $z -c | "$tooldir/pgn-regularize" 2>&1 |
	    grep -q 'not supported'; then
		echo "note: this build leaves $z out: its format is not tested"
	else
		FORMATS="$FORMATS $z"
	fi
done
[ -n "$FORMATS" ] || { echo "no compressor installed: skipped"; exit 77; }

sfx() {
	case $1 in zstd) echo zst ;; gzip) echo gz ;; bzip2) echo bz2 ;;
	xz) echo xz ;; esac
}

# compress FORMAT IN OUT
compress() {
	case $1 in
	zstd) zstd -q -1 -c "$2" >"$3" ;;
	*) $1 -1 -c "$2" >"$3" ;;
	esac
}

# same NAME TOOL INPUT [ARGS...]: the tool's output, status and messages
# on INPUT and on its compressed forms, as a file and on standard input
same() {
	what=$1 tool=$2 in=$3
	shift 3
	"$B/$tool" "$@" "$in" >"$T/ref.out" 2>"$T/ref.tmp"
	ref=$?
	sed 's/ in [0-9.]* s$//' "$T/ref.tmp" >"$T/ref.err"
	for z in $FORMATS; do
		# compressed once per input
		c="$T/$(basename "$in").$(sfx $z)"
		[ -f "$c" ] || compress $z "$in" "$c"
		"$B/$tool" "$@" "$c" >"$T/z.out" 2>"$T/z.err"
		rc=$?
		[ $rc -eq $ref ] || fail "$what: $z file: exit $rc, not $ref"
		cmp -s "$T/ref.out" "$T/z.out" ||
		    fail "$what: $z file: output differs"
		# (the time of --stats aside)
		sed "s|$c|$in|g; s/ in [0-9.]* s$//" "$T/z.err" |
		    cmp -s - "$T/ref.err" ||
		    fail "$what: $z file: messages differ"
		"$B/$tool" "$@" <"$c" >"$T/z.out" 2>"$T/z.err"
		rc=$?
		[ $rc -eq $ref ] || fail "$what: $z stdin: exit $rc, not $ref"
		cmp -s "$T/ref.out" "$T/z.out" ||
		    fail "$what: $z stdin: output differs"
		# and through a pipe (not seekable)
		cat "$c" | "$B/$tool" "$@" >"$T/z.out" 2>/dev/null
		cmp -s "$T/ref.out" "$T/z.out" ||
		    fail "$what: $z pipe: output differs"
	done
}

# ---- every tool, the fixtures ----
cat "$F"/sample.pgn "$F"/regularize-import.pgn "$F"/regularize-bad.pgn \
    "$F"/sort-keys.pgn "$F"/p2e-games.pgn "$F"/pgc-sample.pgn >"$T/mix.pgn"
same "pgn-regularize mix" pgn-regularize "$T/mix.pgn" --stats
same "pgn-regularize -r" pgn-regularize "$F/regularize-import.pgn" -r
same "pgn-sort" pgn-sort "$F/sort-keys.pgn"
same "pgn-sort odd" pgn-sort "$F/sort-odd.pgn"
same "pgn2epd" pgn2epd "$F/p2e-games.pgn" --variations
same "pgn2pgc" pgn2pgc "$F/pgc-sample.pgn"
"$B/pgn2pgc" -c "$T/mix.pgn" >"$T/mix.pgc" 2>/dev/null
same "pgc2pgn" pgc2pgn "$T/mix.pgc"
same "epd-validate" epd-validate "$F/epd-valid.epd" -n
same "epd-validate invalid" epd-validate "$F/epd-invalid.epd"
same "chess-perft" chess-perft "$F/perft-blocks.perft" -q -d 2
same "pgn-select" pgn-select "$T/mix.pgn" -t 'Result=1-0'
same "pgn2json" pgn2json "$F/json-games.pgn" -c
same "pgn2tsv" pgn2tsv "$F/json-games.pgn"
mkdir -p "$T/parts"
same "pgn-split --list" pgn-split "$T/mix.pgn" -n 3 --list -d "$T/parts"

# ---- the corpus ----
C=${CORPUS:-}
if [ -n "$C" ] && [ -d "$C/pgn" ] && command -v xz >/dev/null; then
	xz -dc "$C/pgn/otb-14539.pgn.xz" >"$T/otb.pgn"
	# the tools on its first 30,000 lines (about 1.5 MB)
	head -n 30000 "$T/otb.pgn" >"$T/otb-part.pgn"
	same "corpus otb pgn-regularize" pgn-regularize "$T/otb-part.pgn"
	same "corpus otb pgn-sort" pgn-sort "$T/otb-part.pgn"
	same "corpus otb pgn2pgc" pgn2pgc "$T/otb-part.pgn"
	"$B/pgn2pgc" -c "$T/otb-part.pgn" >"$T/otb.pgc" 2>/dev/null
	same "corpus otb pgc2pgn" pgc2pgn "$T/otb.pgc"
	xz -dc "$C/online/kdave-pgn-toys--lichess.pgn.xz" >"$T/li.pgn"
	same "corpus lichess pgn-regularize" pgn-regularize "$T/li.pgn"
	BIG="$T/otb-part.pgn"
	rm -f "$T"/li.pgn* "$T"/otb.pgc* "$T/otb.pgn"
else
	echo "note: no corpus: the fixtures only"
	# (games that pgn-regularize and pgn2pgc keep, for the counts below)
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		cat "$F"/sample.pgn "$F"/sort-keys.pgn "$F"/pgc-sample.pgn \
		    "$F"/regularize-rules.pgn "$F"/sample.pgn "$F"/sort-keys.pgn
	done >"$T/big.pgn"
	BIG="$T/big.pgn"
fi
"$B/pgn-regularize" "$BIG" >"$T/big.ref" 2>/dev/null

# ---- frames, members and streams ----
split_half() {
	n=$(wc -l <"$1")
	head -n $((n / 2)) "$1" >"$T/a.part"
	tail -n +$((n / 2 + 1)) "$1" >"$T/b.part"
}
split_half "$BIG"
for z in $FORMATS; do
	compress $z "$T/a.part" "$T/cat.1"
	compress $z "$T/b.part" "$T/cat.2"
	cat "$T/cat.1" "$T/cat.2" >"$T/cat.$(sfx $z)"
	expect 0 "$B/pgn-regularize" "$T/cat.$(sfx $z)"
	cmp -s "$T/out" "$T/big.ref" || fail "$z: two concatenated streams"
done
case $FORMATS in *zstd*)
	# skippable frames (magic 0x184D2A50..5F, a 4-byte little-endian
	# size, the payload) before the first frame and after the last
	{
		printf '\120\052\115\030\010\000\000\000lichess!'
		zstd -q -1 -c "$BIG"
		printf '\137\052\115\030\000\000\000\000'
	} >"$T/skip.zst"
	expect 0 "$B/pgn-regularize" "$T/skip.zst"
	cmp -s "$T/out" "$T/big.ref" || fail "zstd: skippable frames"
	"$B/pgn-regularize" <"$T/skip.zst" 2>/dev/null | cmp -s - "$T/big.ref" ||
	    fail "zstd: skippable frames on standard input"
	if command -v pzstd >/dev/null 2>&1; then
		pzstd -q -p 2 -c "$BIG" >"$T/pz.zst" 2>/dev/null
		expect 0 "$B/pgn-regularize" "$T/pz.zst"
		cmp -s "$T/out" "$T/big.ref" || fail "zstd: pzstd frames"
	fi
	zstd -q -1 -T0 -c "$BIG" >"$T/t0.zst"
	expect 0 "$B/pgn-regularize" "$T/t0.zst"
	cmp -s "$T/out" "$T/big.ref" || fail "zstd: zstd -T0"
	;;
esac
case $FORMATS in *zstd*)
	# many frames of random sizes (some behind pzstd's skippable frame
	# holding the frame's size), decoded a frame per thread: the same
	# games with -j 1 and -j 2, from the file and from a pipe; cut in
	# its middle, the games before the cut and the truncation's place
	rm -f "$T"/fr.*
	n=$(wc -l <"$BIG")
	at=1 k=0 r=$$
	while [ "$at" -le "$n" ]; do
		r=$(( (r * 1103515245 + 12345) % 2147483648 ))
		m=$(( (r / 65536 % 97 + 1) * n / 400 + 1 ))
		sed -n "${at},$((at + m - 1))p" "$BIG" >"$T/fr.piece"
		zstd -q -$((r % 3 + 1)) -c "$T/fr.piece" >"$T/fr.z"
		if [ $((k % 2)) = 0 ]; then
			s=$(wc -c <"$T/fr.z")
			printf '\120\052\115\030\004\000\000\000'
			printf "\\$(printf %o $((s & 255)))"
			printf "\\$(printf %o $((s >> 8 & 255)))"
			printf "\\$(printf %o $((s >> 16 & 255)))"
			printf '\000'
		fi
		cat "$T/fr.z"
		at=$((at + m)) k=$((k + 1))
	done >"$T/fr.zst"
	[ "$k" -gt 3 ] || fail "zstd frames: only $k frames made"
	for j in 1 2; do
		expect 0 "$B/pgn-regularize" -j $j "$T/fr.zst"
		cmp -s "$T/out" "$T/big.ref" ||
		    fail "zstd: $k frames, -j $j"
		"$B/pgn-regularize" -j $j <"$T/fr.zst" 2>/dev/null |
		    cmp -s - "$T/big.ref" ||
		    fail "zstd: $k frames on standard input, -j $j"
	done
	cut=$(( $(wc -c <"$T/fr.zst") * 2 / 3 ))
	head -c "$cut" "$T/fr.zst" >"$T/fr.cut.zst"
	zstd -dc "$T/fr.cut.zst" 2>/dev/null |
	    "$B/pgn-regularize" -q 2>/dev/null >"$T/fr.want"
	expect 2 "$B/pgn-regularize" -j 2 "$T/fr.cut.zst"
	grep -q "truncated zstd input: it ends inside compressed data at byte $cut\$" "$T/err" ||
	    fail "zstd frames cut at $cut: message"
	# (the last game, cut, is left out)
	[ -s "$T/out" ] && head -c "$(wc -c <"$T/out")" "$T/fr.want" |
	    cmp -s - "$T/out" &&
	    [ $(grep -c '^\[Event ' "$T/out") -ge \
	    $(( $(grep -c '^\[Event ' "$T/fr.want") - 1 )) ] ||
	    fail "zstd frames cut at $cut: the games before the cut"
	rm -f "$T"/fr.*
	;;
esac

# ---- compressed output ----
for z in $FORMATS; do
	s=$(sfx $z)
	expect 0 "$B/pgn-regularize" --level=1 -o "$T/o.pgn.$s" "$BIG"
	$z -dc "$T/o.pgn.$s" | cmp -s - "$T/big.ref" ||
	    fail "$z: -o NAME.$s does not read back"
	expect 0 "$B/pgn-regularize" -z $z --level=1 "$BIG"
	$z -dc "$T/out" | cmp -s - "$T/big.ref" ||
	    fail "$z: -z $z --level=1 does not read back"
	# compressed in, compressed out, through the whole pipeline
	"$B/pgn-regularize" -z $z --level=1 "$T/o.pgn.$s" 2>/dev/null |
	    "$B/pgn-sort" -z $z --level=1 |
	    "$B/pgn2pgc" -z $z --level=1 | "$B/pgc2pgn" |
	    "$B/pgn-sort" >"$T/pipe.out" 2>"$T/pipe.err"
	"$B/pgn-sort" "$T/big.ref" | "$B/pgn2pgc" | "$B/pgc2pgn" |
	    "$B/pgn-sort" | cmp -s - "$T/pipe.out" ||
	    fail "$z: compressed pipeline"
	# the output may name the input
	cp "$T/o.pgn.$s" "$T/same.$s"
	expect 0 "$B/pgn-sort" --level=1 -o "$T/same.$s" "$T/same.$s"
	"$B/pgn-sort" "$T/big.ref" >"$T/sorted.big"
	$z -dc "$T/same.$s" | cmp -s - "$T/sorted.big" ||
	    fail "$z: -o names the input"
done
for tool in pgn-regularize pgn-sort pgn2epd pgn2pgc pgc2pgn epd-validate \
    chess-perft pgn-select pgn2json pgn2tsv; do
	expect 2 "$B/$tool" -z lz4 /dev/null
	grep -q "unknown compression format 'lz4'" "$T/err" ||
	    fail "$tool -z lz4: message"
	expect 2 "$B/$tool" --level=3 /dev/null
	grep -q "level needs -z" "$T/err" || fail "$tool --level: message"
	expect 2 "$B/$tool" -z gzip --level=10 /dev/null
	grep -q "level 10 is not in 1..9" "$T/err" ||
	    fail "$tool --level=10: message"
	"$B/$tool" --help | grep -q -- '--compress=' ||
	    fail "$tool --help: no --compress"
done
# the output of the tools that write games as data, compressed
for tool in pgn-select pgn2json pgn2tsv; do
	"$B/$tool" "$F/json-games.pgn" >"$T/ref.out" 2>/dev/null
	"$B/$tool" -z xz "$F/json-games.pgn" 2>/dev/null | xz -dc |
	    cmp -s - "$T/ref.out" || fail "$tool -z xz does not read back"
	"$B/$tool" -o "$T/d.out.gz" "$F/json-games.pgn" 2>/dev/null
	gzip -dc "$T/d.out.gz" | cmp -s - "$T/ref.out" ||
	    fail "$tool -o NAME.gz does not read back"
done
expect 0 "$B/pgn-regularize" -z plain "$F/sample.pgn"
"$B/pgn-regularize" "$F/sample.pgn" | cmp -s - "$T/out" || fail "-z plain"

# pgn-sort's runs compressed: the same order
"$B/pgn-sort" "$BIG" >"$T/sorted.ref" 2>/dev/null
expect 0 "$B/pgn-sort" -S 64K --compress-temp "$BIG"
cmp -s "$T/out" "$T/sorted.ref" || fail "pgn-sort --compress-temp"

# ---- damage ----
# check_damaged WHAT FILE: exit 2, a message naming FILE, and the output
# a prefix of the full one that ends between games
check_damaged() {
	expect 2 "$B/pgn-regularize" --stats "$2"
	grep -q "^pgn-regularize: $2: \(truncated\|corrupt\) " "$T/err" ||
	    { fail "$1: no message naming the file"; cat "$T/err" >&2; }
	n=$(wc -c <"$T/out")
	head -c "$n" "$T/big.ref" | cmp -s - "$T/out" ||
	    fail "$1: the output is not a prefix of the whole"
	if [ "$n" -gt 0 ] && [ "$(tail -c 2 "$T/out" | od -An -c | tr -d ' ')" != '\n\n' ]; then
		fail "$1: the output ends inside a game"
	fi
	w=$(grep -c '^\[Event ' "$T/out")
	grep -q " games read, $w written, 0 rejected" "$T/err" ||
	    fail "$1: $w games written, not as counted"
}
# before_last FILE: FILE's lines before its last game's first (a tag
# after an empty line: the fixtures' games do not all begin with Event)
before_last() {
	bl=$(awk '/^\[/ && prev ~ /^\r?$/ && NR > 1 { n = NR } { prev = $0 }
	    END { print n + 0 }' "$1")
	[ "$bl" -gt 0 ] && head -n $((bl - 1)) "$1"
}
# (complete games: the last ends with its marker)
head -c 200000 "$BIG" >"$T/part.tmp"
before_last "$T/part.tmp" >"$T/part.pgn"
printf '\n\n' >>"$T/part.pgn"
"$B/pgn-regularize" "$T/part.pgn" >"$T/part.ref" 2>/dev/null
# cuts every 4 KB; in a sanitizer build (slower, and fuzz_stream goes
# through the decoders there) at eight places
sanitized=false
grep -q '^SAN_CFLAGS = .*-fsanitize=' "$top_builddir/Makefile" 2>/dev/null &&
    sanitized=true
for z in $FORMATS; do
	s=$(sfx $z)
	compress $z "$T/part.pgn" "$T/whole.$s"
	size=$(wc -c <"$T/whole.$s")
	step=4096
	$sanitized && step=$((size / 8 + 1))
	cut=0
	while [ $cut -lt "$size" ]; do
		head -c $cut "$T/whole.$s" >"$T/cut.$s"
		if [ $cut -lt 6 ]; then
			# too short to be known as compressed: plain text
			cut=$((cut + step))
			continue
		fi
		check_damaged "$z cut at $cut" "$T/cut.$s"
		cut=$((cut + step))
	done
	# the last byte missing
	head -c $((size - 1)) "$T/whole.$s" >"$T/cut.$s"
	check_damaged "$z without its last byte" "$T/cut.$s"
	# bytes flipped past the header, at a few places
	for at in 40 $((size / 3)) $((size / 2)) $((size - 30)); do
		cp "$T/whole.$s" "$T/flip.$s"
		b=$(od -An -tu1 -j "$at" -N1 "$T/whole.$s" | tr -d ' ')
		printf "\\$(printf %03o $(((b + 77) % 256)))" |
		    dd of="$T/flip.$s" bs=1 seek="$at" conv=notrunc 2>/dev/null
		"$B/pgn-regularize" "$T/flip.$s" >"$T/out" 2>"$T/err"
		rc=$?
		[ $rc -eq 2 ] || fail "$z byte $at flipped: exit $rc, not 2"
		grep -q "^pgn-regularize: $T/flip.$s: \(truncated\|corrupt\) " \
		    "$T/err" || fail "$z byte $at flipped: no message"
	done
done
# an empty compressed file and a lone magic number
: >"$T/empty.gz"
expect 0 "$B/pgn-regularize" "$T/empty.gz"
case $FORMATS in *zstd*)
	printf '\050\265\057\375' >"$T/magic.zst"
	expect 2 "$B/pgn-regularize" "$T/magic.zst"
	grep -q "truncated zstd input" "$T/err" || fail "lone zstd magic: message"
esac

# ---- every game before damage, at least what the format's program gives ----
# complete_games FILE: pgn-regularize's games of FILE without its last
# (which may be cut short)
complete_games() {
	before_last "$1" | "$B/pgn-regularize" 2>/dev/null
}
# is_prefix A B: A's bytes begin B's
is_prefix() {
	head -c "$(wc -c <"$1")" "$2" | cmp -s - "$1"
}
# only the end missing (gzip's size, xz's footer, zstd's checksum,
# bzip2's CRC): every game; cuts inside: the games before the cut, as
# many as `FORMAT -dc` gives or more (zstd -dc gives only its first
# block of a frame cut short)
for z in $FORMATS; do
	s=$(sfx $z)
	size=$(wc -c <"$T/whole.$s")
	for cut in $((size - 4)) $((size - 12)) $((size * 9 / 10)) \
	    $((size * 2 / 3)) $((size / 3)); do
		head -c $cut "$T/whole.$s" >"$T/cut.$s"
		$z -dc "$T/cut.$s" >"$T/dc.pgn" 2>/dev/null
		complete_games "$T/dc.pgn" >"$T/dc.ref"
		expect 2 "$B/pgn-regularize" "$T/cut.$s"
		grep -q "truncated $z input" "$T/err" ||
		    fail "$z cut at $cut: message"
		# (zstd's last block, gzip's and bzip2's last bytes of data
		# are in the last 12 bytes; xz's 12-byte footer is not data)
		if [ $cut -eq $((size - 4)) ] ||
		    { [ $z = xz ] && [ $cut -eq $((size - 12)) ]; }; then
			cmp -s "$T/out" "$T/part.ref" ||
			    fail "$z cut at $cut of $size: games lost"
			continue
		fi
		is_prefix "$T/out" "$T/part.ref" ||
		    fail "$z cut at $cut of $size: not the games before it"
		is_prefix "$T/dc.ref" "$T/out" ||
		    fail "$z cut at $cut of $size: fewer games than $z -dc"
	done
done
# zero bytes after the data: gzip(1) ignores them, bzip2(1) with a
# warning; both exit 0 with every game
for z in gzip bzip2; do
	case $FORMATS in *$z*) ;; *) continue ;; esac
	s=$(sfx $z)
	{ cat "$T/whole.$s"; head -c 5000 /dev/zero; } >"$T/pad.$s"
	expect 0 "$B/pgn-regularize" "$T/pad.$s"
	cmp -s "$T/out" "$T/part.ref" || fail "$z with zero padding: games"
	if [ $z = gzip ]; then
		[ ! -s "$T/err" ] || fail "gzip with zero padding: a message"
	else
		grep -q "^pgn-regularize: $T/pad.$s: warning: 5000 zero bytes after the end of the bzip2 data" \
		    "$T/err" || fail "bzip2 with zero padding: no warning"
	fi
	# something else after the zeros is damage, after every game
	{ cat "$T/pad.$s"; echo garbage; } >"$T/padx.$s"
	expect 2 "$B/pgn-regularize" "$T/padx.$s"
	cmp -s "$T/out" "$T/part.ref" || fail "$z, zeros, garbage: games"
	grep -q "corrupt $z input at byte $(($(wc -c <"$T/pad.$s")))" \
	    "$T/err" || fail "$z, zeros, garbage: message"
done
case $FORMATS in *zstd*gzip*)
	# a zstd frame, then a gzip member: every game of the zstd part,
	# then the damage where the gzip member starts
	compress zstd "$T/a.part" "$T/zg.zst"
	n=$(wc -c <"$T/zg.zst")
	compress gzip "$T/b.part" "$T/zg.gz"
	cat "$T/zg.gz" >>"$T/zg.zst"
	complete_games "$T/a.part" >"$T/zg.ref"
	expect 2 "$B/pgn-regularize" "$T/zg.zst"
	"$B/pgn-regularize" "$T/a.part" >"$T/zg.all" 2>/dev/null
	is_prefix "$T/zg.ref" "$T/out" && is_prefix "$T/out" "$T/zg.all" ||
	    fail "zstd then gzip: games"
	grep -q "corrupt zstd input at byte $n of" "$T/err" ||
	    fail "zstd then gzip: message"
	;;
esac
case $FORMATS in *zstd*)
	# a damaged block: the blocks before it are given, and the offset
	# is that of the block (not of the buffer it was read in)
	zstd -q -1 -c "$BIG" >"$T/dmg.zst"
	size=$(wc -c <"$T/dmg.zst")
	at=$((size * 3 / 4))
	cp "$T/dmg.zst" "$T/flip.zst"
	printf '\377\377\377\377\377\377\377\377' |
	    dd of="$T/flip.zst" bs=1 seek=$at conv=notrunc 2>/dev/null
	zstd -dc "$T/flip.zst" >"$T/dc.pgn" 2>/dev/null
	complete_games "$T/dc.pgn" >"$T/dc.ref"
	expect 2 "$B/pgn-regularize" "$T/flip.zst"
	is_prefix "$T/dc.ref" "$T/out" ||
	    fail "zstd damaged block: fewer games than zstd -dc gives"
	# (damage in a block's literals is found by the frame's checksum)
	off=$(sed -n 's/.*corrupt zstd input at byte \([0-9]*\) .*/\1/p' "$T/err")
	[ -n "$off" ] && { [ "$off" -eq $((size - 4)) ] || { [ "$off" -le $at ] &&
	    [ "$off" -gt $((at - 140000)) ]; }; } ||
	    fail "zstd damaged at $at: reported at ${off:-no offset}"
	;;
esac

# ---- the decoders' memory limit ----
for tool in pgn-regularize pgn-sort pgn2epd pgn2pgc pgc2pgn epd-validate \
    chess-perft pgn-select pgn2json pgn2tsv pgn-split; do
	"$B/$tool" --help | grep -q -- '--memlimit=SIZE' ||
	    fail "$tool --help: no --memlimit"
	expect 2 "$B/$tool" --memlimit=12Q /dev/null
	grep -q "^$tool: --memlimit: invalid size '12Q'" "$T/err" ||
	    fail "$tool --memlimit=12Q: message"
	expect 2 "$B/$tool" --memlimit=1000 /dev/null
	grep -q "less than 1 MiB" "$T/err" || fail "$tool --memlimit=1000"
done
case $FORMATS in *xz*)
	# a 1 GiB dictionary: 1025 MiB to decompress, in the default limit
	xz --lzma2=dict=1GiB -c "$T/part.pgn" >"$T/dict.xz"
	expect 0 "$B/pgn-regularize" "$T/dict.xz"
	cmp -s "$T/out" "$T/part.ref" || fail "xz 1 GiB dictionary"
	expect 2 "$B/pgn-regularize" --memlimit=512M "$T/dict.xz"
	[ ! -s "$T/out" ] || fail "xz over the limit: output"
	grep -q "^pgn-regularize: $T/dict.xz: xz compressed input needs 1025 MiB of memory, more than the limit of 512 MiB (--memlimit)$" \
	    "$T/err" || fail "xz over the limit: message"
	expect 0 "$B/pgn-regularize" --memlimit=1025MiB "$T/dict.xz"
	;;
esac
case $FORMATS in *zstd*)
	# zstd --long=31 through a pipe: a 2 GiB window
	zstd -q --long=31 -c <"$T/part.pgn" >"$T/long.zst"
	expect 0 "$B/pgn-regularize" "$T/long.zst"
	cmp -s "$T/out" "$T/part.ref" || fail "zstd --long=31"
	expect 2 "$B/pgn-regularize" --memlimit=1G "$T/long.zst"
	grep -q "zstd compressed input needs 2048 MiB of memory, more than the limit of 1024 MiB (--memlimit)$" \
	    "$T/err" || fail "zstd over the limit: message"
	zstd -q --long=30 -c <"$T/part.pgn" >"$T/long.zst"
	expect 0 "$B/pgn-regularize" --memlimit=1g "$T/long.zst"
	cmp -s "$T/out" "$T/part.ref" || fail "zstd --long=30 --memlimit=1g"
	;;
esac

# ---- levels at each end of each format's range, suffixes ----
"$B/pgn-regularize" "$F/sample.pgn" >"$T/sample.ref" 2>/dev/null
for z in $FORMATS; do
	s=$(sfx $z)
	case $z in zstd) lo=1 hi=22 ;; xz) lo=0 hi=9 ;; *) lo=1 hi=9 ;; esac
	for l in $lo $hi; do
		expect 0 "$B/pgn-regularize" -z $z --level=$l "$F/sample.pgn"
		$z -dc "$T/out" | cmp -s - "$T/sample.ref" ||
		    fail "$z --level=$l does not read back"
	done
	for l in $((lo - 1)) $((hi + 1)); do
		[ $l -ge 0 ] || continue
		expect 2 "$B/pgn-regularize" -z $z --level=$l "$F/sample.pgn"
		grep -q "level $l is not in $lo..$hi" "$T/err" ||
		    fail "$z --level=$l: message"
	done
	# the name's suffix in any case
	u=$(echo $s | tr a-z A-Z)
	expect 0 "$B/pgn-regularize" -o "$T/o.PGN.$u" "$F/sample.pgn"
	$z -dc "$T/o.PGN.$u" | cmp -s - "$T/sample.ref" ||
	    fail "-o NAME.$u is not $z data"
done
case $FORMATS in *zstd*gzip*)
	# -z against the name: -z wins, with a warning
	expect 0 "$B/pgn-regularize" -z zstd -o "$T/w.pgn.gz" "$F/sample.pgn"
	zstd -dc "$T/w.pgn.gz" | cmp -s - "$T/sample.ref" ||
	    fail "-z zstd -o NAME.gz: not zstd data"
	grep -q "warning: $T/w.pgn.gz is written as zstd data, not as its name says (gzip)" \
	    "$T/err" || fail "-z zstd -o NAME.gz: no warning"
	expect 0 "$B/pgn-regularize" -z gzip -o "$T/w.pgn.gz" "$F/sample.pgn"
	[ ! -s "$T/err" ] || fail "-z gzip -o NAME.gz: a message"
	;;
esac

# ---- pgn-sort -m: any number of compressed inputs, within -S ----
case $FORMATS in *zstd*)
	mkdir "$T/m"
	"$B/pgn-split" -n 100 -d "$T/m" --prefix=p "$BIG" 2>/dev/null
	for f in "$T"/m/p*.pgn; do
		"$B/pgn-sort" "$f" | zstd -q -3 -c >"${f%.pgn}.zst"
	done
	[ "$(ls "$T"/m/p*.zst | wc -l)" -eq 100 ] || fail "pgn-split -n 100"
	"$B/pgn-sort" "$T"/m/p*.pgn >"$T/m.ref"
	expect 0 "$B/pgn-sort" -m "$T"/m/p*.zst
	cmp -s "$T/out" "$T/m.ref" || fail "pgn-sort -m of 100 .zst inputs"
	# 30 descriptors: in groups, the same bytes
	(ulimit -n 30 && "$B/pgn-sort" -m "$T"/m/p*.zst >"$T/out" 2>"$T/err")
	rc=$?
	[ $rc -eq 0 ] || { fail "pgn-sort -m, ulimit -n 30: exit $rc"; cat "$T/err" >&2; }
	cmp -s "$T/out" "$T/m.ref" || fail "pgn-sort -m, ulimit -n 30: output"
	# the inputs' decompression counts in -S: peak memory (the binary
	# itself, not libtool's wrapper) under -S and 24 MB
	bin="$B/.libs/pgn-sort"
	[ -x "$bin" ] || bin="$B/pgn-sort"
	if [ -x /usr/bin/time ] && ! $sanitized; then
		# (each frame declares a 128 MiB window, whatever the level)
		for f in "$T"/m/p*.zst; do
			"$B/pgn-sort" "${f%.zst}.pgn" |
			    zstd -q -3 --long=27 -c >"${f%.zst}.l.zst"
		done
		LD_LIBRARY_PATH="$top_builddir/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		    /usr/bin/time -v "$bin" -m -S 16M "$T"/m/p*.l.zst \
		    >"$T/out" 2>"$T/err"
		cmp -s "$T/out" "$T/m.ref" || fail "pgn-sort -m -S 16M: output"
		kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$T/err")
		[ -n "$kb" ] && [ "$kb" -lt $(((16 + 24) * 1024)) ] ||
		    fail "pgn-sort -m -S 16M of 100 zstd inputs: ${kb:-?} KB"
	fi
	;;
esac

# ---- the libraries, loaded when used ----
# (LD_DEBUG=files: glibc's loader names each library it opens)
loaded() {	# the compression libraries a run opened, on standard error
	grep -o 'file=lib\(zstd\|z\|bz2\|lzma\)\.so[.0-9]*' "$T/ld" | sort -u
}
if LD_DEBUG=files "$B/pgn-regularize" -q </dev/null 2>"$T/ld" >/dev/null &&
    grep -q 'file=' "$T/ld"; then
	[ -z "$(loaded)" ] || fail "plain input loads $(loaded | tr '\n' ' ')"
	for z in $FORMATS; do
		compress $z "$top_srcdir/tests/files/sample.pgn" "$T/s.$(sfx $z)"
		LD_DEBUG=files "$B/pgn-regularize" -q "$T/s.$(sfx $z)" \
		    2>"$T/ld" >/dev/null
		[ "$(loaded | wc -l)" -eq 1 ] ||
		    fail "$z input loads: $(loaded | tr '\n' ' ')"
		LD_DEBUG=files "$B/pgn-regularize" -q -z $z \
		    "$top_srcdir/tests/files/sample.pgn" 2>"$T/ld" >/dev/null
		[ "$(loaded | wc -l)" -eq 1 ] ||
		    fail "$z output loads: $(loaded | tr '\n' ' ')"
	done
else
	echo "note: no LD_DEBUG (not glibc): library loading not tested"
fi

exit $status
