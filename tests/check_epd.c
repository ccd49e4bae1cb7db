/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_epd.c: EPD records: every opcode of standard 16.2.5, valid and
 * invalid; the syntax of operations and strings; FEN lines; the
 * canonical writer; the builder; the line reader.
 */
#define _GNU_SOURCE 1	/* fopencookie */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chessdata.h"
#include "check-main.h"

#define START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
/* the first operation of START " op" starts at column 54 */
#define KK "4k3/8/8/8/8/8/8/4K3 w - -"
#define TWO_N "4k3/8/8/8/8/8/8/1N2KN2 w - -"

enum { ANY = -1, NONE = -2 };

/*
 * One row: the line; the status cd_epd_parse returns; the code and
 * column of the first finding (NONE: no finding at all; column 0: not
 * checked); the canonical line (NULL: not checked, or invalid).
 */
struct row {
	const char *line;
	cd_status status;
	int code;
	size_t col;
	const char *norm;
};

static const struct row rows[] = {
	/* no operations */
	{ START, CD_OK, NONE, 0, START },
	{ KK, CD_OK, NONE, 0, KK },

	/* acn, acs: one non-negative integer */
	{ START " acn 1000;", CD_OK, NONE, 0, START " acn 1000;" },
	{ START " acn 0;", CD_OK, NONE, 0, START " acn 0;" },
	{ START " acn -1;", CD_ERR_RANGE, CD_EPD_E_OPERAND, 58, NULL },
	{ START " acn x;", CD_ERR_SYNTAX, CD_EPD_E_OPERAND, 58, NULL },
	{ START " acn;", CD_ERR_SYNTAX, CD_EPD_E_OPERAND, 54, NULL },
	{ START " acn 1 2;", CD_ERR_SYNTAX, CD_EPD_E_OPERAND, 54, NULL },
	{ START " acn 99999999999999999999;", CD_ERR_RANGE, CD_EPD_E_OPERAND,
	    58, NULL },
	{ START " acn 1.5;", CD_ERR_SYNTAX, CD_EPD_E_OPERAND, 58, NULL },
	{ START " acs 9;", CD_OK, NONE, 0, START " acs 9;" },
	{ START " acs -9;", CD_ERR_RANGE, CD_EPD_E_OPERAND, 58, NULL },
	{ START " acs \"9\";", CD_ERR_SYNTAX, CD_EPD_E_OPERAND, 58, NULL },

	/* am, bm: a set of legal moves, written in ASCII order */
	{ START " am e4;", CD_OK, NONE, 0, START " am e4;" },
	{ START " am;", CD_OK, NONE, 0, START " am;" },
	{ START " am e4 Nf3;", CD_OK, NONE, 0, START " am Nf3 e4;" },
	{ START " am e5;", CD_ERR_ILLEGAL, CD_EPD_E_MOVE, 57, NULL },
	{ START " am \"e4\";", CD_ERR_SYNTAX, CD_EPD_E_OPERAND, 57, NULL },
	{ START " bm d4 Nf3 c4;", CD_OK, NONE, 0, START " bm Nf3 c4 d4;" },
	{ START " bm d4 Nf3 d4;", CD_OK, CD_EPD_N_FORMAT, 64,
	    START " bm Nf3 d4;" },
	{ START " bm e2e4;", CD_OK, CD_EPD_N_SAN, 57, START " bm e4;" },
	{ START " bm Ng1f3 nf3;", CD_OK, CD_EPD_N_SAN, 57, START " bm Nf3;" },
	{ START " bm Ke2;", CD_ERR_ILLEGAL, CD_EPD_E_MOVE, 57, NULL },
	{ START " bm Zz9;", CD_ERR_SYNTAX, CD_EPD_E_MOVE, 57, NULL },
	{ START " bm --;", CD_ERR_ILLEGAL, CD_EPD_E_MOVE, 57, NULL },
	{ TWO_N " bm Nd2;", CD_ERR_AMBIGUOUS, CD_EPD_E_MOVE, 33, NULL },
	{ TWO_N " bm Nbd2;", CD_OK, NONE, 0, TWO_N " bm Nbd2;" },

	/* c0-c9, v0-v9, eco, nic: one string or none */
	{ START " c0;", CD_OK, NONE, 0, START " c0;" },
	{ START " c0 \"x y\";", CD_OK, NONE, 0, START " c0 \"x y\";" },
	{ START " c9 \"z\"; c1 \"a\";", CD_OK, NONE, 0,
	    START " c1 \"a\"; c9 \"z\";" },
	{ START " c0 x;", CD_ERR_SYNTAX, CD_EPD_E_OPERAND, 57, NULL },
	{ START " c0 8;", CD_ERR_SYNTAX, CD_EPD_E_OPERAND, 57, NULL },
	{ START " c0 \"a\" \"b\";", CD_ERR_SYNTAX, CD_EPD_E_OPERAND, 54, NULL },
	{ START " v0;", CD_OK, NONE, 0, START " v0;" },
	{ START " v5 \"Ruy Lopez\";", CD_OK, NONE, 0,
	    START " v5 \"Ruy Lopez\";" },
	{ START " v0 1;", CD_ERR_SYNTAX, CD_EPD_E_OPERAND, 57, NULL },
	{ START " eco \"C20\";", CD_OK, NONE, 0, START " eco \"C20\";" },
	{ START " eco;", CD_OK, NONE, 0, START " eco;" },
	{ START " eco C20;", CD_ERR_SYNTAX, CD_EPD_E_OPERAND, 58, NULL },
	{ START " nic \"KP 1.1\";", CD_OK, NONE, 0, START " nic \"KP 1.1\";" },
	{ START " nic KP;", CD_ERR_SYNTAX, CD_EPD_E_OPERAND, 58, NULL },
	{ START " c10 \"x\";", CD_OK, CD_EPD_N_UNKNOWN, 54,
	    START " c10 \"x\";" },

	/* ce: an integer in -32767..32766 */
	{ START " ce 32766;", CD_OK, NONE, 0, START " ce 32766;" },
	{ START " ce -32767;", CD_OK, NONE, 0, START " ce -32767;" },
	{ START " ce +5;", CD_OK, NONE, 0, START " ce 5;" },
	{ START " ce 32767;", CD_ERR_RANGE, CD_EPD_E_OPERAND, 57, NULL },
	{ START " ce -32768;", CD_ERR_RANGE, CD_EPD_E_OPERAND, 57, NULL },
	{ START " ce 1.5;", CD_ERR_SYNTAX, CD_EPD_E_OPERAND, 57, NULL },
	{ START " ce;", CD_ERR_SYNTAX, CD_EPD_E_OPERAND, 54, NULL },

	/* dm: a positive integer */
	{ START " dm 3;", CD_OK, NONE, 0, START " dm 3;" },
	{ START " dm 0;", CD_ERR_RANGE, CD_EPD_E_OPERAND, 57, NULL },
	{ START " dm -21;", CD_ERR_RANGE, CD_EPD_E_OPERAND, 57, NULL },

	/* draw_*, resign: no operands; draw_claim, draw_offer need sm */
	{ START " draw_accept;", CD_OK, NONE, 0, START " draw_accept;" },
	{ START " draw_accept x;", CD_ERR_SYNTAX, CD_EPD_E_OPERAND, 54, NULL },
	{ START " draw_reject;", CD_OK, NONE, 0, START " draw_reject;" },
	{ START " draw_claim;", CD_ERR_SYNTAX, CD_EPD_E_OPERAND, 54, NULL },
	{ START " sm e4; draw_claim;", CD_OK, NONE, 0,
	    START " draw_claim; sm e4;" },
	{ START " draw_offer;", CD_ERR_SYNTAX, CD_EPD_E_OPERAND, 54, NULL },
	{ START " draw_offer; sm d4;", CD_OK, NONE, 0,
	    START " draw_offer; sm d4;" },
	{ START " resign;", CD_OK, NONE, 0, START " resign;" },
	{ START " resign now;", CD_ERR_SYNTAX, CD_EPD_E_OPERAND, 54, NULL },

	/* fmvn, hmvc: the clocks */
	{ START " fmvn 12; hmvc 7;", CD_OK, NONE, 0,
	    START " fmvn 12; hmvc 7;" },
	{ START " fmvn 0;", CD_ERR_RANGE, CD_EPD_E_OPERAND, 59, NULL },
	{ START " hmvc 0;", CD_OK, NONE, 0, START " hmvc 0;" },
	{ START " hmvc -1;", CD_ERR_RANGE, CD_EPD_E_OPERAND, 59, NULL },
	{ START " hmvc 4294967296;", CD_ERR_RANGE, CD_EPD_E_OPERAND, 59,
	    NULL },
	{ START " fmvn x;", CD_ERR_SYNTAX, CD_EPD_E_OPERAND, 59, NULL },

	/* id: one string */
	{ START " id \"BK.01\";", CD_OK, NONE, 0, START " id \"BK.01\";" },
	{ START " id;", CD_ERR_SYNTAX, CD_EPD_E_OPERAND, 54, NULL },
	{ START " id BK.01;", CD_ERR_SYNTAX, CD_EPD_E_OPERAND, 57, NULL },
	{ START " id \"a\" \"b\";", CD_ERR_SYNTAX, CD_EPD_E_OPERAND, 54, NULL },

	/* noop: anything */
	{ START " noop;", CD_OK, NONE, 0, START " noop;" },
	{ START " noop +1 x \"s\" e2e4 1.50;", CD_OK, NONE, 0,
	    START " noop +1 x \"s\" e2e4 1.50;" },

	/* pm, sm: one legal move */
	{ START " pm e4;", CD_OK, NONE, 0, START " pm e4;" },
	{ START " pm;", CD_ERR_SYNTAX, CD_EPD_E_OPERAND, 54, NULL },
	{ START " pm e4 d4;", CD_ERR_SYNTAX, CD_EPD_E_OPERAND, 54, NULL },
	{ START " pm e5;", CD_ERR_ILLEGAL, CD_EPD_E_MOVE, 57, NULL },
	{ START " sm Nc3;", CD_OK, NONE, 0, START " sm Nc3;" },
	{ START " sm b1c3;", CD_OK, CD_EPD_N_SAN, 57, START " sm Nc3;" },
	{ START " sm Nc6;", CD_ERR_ILLEGAL, CD_EPD_E_MOVE, 57, NULL },
	{ START " sm;", CD_ERR_SYNTAX, CD_EPD_E_OPERAND, 54, NULL },

	/* pv: a legal sequence, played out; pm is its first move */
	{ START " pv e4 e5 Nf3 Nc6;", CD_OK, NONE, 0,
	    START " pv e4 e5 Nf3 Nc6;" },
	{ START " pv;", CD_OK, NONE, 0, START " pv;" },
	{ START " pv e2e4 e7e5 g1f3;", CD_OK, CD_EPD_N_SAN, 57,
	    START " pv e4 e5 Nf3;" },
	{ START " pv e4 e4;", CD_ERR_ILLEGAL, CD_EPD_E_MOVE, 60, NULL },
	{ START " pv e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7;", CD_OK, CD_EPD_N_SAN, 79,
	    START " pv e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#;" },
	{ START " pm e4; pv e4 e5;", CD_OK, NONE, 0,
	    START " pm e4; pv e4 e5;" },
	{ START " pm d4; pv e4 e5;", CD_ERR_SYNTAX, CD_EPD_E_OPERAND, 54,
	    NULL },

	/* rc, tcgs: positive */
	{ START " rc 3;", CD_OK, NONE, 0, START " rc 3;" },
	{ START " rc 0;", CD_ERR_RANGE, CD_EPD_E_OPERAND, 57, NULL },
	{ START " tcgs 1;", CD_OK, NONE, 0, START " tcgs 1;" },
	{ START " tcgs 0;", CD_ERR_RANGE, CD_EPD_E_OPERAND, 59, NULL },

	/* tcri, tcsi: two strings */
	{ START " tcri \"a@b.org\" \"Arasan\";", CD_OK, NONE, 0,
	    START " tcri \"a@b.org\" \"Arasan\";" },
	{ START " tcri \"a@b.org\";", CD_ERR_SYNTAX, CD_EPD_E_OPERAND, 54,
	    NULL },
	{ START " tcsi \"a@b.org\" \"X\";", CD_OK, NONE, 0,
	    START " tcsi \"a@b.org\" \"X\";" },
	{ START " tcsi \"a@b.org\" X;", CD_ERR_SYNTAX, CD_EPD_E_OPERAND, 69,
	    NULL },

	/* unknown opcodes: noted, kept; private ones: kept silently */
	{ START " wdl 2; dtz -3;", CD_OK, CD_EPD_N_UNKNOWN, 54,
	    START " dtz -3; wdl 2;" },
	{ START " Ae \"x\"; Zq 1.5 +7;", CD_OK, NONE, 0,
	    START " Ae \"x\"; Zq 1.5 +7;" },
	{ START " a \"x\";", CD_OK, CD_EPD_N_UNKNOWN, 54, START " a \"x\";" },
	{ START " x1_ 3;", CD_OK, CD_EPD_N_UNKNOWN, 54, START " x1_ 3;" },
	{ START " Abcdefghijklmno;", CD_OK, NONE, 0,
	    START " Abcdefghijklmno;" },

	/* opcode syntax, duplicates */
	{ START " Abcdefghijklmnop;", CD_ERR_SYNTAX, CD_EPD_E_OPCODE, 54,
	    NULL },
	{ START " 1bad 2;", CD_ERR_SYNTAX, CD_EPD_E_OPCODE, 54, NULL },
	{ START " gate-prone;", CD_ERR_SYNTAX, CD_EPD_E_OPCODE, 54, NULL },
	{ START " _x;", CD_ERR_SYNTAX, CD_EPD_E_OPCODE, 54, NULL },
	{ START " - bm e4;", CD_ERR_SYNTAX, CD_EPD_E_OPCODE, 54, NULL },
	{ START " bm e4; bm d4;", CD_ERR_SYNTAX, CD_EPD_E_DUPLICATE, 61, NULL },
	{ START " id \"a\"; id \"b\";", CD_ERR_SYNTAX, CD_EPD_E_DUPLICATE, 62,
	    NULL },

	/* strings */
	{ START " id \"a\\\"b\\\\c\";", CD_OK, NONE, 0,
	    START " id \"a\\\"b\\\\c\";" },
	{ START " id \"semi;colon\"; bm e4;", CD_OK, NONE, 0,
	    START " bm e4; id \"semi;colon\";" },
	{ START " id \"a\\nb\";", CD_OK, CD_EPD_N_FORMAT, 59,
	    START " id \"a\\\\nb\";" },
	{ START " id \"open;", CD_ERR_SYNTAX, CD_EPD_E_STRING, 57, NULL },
	{ START " id \"a\"b;", CD_ERR_SYNTAX, CD_EPD_E_STRING, 60, NULL },
	{ START " id \"tab\there\";", CD_ERR_SYNTAX, CD_EPD_E_CHAR, 61, NULL },
	{ START " id \"caf\xe9\";", CD_OK, NONE, 0, START " id \"caf\xe9\";" },
	{ START " id \"\";", CD_OK, NONE, 0, START " id \"\";" },

	/* control characters */
	{ START " noop x\x01;", CD_ERR_SYNTAX, CD_EPD_E_CHAR, 60, NULL },
	{ START " bm e4;\x7f", CD_ERR_SYNTAX, CD_EPD_E_CHAR, 60, NULL },

	/* spacing, semicolons */
	{ START " bm e4", CD_OK, CD_EPD_N_FORMAT, 59, START " bm e4;" },
	{ START " resign", CD_OK, CD_EPD_N_FORMAT, 60, START " resign;" },
	{ START " ; bm e4;;", CD_OK, CD_EPD_N_FORMAT, 54, START " bm e4;" },
	{ "  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR   w\tKQkq  -   bm"
	    "   e4 ;   id  \"x\" ;  ", CD_OK, NONE, 0,
	    START " bm e4; id \"x\";" },
	{ START " id \"x\";bm e4;", CD_OK, NONE, 0, START " bm e4; id \"x\";" },
	{ START " bm e4;\r", CD_OK, NONE, 0, START " bm e4;" },

	/* FEN lines: the clocks become hmvc and fmvn */
	{ START " 0 1", CD_OK, NONE, 0, START " fmvn 1; hmvc 0;" },
	{ START " 3 20 bm e4; id \"x\";", CD_OK, NONE, 0,
	    START " bm e4; fmvn 20; hmvc 3; id \"x\";" },
	{ START " 3 20; bm e4;", CD_OK, CD_EPD_N_FORMAT, 58,
	    START " bm e4; fmvn 20; hmvc 3;" },
	{ START " 3 20 hmvc 3;", CD_OK, NONE, 0, START " fmvn 20; hmvc 3;" },
	{ START " 3 20 hmvc 4;", CD_ERR_SYNTAX, CD_EPD_E_OPERAND, 64, NULL },
	{ START " 0 0", CD_ERR_SYNTAX, CD_EPD_E_FIELDS, 56, NULL },
	{ START " 0 bm e4;", CD_ERR_SYNTAX, CD_EPD_E_OPCODE, 54, NULL },

	/* the fields and the position */
	{ "", CD_ERR_SYNTAX, CD_EPD_E_FIELDS, 1, NULL },
	{ "rnbqkbnr/pppppppp w", CD_ERR_SYNTAX, CD_EPD_E_FIELDS, 20, NULL },
	{ "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4;",
	    CD_ERR_SYNTAX, CD_EPD_E_FIELDS, 0, NULL },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - bm e4;",
	    CD_ERR_SYNTAX, CD_EPD_E_FIELDS, 45, NULL },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR  w   KQkq  e9 bm e4;",
	    CD_ERR_SYNTAX, CD_EPD_E_FIELDS, 56, NULL },
	{ "8/8/8/8/8/8/8/4K3 w - - bm Kd1;", CD_ERR_POSITION,
	    CD_EPD_E_POSITION, 1, NULL },
	{ "4k3/8/8/8/8/8/8/4K3 w K - bm Kd1;", CD_ERR_POSITION,
	    CD_EPD_E_POSITION, 0, NULL },
	{ "4k3/8/8/8/8/8/8/4K2R w K - bm O-O;", CD_OK, NONE, 0,
	    "4k3/8/8/8/8/8/8/4K2R w K - bm O-O;" },
	{ "4k3/8/8/8/8/8/8/4K2R w K - bm e1g1;", CD_OK, CD_EPD_N_SAN, 31,
	    "4k3/8/8/8/8/8/8/4K2R w K - bm O-O;" },
	/* an invalid position still gets its operations checked */
	{ "8/8/8/8/8/8/8/4K3 w - - bm Kd1; 9x;", CD_ERR_POSITION,
	    CD_EPD_E_POSITION, 1, NULL },
	/* en passant square after a double push, kept */
	{ "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 bm Nf3;",
	    CD_OK, NONE, 0,
	    "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 bm Nf3;" },
	/* the standard's own example of a mate in five */
	{ KK " ce 32758;", CD_OK, NONE, 0, KK " ce 32758;" },
};

