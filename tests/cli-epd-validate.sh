#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-epd-validate.sh: epd-validate's options, messages, exit status,
# golden outputs (tests/expected/epd-*), rejects, and its own pipeline.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"

V="$tooldir/epd-validate"
X="$top_srcdir/tests/expected"
NAME=epdv
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

cd "$F" || exit 99

# --help, --version, usage errors
run 0 "$V" --help
grep -q '^Usage: epd-validate ' "$T/out" || fail "--help text"
grep -q -- '--rejects=FILE' "$T/out" || fail "--help lists --rejects"
[ -s "$T/err" ] && fail "--help wrote to stderr"
run 0 "$V" -h
run 0 "$V" --version
grep -q '^epd-validate (chessdata) [0-9]' "$T/out" || fail "--version text"
run 2 "$V" -x epd-valid.epd
grep -q "^epd-validate: unknown option '-x'" "$T/err" || fail "-x message"
grep -q "Try 'epd-validate --help'" "$T/err" || fail "-x hint"
[ -s "$T/out" ] && fail "-x wrote to stdout"
run 2 "$V" --bogus epd-valid.epd
grep -q "unknown option '--bogus'" "$T/err" || fail "--bogus message"
run 2 "$V" -n -o
grep -q "needs a value" "$T/err" || fail "-o without argument"
run 2 "$V" -o "$T/x" epd-valid.epd
grep -q "needs --normalize" "$T/err" || fail "-o without -n"
[ -e "$T/x" ] && fail "-o without -n created its file"

# valid lines: exit 0, canonical output, notes only
run 0 "$V" -n epd-valid.epd
cmp "$T/out" "$X/epd-valid.norm" || fail "epd-valid.norm differs"
cmp "$T/err" "$X/epd-valid.err" || fail "epd-valid.err differs"
grep -v ': note: ' "$T/err" && fail "errors on valid lines"

# the canonical form is a fixed point and draws no notes but
# unknown opcodes
run 0 "$V" -n "$X/epd-valid.norm"
cmp "$T/out" "$X/epd-valid.norm" || fail "normalizing twice changes it"
grep -v 'note: unknown opcode' "$T/err" && fail "notes on canonical lines"

# invalid lines: exit 1, every finding, rejects unchanged, nothing lost
run 1 "$V" -n --rejects="$T/rej" --stats epd-invalid.epd
grep -v ' lines read, ' "$T/err" >"$T/err2"
cmp "$T/err2" "$X/epd-invalid.err" || fail "epd-invalid.err differs"
cmp "$T/rej" "$X/epd-invalid.rej" || fail "epd-invalid.rej differs"
grep -q '^epd-validate: 20 lines read, 3 written, 17 rejected in ' \
    "$T/err" || fail "--stats line"
[ "$(wc -l <"$T/out")" -eq 3 ] || fail "valid lines of epd-invalid.epd"
grep -q '"valid.2"' "$T/out" || fail "valid line missing from output"
# valid output and rejects hold every record of the input
[ "$(wc -l <epd-invalid.epd)" -eq \
    "$(($(wc -l <"$T/out") + $(wc -l <"$T/rej")))" ] || fail "lines lost"
# the rejects are invalid again, line for line
run 1 "$V" -q --rejects="$T/rej2" "$T/rej"
cmp "$T/rej" "$T/rej2" || fail "rejects are not stable"

# real-file quirks: BOM, CRLF, tabs, Latin-1, lenient SAN, no final LF
run 0 "$V" -n epd-odd.epd
cmp "$T/out" "$X/epd-odd.norm" || fail "epd-odd.norm differs"
cmp "$T/err" "$X/epd-odd.err" || fail "epd-odd.err differs"

# -q: errors only
run 0 "$V" -q epd-valid.epd
[ -s "$T/err" ] && fail "-q printed notes"
[ -s "$T/out" ] && fail "output without --normalize"
run 1 "$V" -q epd-invalid.epd
grep -q 'note:' "$T/err" && fail "-q printed notes"
[ "$(wc -l <"$T/err")" -eq 22 ] || fail "-q error count"

# standard input, by default and as -
run 0 sh -c "cat epd-valid.epd | '$V' -n"
cmp "$T/out" "$X/epd-valid.norm" || fail "stdin output"
sed 's/<stdin>/epd-valid.epd/' "$T/err" | cmp - "$X/epd-valid.err" ||
    fail "stdin messages"
