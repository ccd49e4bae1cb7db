/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_rules.c: the FIDE endings (chessdata/rules.h), one hand-made
 * game or position per rule: checkmate and stalemate alone, dead
 * positions by material, threefold with and without a legal en passant
 * capture, castling rights lost in between, fivefold, fifty and
 * seventy-five moves reached by the last move, and checkmate on the
 * 100th half-move winning over the fifty-move rule.  Each game is
 * checked through cd_game_endings and, ply by ply, through the running
 * tracker (which must first show the ending at the ply given).
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "chessdata.h"
#include "check-main.h"

#define KNIGHTS4 "Nf3 Nf6 Ng1 Ng8 "

struct game_case {
	const char *name;
	const char *pgn;
	unsigned want;		/* endings of the final position */
	unsigned watch;		/* a bit to watch ply by ply (0: none) */
	int first;		/* the ply where it first holds, -1 never */
};

static const struct game_case games[] = {
	{ "fool's mate", "1. f3 e5 2. g4 Qh4# 0-1",
	  CD_END_CHECKMATE, CD_END_CHECKMATE, 4 },
	{ "stalemate",
	  "[FEN \"7k/5Q2/6K1/8/8/8/8/8 w - - 0 1\"]\n\n1. Kh6 1/2-1/2",
	  CD_END_STALEMATE, 0, 0 },
	{ "start position", "*", 0, 0, 0 },
	{ "threefold, knights",
	  "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2",
	  CD_END_THREEFOLD, CD_END_THREEFOLD, 8 },
	{ "fivefold, knights",
	  KNIGHTS4 KNIGHTS4 KNIGHTS4 KNIGHTS4 "1/2-1/2",
	  CD_END_FIVEFOLD | CD_END_THREEFOLD, CD_END_FIVEFOLD, 16 },
	/* after 1. e4 the capture d4xe3 is legal: that first position
	 * differs from its later repetitions (plies 5, 9, 13); the
	 * positions after Ke7 (plies 2, 6, 10) make the first threefold,
	 * where ply 9 would if en passant did not count */
	{ "threefold, legal en passant not counted",
	  "[FEN \"4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1\"]\n\n"
	  "1. e4 Ke7 2. Kd1 Ke8 3. Ke1 Ke7 4. Kd1 Ke8 5. Ke1 *",
	  0, CD_END_THREEFOLD, -1 },
	{ "threefold, legal en passant, later",
	  "[FEN \"4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1\"]\n\n"
	  "1. e4 Ke7 2. Kd1 Ke8 3. Ke1 Ke7 4. Kd1 Ke8 5. Ke1 Ke7 6. Kd1 "
	  "Ke8 7. Ke1 *",
	  CD_END_THREEFOLD, CD_END_THREEFOLD, 10 },
	/* here d4xe3 would expose the king on a4 to the rook: not a
	 * legal capture, so the first position counts */
	{ "threefold, illegal en passant counted",
	  "[FEN \"8/8/8/8/k2p3R/8/4P3/4K3 w - - 0 1\"]\n\n"
	  "1. e4 Ka3 2. Kd1 Ka4 3. Ke1 Ka3 4. Kd1 Ka4 5. Ke1 *",
	  CD_END_THREEFOLD, CD_END_THREEFOLD, 9 },
	/* the kings' walks cost every castling right: the positions
	 * after Ke8 at plies 4 and 8 repeat the start without its rights,
	 * so the first threefold comes at ply 10 (the positions after
	 * Ke7), not at ply 8 */
	{ "threefold, castling rights lost",
	  "[FEN \"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"]\n\n"
	  "1. Ke2 Ke7 2. Ke1 Ke8 3. Ke2 Ke7 4. Ke1 Ke8 5. Ke2 Ke7 "
	  "6. Ke1 Ke8 *",
	  CD_END_THREEFOLD, CD_END_THREEFOLD, 10 },
	{ "threefold, no castling rights from the start",
	  "[FEN \"r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1\"]\n\n"
	  "1. Ke2 Ke7 2. Ke1 Ke8 3. Ke2 Ke7 4. Ke1 Ke8 *",
	  CD_END_THREEFOLD, CD_END_THREEFOLD, 8 },
	{ "fifty by the last move",
	  "[FEN \"k7/8/1K6/8/8/8/8/6R1 w - - 98 80\"]\n\n"
	  "80. Rg2 Kb8 81. Rg3 *",
	  CD_END_FIFTY, CD_END_FIFTY, 2 },
	{ "checkmate on the 100th half-move",
	  "[FEN \"k7/8/1K6/8/8/8/8/7R w - - 99 80\"]\n\n80. Rh8# 1-0",
	  CD_END_CHECKMATE, CD_END_FIFTY, -1 },
	{ "seventy-five by the last move",
	  "[FEN \"k7/8/1K6/8/8/8/8/6R1 w - - 148 100\"]\n\n"
	  "100. Rg2 Kb8 1/2-1/2",
	  CD_END_SEVENTYFIVE | CD_END_FIFTY, CD_END_SEVENTYFIVE, 2 },
	{ "checkmate on the 150th half-move",
	  "[FEN \"k7/8/1K6/8/8/8/8/7R w - - 149 80\"]\n\n80. Rh8# 1-0",
	  CD_END_CHECKMATE, CD_END_SEVENTYFIVE, -1 },
	{ "a capture resets the clock",
	  "[FEN \"k7/8/1K6/8/8/8/6r1/6R1 w - - 120 100\"]\n\n"
	  "100. Rxg2 *",
	  0, CD_END_FIFTY, 0 },
	{ "dead by capture",
	  "[FEN \"k7/8/2K5/8/8/8/7r/6B1 w - - 0 1\"]\n\n1. Bxh2 *",
	  CD_END_DEAD, CD_END_DEAD, 1 },
	{ "dead, then repeated",
	  "[FEN \"k7/8/1K6/8/8/8/8/8 w - - 0 1\"]\n\n"
	  "1. Kc6 Kb8 2. Kb6 Ka8 3. Kc6 Kb8 4. Kb6 Ka8 *",
	  CD_END_DEAD | CD_END_THREEFOLD, CD_END_THREEFOLD, 8 },
};

