/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * board_make.h: board.c's making of moves and castling helpers, for
 * the move generator and the game builder; above attacks.h.
 */
#ifndef CHESSDATA_BOARD_MAKE_H
#define CHESSDATA_BOARD_MAKE_H

#include <string.h>

#include "core/attacks.h"

/* board.c: the letter of each piece (CD_PIECE(color, type)): upper
 * case for White, lower case for Black, '.' for none; the type's
 * English SAN letter is cd__piece_letters[type]. */
extern const char cd__piece_letters[16];

/* board.c: recompute b->key from scratch. */
uint64_t cd__board_key(const cd_board *b);

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

/* The rights that end as the piece of type moves from -> to, taking
 * captured (cd_piece, 0 none): the king's move ends both of its side,
 * a rook's the one of its square, a rook taken the one of its square.
 * The key's change.  Out of cd__board_make_normal's line: most moves
 * touch no right, and its values need no registers then. */
static __attribute__((noinline, cold)) uint64_t
cd__rights_end(cd_board *b, int from, int to, int type, int captured)
{
	int us = b->side ^ 1;	/* (the side has changed) */
	uint64_t key = 0;

	if (CD_PIECE_TYPE(captured) == CD_ROOK)
		key ^= cd__drop_rights(b, to);
	if (type == CD_KING)
		key ^= cd__drop_color_rights(b, us);
	else if (type == CD_ROOK && (b->castle_rook[us][0] == from ||
	    b->castle_rook[us][1] == from))
		key ^= cd__drop_rights(b, from);
	return key;
}

/* After a double step to b->ep with an enemy pawn beside it: the key's
 * change (b->ep_hashed set) when the capture is legal, else 0. */
static __attribute__((noinline, cold)) uint64_t
cd__ep_hash(cd_board *b)
{
	if (!cd__ep_capture_legal(b))
		return 0;
	b->ep_hashed = 1;
	return cd__z_ep[CD_FILE(b->ep)];
}

/* What the caller of cd__board_make_class knows of a normal move, a
 * constant there: nothing, a pawn's step forward (one or two squares:
 * it takes nothing), a pawn's capture (not en passant), or a move of a
 * piece other than a pawn.  The fast SAN reader tells them apart; the
 * make then leaves out what cannot hold (a pawn's step takes nothing,
 * a pawn's capture always takes, only a step may set an en passant
 * square, a pawn's move sets the clock to 0).  CD__MAKE_CASTLE is no
 * class of cd__board_make_class: the game builder's castling, made by
 * cd__board_make_castle. */
enum { CD__MAKE_ANY, CD__MAKE_PUSH, CD__MAKE_PAWN_TAKES, CD__MAKE_PIECE,
	CD__MAKE_CASTLE };

/*
 * cd_board_make for a normal move from -> to (no castling, en passant,
 * promotion or null move) of class cls (CD__MAKE_*, a constant): the
 * bulk of every game, so written out on its own and inline in the game
 * builder, with as few branches as can be (which piece moves and
 * whether it takes are as good as random from move to move); always
 * inline, as cd__gives_check.  check_board's random games compare
 * every position it makes with the one read back from its FEN.
 * keyed false (the game builder's line that keeps no key): b->key is
 * left as it was and b->ep_hashed not set, for cd_board_finish to make
 * again; the rest is made as always.
 */
