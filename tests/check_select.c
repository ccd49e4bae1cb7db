/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_select.c: the condition engine: every kind of condition read
 * from text (and the texts that must not read), matched on a raw
 * game's tags and on a parsed game's main line.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chessdata.h"
#include "check-main.h"

static const char game_text[] =
    "[Event \"Wch\"]\n[Site \"Reykjavik\"]\n[Date \"1972.07.23\"]\n"
    "[Round \"6.2\"]\n[White \"Fischer, Robert J.\"]\n"
    "[Black \"Spassky, Boris V.\"]\n[Result \"1-0\"]\n"
    "[WhiteElo \"2785\"]\n[BlackElo \"2660\"]\n[ECO \"D59\"]\n"
    "[EventDate \"1972.??.??\"]\n[Annotator \"\"]\n[BlackFideId \"?\"]\n\n"
    "1. c4 e6 2. Nf3 d5 1-0\n";

struct tag_case {
	cd_select_kind kind;
	const char *text;
	unsigned flags;
	bool want;
};

static const struct tag_case tag_cases[] = {
	{ CD_SEL_TAG, "WhiteElo>=2600", 0, true },
	{ CD_SEL_TAG, "WhiteElo >= 2786", 0, false },
	{ CD_SEL_TAG, "  BlackElo < 2700", 0, true },
	{ CD_SEL_TAG, "BlackElo<=2660", 0, true },
	{ CD_SEL_TAG, "BlackElo>2660", 0, false },
	{ CD_SEL_TAG, "WhiteElo=2785", 0, true },
	{ CD_SEL_TAG, "WhiteElo!=2785", 0, false },
	/* numbers, not bytes: "2785" < "900" in byte order */
	{ CD_SEL_TAG, "WhiteElo>900", 0, true },
	/* no number is no rating: never above or below one */
	{ CD_SEL_TAG, "BlackFideId>=1", 0, false },
	{ CD_SEL_TAG, "BlackFideId<1", 0, false },
	{ CD_SEL_TAG, "BlackFideId!=1", 0, true },
	{ CD_SEL_TAG, "BlackFideId=?", 0, true },
	{ CD_SEL_TAG, "BlackFideId>=+", 0, true },
	{ CD_SEL_TAG, "Event=Wch", 0, true },
	{ CD_SEL_TAG, "Event=wch", 0, false },
	{ CD_SEL_TAG, "Event=wch", CD_SELECT_ICASE, true },
	{ CD_SEL_TAG, "Event!=wch", CD_SELECT_ICASE, false },
	{ CD_SEL_TAG, "Event<Wcha", 0, true },
	{ CD_SEL_TAG, "Event>W", 0, true },
	{ CD_SEL_TAG, "Site~^Rey", 0, true },
	{ CD_SEL_TAG, "Site~^rey", 0, false },
	{ CD_SEL_TAG, "Site~^rey", CD_SELECT_ICASE, true },
	{ CD_SEL_TAG, "Site!~vik$", 0, false },
	{ CD_SEL_TAG, "Site !~ ^X", 0, true },
	/* a missing tag fails all but != and !~ */
	{ CD_SEL_TAG, "Opening=x", 0, false },
	{ CD_SEL_TAG, "Opening<x", 0, false },
	{ CD_SEL_TAG, "Opening~.*", 0, false },
	{ CD_SEL_TAG, "Opening!=x", 0, true },
	{ CD_SEL_TAG, "Opening!~x", 0, true },
	/* an empty value is present */
	{ CD_SEL_TAG, "Annotator=", 0, true },
	{ CD_SEL_TAG, "Annotator~^$", 0, true },
	/* dates: a partial value is its whole span */
	{ CD_SEL_TAG, "Date=1972", 0, true },
	{ CD_SEL_TAG, "Date=1972.??.??", 0, true },
	{ CD_SEL_TAG, "Date=1972.07", 0, true },
	{ CD_SEL_TAG, "Date=1972.08", 0, false },
	{ CD_SEL_TAG, "Date=1972.07.23", 0, true },
	{ CD_SEL_TAG, "Date=1972.07.24", 0, false },
	{ CD_SEL_TAG, "Date<1972", 0, false },
	{ CD_SEL_TAG, "Date<1973", 0, true },
	{ CD_SEL_TAG, "Date<=1972", 0, true },
	{ CD_SEL_TAG, "Date>1971", 0, true },
	{ CD_SEL_TAG, "Date>1972", 0, false },
	{ CD_SEL_TAG, "Date>=1972", 0, true },
	{ CD_SEL_TAG, "Date>=1972.07.24", 0, false },
	{ CD_SEL_TAG, "Date!=1972", 0, false },
	{ CD_SEL_TAG, "Date=197?", 0, true },
	{ CD_SEL_TAG, "Date=19??.07", 0, true },
	{ CD_SEL_TAG, "EventDate=1972", 0, true },
	{ CD_SEL_TAG, "EventDate>=1972.01.01", 0, false },
	/* rounds in the collating order */
	{ CD_SEL_TAG, "Round>6", 0, true },
	{ CD_SEL_TAG, "Round<6.10", 0, true },
	{ CD_SEL_TAG, "Round=6.2", 0, true },
	{ CD_SEL_TAG, "Round>=7", 0, false },
	{ CD_SEL_PLAYER, "Spassky", 0, true },
	{ CD_SEL_PLAYER, "^Fischer", 0, true },
	{ CD_SEL_PLAYER, "fischer", 0, false },
	{ CD_SEL_PLAYER, "fischer", CD_SELECT_ICASE, true },
	{ CD_SEL_PLAYER, "Tal", 0, false },
	{ CD_SEL_WHITE, "Fischer", 0, true },
	{ CD_SEL_WHITE, "Spassky", 0, false },
	{ CD_SEL_BLACK, "Spassky|Tal", 0, true },
	{ CD_SEL_BLACK, "Fischer", 0, false },
	{ CD_SEL_ECO, "D59", 0, true },
	{ CD_SEL_ECO, "A00-D58", 0, false },
	{ CD_SEL_ECO, "A00-B99,D50-D69", 0, true },
	{ CD_SEL_ECO, "D60-E99", 0, false },
	{ CD_SEL_RESULT, "1-0", 0, true },
	{ CD_SEL_RESULT, "0-1,1/2-1/2", 0, false },
	{ CD_SEL_RESULT, "*,1-0", 0, true },
	/* integers of any length compare as numbers */
	{ CD_SEL_TAG, "WhiteElo>99999999999999999998", 0, false },
	{ CD_SEL_TAG, "WhiteElo<99999999999999999998", 0, true },
	{ CD_SEL_TAG, "WhiteElo>-99999999999999999999", 0, true },
	{ CD_SEL_TAG, "WhiteElo=+0002785", 0, true },
	{ CD_SEL_TAG, "BlackFideId>99999999999999999998", 0, false },
	/* blanks at the ends are left out */
	{ CD_SEL_TAG, "WhiteElo>= 2600 ", 0, true },
	{ CD_SEL_TAG, "Event = Wch\t", 0, true },
	/* --where: and, or, not, (), quoted strings */
	{ CD_SEL_WHERE, "(White ~ Fischer or Black ~ Fischer) and "
	  "not Result = \"1/2-1/2\"", 0, true },
	{ CD_SEL_WHERE, "(White ~ Tal or Black ~ Tal) and "
	  "not Result = \"1/2-1/2\"", 0, false },
	{ CD_SEL_WHERE, "WhiteElo > 2800 or BlackElo > 2600", 0, true },
	{ CD_SEL_WHERE, "WhiteElo > 2800 or BlackElo > 2700", 0, false },
	{ CD_SEL_WHERE, "not (Event = Wch)", 0, false },
	{ CD_SEL_WHERE, "not(Event=Wch)or(Site=Reykjavik)", 0, true },
	{ CD_SEL_WHERE, "White = \"Fischer, Robert J.\"", 0, true },
	{ CD_SEL_WHERE, "White = \"Fischer\"", 0, false },
	{ CD_SEL_WHERE, "Event=Wch and Site~^X or Date=1972", 0, true },
	{ CD_SEL_WHERE, "Event=Wch and (Site~^X or Date=1973)", 0, false },
	{ CD_SEL_WHERE, "not not Round = 6.2", 0, true },
	{ CD_SEL_WHERE, "Annotator = \"\"", 0, true },
	/* \\ in a quoted string is one backslash: the regex \. */
	{ CD_SEL_WHERE, "White ~ \"\\\\.\"", 0, true },
	{ CD_SEL_WHERE, "Event ~ \"\\\\.\"", 0, false },
	{ CD_SEL_WHERE, "event = wch", CD_SELECT_ICASE, false },
	{ CD_SEL_WHERE, "Event = wch", CD_SELECT_ICASE, true },
	/* the winner and loser by the result */
	{ CD_SEL_WINNER, "Fischer", 0, true },
	{ CD_SEL_WINNER, "Spassky", 0, false },
	{ CD_SEL_LOSER, "Spassky", 0, true },
	{ CD_SEL_LOSER, "Fischer", 0, false },
};

