/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn/frame_tags.c: the framer's tag sections (pgn/frame.c frames the
 * rest): the tags of a game read into the reader's tags and arena as
 * the token lexer reads them (cd__scan_tag), the usual lines without
 * its general scan, and where a tag section ends: at its movetext, or
 * at the next game's tags when no movetext comes between.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pgn/lex.h"
#include "pgn/reader.h"

/*
 * A tag pair at p (a `[`) in its usual form: `[Name "value"]`, one
 * space between name and value, no backslash or line end in the
 * value.  1: read into *ts as cd__scan_tag reads it; 0: another form,
 * or more input may be needed (cd__scan_tag reads it then).  The token
 * lexer reads every tag with cd__scan_tag: check_pgn_lex compares the
 * two.
 */
static inline int
quick_tag(const char *p, const char *e, struct cd__tagscan *ts)
{
	const char *n = p + 1, *q, *i;

	if (n == e || !(CD__CLS(*n) & K_TAGNAME))
		return 0;
	q = cd__tag_name_end(n, e);
	if (e - q < 2 || memcmp(q, " \"", 2) != 0)
		return 0;
	i = cd__tag_value_stop(q + 2, e, 0);
	if (e - i < 2 || memcmp(i, "\"]", 2) != 0)
		return 0;
	ts->name = n;
	ts->name_len = (size_t)(q - n);
	ts->value = q + 2;
	ts->value_len = (size_t)(i - (q + 2));
	ts->escapes = 0;
	ts->next = i + 2;
	ts->lines = 0;
	ts->last_nl = NULL;
	return 1;
}

/* Copy n bytes from s (in the input, which ends at e) to d, which has
 * room for at least sixteen: a short stretch as one sixteen-byte move,
 * with no call, where sixteen bytes can be read. */
static inline void
copy_short(char *d, const char *s, size_t n, const char *e)
{
	if (n <= 16 && e - s >= 16)
		memcpy(d, s, 16);
	else
		memcpy(d, s, n);
}

/* Room for need more bytes in the arena of *alen bytes (its start and
 * capacity in *arena and *acap, kept in r too); 0, or -1 when out of
 * memory. */
static int
arena_grow(cd_pgn_reader *r, char **arena, size_t *acap, size_t alen,
    size_t need)
{
	size_t ncap = *acap ? *acap : 4096, i;
	uintptr_t old = (uintptr_t)*arena;
	char *na;

	while (ncap - alen < need)
		ncap *= 2;
	na = realloc(*arena, ncap);
	if (na == NULL)
		return -1;
	/* the tags so far point into the arena, which may have moved */
	for (i = 0; i < r->nrt; i++) {
		r->tags[i].name = na + ((uintptr_t)r->tags[i].name - old);
		r->tags[i].value = na + ((uintptr_t)r->tags[i].value - old);
	}
	r->arena = *arena = na;
	r->acap = *acap = ncap;
	r->memo_n = 0;	/* (the section before: its tags not moved) */
	return 0;
}

/* Room in r's tags for at least one more: 0, or -1 when out of
 * memory. */
static int
tags_grow(cd_pgn_reader *r)
{
	size_t ncap = r->tagcap ? 2 * r->tagcap : 32;
	cd_pgn_tag *nt = realloc(r->tags, ncap * sizeof(*nt));

	if (nt == NULL)
		return -1;
	r->tags = nt;
	r->tagcap = ncap;
	return 0;
}

/* A name of nl and a value of vl bytes, both shorter than sixteen and
 * with sixteen bytes readable at each, to d in the arena, each with a
 * NUL (sixteen bytes of each copied at once). */
static inline void
arena_put16(char *d, const char *n, size_t nl, const char *v, size_t vl)
{
	memcpy(d, n, 16);
	d[nl] = '\0';
	memcpy(d + nl + 1, v, 16);
	d[nl + 1 + vl] = '\0';
}

/* Copy a tag's name and its value (unescaped) to d in the arena (room
 * for both, their NULs and sixteen bytes more), each with a NUL (e: the
 * end of the input); the value's length. */
static inline size_t
arena_put(char *d, const struct cd__tagscan *ts, const char *e)
{
	size_t nl = ts->name_len, vl = ts->value_len;

	if ((nl | vl) < 16 && e - ts->value >= 16 && !ts->escapes) {
		/* the usual (the value comes after the name) */
		arena_put16(d, ts->name, nl, ts->value, vl);
		return vl;
	}
	copy_short(d, ts->name, nl, e);
	d[nl] = '\0';
	if (ts->escapes)
		vl = cd__unescape(ts->value, vl, 1, d + nl + 1);
	else
		copy_short(d + nl + 1, ts->value, vl, e);
	d[nl + 1 + vl] = '\0';
	return vl;
}

/* Whether the tag section so far has a tag named name. */
static int
has_tag(const cd_pgn_reader *r, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < r->nrt; i++)
		if (r->tags[i].name_len == len &&
		    memcmp(r->tags[i].name, name, len) == 0)
			return 1;
	return 0;
}

/* The first byte of the sixteen at p that ends a tag name (as
 * cd__tag_name_end) and of the sixteen at v that stops a value (as
 * cd__tag_value_stop, backslash too, and every control byte and DEL:
 * the values read here are plain, cd__raw_tags_note); 16 for none. */
