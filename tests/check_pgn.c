/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_pgn.c: the game model, the PGN parser and the export writer.
 *
 * Golden tests, one or more per rule of docs/export-format.md and per
 * line of docs/import-format.md: accepted inputs with their exact export
 * (each also regularized a second time, which must change nothing),
 * rejected inputs with their status, line, column and message; the
 * builder API as the PGC decoder uses it; nesting far deeper than any
 * C stack would allow.
 */
#include "config.h"

#include <ctype.h>

#include <check.h>
#include "rounds.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "chessdata.h"
#include "check-main.h"

/* ---- helpers ---- */

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

/* Regularize the first game of text: the export text (malloc'd), or
 * NULL with *err filled in. */
static char *
regularize(const char *text, size_t len, unsigned wflags,
    const cd_pgn_parse_opts *po, cd_error *err)
{
	cd_buf b = { 0 };
	cd_status st;

	st = cd_pgn_parse_text(game, text, len, po, err);
	if (st != CD_OK)
		return NULL;
	st = cd_pgn_write_buf(game, wflags, &b);
	ck_assert_int_eq(st, CD_OK);
	ck_assert_ptr_nonnull(b.data);
	b.data = realloc(b.data, b.len + 1);
	b.data[b.len] = '\0';
	return b.data;
}

/* The movetext of an export: after the first empty line, without the
 * final line end and empty line. */
static const char *
movetext(char *out)
{
	char *p = strstr(out, "\n\n"), *e;

	ck_assert_ptr_nonnull(p);
	p += 2;
	e = p + strlen(p);
	ck_assert(e - p >= 2 && e[-1] == '\n' && e[-2] == '\n');
	e[-2] = '\0';
	return p;
}

/* Export twice: the second pass must give the same bytes. */
static char *
regularize_checked(const char *in, unsigned wflags,
    const cd_pgn_parse_opts *po)
{
	cd_error err;
	char *out = regularize(in, strlen(in), wflags, po, &err), *again;

	if (out == NULL)
		ck_abort_msg("rejected: %lu:%lu: %s\ninput: %s", err.line,
		    err.col, err.msg, in);
	again = regularize(out, strlen(out), wflags, NULL, &err);
	if (again == NULL)
		ck_abort_msg("output rejected: %s\n%s", err.msg, out);
	ck_assert_msg(strcmp(out, again) == 0, "not idempotent:\n%s\n---\n%s",
	    out, again);
	free(again);
	return out;
}

#define HDR(result) \
	"[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n" \
	"[White \"?\"]\n[Black \"?\"]\n[Result \"" result "\"]\n"

/* ---- accepted inputs: movetext out ---- */

struct mcase {
	const char *in;
	const char *out;	/* the movetext of the export */
	unsigned wflags;
	const char *lang;
};

#define F_CASTLE "[FEN \"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"]\n"
#define F_PROMO "[FEN \"k7/4P3/8/8/8/8/8/7K w - - 0 1\"]\n"
#define F_EP "[FEN \"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1\"]\n"
#define F_BLACK "[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\"]\n"

