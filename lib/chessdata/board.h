/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chessdata/board.h: squares, pieces, packed moves, the board value,
 * legal move generation, making moves, attacks, position validity.
 *
 * A cd_board is a plain value: copy it to keep a position (copy-make).
 * Standard chess and Chess960 (castling rights are stored as the rook's
 * square, so any rook file works).
 */
#ifndef CHESSDATA_BOARD_H
#define CHESSDATA_BOARD_H

#include <chessdata/base.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t cd_bitboard;

/* Squares: a1 = 0, b1 = 1, ..., h8 = 63. */
enum {
	CD_A1 = 0, CD_B1, CD_C1, CD_D1, CD_E1, CD_F1, CD_G1, CD_H1,
	CD_A8 = 56, CD_H8 = 63,
	CD_SQ_NONE = 64
};
#define CD_SQ(file, rank)	((rank) * 8 + (file))
#define CD_FILE(sq)		((sq) & 7)
#define CD_RANK(sq)		((sq) >> 3)

enum { CD_WHITE = 0, CD_BLACK = 1 };

/* Piece types, and pieces = type | color << 3; 0 is "none". */
enum {
	CD_NO_TYPE = 0, CD_PAWN = 1, CD_KNIGHT = 2, CD_BISHOP = 3,
	CD_ROOK = 4, CD_QUEEN = 5, CD_KING = 6
};
#define CD_PIECE(color, type)	((uint8_t)((type) | ((color) << 3)))
#define CD_PIECE_TYPE(p)	((p) & 7)
#define CD_PIECE_COLOR(p)	((p) >> 3)

/*
 * A move in 16 bits: from (bits 0-5), to (6-11), kind (12-15).
 * Castling is encoded as the king "capturing" its own rook: to is the
 * rook's square, in standard chess and Chess960 alike.
 * CD_MOVE_NONE (0) is no move; CD_MOVE_NULL is the null move ("--").
 */
typedef uint16_t cd_move;

enum {
	CD_MK_NORMAL = 0,
	CD_MK_PROMO_N = 1, CD_MK_PROMO_B = 2, CD_MK_PROMO_R = 3,
	CD_MK_PROMO_Q = 4,
	CD_MK_EP = 5,
	CD_MK_CASTLE = 6,
	CD_MK_NULL = 7
};
#define CD_MOVE(from, to, kind) \
	((cd_move)((from) | ((to) << 6) | ((kind) << 12)))
#define CD_MOVE_FROM(m)		((m) & 63)
#define CD_MOVE_TO(m)		(((m) >> 6) & 63)
#define CD_MOVE_KIND(m)		((m) >> 12)
#define CD_MOVE_IS_PROMO(m)	(CD_MOVE_KIND(m) >= CD_MK_PROMO_N && \
				 CD_MOVE_KIND(m) <= CD_MK_PROMO_Q)
/* The piece type a promotion makes (CD_KNIGHT..CD_QUEEN). */
#define CD_MOVE_PROMO_TYPE(m)	(CD_MOVE_KIND(m) + 1)
#define CD_MOVE_NONE		((cd_move)0)
#define CD_MOVE_NULL		((cd_move)(CD_MK_NULL << 12))

/* Room enough for every legal move of any position (the maximum is 218). */
#define CD_MAX_MOVES 256

/* Castling sides, indexes of cd_board.castle_rook[color][side]. */
enum { CD_KINGSIDE = 0, CD_QUEENSIDE = 1 };

typedef struct cd_board {	/* ABI: value */
	cd_bitboard by_type[7];		/* [0] all pieces, [CD_PAWN..CD_KING] */
	cd_bitboard by_color[2];
	uint8_t squares[64];		/* piece on each square, 0 if empty */
	uint8_t side;			/* CD_WHITE or CD_BLACK to move */
	uint8_t ep;			/* en passant target square after any
					 * double push (standard 16.1.3.4),
					 * else CD_SQ_NONE */
	uint8_t castle_rook[2][2];	/* rook square per right, or CD_SQ_NONE */
	uint8_t chess960;		/* 1: Chess960 rules and notation */
	uint8_t ep_hashed CD_PRIVATE;	/* ep is part of key */
	uint32_t halfmove;		/* halfmove clock */
	uint32_t fullmove;		/* fullmove number, from 1 */
	uint64_t key;			/* Zobrist hash (ep only when an en
					 * passant capture is legal) */
} cd_board;

/* The standard initial position. */
CD_API void cd_board_init(cd_board *b);
/* An empty board, White to move, no rights, clocks 0 and 1. */
CD_API void cd_board_clear(cd_board *b);
/* Put or remove a piece (for building positions); call cd_board_finish
 * after editing so the hash and derived state are right. */
