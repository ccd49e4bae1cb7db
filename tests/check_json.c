/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_json.c: valid UTF-8 out of any bytes (Latin-1 for the rest),
 * JSON string escapes (RFC 8259), TSV and CSV fields, a game as one
 * JSON line, and the computed fields of a row.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chessdata.h"
#include "check-main.h"

struct row {
	const char *in;
	size_t len;		/* 0: strlen */
	const char *out;
};

#define S(s)	s, sizeof(s) - 1

static const struct row json_rows[] = {
	{ S("plain"), "\"plain\"" },
	{ S(""), "\"\"" },
	{ S("a\"b\\c"), "\"a\\\"b\\\\c\"" },
	{ S("\t\n\r\b\f"), "\"\\t\\n\\r\\b\\f\"" },
	{ S("\x01\x1f\x7f"), "\"\\u0001\\u001f\x7f\"" },
	{ S("nul\0x"), "\"nul\\u0000x\"" },
	{ S("caf\xc3\xa9"), "\"caf\xc3\xa9\"" },		/* UTF-8 kept */
	{ S("caf\xe9"), "\"caf\xc3\xa9\"" },		/* Latin-1 */
	{ S("\xc3"), "\"\xc3\x83\"" },			/* cut short */
	{ S("\xc0\xaf"), "\"\xc3\x80\xc2\xaf\"" },	/* overlong */
	{ S("\xed\xa0\x80"), "\"\xc3\xad\xc2\xa0\\u0080\"" }, /* surrogate */
	{ S("\xf4\x90\x80\x80"), "\"\xc3\xb4\\u0090\\u0080\\u0080\"" },
	/* C1 and the Unicode line breaks escaped, from UTF-8 or Latin-1 */
	{ S("a\xc2\x85" "b\xc2\x9f\xc2\xa0"), "\"a\\u0085b\\u009f\xc2\xa0\"" },
	{ S("l\xe2\x80\xa8p\xe2\x80\xa9q\xe2\x80\xaa"),
	    "\"l\\u2028p\\u2029q\xe2\x80\xaa\"" },
	{ S("\x85\x9f\xa0"), "\"\\u0085\\u009f\xc2\xa0\"" },
	{ S("\xf0\x9f\x98\x80!"), "\"\xf0\x9f\x98\x80!\"" },
	{ S("\xe2\x82\xac"), "\"\xe2\x82\xac\"" },
	{ S("\xff\xfe"), "\"\xc3\xbf\xc3\xbe\"" },
};

START_TEST(test_json_string)
{
	const struct row *r = &json_rows[_i];
	cd_buf b = { 0 };

	ck_assert_int_eq(cd_json_append_string(&b, r->in, r->len), CD_OK);
	ck_assert_msg(b.len == strlen(r->out) &&
	    memcmp(b.data, r->out, b.len) == 0, "row %d: %.*s", _i,
	    (int)b.len, b.data);
	cd_buf_free(&b);
}
END_TEST

/* What the JSON writer makes of byte c alone among letters, into esc
 * (8 bytes); its length. */