static inline __attribute__((always_inline)) void
cd__board_make_class(cd_board *b, int from, int to, int cls, bool keyed)
{
	/* (a pawn's step takes nothing: its target not loaded) */
	int piece = b->squares[from], captured = cls == CD__MAKE_PUSH ? 0 :
	    b->squares[to];
	int us = b->side;
	/* (the class a constant: these fold) */
	int type = cls == CD__MAKE_PUSH || cls == CD__MAKE_PAWN_TAKES ?
	    CD_PAWN : CD_PIECE_TYPE(piece);
	bool pawn = cls == CD__MAKE_PIECE ? false : type == CD_PAWN;
	cd_bitboard fbb = CD_BB(from), tbb = CD_BB(to);
	/* all ones when the move takes: masks, not branches, since
	 * whether it does is as good as random */
	uint64_t took = cls == CD__MAKE_PUSH ? 0 : cls == CD__MAKE_PAWN_TAKES ?
	    ~(uint64_t)0 : -(uint64_t)(captured != 0);
	cd_bitboard cbb = tbb & took;
	uint64_t key;

	/* the side and the move number first: us then needs no register
	 * (nor a slot on the stack) through the making */
	b->fullmove += (uint32_t)us;
	b->side = (uint8_t)(us ^ 1);

	/* with nothing taken, captured is 0 and cbb is 0: no change; else
	 * the taken piece's bit is set in both words, and from's in the
	 * occupancy (xors: no mask made).  The board's words first, then
	 * the key: fewer of the values live at once */
	if (cls != CD__MAKE_PUSH) {
		b->by_type[CD_PIECE_TYPE(captured)] ^= cbb;
		b->by_color[us ^ 1] ^= cbb;
	}
	b->by_type[0] = (b->by_type[0] ^ fbb) | tbb;
	b->by_type[type] ^= fbb | tbb;
	b->by_color[us] ^= fbb | tbb;
	b->squares[from] = 0;
	b->squares[to] = (uint8_t)piece;
	key = 0;
	if (keyed) {
		key = b->key ^ cd__z_side ^ cd__z_piece[piece][from] ^
		    cd__z_piece[piece][to] ^ (cls == CD__MAKE_PUSH ? 0 :
		    cd__z_piece[captured][to] & took);
		if (b->ep_hashed)
			key ^= cd__z_ep[CD_FILE(b->ep)];
	}
	b->ep_hashed = 0;
	/* the clock: 0 after a pawn's move or a capture */
	if (cls == CD__MAKE_ANY)
		b->halfmove = (b->halfmove + 1) &
		    -(uint32_t)((captured | pawn) == 0);
	else if (cls == CD__MAKE_PIECE)
		b->halfmove = (b->halfmove + 1) & ~(uint32_t)took;
	else
		b->halfmove = 0;
	/* castling rights end when the king moves, or a rook that has
	 * one moves or is taken; whether any is left is a branch (it
	 * changes once or twice a game, and most moves are played with
	 * none: the test of the squares is then not made).  Made for a
	 * pawn's step too: a board set up by hand may hold a right with
	 * no rook on its square. */
	if (cd__any_rights(b) &&
	    ((int)(type == CD_KING) | (int)cd__rights_on(b, from, to)))
		key ^= cd__rights_end(b, from, to, type, captured);
	/* (a pawn's step changes bit 4 of the square alone only when it
	 * is a double step; a capture never does) */
	if (cls == CD__MAKE_PUSH) {
		/* a pawn's step: the square passed over or none, and the
		 * enemy pawns beside the target, with no branch on whether
		 * it is a double step (as good as random from move to
		 * move); (from + to) / 2 is a square either way */
		int dbl = -(int)((from ^ to) == 16);
		int mid = (from + to) / 2;

		b->ep = (uint8_t)(CD_SQ_NONE ^ ((mid ^ CD_SQ_NONE) & dbl));
		/* in the key only when a capture onto it is legal */
		if (keyed && (cd__pawn_att[us][mid] & b->by_type[CD_PAWN] &
		    b->by_color[us ^ 1] & (uint64_t)(int64_t)dbl))
			key ^= cd__ep_hash(b);
	} else {
		/* (any class: a branch, as the class is not known) */
		b->ep = CD_SQ_NONE;
		if (cls == CD__MAKE_ANY && (pawn & ((from ^ to) == 16))) {
			b->ep = (uint8_t)((from + to) / 2);
			if (keyed && (cd__pawn_att[us][b->ep] &
			    b->by_type[CD_PAWN] & b->by_color[us ^ 1]))
				key ^= cd__ep_hash(b);
		}
	}
	if (keyed)
		b->key = key;
}

/* cd__board_make_class for a normal move of any class. */
static inline __attribute__((always_inline)) void
cd__board_make_normal(cd_board *b, int from, int to)
{
	cd__board_make_class(b, from, to, CD__MAKE_ANY, true);
}

/*
 * cd_board_make for castling: the king of the side to move on ksq
 * and its rook on rsq (the move CD_MOVE(ksq, rsq, CD_MK_CASTLE), a
 * legal one) to their squares on the king's rank, the C or G file and
 * the D or F file; Chess960's king or rook may land on the other's
 * square, so both leave before either lands.  Inline in the game
 * builder, which then finds the check and the pins as after a normal
 * move (cd__check_pins).
 */
static inline __attribute__((always_inline)) void
cd__board_make_castle(cd_board *b, int ksq, int rsq)
{
	int us = b->side, rank = CD_RANK(ksq), king = CD_PIECE(us, CD_KING);
	int rook = CD_PIECE(us, CD_ROOK), ks = rsq > ksq;
	int kto = CD_SQ(ks ? 6 : 2, rank), rto = CD_SQ(ks ? 5 : 3, rank);
	cd_bitboard off = CD_BB(ksq) | CD_BB(rsq);
	cd_bitboard on = CD_BB(kto) | CD_BB(rto);
	uint64_t key = b->key ^ cd__z_side ^ cd__z_piece[king][ksq] ^
	    cd__z_piece[king][kto] ^ cd__z_piece[rook][rsq] ^
	    cd__z_piece[rook][rto];

	if (b->ep_hashed)
		key ^= cd__z_ep[CD_FILE(b->ep)];
	b->ep = CD_SQ_NONE;
	b->ep_hashed = 0;
	b->halfmove++;
	b->by_type[0] = (b->by_type[0] & ~off) | on;
	b->by_color[us] = (b->by_color[us] & ~off) | on;
	b->by_type[CD_KING] = (b->by_type[CD_KING] & ~CD_BB(ksq)) |
	    CD_BB(kto);
	b->by_type[CD_ROOK] = (b->by_type[CD_ROOK] & ~CD_BB(rsq)) |
	    CD_BB(rto);
	b->squares[ksq] = 0;
	b->squares[rsq] = 0;
	b->squares[kto] = (uint8_t)king;
	b->squares[rto] = (uint8_t)rook;
	key ^= cd__drop_color_rights(b, us);
	b->fullmove += (uint32_t)us;
	b->side = (uint8_t)(us ^ 1);
	b->key = key;
}

#endif
