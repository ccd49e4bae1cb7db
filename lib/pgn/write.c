/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn/write.c: a game in export format, byte for byte as
 * the export format of pgn(5) defines it (full and reduced).
 *
 * The move tree already holds each move's canonical SAN, so writing
 * needs no board: it walks the tree with an explicit stack (no
 * recursion) and fills lines of at most 79 characters (or the width
 * CD_PGN_WIDTH asks for) greedily.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pgn/bytes.h"
#include "pgn/lex.h"
#include "pgn/pgn_internal.h"

#define LINE_MAX_LEN 79	/* the export format's line length */

/* The output: a buffer and the length of the current movetext line. */
struct out {
	cd_buf *b;
	size_t col;		/* length of the current line, 0 if empty */
	bool need_num;		/* a Black move needs "N..." */
	bool fail;
	/* what is written: ~0 or 0 to and with a node's var, before and
	 * after, and its NAG flags kept; move numbers */
	uint32_t var_mask, note_mask;
	uint8_t nag_mask;
	bool nums;
	unsigned notation;	/* flags & CD_PGN_NOTATION_MASK */
	size_t width;		/* the longest movetext line */
	/* the piece names of N B R Q K in the SAN written (another
	 * language's letters or figurines; NULL: the letters as they are),
	 * pieces[i] of piece_len[i] bytes, one column each */
	const char (*pieces)[4];
	uint8_t piece_len[6];
	char letters[6][4];
	bool chess960;
};

/* Make room for n more bytes (the slow part of reserve). */
static int
grow_out(struct out *o, size_t n)
{
	if (cd_buf_reserve(o->b, n) != CD_OK) {
		o->fail = true;
		return -1;
	}
	return 0;
}

static inline int
reserve(struct out *o, size_t n)
{
	if (o->b->cap - o->b->len >= n)
		return 0;
	return grow_out(o, n);
}

/* Room for n bytes at *d, for the loops that keep the buffer's start,
 * end of text and end in locals (inline: they stay in registers); the
 * three are set again.  0, or -1 when out of memory. */
static inline int
room(struct out *o, char **data, char **d, char **end, size_t n)
{
	cd_buf *b = o->b;

	b->len = (size_t)(*d - *data);
	if (reserve(o, n) != 0)
		return -1;
	*data = b->data;
	*d = *data + b->len;
	*end = *data + b->cap;
	return 0;
}

/* room() of 48 bytes for san_loop, whose *end is 48 bytes before the
 * buffer's end. */
static inline int
room48(struct out *o, char **data, char **d, char **end)
{
	if (room(o, data, d, end, 48) != 0)
		return -1;
	*end -= 48;
	return 0;
}

/* Where a token of len bytes goes at d, the end of a line of *col
 * bytes (room reserved): after a space, at the start of a new line,
 * or first on an empty one; *col counts it. */
static inline char *
place(size_t *col, char *d, size_t len, size_t width)
{
	if (*col == 0) {
		*col = len;
	} else if (*col + 1 + len <= width) {
		*d++ = ' ';
		*col += 1 + len;
	} else {
		*d++ = '\n';
		*col = len;
	}
	return d;
}

static inline char *
token_start(struct out *o, size_t len)
{
	return place(&o->col, o->b->data + o->b->len, len, o->width);
}

/* Put one movetext token made of up to three pieces (a comment's
 * `{ ` and ` }` are joined to its first and last word), separated by a
 * space or starting a new line. */
static void
token3(struct out *o, const char *pre, size_t pn, const char *s, size_t n,
    const char *suf, size_t sn)
{
	size_t len = pn + n + sn;
	char *d;

	if (reserve(o, len + 1) != 0)
		return;
	d = token_start(o, len);
	memcpy(d, pre, pn);
	d += pn;
	memcpy(d, s, n);
	d += n;
	memcpy(d, suf, sn);
	d += sn;
	o->b->len = (size_t)(d - o->b->data);
}

static void
token(struct out *o, const char *s, size_t n)
{
	token3(o, "", 0, s, n, "", 0);
}

/* A short token (n <= 8) whose source has 8 readable bytes: one fixed
 * copy instead of a call. */
static inline void
token8(struct out *o, const char *s8, size_t n)
{
	char *d;

	if (reserve(o, 9) != 0)
		return;
	d = token_start(o, n);
	memcpy(d, s8, 8);
	o->b->len = (size_t)(d - o->b->data) + n;
}

/* The index of the last space in s[lo..hi] (0 <= lo, hi < len; none
 * when hi < lo), or -1; any of the len bytes at s may be read.  (31 ^
 * clz, the highest bit's index, is one bsr; 31 - clz is two steps more
 * on the way to the next line.) */
static inline long
last_space(const char *s, long lo, long hi, size_t len)
{
#ifdef __SSE2__
	const __m128i sp = _mm_set1_epi8(' ');
	unsigned m;

	for (; hi - lo >= 15; hi -= 16) {
		m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
		    _mm_loadu_si128((const void *)(s + hi - 15)), sp));
		if (m)
			return hi - 15 + (31 ^ __builtin_clz(m));
	}
	/* fewer than sixteen left: the sixteen from lo, when s has them,
	 * with the bits beyond hi cleared */
	if (hi >= lo && len - (size_t)lo >= 16) {
		m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
		    _mm_loadu_si128((const void *)(s + lo)), sp)) &
		    ((2u << (hi - lo)) - 1);
		return m ? lo + (31 ^ __builtin_clz(m)) : -1;
	}
#endif
	for (; hi >= lo; hi--)
		if (s[hi] == ' ')
			return hi;
	return -1;
}

/* A frame of the writer's stack: a move whose variations are written;
 * WSTACK of them on the C stack. */
struct cd__wframe {
	uint32_t node;
	uint32_t var;
};
#define WSTACK	32

#ifdef CD_AVX2
/*
 * The comments that comment() fills through a map of their spaces
 * (with AVX-512, at most SPACE_MAP bytes): the text is copied in blocks
 * of 64 bytes, and the spaces of each block, compared as it is copied,
 * are kept as bits (bit i of map[i / 64] for s[i]; none beyond the
 * text, and a word of none after the last).  Each line's cut is then a
 * bit scan in the map: the chain from one line's end to the next's is
 * a load from the map, an and and a lzcnt, where a load of the text,
 * a compare, a movemask and a bsr were.
 */
#define SPACE_MAP	512

/*
 * comment_scan()'s filling through the map of the n bytes' spaces
 * (their copy at t, the line's column 0 at a, as in comment_scan());
 * the last line's length.  The cut of a line is the highest bit of the
 * map's word that holds the line's last column x, those above x masked
 * off (the words before it when it has none in the line): x is at most
 * n + 1, so its word is in the map.  A word longer than a line ends at
 * the lowest bit from lo on.
 */
static inline size_t
fill_map(char *t, const uint64_t *map, long n, long a, long w)
{
	long lo = 0, x = a + w, q, i;
	uint64_t m;

	for (;;) {
		if (x >= n + 2)
			break;		/* the rest fits */
		if (x >= lo) {
			/* the last space of s[lo .. x] */
			q = x >> 6;
			m = map[q] & (~0ULL >> (63 - (x & 63)));
			while (m == 0 && q > lo >> 6)
				m = map[--q];
			if (m != 0 && (i = (q << 6 | 63) -
			    __builtin_clzll(m)) >= lo)
				goto cut;
		}
		if (a < -2) {
			/* not even the first word fits after the line's
			 * text: the separator a line end */
			t[-3] = '\n';
			a = -2;
			x = a + w;
			continue;
		}
		/* a word longer than a line: whole, then a new line */
		if (lo >= n)
			break;
		q = lo >> 6;
		m = map[q] & (~0ULL << (lo & 63));
		while (m == 0) {
			if (++q > (n - 1) >> 6)
				return (size_t)(n + 2 - a);
			m = map[q];
		}
		i = q * 64 + __builtin_ctzll(m);
cut:
		t[i] = '\n';
		a = i + 1;
		lo = i + 2;
		x = i + (w + 1);
	}
	return (size_t)(n + 2 - a);
}

