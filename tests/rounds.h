/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rounds.h: TU_ROUNDS(n), the number of rounds of a random test: n, or
 * a quarter of n in a build with AddressSanitizer (make
 * check-sanitizers), which runs such loops several times slower; the
 * plain build runs them all.  TU_SKIP(i), for a loop test whose
 * iterations are an exhaustive grid: false for every i, or in that
 * build true for three i in four (the grid's every fourth point is
 * run there, the plain build runs the whole grid).
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

#endif
