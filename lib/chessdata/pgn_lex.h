/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chessdata/pgn_lex.h: the tokens of one PGN game, without chess
 * knowledge (the import format of pgn(5)).
 *
 * cd_pgn_lexer cuts one game's bytes (in memory) into tokens: tags,
 * move numbers, moves, suffix annotations, NAGs, evaluation symbols,
 * comments, variations, escape lines, termination markers, and an
 * error token for bytes that mean nothing.  No allocation per token.
 * The games themselves come from a reader (chessdata/pgn_read.h),
 * which reads tag pairs as the lexer does (see there).
 */
#ifndef CHESSDATA_PGN_LEX_H
#define CHESSDATA_PGN_LEX_H

#include <stdio.h>
#include <chessdata/base.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Game termination markers. */
typedef enum cd_pgn_result {
	CD_PGN_RESULT_NONE = 0,	/* no marker */
	CD_PGN_RESULT_WHITE,	/* 1-0 */
	CD_PGN_RESULT_BLACK,	/* 0-1 */
	CD_PGN_RESULT_DRAW,	/* 1/2-1/2 (also 1/2, ½-½, ½) */
	CD_PGN_RESULT_UNKNOWN	/* * */
} cd_pgn_result;

/* The canonical text of a result: "1-0", "0-1", "1/2-1/2", "*", or ""
 * for CD_PGN_RESULT_NONE. */
CD_API const char *cd_pgn_result_str(cd_pgn_result r);

/*
 * The result named by a word: the four standard markers, with en dash,
 * em dash or U+2212 minus for `-`, `½` for `1/2`, and `1/2` or `½`
 * alone.  CD_PGN_RESULT_NONE if the word is none of them.  Used for
 * termination markers and for Result tag values.
 */
CD_API cd_pgn_result cd_pgn_result_parse(const char *s, size_t len);

typedef enum cd_pgn_tok_type {
	CD_PGN_TOK_END = 0,	/* end of the text */
	CD_PGN_TOK_TAG,		/* a tag pair: name, value (raw) */
	CD_PGN_TOK_MOVENUM,	/* "12", "12.", "12...", or periods alone */
	CD_PGN_TOK_MOVE,	/* a SAN-like word: move, castling, null move */
	CD_PGN_TOK_SUFFIX,	/* ! ? !! ?? !? ?!  (num: NAG 1..6) */
	CD_PGN_TOK_NAG,		/* $n  (num: n) */
	CD_PGN_TOK_EVAL,	/* a standalone evaluation symbol (num: NAG) */
	CD_PGN_TOK_EP,		/* "e.p." or "ep" standing alone */
	CD_PGN_TOK_RESULT,	/* termination marker (num: cd_pgn_result) */
	CD_PGN_TOK_COMMENT,	/* { ... }: text is the inside */
	CD_PGN_TOK_LINE_COMMENT,	/* ; to the end of the line */
	CD_PGN_TOK_ESCAPE,	/* % in column one to the end of the line */
	CD_PGN_TOK_RAV_OPEN,	/* ( */
	CD_PGN_TOK_RAV_CLOSE,	/* ) */
	CD_PGN_TOK_STRING,	/* a quoted string outside a tag pair */
	CD_PGN_TOK_ERROR	/* a byte (or UTF-8 character) with no meaning,
				 * or a tag pair that does not read */
} cd_pgn_tok_type;

/* Token flags. */
enum {
	CD_PGN_TOKF_UNCLOSED = 1 << 0,	/* comment or string not closed */
	CD_PGN_TOKF_ESCAPES = 1 << 1,	/* TAG: value has \" \\ escapes */
	CD_PGN_TOKF_NULLMOVE = 1 << 2,	/* MOVE: --, Z0, 0000, @@@@ */
	CD_PGN_TOKF_CASTLING = 1 << 3	/* MOVE: O-O/0-0/o-o forms */
};

typedef struct cd_pgn_token {
	cd_pgn_tok_type type;
	unsigned flags;		/* CD_PGN_TOKF_* */
	/* The whole token as it stands in the text. */
	const char *raw;
	size_t raw_len;
	/* Its payload: the move word (suffix split off), the comment or
	 * string inside its delimiters, the escape or `;` line after its
	 * first byte (without the line end, a final CR dropped), the tag
	 * NAME; else the same as raw. */
	const char *text;
	size_t len;
	/* TAG: the value between its quotes, escapes not undone (see
	 * cd_pgn_tag_value). */
	const char *value;
	size_t value_len;
	/* MOVENUM: the number (-1 for periods alone), NAG/EVAL/SUFFIX: the
	 * NAG, RESULT: a cd_pgn_result; else 0. */
	long num;
	unsigned dots;		/* MOVENUM: number of periods */
	unsigned long line, col;	/* of raw[0], from 1; col in bytes */
} cd_pgn_token;

/*
 * The lexer: a small value the caller owns, so that lexing allocates
 * nothing.  Its fields are private (CD_PRIVATE: a program that names
 * one gets a warning): a program sets them with cd_pgn_lex_init and
 * moves them with cd_pgn_lex_next only.  They stay in the header so
 * that the value can live on the caller's stack, and so that the
 * library's parser can take the bulk of movetext through the lexer's
 * own inline fast path, without a call a token.
 */
typedef struct cd_pgn_lexer {
	const char *p CD_PRIVATE, *end CD_PRIVATE;
	const char *line_start CD_PRIVATE;
	unsigned long line CD_PRIVATE;
	unsigned long col0 CD_PRIVATE;	/* column of line_start (for a
					 * start in mid line) */
} cd_pgn_lexer;

/* Start lexing len bytes at text, whose first byte is at line, col
 * (both from 1; pass the raw game's line/col or movetext_line/col). */
CD_API void cd_pgn_lex_init(cd_pgn_lexer *lx, const char *text,
    size_t len, unsigned long line, unsigned long col);

/* The next token into *t (CD_PGN_TOK_END at the end, again and again).
 * Returns t->type. */
CD_API cd_pgn_tok_type cd_pgn_lex_next(cd_pgn_lexer *lx, cd_pgn_token *t);

/* The unescaped value of a TAG token into out (room for t->value_len
 * bytes + NUL); returns its length. */
CD_API size_t cd_pgn_tag_value(const cd_pgn_token *t, char *out);

/* A short name of a token type ("move", "comment", ...). */
CD_API const char *cd_pgn_tok_name(cd_pgn_tok_type type);

#ifdef __cplusplus
}
#endif
#endif