static inline unsigned
name_end16(const char *p)
{
#ifdef __SSE2__
	__m128i v = _mm_loadu_si128((const void *)p);
	unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
	    cd__le8(v, 0x20),
	    _mm_or_si128(_mm_or_si128(cd__eq8(v, '"'), cd__eq8(v, '[')),
	    _mm_or_si128(cd__eq8(v, ']'), cd__eq8(v, 0x7f)))));

	return m != 0 ? (unsigned)__builtin_ctz(m) : 16;
#else
	return (unsigned)(cd__tag_name_end(p, p + 16) - p);
#endif
}

static inline unsigned
value_stop16(const char *p)
{
#ifdef __SSE2__
	__m128i v = _mm_loadu_si128((const void *)p);
	unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
	    _mm_or_si128(cd__eq8(v, '"'), cd__le8(v, 0x1f)),
	    _mm_or_si128(cd__eq8(v, '\\'), cd__eq8(v, 0x7f))));

	return m != 0 ? (unsigned)__builtin_ctz(m) : 16;
#else
	unsigned k;

	for (k = 0; k < 16; k++)
		if (p[k] == '"' || p[k] == '\\' ||
		    (unsigned char)p[k] < 0x20 || p[k] == 0x7f)
			break;
	return k;
#endif
}

#ifdef CD_AVX2
/*
 * The classes of a byte for tag_masks64, from two tables of four-bit
 * nibbles (vpshufb), as classes_by (pgn/frame.c) finds movetext's: each
 * class is a rectangle of high by low nibble, a bit each: 1, the
 * control bytes (0x0, 0x1 by any); 2, the space (0x2 by 0x0); 4, `"`
 * (0x2 by 0x2); 8, `[` and `]` (0x5 by 0xb, 0xd); 16, `\` (0x5 by
 * 0xc); 32, DEL (0x7 by 0xf).  A byte of 0x80 or more has none (the
 * low table's vpshufb makes it 0), as none of them ends a name or
 * stops a value.  A name ends at one of 1, 2, 4, 8, 32 (TAG_NAME_END),
 * a value stops at one of 1, 4, 16, 32 (TAG_VALUE_STOP).
 */
#define TAG_LO _mm256_setr_epi8(3, 1, 5, 1, 1, 1, 1, 1, 1, 1, 1, 9, 17, \
	9, 1, 33, 3, 1, 5, 1, 1, 1, 1, 1, 1, 1, 1, 9, 17, 9, 1, 33)
#define TAG_HI _mm256_setr_epi8(1, 1, 6, 0, 0, 24, 0, 32, 0, 0, 0, 0, 0, \
	0, 0, 0, 1, 1, 6, 0, 0, 24, 0, 32, 0, 0, 0, 0, 0, 0, 0, 0)
#define TAG_NAME_END 0x2f
#define TAG_VALUE_STOP 0x35

/* The tables and constants of tag_masks64, each in every lane of a
 * vector. */
struct tagbytes32 {
	__m256i lo, hi, nib, name, value, top;
};

/* Fill *k, for a loop that keeps it in registers (the compiler would
 * make each vector again at each use, in the loop). */
__attribute__((target("avx2,bmi,bmi2"))) static inline void
tagbytes32_init(struct tagbytes32 *k)
{
	__m256i lo = TAG_LO, hi = TAG_HI, nib = _mm256_set1_epi8(0x0f);
	__m256i name = _mm256_set1_epi8(TAG_NAME_END);
	__m256i value = _mm256_set1_epi8(TAG_VALUE_STOP);
	__m256i top = _mm256_set1_epi8(0x7f);

	__asm__("" : "+x"(lo), "+x"(hi), "+x"(nib), "+x"(name),
	    "+x"(value), "+x"(top));
	*k = (struct tagbytes32){ lo, hi, nib, name, value, top };
}

/*
 * The masks of the 64 bytes at b: in *nm a bit for each byte that ends
 * a tag name (as name_end16), in *vm one for each that stops a value
 * (as value_stop16: `"`, a control byte, DEL, `\`): from the bytes'
 * classes (TAG_LO, TAG_HI), those of a kind added to 0x7f, which sets
 * the top bit of the sum for any of them.  Bytes at e and after (fewer
 * than 64 at b) are read as NULs, which end both.
 */
__attribute__((target("avx2,bmi,bmi2"))) static inline void
tag_masks64(const char *b, const char *e, const struct tagbytes32 *k,
    uint64_t *nm, uint64_t *vm)
{
	char pad[64];
	uint64_t name = 0, value = 0;
	int h;

	if (e - b < 64) {
		memset(pad, 0, sizeof(pad));
		memcpy(pad, b, (size_t)(e - b));
		b = pad;
	}
	for (h = 0; h < 2; h++) {
		__m256i v = _mm256_loadu_si256((const void *)(b + 32 * h));
		__m256i c = _mm256_and_si256(_mm256_shuffle_epi8(k->lo, v),
		    _mm256_shuffle_epi8(k->hi, _mm256_and_si256(
		    _mm256_srli_epi16(v, 4), k->nib)));
		__m256i n = _mm256_add_epi8(_mm256_and_si256(c, k->name),
		    k->top);
		__m256i s = _mm256_add_epi8(_mm256_and_si256(c, k->value),
		    k->top);

		name |= (uint64_t)(uint32_t)_mm256_movemask_epi8(n) << 32 * h;
		value |= (uint64_t)(uint32_t)_mm256_movemask_epi8(s) << 32 * h;
	}
	*nm = name;
	*vm = value;
}

