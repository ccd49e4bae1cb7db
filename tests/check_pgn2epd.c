/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_pgn2epd.c: pgn2epd's own ways of doing what the library does,
 * against the library.
 *
 * make_unkeyed (a move made for the EPD fields alone, with no Zobrist
 * key) against cd_board_make on random games from positions with
 * castling rights, en passant squares, promotions and Chess960 rights:
 * after every move the boards are the same but for the key, and so is
 * their EPD.
 */
int pgn2epd_main(int argc, char **argv);
#define main pgn2epd_main
#include "../src/pgn2epd.c"
#undef main

#include "core-util.h"

static const struct {
	const char *fen;
	unsigned flags;
} starts[] = {
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0 },
	{ "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 0 },
	{ "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 0 },
	{ "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 0 },
	{ "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 0 },
	{ "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0 },
	{ "8/8/8/KPp3r1/8/8/8/4k3 w - c6 0 1", 0 },
	{ "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", 0 },
	{ "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", 0 },
	{ "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", CD_FEN_960 },
	{ "4k3/8/8/8/8/8/8/rRK5 w B - 0 1", CD_FEN_960 },
	{ "1r2k3/8/8/8/8/8/8/RK6 w A - 0 1", CD_FEN_960 },
	{ "rk2r3/8/8/8/8/8/8/RK2R3 w AEae - 0 1", CD_FEN_960 },
};
#define N_STARTS	(sizeof(starts) / sizeof(starts[0]))

/* Whether two boards are the same but for the key. */
static bool
same_but_key(const cd_board *a, const cd_board *b)
{
	return memcmp(a->by_type, b->by_type, sizeof(a->by_type)) == 0 &&
	    memcmp(a->by_color, b->by_color, sizeof(a->by_color)) == 0 &&
	    memcmp(a->squares, b->squares, sizeof(a->squares)) == 0 &&
	    a->side == b->side && a->ep == b->ep &&
	    memcmp(a->castle_rook, b->castle_rook,
	    sizeof(a->castle_rook)) == 0 &&
	    a->chess960 == b->chess960 && a->halfmove == b->halfmove &&
	    a->fullmove == b->fullmove;
}

START_TEST(test_make_unkeyed)
{
	int game, ply;

	for (game = 0; game < 400; game++) {
		cd_board b, u;

		tu_fen(&b, starts[game % N_STARTS].fen,
		    starts[game % N_STARTS].flags);
		u = b;
		for (ply = 0; ply < 200; ply++) {
			cd_move list[CD_MAX_MOVES], m;
			char want[CD_FEN_MAX], got[CD_FEN_MAX];
			int n = cd_board_legal_moves(&b, list);

			if (n == 0)
				break;
			/* now and then a null move, which pgn2epd makes too */
			if (tu_rand() % 16 == 0 && !cd_board_in_check(&b))
				m = CD_MOVE_NULL;
			else
				m = list[tu_rand() % (unsigned)n];
			cd_fen_write(&b, want);
			cd_board_make(&b, m);
			make_unkeyed(&u, m);
			ck_assert_msg(same_but_key(&b, &u),
			    "%s: move %04x: the boards differ", want,
			    (unsigned)m);
			ck_assert_uint_eq(u.ep_hashed, 0);
			ck_assert_uint_eq(cd_fen_write_epd(&b, want),
			    cd_fen_write_epd(&u, got));
			ck_assert_str_eq(got, want);
		}
	}
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("pgn2epd");
	TCase *tc = tcase_create("make");

	tcase_add_test(tc, test_make_unkeyed);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(suite());
}
