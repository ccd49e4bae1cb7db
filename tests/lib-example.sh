#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# lib-example.sh: the program of each section 3 page's EXAMPLES, taken
# from the page's own text (so that no page can drift from what builds),
# compiled against the library of this build, and run against what the
# tools (or a published reference) give for the same input:
#   libchessdata(3)  the version of the build and a text for each status;
#   cd_board(3)      the legal moves of chess-perft --divide -d 1;
#   cd_fen(3)        the canonical records of epd-validate -n;
#   cd_pgn_read(3)   on a .pgn.zst (two frames) the lines of pgn2tsv -f
#                    White,@final (see same), in at most six library
#                    calls; a game that does not read is named by its
#                    line and column, and the games after it are read; on
#                    the same file cut short a prefix of them, then the
#                    stream's own message ("truncated zstd input ..."),
#                    exit 1;
#   cd_pgn_write(3)  the games of pgn-regularize -r;
#   cd_stream(3)     the bytes of every compressed format, and a message
#                    and exit 1 on a cut one;
#   cd_select(3)     the games pgn-select --player counts;
#   cd_openings(3)   the columns of pgn2tsv -f @eco,@opening --openings;
#   cd_dedup(3)      the games pgn-dedup --by=moves -d counts;
#   cd_pgc(3)        the games of pgc2pgn, and the byte of the damage on a
#                    cut file;
#   cd_data(3)       the Polyglot keys of the format's own description.
# A page added without a program that builds fails here.
set -u
NAME=lib-example
. "$top_srcdir/tests/testlib.sh"
CC=${CC:-cc}
VERSION=$(sed -n 's/^PACKAGE_VERSION = //p' "$top_builddir/Makefile" |
    head -n 1)

# the first literal block of a page's EXAMPLES, mdoc's \e made a
# backslash
extract() {
	awk '/^\.Sh EXAMPLES/ { e = 1; next }
	    e && /^\.Sh / { exit }
	    e && /^\.Bd -literal/ { b = 1; next }
	    b && /^\.Ed/ { exit }
	    b { gsub(/\\e/, "\\"); print }' "$1"
}
# (a library built with sanitizers wants its programs built so too: by
# GCC it needs the sanitizer's library, by clang it leaves the
# runtime's symbols to the program; the static library alone, with
# --disable-shared, leaves them to it too)
lib="$top_builddir/lib/.libs/libchessdata.so"
[ -e "$lib" ] || lib="$top_builddir/lib/.libs/libchessdata.a"
san=
for s in address:asan undefined:ubsan thread:tsan; do
	{ ldd "$lib" 2>/dev/null | grep -q "lib${s#*:}" ||
	    nm -D "$lib" 2>/dev/null | grep -q " U __${s#*:}_" ||
	    nm "$lib" 2>/dev/null | grep -q " U __${s#*:}_"; } &&
	    san="$san -fsanitize=${s%:*}"
done
LD_LIBRARY_PATH="$top_builddir/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LD_LIBRARY_PATH

# every page's program builds: $T/NAME for man/NAME.3
pages=
for page in "$top_srcdir"/man/*.3; do
	p=${page##*/}
	p=${p%.3}
	pages="$pages $p"
	extract "$page" >"$T/$p.c"
	if ! grep -q '^main(' "$T/$p.c"; then
		fail "no program in EXAMPLES of $p(3)"
		continue
	fi
	if ! $CC $san -Wall -Werror -o "$T/$p" "$T/$p.c" \
	    -I"$top_srcdir/lib" -L"$top_builddir/lib/.libs" -lchessdata \
	    -lpthread -ldl -lm 2>"$T/cc.err"; then
		cat "$T/cc.err" >&2
		fail "the program of EXAMPLES of $p(3) does not build"
	fi
done
[ -n "$pages" ] || fatal "no section 3 page"
have() {
	[ -x "$T/$1" ] && return 0
	echo "SKIP: $1(3): its program did not build" >&2
	return 1
}

# ---- libchessdata(3): the version and the statuses
if have libchessdata; then
	expect 0 "$T/libchessdata"
	[ "$(head -n 1 "$T/out")" = "libchessdata $VERSION" ] ||
	    fail "libchessdata(3): version line: $(head -n 1 "$T/out")"
	n=$(tail -n +2 "$T/out" | awk -F'\t' 'NF == 2 && $2 != ""' |
	    cut -f 2 | sort -u | wc -l)
	[ "$n" -eq 12 ] || fail "libchessdata(3): $n distinct status texts, not 12"
fi

