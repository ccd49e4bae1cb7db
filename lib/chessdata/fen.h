/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chessdata/fen.h: Forsyth-Edwards Notation (standard 16.1), with X-FEN
 * (KQkq) and Shredder-FEN (HAha) castling fields for Chess960.
 */
#ifndef CHESSDATA_FEN_H
#define CHESSDATA_FEN_H

#include <chessdata/board.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Longest FEN cd_fen_write produces, with the final NUL. */
#define CD_FEN_MAX 128

enum {
	CD_FEN_STRICT = 1 << 0,	/* exactly six fields, single spaces */
	CD_FEN_960 = 1 << 1,	/* Chess960: KQkq mean the outermost rooks */
	CD_FEN_NO_VALIDATE = 1 << 2,	/* skip cd_board_validate */
	CD_FEN_DETECT_960 = 1 << 3,	/* Chess960 when the rights need it */
	CD_FEN_CLEAR_CASTLING = 1 << 4	/* clear impossible castling rights
					 * (see cd_fen_parse_clearing) */
};

/*
 * Parse len bytes of FEN into b.  Lenient by default: leading and
 * trailing white space, runs of spaces, missing clocks (0 and 1), and
 * EPD's four fields.  With CD_FEN_960 the board follows Chess960 rules:
 * castling rights may name any rook, as X-FEN (KQkq: the outermost rook
 * of that side) or Shredder-FEN (HAha: the rook's file).  Without it the
 * rights must be those of standard chess (king on e1/e8, rooks on the a
 * and h files), though file letters are accepted for them, unless
 * CD_FEN_DETECT_960 is given: then rights that only Chess960 allows make
 * the board a Chess960 board.  On error
 * returns a negative status and fills err (if not NULL): the message,
 * the column (from 1) where the problem was found and its offset in
 * text, line 1 (a position found impossible by validation: column 1).
 * The position is validated (cd_board_validate) unless
 * CD_FEN_NO_VALIDATE is given; then only what cannot be represented is
 * an error.
 */
CD_API cd_status cd_fen_parse(cd_board *b, const char *text, size_t len,
    unsigned flags, cd_error *err);

/*
 * Check the castling field (field, len bytes: "KQkq", "HAha", "-") of
 * a FEN that parsed into b for what cd_fen_parse lets pass: a letter
 * given twice ("KK"), and, when the field uses only the letters K Q k q
 * (no file letters, which only Chess960 needs), a right whose king is
 * not on e1 or e8: in standard chess such a right cannot exist, and
 * reading it as Chess960 X-FEN would change what O-O means.  CD_OK
 * when the field is fine, else CD_ERR_POSITION with *err (when not
 * NULL) saying why, its column counted in the field.  For EPD and PGN
 * FEN tags alike.
 */
CD_API cd_status cd_fen_castling_check(const char *field, size_t len,
    const cd_board *b, cd_error *err);

/*
 * cd_fen_parse, except that a castling right the position cannot have
 * is cleared instead of making the FEN an error (import-format.md): in
 * standard chess a right needs the king on e1 (e8) and the rook in the
 * corner of its side; in Chess960 the king on its first rank and the
 * rook the letter names (KQkq: a rook on that side of the king).  The
 * letters cleared, as written in the castling field, go to cleared (if
 * not NULL: room for 9 bytes; NUL-terminated, at most 8 kept).  Every
 * other fault is still an error; so is the position once the rights
 * are cleared (cd_board_validate), reported in *err as by cd_fen_parse.
 * The standard-chess test is that of cd_fen_castling_check, which
 * reports the same rights as errors instead.  For the PGN FEN tag.
 */
CD_API cd_status cd_fen_parse_clearing(cd_board *b, const char *text,
    size_t len, unsigned flags, char *cleared, cd_error *err);

/* The warning for a right cd_fen_parse_clearing cleared, in the words
 * of import-format.md: "FEN castling right 'K' without the king and the
 * rook on e1 and h1: cleared".  Written into buf (cap bytes, NUL
 * included, truncated to fit); returns the length it needed. */
CD_API size_t cd_fen_cleared_message(int letter, bool chess960, char *buf,
    size_t cap);

/* Write the six-field FEN of b into buf (room for CD_FEN_MAX); returns
 * its length.  Chess960 castling in X-FEN style. */
CD_API size_t cd_fen_write(const cd_board *b, char *buf);

/* Only the four EPD fields (no clocks).  A Chess960 castling right that
 * standard chess cannot have is written with its rook's file
 * (Shredder-FEN), since EPD readers take KQkq as standard chess
 * (cd_fen_castling_check). */
CD_API size_t cd_fen_write_epd(const cd_board *b, char *buf);

/* Whether b is the standard initial position (all six fields). */
CD_API bool cd_board_is_initial(const cd_board *b);

#ifdef __cplusplus
}
#endif
#endif
