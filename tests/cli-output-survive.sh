#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-output-survive.sh: the files a tool writes (-o FILE, --rejects=FILE)
# survive every failure, for every tool that has them (pgn-split, which
# writes parts, has its own test):
# - a run that fails (exit 2) leaves both files as they were (contents,
#   inode, mode, links; no temporary file left beside them): a missing
#   input, a truncated .xz input (signals: cli-output-signals.sh), a full
#   disk (a small tmpfs: the temporary file does not fit; or it fits but
#   the copy into a hard-linked target would not), standard output on
#   /dev/full;
# - a run that succeeds (exit 0 or 1) writes through symbolic links, and
#   keeps the target's inode and its other hard links, its mode and its
#   owner; a 255-byte file name works;
# - --rejects naming an input (by its name, a symbolic or a hard link,
#   before or after other inputs), and -o and --rejects naming one file
#   (new or not), are refused with exit 2 before anything is written;
# - --rejects=/dev/stderr 2>FILE writes the rejects along with the
#   messages (FILE is not replaced);
# - standard output appended to an input (tool f >> f, tool <f >>f, the
#   input named later) is refused with exit 2, as cat(1) does;
# - a closed standard output (>&-) is a write error, exit 2, and takes
#   nothing into the rejects file; a closed standard input a read error.
set -u
NAME=outsurvive
. "$top_srcdir/tests/testlib.sh"
B="$tooldir"
pids=""
mnt=""
# shellcheck disable=SC2064
trap 'for p in $pids; do kill "$p" 2>/dev/null; done
[ -z "$mnt" ] || umount "$mnt" 2>/dev/null; rm -rf "$T"' EXIT
ran=0

# Inputs: a few hundred KB of output for each tool, and some rejects.
i=0
while [ $i -lt 400 ]; do
	cat "$F/sample.pgn"
	echo
	i=$((i + 1))
done >"$T/good.pgn"
cat "$T/good.pgn" "$F/regularize-bad.pgn" >"$T/big.pgn"
i=0
while [ $i -lt 200 ]; do
	cat "$F/epd-valid.epd"
	i=$((i + 1))
done >"$T/good.epd"
cat "$T/good.epd" "$F/epd-invalid.epd" >"$T/big.epd"
if [ -x "$B/pgn2pgc" ]; then
	"$B/pgn2pgc" -q "$T/good.pgn" >"$T/big.pgc" 2>/dev/null
fi

# setup TOOL: a (its options), in (its input), rj (1: it has --rejects)
setup() {
	[ -x "$B/$1" ] || return 1
	a=-q
	in="$T/big.pgn"
	rj=1
	case $1 in
	pgn-select) a="-q --plies=0..100000" ;;
	pgn-sort) rj=0 ;;
	pgc2pgn) [ -s "$T/big.pgc" ] || return 1; in="$T/big.pgc"; rj=0 ;;
	epd-validate) a="-q -n"; in="$T/big.epd" ;;
	chess-perft) a="-q -d 1"; in="$T/good.epd"; rj=0 ;;
	esac
}

# snap FILE: what must not change in a file
snap() {
	if [ -e "$1" ]; then
		stat -L -c '%i %a %h %U %s' "$1"
		cksum <"$1"
	else
		echo none
	fi
}

# prepare DIR: an -o target O with a second hard link O2 (mode 640) and
# a rejects target R (mode 604) named through a symbolic link Rl
prepare() {
	rm -rf "$1"
	mkdir "$1"
	echo "old output" >"$1/O"
	chmod 640 "$1/O"
	ln "$1/O" "$1/O2"
	echo "old rejects" >"$1/R"
	chmod 604 "$1/R"
	ln -s R "$1/Rl"
	snapO=$(snap "$1/O")
	snapR=$(snap "$1/R")
}

# unchanged DIR WHAT: O and R as prepare left them, nothing else there
unchanged() {
	[ "$(snap "$1/O")" = "$snapO" ] || fail "$tool, $2: -o file changed"
	[ "$(snap "$1/R")" = "$snapR" ] ||
	    fail "$tool, $2: --rejects file changed"
	left=$(cd "$1" && ls -A | tr '\n' ' ')
	[ "$left" = "O O2 R Rl " ] || fail "$tool, $2: files now: $left"
}