static size_t
json_escape_of(unsigned char c, char *esc)
{
	if (c == '"' || c == '\\')
		return (size_t)snprintf(esc, 8, "\\%c", c);
	if (c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t')
		return (size_t)snprintf(esc, 8, "\\%c", c == '\b' ? 'b' :
		    c == '\f' ? 'f' : c == '\n' ? 'n' : c == '\r' ? 'r' : 't');
	if (c < 0x20)
		return (size_t)snprintf(esc, 8, "\\u%04x", c);
	if (c >= 0x80 && c <= 0x9f)	/* Latin-1 C1: escaped */
		return (size_t)snprintf(esc, 8, "\\u%04x", c);
	if (c >= 0x80)	/* alone it is no UTF-8: Latin-1 */
		return (size_t)snprintf(esc, 8, "%c%c", 0xc0 | (c >> 6),
		    0x80 | (c & 0x3f));
	return (size_t)snprintf(esc, 8, "%c", c);
}

/* Byte c alone at place pos of len letters: the JSON string (esc, n
 * bytes: its escape), cd_text_plain and, for plain text, TSV.  (One
 * ck_abort per failure, not a ck_assert per case: each assertion costs
 * a message to the parent process.) */
static void
check_byte_at(int c, size_t pos, size_t len, const char *esc, size_t n,
    cd_buf *b)
{
	char in[20], want[64];
	bool plain;

	memset(in, 'a', sizeof(in));
	in[pos] = (char)c;
	snprintf(want, sizeof(want), "\"%.*s%.*s%.*s\"", (int)pos, in,
	    (int)n, esc, (int)(len - pos - 1), in + pos + 1);
	b->len = 0;
	if (cd_json_append_string(b, in, len) != CD_OK)
		ck_abort_msg("out of memory");
	if (b->len != strlen(want) || memcmp(b->data, want, b->len) != 0)
		ck_abort_msg("byte %d at %zu of %zu: %.*s", c, pos, len,
		    (int)b->len, b->data);
	/* plain: printable ASCII but " and \, which TSV writes as it is */
	plain = c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
	if (cd_text_plain(in, len) != plain)
		ck_abort_msg("cd_text_plain: byte %d at %zu of %zu", c, pos,
		    len);
	b->len = 0;
	if (plain && (cd_field_append(b, in, len, CD_FIELD_TSV) != CD_OK ||
	    b->len != len || memcmp(b->data, in, len) != 0))
		ck_abort_msg("TSV of plain byte %d", c);
}

/* Each byte alone at every place of runs of letters of every length up
 * to 20, so that it falls in each lane of the writer's eight-byte scan,
 * in its overlapping last word and in the short-string checks. */
START_TEST(test_json_byte_positions)
{
	char esc[8];
	size_t len, pos, n;
	cd_buf b = { 0 };
	int c;

	for (c = 0; c < 256; c++) {
		n = json_escape_of((unsigned char)c, esc);
		for (len = 1; len <= 20; len++)
			for (pos = 0; pos < len; pos++)
				check_byte_at(c, pos, len, esc, n, &b);
	}
	cd_buf_free(&b);
}
END_TEST

/* TSV: quoted as RFC 4180 says when a value holds a tab, a line end or
 * a double quote (what sqlite3 and DuckDB read back); backslashes as
 * they are; C1, U+2028 and U+2029 spaces in TSV and CSV alike. */
static const struct row tsv_rows[] = {
	{ S("a b"), "a b" },
	{ S("a\tb\nc\\d\re"), "\"a\tb\nc\\d\re\"" },
	{ S("M\xfcller"), "M\xc3\xbcller" },
	{ S("x,\"y\""), "\"x,\"\"y\"\"\"" },
	{ S("\"Q\" Smith"), "\"\"\"Q\"\" Smith\"" },
	{ S("back\\slash"), "back\\slash" },
	{ S("a\x85" "b\xc2\x85" "c\xe2\x80\xa8" "d\xe2\x80\xa9" "e\x9f"),
	    "a b c d e " },
	{ S("\xc2\xa0\xe2\x80\xaa"), "\xc2\xa0\xe2\x80\xaa" },
};

static const struct row csv_rows[] = {
	{ S("a b"), "a b" },
	{ S("a,b"), "\"a,b\"" },
	{ S("say \"hi\""), "\"say \"\"hi\"\"\"" },
	{ S("\"\""), "\"\"\"\"\"\"" },
	{ S("two\nlines"), "\"two\nlines\"" },
	{ S("tab\there"), "tab\there" },
	{ S("M\xfcller, J"), "\"M\xc3\xbcller, J\"" },
	{ S("c1\x85, \xe2\x80\xa8"), "\"c1 ,  \"" },
};

START_TEST(test_tsv)
{
	const struct row *r = &tsv_rows[_i];
	cd_buf b = { 0 };

	ck_assert_int_eq(cd_field_append(&b, r->in, r->len, CD_FIELD_TSV),
	    CD_OK);
	ck_assert_msg(b.len == strlen(r->out) &&
	    memcmp(b.data, r->out, b.len) == 0, "row %d: %.*s", _i,
	    (int)b.len, b.data);
	cd_buf_free(&b);
}
END_TEST

START_TEST(test_csv)
{
	const struct row *r = &csv_rows[_i];
	cd_buf b = { 0 };

	ck_assert_int_eq(cd_field_append(&b, r->in, r->len, CD_FIELD_CSV),
	    CD_OK);
	ck_assert_msg(b.len == strlen(r->out) &&
	    memcmp(b.data, r->out, b.len) == 0, "row %d: %.*s", _i,
	    (int)b.len, b.data);
	cd_buf_free(&b);
}
END_TEST

static cd_game *
parse(const char *pgn)
{
	cd_game *g = cd_game_new();

	ck_assert_ptr_nonnull(g);
	ck_assert_int_eq(cd_pgn_parse_text(g, pgn, strlen(pgn), NULL, NULL),
	    CD_OK);
	return g;
}

START_TEST(test_game_json)
{
	cd_game *g = parse("[White \"W\xe9\"]\n[Zeta \"z\"]\n[Annotator \"a\"]\n\n"
	    "{start} 1. e4 {[%clk 0:03:00] [%emt 0:00:02]} e5 "
	    "{[%eval -0.3,20] ok [%clk 0:02:58.6]} "
	    "2. Qh5 (2. Nf3 Nc6 (2... d6)) Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n");
	cd_buf b = { 0 };
	const char *want =
	    "{\"game\":7,\"tags\":{\"Event\":\"?\",\"Site\":\"?\","
	    "\"Date\":\"????.??.??\",\"Round\":\"?\",\"White\":\"W\xc3\xa9\","
	    "\"Black\":\"?\",\"Result\":\"1-0\",\"Annotator\":\"a\","
	    "\"Zeta\":\"z\"},"
	    "\"start\":\"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\","
	    "\"moves\":[\"e4\",\"e5\",\"Qh5\",\"Nc6\",\"Bc4\",\"Nf6\",\"Qxf7#\"],"
	    "\"uci\":[\"e2e4\",\"e7e5\",\"d1h5\",\"b8c6\",\"f1c4\",\"g8f6\","
	    "\"h5f7\"],\"plies\":7,\"result\":\"1-0\","
	    "\"final\":\"r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4\","
	    "\"termination\":\"checkmate\",\"reason\":\"checkmate\","
	    "\"speed\":null,\"winner\":\"white\",\"elo_diff\":null,"
	    "\"clocks\":[180,178.6,null,null,null,null,null],"
	    "\"emt\":[2,null,null,null,null,null,null],"
	    "\"evals\":[null,{\"cp\":-30,\"depth\":20},null,null,null,null,"
	    "null],"
	    "\"comments\":[\"start\",null,\"ok\",null,null,null,null,null],"
	    "\"variations\":[{\"parent\":null,\"ply\":3,"
	    "\"moves\":[\"Nf3\",\"Nc6\"]},"
	    "{\"parent\":0,\"ply\":4,\"moves\":[\"d6\"]}]}\n";

	ck_assert_int_eq(cd_game_write_json(g, 7, CD_JSON_COMMENTS |
	    CD_JSON_VARIATIONS, &b), CD_OK);
	ck_assert_msg(b.len == strlen(want) && memcmp(b.data, want, b.len) ==
	    0, "%.*s", (int)b.len, b.data);
	cd_buf_free(&b);
	cd_game_free(g);
}
END_TEST

/* The buffer as a C string (the writers do not end it with a NUL). */
static const char *
cstr(cd_buf *b)
{
	char *p = realloc(b->data, b->len + 1);

	ck_assert_ptr_nonnull(p);
	b->data = p;
	b->cap = b->len + 1;
	p[b->len] = '\0';
	return p;
}

/* Numbers as JSON writes them: clocks in seconds with the fraction's
 * trailing zeros dropped, evaluations, the game's number. */
START_TEST(test_game_json_numbers)
{
	static const struct {
		const char *cmd, *want;
	} t[] = {
		{ "[%clk 0:00:00]", "\"clocks\":[0]" },
		{ "[%clk 0:00:00.05]", "\"clocks\":[0.05]" },
		{ "[%clk 0:00:09.100]", "\"clocks\":[9.1]" },
		{ "[%clk 0:02:58.6]", "\"clocks\":[178.6]" },
		{ "[%clk 1:00:00.999]", "\"clocks\":[3600.999]" },
		{ "[%clk -0:00:01.5]", "\"clocks\":[-1.5]" },
		{ "[%clk 2562047:00:00]", "\"clocks\":[9223369200]" },
		/* every digit given */
		{ "[%clk 0:00:59.99999]", "\"clocks\":[59.99999]" },
		{ "[%emt 0:00:00.000000001]", "\"emt\":[0.000000001]" },
		{ "[%clk 0:00:01.50]", "\"clocks\":[1.5]" },
		/* no time: past 292 years, odd forms */
		{ "[%clk 999999999:59:59]", "\"plies\":1,\"result\":\"*\",\"final\":\"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\",\"termination\":null,\"reason\":\"unknown\",\"speed\":null,\"winner\":null,\"elo_diff\":null}" },
		{ "[%clk 0:1:00] [%emt 0:00:05.]", "\"termination\":null,\"reason\":\"unknown\",\"speed\":null,\"winner\":null,\"elo_diff\":null}" },
		{ "[%emt -10]", "\"emt\":[-10]" },
		{ "[%eval -12.34]", "\"evals\":[{\"cp\":-1234}]" },
		{ "[%eval 0.07,5]", "\"evals\":[{\"cp\":7,\"depth\":5}]" },
		{ "[%eval #-3]", "\"evals\":[{\"mate\":-3}]" },
		{ "[%eval #12,30]", "\"evals\":[{\"mate\":12,\"depth\":30}]" },
		/* three comments after the move: of each kind, the last
		 * that gives it */
		{ "[%clk 0:01:00]} {[%eval 0.5,9]} {[%clk 0:00:30]",
		    "\"clocks\":[30],\"evals\":[{\"cp\":50,\"depth\":9}]" },
		{ "[%eval 1,2] [%clk 0:00:01]} {[%eval -1]",
		    "\"clocks\":[1],\"evals\":[{\"cp\":-100}]" },
	};
	static const char game[] = "{\"game\":18446744073709551615,";
	char pgn[128];
	size_t i, bad = 0;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		cd_buf b = { 0 };
		cd_game *g;

		snprintf(pgn, sizeof(pgn), "1. e4 {%s} *\n", t[i].cmd);
		g = parse(pgn);
		ck_assert_int_eq(cd_game_write_json(g, UINT64_MAX, 0, &b),
		    CD_OK);
		if (strstr(cstr(&b), t[i].want) == NULL ||
		    strncmp(b.data, game, strlen(game)) != 0) {
			fprintf(stderr, "%s: %s\n", t[i].cmd, b.data);
			bad++;
		}
		cd_buf_free(&b);
		cd_game_free(g);
	}
	ck_assert_uint_eq(bad, 0);
}
END_TEST