static const struct mcase mcases[] = {
	/* canonical input comes out as it went in */
	{ "1. e4 e5 2. Nf3 Nc6 *", "1. e4 e5 2. Nf3 Nc6 *", 0, NULL },
	/* move numbers of any length (read sixteen bytes at a time), with
	 * periods, without, or with the move right after them */
	{ "123456789. e4 1234567890123.... e5 2.Nf3 99999999 *",
	    "1. e4 e5 2. Nf3 *", 0, NULL },
	{ "1. e4 e5 12345678 Nf3 1234567.Nc6 12345678.Bb5 a6 1*",
	    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *", 0, NULL },
	/* (sixteen bytes at a time: digits and periods up to the window's
	 * end and past it; a line end, a tab or two spaces after them) */
	{ "1................e4 2................. e5 123456789012345.Nf3 "
	    "1234567890123456.\tNc6 12345678901234567.\nBb5 "
	    "4.a6 5...  Ba4 6..\r\nNf6 7. O-O 8.Be7 { and so on, some more } *",
	    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 { and so on, "
	    "some more } *", 0, NULL },
	/* import: castling with zeros, lower case, dashes, marks */
	{ F_CASTLE "1. 0-0 0-0-0 *", "1. O-O O-O-O *", 0, NULL },
	{ F_CASTLE "1. o-o o-o-o *", "1. O-O O-O-O *", 0, NULL },
	{ F_CASTLE "1. O\xe2\x80\x93O O\xe2\x80\x94O\xe2\x80\x94O *",
	    "1. O-O O-O-O *", 0, NULL },
	{ F_CASTLE "1. O-O+ O-O-O# *", "1. O-O O-O-O *", 0, NULL },
	{ F_CASTLE "1. Rxa8 Kd7 *", "1. Rxa8+ Kd7 *", 0, NULL },
	/* import: the six promotion forms */
	{ F_PROMO "1. e8=Q *", "1. e8=Q+ *", 0, NULL },
	{ F_PROMO "1. e8Q *", "1. e8=Q+ *", 0, NULL },
	{ F_PROMO "1. e8=q *", "1. e8=Q+ *", 0, NULL },
	{ F_PROMO "1. e8q *", "1. e8=Q+ *", 0, NULL },
	{ F_PROMO "1. e8(Q) *", "1. e8=Q+ *", 0, NULL },
	{ F_PROMO "1. e8/N *", "1. e8=N *", 0, NULL },
	/* import: coordinate and long algebraic moves, both castlings */
	{ "1. e2e4 e7e5 2. Ng1f3 Nb8-c6 3. f1c4 g8f6 4. e1g1 *",
	    "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O *", 0, NULL },
	{ F_CASTLE "1. e1h1 e8a8 *", "1. O-O O-O-O *", 0, NULL },
	{ "1. e4 d5 2. e4xd5 *", "1. e4 d5 2. exd5 *", 0, NULL },
	{ "1. e4 d5 2. e4:d5 *", "1. e4 d5 2. exd5 *", 0, NULL },
	{ "1. e4 e5 2. f2f4 e5xf4 3. g1f3 *", "1. e4 e5 2. f4 exf4 3. Nf3 *",
	    0, NULL },
	/* import: over-disambiguated, missing or spurious x, marks */
	{ "1. Ngf3 Nb8c6 2. Nb1c3 Ng8f6 *", "1. Nf3 Nc6 2. Nc3 Nf6 *", 0,
	    NULL },
	{ "1. e4 d5 2. ed5 Qd5 *", "1. e4 d5 2. exd5 Qxd5 *", 0, NULL },
	{ "1. Nxf3 e5 *", "1. Nf3 e5 *", 0, NULL },
	{ "1. e4+ e5# 2. Qh5++ Nc6 3. Bc4 Nf6 4. Qxf7 *",
	    "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# *", 0, NULL },
	{ "1. f3 e5 2. g4 Qh4 0-1", "1. f3 e5 2. g4 Qh4# 0-1", 0, NULL },
	{ "1. e4 f5 2. Qh5 *", "1. e4 f5 2. Qh5+ *", 0, NULL },
	/* import: en passant marks, pawn letters */
	{ F_EP "1. exd6 e.p. *", "1. exd6 *", 0, NULL },
	{ F_EP "1. exd6e.p. *", "1. exd6 *", 0, NULL },
	{ F_EP "1. exd6e.p.+ *", "1. exd6 *", 0, NULL },
	{ F_EP "1. exd6e.p.!? *", "1. exd6 $5 *", 0, NULL },
	{ F_EP "1. exd6ep *", "1. exd6 *", 0, NULL },
	{ F_EP "1. exd6 ep *", "1. exd6 *", 0, NULL },
	{ "1. Pe4 d5 2. Pxd5 *", "1. e4 d5 2. exd5 *", 0, NULL },
	/* import: lower case piece letters; b is a file first */
	{ "1. nf3 nf6 2. g3 g6 3. bg2 bg7 4. kf1 kf8 5. qe1 qe8 *",
	    "1. Nf3 Nf6 2. g3 g6 3. Bg2 Bg7 4. Kf1 Kf8 5. Qe1 Qe8 *", 0, NULL },
	{ "1. e4 e5 2. bc4 *", "1. e4 e5 2. Bc4 *", 0, NULL },
	{ "[FEN \"4k3/8/8/8/2n5/1P6/8/4K3 w - - 0 1\"]\n1. bc4 *",
	    "1. bxc4 *", 0, NULL },
	{ "[FEN \"r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1\"]\n1. rd1 rd8 *",
	    "1. Rd1 Rd8 *", 0, NULL },
	/* import: figurines */
	{ "1. e4 e5 2. \xe2\x99\x98" "f3 \xe2\x99\x9e" "c6 3. \xe2\x99\x97"
	    "b5 *", "1. e4 e5 2. Nf3 Nc6 3. Bb5 *", 0, NULL },
	/* import: null moves; written -- in full export */
	{ "1. e4 -- 2. d4 Z0 3. c4 0000 4. Nf3 @@@@ *",
	    "1. e4 -- 2. d4 -- 3. c4 -- 4. Nf3 -- *", 0, NULL },
	/* import: suffix annotations glued or alone; rule 9 */
	{ "1. e4! e5? 2. Nf3!! Nc6?? 3. Bb5!? a6?! *",
	    "1. e4 $1 1... e5 $2 2. Nf3 $3 2... Nc6 $4 3. Bb5 $5 3... a6 $6 *",
	    0, NULL },
	{ "1. e4 ! e5 ?? *", "1. e4 $1 1... e5 $4 *", 0, NULL },
	{ "1. e4 $5 $1 ! $1 $200 $22 e5 *",
	    "1. e4 $1 $5 $22 $200 1... e5 *", 0, NULL },
	{ "1. e4 $0 e5 *", "1. e4 $0 1... e5 *", 0, NULL },
	/* import: evaluation symbols as NAGs */
	{ "1. e4 = e5 += 2. Nf3 =+ Nc6 +/- 3. Bb5 -/+ a6 +- 4. Ba4 -+ "
	    "Nf6 \xe2\x88\x9e *",
	    "1. e4 $10 1... e5 $14 2. Nf3 $15 2... Nc6 $16 3. Bb5 $17 3... a6 "
	    "$18 4. Ba4 $19\n4... Nf6 $13 *", 0, NULL },
	{ "1. e4 +/= e5 =/+ 2. Nf3 \xc2\xb1 Nc6 \xe2\x88\x93 3. Bb5 "
	    "\xe2\xa9\xb2 a6 \xe2\xa9\xb1 *",
	    "1. e4 $14 1... e5 $15 2. Nf3 $16 2... Nc6 $17 3. Bb5 $14 3... a6 "
	    "$15 *", 0, NULL },
	/* import: move numbers of any form, or none, or wrong */
	{ "1.e4 1...e5 2.. Nf3 37..Nc6 Bb5 9. a6 *",
	    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *", 0, NULL },
	{ "e4 e5 Nf3 *", "1. e4 e5 2. Nf3 *", 0, NULL },
	/* import: other languages when asked for */
	{ "1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 4. O-O Df6 *",
	    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O Qf6 *", 0, "de" },
	{ "1. e4 e5 2. Cf3 Cc6 3. Fb5 a6 4. Re2 *",
	    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ke2 *", 0, "fr" },
	/* import: results with dashes and halves */
	{ "1. e4 1\xe2\x80\x93" "0", "1. e4 1-0", 0, NULL },
	{ "1. e4 0\xe2\x80\x94" "1", "1. e4 0-1", 0, NULL },
	{ "1. e4 \xc2\xbd-\xc2\xbd", "1. e4 1/2-1/2", 0, NULL },
	{ "1. e4 1/2", "1. e4 1/2-1/2", 0, NULL },
	/* rule 7: marks computed; a Black first move (rule 8) */
	{ F_BLACK "1... e5 2. Nf3 *", "1... e5 2. Nf3 *", 0, NULL },
	{ F_BLACK "e5 Nf3 Nc6 *", "1... e5 2. Nf3 Nc6 *", 0, NULL },
	/* rule 8: N... after a NAG, a comment, a variation, nowhere else */
	{ "1. e4 $1 e5 2. Nf3 {c} Nc6 3. Bb5 (3. Bc4) a6 4. Ba4 Nf6 *",
	    "1. e4 $1 1... e5 2. Nf3 { c } 2... Nc6 3. Bb5 ( 3. Bc4 ) 3... a6 "
	    "4. Ba4 Nf6 *", 0, NULL },
	{ "1. e4 e5 (1... c5 2. Nf3) (1... e6) 2. Nf3 *",
	    "1. e4 e5 ( 1... c5 2. Nf3 ) ( 1... e6 ) 2. Nf3 *", 0, NULL },
	/* rule 10: comments folded, `;` comments, empty ones dropped,
	 * several after one move, before the first move, after NAGs */
	{ "1. e4 {  King\n\tpawn\r\n  opening } e5 *",
	    "1. e4 { King pawn opening } 1... e5 *", 0, NULL },
	{ "1. e4 {} e5 {   } 2. Nf3 *", "1. e4 e5 2. Nf3 *", 0, NULL },
	{ "1. e4 ; rest of line\ne5 *", "1. e4 { rest of line } 1... e5 *", 0,
	    NULL },
	{ "1. e4 ; a } b\ne5 *", "1. e4 { a b } 1... e5 *", 0, NULL },
	{ "1. e4 {a} {b} e5 *", "1. e4 { a } { b } 1... e5 *", 0, NULL },
	{ "{start} 1. e4 *", "{ start } 1. e4 *", 0, NULL },
	{ "{start} *", "{ start } *", 0, NULL },
	{ "1. e4 {c} $1 e5 *", "1. e4 $1 { c } 1... e5 *", 0, NULL },
	{ "1. e4 {one} e5 {two} *", "1. e4 { one } 1... e5 { two } *", 0,
	    NULL },
	{ "1. e4 e5 * {after the marker}", "1. e4 e5 { after the marker } *",
	    0, NULL },
	/* rule 10: a comment before the first move of a variation */
	{ "1. e4 ({alt} 1. d4) *", "1. e4 ( { alt } 1. d4 ) *", 0, NULL },
	{ "1. e4 e5 ({alt} 1... c5) *", "1. e4 e5 ( { alt } 1... c5 ) *", 0,
	    NULL },
	/* (comments before and after it, and after the moves around it) */
	{ "1. e4 {a} e5 {b} ({alt} 1... c5 {c} 2. Nf3 {d}) 2. Nf3 {e} *",
	    "1. e4 { a } 1... e5 { b } ( { alt } 1... c5 { c } 2. Nf3 { d } ) "
	    "2. Nf3 { e } *", 0, NULL },
	/* rule 11: variations follow the move, its NAGs and comments;
	 * they nest; they start with a move number */
	{ "1. e4 (1. d4) {c} $2 e5 *", "1. e4 $2 { c } ( 1. d4 ) 1... e5 *",
	    0, NULL },
	{ "1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) 1... e5 *",
	    "1. e4 ( 1. d4 d5 ( 1... Nf6 2. c4 ) 2. c4 ) 1... e5 *", 0, NULL },
	/* rule 11: a variation right after the first move of another is
	 * its next sibling: one tree, one layout */
	{ "1. e4 (1. d4 (1. c4) (1. Nf3)) (1. b3) e5 *",
	    "1. e4 ( 1. d4 ) ( 1. c4 ) ( 1. Nf3 ) ( 1. b3 ) 1... e5 *", 0,
	    NULL },
	{ "1. e4 e5 (1... c5 (1... e6 2. d4)) *",
	    "1. e4 e5 ( 1... c5 ) ( 1... e6 2. d4 ) *", 0, NULL },
	{ "1. e4 e5 (1... c5 (1... e6 (1... d6)) 2. Nf3) (1... a6) *",
	    "1. e4 e5 ( 1... c5 2. Nf3 ) ( 1... e6 ) ( 1... d6 ) ( 1... a6 ) *",
	    0, NULL },
	{ "1. e4 e5 (1... c5 {x} $1 (1... e6) 2. Nf3 (2. c3)) *",
	    "1. e4 e5 ( 1... c5 $1 { x } 2. Nf3 ( 2. c3 ) ) ( 1... e6 ) *", 0,
	    NULL },
	/* rule 10: a NAG before the first move of a variation or game */
	{ "1. e4 e5 ( $142 {better} 1... c5 ) *",
	    "1. e4 e5 ( $142 { better } 1... c5 ) *", 0, NULL },
	{ "1. e4 ( ! 1. d4 ) *", "1. e4 ( $1 1. d4 ) *", 0, NULL },
	{ "{c} $1 1. e4 *", "$1 { c } 1. e4 *", 0, NULL },
	{ "$1 1. e4 *", "1. e4 *", CD_PGN_REDUCED, NULL },
	{ "1. e4 e5 2. Nf3 (2. f4 exf4 (2... d5)) *",
	    "1. e4 e5 2. Nf3 ( 2. f4 exf4 ( 2... d5 ) ) *", 0, NULL },
	/* import: empty variations dropped */
	{ "1. e4 () e5 *", "1. e4 e5 *", 0, NULL },
	/* a variation with no move keeps its comments and NAGs as those
	 * of the move before */
	{ "1. e4 ( {only a comment} ) e5 *",
	    "1. e4 { only a comment } 1... e5 *", 0, NULL },
	{ "1. e4 {a} ( ( {b} $14 ) {c} ) ( {d} ) e5 *",
	    "1. e4 $14 { a } { b } { c } { d } 1... e5 *", 0, NULL },
	/* rule 12: the marker; none: the Result tag if valid, else * */
	{ "[Result \"0-1\"]\n1. e4", "1. e4 0-1", 0, NULL },
	{ "[Result \"0:1\"]\n1. e4", "1. e4 *", 0, NULL },
	{ "[Result \"1-0\"]\n1. e4 0-1", "1. e4 0-1", 0, NULL },
	{ "[Result \"1-0\"]\n", "1-0", 0, NULL },
	{ "1. e4 (1. d4 1-0) *", "1. e4 ( 1. d4 ) *", 0, NULL },
	/* rule 13: escape lines are not written */
	{ "%escape before\n1. e4\n%escape inside\ne5 *", "1. e4 e5 *", 0,
	    NULL },
	/* rule 7: a null move in a variation; reduced form drops it */
	{ "1. e4 (1. -- d5) e5 *", "1. e4 ( 1. -- d5 ) 1... e5 *", 0, NULL },
	{ "1. e4 (1. -- d5) e5 *", "1. e4 e5 *", CD_PGN_REDUCED, NULL },
	/* reduced: no comments, NAGs, variations; numbers only at start */
	{ "{c} 1. e4 $1 {d} e5 (1... c5) 2. Nf3 *", "1. e4 e5 2. Nf3 *",
	    CD_PGN_REDUCED, NULL },
	{ F_BLACK "1... e5 {c} 2. Nf3 $2 Nc6 *", "1... e5 2. Nf3 Nc6 *",
	    CD_PGN_REDUCED, NULL },
	/* a comment after most moves, plain moves and a NAG between */
	{ "1. e4 {a} e5 {b} 2. Nf3 Nc6 3. Bb5 {c} a6 $1 {d} 4. Ba4 {e} Nf6 "
	    "5. O-O Be7 {f} 6. Re1 *",
	    "1. e4 { a } 1... e5 { b } 2. Nf3 Nc6 3. Bb5 { c } 3... a6 $1 "
	    "{ d } 4. Ba4 { e }\n4... Nf6 5. O-O Be7 { f } 6. Re1 *", 0, NULL },
	/* long lines and strings: no fixed buffers */
	{ "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 "
	    "7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. Nbd2 Bb7 12. Bc2 "
	    "Re8 13. Nf1 Bf8 14. Ng3 g6 15. a4 c5 16. d5 c4 17. Bg5 h6 18. "
	    "Be3 Nc5 19. Qd2 h5 20. Bg5 Bg7 *",
	    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. "
	    "Bb3 d6 8. c3\nO-O 9. h3 Nb8 10. d4 Nbd7 11. Nbd2 Bb7 12. Bc2 Re8 "
	    "13. Nf1 Bf8 14. Ng3 g6 15.\na4 c5 16. d5 c4 17. Bg5 h6 18. Be3 "
	    "Nc5 19. Qd2 h5 20. Bg5 Bg7 *", 0, NULL },
};

START_TEST(test_movetext)
{
	const struct mcase *c = &mcases[_i];
	cd_pgn_parse_opts po;
	char *out;

	memset(&po, 0, sizeof(po));
	if (c->lang) {
		po.lang = cd_san_lang_find(c->lang);
		ck_assert_ptr_nonnull(po.lang);
	}
	const char *mt;

	out = regularize_checked(c->in, c->wflags, &po);
	mt = movetext(out);
	ck_assert_msg(strcmp(mt, c->out) == 0,
	    "case %d: input\n%s\ngave\n%s\nexpected\n%s", _i, c->in, mt,
	    c->out);
	free(out);
}
END_TEST

/* ---- accepted inputs: whole export ---- */

struct wcase {
	const char *in;
	const char *out;
	unsigned wflags;
};

static const struct wcase wcases[] = {
	/* the example of export-format.md, byte for byte */
	{ "[White \"Smith, J.\"] [Annotator \"Me\"]\n"
	  "[Event \"Club ch\"][Black \"Jones\"] [Result \"1-0\"]\n"
	  "[ECO \"C20\"]\n"
	  "1.e4 {King\npawn} e5 2 Nf3! Nc6?! 3.Bb5 a6 (3...Nf6 4.0-0 Nxe4 $6) "
	  "4.Ba4 Nf6 5.o-o 1-0\n",
	  "[Event \"Club ch\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"
	  "[Round \"?\"]\n[White \"Smith, J.\"]\n[Black \"Jones\"]\n"
	  "[Result \"1-0\"]\n[Annotator \"Me\"]\n[ECO \"C20\"]\n\n"
	  "1. e4 { King pawn } 1... e5 2. Nf3 $1 2... Nc6 $6 3. Bb5 a6 ( 3... "
	  "Nf6 4. O-O\nNxe4 $6 ) 4. Ba4 Nf6 5. O-O 1-0\n\n", 0 },
	/* rule 1: the roster always, with its unknown values */
	{ "1. e4 *", HDR("*") "\n1. e4 *\n\n", 0 },
	{ "", NULL, 0 },
	/* rule 2: other tags in byte order; rule 3: the last value wins */
	{ "[PlyCount \"1\"][ECO \"C20\"][WhiteElo \"2\"][Annotator \"a\"]"
	  "[aaa \"x\"][BlackElo \"1\"][ECO \"C21\"][Date \"2020.01.01\"]\n"
	  "1. e4 *",
	  "[Event \"?\"]\n[Site \"?\"]\n[Date \"2020.01.01\"]\n[Round \"?\"]\n"
	  "[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n[Annotator \"a\"]\n"
	  "[BlackElo \"1\"]\n[ECO \"C21\"]\n[PlyCount \"1\"]\n"
	  "[WhiteElo \"2\"]\n[aaa \"x\"]\n\n1. e4 *\n\n", 0 },
	/* rule 4: escapes, control bytes, 8-bit bytes unchanged */
	{ "[Event \"a \\\"b\\\" c\\\\d\"][Site \"tab\there\"]"
	  "[White \"Joe \"the kid\" Bloggs\"][Black \"M\xfcller \xc3\xa9\"]"
	  "[BlackType: \"x\"][Round\"y \\\"z\"]\n1. e4 *",
	  "[Event \"a \\\"b\\\" c\\\\d\"]\n[Site \"tab here\"]\n"
	  "[Date \"????.??.??\"]\n[Round \"y \\\"z\"]\n[White \"Joe \\\"the kid\\\" Bloggs\"]\n"
	  "[Black \"M\xfcller \xc3\xa9\"]\n[Result \"*\"]\n"
	  "[BlackType: \"x\"]\n\n1. e4 *\n\n", 0 },
	/* rule 5: FEN without SetUp, written canonically with SetUp */
	{ "[FEN \"  4k3/8/8/8/8/8/8/4K2R   w K -\"]\n1. O-O *",
	  HDR("*") "[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n"
	  "[SetUp \"1\"]\n\n1. O-O *\n\n", 0 },
	/* rule 5: the en passant field after any double push */
	{ "[SetUp \"1\"][FEN \"4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1\"]\n1... Kd7 *",
	  HDR("*") "[FEN \"4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1\"]\n"
	  "[SetUp \"1\"]\n\n1... Kd7 *\n\n", 0 },
	/* rule 5: a FEN of the initial position: kept in full export,
	 * dropped in reduced; SetUp 0 without FEN dropped */
	{ "[SetUp \"1\"][FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR "
	  "w KQkq - 0 1\"]\n1. e4 *",
	  HDR("*") "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq "
	  "- 0 1\"]\n[SetUp \"1\"]\n\n1. e4 *\n\n", 0 },
	{ "[SetUp \"1\"][FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR "
	  "w KQkq - 0 1\"]\n1. e4 *",
	  HDR("*") "\n1. e4 *\n\n", CD_PGN_REDUCED },
	{ "[SetUp \"0\"]\n1. e4 *", HDR("*") "\n1. e4 *\n\n", 0 },
	/* Chess960: Variant kept, X-FEN castling field (file letters
	 * only for a rook that is not the outermost) */
	{ "[Variant \"Chess960\"][SetUp \"1\"]"
	  "[FEN \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR "
	  "w HFhf - 2 9\"]\n9. g3 g6 *",
	  HDR("*") "[FEN \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/"
	  "BQ1BNRKR w KQkq - 2 9\"]\n[SetUp \"1\"]\n[Variant \"Chess960\"]\n\n"
	  "9. g3 g6 *\n\n", 0 },
	{ "[Variant \"fischerandom\"][Annotator \"x\"]"
	  "[FEN \"rk1r4/8/8/8/8/8/8/RK1R4 w DAda - 0 1\"]\n1. Rd2 *",
	  HDR("*") "[FEN \"rk1r4/8/8/8/8/8/8/RK1R4 w KQkq - 0 1\"]\n"
	  "[SetUp \"1\"]\n[Variant \"fischerandom\"]\n\n1. Rd2 *\n\n",
	  CD_PGN_REDUCED },
	{ "[Variant \"960\"][FEN \"r1k1r3/8/8/8/8/8/8/R1K1RR2 w EAea - 0 1\"]\n"
	  "1. Rf2 *",
	  HDR("*") "[FEN \"r1k1r3/8/8/8/8/8/8/R1K1RR2 w EQkq - 0 1\"]\n"
	  "[SetUp \"1\"]\n[Variant \"960\"]\n\n1. Rf2 *\n\n", 0 },
	/* castling rights the position cannot have: cleared */
	{ "[FEN \"k7/8/8/8/8/8/8/4K3 w K - 0 1\"]\n1. Kd2 *",
	  HDR("*") "[FEN \"k7/8/8/8/8/8/8/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n"
	  "1. Kd2 *\n\n", 0 },
	{ "[FEN \"r3k2r/8/8/8/8/8/8/R4K1R w KQkq - 0 1\"]\n1. Ke1 O-O *",
	  HDR("*") "[FEN \"r3k2r/8/8/8/8/8/8/R4K1R w kq - 0 1\"]\n"
	  "[SetUp \"1\"]\n\n1. Ke1 O-O *\n\n", 0 },
	{ "[FEN \"r1k1r3/8/8/8/8/8/8/R1K1R3 w EA - 0 1\"]\n1. Kd1 *",
	  HDR("*") "[FEN \"r1k1r3/8/8/8/8/8/8/R1K1R3 w - - 0 1\"]\n"
	  "[SetUp \"1\"]\n\n1. Kd1 *\n\n", 0 },
	/* Variant values that mean standard chess */
	{ "[Variant \"Standard\"]\n1. e4 *",
	  HDR("*") "[Variant \"Standard\"]\n\n1. e4 *\n\n", 0 },
	{ "[Variant \"From Position\"][FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n"
	  "1. Kd2 *",
	  HDR("*") "[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n"
	  "[Variant \"From Position\"]\n\n1. Kd2 *\n\n", 0 },
	/* reduced: only the roster */
	{ "[Event \"e\"][Annotator \"a\"][ECO \"C20\"][Result \"1-0\"]\n"
	  "1. e4 {c} 1-0",
	  "[Event \"e\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
	  "[White \"?\"]\n[Black \"?\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n",
	  CD_PGN_REDUCED },
	/* a tag section without movetext */
	{ "[Event \"x\"]\n[Result \"1/2-1/2\"]\n",
	  "[Event \"x\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
	  "[White \"?\"]\n[Black \"?\"]\n[Result \"1/2-1/2\"]\n\n1/2-1/2\n\n",
	  0 },
	/* tag layout: several per line, one spread over lines, blank
	 * lines inside, leading spaces, CRLF, a BOM */
	{ "\xef\xbb\xbf  [Event\r\n \"x\"]\r\n\r\n   [Site \"y\"]\r\n\r\n"
	  "1. e4\r\n{a\r\nb}\r\n*\r\n",
	  "[Event \"x\"]\n[Site \"y\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
	  "[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\n1. e4 { a b } *\n\n",
	  0 },
};

START_TEST(test_whole)
{
	const struct wcase *c = &wcases[_i];
	cd_error err;
	char *out;

	if (c->out == NULL) {
		/* no game at all */
		ck_assert_int_eq(cd_pgn_parse_text(game, c->in, strlen(c->in),
		    NULL, &err), CD_EOF);
		return;
	}
	out = regularize_checked(c->in, c->wflags, NULL);
	ck_assert_msg(strcmp(out, c->out) == 0,
	    "case %d: input\n%s\ngave\n%s\nexpected\n%s", _i, c->in, out,
	    c->out);
	free(out);
}
END_TEST

/* ---- rejected inputs ---- */

struct rcase {
	const char *in;
	cd_status st;
	unsigned long line, col;
	const char *msg;
	unsigned pflags;
};

#define F_CHECK "[FEN \"4k3/8/8/8/8/8/8/4RK2 b - - 0 1\"]\n"

static const struct rcase rcases[] = {
	{ "1. e4 e5 2. Ke3 *", CD_ERR_ILLEGAL, 1, 13, "2. Ke3: illegal move",
	    0 },
	{ "1. Nc3 Nc6 2. Ne4 Ne5 3. Nf3 a6 4. Ng5 *", CD_ERR_AMBIGUOUS, 1, 36,
	    "4. Ng5: ambiguous move", 0 },
	{ "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. Kg1 *", CD_ERR_ILLEGAL, 1, 35,
	    "4. Kg1: illegal move", 0 },
	{ F_PROMO "\n1. e8 *", CD_ERR_SYNTAX, 3, 4,
	    "1. e8: promotion piece missing", 0 },
	{ "1. Sf3 *", CD_ERR_SYNTAX, 1, 4, "1. Sf3: not a piece letter", 0 },
	{ "1. e4 e5 2. Cf3 *", CD_ERR_SYNTAX, 1, 13,
	    "2. Cf3: not a piece letter", 0 },
	{ "[FEN \"4k3/8/8/8/2n5/1P6/8/4KB2 w - - 0 1\"]\n1. bc4 *",
	    CD_ERR_AMBIGUOUS, 2, 4, "1. bc4: ambiguous move: both a pawn and "
	    "a bishop move", 0 },
	{ "1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6 4. O-O-O *", CD_ERR_ILLEGAL, 1, 35,
	    "4. O-O-O: castling is not legal here", 0 },
	{ "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 Bxc6 *", CD_ERR_ILLEGAL, 1,
	    39, "4... Bxc6: illegal move", 0 },
	/* a slider whose line to the square is blocked (the fast reader
	 * takes the one piece of its type on the square's lines only with
	 * nothing between), and two rooks on a rank both blocked */
	{ "1. Rh3 *", CD_ERR_ILLEGAL, 1, 4, "1. Rh3: illegal move", 0 },
	{ "1. Bc4 *", CD_ERR_ILLEGAL, 1, 4, "1. Bc4: illegal move", 0 },
	{ "1. e4 e5 2. Qd3+ *", CD_ERR_ILLEGAL, 1, 13,
	    "2. Qd3+: illegal move", 0 },
	{ "[FEN \"4k3/8/8/8/8/4K3/8/R1N1N2R w - - 0 1\"]\n1. Rd1 *",
	    CD_ERR_ILLEGAL, 2, 4, "1. Rd1: illegal move", 0 },
	{ "[FEN \"4k3/8/8/8/8/4K3/8/R1N1N2R w - - 0 1\"]\n1. Rhf1 Kd8 "
	    "2. Rd1 *", CD_ERR_ILLEGAL, 2, 16, "2. Rd1: illegal move", 0 },
	/* a piece pinned to its king (Nc6 by Bb5) after castling, on a
	 * variation's start and after its end: positions not reached by
	 * a normal move, whose pins the fast reader must not take from
	 * the move before */
	{ "1. e4 e5 2. Nf3 Nc6 3. Bb5 d6 4. O-O Nd4 *", CD_ERR_ILLEGAL, 1,
	    38, "4... Nd4: illegal move", 0 },
	{ "1. e4 e5 2. Nf3 Nc6 3. Bb5 d6 4. O-O a6 ( 4... Nd4 ) *",
	    CD_ERR_ILLEGAL, 1, 48, "4... Nd4: illegal move", 0 },
	{ "1. e4 e5 2. Nf3 Nc6 3. Bb5 d6 4. O-O ( 4. a3 a6 ) 4... Nd4 *",
	    CD_ERR_ILLEGAL, 1, 56, "4... Nd4: illegal move", 0 },
	{ "1. e4 e5 ( 2. Nf3 ) *", CD_ERR_ILLEGAL, 1, 15, "1... Nf3: "
	    "illegal move", 0 },
	{ "1. e4 e5 ( 1... d5 2. Nf6 ) *", CD_ERR_ILLEGAL, 1, 23,
	    "2. Nf6: illegal move", 0 },
	/* variations */
	{ "( 1. e4 ) 1. d4 *", CD_ERR_SYNTAX, 1, 1,
	    "variation does not follow a move", 0 },
	{ "1. e4 ( ( 1. d4 ) ) *", CD_ERR_SYNTAX, 1, 9,
	    "variation does not follow a move", 0 },
	{ "1. e4 ) *", CD_ERR_SYNTAX, 1, 7,
	    "unbalanced parentheses: `)` closes no variation", 0 },
	{ "1. e4 ( 1. d4 ( 1. c4 ) *", CD_ERR_SYNTAX, 1, 7,
	    "unbalanced parentheses: variation never closed", 0 },
	/* comments, tokens */
	{ "1. e4 { never closed", CD_ERR_SYNTAX, 1, 7,
	    "brace comment never closed", 0 },
	{ "1. e4 < e5 *", CD_ERR_SYNTAX, 1, 7, "unreadable token '<'", 0 },
	{ "1. e4 \"x\" e5 *", CD_ERR_SYNTAX, 1, 7,
	    "unreadable token: a quoted string in movetext", 0 },
	{ "1. e4 e5\x01 *", CD_ERR_CORRUPT, 1, 1,
	    "not PGN text: binary data (11 bytes)", 0 },
	{ "1. e4 e5\x1b *", CD_ERR_SYNTAX, 1, 9, "unreadable token '\\x1b'", 0 },
	{ "1. e4 ( {c} ( 1. d4 ) ) *", CD_ERR_SYNTAX, 1, 13,
	    "variation does not follow a move", 0 },
	{ "1. e4 $256 *", CD_ERR_SYNTAX, 1, 7,
	    "NAG $256 out of range (0 to 255)", 0 },
	{ "[Event \"x]\n1. e4 *", CD_ERR_SYNTAX, 1, 1,
	    "tag pair that does not read", 0 },
	/* null moves */
	{ F_CHECK "1... -- *", CD_ERR_ILLEGAL, 2, 6,
	    "1... --: null move while in check", 0 },
	{ "1. e4 -- 2. d4 *", CD_ERR_UNSUPPORTED, 1, 7, "1... --: null move "
	    "in the main line (not allowed in reduced form)",
	    CD_PGN_PARSE_NO_NULL_MAIN },
	/* FEN tags and variants */
	{ "[FEN \"xyz\"]\n1. e4 *", CD_ERR_SYNTAX, 1, 1, "bad FEN: ", 0 },
	{ "[Event \"e\"]\n[FEN \"8/8/8/8/8/8/8/K7 w - - 0 1\"]\n*",
	    CD_ERR_POSITION, 2, 1, "bad FEN: missing black king", 0 },
	{ "[FEN \"kk6/8/8/8/8/8/8/K7 w - - 0 1\"]\n*", CD_ERR_POSITION, 1, 1,
	    "bad FEN: more than one king of a color", 0 },
	{ "[FEN \"k7/8/8/8/8/8/8/K6P w - - 0 1\"]\n*", CD_ERR_POSITION, 1, 1,
	    "bad FEN: pawn on the first or last rank", 0 },
	{ "[FEN \"k6R/8/8/8/8/8/8/K7 w - - 0 1\"]\n*", CD_ERR_POSITION, 1, 1,
	    "bad FEN: the side not to move is in check", 0 },
	/* (castling rights the position cannot have are cleared: the
	 * position must still be valid without them) */
	{ "[FEN \"k7/8/8/8/8/8/8/4K2P w K - 0 1\"]\n*", CD_ERR_POSITION, 1, 1,
	    "bad FEN: pawn on the first or last rank", 0 },
	{ "[FEN \"k7/8/8/8/8/8/8/4K3 w KK1 - 0 1\"]\n*", CD_ERR_SYNTAX, 1, 1,
	    "bad FEN: unexpected character in castling field", 0 },
	{ "[FEN \"k7/8/8/8/8/8/8/4K3 w - e3 0 1\"]\n*", CD_ERR_POSITION, 1, 1,
	    "bad FEN: en passant square that no double push can have made",
	    0 },
	{ "[Event \"x\"]\n[Variant \"Crazyhouse\"]\n1. e4 *",
	    CD_ERR_UNSUPPORTED, 2, 1, "unsupported variant 'Crazyhouse'", 0 },
};

START_TEST(test_reject)
{
	const struct rcase *c = &rcases[_i];
	cd_pgn_parse_opts po;
	cd_error err;
	cd_status st;

	memset(&po, 0, sizeof(po));
	po.flags = c->pflags;
	memset(&err, 0x55, sizeof(err));
	st = cd_pgn_parse_text(game, c->in, strlen(c->in), &po, &err);
	ck_assert_msg(st == c->st, "case %d: status %d (%s), expected %d",
	    _i, st, err.msg, c->st);
	ck_assert_int_eq(err.status, c->st);
	ck_assert_msg(err.line == c->line && err.col == c->col,
	    "case %d: at %lu:%lu, expected %lu:%lu (%s)", _i, err.line,
	    err.col, c->line, c->col, err.msg);
	ck_assert_msg(strncmp(err.msg, c->msg, strlen(c->msg)) == 0,
	    "case %d: message \"%s\", expected \"%s\"", _i, err.msg, c->msg);
	/* the offset names the byte at that line and column */
	{
		const char *p = c->in;
		unsigned long l;

		for (l = 1; l < c->line; l++)
			p = strchr(p, '\n') + 1;
		ck_assert_msg(err.offset == (uint64_t)(p - c->in) + c->col - 1,
		    "case %d: offset %llu", _i,
		    (unsigned long long)err.offset);
	}
}
END_TEST

/* Reduced form of a game with a null move in the main line: the writer
 * refuses it and writes nothing. */
START_TEST(test_reduced_null)
{
	cd_buf b = { 0 };
	const char *in = "1. e4 -- 2. d4 *";

	ck_assert_int_eq(cd_pgn_parse_text(game, in, strlen(in), NULL, NULL),
	    CD_OK);
	ck_assert_int_eq(cd_pgn_write_buf(game, CD_PGN_REDUCED, &b),
	    CD_ERR_UNSUPPORTED);
	ck_assert_uint_eq(b.len, 0);
	ck_assert_int_eq(cd_pgn_write_buf(game, 0, &b), CD_OK);
	ck_assert_ptr_nonnull(strstr(b.data, "1. e4 -- 2. d4 *\n"));
	cd_buf_free(&b);
}
END_TEST

/* ---- warnings ---- */

struct warns {
	char text[2048];
	int n;
};

static void
collect(void *ctx, unsigned long line, unsigned long col, const char *msg)
{
	struct warns *w = ctx;
	size_t n = strlen(w->text);

	snprintf(w->text + n, sizeof(w->text) - n, "%lu:%lu: %s\n", line, col,
	    msg);
	w->n++;
}

struct wncase {
	const char *in;
	const char *want;	/* all warnings, one per line */
};

static const struct wncase wncases[] = {
	{ "[Result \"1-0\"]\n1. e4 e5 *", "2:10: Result tag \"1-0\" disagrees "
	    "with the termination marker *: the marker wins\n" },
	{ "[Result \"1-0\"]\n1. e4", "1:1: no termination marker: result 1-0 "
	    "from the Result tag\n" },
	{ "1. e4 *", "1:7: no Result tag: taken from the termination marker\n" },
	{ "[Result \"*\"][Site \"a\"][Site \"b\"]\n1. e4 *",
	    "1:23: tag Site given twice: the last value wins\n" },
	{ "[Result \"*\"]\n1. e4 () e5 *", "2:7: empty variation dropped\n" },
	{ "[Result \"*\"]\n1. e4 ({c}) e5 *", "2:7: variation without a move: "
	    "its comments and NAGs kept as those of the move before\n" },
	{ "[Result \"*\"][FEN \"r3k2r/8/8/8/8/8/8/R4K1R w KQkq - 0 1\"]\n"
	    "[SetUp \"1\"]\n*",
	    "1:13: FEN castling right 'K' without the king and the rook on e1 "
	    "and h1: cleared\n"
	    "1:13: FEN castling right 'Q' without the king and the rook on e1 "
	    "and a1: cleared\n" },
	{ "[Result \"*\"][Variant \"960\"]"
	    "[FEN \"1r2k2r/8/8/8/8/8/8/4K3 b Kkc - 0 1\"]\n[SetUp \"1\"]\n*",
	    "1:28: FEN castling right 'K' without the king on rank 1 and a "
	    "rook on its king side: cleared\n"
	    "1:28: FEN castling right 'c' without the king on rank 8 and the "
	    "rook on c8: cleared\n" },
	{ "[Result \"*\"]\n1. o-o *", "2:4: 1. o-o: castling is not legal here\n" },
	{ "[Result \"*\"]\n1. e4 e5 2. nf3 Nc6 3. Bb5+ *",
	    "2:13: 2 moves not in canonical SAN (first: 2. nf3 read as Nf3)\n" },
	{ "[Result \"*\"]\n1. e4 e5 2. nf3 *",
	    "2:13: move 2. nf3 read as Nf3\n" },
	{ "[Result \"*\"][FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n1. Kd2 *",
	    "1:13: FEN tag without SetUp tag: SetUp added\n" },
	{ "[Result \"*\"]\n1. e4 (1. d4 1-0) *",
	    "2:14: termination marker inside a variation ignored\n" },
	{ "[Result \"*\"]\n1. e4 ; a } b\n*",
	    "2:7: `}` in a comment written as a space\n" },
	{ "[Result \"*\"][White \"a\tb\"]\n1. e4 *",
	    "1:13: control bytes in the value of tag White written as spaces\n" },
	{ "[Result \"*\"]\n1. e4 * {x}",
	    "2:9: comment after the termination marker moved before it\n" },
};

START_TEST(test_warnings)
{
	const struct wncase *c = &wncases[_i];
	cd_pgn_parse_opts po;
	struct warns w;
	cd_error err;

	memset(&w, 0, sizeof(w));
	memset(&po, 0, sizeof(po));
	po.warn = collect;
	po.notice = collect;
	po.warn_ctx = &w;
	if (cd_pgn_parse_text(game, c->in, strlen(c->in), &po, &err) != CD_OK)
		snprintf(w.text + strlen(w.text), sizeof(w.text) -
		    strlen(w.text), "%lu:%lu: %s\n", err.line, err.col, err.msg);
	ck_assert_msg(strcmp(w.text, c->want) == 0,
	    "case %d: warnings\n%s\nexpected\n%s", _i, w.text, c->want);
}
END_TEST

/* ---- line filling (rule 6) ---- */

/* Greedy filling: every line at most 79 characters unless it is one
 * token, and the first token of each line did not fit on the line
 * before. */
static void
check_fill(const char *mt)
{
	const char *p = mt;
	size_t prev = 0;

	while (*p) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		size_t first = strcspn(p, " \n");

		ck_assert_msg(len <= 79 || first == len, "long line: %.*s",
		    (int)len, p);
		if (prev)
			ck_assert_msg(prev + 1 + first > 79,
			    "token fits on the line before: %.*s", (int)len, p);
		ck_assert(len > 0 && p[0] != ' ' && p[len - 1] != ' ');
		prev = len;
		p += len + (e != NULL);
	}
}

START_TEST(test_fill)
{
	/* Kasparov's immortal: long enough for many lines; numbers of
	 * several widths; a line ending with a move number */
	static const char *in =
	    "1. e4 d6 2. d4 Nf6 3. Nc3 g6 4. Be3 Bg7 5. Qd2 c6 6. f3 b5 "
	    "7. Nge2 Nbd7 8. Bh6 Bxh6 9. Qxh6 Bb7 10. a3 e5 11. O-O-O Qe7 "
	    "12. Kb1 a6 13. Nc1 O-O-O 14. Nb3 exd4 15. Rxd4 c5 16. Rd1 Nb6 "
	    "17. g3 Kb8 18. Na5 Ba8 19. Bh3 d5 20. Qf4+ Ka7 21. Rhe1 d4 "
	    "22. Nd5 Nbxd5 23. exd5 Qd6 24. Rxd4 cxd4 25. Re7+ Kb6 "
	    "26. Qxd4+ Kxa5 27. b4+ Ka4 28. Qc3 Qxd5 29. Ra7 Bb7 30. Rxb7 "
	    "Qc4 31. Qxf6 Kxa3 32. Qxa6+ Kxb4 33. c3+ Kxc3 34. Qa1+ Kd2 "
	    "35. Qb2+ Kd1 36. Bf1 Rd2 37. Rd7 Rxd7 38. Bxc4 bxc4 39. Qxh8 "
	    "Rd3 40. Qa8 c3 41. Qa4+ Ke1 42. f4 f5 43. Kc1 Rd2 44. Qa7 1-0";
	char *out = regularize_checked(in, 0, NULL);
	const char *mt = movetext(out);

	check_fill(mt);
	ck_assert_str_eq(mt,
	    "1. e4 d6 2. d4 Nf6 3. Nc3 g6 4. Be3 Bg7 5. Qd2 c6 6. f3 b5 7. Nge2 "
	    "Nbd7 8. Bh6\n"
	    "Bxh6 9. Qxh6 Bb7 10. a3 e5 11. O-O-O Qe7 12. Kb1 a6 13. Nc1 O-O-O "
	    "14. Nb3 exd4\n"
	    "15. Rxd4 c5 16. Rd1 Nb6 17. g3 Kb8 18. Na5 Ba8 19. Bh3 d5 20. Qf4+ "
	    "Ka7 21. Rhe1\n"
	    "d4 22. Nd5 Nbxd5 23. exd5 Qd6 24. Rxd4 cxd4 25. Re7+ Kb6 26. Qxd4+ "
	    "Kxa5 27. b4+\n"
	    "Ka4 28. Qc3 Qxd5 29. Ra7 Bb7 30. Rxb7 Qc4 31. Qxf6 Kxa3 32. Qxa6+ "
	    "Kxb4 33. c3+\n"
	    "Kxc3 34. Qa1+ Kd2 35. Qb2+ Kd1 36. Bf1 Rd2 37. Rd7 Rxd7 38. Bxc4 "
	    "bxc4 39. Qxh8\n"
	    "Rd3 40. Qa8 c3 41. Qa4+ Ke1 42. f4 f5 43. Kc1 Rd2 44. Qa7 1-0");
	free(out);
}
END_TEST

/* Filling at every width from 1 to 100 (move numbers and moves put
 * on a line together, or apart when only the number fits), against
 * the greedy filling of the tokens of the default width's output:
 * numbers of one to three digits, "N..." after a variation and a NAG,
 * and lines that begin with a number or a move. */
START_TEST(test_fill_widths)
{
	static const char *in =
	    "1. e4 d6 2. d4 Nf6 3. Nc3 g6 4. Be3 Bg7 5. Qd2 c6 6. f3 b5 "
	    "7. Nge2 Nbd7 8. Bh6 Bxh6 9. Qxh6 Bb7 10. a3 e5 11. O-O-O Qe7 "
	    "12. Kb1 a6 13. Nc1 O-O-O 14. Nb3 exd4 15. Rxd4 c5 16. Rd1 Nb6 "
	    "17. g3 Kb8 18. Na5 Ba8 19. Bh3 d5 20. Qf4+ Ka7 21. Rhe1 d4 "
	    "22. Nd5 Nbxd5 23. exd5 Qd6 24. Rxd4 $1 cxd4 25. Re7+ Kb6 "
	    "26. Qxd4+ Kxa5 27. b4+ Ka4 28. Qc3 Qxd5 29. Ra7 Bb7 30. Rxb7 "
	    "Qc4 31. Qxf6 Kxa3 32. Qxa6+ (32. Qxf7 Qd5) Kxb4 33. c3+ Kxc3 "
	    "34. Qa1+ Kd2 35. Qb2+ Kd1 36. Bf1 Rd2 37. Rd7 Rxd7 38. Bxc4 "
	    "bxc4 39. Qxh8 Rd3 40. Qa8 c3 41. Qa4+ Ke1 42. f4 f5 43. Kc1 Rd2 "
	    "44. Qa7 1-0";
	char *out = regularize_checked(in, 0, NULL), *toks, *tok[300];
	size_t ntok = 0, w, i;

	toks = strdup(movetext(out));
	ck_assert_ptr_nonnull(toks);
	for (tok[0] = strtok(toks, " \n"); tok[ntok] != NULL && ntok < 299;
	    tok[ntok] = strtok(NULL, " \n"))
		ntok++;
	ck_assert_uint_gt(ntok, 120);
	for (w = 1; w <= 100; w++) {
		char want[2048], *got;
		size_t n = 0, col = 0;

		for (i = 0; i < ntok; i++) {
			size_t len = strlen(tok[i]);

			if (col > 0 && col + 1 + len <= w) {
				want[n++] = ' ';
				col += 1 + len;
			} else {
				if (col > 0)
					want[n++] = '\n';
				col = len;
			}
			memcpy(want + n, tok[i], len);
			n += len;
		}
		want[n] = '\0';
		got = regularize_checked(in, CD_PGN_WIDTH(w), NULL);
		ck_assert_msg(strcmp(movetext(got), want) == 0,
		    "width %zu:\n%s\nexpected\n%s", w, got, want);
		free(got);
	}
	free(toks);
	free(out);
}
END_TEST

/* A line may end with a move number: it is a token of its own. */
START_TEST(test_fill_number)
{
	/* 72 characters of comment, then "1." fits (75), "e4" not */
	char in[256], want[256];
	const char *word = "abcdefghi";	/* 9 + 1 per word */
	char *out;
	int i;

	strcpy(in, "{");
	strcpy(want, "{");
	for (i = 0; i < 7; i++) {
		strcat(in, " ");
		strcat(in, word);
		strcat(want, " ");
		strcat(want, word);
	}
	/* "{ " + 7 * 10 + "ab" + " }" = 76 characters */
	strcat(in, " ab } 1. e4 *");
	strcat(want, " ab } 1.\ne4 *");
	out = regularize_checked(in, 0, NULL);
	ck_assert_str_eq(movetext(out), want);
	free(out);
}
END_TEST

/* Move numbers of four digits (written token by token) beside those of
 * three, with and without notes and variations around the moves. */
START_TEST(test_big_numbers)
{
	char *out = regularize_checked(
	    "[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 998\"]\n[SetUp \"1\"]\n\n"
	    "998. Kd1 Kd8 999. Ke1 {a} Ke8 {b} 1000. Kd1 Kd7 {c} 1001. Ke1 {d} "
	    "Kd8 (1001... Ke8 1002. Kd1) 1002. Kd1 *", 0, NULL);

	ck_assert_str_eq(movetext(out),
	    "998. Kd1 Kd8 999. Ke1 { a } 999... Ke8 { b } 1000. Kd1 Kd7 { c } "
	    "1001. Ke1\n"
	    "{ d } 1001... Kd8 ( 1001... Ke8 1002. Kd1 ) 1002. Kd1 *");
	free(out);
}
END_TEST

/* Rule 10: a word longer than 79 characters on a line of its own,
 * `{ ` and ` }` joined to the first and last words. */
START_TEST(test_long_word)
{
	char in[512], word[101], want[512];
	char *out;

	memset(word, 'x', 100);
	word[100] = '\0';
	snprintf(in, sizeof(in), "1. e4 { see %s now } e5 {%s} *", word, word);
	snprintf(want, sizeof(want), "1. e4 { see\n%s\nnow } 1... e5\n{ %s }\n*",
	    word, word);
	out = regularize_checked(in, 0, NULL);
	ck_assert_str_eq(movetext(out), want);
	free(out);
}
END_TEST

/* A tag value and a comment far beyond 255 bytes; a 100 KB line. */
START_TEST(test_big)
{
	size_t n = 100000, i;
	char *in = malloc(n + 64), *out;

	ck_assert_ptr_nonnull(in);
	strcpy(in, "[Event \"");
	for (i = 0; i < 1000; i++)
		strcat(in, "e");
	strcat(in, "\"] 1. e4 {");
	i = strlen(in);
	while (i < n)
	{
		in[i] = i % 7 ? 'c' : ' ';
		i++;
	}
	strcpy(in + i, "} *");
	out = regularize_checked(in, 0, NULL);
	ck_assert_ptr_nonnull(strstr(out, "[Event \"eeee"));
	check_fill(movetext(out));
	free(out);
	free(in);
}
END_TEST

/* ---- the builder, as a decoder uses it ---- */

static cd_move
find_move(const cd_board *b, const char *san)
{
	cd_move m;

	ck_assert_int_eq(cd_san_parse(b, san, strlen(san), NULL, CD_SAN_STRICT,
	    &m, NULL), CD_OK);
	return m;
}

START_TEST(test_builder)
{
	static const char *want =
	    "[Event \"Built\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"
	    "[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"1-0\"]\n"
	    "[Annotator \"me\"]\n\n"
	    "{ before } 1. e4 $1 $3 { good } ( { alt } 1. d4 d5 ( 1... Nf6 ) ) "
	    "( 1. c4 )\n1... e5 1-0\n\n";
	cd_buf b = { 0 };
	cd_game_xtags xt = { 0 };
	uint32_t e4, d4, d5, nf6, c4, e5;
	bool empty;
	int k;

	cd_game_clear(game);
	ck_assert_int_eq(cd_game_add_tag(game, "Annotator", 9, "me", 2), CD_OK);
	ck_assert_int_eq(cd_game_add_tag(game, "Event", 5, "x", 1), CD_OK);
	ck_assert_int_eq(cd_game_add_tag(game, "Event", 5, "Built", 5), CD_OK);
	ck_assert_uint_eq(game->ntags, 2);
	ck_assert_int_eq(cd_game_setup(game, NULL), CD_OK);
	ck_assert_int_eq(cd_game_begin_variation(game), CD_ERR_ARG);
	ck_assert_int_eq(cd_game_add_nag(game, -1), CD_ERR_RANGE);
	ck_assert_int_eq(cd_game_add_comment(game, " before ", 8, NULL), CD_OK);
	ck_assert_int_eq(cd_game_add_move(game, CD_MOVE(CD_SQ(4, 6),
	    CD_SQ(4, 4), CD_MK_NORMAL), NULL), CD_ERR_ILLEGAL);
	ck_assert_int_eq(cd_game_add_move(game, find_move(cd_game_board(game),
	    "e4"), &e4), CD_OK);
	ck_assert_int_eq(cd_game_add_nag(game, 3), CD_OK);
	ck_assert_int_eq(cd_game_add_nag(game, 1), CD_OK);
	ck_assert_int_eq(cd_game_add_nag(game, 256), CD_ERR_RANGE);
	ck_assert_int_eq(cd_game_add_comment(game, "good", 4, NULL), CD_OK);
	ck_assert_int_eq(cd_game_add_escape(game, "esc", 3), CD_OK);
	ck_assert_int_eq(cd_game_begin_variation(game), CD_OK);
	ck_assert_int_eq(cd_game_add_comment(game, "alt", 3, NULL), CD_OK);
	ck_assert_int_eq(cd_game_add_move(game, find_move(cd_game_board(game),
	    "d4"), &d4), CD_OK);
	ck_assert_int_eq(cd_game_add_move(game, find_move(cd_game_board(game),
	    "d5"), &d5), CD_OK);
	ck_assert_int_eq(cd_game_begin_variation(game), CD_OK);
	ck_assert_uint_eq(cd_game_depth(game), 2);
	ck_assert_int_eq(cd_game_add_move(game, find_move(cd_game_board(game),
	    "Nf6"), &nf6), CD_OK);
	ck_assert_int_eq(cd_game_end_variation(game, &empty), CD_OK);
	ck_assert(!empty);
	ck_assert_int_eq(cd_game_end_variation(game, NULL), CD_OK);
	ck_assert_int_eq(cd_game_begin_variation(game), CD_OK);
	ck_assert_int_eq(cd_game_add_move(game, find_move(cd_game_board(game),
	    "c4"), &c4), CD_OK);
	ck_assert_int_eq(cd_game_end_variation(game, NULL), CD_OK);
	ck_assert_int_eq(cd_game_begin_variation(game), CD_OK);
	ck_assert_int_eq(cd_game_end_variation(game, &empty), CD_OK);
	ck_assert(empty);
	ck_assert_int_eq(cd_game_end_variation(game, NULL), CD_ERR_ARG);
	ck_assert_uint_eq(cd_game_cursor(game), e4);
	ck_assert_int_eq(cd_game_add_move(game, find_move(cd_game_board(game),
	    "e5"), &e5), CD_OK);
	cd_game_set_result(game, CD_PGN_RESULT_WHITE);

	/* the tree */
	ck_assert_uint_eq(game->nodes[0].next, e4);
	ck_assert_uint_eq(game->nodes[e4].next, e5);
	ck_assert_uint_eq(game->nodes[e4].var, d4);
	ck_assert_uint_eq(game->nodes[d4].var_next, c4);
	ck_assert_uint_eq(game->nodes[c4].var_next, 0);
	ck_assert_uint_eq(game->nodes[d4].next, d5);
	ck_assert_uint_eq(game->nodes[d5].var, nf6);
	ck_assert_uint_eq(game->nodes[nf6].parent, d4);
	ck_assert_uint_eq(game->nodes[d4].parent, 0);
	ck_assert_uint_eq(game->nodes[e5].parent, e4);
	ck_assert_uint_eq(game->nodes[e5].ply, 2);
	ck_assert_uint_eq(game->nodes[nf6].ply, 2);
	ck_assert_str_eq(game->nodes[nf6].san, "Nf6");
	k = cd_game_nag_next(game, e4, -1);
	ck_assert_int_eq(k, 1);
	k = cd_game_nag_next(game, e4, k);
	ck_assert_int_eq(k, 3);
	ck_assert_int_eq(cd_game_nag_next(game, e4, k), -1);
	ck_assert_int_eq(cd_game_nag_before_next(game, e4, -1), -1);
	ck_assert_int_eq(cd_game_nag_next(game, 0, -1), -1);
	ck_assert(!cd_game_node_has_nags(&game->nodes[e5]));
	ck_assert_uint_ne(game->nodes[d4].before, 0);
	ck_assert_str_eq(cd_game_str(game,
	    game->notes[game->nodes[d4].before].text), "alt");
	{
		uint32_t a = game->nodes[e4].after;

		ck_assert_int_eq(game->notes[a].kind, CD_NOTE_COMMENT);
		a = game->notes[a].next;
		ck_assert_int_eq(game->notes[a].kind, CD_NOTE_ESCAPE);
		ck_assert_str_eq(cd_game_str(game, game->notes[a].text), "esc");
	}

	/* export tags and the text */
	ck_assert_int_eq(cd_game_export_tags(game, 0, &xt), CD_OK);
	ck_assert_uint_eq(xt.n, 8);
	ck_assert_str_eq(xt.tags[6].value, "1-0");
	ck_assert_str_eq(xt.tags[7].name, "Annotator");
	cd_game_xtags_free(&xt);
	ck_assert_int_eq(cd_pgn_write_buf(game, 0, &b), CD_OK);
	ck_assert_msg(b.len == strlen(want) && memcmp(b.data, want, b.len) == 0,
	    "built:\n%.*s", (int)b.len, b.data);

	/* reuse: clear and build again */
	cd_game_clear(game);
	ck_assert_uint_eq(game->ntags, 0);
	ck_assert_uint_eq(game->nnodes, 1);
	ck_assert_int_eq(cd_game_add_move(game, find_move(cd_game_board(game),
	    "Nf3"), NULL), CD_OK);
	b.len = 0;
	ck_assert_int_eq(cd_pgn_write_buf(game, CD_PGN_REDUCED, &b), CD_OK);
	ck_assert(b.len > 11 && memcmp(b.data + b.len - 11, "\n1. Nf3 *\n\n",
	    11) == 0);
	cd_buf_free(&b);
}
END_TEST

/* A start position set directly, and a null move added. */
START_TEST(test_builder_start)
{
	cd_board bd;
	cd_buf b = { 0 };

	cd_game_clear(game);
	ck_assert_int_eq(cd_fen_parse(&bd, "4k3/8/8/8/8/8/8/4K2R b K - 3 40",
	    31, 0, NULL), CD_OK);
	ck_assert_int_eq(cd_game_set_start(game, &bd), CD_OK);
	ck_assert_int_eq(cd_game_add_move(game, CD_MOVE_NULL, NULL), CD_OK);
	ck_assert_int_eq(cd_game_add_move(game, find_move(cd_game_board(game),
	    "O-O"), NULL), CD_OK);
	ck_assert_int_eq(cd_game_set_start(game, &bd), CD_ERR_ARG);
	ck_assert_int_eq(cd_pgn_write_buf(game, 0, &b), CD_OK);
	b.data[b.len - 1] = '\0';
	ck_assert_msg(strstr(b.data,
	    "[FEN \"4k3/8/8/8/8/8/8/4K2R b K - 3 40\"]\n[SetUp \"1\"]\n\n"
	    "40... -- 41. O-O *\n") != NULL, "built:\n%s", b.data);
	cd_buf_free(&b);
	cd_game_end_position(game, &bd);
	ck_assert_int_eq(bd.squares[CD_F1], CD_PIECE(CD_WHITE, CD_ROOK));
}
END_TEST

/*
 * A parsed game built on: the parser keeps no position before each
 * move in a movetext without `(`, so a variation begun after the parse
 * must find that position again (here in check, after 3. Bxf7+, and
 * after a game parsed with variations, where it is kept).
 */
START_TEST(test_builder_after_parse)
{
	static const struct {
		const char *in, *alt, *want;
	} cases[] = {
	    { "1. e4 e5 2. Bc4 Nc6 3. Bxf7+ Kxf7 *", "Ke7",
	      "1. e4 e5 2. Bc4 Nc6 3. Bxf7+ Kxf7 ( 3... Ke7 ) *" },
	    { "1. e4 e5 2. Bc4 (2. Nf3) Nc6 3. Bxf7+ Kxf7 *", "Ke7",
	      ("1. e4 e5 2. Bc4 ( 2. Nf3 ) 2... Nc6 3. Bxf7+ Kxf7 "
	      "( 3... Ke7 ) *") },
	    { "1. d4 *", "e4", "1. d4 ( 1. e4 ) *" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cd_buf b = { 0 };
		cd_error err;
		char *out;

		ck_assert_int_eq(cd_pgn_parse_text(game, cases[i].in,
		    strlen(cases[i].in), NULL, &err), CD_OK);
		ck_assert_int_eq(cd_game_begin_variation(game), CD_OK);
		ck_assert(cd_board_in_check(cd_game_board(game)) ==
		    (i < 2));
		ck_assert_int_eq(cd_game_add_move(game, find_move(
		    cd_game_board(game), cases[i].alt), NULL), CD_OK);
		ck_assert_int_eq(cd_game_end_variation(game, NULL), CD_OK);
		ck_assert_int_eq(cd_pgn_write_buf(game, 0, &b), CD_OK);
		ck_assert_int_eq(cd_buf_reserve(&b, 1), CD_OK);
		b.data[b.len] = '\0';
		out = b.data;
		ck_assert_str_eq(movetext(out), cases[i].want);
		cd_buf_free(&b);
	}
}
END_TEST

/* ---- hostile depth: no recursion anywhere ---- */

START_TEST(test_deep)
{
	size_t depth = 200000, i, len = 0;
	char *in = malloc(depth * 10 + 64), *out;
	cd_buf b = { 0 };
	cd_error err;

	ck_assert_ptr_nonnull(in);
	len += (size_t)sprintf(in + len, "1. e4 ");
	for (i = 0; i < depth; i++)
		len += (size_t)sprintf(in + len, "( 1. d4 ");
	for (i = 0; i < depth; i++)
		in[len++] = ')';
	len += (size_t)sprintf(in + len, " *");
	ck_assert_int_eq(cd_pgn_parse_text(game, in, len, NULL, &err), CD_OK);
	ck_assert_uint_eq(game->nnodes, depth + 2);
	ck_assert_int_eq(cd_pgn_write_buf(game, 0, &b), CD_OK);
	out = malloc(b.len + 1);
	memcpy(out, b.data, b.len);
	out[b.len] = '\0';
	ck_assert_int_eq(cd_pgn_parse_text(game, out, b.len, NULL, &err), CD_OK);
	b.len = 0;
	ck_assert_int_eq(cd_pgn_write_buf(game, 0, &b), CD_OK);
	ck_assert(memcmp(b.data, out, b.len) == 0);
	/* unclosed at that depth: an error, no crash */
	in[len - 3] = ' ';
	ck_assert_int_eq(cd_pgn_parse_text(game, in, len, NULL, &err),
	    CD_ERR_SYNTAX);
	free(out);
	free(in);
	cd_buf_free(&b);
}
END_TEST

/* Many notes after one move, many NAGs: linear, kept in order. */
START_TEST(test_many_notes)
{
	size_t n = 50000, i, len = 0;
	char *in = malloc(n * 16 + 64);
	cd_error err;
	uint32_t a;

	ck_assert_ptr_nonnull(in);
	len += (size_t)sprintf(in + len, "1. e4 ");
	for (i = 0; i < n; i++)
		len += (size_t)sprintf(in + len, "{%zu} $%zu ", i % 1000, i % 256);
	len += (size_t)sprintf(in + len, "*");
	ck_assert_int_eq(cd_pgn_parse_text(game, in, len, NULL, &err), CD_OK);
	for (i = 0, a = game->nodes[1].after; a; a = game->notes[a].next, i++)
		ck_assert_uint_eq(strtoul(cd_game_str(game,
		    game->notes[a].text), NULL, 10), i % 1000);
	ck_assert_uint_eq(i, n);
	for (i = 0; i < 256; i++)
		ck_assert_int_eq(cd_game_nag_next(game, 1, (int)i - 1), (int)i);
	free(in);
}
END_TEST

/* A whole file through the reader: game numbers, reuse of one game. */
START_TEST(test_stream)
{
	static const char text[] =
	    "[Event \"a\"]\n1. e4 e5 *\n"
	    "[Event \"b\"]\n1. e4 e5 2. Ke3 *\n"
	    "[Event \"c\"]\n1. d4 1-0\n";
	cd_pgn_reader *r = cd_pgn_reader_new_mem(text, sizeof(text) - 1);
	cd_pgn_raw_game raw;
	cd_error err;
	int ok = 0, bad = 0;

	while (cd_pgn_reader_next(r, &raw) == CD_OK) {
		if (cd_pgn_parse(game, &raw, NULL, &err) == CD_OK) {
			ok++;
		} else {
			bad++;
			ck_assert_uint_eq(raw.number, 2);
			ck_assert_uint_eq(err.line, 4);
			ck_assert_uint_eq(err.col, 13);
			ck_assert_str_eq(err.msg, "2. Ke3: illegal move");
		}
	}
	ck_assert_int_eq(ok, 2);
	ck_assert_int_eq(bad, 1);
	cd_pgn_reader_free(r);
}
END_TEST

/*
 * A tag section larger than the reader's first arena, its lines read
 * now by the usual tag loop and now by the general scan (two tags on a
 * line, an escaped quote), so that the arena grows while the game's
 * first tags are in it: every tag read back with its value, in games
 * before and after it.
 */
static void
text_add(cd_buf *b, const char *s, size_t n)
{
	ck_assert_int_eq(cd_buf_reserve(b, n), CD_OK);
	memcpy(b->data + b->len, s, n);
	b->len += n;
}

START_TEST(test_stream_many_tags)
{
	cd_buf text = { 0 };
	cd_pgn_reader *r;
	cd_pgn_raw_game raw;
	char line[160], want[64];
	int game_no, i, ntags[3] = { 3, 400, 5 };

	for (game_no = 0; game_no < 3; game_no++) {
		for (i = 0; i < ntags[game_no]; i++) {
			int n;

			if (i % 7 == 3)	/* the general scan's form */
				n = snprintf(line, sizeof(line),
				    "[T%d \"v%d-%d \\\" %032d\"] [U%d \"u\"]\n",
				    i, game_no, i, i, i);
			else
				n = snprintf(line, sizeof(line),
				    "[T%d \"v%d-%d %032d\"]\n", i, game_no, i, i);
			text_add(&text, line, (size_t)n);
		}
		text_add(&text, "\n1. e4 *\n\n", 10);
	}
	r = cd_pgn_reader_new_mem(text.data, text.len);
	ck_assert_ptr_nonnull(r);
	for (game_no = 0; game_no < 3; game_no++) {
		size_t k = 0;

		ck_assert_int_eq(cd_pgn_reader_next(r, &raw), CD_OK);
		for (i = 0; i < ntags[game_no]; i++) {
			const cd_pgn_tag *t = &raw.tags[k++];

			snprintf(line, sizeof(line), "T%d", i);
			ck_assert_str_eq(t->name, line);
			if (i % 7 == 3)
				snprintf(want, sizeof(want), "v%d-%d \" %032d",
				    game_no, i, i);
			else
				snprintf(want, sizeof(want), "v%d-%d %032d",
				    game_no, i, i);
			ck_assert_uint_eq(t->value_len, strlen(want));
			ck_assert_str_eq(t->value, want);
			if (i % 7 == 3) {
				t = &raw.tags[k++];
				snprintf(line, sizeof(line), "U%d", i);
				ck_assert_str_eq(t->name, line);
				ck_assert_str_eq(t->value, "u");
			}
		}
		ck_assert_uint_eq(raw.ntags, k);
		ck_assert_int_eq(cd_pgn_parse(game, &raw, NULL, NULL), CD_OK);
		ck_assert_uint_eq(game->ntags, k);
	}
	ck_assert_int_eq(cd_pgn_reader_next(r, &raw), CD_EOF);
	cd_pgn_reader_free(r);
	cd_buf_free(&text);
}
END_TEST

/* copy (of raw, its two tags at tags) with them laid on block:
 * the first name at 0, its value at 2 (vlen bytes), the second name at
 * bname and its value two on; read after cd_pgn_raw_copied, the values
 * of A and B (NULL: no B) are a and b. */
static void
copied_reads(cd_pgn_raw_game *copy, const cd_pgn_raw_game *raw,
    cd_pgn_tag *tags, const char *block, size_t vlen, size_t bname,
    const char *a, const char *b)
{
	size_t len;

	tags[0].name = block;
	tags[0].value = block + 2;
	tags[0].value_len = vlen;
	tags[1].name = block + bname;
	tags[1].value = block + bname + 2;
	cd_pgn_raw_copied(copy, raw);
	ck_assert_int_eq(cd_pgn_parse(game, copy, NULL, NULL), CD_OK);
	ck_assert_uint_eq(game->ntags, copy->ntags);
	ck_assert_str_eq(cd_game_tag_value(game, "A", &len), a);
	if (b != NULL)
		ck_assert_str_eq(cd_game_tag_value(game, "B", &len), b);
}

/*
 * cd_pgn_raw_copied: a raw game copied elsewhere, its tags' block whole
 * (as games.c copies a batch's games), is read as the reader's own; a
 * copy whose tags are laid out otherwise (a value with a tab, of
 * another length; a block with a gap; a gap in a block as long as the
 * reader's; fewer tags) is read as any game
 * is, not taken for the reader's plain tags: the tab made a space, the
 * values where their tags point.
 */
START_TEST(test_raw_copied)
{
	static const char text[] = "[A \"x\"]\n[B \"yy\"]\n\n1. e4 "
	    "{ a comment of more than sixty-four bytes, so the tag loop "
	    "reads the tags } *\n";
	static const char tab[] = "A\0a\tb\0B\0yy";
	static const char gap[] = "A\0x\0\0B\0yy";
	static const char empty[] = "A\0\0\0B\0yy";
	cd_pgn_reader *r = cd_pgn_reader_new_mem(text, sizeof(text) - 1);
	cd_pgn_raw_game raw, copy;
	cd_pgn_tag tags[2];
	char block[16];
	size_t len, i, n;

	ck_assert_int_eq(cd_pgn_reader_next(r, &raw), CD_OK);
	ck_assert_uint_eq(raw.ntags, 2);
	/* laid out alike */
	n = (size_t)(raw.tags[1].value + raw.tags[1].value_len + 1 -
	    raw.tags[0].name);
	ck_assert_uint_eq(n, sizeof(gap) - 1);
	memcpy(block, raw.tags[0].name, n);
	for (i = 0; i < 2; i++) {
		tags[i] = raw.tags[i];
		tags[i].name = block + (raw.tags[i].name - raw.tags[0].name);
		tags[i].value = block + (raw.tags[i].value - raw.tags[0].name);
	}
	copy = raw;
	copy.tags = tags;
	cd_pgn_raw_copied(&copy, &raw);
	ck_assert_int_eq(cd_pgn_parse(game, &copy, NULL, NULL), CD_OK);
	ck_assert_uint_eq(game->ntags, 2);
	ck_assert_str_eq(cd_game_tag_value(game, "A", &len), "x");
	ck_assert_str_eq(cd_game_tag_value(game, "B", &len), "yy");
	/* a value of three bytes with a tab, the block as long */
	copied_reads(&copy, &raw, tags, tab, 3, 6, "a b", "yy");
	/* the lengths of the reader's, a gap after the first value */
	copied_reads(&copy, &raw, tags, gap, 1, 5, "x", "yy");
	/* an empty first value, a gap after it: the block and the last
	 * value as long as the reader's, the second name elsewhere */
	copied_reads(&copy, &raw, tags, empty, 0, 4, "", "yy");
	/* fewer tags than the reader's */
	copy.ntags = 1;
	copied_reads(&copy, &raw, tags, tab, 3, 6, "a b", NULL);
	cd_pgn_reader_free(r);
}
END_TEST

/* A raw game not as the reader gave it (no note: its tags not plain)
 * whose tag strings span the same bytes as the block of the game
 * before, but not as a block: the first tag's value is the second's.
 * Its tags are read one by one, not taken for the block again. */
START_TEST(test_raw_block_lookalike)
{
	static const char text[] = "[A \"x\"]\n[B \"y\"]\n\n1. e4 *\n\n"
	    "[A \"x\"]\n[B \"y\"]\n\n1. d4 *\n";
	cd_pgn_reader *r = cd_pgn_reader_new_mem(text, sizeof(text) - 1);
	cd_pgn_raw_game raw, copy;
	cd_pgn_tag tags[2];
	char block[8];
	size_t len;

	ck_assert_int_eq(cd_pgn_reader_next(r, &raw), CD_OK);
	ck_assert_int_eq(cd_pgn_parse(game, &raw, NULL, NULL), CD_OK);
	ck_assert_int_eq(cd_pgn_reader_next(r, &raw), CD_OK);
	ck_assert_uint_eq(raw.ntags, 2);
	ck_assert_uint_eq((size_t)(raw.tags[1].value + 2 - raw.tags[0].name),
	    sizeof(block));
	memcpy(block, raw.tags[0].name, sizeof(block));
	ck_assert_mem_eq(block, "A\0x\0B\0y\0", sizeof(block));
	tags[0] = raw.tags[0];
	tags[1] = raw.tags[1];
	tags[0].name = block;
	tags[0].value = block + 6;	/* "y" */
	tags[1].name = block + 4;
	tags[1].value = block + 6;
	copy = raw;
	copy.tags = tags;
	ck_assert_int_eq(cd_pgn_parse(game, &copy, NULL, NULL), CD_OK);
	ck_assert_uint_eq(game->ntags, 2);
	ck_assert_str_eq(cd_game_tag_value(game, "A", &len), "y");
	ck_assert_str_eq(cd_game_tag_value(game, "B", &len), "y");
	/* and the reader's own again: the block */
	ck_assert_int_eq(cd_pgn_parse(game, &raw, NULL, NULL), CD_OK);
	ck_assert_str_eq(cd_game_tag_value(game, "A", &len), "x");
	cd_pgn_reader_free(r);
}
END_TEST

/*
 * A raw game the reader gave, copied with its tags pointed at the
 * caller's own (a value with a tab, which the game keeps as a space):
 * the copy is not taken for the reader's plain tags, and the tab is
 * made a space; the reader's own game is read as ever.
 */
START_TEST(test_raw_copy_tags)
{
	/* (bytes enough after the tags for the reader's usual tag loop) */
	static const char text[] = "[A \"x\"]\n[B \"y\"]\n\n1. e4 "
	    "{ a comment of more than sixty-four bytes, so the tag loop "
	    "reads the tags } *\n";
	static const char block[] = "A\0a\tb\0B\0y";
	const cd_pgn_tag mine[2] = {
		{ block, 1, block + 2, 3, 1, 1 },
		{ block + 6, 1, block + 8, 1, 2, 1 }
	};
	cd_pgn_reader *r = cd_pgn_reader_new_mem(text, sizeof(text) - 1);
	cd_pgn_raw_game raw, copy;
	size_t len;

	ck_assert_int_eq(cd_pgn_reader_next(r, &raw), CD_OK);
	ck_assert_uint_eq(raw.ntags, 2);
	copy = raw;
	copy.tags = mine;
	ck_assert_int_eq(cd_pgn_parse(game, &copy, NULL, NULL), CD_OK);
	ck_assert_str_eq(cd_game_tag_value(game, "A", &len), "a b");
	ck_assert_str_eq(cd_game_tag_value(game, "B", &len), "y");
	/* the first of the reader's tags only */
	copy = raw;
	copy.ntags = 1;
	ck_assert_int_eq(cd_pgn_parse(game, &copy, NULL, NULL), CD_OK);
	ck_assert_uint_eq(game->ntags, 1);
	ck_assert_str_eq(cd_game_tag_value(game, "A", &len), "x");
	ck_assert_ptr_null(cd_game_tag_value(game, "B", &len));
	ck_assert_int_eq(cd_pgn_parse(game, &raw, NULL, NULL), CD_OK);
	ck_assert_uint_eq(game->ntags, 2);
	ck_assert_str_eq(cd_game_tag_value(game, "B", &len), "y");
	cd_pgn_reader_free(r);
}
END_TEST

/* ---- random games: every move read back exactly ---- */

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static unsigned
rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/*
 * The SAN the fast reader hands to the game's node as one word: with
 * the file, the rank or both that tell the mover from others (the
 * length worked out from the word), a capture, a check or mate mark
 * put after it (the longest, seven bytes: "Qh4xe1+"), castling with its
 * mark, and a move after a check.  The node's san, san_len and flags.
 */
static const struct {
	const char *fen, *movetext;
	uint32_t node;
	const char *san;
	uint8_t flags;
} fast_nodes[] = {
	{ "7K/8/8/8/4Q2Q/8/8/2k1r2Q w - - 0 1", "1. Qh4xe1", 1, "Qh4xe1+",
	    CD_NODE_CHECK },
	{ "7K/8/8/8/4Q2Q/8/8/2k1r2Q w - - 0 1", "1. Qexe1+", 1, "Qexe1+",
	    CD_NODE_CHECK },
	{ "7K/8/8/8/4Q2Q/8/8/2k1r2Q w - - 0 1", "1. Q1xe1", 1, "Q1xe1+",
	    CD_NODE_CHECK },
	{ "Q7/1p5k/Q1Q5/8/8/8/8/K7 w - - 0 1", "1. Qa6xb7", 1, "Qa6xb7#",
	    CD_NODE_MATE },
	{ "Q7/1p5k/Q1Q5/8/8/8/8/K7 w - - 0 1", "1. Qcxb7#", 1, "Qcxb7#",
	    CD_NODE_MATE },
	{ "4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "1. Rae1+", 1, "Rae1+",
	    CD_NODE_CHECK },
	{ "4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "1. Rfe1+ Kd7 2. Ra7+", 3,
	    "Ra7+", CD_NODE_CHECK },
	{ "4k3/8/8/8/R7/8/8/R3K3 w - - 0 1", "1. R1a3", 1, "R1a3", 0 },
	{ "4k3/8/8/8/R7/8/8/R3K3 w - - 0 1", "1. R4a3 Kd7 2. R1a2", 3, "R1a2",
	    0 },
	{ "4k3/8/8/8/8/5N2/3p4/1N2K3 w - - 0 1", "1. Nbxd2", 1, "Nbxd2", 0 },
	{ "4k3/8/8/8/8/5N2/3p4/1N2K3 w - - 0 1", "1. Nfxd2", 1, "Nfxd2", 0 },
	{ "5k2/8/8/8/8/8/8/4K2R w K - 0 1", "1. O-O", 1, "O-O+",
	    CD_NODE_CHECK },
	{ "r3k3/8/8/8/8/8/8/3K4 b q - 0 1", "1... O-O-O+", 1, "O-O-O+",
	    CD_NODE_CHECK },
	{ "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
	    "2... Qh4", 1, "Qh4#", CD_NODE_MATE },
};

/*
 * A lone piece of the kind on a line to the target, with a piece in
 * the way: no move, whichever side of the target the mover stands on
 * (the black queen's Qe3+ through the rook on d4 was once read).
 */
static const struct {
	const char *fen, *movetext;
} fast_blocked[] = {
	{ "2kr3r/3n2p1/p6p/1bq1PQ2/1p1R2P1/1B6/PPP4P/2K4R b - - 0 23",
	    "23... Qe3+" },
	{ "2kr3r/3n2p1/p6p/1bq1PQ2/1p1R2P1/1B6/PPP4P/2K4R b - - 0 23",
	    "23... Qe3" },
	{ "7R/8/k7/8/7p/8/8/4K3 w - - 0 1", "1. Rh1" },
	{ "4k3/6B1/8/8/3p4/8/8/4K3 w - - 0 1", "1. Ba1" },
	{ "4k3/8/8/3P4/8/8/6b1/4K3 b - - 0 1", "1... Ba8" },
	{ "4k3/8/8/3P4/8/8/6b1/4K3 b - - 0 1", "1... Bxa8" },
};

/* The game of movetext from fen (the fast reader's tests) parsed into
 * game: cd_pgn_parse_text's status. */
static cd_status
parse_from(const char *fen, const char *movetext, cd_error *err)
{
	char text[256];
	int k;

	k = snprintf(text, sizeof(text), "[SetUp \"1\"]\n[FEN \"%s\"]\n\n%s *\n",
	    fen, movetext);
	ck_assert(k > 0 && (size_t)k < sizeof(text));
	return cd_pgn_parse_text(game, text, (size_t)k, NULL, err);
}

START_TEST(test_fast_blocked)
{
	ck_assert_int_eq(parse_from(fast_blocked[_i].fen,
	    fast_blocked[_i].movetext, NULL), CD_ERR_ILLEGAL);
}
END_TEST

START_TEST(test_fast_san_nodes)
{
	const cd_game_node *nd;
	cd_error err;

	ck_assert_int_eq(parse_from(fast_nodes[_i].fen,
	    fast_nodes[_i].movetext, &err), CD_OK);
	ck_assert_uint_eq(game->nnodes, fast_nodes[_i].node + 1);
	nd = &game->nodes[fast_nodes[_i].node];
	ck_assert_str_eq(nd->san, fast_nodes[_i].san);
	ck_assert_uint_eq(nd->san_len, strlen(fast_nodes[_i].san));
	ck_assert_uint_eq(nd->flags, fast_nodes[_i].flags);
}
END_TEST

/*
 * The king's steps and castling read by the fast reader, whose test of
 * an attacked square looks only at the sliders on the square's lines
 * (and the steps by their tables): a step onto a square a slider sees
 * along the king's own line (the king lifted), a slider blocked, a
 * knight's, pawn's or king's attack, a taken piece defended or not,
 * castling through an attacked square; and the mark after a check,
 * which the same test decides (a mate whose one free-looking square is
 * on the checker's line behind the king).  ok 0: the move is refused.
 */
static const struct {
	const char *fen, *movetext;
	bool ok;
	const char *san;	/* the last node's, with ok */
	uint8_t flags;
} king_steps[] = {
	{ "4k3/8/8/8/8/8/r7/4K3 w - - 0 1", "1. Kd2", false, NULL, 0 },
	{ "4k3/8/8/8/8/8/r7/4K3 w - - 0 1", "1. Ke2", false, NULL, 0 },
	{ "4k3/8/8/8/8/8/r7/4K3 w - - 0 1", "1. Kf2", false, NULL, 0 },
	{ "4k3/8/8/8/8/8/r7/4K3 w - - 0 1", "1. Kf1", true, "Kf1", 0 },
	{ "4k3/8/8/8/8/8/rP6/4K3 w - - 0 1", "1. Kd2", true, "Kd2", 0 },
	{ "4k3/8/8/8/8/8/r3K3/8 w - - 0 1", "1. Kf2", false, NULL, 0 },
	{ "4k3/8/8/8/8/8/r3K3/8 w - - 0 1", "1. Kd2", false, NULL, 0 },
	{ "4k3/8/8/8/8/8/r3K3/8 w - - 0 1", "1. Kf3", true, "Kf3", 0 },
	{ "4k3/8/8/b7/8/8/3K4/8 w - - 0 1", "1. Ke1", false, NULL, 0 },
	{ "4k3/8/8/b7/8/8/3K4/8 w - - 0 1", "1. Kc3", false, NULL, 0 },
	{ "4k3/8/8/b7/8/8/3K4/8 w - - 0 1", "1. Ke2", true, "Ke2", 0 },
	{ "4k3/8/8/8/8/5n2/8/4K3 w - - 0 1", "1. Kd2", false, NULL, 0 },
	{ "4k3/8/8/8/8/5n2/8/4K3 w - - 0 1", "1. Kf2", true, "Kf2", 0 },
	{ "4k3/8/8/8/8/4p3/8/4K3 w - - 0 1", "1. Kd2", false, NULL, 0 },
	{ "4k3/8/8/8/8/4p3/8/4K3 w - - 0 1", "1. Kf2", false, NULL, 0 },
	{ "4k3/8/8/8/8/4p3/8/4K3 w - - 0 1", "1. Ke2", true, "Ke2", 0 },
	{ "8/8/8/8/8/4k3/8/4K3 w - - 0 1", "1. Kf2", false, NULL, 0 },
	{ "8/8/8/8/8/4k3/8/4K3 w - - 0 1", "1. Kf1", true, "Kf1", 0 },
	{ "4r1k1/8/8/8/8/8/4q3/4K3 w - - 0 1", "1. Kxe2", false, NULL, 0 },
	{ "4r1k1/8/8/4P3/8/8/4q3/4K3 w - - 0 1", "1. Kxe2", true, "Kxe2",
	    0 },
	{ "4k3/8/8/8/2b5/8/8/4K2R w K - 0 1", "1. O-O", false, NULL, 0 },
	{ "4k3/8/8/8/2b5/3P4/8/4K2R w K - 0 1", "1. O-O", true, "O-O", 0 },
	{ "1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "1. O-O-O", true, "O-O-O", 0 },
	{ "2r1k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "1. O-O-O", false, NULL, 0 },
	{ "3rk3/8/8/8/8/8/8/R3K3 w Q - 0 1", "1. O-O-O", false, NULL, 0 },
	{ "4k3/8/8/8/8/8/8/R3K2R w K - 0 1", "1. O-O-O", false, NULL, 0 },
	{ "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "1. Ra8", true, "Ra8#",
	    CD_NODE_MATE },
	{ "6k1/5pp1/7p/8/8/8/8/R5K1 w - - 0 1", "1. Ra8", true, "Ra8+",
	    CD_NODE_CHECK },
	{ "6k1/5pp1/7p/8/8/8/8/R5K1 w - - 0 1", "1. Ra8 Kh7", true, "Kh7",
	    0 },
	{ "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "1. Ra8 Kh8", false, NULL,
	    0 },
};

START_TEST(test_fast_king_steps)
{
	const cd_game_node *nd;
	cd_error err;
	cd_status st;

	st = parse_from(king_steps[_i].fen, king_steps[_i].movetext, &err);
	if (!king_steps[_i].ok) {
		ck_assert_msg(st != CD_OK, "case %d: %s read", _i,
		    king_steps[_i].movetext);
		return;
	}
	ck_assert_msg(st == CD_OK, "case %d: %s", _i, err.msg);
	nd = &game->nodes[game->nnodes - 1];
	ck_assert_str_eq(nd->san, king_steps[_i].san);
	ck_assert_uint_eq(nd->flags, king_steps[_i].flags);
}
END_TEST

/*
 * The pins the fast reader is given, kept with the line's position
 * where it changes other than by a normal move: after a promotion or
 * an en passant capture (the pin they make: the rook on e8 between the
 * new queen and the king, the knight on f5 once both pawns leave the
 * fifth rank), and in a variation begun right after another's first
 * move (the position before that move again, the knight on e2 pinned by
 * the rook on e7), after the first variation of a move and back in the
 * main line after a variation that unpinned it.  ok 0: the last move is
 * refused.
 */
static const struct {
	const char *fen, *movetext;
	bool ok;
	const char *san;	/* the last node's, with ok */
} line_pins[] = {
	{ "4r2k/1P6/8/8/8/8/8/7K w - - 0 1", "1. b8=Q Re1", false, NULL },
	{ "4r2k/1P6/8/8/8/8/8/7K w - - 0 1", "1. b8=Q Rd8", true, "Rd8" },
	{ "8/3p4/8/R3Pn1k/8/8/8/K7 b - - 0 1", "1... d5 2. exd6 Ng3", false,
	    NULL },
	{ "8/3p4/8/R3Pn1k/8/8/8/K7 b - - 0 1", "1... d5 2. exd6 Kg4", true,
	    "Kg4" },
	{ "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "1. Kd1 (1. Kf1 (1. Nc3))",
	    false, NULL },
	{ "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "1. Kd1 (1. Kf1 (1. Kf2))",
	    true, "Kf2" },
	{ "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "1. Kd1 (1. Nc3)", false,
	    NULL },
	{ "4k3/4r3/8/8/8/8/8/4K3 w - - 0 1", "1. Kd1 Kd8 (1... Kf8) 2. Kc1 "
	    "Re1+ 3. Kd2 Re2+ (3... Re8 4. Kd3) 4. Kd3", true, "Kd3" },
	{ "k7/4r3/8/8/8/8/4N3/4K3 b - - 0 1", "1... Kb8 (1... Rd7) 2. Nc3",
	    false, NULL },
	{ "k7/4r3/8/8/8/8/4N3/4K3 b - - 0 1", "1... Kb8 (1... Rd7) 2. Kd2",
	    true, "Kd2" },
	{ "k7/4r3/8/8/8/8/4N3/4K3 b - - 0 1", "1... Rd7 (1... Kb8) 2. Nc3",
	    true, "Nc3" },
};

START_TEST(test_line_pins)
{
	cd_error err;
	cd_status st;

	st = parse_from(line_pins[_i].fen, line_pins[_i].movetext, &err);
	if (!line_pins[_i].ok) {
		ck_assert_msg(st != CD_OK, "case %d: %s read", _i,
		    line_pins[_i].movetext);
		return;
	}
	ck_assert_msg(st == CD_OK, "case %d: %s", _i, err.msg);
	ck_assert_str_eq(game->nodes[game->nnodes - 1].san, line_pins[_i].san);
}
END_TEST

/*
 * Castling made by the game builder (its own make, then the check and
 * the pins found as after a normal move): both wings of both sides, the
 * rights that end (the key with them), an en passant square that ends,
 * a check and a mate by the castling rook, a piece the rook pins (its
 * move off the line refused, along it or the king's taken), Chess960's
 * king or rook landing on the other's square.  The position after the
 * moves must be the FEN's, key and all; the castling node's SAN and
 * flags those given.  ok 0: the last move is refused.
 */
static const struct {
	bool c960;
	const char *fen, *movetext;
	bool ok;
	const char *after;	/* with ok: the FEN after the moves */
	unsigned node;		/* the castling node */
	const char *san;
	uint8_t flags;
} castle_makes[] = {
	{ false, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "1. O-O", true,
	    "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1", 1, "O-O", 0 },
	{ false, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "1. O-O-O", true,
	    "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1", 1, "O-O-O", 0 },
	{ false, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
	    "1. O-O O-O", true,
	    "r4rk1/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 w - - 2 2", 2, "O-O", 0 },
	{ false, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
	    "1. O-O-O O-O-O", true,
	    "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R w - - 2 2", 2, "O-O-O",
	    0 },
	{ false, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
	    "1. O-O-O O-O 2. Rh2 Rfe8", true,
	    "r3r1k1/8/8/8/8/8/7R/2KR4 w - - 4 3", 2, "O-O", 0 },
	{ false, "r3k2r/8/8/8/3pP3/8/8/R3K2R b KQkq e3 0 1", "1... O-O",
	    true, "r4rk1/8/8/8/3pP3/8/8/R3K2R w KQ - 1 2", 1, "O-O", 0 },
	{ false, "r3k2r/8/8/8/3pP3/8/8/R3K2R b KQkq e3 0 1",
	    "1... O-O-O 2. O-O", true,
	    "2kr3r/8/8/8/3pP3/8/8/R4RK1 b - - 2 2", 2, "O-O", 0 },
	{ false, "5k2/8/8/8/8/8/8/4K2R w K - 0 1", "1. O-O+", true,
	    "5k2/8/8/8/8/8/8/5RK1 b - - 1 1", 1, "O-O+", CD_NODE_CHECK },
	{ false, "5k2/8/8/8/8/8/8/4K2R w K - 0 1", "1. O-O Ke7", true,
	    "8/4k3/8/8/8/8/8/5RK1 w - - 2 2", 1, "O-O+", CD_NODE_CHECK },
	{ false, "5k2/8/8/8/8/8/8/4K2R w K - 0 1", "1. O-O Kf7", false,
	    NULL, 0, NULL, 0 },
	{ false, "2rkr3/2p1p3/8/8/8/8/8/R3K3 w Q - 0 1", "1. O-O-O", true,
	    "2rkr3/2p1p3/8/8/8/8/8/2KR4 b - - 1 1", 1, "O-O-O#",
	    CD_NODE_MATE },
	{ false, "2rk4/2p1p3/8/8/8/8/8/R3K3 w Q - 0 1", "1. O-O-O", true,
	    "2rk4/2p1p3/8/8/8/8/8/2KR4 b - - 1 1", 1, "O-O-O+",
	    CD_NODE_CHECK },
	{ false, "3k4/3n4/8/8/8/8/8/R3K3 w Q - 0 1", "1. O-O-O Nf6",
	    false, NULL, 0, NULL, 0 },
	{ false, "3k4/3n4/8/8/8/8/8/R3K3 w Q - 0 1", "1. O-O-O Nb6",
	    false, NULL, 0, NULL, 0 },
	{ false, "3k4/3n4/8/8/8/8/8/R3K3 w Q - 0 1", "1. O-O-O Ke7", true,
	    "8/3nk3/8/8/8/8/8/2KR4 w - - 2 2", 1, "O-O-O", 0 },
	{ false, "3k4/3p4/2P5/8/8/8/8/R3K3 w Q - 0 1", "1. O-O-O d6", true,
	    "3k4/8/2Pp4/8/8/8/8/2KR4 w - - 0 2", 1, "O-O-O", 0 },
	{ false, "3k4/3p4/2P5/8/8/8/8/R3K3 w Q - 0 1", "1. O-O-O dxc6",
	    false, NULL, 0, NULL, 0 },
	{ false, "6k1/8/8/8/8/8/8/R3K2R w KQ - 0 1", "1. O-O Kh7", true,
	    "8/7k/8/8/8/8/8/R4RK1 w - - 2 2", 1, "O-O", 0 },
	{ false, "4k3/8/8/8/8/8/6b1/R3K2R w KQ - 0 1", "1. O-O-O Bh3",
	    true, "4k3/8/8/8/8/7b/8/2KR3R w - - 2 2", 1, "O-O-O", 0 },
	{ true, "4k3/8/8/8/8/8/8/5KR1 w G - 0 1", "1. O-O", true,
	    "4k3/8/8/8/8/8/8/5RK1 b - - 1 1", 1, "O-O", 0 },
	{ true, "4k3/8/8/8/8/8/8/RK5R w HA - 0 1", "1. O-O-O", true,
	    "4k3/8/8/8/8/8/8/2KR3R b - - 1 1", 1, "O-O-O", 0 },
	{ true, "4k3/8/8/8/8/8/8/RK5R w HA - 0 1", "1. O-O", true,
	    "4k3/8/8/8/8/8/8/R4RK1 b - - 1 1", 1, "O-O", 0 },
	{ true, "4k3/8/8/8/8/8/8/2RK4 w C - 0 1", "1. O-O-O", true,
	    "4k3/8/8/8/8/8/8/2KR4 b - - 1 1", 1, "O-O-O", 0 },
	{ true, "3rk3/8/8/8/8/8/8/2RK4 w C - 0 1", "1. O-O-O", false,
	    NULL, 0, NULL, 0 },
	{ true, "4k3/8/8/8/8/8/8/1R2K2R w HB - 0 1", "1. O-O-O", true,
	    "4k3/8/8/8/8/8/8/2KR3R b - - 1 1", 1, "O-O-O", 0 },
};

/* The position b against want, case i: key, en passant, bitboards,
 * squares and castling rights. */
static void
same_board(const cd_board *b, const cd_board *want, int i)
{
	ck_assert_msg(b->key == want->key, "case %d: key", i);
	ck_assert(cd_board_ep_legal(b) == cd_board_ep_legal(want));
	ck_assert(memcmp(b->by_type, want->by_type, sizeof(b->by_type)) == 0);
	ck_assert(memcmp(b->by_color, want->by_color,
	    sizeof(b->by_color)) == 0);
	ck_assert(memcmp(b->squares, want->squares, sizeof(b->squares)) == 0);
	ck_assert(memcmp(b->castle_rook, want->castle_rook,
	    sizeof(b->castle_rook)) == 0);
}

START_TEST(test_fast_castle_make)
{
	char text[320], fen[CD_FEN_MAX];
	const cd_board *b;
	const cd_game_node *nd;
	cd_board want;
	cd_error err;
	cd_status st;
	int k;

	k = snprintf(text, sizeof(text),
	    "%s[SetUp \"1\"]\n[FEN \"%s\"]\n\n%s *\n",
	    castle_makes[_i].c960 ? "[Variant \"Chess960\"]\n" : "",
	    castle_makes[_i].fen, castle_makes[_i].movetext);
	ck_assert(k > 0 && (size_t)k < sizeof(text));
	st = cd_pgn_parse_text(game, text, (size_t)k, NULL, &err);
	if (!castle_makes[_i].ok) {
		ck_assert_msg(st != CD_OK, "case %d: %s read", _i,
		    castle_makes[_i].movetext);
		return;
	}
	ck_assert_msg(st == CD_OK, "case %d: %s", _i, err.msg);
	b = cd_game_board(game);
	cd_fen_write(b, fen);
	ck_assert_str_eq(fen, castle_makes[_i].after);
	ck_assert_int_eq(cd_fen_parse(&want, castle_makes[_i].after,
	    strlen(castle_makes[_i].after),
	    castle_makes[_i].c960 ? CD_FEN_960 : 0, &err), CD_OK);
	same_board(b, &want, _i);
	nd = &game->nodes[castle_makes[_i].node];
	ck_assert_uint_eq(CD_MOVE_KIND(nd->move), CD_MK_CASTLE);
	ck_assert_str_eq(nd->san, castle_makes[_i].san);
	ck_assert_uint_eq(nd->san_len, strlen(castle_makes[_i].san));
	ck_assert_uint_eq(nd->flags, castle_makes[_i].flags);
}
END_TEST

/*
 * The same for an en passant square at the end of a long movetext (a
 * comment of 300 bytes first): in the key when the capture is legal
 * (after d5 next to e5, after d4 next to e4), not after another
 * move.
 */
static const struct {
	const char *movetext, *after;
} keyless_ep[] = {
	{ "1. e4 Nf6 2. e5 d5", "rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/"
	    "RNBQKBNR w KQkq d6 0 3" },
	{ "1. e4 Nf6 2. e5 d5 3. h3", "rnbqkb1r/ppp1pppp/5n2/3pP3/8/7P/"
	    "PPPP1PP1/RNBQKBNR b KQkq - 0 3" },
	{ "1. Nf3 e5 2. Nc3 e4 3. d4", "rnbqkbnr/pppp1ppp/8/8/3Pp3/2N2N2/"
	    "PPP1PPPP/R1BQKB1R b KQkq d3 0 3" },
};

START_TEST(test_keyless_ep)
{
	char text[1024], pad[301];
	cd_board want;
	cd_error err;
	int k;

	memset(pad, 'x', 300);
	pad[300] = '\0';
	k = snprintf(text, sizeof(text), "{%s} %s *\n", pad,
	    keyless_ep[_i].movetext);
	ck_assert(k > 0 && (size_t)k < sizeof(text));
	ck_assert_int_eq(cd_pgn_parse_text(game, text, (size_t)k, NULL, &err),
	    CD_OK);
	ck_assert_int_eq(cd_fen_parse(&want, keyless_ep[_i].after,
	    strlen(keyless_ep[_i].after), 0, &err), CD_OK);
	same_board(cd_game_board(game), &want, _i);
}
END_TEST

/*
 * The line's key where the parser makes none with each move (a game
 * that keeps no key or position, of a long movetext: the key is made
 * once, at its end): random games from the start, short and long, a
 * pawn's double step taken when there is one half the time (en passant
 * squares in and out of the key), comments between moves (runs of moves
 * begun again), and in every other game a variation that plays a move
 * again in the middle.  The position cd_game_board gives after the parse
 * must be the one made move by move, key and all; then a variation
 * begun on the last move (the position before it) and a move added
 * there.
 */
START_TEST(test_keyless_line)
{
	char text[8192], san[CD_SAN_MAX];
	cd_move moves[CD_MAX_MOVES], m = CD_MOVE_NONE;
	cd_board b, before;
	cd_error err;
	size_t len = 0;
	unsigned plies, i, vi;
	int n, k, d;

	/* (a seed of each game, its bits mixed down by a few rounds) */
	rng = 0x9e3779b97f4a7c15ULL ^ ((uint64_t)_i * 0xbf58476d1ce4e5b9ULL);
	for (i = 0; i < 8; i++)
		(void)rnd(2);
	cd_board_init(&b);
	before = b;
	plies = 4 + rnd(140);
	vi = _i % 2 ? plies / 2 : plies;
	for (i = 0; i < plies; i++) {
		if ((n = cd_board_legal_moves(&b, moves)) == 0)
			break;
		m = moves[rnd((unsigned)n)];
		for (d = 0; rnd(2) && d < n; d++)
			if (CD_PIECE_TYPE(b.squares[CD_MOVE_FROM(moves[d])]) ==
			    CD_PAWN && (CD_MOVE_FROM(moves[d]) ^
			    CD_MOVE_TO(moves[d])) == 16) {
				m = moves[d];
				break;
			}
		cd_san_write(&b, m, san);
		/* (Black's move numbered only after the variation) */
		if (i % 2 == 0 || i == vi + 1)
			k = snprintf(text + len, sizeof(text) - len,
			    "%u%s %s %s", i / 2 + 1, i % 2 ? "..." : ".",
			    san, rnd(5) == 0 ? "{a comment} " : "");
		else
			k = snprintf(text + len, sizeof(text) - len, "%s %s",
			    san, rnd(5) == 0 ? "{a comment} " : "");
		ck_assert(k > 0 && (size_t)k < sizeof(text) - len);
		len += (size_t)k;
		if (i == vi) {
			k = snprintf(text + len, sizeof(text) - len,
			    "(%u%s %s) ", i / 2 + 1, i % 2 ? "..." : ".", san);
			ck_assert(k > 0 && (size_t)k < sizeof(text) - len);
			len += (size_t)k;
		}
		before = b;
		cd_board_make(&b, m);
	}
	k = snprintf(text + len, sizeof(text) - len, "*\n");
	ck_assert(k > 0 && (size_t)k < sizeof(text) - len);
	len += (size_t)k;
	ck_assert_msg(cd_pgn_parse_text(game, text, len, NULL, &err) == CD_OK,
	    "game %d: %s", _i, err.msg);
	same_board(cd_game_board(game), &b, _i);
	ck_assert_int_eq(cd_game_begin_variation(game), CD_OK);
	same_board(cd_game_board(game), &before, _i);
	n = cd_board_legal_moves(&before, moves);
	m = moves[rnd((unsigned)n)];
	ck_assert_int_eq(cd_game_add_move(game, m, NULL), CD_OK);
	cd_board_make(&before, m);
	same_board(cd_game_board(game), &before, _i);
}
END_TEST


/*
 * Moves the fast reader makes by their class (a pawn's step, a pawn's
 * capture, a piece's move: board_make.h's cd__board_make_class, one
 * inline copy each): the position after them must be the FEN's
 * (squares, bitboards, rights, clocks, en passant and the key) and the
 * one cd_board_make gives for the same moves from the start, and each
 * node's SAN the one cd_san_write gives.  Single and double steps with
 * and without an en passant capture after them (in the key or not),
 * single steps to the double step's rank (a pawn behind, with and
 * without an enemy pawn beside the target: no en passant square),
 * the en passant square ended by the next move of any class, a pawn's
 * and a piece's capture (the clock back to 0), a piece's quiet move
 * (the clock counted), the king's and a rook's moves ending rights,
 * a rook taken on its corner, Black's moves counting the move number.
 */
static const struct {
	const char *fen, *movetext, *after;
} fast_makes[] = {
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	    "1. e3",
	    "rnbqkbnr/pppppppp/8/8/8/4P3/PPPP1PPP/RNBQKBNR b KQkq - 0 1" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	    "1. e4",
	    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1" },
	{ "4k3/8/8/8/3p4/8/4P3/4K3 w - - 3 10",
	    "10. e4",
	    "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 10" },
	{ "4k3/8/8/8/8/4P3/4P3/4K3 w - - 0 1",
	    "1. e4",
	    "4k3/8/8/8/4P3/8/4P3/4K3 b - - 0 1" },
	{ "4k3/8/8/8/3p4/4P3/4P3/4K3 w - - 0 1",
	    "1. e4",
	    "4k3/8/8/8/3pP3/8/4P3/4K3 b - - 0 1" },
	{ "4k3/4p3/4p3/5P2/8/8/8/4K3 b - - 0 1",
	    "1... e5",
	    "4k3/4p3/8/4pP2/8/8/8/4K3 w - - 0 2" },
	{ "4k3/8/8/8/3p4/8/4P3/4K3 w - - 3 10",
	    "10. e4 Kd7",
	    "8/3k4/8/8/3pP3/8/8/4K3 w - - 1 11" },
	{ "4k3/8/8/8/3p4/8/4P3/4K3 w - - 3 10",
	    "10. e4 d3",
	    "4k3/8/8/8/4P3/3p4/8/4K3 w - - 0 11" },
	{ "4k3/8/8/2p5/1N1p4/8/4P3/4K3 w - - 0 1",
	    "1. e4 cxb4",
	    "4k3/8/8/8/1p1pP3/8/8/4K3 w - - 0 2" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	    "1. e4 d5 2. exd5",
	    "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	    "1. Nf3",
	    "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1" },
	{ "4k3/8/8/4p3/8/5N2/8/4K3 w - - 5 30",
	    "30. Nxe5",
	    "4k3/8/8/4N3/8/8/8/4K3 b - - 0 30" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	    "1. e4 e5 2. Ke2",
	    "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPPKPPP/RNBQ1BNR b kq - 1 2" },
	{ "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
	    "1. Rh2",
	    "r3k2r/8/8/8/8/8/7R/R3K3 b Qkq - 1 1" },
	{ "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
	    "1. Rxh8+",
	    "r3k2R/8/8/8/8/8/8/R3K3 b Qq - 0 1" },
	{ "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
	    "1. Rxa8+ Kd7",
	    "R6r/3k4/8/8/8/8/8/4K2R w K - 1 2" },
	{ "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
	    "1... Rxa1+",
	    "4k2r/8/8/8/8/8/8/r3K2R w Kk - 0 2" },
	{ "4k3/8/8/8/3p4/8/4P3/R3K3 w Q - 3 10",
	    "10. e4 Kd7 11. Ra2 Kc6 12. Kd2 d3",
	    "8/8/2k5/8/4P3/3p4/R2K4/8 w - - 0 13" },
	{ "4k3/pp6/8/8/8/8/6PP/4K3 b - - 0 40",
	    "40... a5 41. h4 b5 42. g3 a4 43. h5 b4",
	    "4k3/8/8/7P/pp6/6P1/8/4K3 w - - 0 44" },
	{ "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
	    "3. Bb5 a6 4. Bxc6 dxc6 5. Nxe5 Qd4 6. Nf3 Qxe4+ 7. Kf1",
	    "r1b1kbnr/1pp2ppp/p1p5/8/4q3/5N2/PPPP1PPP/RNBQ1K1R b kq - 1 7" },
};

START_TEST(test_fast_make_class)
{
	char text[320], fen[CD_FEN_MAX], san[CD_SAN_MAX];
	const cd_board *b;
	cd_board want, replay;
	cd_error err;
	uint32_t i;
	int k;

	k = snprintf(text, sizeof(text),
	    "[SetUp \"1\"]\n[FEN \"%s\"]\n\n%s *\n", fast_makes[_i].fen,
	    fast_makes[_i].movetext);
	ck_assert(k > 0 && (size_t)k < sizeof(text));
	ck_assert_msg(cd_pgn_parse_text(game, text, (size_t)k, NULL, &err) ==
	    CD_OK, "case %d: %s", _i, err.msg);
	b = cd_game_board(game);
	cd_fen_write(b, fen);
	ck_assert_str_eq(fen, fast_makes[_i].after);
	ck_assert_int_eq(cd_fen_parse(&want, fast_makes[_i].after,
	    strlen(fast_makes[_i].after), 0, &err), CD_OK);
	same_board(b, &want, _i);
	/* the same moves made by cd_board_make, the SAN by cd_san_write */
	ck_assert_int_eq(cd_fen_parse(&replay, fast_makes[_i].fen,
	    strlen(fast_makes[_i].fen), 0, &err), CD_OK);
	for (i = game->nodes[0].next; i != 0; i = game->nodes[i].next) {
		cd_san_write(&replay, game->nodes[i].move, san);
		ck_assert_str_eq(game->nodes[i].san, san);
		ck_assert_uint_eq(game->nodes[i].san_len, strlen(san));
		cd_board_make(&replay, game->nodes[i].move);
	}
	same_board(b, &replay, _i);
	ck_assert(replay.ep == b->ep && replay.halfmove == b->halfmove &&
	    replay.fullmove == b->fullmove && replay.side == b->side);
}
END_TEST

/*
 * A target square's bytes, each replaced by a byte that is no file
 * (in its first place) or no rank (in its second): letters, digits and
 * some bytes with the top bit set, in a piece's and a pawn's move from
 * the start (the fast reader takes the two bytes from tables of 256).
 * None is read as a move.
 */
START_TEST(test_fast_bad_square)
{
	static const char *const tokens[] = { "N?3", "Nf?", "?4", "e?",
	    "Nb?3", "dx?5" };
	char text[64];
	cd_error err;
	int c, j, k;

	for (j = 0; j < (int)(sizeof(tokens) / sizeof(tokens[0])); j++) {
		for (c = 1; c < 256; c++) {
			const char *q = strchr(tokens[j], '?');
			bool file = q[1] != '\0';

			/* (a word of digits alone is a move number; "ep"
			 * after a word, en passant's note) */
			if ((!isalnum(c) && c < 0x80) ||
			    (q == tokens[j] && isdigit(c)) || c == 'p')
				continue;
			if (file ? c >= 'a' && c <= 'h' : c >= '1' && c <= '8')
				continue;
			k = snprintf(text, sizeof(text), "%s%.*s%c%s *\n",
			    j == 5 ? "1. e4 d5 2. " : "1. ",
			    (int)(q - tokens[j]), tokens[j], c, q + 1);
			ck_assert(k > 0 && (size_t)k < sizeof(text));
			ck_assert_msg(cd_pgn_parse_text(game, text, (size_t)k,
			    NULL, &err) != CD_OK, "read: %s", text);
		}
	}
}
END_TEST

/*
 * Random legal games from positions rich in pins, en passant,
 * promotions, castling and checks, written in canonical SAN by the core
 * (cd_san_write) and read back: every move and every SAN must come out
 * as it went in (the parser's fast path agrees with cd_san_parse).
 * After each move stands one of several separators: white space, or a
 * suffix, NAG or comment with no space before it (the fast path's word
 * then reaches past the move and the lexer's word is tried).
 */
START_TEST(test_random_games)
{
	static const char *fens[] = {
	    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - "
	    "0 1"),
	    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
	    "4k3/8/8/2q5/8/2N1N3/3B4/N1N1K2N w - - 0 1",
	};
	static const char *const seps[] = { " ", " ", " ", "\n", "  ",
	    "\t", "! ", "?!\n", "{c} ", "{a b}\n", "$2 ", "!$14{c} " };
	cd_move list[CD_MAX_MOVES], played[400];
	char sans[400][CD_SAN_MAX];
	char *text = malloc(1 << 16), *text2 = malloc(1 << 16), *out, *out2;
	int gi, moves = 0;

	ck_assert_ptr_nonnull(text);
	ck_assert_ptr_nonnull(text2);
	for (gi = 0; gi < TU_ROUNDS(1200); gi++) {
		const char *fen = fens[gi % 6], *sep;
		cd_board b;
		size_t len, len2;
		int ply, n, nplies = 0;
		uint32_t i;
		cd_error err;

		ck_assert_int_eq(cd_fen_parse(&b, fen, strlen(fen), 0, NULL), CD_OK);
		len = (size_t)sprintf(text, "[FEN \"%s\"]\n", fen);
		len2 = (size_t)sprintf(text2, "[FEN \"%s\"]\n", fen);
		for (ply = 0; ply < 300; ply++) {
			n = cd_board_legal_moves(&b, list);
			if (n == 0 || cd_board_insufficient_material(&b))
				break;
			played[ply] = list[rnd((unsigned)n)];
			cd_san_write(&b, played[ply], sans[ply]);
			sep = seps[rnd(sizeof(seps) / sizeof(seps[0]))];
			len += (size_t)sprintf(text + len, "%s%s", sans[ply],
			    sep);
			len2 += (size_t)sprintf(text2 + len2, "%s %s",
			    sans[ply], sep);
			cd_board_make(&b, played[ply]);
			nplies++;
		}
		strcpy(text + len, "*");
		strcpy(text2 + len2, "*");
		/* the same game as with a space after every move */
		out2 = regularize(text2, len2 + 1, 0, NULL, &err);
		ck_assert_msg(out2 != NULL, "%s\n%s", err.msg, text2);
		out = regularize(text, len + 1, 0, NULL, &err);
		ck_assert_msg(out != NULL, "%s\n%s", err.msg, text);
		ck_assert_str_eq(out, out2);
		free(out);
		free(out2);
		for (ply = 0, i = game->nodes[0].next; i;
		    i = game->nodes[i].next, ply++) {
			TU_CHECK(ply < nplies, "more than %d plies\n%s",
			    nplies, text);
			TU_CHECK(game->nodes[i].move == played[ply] &&
			    strcmp(game->nodes[i].san, sans[ply]) == 0,
			    "ply %d: %s read as %s\n%s", ply, sans[ply],
			    game->nodes[i].san, text);
		}
		ck_assert_int_eq(ply, nplies);
		moves += nplies;
	}
	ck_assert_int_gt(moves, TU_ROUNDS(50000));
	free(text);
	free(text2);
}
END_TEST

/* A random move of b written at *len of text (with a separator that
 * sends some moves the lexer's way: a suffix glued to it), made on b;
 * now and then a null move (null: whether one may come).  False when b
 * has no move. */
static bool
random_move(cd_board *b, char *text, size_t *len, bool null)
{
	static const char *const seps[] = { " ", " ", " ", "! ", "?\n",
	    "{c} ", "$1 " };
	cd_move list[CD_MAX_MOVES], m;
	char san[CD_SAN_MAX];
	int n = cd_board_legal_moves(b, list);

	if (n == 0 || cd_board_insufficient_material(b))
		return false;
	if (null && rnd(12) == 0 && !cd_board_in_check(b)) {
		m = CD_MOVE_NULL;
		strcpy(san, "--");
	} else {
		m = list[rnd((unsigned)n)];
		cd_san_write(b, m, san);
	}
	*len += (size_t)sprintf(text + *len, "%s%s", san,
	    seps[rnd(sizeof(seps) / sizeof(seps[0]))]);
	cd_board_make(b, m);
	return true;
}

/*
 * CD_PGN_PARSE_POSITIONS: random games with variations (nested, with
 * null moves in them, moves read by the fast path, the lexer's way and
 * cd_san_parse: promotions, en passant, suffixes), Chess960 among them;
 * every node's position must be its parent's with its move made, key
 * and all, and the start the game's.  Without the flag there are none,
 * and a move added to a parsed game leaves none.
 */
START_TEST(test_positions_random)
{
	static const struct {
		const char *fen;
		bool c960;
	} starts[] = {
	    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0 },
	    { "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w "
	    "KQkq - 0 1", 0 },
	    { "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 0 },
	    { "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
	    0 },
	    { "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", 0 },
	    { "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - "
	    "2 9", 1 },
	};
	cd_pgn_parse_opts opts = { .flags = CD_PGN_PARSE_POSITIONS };
	char *text = malloc(1 << 17);
	int gi, nodes = 0;

	ck_assert_ptr_nonnull(text);
	for (gi = 0; gi < TU_ROUNDS(300); gi++) {
		const char *fen = starts[gi % 6].fen;
		cd_board b, before, v;
		size_t len;
		int ply, k;
		uint32_t n;
		cd_error err;

		ck_assert_int_eq(cd_fen_parse(&b, fen, strlen(fen),
		    starts[gi % 6].c960 ? CD_FEN_960 : 0, NULL), CD_OK);
		len = (size_t)sprintf(text, "%s[FEN \"%s\"]\n\n",
		    starts[gi % 6].c960 ? "[Variant \"Chess960\"]\n" : "", fen);
		for (ply = 0; ply < 150; ply++) {
			before = b;
			if (!random_move(&b, text, &len, false))
				break;
			/* a variation to the move just written, and now and
			 * then one inside it */
			if (rnd(6) == 0) {
				v = before;
				len += (size_t)sprintf(text + len, "( ");
				for (k = 0; k < 6; k++) {
					cd_board w = v;	/* before the move */

					if (!random_move(&v, text, &len, true))
						break;
					if (k != 1 || rnd(2) != 0)
						continue;
					len += (size_t)sprintf(text + len, "( ");
					while (random_move(&w, text, &len,
					    true) && rnd(4))
						;
					len += (size_t)sprintf(text + len, ") ");
				}
				len += (size_t)sprintf(text + len, ") ");
			}
		}
		strcpy(text + len, "*\n");
		len += 2;
		ck_assert_msg(cd_pgn_parse_text(game, text, len, &opts,
		    &err) == CD_OK, "%s\n%s", err.msg, text);
		ck_assert_ptr_nonnull(game->positions);
		ck_assert_mem_eq(&game->positions[0], &game->start,
		    sizeof(cd_board));
		for (n = 1; n < game->nnodes; n++) {
			const cd_game_node *nd = &game->nodes[n];

			b = game->positions[nd->parent];
			cd_board_make(&b, nd->move);
			ck_assert_msg(memcmp(&b, &game->positions[n],
			    sizeof(b)) == 0, "node %u: the position differs "
			    "(%s)\n%s", (unsigned)n, nd->san, text);
		}
		nodes += (int)game->nnodes;
	}
	ck_assert_int_gt(nodes, TU_ROUNDS(50000));
	/* none without the flag, and none once a move is added */
	ck_assert_int_eq(cd_pgn_parse_text(game, "1. e4 e5 *\n", 11, NULL,
	    NULL), CD_OK);
	ck_assert_ptr_null(game->positions);
	ck_assert_int_eq(cd_pgn_parse_text(game, "1. e4 e5 *\n", 11, &opts,
	    NULL), CD_OK);
	ck_assert_ptr_nonnull(game->positions);
	ck_assert_uint_eq(game->positions[2].side, CD_WHITE);
	ck_assert_uint_eq(game->positions[2].ep, CD_SQ(4, 5));
	ck_assert_int_eq(cd_game_add_move(game, CD_MOVE(CD_SQ(6, 0), CD_SQ(5, 2),
	    CD_MK_NORMAL), NULL), CD_OK);
	ck_assert_ptr_null(game->positions);
	free(text);
}
END_TEST

/*
 * Tokens of every shape (piece letter, file, rank, square, with and
 * without `x`) for every piece and every square on its lines, legal or
 * not, blocked or not, at random points of random games: the parser
 * must accept exactly what cd_san_parse accepts, as the same move.
 */
START_TEST(test_random_tokens)
{
	static const char *fens[] = {
	    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - "
	    "0 1"),
	    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	    "4k3/8/8/2q5/8/2N1N3/3B4/N1N1K2N w - - 0 1",
	    "4k3/4r3/8/8/1b6/2N1N3/3N4/4K3 w - - 0 1",
	    /* in check, in double check */
	    "4k3/8/8/8/1b6/8/1N3P2/R2QK1NR w - - 0 1",
	    "4k3/8/8/8/1b6/3n4/1N3P2/R2QK1NR w - - 0 1",
	    /* two queens and three rooks a side (three sliders of a
	     * kind on lines to one square) */
	    "r2qk2r/8/3r4/1q6/6Q1/1R3R2/8/Q3K2R w - - 0 1",
	};
	static const char letters[] = "?PNBRQK";
	cd_move list[CD_MAX_MOVES];
	char *text = malloc(1 << 16), tok[16];
	int gi, tried = 0, accepted = 0;

	ck_assert_ptr_nonnull(text);
	for (gi = 0; gi < TU_ROUNDS(210); gi++) {
		const char *fen = fens[gi % 7];
		cd_board b;
		size_t len;
		int ply, n, stop = (int)rnd(gi % 7 == 4 ||
		    gi % 7 == 5 ? 3 : 40), sq;

		ck_assert_int_eq(cd_fen_parse(&b, fen, strlen(fen), 0, NULL), CD_OK);
		len = (size_t)sprintf(text, "[FEN \"%s\"]\n", fen);
		for (ply = 0; ply < stop; ply++) {
			char san[CD_SAN_MAX];
			cd_move m;

			n = cd_board_legal_moves(&b, list);
			if (n == 0)
				break;
			m = list[rnd((unsigned)n)];
			cd_san_write(&b, m, san);
			len += (size_t)sprintf(text + len, "%s ", san);
			cd_board_make(&b, m);
		}
		if (cd_board_count_moves(&b) == 0)
			continue;
		for (sq = 0; sq < 64; sq++) {
			int pc = b.squares[sq], type = CD_PIECE_TYPE(pc), shape;
			cd_bitboard att;

			if (!pc || CD_PIECE_COLOR(pc) != b.side)
				continue;
			/* (on an empty board: the squares behind a
			 * piece in the way too) */
			att = cd_attacks(type, b.side, sq, 0);
			if (type == CD_PAWN) {
				int d = b.side == CD_WHITE ? 8 : -8, k;

				for (k = 1; k <= 2; k++)
					if (sq + k * d >= 0 && sq + k * d < 64)
						att |= (cd_bitboard)1 <<
						    (sq + k * d);
			}
			while (att) {
				int to = __builtin_ctzll(att);

				att &= att - 1;
				for (shape = 0; shape < 10; shape++) {
					char *q = tok;
					cd_move want, got;
					cd_status ws, gs;
					cd_error err;

					if (type == CD_PAWN) {
						if (shape > 1)
							break;
						if (shape == 1)
							*q++ = (char)('a' + CD_FILE(sq));
					} else if (shape >= 8) {
						/* "bc4", "bxc4": a bishop in
						 * lower case, or a pawn */
						if (type != CD_BISHOP)
							break;
						*q++ = 'b';
						if (shape == 9)
							*q++ = 'x';
					} else {
						*q++ = letters[type];
						if (shape & 1)
							*q++ = (char)('a' + CD_FILE(sq));
						if (shape & 2)
							*q++ = (char)('1' + CD_RANK(sq));
					}
					if ((shape & 4) || (type == CD_PAWN &&
					    shape == 1))
						*q++ = 'x';
					*q++ = (char)('a' + CD_FILE(to));
					*q++ = (char)('1' + CD_RANK(to));
					*q = '\0';
					ws = cd_san_parse(&b, tok, strlen(tok), NULL,
					    0, &want, NULL);
					sprintf(text + len, "%s *", tok);
					gs = cd_pgn_parse_text(game, text,
					    strlen(text), NULL, &err);
					tried++;
					ck_assert_msg((ws == CD_OK) == (gs == CD_OK),
					    "%s: san %d, parser %d\n%s", tok, ws,
					    gs, text);
					if (gs != CD_OK)
						continue;
					accepted++;
					got = game->nodes[game->nnodes - 1].move;
					ck_assert_msg(got == want, "%s\n%s", tok,
					    text);
				}
			}
		}
	}
	ck_assert_int_gt(tried, TU_ROUNDS(10000));
	ck_assert_int_gt(accepted, TU_ROUNDS(1000));
	ck_assert_int_gt(tried - accepted, TU_ROUNDS(1000));
	free(text);
}
END_TEST

/* The plain fold of rule 10: the n bytes at in trimmed, each run of
 * white space and control bytes one space, into want (NUL-ended). */
static void
fold_plain(char *want, const char *in, size_t n)
{
	size_t i, k = 0;
	bool space = true;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)in[i];

		if (c <= 0x20 || c == 0x7f || c == '}') {
			if (!space)
				want[k++] = ' ';
			space = true;
		} else {
			want[k++] = (char)c;
			space = false;
		}
	}
	if (k > 0 && want[k - 1] == ' ')
		k--;
	want[k] = '\0';
}

/* The game's first comment (before any move) is want, or there is
 * none when want is empty. */
static void
first_comment_is(const char *want)
{
	uint32_t a = game->nodes[0].after;

	if (*want == '\0') {
		ck_assert_uint_eq(a, 0);
		return;
	}
	ck_assert_uint_ne(a, 0);
	ck_assert_uint_eq(game->notes[a].len, strlen(want));
	ck_assert_str_eq(cd_game_str(game, game->notes[a].text), want);
}

/* Comment folding against a plain reference, on random bytes: bytes
 * to fold everywhere (and the bytes next to them: 0x1f and 0x20, `|`
 * `}` `~` DEL and 0x80, 0x9f and 0xa0), and (every other round) long
 * runs of words and single spaces with a byte to fold now and then, as
 * engines write (now and then: one in 30 or one in 300 bytes). */
START_TEST(test_fold_random)
{
	static const char alphabet[] = "ab  \t\n\r}\x7f\x01\xc3\xa9\x1f|~"
	    "\x80\x9f\xa0\xff";
	static const char words[] = "abcdefg, =.0123 ";
	char in[300], want[300];
	int round;

	for (round = 0; round < TU_ROUNDS(20000); round++) {
		size_t n = rnd(260), i;
		bool changed;

		for (i = 0; i < n; i++)
			in[i] = round % 2 == 0 ||
			    rnd(round % 4 == 1 ? 30 : 300) == 0 ?
			    alphabet[rnd(sizeof(alphabet) - 1)] :
			    words[rnd(sizeof(words) - 1)];
		fold_plain(want, in, n);
		cd_game_clear(game);
		ck_assert_int_eq(cd_game_add_comment(game, in, n, &changed),
		    CD_OK);
		ck_assert(changed == (memchr(in, '}', n) != NULL));
		first_comment_is(want);
	}
}
END_TEST

static void
no_warn(void *ctx, unsigned long line, unsigned long col, const char *msg)
{
	(void)ctx;
	(void)line;
	(void)col;
	(void)msg;
}

/*
 * Brace comments read by the parser's fast way (a comment with nothing
 * to fold but single spaces, folded and stored while its `}` is found)
 * against the lexer's way (a parse with a warn function takes it) and
 * the plain fold: random texts with and without bytes to fold (line
 * ends too), with spaces around them or none, short and long, near the
 * end of the movetext (fewer than 16 or 32 bytes left), the last one
 * unclosed, or followed by a bad move whose line and column must come
 * out the same.
 */
START_TEST(test_plain_comment_random)
{
	/* (control bytes that are text: the others make binary data) */
	static const char alphabet[] = "ab  \t\n\r\x0b\x0c\x1a\x1b|~\x80"
	    "\x9f\xa0\xff";
	static const char words[] = "abcdefg, =.0123 ";
	static const char *const after[] = { " e5 ", " 2. Nf3 ", " " };
	static char in[2048], raw[400], want[3][400];
	cd_pgn_parse_opts slow;
	int round, fast_notes = 0;

	memset(&slow, 0, sizeof(slow));
	slow.warn = no_warn;
	for (round = 0; round < TU_ROUNDS(20000); round++) {
		int nc = 1 + (int)rnd(3), j, end = (int)rnd(4), nw = 0;
		cd_error e1, e2;
		char *o1, *o2;

		strcpy(in, "1. e4 ");
		for (j = 0; j < nc; j++) {
			size_t n = rnd(4) == 0 ? rnd(40) : rnd(300), i, k = 0;

			for (i = rnd(3); i > 0; i--)
				raw[k++] = ' ';
			for (i = 0; i < n; i++)
				raw[k++] = round % 3 == 2 || (round % 3 == 1 &&
				    rnd(40) == 0) ?
				    alphabet[rnd(sizeof(alphabet) - 1)] :
				    words[rnd(sizeof(words) - 1)];
			for (i = rnd(3); i > 0; i--)
				raw[k++] = ' ';
			raw[k] = '\0';
			fold_plain(want[j], raw, k);
			strcat(in, "{");
			strcat(in, raw);
			if (j < nc - 1 || end != 2)
				strcat(in, "}");
			if (j < nc - 1)
				strcat(in, after[j]);
		}
		if (end == 0)
			strcat(in, " *");
		else if (end == 1)
			strcat(in, rnd(2) ? " Zz9 *" : "\n 2... Ke7 *");
		else if (end == 3)
			strcat(in, " 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 *");
		memset(&e1, 0, sizeof(e1));
		memset(&e2, 0, sizeof(e2));
		o1 = regularize(in, strlen(in), 0, NULL, &e1);
		if (o1 != NULL) {
			/* the notes of the fast way (in the order added,
			 * from 1) against the plain fold */
			for (j = 0; j < nc; j++) {
				if (want[j][0] == '\0')
					continue;
				nw++;
				ck_assert_uint_lt((uint32_t)nw, game->nnotes);
				ck_assert_str_eq(cd_game_str(game,
				    game->notes[nw].text), want[j]);
			}
			ck_assert_uint_eq(game->nnotes, (uint32_t)nw + 1);
			fast_notes += nw;
		}
		o2 = regularize(in, strlen(in), 0, &slow, &e2);
		ck_assert_msg((o1 == NULL) == (o2 == NULL), "%s", in);
		if (o1 != NULL) {
			ck_assert_str_eq(o1, o2);
		} else {
			ck_assert_str_eq(e1.msg, e2.msg);
			ck_assert_uint_eq(e1.line, e2.line);
			ck_assert_uint_eq(e1.col, e2.col);
		}
		free(o1);
		free(o2);
	}
	ck_assert_int_gt(fast_notes, TU_ROUNDS(10000));
}
END_TEST

/*
 * Comments that end where a page no one may read begins: the comment
 * folder's last bytes (fewer than 64, 32 or 16: a masked load, or a
 * block that overlaps the ones before) and the parser's plain comments
 * with the movetext's end right after them (the `}` the last byte, or
 * no `}`) are read up to the end and not one byte beyond it (which
 * faults), and come out as the plain fold and the lexer's way have
 * them.
 */
START_TEST(test_fold_page_end)
{
	static const char alphabet[] = "ab  \t\n}\x7f\x01\x1f|~\x80";
	static const char words[] = "abcdefg, =.0123 ";
	long pg = sysconf(_SC_PAGESIZE);
	char *map, *end, want[400], *o1, *o2;
	cd_pgn_parse_opts slow;
	size_t n, i, len;
	int r;

	ck_assert_int_gt(pg, 512);
	map = mmap(NULL, 2 * (size_t)pg, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert(map != MAP_FAILED);
	ck_assert_int_eq(mprotect(map + pg, (size_t)pg, PROT_NONE), 0);
	end = map + pg;
	memset(&slow, 0, sizeof(slow));
	slow.warn = no_warn;
	for (n = 1; n <= 300; n++) {
		for (r = 0; r < 4; r++) {
			char *in = end - n;
			bool changed;

			/* plain words and single spaces (r 0 and 1), a
			 * byte to fold now and then (r 2), many (r 3) */
			for (i = 0; i < n; i++)
				in[i] = r == 3 || (r == 2 && rnd(30) == 0) ?
				    alphabet[rnd(sizeof(alphabet) - 1)] :
				    words[rnd(sizeof(words) - 1)];
			if (r < 2)
				for (i = 1; i < n; i++)
					if (in[i] == ' ' && in[i - 1] == ' ')
						in[i] = 'x';
			fold_plain(want, in, n);
			cd_game_clear(game);
			ck_assert_int_eq(cd_game_add_comment(game, in, n,
			    &changed), CD_OK);
			first_comment_is(want);
		}
		/* "1. e4 {" the words, `}` or not, at the end */
		for (r = 0; r < 2 && n + 8 < sizeof(want); r++) {
			cd_error e1, e2;

			memcpy(want, "1. e4 {", 7);
			for (i = 0; i < n; i++)
				want[7 + i] = words[rnd(sizeof(words) - 1)];
			len = 7 + n;
			if (r == 0)
				want[len++] = '}';
			memcpy(end - len, want, len);
			memset(&e1, 0, sizeof(e1));
			memset(&e2, 0, sizeof(e2));
			o1 = regularize(end - len, len, 0, NULL, &e1);
			o2 = regularize(end - len, len, 0, &slow, &e2);
			ck_assert((o1 == NULL) == (o2 == NULL));
			if (o1 != NULL)
				ck_assert_str_eq(o1, o2);
			else
				ck_assert_str_eq(e1.msg, e2.msg);
			free(o1);
			free(o2);
		}
	}
	ck_assert_int_eq(munmap(map, 2 * (size_t)pg), 0);
}
END_TEST

/* An escape line in the tag section, at every place of the blocks of
 * sixteen and thirty-two bytes in which the section is looked at, with
 * tag sections of many lengths after it: kept as a note. */
START_TEST(test_tag_section_escape)
{
	static const char dots[] =
	    "................................................"
	    "................................................";
	static const int after[] = { 0, 2, 5, 17, 33 };
	char in[512];
	cd_error err;
	size_t pad, n, k;
	uint32_t i, escapes;
	int last;

	for (last = 0; last < 2; last++) {
		for (pad = 0; pad < 90; pad++) {
			for (k = 0; k < sizeof(after) / sizeof(after[0]);
			    k++) {
				n = (size_t)snprintf(in, sizeof(in), last ?
				    "[Event \"%.*s\"]\n[Site \"%.*s\"]\n%%e\n"
				    "1. e4 *\n" :
				    "[Event \"%.*s\"]\n%%e\n[Site \"%.*s\"]\n"
				    "1. e4 *\n", (int)pad, dots, after[k],
				    dots);
				ck_assert_int_eq(cd_pgn_parse_text(game, in, n,
				    NULL, &err), CD_OK);
				escapes = 0;
				for (i = 1; i < game->nnotes; i++)
					escapes += game->notes[i].kind ==
					    CD_NOTE_ESCAPE;
				ck_assert_msg(escapes == 1, "%s", in);
			}
		}
	}
}
END_TEST

/* The bytes that make the parser read a tag section token by token
 * (`{`, `;`, `%`: a comment, a line comment, an escape line) at every
 * place of the blocks of sixteen and thirty-two bytes in which the
 * section is looked at, in sections of many lengths: each kept as its
 * note.  The framer ends a tag section before a comment, so the
 * comments are put in a copy of a game read with an escape line, in
 * the escape line's place (the raw game's offsets stay right). */
START_TEST(test_tag_section_notes)
{
	static const char dots[] =
	    "................................................"
	    "................................................";
	static const char *const put[] = { "%ee", "{e}", ";ee" };
	static const char *const form[] = {
	    "[Event \"%.*s\"]\n%%ee\n[Site \"%.*s\"]\n1. e4 *\n",
	    "[Event \"%.*s\"]\n[Site \"%.*s\"]\n%%ee\n1. e4 *\n",
	    "[Event \"%.*s\"]\n[Site \"%.*s\"]\n\n%%ee\n\n1. e4 *\n"
	};
	static const int after[] = { 0, 2, 5, 17, 33 };
	char in[512], copy[512];
	cd_pgn_raw_game raw;
	cd_pgn_reader *r;
	cd_error err;
	size_t c, n, f, pad, k, b;
	uint32_t i, notes;
	char *at;

	for (c = 0; c < 3 * 90 * 5 * 3; c++) {
		f = c / (90 * 5 * 3);
		pad = c / (5 * 3) % 90;
		k = c / 3 % 5;
		b = c % 3;
		n = (size_t)snprintf(in, sizeof(in), form[f], (int)pad, dots,
		    after[k], dots);
		r = cd_pgn_reader_new_mem(in, n);
		ck_assert_ptr_nonnull(r);
		ck_assert_int_eq(cd_pgn_reader_next(r, &raw), CD_OK);
		ck_assert_uint_lt(raw.len, sizeof(copy));
		memcpy(copy, raw.text, raw.len);
		copy[raw.len] = '\0';
		at = strstr(copy, "%ee");
		ck_assert_ptr_nonnull(at);
		ck_assert_uint_lt((size_t)(at - copy), raw.movetext);
		memcpy(at, put[b], 3);
		raw.text = copy;
		ck_assert_int_eq(cd_pgn_parse(game, &raw, NULL, &err), CD_OK);
		notes = 0;
		for (i = 1; i < game->nnotes; i++)
			notes += game->notes[i].kind == (b == 0 ?
			    CD_NOTE_ESCAPE : CD_NOTE_COMMENT);
		ck_assert_msg(notes == 1, "%s", copy);
		cd_pgn_reader_free(r);
	}
}
END_TEST

/* The raw game raw parsed by the fast path (no options) and by the
 * lexer's tokens (a warning callback): the same status, error and
 * export. */
static void
fast_as_tokens(const cd_pgn_raw_game *raw, const char *what)
{
	cd_pgn_parse_opts slow;
	cd_error e1, e2;
	cd_buf b1 = { 0 }, b2 = { 0 };
	cd_status s1, s2;

	memset(&slow, 0, sizeof(slow));
	slow.warn = no_warn;
	s1 = cd_pgn_parse(game, raw, NULL, &e1);
	if (s1 == CD_OK)
		ck_assert_int_eq(cd_pgn_write_buf(game, 0, &b1), CD_OK);
	s2 = cd_pgn_parse(game, raw, &slow, &e2);
	if (s2 == CD_OK)
		ck_assert_int_eq(cd_pgn_write_buf(game, 0, &b2), CD_OK);
	ck_assert_msg(s1 == s2, "%s: status %d and %d", what, s1, s2);
	if (s1 == CD_OK) {
		ck_assert_msg(b1.len == b2.len && memcmp(b1.data, b2.data,
		    b1.len) == 0, "%s: %.*s\n---\n%.*s", what, (int)b1.len,
		    b1.data, (int)b2.len, b2.data);
	} else {
		ck_assert_str_eq(e1.msg, e2.msg);
		ck_assert_uint_eq(e1.line, e2.line);
		ck_assert_uint_eq(e1.col, e2.col);
	}
	free(b1.data);
	free(b2.data);
}

/* A raw game of the n bytes at text, all movetext, with the marker r
 * (none: CD_PGN_RESULT_NONE) ending at mt_end. */
static cd_pgn_raw_game
raw_movetext(const char *text, size_t n, size_t mt_end, cd_pgn_result r)
{
	cd_pgn_raw_game raw;

	memset(&raw, 0, sizeof(raw));
	raw.text = text;
	raw.len = n;
	raw.number = 1;
	raw.line = raw.col = 1;
	raw.movetext_end = mt_end;
	raw.movetext_line = raw.movetext_col = 1;
	raw.result = r;
	raw.flags = r == CD_PGN_RESULT_NONE ? CD_PGN_RAW_NO_RESULT : 0;
	return raw;
}

/*
 * The termination marker the reader found, taken by the parser's fast
 * path when the movetext ends in its canonical text: each marker, and
 * the same with one of its bytes changed (the raw game's marker kept,
 * as a caller may give it), its end from one to sixteen bytes into the
 * text (compared by its bytes where fewer than eight come before its
 * end, else by the eight that end there), then the game's end: blanks
 * (the usual blank line, LF or CR LF, among them), other bytes as
 * long, a comment or nothing: read as the lexer's tokens read them.
 */
START_TEST(test_fast_marker)
{
	static const char *const marks[] = { "", "1-0", "0-1", "1/2-1/2",
	    "*" };
	static const char *const heads[] = { "", "e4 ", "e4 e5 ", "1. Nf3 ",
	    "1. e4 e5 " };
	static const char *const tails[] = { "", " ", "\n", "\n\n",
	    "\r\n\r\n", "\t\n \n", "\nx", "x\n", "\n\r", "\r\n\rx",
	    "\r\nx\n", " {c}", "\n{}\n", "\r\n\r\n\r\n", "\n\n*" };
	static const char swaps[] = "x1-/02*";
	char text[64], word[16];
	cd_pgn_raw_game raw;
	size_t m, h, t, k, s, len, n, end;

	for (m = 1; m < 5; m++) {
		len = strlen(marks[m]);
		for (h = 0; h < sizeof(heads) / sizeof(heads[0]); h++) {
			for (k = 0; k <= len; k++) {
				for (s = 0; s < sizeof(swaps) - 1; s++) {
					if (k == len && s > 0)
						break;	/* (k == len: as
							 * it is) */
					memcpy(word, marks[m], len + 1);
					if (k < len)
						word[k] = swaps[s];
					for (t = 0; t < sizeof(tails) /
					    sizeof(tails[0]); t++) {
						n = (size_t)snprintf(text,
						    sizeof(text), "%s%s%s",
						    heads[h], word, tails[t]);
						end = strlen(heads[h]) + len;
						raw = raw_movetext(text, n, end,
						    (cd_pgn_result)m);
						fast_as_tokens(&raw, text);
					}
				}
			}
		}
	}
}
END_TEST

/*
 * The start's pinned pieces: none in the initial position (the first
 * move of a game without a FEN tag is read without finding them), those
 * of a FEN tag's position found, also right after a game without one
 * and before one: a pinned piece's move rejected, another piece's taken,
 * with the same status as the lexer's tokens give.
 */
START_TEST(test_start_pins)
{
	static const struct {
		const char *text;
		cd_status st;
	} games[] = {
		{ "1. e4 e5 2. Nf3 Nc6 *\n", CD_OK },
		/* the knight on e2 pinned by the rook on e8 */
		{ "[FEN \"4r2k/8/8/8/8/8/4N3/4K3 w - - 0 1\"]\n1. Nc3 *\n",
		    CD_ERR_ILLEGAL },
		{ "1. Nc3 Nf6 *\n", CD_OK },
		{ "[FEN \"4r2k/8/8/8/8/8/4N3/4K3 w - - 0 1\"]\n1. Kd2 *\n",
		    CD_OK },
		/* black: the rook on e7 pinned by the rook on e1, which
		 * it may move along the file only */
		{ "[FEN \"4k3/4r3/8/8/8/8/8/4RK2 b - - 0 1\"]\n1... Ra7 *\n",
		    CD_ERR_ILLEGAL },
		{ "[FEN \"4k3/4r3/8/8/8/8/8/4RK2 b - - 0 1\"]\n1... Re6 *\n",
		    CD_OK },
		{ "1. d4 d5 2. Bg5 f6 *\n", CD_OK },
		/* the white knight on d2 pinned: Nf3 is the one on g1 */
		{ "[FEN \"rnbqk1nr/pppp1ppp/8/4p3/1b1P4/8/PPPNPPPP/R1BQKBNR w "
		    "KQkq - 2 3\"]\n3. Nf3 Nc6 *\n", CD_OK },
		{ "[FEN \"rnbqk1nr/pppp1ppp/8/4p3/1b1P4/8/PPPNPPPP/R1BQKBNR w "
		    "KQkq - 2 3\"]\n3. Nb3 *\n", CD_ERR_ILLEGAL },
		{ "1. e4 *\n", CD_OK },
	};
	cd_pgn_parse_opts slow;
	cd_error err;
	size_t i, j;

	memset(&slow, 0, sizeof(slow));
	slow.warn = no_warn;
	/* each game after each other, so that the one before may leave
	 * its start's pins (or none) to it */
	for (i = 0; i < sizeof(games) / sizeof(games[0]); i++) {
		for (j = 0; j < sizeof(games) / sizeof(games[0]); j++) {
			(void)cd_pgn_parse_text(game, games[i].text,
			    strlen(games[i].text), NULL, &err);
			ck_assert_msg(cd_pgn_parse_text(game, games[j].text,
			    strlen(games[j].text), NULL, &err) ==
			    games[j].st, "%s after %s", games[j].text,
			    games[i].text);
			ck_assert_int_eq(cd_pgn_parse_text(game, games[j].text,
			    strlen(games[j].text), &slow, &err), games[j].st);
		}
	}
}
END_TEST

/*
 * A move word's end found near the movetext's end (fewer than sixteen
 * bytes after its start, eight at a time): words of one to nine bytes
 * ended by each byte that ends a word or by none, then up to sixteen
 * bytes: read as the lexer's tokens read them.
 */
START_TEST(test_fast_word_end)
{
	static const char *const words[] = { "e", "e4", "Nf3", "Nge2",
	    "Bxf7+", "exd5e.p.", "Nbd2!?", "e4e5e6e7", "Ng1-f3+!" };
	static const char stops[] = " \t\n\r\x0b\x0c\x01\x1f\x7f\xc3x";
	char text[64], fill[24];
	cd_pgn_raw_game raw;
	size_t w, s, f, n;

	for (w = 0; w < sizeof(words) / sizeof(words[0]); w++) {
		for (s = 0; s <= sizeof(stops) - 1; s++) {
			for (f = 0; f <= 16; f++) {
				/* (s == the count: the word ends the text) */
				memset(fill, ' ', f);
				if (f > 0)
					fill[f - 1] = '*';
				if (s == sizeof(stops) - 1)
					n = (size_t)snprintf(text,
					    sizeof(text), "1. %s", words[w]);
				else
					n = (size_t)snprintf(text,
					    sizeof(text), "1. %s%c%.*s",
					    words[w], stops[s], (int)f, fill);
				raw = raw_movetext(text, n, n,
				    CD_PGN_RESULT_NONE);
				fast_as_tokens(&raw, text);
			}
		}
	}
}
END_TEST

/* fast_as_tokens with the positions kept (CD_PGN_PARSE_POSITIONS and
 * CD_PGN_PARSE_MAIN_KEYS, which the fast path keeps after each move):
 * the same status, error, export and nodes, a position for each. */
static void
fast_as_tokens_kept(const cd_pgn_raw_game *raw, const char *what)
{
	cd_pgn_parse_opts fast, slow;
	cd_error e1, e2;
	cd_buf b1 = { 0 }, b2 = { 0 };
	cd_status s1, s2;
	uint32_t n1 = 0, i;
	uint64_t *keys = NULL;

	memset(&fast, 0, sizeof(fast));
	fast.flags = CD_PGN_PARSE_POSITIONS | CD_PGN_PARSE_MAIN_KEYS;
	slow = fast;
	slow.warn = no_warn;
	s1 = cd_pgn_parse(game, raw, &fast, &e1);
	if (s1 == CD_OK) {
		ck_assert_int_eq(cd_pgn_write_buf(game, 0, &b1), CD_OK);
		n1 = game->nnodes;
		ck_assert_ptr_nonnull(game->positions);
		keys = malloc(n1 * sizeof(*keys));
		ck_assert_ptr_nonnull(keys);
		for (i = 0; i < n1; i++)
			keys[i] = game->positions[i].key;
	}
	s2 = cd_pgn_parse(game, raw, &slow, &e2);
	ck_assert_msg(s1 == s2, "%s: status %d and %d", what, s1, s2);
	if (s1 == CD_OK) {
		ck_assert_int_eq(cd_pgn_write_buf(game, 0, &b2), CD_OK);
		ck_assert_uint_eq(n1, game->nnodes);
		for (i = 0; i < n1; i++)
			ck_assert_uint_eq(game->positions[i].key, keys[i]);
		ck_assert_msg(b1.len == b2.len && memcmp(b1.data, b2.data,
		    b1.len) == 0, "%s", what);
	} else {
		ck_assert_str_eq(e1.msg, e2.msg);
		ck_assert_uint_eq(e1.line, e2.line);
		ck_assert_uint_eq(e1.col, e2.col);
	}
	free(keys);
	free(b1.data);
	free(b2.data);
}

/*
 * The parser's run of moves (the place in a register): random games
 * from the start, their moves apart by one space, a line end (LF or
 * CR LF), two spaces or a tab, with move numbers of one to three
 * digits ("9.", "10. ", "101.", "12...") or none, now and then a word
 * the fast reader leaves ("Nf3!", a pawn's "e8=Q" or a word of twenty
 * bytes) or a move that does not read; each text cut at every length in
 * its last thirty bytes, in a buffer of exactly its bytes (what is read
 * beyond them the address sanitizer finds): read as the lexer's tokens
 * read them (status, error with its line and column, export), with the
 * positions kept too.
 */
START_TEST(test_move_run)
{
	static const char *const seps[] = { " ", " ", " ", "\n", "\r\n",
	    "  ", "\t", " \n" };
	static const char start_fen[] =
	    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
	cd_move list[CD_MAX_MOVES];
	char *text = malloc(1 << 14), *copy;
	int gi, ply, stop, n;
	size_t len, cut, runs = 0;

	ck_assert_ptr_nonnull(text);
	for (gi = 0; gi < TU_ROUNDS(150); gi++) {
		cd_board b;
		unsigned long num0 = gi % 3 == 0 ? 1 : gi % 3 == 1 ? 8 : 96;

		ck_assert_int_eq(cd_fen_parse(&b, start_fen, strlen(start_fen),
		    0, NULL), CD_OK);
		len = 0;
		stop = 8 + (int)rnd(60);
		for (ply = 0; ply < stop; ply++) {
			char san[CD_SAN_MAX];
			cd_move m;
			unsigned r = rnd(100);

			n = cd_board_legal_moves(&b, list);
			if (n == 0)
				break;
			m = list[rnd((unsigned)n)];
			cd_san_write(&b, m, san);
			if (ply > 0)
				len += (size_t)sprintf(text + len, "%s",
				    seps[rnd(8)]);
			if (b.side == CD_WHITE && r < 85)
				len += (size_t)sprintf(text + len, "%lu.%s",
				    num0 + (unsigned long)ply / 2,
				    r < 40 ? " " : "");
			else if (r < 10)
				len += (size_t)sprintf(text + len, "%lu...",
				    num0 + (unsigned long)ply / 2);
			if (r == 97)
				len += (size_t)sprintf(text + len, "%s!", san);
			else if (r == 98)
				len += (size_t)sprintf(text + len,
				    "%sxxxxxxxxxxxxxxxxxx", san);
			else if (r == 99 && ply > 4)
				len += (size_t)sprintf(text + len, "Ke5");
			else
				len += (size_t)sprintf(text + len, "%s", san);
			cd_board_make(&b, m);
		}
		for (cut = len > 30 ? len - 30 : 1; cut <= len; cut++) {
			cd_pgn_raw_game raw;

			copy = malloc(cut);
			ck_assert_ptr_nonnull(copy);
			memcpy(copy, text, cut);
			raw = raw_movetext(copy, cut, cut, CD_PGN_RESULT_NONE);
			fast_as_tokens(&raw, copy);
			if (cut % 4 == 0)
				fast_as_tokens_kept(&raw, copy);
			free(copy);
			runs++;
		}
	}
	ck_assert_uint_gt(runs, TU_ROUNDS(4000));
	free(text);
}
END_TEST

/*
 * The run's bytes: words that begin with `e` ("e.p.", "ep", "e.", a
 * move), a CR alone, before CR LF or before LF, numbers of one or two
 * digits with one or two periods, a word of sixteen bytes, each
 * followed by moves and the text cut at every length after it (so that
 * it stands far from the end, in the last sixteen bytes or at the end),
 * in a buffer of exactly its bytes, with and without a tag section
 * before the movetext (the last sixteen bytes of a short movetext then
 * reach into it): read as the lexer's tokens read them.
 */
START_TEST(test_move_run_bytes)
{
	static const char *const bits[] = { "e.p. ", "ep ", "e. ", "e6 ",
	    "\r", "\r\r\n", "\r\n", "\n", "\r ", "3.", "3..", "3. ",
	    "03.", "33.", "33..", "3... ", "exf6 ", "exf6e.p. ",
	    "Nf3xxxxxxxxxxxxx ", "Nf3xxxxxxxxxxxx " };
	static const char *const heads[] = { "", "[A \"b\"]\n\n" };
	static const char tail[] = "exf6 e.p. Nf6 4. Nf3 Nc6 5. Bb5 *";
	char text[128], *copy;
	cd_pgn_raw_game raw;
	size_t h, b, n, cut, start;

	for (h = 0; h < sizeof(heads) / sizeof(heads[0]); h++) {
		for (b = 0; b < sizeof(bits) / sizeof(bits[0]); b++) {
			n = (size_t)snprintf(text, sizeof(text),
			    "%s1. e4 d5 2. e5 f5 %s%s", heads[h], bits[b],
			    tail);
			ck_assert_uint_lt(n, sizeof(text));
			start = strlen(heads[h]);
			for (cut = start + 1; cut <= n; cut++) {
				copy = malloc(cut);
				ck_assert_ptr_nonnull(copy);
				memcpy(copy, text, cut);
				raw = raw_movetext(copy, cut, cut,
				    CD_PGN_RESULT_NONE);
				raw.movetext = start;
				fast_as_tokens(&raw, copy);
				free(copy);
			}
		}
	}
}
END_TEST

/*
 * The run's three places (before a move number, White's word, Black's
 * word), each met by what it does not expect: a line end (LF, CR LF,
 * CR alone, with a space before or after it), a comment, a number
 * there or in place of a word ("2.", "2...", "12." and a line end), a
 * word without its number, "e.p.", a word of sixteen bytes, a move that
 * does not read after a line end, far enough from the text's end that
 * the run's first loop reads it, the text cut at every length after it,
 * and the game going on to its end or to a move that does not read (the
 * error's line and column counting every line end before it): read as
 * the lexer's tokens read them.
 */
START_TEST(test_move_run_places)
{
	static const char moves[] = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 "
	    "Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O ";
	/* where the bits go: before "2.", before "Nf3", before "Nc6" */
	static const size_t places[] = { 9, 12, 16 };
	static const char *const bits[] = { "", "\n", "\r\n", "\r",
	    "\r\r\n", " \n", "\n ", "\n\n", "{c} ", "{c}\n", "2. ",
	    "2.", "2... ", "12.\n", "2.\n", "Nf3 ", "e.p. ",
	    "Nf3xxxxxxxxxxxxx ", "\nKe2 ", "\r\nKe2 ", "Ke2\n" };
	static const char *const ends[] = { "*", "9.\nKe5 *", "9. h3\r\nKe5" };
	char text[256], *copy;
	cd_pgn_raw_game raw;
	size_t pl, b, en, n, cut, at;

	for (pl = 0; pl < sizeof(places) / sizeof(places[0]); pl++)
		for (b = 0; b < sizeof(bits) / sizeof(bits[0]); b++)
			for (en = 0; en < sizeof(ends) / sizeof(ends[0]);
			    en++) {
				at = places[pl];
				n = (size_t)snprintf(text, sizeof(text),
				    "%.*s%s%s%s", (int)at, moves, bits[b],
				    moves + at, ends[en]);
				ck_assert_uint_lt(n, sizeof(text));
				for (cut = at + 1; cut <= n; cut++) {
					copy = malloc(cut);
					ck_assert_ptr_nonnull(copy);
					memcpy(copy, text, cut);
					raw = raw_movetext(copy, cut, cut,
					    CD_PGN_RESULT_NONE);
					fast_as_tokens(&raw, copy);
					if (cut % 8 == 0)
						fast_as_tokens_kept(&raw,
						    copy);
					free(copy);
				}
			}
}
END_TEST

/*
 * The reader's note that a tag section holds tags and white space only
 * (the parser then does not look in it for comments and escape lines):
 * not taken for a copy of the game whose text is elsewhere (an escape
 * line put in place of a blank line between its tags is read), and the
 * game itself read as ever.
 */
START_TEST(test_tag_section_bare)
{
	static const char in[] = "[Event \"a\"]\n   \n[Site \"b\"]\n\n"
	    "1. e4 *\n";
	cd_pgn_reader *r = cd_pgn_reader_new_mem(in, sizeof(in) - 1);
	cd_pgn_raw_game raw, copy;
	char text[sizeof(in)];
	uint32_t i, escapes;
	char *at;

	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(cd_pgn_reader_next(r, &raw), CD_OK);
	ck_assert_uint_eq(raw.ntags, 2);
	ck_assert_int_eq(cd_pgn_parse(game, &raw, NULL, NULL), CD_OK);
	ck_assert_uint_eq(game->nnotes, 1);
	memcpy(text, raw.text, raw.len);
	at = strstr(text, "   ");
	ck_assert_ptr_nonnull(at);
	memcpy(at, "%ee", 3);
	copy = raw;
	copy.text = text;
	ck_assert_int_eq(cd_pgn_parse(game, &copy, NULL, NULL), CD_OK);
	escapes = 0;
	for (i = 1; i < game->nnotes; i++)
		escapes += game->notes[i].kind == CD_NOTE_ESCAPE;
	ck_assert_uint_eq(escapes, 1);
	cd_pgn_reader_free(r);
}
END_TEST

/* The start position after games that moved it (from a FEN, a Chess960
 * game without one, a bad FEN or variant, a position set directly), in
 * the same game: the next game from the initial position reads and
 * exports as in a new game. */
START_TEST(test_start_reset)
{
	static const char *const before[] = {
	    "[FEN \"8/8/8/8/8/8/4K3/k7 w - - 0 1\"]\n1. Kd3 *\n",
	    "[Variant \"Chess960\"]\n1. e4 *\n",
	    "[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"
	    " b KQkq - 0 1\"]\n1... e5 *\n",
	    "[Variant \"Chess960\"]\n[FEN \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/"
	    "NPP1P1PP/BQ1BNRKR w HFhf - 2 9\"]\n9. g3 *\n",
	    "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n*\n",
	    "[Variant \"crazyhouse\"]\n1. e4 *\n",
	    NULL	/* cd_game_set_start, then cd_game_clear */
	};
	const char *plain = "[Event \"x\"]\n1. e4 e5 2. Ke2 *\n";
	cd_game *fresh = cd_game_new();
	cd_buf a = { 0 }, b = { 0 };
	cd_error err;
	size_t i;

	ck_assert_ptr_nonnull(fresh);
	ck_assert_int_eq(cd_pgn_parse_text(fresh, plain, strlen(plain), NULL,
	    &err), CD_OK);
	ck_assert_int_eq(cd_pgn_write_buf(fresh, 0, &b), CD_OK);
	for (i = 0; i < 2 * (sizeof(before) / sizeof(before[0])); i++) {
		const char *bf = before[i / 2];

		if (bf != NULL) {
			(void)cd_pgn_parse_text(game, bf, strlen(bf), NULL,
			    &err);
		} else {
			cd_board pos;

			ck_assert_int_eq(cd_fen_parse(&pos,
			    "4k3/8/8/8/8/8/8/4K3 w - - 0 1", 29, 0, &err),
			    CD_OK);
			cd_game_clear(game);
			ck_assert_int_eq(cd_game_set_start(game, &pos), CD_OK);
		}
		/* even i: the next game parsed at once (the parser's own
		 * clear and set-up); odd i: cleared first, to the initial
		 * position, as a new game has it */
		if (i % 2 != 0) {
			cd_game_clear(game);
			ck_assert_mem_eq(game->start.squares,
			    fresh->start.squares, 64);
			ck_assert_int_eq(game->start.chess960, 0);
		}
		ck_assert_int_eq(cd_pgn_parse_text(game, plain, strlen(plain),
		    NULL, &err), CD_OK);
		ck_assert(!game->has_fen && !game->chess960);
		ck_assert_int_eq(game->start.chess960, 0);
		a.len = 0;
		ck_assert_int_eq(cd_pgn_write_buf(game, 0, &a), CD_OK);
		ck_assert_uint_eq(a.len, b.len);
		ck_assert_mem_eq(a.data, b.data, a.len);
	}
	cd_buf_free(&a);
	cd_buf_free(&b);
	cd_game_free(fresh);
}
END_TEST

/* A tag of the reference model of test_tags_random. */
struct rtag {
	const char *name;
	char value[48];
	size_t len;
};

static int
rtag_cmp(const void *a, const void *b)
{
	const struct rtag *x = *(const struct rtag *const *)a;
	const struct rtag *y = *(const struct rtag *const *)b;

	return strcmp(x->name, y->name);
}

/*
 * TEXT (tags and 1. e4 *) read into the game: the reference's tags, in
 * its order, with its values, found where the reference finds them.
 */
static void
read_as(const char *text, size_t len, const cd_game *ref)
{
	cd_error err;
	size_t i;

	TU_CHECK(cd_pgn_parse_text(game, text, len, NULL, &err) == CD_OK,
	    "%s\n%s", err.msg, text);
	TU_CHECK(game->ntags == ref->ntags, "%zu tags, %zu wanted\n%s",
	    game->ntags, ref->ntags, text);
	for (i = 0; i < ref->ntags; i++) {
		const cd_game_tag *t = &game->tags[i];
		const cd_game_tag *u = &ref->tags[i];
		const char *name = cd_game_str(ref, u->name);

		TU_CHECK(strcmp(cd_game_str(game, t->name), name) == 0 &&
		    t->value_len == u->value_len &&
		    memcmp(cd_game_str(game, t->value), cd_game_str(ref,
		    u->value), u->value_len + 1) == 0 &&
		    cd_game_tag_find(game, name) == cd_game_tag_find(ref,
		    name), "tag %zu (%s) read otherwise\n%s", i, name, text);
	}
}

/*
 * The reference given the game's move (1. e4) and its result, and the
 * two written: the same bytes.
 */
static void
same_export(cd_game *ref, cd_buf *a, cd_buf *b)
{
	cd_move m;

	TU_CHECK(cd_san_parse(cd_game_board(ref), "e4", 2, NULL, 0, &m,
	    NULL) == CD_OK && cd_game_add_move(ref, m, NULL) == CD_OK,
	    "1. e4 not played");
	cd_game_set_result(ref, CD_PGN_RESULT_UNKNOWN);
	a->len = b->len = 0;
	TU_CHECK(cd_pgn_write_buf(game, 0, a) == CD_OK &&
	    cd_pgn_write_buf(ref, 0, b) == CD_OK, "not written");
	TU_CHECK(a->len == b->len && memcmp(a->data, b->data, a->len) == 0,
	    "written:\n%.*s\nwanted:\n%.*s", (int)a->len, a->data,
	    (int)b->len, b->data);
}

/*
 * Random tag sections read from text (the game reader's tag loop and
 * the game's tags added as one block, with their own test for a
 * repeated name) against the same tags added one by one
 * (cd_game_add_tag): the same tags, values and export.
 */
START_TEST(test_tag_block_random)
{
	static const char *const names[] = { "Site", "Date", "Round",
	    "White", "Black", "Result", "ECO", "WhiteElo", "BlackElo",
	    "Annotator", "PlyCount", "A", "B", "Ab", "Ba", "TimeControl",
	    "AVeryLongTagNameIndeed", "Opening", "Varia", "Mode", "T1",
	    "T2", "Sit", "Sites", "Whitf" };
	static const char alphabet[] = "ab?. \\\"\x1b\t\xc3\xa9xyz0123456789";
	enum { NNAMES = sizeof(names) / sizeof(names[0]) };
	cd_game *ref = cd_game_new();
	char text[8192], v[64];
	cd_buf a = { 0 }, b = { 0 };
	int round;

	ck_assert_ptr_nonnull(ref);
	for (round = 0; round < TU_ROUNDS(20000); round++) {
		const char *eol = rnd(4) == 0 ? "\r\n" : "\n";
		size_t k = 0, i, j, n, ntags = rnd(14);

		cd_game_clear(ref);
		k += (size_t)sprintf(text + k, "[Event \"e%d\"]%s", round, eol);
		TU_CHECK(cd_game_add_tag(ref, "Event", 5, text + 8,
		    strcspn(text + 8, "\"")) == CD_OK, "round %d", round);
		for (i = 0; i < ntags; i++) {
			/* (in stretches of rounds short values only, which the
			 * tag loop takes) */
			const char *name = names[rnd(round % 3 ? 12 : NNAMES)];

			n = rnd(round % 2 ? 15 : 40);
			for (j = 0; j < n; j++)
				v[j] = alphabet[rnd(sizeof(alphabet) - 1)];
			k += (size_t)sprintf(text + k, "[%s \"", name);
			for (j = 0; j < n; j++) {
				if (v[j] == '\\' || v[j] == '"')
					text[k++] = '\\';
				text[k++] = v[j];
			}
			k += (size_t)sprintf(text + k, "\"]%s", eol);
			TU_CHECK(cd_game_add_tag(ref, name, strlen(name), v,
			    n) == CD_OK, "round %d: %s", round, name);
		}
		k += (size_t)sprintf(text + k, "%s1. e4 *%s", eol, eol);
		read_as(text, k, ref);
		same_export(ref, &a, &b);
	}
	free(a.data);
	free(b.data);
	cd_game_free(ref);
}
END_TEST

/* The tag sections of test_tag_block_again: the roster's (as opening
 * books give it), ones of its length that differ only at the start,
 * in the middle or in the last eight bytes, more tags, the roster out
 * of order, FEN and Variant, blocks shorter than eight bytes, escapes
 * (not a plain block), a name given twice, more tags than a block
 * takes, values too long for the writer's memo, and sections written
 * about the length of its short copy. */
static const char *const again_sections[] = {
	"[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
	"[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n",
	"[Event \"b\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
	"[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n",
	"[Event \"?\"]\n[Site \"?\"]\n[Date \"????.?x.??\"]\n[Round \"?\"]\n"
	"[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n",
	"[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
	"[White \"?\"]\n[Black \"?\"]\n[Result \"1\"]\n",
	"[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
	"[White \"?\"]\n[Black \"?\"]\n[Result \"1-0\"]\n",
	"[Event \"?\"]\n[Site \"?\"]\n[Date \"2013.11.02\"]\n[Round \"1\"]\n"
	"[White \"Stockfish\"]\n[Black \"Stockfish\"]\n[Result \"1/2-1/2\"]\n"
	"[Eco \"A07\"]\n",
	"[Event \"?\"]\n[Site \"?\"]\n[Date \"2013.11.02\"]\n[Round \"1\"]\n"
	"[White \"Stockfish\"]\n[Black \"Stockfish\"]\n[Result \"1/2-1/2\"]\n"
	"[Eco \"E15\"]\n",
	"[Site \"?\"]\n[Event \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
	"[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n",
	"[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
	"[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n[SetUp \"1\"]\n"
	"[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n",
	"[Event \"?\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n"
	"[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n",
	"[A \"\"]\n",
	"[A \"x\"]\n",
	"[B \"\"]\n",
	"[Event \"a\\\"b\"]\n[Site \"?\"]\n",
	"[Event \"a\"]\n[Event \"b\"]\n",
	"[White \"W\"]\n[Black \"B\"]\n[WhiteElo \"2000\"]\n[ECO \"B00\"]\n",
	"[Event \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"]\n"
	"[Site \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"]\n"
	"[Date \"????.??.??\"]\n[Round \"?\"]\n"
	"[White \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"]\n"
	"[Black \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"]\n"
	"[Result \"*\"]\n",
	/* written as 126 to 136 bytes with the results' markers: about
	 * the memo's copy of 128 bytes */
	"[Event \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"]\n[Site \"?\"]\n"
	"[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n"
	"[Black \"?\"]\n[Result \"*\"]\n",
	"[Event \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"]\n[Site \"?\"]\n"
	"[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n"
	"[Black \"?\"]\n[Result \"*\"]\n",
	"[Event \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"]\n[Site \"?\"]\n"
	"[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n"
	"[Black \"?\"]\n[Result \"*\"]\n",
	"[Event \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"]\n[Site \"?\"]\n"
	"[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n"
	"[Black \"?\"]\n[Result \"*\"]\n",
	"[Event \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"]\n[Site \"?\"]\n"
	"[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n"
	"[Black \"?\"]\n[Result \"*\"]\n",
	NULL,	/* (33 tags, made by the test) */
};

