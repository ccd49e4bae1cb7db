/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn/tags.c: a game's tags: the known names found without a compare,
 * the index of the others, adding (one at a time or a whole block from
 * the reader), finding, removing, and the export order (seven tag
 * roster first, then the rest by name), and whether the Termination
 * tag says the game was lost on time.  The rest of the game model and
 * the builder are pgn/game.c's.
 */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pgn/bytes.h"
#include "pgn/lex.h"
#include "pgn/pgn_internal.h"

/* ---- Tags ---- */

/* The known tags' names (KT_*), each in eight bytes (NULs after it),
 * to be copied whole, and their lengths. */
static const char known_name[KT_N][8] = { "Event", "Site", "Date",
    "Round", "White", "Black", "Result", "SetUp", "FEN", "Variant" };
static const unsigned char known_len[KT_N] = { 5, 4, 4, 5, 5, 5, 6, 5, 3,
    7 };

/* The KT_* + 1 that a name of length 3 to 7 may be, by its length and
 * the low five bits of its first byte (0: none). */
#define KB(len, c)	[(len) << 5 | ((c) & 31)]
static const unsigned char known_by[8 << 5] = {
	KB(4, 'S') = KT_SITE + 1, KB(4, 'D') = KT_DATE + 1,
	KB(5, 'E') = KT_EVENT + 1, KB(5, 'R') = KT_ROUND + 1,
	KB(5, 'W') = KT_WHITE + 1, KB(5, 'B') = KT_BLACK + 1,
	KB(5, 'S') = KT_SETUP + 1, KB(6, 'R') = KT_RESULT + 1,
	KB(7, 'V') = KT_VARIANT + 1, KB(3, 'F') = KT_FEN + 1
};
#undef KB

/* The first len + 1 bytes of eight (3 <= len <= 7). */
static const uint64_t name_mask[8] = { 0, 0, 0, 0xffffffffULL,
    0xffffffffffULL, 0xffffffffffffULL, 0xffffffffffffffULL,
    0xffffffffffffffffULL };

/* Whether the name of len bytes (3 to 7) at name, followed by its NUL
 * and at least seven more readable bytes, is the known name k: its
 * first eight bytes, those after the NUL masked off, compared with the
 * known name at once. */
