/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * internal.h: declarations shared between the library's files, not
 * exported.  Names start with cd__.
 */
#ifndef CHESSDATA_INTERNAL_H
#define CHESSDATA_INTERNAL_H

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

/* attacks.c: tables filled once at load time. */
extern cd_bitboard cd__knight_att[64];
extern cd_bitboard cd__king_att[64];
extern cd_bitboard cd__pawn_att[2][64];
extern cd_bitboard cd__between[64][64];	/* squares strictly between */
extern cd_bitboard cd__line[64][64];	/* the whole line through both */

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
extern int8_t cd__dir[64][64];
extern cd_bitboard cd__ray[8][64];

/* Directions whose ray grows toward higher squares: their nearest
 * square is the lowest bit. */
#define CD_DIR_UP(d)	((d) <= 2 || (d) == 7)

/* The square of set (not empty, on one ray in direction d) nearest to
 * the ray's origin. */
static inline int
cd__ray_first(int d, cd_bitboard set)
{
	return CD_DIR_UP(d) ? cd__lsb(set) : 63 - __builtin_clzll(set);
}

/* The squares strictly between a and b in direction d = cd__dir[a][b]
 * (d >= 0). */
static inline cd_bitboard
cd__between_dir(int a, int b, int d)
{
	return cd__ray[d][a] & ~cd__ray[d][b] & ~CD_BB(b);
}

struct cd__magic {
	cd_bitboard mask;
	cd_bitboard magic;
	cd_bitboard *table;
	unsigned shift;
};
extern struct cd__magic cd__rook_magic[64];
extern struct cd__magic cd__bishop_magic[64];

void cd__attacks_init(void);

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

/* board.c: Zobrist keys. */
extern uint64_t cd__z_piece[16][64];
extern uint64_t cd__z_castle[2][8];	/* [color][rook file] */
extern uint64_t cd__z_ep[8];
extern uint64_t cd__z_side;
void cd__zobrist_init(void);

/* Whether an en passant capture onto b->ep is legal for b->side. */
bool cd__ep_capture_legal(const cd_board *b);
/* Recompute b->key from scratch. */
uint64_t cd__board_key(const cd_board *b);

#endif
