/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_comment.c: comment commands: found, read into numbers (clock,
 * elapsed time, evaluation, timestamp; table-driven), stripped from a
 * comment's text and from a whole game.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "chessdata.h"
#include "check-main.h"

/* Times in nanoseconds: every digit given is kept (to the ninth). */
struct time_row {
	const char *in;
	int ok;
	long long ns;
};

static const struct time_row times[] = {
	{ "0:03:00", 1, 180000000000LL },
	{ "0:00:58.6", 1, 58600000000LL },
	{ "1:02:03.45", 1, 3723450000000LL },
	{ "0:00:00.0001", 1, 100000 },
	{ "0:00:59.99999", 1, 59999990000LL },	/* not cut to 59.999 */
	{ "0:00:01.123456789", 1, 1123456789 },
	{ "0:00:01.1234567891", 1, 1123456789 },	/* the tenth dropped */
	{ "12:34", 1, 754000000000LL },		/* minutes and seconds */
	{ "18", 1, 18000000000LL },
	{ "-0:00:01.5", 1, -1500000000LL },
	{ "100:00:00", 1, 360000000000000LL },
	{ "999999999:00:00", 0, 0 },		/* beyond 292 years */
	{ "0:3:00", 0, 0 },		/* one-digit minutes */
	{ "0:1:00", 0, 0 },
	{ "0:60:00", 0, 0 },
	{ "0:00:5", 0, 0 },
	{ "1:00:00:00", 0, 0 },
	{ "", 0, 0 },
	{ "soon", 0, 0 },
	{ "0:00:01.", 0, 0 },		/* a point without digits */
	{ "0:00:05.", 0, 0 },
	{ "1234567890", 0, 0 },		/* too many digits */
};

START_TEST(test_time)
{
	const struct time_row *r = &times[_i];
	int64_t ns = -7;
	bool ok = cd_comment_parse_time(r->in, strlen(r->in), &ns);

	ck_assert_msg(ok == (r->ok != 0), "%s: ok %d", r->in, ok);
	if (r->ok)
		ck_assert_msg(ns == r->ns, "%s: %lld ns", r->in,
		    (long long)ns);
}
END_TEST

/*
 * H:MM:SS and H:MM:SS.D are read by a shortcut: each byte of such
 * strings, set to each of the 256 values, reads as the same string
 * with a "0" before it and (with a fraction) "00" after it, which the
 * general way reads.
 */
START_TEST(test_time_short)
{
	static const char *const base[] = { "1:23:45", "9:59:59.9",
	    "0:00:00", "0:00:00.0", "5:05:50.5" };
	char t[16], u[16];
	size_t b, n, p, bad = 0;
	int c;

	for (b = 0; b < sizeof(base) / sizeof(base[0]); b++) {
		n = strlen(base[b]);
		for (p = 0; p < n; p++)
			for (c = 0; c < 256; c++) {
				int64_t ms1 = -7, ms2 = -7;
				bool ok1, ok2;

				memcpy(t, base[b], n);
				t[p] = (char)c;
				u[0] = '0';
				memcpy(u + 1, t, n);
				memcpy(u + 1 + n, "00", 2);
				ok1 = cd_comment_parse_time(t, n, &ms1);
				ok2 = cd_comment_parse_time(u,
				    n == 9 ? n + 3 : n + 1, &ms2);
				if (ok1 != ok2 || (ok1 && ms1 != ms2))
					bad++;
			}
	}
	ck_assert_uint_eq(bad, 0);
}
END_TEST

struct eval_row {
	const char *in;
	int ok, kind, value, depth;
};

static const struct eval_row evals[] = {
	{ "0.17", 1, CD_EVAL_CP, 17, -1 },
	{ "-0.3", 1, CD_EVAL_CP, -30, -1 },
	{ "0.0", 1, CD_EVAL_CP, 0, -1 },
	{ "+1.5", 1, CD_EVAL_CP, 150, -1 },
	{ "12", 1, CD_EVAL_CP, 1200, -1 },
	{ ".5", 1, CD_EVAL_CP, 50, -1 },
	{ "0.175", 1, CD_EVAL_CP, 18, -1 },	/* half away from zero */
	{ "-0.175", 1, CD_EVAL_CP, -18, -1 },
	{ "0.17,25", 1, CD_EVAL_CP, 17, 25 },
	{ "0.17, 25", 1, CD_EVAL_CP, 17, 25 },
	{ "#-3", 1, CD_EVAL_MATE, -3, -1 },
	{ "#3", 1, CD_EVAL_MATE, 3, -1 },
	{ "#+2,40", 1, CD_EVAL_MATE, 2, 40 },
	{ "#", 0, 0, 0, 0 },
	{ "-", 0, 0, 0, 0 },
	{ ".", 0, 0, 0, 0 },
	{ "1.", 0, 0, 0, 0 },
	{ "0.17,", 0, 0, 0, 0 },
	{ "0.17,x", 0, 0, 0, 0 },
	{ "mate", 0, 0, 0, 0 },
	{ "1e3", 0, 0, 0, 0 },
};

