/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_frame.c: the framer's note of binary bytes, its comments
 * found in the masks, its short movetexts, and the lines between a
 * marker and the next game.
 *
 * Binary bytes.  The reader marks
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
 *
 * The costly tests over 64 places run a fourth of them under the
 * sanitizers (make check-sanitizers: TU_SKIP_PLACE of tests/rounds.h,
 * one place for each place modulo 16); the plain build runs them all.
 */
#include "config.h"

#include <check.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "chessdata.h"
#include "check-main.h"
#include "core-util.h"
#include "rounds.h"

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
    "3... a6 {d=20, sd=49, pd=Bf1, mt=24893, tl=1695399, s=145655, "
    "pv=d5 e5 c5 Ne2 Ba6 a3 Nc6 c3 Qd7 h4 h5 g3 Rc8 Bg5 Nge7 Bh3 cxd4 "
    "cxd4 Na5 b4 Bxe2 Qxe2 Nc4 O-O b5 Rfb1 a6 Qd1 Nc6 Qc1 Be7 Qf4 f6, "
    "tb=0, h=0.0, ph=100.0, wv=0.41, R50=50, Rd=-11, mb=+0+0+0+0+0,}\n"
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

	/* (a fourth of the places under the sanitizers) */
	if (TU_SKIP_PLACE(_i))
		return;
	for (i = 0; i < sizeof(values); i++)
		for (k = 0; k < n; k++) {
			cd_pgn_reader *r;
			cd_pgn_raw_game g;
			size_t j;
			bool has;

			games(in, pad);
			in[k] = (char)values[i];
			r = cd_pgn_reader_new_mem(in, n);
			TU_CHECK(r != NULL, "no reader");
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

/*
 * The comments in the masks (frame.c: wide_next): the wide scan frames
 * as the narrow one (CHESSDATA_NARROW_FRAME), each game at the same
 * place with the same flags, marker and lines, where the movetext is
 * made of pieces that stop the masks' reading: a `{` inside a comment,
 * a `}` outside one, comments over lines and over blocks, braces in
 * strings and `;` comments (read by the scan, not by the masks),
 * markers inside and after them, and comments over whole blocks with a
 * line end or a brace far into them; the games moved over 64 places, the
 * pieces drawn in several orders.
 */
static const char *const pieces[] = {
	"1. e4 ", "e5 ", "O-O ", "{[%clk 0:02:59]} ", "{c}", "{} ", "{{}} ",
	"{ a 1-0 b } ", "{ x { y 0-1 } ", "} ", "}} 2. ", "{a}{b}{c}{d}{e} ",
	"{ over\ntwo 1-0 lines } ", "\"a { 1-0\" ", "\"b } c\" ",
	"; d { 1-0\n", "(2. d4 {v} 1-0) ", "\n", "{ e\n} ",
	"{ a comment that runs over more than one block of sixty-four "
	"bytes 1-0 } ", "{1-0}{0-1}{*} ", "{ f } } 1/2-1/2 ", "{ g 1-0\n\n"
	"[Event \"inside\"]\n} ", "% h { 1-0\n", "{ i ; 1-0 } ",
	/* comments that fill whole blocks (as an engine's after each
	 * move), one with a line end, one with a `{`, one with a `}` far
	 * into it */
	"{d=20, sd=49, pd=Bf1, mt=24893, tl=1695399, s=145655, n=6498221, "
	"pv=d5 e5 c5 Ne2 Ba6 a3 Nc6 c3 Qd7 h4 h5 g3 Rc8 Bg5 Nge7 Bh3 cxd4 "
	"cxd4 Na5 b4 Bxe2 Qxe2 Nc4 O-O b5 Rfb1 a6 Qd1 Nc6 Qc1 Be7 Qf4 f6, "
	"tb=0, h=0.0, ph=100.0, wv=0.41, R50=50, Rd=-11, mb=+0+0+0+0+0,}\n",
	"{ j 1-0 ............................................................"
	"................................................................"
	"...............\n.............................................. } ",
	"{ k ................................................................"
	"................................................................"
	"....{.......................................................... } ",
	"{ l ................................................................"
	"................................................................"
	"....}.......1-0...................................................} ",
};

/* The games of draw d made of the np pieces pcs, their first tag
 * values of pad bytes, into in (of cap bytes): their length. */
static size_t
piece_games(char *in, size_t cap, size_t pad, unsigned d,
    const char *const *pcs, size_t npcs)
{
	unsigned long x = 12345 + 7919UL * d;
	size_t n = 0, k, len;
	unsigned g, i, np;

	for (g = 0; g < 6; g++) {
		k = (size_t)snprintf(in + n, cap - n, "[Event \"%*s\"]\n"
		    "[Result \"*\"]\n\n", (int)pad, "");
		n += k;
		x = x * 1103515245 + 12345;
		np = 1 + (unsigned)(x >> 16) % 24;
		for (i = 0; i < np; i++) {
			const char *pc;

			x = x * 1103515245 + 12345;
			pc = pcs[(x >> 16) % npcs];
			len = strlen(pc);
			TU_CHECK(n + len < cap, "%zu bytes", n + len);
			memcpy(in + n, pc, len);
			n += len;
		}
		len = g % 2 == 0 ? 6 : 5;
		memcpy(in + n, g % 2 == 0 ? " 1-0\n\n" : " *\n\n", len);
		n += len;
	}
	return n;
}

/* The games of in read, with the narrow scan or not, into g (at most
 * max): how many. */
static size_t
read_all(const char *in, size_t n, bool narrow, cd_pgn_raw_game *g,
    size_t max)
{
	cd_pgn_reader *r;
	size_t k = 0;

	if (narrow)
		setenv("CHESSDATA_NARROW_FRAME", "1", 1);
	else
		unsetenv("CHESSDATA_NARROW_FRAME");
	r = cd_pgn_reader_new_mem(in, n);
	unsetenv("CHESSDATA_NARROW_FRAME");
	TU_CHECK(r != NULL, "no reader");
	while (k < max && cd_pgn_reader_next(r, &g[k]) == CD_OK)
		k++;
	cd_pgn_reader_free(r);
	return k;
}

/* Whether the wide scan's game a is the narrow scan's b. */
static bool
same_game(const cd_pgn_raw_game *a, const cd_pgn_raw_game *b)
{
	return a->text == b->text && a->len == b->len &&
	    a->movetext == b->movetext && a->movetext_end == b->movetext_end &&
	    a->result == b->result && a->flags == b->flags &&
	    a->line == b->line && a->movetext_line == b->movetext_line &&
	    a->col == b->col && a->movetext_col == b->movetext_col &&
	    a->skipped_bytes == b->skipped_bytes;
}

/* The games of 40 draws of the npcs pieces pcs, their first tag values
 * of pad bytes, framed wide as narrow. */
static void
drawn_games_as_narrow(size_t pad, const char *const *pcs, size_t npcs)
{
	static char in[60000];
	cd_pgn_raw_game a[64], b[64];
	size_t n, na, nb, k;
	unsigned d;

	for (d = 0; d < 40; d++) {
		n = piece_games(in, sizeof(in), pad, d, pcs, npcs);
		na = read_all(in, n, false, a, 64);
		nb = read_all(in, n, true, b, 64);
		TU_CHECK(na == nb, "pad %zu, draw %u: %zu games, narrow "
		    "%zu", pad, d, na, nb);
		for (k = 0; k < na; k++)
			TU_CHECK(same_game(&a[k], &b[k]), "pad %zu, "
			    "draw %u, game %zu (at %zu): not as narrow (at "
			    "%zu, %zu bytes against %zu; line %lu against "
			    "%lu)", pad, d, k, (size_t)(a[k].text - in),
			    (size_t)(b[k].text - in), a[k].len, b[k].len,
			    (unsigned long)a[k].line,
			    (unsigned long)b[k].line);
	}
}

START_TEST(test_comment_masks)
{
	drawn_games_as_narrow((size_t)_i, pieces,
	    sizeof(pieces) / sizeof(pieces[0]));
}
END_TEST

/*
 * The blocks the wide scan passes whole (frame.c: wide_run_avx2): those
 * with no stop byte outside comments but line ends, `-` and `/` in
 * words that do not start as a marker does.  Games of pieces that put
 * every kind of such word (castling, a move with a dash, `0-0`, the
 * markers, `½-½`, words that run over a block's end, castling before
 * words that start as a marker does) and line ends
 * (several in a block, a blank line, a line that starts with `%` or
 * `[` after them, a comment after them) at each place of the blocks,
 * with clocks' comments and comments longer than a block between
 * them, frame as with the narrow scan: the same games, lines and
 * markers.  Some pieces are long, so that the games run over many
 * blocks; the draws repeat pieces so that runs of plain blocks come.
 */
static const char *const plain_pieces[] = {
	"1. e4 ", "e5 ", "O-O ", "O-O-O ", "Nf3-e5 ", "0-0 ", "0-0-0 ",
	"{[%clk 0:02:59]} ", "{ [%eval 0.17] [%clk 0:03:00] } ",
	"12... Qd8-d7+ ", "\n", "\n\n", "\n% escape - 1-0\n",
	"\n[Event \"x\"] 1-0\n", "\n  [ 1-0 ] ", "\n{ after 1-0 } ",
	"1-0 ", "0-1 ", "1/2-1/2 ", "\xc2\xbd-\xc2\xbd ", "*", "- ",
	"/ ", "a/b-c ", "1.e4-e5 ", "x1-0 ", "O-O{c}-O ", "e4\ne5-e6 ",
	"2-1 ", "10-10 ", "--------------------------------------------"
	"------------------------------------------ ",
	"Qa1-a2-a3-a4-a5-a6-a7-a8-b8-b7-b6-b5-b4-b3-b2-b1-c1-c2-c3-c4-c5-"
	"c6-c7-c8-1-0 ",
	"1. e4 {[%clk 0:02:59]} 1... e5 {[%clk 0:02:58]} 2. Nf3 "
	"{[%clk 0:02:57]} 2... Nc6 {[%clk 0:02:56]} 3. O-O "
	"{[%clk 0:02:55]} 3... Nf6 {[%clk 0:02:54]} ",
	"{d=20, sd=49, pd=Bf1, mt=24893, tl=1695399, s=145655, n=6498221, "
	"pv=d5 e5 c5 Ne2 Ba6 a3 Nc6 c3 Qd7 h4 h5 g3 Rc8 Bg5 Nge7 Bh3 cxd4 "
	"cxd4 Na5 b4 Bxe2 Qxe2 Nc4 O-O b5 Rfb1 a6 Qd1 Nc6 Qc1 Be7 Qf4 f6, "
	"tb=0, h=0.0, ph=100.0, wv=0.41, R50=50, Rd=-11, mb=+0+0+0+0+0,}\n",
	"{ a long comment ............................................."
	"...............................................\n on two lines } ",
	/* (castling's `O-`, passed without reading the word back to its
	 * start: no marker holds an `O`; words with an `O` that start as
	 * a marker does, or with a marker after it) */
	"O-O+ ", "1O-0 ", "1O-O ", "0O-1 ", "1O/2-1/2 ", "1/2O-1/2 ",
	"\xc2\xbdO-\xc2\xbd ", "O-1-0 ", "O-0-1 ", "O/1/2-1/2 ", "1-O-0 ",
	"OO--OO ", "O-O 1-0 ", "O-O-O 0-1 ", "O-O-O\n", "\nO-O ",
	"12. O-O {[%clk 0:01:00]} 12... O-O-O {[%clk 0:00:59]} 13. Qd1-d2 ",
	"O-O-O-O-O-O-O-O-O-O-O-O-O-O-O-O-O-O-O-O-O-O-O-O-O-O-O-O-O-O-O-O-O-O-"
	"O-1-0 ",
};

START_TEST(test_plain_runs)
{
	drawn_games_as_narrow((size_t)_i, plain_pieces,
	    sizeof(plain_pieces) / sizeof(plain_pieces[0]));
}
END_TEST

/*
 * Line ends in the blocks the wide scan passes whole (frame.c:
 * wide_run_avx2 counts them, the last one found by its mask): a
 * movetext of words with no stop byte, then one, two or three line
 * ends at each place of a block, then a line that starts with `%` (an
 * escape line holding a marker), with `[` after blanks (the next
 * game's tags, or not a tag), or with a comment and a marker; frame as
 * with the narrow scan: the same games, lines and columns.
 */
START_TEST(test_plain_line_ends)
{
	static const char *const after[] = {
		"% an escape line 1-0\n2. d4 d5 *\n\n",
		"\n  [Event \"next\"]\n\n1. d4 *\n\n",
		"[ 1-0 ] 2. d4 d5 *\n\n",
		"e4\ne5\n% 1-0\n*\n\n",
		"{ a comment\n} 1-0\n\n",
		"\n\n\n\n\n% 0-1\n  [Event \"next\"]\n\n*\n\n",
	};
	static char in[4000];
	cd_pgn_raw_game a[8], b[8];
	size_t pad = (size_t)_i, n, na, nb, k, f, i, j;

	/* (a fourth of the places under the sanitizers) */
	if (TU_SKIP_PLACE(_i))
		return;

	for (i = 0; i < sizeof(after) / sizeof(after[0]); i++)
		for (j = 1; j <= 3; j++)
			for (f = 60; f < 200; f++) {
				n = (size_t)snprintf(in, sizeof(in),
				    "[Event \"%*s\"]\n\n", (int)pad, "");
				for (k = 0; k < f; k++)
					in[n++] = "1. e4 e5 Nf3 "[k % 13];
				for (k = 0; k < j; k++)
					in[n++] = '\n';
				n += (size_t)snprintf(in + n, sizeof(in) - n,
				    "%s", after[i]);
				na = read_all(in, n, false, a, 8);
				nb = read_all(in, n, true, b, 8);
				TU_CHECK(na == nb, "pad %zu, %zu, %zu, "
				    "%zu: %zu games, narrow %zu", pad, i, j,
				    f, na, nb);
				for (k = 0; k < na; k++)
					TU_CHECK(same_game(&a[k], &b[k]),
					    "pad %zu, %zu, %zu, %zu, game %zu: "
					    "not as narrow (%zu bytes against "
					    "%zu, line %lu:%lu against "
					    "%lu:%lu)", pad, i, j, f, k,
					    a[k].len, b[k].len,
					    a[k].movetext_line,
					    a[k].movetext_col,
					    b[k].movetext_line,
					    b[k].movetext_col);
			}
}
END_TEST

/*
 * The braces and line ends read from the bytes' classes (frame.c:
 * wide_load_avx2, each class bit shifted to the top of its byte): a
 * `{`, a `}` and a line end next to each kind of byte (each stop
 * class, the lead bytes, the other brace, plain text, a CR), on both
 * sides, at each place of a block (the game moved over 64 places),
 * frame as with the narrow scan.
 */
START_TEST(test_class_neighbours)
{
	static const char next[] = "\"%()*-/;[{}\xc2\xe2" "a\r\t.0";
	static char in[8000];
	cd_pgn_raw_game a[64], b[64];
	size_t pad = (size_t)_i, n, na, nb, k, i;

	n = (size_t)snprintf(in, sizeof(in), "[Event \"%*s\"]\n"
	    "[Result \"*\"]\n\n1. e4 ", (int)pad, "");
	for (i = 0; i < sizeof(next) - 1; i++) {
		char y = next[i];
		const char piece[] = { '{', y, '}', y, ' ', y, '{', 'c', y,
		    '}', y, '\n', y, '{', y, '\n', '}', '\n', ' ', '{', 'x',
		    '}', '{', y, y, '}', ' ', y, '\n' };

		TU_CHECK(n + sizeof(piece) + 32 < sizeof(in), "%zu bytes", n);
		memcpy(in + n, piece, sizeof(piece));
		n += sizeof(piece);
		/* (a string or a variation closed) */
		if (y == '"' || y == '(')
			in[n++] = y == '"' ? '"' : ')';
		/* (a comment over a blank line and a tag pair: two games,
		 * unless the line ends inside it are seen; a marker between
		 * two of y, then a game) */
		n += (size_t)snprintf(in + n, sizeof(in) - n, "{%c\n\n"
		    "[Event \"i\"]\n%c} %c 1-0 %c\n\n[Event \"j\"]\n\n",
		    y, y, y, y);
	}
	n += (size_t)snprintf(in + n, sizeof(in) - n, " *\n\n[Event \"b\"]\n"
	    "\n{ a } 1-0\n\n");
	na = read_all(in, n, false, a, 64);
	nb = read_all(in, n, true, b, 64);
	TU_CHECK(na == nb, "pad %zu: %zu games, narrow %zu", pad, na,
	    nb);
	for (k = 0; k < na; k++)
		TU_CHECK(same_game(&a[k], &b[k]), "pad %zu, game %zu (at "
		    "%zu): not as narrow (at %zu, %zu bytes against %zu)",
		    pad, k, (size_t)(a[k].text - in),
		    (size_t)(b[k].text - in), a[k].len, b[k].len);
}
END_TEST

/*
 * Short movetexts (frame.c: short_movetext_avx2, an opening book's
 * games framed at once): three games of a movetext of f bytes of words
 * with line ends, dashes and slashes (castling, `0-0`, words that start
 * as a marker does), then a marker of each kind, right after the last
 * word or after a blank, then the usual blank line or something else
 * (a comment, a `;` line, blank lines, the next game at once), or a
 * stop of another kind before the marker (a comment, a variation, a
 * string, `%`, `[`); LF or CR LF; moved over 64 places: framed as with
 * the narrow scan.  The movetexts run from none to past two blocks, so
 * that the marker falls in the first block, the second, or after them,
 * and the last game comes near the input's end.
 */
START_TEST(test_short_movetexts)
{
	static const char words[] = "1. e4 e5\n2. O-O 0-0-0 3. 1-0x a/b "
	    "10-1 Nf3-e5 Qd1\n\n4. c4 ";
	static const char *const markers[] = { "*", "1-0", "0-1",
	    "1/2-1/2", "\xc2\xbd-\xc2\xbd", "1-", "*1-0" };
	static const char *const after[] = { "\n\n", " {c}\n\n", "\n; x\n\n",
	    "\n\n\n", "\n", " ", "\n{ a\n\n[Event \"i\"]\n}\n\n" };
	static const char *const before[] = { "", "", "", "{c} ", "(1. d4) ",
	    "\"s\" ", "\n%e\n", "\n[ x ] ", "; y\n" };
	static char in[4000];
	cd_pgn_raw_game a[8], b[8];
	size_t pad = (size_t)_i, n, na, nb, k, f, i, j, g;
	unsigned long x = 1 + pad;

	/* (a fourth of the places under the sanitizers) */
	if (TU_SKIP_PLACE(_i))
		return;

	for (i = 0; i < sizeof(markers) / sizeof(markers[0]); i++)
		for (f = 0; f < 160; f++) {
			n = 0;
			for (g = 0; g < 3; g++) {
				x = x * 1103515245 + 12345;
				j = (x >> 16) % 64;
				n += (size_t)snprintf(in + n, sizeof(in) - n,
				    "[Event \"%*s\"]\n[Result \"*\"]\n\n",
				    (int)(g == 0 ? pad : j), "");
				for (k = 0; k < f; k++)
					in[n++] = words[k % (sizeof(words) -
					    1)];
				n += (size_t)snprintf(in + n, sizeof(in) - n,
				    "%s%s%s%s", f % 3 == 0 ? "" : " ",
				    before[(x >> 8) % (sizeof(before) /
				    sizeof(before[0]))], markers[i],
				    after[(x >> 12) % (sizeof(after) /
				    sizeof(after[0]))]);
			}
			if (f % 2 == 1) {
				/* (CR LF) */
				for (k = n; k-- > 0;)
					if (in[k] == '\n') {
						memmove(in + k + 1, in + k,
						    n - k);
						in[k] = '\r';
						n++;
						TU_CHECK(n < sizeof(in),
						    "%zu bytes", n);
					}
			}
			na = read_all(in, n, false, a, 8);
			nb = read_all(in, n, true, b, 8);
			TU_CHECK(na == nb, "pad %zu, %zu, %zu: %zu games, "
			    "narrow %zu", pad, i, f, na, nb);
			for (k = 0; k < na; k++)
				TU_CHECK(same_game(&a[k], &b[k]),
				    "pad %zu, marker %zu, %zu bytes, game %zu:"
				    " not as narrow (%zu bytes against %zu, "
				    "line %lu:%lu against %lu:%lu)", pad, i,
				    f, k, a[k].len, b[k].len,
				    a[k].movetext_line, a[k].movetext_col,
				    b[k].movetext_line, b[k].movetext_col);
		}
}
END_TEST

/*
 * The bytes a short movetext's scan saw (short_movetext_avx2: the
 * blocks up to its marker's): games of an opening book (seven tag
 * lines, CR LF, a movetext of 20 to 120 bytes, one with lines after
 * its marker), a byte of each binary value and a plain one at each
 * place, moved over 64 places: each game marked CD_PGN_RAW_NUL exactly
 * when it holds a binary byte.
 */
START_TEST(test_short_binary)
{
	static const unsigned char values[] = { 0x00, 0x01, 0x7f, 0x80 };
	static const char *const movetexts[] = {
		"1. f4 e6 2. b4 Be7 *",
		"1. e4 *\r\n; a line after the marker, long enough to run "
		"past its block\r\n{ and a comment }",
		"1. d4 Nf6 2. c4 e6 3. Nf3 b6 4. g3 Ba6 5. Qa4 Bb7 6. Bg2 "
		"c5 7. dxc5 Bxc5 8.\r\nO-O Be7 1/2-1/2",
		"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 "
		"b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 1-0",
	};
	static char in[2000];
	size_t pad = (size_t)_i, n = 0, m, k, i, j;

	/* (a fourth of the places under the sanitizers) */
	if (TU_SKIP_PLACE(_i))
		return;

	for (i = 0; i < 6; i++)
		n += (size_t)snprintf(in + n, sizeof(in) - n,
		    "[Event \"%*s\"]\r\n[Site \"?\"]\r\n[Date \"????.??.??\"]"
		    "\r\n[Round \"?\"]\r\n[White \"?\"]\r\n[Black \"?\"]\r\n"
		    "[Result \"*\"]\r\n\r\n%s\r\n\r\n", (int)(i == 3 ? pad : 1),
		    "", movetexts[i % 4]);
	for (i = 0; i < sizeof(values); i++)
		for (k = 0; k < n; k++) {
			static char c[2000];
			cd_pgn_reader *r;
			cd_pgn_raw_game g;
			bool has;

			memcpy(c, in, n);
			c[k] = (char)values[i];
			r = cd_pgn_reader_new_mem(c, n);
			TU_CHECK(r != NULL, "no reader");
			for (m = 0; cd_pgn_reader_next(r, &g) == CD_OK; m++) {
				for (has = false, j = 0; j < g.len; j++)
					has |= binary((unsigned char)g.text[j]);
				if (((g.flags & CD_PGN_RAW_NUL) != 0) != has)
					ck_abort_msg("pad %zu, byte 0x%02x at "
					    "%zu: game %zu at %zu (%zu bytes) "
					    "%s", pad, values[i], k, m,
					    (size_t)(g.text - c), g.len,
					    has ? "not marked" :
					    "marked, with no binary byte");
			}
			cd_pgn_reader_free(r);
		}
}
END_TEST

/*
 * The usual tag lines (frame_tags.c: tag_lines, its tag, arena place
 * and line kept as it goes, the window of masks): sections of 40 tags
 * (past the reader's first room for tags and its count of lines
 * tested at once) whose names run from one byte to sixteen (one more
 * than the loop takes) and whose values from none to 200 bytes (around
 * sixteen, the short copy's end, the window's 64 and the loop's 128),
 * in several orders, ended by LF or CR LF, the section moved over 64
 * places: each tag's name, value, their lengths and NULs, its place in
 * the one block of the names and values, its line and its column, and
 * the game noted plain exactly when the loop took each of its lines.
 */
static const char *const tag_names[] = {
	"A", "Bc", "Site", "Round", "WhiteElo", "Termination",
	"CurrentPositio", "CurrentPosition", "CurrentPositions",
};

static const size_t tag_values[] = {
	0, 1, 14, 15, 16, 17, 31, 32, 47, 48, 49, 62, 63, 64, 65, 100, 126,
	127, 128, 129, 200,
};

/* The name and the value's length of the tag t (from 0) of game gi in
 * the order given: from order 4 on, only those that the loop takes. */
static const char *
tag_name(size_t t, unsigned order, unsigned gi)
{
	size_t nn = sizeof(tag_names) / sizeof(tag_names[0]);

	return tag_names[(t + order * gi) % (order < 4 ? nn : nn - 1)];
}

static size_t
tag_value(size_t t, unsigned order, unsigned gi)
{
	size_t nv = sizeof(tag_values) / sizeof(tag_values[0]);

	return tag_values[(t * (order + 1) + gi) % (order < 4 ? nv :
	    nv - 3)];
}

/* Whether the tag loop takes a line of a name of nl and a value of vl
 * bytes (plain ones) with left bytes of input from its start on: 48 at
 * least, a name shorter than sixteen bytes, a value shorter than
 * sixteen, or than 128 with 176 bytes of input. */
static bool
loop_takes(size_t nl, size_t vl, size_t left)
{
	return left >= 48 && nl >= 1 && nl < 16 &&
	    (vl < 16 || (vl < 128 && left >= 176));
}

START_TEST(test_tag_lines)
{
	enum { NT = 40 };
	static char in[2 * (64 + NT * 240 + 64)];
	size_t pad = (size_t)_i, n, t, k, o, at[2][NT + 1];
	unsigned order, crlf, gi;
	bool plain;

	/* (a fourth of the places under the sanitizers) */
	if (TU_SKIP_PLACE(_i))
		return;
	for (order = 0; order < 7; order++)
		for (crlf = 0; crlf < 2; crlf++) {
			const char *le = crlf ? "\r\n" : "\n";
			/* (fewer tags than the reader's first room for them
			 * where all are the loop's) */
			size_t nt = order < 4 ? NT : 30;
			cd_pgn_reader *r;
			cd_pgn_raw_game g;

			for (n = 0, gi = 0; gi < 2; gi++) {
				at[gi][0] = n;
				n += (size_t)snprintf(in + n, sizeof(in) - n,
				    "[Event \"%*s\"]%s", (int)pad, "", le);
				for (t = 0; t < nt; t++) {
					at[gi][t + 1] = n;
					const char *nm = tag_name(t, order,
					    gi);
					size_t vl = tag_value(t, order, gi);

					n += (size_t)snprintf(in + n,
					    sizeof(in) - n, "[%s \"", nm);
					for (k = 0; k < vl; k++)
						in[n++] = (char)('a' + (t + k) %
						    26);
					n += (size_t)snprintf(in + n,
					    sizeof(in) - n, "\"]%s", le);
				}
				n += (size_t)snprintf(in + n, sizeof(in) - n,
				    "%s1. e4 *%s%s", le, le, le);
			}
			r = cd_pgn_reader_new_mem(in, n);
			TU_CHECK(r != NULL, "no reader");
			for (gi = 0; gi < 2; gi++) {
				TU_CHECK(cd_pgn_reader_next(r, &g) == CD_OK &&
				    g.ntags == nt + 1, "pad %zu, order %u, "
				    "crlf %u, game %u: %zu tags", pad, order,
				    crlf, gi, g.ntags);
				o = 0;
				plain = true;
				for (t = 0; t <= nt; t++) {
					const cd_pgn_tag *tg = &g.tags[t];
					const char *nm = t == 0 ? "Event" :
					    tag_name(t - 1, order, gi);
					size_t vl = t == 0 ? pad :
					    tag_value(t - 1, order, gi);

					TU_CHECK(tg->name_len ==
					    strlen(nm) && memcmp(tg->name, nm,
					    tg->name_len) == 0 &&
					    tg->name[tg->name_len] == '\0',
					    "pad %zu, order %u, crlf %u, game "
					    "%u, tag %zu: name", pad, order,
					    crlf, gi, t);
					TU_CHECK(tg->value_len == vl &&
					    tg->value == tg->name +
					    tg->name_len + 1 &&
					    tg->value[vl] == '\0',
					    "pad %zu, order %u, crlf %u, game "
					    "%u, tag %zu: value of %zu bytes, "
					    "%zu wanted", pad, order, crlf, gi,
					    t, tg->value_len, vl);
					for (k = 0; k < vl; k++)
						TU_CHECK(tg->value[k] == (t == 0 ?
						    ' ' : 'a' + (t - 1 + k) % 26),
						    "pad %zu, order %u, crlf %u, "
						    "game %u, tag %zu: value "
						    "byte %zu", pad, order, crlf,
						    gi, t, k);
					TU_CHECK(tg->name == g.tags[0].name + o,
					    "pad %zu, order %u, crlf %u, game "
					    "%u, tag %zu: not at %zu of the "
					    "block", pad, order, crlf, gi, t,
					    o);
					plain &= loop_takes(tg->name_len, vl,
					    n - at[gi][t]);
					o += tg->name_len + vl + 2;
					TU_CHECK(tg->line == gi * (nt +
					    4) + t + 1 && tg->col == 1,
					    "pad %zu, order %u, crlf %u, game "
					    "%u, tag %zu: line %lu:%lu", pad,
					    order, crlf, gi, t, tg->line,
					    tg->col);
				}
				TU_CHECK(tu_noted_plain(&g) == plain,
				    "pad %zu, order %u, crlf %u, game %u: "
				    "noted plain %d", pad, order, crlf, gi,
				    !plain);
			}
			cd_pgn_reader_free(r);
		}
}
END_TEST

/*
 * The lines after a marker up to the next game's tags (frame.c:
 * marker_usual, which takes line ends, LF or CR LF, and the next
 * section's `[` at once, and the general scan after the marker for the
 * rest): three games of movetexts of several lengths (framed short or
 * by the blocks), each marker followed by one of the line endings
 * below (empty lines or not, blanks on them, a `[` that starts no tag
 * or the tag after a blank), moved over 64 places.  Each game ends at
 * the next one's line (its `[`, or the blanks before it), the next
 * game's line is one more than the line ends before it and its column
 * 1, the movetext ends at the marker's end; as with the narrow scan.
 */
START_TEST(test_marker_lines)
{
	/* (the line endings; to, when not 0, the place in them where the
	 * game ends: at a line that starts with a `[` that starts no tag,
	 * skipped after it) */
	static const struct {
		const char *s;
		size_t to;
	} between[] = {
		{ "\n", 0 }, { "\n\n", 0 }, { "\n\n\n", 0 },
		{ "\n\n\n\n\n\n", 0 }, { "\r\n", 0 }, { "\r\n\r\n", 0 },
		{ "\r\n\r\n\r\n", 0 }, { "\n\r\n\n", 0 }, { "\r\n\n\r\n", 0 },
		{ "\n \n", 0 }, { "\n\t\n\n", 0 }, { "\n\r\r\n", 0 },
		{ " \n\n", 0 }, { "\n\n\r", 0 }, { "\n\n ", 0 },
		{ "\n{ c }\n\n", 0 }, { "\n\n; x\n", 0 }, { "\n%e\n\n", 0 },
		{ "\n\n[ ]\n", 2 }, { "\n[]\n\n", 1 }, { "\r\n\r\n[ ]\r\n", 4 },
	};
	static const char *const markers[] = { "1-0", "*", "1/2-1/2" };
	static const char *const tags[] = { "[Event \"b\"]", "[ Event \"b\"]" };
	enum { NB = sizeof(between) / sizeof(between[0]) };
	static char in[8000];
	cd_pgn_raw_game a[8], b[8];
	size_t pad = (size_t)_i, n, na, nb, k, f, i, t, at[4], mt_end[3],
	    end[3];
	unsigned long line[4];

	if (TU_SKIP_PLACE(_i))
		return;	/* (the sanitizer pass: a fourth of the places) */
	for (i = 0; i < NB; i++)
		for (t = 0; t < 2; t++)
			for (f = 0; f < 400; f += 37) {
				n = 0;
				for (k = 0; k < 3; k++) {
					size_t j, w = (i + k) % NB;

					at[k] = n;
					n += (size_t)snprintf(in + n, sizeof(in) -
					    n, "%s\n[Result \"%s\"]\n\n",
					    k == 0 ? "[Event \"\"]" : tags[t],
					    markers[k]);
					if (k == 0) {
						/* (the first tag's value pad
						 * bytes) */
						memmove(in + 8 + pad, in + 8,
						    n - 8);
						memset(in + 8, 'x', pad);
						n += pad;
					}
					for (j = 0; j < f + 13 * k; j++)
						in[n++] = "1. e4 e5 Nf3 "[j %
						    13];
					n += (size_t)snprintf(in + n, sizeof(in) -
					    n, " %s", markers[k]);
					mt_end[k] = n;	/* (from at[k] below) */
					end[k] = between[w].to ? n +
					    between[w].to : 0;
					n += (size_t)snprintf(in + n, sizeof(in) -
					    n, "%s", between[w].s);
				}
				at[3] = n;
				n += (size_t)snprintf(in + n, sizeof(in) - n,
				    "[Event \"c\"]\n\n*\n");
				/* (a game ends at the start of the next one's
				 * line: after blanks before its `[`, at them) */
				line[0] = 1;
				for (k = 1; k <= 3; k++) {
					size_t j;

					while (at[k] > 0 && in[at[k] - 1] != '\n')
						at[k]--;
					line[k] = line[k - 1];
					for (j = at[k - 1]; j < at[k]; j++)
						line[k] += in[j] == '\n';
					if (end[k - 1] == 0)
						end[k - 1] = at[k];
				}
				na = read_all(in, n, false, a, 8);
				nb = read_all(in, n, true, b, 8);
				TU_CHECK(na == 4 && nb == 4, "pad %zu, %zu, "
				    "%zu, %zu: %zu games, narrow %zu", pad, i,
				    t, f, na, nb);
				for (k = 0; k < 4; k++) {
					TU_CHECK(same_game(&a[k], &b[k]),
					    "pad %zu, %zu, %zu, %zu, game %zu: "
					    "not as narrow", pad, i, t, f, k);
					TU_CHECK(a[k].text == in + at[k] &&
					    a[k].line == line[k] &&
					    a[k].col == 1 && (k == 3 ||
					    (a[k].len == end[k] - at[k] &&
					    a[k].movetext_end == mt_end[k] -
					    at[k])),
					    "pad %zu, %zu, %zu, %zu, game %zu: "
					    "at %zu, %zu bytes, line %lu:%lu, "
					    "movetext to %zu; wanted at %zu, "
					    "%zu bytes, line %lu:1, to %zu",
					    pad, i, t, f, k,
					    (size_t)(a[k].text - in), a[k].len,
					    a[k].line, a[k].col,
					    a[k].movetext_end, at[k], k < 3 ?
					    end[k] - at[k] : 0, line[k],
					    k < 3 ? mt_end[k] - at[k] : 0);
				}
			}
}
END_TEST

/* Whether the notes of a and b (tags plain, section bare) are alike. */
static bool
same_notes(const cd_pgn_raw_game *a, const cd_pgn_raw_game *b)
{
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	bool ba = a->cd_reserved_[3] != 0 && a->cd_reserved_[3] ==
	    (uint64_t)(uintptr_t)(a->text + a->movetext);
	bool bb = b->cd_reserved_[3] != 0 && b->cd_reserved_[3] ==
	    (uint64_t)(uintptr_t)(b->text + b->movetext);
#pragma GCC diagnostic pop

	return tu_noted_plain(a) == tu_noted_plain(b) && ba == bb;
}

/* Whether the tags of a and b are alike, their lines dl apart (b's
 * more). */
static bool
same_tags(const cd_pgn_raw_game *a, const cd_pgn_raw_game *b,
    unsigned long dl)
{
	size_t i, o = 0;

	if (a->ntags != b->ntags)
		return false;
	for (i = 0; i < a->ntags; i++) {
		const cd_pgn_tag *x = &a->tags[i], *y = &b->tags[i];

		if (x->name_len != y->name_len || x->value_len !=
		    y->value_len || memcmp(x->name, y->name, x->name_len +
		    1) != 0 || memcmp(x->value, y->value, x->value_len +
		    1) != 0 || x->name != a->tags[0].name + o ||
		    x->value != x->name + x->name_len + 1 ||
		    x->line + dl != y->line || x->col != y->col)
			return false;
		o += x->name_len + x->value_len + 2;
	}
	return true;
}

/* Game g (of a reader over the n bytes at in) against the first game
 * of a reader started at its offset. */
static void
again_as_alone(const char *in, size_t n, const cd_pgn_raw_game *g)
{
	cd_pgn_reader *r = cd_pgn_reader_new_mem(in + g->offset,
	    n - (size_t)g->offset);
	cd_pgn_raw_game a;

	TU_CHECK(r != NULL && cd_pgn_reader_next(r, &a) == CD_OK,
	    "game %lu at %lu: no game alone", (unsigned long)g->number,
	    (unsigned long)g->offset);
	TU_CHECK(a.len == g->len && a.movetext == g->movetext &&
	    a.movetext_end == g->movetext_end && a.result == g->result &&
	    a.flags == (g->flags & ~(unsigned)CD_PGN_RAW_SKIPPED_BINARY) &&
	    a.col == g->col && a.movetext_line - 1 == g->movetext_line -
	    g->line && a.movetext_col == g->movetext_col &&
	    same_tags(&a, g, g->line - 1) && same_notes(&a, g),
	    "game %lu at %lu (line %lu): not as alone: %.*s",
	    (unsigned long)g->number, (unsigned long)g->offset, g->line,
	    (int)g->len, g->text);
	cd_pgn_reader_free(r);
}

/*
 * A tag section that is the same bytes as the one before
 * (frame_tags.c: section_whole, which keeps that one's tags, and
 * section_again): two and three games alike, then the section with one
 * byte changed at each place of its lines, their line ends and the
 * bytes after the last (to each of a set of bytes) before three whole
 * ones, the same section with LF and with CR LF after each other, moved
 * down by blank lines and right by a blank, a section that begins with
 * a bad tag right of a blank, sections with their movetext on the last
 * tag's line and without movetext, with a tag more on the line after
 * the last and after the blank line, with a `[` alone on the line after
 * the last, the sections of the 2-move
 * book (CR LF, seven short values) and of an online export (LF, long
 * values).  Each game must be what a reader that starts at it reads
 * (which has read no section before: its tags, their places, lines
 * and columns counted from the game's, its movetext, result, flags and
 * notes).  Then games alike after a first one whose value is pad
 * bytes long, over the end of the reader's first block: read through a
 * file (its buffer refilled and moved), each the same as read from
 * memory (but for the notes: the tag loop wants input after a line,
 * which a block's end may not yet have).
 */
START_TEST(test_sections_again)
{
	static const unsigned char bytes[] = { 'a', ' ', '"', ']', '[',
	    '\r', '\n', '\t', 0x01, 'E' };
	const char *base = tu_again_section(_i);
	const char *se = strstr(base, "]\n\n") != NULL ?
	    strstr(base, "]\n\n") : strstr(base, "]\r\n\r\n");
	size_t bl = strlen(base), sl = (size_t)(se - base) + 1;
	size_t cap = (bl + 2) * (3 + 4 * (sl + 6) * sizeof(bytes) + 20) +
	    1024;
	char *in = malloc(cap), *lf = malloc(bl);
	const char *other;
	size_t n = 0, lfl = 0, j, b, k, count = 0;
	bool crlf = strchr(base, '\r') != NULL;
	cd_pgn_reader *r;
	cd_pgn_raw_game g;

	ck_assert_ptr_nonnull(in);
	ck_assert_ptr_nonnull(lf);
	/* (the section with LF) */
	for (j = 0; j < bl; j++)
		if (base[j] != '\r')
			lf[lfl++] = base[j];
	/* three alike */
	for (k = 0; k < 3; k++) {
		memcpy(in + n, base, bl);
		n += bl;
	}
	/* one byte changed, then three whole (the third read as the
	 * second, the next changed one against the third) */
	for (j = 0; j < sl + 6; j++)
		for (b = 0; b < sizeof(bytes); b++)
			for (k = 0; k < 4; k++) {
				memcpy(in + n, base, bl);
				if (k == 0)
					in[n + j] = (char)bytes[b];
				n += bl;
			}
	/* LF after CR LF (or the same), then CR LF, LF, LF */
	for (k = 0; k < 4; k++) {
		const char *x = k == 1 ? base : lf;
		size_t xl = k == 1 ? bl : lfl;

		memcpy(in + n, x, xl);
		n += xl;
	}
	/* down by a blank line, two alike, right by a blank, two alike */
	memcpy(in + n, crlf ? "\r\n" : "\n", 1 + crlf);
	n += 1 + crlf;
	for (k = 0; k < 2; k++) {
		memcpy(in + n, base, bl);
		n += bl;
	}
	in[n++] = ' ';
	for (k = 0; k < 2; k++) {
		memcpy(in + n, base, bl);
		n += bl;
	}
	/* after two alike, a bad tag right of a blank, then the other
	 * section's lines */
	memcpy(in + n, base, bl);
	n += bl;
	n += (size_t)sprintf(in + n, " [Event x]%s", crlf ? "\r\n" : "\n");
	other = tu_again_section(1 - _i);
	memcpy(in + n, other + 1 + strcspn(other + 1, "["),
	    strlen(other + 1 + strcspn(other + 1, "[")));
	n += strlen(other + 1 + strcspn(other + 1, "["));
	/* three alike, their movetext on the last tag's line; three
	 * alike without movetext; then a whole one */
	for (j = 0; j < 2; j++)
		for (k = 0; k < 3; k++) {
			memcpy(in + n, base, sl);
			n += sl;
			if (j == 0) {
				memcpy(in + n, " 1. f4 *", 8);
				n += 8;
			}
			memcpy(in + n, base + bl - 2 - 2 * crlf, 2 + 2 * crlf);
			n += 2 + 2 * crlf;
		}
	memcpy(in + n, base, bl);
	n += bl;
	/* after two alike, one with a tag more on the line after its
	 * last, and one with a tag more after its blank line (a name it
	 * does not have: the same game) */
	for (j = 0; j < 2; j++) {
		const char *le = crlf ? "\r\n" : "\n";

		for (k = 0; k < 2; k++) {
			memcpy(in + n, base, bl);
			n += bl;
		}
		memcpy(in + n, base, sl);
		n += sl;
		n += (size_t)sprintf(in + n, "%s%s[Extra \"v\"]", le,
		    j == 0 ? "" : le);
		memcpy(in + n, base + sl, bl - sl);
		n += bl - sl;
	}
	/* three alike whose line after the last tag is a `[` alone (the
	 * tag loop stops at its start) */
	for (k = 0; k < 3; k++) {
		const char *le = crlf ? "\r\n" : "\n";

		memcpy(in + n, base, sl);
		n += sl;
		n += (size_t)sprintf(in + n, "%s[", le);
		memcpy(in + n, base + sl + 1 + crlf, bl - sl - 1 - crlf);
		n += bl - sl - 1 - crlf;
	}
	/* (input after the last, as the tag loop wants it) */
	for (k = 0; k < 3; k++) {
		memcpy(in + n, base, bl);
		n += bl;
	}
	ck_assert_uint_le(n, cap);
	r = cd_pgn_reader_new_mem(in, n);
	ck_assert_ptr_nonnull(r);
	while (cd_pgn_reader_next(r, &g) == CD_OK) {
		again_as_alone(in, n, &g);
		count++;
	}
	/* (a changed byte may join two games or split one) */
	ck_assert_uint_ge(count, 3 + (sl + 6) * sizeof(bytes) * 3);
	cd_pgn_reader_free(r);
	free(lf);
	free(in);
}
END_TEST

/* Games alike over the end of the reader's first block, read through a
 * file, as from memory: the first game's value pad * 3 bytes long (the
 * block's end at each place of a section of up to 192 bytes). */
START_TEST(test_sections_again_blocks)
{
	size_t pad = (size_t)_i * 3, n, bl, s, k, m;
	size_t cap = 320 * 1024;
	char *in = malloc(cap);
	cd_pgn_reader *r, *rf;
	cd_pgn_raw_game g, h;
	FILE *f;

	ck_assert_ptr_nonnull(in);
	if (TU_SKIP_PLACE(_i)) {	/* (a fourth under the sanitizers) */
		free(in);
		return;
	}
	for (s = 0; s < TU_AGAIN_SECTIONS; s++) {
		const char *base = tu_again_section(s);

		bl = strlen(base);
		n = (size_t)snprintf(in, cap, "[Event \"%*s\"]\n\n1. e4 *\n\n",
		    (int)pad, "");
		for (m = 0; n + bl <= cap; m++) {
			memcpy(in + n, base, bl);
			n += bl;
		}
		r = cd_pgn_reader_new_mem(in, n);
		ck_assert_ptr_nonnull(r);
		rf = tu_reader_file(in, n, &f);
		for (k = 0; cd_pgn_reader_next(r, &g) == CD_OK; k++) {
			TU_CHECK(cd_pgn_reader_next(rf, &h) == CD_OK,
			    "pad %zu, section %zu, game %zu: none through the "
			    "file", pad, s, k);
			TU_CHECK(h.offset == g.offset && h.len == g.len &&
			    h.line == g.line && h.col == g.col &&
			    h.movetext == g.movetext && h.movetext_end ==
			    g.movetext_end && h.movetext_line ==
			    g.movetext_line && h.movetext_col ==
			    g.movetext_col && h.flags == g.flags &&
			    h.result == g.result && same_tags(&g, &h, 0),
			    "pad %zu, section %zu, game %zu at %lu: not as "
			    "from memory", pad, s, k, (unsigned long)g.offset);
			/* (the first, and those around the block's end) */
			if (k == 0 || (g.offset + 4 * bl >= 256 * 1024 &&
			    g.offset <= 256 * 1024 + 4 * bl))
				again_as_alone(in, n, &g);
		}
		ck_assert_int_eq(cd_pgn_reader_next(rf, &h), CD_EOF);
		ck_assert_uint_eq(k, 1 + m);
		cd_pgn_reader_free(rf);
		cd_pgn_reader_free(r);
		fclose(f);
	}
	free(in);
}
END_TEST

/* A section near the input's end after sections the reader kept (its
 * memo): not compared with the memo, and nothing read past the input
 * (the input in a block of its own size, for the sanitizers to see). */
START_TEST(test_section_at_end)
{
	static const char sec[] = "[Event \"Rated Blitz game\"]\n"
	    "[Site \"https://lichess.org/tGpzk7yJ\"]\n"
	    "[White \"calvinmaster\"]\n[Black \"dislikechess\"]\n"
	    "[Result \"1-0\"]\n\n";
	static const char last[][16] = { "[Foo \"bar\"]\n\n*\n",
	    "[A \"\"]\n*\n", "[Event \"x\"]", "[Event" };
	size_t n, i, k, j;
	cd_pgn_raw_game g[4];
	char *in;

	for (i = 0; i < sizeof(last) / sizeof(last[0]); i++) {
		in = malloc(2 * (sizeof(sec) + 420) + sizeof(last[i]));
		ck_assert_ptr_nonnull(in);
		for (n = 0, k = 0; k < 2; k++) {
			memcpy(in + n, sec, sizeof(sec) - 1);
			n += sizeof(sec) - 1;
			for (j = 0; j < 20; j++, n += 20)
				memcpy(in + n, "1. e4 e5 2. Nf3 Nc6 ", 20);
			memcpy(in + n, "1-0\n\n", 5);
			n += 5;
		}
		memcpy(in + n, last[i], strlen(last[i]));
		n += strlen(last[i]);
		in = realloc(in, n);	/* (its own size) */
		ck_assert_ptr_nonnull(in);
		k = read_all(in, n, false, g, 4);
		ck_assert_msg(k == 3 && g[2].offset == n - strlen(last[i]),
		    "%s: %zu games", last[i], k);
		free(in);
	}
}
END_TEST

/*
 * Tag sections near the input's end, whose windows of masks are read
 * in part past it (frame_tags.c: tag_masks64's copy into a block of
 * NULs, tag_masks512's masked load): a game of a first tag of pad
 * bytes (the lines moved over 64 places) and four tags whose values
 * are of vl to vl + 3 bytes, then a blank line, a comment of m bytes
 * and the marker, the input in a block of its own size (for the
 * sanitizers).  Each tag's name, value, lengths and NULs, and the game
 * noted plain exactly when the loop took each of its lines (loop_takes:
 * lines closer to the input's end than 48 bytes are not taken).
 */
START_TEST(test_tag_sections_near_end)
{
	static const char *const names[] = { "Event", "Site", "A",
	    "WhiteElo", "Round" };
	size_t pad = (size_t)_i, vl, m, n, t, k, at[5], len[5];
	cd_pgn_raw_game g;
	cd_pgn_reader *r;
	bool plain;
	char *in;

	if (TU_SKIP_PLACE(_i))
		return;
	for (vl = 0; vl <= 40; vl++)
		for (m = 0; m <= 24; m++) {
			in = malloc(64 + 5 * 64 + 32 + m);
			ck_assert_ptr_nonnull(in);
			for (n = 0, t = 0; t < 5; t++) {
				at[t] = n;
				len[t] = t == 0 ? pad : vl + t - 1;
				n += (size_t)sprintf(in + n, "[%s \"",
				    names[t]);
				for (k = 0; k < len[t]; k++)
					in[n++] = (char)('a' + (t + k) % 26);
				n += (size_t)sprintf(in + n, "\"]\n");
			}
			in[n++] = '\n';
			in[n++] = '{';
			memset(in + n, 'c', m);
			n += m;
			memcpy(in + n, "} *\n", 4);
			n += 4;
			in = realloc(in, n);	/* (its own size) */
			ck_assert_ptr_nonnull(in);
			r = cd_pgn_reader_new_mem(in, n);
			ck_assert_ptr_nonnull(r);
			TU_CHECK(cd_pgn_reader_next(r, &g) == CD_OK &&
			    g.ntags == 5, "pad %zu, vl %zu, m %zu: %zu tags",
			    pad, vl, m, g.ntags);
			plain = true;
			for (t = 0; t < 5; t++) {
				const cd_pgn_tag *tg = &g.tags[t];

				TU_CHECK(strcmp(tg->name, names[t]) == 0 &&
				    tg->name_len == strlen(names[t]) &&
				    tg->value_len == len[t] &&
				    strlen(tg->value) == len[t] &&
				    memcmp(tg->value, in + at[t] +
				    tg->name_len + 3, len[t]) == 0,
				    "pad %zu, vl %zu, m %zu, tag %zu", pad, vl,
				    m, t);
				plain &= loop_takes(tg->name_len, len[t],
				    n - at[t]);
			}
			TU_CHECK(tu_noted_plain(&g) == plain, "pad %zu, vl "
			    "%zu, m %zu: noted plain %d", pad, vl, m, !plain);
			cd_pgn_reader_free(r);
			free(in);
		}
}
END_TEST

static Suite *
frame_suite(void)
{
	Suite *s = suite_create("frame");
	TCase *tc = tcase_create("core"), *tm = tcase_create("masks");

	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_binary_bytes, 0, 64);
	tcase_add_loop_test(tc, test_tag_lines, 0, 64);
	tcase_add_loop_test(tc, test_sections_again, 0, 2);
	tcase_add_loop_test(tc, test_sections_again_blocks, 0, 64);
	tcase_add_test(tc, test_section_at_end);
	tcase_add_loop_test(tc, test_tag_sections_near_end, 0, 64);
	suite_add_tcase(s, tc);
	tcase_set_timeout(tm, 60);
	tcase_add_loop_test(tm, test_comment_masks, 0, 64);
	tcase_add_loop_test(tm, test_plain_runs, 0, 64);
	tcase_add_loop_test(tm, test_plain_line_ends, 0, 64);
	tcase_add_loop_test(tm, test_class_neighbours, 0, 64);
	tcase_add_loop_test(tm, test_short_movetexts, 0, 64);
	tcase_add_loop_test(tm, test_short_binary, 0, 64);
	tcase_add_loop_test(tm, test_marker_lines, 0, 64);
	suite_add_tcase(s, tm);
	return s;
}

TU_SUITES(frame_suite);
