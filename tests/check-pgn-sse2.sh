#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# check-pgn-sse2.sh: check_pgn once more with CHESSDATA_NO_AVX2=1, so
# that on a processor with AVX2 the comment folder's SSE2 code is
# compared with the plain reference (test_fold_random) too, not only
# its AVX2 code.  Skipped without Check.
set -u
: "${top_builddir:?}"
P="$top_builddir/tests/check_pgn"
[ -x "$P" ] || exit 77
CHESSDATA_NO_AVX2=1 exec "$P"
