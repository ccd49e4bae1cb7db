/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * opening.c: opening classification by position (chessdata/opening.h).
 *
 * The table is an array of lines (the position each ends in, unpacked
 * enough to be compared with a board, and its names in a string
 * store) and an open-addressing index of their Zobrist keys.  Beside
 * it, reach[]: for each set of pawns still on their first rank (White
 * on rank 2, Black on rank 7: 16 bits), the fewest pieces of a line
 * whose own such pawns are among them (kept as lines are added: each
 * lowers it for the supersets of its own set).  A game never brings a pawn
 * back to that rank nor gains a piece, so once a position has fewer
 * pieces than reach[] asks for its pawns, no later position of the
 * game is in the table, and classifying stops there (most games after
 * their first exchanges).  A game whose main-line keys the parser kept
 * (CD_PGN_PARSE_MAIN_KEYS) is not walked so: its keys are looked up
 * from the last, and its moves made again only up to the one position
 * found, to compare it with its line.
 *
 * A table is read at the start of every run, where a page of memory
 * first written costs more than the work on it (about 20 us in a
 * virtual machine): the table, its lines, names and index are kept
 * where the system can, in one region of 2 MB that it gives as one
 * page (a transparent huge page: one fault instead of some 200); what
 * does not fit, or where there is no such region, is allocated as
 * usual.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chessdata.h"
#include "common/internal.h"
#include "core/bits.h"
#include "pgn/pgn_internal.h"
#include "core/san_fast.h"

struct entry {			/* 64 bytes */
	uint64_t key;
	const char *names;	/* eco, name, opening, variation and
				 * subvariation, each NUL-terminated, one
				 * after the other */
	uint8_t squares[32];	/* a piece a nibble, a1 low in [0] */
	uint32_t plies;
	uint8_t castle[4];	/* castle_rook, flattened */
	uint8_t side;
	uint8_t ep;		/* only when ep_hashed, else CD_SQ_NONE */
	bool from_pgn;
};

#define FILTER_BITS	(1u << 17)
#define FILTER_BIT(key)	((unsigned)((key) >> 40) & (FILTER_BITS - 1))

/* Lines and names are kept in blocks that never move: a table is read
 * at the start of every run, where a page first written costs more
 * than the work on it, and growing one array would copy it, each copy
 * into new pages. */
#define EBLOCK	512		/* entries a block (32 KB) */
#define SBLOCK	(32u << 10)	/* bytes a block of names */

struct sblock {
	struct sblock *prev;
	char s[];
};

/* The region (see above): not under a sanitizer of memory, which checks
 * each allocation only when it is one of malloc's. */
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define HAVE_REGION	1
#define REGION_SIZE	((size_t)2 << 20)
#else
#define HAVE_REGION	0
#define REGION_SIZE	((size_t)0)
#endif
#define ALIGN64(n)	(((n) + 63) & ~(size_t)63)

struct cd_openings {
	char *region;		/* where this struct is, or NULL */
	size_t region_used;	/* bytes of it given out */
	struct entry **blk;	/* entry k in blk[k / EBLOCK] */
	size_t n, nblk;
	struct sblock *names;	/* the newest block of names */
	size_t names_used, names_size;	/* bytes in it, used and all */
	/* the index: a line's entry index + 1 in the low 32 bits (0: an
	 * empty slot), the high 32 bits of its key above them */
	uint64_t *slot;
	size_t slot_mask;	/* slots - 1 (a power of two), 0: none */
	cd_game *game;		/* reads the lines the stack does not */
	/* 255 less the fewest pieces of a line reachable from each set
	 * of first-rank pawns (0: none) */
	uint8_t reach[1 << 16];
	/* bit FILTER_BIT(key) set for the key of every line: most
	 * positions of a game are ruled out here, in 16 KB, without a
	 * probe of the index */
	uint64_t filter[FILTER_BITS / 64];
};

static inline struct entry *
ent(const cd_openings *o, size_t k)
{
	return &o->blk[k / EBLOCK][k % EBLOCK];
}

/* size bytes for the table, aligned to 64, zeroed when zero: from the
 * region while it has room, else from malloc. */
static void *
table_alloc(cd_openings *o, size_t size, bool zero)
{
	void *p;

	if (o->region != NULL && size <= REGION_SIZE - o->region_used) {
		p = o->region + o->region_used;
		o->region_used += ALIGN64(size);
		if (zero)
			memset(p, 0, size);
		return p;
	}
	if ((p = aligned_alloc(64, ALIGN64(size))) != NULL && zero)
		memset(p, 0, size);
	return p;
}