# ---- cd_board(3): the moves of chess-perft --divide
if have cd_board; then
	for fen in \
	    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' \
	    'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1' \
	    '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1' \
	    'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8'; do
		expect 0 "$T/cd_board" "$fen"
		cut -d' ' -f1 "$T/out" | sort >"$T/uci"
		"$tooldir/chess-perft" --divide -d 1 -f "$fen" 2>/dev/null |
		    sed -n 's/^\([a-h][1-8][a-h][1-8][nbrq]*\): 1$/\1/p' |
		    sort >"$T/want"
		[ -s "$T/want" ] || fail "chess-perft --divide gave no move"
		cmp -s "$T/uci" "$T/want" ||
		    fail "cd_board(3): the moves of $fen differ from chess-perft's"
		[ "$(cut -d' ' -f2 "$T/out" | sort -u | wc -l)" -eq \
		    "$(wc -l <"$T/out")" ] ||
		    fail "cd_board(3): two moves with one SAN in $fen"
	done
	expect 0 "$T/cd_board" '7k/6Q1/6K1/8/8/8/8/8 b - - 0 1'
	[ "$(cat "$T/out")" = checkmate ] ||
	    fail "cd_board(3): a mate gives: $(cat "$T/out")"
	expect 0 "$T/cd_board" '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1'
	[ "$(cat "$T/out")" = stalemate ] ||
	    fail "cd_board(3): a stalemate gives: $(cat "$T/out")"
	expect 1 "$T/cd_board" '8/8/8/8/8/8/8/8 w - - 0 1'
fi

# ---- cd_fen(3): the records of epd-validate -n
if have cd_fen; then
	expect 0 "$T/cd_fen" "$F/epd-valid.epd"
	"$tooldir/epd-validate" -n "$F/epd-valid.epd" >"$T/want" 2>/dev/null
	[ -s "$T/want" ] || fail "epd-validate -n gave nothing"
	cmp -s "$T/out" "$T/want" ||
	    fail "cd_fen(3): records differ from epd-validate -n's"
	expect 1 "$T/cd_fen" "$F/epd-invalid.epd"
	grep -q "^$F/epd-invalid.epd:[0-9]*:[0-9]*: " "$T/err" ||
	    fail "cd_fen(3): no error on invalid records: $(head -2 "$T/err")"
	"$tooldir/epd-validate" -n "$F/epd-invalid.epd" >"$T/want" 2>/dev/null
	cmp -s "$T/out" "$T/want" ||
	    fail "cd_fen(3): the valid records among invalid ones differ"
fi

# some games: fixtures, and a sample of the corpus when it is there
cat "$F/sample.pgn" "$F/regularize-example.pgn" >"$T/games.pgn"
otb="$CORPUS/pgn/otb-14539.pgn.xz"
if [ -r "$otb" ]; then
	xz -dc "$otb" | head -n 20000 >>"$T/games.pgn"
fi

# ---- cd_pgn_read(3)
if have cd_pgn_read && command -v zstd >/dev/null 2>&1; then
	# the calls the page counts are the ones the program makes
	page="$top_srcdir/man/cd_pgn_read.3"
	calls=$(grep -o 'cd_[a-z_]*(' "$T/cd_pgn_read.c" | sort -u |
	    tr -d '(' | tr '\n' ' ')
	for c in $calls; do
		sed -n '/^\.Sh EXAMPLES/,/^\.Bd/p' "$page" |
		    grep -q "^\.Fn $c\|Fn $c" ||
		    fail "cd_pgn_read(3): EXAMPLES calls $c without counting it"
	done
	[ "$(echo $calls | wc -w)" -le 6 ] ||
	    fail "cd_pgn_read(3): EXAMPLES makes more than six library calls: $calls"
	# (two frames, the first half of the lines and the rest: a cut
	# inside the second leaves the games of the first whole, however
	# few the games are; a single frame of the fixtures alone is one
	# block, all lost)
	half=$(($(wc -l <"$T/games.pgn") / 2))
	head -n "$half" "$T/games.pgn" | zstd -q -19 >"$T/part1.zst" ||
	    exit 99
	tail -n +$((half + 1)) "$T/games.pgn" | zstd -q -19 \
	    >"$T/part2.zst" || exit 99
	cat "$T/part1.zst" "$T/part2.zst" >"$T/games.pgn.zst"
	"$tooldir/pgn2tsv" -q -H -j 1 -f White,@final "$T/games.pgn" \
	    >"$T/want" 2>/dev/null
	[ -s "$T/want" ] || fail "pgn2tsv gave nothing"

	# the FENs exactly, White where pgn2tsv leaves it as it is (it
	# writes tags as UTF-8 and escapes tabs; the program prints the
	# bytes read)
	same() {
		awk -F'\t' '{ print $NF }' "$1" >"$T/fen1"
		awk -F'\t' '{ print $NF }' "$2" >"$T/fen2"
		cmp -s "$T/fen1" "$T/fen2" || return 1
		LC_ALL=C awk -F'\t' 'NF == 2 && $1 !~ /[^ -~]/ { print $1 }' \
		    "$1" >"$T/w1"
		LC_ALL=C awk -F'\t' 'NF == 2 && $1 !~ /[^ -~]/ { print $1 }' \
		    "$2" >"$T/w2"
		[ -s "$T/w1" ] && cmp -s "$T/w1" "$T/w2"
	}

	expect 0 "$T/cd_pgn_read" "$T/games.pgn.zst"
	same "$T/out" "$T/want" ||
	    fail "White and final FEN differ from pgn2tsv's"
	[ "$(wc -l <"$T/out")" -eq "$(wc -l <"$T/want")" ] ||
	    fail "not one line a game"
	[ ! -s "$T/err" ] || fail "messages on a good file: $(head -2 "$T/err")"

	size=$(($(wc -c <"$T/part1.zst") + $(wc -c <"$T/part2.zst") / 2))
	head -c "$size" "$T/games.pgn.zst" >"$T/cut.pgn.zst"
	expect 1 "$T/cd_pgn_read" "$T/cut.pgn.zst"
	grep -q "^$T/cut.pgn.zst:[0-9]*:[0-9]*: truncated zstd input" \
	    "$T/err" ||
	    fail "no stream message on a truncated file: $(cat "$T/err")"
	n=$(wc -l <"$T/out")
	[ "$n" -gt 0 ] || fail "no game before the cut"
	[ "$n" -lt "$(wc -l <"$T/want")" ] ||
	    fail "every game read from a cut file"
	head -n "$n" "$T/want" >"$T/want-cut"
	same "$T/out" "$T/want-cut" ||
	    fail "the games before the cut are not the first ones"
	# a game that does not read, then the others
	printf '[White "x"]\n\n1. e4 e5 2. Ke3 *\n\n' | cat - "$T/games.pgn" |
	    zstd -q -o "$T/bad.pgn.zst" || exit 99
	expect 1 "$T/cd_pgn_read" "$T/bad.pgn.zst"
	[ "$(cat "$T/err")" = "$T/bad.pgn.zst:3:13: 2. Ke3: illegal move" ] ||
	    fail "a game that does not read: $(cat "$T/err")"
	same "$T/out" "$T/want" || fail "the games after a bad one are not read"
