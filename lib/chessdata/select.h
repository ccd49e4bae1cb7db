/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chessdata/select.h: the condition engine of pgn-select: conditions on
 * a game's tags, read from a raw game (no movetext parsed), and on its
 * moves, read from a parsed game (main-line length, positions and
 * material reached, the FIDE endings of the final position).
 *
 * A selector holds conditions added one by one, all of which must hold
 * (AND).  Text forms (each a call of cd_select_add):
 *
 * CD_SEL_TAG	"NAME OP VALUE", spaces around OP optional; OP one of
 *		= != < <= > >= ~ !~ (~: POSIX extended regular
 *		expression, matched anywhere in the value).  Tags named
 *		Date or ending in "Date" compare in the collating order of
 *		chessdata/collate.h, a partial value standing for its
 *		whole span ("1990" and "1990.??.??" mean every day of
 *		1990: Date=1990 holds for 1990.05.01, Date<1990 for
 *		1989.12.31 only); Round compares by cd_collate_round.  For
 *		other tags two integers compare as numbers, and when VALUE
 *		is an integer and the tag's value is not ("?", "-": no
 *		rating), < <= > >= fail; anything else compares in byte
 *		order.  A missing tag fails every OP but != and !~.  The
 *		last tag of a name counts.
 * CD_SEL_PLAYER, CD_SEL_WHITE, CD_SEL_BLACK
 *		a regular expression the White or Black tag (either, for
 *		PLAYER) matches.
 * CD_SEL_ECO	"A00-B99,C42": ranges or single codes; the ECO tag's
 *		first three bytes (a letter A-E and two digits) fall in one.
 * CD_SEL_RESULT "1-0,1/2-1/2": the Result tag (the termination marker
 *		when there is no Result tag) is one of these results.
 * CD_SEL_PLIES	"MIN..MAX", either may be empty, or a single number: the
 *		main line has that many half-moves.
 * CD_SEL_POSITION a FEN (four fields or six): the main line (its start
 *		included) reaches this position: pieces, side to move,
 *		castling rights and en passant (counted only when the
 *		capture is legal, as in cd_board.key).  Found by hash key
 *		and confirmed by the board.  Repeated, the conditions of
 *		this kind join into one: any of the positions.
 * CD_SEL_MATERIAL "KRPkr": the main line reaches exactly this material
 *		(piece letters, White upper case, in any order; the kings
 *		may be left out).  A `*` after a letter allows any number
 *		more of that piece: "KRP*kr" is a rook and any pawns (none
 *		too) against a rook.
 * CD_SEL_ENDS	"checkmate,threefold": the final position of the main
 *		line has one of these endings (the names of
 *		cd_ending_name; chessdata/rules.h says what each means).
 *
 * A selector is read-only once built: several threads may match games
 * against one selector at once.
 */
#ifndef CHESSDATA_SELECT_H
#define CHESSDATA_SELECT_H

#include <chessdata/base.h>
#include <chessdata/pgn_lex.h>
#include <chessdata/pgn.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Kinds of condition. */
typedef enum cd_select_kind {
	CD_SEL_TAG = 0,
	CD_SEL_PLAYER,
	CD_SEL_WHITE,
	CD_SEL_BLACK,
	CD_SEL_ECO,
	CD_SEL_RESULT,
	CD_SEL_PLIES,		/* the first kind that needs the moves */
	CD_SEL_POSITION,
	CD_SEL_MATERIAL,
	CD_SEL_ENDS
} cd_select_kind;

/* Selector flags. */
enum {
	CD_SELECT_ICASE = 1 << 0	/* regular expressions and `=`, `!=`
					 * ignore case (ASCII letters) */
};

typedef struct cd_select cd_select;

/* A selector without conditions (every game is selected); NULL when
 * out of memory. */
CD_API cd_select *cd_select_new(unsigned flags);
CD_API void cd_select_free(cd_select *s);

/*
 * Add a condition of kind k given as text (see above).  CD_OK;
 * CD_ERR_SYNTAX with err (if not NULL) saying why when the text
 * does not read (a regular expression that does not compile, a bad FEN,
 * an unknown ending, ...); CD_ERR_ARG for an unknown kind;
 * CD_ERR_NOMEM.
 */
CD_API cd_status cd_select_add(cd_select *s, cd_select_kind k,
    const char *text, cd_error *err);

/* Whether some condition needs the moves (the game parsed). */
CD_API bool cd_select_needs_moves(const cd_select *s);
/* Whether some condition reads the tags. */
CD_API bool cd_select_has_tag_conditions(const cd_select *s);

/* Whether every condition on tags holds for raw (the movetext is not
 * read). */
CD_API bool cd_select_match_tags(const cd_select *s,
    const cd_pgn_raw_game *raw);

/* Whether every condition on moves holds for g (a parsed game; its
 * tags are not read).  CD_ERR_NOMEM is counted as not holding. */
CD_API bool cd_select_match_moves(const cd_select *s, const cd_game *g);

#ifdef __cplusplus
}
#endif
#endif
