#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-jobs.sh: pgn-regularize, pgn2pgc and pgn2epd write the same bytes
# whatever the number of threads (-j): standard output, standard error
# (rejected games, -v warnings, skipped text, a truncated last game, a
# missing input between two others), the rejects file and the exit
# status of -j 2, 3 and 8 (3 only after the first input) are those of
# -j 1, on an input of many batches (the fixture games copied 130
# times, junk text between some copies, some games that are rejected),
# on standard input, on an empty input, on the same input as zstd
# frames of 100 KB (also the plain input's games and messages), and,
# when the corpus is there, on its OTB archive and every quirks file;
# on an input whose batches give outputs of very different sizes (-j 2,
# 4 and 8), and on one whose games do not fit in a batch (-j 2, 3, 8).  A pipe closed early at -j 4 ends the
# tool quietly by SIGPIPE.  Also: -j takes 1 to 256 and nothing else.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"
B="$tooldir"
NAME=jobs
. "$top_srcdir/tests/testlib.sh"

# The big input: about 1 MB (64 KB batches: 16 of them).
i=0
while [ $i -lt 130 ]; do
	cat "$F/regularize-import.pgn" "$F/sample.pgn" "$F/p2e-games.pgn" \
	    "$F/regularize-bad.pgn" "$F/pgc-sample.pgn" "$F/sort-odd.pgn"
	[ $((i % 7)) -eq 3 ] && printf 'From: someone\nSubject: junk\n\n'
	i=$((i + 1))
done >"$T/big.pgn"
# its last game cut short (no termination marker)
head -c 300 "$F/sample.pgn" >"$T/cut.pgn"
: >"$T/empty.pgn"
[ "$(wc -c <"$T/big.pgn")" -gt 1000000 ] || fail "big.pgn is too small"

# run TAG J CMD...: CMD with -j J and --rejects, outputs in $T/TAG.*
run() {
	tag=$1 j=$2
	shift 2
	rm -f "$T/$tag.rej"
	"$@" -j "$j" --rejects="$T/$tag.rej" >"$T/$tag.out" 2>"$T/$tag.err"
	echo $? >"$T/$tag.rc"
	[ -f "$T/$tag.rej" ] || : >"$T/$tag.rej"
}

# same NAME CMD...: -j $JOBS (each) against -j 1
JOBS="2 3 8"
same() {
	what=$1
	shift
	run one 1 "$@"
	for j in $JOBS; do
		run many "$j" "$@"
		for x in out err rej rc; do
			cmp -s "$T/one.$x" "$T/many.$x" ||
			    fail "$what: -j $j: the $x differs from -j 1"
		done
	done
}

for set in "$T/big.pgn" "$T/big.pgn $T/no-such-file $T/cut.pgn" \
    "$T/empty.pgn $T/cut.pgn $T/big.pgn"; do
	# shellcheck disable=SC2086
	set -- $set
	same "pgn-regularize $*" "$B/pgn-regularize" "$@"
	same "pgn-regularize -v $*" "$B/pgn-regularize" -v "$@"
	same "pgn-regularize -r $*" "$B/pgn-regularize" -r "$@"
	same "pgn2pgc $*" "$B/pgn2pgc" "$@"
	same "pgn2epd --variations $*" "$B/pgn2epd" --variations "$@"
	same "pgn2epd -u $*" "$B/pgn2epd" -u "$@"
	JOBS=3
done
# what the comparison stands on: messages of all kinds, and output
run one 1 "$B/pgn-regularize" -v "$T/big.pgn" "$T/no-such-file" \
    "$T/cut.pgn"
for m in ': illegal move$' 'skipped [0-9]* bytes' \
    'no-such-file: No such file' 'no termination marker at the end' \
    'not in canonical SAN' 'read as O-O'; do
	grep -q "$m" "$T/one.err" || fail "pgn-regularize -v: no '$m' message"
done
[ "$(grep -c '^\[Event ' "$T/one.out")" -gt 1000 ] ||
    fail "pgn-regularize: too few games written"
[ "$(cat "$T/one.rc")" -eq 2 ] || fail "pgn-regularize: exit status"
# (a run with a missing input ends with status 2: no rejects file)
[ -s "$T/one.rej" ] && fail "pgn-regularize: a rejects file after status 2"
run one 1 "$B/pgn-regularize" "$T/big.pgn"
[ -s "$T/one.rej" ] || fail "pgn-regularize: no rejected game"

# a zstd input of many frames (decoded a frame per thread, in order):
# the games and messages of the plain input
if command -v zstd >/dev/null; then
	mkdir "$T/fr"
	split -b 100000 "$T/big.pgn" "$T/fr/p."
	for p in "$T"/fr/p.*; do zstd -q -c "$p"; done >"$T/frames.zst"
	JOBS="2 8"
	same "pgn-regularize, zstd frames" "$B/pgn-regularize" "$T/frames.zst"
	JOBS=3
	run many 1 "$B/pgn-regularize" "$T/big.pgn"
	sed "s|$T/frames.zst|$T/big.pgn|" "$T/one.err" >"$T/one.err2"
	cmp -s "$T/one.out" "$T/many.out" && cmp -s "$T/one.err2" "$T/many.err" ||
	    fail "pgn-regularize, zstd frames: not the plain file's games"
fi

# standard input
"$B/pgn-regularize" -j 1 <"$T/big.pgn" >"$T/a" 2>"$T/ea"
"$B/pgn-regularize" -j 4 <"$T/big.pgn" >"$T/b" 2>"$T/eb"
cmp -s "$T/a" "$T/b" && cmp -s "$T/ea" "$T/eb" ||
    fail "pgn-regularize: standard input: -j 4 differs from -j 1"

