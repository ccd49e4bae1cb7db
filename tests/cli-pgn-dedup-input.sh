#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-pgn-dedup-input.sh: an input that changes between pgn-dedup's two
# passes is an error (exit 2, a message naming it) and -o keeps its old
# contents: a file edited in place with the same size and its mtime set
# back (caught by its status), and a spooled standard input whose
# temporary copy is edited (caught by the check of each game's bytes).
# The edit is made while pgn-dedup reads a later input, a pipe this
# test writes: once a megabyte more than the pipe holds has gone in,
# the first input's first pass is over, and the second pass waits for
# the end of the pipe.
set -u
NAME=dedupin
. "${top_srcdir:?}/tests/testlib.sh"
P="${tooldir:-$top_builddir/src}/pgn-dedup"

# the games, and a megabyte of empty lines (no game, no warning)
cp "$F/dedup-names.pgn" "$T/orig.pgn" || exit 99
head -c 1048576 /dev/zero | tr '\0' '\n' >"$T/blank"

# edit FILE: one letter of the first White tag's value, in place
edit() {
	off=$(grep -abo '\[White "' "$1" | head -n 1 | cut -d: -f1)
	[ -n "$off" ] || { echo "no White tag in $1" >&2; return 1; }
	printf 'Q' | dd of="$1" bs=1 seek=$((off + 8)) conv=notrunc 2>/dev/null
}

# sanity: without an edit the two inputs read as one
for mode in --keep=last --included --groups="$T/groups"; do
	cp "$T/orig.pgn" "$T/v.pgn"
	"$P" -q "$mode" "$T/v.pgn" - <"$T/blank" >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -le 1 ] || fail "$mode: no edit: exit $rc"
	[ -s "$T/out" ] || fail "$mode: no edit: no output"
done

# a file edited in place between the passes, its mtime set back
for mode in --keep=last --included --groups="$T/groups"; do
	cp "$T/orig.pgn" "$T/v.pgn"
	touch -r "$T/orig.pgn" "$T/v.pgn"
	echo old >"$T/o.pgn"
	{
		cat "$T/blank"
		edit "$T/v.pgn" && touch -r "$T/orig.pgn" "$T/v.pgn"
	} | "$P" -q "$mode" -o "$T/o.pgn" "$T/v.pgn" - 2>"$T/err"
	rc=$?
	cmp -s "$T/v.pgn" "$T/orig.pgn" && fail "$mode: the file was not edited"
	[ "$rc" -eq 2 ] || fail "$mode: a file edited between the passes: exit $rc"
	grep -q "^pgn-dedup: $T/v.pgn: changed while it was read" "$T/err" ||
	    { fail "$mode: edited file: no message naming it"; cat "$T/err" >&2; }
	[ "$(cat "$T/o.pgn")" = old ] || fail "$mode: edited file: -o changed"
done

# standard input spooled, its temporary copy edited between the passes
# (a third party in -T DIR): the games read again are not the same
mkdir "$T/tmp"
{
	cat "$T/blank"
	sp=$(grep -l '\[White' "$T/tmp"/* 2>/dev/null | head -n 1)
	if [ -n "$sp" ]; then edit "$sp"; else echo "no spooled copy" >&2; fi
} | {
	exec 3<&0
	"$P" -q --keep=last -T "$T/tmp" -o "$T/o.pgn" - /dev/fd/3 \
	    <"$T/orig.pgn" 2>"$T/err"
	echo $? >"$T/rc"
}
rc=$(cat "$T/rc")
[ "$rc" -eq 2 ] || fail "edited spool: exit $rc"
grep -q "^pgn-dedup: <stdin>: changed while it was read (game 1)" "$T/err" ||
    { fail "edited spool: no message"; cat "$T/err" >&2; }
[ "$(cat "$T/o.pgn")" = old ] || fail "edited spool: -o changed"
exit $status
