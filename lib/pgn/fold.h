/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn/fold.h: comment folding (pgn/fold.c), for the game builder
 * (pgn/game.c).  Not exported.
 */
#ifndef CHESSDATA_PGN_FOLD_H
#define CHESSDATA_PGN_FOLD_H

#include "pgn/bytes.h"

/* Bytes folded in comments: white space, control bytes, DEL, `}`. */
static inline bool
cd__fold_byte(unsigned char c)
{
	return c <= 0x20 || c == 0x7f || c == '}';
}

/* Fold len bytes at s (first and last not folded) into d, each run of
 * folded bytes one space; the length written (pgn/fold.c). */
size_t cd__fold(char *d, const char *s, size_t len);
#ifdef __SSE2__
/* Copy the bytes of s (n >= 16) up to the first one to fold, or a
 * second space in a row, into d; how many (pgn/fold.c). */
size_t cd__fold_plain(char *d, const char *s, size_t n);
#endif

#endif
