/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_pgc.c: PGC move ordinals against real sorted SAN strings on
 * every position of perft trees, the standard's own example.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chessdata.h"

/* ---- move ordinals ---- */

/* Positions whose trees are walked: the usual perft suite, positions
 * rich in disambiguation, promotions, castling with check, and
 * Chess960 castling. */
static const struct tree {
	const char *fen;
	int depth;
	unsigned flags;
} trees[] = {
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 3, 0 },
	/* kiwipete */
	{ "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - "
	  "0 1", 2, 0 },
	{ "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 3, 0 },
	{ "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	  2, 0 },
	{ "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 2, 0 },
	{ "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - "
	  "- 0 10", 2, 0 },
	/* the 218-move position: five queens, two rooks */
	{ "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1", 1, 0 },
	/* three knights and three rooks to one square: file, rank and
	 * square disambiguation */
	{ "4k3/8/8/1N6/7R/1N3N2/R6R/4K3 w - - 0 1", 2, 0 },
	{ "1k6/8/2Q1Q3/8/2Q1Q3/8/8/4K3 w - - 0 1", 2, 0 },
	/* promotions with captures and checks on both sides */
	{ "r1n1k2r/1P4P1/8/8/8/8/1p4p1/R1N1K2R w KQkq - 0 1", 2, 0 },
	{ "4k3/1P6/8/8/8/8/6p1/4K2R b K - 0 1", 3, 0 },
	/* castling that gives check or mate */
	{ "5k2/8/8/8/8/8/8/R3K2R w KQ - 0 1", 2, 0 },
	{ "3k4/8/8/8/8/8/8/R3K2R w KQ - 0 1", 2, 0 },
	{ "r3k1r1/8/8/8/8/8/8/R3K2R w KQq - 0 1", 2, 0 },
	/* en passant, including a discovered check */
	{ "8/8/8/2k5/3Pp3/8/8/4K2R b K d3 0 1", 3, 0 },
	{ "4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 1", 2, 0 },
	/* Chess960: king on b1 and rooks a1/h1; king and rook adjacent */
	{ "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAgb - 0 1", 2,
	  CD_FEN_960 },
	{ "nrkbbqnr/pppppppp/8/8/8/8/PPPPPPPP/NRK1BQ1R w HBhb - 0 1", 2,
	  CD_FEN_960 },
	{ "5rk1/8/8/8/8/8/8/5RKR w HF - 0 1", 2, CD_FEN_960 },
};

static int
cmp_str(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/*
 * Check one position: the ordinal order equals the sorted strings, and
 * the keys order every pair as strcmp does.  (Plain tests with one
 * ck_abort_msg: a Check assertion per comparison would cost more than
 * the comparisons.)
 */
static unsigned long
check_position(const cd_board *b)
{
	cd_move moves[CD_MAX_MOVES], sorted[CD_MAX_MOVES];
	uint64_t keys[CD_MAX_MOVES];
	char san[CD_MAX_MOVES][CD_SAN_MAX], each[CD_MAX_MOVES][CD_SAN_MAX];
	char got[CD_SAN_MAX], fen[CD_FEN_MAX];
	int n, m, i, j;

	n = cd_board_legal_moves(b, moves);
	for (i = 0; i < n; i++) {
		cd_san_write(b, moves[i], each[i]);
		memcpy(san[i], each[i], CD_SAN_MAX);
	}
	qsort(san, (size_t)n, sizeof(san[0]), cmp_str);
	m = cd_pgc_sorted_moves(b, sorted);
	cd_fen_write(b, fen);
	if (m != n)
		ck_abort_msg("%s: %d sorted moves, %d legal", fen, m, n);
	for (i = 0; i < n; i++) {
		cd_san_write(b, sorted[i], got);
		if (strcmp(got, san[i]) != 0)
			ck_abort_msg("%s: ordinal %d is %s, sorted SAN has %s",
			    fen, i, got, san[i]);
		if (cd_pgc_ordinal(b, sorted[i]) != i ||
		    cd_pgc_move(b, (unsigned)i) != sorted[i])
			ck_abort_msg("%s: %s does not round trip", fen, got);
	}
	if (cd_pgc_move(b, (unsigned)n) != CD_MOVE_NONE ||
	    cd_pgc_move(b, 255) != CD_MOVE_NONE)
		ck_abort_msg("%s: an ordinal beyond the moves gives a move",
		    fen);
	cd_pgc_keys(b, moves, n, keys);
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (keys[i] == keys[j] ||
			    (strcmp(each[i], each[j]) < 0) !=
			    (keys[i] < keys[j]))
				ck_abort_msg("%s: keys of %s and %s", fen,
				    each[i], each[j]);
	return 1;
}

static unsigned long
walk(const cd_board *b, int depth)
{
	cd_move moves[CD_MAX_MOVES];
	unsigned long count = check_position(b);
	int n, i;

	if (depth == 0)
		return count;
	n = cd_board_legal_moves(b, moves);
	for (i = 0; i < n; i++) {
		cd_board c = *b;

		cd_board_make(&c, moves[i]);
		count += walk(&c, depth - 1);
	}
	return count;
}

START_TEST(test_trees)
{
	const struct tree *t = &trees[_i];
	cd_board b;
	cd_status st;
	unsigned long count;

	st = cd_fen_parse(&b, t->fen, strlen(t->fen), t->flags, NULL, NULL);
	ck_assert_int_eq(st, CD_OK);
	count = walk(&b, t->depth);
	ck_assert_uint_gt(count, 0);
}
END_TEST

/* Standard 20.2: Na3 = 0, Nc3 = 1, a3 = 4, h4 = 19 of twenty moves. */
START_TEST(test_standard_example)
{
	static const char *const order[20] = {
		"Na3", "Nc3", "Nf3", "Nh3", "a3", "a4", "b3", "b4", "c3", "c4",
		"d3", "d4", "e3", "e4", "f3", "f4", "g3", "g4", "h3", "h4"
	};
	cd_board b;
	cd_move sorted[CD_MAX_MOVES], m;
	char san[CD_SAN_MAX];
	int i, n;

	cd_board_init(&b);
	n = cd_pgc_sorted_moves(&b, sorted);
	ck_assert_int_eq(n, 20);
	for (i = 0; i < n; i++) {
		cd_san_write(&b, sorted[i], san);
		ck_assert_str_eq(san, order[i]);
	}
	ck_assert_uint_eq(cd_pgc_move(&b, 0), CD_MOVE(CD_B1, CD_A1 + 16, 0));
	ck_assert_uint_eq(cd_pgc_move(&b, 1), CD_MOVE(CD_B1, CD_C1 + 16, 0));
	ck_assert_uint_eq(cd_pgc_move(&b, 4), CD_MOVE(CD_A1 + 8, CD_A1 + 16, 0));
	ck_assert_uint_eq(cd_pgc_move(&b, 19), CD_MOVE(CD_H1 + 8, CD_H1 + 24,
	    0));
	m = CD_MOVE(CD_H1 + 8, CD_H1 + 24, 0);
	ck_assert_int_eq(cd_pgc_ordinal(&b, m), 19);
	ck_assert_uint_eq(cd_pgc_move(&b, 20), CD_MOVE_NONE);
}
END_TEST

/* Moves that are not legal have no ordinal. */
START_TEST(test_not_legal)
{
	cd_board b;

	cd_board_init(&b);
	ck_assert_int_eq(cd_pgc_ordinal(&b, CD_MOVE_NULL), -1);
	ck_assert_int_eq(cd_pgc_ordinal(&b, CD_MOVE_NONE), -1);
	ck_assert_int_eq(cd_pgc_ordinal(&b,
	    CD_MOVE(CD_E1 + 8, CD_E1 + 32, 0)), -1);
	ck_assert_int_eq(cd_pgc_ordinal(&b, 0xffff), -1);
}
END_TEST

/* Checkmate and stalemate: no moves, no ordinal is valid. */
START_TEST(test_no_moves)
{
	static const char mate[] =
	    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
	cd_board b;
	cd_move out[CD_MAX_MOVES];

	ck_assert_int_eq(cd_fen_parse(&b, mate, strlen(mate), 0, NULL, NULL),
	    CD_OK);
	ck_assert_int_eq(cd_pgc_sorted_moves(&b, out), 0);
	ck_assert_uint_eq(cd_pgc_move(&b, 0), CD_MOVE_NONE);
}
END_TEST

static Suite *
pgc_suite(void)
{
	Suite *s = suite_create("pgc");
	TCase *tc = tcase_create("ordinals");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_trees, 0,
	    (int)(sizeof(trees) / sizeof(trees[0])));
	tcase_add_test(tc, test_standard_example);
	tcase_add_test(tc, test_not_legal);
	tcase_add_test(tc, test_no_moves);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(pgc_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
