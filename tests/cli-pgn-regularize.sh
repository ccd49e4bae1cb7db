#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-pgn-regularize.sh: pgn-regularize end to end: help, version, usage
# errors; golden outputs (the example of export-format.md byte for byte,
# an import file with every kind of leniency, its -v warnings, reduced
# form); rejected games (messages, exit status, --rejects bytes, games
# read = written + rejected); idempotence; stdin, -o, -q, a missing file.
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"
P="$tooldir/pgn-regularize"
NAME=pgnreg
. "$top_srcdir/tests/testlib.sh"

# --help, --version, usage errors
expect 0 "$P" --help
grep -q '^Usage: pgn-regularize ' "$T/out" || fail "--help: no usage line"
[ -s "$T/err" ] && fail "--help wrote to stderr"
expect 0 "$P" -h
expect 0 "$P" --version
grep -q '^pgn-regularize (chessdata) ' "$T/out" || fail "--version"
expect 2 "$P" --no-such-option
grep -q "^pgn-regularize: unknown option '--no-such-option'" "$T/err" ||
    fail "bad option message: $(cat "$T/err")"
expect 2 "$P" -x
grep -q "^pgn-regularize: unknown option '-x'" "$T/err" || fail "-x message"
expect 2 "$P" -o
grep -q "needs a value" "$T/err" || fail "-o without value message"
expect 2 "$P" --lang=klingon "$F/regularize-example.pgn"
grep -q "unknown language 'klingon'" "$T/err" || fail "--lang message"
[ -s "$T/out" ] && fail "usage error wrote output"

# The example of docs/export-format.md, byte for byte, and its reduced
# form.
expect 0 "$P" "$F/regularize-example.pgn"
cmp -s "$T/out" "$E/regularize-example.pgn" || fail "export example differs"
[ -s "$T/err" ] && fail "example: stderr not empty"
expect 0 "$P" --reduced "$F/regularize-example.pgn"
cmp -s "$T/out" "$E/regularize-example-reduced.pgn" || fail "reduced example"
expect 0 "$P" -r "$F/regularize-example.pgn"
cmp -s "$T/out" "$E/regularize-example-reduced.pgn" || fail "-r example"

# Leniency: every import rule that applies to a whole file (see
# tests/README), with the -v warnings (named as given on the command
# line, so run where the file is).
(cd "$F" && "$P" -v regularize-import.pgn) >"$T/out" 2>"$T/err" ||
    fail "import: exit status"
cmp -s "$T/out" "$E/regularize-import.pgn" || fail "import output differs"
cmp -s "$T/err" "$E/regularize-import.err" ||
    { fail "import warnings differ"; diff "$E/regularize-import.err" "$T/err" >&2; }
# without -v only the skipped text is told; with -q not even that
expect 0 "$P" "$F/regularize-import.pgn"
cmp -s "$T/out" "$E/regularize-import.pgn" || fail "import without -v"
[ "$(wc -l <"$T/err")" -eq 1 ] || fail "import: warnings without -v"
grep -q "regularize-import.pgn:1:1: warning: game 1: skipped 53 bytes of text that is not PGN" \
    "$T/err" || fail "import: skipped text warning"
expect 0 "$P" -q "$F/regularize-import.pgn"
[ -s "$T/err" ] && fail "-q: stderr not empty"
# reduced: the game with a null move in its main line is rejected
(cd "$F" && "$P" --reduced regularize-import.pgn) >"$T/out" 2>"$T/err"
[ $? -eq 1 ] || fail "import --reduced: exit status"
cmp -s "$T/out" "$E/regularize-import-reduced.pgn" || fail "import reduced"
cmp -s "$T/err" "$E/regularize-import-reduced.err" || fail "reduced messages"

# Rejected games: one message each, not written, original bytes in the
# rejects file; the good games around them written.
(cd "$F" && "$P" --stats --rejects="$T/rej" regularize-bad.pgn) \
    >"$T/out" 2>"$T/err"
[ $? -eq 1 ] || fail "bad: exit status"
cmp -s "$T/out" "$E/regularize-bad.pgn" || fail "bad: output differs"
grep -v ' games read, ' "$T/err" >"$T/err2"
cmp -s "$T/err2" "$E/regularize-bad.err" ||
    { fail "bad: messages differ"; diff "$E/regularize-bad.err" "$T/err2" >&2; }
cmp -s "$T/rej" "$E/regularize-bad.rej" || fail "bad: rejects differ"
grep -q '^pgn-regularize: 14 games read, 3 written, 11 rejected in ' \
    "$T/err" || fail "bad: --stats line: $(tail -1 "$T/err")"
# every rejected game's bytes are a piece of the input, in order
[ "$(grep -c '^\[Event ' "$T/rej")" -eq 11 ] || fail "bad: rejects count"
[ "$(grep -c '^\[Event ' "$T/out")" -eq 3 ] || fail "bad: written count"
# the rejects of the rejects are all of them again
expect 1 "$P" --rejects="$T/rej2" "$T/rej"
cmp -s "$T/rej" "$T/rej2" || fail "rejects of the rejects differ"
[ -s "$T/out" ] && fail "rejects file: some game was written"

