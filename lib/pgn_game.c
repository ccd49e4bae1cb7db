/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn_game.c: the game model (tags, start position, move tree, notes)
 * and the builder that the PGN parser and the PGC decoder share.
 *
 * Everything lives in arrays owned by the game and reused after
 * cd_game_clear(), so a steady stream of games allocates nothing.
 */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "pgn_internal.h"
#include "san_fast.h"

/* Grow *arr (of elements of size sz) to hold at least need elements. */
static int
grow(void **arr, size_t *cap, size_t need, size_t sz, size_t min)
{
	size_t n = *cap ? *cap : min;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need) {
		if (n > SIZE_MAX / 2 / sz)
			return -1;
		n *= 2;
	}
	p = realloc(*arr, n * sz);
	if (p == NULL)
		return -1;
	*arr = p;
	*cap = n;
	return 0;
}

/* grow() for a uint32_t capacity; out of line, for its callers test
 * the capacity first on their paths of every move or note. */
static __attribute__((noinline)) int
grow32(void **arr, uint32_t *cap, size_t need, size_t sz, size_t min)
{
	size_t c = *cap;

	if (need > UINT32_MAX)
		return -1;
	if (need <= c)
		return 0;
	if (grow(arr, &c, need, sz, min) != 0)
		return -1;
	*cap = c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
	return 0;
}

int
cd__grow(void **arr, size_t *cap, size_t need, size_t sz, size_t min)
{
	return grow(arr, cap, need, sz, min);
}

int
cd__grow32(void **arr, uint32_t *cap, size_t need, size_t sz, size_t min)
{
	return grow32(arr, cap, need, sz, min);
}

/* Append len bytes and a NUL to the string store; the offset or
 * (size_t)-1 when out of memory. */
static size_t
str_add(cd_game *g, const char *s, size_t len)
{
	size_t off = g->str_len;

	if (len > SIZE_MAX - off - 1 ||
	    grow((void **)&g->str, &g->priv->str_cap, off + len + 1, 1, 256) != 0)
		return (size_t)-1;
	if (len)
		memcpy(g->str + off, s, len);
	g->str[off + len] = '\0';
	g->str_len = off + len + 1;
	return off;
}

/* Make the start position the initial one, has_fen false.  Only a FEN
 * tag or cd_game_set_start (which set has_fen) give it other squares,
 * and cd_game_setup its chess960 flag, so the position is copied only
 * after them. */
static void
start_reset(cd_game *g)
{
	if (g->has_fen)
		g->start = g->priv->initial;
	else
		g->start.chess960 = g->priv->initial.chess960;
	g->has_fen = false;
}

static void
line_reset(cd_game *g)
{
	struct cd__game_priv *p = g->priv;

	/* (prev is written before it is read: with the line's first
	 * move) */
	memset(&p->line, 0, offsetof(struct cd__line, board));
	p->line.board = g->start;
	/* without a FEN tag the start is the initial position */
	p->line.check = g->has_fen && cd_board_in_check(&g->start);
	p->depth = 0;
	p->npboards = 0;
	p->tail_key = UINT64_MAX;
}

cd_game *
cd_game_new(void)
{
	cd_game *g = calloc(1, sizeof(*g));

	if (g == NULL)
		return NULL;
	g->priv = calloc(1, sizeof(*g->priv));
	if (g->priv == NULL ||
	    grow32((void **)&g->nodes, &g->priv->nodes_cap, 1, sizeof(cd_game_node),
	    256) != 0 ||
	    grow32((void **)&g->notes, &g->priv->notes_cap, 1, sizeof(cd_game_note),
	    64) != 0) {
		cd_game_free(g);
		return NULL;
	}
	cd_board_init(&g->priv->initial);
	g->start = g->priv->initial;	/* (start_reset keeps it) */
	cd_game_clear(g);
	return g;
}

void
cd_game_free(cd_game *g)
{
	if (g == NULL)
		return;
	if (g->priv) {
		free(g->priv->stack);
		free(g->priv->pboards);
		free(g->priv->positions);
		free(g->priv->tag_hash);
		free(g->priv);
	}
	free(g->str);
	free(g->tags);
	free(g->nodes);
	free(g->notes);
	free(g->nagsets);
	free(g);
}

