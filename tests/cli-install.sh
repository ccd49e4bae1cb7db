#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli-install.sh: make install into a staging directory (DESTDIR) gives
# working tools, man pages that man(1) finds and renders, the headers,
# and a libchessdata.pc with which pkg-config builds a small program
# against the installed library (it parses a FEN and prints perft 3);
# make uninstall then removes every file it installed.
set -u
: "${top_srcdir:?}" "${top_builddir:?}"
NAME=install
. "$top_srcdir/tests/testlib.sh"

command -v pkg-config >/dev/null 2>&1 || {
	echo "SKIP: pkg-config is not installed"
	exit 77
}

# What the build was configured with.
mkvar() {
	sed -n "s/^$1 = //p" "$top_builddir/Makefile" | head -n 1
}
CC=$(mkvar CC)
SAN_CFLAGS=$(mkvar SAN_CFLAGS)
SAN_LDFLAGS=$(mkvar SAN_LDFLAGS)
VERSION=$(mkvar PACKAGE_VERSION)
PROGRAMS=$(sed -n '/^bin_PROGRAMS = /,/[^\\]$/p' "$top_builddir/Makefile" |
    tr ' \\\t' '\n\n\n' | sed -n 's|^src/\(.*\)$(EXEEXT)$|\1|p')
[ -n "$PROGRAMS" ] || fail "no program found in the Makefile"

# A sub-make must not try to share the jobserver of make check.
dest="$T/dest"
if ! env MAKEFLAGS= MFLAGS= ${MAKE:-make} -C "$top_builddir" install \
    DESTDIR="$dest" >"$T/install.log" 2>&1; then
	tail -n 30 "$T/install.log" >&2
	fail "make install failed"
	exit 1
fi

pc="$top_builddir/libchessdata.pc"
prefix=$(pkg-config --variable=prefix "$pc")
libdir=$(pkg-config --variable=libdir "$pc")
root="$dest$prefix"
pcdir="$dest$libdir/pkgconfig"
[ -f "$pcdir/libchessdata.pc" ] || fail "no $libdir/pkgconfig/libchessdata.pc"
[ -f "$root/include/chessdata.h" ] || fail "no include/chessdata.h"
# the installed library alone (make check puts the build tree's there)
export LD_LIBRARY_PATH="$dest$libdir"

# Every tool is installed and runs.
for p in $PROGRAMS; do
	if [ ! -x "$root/bin/$p" ]; then
		fail "bin/$p not installed"
		continue
	fi
	out=$("$root/bin/$p" --version 2>&1)
	[ "$out" = "$p (chessdata) $VERSION" ] ||
	    fail "installed $p --version: $out"
done

# pkg-config (relocated to the staging directory) builds a program.
flags=$(PKG_CONFIG_PATH="$pcdir" pkg-config \
    --define-variable=prefix="$root" --cflags --libs libchessdata) ||
    fail "pkg-config --cflags --libs libchessdata"
case $flags in
*"$root"*) ;;
*) fail "pkg-config flags do not point into the installation: $flags" ;;
esac
cat >"$T/perft3.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include <chessdata.h>

int
main(int argc, char **argv)
{
	const char *fen = argc > 1 ? argv[1] :
	    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
	cd_error err;
	cd_board b;

	if (cd_fen_parse(&b, fen, strlen(fen), 0, &err) != CD_OK) {
		fprintf(stderr, "perft3: %s\n", err.msg);
		return 1;
	}
	printf("%s %llu\n", cd_version(), (unsigned long long)cd_perft(&b, 3));
	return 0;
}
EOF
# shellcheck disable=SC2086
if ! ${CC:-cc} $SAN_CFLAGS -o "$T/perft3" "$T/perft3.c" $flags \
    $SAN_LDFLAGS >"$T/cc.log" 2>&1; then
	cat "$T/cc.log" >&2
	fail "cannot build a program against the installed library"
else
	out=$("$T/perft3")
	[ "$out" = "$VERSION 8902" ] || fail "perft3: '$out'"
	out=$("$T/perft3" \
	    'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -')
	[ "$out" = "$VERSION 97862" ] || fail "perft3 kiwipete: '$out'"
	out=$("$T/perft3" 'not a fen' 2>&1)
	[ $? -eq 1 ] && [ -n "$out" ] || fail "perft3 on a bad FEN: '$out'"
fi

# man finds and renders every installed page.
if command -v man >/dev/null 2>&1; then
	n=0
	for page in "$root"/share/man/man*/*; do
		[ -f "$page" ] || continue
		base=${page##*/}
		name=${base%.*}
		sec=${base##*.}
		n=$((n + 1))
		out=$(MANPAGER=cat PAGER=cat MANWIDTH=80 man -M "$root/share/man" \
		    "$sec" "$name" 2>"$T/man.err")
		echo "$out" | grep -q "^NAME" && echo "$out" | grep -q "$name" ||
		    fail "man -M PREFIX/share/man $sec $name: $(head -c 200 \
		    "$T/man.err")"
	done
	[ "$n" -gt 0 ] || fail "no man page installed"
	out=$(MANPAGER=cat man -M "$root/share/man" pgn-sort 2>&1)
	echo "$out" | grep -q "pgn-sort" ||
	    fail "man -M PREFIX/share/man pgn-sort"
else
	echo "SKIP: man is not installed: man pages not rendered"
	ls "$root"/share/man/man1/pgn-sort.1 >/dev/null ||
	    fail "no man1/pgn-sort.1"
fi

# make uninstall removes everything.
if ! env MAKEFLAGS= MFLAGS= ${MAKE:-make} -C "$top_builddir" uninstall \
    DESTDIR="$dest" >"$T/uninstall.log" 2>&1; then
	tail -n 30 "$T/uninstall.log" >&2
	fail "make uninstall failed"
fi
left=$(find "$dest" -type f -o -type l | head -n 5)
[ -z "$left" ] || fail "files left after make uninstall: $left"

[ "$status" -eq 0 ] && echo "ok: install, pkg-config, man, uninstall"
exit $status