/* Give back what table_alloc gave (from the region: nothing). */
static void
table_free(cd_openings *o, void *p)
{
	if (o->region == NULL || (char *)p < o->region ||
	    (char *)p >= o->region + REGION_SIZE)
		free(p);
}

cd_openings *
cd_openings_new(void)
{
	size_t cap;
	char *region = HAVE_REGION ? cd__huge_alloc(REGION_SIZE, &cap) : NULL;
	cd_openings *o;

	if (region == NULL)
		return calloc(1, sizeof(cd_openings));
	o = (cd_openings *)(void *)region;
	memset(o, 0, sizeof(*o));
	o->region = region;
	o->region_used = ALIGN64(sizeof(*o));
	return o;
}

void
cd_openings_free(cd_openings *o)
{
	struct sblock *sb, *prev;
	size_t i;

	if (o == NULL)
		return;
	for (i = 0; i < o->nblk; i++)
		table_free(o, o->blk[i]);
	free(o->blk);
	for (sb = o->names; sb != NULL; sb = prev) {
		prev = sb->prev;
		table_free(o, sb);
	}
	table_free(o, o->slot);
	cd_game_free(o->game);
	free(o);		/* (the region, where it is one) */
}

size_t
cd_openings_count(const cd_openings *o)
{
	return o->n;
}

/* The set of pawns on their first rank: White's rank 2 in bits 0-7,
 * Black's rank 7 in bits 8-15. */
static inline unsigned
home_pawns(const cd_board *b)
{
	cd_bitboard p = b->by_type[CD_PAWN];

	return (unsigned)(((p & b->by_color[CD_WHITE]) >> 8) & 0xff) |
	    (unsigned)(((p & b->by_color[CD_BLACK]) >> 40) & 0xff00);
}

/* The pieces of b, a nibble each (a piece is at most 14). */
static void
pack(const cd_board *b, uint8_t out[32])
{
	int i;

	for (i = 0; i < 32; i++)
		out[i] = (uint8_t)(b->squares[2 * i] |
		    b->squares[2 * i + 1] << 4);
}

static bool
entry_is(const struct entry *e, const cd_board *b)
{
	uint8_t sq[32];

	if (e->key != b->key || e->side != b->side ||
	    e->ep != (b->ep_hashed ? b->ep : CD_SQ_NONE) ||
	    memcmp(e->castle, b->castle_rook, 4) != 0)
		return false;
	pack(b, sq);
	return memcmp(e->squares, sq, 32) == 0;
}

#define SLOT_TAG(key)	((key) >> 32)

/* Whether a line's key may be key: most positions of a game are ruled
 * out here, in 16 KB. */
static inline bool
filter_has(const cd_openings *o, uint64_t key)
{
	unsigned f = FILTER_BIT(key);

	return (o->filter[f / 64] >> (f % 64)) & 1;
}

/* The first line in the index whose key has the high bits of key, or
 * NULL. */
static inline const struct entry *
candidate(const cd_openings *o, uint64_t key)
{
	size_t i;

	for (i = (size_t)key & o->slot_mask; o->slot[i] != 0;
	    i = (i + 1) & o->slot_mask)
		if (SLOT_TAG(o->slot[i]) == SLOT_TAG(key))
			return ent(o, (uint32_t)o->slot[i] - 1);
	return NULL;
}

/* The line ending in b, or NULL. */
static const struct entry *
lookup(const cd_openings *o, const cd_board *b)
{
	const struct entry *e;
	size_t i;

	if (!filter_has(o, b->key))
		return NULL;
	for (i = (size_t)b->key & o->slot_mask; o->slot[i] != 0;
	    i = (i + 1) & o->slot_mask)
		if (SLOT_TAG(o->slot[i]) == SLOT_TAG(b->key) &&
		    entry_is(e = ent(o, (uint32_t)o->slot[i] - 1), b))
			return e;
	return NULL;
}

static void
slot_put(cd_openings *o, size_t k)
{
	uint64_t key = ent(o, k)->key;
	size_t i;

	for (i = (size_t)key & o->slot_mask; o->slot[i] != 0;
	    i = (i + 1) & o->slot_mask)
		;
	o->slot[i] = SLOT_TAG(key) << 32 | ((uint64_t)k + 1);
	o->filter[FILTER_BIT(key) / 64] |= (uint64_t)1 << (FILTER_BIT(key) % 64);
}

