/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * san_fast.h: the fast SAN reader.  The common move tokens of a game
 * ("e4", "exd5", "Nf3", "Nbd7", "O-O") are resolved from the attack
 * tables, with legality from the pin line through the king, without
 * generating the legal moves; anything unusual is left to cd_san_parse
 * (san.c).  The PGN parser asks it first for every move, through the
 * game builder (pgn/game.c: cd__game_add_san_fast), which has it inline:
 * reading a move and adding it is then one call, not two, in the
 * parser's hottest path.
 */
#ifndef CHESSDATA_SAN_FAST_H
#define CHESSDATA_SAN_FAST_H

#include <string.h>

#include "core/movegen.h"

/* Castling written "O-O" or "O-O-O" (the mark stripped: n bytes), for
 * cd__san_fast: the rules of the generator (rook on the king's rank,
 * squares between empty, no square of the king's path attacked with
 * king and rook lifted), Chess960 included. */
static int
cd__castle_fast(const cd_board *b, bool check, const char *t, size_t n,
    cd_move *m, char *san, size_t *san_len)
{
	int us = b->side, them = us ^ 1, s, ksq, rsq;
	cd_bitboard kbb = b->by_type[CD_KING] & b->by_color[us], path, occ2;

	if (n == 3 && memcmp(t, "O-O", 3) == 0)
		s = CD_KINGSIDE;
	else if (n == 5 && memcmp(t, "O-O-O", 5) == 0)
		s = CD_QUEENSIDE;
	else
		return 0;
	if (check || !kbb)
		return 0;
	ksq = cd__lsb(kbb);
	if ((rsq = cd__castle_clear(b, us, s, ksq, &path)) < 0)
		return 0;
	occ2 = b->by_type[0] ^ kbb ^ CD_BB(rsq);
	while (path)
		if (cd__attacked(b, cd__pop_lsb(&path), them, occ2))
			return 0;
	*m = CD_MOVE(ksq, rsq, CD_MK_CASTLE);
	/* a word stored at once, as cd__san_fast's */
	memcpy(san, s == CD_KINGSIDE ? "O-O\0\0\0\0" : "O-O-O\0\0", 8);
	*san_len = n;
	return 1;
}

/* Piece letters of SAN: the piece type, 0 for other bytes. */
static const uint8_t letter_type[128] = {
	['N'] = CD_KNIGHT, ['B'] = CD_BISHOP, ['R'] = CD_ROOK,
	['Q'] = CD_QUEEN, ['K'] = CD_KING
};

/*
 * The squares from which a piece of type (knight to king) reaches sq on
 * occupancy occ: its steps (none for a slider) and both kinds of slide
 * worked out and the type's kept, with no branch, since which piece
 * moves is as good as random from move to move.
 */
static inline cd_bitboard
reach(int type, int sq, cd_bitboard occ)
{
	cd_bitboard diag = diag_reach(sq, occ), orth = orth_reach(sq, occ);

	return cd__steps[CD_WHITE][type][sq] |
	    (diag & -(cd_bitboard)(type == CD_BISHOP || type == CD_QUEEN)) |
	    (orth & -(cd_bitboard)(type == CD_ROOK || type == CD_QUEEN));
}

/* Whether the piece of side us on from (not the king), moved to to,
 * leaves the king on k open to a slider of them (the piece taken on to
 * is no longer there to attack). */
static inline bool
exposes(const cd_board *b, int k, int from, int to, int them)
{
	return cd__ray_hits(b, k, cd__dir[k][from],
	    (b->by_type[0] ^ CD_BB(from)) | CD_BB(to), them, CD_BB(to));
}

/*
 * The common move tokens, resolved without the general reader: a pawn
 * push "e4", a pawn capture "exd5", a piece move "Nf3", "Nbd7", "R1e2",
 * "Qxh7", "Nb1d2", castling "O-O" and "O-O-O" (with any check or mate
 * mark), English letters; check says whether the side to move is in
 * check.  Candidates come from the attack tables, legality from the
 * pin line through the king and, in check, from the squares that
 * answer it; the canonical SAN (without its mark) falls out of the same
 * candidate set; san has 8 bytes or more (one word is stored).  1 with
 * *m and san filled in when the token names
 * exactly one legal move; 0 when anything is unusual (promotion, en
 * passant, castling not so written, no or several moves, ...): the
 * caller then asks cd_san_parse, which also gives the error message.
 */
