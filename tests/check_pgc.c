/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_pgc.c: PGC move ordinals against real sorted SAN strings on
 * every position of perft trees, the standard's own example; the
 * encoder and decoder: round trips, the bytes of the pgc(5) examples,
 * what PGC cannot hold, long move sequences, the sample cut at every
 * offset, random and damaged bytes, the block reader.
 */
#include "config.h"

#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chessdata.h"
#include "check-main.h"

/* ---- move ordinals ---- */

/* Positions whose trees are walked: the usual perft suite, positions
 * rich in disambiguation, promotions, castling with check, and
 * Chess960 castling. */
static const struct tree {
	const char *fen;
	int depth;
	unsigned flags;
} trees[] = {
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 3, 0 },
	/* kiwipete */
	{ "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - "
	  "0 1", 2, 0 },
	{ "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 3, 0 },
	{ "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	  2, 0 },
	{ "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 2, 0 },
	{ "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - "
	  "- 0 10", 2, 0 },
	/* the 218-move position: five queens, two rooks */
	{ "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1", 1, 0 },
	/* three knights and three rooks to one square: file, rank and
	 * square disambiguation */
	{ "4k3/8/8/1N6/7R/1N3N2/R6R/4K3 w - - 0 1", 2, 0 },
	{ "1k6/8/2Q1Q3/8/2Q1Q3/8/8/4K3 w - - 0 1", 2, 0 },
	/* promotions with captures and checks on both sides */
	{ "r1n1k2r/1P4P1/8/8/8/8/1p4p1/R1N1K2R w KQkq - 0 1", 2, 0 },
	{ "4k3/1P6/8/8/8/8/6p1/4K2R b K - 0 1", 3, 0 },
	/* castling that gives check or mate */
	{ "5k2/8/8/8/8/8/8/R3K2R w KQ - 0 1", 2, 0 },
	{ "3k4/8/8/8/8/8/8/R3K2R w KQ - 0 1", 2, 0 },
	{ "r3k1r1/8/8/8/8/8/8/R3K2R w KQq - 0 1", 2, 0 },
	/* en passant, including a discovered check */
	{ "8/8/8/2k5/3Pp3/8/8/4K2R b K d3 0 1", 3, 0 },
	{ "4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 1", 2, 0 },
	/* Chess960: king on b1 and rooks a1/h1; king and rook adjacent */
	{ "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAgb - 0 1", 2,
	  CD_FEN_960 },
	{ "nrkbbqnr/pppppppp/8/8/8/8/PPPPPPPP/NRK1BQ1R w HBhb - 0 1", 2,
	  CD_FEN_960 },
	{ "5rk1/8/8/8/8/8/8/5RKR w HF - 0 1", 2, CD_FEN_960 },
};

static int
cmp_str(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/*
 * Check one position: the ordinal order equals the sorted strings, and
 * the keys order every pair as strcmp does.  Returns false with a
 * message in msg (room for 160 bytes) when not.  (Plain tests rather
 * than a Check assertion per comparison, which would cost more than the
 * comparisons; the corpus mode uses it outside Check too.)
 */
static bool
position_ok(const cd_board *b, char *msg)
{
	cd_move moves[CD_MAX_MOVES], sorted[CD_MAX_MOVES];
	uint64_t keys[CD_MAX_MOVES];
	char san[CD_MAX_MOVES][CD_SAN_MAX], each[CD_MAX_MOVES][CD_SAN_MAX];
	char got[CD_SAN_MAX], fen[CD_FEN_MAX];
	int n, m, i, j;

	n = cd_board_legal_moves(b, moves);
	for (i = 0; i < n; i++) {
		cd_san_write(b, moves[i], each[i]);
		memcpy(san[i], each[i], CD_SAN_MAX);
	}
	qsort(san, (size_t)n, sizeof(san[0]), cmp_str);
	m = cd_pgc_sorted_moves(b, sorted);
	cd_fen_write(b, fen);
	if (m != n) {
		snprintf(msg, 160, "%.90s: %d sorted moves, %d legal", fen, m,
		    n);
		return false;
	}
	for (i = 0; i < n; i++) {
		cd_san_write(b, sorted[i], got);
		if (strcmp(got, san[i]) != 0) {
			snprintf(msg, 160, "%.90s: ordinal %d is %.10s, sorted "
			    "SAN has %.10s", fen, i, got, san[i]);
			return false;
		}
		if (cd_pgc_ordinal(b, sorted[i]) != i ||
		    cd_pgc_move(b, (unsigned)i) != sorted[i]) {
			snprintf(msg, 160, "%.90s: %.10s does not round trip",
			    fen, got);
			return false;
		}
	}
	if (cd_pgc_move(b, (unsigned)n) != CD_MOVE_NONE ||
	    cd_pgc_move(b, 255) != CD_MOVE_NONE) {
		snprintf(msg, 160, "%.90s: an ordinal beyond the moves gives a "
		    "move", fen);
		return false;
	}
	cd_pgc_keys(b, moves, n, keys);
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (keys[i] == keys[j] ||
			    (strcmp(each[i], each[j]) < 0) !=
			    (keys[i] < keys[j])) {
				snprintf(msg, 160, "%.90s: keys of %.10s and "
				    "%.10s", fen, each[i], each[j]);
				return false;
			}
	return true;
}

static unsigned long
check_position(const cd_board *b)
{
	char msg[160];

	if (!position_ok(b, msg))
		ck_abort_msg("%s", msg);
	return 1;
}

static unsigned long
walk(const cd_board *b, int depth)
{
	cd_move moves[CD_MAX_MOVES];
	unsigned long count = check_position(b);
	int n, i;

	if (depth == 0)
		return count;
	n = cd_board_legal_moves(b, moves);
	for (i = 0; i < n; i++) {
		cd_board c = *b;

		cd_board_make(&c, moves[i]);
		count += walk(&c, depth - 1);
	}
	return count;
}

START_TEST(test_trees)
{
	const struct tree *t = &trees[_i];
	cd_board b;
	cd_status st;
	unsigned long count;

	st = cd_fen_parse(&b, t->fen, strlen(t->fen), t->flags, NULL);
	ck_assert_int_eq(st, CD_OK);
	count = walk(&b, t->depth);
	ck_assert_uint_gt(count, 0);
}
END_TEST

/* Standard 20.2: Na3 = 0, Nc3 = 1, a3 = 4, h4 = 19 of twenty moves. */
START_TEST(test_standard_example)
{
	static const char *const order[20] = {
		"Na3", "Nc3", "Nf3", "Nh3", "a3", "a4", "b3", "b4", "c3", "c4",
		"d3", "d4", "e3", "e4", "f3", "f4", "g3", "g4", "h3", "h4"
	};
	cd_board b;
	cd_move sorted[CD_MAX_MOVES], m;
	char san[CD_SAN_MAX];
	int i, n;

	cd_board_init(&b);
	n = cd_pgc_sorted_moves(&b, sorted);
	ck_assert_int_eq(n, 20);
	for (i = 0; i < n; i++) {
		cd_san_write(&b, sorted[i], san);
		ck_assert_str_eq(san, order[i]);
	}
	ck_assert_uint_eq(cd_pgc_move(&b, 0), CD_MOVE(CD_B1, CD_A1 + 16, 0));
	ck_assert_uint_eq(cd_pgc_move(&b, 1), CD_MOVE(CD_B1, CD_C1 + 16, 0));
	ck_assert_uint_eq(cd_pgc_move(&b, 4),
	    CD_MOVE(CD_A1 + 8, CD_A1 + 16, 0));
	ck_assert_uint_eq(cd_pgc_move(&b, 19), CD_MOVE(CD_H1 + 8, CD_H1 + 24,
	    0));
	m = CD_MOVE(CD_H1 + 8, CD_H1 + 24, 0);
	ck_assert_int_eq(cd_pgc_ordinal(&b, m), 19);
	ck_assert_uint_eq(cd_pgc_move(&b, 20), CD_MOVE_NONE);
}
END_TEST

/* Moves that are not legal have no ordinal. */
START_TEST(test_not_legal)
{
	cd_board b;

	cd_board_init(&b);
	ck_assert_int_eq(cd_pgc_ordinal(&b, CD_MOVE_NULL), -1);
	ck_assert_int_eq(cd_pgc_ordinal(&b, CD_MOVE_NONE), -1);
	ck_assert_int_eq(cd_pgc_ordinal(&b,
	    CD_MOVE(CD_E1 + 8, CD_E1 + 32, 0)), -1);
	ck_assert_int_eq(cd_pgc_ordinal(&b, 0xffff), -1);
}
END_TEST

/* Checkmate and stalemate: no moves, no ordinal is valid. */
START_TEST(test_no_moves)
{
	static const char mate[] =
	    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
	cd_board b;
	cd_move out[CD_MAX_MOVES];

	ck_assert_int_eq(cd_fen_parse(&b, mate, strlen(mate), 0, NULL),
	    CD_OK);
	ck_assert_int_eq(cd_pgc_sorted_moves(&b, out), 0);
	ck_assert_uint_eq(cd_pgc_move(&b, 0), CD_MOVE_NONE);
}
END_TEST

/* ---- the encoder and the decoder ---- */

static cd_game *
parse(const char *text)
{
	cd_game *g = cd_game_new();
	cd_error err;
	cd_status st;

	ck_assert_ptr_nonnull(g);
	st = cd_pgn_parse_text(g, text, strlen(text), NULL, &err);
	ck_assert_msg(st == CD_OK, "%s: %s", text, err.msg);
	return g;
}

/* The export text of a game (flags 0 or CD_PGN_REDUCED), malloc'ed. */
static char *
export(cd_game *g, unsigned flags)
{
	cd_buf b = { 0 };
	char *s;

	ck_assert_int_eq(cd_pgn_write_buf(g, flags, &b), CD_OK);
	s = malloc(b.len + 1);
	ck_assert_ptr_nonnull(s);
	memcpy(s, b.data, b.len);
	s[b.len] = '\0';
	cd_buf_free(&b);
	return s;
}

/* Decode len bytes holding exactly one game into g. */
static void
decode_one(const void *buf, size_t len, cd_game *g)
{
	cd_pgc_reader *r = cd_pgc_reader_new_mem(buf, len);
	cd_game *scratch = cd_game_new();
	cd_error err;
	cd_status st;

	ck_assert_ptr_nonnull(r);
	st = cd_pgc_reader_next(r, g, &err);
	ck_assert_msg(st == CD_OK, "offset %llu: %s",
	    (unsigned long long)err.offset, err.msg);
	ck_assert_int_eq(cd_pgc_reader_next(r, scratch, &err), CD_EOF);
	cd_game_free(scratch);
	ck_assert_uint_eq(cd_pgc_reader_tell(r), len);
	cd_pgc_reader_free(r);
}

static const char *const games[] = {
	"[Event \"x\"]\n\n1. e4 e5 2. Nf3 *\n",
	"1. d4 d5 2. c4 e6 1/2-1/2\n",
	"[White \"A\"] [ECO \"C20\"] [Annotator \"Me\"]\n{ before } 1. e4 "
	"{ King pawn } e5! 2. Nf3 $14 $1 (2. Qh5 Nc6 (2... g6 3. Qf3) 3. "
	"Bc4) (2. d4) 2... Nc6 ( { first } 2... d6 { Philidor } ) 3. Bb5 "
	"1-0\n",
	"[FEN \"r3k2r/6P1/8/3pP3/8/8/8/R3K2R w KQkq d6 0 30\"]\n\n30. exd6 "
	"O-O-O 31. gxh8=Q (31. g8=N) Rxh8 32. O-O-O Kb7 *\n",
	"[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w "
	"KQkq - 0 1\"]\n\n1. e4 *\n",
	"[Variant \"Chess960\"]\n[FEN \"rk4nr/pppppppp/8/8/8/8/PPPPPPPP/"
	"RK4NR w HAha - 0 1\"]\n\n1. Nf3 Nf6 2. O-O O-O-O 0-1\n",
	"[Event \"Escape\"]\n\n1. e4\n%escaped line\ne5 { c } *\n",
	"[Event \"Empty\"]\n\n{ only a comment } *\n",
	"[Event \"Latin\"] [White \"M\xfcller\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n",
};

/* Every game round trips: with comments to the same export, without
 * to the export of the game without its comments; reduced alike. */
START_TEST(test_roundtrip)
{
	cd_game *g = parse(games[_i]), *h = cd_game_new();
	cd_buf out = { 0 };
	cd_error err;
	size_t dropped = 99, i;
	char *want, *got;

	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(cd_pgc_encode(g, CD_PGC_WITH_COMMENTS, &out,
	    &dropped, &err), CD_OK);
	ck_assert_uint_eq(dropped, 0);
	decode_one(out.data, out.len, h);
	want = export(g, 0);
	got = export(h, 0);
	ck_assert_str_eq(got, want);
	free(want);
	free(got);
	want = export(g, CD_PGN_REDUCED);
	got = export(h, CD_PGN_REDUCED);
	ck_assert_str_eq(got, want);
	free(want);
	free(got);

	/* without comments: none come back, the rest is the same */
	out.len = 0;
	ck_assert_int_eq(cd_pgc_encode(g, 0, &out, &dropped, &err), CD_OK);
	decode_one(out.data, out.len, h);
	for (i = 1; i < h->nnotes; i++)
		ck_assert_int_ne(h->notes[i].kind, CD_NOTE_COMMENT);
	want = export(g, CD_PGN_REDUCED);
	got = export(h, CD_PGN_REDUCED);
	ck_assert_str_eq(got, want);
	free(want);
	free(got);
	if (strchr(games[_i], '{') != NULL)
		ck_assert_uint_gt(dropped, 0);
	cd_buf_free(&out);
	cd_game_free(g);
	cd_game_free(h);
}
END_TEST

/* The two examples of pgc(5), byte for byte. */
START_TEST(test_example_bytes)
{
	static const unsigned char reduced[] = {
		0x01, 0x07, 'C', 'l', 'u', 'b', ' ', 'c', 'h', 0x01, '?',
		0x0a, '?', '?', '?', '?', '.', '?', '?', '.', '?', '?',
		0x01, '?', 0x05, 'S', 'm', 'i', 't', 'h', 0x05, 'J', 'o',
		'n', 'e', 's', 0x03, '1', '-', '0', 0x07, 0x00, 0x0d, 0x0c,
		0x0e, 0x07, 0x02, 0x0b, 0x1c
	};
	static const unsigned char movetext[] = {
		0x03, 0x03, 0x0d, 0x0c, 0x0e, 0x07, 0x02, 0x08, 0x03, 0x01,
		0x09, 0x09, 0x03, 0x01, 0x07, 0x0b, 0x0c, 0x00, 'A', 't',
		't', 'a', 'c', 'k', ' ', 'o', 'n', ' ', 'f', '7', 0x03, 0x03,
		0x02, 0x0b, 0x1c, 0x06
	};
	cd_game *g = parse("[Event \"Club ch\"]\n[White \"Smith\"]\n"
	    "[Black \"Jones\"]\n[Result \"1-0\"]\n\n1.e4 e5 2.Qh5 Nc6 3.Bc4 "
	    "Nf6 4.Qxf7# 1-0\n");
	cd_buf out = { 0 };

	ck_assert_int_eq(cd_pgc_encode(g, 0, &out, NULL, NULL), CD_OK);
	ck_assert_uint_eq(out.len, sizeof(reduced));
	ck_assert_mem_eq(out.data, reduced, sizeof(reduced));
	cd_game_free(g);
	g = parse("[Event \"Club ch\"]\n[White \"Smith\"]\n[Black \"Jones\"]\n"
	    "[Result \"1-0\"]\n[ECO \"C20\"]\n\n1.e4 e5 2.Qh5? (2.Nf3) Nc6 "
	    "{Attack on f7} 3.Bc4 Nf6 4.Qxf7# 1-0\n");
	out.len = 0;
	ck_assert_int_eq(cd_pgc_encode(g, CD_PGC_WITH_COMMENTS, &out, NULL,
	    NULL), CD_OK);
	ck_assert_uint_eq(out.len, 133);
	ck_assert_int_eq((unsigned char)out.data[0], 0x05);
	ck_assert_mem_eq(out.data + out.len - sizeof(movetext), movetext,
	    sizeof(movetext));
	cd_buf_free(&out);
	cd_game_free(g);
}
END_TEST

/* What PGC cannot hold: an error, nothing appended. */
START_TEST(test_unfit)
{
	cd_buf out = { 0 };
	cd_error err;
	char text[70000 + 200], *p;
	cd_game *g;

	ck_assert_int_eq(cd_pgc_encode(g = parse("1. e4 -- 2. d4 *\n"), 0,
	    &out, NULL, &err), CD_ERR_UNSUPPORTED);
	ck_assert_uint_eq(out.len, 0);
	ck_assert_str_eq(err.msg, "1... --: a null move, which PGC cannot "
	    "hold");
	cd_game_free(g);
	/* a null move inside a variation too */
	ck_assert_int_eq(cd_pgc_encode(g = parse("1. e4 (1. d4 --) e5 *\n"),
	    0, &out, NULL, &err), CD_ERR_UNSUPPORTED);
	ck_assert_uint_eq(out.len, 0);
	cd_game_free(g);

	/* tag values of 255 bytes fit, 256 do not; names alike */
	p = text + sprintf(text, "[Annotator \"");
	memset(p, 'x', 255);
	strcpy(p + 255, "\"]\n\n1. e4 *\n");
	ck_assert_int_eq(cd_pgc_encode(g = parse(text), 0, &out, NULL, &err),
	    CD_OK);
	ck_assert_uint_gt(out.len, 0);
	out.len = 0;
	cd_game_free(g);
	memset(p, 'x', 256);
	strcpy(p + 256, "\"]\n\n1. e4 *\n");
	ck_assert_int_eq(cd_pgc_encode(g = parse(text), 0, &out, NULL, &err),
	    CD_ERR_RANGE);
	ck_assert_uint_eq(out.len, 0);
	cd_game_free(g);
	/* a roster value over 255 cannot go in 0x01 nor 0x02 */
	p = text + sprintf(text, "[White \"");
	memset(p, 'y', 300);
	strcpy(p + 300, "\"]\n\n1. e4 *\n");
	ck_assert_int_eq(cd_pgc_encode(g = parse(text), 0, &out, NULL, &err),
	    CD_ERR_RANGE);
	ck_assert_uint_eq(out.len, 0);
	cd_game_free(g);

	/* a comment of 65536 bytes: dropped fine, kept not */
	p = text + sprintf(text, "1. e4 { ");
	memset(p, 'z', 65536);
	strcpy(p + 65536, " } *\n");
	g = parse(text);
	ck_assert_int_eq(cd_pgc_encode(g, 0, &out, NULL, &err), CD_OK);
	out.len = 0;
	ck_assert_int_eq(cd_pgc_encode(g, CD_PGC_WITH_COMMENTS, &out, NULL,
	    &err), CD_ERR_RANGE);
	ck_assert_uint_eq(out.len, 0);
	cd_game_free(g);
	p[65535] = ' ';
	g = parse(text);
	ck_assert_int_eq(cd_pgc_encode(g, CD_PGC_WITH_COMMENTS, &out, NULL,
	    &err), CD_OK);
	cd_game_free(g);
	cd_buf_free(&out);
}
END_TEST

/* Long runs of moves: 0x04 beyond 255 moves, a new 0x04 beyond 65535,
 * record 0x01 up to 65535 moves only. */
START_TEST(test_long_runs)
{
	static const unsigned plies[] = { 255, 256, 65535, 65536, 70000 };
	static const cd_move shuffle[4] = {
		CD_MOVE(CD_G1, 21, 0), CD_MOVE(62, 45, 0),
		CD_MOVE(21, CD_G1, 0), CD_MOVE(45, 62, 0)
	};
	cd_game *g = cd_game_new(), *h = cd_game_new();
	cd_buf out = { 0 };
	unsigned k, i, tagged;

	for (k = 0; k < sizeof(plies) / sizeof(plies[0]); k++) {
		for (tagged = 0; tagged < 2; tagged++) {
			const unsigned char *d;
			char *want, *got;

			cd_game_clear(g);
			if (tagged)
				cd_game_add_tag(g, "ECO", 3, "A00", 3);
			ck_assert_int_eq(cd_game_setup(g, NULL), CD_OK);
			for (i = 0; i < plies[k]; i++)
				ck_assert_int_eq(cd_game_add_move(g,
				    shuffle[i % 4], NULL), CD_OK);
			out.len = 0;
			ck_assert_int_eq(cd_pgc_encode(g, 0, &out, NULL, NULL),
			    CD_OK);
			d = (const unsigned char *)out.data;
			if (!tagged && plies[k] <= 65535) {
				/* 0x01: 7 strings of 23 bytes, the count */
				ck_assert_uint_eq(out.len, 1 + 23 + 2 +
				    plies[k]);
				ck_assert_uint_eq(d[0], 0x01);
				ck_assert_uint_eq(d[24] | d[25] << 8,
				    plies[k]);
			} else {
				/* the rest of a run over 65535 moves is a
				 * new sequence, 0x03 or 0x04 by its length */
				unsigned rest = plies[k] > 65535 ?
				    plies[k] - 65535 : 0;
				size_t at = out.len - 1 - plies[k] -
				    (plies[k] > 255 ? 3 : 2) -
				    (rest == 0 ? 0 : rest > 255 ? 3 : 2);

				ck_assert_uint_eq(d[0], 0x05);
				ck_assert_uint_eq(d[out.len - 1], 0x06);
				if (plies[k] <= 255) {
					ck_assert_uint_eq(d[at], 0x03);
					ck_assert_uint_eq(d[at + 1], plies[k]);
				} else {
					ck_assert_uint_eq(d[at], 0x04);
					ck_assert_uint_eq(d[at + 1] |
					    d[at + 2] << 8, plies[k] - rest);
				}
				if (rest > 255) {
					at += 3 + 65535;
					ck_assert_uint_eq(d[at], 0x04);
					ck_assert_uint_eq(d[at + 1] |
					    d[at + 2] << 8, rest);
				} else if (rest > 0) {
					at += 3 + 65535;
					ck_assert_uint_eq(d[at], 0x03);
					ck_assert_uint_eq(d[at + 1], rest);
				}
			}
			decode_one(out.data, out.len, h);
			ck_assert_uint_eq(h->nnodes, plies[k] + 1);
			want = export(g, 0);
			got = export(h, 0);
			ck_assert_str_eq(got, want);
			free(want);
			free(got);
		}
	}
	cd_buf_free(&out);
	cd_game_free(g);
	cd_game_free(h);
}
END_TEST

/* The sample fixture as PGC (all games, with comments). */
static void
sample_pgc(cd_buf *out, size_t *ngames)
{
	const char *dir = getenv("top_srcdir");
	char path[4096];
	FILE *f;
	cd_pgn_reader *r;
	cd_pgn_raw_game raw;
	cd_game *g = cd_game_new();

	snprintf(path, sizeof(path), "%s/tests/files/pgc-sample.pgn",
	    dir ? dir : "..");
	f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "%s", path);
	r = cd_pgn_reader_new(f);
	*ngames = 0;
	while (cd_pgn_reader_next(r, &raw) == CD_OK) {
		ck_assert_int_eq(cd_pgn_parse(g, &raw, NULL, NULL), CD_OK);
		ck_assert_int_eq(cd_pgc_encode(g, CD_PGC_WITH_COMMENTS, out,
		    NULL, NULL), CD_OK);
		(*ngames)++;
	}
	cd_pgn_reader_free(r);
	fclose(f);
	cd_game_free(g);
}

/* Decode len bytes: the games' export texts concatenated into *text,
 * the final status returned, err filled. */
static cd_status
decode_all(const void *buf, size_t len, cd_buf *text, size_t *ngames,
    cd_error *err)
{
	cd_pgc_reader *r = cd_pgc_reader_new_mem(buf, len);
	cd_game *g = cd_game_new();
	cd_status st;

	*ngames = 0;
	text->len = 0;
	while ((st = cd_pgc_reader_next(r, g, err)) == CD_OK) {
		ck_assert_int_eq(cd_pgn_write_buf(g, 0, text), CD_OK);
		(*ngames)++;
	}
	/* sticky, and kept on the reader */
	ck_assert_int_eq(cd_pgc_reader_next(r, g, NULL), st);
	if (st != CD_EOF) {
		const cd_error *kept = cd_pgc_reader_error(r);

		ck_assert_int_eq(kept->status, st);
		ck_assert_int_eq(err->status, st);
		ck_assert_uint_eq(kept->offset, err->offset);
		ck_assert_str_eq(kept->msg, err->msg);
		ck_assert(kept->line == 0 && kept->col == 0);
	} else {
		ck_assert_int_eq(cd_pgc_reader_error(r)->status, CD_OK);
	}
	cd_pgc_reader_free(r);
	cd_game_free(g);
	return st;
}

/* The sample cut at every byte offset: the games before the cut come
 * out whole and the same, then CD_EOF at a game boundary, else
 * CD_ERR_CORRUPT with an offset inside the input. */
START_TEST(test_truncation)
{
	cd_buf pgc = { 0 }, full = { 0 };
	cd_buf part = { 0 };
	cd_error err;
	size_t ngames, n, got, boundaries = 0;
	cd_status st;

	sample_pgc(&pgc, &ngames);
	ck_assert_uint_ge(ngames, 5);
	ck_assert_int_eq(decode_all(pgc.data, pgc.len, &full, &n, &err),
	    CD_EOF);
	ck_assert_uint_eq(n, ngames);
	for (n = 0; n < pgc.len; n++) {
		st = decode_all(pgc.data, n, &part, &got, &err);
		if (st == CD_EOF) {
			boundaries++;
		} else {
			ck_assert_int_eq(st, CD_ERR_CORRUPT);
			ck_assert_uint_le(err.offset, n);
			ck_assert_msg(strlen(err.msg) > 0, "no message");
		}
		ck_assert_uint_lt(got, ngames);
		ck_assert_uint_le(part.len, full.len);
		if (part.len > 0)
			ck_assert_mem_eq(part.data, full.data, part.len);
	}
	/* the cuts at 0 and at each game's end but the last */
	ck_assert_uint_eq(boundaries, ngames);
	cd_buf_free(&pgc);
	cd_buf_free(&full);
	cd_buf_free(&part);
}
END_TEST

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static unsigned
next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng >> 32);
}

