/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * san_fast.h: the fast SAN reader.  The common move tokens of a game
 * ("e4", "exd5", "Nf3", "Nbd7", "O-O") are resolved from the attack
 * tables, with legality from the pieces pinned to the king, without
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

/* Whether a piece of color by attacks a square of path on occupancy
 * occ (castling's path: two or three squares on the king's rank, the
 * king and rook lifted): the steps of the pieces from their tables,
 * or'd over the path first, then the sliders on the path's lines, each
 * seen from a square unless a piece stands between. */
static inline bool
cd__path_attacked(const cd_board *b, cd_bitboard path, int by,
    cd_bitboard occ)
{
	cd_bitboard th = b->by_color[by] & occ, q = b->by_type[CD_QUEEN];
	cd_bitboard orth = (b->by_type[CD_ROOK] | q) & th;
	cd_bitboard diag = (b->by_type[CD_BISHOP] | q) & th;
	cd_bitboard steps = 0, p = path;

	while (p) {
		int sq = cd__pop_lsb(&p);
		cd_bitboard s = ((cd__empty_reach[CD_ROOK][sq] & orth) |
		    (cd__empty_reach[CD_BISHOP][sq] & diag));

		steps |= (cd__knight_att[sq] & b->by_type[CD_KNIGHT]) |
		    (cd__pawn_att[by ^ 1][sq] & b->by_type[CD_PAWN]) |
		    (cd__king_att[sq] & b->by_type[CD_KING]);
		while (s) {
			int f = cd__pop_lsb(&s);

			if ((cd__between[sq][f] & occ) == 0)
				return true;
		}
	}
	return (steps & th) != 0;
}

/* Castling written "O-O" or "O-O-O" (the mark stripped: n bytes), for
 * cd__san_fast: the rules of the generator (rook on the king's rank,
 * squares between empty, no square of the king's path attacked with
 * king and rook lifted), Chess960 included.  The move or CD_MOVE_NONE
 * (its SAN is the token's: the caller's).  Out of line and returning
 * the move, so that the reader's own move, length and SAN need not
 * live in memory; not cold, which would have GCC call the attack
 * tests. */
static __attribute__((noinline)) cd_move
cd__castle_fast(const cd_board *b, bool check, const char *t, size_t n)
{
	int us = b->side, s, ksq, rsq;
	cd_bitboard kbb = b->by_type[CD_KING] & b->by_color[us], path;

	/* (the bytes compared here, not by memcmp: a call each time) */
	if (n != 3 && n != 5)
		return CD_MOVE_NONE;
	if (t[0] != 'O' || t[1] != '-' || t[2] != 'O' ||
	    (n == 5 && (t[3] != '-' || t[4] != 'O')))
		return CD_MOVE_NONE;
	s = n == 3 ? CD_KINGSIDE : CD_QUEENSIDE;
	if (check || !kbb)
		return CD_MOVE_NONE;
	ksq = cd__lsb(kbb);
	if ((rsq = cd__castle_clear(b, us, s, ksq, &path)) < 0 ||
	    cd__path_attacked(b, path, us ^ 1, b->by_type[0] ^ kbb ^
	    CD_BB(rsq)))
		return CD_MOVE_NONE;
	return CD_MOVE(ksq, rsq, CD_MK_CASTLE);
}

/* Castling's token t written "O-O" or "O-O-O" (n bytes, its mark
 * stripped) for cd__san_fast_pins: 1 with *m, *san and *san_len
 * filled in when it is legal, else 0. */
static inline __attribute__((always_inline)) int
cd__castle_word(const cd_board *b, bool check, const char *t, size_t n,
    cd_move *m, uint64_t *san, size_t *san_len)
{
	*m = cd__castle_fast(b, check, t, n);
	/* a word, as below: "O-O" or "O-O-O", 0 bytes after it */
	*san = n == 3 ? 0x4f2d4fULL : 0x4f2d4f2d4fULL;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	*san = __builtin_bswap64(*san);
#endif
	*san_len = n;
	return *m != CD_MOVE_NONE;
}

/* Piece letters of SAN: the piece type, 0 for other bytes (all 256:
 * no test of the byte's range first). */
static const uint8_t letter_type[256] = {
	['N'] = CD_KNIGHT, ['B'] = CD_BISHOP, ['R'] = CD_ROOK,
	['Q'] = CD_QUEEN, ['K'] = CD_KING
};

/* Which of the pieces cand, on their type's lines through sq (or a
 * step from it), reach it on occupancy occ: those with nothing between.
 * For several (two rooks on a rank, two knights), out of the reader's
 * line, which mostly has one. */
