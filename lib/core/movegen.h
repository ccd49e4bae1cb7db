/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * movegen.h: movegen.c's inline help for the game builder; above
 * board_make.h.
 */
#ifndef CHESSDATA_MOVEGEN_H
#define CHESSDATA_MOVEGEN_H

#include "core/board_make.h"

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

#endif
