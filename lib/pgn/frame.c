/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn/frame.c: the framer, which finds where each game of a stream
 * begins and ends (the rules are chessdata/pgn_read.h's): here its
 * line primitives (tag pair lines, line ends, comments that hold a
 * game's start) and movetext up to its termination marker.  The tag
 * section is pgn/frame_tags.c's, and what comes next at the reader's
 * position (a game, blank lines, text to skip, binary data) is
 * pgn/frame_scan.c's; the buffer the framer reads is the reader's
 * (pgn/read.c).  No chess knowledge here.
 *
 * The framer is a pure function of the bytes in the buffer: when it
 * reaches their end before it can decide, it says so (S_MORE) and the
 * reader refills the buffer and frames again from the game's first
 * byte, so it needs no resumable state.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pgn/lex.h"
#include "pgn/reader.h"

/* ---- tag pair lines ---- */

/*
 * Whether p (a `[`) starts a tag: optional whitespace then a tag name
 * byte.  1 yes, 0 no, -1 more input needed.
 */
int
cd__frame_tag_start(const char *p, const char *e, int eof)
{
	p++;
	while (p < e && CD__IS_WS(*p))
		p++;
	if (p == e)
		return eof ? 0 : -1;
	return (CD__CLS(*p) & K_TAGNAME) != 0;
}

/*
 * Whether the line at p (a line start) starts with one complete
 * standard tag pair in column one, `[Name "value"]`, with blanks only
 * after it to the line end when whole.  Used to end a brace comment
 * that is never closed (whole) and binary data.  1 yes, 0 no, -1 more
 * input needed.
 */
int
cd__frame_tag_pair_line(const char *p, const char *e, int eof, int whole)
{
	const char *le, *q;
	struct cd__tagscan ts;

	if (p == e)
		return eof ? 0 : -1;
	if (*p != '[')
		return 0;
	le = memchr(p, '\n', (size_t)(e - p));
	if (le == NULL) {
		if (!eof)
			return -1;
		le = e;
	}
	for (q = p + 1; q < le && (CD__IS_DIGIT(*q) || (CD__CLS(*q) & K_LETTER) ||
	    *q == '_'); q++)
		;
	if (q == p + 1 || q == le || (*q != ' ' && *q != '\t'))
		return 0;
	if (cd__scan_tag(p, le, 1, &ts) != 1)
		return 0;
	for (q = ts.next; q < le && CD__IS_HSPACE(*q); q++)
		;
	return q == le || !whole;
}

/* A line that is one complete tag pair (tag_pair_line). */
static int
tag_line(const char *p, const char *e, int eof)
{
	return cd__frame_tag_pair_line(p, e, eof, 1);
}

/* ---- movetext ---- */

#ifdef __SSE2__
/* The `}` and line ends of the sixteen bytes v, as a bit mask. */
static inline unsigned
close16(__m128i v)
{
	return (unsigned)_mm_movemask_epi8(_mm_or_si128(cd__eq8(v, '}'),
	    cd__eq8(v, '\n')));
}

/* close16() of the sixteen bytes at p. */
static inline uint64_t
brace_or_line_end16(const char *p)
{
	return close16(_mm_loadu_si128((const void *)p));
}

/* The bytes of the sixteen v that are in K_STOP (CD__STOP_BYTES), as a
 * bit mask.  The test pairs the stop bytes that differ in one bit: `[`
 * and `{` (0x20), 0xc2 and 0xe2 (0x20), `(` and `)` (0x01), `-` and `/`
 * (0x02); no other byte matches a pair. */
static inline unsigned
stop16(__m128i v)
{
	__m128i v20 = _mm_or_si128(v, _mm_set1_epi8(0x20));

	return (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(
	    _mm_or_si128(cd__eq8(v, '\n'), cd__eq8(v, ';')),
	    _mm_or_si128(cd__eq8(v, '%'), cd__eq8(v, '"'))),
	    _mm_or_si128(_mm_or_si128(cd__eq8(v, '*'), cd__eq8(v20, '{')),
	    _mm_or_si128(cd__eq8(v20, 0xe2), _mm_or_si128(
	    cd__eq8(_mm_or_si128(v, _mm_set1_epi8(0x01)), ')'),
	    cd__eq8(_mm_or_si128(v, _mm_set1_epi8(0x02)), '/'))))));
}
#endif

#ifdef CD_AVX2
/* brace_or_line_end() with AVX2, for e - p >= 64: sixty-four bytes a
 * step, the last 64 overlapping the ones before. */
__attribute__((target("avx2"))) static const char *
brace_or_line_end_avx2(const char *p, const char *e)
{
	const __m256i rb = _mm256_set1_epi8('}'), nl = _mm256_set1_epi8('\n');

	for (;;) {
		const char *q = e - p >= 64 ? p : e - 64;
		__m256i v = _mm256_loadu_si256((const void *)q);
		__m256i v1 = _mm256_loadu_si256((const void *)(q + 32));
		__m256i h = _mm256_or_si256(_mm256_cmpeq_epi8(v, rb),
		    _mm256_cmpeq_epi8(v, nl));
		__m256i h1 = _mm256_or_si256(_mm256_cmpeq_epi8(v1, rb),
		    _mm256_cmpeq_epi8(v1, nl));

		if (!_mm256_testz_si256(_mm256_or_si256(h, h1),
		    _mm256_or_si256(h, h1)))
			return q + __builtin_ctzll(
			    (uint64_t)(uint32_t)_mm256_movemask_epi8(h) |
			    (uint64_t)(uint32_t)_mm256_movemask_epi8(h1) <<
			    32);
		if ((p = q + 64) == e)
			return e;
	}
}
#endif

/* The first `}` or line end in [p, e), or e: sixty-four bytes a step
 * (AVX2), or sixty-four then sixteen (SSE2). */
static const char *
brace_or_line_end(const char *p, const char *e)
{
#ifdef __SSE2__
	uint64_t m;

#ifdef CD_AVX2
	if (cd__have_avx2 && e - p >= 64)
		return brace_or_line_end_avx2(p, e);
#endif

	for (; e - p >= 64; p += 64) {
		m = brace_or_line_end16(p) |
		    brace_or_line_end16(p + 16) << 16 |
		    brace_or_line_end16(p + 32) << 32 |
		    brace_or_line_end16(p + 48) << 48;
		if (m != 0)
			return p + __builtin_ctzll(m);
	}
	for (; e - p >= 16; p += 16)
		if ((m = brace_or_line_end16(p)) != 0)
			return p + __builtin_ctzll(m);
#endif
	while (p < e && *p != '}' && *p != '\n')
		p++;
	return p;
}

/* Whether only blanks stand in [p, e). */
static int
only_blanks(const char *p, const char *e)
{
	while (p < e && CD__IS_HSPACE(*p))
		p++;
	return p == e;
}

/* Whether the line [l, le) is blank or ends with a termination marker
 * (then blanks). */
static int
game_ends_line(const char *l, const char *le)
{
	const char *w;

	while (le > l && CD__IS_WS(le[-1]))
		le--;
	for (w = le; w > l && !CD__IS_WS(w[-1]) && w[-1] != '{'; w--)
		;
	return le == l || cd_pgn_result_parse(w, (size_t)(le - w)) !=
	    CD_PGN_RESULT_NONE;
}

/*
 * Whether a line of the comment text [c, stop) (c just after the `{`)
 * starts a game: a complete tag pair in column one (tag_line) after a
 * line of the comment that is blank or ends with a termination marker
 * (the comment's first line, after the `{`, counts for a marker only).
 * 1 yes, 0 no, -1 more input needed.
 */
static int
game_in_comment(const char *c, const char *stop, const char *e, int eof)
{
	const char *l = c, *nl;
	int t;

	while ((nl = memchr(l, '\n', (size_t)(stop - l))) != NULL) {
		if (nl + 1 < stop && nl[1] == '[' && (l == c ?
		    game_ends_line(l, nl) && l < nl && !only_blanks(l, nl) :
		    game_ends_line(l, nl))) {
			if ((t = tag_line(nl + 1, e, eof)) != 0)
				return t;
		}
		l = nl + 1;
	}
	return 0;
}

/*
 * The end of a brace comment opened at p (a `{`): it ends at its `}`
 * (standard, section 5), whatever lines it holds, tag pairs too, and
 * *out gets the byte after it (1).  But a comment that holds the start
 * of a game before its `}` (game_in_comment: a tag pair line after a
 * blank line or a line ending with a marker), or that has no `}` up to
 * the end of the input (or of the part of a game that is read:
 * GAME_MAX), is never closed: the game ends at the first line inside it
 * that is a complete tag pair starting in column one (reading goes on
 * there), or at the end: *out gets that place (0).  -1 when more input
 * is needed.
 */
int
cd__frame_comment_end(const char *p, const char *e, int eof, const char **out)
{
	const char *q = brace_or_line_end(p + 1, e), *stop;
	int t;

	if (q < e && *q == '}') {
		*out = q + 1;	/* (the usual: on one line) */
		return 1;
	}
	if (q < e)
		q = memchr(q, '}', (size_t)(e - q));
	else
		q = NULL;
	if (q == NULL && !eof)
		return -1;
	stop = q != NULL ? q : e;
	if ((t = game_in_comment(p + 1, stop, e, eof)) < 0)
		return -1;
	if (t == 0 && q != NULL) {
		*out = q + 1;
		return 1;
	}
	for (q = p + 1; (q = memchr(q, '\n', (size_t)(stop - q))) != NULL;)
		if ((t = tag_line(++q, e, eof)) != 0) {
			if (t < 0)
				return -1;
			*out = q;
			return 0;
		}
	*out = e;	/* (eof: no `}`) */
	return 0;
}

/*
 * The end of the brace comment opened at p, as cd__frame_comment_end
 * reads it; with nested (CD_PGN_READ_NESTED_COMMENTS) one that may
 * hold others (`{ a { b } c }`): the `}` that closes its `{` (1, *out
 * after it), when there is one and no game starts inside the comment
 * before it (game_in_comment), else as without.  -1 when more input is
 * needed.
 */
static int
comment_end(const char *p, const char *e, int eof, const char **out,
    unsigned nested)
{
	const char *q;
	size_t depth = 0;
	int t;

	if (!nested)
		return cd__frame_comment_end(p, e, eof, out);
	for (q = p + 1; q < e; q++)
		if (*q == '{')
			depth++;
		else if (*q == '}' && depth-- == 0)
			break;
	if (q == e && !eof)
		return -1;
	if (q < e) {
		if ((t = game_in_comment(p + 1, q, e, eof)) < 0)
			return -1;
		if (t == 0) {
			*out = q + 1;
			return 1;
		}
	}
	return cd__frame_comment_end(p, e, eof, out);
}

/* The end of the line at p (the `\n` or e); NULL if more input is
 * needed. */
const char *
cd__frame_line_end(const char *p, const char *e, int eof)
{
	const char *nl = memchr(p, '\n', (size_t)(e - p));

	if (nl != NULL)
		return nl;
	return eof ? e : NULL;
}

/* The end of a word (a move, a number, a marker) starting at p. */
const char *
cd__frame_word_end(const char *p, const char *e)
{
	while (p < e && !(CD__CLS(*p) & K_DELIM))
		p++;
	return p;
}

/* Whether one of the four bytes at p is in K_STOP; *q gets the first
 * such. */
static inline bool
stop4(const char *p, const char **q)
{
	if (CD__CLS(p[0]) & K_STOP)
		*q = p;
	else if (CD__CLS(p[1]) & K_STOP)
		*q = p + 1;
	else if (CD__CLS(p[2]) & K_STOP)
		*q = p + 2;
	else if (CD__CLS(p[3]) & K_STOP)
		*q = p + 3;
	else
		return false;
	return true;
}

/* The first byte at or after p that can change the scan (K_STOP), or
 * e.  Eight bytes through the table first (short runs between comments
 * are common), then sixteen bytes a step where SSE2 is (stop16) and vec
 * is true, then four bytes a step through the table. */
static const char *
skip_plain(const char *p, const char *e, bool vec)
{
	const char *q;
	int round;

	for (round = 0; round < 2 && e - p >= 4; round++, p += 4)
		if (stop4(p, &q))
			return q;
#ifdef __SSE2__
	for (; vec && e - p >= 16; p += 16) {
		unsigned m = stop16(_mm_loadu_si128((const void *)p));

		if (m != 0)
			return p + __builtin_ctz(m);
	}
#else
	(void)vec;
#endif
	for (; e - p >= 4; p += 4)
		if (stop4(p, &q))
			return q;
	while (p < e && !(CD__CLS(*p) & K_STOP))
		p++;
	return p;
}

/*
 * The wide scan of movetext, as simdjson finds JSON's structure: the
 * bytes of sixty-four at once that are in K_STOP, the braces and the
 * line ends (with SSE2: the `}` and line ends), as bit masks, so that
 * the scan goes from one stop byte to the next outside the comments
 * that end on their line (found by a prefix XOR of the braces with
 * AVX2, wide_next_masks; one at a time with SSE2) with a few bit
 * operations and a count of trailing zeros, no load and no call.  A
 * block is loaded where the scan reaches the end of the one before (or
 * jumps past it); fewer than 64 bytes before the end of the buffer are
 * scanned as skip_plain does.  With AVX2 the blocks after one that the
 * scan reads to its end are taken in one loop while they need no stop
 * (wide_run_avx2: their line ends counted, the `-` and `/` of words
 * that are no marker passed).  One call (wide_next_masks or
 * wide_next_each) in cd__frame_movetext: a scan of other rules (cd_pgn_reader's narrow,
 * or a mode of its own) does without it and frames the same games, the
 * comments by cd__frame_comment_end.
 */
struct wide {
	uintptr_t b;		/* the block's first byte (0: none yet) */
	uint64_t stop;		/* its bytes in K_STOP (`{` too, not `}`) */
	uint64_t close;		/* its `}` and line ends (SSE2) */
	uint64_t brace;		/* its `{` and `}` (AVX2) */
	uint64_t nl;		/* its line ends (AVX2) */
	/* The last pass of wide_next_masks over the block: the bytes
	 * inside comments, and the bytes before the first that it could
	 * not read (bad; lim 0: none read). */
	uint64_t in, lim;
	/* The bytes from the game's start up to seen hold no binary byte
	 * (cd__binary_byte): the blocks with AVX2 say so as they are
	 * loaded, and what the scan jumped over is searched then; seen
	 * stops at the first block that holds one, or that SSE2 loaded. */
	const char *seen;
	bool seen_stop;
	const char *mt;		/* the movetext's first byte */
};

#ifdef __SSE2__
/* The bytes seen of a game (struct wide's seen and seen_stop), as
 * wide_seen_at hands them back. */
struct seen {
	const char *seen;
	bool stop;
};

/* The bytes from seen up to b, which the scan jumped over, and the 64
 * at b (text: none binary) seen, seen not stopped.  By value, so that
 * a caller's state can stay in registers. */
static __attribute__((noinline)) struct seen
wide_seen_at(const char *seen, const char *b, bool text)
{
	if (b > seen && cd__binary_byte(seen, (size_t)(b - seen)) != NULL)
		return (struct seen){ seen, true };
	return (struct seen){ text ? b + 64 : b, !text };
}

/* wide_seen_at() into w. */
static inline void
wide_seen(struct wide *w, const char *b, bool text)
{
	struct seen sn;

	if (w->seen_stop)
		return;
	sn = wide_seen_at(w->seen, b, text);
	w->seen = sn.seen;
	w->seen_stop = sn.stop;
}

/* The masks of the 64 bytes at b (SSE2: sixteen at a time). */
static inline void
wide_load_sse2(struct wide *w, const char *b)
{
	__m128i v0 = _mm_loadu_si128((const void *)b);
	__m128i v1 = _mm_loadu_si128((const void *)(b + 16));
	__m128i v2 = _mm_loadu_si128((const void *)(b + 32));
	__m128i v3 = _mm_loadu_si128((const void *)(b + 48));

	w->stop = (uint64_t)stop16(v0) | (uint64_t)stop16(v1) << 16 |
	    (uint64_t)stop16(v2) << 32 | (uint64_t)stop16(v3) << 48;
	w->close = (uint64_t)close16(v0) | (uint64_t)close16(v1) << 16 |
	    (uint64_t)close16(v2) << 32 | (uint64_t)close16(v3) << 48;
}
#endif

#ifdef CD_AVX2
/*
 * The classes of the 32 bytes v (AVX2), from two tables of four-bit
 * nibbles (vpshufb): each class is a rectangle of high by low nibble,
 * a bit each: 1, line end (0x0 by 0xa); 2, `"%()*-/` (0x2 by 0x2, 0x5,
 * 0x8, 0x9, 0xa, 0xd, 0xf); 4, `;[{` (0x3, 0x5, 0x7 by 0xb); 8, the
 * lead bytes 0xc2 and 0xe2 (0xc, 0xe by 0x2); 128, `{` and `}` (0x7 by
 * 0xb, 0xd); and the binary bytes of cd__binary_byte, 16 (0x7 by 0xf),
 * 32 (0x0 by 0x0-0x8, 0xe-0xf), 64 (0x1 by 0x0-0x9, 0xc-0xf).  A
 * byte's bits are the high table's for its high nibble and the low
 * table's for its low one: the stop bytes have one of 1 to 8 (stop16),
 * the braces 128 (the top bit: their mask is the classes' own), the
 * binary bytes one of CLASS_BINARY.
 */
#define CLASS_LO _mm256_setr_epi8(96, 96, 106, 96, 96, 98, 96, 96, 98, \
	66, 3, (char)132, 64, (char)194, 96, 114, 96, 96, 106, 96, 96, 98, \
	96, 96, 98, 66, 3, (char)132, 64, (char)194, 96, 114)
