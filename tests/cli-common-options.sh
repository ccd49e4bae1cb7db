#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-common-options.sh: the options every tool that reads games shares
# (src/cli/options.c, declared once): each such tool takes each of them,
# with the same effect and the same messages.  -j 1 and -j 3 give the
# same output as the default; -o FILE the same bytes as standard output;
# -q silences the skipped-text warning; --rejects=FILE gets the game
# refused; --stats prints its line; -z gzip and --level compress;
# --memlimit is taken; --lang=de reads German piece letters; -h and -V
# exit 0; a bad value of each is a usage error (exit 2) in one wording.
# And the tools that take fewer of them (those whose --help does not
# list --lang) take -h, -V, --memlimit and unknown options alike.  The
# tools are those of the build (built_tools).
# (option words are split on purpose: $args, $j, $z, $opt)
# shellcheck disable=SC2086
set -u
NAME=cli-common-options
. "${top_srcdir:?}/tests/testlib.sh"
B="$tooldir"
PATH="$B:$PATH"
export PATH

# Two games, English and German piece letters, and a bad one between,
# after a line of text that is not PGN.
printf 'junk\n\n[Event "a"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n\n' >"$T/en.pgn"
printf '[Event "a"]\n\n1. e4 e5 2. Sf3 Sc6 3. Lb5 *\n\n' >"$T/de.pgn"
printf '[Event "bad"]\n\n1. e4 e4 *\n\n' >"$T/bad.pgn"
cat "$T/en.pgn" "$T/bad.pgn" >"$T/in.pgn"

# Every tool of the build whose --help lists --lang takes every shared
# option: TOOL and the options that make it read every move (pgn-select:
# a condition on them), one a line; the others take fewer (below).
for tool in $(built_tools); do
	if "$tool" --help 2>/dev/null | grep -q -- '--lang='; then
		case $tool in
		pgn-select) echo "$tool --plies=5" ;;
		*) echo "$tool" ;;
		esac
	else
		echo "$tool" >>"$T/fewer"
	fi
done >"$T/games-tools"
[ -s "$T/games-tools" ] || fail "no tool takes every shared option"
while read -r tool args; do
	[ -x "$B/$tool" ] || { fail "$tool: not built"; continue; }
	# its exit status with the bad game (pgn-select: 0, a game matched)
	"$tool" $args "$T/in.pgn" >"$T/base" 2>"$T/err"
	st=$?
	[ "$st" -le 1 ] || fail "$tool: exit $st"
	grep -q 'game 2: 1... e4: illegal move' "$T/err" ||
	    fail "$tool: the bad game not refused"
	grep -q 'skipped .* not PGN' "$T/err" ||
	    fail "$tool: no warning of the skipped text"
	for j in "-j 1" "-j3" "--jobs=2"; do
		expect "$st" "$tool" $args $j "$T/in.pgn"
		cmp -s "$T/out" "$T/base" || fail "$tool $j: output differs"
	done
	expect "$st" "$tool" $args -o "$T/o" "$T/in.pgn"
	cmp -s "$T/o" "$T/base" || fail "$tool -o: output differs"
	expect "$st" "$tool" $args --output="$T/o2" "$T/in.pgn"
	cmp -s "$T/o2" "$T/base" || fail "$tool --output: output differs"
	expect "$st" "$tool" $args -q "$T/in.pgn"
	grep -q 'skipped .* not PGN' "$T/err" && fail "$tool -q: warned"
	cmp -s "$T/out" "$T/base" || fail "$tool -q: output differs"
	expect "$st" "$tool" $args --quiet --rejects="$T/rej" "$T/in.pgn"
	cmp -s "$T/rej" "$T/bad.pgn" || fail "$tool --rejects: not the game"
	expect "$st" "$tool" $args --stats "$T/in.pgn"
	grep -q "^$tool: 2 games read, 1 written, 1 rejected in " "$T/err" ||
	    fail "$tool --stats: $(tail -1 "$T/err")"
	for z in "-z gzip" "--compress=gzip --level=1" "-zgzip --level 9"; do
		expect "$st" "$tool" $args $z "$T/in.pgn"
		gzip -dc <"$T/out" | cmp -s - "$T/base" ||
		    fail "$tool $z: not the output, compressed"
	done
	expect "$st" "$tool" $args --memlimit=64M "$T/in.pgn"
	cmp -s "$T/out" "$T/base" || fail "$tool --memlimit: output differs"
	expect 0 "$tool" $args "$T/en.pgn"
	cp "$T/out" "$T/en.out"
	expect 1 "$tool" $args "$T/de.pgn"
	expect 0 "$tool" $args --lang=de "$T/de.pgn"
	# (the same output as the English game's, or the game's own bytes
	# for the tools that write games as they came: pgn-select, pgn-dedup)
	cmp -s "$T/out" "$T/en.out" || cmp -s "$T/out" "$T/de.pgn" ||
	    fail "$tool --lang=de: not the game's output"
	expect 0 "$tool" -h
	grep -q -- '--lang=' "$T/out" || fail "$tool --help: no --lang"
	expect 0 "$tool" --help
	expect 0 "$tool" -V
	grep -q "^$tool (chessdata) " "$T/out" || fail "$tool -V"
	expect 0 "$tool" --version
	# bad values: one wording in every tool
	while IFS='|' read -r opt msg; do
		expect 2 "$tool" $opt "$T/en.pgn"
		grep -q "^$tool: $msg" "$T/err" ||
		    fail "$tool $opt: $(head -1 "$T/err")"
	done <<'BAD'
