/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_polyglot.c: Polyglot books (chessdata/polyglot.h): the keys
 * published with the format's description, its en passant rule, book
 * moves, looking up entries, and the counts, filters and order of
 * making a book as `polyglot make-book` does.
 */
#include "config.h"

#include "core-util.h"
#include <chessdata/polyglot.h>
#include "check-main.h"

/* The keys published with the format's description. */
static const struct {
	const char *moves;
	uint64_t key;
} published[] = {
	{ "", 0x463b96181691fc9cULL },
	{ "e4", 0x823c9b50fd114196ULL },
	{ "e4 d5", 0x0756b94461c50fb0ULL },
	{ "e4 d5 e5", 0x662fafb965db29d4ULL },
	{ "e4 d5 e5 f5", 0x22a48b5a8e47ff78ULL },
	{ "e4 d5 e5 f5 Ke2", 0x652a607ca3f242c1ULL },
	{ "e4 d5 e5 f5 Ke2 Kf7", 0x00fdd303c946bdd9ULL },
	{ "a4 b5 h4 b4 c4", 0x3c8123ea7b067637ULL },
	{ "a4 b5 h4 b4 c4 bxc3 Ra3", 0x5c3f9b829b279560ULL },
};

START_TEST(test_published)
{
	cd_board b;

	cd_board_init(&b);
	tu_play(&b, published[_i].moves);
	ck_assert_msg(cd_polyglot_key(&b) == published[_i].key,
	    "after '%s': %016llx, want %016llx", published[_i].moves,
	    (unsigned long long)cd_polyglot_key(&b),
	    (unsigned long long)published[_i].key);
}
END_TEST

/* The en passant file counts where a pawn of the side to move stands
 * beside the pushed pawn, legal capture or not; nowhere else. */
START_TEST(test_en_passant)
{
	cd_board b, c;

	/* e4 (no black pawn beside e4): as without the square */
	tu_fen(&b, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 "
	    "0 1", 0);
	tu_fen(&c, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - "
	    "0 1", 0);
	ck_assert(cd_polyglot_key(&b) == cd_polyglot_key(&c));
	/* a pinned pawn beside: the capture is illegal, the file counts
	 * (the board's own key leaves it out) */
	tu_fen(&b, "8/8/8/K2pP2q/8/8/8/7k w - d6 0 1", 0);
	tu_fen(&c, "8/8/8/K2pP2q/8/8/8/7k w - - 0 1", 0);
	ck_assert(cd_polyglot_key(&b) != cd_polyglot_key(&c));
	ck_assert(b.key == c.key);
	/* a pawn of the side that pushed beside it: no */
	tu_fen(&b, "4k3/8/8/8/3pp3/8/8/4K3 w - d3 0 1", CD_FEN_NO_VALIDATE);
	tu_fen(&c, "4k3/8/8/8/3pp3/8/8/4K3 w - - 0 1", 0);
	ck_assert(cd_polyglot_key(&b) == cd_polyglot_key(&c));
}
END_TEST

/* Castling rights are four numbers whatever the rook's file: a
 * Chess960 position keys them as the standard one. */
START_TEST(test_castling)
{
	cd_board b, c;

	tu_fen(&b, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 0);
	tu_fen(&c, "r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1", 0);
	ck_assert(cd_polyglot_key(&b) != cd_polyglot_key(&c));
	tu_fen(&c, "r3k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1", 0);
	ck_assert(cd_polyglot_key(&b) != cd_polyglot_key(&c));
	tu_fen(&c, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 0);
	ck_assert(cd_polyglot_key(&b) == cd_polyglot_key(&c));
}
END_TEST

