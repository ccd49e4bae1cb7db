/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chessdata/san.h: Standard Algebraic Notation (standard 8.2.3).
 *
 * Writing gives canonical SAN.  Reading is strict (the exact canonical
 * form) or lenient per the import format of pgn(5): every accepted form has one
 * meaning, and a form with two meanings is an error.
 */
#ifndef CHESSDATA_SAN_H
#define CHESSDATA_SAN_H

#include <chessdata/board.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Longest SAN written ("Qa6xb7#", "fxg1=Q+"; "O-O-O+"), with NUL. */
#define CD_SAN_MAX 10

/* Write the canonical SAN of the legal move m into buf; returns the
 * length.  Check and mate marks are computed by making the move. */
CD_API size_t cd_san_write(const cd_board *b, cd_move m, char *buf);
/* The same without the check/mate mark (no move is made). */
CD_API size_t cd_san_write_bare(const cd_board *b, cd_move m, char *buf);

/* Piece letters of a language, for reading: six letters for
 * P N B R Q K in that order. */
typedef struct cd_san_lang {	/* ABI: value */
	char letters[6];
} cd_san_lang;

/* The standard's section 17 languages by name ("de", "German", ...);
 * NULL if unknown. */
CD_API const cd_san_lang *cd_san_lang_find(const char *name);

enum {
	CD_SAN_STRICT = 1 << 0	/* only the exact canonical SAN, marks too */
};

/*
 * Read one move token of len bytes in position b.  lang NULL means
 * English (plus figurines).  On success *out gets the move.  On error a
 * negative status (CD_ERR_SYNTAX, CD_ERR_ILLEGAL, CD_ERR_AMBIGUOUS) and
 * err (if not NULL) its message (offset, line and column 0: a token
 * has one place, the caller's).  Null moves ("--", "Z0", "0000",
 * "@@@@") give CD_MOVE_NULL.  Suffix annotations (!, ?) must be split
 * off by the caller.
 */
CD_API cd_status cd_san_parse(const cd_board *b, const char *text,
    size_t len, const cd_san_lang *lang, unsigned flags, cd_move *out,
    cd_error *err);

#ifdef __cplusplus
}
#endif
#endif
