/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tree.h: pgn-tree's counts (src/cli/tree.c): the statistics of each
 * (position, move) pair, in a table of its own a thread, added up at
 * the end.
 */
#ifndef CD_CLI_TREE_H
#define CD_CLI_TREE_H

#include <stdbool.h>
#include <stdint.h>

#include "chessdata.h"

struct mstat {
	uint64_t key;		/* the position's (cd_board.key) */
	cd_move move;
	uint64_t games, white, draws, black;
	uint64_t elo_sum, elo_n;	/* the player to move */
	uint64_t opp_sum, opp_n;	/* the opponent */
	int64_t perf_diff;	/* wins - losses, games with a rated
				 * opponent and a result */
	uint64_t perf_n, perf_opp;	/* those games, their opponents'
					 * ratings summed */
	int first_year, last_year;	/* 0: none */
	/* the most recent game: latest date, then latest in the input */
	char date[11];
	uint64_t index;
	char *white_name, *black_name, *event;
};

struct table {
	struct mstat *s;
	size_t n, cap;
	uint32_t *slot;		/* index + 1; 0 empty */
	size_t mask;
	/* a game's pairs, to count each once a game */
	size_t *seen;
	size_t nseen, seen_cap;
};

/* The statistics of (key, m): found, or added empty when add. */
struct mstat *tree_table_get(struct table *t, uint64_t key, cd_move m,
    bool add);
void tree_table_free(struct table *t);
char *tree_xstrdup(const char *s);
/* Whether the game (date d, index i) is more recent than s's latest:
 * dates compared with `?` below every digit, then the input order. */
bool tree_more_recent(const struct mstat *s, const char *d, uint64_t i);
/* s's latest game: its date, index, players and event. */
void tree_set_latest(struct mstat *s, const char *date, uint64_t index,
    const char *w, const char *b, const char *e);
/* Add s's counts into t (the threads' tables into the total). */
void tree_table_merge(struct table *t, const struct mstat *s);

#endif