static void tag_index_drop(cd_game *g);

/* cd_game_clear but for the start position and the line, which
 * cd_game_setup (or cd__game_clear_end) makes next. */
void
cd__game_clear_start(cd_game *g)
{
	g->str_len = 0;
	g->ntags = 0;
	memset(g->priv->known, 0, sizeof(g->priv->known));
	g->priv->nknown = 0;
	g->priv->tag_quotes = false;
	tag_index_drop(g);
	memset(&g->nodes[0], 0, sizeof(g->nodes[0]));
	g->nnodes = 1;
	g->positions = NULL;
	memset(&g->notes[0], 0, sizeof(g->notes[0]));
	g->nnotes = 1;
	g->nnagsets = 1;
	g->priv->fen_cleared[0] = '\0';
	g->result = CD_PGN_RESULT_NONE;
}

void
cd__game_clear_end(cd_game *g)
{
	start_reset(g);
	g->chess960 = false;
	line_reset(g);
}

void
cd_game_clear(cd_game *g)
{
	cd__game_clear_start(g);
	cd__game_clear_end(g);
}

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

/* known_index() of a name of len bytes followed by its NUL and at
 * least seven more readable bytes: its first eight bytes, those after
 * the NUL masked off, compared with the known name at once. */
static inline int
known_index8(const char *name, size_t len)
{
	uint64_t a, b;
	int k;

	if (len - 3 > 4)
		return -1;
	k = known_by[len << 5 | ((unsigned char)name[0] & 31)] - 1;
	if (k < 0)
		return -1;
	memcpy(&a, name, 8);
	memcpy(&b, known_name[k], 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	a = __builtin_bswap64(a);
	b = __builtin_bswap64(b);
#endif
	/* the len bytes and the NUL */
	return (a & name_mask[len]) == b ? k : -1;
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

/* The value of the known tag k, NULL if absent; its length in *len. */
static const char *
known_value(const cd_game *g, int k, size_t *len)
{
	uint32_t i = g->priv->known[k];

	if (i == 0)
		return NULL;
	*len = g->tags[i - 1].value_len;
	return g->str + g->tags[i - 1].value;
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

static void
tag_index_drop(cd_game *g)
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

	/* the value, and the name of a new tag, in one stretch (and room
	 * for a known name's eight bytes) */
	if (i < 0)
		need += name_len + 1 + 8;
	if (value_len > SIZE_MAX / 4 || name_len > SIZE_MAX / 4 ||
	    need > SIZE_MAX - off || (off + need > p->str_cap &&
	    grow((void **)&g->str, &p->str_cap, off + need, 1, 256) != 0))
		return CD_ERR_NOMEM;
	if (i >= 0) {
		t = &g->tags[i];
	} else {
		if (g->ntags == p->tags_cap &&
		    grow((void **)&g->tags, &p->tags_cap, g->ntags + 1,
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

/*
 * cd__game_add_tags for a game with no tag yet, when the n tags come
 * as the reader gives them: their strings one block (name, NUL, value,
 * NUL, next name...), no name twice, at most TAG_INDEX_MIN of them and
 * no control byte or DEL in a value.  The block is copied whole, its
 * strings indexed where they are.  False, with nothing added, for
 * any other set of tags (cd__game_add_tags adds them one by one).
 */
static bool
tags_block(cd_game *g, const cd_pgn_tag *t, size_t n)
{
	struct cd__game_priv *p = g->priv;
	uintptr_t s = (uintptr_t)t[0].name, q = s;
	size_t off = g->str_len, len, ctl, i, nknown = 0;
	uint32_t known[KT_N] = { 0 };
	uint64_t seen = 0;
	cd_game_tag *gt;
	char *d;

	if (n > TAG_INDEX_MIN || (n > p->tags_cap && grow((void **)&g->tags,
	    &p->tags_cap, n, sizeof(*g->tags), 16) != 0))
		return false;
	/* the block: each name and value where the one before ends */
	gt = g->tags;
	for (i = 0; i < n; i++, gt++) {
		size_t nl = t[i].name_len, vl = t[i].value_len;

		if ((uintptr_t)t[i].name != q || nl > 255 ||
		    vl > ((size_t)1 << 24) ||
		    (uintptr_t)t[i].value != q + nl + 1 ||
		    t[i].name[nl] != '\0' || t[i].value[vl] != '\0')
			return false;
		gt->name = off + (size_t)(q - s);
		gt->name_len = nl;
		gt->value = gt->name + nl + 1;
		gt->value_len = vl;
		q += nl + vl + 2;
	}
	len = (size_t)(q - s);
	/* the block, and sixteen bytes of slack (block_odd_bytes,
	 * known_index8) */
	if (off + len + 16 > p->str_cap &&
	    grow((void **)&g->str, &p->str_cap, off + len + 16, 1, 256) != 0)
		return false;
	d = g->str + off;
	memcpy(d, t[0].name, len);
	if (block_odd_bytes(d, len, &ctl))
		p->tag_quotes = true;
	if (ctl != 2 * n)	/* not only the NULs */
		return false;
	/* the known tags, and no name twice (the other names compared only
	 * when one before has the same length, first and last byte, as far
	 * as a 64-bit filter of them tells) */
	for (i = 0, gt = g->tags; i < n; i++, gt++) {
		const char *name = g->str + gt->name;
		size_t nl = gt->name_len;
		int kt = known_index8(name, nl);

		if (kt >= 0) {
			if (known[kt] != 0)
				return false;
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
						return false;
			seen |= bit;
		}
	}
	memcpy(p->known, known, sizeof(known));
	p->nknown = nknown;
	g->ntags = n;
	g->str_len = off + len;
	return true;
}

cd_status
cd__game_add_tags(cd_game *g, const cd_pgn_tag *t, size_t n, size_t *done)
{
	cd_status st = CD_OK;
	size_t i;

	if (g->ntags == 0 && n > 0 && tags_block(g, t, n)) {
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
	tag_index_drop(g);	/* the indexes moved */
	known_reindex(g);
	return true;
}

static bool
word_eq(const char *s, size_t len, const char *w)
{
	size_t n = strlen(w), i;

	if (len != n)
		return false;
	for (i = 0; i < n; i++) {
		int c = (unsigned char)s[i];

		if (c >= 'A' && c <= 'Z')
			c += 'a' - 'A';
		if (c != w[i])
			return false;
	}
	return true;
}

bool
cd_pgn_variant_is_960(const char *value, size_t len)
{
	static const char *const names[] = { "chess960", "chess 960",
	    "fischerandom", "fischerrandom", "fischer random", "frc", "960" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (word_eq(value, len, names[i]))
			return true;
	return false;
}

/* Variant values that mean standard chess. */
static bool
variant_is_standard(const char *value, size_t len)
{
	return len == 0 || word_eq(value, len, "standard") ||
	    word_eq(value, len, "normal") ||
	    word_eq(value, len, "from position");
}

cd_status
cd_game_setup(cd_game *g, cd_error *err)
{
	const char *v, *fen;
	size_t vlen = 0, flen = 0;
	cd_status st;

	cd__error_ok(err);
	start_reset(g);
	g->chess960 = false;
	v = known_value(g, KT_VARIANT, &vlen);
	if (v != NULL) {
		if (cd_pgn_variant_is_960(v, vlen)) {
			g->chess960 = true;
		} else if (!variant_is_standard(v, vlen)) {
			cd__error_set(err, CD_ERR_UNSUPPORTED, 0, 0, 0,
			    "unsupported variant");
			line_reset(g);
			return CD_ERR_UNSUPPORTED;
		}
	}
	fen = known_value(g, KT_FEN, &flen);
	if (fen != NULL) {
		cd_board b;

		st = cd_fen_parse_clearing(&b, fen, flen,
		    g->chess960 ? CD_FEN_960 : 0, g->priv->fen_cleared, err);
		if (st != CD_OK) {
			line_reset(g);
			return st;
		}
		g->start = b;
		g->has_fen = true;
	}
	g->start.chess960 = g->chess960;
	line_reset(g);
	return CD_OK;
}

cd_status
cd_game_set_start(cd_game *g, const cd_board *b)
{
	if (g->nnodes > 1)
		return CD_ERR_ARG;
	g->start = *b;
	g->has_fen = true;
	g->chess960 = b->chess960 != 0;
	line_reset(g);
	return CD_OK;
}

cd_pgn_result
cd_game_result(const cd_game *g)
{
	const char *v;
	size_t len = 0;

	v = known_value(g, KT_RESULT, &len);
	return cd__pgn_result_of(g->result, v, len);
}

void
cd_game_set_result(cd_game *g, cd_pgn_result r)
{
	g->result = r;
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
	if (setup) {
		xtag_set(&x[k++], "SetUp", 5, "1", 1);
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

/* ---- The builder ---- */

const cd_board *
cd_game_board(const cd_game *g)
{
	return &g->priv->line.board;
}

uint32_t
cd_game_cursor(const cd_game *g)
{
	return g->priv->line.has_move ? g->priv->line.cur : 0;
}

size_t
cd_game_depth(const cd_game *g)
{
	return g->priv->depth;
}

/*
 * Canonical SAN without the mark, quickly: a piece move needs no
 * disambiguation when no other piece of its type and colour attacks the
 * destination at all, which is the common case; otherwise ask
 * cd_san_write_bare (which looks at the legal moves).
 */
static size_t
san_bare(const cd_board *b, cd_move m, char *buf)
{
	int from = CD_MOVE_FROM(m), to = CD_MOVE_TO(m);
	int kind = CD_MOVE_KIND(m), type;
	cd_bitboard others;
	char *p = buf;

	if (kind != CD_MK_NORMAL)
		return cd_san_write_bare(b, m, buf);
	type = CD_PIECE_TYPE(b->squares[from]);
	if (type == CD_PAWN || type == CD_KING)
		return cd_san_write_bare(b, m, buf);
	others = b->by_type[type] & b->by_color[b->side] & ~CD_BB(from);
	if (others && (cd_attacks(type, b->side, to, b->by_type[0]) & others))
		return cd_san_write_bare(b, m, buf);
	*p++ = cd__piece_letters[type];
	if (b->squares[to])
		*p++ = 'x';
	*p++ = (char)('a' + CD_FILE(to));
	*p++ = (char)('1' + CD_RANK(to));
	*p = '\0';
	return (size_t)(p - buf);
}

/* cd__game_add_move_san, inline in it and in cd__game_add_san_fast (the
 * parser's path for nearly every move). */
static inline __attribute__((always_inline)) cd_status
add_move(cd_game *g, cd_move m, const char *san, size_t slen,
    uint32_t *node)
{
	struct cd__game_priv *p = g->priv;
	struct cd__line *l = &p->line;
	uint32_t idx = g->nnodes, parent;
	cd_game_node *nd;
	size_t n;

	if (idx >= g->priv->nodes_cap &&
	    grow32((void **)&g->nodes, &g->priv->nodes_cap, (size_t)idx + 1,
	    sizeof(*g->nodes), 256) != 0)
		return CD_ERR_NOMEM;
	g->nnodes++;
	nd = &g->nodes[idx];
	memset(nd, 0, sizeof(*nd));
	parent = l->has_move ? l->cur : l->base;
	nd->move = m;
	nd->parent = parent;
	nd->ply = g->nodes[parent].ply + 1;
	if (l->has_move) {
		g->nodes[l->cur].next = idx;
	} else if (p->depth == 0) {
		g->nodes[0].next = idx;
	} else {
		/* a variation's first move: the next variation of var_of,
		 * after the last one its owner line has seen */
		uint32_t *tail = &p->stack[l->owner].vtail;

		if (l->anchorless) {
			g->nnodes--;
			return CD_ERR_ARG;
		}
		if (*tail == 0)
			g->nodes[l->var_of].var = idx;
		else
			g->nodes[*tail].var_next = idx;
		*tail = idx;
		nd->before = l->pending;
		l->pending = 0;
		if (l->pending_nags != 0) {
			nd->nags = l->pending_nags;
			nd->flags = CD_NODE_NAGS_BEFORE;
			l->pending_nags = 0;
		}
	}
	if (san != NULL) {
		/* san has CD_SAN_MAX bytes (the parser's buffer), of which
		 * at most 6 and a NUL are used */
		memcpy(nd->san, san, sizeof(nd->san));
		nd->san[slen] = '\0';
		n = slen;
	} else {
		n = san_bare(&l->board, m, nd->san);
	}
	if (!l->prev_stale) {
		l->prev = l->board;
		l->prev_check = l->check;
	}
	if (CD_MOVE_KIND(m) == CD_MK_NORMAL) {
		cd__board_make_normal(&l->board, CD_MOVE_FROM(m),
		    CD_MOVE_TO(m));
		l->check = cd__gives_check(&l->board, CD_MOVE_FROM(m),
		    CD_MOVE_TO(m));
	} else {
		cd_board_make(&l->board, m);
		l->check = m != CD_MOVE_NULL && cd__in_check(&l->board);
	}
	if (l->check) {
		if (cd__can_answer_check(&l->board)) {
			nd->flags |= CD_NODE_CHECK;
			nd->san[n++] = '+';
		} else {
			nd->flags |= CD_NODE_MATE;
			nd->san[n++] = '#';
		}
		nd->san[n] = '\0';
	}
	nd->san_len = (uint8_t)n;
	l->cur = idx;
	l->vtail = 0;
	l->has_move = true;
	if (node)
		*node = idx;
	return CD_OK;
}

cd_status
cd__game_add_move_san(cd_game *g, cd_move m, const char *san, size_t slen,
    uint32_t *node)
{
	return add_move(g, m, san, slen, node);
}

int
cd__game_add_san_fast(cd_game *g, const char *t, size_t len,
    uint32_t *node)
{
	const struct cd__line *l = &g->priv->line;
	char san[CD_SAN_MAX];
	size_t slen;
	cd_move m;
	cd_status st;

	if (!cd__san_fast(&l->board, l->check, t, len, &m, san, &slen))
		return 0;
	st = add_move(g, m, san, slen, node);
	return st == CD_OK ? 1 : (int)st;
}

cd_status
cd__game_position_keep(cd_game *g)
{
	struct cd__game_priv *p = g->priv;
	uint32_t n = g->nnodes - 1;

	if (n >= p->positions_cap) {
		if (grow32((void **)&p->positions, &p->positions_cap,
		    (size_t)n + 1, sizeof(*p->positions), 256) != 0) {
			g->positions = NULL;
			return CD_ERR_NOMEM;
		}
	}
	p->positions[n] = p->line.board;
	g->positions = p->positions;
	return CD_OK;
}

cd_status
cd__game_add_move_trusted(cd_game *g, cd_move m, uint32_t *node)
{
	return cd__game_add_move_san(g, m, NULL, 0, node);
}

cd_status
cd_game_add_move(cd_game *g, cd_move m, uint32_t *node)
{
	const cd_board *b = &g->priv->line.board;

	g->positions = NULL;	/* (the parser's, which this move is not in) */
	if (m == CD_MOVE_NULL) {
		if (cd_board_in_check(b))
			return CD_ERR_ILLEGAL;
	} else if (!cd_board_is_legal(b, m)) {
		return CD_ERR_ILLEGAL;
	}
	return cd__game_add_move_trusted(g, m, node);
}

/* Bytes folded in comments: white space, control bytes, DEL, `}`. */
static inline bool
fold_byte(unsigned char c)
{
	return c <= 0x20 || c == 0x7f || c == '}';
}

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
#endif

#ifdef __SSE2__
/* plain_copy() for n >= 16, or plain_copy_avx2() where the processor
 * has AVX2 and n >= 32. */
static inline size_t
plain_copy_any(char *d, const char *s, size_t n, bool space)
{
#ifdef CD_AVX2
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
 * pass, 64 or 32 bytes at a time (AVX2), 32 or 16 (SSE2), or eight
 * bytes at a time.  Returns the length written (at most len).
 */
static size_t
fold(char *d, const char *s, size_t len)
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
		if (fold_byte((unsigned char)s[i])) {
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

/* Make the len bytes at off in the string store a note of kind at the
 * cursor's place. */
static inline cd_status
note_link(cd_game *g, int kind, size_t off, size_t len)
{
	struct cd__game_priv *p = g->priv;
	struct cd__line *l = &p->line;
	uint32_t idx = g->nnotes, *head;
	uint64_t key;
	cd_game_note *nt;

	if (idx >= g->priv->notes_cap && grow32((void **)&g->notes,
	    &g->priv->notes_cap, (size_t)idx + 1, sizeof(*g->notes), 64) != 0)
		return CD_ERR_NOMEM;
	g->nnotes++;
	nt = &g->notes[idx];
	nt->text = off;
	nt->len = len;
	nt->next = 0;
	nt->kind = (uint8_t)kind;
	if (l->has_move) {
		head = &g->nodes[l->cur].after;
		key = (uint64_t)l->cur << 1;
	} else if (p->depth == 0) {
		head = &g->nodes[0].after;
		key = 0;
	} else {
		head = &l->pending;
		key = ((uint64_t)p->depth << 1) | 1;
	}
	if (*head == 0) {
		*head = idx;
	} else if (key == p->tail_key) {
		g->notes[p->tail].next = idx;
	} else {
		uint32_t t = *head;

		while (g->notes[t].next)
			t = g->notes[t].next;
		g->notes[t].next = idx;
	}
	p->tail_key = key;
	p->tail = idx;
	return CD_OK;
}

/* Append a note of kind at the cursor's place. */
static cd_status
note_add(cd_game *g, int kind, const char *text, size_t len, bool fold_it,
    bool *changed)
{
	size_t off;

	if (fold_it) {
		/* trim, fold white space and control bytes, drop `}` */
		size_t a = 0, b = len;

		while (a < b && fold_byte((unsigned char)text[a]))
			a++;
		while (b > a && fold_byte((unsigned char)text[b - 1]))
			b--;
		if (changed)
			*changed = memchr(text, '}', len) != NULL;
		if (a == b)
			return CD_OK;
		if ((off = str_add(g, text + a, 0)) == (size_t)-1 ||
		    grow((void **)&g->str, &g->priv->str_cap, off + (b - a) + 1, 1,
		    256) != 0)
			return CD_ERR_NOMEM;
		len = fold(g->str + off, text + a, b - a);
		g->str[off + len] = '\0';
		g->str_len = off + len + 1;
	} else {
		if ((off = str_add(g, text, len)) == (size_t)-1)
			return CD_ERR_NOMEM;
	}
	return note_link(g, kind, off, len);
}

const char *
cd__game_add_plain_comment(cd_game *g, const char *s, const char *e,
    cd_status *st)
{
#ifdef __SSE2__
	size_t n, off = g->str_len, run;
	char *d;

	*st = CD_OK;
	while (s < e && *s == ' ')
		s++;
	if ((n = (size_t)(e - s)) < 16)
		return NULL;
	if (grow((void **)&g->str, &g->priv->str_cap, off + n + 1, 1,
	    256) != 0)
		return NULL;	/* (the lexer's way tells) */
	d = g->str + off;
	run = plain_copy_any(d, s, n, false);
	if (run == n || s[run] != '}')
		return NULL;
	e = s + run + 1;
	if (run > 0 && s[run - 1] == ' ')
		run--;
	if (run == 0)
		return e;
	d[run] = '\0';
	g->str_len = off + run + 1;
	*st = note_link(g, CD_NOTE_COMMENT, off, run);
	return e;
#else
	(void)g;
	(void)s;
	(void)e;
	*st = CD_OK;
	return NULL;
#endif
}

cd_status
cd_game_add_comment(cd_game *g, const char *text, size_t len, bool *changed)
{
	return note_add(g, CD_NOTE_COMMENT, text, len, true, changed);
}

cd_status
cd_game_add_escape(cd_game *g, const char *text, size_t len)
{
	return note_add(g, CD_NOTE_ESCAPE, text, len, false, NULL);
}