static void
check_row(const struct row *r, size_t len)
{
	cd_epd *e = cd_epd_new();
	cd_status st;
	const cd_epd_finding *f;

	ck_assert_ptr_nonnull(e);
	st = cd_epd_parse(e, r->line, len, 0);
	ck_assert_msg(st == r->status, "'%s': status %d, expected %d", r->line,
	    st, r->status);
	f = cd_epd_finding_get(e, 0);
	if (r->code == NONE) {
		ck_assert_msg(f == NULL, "'%s': unexpected finding '%s'",
		    r->line, f ? f->message : "");
	} else if (r->code != ANY) {
		ck_assert_msg(f != NULL, "'%s': no finding", r->line);
		ck_assert_msg((int)f->code == r->code, "'%s': code %d (%s), "
		    "expected %d", r->line, f->code, f->message, r->code);
		ck_assert_msg(f->error == (r->code < CD_EPD_N_UNKNOWN),
		    "'%s': wrong severity", r->line);
		if (r->col != 0)
			ck_assert_msg(f->col == r->col, "'%s': column %zu (%s), "
			    "expected %zu", r->line, f->col, f->message,
			    r->col);
		ck_assert(f->message[0] != '\0');
	}
	ck_assert(cd_epd_invalid(e) == (r->status != CD_OK));
	if (r->norm != NULL) {
		const char *text;
		size_t n;

		ck_assert_int_eq(cd_epd_write(e, &text, &n), CD_OK);
		ck_assert_str_eq(text, r->norm);
		ck_assert_uint_eq(n, strlen(r->norm));
		/* the canonical form reads back to itself, without notes */
		ck_assert_int_eq(cd_epd_parse(e, r->norm, n, 0), CD_OK);
		if (strstr(r->norm, " c10 ") == NULL &&
		    strstr(r->norm, " a ") == NULL &&
		    strstr(r->norm, " x1_ ") == NULL &&
		    strstr(r->norm, " wdl ") == NULL)
			ck_assert_uint_eq(cd_epd_finding_count(e), 0);
		ck_assert_int_eq(cd_epd_write(e, &text, &n), CD_OK);
		ck_assert_str_eq(text, r->norm);
	} else if (r->status != CD_OK) {
		const char *text;
		size_t n;

		ck_assert_int_eq(cd_epd_write(e, &text, &n), CD_ERR_ARG);
	}
	cd_epd_free(e);
}