fi

# ---- cd_pgn_write(3): the games of pgn-regularize -r
if have cd_pgn_write; then
	expect 0 "$T/cd_pgn_write" "$T/games.pgn"
	"$tooldir/pgn-regularize" -q -r "$T/games.pgn" >"$T/want" 2>/dev/null
	[ -s "$T/want" ] || fail "pgn-regularize -r gave nothing"
	cmp -s "$T/out" "$T/want" ||
	    fail "cd_pgn_write(3): games differ from pgn-regularize -r's"
	printf '[White "x"]\n\n1. e4 e5 2. Ke3 *\n\n' >"$T/bad.pgn"
	cat "$F/sample.pgn" >>"$T/bad.pgn"
	expect 1 "$T/cd_pgn_write" "$T/bad.pgn"
	[ "$(cat "$T/err")" = "$T/bad.pgn:3:13: 2. Ke3: illegal move" ] ||
	    fail "cd_pgn_write(3): a game that does not read: $(cat "$T/err")"
	"$tooldir/pgn-regularize" -q -r "$F/sample.pgn" >"$T/want" 2>/dev/null
	cmp -s "$T/out" "$T/want" ||
	    fail "cd_pgn_write(3): the games after a bad one differ"
fi

# ---- cd_stream(3): every format back to its bytes
if have cd_stream; then
	expect 0 "$T/cd_stream" <"$T/games.pgn"
	cmp -s "$T/out" "$T/games.pgn" || fail "cd_stream(3): plain text changed"
	for z in zstd gzip xz bzip2; do
		command -v "$z" >/dev/null 2>&1 || continue
		"$z" -c <"$T/games.pgn" >"$T/games.z" || exit 99
		expect 0 "$T/cd_stream" <"$T/games.z"
		cmp -s "$T/out" "$T/games.pgn" ||
		    fail "cd_stream(3): $z data decompressed wrong"
		[ ! -s "$T/err" ] || fail "cd_stream(3): $z: $(cat "$T/err")"
		size=$(($(wc -c <"$T/games.z") / 2))
		head -c "$size" "$T/games.z" >"$T/cut.z"
		expect 1 "$T/cd_stream" <"$T/cut.z"
		grep -q "^$z: truncated $z input" "$T/err" ||
		    fail "cd_stream(3): a cut $z input: $(cat "$T/err")"
		cmp -s "$T/out" "$T/games.pgn" &&
		    fail "cd_stream(3): a cut $z input gave every byte"
		head -c "$(wc -c <"$T/out")" "$T/games.pgn" | cmp -s - "$T/out" ||
		    fail "cd_stream(3): a cut $z input gave other bytes"
	done