run 0 sh -c "'$V' -n - <epd-odd.epd"
cmp "$T/out" "$X/epd-odd.norm" || fail "stdin as -"

# several files in order; an unreadable one is reported, the rest done
run 2 "$V" -n epd-valid.epd "$T/nosuch.epd" epd-odd.epd
grep -q "^epd-validate: $T/nosuch.epd: No such file" "$T/err" ||
    fail "missing file message"
cat "$X/epd-valid.norm" "$X/epd-odd.norm" | cmp - "$T/out" ||
    fail "files after a missing one"

# -o, also naming the input
run 0 "$V" -n -o "$T/o.epd" epd-valid.epd
[ -s "$T/out" ] && fail "-o also wrote to stdout"
cmp "$T/o.epd" "$X/epd-valid.norm" || fail "-o output"
cp epd-odd.epd "$T/same.epd"
run 0 "$V" -n -o "$T/same.epd" "$T/same.epd"
cmp "$T/same.epd" "$X/epd-odd.norm" || fail "-o naming the input"

# write errors are system errors
if [ -w /dev/full ]; then
	run 2 sh -c "'$V' -n epd-valid.epd >/dev/full"
	grep -q 'write error' "$T/err" || fail "write error message"
fi
run 2 "$V" --rejects="$T/no/such/dir" epd-invalid.epd
grep -q "^epd-validate: $T/no/such/dir: " "$T/err" || fail "rejects error"

# a line of 1 MB is read whole; a line longer than 1 MiB (1048576
# bytes without its end) is "line too long", read to its end without
# being kept, and the next line is read (from a pipe too)
awk 'BEGIN { printf "4k3/8/8/8/8/8/8/4K3 w - - noop"
	for (i = 0; i < 143000; i++) printf " x%d", i
	print ";" }' >"$T/long.epd"
[ "$(wc -c <"$T/long.epd")" -gt 1030000 ] || fail "long.epd too short"
run 0 "$V" -n "$T/long.epd"
cmp "$T/out" "$T/long.epd" || fail "long line"
{
	awk 'BEGIN { printf "4k3/8/8/8/8/8/8/4K3 w - - noop"
		for (i = 0; i < 150000; i++) printf " x%d", i
		print ";" }'
	printf '4k3/8/8/8/8/8/8/4K3 w - - id "next";\n'
} >"$T/toolong.epd"
run 1 "$V" -n --stats "$T/toolong.epd"
grep -q "^epd-validate: $T/toolong.epd:1:1048577: line too long\$" "$T/err" ||
    fail "no 'line too long' message"
grep -q "2 lines read, 1 written, 1 rejected" "$T/err" ||
    fail "line too long: not counted as rejected"
[ "$(cat "$T/out")" = '4k3/8/8/8/8/8/8/4K3 w - - id "next";' ] ||
    fail "line too long: the next line is not read"