# Batches whose outputs differ in size by far (a thread whose output
# must wait for an earlier one's goes on with the next batch, and the
# thread that writes writes every one that is ready): 40 stretches of
# about 40 KB, in turn long games (a line of pgn2epd for each of 600
# positions), tiny games and rejected games (messages and rejects
# only), at -j 2 to 8 against -j 1.
long='[Event "long"]

1. Nf3 Nf6'
i=2
while [ $i -le 300 ]; do
	if [ $((i % 2)) -eq 0 ]; then long="$long $i. Ng1 Ng8"
	else long="$long $i. Nf3 Nf6"; fi
	i=$((i + 1))
done
long="$long *
"
# stretch N: the stretch of kind N % 3
stretch() {
	k=0
	case $(($1 % 3)) in
	0) while [ $k -lt 12 ]; do printf '%s\n' "$long"; k=$((k + 1)); done ;;
	1) while [ $k -lt 1500 ]; do printf '[Event "tiny"]\n\n1. e4 *\n\n'
	    k=$((k + 1)); done ;;
	2) while [ $k -lt 40 ]; do cat "$F/regularize-bad.pgn"
	    k=$((k + 1)); done ;;
	esac
}
i=0
while [ $i -lt 40 ]; do
	stretch $i
	i=$((i + 1))
done >"$T/mixed.pgn"
JOBS="2 4 8"
same "pgn2epd mixed" "$B/pgn2epd" "$T/mixed.pgn"
same "pgn-regularize mixed" "$B/pgn-regularize" -v "$T/mixed.pgn"
[ "$(grep -c . "$T/one.rej")" -gt 1000 ] &&
    [ "$(grep -c '^\[Event "long"' "$T/one.out")" -eq 168 ] ||
    fail "mixed: not all long games written, or too few rejected"
JOBS=3

# Games larger than the room a batch keeps for its games' bytes (128
# KB: a comment of 150 KB) or for their tags (8,192: 9,000 tags), each
# after games that half fill a batch: such a game waits for the next
# batch, which takes it first.  Every game written, in order, at -j 2
# to 8 as at -j 1.
awk 'BEGIN {
	c = "x"
	while (length(c) < 150000)
		c = c " " c
	for (i = 0; i < 6; i++) {
		for (k = 0; k < 150; k++)
			printf "[Event \"small %d\"]\n\n1. e4 e5 *\n\n", k
		printf "[Event \"comment %d\"]\n\n1. d4 {%s} *\n\n", i, c
		for (k = 0; k < 150; k++)
			printf "[Event \"small %d\"]\n\n1. c4 *\n\n", k
		printf "[Event \"tags %d\"]\n", i
		for (k = 0; k < 9000; k++)
			printf "[T%d \"%d\"]\n", k, k
		printf "\n1. Nf3 *\n\n"
	}
}' >"$T/large.pgn"
JOBS="2 3 8"
same "pgn-regularize large" "$B/pgn-regularize" "$T/large.pgn"
[ "$(grep -c '^\[Event ' "$T/one.out")" -eq 1812 ] &&
    [ "$(grep -c '^\[T8999 ' "$T/one.out")" -eq 6 ] &&
    [ "$(grep -c '^1. d4 { x x' "$T/one.out")" -eq 6 ] ||
    fail "large: not every game written"
JOBS=3

# a pipe closed early at -j 4: killed by SIGPIPE, no message; the
# input: long and tiny games (none rejected: no message)
i=0
while [ $i -lt 40 ]; do
	stretch $((i % 2))
	i=$((i + 1))
done >"$T/good.pgn"
for p in pgn-regularize pgn2epd; do
	{ "$B/$p" -j 4 "$T/good.pgn" 2>"$T/err"; echo $? >"$T/rc"; } |
	    head -c 100 >/dev/null
	[ "$(cat "$T/rc")" -eq 141 ] ||
	    fail "$p -j 4 | head: exit $(cat "$T/rc"), expected 141"
	[ ! -s "$T/err" ] || fail "$p -j 4 | head: message: $(cat "$T/err")"
done

# -j values
for p in pgn-regularize pgn2pgc pgn2epd; do
	for bad in 0 257 x 2x -1 ''; do
		expect 2 "$B/$p" -j "$bad" "$F/sample.pgn"
		grep -q "invalid number of jobs" "$T/err" ||
		    fail "$p -j '$bad': no message"
	done
	expect 0 "$B/$p" --jobs=256 "$F/sample.pgn"
done

# the corpus
C=${CORPUS:-/nonexistent}
if [ -d "$C/pgn" ] && [ -f "$C/pgn/otb-14539.pgn.xz" ]; then
	xz -dc "$C/pgn/otb-14539.pgn.xz" >"$T/otb.pgn" || fail "xz"
	same "pgn-regularize otb" "$B/pgn-regularize" -v "$T/otb.pgn"
	same "pgn2epd otb" "$B/pgn2epd" "$T/otb.pgn"
	find -L "$C/quirks" -type f -name '*.pgn' | sort >"$T/quirks"
	# shellcheck disable=SC2046
	same "pgn-regularize quirks" "$B/pgn-regularize" -v $(cat "$T/quirks")
	# shellcheck disable=SC2046
	same "pgn2pgc quirks" "$B/pgn2pgc" $(cat "$T/quirks")
fi
exit $status