#define CLASS_HI _mm256_setr_epi8(33, 64, 2, 4, 0, 4, 0, (char)148, 0, \
	0, 0, 0, 8, 0, 8, 0, 33, 64, 2, 4, 0, 4, 0, (char)148, 0, 0, 0, 0, 8, \
	0, 8, 0)
#define CLASS_BINARY 0x70

/* The classes of v by the tables lo and hi (CLASS_LO, CLASS_HI) and
 * the nibble mask nib, which a loop keeps in registers. */
__attribute__((target("avx2"))) static inline __m256i
classes_by(__m256i v, __m256i lo, __m256i hi, __m256i nib)
{
	return _mm256_and_si256(_mm256_shuffle_epi8(lo,
	    _mm256_and_si256(v, nib)), _mm256_shuffle_epi8(hi,
	    _mm256_and_si256(_mm256_srli_epi16(v, 4), nib)));
}

__attribute__((target("avx2"))) static inline __m256i
classes_avx2(__m256i v)
{
	return classes_by(v, CLASS_LO, CLASS_HI, _mm256_set1_epi8(0x0f));
}

/* The masks of the 64 bytes at b (AVX2), from their classes: the
 * braces by their class, the top bit, as it is; the line ends (the
 * class 1) by that bit shifted to the top of its byte (vpsllw: a 16-bit
 * lane's two bytes keep their own), no constant and no compare; the stop bytes
 * (the classes 1 to 8) by the sum of those bits and 0x7f, whose top
 * bit any of them sets (no compare, no complement); the 64 seen
 * (struct wide) as they are. */