static inline bool
known_is8(const char *name, size_t len, int k)
{
	uint64_t a, b;

	memcpy(&a, name, 8);
	memcpy(&b, known_name[k], 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	a = __builtin_bswap64(a);
	b = __builtin_bswap64(b);
#endif
	/* the len bytes and the NUL */
	return (a & name_mask[len]) == b;
}

/* known_index() of a name as known_is8 reads it. */
static inline int
known_index8(const char *name, size_t len)
{
	int k;

	if (len - 3 > 4)
		return -1;
	k = known_by[len << 5 | ((unsigned char)name[0] & 31)] - 1;
	if (k < 0)
		return -1;
	return known_is8(name, len, k) ? k : -1;
}

/* The KT_* of a tag name, or -1: told by its length and first byte,
 * then its first four and last four bytes compared at once. */
static inline int
known_index(const char *name, size_t len)
{
	uint32_t a, b, c, d;
	int k;

	if (len - 4 > 3)
		return len == 3 && name[0] == 'F' && name[1] == 'E' &&
		    name[2] == 'N' ? KT_FEN : -1;
	k = known_by[len << 5 | ((unsigned char)name[0] & 31)] - 1;
	if (k < 0)
		return -1;
	memcpy(&a, name, 4);
	memcpy(&b, known_name[k], 4);
	memcpy(&c, name + len - 4, 4);
	memcpy(&d, known_name[k] + len - 4, 4);
	return a == b && c == d ? k : -1;
}

/* Make priv->known again from the tags (after their indexes moved). */
static void
known_reindex(cd_game *g)
{
	size_t i;
	int k;

	memset(g->priv->known, 0, sizeof(g->priv->known));
	g->priv->nknown = 0;
	for (i = 0; i < g->ntags; i++)
		if ((k = known_index(g->str + g->tags[i].name,
		    g->tags[i].name_len)) >= 0) {
			g->priv->known[k] = (uint32_t)i + 1;
			g->priv->nknown++;
		}
}

/* Games with more tags than this find names through a hash index (a
 * scan per added tag would make 100,000 tags cost 5e9 comparisons). */
#define TAG_INDEX_MIN 32

static uint32_t
name_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	while (n-- > 0)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

void
cd__game_tag_index_drop(cd_game *g)
{
	struct cd__game_priv *p = g->priv;

	if (p->tag_hashed > 0)
		memset(p->tag_hash, 0, p->tag_hash_cap * sizeof(*p->tag_hash));
	p->tag_hashed = 0;
}

/* Bring the index up to date; false if there is no memory for it. */
static bool
tag_index_update(const cd_game *g)
{
	struct cd__game_priv *p = g->priv;

	if (p->tag_hash_cap < 2 * g->ntags) {
		size_t cap = 64;
		uint32_t *t;

		while (cap < 4 * g->ntags)
			cap *= 2;
		t = calloc(cap, sizeof(*t));
		if (t == NULL)
			return false;
		free(p->tag_hash);
		p->tag_hash = t;
		p->tag_hash_cap = cap;
		p->tag_hashed = 0;
	}
	for (; p->tag_hashed < g->ntags; p->tag_hashed++) {
		const cd_game_tag *t = &g->tags[p->tag_hashed];
		size_t mask = p->tag_hash_cap - 1;
		size_t i = name_hash(g->str + t->name, t->name_len) & mask;

		while (p->tag_hash[i] != 0)
			i = (i + 1) & mask;
		p->tag_hash[i] = (uint32_t)p->tag_hashed + 1;
	}
	return true;
}

/* The index of the tag named name that is not a known one, or -1. */
static long
other_find(const cd_game *g, const char *name, size_t len)
{
	const struct cd__game_priv *p = g->priv;
	size_t i, mask;

	if (g->ntags > TAG_INDEX_MIN && tag_index_update(g)) {
		mask = p->tag_hash_cap - 1;
		for (i = name_hash(name, len) & mask; p->tag_hash[i] != 0;
		    i = (i + 1) & mask) {
			const cd_game_tag *t = &g->tags[p->tag_hash[i] - 1];

			if (t->name_len == len &&
			    memcmp(g->str + t->name, name, len) == 0)
				return (long)(p->tag_hash[i] - 1);
		}
		return -1;
	}
	for (i = 0; i < g->ntags; i++) {
		const char *tn = g->str + g->tags[i].name;

		/* the first byte before a call: "White" and "Black" have
		 * the same length */
		if (g->tags[i].name_len == len && (len == 0 ||
		    (tn[0] == name[0] && memcmp(tn, name, len) == 0)))
			return (long)i;
	}
	return -1;
}

static long
tag_find(const cd_game *g, const char *name, size_t len)
{
	int k = known_index(name, len);

	if (k >= 0)
		return (long)g->priv->known[k] - 1;
	return other_find(g, name, len);
}

/* 0x80 in each byte of x that is a control byte, DEL, `\` or `"`,
 * exactly (no carry crosses a byte). */
static inline uint64_t
odd_bytes(uint64_t x)
{
	return (~(((x & CD__LOWS) + 0x6060606060606060ULL) | x) & CD__HIGHS) |
	    cd__zero_bytes(x ^ CD__LOWS) |
	    cd__zero_bytes(x ^ (CD__ONES * '\\')) |
	    cd__zero_bytes(x ^ (CD__ONES * '"'));
}

/* Copy a tag value of n bytes from s to d, control bytes and DEL as
 * spaces: eight bytes at a time while none is such a byte or `\` or
 * `"` (the last eight overlapping the ones before; four and four that
 * may overlap when n is 4 to 7), byte by byte from the first eight that
 * hold one.  Whether the value holds a `\` or `"`. */
static bool
value_copy(char *d, const char *s, size_t n)
{
	size_t k = 0;
	uint64_t x;
	uint32_t a, b;
	bool quotes = false;

	if (n >= 8) {
		for (; k < n; k += 8) {
			if (k + 8 > n)
				k = n - 8;
			memcpy(&x, s + k, 8);
			if (odd_bytes(x) != 0)
				break;
			memcpy(d + k, &x, 8);
		}
	} else if (n >= 4) {
		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		if (odd_bytes(a | (uint64_t)b << 32) == 0) {
			memcpy(d, &a, 4);
			memcpy(d + n - 4, &b, 4);
			return false;
		}
	}
	for (; k < n; k++) {
		unsigned char c = (unsigned char)s[k];

		quotes |= c == '\\' || c == '"';
		d[k] = (char)(c < 0x20 || c == 0x7f ? ' ' : c);
	}
	return quotes;
}

/* The body of cd_game_add_tag and of cd__game_add_tags. */
static inline cd_status
tag_add(cd_game *g, const char *name, size_t name_len, const char *value,
    size_t value_len)
{
	struct cd__game_priv *p = g->priv;
	int kt = known_index(name, name_len);
	long i = kt >= 0 ? (long)p->known[kt] - 1 :
	    other_find(g, name, name_len);
	size_t off = g->str_len, need = value_len + 1;
	cd_game_tag *t;
	char *d;

	p->tags_gen = 0;	/* (no longer a block's) */
	/* the value, and the name of a new tag, in one stretch (and room
	 * for a known name's eight bytes) */
	if (i < 0)
		need += name_len + 1 + 8;
	if (value_len > SIZE_MAX / 4 || name_len > SIZE_MAX / 4 ||
	    need > SIZE_MAX - off || (off + need > p->str_cap &&
	    cd__grow((void **)&g->str, &p->str_cap, off + need, 1, 256) != 0))
		return CD_ERR_NOMEM;
	if (i >= 0) {
		t = &g->tags[i];
	} else {
		if (g->ntags == p->tags_cap &&
		    cd__grow((void **)&g->tags, &p->tags_cap, g->ntags + 1,
		    sizeof(*g->tags), 16) != 0)
			return CD_ERR_NOMEM;
		t = &g->tags[g->ntags++];
		if (kt >= 0) {
			/* the name and its NUL in one move */
			memcpy(g->str + off, known_name[kt], 8);
			p->known[kt] = (uint32_t)g->ntags;
			p->nknown++;
		} else {
			memcpy(g->str + off, name, name_len);
			g->str[off + name_len] = '\0';
		}
		t->name = off;
		t->name_len = name_len;
		off += name_len + 1;
	}
	d = g->str + off;
	if (value_copy(d, value, value_len))
		p->tag_quotes = true;
	d[value_len] = '\0';
	t->value = off;
	t->value_len = value_len;
	g->str_len = off + value_len + 1;
	return CD_OK;
}

cd_status
cd_game_add_tag(cd_game *g, const char *name, size_t name_len,
    const char *value, size_t value_len)
{
	return tag_add(g, name, name_len, value, value_len);
}

/* Of the n bytes at s (n > 0): how many are control bytes or DEL, into
 * *ctl, and whether one is `\` or `"`.  Sixteen at a time where SSE2
 * is, reading up to fifteen bytes past s + n (slack the caller
 * keeps). */
static bool
block_odd_bytes(const char *s, size_t n, size_t *ctl)
{
	size_t c = 0, k = 0;
	bool quotes = false;

#ifdef __SSE2__
	static const char index[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
	    11, 12, 13, 14, 15 };
	const __m128i del = _mm_set1_epi8(0x7f), lim = _mm_set1_epi8(0x1f);
	const __m128i bs = _mm_set1_epi8('\\'), qt = _mm_set1_epi8('"');
	const __m128i one = _mm_set1_epi8(1), zero = _mm_setzero_si128();
	__m128i cnt = zero, q = zero;

	for (;;) {
		__m128i v = _mm_loadu_si128((const void *)(s + k));
		__m128i m = _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(v, lim),
		    v), _mm_cmpeq_epi8(v, del));
		__m128i b = _mm_or_si128(_mm_cmpeq_epi8(v, bs),
		    _mm_cmpeq_epi8(v, qt));

		if (n - k < 16) {
			/* bytes i < n - k of the last sixteen */
			__m128i keep = _mm_cmplt_epi8(_mm_loadu_si128(
			    (const void *)index), _mm_set1_epi8((char)(n - k)));

			m = _mm_and_si128(m, keep);
			b = _mm_and_si128(b, keep);
		}
		cnt = _mm_add_epi64(cnt, _mm_sad_epu8(_mm_and_si128(m, one),
		    zero));
		q = _mm_or_si128(q, b);
		if (n - k <= 16)
			break;
		k += 16;
	}
	c = (size_t)_mm_cvtsi128_si32(cnt) +
	    (size_t)_mm_cvtsi128_si32(_mm_unpackhi_epi64(cnt, cnt));
	quotes = _mm_movemask_epi8(q) != 0;
