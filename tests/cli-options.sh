#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-options.sh: option values every tool reads alike (src/cli/options.c).
# Sizes: one syntax for pgn-sort -S and pgn-split -b, a table of strings
# accepted and refused, and the units' values seen in the parts pgn-split
# cuts; an optional value written after a space: every tool with such an
# option (its --help shows --NAME[=...]) names the option in the message
# for the input it could not open.
set -u
NAME=cli-options
. "${top_srcdir:?}/tests/testlib.sh"
B="$tooldir"
[ -x "$B/pgn-split" ] && [ -x "$B/pgn-sort" ] ||
    { echo "SKIP: tools not built"; exit 77; }
PATH="$B:$PATH"
export PATH

# ---- sizes ----
# STRING SORT SPLIT: 0 accepted, 2 refused (pgn-sort -S, pgn-split -b);
# - for a size -S takes that may or may not be allocated here
while read -r v sort split; do
	if [ "$sort" != - ]; then
		expect "$sort" pgn-sort -S "$v" "$F/sample.pgn"
		[ "$sort" -eq 0 ] ||
		    grep -q "^pgn-sort: -S: .*'$v'" "$T/err" ||
		    fail "-S $v: $(cat "$T/err")"
	fi
	rm -rf "$T/p"
	expect "$split" pgn-split -b "$v" -d "$T/p" "$F/sample.pgn"
	[ "$split" -eq 0 ] || grep -q "^pgn-split: -b: .*'$v'" "$T/err" ||
	    fail "-b $v: $(cat "$T/err")"
done <<'EOF'
100 0 0
100b 0 0
64k 0 0
64K 0 0
1m 0 0
1M 0 0
1MiB 0 0
1MB 0 0
1kB 0 0
1KiB 0 0
1g 0 0
1G 0 0
1T - 0
1P - 0
1E - 0
15E 2 0
16E 2 2
10% 0 2
100% - 2
101% 2 2
nan 2 2
inf 2 2
0x100 2 2
1e3 2 2
1.5M 2 2
-1 2 2
+1 2 2
_1 2 2
1B 2 2
1p 2 2
1e 2 2
1Mi 2 2
1MIB 2 2
1Mb 2 2
1MiBB 2 2
1K1 2 2
1%% 2 2
18446744073709551615 2 0
18446744073709551615b 2 0
18446744073709551616b 2 2
99999999999999999999999 2 2
EOF
expect 2 pgn-sort -S '' "$F/sample.pgn"
expect 2 pgn-split -b '' -d "$T/p" "$F/sample.pgn"
expect 2 pgn-split -b 0 -d "$T/p" "$F/sample.pgn"
grep -q "at least 1" "$T/err" || fail "-b 0: $(cat "$T/err")"
expect 0 pgn-sort -S 0 "$F/sample.pgn"

# The units' values: games of exactly 100 bytes, parts of -b SIZE hold
# SIZE / 100 of them.
awk 'BEGIN { for (i = 1; i <= 3000; i++) {
	s = sprintf("[Event \"%05d\"]\n\n1. e4 *\n\n", i)
	printf "%s{%s}\n", substr(s, 1, length(s) - 1),
	    substr("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", 1, 100 - length(s) - 2)
    } }' >"$T/g100.pgn"
[ "$(wc -c <"$T/g100.pgn")" -eq 300000 ] || fail "100-byte games"
while read -r v games; do
	rm -rf "$T/p"
	pgn-split -b "$v" -d "$T/p" "$T/g100.pgn" || fail "-b $v"
	n=$(grep -c '^\[Event ' "$T/p/part001.pgn")
	[ "$n" -eq "$games" ] || fail "-b $v: $n games in a part, not $games"
done <<'EOF'
999 9
999b 9
1000 10
1k 10
1KB 10
1kB 10
1KiB 10
2K 20
2KB 20
200KB 2000
200K 2048
EOF

