/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chessdata/polyglot.h: Polyglot opening books: the key of a position,
 * the moves of a book, reading a book and making one as
 * `polyglot make-book` makes it.
 *
 * A book is a file of 16-byte entries, big-endian: the key of a
 * position (8 bytes), a move (2), a weight (2) and a learn field (4),
 * sorted by key.  The key is Polyglot's own Zobrist hash, from its
 * published table of 781 numbers: 768 for a piece on a square, 4 for
 * the castling rights (White short, White long, Black short, Black
 * long), 8 for the file of an en passant square and one for White to
 * move.  The en passant file counts only when a pawn of the side to
 * move stands beside the pawn that was pushed two squares (Polyglot's
 * rule: whether the capture would leave its king in check does not
 * matter); the castling rights are those of the position, whatever
 * file its rooks stand on.
 *
 * A move: bits 0-5 the square it goes to (a1 = 0, b1 = 1, ..., h8 =
 * 63), bits 6-11 the square it comes from, bits 12-14 the piece a
 * promotion makes (1 knight, 2 bishop, 3 rook, 4 queen); castling is
 * the king "taking" its own rook (e1h1, e1a1), as cd_move has it.
 */
#ifndef CHESSDATA_POLYGLOT_H
#define CHESSDATA_POLYGLOT_H

#include <chessdata/base.h>
#include <chessdata/board.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The Polyglot key of position b. */
CD_API uint64_t cd_polyglot_key(const cd_board *b);

/* A move of b as a book holds it (castling as the king to its rook). */
CD_API uint16_t cd_polyglot_move(cd_move m);
/* The legal move of b that book move pm names, or CD_MOVE_NONE (a
 * move that is not legal there: a book entry of another position with
 * the same key, or damage).  Castling is read as the king to its rook,
 * and also as e1g1, e1c1, e8g8, e8c8 (as some books write it) when the
 * king stands on e1 or e8 and may castle that way. */
CD_API cd_move cd_polyglot_move_legal(const cd_board *b, uint16_t pm);

/* One entry of a book. */
typedef struct cd_polyglot_entry {	/* ABI: value */
	uint64_t key;
	uint16_t move;
	uint16_t weight;
	uint32_t learn;
} cd_polyglot_entry;

/* The 16 bytes of an entry, and back. */
CD_API void cd_polyglot_entry_pack(const cd_polyglot_entry *e,
    unsigned char out[16]);
CD_API void cd_polyglot_entry_unpack(const unsigned char in[16],
    cd_polyglot_entry *e);

/*
 * The entries of key in a book of len bytes in memory (a whole book
 * file; a last partial entry is ignored): found by binary search, they
 * are at entries [*first, *first + count) of the book, in the book's
 * order; count is returned (0: none).
 */
CD_API size_t cd_polyglot_find(const unsigned char *book, size_t len,
    uint64_t key, size_t *first);

/*
 * Making a book as `polyglot make-book` (PolyGlot 2.0.4) makes it.  Add
 * each game's moves in the order of the games and of their plies
 * (the first max_ply of each): for each, the position's Polyglot key,
 * the move, the side to move and the game's result for that side
 * (+1 a win, -1 a loss, 0 anything else: make-book reads the Result
 * tag, and a game without "1-0" or "0-1" there counts as a draw).  A
 * (key, move) pair counts n, the times it was played, and sum, two a
 * win and one a draw; when n reaches 16384 the counts of every move of
 * that key are halved (rounded up).  cd_polyglot_maker_write appends
 * the book: the entries played at least min_game times, with a score
 * (sum / n / 2) of at least min_score and a sum above 0, of the
 * sides not left out, sorted by key, then by weight (sum, or 1 with
 * uniform) from the highest, then in the order they were first played;
 * learn 0.
 */
typedef struct cd_polyglot_maker cd_polyglot_maker;

typedef struct cd_polyglot_make_opts {	/* ABI: reserved */
	unsigned min_game;	/* make-book's -min-game (default 3) */
	double min_score;	/* -min-score / 100 (default 0) */
	bool no_white;		/* -only-black: no White moves */
	bool no_black;		/* -only-white: no Black moves */
	bool uniform;		/* -uniform: every weight 1 */
	CD_RESERVED(4);
} cd_polyglot_make_opts;

/* NULL when out of memory. */
CD_API cd_polyglot_maker *cd_polyglot_maker_new(void);
CD_API void cd_polyglot_maker_free(cd_polyglot_maker *mk);
/* CD_OK or CD_ERR_NOMEM. */
CD_API cd_status cd_polyglot_maker_add(cd_polyglot_maker *mk, uint64_t key,
    uint16_t move, int side, int result);
/* The number of (key, move) pairs added so far. */
CD_API size_t cd_polyglot_maker_count(const cd_polyglot_maker *mk);
/* Append the book to out: CD_OK or CD_ERR_NOMEM. */
CD_API cd_status cd_polyglot_maker_write(const cd_polyglot_maker *mk,
    const cd_polyglot_make_opts *o, cd_buf *out);

#ifdef __cplusplus
}
#endif
#endif