START_TEST(test_game_json_plain)
{
	/* no commands: no per-ply arrays; castling in UCI: the king's
	 * two squares in standard chess, king takes rook in Chess960 */
	static const char fen[] = "[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n";
	char pgn[256];
	cd_game *g;
	cd_buf b = { 0 };

	snprintf(pgn, sizeof(pgn), "%s\n1. O-O Kd7 *\n", fen);
	g = parse(pgn);
	ck_assert_int_eq(cd_game_write_json(g, 1, CD_JSON_FENS, &b), CD_OK);
	cstr(&b);
	ck_assert_ptr_null(strstr(b.data, "\"clocks\""));
	ck_assert_ptr_null(strstr(b.data, "\"evals\""));
	ck_assert_ptr_null(strstr(b.data, "\"comments\""));
	ck_assert_msg(strstr(b.data, "\"uci\":[\"e1g1\",\"e8d7\"]") != NULL,
	    "%s", b.data);
	ck_assert_msg(strstr(b.data, "\"fens\":[\"4k3/8/8/8/8/8/8/5RK1 b - - 1 1\","
	    "\"8/3k4/8/8/8/8/8/5RK1 w - - 2 2\"]") != NULL, "%s", b.data);
	ck_assert_msg(strstr(b.data, "\"termination\":null") != NULL, "%s",
	    b.data);
	cd_game_free(g);
	b.len = 0;
	snprintf(pgn, sizeof(pgn), "[Variant \"Chess960\"]\n%s\n"
	    "1. O-O Kd7 *\n", fen);
	g = parse(pgn);
	ck_assert_int_eq(cd_game_write_json(g, 1, 0, &b), CD_OK);
	cstr(&b);
	ck_assert_msg(strstr(b.data, "\"uci\":[\"e1h1\",\"e8d7\"]") != NULL,
	    "%s", b.data);
	cd_buf_free(&b);
	cd_game_free(g);
}
END_TEST

