/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_board.c: the board value, attacks, legal move generation,
 * making moves, Zobrist keys and the state of a game.
 *
 * Move generation is checked three ways: hand-made positions with the
 * moves they must and must not have (pins, en passant, castling through
 * and out of check, Chess960 castling, double check, stalemate, the
 * 218-move position), exhaustive consistency (cd_board_is_legal for
 * every 16-bit value, cd_board_legal_moves_to and cd_board_count_moves
 * against the full list), and random games on which the incremental key
 * must equal the key of the position read back from its FEN.  Perft
 * counts are in check_perft.
 */
#include "config.h"

#include "core-util.h"

#include <chessdata/pgn.h>
#include <chessdata/rules.h>
#include "check-main.h"

#define BB(sq)	((cd_bitboard)1 << (sq))

/* ---- the board value ---- */

static const char *const START =
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
static const char *const KIWIPETE =
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

START_TEST(test_init)
{
	cd_board b, p;
	cd_move list[CD_MAX_MOVES];

	cd_board_init(&b);
	ck_assert_str_eq(tu_fen_of(&b), START);
	ck_assert(cd_board_is_initial(&b));
	ck_assert_int_eq(cd_board_legal_moves(&b, list), 20);
	ck_assert_int_eq(cd_board_count_moves(&b), 20);
	ck_assert(cd_board_has_legal_move(&b));
	ck_assert_int_eq(cd_board_king(&b, CD_WHITE), CD_E1);
	ck_assert_int_eq(cd_board_king(&b, CD_BLACK), CD_SQ(4, 7));
	ck_assert_int_eq(b.castle_rook[CD_WHITE][CD_KINGSIDE], CD_H1);
	ck_assert_int_eq(b.castle_rook[CD_WHITE][CD_QUEENSIDE], CD_A1);
	ck_assert_int_eq(b.castle_rook[CD_BLACK][CD_KINGSIDE], CD_H8);
	ck_assert_int_eq(b.castle_rook[CD_BLACK][CD_QUEENSIDE], CD_A8);
	ck_assert_int_eq(b.ep, CD_SQ_NONE);
	ck_assert(!b.chess960);
	ck_assert_uint_eq(b.by_type[0], 0xffff00000000ffffULL);
	ck_assert_uint_eq(b.by_color[CD_WHITE], 0xffffULL);
	ck_assert_uint_eq(b.by_type[CD_PAWN], 0x00ff00000000ff00ULL);
	ck_assert_int_eq(b.squares[CD_SQ(3, 7)], CD_PIECE(CD_BLACK, CD_QUEEN));
	tu_fen(&p, START, CD_FEN_STRICT);
	ck_assert_uint_eq(p.key, b.key);
	ck_assert(!cd_board_in_check(&b));
	ck_assert_uint_eq(cd_board_checkers(&b), 0);
	/* not the initial position: another clock, another side */
	tu_fen(&p, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2", 0);
	ck_assert(!cd_board_is_initial(&p));
	tu_fen(&p, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1", 0);
	ck_assert(!cd_board_is_initial(&p));
	tu_fen(&p, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kkq - 0 1", 0);
	ck_assert(!cd_board_is_initial(&p));
	ck_assert_uint_ne(p.key, b.key);
}
END_TEST

START_TEST(test_clear)
{
	cd_board b;
	cd_move list[CD_MAX_MOVES];

	cd_board_init(&b);
	cd_board_clear(&b);
	ck_assert_str_eq(tu_fen_of(&b), "8/8/8/8/8/8/8/8 w - - 0 1");
	ck_assert_int_eq(cd_board_king(&b, CD_WHITE), CD_SQ_NONE);
	ck_assert_int_eq(cd_board_king(&b, CD_BLACK), CD_SQ_NONE);
	ck_assert_uint_eq(b.by_type[0], 0);
	/* no king: no moves, and no crash */
	ck_assert_int_eq(cd_board_legal_moves(&b, list), 0);
	ck_assert(!cd_board_in_check(&b));
	ck_assert_int_eq(cd_board_validate(&b), CD_POS_NO_WHITE_KING);
	ck_assert_uint_eq(cd_perft(&b, 3), 0);
	ck_assert_uint_eq(cd_perft(&b, 0), 1);
}
END_TEST

/* Building a position with put/remove/finish gives the same board as
 * reading its FEN. */
START_TEST(test_put_remove)
{
	cd_board b, p;
	const char *p2 = "PPPBBPPP";
	int f;

	cd_board_clear(&b);
	for (f = 0; f < 8; f++) {
		if (p2[f] == 'P')
			cd_board_put(&b, CD_SQ(f, 1), CD_PIECE(CD_WHITE, CD_PAWN));
		else
			cd_board_put(&b, CD_SQ(f, 1), CD_PIECE(CD_WHITE, CD_BISHOP));
	}
	cd_board_put(&b, CD_A1, CD_PIECE(CD_WHITE, CD_ROOK));
	cd_board_put(&b, CD_E1, CD_PIECE(CD_WHITE, CD_KING));
	cd_board_put(&b, CD_H1, CD_PIECE(CD_WHITE, CD_ROOK));
	cd_board_put(&b, CD_A8, CD_PIECE(CD_BLACK, CD_ROOK));
	cd_board_put(&b, CD_SQ(4, 7), CD_PIECE(CD_BLACK, CD_KING));
	cd_board_put(&b, CD_H8, CD_PIECE(CD_BLACK, CD_ROOK));
	/* rank 7: p1ppqpb1 */
	cd_board_put(&b, CD_SQ(0, 6), CD_PIECE(CD_BLACK, CD_PAWN));
	cd_board_put(&b, CD_SQ(2, 6), CD_PIECE(CD_BLACK, CD_PAWN));
	cd_board_put(&b, CD_SQ(3, 6), CD_PIECE(CD_BLACK, CD_PAWN));
	cd_board_put(&b, CD_SQ(4, 6), CD_PIECE(CD_BLACK, CD_QUEEN));
	cd_board_put(&b, CD_SQ(5, 6), CD_PIECE(CD_BLACK, CD_PAWN));
	cd_board_put(&b, CD_SQ(6, 6), CD_PIECE(CD_BLACK, CD_BISHOP));
	/* rank 6: bn2pnp1 */
	cd_board_put(&b, CD_SQ(0, 5), CD_PIECE(CD_BLACK, CD_BISHOP));
	cd_board_put(&b, CD_SQ(1, 5), CD_PIECE(CD_BLACK, CD_KNIGHT));
	cd_board_put(&b, CD_SQ(4, 5), CD_PIECE(CD_BLACK, CD_PAWN));
	cd_board_put(&b, CD_SQ(5, 5), CD_PIECE(CD_BLACK, CD_KNIGHT));
	cd_board_put(&b, CD_SQ(6, 5), CD_PIECE(CD_BLACK, CD_PAWN));
	/* rank 5: 3PN3 */
	cd_board_put(&b, CD_SQ(3, 4), CD_PIECE(CD_WHITE, CD_PAWN));
	cd_board_put(&b, CD_SQ(4, 4), CD_PIECE(CD_WHITE, CD_KNIGHT));
	/* rank 4: 1p2P3 */
	cd_board_put(&b, CD_SQ(1, 3), CD_PIECE(CD_BLACK, CD_PAWN));
	cd_board_put(&b, CD_SQ(4, 3), CD_PIECE(CD_WHITE, CD_PAWN));
	/* rank 3: 2N2Q1p, the queen first put on the wrong square */
	cd_board_put(&b, CD_SQ(2, 2), CD_PIECE(CD_WHITE, CD_KNIGHT));
	cd_board_put(&b, CD_SQ(6, 2), CD_PIECE(CD_WHITE, CD_QUEEN));
	cd_board_remove(&b, CD_SQ(6, 2));
	cd_board_put(&b, CD_SQ(5, 2), CD_PIECE(CD_WHITE, CD_ROOK));
	cd_board_put(&b, CD_SQ(5, 2), CD_PIECE(CD_WHITE, CD_QUEEN));	/* replaces */
	cd_board_put(&b, CD_SQ(7, 2), CD_PIECE(CD_BLACK, CD_PAWN));
	/* out-of-range squares and "no piece" change nothing harmful */
	cd_board_put(&b, 64, CD_PIECE(CD_WHITE, CD_QUEEN));
	cd_board_put(&b, -1, CD_PIECE(CD_WHITE, CD_QUEEN));
	cd_board_remove(&b, 64);
	cd_board_remove(&b, CD_SQ(3, 3));	/* empty square */
	b.castle_rook[CD_WHITE][CD_KINGSIDE] = CD_H1;
	b.castle_rook[CD_WHITE][CD_QUEENSIDE] = CD_A1;
	b.castle_rook[CD_BLACK][CD_KINGSIDE] = CD_H8;
	b.castle_rook[CD_BLACK][CD_QUEENSIDE] = CD_A8;
	cd_board_finish(&b);
	tu_fen(&p, KIWIPETE, 0);
	ck_assert_str_eq(tu_fen_of(&b), KIWIPETE);
	ck_assert_uint_eq(b.key, p.key);
	ck_assert_mem_eq(b.squares, p.squares, 64);
	ck_assert_uint_eq(b.by_type[0], p.by_type[0]);
	for (f = 1; f <= 6; f++)
		ck_assert_uint_eq(b.by_type[f], p.by_type[f]);
	ck_assert_uint_eq(b.by_color[0], p.by_color[0]);
	ck_assert_uint_eq(b.by_color[1], p.by_color[1]);
	ck_assert_int_eq(cd_board_count_moves(&b), 48);
	/* putting "no piece" empties a square */
	cd_board_put(&b, CD_SQ(5, 2), 0);
	ck_assert_int_eq(b.squares[CD_SQ(5, 2)], 0);
	ck_assert_uint_eq(b.by_type[CD_QUEEN] & b.by_color[CD_WHITE], 0);
	cd_board_finish(&b);
	tu_fen(&p, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N4p/PPPBBPPP/R3K2R w KQkq - 0 1", 0);
	ck_assert_uint_eq(b.key, p.key);
}
END_TEST

/* ---- attacks ---- */

static cd_bitboard
ray_attacks(int sq, cd_bitboard occ, int rook)
{
	static const int dirs[2][4][2] = {
		{ {1, 1}, {1, -1}, {-1, 1}, {-1, -1} },
		{ {1, 0}, {-1, 0}, {0, 1}, {0, -1} }
	};
	cd_bitboard att = 0;
	int d;

	for (d = 0; d < 4; d++) {
		int f = CD_FILE(sq) + dirs[rook][d][0];
		int r = CD_RANK(sq) + dirs[rook][d][1];

		while (f >= 0 && f < 8 && r >= 0 && r < 8) {
			att |= BB(CD_SQ(f, r));
			if (occ & BB(CD_SQ(f, r)))
				break;
			f += dirs[rook][d][0];
			r += dirs[rook][d][1];
		}
	}
	return att;
}

static cd_bitboard
step_attacks(int sq, const int (*d)[2], int n)
{
	cd_bitboard att = 0;
	int i;

	for (i = 0; i < n; i++) {
		int f = CD_FILE(sq) + d[i][0], r = CD_RANK(sq) + d[i][1];

		if (f >= 0 && f < 8 && r >= 0 && r < 8)
			att |= BB(CD_SQ(f, r));
	}
	return att;
}

START_TEST(test_attacks_fixed)
{
	/* leapers on edges and corners (no wrap-around) */
	ck_assert_uint_eq(cd_attacks(CD_KNIGHT, CD_WHITE, CD_A1, 0),
	    BB(CD_SQ(1, 2)) | BB(CD_SQ(2, 1)));
	ck_assert_uint_eq(cd_attacks(CD_KNIGHT, CD_BLACK, CD_H8, 0),
	    BB(CD_SQ(6, 5)) | BB(CD_SQ(5, 6)));
	ck_assert_uint_eq(cd_attacks(CD_KING, CD_WHITE, CD_H1, 0),
	    BB(CD_SQ(6, 0)) | BB(CD_SQ(6, 1)) | BB(CD_SQ(7, 1)));
	ck_assert_uint_eq(cd_attacks(CD_PAWN, CD_WHITE, CD_SQ(4, 1), 0),
	    BB(CD_SQ(3, 2)) | BB(CD_SQ(5, 2)));
	ck_assert_uint_eq(cd_attacks(CD_PAWN, CD_BLACK, CD_SQ(4, 6), 0),
	    BB(CD_SQ(3, 5)) | BB(CD_SQ(5, 5)));
	ck_assert_uint_eq(cd_attacks(CD_PAWN, CD_WHITE, CD_SQ(0, 1), 0),
	    BB(CD_SQ(1, 2)));
	ck_assert_uint_eq(cd_attacks(CD_PAWN, CD_WHITE, CD_SQ(7, 1), 0),
	    BB(CD_SQ(6, 2)));
	ck_assert_uint_eq(cd_attacks(CD_PAWN, CD_BLACK, CD_SQ(0, 6), 0),
	    BB(CD_SQ(1, 5)));
	ck_assert_uint_eq(cd_attacks(CD_PAWN, CD_BLACK, CD_SQ(7, 6), 0),
	    BB(CD_SQ(6, 5)));
	/* a rook on a1 blocked on a4 and d1 */
	ck_assert_uint_eq(cd_attacks(CD_ROOK, CD_WHITE, CD_A1,
	    BB(CD_SQ(0, 3)) | BB(CD_SQ(3, 0)) | BB(CD_SQ(7, 7))),
	    BB(CD_SQ(0, 1)) | BB(CD_SQ(0, 2)) | BB(CD_SQ(0, 3)) |
	    BB(CD_SQ(1, 0)) | BB(CD_SQ(2, 0)) | BB(CD_SQ(3, 0)));
	/* a bishop on d4 with blockers on b2 and f6 */
	ck_assert_uint_eq(cd_attacks(CD_BISHOP, CD_BLACK, CD_SQ(3, 3),
	    BB(CD_SQ(1, 1)) | BB(CD_SQ(5, 5))),
	    BB(CD_SQ(2, 2)) | BB(CD_SQ(1, 1)) | BB(CD_SQ(4, 4)) |
	    BB(CD_SQ(5, 5)) | BB(CD_SQ(2, 4)) | BB(CD_SQ(1, 5)) |
	    BB(CD_SQ(0, 6)) | BB(CD_SQ(4, 2)) | BB(CD_SQ(5, 1)) |
	    BB(CD_SQ(6, 0)));
	/* an empty-board queen on d4 sees 27 squares */
	ck_assert_int_eq(__builtin_popcountll(cd_attacks(CD_QUEEN, CD_WHITE,
	    CD_SQ(3, 3), 0)), 27);
}
END_TEST

/* Every square, many occupancies: the magic tables against ray walks,
 * the leapers against step tables. */
START_TEST(test_attacks_exhaustive)
{
	static const int kn[8][2] = { {1, 2}, {2, 1}, {2, -1}, {1, -2},
	    {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2} };
	static const int kg[8][2] = { {1, 0}, {1, 1}, {0, 1}, {-1, 1},
	    {-1, 0}, {-1, -1}, {0, -1}, {1, -1} };
	static const int wp[2][2] = { {-1, 1}, {1, 1} };
	static const int bp[2][2] = { {-1, -1}, {1, -1} };
	int sq, i;

	for (sq = 0; sq < 64; sq++) {
		ck_assert_uint_eq(cd_attacks(CD_KNIGHT, CD_WHITE, sq, 0),
		    step_attacks(sq, kn, 8));
		ck_assert_uint_eq(cd_attacks(CD_KING, CD_BLACK, sq, 0),
		    step_attacks(sq, kg, 8));
		ck_assert_uint_eq(cd_attacks(CD_PAWN, CD_WHITE, sq, 0),
		    step_attacks(sq, wp, 2));
		ck_assert_uint_eq(cd_attacks(CD_PAWN, CD_BLACK, sq, 0),
		    step_attacks(sq, bp, 2));
		for (i = 0; i < 400; i++) {
			cd_bitboard occ = tu_rand() & tu_rand();

			if (i & 1)
				occ &= tu_rand();
			ck_assert_uint_eq(cd_attacks(CD_ROOK, CD_WHITE, sq, occ),
			    ray_attacks(sq, occ, 1));
			ck_assert_uint_eq(cd_attacks(CD_BISHOP, CD_BLACK, sq, occ),
			    ray_attacks(sq, occ, 0));
			ck_assert_uint_eq(cd_attacks(CD_QUEEN, CD_WHITE, sq, occ),
			    ray_attacks(sq, occ, 0) | ray_attacks(sq, occ, 1));
		}
	}
}
END_TEST

START_TEST(test_attackers)
{
	cd_board b;

	cd_board_init(&b);
	/* f3 is covered by e2, g2 and g1 */
	ck_assert_uint_eq(cd_attackers(&b, CD_SQ(5, 2), CD_WHITE, b.by_type[0]),
	    BB(CD_SQ(4, 1)) | BB(CD_SQ(6, 1)) | BB(CD_SQ(6, 0)));
	ck_assert_uint_eq(cd_attackers(&b, CD_SQ(5, 2), CD_BLACK, b.by_type[0]), 0);
	/* d1's queen sees h5 once e2 and f3 are empty (given occupancy) */
	ck_assert_uint_eq(cd_attackers(&b, CD_SQ(7, 4), CD_WHITE,
	    b.by_type[0] & ~BB(CD_SQ(4, 1))), BB(CD_SQ(3, 0)));
	/* checkers: a double check by rook and knight */
	tu_fen(&b, "4k3/8/3N4/8/8/8/8/4R1K1 b - - 0 1", 0);
	ck_assert(cd_board_in_check(&b));
	ck_assert_uint_eq(cd_board_checkers(&b), BB(CD_E1) | BB(CD_SQ(3, 5)));
	tu_fen(&b, "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", CD_FEN_NO_VALIDATE);
	ck_assert(!cd_board_in_check(&b));	/* only the side to move */
}
END_TEST

/* ---- legal moves in chosen positions ---- */

struct mg_case {
	const char *fen;
	unsigned flags;
	int count;		/* -1: not checked */
	const char *has;	/* SAN that must be there */
	const char *hasnot;	/* SAN that must not */
};

static const struct mg_case mg_cases[] = {
	/* 0 */
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0, 20,
	  "a3 a4 e4 h4 Na3 Nc3 Nf3 Nh3", "O-O Ke2 Bc4 e5" },
	/* standard 8.2.3.4: the knight on c3 is pinned, so "Ne2" */
	{ "4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1", 0, 8,
	  "Ne2 Nf3 Nh3 Kd1 Kd2 Ke2 Kf1 Kf2", "Nce2 Nge2 Nd5 Nb5 Na4 Nxb4" },
	/* a rook pinned on a file moves along it */
	{ "4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1", 0, 10,
	  "Re3 Re7 Rxe8+ Kd1 Kf2", "Rd2 Ra2 Rh2" },
	/* a bishop pinned on a file cannot move */
	{ "4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1", 0, 4,
	  "Kd1 Kd2 Kf1 Kf2", "Bd3 Bf3" },
	/* a pawn pinned on a diagonal takes its pinner, never pushes */
	{ "4k3/8/8/8/8/2b5/3P4/4K3 w - - 0 1", 0, 5,
	  "dxc3 Kd1 Ke2 Kf1 Kf2", "d3 d4 Kd2" },
	/* 5: en passant that would open the rank to the king */
	{ "8/8/8/KPp3r1/8/8/8/4k3 w - c6 0 1", 0, 4,
	  "b6 Ka4 Ka6 Kb6", "bxc6 Kb4" },
	/* en passant taking the pawn that gives check */
	{ "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", 0, 9,
	  "exd3 Kxd4 Kb4 Kb5 Kb6 Kc4 Kc6 Kd5 Kd6", "e3" },
	/* en passant does not answer a discovered check by the double push */
	{ "8/8/8/k7/3Pp3/8/8/4B1K1 b - d3 0 1", 0, 4,
	  "Ka4 Ka6 Kb5 Kb6", "exd3 e3 Kb4" },
	/* en passant along the pin of the capturing pawn */
	{ "5b1k/8/8/2Pp4/1K6/8/8/8 w - d6 0 1", 0, -1, "cxd6", "c6" },
	/* en passant off the pin line of the capturing pawn */
	{ "8/b7/8/2Pp4/8/4K3/8/7k w - d6 0 1", 0, -1, "Kd3", "cxd6 c6" },
	/* 10: castling through check (f1), legal queenside */
	{ "r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1", 0,-1,
	  "O-O-O Kd1 Kd2 Kf2 Rb1 Rg1", "O-O Kf1 Ke2" },
	/* the rook may pass an attacked square (b1) */
	{ "1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1", 0,-1, "O-O-O", "" },
	/* no castling out of check */
	{ "4k3/8/8/8/8/8/8/R3K2r w Q - 0 1", 0, 3, "Kd2 Ke2 Kf2", "O-O-O Kd1 Kf1" },
	/* no castling into check */
	{ "4k1r1/8/8/8/8/8/8/4K2R w K - 0 1", 0,-1, "Kf1 Rh7", "O-O" },
	/* nor over a piece */
	{ "4k3/8/8/8/8/8/8/RN2K1NR w KQ - 0 1", 0, -1, "", "O-O O-O-O" },
	/* 15: Chess960 (ethereal fischer.epd line 1): blocked both ways */
	{ "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
	  CD_FEN_960, 21, "", "O-O O-O-O" },
	/* the king stays on g1, the rook goes h1-f1 */
	{ "4k3/8/8/8/8/8/8/6KR w H - 0 1", CD_FEN_960, -1, "O-O Kf1 Kf2", "" },
	/* the rook stays on f1, the king goes e1-g1 */
	{ "4k3/8/8/8/8/8/8/4KR2 w F - 0 1", CD_FEN_960, -1, "O-O", "" },
	/* queenside b1 rook shields the king on c1 from a1: after castling
	 * the king would stand in check */
	{ "4k3/8/8/8/8/8/8/rRK5 w B - 0 1", CD_FEN_960, -1, "Kd1 Rxa1", "O-O-O" },
	/* king b1 and rook a1: the king goes to c1, the rook to d1 */
	{ "4k3/8/8/8/8/8/8/RK6 w A - 0 1", CD_FEN_960, -1, "O-O-O", "" },
	/* 20: only the king's squares must be safe: the rook may land on
	 * an attacked d1 */
	{ "3rk3/8/8/8/8/8/8/RK6 w A - 0 1", CD_FEN_960, 12, "O-O-O Kc1 Kc2", "" },
	/* double check: only the king moves */
	{ "4k3/8/r2N4/8/8/8/8/4R1K1 b - - 0 1", 0, 3, "Kd7 Kd8 Kf8",
	  "Rxd6 Ke7 Kf7" },
	/* stalemate */
	{ "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 0, 0, "", "Kh7 Kg8" },
	/* promotions, pushing and capturing */
	{ "2r5/1P6/8/8/8/8/6k1/K7 w - - 0 1", 0, 11,
	  "b8=Q b8=R b8=B b8=N bxc8=Q bxc8=R bxc8=B bxc8=N Ka2 Kb1 Kb2",
	  "b8 bxc8" },
	/* the most moves any position has */
	{ "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1", 0, 218, "", "" },
	/* 25: checkmate */
	{ "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", 0, 0,
	  "", "Kf2" },
};

static int
san_in(const char *list, const char *san, size_t n)
{
	const char *p = list;

	while (*p) {
		size_t k = strcspn(p, " ");

		if (k == n && memcmp(p, san, n) == 0)
			return 1;
		p += k;
		while (*p == ' ')
			p++;
	}
	return 0;
}

START_TEST(test_movegen_cases)
{
	const struct mg_case *c = &mg_cases[_i];
	cd_board b;
	char list[CD_MAX_MOVES * CD_SAN_MAX];
	const char *p;
	int want[2] = { 1, 0 }, k;

	tu_fen(&b, c->fen, c->flags);
	strcpy(list, tu_san_list(&b));
	if (c->count >= 0)
		ck_assert_msg(cd_board_count_moves(&b) == c->count,
		    "%s: %d moves, expected %d: %s", c->fen,
		    cd_board_count_moves(&b), c->count, list);
	for (k = 0; k < 2; k++) {
		p = k == 0 ? c->has : c->hasnot;
		while (*p) {
			size_t n = strcspn(p, " ");

			ck_assert_msg(san_in(list, p, n) == want[k],
			    "%s: %.*s %s (moves: %s)", c->fen, (int)n, p,
			    k == 0 ? "missing" : "generated", list);
			p += n;
			while (*p == ' ')
				p++;
		}
	}
}
END_TEST

/*
 * Positions for the consistency checks: the perft classics, en passant,
 * promotions, castling both ways, Chess960.
 */
static const struct {
	const char *fen;
	unsigned flags;
} mixed[] = {
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0 },
	{ "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 0 },
	{ "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 0 },
	{ "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 0 },
	{ "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 0 },
	{ "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 0 },
	{ "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0 },
	{ "8/8/8/KPp3r1/8/8/8/4k3 w - c6 0 1", 0 },
	{ "2r5/1P6/8/8/8/8/6k1/K7 w - - 0 1", 0 },
	{ "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", 0 },
	{ "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", CD_FEN_960 },
	{ "4k3/8/8/8/8/8/8/rRK5 w B - 0 1", CD_FEN_960 },
	{ "1r2k3/8/8/8/8/8/8/RK6 w A - 0 1", CD_FEN_960 },
	{ "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", 0 },
};

/* cd_board_is_legal for every 16-bit value agrees with the list. */
START_TEST(test_is_legal_exhaustive)
{
	cd_board b;
	cd_move list[CD_MAX_MOVES];
	static unsigned char in[65536];
	int n, i;
	unsigned m, count = 0;

	tu_fen(&b, mixed[_i].fen, mixed[_i].flags);
	n = cd_board_legal_moves(&b, list);
	memset(in, 0, sizeof(in));
	for (i = 0; i < n; i++) {
		ck_assert_msg(!in[list[i]], "move %#x listed twice", list[i]);
		in[list[i]] = 1;
	}
	for (m = 0; m < 65536; m++) {
		bool legal = cd_board_is_legal(&b, (cd_move)m);

		ck_assert_msg(legal == (in[m] != 0), "%s: move %#x is_legal %d",
		    mixed[_i].fen, m, legal);
		count += legal;
	}
	ck_assert_uint_eq(count, (unsigned)n);
	ck_assert(!cd_board_is_legal(&b, CD_MOVE_NULL));
	ck_assert(!cd_board_is_legal(&b, CD_MOVE_NONE));
}
END_TEST

/* cd_board_legal_moves_to(type, to) is the full list filtered. */
START_TEST(test_legal_moves_to)
{
	cd_board b;
	cd_move all[CD_MAX_MOVES], sub[CD_MAX_MOVES];
	int n, t, to;

	tu_fen(&b, mixed[_i].fen, mixed[_i].flags);
	n = cd_board_legal_moves(&b, all);
	for (t = CD_NO_TYPE; t <= CD_KING; t++)
		for (to = -1; to < 64; to++) {
			int k = cd_board_legal_moves_to(&b, t, to, sub), want = 0;
			int i, j;

			for (i = 0; i < n; i++) {
				if (t != CD_NO_TYPE &&
				    cd_board_moving_type(&b, all[i]) != t)
					continue;
				if (to >= 0 && CD_MOVE_TO(all[i]) != to)
					continue;
				want++;
				for (j = 0; j < k; j++)
					if (sub[j] == all[i])
						break;
				ck_assert_msg(j < k, "%s: type %d to %d lacks %#x",
				    mixed[_i].fen, t, to, all[i]);
			}
			ck_assert_int_eq(k, want);
		}
	ck_assert_int_eq(cd_board_count_moves(&b), n);
}
END_TEST

/* An en passant square that no double push made (read without
 * validation) gives no capture and is not in the key. */
START_TEST(test_bad_ep_square)
{
	cd_board b;
	cd_move list[CD_MAX_MOVES];
	int n, i;

	tu_fen(&b, "4k3/8/8/8/4p3/8/3P4/4K3 w - e3 0 1", CD_FEN_NO_VALIDATE);
	ck_assert_int_eq(cd_board_validate(&b), CD_POS_BAD_EP);
	n = cd_board_legal_moves(&b, list);
	ck_assert_int_eq(n, 6);
	for (i = 0; i < n; i++)
		ck_assert_int_ne(CD_MOVE_KIND(list[i]), CD_MK_EP);
	/* as with "-" (Stockfish: 38) */
	ck_assert_uint_eq(cd_perft(&b, 2), 38);
	ck_assert(!cd_board_ep_legal(&b));
	/* black to move, the square on the sixth rank */
	tu_fen(&b, "4k3/4p3/8/3P4/8/8/8/4K3 b - d6 0 1", CD_FEN_NO_VALIDATE);
	n = cd_board_legal_moves(&b, list);
	for (i = 0; i < n; i++)
		ck_assert_int_ne(CD_MOVE_KIND(list[i]), CD_MK_EP);
	ck_assert(!cd_board_ep_legal(&b));
}
END_TEST

/* ---- making moves ---- */

struct make_case {
	unsigned flags;
	const char *start;	/* NULL: the initial position */
	const char *moves;
	const char *fen;	/* after the moves */
};

static const struct make_case make_cases[] = {
	/* the en passant square after every double push (16.1.3.4) */
	{ 0, NULL, "e4",
	  "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1" },
	{ 0, NULL, "e4 c5",
	  "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2" },
	{ 0, NULL, "e4 c5 Nf3",
	  "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2" },
	{ 0, NULL, "e4 e6 e5 d5",
	  "rnbqkbnr/ppp2ppp/4p3/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3" },
	/* en passant capture */
	{ 0, NULL, "e4 e6 e5 d5 exd6",
	  "rnbqkbnr/ppp2ppp/3Pp3/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3" },
	/* castling and the rights it ends */
	{ 0, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 5 20", "O-O",
	  "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 6 20" },
	{ 0, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 5 20", "O-O-O",
	  "2kr3r/8/8/8/8/8/8/R3K2R w KQ - 6 21" },
	/* a rook move ends its own right, a rook capture the other's */
	{ 0, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "Rxa8+",
	  "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1" },
	{ 0, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "Rh2",
	  "r3k2r/8/8/8/8/8/7R/R3K3 b Qkq - 1 1" },
	/* a king move ends both */
	{ 0, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "Kd1",
	  "r3k2r/8/8/8/8/8/8/R2K3R b kq - 1 1" },
	/* promotion with capture ends the right of the captured rook */
	{ 0, "r3k2r/1P6/8/8/8/8/8/4K3 w kq - 3 40", "bxa8=N",
	  "N3k2r/8/8/8/8/8/8/4K3 b k - 0 40" },
	/* a null move: the side changes, the clocks go on */
	{ 0, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 7 30", "--",
	  "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 8 31" },
	{ 0, NULL, "e4 --",
	  "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2" },
	/* Chess960: king g1 rook h1, castles with the king standing */
	{ CD_FEN_960, "4k3/8/8/8/8/8/8/R5KR w HA - 0 1", "O-O",
	  "4k3/8/8/8/8/8/8/R4RK1 b - - 1 1" },
	{ CD_FEN_960, "4k3/8/8/8/8/8/8/R5KR w HA - 0 1", "O-O-O",
	  "4k3/8/8/8/8/8/8/2KR3R b - - 1 1" },
	{ CD_FEN_960, "4k3/8/8/8/8/8/8/RK5R w HA - 0 1", "O-O-O",
	  "4k3/8/8/8/8/8/8/2KR3R b - - 1 1" },
};

START_TEST(test_make)
{
	const struct make_case *c = &make_cases[_i];
	cd_board b, p;
	unsigned flags = c->flags;

	if (c->start)
		tu_fen(&b, c->start, flags);
	else
		cd_board_init(&b);
	tu_play(&b, c->moves);
	ck_assert_str_eq(tu_fen_of(&b), c->fen);
	/* the key made move by move equals the key of the FEN read back */
	tu_fen(&p, c->fen, flags);
	ck_assert_uint_eq(b.key, p.key);
	ck_assert_int_eq(cd_board_ep_legal(&b), cd_board_ep_legal(&p));
}
END_TEST

START_TEST(test_move_helpers)
{
	cd_board b;
	cd_move m;
	char buf[8];

	tu_fen(&b, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQK2R w KQkq f6 0 3", 0);
	m = tu_uci(&b, "e5f6");
	ck_assert_int_eq(CD_MOVE_KIND(m), CD_MK_EP);
	ck_assert(cd_board_is_capture(&b, m));
	ck_assert_int_eq(cd_board_moving_type(&b, m), CD_PAWN);
	m = tu_uci(&b, "e1g1");
	ck_assert_int_eq(CD_MOVE_KIND(m), CD_MK_CASTLE);
	ck_assert_int_eq(CD_MOVE_TO(m), CD_H1);	/* king takes own rook */
	ck_assert(!cd_board_is_capture(&b, m));
	ck_assert_int_eq(cd_board_moving_type(&b, m), CD_KING);
	ck_assert(cd_castle_is_kingside(m));
	ck_assert_int_eq(cd_castle_king_to(m), CD_SQ(6, 0));
	ck_assert_int_eq(cd_castle_rook_to(m), CD_SQ(5, 0));
	m = tu_uci(&b, "e5e6");
	ck_assert(!cd_board_is_capture(&b, m));
	ck_assert(!cd_board_is_capture(&b, CD_MOVE_NULL));
	ck_assert_int_eq(cd_board_moving_type(&b, CD_MOVE_NULL), CD_NO_TYPE);
	ck_assert_uint_eq(cd_move_to_uci(&b, CD_MOVE_NULL, buf), 4);
	ck_assert_str_eq(buf, "0000");
	tu_fen(&b, "r3k2r/1P6/8/8/8/8/8/4K3 w kq - 0 1", 0);
	m = tu_uci(&b, "b7a8n");
	ck_assert(CD_MOVE_IS_PROMO(m));
	ck_assert_int_eq(CD_MOVE_PROMO_TYPE(m), CD_KNIGHT);
	ck_assert(cd_board_is_capture(&b, m));
	ck_assert_uint_eq(cd_move_to_uci(&b, m, buf), 5);
	ck_assert_str_eq(buf, "b7a8n");
	m = tu_uci(&b, "b7b8q");
	ck_assert_int_eq(CD_MOVE_PROMO_TYPE(m), CD_QUEEN);
	ck_assert(!cd_board_is_capture(&b, m));
	/* black castling queenside, standard: king two squares */
	tu_fen(&b, "r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1", 0);
	m = tu_uci(&b, "e8c8");
	ck_assert_int_eq(CD_MOVE_TO(m), CD_A8);
	ck_assert(!cd_castle_is_kingside(m));
	ck_assert_int_eq(cd_castle_king_to(m), CD_SQ(2, 7));
	ck_assert_int_eq(cd_castle_rook_to(m), CD_SQ(3, 7));
	/* Chess960: king to rook */
	tu_fen(&b, "4k3/8/8/8/8/8/8/R5KR w HA - 0 1", CD_FEN_960);
	m = tu_uci(&b, "g1h1");
	ck_assert_int_eq(CD_MOVE_KIND(m), CD_MK_CASTLE);
	ck_assert_int_eq(cd_castle_king_to(m), CD_SQ(6, 0));
	m = tu_uci(&b, "g1a1");
	ck_assert_int_eq(CD_MOVE_KIND(m), CD_MK_CASTLE);
	ck_assert(!cd_castle_is_kingside(m));
	ck_assert_int_eq(cd_castle_king_to(m), CD_SQ(2, 0));
	ck_assert_int_eq(cd_castle_rook_to(m), CD_SQ(3, 0));
}
END_TEST

/* ---- Zobrist keys ---- */

static uint64_t
key_after(const char *start, const char *moves)
{
	cd_board b;

	if (start)
		tu_fen(&b, start, 0);
	else
		cd_board_init(&b);
	tu_play(&b, moves);
	return b.key;
}

static uint64_t
key_of(const char *fen, unsigned flags)
{
	cd_board b;

	tu_fen(&b, fen, flags);
	return b.key;
}

START_TEST(test_zobrist_transpositions)
{
	cd_board a, b;

	/* the same position by different move orders */
	ck_assert_uint_eq(key_after(NULL, "e4 e5 Nf3 Nc6"),
	    key_after(NULL, "Nf3 Nc6 e4 e5"));
	ck_assert_uint_eq(key_after(NULL, "d4 Nf6 c4 e6 Nc3 Bb4"),
	    key_after(NULL, "c4 e6 Nc3 Nf6 d4 Bb4"));
	/* the second order ends with a double push: the FEN keeps its
	 * en passant square, the key does not (no capture is possible) */
	cd_board_init(&a);
	tu_play(&a, "e4 e5 Nf3 Nc6");
	cd_board_init(&b);
	tu_play(&b, "Nf3 Nc6 e4 e5");
	ck_assert_str_eq(tu_fen_of(&b),
	    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq e6 0 3");
	ck_assert_int_eq(b.ep, CD_SQ(4, 5));
	ck_assert(!cd_board_ep_legal(&b));
	ck_assert_uint_eq(a.key, b.key);
	/* knights out and back: the start position again */
	ck_assert_uint_eq(key_after(NULL, "Nf3 Nf6 Ng1 Ng8"), key_after(NULL, ""));
	/* but not with the other side to move */
	ck_assert_uint_ne(key_after(NULL, "Nf3 Nf6 Ng1"), key_after(NULL, "Nf3"));
	/* castling rights are in the key */
	ck_assert_uint_ne(key_after(NULL, "e4 e5 Ke2 Ke7 Ke1 Ke8"),
	    key_after(NULL, "e4 e5"));
	ck_assert_uint_ne(key_of("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 0),
	    key_of("r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1", 0));
	ck_assert_uint_ne(key_of("r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1", 0),
	    key_of("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", 0));
	/* the clocks are not */
	ck_assert_uint_eq(key_of("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0),
	    key_of("4k3/8/8/8/8/8/8/4K3 w - - 37 80", 0));
}
END_TEST

START_TEST(test_zobrist_ep)
{
	cd_board b;

	/* a capture is possible: the square is in the key */
	tu_fen(&b, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0);
	ck_assert(cd_board_ep_legal(&b));
	ck_assert_uint_ne(b.key,
	    key_of("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3", 0));
	/* and the same by moves */
	ck_assert_uint_eq(b.key, key_after(NULL, "e4 Nf6 e5 Ng8 Nf3 d5 Ng1 f5"));
	/* no pawn to take it: not in the key */
	ck_assert_uint_eq(
	    key_of("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0),
	    key_of("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", 0));
	/* a pawn that could take but may not (the rank would open to its
	 * king): not in the key */
	tu_fen(&b, "8/8/8/KPp3r1/8/8/8/4k3 w - c6 0 1", 0);
	ck_assert(!cd_board_ep_legal(&b));
	ck_assert_uint_eq(b.key, key_of("8/8/8/KPp3r1/8/8/8/4k3 w - - 0 1", 0));
	/* the same position made by the double push */
	ck_assert_uint_eq(b.key,
	    key_after("8/2p5/8/KP4r1/8/8/8/4k3 b - - 0 1", "c5"));
	/* a legal capture in the same shape: in the key */
	tu_fen(&b, "8/8/8/1Pp3r1/8/8/8/K3k3 w - c6 0 1", 0);
	ck_assert(cd_board_ep_legal(&b));
	ck_assert_uint_eq(b.key,
	    key_after("8/2p5/8/1P4r1/8/8/8/K3k3 b - - 0 1", "c5"));
	ck_assert_uint_ne(b.key, key_of("8/8/8/1Pp3r1/8/8/8/K3k3 w - - 0 1", 0));
	/* a pawn on the square beside but in check from elsewhere: the
	 * capture does not answer the check, so it is not in the key */
	tu_fen(&b, "8/8/8/k7/3Pp3/8/8/4B1K1 b - d3 0 1", 0);
	ck_assert(!cd_board_ep_legal(&b));
}
END_TEST

/* Random games from the mixed positions: after every move the key made
 * incrementally equals the key of the position read back from its FEN
 * (which is computed from scratch), the FEN round-trips, and every SAN
 * reads back strictly as the same move. */
START_TEST(test_random_games)
{
	int game, ply;

	for (game = 0; game < 40; game++) {
		cd_board b, p;
		unsigned flags = mixed[game % 14].flags & CD_FEN_960;

		tu_fen(&b, mixed[game % 14].fen, mixed[game % 14].flags);
		for (ply = 0; ply < 120; ply++) {
			cd_move list[CD_MAX_MOVES], m, back;
			char fen[CD_FEN_MAX], san[CD_SAN_MAX];
			cd_error err;
			int n = cd_board_legal_moves(&b, list), i;

			for (i = 0; i < n; i++) {
				cd_san_write(&b, list[i], san);
				ck_assert_msg(cd_san_parse(&b, san, strlen(san), NULL,
				    CD_SAN_STRICT, &back, &err) == CD_OK &&
				    back == list[i], "%s: %s does not read back: %s",
				    tu_fen_of(&b), san,
				    err.msg[0] ? err.msg : "another move");
			}
			if (n == 0)
				break;
			m = list[tu_rand() % (unsigned)n];
			cd_board_make(&b, m);
			cd_fen_write(&b, fen);
			tu_fen(&p, fen, flags | CD_FEN_NO_VALIDATE);
			ck_assert_str_eq(tu_fen_of(&p), fen);
			ck_assert_msg(b.key == p.key, "key differs after %s", fen);
			ck_assert_int_eq(cd_board_ep_legal(&b), cd_board_ep_legal(&p));
			/* every field, bitboards included (normal moves
			 * take a path of their own in cd_board_make) */
			ck_assert_msg(memcmp(&b, &p, sizeof(b)) == 0,
			    "board differs from its FEN after %s", fen);
			ck_assert_int_eq(cd_board_validate(&b), CD_POS_OK);
		}
	}
}
END_TEST

/* Random games played into a game (cd_game_add_move): every move's
 * check or mate mark agrees with the legal moves of the position after
 * it, the positions in check that no king step answers (a piece must
 * take the checker or step between, or it is mate) included, of which
 * the games hold enough to tell. */
START_TEST(test_random_game_marks)
{
	int game, ply, no_step = 0, mates = 0;
	cd_game *g = cd_game_new();

	ck_assert_ptr_nonnull(g);
	for (game = 0; game < 2000; game++) {
		cd_board b;

		tu_fen(&b, mixed[game % 14].fen, mixed[game % 14].flags);
		cd_game_clear(g);
		ck_assert_int_eq(cd_game_set_start(g, &b), CD_OK);
		for (ply = 0; ply < 160; ply++) {
			cd_move list[CD_MAX_MOVES];
			const cd_board *a;
			const cd_game_node *nd;
			uint32_t node;
			int n = cd_board_legal_moves(cd_game_board(g), list), i;
			int ksq;
			bool step = false;

			if (n == 0)
				break;
			ck_assert_int_eq(cd_game_add_move(g,
			    list[tu_rand() % (unsigned)n], &node), CD_OK);
			a = cd_game_board(g);
			nd = &g->nodes[node];
			n = cd_board_legal_moves(a, list);
			ck_assert_msg(!!(nd->flags & CD_NODE_MATE) ==
			    (cd_board_in_check(a) && n == 0) &&
			    !!(nd->flags & CD_NODE_CHECK) ==
			    (cd_board_in_check(a) && n > 0),
			    "%s: mark %s", tu_fen_of(a), nd->san);
			if (!cd_board_in_check(a))
				continue;
			ksq = cd_board_king(a, a->side);
			for (i = 0; i < n; i++)
				step |= CD_MOVE_FROM(list[i]) == ksq;
			no_step += !step;
			mates += n == 0;
		}
	}
	cd_game_free(g);
	ck_assert_int_gt(no_step - mates, 200);
	ck_assert_int_gt(mates, 10);
}
END_TEST

/* Moves whose check only one answer meets (a double step between, a
 * pawn that takes the checker), and a mate, marked as such. */
START_TEST(test_check_answers)
{
	static const struct {
		const char *fen;
		int from, to;
		const char *san;
	} cases[] = {
		/* Ka4 in check on the fourth rank: only d2-d4 */
		{ "1r5k/8/2n5/7r/K7/8/3P4/1n6 b - - 0 1", CD_SQ(7, 4),
		    CD_SQ(7, 3), "Rh4+" },
		/* the same with the d-pawn blocked: mate */
		{ "1r5k/8/2n5/7r/K7/3p4/3P4/1n6 b - - 0 1", CD_SQ(7, 4),
		    CD_SQ(7, 3), "Rh4#" },
		/* Kh1 checked by a knight that only the h-pawn takes */
		{ "6k1/8/8/2b5/4n3/8/6PP/7K b - - 0 1", CD_SQ(4, 3),
		    CD_SQ(6, 2), "Ng3+" },
		/* the back rank: mate, the knight that takes the rook,
		 * the bishop that steps between */
		{ "4r1k1/8/8/8/8/8/5PPP/6K1 b - - 0 1", CD_SQ(4, 7),
		    CD_SQ(4, 0), "Re1#" },
		{ "4r1k1/8/8/8/8/8/2N2PPP/6K1 b - - 0 1", CD_SQ(4, 7),
		    CD_SQ(4, 0), "Re1+" },
		{ "4r1k1/8/8/8/8/3B4/5PPP/6K1 b - - 0 1", CD_SQ(4, 7),
		    CD_SQ(4, 0), "Re1+" },
	};
	cd_game *g = cd_game_new();
	size_t i;

	ck_assert_ptr_nonnull(g);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cd_board b;
		uint32_t node;

		tu_fen(&b, cases[i].fen, 0);
		cd_game_clear(g);
		ck_assert_int_eq(cd_game_set_start(g, &b), CD_OK);
		ck_assert_int_eq(cd_game_add_move(g, CD_MOVE(cases[i].from,
		    cases[i].to, CD_MK_NORMAL), &node), CD_OK);
		ck_assert_str_eq(g->nodes[node].san, cases[i].san);
	}
	cd_game_free(g);
}
END_TEST

/* ---- the state of a game ---- */

static const struct {
	const char *fen;
	bool dead;
} material[] = {
	{ "4k3/8/8/8/8/8/8/4K3 w - - 0 1", true },	/* K v K */
	{ "4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true },	/* K+N v K */
	{ "4k3/8/8/8/8/8/8/4KB2 w - - 0 1", true },	/* K+B v K */
	{ "4kn2/8/8/8/8/8/8/4K3 w - - 0 1", true },	/* K v K+N */
	{ "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true },	/* K+B v K+B, dark */
	{ "4k3/8/8/3b4/8/8/8/4KB2 w - - 0 1", true },	/* K+B v K+B, light */
	{ "2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", false },	/* opposite colours */
	{ "4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", false },	/* K+N+N v K */
	{ "4k3/8/8/8/8/8/8/3BKN2 w - - 0 1", false },	/* K+B+N v K */
	{ "4kn2/8/8/8/8/8/8/4KN2 w - - 0 1", false },	/* K+N v K+N */
	{ "4kn2/8/8/8/8/8/8/4KB2 w - - 0 1", false },	/* K+B v K+N */
	{ "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false },	/* a pawn */
	{ "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false },	/* a rook */
	{ "3qk3/8/8/8/8/8/8/4K3 w - - 0 1", false },	/* a queen */
	{ "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", false },	/* two bishops */
	{ "4k3/8/8/8/5B2/8/8/2B1K3 w - - 0 1", true },	/* both on dark */
};

START_TEST(test_insufficient)
{
	cd_board b;

	tu_fen(&b, material[_i].fen, 0);
	ck_assert_msg(cd_board_insufficient_material(&b) == material[_i].dead,
	    "%s: dead %d", material[_i].fen, !material[_i].dead);
	ck_assert_uint_eq(cd_board_endings(&b, NULL),
	    material[_i].dead ? CD_END_DEAD : 0);
}
END_TEST

START_TEST(test_mate_stalemate)
{
	cd_board b;

	/* fool's mate */
	cd_board_init(&b);
	tu_play(&b, "f3 e5 g4 Qh4#");
	ck_assert(cd_board_is_checkmate(&b));
	ck_assert(!cd_board_is_stalemate(&b));
	ck_assert_uint_eq(cd_board_endings(&b, NULL), CD_END_CHECKMATE);
	/* stalemate */
	tu_fen(&b, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 0);
	ck_assert(cd_board_is_stalemate(&b));
	ck_assert(!cd_board_is_checkmate(&b));
	ck_assert_uint_eq(cd_board_endings(&b, NULL), CD_END_STALEMATE);
	/* check that is not mate */
	tu_fen(&b, "7k/8/6K1/8/8/8/8/7Q b - - 0 1", 0);
	ck_assert(cd_board_in_check(&b));
	ck_assert(!cd_board_is_checkmate(&b));
	ck_assert(!cd_board_is_stalemate(&b));
	ck_assert_uint_eq(cd_board_endings(&b, NULL), 0);
	/* mate by a lone knight's side is still mate (smothered) */
	tu_fen(&b, "6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1", 0);
	ck_assert(cd_board_is_checkmate(&b));
	/* on the 150th ply without capture: a check is a draw, a mate
	 * wins */
	tu_fen(&b, "7k/8/6K1/8/8/8/8/7R b - - 150 100", 0);
	ck_assert(!cd_board_is_checkmate(&b));
	ck_assert_uint_eq(cd_ending_first(cd_board_endings(&b, NULL)),
	    CD_END_SEVENTYFIVE);
	tu_fen(&b, "R6k/8/6K1/8/8/8/8/8 b - - 150 100", 0);
	ck_assert(cd_board_is_checkmate(&b));
	ck_assert_uint_eq(cd_board_endings(&b, NULL), CD_END_CHECKMATE);
}
END_TEST

START_TEST(test_move_rules)
{
	cd_board b;
	cd_history h;

	cd_history_init(&h);
	/* fifty moves: a claim, not yet automatic */
	tu_fen(&b, "4k3/8/8/8/8/8/8/R3K3 w - - 99 80", 0);
	ck_assert_uint_eq(cd_board_endings(&b, NULL), 0);
	tu_play(&b, "Ra2");
	ck_assert_uint_eq(b.halfmove, 100);
	ck_assert_uint_eq(cd_board_endings(&b, NULL), CD_END_FIFTY);
	/* seventy-five moves: automatic */
	tu_fen(&b, "4k3/8/8/8/8/8/8/R3K3 w - - 149 100", 0);
	ck_assert_uint_eq(cd_board_endings(&b, NULL) & CD_END_AUTOMATIC, 0);
	tu_play(&b, "Ra2");
	ck_assert_uint_eq(cd_board_endings(&b, NULL),
	    CD_END_SEVENTYFIVE | CD_END_FIFTY);
	ck_assert_uint_eq(cd_board_endings(&b, &h),
	    CD_END_SEVENTYFIVE | CD_END_FIFTY);
	/* a pawn move resets the count */
	tu_fen(&b, "4k3/8/8/8/8/8/4P3/R3K3 w - - 149 100", 0);
	tu_play(&b, "e3");
	ck_assert_uint_eq(b.halfmove, 0);
	ck_assert_uint_eq(cd_board_endings(&b, NULL), 0);
	cd_history_free(&h);
	cd_history_free(NULL);
}
END_TEST

static void
push_play(cd_board *b, cd_history *h, const char *moves)
{
	const char *p = moves;

	while (*p) {
		size_t n = strcspn(p, " ");
		char one[16];

		ck_assert_uint_lt(n, sizeof(one));
		memcpy(one, p, n);
		one[n] = '\0';
		tu_play(b, one);
		ck_assert_int_eq(cd_history_push(h, b), CD_OK);
		p += n;
		while (*p == ' ')
			p++;
	}
}

START_TEST(test_repetition)
{
	cd_board b;
	cd_history h;
	const char *cycle = "Nf3 Nf6 Ng1 Ng8";

	cd_history_init(&h);
	cd_board_init(&b);
	ck_assert_int_eq(cd_history_push(&h, &b), CD_OK);
	ck_assert_int_eq(cd_history_repetitions(&h, &b), 1);
	push_play(&b, &h, cycle);
	ck_assert_int_eq(cd_history_repetitions(&h, &b), 2);
	ck_assert_uint_eq(cd_board_endings(&b, &h), 0);
	push_play(&b, &h, cycle);
	ck_assert_int_eq(cd_history_repetitions(&h, &b), 3);
	ck_assert_uint_eq(cd_board_endings(&b, &h), CD_END_THREEFOLD);
	push_play(&b, &h, "Nf3 Nf6 Ng1");
	ck_assert_int_eq(cd_history_repetitions(&h, &b), 3);	/* after Ng1 */
	push_play(&b, &h, "Ng8");
	ck_assert_int_eq(cd_history_repetitions(&h, &b), 4);
	ck_assert_uint_eq(cd_board_endings(&b, &h), CD_END_THREEFOLD);
	push_play(&b, &h, cycle);
	ck_assert_int_eq(cd_history_repetitions(&h, &b), 5);
	ck_assert_uint_eq(cd_board_endings(&b, &h),
	    CD_END_FIVEFOLD | CD_END_THREEFOLD);
	ck_assert_uint_eq(cd_board_endings(&b, NULL), 0);
	/* an irreversible move starts over */
	push_play(&b, &h, "e4");
	ck_assert_int_eq(cd_history_repetitions(&h, &b), 1);
	push_play(&b, &h, "Nf6 Nf3 Ng8 Ng1 Nf6 Nf3 Ng8 Ng1");
	/* after 1.e4 the position with Black to move: here the third time
	 * (the ep square of e3 is no part of it) */
	ck_assert_int_eq(cd_history_repetitions(&h, &b), 3);
	ck_assert_uint_eq(cd_board_endings(&b, &h), CD_END_THREEFOLD);
	cd_history_free(&h);
	ck_assert_ptr_null(h.keys);

	/* a position repeated with other castling rights is another
	 * position */
	cd_history_init(&h);
	tu_fen(&b, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 0);
	cd_history_push(&h, &b);
	push_play(&b, &h, "Ke2 Ke7 Ke1 Ke8 Ke2 Ke7 Ke1 Ke8");
	ck_assert_int_eq(cd_history_repetitions(&h, &b), 2);
	push_play(&b, &h, "Ke2 Ke7 Ke1 Ke8");
	ck_assert_int_eq(cd_history_repetitions(&h, &b), 3);
	cd_history_free(&h);
}
END_TEST

static Suite *
board_suite(void)
{
	Suite *s = suite_create("board");
	TCase *tc;

	tc = tcase_create("value");
	tcase_add_test(tc, test_init);
	tcase_add_test(tc, test_clear);
	tcase_add_test(tc, test_put_remove);
	suite_add_tcase(s, tc);

	tc = tcase_create("attacks");
	tcase_add_test(tc, test_attacks_fixed);
	tcase_add_test(tc, test_attacks_exhaustive);
	tcase_add_test(tc, test_attackers);
	suite_add_tcase(s, tc);

	tc = tcase_create("movegen");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_movegen_cases, 0,
	    (int)(sizeof(mg_cases) / sizeof(mg_cases[0])));
	tcase_add_loop_test(tc, test_is_legal_exhaustive, 0,
	    (int)(sizeof(mixed) / sizeof(mixed[0])));
	tcase_add_loop_test(tc, test_legal_moves_to, 0,
	    (int)(sizeof(mixed) / sizeof(mixed[0])));
	tcase_add_test(tc, test_bad_ep_square);
	suite_add_tcase(s, tc);

	tc = tcase_create("make");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_make, 0,
	    (int)(sizeof(make_cases) / sizeof(make_cases[0])));
	tcase_add_test(tc, test_move_helpers);
	tcase_add_test(tc, test_zobrist_transpositions);
	tcase_add_test(tc, test_zobrist_ep);
	tcase_add_test(tc, test_random_games);
	tcase_add_test(tc, test_random_game_marks);
	tcase_add_test(tc, test_check_answers);
	suite_add_tcase(s, tc);

	tc = tcase_create("state");
	tcase_add_loop_test(tc, test_insufficient, 0,
	    (int)(sizeof(material) / sizeof(material[0])));
	tcase_add_test(tc, test_mate_stalemate);
	tcase_add_test(tc, test_move_rules);
	tcase_add_test(tc, test_repetition);
	suite_add_tcase(s, tc);
	return s;
}

TU_SUITES(board_suite);
