/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_pgn_gap.c: cd_pgn_reader_on_gap, the bytes in no game.
 *
 * The games' bytes and the gap runs, in the order the reader hands
 * them out, must be the input byte for byte (what pgn-split's parts
 * rest on), from a memory reader and from a FILE reader, across the
 * reader's block boundaries too; each game's skipped text must be in
 * the gaps before it.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "chessdata.h"
#include "check-main.h"

struct sink {
	char *data;
	size_t len, cap;
	size_t gap_since_game;	/* gap bytes since the last game */
	size_t calls;
};

static void
sink_add(struct sink *s, const char *p, size_t n)
{
	if (s->len + n > s->cap) {
		s->cap = (s->len + n) * 2 + 64;
		s->data = realloc(s->data, s->cap);
		ck_assert_ptr_nonnull(s->data);
	}
	memcpy(s->data + s->len, p, n);
	s->len += n;
}

static void
gap_cb(void *ctx, const char *bytes, size_t len)
{
	struct sink *s = ctx;

	ck_assert_uint_gt(len, 0);
	sink_add(s, bytes, len);
	s->gap_since_game += len;
	s->calls++;
}

/* Read in through r; the games and gaps must rebuild in (n bytes). */
static size_t
check_rebuild(cd_pgn_reader *r, const char *in, size_t n)
{
	struct sink s = { 0 };
	cd_pgn_raw_game g;
	cd_status st;
	size_t games = 0;

	cd_pgn_reader_on_gap(r, gap_cb, &s);
	while ((st = cd_pgn_reader_next(r, &g)) == CD_OK) {
		/* skipped text is reported in the gaps before the game */
		ck_assert_uint_ge(s.gap_since_game, g.skipped_bytes);
		ck_assert_uint_eq(g.offset, s.len);
		sink_add(&s, g.text, g.len);
		s.gap_since_game = 0;
		games++;
	}
	ck_assert_int_eq(st, CD_EOF);
	ck_assert_uint_ge(s.gap_since_game, g.skipped_bytes);
	ck_assert_uint_eq(s.len, n);
	ck_assert(n == 0 || memcmp(s.data, in, n) == 0);
	free(s.data);
	return games;
}

static size_t
rebuild_mem(const char *in, size_t n)
{
	cd_pgn_reader *r = cd_pgn_reader_new_mem(in, n);
	size_t games;

	ck_assert_ptr_nonnull(r);
	games = check_rebuild(r, in, n);
	cd_pgn_reader_free(r);
	return games;
}

static size_t
rebuild_file(const char *in, size_t n)
{
	FILE *f = tmpfile();
	cd_pgn_reader *r;
	size_t games;

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(in, 1, n, f), n);
	rewind(f);
	r = cd_pgn_reader_new(f);
	ck_assert_ptr_nonnull(r);
	games = check_rebuild(r, in, n);
	cd_pgn_reader_free(r);
	fclose(f);
	return games;
}

static const struct {
	const char *in;
	size_t games;
} cases[] = {
	{ "", 0 },
	{ "\n\n  \n", 0 },
	{ "just some text\nthat is not PGN\n", 0 },
	{ "\xef\xbb\xbf[Event \"a\"]\n\n1. e4 *\n", 1 },
	{ "\xef\xbb\xbf\n\n[Event \"a\"]\n\n1. e4 *", 1 },
	{ "From: someone\nSubject: games\n\n[Event \"a\"]\n\n1. e4 e5 1-0\n"
	  "\n\n[Event \"b\"]\n\n1. d4 0-1 trailing words\n"
	  "more words\n\n[Event \"c\"]\n1. c4 *\n\n\nthe end\n", 3 },
	{ "[Event \"a\"]\n{ a comment\n[Event \"not a game\" ...\n}\n1. e4 *\n"
	  "\n[Event \"b\"]\n1. e4 *\n", 2 },
	{ "1. e4 e5 *\n\n1. d4 d5 *\n\n  \n", 2 },
	{ "[Event \"x\"]\r\n\r\n1. e4 *\r\n\r\n% escape\r\n\r\n"
	  "[Event \"y\"]\r\n\r\n1. d4 1/2-1/2\r\n", 2 },
	{ "[Event \"unclosed\"]\n\n1. e4 { never closed\n\n"
	  "[Event \"next\"]\n\n1. d4 *\n", 2 },
};

START_TEST(test_rebuild)
{
	const char *in = cases[_i].in;
	size_t n = strlen(in);

	ck_assert_uint_eq(rebuild_mem(in, n), cases[_i].games);
	ck_assert_uint_eq(rebuild_file(in, n), cases[_i].games);
}
END_TEST