START_TEST(test_fields)
{
	cd_game *g = parse("1. f3 e5 2. g4 Qh4# 0-1\n");
	cd_buf b = { 0 };
	static const char *const f[][2] = {
		{ "@game", "42" },
		{ "@moves", "f3 e5 g4 Qh4#" },
		{ "@uci", "f2f3 e7e5 g2g4 d8h4" },
		{ "@plies", "4" },
		{ "@result", "0-1" },
		{ "@termination", "checkmate" },
		{ "@start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" },
		{ "@final", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3" },
	};
	size_t i;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		b.len = 0;
		ck_assert(cd_game_field_known(f[i][0]));
		ck_assert_int_eq(cd_game_write_field(g, f[i][0], 42, &b),
		    CD_OK);
		ck_assert_msg(b.len == strlen(f[i][1]) &&
		    memcmp(b.data, f[i][1], b.len) == 0, "%s: %.*s", f[i][0],
		    (int)b.len, b.data);
	}
	ck_assert(!cd_game_field_known("@nope"));
	ck_assert(!cd_game_field_known("White"));
	ck_assert_int_eq(cd_game_write_field(g, "@nope", 1, &b), CD_ERR_ARG);
	cd_buf_free(&b);
	cd_game_free(g);
}
END_TEST

/* Endings of the final position: stalemate, dead, fifty moves and
 * repetitions as the FIDE rules name them. */
