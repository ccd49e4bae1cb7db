/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_sniff.c: cd_sniff, what the start of an input looks like: a
 * table of starts, every fixture in tests/files by its suffix, and
 * random bytes.
 */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chessdata.h"
#include "check-main.h"

/* A case: its bytes (NUL bytes too) and its kind. */
#define C(s, k)	{ s, sizeof(s) - 1, k }

static const struct {
	const char *text;
	size_t len;
	cd_sniff_kind kind;
} cases[] = {
	C("", CD_SNIFF_EMPTY),
	C("\n  \r\n\t\n", CD_SNIFF_EMPTY),
	C("# only a comment\n% and another\n", CD_SNIFF_EMPTY),
	C("[Event \"x\"]\n[Site \"y\"]\n\n1. e4 *\n", CD_SNIFF_PGN),
	C("\xef\xbb\xbf[Event \"x\"]\n", CD_SNIFF_PGN),
	C("  [ White_2  \"x\"]", CD_SNIFF_PGN),
	C("[Event\t\"cut", CD_SNIFF_PGN),
	C("1. e4 e5 2. Nf3 *\n", CD_SNIFF_PGN),
	C("12...Nf6 13. O-O", CD_SNIFF_PGN),
	C("1.d4", CD_SNIFF_PGN),
	C("{ a comment before the game }\n1. e4 *", CD_SNIFF_PGN),
	C("From: someone\nSubject: games\n\n[Event \"x\"]\n", CD_SNIFF_PGN),
	C("% escape\n[Event \"x\"]\n", CD_SNIFF_PGN),
	C("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n",
	    CD_SNIFF_EPD),
	C("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6;",
	    CD_SNIFF_EPD),
	C("\xef\xbb\xbf" "8/8/8/8/8/8/8/K1k5\tb\t-\t-", CD_SNIFF_EPD),
	C("# suite\n\n4k3/8/8/8/8/8/8/4K3 b", CD_SNIFF_EPD),
	C("a preamble\n4k3/8/8/8/8/8/8/4K3 w - -\n[Event \"x\"]", CD_SNIFF_EPD),
	C("4k3/8/8/8/8/8/8/4K3 w - - id \"a\x00" "b\"; c0 \"a line with a NUL\";\n",
	    CD_SNIFF_EPD),
	/* not quite EPD, not PGN */
	C("4k3/8/8/8/8/8/4K3 w - -\n", CD_SNIFF_TEXT),
	C("4k3/8/8/8/8/8/8/4K3 x - -\n", CD_SNIFF_TEXT),
	C("4k3/8/8/8/8/8/8/4K3 white\n", CD_SNIFF_TEXT),
	C("4k3/8/8/8/8/8/8/4K3\n", CD_SNIFF_TEXT),
	C("id \"perft 1\"\nepd 4k3/8/8/8/8/8/8/4K3 w - -\n", CD_SNIFF_TEXT),
	C("[not a tag]\n", CD_SNIFF_TEXT),
	C("12345. e4\n", CD_SNIFF_TEXT),
	C("1.. e4\n", CD_SNIFF_TEXT),
	C("1. the first rule\n", CD_SNIFF_TEXT),
	C("hello\n", CD_SNIFF_TEXT),
	C("\x00\x01\x02\x03", CD_SNIFF_BINARY),
	C("\x7f" "ELF\x02\x01\x01", CD_SNIFF_BINARY),
	C("\x1b[1mbold\x1b[0m [Event \"x\"]\n", CD_SNIFF_TEXT)
};

START_TEST(test_table)
{
	size_t n = cases[_i].len;

	ck_assert_msg(cd_sniff(cases[_i].text, n) == cases[_i].kind,
	    "case %d (%.30s): %s, expected %s", _i, cases[_i].text,
	    cd_sniff_name(cd_sniff(cases[_i].text, n)),
	    cd_sniff_name(cases[_i].kind));
}
END_TEST