START_TEST(test_rows)
{
	check_row(&rows[_i], strlen(rows[_i].line));
}
END_TEST

/* Findings come in column order, each with its opcode. */
START_TEST(test_findings_order)
{
	cd_epd *e = cd_epd_new();
	const char *line = START " ce 99999; wdl 1; bm e5; id x; dm 0";
	size_t i, n;

	ck_assert_int_eq(cd_epd_parse(e, line, strlen(line), 0), CD_ERR_RANGE);
	n = cd_epd_finding_count(e);
	ck_assert_uint_eq(n, 6);
	for (i = 1; i < n; i++)
		ck_assert_uint_le(cd_epd_finding_get(e, i - 1)->col,
		    cd_epd_finding_get(e, i)->col);
	ck_assert_str_eq(cd_epd_finding_get(e, 0)->opcode, "ce");
	ck_assert_str_eq(cd_epd_finding_get(e, 1)->opcode, "wdl");
	ck_assert_str_eq(cd_epd_finding_get(e, 2)->opcode, "bm");
	ck_assert_str_eq(cd_epd_finding_get(e, 3)->opcode, "id");
	ck_assert_str_eq(cd_epd_finding_get(e, 4)->opcode, "dm");
	ck_assert(!cd_epd_finding_get(e, 5)->error);	/* missing ';' */
	ck_assert_ptr_null(cd_epd_finding_get(e, 6));
	cd_epd_free(e);
}
END_TEST

