/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgc.c: PGC (standard section 20, man/pgc.5): move ordinals, the
 * encoder (game to records) and the streaming decoder (records to game).
 */
#include "config.h"

#include <string.h>

#include "internal.h"

/*
 * Move ordinals.
 *
 * The standard defines the ordinal of a move as its index in the list
 * of the legal moves' SAN strings sorted in ascending order.  Formatting
 * those strings is costly (each check mark means making the move and
 * looking for a legal reply; each disambiguation means generating the
 * moves of that piece type to that square), so the ordinal is computed
 * from a key instead: the bare SAN (without its check or mate mark)
 * packed into an integer, one byte per character, the first character
 * in the most significant position, padded to six characters with zero
 * bytes.  Comparing two keys compares the bare strings byte by byte,
 * a string before its extensions.
 *
 * Why the marks never matter: two different legal moves have different
 * bare SAN strings, and neither is a prefix of the other except "O-O"
 * and "O-O-O".  (A piece move ends with its destination square and is a
 * prefix of another only if that other one is disambiguated by that
 * very square, which then holds one of our pieces and cannot be a
 * destination; a pawn move to the last rank always carries "=X"; other
 * pieces of a type to one square are always disambiguated; a side has
 * one king.)  So two strings differ at a position before either mark,
 * and the mark cannot change their order; for "O-O" against "O-O-O",
 * the fourth byte is the end, '+' (0x2b) or '#' (0x23) against '-'
 * (0x2d), so kingside castling comes first with or without marks.
 *
 * Disambiguation is found from the list of legal moves itself: one pass
 * marks the destinations that two pieces of one type reach, and only
 * the moves to those squares look at the others.
 */

#define KEY_CHARS 6

static const char piece_letter[] = "?PNBRQK";

/* The key of one move; dup[type] has the destinations that more than
 * one piece of that type can reach. */
static uint64_t
move_key(const cd_board *b, cd_move m, const cd_move *moves, int n,
    const cd_bitboard *dup)
{
	int from = CD_MOVE_FROM(m), to = CD_MOVE_TO(m);
	int kind = CD_MOVE_KIND(m), type, len, i;
	uint64_t k;

	if (kind == CD_MK_CASTLE) {
		/* "O-O" and "O-O-O" */
		k = (uint64_t)'O' << 16 | (uint64_t)'-' << 8 | 'O';
		len = 3;
		if (!cd_castle_is_kingside(m)) {
			k = k << 16 | (uint64_t)'-' << 8 | 'O';
			len = 5;
		}
		return k << (8 * (KEY_CHARS - len));
	}
	type = CD_PIECE_TYPE(b->squares[from]);
	if (type == CD_PAWN) {
		k = (uint64_t)('a' + CD_FILE(from));
		len = 1;
		if (CD_FILE(from) != CD_FILE(to)) {
			k = k << 16 | (uint64_t)'x' << 8 |
			    (uint64_t)('a' + CD_FILE(to));
			len += 2;
		}
		k = k << 8 | (uint64_t)('1' + CD_RANK(to));
		len++;
		if (kind >= CD_MK_PROMO_N && kind <= CD_MK_PROMO_Q) {
			k = k << 16 | (uint64_t)'=' << 8 |
			    (uint64_t)piece_letter[CD_MOVE_PROMO_TYPE(m)];
			len += 2;
		}
		return k << (8 * (KEY_CHARS - len));
	}
	k = (uint64_t)piece_letter[type];
	len = 1;
	if (type != CD_KING && (dup[type] & CD_BB(to))) {
		bool others = false, same_file = false, same_rank = false;

		for (i = 0; i < n; i++) {
			int f = CD_MOVE_FROM(moves[i]);

			if (f == from || CD_MOVE_TO(moves[i]) != to ||
			    CD_MOVE_KIND(moves[i]) == CD_MK_CASTLE ||
			    CD_PIECE_TYPE(b->squares[f]) != type)
				continue;
			others = true;
			same_file |= CD_FILE(f) == CD_FILE(from);
			same_rank |= CD_RANK(f) == CD_RANK(from);
		}
		if (others) {
			if (!same_file || same_rank) {
				k = k << 8 | (uint64_t)('a' + CD_FILE(from));
				len++;
			}
			if (same_file) {
				k = k << 8 | (uint64_t)('1' + CD_RANK(from));
				len++;
			}
		}
	}
	if (b->squares[to]) {
		k = k << 8 | 'x';
		len++;
	}
	k = k << 16 | (uint64_t)('a' + CD_FILE(to)) << 8 |
	    (uint64_t)('1' + CD_RANK(to));
	len += 2;
	return k << (8 * (KEY_CHARS - len));
}