/* Room for one more line: in its block, and in the index (at most half
 * full). */
static cd_status
room(cd_openings *o)
{
	size_t cap = o->slot_mask + 1, k;
	uint64_t *slot;

	if (o->n == o->nblk * EBLOCK) {
		struct entry **blk = realloc(o->blk,
		    (o->nblk + 1) * sizeof(*blk));

		if (blk == NULL)
			return CD_ERR_NOMEM;
		o->blk = blk;
		/* (an entry a cache line) */
		if ((blk[o->nblk] = table_alloc(o, EBLOCK * sizeof(**blk),
		    false)) == NULL)
			return CD_ERR_NOMEM;
		o->nblk++;
	}
	if (o->slot_mask != 0 && 2 * (o->n + 1) <= cap)
		return CD_OK;
	if (o->n + 1 > UINT32_MAX / 2)
		return CD_ERR_NOMEM;
	for (cap = 1024; cap < 4 * (o->n + 1); cap *= 2)
		;
	if ((slot = table_alloc(o, cap * sizeof(*slot), true)) == NULL)
		return CD_ERR_NOMEM;
	table_free(o, o->slot);
	o->slot = slot;
	o->slot_mask = cap - 1;
	for (k = 0; k < o->n; k++)
		slot_put(o, k);
	return CD_OK;
}

/* The names of one line, as strings and lengths: eco, opening,
 * variation, subvariation (a TSV line: its name as the opening). */
struct names {
	const char *s[4];
	size_t len[4];
};

/* n bytes of a name from s to p, a control byte or DEL made a space (as
 * the parser makes them in a tag's value): past them. */
static char *
name_copy(char *p, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		p[i] = c < 0x20 || c == 0x7f ? ' ' : (char)c;
	}
	return p + n;
}

/* The names of a line into the store, as entry.names has them: NULL
 * when out of memory. */
static const char *
names_put(cd_openings *o, const struct names *nm, bool from_pgn)
{
	static const char *const sep[] = { "", ": ", ", " };
	size_t need = 5;
	char *start, *p;
	int k, n = 0;

	for (k = 0; k < 4; k++)
		need += 2 * nm->len[k] + 2;
	if (o->names == NULL || need > o->names_size - o->names_used) {
		size_t size = need > SBLOCK ? need : SBLOCK;
		struct sblock *sb = table_alloc(o, sizeof(*sb) + size,
		    false);

		if (sb == NULL)
			return NULL;
		sb->prev = o->names;
		o->names = sb;
		o->names_used = 0;
		o->names_size = size;
	}
	start = p = o->names->s + o->names_used;
	p = name_copy(p, nm->s[0], nm->len[0]);	/* eco */
	*p++ = '\0';
	/* the name: the TSV name, or Opening: Variation, SubVariation */
	for (k = 1; k < (from_pgn ? 4 : 2); k++) {
		if (nm->len[k] == 0)
			continue;
		if (n > 0) {
			memcpy(p, sep[n < 2 ? n : 2], 2);
			p += 2;
		}
		p = name_copy(p, nm->s[k], nm->len[k]);
		n++;
	}
	*p++ = '\0';
	for (k = 1; k < 4; k++) {
		if (from_pgn)
			p = name_copy(p, nm->s[k], nm->len[k]);
		*p++ = '\0';
	}
	o->names_used += (size_t)(p - start);
	return start;
}

/* reach[] with one more line: every set of first-rank pawns that holds
 * the line's own (its supersets) can reach it with its pieces. */
static void
reach_add(cd_openings *o, const cd_board *b)
{
	unsigned home = home_pawns(b), free_bits = ~home & 0xffff, m;
	int count = cd__popcount(b->by_type[0]);

	/* the subsets of free_bits, each joined to home */
	m = 0;
	do {
		if (255 - count > o->reach[home | m])
			o->reach[home | m] = (uint8_t)(255 - count);
		m = (m - free_bits) & free_bits;
	} while (m != 0);
}

/* Add the line ending in b (after plies moves), unless a line read
 * before ends there. */