#define TAG_AVX512 "avx512f,avx512bw,avx512vl,avx2,bmi,bmi2,popcnt"

/* tagbytes32 for AVX-512: the tables in each lane of 64 bytes (no 0x7f:
 * the masks come from vptestmb). */
struct tagbytes64 {
	__m512i lo, hi, nib, name, value;
};

__attribute__((target(TAG_AVX512))) static inline void
tagbytes64_init(struct tagbytes64 *k)
{
	__m512i lo = _mm512_broadcast_i64x4(TAG_LO);
	__m512i hi = _mm512_broadcast_i64x4(TAG_HI);
	__m512i nib = _mm512_set1_epi8(0x0f);
	__m512i name = _mm512_set1_epi8(TAG_NAME_END);
	__m512i value = _mm512_set1_epi8(TAG_VALUE_STOP);

	__asm__("" : "+v"(lo), "+v"(hi), "+v"(nib), "+v"(name),
	    "+v"(value));
	*k = (struct tagbytes64){ lo, hi, nib, name, value };
}

/* tag_masks64() by AVX-512: the 64 bytes in one register (those at e
 * and after loaded as NULs, by a masked load), their classes' bits
 * tested into the masks at once. */
__attribute__((target(TAG_AVX512))) static inline void
tag_masks512(const char *b, const char *e, const struct tagbytes64 *k,
    uint64_t *nm, uint64_t *vm)
{
	__m512i v, c;
	uint64_t name, value;

	if (e - b < 64)
		v = _mm512_maskz_loadu_epi8(_bzhi_u64(~0ULL,
		    (unsigned)(e - b)), (const void *)b);
	else
		v = _mm512_loadu_si512((const void *)b);
	c = _mm512_and_si512(_mm512_shuffle_epi8(k->lo, v),
	    _mm512_shuffle_epi8(k->hi, _mm512_and_si512(
	    _mm512_srli_epi16(v, 4), k->nib)));
	name = _cvtmask64_u64(_mm512_test_epi8_mask(c, k->name));
	value = _cvtmask64_u64(_mm512_test_epi8_mask(c, k->value));
	/* (in general registers: the loop shifts and counts them at each
	 * line, which a mask register would move out for each time) */
	__asm__("" : "+r"(name), "+r"(value));
	*nm = name;
	*vm = value;
}
#endif

/* How the tag loop finds a line's name and value: sixteen bytes at a
 * time by SSE2, or in the masks of a window of 64 bytes by AVX2 or
 * AVX-512. */
enum tag_simd {
	SIMD_SSE2,
	SIMD_AVX2,
	SIMD_AVX512
};

/* The first byte that stops the value at v (value_stop16) from its
 * vl-th on, sixteen at a time: its place in the value, 128 or more for
 * none before its 128th byte (which reads up to v + 143). */
static inline size_t
value_from(const char *v, size_t vl)
{
	unsigned k;

	for (; vl < 128; vl += 16)
		if ((k = value_stop16(v + vl)) < 16)
			return vl + k;
	return vl;
}

/* Whether the two bytes at p are a and b: one load of both and one
 * compare, where the byte order allows. */
static inline bool
two(const char *p, char a, char b)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint16_t x;

	memcpy(&x, p, 2);
	return x == (uint16_t)((unsigned char)a | (unsigned char)b << 8);
#else
	return p[0] == a && p[1] == b;
#endif
}

#ifdef CD_AVX2
/* same_prefix() thirty-two bytes at a time. */
__attribute__((target("avx2,bmi,bmi2"))) static inline size_t
same_prefix32(const char *a, const char *b, size_t n)
{
	size_t i;
	unsigned m;

	for (i = 0; i < n; i += 32) {
		m = ~(unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(
		    _mm256_loadu_si256((const void *)(a + i)),
		    _mm256_loadu_si256((const void *)(b + i))));
		if (m != 0)
			return i + (size_t)__builtin_ctz(m) < n ?
			    i + (size_t)__builtin_ctz(m) : n;
	}
	return n;
}
#endif

/* How many bytes a and b begin with alike, up to n (reading up to 31
 * bytes past n in each). */
static inline size_t
same_prefix(const char *a, const char *b, size_t n, bool avx2)
{
	size_t i;

#ifdef CD_AVX2
	if (avx2)
		return same_prefix32(a, b, n);
#else
	(void)avx2;
#endif
#ifdef __SSE2__
	for (i = 0; i < n; i += 16) {
		unsigned m = ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
		    _mm_loadu_si128((const void *)(a + i)),
		    _mm_loadu_si128((const void *)(b + i)))) & 0xffff;

		if (m != 0)
			return i + (size_t)__builtin_ctz(m) < n ?
			    i + (size_t)__builtin_ctz(m) : n;
	}
	return n;
#else
	for (i = 0; i < n && a[i] == b[i]; i++)
		;
	return i;
#endif
}

