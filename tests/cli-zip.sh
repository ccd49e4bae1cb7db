#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-zip.sh: .zip archives read as published, and other archives and
# binary formats refused.
# - A .zip made here (python3's zipfile) with PGN members (CRLF line
#   ends, a byte order mark, no last line end, a bad game at a known
#   line), a directory, a text member and an empty one, stored and with
#   each compression method libarchive reads: every PGN tool writes
#   what it writes for the members' text concatenated (a line end after
#   each), and its messages are those of that text with each line
#   made the member's ("k.zip:dir/two.pgn:19:13: game 4: ...") - as a
#   file and on standard input, with 1 and 2 threads.
# - Members that are not read: compressed itself (.pgn.gz), a zip, a
#   JPEG, a PDF, encrypted: each passed over with a message naming it
#   ("k.zip:b.pgn.gz: gzip compressed: not read ..."), the members after
#   it read, exit 2 (as for an input that cannot be read); random
#   bytes as a member are binary data, skipped with a message.
# - A truncated or damaged archive: exit 2, a message naming the damage
#   (libarchive's reason, never "(null)"), and the games before it.
# - tar, 7-Zip, RAR, PDF, ELF, JPEG, PNG, GIF and random bytes: every
#   tool exits non-zero, writes nothing, and names the format (random
#   bytes: binary data).
# - A member of 96 MB of games in a 100 KB archive is read within a
#   bounded address space (ulimit -v; not under the sanitizers).
set -u
NAME=clizip
. "${top_srcdir:?}/tests/testlib.sh"
B="$tooldir"
LC_ALL=C
export LC_ALL

command -v python3 >/dev/null 2>&1 || skip "no python3"
printf 'PK\005\006%018d' 0 | tr 0 '\0' >"$T/empty.zip"
if "$B/pgn-select" -c "$T/empty.zip" 2>&1 | grep -q 'not supported'; then
	skip "this build leaves libarchive out"
fi

# The archive k-METHOD.zip for each method, plain.pgn (the members'
# text as the stream gives it) and map (each member's first line in it
# and its name).
python3 - "$T" <<'EOF' || fatal "python3 zipfile"
import sys, zipfile
t = sys.argv[1]
def game(ev, moves, res, eol='\n'):
    tags = [('Event', ev), ('Site', '?'), ('Date', '2024.01.02'),
            ('Round', '1'), ('White', 'W, A'), ('Black', 'B, C'),
            ('Result', res)]
    s = ''.join('[%s "%s"]%s' % (k, v, eol) for k, v in tags)
    return s + eol + moves + ' ' + res + eol
good = game('one', '1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#', '1-0')
members = [
    ('one.pgn', (good + '\n' + game('two', '1. d4 d5 2. c4', '*')).encode()),
    ('dir/', None),
    # the bad game's movetext is line 19, 2. Ke3 at column 13
    ('dir/two.pgn', (good + '\n' + game('bad', '1. e4 e5 2. Ke3', '*')).encode()),
    ('crlf.pgn', game('crlf', '1. Nf3 Nf6 2. g3 g6', '1/2-1/2', '\r\n').encode()),
    ('notes.txt', b'some notes\nthat are not PGN\n'),
    ('empty.pgn', b''),
    ('bom.pgn', b'\xef\xbb\xbf' + game('bom', '1. c4 c5', '0-1').rstrip('\n').encode()),
]
plain, mp, line = b'', [], 1
for name, data in members:
    if data is None:
        continue
    mp.append('%d %s' % (line, name))
    if data.startswith(b'\xef\xbb\xbf'):
        data = data[3:]
    if data and not data.endswith(b'\n'):
        data += b'\n'
    plain += data
    line += data.count(b'\n')
open(t + '/plain.pgn', 'wb').write(plain)
open(t + '/map', 'w').write('\n'.join(mp) + '\n')
for m, c in (('stored', zipfile.ZIP_STORED), ('deflate', zipfile.ZIP_DEFLATED),
             ('bzip2', zipfile.ZIP_BZIP2), ('lzma', zipfile.ZIP_LZMA)):
    with zipfile.ZipFile('%s/k-%s.zip' % (t, m), 'w', c) as z:
        for name, data in members:
            if data is None:
                z.mkdir(name) if hasattr(z, 'mkdir') else z.writestr(name, b'')
            else:
                z.writestr(name, data)
# members that are not PGN between good ones: compressed itself, a
# zip, a JPEG, a PDF, random bytes (a fixed seed)
import gzip, random, io
inner = io.BytesIO()
with zipfile.ZipFile(inner, 'w') as z:
    z.writestr('x.pgn', good)