__attribute__((target("avx2"))) static inline void
wide_load_avx2(struct wide *w, const char *b)
{
	const __m256i stop = _mm256_set1_epi8(0x0f);
	const __m256i top = _mm256_set1_epi8(0x7f);
	const __m256i binary = _mm256_set1_epi8(CLASS_BINARY);
	__m256i v0 = _mm256_loadu_si256((const void *)b);
	__m256i v1 = _mm256_loadu_si256((const void *)(b + 32));
#define MASK(v) ((uint64_t)(uint32_t)_mm256_movemask_epi8(v))
#define ANY(c, k, t) MASK(_mm256_add_epi8(_mm256_and_si256((c), (k)), (t)))
#define BIT(c, n) MASK(_mm256_slli_epi16((c), 7 - (n)))
	__m256i c0 = classes_avx2(v0), c1 = classes_avx2(v1);

	w->stop = ANY(c0, stop, top) | ANY(c1, stop, top) << 32;
	w->brace = MASK(c0) | MASK(c1) << 32;
	w->nl = BIT(c0, 0) | BIT(c1, 0) << 32;
#undef MASK
#undef ANY
#undef BIT
	if (_mm256_testz_si256(_mm256_or_si256(c0, c1), binary) &&
	    b == w->seen && !w->seen_stop)
		w->seen += 64;
	else
		wide_seen(w, b, _mm256_testz_si256(_mm256_or_si256(c0, c1),
		    binary));
}