/* A NUL byte or two in a line is that line's damage, not binary data;
 * many control bytes are binary. */
START_TEST(test_nul)
{
	char buf[200];

	memset(buf, 0, sizeof(buf));
	memcpy(buf, "4k3/8/8/8/8/8/8/4K3 w - - id \"", 30);
	memset(buf + 30, 'x', 100);
	memcpy(buf + 130, "\";\n", 3);
	buf[40] = '\0';
	ck_assert_int_eq(cd_sniff(buf, 133), CD_SNIFF_EPD);
	buf[50] = '\0';
	buf[60] = '\001';
	ck_assert_int_eq(cd_sniff(buf, 133), CD_SNIFF_EPD);
	ck_assert_int_eq(cd_sniff(buf, sizeof(buf)), CD_SNIFF_BINARY);
	ck_assert_str_eq(cd_sniff_name(CD_SNIFF_BINARY), "binary data");
	ck_assert_str_eq(cd_sniff_name(CD_SNIFF_PGN), "PGN");
	ck_assert_str_eq(cd_sniff_name(CD_SNIFF_EPD), "EPD");
}
END_TEST

/* Random bytes of many lengths up to a sample are binary data (a
 * tenth of random bytes are control bytes). */
START_TEST(test_random)
{
	unsigned char buf[CD_SNIFF_SAMPLE];
	unsigned long x = 88172645463325252UL;
	size_t n, i, binary = 0, tries = 0;

	for (n = 256; n <= sizeof(buf); n += 61) {
		for (i = 0; i < n; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[i] = (unsigned char)x;
		}
		tries++;
		binary += cd_sniff(buf, n) == CD_SNIFF_BINARY;
	}
	ck_assert_uint_eq(binary, tries);
}
END_TEST

/* Every fixture: .pgn files are PGN, .epd files EPD, perft blocks are
 * neither. */
START_TEST(test_fixtures)
{
	const char *top = getenv("top_srcdir");
	char path[4096], buf[CD_SNIFF_SAMPLE];
	struct dirent *d;
	size_t seen = 0;
	DIR *dir;

	if (top == NULL)
		top = "..";
	snprintf(path, sizeof(path), "%s/tests/files", top);
	dir = opendir(path);
	ck_assert_msg(dir != NULL, "%s", path);
	while ((d = readdir(dir)) != NULL) {
		size_t l = strlen(d->d_name), n;
		cd_sniff_kind want, got;
		FILE *f;

		if (l > 4 && strcmp(d->d_name + l - 4, ".pgn") == 0)
			want = CD_SNIFF_PGN;
		else if (l > 4 && strcmp(d->d_name + l - 4, ".epd") == 0)
			want = CD_SNIFF_EPD;
		else if (l > 6 && strcmp(d->d_name + l - 6, ".perft") == 0)
			want = CD_SNIFF_TEXT;
		else
			continue;
		snprintf(path, sizeof(path), "%s/tests/files/%s", top,
		    d->d_name);
		f = fopen(path, "rb");
		ck_assert_ptr_nonnull(f);
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		got = cd_sniff(buf, n);
		ck_assert_msg(got == want, "%s: %s, expected %s", d->d_name,
		    cd_sniff_name(got), cd_sniff_name(want));
		seen++;
	}
	closedir(dir);
	ck_assert_uint_ge(seen, 15);
}
END_TEST

static Suite *
sniff_suite(void)
{
	Suite *s = suite_create("sniff");
	TCase *tc = tcase_create("sniff");

	tcase_add_loop_test(tc, test_table, 0,
	    (int)(sizeof(cases) / sizeof(cases[0])));
	tcase_add_test(tc, test_nul);
	tcase_add_test(tc, test_random);
	tcase_add_test(tc, test_fixtures);
	suite_add_tcase(s, tc);
	return s;
}

TU_SUITES(sniff_suite);
