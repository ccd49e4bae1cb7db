/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * internal.h: declarations shared between the library's files, not
 * exported.  Names start with cd__.
 */
#ifndef CHESSDATA_INTERNAL_H
#define CHESSDATA_INTERNAL_H

#include <string.h>

#include "chessdata.h"

#define CD_BB(sq)	((cd_bitboard)1 << (sq))

static inline int
cd__lsb(cd_bitboard b)
{
	return __builtin_ctzll(b);
}

static inline int
cd__pop_lsb(cd_bitboard *b)
{
	int s = __builtin_ctzll(*b);
	*b &= *b - 1;
	return s;
}

/* Software popcount unless the compiler may use the instruction. */
static inline int
cd__popcount(cd_bitboard b)
{
#if defined(__POPCNT__)
	return __builtin_popcountll(b);
#else
	b = b - ((b >> 1) & 0x5555555555555555ULL);
	b = (b & 0x3333333333333333ULL) + ((b >> 2) & 0x3333333333333333ULL);
	b = (b + (b >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (int)((b * 0x0101010101010101ULL) >> 56);
#endif
}

/* The attack tables, the Zobrist keys and the lexer's byte classes:
 * constant data computed when the library is built (gen-tables.c,
 * which fills them and so defines CD__TABLE empty). */
#ifndef CD__TABLE
#define CD__TABLE const
#endif
extern CD__TABLE cd_bitboard cd__knight_att[64];
extern CD__TABLE cd_bitboard cd__king_att[64];
extern CD__TABLE cd_bitboard cd__pawn_att[2][64];
extern CD__TABLE cd_bitboard cd__between[64][64];	/* squares strictly
							 * between */
extern CD__TABLE cd_bitboard cd__line[64][64];	/* the whole line through
						 * both */

/*
 * Castling of side us on wing s with the king on ksq, for the generator
 * and the fast SAN reader: the rook's square when the rook stands on
 * the king's rank and every square the king and rook cross or reach is
 * empty (king and rook aside), with *path the squares the king must not
 * be attacked on (king and rook lifted: occ ^ CD_BB(ksq) ^
 * CD_BB(rook)); else -1.  Whether the king is in check is the
 * caller's.
 */
static inline int
cd__castle_clear(const cd_board *b, int us, int s, int ksq,
    cd_bitboard *path)
{
	int rsq = b->castle_rook[us][s], kto, rto;
	cd_bitboard need_empty;

	if (rsq == CD_SQ_NONE || b->squares[rsq] != CD_PIECE(us, CD_ROOK) ||
	    CD_RANK(rsq) != CD_RANK(ksq))
		return -1;
	kto = CD_SQ(s == CD_KINGSIDE ? 6 : 2, CD_RANK(ksq));
	rto = CD_SQ(s == CD_KINGSIDE ? 5 : 3, CD_RANK(ksq));
	*path = cd__between[ksq][kto] | CD_BB(kto);
	need_empty = (*path | cd__between[rsq][rto] | CD_BB(rto)) &
	    ~(CD_BB(ksq) | CD_BB(rsq));
	return need_empty & b->by_type[0] ? -1 : rsq;
}

/*
 * The same relations in 8 KB instead of 64 KB, for code that touches
 * each position once (the PGN parser), where the big tables miss the
 * cache: cd__dir[a][b] is the direction from a to b (0 N, 1 NE, 2 E,
 * 3 SE, 4 S, 5 SW, 6 W, 7 NW: even ones are orthogonal, d ^ 4 is the
 * opposite) or -1; cd__ray[d][a] the squares from a (excluded) to the
 * edge in direction d.
 */
extern CD__TABLE int8_t cd__dir[64][64];
extern CD__TABLE cd_bitboard cd__ray[8][64];

/* Directions whose ray grows toward higher squares: their nearest
 * square is the lowest bit. */
#define CD_DIR_UP(d)	((0x87 >> (d)) & 1)	/* N, NE, E, NW */

/* The square of set (not empty, on one ray in direction d) nearest to
 * the ray's origin. */
static inline int
cd__ray_first(int d, cd_bitboard set)
{
	return CD_DIR_UP(d) ? cd__lsb(set) : 63 - __builtin_clzll(set);
}

/* The squares strictly between a and b in direction d = cd__dir[a][b]
 * (d >= 0): a's ray is them, b and b's ray, which the xors take
 * away. */
static inline cd_bitboard
cd__between_dir(int a, int b, int d)
{
	return cd__ray[d][a] ^ cd__ray[d][b] ^ CD_BB(b);
}

struct cd__magic {
	cd_bitboard mask;
	cd_bitboard magic;
	CD__TABLE cd_bitboard *table;
	unsigned shift;
};
extern CD__TABLE struct cd__magic cd__rook_magic[64];
extern CD__TABLE struct cd__magic cd__bishop_magic[64];

static inline cd_bitboard
cd__rook_att(int sq, cd_bitboard occ)
{
	const struct cd__magic *m = &cd__rook_magic[sq];
	return m->table[((occ & m->mask) * m->magic) >> m->shift];
}

static inline cd_bitboard
cd__bishop_att(int sq, cd_bitboard occ)
{
	const struct cd__magic *m = &cd__bishop_magic[sq];
	return m->table[((occ & m->mask) * m->magic) >> m->shift];
}

/* attacks.c: the pieces of color by that attack sq on occupancy occ
 * (cd_attackers, without the exported symbol's indirection). */
cd_bitboard cd__attackers(const cd_board *b, int sq, int by,
    cd_bitboard occ);

/* The square of color's king, or CD_SQ_NONE. */
static inline int
cd__board_king(const cd_board *b, int color)
{
	cd_bitboard k = b->by_type[CD_KING] & b->by_color[color & 1];

	return k ? cd__lsb(k) : CD_SQ_NONE;
}

/*
 * attacks.c's queries for code that touches each position once (the
 * game builder, the fast SAN reader): slider attacks without the magic
 * tables.  The pieces are few, and the direction and ray tables (8 KB)
 * stay in cache, while a magic lookup per move is a cache miss.  Inline:
 * they are the parser's hot path.
 */

/* Whether a slider of type t moves in direction d. */
static inline bool
cd__slides(int t, int d)
{
	return (t == CD_QUEEN) | (t == (d & 1 ? CD_BISHOP : CD_ROOK));
}

/* board.c: the directions a piece of each type slides in, as bit d + 1
 * for direction d (bit 0, for no direction, is clear): a test of
 * cd__slides with no branch, that also fails for d = -1. */
extern const uint16_t cd__slide_dirs[8];

/* board.c: the squares a piece of color c and type t attacks from a
 * square by a step, cd__steps[c][t][sq]: a pawn's, knight's or king's
 * from its table, none for the sliders (an empty table), so that the
 * piece needs no branch. */
extern const cd_bitboard *const cd__steps[2][8];

/* Which of the sliders in set reach sq on occupancy occ: bishops along
 * diagonals, rooks along ranks and files, queens both. */
static inline cd_bitboard
cd__slider_hits(const cd_board *b, cd_bitboard set, int sq, cd_bitboard occ)
{
	cd_bitboard hits = 0;

	while (set) {
		int f = cd__pop_lsb(&set), d = cd__dir[f][sq];

		if (d < 0 || (cd__between_dir(f, sq, d) & occ))
			continue;
		if (cd__slides(CD_PIECE_TYPE(b->squares[f]), d))
			hits |= CD_BB(f);
	}
	return hits;
}

/* The square of set (on one ray in direction d) nearest to the ray's
 * origin, or the corner the ray runs to (whose ray that way is empty)
 * when set is empty: no branch on d, which is as good as random. */
static inline int
cd__ray_first_any(int d, cd_bitboard set)
{
	int lo = cd__lsb(set | CD_BB(63)), hi = 63 - __builtin_clzll(set | 1);

	return hi ^ ((lo ^ hi) & -(int)CD_DIR_UP(d));
}

/*
 * Whether the first piece from k in direction d (-1: none) on occupancy
 * occ is a slider of color c that moves that way, and not on skip: what
 * a king on k sees along one line.  No branch, since whether a move
 * stands on a king's line is as good as random from move to move (with
 * no piece on the line the corner square stands in, and is not on it).
 */
static inline bool
cd__ray_hits(const cd_board *b, int k, int d, cd_bitboard occ, int c,
    cd_bitboard skip)
{
	int dd = d & 7, first;
	cd_bitboard bl = cd__ray[dd][k] & occ & -(cd_bitboard)(d >= 0);

	first = cd__ray_first_any(dd, bl);
	return (CD_BB(first) & bl & ~skip & b->by_color[c] &
	    (b->by_type[CD_QUEEN] | b->by_type[dd & 1 ? CD_BISHOP :
	    CD_ROOK])) != 0;
}

/* Whether square sq is attacked by color by on occupancy occ. */
static inline bool
cd__attacked(const cd_board *b, int sq, int by, cd_bitboard occ)
{
	cd_bitboard th = b->by_color[by] & occ;

	if ((cd__knight_att[sq] & b->by_type[CD_KNIGHT] & th) ||
	    (cd__pawn_att[by ^ 1][sq] & b->by_type[CD_PAWN] & th) ||
	    (cd__king_att[sq] & b->by_type[CD_KING] & th))
		return true;
	th &= b->by_type[CD_BISHOP] | b->by_type[CD_ROOK] |
	    b->by_type[CD_QUEEN];
	return cd__slider_hits(b, th, sq, occ) != 0;
}

/*
 * Whether the normal move from -> to, just made in b, gives check: the
 * piece on to attacks the king directly, or from uncovered a slider of
 * the mover.  Other moves (castling, en passant, promotions, null) use
 * cd__in_check().  Always inline: in the game builder's path for nearly
 * every move (cd__game_add_san_fast), beside the fast SAN reader, the
 * compiler would call it.
 */
static inline __attribute__((always_inline)) bool
cd__gives_check(const cd_board *b, int from, int to)
{
	int them = b->side, us = them ^ 1, ek, t, d, dd;
	cd_bitboard kbb = b->by_type[CD_KING] & b->by_color[them];
	cd_bitboard occ = b->by_type[0], steps;
	bool slides;

	if (!kbb)
		return false;
	ek = cd__lsb(kbb);
	t = CD_PIECE_TYPE(b->squares[to]);
	/* the piece on to, with no branch on its type */
	steps = cd__steps[us][t][to];	/* (a king is never next to ek) */
	d = cd__dir[to][ek];
	dd = d & 7;
	slides = (cd__slide_dirs[t] >> (d + 1) & 1) &
	    ((cd__between_dir(to, ek, dd) & occ) == 0);
	/* or the line from the king through from, now open */
	return ((steps & kbb) != 0) | slides |
	    cd__ray_hits(b, ek, cd__dir[ek][from], occ, us, 0);
}

/* Whether the side to move, in check in b, has a legal move: a king
 * step is tried first (the usual answer), then the full generator. */
static inline bool
cd__can_answer_check(const cd_board *b)
{
	int us = b->side, them = us ^ 1, k;
	cd_bitboard own = b->by_color[us], kbb = b->by_type[CD_KING] & own;
	cd_bitboard t, occ = b->by_type[0];

	if (!kbb)
		return cd_board_has_legal_move(b);
	k = cd__lsb(kbb);
	t = cd__king_att[k] & ~own;
	while (t) {
		int to = cd__pop_lsb(&t);

		if (!cd__attacked(b, to, them, (occ ^ kbb) & ~CD_BB(to)))
			return true;
	}
	return cd_board_has_legal_move(b);
}

/* Whether the side to move in b is in check. */
static inline bool
cd__in_check(const cd_board *b)
{
	cd_bitboard kbb = b->by_type[CD_KING] & b->by_color[b->side];

	return kbb && cd__attacked(b, cd__lsb(kbb), b->side ^ 1, b->by_type[0]);
}

/* pgc_ordinal.c: cd_pgc_ordinal, and the move of ordinal ord of b
 * (CD_MOVE_NONE if there is none; *nmoves gets the number of legal
 * moves). */
int cd__pgc_ordinal(const cd_board *b, cd_move m);
cd_move cd__pgc_select_move(const cd_board *b, unsigned ord, int *nmoves);

/* board.c: the letter of each piece (CD_PIECE(color, type)): upper
 * case for White, lower case for Black, '.' for none; the type's
 * English SAN letter is cd__piece_letters[type]. */
extern const char cd__piece_letters[16];

/*
 * fen.c: the FEN of a rank by its occupancy (bit f: a piece on file f):
 * the text with the digits of its empty runs in place, where each
 * file's letter goes (8, a scratch byte, for an empty file) and the
 * length; constant data written by gen-tables.c.
 */
struct cd__rank_shape {
	char text[8];
	uint8_t at[8];
	uint8_t len;
};
extern CD__TABLE struct cd__rank_shape cd__rank_shapes[256];
/*
 * The same shapes as byte shuffles (SSSE3 pshufb) of a vector holding
 * the rank's eight letters (an empty square's is '8'), then the digits
 * 1 to 7 and '/': one shuffle writes a rank and the '/' after it, and
 * its last byte (a lane past the '/', whose byte is scratch) is the
 * number of bytes written, the '/' included.  A run of eight empty
 * squares is the whole rank: its '8' comes from file a's lane.
 */
extern CD__TABLE uint8_t cd__rank_shuffles[256][16]
    __attribute__((aligned(16)));

/* Zobrist keys (gen-tables.c: fixed keys, the same in every build). */
extern CD__TABLE uint64_t cd__z_piece[16][64];
extern CD__TABLE uint64_t cd__z_castle[2][8];	/* [color][rook file] */
extern CD__TABLE uint64_t cd__z_ep[8];
extern CD__TABLE uint64_t cd__z_side;

/* attacks.c: whether an en passant capture onto b->ep is legal for
 * b->side. */
bool cd__ep_capture_legal(const cd_board *b);

/* Drop the castling rights whose rook stands on sq (a rook that moves
 * or is taken); the key's change. */
static inline uint64_t
cd__drop_rights(cd_board *b, int sq)
{
	uint64_t k = 0;
	int c, s;

	for (c = 0; c < 2; c++)
		for (s = 0; s < 2; s++)
			if (b->castle_rook[c][s] == sq) {
				k ^= cd__z_castle[c][CD_FILE(sq)];
				b->castle_rook[c][s] = CD_SQ_NONE;
			}
	return k;
}

/* Drop both rights of color c (its king moves); the key's change. */
static inline uint64_t
cd__drop_color_rights(cd_board *b, int c)
{
	uint64_t k = 0;
	int s;

	for (s = 0; s < 2; s++)
		if (b->castle_rook[c][s] != CD_SQ_NONE) {
			k ^= cd__z_castle[c][CD_FILE(b->castle_rook[c][s])];
			b->castle_rook[c][s] = CD_SQ_NONE;
		}
	return k;
}

/* Whether any castling right is left (CD_SQ_NONE is 64: a right's
 * square is a byte without that bit). */
static inline bool
cd__any_rights(const cd_board *b)
{
	uint32_t r;

	memcpy(&r, b->castle_rook, sizeof(r));
	return (r & 0x40404040U) != 0x40404040U;
}

/* Whether a rook that still has a castling right stands on from or on
 * to: a byte of castle_rook equal to either, all four bytes tested at
 * once (a zero byte of the xor; no right's byte, CD_SQ_NONE, is a
 * square).  No loop: the test runs for most moves of an opening. */
static inline bool
cd__rights_on(const cd_board *b, int from, int to)
{
	uint32_t r, xf, xt;

	memcpy(&r, b->castle_rook, sizeof(r));
	xf = r ^ 0x01010101U * (uint32_t)from;
	xt = r ^ 0x01010101U * (uint32_t)to;
	return ((((xf - 0x01010101U) & ~xf) | ((xt - 0x01010101U) & ~xt)) &
	    0x80808080U) != 0;
}

/*
 * cd_board_make for a normal move from -> to (no castling, en passant,
 * promotion or null move): the bulk of every game, so written out on
 * its own and inline in the game builder, with as few branches as can
 * be (which piece moves and whether it takes are as good as random
 * from move to move); always inline, as cd__gives_check.  check_board's
 * random games compare every position it makes with the one read back
 * from its FEN.
 */
static inline __attribute__((always_inline)) void
cd__board_make_normal(cd_board *b, int from, int to)
{
	int piece = b->squares[from], captured = b->squares[to];
	int type = CD_PIECE_TYPE(piece), us = b->side, them = us ^ 1;
	cd_bitboard fbb = CD_BB(from), tbb = CD_BB(to), ft = fbb | tbb;
	cd_bitboard cbb = captured ? tbb : 0, occ = b->by_type[0];
	uint64_t key = b->key ^ cd__z_side ^ cd__z_piece[piece][from] ^
	    cd__z_piece[piece][to] ^ (captured ? cd__z_piece[captured][to] : 0);

	if (b->ep_hashed)
		key ^= cd__z_ep[CD_FILE(b->ep)];
	b->ep = CD_SQ_NONE;
	b->ep_hashed = 0;
	/* with nothing taken, captured is 0 and cbb is 0: no change.  No
	 * load waits for a store just made to its word: by_type[0] is
	 * written from occ, not read again, and the taken piece leaves
	 * them's word, the moving piece toggles us's */
	b->by_type[CD_PIECE_TYPE(captured)] &= ~cbb;
	b->by_color[them] &= ~cbb;
	b->by_type[0] = (occ & ~fbb) | tbb;
	b->by_type[type] ^= ft;
	b->by_color[us] ^= ft;
	b->squares[from] = 0;
	b->squares[to] = (uint8_t)piece;
	b->halfmove = (b->halfmove + 1) &
	    -(uint32_t)((captured | (type == CD_PAWN)) == 0);
	b->fullmove += (uint32_t)us;
	b->side = (uint8_t)them;
	/* castling rights end when the king moves, or a rook that has
	 * one moves or is taken */
	if (cd__any_rights(b) &&
	    (type == CD_KING || cd__rights_on(b, from, to))) {
		if (CD_PIECE_TYPE(captured) == CD_ROOK)
			key ^= cd__drop_rights(b, to);
		if (type == CD_KING)
			key ^= cd__drop_color_rights(b, us);
		else if (type == CD_ROOK && (b->castle_rook[us][0] == from ||
		    b->castle_rook[us][1] == from))
			key ^= cd__drop_rights(b, from);
	}
	if ((type == CD_PAWN) & ((to - from == 16) | (from - to == 16))) {
		b->ep = (uint8_t)((from + to) / 2);
		/* in the key only when a capture onto it is legal */
		if ((cd__pawn_att[us][b->ep] & b->by_type[CD_PAWN] &
		    b->by_color[them]) && cd__ep_capture_legal(b)) {
			b->ep_hashed = 1;
			key ^= cd__z_ep[CD_FILE(b->ep)];
		}
	}
	b->key = key;
}

/* util.c: fill *e (if not NULL) with a status, a place and a message
 * (printf format; NULL leaves it empty). */
void cd__error_set(cd_error *e, cd_status st, uint64_t offset,
    unsigned long line, unsigned long col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* cd__error_set(e, CD_OK, 0, 0, 0, NULL), without a call. */
static inline void
cd__error_ok(cd_error *e)
{
	if (e == NULL)
		return;
	e->status = CD_OK;
	e->offset = 0;
	e->line = 0;
	e->col = 0;
	e->msg[0] = '\0';
}

/* board.c: recompute b->key from scratch. */
uint64_t cd__board_key(const cd_board *b);

/* Write v in decimal at p (room for 20 bytes), with no NUL; the end. */
static inline char *
cd__put_uint(char *p, uint64_t v)
{
	char tmp[20];
	size_t n = sizeof(tmp);

	if (v < 10) {
		*p = (char)('0' + v);
		return p + 1;
	}
	do {
		tmp[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v > 0);
	memcpy(p, tmp + n, sizeof(tmp) - n);
	return p + (sizeof(tmp) - n);
}

/* A cd_game_xtags as { 0 }, without clearing its buffers (the writers
 * make one per game). */
static inline void
cd__xtags_init(cd_game_xtags *x)
{
	x->tags = NULL;
	x->n = x->cap = 0;
}

#endif