static cd_game *game;

static void
setup(void)
{
	game = cd_game_new();
	ck_assert_ptr_nonnull(game);
}

static void
teardown(void)
{
	cd_game_free(game);
	game = NULL;
}

START_TEST(test_games)
{
	const struct game_case *c = &games[_i];
	cd_error err;
	cd_rules r;
	cd_board b;
	uint32_t i;
	int first = -1;

	ck_assert_msg(cd_pgn_parse_text(game, c->pgn, strlen(c->pgn), NULL,
	    &err) == CD_OK, "%s: %s", c->name, err.msg);
	ck_assert_msg(cd_game_endings(game) == c->want,
	    "%s: endings %#x, want %#x", c->name, cd_game_endings(game),
	    c->want);
	/* the tracker agrees at the end and shows the watched bit first
	 * at the ply given */
	cd_rules_init(&r);
	b = game->start;
	ck_assert_int_eq(cd_rules_start(&r, &b), CD_OK);
	if (c->watch && (cd_rules_endings(&r) & c->watch))
		first = 0;
	for (i = game->nodes[0].next; i; i = game->nodes[i].next) {
		cd_board_make(&b, game->nodes[i].move);
		ck_assert_int_eq(cd_rules_push(&r, &b), CD_OK);
		if (c->watch && first < 0 &&
		    (cd_rules_endings(&r) & c->watch))
			first = (int)r.plies;
	}
	ck_assert_uint_eq(cd_rules_endings(&r), c->want);
	if (c->watch)
		ck_assert_msg(first == c->first, "%s: first at ply %d, "
		    "want %d", c->name, first, c->first);
	/* start again in the same tracker: nothing of the old line stays */
	ck_assert_int_eq(cd_rules_start(&r, &game->start), CD_OK);
	ck_assert_uint_eq(r.plies, 0);
	ck_assert_uint_eq(r.history.len, 1);
	cd_rules_free(&r);
}
END_TEST

/*
 * Both automatic draws by one move (FIDE 9.6): the rook's shuffle
 * repeats the start a fifth time with the 150th half-move.  The laws
 * list the fivefold (9.6.1) before the seventy-five moves (9.6.2) and
 * give no precedence between them; the library names the fivefold, in
 * the ending named (cd_ending_first), in the contradiction of a
 * decisive result, and ply by ply in the tracker.
 */
#define SHUFFLE "Nf3 Ra7 Ng1 Ra8 "

