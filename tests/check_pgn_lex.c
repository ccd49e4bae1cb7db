/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_pgn_lex.c: the PGN game reader and token lexer.
 *
 * Game boundaries, tags, skipped text, BOM, CRLF, NUL, unclosed comments
 * and block boundaries (a FILE reader must split exactly like a memory
 * reader, however big the games) on handwritten inputs; tokens in a
 * table; and, when $CORPUS is there, counts and invariants over the
 * real quirk files of ../shared/corpus/quirks.
 */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "chessdata.h"
#include "core-util.h"
#include "check-main.h"
#include "rounds.h"

/* ---- helpers ---- */

struct games {
	size_t n;
	char *text[64];
	size_t len[64];
	cd_pgn_raw_game g[64];	/* pointers in g are not kept */
	char *tags[64];		/* "Name=value;..." */
	uint64_t skipped[65];
	unsigned long skipped_line[65];
};

static void
games_free(struct games *gs)
{
	size_t i;

	for (i = 0; i < gs->n; i++) {
		free(gs->text[i]);
		free(gs->tags[i]);
	}
	free(gs);
}

static struct games *
read_all(cd_pgn_reader *r)
{
	struct games *gs = calloc(1, sizeof(*gs));
	cd_pgn_raw_game g;
	cd_status st;

	ck_assert_ptr_nonnull(gs);
	while ((st = cd_pgn_reader_next(r, &g)) == CD_OK) {
		size_t i, tl = 1;
		char *t;

		ck_assert_uint_lt(gs->n, 64);
		gs->text[gs->n] = malloc(g.len + 1);
		memcpy(gs->text[gs->n], g.text, g.len);
		gs->text[gs->n][g.len] = '\0';
		gs->len[gs->n] = g.len;
		for (i = 0; i < g.ntags; i++)
			tl += g.tags[i].name_len + g.tags[i].value_len + 2;
		t = gs->tags[gs->n] = malloc(tl);
		*t = '\0';
		for (i = 0; i < g.ntags; i++) {
			if (memchr(g.tags[i].name, 0, g.tags[i].name_len) ==
			    NULL)
				ck_assert_uint_eq(strlen(g.tags[i].name),
				    g.tags[i].name_len);
			/* the strings one after the other (pgn_read.h) */
			ck_assert_ptr_eq(g.tags[i].value, g.tags[i].name +
			    g.tags[i].name_len + 1);
			if (i > 0)
				ck_assert_ptr_eq(g.tags[i].name,
				    g.tags[i - 1].value +
				    g.tags[i - 1].value_len + 1);
			strcat(t, g.tags[i].name);
			strcat(t, "=");
			strcat(t, g.tags[i].value);
			strcat(t, ";");
		}
		gs->skipped[gs->n] = g.skipped_bytes;
		gs->skipped_line[gs->n] = g.skipped_line;
		gs->g[gs->n] = g;
		gs->n++;
	}
	ck_assert_int_eq(st, CD_EOF);
	gs->skipped[gs->n] = g.skipped_bytes;
	gs->skipped_line[gs->n] = g.skipped_line;
	/* At the end it stays at the end. */
	ck_assert_int_eq(cd_pgn_reader_next(r, &g), CD_EOF);
	return gs;
}

static struct games *
read_mem(const char *s, size_t len)
{
	cd_pgn_reader *r = cd_pgn_reader_new_mem(s, len);
	struct games *gs;

	ck_assert_ptr_nonnull(r);
	gs = read_all(r);
	ck_assert_uint_eq(cd_pgn_reader_tell(r), len);
	cd_pgn_reader_free(r);
	return gs;
}

static struct games *
read_str(const char *s)
{
	return read_mem(s, strlen(s));
}

/* The same input through a FILE (a temporary file). */
static struct games *
read_file(const char *s, size_t len)
{
	FILE *f;
	cd_pgn_reader *r = tu_reader_file(s, len, &f);
	struct games *gs;

	gs = read_all(r);
	ck_assert_uint_eq(cd_pgn_reader_tell(r), len);
	cd_pgn_reader_free(r);
	fclose(f);
	return gs;
}

/* Both readers must agree game for game. */
static void
same_games(const struct games *a, const struct games *b)
{
	size_t i;

	ck_assert_uint_eq(a->n, b->n);
	for (i = 0; i < a->n; i++) {
		ck_assert_uint_eq(a->len[i], b->len[i]);
		ck_assert(memcmp(a->text[i], b->text[i], a->len[i]) == 0);
		ck_assert_str_eq(a->tags[i], b->tags[i]);
		ck_assert_uint_eq(a->g[i].offset, b->g[i].offset);
		ck_assert_uint_eq(a->g[i].line, b->g[i].line);
		ck_assert_uint_eq(a->g[i].col, b->g[i].col);
		ck_assert_uint_eq(a->g[i].movetext, b->g[i].movetext);
		ck_assert_uint_eq(a->g[i].movetext_end, b->g[i].movetext_end);
		ck_assert_uint_eq(a->g[i].movetext_line,
		    b->g[i].movetext_line);
		ck_assert_uint_eq(a->g[i].flags, b->g[i].flags);
		ck_assert_int_eq(a->g[i].result, b->g[i].result);
		ck_assert_uint_eq(a->skipped[i], b->skipped[i]);
	}
	ck_assert_uint_eq(a->skipped[a->n], b->skipped[b->n]);
}

static struct games *
read_both(const char *s)
{
	struct games *a = read_str(s), *b = read_file(s, strlen(s));

	same_games(a, b);
	games_free(b);
	return a;
}

/* The movetext of game i as a string. */
static char *
movetext(const struct games *gs, size_t i)
{
	static char buf[4096];
	size_t n = gs->g[i].movetext_end - gs->g[i].movetext;

	ck_assert_uint_lt(n, sizeof(buf));
	memcpy(buf, gs->text[i] + gs->g[i].movetext, n);
	buf[n] = '\0';
	return buf;
}

/* ---- results ---- */