static __attribute__((noinline, cold)) cd_bitboard
several(int sq, cd_bitboard occ, cd_bitboard cand)
{
	cd_bitboard c = cand;

	while (c) {
		int f = cd__pop_lsb(&c);

		/* (none between a step's squares) */
		if (cd__between[sq][f] & occ)
			cand &= ~CD_BB(f);
	}
	return cand;
}

/* In check (not the king moving): whether a move to the square tobb
 * answers it, taking the lone checker or stepping between it and the
 * king (a double check only the king answers).  Out of the
 * reader's path, which is rarely in check: its values then need no
 * registers there. */
static __attribute__((noinline, cold)) bool
answers_check(const cd_board *b, cd_bitboard tobb)
{
	int us = b->side, ksq = cd__board_king(b, us), c;
	cd_bitboard th = b->by_color[us ^ 1], occ = b->by_type[0];
	/* the checkers: by a step (a king gives no check), then the
	 * sliders on the king's lines with nothing between (cd__between
	 * is empty for squares on no line: a step's checker has no
	 * squares to step between) */
	cd_bitboard checkers = ((cd__knight_att[ksq] &
	    b->by_type[CD_KNIGHT]) | (cd__pawn_att[us][ksq] &
	    b->by_type[CD_PAWN])) & th;
	cd_bitboard s = cd__snipers(b, ksq, us ^ 1);

	while (s) {
		int f = cd__pop_lsb(&s);

		if ((cd__between[ksq][f] & occ) == 0)
			checkers |= CD_BB(f);
	}
	if (checkers == 0 || (checkers & (checkers - 1)))
		return false;
	c = cd__lsb(checkers);
	return (tobb & (cd__between[ksq][c] | checkers)) != 0;
}

/* The king kbb (or none) when its step to to is legal: to not
 * attacked with the king lifted, a piece taken there removed.  Out of
 * line: the test's loop and values would take the reader's registers
 * for one move in ten. */
static __attribute__((noinline)) cd_bitboard
king_step(const cd_board *b, cd_bitboard kbb, int to)
{
	return kbb && !attacked(b, to, b->side ^ 1, (b->by_type[0] ^ kbb) &
	    ~CD_BB(to)) ? kbb : 0;
}

/* The pieces of cand (not the king) that may move to to, of which
 * those in pins (pinned to their king) only along their line through
 * the king; pins all ones when the side to move is in check (no piece
 * is pinned to every square): then none unless the move answers the
 * check, and the pins worked out here.  Out of line, as above: pins
 * and checks are rare. */
static __attribute__((noinline, cold)) cd_bitboard
unpinned(const cd_board *b, cd_bitboard cand, cd_bitboard pins, int to)
{
	int ksq = cd__board_king(b, b->side);
	cd_bitboard p;

	if (pins == ~(cd_bitboard)0) {
		if (!answers_check(b, CD_BB(to)))
			return 0;
		pins = cd__pins(b);
	}
	p = cand & pins;

	while (p) {
		int from = cd__pop_lsb(&p);

		if (cd__dir[ksq][from] != cd__dir[ksq][to])
			cand &= ~CD_BB(from);
	}
	return cand;
}

/* The SAN word w (the piece letter in its first byte) with the file,
 * rank or both of from that tell it from the other legal movers
 * others, after the letter. */
static __attribute__((noinline, cold)) uint64_t
disambiguate(uint64_t w, int from, cd_bitboard others)
{
	bool same_file = false, same_rank = false;
	int sh = 8;

	while (others) {
		int o = cd__pop_lsb(&others);

		same_file |= CD_FILE(o) == CD_FILE(from);
		same_rank |= CD_RANK(o) == CD_RANK(from);
	}
	if (!same_file || same_rank) {
		w |= (uint64_t)('a' + CD_FILE(from)) << sh;
		sh += 8;
	}
	if (same_file)
		w |= (uint64_t)('1' + CD_RANK(from)) << sh;
	return w;
}

/* A square's bytes in SAN: of a file letter 'a' to 'h' its file | 0x40,
 * of a rank digit '1' to '8' the rank's first square | 0x80, 0 for
 * other bytes: the two or'd, with 0xc0 flipped, are the square when both
 * are right and 64 or more when not, with one test and no mask. */