/*
 * How many bytes the section at p (its first line's `[`, none of it
 * read) begins with alike with the last one tag_run read from its first
 * line (r->memo_*), up to memo_len; 0 when that one is no longer in the
 * buffer, or fewer than memo_len + 256 bytes of input follow p.
 */
static inline size_t
memo_prefix(const cd_pgn_reader *r, const char *p, const char *e,
    bool avx2)
{
	const char *m;

	if (r->memo_off < r->base)
		return 0;	/* (no longer in the buffer) */
	m = r->data + (r->memo_off - r->base);
	if (m > p || (size_t)(e - p) < r->memo_len + 256)
		return 0;
	return same_prefix(p, m, r->memo_len, avx2);
}

/* The first k of the memo's tags as a section's from line lb on (one
 * a line): their lines set; the bytes they take in the arena. */
static inline size_t
memo_tags(cd_pgn_reader *r, size_t k, unsigned long lb)
{
	cd_pgn_tag *tags = r->tags;
	size_t i;

	for (i = 0; i < k; i++)
		tags[i].line = lb + i;
	return (size_t)(tags[k - 1].value + tags[k - 1].value_len + 1 -
	    r->arena);
}

/*
 * The tags of a section at p (its first line's `[`, none of it read)
 * that begins as the last one tag_run read from its first line
 * (r->memo_*): those whose lines are the same bytes, each with the `[`
 * after it, are the same tags, left as they are in tags and arena
 * (nothing else wrote there since, or memo_n is 0) with their lines
 * set (the line of the one at index i is lb + i).  The loop would read
 * them again to the same (what it reads of a line is decided by its
 * bytes up to the next line's `[`, and by the input's end, which is 256
 * bytes past the section's, and the room in tags and arena, which the
 * section had): *nrt of them, *alen their bytes in the arena.  Returns
 * where the loop goes on (the line after the last, or p), or NULL when
 * the whole section is the one before and its run stopped after a tag
 * (then where it stopped is in *stop).
 */
static inline const char *
section_again(cd_pgn_reader *r, const char *p, const char *e,
    unsigned long lb, size_t *nrt, size_t *alen, const char **stop,
    bool avx2)
{
	cd_pgn_tag *tags = r->tags;
	const char *q = p, *end;
	size_t ml = r->memo_len, same, k = 0;

	if ((same = memo_prefix(r, p, e, avx2)) == 0)
		return p;	/* (not alike, or not compared: the tags'
				 * lengths below would reach past the input) */
	if (same == ml) {
		r->memo_again = true;
		k = r->memo_n;
		q = p + r->memo_stop;
	} else {
		/* (the tags before the last, whose next lines began with
		 * `[`: as many as are alike through that `[`) */
		for (; k + 1 < r->memo_n; k++) {
			end = q + tags[k].name_len + tags[k].value_len + 5;
			end += 1 + (*end == '\r');
			if ((size_t)(end - p) >= same)
				break;
			q = end;
		}
		if (k == 0)
			return p;
	}
	*nrt = k;
	*alen = memo_tags(r, k, lb);
	if (same == ml && r->memo_after) {
		*stop = q;
		return NULL;
	}
	return q;
}

/* A tag's line and column (column one) for the tag loop: the next
 * tag's, stored with one move and the line counted on, where the two
 * are 64 bits each and SSE2 is there. */
#if defined(__SSE2__) && __SIZEOF_LONG__ == 8
struct line_col {
	__m128i v, one;
};

static inline void
line_col_init(struct line_col *lc, unsigned long line)
{
	lc->v = _mm_set_epi64x(1, (long long)line);
	lc->one = _mm_set_epi64x(0, 1);
}

static inline void
put_line(cd_pgn_tag *tg, struct line_col *lc)
{
	_mm_storeu_si128((void *)&tg->line, lc->v);
	lc->v = _mm_add_epi64(lc->v, lc->one);
}
#else
struct line_col {
	unsigned long line;
};

static inline void
line_col_init(struct line_col *lc, unsigned long line)
{
	lc->line = line;
}

static inline void
put_line(cd_pgn_tag *tg, struct line_col *lc)
{
	tg->line = lc->line++;
	tg->col = 1;
}
#endif

/* The tag loop's tag at tg: a name of nl bytes at d in the arena, its
 * NUL, a value of vl bytes; its line and column from lc. */
static inline void
put_tag(cd_pgn_tag *tg, char *d, size_t nl, size_t vl,
    struct line_col *lc)
{
	tg->name = d;
	tg->name_len = nl;
	tg->value = d + nl + 1;
	tg->value_len = vl;
	put_line(tg, lc);
}

#ifdef CD_AVX2
/* The masks of the window at b in the tag loop (tag_lines). */
#define TAG_WINDOW(b) (simd == SIMD_AVX512 ? \
	tag_masks512((b), e, &k64, &nm, &vm) : \
	tag_masks64((b), e, &k32, &nm, &vm))
#endif