START_TEST(test_result_parse)
{
	static const struct {
		const char *s;
		cd_pgn_result r;
	} rows[] = {
		{ "1-0", CD_PGN_RESULT_WHITE }, { "0-1", CD_PGN_RESULT_BLACK },
		{ "1/2-1/2", CD_PGN_RESULT_DRAW }, { "*", CD_PGN_RESULT_UNKNOWN },
		{ "1\xe2\x80\x93" "0", CD_PGN_RESULT_WHITE },	/* en dash */
		{ "0\xe2\x80\x94" "1", CD_PGN_RESULT_BLACK },	/* em dash */
		{ "1\xe2\x88\x92" "0", CD_PGN_RESULT_WHITE },	/* minus */
		{ "\xc2\xbd-\xc2\xbd", CD_PGN_RESULT_DRAW },
		{ "\xc2\xbd\xe2\x80\x93\xc2\xbd", CD_PGN_RESULT_DRAW },
		{ "1/2", CD_PGN_RESULT_DRAW }, { "\xc2\xbd", CD_PGN_RESULT_DRAW },
		{ "0-0", CD_PGN_RESULT_NONE }, { "1-1", CD_PGN_RESULT_NONE },
		{ "1-0-0", CD_PGN_RESULT_NONE }, { "", CD_PGN_RESULT_NONE },
		{ "**", CD_PGN_RESULT_NONE }, { "?", CD_PGN_RESULT_NONE },
		{ "1/2-", CD_PGN_RESULT_NONE }, { "10", CD_PGN_RESULT_NONE }
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		ck_assert_msg(cd_pgn_result_parse(rows[i].s,
		    strlen(rows[i].s)) == rows[i].r, "row %zu: %s", i,
		    rows[i].s);
	ck_assert_str_eq(cd_pgn_result_str(CD_PGN_RESULT_DRAW), "1/2-1/2");
	ck_assert_str_eq(cd_pgn_result_str(CD_PGN_RESULT_NONE), "");
}
END_TEST

/* ---- game boundaries ---- */

START_TEST(test_two_games)
{
	const char *in =
	    "[Event \"a\"]\n[Site \"s\"]\n\n1. e4 e5 1-0\n\n"
	    "[Event \"b\"]\n\n1. d4 d5 0-1\n";
	struct games *gs = read_both(in);

	ck_assert_uint_eq(gs->n, 2);
	ck_assert_str_eq(gs->text[0],
	    "[Event \"a\"]\n[Site \"s\"]\n\n1. e4 e5 1-0\n\n");
	ck_assert_str_eq(gs->text[1], "[Event \"b\"]\n\n1. d4 d5 0-1\n");
	ck_assert_str_eq(gs->tags[0], "Event=a;Site=s;");
	ck_assert_str_eq(movetext(gs, 0), "1. e4 e5 1-0");
	ck_assert_str_eq(movetext(gs, 1), "1. d4 d5 0-1");
	ck_assert_uint_eq(gs->g[0].line, 1);
	ck_assert_uint_eq(gs->g[1].line, 6);
	ck_assert_uint_eq(gs->g[0].movetext_line, 4);
	ck_assert_uint_eq(gs->g[0].movetext_col, 1);
	ck_assert_uint_eq(gs->g[1].offset, strlen(gs->text[0]));
	ck_assert_uint_eq(gs->g[0].number, 1);
	ck_assert_uint_eq(gs->g[1].number, 2);
	ck_assert_int_eq(gs->g[0].result, CD_PGN_RESULT_WHITE);
	ck_assert_int_eq(gs->g[1].result, CD_PGN_RESULT_BLACK);
	ck_assert_uint_eq(gs->g[0].flags, 0);
	games_free(gs);
}
END_TEST

START_TEST(test_missing_marker)
{
	/* No marker: the game ends where the next tag section begins. */
	const char *in =
	    "[Event \"a\"]\n1. e4 e5 2. Nf3\n  [Event \"b\"]\n1. d4 *";
	struct games *gs = read_both(in);

	ck_assert_uint_eq(gs->n, 2);
	ck_assert_str_eq(gs->text[0], "[Event \"a\"]\n1. e4 e5 2. Nf3\n");
	ck_assert_str_eq(movetext(gs, 0), "1. e4 e5 2. Nf3");
	ck_assert_uint_eq(gs->g[0].flags, CD_PGN_RAW_NO_RESULT);
	ck_assert_int_eq(gs->g[0].result, CD_PGN_RESULT_NONE);
	ck_assert_str_eq(gs->text[1], "  [Event \"b\"]\n1. d4 *");
	ck_assert_uint_eq(gs->g[1].col, 1);
	ck_assert_uint_eq(gs->g[1].flags, 0);
	games_free(gs);

	/* At the end of input. */
	gs = read_both("[Event \"a\"]\n\n1. e4 e5\n\n");
	ck_assert_uint_eq(gs->n, 1);
	ck_assert_str_eq(movetext(gs, 0), "1. e4 e5");
	ck_assert_uint_eq(gs->len[0], strlen("[Event \"a\"]\n\n1. e4 e5\n\n"));
	ck_assert_uint_eq(gs->g[0].flags, CD_PGN_RAW_NO_RESULT);
	games_free(gs);
}
END_TEST

START_TEST(test_no_blank_lines)
{
	struct games *gs = read_both(
	    "[Event \"a\"]1. e4 1-0[Event \"b\"]1. d4 0-1 [Event \"c\"]*");

	ck_assert_uint_eq(gs->n, 3);
	ck_assert_str_eq(gs->text[0], "[Event \"a\"]1. e4 1-0");
	ck_assert_str_eq(gs->text[1], "[Event \"b\"]1. d4 0-1 ");
	ck_assert_str_eq(gs->text[2], "[Event \"c\"]*");
	ck_assert_uint_eq(gs->g[1].col, 21);
	ck_assert_str_eq(movetext(gs, 2), "*");
	games_free(gs);
}
END_TEST

START_TEST(test_not_fooled)
{
	/* Markers and brackets inside comments, strings, escape lines. */
	const char *in =
	    "[Event \"a\"]\n"
	    "1. e4 { 1-0 * [Event \"x\"] } e5 ; 0-1 { [\n"
	    "%1-0 *\n"
	    "2. Nf3 \"1-0\" (2. d4 *) 1/2-1/2\n"
	    "[Event \"b\"] 1. d4 *\n";
	struct games *gs = read_both(in);

	ck_assert_uint_eq(gs->n, 2);
	/* A marker inside a variation does not end the game. */
	ck_assert_int_eq(gs->g[0].result, CD_PGN_RESULT_DRAW);
	ck_assert_str_eq(movetext(gs, 0),
	    "1. e4 { 1-0 * [Event \"x\"] } e5 ; 0-1 { [\n%1-0 *\n2. Nf3 "
	    "\"1-0\" (2. d4 *) 1/2-1/2");
	games_free(gs);

	/* Without the marker in the variation the game runs on. */
	gs = read_both("1. e4 {*} (1. d4 {1-0}) 1... e5 ; *\n2. Nf3 1/2-1/2\n");
	ck_assert_uint_eq(gs->n, 1);
	ck_assert_int_eq(gs->g[0].result, CD_PGN_RESULT_DRAW);
	games_free(gs);
}
END_TEST

START_TEST(test_untagged)
{
	struct games *gs = read_both(
	    "1. e4 e5 *\n1. d4 d5 1-0\n\n{A comment first} 1. c4 0-1\n"
	    "e4 c5\n");

	ck_assert_uint_eq(gs->n, 4);
	ck_assert_str_eq(gs->text[0], "1. e4 e5 *\n");
	ck_assert_str_eq(gs->text[1], "1. d4 d5 1-0\n\n");
	ck_assert_str_eq(gs->text[2], "{A comment first} 1. c4 0-1\n");
	ck_assert_str_eq(movetext(gs, 2), "{A comment first} 1. c4 0-1");
	ck_assert_str_eq(gs->text[3], "e4 c5\n");
	ck_assert_uint_eq(gs->g[3].flags, CD_PGN_RAW_NO_RESULT);
	ck_assert_uint_eq(gs->g[0].ntags, 0);
	ck_assert_uint_eq(gs->g[3].line, 5);
	games_free(gs);
}
END_TEST

START_TEST(test_skipped)
{
	const char *in =
	    "From: someone@example.org\nSubject: games\n\n"
	    "[Event \"a\"]\n1. e4 *\nnot chess at all\n[Event \"b\"]\n*\n"
	    "trailing words\n";
	struct games *gs = read_both(in);

	ck_assert_uint_eq(gs->n, 2);
	ck_assert_uint_eq(gs->skipped[0], 41);
	ck_assert_uint_eq(gs->skipped_line[0], 1);
	ck_assert_uint_eq(gs->g[0].line, 4);
	ck_assert_uint_eq(gs->skipped[1], 17);
	ck_assert_uint_eq(gs->skipped_line[1], 6);
	ck_assert_uint_eq(gs->skipped[2], 15);
	ck_assert_uint_eq(gs->skipped_line[2], 9);
	ck_assert_str_eq(gs->text[1], "[Event \"b\"]\n*\n");
	games_free(gs);

	/* A comment before the first tag section (pgn-extract's eco.pgn). */
	gs = read_both("{\nAbout this file\n}\n\n[ECO \"A00\"]\n\n1. b4 *\n");
	ck_assert_uint_eq(gs->n, 1);
	ck_assert_uint_eq(gs->skipped[0], 21);
	ck_assert_str_eq(gs->tags[0], "ECO=A00;");
	games_free(gs);

	/* Only blank lines: no game, nothing skipped. */
	gs = read_both("\n \n\t\r\n");
	ck_assert_uint_eq(gs->n, 0);
	ck_assert_uint_eq(gs->skipped[0], 0);
	games_free(gs);
	gs = read_both("");
	ck_assert_uint_eq(gs->n, 0);
	games_free(gs);
}
END_TEST

START_TEST(test_bom_crlf)
{
	const char *in =
	    "\xef\xbb\xbf[Event \"a\"]\r\n[Site \"b\"]\r\n\r\n1. e4 1-0\r\n"
	    "\r\n[Event \"c\"]\r\n\r\n1. d4 *\r\n";
	struct games *gs = read_both(in);

	ck_assert_uint_eq(gs->n, 2);
	ck_assert_str_eq(gs->tags[0], "Event=a;Site=b;");
	ck_assert_str_eq(gs->text[0],
	    "[Event \"a\"]\r\n[Site \"b\"]\r\n\r\n1. e4 1-0\r\n\r\n");
	ck_assert_uint_eq(gs->g[0].offset, 3);
	ck_assert_uint_eq(gs->g[0].line, 1);
	ck_assert_uint_eq(gs->g[0].col, 1);
	ck_assert_uint_eq(gs->g[1].line, 6);
	ck_assert_str_eq(movetext(gs, 0), "1. e4 1-0");
	games_free(gs);
}
END_TEST

/*
 * Control bytes are binary data as NUL is (the standard's section 4.1:
 * no control character but tab and line ends): each byte value at each
 * place of a 40-byte comment (every lane of the vector search, and its
 * scalar tail) marks a game whose first line is a tag pair
 * CD_PGN_RAW_NUL, and cd_pgn_raw_check says which byte, exactly when it
 * is NUL, DEL or a control byte but tab, LF, VT, FF, CR, SUB and ESC;
 * the same bytes without the tag pair are no game but binary data
 * skipped (random bytes with no NUL were a game).
 */
START_TEST(test_control_bytes)
{
	char in[128], want[48];
	unsigned b;
	size_t k;

	for (b = 0; b < 256; b++) {
		bool bin = b == 0x7f || (b < 0x20 && !(b >= 0x09 &&
		    b <= 0x0d) && b != 0x1a && b != 0x1b);

		for (k = 0; k < 40; k++) {
			size_t n = (size_t)sprintf(in, "[Event \"a\"]\n\n1. e4 {");
			struct games *gs;
			cd_pgn_raw_game g;
			cd_pgn_reader *r;
			cd_error err;

			memset(in + n, 'x', 40);
			in[n + k] = (char)b;
			n += 40;
			n += (size_t)sprintf(in + n, "} *\n");
			gs = read_mem(in, n);
			ck_assert_uint_eq(gs->n, 1);
			ck_assert_uint_eq((gs->g[0].flags & CD_PGN_RAW_NUL) != 0,
			    bin);
			games_free(gs);
			r = cd_pgn_reader_new_mem(in, n);
			ck_assert_int_eq(cd_pgn_reader_next(r, &g), CD_OK);
			if (bin) {
				ck_assert_int_eq(cd_pgn_raw_check(&g, &err),
				    CD_ERR_CORRUPT);
				if (b == 0)
					strcpy(want, "binary data (NUL byte)");
				else
					sprintf(want, "binary data (control "
					    "byte 0x%02x)", b);
				ck_assert_str_eq(err.msg, want);
				ck_assert_uint_eq(err.line, 3);
				ck_assert_uint_eq(err.col, 8 + k);
			}
			cd_pgn_reader_free(r);
			/* without the tags: binary data, or a game */
			gs = read_mem(in + 13, n - 13);
			ck_assert_uint_eq(gs->n, bin ? 0 : 1);
			ck_assert_uint_eq(gs->skipped[gs->n], bin ? n - 13 : 0);
			games_free(gs);
		}
	}
}
END_TEST

START_TEST(test_nul)
{
	static const char in[] =
	    "[Event \"a\0b\"]\n1. e4\0 *\0\n[Event \"c\"] *";
	struct games *gs = read_mem(in, sizeof(in) - 1);
	struct games *gf = read_file(in, sizeof(in) - 1);

	same_games(gs, gf);
	ck_assert_uint_eq(gs->n, 2);
	ck_assert_uint_eq(gs->skipped[1], 2);	/* the NUL after the marker */
	ck_assert_uint_eq(gs->g[0].flags & CD_PGN_RAW_NUL, CD_PGN_RAW_NUL);
	ck_assert_int_eq(gs->g[0].result, CD_PGN_RESULT_UNKNOWN);
	games_free(gs);
	games_free(gf);
	{
		cd_pgn_reader *r = cd_pgn_reader_new_mem(in, sizeof(in) - 1);
		cd_pgn_raw_game g;

		ck_assert_int_eq(cd_pgn_reader_next(r, &g), CD_OK);
		ck_assert_uint_eq(g.tags[0].value_len, 3);
		ck_assert(memcmp(g.tags[0].value, "a\0b", 4) == 0);
		cd_pgn_reader_free(r);
	}
}
END_TEST

START_TEST(test_unclosed_comment)
{
	const char *in =
	    "[Event \"a\"]\n1. e4 { oops\n1-0\n\n[Event \"b\"]\n1. d4 *\n";
	struct games *gs = read_both(in);

	ck_assert_uint_eq(gs->n, 2);
	ck_assert_str_eq(gs->text[0], "[Event \"a\"]\n1. e4 { oops\n1-0\n\n");
	ck_assert_uint_eq(gs->g[0].flags,
	    CD_PGN_RAW_UNCLOSED_COMMENT | CD_PGN_RAW_NO_RESULT);
	ck_assert_str_eq(movetext(gs, 0), "1. e4 { oops\n1-0");
	ck_assert_uint_eq(gs->g[1].flags, 0);
	games_free(gs);

	/* To the end of input: every byte is in the game. */
	in = "[Event \"a\"]\n1. e4 { oops 1-0\n\n[Event b] *\n";
	gs = read_both(in);
	ck_assert_uint_eq(gs->n, 1);
	ck_assert_str_eq(gs->text[0], in);
	ck_assert(gs->g[0].flags & CD_PGN_RAW_UNCLOSED_COMMENT);
	games_free(gs);

	/* Never closed, with tag pairs inside: the game ends at the first
	 * (reading goes on there), the games after it are all read. */
	in = "[Event \"a\"]\n\n1. e4 { oops\n\n[Event \"b\"]\n\n"
	    "1. d4 *\n\n[Event \"c\"]\n\n1. c4 ; {\n1-0\n";
	gs = read_both(in);
	ck_assert_uint_eq(gs->n, 3);
	ck_assert_str_eq(gs->text[0], "[Event \"a\"]\n\n1. e4 { oops\n\n");
	ck_assert_uint_eq(gs->g[0].flags,
	    CD_PGN_RAW_UNCLOSED_COMMENT | CD_PGN_RAW_NO_RESULT);
	ck_assert_str_eq(gs->tags[1], "Event=b;");
	ck_assert_uint_eq(gs->g[1].flags, 0);
	ck_assert_str_eq(gs->tags[2], "Event=c;");
	ck_assert_int_eq(gs->g[2].result, CD_PGN_RESULT_WHITE);
	games_free(gs);

	/* Not closed before the next game (a blank line or a marker's
	 * line, then a tag pair): never closed, though a `}` of a later
	 * game would close it; the games after it are read. */
	in = "[Event \"a\"]\n\n1. e4 { oops e5 1-0\n\n[Event \"b\"]\n\n"
	    "1. d4 d5 1-0\n[Event \"c\"]\n\n1. c4 { closed } c5 0-1\n";
	gs = read_both(in);
	ck_assert_uint_eq(gs->n, 3);
	ck_assert_uint_eq(gs->g[0].flags,
	    CD_PGN_RAW_UNCLOSED_COMMENT | CD_PGN_RAW_NO_RESULT);
	ck_assert_str_eq(gs->tags[1], "Event=b;");
	ck_assert_str_eq(gs->tags[2], "Event=c;");
	ck_assert_uint_eq(gs->g[2].flags, 0);
	games_free(gs);
	in = "[Event \"a\"]\n\n1. e4 { oops 1-0\n[Event \"b\"]\n\n"
	    "1. d4 { x } d5 1-0\n";
	gs = read_both(in);
	ck_assert_uint_eq(gs->n, 2);
	ck_assert_str_eq(gs->tags[1], "Event=b;");
	games_free(gs);
}
END_TEST

/*
 * A brace comment ends at its `}` (standard, section 5): lines inside
 * it that look like tag pairs (a game quoted in a comment) stay in its
 * game, before the movetext, in it and after the marker; a `{` in a tag
 * value, in a `;` comment, in an escape line or in a string opens none.
 */
START_TEST(test_comment_tag_lines)
{
	static const char *const one[] = {
		"[Event \"a\"]\n\n{\n[Event \"b\"]\n}\n1. e4 e5 1-0\n",
		"[Event \"a\"]\n\n1. e4 {\n[Event \"b\"]\n[Site \"c\"]\n\n"
		    "1. d4 *\n} e5 1-0\n",
		"[Event \"a\"]\r\n\r\n1. e4 {\r\n[Event \"b\"]\r\n} 1-0\r\n",
		"[Event \"a{\"]\n\n1. e4 ; {\n%{\n\"{\" e5 1-0\n",
		"{\n[Event \"b\"]\n}\n1. e4 e5 1-0\n",
	};
	size_t i;

	for (i = 0; i < sizeof(one) / sizeof(one[0]); i++) {
		struct games *gs = read_both(one[i]);

		ck_assert_msg(gs->n == 1, "input %zu: %zu games", i, gs->n);
		ck_assert_str_eq(gs->text[0], one[i]);
		ck_assert_uint_eq(gs->g[0].flags, 0);
		ck_assert_int_eq(gs->g[0].result, CD_PGN_RESULT_WHITE);
		games_free(gs);
	}
	/* after the marker: the comment's lines go with the game */
	{
		struct games *gs = read_both("[Event \"a\"]\n\n1. e4 1-0\n"
		    "{\n[Event \"x\"]\n}\n\n[Event \"b\"]\n\n1. d4 *\n");

		ck_assert_uint_eq(gs->n, 2);
		ck_assert_str_eq(gs->tags[1], "Event=b;");
		ck_assert_str_eq(gs->text[0], "[Event \"a\"]\n\n1. e4 1-0\n"
		    "{\n[Event \"x\"]\n}\n\n");
		games_free(gs);
	}
}
END_TEST

/*
 * Binary data: a game whose first line is a tag pair keeps a NUL byte
 * (CD_PGN_RAW_NUL, refused by cd_pgn_raw_check at its place); binary
 * data with no game (random bytes with NUL bytes, lines that start
 * tags and games among them) is one skipped run up to the next tag
 * section, marked on the game after it.
 */
START_TEST(test_binary)
{
	char in[70000];
	size_t n = 0, i;
	unsigned x = 7;
	struct games *gs, *gf;
	cd_pgn_reader *r;
	cd_pgn_raw_game g;
	cd_error err;
	static const char game[] = "[Event \"a\"]\n\n1. e4 *\n\n";
	static const char nul[] = "[Event \"n\"]\n\n1. e4 {x\0y}\n *\n\n";

	memcpy(in, game, sizeof(game) - 1);
	n = sizeof(game) - 1;
	in[n++] = '\0';	/* (binary from its first byte) */
	for (i = 0; i < 60000; i++) {
		x = x * 1103515245u + 12345u;
		in[n++] = (char)(x >> 16);
		if (i % 97 == 0)
			in[n++] = '\n';
		if (i % 1001 == 500)
			n += (size_t)sprintf(in + n, "\n[Ev\n1. e4 \n\n");
	}
	in[n++] = '\n';
	memcpy(in + n, nul, sizeof(nul) - 1);
	n += sizeof(nul) - 1;
	memcpy(in + n, game, sizeof(game) - 1);
	n += sizeof(game) - 1;
	gs = read_mem(in, n);
	gf = read_file(in, n);
	same_games(gs, gf);
	ck_assert_uint_eq(gs->n, 3);
	ck_assert_uint_eq(gs->g[0].flags, 0);
	ck_assert_uint_eq(gs->g[1].flags, CD_PGN_RAW_NUL |
	    CD_PGN_RAW_SKIPPED_BINARY);
	ck_assert_uint_gt(gs->skipped[1], 60000);
	ck_assert_uint_eq(gs->g[2].flags, 0);
	games_free(gs);
	games_free(gf);

	r = cd_pgn_reader_new_mem(nul, sizeof(nul) - 1);
	ck_assert_int_eq(cd_pgn_reader_next(r, &g), CD_OK);
	ck_assert_int_eq(cd_pgn_raw_check(&g, &err), CD_ERR_CORRUPT);
	ck_assert_str_eq(err.msg, "binary data (NUL byte)");
	ck_assert_uint_eq(err.line, 3);
	ck_assert_uint_eq(err.col, 9);
	cd_pgn_reader_free(r);

	/* binary data at the end: the final CD_EOF tells */
	r = cd_pgn_reader_new_mem("1. e4 *\n\0\0[x\n", 13);
	ck_assert_int_eq(cd_pgn_reader_next(r, &g), CD_OK);
	ck_assert_int_eq(cd_pgn_reader_next(r, &g), CD_EOF);
	ck_assert_uint_eq(g.flags, CD_PGN_RAW_SKIPPED_BINARY);
	ck_assert_uint_eq(g.skipped_bytes, 5);
	cd_pgn_reader_free(r);
}
END_TEST

/* Read in with a limit, from memory and through a file; the same. */
static struct games *
read_limited(const char *in, size_t len, size_t limit)
{
	cd_pgn_reader *r = cd_pgn_reader_new_mem(in, len);
	struct games *a, *b;
	FILE *f;

	cd_pgn_reader_set_limit(r, limit);
	a = read_all(r);
	cd_pgn_reader_free(r);
	r = tu_reader_file(in, len, &f);
	cd_pgn_reader_set_limit(r, limit);
	b = read_all(r);
	cd_pgn_reader_free(r);
	fclose(f);
	same_games(a, b);
	games_free(b);
	return a;
}

/*
 * A game larger than the limit: its first bytes, CD_PGN_RAW_TOO_LARGE
 * (refused by cd_pgn_raw_check), the rest skipped up to the next tag
 * section (not at a blank line in it), and the games after it read.  A
 * comment not closed within the limit is never closed.  Games under
 * the limit frame as without one.
 */
START_TEST(test_limit)
{
	static char in[1 << 20];
	size_t n = 0, i;
	struct games *gs;
	cd_pgn_raw_game g;
	cd_error err;

	n += (size_t)sprintf(in + n, "[Event \"a\"]\n\n1. e4 *\n\n"
	    "[Event \"big\"]\n\n1. e4 {");
	for (i = 0; i < 600000; i++)
		in[n++] = i % 70 == 69 ? '\n' : i % 5000 == 0 ? '\n' : 'c';
	n += (size_t)sprintf(in + n, "}\n\n1. d4 1-0\n\n"
	    "[Event \"c\"]\n\n1. c4 *\n");
	gs = read_limited(in, n, 100000);
	ck_assert_uint_eq(gs->n, 3);
	ck_assert_uint_eq(gs->g[1].flags & CD_PGN_RAW_TOO_LARGE,
	    CD_PGN_RAW_TOO_LARGE);
	ck_assert_uint_eq(gs->len[1], 100000);
	ck_assert_str_eq(gs->tags[2], "Event=c;");
	ck_assert_uint_eq(gs->g[2].flags, 0);
	ck_assert_uint_eq(gs->len[0] + gs->len[1] + gs->skipped[2] +
	    gs->len[2], n);
	g = gs->g[1];
	g.text = gs->text[1];
	ck_assert_int_eq(cd_pgn_raw_check(&g, &err), CD_ERR_RANGE);
	games_free(gs);

	/* the same without a limit that matters: as with none */
	gs = read_limited(in, n, 1 << 20);
	ck_assert_uint_eq(gs->n, 3);
	ck_assert_uint_eq(gs->g[1].flags, CD_PGN_RAW_NO_RESULT * 0);
	games_free(gs);

	/* a comment not closed within the limit: never closed, the game
	 * ends at the tag pair in it */
	n = (size_t)sprintf(in, "[Event \"a\"]\n\n1. e4 { x\n\n"
	    "[Event \"b\"]\n\n1. d4 *\n\n");
	for (i = 0; i < 300000; i++)
		in[n++] = i % 70 == 69 ? '\n' : 'c';
	n += (size_t)sprintf(in + n, "}\n");
	gs = read_limited(in, n, 100000);
	ck_assert_uint_ge(gs->n, 2);
	ck_assert_uint_eq(gs->g[0].flags,
	    CD_PGN_RAW_UNCLOSED_COMMENT | CD_PGN_RAW_NO_RESULT);
	ck_assert_str_eq(gs->tags[1], "Event=b;");
	games_free(gs);
}
END_TEST

/*
 * A long line that is not PGN is skipped in pieces: through a pipe
 * (the reader's buffer is never grown for it), 8 MiB of one line of
 * letters and one of NUL bytes, each counted, then a game.
 */
START_TEST(test_long_junk)
{
	int k;

	for (k = 0; k < 2; k++) {
		size_t len = (size_t)8 << 20, i;
		char *in = malloc(len + 64);
		struct games *a;

		ck_assert_ptr_nonnull(in);
		memset(in, k == 0 ? 'a' : '\0', len);
		i = len + (size_t)sprintf(in + len, "\n[Event \"z\"]\n\n*\n");
		a = read_file(in, i);
		ck_assert_uint_eq(a->n, 1);
		ck_assert_uint_eq(a->skipped[0], len + 1);
		ck_assert_uint_eq(!!(a->g[0].flags & CD_PGN_RAW_SKIPPED_BINARY),
		    k);
		games_free(a);
		free(in);
	}
}
END_TEST

START_TEST(test_tags)
{
	struct games *gs = read_both(
	    "[Event \"a\"] [Site \"b\"][Date\n  \"1993.??.??\"\n]\n"
	    "[Round\"3\"]\n"
	    "[White \"Joe \"the kid\" Bloggs\"]\n"
	    "[Black \"x \\\"y\\\" \\\\ z\"]\n"
	    "[Annotator \"Tournament \\\"]\n"
	    "[BlackType: \"program\"]\n"
	    "[GreatestGameEverPlayed? \"True\"]\n"
	    "[Opening \"closing ] opening [x]\"]\n"
	    "[ECO \"\"]\n"
	    "1. e4 *\n");

	ck_assert_uint_eq(gs->n, 1);
	ck_assert_str_eq(gs->tags[0],
	    "Event=a;Site=b;Date=1993.??.??;Round=3;"
	    "White=Joe \"the kid\" Bloggs;Black=x \"y\" \\ z;"
	    "Annotator=Tournament \\;BlackType:=program;"
	    "GreatestGameEverPlayed?=True;Opening=closing ] opening [x];"
	    "ECO=;");
	ck_assert_uint_eq(gs->g[0].flags, 0);
	ck_assert_uint_eq(gs->g[0].movetext_line, 12);
	games_free(gs);
}
END_TEST

/* The n tags of g at the lines and columns of want, then the movetext
 * at want[n]. */
static void
check_positions(const cd_pgn_raw_game *g, size_t n,
    const unsigned long want[][2])
{
	size_t i;

	ck_assert_uint_eq(g->ntags, n);
	for (i = 0; i < n; i++) {
		ck_assert_uint_eq(g->tags[i].line, want[i][0]);
		ck_assert_uint_eq(g->tags[i].col, want[i][1]);
	}
	ck_assert_uint_eq(g->movetext_line, want[n][0]);
	ck_assert_uint_eq(g->movetext_col, want[n][1]);
}

START_TEST(test_tag_positions)
{
	cd_pgn_reader *r;
	cd_pgn_raw_game g;
	const char *in = "\n\n[Event \"a\"]  [Site \"b\"]\n\n [Round \"1\"] e4 *";
	static const unsigned long want[][2] = {
	    { 3, 1 }, { 3, 14 }, { 5, 2 }, { 5, 14 }
	};

	r = cd_pgn_reader_new_mem(in, strlen(in));
	ck_assert_int_eq(cd_pgn_reader_next(r, &g), CD_OK);
	check_positions(&g, 3, want);
	ck_assert_str_eq(cd_pgn_raw_tag(&g, "Site")->value, "b");
	ck_assert_ptr_null(cd_pgn_raw_tag(&g, "White"));
	cd_pgn_reader_free(r);
}
END_TEST

/* Tags across lines, a bad tag, and a game that starts in the middle
 * of a line: the positions of the tags and of the movetext. */
START_TEST(test_tag_positions_lines)
{
	cd_pgn_reader *r;
	cd_pgn_raw_game g;
	const char *in = "[Event\n\"a\"\n] [Site \"b\"]\n[White  \"c\"]\n\n"
	    "e4 1-0 [Bad] [Event \"d\"] [Round\n  \"e\"] [Black \"f\"]\n"
	    "  d4 *\n";
	static const unsigned long first[][2] = {
	    { 1, 1 }, { 3, 3 }, { 4, 1 }, { 6, 1 }
	}, second[][2] = {
	    { 6, 14 }, { 6, 26 }, { 7, 8 }, { 8, 3 }
	};

	r = cd_pgn_reader_new_mem(in, strlen(in));
	ck_assert_int_eq(cd_pgn_reader_next(r, &g), CD_OK);
	check_positions(&g, 3, first);
	ck_assert_int_eq(cd_pgn_reader_next(r, &g), CD_OK);
	ck_assert_uint_eq(g.line, 6);
	ck_assert_uint_eq(g.col, 8);
	ck_assert(g.flags & CD_PGN_RAW_BAD_TAG);
	check_positions(&g, 3, second);
	ck_assert_str_eq(g.tags[1].value, "e");
	ck_assert_int_eq(cd_pgn_reader_next(r, &g), CD_EOF);
	cd_pgn_reader_free(r);
}
END_TEST

/* The one game of in[0, len) (the reader must find exactly one). */
static cd_pgn_raw_game
one_game(cd_pgn_reader **r, const char *in, size_t len)
{
	cd_pgn_raw_game g;

	*r = cd_pgn_reader_new_mem(in, len);
	ck_assert_ptr_nonnull(*r);
	ck_assert_int_eq(cd_pgn_reader_next(*r, &g), CD_OK);
	return g;
}

/*
 * The reader's vector scans (sixteen bytes at a time) against its byte
 * loops, which take over where fewer than sixteen bytes are left: every
 * byte value at every place of a block, in a tag name, in a tag value
 * and in movetext.
 *   - A name "N..N" c "N" reads as one tag of that name exactly when c
 *     may be in a name (printing, not `"`, `[`, `]`).
 *   - A value "a..a" c "b" reads as itself for every c but a line end
 *     (a `"` that does not close and a lone `\` are kept).
 *   - Movetext "Z..Z" c " 1-0": the game ends where (and as) it ends
 *     with one Z, where the bytes after c are too few for a vector,
 *     and a second game follows or not as there.
 */
START_TEST(test_scan_bytes)
{
	char in[256], want[64], first[128] = "";
	int c, k, bad = 0;

	for (c = 0; c < 256; c++) {
		bool name_byte = c > 0x20 && c != '"' && c != '[' && c != ']' &&
		    c != 0x7f;
		cd_pgn_raw_game ref, g2;
		size_t ref_mt = 0;
		bool ref_more = false, more;

		memset(&ref, 0, sizeof(ref));

		for (k = 0; k < 40; k++) {
			cd_pgn_reader *r;
			cd_pgn_raw_game g;
			size_t n, mt;
			bool got;

			/* a name */
			n = (size_t)sprintf(in, "[%.*s", k, "NNNNNNNNNNNNNNNNNNNN"
			    "NNNNNNNNNNNNNNNNNNNN");
			in[n++] = (char)c;
			n += (size_t)sprintf(in + n, "N \"v\"]\n\n*\n");
			if (c == 0 || c == 0x7f || (c < 0x20 && !(c >= 0x09 &&
			    c <= 0x0d) && c != 0x1a && c != 0x1b)) {
				/* (a binary byte, and its first line is no
				 * tag pair: binary data, no game) */
				r = cd_pgn_reader_new_mem(in, n);
				ck_assert_int_eq(cd_pgn_reader_next(r, &g),
				    CD_EOF);
				ck_assert(g.flags & CD_PGN_RAW_SKIPPED_BINARY);
				ck_assert_uint_eq(g.skipped_bytes, n);
				cd_pgn_reader_free(r);
				continue;
			}
			g = one_game(&r, in, n);
			snprintf(want, sizeof(want), "%.*s%cN", k,
			    "NNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNN", c);
			got = g.ntags == 1 && g.tags[0].name_len ==
			    (size_t)k + 2 && memcmp(g.tags[0].name, want,
			    (size_t)k + 2) == 0 && strcmp(g.tags[0].value,
			    "v") == 0;
			if (got != name_byte && bad++ == 0)
				snprintf(first, sizeof(first),
				    "name, byte %d at %d", c, k);
			cd_pgn_reader_free(r);

			/* a value */
			n = (size_t)sprintf(in, "[Event \"%.*s", k,
			    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
			in[n++] = (char)c;
			n += (size_t)sprintf(in + n, "b\"]\n\n*\n");
			g = one_game(&r, in, n);
			memcpy(want, in + 8, (size_t)k + 2);
			got = g.ntags == 1 && g.tags[0].value_len ==
			    (size_t)k + 2 && memcmp(g.tags[0].value, want,
			    (size_t)k + 2) == 0;
			if (got != (c != '\n') && bad++ == 0)
				snprintf(first, sizeof(first),
				    "value, byte %d at %d", c, k);
			cd_pgn_reader_free(r);

			/* movetext */
			n = (size_t)sprintf(in, "[Event \"x\"]\n%.*s", k + 1,
			    "ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ");
			in[n++] = (char)c;
			n += (size_t)sprintf(in + n, " 1-0\n");
			g = one_game(&r, in, n);
			mt = g.movetext_end - g.movetext - (size_t)k;
			more = cd_pgn_reader_next(r, &g2) == CD_OK;
			if (k == 0) {
				ref = g;
				ref_mt = mt;
				ref_more = more;
			} else if ((g.len - (size_t)k != ref.len ||
			    mt != ref_mt || g.result != ref.result ||
			    g.flags != ref.flags || more != ref_more) &&
			    bad++ == 0) {
				snprintf(first, sizeof(first),
				    "movetext, byte %d at %d", c, k);
			}
			cd_pgn_reader_free(r);
		}
	}
	ck_assert_msg(bad == 0, "%d cases read wrong, first: %s", bad,
	    first);
}
END_TEST

/*
 * The reader's scan of brace comments against where a comment must
 * end: a comment of k bytes of `a` with, after j of them, a `}` then
 * a marker (the game ends there, 1-0, not at the later "} 0-1"), a
 * line end then a tag pair (a line of the comment: the `}` after ends
 * it, 1-0), or a plain line end (the same).
 */
START_TEST(test_comment_scan)
{
	static const char *const mid[] = {
		"} 1-0\n", "\n[Event \"z\"]\n", "\n"
	};
	static const char *const end[] = {
		"} e5 0-1\n", "} 1-0\n", "} 1-0\n"
	};
	char in[512], a[200];
	int k, j, x, bad = 0;
	char first[64] = "";

	memset(a, 'a', sizeof(a));
	for (k = 0; k < 160; k++)
		for (j = 0; j <= k; j++)
			for (x = 0; x < 3; x++) {
				cd_pgn_reader *r;
				cd_pgn_raw_game g, g2;
				size_t n;
				bool ok;

				n = (size_t)sprintf(in, "[Event \"x\"]\n"
				    "1. e4 {%.*s%s%.*s%s", j, a, mid[x],
				    k - j, a, end[x]);
				g = one_game(&r, in, n);
				(void)g2;
				ok = g.flags == 0 && g.result ==
				    CD_PGN_RESULT_WHITE && (x == 0 ||
				    g.len == n);
				if (!ok && bad++ == 0)
					snprintf(first, sizeof(first),
					    "k %d, j %d, case %d", k, j, x);
				cd_pgn_reader_free(r);
			}
	ck_assert_msg(bad == 0, "%d cases read wrong, first: %s", bad,
	    first);
}
END_TEST

/* A step of a linear congruential sequence. */
static unsigned
lcg(unsigned *x)
{
	*x = *x * 1103515245u + 12345u;
	return *x >> 16;
}

/*
 * The game reader's quick read of a tag in its usual form against
 * cd__scan_tag, which the token lexer uses for every tag: random tags
 * in that form and near it (other white space, names and values with
 * bytes that end or change them, `\`, `"` and `]` in the value, other
 * closings), at lengths on both sides of sixteen.  Each reads in both
 * or in neither, with the same name, value, position, and the same
 * place where what follows it starts.
 */
START_TEST(test_tags_quick)
{
	static const char *const pre[] = { "", "", "", "", " ", "\n" };
	static const char *const sep[] = { " ", " ", " ", " ", "", "  ",
	    "\t", "\n", " \n " };
	static const char *const close[] = { "\"]", "\"]", "\"]", "\"]",
	    "\" ]", "\"", "\"\n]", "]", "\"]x", "\"\r\n]", "\"]]" };
	static const char name_bytes[] = "NNNNNNab\xc3\xa9_ \"]\t";
	static const char value_bytes[] = "vvvvvvvvva ]\\\"\r\t\xc3";
	unsigned x = 2024;
	size_t quick = 0, other = 0;
	int round;

#define PICK(a)	((a)[lcg(&x) % (sizeof(a) / sizeof((a)[0]))])
#define BYTE(a)	((a)[lcg(&x) % (sizeof(a) - 1)])
	for (round = 0; round < 40000; round++) {
		char in[256], val[128];
		size_t n = 0, k, len;
		/* every other round in the usual form, but for the bytes */
		const char *pr = round % 2 ? PICK(pre) : "";
		const char *sp = round % 2 ? PICK(sep) : " ";
		const char *cl = round % 2 ? PICK(close) : "\"]";
		bool plain = *pr == '\0' && strcmp(sp, " ") == 0 &&
		    strcmp(cl, "\"]") == 0;
		cd_pgn_reader *r;
		cd_pgn_raw_game g;
		cd_pgn_lexer lx;
		cd_pgn_token t;
		bool read;

		in[n++] = '[';
		n += (size_t)sprintf(in + n, "%s", pr);
		len = 1 + lcg(&x) % 20;
		for (k = 0; k < len; k++) {
			char c = round % 4 == 0 ? BYTE(name_bytes) : 'N';

			plain = plain && c != ' ' && c != '"' && c != '[' &&
			    c != ']' && c != '\t';
			in[n++] = c;
		}
		n += (size_t)sprintf(in + n, "%s\"", sp);
		len = lcg(&x) % 40;
		for (k = 0; k < len; k++) {
			char c = round % 3 == 0 ? BYTE(value_bytes) : 'v';

			plain = plain && c != '\\' && c != '"';
			in[n++] = c;
		}
		n += (size_t)sprintf(in + n, "%s\n\n*\n", cl);
		if (plain)
			quick++;
		else
			other++;

		cd_pgn_lex_init(&lx, in, n, 1, 1);
		read = cd_pgn_lex_next(&lx, &t) == CD_PGN_TOK_TAG;
		r = cd_pgn_reader_new_mem(in, n);
		ck_assert_ptr_nonnull(r);
		ck_assert_int_eq(cd_pgn_reader_next(r, &g), CD_OK);
		ck_assert_msg(plain <= read, "%.*s", (int)n, in);
		if (!read) {
			ck_assert_msg(g.ntags == 0, "%.*s", (int)n, in);
			cd_pgn_reader_free(r);
			continue;
		}
		ck_assert_msg(g.ntags == 1 && g.text == in, "%.*s", (int)n,
		    in);
		ck_assert_uint_eq(g.tags[0].name_len, t.len);
		ck_assert_mem_eq(g.tags[0].name, t.text, t.len);
		ck_assert_uint_eq(g.tags[0].value_len, cd_pgn_tag_value(&t,
		    val));
		ck_assert_mem_eq(g.tags[0].value, val, g.tags[0].value_len);
		ck_assert_uint_eq(g.tags[0].line, t.line);
		ck_assert_uint_eq(g.tags[0].col, t.col);
		/* what follows: the movetext, from the lexer's next token */
		ck_assert_int_ne(cd_pgn_lex_next(&lx, &t), CD_PGN_TOK_END);
		ck_assert_uint_eq(g.movetext, (size_t)(t.raw - in));
		ck_assert_uint_eq(g.movetext_line, t.line);
		ck_assert_uint_eq(g.movetext_col, t.col);
		cd_pgn_reader_free(r);
	}
#undef PICK
#undef BYTE
	ck_assert_uint_gt(quick, 5000);
	ck_assert_uint_gt(other, 5000);
}
END_TEST

/* A tag line [N... "v..."] with a name of nl bytes and a value of vl
 * (no line end) to in + n: the new n. */
static size_t
tag_line_to(char *in, size_t n, size_t nl, size_t vl)
{
	in[n++] = '[';
	memset(in + n, 'N', nl);
	n += nl;
	in[n++] = ' ';
	in[n++] = '"';
	memset(in + n, 'v', vl);
	n += vl;
	in[n++] = '"';
	in[n++] = ']';
	return n;
}

/*
 * The usual tag lines' loop (frame_tags.c, tag_run), which finds a
 * name's end and a value's in sixteen or thirty-two bytes at once: a
 * tag line [N... "v..."] of each name length (1 to 15) and value length
 * (0 to 34), with one byte of a set put at each place of its name, its
 * separator, its value and its close, and enough movetext after it for
 * the loop: the reader's tag must be the lexer's, or none where the
 * lexer reads none; and the game parsed from it must be the one parsed
 * from a copy whose tag is the caller's (which the parser checks: a tag
 * the loop read is copied into the game unchecked, tags.c tags_block,
 * and a byte it should not have taken, a tab, stays in the game).
 */
START_TEST(test_tag_line_bytes)
{
	static const unsigned char bytes[] = { 'a', '_', ' ', '"', '[', ']',
	    '\\', '\t', '\r', 0x01, 0x1f, 0x7f, 0x80, 0xc3, '{', '%' };
	static const char after[] = "\n\n1. e4 { a comment long enough "
	    "that the reader's tag loop reads the line before } *\n";
	size_t nl = (size_t)_i + 1, vl, j, b, read_n = 0;
	cd_game *ga = cd_game_new(), *gb = cd_game_new();
	cd_pgn_raw_game copy;
	cd_pgn_tag mine;
	cd_status st;

	ck_assert_ptr_nonnull(ga);
	ck_assert_ptr_nonnull(gb);

	for (vl = 0; vl < 35; vl++)
		for (j = 0; j < nl + vl + 4; j++)
			for (b = 0; b < sizeof(bytes); b++) {
				char in[256], val[128];
				size_t n = 0;
				cd_pgn_reader *r;
				cd_pgn_raw_game g;
				cd_pgn_lexer lx;
				cd_pgn_token t;
				bool read;

				n = tag_line_to(in, n, nl, vl);
				in[1 + j] = (char)bytes[b];
				memcpy(in + n, after, sizeof(after) - 1);
				n += sizeof(after) - 1;

				cd_pgn_lex_init(&lx, in, n, 1, 1);
				read = cd_pgn_lex_next(&lx, &t) ==
				    CD_PGN_TOK_TAG;
				r = cd_pgn_reader_new_mem(in, n);
				TU_CHECK(r != NULL, "no reader");
				/* (a binary byte where a name starts: no
				 * game, the input is not text) */
				if (cd_pgn_reader_next(r, &g) != CD_OK) {
					TU_CHECK(!read, "%.*s", (int)n, in);
					cd_pgn_reader_free(r);
					continue;
				}
				if (!read) {
					TU_CHECK(g.ntags == 0, "%.*s", (int)n,
					    in);
					cd_pgn_reader_free(r);
					continue;
				}
				read_n++;
				TU_CHECK(g.ntags == 1 && g.text == in,
				    "%.*s", (int)n, in);
				TU_CHECK(g.tags[0].name_len == t.len &&
				    memcmp(g.tags[0].name, t.text, t.len) == 0,
				    "name: %.*s", (int)n, in);
				TU_CHECK(g.tags[0].value_len ==
				    cd_pgn_tag_value(&t, val) &&
				    memcmp(g.tags[0].value, val,
				    g.tags[0].value_len) == 0, "%.*s", (int)n,
				    in);
				TU_CHECK(g.tags[0].line == t.line &&
				    g.tags[0].col == t.col, "line %lu:%lu, "
				    "the lexer's %lu:%lu: %.*s", g.tags[0].line,
				    g.tags[0].col, t.line, t.col, (int)n, in);
				TU_CHECK(cd_pgn_lex_next(&lx, &t) !=
				    CD_PGN_TOK_END, "%.*s", (int)n, in);
				TU_CHECK(g.movetext == (size_t)(t.raw - in),
				    "movetext at %zu, the lexer's at %zu: %.*s",
				    g.movetext, (size_t)(t.raw - in), (int)n,
				    in);
				copy = g;
				mine = g.tags[0];
				copy.tags = &mine;
				st = cd_pgn_parse(ga, &g, NULL, NULL);
				TU_CHECK(cd_pgn_parse(gb, &copy, NULL, NULL) ==
				    st, "%.*s", (int)n, in);
				if (st == CD_OK) {
					const char *va, *vb;
					size_t la, lb;

					va = cd_game_tag_value(ga, mine.name,
					    &la);
					vb = cd_game_tag_value(gb, mine.name,
					    &lb);
					TU_CHECK(va != NULL && vb != NULL &&
					    la == lb && memcmp(va, vb, la) == 0,
					    "%.*s", (int)n, in);
				}
				cd_pgn_reader_free(r);
			}
	ck_assert_uint_gt(read_n, 0);
	cd_game_free(ga);
	cd_game_free(gb);
}
END_TEST

/*
 * Whether the reader's tag loop (frame_tags.c, tag_lines) takes the line
 * at l, in input that ends at e, by its rule: 48 bytes or more from l
 * on, `[`, a name of 1 to 15 bytes none of which ends a name (a control
 * byte, space, `"`, `[`, `]`, DEL), a space and `"`, a value of fewer
 * than 128 bytes none of which stops it (a control byte, `"`, `\`,
 * DEL; 176 bytes from l on when it is 16 or longer), `"]`.  Its end
 * (after the `]`) in *end.
 */
static bool
loop_takes(const char *l, const char *e, const char **end)
{
	size_t nl = 0, vl = 0;
	const unsigned char *u = (const unsigned char *)l;

	if (e - l < 48 || l[0] != '[')
		return false;
	while (nl < 16 && u[1 + nl] > ' ' && u[1 + nl] != '"' &&
	    u[1 + nl] != '[' && u[1 + nl] != ']' && u[1 + nl] != 0x7f)
		nl++;
	if (nl == 0 || nl == 16 || l[1 + nl] != ' ' || l[2 + nl] != '"')
		return false;
	u += nl + 3;
	while (vl < 128 && u[vl] >= ' ' && u[vl] != '"' && u[vl] != '\\' &&
	    u[vl] != 0x7f)
		vl++;
	if (vl == 128 || (vl >= 16 && e - l < 176) || u[vl] != '"' ||
	    u[vl + 1] != ']')
		return false;
	*end = (const char *)u + vl + 2;
	return true;
}

/* How many tag lines from in on the loop takes (loop_takes), each after
 * the one before and its LF or CR LF. */
static size_t
loop_lines(const char *in, const char *e)
{
	const char *l = in, *end;
	size_t k = 0;

	while (loop_takes(l, e, &end)) {
		k++;
		end += *end == '\r';
		if (e - end < 2 || end[0] != '\n' || end[1] != '[')
			break;
		l = end + 1;
	}
	return k;
}

/* Tag lines [P "..."] of off bytes in all (0, or 7 or more) to in, each
 * value shorter than sixteen bytes (the tag loop takes them whatever
 * follows): off. */
static size_t
prefix_lines(char *in, size_t off)
{
	size_t n = 0, len;

	while (n < off) {
		len = off - n;
		if (len > 22)
			len = len - 7 >= 20 ? 20 : len - 7;
		memcpy(in + n, "[P \"", 4);
		memset(in + n + 4, 'p', len - 7);
		memcpy(in + n + len - 3, "\"]\n", 3);
		n += len;
	}
	return n;
}

/*
 * The tags of the reader's first game of the n bytes at in (tag lines
 * from its start, off bytes of them before the one looked at) must be
 * the lexer's before its movetext, each with its name, value, line and
 * column (unless a line of the section is not a tag,
 * CD_PGN_RAW_BAD_TAG), and the game noted plain exactly when the tag
 * loop's rule takes each of its tags (loop_lines): how many were read.
 */
static size_t
reader_tags_as_lexer(const char *in, size_t n, unsigned off)
{
	char val[256];
	size_t k = 0;
	cd_pgn_reader *r;
	cd_pgn_raw_game g;
	cd_pgn_lexer lx;
	cd_pgn_token t;

	r = cd_pgn_reader_new_mem(in, n);
	TU_CHECK(r != NULL, "no reader");
	/* (a line that is not a tag in the section: the lexer may read
	 * what follows otherwise) */
	if (cd_pgn_reader_next(r, &g) != CD_OK ||
	    (g.flags & CD_PGN_RAW_BAD_TAG)) {
		cd_pgn_reader_free(r);
		return 0;
	}
	cd_pgn_lex_init(&lx, in, n, 1, 1);
	while (cd_pgn_lex_next(&lx, &t) != CD_PGN_TOK_END &&
	    t.raw < g.text + g.movetext) {
		if (t.type != CD_PGN_TOK_TAG)
			continue;
		TU_CHECK(k < g.ntags && g.tags[k].name_len == t.len &&
		    memcmp(g.tags[k].name, t.text, t.len) == 0 &&
		    g.tags[k].value_len == cd_pgn_tag_value(&t, val) &&
		    memcmp(g.tags[k].value, val, g.tags[k].value_len) == 0 &&
		    g.tags[k].line == t.line && g.tags[k].col == t.col,
		    "off %u, tag %zu: %.*s", off, k, (int)n, in);
		k++;
	}
	TU_CHECK(k == g.ntags, "off %u: %zu tags, the lexer %zu: %.*s",
	    off, g.ntags, k, (int)n, in);
	/* (plain: every tag taken by the loop, cd_pgn_raw_copied) */
	TU_CHECK(tu_noted_plain(&g) == (g.ntags > 0 &&
	    loop_lines(g.text, in + n) == g.ntags), "off %u: plain %d: %.*s",
	    off, tu_noted_plain(&g), (int)n, in);
	cd_pgn_reader_free(r);
	return k;
}

/*
 * The usual tag lines' loop reads the names and values of several lines
 * from the masks of one window of 64 bytes (with AVX2): a tag line as in
 * test_tag_line_bytes, one byte of a set put at one of its places or
 * none, after lines that put it at each place of the window (0, the
 * window's first line; 7 to 47, in the window; 48 and 63, a new window
 * at it) and before one more tag line, every name length, the value
 * lengths around the window's end and up to past the loop's 127: the
 * tags of the reader's first game must be the lexer's before its
 * movetext, each with its name, value, line and column (unless a line
 * of the section is not a tag, CD_PGN_RAW_BAD_TAG), and the game noted
 * plain exactly when the loop's rule takes each of its tags
 * (loop_lines): with enough input after the lines for the longest
 * value, with the line the last and fewer than 176 bytes after it, and
 * with short tag lines after it up to fewer than 48 bytes from the end;
 * each with the line ended by LF and by CR LF.  (The loop reads a
 * value that the window does not hold from a window at the value, and
 * on from 64 bytes into it, and the lines after it from there.)
 */
START_TEST(test_tag_line_window)
{
	static const unsigned offs[] = { 0, 7, 16, 24, 29, 30, 31, 32, 33,
	    40, 45, 46, 47, 48, 63 };
	static const unsigned vls[] = { 0, 1, 2, 5, 13, 14, 15, 16, 17, 18,
	    20, 25, 28, 29, 30, 31, 32, 33, 34, 40, 45, 46, 47, 48, 60, 63,
	    64, 65, 80, 100, 110, 111, 112, 126, 127, 128, 129 };
	static const unsigned char bytes[] = { '"', '\\', 0x01, ' ', ']',
	    '\r', '\n', 'x' };
	static const char after_long[] = "[S \"s\"]\n\n1. e4 { a comment "
	    "long enough that the reader's tag loop reads the lines before "
	    "it, its value of up to 127 bytes and more: "
	    "................................................................"
	    "........................................ } *\n";
	/* (the line the last: fewer than 176 bytes from it to the end
	 * when it is shorter than 125) */
	static const char after_short[] = "\n1. e4 { a comment of fifty "
	    "bytes or so........ } *\n";
	/* (short tag lines after it, the last ones fewer than 48 bytes
	 * from the end: the loop stops at the first of those) */
	static const char after_tags[] = "[S \"s\"]\n[T \"t\"]\n[U \"u\"]\n"
	    "\n*\n";
	static const char *const afters[] = { after_long, after_short,
	    after_tags };
	unsigned off = offs[_i % 15];
	const char *after = afters[_i / 15 % 3];
	bool crlf = _i >= 45;
	size_t after_len = strlen(after);
	size_t nl, vi, j, b, read_n = 0;

	/* (every fourth window under the sanitizers: each offset, after
	 * and line end is still met there, 4 and 15 having no factor in
	 * common) */
	if (TU_SKIP(_i))
		return;
	for (nl = 1; nl <= 15; nl++)
		for (vi = 0; vi < sizeof(vls) / sizeof(vls[0]); vi++) {
			size_t vl = vls[vi], len = nl + vl + 5;
			size_t at[] = { 0, 1, nl / 2 + 1, nl, nl + 1,
			    nl + 2, nl + 3, nl + 3 + vl / 2, nl + 2 + vl,
			    nl + 3 + vl, nl + 4 + vl, nl + 5 + vl };

			for (j = 0; j < sizeof(at) / sizeof(at[0]); j++)
				for (b = 0; b < sizeof(bytes); b++) {
					char in[640];
					size_t n = 0;

					n = tag_line_to(in, prefix_lines(in, off),
					    nl, vl);
					if (crlf)
						in[n++] = '\r';
					in[n++] = '\n';
					/* (at[j] past the line: its LF, the
					 * next line's `[`) */
					if (at[j] <= len)
						in[off + at[j]] =
						    (char)bytes[b];
					memcpy(in + n, after, after_len);
					n += after_len;

					read_n += reader_tags_as_lexer(in, n,
					    off);
				}
		}
	ck_assert_uint_gt(read_n, 0);
}
END_TEST

/*
 * The tag loop's classes of bytes (frame_tags.c, TAG_LO and TAG_HI: a
 * byte's class from its two nibbles, with AVX2): each of the 256 bytes
 * put at the first, a middle and the last place of a tag line's name,
 * of its value, and right after them, a value shorter and one longer
 * than sixteen bytes, the line first in the section (the loop's window
 * taken at it) or after others (a window taken before it), followed by
 * another tag line and a long game: the reader's tags are the lexer's,
 * and the game is noted plain exactly when the loop's rule takes each
 * tag (reader_tags_as_lexer).
 */
START_TEST(test_tag_line_classes)
{
	static const char after[] = "[S \"s\"]\n\n1. e4 { a comment "
	    "long enough that the reader's tag loop reads the lines before "
	    "it, its value of up to 127 bytes and more: "
	    "................................................................"
	    "........................................ } *\n";
	static const unsigned offs[] = { 0, 30 };
	static const size_t vls[] = { 3, 20 };
	unsigned b = (unsigned)_i, oi;
	size_t nl = 4, vi, j, read_n = 0;

	for (oi = 0; oi < 2; oi++)
		for (vi = 0; vi < 2; vi++) {
			size_t vl = vls[vi];
			size_t at[] = { 1, 2, nl, nl + 1, nl + 3,
			    nl + 3 + vl / 2, nl + 2 + vl, nl + 3 + vl };

			for (j = 0; j < sizeof(at) / sizeof(at[0]); j++) {
				char in[640];
				size_t n;

				n = tag_line_to(in, prefix_lines(in, offs[oi]),
				    nl, vl);
				in[n++] = '\n';
				in[offs[oi] + at[j]] = (char)b;
				memcpy(in + n, after, sizeof(after) - 1);
				n += sizeof(after) - 1;
				read_n += reader_tags_as_lexer(in, n, offs[oi]);
			}
		}
	ck_assert_uint_gt(read_n, 0);
}
END_TEST

/* The line and column of byte at of in (from 1). */
static void
place_at(const char *in, size_t at, unsigned long *line, unsigned long *col)
{
	size_t i;

	*line = 1;
	*col = 1;
	for (i = 0; i < at; i++) {
		if (in[i] == '\n') {
			++*line;
			*col = 1;
		} else {
			++*col;
		}
	}
}

/* Where each game of gs and its movetext start, and whether it holds a
 * NUL byte, against in. */
static void
check_places(const char *in, const struct games *gs)
{
	size_t i;

	for (i = 0; i < gs->n; i++) {
		const cd_pgn_raw_game *g = &gs->g[i];
		unsigned long line, col;

		place_at(in, (size_t)g->offset, &line, &col);
		ck_assert_uint_eq(g->line, line);
		ck_assert_uint_eq(g->col, col);
		place_at(in, (size_t)g->offset + g->movetext, &line, &col);
		ck_assert_uint_eq(g->movetext_line, line);
		ck_assert_uint_eq(g->movetext_col, col);
		ck_assert_uint_eq((g->flags & CD_PGN_RAW_NUL) != 0,
		    memchr(in + g->offset, '\0', g->len) != NULL);
	}
}

/*
 * Lines and columns of games, tags and movetext against a count from
 * the input's first byte: random games with line ends, CR LF, blank
 * lines, tags over lines, comments over lines and escape lines at
 * random places, so that the reader's vector count of line ends meets
 * every length and every place of a line end in a block.
 */
START_TEST(test_lines_random)
{
	static const char *const parts[] = { "\n", "\r\n", " ", "\n\n",
	    "e4 ", "Nf3 ", "{a\nb} ", "{cccccccccccccccccc} ", "; x\n",
	    "\n%esc\n", "1. ", "(d4\n) " };
	static const char *const tags[] = { "[Event \"a\"]", "[Site\n\"b\"]",
	    "[Round \"ccccccccccccccccccccc\"]", "[White  \"w\" ]",
	    "[Black \"b\"]" };
	static const char *const ends[] = { "*", "1-0", "0-1", "" };
	static char in[16384];
	unsigned x = 77;
	int round;

	for (round = 0; round < 300; round++) {
		size_t n = 0;
		int games = 1 + (int)(lcg(&x) % 12), k, m;
		struct games *gs;

		for (k = 0; k < games; k++) {
			for (m = (int)(lcg(&x) % 4); m > 0; m--)
				n += (size_t)sprintf(in + n, "%s\n",
				    tags[lcg(&x) % 5]);
			if (lcg(&x) % 2)
				n += (size_t)sprintf(in + n, "\n");
			for (m = (int)(lcg(&x) % 12); m > 0; m--)
				n += (size_t)sprintf(in + n, "%s",
				    parts[lcg(&x) % 12]);
			n += (size_t)sprintf(in + n, "%s\n",
			    ends[lcg(&x) % 4]);
			for (m = (int)(lcg(&x) % 3); m > 0; m--)
				n += (size_t)sprintf(in + n, "%s",
				    lcg(&x) % 2 ? "\n" : "\r\n");
		}
		gs = read_mem(in, n);
		check_places(in, gs);
		games_free(gs);
	}
}
END_TEST

/*
 * The line ends of a game's movetext, which the reader counts (with
 * AVX2; with SSE2 when check-sse2.sh runs this), and its NUL bytes,
 * which it looks for once per input, against a count from the input's
 * first byte and memchr(): comments of every length up to past 8 KB (a
 * round of the vector counters), line ends at random places (one byte
 * in 64, half of them, or every one, which fills a counter), a NUL at
 * a random place of some games (movetext or tags), and a last game
 * that places the end of the one before it.
 */
START_TEST(test_lines_nul_random)
{
	static const unsigned denser[] = { 1, 32, 64 };
	static char in[40000];
	unsigned x = 5;
	int round;

	for (round = 0; round < 400; round++) {
		size_t n = 0, i, len, nul;
		int games = 1 + (int)(lcg(&x) % 3), k;
		struct games *gs;

		for (k = 0; k < games; k++) {
			/* line ends: one byte in 64, half of them, all */
			unsigned dense = denser[lcg(&x) % 3];

			len = lcg(&x) % (round < 300 ? 300 : 9000);
			nul = lcg(&x) % 3 == 0 ? len + 1 : lcg(&x) % (len + 1);
			n += (size_t)sprintf(in + n,
			    "[Event \"a\"]\n\n1. e4 {");
			if (nul == len)
				in[n - 12] = '\0';	/* the tag value */
			for (i = 0; i < len; i++) {
				unsigned c = lcg(&x) % 64;

				in[n++] = i == nul ? '\0' : c < dense ? '\n' :
				    (char)('a' + c % 26);
			}
			n += (size_t)sprintf(in + n, "} *\n%s",
			    lcg(&x) % 2 ? "\n" : "");
		}
		n += (size_t)sprintf(in + n, "[Event \"z\"]\n*\n");
		gs = read_mem(in, n);
		ck_assert_uint_eq(gs->n, (size_t)games + 1);
		check_places(in, gs);
		games_free(gs);
	}
}
END_TEST

START_TEST(test_bad_tags)
{
	struct games *gs = read_both(
	    "[Event \"a\"]\n[Site b]\n[Date \"x\n[White \"w\"]\n1. e4 *\n");

	ck_assert_uint_eq(gs->n, 1);
	ck_assert_str_eq(gs->tags[0], "Event=a;White=w;");
	ck_assert_uint_eq(gs->g[0].flags, CD_PGN_RAW_BAD_TAG);
	games_free(gs);
}
END_TEST

/* A line that starts with `[` but not a tag, after tags the reader's
 * tag loop took (a section long enough for it): the tag section ends
 * there, as after any tag. */
START_TEST(test_tag_loop_end)
{
	static const char *const eols[] = { "\n", "\r\n" };
	size_t i, j;

	/* (j = 1: after a game, the section from its first line on) */
	for (i = 0; i < 4; i++) {
		char in[200];
		struct games *gs;

		j = i / 2;
		snprintf(in, sizeof(in), "%s[SetUp \"*\"]\n[Site \"chess960\"]%s"
		    "[\x01" "Black \"long\"]\n[Result \"0\"]\n\n1. e4 d5 1/2\n\n"
		    "[Event \"x\"]\n\n1. e4 *\n", j ? "1. d4 *\n\n" : "",
		    eols[i % 2]);
		gs = read_both(in);
		ck_assert_uint_eq(gs->n, 3 + j);
		ck_assert_str_eq(gs->tags[j], "SetUp=*;Site=chess960;");
		ck_assert_str_eq(movetext(gs, j), "[\x01" "Black \"long\"]");
		ck_assert_str_eq(gs->tags[j + 1], "Result=0;");
		ck_assert_str_eq(gs->tags[j + 2], "Event=x;");
		games_free(gs);
	}
}
END_TEST

/* Game g (of a reader over the whole input) against the first game of
 * a reader started at its offset in the same input (which has read no
 * section before): the same game, the same tags, their lines counted
 * from the game's. */
static void
same_as_alone(const char *in, size_t n, const cd_pgn_raw_game *g)
{
	cd_pgn_reader *r = cd_pgn_reader_new_mem(in + g->offset,
	    n - (size_t)g->offset);
	cd_pgn_raw_game a;
	size_t i;

	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(cd_pgn_reader_next(r, &a), CD_OK);
	ck_assert_msg(a.len == g->len && a.ntags == g->ntags &&
	    a.movetext == g->movetext && a.flags ==
	    (g->flags & ~(unsigned)CD_PGN_RAW_SKIPPED_BINARY) &&
	    a.result == g->result, "game at %lu: %.*s",
	    (unsigned long)g->offset, (int)g->len, g->text);
	for (i = 0; i < a.ntags; i++) {
		const cd_pgn_tag *x = &a.tags[i], *y = &g->tags[i];

		ck_assert_msg(x->name_len == y->name_len &&
		    x->value_len == y->value_len &&
		    memcmp(x->name, y->name, x->name_len + 1) == 0 &&
		    memcmp(x->value, y->value, x->value_len + 1) == 0 &&
		    x->line - 1 == y->line - g->line && x->col == y->col,
		    "game at %lu, tag %zu: %.*s", (unsigned long)g->offset, i,
		    (int)g->len, g->text);
	}
	cd_pgn_reader_free(r);
}

/*
 * The tags of a section that begins as the one before it (frame_tags.c,
 * section_again, which keeps the tags of the section before where its
 * lines are the same bytes): a section, then the same with one byte
 * changed, at each place of its lines, of their line ends and of the
 * bytes after the last (its blank line, the movetext's start), to each
 * of a set of bytes, then the section again (and the same with the
 * section cut short after each of its lines, and with its first value
 * changed and a blank before it); the sections of the 2-move
 * book (CR LF, seven short values) and of an online export (LF, long
 * values).  Each game's tags and lines must be what a reader that
 * starts at that game reads, and a reader of the input through a file
 * (its buffer refilled and moved) must read the same.
 */
START_TEST(test_section_again)
{
	static const unsigned char bytes[] = { 'a', ' ', '"', ']', '[',
	    '\r', '\n', '\\', '\t', 0x7f, 0x01, 'E' };
	const char *base = tu_again_section(_i);
	size_t bl = strlen(base), sl = strstr(base, "]\r\n\r\n") != NULL ?
	    (size_t)(strstr(base, "]\r\n\r\n") - base) + 1 :
	    (size_t)(strstr(base, "]\n\n") - base) + 1;
	size_t cap = (sl + 6) * sizeof(bytes) * 2 * (bl + 1) + bl * bl * 2;
	char *in = malloc(cap);
	size_t n = 0, j, b, games = 0, count = 0;
	cd_pgn_reader *r, *rf;
	cd_pgn_raw_game g, h;
	FILE *f;

	ck_assert_ptr_nonnull(in);
	memcpy(in, base, bl);
	n = bl;
	/* the section without its lines from the j-th on, between two
	 * whole ones */
	for (j = 1; j < bl; j++)
		if (base[j] == '[' && base[j - 1] == '\n') {
			size_t rest = sl + 1 + (base[sl] == '\r');

			memcpy(in + n, base, j);
			memcpy(in + n + j, base + rest, bl - rest);
			n += j + bl - rest;
			memcpy(in + n, base, bl);
			n += bl;
			games += 2;
		}
	/* a section whose first value differs, read without the loop at
	 * its first tag (a blank before it), between two whole ones */
	in[n] = ' ';
	memcpy(in + n + 1, base, bl);
	in[n + 1 + (size_t)(strchr(base, '"') - base) + 1] = 'x';
	n += 1 + bl;
	memcpy(in + n, base, bl);
	n += bl;
	games += 2;
	for (j = 0; j < sl + 6; j++)
		for (b = 0; b < sizeof(bytes); b++) {
			memcpy(in + n, base, bl);
			in[n + j] = (char)bytes[b];
			n += bl;
			memcpy(in + n, base, bl);
			n += bl;
			games += 2;
		}
	r = cd_pgn_reader_new_mem(in, n);
	ck_assert_ptr_nonnull(r);
	rf = tu_reader_file(in, n, &f);
	while (cd_pgn_reader_next(r, &g) == CD_OK) {
		size_t i;

		if (g.col == 1)
			same_as_alone(in, n, &g);
		ck_assert_int_eq(cd_pgn_reader_next(rf, &h), CD_OK);
		ck_assert_uint_eq(h.offset, g.offset);
		ck_assert_uint_eq(h.ntags, g.ntags);
		for (i = 0; i < g.ntags; i++) {
			ck_assert_uint_eq(h.tags[i].line, g.tags[i].line);
			ck_assert_uint_eq(h.tags[i].col, g.tags[i].col);
			ck_assert_str_eq(h.tags[i].value, g.tags[i].value);
		}
		count++;
	}
	ck_assert_int_eq(cd_pgn_reader_next(rf, &h), CD_EOF);
	/* (a changed byte may join two games or split one) */
	ck_assert_uint_ge(count, games / 2);
	cd_pgn_reader_free(rf);
	cd_pgn_reader_free(r);
	fclose(f);
	free(in);
}
END_TEST

START_TEST(test_tag_sections)
{
	/* A second Event tag in one tag section: one game, both tags
	 * kept (the last wins), whatever the tags around it. */
	struct games *gs = read_both(
	    "[Event \"a\"]\n[Result \"*\"]\n[Event \"b\"]\n1. e4 *\n");

	ck_assert_uint_eq(gs->n, 1);
	ck_assert_str_eq(gs->tags[0], "Event=a;Result=*;Event=b;");
	ck_assert_int_eq(gs->g[0].result, CD_PGN_RESULT_UNKNOWN);
	games_free(gs);
	gs = read_both("[Event \"a\"]\n[Event \"b\"]\n[Site \"s\"]\n"
	    "[Event \"c\"] [Event \"d\"]\n\n1. e4 *\n");
	ck_assert_uint_eq(gs->n, 1);
	ck_assert_str_eq(gs->tags[0], "Event=a;Event=b;Site=s;Event=c;Event=d;");
	games_free(gs);

	/* A tag section without movetext, a blank line, then the next
	 * game (Event). */
	gs = read_both(
	    "[Event \"a\"]\n[Result \"*\"]\n\n[Event \"b\"]\n1. e4 *\n");
	ck_assert_uint_eq(gs->n, 2);
	ck_assert_str_eq(gs->text[0], "[Event \"a\"]\n[Result \"*\"]\n\n");
	ck_assert_uint_eq(gs->g[0].movetext, gs->g[0].movetext_end);
	ck_assert_uint_eq(gs->g[0].flags, CD_PGN_RAW_NO_RESULT);
	games_free(gs);

	/* A blank line inside a tag section; a repeated name after a
	 * blank line starts the next game. */
	gs = read_both("[Site \"a\"]\n\n[White \"w\"]\n\n \n[Site \"b\"]\n*\n");
	ck_assert_uint_eq(gs->n, 2);
	ck_assert_str_eq(gs->tags[0], "Site=a;White=w;");
	ck_assert_str_eq(gs->text[0], "[Site \"a\"]\n\n[White \"w\"]\n\n \n");
	ck_assert_str_eq(gs->tags[1], "Site=b;");
	games_free(gs);

	/* A repeated name without a blank line: the same game. */
	gs = read_both("[Site \"a\"]\n[Site \"b\"]\n*\n");
	ck_assert_uint_eq(gs->n, 1);
	ck_assert_str_eq(gs->tags[0], "Site=a;Site=b;");
	games_free(gs);

	/* Escape lines in a tag section. */
	gs = read_both("[Event \"a\"]\n%private\n[Site \"b\"]\n*\n");
	ck_assert_uint_eq(gs->n, 1);
	ck_assert_str_eq(gs->tags[0], "Event=a;Site=b;");
	games_free(gs);
}
END_TEST

START_TEST(test_after_marker)
{
	/* Comment lines after the marker go with the game when the next
	 * tag section follows them. */
	struct games *gs = read_both(
	    "[Event \"a\"]\n1. e4 1-0 {end}\n; {Game Nr. 1 :\n; done }\n\n"
	    "[Event \"b\"]\n1. d4 0-1\n{about the next}\n1. c4 *\n");

	ck_assert_uint_eq(gs->n, 3);
	ck_assert_str_eq(gs->text[0],
	    "[Event \"a\"]\n1. e4 1-0 {end}\n; {Game Nr. 1 :\n; done }\n\n");
	ck_assert_str_eq(movetext(gs, 0), "1. e4 1-0");
	ck_assert_str_eq(gs->text[1], "[Event \"b\"]\n1. d4 0-1\n");
	ck_assert_str_eq(gs->text[2], "{about the next}\n1. c4 *\n");
	games_free(gs);
}
END_TEST

/* Big games and many games across the reader's block boundaries. */
START_TEST(test_blocks)
{
	size_t cap = 4 << 20, len = 0, i;
	char *in = malloc(cap);
	struct games *a, *b;

	ck_assert_ptr_nonnull(in);
	for (i = 0; i < 40; i++) {
		size_t k, big = i == 7 ? 700000 : i == 20 ? 300000 : i * 997;

		len += (size_t)sprintf(in + len,
		    "[Event \"e%zu\"]\n[Annotator \"", i);
		for (k = 0; k < (i == 30 ? 600000u : 3u); k++)
			in[len++] = 'v';
		len += (size_t)sprintf(in + len, "\"]\r\n\r\n1. e4 {");
		for (k = 0; k < big; k++)
			in[len++] = k % 61 == 60 ? '\n' : 'c';
		len += (size_t)sprintf(in + len, "} e5 %s\n\n",
		    i % 3 == 0 ? "1-0" : i % 3 == 1 ? "*" : "");
		ck_assert_uint_lt(len, cap - 800000);
	}
	a = read_mem(in, len);
	b = read_file(in, len);
	same_games(a, b);
	ck_assert_uint_eq(a->n, 40);
	for (i = 0; i < 40; i++) {
		char want[32];

		snprintf(want, sizeof(want), "Event=e%zu;", i);
		ck_assert(strncmp(a->tags[i], want, strlen(want)) == 0);
	}
	games_free(a);
	games_free(b);
	free(in);
}
END_TEST

/* Through a pipe fed a few bytes at a time: every read ends at another
 * place, and the games come out the same as from memory. */
START_TEST(test_pipe_chunks)
{
	static const char *const parts[] = {
		"\xef\xbb\xbf\x46rom: x\n\n",	/* BOM, "From" */
		"[Event \"a\"] [Site \"b\"][Date\n \"1993.??.??\"\n]\r\n",
		"[White \"Joe \"the kid\" Bloggs\"]\n[Black \"x \\\"y\\\"\"]\n",
		"1. e4 { 1-0 * \n[Event \"x\"] } e5 ; 0-1 {\n%1-0\n",
		"2. Nf3 \"1-0\" (2. d4 *) 1/2-1/2 {after}\n; more\n\n",
		"1. d4 d5 *\n[Event \"b\"]1. c4 0-1[Event \"c\"]\n[Event \"d\"]\n",
		"1. e4 e5\n[Event \"e\"]\n1. f4 { never closed\n1-0\n"
	};
	char in[2048];
	size_t len = 0, i, off;
	int fd[2];
	pid_t pid;
	FILE *f;
	cd_pgn_reader *r;
	struct games *a, *b;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		memcpy(in + len, parts[i], strlen(parts[i]));
		len += strlen(parts[i]);
	}
	ck_assert_int_eq(pipe(fd), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		unsigned x = 1;

		close(fd[0]);
		for (off = 0; off < len;) {
			size_t n;

			x = x * 1103515245u + 12345u;
			n = 1 + (x >> 16) % 7;
			if (n > len - off)
				n = len - off;
			if (write(fd[1], in + off, n) != (ssize_t)n)
				_exit(1);
			off += n;
			usleep(200);
		}
		_exit(0);
	}
	close(fd[1]);
	f = fdopen(fd[0], "rb");
	ck_assert_ptr_nonnull(f);
	r = cd_pgn_reader_new(f);
	b = read_all(r);
	ck_assert_uint_eq(cd_pgn_reader_tell(r), len);
	cd_pgn_reader_free(r);
	fclose(f);
	waitpid(pid, NULL, 0);
	a = read_mem(in, len);
	same_games(a, b);
	ck_assert_uint_eq(a->n, 5);
	ck_assert_uint_eq(a->skipped[0], 8);	/* "From: x\n" */
	ck_assert_str_eq(a->tags[0],
	    "Event=a;Site=b;Date=1993.??.??;White=Joe \"the kid\" Bloggs;"
	    "Black=x \"y\";");
	ck_assert_int_eq(a->g[0].result, CD_PGN_RESULT_DRAW);
	/* (a second Event tag without a blank line: the same game) */
	ck_assert_str_eq(a->tags[3], "Event=c;Event=d;");
	ck_assert_uint_eq(a->g[4].flags,
	    CD_PGN_RAW_UNCLOSED_COMMENT | CD_PGN_RAW_NO_RESULT);
	games_free(a);
	games_free(b);
}
END_TEST

/* ---- tokens ---- */

/* The tokens of s as "TYPE(text)" words. */
static void
lex_str(const char *s, size_t n, char *out, size_t cap)
{
	static const char *const names[] = {
		"END", "TAG", "NUM", "MOVE", "SFX", "NAG", "EVAL", "EP",
		"RES", "COM", "LCOM", "ESC", "RAVO", "RAVC", "STR", "ERR"
	};
	cd_pgn_lexer lx;
	cd_pgn_token t;
	size_t len = 0;

	out[0] = '\0';
	cd_pgn_lex_init(&lx, s, n, 1, 1);
	while (cd_pgn_lex_next(&lx, &t) != CD_PGN_TOK_END) {
		len += (size_t)snprintf(out + len, cap - len, "%s%s(%.*s)",
		    len ? " " : "", names[t.type], (int)t.len, t.text);
		if (t.type == CD_PGN_TOK_NAG || t.type == CD_PGN_TOK_EVAL ||
		    t.type == CD_PGN_TOK_SUFFIX || t.type == CD_PGN_TOK_RESULT ||
		    t.type == CD_PGN_TOK_MOVENUM)
			len += (size_t)snprintf(out + len, cap - len, "=%ld",
			    t.num);
		if (t.type == CD_PGN_TOK_TAG)
			len += (size_t)snprintf(out + len, cap - len, "=%.*s",
			    (int)t.value_len, t.value);
		if (t.flags & CD_PGN_TOKF_NULLMOVE)
			len += (size_t)snprintf(out + len, cap - len, "!null");
		if (t.flags & CD_PGN_TOKF_CASTLING)
			len += (size_t)snprintf(out + len, cap - len, "!castle");
		if (t.flags & CD_PGN_TOKF_UNCLOSED)
			len += (size_t)snprintf(out + len, cap - len,
			    "!unclosed");
		ck_assert_uint_lt(len, cap);
	}
	/* The end stays the end. */
	ck_assert_int_eq(cd_pgn_lex_next(&lx, &t), CD_PGN_TOK_END);
}

static const struct {
	const char *in, *out;
} lex_rows[] = {
	{ "1. e4 e5 2.Nf3", "NUM(1.)=1 MOVE(e4) MOVE(e5) NUM(2.)=2 MOVE(Nf3)" },
	{ "1...e5 2.. d6 37..Ra3 4 . c4",
	  "NUM(1...)=1 MOVE(e5) NUM(2..)=2 MOVE(d6) NUM(37..)=37 MOVE(Ra3) "
	  "NUM(4)=4 NUM(.)=-1 MOVE(c4)" },
	{ "0-0 0-0-0+ O-O O-O-O# o-o O\xe2\x80\x93O",
	  "MOVE(0-0)!castle MOVE(0-0-0+)!castle MOVE(O-O)!castle "
	  "MOVE(O-O-O#)!castle MOVE(o-o)!castle "
	  "MOVE(O\xe2\x80\x93O)!castle" },
	{ "1-0 0-1 1/2-1/2 * \xc2\xbd-\xc2\xbd 1\xe2\x80\x93" "0 1/2",
	  "RES(1-0)=1 RES(0-1)=2 RES(1/2-1/2)=3 RES(*)=4 "
	  "RES(\xc2\xbd-\xc2\xbd)=3 RES(1\xe2\x80\x93" "0)=1 RES(1/2)=3" },
	{ "e8=Q e8Q e8(Q) e8/Q exd8=N+ e7e8q Ng1-f3 e4:d5",
	  "MOVE(e8=Q) MOVE(e8Q) MOVE(e8(Q)) MOVE(e8/Q) MOVE(exd8=N+) "
	  "MOVE(e7e8q) MOVE(Ng1-f3) MOVE(e4:d5)" },
	{ "Nf3! e5? Bb5!! a6?? Ba4!? Nf6?! Qxf7#!",
	  "MOVE(Nf3) SFX(!)=1 MOVE(e5) SFX(?)=2 MOVE(Bb5) SFX(!!)=3 "
	  "MOVE(a6) SFX(?" "?)=4 MOVE(Ba4) SFX(!?)=5 MOVE(Nf6) SFX(?!)=6 "
	  "MOVE(Qxf7#) SFX(!)=1" },
	{ "e4 !? ?!? $1 $255 $",
	  "MOVE(e4) SFX(!?)=5 ERR(?!?) NAG($1)=1 NAG($255)=255 ERR($)" },
	{ "+= =+ \xc2\xb1 +- -+ \xe2\x88\x9e = +/= =/+ +/- -/+ "
	  "\xe2\xa9\xb2 \xe2\xa9\xb1 \xe2\x88\x93 +",
	  "EVAL(+=)=14 EVAL(=+)=15 EVAL(\xc2\xb1)=16 EVAL(+-)=18 "
	  "EVAL(-+)=19 EVAL(\xe2\x88\x9e)=13 EVAL(=)=10 EVAL(+/=)=14 "
	  "EVAL(=/+)=15 EVAL(+/-)=16 EVAL(-/+)=17 EVAL(\xe2\xa9\xb2)=14 "
	  "EVAL(\xe2\xa9\xb1)=15 EVAL(\xe2\x88\x93)=17 ERR(+)" },
	{ "-- Z0 0000 @@@@",
	  "MOVE(--)!null MOVE(Z0)!null MOVE(0000)!null MOVE(@@@@)!null" },
	{ "\xe2\x99\x98" "f3 \xe2\x99\x9e" "c6 \xe2\x99\x95xd8",
	  "MOVE(\xe2\x99\x98" "f3) MOVE(\xe2\x99\x9e" "c6) "
	  "MOVE(\xe2\x99\x95xd8)" },
	{ "exd6 e.p. exd6ep f5 ep",
	  "MOVE(exd6) EP(e.p.) MOVE(exd6ep) MOVE(f5) EP(ep)" },
	{ "exd6e.p. exd6e.p.+ exd6e.p.) exd6e.p.x exd6e.p",
	  "MOVE(exd6e.p.) MOVE(exd6e.p.+) MOVE(exd6e.p.) RAVC()) "
	  "MOVE(exd6e) NUM(.)=-1 MOVE(p) NUM(.)=-1 MOVE(x) "
	  "MOVE(exd6e) NUM(.)=-1 MOVE(p)" },
	{ "{a comment\nover lines} e4{glued}(e5)",
	  "COM(a comment\nover lines) MOVE(e4) COM(glued) RAVO(() MOVE(e5) RAVC())" },
	{ "e4 ; rest { of line\r\ne5",
	  "MOVE(e4) LCOM( rest { of line) MOVE(e5)" },
	{ "%escape line\ne4 %x", "ESC(escape line) MOVE(e4) ERR(%) MOVE(x)" },
	{ "[Event \"a \\\"b\\\"\"] [Site\"x\"]",
	  "TAG(Event)=a \\\"b\\\" TAG(Site)=x" },
	{ "[White \"Joe \"the kid\" Bloggs\"]",
	  "TAG(White)=Joe \"the kid\" Bloggs" },
	{ "[Event x] e4", "ERR([Event x]) MOVE(e4)" },
	{ "\"a string\" \"open", "STR(a string) STR(open)!unclosed" },
	{ "{never closed", "COM(never closed)!unclosed" },
	{ "< > ] , \xc3\xa9 \x01",
	  "ERR(<) ERR(>) ERR(]) ERR(,) ERR(\xc3\xa9) ERR(\x01)" },
	{ "12. e4 1.e4 12e4", "NUM(12.)=12 MOVE(e4) NUM(1.)=1 MOVE(e4) "
	  "NUM(12)=12 MOVE(e4)" },
	{ "Pe4 Pxd5 nf3 Sf3 Ngf3 Nb8c6",
	  "MOVE(Pe4) MOVE(Pxd5) MOVE(nf3) MOVE(Sf3) MOVE(Ngf3) MOVE(Nb8c6)" },
	{ "e4*", "MOVE(e4) RES(*)=4" },
	{ "", "" }
};

START_TEST(test_tokens)
{
	char out[1024];

	lex_str(lex_rows[_i].in, strlen(lex_rows[_i].in), out, sizeof(out));
	ck_assert_msg(strcmp(out, lex_rows[_i].out) == 0,
	    "row %d: got\n  %s\nwant\n  %s", _i, out, lex_rows[_i].out);
}
END_TEST

START_TEST(test_token_positions)
{
	const char *in = "[Event \"a\"]\n{x\ny} 1. e4\n\t e5 $1\n%esc\n  *";
	static const struct {
		cd_pgn_tok_type type;
		unsigned long line, col;
	} want[] = {
		{ CD_PGN_TOK_TAG, 1, 1 }, { CD_PGN_TOK_COMMENT, 2, 1 },
		{ CD_PGN_TOK_MOVENUM, 3, 4 }, { CD_PGN_TOK_MOVE, 3, 7 },
		{ CD_PGN_TOK_MOVE, 4, 3 }, { CD_PGN_TOK_NAG, 4, 6 },
		{ CD_PGN_TOK_ESCAPE, 5, 1 }, { CD_PGN_TOK_RESULT, 6, 3 },
		{ CD_PGN_TOK_END, 6, 4 }
	};
	cd_pgn_lexer lx;
	cd_pgn_token t;
	size_t i;

	cd_pgn_lex_init(&lx, in, strlen(in), 1, 1);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		cd_pgn_lex_next(&lx, &t);
		ck_assert_msg(t.type == want[i].type && t.line == want[i].line &&
		    t.col == want[i].col, "token %zu: %s at %lu:%lu", i,
		    cd_pgn_tok_name(t.type), t.line, t.col);
	}
	/* Starting in mid line: columns go on from there. */
	cd_pgn_lex_init(&lx, "e4 e5\nNf3", 9, 7, 20);
	cd_pgn_lex_next(&lx, &t);
	ck_assert_uint_eq(t.line, 7);
	ck_assert_uint_eq(t.col, 20);
	cd_pgn_lex_next(&lx, &t);
	ck_assert_uint_eq(t.col, 23);
	cd_pgn_lex_next(&lx, &t);
	ck_assert_uint_eq(t.line, 8);
	ck_assert_uint_eq(t.col, 1);
}
END_TEST

