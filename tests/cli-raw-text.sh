#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-raw-text.sh: a game whose tag pair does not read or whose brace
# comment is never closed is treated alike by every tool, whether it
# parses the game or only reads its tags: rejected with the parser's
# message by the tools that reject games (pgn2tsv with tag columns only,
# pgn-select with tag conditions only included), kept with that message
# as a warning by pgn-sort and pgn-split, which never reject a game for
# its text.
set -u
NAME=rawtext
. "$top_srcdir/tests/testlib.sh"
cd "$T" || exit 99

printf '[Event "ok"]\n[White "x"]\n\n1. e4 e5 *\n' >ok.pgn
printf '[Event "a"]\n[White "abc]\n\n1. e4 *\n\n' >bad1.pgn
printf '[Event "b"]\n[White abc]\n\n1. e4 *\n\n' >bad2.pgn
printf '[Event "c"]\n{ open\n[White "x"]\n\n1. e4 *\n\n' >bad3.pgn
printf '[Event "d"]\n[White "x"] [Black\n\n1. e4 *\n\n' >bad4.pgn
printf '[Event "e"]\n[White "x"]\n\n1. e4 { open *\n\n' >bad5.pgn
printf '[White "abc]\n\n1. e4 *\n\n' >bad6.pgn

for b in bad1 bad2 bad3 bad4 bad5 bad6; do
	cat "$b.pgn" ok.pgn >in.pgn
	"$tooldir/pgn-regularize" --rejects=want.rej in.pgn >/dev/null 2>want.err
	[ "$?" -eq 1 ] || fail "$b: pgn-regularize does not reject it"
	msg=$(sed -n 's/^pgn-regularize: in\.pgn:\([0-9]*:[0-9]*\): game 1: /\1: /p' want.err)
	[ -n "$msg" ] || { fail "$b: pgn-regularize: $(cat want.err)"; continue; }
	# the tools that reject: the full path and the tags-only path
	for cmd in "pgn2tsv" "pgn2tsv -f White" "pgn2tsv -f Event,Result" \
	    "pgn2json" "pgn-select -t Event~." "pgn-select --plies=0..9" \
	    "pgn-select --games=2" "pgn-select -c -t White=abc" \
	    "pgn2epd" "pgn2pgc -o out.pgc"; do
		set -- $cmd
		prog=$1
		shift
		"$tooldir/$prog" --rejects=rej.pgn "$@" in.pgn >out 2>err
		rc=$?
		[ "$rc" -eq 1 ] || [ "$prog" = pgn-select ] ||
		    fail "$b: $cmd: exit $rc, expected 1"
		[ "$rc" -le 1 ] || fail "$b: $cmd: exit $rc"
		grep -qxF "$prog: in.pgn:${msg%%: *}: game 1: ${msg#*: }" err ||
		    fail "$b: $cmd: not rejected as by the parser: $(cat err)"
		cmp -s rej.pgn want.rej || fail "$b: $cmd: rejects file differs"
	done
	# the tools that keep every game: a warning, the game kept
	"$tooldir/pgn-sort" in.pgn >out 2>err
	[ "$?" -eq 0 ] || fail "$b: pgn-sort: exit status"
	grep -qxF "pgn-sort: in.pgn:${msg%%: *}: warning: game 1: ${msg#*: }" err ||
	    fail "$b: pgn-sort: no warning: $(cat err)"
	[ "$(grep -c '^1\. e4' out)" -eq 2 ] || fail "$b: pgn-sort lost a game"
	rm -rf parts && mkdir parts
	"$tooldir/pgn-split" -n 1 -d parts in.pgn 2>err
	[ "$?" -eq 0 ] || fail "$b: pgn-split: exit status"
	grep -qxF "pgn-split: in.pgn:${msg%%: *}: warning: game 1: ${msg#*: }" err ||
	    fail "$b: pgn-split: no warning: $(cat err)"
	cat parts/* | cmp -s - in.pgn || fail "$b: pgn-split: parts differ from the input"
done
exit "$status"
