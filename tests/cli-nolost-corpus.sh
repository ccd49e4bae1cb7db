#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-nolost-corpus.sh: no game is lost, over the shared corpus (the
# first 100 MB of each archive; skipped without it):
# - pgn-regularize, pgn2pgc, pgn2epd: games in (as the library's reader
#   cuts the file: tests/pgn-games) = games read = games written + games
#   rejected; the output holds as many games as written (counted in the
#   output: [Event lines, pgc2pgn --stats, id "N.0" positions); the
#   rejects file is exactly the rejected games' bytes, in input order
#   (pgn-games -s), and the exit status is 1 exactly when a game was
#   rejected;
# - pgn-sort: its output holds the same games, byte for byte, as its
#   input (compared as sorted lists of game hashes, white space at a
#   game's end aside);
# - pgc2pgn: it reads back every game pgn2pgc wrote;
# - epd-validate -n: records in = written + rejected, and the rejects
#   file is exactly the lines it reported errors on.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${CORPUS:?}" "${tooldir:?}" "${helperdir:?}"
if [ ! -d "$CORPUS/pgn" ]; then
	echo "SKIP: no corpus at $CORPUS"
	exit 77
fi
B="$tooldir"
G="$helperdir/pgn-games"
NAME=nolost
. "$top_srcdir/tests/testlib.sh"

# stats TOOL: "READ WRITTEN REJECTED" from the --stats line in $T/err
stats() {
	sed -n -E "s/^$1: ([0-9]+) [a-z]+ read, ([0-9]+) written, ([0-9]+) rejected.*/\\1 \\2 \\3/p" \
	    "$T/err" | tail -n 1
}

# The PGN inputs: the archives (unpacked here: the first 100 MB of a
# larger one, the TCEC archive, which holds nothing the first 100 MB
# do not; CORPUS_MB=N for N MB, CORPUS_MB=0 for the whole files) and
# every quirks file.
max=$((${CORPUS_MB:-100} * 1000000))
for x in "$CORPUS"/pgn/*.pgn.xz; do
	[ -f "$x" ] || continue
	b=${x##*/}
	if [ "$max" -gt 0 ]; then
		xz -dc "$x" | head -c "$max" >"$T/${b%.xz}"
	else
		xz -dc "$x" >"$T/${b%.xz}"
	fi || fail "xz -dc $x"