/* The result a tool reads: the marker, else the tag, else `*`. */
static const struct {
	const char *text;
	cd_pgn_result want;
} result_cases[] = {
	{ "[Result \"1-0\"]\n\n1. e4 0-1\n", CD_PGN_RESULT_BLACK },
	{ "[Result \"1/2\"]\n\n1. e4\n", CD_PGN_RESULT_DRAW },
	{ "[Result \"1-0\"]\n\n1. e4\n", CD_PGN_RESULT_WHITE },
	{ "[Result \"?\"]\n\n1. e4\n", CD_PGN_RESULT_UNKNOWN },
	{ "[White \"x\"]\n\n1. e4\n", CD_PGN_RESULT_UNKNOWN },
	{ "[White \"x\"]\n\n1. e4 \xc2\xbd-\xc2\xbd\n", CD_PGN_RESULT_DRAW },
};

/* The raw game's result and the parsed game's are one, and what
 * CD_SEL_RESULT and CD_SEL_WINNER read. */
START_TEST(test_result)
{
	const char *text = result_cases[_i].text;
	cd_pgn_reader *r = cd_pgn_reader_new_mem(text, strlen(text));
	cd_pgn_raw_game g;
	cd_game *pg = cd_game_new();
	cd_select *s = cd_select_new(0);
	char list[16];

	ck_assert_int_eq(cd_pgn_reader_next(r, &g), CD_OK);
	ck_assert_int_eq(cd_pgn_raw_result(&g), result_cases[_i].want);
	ck_assert_int_eq(cd_pgn_parse(pg, &g, NULL, NULL), CD_OK);
	ck_assert_int_eq(cd_game_result(pg), result_cases[_i].want);
	snprintf(list, sizeof(list), "%s",
	    cd_pgn_result_str(result_cases[_i].want));
	ck_assert_int_eq(cd_select_add(s, CD_SEL_RESULT, list, NULL), CD_OK);
	ck_assert(cd_select_match_tags(s, &g));
	cd_select_free(s);
	cd_game_free(pg);
	cd_pgn_reader_free(r);
}
END_TEST