/* Random bytes (biased to markers and small ordinals) and the sample
 * with one byte changed: never a crash, an error names an offset
 * inside the input. */
START_TEST(test_damage)
{
	cd_buf pgc = { 0 }, text = { 0 };
	unsigned char buf[512];
	cd_error err;
	size_t ngames, n, len, i;
	cd_status st;

	for (n = 0; n < 20000; n++) {
		len = 1 + next_rand() % sizeof(buf);
		for (i = 0; i < len; i++) {
			unsigned v = next_rand();

			buf[i] = (unsigned char)(v % 4 == 0 ? v >> 8 :
			    (v >> 8) % 13);
		}
		st = decode_all(buf, len, &text, &ngames, &err);
		ck_assert(st == CD_EOF || st == CD_ERR_CORRUPT);
		if (st == CD_ERR_CORRUPT)
			ck_assert_uint_le(err.offset, len);
	}
	sample_pgc(&pgc, &ngames);
	for (n = 0; n < pgc.len; n++) {
		unsigned char keep = (unsigned char)pgc.data[n];

		for (i = 0; i < 4; i++) {
			pgc.data[n] = (char)(i == 0 ? keep ^ 0xff : i == 1 ?
			    keep + 1 : i == 2 ? keep - 1 : next_rand());
			st = decode_all(pgc.data, pgc.len, &text, &len, &err);
			ck_assert(st == CD_EOF || st == CD_ERR_CORRUPT);
		}
		pgc.data[n] = (char)keep;
	}
	cd_buf_free(&pgc);
	cd_buf_free(&text);
}
END_TEST

