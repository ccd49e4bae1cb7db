#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-parallel.sh: the scale-out recipe of the README and of pgn-sort(1)
# gives, byte for byte, what the serial pipeline gives:
#
#	parallel --pipe --recend '\n' --recstart '[Event ' --block SIZE \
#	    -k --files 'pgn-regularize -q | pgn-sort' <in.pgn >parts
#	pgn-sort -m $(cat parts) >out.pgn
#
# against  pgn-regularize in.pgn | pgn-sort >out.pgn,  also with -u and
# -r, with --sshlogin naming this host (":"), and pgn2pgc with -k and no
# merge (its parts simply follow each other), on a file of fixture games
# copied 40 times (each copy tagged, so ties in all eight keys must keep
# their input order), and on the corpus archive when it is present.
# Skipped (77) without GNU parallel.
set -u
: "${top_srcdir:?}" "${top_builddir:?}"
B="$top_builddir/src"
F="$top_srcdir/tests/files"
command -v parallel >/dev/null 2>&1 &&
    parallel --version 2>/dev/null | grep -q 'GNU parallel' || {
	echo "SKIP: GNU parallel is not installed"
	exit 77
}
for t in pgn-regularize pgn-sort; do
	[ -x "$B/$t" ] || { echo "SKIP: $t is not built"; exit 77; }
done
NAME=parallel
. "$top_srcdir/tests/testlib.sh"
PATH="$B:$PATH"
export PATH
# parallel keeps its temporary files (--files) here
TMPDIR="$T"
export TMPDIR

# same NAME INPUT BLOCK SORTOPTS PAROPTS...: serial against parallel
same() {
	name=$1 in=$2 block=$3 sopts=$4
	shift 4
	# shellcheck disable=SC2086
	pgn-regularize -q "$in" | pgn-sort $sopts >"$T/serial" ||
	    { fail "$name: serial pipeline"; return; }
	# shellcheck disable=SC2086
	parallel --will-cite --pipe --recend '\n' --recstart '[Event ' \
	    --block "$block" -k --files "$@" "pgn-regularize -q | pgn-sort $sopts" \
	    <"$in" >"$T/parts" 2>"$T/err" ||
	    { fail "$name: parallel: $(head -c 300 "$T/err")"; return; }
	n=$(grep -c '' "$T/parts")
	# shellcheck disable=SC2046,SC2086
	pgn-sort -m $sopts $(cat "$T/parts") >"$T/par" ||
	    fail "$name: pgn-sort -m"
	# shellcheck disable=SC2046
	rm -f $(cat "$T/parts")
	if cmp -s "$T/serial" "$T/par"; then
		echo "ok: $name: $n parts merged = serial ($(wc -c <"$T/par") bytes)"
	else
		fail "$name: the parallel result differs from the serial one"
	fi
	[ "$n" -gt 1 ] || fail "$name: the input was not split ($n part)"
}

# Fixture games in export format (every game starts with its Event
# tag), 40 copies, each game of copy k tagged [Copy "k"].
pgn-regularize -q "$F"/sample.pgn "$F"/sort-keys.pgn "$F"/pgc-sample.pgn \
    >"$T/base.pgn" 2>/dev/null
[ -s "$T/base.pgn" ] || fail "no fixture games"
k=1
while [ $k -le 40 ]; do
	awk -v k=$k '{ print } /^\[Result / { printf "[Copy \"%d\"]\n", k }' \
	    "$T/base.pgn"
	k=$((k + 1))
done >"$T/copies.pgn"

same fixtures "$T/copies.pgn" 20k "" -j2
same fixtures-unique "$T/copies.pgn" 20k "-u" -j2
same fixtures-reverse "$T/copies.pgn" 20k "-r" -j2
same fixtures-sshlogin "$T/copies.pgn" 30k "" --sshlogin 2/:

# A filter whose parts only follow each other: -k, no merge.
if [ -x "$B/pgn2pgc" ]; then
	pgn2pgc -q "$T/copies.pgn" >"$T/serial" 2>/dev/null
	parallel --will-cite --pipe --recend '\n' --recstart '[Event ' \
	    --block 20k -k -j2 'pgn2pgc -q' <"$T/copies.pgn" >"$T/par" \
	    2>"$T/err" || fail "pgn2pgc in parallel: $(head -c 300 "$T/err")"
	if [ -s "$T/serial" ] && cmp -s "$T/serial" "$T/par"; then
		echo "ok: pgn2pgc: parts in order = serial"
	else
		fail "pgn2pgc: the parallel result differs from the serial one"
	fi
fi

if [ -f "${CORPUS:-}/pgn/otb-14539.pgn.xz" ]; then
	xz -dc "$CORPUS/pgn/otb-14539.pgn.xz" >"$T/otb.pgn"
	same otb-14539 "$T/otb.pgn" 2M "" -j2
else
	echo "SKIP: no corpus: the archive part"
fi
exit $status
