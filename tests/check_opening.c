/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_opening.c: opening classification (chessdata/opening.h): the
 * two table forms, the transposition that is not one (side to move),
 * en passant counted only where a capture is legal, the first line of
 * a position winning, the last position of the main line counting,
 * errors with their place; and, over random games, the classification
 * equal to a lookup of every main-line position (no position the
 * early stop skips), from the parser's positions and replayed alike.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chessdata.h"
#include "core-util.h"
#include "check-main.h"

static const char small_tsv[] =
    "eco\tname\tpgn\n"
    "B10\tCaro-Kann Defense\t1. e4 c6\n"
    "B12\tCaro-Kann Defense: Advance Variation\t1. e4 c6 2. d4 d5 3. e5\n"
    "C00\tFrench Defense\t1. e4 e6\n"
    "C02\tFrench Defense: Advance Variation\t"
    "1. e4 e6 2. d4 d5 3. e5 c5 4. dxc5\n"
    "B01\tScandinavian Defense\t1. e4 d5\n"
    "B01\tScandinavian Defense: Dutch\t1. e4 d5 2. e5 f5\n"
    "D08\tAlbin Countergambit\t1. d4 d5 2. c4 e5\n"
    "E00\tIndian: First\t1. d4 Nf6 2. c4 e6\n"
    "E00\tIndian: Second\t1.c4 e6 2.d4 Nf6 *\n";

/* The same lines as PGN, names in tags. */
static const char small_pgn[] =
    "{ a comment first }\n"
    "[ECO \"B10\"]\n[Opening \"Caro-Kann Defense\"]\n\n1. e4 c6 *\n\n"
    "[ECO \"B12\"]\n[Opening \"Caro-Kann Defense\"]\n"
    "[Variation \"Advance Variation\"]\n\n1. e4 c6 2. d4 d5 3. e5 *\n\n"
    "[ECO \"C00\"]\n[Opening \"French Defense\"]\n\n1. e4 e6 *\n\n"
    "[ECO \"C02\"]\n[Opening \"French Defense\"]\n"
    "[Variation \"Advance Variation\"]\n\n"
    "1. e4 e6 2. d4 d5 3. e5 c5 4. dxc5 *\n\n"
    "[ECO \"B01\"]\n[Opening \"Scandinavian Defense\"]\n\n1. e4 d5 *\n\n"
    "[ECO \"B01\"]\n[Opening \"Scandinavian Defense\"]\n"
    "[Variation \"Dutch\"]\n\n1. e4 d5 2. e5 f5 *\n\n"
    "[ECO \"D08\"]\n[Opening \"Albin Countergambit\"]\n\n"
    "1. d4 d5 2. c4 e5 *\n\n"
    "[ECO \"E00\"]\n[Opening \"Indian\"]\n[Variation \"First\"]\n\n"
    "1. d4 Nf6 2. c4 e6 *\n\n"
    "[ECO \"E00\"]\n[Opening \"Indian\"]\n[Variation \"Second\"]\n\n"
    "1. c4 e6 2. d4 Nf6 *\n";

static const struct game_case {
	const char *moves;
	const char *eco, *name;	/* NULL: no line */
	uint32_t ply;
} game_cases[] = {
	/* a transposition: pgn-extract calls it a French (it ignores
	 * the side to move) */
	{ "1. e4 c6 2. d4 d5 3. e5 c5 4. dxc5 e6 *", "B12",
	    "Caro-Kann Defense: Advance Variation", 5 },
	{ "1. e4 e6 2. d4 d5 3. e5 c5 4. dxc5 Bxc5 *", "C02",
	    "French Defense: Advance Variation", 7 },
	/* en passant possible: part of the position */
	{ "1. e4 d5 2. e5 f5 3. exf6 *", "B01",
	    "Scandinavian Defense: Dutch", 4 },
	{ "1. e4 d5 2. e5 f6 3. Nf3 Qd6 4. Ng1 Qd7 5. Nf3 Qd8 6. Ng1 f5 *",
	    "B01", "Scandinavian Defense", 2 },
	/* en passant impossible: not part of it */
	{ "1. d4 d5 2. c4 e6 3. Nf3 Qd6 4. Ng1 Qd7 5. Nf3 Qd8 6. Ng1 e5 *",
	    "D08", "Albin Countergambit", 12 },
	{ "1. c4 e6 2. d4 Nf6 *", "E00", "Indian: First", 4 },
	{ "1. e4 e6 2. Nf3 Nf6 3. Ng1 Ng8 *", "C00", "French Defense", 6 },
	{ "1. a3 e5 *", NULL, NULL, 0 },
	{ "*", NULL, NULL, 0 },
};

