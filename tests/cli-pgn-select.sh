#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-pgn-select.sh: pgn-select end to end on files/select-rules.pgn:
# help, version, usage errors, a missing file, the bytes of selected
# games as they came, every condition (tags, players, ECO, results,
# dates, rounds, plies, positions, material, every FIDE ending on the
# hand-made games), -i, -v as the complement, -c, -m, -o, --rejects,
# --stats, standard input, several files, threads, and grep's exit
# statuses (0 selected, 1 none, 2 error).
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"
P="$tooldir/pgn-select"
NAME=pgnselect
. "$top_srcdir/tests/testlib.sh"
R="$F/select-rules.pgn"

# events: the Event tags of the games on standard input, joined by |
events() {
	sed -n 's/^\[Event "\(.*\)"\]\r*$/\1/p' | paste -sd'|' -
}

# sel WANT OPTION...: the events pgn-select selects from R
sel() {
	want=$1
	shift
	got=$("$P" -q "$@" "$R" 2>"$T/sel.err" | events)
	[ "$got" = "$want" ] || fail "$*: got '$got', want '$want'"
}

# count N OPTION...: pgn-select -c prints N, exits as grep
count() {
	n=$1
	shift
	st=0
	[ "$n" -eq 0 ] && st=1
	expect $st "$P" -q -c "$@" "$R"
	[ "$(cat "$T/out")" = "$n" ] || fail "-c $*: $(cat "$T/out"), want $n"
}

# --help, --version, usage errors
expect 0 "$P" --help
grep -q '^Usage: pgn-select ' "$T/out" || fail "--help: no usage line"
[ -s "$T/err" ] && fail "--help wrote to stderr"
expect 0 "$P" -V
grep -q '^pgn-select (chessdata) ' "$T/out" || fail "--version"
expect 2 "$P" --no-such-option "$R"
grep -q "^pgn-select: unknown option '--no-such-option'" "$T/err" ||
    fail "bad option message: $(cat "$T/err")"
expect 2 "$P" -t
grep -q "needs a value" "$T/err" || fail "-t without value message"
for bad in "-t WhiteElo" "-t =1" "-t White~(" "--player=a[" "--eco=F00" \
    "--eco=B99-A00" "--result=2-0" "--plies=9..1" "--plies=x" \
    "--position=8/8/8 w" "--material=KRx" "--ends=mate" "-mx" "-j0"; do
	expect 2 "$P" "$bad" "$R"
	[ -s "$T/out" ] && fail "$bad: output written"
	grep -q '^pgn-select: ' "$T/err" || fail "$bad: no message"
	case $bad in --ends=mate)
		grep -q "^pgn-select: --ends 'mate': unknown ending" "$T/err" ||
		    fail "--ends message: $(cat "$T/err")"
	esac
done

# no condition: every game, its bytes as they came (and the empty line
# the last game lacked); the game with an illegal move too (no parse)
expect 0 "$P" "$R"
{ cat "$R"; printf '\n\n'; } | cmp -s - "$T/out" || fail "bytes differ"
count 17
count 17 -t 'Event!=x'

# tags: numbers, a value that is no number, byte order, regexps, dates
sel 'threefold|fivefold|Sicilian|rook ending' -t 'WhiteElo>=2700'
sel 'threefold|rook ending' -t 'BlackElo < 2800'
sel 'fivefold' -t 'BlackElo=?'
count 4 -t 'WhiteElo>2000' -t 'White~,'
sel 'checkmate|stalemate' -t 'Date=1990'
sel 'checkmate|stalemate' -t 'Date<1991'
sel 'checkmate' -t 'Date=1990.05'
sel 'threefold|fivefold|Sicilian|rook ending' -t 'Date>=1991'
sel 'Sicilian|rook ending' -t 'Date>2000'
sel 'Sicilian' -t 'Round=11'
count 0 -t 'Round>11'
sel 'Sicilian|rook ending' -t 'ECO~^[BD]'
count 15 -t 'ECO!~^[BD]'	# a missing tag passes !~
count 16 -t 'Event~^[a-z]'
count 0 -t 'Opening=x'
count 17 -t 'Opening!=x'

# players, -i
sel 'threefold|fivefold|Sicilian|illegal move|no final newline' \
    --player=Carlsen
count 0 --player=carlsen
count 5 -i --player=carlsen
count 5 --ignore-case --player='^CARLSEN'
sel 'threefold|illegal move|no final newline' --white=Carlsen
sel 'fivefold|Sicilian|illegal move' --black='Carlsen|Nobody$'
sel 'illegal move' --white=Carlsen --black=Nobody
count 1 -i -t 'Event=STALEMATE'
count 0 -t 'Event=STALEMATE'

# ECO ranges and results (results also counted with grep)
sel 'checkmate|threefold' --eco=A00-A99
sel 'Sicilian|rook ending' --eco=B90,D30-D39
for r in 1-0 0-1 1/2-1/2 '*'; do
	n=$(grep -cF "[Result \"$r\"]" "$R")
	count "$n" --result="$r"
done
count 4 --result=0-1,1-0

# moves: plies, positions, material (the rejected game told once)
sel 'checkmate|stalemate|fifty|checkmate on the 100th half-move|seventyfive|dead|no final newline' \
    --plies=..4
grep -q "select-rules.pgn:139:13: game 16: 2. Ke3: illegal move" \
    "$T/sel.err" || fail "--plies: no message for the illegal move"
sel 'fivefold|Sicilian' --plies=16..
sel 'threefold|castling rights lost|rook ending' --plies=8
sel 'Sicilian' \
    --position='rnbqkbnr/pp2pppp/3p4/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -'
sel 'Sicilian|no final newline' \
    --position='rnbqkbnr/pp2pppp/3p4/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -' \
    --position='rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2'