rnd = random.Random(7)
with zipfile.ZipFile(t + '/nested.zip', 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('a.pgn', good)
    z.writestr('b.pgn.gz', gzip.compress(good.encode()))
    z.writestr('c.pgn', good)
    z.writestr('inner.zip', inner.getvalue())
    z.writestr('cover.jpg', b'\xff\xd8\xff\xe0' + bytes(rnd.getrandbits(8) for _ in range(500)))
    z.writestr('book.pdf', b'%PDF-1.4\n%junk\n')
    z.writestr('noise.bin', bytes(rnd.getrandbits(8) for _ in range(3000)))
    z.writestr('d.pgn', good)
# an encrypted member (its flag set: zipfile writes none), between good
# ones
with zipfile.ZipFile(t + '/enc.zip', 'w', zipfile.ZIP_STORED) as z:
    z.writestr('a.pgn', good)
    z.writestr('secret.pgn', good)
    z.writestr('c.pgn', good)
d = bytearray(open(t + '/enc.zip', 'rb').read())
i = d.index(b'PK\x03\x04', 4)
d[i + 6] |= 1
j = d.index(b'PK\x01\x02', d.index(b'PK\x01\x02') + 4)
d[j + 8] |= 1
open(t + '/enc.zip', 'wb').write(bytes(d))
EOF

# zipmsg FILE: the messages about plain.pgn ($T/plain.err) as they are
# for the archive FILE: each line made its member's
zipmsg() {
	awk -v zip="$1" -v plain="$T/plain.pgn" '
	NR == FNR { first[NR] = $1; name[NR] = substr($0, length($1) + 2);
	    n = NR; next }
	{
		i = index($0, plain ":")
		if (i == 0) { sub(plain, zip); print; next }
		rest = substr($0, i + length(plain) + 1)
		if (!match(rest, /^[0-9]+/)) { sub(plain, zip); print; next }
		l = substr(rest, 1, RLENGTH) + 0
		for (k = n; k > 1 && first[k] > l; k--)
			;
		print substr($0, 1, i - 1) zip ":" name[k] ":" \
		    (l - first[k] + 1) substr(rest, RLENGTH + 1)
	}' "$T/map" "$T/plain.err"
}

# same TOOL [ARGS...]: TOOL on k-deflate.zip, as a file and on standard
# input, with 1 and 2 threads, and (pgn-regularize) on the archives of
# every method, against TOOL on plain.pgn
same() {
	tool=$1
	shift
	"$B/$tool" "$@" "$T/plain.pgn" >"$T/plain.out" 2>"$T/plain.err"
	want=$?
	for run in 1:deflate 2:deflate stdin:deflate 1:stored 1:bzip2 \
	    1:lzma; do
		j=${run%%:*} m=${run#*:} z="$T/k-${run#*:}.zip"
		[ "$tool" = pgn-regularize ] || [ "$m" = deflate ] || continue
		if [ "$j" = stdin ]; then
			"$B/$tool" "$@" <"$z" >"$T/zip.out" 2>"$T/zip.err"
			rc=$?
			zipmsg "<stdin>" >"$T/want.err"
		else
			"$B/$tool" -j "$j" "$@" "$z" >"$T/zip.out" \
			    2>"$T/zip.err"
			rc=$?
			zipmsg "$z" >"$T/want.err"
		fi
		[ "$rc" -eq "$want" ] || fail "$tool $run: exit $rc, plain $want"
		cmp -s "$T/plain.out" "$T/zip.out" ||
		    fail "$tool $run: output differs from the plain text's"
		cmp -s "$T/want.err" "$T/zip.err" ||
		    { fail "$tool $run: messages"; diff "$T/want.err" "$T/zip.err" >&2; }
	done
}

# the bad game, named by its member, the member's own line and column
"$B/pgn-regularize" "$T/k-deflate.zip" >/dev/null 2>"$T/err"
grep -q "^pgn-regularize: $T/k-deflate.zip:dir/two.pgn:19:13: game 4: 2. Ke3: illegal move\$" "$T/err" ||
    { fail "the bad game's message"; cat "$T/err" >&2; }
"$B/pgn-select" -c "$T/k-deflate.zip" >"$T/out" 2>/dev/null
[ "$(cat "$T/out")" = 6 ] || fail "pgn-select -c counts $(cat "$T/out") games, not 6"

# pgn-sort and pgn-dedup (no -j), pgn-split into parts on standard output
for tool in pgn-sort pgn-dedup; do
	"$B/$tool" "$T/plain.pgn" >"$T/plain.out" 2>/dev/null
	"$B/$tool" "$T/k-deflate.zip" >"$T/zip.out" 2>/dev/null
	cmp -s "$T/plain.out" "$T/zip.out" || fail "$tool: output differs"
done
"$B/pgn-sort" -m "$T/k-stored.zip" "$T/k-lzma.zip" >"$T/zip.out" 2>&1 ||
    fail "pgn-sort -m on two archives"

# the empty archive: no game, no message
expect 1 "$B/pgn-select" -c "$T/empty.zip"
[ "$(cat "$T/out")" = 0 ] && [ ! -s "$T/err" ] ||
    fail "empty archive: $(cat "$T/out") games, $(cat "$T/err")"

# members not read: each passed over with a message naming it, the
# games of every other member read, exit 2; every tool that reads PGN,
# on the file and on standard input
cat >"$T/nested.want" <<EOF
ARCHIVE:b.pgn.gz: gzip compressed: not read (take it out of the archive first)
ARCHIVE:inner.zip: a zip archive: not read (take it out of the archive first)
ARCHIVE:cover.jpg: JPEG images are not read
ARCHIVE:book.pdf: PDF documents are not read
EOF
for tool in pgn-regularize pgn-select pgn-sort pgn-dedup pgn2json pgn2tsv \
    pgn2epd pgn2pgc pgn-split; do
	for how in file stdin; do
		a=
		[ "$tool" = pgn-split ] && a="-l 1 -d $T/parts"
		[ "$tool" = pgn-dedup ] && a=--by=text
		rm -rf "$T/parts"
		if [ "$how" = file ]; then
			expect 2 "$B/$tool" $a "$T/nested.zip"
			arch="$T/nested.zip"
		else
			expect 2 "$B/$tool" $a - <"$T/nested.zip"
			arch="<stdin>"
		fi
		sed "s|^ARCHIVE|$tool: $arch|" "$T/nested.want" >"$T/want"
		grep -v 'binary data' "$T/err" | cmp -s - "$T/want" ||
		    { fail "$tool nested ($how): messages"; diff "$T/want" "$T/err" >&2; }
		grep -q "^$tool: $arch:noise.bin:1:1: not PGN text: binary data" "$T/err" ||
		    fail "$tool nested ($how): noise.bin: $(cat "$T/err")"
		case $tool in
		pgn-regularize|pgn-select|pgn-sort)
			[ "$(grep -c '^\[Event ' "$T/out")" -eq 3 ] ||
			    fail "$tool nested ($how): not the 3 games of a, c, d" ;;
		pgn-split)
			[ "$(cat "$T/parts"/* | grep -c '^\[Event ')" -eq 3 ] ||
			    fail "$tool nested ($how): not the 3 games of a, c, d" ;;
		esac
	done