static const uint8_t file_byte[256] = {
	['a'] = 0x40, ['b'] = 0x41, ['c'] = 0x42, ['d'] = 0x43,
	['e'] = 0x44, ['f'] = 0x45, ['g'] = 0x46, ['h'] = 0x47
};
static const uint8_t rank_byte[256] = {
	['1'] = 0x80, ['2'] = 0x88, ['3'] = 0x90, ['4'] = 0x98,
	['5'] = 0xa0, ['6'] = 0xa8, ['7'] = 0xb0, ['8'] = 0xb8
};

/*
 * The common move tokens, resolved without the general reader: a pawn
 * push "e4", a pawn capture "exd5", a piece move "Nf3", "Nbd7", "R1e2",
 * "Qxh7", "Nb1d2", castling "O-O" and "O-O-O" (with any check or mate
 * mark), English letters; pins says which pieces of the side to move
 * are pinned to its king (cd__pins, cd__check_pins), all ones when it
 * is in check (no piece is pinned to every square: the reader then
 * needs no flag of its own, and a move of a piece other than the king
 * goes to the test of the pins, which looks at the check).  Candidates
 * come from the attack tables, legality from the pins and, in check,
 * from the squares that answer it; the canonical SAN (without its
 * mark) falls out of the same candidate set; *san gets its bytes as
 * one word (in memory order, the bytes after the SAN 0: a
 * NUL-terminated string when stored), so that the caller keeps it in
 * a register.  1 with *m, *san and *san_len filled
 * in when the token names exactly one legal move, and for a normal
 * move (not castling) *fromp and *top its squares and *clsp its class
 * for cd__board_make_class (a pawn's step, a pawn's capture or a
 * piece's move), so that the caller makes it with what was found here;
 * 0 when anything is unusual (promotion, en passant, castling not so
 * written, no or several moves, ...): the caller then asks
 * cd_san_parse, which also gives the error message.  The token has
 * at least one byte (len >= 1: a word's).  Always inline: with two
 * callers GCC would make it a function.
 */
