/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bits.h: bitboard bits (CD_BB, lowest bit, popcount) for the chess
 * files of the library.  Names start with cd__.
 */
#ifndef CHESSDATA_BITS_H
#define CHESSDATA_BITS_H

#include <chessdata/board.h>

#define CD_BB(sq)	((cd_bitboard)1 << (sq))

static inline int
cd__lsb(cd_bitboard b)
{
	return __builtin_ctzll(b);
}

static inline int
cd__pop_lsb(cd_bitboard *b)
{
	int s = __builtin_ctzll(*b);
	*b &= *b - 1;
	return s;
}

/* Software popcount unless the compiler may use the instruction. */
static inline int
cd__popcount(cd_bitboard b)
{
#if defined(__POPCNT__)
	return __builtin_popcountll(b);
#else
	b = b - ((b >> 1) & 0x5555555555555555ULL);
	b = (b & 0x3333333333333333ULL) + ((b >> 2) & 0x3333333333333333ULL);
	b = (b + (b >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (int)((b * 0x0101010101010101ULL) >> 56);
#endif
}

#endif
