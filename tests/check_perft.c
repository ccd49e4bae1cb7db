/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_perft.c: the move generator proved by perft counts.
 *
 * Every line of tests/files/perft-standard.epd (a subset of the shared
 * corpus: standard, tricky and Chess960 positions with published counts)
 * is one loop test: cd_perft to each depth given must equal the count.
 * Per position also: perft 1 equals the number of legal moves, and the
 * counts below the root moves ("divide") add up to the count.  The
 * corpus suites at greater depth run in tests/cli-chess-perft-corpus.sh.
 */
#include "config.h"

#include "core-util.h"
#include "check-main.h"

#define MAX_ROWS 256
#define MAX_DEPTH 8

struct row {
	char fen[128];
	unsigned long line;
	int depths;			/* the deepest count */
	bool have[MAX_DEPTH + 1];
	uint64_t count[MAX_DEPTH + 1];
};

static struct row rows[MAX_ROWS];
static int nrows;
static char load_error[4300];

/* Read the fixture once, before the tests are created (a test cannot
 * fail from here: a problem is reported by test_fixture). */
static void
load_rows(void)
{
	char path[4200], line[1024];
	unsigned long lineno = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/perft-standard.epd", tu_files_dir());
	f = fopen(path, "r");
	if (f == NULL) {
		snprintf(load_error, sizeof(load_error), "cannot open %s", path);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char *semi = strchr(line, ';'), *p;
		struct row *r;
		size_t len;

		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (semi == NULL || nrows == MAX_ROWS) {
			snprintf(load_error, sizeof(load_error),
			    "%s:%lu: no counts, or too many lines", path, lineno);
			break;
		}
		r = &rows[nrows++];
		r->line = lineno;
		len = (size_t)(semi - line);
		while (len && line[len - 1] == ' ')
			len--;
		if (len >= sizeof(r->fen))
			len = sizeof(r->fen) - 1;
		memcpy(r->fen, line, len);
		r->fen[len] = '\0';
		for (p = semi; p && *p == ';'; p = strchr(p + 1, ';')) {
			int d;
			unsigned long long n;

			if (sscanf(p, ";D%d %llu", &d, &n) != 2 || d < 1 ||
			    d > MAX_DEPTH || d <= r->depths) {
				snprintf(load_error, sizeof(load_error),
				    "%s:%lu: bad count '%.20s'", path, lineno, p);
				break;
			}
			r->count[d] = n;
			r->have[d] = true;
			r->depths = d;
		}
	}
	fclose(f);
}

/* Read a perft position: standard chess first, Chess960 when the
 * castling rights need it.  Perft suites hold positions no game reaches,
 * so the validity rules are not applied. */
static void
read_position(cd_board *b, const char *fen)
{
	const char *why = NULL;
	size_t col = 0;
	cd_error err;
	cd_status st;

	st = cd_fen_parse(b, fen, strlen(fen), CD_FEN_NO_VALIDATE, &err);
	if (st != CD_OK || cd_board_validate(b) == CD_POS_BAD_CASTLING)
		st = cd_fen_parse(b, fen, strlen(fen),
		    CD_FEN_NO_VALIDATE | CD_FEN_960, &err);
	why = err.msg;
	col = err.col;
	ck_assert_msg(st == CD_OK, "'%s': %s (col %zu)", fen, why ? why : "?", col);
	ck_assert_int_ne(cd_board_validate(b), CD_POS_BAD_CASTLING);
}

START_TEST(test_fixture)
{
	int i, c960 = 0;

	ck_assert_msg(load_error[0] == '\0', "%s", load_error);
	ck_assert_int_ge(nrows, 70);
	for (i = 0; i < nrows; i++) {
		cd_board b;

		read_position(&b, rows[i].fen);
		c960 += b.chess960;
		ck_assert_int_ge(rows[i].depths, 1);
	}
	ck_assert_int_ge(c960, 10);
}
END_TEST

START_TEST(test_row)
{
	const struct row *r = &rows[_i];
	cd_board b;
	cd_move list[CD_MAX_MOVES];
	int d, n, i;
	uint64_t sum;

	read_position(&b, r->fen);
	for (d = 1; d <= r->depths; d++) {
		uint64_t got;

		if (!r->have[d])
			continue;
		got = cd_perft(&b, d);
		ck_assert_msg(got == r->count[d],
		    "line %lu: %s: D%d %llu nodes, expected %llu", r->line,
		    r->fen, d, (unsigned long long)got,
		    (unsigned long long)r->count[d]);
	}
	ck_assert_uint_eq(cd_perft(&b, 0), 1);
	/* depth 1 is the move list */
	n = cd_board_legal_moves(&b, list);
	ck_assert_uint_eq((uint64_t)n, cd_perft(&b, 1));
	if (r->have[1])
		ck_assert_uint_eq((uint64_t)n, r->count[1]);
	ck_assert_int_eq(cd_board_count_moves(&b), n);
	ck_assert(cd_board_has_legal_move(&b) == (n > 0));
	/* divide: the counts below the root moves add up */
	for (d = 2; d <= 3 && d <= r->depths; d++) {
		sum = 0;
		for (i = 0; i < n; i++) {
			cd_board c = b;

			ck_assert(cd_board_is_legal(&b, list[i]));
			cd_board_make(&c, list[i]);
			sum += cd_perft(&c, d - 1);
		}
		ck_assert_uint_eq(sum, r->have[d] ? r->count[d] : cd_perft(&b, d));
	}
}
END_TEST

/* A few counts written here, independent of the fixture file. */
START_TEST(test_builtin)
{
	cd_board b;

	cd_board_init(&b);
	ck_assert_uint_eq(cd_perft(&b, 1), 20);
	ck_assert_uint_eq(cd_perft(&b, 2), 400);
	ck_assert_uint_eq(cd_perft(&b, 3), 8902);
	ck_assert_uint_eq(cd_perft(&b, 4), 197281);
	ck_assert_uint_eq(cd_perft(&b, -1), 1);
	tu_fen(&b, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -", 0);
	ck_assert_uint_eq(cd_perft(&b, 1), 48);
	ck_assert_uint_eq(cd_perft(&b, 2), 2039);
	ck_assert_uint_eq(cd_perft(&b, 3), 97862);
	/* Chess960 position 1 of the usual list */
	tu_fen(&b, "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
	    CD_FEN_960);
	ck_assert_uint_eq(cd_perft(&b, 1), 21);
	ck_assert_uint_eq(cd_perft(&b, 2), 528);
	ck_assert_uint_eq(cd_perft(&b, 3), 12189);
	/* the 218-move position */
	tu_fen(&b, "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1", 0);
	ck_assert_uint_eq(cd_perft(&b, 1), 218);
	ck_assert_uint_eq(cd_perft(&b, 2), 99);
}
END_TEST

static Suite *
perft_suite(void)
{
	Suite *s = suite_create("perft");
	TCase *tc;

	load_rows();
	tc = tcase_create("perft");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_fixture);
	tcase_add_test(tc, test_builtin);
	if (nrows > 0)
		tcase_add_loop_test(tc, test_row, 0, nrows);
	suite_add_tcase(s, tc);
	return s;
}

TU_SUITES(perft_suite);