struct end_row {
	const char *pgn, *want;
};

static const struct end_row ends[] = {
	{ "[FEN \"7k/5Q2/6K1/8/8/8/8/8 w - - 0 1\"]\n\n1. Qf6 *", "" },
	{ "[FEN \"7k/5Q2/5K2/8/8/8/8/8 w - - 0 1\"]\n\n1. Kg6 *",
	    "stalemate" },
	{ "[FEN \"7k/8/5K2/8/8/8/8/6N1 w - - 0 1\"]\n\n1. Nf3 *", "dead" },
	{ "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *", "threefold" },
	{ "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 "
	    "Ng8 7. Nf3 Nf6 8. Ng1 Ng8 *", "fivefold" },
	{ "[FEN \"7k/8/8/8/8/8/R7/K7 w - - 99 80\"]\n\n80. Rb2 *", "fifty" },
	{ "[FEN \"7k/8/8/8/8/8/R7/K7 w - - 149 80\"]\n\n80. Rb2 *",
	    "seventyfive" },
	{ "[FEN \"7k/8/6K1/8/8/8/Q7/8 w - - 149 80\"]\n\n80. Qa8# *",
	    "checkmate" },
};

/* TimeControl (standard 9.6.1) as data: the periods in JSON, and the
 * first period's base and increment as row fields; leading zeros
 * dropped, fractions kept as given, null for "?" and what does not
 * read. */
static const struct tc_row {
	const char *tag;	/* NULL: no tag */
	const char *json;	/* the "timecontrol" field, NULL: none */
	const char *base, *inc;
} tc_rows[] = {
	{ "40/9000:300", "[{\"moves\":40,\"seconds\":9000},{\"seconds\":300}]", "9000", "0" },
	{ "180+2", "[{\"seconds\":180,\"increment\":2}]", "180", "2" },
	{ "*180", "[{\"seconds\":180,\"sandclock\":true}]", "180", "0" },
	{ "300", "[{\"seconds\":300}]", "300", "0" },
	{ "10+0.1", "[{\"seconds\":10,\"increment\":0.1}]", "10", "0.1" },
	{ "0180+02", "[{\"seconds\":180,\"increment\":2}]", "180", "2" },
	{ "40/7200:20/3600:900+30", "[{\"moves\":40,\"seconds\":7200},"
	    "{\"moves\":20,\"seconds\":3600},{\"seconds\":900,"
	    "\"increment\":30}]", "7200", "0" },
	{ "1/259200", "[{\"moves\":1,\"seconds\":259200}]", "259200", "0" },
	{ "-", "[]", "", "" },
	{ "?", "null", "", "" },
	{ "", "null", "", "" },
	{ "3 min", "null", "", "" },
	{ "40/", "null", "", "" },
	{ "0/60", "null", "", "" },
	{ "*10+1", "null", "", "" },
	{ "60:", "null", "", "" },
	{ "5.", "null", "", "" },
	{ NULL, NULL, "", "" },
};

