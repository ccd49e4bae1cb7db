/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgc/ordinal.c: PGC move ordinals (standard section 20, man/pgc.5),
 * for the encoder and decoder in pgc.c.
 */
#include "config.h"

#include <string.h>

#include "common/internal.h"
#include "core/movegen.h"
#include "pgc/pgc_ordinal.h"

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
 *
 * The first character alone orders most pairs (B < K < N < O < Q < R <
 * a..h), and moves with one first character are the moves of one piece
 * type, the castling moves, or the pawn moves from one file: a bucket.
 * So an ordinal is the number of legal moves in the buckets before the
 * move's own, counted with bitboards (bucket_counts), plus the move's
 * rank among the keys of its bucket, the only moves listed and keyed.
 * check_pgc compares the result with sorted cd_san_write strings on
 * every position of perft trees and of the whole corpus.
 */

#define KEY_CHARS 6

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
			    (uint64_t)cd__piece_letters[CD_MOVE_PROMO_TYPE(m)];
			len += 2;
		}
		return k << (8 * (KEY_CHARS - len));
	}
	k = (uint64_t)cd__piece_letters[type];
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

/* The keys of moves[0..n), which hold every legal move of b of the
 * piece types among them.  (moves is not const: gcc would take a const
 * array for one to be read whole and warn about the buckets.) */