START_TEST(test_moves)
{
	cd_board b;
	cd_move m;

	cd_board_init(&b);
	m = tu_uci(&b, "e2e4");
	ck_assert_uint_eq(cd_polyglot_move(m), 28 | 12 << 6);
	ck_assert_uint_eq(cd_polyglot_move_legal(&b, 28 | 12 << 6), m);
	ck_assert_uint_eq(cd_polyglot_move_legal(&b, 36 | 12 << 6),
	    CD_MOVE_NONE);
	/* castling: the king to its rook; e1g1 read as the same move */
	tu_fen(&b, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 0);
	m = tu_uci(&b, "e1g1");
	ck_assert_uint_eq(cd_polyglot_move(m), 7 | 4 << 6);
	ck_assert_uint_eq(cd_polyglot_move_legal(&b, 7 | 4 << 6), m);
	ck_assert_uint_eq(cd_polyglot_move_legal(&b, 6 | 4 << 6), m);
	m = tu_uci(&b, "e1c1");
	ck_assert_uint_eq(cd_polyglot_move(m), 0 | 4 << 6);
	/* promotions: 1 knight .. 4 queen */
	tu_fen(&b, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", 0);
	m = tu_uci(&b, "b7b8q");
	ck_assert_uint_eq(cd_polyglot_move(m), 57 | 49 << 6 | 4 << 12);
	m = tu_uci(&b, "b7b8n");
	ck_assert_uint_eq(cd_polyglot_move(m), 57 | 49 << 6 | 1 << 12);
	ck_assert_uint_eq(cd_polyglot_move_legal(&b, 57 | 49 << 6 | 1 << 12),
	    m);
}
END_TEST

START_TEST(test_entries)
{
	unsigned char book[5 * 16 + 7], buf[16];
	cd_polyglot_entry e = { 0x0123456789abcdefULL, 0x0107, 0xfffe,
	    0xdeadbeef }, f;
	static const uint64_t keys[5] = { 1, 5, 5, 5, 9 };
	size_t first, i;

	cd_polyglot_entry_pack(&e, buf);
	ck_assert_uint_eq(buf[0], 0x01);
	ck_assert_uint_eq(buf[7], 0xef);
	ck_assert_uint_eq(buf[8], 0x01);
	ck_assert_uint_eq(buf[9], 0x07);
	ck_assert_uint_eq(buf[10], 0xff);
	ck_assert_uint_eq(buf[15], 0xef);
	cd_polyglot_entry_unpack(buf, &f);
	ck_assert(memcmp(&e, &f, sizeof(e)) == 0);
	for (i = 0; i < 5; i++) {
		e.key = keys[i];
		e.move = (uint16_t)i;
		cd_polyglot_entry_pack(&e, book + 16 * i);
	}
	memset(book + 80, 0xff, 7);	/* a partial entry: ignored */
	ck_assert_uint_eq(cd_polyglot_find(book, sizeof(book), 5, &first), 3);
	ck_assert_uint_eq(first, 1);
	ck_assert_uint_eq(cd_polyglot_find(book, sizeof(book), 1, &first), 1);
	ck_assert_uint_eq(first, 0);
	ck_assert_uint_eq(cd_polyglot_find(book, sizeof(book), 9, &first), 1);
	ck_assert_uint_eq(first, 4);
	ck_assert_uint_eq(cd_polyglot_find(book, sizeof(book), 7, &first), 0);
	ck_assert_uint_eq(cd_polyglot_find(book, sizeof(book), 10, &first),
	    0);
	ck_assert_uint_eq(cd_polyglot_find(book, 0, 5, &first), 0);
}
END_TEST

/* The book's entries as (key, move, weight) triples. */
static size_t
entries(const cd_buf *b, cd_polyglot_entry *out, size_t max)
{
	size_t i;

	ck_assert_uint_eq(b->len % 16, 0);
	for (i = 0; i < b->len / 16 && i < max; i++)
		cd_polyglot_entry_unpack((const unsigned char *)b->data +
		    16 * i, &out[i]);
	return b->len / 16;
}

START_TEST(test_make)
{
	cd_polyglot_maker *mk = cd_polyglot_maker_new();
	cd_polyglot_make_opts o = { .min_game = 1 };
	cd_polyglot_entry e[8];
	cd_buf b = { 0 };
	int i;

	ck_assert_ptr_nonnull(mk);
	/* key 7: move 1 won twice, move 2 drew, move 3 lost; key 3
	 * (Black): move 4 a win and a loss */
	ck_assert_int_eq(cd_polyglot_maker_add(mk, 7, 1, CD_WHITE, 1), CD_OK);
	ck_assert_int_eq(cd_polyglot_maker_add(mk, 7, 2, CD_WHITE, 0), CD_OK);
	ck_assert_int_eq(cd_polyglot_maker_add(mk, 3, 4, CD_BLACK, 1), CD_OK);
	ck_assert_int_eq(cd_polyglot_maker_add(mk, 7, 3, CD_WHITE, -1), CD_OK);
	ck_assert_int_eq(cd_polyglot_maker_add(mk, 7, 1, CD_WHITE, 1), CD_OK);
	ck_assert_int_eq(cd_polyglot_maker_add(mk, 3, 4, CD_BLACK, -1), CD_OK);
	ck_assert_uint_eq(cd_polyglot_maker_count(mk), 4);
	ck_assert_int_eq(cd_polyglot_maker_write(mk, &o, &b), CD_OK);
	/* move 3 (sum 0) is left out; sorted by key, then weight */
	ck_assert_uint_eq(entries(&b, e, 8), 3);
	ck_assert(e[0].key == 3 && e[0].move == 4 && e[0].weight == 2);
	ck_assert(e[1].key == 7 && e[1].move == 1 && e[1].weight == 4);
	ck_assert(e[2].key == 7 && e[2].move == 2 && e[2].weight == 1);
	ck_assert_uint_eq(e[0].learn, 0);
	/* -min-game 2 */
	b.len = 0;
	o.min_game = 2;
	ck_assert_int_eq(cd_polyglot_maker_write(mk, &o, &b), CD_OK);
	ck_assert_uint_eq(entries(&b, e, 8), 2);
	ck_assert(e[0].key == 3 && e[1].key == 7 && e[1].move == 1);
	/* -min-score 60: move 4 scores 50% */
	b.len = 0;
	o.min_game = 1;
	o.min_score = 0.6;
	ck_assert_int_eq(cd_polyglot_maker_write(mk, &o, &b), CD_OK);
	ck_assert_uint_eq(entries(&b, e, 8), 1);
	ck_assert(e[0].key == 7 && e[0].move == 1);
	/* -only-white, -uniform: equal weights keep the order first
	 * played */
	b.len = 0;
	o.min_score = 0;
	o.no_black = o.uniform = true;
	ck_assert_int_eq(cd_polyglot_maker_write(mk, &o, &b), CD_OK);
	ck_assert_uint_eq(entries(&b, e, 8), 2);
	ck_assert(e[0].move == 1 && e[0].weight == 1 && e[1].move == 2);
	/* -only-black */
	b.len = 0;
	o.no_black = false;
	o.no_white = true;
	ck_assert_int_eq(cd_polyglot_maker_write(mk, &o, &b), CD_OK);
	ck_assert_uint_eq(entries(&b, e, 8), 1);
	ck_assert(e[0].key == 3);
	cd_polyglot_maker_free(mk);

	/* 16384 plays of one move halve every move of its position,
	 * rounded up: 16383 wins and 3 draws of another, then one more
	 * win: (16384 + 1) / 2 games, (32768 + 1) / 2 sum; (3 + 1) / 2 */
	mk = cd_polyglot_maker_new();
	ck_assert_ptr_nonnull(mk);
	for (i = 0; i < 3; i++)
		cd_polyglot_maker_add(mk, 9, 2, CD_WHITE, 0);
	for (i = 0; i < 16383; i++)
		cd_polyglot_maker_add(mk, 9, 1, CD_WHITE, 1);
	cd_polyglot_maker_add(mk, 8, 1, CD_WHITE, 1);
	b.len = 0;
	o.no_white = o.uniform = false;
	ck_assert_int_eq(cd_polyglot_maker_write(mk, &o, &b), CD_OK);
	ck_assert_uint_eq(entries(&b, e, 8), 3);
	ck_assert(e[1].key == 9 && e[1].move == 1 && e[1].weight == 32766);
	cd_polyglot_maker_add(mk, 9, 1, CD_WHITE, 1);
	b.len = 0;
	ck_assert_int_eq(cd_polyglot_maker_write(mk, &o, &b), CD_OK);
	ck_assert_uint_eq(entries(&b, e, 8), 3);
	ck_assert(e[1].key == 9 && e[1].move == 1 && e[1].weight == 16384);
	ck_assert(e[2].key == 9 && e[2].move == 2 && e[2].weight == 2);
	cd_polyglot_maker_free(mk);
	cd_polyglot_maker_free(NULL);
	cd_buf_free(&b);
}
END_TEST

static Suite *
polyglot_suite(void)
{
	Suite *s = suite_create("polyglot");
	TCase *tc;

	tc = tcase_create("key");
	tcase_add_loop_test(tc, test_published, 0,
	    (int)(sizeof(published) / sizeof(published[0])));
	tcase_add_test(tc, test_en_passant);
	tcase_add_test(tc, test_castling);
	suite_add_tcase(s, tc);

	tc = tcase_create("book");
	tcase_add_test(tc, test_moves);
	tcase_add_test(tc, test_entries);
	tcase_add_test(tc, test_make);
	suite_add_tcase(s, tc);
	return s;
}

TU_SUITES(polyglot_suite);