static cd_status
add_line(cd_openings *o, const cd_board *b, uint32_t plies,
    const struct names *nm, bool from_pgn)
{
	struct entry *e;
	const char *names;

	if (plies == 0 || lookup(o, b) != NULL)
		return CD_OK;
	if (room(o) != CD_OK || (names = names_put(o, nm, from_pgn)) == NULL)
		return CD_ERR_NOMEM;
	e = ent(o, o->n);
	e->key = b->key;
	e->names = names;
	pack(b, e->squares);
	memcpy(e->castle, b->castle_rook, 4);
	e->side = b->side;
	e->ep = b->ep_hashed ? b->ep : CD_SQ_NONE;
	e->from_pgn = from_pgn;
	e->plies = plies;
	slot_put(o, o->n);
	o->n++;
	reach_add(o, b);
	return CD_OK;
}

/* ---- the TSV form ---- */

/* (the tags of a PGN table's names) */
static const char *const pgn_tag[4] = { "ECO", "Opening", "Variation",
    "SubVariation" };

/* The end of the line at p (its LF or e), and *next past it. */
static const char *
line_end(const char *p, const char *e, const char **next)
{
	const char *q = memchr(p, '\n', (size_t)(e - p));

	if (q == NULL)
		q = e;
	*next = q < e ? q + 1 : e;
	if (q > p && q[-1] == '\r')
		q--;
	return q;
}

/* Column c (from 0) of the tab-separated line [p, e): *s, *n; false
 * when the line has fewer. */
static bool
column(const char *p, const char *e, int c, const char **s, size_t *n)
{
	const char *t;

	for (; c > 0; c--) {
		if ((t = memchr(p, '\t', (size_t)(e - p))) == NULL)
			return false;
		p = t + 1;
	}
	t = memchr(p, '\t', (size_t)(e - p));
	*s = p;
	*n = (size_t)((t ? t : e) - p);
	return true;
}

/* The columns eco, name, pgn of a header line, or false. */
static bool
tsv_header(const char *p, const char *e, int col[3])
{
	static const char *const want[3] = { "eco", "name", "pgn" };
	const char *s;
	size_t n;
	int c, k;

	col[0] = col[1] = col[2] = -1;
	for (c = 0; column(p, e, c, &s, &n); c++)
		for (k = 0; k < 3; k++)
			if (col[k] < 0 && n == strlen(want[k]) &&
			    strncmp(s, want[k], n) == 0)
				col[k] = c;
	return col[0] >= 0 && col[1] >= 0 && col[2] >= 0;
}

/*
 * The lines of a table, played on a stack of boards: consecutive lines
 * share their first moves (a table lists the lines of an opening one
 * after another), and a move the line before played from the same
 * position with the same text is not played again.  Only the common
 * moves are played here (those cd__san_fast reads: what the game builder
 * reads first too); a line with another is played again from the start
 * by the game builder, which reads every move and gives the error
 * messages.
 */
#define STACK_PLIES	96

struct stack {
	int depth;		/* b[0..depth] hold the positions */
	const char *tok[STACK_PLIES];	/* the move played at each ply */
	uint8_t len[STACK_PLIES];
	bool check[STACK_PLIES + 1];	/* b[k]'s side to move in check */
	cd_board b[STACK_PLIES + 1];
};

static void
stack_init(struct stack *st)
{
	st->depth = 0;
	cd_board_init(&st->b[0]);
	st->check[0] = false;
}

/* The move number, alone or before its move, that t[0..*len) starts
 * with: true when the word is a move number only; else t and *len the
 * move after it (if any). */
static inline bool
skip_number(const char **t, size_t *len)
{
	const char *d = *t, *w = *t + *len;

	if (*d < '0' || *d > '9')
		return false;
	while (d < w && *d >= '0' && *d <= '9')
		d++;
	if (d < w && *d == '.') {
		while (d < w && *d == '.')
			d++;
		if (d == w)
			return true;
		*len = (size_t)(w - d);
		*t = d;
	}
	return false;
}

/* Play the move t[0..len) at ply k of st (the line so far the same as
 * the stack's): true when the stack has it (played before, or played
 * now); false when cd__san_fast does not read it. */
static inline bool
stack_move(struct stack *st, int k, const char *t, size_t len)
{
	char san[CD_SAN_MAX];
	size_t slen;
	cd_board *b;
	cd_move m;

	if (k < st->depth) {
		if (st->len[k] == len && memcmp(st->tok[k], t, len) == 0)
			return true;
		st->depth = k;
	}
	if (k >= STACK_PLIES || len > UINT8_MAX ||
	    !cd__san_fast(&st->b[k], st->check[k], t, len, &m, san, &slen))
		return false;
	b = &st->b[k + 1];
	*b = st->b[k];
	if (CD_MOVE_KIND(m) == CD_MK_NORMAL) {
		cd__board_make_normal(b, CD_MOVE_FROM(m), CD_MOVE_TO(m));
		st->check[k + 1] = cd__gives_check(b, CD_MOVE_FROM(m),
		    CD_MOVE_TO(m));
	} else {
		cd_board_make(b, m);
		st->check[k + 1] = cd__in_check(b);
	}
	st->tok[k] = t;
	st->len[k] = (uint8_t)len;
	st->depth = k + 1;
	return true;
}

