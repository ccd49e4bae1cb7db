/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * movegen.c: legal move generation.
 *
 * Moves are generated legal from the start: the checkers give a mask of
 * squares that answer a check, pinned pieces move only along their pin
 * line, king moves are tested against the attacks with the king lifted,
 * and en passant is tested by playing it on the occupancy.  One generator
 * serves listing, counting (perft leaves) and filtered listing (SAN
 * reading: one piece type to one square).
 */
#include "config.h"

#include <string.h>

#include "common/internal.h"
#include "core/movegen.h"

#define RANK_1	0x00000000000000ffULL
#define RANK_3	0x0000000000ff0000ULL
#define RANK_6	0x0000ff0000000000ULL
#define RANK_8	0xff00000000000000ULL
#define FILE_A	0x0101010101010101ULL
#define FILE_H	0x8080808080808080ULL

enum { GEN_LIST, GEN_COUNT };

static inline cd_move *
emit_set(cd_move *out, int from, cd_bitboard to)
{
	while (to)
		*out++ = CD_MOVE(from, cd__pop_lsb(&to), CD_MK_NORMAL);
	return out;
}

static inline cd_move *
emit_promos(cd_move *out, int from, int to)
{
	*out++ = CD_MOVE(from, to, CD_MK_PROMO_Q);
	*out++ = CD_MOVE(from, to, CD_MK_PROMO_R);
	*out++ = CD_MOVE(from, to, CD_MK_PROMO_B);
	*out++ = CD_MOVE(from, to, CD_MK_PROMO_N);
	return out;
}

/* Pawn moves from the set of pawns pawns (all allowed anywhere in
 * target); pushes are also limited to empty squares. */
static inline cd_move *
gen_pawns(const cd_board *b, cd_move *out, int mode, int *count,
    cd_bitboard pawns, cd_bitboard target, cd_bitboard empty,
    cd_bitboard enemies)
{
	int us = b->side;
	int up = us == CD_WHITE ? 8 : -8;
	cd_bitboard promo_rank = us == CD_WHITE ? RANK_8 : RANK_1;
	cd_bitboard third = us == CD_WHITE ? RANK_3 : RANK_6;
	cd_bitboard single, dbl, capl, capr, t;
	int n = 0, to;

	if (us == CD_WHITE) {
		single = (pawns << 8) & empty;
		dbl = ((single & third) << 8) & empty;
		capl = ((pawns & ~FILE_A) << 7) & enemies;
		capr = ((pawns & ~FILE_H) << 9) & enemies;
	} else {
		single = (pawns >> 8) & empty;
		dbl = ((single & third) >> 8) & empty;
		capl = ((pawns & ~FILE_A) >> 9) & enemies;
		capr = ((pawns & ~FILE_H) >> 7) & enemies;
	}
	single &= target;
	dbl &= target;
	capl &= target;
	capr &= target;
	if (mode == GEN_COUNT) {
		n = cd__popcount(single & ~promo_rank) + cd__popcount(dbl) +
		    cd__popcount(capl & ~promo_rank) +
		    cd__popcount(capr & ~promo_rank) +
		    4 * (cd__popcount(single & promo_rank) +
		    cd__popcount(capl & promo_rank) +
		    cd__popcount(capr & promo_rank));
		*count += n;
		return out;
	}
	t = single & ~promo_rank;
	while (t) {
		to = cd__pop_lsb(&t);
		*out++ = CD_MOVE(to - up, to, CD_MK_NORMAL);
	}
	t = dbl;
	while (t) {
		to = cd__pop_lsb(&t);
		*out++ = CD_MOVE(to - 2 * up, to, CD_MK_NORMAL);
	}
	t = capl & ~promo_rank;
	while (t) {
		to = cd__pop_lsb(&t);
		*out++ = CD_MOVE(to - up + 1, to, CD_MK_NORMAL);
	}
	t = capr & ~promo_rank;
	while (t) {
		to = cd__pop_lsb(&t);
		*out++ = CD_MOVE(to - up - 1, to, CD_MK_NORMAL);
	}
	t = single & promo_rank;
	while (t) {
		to = cd__pop_lsb(&t);
		out = emit_promos(out, to - up, to);
	}
	t = capl & promo_rank;
	while (t) {
		to = cd__pop_lsb(&t);
		out = emit_promos(out, to - up + 1, to);
	}
	t = capr & promo_rank;
	while (t) {
		to = cd__pop_lsb(&t);
		out = emit_promos(out, to - up - 1, to);
	}
	return out;
}