START_TEST(test_fivefold_seventyfive)
{
	const char *pgn = "[FEN \"r3k3/8/8/8/8/8/8/R3K1N1 w - - 134 90\"]"
	    "\n\n" SHUFFLE SHUFFLE SHUFFLE SHUFFLE "1-0";
	unsigned both = CD_END_FIVEFOLD | CD_END_SEVENTYFIVE, set;
	cd_board b;
	cd_rules r;
	uint32_t i;
	cd_error err;

	ck_assert_msg(cd_pgn_parse_text(game, pgn, strlen(pgn), NULL,
	    &err) == CD_OK, "%s", err.msg);
	set = cd_game_endings(game);
	ck_assert_uint_eq(set, both | CD_END_THREEFOLD | CD_END_FIFTY);
	ck_assert_uint_eq(cd_ending_first(set), CD_END_FIVEFOLD);
	ck_assert_str_eq(cd_ending_name(cd_ending_first(set)), "fivefold");
	cd_game_end_position(game, &b);
	ck_assert_uint_eq(b.halfmove, 150);
	ck_assert_str_eq(cd_result_contradiction(&b, set,
	    CD_PGN_RESULT_WHITE), "ends in a fivefold repetition");
	ck_assert_ptr_null(cd_result_contradiction(&b, set,
	    CD_PGN_RESULT_DRAW));
	/* neither automatic draw before the last move, both with it */
	cd_rules_init(&r);
	b = game->start;
	ck_assert_int_eq(cd_rules_start(&r, &b), CD_OK);
	for (i = game->nodes[0].next; i; i = game->nodes[i].next) {
		ck_assert_uint_eq(cd_rules_endings(&r) & both, 0);
		cd_board_make(&b, game->nodes[i].move);
		ck_assert_int_eq(cd_rules_push(&r, &b), CD_OK);
	}
	ck_assert_uint_eq(r.plies, 16);
	ck_assert_uint_eq(cd_rules_endings(&r), set);
	cd_rules_free(&r);
}
END_TEST

struct pos_case {
	const char *fen;
	unsigned want;
};

static const struct pos_case positions[] = {
	{ "4k3/8/8/8/8/8/8/4K3 w - - 0 1", CD_END_DEAD },
	{ "4k3/8/8/8/8/8/8/4KN2 w - - 0 1", CD_END_DEAD },
	{ "4k3/8/8/8/8/8/8/4KB2 b - - 0 1", CD_END_DEAD },
	{ "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", CD_END_DEAD },	/* f8 c1: dark */
	{ "4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", 0 },		/* g8 light */
	{ "4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", 0 },		/* K+N+N */
	{ "4kn2/8/8/8/8/8/8/4KN2 w - - 0 1", 0 },		/* K+N v K+N */
	{ "4kb2/8/8/8/8/8/8/4KN2 w - - 0 1", 0 },		/* K+N v K+B */
	{ "4k3/8/8/8/8/8/8/B1B1K3 w - - 0 1", CD_END_DEAD },	/* a1 c1 dark */
	{ "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", 0 },
	{ "4k3/8/8/8/8/8/8/4K2R w K - 100 60", CD_END_FIFTY },
	{ "4k3/8/8/8/8/8/8/4K2R w K - 99 60", 0 },
	{ "4k3/8/8/8/8/8/8/4K2R w K - 150 80",
	  CD_END_FIFTY | CD_END_SEVENTYFIVE },
	/* no legal move: the clocks do not matter */
	{ "7k/5Q2/6K1/8/8/8/8/8 b - - 120 90", CD_END_STALEMATE },
	{ "R6k/6pp/8/8/8/8/8/6K1 b - - 160 90", CD_END_CHECKMATE },
	/* stalemate with nothing but kings and a bishop: stalemate only */
	{ "k7/2K5/1B6/8/8/8/8/8 b - - 0 1", CD_END_STALEMATE },
};

/*
 * A win for a side that cannot mate (FIDE 6.9): wrong only when the
 * game was lost on time; a resignation wins in any position (5.1.2).
 * A dead position (5.2.2) makes every decisive result wrong.
 */