/* A hostile line: 100 findings listed, then one that says there are
 * more, an error if any of the rest is. */
START_TEST(test_many_findings)
{
	char line[2048];
	size_t n, i;
	cd_epd *e = cd_epd_new();
	const cd_epd_finding *f;

	n = (size_t)snprintf(line, sizeof(line), "%s", START);
	for (i = 0; i < 300; i++) {
		line[n++] = ' ';
		line[n++] = ';';
	}
	n += (size_t)snprintf(line + n, sizeof(line) - n, " bm e5;");
	ck_assert_int_eq(cd_epd_parse(e, line, n, 0), CD_ERR_ILLEGAL);
	ck_assert_uint_eq(cd_epd_finding_count(e), 101);
	ck_assert(!cd_epd_finding_get(e, 99)->error);
	f = cd_epd_finding_get(e, 100);
	ck_assert(f->error);
	ck_assert_int_eq(f->code, CD_EPD_E_MOVE);
	ck_assert_ptr_nonnull(strstr(f->message, "too many findings"));
	ck_assert(cd_epd_invalid(e));
	/* only notes: still valid */
	n -= sizeof(" bm e5;") - 1;
	ck_assert_int_eq(cd_epd_parse(e, line, n, 0), CD_OK);
	ck_assert_uint_eq(cd_epd_finding_count(e), 101);
	ck_assert(!cd_epd_finding_get(e, 100)->error);
	ck_assert(!cd_epd_invalid(e));
	cd_epd_free(e);
}
END_TEST

/* Without a position the operations are still read and checked, all
 * but the moves. */
START_TEST(test_no_position)
{
	static const char line[] = "8/8/8/8/8/8/8/4K3 w - - 0 1 bm Kd1; 9x; "
	    "dm 0;";
	cd_epd *e = cd_epd_new();

	ck_assert_int_eq(cd_epd_parse(e, line, strlen(line), 0),
	    CD_ERR_POSITION);
	ck_assert_uint_eq(cd_epd_finding_count(e), 3);
	ck_assert_int_eq(cd_epd_finding_get(e, 0)->code, CD_EPD_E_POSITION);
	ck_assert_int_eq(cd_epd_finding_get(e, 1)->code, CD_EPD_E_OPCODE);
	ck_assert_uint_eq(cd_epd_finding_get(e, 1)->col, 37);
	ck_assert_int_eq(cd_epd_finding_get(e, 2)->code, CD_EPD_E_OPERAND);
	ck_assert_ptr_null(cd_epd_board(e));
	ck_assert_int_eq(cd_epd_op_find(e, "bm")->operands[0].kind,
	    CD_EPD_TOKEN);
	cd_epd_free(e);
}
END_TEST

/* A NUL byte anywhere makes the line invalid, at its column. */
START_TEST(test_nul)
{
	static const char line[] = START " id \"a\0b\";";
	cd_epd *e = cd_epd_new();
	const cd_epd_finding *f;

	ck_assert_int_eq(cd_epd_parse(e, line, sizeof(line) - 1, 0),
	    CD_ERR_SYNTAX);
	f = cd_epd_finding_get(e, 0);
	ck_assert_int_eq(f->code, CD_EPD_E_CHAR);
	ck_assert_uint_eq(f->col, 59);
	ck_assert_ptr_null(cd_epd_board(e));
	cd_epd_free(e);
}
END_TEST

/* What the parser keeps: operands, kinds, values, columns, the board. */
START_TEST(test_operands)
{
	static const char line[] = START " noop +7 -3 1.25 x \"q\\\"\";"
	    " pv e4 e5; hmvc 5; fmvn 9;";
	cd_epd *e = cd_epd_new();
	const cd_epd_op *o;
	const cd_board *b;

	ck_assert_int_eq(cd_epd_parse(e, line, strlen(line), 0), CD_OK);
	ck_assert_uint_eq(cd_epd_op_count(e), 4);
	o = cd_epd_op_get(e, 0);
	ck_assert_str_eq(o->opcode, "noop");
	ck_assert_uint_eq(o->col, 54);
	ck_assert_uint_eq(o->count, 5);
	ck_assert_int_eq(o->operands[0].kind, CD_EPD_INTEGER);
	ck_assert_int_eq(o->operands[0].integer, 7);
	ck_assert_str_eq(o->operands[0].text, "+7");
	ck_assert_uint_eq(o->operands[0].col, 59);
	ck_assert_int_eq(o->operands[1].integer, -3);
	ck_assert_int_eq(o->operands[2].kind, CD_EPD_FLOAT);
	ck_assert(o->operands[2].real == 1.25);
	ck_assert_int_eq(o->operands[3].kind, CD_EPD_TOKEN);
	ck_assert_int_eq(o->operands[4].kind, CD_EPD_STRING);
	ck_assert_str_eq(o->operands[4].text, "q\"");
	ck_assert_uint_eq(o->operands[4].len, 2);
	o = cd_epd_op_find(e, "pv");
	ck_assert_ptr_nonnull(o);
	ck_assert_int_eq(o->operands[0].kind, CD_EPD_MOVE);
	ck_assert_int_eq(o->operands[0].move,
	    CD_MOVE(CD_SQ(4, 1), CD_SQ(4, 3), CD_MK_NORMAL));
	ck_assert_int_eq(o->operands[1].move,
	    CD_MOVE(CD_SQ(4, 6), CD_SQ(4, 4), CD_MK_NORMAL));
	ck_assert_ptr_null(cd_epd_op_find(e, "bm"));
	b = cd_epd_board(e);
	ck_assert_ptr_nonnull(b);
	ck_assert_uint_eq(b->halfmove, 5);
	ck_assert_uint_eq(b->fullmove, 9);
	ck_assert_int_eq(b->side, CD_WHITE);
	cd_epd_free(e);
}
END_TEST

