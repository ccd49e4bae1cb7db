/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_fen.c: FEN reading and writing, and the move generator, SAN and
 * game state on every position that reads.
 *
 * Each line of the input is parsed as FEN under several flag sets.
 * Properties:
 * - an error has a message and a column inside the line (or just past
 *   its end);
 * - what parses writes a FEN that parses again (strictly) to the same
 *   position and writes the same text (and the EPD form is its prefix);
 * - a strict parse agrees with the lenient one;
 * - on a validated position: the move list, the move count, the check
 *   and mate predicates and the per-piece lists agree; every legal move
 *   writes a SAN that reads back (strictly and leniently) as that move,
 *   its bare SAN is the SAN without the mark, its UCI form reads back
 *   as that move when it reads at all; the position after it is valid,
 *   writes a FEN that reads back validated, and its hash equals the hash
 *   of that FEN read afresh; perft(2) equals the sum of the children's
 *   move counts.
 */
#include "config.h"

#include <string.h>

#include "chessdata.h"
#include "fuzz.h"

const char *const fuzz_seeds[] = {
	"tests/fuzz/regress/fen",
	"tests/files",
	"corpus:epd",
	"corpus:perft",
	NULL
};

/* Positions whose moves are checked, per input (it is the slow part). */
#define MAX_MOVE_CHECKS 4
static int move_checks;

static const unsigned flagsets[] = {
	0,
	CD_FEN_STRICT,
	CD_FEN_960,
	CD_FEN_NO_VALIDATE,
	CD_FEN_960 | CD_FEN_NO_VALIDATE
};

/* Check the moves of a valid position. */
static void
check_moves(const cd_board *b, const char *fen)
{
	cd_move mv[CD_MAX_MOVES], sub[CD_MAX_MOVES], m2;
	char san[CD_SAN_MAX + 8], bare[CD_SAN_MAX + 8], uci[8];
	char fen2[CD_FEN_MAX];
	const char *why;
	cd_error err;
	cd_board c, d;
	uint64_t sum = 0;
	size_t sl, bl, ul, fl;
	int n, i, t, per = 0;
	bool check;
	cd_status st;

	n = cd_board_legal_moves(b, mv);
	FUZZ_CHECK(n >= 0 && n < CD_MAX_MOVES, "%s: %d moves", fen, n);
	FUZZ_CHECK(n == cd_board_count_moves(b), "%s", fen);
	FUZZ_CHECK((n > 0) == cd_board_has_legal_move(b), "%s", fen);
	check = cd_board_in_check(b);
	FUZZ_CHECK(check == (cd_board_checkers(b) != 0), "%s", fen);
	FUZZ_CHECK(cd_board_is_checkmate(b) == (n == 0 && check), "%s", fen);
	FUZZ_CHECK(cd_board_is_stalemate(b) == (n == 0 && !check), "%s", fen);
	for (t = CD_PAWN; t <= CD_KING; t++)
		per += cd_board_legal_moves_to(b, t, -1, sub);
	FUZZ_CHECK(per == n, "%s: %d moves by piece, %d in all", fen, per, n);
	{
		unsigned e = cd_board_endings(b, NULL);

		FUZZ_CHECK(!!(e & CD_END_CHECKMATE) == (n == 0 && check) &&
		    !!(e & CD_END_STALEMATE) == (n == 0 && !check), "%s", fen);
		FUZZ_CHECK(n == 0 || !!(e & CD_END_DEAD) ==
		    cd_board_insufficient_material(b), "%s", fen);
	}

	for (i = 0; i < n; i++) {
		cd_move m = mv[i];

		FUZZ_CHECK(cd_board_is_legal(b, m), "%s: move %d", fen, i);
		memset(san, 0, sizeof(san));
		sl = cd_san_write(b, m, san);
		FUZZ_CHECK(sl > 0 && sl < CD_SAN_MAX && strlen(san) == sl,
		    "%s: san length %zu", fen, sl);
		memset(bare, 0, sizeof(bare));
		bl = cd_san_write_bare(b, m, bare);
		FUZZ_CHECK(bl <= sl && memcmp(san, bare, bl) == 0 &&
		    (bl == sl || (sl == bl + 1 &&
		    (san[bl] == '+' || san[bl] == '#'))),
		    "%s: san %s bare %s", fen, san, bare);
		m2 = CD_MOVE_NONE;
		st = cd_san_parse(b, san, sl, NULL, CD_SAN_STRICT, &m2, &err);
		why = err.msg;
		FUZZ_CHECK(st == CD_OK && m2 == m,
		    "%s: strict read of own SAN %s: %d %s", fen, san, st,
		    why ? why : "");
		m2 = CD_MOVE_NONE;
		st = cd_san_parse(b, san, sl, NULL, 0, &m2, &err);
		FUZZ_CHECK(st == CD_OK && m2 == m,
		    "%s: lenient read of own SAN %s: %d", fen, san, st);
		ul = cd_move_to_uci(b, m, uci);
		FUZZ_CHECK((ul == 4 || ul == 5) && ul < sizeof(uci),
		    "%s: uci length %zu", fen, ul);
		m2 = CD_MOVE_NONE;
		if (cd_san_parse(b, uci, ul, NULL, 0, &m2, NULL) == CD_OK)
			FUZZ_CHECK(m2 == m, "%s: uci %.*s read as another "
			    "move than %s", fen, (int)ul, uci, san);

		c = *b;
		cd_board_make(&c, m);
		FUZZ_CHECK(cd_board_validate(&c) == CD_POS_OK,
		    "%s: after %s: %s", fen, san,
		    cd_position_strerror(cd_board_validate(&c)));
		FUZZ_CHECK(((san[sl - 1] == '+' || san[sl - 1] == '#') ==
		    cd_board_in_check(&c)) &&
		    ((san[sl - 1] == '#') == cd_board_is_checkmate(&c)),
		    "%s: %s: mark and position disagree", fen, san);
		fl = cd_fen_write(&c, fen2);
		FUZZ_CHECK(fl < CD_FEN_MAX, "%s", fen);
		st = cd_fen_parse(&d, fen2, fl,
		    c.chess960 ? CD_FEN_960 | CD_FEN_STRICT : CD_FEN_STRICT,
		    &err);
		why = err.msg;
		FUZZ_CHECK(st == CD_OK, "%s: after %s the FEN %s does not "
		    "read back: %s", fen, san, fen2, why ? why : "");
		FUZZ_CHECK(d.key == c.key, "%s: after %s: hash %016llx, "
		    "from FEN %s %016llx", fen, san,
		    (unsigned long long)c.key, fen2,
		    (unsigned long long)d.key);
		sum += (uint64_t)cd_board_count_moves(&c);
	}
	FUZZ_CHECK(cd_perft(b, 2) == sum, "%s: perft 2", fen);
	FUZZ_CHECK(cd_perft(b, 1) == (uint64_t)n && cd_perft(b, 0) == 1,
	    "%s: perft 1", fen);
}

