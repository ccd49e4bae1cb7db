/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * state.c: position validity, and three queries of one position:
 * checkmate, stalemate, a dead position by material (the endings of a
 * line, all together, are rules.c's).
 */
#include "config.h"


#include "common/internal.h"
#include "core/attacks.h"

static const char *const pos_messages[CD_POS_ERROR_COUNT] = {
	"valid position",
	"missing white king",
	"missing black king",
	"more than one king of a color",
	"pawn on the first or last rank",
	"more than eight pawns of a color",
	"more than sixteen pieces of a color",
	"more promoted pieces than missing pawns",
	"the side not to move is in check",
	"more than two pieces give check",
	"impossible check",
	"castling rights without king and rook in place",
	"en passant square that no double push can have made",
};

const char *
cd_position_strerror(cd_position_error e)
{
	if ((unsigned)e >= CD_POS_ERROR_COUNT)
		return "invalid position";
	return pos_messages[e];
}

static bool
is_slider(const cd_board *b, int sq)
{
	int t = CD_PIECE_TYPE(b->squares[sq]);

	return t == CD_BISHOP || t == CD_ROOK || t == CD_QUEEN;
}

/* Checks that no legal last move can have given. */
static bool
impossible_check(const cd_board *b, cd_bitboard checkers, int ksq)
{
	int a, c;

	if (b->ep != CD_SQ_NONE) {
		/* the last move was the double push to ep ^ 8 from the
		 * square beyond ep: every checker is that pawn, or a slider
		 * it uncovered */
		int pawn = b->ep ^ 8;
		int origin = 2 * b->ep - pawn;
		cd_bitboard t = checkers;

		while (t) {
			c = cd__pop_lsb(&t);
			if (c == pawn)
				continue;
			if (!(is_slider(b, c) &&
			    (cd__between[ksq][c] & CD_BB(origin))))
				return true;
		}
		return cd__popcount(checkers) > 1 &&
		    !(checkers & CD_BB(pawn));
	}
	if (cd__popcount(checkers) != 2)
		return false;
	a = cd__lsb(checkers);
	c = cd__lsb(checkers & (checkers - 1));
	/* a discovered double check needs a slider behind the mover */
	if (!is_slider(b, a) && !is_slider(b, c))
		return true;
	/* two checkers on one line through the king */
	if (cd__line[a][c] & CD_BB(ksq))
		return true;
	return false;
}

/* One king of each color. */
static cd_position_error
kings_error(const cd_board *b)
{
	int color;

	for (color = 0; color < 2; color++) {
		cd_bitboard k = b->by_type[CD_KING] & b->by_color[color];

		if (!k)
			return color == CD_WHITE ? CD_POS_NO_WHITE_KING :
			    CD_POS_NO_BLACK_KING;
		if (k & (k - 1))
			return CD_POS_TOO_MANY_KINGS;
	}
	return CD_POS_OK;
}

/* Each castling right names a rook of its color on the king's first
 * rank, on its side of the king; in standard chess the king on the e
 * file and the rook in the corner.  (The kings are there.) */
static cd_position_error
castling_error(const cd_board *b)
{
	int color, s;

	for (color = 0; color < 2; color++)
		for (s = 0; s < 2; s++) {
			int r = b->castle_rook[color][s];
			int k = cd_board_king(b, color);
			int rank = color == CD_WHITE ? 0 : 7;

			if (r == CD_SQ_NONE)
				continue;
			if (CD_RANK(k) != rank || CD_RANK(r) != rank ||
			    b->squares[r] != CD_PIECE(color, CD_ROOK) ||
			    (s == CD_KINGSIDE) != (CD_FILE(r) > CD_FILE(k)))
				return CD_POS_BAD_CASTLING;
			if (!b->chess960 && (CD_FILE(k) != 4 ||
			    CD_FILE(r) != (s == CD_KINGSIDE ? 7 : 0)))
				return CD_POS_BAD_CASTLING;
		}
	return CD_POS_OK;
}

cd_position_error
cd_board_validate_play(const cd_board *b)
{
	cd_position_error pe;

	if ((pe = kings_error(b)) != CD_POS_OK)
		return pe;
	if (cd_attackers(b, cd_board_king(b, b->side ^ 1), b->side,
	    b->by_type[0]))
		return CD_POS_OPPOSITE_CHECK;
	return castling_error(b);
}

cd_position_error
cd_board_validate(const cd_board *b)
{
	cd_bitboard backranks = 0xff000000000000ffULL;
	int color, ksq;
	cd_bitboard checkers;
	cd_position_error pe;

	if ((pe = kings_error(b)) != CD_POS_OK)
		return pe;
	if (b->by_type[CD_PAWN] & backranks)
		return CD_POS_PAWN_ON_BACK_RANK;
	for (color = 0; color < 2; color++) {
		cd_bitboard us = b->by_color[color];
		int pawns = cd__popcount(b->by_type[CD_PAWN] & us);
		int extra = 0, n;

		if (pawns > 8)
			return CD_POS_TOO_MANY_PAWNS;
		if (cd__popcount(us) > 16)
			return CD_POS_TOO_MANY_PIECES;
		n = cd__popcount(b->by_type[CD_QUEEN] & us);
		extra += n > 1 ? n - 1 : 0;
		n = cd__popcount(b->by_type[CD_ROOK] & us);
		extra += n > 2 ? n - 2 : 0;
		n = cd__popcount(b->by_type[CD_BISHOP] & us);
		extra += n > 2 ? n - 2 : 0;
		n = cd__popcount(b->by_type[CD_KNIGHT] & us);
		extra += n > 2 ? n - 2 : 0;
		if (extra > 8 - pawns)
			return CD_POS_TOO_MANY_PROMOTED;
	}
	ksq = cd_board_king(b, b->side ^ 1);
	if (cd_attackers(b, ksq, b->side, b->by_type[0]))
		return CD_POS_OPPOSITE_CHECK;
	ksq = cd_board_king(b, b->side);
	checkers = cd_attackers(b, ksq, b->side ^ 1, b->by_type[0]);
	if (cd__popcount(checkers) > 2)
		return CD_POS_TOO_MANY_CHECKERS;
	if ((pe = castling_error(b)) != CD_POS_OK)
		return pe;
	if (b->ep != CD_SQ_NONE) {
		int ep = b->ep, them = b->side ^ 1;
		int want_rank = b->side == CD_WHITE ? 5 : 2;
		int pawn = ep ^ 8, origin = 2 * ep - pawn;

		if (CD_RANK(ep) != want_rank ||
		    (b->by_type[0] & (CD_BB(ep) | CD_BB(origin))) ||
		    b->squares[pawn] != CD_PIECE(them, CD_PAWN))
			return CD_POS_BAD_EP;
	}
	if (checkers && impossible_check(b, checkers, ksq))
		return CD_POS_IMPOSSIBLE_CHECK;
	return CD_POS_OK;
}

bool
cd_board_is_checkmate(const cd_board *b)
{
	return cd_board_in_check(b) && !cd_board_has_legal_move(b);
}

bool
cd_board_is_stalemate(const cd_board *b)
{
	return !cd_board_in_check(b) && !cd_board_has_legal_move(b);
}

bool
cd_board_insufficient_material(const cd_board *b)
{
	cd_bitboard heavy = b->by_type[CD_PAWN] | b->by_type[CD_ROOK] |
	    b->by_type[CD_QUEEN];
	cd_bitboard minors = b->by_type[CD_KNIGHT] | b->by_type[CD_BISHOP];
	cd_bitboard light = 0x55aa55aa55aa55aaULL;

	if (heavy)
		return false;
	/* K v K, K+minor v K */
	if (cd__popcount(minors) <= 1)
		return true;
	/* only bishops, all on squares of one colour (K+B v K+B and
	 * any number of such bishops): no mate is possible */
	if (!b->by_type[CD_KNIGHT] &&
	    (!(b->by_type[CD_BISHOP] & light) || !(b->by_type[CD_BISHOP] & ~light)))
		return true;
	return false;
}