#define WRITE_AVX512 "avx512f,avx512bw,avx512vl,avx2,bmi,bmi2,lzcnt"

/* comment_scan()'s comment of len bytes (1 <= len <= SPACE_MAP) at s,
 * copied and filled through the map of its spaces.  The blocks of 64
 * bytes are copied whole, the last loaded by a masked load (the bytes
 * beyond the comment as NULs): room for 64 bytes beyond it. */
__attribute__((target(WRITE_AVX512), noinline)) static void
comment_map512(struct out *o, const char *s, size_t len)
{
	const __m512i sp = _mm512_set1_epi8(' ');
	size_t col = o->col, k = col > 0 ? 3 : 2;
	long n = (long)len, j;
	uint64_t map[SPACE_MAP / 64 + 1];
	__m512i v;
	char *t;

	if (reserve(o, len + 5 + 64) != 0)
		return;
	t = o->b->data + o->b->len;
	t[0] = ' ';
	t[k - 2] = '{';
	t[k - 1] = ' ';
	o->b->len += k + len + 2;
	t += k;

	for (j = 0; j + 64 <= n; j += 64) {
		v = _mm512_loadu_si512((const void *)(s + j));
		_mm512_storeu_si512((void *)(t + j), v);
		map[j >> 6] = _mm512_cmpeq_epi8_mask(v, sp);
	}
	if (j < n) {
		v = _mm512_maskz_loadu_epi8(_bzhi_u64(~0ULL,
		    (unsigned)(n - j)), s + j);
		_mm512_storeu_si512((void *)(t + j), v);
		map[j >> 6] = _mm512_cmpeq_epi8_mask(v, sp);
		j += 64;
	}
	map[j >> 6] = 0;
	t[n] = ' ';
	t[n + 1] = '}';
	o->col = fill_map(t, map, n, -(long)(col + k), (long)o->width);
}
#endif

/*
 * A comment (already folded: single spaces, trimmed, not empty).  Each
 * word is a token, `{ ` joined to the first and ` }` to the last, and
 * a word longer than a line stands alone on its line.  The comment is
 * copied whole as "{ " text " }" (after a separator when the line is
 * not empty); filling then only turns some of its spaces (never the two
 * that join the braces) into line ends, one store a line.  Places are
 * indices of s (t[i] is the copy of s[i]; the `{ ` at -2 and -1, the
 * separator at -3): a, where the line's column 0 is; its last column
 * is a + width.  A cut is the last space of s[lo .. a + width], lo the
 * line's second byte (0 on the first line), and the usual line (after
 * a cut, the rest longer than it) finds it in the last sixteen bytes
 * of that window: one load, compare and bsr a line.  The spaces are
 * looked for in s, not in the copy: a load of bytes just stored,
 * across the stores' edges, waits for them to be written.
 */
static __attribute__((noinline)) void
comment_scan(struct out *o, const char *s, size_t len)
{
	size_t col = o->col, k = col > 0 ? 3 : 2;
	long n = (long)len, w = (long)o->width, a = -(long)(col + k), lo = 0;
	long x, i;
	bool whole = false;	/* after a cut, w >= 16: the usual line */
	const char *sp;
	char *t;

	if (reserve(o, len + 5) != 0)
		return;
	t = o->b->data + o->b->len;
	t[0] = ' ';
	t[k - 2] = '{';
	t[k - 1] = ' ';
	memcpy(t + k, s, len);
	t[k + len] = ' ';
	t[k + len + 1] = '}';
	o->b->len += k + len + 2;
	t += k;
	for (;;) {
		x = a + w;
		if (x >= n + 2)
			break;		/* the rest fits */
#ifdef __SSE2__
		if (whole && x < n) {
			unsigned m = (unsigned)_mm_movemask_epi8(cd__eq8(
			    _mm_loadu_si128((const void *)(s + x - 15)),
			    ' '));

			if (m != 0) {
				i = x - 15 + (31 ^ __builtin_clz(m));
				goto cut;
			}
		}
#endif
		i = last_space(s, lo, x < n ? x : n - 1, len);
		if (i < 0) {
			if (a < -2) {
				/* not even the first word fits after the
				 * line's text: the separator a line end */
				t[-3] = '\n';
				a = -2;
				continue;
			}
			/* a word longer than a line: whole, then a new line */
			sp = lo < n ? memchr(s + lo, ' ', len - (size_t)lo) :
			    NULL;
			if (sp == NULL)
				break;
			i = sp - s;
		}
cut:
		t[i] = '\n';
		a = i + 1;
		lo = a + 1;
		whole = w >= 16;
	}
	o->col = (size_t)(n + 2 - a);
}

/* A comment: with AVX-512, up to SPACE_MAP bytes, comment_map512,
 * else comment_scan. */
static inline void
comment(struct out *o, const char *s, size_t len)
{
#ifdef CD_AVX2
	if (cd__have_avx512 && len <= SPACE_MAP) {
		comment_map512(o, s, len);
		return;
	}
#endif
	comment_scan(o, s, len);
}

static void
notes(struct out *o, const cd_game *g, uint32_t i)
{
	for (; i; i = g->notes[i].next) {
		const cd_game_note *nt = &g->notes[i];

		if (nt->kind != CD_NOTE_COMMENT)
			continue;
		comment(o, g->str + nt->text, nt->len);
		o->need_num = true;
	}
}

/* The decimal digits of 0 .. 99, two by two. */
static const char digit_pairs[200] =
    "00010203040506070809101112131415161718192021222324"
    "25262728293031323334353637383940414243444546474849"
    "50515253545556575859606162636465666768697071727374"
    "75767778798081828384858687888990919293949596979899";

/* The two digits of n < 100 as a little-endian word. */
static inline uint64_t
pair_le(unsigned long n)
{
	return (uint64_t)(unsigned char)digit_pairs[2 * n] |
	    (uint64_t)(unsigned char)digit_pairs[2 * n + 1] << 8;
}

/* "12." or "12..." for n < 1000 as a little-endian word (the text in
 * its low bytes, zeros above: built in a register, as bytes stored one
 * by one and read back as eight would stall); its length in *len. */
static inline uint64_t
number_le(unsigned long n, bool black, size_t *len)
{
	uint64_t v;
	size_t k;

	if (n < 10) {
		v = '0' + n;
		k = 1;
	} else if (n < 100) {
		v = pair_le(n);
		k = 2;
	} else {
		v = ('0' + n / 100) | pair_le(n % 100) << 8;
		k = 3;
	}
	v |= (uint64_t)(black ? 0x2e2e2e : 0x2e) << (8 * k);	/* "..." */
	*len = k + (black ? 3 : 1);
	return v;
}

/* " n. " for White's move n < 1000 as a little-endian word, its
 * length (4 to 6) in the top byte, which the SAN stored after it
 * writes over: white_numbers[n], built by the compiler. */
#define WN_D(n, i)	((uint64_t)('0' + (n)) << (8 * (i)))
#define WN_TEXT(n) \
	((n) < 10 ? 0x20 | WN_D(n, 1) | (uint64_t)0x202e << 16 : \
	(n) < 100 ? 0x20 | WN_D((n) / 10, 1) | WN_D((n) % 10, 2) | \
	(uint64_t)0x202e << 24 : \
	0x20 | WN_D((n) / 100, 1) | WN_D((n) / 10 % 10, 2) | \
	WN_D((n) % 10, 3) | (uint64_t)0x202e << 32)