#else
	for (; k < n; k++) {
		unsigned char x = (unsigned char)s[k];

		c += x < 0x20 || x == 0x7f;
		quotes |= x == '\\' || x == '"';
	}
#endif
	*ctl = c;
	return quotes;
}

/* Whether the name at g->str + *q (in a block of tags_block: a NUL
 * after it, none in it, sixteen readable bytes after the block) is the
 * roster's name k (its value value_len bytes after the name's NUL): then
 * the tag into *gt, *q past its value's NUL. */
static inline __attribute__((always_inline)) bool
roster_tag(const cd_game *g, cd_game_tag *gt, uintptr_t *q,
    size_t value_len, size_t k)
{
	size_t nl = known_len[k];

	if (!known_is8(g->str + *q, nl, (int)k))
		return false;
	gt->name = *q;
	gt->name_len = nl;
	gt->value = *q + nl + 1;
	gt->value_len = value_len;
	*q += nl + value_len + 2;
	return true;
}

/* The last number a block of tags read again had (tags_gen; 1 is
 * not one). */
static uint64_t tags_gens = 1;

uint64_t
cd__tags_gen_new(void)
{
	return __atomic_add_fetch(&tags_gens, 1, __ATOMIC_RELAXED);
}

/*
 * cd__game_add_tags for a game with no tag yet, when the n tags come
 * as the reader gives them: their strings one block (name, NUL, value,
 * NUL, next name...), no name twice, at most TAG_INDEX_MIN of them and
 * no control byte or DEL in a value.  The block is copied whole, its
 * strings indexed where they are.  False, with nothing added, for
 * any other set of tags (cd__game_add_tags adds them one by one).
 * plain: the reader's note says the block is one and its values plain
 * (cd__raw_tags_plain), so neither is checked again.
 */
