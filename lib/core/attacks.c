/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * attacks.c: the attack and check queries over the attack tables (the
 * inline ones for the PGN builder and the fast SAN reader are in
 * attacks.h).  The tables are computed when the library is built
 * (gen-tables.c) and are constant data of the library: a program
 * that starts builds nothing.
 */
#include "config.h"

#include <stdint.h>

#include "common/internal.h"
#include "core/attacks.h"

/* The odd directions are diagonal, the even ones orthogonal. */
const uint16_t cd__slide_dirs[8] = {
	[CD_BISHOP] = 0x154, [CD_ROOK] = 0x0aa, [CD_QUEEN] = 0x1fe
};

static const cd_bitboard no_steps[64];

const cd_bitboard *const cd__steps[2][8] = {
	{ no_steps, cd__pawn_att[CD_WHITE], cd__knight_att, no_steps, no_steps,
	    no_steps, cd__king_att, no_steps },
	{ no_steps, cd__pawn_att[CD_BLACK], cd__knight_att, no_steps, no_steps,
	    no_steps, cd__king_att, no_steps }
};

cd_bitboard
cd_attacks(int piece_type, int color, int sq, cd_bitboard occupied)
{
	if (sq < 0 || sq > 63)
		return 0;
	switch (piece_type) {
	case CD_PAWN: return cd__pawn_att[color & 1][sq];
	case CD_KNIGHT: return cd__knight_att[sq];
	case CD_BISHOP: return cd__bishop_att(sq, occupied);
	case CD_ROOK: return cd__rook_att(sq, occupied);
	case CD_QUEEN: return cd__bishop_att(sq, occupied) |
		    cd__rook_att(sq, occupied);
	case CD_KING: return cd__king_att[sq];
	}
	return 0;
}

/* ---- attack and check queries ---- */

cd_bitboard
cd__attackers(const cd_board *b, int sq, int by, cd_bitboard occ)
{
	cd_bitboard them = b->by_color[by];
	cd_bitboard bq = b->by_type[CD_BISHOP] | b->by_type[CD_QUEEN];
	cd_bitboard rq = b->by_type[CD_ROOK] | b->by_type[CD_QUEEN];

	return them & ((cd__pawn_att[by ^ 1][sq] & b->by_type[CD_PAWN]) |
	    (cd__knight_att[sq] & b->by_type[CD_KNIGHT]) |
	    (cd__king_att[sq] & b->by_type[CD_KING]) |
	    (cd__bishop_att(sq, occ) & bq) | (cd__rook_att(sq, occ) & rq));
}

cd_bitboard
cd_attackers(const cd_board *b, int sq, int by, cd_bitboard occ)
{
	return cd__attackers(b, sq, by, occ);
}

cd_bitboard
cd_board_checkers(const cd_board *b)
{
	int k = cd__board_king(b, b->side);

	if (k == CD_SQ_NONE)
		return 0;
	return cd__attackers(b, k, b->side ^ 1, b->by_type[0]);
}

bool
cd_board_in_check(const cd_board *b)
{
	return cd_board_checkers(b) != 0;
}

cd_bitboard
cd__pins(const cd_board *b)
{
	int us = b->side;
	cd_bitboard kbb = b->by_type[CD_KING] & b->by_color[us];
	bool open = false;

	if (!kbb)
		return 0;
	return cd__king_lines(b, cd__lsb(kbb), us ^ 1, &open) &
	    b->by_color[us];
}

bool
cd__ep_capture_legal(const cd_board *b)
{
	int us = b->side, them = us ^ 1, ep = b->ep, cap, ksq, from;
	cd_bitboard cands, occ;

	if (ep == CD_SQ_NONE || CD_RANK(ep) != (us == CD_WHITE ? 5 : 2))
		return false;
	cap = ep ^ 8;
	if (!(b->by_type[CD_PAWN] & b->by_color[them] & CD_BB(cap)) ||
	    (b->by_type[0] & CD_BB(ep)))
		return false;
	ksq = cd__board_king(b, us);
	cands = cd__pawn_att[them][ep] & b->by_type[CD_PAWN] & b->by_color[us];
	while (cands) {
		from = cd__pop_lsb(&cands);
		if (ksq == CD_SQ_NONE)
			return true;
		occ = (b->by_type[0] ^ CD_BB(from) ^ CD_BB(cap)) | CD_BB(ep);
		if (!(cd__attackers(b, ksq, them, occ) & ~CD_BB(cap)))
			return true;
	}
	return false;
}