static void
fen_line(const char *s, size_t n)
{
	char fen[CD_FEN_MAX + 8], fen2[CD_FEN_MAX + 8], epd[CD_FEN_MAX + 8];
	cd_board b, b2, strict_b;
	const char *why;
	cd_error err;
	size_t col, len, len2, elen;
	bool strict_ok = false, lenient_ok = false;
	unsigned i, fl, fl2;
	cd_status st;

	for (i = 0; i < sizeof(flagsets) / sizeof(flagsets[0]); i++) {
		fl = flagsets[i];
		st = cd_fen_parse(&b, s, n, fl, &err);
		why = err.msg;
		col = err.col;
		if (st != CD_OK) {
			FUZZ_CHECK(st < 0 && why != NULL && *why != '\0',
			    "status %d", st);
			FUZZ_CHECK(col >= 1 && col <= n + 1,
			    "column %zu of a %zu-byte line (%s)", col, n, why);
			FUZZ_CHECK(!(fl == 0 && strict_ok),
			    "strict parse ok, lenient fails: %s", why);
			continue;
		}
		if (fl == CD_FEN_STRICT) {
			strict_ok = true;
			strict_b = b;
		}
		if (fl == 0)
			lenient_ok = true;
		memset(fen, 0, sizeof(fen));
		len = cd_fen_write(&b, fen);
		FUZZ_CHECK(len > 0 && len < CD_FEN_MAX && strlen(fen) == len,
		    "written length %zu", len);
		memset(epd, 0, sizeof(epd));
		elen = cd_fen_write_epd(&b, epd);
		/* the EPD form is the FEN's first four fields, except that a
		 * Chess960 right standard chess cannot have names its file */
		{
			const char *sp = strchr(strchr(fen, ' ') + 1, ' ') + 1;
			size_t head = (size_t)(sp - fen);

			FUZZ_CHECK(elen < len + 8 && memcmp(fen, epd, head) == 0 &&
			    (b.chess960 || (elen < len &&
			    memcmp(fen, epd, elen) == 0 && fen[elen] == ' ')),
			    "%s: EPD form %s", fen, epd);
		}
		fl2 = CD_FEN_STRICT | (fl & CD_FEN_NO_VALIDATE) |
		    (b.chess960 ? CD_FEN_960 : 0);
		st = cd_fen_parse(&b2, fen, len, fl2, &err);
		why = err.msg;
		FUZZ_CHECK(st == CD_OK, "own FEN %s (flags %u) does not read "
		    "back: %s", fen, fl2, why ? why : "");
		memset(fen2, 0, sizeof(fen2));
		len2 = cd_fen_write(&b2, fen2);
		FUZZ_CHECK(len2 == len && memcmp(fen, fen2, len) == 0,
		    "FEN %s reads back as %s", fen, fen2);
		FUZZ_CHECK(b2.key == b.key, "%s: hash differs on reading back",
		    fen);
		if (fl == 0 && strict_ok) {
			len2 = cd_fen_write(&strict_b, fen2);
			FUZZ_CHECK(len2 == len && memcmp(fen, fen2, len) == 0,
			    "strict read %s, lenient %s", fen2, fen);
		}
		if (!(fl & CD_FEN_NO_VALIDATE)) {
			FUZZ_CHECK(cd_board_validate(&b) == CD_POS_OK, "%s",
			    fen);
			/* The moves of the first positions only, once
			 * each (standard rules, else Chess960). */
			if (move_checks < MAX_MOVE_CHECKS && (fl == 0 ||
			    (fl == CD_FEN_960 && !lenient_ok))) {
				move_checks++;
				check_moves(&b, fen);
			}
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	move_checks = 0;
	fuzz_each_line(data, size, fen_line);
	return 0;
}
