#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-output-class.sh: the promises about the files a tool writes, for
# every tool of the build and every file option its --help shows
# (tests/outputs-lib.sh: nothing is listed by hand but the input each
# tool reads; a tool missing from that table fails).  The options are
# told apart by what they do: one naming a new file that makes it is an
# output, one that fails the run instead an input.  For every output
# option (-o among them):
# (a) a run that fails (exit 2: an input that does not exist after a
#     good one, a bad option after the files, the file size limit
#     reached, standard output on a full device) leaves the file and
#     the input as they were, and no file beside them;
# (b) naming an input (through a link) is refused (exit 2, a message,
#     the input as it was) or, for -o only, written safely (the output
#     whole, the link a link, the mode kept); naming the file of
#     another output option, or the file standard output appends to,
#     is refused (exit 2, a message, the file as it was); and
#     `tool f >> f` is refused for every tool;
# (c) a symbolic link is written through to its target (a dangling
#     one creates it), an existing file keeps its mode, a new one gets
#     0666 less the umask, a FIFO is written in place (a reader gets
#     the output), and device nodes made here (as /dev/null: c 1 3,
#     as /dev/full: c 1 7) are written in place, a full one a write
#     error with its message ("No space left on device"), exit 2.
# Signals: cli-output-signals.sh.
set -u
NAME=outclass
. "$top_srcdir/tests/testlib.sh"
. "$top_srcdir/tests/outputs-lib.sh"
B="$tooldir"
W="$T/w"
mkdir "$W" || exit 99
cd "$W" || exit 99

# device nodes in the test's directory (never the system's)
devices=1
if ! mknod "$T/probe.dev" c 1 3 2>/dev/null; then
	devices=0
	echo "note: mknod refused: device nodes not tried"
fi
rm -f "$T/probe.dev"

# files in the work directory, to see that a run left none behind
listing() { ls -A "$W" | tr '\n' ' '; }

# run TOOL OPTION=PATH INPUTS...: the tool with its arguments, output
# in $T/out, messages in $T/err, status in $rc
run() {
	t=$1
	shift
	# shellcheck disable=SC2086
	"$B/$t" $args "$@" >"$T/out" 2>"$T/err" </dev/null
	rc=$?
}

