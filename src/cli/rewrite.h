/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rewrite.h: what pgn-regularize changes in a game at a user's asking
 * (src/cli/rewrite.c): its tags by lists of names, its tag section
 * reordered or left out of the text written, ply counts, and the
 * result from the final position.
 */
#ifndef CD_REWRITE_H
#define CD_REWRITE_H

#include <stdbool.h>
#include <stddef.h>

#include "chessdata.h"

/* A list of tag names, from a comma-separated option value. */
struct cli_names {
	char **v;
	size_t n, cap;
};

/* Add the names of list (comma-separated; empty names skipped) to l;
 * a usage error (exit 2) for a name that is no PGN symbol. */
void cli_names_add(struct cli_names *l, const char *list,
    const char *option);
/* The index of name (len bytes) in l, or -1. */
long cli_names_find(const struct cli_names *l, const char *name,
    size_t len);

/* Whether name (len bytes) is one of the seven tag roster's. */
bool cli_tag_is_roster(const char *name, size_t len);

/* Remove the tags of g that are not of the roster or in keep (NULL:
 * the roster alone; a game with a FEN tag keeps its Variant); or
 * those in drop. */
void cli_tags_keep(cd_game *g, const struct cli_names *keep);
void cli_tags_drop(cd_game *g, const struct cli_names *drop);

/* In the export text of one game at b->data[from..b->len): the tag
 * lines after the roster's named in order first, in its order, the
 * others after them as they are. */
void cli_tags_order(cd_buf *b, size_t from, const struct cli_names *order);
/* The same text without its tag section (and the empty line after
 * it). */
void cli_tags_none(cd_buf *b, size_t from);

/* The plies of g's main line; of its whole tree with all. */
unsigned long cli_game_plies(const cd_game *g, bool all);

/* With the final position of g's main line a checkmate or a
 * stalemate, the result it gives when g has another one (set as the
 * termination marker and Result tag); the result g had, and *why
 * ("checkmate", "stalemate") when changed, NULL otherwise. */
cd_pgn_result cli_result_fix(cd_game *g, const char **why);

/* What cli_game_cut adds as comments. */
enum {
	CLI_CUT_FEN_COMMENTS = 1 << 0,	/* the FEN after every move */
	CLI_CUT_KEY_COMMENTS = 1 << 1,	/* its Polyglot key, hex */
	CLI_CUT_FINAL_FEN = 1 << 2,	/* the final FEN, quoted, after the
					 * main line (when it has a move) */
	CLI_CUT_NO_COMMENTS = 1 << 3	/* the game's own comments left
					 * out */
};

/* No limit for cli_game_cut's max. */
#define CLI_CUT_ALL ((unsigned long)-1)

/* Make dst a copy of src (tags, comments, NAGs, variations) that
 * starts at ply `from` of its main line (the position there given by
 * SetUp and FEN tags; what stood before it left out) and keeps at most
 * max plies of it (CLI_CUT_ALL: all; 0: none) and the variations of
 * those; the result
 * `*` when moves were cut at the end; a PlyCount tag made the count of
 * what is left; the comments of what (CLI_CUT_*) added after the
 * game's own. */
void cli_game_cut(cd_game *dst, const cd_game *src, unsigned long from,
    unsigned long max, unsigned what);
/* The first moves of g's lines, into (*out)[0..) (room grown as
 * cli_grow does, *cap its size): the main line's first (0 when it has
 * none), then each variation's, in the order they are written (a
 * variation's own ones after it); their count. */
size_t cli_game_lines(const cd_game *g, uint32_t **out, size_t *cap);

/* Make dst the line of src whose first move is v, as a game of its own
 * without variations: its tags, and from the start position the moves
 * that lead to v (what stood before the first move too), or, with
 * from_position, the position they reach (SetUp and FEN tags); then
 * the line.  The result that of src for the main line, `*` for a
 * variation.  what: CLI_CUT_NO_COMMENTS or 0. */
void cli_game_line(cd_game *dst, const cd_game *src, uint32_t v,
    bool from_position, unsigned what);

/* pgn-regularize --salvage (cli_games.salvage): what reads of a game
 * that does not parse, into j->game.  A move that breaks the main line
 * ends it there (the termination marker becomes *); one that breaks a
 * variation ends the variation there (dropped when no move of it is
 * left), and the main line goes on.  A comment "{salvaged: MESSAGE, at
 * line L col C}" stands where each cut is, and a warning tells each
 * on stderr.  False (the game rejected as it was) for a tag section
 * error, and for a game left with no move of its main line. */
struct cli_job;
bool cli_salvage(struct cli_job *j, const cd_pgn_raw_game *raw,
    const cd_error *err);

#endif