/*
 * The usual tag lines of a tag section, read without the general
 * scan's state: from p, a `[` that starts a line and a tag (*lines line
 * ends of the game before it), tags `[Name "value"]` (a name shorter
 * than sixteen bytes, a value than 128, no backslash, control byte or
 * DEL) each at the start of a line, the line before ending
 * right after the `]` before it with LF or CR LF.  Each is added to r's
 * tags and arena (column one).  Returns where it stopped, *lines the
 * line ends before it: *after 0, at the start of a line whose `[` it
 * did not read (from there on as cd__frame_tagged reads it); *after 1, right
 * after the `]` of the last tag it read, when the next line does not
 * follow at once or holds no `[`.  After the last tag it read (if any):
 * *last_end, and in *end_lines and *end_line the line ends before it
 * and the start of its line.
 */
static inline __attribute__((always_inline)) const char *
tag_lines(cd_pgn_reader *r, const char *p, const char *e,
    unsigned long *lines, int *after, const char **last_end,
    unsigned long *end_lines, const char **end_line, enum tag_simd simd)
{
	cd_pgn_tag *tags, *tg, *tend;
	char *arena, *d, *dlim;
	size_t nrt = r->nrt, nrt0 = nrt, alen = r->alen, alim;
	size_t room = 0, rt, ra;
	/* (the line of the tag at index i is lb + i: one a line; ln the
	 * next tag's) */
	unsigned long lb = r->line + *lines - nrt0;
	struct line_col lc;
	const char *n, *v, *s0, *stop = NULL;
	size_t nl, vl, k;
#ifdef CD_AVX2
	struct tagbytes32 k32;
	struct tagbytes64 k64;
	/* the window: the masks of the 64 bytes at wb (tag_masks64; 0:
	 * none yet) */
	uint64_t nm = 0, vm = 0;
	uintptr_t wb = 0;
#endif

	/* room for the usual section at once, the first time too (out of
	 * memory, the loop reads what there is room for, and the general
	 * scan fails) */
	if (nrt + 16 > r->tagcap)
		(void)tags_grow(r);
	if (r->acap - alen < 2048)
		(void)arena_grow(r, &r->arena, &r->acap, alen, 2048);
	tags = r->tags;
	tend = tags + r->tagcap;
	arena = r->arena;
	/* the arena has room for the longest tag read here (a name of 15
	 * bytes, its NUL, a value of 127 copied as 128, sixteen bytes of
	 * slack) while alen < alim */
	alim = r->acap > 162 ? r->acap - 162 : 0;
	*after = 0;
	s0 = p;
	if (nrt0 == 0 && r->memo_n > 0 &&
	    (p = section_again(r, s0, e, lb, &nrt, &alen, &stop,
	    simd != SIMD_SSE2)) ==
	    NULL) {
		p = stop;
		*after = 1;
		goto done;
	}
	/* (the loop keeps the next tag, its place in the arena and its line
	 * and column as tg, d and lc) */
	tg = tags + nrt;
	d = arena + alen;
	dlim = arena + alim;
	line_col_init(&lc, lb + nrt);
#ifdef CD_AVX2
	/* (the constants only for the loop: not when the section is the
	 * one before) */
	if (simd == SIMD_AVX2)
		tagbytes32_init(&k32);
	else if (simd == SIMD_AVX512)
		tagbytes64_init(&k64);
#endif
	/* (48 bytes hold the line: a name and a value of at most fifteen,
	 * and what follows them up to the next line's name; 176 with a
	 * value of up to 127) */
	for (;;) {
		/* the loop's limits (48 bytes of input at the line, room in
		 * the tags and the arena) tested for the next room lines at
		 * once: a line takes at most 149 bytes of input and 144 of
		 * the arena, each bound here by 256 */
		if (room == 0) {
			if (e - p < 48 || tg >= tend || d >= dlim)
				break;
			room = (size_t)(e - p - 48) / 256 + 1;
			rt = (size_t)(tend - tg);
			ra = (size_t)(dlim - d - 1) / 256 + 1;
			if (rt < room)
				room = rt;
			if (ra < room)
				room = ra;
		}
		room--;
		/* (a byte that may be in a name is one that does not end
		 * it, K_TAGNAME: a length of 0 is no name) */
		n = p + 1;
#ifdef CD_AVX2
		if (simd != SIMD_SSE2) {
			/* (the name's first sixteen bytes in the window's
			 * masks, else the window moved to the line: off at
			 * most 47; the value's stop in them, else the window
			 * moved to the value, and on by 64 bytes if it holds
			 * none: the next lines read from there) */
			size_t on = (uintptr_t)n - wb, vs;
			uint64_t y;

			/* (on: the name's place in the window) */
			y = on < 64 ? nm >> on : 0;
			if (y == 0) {
				TAG_WINDOW(p);
				wb = (uintptr_t)p;
				on = 1;
				/* (no name's end in the window: longer than
				 * fifteen bytes) */
				if ((y = nm >> 1) == 0)
					break;
			}
			nl = (size_t)__builtin_ctzll(y);
			if (nl - 1 >= 15 || !two(n + nl, ' ', '"'))
				break;
			v = n + nl + 2;
			vs = on + nl + 2;
			y = vs < 64 ? vm >> vs : 0;
			if (y != 0) {
				vl = (size_t)__builtin_ctzll(y);
			} else {
				TAG_WINDOW(v);
				wb = (uintptr_t)v;
				vl = 0;
				if (vm == 0) {
					/* (64 bytes of value: the input
					 * holds 64 more, NULs past its end
					 * stop it) */
					TAG_WINDOW(v + 64);
					wb = (uintptr_t)v + 64;
					vl = 64;
				}
				vl += vm != 0 ? (size_t)__builtin_ctzll(vm) :
				    64;
			}
		} else
#endif
		{
			nl = name_end16(n);
			if (nl - 1 >= 15 || !two(n + nl, ' ', '"'))
				break;
			v = n + nl + 2;
			vl = value_stop16(v);
			if (vl == 16) {
				/* a longer value (a URL, a FEN): up to 127
				 * bytes, sixteen at a time */
				if (e - p < 176 || (vl = value_from(v, 16)) >=
				    128)
					break;
			}
		}
		if (vl < 16) {
			if (!two(v + vl, '"', ']'))
				break;
			put_tag(tg, d, nl, vl, &lc);
			arena_put16(d, n, nl, v, vl);
		} else {
			/* (with a window, a value of sixteen bytes or more only
			 * with 176 bytes of input at its line, as value_from
			 * reads it) */
			if ((simd != SIMD_SSE2 && (e - p < 176 ||
			    vl >= 128)) ||
			    !two(v + vl, '"', ']'))
				break;
			put_tag(tg, d, nl, vl, &lc);
			memcpy(d, n, 16);
			d[nl] = '\0';
			for (k = 0; k <= vl; k += 16)
				memcpy(d + nl + 1 + k, v + k, 16);
			d[nl + 1 + vl] = '\0';
		}
		tg++;
		d += nl + vl + 2;
		/* (LF `[` tested first: the next line's start then does
		 * not wait for a load of the byte after the tag) */
		p = v + vl + 2;
		if (two(p, '\n', '[')) {
			p++;
		} else if (*p == '\r' && two(p + 1, '\n', '[')) {
			p += 2;
		} else {
			*after = 1;
			break;
		}
	}
	nrt = (size_t)(tg - tags);
	alen = (size_t)(d - arena);
done:
	r->nrt = nrt;
	r->alen = alen;
	*lines = lb + nrt - (unsigned long)*after - r->line;
	if (nrt > nrt0) {
		/* (the last tag's line: the tag ends nl + vl + 5 bytes
		 * after its start, right before p, or before the LF or
		 * CR LF before p) */
		tg = &tags[nrt - 1];
		*end_lines = tg->line - r->line;
		*last_end = *after ? p : p - 1 - (p[-2] == '\r');
		*end_line = *last_end - (tg->name_len + tg->value_len + 5);
	}
	if (nrt0 == 0) {
		/* (the section for the next: its tags' lines read through
		 * the `[` after the last, or the bytes after it that the
		 * loop looked at, at most three) */
		r->memo_off = r->base + (uint64_t)(s0 - r->data);
		r->memo_n = nrt;
		r->memo_stop = (size_t)(p - s0);
		r->memo_after = *after;
		r->memo_len = r->memo_stop + (*after ? 3 : 1);
	}
	return p;
}