ntools=0
for tool in $(built_tools); do
	tool_setup "$tool" || continue
	ntools=$((ntools + 1))
	inputs "$kind"
	in="$T/in.$kind"
	big="$T/big.$kind"
	outs=""
	for o in $(file_options "$tool"); do
		c=$(classify "$tool" "$o")
		case $c in
		output) outs="$outs $o" ;;
		input) ;;
		*) fail "$tool --$o: neither an input nor an output: $c" ;;
		esac
	done

	# tool f >> f
	cp "$in" self
	"$B/$tool" $args self >>self 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] || fail "$tool f >> f: exit $rc, expected 2"
	[ -s "$T/err" ] || fail "$tool f >> f: no message"
	cmp -s self "$in" || fail "$tool f >> f: the input changed"
	rm -rf self split

	for o in $outs; do
		what="$tool --$o"
		# what the option writes
		run "$tool" --"$o"=want "$in"
		rc0=$rc
		[ $rc0 -le 1 ] || { fail "$what: exit $rc0 on a good input:" \
		    "$(cat "$T/err")"; continue; }
		cp "$T/out" "$T/stdout.want"
		run "$tool" --"$o"=bigwant "$big"
		before=$(listing)

		# (a) a missing input after a good one: exit 2, nothing changed
		echo old >x
		cp "$in" in.copy
		run "$tool" --"$o"=x in.copy "$T/missing"
		[ $rc -eq 2 ] || fail "$what, a missing input: exit $rc"
		[ "$(cat x)" = old ] || fail "$what: a failed run changed the file"
		cmp -s in.copy "$in" || fail "$what: a failed run changed the input"
		rm in.copy x
		[ "$(listing)" = "$before" ] ||
		    fail "$what: a failed run left files: $(listing)"
		# a bad option after the files: exit 2, nothing changed
		echo old >x
		run "$tool" --"$o"=x "$in" --no-such-option
		[ $rc -eq 2 ] || fail "$what, a bad option: exit $rc"
		[ "$(cat x)" = old ] || fail "$what: a bad option changed the file"
		# past the file size limit (the tool ignores SIGXFSZ: EFBIG)
		if [ "$(wc -c <bigwant)" -gt 16384 ]; then
			(ulimit -f 16 && exec "$B/$tool" $args --"$o"=x "$big" \
			    >/dev/null 2>"$T/err" </dev/null)
			rc=$?
			[ $rc -eq 2 ] || fail "$what, file too large: exit $rc"
			grep -q "x: File too large" "$T/err" ||
			    fail "$what, file too large: $(head -2 "$T/err")"
			[ "$(cat x)" = old ] ||
			    fail "$what, file too large: the file changed"
		fi
		rm x
		[ "$(listing)" = "$before" ] ||
		    fail "$what: a failed run left files: $(listing)"
		# standard output on a full device: exit 2, nothing changed
		if [ $devices -eq 1 ] && [ "$o" != output ] &&
		    [ -s "$T/stdout.want" ]; then
			mknod "$T/full" c 1 7
			echo old >x
			"$B/$tool" $args --"$o"=x "$big" >"$T/full" 2>"$T/err"
			rc=$?
			[ $rc -eq 2 ] || fail "$what >full: exit $rc, expected 2"
			grep -q 'No space left on device' "$T/err" ||
			    fail "$what >full: message: $(head -2 "$T/err")"
			[ "$(cat x)" = old ] ||
			    fail "$what >full: a failed run changed the file"
			rm -f x "$T/full"
		fi

		# (b) an input: -o written whole (as sort(1)) or refused; any
		# other output refused (it would take the input's place)
		cp "$in" self
		chmod 640 self
		ln -s self selflink
		run "$tool" --"$o"=selflink selflink
		[ -L selflink ] || fail "$what=input: the link was replaced"
		[ "$(stat -c %a self)" = 640 ] ||
		    fail "$what=input: mode 640 became $(stat -c %a self)"
		if [ $rc -eq 2 ]; then
			[ -s "$T/err" ] || fail "$what=input: refused without a message"
			cmp -s self "$in" || fail "$what=input: refused, input changed"
		elif [ "$o" = output ]; then
			cmp -s self want ||
			    fail "$what=input: exit $rc, the output is not whole"
		else
			fail "$what=input: exit $rc, not refused"
			cmp -s self "$in" || fail "$what=input: the input was replaced"
		fi
		rm -rf self selflink split
		# another output option, or standard output, on one file
		for p in $outs; do
			[ "$p" = "$o" ] && continue
			echo old >f
			run "$tool" --"$o"=f --"$p"=f "$in"
			[ $rc -eq 2 ] || fail "$what --$p, one file: exit $rc"
			[ -s "$T/err" ] || fail "$what --$p, one file: no message"
			[ "$(cat f)" = old ] || fail "$what --$p, one file: changed"
			rm f
		done
		if [ "$o" != output ]; then
			echo old >f
			"$B/$tool" $args --"$o"=f "$in" >>f 2>"$T/err"
			rc=$?
			[ $rc -eq 2 ] || fail "$what=f >>f: exit $rc, expected 2"
			[ -s "$T/err" ] || fail "$what=f >>f: no message"
			[ "$(cat f)" = old ] || fail "$what=f >>f: the file changed"
			rm f
		fi

		# (c) links, modes
		mkdir sub
		echo old >sub/target
		ln -s sub/target link
		ln -s "$W/link" link2
		run "$tool" --"$o"=link2 "$in"
		[ -L link ] && [ -L link2 ] || fail "$what=LINK: a link was replaced"
		cmp -s sub/target want ||
		    fail "$what=LINK: the target does not hold the output"
		ln -s sub/new dangling
		run "$tool" --"$o"=dangling "$in"
		[ -L dangling ] || fail "$what=DANGLING: the link was replaced"
		cmp -s sub/new want ||
		    fail "$what=DANGLING: the target does not hold the output"
		echo old >e
		chmod 640 e
		(umask 022 && exec "$B/$tool" $args --"$o"=e "$in" \
		    >/dev/null 2>&1 </dev/null)
		[ "$(stat -c %a e)" = 640 ] ||
		    fail "$what: an existing file's mode 640 became $(stat -c %a e)"
		cmp -s e want || fail "$what=EXISTING: output"
		(umask 027 && exec "$B/$tool" $args --"$o"=n "$in" \
		    >/dev/null 2>&1 </dev/null)
		[ "$(stat -c %a n)" = 640 ] ||
		    fail "$what: a new file under umask 027: mode $(stat -c %a n)"
		rm -rf sub link link2 dangling e n
		# a FIFO: written in place, the reader gets the output
		# (the test holds it open for writing until the run ends,
		# so the reader ends whatever the tool did with the name)
		mkfifo fifo
		exec 5<>fifo 6<fifo
		cat <&6 5>&- >"$T/got" &
		reader=$!
		exec 6<&-
		run "$tool" --"$o"=fifo "$in"
		exec 5>&-
		wait $reader
		[ $rc -eq $rc0 ] || fail "$what=FIFO: exit $rc, expected $rc0"
		[ -p fifo ] || fail "$what=FIFO: replaced"
		cmp -s "$T/got" want || fail "$what=FIFO: the reader did not get" \
		    "the output"
		rm -f fifo
		# device nodes: written in place
		if [ $devices -eq 1 ]; then
			mknod null c 1 3
			run "$tool" --"$o"=null "$in"
			[ $rc -eq $rc0 ] || fail "$what=NULL: exit $rc, expected $rc0"
			[ -c null ] || fail "$what=NULL: the device was replaced"
			mknod full c 1 7
			run "$tool" --"$o"=full "$big"
			if [ -s bigwant ]; then
				[ $rc -eq 2 ] || fail "$what=FULL: exit $rc, expected 2"
				grep -q "full.*No space left on device" "$T/err" ||
				    fail "$what=FULL: message: $(head -2 "$T/err")"
			fi
			[ -c full ] || fail "$what=FULL: the device was replaced"
			rm -f null full
		fi
		rm -f want bigwant
		left=$(listing)
		[ -z "$left" ] || { fail "$what: files left: $left"; rm -rf ./* ./.??*; }
	done
	echo "ok: $tool (outputs:${outs:- none})"
done
[ $ntools -gt 0 ] || { echo "SKIP: no tool built"; exit 77; }
exit $status