START_TEST(test_tag_value)
{
	cd_pgn_lexer lx;
	cd_pgn_token t;
	char buf[64];
	const char *in = "[Black \"x \\\"y\\\" \\\\ z\"][Event \"Tournament \\\"]";

	cd_pgn_lex_init(&lx, in, strlen(in), 1, 1);
	ck_assert_int_eq(cd_pgn_lex_next(&lx, &t), CD_PGN_TOK_TAG);
	ck_assert(t.flags & CD_PGN_TOKF_ESCAPES);
	ck_assert_uint_eq(cd_pgn_tag_value(&t, buf), 9);
	ck_assert_str_eq(buf, "x \"y\" \\ z");
	ck_assert_int_eq(cd_pgn_lex_next(&lx, &t), CD_PGN_TOK_TAG);
	ck_assert_uint_eq(cd_pgn_tag_value(&t, buf), 12);
	ck_assert_str_eq(buf, "Tournament \\");
}
END_TEST

/* Every byte value through the lexer and the reader: no crash, the
 * tokens cover the input in order. */
START_TEST(test_all_bytes)
{
	char in[4096];
	size_t i, n = sizeof(in);
	unsigned x = 12345;
	cd_pgn_lexer lx;
	cd_pgn_token t;
	const char *prev = in;
	struct games *gs;
	int round;

	for (round = 0; round < 60; round++) {
		for (i = 0; i < n; i++) {
			x = x * 1103515245u + 12345u;
			in[i] = round % 2 ? (char)(x >> 16) :
			    "[]{}()\"; %\n\r\t*1-0/2.e4$!?=+#O\\"[(x >> 16) % 31];
		}
		cd_pgn_lex_init(&lx, in, n, 1, 1);
		prev = in;
		while (cd_pgn_lex_next(&lx, &t) != CD_PGN_TOK_END) {
			ck_assert(t.raw >= prev);
			ck_assert_uint_gt(t.raw_len, 0);
			ck_assert(t.raw + t.raw_len <= in + n);
			prev = t.raw + t.raw_len;
		}
		gs = read_mem(in, n);
		games_free(gs);
	}
}
END_TEST

