/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * board.c: the board value: placing pieces, Zobrist keys, making moves.
 */
#include "config.h"

#include <string.h>

#include "common/internal.h"
#include "core/board_make.h"

const char cd__piece_letters[16] = ".PNBRQK..pnbrqk.";

void
cd_board_clear(cd_board *b)
{
	memset(b, 0, sizeof(*b));
	b->ep = CD_SQ_NONE;
	b->castle_rook[0][0] = b->castle_rook[0][1] = CD_SQ_NONE;
	b->castle_rook[1][0] = b->castle_rook[1][1] = CD_SQ_NONE;
	b->fullmove = 1;
	b->key = cd__board_key(b);
}

void
cd_board_init(cd_board *b)
{
	static const uint8_t back[8] = { CD_ROOK, CD_KNIGHT, CD_BISHOP,
	    CD_QUEEN, CD_KING, CD_BISHOP, CD_KNIGHT, CD_ROOK };
	int f;

	cd_board_clear(b);
	for (f = 0; f < 8; f++) {
		cd_board_put(b, CD_SQ(f, 0), CD_PIECE(CD_WHITE, back[f]));
		cd_board_put(b, CD_SQ(f, 1), CD_PIECE(CD_WHITE, CD_PAWN));
		cd_board_put(b, CD_SQ(f, 6), CD_PIECE(CD_BLACK, CD_PAWN));
		cd_board_put(b, CD_SQ(f, 7), CD_PIECE(CD_BLACK, back[f]));
	}
	b->castle_rook[CD_WHITE][CD_KINGSIDE] = CD_H1;
	b->castle_rook[CD_WHITE][CD_QUEENSIDE] = CD_A1;
	b->castle_rook[CD_BLACK][CD_KINGSIDE] = CD_H8;
	b->castle_rook[CD_BLACK][CD_QUEENSIDE] = CD_A8;
	cd_board_finish(b);
}

static inline void
put(cd_board *b, int sq, int piece)
{
	cd_bitboard bb = CD_BB(sq);

	b->squares[sq] = (uint8_t)piece;
	b->by_type[0] |= bb;
	b->by_type[CD_PIECE_TYPE(piece)] |= bb;
	b->by_color[CD_PIECE_COLOR(piece)] |= bb;
}

static inline void
take(cd_board *b, int sq)
{
	int piece = b->squares[sq];
	cd_bitboard bb = CD_BB(sq);

	b->squares[sq] = 0;
	b->by_type[0] &= ~bb;
	b->by_type[CD_PIECE_TYPE(piece)] &= ~bb;
	b->by_color[CD_PIECE_COLOR(piece)] &= ~bb;
}

void
cd_board_put(cd_board *b, int sq, int piece)
{
	if (sq < 0 || sq > 63)
		return;
	if (b->squares[sq])
		take(b, sq);
	if (CD_PIECE_TYPE(piece) >= CD_PAWN && CD_PIECE_TYPE(piece) <= CD_KING)
		put(b, sq, piece);
}

void
cd_board_remove(cd_board *b, int sq)
{
	if (sq >= 0 && sq < 64 && b->squares[sq])
		take(b, sq);
}

uint64_t
cd__board_key(const cd_board *b)
{
	uint64_t k = 0;
	int c, s, t;

	/* by the pieces' words: no square's byte loaded for each */
	for (c = 0; c < 2; c++)
		for (t = CD_PAWN; t <= CD_KING; t++) {
			const uint64_t *z = cd__z_piece[CD_PIECE(c, t)];
			cd_bitboard p = b->by_type[t] & b->by_color[c];

			while (p)
				k ^= z[cd__pop_lsb(&p)];
		}
	for (c = 0; c < 2; c++)
		for (s = 0; s < 2; s++)
			if (b->castle_rook[c][s] != CD_SQ_NONE)
				k ^= cd__z_castle[c][CD_FILE(b->castle_rook[c][s])];
	if (b->ep_hashed)
		k ^= cd__z_ep[CD_FILE(b->ep)];
	if (b->side == CD_BLACK)
		k ^= cd__z_side;
	return k;
}

void
cd_board_finish(cd_board *b)
{
	b->ep_hashed = b->ep != CD_SQ_NONE && cd__ep_capture_legal(b);
	b->key = cd__board_key(b);
}

bool
cd_board_ep_legal(const cd_board *b)
{
	return b->ep != CD_SQ_NONE && b->ep_hashed;
}

int
cd_board_king(const cd_board *b, int color)
{
	cd_bitboard k = b->by_type[CD_KING] & b->by_color[color & 1];

	return k ? cd__lsb(k) : CD_SQ_NONE;
}

bool
cd_board_is_capture(const cd_board *b, cd_move m)
{
	int kind = CD_MOVE_KIND(m);

	if (kind == CD_MK_EP)
		return true;
	if (kind == CD_MK_CASTLE || kind == CD_MK_NULL)
		return false;
	return b->squares[CD_MOVE_TO(m)] != 0;
}

int
cd_board_moving_type(const cd_board *b, cd_move m)
{
	if (CD_MOVE_KIND(m) == CD_MK_NULL)
		return CD_NO_TYPE;
	return CD_PIECE_TYPE(b->squares[CD_MOVE_FROM(m)]);
}

bool
cd_castle_is_kingside(cd_move m)
{
	return CD_MOVE_TO(m) > CD_MOVE_FROM(m);
}

int
cd_castle_king_to(cd_move m)
{
	int rank = CD_RANK(CD_MOVE_FROM(m));

	return CD_SQ(cd_castle_is_kingside(m) ? 6 : 2, rank);
}

int
cd_castle_rook_to(cd_move m)
{
	int rank = CD_RANK(CD_MOVE_FROM(m));

	return CD_SQ(cd_castle_is_kingside(m) ? 5 : 3, rank);
}

void
cd_board_make(cd_board *b, cd_move m)
{
	int us = b->side, them = us ^ 1;
	int from = CD_MOVE_FROM(m), to = CD_MOVE_TO(m), kind = CD_MOVE_KIND(m);
	uint64_t key;
	int piece, captured;

	if (kind == CD_MK_NORMAL) {	/* most moves */
		cd__board_make_normal(b, from, to);
		return;
	}
	if (kind == CD_MK_CASTLE) {
		cd__board_make_castle(b, from, to);
		return;
	}
	key = b->key ^ cd__z_side;
	if (b->ep_hashed)
		key ^= cd__z_ep[CD_FILE(b->ep)];
	b->ep = CD_SQ_NONE;
	b->ep_hashed = 0;
	b->halfmove++;

	if (kind == CD_MK_NULL) {
		/* nothing moves */
	} else {
		/* en passant and promotions: pawn moves */
		piece = b->squares[from];
		b->halfmove = 0;
		if (kind == CD_MK_EP) {
			int cap = to ^ 8;

			captured = b->squares[cap];
			take(b, cap);
			key ^= cd__z_piece[captured][cap];
		} else if ((captured = b->squares[to]) != 0) {
			take(b, to);
			key ^= cd__z_piece[captured][to];
			if (CD_PIECE_TYPE(captured) == CD_ROOK)
				key ^= cd__drop_rights(b, to);
		}
		take(b, from);
		key ^= cd__z_piece[piece][from];
		if (kind != CD_MK_EP)
			piece = CD_PIECE(us, CD_MOVE_PROMO_TYPE(m));
		put(b, to, piece);
		key ^= cd__z_piece[piece][to];
	}
	/* none of these leaves an en passant square */
	if (us == CD_BLACK)
		b->fullmove++;
	b->side = (uint8_t)them;
	b->key = key;
}