static __attribute__((noinline)) const char *
tag_run_sse2(cd_pgn_reader *r, const char *p, const char *e,
    unsigned long *lines, int *after, const char **last_end,
    unsigned long *end_lines, const char **end_line)
{
	return tag_lines(r, p, e, lines, after, last_end, end_lines,
	    end_line, SIMD_SSE2);
}

#ifdef CD_AVX2
/* tag_lines() with the names and values found in the masks of a window
 * of 64 bytes (tag_masks64), taken again at a line whose name's end it
 * does not hold, and at a value whose stop it does not hold. */
__attribute__((target("avx2,bmi,bmi2"), flatten, noinline)) static const char *
tag_run_avx2(cd_pgn_reader *r, const char *p, const char *e,
    unsigned long *lines, int *after, const char **last_end,
    unsigned long *end_lines, const char **end_line)
{
	return tag_lines(r, p, e, lines, after, last_end, end_lines,
	    end_line, SIMD_AVX2);
}

/* tag_lines() with the window's masks by AVX-512. */
__attribute__((target(TAG_AVX512), flatten, noinline)) static const char *
tag_run_avx512(cd_pgn_reader *r, const char *p, const char *e,
    unsigned long *lines, int *after, const char **last_end,
    unsigned long *end_lines, const char **end_line)
{
	return tag_lines(r, p, e, lines, after, last_end, end_lines,
	    end_line, SIMD_AVX512);
}
#endif

/* The usual tag lines from p (tag_lines), by AVX-512 or AVX2 where the
 * processor has it. */
static inline const char *
tag_run(cd_pgn_reader *r, const char *p, const char *e,
    unsigned long *lines, int *after, const char **last_end,
    unsigned long *end_lines, const char **end_line)
{
#ifdef CD_AVX2
	if (cd__have_avx512)
		return tag_run_avx512(r, p, e, lines, after, last_end,
		    end_lines, end_line);
	if (cd__have_avx2)
		return tag_run_avx2(r, p, e, lines, after, last_end,
		    end_lines, end_line);
#endif
	return tag_run_sse2(r, p, e, lines, after, last_end, end_lines,
	    end_line);
}

