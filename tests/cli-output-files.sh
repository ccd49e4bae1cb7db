#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-output-files.sh: a directory as input gets one message from
# every tool: "prog: DIR: read error: Is a directory", exit 2, and the
# other inputs are still read.  (What -o and every other output option
# make of the file they name: cli-output-class.sh, for every tool.)
set -u
NAME=outfiles
. "$top_srcdir/tests/testlib.sh"
. "$top_srcdir/tests/outputs-lib.sh"
B="$tooldir"
ran=0

# every tool of the build, with its input and arguments from the table
# of tests/outputs-lib.sh
for tool in $(built_tools); do
	tool_setup "$tool" || continue
	ran=$((ran + 1))
	inputs "$kind"
	cp "$T/in.$kind" "$T/in"
	a="$args"
	cd "$T" || exit 99
	# shellcheck disable=SC2086
	"$B/$tool" $a "$T/in" >"$T/want" 2>"$T/err"
	[ $? -le 1 ] || fail "$tool: exit $? on the good input: $(cat "$T/err")"

	# a directory as input, named and as standard input
	mkdir "$T/dir"
	# shellcheck disable=SC2086
	expect 2 "$B/$tool" $a "$T/dir"
	[ "$(cat "$T/err")" = "$tool: $T/dir: read error: Is a directory" ] ||
	    fail "$tool DIR: message: $(cat "$T/err")"
	# shellcheck disable=SC2086
	"$B/$tool" $a <"$T/dir" >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq 2 ] || fail "$tool <DIR: exit $rc, expected 2"
	[ "$(cat "$T/err")" = "$tool: <stdin>: read error: Is a directory" ] ||
	    fail "$tool <DIR: message: $(cat "$T/err")"
	# the other inputs are still read
	# shellcheck disable=SC2086
	expect 2 "$B/$tool" $a "$T/dir" "$T/in"
	cmp -s "$T/out" "$T/want" || fail "$tool DIR FILE: the file was lost"
	rm -rf "$T/dir" "$T/split"
	echo "ok: $tool"
done

if [ "$ran" -eq 0 ]; then
	echo "SKIP: no tool built"
	exit 77
fi
exit $status