# run ARGS...: the tool with its options, -o O, --rejects Rl if it has
# them, and ARGS; status in rc, messages in $T/err
run() {
	if [ "$rj" -eq 1 ]; then
		# shellcheck disable=SC2086
		"$B/$tool" $a -o "$W/O" --rejects="$W/Rl" "$@" 2>"$T/err"
	else
		# shellcheck disable=SC2086
		"$B/$tool" $a -o "$W/O" "$@" 2>"$T/err"
	fi
	rc=$?
}

have_xz=0
xz -c "$T/good.epd" >"$T/probe.xz" 2>/dev/null && have_xz=1
W="$T/w"
mnt_ok=""

for tool in pgn-regularize pgn-select pgn2json pgn2tsv pgn2epd pgn2pgc \
    pgn-sort pgc2pgn epd-validate chess-perft; do
	if ! setup "$tool"; then
		echo "SKIP: $tool is not built"
		continue
	fi
	ran=$((ran + 1))
	# the reference: standard output and the rejects of a good run
	if [ "$rj" -eq 1 ]; then
		# shellcheck disable=SC2086
		"$B/$tool" $a --rejects="$T/ref.rej" "$in" >"$T/ref.out" \
		    2>"$T/err"
	else
		# shellcheck disable=SC2086
		"$B/$tool" $a "$in" >"$T/ref.out" 2>"$T/err"
	fi
	rc=$?
	[ "$rc" -le 1 ] && [ -s "$T/ref.out" ] ||
	    fail "$tool: exit $rc on the good input: $(cat "$T/err")"
	[ "$rj" -eq 0 ] || [ -s "$T/ref.rej" ] || fail "$tool: no rejects"

	# --- failures leave -o and --rejects as they were ---
	prepare "$W"
	run "$in" "$T/missing"
	[ "$rc" -eq 2 ] || fail "$tool, missing input: exit $rc, expected 2"
	unchanged "$W" "missing input"

	if [ "$have_xz" -eq 1 ]; then
		xz -c "$in" >"$T/full.xz"
		n=$(wc -c <"$T/full.xz")
		head -c $((n / 2)) "$T/full.xz" >"$T/trunc.xz"
		prepare "$W"
		run "$T/trunc.xz"
		[ "$rc" -eq 2 ] ||
		    fail "$tool, truncated .xz: exit $rc, expected 2"
		unchanged "$W" "truncated .xz"
	fi

	if [ "$rj" -eq 1 ]; then
		prepare "$W"
		# shellcheck disable=SC2086
		"$B/$tool" $a --rejects="$W/Rl" "$in" >/dev/full 2>"$T/err"
		rc=$?
		[ "$rc" -eq 2 ] || fail "$tool >/dev/full: exit $rc"
		unchanged "$W" ">/dev/full"
	fi

	# a full disk: a tmpfs where the temporary file does not fit, then
	# one where it fits but the copy into the hard-linked O would not
	size=$(wc -c <"$T/ref.out")
	for k in $((size / 2048)) $((size * 3 / 2048)); do
		[ "$mnt_ok" != no ] || break
		mkdir -p "$T/full"
		if ! mount -t tmpfs -o "size=${k}k" tmpfs "$T/full" \
		    2>/dev/null; then
			echo "SKIP: full disk: cannot mount a tmpfs"
			mnt_ok=no
			break
		fi
		mnt="$T/full"
		prepare "$T/full/w"
		W="$T/full/w"
		run "$in"
		W="$T/w"
		[ "$rc" -eq 2 ] || fail "$tool, ${k}k disk: exit $rc"
		grep -q "No space left on device" "$T/err" ||
		    fail "$tool, ${k}k disk: message: $(cat "$T/err")"
		unchanged "$T/full/w" "${k}k disk"
		umount "$T/full"
		mnt=""
	done

	# --- success: through links, keeping inode, links, mode, owner ---
	prepare "$W"
	chown nobody "$W/R" 2>/dev/null
	snapR=$(snap "$W/R")
	ln -s O "$W/Ol"
	ino=$(stat -c %i "$W/O")
	if [ "$rj" -eq 1 ]; then
		# shellcheck disable=SC2086
		"$B/$tool" $a -o "$W/Ol" --rejects="$W/Rl" "$in" 2>"$T/err"
	else
		# shellcheck disable=SC2086
		"$B/$tool" $a -o "$W/Ol" "$in" 2>"$T/err"
	fi
	rc=$?
	[ "$rc" -le 1 ] || fail "$tool -o: exit $rc: $(cat "$T/err")"
	cmp -s "$W/O" "$T/ref.out" || fail "$tool -o: output differs"
	[ -L "$W/Ol" ] || fail "$tool -o: the link was replaced"
	[ "$(stat -c '%i %h %a' "$W/O")" = "$ino 2 640" ] ||
	    fail "$tool -o: now $(stat -c '%i %h %a' "$W/O"), was $ino 2 640"
	cmp -s "$W/O2" "$T/ref.out" || fail "$tool -o: the hard link differs"
	if [ "$rj" -eq 1 ]; then
		cmp -s "$W/R" "$T/ref.rej" || fail "$tool --rejects: differs"
		[ -L "$W/Rl" ] || fail "$tool --rejects: the link was replaced"
		[ "$(stat -c '%a %h %U' "$W/R")" = \
		    "$(echo "$snapR" | head -1 | cut -d' ' -f2-4)" ] ||
		    fail "$tool --rejects: mode or owner now" \
		    "$(stat -c '%a %h %U' "$W/R")"
	fi
	left=$(cd "$W" && ls -A | tr '\n' ' ')
	[ "$left" = "O O2 Ol R Rl " ] || fail "$tool -o: files now: $left"
	# a name of 255 bytes
	long=$(printf '%255s' "" | tr ' ' n)
	# shellcheck disable=SC2086
	"$B/$tool" $a -o "$W/$long" "$in" 2>"$T/err"
	rc=$?
	[ "$rc" -le 1 ] || fail "$tool -o 255 bytes: exit $rc: $(cat "$T/err")"
	cmp -s "$W/$long" "$T/ref.out" || fail "$tool -o 255 bytes: output"

	# --- refused before anything is read or written ---
	cp "$in" "$W/in"
	ln -s in "$W/inl"
	ln "$W/in" "$W/inh"
	snapI=$(snap "$W/in")
	# refused WHAT MESSAGE COMMAND...: exit 2 with "$tool: MESSAGE", the
	# input unchanged, no output, no temporary file left
	refused() {
		what=$1
		msg=$2
		shift 2
		"$@" >"$T/out" 2>"$T/err"
		rc=$?
		[ "$rc" -eq 2 ] || fail "$tool, $what: exit $rc, expected 2"
		[ "$(cat "$T/err")" = "$tool: $msg" ] ||
		    fail "$tool, $what: message: $(cat "$T/err")"
		[ "$(snap "$W/in")" = "$snapI" ] || fail "$tool, $what: input changed"
		[ ! -s "$T/out" ] || fail "$tool, $what: output written"
		[ -z "$(cd "$W" && ls -A | grep '^\.')" ] ||
		    fail "$tool, $what: temporary file left"
	}
	if [ "$rj" -eq 1 ]; then
		for r in in inl inh; do
			# shellcheck disable=SC2086
			refused "--rejects=$r" \
			    "$W/$r: rejects file is input file $W/in" \
			    "$B/$tool" $a --rejects="$W/$r" "$in" "$W/in"
		done
		# shellcheck disable=SC2086
		refused "-o F --rejects=F" \
		    "$W/new: rejects file is output file $W/new" \
		    "$B/$tool" $a -o "$W/new" --rejects="$W/new" "$in"
		[ ! -e "$W/new" ] || fail "$tool -o F --rejects=F: made F"
		ln -s new "$W/newl"
		# shellcheck disable=SC2086
		refused "-o L --rejects=F, L a link to F" \
		    "$W/new: rejects file is output file $W/newl" \
		    "$B/$tool" $a -o "$W/newl" --rejects="$W/new" "$in"
		rm "$W/newl"
		# shellcheck disable=SC2086
		refused "-o F --rejects=H, H a hard link to F" \
		    "$W/O2: rejects file is output file $W/O" \
		    "$B/$tool" $a -o "$W/O" --rejects="$W/O2" "$in"
		# shellcheck disable=SC2086
		refused "--rejects=/dev/stdout >F" \
		    "/dev/stdout: rejects file is output file (standard output)" \
		    sh -c 'exec "$@" >"$0"' "$W/so" \
		    "$B/$tool" $a --rejects=/dev/stdout "$in"
		[ ! -s "$W/so" ] || fail "$tool --rejects=/dev/stdout: output"
		rm -f "$W/so"
		# the file standard error goes to: written in place, with
		# the messages
		# shellcheck disable=SC2086
		"$B/$tool" $a --rejects=/dev/stderr "$in" >/dev/null \
		    2>"$W/log"
		rc=$?
		[ "$rc" -le 1 ] || fail "$tool --rejects=/dev/stderr: exit $rc"
		grep -a -q "^$tool: " "$W/log" ||
		    fail "$tool --rejects=/dev/stderr: the messages were lost"
		grep -a -v "^$tool: " "$W/log" | cmp -s - "$T/ref.rej" ||
		    fail "$tool --rejects=/dev/stderr: the rejects were lost"
		rm -f "$W/log"
	fi
	# standard output appended to an input, which may come later
	for how in named later stdin link; do
		case $how in
		named) set -- "$W/in"; n="$W/in" ;;
		later) set -- "$in" "$W/inh"; n="$W/inh" ;;
		stdin) set -- -; n="<stdin>" ;;
		link) set -- "$W/inl"; n="$W/inl" ;;
		esac
		# (bounded: a tool that reads what it writes would fill
		# the disk)
		# shellcheck disable=SC2086
		(ulimit -f 20000 && exec timeout 60 "$B/$tool" $a "$@") \
		    <"$W/in" >>"$W/in" 2>"$T/err"
		rc=$?
		[ "$rc" -eq 2 ] || fail "$tool >>input ($how): exit $rc"
		[ "$(cat "$T/err")" = "$tool: $n: input file is output file" ] ||
		    fail "$tool >>input ($how): message: $(cat "$T/err")"
		[ "$(snap "$W/in")" = "$snapI" ] ||
		    fail "$tool >>input ($how): input changed"
	done

	# a closed standard output: a write error; the rejects file gets
	# nothing (it would get descriptor 1)
	if [ "$rj" -eq 1 ]; then
		# shellcheck disable=SC2086
		"$B/$tool" $a --rejects="$W/new" "$in" 2>"$T/err" >&-
	else
		# shellcheck disable=SC2086
		"$B/$tool" $a "$in" 2>"$T/err" >&-
	fi
	rc=$?
	[ "$rc" -eq 2 ] || fail "$tool >&-: exit $rc, expected 2"
	grep -q "^$tool: write error on standard output: Bad file descriptor" \
	    "$T/err" || fail "$tool >&-: message: $(cat "$T/err")"
	[ ! -e "$W/new" ] || fail "$tool >&-: the rejects file was made"
	# with -o, standard output is not needed
	# shellcheck disable=SC2086
	"$B/$tool" $a -o "$W/new" "$in" 2>"$T/err" >&-
	rc=$?
	[ "$rc" -le 1 ] || fail "$tool -o F >&-: exit $rc: $(cat "$T/err")"
	cmp -s "$W/new" "$T/ref.out" || fail "$tool -o F >&-: output differs"
	# a closed standard input: a read error
	# shellcheck disable=SC2086
	"$B/$tool" $a -o "$W/O" >"$T/out" 2>"$T/err" <&-
	rc=$?
	[ "$rc" -eq 2 ] || fail "$tool <&-: exit $rc, expected 2"
	grep -q "^$tool: <stdin>: read error: Bad file descriptor" \
	    "$T/err" || fail "$tool <&-: message: $(cat "$T/err")"
	rm -rf "$W"
	echo "ok: $tool"
done

if [ "$ran" -eq 0 ]; then
	echo "SKIP: no tool built"
	exit 77
fi
exit $status