/* The tag names conditions name, each once; game numbers. */
START_TEST(test_names_numbers)
{
	cd_select *s = cd_select_new(0);

	ck_assert_ptr_null(cd_select_tag_name(s, 0));
	ck_assert_int_eq(cd_select_add(s, CD_SEL_TAG, "WhiteELO>=2000", NULL),
	    CD_OK);
	ck_assert_int_eq(cd_select_add(s, CD_SEL_WHERE,
	    "WhiteELO<3000 or (Opening ~ x and not Event=y)", NULL), CD_OK);
	ck_assert_str_eq(cd_select_tag_name(s, 0), "WhiteELO");
	ck_assert_str_eq(cd_select_tag_name(s, 1), "Opening");
	ck_assert_str_eq(cd_select_tag_name(s, 2), "Event");
	ck_assert_ptr_null(cd_select_tag_name(s, 3));
	ck_assert(cd_select_match_number(s, 7));
	ck_assert_uint_eq(cd_select_last_number(s), UINT64_MAX);
	ck_assert_int_eq(cd_select_add(s, CD_SEL_GAMES, "3-5,9", NULL), CD_OK);
	ck_assert_int_eq(cd_select_add(s, CD_SEL_GAMES, "1", NULL), CD_OK);
	ck_assert(cd_select_match_number(s, 1));
	ck_assert(!cd_select_match_number(s, 2));
	ck_assert(cd_select_match_number(s, 5));
	ck_assert(!cd_select_match_number(s, 6));
	ck_assert(cd_select_match_number(s, 9));
	ck_assert(!cd_select_match_number(s, 10));
	ck_assert_uint_eq(cd_select_last_number(s), 9);
	ck_assert_int_eq(cd_select_add(s, CD_SEL_GAMES, "100-", NULL), CD_OK);
	ck_assert(cd_select_match_number(s, UINT64_MAX));
	ck_assert_uint_eq(cd_select_last_number(s), UINT64_MAX);
	cd_select_free(s);
}
END_TEST

static cd_pgn_reader *reader;
static cd_pgn_raw_game raw;

static void
raw_setup(void)
{
	reader = cd_pgn_reader_new_mem(game_text, sizeof(game_text) - 1);
	ck_assert_ptr_nonnull(reader);
	ck_assert_int_eq(cd_pgn_reader_next(reader, &raw), CD_OK);
}

static void
raw_teardown(void)
{
	cd_pgn_reader_free(reader);
}

START_TEST(test_tags)
{
	const struct tag_case *c = &tag_cases[_i];
	cd_select *s = cd_select_new(c->flags);
	cd_error why;

	ck_assert_ptr_nonnull(s);
	ck_assert_msg(cd_select_add(s, c->kind, c->text, &why) == CD_OK,
	    "%s: %s", c->text, why.msg);
	ck_assert(cd_select_has_tag_conditions(s));
	ck_assert(!cd_select_needs_moves(s));
	ck_assert_msg(cd_select_match_tags(s, &raw) == c->want,
	    "%s: want %d", c->text, c->want);
	cd_select_free(s);
}
END_TEST

/* All conditions must hold; none at all selects everything. */
START_TEST(test_and)
{
	cd_select *s = cd_select_new(0);

	ck_assert(cd_select_match_tags(s, &raw));
	ck_assert_int_eq(cd_select_add(s, CD_SEL_TAG, "WhiteElo>2700", NULL),
	    CD_OK);
	ck_assert_int_eq(cd_select_add(s, CD_SEL_PLAYER, "Spassky", NULL),
	    CD_OK);
	ck_assert(cd_select_match_tags(s, &raw));
	ck_assert_int_eq(cd_select_add(s, CD_SEL_ECO, "A00", NULL), CD_OK);
	ck_assert(!cd_select_match_tags(s, &raw));
	cd_select_free(s);
}
END_TEST

struct bad_case {
	cd_select_kind kind;
	const char *text;
};

