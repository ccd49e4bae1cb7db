/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rules.c: the FIDE endings of a position (see chessdata/rules.h):
 * checkmate, stalemate, dead position, repetitions, the fifty and
 * seventy-five move rules, for one position or a running line of
 * positions (the history of their keys).  Games are walked into it by
 * game_walk.c.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "common/internal.h"
#include "core/bits.h"

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

void
cd_history_init(cd_history *h)
{
	h->keys = NULL;
	h->len = h->cap = 0;
}

void
cd_history_free(cd_history *h)
{
	if (h == NULL)
		return;
	free(h->keys);
	cd_history_init(h);
}

cd_status
cd_history_push(cd_history *h, const cd_board *b)
{
	if (b->halfmove == 0)
		h->len = 0;	/* nothing before an irreversible move repeats */
	if (h->len == h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 64;
		uint64_t *k = realloc(h->keys, cap * sizeof(*k));

		if (k == NULL)
			return CD_ERR_NOMEM;
		h->keys = k;
		h->cap = cap;
	}
	h->keys[h->len++] = b->key;
	return CD_OK;
}

int
cd_history_repetitions(const cd_history *h, const cd_board *b)
{
	size_t i;
	int n = 0;

	if (h == NULL)
		return 1;
	/* every entry: the key includes the side to move, so a position
	 * with the other side to move never matches */
	for (i = h->len; i-- > 0;)
		if (h->keys[i] == b->key)
			n++;
	return n > 0 ? n : 1;
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
	/* a flag fall loses only where the opponent could mate (6.9); a
	 * resignation loses whatever is left (5.1.2) */
	if ((endings & CD_END_TIME_FORFEIT) && !cd_board_can_mate(b,
	    r == CD_PGN_RESULT_WHITE ? CD_WHITE : CD_BLACK))
		return r == CD_PGN_RESULT_WHITE ?
		    "ends on time with White unable to checkmate" :
		    "ends on time with Black unable to checkmate";
	return NULL;
}