/* Each bit of x xor the bits below it (a carry-less multiply by all
 * ones): the bytes from an odd `{` or `}` of a block up to the next. */
__attribute__((target("pclmul"))) static inline uint64_t
prefix_xor(uint64_t x)
{
	return (uint64_t)_mm_cvtsi128_si64(_mm_clmulepi64_si128(
	    _mm_cvtsi64_si128((long long)x), _mm_set1_epi8((char)0xff), 0));
}

/* Where the wide scan's run of plain blocks (wide_run_avx2) starts and
 * ends: the block before it (b), the last brace up to there (at ob, the
 * highest bit of ox), whether a comment is open at its end (carry: all
 * ones); the line ends it passed (lines, the last at lastnl). */
struct run {
	const char *b, *ob, *lastnl;
	uint64_t ox, carry;
	unsigned long lines;
};

/*
 * The blocks after r->b that the wide scan (wide_next_masks) passes
 * whole without a stop: plain blocks, whose braces alternate (a `{`
 * first, or a `}` first when a comment is open at the block's start),
 * which have no line end inside a comment, and whose bytes outside
 * comments hold no stop byte but line ends and the `-` and `/` of words
 * that do not start as a marker does (0, 1, the lead byte of `½`:
 * movetext() looks at those words whole and passes the others).  Their
 * line ends are counted (all are outside comments), their bytes seen;
 * the masks (AVX2) and the state are kept in registers over the
 * blocks, the constants made once a call.  True with the first block
 * that is not plain loaded into w (as wide_load loads it) at r->b;
 * false when fewer than 64 bytes are left after r->b, the last block
 * passed.
 */
__attribute__((target("avx2,pclmul,bmi,bmi2,popcnt"), noinline)) static bool
wide_run_avx2(struct wide *w, struct run *r, const char *e)
{
	const __m256i lo = CLASS_LO, hi = CLASS_HI;
	const __m256i nib = _mm256_set1_epi8(0x0f);
	const __m256i sb = _mm256_set1_epi8(0x0e);
	const __m256i binary = _mm256_set1_epi8(CLASS_BINARY);
	__m256i top = _mm256_set1_epi8(0x7e);
	const __m256i quiet = _mm256_set1_epi8((char)0xf1);
	const __m256i one = _mm256_set1_epi8(0x01);
	const char *b = r->b, *ob = r->ob, *seen = w->seen, *lastnl = NULL;
	const char *end = e - 128, *mt = w->mt;
	uint64_t ox = r->ox, carry = r->carry, stop = 0, brace = 0, nl = 0,
	    in, x, bad;
	unsigned long lines = 0;
	bool sstop = w->seen_stop, more = false;

	/* (kept in a register over the loop, not made again each block) */
	__asm__("" : "+x"(top));
	/* (the bytes up to the next block seen, and from there on while
	 * not stopped: seen is then b + 64, made so at the end) */
	if (!sstop && seen != b + 64) {
		if (seen > b + 64 || cd__binary_byte(seen,
		    (size_t)(b + 64 - seen)) != NULL)
			sstop = true;
	}

	while (b <= end) {
		__m256i v0 = _mm256_loadu_si256((const void *)(b + 64));
		__m256i v1 = _mm256_loadu_si256((const void *)(b + 96));
		__m256i c0 = classes_by(v0, lo, hi, nib);
		__m256i c1 = classes_by(v1, lo, hi, nib);
#define MASK(v) ((uint64_t)(uint32_t)_mm256_movemask_epi8(v))
#define BIT(c, n) MASK(_mm256_slli_epi16((c), 7 - (n)))

		b += 64;
		/* A block that a comment open before it goes on through
		 * (no brace, no line end, nothing binary: the classes 128, 1
		 * and 16 to 64; an engine's long comment) passed by its
		 * classes alone; its bytes seen.  (The classes tested first:
		 * whether a comment is open at a block's start is as random
		 * as the moves where the comments are short clocks, and a
		 * branch on it first took a quarter of the loop's time
		 * there.) */
		if (_mm256_testz_si256(_mm256_or_si256(c0, c1), quiet)) {
			/* (kept a branch of its own, taken before the
			 * comment's: the compiler would test that first) */
			__asm__ volatile("");
			if (carry != 0)
				continue;
		}
		/* (the stop bytes but the line ends: the classes 2 to 8 of
		 * classes_avx2, whose sum with 0x7e has its top bit set) */
		stop = MASK(_mm256_add_epi8(_mm256_and_si256(c0, sb), top)) |
		    MASK(_mm256_add_epi8(_mm256_and_si256(c1, sb), top)) << 32;
		brace = MASK(c0) | MASK(c1) << 32;
		if (__builtin_expect(!_mm256_testz_si256(_mm256_or_si256(c0,
		    c1), binary), 0) && !sstop) {
			seen = b;	/* (a binary byte here) */
			sstop = true;
		}
		in = prefix_xor(brace) ^ carry;
		bad = brace & (stop ^ in);
		/* (most blocks of the online exports have no line end: their
		 * mask and test only where there is one) */
		nl = 0;
		if (!_mm256_testz_si256(_mm256_or_si256(c0, c1), one)) {
			nl = BIT(c0, 0) | BIT(c1, 0) << 32;
			bad |= nl & in;
		}
#undef MASK
#undef BIT
		if (bad != 0) {
			more = true;
			break;
		}
		/* (a `-` or `/` in a word that does not start as a marker
		 * does: passed, as movetext() passes it) */
		for (x = stop & ~in; x != 0; x &= x - 1) {
			const char *q = b + __builtin_ctzll(x);

			if (*q != '-' && *q != '/')
				break;
			/* (castling's `O-`: no marker holds an `O`, as
			 * cd_pgn_result_parse reads them) */
			if (q > mt && q[-1] == 'O')
				continue;
			while (q > mt && !(CD__CLS(q[-1]) & K_DELIM))
				q--;
			if (*q == '0' || *q == '1' || CD__U(*q) == 0xc2)
				break;
		}
		if (x != 0) {
			more = true;
			break;
		}
		if (nl != 0) {
			lines += (unsigned long)__builtin_popcountll(nl);
			lastnl = b + 63 - __builtin_clzll(nl);
		}
		if (brace != 0) {
			ob = b;
			ox = brace;
		}
		carry = (uint64_t)((int64_t)in >> 63);
	}
	if (more) {
		w->b = (uintptr_t)b;
		w->lim = 0;
		w->stop = stop | nl;
		w->brace = brace;
		w->nl = nl;
	}
	w->seen = sstop ? seen : b + 64;
	w->seen_stop = sstop;
	r->b = b;
	r->ob = ob;
	r->ox = ox;
	r->carry = carry;
	r->lines = lines;
	r->lastnl = lastnl;
	return more;
}
#endif