static const struct bad_case bad_cases[] = {
	{ CD_SEL_TAG, "WhiteElo" },
	{ CD_SEL_TAG, ">=2600" },
	{ CD_SEL_TAG, "White~(" },
	{ CD_SEL_PLAYER, "a[" },
	{ CD_SEL_ECO, "F00" },
	{ CD_SEL_ECO, "B99-A00" },
	{ CD_SEL_ECO, "A0" },
	{ CD_SEL_ECO, "A00," },
	{ CD_SEL_RESULT, "2-0" },
	{ CD_SEL_RESULT, "" },
	{ CD_SEL_PLIES, "" },
	{ CD_SEL_PLIES, ".." },
	{ CD_SEL_PLIES, "10..5" },
	{ CD_SEL_PLIES, "x" },
	{ CD_SEL_PLIES, "-1" },
	{ CD_SEL_PLIES, "5...9" },
	{ CD_SEL_POSITION, "rnbqkbnr/pppppppp/8 w" },
	{ CD_SEL_POSITION, "8/8/8/8/8/8/8/8 w - -" },
	{ CD_SEL_MATERIAL, "" },
	{ CD_SEL_MATERIAL, "KRx" },
	{ CD_SEL_MATERIAL, "*K" },
	{ CD_SEL_ENDS, "mate" },
	{ CD_SEL_ENDS, "checkmate," },
	/* operators followed by more operator characters */
	{ CD_SEL_TAG, "WhiteElo==2600" },
	{ CD_SEL_TAG, "WhiteElo =>2600" },
	{ CD_SEL_TAG, "Opening=~Sicilian" },
	{ CD_SEL_MATERIAL, "KKRkr" },
	{ CD_SEL_MATERIAL, "KRP**kr" },
	{ CD_SEL_MATERIAL, "K*Rkr" },
	{ CD_SEL_WHERE, "" },
	{ CD_SEL_WHERE, "White ~" },
	{ CD_SEL_WHERE, "(White=x" },
	{ CD_SEL_WHERE, "White=x)" },
	{ CD_SEL_WHERE, "White=x and" },
	{ CD_SEL_WHERE, "White=x or or Black=y" },
	{ CD_SEL_WHERE, "White=\"x" },
	{ CD_SEL_WHERE, "White x" },
	{ CD_SEL_WHERE, "White==x" },
	{ CD_SEL_WHERE, "White~(" },
	{ CD_SEL_WINNER, "a[" },
	{ CD_SEL_GAMES, "" },
	{ CD_SEL_GAMES, "0" },
	{ CD_SEL_GAMES, "5-3" },
	{ CD_SEL_GAMES, "x" },
	{ CD_SEL_GAMES, "1," },
	{ CD_SEL_GAMES, "-5" },
	{ CD_SEL_PLACEMENT, "8/8/8" },
	{ CD_SEL_PLACEMENT, "9/8/8/8/8/8/8/8" },
	{ CD_SEL_PLACEMENT, "8/8/8/8/8/8/8/8 w" },
	{ CD_SEL_PLACEMENT, "8/8/8/8/8/8/8/7??" },
	{ CD_SEL_MOVES, "" },
	{ CD_SEL_MOVES, "1. e5" },
	{ CD_SEL_MOVES, "1. e4 e5 2. Ke3" },
	{ CD_SEL_OCCURS, "mate" },
	{ CD_SEL_OCCURS, "check,," },
	{ (cd_select_kind)99, "x" },
};

START_TEST(test_bad)
{
	const struct bad_case *c = &bad_cases[_i];
	cd_select *s = cd_select_new(0);
	cd_error why;

	ck_assert_msg(cd_select_add(s, c->kind, c->text, &why) < 0,
	    "%s: read", c->text);
	ck_assert(why.msg[0] != '\0');
	/* nothing was added */
	ck_assert(!cd_select_has_tag_conditions(s));
	ck_assert(!cd_select_needs_moves(s));
	cd_select_free(s);
}
END_TEST

/* 1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6, then a trade to
 * a rook ending, a repetition, and a draw. */
static const char moves_text[] =
    "[FEN \"4k3/pp3r2/8/8/8/8/PP3R2/4K3 w - - 0 30\"]\n\n"
    "30. Rf3 Rf6 31. Rf2 Rf7 32. Rxf7 Kxf7 33. Kd2 Ke7 34. Ke1 Ke8 "
    "35. Kd2 Ke7 36. Ke1 Ke8 37. Kd2 Ke7 38. Ke1 Ke8 1/2-1/2\n";

static const char najdorf[] =
    "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 *";

struct move_case {
	const char *game;
	cd_select_kind kind;
	const char *text;
	bool want;
};

