/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tables.h: the constant data that gen-tables.c computes when the
 * library is built (tables.c): attack sets, lines and rays, magic
 * bitboards, Zobrist keys, the FEN shapes of ranks; and the inline
 * lookups over them.
 */
#ifndef CHESSDATA_TABLES_H
#define CHESSDATA_TABLES_H

#include "core/bits.h"

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
 * The same relations in 8 KB instead of 64 KB, for code that touches
 * each position once (the PGN parser), where the big tables miss the
 * cache: cd__dir[a][b] is the direction from a to b (0 N, 1 NE, 2 E,
 * 3 SE, 4 S, 5 SW, 6 W, 7 NW: even ones are orthogonal, d ^ 4 is the
 * opposite) or -1; cd__ray[d][a] the squares from a (excluded) to the
 * edge in direction d.
 */
extern CD__TABLE int8_t cd__dir[64][64];
extern CD__TABLE cd_bitboard cd__ray[8][64];

/* cd__empty_reach[t][sq]: the squares a piece of type t (knight to king;
 * none for the pawn) reaches from sq on an empty board, one load where
 * the rays would take four. */
extern CD__TABLE cd_bitboard cd__empty_reach[8][64];

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

/* Zobrist keys (gen-tables.c: fixed keys, the same in every build). */
extern CD__TABLE uint64_t cd__z_piece[16][64];
extern CD__TABLE uint64_t cd__z_castle[2][8];	/* [color][rook file] */
extern CD__TABLE uint64_t cd__z_ep[8];
extern CD__TABLE uint64_t cd__z_side;

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

#endif