/* How movetext is scanned: a byte at a time (skip_plain), or wide, the
 * blocks' masks by SSE2 or by AVX2 (in a copy of the scan made for
 * AVX2, movetext_avx2). */
enum { SCAN_NARROW, SCAN_SSE2, SCAN_AVX2 };

#ifdef __SSE2__
/* The block at b (64 bytes, readable) and its masks, by the scan's
 * instructions. */
static inline void
wide_load(struct wide *w, const char *b, int scan)
{
	w->b = (uintptr_t)b;
	w->lim = 0;
#ifdef CD_AVX2
	if (scan == SCAN_AVX2) {
		wide_load_avx2(w, b);
		return;
	}
#else
	(void)scan;
#endif
	wide_load_sse2(w, b);
	if (!w->seen_stop)
		wide_seen(w, b, false);
}

/* Whether p is in the block loaded, loading the block at p (or from
 * the bytes seen on, when they are near: the gap is seen in the block)
 * when it is past it; false when fewer than 64 bytes are left there
 * (then skip_plain scans them). */
static inline bool
wide_reach(struct wide *w, const char *p, const char *e, int scan)
{
	if ((uintptr_t)p - w->b < 64 && w->b != 0)
		return true;
	if (e - p < 64)
		return false;
	wide_load(w, (uintptr_t)p - (uintptr_t)w->seen < 64 ? w->seen : p,
	    scan);
	return true;
}

/*
 * The first byte at or after p that is in K_STOP, or e, but for the
 * comments that end on their line (a `{`, then a `}` before any line
 * end), which are skipped as cd__frame_comment_end skips them; the
 * block moves on as needed.  One comment at a time: the SSE2 scan.
 */
static inline const char *
wide_next_each(struct wide *w, const char *p, const char *e, int scan)
{
	const char *b, *open;
	uint64_t m, c;
	unsigned i;

	if (!wide_reach(w, p, e, scan))
		return skip_plain(p, e, true);
	b = (const char *)w->b;
	m = w->stop & (~0ULL << (p - b));
	for (;;) {
		while (m == 0) {
			if (e - (b + 64) < 64)
				return skip_plain(b + 64, e, true);
			wide_load(w, b += 64, scan);
			m = w->stop;
		}
		i = (unsigned)__builtin_ctzll(m);
		if (b[i] != '{')
			return b + i;
		open = b + i;
		c = w->close & (~0ULL << i << 1);
		while (c == 0) {
			/* (a comment longer than the rest of the block) */
			if (e - (b + 64) < 64)
				return open;
			wide_load(w, b += 64, scan);
			c = w->close;
		}
		i = (unsigned)__builtin_ctzll(c);
		if (b[i] != '}')
			return open;	/* (on more than one line) */
		m = w->stop & (~0ULL << i << 1);
	}
}

#ifdef CD_AVX2
/*
 * The first byte at or after p that is in K_STOP, or e, but for the
 * comments that end on their line (a `{`, then a `}` before any line
 * end), which are skipped as cd__frame_comment_end skips them; the
 * block moves on as needed.
 *
 * The comments are found in the masks, as simdjson finds its strings:
 * from p on, where the `{` and `}` alternate, a `{` first, and no line
 * end stands between a `{` and its `}`, the prefix XOR of the braces
 * (in) marks the bytes inside comments (from a `{` up to its `}`),
 * which the stops then leave out.  That holds up to the first byte
 * where it fails (bad): a `}` outside comments (read on past it), a
 * `{` inside one (the comment goes on: carry), a line end inside one
 * (it spans lines: the scan stops at its `{`, open).  A comment open
 * at the end of a block goes on in the next (carry), over the blocks
 * that hold no brace and no line end at once.  The next call in the
 * block reads on in the same pass, when p is outside its comments
 * and before its first bad byte (the bytes from there on read as
 * they would from p).
 *
 * The blocks after one read to its end go by wide_run_avx2 while they
 * are plain (no stop outside comments but line ends, and the `-` and
 * `/` of words that are no marker): the line ends it passes are counted
 * into *lines, the last into *lastnl (the scan stops at the others).
 */