/* Where the framer stands in a tag section. */
struct section {
	const char *ls;		/* the start of p's line (NULL: unknown) */
	const char *line;	/* the same, when that is in the game */
	unsigned long lines;	/* line ends before p */
	const char *last_tag_end;	/* after the last tag read */
	const char *end_line;	/* line and lines at last_tag_end */
	unsigned long end_lines;
	int newlines;		/* line ends since the last tag */
	int blank;		/* only blanks before p on its line */
};

/*
 * A game's tag section at p, the start of the game and of its first
 * line, that is the same bytes as the last one tag_run read from its
 * first line (memo_n > 0), whose run stopped after a tag (memo_after):
 * its tags are that one's (section_again), their lines set, and *sc as
 * tag_run leaves it after them.  Returns where the run would stop
 * (after the last tag), or NULL when the section is not all alike
 * (nothing changed).
 */
static inline __attribute__((always_inline)) const char *
section_whole(cd_pgn_reader *r, const char *p, const char *e,
    struct section *sc, bool avx2)
{
	size_t n = r->memo_n;
	const cd_pgn_tag *tg;
	const char *q;

	if (n == 0 || !r->memo_after || memo_prefix(r, p, e, avx2) !=
	    r->memo_len)
		return NULL;
	r->nrt = n;
	r->alen = memo_tags(r, n, r->line);
	tg = &r->tags[n - 1];
	q = p + r->memo_stop;
	r->memo_off = r->base + (uint64_t)(p - r->data);
	sc->lines = sc->end_lines = n - 1;
	sc->last_tag_end = q;
	sc->ls = sc->line = sc->end_line = q - (tg->name_len +
	    tg->value_len + 5);
	return q;
}

static __attribute__((noinline)) const char *
section_whole_sse2(cd_pgn_reader *r, const char *p, const char *e,
    struct section *sc)
{
	return section_whole(r, p, e, sc, false);
}

#ifdef CD_AVX2
__attribute__((target("avx2,bmi,bmi2"), noinline)) static const char *
section_whole_avx2(cd_pgn_reader *r, const char *p, const char *e,
    struct section *sc)
{
	return section_whole(r, p, e, sc, true);
}
#endif

/*
 * section_whole() by AVX2 where the processor has it, for a section
 * after one that was all the section before it (r->memo_again: set by
 * section_again, kept while section_whole finds one so, cleared when
 * not).  An input of sections unlike pays one test a section.
 */
static inline const char *
section_whole_run(cd_pgn_reader *r, const char *p, const char *e,
    struct section *sc)
{
	const char *q;

#ifdef CD_AVX2
	if (cd__have_avx2)
		q = section_whole_avx2(r, p, e, sc);
	else
#endif
		q = section_whole_sse2(r, p, e, sc);
	if (q == NULL)
		r->memo_again = false;
	return q;
}

/* The game that starts at s is its tag section, which no movetext
 * follows: its bytes up to end. */
static int
tags_only(cd_pgn_reader *r, const char *s, const char *end,
    const struct section *sc)
{
	r->g_result = CD_PGN_RESULT_NONE;
	r->g_flags |= CD_PGN_RAW_NO_RESULT;
	r->g_len = (size_t)(end - s);
	r->g_mt = r->g_mt_end = (size_t)(sc->last_tag_end - s);
	cd__frame_place(r, s, sc->last_tag_end, sc->end_lines, sc->end_line,
	    &r->g_mt_line, &r->g_mt_col);
	return S_GAME;
}

/* The tag tq read at p added to r's tags and arena: 0, or S_NOMEM. */
static int
store_tag(cd_pgn_reader *r, const char *s, const char *p,
    const struct cd__tagscan *tq, struct section *sc)
{
	size_t need = tq->name_len + tq->value_len + 2 + 16;
	cd_pgn_tag *tg;

	if (r->nrt == r->tagcap && tags_grow(r) != 0)
		return S_NOMEM;
	if (r->acap - r->alen < need && arena_grow(r, &r->arena, &r->acap,
	    r->alen, need) != 0)
		return S_NOMEM;
	r->g_plain = false;
	r->memo_n = 0;	/* (the tags of the section before overwritten) */
	tg = &r->tags[r->nrt++];
	tg->name = r->arena + r->alen;
	tg->name_len = tq->name_len;
	tg->value = r->arena + r->alen + tq->name_len + 1;
	tg->value_len = arena_put(r->arena + r->alen, tq, r->data + r->end);
	r->alen += tq->name_len + tg->value_len + 2;
	cd__frame_place(r, s, p, sc->lines, sc->line, &tg->line, &tg->col);
	if (tq->last_nl != NULL) {
		sc->lines += tq->lines;
		sc->line = tq->last_nl + 1;
	}
	return 0;
}

/* The usual after a tag (*pp right after it): the next tag at the start
 * of the next line (cd__frame_tag_start is true for it), after a LF or
 * a CR LF, and the lines of such tags after it at once (tag_run).  1:
 * *pp at the start of the line after its last tag (a `[` that may not
 * start a tag); 0: *pp after the last tag it read (if any), on its
 * line. */