#define WN(n) \
	(WN_TEXT(n) | (uint64_t)((n) < 10 ? 4 : (n) < 100 ? 5 : 6) << 56)
#define WN10(n)	WN(n), WN(n + 1), WN(n + 2), WN(n + 3), WN(n + 4), \
	WN(n + 5), WN(n + 6), WN(n + 7), WN(n + 8), WN(n + 9)
#define WN100(n) WN10(n), WN10(n + 10), WN10(n + 20), WN10(n + 30), \
	WN10(n + 40), WN10(n + 50), WN10(n + 60), WN10(n + 70), \
	WN10(n + 80), WN10(n + 90)
static const uint64_t white_numbers[1000] = {
	WN100(0), WN100(100), WN100(200), WN100(300), WN100(400),
	WN100(500), WN100(600), WN100(700), WN100(800), WN100(900)
};
#undef WN100
#undef WN10
#undef WN
#undef WN_TEXT
#undef WN_D

/* Store the little-endian word v at d, its eight bytes in memory
 * order. */
static inline void
store_le64(char *d, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	memcpy(d, &v, 8);
}

/* "1000." or "1000..." (shorter numbers: put_move) */
static void
move_number(struct out *o, unsigned long n, bool black)
{
	char buf[40], *p;
	size_t len;

	memset(buf, 0, sizeof(buf));
	p = buf + 24;
	if (black) {
		*--p = '.';
		*--p = '.';
	}
	*--p = '.';
	do {
		*--p = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	len = (size_t)(buf + 24 - p);
	if (len <= 8)
		token8(o, p, len);	/* buf has 16 bytes after p */
	else
		token(o, p, len);
}

/* The NAGs of a set, in ascending order: "$n" tokens. */
static void
nags(struct out *o, const cd_game_nagset *set)
{
	int w;

	for (w = 0; w < 4; w++) {
		uint64_t bits = set->bits[w];

		while (bits) {
			int n = 64 * w + __builtin_ctzll(bits);
			char buf[24];

			bits &= bits - 1;
			buf[0] = '$';
			token(o, buf, (size_t)(cd__put_uint(buf + 1,
			    (uint64_t)n) - buf));
		}
	}
	o->need_num = true;
}

/*
 * The move of nd in the notation of o (CD_PGN_LAN ...) into node *t, a
 * copy of nd whose san it replaces (at most 7 bytes: "Ng1f3+",
 * "e7e8Q#", "e5f6ep+" with CD_PGN_ELAN); t.  Castling is the king's move ("e1g1"; in Chess960 its
 * move onto the rook, as UCI writes it there); a null move stays "--".
 */
static const cd_game_node *
notation_node(const struct out *o, const cd_game_node *nd, cd_game_node *t)
{
	cd_move m = nd->move;
	int from = CD_MOVE_FROM(m), to = CD_MOVE_TO(m);
	char *d = t->san;

	*t = *nd;
	if (m == CD_MOVE_NULL)
		return t;
	if (CD_MOVE_KIND(m) == CD_MK_CASTLE && !o->chess960)
		to = cd_castle_king_to(m);
	if (o->notation == CD_PGN_ELAN && strchr("NBRQK", nd->san[0]) != NULL)
		*d++ = nd->san[0];
	*d++ = (char)('a' + (from & 7));
	*d++ = (char)('1' + (from >> 3));
	if (o->notation == CD_PGN_HLAN)
		*d++ = '-';
	*d++ = (char)('a' + (to & 7));
	*d++ = (char)('1' + (to >> 3));
	if (CD_MOVE_KIND(m) == CD_MK_EP && o->notation == CD_PGN_ELAN) {
		*d++ = 'e';	/* (as pgn-extract -Welalg) */
		*d++ = 'p';
	}
	if (CD_MOVE_IS_PROMO(m))
		*d++ = "nbrq"[CD_MOVE_PROMO_TYPE(m) - CD_KNIGHT] -
		    (o->notation == CD_PGN_UCI ? 0 : 'a' - 'A');
	if (o->notation != CD_PGN_UCI && (nd->flags & (CD_NODE_CHECK |
	    CD_NODE_MATE)))
		*d++ = nd->flags & CD_NODE_MATE ? '#' : '+';
	t->san_len = (uint8_t)(d - t->san);
	memset(d, 0, sizeof(t->san) - t->san_len);
	return t;
}

/* A move's number when it is due (num_due, or White's move) and its
 * SAN, at d, the end of a line of *col bytes (room reserved: 32
 * bytes); the end of what it wrote.  num is below 1000 (white_numbers,
 * number_le): each caller writes the longer numbers its own way.  When
 * the number and the move both go on the line (the usual case), " 12. "
 * is one word stored at once and the line's end decided once for the
 * two. */
static inline __attribute__((always_inline)) char *
put_move(char *d, size_t *col, const char *san, size_t san_len, size_t cols,
    unsigned long num, bool white, bool num_due, bool nums, size_t width)
{
	if (nums && white) {
		/* " 12. ", its length in the top byte */
		uint64_t w = white_numbers[num];
		size_t k = (size_t)(w >> 56), c = *col;

		if (c != 0 && c + k + cols <= width) {
			store_le64(d, w);
			d += k;
			*col = c + k + cols;
			goto san;
		}
		if (c == 0 && k - 1 + cols <= width) {
			store_le64(d, w >> 8);
			d += k - 1;
			*col = k - 1 + cols;
			goto san;
		}
		/* "12." (the space after it written over next) */
		d = place(col, d, k - 2, width);
		store_le64(d, w >> 8);
		d += k - 2;
	} else if (nums && num_due) {
		size_t k, c = *col;
		uint64_t v = number_le(num, true, &k);

		if (c != 0 && c + 2 + k + cols <= width) {
			/* " 12. " (at most seven bytes), then the SAN */
			store_le64(d, ' ' | v << 8 |
			    (uint64_t)' ' << (8 * (k + 1)));
			d += k + 2;
			*col = c + 2 + k + cols;
			goto san;
		}
		if (c == 0 && k + 1 + cols <= width) {
			store_le64(d, v | (uint64_t)' ' << (8 * k));
			d += k + 1;
			*col = k + 1 + cols;
			goto san;
		}
		d = place(col, d, k, width);
		store_le64(d, v);
		d += k;
	}
	d = place(col, d, cols, width);
san:
	memcpy(d, san, 8);	/* san: 8 readable bytes, more when longer */
	if (san_len > 8)
		memcpy(d + 8, san + 8, san_len - 8);
	return d + san_len;
}

/* The piece index (1 N .. 5 K) of a SAN byte, 0 for the others. */
static inline int
piece_index(char c)
{
	switch (c) {
	case 'N': return 1;
	case 'B': return 2;
	case 'R': return 3;
	case 'Q': return 4;
	case 'K': return 5;
	default: return 0;
	}
}

/* The SAN of nd with the piece names of o (o->pieces set) into tb (of
 * 24 bytes: at most 7 bytes, each of up to 3); its length in bytes,
 * *cols in columns. */
static size_t
translate(const struct out *o, const cd_game_node *nd, char *tb,
    size_t *cols)
{
	size_t i, n = 0;

	for (i = 0; i < nd->san_len; i++) {
		int k = piece_index(nd->san[i]);

		if (k == 0) {
			tb[n++] = nd->san[i];
		} else {
			memcpy(tb + n, o->pieces[k], 4);
			n += o->piece_len[k];
		}
	}
	*cols = nd->san_len;
	memset(tb + n, 0, 24 - n);
	return n;
}

static void
write_move(struct out *o, const cd_game *g, uint32_t i)
{
	const cd_game_node *nd = &g->nodes[i];
	cd_game_node tn;
	int mover = cd__game_mover(g, nd->ply);
	unsigned long num;
	const char *san;
	size_t san_len, cols;
	char tb[24];

	/* before the first move of a variation: NAGs, then comments
	 * (export-format.md rule 10) */
	if (nd->flags & o->nag_mask & CD_NODE_NAGS_BEFORE)
		nags(o, &g->nagsets[nd->nags + 1]);
	if (nd->before & o->note_mask)
		notes(o, g, nd->before);
	/* the number when due and the SAN as plain_moves() writes them;
	 * numbers of four digits and more token by token */
	num = cd__game_move_number(g, nd->ply);
	if (o->notation != 0)
		nd = notation_node(o, nd, &tn);
	san = nd->san;
	san_len = cols = nd->san_len;
	if (o->pieces != NULL) {
		san_len = translate(o, nd, tb, &cols);
		san = tb;
	}
	if (num < 1000) {
		char *d;

		if (reserve(o, 48) != 0)
			return;
		d = put_move(o->b->data + o->b->len, &o->col, san, san_len,
		    cols, num, mover == CD_WHITE, o->need_num, o->nums,
		    o->width);
		o->b->len = (size_t)(d - o->b->data);
	} else {
		char *d;

		if (o->nums && (mover == CD_WHITE || o->need_num))
			move_number(o, num, mover != CD_WHITE);
		if (reserve(o, san_len + 1) != 0)
			return;
		d = place(&o->col, o->b->data + o->b->len, cols, o->width);
		memcpy(d, san, san_len);
		o->b->len = (size_t)(d - o->b->data) + san_len;
	}
	o->need_num = false;
	if (nd->flags & o->nag_mask & CD_NODE_NAGS)
		nags(o, &g->nagsets[nd->nags]);
	if (nd->after & o->note_mask)
		notes(o, g, nd->after);
}

/* Whether the move of nd has something around it that the plain
 * writers (san_loop, plain_moves) leave to write_move(): a variation,
 * notes or NAGs, as the masks (o's) keep them. */
static inline bool
around(const cd_game_node *nd, uint32_t var_mask, uint32_t note_mask,
    uint8_t nag_mask)
{
	return ((nd->var & var_mask) | ((nd->before | nd->after) &
	    note_mask) | (nd->flags & nag_mask)) != 0;
}

/* A White move and Black's answer, nodes a and b (their SAN of l1 and
 * l2 bytes, fewer than 8), at d: the number's word w (white_numbers[]:
 * " 12. ", k bytes, or shifted right by a byte, "12. " of k - 1, at a
 * line's start), a's SAN, a space and b's, stored at once; the end. */
static inline char *
put_pair(char *d, uint64_t w, size_t k, const cd_game_node *a, size_t l1,
    const cd_game_node *b, size_t l2)
{
	store_le64(d, w);
	d += k;
	memcpy(d, a->san, 8);
	d[l1] = ' ';
	memcpy(d + l1 + 1, b->san, 8);
	return d + l1 + 1 + l2;
}

/* The end of a put_pair_break and its line's length. */
struct pair_end {
	char *d;
	size_t col;
};

/* put_pair's " 12. Nf3 Nc6" (w: white_numbers[]) at d after a line of
 * col bytes (not 0) where the three do not go on the line together:
 * each of the three tokens ("12.", the two moves) after a space or a
 * line end, as place() would put them one by one.  The stores are
 * put_pair's, the number's two separators and Black's written over.
 * Out of line: the lines of a game end a few times, and san_loop's
 * registers stay its own. */
static __attribute__((noinline)) struct pair_end
put_pair_break(char *d, size_t col, size_t width, uint64_t w,
    const cd_game_node *a, const cd_game_node *b)
{
	const size_t k = (size_t)(w >> 56), l1 = a->san_len, l2 = b->san_len;
	size_t c = col + k - 1;		/* after " 12." */
	char s1 = ' ', s2 = ' ', s3 = ' ';
	struct pair_end r;

	if (c > width) {
		s1 = '\n';
		c = k - 2;
	}
	if ((c += 1 + l1) > width) {
		s2 = '\n';
		c = l1;
	}
	if ((c += 1 + l2) > width) {
		s3 = '\n';
		c = l2;
	}
	r.d = put_pair(d, w, k, a, l1, b, l2);
	r.col = c;
	d[0] = s1;
	d[k - 1] = s2;
	d[k + l1] = s3;
	return r;
}

/*
 * plain_moves in the usual export (SAN as the game holds it, with move
 * numbers): the moves from node n on that have nothing around them, in
 * a loop of its own with few values live; the first node it leaves (0
 * at the line's end, or when out of memory: o->fail).  Most of the
 * moves go two by two: a White move and Black's answer, " 12. Nf3 Nc6"
 * stored at once, the line's end decided once for the three when they
 * go on the line together (else token by token: put_pair_break), the
 * number counted from pair to pair (a line's moves are one ply apart).
 * A SAN has at most 7 bytes (eight stored).  The others go one by one
 * through put_move, their number from the ply (ply + 2 fullmove + side
 * - 1 is twice the number, plus one for Black).  With notes false the
 * game has no notes and no NAGs (their indexes in nodes are then all
 * 0), and only variations are looked for, all of them (var_mask ~0).
 * Room: 48 bytes at d, or more, before each move or pair (end: 48 bytes
 * before the buffer's end).
 */
static inline __attribute__((always_inline)) uint32_t
san_loop(struct out *o, const cd_game *g, uint32_t n, bool notes)
{
	cd_buf *b = o->b;
	char *data, *d, *end;
	size_t col = o->col;
	const size_t width = o->width;
	bool need_num = o->need_num;
	const uint32_t var_mask = notes ? o->var_mask : ~0u;
	const uint32_t note_mask = notes ? o->note_mask : 0;
	const uint8_t nag_mask = notes ? o->nag_mask : 0;
	const cd_game_node *const nodes = g->nodes;
	const unsigned long a = 2 * (unsigned long)g->start.fullmove +
	    g->start.side - 1;

	if (reserve(o, 48) != 0)
		return 0;
	data = b->data;
	d = data + b->len;
	end = data + b->cap - 48;

	for (; n != 0; n = nodes[n].next) {
		const cd_game_node *nd = &nodes[n], *nb;
		unsigned long t = nd->ply + a, num = t >> 1;
		uint32_t m;

		if (num >= 1000 || around(nd, var_mask, note_mask, nag_mask))
			break;
		if (d > end && room48(o, &data, &d, &end) != 0)
			return 0;
		if ((t & 1) != 0)
			goto one;
		if (col == 0) {
			/* "1. e4 e5" first on a line (the movetext's start) */
			uint64_t v = white_numbers[num];
			size_t k = (size_t)(v >> 56) - 1, l1, l2;

			if ((m = nd->next) == 0 || around(nb = &nodes[m],
			    var_mask, note_mask, nag_mask) ||
			    k + (l1 = nd->san_len) + 1 + (l2 = nb->san_len) >
			    width)
				goto one;
			d = put_pair(d, v >> 8, k, nd, l1, nb, l2);
			col = k + l1 + 1 + l2;
			goto next;
		}
		/* pairs while they go on the line */
		while ((m = nd->next) != 0 && !around(nb = &nodes[m],
		    var_mask, note_mask, nag_mask)) {
			uint64_t v = white_numbers[num];
			size_t k = (size_t)(v >> 56);
			size_t l1 = nd->san_len, l2 = nb->san_len;
			size_t c = col + k + l1 + 1 + l2;

			if (c <= width) {
				d = put_pair(d, v, k, nd, l1, nb, l2);
				col = c;
			} else {
				struct pair_end r = put_pair_break(d, col,
				    width, v, nd, nb);

				d = r.d;
				col = r.col;
			}
next:
			need_num = false;
			if ((n = nb->next) == 0)
				goto done;
			nd = &nodes[n];
			if (++num >= 1000 ||
			    around(nd, var_mask, note_mask, nag_mask))
				goto done;
			if (d > end && room48(o, &data, &d, &end) != 0)
				return 0;
		}
		/* (a White move here: t's parity holds, num is nd's) */
		t = 0;
one:
		d = put_move(d, &col, nd->san, nd->san_len, nd->san_len, num,
		    (t & 1) == 0, need_num, true, width);
		need_num = false;
	}
done:
	b->len = (size_t)(d - data);
	o->col = col;
	o->need_num = need_num;
	return n;
}

static __attribute__((noinline)) uint32_t
san_moves(struct out *o, const cd_game *g, uint32_t n)
{
	if (g->nnotes <= 1 && g->nnagsets <= 1 && o->var_mask != 0)
		return san_loop(o, g, n, false);
	return san_loop(o, g, n, true);
}

/*
 * The moves from node n on that have notes after them and nothing else
 * around them, in the usual export (SAN as the game holds it, with
 * move numbers): each move as put_move() puts it, then its comments
 * (engine games comment on every move); the first node left (0 at the
 * line's end, or when out of memory: o->fail).
 */
static __attribute__((noinline)) uint32_t
noted_moves(struct out *o, const cd_game *g, uint32_t n)
{
	cd_buf *b = o->b;
	const uint32_t var_mask = o->var_mask, note_mask = o->note_mask;
	const uint8_t nag_mask = o->nag_mask;
	const cd_game_node *const nodes = g->nodes;
	const unsigned long a = 2 * (unsigned long)g->start.fullmove +
	    g->start.side - 1;

	for (; n != 0; n = nodes[n].next) {
		const cd_game_node *nd = &nodes[n];
		unsigned long t = nd->ply + a, num = t >> 1;
		size_t col;

		if (num >= 1000 || (nd->after & note_mask) == 0 ||
		    ((nd->var & var_mask) | (nd->before & note_mask) |
		    (nd->flags & nag_mask)) != 0)
			break;
		if (reserve(o, 48) != 0)
			return 0;
		col = o->col;
		b->len = (size_t)(put_move(b->data + b->len, &col, nd->san,
		    nd->san_len, nd->san_len, num, (t & 1) == 0, o->need_num,
		    true, o->width) - b->data);
		o->col = col;
		o->need_num = false;
		notes(o, g, nd->after);
		if (o->fail)
			return 0;
	}
	return n;
}

/* A run of moves from node n (san_moves, noted_moves) handed the
 * line's state that plain_moves keeps in locals (the buffer's place
 * and end, the column, whether a number is due), which it takes back
 * after: the run's answer. */
static inline __attribute__((always_inline)) uint32_t
hand_to(uint32_t (*run)(struct out *, const cd_game *, uint32_t),
    struct out *o, const cd_game *g, uint32_t n, char **data, char **d,
    char **end, size_t *col, bool *need_num)
{
	cd_buf *b = o->b;

	b->len = (size_t)(*d - *data);
	o->col = *col;
	o->need_num = *need_num;
	n = run(o, g, n);
	*data = b->data;
	*d = *data + b->len;
	*end = *data + b->cap;
	*col = o->col;
	*need_num = o->need_num;
	return n;
}

/*
 * The moves from node n on that have nothing around them (no NAGs,
 * notes or variations; in reduced form every move), as write_move()
 * writes them, with the line's state in locals; the first node left
 * to write_move() (0 at the line's end, or when out of memory).  A
 * move with notes after it and nothing else is written here too, its
 * notes through o: engine games comment on every move (in the usual
 * export such moves go to noted_moves, as the plain ones to san_moves).
 */
static uint32_t
plain_moves(struct out *o, const cd_game *g, uint32_t n)
{
	cd_buf *b = o->b;
	char *data = b->data, *d = data + b->len, *end = data + b->cap;
	size_t col = o->col, width = o->width;
	bool need_num = o->need_num, nums = o->nums;
	const uint32_t var_mask = o->var_mask, note_mask = o->note_mask;
	const uint8_t nag_mask = o->nag_mask;
	/* (in locals: the stores through d could alias them) */
	const cd_game_node *const nodes = g->nodes;
	const unsigned long fullmove = g->start.fullmove;
	const uint32_t side = (uint32_t)g->start.side;
	const bool plain = o->notation == 0 && o->pieces == NULL;
	const bool fast = plain && nums;

	for (; n != 0; n = nodes[n].next) {
		const cd_game_node *nd;
		unsigned long num;
		bool white;
		cd_game_node tn;
		char tb[24];

		nd = &nodes[n];
		num = fullmove + ((unsigned long)nd->ply - 1 + side) / 2;
		/* (a move with notes, NAGs or variations stops san_moves at
		 * once: not called for it, as after every move of a game
		 * commented throughout) */
		if (fast && num < 1000 &&
		    !around(nd, var_mask, note_mask, nag_mask)) {
			n = hand_to(san_moves, o, g, n, &data, &d, &end, &col,
			    &need_num);
			if (o->fail)
				return 0;
			if (n == 0)
				break;
			nd = &nodes[n];
			num = fullmove + ((unsigned long)nd->ply - 1 + side) /
			    2;
		}
		if (fast && (nd->after & note_mask) != 0) {
			n = hand_to(noted_moves, o, g, n, &data, &d, &end, &col,
			    &need_num);
			if (o->fail)
				return 0;
			if (n == 0)
				break;
			nd = &nodes[n];
			num = fullmove + ((unsigned long)nd->ply - 1 + side) /
			    2;
		}
		white = ((side + nd->ply - 1) & 1) == CD_WHITE;
		if (num >= 1000 || around(nd, var_mask, note_mask, nag_mask))
			goto more;
		if (end - d < 48 && room(o, &data, &d, &end, 48) != 0)
			return 0;
		if (plain) {
			d = put_move(d, &col, nd->san, nd->san_len,
			    nd->san_len, num, white, need_num, nums, width);
			need_num = false;
			continue;
		}
		if (o->notation != 0)
			nd = notation_node(o, nd, &tn);
		if (o->pieces != NULL) {
			size_t cols, len = translate(o, nd, tb, &cols);

			d = put_move(d, &col, tb, len, cols, num, white,
			    need_num, nums, width);
		} else {
			d = put_move(d, &col, nd->san, nd->san_len,
			    nd->san_len, num, white, need_num, nums, width);
		}
		need_num = false;
		continue;
more:
		/* (all else left out: num >= 1000 here) */
		if (num >= 1000 || (nd->var & var_mask) | (nd->before &
		    note_mask) | (nd->flags & nag_mask))
			break;
		/* only notes after it: the same, then them */
		b->len = (size_t)(d - data);
		if (reserve(o, 48) != 0)
			return 0;
		if (o->notation != 0)
			nd = notation_node(o, nd, &tn);
		if (o->pieces != NULL) {
			size_t cols, len = translate(o, nd, tb, &cols);

			d = put_move(b->data + b->len, &col, tb, len, cols,
			    num, white, need_num, nums, width);
		} else {
			d = put_move(b->data + b->len, &col, nd->san,
			    nd->san_len, nd->san_len, num, white, need_num,
			    nums, width);
		}
		b->len = (size_t)(d - b->data);
		o->col = col;
		o->need_num = false;
		notes(o, g, nd->after);
		if (o->fail)
			return 0;
		data = b->data;
		d = data + b->len;
		end = data + b->cap;
		col = o->col;
		need_num = o->need_num;
	}
	b->len = (size_t)(d - data);
	o->col = col;
	o->need_num = need_num;
	return n;
}

/* Whether the n bytes at s hold a `\` or `"` (only looked at when some
 * tag value of the game holds one). */
static bool
has_escape(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] == '\\' || s[i] == '"')
			return true;
	return false;
}

