/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chessdata/pgc.h: PGC, the binary coding of PGN (standard section 20),
 * as man/pgc.5 specifies it.
 *
 * Move ordinals: the index of a move in the list of the position's legal
 * moves written in canonical SAN (check and mate marks included) and
 * sorted in ascending byte order.  The library computes that order
 * without writing or sorting strings: see cd_pgc_keys.
 */
#ifndef CHESSDATA_PGC_H
#define CHESSDATA_PGC_H

#include <chessdata/board.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The sort keys of n legal moves of b.  moves[] must be the complete
 * list of b's legal moves (as cd_board_legal_moves gives it, in any
 * order), because the disambiguation of a move depends on the others.
 * keys[i] orders moves[i] exactly as the canonical SAN strings with
 * check and mate marks order in ascending byte order: a smaller key is
 * a smaller string, and different legal moves have different keys.
 * (The key is the move's SAN without its mark, one byte per character,
 * read as a big-endian number; man/pgc.5 shows why the marks never
 * change the order.)
 */
CD_API void cd_pgc_keys(const cd_board *b, const cd_move *moves, int n,
    uint64_t *keys);

/* The ordinal of the move m in b (0 .. number of legal moves - 1), or
 * -1 if m is not a legal move of b. */
CD_API int cd_pgc_ordinal(const cd_board *b, cd_move m);

/* The legal move of b with ordinal ord, or CD_MOVE_NONE if b has no
 * more than ord legal moves. */
CD_API cd_move cd_pgc_move(const cd_board *b, unsigned ord);

/* All legal moves of b in ordinal order into out (room for
 * CD_MAX_MOVES); returns their number. */
CD_API int cd_pgc_sorted_moves(const cd_board *b, cd_move *out);

#ifdef __cplusplus
}
#endif
#endif
