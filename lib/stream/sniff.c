/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sniff.c: what the start of an input looks like (chessdata/sniff.h):
 * binary data, PGN, EPD or other text, from its first lines.
 */
#include "config.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "common/internal.h"

/* A control byte that text does not hold: NUL, DEL and the others but
 * tab, LF, VT, FF, CR, SUB (the end of a file written under DOS) and
 * ESC (escapes of terminal colours turn up in logs). */
static bool
is_binary_byte(unsigned char c)
{
	return (c < 0x20 && (c < '\t' || c > '\r') && c != 0x1a &&
	    c != 0x1b) || c == 0x7f;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#include "common/cpu.h"

/*
 * cd__binary_byte() with AVX2 for n >= 64, sixty-four bytes a step: the
 * binary bytes are those of three rectangles of high by low nibble,
 * 0x0 by 0x0-0x8 and 0xe-0xf, 0x1 by 0x0-0x9 and 0xc-0xf, 0x7 by 0xf
 * (a bit each in the two tables, looked up with vpshufb); the first in
 * the 64 bytes is found with the vector test of cd__binary_byte.  The
 * last 64 overlap the ones before.  NULL: none.
 */
__attribute__((target("avx2"))) static const char *
binary_byte_avx2(const char *p, const char *e)
{
	const __m256i lo = _mm256_setr_epi8(3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 0,
	    0, 2, 2, 3, 7, 3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 0, 0, 2, 2, 3, 7);
	const __m256i hi = _mm256_setr_epi8(1, 2, 0, 0, 0, 0, 0, 4, 0, 0, 0,
	    0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0);
	const __m256i nib = _mm256_set1_epi8(0x0f);
	const char *q;
	__m256i v, v1, c;

	for (;;) {
		q = e - p >= 64 ? p : e - 64;
		v = _mm256_loadu_si256((const void *)q);
		v1 = _mm256_loadu_si256((const void *)(q + 32));
#define BIN32(x) _mm256_and_si256( \
		    _mm256_shuffle_epi8(lo, _mm256_and_si256((x), nib)), \
		    _mm256_shuffle_epi8(hi, _mm256_and_si256( \
		    _mm256_srli_epi16((x), 4), nib)))
		c = _mm256_or_si256(BIN32(v), BIN32(v1));
#undef BIN32
		if (!_mm256_testz_si256(c, c))
			return q;	/* (one of these 64: found below) */
		if ((p = q + 64) == e)
			return NULL;
	}
}
#endif

const char *
cd__binary_byte(const char *p, size_t n)
{
	const char *e = p + n;

#if defined(__x86_64__) && defined(__GNUC__)
	if (cd__have_avx2 && n >= 64) {
		if ((p = binary_byte_avx2(p, e)) == NULL)
			return NULL;
		if (e - p > 64)
			e = p + 64;
	}
#endif
#ifdef __SSE2__
	/* sixteen bytes at a time: below 0x20 and not 0x09-0x0d, 0x1a,
	 * 0x1b; or 0x7f (signed comparisons of bytes biased by 0x80) */
	const __m128i bias = _mm_set1_epi8((char)0x80);
	const __m128i lim = _mm_set1_epi8((char)(0x20 ^ 0x80));
	const __m128i ht = _mm_set1_epi8('\t');
	const __m128i five = _mm_set1_epi8((char)(5 ^ 0x80));
	const __m128i sub = _mm_set1_epi8(0x1a), esc = _mm_set1_epi8(0x1b);
	const __m128i del = _mm_set1_epi8(0x7f);

	for (; e - p >= 16; p += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		__m128i low = _mm_cmplt_epi8(_mm_xor_si128(v, bias), lim);
		__m128i ok = _mm_or_si128(_mm_cmplt_epi8(_mm_xor_si128(
		    _mm_sub_epi8(v, ht), bias), five), _mm_or_si128(
		    _mm_cmpeq_epi8(v, sub), _mm_cmpeq_epi8(v, esc)));
		int m = _mm_movemask_epi8(_mm_or_si128(_mm_andnot_si128(ok,
		    low), _mm_cmpeq_epi8(v, del)));

		if (m != 0)
			return p + __builtin_ctz((unsigned)m);
	}
#endif
	for (; p < e; p++)
		if (is_binary_byte((unsigned char)*p))
			return p;
	return NULL;
}

static bool
is_blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* A tag pair begins the line s (n bytes, leading blanks gone): `[`,
 * a name of letters, digits and `_`, blanks, `"`. */