/* A tag value at d (room reserved), `\` and `"` escaped when quotes
 * and it holds one; the end of what it wrote. */
static inline char *
tag_value(char *d, const char *v, size_t n, bool quotes)
{
	size_t i;

	if (!quotes || !has_escape(v, n)) {
		cd__copy_small(d, v, n);
		return d + n;
	}
	for (i = 0; i < n; i++) {
		if (v[i] == '\\' || v[i] == '"')
			*d++ = '\\';
		*d++ = v[i];
	}
	return d;
}

/* A tag line at d: [Name "value"] with \ and " escaped (none to
 * escape unless quotes); the end of what it wrote. */
static char *
tag_line(char *d, const cd_game_xtag *x, bool quotes)
{
	*d++ = '[';
	cd__copy_small(d, x->name, x->name_len);
	d += x->name_len;
	*d++ = ' ';
	*d++ = '"';
	d = tag_value(d, x->value, x->value_len, quotes);
	*d++ = '"';
	*d++ = ']';
	*d++ = '\n';
	return d;
}

/* The tag section: its lines and the empty line after them, with one
 * reservation (room for every byte of a value escaped when some value
 * holds \ or "). */
static void
tag_section(struct out *o, const cd_game_xtags *xt, bool quotes)
{
	size_t i, need = 1;
	char *d;

	for (i = 0; i < xt->n; i++)
		need += xt->tags[i].name_len + xt->tags[i].value_len *
		    (quotes ? 2 : 1) + 6;
	if (reserve(o, need) != 0)
		return;
	d = o->b->data + o->b->len;
	for (i = 0; i < xt->n; i++)
		d = tag_line(d, &xt->tags[i], quotes);
	*d++ = '\n';
	o->b->len = (size_t)(d - o->b->data);
}