START_TEST(test_lone_king)
{
	static const struct {
		const char *term;	/* Termination, NULL: none */
		bool on_time;
	} terms[] = {
		{ NULL, false }, { "Normal", false },
		{ "Black won by resignation", false }, { "time forfeit", true },
		{ "Time forfeit", true }, { "Hikaru won on time", true },
		{ "Game drawn by timeout vs insufficient material", false },
		{ "time forfeits", false },
	};
	const char *why;
	char pgn[256];
	cd_board b;
	cd_error err;
	size_t i;

	for (i = 0; i < sizeof(terms) / sizeof(terms[0]); i++) {
		/* Black's lone king against White's rook, 0-1 */
		snprintf(pgn, sizeof(pgn), "[FEN \"k7/8/8/8/8/8/8/KR6 b - - 0 "
		    "1\"]\n%s%s%s\n1... Ka7 0-1", terms[i].term ?
		    "[Termination \"" : "", terms[i].term ? terms[i].term : "",
		    terms[i].term ? "\"]\n" : "");
		ck_assert_msg(cd_pgn_parse_text(game, pgn, strlen(pgn), NULL,
		    &err) == CD_OK, "%s", err.msg);
		ck_assert_msg(cd_game_lost_on_time(game) == terms[i].on_time,
		    "%s", terms[i].term ? terms[i].term : "(none)");
		cd_game_end_position(game, &b);
		why = cd_result_contradiction(&b, cd_game_endings(game) |
		    (cd_game_lost_on_time(game) ? CD_END_TIME_FORFEIT : 0),
		    CD_PGN_RESULT_BLACK);
		if (terms[i].on_time)
			ck_assert_str_eq(why,
			    "ends on time with Black unable to checkmate");
		else
			ck_assert_ptr_null(why);
		/* the rook's side may win on time */
		ck_assert_ptr_null(cd_result_contradiction(&b,
		    cd_game_endings(game) | CD_END_TIME_FORFEIT,
		    CD_PGN_RESULT_WHITE));
	}
	/* a dead position: a resignation after it changes nothing */
	ck_assert_int_eq(cd_fen_parse(&b, "k7/8/8/8/8/8/8/KB6 b - - 0 1",
	    28, 0, &err), CD_OK);
	ck_assert_str_eq(cd_result_contradiction(&b, cd_board_endings(&b,
	    NULL), CD_PGN_RESULT_WHITE), "ends in a dead position");
}
END_TEST

START_TEST(test_positions)
{
	const struct pos_case *c = &positions[_i];
	cd_board b;
	unsigned got;

	ck_assert_int_eq(cd_fen_parse(&b, c->fen, strlen(c->fen), 0, NULL),
	    CD_OK);
	got = cd_board_endings(&b, NULL);
	ck_assert_msg(got == c->want, "%s: %#x, want %#x", c->fen, got,
	    c->want);
}
END_TEST

START_TEST(test_names)
{
	unsigned bit;
	const char *n;

	for (bit = 1; bit <= CD_END_FIFTY; bit <<= 1) {
		n = cd_ending_name(bit);
		ck_assert_ptr_nonnull(n);
		ck_assert_uint_eq(cd_ending_parse(n, strlen(n)), bit);
	}
	ck_assert_str_eq(cd_ending_name(CD_END_CHECKMATE), "checkmate");
	ck_assert_str_eq(cd_ending_name(CD_END_DEAD), "dead");
	ck_assert_str_eq(cd_ending_name(CD_END_SEVENTYFIVE), "seventyfive");
	ck_assert_str_eq(cd_ending_name(CD_END_FIFTY), "fifty");
	ck_assert_ptr_null(cd_ending_name(0));
	ck_assert_ptr_null(cd_ending_name(CD_END_FIFTY << 1));
	ck_assert_ptr_null(cd_ending_name(CD_END_DEAD | CD_END_FIFTY));
	ck_assert_uint_eq(cd_ending_parse("fift", 4), 0);
	ck_assert_uint_eq(cd_ending_parse("fifty2", 6), 0);
	ck_assert_uint_eq(cd_ending_first(0), 0);
	ck_assert_uint_eq(cd_ending_first(CD_END_FIFTY |
	    CD_END_SEVENTYFIVE), CD_END_SEVENTYFIVE);
	ck_assert_uint_eq(cd_ending_first(CD_END_THREEFOLD |
	    CD_END_FIVEFOLD | CD_END_DEAD), CD_END_DEAD);
	ck_assert_uint_eq(CD_END_ALL, 0x7f);
}
END_TEST

static Suite *
rules_suite(void)
{
	Suite *s = suite_create("rules");
	TCase *tc = tcase_create("games");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_games, 0,
	    (int)(sizeof(games) / sizeof(games[0])));
	tcase_add_test(tc, test_fivefold_seventyfive);
	tcase_add_test(tc, test_lone_king);
	suite_add_tcase(s, tc);
	tc = tcase_create("positions");
	tcase_add_loop_test(tc, test_positions, 0,
	    (int)(sizeof(positions) / sizeof(positions[0])));
	tcase_add_test(tc, test_names);
	suite_add_tcase(s, tc);
	return s;
}

TU_SUITES(rules_suite);
