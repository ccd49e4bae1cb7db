#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# check-sse2.sh: check_pgn and check_pgn_lex once more with
# CHESSDATA_NO_AVX2=1, so that on a processor with AVX2 the SSE2 code
# of the comment folder and of the game reader's comment scan is
# compared with the tests' references too (test_fold_random,
# test_plain_comment_random, test_comment_scan), not only the AVX2
# code.  Skipped without Check.
set -u
: "${top_builddir:?}"
[ -x "$top_builddir/tests/check_pgn" ] || exit 77
CHESSDATA_NO_AVX2=1 "$top_builddir/tests/check_pgn" || exit 1
CHESSDATA_NO_AVX2=1 "$top_builddir/tests/check_pgn_lex" || exit 1