/* The termination markers by cd_pgn_result, in eight bytes each. */
static const char result8[5][8] = { "", "1-0", "0-1", "1/2-1/2", "*" };

/* The game's result (cd_game_result) as an index of result8. */
static inline cd_pgn_result
result_of(const cd_game *g)
{
	/* (the movetext's marker, when it has one, without the call) */
	cd_pgn_result r = g->result != CD_PGN_RESULT_NONE ? g->result :
	    cd_game_result(g);

	return (unsigned)r < 5 ? r : CD_PGN_RESULT_NONE;
}

/* The roster's default values (none for Result), in sixteen bytes. */
static const char roster_default[7][16] = { "?", "?", "????.??.??", "?",
    "?", "?", "" };

/* The roster's tag lines up to the value's quote, after the end of
 * the line before (none before Event's), padded to sixteen bytes to be
 * copied whole, with their lengths. */
static const char roster_open[7][16] = { "[Event \"", "\"]\n[Site \"",
    "\"]\n[Date \"", "\"]\n[Round \"", "\"]\n[White \"", "\"]\n[Black \"",
    "\"]\n[Result \"" };
static const unsigned char roster_open_len[7] = { 8, 10, 10, 11, 11, 11,
    12 };

/* The value of n bytes at str + off at d (room reserved, and sixteen
 * bytes beyond), as tag_value writes it: a short one that the string
 * store holds sixteen bytes of in one move.  lim: the string store's
 * capacity, 0 when quotes (some value to escape).  (Also a tag's name,
 * never escaped: quotes false.) */