/* A byte between the words of a line: a blank, in PGN also a line
 * end or a tab. */
static inline bool
sep(char c, bool pgn)
{
	return c == ' ' || (pgn && (c == '\n' || c == '\r' || c == '\t'));
}

/* The moves of s[0..n) (SAN, move numbers, a result; a TSV line's,
 * where "!" and "?" after a move are dropped, or PGN movetext) played on
 * the stack: the plies, with the position in st->b[plies]; -1 when a
 * move is not one the stack plays. */
static int
stack_line(struct stack *st, const char *s, size_t n, bool pgn)
{
	const char *p = s, *e = s + n;
	int k = 0;

	for (;;) {
		const char *t, *w;
		size_t len;

		while (p < e && sep(*p, pgn))
			p++;
		if (p == e)
			return k;
		for (w = p; w < e && !sep(*w, pgn); w++)
			;
		t = p;
		len = (size_t)(w - t);
		p = w;
		if (skip_number(&t, &len))
			continue;
		/* (a move begins with a letter, a result never) */
		if ((*t < 'A' || (*t > 'Z' && *t < 'a') || *t > 'z') &&
		    cd_pgn_result_parse(t, len) != CD_PGN_RESULT_NONE) {
			/* (in PGN movetext only as its last word) */
			while (pgn && p < e && sep(*p, pgn))
				p++;
			if (p < e && pgn)
				return -1;
			continue;
		}
		while (!pgn && len > 0 &&
		    (t[len - 1] == '!' || t[len - 1] == '?'))
			len--;
		if (!stack_move(st, k, t, len))
			return -1;
		k++;
	}
}


/* The game that reads the lines the stack does not play (made when
 * first needed), or NULL when out of memory. */
static cd_game *
line_game(cd_openings *o)
{
	if (o->game == NULL)
		o->game = cd_game_new();
	return o->game;
}

/* Play the moves of s[0..n) (SAN, move numbers and a result allowed)
 * from the initial position in o->game. */
static cd_status
play_line(cd_openings *o, const char *s, size_t n, unsigned long line,
    unsigned long col0, cd_error *err)
{
	cd_game *g = line_game(o);
	const char *p = s, *e = s + n;

	if (g == NULL) {
		cd__error_set(err, CD_ERR_NOMEM, 0, line, col0, "%s",
		    cd_strerror(CD_ERR_NOMEM));
		return CD_ERR_NOMEM;
	}
	cd_game_clear(g);
	for (;;) {
		const char *t, *w, *why;
		cd_error se;
		cd_status st;
		cd_move m;
		size_t len;
		int k;

		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		if (p == e)
			return CD_OK;
		for (w = p; w < e && *w != ' '; w++)
			;
		t = p;
		p = w;
		/* a move number, alone or before its move */
		if (*t >= '0' && *t <= '9') {
			const char *d = t;

			while (d < w && *d >= '0' && *d <= '9')
				d++;
			if (d < w && *d == '.') {
				while (d < w && *d == '.')
					d++;
				if ((t = d) == w)
					continue;
			}
		}
		len = (size_t)(w - t);
		if (cd_pgn_result_parse(t, len) != CD_PGN_RESULT_NONE)
			continue;
		while (len > 0 && (t[len - 1] == '!' || t[len - 1] == '?'))
			len--;
		k = cd__game_add_san_fast(g, t, len, NULL);
		if (k > 0)
			continue;
		st = (cd_status)k;
		why = NULL;
		if (k == 0) {
			st = cd_san_parse(cd_game_board(g), t, len, NULL, 0, &m,
			    &se);
			if (st != CD_OK)
				why = se.msg;
			else if ((st = cd_game_add_move(g, m, NULL)) == CD_OK)
				continue;
		}
		cd__error_set(err, st, (uint64_t)(t - s), line,
		    col0 + (unsigned long)(t - s), "%.*s: %s",
		    (int)(len < 20 ? len : 20), t,
		    why != NULL ? why : cd_strerror(st));
		return st;
	}
}

