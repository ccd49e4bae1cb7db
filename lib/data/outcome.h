/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * data/outcome.h: the computed fields of a game that json.c writes both
 * in JSON and in table rows (see chessdata/json.h: "reason", "speed",
 * "winner", "elo_diff"), and the TimeControl as numbers.
 */
#ifndef CD_DATA_OUTCOME_H
#define CD_DATA_OUTCOME_H

#include <stdbool.h>
#include <stdint.h>

#include "chessdata/pgn.h"
#include "chessdata/timecontrol.h"

/* The most periods of a TimeControl read (more: not read). */
#define TC_MAX	16

/* The TimeControl tag of g read into tc[TC_MAX]: a count of periods or
 * CD_TC_*; CD_TC_INVALID without the tag too (*present false). */
int cd__game_tc(const cd_game *g, cd_tc_period *tc, bool *present);
/* A number of the TimeControl tag (digits, maybe a point and digits)
 * in nanoseconds; -1 when too large. */
int64_t cd__tc_ns(const char *s, size_t len);

/* How g ended, endings those of its final position ("reason"). */
const char *cd__game_reason(const cd_game *g, unsigned endings);
/* Its speed by lichess's rule, NULL without a time control that reads
 * ("speed"). */
const char *cd__game_speed(const cd_game *g);
/* "white", "black", "none" (a draw), NULL (no result). */
const char *cd__game_winner(const cd_game *g);
/* WhiteElo less BlackElo into *d: false unless both are numbers. */
bool cd__game_elo_diff(const cd_game *g, long *d);

#endif