static inline char *
game_value(char *d, const char *str, size_t off, size_t n, bool quotes,
    size_t lim)
{
	if (n <= 16 && off + 16 <= lim) {
		memcpy(d, str + off, 16);
		return d + n;
	}
	return tag_value(d, str + off, n, quotes);
}

/* The line of roster tag i (KT_EVENT .. KT_BLACK) at d, as
 * tag_section_direct writes it, with the end of the line before and
 * without its own; the end of what it wrote.  known NULL: the game's
 * tag i is the roster's tag i (cd__roster_first).  Inlined
 * with i a constant: its opening and default are fixed words.  str
 * and tags: g's, read once (a byte written could be g's as the
 * compiler sees it, and have them read again for each line). */
static inline __attribute__((always_inline)) char *
roster_line(char *d, int i, const char *str, const cd_game_tag *tags,
    const uint32_t *known, bool quotes, size_t lim)
{
	memcpy(d, roster_open[i], 16);
	d += roster_open_len[i];
	if (known == NULL) {	/* the roster first, in its order */
		d = game_value(d, str, tags[i].value, tags[i].value_len,
		    quotes, lim);
	} else if (known[i] != 0) {
		const cd_game_tag *t = &tags[known[i] - 1];

		d = game_value(d, str, t->value, t->value_len, quotes, lim);
	} else {
		memcpy(d, roster_default[i], 16);
		d += i == KT_DATE ? 10 : 1;
	}
	return d;
}

/* The roster's lines but Result's (roster_line). */
static inline __attribute__((always_inline)) char *
roster_lines(char *d, const char *str, const cd_game_tag *tags,
    const uint32_t *known, bool quotes, size_t lim)
{
	d = roster_line(d, KT_EVENT, str, tags, known, quotes, lim);
	d = roster_line(d, KT_SITE, str, tags, known, quotes, lim);
	d = roster_line(d, KT_DATE, str, tags, known, quotes, lim);
	d = roster_line(d, KT_ROUND, str, tags, known, quotes, lim);
	d = roster_line(d, KT_WHITE, str, tags, known, quotes, lim);
	return roster_line(d, KT_BLACK, str, tags, known, quotes, lim);
}

/* A tag name's first eight bytes as a big-endian word: of two names
 * whose words differ, the one with the smaller word sorts first, and
 * names of equal words are told apart by name_before.  (A name ends in
 * its NUL, below its bytes: two names of a game, which differ, differ
 * at the shorter one's NUL at the latest, so what follows a NUL never
 * decides.)  The eight bytes at s are readable: g->str keeps eight
 * bytes from each name (tags_block sixteen after the block, tag_add
 * eight after a new name's value). */