static inline const char *
wide_next_masks(struct wide *w, const char *p, const char *e,
    unsigned long *lines, const char **lastnl)
{
	struct run rn;
	const char *b, *ob = NULL;
	uint64_t ge, x, in, bad, m, ox = 0, carry = 0;
	unsigned k;
	bool more;

	if (!wide_reach(w, p, e, SCAN_AVX2))
		return skip_plain(p, e, true);
	b = (const char *)w->b;
	k = (unsigned)(p - b);
	ge = ~0ULL << k;
	/* (a block just loaded has no pass: lim 0) */
	if (k != 0 && ((w->lim & ~w->in) >> (k - 1) & 1) != 0) {
		/* (the last pass holds) */
		m = w->stop & ~w->in & w->lim & ge;
		if (m != 0)
			return b + __builtin_ctzll(m);
		if ((int64_t)w->lim < 0) {
			carry = (uint64_t)((int64_t)w->in >> 63);
			ob = b;		/* (a `{` last) */
			ox = w->brace;
			goto next;
		}
	}
	for (;;) {
		/* (carry: all ones inside a comment at ge's first byte;
		 * the last brace before here in the block at ob, ox) */
		x = w->brace & ge;
		if ((x | carry) == 0) {
			/* (no comment from ge on) */
			w->in = 0;
			w->lim = ~0ULL;
			m = w->stop & ge;
			if (m != 0)
				return b + __builtin_ctzll(m);
			goto next;
		}
		in = prefix_xor(x) ^ carry;
		bad = ((x & (w->stop ^ in)) | (w->nl & in)) & ge;
		w->in = in;
		w->lim = ~bad & (bad - 1);
		m = w->stop & ~in & ge & w->lim;
		if ((m | bad) != 0) {
			if (m != 0)
				return b + __builtin_ctzll(m);
			k = (unsigned)__builtin_ctzll(bad);
			if ((x &= (1ULL << k) - 1) != 0) {
				ob = b;
				ox = x;
			}
			if (((in << 1 | (carry & 1)) >> k & 1) == 0)
				carry = 0;	/* (a `}` outside) */
			else if (b[k] == '\n')
				return ob + 63 - __builtin_clzll(ox);
			else
				carry = ~0ULL;	/* (a `{` inside) */
			ge = ~0ULL << k << 1;
			continue;
		}
		if (x != 0) {
			ob = b;
			ox = x;
		}
		carry = (uint64_t)((int64_t)in >> 63);
next:
		/* The plain blocks after b passed, their line ends
		 * counted; the next block loaded, or the end near. */
		rn = (struct run){ b, ob, NULL, ox, carry, 0 };
		more = e - (b + 64) >= 64 && wide_run_avx2(w, &rn, e);
		if (rn.lines != 0) {
			*lines += rn.lines;
			*lastnl = rn.lastnl;
		}
		b = rn.b;
		ob = rn.ob;
		ox = rn.ox;
		carry = rn.carry;
		if (!more)
			return carry != 0 ? ob + 63 - __builtin_clzll(ox) :
			    skip_plain(b + 64, e, true);
		ge = ~0ULL;
	}
}
#endif

#endif

/* What the wide scan saw of the game at s free of binary bytes, into
 * r->g_clean (as it was when no block was loaded). */
static inline void
wide_done(cd_pgn_reader *r, const char *s, const struct wide *w)
{
	if (w->b != 0)
		r->g_clean = (size_t)(w->seen - s);
}

/* The line ends of a game's movetext that the framer counts: nl of
 * them before the place it reached, the last at lastnl (NULL: none);
 * counted while no brace comment that may hold some was passed (those
 * wide_next skips hold none), advance_game counts them otherwise. */
struct lines {
	unsigned long nl;
	const char *lastnl;
	int counted;
};

/* The game that starts at s framed: its movetext from m, up to last
 * (its last byte that counts), the game up to end. */
static inline int
frame_done(cd_pgn_reader *r, const char *s, const char *m,
    const char *last, const char *end, const struct lines *ln)
{
	r->g_counted = ln->counted;
	r->g_nl = ln->nl;
	r->g_lastnl = ln->lastnl != NULL ? (size_t)(ln->lastnl - s) + 1 : 0;
	if (r->g_result == CD_PGN_RESULT_NONE)
		r->g_flags |= CD_PGN_RAW_NO_RESULT;
	r->g_len = (size_t)(end - s);
	r->g_mt = (size_t)(m - s);
	r->g_mt_end = (size_t)(last - s);
	if (r->g_mt_end < r->g_mt)
		r->g_mt_end = r->g_mt;
	return S_GAME;
}

/*
 * The lines after the termination marker's line (q their start, *end
 * too): those that hold only comments belong to the game too when
 * nothing but the next tag section (or the end) follows them;
 * otherwise the game ends after its blank lines.  The game's end into
 * *end: S_GAME, or S_MORE.
 */
static int
comment_lines(const char *q, const char *e, int eof, struct lines *ln,
    const char **end, unsigned nested)
{
	const char *ls = q, *c, *lastnl_mark = ln->lastnl;
	unsigned long nl_mark = ln->nl;
	int blank = 1, t;

	for (;;) {
		if (q == e) {
			if (!eof)
				return S_MORE;
			*end = e;
			return S_GAME;
		}
		if (*q == '\n') {
			ln->nl++;
			ln->lastnl = q;
			ls = ++q;
			blank = 1;
			continue;
		}
		if (CD__IS_WS(*q)) {
			q++;
			continue;
		}
		if (*q == ';' || (*q == '%' && q == ls)) {
			q = cd__frame_line_end(q, e, eof);
			if (q == NULL)
				return S_MORE;
			blank = 0;
			continue;
		}
		if (*q == '{') {
			ln->counted = 0;
			t = comment_end(q, e, eof, &c, nested);
			if (t < 0)
				return S_MORE;
			if (t == 0)
				break;
			q = c;
			blank = 0;
			continue;
		}
		if (*q == '[' && blank) {
			t = cd__frame_tag_start(q, e, eof);
			if (t < 0)
				return S_MORE;
			if (t > 0) {
				*end = ls;
				return S_GAME;
			}
		}
		break;
	}
	/* Only the blank lines after the marker's line. */
	ln->nl = nl_mark;
	ln->lastnl = lastnl_mark;
	for (q = *end;;) {
		while (q < e && CD__IS_HSPACE(*q))
			q++;
		if (q == e) {
			*end = e;	/* (eof: the scan above saw it) */
			break;
		}
		if (*q != '\n')
			break;
		ln->nl++;
		ln->lastnl = q;
		*end = ++q;
	}
	return S_GAME;
}

/* The usual end of a game after its termination marker (p right after
 * it): the marker ends its line, empty lines (none, one or more: the
 * online exports have one or two) and a line that starts with `[`
 * follow, each line end LF or CR LF; the game ends before that `[`,
 * *end, as marker_end ends it there: at the next tag section
 * (comment_lines), or after the blank lines when the `[` starts no
 * tag.  Whether it is so. */
static inline bool
marker_usual(const char *p, const char *e, struct lines *ln,
    const char **end)
{
	const char *q = p + (p < e && *p == '\r'), *nl;
	unsigned long k = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint32_t x;
	size_t n = 0;

	/* (the files' usual, by one load of four bytes: LF LF `[`, LF CR
	 * LF `[`, LF LF LF `[`, LF `[`; k line ends, the `[` n bytes on;
	 * the loop below takes them the same) */
	if (e - q >= 4) {
		memcpy(&x, q, 4);
		if ((x & 0xffffff) == 0x5b0a0a) {
			k = n = 2;
		} else if (x == 0x5b0a0d0a) {
			k = 2;
			n = 3;
		} else if (x == 0x5b0a0a0a) {
			k = n = 3;
		} else if ((x & 0xffff) == 0x5b0a) {
			k = n = 1;
		}
		if (k != 0) {
			ln->nl += k;
			ln->lastnl = q + n - 1;
			*end = q + n;
			return true;
		}
	}
#endif
	/* (q at a line end, with the two bytes after it readable) */
	while (e - q >= 3 && q[0] == '\n') {
		nl = q++;
		k++;
		if (q[0] == '[') {
			ln->nl += k;
			ln->lastnl = nl;
			*end = q;
			return true;
		}
		q += q[0] == '\r';
	}
	return false;
}

