#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# abi-private.sh: against the installed headers (make install of the
# headers into a staging directory), a program built with -Wall -Werror
# that names a field private to the library (CD_PRIVATE, and the
# reserved slots of CD_RESERVED, chessdata/base.h) does not build, and
# the warning names the field; one that zeroes, copies and reads the
# public fields of the same structs builds with -Wall -Wextra -Werror.
# Every private field is found in the headers themselves, so a new one
# is checked the day it is marked.  (The tree's own tools and tests
# build with -Werror=deprecated-declarations: configure.ac.)
set -u
: "${top_srcdir:?}" "${top_builddir:?}"
NAME=abi-private
. "$top_srcdir/tests/testlib.sh"

CC=$(sed -n 's/^CC = //p' "$top_builddir/Makefile" | head -n 1)
cat >"$T/gnuc.c" <<'EOF'
#ifndef __GNUC__
#error no deprecated attribute
#endif
int main(void) { return 0; }
EOF
${CC:-cc} -c -o "$T/gnuc.o" "$T/gnuc.c" >/dev/null 2>&1 || {
	echo "SKIP: $CC is not GCC or clang (CD_PRIVATE warns there only)"
	exit 77
}

# Only the headers, as make install puts them (a sub-make must not
# share the jobserver of make check).
dest="$T/dest"
if ! env MAKEFLAGS= MFLAGS= ${MAKE:-make} -C "$top_builddir" \
    install-includeHEADERS install-chessdataincHEADERS DESTDIR="$dest" \
    >"$T/install.log" 2>&1; then
	cat "$T/install.log" >&2
	fail "make install of the headers failed"
	exit 1
fi
top=$(find "$dest" -name chessdata.h -type f | head -n 1)
[ -n "$top" ] && [ -d "${top%/*}/chessdata" ] ||
    { fail "no installed chessdata.h beside chessdata/"; exit 1; }
inc=${top%/*}

# STRUCT FIELD of every private field and reserved slot.
for h in "$inc"/chessdata/*.h; do
	awk '/^typedef struct [a-z_0-9]+ \{/ { s = $3 }
	    /^#/ { next }
	    / CD_PRIVATE;/ {
		f = $0
		sub(/ CD_PRIVATE;.*/, "", f)
		sub(/(\[[^]]*\])+$/, "", f)
		sub(/.*[^a-z0-9_]/, "", f)
		print s, f
	    }
	    /^[ \t]*CD_RESERVED\([0-9]+\);/ { print s, "cd_reserved_" }' "$h"
done >"$T/private"
n=$(wc -l <"$T/private")
grep -q '^cd_game_xtags fen$' "$T/private" &&
    grep -q '^cd_game priv$' "$T/private" &&
    grep -q '^cd_error cd_reserved_$' "$T/private" ||
    { fail "private fields not found in the headers:"; cat "$T/private" >&2; }

# Each named alone: the build fails, and says which field and why.
i=0
while read -r s f; do
	i=$((i + 1))
	cat >"$T/p$i.c" <<EOF
#include <chessdata.h>

int
main(void)
{
	static struct $s v;

	(void)&v.$f;
	return 0;
}
EOF
	if ${CC:-cc} -Wall -Werror -I"$inc" -c -o "$T/p$i.o" "$T/p$i.c" \
	    >"$T/p$i.err" 2>&1; then
		fail "$s.$f: a program that names it builds with -Wall -Werror"
	elif ! grep -q "$f.*private to libchessdata" "$T/p$i.err"; then
		fail "$s.$f: the build fails, but not for the field being private:"
		cat "$T/p$i.err" >&2
	fi
done <"$T/private"

# The same structs used as callers may: zeroed, copied, public fields
# read and set.
cat >"$T/ok.c" <<'EOF'
#include <string.h>
#include <chessdata.h>

int
main(void)
{
	cd_game_xtags x = { 0 };
	cd_pgn_parse_opts po = { .flags = CD_PGN_PARSE_POSITIONS };
	cd_polyglot_make_opts mo = { .min_game = 3, .uniform = true };
	cd_buf b = { 0 };
	cd_error e, f;
	cd_board bd;
	cd_rules r;
	cd_game *g = cd_game_new();
	size_t n = 0;

	memset(&e, 0, sizeof(e));
	cd_board_init(&bd);
	cd_rules_init(&r);
	f = e;
	n += x.n + (x.tags != NULL) + b.len + b.cap + f.line + bd.ep;
	n += r.history.len + po.flags + mo.min_game;
	if (g != NULL && cd_game_export_tags(g, 0, &x) == CD_OK)
		n += x.n + g->nnodes + g->ntags;
	cd_game_xtags_free(&x);
	cd_game_free(g);
	cd_rules_free(&r);
	return n == 0;
}
EOF
${CC:-cc} -Wall -Wextra -Werror -I"$inc" -c -o "$T/ok.o" "$T/ok.c" \
    >"$T/ok.err" 2>&1 || {
	fail "a program that uses only public fields does not build with -Wall -Wextra -Werror:"
	cat "$T/ok.err" >&2
}

[ "$status" -eq 0 ] && echo "ok: $n private fields and reserved slots warn, public use builds clean"
exit $status