# Idempotence: the output read again is the same bytes.
for f in regularize-example regularize-import regularize-bad; do
	expect 0 "$P" "$E/$f.pgn"
	cmp -s "$T/out" "$E/$f.pgn" || fail "$f: not idempotent"
	# (the import file holds a null move: its game is rejected here)
	"$P" --reduced "$E/$f.pgn" >"$T/red1" 2>/dev/null
	expect 0 "$P" --reduced "$T/red1" -o "$T/red2"
	cmp -s "$T/red1" "$T/red2" || fail "$f: reduced not idempotent"
done

# Standard input, by name and by default; several files in a row; -o,
# also naming the input; a missing file does not stop the others.
"$P" - <"$F/regularize-example.pgn" | cmp -s - "$E/regularize-example.pgn" ||
    fail "stdin (-)"
"$P" <"$F/regularize-example.pgn" | cmp -s - "$E/regularize-example.pgn" ||
    fail "stdin"
cat "$E/regularize-example.pgn" "$E/regularize-example.pgn" >"$T/two"
expect 0 "$P" "$F/regularize-example.pgn" "$F/regularize-example.pgn"
cmp -s "$T/out" "$T/two" || fail "two files"
expect 0 "$P" -o "$T/o.pgn" "$F/regularize-example.pgn"
cmp -s "$T/o.pgn" "$E/regularize-example.pgn" || fail "-o"
[ -s "$T/out" ] && fail "-o: standard output not empty"
cp "$F/regularize-example.pgn" "$T/inplace.pgn"
expect 0 "$P" -o "$T/inplace.pgn" "$T/inplace.pgn"
cmp -s "$T/inplace.pgn" "$E/regularize-example.pgn" || fail "-o on the input"
expect 2 "$P" "$T/no-such-file.pgn" "$F/regularize-example.pgn"
grep -q "no-such-file.pgn: No such file" "$T/err" || fail "missing file message"
cmp -s "$T/out" "$E/regularize-example.pgn" || fail "missing file: others lost"

# Nothing in, nothing out; a byte order mark and CRLF; no final newline.
expect 0 "$P" /dev/null
[ -s "$T/out" ] && fail "empty input gave output"
printf '\357\273\277[Event "BOM"]\r\n[Result "*"]\r\n\r\n1. e4 e5 *' >"$T/bom.pgn"
expect 0 "$P" "$T/bom.pgn"
head -1 "$T/out" | grep -q '^\[Event "BOM"\]$' || fail "BOM: first line"
grep -q "$(printf '\r')" "$T/out" && fail "CR in the output"
grep -q '^1. e4 e5 \*$' "$T/out" || fail "BOM: movetext"

# A language option reads other piece letters.
printf '1. e4 e5 2. Sf3 Sc6 3. Lb5 *\n' >"$T/de.pgn"
expect 1 "$P" "$T/de.pgn"
grep -q 'game 1: 2. Sf3: not a piece letter' "$T/err" || fail "de without --lang"
expect 0 "$P" --lang=de "$T/de.pgn"
grep -q '^1. e4 e5 2. Nf3 Nc6 3. Bb5 \*$' "$T/out" || fail "--lang=de"

# A write error is exit 2.
if [ -w /dev/full ]; then
	"$P" "$F/regularize-import.pgn" >/dev/full 2>"$T/err"
	[ $? -eq 2 ] || fail "write error: exit status"
	grep -q "write error" "$T/err" || fail "write error: message"
fi

# The export decisions (export-format.md rules 10 and 11, variations
# without a move, impossible castling rights, warnings about kept
# games): golden output and warnings; exit 0, since every game is kept.
(cd "$F" && "$P" -v export-decisions.pgn) >"$T/out" 2>"$T/err" ||
    fail "export decisions: exit status"
cmp -s "$T/out" "$E/export-decisions.pgn" ||
    { fail "export decisions: output differs"; diff "$E/export-decisions.pgn" "$T/out" >&2; }
cmp -s "$T/err" "$E/export-decisions.err" ||
    { fail "export decisions: warnings differ"; diff "$E/export-decisions.err" "$T/err" >&2; }
# the castling and end-of-input warnings are told without -v too, and
# by one thread (its reader's notes on each game, cli_pgn_notes)
for j in "" "-j 1"; do
	# shellcheck disable=SC2086
	(cd "$F" && "$P" $j export-decisions.pgn) >/dev/null 2>"$T/err" ||
	    fail "export decisions without -v $j: exit status"
	[ "$(grep -c ': warning: game [67]: ' "$T/err")" -eq 3 ] &&
	    [ "$(wc -l <"$T/err")" -eq 3 ] ||
	    { fail "export decisions without -v $j: warnings"; cat "$T/err" >&2; }
done
# a fixed point, and the same tree grouped three ways gives one text
"$P" "$E/export-decisions.pgn" >"$T/out2" 2>/dev/null
cmp -s "$T/out2" "$E/export-decisions.pgn" || fail "export decisions: not a fixed point"
[ "$(grep -c '^1\. e4 e5 ( 1\.\.\. c5 ) ( 1\.\.\. e6 2\. d4 ( 2\. d3 ) ) ( 1\.\.\. c6 ) 2\. Nf3 \*$' \
    "$E/export-decisions.pgn")" -eq 3 ] || fail "rule 11: three groupings, three texts"

exit $status
