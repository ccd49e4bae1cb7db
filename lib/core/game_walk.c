/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * core/game_walk.c: a game's main line walked position by position, through
 * the rules of rules.c (which know positions, not games): the one
 * replay of a game that the writers, pgn-select's conditions and
 * pgn-regularize's checks share.
 */
#include "config.h"

#include "common/internal.h"

void
cd_game_walk_init(cd_game_walk *w)
{
	cd_rules_init(&w->rules);
	w->game = NULL;
	w->node = 0;
	w->track = false;
}

void
cd_game_walk_free(cd_game_walk *w)
{
	if (w != NULL)
		cd_rules_free(&w->rules);
}

void
cd_game_walk_start(cd_game_walk *w, const cd_game *g, bool track)
{
	w->game = g;
	w->node = 0;
	w->rules.board = g->start;
	w->rules.plies = 0;
	w->rules.history.len = 0;
	w->track = track &&
	    cd_history_push(&w->rules.history, &g->start) == CD_OK;
}

bool
cd_game_walk_next(cd_game_walk *w)
{
	uint32_t n = w->game->nodes[w->node].next;

	if (n == 0)
		return false;
	cd_board_make(&w->rules.board, w->game->nodes[n].move);
	w->node = n;
	w->rules.plies++;
	if (w->track &&
	    cd_history_push(&w->rules.history, &w->rules.board) != CD_OK)
		w->track = false;
	return true;
}

unsigned
cd_game_walk_endings(const cd_game_walk *w)
{
	return cd_board_endings(&w->rules.board,
	    w->track ? &w->rules.history : NULL);
}

/* Only the game's start position and main-line moves are read. */
unsigned
cd_game_endings(const cd_game *g)
{
	cd_game_walk w;
	unsigned set;

	cd_game_walk_init(&w);
	cd_game_walk_start(&w, g, true);
	while (cd_game_walk_next(&w))
		;
	set = cd_game_walk_endings(&w);
	cd_game_walk_free(&w);
	return set;
}

void
cd_game_end_position(const cd_game *g, cd_board *out)
{
	uint32_t i;

	*out = g->start;
	for (i = g->nodes[0].next; i; i = g->nodes[i].next)
		cd_board_make(out, g->nodes[i].move);
}

size_t
cd_game_end_fen(const cd_game *g, char *buf)
{
	cd_board b;

	cd_game_end_position(g, &b);
	return cd_fen_write(&b, buf);
}