START_TEST(test_timecontrol)
{
	const struct tc_row *r = &tc_rows[_i];
	char pgn[160], want[200];
	cd_buf b = { 0 };
	const char *js, *f[2] = { "@base", "@increment" };
	cd_game *g;
	int k;

	if (r->tag != NULL)
		snprintf(pgn, sizeof(pgn), "[TimeControl \"%s\"]\n\n1. e4 *\n",
		    r->tag);
	else
		snprintf(pgn, sizeof(pgn), "1. e4 *\n");
	g = parse(pgn);
	ck_assert_int_eq(cd_game_write_json(g, 1, 0, &b), CD_OK);
	js = cstr(&b);
	if (r->json != NULL) {
		snprintf(want, sizeof(want), "\"elo_diff\":null,"
		    "\"timecontrol\":%s}", r->json);
		ck_assert_msg(strstr(js, want) != NULL, "%s: %s", r->tag, js);
	} else
		ck_assert_msg(strstr(js, "timecontrol") == NULL, "%s", js);
	for (k = 0; k < 2; k++) {
		b.len = 0;
		ck_assert(cd_game_field_known(f[k]));
		ck_assert_int_eq(cd_game_write_field(g, f[k], 1, &b), CD_OK);
		ck_assert_msg(strcmp(cstr(&b), k ? r->inc : r->base) == 0,
		    "%s %s: '%s'", r->tag, f[k], b.data);
	}
	cd_buf_free(&b);
	cd_game_free(g);
}
END_TEST

START_TEST(test_termination)
{
	cd_game *g = parse(ends[_i].pgn);
	cd_buf b = { 0 };

	ck_assert_int_eq(cd_game_write_field(g, "@termination", 1, &b),
	    CD_OK);
	ck_assert_msg(b.len == strlen(ends[_i].want) && (b.len == 0 ||
	    memcmp(b.data, ends[_i].want, b.len) == 0), "row %d: %.*s", _i,
	    (int)b.len, b.data ? b.data : "");
	cd_buf_free(&b);
	cd_game_free(g);
}
END_TEST


/* How games end (@reason): chess.com's wording, lichess's and the
 * standard's values, and the final position where "Normal" or no tag
 * leaves it to the board. */
static const struct {
	const char *term;	/* the Termination tag, NULL: none */
	const char *result, *moves, *want;
} reasons[] = {
	{ "Hikaru won by checkmate", "1-0", "1. e4", "checkmate" },
	{ "MagnusCarlsen won by resignation", "0-1", "1. e4", "resignation" },
	{ "x won on time", "1-0", "1. e4", "time forfeit" },
	{ "x won - game abandoned", "0-1", "1. e4", "abandonment" },
	{ "Game drawn by agreement", "1/2-1/2", "1. e4", "agreement" },
	{ "Game drawn by repetition", "1/2-1/2", "1. e4", "repetition" },
	{ "Game drawn by stalemate", "1/2-1/2", "1. e4", "stalemate" },
	{ "Game drawn by insufficient material", "1/2-1/2", "1. e4",
	    "insufficient material" },
	{ "Game drawn by timeout vs insufficient material", "1/2-1/2",
	    "1. e4", "time forfeit against insufficient material" },
	{ "Game drawn by 50-move rule", "1/2-1/2", "1. e4", "fifty moves" },
	{ "GAME DRAWN BY AGREEMENT", "1/2-1/2", "1. e4", "agreement" },
	{ "Time forfeit", "0-1", "1. e4", "time forfeit" },
	{ "time forfeit", "1/2-1/2", "1. e4",
	    "time forfeit against insufficient material" },
	{ "Abandoned", "1-0", "1. e4", "abandonment" },
	{ "adjudication", "1-0", "1. e4", "adjudication" },
	{ "Rules infraction", "1-0", "1. e4", "unknown" },
	{ "Unterminated", "*", "1. e4", "unknown" },
	{ "Normal", "0-1", "1. f3 e5 2. g4 Qh4#", "checkmate" },
	{ "Normal", "0-1", "1. e4", "resignation" },
	{ "Normal", "1/2-1/2", "1. e4", "agreement" },
	{ "Normal", "*", "1. e4", "unknown" },
	{ "Normal", "1/2-1/2", "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8",
	    "repetition" },
	/* the third occurrence is not there yet */
	{ "Normal", "1/2-1/2", "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1",
	    "agreement" },
	{ "Normal", "1-0", "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8",
	    "resignation" },
	{ NULL, "0-1", "1. f3 e5 2. g4 Qh4#", "checkmate" },
	{ NULL, "1-0", "1. e4", "unknown" },
	{ NULL, "1/2-1/2", "1. e4", "unknown" },
	{ NULL, "1/2-1/2", "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8",
	    "repetition" },
	{ "Something else", "1-0", "1. f3 e5 2. g4 Qh4#", "checkmate" },
};