/* Set b to the position of FEN text f. */
static void
fen(cd_board *b, const char *f)
{
	ck_assert_int_eq(cd_fen_parse(b, f, strlen(f), 0, NULL), CD_OK);
}

static void
read_table(cd_openings *o, const char *text)
{
	cd_error err;

	ck_assert_int_eq(cd_openings_read(o, text, strlen(text), &err),
	    CD_OK);
	ck_assert_int_eq(err.status, CD_OK);
}

/* A game parsed each way classifies alike: the moves made again, the
 * positions kept, the main line's keys kept, both. */
static const unsigned parse_flags[4] = { 0, CD_PGN_PARSE_POSITIONS,
    CD_PGN_PARSE_MAIN_KEYS,
    CD_PGN_PARSE_POSITIONS | CD_PGN_PARSE_MAIN_KEYS };

static void
classify_case(const char *table, int i)
{
	const struct game_case *c = &game_cases[i];
	cd_openings *o = cd_openings_new();
	cd_game *g = cd_game_new(), *f = cd_game_new();
	cd_pgn_parse_opts po = { 0 };
	cd_opening op;
	uint32_t k;
	int pass;

	ck_assert_ptr_nonnull(o);
	read_table(o, table);
	ck_assert_uint_eq(cd_openings_count(o), 8);	/* one position twice */
	for (pass = 0; pass < 6; pass++) {
		po.flags = parse_flags[pass < 4 ? pass : pass - 2];
		ck_assert_int_eq(cd_pgn_parse_text(g, c->moves,
		    strlen(c->moves), &po, NULL), CD_OK);
		ck_assert(pass % 2 == 0 || g->positions != NULL);
		if (pass >= 4) {
			/* the moves added after the parser's (which kept
			 * the keys of its own, or none) */
			ck_assert_int_eq(cd_pgn_parse_text(f, c->moves,
			    strlen(c->moves), NULL, NULL), CD_OK);
			k = f->nodes[0].next;
			if (k != 0) {
				ck_assert_int_eq(cd_pgn_parse_text(g,
				    f->nodes[k].san, strlen(f->nodes[k].san),
				    &po, NULL), CD_OK);
				k = f->nodes[k].next;
			}
			for (; k != 0; k = f->nodes[k].next)
				ck_assert_int_eq(cd_game_add_move(g,
				    f->nodes[k].move, NULL), CD_OK);
		}
		if (c->eco == NULL) {
			ck_assert(!cd_openings_classify(o, g, &op));
			continue;
		}
		ck_assert(cd_openings_classify(o, g, &op));
		ck_assert_str_eq(op.eco, c->eco);
		ck_assert_str_eq(op.name, c->name);
		ck_assert_uint_eq(op.ply, c->ply);
	}
	cd_game_free(g);
	cd_game_free(f);
	cd_openings_free(o);
}

START_TEST(test_tsv)
{
	classify_case(small_tsv, _i);
}
END_TEST

START_TEST(test_pgn)
{
	classify_case(small_pgn, _i);
}
END_TEST

