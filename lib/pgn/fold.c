/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn/fold.c: comment text as the export format keeps it (white space
 * and control bytes folded to one space, `}` dropped), copied 64, 32,
 * 16 or 8 bytes at a time where there is nothing to fold (AVX-512,
 * AVX2, SSE2 or eight bytes in a word).
 */

#include "config.h"

#include <string.h>

#include "pgn/fold.h"

#ifdef __SSE2__
/* The bytes of v that fold as they are (control bytes, DEL, `}`), and
 * its spaces, as bit masks: 0x9f - c, saturated, has its high bit set
 * for c < 0x20, and c | 2 is 0x7f for DEL and `}`. */
static inline unsigned
fold_mask(__m128i v, unsigned *sp)
{
	*sp = (unsigned)_mm_movemask_epi8(cd__eq8(v, ' '));
	return (unsigned)_mm_movemask_epi8(_mm_or_si128(
	    _mm_subs_epu8(_mm_set1_epi8((char)0x9f), v),
	    cd__eq8(_mm_or_si128(v, _mm_set1_epi8(2)), 0x7f)));
}

/*
 * Copy the n >= 16 bytes at s to d while nothing in them folds but
 * single spaces (and no space first when the byte before s was one:
 * space); how many bytes were plain (n: all).  Thirty-two bytes at a
 * time, then sixteen, the last sixteen overlapping the ones before;
 * up to 31 bytes after the plain ones are written too (d has room for
 * n).
 */
static size_t
plain_copy(char *d, const char *s, size_t n, bool space)
{
	size_t i = 0;
	unsigned prev = space, bad, sp, sp1;	/* prev: the byte before */
	__m128i v, v1;

	for (; i + 32 <= n; i += 32) {
		v = _mm_loadu_si128((const void *)(s + i));
		v1 = _mm_loadu_si128((const void *)(s + i + 16));
		_mm_storeu_si128((void *)(d + i), v);
		_mm_storeu_si128((void *)(d + i + 16), v1);
		bad = fold_mask(v, &sp) | fold_mask(v1, &sp1) << 16;
		sp |= sp1 << 16;
		/* a space after a space folds too */
		bad |= sp & ((sp << 1) | prev);
		if (bad != 0)
			return i + (size_t)__builtin_ctz(bad);
		prev = sp >> 31;
	}
	for (;;) {
		if (i + 16 > n) {
			if (i == n)
				return n;
			/* the last sixteen (n > 16 here), the first of them
			 * already found plain whatever the byte before */
			i = n - 16;
			prev = 0;
		}
		v = _mm_loadu_si128((const void *)(s + i));
		_mm_storeu_si128((void *)(d + i), v);
		bad = fold_mask(v, &sp);
		bad |= sp & ((sp << 1) | prev);
		if (bad != 0)
			return i + (size_t)__builtin_ctz(bad);
		/* (fewer than 32 were left: now at most the last 16) */
		i += 16;
	}
}
#endif

#ifdef CD_AVX2
/* fold_mask() for 32 bytes. */
__attribute__((target("avx2"))) static inline uint32_t
fold_mask32(__m256i v, uint32_t *sp)
{
	*sp = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v,
	    _mm256_set1_epi8(' ')));
	return (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(
	    _mm256_subs_epu8(_mm256_set1_epi8((char)0x9f), v),
	    _mm256_cmpeq_epi8(_mm256_or_si256(v, _mm256_set1_epi8(2)),
	    _mm256_set1_epi8(0x7f))));
}

/* plain_copy() with AVX2, for n >= 32: 64 bytes at a time, then 32,
 * the last 32 overlapping the ones before; up to 63 bytes after the
 * plain ones are written too. */
__attribute__((target("avx2"))) static size_t
plain_copy_avx2(char *d, const char *s, size_t n, bool space)
{
	size_t i = 0;
	uint64_t prev = space, bad, sp;	/* prev: the byte before */
	uint32_t sp0, sp1;
	__m256i v, v1;

	for (; i + 64 <= n; i += 64) {
		v = _mm256_loadu_si256((const void *)(s + i));
		v1 = _mm256_loadu_si256((const void *)(s + i + 32));
		_mm256_storeu_si256((void *)(d + i), v);
		_mm256_storeu_si256((void *)(d + i + 32), v1);
		bad = fold_mask32(v, &sp0) |
		    (uint64_t)fold_mask32(v1, &sp1) << 32;
		sp = sp0 | (uint64_t)sp1 << 32;
		/* a space after a space folds too */
		bad |= sp & ((sp << 1) | prev);
		if (bad != 0)
			return i + (size_t)__builtin_ctzll(bad);
		prev = sp >> 63;
	}
	for (;;) {
		if (i + 32 > n) {
			if (i == n)
				return n;
			/* the last 32 (n > 32 here), the first of them
			 * already found plain whatever the byte before */
			i = n - 32;
			prev = 0;
		}
		v = _mm256_loadu_si256((const void *)(s + i));
		_mm256_storeu_si256((void *)(d + i), v);
		bad = fold_mask32(v, &sp0);
		bad |= sp0 & ((sp0 << 1) | prev);
		if (bad != 0)
			return i + (size_t)__builtin_ctzll(bad);
		/* (fewer than 64 were left: now at most the last 32) */
		i += 32;
	}
}