static const char *const stalemate_pgn =
	"[FEN \"7k/5Q2/6K1/8/8/8/8/8 w - - 0 1\"]\n[SetUp \"1\"]\n"
	"[Termination \"Normal\"]\n\n1. Kh6 1/2-1/2\n";
static const char *const dead_pgn =
	"[FEN \"7k/8/6K1/8/8/8/8/6n1 w - - 0 1\"]\n[SetUp \"1\"]\n"
	"[Termination \"Normal\"]\n\n1. Kf6 1/2-1/2\n";
static const char *const fifty_pgn =
	"[FEN \"7k/8/6K1/8/8/8/8/R7 w - - 99 80\"]\n[SetUp \"1\"]\n"
	"[Termination \"Normal\"]\n\n80. Ra2 1/2-1/2\n";

/* The field of the game pgn as a C string. */
static char *
field(const char *pgn, const char *name)
{
	static char s[200];
	cd_game *g = parse(pgn);
	cd_buf b = { 0 };

	ck_assert_int_eq(cd_game_write_field(g, name, 1, &b), CD_OK);
	snprintf(s, sizeof(s), "%.*s", (int)b.len, b.data ? b.data : "");
	cd_buf_free(&b);
	cd_game_free(g);
	return s;
}

START_TEST(test_reason)
{
	char pgn[300], want[120];
	cd_game *g;
	cd_buf b = { 0 };

	if (reasons[_i].term != NULL)
		snprintf(pgn, sizeof(pgn), "[Result \"%s\"]\n"
		    "[Termination \"%s\"]\n\n%s %s\n", reasons[_i].result,
		    reasons[_i].term, reasons[_i].moves, reasons[_i].result);
	else
		snprintf(pgn, sizeof(pgn), "%s %s\n", reasons[_i].moves,
		    reasons[_i].result);
	ck_assert(cd_game_field_known("@reason"));
	ck_assert_msg(strcmp(field(pgn, "@reason"), reasons[_i].want) == 0,
	    "row %d: %s", _i, field(pgn, "@reason"));
	/* the JSON key says the same */
	g = parse(pgn);
	ck_assert_int_eq(cd_game_write_json(g, 1, 0, &b), CD_OK);
	snprintf(want, sizeof(want), "\"reason\":\"%s\",",
	    reasons[_i].want);
	ck_assert_msg(strstr(cstr(&b), want) != NULL, "%s", b.data);
	cd_buf_free(&b);
	cd_game_free(g);
}
END_TEST

START_TEST(test_reason_position)
{
	ck_assert_str_eq(field(stalemate_pgn, "@reason"), "stalemate");
	ck_assert_str_eq(field(dead_pgn, "@reason"), "insufficient material");
	ck_assert_str_eq(field(fifty_pgn, "@reason"), "fifty moves");
}
END_TEST