/* A line's names: an error unless it has an ECO code and a name (a
 * line without is no table's: a file of games read as one, a row with
 * an empty column).  number: the line's game in a PGN table, else 0
 * (TSV: col0 the columns of eco and name). */
static cd_status
names_check(const struct names *nm, uint64_t off, unsigned long line,
    const unsigned long col0[2], unsigned long long number, cd_error *err)
{
	static const char *const what[2] = { "eco", "name" };
	int k = nm->len[0] == 0 ? 0 : 1;

	if (nm->len[k] > 0)
		return CD_OK;
	if (number == 0)
		cd__error_set(err, CD_ERR_SYNTAX, off, line, col0[k],
		    "empty %s column: a line of an opening table needs its "
		    "ECO code and its name", what[k]);
	else if (number == 1 && nm->len[1] == 0)
		cd__error_set(err, CD_ERR_SYNTAX, off, line, col0[0],
		    "game 1 has no %sOpening tag: not an opening table (a "
		    "file of games?)", k == 0 ? "ECO and no " : "");
	else
		cd__error_set(err, CD_ERR_SYNTAX, off, line, col0[0],
		    "game %llu has no %s tag: a line of an opening table "
		    "needs its ECO code and its name", number,
		    pgn_tag[k]);
	return CD_ERR_SYNTAX;
}

static cd_status
read_tsv(cd_openings *o, struct stack *sk, const char *p, const char *e,
    const int col[3], cd_error *err)
{
	unsigned long line = 1;
	const char *next, *start = p;

	for (line_end(p, e, &next), p = next; p < e; p = next) {
		const char *end = line_end(p, e, &next), *s;
		const cd_board *b;
		unsigned long at[2];
		struct names nm;
		uint32_t plies;
		size_t n;
		cd_status st;
		int k;

		line++;
		if (end == p)
			continue;
		memset(&nm, 0, sizeof(nm));
		for (k = 0; k < 3; k++) {
			if (!column(p, end, col[k], &s, &n)) {
				cd__error_set(err, CD_ERR_SYNTAX, 0, line, 1,
				    "fewer columns than the header names");
				return CD_ERR_SYNTAX;
			}
			if (k < 2) {
				nm.s[k] = s;
				nm.len[k] = n;
				at[k] = (unsigned long)(s - p) + 1;
			}
		}
		if ((k = stack_line(sk, s, n, false)) >= 0) {
			plies = (uint32_t)k;
			b = &sk->b[k];
		} else {
			if ((st = play_line(o, s, n, line,
			    (unsigned long)(s - p) + 1, err)) != CD_OK)
				return st;
			plies = o->game->nnodes - 1;
			b = cd_game_board(o->game);
		}
		/* (a line without moves names nothing) */
		if (plies > 0 && names_check(&nm, (uint64_t)(p - start),
		    line, at, 0, err) != CD_OK)
			return CD_ERR_SYNTAX;
		st = add_line(o, b, plies, &nm, false);
		if (st != CD_OK) {
			cd__error_set(err, st, 0, line, 0, "%s",
			    cd_strerror(st));
			return st;
		}
	}
	return CD_OK;
}

/* ---- the PGN form ---- */

/* A line as the parser would read it, without the parser: from the
 * initial position (no FEN, SetUp or Variant tag), its names with
 * nothing to unescape, its movetext moves, move numbers and the result
 * only, each move one the stack plays.  The plies, or -1: then the
 * parser reads it. */
static int
pgn_simple(struct stack *sk, const cd_pgn_raw_game *raw, struct names *nm)
{
	static const char *const start[3] = { "FEN", "SetUp", "Variant" };
	const char *s = raw->text + raw->movetext;
	size_t n = raw->movetext_end - raw->movetext, i;
	int k;

	if (raw->flags != 0)
		return -1;
	for (k = 0; k < 3; k++)
		if (cd_pgn_raw_tag(raw, start[k]) != NULL)
			return -1;
	for (k = 0; k < 4; k++) {
		const cd_pgn_tag *t = cd_pgn_raw_tag(raw, pgn_tag[k]);

		nm->s[k] = t != NULL ? t->value : NULL;
		nm->len[k] = t != NULL ? t->value_len : 0;
		for (i = 0; i < nm->len[k]; i++)
			if (nm->s[k][i] == '\\' || nm->s[k][i] == '\0' ||
			    (nm->s[k][i] & 0x80))
				return -1;
	}
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || (c != '\0' &&
		    strchr(".-+#=*/ \n\r\t", c) != NULL)))
			return -1;
	}
	return stack_line(sk, s, n, true);
}

