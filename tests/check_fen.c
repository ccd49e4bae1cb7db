/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_fen.c: FEN reading and writing (standard 16.1) and position
 * validity.
 *
 * Round trips (canonical FEN reads back and writes unchanged; lenient
 * and Chess960 spellings write in their canonical form), every syntax
 * error with its column, strict mode, and every cd_position_error value
 * with positions that trigger it and valid positions that must not.
 */
#include "config.h"

#include "core-util.h"
#include "rounds.h"
#include "check-main.h"

/* ---- round trips ---- */

static const char *const canonical[] = {
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
	"rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2",
	"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"r3k2r/8/8/8/8/8/8/R3K2R b Kq - 99 150",
	"4k3/8/8/8/8/8/8/4K3 w - - 4294967295 4294967295",
	"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
	"8/8/8/8/8/8/8/8 w - - 0 1",
};

START_TEST(test_round_trip)
{
	const char *fen = canonical[_i];
	cd_board b, c;
	char buf[CD_FEN_MAX];
	unsigned flags = _i == 9 ? CD_FEN_NO_VALIDATE : 0;

	tu_fen(&b, fen, flags | CD_FEN_STRICT);
	ck_assert_uint_eq(cd_fen_write(&b, buf), strlen(fen));
	ck_assert_str_eq(buf, fen);
	/* and once more from what was written */
	tu_fen(&c, buf, flags);
	ck_assert_mem_eq(&b, &c, sizeof(b));
	/* the EPD form: the first four fields */
	{
		char epd[CD_FEN_MAX];
		size_t n;

		strcpy(epd, fen);
		*strrchr(epd, ' ') = '\0';
		*strrchr(epd, ' ') = '\0';
		n = cd_fen_write_epd(&b, buf);
		ck_assert_str_eq(buf, epd);
		ck_assert_uint_eq(n, strlen(epd));
	}
}
END_TEST