static inline uint64_t
name_key(const char *s)
{
	uint64_t w;

	memcpy(&w, s, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

/* Whether tag a's name sorts before tag b's (byte order, as
 * cd_game_export_tags sorts them). */
static inline bool
name_before(const cd_game *g, const cd_game_tag *a, const cd_game_tag *b)
{
	const char *x = g->str + a->name, *y = g->str + b->name;
	size_t n = a->name_len < b->name_len ? a->name_len : b->name_len;
	int c;

	/* (names are NUL-terminated: an empty one has its NUL there) */
	if (x[0] != y[0])
		return (unsigned char)x[0] < (unsigned char)y[0];
	c = memcmp(x, y, n);
	return c < 0 || (c == 0 && a->name_len < b->name_len);
}

/*
 * The last tag section tag_section_direct wrote from a game's tags when
 * they were a block the reader gave (gen: the game's tags_gen, a
 * number no other block of any game had) and the same bytes as the
 * game's before (in opening books every game's), of ntags tags, with
 * key (the result and the form): written again as it is while a
 * game's tags are that block.  One a thread, not in the game: writing
 * changes nothing in a game, and threads may write one game at once.
 * The default TLS model: the initial-exec one would save a call of
 * __tls_get_addr a game, but its block can make dlopen of the library
 * fail in a process whose static TLS surplus is spent.
 */
#define MEMO_MAX	256
struct tag_memo {
	uint64_t gen;
	size_t ntags, len;
	unsigned key;
	char text[MEMO_MAX];
};
static __thread struct tag_memo tag_memo;

/* The memo's key of a tag section (its result and form). */
static inline unsigned
memo_key(cd_pgn_result r, bool reduced)
{
	return (unsigned)r << 1 | reduced;
}

/* The tag section of g (whose tags are a block again: tb_again) from
 * the memo when it is g's, written as tag_section_direct would;
 * whether it was. */
static inline bool
memo_section(struct out *o, const cd_game *g, bool reduced, cd_pgn_result r)
{
	const struct tag_memo *m = &tag_memo;
	size_t len;

	/* (the memo's address kept: GCC would look it up again, a call of
	 * __tls_get_addr, for the copy) */
	__asm__("" : "+r"(m));
	len = m->len;
	if (g->priv->tags_gen < 2 || m->gen != g->priv->tags_gen ||
	    m->ntags != g->ntags || m->key != memo_key(r, reduced) ||
	    g->has_fen || g->chess960)
		return false;
	/* (a short one, as the roster alone is, copied as 128 bytes: no
	 * call) */
	if (len <= 128 && reserve(o, 128) == 0)
		memcpy(o->b->data + o->b->len, m->text, 128);
	else if (len > 128 && reserve(o, len) == 0)
		memcpy(o->b->data + o->b->len, m->text, len);
	if (!o->fail)
		o->b->len += len;
	return true;
}

/* Keep the tag section tag_section_direct wrote from g's tags (a block
 * again), the len bytes at s, in the memo. */
static void
memo_keep(const cd_game *g, bool reduced, cd_pgn_result r, const char *s,
    size_t len)
{
	struct tag_memo *m = &tag_memo;

	if (len > MEMO_MAX || g->ntags == 0 || g->priv->tags_gen < 2)
		return;
	m->gen = g->priv->tags_gen;
	m->ntags = g->ntags;
	m->key = memo_key(r, reduced);
	m->len = len;
	memcpy(m->text, s, len);
}

/*
 * The tag section as tag_section writes cd_game_export_tags' tags,
 * straight from the game's tags, when the export adds no tag but the
 * roster's defaults: a game with no FEN tag or start of its own, not
 * Chess960, and at most 64 tags.  False (nothing written) otherwise.
 * The tags beyond the roster, SetUp and FEN (Variant among them; none
 * in reduced form) are sorted by name, as indexes.
 */
static bool
tag_section_direct(struct out *o, const cd_game *g, bool reduced,
    cd_pgn_result r)
{
	const struct cd__game_priv *p = g->priv;
	const uint32_t *known = p->known;
	bool quotes = p->tag_quotes;
	size_t lim = quotes ? 0 : p->str_cap, name_lim = p->str_cap;
	const cd_game_tag *tags = g->tags;
	const char *str = g->str;
	uint64_t rest = 0;
	unsigned char order[64];
	uint64_t keys[64];	/* name_key of the tags in order */
	/* room: the roster's lines (their first sixteen bytes written at
	 * once), every tag value escaped and name (all in g->str), and
	 * sixteen bytes beyond for game_value */
	size_t i, j, n = 0, need = 8 * 32 + 6 * g->ntags +
	    g->str_len * (quotes ? 2 : 1);
	char *d;

	if (g->has_fen || g->chess960 || g->ntags > 64)
		return false;
	/* the other tags: all but the known ones that are not Variant;
	 * when the roster comes first in its order and no other tag is
	 * known (most games), the tags after the seventh */
	if (cd__roster_first(p) && p->nknown == KT_RESULT + 1) {
		if (!reduced && g->ntags > KT_RESULT + 1)
			rest = (g->ntags == 64 ? ~(uint64_t)0 :
			    ((uint64_t)1 << g->ntags) - 1) &
			    ~(((uint64_t)1 << (KT_RESULT + 1)) - 1);
		known = NULL;
	} else if (!reduced && (p->nknown < g->ntags ||
	    known[KT_VARIANT] != 0)) {
		rest = g->ntags == 64 ? ~(uint64_t)0 :
		    ((uint64_t)1 << g->ntags) - 1;
		for (i = 0; i < KT_VARIANT; i++)
			if (known[i] != 0)
				rest &= ~((uint64_t)1 << (known[i] - 1));
	}
	if (rest != 0 && (rest & (rest - 1)) == 0) {
		/* one tag (the books' ECO): nothing to sort */
		order[n++] = (unsigned char)__builtin_ctzll(rest);
		rest = 0;
	}
	for (; rest != 0; rest &= rest - 1) {
		const cd_game_tag *t;
		uint64_t k;

		i = (size_t)__builtin_ctzll(rest);
		t = &g->tags[i];
		k = name_key(str + t->name);
		for (j = n; j > 0 && (keys[j - 1] > k || (keys[j - 1] == k &&
		    name_before(g, t, &g->tags[order[j - 1]]))); j--) {
			order[j] = order[j - 1];
			keys[j] = keys[j - 1];
		}
		order[j] = (unsigned char)i;
		keys[j] = k;
		n++;
	}
	if (reserve(o, need) != 0)
		return true;	/* (o->fail) */
	d = o->b->data + o->b->len;
	if (known == NULL)	/* (each line's known[] test left out) */
		d = roster_lines(d, str, tags, NULL, quotes, lim);
	else
		d = roster_lines(d, str, tags, known, quotes, lim);
	memcpy(d, roster_open[KT_RESULT], 16);
	d += roster_open_len[KT_RESULT];
	memcpy(d, result8[r], 8);
	d += cd__pgn_result_len[r];
	memcpy(d, "\"]\n", 4);
	d += 3;
	for (j = 0; j < n; j++) {
		const cd_game_tag *t = &tags[order[j]];

		*d++ = '[';
		d = game_value(d, str, t->name, t->name_len, false, name_lim);
		*d++ = ' ';
		*d++ = '"';
		d = game_value(d, str, t->value, t->value_len, quotes, lim);
		memcpy(d, "\"]\n", 4);
		d += 3;
	}
	*d++ = '\n';
	o->b->len = (size_t)(d - o->b->data);
	return true;
}

/* The figurines of N B R Q K, U+2658 .. U+2654 in UTF-8. */
static const char figurines[6][4] = { "", "\xe2\x99\x98", "\xe2\x99\x97",
    "\xe2\x99\x96", "\xe2\x99\x95", "\xe2\x99\x94" };

/* The piece names of o for the flags' notation and lang. */
static void
set_pieces(struct out *o, unsigned notation, const cd_san_lang *lang)
{
	int k;

	if (notation == CD_PGN_FIGURINE) {
		o->pieces = figurines;
		for (k = 1; k < 6; k++)
			o->piece_len[k] = 3;
	} else if (notation == 0 && lang != NULL) {
		for (k = 1; k < 6; k++) {
			o->letters[k][0] = lang->letters[k];
			o->piece_len[k] = 1;
		}
		o->pieces = (const char (*)[4])o->letters;
	}
}

/* The moves from node n on, their variations, NAGs and notes; fast:
 * san_moves writes the plain ones (the usual notation, with numbers),
 * and n is the first it left. */
static void
moves_rest(struct out *o, const cd_game *g, uint32_t n, bool fast)
{
	/* the variations open around the move written: on the stack up to
	 * WSTACK deep, beyond in memory of its own */
	struct cd__wframe small[WSTACK], *stack = small;
	size_t depth = 0, stack_cap = WSTACK;
	bool first = true;

	while (n) {
		/* the plain moves at once; then a move with more */
		if (fast && !first)
			n = san_moves(o, g, n);
		first = false;
		if (n != 0 && (n = plain_moves(o, g, n)) != 0)
			write_move(o, g, n);
		if (n != 0 && (g->nodes[n].var & o->var_mask)) {
			if (depth + 1 > stack_cap) {
				size_t cap = stack_cap * 2;
				struct cd__wframe *s = malloc(cap * sizeof(*s));

				if (s == NULL) {
					o->fail = true;
					break;
				}
				memcpy(s, stack, depth * sizeof(*s));
				if (stack != small)
					free(stack);
				stack = s;
				stack_cap = cap;
			}
			stack[depth].node = n;
			stack[depth].var = g->nodes[n].var;
			depth++;
			token(o, "(", 1);
			o->need_num = true;
			n = g->nodes[n].var;
			continue;
		}
		if (n != 0)
			n = g->nodes[n].next;
		while (n == 0 && depth > 0) {
			struct cd__wframe *f = &stack[depth - 1];
			uint32_t v;

			token(o, ")", 1);
			v = g->nodes[f->var].var_next;
			if (v) {
				f->var = v;
				token(o, "(", 1);
				o->need_num = true;
				n = v;
				break;
			}
			depth--;
			o->need_num = true;
			n = g->nodes[f->node].next;
		}
	}
	if (stack != small)
		free(stack);
}

/*
 * A game in export format at the end of outb: the body of write_usual
 * and write_other, with usual a constant.  usual: flags hold nothing
 * but a width and lang is NULL (SAN as the game holds it, with move
 * numbers, every note, NAG and variation, the marker: the usual
 * export), so that the options' tests and values are constants.
 */
static inline __attribute__((always_inline)) cd_status
write_game(const cd_game *g, unsigned flags, const cd_san_lang *lang,
    cd_buf *outb, const bool usual)
{
	/* (the flags but the width: none when usual) */
	const unsigned f = usual ? 0 : flags;
	bool reduced = (f & CD_PGN_REDUCED) != 0;
	cd_game_xtags xt;
	size_t start_len = outb->len;
	struct out o;
	uint32_t n;
	cd_pgn_result r;
	size_t rlen;
	/* (the masks and fast in locals, not read again from o after the
	 * calls that take it) */
	const uint32_t note_mask = reduced || (f & CD_PGN_NO_COMMENTS) ? 0 :
	    ~0u;
	const uint8_t nag_mask = reduced || (f & CD_PGN_NO_NAGS) ? 0 :
	    CD_NODE_NAGS | CD_NODE_NAGS_BEFORE;
	bool fast;

	if (usual)
		lang = NULL;
	if (reduced)
		for (n = g->nodes[0].next; n; n = g->nodes[n].next)
			if (g->nodes[n].move == CD_MOVE_NULL)
				return CD_ERR_UNSUPPORTED;
	memset(&o, 0, sizeof(o));
	o.b = outb;
	o.var_mask = reduced || (f & CD_PGN_NO_VARIATIONS) ? 0 : ~0u;
	o.note_mask = note_mask;
	o.nag_mask = nag_mask;
	o.nums = (f & CD_PGN_NO_MOVE_NUMBERS) == 0;
	o.notation = f & CD_PGN_NOTATION_MASK;
	set_pieces(&o, o.notation, lang);
	if (o.notation == CD_PGN_FIGURINE)
		o.notation = 0;	/* (SAN, its pieces as figurines) */
	o.width = (flags & CD_PGN_WIDTH_MASK) >> CD_PGN_WIDTH_SHIFT;
	if (o.width == 0)
		o.width = LINE_MAX_LEN;
	o.chess960 = g->chess960;
	fast = usual || (o.notation == 0 && o.pieces == NULL && o.nums);
	r = result_of(g);
	/* (the memo only when the game's tags are the same bytes as the
	 * game's before, and only of what tag_section_direct writes) */
	if (__builtin_expect(g->priv->tb_again, 0) &&
	    memo_section(&o, g, reduced, r)) {
		/* (written) */
	} else if (tag_section_direct(&o, g, reduced, r)) {
		if (g->priv->tb_again && !o.fail)
			memo_keep(g, reduced, r, outb->data + start_len,
			    outb->len - start_len);
	} else {
		cd__xtags_init(&xt);
		if (cd_game_export_tags(g, flags, &xt) != CD_OK)
			return CD_ERR_NOMEM;
		/* (the other export tags, SetUp, FEN, Variant and the
		 * roster's defaults, hold no `\` or `"`) */
		tag_section(&o, &xt, g->priv->tag_quotes);
		cd_game_xtags_free(&xt);
	}

	o.need_num = true;
	if (g->nodes[0].flags & nag_mask & CD_NODE_NAGS)
		nags(&o, &g->nagsets[g->nodes[0].nags]);	/* before the game */
	if (g->nodes[0].after & note_mask)
		notes(&o, g, g->nodes[0].after);
	n = g->nodes[0].next;
	/* the plain moves at once (in most games all of them); then the
	 * rest */
	if (fast && n != 0)
		n = san_moves(&o, g, n);
	if (n != 0)
		moves_rest(&o, g, n, fast);
	/* the marker (its text in eight bytes) and the empty line */
	rlen = cd__pgn_result_len[r];
	if ((f & CD_PGN_NO_RESULT) && o.col > 0) {
		/* (a game with an empty movetext keeps its marker, so that
		 * it still reads as a game) */
		if (reserve(&o, 2) == 0) {
			memcpy(o.b->data + o.b->len, "\n\n", 2);
			o.b->len += 2;
		}
	} else if (reserve(&o, 8 + 1 + 2) == 0) {
		char *d = token_start(&o, rlen);

		memcpy(d, result8[r], 8);
		memcpy(d + rlen, "\n\n", 2);
		o.b->len = (size_t)(d - o.b->data) + rlen + 2;
	}
	if (o.fail) {
		outb->len = start_len;
		return CD_ERR_NOMEM;
	}
	return CD_OK;
}

/* write_game of the usual export (flags: a width at most). */
static cd_status
write_usual(const cd_game *g, unsigned flags, cd_buf *outb)
{
	return write_game(g, flags, NULL, outb, true);
}

/* write_game of any other. */
static cd_status
write_other(const cd_game *g, unsigned flags, const cd_san_lang *lang,
    cd_buf *outb)
{
	return write_game(g, flags, lang, outb, false);
}

/* write_usual or write_other, as flags and lang ask. */
static inline cd_status
write_buf(const cd_game *g, unsigned flags, const cd_san_lang *lang,
    cd_buf *outb)
{
	if ((flags & ~(unsigned)CD_PGN_WIDTH_MASK) == 0 && lang == NULL)
		return write_usual(g, flags, outb);
	return write_other(g, flags, lang, outb);
}

cd_status
cd_pgn_write_buf(const cd_game *g, unsigned flags, cd_buf *outb)
{
	return write_buf(g, flags, NULL, outb);
}

cd_status
cd_pgn_write_buf_lang(const cd_game *g, unsigned flags,
    const cd_san_lang *lang, cd_buf *outb)
{
	return write_buf(g, flags, lang, outb);
}

cd_status
cd_pgn_write(const cd_game *g, unsigned flags, FILE *f)
{
	cd_buf b = { 0 };
	cd_status st;

	if ((st = cd_pgn_write_buf(g, flags, &b)) == CD_OK &&
	    fwrite(b.data, 1, b.len, f) != b.len)
		st = CD_ERR_IO;
	cd_buf_free(&b);
	return st;
}