done
expect 2 "$B/pgn-regularize" "$T/enc.zip"
printf 'pgn-regularize: %s:secret.pgn: encrypted: not read\n' "$T/enc.zip" |
    cmp -s - "$T/err" || { fail "encrypted: message"; cat "$T/err" >&2; }
[ "$(grep -c '^\[Event ' "$T/out")" -eq 2 ] || fail "encrypted: not the games of a and c"

# damage to the archive's headers (each byte of the second member's
# local header and of the first central directory entry in turn): a
# message naming the archive and libarchive's reason, never "(null)"
python3 - "$T" <<'EOF' || fail "python3: damaged headers"
import sys
t = sys.argv[1]
d = open(t + '/k-deflate.zip', 'rb').read()
i = d.index(b'PK\x03\x04', 4)
j = d.index(b'PK\x01\x02')
n = 0
for at in list(range(i, i + 30)) + list(range(j, j + 46)):
    b = bytearray(d)
    b[at] ^= 0xff
    open('%s/dmg%03d.zip' % (t, n), 'wb').write(bytes(b))
    n += 1
EOF
for f in "$T"/dmg*.zip; do
	"$B/pgn-select" -c "$f" >/dev/null 2>"$T/err"
	! grep -q '(null)' "$T/err" || { fail "$f: (null)"; cat "$T/err" >&2; }
	! grep -q -v "^pgn-select: $f[:]" "$T/err" ||
	    { fail "$f: a message without the archive"; cat "$T/err" >&2; }
done