# castling rights: KQkq are standard chess (king on e1/e8, rook in the
# corner), else an error, not a Chess960 reading; a letter given twice is
# an error; Chess960 rights name their file and are written so
cat >"$T/castle.epd" <<'EOT'
r3k2r/8/8/8/8/8/8/R4K1R w KQkq - bm O-O;
r3k2r/8/8/8/8/8/8/R3K2R w KKQkq - bm O-O;
r3k2r/8/8/8/8/8/8/R3K1R1 w Kkq - bm O-O;
r3k2r/8/8/8/8/8/8/R3K2R w KQkq - bm O-O;
bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - bm g3;
EOT
run 1 "$V" -n "$T/castle.epd"
[ "$(cat "$T/err")" = "epd-validate: $T/castle.epd:1:27: castling right 'K' \
needs the king on e1 and a rook on h1 in standard chess (Chess960 rights \
name the rook's file)
epd-validate: $T/castle.epd:2:28: castling right 'K' given twice
epd-validate: $T/castle.epd:3:28: castling right 'K' needs the king on e1 \
and a rook on h1 in standard chess (Chess960 rights name the rook's file)" ] ||
    fail "castling messages: $(cat "$T/err")"
[ "$(cat "$T/out")" = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - bm O-O;
bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - bm g3;" ] ||
    fail "castling: output $(cat "$T/out")"

# --strict: each deviation from the standard's form (one line each in
# epd-strict.epd, a byte order mark in epd-strict-bom.epd) is an error
# with its column; without --strict every line is valid
run 0 "$V" -q epd-strict.epd epd-strict-bom.epd
run 0 "$V" -n epd-strict.epd epd-strict-bom.epd
[ "$(wc -l <"$T/out")" -eq 12 ] || fail "lenient reading of epd-strict.epd"
run 1 "$V" --strict --rejects="$T/srej" --stats epd-strict.epd \
    epd-strict-bom.epd
grep -v ' lines read, ' "$T/err" | cmp - "$X/epd-strict.err" ||
    fail "epd-strict.err differs"
grep -q '^epd-validate: 12 lines read, 0 written, 11 rejected in ' \
    "$T/err" || fail "--strict --stats line"
grep -q '"a  run  in a string"' "$T/srej" && fail "string spaces refused"
[ "$(wc -l <"$T/srej")" -eq 11 ] || fail "--strict rejects"
run 0 "$V" --help
grep -q -- '--strict' "$T/out" || fail "--help lists --strict"
# the canonical form passes --strict
run 0 "$V" --strict "$X/epd-valid.norm"
grep -v 'note: unknown opcode' "$T/err" && fail "--strict on canonical lines"

# input of the wrong kind: PGN and binary data get one message each and
# are not read (exit 2); the other files are
"$tooldir/pgn2pgc" sample.pgn >"$T/s.pgc" 2>/dev/null
run 2 "$V" -n sample.pgn "$T/s.pgc" epd-valid.epd
cmp "$T/out" "$X/epd-valid.norm" || fail "files after PGN and PGC"
[ "$(grep -c -v 'epd-valid.epd' "$T/err")" -eq 2 ] ||
    fail "wrong kind: $(cat "$T/err")"
grep -q "^epd-validate: sample.pgn: looks like PGN, not EPD (use pgn2epd \
to get its positions); not read$" "$T/err" || fail "PGN message"
grep -q "^epd-validate: $T/s.pgc: binary data, not EPD; not read$" \
    "$T/err" || fail "binary message"
for f in "$F"/*.pgn; do
	run 2 "$V" -n "$f"
	[ "$(wc -l <"$T/err")" -eq 1 ] || fail "$f: $(cat "$T/err")"
	[ -s "$T/out" ] && fail "$f: output"
done
run 2 sh -c "cat sample.pgn | '$V'"
grep -q '^epd-validate: <stdin>: looks like PGN' "$T/err" || fail "stdin PGN"

# a compressed input cut by damage: the lines before the damage are
# read; its last line, cut, is no record (reported, kept in --rejects,
# never written), exit 2.  A plain file's last line without a line end
# is a record.
printf '%s\n%s' '4k3/8/8/8/8/8/8/4K3 w - - id "one";' \
    '4k3/8/8/8/8/8/8/4K3 w - - id "two";' >"$T/cut.epd"
run 0 "$V" -n "$T/cut.epd"
[ "$(wc -l <"$T/out")" -eq 2 ] || fail "last line without LF"
for z in xz zstd gzip bzip2; do
	command -v $z >/dev/null || continue
	$z -c "$T/cut.epd" >"$T/cut.z" 2>/dev/null || continue
	size=$(wc -c <"$T/cut.z")
	for cut in 4 8 12; do
		dd if="$T/cut.z" of="$T/cut-$cut.z" bs=1 count=$((size - cut)) \
		    2>/dev/null
		run 2 "$V" -n --rejects="$T/cut.rej" "$T/cut-$cut.z"
		grep -q '"two"' "$T/out" && fail "$z -$cut: cut line written"
		grep -q "^epd-validate: $T/cut-$cut.z: " "$T/err" ||
		    fail "$z -$cut: no damage message: $(cat "$T/err")"
		if grep -q ':2: last line cut short by the read error' \
		    "$T/err"; then
			# the rejects: the cut part of line 2
			r=$(cat "$T/cut.rej")
			case '4k3/8/8/8/8/8/8/4K3 w - - id "two";' in
			"$r"*) ;;
			*) fail "$z -$cut: rejects $r" ;;
			esac
		elif [ "$z" = xz ] || [ "$z" = zstd ] && [ "$cut" -eq 4 ]; then
			fail "$z -$cut: no cut-line message: $(cat "$T/err")"
		fi
	done
done
finish