/* The end of a game after its termination marker (p right after it)
 * into *end: S_GAME, or S_MORE.  nested: CD_PGN_READ_NESTED_COMMENTS. */
static int
marker_end(const char *p, const char *e, int eof, struct lines *ln,
    const char **end, unsigned nested)
{
	const char *q, *c;
	int t;

	if (marker_usual(p, e, ln, end))
		return S_GAME;
	/* The rest of the marker's line if blank or comments, then blank
	 * lines. */
	for (q = p;;) {
		while (q < e && CD__IS_HSPACE(*q))
			q++;
		if (q < e && *q == ';') {
			q = cd__frame_line_end(q, e, eof);
			if (q == NULL)
				return S_MORE;
		} else if (q < e && *q == '{') {
			ln->counted = 0;
			t = comment_end(q, e, eof, &c, nested);
			if (t < 0)
				return S_MORE;
			if (t == 0)
				break;
			q = c;
		} else {
			break;
		}
	}
	if (q == e) {
		if (!eof)
			return S_MORE;
		*end = e;
		return S_GAME;
	}
	if (*q != '\n') {
		*end = q;
		return S_GAME;
	}
	ln->nl++;
	ln->lastnl = q;
	*end = ++q;
	return comment_lines(q, e, eof, ln, end, nested);
}

/* The game framed after its marker (p right after it: the end of its
 * movetext). */
static int
frame_marker(cd_pgn_reader *r, const char *s, const char *m,
    const char *p, struct lines *ln)
{
	const char *end;

	if (marker_end(p, r->data + r->end, r->eof, ln, &end,
	    r->read_flags & CD_PGN_READ_NESTED_COMMENTS) == S_MORE)
		return S_MORE;
	return frame_done(r, s, m, p, end, ln);
}

/* The game framed without a marker, up to end: its movetext ends at
 * its last byte that is not white space. */
static int
frame_trimmed(cd_pgn_reader *r, const char *s, const char *m,
    const char *end, const struct lines *ln)
{
	const char *last = end;

	while (last > m && CD__IS_WS(last[-1]))
		last--;
	return frame_done(r, s, m, last, end, ln);
}

/*
 * Scan movetext from m to the end of the game that starts at s, as
 * scan says (SCAN_*).  ls is the start of m's line (NULL when unknown),
 * blank whether only blanks precede m on it.
 *
 * Only the bytes in K_STOP can end a game or open something that hides
 * a marker, so the scan jumps from one to the next: a line end, a
 * comment, a string, a `[` that may start the next tag section, a
 * variation, `*`, and the bytes without which no word is a marker
 * (`-`, `/`, and the first bytes of `½` and of the dashes).  At one of
 * those the word around it is looked at whole.
 */
static inline __attribute__((always_inline)) int
movetext(cd_pgn_reader *r, const char *s, const char *m, const char *ls,
    int blank, int scan)
{
	const char *e = r->data + r->end, *p = m, *q, *w, *end;
	const char *tls = blank ? ls : NULL;	/* a `[` here after blanks
						 * may start tags */
	int eof = r->eof, t;
	size_t depth = 0;	/* variations open: markers in them do not
				 * end the game */
	/* the line ends before p (struct lines) */
	unsigned long nl = 0;
	const char *lastnl = NULL;
	int counted = 1;
	struct lines ln;

	struct wide wd = { 0, 0, 0, 0, 0, 0, 0, s + r->g_clean, false, m };

	r->g_result = CD_PGN_RESULT_NONE;
	for (;;) {
#ifdef __SSE2__
#ifdef CD_AVX2
		if (scan == SCAN_AVX2) {
			/* (the comments it skips hold no line end: the
			 * count goes on; the line ends of the blocks it
			 * passes whole counted) */
			const char *l0 = lastnl;

			p = wide_next_masks(&wd, p, e, &nl, &lastnl);
			if (lastnl != l0)
				ls = tls = lastnl + 1;
		} else
#endif
		if (scan != SCAN_NARROW) {
			/* (the comments it skips hold no line end: the
			 * count goes on) */
			p = wide_next_each(&wd, p, e, scan);
		} else {
			p = skip_plain(p, e, false);
		}
#else
		p = skip_plain(p, e, false);
#endif
		if (p == e) {
			if (!eof)
				return S_MORE;
			end = e;
			goto trimmed;
		}
		switch (*p) {
		case '\n':
			nl++;
			lastnl = p++;
			ls = tls = p;
			continue;
		case '{':
			counted = 0;
			t = comment_end(p, e, eof, &q,
			    r->read_flags & CD_PGN_READ_NESTED_COMMENTS);
			if (t < 0)
				return S_MORE;
			if (t == 0) {
				r->g_flags |= CD_PGN_RAW_UNCLOSED_COMMENT;
				/* The comment runs to the game's end. */
				w = q;
				while (w > p && CD__IS_WS(w[-1]))
					w--;
				ln = (struct lines){ nl, lastnl, counted };
				wide_done(r, s, &wd);
				return frame_done(r, s, m, w, q, &ln);
			}
			p = q;
			continue;
		case '%':
			if (p != ls) {
				p++;
				continue;
			}
			/* FALLTHROUGH */
		case ';':
			q = cd__frame_line_end(p, e, eof);
			if (q == NULL)
				return S_MORE;
			p = q;
			continue;
		case '"':
			q = cd__frame_line_end(p, e, eof);
			if (q == NULL)
				return S_MORE;
			w = memchr(p + 1, '"', (size_t)(q - (p + 1)));
			p = w != NULL ? w + 1 : q;
			continue;
		case '[':
			if (tls != NULL && only_blanks(tls, p)) {
				t = cd__frame_tag_start(p, e, eof);
				if (t < 0)
					return S_MORE;
				if (t > 0) {
					end = ls;
					goto trimmed;
				}
			}
			p++;
			continue;
		case '*':
			p++;
			if (depth > 0)
				continue;
			r->g_result = CD_PGN_RESULT_UNKNOWN;
			goto marker;
		case '(':
			depth++;
			p++;
			continue;
		case ')':
			if (depth > 0)
				depth--;
			p++;
			continue;
		default:
			break;
		}
		/* `-`, `/` or a lead byte inside a word: the word whole */
		w = p;
		while (w > m && !(CD__CLS(w[-1]) & K_DELIM))
			w--;
		q = cd__frame_word_end(p + 1, e);
		if (q == e && !eof)
			return S_MORE;
		p = q;
		if (depth == 0 && (*w == '0' || *w == '1' ||
		    CD__U(*w) == 0xc2) &&
		    (r->g_result = cd_pgn_result_parse(w, (size_t)(q - w))) !=
		    CD_PGN_RESULT_NONE)
			goto marker;
	}
trimmed:
	ln = (struct lines){ nl, lastnl, counted };
	wide_done(r, s, &wd);
	return frame_trimmed(r, s, m, end, &ln);
marker:
	ln = (struct lines){ nl, lastnl, counted };
	wide_done(r, s, &wd);
	return frame_marker(r, s, m, p, &ln);
}

