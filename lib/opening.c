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
 * their first exchanges).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "chessdata.h"
#include "internal.h"
#include "bits.h"
#include "pgn_internal.h"

struct entry {
	uint64_t key;
	uint8_t squares[32];	/* a piece a nibble, a1 low in [0] */
	uint8_t castle[4];	/* castle_rook, flattened */
	uint8_t side;
	uint8_t ep;		/* only when ep_hashed, else CD_SQ_NONE */
	bool from_pgn;
	uint32_t plies;
	uint32_t eco, name, opening, variation, subvariation; /* in str */
};

#define FILTER_BITS	(1u << 17)
#define FILTER_BIT(key)	((unsigned)((key) >> 40) & (FILTER_BITS - 1))

struct cd_openings {
	struct entry *e;
	size_t n, cap;
	char *str;		/* str[0] is "" */
	size_t str_len, str_cap;
	uint64_t *slot_key;
	uint32_t *slot_ent;	/* entry index + 1, 0 when empty */
	size_t slot_mask;	/* slots - 1 (a power of two), 0: none */
	cd_game *game;		/* reads the lines */
	uint8_t reach[1 << 16];
	/* bit FILTER_BIT(key) set for the key of every line: most
	 * positions of a game are ruled out here, in 16 KB, without a
	 * probe of the index */
	uint64_t filter[FILTER_BITS / 64];
};

cd_openings *
cd_openings_new(void)
{
	cd_openings *o = calloc(1, sizeof(*o));

	if (o == NULL)
		return NULL;
	if ((o->str = malloc(256)) == NULL ||
	    (o->game = cd_game_new()) == NULL) {
		free(o->str);
		free(o);
		return NULL;
	}
	o->str[0] = '\0';
	o->str_len = 1;
	o->str_cap = 256;
	memset(o->reach, 0xff, sizeof(o->reach));
	return o;
}

void
cd_openings_free(cd_openings *o)
{
	if (o == NULL)
		return;
	free(o->e);
	free(o->str);
	free(o->slot_key);
	free(o->slot_ent);
	cd_game_free(o->game);
	free(o);
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

/* The line ending in b, or NULL. */
static inline const struct entry *
lookup(const cd_openings *o, const cd_board *b)
{
	unsigned f = FILTER_BIT(b->key);
	size_t i;

	if (!((o->filter[f / 64] >> (f % 64)) & 1))
		return NULL;
	for (i = (size_t)b->key & o->slot_mask; o->slot_ent[i] != 0;
	    i = (i + 1) & o->slot_mask)
		if (o->slot_key[i] == b->key &&
		    entry_is(&o->e[o->slot_ent[i] - 1], b))
			return &o->e[o->slot_ent[i] - 1];
	return NULL;
}

static void
slot_put(cd_openings *o, size_t k)
{
	size_t i;

	for (i = (size_t)o->e[k].key & o->slot_mask; o->slot_ent[i] != 0;
	    i = (i + 1) & o->slot_mask)
		;
	o->slot_key[i] = o->e[k].key;
	o->slot_ent[i] = (uint32_t)k + 1;
	o->filter[FILTER_BIT(o->e[k].key) / 64] |=
	    (uint64_t)1 << (FILTER_BIT(o->e[k].key) % 64);
}

/* Room for more lines in the array (growing by as many again at
 * least) and in the index (at most half full). */
static cd_status
room(cd_openings *o, size_t more)
{
	size_t cap = o->slot_mask + 1, k;
	uint64_t *keys;
	uint32_t *ents;

	if (o->n + more > o->cap) {
		size_t ecap = o->n + (more > o->n ? more : o->n);
		struct entry *e = realloc(o->e, ecap * sizeof(*e));

		if (e == NULL)
			return CD_ERR_NOMEM;
		o->e = e;
		o->cap = ecap;
	}
	if (o->slot_mask != 0 && 2 * o->cap <= cap)
		return CD_OK;
	for (cap = 1024; cap < 2 * o->cap; cap *= 2)
		;
	keys = malloc(cap * sizeof(*keys));
	ents = calloc(cap, sizeof(*ents));
	if (keys == NULL || ents == NULL) {
		free(keys);
		free(ents);
		return CD_ERR_NOMEM;
	}
	free(o->slot_key);
	free(o->slot_ent);
	o->slot_key = keys;
	o->slot_ent = ents;
	o->slot_mask = cap - 1;
	for (k = 0; k < o->n; k++)
		slot_put(o, k);
	return CD_OK;
}

/* s[0..len) into the string store: its offset (0 for ""), or -1 when
 * out of memory.  parts joins more: "a: b, c". */
static long
str_put(cd_openings *o, const char *const *parts, const size_t *lens,
    int nparts)
{
	static const char *const sep[] = { "", ": ", ", " };
	size_t need = 1, off = o->str_len;
	int i, n = 0;

	for (i = 0; i < nparts; i++)
		need += lens[i] + 2;
	if (need == 1 + 2 * (size_t)nparts)
		return 0;
	if (o->str_len + need > o->str_cap) {
		size_t cap = o->str_cap;
		char *p;

		while (o->str_len + need > cap)
			cap *= 2;
		if (cap > UINT32_MAX || (p = realloc(o->str, cap)) == NULL)
			return -1;
		o->str = p;
		o->str_cap = cap;
	}
	for (i = 0; i < nparts; i++) {
		if (lens[i] == 0)
			continue;
		if (n > 0) {
			memcpy(o->str + o->str_len, sep[n < 2 ? n : 2], 2);
			o->str_len += 2;
		}
		memcpy(o->str + o->str_len, parts[i], lens[i]);
		o->str_len += lens[i];
		n++;
	}
	o->str[o->str_len++] = '\0';
	return (long)off;
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
		if (count < o->reach[home | m])
			o->reach[home | m] = (uint8_t)count;
		m = (m - free_bits) & free_bits;
	} while (m != 0);
}