/*
 * Games read one after another by a reader into the same game, their
 * tag sections often the same bytes as the game's before (its block
 * set back, and the writer's tag section kept), against each read
 * alone into a game of its own: the same tags, found by name, and the
 * same export, full and reduced, with results from the movetext that
 * differ from game to game; now and then a tag is changed, added or
 * removed after reading, and two games take turns.
 */
START_TEST(test_tag_block_again)
{
	enum { NSEC = sizeof(again_sections) / sizeof(again_sections[0]),
	    BATCH = 100 };
	static const char *const movetexts[] = { "1. e4 e5 *", "1. e4 1-0",
	    "1. d4 d5 2. c4 0-1", "1. e4 e5 1/2-1/2", "*", "1. Nf3" };
	static const char *const names[] = { "Event", "Site", "Date",
	    "Round", "White", "Black", "Result", "A", "ECO", "Eco",
	    "WhiteElo", "Annotator" };
	static const char *const finds[] = { "Event", "Site", "Date",
	    "Round", "White", "Black", "Result", "SetUp", "FEN", "Variant",
	    "A", "B", "Eco", "ECO", "WhiteElo", "T5" };
	cd_game *other = cd_game_new(), *ref = cd_game_new(), *g;
	char many[2048];
	cd_buf text = { 0 }, a = { 0 }, b = { 0 };
	size_t starts[BATCH + 1], sec = 0, k, i, j;
	int round;
	cd_error err;

	ck_assert_ptr_nonnull(other);
	ck_assert_ptr_nonnull(ref);
	for (i = k = 0; i < 33; i++)
		k += (size_t)sprintf(many + k, "[T%zu \"v\"]\n", i);
	for (round = 0; round < TU_ROUNDS(60); round++) {
		cd_pgn_reader *r;
		cd_pgn_raw_game raw;

		/* a batch of games, the same section as the game before
		 * most of the time */
		text.len = 0;
		for (j = 0; j < BATCH; j++) {
			const char *st, *mt = movetexts[rnd(6)];

			if (rnd(3) == 0)
				sec = rnd(NSEC);
			st = again_sections[sec] != NULL ? again_sections[sec] :
			    many;
			ck_assert_int_eq(cd_buf_reserve(&text, strlen(st) +
			    strlen(mt) + 4), CD_OK);
			starts[j] = text.len;
			text.len += (size_t)sprintf(text.data + text.len,
			    "%s\n%s\n\n", st, mt);
		}
		starts[BATCH] = text.len;
		r = cd_pgn_reader_new_mem(text.data, text.len);
		ck_assert_ptr_nonnull(r);
		for (j = 0; j < BATCH; j++) {
			const char *gt = text.data + starts[j];
			size_t gl = starts[j + 1] - starts[j];

			ck_assert_int_eq(cd_pgn_reader_next(r, &raw), CD_OK);
			g = rnd(8) == 0 ? other : game;
			ck_assert_msg(cd_pgn_parse(g, &raw, NULL, &err) ==
			    CD_OK, "%s\n%.*s", err.msg, (int)gl, gt);
			ck_assert_int_eq(cd_pgn_parse_text(ref, gt, gl, NULL,
			    &err), CD_OK);
			/* a tag changed, added or removed in both */
			if (rnd(6) == 0) {
				const char *name = names[rnd(12)];

				if (rnd(3) == 0) {
					cd_game_remove_tag(g, name);
					cd_game_remove_tag(ref, name);
				} else {
					ck_assert_int_eq(cd_game_add_tag(g,
					    name, strlen(name), "new", 3),
					    CD_OK);
					ck_assert_int_eq(cd_game_add_tag(ref,
					    name, strlen(name), "new", 3),
					    CD_OK);
				}
			}
			ck_assert_uint_eq(g->ntags, ref->ntags);
			for (i = 0; i < sizeof(finds) / sizeof(finds[0]); i++)
				ck_assert_int_eq(cd_game_tag_find(g, finds[i]),
				    cd_game_tag_find(ref, finds[i]));
			for (i = 0; i < g->ntags; i++) {
				const cd_game_tag *t = &g->tags[i];
				const cd_game_tag *u = &ref->tags[i];

				ck_assert_str_eq(cd_game_str(g, t->name),
				    cd_game_str(ref, u->name));
				ck_assert_uint_eq(t->value_len, u->value_len);
				ck_assert_mem_eq(cd_game_str(g, t->value),
				    cd_game_str(ref, u->value),
				    u->value_len + 1);
			}
			/* written twice now and then (the memo's second
			 * look) */
			for (i = 0; i < 1 + (rnd(4) == 0); i++) {
				unsigned flags = rnd(3) == 0 ? CD_PGN_REDUCED :
				    0;

				/* (a's bytes not left from the write before) */
				if (a.data != NULL)
					memset(a.data, '#', a.cap);
				a.len = b.len = 0;
				ck_assert_int_eq(cd_pgn_write_buf(g, flags, &a),
				    CD_OK);
				ck_assert_int_eq(cd_pgn_write_buf(ref, flags,
				    &b), CD_OK);
				ck_assert_msg(a.len == b.len &&
				    memcmp(a.data, b.data, a.len) == 0,
				    "%.*s\nwritten:\n%.*s\nexpected:\n%.*s",
				    (int)gl, gt, (int)a.len, a.data,
				    (int)b.len, b.data);
			}
		}
		ck_assert_int_eq(cd_pgn_reader_next(r, &raw), CD_EOF);
		cd_pgn_reader_free(r);
	}
	free(text.data);
	free(a.data);
	free(b.data);
	cd_game_free(other);
	cd_game_free(ref);
}
END_TEST