static inline __attribute__((always_inline)) int
cd__san_fast_pins(const cd_board *b, cd_bitboard pins,
    const char *t, size_t len, cd_move *m, uint64_t *san, size_t *san_len,
    int *fromp, int *top, int *clsp)
{
	int us = b->side, them = us ^ 1, to, type, from;
	cd_bitboard occ = b->by_type[0], own = b->by_color[us], cand, legal;
	/* the squares the mover may stand on: all, or the file or rank
	 * the token names */
	cd_bitboard kbb = b->by_type[CD_KING] & own, tobb, only = ~0ULL;
	int sh = 0;
	size_t n, i;
	uint64_t w = 0, sqw;
	uint16_t sq2;

	/* one check or mate mark taken off (a second one leaves a byte
	 * that is no rank: cd_san_parse then reads the token); len is 1
	 * or more, and n's range that of len less the mark: no test of
	 * len's own */
	n = len - (t[len - 1] == '+' || t[len - 1] == '#');
	if (n < 2 || n > 6 || !kbb)
		return 0;
	/* the target square as the token wrote it, for the SAN word: its
	 * two bytes by one load (in memory order, the file's first) and
	 * one value kept.  Castling's last two bytes ("-O") are no square:
	 * it is looked for only then */
	memcpy(&sq2, t + n - 2, sizeof(sq2));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	sq2 = __builtin_bswap16(sq2);
#endif
	sqw = sq2;
	to = (file_byte[sqw & 0xff] | rank_byte[sqw >> 8]) ^ 0xc0;
	if (to > 63) {
		if (t[0] == 'O')
			return cd__castle_word(b, pins == ~(cd_bitboard)0, t,
			    n, m, san, san_len);
		return 0;
	}
	tobb = CD_BB(to);
	if (t[0] >= 'a' && t[0] <= 'h') {
		/* (the side is 0 or 1: the step and the target's rank
		 * counted from the mover's side with no branch) */
		int dir = 8 - 16 * us, rank = CD_RANK(to) ^ (7 * us);

		/* a promotion (rank 7) or no pawn's target (rank 0): the
		 * squares a step or two behind to are then on the board */
		if ((unsigned)rank - 1 > 5)
			return 0;
		if (n == 2) {
			if (occ & tobb)
				return 0;
			/* a second step back when the square a step behind
			 * is empty on rank 3 (a double step), with no
			 * branch: which of the two is as good as random */
			from = to - dir;
			from -= dir & -(int)(((occ >> from & 1) == 0) &
			    (rank == 3));
		} else if (n == 4 && t[1] == 'x' && (t[0] - t[2] == 1 ||
		    t[2] - t[0] == 1)) {
			if (!(b->by_color[them] & tobb))
				return 0;	/* en passant or illegal */
			from = CD_SQ(t[0] - 'a', CD_RANK(to)) - dir;
		} else {
			return 0;
		}
		if (!(b->by_type[CD_PAWN] & own & CD_BB(from)))
			return 0;
		cand = CD_BB(from);
		type = CD_PAWN;
	} else {
		size_t e = n - 2;

		/* (a pawn's target is tested as empty or the other
		 * side's below) */
		if ((type = letter_type[(unsigned char)t[0]]) == 0 ||
		    (own & tobb))
			return 0;
		/* (e >= 1 before and after: t[0] is the letter, no 'x';
		 * most tokens have nothing between it and the 'x' or the
		 * square, and skip the file's and rank's tests) */
		e -= t[e - 1] == 'x';
		if (e > 1) {
			i = 1;
			if (t[i] >= 'a' && t[i] <= 'h')
				only = 0x0101010101010101ULL << (t[i++] - 'a');
			if (i < e && t[i] >= '1' && t[i] <= '8')
				only &= 0xffULL << 8 * (t[i++] - '1');
			if (i != e)
				return 0;
		}
		/* the pieces of the type on its lines through to: most
		 * often one, which reaches to when nothing stands between
		 * (a knight's or king's step always) */
		cand = cd__empty_reach[type][to] & b->by_type[type] & own;
		if (cand & (cand - 1)) {
			cand = several(to, occ, cand);
		} else {
			/* (square 63 only when there is none: cand stays
			 * 0 whatever the test; a step's squares have none
			 * between) */
			int f = cd__lsb(cand | CD_BB(63));

			cand &= -(cd_bitboard)((cd__between[to][f] & occ) == 0);
		}
	}
	/* legal ones: a piece not pinned is free, a pinned one moves
	 * along its line through the king (in check no such move answers
	 * it: the lines meet at the king), in check any other only when it
	 * answers the check (unpinned: pins are then all ones); the king
	 * must not step into an attack */
	if (cand & (pins | kbb))
		legal = type == CD_KING ? king_step(b, cand, to) :
		    unpinned(b, cand, pins, to);
	else
		legal = cand;
	cand = legal & only;
	if (cand == 0 || (cand & (cand - 1)))
		return 0;
	from = cd__lsb(cand);
	*m = CD_MOVE(from, to, CD_MK_NORMAL);
	*fromp = from;
	*top = to;
	/* the SAN put together in a word and handed on as one (in a
	 * register, inline), not as single bytes that a load of the word
	 * would wait for */
	if (type == CD_PAWN) {
		/* "exd5" or "e4", with no branch: which is as good as
		 * random */
		uint64_t x = -(uint64_t)(n == 4);

		*clsp = n == 4 ? CD__MAKE_PAWN_TAKES : CD__MAKE_PUSH;

		w = ((uint64_t)(uint8_t)t[0] | (uint64_t)'x' << 8) & x;
		sh = 16 & (int)x;
	} else {
		cd_bitboard others = legal & ~CD_BB(from);
		uint64_t x = -(uint64_t)((occ & tobb) != 0);

		*clsp = CD__MAKE_PIECE;

		/* (the token's letter: letter_type's are the English
		 * ones, cd__piece_letters') */
		w = (uint8_t)t[0];
		sh = 8;
		if (others) {
			/* (the letters are no 0 bytes: sh from the
			 * highest bit set) */
			w = disambiguate(w, from, others);
			sh = (71 - __builtin_clzll(w)) & ~7;
		}
		/* the capture's 'x', with no branch */
		w |= ((uint64_t)'x' << sh) & x;
		sh += 8 & (int)x;
	}
	/* the target square as the token wrote it */
	w |= sqw << sh;
	sh += 16;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	*san = w;
	*san_len = (size_t)sh / 8;
	return 1;
}

/* cd__san_fast_pins with the pins worked out here, for a caller that
 * does not keep them from move to move. */
static inline int
cd__san_fast(const cd_board *b, bool check, const char *t, size_t len,
    cd_move *m, char *san, size_t *san_len)
{
	uint64_t w;
	int from, to, cls;

	/* (cd__san_fast_pins reads the token's last byte) */
	if (len == 0)
		return 0;
	if (!cd__san_fast_pins(b, check ? ~(cd_bitboard)0 : cd__pins(b), t,
	    len, m, &w, san_len, &from, &to, &cls))
		return 0;
	memcpy(san, &w, sizeof(w));
	return 1;
}

#endif