/* @speed by lichess's rule, at the edges of each class. */
static const struct {
	const char *tag, *want;	/* want "": none */
} speeds[] = {
	{ "15+0", "ultrabullet" }, { "29", "ultrabullet" },
	{ "10+0.4", "ultrabullet" }, { "10+0.5", "bullet" },
	{ "30", "bullet" }, { "60+1", "bullet" }, { "120+1", "bullet" },
	{ "179", "bullet" }, { "180", "blitz" }, { "140+1", "blitz" },
	{ "300+3", "blitz" }, { "479", "blitz" }, { "480", "rapid" },
	{ "600+5", "rapid" }, { "1499", "rapid" }, { "1500", "classical" },
	{ "900+15", "classical" }, { "40/7200:3600", "classical" },
	{ "*180", "blitz" }, { "1/86400", "correspondence" },
	{ "1/60", "bullet" }, { "-", "correspondence" }, { "?", "" },
	{ "3 min", "" },
	{ "99999999999999999999", "classical" },
};

START_TEST(test_speed)
{
	char pgn[100];

	snprintf(pgn, sizeof(pgn), "[TimeControl \"%s\"]\n\n1. e4 *\n",
	    speeds[_i].tag);
	ck_assert_msg(strcmp(field(pgn, "@speed"), speeds[_i].want) == 0,
	    "%s: %s", speeds[_i].tag, field(pgn, "@speed"));
	ck_assert_str_eq(field("1. e4 *\n", "@speed"), "");
}
END_TEST

START_TEST(test_winner_elo)
{
	cd_buf e = { 0 };

	/* an empty field of a buffer never written: NULL data */
	ck_assert_int_eq(cd_field_append(&e, NULL, 0, CD_FIELD_TSV), CD_OK);
	ck_assert_int_eq(cd_field_append(&e, NULL, 0, CD_FIELD_CSV), CD_OK);
	ck_assert_uint_eq(e.len, 0);
	cd_buf_free(&e);
	ck_assert_str_eq(field("1. e4 1-0\n", "@winner"), "white");
	ck_assert_str_eq(field("1. e4 0-1\n", "@winner"), "black");
	ck_assert_str_eq(field("1. e4 1/2-1/2\n", "@winner"), "none");
	ck_assert_str_eq(field("1. e4 *\n", "@winner"), "");
	ck_assert_str_eq(field("[WhiteElo \"1500\"]\n[BlackElo \"2100\"]"
	    "\n\n*\n", "@elo_diff"), "-600");
	ck_assert_str_eq(field("[WhiteElo \"2100\"]\n[BlackElo \"1500\"]"
	    "\n\n*\n", "@elo_diff"), "600");
	ck_assert_str_eq(field("[WhiteElo \"2100\"]\n[BlackElo \"?\"]"
	    "\n\n*\n", "@elo_diff"), "");
	ck_assert_str_eq(field("[WhiteElo \"2100\"]\n\n*\n", "@elo_diff"),
	    "");
	ck_assert_str_eq(field("[WhiteElo \"1234567\"]\n[BlackElo \"1\"]"
	    "\n\n*\n", "@elo_diff"), "");
}
END_TEST

static Suite *
json_suite(void)
{
	Suite *s = suite_create("json");
	TCase *tc = tcase_create("json");

	tcase_add_loop_test(tc, test_json_string, 0,
	    (int)(sizeof(json_rows) / sizeof(json_rows[0])));
	tcase_add_test(tc, test_json_byte_positions);
	tcase_add_loop_test(tc, test_tsv, 0,
	    (int)(sizeof(tsv_rows) / sizeof(tsv_rows[0])));
	tcase_add_loop_test(tc, test_csv, 0,
	    (int)(sizeof(csv_rows) / sizeof(csv_rows[0])));
	tcase_add_test(tc, test_game_json);
	tcase_add_loop_test(tc, test_reason, 0,
	    sizeof(reasons) / sizeof(reasons[0]));
	tcase_add_test(tc, test_reason_position);
	tcase_add_loop_test(tc, test_speed, 0,
	    sizeof(speeds) / sizeof(speeds[0]));
	tcase_add_test(tc, test_winner_elo);
	tcase_add_test(tc, test_game_json_numbers);
	tcase_add_test(tc, test_game_json_plain);
	tcase_add_test(tc, test_fields);
	tcase_add_loop_test(tc, test_timecontrol, 0,
	    sizeof(tc_rows) / sizeof(tc_rows[0]));
	tcase_add_loop_test(tc, test_termination, 0,
	    (int)(sizeof(ends) / sizeof(ends[0])));
	suite_add_tcase(s, tc);
	return s;
}

TU_SUITES(json_suite);