/*
 * The parser's usual way (no warnings, no language, no nested comments,
 * nothing kept after each move: its options constants) and the
 * general one, each game read after one by the other way: a Spanish
 * move whose letter is an English piece's ("Rf1", the king's there,
 * the rook's in English), a comment with braces nested in it, the
 * positions kept, warnings, and a notice (which the usual way gives
 * too).
 */
START_TEST(test_parse_routes)
{
	static const char book[] = "[Result \"*\"]\n1. e4 e5 2. Nf3 Nc6 *";
	static const char es[] = "[Result \"*\"]\n"
	    "1. e4 e5 2. Cf3 Cc6 3. Ac4 Ac5 4. Rf1 Cf6 *";
	static const char nest[] = "[Result \"*\"]\n"
	    "1. e4 { a { b } c } e5 2. Nf3 *";
	static const char odd[] = "[Result \"*\"]\n1. e4 e5 2. nf3 *";
	static const char fen[] = "[Result \"*\"]"
	    "[FEN \"4k3/8/8/8/8/8/8/R3K3 w K - 0 1\"]\n[SetUp \"1\"]\n"
	    "1. Kd2 *";
	cd_pgn_parse_opts po;
	struct warns w;
	cd_error err;
	int round;

	for (round = 0; round < 2; round++) {
		/* a game by the usual way before each (round 1: twice) */
		ck_assert_int_eq(cd_pgn_parse_text(game, book, strlen(book),
		    NULL, &err), CD_OK);
		ck_assert_uint_eq(game->nnodes, 5);

		memset(&po, 0, sizeof(po));
		po.lang = cd_san_lang_find("es");
		ck_assert_ptr_nonnull(po.lang);
		ck_assert_int_eq(cd_pgn_parse_text(game, es, strlen(es), &po,
		    &err), CD_OK);
		ck_assert_uint_eq(game->nnodes, 9);
		ck_assert_str_eq(game->nodes[7].san, "Kf1");
		ck_assert_str_eq(game->nodes[8].san, "Nf6");

		memset(&po, 0, sizeof(po));
		po.flags = CD_PGN_PARSE_NESTED_COMMENTS;
		ck_assert_int_eq(cd_pgn_parse_text(game, nest, strlen(nest),
		    &po, &err), CD_OK);
		ck_assert_uint_eq(game->nnodes, 4);
		ck_assert_uint_ne(game->nodes[1].after, 0);
		/* (without the option the first `}` ends it) */
		ck_assert_int_ne(cd_pgn_parse_text(game, nest, strlen(nest),
		    NULL, &err), CD_OK);

		memset(&po, 0, sizeof(po));
		po.flags = CD_PGN_PARSE_POSITIONS;
		ck_assert_int_eq(cd_pgn_parse_text(game, book, strlen(book),
		    &po, &err), CD_OK);
		ck_assert_ptr_nonnull(game->positions);
		ck_assert_int_eq(game->positions[1].side, CD_BLACK);
		ck_assert_int_eq(game->positions[4].side, CD_WHITE);
		ck_assert_int_eq(game->positions[4].squares[CD_SQ(5, 2)],
		    CD_PIECE(CD_WHITE, CD_KNIGHT));
		ck_assert_int_eq(cd_pgn_parse_text(game, book, strlen(book),
		    NULL, &err), CD_OK);
		ck_assert_ptr_null(game->positions);

		memset(&po, 0, sizeof(po));
		memset(&w, 0, sizeof(w));
		po.warn = collect;
		po.warn_ctx = &w;
		ck_assert_int_eq(cd_pgn_parse_text(game, odd, strlen(odd), &po,
		    &err), CD_OK);
		ck_assert_str_eq(w.text, "2:13: move 2. nf3 read as Nf3\n");

		/* a notice without warnings: the usual way */
		memset(&po, 0, sizeof(po));
		memset(&w, 0, sizeof(w));
		po.notice = collect;
		po.warn_ctx = &w;
		ck_assert_int_eq(cd_pgn_parse_text(game, fen, strlen(fen), &po,
		    &err), CD_OK);
		ck_assert_int_eq(w.n, 1);
		ck_assert_ptr_nonnull(strstr(w.text, "castling right 'K'"));
	}
}
END_TEST