/* The destinations that two or more knights, bishops, rooks or queens
 * reach, per piece type. */
static void
find_shared(const cd_board *b, const cd_move *moves, int n, cd_bitboard *dup)
{
	cd_bitboard seen[7] = { 0 };
	int i, t;

	for (i = 0; i < 7; i++)
		dup[i] = 0;
	for (i = 0; i < n; i++) {
		cd_bitboard to;

		if (CD_MOVE_KIND(moves[i]) == CD_MK_CASTLE)
			continue;
		t = CD_PIECE_TYPE(b->squares[CD_MOVE_FROM(moves[i])]);
		to = CD_BB(CD_MOVE_TO(moves[i]));
		dup[t] |= seen[t] & to;
		seen[t] |= to;
	}
}

void
cd_pgc_keys(const cd_board *b, const cd_move *moves, int n, uint64_t *keys)
{
	cd_bitboard dup[7];
	int i;

	find_shared(b, moves, n, dup);
	for (i = 0; i < n; i++)
		keys[i] = move_key(b, moves[i], moves, n, dup);
}

int
cd_pgc_ordinal(const cd_board *b, cd_move m)
{
	cd_move moves[CD_MAX_MOVES];
	cd_bitboard dup[7];
	uint64_t km;
	int n, i, at = -1, ord = 0;

	n = cd_board_legal_moves(b, moves);
	for (i = 0; i < n; i++)
		if (moves[i] == m)
			at = i;
	if (at < 0)
		return -1;
	find_shared(b, moves, n, dup);
	km = move_key(b, m, moves, n, dup);
	for (i = 0; i < n; i++) {
		uint64_t k = move_key(b, moves[i], moves, n, dup);

		/* keys of legal moves differ; the index breaks ties in
		 * positions that are not legal chess (two kings) */
		ord += k < km || (k == km && i < at);
	}
	return ord;
}

/* Sort n composite keys (key << 8 | index) in place. */
static void
sort_keys(uint64_t *c, int n)
{
	int i, j;

	for (i = 1; i < n; i++) {
		uint64_t v = c[i];

		for (j = i; j > 0 && c[j - 1] > v; j--)
			c[j] = c[j - 1];
		c[j] = v;
	}
}

int
cd_pgc_sorted_moves(const cd_board *b, cd_move *out)
{
	cd_move moves[CD_MAX_MOVES];
	uint64_t c[CD_MAX_MOVES];
	int n, i;

	n = cd_board_legal_moves(b, moves);
	cd_pgc_keys(b, moves, n, c);
	for (i = 0; i < n; i++)
		c[i] = c[i] << 8 | (uint64_t)i;
	sort_keys(c, n);
	for (i = 0; i < n; i++)
		out[i] = moves[c[i] & 0xff];
	return n;
}

cd_move
cd_pgc_move(const cd_board *b, unsigned ord)
{
	cd_move moves[CD_MAX_MOVES];
	uint64_t c[CD_MAX_MOVES];
	int n, i;

	n = cd_board_legal_moves(b, moves);
	if (ord >= (unsigned)n)
		return CD_MOVE_NONE;
	cd_pgc_keys(b, moves, n, c);
	for (i = 0; i < n; i++)
		c[i] = c[i] << 8 | (uint64_t)i;
	sort_keys(c, n);
	return moves[c[ord] & 0xff];
}