static void
keys_of(const cd_board *b, cd_move *moves, int n, uint64_t *keys)
{
	cd_bitboard dup[7] = { 0 };
	int i, t;

	/* only knights, bishops, rooks and queens are disambiguated */
	t = CD_PIECE_TYPE(b->squares[CD_MOVE_FROM(moves[0])]);
	if (n > 1 && t >= CD_KNIGHT && t <= CD_QUEEN)
		find_shared(b, moves, n, dup);
	for (i = 0; i < n; i++)
		keys[i] = move_key(b, moves[i], moves, n, dup);
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

/*
 * The ordinal of a move is the number of moves whose first character is
 * smaller plus its rank among the moves that share its first character
 * (its bucket).  A bucket holds the moves of one piece type (or the
 * castling moves, or the pawn moves from one file), so the full keys,
 * disambiguation included, are needed only inside it: the other
 * buckets are counted, not keyed.
 *
 * Buckets are numbered in the order of their first characters:
 * B=0 K=1 N=2 O=3 Q=4 R=5, then the pawn files a..h = 6..13.
 */
#define NBUCKETS 14

static const uint8_t type_bucket[8] = {
	0, 6 /* pawn: plus its file */, 2 /* N */, 0 /* B */, 5 /* R */,
	4 /* Q */, 1 /* K */, 0
};

/* The bucket of a legal move (without branches that mispredict). */
static inline unsigned
bucket_of(const cd_board *b, cd_move m)
{
	unsigned from = CD_MOVE_FROM(m);
	unsigned t = CD_PIECE_TYPE(b->squares[from]);
	unsigned k = type_bucket[t] + (unsigned)(t == CD_PAWN) * (from & 7);

	return CD_MOVE_KIND(m) == CD_MK_CASTLE ? 3 : k;
}

/*
 * Counting the moves of each bucket without listing them.  In the usual
 * position (side to move not in check, no en passant capture possible)
 * the legal moves of a piece are its attacks on squares not its own,
 * along the pin line when it is pinned; king steps are tested one by
 * one, and castling moves come from the generator.  Pawns are counted
 * per file with the generator's shifts.  Other positions take the
 * general path: list every legal move.  Returns the total, or -1 for
 * the general path.
 */
#define FILE_A	0x0101010101010101ULL
#define FILE_H	0x8080808080808080ULL
#define RANK_1	0x00000000000000ffULL
#define RANK_3	0x0000000000ff0000ULL
#define RANK_6	0x0000ff0000000000ULL
#define RANK_8	0xff00000000000000ULL

/* Add the pawn moves to the squares of t, coming from file
 * file(to) + df, to the per-file counts. */
static inline void
count_pawn_targets(cd_bitboard t, int df, cd_bitboard promo,
    unsigned *cnt)
{
	while (t) {
		int to = cd__pop_lsb(&t);

		cnt[6 + (to & 7) + df] += (CD_BB(to) & promo) ? 4 : 1;
	}
}

/* The pawn moves of pawns (none pinned off target) onto target. */
static void
count_pawns(const cd_board *b, cd_bitboard pawns, cd_bitboard target,
    cd_bitboard empty, cd_bitboard enemies, unsigned *cnt)
{
	cd_bitboard promo, third, single, dbl, capl, capr;

	if (b->side == CD_WHITE) {
		promo = RANK_8;
		third = RANK_3;
		single = (pawns << 8) & empty;
		dbl = ((single & third) << 8) & empty;
		capl = ((pawns & ~FILE_A) << 7) & enemies;
		capr = ((pawns & ~FILE_H) << 9) & enemies;
	} else {
		promo = RANK_1;
		third = RANK_6;
		single = (pawns >> 8) & empty;
		dbl = ((single & third) >> 8) & empty;
		capl = ((pawns & ~FILE_A) >> 9) & enemies;
		capr = ((pawns & ~FILE_H) >> 7) & enemies;
	}
	count_pawn_targets(single & target, 0, promo, cnt);
	count_pawn_targets(dbl & target, 0, 0, cnt);
	count_pawn_targets(capl & target, 1, promo, cnt);
	count_pawn_targets(capr & target, -1, promo, cnt);
}

static int
bucket_counts(const cd_board *b, unsigned *cnt)
{
	int us = b->side, them = us ^ 1, ksq, from, i, n, total;
	cd_bitboard usbb = b->by_color[us], thembb = b->by_color[them];
	cd_bitboard occ = usbb | thembb, kbb = b->by_type[CD_KING] & usbb;
	cd_bitboard their_rq, their_bq, snipers, pinned, t, a, notus = ~usbb;
	cd_move list[CD_MAX_MOVES];

	if (kbb == 0 || (kbb & (kbb - 1)))
		return -1;
	ksq = cd__lsb(kbb);
	if (cd_attackers(b, ksq, them, occ))
		return -1;
	if (b->ep != CD_SQ_NONE && (cd__pawn_att[them][b->ep] &
	    b->by_type[CD_PAWN] & usbb))
		return -1;
	memset(cnt, 0, NBUCKETS * sizeof(*cnt));

	their_rq = (b->by_type[CD_ROOK] | b->by_type[CD_QUEEN]) & thembb;
	their_bq = (b->by_type[CD_BISHOP] | b->by_type[CD_QUEEN]) & thembb;
	pinned = 0;
	snipers = (cd__rook_att(ksq, 0) & their_rq) |
	    (cd__bishop_att(ksq, 0) & their_bq);
	while (snipers) {
		cd_bitboard between = cd__between[ksq][cd__pop_lsb(&snipers)] &
		    occ;

		if (between && !(between & (between - 1)))
			pinned |= between & usbb;
	}

	/* knights: a pinned knight cannot move */
	t = b->by_type[CD_KNIGHT] & usbb & ~pinned;
	while (t)
		cnt[2] += (unsigned)cd__popcount(cd__knight_att[
		    cd__pop_lsb(&t)] & notus);
	/* sliders: along the pin line when pinned */
	t = b->by_type[CD_BISHOP] & usbb;
	while (t) {
		from = cd__pop_lsb(&t);
		a = cd__bishop_att(from, occ) & notus;
		if (pinned & CD_BB(from))
			a &= cd__line[ksq][from];
		cnt[0] += (unsigned)cd__popcount(a);
	}
	t = b->by_type[CD_ROOK] & usbb;
	while (t) {
		from = cd__pop_lsb(&t);
		a = cd__rook_att(from, occ) & notus;
		if (pinned & CD_BB(from))
			a &= cd__line[ksq][from];
		cnt[5] += (unsigned)cd__popcount(a);
	}
	t = b->by_type[CD_QUEEN] & usbb;
	while (t) {
		from = cd__pop_lsb(&t);
		a = (cd__bishop_att(from, occ) | cd__rook_att(from, occ)) &
		    notus;
		if (pinned & CD_BB(from))
			a &= cd__line[ksq][from];
		cnt[4] += (unsigned)cd__popcount(a);
	}
	/* the king: steps, and castling from the generator */
	if (b->castle_rook[us][0] != CD_SQ_NONE ||
	    b->castle_rook[us][1] != CD_SQ_NONE) {
		n = cd_board_legal_moves_to(b, CD_KING, -1, list);
		for (i = 0; i < n; i++)
			cnt[CD_MOVE_KIND(list[i]) == CD_MK_CASTLE ? 3 : 1]++;
	} else {
		t = cd__king_att[ksq] & notus;
		while (t)
			cnt[1] += !cd_attackers(b, cd__pop_lsb(&t), them,
			    occ ^ kbb);
	}
	/* pawns: the free ones together, a pinned one along its line */
	t = b->by_type[CD_PAWN] & usbb;
	count_pawns(b, t & ~pinned, notus, ~occ, thembb, cnt);
	t &= pinned;
	while (t) {
		from = cd__pop_lsb(&t);
		count_pawns(b, CD_BB(from), notus & cd__line[ksq][from], ~occ,
		    thembb, cnt);
	}
	total = 0;
	for (i = 0; i < NBUCKETS; i++)
		total += (int)cnt[i];
	return total;
}

/* The legal moves of bucket k into out; returns their number. */
static int
bucket_moves(const cd_board *b, unsigned k, cd_move *out)
{
	static const uint8_t bucket_type[NBUCKETS] = {
		CD_BISHOP, CD_KING, CD_KNIGHT, CD_KING, CD_QUEEN, CD_ROOK,
		CD_PAWN, CD_PAWN, CD_PAWN, CD_PAWN, CD_PAWN, CD_PAWN, CD_PAWN,
		CD_PAWN
	};
	int n = cd_board_legal_moves_to(b, bucket_type[k], -1, out), i, m;

	if (k >= 6) {
		for (i = m = 0; i < n; i++)
			if ((unsigned)CD_FILE(CD_MOVE_FROM(out[i])) == k - 6)
				out[m++] = out[i];
		return m;
	}
	if (k == 1 || k == 3) {
		for (i = m = 0; i < n; i++)
			if ((CD_MOVE_KIND(out[i]) == CD_MK_CASTLE) == (k == 3))
				out[m++] = out[i];
		return m;
	}
	return n;
}

/* The rank of m among the nb moves of its bucket, -1 if not there. */
static int
rank_in_bucket(const cd_board *b, cd_move *bucket, int nb, cd_move m)
{
	uint64_t keys[CD_MAX_MOVES];
	int i, at = -1, below = 0;

	for (i = 0; i < nb; i++)
		if (bucket[i] == m)
			at = i;
	if (at < 0 || nb == 1)
		return at;
	keys_of(b, bucket, nb, keys);
	for (i = 0; i < nb; i++)
		below += keys[i] < keys[at] || (keys[i] == keys[at] && i < at);
	return below;
}

/* The move of rank r among the nb moves of a bucket. */
static cd_move
select_in_bucket(const cd_board *b, cd_move *bucket, int nb, unsigned r)
{
	uint64_t c[CD_MAX_MOVES];
	int i;

	if (nb == 1)
		return bucket[0];
	keys_of(b, bucket, nb, c);
	for (i = 0; i < nb; i++)
		c[i] = c[i] << 8 | (uint64_t)i;
	sort_keys(c, nb);
	return bucket[c[r < (unsigned)nb ? r : (unsigned)nb - 1] & 0xff];
}

int
cd__pgc_ordinal(const cd_board *b, cd_move m)
{
	cd_move moves[CD_MAX_MOVES], bucket[CD_MAX_MOVES];
	unsigned cnt[NBUCKETS], fc, k;
	int n, i, nb = 0, below = 0, r;

	if (bucket_counts(b, cnt) >= 0) {
		fc = bucket_of(b, m);
		for (k = 0; k < fc; k++)
			below += (int)cnt[k];
		nb = bucket_moves(b, fc, bucket);
		r = rank_in_bucket(b, bucket, nb, m);
		return r < 0 ? -1 : below + r;
	}
	/* the general path: every legal move */
	n = cd_board_legal_moves(b, moves);
	for (i = 0; i < n; i++)
		if (moves[i] == m)
			break;
	if (i == n)
		return -1;
	fc = bucket_of(b, m);
	for (i = 0; i < n; i++) {
		unsigned c = bucket_of(b, moves[i]);

		below += c < fc;
		if (c == fc)
			bucket[nb++] = moves[i];
	}
	return below + rank_in_bucket(b, bucket, nb, m);
}

/* The move of ordinal ord of b, CD_MOVE_NONE if there is none; *n
 * gets the number of legal moves. */
cd_move
cd__pgc_select_move(const cd_board *b, unsigned ord, int *nmoves)
{
	cd_move moves[CD_MAX_MOVES], bucket[CD_MAX_MOVES];
	unsigned char bk[CD_MAX_MOVES];
	unsigned cnt[NBUCKETS], below = 0, fc;
	int i, n, nb = 0;

	n = bucket_counts(b, cnt);
	if (n >= 0) {
		*nmoves = n;
		if (ord >= (unsigned)n)
			return CD_MOVE_NONE;
		for (fc = 0; below + cnt[fc] <= ord; fc++)
			below += cnt[fc];
		nb = bucket_moves(b, fc, bucket);
		return select_in_bucket(b, bucket, nb, ord - below);
	}
	/* the general path */
	n = cd_board_legal_moves(b, moves);
	*nmoves = n;
	if (ord >= (unsigned)n)
		return CD_MOVE_NONE;
	memset(cnt, 0, sizeof(cnt));
	for (i = 0; i < n; i++) {
		bk[i] = (unsigned char)bucket_of(b, moves[i]);
		cnt[bk[i]]++;
	}
	for (fc = 0; below + cnt[fc] <= ord; fc++)
		below += cnt[fc];
	for (i = 0; i < n; i++)
		if (bk[i] == fc)
			bucket[nb++] = moves[i];
	return select_in_bucket(b, bucket, nb, ord - below);
}

int
cd_pgc_ordinal(const cd_board *b, cd_move m)
{
	return cd__pgc_ordinal(b, m);
}

cd_move
cd_pgc_move(const cd_board *b, unsigned ord)
{
	int n;

	return cd__pgc_select_move(b, ord, &n);
}