# ---- an optional value after a space ----
n=0
for tool in "$B"/*; do
	[ -f "$tool" ] && [ -x "$tool" ] || continue
	t=$(basename "$tool")
	"$tool" --help 2>/dev/null | grep -o -- '--[a-z-]*\[=' | tr -d '[=' |
	    sort -u >"$T/opts"
	while read -r opt; do
		n=$((n + 1))
		expect 2 "$t" "$opt" clk,eval "$T/missing.pgn"
		grep -qF "clk,eval: No such file or directory (did you mean $opt=clk,eval?)" \
		    "$T/err" || fail "$t $opt clk,eval: $(cat "$T/err")"
		# not when the file names come first
		expect 2 "$t" "$T/missing.pgn" "$opt" clk,eval
		grep -qF "(did you mean $opt=clk,eval?)" "$T/err" ||
		    fail "$t FILE $opt clk,eval: $(cat "$T/err")"
		grep -q "missing.pgn: No such file or directory$" "$T/err" ||
		    fail "$t: a hint for the wrong name: $(cat "$T/err")"
		# no hint with `=`, or after `--`
		expect 2 "$t" "$opt=x" clk,eval
		! grep -q "did you mean" "$T/err" || fail "$t $opt=x: a hint"
		expect 2 "$t" "$opt" -- clk,eval
		! grep -q "did you mean" "$T/err" || fail "$t $opt --: a hint"
		# an abbreviation is the option too
		short=$(printf '%s' "$opt" | cut -c1-9)
		expect 2 "$t" "$short" clk,eval
		grep -qF "(did you mean $opt=clk,eval?)" "$T/err" ||
		    fail "$t $short clk,eval: $(cat "$T/err")"
	done <"$T/opts"
done
[ "$n" -gt 0 ] || fail "no tool has an option with an optional value"
echo "ok: $n options with an optional value give the hint"
# A required value is no operand: -o takes it.
expect 2 pgn-regularize -o "$T/out.pgn" --strip-commands "$T/missing.pgn"
grep -qF "(did you mean --strip-commands=" "$T/err" ||
    fail "after -o FILE: $(cat "$T/err")"
expect 2 sh -c "cd '$T' && pgn-regularize --output --strip-commands clk,eval"
! grep -q "did you mean" "$T/err" || fail "--output's value taken for an option"

# ---- help and pages say the same ----
# No tool's --help has an empty default.  Every name -z takes (the
# library's table, cd_stream_format_parse in lib/stream/formats.c) is in
# the page of every tool whose --help has -z, and -z takes it.
zn=$(sed -n '/^cd_stream_format_parse/,/^}/p' \
    "$top_srcdir/lib/stream/formats.c" | grep -o '{ "[a-z0-9]*", CD_STREAM' |
    cut -d'"' -f2)
[ -n "$zn" ] || fail "no compression names in lib/stream/formats.c"
nz=0
for t in $(built_tools); do
	"$B/$t" --help >"$T/help" 2>&1
	! grep -n 'default: *)' "$T/help" ||
	    fail "$t --help: an empty default"
	grep -q -- '--compress=' "$T/help" || continue
	nz=$((nz + 1))
	for z in $zn; do
		grep -q "^\.Cm $z\( \|$\)\|Cm $z [,.;)]" \
		    "$top_srcdir/man/$t.1" ||
		    fail "$t(1) does not name -z $z"
	done
done
[ "$nz" -gt 0 ] || fail "no tool --help shows -z"
for z in $zn; do
	expect 0 pgn-sort -z "$z" -o "$T/z.pgn" "$F/sample.pgn"
	pgn-sort "$T/z.pgn" >"$T/z.back" 2>/dev/null &&
	    pgn-sort "$F/sample.pgn" | cmp -s - "$T/z.back" ||
	    fail "pgn-sort -z $z: the games do not read back"
done
echo "ok: $nz tools with -z name $(echo $zn | wc -w) formats"
exit $status