static bool
tags_block(cd_game *g, const cd_pgn_tag *t, size_t n, bool plain)
{
	struct cd__game_priv *p = g->priv;
	uintptr_t s = (uintptr_t)t[0].name, q = s;
	size_t off = g->str_len, len, ctl, i, nknown;
	/* (all 0: the game has no tag) */
	uint32_t *known = p->known;
	uint64_t seen = 0;
	cd_game_tag *gt;
	char *d;

	if (n > TAG_INDEX_MIN || (n > p->tags_cap && cd__grow((void **)&g->tags,
	    &p->tags_cap, n, sizeof(*g->tags), 16) != 0))
		return false;
	if (plain) {
		q = (uintptr_t)t[n - 1].value + t[n - 1].value_len + 1;
	} else {
		/* the block: each name and value where the one before
		 * ends */
		for (i = 0; i < n; i++) {
			size_t nl = t[i].name_len, vl = t[i].value_len;

			if ((uintptr_t)t[i].name != q || nl > 255 ||
			    vl > ((size_t)1 << 24) ||
			    (uintptr_t)t[i].value != q + nl + 1 ||
			    t[i].name[nl] != '\0' || t[i].value[vl] != '\0')
				return false;
			q += nl + vl + 2;
		}
	}
	len = (size_t)(q - s);
	/* the block, and sixteen bytes of slack (block_odd_bytes,
	 * known_index8) */
	if (off + len + 16 > p->str_cap &&
	    cd__grow((void **)&g->str, &p->str_cap, off + len + 16, 1, 256) != 0)
		return false;
	d = g->str + off;
	p->tags_gen = 0;
	memcpy(d, t[0].name, len);
	if (!plain) {
		if (block_odd_bytes(d, len, &ctl))
			p->tag_quotes = true;
		if (ctl != 2 * n)	/* not only the NULs */
			return false;
	}
	/* the roster's tags in its order, as most games begin: each name
	 * told by its eight bytes, the NUL after it with them, so that its
	 * length is the known name's (no name in the block holds a NUL: the
	 * reader's never do, and the block above holds no control byte but
	 * the NULs between its strings); unrolled, the lengths, masks and
	 * names become constants, and with seven tags or more the count is
	 * not tested at each */
	gt = g->tags;
	q = off;
	if (n > KT_RESULT) {
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 7
#endif
		for (i = 0; i <= KT_RESULT; i++, gt++)
			if (!roster_tag(g, gt, &q, t[i].value_len, i))
				break;
	} else {
		for (i = 0; i < n; i++, gt++)
			if (!roster_tag(g, gt, &q, t[i].value_len, i))
				break;
	}
	if (i == KT_RESULT + 1) {
		memcpy(known, cd__roster_known, sizeof(cd__roster_known));
	} else {
		for (nknown = 0; nknown < i; nknown++)
			known[nknown] = (uint32_t)nknown + 1;
	}
	nknown = i;
	/* the other tags, the known ones, and no name twice (the other
	 * names compared only when one before has the same length, first
	 * and last byte, as far as a 64-bit filter of them tells) */
	for (; i < n; i++, gt++) {
		const char *name = g->str + q;
		size_t nl = t[i].name_len;
		int kt = known_index8(name, nl);

		gt->name = q;
		gt->name_len = nl;
		gt->value = q + nl + 1;
		gt->value_len = t[i].value_len;
		q += nl + t[i].value_len + 2;
		if (kt >= 0) {
			if (known[kt] != 0)
				goto twice;
			known[kt] = (uint32_t)i + 1;
			nknown++;
		} else {
			const cd_game_tag *o;
			/* (an empty name has its NUL as both bytes) */
			uint64_t bit = (uint64_t)1 << ((nl * 7 +
			    (unsigned char)name[0] * 3 +
			    (unsigned char)name[nl - (nl > 0)]) & 63);

			if (seen & bit)
				for (o = g->tags; o < gt; o++)
					if (o->name_len == nl && (nl == 0 ||
					    (g->str[o->name] == name[0] &&
					    memcmp(g->str + o->name, name,
					    nl) == 0)))
						goto twice;
			seen |= bit;
		}
	}
	p->nknown = nknown;
	g->ntags = n;
	g->str_len = off + len;
	/* the block kept for the next game's, but in a long run of blocks
	 * none read again, one in sixteen */
	p->tb_again = false;
	if (++p->tb_misses <= 16 || (p->tb_misses & 15) == 0) {
		p->tags_gen = 1;
		/* (n <= TAG_INDEX_MIN < 128: bit 7, not at the start) */
		p->tb_key = (uint64_t)len << 8 | n | (uint64_t)(off != 0) << 7;
		memcpy(p->tb_known, known, sizeof(p->tb_known));
		p->tb_nknown = (uint32_t)nknown;
		p->tb_quotes = p->tag_quotes;
	}
	return true;
twice:
	memset(known, 0, sizeof(p->known));
	return false;
}

