#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-epd-validate-corpus.sh: every EPD suite of the shared corpus
# through epd-validate.  Each suite either passes or fails with the
# exact number of invalid lines listed below, where the suite itself is
# wrong (the reasons are in epd-validate(1), CAVEATS).  The
# canonical output of every suite must read back unchanged.  Skipped
# (77) without the corpus.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"
V="$tooldir/epd-validate"
D="${CORPUS:-}/epd"
NAME=epdc
. "$top_srcdir/tests/testlib.sh"
[ -d "$D" ] || skip "no corpus at $D"

# invalid lines per suite; every suite not named has none
expected() {
	case $1 in
	arasan/arasan16.epd)		echo 1 ;;	# line 57: id twice
	python-chess/endgame-dm-4.epd)	echo 8 ;;	# dm 0, dm -N
	python-chess/endgame-dm-5.epd)	echo 3 ;;	# dm 0, dm -N
	python-chess/hist_endgame-dm.epd) echo 5 ;;	# dm; 3 impossible checks
	python-chess/giveaway-puzzles.epd) echo 44 ;;	# giveaway: no kings
	python-chess/hist_giveaway-dm.epd) echo 33 ;;	# giveaway: no kings
	python-chess/suicide-dtm.epd)	echo 33 ;;	# suicide: no kings
	python-chess/suicide-dtz.epd)	echo 10 ;;	# suicide: no kings
	python-chess/suicide-stats.epd)	echo 4852 ;;	# suicide: no kings
	python-chess/pv.epd)		echo 1 ;;	# c0 8 (not a string)
	sunfish/3fold.epd)		echo 1 ;;	# line 3: string not closed
	sunfish/ccr_one_hour_test.epd)	echo 2 ;;	# am Ne5 ambiguous, Bcx3+
	sunfish/terminal_bench.epd)	echo 28 ;;	# free text after the ops
	*)				echo 0 ;;
	esac
}

n=0
for f in "$D"/*/*.epd; do
	name=${f#"$D"/}
	want=$(expected "$name")
	"$V" -q --stats -n --rejects="$T/rej" "$f" >"$T/norm" 2>"$T/err"
	rc=$?
	got=$(sed -n 's/.* written, \([0-9]*\) rejected in .*/\1/p' "$T/err")
	rejected=$(grep -c '' "$T/rej")
	if [ "$got" != "$want" ] || [ "$rejected" != "$want" ]; then
		fail "$name: $got invalid lines ($rejected rejected)," \
		    "expected $want"
		grep -v ' lines read, ' "$T/err" | head -5 >&2
	fi
	if [ "$want" -eq 0 ] && [ "$rc" -ne 0 ]; then
		fail "$name: exit $rc"
	elif [ "$want" -ne 0 ] && [ "$rc" -ne 1 ]; then
		fail "$name: exit $rc, expected 1"
	fi
	# the canonical form reads back as itself, without errors
	"$V" -q -n "$T/norm" >"$T/norm2" 2>"$T/err2" ||
	    fail "$name: canonical output invalid"
	cmp -s "$T/norm" "$T/norm2" ||
	    fail "$name: canonical output not stable"
	n=$((n + 1))
done
[ "$n" -gt 30 ] || fail "only $n suites found"
finish
