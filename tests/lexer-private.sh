#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# lexer-private.sh: cd_pgn_lexer's fields are private (CD_PRIVATE in
# chessdata/pgn_lex.h): a program that names one gets a warning from
# the compiler, and a program that lexes through the calls alone gets
# none.
set -u
: "${top_srcdir:?}" "${top_builddir:?}"
NAME=lexer-private
. "$top_srcdir/tests/testlib.sh"

cc=${CC:-cc}
cat >"$T/gnu.c" <<'END'
#ifndef __GNUC__
#error not GCC or clang
#endif
END
$cc -fsyntax-only "$T/gnu.c" >/dev/null 2>&1 || {
	echo "SKIP: $cc has no deprecated attribute on fields"
	exit 77
}

# The public headers as a program sees them.
inc="-I$top_srcdir/lib -I$top_builddir/lib -I$top_builddir"

cat >"$T/calls.c" <<'END'
#include <chessdata.h>

int
main(void)
{
	cd_pgn_lexer lx;
	cd_pgn_token t;
	int n = 0;

	cd_pgn_lex_init(&lx, "1. e4 e5 *", 10, 1, 1);
	while (cd_pgn_lex_next(&lx, &t) != CD_PGN_TOK_END)
		n++;
	return n == 4 ? 0 : 1;
}
END
# shellcheck disable=SC2086
$cc -fsyntax-only -Werror -Wdeprecated-declarations $inc "$T/calls.c" \
    >"$T/calls.err" 2>&1 || {
	cat "$T/calls.err" >&2
	fail "a program that lexes through the calls alone does not build"
}

for field in p end line_start line col0; do
	cat >"$T/$field.c" <<END
#include <chessdata.h>

int
main(void)
{
	cd_pgn_lexer lx;

	cd_pgn_lex_init(&lx, "e4", 2, 1, 1);
	return lx.$field != 0;
}
END
	# shellcheck disable=SC2086
	$cc -fsyntax-only -Wdeprecated-declarations $inc "$T/$field.c" \
	    >"$T/$field.err" 2>&1 || {
		cat "$T/$field.err" >&2
		fail "naming cd_pgn_lexer's $field does not build"
	}
	grep -q "private to libchessdata" "$T/$field.err" ||
	    fail "naming cd_pgn_lexer's $field gives no warning"
done
exit $status