/* The names of one line, as strings and lengths: eco, opening,
 * variation, subvariation (a TSV line: its name as the opening). */
struct names {
	const char *s[4];
	size_t len[4];
};

/* Add the line ending in b (after plies moves), unless a line read
 * before ends there. */
static cd_status
add_line(cd_openings *o, const cd_board *b, uint32_t plies,
    const struct names *nm, bool from_pgn)
{
	struct entry *e;
	long off[5];
	int i;

	if (plies == 0 || lookup(o, b) != NULL)
		return CD_OK;
	if (room(o, 1) != CD_OK)
		return CD_ERR_NOMEM;
	for (i = 0; i < 4; i++)
		if ((off[i] = str_put(o, &nm->s[i], &nm->len[i], 1)) < 0)
			return CD_ERR_NOMEM;
	off[4] = !from_pgn ? off[1] : str_put(o, &nm->s[1], &nm->len[1], 3);
	if (off[4] < 0)
		return CD_ERR_NOMEM;
	e = &o->e[o->n];
	e->key = b->key;
	pack(b, e->squares);
	memcpy(e->castle, b->castle_rook, 4);
	e->side = b->side;
	e->ep = b->ep_hashed ? b->ep : CD_SQ_NONE;
	e->from_pgn = from_pgn;
	e->plies = plies;
	e->eco = (uint32_t)off[0];
	e->opening = (uint32_t)off[1];
	e->variation = (uint32_t)off[2];
	e->subvariation = (uint32_t)off[3];
	e->name = (uint32_t)off[4];
	slot_put(o, o->n);
	o->n++;
	reach_add(o, b);
	return CD_OK;
}

/* ---- the TSV form ---- */

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

/* Play the moves of s[0..n) (SAN, move numbers and a result allowed)
 * from the initial position in o->game. */
static cd_status
play_line(cd_openings *o, const char *s, size_t n, unsigned long line,
    unsigned long col0, cd_error *err)
{
	cd_game *g = o->game;
	const char *p = s, *e = s + n;

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

static cd_status
read_tsv(cd_openings *o, const char *p, const char *e, const int col[3],
    cd_error *err)
{
	unsigned long line = 1;
	const char *next;

	for (line_end(p, e, &next), p = next; p < e; p = next) {
		const char *end = line_end(p, e, &next), *s;
		struct names nm;
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
			}
		}
		if ((st = play_line(o, s, n, line,
		    (unsigned long)(s - p) + 1, err)) != CD_OK)
			return st;
		st = add_line(o, cd_game_board(o->game),
		    o->game->nnodes - 1, &nm, false);
		if (st != CD_OK) {
			cd__error_set(err, st, 0, line, 0, "%s",
			    cd_strerror(st));
			return st;
		}
	}
	return CD_OK;
}

