/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_splitrun.c: the split of pgn-split (src/cli/split.c), driven
 * below the tool: the names of the parts, parts by games, by number and
 * by bytes (they concatenate to the input, cut only between games), and
 * the files of section 11 by player and by month.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chessdata.h"
#include "cli/cli.h"
#include "cli/split.h"
#include "core-util.h"
#include "check-main.h"

static char dir[256];

static void
setup(void)
{
	snprintf(dir, sizeof(dir), "%s/splitrun.XXXXXX",
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

/* (each test runs in a process of its own: the directory is left to
 * the end of the test, removed by rm_rf) */
static void
rm_rf(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static char *
path_in(const char *rel)
{
	static char p[1024];

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	return p;
}

static void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

static unsigned
count(const char *text, const char *what)
{
	unsigned n = 0;

	while ((text = strstr(text, what)) != NULL) {
		n++;
		text++;
	}
	return n;
}

/* n games, text before the first. */
static char *
games(unsigned n)
{
	size_t cap = 64 + (size_t)n * 128, used;
	char *b = malloc(cap);
	unsigned i;

	ck_assert_ptr_nonnull(b);
	used = (size_t)snprintf(b, cap, "text before the games\n\n");
	for (i = 0; i < n; i++)
		used += (size_t)snprintf(b + used, cap - used,
		    "[Event \"E\"]\n[Round \"%u\"]\n\n1. e4 %s*\n\n", i + 1,
		    i % 3 == 0 ? "{ a longer comment here } e5 " : "");
	return b;
}

/* Split the file in.pgn of the directory into out/ by o: the status. */
static int
split(struct cli_split_opts *o)
{
	char *argv[] = { NULL, NULL };
	char out[512];
	cli_split *sp;
	int status;

	snprintf(out, sizeof(out), "%s/out", dir);
	argv[0] = path_in("in.pgn");
	o->dir = out;
	if (o->prefix == NULL)
		o->prefix = "part";
	sp = cli_split_new(o, 1, argv, 0);
	status = cli_split_run(sp);
	cli_split_free(sp);
	return status;
}

/* The parts out/part001.pgn ... of a split of input: there are nparts,
 * each holding no more than max games (0: any), and they concatenate
 * to the input. */
static void
check_parts(const char *input, unsigned nparts, unsigned max)
{
	size_t len = strlen(input), at = 0;
	unsigned i;

	for (i = 1; i <= nparts + 1; i++) {
		char rel[64], *name = cli_split_part_name("part", 3, i), *p;

		snprintf(rel, sizeof(rel), "out/%s", name);
		free(name);
		p = tu_slurp(path_in(rel), NULL);
		if (i == nparts + 1) {
			ck_assert_ptr_null(p);
			break;
		}
		ck_assert_msg(p != NULL, "no part %u", i);
		ck_assert_uint_le(at + strlen(p), len);
		ck_assert(memcmp(input + at, p, strlen(p)) == 0);
		/* a part after the first starts with a game */
		if (i > 1 && *p != '\0')
			ck_assert(strncmp(p, "[Event", 6) == 0);
		if (max > 0)
			ck_assert_uint_le(count(p, "[Event "), max);
		at += strlen(p);
		free(p);
	}
	ck_assert_uint_eq(at, len);
}

START_TEST(part_names)
{
	static const struct { unsigned w; uint64_t n; const char *name; }
	    t[] = {
		{ 3, 1, "p001.pgn" }, { 3, 899, "p899.pgn" },
		{ 3, 900, "p90000.pgn" }, { 3, 9899, "p98999.pgn" },
		{ 3, 9900, "p9900000.pgn" }, { 4, 8999, "p8999.pgn" },
		{ 4, 9000, "p900000.pgn" }, { 1, 9, "p900.pgn" }
	};
	char *prev = NULL, *name;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		name = cli_split_part_name("p", t[i].w, t[i].n);
		ck_assert_str_eq(name, t[i].name);
		free(name);
	}
	/* the names sort in part order */
	for (i = 1; i <= 120000; i++) {
		name = cli_split_part_name("", 3, i);
		if (prev != NULL)
			ck_assert_msg(strcmp(prev, name) < 0, "%s, %s", prev,
			    name);
		free(prev);
		prev = name;
	}
	free(prev);
}
END_TEST

START_TEST(parts_by_games)
{
	struct cli_split_opts o = { CLI_SPLIT_GAMES, 2, NULL, NULL, 0, 0 };
	char *in = games(5);

	setup();
	write_file(path_in("in.pgn"), in);
	ck_assert_int_eq(split(&o), 0);
	check_parts(in, 3, 2);
	free(in);
	rm_rf();
}
END_TEST

/* -n: always N parts, empty ones at the end when there are fewer
 * games. */
START_TEST(parts_by_number)
{
	static const unsigned n[] = { 1, 3, 4, 12 };
	struct cli_split_opts o = { CLI_SPLIT_COUNT, 0, NULL, NULL, 0, 0 };
	char *in = games(10);

	setup();
	write_file(path_in("in.pgn"), in);
	o.value = n[_i];
	ck_assert_int_eq(split(&o), 0);
	check_parts(in, n[_i], n[_i] == 1 ? 10 : 4);
	free(in);
	rm_rf();
}
END_TEST

START_TEST(parts_by_bytes)
{
	struct cli_split_opts o = { CLI_SPLIT_BYTES, 150, NULL, NULL, 0, 0 };
	char *in = games(9), *p;
	unsigned i;

	setup();
	write_file(path_in("in.pgn"), in);
	ck_assert_int_eq(split(&o), 0);
	for (i = 1;; i++) {
		char rel[32];

		snprintf(rel, sizeof(rel), "out/part%03u.pgn", i);
		if ((p = tu_slurp(path_in(rel), NULL)) == NULL)
			break;
		ck_assert_uint_le(strlen(p), 150);
		free(p);
	}
	check_parts(in, i - 1, 0);
	ck_assert_uint_ge(i - 1, 4);
	free(in);
	rm_rf();
}
END_TEST

START_TEST(by_player)
{
	static const char *const pair[][2] = {
		{ "Tal, M", "Kasparov, G" }, { "Tal, Mikhail", "Tal, M" },
		{ "Anand", "Kasparov, Garry" }
	};
	struct cli_split_opts o = { CLI_SPLIT_PLAYER, 0, NULL, NULL, 0, 0 };
	char in[1024], root[3][CD_COLLATE_ROOT_SIZE];
	unsigned want[3] = { 2, 2, 1 };	/* Tal, Kasparov, Anand */
	size_t used = 0, i;
	char *p;

	setup();
	for (i = 0; i < 3; i++)
		used += (size_t)snprintf(in + used, sizeof(in) - used,
		    "[Event \"E\"]\n[White \"%s\"]\n[Black \"%s\"]\n\n1. d4 "
		    "*", pair[i][0], pair[i][1]);
	write_file(path_in("in.pgn"), in);
	cd_collate_player_root("Tal, M", 6, root[0]);
	cd_collate_player_root("Kasparov, G", 11, root[1]);
	cd_collate_player_root("Anand", 5, root[2]);
	ck_assert_int_eq(split(&o), 0);
	for (i = 0; i < 3; i++) {
		char rel[512];

		snprintf(rel, sizeof(rel), "out/%s.pgn", root[i]);
		p = tu_slurp(path_in(rel), NULL);
		ck_assert_msg(p != NULL, "no %s", rel);
		ck_assert_uint_eq(count(p, "[Event "), want[i]);
		/* a game that did not end a line is ended here */
		ck_assert(p[strlen(p) - 1] == '\n');
		free(p);
	}
	rm_rf();
}
END_TEST

START_TEST(by_month)
{
	struct cli_split_opts o = { CLI_SPLIT_MONTH, 0, NULL, NULL, 0, 0 };
	char path[2][CD_COLLATE_DATE_PATH_SIZE], rel[64], *p;

	setup();
	write_file(path_in("in.pgn"),
	    "[Date \"1993.01.05\"]\n\n*\n\n[Date \"1993.02.??\"]\n\n*\n\n"
	    "[Date \"1993.01.??\"]\n\n*\n");
	cd_collate_date_path("1993.01.05", 10, 2, path[0]);
	cd_collate_date_path("1993.02.??", 10, 2, path[1]);
	ck_assert(strchr(path[0], '/') != NULL);
	ck_assert_int_eq(split(&o), 0);
	snprintf(rel, sizeof(rel), "out/%s.pgn", path[0]);
	p = tu_slurp(path_in(rel), NULL);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(count(p, "[Date "), 2);
	free(p);
	snprintf(rel, sizeof(rel), "out/%s.pgn", path[1]);
	p = tu_slurp(path_in(rel), NULL);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(count(p, "[Date "), 1);
	free(p);
	rm_rf();
}
END_TEST

static Suite *
splitrun_suite(void)
{
	Suite *s = suite_create("splitrun");
	TCase *tc = tcase_create("core");

	cli_init("check_splitrun");
	cli_quiet = 1;

	tcase_add_test(tc, part_names);
	tcase_add_test(tc, parts_by_games);
	tcase_add_loop_test(tc, parts_by_number, 0, 4);
	tcase_add_test(tc, parts_by_bytes);
	tcase_add_test(tc, by_player);
	tcase_add_test(tc, by_month);
	suite_add_tcase(s, tc);
	return s;
}

TU_SUITES(splitrun_suite);