/* ---- the real quirk files ---- */

/* Games of a corpus file, or -1 when the corpus is absent. */
static long
corpus_games(const char *rel, uint64_t *skipped, cd_pgn_raw_game *first,
    char *tags, size_t tagcap)
{
	const char *corpus = getenv("CORPUS");
	char path[1024];
	char *buf;
	size_t len;
	cd_pgn_reader *r;
	cd_pgn_raw_game g;
	long n = 0;
	uint64_t at = 0;
	cd_status st;

	if (corpus == NULL)
		return -1;
	snprintf(path, sizeof(path), "%s/quirks/%s", corpus, rel);
	buf = tu_slurp(path, &len);
	if (buf == NULL)
		return -1;
	r = cd_pgn_reader_new_mem(buf, len);
	*skipped = 0;
	while ((st = cd_pgn_reader_next(r, &g)) == CD_OK) {
		size_t i;

		/* Games come in order; only blanks or skipped text lie
		 * between them. */
		ck_assert_uint_ge(g.offset, at);
		for (i = (size_t)at; i < g.offset && g.skipped_bytes == 0;
		    i++)
			ck_assert(strchr(" \t\r\n\v\f", buf[i]) != NULL ||
			    (i < 3 && at == 0));
		ck_assert(g.text == buf + g.offset);
		ck_assert_uint_le(g.movetext, g.movetext_end);
		ck_assert_uint_le(g.movetext_end, g.len);
		at = g.offset + g.len;
		*skipped += g.skipped_bytes;
		if (n == 0 && first != NULL) {
			*first = g;
			tags[0] = '\0';
			for (i = 0; i < g.ntags; i++) {
				ck_assert_uint_lt(strlen(tags) +
				    g.tags[i].name_len + g.tags[i].value_len +
				    3, tagcap);
				strcat(tags, g.tags[i].name);
				strcat(tags, "=");
				strcat(tags, g.tags[i].value);
				strcat(tags, ";");
			}
		}
		n++;
	}
	ck_assert_int_eq(st, CD_EOF);
	*skipped += g.skipped_bytes;
	cd_pgn_reader_free(r);
	free(buf);
	return n;
}