cd_status
cd__game_add_tags(cd_game *g, const cd_pgn_tag *t, size_t n, bool plain,
    size_t *done)
{
	cd_status st = CD_OK;
	size_t i;

	if (g->ntags == 0 && n > 0 && tags_block(g, t, n, plain)) {
		*done = n;
		return CD_OK;
	}
	for (i = 0; i < n; i++)
		if ((st = tag_add(g, t[i].name, t[i].name_len, t[i].value,
		    t[i].value_len)) != CD_OK)
			break;
	*done = i;
	return st;
}

long
cd_game_tag_find(const cd_game *g, const char *name)
{
	return tag_find(g, name, strlen(name));
}

const char *
cd_game_tag_value(const cd_game *g, const char *name, size_t *len)
{
	long i = tag_find(g, name, strlen(name));

	if (i < 0)
		return NULL;
	if (len)
		*len = g->tags[i].value_len;
	return g->str + g->tags[i].value;
}

bool
cd_game_remove_tag(cd_game *g, const char *name)
{
	long i = tag_find(g, name, strlen(name));

	if (i < 0)
		return false;
	memmove(&g->tags[i], &g->tags[i + 1],
	    (g->ntags - (size_t)i - 1) * sizeof(*g->tags));
	g->ntags--;
	g->priv->tags_gen = 0;
	cd__game_tag_index_drop(g);	/* the indexes moved */
	known_reindex(g);
	return true;
}