/* FEN clocks feed the board; CD_EPD_NO_FEN refuses them. */
START_TEST(test_fen_clocks)
{
	static const char line[] = START " 12 34 bm e4;";
	cd_epd *e = cd_epd_new();

	ck_assert_int_eq(cd_epd_parse(e, line, strlen(line), 0), CD_OK);
	ck_assert_uint_eq(cd_epd_board(e)->halfmove, 12);
	ck_assert_uint_eq(cd_epd_board(e)->fullmove, 34);
	ck_assert_int_eq(cd_epd_op_find(e, "hmvc")->operands[0].integer, 12);
	ck_assert_int_eq(cd_epd_parse(e, line, strlen(line), CD_EPD_NO_FEN),
	    CD_ERR_SYNTAX);
	ck_assert_int_eq(cd_epd_finding_get(e, 0)->code, CD_EPD_E_FIELDS);
	cd_epd_free(e);
}
END_TEST

/* Lines of any length: a 200 kB line of operands. */
START_TEST(test_long_line)
{
	size_t n = 0, cap = 300000, i;
	char *line = malloc(cap);
	cd_epd *e = cd_epd_new();
	const char *text;
	size_t len;

	n = (size_t)snprintf(line, cap, "%s id \"", START);
	for (i = 0; i < 1000; i++)
		line[n++] = 'a';
	n += (size_t)snprintf(line + n, cap - n, "\"; noop");
	for (i = 0; i < 40000; i++)
		n += (size_t)snprintf(line + n, cap - n, " x%zu", i);
	line[n++] = ';';
	ck_assert_int_eq(cd_epd_parse(e, line, n, 0), CD_OK);
	/* the only finding: the string is over 255 bytes */
	ck_assert_uint_eq(cd_epd_finding_count(e), 1);
	ck_assert_int_eq(cd_epd_finding_get(e, 0)->code, CD_EPD_N_FORMAT);
	ck_assert_uint_eq(cd_epd_op_find(e, "noop")->count, 40000);
	ck_assert_str_eq(cd_epd_op_find(e, "noop")->operands[39999].text,
	    "x39999");
	ck_assert_uint_eq(cd_epd_op_find(e, "id")->operands[0].len, 1000);
	/* already canonical: written back byte for byte */
	ck_assert_int_eq(cd_epd_write(e, &text, &len), CD_OK);
	ck_assert_uint_eq(len, n);
	ck_assert(memcmp(text, line, n) == 0);
	free(line);
	cd_epd_free(e);
}
END_TEST

START_TEST(test_builder)
{
	cd_epd *e = cd_epd_new();
	cd_board b;
	const char *text;
	size_t len;
	cd_move e4 = CD_MOVE(CD_SQ(4, 1), CD_SQ(4, 3), CD_MK_NORMAL);
	cd_move e5 = CD_MOVE(CD_SQ(4, 6), CD_SQ(4, 4), CD_MK_NORMAL);
	cd_move nf3 = CD_MOVE(CD_SQ(6, 0), CD_SQ(5, 2), CD_MK_NORMAL);

	ck_assert_int_eq(cd_epd_reset(e, NULL), CD_OK);
	ck_assert_int_eq(cd_epd_add_string(e, "x", 1), CD_ERR_ARG);
	ck_assert_int_eq(cd_epd_op_begin(e, "sm"), CD_OK);
	ck_assert_int_eq(cd_epd_add_move(e, e5), CD_ERR_ILLEGAL);
	ck_assert_int_eq(cd_epd_add_move(e, CD_MOVE_NULL), CD_ERR_ILLEGAL);
	ck_assert_int_eq(cd_epd_add_move(e, e4), CD_OK);
	ck_assert_int_eq(cd_epd_op_begin(e, "id"), CD_OK);
	ck_assert_int_eq(cd_epd_add_string(e, "a \"q\" \\", 7), CD_OK);
	ck_assert_int_eq(cd_epd_add_string(e, "tab\t", 4), CD_ERR_ARG);
	ck_assert_int_eq(cd_epd_op_begin(e, "pv"), CD_OK);
	ck_assert_int_eq(cd_epd_add_move(e, e4), CD_OK);
	ck_assert_int_eq(cd_epd_add_move(e, e4), CD_ERR_ILLEGAL);
	ck_assert_int_eq(cd_epd_add_move(e, e5), CD_OK);
	ck_assert_int_eq(cd_epd_add_move(e, nf3), CD_OK);
	ck_assert_int_eq(cd_epd_op_begin(e, "hmvc"), CD_OK);
	ck_assert_int_eq(cd_epd_add_integer(e, -1), CD_ERR_RANGE);
	ck_assert_int_eq(cd_epd_add_integer(e, 4), CD_OK);
	ck_assert_int_eq(cd_epd_op_begin(e, "Xq"), CD_OK);
	ck_assert_int_eq(cd_epd_add_token(e, "a;b", 3), CD_ERR_ARG);
	ck_assert_int_eq(cd_epd_add_token(e, "", 0), CD_ERR_ARG);
	ck_assert_int_eq(cd_epd_add_token(e, "-12", 3), CD_OK);
	ck_assert_int_eq(cd_epd_op_get(e, 4)->operands[0].kind,
	    CD_EPD_INTEGER);
	ck_assert_int_eq(cd_epd_op_begin(e, "9x"), CD_ERR_ARG);
	ck_assert_int_eq(cd_epd_op_begin(e, "abcdefghijklmnop"), CD_ERR_ARG);
	ck_assert_uint_eq(cd_epd_board(e)->halfmove, 4);
	ck_assert_int_eq(cd_epd_write(e, &text, &len), CD_OK);
	ck_assert_str_eq(text, START " Xq -12; hmvc 4; id \"a \\\"q\\\" \\\\\";"
	    " pv e4 e5 Nf3; sm e4;");
	/* replace and remove */
	ck_assert_int_eq(cd_epd_op_begin(e, "sm"), CD_OK);
	ck_assert_int_eq(cd_epd_add_move(e, nf3), CD_OK);
	ck_assert_int_eq(cd_epd_op_remove(e, "Xq"), CD_OK);
	ck_assert_int_eq(cd_epd_op_remove(e, "Xq"), CD_EOF);
	ck_assert_int_eq(cd_epd_op_remove(e, "id"), CD_OK);
	ck_assert_uint_eq(cd_epd_op_count(e), 3);
	ck_assert_int_eq(cd_epd_write(e, &text, &len), CD_OK);
	ck_assert_str_eq(text, START " hmvc 4; pv e4 e5 Nf3; sm Nf3;");
	/* the text reads back the same */
	ck_assert_int_eq(cd_epd_parse(e, text, len, 0), CD_OK);
	ck_assert_int_eq(cd_epd_write(e, &text, &len), CD_OK);
	ck_assert_str_eq(text, START " hmvc 4; pv e4 e5 Nf3; sm Nf3;");
	/* another position; an impossible one is refused */
	ck_assert_int_eq(cd_fen_parse(&b, KK, strlen(KK), 0, NULL),
	    CD_OK);
	ck_assert_int_eq(cd_epd_reset(e, &b), CD_OK);
	ck_assert_int_eq(cd_epd_write(e, &text, &len), CD_OK);
	ck_assert_str_eq(text, KK);
	cd_board_clear(&b);
	ck_assert_int_eq(cd_epd_reset(e, &b), CD_ERR_POSITION);
	/* a parsed record with errors is not built on */
	ck_assert_int_eq(cd_epd_parse(e, START " bm e5;", strlen(START) + 7,
	    0), CD_ERR_ILLEGAL);
	ck_assert_int_eq(cd_epd_add_integer(e, 1), CD_ERR_ARG);
	ck_assert_int_eq(cd_epd_op_begin(e, "id"), CD_ERR_ARG);
	ck_assert_int_eq(cd_epd_write(e, &text, &len), CD_ERR_ARG);
	cd_epd_free(e);
}
END_TEST