static bool
is_tag_pair(const char *s, size_t n)
{
	size_t i = 1, name;

	if (n == 0 || s[0] != '[')
		return false;
	while (i < n && is_blank((unsigned char)s[i]))
		i++;
	name = i;
	while (i < n && (s[i] == '_' || (s[i] >= '0' && s[i] <= '9') ||
	    (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z')))
		i++;
	if (i == name)
		return false;
	while (i < n && is_blank((unsigned char)s[i]))
		i++;
	return i < n && s[i] == '"';
}

/* Movetext begins the line: a move number, one or three periods,
 * blanks, and the first letter of a move (a piece, a file, castling). */
static bool
is_movetext(const char *s, size_t n)
{
	size_t i = 0, dots = 0;

	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	if (i == 0 || i > 4)
		return false;
	while (i < n && s[i] == '.')
		i++, dots++;
	if (dots != 1 && dots != 3)
		return false;
	while (i < n && is_blank((unsigned char)s[i]))
		i++;
	return i < n && s[i] != '\0' &&
	    strchr("abcdefghKQRBNOP0", s[i]) != NULL;
}

/* The piece placement of EPD or FEN (eight ranks of pieces and digits
 * between seven slashes), blanks, and the side to move alone. */
static bool
is_epd(const char *s, size_t n)
{
	size_t i = 0, slashes = 0;

	for (; i < n && !is_blank((unsigned char)s[i]); i++) {
		if (s[i] == '/')
			slashes++;
		else if (s[i] == '\0' ||
		    strchr("pnbrqkPNBRQK12345678", s[i]) == NULL)
			return false;
	}
	if (slashes != 7 || i == n)
		return false;
	while (i < n && is_blank((unsigned char)s[i]))
		i++;
	return i < n && (s[i] == 'w' || s[i] == 'b') &&
	    (i + 1 == n || is_blank((unsigned char)s[i + 1]));
}

cd_sniff_kind
cd_sniff(const void *buf, size_t len)
{
	const char *p = buf, *end = p + len, *nl;
	size_t i, ctrl = 0;
	bool text = false;

	/* (a NUL byte or two in text is a damaged line, not binary) */
	for (i = 0; i < len; i++)
		ctrl += is_binary_byte((unsigned char)p[i]);
	if (ctrl > 0 && ctrl * 32 > len)
		return CD_SNIFF_BINARY;
	if (len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		p += 3;
	for (; p < end; p = nl + 1) {
		size_t n;

		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		if (*p == '#' || *p == '%')
			continue;
		while (p < nl && is_blank((unsigned char)*p))
			p++;
		if ((n = (size_t)(nl - p)) == 0)
			continue;
		if (is_tag_pair(p, n) || *p == '{' || is_movetext(p, n))
			return CD_SNIFF_PGN;
		if (is_epd(p, n))
			return CD_SNIFF_EPD;
		text = true;
	}
	return text ? CD_SNIFF_TEXT : CD_SNIFF_EMPTY;
}

const char *
cd_sniff_name(cd_sniff_kind k)
{
	switch (k) {
	case CD_SNIFF_EMPTY:
		return "empty";
	case CD_SNIFF_TEXT:
		return "text";
	case CD_SNIFF_PGN:
		return "PGN";
	case CD_SNIFF_EPD:
		return "EPD";
	case CD_SNIFF_BINARY:
		return "binary data";
	}
	return "?";
}

/* A tar header: "ustar" at 257 and the checksum at 148 (octal: the sum
 * of the header's bytes, the checksum field counted as spaces). */
static bool
is_tar(const uint8_t *p, size_t len)
{
	unsigned long sum = 0, want = 0;
	size_t i;

	if (len < 512 || memcmp(p + 257, "ustar", 5) != 0)
		return false;
	for (i = 148; i < 156 && p[i] == ' '; i++)
		;
	if (i == 156 || p[i] < '0' || p[i] > '7')
		return false;
	for (; i < 156 && p[i] >= '0' && p[i] <= '7'; i++)
		want = want * 8 + (unsigned long)(p[i] - '0');
	for (i = 0; i < 512; i++)
		sum += i >= 148 && i < 156 ? ' ' : p[i];
	return sum == want;
}

const char *
cd_sniff_format(const void *buf, size_t len)
{
	static const struct {
		const char *magic;
		size_t len;
		const char *name;
	} t[] = {
		{ "7z\xbc\xaf\x27\x1c", 6, "7-Zip archives" },
		{ "Rar!\x1a\x07", 6, "RAR archives" },
		{ "%PDF-", 5, "PDF documents" },
		{ "\x7f" "ELF", 4, "ELF executables" },
		{ "\xff\xd8\xff", 3, "JPEG images" },
		{ "\x89PNG\r\n\x1a\n", 8, "PNG images" },
		{ "GIF87a", 6, "GIF images" },
		{ "GIF89a", 6, "GIF images" }
	};
	const uint8_t *p = buf;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (len >= t[i].len && memcmp(p, t[i].magic, t[i].len) == 0)
			return t[i].name;
	return is_tar(p, len) ? "tar archives" : NULL;
}
