/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chessdata/rules.h: how a position stands under the FIDE Laws of Chess
 * (articles 5 and 9): checkmate, stalemate, dead position, fivefold and
 * threefold repetition, the seventy-five and fifty move rules.
 *
 * The endings of a position are a set of bits.  What each bit means:
 *
 * CD_END_CHECKMATE	the side to move is in check and has no legal
 *			move (5.1.1).  Alone: the game ended with the
 *			move that mated, before any draw rule (9.6.2:
 *			a mate on the last move takes precedence).
 * CD_END_STALEMATE	the side to move is not in check and has no
 *			legal move (5.2.1).  Alone, as above.
 * CD_END_DEAD		a dead position by material (5.2.2): no pawns,
 *			rooks or queens, and either at most one knight or
 *			bishop on the board (K v K, K+N v K, K+B v K), or
 *			only bishops, all on squares of one colour (K+B v
 *			K+B with bishops on one colour, and any number of
 *			such bishops).  Positions dead for other reasons
 *			(locked pawns) are not counted.
 * CD_END_FIVEFOLD	the position has occurred at least five times
 *			(9.6.1).
 * CD_END_SEVENTYFIVE	at least 75 moves of each side (150 half-moves,
 *			the halfmove clock of a FEN start included)
 *			without a pawn move or a capture (9.6.2).
 * CD_END_THREEFOLD	the position has occurred at least three times
 *			(9.2): the same side to move, the same pieces on
 *			the same squares, the same castling rights, and
 *			the same en passant capture, which counts only
 *			when it is legal.  Positions are compared by
 *			their Zobrist key (cd_board.key), which holds
 *			exactly these.  A fivefold is also a threefold.
 * CD_END_FIFTY		at least 50 moves of each side (100 half-moves)
 *			without a pawn move or a capture (9.3).  A
 *			seventy-five is also a fifty.
 *
 * This is the one answer to how a position stands: every program of
 * the package asks it here.  The order of the bits is the order of
 * precedence when one must be named (cd_ending_first), and follows
 * the Laws: the game ends at the first event, and checkmate and
 * stalemate end it with the move that made them, so that no other bit
 * is set with them (5.1.1, 5.2.1, 9.6: "if the last move resulted in
 * checkmate, that shall take precedence").  A dead position ends the
 * game at once (5.2.2) and comes next.  Where a fivefold repetition and
 * the seventy-fifth move come with the same move, both automatic
 * draws hold and the Laws give neither precedence ("if one or both of
 * the following occur(s)", 9.6): the fivefold, listed first (9.6.1),
 * is named.  Then the claims: threefold (9.2) before fifty moves (9.3),
 * in the order of the Laws.
 *
 * Repetitions count only positions of one line since its last pawn
 * move or capture (nothing before repeats).  The positions come from
 * the caller: a history of keys (cd_history) or the running tracker
 * (cd_rules); chessdata/pgn.h walks a game's main line into them
 * (cd_game_walk).
 */
#ifndef CHESSDATA_RULES_H
#define CHESSDATA_RULES_H

#include <chessdata/base.h>
#include <chessdata/board.h>
#include <chessdata/pgn_lex.h>	/* cd_pgn_result */

#ifdef __cplusplus
extern "C" {
#endif

/* Endings of a position, as a set of bits; the order of the bits is
 * the order of precedence when one must be named. */
enum {
	CD_END_CHECKMATE = 1 << 0,
	CD_END_STALEMATE = 1 << 1,
	CD_END_DEAD = 1 << 2,		/* neither side can mate (material) */
	CD_END_FIVEFOLD = 1 << 3,	/* FIDE 9.6.1 */
	CD_END_SEVENTYFIVE = 1 << 4,	/* 9.6.2: 75 moves each, no pawn move
					 * or capture */
	CD_END_THREEFOLD = 1 << 5,	/* 9.2: same position 3 times */
	CD_END_FIFTY = 1 << 6		/* 9.3: last 50 moves each without
					 * pawn move or capture */
};
/* Every bit above. */
#define CD_END_ALL	0x7fu
/* The automatic draws (9.6): the game was over when one held. */
#define CD_END_AUTOMATIC	(CD_END_FIVEFOLD | CD_END_SEVENTYFIVE)
/* No ending of a position (never in CD_END_ALL): how the game ended,
 * for cd_result_contradiction: the loser's flag fell (cd_game_lost_on_
 * time). */
#define CD_END_TIME_FORFEIT	0x100u

/* "checkmate", "stalemate", "dead", "fivefold", "seventyfive",
 * "threefold", "fifty" for one bit; NULL otherwise. */
CD_API const char *cd_ending_name(unsigned ending);
/* The bit named name (len bytes, as cd_ending_name gives it), 0 if
 * none. */
CD_API unsigned cd_ending_parse(const char *name, size_t len);
/* The lowest bit of a set (the one to name), 0 for none. */
CD_API unsigned cd_ending_first(unsigned set);

/*
 * Position history for repetition counts: the keys since the last
 * irreversible move.  Keep one per line of play; push after each move.
 */
typedef struct cd_history {	/* ABI: reserved */
	uint64_t *keys;
	size_t len;
	size_t cap CD_PRIVATE;
	CD_RESERVED(1);
} cd_history;

CD_API void cd_history_init(cd_history *h);
CD_API void cd_history_free(cd_history *h);
/* Record the position b (after a move, or the start position). */
CD_API cd_status cd_history_push(cd_history *h, const cd_board *b);
/* How often the position b has occurred, itself included. */
CD_API int cd_history_repetitions(const cd_history *h, const cd_board *b);

/* The endings of b, reached at the end of the line whose positions
 * since the last pawn move or capture are in h (b included, as
 * cd_rules keeps them; h may be NULL: no repetition). */
CD_API unsigned cd_board_endings(const cd_board *b, const cd_history *h);

/*
 * A running tracker, for callers that replay a line themselves: start
 * it at the line's first position, push the position after each move,
 * ask for the endings whenever.  A value the caller owns: cd_rules_init
 * before the first use, cd_rules_free after the last (start may be
 * called again and again in between, reusing the memory).
 */
typedef struct cd_rules {	/* ABI: reserved */
	cd_board board;		/* the last position pushed */
	cd_history history;	/* keys since the last irreversible move */
	uint32_t plies;		/* moves pushed since the start */
	CD_RESERVED(2);
} cd_rules;

CD_API void cd_rules_init(cd_rules *r);
CD_API void cd_rules_free(cd_rules *r);
/* Start a line at start.  CD_OK or CD_ERR_NOMEM. */
CD_API cd_status cd_rules_start(cd_rules *r, const cd_board *start);
/* The position after the next move of the line.  CD_OK or
 * CD_ERR_NOMEM. */
CD_API cd_status cd_rules_push(cd_rules *r, const cd_board *after_move);
/* The endings of the last position pushed (or of the start). */
CD_API unsigned cd_rules_endings(const cd_rules *r);

/*
 * Whether color has mating material: whether some series of legal
 * moves could end in its checkmating the other side (FIDE 6.9; the
 * online rules of lichess.org and chessops count the same material).
 * It has none with a lone king; with no pawn, rook or queen, it has
 * none with one knight (its king and knight alone) when the other
 * side has nothing but its king and queens, and none with bishops
 * alone when every bishop on the board stands on squares of one
 * colour and the board holds no pawn and no knight.  Anything else
 * counts as able to mate.
 */
CD_API bool cd_board_can_mate(const cd_board *b, int color);

/*
 * Why result r contradicts the Laws on b, the final position of a line
 * whose endings (cd_board_endings, repetitions counted) are endings:
 * "ends in checkmate" (scored as a draw or for the mated side), "ends
 * in stalemate", "ends in a dead position", "ends in a fivefold
 * repetition", "ends after 75 moves without a pawn move or capture"
 * (a decisive result: FIDE 5.1.1, 5.2.1, 5.2.2, 9.6), and with
 * CD_END_TIME_FORFEIT in endings, "ends on time with White unable to
 * checkmate" or "... Black ..." (a win on time for a side without
 * mating material, see cd_board_can_mate: a draw by 6.9; a win by
 * resignation is one, 5.1.2); NULL when r agrees (`*` and no result
 * always do).
 */
CD_API const char *cd_result_contradiction(const cd_board *b,
    unsigned endings, cd_pgn_result r);

#ifdef __cplusplus
}
#endif
#endif