#ifdef CD_AVX2
/* movetext() with the masks by AVX2, its constants kept in registers
 * over the blocks, the prefix XOR by PCLMULQDQ and the bit operations
 * by BMI, the line ends counted by POPCNT (cd__have_clmul_bmi). */
__attribute__((target("avx2,pclmul,bmi,bmi2"), flatten)) static int
movetext_avx2(cd_pgn_reader *r, const char *s, const char *m,
    const char *ls, int blank)
{
	return movetext(r, s, m, ls, blank, SCAN_AVX2);
}
#endif

#ifdef CD_AVX2
/* The stop bytes of the 64 at b (the classes 1 to 8 of classes_avx2)
 * into *st; false when one of them is binary. */
__attribute__((target("avx2"))) static inline bool
short_block(const char *b, uint64_t *st)
{
	const __m256i nib = _mm256_set1_epi8(0x0f);
	const __m256i zero = _mm256_setzero_si256();
	__m256i c0 = classes_avx2(_mm256_loadu_si256((const void *)b));
	__m256i c1 = classes_avx2(_mm256_loadu_si256((const void *)(b + 32)));

	if (!_mm256_testz_si256(_mm256_or_si256(c0, c1),
	    _mm256_set1_epi8(CLASS_BINARY)))
		return false;
	*st = ~((uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(
	    _mm256_and_si256(c0, nib), zero)) |
	    (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(
	    _mm256_and_si256(c1, nib), zero)) << 32);
	return true;
}

/*
 * A short movetext at m (AVX2), framed at once where movetext_avx2
 * would frame it the same: the two blocks of 64 bytes at the bytes seen
 * (s + g_clean, at most 63 bytes before m: the first block the scan
 * loads), 192 bytes readable there (so that the scan loads both, and
 * the second at its place), nothing binary in them, and from m up to
 * the marker only line ends and the `-` and `/` of words that are no
 * marker (an opening book's games).  The game framed as movetext()
 * frames it (its line ends, marker, end and bytes seen: the blocks up
 * to the marker's stop); -1, r as it was, for any other stop first or
 * no marker in the blocks.
 */
__attribute__((target("avx2"))) static inline int
short_movetext(cd_pgn_reader *r, const char *s, const char *m)
{
	const char *e = r->data + r->end, *b = s + r->g_clean, *q, *w, *end;
	uint64_t st0, st1 = 0, x;
	unsigned k, i;
	bool more = false;
	cd_pgn_result res;
	struct lines ln = { 0, NULL, 1 };

	if ((uintptr_t)m - (uintptr_t)b >= 64 || e - b < 192)
		return -1;
	/* (the second block only when the scan gets there) */
	if (!short_block(b, &st0))
		return -1;
	k = (unsigned)(m - b);
	for (;;) {
		/* (the first stop from the k-th byte of the blocks on) */
		if (k < 64 && (x = st0 & (~0ULL << k)) != 0) {
			i = (unsigned)__builtin_ctzll(x);
		} else {
			if (k >= 128 || (!more && !short_block(b + 64, &st1)))
				return -1;
			more = true;
			if ((x = st1 & (k < 64 ? ~0ULL : ~0ULL << (k - 64))) ==
			    0)
				return -1;
			i = 64 + (unsigned)__builtin_ctzll(x);
		}
		q = b + i;
		if (*q == '\n') {
			ln.nl++;
			ln.lastnl = q;
			k = i + 1;
			continue;
		}
		if (*q == '*') {
			res = CD_PGN_RESULT_UNKNOWN;
			q++;
			break;
		}
		if (*q != '-' && *q != '/')
			return -1;
		/* (the word whole, as movetext() reads it) */
		for (w = q; w > m && !(CD__CLS(w[-1]) & K_DELIM); w--)
			;
		q = cd__frame_word_end(q + 1, e);
		if (q == e)
			return -1;
		if ((*w == '0' || *w == '1' || CD__U(*w) == 0xc2) &&
		    (res = cd_pgn_result_parse(w, (size_t)(q - w))) !=
		    CD_PGN_RESULT_NONE)
			break;
		k = (unsigned)(q - b);
	}
	r->g_result = res;
	r->g_clean = (size_t)(b + (i < 64 ? 64 : 128) - s);
	if (marker_usual(q, e, &ln, &end))
		return frame_done(r, s, m, q, end, &ln);
	return frame_marker(r, s, m, q, &ln);
}
/* movetext_avx2() after short_movetext() if that does not frame it. */
__attribute__((target("avx2,pclmul,bmi,bmi2"), noinline)) static int
short_movetext_avx2(cd_pgn_reader *r, const char *s, const char *m,
    const char *ls, int blank)
{
	int t = short_movetext(r, s, m);

	if (t >= 0)
		return t;
	return movetext_avx2(r, s, m, ls, blank);
}
#endif

/* A movetext shorter than this (the game before's) is tried by
 * short_movetext first. */
#define SHORT_MOVETEXT	112

int
cd__frame_movetext(cd_pgn_reader *r, const char *s, const char *m,
    const char *ls, int blank)
{
	/* wide_next skips a comment to its first `}`: not where comments
	 * nest */
	bool wide = !r->narrow &&
	    !(r->read_flags & CD_PGN_READ_NESTED_COMMENTS);

#ifdef CD_AVX2
	if (wide && cd__have_avx2 && cd__have_clmul_bmi) {
		/* (the games of a file are alike: a short one after a short
		 * one, as the opening books have them) */
		if (r->g_mt_end - r->g_mt < SHORT_MOVETEXT)
			return short_movetext_avx2(r, s, m, ls, blank);
		return movetext_avx2(r, s, m, ls, blank);
	}
#endif
#ifndef __SSE2__
	wide = false;
#endif
	/* (one copy for both, as scan is not known here) */
	return movetext(r, s, m, ls, blank, wide ? SCAN_SSE2 : SCAN_NARROW);
}
