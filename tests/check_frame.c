/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_frame.c: the framer's note of binary bytes.  The reader marks
 * a game CD_PGN_RAW_NUL exactly when its bytes hold a NUL or another
 * byte that text does not hold (cd_pgn_raw_check's rule), and the
 * framer saw most of a game's bytes on its way (the usual tag lines,
 * the wide scan's blocks), which are then not searched again: so each
 * byte value at each place of two games (their tag lines, usual and
 * not, the blank line, movetext in comments and out, comments over
 * several blocks and lines, the comments after the marker), the games
 * moved by up to 64 bytes (a longer first tag value) over the blocks,
 * read from memory, must mark the games that hold a binary byte and
 * those only.
 */
#include "config.h"

#include <check.h>
#include <stdbool.h>
#include <string.h>

#include "chessdata.h"
#include "check-main.h"

/* Whether c is binary (cd_pgn_raw_check): NUL, DEL, and the control
 * bytes but tab, LF, VT, FF, CR, SUB and ESC. */
static bool
binary(unsigned char c)
{
	return c == 0x7f || (c < 0x20 && !(c >= 0x09 && c <= 0x0d) &&
	    c != 0x1a && c != 0x1b);
}

/* A game (after its first tag's value): the usual tag lines, one with
 * a name too long for them, blocks and lines of movetext, comments
 * after its marker. */
static const char game[] =
    "\"]\n"
    "[Site \"https://lichess.org/abcdefgh\"]\n"
    "[ECOUrl \"https://www.chess.com/openings/B06-Modern-Defense-with-"
    "1-e4-and-more\"]\n"
    "[AVeryLongTagName \"x\"]\n"
    "[Result \"1-0\"]\n"
    "\n"
    "1. e4 {[%clk 0:02:59]} 1... e5 {[%clk 0:02:58]} 2. Nf3 { a comment "
    "that runs over more than one block of sixty-four bytes, to its end "
    "} 2... Nc6 {[%clk 0:02:57]}\n"
    "3. Bb5 { over\ntwo lines } 3... a6 ; to the line end\n"
    "4. Ba4 \"a string\" (4. Bxc6 dxc6) 4... Nf6 {[%clk 0:02:50]} 1-0 "
    "{ after the marker }\n"
    "; and a line of comment\n"
    "\n";

/* The two games, their first tag values of pad bytes, into in: their
 * length. */
static size_t
games(char *in, size_t pad)
{
	size_t n = 0, i;

	for (i = 0; i < 2; i++) {
		memcpy(in + n, "[Event \"", 8);
		memset(in + n + 8, 'x', pad);
		n += 8 + pad;
		memcpy(in + n, game, sizeof(game) - 1);
		n += sizeof(game) - 1;
	}
	return n;
}

START_TEST(test_binary_bytes)
{
	static const unsigned char values[] = { 0x00, 0x01, 0x0e, 0x1c,
	    0x7f, 0x0b, 0x1b, 0x80 };
	char in[2 * (8 + 64 + sizeof(game))];
	size_t pad = (size_t)_i, n = games(in, pad), k, i;

	for (i = 0; i < sizeof(values); i++)
		for (k = 0; k < n; k++) {
			cd_pgn_reader *r;
			cd_pgn_raw_game g;
			size_t j;
			bool has;

			games(in, pad);
			in[k] = (char)values[i];
			r = cd_pgn_reader_new_mem(in, n);
			ck_assert_ptr_nonnull(r);
			while (cd_pgn_reader_next(r, &g) == CD_OK) {
				for (has = false, j = 0; j < g.len; j++)
					has |= binary((unsigned char)g.text[j]);
				if (((g.flags & CD_PGN_RAW_NUL) != 0) != has)
					ck_abort_msg("pad %zu, byte 0x%02x at "
					    "%zu: game at %zu (%zu bytes) %s",
					    pad, values[i], k,
					    (size_t)(g.text - in), g.len,
					    has ? "not marked" :
					    "marked, with no binary byte");
			}
			cd_pgn_reader_free(r);
		}
}
END_TEST

static Suite *
frame_suite(void)
{
	Suite *s = suite_create("frame");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_binary_bytes, 0, 64);
	suite_add_tcase(s, tc);
	return s;
}

TU_SUITES(frame_suite);