/*
 * The writer's usual export (flags of a width at most, no language:
 * its options constants) against the same export by the general way:
 * with English's letters as the language (the pieces translated) and
 * with CD_PGN_TAGS_SETUP_AS_READ (no SetUp tag to change), for games
 * with comments before and after moves, NAGs (before the first move
 * too), variations, Black's move first, numbers past 999, no marker,
 * long lines, at widths 1 to 255; each game also read twice in a row
 * from one reader (the writer's memo of the tag section).
 */
START_TEST(test_write_usual_paths)
{
	static const char *const games[] = {
		"[Event \"e\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *",
		"[White \"w\"]\n[Black \"b\"]\n[Annotator \"a\"]\n\n"
		"{before} 1. e4 {after} e5 $1 2. Nf3 (2. f4 exf4 (2... d5))"
		" Nc6 $2 $14 3. Bb5 {x} (3. Bc4) 1-0",
		"$5 1. d4 d5 2. c4 0-1",
		"{only a comment} 1/2-1/2",
		"[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP"
		"/RNBQKBNR b KQkq - 0 1\"]\n\n1... e5 2. Nf3 Nc6 *",
		"[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP"
		"/RNBQKBNR w KQkq - 0 997\"]\n\n997. Nf3 Nf6 998. Ng1 Ng8 "
		"999. Nf3 Nf6 1000. Ng1 Ng8 1001. Nf3 *",
		"[Event \"no marker\"]\n\n1. e4 e5 2. Nf3 Nc6",
		"1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 "
		"6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 9. Nf3 Nf6 10. Ng1 Ng8 "
		"11. Nf3 Nf6 12. Ng1 Ng8 13. Nf3 Nf6 14. Ng1 Ng8 15. Nf3 Nf6 "
		"16. Ng1 Ng8 17. Nf3 Nf6 18. Ng1 Ng8 19. e4 e5 20. Qh5 Nc6 "
		"21. Bc4 Nf6 22. Qxf7# 1-0",
		"1. e4 $1 e5 $2 2. Nf3 $3 Nc6 $4 *",
		"1. e4 e5 {a comment long enough to be folded over more than "
		"one line of the export at the usual width of seventy-nine} "
		"2. Nf3 *",
	};
	static const unsigned widths[] = { 0, 1, 7, 20, 40, 79, 80, 255 };
	const cd_san_lang *en = cd_san_lang_find("en");
	cd_buf a = { 0 }, b = { 0 }, c = { 0 }, text = { 0 };
	size_t i, w, k;
	cd_error err;

	ck_assert_ptr_nonnull(en);
	for (i = 0; i < sizeof(games) / sizeof(games[0]); i++) {
		cd_pgn_reader *r;
		cd_pgn_raw_game raw;
		size_t len = strlen(games[i]);

		/* the game three times in one text */
		text.len = 0;
		ck_assert_int_eq(cd_buf_reserve(&text, 3 * len + 9), CD_OK);
		for (k = 0; k < 3; k++)
			text.len += (size_t)sprintf(text.data + text.len,
			    "%s\n\n\n", games[i]);
		r = cd_pgn_reader_new_mem(text.data, text.len);
		ck_assert_ptr_nonnull(r);
		for (k = 0; k < 3; k++) {
			ck_assert_int_eq(cd_pgn_reader_next(r, &raw), CD_OK);
			ck_assert_msg(cd_pgn_parse(game, &raw, NULL, &err) ==
			    CD_OK, "%s: %s", games[i], err.msg);
			for (w = 0; w < sizeof(widths) / sizeof(widths[0]);
			    w++) {
				unsigned f = CD_PGN_WIDTH(widths[w]);

				if (a.data != NULL)	/* (no bytes left) */
					memset(a.data, '#', a.cap);
				a.len = b.len = c.len = 0;
				ck_assert_int_eq(cd_pgn_write_buf(game, f, &a),
				    CD_OK);
				ck_assert_int_eq(cd_pgn_write_buf_lang(game, f,
				    en, &b), CD_OK);
				ck_assert_int_eq(cd_pgn_write_buf(game, f |
				    CD_PGN_TAGS_SETUP_AS_READ, &c), CD_OK);
				ck_assert_msg(a.len == b.len && memcmp(a.data,
				    b.data, a.len) == 0, "width %u:\n%.*s\n"
				    "with English's letters:\n%.*s",
				    widths[w], (int)a.len, a.data, (int)b.len,
				    b.data);
				ck_assert_msg(a.len == c.len && memcmp(a.data,
				    c.data, a.len) == 0, "width %u:\n%.*s\n"
				    "with SetUp as read:\n%.*s", widths[w],
				    (int)a.len, a.data, (int)c.len, c.data);
			}
		}
		ck_assert_int_eq(cd_pgn_reader_next(r, &raw), CD_EOF);
		cd_pgn_reader_free(r);
	}
	free(a.data);
	free(b.data);
	free(c.data);
	free(text.data);
}
END_TEST