-j0|invalid number of jobs '0'
--jobs=257|invalid number of jobs '257'
--lang=klingon|unknown language 'klingon'
-z rar|unknown compression format 'rar'
--level=x|invalid compression level 'x'
--memlimit=1K|memory limit '1K' is less than 1 MiB
--memlimit=x|--memlimit: invalid size 'x'
--no-such-option|unknown option '--no-such-option'
BAD
done <"$T/games-tools"

# The tools that take fewer of the shared options take these alike.
for tool in $(cat "$T/fewer" 2>/dev/null); do
	[ -x "$B/$tool" ] || { fail "$tool: not built"; continue; }
	expect 0 "$tool" -h
	expect 0 "$tool" -V
	grep -q "^$tool (chessdata) " "$T/out" || fail "$tool -V"
	expect 2 "$tool" --memlimit=1K
	grep -q "^$tool: memory limit '1K' is less than 1 MiB" "$T/err" ||
	    fail "$tool --memlimit=1K: $(head -1 "$T/err")"
	expect 2 "$tool" --no-such-option
	grep -q "^$tool: unknown option '--no-such-option'" "$T/err" ||
	    fail "$tool --no-such-option: $(head -1 "$T/err")"
done

# --help: a shared option (its line and the lines that go on with its
# text) reads the same in every tool that lists it; -h and -V in all.
# (-j, -q and --rejects are left out: some tools say more of them.)
for tool in $(built_tools); do
	[ -x "$B/$tool" ] || continue
	expect 0 "$tool" --help
	awk -v t="$tool" '
	    /^  -[a-zA-Z], --|^      --/ {
		k = $1 == "-j," || $1 == "-o," || $1 == "-q," ||
		    $1 == "-z," || $1 == "-h," || $1 == "-V," ? $2 : $1
		sub(/=.*/, "", k)
		on = k ~ /^--(lang|output|stats|compress|level|memlimit|help|version)$/
	    }
	    /^      --|^  -/ || !/^                        / { if (!/^  -|^      --/) on = 0 }
	    on { print k "\t" $0 }' "$T/out" >"$T/help.$tool"
	grep -q -- '--help' "$T/help.$tool" || fail "$tool --help: no -h line"
	grep -q -- '--version' "$T/help.$tool" || fail "$tool --help: no -V line"
done
cat "$T"/help.* | cut -f1 | sort -u >"$T/help.opts"
while read -r opt; do
	for f in "$T"/help.*; do
		[ "$f" = "$T/help.opts" ] && continue
		grep "^$opt	" "$f" | md5sum
	done | grep -v "^d41d8cd98f00b204e9800998ecf8427e" | sort -u |
	    [ "$(wc -l)" -le 1 ] || fail "--help: $opt reads differently in some tools"
done <"$T/help.opts"
exit $status