static int
next_tag_lines(cd_pgn_reader *r, const char **pp, struct section *sc)
{
	const char *p = *pp, *e = r->data + r->end;
	const char *n = p + (p < e && *p == '\r');
	int after;

	if (e - n >= 3 && n[0] == '\n' && n[1] == '[' &&
	    (CD__CLS(n[2]) & K_TAGNAME)) {
		sc->lines++;
		*pp = tag_run(r, n + 1, e, &sc->lines, &after,
		    &sc->last_tag_end, &sc->end_lines, &sc->end_line);
		if (!after) {
			sc->newlines = 1;
			sc->ls = sc->line = *pp;
			sc->blank = 1;
			return 1;
		}
		sc->ls = sc->line = sc->end_line;
	}
	return 0;
}

/* Blanks, blank lines and escape lines after a tag (*pp), up to what
 * follows: -1 (*pp there), S_MORE, or S_GAME (the input ends: a game
 * of tags only). */
static int
after_tags(cd_pgn_reader *r, const char *s, const char **pp,
    struct section *sc)
{
	const char *p = *pp, *e = r->data + r->end, *q;

	sc->newlines = 0;
	sc->blank = 0;
	/* (the usual blank line after the last tag at once, as the loop
	 * takes it: two line ends) */
	if (e - p >= 4 && (two(p, '\n', '\n') || (two(p, '\r', '\n') &&
	    two(p + 2, '\r', '\n')))) {
		p += *p == '\n' ? 2 : 4;
		sc->newlines = 2;
		sc->lines += 2;
		sc->ls = sc->line = p;
		sc->blank = 1;
	}
	for (;;) {
		if (p == e) {
			if (!r->eof)
				return S_MORE;
			return tags_only(r, s, e, sc);
		}
		if (*p == '\n') {
			sc->newlines++;
			sc->lines++;
			p++;
			sc->ls = sc->line = p;
			sc->blank = 1;
			continue;
		}
		if (CD__IS_WS(*p)) {
			p++;
			continue;
		}
		if (*p == '%' && p == sc->ls) {
			q = cd__frame_line_end(p, e, r->eof);
			if (q == NULL)
				return S_MORE;
			p = q;
			sc->newlines = 0;
			r->g_bare = false;
			continue;
		}
		break;
	}
	*pp = p;
	return -1;
}

/* A game that starts with a tag section at p (a `[`); s is its start. */
int
cd__frame_tagged(cd_pgn_reader *r, const char *s, const char *p)
{
	const char *e = r->data + r->end, *q;
	int eof = r->eof, after, t;
	struct section sc = {
		.ls = r->bol ? s : NULL, .last_tag_end = p, .blank = 1
	};
	/* the tag read (ts: read by cd__scan_tag, then copied into tq, which
	 * stays out of memory) */
	struct cd__tagscan ts, tq;

	r->nrt = 0;
	r->alen = 0;
	r->g_plain = true;
	r->g_bare = true;
	r->g_flags = 0;
	r->g_counted = 0;
	r->g_clean = 0;
	if (p == sc.ls) {
		/* the usual section from its first line on (its bytes hold
		 * no binary byte: tag_run reads each, or read them in the
		 * section before) */
		if (r->memo_again && (q = section_whole_run(r, p, e,
		    &sc)) != NULL) {
			r->g_clean = (size_t)(q - s);
			p = q;
			goto tags_end;
		}
		p = tag_run(r, p, e, &sc.lines, &after, &sc.last_tag_end,
		    &sc.end_lines, &sc.end_line);
		r->g_clean = (size_t)(p - s);
		if (after) {
			sc.ls = sc.line = sc.end_line;
			goto tags_end;	/* (after a tag, as below) */
		}
		if (r->nrt > 0) {
			sc.newlines = 1;
			sc.ls = sc.line = p;
			goto line_start;	/* (a `[` to look at, as below) */
		}
	}
	for (;;) {
		t = 1;
		if (!quick_tag(p, e, &tq)) {
			t = cd__scan_tag(p, e, eof, &ts);
			tq = ts;
		}
		if (t < 0)
			return S_MORE;
		if (t > 0) {
			/* a new game: after a blank line, an Event tag or
			 * a tag whose name the section has (a tag section
			 * without movetext before it); without one, a
			 * repeated name is the same game's (the last
			 * value wins) */
			if (r->nrt > 0 && sc.newlines >= 2 &&
			    ((tq.name_len == 5 && memcmp(tq.name, "Event",
			    5) == 0) || has_tag(r, tq.name, tq.name_len)))
				return tags_only(r, s, sc.blank && sc.ls ?
				    sc.ls : p, &sc);
			if (store_tag(r, s, p, &tq, &sc) != 0)
				return S_NOMEM;
		} else {
			r->g_flags |= CD_PGN_RAW_BAD_TAG;
			r->g_bare = false;
		}
		p = sc.last_tag_end = tq.next;
		sc.end_lines = sc.lines;
		sc.end_line = sc.line;
		if (next_tag_lines(r, &p, &sc))
			goto line_start;
tags_end:
		if ((t = after_tags(r, s, &p, &sc)) >= 0)
			return t;
line_start:
		if (*p == '[') {
			t = cd__frame_tag_start(p, e, eof);
			if (t < 0)
				return S_MORE;
			if (t > 0)
				continue;
		}
		cd__frame_place(r, s, p, sc.lines, sc.line, &r->g_mt_line,
		    &r->g_mt_col);
		return cd__frame_movetext(r, s, p, sc.ls, sc.blank);
	}
}