/* Gaps and games longer than the reader's blocks. */
START_TEST(test_big)
{
	size_t cap = 3 << 20, n = 0, k, games = 0;
	char *in = malloc(cap);

	ck_assert_ptr_nonnull(in);
	for (k = 0; n + 200000 < cap; k++) {
		size_t j;

		if (k % 3 == 0) {	/* a long run of text that is not PGN */
			for (j = 0; j < 3000; j++)
				n += (size_t)sprintf(in + n, "junk line %zu\n",
				    j);
			in[n++] = '\n';
		}
		if (k % 4 == 1)		/* many blank lines */
			for (j = 0; j < 40000; j++)
				in[n++] = '\n';
		n += (size_t)sprintf(in + n, "[Event \"g%zu\"]\n\n1. e4 {", k);
		for (j = 0; j < 20000 * (k % 5); j++)
			in[n++] = 'x';
		n += (size_t)sprintf(in + n, "} e5 1-0 tail text\n\n");
		games++;
	}
	ck_assert_uint_eq(rebuild_mem(in, n), games);
	ck_assert_uint_eq(rebuild_file(in, n), games);
	free(in);
}
END_TEST

/* The games' places (offset and length) that a reader gives. */
static size_t
places(cd_pgn_reader *r, uint64_t *at, size_t max)
{
	cd_pgn_raw_game g;
	size_t n = 0;

	while (cd_pgn_reader_next(r, &g) == CD_OK) {
		ck_assert_uint_lt(n, max / 2);
		at[n++] = g.offset;
		at[n++] = g.len;
	}
	return n;
}

/*
 * Long runs of blanks without a line end (spaces, tabs, CRs, longer
 * than the pieces they are skipped in): the same games, byte for
 * byte, from memory, from a file and from a pipe written in pieces of
 * 1000 bytes (a reader that scanned the run again after each read took
 * time quadratic in it; one that kept it took memory), and the gaps
 * and games rebuild the input.
 */
START_TEST(test_blank_runs)
{
	size_t cap = 8 << 20, n = 0, j, k, nm, np;
	char *in = malloc(cap);
	uint64_t mem_at[64], pipe_at[64];
	cd_pgn_reader *r;
	int p[2];
	pid_t pid;

	ck_assert_ptr_nonnull(in);
	for (k = 0; k < 6; k++) {
		/* before a game on its line, alone, after a marker */
		for (j = 0; j < 300000 + 77777 * k; j++)
			in[n++] = " \t\r"[(j + k) % 3];
		if (k % 2)
			in[n++] = '\n';
		n += (size_t)sprintf(in + n, "[Event \"g%zu\"]\n\n1. e4 e5 "
		    "1-0", k);
		for (j = 0; j < 200000 * (k % 3); j++)
			in[n++] = ' ';
		in[n++] = '\n';
	}
	for (j = 0; j < 500000; j++)	/* and at the end, no line end */
		in[n++] = '\r';
	ck_assert_uint_eq(rebuild_mem(in, n), 6);
	ck_assert_uint_eq(rebuild_file(in, n), 6);
	r = cd_pgn_reader_new_mem(in, n);
	nm = places(r, mem_at, 64);
	cd_pgn_reader_free(r);
	ck_assert_int_eq(pipe(p), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(p[0]);
		for (j = 0; j < n; j += 1000)
			if (write(p[1], in + j, n - j < 1000 ? n - j : 1000) < 0)
				_exit(1);
		_exit(0);
	}
	close(p[1]);
	r = cd_pgn_reader_open_fd(p[0]);
	ck_assert_ptr_nonnull(r);
	np = places(r, pipe_at, 64);
	cd_pgn_reader_free(r);
	close(p[0]);
	ck_assert_int_eq(waitpid(pid, NULL, 0), pid);
	ck_assert_uint_eq(np, nm);
	ck_assert(memcmp(mem_at, pipe_at, nm * sizeof(*mem_at)) == 0);
	free(in);
}
END_TEST

/* Turned off again: no call. */
START_TEST(test_off)
{
	static const char in[] = "junk\n\n[Event \"a\"]\n1. e4 *\n\n";
	struct sink s = { 0 };
	cd_pgn_reader *r = cd_pgn_reader_new_mem(in, sizeof(in) - 1);
	cd_pgn_raw_game g;

	cd_pgn_reader_on_gap(r, gap_cb, &s);
	cd_pgn_reader_on_gap(r, NULL, NULL);
	while (cd_pgn_reader_next(r, &g) == CD_OK)
		;
	ck_assert_uint_eq(s.calls, 0);
	cd_pgn_reader_free(r);
}
END_TEST

static Suite *
pgn_gap_suite(void)
{
	Suite *s = suite_create("pgn_gap");
	TCase *tc = tcase_create("gap");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_rebuild, 0,
	    (int)(sizeof(cases) / sizeof(cases[0])));
	tcase_add_test(tc, test_big);
	tcase_add_test(tc, test_blank_runs);
	tcase_add_test(tc, test_off);
	suite_add_tcase(s, tc);
	return s;
}

TU_SUITES(pgn_gap_suite);
