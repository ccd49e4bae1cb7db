#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-output-files.sh: what -o FILE makes of the file, as sort(1) does,
# for every tool:
# - a symbolic link is written through: the target gets the output, the
#   link stays a link (a dangling link creates its target);
# - a new file gets mode 0666 less the umask (tried under two umasks);
# - an existing file keeps its mode (0664 stays 0664);
# - -o may name an input, through a link too;
# and that a directory as input gets one message from every tool:
# "prog: DIR: read error: Is a directory", exit 2.
set -u
NAME=outfiles
. "$top_srcdir/tests/testlib.sh"
B="$tooldir"
ran=0

mode() { stat -c %a "$1"; }

for tool in pgn-regularize pgn-sort pgn2pgc pgn2epd pgc2pgn epd-validate \
    chess-perft; do
	[ -x "$B/$tool" ] || { echo "SKIP: $tool is not built"; continue; }
	ran=$((ran + 1))
	case $tool in
	pgc2pgn) "$B/pgn2pgc" -q -o "$T/in" "$F/sample.pgn" || fail pgn2pgc
	    a="-q" ;;
	epd-validate) cp "$F/epd-valid.epd" "$T/in"; a="-q -n" ;;
	chess-perft) head -3 "$F/epd-valid.epd" >"$T/in"; a="-q -d 1" ;;
	*) cp "$F/sample.pgn" "$T/in"; a="-q" ;;
	esac
	# shellcheck disable=SC2086
	"$B/$tool" $a "$T/in" >"$T/want" 2>"$T/err" ||
	    fail "$tool: exit $? on the good input: $(cat "$T/err")"
	[ -s "$T/want" ] || fail "$tool: no output"

	mkdir "$T/d" "$T/d/sub"
	# through a link, relative and absolute, and a chain of two
	echo old >"$T/d/target"
	ln -s target "$T/d/link"
	ln -s "$T/d/link" "$T/d/link2"
	# shellcheck disable=SC2086
	"$B/$tool" $a -o "$T/d/link2" "$T/in" || fail "$tool -o link: exit $?"
	[ -L "$T/d/link" ] && [ -L "$T/d/link2" ] ||
	    fail "$tool -o link: the link was replaced"
	cmp -s "$T/d/target" "$T/want" ||
	    fail "$tool -o link: the target does not hold the output"
	# a dangling link creates its target
	ln -s sub/new "$T/d/dangling"
	# shellcheck disable=SC2086
	"$B/$tool" $a -o "$T/d/dangling" "$T/in" ||
	    fail "$tool -o dangling link: exit $?"
	[ -L "$T/d/dangling" ] || fail "$tool -o dangling link: replaced"
	cmp -s "$T/d/sub/new" "$T/want" ||
	    fail "$tool -o dangling link: the target does not hold the output"
	# new files: 0666 less the umask
	for m in 022:644 077:600 002:664; do
		# shellcheck disable=SC2086
		(umask "${m%:*}" && exec "$B/$tool" $a -o "$T/d/new${m%:*}" \
		    "$T/in") || fail "$tool -o under umask ${m%:*}: exit $?"
		[ "$(mode "$T/d/new${m%:*}")" = "${m#*:}" ] ||
		    fail "$tool -o under umask ${m%:*}: mode" \
		    "$(mode "$T/d/new${m%:*}"), expected ${m#*:}"
	done
	# an existing file keeps its mode, whatever the umask
	for m in 664 640; do
		echo old >"$T/d/e$m"
		chmod "$m" "$T/d/e$m"
		# shellcheck disable=SC2086
		(umask 077 && exec "$B/$tool" $a -o "$T/d/e$m" "$T/in") ||
		    fail "$tool -o existing $m: exit $?"
		[ "$(mode "$T/d/e$m")" = "$m" ] ||
		    fail "$tool -o existing $m: mode now $(mode "$T/d/e$m")"
		cmp -s "$T/d/e$m" "$T/want" || fail "$tool -o existing: output"
	done
	# -o names the input, through a link
	cp "$T/in" "$T/d/self"
	chmod 664 "$T/d/self"
	ln -s self "$T/d/selflink"
	# shellcheck disable=SC2086
	"$B/$tool" $a -o "$T/d/selflink" "$T/d/selflink" ||
	    fail "$tool -o its input: exit $?"
	cmp -s "$T/d/self" "$T/want" || fail "$tool -o its input: output"
	[ -L "$T/d/selflink" ] || fail "$tool -o its input: link replaced"
	[ "$(mode "$T/d/self")" = 664 ] || fail "$tool -o its input: mode"
	left=$(cd "$T/d" && ls | tr '\n' ' ')
	[ "$left" = "dangling e640 e664 link link2 new002 new022 new077 \
self selflink sub target " ] || fail "$tool -o: files now: $left"
	rm -rf "$T/d"

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
	rmdir "$T/dir"
	echo "ok: $tool"
done

if [ "$ran" -eq 0 ]; then
	echo "SKIP: no tool built"
	exit 77
fi
exit $status