static inline int
cd__san_fast(const cd_board *b, bool check, const char *t, size_t len,
    cd_move *m, char *san, size_t *san_len)
{
	int us = b->side, them = us ^ 1, to, type, ff = -1, fr = -1, from;
	cd_bitboard occ = b->by_type[0], own = b->by_color[us], cand, legal;
	cd_bitboard kbb = b->by_type[CD_KING] & own, tobb;
	int ksq, d, sh = 0;
	size_t n = len, i;
	uint64_t w = 0;

	while (n > 0 && (t[n - 1] == '+' || t[n - 1] == '#'))
		n--;
	if (n < 2 || n > 6 || !kbb)
		return 0;
	if (t[0] == 'O')
		return cd__castle_fast(b, check, t, n, m, san, san_len);
	if (t[n - 2] < 'a' || t[n - 2] > 'h' || t[n - 1] < '1' ||
	    t[n - 1] > '8')
		return 0;
	to = CD_SQ(t[n - 2] - 'a', t[n - 1] - '1');
	tobb = CD_BB(to);
	if (own & tobb)
		return 0;
	ksq = cd__lsb(kbb);
	if (t[0] >= 'a' && t[0] <= 'h') {
		int dir = us == CD_WHITE ? 8 : -8;

		if (CD_RANK(to) == (us == CD_WHITE ? 7 : 0))
			return 0;	/* promotion */
		if (n == 2) {
			if (occ & tobb)
				return 0;
			from = to - dir;
			if (from < 0 || from > 63)
				return 0;
			if (!(occ & CD_BB(from)) && CD_RANK(to) ==
			    (us == CD_WHITE ? 3 : 4))
				from -= dir;
		} else if (n == 4 && t[1] == 'x' && (t[0] - t[2] == 1 ||
		    t[2] - t[0] == 1)) {
			if (!(b->by_color[them] & tobb))
				return 0;	/* en passant or illegal */
			from = CD_SQ(t[0] - 'a', CD_RANK(to)) - dir;
			if (from < 0 || from > 63)
				return 0;
		} else {
			return 0;
		}
		if (!(b->by_type[CD_PAWN] & own & CD_BB(from)))
			return 0;
		cand = CD_BB(from);
		type = CD_PAWN;
	} else {
		size_t e = n - 2;

		if ((unsigned char)t[0] >= 128 ||
		    (type = letter_type[(unsigned char)t[0]]) == 0)
			return 0;
		i = 1;
		e -= t[e - 1] == 'x';	/* (e >= 1: t[0] is the letter) */
		if (i < e && t[i] >= 'a' && t[i] <= 'h')
			ff = t[i++] - 'a';
		if (i < e && t[i] >= '1' && t[i] <= '8')
			fr = t[i++] - '1';
		if (i != e)
			return 0;
		cand = reach(type, to, occ) & b->by_type[type] & own;
	}
	if (check && type != CD_KING) {
		/* in check: capture the checker or block it */
		cd_bitboard checkers;

		/* (with no loop over their sliders: a king gives no
		 * check) */
		checkers = attackers_of(b, ksq, them, occ) &
		    ~b->by_type[CD_KING];
		if (checkers == 0 || (checkers & (checkers - 1)))
			return 0;
		d = cd__dir[ksq][cd__lsb(checkers)];
		if (!(tobb & ((d >= 0 ? cd__between_dir(ksq, cd__lsb(checkers),
		    d) : 0) | checkers)))
			return 0;
	}
	/* legal ones: a piece off the king's lines is free; one on them
	 * is pinned when an enemy slider sees the king once it has moved
	 * (a move along the line keeps it covered, and in check no such
	 * move answers the check); the king must not step into an attack */
	if (type == CD_KING) {
		legal = cand && !attacked(b, to, them, (occ ^ cand) &
		    ~tobb) ? cand : 0;
	} else if (cand & (cand - 1)) {
		legal = 0;
		while (cand) {
			from = cd__pop_lsb(&cand);
			if (!exposes(b, ksq, from, to, them))
				legal |= CD_BB(from);
		}
	} else {
		legal = cand && !exposes(b, ksq, cd__lsb(cand), to,
		    them) ? cand : 0;
	}
	cand = legal;
	if (ff >= 0)
		cand &= 0x0101010101010101ULL << ff;
	if (fr >= 0)
		cand &= 0xffULL << (8 * fr);
	if (cand == 0 || (cand & (cand - 1)))
		return 0;
	from = cd__lsb(cand);
	*m = CD_MOVE(from, to, CD_MK_NORMAL);
	/* the SAN put together in a word and stored at once: the caller
	 * reads it back as a word, which a store of single bytes cannot
	 * hand on (the load would wait for them to reach the cache) */
	if (type == CD_PAWN) {
		/* "exd5" or "e4", with no branch: which is as good as
		 * random */
		uint64_t x = -(uint64_t)(n == 4);

		w = ((uint64_t)(uint8_t)t[0] | (uint64_t)'x' << 8) & x;
		sh = 16 & (int)x;
	} else {
		cd_bitboard others = legal & ~CD_BB(from);
		uint64_t x = -(uint64_t)((occ & tobb) != 0);

		w = (uint8_t)cd__piece_letters[type];
		sh = 8;
		if (others) {
			bool same_file = false, same_rank = false;

			while (others) {
				int o = cd__pop_lsb(&others);

				same_file |= CD_FILE(o) == CD_FILE(from);
				same_rank |= CD_RANK(o) == CD_RANK(from);
			}
			if (!same_file || same_rank) {
				w |= (uint64_t)('a' + CD_FILE(from)) << sh;
				sh += 8;
			}
			if (same_file) {
				w |= (uint64_t)('1' + CD_RANK(from)) << sh;
				sh += 8;
			}
		}
		/* the capture's 'x', with no branch */
		w |= ((uint64_t)'x' << sh) & x;
		sh += 8 & (int)x;
	}
	w |= (uint64_t)('a' + CD_FILE(to)) << sh;
	sh += 8;
	w |= (uint64_t)('1' + CD_RANK(to)) << sh;
	sh += 8;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	memcpy(san, &w, sizeof(w));
	*san_len = (size_t)sh / 8;
	return 1;
}

#endif