static cd_status
read_pgn(cd_openings *o, struct stack *sk, const char *text, size_t len,
    cd_error *err)
{
	cd_pgn_reader *r = cd_pgn_reader_new_mem(text, len);
	cd_game *g;
	cd_pgn_raw_game raw;
	cd_status st;

	if (r == NULL)
		return CD_ERR_NOMEM;
	while ((st = cd_pgn_reader_next(r, &raw)) == CD_OK) {
		unsigned long at[2] = { raw.col, raw.col };
		struct names nm;
		cd_board b;
		uint32_t i, plies = 0;
		int k;

		if ((k = pgn_simple(sk, &raw, &nm)) >= 0) {
			if (k > 0 && (st = names_check(&nm, raw.offset,
			    raw.line, at, raw.number, err)) != CD_OK)
				break;
			if ((st = add_line(o, &sk->b[k], (uint32_t)k, &nm,
			    true)) != CD_OK) {
				cd__error_set(err, st, raw.offset, raw.line,
				    raw.col, "%s", cd_strerror(st));
				break;
			}
			continue;
		}
		if ((g = line_game(o)) == NULL) {
			st = CD_ERR_NOMEM;
			cd__error_set(err, st, raw.offset, raw.line, raw.col,
			    "%s", cd_strerror(st));
			break;
		}
		if ((st = cd_pgn_parse(g, &raw, NULL, err)) != CD_OK)
			break;
		for (k = 0; k < 4; k++)
			nm.s[k] = cd_game_tag_value(g, pgn_tag[k],
			    &nm.len[k]);
		for (k = 0; k < 4; k++)
			if (nm.s[k] == NULL)
				nm.len[k] = 0;
		for (i = g->nodes[0].next; i != 0; i = g->nodes[i].next)
			plies++;
		cd_game_end_position(g, &b);
		if (plies > 0 && (st = names_check(&nm, raw.offset,
		    raw.line, at, raw.number, err)) != CD_OK)
			break;
		if ((st = add_line(o, &b, plies, &nm, true)) != CD_OK) {
			cd__error_set(err, st, raw.offset, raw.line, raw.col,
			    "%s", cd_strerror(st));
			break;
		}
	}
	if (st == CD_EOF)
		st = CD_OK;
	else if (st == CD_ERR_NOMEM || st == CD_ERR_IO)
		*err = *cd_pgn_reader_error(r);
	cd_pgn_reader_free(r);
	return st;
}

cd_status
cd_openings_read(cd_openings *o, const char *text, size_t len,
    cd_error *err)
{
	const char *e = text + len, *next, *end, *t;
	struct stack *sk;
	cd_error tmp;
	cd_status st;
	int col[3];

	if (err == NULL)
		err = &tmp;
	cd__error_ok(err);
	/* (a byte order mark before a TSV header; the PGN reader skips
	 * its own) */
	t = len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0 ? text + 3 :
	    text;
	end = line_end(t, e, &next);
	if ((sk = malloc(sizeof(*sk))) == NULL) {
		cd__error_set(err, CD_ERR_NOMEM, 0, 0, 0, "%s",
		    cd_strerror(CD_ERR_NOMEM));
		return CD_ERR_NOMEM;
	}
	stack_init(sk);
	if (memchr(t, '\t', (size_t)(end - t)) != NULL &&
	    tsv_header(t, end, col))
		st = read_tsv(o, sk, t, e, col, err);
	else
		st = read_pgn(o, sk, text, len, err);
	free(sk);
	return st;
}

/* ---- classifying ---- */

static void
entry_out(const cd_openings *o, const struct entry *e, cd_opening *out)
{
	const char *p = e->names;

	(void)o;
	out->eco = p;
	p += strlen(p) + 1;
	out->name = p;
	p += strlen(p) + 1;
	out->opening = e->from_pgn ? p : out->name;
	p += strlen(p) + 1;
	out->variation = p;
	p += strlen(p) + 1;
	out->subvariation = p;
	out->from_pgn = e->from_pgn;
	out->line_plies = e->plies;
	out->ply = 0;
}

bool
cd_openings_find(const cd_openings *o, const cd_board *b, cd_opening *out)
{
	const struct entry *e = lookup(o, b);

	if (e == NULL)
		return false;
	entry_out(o, e, out);
	return true;
}