static const struct {
	const char *file;
	long games;
	uint64_t skipped;
} corpus_rows[] = {
	{ "pgn-extract/eco.pgn", 2014, 457 },
	{ "python-chess/hist_immortal-games.pgn", 36, 86 },
	{ "chess-library/empty_body.pgn", 2, 0 },
	{ "chess-library/no_moves_two_games.pgn", 2, 0 },
	{ "chess-library/no_moves_but_game_termination_multiple_2.pgn", 3, 0 },
	{ "chess-library/no_moves_but_comment_followed_by_termination_marker.pgn",
	  2, 0 },
	{ "chess-library/newline.pgn", 1, 0 },
	{ "fastchess/test.pgn", 6, 0 },
	{ "fastchess/dfrc.pgn", 4, 0 },
	{ "mliebelt-pgn-parser/twic-01-232games.pgn", 232, 0 },
	{ "mliebelt-pgn-parser/sampleGameThrow.pgn", 1, 0 },
	{ "notnil-chess/0008.pgn", 1, 0 },
	{ "notnil-chess/0015.pgn", 1, 0 },
	{ "pgn-extract/nested-comment.pgn", 1, 0 },
	{ "pgn-extract/test-nobadresults.pgn", 9, 0 },
	{ "python-chess/utf8-bom.pgn", 2, 0 },
	{ "chessx/t1.pgn", 1, 0 },
	{ "rust-pgn-reader/legal.pgn", 100, 0 }
};

