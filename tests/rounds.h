/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rounds.h: TU_ROUNDS(n), the number of rounds of a random test: n, or
 * a quarter of n in a build with AddressSanitizer (make
 * check-sanitizers), which runs such loops several times slower; the
 * plain build runs them all.  TU_SKIP(i), for a loop test whose
 * iterations are an exhaustive grid: false for every i, or in that
 * build true for three i in four (the grid's every fourth point is
 * run there, the plain build runs the whole grid).  TU_SKIP_PLACE(i),
 * for a loop test over the 64 places of a block (its input moved by i
 * bytes): TU_SKIP of i + i / 16, which keeps one place for each place
 * modulo 16 (0, 4, 8, 12 of the first sixteen, 3, 7, 11, 15 of the
 * next, then 2, 6, 10, 14 and 1, 5, 9, 13), not only the multiples of
 * four.
 */
#ifndef CD_TESTS_ROUNDS_H
#define CD_TESTS_ROUNDS_H

#if defined(__SANITIZE_ADDRESS__)
#define TU_SANITIZED	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TU_SANITIZED	1
#endif
#endif

#ifdef TU_SANITIZED
#define TU_ROUNDS(n)	((n) / 4)
#define TU_SKIP(i)	((i) % 4 != 0)
#else
#define TU_ROUNDS(n)	(n)
#define TU_SKIP(i)	0
#endif
#define TU_SKIP_PLACE(i)	TU_SKIP((i) + (i) / 16)

#endif
