#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-output-errors.sh: every tool, when its output fails, says so and
# exits 2, and never leaves a partial file that looks good:
# - standard output on a full disk (/dev/full);
# - standard output into a pipe closed early (| head -c 100): as
#   sort(1), the tool dies of SIGPIPE (status 141), quietly;
# - -o FILE hitting the file size limit (ulimit -f; the tool ignores
#   SIGXFSZ, so the write fails with EFBIG): exit 2, FILE keeps its old
#   content and no temporary file is left beside it.
# (Signals, FIFOs and devices as outputs, for every tool and every
# output option: cli-output-signals.sh and cli-output-class.sh.)
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"
B="$tooldir"
NAME=outerr
. "$top_srcdir/tests/testlib.sh"
ran=0

# Inputs with a few hundred KB of output for each tool.
i=0
while [ $i -lt 400 ]; do
	cat "$F/sample.pgn"
	echo
	i=$((i + 1))
done >"$T/big.pgn"
i=0
while [ $i -lt 200 ]; do
	cat "$F/epd-valid.epd"
	echo
	i=$((i + 1))
done >"$T/big.epd"
if [ -x "$B/pgn2pgc" ]; then
	"$B/pgn2pgc" -q "$T/big.pgn" >"$T/big.pgc" 2>/dev/null
fi

# tool NAME: its arguments for a big output, or nothing if not built
args() {
	[ -x "$B/$1" ] || return 1
	case $1 in
	pgn-regularize|pgn-sort|pgn2pgc|pgn2epd) echo "-q $T/big.pgn" ;;
	pgc2pgn) [ -s "$T/big.pgc" ] || return 1; echo "-q $T/big.pgc" ;;
	epd-validate) echo "-q -n $T/big.epd" ;;
	chess-perft) echo "-q -d 1 $T/big.epd" ;;
	esac
}

for tool in pgn-regularize pgn-sort pgn2pgc pgn2epd pgc2pgn epd-validate \
    chess-perft; do
	if ! a=$(args "$tool"); then
		echo "SKIP: $tool is not built"
		continue
	fi
	ran=$((ran + 1))

	# the input is good: the output alone must make the tool fail
	# shellcheck disable=SC2086
	"$B/$tool" $a >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq 0 ] && [ -s "$T/out" ] ||
	    fail "$tool: exit $rc on the good input"

	# full disk
	# shellcheck disable=SC2086
	"$B/$tool" $a >/dev/full 2>"$T/err"
	rc=$?
	[ "$rc" -eq 2 ] || fail "$tool >/dev/full: exit $rc, expected 2"
	grep -q "^$tool: write error on standard output: No space left" \
	    "$T/err" || fail "$tool >/dev/full: no message: $(cat "$T/err")"

	# closed pipe
	# shellcheck disable=SC2086
	{ "$B/$tool" $a 2>"$T/err"; echo $? >"$T/rc"; } | head -c 100 \
	    >/dev/null
	rc=$(cat "$T/rc")
	# as sort(1): killed by SIGPIPE, no message
	[ "$rc" -eq 141 ] || fail "$tool | head: exit $rc, expected 141"
	[ ! -s "$T/err" ] || fail "$tool | head: message: $(cat "$T/err")"

	# -o FILE over the file size limit
	mkdir "$T/o"
	echo old >"$T/o/file"
	# shellcheck disable=SC2086
	# (SIGXFSZ left at its default: the tool must ignore it)
	(ulimit -f 16 && exec "$B/$tool" -o "$T/o/file" $a) 2>"$T/err"
	rc=$?
	[ "$rc" -eq 2 ] || fail "$tool -o (file too large): exit $rc"
	grep -q "^$tool: write error on $T/o/file: File too large" \
	    "$T/err" || fail "$tool -o: no message: $(cat "$T/err")"
	[ "$(cat "$T/o/file")" = old ] ||
	    fail "$tool -o: the old file was replaced by a partial one"
	[ "$(ls "$T/o")" = file ] ||
	    fail "$tool -o: files left: $(ls "$T/o" | tr '\n' ' ')"
	rm -rf "$T/o"

	echo "ok: $tool"
done

if [ "$ran" -eq 0 ]; then
	echo "SKIP: no tool built"
	exit 77
fi
exit $status