/* cd_epd_quote on strings with and without '"' and '\\' (which it
 * copies at once when there is neither) against the rule: each of those
 * two after a backslash, every byte else as it is, all in quotes. */
START_TEST(test_quote)
{
	static const char bytes[] = "ab \"\\\x80\xc3\xa9,.;";
	uint64_t r = 0x9e3779b97f4a7c15ULL;
	int i;

	for (i = 0; i < 20000; i++) {
		char s[64], out[2 * sizeof(s) + 2], want[sizeof(out)];
		size_t len, k, n = 0;

		r ^= r << 13;
		r ^= r >> 7;
		r ^= r << 17;
		len = (size_t)(r % sizeof(s));
		for (k = 0; k < len; k++) {
			r ^= r << 13;
			r ^= r >> 7;
			r ^= r << 17;
			/* mostly plain bytes, so that many have neither */
			s[k] = bytes[r % 64 < 60 ? r % 3 : r % (sizeof(bytes) - 1)];
		}
		want[n++] = '"';
		for (k = 0; k < len; k++) {
			if (s[k] == '"' || s[k] == '\\')
				want[n++] = '\\';
			want[n++] = s[k];
		}
		want[n++] = '"';
		ck_assert_uint_eq(cd_epd_quote(out, s, len), n);
		ck_assert(memcmp(out, want, n) == 0);
	}
}
END_TEST

START_TEST(test_opcode_names)
{
	ck_assert(cd_epd_opcode_valid("a", 1));
	ck_assert(cd_epd_opcode_valid("Ae", 2));
	ck_assert(cd_epd_opcode_valid("draw_accept", 11));
	ck_assert(cd_epd_opcode_valid("abcdefghijklmno", 15));
	ck_assert(!cd_epd_opcode_valid("abcdefghijklmnop", 16));
	ck_assert(!cd_epd_opcode_valid("", 0));
	ck_assert(!cd_epd_opcode_valid("1a", 2));
	ck_assert(!cd_epd_opcode_valid("_a", 2));
	ck_assert(!cd_epd_opcode_valid("a-b", 3));
	ck_assert(cd_epd_opcode_known("bm"));
	ck_assert(cd_epd_opcode_known("c7"));
	ck_assert(cd_epd_opcode_known("v0"));
	ck_assert(cd_epd_opcode_known("tcsi"));
	ck_assert(cd_epd_opcode_known("draw_reject"));
	ck_assert(!cd_epd_opcode_known("c10"));
	ck_assert(!cd_epd_opcode_known("BM"));
	ck_assert(!cd_epd_opcode_known("wdl"));
	ck_assert(!cd_epd_opcode_known(NULL));
}
END_TEST

START_TEST(test_line_kind)
{
	ck_assert_int_eq(cd_epd_line_kind("", 0), CD_EPD_LINE_BLANK);
	ck_assert_int_eq(cd_epd_line_kind(" \t\r", 3), CD_EPD_LINE_BLANK);
	ck_assert_int_eq(cd_epd_line_kind("# x", 3), CD_EPD_LINE_COMMENT);
	ck_assert_int_eq(cd_epd_line_kind("% x", 3), CD_EPD_LINE_COMMENT);
	ck_assert_int_eq(cd_epd_line_kind(" #", 2), CD_EPD_LINE_RECORD);
	ck_assert_int_eq(cd_epd_line_kind(KK, strlen(KK)),
	    CD_EPD_LINE_RECORD);
}
END_TEST