START_TEST(test_eval)
{
	const struct eval_row *r = &evals[_i];
	int kind = -1;
	int32_t v = -99, d = -99;
	bool ok = cd_comment_parse_eval(r->in, strlen(r->in), &kind, &v, &d);

	ck_assert_msg(ok == (r->ok != 0), "%s: ok %d", r->in, ok);
	if (r->ok) {
		ck_assert_int_eq(kind, r->kind);
		ck_assert_int_eq(v, r->value);
		ck_assert_int_eq(d, r->depth);
	}
}
END_TEST

START_TEST(test_read)
{
	const char *t = "[%eval 0.24] [%clk 0:10:00] good [%emt 0:00:05] "
	    "[%clk 0:09:58.5] [%timestamp 18] [%clk bad] [%eval #-2,7]";
	cd_comment_data d;
	unsigned has = cd_comment_read(t, strlen(t), &d);

	ck_assert_uint_eq(has, CD_COMMENT_CLK | CD_COMMENT_EMT |
	    CD_COMMENT_EVAL | CD_COMMENT_TIMESTAMP);
	ck_assert_int_eq(d.clk_ns, 598500000000LL);	/* last that reads */
	ck_assert_int_eq(d.emt_ns, 5000000000LL);
	ck_assert_int_eq(d.eval_kind, CD_EVAL_MATE);
	ck_assert_int_eq(d.eval, -2);
	ck_assert_int_eq(d.eval_depth, 7);
	ck_assert_int_eq(d.timestamp, 18);
	t = "no commands [% clk 1] [%] [clk 0:01:00]";
	ck_assert_uint_eq(cd_comment_read(t, strlen(t), &d), 0);
	ck_assert_int_eq(d.eval_depth, -1);
}
END_TEST

START_TEST(test_tcec)
{
	const char *t = "d=33, sd=33, mt=37918, tl=1765082, s=54971964, "
	    "pv=d4 e6 Bd3, tb=0, h=0.0, wv=-0.60, R50=50, mb=+0+0,";
	cd_comment_data d;

	ck_assert_uint_eq(cd_comment_read(t, strlen(t), &d),
	    CD_COMMENT_CLK | CD_COMMENT_EMT | CD_COMMENT_EVAL);
	ck_assert_int_eq(d.clk_ns, 1765082000000LL);
	ck_assert_int_eq(d.emt_ns, 37918000000LL);
	ck_assert_int_eq(d.eval_kind, CD_EVAL_CP);
	ck_assert_int_eq(d.eval, -60);
	ck_assert_int_eq(d.eval_depth, 33);
	t = "d=12, wv=-M7, tl=5000";
	ck_assert_uint_eq(cd_comment_read(t, strlen(t), &d),
	    CD_COMMENT_CLK | CD_COMMENT_EVAL);
	ck_assert_int_eq(d.eval_kind, CD_EVAL_MATE);
	ck_assert_int_eq(d.eval, -7);
	/* a command wins over the fields */
	t = "[%clk 0:01:00] tl=5000, wv=1.00";
	ck_assert_uint_eq(cd_comment_read(t, strlen(t), &d),
	    CD_COMMENT_CLK | CD_COMMENT_EVAL);
	ck_assert_int_eq(d.clk_ns, 60000000000LL);
	ck_assert_int_eq(d.eval, 100);
	/* text that is no field */
	t = "a=b, wv=x, tl=1.5, mt=, x = 3";
	ck_assert_uint_eq(cd_comment_read(t, strlen(t), &d), 0);
}
END_TEST

START_TEST(test_cmd_next)
{
	const char *t = "a [%csl Ra1,Gb2] b [%cal  Ge2e4 ] [%x] [%y";
	cd_comment_cmd c;
	size_t pos = 0;

	ck_assert(cd_comment_cmd_next(t, strlen(t), &pos, &c));
	ck_assert_int_eq(c.name_len, 3);
	ck_assert(memcmp(c.name, "csl", 3) == 0);
	ck_assert_int_eq(c.args_len, 7);
	ck_assert(memcmp(c.args, "Ra1,Gb2", 7) == 0);
	ck_assert_int_eq(c.start, 2);
	ck_assert_int_eq(c.end, 16);
	ck_assert(cd_comment_cmd_next(t, strlen(t), &pos, &c));
	ck_assert(memcmp(c.name, "cal", 3) == 0);
	ck_assert_int_eq(c.args_len, 5);
	ck_assert(cd_comment_cmd_next(t, strlen(t), &pos, &c));
	ck_assert_int_eq(c.name_len, 1);
	ck_assert_int_eq(c.args_len, 0);
	ck_assert(!cd_comment_cmd_next(t, strlen(t), &pos, &c));
}
END_TEST

struct strip_row {
	const char *in, *names, *out;
};

