/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * movegen.h: movegen.c's inline help for the game builder and the fast
 * SAN reader (san_fast.h); above board_make.h.
 */
#ifndef CHESSDATA_MOVEGEN_H
#define CHESSDATA_MOVEGEN_H

#include "core/board_make.h"

/* The squares a slider on sq reaches in direction d on occupancy occ,
 * the first piece in the way included, with no branch. */
static inline cd_bitboard
ray_reach(int d, int sq, cd_bitboard occ)
{
	cd_bitboard ray = cd__ray[d][sq], x = ray & occ;

	/* a ray toward higher squares ends at the lowest bit of x: the
	 * bits up to it are x ^ (x - 1), all of them when x is empty (d
	 * is a constant here: one of the two forms is compiled) */
	if (CD_DIR_UP(d))
		return ray & (x ^ (x - 1));
	return ray & ~cd__ray[d][cd__ray_first_any(d, x)];
}

/*
 * The squares a slider on sq reaches along a line through it with at
 * most one square a rank (a file or a diagonal: mask, the line without
 * sq) on occupancy occ, the first piece each way included, with no
 * branch and no scan for the blockers: o - s borrows through the empty
 * squares above sq up to the first piece there; the same in the board
 * turned upside down (a byte swap, which reverses the line's order:
 * sq's bit becomes bit sq ^ 56) gives those below.  (Hyperbola
 * Quintessence, as the Chess Programming Wiki calls it.)
 */
static inline cd_bitboard
line_reach(cd_bitboard mask, int sq, cd_bitboard occ)
{
	cd_bitboard o = occ & mask;
	cd_bitboard up = o - CD_BB(sq);
	cd_bitboard down = __builtin_bswap64(o) - CD_BB(sq ^ 56);

	return (up ^ __builtin_bswap64(down)) & mask;
}

/* The squares a bishop (diag_reach) and a rook (orth_reach) on sq
 * reach on occupancy occ: the rank, where a byte swap does not reverse
 * the order, ray by ray. */
static inline cd_bitboard
diag_reach(int sq, cd_bitboard occ)
{
	return line_reach(cd__ray[1][sq] | cd__ray[5][sq], sq, occ) |
	    line_reach(cd__ray[3][sq] | cd__ray[7][sq], sq, occ);
}

static inline cd_bitboard
orth_reach(int sq, cd_bitboard occ)
{
	return line_reach(cd__ray[0][sq] | cd__ray[4][sq], sq, occ) |
	    ray_reach(2, sq, occ) | ray_reach(6, sq, occ);
}

/* The pieces of color by on occupancy occ that attack sq: cd__attackers
 * by the rays' tables (the magic ones are cache misses for code that
 * touches each position once), with no branch: whether a slider sees a
 * square is as good as random (cd__attacked's loop over the sliders
 * mispredicts). */
static inline cd_bitboard
attackers_of(const cd_board *b, int sq, int by, cd_bitboard occ)
{
	cd_bitboard q = b->by_type[CD_QUEEN];

	return ((cd__knight_att[sq] & b->by_type[CD_KNIGHT]) |
	    (cd__pawn_att[by ^ 1][sq] & b->by_type[CD_PAWN]) |
	    (cd__king_att[sq] & b->by_type[CD_KING]) |
	    (diag_reach(sq, occ) & (b->by_type[CD_BISHOP] | q)) |
	    (orth_reach(sq, occ) & (b->by_type[CD_ROOK] | q))) &
	    b->by_color[by] & occ;
}

/* Whether a piece of color by on occupancy occ attacks sq, for the
 * king's moves: cd__attacked, whose loop over the few sliders on sq's
 * lines costs less than attackers_of's four lines where the answer is
 * nearly always no. */
static inline bool
attacked(const cd_board *b, int sq, int by, cd_bitboard occ)
{
	return cd__attacked(b, sq, by, occ);
}

/* movegen.c: whether the side to move, in check in b and with no king
 * step that answers it, has a legal move: one that takes the checker
 * or steps between, of a piece that is not pinned (only the answers
 * to a check are looked at, with the attack tables of the rays, not
 * every move generated: mates are marked for every check of every
 * game read). */
bool cd__answer_check_by_piece(const cd_board *b);

/* The squares the pawns p of color c attack, as a set. */
static inline cd_bitboard
cd__pawn_sets(cd_bitboard p, int c)
{
	cd_bitboard w = p & ~0x0101010101010101ULL;
	cd_bitboard e = p & ~0x8080808080808080ULL;

	return c == CD_WHITE ? w << 7 | e << 9 : w >> 9 | e >> 7;
}

/* Whether one of the sliders s (on sq's lines, on an empty board) sees
 * sq on occupancy occ: nothing between. */
static inline bool
cd__sliders_see(int sq, cd_bitboard s, cd_bitboard occ)
{
	while (s) {
		int f = cd__pop_lsb(&s);

		if ((cd__between[sq][f] & occ) == 0)
			return true;
	}
	return false;
}

/* Whether the king of the side to move in b (on k, its bit kbb, in
 * check) has a legal step: a square next to it, not its side's, that
 * no piece of the other side attacks with the king lifted.  The steps
 * of the other side's pawns, king and knights are taken off the
 * squares as sets first (their pieces are few), then the sliders on a
 * square's lines are looked at for the squares left, one at a time.
 * A piece taken on the square attacks it no more (no piece attacks
 * its own square). */
static inline bool
cd__king_can_step(const cd_board *b, int k, cd_bitboard kbb)
{
	int us = b->side, them = us ^ 1;
	cd_bitboard th = b->by_color[them], occ = b->by_type[0] ^ kbb;
	cd_bitboard q = b->by_type[CD_QUEEN];
	cd_bitboard orth = (b->by_type[CD_ROOK] | q) & th;
	cd_bitboard diag = (b->by_type[CD_BISHOP] | q) & th;
	cd_bitboard t = cd__king_att[k] & ~b->by_color[us], n;

	t &= ~cd__pawn_sets(b->by_type[CD_PAWN] & th, them);
	if ((n = b->by_type[CD_KING] & th) != 0)
		t &= ~cd__king_att[cd__lsb(n)];
	n = b->by_type[CD_KNIGHT] & th;
	while (n && t)
		t &= ~cd__knight_att[cd__pop_lsb(&n)];
	while (t) {
		int to = cd__pop_lsb(&t);
		cd_bitboard o = occ & ~CD_BB(to);

		if (!cd__sliders_see(to, ((cd__empty_reach[CD_ROOK][to] &
		    orth) | (cd__empty_reach[CD_BISHOP][to] & diag)) & o, o))
			return true;
	}
	return false;
}

/* Whether the side to move, in check in b, has a legal move: a king
 * step is tried first (the usual answer), then the other pieces'
 * answers. */
static inline bool
cd__can_answer_check(const cd_board *b)
{
	cd_bitboard kbb = b->by_type[CD_KING] & b->by_color[b->side];

	if (!kbb)
		return cd_board_has_legal_move(b);
	return cd__king_can_step(b, cd__lsb(kbb), kbb) ||
	    cd__answer_check_by_piece(b);
}

#endif