/* ---- the PGN form ---- */

static cd_status
read_pgn(cd_openings *o, const char *text, size_t len, cd_error *err)
{
	static const char *const tag[4] = { "ECO", "Opening", "Variation",
	    "SubVariation" };
	cd_pgn_reader *r = cd_pgn_reader_new_mem(text, len);
	cd_game *g = o->game;
	cd_pgn_raw_game raw;
	cd_status st;

	if (r == NULL)
		return CD_ERR_NOMEM;
	while ((st = cd_pgn_reader_next(r, &raw)) == CD_OK) {
		struct names nm;
		cd_board b;
		uint32_t i, plies = 0;
		int k;

		if ((st = cd_pgn_parse(g, &raw, NULL, err)) != CD_OK)
			break;
		for (k = 0; k < 4; k++)
			nm.s[k] = cd_game_tag_value(g, tag[k], &nm.len[k]);
		for (k = 0; k < 4; k++)
			if (nm.s[k] == NULL)
				nm.len[k] = 0;
		for (i = g->nodes[0].next; i != 0; i = g->nodes[i].next)
			plies++;
		cd_game_end_position(g, &b);
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
	cd_error tmp;
	cd_status st;
	int col[3];

	if (err == NULL)
		err = &tmp;
	cd__error_ok(err);
	/* room for a line per line of text (the PGN form has fewer),
	 * and for names as long as the text */
	{
		size_t lines = 1;
		const char *p;
		char *str = o->str;

		for (p = text; (p = memchr(p, '\n', (size_t)(e - p))) != NULL;
		    p++)
			lines++;
		if (o->str_len + len + 1 > o->str_cap &&
		    (str = realloc(o->str, o->str_len + len + 1)) != NULL) {
			o->str = str;
			o->str_cap = o->str_len + len + 1;
		}
		if (str == NULL || room(o, lines) != CD_OK) {
			cd__error_set(err, CD_ERR_NOMEM, 0, 0, 0, "%s",
			    cd_strerror(CD_ERR_NOMEM));
			return CD_ERR_NOMEM;
		}
	}
	/* (a byte order mark before a TSV header; the PGN reader skips
	 * its own) */
	t = len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0 ? text + 3 :
	    text;
	end = line_end(t, e, &next);
	if (memchr(t, '\t', (size_t)(end - t)) != NULL &&
	    tsv_header(t, end, col))
		st = read_tsv(o, t, e, col, err);
	else
		st = read_pgn(o, text, len, err);
	return st;
}

/* ---- classifying ---- */

static void
entry_out(const cd_openings *o, const struct entry *e, cd_opening *out)
{
	out->eco = o->str + e->eco;
	out->name = o->str + e->name;
	out->opening = o->str + e->opening;
	out->variation = o->str + e->variation;
	out->subvariation = o->str + e->subvariation;
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

bool
cd_openings_classify(const cd_openings *o, const cd_game *g,
    cd_opening *out)
{
	const cd_board *pos = g->positions, *b;
	const struct entry *found = NULL, *e;
	cd_board cur = g->start;
	uint32_t i, ply = 0;

	for (i = g->nodes[0].next; i != 0; i = g->nodes[i].next) {
		if (pos != NULL) {
			b = &pos[i];
		} else {
			cd_board_make(&cur, g->nodes[i].move);
			b = &cur;
		}
		/* (pieces and first-rank pawns change only with a capture
		 * or a pawn move, which reset the clock) */
		if ((b->halfmove == 0 || i == g->nodes[0].next) &&
		    o->reach[home_pawns(b)] > cd__popcount(b->by_type[0]))
			break;
		if ((e = lookup(o, b)) != NULL) {
			found = e;
			ply = g->nodes[i].ply;
		}
	}
	if (found == NULL)
		return false;
	entry_out(o, found, out);
	out->ply = ply;
	return true;
}
