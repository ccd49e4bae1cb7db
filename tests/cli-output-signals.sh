#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-output-signals.sh: every signal that would end a tool (SIGINT,
# SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGXCPU, SIGVTALRM, SIGPROF,
# SIGUSR1, SIGUSR2), sent while the tool waits for more input with
# every output option its --help shows naming a file: the tool dies of
# that signal, every file keeps its old contents (no half output), and
# no temporary file is left, beside the outputs or in TMPDIR.  (The
# tools start with every signal at its default action, env
# --default-signal: a shell's background job ignores SIGINT and
# SIGQUIT.)  A signal ignored when a tool starts stays ignored, as
# with sort(1): under nohup (SIGHUP ignored), SIGHUP does not end it,
# and it goes on to write its output.  The
# tools come from the build, their options from their --help and
# their inputs from tests/outputs-lib.sh, as in cli-output-class.sh.
set -u
NAME=outsignals
. "$top_srcdir/tests/testlib.sh"
. "$top_srcdir/tests/outputs-lib.sh"
B="$tooldir"
W="$T/w"
mkdir "$W" "$T/tmp" || exit 99
cd "$W" || exit 99
TMPDIR="$T/tmp"
export TMPDIR
ulimit -c 0 2>/dev/null		# (SIGQUIT and SIGXCPU dump core)
pid=""
# shellcheck disable=SC2064
trap '[ -z "$pid" ] || kill -9 "$pid" 2>/dev/null; rm -rf "$T"' EXIT
signals="INT TERM HUP QUIT ALRM XCPU VTALRM PROF USR1 USR2"

# alive PID: the process runs (not a zombie yet to be waited for)
alive() {
	s=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	s=${s##*) }
	[ "${s%% *}" != Z ]
}

ntools=0
for tool in $(built_tools); do
	tool_setup "$tool" || continue
	ntools=$((ntools + 1))
	inputs "$kind"
	opts=""
	for o in $(file_options "$tool"); do
		[ "$(classify "$tool" "$o")" = output ] &&
		    opts="$opts --$o=$o.out"
	done
	for sig in $signals; do
		for o in $opts; do
			f=${o#*=}
			echo old >"$f"
		done
		mkdir split	# (pgn-split's -d: made before, to see it stay empty)
		before=$(ls -A | tr '\n' ' ')
		rm -f "$T/fifo"
		mkfifo "$T/fifo"
		# shellcheck disable=SC2086
		env --default-signal "$B/$tool" $args $opts <"$T/fifo" \
		    >"$T/out" 2>"$T/err" &
		pid=$!
		# the input, and the FIFO held open: the tool waits for more
		exec 3>"$T/fifo"
		cat "$T/in.$kind" >&3
		# wait until it has read the input (its temporaries made)
		n=0
		[ -n "$opts" ] || n=40	# (no file to see made)
		while [ $n -lt 40 ]; do
			[ "$(ls -A | tr '\n' ' ')" != "$before" ] && break
			[ "$(ls -A "$T/tmp")" != "" ] && break
			sleep 0.05
			n=$((n + 1))
		done
		sleep 0.05
		kill -"$sig" "$pid"
		# (a tool that ignores it: killed after 3 s, a failure)
		n=0
		while alive "$pid" && [ $n -lt 60 ]; do
			sleep 0.05
			n=$((n + 1))
		done
		alive "$pid" && kill -9 "$pid"
		# (the shell's note of the signal not in the log)
		{ wait "$pid"; } 2>/dev/null
		rc=$?
		pid=""
		exec 3>&-
		# died of that signal (kill -l: the name of its number)
		[ "$rc" -gt 128 ] && [ "$(kill -l $((rc - 128)))" = "$sig" ] ||
		    fail "$tool SIG$sig: exit $rc: $(head -2 "$T/err")"
		for o in $opts; do
			f=${o#*=}
			[ "$(cat "$f")" = old ] ||
			    fail "$tool SIG$sig: $f changed"
		done
		now=$(ls -A | tr '\n' ' ')
		[ "$now" = "$before" ] ||
		    fail "$tool SIG$sig: files left: $now (before: $before)"
		[ -z "$(ls -A "$T/tmp")" ] ||
		    fail "$tool SIG$sig: temporary files left: $(ls -A "$T/tmp")"
		[ ! -d split ] || [ -z "$(ls -A split)" ] ||
		    fail "$tool SIG$sig: files left in split: $(ls -A split)"
		rm -rf ./* ./.??* "$T/tmp"/* "$T/tmp"/.??*
	done
	# nohup: SIGHUP ignored at start stays ignored; the run ends well
	for o in $opts; do
		f=${o#*=}
		echo old >"$f"
	done
	rm -f "$T/fifo"
	mkfifo "$T/fifo"
	# shellcheck disable=SC2086
	env --default-signal --ignore-signal=HUP "$B/$tool" $args $opts \
	    <"$T/fifo" >"$T/out" 2>"$T/err" &
	pid=$!
	exec 3>"$T/fifo"
	cat "$T/in.$kind" >&3
	sleep 0.1
	kill -HUP "$pid"
	sleep 0.1
	exec 3>&-
	wait "$pid"
	rc=$?
	pid=""
	[ "$rc" -le 1 ] || fail "$tool under nohup, SIGHUP: exit $rc"
	for o in $opts; do
		f=${o#*=}
		[ "$(cat "$f")" != old ] ||
		    fail "$tool under nohup, SIGHUP: $f not written"
	done
	rm -rf ./* ./.??* "$T/tmp"/* "$T/tmp"/.??*
	echo "ok: $tool (outputs:${opts:- none})"
done
[ $ntools -gt 0 ] || { echo "SKIP: no tool built"; exit 77; }
exit $status
