#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-pgn-dedup.sh: pgn-dedup end to end.  Help, version, usage errors,
# a missing file; players' surnames (case, accents in UTF-8 and
# Latin-1, punctuation, initials) on files/dedup-names.pgn, and beyond
# Latin-1 (Latin Extended, Vietnamese, decomposed accents, apostrophes,
# hyphens, Greek and Cyrillic case) on names built here; every mode
# (--by, --keep, --included, -d, -c, --groups) on archives built here
# from real games: the games that parse of the fixtures (always) and
# the first 600 games of the OTB archive of the corpus (when present),
# with copies in export format (other line wrapping), with their tags
# reversed, with other tag text and player names written otherwise,
# cut short between the same players (before and after the full game),
# with other players, byte for byte, and a game that does not parse.
# The groups of every mode are compared with those computed by
# tests/dedup-peer.mjs (chessops from npm, installed as
# cli-pgn2json-chessops.sh does; that part skips without node).  Then
# the invariants every mode keeps (kept + dropped = read, -d the
# complement, -j 1 = -j 4, standard input = file, -c = the games
# written), and --by=moves against pgn-extract -D (the same definition:
# the same main line from the same start position) on the built OTB
# archive and the whole OTB archive, where both keep 12,673 of 14,539
# games, the same ones (when pgn-extract is installed).
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${tooldir:?}"
P="$tooldir/pgn-dedup"
NAME=pgndedup
. "$top_srcdir/tests/testlib.sh"
C="${CORPUS:-}"
PE=$(command -v pgn-extract || command -v /usr/games/pgn-extract) || PE=

# --help, --version, usage errors, a missing file
expect 0 "$P" --help
grep -q '^Usage: pgn-dedup ' "$T/out" || fail "--help: no usage line"
# each --by value begins a line of its own, its meaning beside it
for v in game moves text; do
	grep -Eq "^ +$v  +[a-z]" "$T/out" ||
	    fail "--help: --by=$v not on a line of its own"
done
expect 0 "$P" -V
grep -q '^pgn-dedup (chessdata) ' "$T/out" || fail "--version"
for bad in --by=players --keep=best -j0 --no-such-option \
    "--included --by=moves"; do
	# shellcheck disable=SC2086
	expect 2 "$P" $bad "$F/dedup-names.pgn"
	[ -s "$T/out" ] && fail "$bad: output written"
	grep -q '^pgn-dedup: ' "$T/err" || fail "$bad: no message"
done
expect 2 "$P" "$T/missing.pgn" "$F/dedup-names.pgn"
grep -q "^pgn-dedup: .*missing.pgn" "$T/err" || fail "missing file message"
[ "$(grep -c '^\[Event' "$T/out")" -gt 0 ] || fail "missing file: the other file not read"

# names: the Event tags of the games of a file, joined by |
names() {
	sed -n 's/^\[Event "\(.*\)"\]\r*$/\1/p' "$1" | paste -sd'|' -
}
# names.pgn: a copy is named "... copy": every mode keeps the others
"$P" -q "$F/dedup-names.pgn" >"$T/kept.pgn" 2>"$T/err"
[ $? -eq 1 ] || fail "dedup-names: exit status (a game does not parse)"
got=$(names "$T/kept.pgn")
want=$(grep '^\[Event' "$F/dedup-names.pgn" | grep -v -e copy -e bad |
    sed 's/^\[Event "\(.*\)"\]\r*$/\1/' | paste -sd'|' -)
[ "$got" = "$want" ] || fail "dedup-names: kept '$got', want '$want'"
grep -q '^pgn-dedup: .*dedup-names.pgn:[0-9]*:[0-9]*: game [0-9]*: ' "$T/err" ||
    fail "dedup-names: no message for the bad game: $(cat "$T/err")"
# names beyond Latin-1 (--by=game): the accents of every Latin letter,
# composed or not, Latin, Greek and Cyrillic case, apostrophes and
# hyphens of every kind; a copy is "N copy", the others stay
i=0
while IFS='|' read -r a b; do
	i=$((i + 1))
	for w in "$i|$a" "$i copy|$b"; do
		printf '[Event "%s"]\n[White "%b"]\n[Black "Opponent %s"]\n' \
		    "${w%%|*}" "${w#*|}" "$i"
		printf '[Result "1-0"]\n\n1. e4 e5 2. Nf3 1-0\n\n'
	done