/* Tag sections that begin with the roster in its order, as far as a
 * name that is not the next one (of its length or not, a roster name
 * out of its place or given again), then other tags: the same tags,
 * found by name, and the same export as a game given them one by
 * one. */
START_TEST(test_tag_block_roster)
{
	static const char *const roster[] = { "Event", "Site", "Date",
	    "Round", "White", "Black", "Result" };
	static const char *const breaks[] = { "Evenu", "Sitf", "Dase",
	    "Rounc", "Whitf", "Blacj", "Resulu", "Even", "Sites", "Dat",
	    "Roun", "Whites", "Blac", "Results", "event", "ECO",
	    "Event", "Site", "Date", "Round", "White", "Black", "Result",
	    "SetUp", "A" };
	static const char *const more[] = { "WhiteElo", "Result", "Event",
	    "Annotator", "Black" };
	enum { NBREAKS = sizeof(breaks) / sizeof(breaks[0]) };
	cd_game *ref = cd_game_new();
	char text[2048], v[16];
	cd_buf a = { 0 }, b = { 0 };
	size_t c, k, i;

	ck_assert_ptr_nonnull(ref);
	for (c = 0; c < 8 * (NBREAKS + 1) * 2; c++) {
		size_t pre = c % 8, bi = c / 8 % (NBREAKS + 1);
		size_t nmore = c < 8 * (NBREAKS + 1) ? 0 : 5;
		const char *names[16];
		size_t n = 0;

		for (i = 0; i < pre; i++)
			names[n++] = roster[i];
		if (bi < NBREAKS)
			names[n++] = breaks[bi];
		for (i = 0; i < nmore; i++)
			names[n++] = more[i];
		cd_game_clear(ref);
		for (i = k = 0; i < n; i++) {
			int vl = snprintf(v, sizeof(v), "v%zu", i);

			k += (size_t)sprintf(text + k, "[%s \"%s\"]\n", names[i],
			    v);
			ck_assert_int_eq(cd_game_add_tag(ref, names[i],
			    strlen(names[i]), v, (size_t)vl), CD_OK);
		}
		k += (size_t)sprintf(text + k, "\n1. e4 *\n");
		read_as(text, k, ref);
		for (i = 0; i < 7; i++)
			ck_assert_int_eq(cd_game_tag_find(game, roster[i]),
			    cd_game_tag_find(ref, roster[i]));
		same_export(ref, &a, &b);
	}
	free(a.data);
	free(b.data);
	cd_game_free(ref);
}
END_TEST