CD_API void cd_board_put(cd_board *b, int sq, int piece);
CD_API void cd_board_remove(cd_board *b, int sq);
CD_API void cd_board_finish(cd_board *b);
/* Whether an en passant capture is legal: the en passant square is set
 * and a pawn of the side to move may take there (the square is then
 * part of the key, and of the position for repetitions). */
CD_API bool cd_board_ep_legal(const cd_board *b);

/* The king square of a color, CD_SQ_NONE if it has none. */
CD_API int cd_board_king(const cd_board *b, int color);

/* Attacked squares and attackers. */
CD_API cd_bitboard cd_attackers(const cd_board *b, int sq, int by_color,
    cd_bitboard occupied);
CD_API bool cd_board_in_check(const cd_board *b);
CD_API cd_bitboard cd_board_checkers(const cd_board *b);

/* Leaper and slider attack sets, for callers that want them. */
CD_API cd_bitboard cd_attacks(int piece_type, int color, int sq,
    cd_bitboard occupied);

/* Legal moves: fills out[] (room for CD_MAX_MOVES), returns the count. */
CD_API int cd_board_legal_moves(const cd_board *b, cd_move *out);
/* Legal moves of one piece type to one square (to < 0: any square). */
CD_API int cd_board_legal_moves_to(const cd_board *b, int piece_type, int to,
    cd_move *out);
/* The number of legal moves, without listing them. */
CD_API int cd_board_count_moves(const cd_board *b);
CD_API bool cd_board_has_legal_move(const cd_board *b);
/* Whether m is a legal move here (any 16-bit value may be passed). */
CD_API bool cd_board_is_legal(const cd_board *b, cd_move m);

/* Make a legal move (or CD_MOVE_NULL) on b.  Copy b first to keep it. */
CD_API void cd_board_make(cd_board *b, cd_move m);

/* Leaf count to depth (perft).  depth 0 is 1. */
CD_API uint64_t cd_perft(const cd_board *b, int depth);

/* Whether a move captures (including en passant; castling does not). */
CD_API bool cd_board_is_capture(const cd_board *b, cd_move m);
/* The type of the piece a move moves. */
CD_API int cd_board_moving_type(const cd_board *b, cd_move m);
/* The square the king lands on / the rook lands on for a castling move. */
CD_API int cd_castle_king_to(cd_move m);
CD_API int cd_castle_rook_to(cd_move m);
/* Whether a castling move is kingside (rook file above the king's). */
CD_API bool cd_castle_is_kingside(cd_move m);

/* UCI-style coordinate text: "e2e4", "e7e8q"; castling as king-to-rook
 * in Chess960, king two squares otherwise.  buf needs 6 bytes. */
CD_API size_t cd_move_to_uci(const cd_board *b, cd_move m, char *buf);

/* Position validity: CD_POS_OK or the first rule broken. */
typedef enum cd_position_error {
	CD_POS_OK = 0,
	CD_POS_NO_WHITE_KING,
	CD_POS_NO_BLACK_KING,
	CD_POS_TOO_MANY_KINGS,
	CD_POS_PAWN_ON_BACK_RANK,
	CD_POS_TOO_MANY_PAWNS,
	CD_POS_TOO_MANY_PIECES,
	CD_POS_TOO_MANY_PROMOTED,
	CD_POS_OPPOSITE_CHECK,
	CD_POS_TOO_MANY_CHECKERS,
	CD_POS_IMPOSSIBLE_CHECK,
	CD_POS_BAD_CASTLING,
	CD_POS_BAD_EP,
	CD_POS_ERROR_COUNT
} cd_position_error;

CD_API cd_position_error cd_board_validate(const cd_board *b);
/* Only the rules that move generation needs, each checked whatever
 * else is wrong (cd_board_validate stops at the first broken rule):
 * one king of each color, the side not to move not in check, castling
 * rights that cd_board_validate accepts.  For positions no game
 * reaches, as perft suites hold. */
CD_API cd_position_error cd_board_validate_play(const cd_board *b);
/* "missing white king", ...: never NULL. */
CD_API const char *cd_position_strerror(cd_position_error e);

/* Checkmate, stalemate, a dead position by material: queries of one
 * position (chessdata/rules.h tells how a game stands, all endings
 * together). */
CD_API bool cd_board_is_checkmate(const cd_board *b);
CD_API bool cd_board_is_stalemate(const cd_board *b);
CD_API bool cd_board_insufficient_material(const cd_board *b);

#ifdef __cplusplus
}
#endif
#endif