fi

# ---- cd_select(3): the games pgn-select --player counts
if have cd_select; then
	for re in 'Carlsen' '^[A-K]' 'no such player'; do
		expect 0 "$T/cd_select" "$re" "$T/games.pgn"
		want=$("$tooldir/pgn-select" -q -c --player="$re" \
		    "$T/games.pgn" 2>/dev/null)
		[ "$(wc -l <"$T/out")" -eq "${want:-x}" ] ||
		    fail "cd_select(3): $re: $(wc -l <"$T/out") games, pgn-select $want"
	done
	expect 0 "$T/cd_select" '.' "$T/games.pgn"
	[ -s "$T/out" ] || fail "cd_select(3): no game selected by ."
	expect 2 "$T/cd_select" '(' "$T/games.pgn"
	expect 1 "$T/cd_select" '.' "$T/none.pgn"
	grep -q "^$T/none.pgn: cannot open" "$T/err" ||
	    fail "cd_select(3): a file that does not open: $(cat "$T/err")"
fi

# ---- cd_openings(3): pgn2tsv's opening columns
if have cd_openings; then
	for table in "$F/openings-small.tsv" "$F/openings-small.pgn"; do
		expect 0 "$T/cd_openings" "$table" "$F/openings-games.pgn"
		"$tooldir/pgn2tsv" -q -H -f @eco,@opening \
		    --openings="$table" "$F/openings-games.pgn" \
		    >"$T/want" 2>/dev/null
		grep -q '^[A-E][0-9][0-9]' "$T/want" ||
		    fail "pgn2tsv names no opening with $table"
		cmp -s "$T/out" "$T/want" ||
		    fail "cd_openings(3): openings differ from pgn2tsv's ($table)"
	done
fi

# ---- cd_dedup(3): the copies pgn-dedup --by=moves counts
if have cd_dedup; then
	cat "$T/games.pgn" "$F/dedup-names.pgn" "$F/sample.pgn" >"$T/dups.pgn"
	expect 0 "$T/cd_dedup" "$T/dups.pgn"
	want=$("$tooldir/pgn-dedup" -q --by=moves -d -c "$T/dups.pgn" \
	    2>/dev/null)
	[ "${want:-0}" -gt 0 ] || fail "pgn-dedup finds no copy"
	[ "$(wc -l <"$T/out")" -eq "${want:-x}" ] ||
	    fail "cd_dedup(3): $(wc -l <"$T/out") copies, pgn-dedup $want"
fi

# ---- cd_pgc(3): the games of pgc2pgn
if have cd_pgc; then
	"$tooldir/pgn2pgc" -q "$F/pgc-sample.pgn" "$T/games.pgn" \
	    >"$T/games.pgc" 2>/dev/null
	[ -s "$T/games.pgc" ] || fail "pgn2pgc gave nothing"
	expect 0 "$T/cd_pgc" "$T/games.pgc"
	"$tooldir/pgc2pgn" -q "$T/games.pgc" >"$T/want" 2>/dev/null
	[ -s "$T/want" ] || fail "pgc2pgn gave nothing"
	cmp -s "$T/out" "$T/want" ||
	    fail "cd_pgc(3): games differ from pgc2pgn's"
	size=$(($(wc -c <"$T/games.pgc") / 2))
	head -c "$size" "$T/games.pgc" >"$T/cut.pgc"
	expect 1 "$T/cd_pgc" "$T/cut.pgc"
	grep -q "^$T/cut.pgc: byte [0-9]*: " "$T/err" ||
	    fail "cd_pgc(3): no damage named on a cut file: $(cat "$T/err")"
	[ -s "$T/out" ] || fail "cd_pgc(3): no game before the cut"
	head -c "$(wc -c <"$T/out")" "$T/want" | cmp -s - "$T/out" ||
	    fail "cd_pgc(3): the games before the cut are not the first ones"
fi

# ---- cd_data(3): the keys of Polyglot's description of its format
if have cd_data; then
	while read -r key fen; do
		expect 0 "$T/cd_data" "$fen"
		[ "$(cat "$T/out")" = "{\"fen\": \"$fen\", \"key\": \"$key\"}" ] ||
		    fail "cd_data(3): $fen: $(cat "$T/out")"
	done <<'EOF'
463b96181691fc9c rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
823c9b50fd114196 rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1
0756b94461c50fb0 rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2
662fafb965db29d4 rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2
22a48b5a8e47ff78 rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3
652a607ca3f242c1 rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3
00fdd303c946bdd9 rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4
3c8123ea7b067637 rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3
5c3f9b829b279560 rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4
EOF
	expect 1 "$T/cd_data" '8/8/8/8 w - -'
	[ ! -s "$T/out" ] || fail "cd_data(3): a FEN that does not read gave a key"
fi
finish
