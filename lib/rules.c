/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rules.c: the FIDE endings of a position (see chessdata/rules.h):
 * checkmate, stalemate, dead position, repetitions, the fifty and
 * seventy-five move rules, for one position, a running line, or the
 * main line of a game.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

static const char *const ending_names[] = {
	"checkmate", "stalemate", "dead", "fivefold", "seventyfive",
	"threefold", "fifty"
};
#define NENDINGS (sizeof(ending_names) / sizeof(ending_names[0]))

const char *
cd_ending_name(unsigned ending)
{
	if (ending == 0 || (ending & (ending - 1)) != 0 ||
	    ending > CD_END_FIFTY)
		return NULL;
	return ending_names[__builtin_ctz(ending)];
}

unsigned
cd_ending_parse(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < NENDINGS; i++)
		if (strlen(ending_names[i]) == len &&
		    memcmp(ending_names[i], name, len) == 0)
			return 1u << i;
	return 0;
}

unsigned
cd_ending_first(unsigned set)
{
	return set & -set;
}

unsigned
cd_board_endings(const cd_board *b, const cd_history *h)
{
	unsigned set = 0;
	int reps;

	/* no legal move ends the game with the move that made the
	 * position, before any claim or automatic draw (5.1.1, 5.2.1,
	 * 9.6.2) */
	if (!cd_board_has_legal_move(b))
		return cd_board_in_check(b) ? CD_END_CHECKMATE :
		    CD_END_STALEMATE;
	if (cd_board_insufficient_material(b))
		set |= CD_END_DEAD;
	if (h != NULL) {
		reps = cd_history_repetitions(h, b);
		if (reps >= 5)
			set |= CD_END_FIVEFOLD;
		if (reps >= 3)
			set |= CD_END_THREEFOLD;
	}
	if (b->halfmove >= 150)
		set |= CD_END_SEVENTYFIVE;
	if (b->halfmove >= 100)
		set |= CD_END_FIFTY;
	return set;
}

void
cd_rules_init(cd_rules *r)
{
	cd_board_init(&r->board);
	cd_history_init(&r->history);
	r->plies = 0;
}

void
cd_rules_free(cd_rules *r)
{
	if (r == NULL)
		return;
	cd_history_free(&r->history);
}

cd_status
cd_rules_start(cd_rules *r, const cd_board *start)
{
	r->board = *start;
	r->history.len = 0;
	r->plies = 0;
	return cd_history_push(&r->history, start);
}

cd_status
cd_rules_push(cd_rules *r, const cd_board *after_move)
{
	r->board = *after_move;
	r->plies++;
	return cd_history_push(&r->history, after_move);
}

unsigned
cd_rules_endings(const cd_rules *r)
{
	return cd_board_endings(&r->board, &r->history);
}

/* Only the game's start position and main-line moves are read. */
unsigned
cd_game_endings(const cd_game *g)
{
	cd_rules r;
	cd_board b = g->start;
	uint32_t i;
	bool ok;
	unsigned set;

	cd_rules_init(&r);
	ok = cd_rules_start(&r, &b) == CD_OK;
	for (i = g->nodes[0].next; i; i = g->nodes[i].next) {
		cd_board_make(&b, g->nodes[i].move);
		if (ok)
			ok = cd_rules_push(&r, &b) == CD_OK;
	}
	r.board = b;
	set = ok ? cd_rules_endings(&r) : cd_board_endings(&b, NULL);
	cd_rules_free(&r);
	return set;
}

bool
cd_board_can_mate(const cd_board *b, int color)
{
	const cd_bitboard light = 0x55aa55aa55aa55aaULL;
	cd_bitboard own = b->by_color[color], other = b->by_color[!color];
	cd_bitboard bishops = b->by_type[CD_BISHOP];

	if (own & (b->by_type[CD_PAWN] | b->by_type[CD_ROOK] |
	    b->by_type[CD_QUEEN]))
		return true;
	if (own & b->by_type[CD_KNIGHT])
		return cd__popcount(own) > 2 || (other &
		    ~(b->by_type[CD_KING] | b->by_type[CD_QUEEN])) != 0;
	if (own & bishops)
		return ((bishops & light) && (bishops & ~light)) ||
		    b->by_type[CD_PAWN] || b->by_type[CD_KNIGHT];
	return false;
}

const char *
cd_result_contradiction(const cd_board *b, unsigned endings,
    cd_pgn_result r)
{
	if (r != CD_PGN_RESULT_WHITE && r != CD_PGN_RESULT_BLACK &&
	    r != CD_PGN_RESULT_DRAW)
		return NULL;
	if (endings & CD_END_CHECKMATE)
		/* the side to move is mated: the other one won */
		return r != (b->side == CD_WHITE ? CD_PGN_RESULT_BLACK :
		    CD_PGN_RESULT_WHITE) ? "ends in checkmate" : NULL;
	if (r == CD_PGN_RESULT_DRAW)
		return NULL;
	if (endings & CD_END_STALEMATE)
		return "ends in stalemate";
	if (endings & CD_END_DEAD)
		return "ends in a dead position";
	if (endings & CD_END_FIVEFOLD)
		return "ends in a fivefold repetition";
	if (endings & CD_END_SEVENTYFIVE)
		return "ends after 75 moves without a pawn move or capture";
	if (!cd_board_can_mate(b, r == CD_PGN_RESULT_WHITE ? CD_WHITE :
	    CD_BLACK))
		return r == CD_PGN_RESULT_WHITE ?
		    "ends with White unable to checkmate" :
		    "ends with Black unable to checkmate";
	return NULL;
}