START_TEST(test_corpus_counts)
{
	uint64_t skipped;
	long n = corpus_games(corpus_rows[_i].file, &skipped, NULL, NULL, 0);

	if (n < 0)
		return;		/* no corpus here */
	ck_assert_msg(n == corpus_rows[_i].games, "%s: %ld games",
	    corpus_rows[_i].file, n);
	ck_assert_msg(skipped == corpus_rows[_i].skipped, "%s: %llu skipped",
	    corpus_rows[_i].file, (unsigned long long)skipped);
}
END_TEST

START_TEST(test_corpus_tags)
{
	static const struct {
		const char *file, *prefix;
	} rows[] = {
		{ "chess-library/backslash_header.pgn",
		  "Event=Tournament \\;Site=Madrid ESP;" },
		{ "chess-library/unescaped_quote_header.pgn",
		  "Event=Tournament \"Championship\" Finals;"
		  "Site=Club \"Victory\";Date=2024.04.20;Round=5;"
		  "White=Smith, John \"The King\";"
		  "Black=Jones, \"Lightning\" Mike;Result=*;" },
		{ "chess-library/square_bracket_in_header.pgn",
		  "Event=Batch 10: s20red4c4_t3 vs master[!important];"
		  "Variation=closing ] opening;" },
		{ "chess.js/pgn_0.pgn", "Event=?;" },
		{ "python-chess/utf8-bom.pgn", "Event=A;Site=?;" },
		{ "chessx/t1.pgn", "Event=test;Site=test;Date=2008.??.??;" }
	};
	char tags[8192];
	cd_pgn_raw_game g;
	uint64_t skipped;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (corpus_games(rows[i].file, &skipped, &g, tags,
		    sizeof(tags)) < 0)
			return;
		ck_assert_msg(strncmp(tags, rows[i].prefix,
		    strlen(rows[i].prefix)) == 0, "%s: %s", rows[i].file, tags);
		ck_assert_uint_eq(g.flags & CD_PGN_RAW_BAD_TAG, 0);
	}
}
END_TEST