START_TEST(test_reader)
{
	static const char data[] = "\xef\xbb\xbf" KK " bm Kd1;\r\n"
	    "\n# comment\n" KK " id \"a\0b\";\n" KK " bm Kf1";
	FILE *f = fmemopen((void *)data, sizeof(data) - 1, "rb");
	cd_epd_reader *r;
	cd_epd *e = cd_epd_new();
	const char *line, *raw;
	size_t len, rawlen;

	ck_assert_ptr_nonnull(f);
	r = cd_epd_reader_new(f);
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(cd_epd_reader_next(r, &line, &len), CD_OK);
	ck_assert_uint_eq(len, strlen(KK " bm Kd1;"));
	ck_assert(memcmp(line, KK " bm Kd1;", len) == 0);
	raw = cd_epd_reader_raw(r, &rawlen);
	ck_assert_uint_eq(rawlen, 3 + len + 2);
	ck_assert(memcmp(raw, "\xef\xbb\xbf", 3) == 0);
	ck_assert_uint_eq(cd_epd_reader_lineno(r), 1);
	ck_assert_uint_eq(cd_epd_reader_offset(r), rawlen);
	/* cd_epd_read skips the blank and the comment line */
	ck_assert_int_eq(cd_epd_read(r, e, 0), CD_ERR_SYNTAX);
	ck_assert_uint_eq(cd_epd_reader_lineno(r), 4);
	ck_assert_int_eq(cd_epd_finding_get(e, 0)->code, CD_EPD_E_CHAR);
	/* the first error as a cd_error, placed in the stream: the NUL
	 * byte of line 4 */
	ck_assert_int_eq(cd_epd_error(e)->status, CD_ERR_SYNTAX);
	ck_assert_uint_eq(cd_epd_error(e)->line, 4);
	ck_assert_uint_eq(cd_epd_error(e)->col, strlen(KK " id \"a") + 1);
	ck_assert_uint_eq(cd_epd_error(e)->offset,
	    (size_t)((const char *)memchr(data + 3, '\0',
	    sizeof(data) - 4) - data));
	ck_assert_str_eq(cd_epd_error(e)->msg, "NUL byte");
	raw = cd_epd_reader_raw(r, &rawlen);
	ck_assert_uint_eq(rawlen, strlen(KK " id \"a") + 5);
	ck_assert_int_eq(cd_epd_read(r, e, 0), CD_OK);
	ck_assert_int_eq(cd_epd_error(e)->status, CD_OK);
	ck_assert_str_eq(cd_epd_error(e)->msg, "");
	ck_assert_uint_eq(cd_epd_reader_lineno(r), 5);
	raw = cd_epd_reader_raw(r, &rawlen);
	ck_assert_uint_eq(rawlen, strlen(KK " bm Kf1"));
	ck_assert_int_eq(cd_epd_read(r, e, 0), CD_EOF);
	ck_assert_uint_eq(cd_epd_reader_offset(r), sizeof(data) - 1);
	cd_epd_reader_free(r);
	cd_epd_reader_free(NULL);
	cd_epd_free(e);
	cd_epd_free(NULL);
	fclose(f);
}
END_TEST

/* A stream that gives the bytes of a text in chunks of a few bytes,
 * then fails (EIO) or ends at a cut: a damaged compressed input seen
 * through cd_stream_fopen. */
struct cut {
	const char *text;
	size_t cut, at, chunk;
	bool fail;
};

static ssize_t
cut_read(void *c, char *buf, size_t size)
{
	struct cut *k = c;
	size_t n = k->cut - k->at;

	if (n == 0) {
		if (!k->fail)
			return 0;
		errno = EIO;
		return -1;
	}
	if (n > k->chunk)
		n = k->chunk;
	if (n > size)
		n = size;
	memcpy(buf, k->text + k->at, n);
	k->at += n;
	return (ssize_t)n;
}

/*
 * At every cut of a text, in chunks of several sizes, ended by a read
 * error or cleanly: the lines before the cut come out whole; the part
 * of a line before the cut is a line only when the stream ended
 * cleanly, and after an error it is CD_ERR_IO with the part in
 * cd_epd_reader_raw.
 */
START_TEST(test_reader_cut)
{
	static const char text[] = KK " id \"one\";\n" KK " id \"two\";\r\n"
	    "\n" KK " bm Kd1; id \"three\";\n";
	static const size_t chunks[] = { 1, 3, 7, 64, 4096 };
	size_t c, k, f;

	for (c = 0; c <= sizeof(text) - 1; c++)
		for (k = 0; k < sizeof(chunks) / sizeof(chunks[0]); k++)
			for (f = 0; f < 2; f++) {
				struct cut cut = { text, c, 0, chunks[k],
				    f == 1 };
				cookie_io_functions_t io = { cut_read, NULL,
				    NULL, NULL };
				FILE *fp = fopencookie(&cut, "r", io);
				cd_epd_reader *r = cd_epd_reader_new(fp);
				const char *line, *raw, *p = text;
				size_t len, rawlen, lines = 0;
				cd_status st;

				ck_assert_ptr_nonnull(r);
				while ((st = cd_epd_reader_next(r, &line,
				    &len)) == CD_OK) {
					const char *nl = memchr(p, '\n',
					    (size_t)(text + c - p));

					lines++;
					/* a line: whole, or cut by a clean end */
					ck_assert(nl != NULL || !cut.fail);
					ck_assert(line == cd_epd_reader_raw(r,
					    &rawlen));
					ck_assert(memcmp(line, p, len) == 0);
					p += rawlen;
				}
				raw = cd_epd_reader_raw(r, &rawlen);
				if (cut.fail) {
					ck_assert_int_eq(st, CD_ERR_IO);
					ck_assert_int_eq(errno, EIO);
					/* the cut part, not handed out */
					ck_assert_uint_eq(rawlen,
					    (size_t)(text + c - p));
					ck_assert(memcmp(raw, p, rawlen) == 0);
					if (rawlen > 0)
						ck_assert_uint_eq(
						    cd_epd_reader_lineno(r),
						    lines + 1);
					ck_assert_int_eq(cd_epd_reader_next(r,
					    &line, &len), CD_ERR_IO);
				} else {
					ck_assert_int_eq(st, CD_EOF);
					ck_assert(p == text + c);
				}
				cd_epd_reader_free(r);
				fclose(fp);
			}
}
END_TEST

/* Read through a file descriptor (read(2)): lines across the reader's
 * blocks, one longer than several blocks, and cd_epd_reader_peek
 * before and between them. */
START_TEST(test_reader_fd)
{
	size_t big = 300000, i, len, n;
	FILE *f = tmpfile();
	cd_epd_reader *r;
	const char *line, *bytes;
	char *longline = malloc(big);

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(longline);
	for (i = 0; i < big; i++)
		longline[i] = (char)('a' + i % 26);
	for (i = 0; i < 5000; i++)
		fprintf(f, "%s id \"%zu\";\n", KK, i);
	fwrite(longline, 1, big, f);
	fputs("\nlast", f);
	fflush(f);
	rewind(f);
	r = cd_epd_reader_new(f);
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(cd_epd_reader_peek(r, CD_SNIFF_SAMPLE, &bytes, &n),
	    CD_OK);
	ck_assert_uint_ge(n, CD_SNIFF_SAMPLE);
	ck_assert(memcmp(bytes, KK " id \"0\";\n", strlen(KK) + 9) == 0);
	ck_assert_int_eq(cd_sniff(bytes, CD_SNIFF_SAMPLE), CD_SNIFF_EPD);
	for (i = 0; i < 5000; i++) {
		char want[64];

		snprintf(want, sizeof(want), "%s id \"%zu\";", KK, i);
		ck_assert_int_eq(cd_epd_reader_next(r, &line, &len), CD_OK);
		ck_assert_uint_eq(len, strlen(want));
		ck_assert(memcmp(line, want, len) == 0);
		if (i == 4999) {
			/* a peek sees what follows the last line taken */
			ck_assert_int_eq(cd_epd_reader_peek(r, big + 5,
			    &bytes, &n), CD_OK);
			ck_assert_uint_eq(n, big + 5);
			ck_assert(memcmp(bytes, longline, big) == 0);
		}
	}
	ck_assert_int_eq(cd_epd_reader_next(r, &line, &len), CD_OK);
	ck_assert_uint_eq(len, big);
	ck_assert(memcmp(line, longline, big) == 0);
	ck_assert_int_eq(cd_epd_reader_next(r, &line, &len), CD_OK);
	ck_assert_uint_eq(len, 4);
	ck_assert(memcmp(line, "last", 4) == 0);
	ck_assert_int_eq(cd_epd_reader_next(r, &line, &len), CD_EOF);
	ck_assert_uint_eq(cd_epd_reader_lineno(r), 5002);
	cd_epd_reader_free(r);
	fclose(f);
	free(longline);
}
END_TEST

