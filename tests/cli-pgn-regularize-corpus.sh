#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-pgn-regularize-corpus.sh: pgn-regularize over the whole shared
# corpus ($CORPUS: every quirks/ file and the four big pgn/*.xz
# archives, about 450 MB of PGN): nothing lost (games read = written +
# rejected), idempotence (the output regularized again is the same
# bytes, every game of it accepted), the export format's line rules on
# every output line, rejects rejected again, and no rejected game in the
# four big archives.  Skipped (77) when the corpus or xz is missing.
# Takes about half a minute on one core (the TCEC file is 433 MB).
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"
P="$tooldir/pgn-regularize"
C="${CORPUS:-}"
if [ -z "$C" ] || [ ! -d "$C/quirks" ] || ! command -v xz >/dev/null; then
	echo "corpus or xz not found: skipped"
	exit 77
fi
NAME=pgnregc
. "$top_srcdir/tests/testlib.sh"
LC_ALL=C
export LC_ALL

# counts FILE: "read written rejected" from a --stats line
counts() {
	sed -n 's/^pgn-regularize: \([0-9]*\) games read, \([0-9]*\) written, \([0-9]*\) rejected in .*/\1 \2 \3/p' "$1"
}

# lines NAME FILE: every movetext line of an export is at most 79 bytes
# unless it is one token (a comment's `{ ` and ` }` joined to it); no
# line has a tab, a CR, a leading or a trailing space
lines() {
	awk -v name="$1" '
	/\t|\r/ { print name ": tab or CR at line " NR; bad = 1; exit }
	/^ | $/ { print name ": leading or trailing space at line " NR; bad = 1; exit }
	length($0) > 79 && !/^\[/ {
		s = $0
		sub(/^\{ /, "", s)
		sub(/ \}$/, "", s)
		if (index(s, " ") > 0) {
			print name ": line " NR " longer than 79: " $0
			bad = 1
			exit
		}
	}
	END { exit bad }' "$2" >&2 || fail "$1: export line rules"
}

# check NAME FILE [EXPECT_READ]: regularize FILE (- for standard
# input), then its output; with
# EXPECT_READ, that many games must be read and none rejected
check() {
	name=$1
	want=${3:-}
	"$P" -q --stats --rejects="$T/rej" "$2" >"$T/out1" 2>"$T/err1"
	rc=$?
	[ $rc -le 1 ] || { fail "$name: exit $rc"; cat "$T/err1" >&2; return; }
	set -- $(counts "$T/err1") x x x
	rd=$1 wr=$2 rj=$3
	[ "$rd" != x ] && [ "$rd" -eq $((wr + rj)) ] ||
	    { fail "$name: read $rd != written $wr + rejected $rj"; return; }
	if [ -n "$want" ]; then
		[ "$rd" -eq "$want" ] || fail "$name: $rd games read, not $want"
		[ "$rj" -eq 0 ] || { fail "$name: $rj games rejected";
		    head -5 "$T/err1" >&2; }
	fi
	[ "$rj" -eq 0 ] || [ $rc -eq 1 ] || fail "$name: rejects but exit 0"
	"$P" -q --stats "$T/out1" >"$T/out2" 2>"$T/err2" ||
	    { fail "$name: output not accepted"; head -3 "$T/err2" >&2; }
	cmp -s "$T/out1" "$T/out2" || fail "$name: not idempotent"
	[ "$(counts "$T/err2")" = "$wr $wr 0" ] ||
	    fail "$name: output has $(counts "$T/err2") games, not $wr"
	lines "$name" "$T/out1"
	if [ "$rj" -gt 0 ]; then
		"$P" -q --stats "$T/rej" >/dev/null 2>"$T/err3"
		[ "$(counts "$T/err3")" = "$rj 0 $rj" ] ||
		    fail "$name: rejects read again: $(counts "$T/err3")"
	fi
}

n=0
for f in "$C"/quirks/*/*.pgn; do
	check "${f#$C/}" "$f"
	n=$((n + 1))
done
[ $n -gt 50 ] || fail "only $n quirks files"

for spec in otb-14539:14539 book-8moves_v3:34700 book-2moves_v2:12092 \
    tcec-s01-s20:14040; do
	base=${spec%%:*}
	x="$C/pgn/$base.pgn.xz"
	[ -f "$x" ] || { fail "$x missing"; continue; }
	xz -dc "$x" | check "$base" - "${spec#*:}"
done

# (finish: a failure inside the pipeline's subshell counts too)
finish