/* The positions of a game the filter lets through, the last CANDS */
#define CANDS	32

/*
 * The last position of g's main line that ends a line of o: *ply and
 * the line, or NULL.  With exact, each position is looked up and
 * compared with its line.  Else the positions the filter lets through
 * are kept, and looked up in the index from the last: the first whose
 * key's high bits a line has is the answer when it is that line's
 * position (nearly always: a key and a position that differ share 32
 * bits of their keys once in four thousand million).  When it is not,
 * or more than CANDS went through without one, NULL is returned with
 * *ply not 0.
 */
static const struct entry *
classify_walk(const cd_openings *o, const cd_game *g, bool exact,
    uint32_t *ply)
{
	const cd_board *pos = g->positions, *b;
	const struct entry *found = NULL, *e;
	cd_board cur = g->start, cand[CANDS];
	uint32_t i, cand_ply[CANDS], n = 0;

	*ply = 0;
	for (i = g->nodes[0].next; i != 0; i = g->nodes[i].next) {
		cd_move m = g->nodes[i].move;

		if (pos != NULL) {
			b = &pos[i];
		} else {
			if (CD_MOVE_KIND(m) == CD_MK_NORMAL)
				cd__board_make_normal(&cur, CD_MOVE_FROM(m),
				    CD_MOVE_TO(m));
			else
				cd_board_make(&cur, m);
			b = &cur;
		}
		/* (pieces and first-rank pawns change only with a capture
		 * or a pawn move, which reset the clock) */
		if ((b->halfmove == 0 || i == g->nodes[0].next) &&
		    255 - o->reach[home_pawns(b)] >
		    cd__popcount(b->by_type[0]))
			break;
		if (exact) {
			if ((e = lookup(o, b)) != NULL) {
				found = e;
				*ply = g->nodes[i].ply;
			}
		} else if (filter_has(o, b->key)) {
			cand[n % CANDS] = *b;
			cand_ply[n % CANDS] = g->nodes[i].ply;
			n++;
		}
	}
	if (exact)
		return found;
	for (i = n; i > 0 && i + CANDS > n; i--) {
		b = &cand[(i - 1) % CANDS];
		if ((e = candidate(o, b->key)) != NULL) {
			*ply = cand_ply[(i - 1) % CANDS];
			return entry_is(e, b) ? e : NULL;
		}
	}
	if (i > 0)
		*ply = 1;	/* (the earlier ones are not kept) */
	return NULL;
}

/*
 * classify_walk for a game whose main-line keys the parser kept
 * (CD_PGN_PARSE_MAIN_KEYS): the keys are looked up from the last, and
 * the moves made again only up to the first that a line's key has (its
 * 32 high bits), to compare the position with the line.  NULL with *ply
 * not 0 when that position is not the line's.
 */
static const struct entry *
classify_keys(const cd_openings *o, const cd_game *g, uint32_t *ply)
{
	const uint64_t *key = g->priv->keys;
	const struct entry *e = NULL;
	cd_board b;
	uint32_t k, i;

	*ply = 0;
	for (k = (uint32_t)(g->priv->key_next - key); k > 0; k--)
		if (filter_has(o, key[k - 1]) &&
		    (e = candidate(o, key[k - 1])) != NULL)
			break;
	if (k == 0)
		return NULL;
	b = g->start;
	for (i = g->nodes[0].next; i != 0; i = g->nodes[i].next) {
		cd_move m = g->nodes[i].move;

		if (CD_MOVE_KIND(m) == CD_MK_NORMAL)
			cd__board_make_normal(&b, CD_MOVE_FROM(m),
			    CD_MOVE_TO(m));
		else
			cd_board_make(&b, m);
		if (--k == 0)
			break;
	}
	*ply = i != 0 ? g->nodes[i].ply : 1;
	return i != 0 && entry_is(e, &b) ? e : NULL;
}

bool
cd_openings_classify(const cd_openings *o, const cd_game *g,
    cd_opening *out)
{
	const struct entry *found;
	uint32_t ply;

	/* (when the last candidate is not the line, the game is walked
	 * again comparing each) */
	if (g->priv->keys_ok)
		found = classify_keys(o, g, &ply);
	else
		found = classify_walk(o, g, false, &ply);
	if (found == NULL && ply != 0)
		found = classify_walk(o, g, true, &ply);
	if (found == NULL)
		return false;
	entry_out(o, found, out);
	out->ply = ply;
	return true;
}