/* Byte order of tag names (the first bytes first, without a call:
 * names are NUL-terminated, so an empty one has its NUL there). */
static int
name_cmp(const cd_game_xtag *a, const cd_game_xtag *b)
{
	size_t n = a->name_len < b->name_len ? a->name_len : b->name_len;
	int c = (unsigned char)a->name[0] - (unsigned char)b->name[0];

	if (c != 0)
		return c;
	c = memcmp(a->name, b->name, n);

	if (c != 0)
		return c;
	return a->name_len < b->name_len ? -1 : a->name_len > b->name_len;
}

/* More non-roster tags than this are sorted by qsort(3). */
#define XTAG_SORT_MIN 32

static int
name_qcmp(const void *a, const void *b)
{
	return name_cmp(a, b);
}

static void
xtag_set(cd_game_xtag *x, const char *name, size_t len, const char *value,
    size_t vlen)
{
	x->name = name;
	x->name_len = len;
	x->value = value;
	x->value_len = vlen;
}

/* Whether the start position is the standard initial one (as
 * cd_board_is_initial, against the copy the game keeps). */
static bool
is_initial(const cd_game *g)
{
	const cd_board *a = &g->start, *b = &g->priv->initial;

	return memcmp(a->squares, b->squares, 64) == 0 && a->side == b->side &&
	    a->ep == b->ep && memcmp(a->castle_rook, b->castle_rook,
	    sizeof(a->castle_rook)) == 0 && a->halfmove == b->halfmove &&
	    a->fullmove == b->fullmove;
}

void
cd_game_xtags_free(cd_game_xtags *x)
{
	if (x->tags != x->local)
		free(x->tags);
	x->tags = NULL;
	x->n = x->cap = 0;
}

/* Room in x for need tags: its own array while they fit. */
static int
xtags_reserve(cd_game_xtags *x, size_t need)
{
	size_t n = sizeof(x->local) / sizeof(x->local[0]);
	cd_game_xtag *t;

	if (x->cap == 0 || x->tags == NULL) {
		x->tags = x->local;
		x->cap = n;
	}
	if (need <= x->cap)
		return 0;
	while (n < need)
		n *= 2;
	t = x->tags == x->local ? malloc(n * sizeof(*t)) :
	    realloc(x->tags, n * sizeof(*t));
	if (t == NULL)
		return -1;
	x->tags = t;
	x->cap = n;
	return 0;
}