/* Input on the left, what cd_fen_write gives on the right. */
static const struct {
	const char *in;
	unsigned flags;
	const char *out;
} spellings[] = {
	/* lenient white space and missing clocks */
	{ "  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR   w  KQkq -  0   1  ", 0,
	  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\tw\tKQkq\t-\t3\t7\r\n", 0,
	  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3 7" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", 0,
	  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ", 0,
	  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 12", 0,
	  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 12 1" },
	/* fullmove 0 (seen in the wild) becomes 1 */
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", 0,
	  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" },
	/* castling letters in any order, and as files in standard chess */
	{ "r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1", 0,
	  "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1" },
	{ "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", 0,
	  "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1" },
	{ "r3k2r/8/8/8/8/8/8/R3K2R w Ah - 0 1", 0,
	  "r3k2r/8/8/8/8/8/8/R3K2R w Qk - 0 1" },
	/* Chess960: Shredder-FEN in, X-FEN out (outermost rooks as KQkq) */
	{ "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
	  CD_FEN_960,
	  "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9" },
	{ "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
	  CD_FEN_960,
	  "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w KQkq - 1 9" },
	/* an inner rook keeps its file letter */
	{ "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1", CD_FEN_960,
	  "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1" },
	{ "rr2k3/8/8/8/8/8/8/RR2K3 w Bb - 0 1", CD_FEN_960,
	  "rr2k3/8/8/8/8/8/8/RR2K3 w Bb - 0 1" },
	{ "1r1k1r1r/8/8/8/8/8/8/3K4 b fb - 0 1", CD_FEN_960,
	  "1r1k1r1r/8/8/8/8/8/8/3K4 b fq - 0 1" },
	/* X-FEN in: K means the outermost rook */
	{ "4k3/8/8/8/8/8/8/1R1K1RR1 w KQ - 0 1", CD_FEN_960,
	  "4k3/8/8/8/8/8/8/1R1K1RR1 w KQ - 0 1" },
	/* EPD's four fields */
	{ "4k3/8/8/8/8/8/8/4K3 b - -", 0, "4k3/8/8/8/8/8/8/4K3 b - - 0 1" },
};

START_TEST(test_spellings)
{
	cd_board b, c;
	char buf[CD_FEN_MAX];

	tu_fen(&b, spellings[_i].in, spellings[_i].flags);
	cd_fen_write(&b, buf);
	ck_assert_str_eq(buf, spellings[_i].out);
	/* the canonical form reads back as the same board */
	tu_fen(&c, buf, spellings[_i].flags | CD_FEN_STRICT);
	ck_assert_mem_eq(&b, &c, sizeof(b));
	ck_assert_int_eq(b.chess960, (spellings[_i].flags & CD_FEN_960) != 0);
}
END_TEST

/* The castling rooks behind the letters. */
START_TEST(test_castling_rooks)
{
	cd_board b;

	tu_fen(&b, "4k3/8/8/8/8/8/8/1R1K1RR1 w KQ - 0 1", CD_FEN_960);
	ck_assert_int_eq(b.castle_rook[CD_WHITE][CD_KINGSIDE], CD_SQ(6, 0));
	ck_assert_int_eq(b.castle_rook[CD_WHITE][CD_QUEENSIDE], CD_SQ(1, 0));
	tu_fen(&b, "4k3/8/8/8/8/8/8/1R1K1RR1 w F - 0 1", CD_FEN_960);
	ck_assert_int_eq(b.castle_rook[CD_WHITE][CD_KINGSIDE], CD_SQ(5, 0));
	ck_assert_int_eq(b.castle_rook[CD_WHITE][CD_QUEENSIDE], CD_SQ_NONE);
	ck_assert_str_eq(tu_fen_of(&b), "4k3/8/8/8/8/8/8/1R1K1RR1 w F - 0 1");
	tu_fen(&b, "1r1k1r1r/8/8/8/8/8/8/3K4 b fb - 0 1", CD_FEN_960);
	ck_assert_int_eq(b.castle_rook[CD_BLACK][CD_KINGSIDE], CD_SQ(5, 7));
	ck_assert_int_eq(b.castle_rook[CD_BLACK][CD_QUEENSIDE], CD_SQ(1, 7));
	ck_assert_int_eq(b.castle_rook[CD_WHITE][CD_KINGSIDE], CD_SQ_NONE);
}
END_TEST

/* CD_FEN_DETECT_960: a Chess960 board only when the rights need it. */
static const struct {
	const char *fen;
	int status;
	bool c960;
} detect[] = {
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", CD_OK, false },
	{ "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", CD_OK, false },
	{ "4k3/8/8/8/8/8/8/4K3 w - - 0 1", CD_OK, false },
	{ "r3k2r/8/8/8/8/8/8/R2K3R w KQkq - 0 1", CD_OK, true },
	{ "r3k2r/8/8/8/8/8/8/1R2K2R w KQkq - 0 1", CD_OK, true },
	{ "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
	  CD_OK, true },
	{ "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1", CD_OK, true },
	{ "4k3/8/8/8/8/8/8/4K3 w K - 0 1", CD_ERR_POSITION, false },
};

START_TEST(test_detect_960)
{
	cd_board b;
	cd_status st;

	st = cd_fen_parse(&b, detect[_i].fen, strlen(detect[_i].fen),
	    CD_FEN_DETECT_960, NULL);
	ck_assert_int_eq(st, detect[_i].status);
	if (st != CD_OK)
		return;
	ck_assert_int_eq(b.chess960, detect[_i].c960);
	/* without the flag a Chess960 position is refused */
	if (detect[_i].c960)
		ck_assert_int_eq(cd_fen_parse(&b, detect[_i].fen,
		    strlen(detect[_i].fen), 0, NULL), CD_ERR_POSITION);
}
END_TEST

START_TEST(test_write_epd)
{
	cd_board b;
	char buf[CD_FEN_MAX];
	size_t n;

	tu_fen(&b, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0);
	n = cd_fen_write_epd(&b, buf);
	ck_assert_str_eq(buf, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3");
	ck_assert_uint_eq(n, strlen(buf));
	tu_fen(&b, "4k3/8/8/8/8/8/8/4K3 w - - 17 42", 0);
	ck_assert_uint_eq(cd_fen_write_epd(&b, buf), 25);
	ck_assert_str_eq(buf, "4k3/8/8/8/8/8/8/4K3 w - -");
	ck_assert_uint_eq(cd_fen_write(&b, buf), 31);
	ck_assert_str_eq(buf, "4k3/8/8/8/8/8/8/4K3 w - - 17 42");
}
END_TEST

/*
 * The castling field of random boards against the rule spelled out
 * once more: per right, White's first, the kingside's first, K (Q) when
 * its rook is the outermost of its side of the king on the back rank
 * (and, in the EPD of a Chess960 board, the king on e1 and the rook in
 * the corner), else the rook's file; black's in lower case.  The writer
 * takes the rights of standard chess (king alone on e1 or e8, rooks in
 * the corners) on a path of its own: the boards hold them, rights near
 * them (a second king, a rook missing or another piece in the corner,
 * the king off e1) and any others.
 */
static void
castling_reference(const cd_board *b, int clocks, char *out)
{
	int color, s, f;

	for (color = 0; color < 2; color++) {
		int rank = color == CD_WHITE ? 0 : 7, k, outer;
		cd_bitboard kings = b->by_type[CD_KING] & b->by_color[color];

		k = kings ? __builtin_ctzll(kings) : CD_SQ_NONE;
		for (s = 0; s < 2; s++) {
			int r = b->castle_rook[color][s];
			char ch;

			if (r == CD_SQ_NONE)
				continue;
			outer = CD_SQ_NONE;
			if (k != CD_SQ_NONE && CD_RANK(k) == rank) {
				for (f = 0; f < 8; f++) {
					int g = s == CD_KINGSIDE ? 7 - f : f;

					if ((s == CD_KINGSIDE ? g <= CD_FILE(k) :
					    g >= CD_FILE(k)))
						break;
					if (b->squares[CD_SQ(g, rank)] ==
					    CD_PIECE(color, CD_ROOK)) {
						outer = CD_SQ(g, rank);
						break;
					}
				}
			}
			if (outer == r && (clocks || !b->chess960 ||
			    (CD_FILE(k) == 4 &&
			    CD_FILE(r) == (s == CD_KINGSIDE ? 7 : 0))))
				ch = s == CD_KINGSIDE ? 'K' : 'Q';
			else
				ch = (char)('A' + CD_FILE(r));
			*out++ = color == CD_WHITE ? ch : (char)(ch | 0x20);
		}
	}
	*out = '\0';
}

START_TEST(test_castling_random)
{
	static const uint8_t corner[2][2] = { { CD_H1, CD_A1 },
	    { CD_H8, CD_A8 } };
	int i, color, s;

	for (i = 0; i < TU_ROUNDS(200000); i++) {
		cd_board b;
		char buf[CD_FEN_MAX], want[8];
		const char *field;
		size_t len;
		int clocks;

		cd_board_clear(&b);
		for (color = 0; color < 2; color++) {
			int rank = color == CD_WHITE ? 0 : 7;
			uint64_t r = tu_rand();

			/* the king: on e1 (e8) mostly, else on its rank or
			 * anywhere; now and then a second one, or none */
			if (r % 8 < 5)
				cd_board_put(&b, CD_SQ(4, rank),
				    CD_PIECE(color, CD_KING));
			else if (r % 8 < 7)
				cd_board_put(&b, CD_SQ((int)((r >> 8) % 8),
				    r % 8 == 5 ? rank : (int)((r >> 16) % 8)),
				    CD_PIECE(color, CD_KING));
			if ((r >> 24) % 16 == 0)
				cd_board_put(&b, (int)((r >> 28) % 64),
				    CD_PIECE(color, CD_KING));
			/* the corners: its rook mostly, else another piece or
			 * nothing; and sometimes a rook elsewhere on the rank */
			for (s = 0; s < 2; s++) {
				uint64_t q = tu_rand();
				int sq = corner[color][s];

				if (b.squares[sq] != 0)
					continue;
				if (q % 8 < 6)
					cd_board_put(&b, sq,
					    CD_PIECE(color, CD_ROOK));
				else if (q % 8 == 6)
					cd_board_put(&b, sq, CD_PIECE((int)((q >> 8)
					    % 2), (int)((q >> 16) % 6) + CD_PAWN));
				if ((q >> 24) % 4 == 0) {
					int f = (int)((q >> 32) % 8);

					if (b.squares[CD_SQ(f, rank)] == 0)
						cd_board_put(&b, CD_SQ(f, rank),
						    CD_PIECE(color, CD_ROOK));
				}
			}
			/* the rights: none, the corner's, or a square of the
			 * rank */
			for (s = 0; s < 2; s++) {
				uint64_t q = tu_rand();

				b.castle_rook[color][s] = q % 8 < 3 ? CD_SQ_NONE :
				    q % 8 < 7 ? corner[color][s] :
				    (uint8_t)CD_SQ((int)((q >> 8) % 8), rank);
			}
		}
		b.chess960 = (uint8_t)(tu_rand() % 2);
		b.side = (uint8_t)(tu_rand() % 2);
		cd_board_finish(&b);
		for (clocks = 0; clocks < 2; clocks++) {
			if (clocks)
				cd_fen_write(&b, buf);
			else
				cd_fen_write_epd(&b, buf);
			field = strchr(strchr(buf, ' ') + 1, ' ') + 1;
			len = strcspn(field, " ");
			castling_reference(&b, clocks, want);
			if (want[0] == '\0')
				strcpy(want, "-");
			ck_assert_msg(len == strlen(want) &&
			    memcmp(field, want, len) == 0,
			    "%s: castling field %.*s, not %s", buf, (int)len,
			    field, want);
		}
	}
}
END_TEST

/*
 * The placement field of random boards against the rule spelled out
 * once more: ranks 8 to 1, each square's letter, a run of empty squares
 * as its length, ranks apart by '/'.  The boards range from empty to
 * full; the field is written with the AVX2 shuffles, the SSSE3 ones or
 * the plain code as the processor has them (check-sse2.sh runs this
 * again with CHESSDATA_NO_AVX2 and with CHESSDATA_NO_SSSE3).
 */
START_TEST(test_placement_random)
{
	static const char letters[] = "?PNBRQK??pnbrqk";
	int i, sq, rank, file;

	for (i = 0; i < TU_ROUNDS(100000); i++) {
		cd_board b;
		char buf[CD_FEN_MAX], want[CD_FEN_MAX], *w = want;
		/* how full: from none to every square */
		unsigned fill = (unsigned)(tu_rand() % 65);

		cd_board_clear(&b);
		for (sq = 0; sq < 64; sq++) {
			uint64_t r = tu_rand();

			if (r % 64 < fill)
				cd_board_put(&b, sq, CD_PIECE((int)((r >> 8) % 2),
				    (int)((r >> 16) % 6) + CD_PAWN));
		}
		cd_board_finish(&b);
		for (rank = 7; rank >= 0; rank--) {
			int empty = 0;

			for (file = 0; file < 8; file++) {
				int pc = b.squares[CD_SQ(file, rank)];

				if (pc == 0) {
					empty++;
					continue;
				}
				if (empty)
					*w++ = (char)('0' + empty);
				empty = 0;
				*w++ = letters[pc];
			}
			if (empty)
				*w++ = (char)('0' + empty);
			if (rank)
				*w++ = '/';
		}
		*w = '\0';
		cd_fen_write_epd(&b, buf);
		ck_assert_msg(strcspn(buf, " ") == strlen(want) &&
		    memcmp(buf, want, strlen(want)) == 0,
		    "placement %s, not %s", buf, want);
		cd_fen_write(&b, buf);
		ck_assert_msg(strcspn(buf, " ") == strlen(want) &&
		    memcmp(buf, want, strlen(want)) == 0,
		    "placement %s, not %s", buf, want);
	}
}
END_TEST

/* The longest FEN fits CD_FEN_MAX. */
START_TEST(test_longest)
{
	cd_board b;
	char buf[CD_FEN_MAX + 16];
	size_t n;

	memset(buf, 'x', sizeof(buf));
	tu_fen(&b, "rbrbrbrb/bpbpbpbp/pbpbpbpb/1k6/6K1/PBPBPBPB/BPBPBPBP/RBRBRBRB "
	    "w - - 4294967295 4294967295", CD_FEN_NO_VALIDATE);
	n = cd_fen_write(&b, buf);
	ck_assert_uint_lt(n, CD_FEN_MAX);
	ck_assert_int_eq(buf[n], '\0');
	ck_assert_int_eq(buf[n + 1], 'x');
}
END_TEST

/* ---- errors ---- */

static const struct {
	const char *fen;
	unsigned flags;
	int status;
	size_t col;
	const char *why;	/* a word of the message */
} bad[] = {
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", 0,
	  CD_ERR_SYNTAX, 43, "few" },
	{ "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0,
	  CD_ERR_SYNTAX, 17, "few" },
	{ "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0,
	  CD_ERR_SYNTAX, 18, "many" },
	{ "rnbqkbnr/pppppppp/45/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0,
	  CD_ERR_SYNTAX, 20, "many" },
	{ "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0,
	  CD_ERR_SYNTAX, 19, "character" },
	/* 5 */
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1", 0,
	  CD_ERR_SYNTAX, 44, "eight" },
	{ "rnbqkxnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0,
	  CD_ERR_SYNTAX, 6, "character" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", 0,
	  CD_ERR_SYNTAX, 35, "few" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", 0,
	  CD_ERR_SYNTAX, 45, "side" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR wb KQkq - 0 1", 0,
	  CD_ERR_SYNTAX, 46, "side" },
	/* 10 */
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", 0,
	  CD_ERR_SYNTAX, 44, "side" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w", 0,
	  CD_ERR_SYNTAX, 46, "castling" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", 0,
	  CD_ERR_SYNTAX, 50, "castling" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", 0,
	  CD_ERR_SYNTAX, 51, "passant" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1", 0,
	  CD_ERR_SYNTAX, 52, "passant" },
	/* 15 */
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3x 0 1", 0,
	  CD_ERR_SYNTAX, 54, "passant" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq i3 0 1", 0,
	  CD_ERR_SYNTAX, 52, "passant" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", 0,
	  CD_ERR_SYNTAX, 54, "halfmove" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", 0,
	  CD_ERR_SYNTAX, 54, "halfmove" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 y", 0,
	  CD_ERR_SYNTAX, 56, "fullmove" },
	/* 20 */
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 z", 0,
	  CD_ERR_SYNTAX, 58, "after" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4294967296 1", 0,
	  CD_ERR_SYNTAX, 63, "halfmove" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 4294967296", 0,
	  CD_ERR_SYNTAX, 65, "fullmove" },
	{ "", 0, CD_ERR_SYNTAX, 1, "few" },
	{ "   ", 0, CD_ERR_SYNTAX, 4, "few" },
	/* 25: strict: six fields, single spaces, no clock missing */
	{ " rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	  CD_FEN_STRICT, CD_ERR_SYNTAX, 1, "few" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR  w KQkq - 0 1",
	  CD_FEN_STRICT, CD_ERR_SYNTAX, 45, "side" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
	  CD_FEN_STRICT, CD_ERR_SYNTAX, 0, "halfmove" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
	  CD_FEN_STRICT, CD_ERR_SYNTAX, 0, "fullmove" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
	  CD_FEN_STRICT, CD_ERR_SYNTAX, 56, "fullmove" },
	/* 30 */
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ",
	  CD_FEN_STRICT, CD_ERR_SYNTAX, 57, "after" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -  0 1",
	  CD_FEN_STRICT, CD_ERR_SYNTAX, 54, "halfmove" },
	/* castling rights without their rook: a position error at the
	 * letter */
	{ "8/8/8/8/8/8/8/4K2k w K - 0 1", 0, CD_ERR_POSITION, 22, "castling" },
	{ "r3k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 0, CD_ERR_POSITION, 28, "castling" },
	{ "r3k2r/8/8/8/8/8/8/R2K3R w KQkq - 0 1", CD_FEN_NO_VALIDATE,
	  CD_OK, 0, NULL },
	/* 35: standard chess refuses rights only Chess960 has */
	{ "r3k2r/8/8/8/8/8/8/R2K3R w KQkq - 0 1", 0, CD_ERR_POSITION, 1, "castling" },
	{ "r3k2r/8/8/8/8/8/8/R2K3R w KQkq - 0 1", CD_FEN_960, CD_OK, 0, NULL },
	{ "r3k2r/8/8/8/8/8/8/1R2K2R w KQkq - 0 1", 0, CD_ERR_POSITION, 1, "castling" },
	/* a file letter with no rook on that file */
	{ "4k3/8/8/8/8/8/8/4K2R w A - 0 1", CD_FEN_960, CD_ERR_POSITION, 0, "castling" },
	/* two rights for one side */
	{ "4k3/8/8/8/8/8/8/4KRR1 w FG - 0 1", CD_FEN_960, CD_ERR_SYNTAX, 0, "two" },
	/* 40: an impossible position, detected after parsing */
	{ "4k3/8/8/8/8/8/8/4K3 w - e6 0 1", 0, CD_ERR_POSITION, 1, "passant" },
	{ "4k3/8/8/8/8/8/8/8 w - - 0 1", 0, CD_ERR_POSITION, 1, "white king" },
};