/* CD_EPD_NO_VALIDATE: positions no game reaches are read, what move
 * generation cannot handle is not; CD_EPD_960; cd_epd_fields_end. */
START_TEST(test_no_validate)
{
	cd_epd *e = cd_epd_new();
	/* a white pawn on the eighth rank: impossible, yet countable */
	static const char pawn8[] = "P3k3/8/8/8/8/8/8/4K3 w - - ;D1 5;";
	static const char kings[] = "4k3/8/8/8/8/8/8/3KK3 w - - ;D1 5;";
	static const char fen[] = "  4k3/8/8/8/8/8/8/4K3 w - - 3 9 ;D1 5;";
	/* Shredder-FEN rights read either way, the rook on the h-file */
	static const char x960[] = "4k3/8/8/8/8/8/8/4K2R w H - ;";

	ck_assert_ptr_nonnull(e);
	ck_assert_int_ne(cd_epd_parse(e, pawn8, strlen(pawn8), 0), CD_OK);
	ck_assert_ptr_null(cd_epd_board(e));
	ck_assert_uint_eq(cd_epd_fields_end(e), 0);
	ck_assert_int_eq(cd_epd_parse(e, pawn8, strlen(pawn8),
	    CD_EPD_NO_VALIDATE), CD_OK);
	ck_assert_ptr_nonnull(cd_epd_board(e));
	ck_assert_uint_eq(cd_epd_fields_end(e), strlen("P3k3/8/8/8/8/8/8/4K3 w - -"));
	ck_assert_str_eq(cd_epd_op_get(e, 0)->opcode, "D1");
	ck_assert_int_eq(cd_epd_parse(e, kings, strlen(kings),
	    CD_EPD_NO_VALIDATE), CD_ERR_POSITION);
	ck_assert_ptr_null(cd_epd_board(e));
	ck_assert_int_eq(cd_epd_parse(e, fen, strlen(fen),
	    CD_EPD_NO_VALIDATE), CD_OK);
	ck_assert_uint_eq(cd_epd_fields_end(e),
	    strlen("  4k3/8/8/8/8/8/8/4K3 w - - 3 9"));
	ck_assert_int_eq(cd_epd_parse(e, x960, strlen(x960), CD_EPD_960),
	    CD_OK);
	ck_assert(cd_epd_board(e)->chess960);
	ck_assert_int_eq(cd_epd_parse(e, x960, strlen(x960), 0), CD_OK);
	cd_epd_free(e);
}
END_TEST

/* CD_EPD_STRICT: each deviation is an error with its code and column;
 * without the flag the same line is valid. */
static const struct {
	const char *line;
	cd_epd_code code;
	size_t col;
} strict_rows[] = {
	{ "4k3/8/8/8/8/8/8/4K2R w K - bm Rh8+", CD_EPD_S_FORMAT, 35 },
	{ "4k3/8/8/8/8/8/3N4/4K1N1 w - - bm Nge2;", CD_EPD_S_SAN, 34 },
	{ "4k3/8/8/8/8/8/8/4K2R w K - bm Rh8;", CD_EPD_S_SAN, 31 },
	{ "4k3/8/8/8/8/8/8/4K2R w K - bm 0-0;", CD_EPD_S_SAN, 31 },
	{ "4k3/8/8/8/8/8/8/4K3 w -  - id \"x\";", CD_EPD_S_SPACE, 24 },
	{ "4k3/8/8/8/8/8/8/4K3\tw - - id \"x\";", CD_EPD_S_SPACE, 20 },
	{ " 4k3/8/8/8/8/8/8/4K3 w - - id \"x\";", CD_EPD_S_SPACE, 1 },
	{ "4k3/8/8/8/8/8/8/4K3 w - - id \"x\"; ", CD_EPD_S_SPACE, 34 },
	{ "4k3/8/8/8/8/8/8/4K3 w - - id \"x\";\r", CD_EPD_S_SPACE, 34 },
	{ "\xef\xbb\xbf" "4k3/8/8/8/8/8/8/4K3 w - - id \"x\";", CD_EPD_S_SPACE,
	    1 },
};

START_TEST(test_strict)
{
	cd_epd *e = cd_epd_new();
	const char *l = strict_rows[_i].line;
	const cd_epd_finding *f;
	size_t len = strlen(l);

	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(cd_epd_parse(e, l, len, CD_EPD_STRICT),
	    CD_ERR_SYNTAX);
	ck_assert(cd_epd_invalid(e));
	ck_assert_uint_eq(cd_epd_finding_count(e), 1);
	f = cd_epd_finding_get(e, 0);
	ck_assert_int_eq(f->code, strict_rows[_i].code);
	ck_assert(f->error);
	ck_assert_uint_eq(f->col, strict_rows[_i].col);
	ck_assert_uint_eq(cd_epd_error(e)->col, strict_rows[_i].col);
	if (_i != 9) {	/* a BOM is not EPD without the flag */
		cd_epd_parse(e, l, len, 0);
		ck_assert(!cd_epd_invalid(e));
	}
	/* the canonical form passes */
	l = "4k3/8/8/8/8/8/8/4K2R w K - bm Rh8+; id \"a  b\";";
	ck_assert_int_eq(cd_epd_parse(e, l, strlen(l), CD_EPD_STRICT), CD_OK);
	ck_assert_uint_eq(cd_epd_finding_count(e), 0);
	cd_epd_free(e);
}
END_TEST

static Suite *
epd_suite(void)
{
	Suite *s = suite_create("epd");
	TCase *tc = tcase_create("epd");

	tcase_add_loop_test(tc, test_rows, 0, sizeof(rows) / sizeof(rows[0]));
	tcase_add_test(tc, test_findings_order);
	tcase_add_test(tc, test_many_findings);
	tcase_add_test(tc, test_no_position);
	tcase_add_test(tc, test_nul);
	tcase_add_test(tc, test_operands);
	tcase_add_test(tc, test_fen_clocks);
	tcase_add_test(tc, test_long_line);
	tcase_add_test(tc, test_builder);
	tcase_add_test(tc, test_quote);
	tcase_add_test(tc, test_opcode_names);
	tcase_add_test(tc, test_line_kind);
	tcase_add_test(tc, test_reader);
	tcase_add_test(tc, test_reader_cut);
	tcase_add_test(tc, test_reader_fd);
	tcase_add_test(tc, test_no_validate);
	tcase_add_loop_test(tc, test_strict, 0,
	    (int)(sizeof(strict_rows) / sizeof(strict_rows[0])));
	suite_add_tcase(s, tc);
	return s;
}

TU_SUITES(epd_suite);