/* The stream reader reads in blocks: games across block boundaries
 * decode as from memory. */
START_TEST(test_stream)
{
	cd_buf pgc = { 0 }, many = { 0 };
	cd_buf a = { 0 }, b = { 0 };
	cd_pgc_reader *r;
	cd_error err;
	cd_game *g = cd_game_new();
	size_t ngames, n, k;
	cd_status st;
	FILE *f = tmpfile();

	ck_assert_ptr_nonnull(f);
	sample_pgc(&pgc, &ngames);
	for (k = 0; k < 300; k++) {
		ck_assert_uint_eq(fwrite(pgc.data, 1, pgc.len, f), pgc.len);
		many.data = realloc(many.data, many.len + pgc.len);
		memcpy(many.data + many.len, pgc.data, pgc.len);
		many.len += pgc.len;
	}
	ck_assert_uint_gt(many.len, 3 * 65536);
	rewind(f);
	ck_assert_int_eq(decode_all(many.data, many.len, &a, &n, &err),
	    CD_EOF);
	ck_assert_uint_eq(n, 300 * ngames);
	r = cd_pgc_reader_new(f);
	while ((st = cd_pgc_reader_next(r, g, &err)) == CD_OK)
		ck_assert_int_eq(cd_pgn_write_buf(g, 0, &b), CD_OK);
	ck_assert_int_eq(st, CD_EOF);
	ck_assert_uint_eq(cd_pgc_reader_tell(r), many.len);
	ck_assert_uint_eq(a.len, b.len);
	ck_assert_mem_eq(a.data, b.data, a.len);
	cd_pgc_reader_free(r);
	cd_pgc_reader_free(NULL);
	fclose(f);
	cd_game_free(g);
	cd_buf_free(&pgc);
	cd_buf_free(&many);
	cd_buf_free(&a);
	cd_buf_free(&b);
}
END_TEST