START_TEST(test_errors)
{
	cd_board b;
	const char *why = "unset";
	size_t col = 999;
	cd_error err;
	cd_status st;

	st = cd_fen_parse(&b, bad[_i].fen, strlen(bad[_i].fen), bad[_i].flags,
	    &err);
	why = err.msg;
	col = err.col;
	ck_assert_msg((int)st == bad[_i].status, "'%s': status %d (%s), expected %d",
	    bad[_i].fen, st, why ? why : "-", bad[_i].status);
	if (bad[_i].status == CD_OK)
		return;
	ck_assert_ptr_nonnull(why);
	ck_assert_msg(strstr(why, bad[_i].why) != NULL,
	    "'%s': message '%s' lacks '%s'", bad[_i].fen, why, bad[_i].why);
	if (bad[_i].col)
		ck_assert_msg(col == bad[_i].col, "'%s' (%s): column %zu, expected %zu",
		    bad[_i].fen, why, col, bad[_i].col);
	else
		ck_assert_uint_ge(col, 1);
	ck_assert_uint_le(col, strlen(bad[_i].fen) + 1);
	/* NULL out-parameters are allowed */
	ck_assert_int_eq(cd_fen_parse(&b, bad[_i].fen, strlen(bad[_i].fen),
	    bad[_i].flags, NULL), st);
}
END_TEST