/* The parts of a PGN line's name, and a TSV line's. */
START_TEST(test_parts)
{
	cd_openings *o = cd_openings_new();
	cd_board b;
	cd_opening op;
	const char *t = "[ECO \"C42\"]\n[Opening \"Petrov\"]\n"
	    "[Variation \"Classical\"]\n[SubVariation \"Jaenisch\"]\n\n"
	    "1. e4 e5 2. Nf3 Nf6 *\n";

	read_table(o, t);
	read_table(o, "\xef\xbb\xbf" "eco\tname\tpgn\r\nA00\tBOM\t1. a3\r\n");
	ck_assert_uint_eq(cd_openings_count(o), 2);
	read_table(o, small_tsv);
	cd_board_init(&b);
	ck_assert(!cd_openings_find(o, &b, &op));	/* no move: no line */
	fen(&b,
	    "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
	ck_assert(cd_openings_find(o, &b, &op));
	ck_assert_str_eq(op.name, "Petrov: Classical, Jaenisch");
	ck_assert_str_eq(op.opening, "Petrov");
	ck_assert_str_eq(op.variation, "Classical");
	ck_assert_str_eq(op.subvariation, "Jaenisch");
	ck_assert(op.from_pgn);
	ck_assert_uint_eq(op.line_plies, 4);
	fen(&b, "rnbqkbnr/pp1ppppp/2p5/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
	ck_assert(cd_openings_find(o, &b, &op));
	ck_assert_str_eq(op.name, "Caro-Kann Defense");
	ck_assert_str_eq(op.opening, "Caro-Kann Defense");
	ck_assert_str_eq(op.variation, "");
	ck_assert(!op.from_pgn);
	cd_openings_free(o);
}
END_TEST

static const struct bad_case {
	const char *text;
	cd_status st;
	unsigned long line, col;
} bad_cases[] = {
	{ "eco\tname\tpgn\nA00\tx\t1. e4\nA00\ty\t1. e4 e5 2. Ke3\n",
	    CD_ERR_ILLEGAL, 3, 19 },
	{ "eco\tname\tpgn\nA00\tx\t1. e4 Zz9\n", CD_ERR_SYNTAX, 2, 13 },
	{ "pgn\teco\tname\n1. e4 e5\tA00\n", CD_ERR_SYNTAX, 2, 1 },
	{ "[ECO \"A00\"]\n\n1. e4 e5 2. Ke3 *\n", CD_ERR_ILLEGAL, 3, 13 },
};

START_TEST(test_bad)
{
	const struct bad_case *c = &bad_cases[_i];
	cd_openings *o = cd_openings_new();
	cd_error err;

	ck_assert_int_eq(cd_openings_read(o, c->text, strlen(c->text), &err),
	    c->st);
	ck_assert_int_eq(err.status, c->st);
	ck_assert_uint_eq(err.line, c->line);
	ck_assert_uint_eq(err.col, c->col);
	ck_assert(err.msg[0] != '\0');
	cd_openings_free(o);
}
END_TEST

/* ---- random games ---- */

static unsigned
rnd(unsigned n)
{
	return (unsigned)(tu_rand() % n);
}

/* Play up to n random moves in g (built from its start); the SAN of
 * each appended to text (with move numbers when numbers is set). */
static void
random_moves(cd_game *g, int n, char *text, size_t cap, bool numbers)
{
	cd_move mv[CD_MAX_MOVES];
	int i, k;
	uint32_t node;

	for (i = 0; i < n; i++) {
		const cd_board *b = cd_game_board(g);
		size_t len = strlen(text);

		if ((k = cd_board_legal_moves(b, mv)) == 0)
			return;
		ck_assert_int_eq(cd_game_add_move(g, mv[rnd((unsigned)k)],
		    &node), CD_OK);
		if (numbers && i % 2 == 0)
			snprintf(text + len, cap - len, "%d. %s ", i / 2 + 1,
			    g->nodes[node].san);
		else
			snprintf(text + len, cap - len, "%s ",
			    g->nodes[node].san);
	}
}

/* The classification by a lookup of every main-line position. */
static bool
brute(const cd_openings *o, const cd_game *g, cd_opening *out)
{
	cd_board b = g->start;
	cd_opening op;
	uint32_t i;
	bool found = false;

	for (i = g->nodes[0].next; i != 0; i = g->nodes[i].next) {
		cd_board_make(&b, g->nodes[i].move);
		if (cd_openings_find(o, &b, &op)) {
			*out = op;
			out->ply = g->nodes[i].ply;
			found = true;
		}
	}
	return found;
}

START_TEST(test_random)
{
	enum { LINES = 400, GAMES = 3000 };
	static char table[LINES * 120 + 64], line[4096];
	static char lines[LINES][160];
	cd_openings *o = cd_openings_new();
	cd_game *g = cd_game_new(), *p = cd_game_new();
	cd_pgn_parse_opts po = { 0 };
	cd_buf pgn = { 0 };
	int i, pass, hits = 0, vars = 0;

	/* lines of 1 to 12 random moves, numbered or not, and some that
	 * go on from an earlier line */
	strcpy(table, "name\teco\tpgn\n");
	for (i = 0; i < LINES; i++) {
		size_t len = strlen(table);

		cd_game_clear(g);
		lines[i][0] = '\0';
		if (i > 0 && rnd(3) == 0) {
			const char *from = lines[rnd((unsigned)i)];

			strcpy(lines[i], from);
			ck_assert_int_eq(cd_pgn_parse_text(g, from,
			    strlen(from), NULL, NULL), CD_OK);
		}
		random_moves(g, 1 + (int)rnd(12 - (i % 4)), lines[i],
		    sizeof(lines[i]), false);
		snprintf(table + len, sizeof(table) - len, "line %d\tX%02d\t%s\n",
		    i, i % 100, lines[i]);
	}
	read_table(o, table);
	ck_assert_uint_gt(cd_openings_count(o), LINES / 2);
	for (i = 0; i < GAMES; i++) {
		cd_opening a, b;
		bool fa, fb;
		const char *from = lines[rnd(LINES)];

		/* a line of the table (or none; parsed keeping its keys,
		 * which the moves added after it make stale), then random
		 * moves, some with a variation among them (whose moves are
		 * not the main line's) */
		cd_game_clear(g);
		line[0] = '\0';
		po.flags = CD_PGN_PARSE_MAIN_KEYS;
		if (rnd(4) != 0)
			ck_assert_int_eq(cd_pgn_parse_text(g, from,
			    strlen(from), &po, NULL), CD_OK);
		random_moves(g, (int)rnd(30), line, sizeof(line), true);
		if (g->nnodes > 1 && rnd(3) == 0) {
			bool empty;

			ck_assert_int_eq(cd_game_begin_variation(g), CD_OK);
			random_moves(g, 1 + (int)rnd(8), line, sizeof(line),
			    true);
			ck_assert_int_eq(cd_game_end_variation(g, &empty),
			    CD_OK);
			vars++;
		}
		random_moves(g, (int)rnd(50), line, sizeof(line), true);
		pgn.len = 0;
		ck_assert_int_eq(cd_pgn_write_buf(g, 0, &pgn), CD_OK);
		fb = brute(o, g, &b);
		hits += fb;
		fa = cd_openings_classify(o, g, &a);
		ck_assert_int_eq(fa, fb);
		ck_assert(!fa || a.ply == b.ply);
		for (pass = 0; pass < 4; pass++) {
			po.flags = parse_flags[pass];
			ck_assert_int_eq(cd_pgn_parse_text(p, pgn.data, pgn.len,
			    &po, NULL), CD_OK);
			fa = cd_openings_classify(o, p, &a);
			ck_assert_int_eq(fa, fb);
			if (!fa)
				continue;
			ck_assert_str_eq(a.eco, b.eco);
			ck_assert_str_eq(a.name, b.name);
			ck_assert_uint_eq(a.ply, b.ply);
		}
	}
	ck_assert_int_gt(hits, GAMES / 2);
	ck_assert_int_gt(vars, GAMES / 5);
	cd_buf_free(&pgn);
	cd_game_free(g);
	cd_game_free(p);
	cd_openings_free(o);
}
END_TEST

/* ---- tables as lines that share their first moves ---- */

/* a and b the same position as EPD (the table's identity) */
static bool
same_position(const cd_board *a, const cd_board *b)
{
	return a->key == b->key && a->side == b->side &&
	    memcmp(a->squares, b->squares, 64) == 0 &&
	    memcmp(a->castle_rook, b->castle_rook, 4) == 0 &&
	    (cd_board_ep_legal(a) ? a->ep : CD_SQ_NONE) ==
	    (cd_board_ep_legal(b) ? b->ep : CD_SQ_NONE);
}

/*
 * A table's lines follow one another as those of an opening do: each
 * the one before cut short and gone on with random moves, written in
 * the ways tables have them (numbered or not, "1..." or not, with or
 * without check marks, annotated, a result after the moves, a comment
 * or a promotion now and then), in the TSV and the PGN form.  Each
 * line's position is computed again on its own by the parser, and the
 * table must name it after the first line that ends there.
 */
START_TEST(test_shared_lines)
{
	enum { LINES = 600 };
	static char table[LINES * 400], text[LINES][300];
	static cd_board end[LINES];
	static cd_move moves[LINES][40];
	static int nmoves[LINES];
	cd_openings *o = cd_openings_new();
	cd_game *g = cd_game_new();
	bool pgn = _i == 1;
	size_t distinct = 0;
	int i, j, k;

	strcpy(table, pgn ? "" : "eco\tname\tpgn\n");
	for (i = 0; i < LINES; i++) {
		cd_board b;
		cd_move mv[CD_MAX_MOVES];
		size_t len = strlen(table), tl = 0;
		int keep = i == 0 ? 0 : (int)rnd((unsigned)nmoves[i - 1] + 1);
		int more = (int)rnd(9) + (keep == 0);

		cd_board_init(&b);
		text[i][0] = '\0';
		nmoves[i] = 0;
		for (k = 0; k < keep + more && k < 40; k++) {
			char san[CD_SAN_MAX], *c;
			cd_move m;
			int n;

			if (k < keep) {
				m = moves[i - 1][k];
			} else {
				if ((n = cd_board_legal_moves(&b, mv)) == 0)
					break;
				m = mv[rnd((unsigned)n)];
			}
			cd_san_write(&b, m, san);
			if (rnd(8) == 0 && (c = strpbrk(san, "+#")) != NULL)
				*c = '\0';	/* no check mark */
			if (k % 2 == 0 && rnd(6) != 0)
				tl += (size_t)snprintf(text[i] + tl,
				    sizeof(text[i]) - tl, "%d.%s", k / 2 + 1,
				    rnd(4) == 0 ? "" : " ");
			else if (k == 0 || (k % 2 == 1 && rnd(20) == 0))
				tl += (size_t)snprintf(text[i] + tl,
				    sizeof(text[i]) - tl, "%d... ", k / 2 + 1);
			tl += (size_t)snprintf(text[i] + tl,
			    sizeof(text[i]) - tl, "%s%s ", san,
			    rnd(30) == 0 ? "!?" : rnd(30) == 0 ? "!" : "");
			if (pgn && rnd(40) == 0)
				tl += (size_t)snprintf(text[i] + tl,
				    sizeof(text[i]) - tl, "{a comment} ");
			moves[i][nmoves[i]++] = m;
			cd_board_make(&b, m);
		}
		if (rnd(5) == 0)
			snprintf(text[i] + tl, sizeof(text[i]) - tl, "*");
		if (pgn)
			snprintf(table + len, sizeof(table) - len,
			    "[ECO \"E%02d\"]\n[Opening \"line %d\"]\n%s\n"
			    "%s%s\n\n", i % 100, i,
			    rnd(3) == 0 ? "[Variation \"v\"]\n" : "",
			    text[i], rnd(5) == 0 && !strchr(text[i], '*') ?
			    "*" : "");
		else
			snprintf(table + len, sizeof(table) - len,
			    "E%02d\tline %d\t%s\n", i % 100, i, text[i]);
		/* the position again, by the parser on its own */
		ck_assert_int_eq(cd_pgn_parse_text(g, text[i], strlen(text[i]),
		    NULL, NULL), CD_OK);
		cd_game_end_position(g, &end[i]);
		ck_assert(same_position(&end[i], &b));
	}
	read_table(o, table);
	for (i = 0; i < LINES; i++) {
		cd_opening op;
		char want[32];

		if (nmoves[i] == 0)
			continue;
		for (j = 0; j < i; j++)
			if (nmoves[j] > 0 && same_position(&end[j], &end[i]))
				break;
		distinct += j == i;
		ck_assert_msg(cd_openings_find(o, &end[i], &op),
		    "line %d (%s) not found", i, text[i]);
		snprintf(want, sizeof(want), "line %d", j);
		ck_assert_msg(strncmp(op.name, want, strlen(want)) == 0 &&
		    (op.name[strlen(want)] == '\0' ||
		    op.name[strlen(want)] == ':'), "line %d (%s): %s, not %s",
		    i, text[i], op.name, want);
		ck_assert_uint_eq(op.line_plies, (unsigned)nmoves[j]);
		ck_assert_int_eq(op.from_pgn, pgn);
	}
	ck_assert_uint_eq(cd_openings_count(o), distinct);
	cd_game_free(g);
	cd_openings_free(o);
}
END_TEST

static Suite *
opening_suite(void)
{
	Suite *s = suite_create("opening");
	TCase *tc = tcase_create("classify");

	tcase_add_loop_test(tc, test_tsv, 0,
	    (int)(sizeof(game_cases) / sizeof(game_cases[0])));
	tcase_add_loop_test(tc, test_pgn, 0,
	    (int)(sizeof(game_cases) / sizeof(game_cases[0])));
	tcase_add_test(tc, test_parts);
	suite_add_tcase(s, tc);
	tc = tcase_create("read");
	tcase_add_loop_test(tc, test_bad, 0,
	    (int)(sizeof(bad_cases) / sizeof(bad_cases[0])));
	suite_add_tcase(s, tc);
	tc = tcase_create("random");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_random);
	tcase_add_loop_test(tc, test_shared_lines, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

TU_SUITES(opening_suite);
