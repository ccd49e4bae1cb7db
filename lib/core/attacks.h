/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * attacks.h: attack and check queries of attacks.c, and their inline
 * forms for the parser's hot path.  Only the tables below it: board.c
 * (making moves) and movegen.c come above.
 */
#ifndef CHESSDATA_ATTACKS_H
#define CHESSDATA_ATTACKS_H

#include "core/tables.h"

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
 * stay in cache, while a magic lookup per move is a cache miss.  Whether
 * a slider sees a square it is aligned with is one load of cd__between
 * (32 KB, of which a game touches the rows of its kings and target
 * squares): the ray tables took the direction's byte, two loads and a
 * mask for a direction of -1.  Inline: they are the parser's hot path.
 */

/* board.c: the directions a piece of each type slides in, as bit d + 1
 * for direction d (bit 0, for no direction, is clear): whether a
 * slider of the type moves that way, with no branch, false for d =
 * -1. */
extern const uint16_t cd__slide_dirs[8];

/* board.c: the squares a piece of color c and type t attacks from a
 * square by a step, cd__steps[c][t][sq]: a pawn's, knight's or king's
 * from its table, none for the sliders (an empty table), so that the
 * piece needs no branch. */
extern const cd_bitboard *const cd__steps[2][8];

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
 * stands on a king's line is as good as random from move to move, and
 * no scan for the nearest piece: toward higher squares it is the
 * lowest bit of the pieces on the ray, the one bit of them that -bl
 * keeps (above it, -bl is ~bl); toward lower ones the highest, which is
 * one of the hits exactly when the hits, as a number, are more than the
 * ray's other pieces (the two sets share no bit).
 */
static inline bool
cd__ray_hits(const cd_board *b, int k, int d, cd_bitboard occ, int c,
    cd_bitboard skip)
{
	int dd = d & 7, up = CD_DIR_UP(dd);
	cd_bitboard bl = cd__ray[dd][k] & occ & -(cd_bitboard)(d >= 0);
	cd_bitboard hits = bl & ~skip & b->by_color[c] &
	    (b->by_type[CD_QUEEN] | b->by_type[dd & 1 ? CD_BISHOP : CD_ROOK]);

	return ((int)((hits & -bl) != 0) & up) |
	    ((int)(hits > (bl ^ hits)) & (up ^ 1));
}

/*
 * Whether square sq is attacked by color by on occupancy occ: the
 * steps by their tables, then only the sliders on sq's lines on an
 * empty board (often none, rarely more than two), each seen unless a
 * piece stands between.  For the king's moves, the answers to a check
 * and castling's path, where the answer is nearly always no.
 */
static inline bool
cd__attacked(const cd_board *b, int sq, int by, cd_bitboard occ)
{
	cd_bitboard th = b->by_color[by] & occ, q = b->by_type[CD_QUEEN];
	cd_bitboard s = ((cd__empty_reach[CD_ROOK][sq] &
	    (b->by_type[CD_ROOK] | q)) | (cd__empty_reach[CD_BISHOP][sq] &
	    (b->by_type[CD_BISHOP] | q))) & th;

	if (((cd__knight_att[sq] & b->by_type[CD_KNIGHT]) |
	    (cd__pawn_att[by ^ 1][sq] & b->by_type[CD_PAWN]) |
	    (cd__king_att[sq] & b->by_type[CD_KING])) & th)
		return true;
	while (s) {
		int f = cd__pop_lsb(&s);

		/* (f is not sq: no square reaches itself) */
		if ((cd__between[sq][f] & occ) == 0)
			return true;
	}
	return false;
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

/* The sliders of color by that would reach sq on an empty board along
 * a line they move on: the pieces that check a king on sq, or pin
 * one piece to it, as the squares between are empty or hold one. */
static inline cd_bitboard
cd__snipers(const cd_board *b, int sq, int by)
{
	cd_bitboard q = b->by_type[CD_QUEEN];

	return ((cd__empty_reach[CD_ROOK][sq] & (b->by_type[CD_ROOK] | q)) |
	    (cd__empty_reach[CD_BISHOP][sq] & (b->by_type[CD_BISHOP] | q))) &
	    b->by_color[by];
}

/* The pieces alone between the king on k and a slider of by on one of
 * its lines (cd__snipers), of either color; *open set (else kept) when
 * such a slider has no piece between (it checks).  Always inline: the
 * game builder's path after each move. */
static inline __attribute__((always_inline)) cd_bitboard
cd__king_lines(const cd_board *b, int k, int by, bool *open)
{
	cd_bitboard occ = b->by_type[0], snipers = cd__snipers(b, k, by);
	cd_bitboard p = 0;
	bool o = *open;

	while (snipers) {
		int s = cd__pop_lsb(&snipers);
		cd_bitboard bt = cd__between[k][s] & occ;

		o |= bt == 0;
		p |= bt & -(cd_bitboard)((bt & (bt - 1)) == 0);
	}
	*open = o;
	return p;
}

/*
 * After a normal move to the square to just made in b: whether it
 * gives check, and in *pins the pieces of the side now to move that are
 * pinned to its king (alone between it and a slider of the mover).
 * Both come from the mover's snipers on the king's lines
 * (cd__king_lines): one with no piece between checks (the piece moved,
 * or one its move uncovered), one with a single piece between pins it
 * when that piece is the king's side's; the piece on to may check by a
 * step too.  The next move's legality is then a test of its piece
 * against the pins (cd__san_fast_pins), not a look along the king's
 * line.  Other moves (castling, en passant, promotions, null) use
 * cd__in_check() and cd__pins().  Always inline, as cd__gives_check.
 */
static inline __attribute__((always_inline)) bool
cd__check_pins_steps(const cd_board *b, int to, const cd_bitboard *steps,
    cd_bitboard *pins)
{
	int them = b->side, us = them ^ 1, ek;
	cd_bitboard kbb = b->by_type[CD_KING] & b->by_color[them];
	bool check;

	if (!kbb) {
		*pins = 0;
		return false;
	}
	ek = cd__lsb(kbb);
	/* (a king is never next to ek) */
	check = (steps[to] & kbb) != 0;
	*pins = cd__king_lines(b, ek, us, &check) & b->by_color[them];
	return check;
}

/* cd__check_pins_steps with the steps of the piece on to
 * (cd__check_pins_steps: its table, cd__steps[mover][type][], given by
 * a caller that knows the piece, such as a pawn's, with no load of the
 * table's address). */
static inline __attribute__((always_inline)) bool
cd__check_pins(const cd_board *b, int to, cd_bitboard *pins)
{
	return cd__check_pins_steps(b, to, cd__steps[b->side ^ 1][
	    CD_PIECE_TYPE(b->squares[to])], pins);
}

/* attacks.c: the pieces of the side to move in b pinned to its king,
 * as cd__check_pins finds them, for a position not reached by a
 * normal move. */
cd_bitboard cd__pins(const cd_board *b);

/* Whether the side to move in b is in check. */
static inline bool
cd__in_check(const cd_board *b)
{
	cd_bitboard kbb = b->by_type[CD_KING] & b->by_color[b->side];

	return kbb && cd__attacked(b, cd__lsb(kbb), b->side ^ 1, b->by_type[0]);
}

/* attacks.c: whether an en passant capture onto b->ep is legal for
 * b->side. */
bool cd__ep_capture_legal(const cd_board *b);

#endif