sel 'rook ending' --material=KRPPkrpp
sel 'rook ending' --material=kppKPP
sel 'fifty|checkmate on the 100th half-move|seventyfive' --material=KR
# a repeated --material: any of them; P* none too
sel 'rook ending' --material=KPPkpp --material=KRPPPkrp
sel 'rook ending' --material='KRP*krp*'
printf '[FEN "4k3/5r2/8/8/8/8/5R2/4K3 w - - 0 1"]\n\n1. Kd1 *\n' >"$T/krkr.pgn"
[ "$("$P" -c --material='KRP*krp*' "$T/krkr.pgn")" = 1 ] ||
    fail "--material=KRP*krp*: K+R v K+R missed"
for bad in KKRkr 'KRP**kr' 'K*Rkr' '*KR'; do
	expect 2 "$P" --material="$bad" "$R"
	grep -qF "pgn-select: --material '$bad': invalid material" "$T/err" ||
	    fail "--material=$bad: $(cat "$T/err")"
done
count 0 --material=KQkq

# every FIDE ending on the hand-made games (see tests/README): a mate on
# the 100th half-move is a mate, not fifty moves; en passant counts only
# when legal; castling rights count
sel 'checkmate|checkmate on the 100th half-move' --ends=checkmate
sel 'stalemate' --ends=stalemate
sel 'dead' --ends=dead
sel 'fivefold' --ends=fivefold
sel 'seventyfive' --ends=seventyfive
sel 'threefold|fivefold|en passant legal, three times more|en passant illegal|castling rights lost, later' \
    --ends=threefold
sel 'fifty|seventyfive' --ends=fifty
sel 'stalemate|dead' --ends=stalemate,dead
sel 'seventyfive' --ends=fifty --ends=seventyfive

# -v: the complement (a rejected game is in neither)
for c in "-t WhiteElo>=2700" "--player=Carlsen" "--eco=A00-B99"; do
	a=$("$P" -c $c "$R")
	b=$("$P" -c -v $c "$R")
	[ $((a + b)) -eq 17 ] || fail "-v $c: $a + $b"
done
for c in checkmate stalemate dead fivefold seventyfive threefold fifty; do
	a=$("$P" -q -c --ends=$c "$R" 2>/dev/null)
	b=$("$P" -q -c -v --ends=$c "$R" 2>/dev/null)
	[ $((a + b)) -eq 16 ] || fail "-v --ends=$c: $a + $b"
done
sel 'checkmate|en passant legal, twice|castling rights lost|fifty|checkmate on the 100th half-move|Sicilian|rook ending|no final newline' \
    -v --ends=checkmate,stalemate,dead,threefold,seventyfive --result=1/2-1/2,*
"$P" -v "$R" >"$T/none"
[ $? -eq 1 ] && [ ! -s "$T/none" ] || fail "-v without condition"

# -m: the first N selected games, then no more reading
sel 'threefold|fivefold' -m 2 --player=Carlsen
count 2 -m 2 --player=Carlsen
expect 1 "$P" -m 0 "$R"
[ -s "$T/out" ] && fail "-m 0 wrote"
sel 'checkmate|checkmate on the 100th half-move' -m 5 -j 2 --ends=checkmate
[ "$("$P" -m 3 "$R" "$R" | events)" = "checkmate|stalemate|threefold" ] ||
    fail "-m over two files"
[ "$("$P" -m 18 "$R" "$R" | grep -c '^\[Event ')" -eq 18 ] ||
    fail "-m 18 over two files"

# --rejects: the game with an illegal move, its bytes as they came;
# status 0 (a game was selected), 1 when none was
expect 0 "$P" --rejects="$T/rej" --ends=dead "$R"
sed -n '/^\[Event "illegal move"\]/,/^1\. e4 e5 2\. Ke3 1-0$/p' "$R" >"$T/want.rej"
echo >>"$T/want.rej"
cmp -s "$T/rej" "$T/want.rej" || fail "--rejects differs"
grep -q 'game 16: 2. Ke3: illegal move' "$T/err" || fail "no reject message"
expect 1 "$P" --rejects="$T/rej" --ends=fivefold --player=Nobody "$R"

# -o, --stats, standard input, several files, a missing file
expect 0 "$P" -o "$T/o.pgn" --stats --eco=B90 "$R"
[ -s "$T/out" ] && fail "-o: standard output written"
[ "$(events <"$T/o.pgn")" = "Sicilian" ] || fail "-o: file"
grep -q '^pgn-select: 17 games read, 1 written, 0 rejected in ' "$T/err" ||
    fail "--stats: $(cat "$T/err")"
[ "$("$P" -c --eco=B90 <"$R")" = 1 ] || fail "standard input"
# -c over several files: a count for each, as grep -c
[ "$("$P" -c --eco=B90 - "$R" <"$R" | paste -sd' ' -)" = \
    "<stdin>:1 $R:1" ] || fail "- and a file"
[ "$("$P" -c --no-filename --eco=B90 - "$R" <"$R" | paste -sd' ' -)" = \
    "1 1" ] || fail "--no-filename"
expect 2 "$P" -c --eco=B90 "$T/no-such.pgn" "$R"
[ "$(cat "$T/out")" = "$R:1" ] || fail "missing file: the other not read"
grep -q "no-such.pgn: No such file" "$T/err" || fail "missing file message"

# threads: the same bytes and messages
"$P" -j 1 --plies=..8 "$R" >"$T/j1" 2>"$T/j1.err"
"$P" -j 3 --plies=..8 "$R" >"$T/j3" 2>"$T/j3.err"
cmp -s "$T/j1" "$T/j3" || fail "-j 3 output differs"
cmp -s "$T/j1.err" "$T/j3.err" || fail "-j 3 messages differ"
exit $status