# a truncated archive: exit 2, a message, a prefix of the whole output
"$B/pgn-regularize" -q "$T/k-deflate.zip" >"$T/full" 2>/dev/null
size=$(wc -c <"$T/k-deflate.zip")
cut=20
while [ "$cut" -lt "$size" ]; do
	head -c "$cut" "$T/k-deflate.zip" >"$T/cut.zip"
	"$B/pgn-regularize" -q "$T/cut.zip" >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq 2 ] || [ "$rc" -eq 1 ] || fail "cut at $cut: exit $rc"
	[ "$rc" -ne 2 ] || grep -q "cut.zip: .*zip" "$T/err" ||
	    { fail "cut at $cut: message"; cat "$T/err" >&2; }
	n=$(wc -c <"$T/out")
	head -c "$n" "$T/full" | cmp -s - "$T/out" ||
	    fail "cut at $cut: not a prefix of the whole output"
	cut=$((cut + size / 9))
done

# other formats: every tool refuses them, writes nothing, names them
( cd "$T" && mkdir t && cp plain.pgn t/ && tar cf k.tar t ) ||
    fail "tar cf"
printf '7z\274\257\047\034\000\004junk' >"$T/k.7z"
printf 'Rar!\032\007\000junk' >"$T/k.rar"
printf '%%PDF-1.4\n%%junk\n' >"$T/k.pdf"
printf '\177ELF\002\001\001junk' >"$T/k.elf"
printf '\377\330\377\340junk' >"$T/k.jpg"
printf '\211PNG\r\n\032\njunk' >"$T/k.png"
printf 'GIF89ajunk' >"$T/k.gif"
# (random bytes from a fixed seed: the same in every run)
python3 -c 'import random, sys
r = random.Random(40)
sys.stdout.buffer.write(bytes(r.getrandbits(8) for _ in range(4000)))' |
    tr -d 'PK7RG%\177\211\377' >"$T/k.bin"
# (every tool on tar and 7-Zip, pgn-select on the others)
for f in tar:tar 7z:7-Zip rar:RAR pdf:PDF elf:ELF jpg:JPEG png:PNG \
    gif:GIF bin:binary; do
	x=${f%%:*} what=${f#*:}
	tools=pgn-select
	[ "$x" = tar ] || [ "$x" = 7z ] &&
	    tools="pgn-regularize pgn-select pgn2json pgn2tsv pgn2epd pgn2pgc
	    pgn-sort pgn-dedup epd-validate chess-perft pgc2pgn"
	for tool in $tools; do
		"$B/$tool" "$T/k.$x" >"$T/out" 2>"$T/err"
		rc=$?
		[ "$rc" -ne 0 ] || fail "$tool k.$x: exit 0"
		# (no game: pgn-select -c's 0, pgn2tsv's header line)
		[ "$(wc -l <"$T/out")" -le 1 ] && ! grep -q "^\\[Event" "$T/out" ||
		    fail "$tool k.$x: output"
		grep -q "k\.$x: $what .* are not read\$" "$T/err" ||
		    { [ "$x" = bin ] && grep -q 'binary data' "$T/err"; } ||
		    { fail "$tool k.$x: message"; cat "$T/err" >&2; }
	done
done

# a decompression bomb: 96 MB of games in one member of about 100 KB,
# read within the address space of a small input and 64 MB
if grep -q '^SAN_CFLAGS = .*-fsanitize=' "$top_builddir/Makefile" \
    2>/dev/null; then
	echo "note: sanitizer build: the bomb's address space is not measured"
else
	python3 - "$T" <<'EOF' || fail "python3: the bomb"
import sys, zipfile
t = sys.argv[1]
g = b'[Event "b"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n'
with zipfile.ZipFile(t + '/bomb.zip', 'w', zipfile.ZIP_DEFLATED) as z:
    with z.open('bomb.pgn', 'w') as m:
        block = g * (1 << 14)
        n = (96 << 20) // len(block)
        for i in range(n):
            m.write(block)
open(t + '/bomb.n', 'w').write('%d\n' % (n << 14))
EOF
	base=16384
	while ! (ulimit -v "$base" && exec "$B/pgn-select" -c -j 1 \
	    "$T/k-deflate.zip") >/dev/null 2>&1; do
		base=$((base + 16384))
		[ "$base" -le 4194304 ] || { fail "no limit reads a small zip"; break; }
	done
	want=$(cat "$T/bomb.n")
	n=$( (ulimit -v $((base + 65536)) && exec "$B/pgn-select" -c -j 1 \
	    "$T/bomb.zip") 2>"$T/err")
	[ "$n" = "$want" ] ||
	    { fail "bomb: $n games, not $want, within $((base + 65536)) KB"; cat "$T/err" >&2; }
fi

finish
