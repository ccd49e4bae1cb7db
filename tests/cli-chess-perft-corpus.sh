#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-chess-perft-corpus.sh: the standard and Chess960 perft suites of the
# shared corpus through chess-perft, each to a depth that keeps the whole
# test under a minute: 6.4e9 nodes, about 27 s of CPU on the reference
# machine (seconds per suite below, measured with the -O2 build).  Under
# a sanitizer build every depth is one less (about 10 s).  The deepest
# published counts run in bench/perft-deep (make perft-deep).  Skipped
# (77) without the corpus.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"
P="$tooldir/chess-perft"
D="${CORPUS:-}/perft"
NAME=perftc
. "$top_srcdir/tests/testlib.sh"
[ -d "$D" ] || skip "no corpus at $D"

# A sanitizer build runs several times slower: one depth less.
less=0
for f in "$top_builddir"/lib/.libs/libchessdata.so* \
    "$top_builddir"/lib/.libs/libchessdata.a; do
	if [ -f "$f" ] && grep -q -e __asan_init -e __ubsan_handle "$f"; then
		less=1
		break
	fi
done

# suite, depth, positions, counts checked at that depth
while read -r suite depth npos ncounts _; do
	case $suite in '#'*|'') continue ;; esac
	d=$((depth - less))
	[ -f "$D/$suite" ] || { fail "no $D/$suite"; continue; }
	"$P" -q --stats --depth="$d" "$D/$suite" >"$T/out" 2>"$T/err"
	st=$?
	tail -n 1 "$T/err"
	if [ "$st" -ne 0 ]; then
		fail "$suite at depth $d: exit $st"
		head -n 20 "$T/err" >&2
		continue
	fi
	# every position counted, and every published count up to the
	# depth checked
	grep -q "^chess-perft: $npos positions, " "$T/err" ||
	    fail "$suite: not $npos positions"
	if [ "$less" -eq 0 ]; then
		grep -q ", $ncounts counts checked, 0 mismatches" "$T/err" ||
		    fail "$suite: not $ncounts counts checked"
	fi
done <<'EOF'
# suite				depth	positions	counts	(seconds)
ethereal/standard.epd		5	128	633	1.5
ethereal/fischer.epd		4	960	3840	3.1
python-chess/random.perft	4	6838	27352	17.4
python-chess/tricky.perft	5	19	67	1.7
python-chess/chess960.perft	4	960	3840	3.4
scalachess/x-fen.perft		5	5	25	0.2
EOF
finish