static size_t
count_games(const char *buf, size_t len)
{
	cd_pgn_reader *r = cd_pgn_reader_new_mem(buf, len);
	cd_pgn_raw_game g;
	size_t n = 0;

	while (cd_pgn_reader_next(r, &g) == CD_OK)
		n++;
	cd_pgn_reader_free(r);
	return n;
}

/* Every quirk file: the invariants above, and the lexer over every game
 * covers each game's bytes in order. */
START_TEST(test_corpus_all)
{
	const char *corpus = getenv("CORPUS");
	char dir[1024], path[2048];
	DIR *d, *sub;
	struct dirent *de, *fe;
	int files = 0;

	if (corpus == NULL)
		return;
	snprintf(dir, sizeof(dir), "%s/quirks", corpus);
	d = opendir(dir);
	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		sub = opendir(path);
		if (sub == NULL)
			continue;
		while ((fe = readdir(sub)) != NULL) {
			char file[2048 + 256], *buf;
			size_t len;
			cd_pgn_reader *r;
			cd_pgn_raw_game g;
			struct games *a, *b;

			if (strstr(fe->d_name, ".pgn") == NULL)
				continue;
			snprintf(file, sizeof(file), "%s/%s", path, fe->d_name);
			buf = tu_slurp(file, &len);
			ck_assert_ptr_nonnull(buf);
			r = cd_pgn_reader_new_mem(buf, len);
			while (cd_pgn_reader_next(r, &g) == CD_OK) {
				cd_pgn_lexer lx;
				cd_pgn_token t;
				const char *prev = g.text;

				cd_pgn_lex_init(&lx, g.text, g.len, g.line,
				    g.col);
				while (cd_pgn_lex_next(&lx, &t) !=
				    CD_PGN_TOK_END) {
					ck_assert(t.raw >= prev);
					prev = t.raw + t.raw_len;
				}
				ck_assert(prev <= g.text + g.len);
			}
			cd_pgn_reader_free(r);
			/* A FILE reader splits like a memory reader. */
			if (count_games(buf, len) <= 64) {
				a = read_mem(buf, len);
				b = read_file(buf, len);
				same_games(a, b);
				games_free(a);
				games_free(b);
			}
			free(buf);
			files++;
		}
		closedir(sub);
	}
	closedir(d);
	ck_assert_int_gt(files, 50);
}
END_TEST