done
find -L "$CORPUS/quirks" -type f -name '*.pgn' | sort >"$T/quirks"
ls "$T"/*.pgn >"$T/archives"

checked=0
for f in $(cat "$T/archives" "$T/quirks"); do
	name=${f#"$CORPUS"/}
	name=${name#"$T"/}
	"$G" "$f" >"$T/games" || { fail "$name: pgn-games"; continue; }
	n=$(grep -vc '^skipped' "$T/games")
	checked=$((checked + 1))

	for tool in pgn-regularize pgn2pgc pgn2epd; do
		[ -x "$B/$tool" ] || continue
		rm -f "$T/rej"
		case $tool in
		pgn2epd) extra="--ops=id" ;;
		*) extra="" ;;
		esac
		# shellcheck disable=SC2086
		"$B/$tool" -q --stats --rejects="$T/rej" $extra "$f" \
		    >"$T/out" 2>"$T/err"
		rc=$?
		set -- $(stats "$tool")
		if [ "$#" -ne 3 ]; then
			fail "$name: $tool: exit $rc, no --stats line"
			head -c 500 "$T/err" >&2
			continue
		fi
		nread=$1 written=$2 rejected=$3
		[ "$nread" -eq "$n" ] ||
		    fail "$name: $tool read $nread games, the file has $n"
		[ "$nread" -eq $((written + rejected)) ] ||
		    fail "$name: $tool: $nread read, $written written," \
		    "$rejected rejected"
		if [ "$rejected" -gt 0 ]; then
			[ "$rc" -eq 1 ] || fail "$name: $tool: exit $rc" \
			    "with $rejected rejected"
		else
			[ "$rc" -eq 0 ] || fail "$name: $tool: exit $rc"
		fi
		case $tool in
		pgn-regularize)
			out=$(grep -c '^\[Event ' "$T/out") ;;
		pgn2pgc)
			"$B/pgc2pgn" -q --stats "$T/out" >/dev/null \
			    2>"$T/err" || fail "$name: pgc2pgn of pgn2pgc"
			out=$(stats pgc2pgn | cut -d' ' -f1) ;;
		pgn2epd)
			out=$(grep -c ' id "[0-9]*\.0";$' "$T/out") ;;
		esac
		[ "${out:-x}" = "$written" ] ||
		    fail "$name: $tool wrote $written games, its output" \
		    "holds ${out:-none}"
		if [ "$rejected" -gt 0 ]; then
			if "$G" -s "$f" "$T/rej" >"$T/which" 2>"$T/err"; then
				k=$(wc -l <"$T/which")
				[ "$k" -eq "$rejected" ] || fail "$name: $tool:" \
				    "$rejected rejected, $k in the rejects file"
			else
				fail "$name: $tool: the rejects file is not" \
				    "the rejected games' bytes: $(cat "$T/err")"
			fi
		else
			[ ! -s "$T/rej" ] ||
			    fail "$name: $tool: rejects file without rejects"
		fi
	done

	if [ -x "$B/pgn-sort" ]; then
		"$B/pgn-sort" -q --stats "$f" >"$T/out" 2>"$T/err"
		rc=$?
		set -- $(stats pgn-sort)
		[ "$rc" -eq 0 ] && [ "$#" -eq 3 ] && [ "$1" -eq "$n" ] &&
		    [ "$2" -eq "$n" ] ||
		    fail "$name: pgn-sort: exit $rc, stats '$*', $n games"
		# the same games; pgn-sort may end one with a newline and
		# a blank line where the input had none (the last game)
		grep -v '^skipped' "$T/games" | cut -d' ' -f5 | sort \
		    >"$T/h1"
		"$G" "$T/out" | grep -v '^skipped' | cut -d' ' -f5 | sort \
		    >"$T/h2"
		cmp -s "$T/h1" "$T/h2" ||
		    fail "$name: pgn-sort output does not hold the same games"
	fi
done
[ "$checked" -gt 0 ] || fail "no PGN file in the corpus"
echo "PGN: $checked files checked"

# EPD: every file of epd/ and perft/.
[ -x "$B/epd-validate" ] && find -L "$CORPUS/epd" "$CORPUS/perft" -type f |
    sort >"$T/epds"
for f in $(cat "$T/epds" 2>/dev/null); do
	name=${f#"$CORPUS"/}
	"$B/epd-validate" -q -n --stats --rejects="$T/rej" "$f" >"$T/out" \
	    2>"$T/err"
	rc=$?
	set -- $(stats epd-validate)
	[ "$#" -eq 3 ] || { fail "$name: epd-validate: no --stats"; continue; }
	nread=$1 written=$2 rejected=$3
	[ "$nread" -eq $((written + rejected)) ] ||
	    fail "$name: epd-validate: $nread read, $written written," \
	    "$rejected rejected"
	out=$(grep -c '' "$T/out")
	[ "$out" -eq "$written" ] ||
	    fail "$name: epd-validate wrote $out lines, said $written"
	[ "$rejected" -eq 0 ] || [ "$rc" -eq 1 ] ||
	    fail "$name: epd-validate: exit $rc with rejects"
	# the lines with errors, from the messages, as read
	sed -n -E "s|^epd-validate: [^:]*:([0-9]+):[0-9]+: .*|\\1|p" \
	    "$T/err" | uniq >"$T/lines"
	awk 'NR == FNR { want[$1] = 1; next } FNR in want' "$T/lines" "$f" \
	    >"$T/want"
	# a last line without LF: awk adds one
	[ ! -s "$T/rej" ] || [ "$(tail -c 1 "$T/rej" | od -An -c | tr -d ' ')" = '\n' ] ||
	    echo >>"$T/rej"
	cmp -s "$T/want" "$T/rej" ||
	    fail "$name: the rejects file is not the lines with errors"
	k=$(grep -c '' "$T/rej")
	[ "$k" -eq "$rejected" ] ||
	    fail "$name: $rejected rejected, $k lines in the rejects file"
done
exit $status