#define FOLD_AVX512 "avx512f,avx512bw,avx512vl,avx2,bmi,bmi2"

/* fold_mask() for 64 bytes, straight into mask registers. */
__attribute__((target(FOLD_AVX512))) static inline uint64_t
fold_mask64(__m512i v, uint64_t *sp)
{
	*sp = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(' '));
	return _mm512_cmplt_epu8_mask(v, _mm512_set1_epi8(0x20)) |
	    _mm512_cmpeq_epi8_mask(_mm512_or_si512(v, _mm512_set1_epi8(2)),
	    _mm512_set1_epi8(0x7f));
}

/* plain_copy() with AVX-512, for any n: 64 bytes at a time, the last
 * ones (fewer than 64) by a masked load and store, the bytes after s's
 * n loaded as NULs, which fold (so n at the most comes out); up to 63
 * bytes after the plain ones are written too. */
__attribute__((target(FOLD_AVX512))) static size_t
plain_copy_avx512(char *d, const char *s, size_t n, bool space)
{
	size_t i = 0;
	uint64_t prev = space, bad, sp;	/* prev: the byte before */
	__mmask64 m;
	__m512i v;

	for (; i + 64 <= n; i += 64) {
		v = _mm512_loadu_si512((const void *)(s + i));
		_mm512_storeu_si512((void *)(d + i), v);
		bad = fold_mask64(v, &sp);
		/* a space after a space folds too */
		bad |= sp & ((sp << 1) | prev);
		if (bad != 0)
			return i + (size_t)__builtin_ctzll(bad);
		prev = sp >> 63;
	}
	m = _bzhi_u64(~0ULL, (unsigned)(n - i));
	v = _mm512_maskz_loadu_epi8(m, (const void *)(s + i));
	_mm512_mask_storeu_epi8((void *)(d + i), m, v);
	bad = fold_mask64(v, &sp);
	bad |= sp & ((sp << 1) | prev);
	return i + (size_t)__builtin_ctzll(bad);
}
#endif

#ifdef __SSE2__
/* plain_copy() for n >= 16: plain_copy_avx512() where the processor
 * has AVX-512, plain_copy_avx2() where it has AVX2 and n >= 32. */
static inline size_t
plain_copy_any(char *d, const char *s, size_t n, bool space)
{
#ifdef CD_AVX2
	if (cd__have_avx512)
		return plain_copy_avx512(d, s, n, space);
	if (n >= 32 && cd__have_avx2)
		return plain_copy_avx2(d, s, n, space);
#endif
	return plain_copy(d, s, n, space);
}
#endif

/*
 * Fold len bytes at s (trimmed: first and last bytes are not folded)
 * into d: every run of folded bytes becomes one space.  Runs with
 * nothing to fold but single spaces are checked and copied in one
 * pass, 64 bytes at a time (AVX-512), 64 or 32 (AVX2), 32 or 16 (SSE2),
 * or eight bytes at a time.  Returns the length written (at most len).
 */
size_t
cd__fold(char *d, const char *s, size_t len)
{
	size_t i = 0, k = 0;
	bool space = false;

	while (i < len) {
#ifdef __SSE2__
		size_t run = len - i >= 16 ? plain_copy_any(d + k, s + i,
		    len - i, space) : 0;

		if (run > 0) {
			k += run;
			i += run;
			space = s[i - 1] == ' ';
			continue;
		}
#endif
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		if (i + 8 <= len) {
			uint64_t w, sp;

			memcpy(&w, s + i, 8);
			/* any byte < 0x20, == 0x7f or == '}'? */
			if ((((w - CD__ONES * 0x20) & ~w & CD__HIGHS) |
			    cd__zero_bytes(w ^ (CD__ONES * 0x7f)) |
			    cd__zero_bytes(w ^ (CD__ONES * '}'))) == 0) {
				sp = cd__zero_bytes(w ^ (CD__ONES * ' '));
				if ((sp & (sp << 8)) == 0 &&
				    !(space && (sp & 0x80))) {
					memcpy(d + k, &w, 8);
					k += 8;
					i += 8;
					space = (w >> 56) == ' ';
					continue;
				}
			}
		}
#endif
		if (cd__fold_byte((unsigned char)s[i])) {
			if (!space)
				d[k++] = ' ';
			space = true;
		} else {
			d[k++] = s[i];
			space = false;
		}
		i++;
	}
	return k;
}

#ifdef __SSE2__
size_t
cd__fold_plain(char *d, const char *s, size_t n)
{
	return plain_copy_any(d, s, n, false);
}
#endif