static const struct move_case move_cases[] = {
	{ najdorf, CD_SEL_PLIES, "10", true },
	{ najdorf, CD_SEL_PLIES, "11", false },
	{ najdorf, CD_SEL_PLIES, "..10", true },
	{ najdorf, CD_SEL_PLIES, "11..", false },
	{ najdorf, CD_SEL_PLIES, "5..20", true },
	{ najdorf, CD_SEL_POSITION,
	  "rnbqkbnr/pp2pppp/3p4/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -", true },
	/* the same with clocks, and with an en passant square that no
	 * capture can use (so it does not count) */
	{ najdorf, CD_SEL_POSITION,
	  "rnbqkbnr/pp2pppp/3p4/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3",
	  true },
	{ najdorf, CD_SEL_POSITION,
	  "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6", true },
	/* the same pieces, Black to move: not reached */
	{ najdorf, CD_SEL_POSITION,
	  "rnbqkbnr/pp2pppp/3p4/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq -", false },
	/* without castling rights: not reached */
	{ najdorf, CD_SEL_POSITION,
	  "rnbqkbnr/pp2pppp/3p4/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R w - -", false },
	/* the start position counts */
	{ najdorf, CD_SEL_POSITION,
	  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", true },
	{ najdorf, CD_SEL_MATERIAL, "KQRRBBNNPPPPPPPkqrrbbnnpppppppp", true },
	{ najdorf, CD_SEL_MATERIAL, "QRRBBNNPPPPPPPqrrbbnnppppppp", true },
	{ najdorf, CD_SEL_MATERIAL, "KQRRBBNNP*kqrrbbnnp*", true },
	{ najdorf, CD_SEL_MATERIAL, "KRk", false },
	{ najdorf, CD_SEL_ENDS, "checkmate,stalemate,dead,fifty,threefold",
	  false },
	{ moves_text, CD_SEL_MATERIAL, "KRPPkrpp", true },
	{ moves_text, CD_SEL_MATERIAL, "KPPkpp", true },
	{ moves_text, CD_SEL_MATERIAL, "kppKPP", true },
	{ moves_text, CD_SEL_MATERIAL, "KPkpp", false },
	{ moves_text, CD_SEL_MATERIAL, "KRkr", false },
	{ moves_text, CD_SEL_MATERIAL, "KRP*kr", false },
	{ moves_text, CD_SEL_MATERIAL, "KRP*krp*", true },
	{ moves_text, CD_SEL_MATERIAL, "KP*kp*", true },
	{ moves_text, CD_SEL_MATERIAL, "KPP*kpp", true },
	{ moves_text, CD_SEL_MATERIAL, "KPPP*kp*", true },
	{ moves_text, CD_SEL_MATERIAL, "KPPPP*kp*", false },
	/* P* is none too: the rook ending without pawns */
	{ "[FEN \"4k3/5r2/8/8/8/8/5R2/4K3 w - - 0 1\"]\n\n1. Kd1 *",
	  CD_SEL_MATERIAL, "KRP*krp*", true },
	/* move prefixes from the standard start */
	{ najdorf, CD_SEL_MOVES, "1. e4 c5 2. Nf3", true },
	{ najdorf, CD_SEL_MOVES, "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6", true },
	{ najdorf, CD_SEL_MOVES, "1.e4 c5 2.Ng1f3", true },
	{ najdorf, CD_SEL_MOVES, "1. e4 e5", false },
	{ najdorf, CD_SEL_MOVES, "1. d4", false },
	{ najdorf, CD_SEL_MOVES, "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 "
	  "5. Nc3 a6 6. Be3", false },
	{ moves_text, CD_SEL_MOVES, "1. e4", false },
	/* placements, ? any square, either side to move */
	{ najdorf, CD_SEL_PLACEMENT,
	  "rnbqkbnr/pp2pppp/3p4/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R", true },
	{ najdorf, CD_SEL_PLACEMENT,
	  "????????/????????/????????/????????/???N????/????????/????????/"
	  "????????", true },
	{ najdorf, CD_SEL_PLACEMENT,
	  "????????/????????/????????/???N????/????????/????????/????????/"
	  "????????", false },
	{ najdorf, CD_SEL_PLACEMENT,
	  "????????/????????/????????/????????/???1????/????????/????????/"
	  "????????", true },
	{ moves_text, CD_SEL_PLACEMENT,
	  "????????/?????r??/8/8/8/8/????????/????????", true },
	{ moves_text, CD_SEL_PLACEMENT,
	  "?????R??/????????/????????/????????/????????/????????/????????/"
	  "????????", false },
	/* events anywhere in the main line */
	{ moves_text, CD_SEL_OCCURS, "threefold", true },
	{ moves_text, CD_SEL_OCCURS, "fivefold", false },
	{ moves_text, CD_SEL_OCCURS, "check,underpromotion,fifty", false },
	{ "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0", CD_SEL_OCCURS,
	  "check", true },
	{ najdorf, CD_SEL_OCCURS, "check", false },
	{ "[FEN \"8/P6k/8/8/8/8/8/K7 w - - 0 1\"]\n\n1. a8=R *",
	  CD_SEL_OCCURS, "underpromotion", true },
	{ "[FEN \"8/P6k/8/8/8/8/8/K7 w - - 0 1\"]\n\n1. a8=Q *",
	  CD_SEL_OCCURS, "underpromotion", false },
	/* the threefold passed, the game went on */
	{ "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 *",
	  CD_SEL_OCCURS, "threefold", true },
	{ "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 *",
	  CD_SEL_ENDS, "threefold", false },
	{ "[FEN \"k7/8/1K6/8/8/8/P7/7R w - - 97 80\"]\n\n80. Rh2 Kb8 "
	  "81. a4 *", CD_SEL_OCCURS, "fifty", false },
	{ "[FEN \"k7/8/1K6/8/8/8/8/7R w - - 98 80\"]\n\n80. Rh2 Kb8 "
	  "81. Rh3 *", CD_SEL_OCCURS, "fifty", true },
	{ "[FEN \"k7/8/1K6/8/8/8/8/7R w - - 98 80\"]\n\n80. Rh2 Kb8 "
	  "81. Rh3 *", CD_SEL_OCCURS, "seventyfive", false },
	{ "[FEN \"k7/8/1K6/8/8/8/8/7R w - - 148 80\"]\n\n80. Rh2 Kb8 "
	  "81. Rh3 *", CD_SEL_OCCURS, "seventyfive", true },
	/* results the Laws contradict */
	{ "1. f3 e5 2. g4 Qh4# 0-1", CD_SEL_WRONG_RESULT, "", false },
	{ "1. f3 e5 2. g4 Qh4# 1/2-1/2", CD_SEL_WRONG_RESULT, "", true },
	{ "1. f3 e5 2. g4 Qh4# 1-0", CD_SEL_WRONG_RESULT, "", true },
	{ "1. f3 e5 2. g4 Qh4# *", CD_SEL_WRONG_RESULT, "", false },
	{ "[FEN \"k7/8/8/8/8/8/8/K1Q5 w - - 0 1\"]\n\n1. Qc7 1-0",
	  CD_SEL_WRONG_RESULT, "", true },
	{ "[FEN \"k7/8/8/8/8/8/8/K1Q5 w - - 0 1\"]\n\n1. Qc7 1/2-1/2",
	  CD_SEL_WRONG_RESULT, "", false },
	{ "[FEN \"k7/8/8/8/8/8/1b6/K7 w - - 0 1\"]\n\n1. Kxb2 1-0",
	  CD_SEL_WRONG_RESULT, "", true },
	/* a win for a side that cannot mate: wrong on time (FIDE 6.9), not
	 * by resignation (5.1.2) */
	{ "[FEN \"k7/8/8/8/8/8/8/KN5q w - - 0 1\"]\n[Termination \"time "
	  "forfeit\"]\n\n1. Kb2 1-0", CD_SEL_WRONG_RESULT, "", true },
	{ "[FEN \"k7/8/8/8/8/8/8/KN5q w - - 0 1\"]\n\n1. Kb2 1-0",
	  CD_SEL_WRONG_RESULT, "", false },
	{ "[FEN \"k7/8/8/8/8/8/8/KN5q w - - 0 1\"]\n\n1. Kb2 0-1",
	  CD_SEL_WRONG_RESULT, "", false },
	{ "[FEN \"k7/8/8/8/8/8/p7/KN6 w - - 0 1\"]\n\n1. Nc3 1-0",
	  CD_SEL_WRONG_RESULT, "", false },
	{ "[FEN \"k7/8/8/8/8/8/8/KR6 b - - 0 1\"]\n\n1... Ka7 0-1",
	  CD_SEL_WRONG_RESULT, "", false },
	{ "[FEN \"k7/8/8/8/8/8/8/KR6 b - - 0 1\"]\n[Termination \"Time "
	  "forfeit\"]\n\n1... Ka7 0-1", CD_SEL_WRONG_RESULT, "", true },
	{ "[FEN \"k7/8/8/8/8/8/8/KB5r w - - 0 1\"]\n[Termination \"Judit "
	  "won on time\"]\n\n1. Kb2 1-0", CD_SEL_WRONG_RESULT, "", true },
	{ "[FEN \"k7/8/8/8/8/8/8/KB5r w - - 0 1\"]\n[Termination \"Judit "
	  "won by resignation\"]\n\n1. Kb2 1-0", CD_SEL_WRONG_RESULT, "",
	  false },
	{ "[FEN \"k7/8/8/8/8/8/8/KB5n w - - 0 1\"]\n\n1. Kb2 1-0",
	  CD_SEL_WRONG_RESULT, "", false },
	{ "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 "
	  "7. Nf3 Nf6 8. Ng1 Ng8 1-0", CD_SEL_WRONG_RESULT, "", true },
	{ "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1-0",
	  CD_SEL_WRONG_RESULT, "", false },
		{ moves_text, CD_SEL_ENDS, "threefold", true },
	{ moves_text, CD_SEL_ENDS, "fivefold", false },
	{ moves_text, CD_SEL_ENDS, "dead,threefold", true },
	{ moves_text, CD_SEL_ENDS, "dead", false },
	{ moves_text, CD_SEL_PLIES, "18", true },
	/* variations: the final position is the main line's */
	{ "1. e4 (1. d4 d5) e5 2. Nf3 (2. f4 exf4) *", CD_SEL_POSITION,
	  "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq -", true },
	{ "1. e4 (1. d4 d5) e5 2. Nf3 (2. f4 exf4) *", CD_SEL_POSITION,
	  "rnbqkbnr/pppp1ppp/8/4p3/4PP2/8/PPPP2PP/RNBQKBNR b KQkq -", false },
	{ "1. e4 (1. d4 d5) e5 2. Nf3 (2. f4 exf4) *", CD_SEL_PLIES, "3", true },
	{ "1. e4 e5 2. Nf3 (2. Nc3 Nc6 3. Nb1 Nb8 4. Nc3 Nc6 5. Nb1 Nb8) *",
	  CD_SEL_ENDS, "threefold", false },
	{ "1. e4 e5 2. Nf3 Nc6 3. Ng1 Nb8 4. Nf3 Nc6 5. Ng1 Nb8 "
	  "(5... Nf6 6. Nf3 Ng8) *", CD_SEL_ENDS, "threefold", true },
	/* a FEN clock beyond the line: every position counts */
	{ "[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 60 90\"]\n\n"
	  "90. Ra2 Kd8 91. Ra1 Ke8 92. Ra2 Kd8 93. Ra1 Ke8 *",
	  CD_SEL_ENDS, "threefold", true },
	/* a pawn that left its square never comes back: not reached */
	{ najdorf, CD_SEL_POSITION,
	  "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq -", false },
	{ "[FEN \"k7/8/1K6/8/8/8/8/7R w - - 99 80\"]\n\n80. Rh8# 1-0",
	  CD_SEL_ENDS, "fifty", false },
	{ "[FEN \"k7/8/1K6/8/8/8/8/7R w - - 99 80\"]\n\n80. Rh8# 1-0",
	  CD_SEL_ENDS, "checkmate", true },
	{ "[FEN \"k7/8/1K6/8/8/8/8/7R w - - 99 80\"]\n\n80. Rh7 1/2-1/2",
	  CD_SEL_ENDS, "fifty", true },
};

START_TEST(test_moves)
{
	const struct move_case *c = &move_cases[_i];
	cd_select *s = cd_select_new(0);
	cd_game *g = cd_game_new();
	cd_error err;
	cd_error why;

	ck_assert_msg(cd_pgn_parse_text(g, c->game, strlen(c->game), NULL,
	    &err) == CD_OK, "%s", err.msg);
	ck_assert_msg(cd_select_add(s, c->kind, c->text, &why) == CD_OK,
	    "%s: %s", c->text, why.msg);
	ck_assert(cd_select_needs_moves(s));
	ck_assert(!cd_select_has_tag_conditions(s));
	ck_assert_msg(cd_select_match_moves(s, g) == c->want,
	    "%s: want %d", c->text, c->want);
	cd_select_free(s);
	cd_game_free(g);
}
END_TEST

/* Positions join into one condition (any of them); other move
 * conditions each must hold. */
START_TEST(test_moves_combined)
{
	cd_select *s = cd_select_new(0);
	cd_game *g = cd_game_new();

	ck_assert_int_eq(cd_pgn_parse_text(g, najdorf, strlen(najdorf), NULL,
	    NULL), CD_OK);
	ck_assert_int_eq(cd_select_add(s, CD_SEL_POSITION,
	    "8/8/8/8/8/8/8/Kk6 w - -", NULL), CD_ERR_SYNTAX);
	ck_assert_int_eq(cd_select_add(s, CD_SEL_POSITION,
	    "4k3/8/8/8/8/8/8/4K3 w - -", NULL), CD_OK);
	ck_assert(!cd_select_match_moves(s, g));
	ck_assert_int_eq(cd_select_add(s, CD_SEL_POSITION,
	    "rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq -",
	    NULL), CD_OK);
	ck_assert(cd_select_match_moves(s, g));
	ck_assert_int_eq(cd_select_add(s, CD_SEL_PLIES, "..9", NULL), CD_OK);
	ck_assert(!cd_select_match_moves(s, g));
	cd_select_free(s);
	s = cd_select_new(0);
	ck_assert_int_eq(cd_select_add(s, CD_SEL_PLIES, "5..", NULL), CD_OK);
	ck_assert_int_eq(cd_select_add(s, CD_SEL_PLIES, "..10", NULL), CD_OK);
	ck_assert(cd_select_match_moves(s, g));
	ck_assert_int_eq(cd_select_add(s, CD_SEL_PLIES, "11..", NULL), CD_OK);
	ck_assert(!cd_select_match_moves(s, g));
	cd_select_free(s);
	cd_game_free(g);
}
END_TEST

/* cd_select_match_ply: the first ply by which the conditions on
 * positions have all held (the queens off after 4... Nxd7, ply 8; the
 * first check, ply 5; @2 from ply 8, ply 10; the start, 0). */
START_TEST(test_match_ply)
{
	static const char text[] = "1. d4 d5 2. c4 dxc4 3. Qa4+ Qd7 "
	    "4. Qxd7+ Nxd7 5. e3 Ngf6 *";
	static const struct { int kind; const char *cond; bool ok;
	    uint32_t ply; } c[] = {
		{ CD_SEL_MATERIAL, "R*B*N*P*r*b*n*p*", true, 8 },
		{ CD_SEL_MATERIAL, "R*B*N*P*r*b*n*p*@2", true, 10 },
		{ CD_SEL_MATERIAL, "R*B*N*P*r*b*n*p*@3", false, 0 },
		{ CD_SEL_OCCURS, "check", true, 5 },
		{ CD_SEL_PLACEMENT,
		    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", true, 0 },
		{ CD_SEL_PLIES, "10", true, 0 },
		{ CD_SEL_PLIES, "11", false, 0 },
	};
	cd_game *g = cd_game_new();
	size_t i;

	ck_assert_int_eq(cd_pgn_parse_text(g, text, strlen(text), NULL,
	    NULL), CD_OK);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		cd_select *s = cd_select_new(0);
		uint32_t ply = 99;

		ck_assert_int_eq(cd_select_add(s, (cd_select_kind)c[i].kind,
		    c[i].cond, NULL), CD_OK);
		ck_assert_msg(cd_select_match_ply(s, g, &ply) == c[i].ok &&
		    ply == c[i].ply, "%s: %u", c[i].cond, (unsigned)ply);
		ck_assert(cd_select_match_moves(s, g) == c[i].ok);
		/* with the check too: the later of the two */
		ck_assert_int_eq(cd_select_add(s, CD_SEL_OCCURS, "check",
		    NULL), CD_OK);
		if (c[i].ok && c[i].kind != CD_SEL_PLIES)
			ck_assert_uint_eq(cd_select_match_ply(s, g, &ply) ?
			    ply : 99, c[i].ply > 5 ? c[i].ply : 5);
		cd_select_free(s);
	}
	cd_game_free(g);
}
END_TEST

/* Many game ranges, overlapping, touching and unsorted, given in
 * pieces: each number matches as a plain scan of the ranges says, and
 * the last number is the highest end; an item that does not read is
 * found at its offset. */
START_TEST(test_games_many)
{
	enum { N = 3000, TOP = 20000 };
	static uint64_t lo[N], hi[N];
	char *text = malloc(N * 24);
	cd_select *s = cd_select_new(0);
	cd_error err;
	size_t i, k, len = 0;
	uint64_t n, last = 0;
	unsigned seed = 12345;

	ck_assert_ptr_nonnull(text);
	ck_assert_ptr_nonnull(s);
	for (i = 0; i < N; i++) {
		seed = seed * 1103515245u + 12345u;
		lo[i] = 1 + (seed >> 8) % TOP;
		seed = seed * 1103515245u + 12345u;
		hi[i] = lo[i] + ((seed >> 8) % 4 == 0 ? (seed >> 12) % 9 : 0);
		if (hi[i] > last)
			last = hi[i];
		len += (size_t)sprintf(text + len, "%s%llu", len ? "," : "",
		    (unsigned long long)lo[i]);
		if (hi[i] != lo[i])
			len += (size_t)sprintf(text + len, "-%llu",
			    (unsigned long long)hi[i]);
		if (i == N / 2 || i == N - 1) {	/* two conditions */
			ck_assert_int_eq(cd_select_add(s, CD_SEL_GAMES, text,
			    NULL), CD_OK);
			len = 0;
		}
	}
	ck_assert_uint_eq(cd_select_last_number(s), last);
	for (n = 1; n <= TOP + 10; n++) {
		bool want = false;

		for (k = 0; k < N && !want; k++)
			want = n >= lo[k] && n <= hi[k];
		ck_assert_msg(cd_select_match_number(s, n) == want, "%llu",
		    (unsigned long long)n);
	}
	ck_assert_int_eq(cd_select_add(s, CD_SEL_GAMES, "999999999999999999-",
	    NULL), CD_OK);
	ck_assert(cd_select_match_number(s, UINT64_MAX));
	ck_assert_int_eq(cd_select_add(s, CD_SEL_GAMES, "5,10-20,7-x,9",
	    &err), CD_ERR_SYNTAX);
	ck_assert_uint_eq(err.offset, 8);
	cd_select_free(s);
	free(text);
}
END_TEST

static Suite *
select_suite(void)
{
	Suite *s = suite_create("select");
	TCase *tc = tcase_create("tags");

	tcase_add_checked_fixture(tc, raw_setup, raw_teardown);
	tcase_add_loop_test(tc, test_tags, 0,
	    (int)(sizeof(tag_cases) / sizeof(tag_cases[0])));
	tcase_add_test(tc, test_and);
	tcase_add_loop_test(tc, test_result, 0,
	    (int)(sizeof(result_cases) / sizeof(result_cases[0])));
	tcase_add_test(tc, test_names_numbers);
	suite_add_tcase(s, tc);
	tc = tcase_create("read");
	tcase_add_loop_test(tc, test_bad, 0,
	    (int)(sizeof(bad_cases) / sizeof(bad_cases[0])));
	suite_add_tcase(s, tc);
	tc = tcase_create("moves");
	tcase_add_loop_test(tc, test_moves, 0,
	    (int)(sizeof(move_cases) / sizeof(move_cases[0])));
	tcase_add_test(tc, test_moves_combined);
	tcase_add_test(tc, test_match_ply);
	tcase_add_test(tc, test_games_many);
	suite_add_tcase(s, tc);
	return s;
}

TU_SUITES(select_suite);