/* The length is honoured: text past len is not read. */
START_TEST(test_length)
{
	const char *s = "4k3/8/8/8/8/8/8/4K3 w - - 0 1 garbage";
	cd_board b;

	ck_assert_int_eq(cd_fen_parse(&b, s, 29, CD_FEN_STRICT, NULL), CD_OK);
	ck_assert_str_eq(tu_fen_of(&b), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
	ck_assert_int_eq(cd_fen_parse(&b, s, 30, CD_FEN_STRICT, NULL),
	    CD_ERR_SYNTAX);
	ck_assert_int_eq(cd_fen_parse(&b, s, 27, CD_FEN_STRICT, NULL),
	    CD_ERR_SYNTAX);
	ck_assert_int_eq(cd_fen_parse(&b, s, 27, 0, NULL), CD_OK);
	ck_assert_uint_eq(b.halfmove, 0);
	ck_assert_uint_eq(b.fullmove, 1);
	/* a NUL inside the length is an error, not the end */
	ck_assert_int_ne(cd_fen_parse(&b, "4k3/8/8/8/8/8/8/4K3 w - - 0 1\0", 30,
	    CD_FEN_STRICT, NULL), CD_OK);
}
END_TEST

/* ---- validity ---- */

static const struct {
	const char *fen;
	unsigned flags;
	cd_position_error want;
} validity[] = {
	/* valid */
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0, CD_POS_OK },
	{ "4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0, CD_POS_OK },
	{ "4k3/8/8/8/8/8/PPPPPPPP/4K3 w - - 0 1", 0, CD_POS_OK },	/* 8 pawns */
	{ "4k3/8/8/8/8/Q7/1PPPPPPP/RNBQKBNR w - - 0 1", 0, CD_POS_OK }, /* 16 */
	{ "4k3/8/8/8/8/8/QQQQ4/QQQQKQ2 w - - 0 1", 0, CD_POS_OK },	/* 9 Q */
	/* 5 */
	{ "4k3/8/8/8/8/RRR5/1PPPPPPP/4K3 w - - 0 1", 0, CD_POS_OK },
	{ "4k3/8/3N4/8/8/8/8/4R1K1 b - - 0 1", 0, CD_POS_OK },	/* R+N */
	{ "4k3/8/8/8/B7/8/8/4R1K1 b - - 0 1", 0, CD_POS_OK },	/* R+B */
	{ "8/8/8/4k3/3P4/8/8/4K3 b - d3 0 1", 0, CD_POS_OK },	/* pushed pawn */
	{ "8/8/8/7k/4P3/8/8/3BK3 b - e3 0 1", 0, CD_POS_OK },	/* discovered */
	/* 10 */
	{ "4k3/8/8/4p3/8/8/8/4K3 w - e6 0 1", 0, CD_POS_OK },	/* no taker */
	{ "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 0, CD_POS_OK },
	{ "r3k2r/8/8/8/8/8/8/R2K3R w KQkq - 0 1", CD_FEN_960, CD_POS_OK },
	{ "4k3/8/8/8/8/8/8/4K3 b - - 0 1", 0, CD_POS_OK },
	{ "4k3/8/8/8/8/8/4p3/3K4 w - - 0 1", 0, CD_POS_OK },	/* pawn check */
	/* 15: kings */
	{ "4k3/8/8/8/8/8/8/8 w - - 0 1", 0, CD_POS_NO_WHITE_KING },
	{ "8/8/8/8/8/8/8/8 w - - 0 1", 0, CD_POS_NO_WHITE_KING },
	{ "P3k3/8/8/8/8/8/8/8 w - - 0 1", 0, CD_POS_NO_WHITE_KING },	/* first */
	{ "8/8/8/8/8/8/8/4K3 w - - 0 1", 0, CD_POS_NO_BLACK_KING },
	{ "4k3/8/8/8/8/8/8/3KK3 w - - 0 1", 0, CD_POS_TOO_MANY_KINGS },
	/* 20 */
	{ "3kk3/8/8/8/8/8/8/4K3 w - - 0 1", 0, CD_POS_TOO_MANY_KINGS },
	/* pawns on the back ranks */
	{ "P3k3/8/8/8/8/8/8/4K3 w - - 0 1", 0, CD_POS_PAWN_ON_BACK_RANK },
	{ "4k3/8/8/8/8/8/8/p3K3 w - - 0 1", 0, CD_POS_PAWN_ON_BACK_RANK },
	{ "4k2p/8/8/8/8/8/8/4K3 w - - 0 1", 0, CD_POS_PAWN_ON_BACK_RANK },
	{ "4k3/8/8/8/8/8/8/4K2P w - - 0 1", 0, CD_POS_PAWN_ON_BACK_RANK },
	/* 25: material */
	{ "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", 0, CD_POS_TOO_MANY_PAWNS },
	{ "4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", 0, CD_POS_TOO_MANY_PAWNS },
	{ "4k3/8/8/8/8/N7/PPPPPPPP/RNBQKBNR w - - 0 1", 0, CD_POS_TOO_MANY_PIECES },
	{ "4k3/8/8/8/8/QQQ5/1PPPPPPP/R1B1KBNR w - - 0 1", 0,
	  CD_POS_TOO_MANY_PROMOTED },
	{ "4k3/8/8/8/8/Q7/QQQQ4/QQQQKQ2 w - - 0 1", 0, CD_POS_TOO_MANY_PROMOTED },
	/* 30 */
	{ "4k3/8/8/8/8/RRR5/PPPPPPPP/4K3 w - - 0 1", 0, CD_POS_TOO_MANY_PROMOTED },
	{ "nnnk4/pppppppp/8/8/8/8/8/4K3 w - - 0 1", 0, CD_POS_TOO_MANY_PROMOTED },
	/* checks */
	{ "4k3/8/8/8/8/8/8/4RK2 w - - 0 1", 0, CD_POS_OPPOSITE_CHECK },
	{ "4k3/8/8/8/8/8/8/3qK3 b - - 0 1", 0, CD_POS_OPPOSITE_CHECK },
	{ "4k3/8/3N4/8/B7/8/8/4RK2 b - - 0 1", 0, CD_POS_TOO_MANY_CHECKERS },
	/* 35 */
	{ "4k3/8/3N1N2/8/8/8/8/4K3 b - - 0 1", 0, CD_POS_IMPOSSIBLE_CHECK },
	{ "R3k2R/8/8/8/8/8/8/4K3 b - - 0 1", 0, CD_POS_IMPOSSIBLE_CHECK },
	{ "4k3/3P4/5N2/8/8/8/8/4K3 b - - 0 1", 0, CD_POS_IMPOSSIBLE_CHECK },
	{ "4k3/8/3N4/8/4P3/8/8/4K3 b - e3 0 1", 0, CD_POS_IMPOSSIBLE_CHECK },
	{ "R3k3/8/8/8/4P3/8/8/6K1 b - e3 0 1", 0, CD_POS_IMPOSSIBLE_CHECK },
	/* 40: castling */
	{ "r3k2r/8/8/8/8/8/8/R2K3R w KQkq - 0 1", 0, CD_POS_BAD_CASTLING },
	{ "1r2k2r/8/8/8/8/8/8/4K3 b q - 0 1", 0, CD_POS_BAD_CASTLING },
	/* en passant */
	{ "4k3/8/8/8/8/8/8/4K3 w - e6 0 1", 0, CD_POS_BAD_EP },
	{ "4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1", 0, CD_POS_BAD_EP },	/* rank */
	{ "4k3/4p3/8/4p3/8/8/8/4K3 w - e6 0 1", 0, CD_POS_BAD_EP },	/* e7 */
	/* 45 */
	{ "4k3/8/4p3/4p3/8/8/8/4K3 w - e6 0 1", 0, CD_POS_BAD_EP },	/* e6 */
	{ "4k3/8/8/4P3/8/8/8/4K3 w - e6 0 1", 0, CD_POS_BAD_EP },	/* colour */
};

START_TEST(test_validity)
{
	cd_board b;
	const char *why = NULL;
	cd_error err;
	const char *fen = validity[_i].fen;
	cd_position_error got;
	cd_status st;

	tu_fen(&b, fen, validity[_i].flags | CD_FEN_NO_VALIDATE);
	got = cd_board_validate(&b);
	ck_assert_msg(got == validity[_i].want, "'%s': %d (%s), expected %d (%s)",
	    fen, got, cd_position_strerror(got), validity[_i].want,
	    cd_position_strerror(validity[_i].want));
	/* parsing with validation reports the same rule */
	st = cd_fen_parse(&b, fen, strlen(fen), validity[_i].flags, &err);
	why = err.msg;
	if (validity[_i].want == CD_POS_OK) {
		ck_assert_int_eq(st, CD_OK);
	} else {
		ck_assert_int_eq(st, CD_ERR_POSITION);
		ck_assert_ptr_nonnull(why);
		ck_assert_str_eq(why, cd_position_strerror(validity[_i].want));
	}
}
END_TEST

/* Castling rights set by hand, without their king or rook. */
START_TEST(test_validity_built)
{
	cd_board b;

	cd_board_init(&b);
	cd_board_remove(&b, CD_H1);
	cd_board_finish(&b);
	ck_assert_int_eq(cd_board_validate(&b), CD_POS_BAD_CASTLING);
	b.castle_rook[CD_WHITE][CD_KINGSIDE] = CD_SQ_NONE;
	cd_board_finish(&b);
	ck_assert_int_eq(cd_board_validate(&b), CD_POS_OK);
	/* the rook there, but the right filed on the wrong side */
	cd_board_init(&b);
	b.castle_rook[CD_WHITE][CD_KINGSIDE] = CD_A1;
	b.castle_rook[CD_WHITE][CD_QUEENSIDE] = CD_SQ_NONE;
	cd_board_finish(&b);
	ck_assert_int_eq(cd_board_validate(&b), CD_POS_BAD_CASTLING);
	/* a knight where the rook should be */
	cd_board_init(&b);
	cd_board_put(&b, CD_A8, CD_PIECE(CD_BLACK, CD_KNIGHT));
	cd_board_remove(&b, CD_SQ(1, 7));
	cd_board_finish(&b);
	ck_assert_int_eq(cd_board_validate(&b), CD_POS_BAD_CASTLING);
	/* a white rook for a black right */
	cd_board_init(&b);
	cd_board_put(&b, CD_A8, CD_PIECE(CD_WHITE, CD_ROOK));
	cd_board_remove(&b, CD_A1);
	b.castle_rook[CD_WHITE][CD_QUEENSIDE] = CD_SQ_NONE;
	cd_board_finish(&b);
	ck_assert_int_eq(cd_board_validate(&b), CD_POS_BAD_CASTLING);
	/* en passant set by hand on an empty board region */
	cd_board_init(&b);
	b.ep = CD_SQ(4, 2);
	cd_board_finish(&b);
	ck_assert_int_eq(cd_board_validate(&b), CD_POS_BAD_EP);
}
END_TEST

START_TEST(test_strerror)
{
	int e, f;

	for (e = 0; e < CD_POS_ERROR_COUNT; e++) {
		const char *s = cd_position_strerror((cd_position_error)e);

		ck_assert_ptr_nonnull(s);
		ck_assert_uint_gt(strlen(s), 5);
		for (f = 0; f < e; f++)
			ck_assert_str_ne(s, cd_position_strerror((cd_position_error)f));
	}
	ck_assert_ptr_nonnull(cd_position_strerror(CD_POS_ERROR_COUNT));
	ck_assert_ptr_nonnull(cd_position_strerror((cd_position_error)-1));
	for (e = CD_ERR_ARG; e <= CD_EOF; e++) {
		ck_assert_ptr_nonnull(cd_strerror(e));
		for (f = CD_ERR_ARG; f < e; f++)
			ck_assert_str_ne(cd_strerror(e), cd_strerror(f));
	}
	ck_assert_ptr_nonnull(cd_strerror(12345));
	ck_assert_ptr_nonnull(cd_version());
	ck_assert_str_eq(cd_version(), PACKAGE_VERSION);
}
END_TEST

/* Every position of the perft fixture reads and writes back (its
 * Chess960 lines in Shredder-FEN compared after the castling field). */
START_TEST(test_fixture_positions)
{
	char path[4200], line[512];
	FILE *f;
	int n = 0;

	snprintf(path, sizeof(path), "%s/perft-standard.epd", tu_files_dir());
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	while (fgets(line, sizeof(line), f)) {
		char *semi = strchr(line, ';');
		char buf[CD_FEN_MAX];
		cd_board b, c;
		size_t len;
		unsigned flags = 0;

		if (line[0] == '#' || line[0] == '\n' || semi == NULL)
			continue;
		len = (size_t)(semi - line);
		while (len && line[len - 1] == ' ')
			len--;
		line[len] = '\0';
		/* perft suites hold positions no game reaches */
		if (cd_fen_parse(&b, line, len, CD_FEN_NO_VALIDATE,
		    NULL) != CD_OK || cd_board_validate(&b) == CD_POS_BAD_CASTLING)
			flags = CD_FEN_960;
		flags |= CD_FEN_NO_VALIDATE;
		tu_fen(&b, line, flags);
		/* six fields as they were, four as EPD */
		if (strchr(strchr(strchr(strchr(line, ' ') + 1, ' ') + 1, ' ') + 1,
		    ' ') == NULL)
			cd_fen_write_epd(&b, buf);
		else
			cd_fen_write(&b, buf);
		if (!(flags & CD_FEN_960))
			ck_assert_str_eq(buf, line);
		cd_fen_write(&b, buf);
		tu_fen(&c, buf, flags | CD_FEN_STRICT);
		ck_assert_mem_eq(&b, &c, sizeof(b));
		n++;
	}
	fclose(f);
	ck_assert_int_gt(n, 20);
}
END_TEST

static Suite *
fen_suite(void)
{
	Suite *s = suite_create("fen");
	TCase *tc;

	tc = tcase_create("write");
	tcase_add_loop_test(tc, test_round_trip, 0,
	    (int)(sizeof(canonical) / sizeof(canonical[0])));
	tcase_add_loop_test(tc, test_spellings, 0,
	    (int)(sizeof(spellings) / sizeof(spellings[0])));
	tcase_add_test(tc, test_castling_rooks);
	tcase_add_loop_test(tc, test_detect_960, 0,
	    (int)(sizeof(detect) / sizeof(detect[0])));
	tcase_add_test(tc, test_write_epd);
	tcase_add_test(tc, test_castling_random);
	tcase_add_test(tc, test_placement_random);
	tcase_add_test(tc, test_longest);
	tcase_add_test(tc, test_fixture_positions);
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_add_loop_test(tc, test_errors, 0, (int)(sizeof(bad) / sizeof(bad[0])));
	tcase_add_test(tc, test_length);
	suite_add_tcase(s, tc);

	tc = tcase_create("validity");
	tcase_add_loop_test(tc, test_validity, 0,
	    (int)(sizeof(validity) / sizeof(validity[0])));
	tcase_add_test(tc, test_validity_built);
	tcase_add_test(tc, test_strerror);
	suite_add_tcase(s, tc);
	return s;
}

TU_SUITES(fen_suite);
