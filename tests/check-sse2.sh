#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# check-sse2.sh: check_pgn and check_pgn_lex once more with
# CHESSDATA_NO_AVX2=1, so that on a processor with AVX2 the SSE2 code
# of the comment folder and of the game reader's comment scan is
# compared with the tests' references too (test_fold_random,
# test_plain_comment_random, test_comment_scan), not only the AVX2
# code; and check_fen with CHESSDATA_NO_AVX2=1 and with
# CHESSDATA_NO_SSSE3=1, for the FEN writer's SSSE3 and plain code
# (test_placement_random); and check_frame's comments with
# CHESSDATA_NO_AVX2=1 (the wide scan's SSE2 code, one comment at a
# time: test_comment_masks).  And where the processor has AVX-512,
# check_frame's tag sections, check_pgn_lex's reader and check_pgn's
# comment folder with CHESSDATA_NO_AVX512=1: the tag loop's window by
# AVX2 (test_tag_lines, test_tag_sections_near_end), the plain runs
# taking AVX-512's; and the folder's AVX2 code (test_fold_random,
# test_plain_comment_random, test_fold_page_end), which the plain run
# does not reach there (it takes AVX-512's).  And check_cpu under each
# of the three variables: the probe turns off what each names.
# Skipped without Check.
set -u
NAME=check-sse2
. "${top_srcdir:?}/tests/testlib.sh"
[ -x "$top_builddir/tests/check_pgn" ] || skip "no Check: tests/check_pgn not built"
# (only the test cases that hold those tests: CK_RUN_CASE)
# run SWITCH CASE PROGRAM: the test case with CHESSDATA_SWITCH=1
run() {
	env "CHESSDATA_$1=1" CK_RUN_CASE="$2" "$top_builddir/tests/$3" ||
	    fail "$3 ($2) with CHESSDATA_$1=1"
}
run NO_AVX2 simd check_pgn
for c in reader tokens; do
	run NO_AVX2 "$c" check_pgn_lex
done
run NO_AVX2 write check_fen
run NO_SSSE3 write check_fen
run NO_AVX2 masks check_frame
run NO_AVX512 core check_frame
run NO_AVX512 reader check_pgn_lex
run NO_AVX512 simd check_pgn
for v in NO_SSSE3 NO_AVX2 NO_AVX512; do
	run "$v" cpu check_cpu
done
finish