/* A read error ends the reader, and the reader keeps it: where reading
 * stopped and the stream's message, with errno's text (a directory
 * cannot be read). */
START_TEST(test_read_error)
{
	FILE *f = fopen(".", "r");
	cd_pgn_reader *r;
	cd_pgn_raw_game g;
	const cd_error *e;
	char want[128];

	if (f == NULL)
		return;		/* a system that will not open it */
	r = cd_pgn_reader_new(f);
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(cd_pgn_reader_error(r)->status, CD_OK);
	ck_assert_int_eq(cd_pgn_reader_next(r, &g), CD_ERR_IO);
	snprintf(want, sizeof(want), "read error: %s", strerror(errno));
	e = cd_pgn_reader_error(r);
	ck_assert_int_eq(e->status, CD_ERR_IO);
	ck_assert_str_eq(e->msg, want);
	ck_assert(e->offset == 0 && e->line == 1 && e->col == 1);
	ck_assert_int_eq(cd_pgn_reader_next(r, &g), CD_EOF);
	cd_pgn_reader_free(r);
	fclose(f);
}
END_TEST

static Suite *
pgn_lex_suite(void)
{
	Suite *s = suite_create("pgn_lex");
	TCase *tc = tcase_create("reader");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_result_parse);
	tcase_add_test(tc, test_read_error);
	tcase_add_test(tc, test_two_games);
	tcase_add_test(tc, test_missing_marker);
	tcase_add_test(tc, test_no_blank_lines);
	tcase_add_test(tc, test_not_fooled);
	tcase_add_test(tc, test_untagged);
	tcase_add_test(tc, test_skipped);
	tcase_add_test(tc, test_bom_crlf);
	tcase_add_test(tc, test_nul);
	tcase_add_test(tc, test_unclosed_comment);
	tcase_add_test(tc, test_comment_tag_lines);
	tcase_add_test(tc, test_binary);
	tcase_add_test(tc, test_limit);
	tcase_add_test(tc, test_long_junk);
	tcase_add_test(tc, test_tags);
	tcase_add_test(tc, test_tag_positions);
	tcase_add_test(tc, test_tag_positions_lines);
	tcase_add_test(tc, test_bad_tags);
	tcase_add_test(tc, test_tags_quick);
	tcase_add_loop_test(tc, test_tag_line_bytes, 0, 15);
	tcase_add_loop_test(tc, test_tag_line_window, 0, 90);
	tcase_add_loop_test(tc, test_tag_line_classes, 0, 256);
	tcase_add_test(tc, test_lines_random);
	tcase_add_test(tc, test_lines_nul_random);
	tcase_add_test(tc, test_control_bytes);
	tcase_add_test(tc, test_tag_sections);
	tcase_add_test(tc, test_tag_loop_end);
	tcase_add_test(tc, test_after_marker);
	tcase_add_test(tc, test_blocks);
	tcase_add_test(tc, test_pipe_chunks);
	suite_add_tcase(s, tc);

	tc = tcase_create("section_again");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_section_again, 0, 2);
	suite_add_tcase(s, tc);

	tc = tcase_create("tokens");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_tokens, 0,
	    (int)(sizeof(lex_rows) / sizeof(lex_rows[0])));
	tcase_add_test(tc, test_token_positions);
	tcase_add_test(tc, test_tag_value);
	tcase_add_test(tc, test_all_bytes);
	tcase_add_test(tc, test_scan_bytes);
	tcase_add_test(tc, test_comment_scan);
	suite_add_tcase(s, tc);

	tc = tcase_create("corpus");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_corpus_counts, 0,
	    (int)(sizeof(corpus_rows) / sizeof(corpus_rows[0])));
	tcase_add_test(tc, test_corpus_tags);
	tcase_add_test(tc, test_corpus_all);
	suite_add_tcase(s, tc);
	return s;
}

TU_SUITES(pgn_lex_suite);