static const struct strip_row strips[] = {
	{ "[%clk 0:10:00]", NULL, "" },
	{ "[%eval 0.24] [%clk 0:10:00]", "clk", "[%eval 0.24]" },
	{ "good [%clk 0:10:00] move", "clk,eval", "good move" },
	{ "a[%clk 1]b", NULL, "a b" },
	{ "  x  \t y [%csl Ra1]", "csl", "x y" },
	{ "[%csl Ra1][%cal Ge2e4] keep [%mine 1]", "csl,cal", "keep [%mine 1]" },
	{ "[%mine 1] other", "mine", "other" },
	{ "[%clk 1] [%emt 2]", "emt", "[%clk 1]" },
	{ "[%clk 1] [%emt 2]", "", "[%clk 1] [%emt 2]" },
	{ "[%clkx 1]", "clk", "[%clkx 1]" },
	{ "[%clk 1", NULL, "[%clk 1" },
};

START_TEST(test_strip)
{
	const struct strip_row *r = &strips[_i];
	char buf[128];
	size_t n;

	n = cd_comment_strip(r->in, strlen(r->in), r->names, buf);
	ck_assert_str_eq(buf, r->out);
	ck_assert_uint_eq(n, strlen(r->out));
	/* in place */
	strcpy(buf, r->in);
	n = cd_comment_strip(buf, strlen(buf), r->names, buf);
	ck_assert_str_eq(buf, r->out);
}
END_TEST

/* cd_comment_remove: the text as written but around a command */
static const struct strip_row removes[] = {
	{ "[%clk 0:10:00]", NULL, "" },
	{ "a\n\tb [%clk 1]\n c", "clk", "a\n\tb c" },
	{ "  x  \t y [%csl Ra1]", "csl", "x  \t y" },
	{ "a[%clk 1]b", NULL, "a b" },
	{ "a\r\n[%clk 1]\r\n\r\nb\r\nc", "clk", "a b\r\nc" },
	{ "[%eval 0.24]\n\n[%clk 0:10:00]", "clk", "[%eval 0.24]" },
	{ "[%a[%x]b 1]  keep", "x,a", "keep" },
	{ "one  two\n", "clk", "one  two" },
	{ "[%clk 1", NULL, "[%clk 1" },
};

START_TEST(test_remove)
{
	const struct strip_row *r = &removes[_i];
	char buf[128];
	size_t n;

	n = cd_comment_remove(r->in, strlen(r->in), r->names, buf);
	ck_assert_str_eq(buf, r->out);
	ck_assert_uint_eq(n, strlen(r->out));
	strcpy(buf, r->in);
	n = cd_comment_remove(buf, strlen(buf), r->names, buf);
	ck_assert_str_eq(buf, r->out);
}
END_TEST

START_TEST(test_strip_game)
{
	static const char pgn[] =
	    "[Event \"x\"]\n\n{[%clk 0:03:00]} 1. e4 {[%clk 0:02:59] nice} "
	    "e5 {[%eval 0.2] [%clk 0:02:58]} (1... c5 {[%clk 0:02:57]}) "
	    "2. Nf3 {[%csl Ra1]} *\n";
	cd_game *g = cd_game_new();
	cd_buf out = { 0 };
	const char *want;

	ck_assert_int_eq(cd_pgn_parse_text(g, pgn, sizeof(pgn) - 1, NULL,
	    NULL), CD_OK);
	ck_assert_uint_eq(cd_game_strip_commands(g, "clk"), 4);
	ck_assert_int_eq(cd_pgn_write_buf(g, 0, &out), CD_OK);
	cd_utf8_append(&out, "", 1);	/* a NUL: a C string */
	want = "1. e4 { nice } 1... e5 { [%eval 0.2] } ( 1... c5 ) 2. Nf3 "
	    "{ [%csl Ra1] } *";
	ck_assert_msg(strstr(out.data, want) != NULL, "%.*s",
	    (int)out.len, out.data);
	ck_assert_uint_eq(cd_game_strip_commands(g, NULL), 2);
	out.len = 0;
	ck_assert_int_eq(cd_pgn_write_buf(g, 0, &out), CD_OK);
	cd_utf8_append(&out, "", 1);
	ck_assert_msg(strstr(out.data, "\n1. e4 { nice } 1... e5 ( 1... c5 ) "
	    "2. Nf3 *") != NULL, "%.*s", (int)out.len, out.data);
	ck_assert_uint_eq(cd_game_strip_commands(g, NULL), 0);
	cd_buf_free(&out);
	cd_game_free(g);
}
END_TEST

static Suite *
comment_suite(void)
{
	Suite *s = suite_create("comment");
	TCase *tc = tcase_create("commands");

	tcase_add_loop_test(tc, test_time, 0,
	    (int)(sizeof(times) / sizeof(times[0])));
	tcase_add_test(tc, test_time_short);
	tcase_add_loop_test(tc, test_eval, 0,
	    (int)(sizeof(evals) / sizeof(evals[0])));
	tcase_add_test(tc, test_read);
	tcase_add_test(tc, test_tcec);
	tcase_add_test(tc, test_cmd_next);
	tcase_add_loop_test(tc, test_strip, 0,
	    (int)(sizeof(strips) / sizeof(strips[0])));
	tcase_add_loop_test(tc, test_remove, 0,
	    (int)(sizeof(removes) / sizeof(removes[0])));
	tcase_add_test(tc, test_strip_game);
	suite_add_tcase(s, tc);
	return s;
}

TU_SUITES(comment_suite);