/* Castling, with the king on ksq (kbb: our kings) not in check: king
 * and rook paths clear, king path not attacked; to_mask as generate's. */
static inline __attribute__((always_inline)) cd_move *
gen_castles(const cd_board *b, cd_move *out, int mode, int *count, int us,
    int ksq, cd_bitboard kbb, cd_bitboard occ, cd_bitboard to_mask)
{
	int them = us ^ 1, s;

	for (s = 0; s < 2; s++) {
		int rsq = b->castle_rook[us][s];
		cd_bitboard path, occ2;

		if (rsq == CD_SQ_NONE || !(to_mask & CD_BB(rsq)) ||
		    cd__castle_clear(b, us, s, ksq, &path) < 0)
			continue;
		/* with king and rook lifted; the destination is tested even
		 * when the king does not move (the rook may have shielded
		 * it) */
		occ2 = occ ^ kbb ^ CD_BB(rsq);
		while (path && !cd__attackers(b, cd__lsb(path), them, occ2))
			path &= path - 1;
		if (path)
			continue;	/* the king would pass an attacked square */
		if (mode == GEN_COUNT)
			(*count)++;
		else
			*out++ = CD_MOVE(ksq, rsq, CD_MK_CASTLE);
	}
	return out;
}

/*
 * The generator.  types: bit mask of piece types wanted (1 << CD_PAWN,
 * ...); to_mask: destination squares wanted (castling counts as the
 * king's move to the rook's square).  Returns the number of moves.
 */
static inline __attribute__((always_inline)) int
generate(const cd_board *b, cd_move *list, int mode, unsigned types,
    cd_bitboard to_mask)
{
	int us = b->side, them = us ^ 1;
	cd_bitboard usbb = b->by_color[us], thembb = b->by_color[them];
	cd_bitboard occ = usbb | thembb;
	cd_bitboard kbb = b->by_type[CD_KING] & usbb;
	cd_bitboard checkers, pinned, snipers, target, t, att;
	cd_bitboard their_rq, their_bq;
	cd_move *out = list;
	int count = 0, ksq, from, to;

	if (!kbb)
		return 0;
	ksq = cd__lsb(kbb);
	their_rq = (b->by_type[CD_ROOK] | b->by_type[CD_QUEEN]) & thembb;
	their_bq = (b->by_type[CD_BISHOP] | b->by_type[CD_QUEEN]) & thembb;
	checkers = cd__attackers(b, ksq, them, occ);

	/* king steps */
	if (types & (1u << CD_KING)) {
		cd_bitboard occ_nok = occ ^ kbb;

		t = cd__king_att[ksq] & ~usbb & to_mask;
		while (t) {
			to = cd__pop_lsb(&t);
			if (cd__attackers(b, to, them, occ_nok))
				continue;
			if (mode == GEN_COUNT)
				count++;
			else
				*out++ = CD_MOVE(ksq, to, CD_MK_NORMAL);
		}
	}
	if (checkers & (checkers - 1))
		goto done;	/* double check: only the king moves */

	target = ~usbb & to_mask;
	if (checkers)
		target &= cd__between[ksq][cd__lsb(checkers)] | checkers;

	/* pinned pieces: ours alone between the king and a slider */
	pinned = 0;
	snipers = (cd__rook_att(ksq, 0) & their_rq) |
	    (cd__bishop_att(ksq, 0) & their_bq);
	while (snipers) {
		cd_bitboard between = cd__between[ksq][cd__pop_lsb(&snipers)] & occ;

		if (between && !(between & (between - 1)))
			pinned |= between & usbb;
	}

	if (types & (1u << CD_PAWN)) {
		cd_bitboard pawns = b->by_type[CD_PAWN] & usbb;

		out = gen_pawns(b, out, mode, &count, pawns & ~pinned, target,
		    ~occ, thembb);
		t = pawns & pinned;
		while (t) {
			from = cd__pop_lsb(&t);
			out = gen_pawns(b, out, mode, &count, CD_BB(from),
			    target & cd__line[ksq][from], ~occ, thembb);
		}
		/* en passant: only onto the square behind a pawn that can
		 * have just made a double push (a FEN read without
		 * validation may name any square) */
		if (b->ep != CD_SQ_NONE && (to_mask & CD_BB(b->ep)) &&
		    CD_RANK(b->ep) == (us == CD_WHITE ? 5 : 2)) {
			int cap = b->ep ^ 8;

			t = cd__pawn_att[them][b->ep] & pawns;
			while (t) {
				cd_bitboard occ2;

				from = cd__pop_lsb(&t);
				occ2 = (occ ^ CD_BB(from) ^ CD_BB(cap)) |
				    CD_BB(b->ep);
				if ((cd__rook_att(ksq, occ2) & their_rq) ||
				    (cd__bishop_att(ksq, occ2) & their_bq) ||
				    (checkers & ~CD_BB(cap) &
				    ~(b->by_type[CD_ROOK] | b->by_type[CD_BISHOP] |
				    b->by_type[CD_QUEEN])))
					continue;
				if (!(b->squares[cap] &&
				    CD_PIECE_TYPE(b->squares[cap]) == CD_PAWN &&
				    CD_PIECE_COLOR(b->squares[cap]) == them) ||
				    (occ & CD_BB(b->ep)))
					continue;
				if (mode == GEN_COUNT)
					count++;
				else
					*out++ = CD_MOVE(from, b->ep, CD_MK_EP);
			}
		}
	}
	if (types & (1u << CD_KNIGHT)) {
		t = b->by_type[CD_KNIGHT] & usbb & ~pinned;
		while (t) {
			from = cd__pop_lsb(&t);
			att = cd__knight_att[from] & target;
			if (mode == GEN_COUNT)
				count += cd__popcount(att);
			else
				out = emit_set(out, from, att);
		}
	}
	if (types & ((1u << CD_BISHOP) | (1u << CD_QUEEN))) {
		cd_bitboard sel = 0;

		if (types & (1u << CD_BISHOP))
			sel |= b->by_type[CD_BISHOP];
		if (types & (1u << CD_QUEEN))
			sel |= b->by_type[CD_QUEEN];
		t = sel & usbb;
		while (t) {
			from = cd__pop_lsb(&t);
			att = cd__bishop_att(from, occ) & target;
			if (CD_PIECE_TYPE(b->squares[from]) == CD_QUEEN)
				att |= cd__rook_att(from, occ) & target;
			if (pinned & CD_BB(from))
				att &= cd__line[ksq][from];
			if (mode == GEN_COUNT)
				count += cd__popcount(att);
			else
				out = emit_set(out, from, att);
		}
	}
	if (types & (1u << CD_ROOK)) {
		t = b->by_type[CD_ROOK] & usbb;
		while (t) {
			from = cd__pop_lsb(&t);
			att = cd__rook_att(from, occ) & target;
			if (pinned & CD_BB(from))
				att &= cd__line[ksq][from];
			if (mode == GEN_COUNT)
				count += cd__popcount(att);
			else
				out = emit_set(out, from, att);
		}
	}

	if ((types & (1u << CD_KING)) && !checkers)
		out = gen_castles(b, out, mode, &count, us, ksq, kbb, occ,
		    to_mask);
done:
	return mode == GEN_COUNT ? count : (int)(out - list);
}