static Suite *
pgc_suite(void)
{
	Suite *s = suite_create("pgc");
	TCase *tc = tcase_create("ordinals");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_trees, 0,
	    (int)(sizeof(trees) / sizeof(trees[0])));
	tcase_add_test(tc, test_standard_example);
	tcase_add_test(tc, test_not_legal);
	tcase_add_test(tc, test_no_moves);
	suite_add_tcase(s, tc);
	tc = tcase_create("codec");
	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_roundtrip, 0,
	    (int)(sizeof(games) / sizeof(games[0])));
	tcase_add_test(tc, test_example_bytes);
	tcase_add_test(tc, test_unfit);
	tcase_add_test(tc, test_long_runs);
	tcase_add_test(tc, test_truncation);
	tcase_add_test(tc, test_damage);
	tcase_add_test(tc, test_stream);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Corpus mode: check_pgc FILE.pgn... checks the ordinal order against
 * the sorted SAN strings on every position of every game (main lines
 * and variations, before each move and after the last), then prints
 * the number of games and positions.  Exit 1 at the first mismatch.
 */
static int
corpus(int argc, char **argv)
{
	cd_game *g = cd_game_new();
	cd_board *pos = NULL;
	size_t cap = 0;
	unsigned long long read = 0, positions = 0, rejected = 0;
	char msg[160];
	int k;

	for (k = 1; k < argc; k++) {
		FILE *f = strcmp(argv[k], "-") == 0 ? stdin :
		    fopen(argv[k], "rb");
		cd_pgn_reader *r;
		cd_pgn_raw_game raw;

		if (f == NULL) {
			perror(argv[k]);
			return 2;
		}
		r = cd_pgn_reader_new(f);
		while (cd_pgn_reader_next(r, &raw) == CD_OK) {
			uint32_t i;

			if (cd_pgn_parse(g, &raw, NULL, NULL) != CD_OK) {
				rejected++;
				continue;
			}
			read++;
			if (g->nnodes > cap) {
				cap = g->nnodes * 2;
				pos = realloc(pos, cap * sizeof(*pos));
				if (pos == NULL)
					return 2;
			}
			pos[0] = g->start;
			for (i = 0; i < g->nnodes; i++) {
				const cd_game_node *nd = &g->nodes[i];

				if (i > 0) {
					pos[i] = pos[nd->parent];
					if (nd->move != CD_MOVE_NULL)
						cd_board_make(&pos[i],
						    nd->move);
					else
						continue;
				}
				/* the position after node i (before the
				 * moves that follow it) */
				positions++;
				if (!position_ok(&pos[i], msg)) {
					fprintf(stderr, "%s: game %llu: %s\n",
					    argv[k],
					    (unsigned long long)raw.number,
					    msg);
					return 1;
				}
			}
		}
		cd_pgn_reader_free(r);
		if (f != stdin)
			fclose(f);
	}
	printf("%llu games, %llu positions: ordinals equal the sorted SAN "
	    "(%llu games did not parse)\n", read, positions, rejected);
	free(pos);
	cd_game_free(g);
	return 0;
}

TU_SUITES_ARGS(corpus, pgc_suite);