done >"$T/names.pgn" <<'NAMES'
\0310\0230erban, Ion|Serban, I.
\0305\0236erban|SERBAN
Nguy\0341\0273\0205n, Anh|Nguyen
Nguye\0314\0202\0314\0203n|NGUYEN
Ne\0314\0201meth|N\0351meth
O\0342\0200\0231Kelly|O'Kelly
O\0312\0274Kelly|O`Kelly
O\0302\0264Kelly|O\0264Kelly
Cuellar\0342\0200\0220Jimenez|Cuellar-Jim\0303\0251nez
\0320\0232\0320\0260\0321\0200\0320\0277\0320\0276\0320\0262|\0320\0232\0320\0220\0320\0240\0320\0237\0320\0236\0320\0222
\0316\0240\0316\0261\0317\0200\0316\0261\0316\0264\0317\0214\0317\0200\0316\0277\0317\0205\0316\0273\0316\0277\0317\0202|\0316\0240\0316\0221\0316\0240\0316\0221\0316\0224\0316\0237\0316\0240\0316\0237\0316\0245\0316\0233\0316\0237\0316\0243
Gro\0303\0237|GROSS
\0305\0201awrynowicz|LAWRYNOWICZ
NAMES
printf '[Event "Mueller"]\n[White "Mueller"]\n[Black "Opponent 1"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 1-0\n\n' >>"$T/names.pgn"
printf '[Event "M\303\274ller"]\n[White "M\303\274ller"]\n[Black "Opponent 1"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 1-0\n\n' >>"$T/names.pgn"
"$P" -q "$T/names.pgn" >"$T/names-kept.pgn" 2>"$T/err" ||
    fail "names beyond Latin-1: exit status $?"
got=$(names "$T/names-kept.pgn")
want=$(names "$T/names.pgn" | tr '|' '\n' | grep -v copy | paste -sd'|' -)
[ "$got" = "$want" ] || fail "names beyond Latin-1: kept '$got', want '$want'"
# --keep=longest and most-tags take the copy with more bytes, more tags
"$P" -q --keep=longest "$F/dedup-names.pgn" >"$T/long.pgn"
grep -q 'annotated copy' "$T/long.pgn" || fail "--keep=longest: not the annotated copy"
"$P" -q --keep=most-tags "$F/dedup-names.pgn" >"$T/tags.pgn"
grep -q 'tagged copy' "$T/tags.pgn" || fail "--keep=most-tags: not the tagged copy"
# --rejects: the bad game's bytes
"$P" -q --rejects="$T/rej.pgn" "$F/dedup-names.pgn" >/dev/null
grep -q '^\[Event "bad"\]' "$T/rej.pgn" || fail "--rejects: no bad game"
# --groups may not name an input (refused before anything is
# written); a run that fails leaves the file as it was
cp "$F/dedup-names.pgn" "$T/in.pgn"
"$P" -q --groups="$T/in.pgn" "$T/in.pgn" >"$T/g-out.pgn" 2>"$T/err"
[ $? -eq 2 ] || fail "--groups=input: not refused"
grep -q 'groups file is input file' "$T/err" || fail "--groups=input: message"
cmp -s "$T/in.pgn" "$F/dedup-names.pgn" || fail "--groups=input: input changed"
echo old >"$T/g.tsv"
"$P" -q --groups="$T/g.tsv" -o "$T/no/such/dir" "$F/dedup-names.pgn" 2>/dev/null
[ $? -eq 2 ] || fail "-o in a missing directory: exit status"
[ "$(cat "$T/g.tsv")" = old ] || fail "a failed run changed the --groups file"
ls -a "$T" | grep -q '^\.pgn-dedup' && fail "temporary --groups file left"

# build SRC...: $T/arch.pgn from the games of SRC that parse
build() {
	# (games with an Event tag: the peer counts tags in tag sections)
	"$tooldir/pgn-select" -q --plies=1..1000000 -t "Event ~ ." "$@" \
	    >"$T/base.pgn"
	"$tooldir/pgn-regularize" -q "$T/base.pgn" >"$T/reg.pgn"
	"$tooldir/pgn-regularize" -q --reduced "$T/base.pgn" >"$T/red.pgn"
	# copies by game number, in paragraph mode (tags, then movetext)
	awk -v RS= -v ORS='\n\n' '
	NR % 2 { tags = $0; next }
	{
		g = NR / 2
		if (g % 10 == 3) {	# other tag text, names written otherwise
			s = tags
			sub(/\[Event "[^"]*"\]/, "[Event \"Other event\"]", s)
			if (match(s, /\[White "[^",]*,/)) {
				w = substr(s, RSTART + 8, RLENGTH - 9)
				sub(/\[White "[^"]*"\]/, "[White \"" toupper(w) ", X.\"]", s)
			}
			print s "\n\n" $0 > "'"$T"'/c-tag.pgn"
		}
		if (g % 10 == 4 || g % 10 == 5) {	# cut short
			n = split($0, m, /[ \n]+/)
			k = g % 10 == 4 ? 12 : 21
			r = g % 10 == 4 ? "*" : "1/2-1/2"
			s = ""
			for (i = 1; i <= k && i < n; i++) s = s m[i] " "
			t2 = tags
			sub(/\[Result "[^"]*"\]/, "[Result \"" r "\"]", t2)
			f = g % 10 == 4 ? "c-cut.pgn" : "c-cut-before.pgn"
			print t2 "\n\n" s r > "'"$T"'/" f
		}
		if (g % 10 == 6) {	# other players
			s = tags
			sub(/\[White "[^"]*"\]/, "[White \"Nobody, X\"]", s)
			print s "\n\n" $0 > "'"$T"'/c-oth.pgn"
		}
	}' "$T/red.pgn"
	# full export form copies from the regularized file
	awk -v RS= -v ORS='\n\n' 'NR % 2 { tags = $0; next }
	    (NR / 2) % 10 == 1 { print tags "\n\n" $0 }' "$T/reg.pgn" >"$T/c-reg.pgn"
	awk -v RS= -v ORS='\n\n' 'NR % 2 { tags = $0; next }
	    (NR / 2) % 10 == 2 { n = split(tags, t, "\n"); s = t[n]
	    for (i = n - 1; i >= 1; i--) s = s "\n" t[i]; print s "\n\n" $0 }' \
	    "$T/reg.pgn" >"$T/c-rev.pgn"
	"$tooldir/pgn-select" -q -m 7 "$T/base.pgn" >"$T/c-same.pgn"
	printf '[Event "bad"]\n[White "A, B"]\n[Black "C, D"]\n\n1. e4 e5 2. Ke3 *\n\n' \
	    >"$T/c-bad.pgn"
	cat "$T/c-cut-before.pgn" "$T/base.pgn" "$T/c-reg.pgn" "$T/c-rev.pgn" \
	    "$T/c-tag.pgn" "$T/c-cut.pgn" "$T/c-oth.pgn" "$T/c-same.pgn" \
	    "$T/c-bad.pgn" >"$T/arch.pgn"
	rm -f "$T"/c-*.pgn
}

# modes: every --by, --keep and --included combination tested
MODES="game:first:0 game:last:0 game:most-tags:0 moves:first:0
moves:last:0 text:first:0 text:most-tags:0 game:first:1 game:last:1
game:most-tags:1"

# the chessops peer, or nothing
. "$top_srcdir/tests/npm-lib.sh"
D=$CHESSOPS_D
peer=
npm_package "$CHESSOPS" "$D" && peer=1
[ -n "$peer" ] || echo "note: $npm_why: the groups are not compared"

# games FILE: how many games FILE holds
games() {
	"$tooldir/pgn-select" -q -c "$1"
}

# check LABEL: every mode on $T/arch.pgn
check() {
	read=$("$P" -q --stats -c "$T/arch.pgn" 2>&1 >/dev/null |
	    sed -n 's/^pgn-dedup: \([0-9]*\) games read.*/\1/p')
	# (chessops's groups of every mode from one reading of the games)
	if [ -n "$peer" ]; then
		# shellcheck disable=SC2086
		node "$top_srcdir/tests/dedup-peer.mjs" "$D" $MODES \
		    <"$T/arch.pgn" >"$T/peers" || fail "$1: peer failed"
	fi
	for m in $MODES; do
		by=${m%%:*}; rest=${m#*:}; keep=${rest%:*}; inc=${m##*:}
		opts="--by=$by --keep=$keep"
		[ "$inc" = 1 ] && opts="$opts --included"
		# shellcheck disable=SC2086
		"$P" -q $opts --groups="$T/g.tsv" "$T/arch.pgn" >"$T/k.pgn" 2>"$T/err"
		[ $? -eq 1 ] || fail "$1 $opts: exit status, not 1 (the bad game)"
		# shellcheck disable=SC2086
		"$P" -q -d $opts "$T/arch.pgn" >"$T/d.pgn" 2>/dev/null
		# shellcheck disable=SC2086
		nk=$("$P" -q -c $opts "$T/arch.pgn" 2>/dev/null)
		# shellcheck disable=SC2086
		nd=$("$P" -q -c -d $opts "$T/arch.pgn" 2>/dev/null)
		[ $((nk + nd + 1)) -eq "$read" ] ||
		    fail "$1 $opts: $nk kept + $nd dropped + 1 rejected != $read"
		[ "$(games "$T/k.pgn")" -eq "$nk" ] ||
		    fail "$1 $opts: -c $nk, but other games written"
		[ "$(games "$T/d.pgn")" -eq "$nd" ] ||
		    fail "$1 $opts: -d -c $nd, but other games written"
		[ "$(awk -F'\t' '$3 == "dropped"' "$T/g.tsv" | wc -l)" -eq "$nd" ] ||
		    fail "$1 $opts: --groups and -d disagree"
		# one thread, four threads, standard input: the same
		# shellcheck disable=SC2086
		"$P" -q -j 1 $opts "$T/arch.pgn" 2>/dev/null | cmp -s - "$T/k.pgn" ||
		    fail "$1 $opts: -j 1 differs"
		# shellcheck disable=SC2086
		"$P" -q -j 4 $opts <"$T/arch.pgn" 2>/dev/null | cmp -s - "$T/k.pgn" ||
		    fail "$1 $opts: -j 4 from standard input differs"
		if [ -n "$peer" ]; then
			awk -v m="$m" '/^mode / { on = $2 == m; next } on' \
			    "$T/peers" >"$T/peer"
			[ -s "$T/peer" ] || fail "$1 $opts: no groups from chessops"
			grep -v -e '^written ' -e '^rejected ' "$T/peer" |
			    cmp -s - "$T/g.tsv" ||
			    { fail "$1 $opts: groups differ from chessops'";
			      diff "$T/peer" "$T/g.tsv" | head -5 >&2; }
			# the games chessops cannot read, but the bad one, have
			# no copy: kept by pgn-dedup
			pw=$(sed -n 's/^written //p' "$T/peer")
			pr=$(sed -n 's/^rejected //p' "$T/peer")
			[ $((pw + pr - 1)) -eq "$nk" ] ||
			    fail "$1 $opts: $nk kept, chessops $pw (and $pr it cannot read)"
		fi
		echo "$1 $opts: $nk kept, $nd dropped"
	done
	# every kind of copy was there to be found
	for rule in game moves text included; do
		case $rule in included) o="--included" ;; *) o="--by=$rule" ;; esac
		"$P" -q $o --groups="$T/g.tsv" "$T/arch.pgn" >/dev/null 2>&1
		grep -q "dropped	$rule\$" "$T/g.tsv" || fail "$1: no $rule copy found"
	done
}

# the fixtures but those whose games chessops reads otherwise (a game
# with no movetext, a FEN castling right the position cannot have)
# (a fixed list: fixtures of other tests hold games chessops refuses,
# such as a FEN start with a halfmove clock past 100, whose copies it
# then cannot group)
build "$F/dedup-names.pgn" "$F/export-decisions.pgn" "$F/json-games.pgn" \
    "$F/p2e-games.pgn" "$F/pgc-sample.pgn" "$F/regularize-bad.pgn" \
    "$F/regularize-example.pgn" "$F/regularize-rules.pgn" \
    "$F/sample.pgn" "$F/select-rules.pgn" "$F/sort-keys.pgn" \
    "$F/sort-odd.pgn"
check fixtures

if [ -f "$C/pgn/otb-14539.pgn.xz" ]; then
	xz -dc "$C/pgn/otb-14539.pgn.xz" >"$T/otb.pgn"
	awk '/^\[Event / && ++n > 600 { exit } { print }' "$T/otb.pgn" >"$T/otb600.pgn"
	build "$T/otb600.pgn"
	check otb
	if [ -n "$PE" ]; then
		"$P" -q --by=moves "$T/arch.pgn" 2>/dev/null | tr -d '\r' |
		    grep -a '^\[\(Event\|White\|Black\) ' >"$T/ours"
		"$PE" -s -D "$T/arch.pgn" 2>/dev/null | tr -d '\r' |
		    grep -a '^\[\(Event\|White\|Black\) ' >"$T/theirs"
		cmp -s "$T/ours" "$T/theirs" ||
		    fail "otb: --by=moves and pgn-extract -D keep other games"
	fi
	if [ -n "$PE" ]; then
		n=$("$P" -q -c --by=moves "$T/otb.pgn")
		[ "$n" -eq 12673 ] || fail "OTB archive: --by=moves keeps $n, not 12673"
		"$P" -q --by=moves "$T/otb.pgn" | tr -d '\r' |
		    grep -a '^\[\(Event\|White\|Black\|Round\|Date\) ' >"$T/ours"
		"$PE" -s -D "$T/otb.pgn" 2>/dev/null | tr -d '\r' |
		    grep -a '^\[\(Event\|White\|Black\|Round\|Date\) ' >"$T/theirs"
		cmp -s "$T/ours" "$T/theirs" ||
		    fail "OTB archive: --by=moves and pgn-extract -D keep other games"
	fi
else
	echo "note: no corpus: the OTB archive is not tried"
fi
exit $status