#define ALL_TYPES 0x7eu

int
cd_board_legal_moves(const cd_board *b, cd_move *out)
{
	return generate(b, out, GEN_LIST, ALL_TYPES, ~(cd_bitboard)0);
}

int
cd_board_legal_moves_to(const cd_board *b, int piece_type, int to,
    cd_move *out)
{
	unsigned types = piece_type >= CD_PAWN && piece_type <= CD_KING ?
	    1u << piece_type : ALL_TYPES;
	cd_bitboard mask = to >= 0 && to < 64 ? CD_BB(to) : ~(cd_bitboard)0;

	return generate(b, out, GEN_LIST, types, mask);
}

int
cd_board_count_moves(const cd_board *b)
{
	return generate(b, NULL, GEN_COUNT, ALL_TYPES, ~(cd_bitboard)0);
}

bool
cd__answer_check_by_piece(const cd_board *b)
{
	int us = b->side, them = us ^ 1, dir = us == CD_WHITE ? 8 : -8;
	int ksq, s, from;
	cd_bitboard own = b->by_color[us], occ = b->by_type[0];
	cd_bitboard kbb = b->by_type[CD_KING] & own, checkers, targets;
	cd_bitboard pawns = b->by_type[CD_PAWN] & own, q, froms;

	if (!kbb)
		return cd_board_has_legal_move(b);
	ksq = cd__lsb(kbb);
	checkers = attackers_of(b, ksq, them, occ);
	/* a double check only the king answers; an en passant square
	 * (a pawn that may give check and be taken so) and no check at
	 * all are the generator's */
	if (checkers & (checkers - 1))
		return false;
	if (checkers == 0 || b->ep != CD_SQ_NONE)
		return cd_board_has_legal_move(b);
	q = b->by_type[CD_QUEEN];
	targets = cd__between[ksq][cd__lsb(checkers)] | checkers;
	while (targets) {
		s = cd__pop_lsb(&targets);
		/* the pieces but the king (and pawns) that reach s */
		froms = ((cd__knight_att[s] & b->by_type[CD_KNIGHT]) |
		    (diag_reach(s, occ) & (b->by_type[CD_BISHOP] | q)) |
		    (orth_reach(s, occ) & (b->by_type[CD_ROOK] | q))) & own;
		if (CD_BB(s) & checkers) {
			/* pawns that take the checker */
			froms |= cd__pawn_att[them][s] & pawns;
		} else if (s - dir >= 0 && s - dir < 64) {
			/* pawns that step onto s (it is empty), one or two
			 * squares */
			if (pawns & CD_BB(s - dir))
				froms |= CD_BB(s - dir);
			else if (!(occ & CD_BB(s - dir)) &&
			    CD_RANK(s) == (us == CD_WHITE ? 3 : 4) &&
			    (pawns & CD_BB(s - 2 * dir)))
				froms |= CD_BB(s - 2 * dir);
		}
		/* legal unless the piece was pinned (the piece taken on s
		 * no longer attacks) */
		while (froms) {
			from = cd__pop_lsb(&froms);
			if (!cd__ray_hits(b, ksq, cd__dir[ksq][from],
			    (occ ^ CD_BB(from)) | CD_BB(s), them, CD_BB(s)))
				return true;
		}
	}
	return false;
}