cd_status
cd_game_export_tags(const cd_game *g, unsigned flags, cd_game_xtags *xt)
{
	bool reduced = (flags & CD_PGN_REDUCED) != 0;
	/* (without a FEN tag or cd_game_set_start the start is the
	 * initial position) */
	bool initial = !g->has_fen || is_initial(g);
	bool setup = reduced ? !initial : (g->has_fen || !initial);
	bool has_variant = false;
	const uint32_t *known = g->priv->known;
	size_t k, i, j, first;
	cd_game_xtag *x;
	const char *v;
	size_t vlen;

	xt->n = 0;
	/* the roster, SetUp, FEN and Variant beyond the game's tags */
	if (xtags_reserve(xt, g->ntags + 10) != 0)
		return CD_ERR_NOMEM;
	x = xt->tags;
	first = k = 7;
	v = (flags & CD_PGN_TAGS_SETUP_AS_READ) ?
	    cd__game_known_value(g, KT_SETUP, &vlen) : NULL;
	if (setup || v != NULL)
		xtag_set(&x[k++], "SetUp", 5, v ? v : "1", v ? vlen : 1);
	if (setup) {
		vlen = cd_fen_write(&g->start, xt->fen);
		xtag_set(&x[k++], "FEN", 3, xt->fen, vlen);
	}
	/* the others (in full export format) into x: the tags that are
	 * not known ones, and Variant (none when every tag is a known
	 * one and Variant is not there) */
	for (i = g->priv->nknown < g->ntags || known[KT_VARIANT] != 0 ? 0 :
	    g->ntags;
	    i < g->ntags; i++) {
		const cd_game_tag *t = &g->tags[i];
		const char *name = g->str + t->name;
		int kt = known_index(name, t->name_len);

		if (kt >= 0 && kt != KT_VARIANT)
			continue;
		if (kt == KT_VARIANT) {
			has_variant = true;
			if (reduced && g->chess960)
				xtag_set(&x[k++], name, 7, g->str + t->value,
				    t->value_len);
		}
		if (!reduced)
			xtag_set(&x[k++], name, t->name_len, g->str + t->value,
			    t->value_len);
	}
	if (g->chess960 && !has_variant)
		xtag_set(&x[k++], "Variant", 7, "Chess960", 8);
	for (i = 0; i < 7; i++) {
		if (i == KT_RESULT) {
			v = cd__pgn_result_text(cd_game_result(g), &vlen);
		} else if (known[i] != 0) {
			v = g->str + g->tags[known[i] - 1].value;
			vlen = g->tags[known[i] - 1].value_len;
		} else {
			v = i == KT_DATE ? "????.??.??" : "?";
			vlen = i == KT_DATE ? 10 : 1;
		}
		xtag_set(&x[i], known_name[i], known_len[i], v, vlen);
	}
	/* the non-roster tags by name (no name twice): an insertion sort
	 * of the usual few, qsort(3) of many (insertion took 20 s for
	 * 200,000 tags) */
	if (k - first > XTAG_SORT_MIN) {
		qsort(x + first, k - first, sizeof(*x), name_qcmp);
	} else {
		for (i = first + 1; i < k; i++) {
			cd_game_xtag t = x[i];

			for (j = i; j > first && name_cmp(&x[j - 1], &t) > 0;
			    j--)
				x[j] = x[j - 1];
			x[j] = t;
		}
	}
	xt->n = k;
	return CD_OK;
}

cd_pgn_result
cd_game_result(const cd_game *g)
{
	const char *v;
	size_t len = 0;

	/* (the movetext's marker, when it has one, without the look-up) */
	if (g->result != CD_PGN_RESULT_NONE)
		return g->result;
	v = cd__game_known_value(g, KT_RESULT, &len);
	return cd__pgn_result_of(g->result, v, len);
}

void
cd_game_set_result(cd_game *g, cd_pgn_result r)
{
	g->result = r;
}

/* Whether s (n bytes) ends with the ASCII text t, ignoring case. */
static bool
ends_with(const char *s, size_t n, const char *t)
{
	size_t k = strlen(t);

	return n >= k && strncasecmp(s + n - k, t, k) == 0;
}

bool
cd_game_lost_on_time(const cd_game *g)
{
	size_t n;
	const char *v = cd_game_tag_value(g, "Termination", &n);

	/* the standard's and lichess's "time forfeit", chess.com's
	 * "... won on time" */
	return v != NULL && ((n == strlen("time forfeit") &&
	    ends_with(v, n, "time forfeit")) || ends_with(v, n, " on time"));
}
