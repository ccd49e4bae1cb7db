/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cpu.h: the library's one probe of the processor (cpu.c), run when
 * the library is loaded.  On x86-64 only: the vector code of the FEN
 * writer (fen.c), the comment folder (pgn_comment.c) and the game
 * reader's scans (pgn/read.c, pgn/frame.c) asks it.
 */
#ifndef CHESSDATA_CPU_H
#define CHESSDATA_CPU_H

#if defined(__x86_64__) && defined(__GNUC__)
/* The processor has SSSE3 and CHESSDATA_NO_SSSE3 is unset or empty. */
extern int cd__have_ssse3;
/* The processor has AVX2 and CHESSDATA_NO_AVX2 is unset or empty
 * (whatever CHESSDATA_NO_SSSE3 says). */
extern int cd__have_avx2;
/* The processor has AVX-512 F, BW and VL besides AVX2 and
 * cd__have_clmul_bmi's, and neither CHESSDATA_NO_AVX2 nor
 * CHESSDATA_NO_AVX512 is set and not empty. */
extern int cd__have_avx512;
/* The processor has PCLMULQDQ, BMI1, BMI2 and POPCNT (those with AVX2
 * do): the framer's AVX2 scan asks it too. */
extern int cd__have_clmul_bmi;
#endif

#endif
