/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chessdata/opening.h: opening classification by position.
 *
 * A table of openings is read from the forms users have:
 *   - TSV with a header row naming the columns `eco`, `name` and `pgn`
 *     (in any order, other columns ignored): the lichess opening
 *     tables, one line of moves a row ("1. e4 c6 2. d4 d5");
 *   - PGN: each game a line, its ECO, Opening, Variation and
 *     SubVariation tags naming the position at the end of its main
 *     line (pgn-extract's eco.pgn).
 * Each line names the position it ends in, as EPD: placement, side to
 * move, castling rights, and an en passant square only where a capture
 * there is legal (cd_board.key's rule).  Where several lines end in one
 * position, the first read wins (file order, then the order of the
 * calls).  A line without moves names nothing.
 *
 * A game is classified by the last position of its main line, after at
 * least one move, that ends a line of the table: move order does not
 * matter (transpositions), the side to move does.  The positions are
 * found by Zobrist key and confirmed by the board.
 *
 * A table is read-only once read: several threads may classify games
 * with one table at once.  The strings of a cd_opening live in the
 * table.
 */
#ifndef CHESSDATA_OPENING_H
#define CHESSDATA_OPENING_H

#include <chessdata/base.h>
#include <chessdata/board.h>
#include <chessdata/pgn.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cd_openings cd_openings;

/* One classification.  Strings are NUL-terminated, never NULL ("" when
 * the table has none). */
typedef struct cd_opening {	/* ABI: reserved */
	const char *eco;	/* "C00" */
	const char *name;	/* TSV: the `name` column; PGN: Opening,
				 * then ": " Variation, then ", "
				 * SubVariation (those present) */
	const char *opening;	/* TSV: the name; PGN: the Opening tag */
	const char *variation;	/* PGN: the Variation tag */
	const char *subvariation;	/* PGN: the SubVariation tag */
	bool from_pgn;		/* the line came from a PGN table */
	uint32_t ply;		/* in a classified game: the ply of the
				 * position (1 after the first move) */
	uint32_t line_plies;	/* the table line's own length */
	CD_RESERVED(2);
} cd_opening;

/* An empty table; NULL when out of memory. */
CD_API cd_openings *cd_openings_new(void);
CD_API void cd_openings_free(cd_openings *o);

/*
 * Add the lines of len bytes of table text (TSV when its first line is
 * a header naming eco, name and pgn; else PGN).  CD_OK; CD_ERR_SYNTAX,
 * CD_ERR_ILLEGAL, CD_ERR_AMBIGUOUS (a line that does not read: err, if
 * not NULL, gets its line, column and why; the lines before it are
 * kept), CD_ERR_NOMEM.
 */
CD_API cd_status cd_openings_read(cd_openings *o, const char *text,
    size_t len, cd_error *err);

/* The number of positions the table names (lines ending in a position
 * an earlier line named are not counted). */
CD_API size_t cd_openings_count(const cd_openings *o);

/* The line that ends in position b, or false. */
CD_API bool cd_openings_find(const cd_openings *o, const cd_board *b,
    cd_opening *out);

/*
 * Classify g by its main line.  When the parser kept its keys
 * (CD_PGN_PARSE_MAIN_KEYS), they are looked up from the last, and the
 * moves made again only up to the position found, to compare it with
 * its line; else from g->positions when the parser kept them, or
 * replayed from g->start, up to the first position from which no
 * position of the table can be reached: fewer pieces, or pawns gone
 * from their first rank that every line keeps there.  true and *out
 * filled, out->ply the ply of the position; false when no position of
 * the main line ends a line of the table.
 */
CD_API bool cd_openings_classify(const cd_openings *o, const cd_game *g,
    cd_opening *out);

#ifdef __cplusplus
}
#endif
#endif