bool
cd_board_has_legal_move(const cd_board *b)
{
	cd_move list[CD_MAX_MOVES];

	/* the king first: when it can move, no other piece need be tried
	 * (Chess960 castling can be legal when no king step is, so the
	 * full count follows) */
	if (generate(b, list, GEN_COUNT, 1u << CD_KING, ~(cd_bitboard)0) > 0)
		return true;
	return generate(b, list, GEN_COUNT, ALL_TYPES, ~(cd_bitboard)0) > 0;
}

bool
cd_board_is_legal(const cd_board *b, cd_move m)
{
	cd_move list[CD_MAX_MOVES];
	int n, i, from = CD_MOVE_FROM(m), to = CD_MOVE_TO(m);

	if (m == CD_MOVE_NULL || m == CD_MOVE_NONE)
		return false;
	if (!b->squares[from] || CD_PIECE_COLOR(b->squares[from]) != b->side)
		return false;
	n = generate(b, list, GEN_LIST,
	    1u << CD_PIECE_TYPE(b->squares[from]), CD_BB(to));
	for (i = 0; i < n; i++)
		if (list[i] == m)
			return true;
	return false;
}

static uint64_t
perft_rec(const cd_board *b, int depth)
{
	cd_move list[CD_MAX_MOVES];
	uint64_t nodes = 0;
	int n, i;

	if (depth == 1)
		return (uint64_t)generate(b, NULL, GEN_COUNT, ALL_TYPES,
		    ~(cd_bitboard)0);
	n = generate(b, list, GEN_LIST, ALL_TYPES, ~(cd_bitboard)0);
	for (i = 0; i < n; i++) {
		cd_board c = *b;

		cd_board_make(&c, list[i]);
		nodes += perft_rec(&c, depth - 1);
	}
	return nodes;
}

uint64_t
cd_perft(const cd_board *b, int depth)
{
	if (depth <= 0)
		return 1;
	return perft_rec(b, depth);
}

size_t
cd_move_to_uci(const cd_board *b, cd_move m, char *buf)
{
	int from = CD_MOVE_FROM(m), to = CD_MOVE_TO(m);
	size_t n = 0;

	if (m == CD_MOVE_NULL || m == CD_MOVE_NONE) {
		memcpy(buf, "0000", 5);
		return 4;
	}
	if (CD_MOVE_KIND(m) == CD_MK_CASTLE && !b->chess960)
		to = cd_castle_king_to(m);
	buf[n++] = (char)('a' + CD_FILE(from));
	buf[n++] = (char)('1' + CD_RANK(from));
	buf[n++] = (char)('a' + CD_FILE(to));
	buf[n++] = (char)('1' + CD_RANK(to));
	if (CD_MOVE_IS_PROMO(m))
		buf[n++] = cd__piece_letters[CD_PIECE(CD_BLACK,
		    CD_MOVE_PROMO_TYPE(m))];
	buf[n] = '\0';
	return n;
}