/* The tag section written (up to its empty line) from the game's
 * export tags, each value with its `\` and `"` escaped: the writer's
 * model, made without its own tag lines. */
static void
tag_section_model(const cd_game *g, unsigned flags, cd_buf *m)
{
	cd_game_xtags xt = { 0 };
	size_t i, k;

	ck_assert_int_eq(cd_game_export_tags(g, flags, &xt), CD_OK);
	m->len = 0;
	for (i = 0; i < xt.n; i++) {
		const cd_game_xtag *t = &xt.tags[i];

		ck_assert_int_eq(cd_buf_reserve(m, 2 * t->value_len +
		    t->name_len + 8), CD_OK);
		m->data[m->len++] = '[';
		memcpy(m->data + m->len, t->name, t->name_len);
		m->len += t->name_len;
		m->data[m->len++] = ' ';
		m->data[m->len++] = '"';
		for (k = 0; k < t->value_len; k++) {
			if (t->value[k] == '\\' || t->value[k] == '"')
				m->data[m->len++] = '\\';
			m->data[m->len++] = t->value[k];
		}
		memcpy(m->data + m->len, "\"]\n", 3);
		m->len += 3;
	}
	ck_assert_int_eq(cd_buf_reserve(m, 1), CD_OK);
	m->data[m->len++] = '\n';
	cd_game_xtags_free(&xt);
}

/*
 * Games whose seven first tags are the roster in its order (the
 * writer's lines without the look-up of each roster tag), and others
 * for contrast: a value of 0 to 33 bytes at each roster place (around
 * the sixteen bytes copied at once), with a quote or a backslash or
 * without, the Result tag against the movetext's marker or without one,
 * no other tag or other tags (in no order, SetUp, FEN and Variant
 * among them), in full and reduced export: the section written is the
 * one made from cd_game_export_tags.
 */
START_TEST(test_tag_section_roster_first)
{
	static const char *const roster[] = { "Event", "Site", "Date",
	    "Round", "White", "Black", "Result" };
	static const char *const results[] = { "1-0", "0-1", "1/2-1/2",
	    "*", "x" };
	static const char *const markers[] = { " 1-0", " 0-1", " *", "" };
	static const char *const extra[][3] = {
		{ NULL }, { "ECO", NULL }, { "WhiteElo", "Annotator", "ECO" },
		{ "SetUp", NULL }, { "Variant", "Annotator", NULL },
		{ "Event", NULL }, { "Zz", "A", "Mode" },
	};
	enum { NEXTRA = sizeof(extra) / sizeof(extra[0]) };
	char text[1024], v[40];
	cd_buf out = { 0 }, model = { 0 };
	cd_error err;
	size_t c;

	for (c = 0; c < 7 * 34 * 3 * 5 * NEXTRA * 2; c++) {
		size_t at = c % 7, vl = c / 7 % 34, kind = c / (7 * 34) % 3;
		size_t res = c / (7 * 34 * 3) % 5;
		size_t ex = c / (7 * 34 * 3 * 5) % NEXTRA;
		bool swap = c / (7 * 34 * 3 * 5 * NEXTRA) % 2 != 0;
		unsigned flags;
		size_t i, k = 0, m;

		/* a quote or backslash in the value, in the input escaped */
		for (i = 0; i < vl; i++)
			v[i] = (char)('a' + i % 26);
		v[vl] = '\0';
		for (i = 0; i < 7; i++) {
			/* swap: Site before Event, not the roster's order */
			size_t j = swap && i < 2 ? 1 - i : i;
			const char *val = j == 6 ? results[res] : "?";

			if (j == at && j != 6) {
				k += (size_t)sprintf(text + k, "[%s \"", roster[j]);
				for (m = 0; m < vl; m++) {
					if (kind != 0 && m == vl / 2) {
						text[k++] = '\\';
						text[k++] = kind == 1 ? '"' : '\\';
					}
					text[k++] = v[m];
				}
				k += (size_t)sprintf(text + k, "\"]\n");
			} else {
				k += (size_t)sprintf(text + k, "[%s \"%s\"]\n",
				    roster[j], val);
			}
		}
		for (i = 0; i < 3 && extra[ex][i] != NULL; i++)
			k += (size_t)sprintf(text + k, "[%s \"%s\"]\n",
			    extra[ex][i], strcmp(extra[ex][i], "Variant") == 0 ?
			    "Standard" : strcmp(extra[ex][i], "SetUp") == 0 ?
			    "0" : "v");
		k += (size_t)sprintf(text + k, "\n1. e4 e5%s\n",
		    markers[(c / 3) % 4]);
		TU_CHECK(cd_pgn_parse_text(game, text, k, NULL, &err) ==
		    CD_OK, "%s\n%s", err.msg, text);
		for (flags = 0; flags <= CD_PGN_REDUCED; flags += CD_PGN_REDUCED) {
			out.len = 0;
			TU_CHECK(cd_pgn_write_buf(game, flags, &out) == CD_OK,
			    "%s", text);
			tag_section_model(game, flags, &model);
			TU_CHECK(out.len >= model.len &&
			    memcmp(out.data, model.data, model.len) == 0,
			    "%s\nwritten:\n%.*s", text, (int)out.len, out.data);
		}
	}
	free(out.data);
	free(model.data);
}
END_TEST

/*
 * Tags against a plain model (a list searched name by name): random
 * adds (names the game looks up itself, names that differ from them in
 * one byte or in length, other names, enough of them to pass the
 * index of many tags), removals and clears; after each step every
 * name is looked up, and now and then the export tags and the written
 * tag section are compared with ones built from the model (values with
 * control bytes, DEL, `\` and `"` at every length).
 */
START_TEST(test_tags_random)
{
	static const char *const names[] = { "Event", "Site", "Date", "Round",
	    "White", "Black", "Result", "SetUp", "FEN", "Variant", "Even",
	    "Events", "event", "Evenu", "Dite", "Sate", "Site ", "Whitf",
	    "Blach", "Bound", "Resulu", "Results", "SetUq", "Setup", "FEM",
	    "GEN", "FE", "Varianu", "Varian", "Variants", "ECO", "Annotator",
	    "WhiteElo", "BlackElo", "PlyCount", "A", "B", "TimeControl",
	    "Opening", "Mode", "T00", "T01", "T02", "T03", "T04", "T05",
	    "T06", "T07", "T08", "T09", "T10", "T11", "T12", "T13", "T14",
	    "T15", "T16", "T17", "T18", "T19", "T20", "T21", "T22", "T23",
	    "T24", "T25", "T26", "T27", "T28", "T29" };
	static const char *const results[] = { "1-0", "0-1", "1/2-1/2", "*" };
	static const char alphabet[] = "ab?.\\\"\x01\t\x7f\x1f \xc3\xa9";
	static const char plain[] = "ab?.\x01\t\x7f\x1f \xc3\xa9";
	enum { NNAMES = sizeof(names) / sizeof(names[0]) };
	struct rtag ref[NNAMES], *other[NNAMES];
	size_t nref = 0;
	char want[16384], *got;
	cd_game_xtags xt = { 0 };
	cd_buf b = { 0 };
	int round;

	cd_game_clear(game);
	for (round = 0; round < TU_ROUNDS(30000); round++) {
		unsigned op = rnd(100);
		const char *name = names[rnd(round % 3 == 0 ? 40 : NNAMES)];
		size_t i, j, k, n, nother;
		long at;

		if (op < 2) {
			cd_game_clear(game);
			nref = 0;
		} else if (op < 12) {
			bool was = false;

			for (i = 0; i < nref; i++)
				if (strcmp(ref[i].name, name) == 0)
					break;
			if (i < nref) {
				memmove(&ref[i], &ref[i + 1],
				    (nref - i - 1) * sizeof(ref[0]));
				nref--;
				was = true;
			}
			ck_assert(cd_game_remove_tag(game, name) == was);
		} else {
			char v[48];

			/* (in stretches of rounds no `\` or `"` at all) */
			n = rnd(round % 2 == 0 ? 20 : 40);
			for (i = 0; i < n; i++)
				v[i] = round / 1000 % 2 ?
				    alphabet[rnd(sizeof(alphabet) - 1)] :
				    plain[rnd(sizeof(plain) - 1)];
			if (strcmp(name, "Result") == 0 && rnd(2) == 0) {
				const char *r = results[rnd(4)];

				n = strlen(r);
				memcpy(v, r, n);
			}
			ck_assert_int_eq(cd_game_add_tag(game, name,
			    strlen(name), v, n), CD_OK);
			for (i = 0; i < nref; i++)
				if (strcmp(ref[i].name, name) == 0)
					break;
			if (i == nref)
				ref[nref++].name = name;
			for (k = 0; k < n; k++)
				ref[i].value[k] = (unsigned char)v[k] < 0x20 ||
				    v[k] == 0x7f ? ' ' : v[k];
			ref[i].value[n] = '\0';
			ref[i].len = n;
		}
		/* the tags and every lookup */
		TU_CHECK(game->ntags == nref, "round %d: %zu tags, %zu wanted",
		    round, game->ntags, nref);
		for (i = 0; i < nref; i++) {
			const cd_game_tag *t = &game->tags[i];

			TU_CHECK(strcmp(cd_game_str(game, t->name),
			    ref[i].name) == 0 && t->value_len == ref[i].len &&
			    memcmp(cd_game_str(game, t->value), ref[i].value,
			    ref[i].len + 1) == 0, "round %d, tag %zu: %s, "
			    "%s wanted", round, i, cd_game_str(game, t->name),
			    ref[i].name);
		}
		for (j = 0; j < NNAMES; j++) {
			const char *v;

			for (i = 0; i < nref; i++)
				if (strcmp(ref[i].name, names[j]) == 0)
					break;
			at = cd_game_tag_find(game, names[j]);
			v = cd_game_tag_value(game, names[j], &n);
			if (i == nref)
				TU_CHECK(at == -1 && v == NULL, "round %d: "
				    "%s found at %ld", round, names[j], at);
			else
				TU_CHECK(at == (long)i && v == cd_game_str(game,
				    game->tags[i].value), "round %d: %s found "
				    "at %ld, not %zu", round, names[j], at, i);
		}
		if (round % 16 != 0)
			continue;
		/* the export tags and the tag section written */
		k = 0;
		nother = 0;
		for (j = 0; j < 7; j++) {
			const char *v = j == 2 ? "????.??.??" : "?";

			for (i = 0; i < nref; i++)
				if (strcmp(ref[i].name, names[j]) == 0)
					v = ref[i].value;
			if (j == 6) {
				for (n = 0; n < 4; n++)
					if (strcmp(v, results[n]) == 0)
						break;
				v = n < 4 ? results[n] : "*";
			}
			k += (size_t)sprintf(want + k, "[%s \"", names[j]);
			for (; *v != '\0'; v++) {
				if (*v == '\\' || *v == '"')
					want[k++] = '\\';
				want[k++] = *v;
			}
			k += (size_t)sprintf(want + k, "\"]\n");
		}
		for (i = 0; i < nref; i++) {
			for (j = 0; j < 9; j++)
				if (strcmp(ref[i].name, names[j]) == 0)
					break;
			if (j == 9)
				other[nother++] = &ref[i];
		}
		qsort(other, nother, sizeof(other[0]), rtag_cmp);
		for (i = 0; i < nother; i++) {
			k += (size_t)sprintf(want + k, "[%s \"", other[i]->name);
			for (j = 0; j < other[i]->len; j++) {
				char c = other[i]->value[j];

				if (c == '\\' || c == '"')
					want[k++] = '\\';
				want[k++] = c;
			}
			k += (size_t)sprintf(want + k, "\"]\n");
		}
		ck_assert_int_eq(cd_game_setup(game, NULL) == CD_OK ||
		    cd_game_tag_find(game, "Variant") >= 0 ||
		    cd_game_tag_find(game, "FEN") >= 0, 1);
		if (game->has_fen || game->chess960) {
			/* a start position of their own: SetUp and FEN
			 * tags written from it; not compared */
			cd_game_clear(game);
			nref = 0;
			continue;
		}
		ck_assert_int_eq(cd_game_export_tags(game, 0, &xt), CD_OK);
		ck_assert_uint_eq(xt.n, 7 + nother);
		for (i = 0; i < nother; i++)
			ck_assert_str_eq(xt.tags[7 + i].name, other[i]->name);
		b.len = 0;
		ck_assert_int_eq(cd_pgn_write_buf(game, 0, &b), CD_OK);
		got = (char *)b.data;
		ck_assert_uint_ge(b.len, k);
		ck_assert_mem_eq(got, want, k);
		ck_assert_int_eq(got[k], '\n');
	}
	cd_game_xtags_free(&xt);
	cd_buf_free(&b);
}
END_TEST

