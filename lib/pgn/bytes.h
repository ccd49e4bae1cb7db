/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn/bytes.h: the bytes of PGN text, not exported: SIMD and
 * eight-bytes-at-once tests, and the byte classes (cd__pgn_cls,
 * constant data that lib/core/gen-tables.c writes) with the macros
 * that read them.  Used by the lexer (pgn/lex.c), the framer
 * (pgn/frame.c, pgn/frame_tags.c), the comment folder (pgn/fold.c),
 * the tag and writer code (pgn/tags.c, pgn/write.c) and gen-tables.c.
 * It depends on nothing of lib/pgn.
 */
#ifndef CHESSDATA_PGN_BYTES_H
#define CHESSDATA_PGN_BYTES_H

#include "common/internal.h"

#ifdef __SSE2__
#include <emmintrin.h>

/* 0xff in each byte of v that is c, 0 in the others. */
static inline __m128i
cd__eq8(__m128i v, int c)
{
	return _mm_cmpeq_epi8(v, _mm_set1_epi8((char)c));
}

/* 0xff in each byte of v that is c or below (unsigned), 0 in the
 * others. */
static inline __m128i
cd__le8(__m128i v, int c)
{
	return _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8((char)c)), v);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define CD_AVX2 1
#include <immintrin.h>
/* cd__have_avx2: the processor has AVX2 (x86-64's baseline does not)
 * and CHESSDATA_NO_AVX2 is not set; the comment folder and the game
 * reader's comment scan use it. */
#include "common/cpu.h"
#endif
#endif

/* Tests of eight bytes at once, exact for each byte (no carry or
 * borrow crosses one). */
#define CD__ONES	0x0101010101010101ULL
#define CD__HIGHS	0x8080808080808080ULL
#define CD__LOWS	0x7f7f7f7f7f7f7f7fULL

/* 0x80 in each byte of x that is zero. */
static inline uint64_t
cd__zero_bytes(uint64_t x)
{
	return ~(((x & CD__LOWS) + CD__LOWS) | x | CD__LOWS);
}

/* Copy n bytes from s to d with fixed-size moves where n is at most
 * sixteen (two that overlap), memcpy beyond. */
static inline void
cd__copy_small(char *d, const char *s, size_t n)
{
	uint64_t a, b;
	uint32_t c, e;

	if (n >= 8 && n <= 16) {
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + n - 8, &b, 8);
	} else if (n >= 4 && n < 8) {
		memcpy(&c, s, 4);
		memcpy(&e, s + n - 4, 4);
		memcpy(d, &c, 4);
		memcpy(d + n - 4, &e, 4);
	} else if (n < 4) {
		while (n-- > 0)
			*d++ = *s++;
	} else {
		memcpy(d, s, n);
	}
}

/* The lexer's byte classes (cd__pgn_cls, constant data written by
 * gen-tables.c), shared with the parser's fast path. */
enum {
	K_WS = 1 << 0,		/* space, tab, LF, CR, VT, FF */
	K_DELIM = 1 << 1,	/* ends a word in the game reader */
	K_DIGIT = 1 << 2,
	K_LETTER = 1 << 3,
	K_MOVE = 1 << 4,	/* may continue a move word (ASCII part) */
	K_TAGNAME = 1 << 5,	/* may be in a tag name */
	K_STOP = 1 << 6		/* the game reader looks at it in movetext */
};
extern CD__TABLE unsigned char cd__pgn_cls[256];

/* The bytes of K_STOP: a line end, a comment, a string, a `[` that may
 * start the next tag section, a variation, `*`, and the bytes without
 * which no word is a marker (`-`, `/`, and the first bytes of `½` and
 * of the dashes).  The game reader's SSE2 scan (skip_plain) tests the
 * same bytes in its own way; check_pgn_lex compares the two. */
#define CD__STOP_BYTES	"\n{;%\"[*()-/\xc2\xe2"

/* The byte class of c, and the tests the lexer and the framer make of
 * it. */
#define CD__U(c)		((unsigned char)(c))
#define CD__CLS(c)		(cd__pgn_cls[CD__U(c)])
#define CD__IS_WS(c)		(CD__CLS(c) & K_WS)
#define CD__IS_DIGIT(c)		(CD__CLS(c) & K_DIGIT)
#define CD__IS_HSPACE(c)	((c) == ' ' || (c) == '\t' || (c) == '\r' || \
				    (c) == '\v' || (c) == '\f')

#endif
