/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgc_ordinal.h: pgc/ordinal.c's calls for pgc.c.
 */
#ifndef CHESSDATA_PGC_ORDINAL_H
#define CHESSDATA_PGC_ORDINAL_H

#include <chessdata/board.h>

/* pgc/ordinal.c: cd_pgc_ordinal, and the move of ordinal ord of b
 * (CD_MOVE_NONE if there is none; *nmoves gets the number of legal
 * moves). */
int cd__pgc_ordinal(const cd_board *b, cd_move m);
cd_move cd__pgc_select_move(const cd_board *b, unsigned ord, int *nmoves);

#endif