/* The plain greedy filler of the tests: the ntok tokens (strings of
 * stride bytes each at tok) joined by a space, or by a line end where
 * the next one would pass column width, into want. */
static void
fill_tokens_width(char *want, const char *tok, size_t stride, int ntok,
    size_t width)
{
	size_t col = 0, k = 0, len;
	int i;

	for (i = 0; i < ntok; i++) {
		const char *t = tok + (size_t)i * stride;

		len = strlen(t);
		if (col == 0) {
			col = len;
		} else if (col + 1 + len <= width) {
			want[k++] = ' ';
			col += 1 + len;
		} else {
			want[k++] = '\n';
			col = len;
		}
		memcpy(want + k, t, len);
		k += len;
	}
	want[k] = '\0';
}

/* fill_tokens_width() at the export format's width, 79. */
static void
fill_tokens(char *want, const char *tok, size_t stride, int ntok)
{
	fill_tokens_width(want, tok, stride, ntok, 79);
}

/* Filling with comments of random words (up to 100 words, up to 100
 * bytes long) against a plain greedy filler over the token list (rule
 * 6 and rule 10). */
START_TEST(test_fill_random)
{
	static char in[16384], want[16384], tok[300][136];
	int round;

	for (round = 0; round < TU_ROUNDS(3000); round++) {
		/* every other comment long: most of its lines start after
		 * a line end */
		int nw = 1 + (int)rnd(round % 2 ? 12 : 100), ntok = 0, i, w;
		char *out;

		/* a prefix of moves moves the comment's first column */
		strcpy(in, "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 ");
		strcpy(tok[ntok++], "1.");
		strcpy(tok[ntok++], "e4");
		strcpy(tok[ntok++], "e5");
		strcpy(tok[ntok++], "2.");
		strcpy(tok[ntok++], "Nf3");
		strcpy(tok[ntok++], "Nc6");
		strcpy(tok[ntok++], "3.");
		strcpy(tok[ntok++], "Bb5");
		strcpy(tok[ntok++], "a6");
		for (i = (int)rnd(4); i > 0; i--) {
			strcat(in, "{x} ");
			strcpy(tok[ntok++], "{ x }");
		}
		strcat(in, "{");
		for (w = 0; w < nw; w++) {
			int wl = 1 + (int)(rnd(4) ? rnd(12) : rnd(100));
			char word[128];

			for (i = 0; i < wl; i++)
				word[i] = (char)('a' + rnd(26));
			word[wl] = '\0';
			strcat(in, rnd(2) ? " " : "\n  ");
			strcat(in, word);
			snprintf(tok[ntok++], sizeof(tok[0]), "%s%s%s",
			    w == 0 ? "{ " : "", word, w == nw - 1 ? " }" : "");
		}
		strcat(in, " } 4. Ba4 *");
		strcpy(tok[ntok++], "4.");
		strcpy(tok[ntok++], "Ba4");
		strcpy(tok[ntok++], "*");
		fill_tokens(want, tok[0], sizeof(tok[0]), ntok);
		out = regularize_checked(in, 0, NULL);
		ck_assert_msg(strcmp(movetext(out), want) == 0,
		    "input\n%s\nexpected\n%s", in, want);
		free(out);
	}
}
END_TEST

/*
 * A comment of every length from 0 to 200 bytes and a few longer (about
 * the writer's blocks of 64 bytes and its 512 bytes filled through a
 * map of the spaces, the longest so filled) at every width from 1
 * to 100 and a few wider, after zero to six tokens (its first column),
 * against the plain greedy filler over the token list: words of 1 to 20
 * bytes and of exactly 15 and 16 (spaces at the edges of the writer's
 * blocks of sixteen bytes), some of them of two-, three- and four-byte
 * UTF-8 characters (a column a byte), with the words apart by one space
 * (the reader's plain comments) or by white space to fold.
 */
START_TEST(test_fill_comment_widths)
{
	static const char *moves[] = { "1.", "e4", "e5", "2.", "Nf3",
	    "Nc6" };
	static const size_t prefix[] = { 0, 2, 3, 5, 6 };
	static const char *chars[] = { "\xc3\xa9", "\xe2\x82\xac",
	    "\xf0\x9d\x84\x9e" };
	static const size_t wide[] = { 120, 150, 199, 200, 201, 202, 203,
	    204, 205, 255 };
	static const size_t longer[] = { 255, 256, 257, 319, 383, 384, 385,
	    447, 448, 449, 511, 512, 513, 600 };
	static char in[2048], want[4096], tok[400][256];
	size_t len, l, w;

	for (l = 0; l <= 200 + sizeof(longer) / sizeof(longer[0]); l++) {
		len = l <= 200 ? l : longer[l - 201];
		for (w = 1; w <= 100 + sizeof(wide) / sizeof(wide[0]); w++) {
			size_t width = w <= 100 ? w : wide[w - 101];
			size_t k, n = 0, nmoves = prefix[rnd(5)];
			int ntok = 0;
			const char *mt;
			char *out, text[640];

			/* the comment's text: len bytes, words apart by
			 * one space */
			while (n < len) {
				size_t wl = rnd(4) == 0 ? 15 + rnd(2) :
				    1 + rnd(20);

				if (n > 0)
					text[n++] = ' ';
				if (wl > len - n)
					wl = len - n;
				for (k = 0; k < wl; k++) {
					const char *ch = chars[rnd(3)];

					if (rnd(6) == 0 && k + strlen(ch) <=
					    wl) {
						memcpy(text + n + k, ch,
						    strlen(ch));
						k += strlen(ch) - 1;
					} else {
						text[n + k] = (char)('a' +
						    rnd(26));
					}
				}
				n += wl;
				if (n == len - 1)	/* no space last */
					text[n++] = 'z';
			}
			text[n] = '\0';
			ck_assert_uint_eq(n, len);
			in[0] = '\0';
			for (k = 0; k < nmoves; k++) {
				strcat(in, moves[k]);
				strcat(in, " ");
				strcpy(tok[ntok++], moves[k]);
			}
			strcat(in, "{");
			strcat(in, rnd(2) ? " " : "\n\t ");
			k = strlen(in);
			for (n = 0; n < len; n++) {
				if (text[n] == ' ' && rnd(8) == 0)
					in[k++] = rnd(2) ? '\n' : '\t';
				in[k++] = text[n];
			}
			strcpy(in + k, rnd(2) ? "} *" : " \n} *");
			/* the tokens: "{ " first word ... last word " }" */
			for (n = 0; n < len; n += k + 1) {
				k = strcspn(text + n, " ");
				snprintf(tok[ntok++], sizeof(tok[0]),
				    "%s%.*s%s", n == 0 ? "{ " : "", (int)k,
				    text + n, n + k == len ? " }" : "");
			}
			strcpy(tok[ntok++], "*");
			fill_tokens_width(want, tok[0], sizeof(tok[0]), ntok,
			    width);
			out = regularize_checked(in, CD_PGN_WIDTH(width),
			    NULL);
			mt = movetext(out);
			ck_assert_msg(strcmp(mt, want) == 0,
			    "width %zu, input\n%s\nexpected\n%s\nwritten\n%s",
			    width, in, want, mt);
			free(out);
		}
	}
}
END_TEST

/* Whether a column v of 1 to width + 2 is tried at width. */
static bool
near_ends(size_t v, size_t width)
{
	return width <= 21 || v <= 4 || v + 4 >= width || v % 7 == 0;
}

/*
 * A comment after one of every length from 1 to two past the width
 * (its first column 5 on, beyond the width too), and with a first word
 * of each such length, at widths 1 to 21 and a few wider (there the
 * lengths near the ends and every seventh): the first word fits after
 * the one before, just does not, or is longer than a line; the words
 * after it of 1 to 20 bytes and of exactly 15, 16 and the width (a cut
 * at each place of the writer's window of sixteen bytes).  Against the
 * plain greedy filler over the token list.
 */
START_TEST(test_fill_comment_columns)
{
	static const size_t widths[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
	    12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 24, 31, 32, 33, 40, 77,
	    78, 79, 80 };
	static char in[1024], want[2048], tok[200][256];
	size_t wi, lead, width, first, n, k, wl;

	for (wi = 0; wi < sizeof(widths) / sizeof(widths[0]); wi++) {
		width = widths[wi];
		for (lead = 1; lead <= width + 2; lead++) {
			for (first = 1; first <= width + 2; first++) {
				char *out, text[400];
				const char *mt;
				int ntok = 0;

				/* wider than 21: the ends, and every
				 * seventh between them */
				if (!near_ends(lead, width) ||
				    !near_ends(first, width))
					continue;

				/* the text: a first word of first bytes,
				 * then words, 300 bytes or more in all */
				memset(text, 'a', first);
				n = first;
				while (n < 300) {
					wl = rnd(4) == 0 ? 15 + rnd(2) :
					    rnd(8) == 0 ? width : 1 + rnd(20);
					text[n++] = ' ';
					for (k = 0; k < wl; k++)
						text[n++] = (char)('b' +
						    rnd(25));
				}
				text[n] = '\0';
				/* before it, a comment of one word of lead
				 * bytes: "{ x...x }" */
				memset(in, 'x', lead);
				snprintf(tok[ntok++], sizeof(tok[0]),
				    "{ %.*s }", (int)lead, in);
				snprintf(in, sizeof(in), "%s {%s} *",
				    tok[0], text);
				for (n = 0; text[n] != '\0'; n += k + 1) {
					k = strcspn(text + n, " ");
					snprintf(tok[ntok++], sizeof(tok[0]),
					    "%s%.*s%s", n == 0 ? "{ " : "",
					    (int)k, text + n, text[n + k] ==
					    '\0' ? " }" : "");
					if (text[n + k] == '\0')
						break;
				}
				strcpy(tok[ntok++], "*");
				fill_tokens_width(want, tok[0], sizeof(tok[0]),
				    ntok, width);
				out = regularize_checked(in,
				    CD_PGN_WIDTH(width), NULL);
				mt = movetext(out);
				ck_assert_msg(strcmp(mt, want) == 0,
				    "width %zu, input\n%s\nexpected\n%s\n"
				    "written\n%s", width, in, want, mt);
				free(out);
			}
		}
	}
}
END_TEST

/* The start of a random game of the filling tests: position i of four
 * (White or Black to move) at fullmove start into *b, its tag section
 * into in (of cap bytes); the section's length. */
static size_t
fill_game_start(cd_board *b, char *in, size_t cap, int i, unsigned start)
{
	static const char *fens[] = {
	    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
	    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq "
	    "- 0"),
	    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0",
	    "4k3/8/8/2q5/8/2N1N3/3B4/N1N1K2N w - - 0",
	};
	char fen[128];

	snprintf(fen, sizeof(fen), "%s %u", fens[i], start);
	ck_assert_int_eq(cd_fen_parse(b, fen, strlen(fen), 0, NULL), CD_OK);
	return (size_t)snprintf(in, cap, "[SetUp \"1\"]\n[FEN \"%s\"]\n\n",
	    fen);
}

/*
 * Random games, from either side to move and from move numbers on both
 * sides of 10, 100 and 1000, with NAGs and comments after random moves,
 * written in full and (without them) reduced form, against the greedy
 * filler over the token list: the writer's run of plain moves and its
 * general way take turns in every game, and must lay out the same.
 */
START_TEST(test_fill_moves_random)
{
	static const unsigned starts[] = { 1, 9, 10, 99, 100, 998, 999, 1000,
	    12345 };
	static char in[1 << 15], want[2][1 << 15], tok[2][1000][16];
	cd_move list[CD_MAX_MOVES];
	int round, plain = 0, marked = 0;

	for (round = 0; round < TU_ROUNDS(2000); round++) {
		unsigned start = starts[rnd(sizeof(starts) / sizeof(starts[0]))];
		int nt[2] = { 0, 0 }, ply, nplies = 1 + (int)rnd(160), r;
		bool need[2] = { true, true };
		char *out;
		size_t len;
		cd_board b;

		len = fill_game_start(&b, in, sizeof(in), round % 4, start);
		for (ply = 0; ply < nplies; ply++) {
			char san[CD_SAN_MAX];
			unsigned long num = b.fullmove;
			bool white = b.side == CD_WHITE;
			int n = cd_board_legal_moves(&b, list);
			cd_move m;

			if (n == 0)
				break;
			m = list[rnd((unsigned)n)];
			cd_san_write(&b, m, san);
			cd_board_make(&b, m);
			len += (size_t)snprintf(in + len, sizeof(in) - len,
			    "%s ", san);
			/* [0] full, [1] reduced */
			for (r = 0; r < 2; r++) {
				if (white || need[r])
					snprintf(tok[r][nt[r]++], 16, "%lu.%s",
					    num, white ? "" : "..");
				snprintf(tok[r][nt[r]++], 16, "%s", san);
				need[r] = false;
			}
			if (rnd(8) == 0) {
				unsigned nag = 1 + rnd(200);

				len += (size_t)snprintf(in + len, sizeof(in) -
				    len, "$%u ", nag);
				snprintf(tok[0][nt[0]++], 16, "$%u", nag);
				need[0] = true;
				marked++;
			}
			if (rnd(10) == 0) {
				len += (size_t)snprintf(in + len, sizeof(in) -
				    len, "{c} ");
				snprintf(tok[0][nt[0]++], 16, "{ c }");
				need[0] = true;
				marked++;
			} else {
				plain++;
			}
		}
		snprintf(in + len, sizeof(in) - len, "*");
		for (r = 0; r < 2; r++) {
			const char *mt;

			snprintf(tok[r][nt[r]++], 16, "*");
			fill_tokens(want[r], tok[r][0], sizeof(tok[r][0]),
			    nt[r]);
			out = regularize_checked(in, r ? CD_PGN_REDUCED : 0,
			    NULL);
			mt = movetext(out);
			ck_assert_msg(strcmp(mt, want[r]) == 0,
			    "%s form of\n%s\nexpected\n%s\nwritten\n%s",
			    r ? "reduced" : "full", in, want[r], mt);
			free(out);
		}
	}
	ck_assert_int_gt(plain, TU_ROUNDS(50000));
	ck_assert_int_gt(marked, TU_ROUNDS(10000));
}
END_TEST

/*
 * The usual export's moves two by two (a White move and Black's answer
 * stored at once when both go on the line), at widths from 1 to 100:
 * random games from White's and Black's first move, numbers of one to
 * four digits (a pair at 999, the count's end), the movetext's first
 * pair at column 0, and a NAG, a comment or a variation after either
 * move of a pair, against the plain greedy filler over the tokens.
 */
START_TEST(test_fill_pairs_random)
{
	static const unsigned starts[] = { 1, 9, 99, 997, 998, 999, 1000 };
	static const size_t widths[] = { 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12,
	    13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 31, 40, 77,
	    78, 79, 80, 100 };
	static char in[1 << 15], want[1 << 15], tok[1200][24];
	cd_move list[CD_MAX_MOVES];
	int round, marked = 0;

	for (round = 0; round < TU_ROUNDS(3000); round++) {
		unsigned start = starts[rnd(sizeof(starts) / sizeof(starts[0]))];
		size_t w = widths[rnd(sizeof(widths) / sizeof(widths[0]))];
		int nt = 0, ply, nplies = 1 + (int)rnd(60), marks = (int)rnd(3);
		bool need = true;
		char *out;
		size_t len;
		cd_board b;

		len = fill_game_start(&b, in, sizeof(in), round % 4, start);
		for (ply = 0; ply < nplies; ply++) {
			char san[CD_SAN_MAX], alt[CD_SAN_MAX];
			unsigned long num = b.fullmove;
			bool white = b.side == CD_WHITE;
			int n = cd_board_legal_moves(&b, list), k;
			cd_board before = b;
			cd_move m;

			if (n == 0)
				break;
			k = (int)rnd((unsigned)n);
			m = list[k];
			cd_san_write(&b, m, san);
			cd_board_make(&b, m);
			len += (size_t)snprintf(in + len, sizeof(in) - len,
			    "%s ", san);
			if (white || need)
				snprintf(tok[nt++], 24, "%lu.%s", num,
				    white ? "" : "..");
			snprintf(tok[nt++], 24, "%s", san);
			need = false;
			/* (marks 0: none; else one move in 4 or 12 marked) */
			if (marks == 0 || rnd(marks == 1 ? 4 : 12) != 0)
				continue;
			marked++;
			switch (rnd(3)) {
			case 0:
				len += (size_t)snprintf(in + len,
				    sizeof(in) - len, "$%u ", 1 + rnd(200));
				snprintf(tok[nt++], 24, "$%s",
				    strrchr(in, '$') + 1);
				tok[nt - 1][strlen(tok[nt - 1]) - 1] = '\0';
				break;
			case 1:
				len += (size_t)snprintf(in + len,
				    sizeof(in) - len, "{c} ");
				snprintf(tok[nt++], 24, "{ c }");
				break;
			default:
				if (n < 2) {
					len += (size_t)snprintf(in + len,
					    sizeof(in) - len, "{c} ");
					snprintf(tok[nt++], 24, "{ c }");
					break;
				}
				cd_san_write(&before, list[(k + 1) % n], alt);
				len += (size_t)snprintf(in + len,
				    sizeof(in) - len, "( %s ) ", alt);
				snprintf(tok[nt++], 24, "(");
				snprintf(tok[nt++], 24, "%lu.%s", num,
				    white ? "" : "..");
				snprintf(tok[nt++], 24, "%s", alt);
				snprintf(tok[nt++], 24, ")");
				break;
			}
			need = true;
		}
		snprintf(in + len, sizeof(in) - len, "*");
		snprintf(tok[nt++], 24, "*");
		fill_tokens_width(want, tok[0], sizeof(tok[0]), nt, w);
		out = regularize_checked(in, CD_PGN_WIDTH(w), NULL);
		ck_assert_msg(strcmp(movetext(out), want) == 0,
		    "width %zu:\n%s\nexpected\n%s\nwritten\n%s", w, in, want,
		    movetext(out));
		free(out);
	}
	ck_assert_int_gt(marked, TU_ROUNDS(3000));
}
END_TEST

/*
 * Tag names of every length from 1 to 40 beside the roster (the
 * writer copies a short one as sixteen bytes of the string store,
 * which may end right after it: an Annotator's value of 0 to 299 bytes
 * before them moves them over the store's end), one to three of them,
 * sorted: each line as written.  The names differ in their first byte,
 * or (from 3 bytes on) in their second (ninth from 10 bytes on) and
 * last in opposite orders: the sort's words of a name's first eight
 * bytes in byte order, and names alike in them told apart.
 */
START_TEST(test_tag_name_lengths)
{
	static const char roster[] = "[Event \"?\"]\n[Site \"?\"]\n"
	    "[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n"
	    "[Black \"?\"]\n[Result \"*\"]\n";
	static char pad[300];
	size_t len, k, i, j, v;

	memset(pad, 'a', sizeof(pad));
	for (v = 0; v < 300; v++)
	for (len = 1; len <= 40; len++) {
		for (k = 1; k <= 6; k++) {
			cd_game *g;
			cd_buf b = { 0 };
			char want[2048], name[3][48];
			bool shared = k > 3;
			size_t n, nk = shared ? k - 3 : k;

			if (shared && len < 3)
				continue;
			g = cd_game_new();
			ck_assert_ptr_nonnull(g);
			ck_assert_int_eq(cd_game_add_tag(g, "Annotator", 9, pad,
			    v), CD_OK);
			n = (size_t)snprintf(want, sizeof(want),
			    "%s[Annotator \"%.*s\"]\n", roster, (int)v, pad);
			/* added last first: "Z..." sorts after "Y...", or
			 * (shared) "XAX..XZ" before "XBX..XY" (from ten
			 * bytes on the ninth byte for the second) */
			for (i = 0; i < nk; i++) {
				if (shared) {
					memset(name[i], 'X', len);
					name[i][len < 10 ? 1 : 8] =
					    (char)('A' + i);
					name[i][len - 1] = (char)('Z' - i);
				} else {
					memset(name[i], 'X' + (int)i, len);
				}
				name[i][len] = '\0';
			}
			/* (shared: the second, the third, the first) */
			for (j = nk; j-- > 0;) {
				i = shared ? (nk - j) % nk : j;
				ck_assert_int_eq(cd_game_add_tag(g, name[i], len,
				    i == nk - 1 ? "" : "v", i == nk - 1 ? 0 : 1),
				    CD_OK);
			}
			for (i = 0; i < nk; i++)
				n += (size_t)snprintf(want + n,
				    sizeof(want) - n, "[%s \"%s\"]\n", name[i],
				    i == nk - 1 ? "" : "v");
			snprintf(want + n, sizeof(want) - n, "\n*\n\n");
			ck_assert_int_eq(cd_pgn_write_buf(g, 0, &b), CD_OK);
			ck_assert_msg(b.len == strlen(want) &&
			    memcmp(b.data, want, b.len) == 0,
			    "name of %zu, %zu tags:\n%.*s\nexpected\n%s", len,
			    nk, (int)b.len, b.data, want);
			cd_buf_free(&b);
			cd_game_free(g);
		}
	}
}
END_TEST

/*
 * Export order of many tags (the sort beyond the roster): for counts on
 * both sides of the writer's switch from insertion sort to qsort, names
 * added in a shuffled order, some of them prefixes of others, a value
 * repeated for a name (the last wins) and every one exported once, in
 * byte order after the seven roster tags.
 */
START_TEST(test_export_many_tags)
{
	static const size_t counts[] = { 1, 31, 32, 33, 34, 200, 5000 };
	cd_game *g = cd_game_new();
	cd_game_xtags xt = { 0 };
	unsigned long x = 2463534242UL;
	size_t c, i, n, *order;
	char name[32], value[32];

	ck_assert_ptr_nonnull(g);
	for (c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		n = counts[c];
		order = malloc(n * sizeof(*order));
		ck_assert_ptr_nonnull(order);
		for (i = 0; i < n; i++)
			order[i] = i;
		for (i = n; i > 1; i--) {	/* Fisher-Yates */
			size_t j, t;

			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			j = (size_t)(x % i);
			t = order[i - 1];
			order[i - 1] = order[j];
			order[j] = t;
		}
		cd_game_clear(g);
		for (i = 0; i < n; i++) {
			/* "T7", "T70", "T700": prefixes of one another */
			int nl = snprintf(name, sizeof(name), "T%zu",
			    order[i]);
			int vl = snprintf(value, sizeof(value), "old");

			ck_assert_int_eq(cd_game_add_tag(g, name, (size_t)nl,
			    value, (size_t)vl), CD_OK);
		}
		for (i = 0; i < n; i++) {
			int nl = snprintf(name, sizeof(name), "T%zu", i);
			int vl = snprintf(value, sizeof(value), "v%zu", i);

			ck_assert_int_eq(cd_game_add_tag(g, name, (size_t)nl,
			    value, (size_t)vl), CD_OK);
		}
		ck_assert_int_eq(cd_game_export_tags(g, 0, &xt), CD_OK);
		ck_assert_uint_eq(xt.n, 7 + n);
		for (i = 7; i < xt.n; i++) {
			ck_assert_str_eq(xt.tags[i].value + 1,
			    xt.tags[i].name + 1);
			if (i > 7) {
				size_t a = xt.tags[i - 1].name_len;
				size_t b = xt.tags[i].name_len;
				int d = memcmp(xt.tags[i - 1].name,
				    xt.tags[i].name, a < b ? a : b);

				ck_assert_msg(d < 0 || (d == 0 && a < b),
				    "%zu tags: %s before %s", n,
				    xt.tags[i - 1].name, xt.tags[i].name);
			}
		}
		free(order);
	}
	cd_game_xtags_free(&xt);
	cd_game_free(g);
}
END_TEST

static Suite *
pgn_suite(void)
{
	Suite *s = suite_create("pgn");
	TCase *tc;

	tc = tcase_create("accept");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_movetext, 0,
	    (int)(sizeof(mcases) / sizeof(mcases[0])));
	tcase_add_loop_test(tc, test_whole, 0,
	    (int)(sizeof(wcases) / sizeof(wcases[0])));
	tcase_add_test(tc, test_fill);
	tcase_add_test(tc, test_fill_number);
	tcase_add_test(tc, test_fill_widths);
	tcase_add_test(tc, test_big_numbers);
	tcase_add_test(tc, test_long_word);
	tcase_add_test(tc, test_big);
	tcase_add_test(tc, test_fill_random);
	tcase_add_test(tc, test_fill_comment_widths);
	tcase_add_test(tc, test_fill_comment_columns);
	tcase_add_test(tc, test_fill_moves_random);
	tcase_add_test(tc, test_fill_pairs_random);
	tcase_add_test(tc, test_tag_name_lengths);
	suite_add_tcase(s, tc);

	tc = tcase_create("reject");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_reject, 0,
	    (int)(sizeof(rcases) / sizeof(rcases[0])));
	tcase_add_test(tc, test_reduced_null);
	suite_add_tcase(s, tc);

	tc = tcase_create("warn");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_warnings, 0,
	    (int)(sizeof(wncases) / sizeof(wncases[0])));
	suite_add_tcase(s, tc);

	tc = tcase_create("model");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_builder);
	tcase_add_test(tc, test_builder_start);
	tcase_add_test(tc, test_builder_after_parse);
	tcase_add_test(tc, test_deep);
	tcase_add_test(tc, test_many_notes);
	tcase_add_test(tc, test_stream);
	tcase_add_test(tc, test_stream_many_tags);
	tcase_add_test(tc, test_raw_copy_tags);
	tcase_add_test(tc, test_raw_copied);
	tcase_add_test(tc, test_raw_block_lookalike);
	tcase_add_test(tc, test_random_games);
	tcase_add_loop_test(tc, test_fast_san_nodes, 0,
	    (int)(sizeof(fast_nodes) / sizeof(fast_nodes[0])));
	tcase_add_loop_test(tc, test_fast_king_steps, 0,
	    (int)(sizeof(king_steps) / sizeof(king_steps[0])));
	tcase_add_loop_test(tc, test_line_pins, 0,
	    (int)(sizeof(line_pins) / sizeof(line_pins[0])));
	tcase_add_loop_test(tc, test_fast_castle_make, 0,
	    (int)(sizeof(castle_makes) / sizeof(castle_makes[0])));
	tcase_add_loop_test(tc, test_keyless_line, 0, TU_ROUNDS(400));
	tcase_add_loop_test(tc, test_keyless_ep, 0,
	    (int)(sizeof(keyless_ep) / sizeof(keyless_ep[0])));
	tcase_add_loop_test(tc, test_fast_make_class, 0,
	    (int)(sizeof(fast_makes) / sizeof(fast_makes[0])));
	tcase_add_test(tc, test_fast_bad_square);
	tcase_add_loop_test(tc, test_fast_blocked, 0,
	    (int)(sizeof(fast_blocked) / sizeof(fast_blocked[0])));
	tcase_add_test(tc, test_random_tokens);
	tcase_add_test(tc, test_positions_random);
	tcase_add_test(tc, test_tags_random);
	tcase_add_test(tc, test_tag_block_random);
	tcase_add_test(tc, test_tag_block_roster);
	tcase_add_test(tc, test_tag_block_again);
	tcase_add_test(tc, test_write_usual_paths);
	tcase_add_test(tc, test_parse_routes);
	tcase_add_test(tc, test_tag_section_roster_first);
	tcase_add_test(tc, test_tag_section_escape);
	tcase_add_test(tc, test_start_reset);
	tcase_add_test(tc, test_export_many_tags);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);

	/* the comment folder's SIMD code against the reference, and the
	 * parser's look for notes in a tag section (check-sse2.sh runs this
	 * case once more without AVX2) */
	tc = tcase_create("simd");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_tag_section_notes);
	tcase_add_test(tc, test_tag_section_bare);
	tcase_add_test(tc, test_fast_marker);
	tcase_add_test(tc, test_start_pins);
	tcase_add_test(tc, test_fast_word_end);
	tcase_add_test(tc, test_move_run);
	tcase_add_test(tc, test_move_run_bytes);
	tcase_add_test(tc, test_move_run_places);
	tcase_add_test(tc, test_fold_random);
	tcase_add_test(tc, test_plain_comment_random);
	tcase_add_test(tc, test_fold_page_end);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}

TU_SUITES(pgn_suite);
