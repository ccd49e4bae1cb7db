#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-pgn2json-corpus.sh: pgn2json and pgn2tsv over the shared corpus.
# Every line pgn2json writes (with --comments and --variations) for
# every file of pgn/ and online/ (at most their first 12 MB: the whole
# of every file but TCEC and chess.com; CORPUS_MB=N for more) and all
# of quirks/
# (Latin-1 and broken UTF-8 files among them) must be one JSON object
# that Python's strict reader takes (valid UTF-8, no raw control
# character), one line per game written, no game lost; and the OTB
# archive through pgn2tsv into sqlite3 (CSV) must give the count and
# the GROUP BY of awk over the TSV.  Skipped (77) without the corpus;
# the sqlite3 part is skipped without sqlite3.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"
J="$tooldir/pgn2json"
V="$tooldir/pgn2tsv"
C="${CORPUS:-}"
NAME=p2jc
. "$top_srcdir/tests/testlib.sh"
[ -d "$C/pgn" ] && [ -d "$C/online" ] && [ -d "$C/quirks" ] ||
    skip "no corpus at ${C:-(unset)}"
command -v python3 >/dev/null 2>&1 || skip "no python3"

# one JSON object per line, "game" rising; prints the number of lines
cat >"$T/valid.py" <<'PY'
import json, sys
n = last = 0
with open(sys.argv[1], 'rb') as f:
    for line in f:
        o = json.loads(line.decode('utf-8', 'strict'))
        assert isinstance(o, dict) and o['game'] > last, line[:80]
        assert len(o['moves']) == len(o['uci']) == o['plies'], o['game']
        for k in ('clocks', 'emt', 'evals', 'fens'):
            assert k not in o or len(o[k]) == o['plies'], (o['game'], k)
        assert 'comments' not in o or len(o['comments']) == o['plies'] + 1
        last = o['game']
        n += 1
print(n)
PY

# check NAME: standard input through pgn2json, then check_out
check() {
	"$J" -q --stats -c --variations >"$T/out.json" 2>"$T/err"
	check_out "$1" $?
}

# check_out NAME STATUS: the output and messages of a run of pgn2json
check_out() {
	rc=$2
	if [ "$rc" -gt 1 ]; then
		fail "$1: pgn2json exit $rc: $(head -3 "$T/err")"
		return
	fi
	set -- "$1" $(sed -n 's/^pgn2json: \([0-9]*\) games read, \([0-9]*\) written, \([0-9]*\) rejected in .*/\1 \2 \3/p' "$T/err")
	if [ $# -ne 4 ] || [ "$2" -ne $(($3 + $4)) ]; then
		fail "$1: games lost ($*)"
		return
	fi
	if ! n=$(python3 "$T/valid.py" "$T/out.json" 2>"$T/perr"); then
		fail "$1: not valid JSON lines: $(tail -1 "$T/perr")"
	elif [ "$n" -ne "$3" ]; then
		fail "$1: $n lines for $3 games written"
	fi
	games=$((games + $3))
}

games=0
for f in "$C"/pgn/*.pgn.xz "$C"/online/*.pgn.xz; do
	xz -dc "$f" | head -c $((${CORPUS_MB:-12} * 1000000)) >"$T/in.pgn"
	check "$f" <"$T/in.pgn"
done
# the quirks files in one run (numbers go on from file to file)
"$J" -q --stats -c --variations "$C"/quirks/*/* >"$T/out.json" 2>"$T/err"
check_out quirks $?
echo "pgn2json: $games games as valid JSON lines"

# pgn2tsv of the OTB archive: sqlite3 (CSV) against awk (TSV)
if ! command -v sqlite3 >/dev/null 2>&1; then
	echo "sqlite3 not installed: the pgn2tsv part is skipped"
	finish
fi
xz -dc "$C/pgn/otb-14539.pgn.xz" >"$T/otb.pgn"
fields=Event,White,Black,Result,ECO,@plies,@termination
"$V" -q -H -f "$fields" "$T/otb.pgn" >"$T/otb.tsv" 2>/dev/null
"$V" -q --csv -f "$fields" "$T/otb.pgn" >"$T/otb.csv" 2>/dev/null
awk -F'\t' 'NF != 7 { bad++ } END { print NR, bad + 0 }' "$T/otb.tsv" >"$T/awk.count"
sqlite3 "$T/db" '.import --csv '"$T/otb.csv"' games' \
    'SELECT count(*), 0 FROM games' | tr '|' ' ' >"$T/sql.count"
if ! cmp -s "$T/awk.count" "$T/sql.count"; then
	fail "pgn2tsv: awk counts $(cat "$T/awk.count"), sqlite3 $(cat "$T/sql.count")"
fi
[ "$(cut -d' ' -f1 "$T/awk.count")" -ge 14000 ] ||
    fail "pgn2tsv: only $(cat "$T/awk.count") rows"
# games and plies per result and termination
awk -F'\t' '{ k = $4 "|" $7; n[k]++; p[k] += $6 }
    END { for (k in n) print k "|" n[k] "|" p[k] }' "$T/otb.tsv" |
    sort >"$T/awk.group"
sqlite3 "$T/db" 'SELECT Result, "@termination", count(*), sum("@plies")
    FROM games GROUP BY 1, 2' | sort >"$T/sql.group"
if ! cmp -s "$T/awk.group" "$T/sql.group"; then
	fail "pgn2tsv: GROUP BY differs from awk:"
	diff "$T/awk.group" "$T/sql.group" >&2
fi
# the tag-only path gives the same tags
"$V" -q -H -f Event,White,Black,Result,ECO "$T/otb.pgn" >"$T/tags.tsv"
cut -f1-5 "$T/otb.tsv" | cmp -s - "$T/tags.tsv" ||
    fail "pgn2tsv: tag-only rows differ from parsed ones"
echo "pgn2tsv: $(cat "$T/awk.group" | wc -l) groups agree"
finish
