/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chessdata/select.h: the condition engine of pgn-select: conditions on
 * a game's tags, read from a raw game (no movetext parsed), and on its
 * moves, read from a parsed game (main-line length, positions and
 * material reached, the FIDE endings of the final position).
 *
 * A selector holds conditions added one by one, all of which must hold
 * (AND), but for the kinds said to join into one (any of them).  Text
 * forms (each a call of cd_select_add):
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
 * CD_SEL_RESULT "1-0,1/2-1/2": the game's result (cd_pgn_raw_result:
 *		the termination marker, else the Result tag, else `*`) is
 *		one of these results.
 * CD_SEL_WHERE	CD_SEL_TAG conditions joined by `and`, `or`, `not` and
 *		parentheses (not binds closest, then and, then or); NAME
 *		letters, digits and `_`; VALUE a word (up to a blank or a
 *		parenthesis) or a double-quoted string, where \" is a
 *		quote and \\ a backslash.
 * CD_SEL_WINNER, CD_SEL_LOSER
 *		a regular expression the player who won (lost) matches:
 *		White for 1-0, Black for 0-1 (the result as above); a draw
 *		or `*` fails.
 * CD_SEL_GAMES	"1-100,250,300-": game numbers and ranges (from 1, a
 *		range open at its end); join into one: any.  Matched by
 *		cd_select_match_number, not by cd_select_match_tags, in
 *		a time that grows with the logarithm of the number of
 *		ranges.  When an item does not read, err->offset is its
 *		byte offset in the text.
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
 *		may be left out, or given once each).  A `*` after a
 *		letter stands for any number of that piece, none too:
 *		"KRP*kr" is a rook and any pawns against a rook.  Then
 *		relations, ",R>r,L<l": White's count of a piece type
 *		(P N B R Q, L the knights and bishops) against Black's
 *		by <, > or = (the sides' letters in either order; with
 *		no letter before them, any pieces: ",L>l").  Last "@N"
 *		(N > 0): the material holds for N plies, from a position
 *		that has it through N half-moves more (pgn-extract's
 *		stability count).  Join into one: any of them.
 * CD_SEL_ENDS	"checkmate,threefold": the final position of the main
 *		line has one of these endings (the names of
 *		cd_ending_name; chessdata/rules.h says what each means).
 * CD_SEL_MOVES	"1. e4 c5 2. Nf3": the main line begins with these moves
 *		from the standard start (movetext as the parser reads it,
 *		in the language of cd_select_set_lang).  Join into one.
 * CD_SEL_PLACEMENT "r?????k?/8/8/8/8/8/8/8": the main line (its start
 *		included) reaches this piece placement (a FEN's first
 *		field), `?` a square of any content, either side to move.
 *		Join into one.
 * CD_SEL_OCCURS "check,underpromotion": one of these happens anywhere in
 *		the main line: threefold, fivefold (a position reached
 *		the third or fifth time, compared as for CD_END_THREEFOLD),
 *		fifty, seventyfive (the halfmove clock reaches 100 or
 *		150), check (a move gives check), underpromotion (to a
 *		knight, bishop or rook).
 * CD_SEL_WRONG_RESULT (text ignored) the game's result contradicts the
 *		Laws on the final position (cd_result_contradiction).
 *
 * A selector is read-only once built: several threads may match games
 * against one selector at once.
 */
#ifndef CHESSDATA_SELECT_H
#define CHESSDATA_SELECT_H

#include <chessdata/base.h>
#include <chessdata/pgn_read.h>
#include <chessdata/pgn.h>
#include <chessdata/san.h>

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
	CD_SEL_ENDS,
	CD_SEL_WHERE,		/* tags */
	CD_SEL_WINNER,
	CD_SEL_LOSER,
	CD_SEL_GAMES,		/* game numbers */
	CD_SEL_MOVES,		/* moves */
	CD_SEL_PLACEMENT,
	CD_SEL_OCCURS,
	CD_SEL_WRONG_RESULT
} cd_select_kind;

/* Selector flags. */
enum {
	CD_SELECT_ICASE = 1 << 0	/* regular expressions ignore the
					 * case of every letter, `=` and `!=`
					 * that of ASCII letters */
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

/* The piece letters CD_SEL_MOVES reads (NULL: English); set before
 * adding such a condition. */
CD_API void cd_select_set_lang(cd_select *s, const cd_san_lang *lang);

/* The i-th tag name that CD_SEL_TAG and CD_SEL_WHERE conditions name
 * (each once), NULL past the last. */
CD_API const char *cd_select_tag_name(const cd_select *s, size_t i);

/* Whether game number n (from 1) is one of CD_SEL_GAMES (true when
 * there is no such condition), and the last number listed (UINT64_MAX
 * when there is no end). */
CD_API bool cd_select_match_number(const cd_select *s, uint64_t n);
CD_API uint64_t cd_select_last_number(const cd_select *s);

/* Whether the first moves of raw's movetext (read token by token,
 * as far as needed) already differ from every CD_SEL_MOVES prefix: the
 * game fails cd_select_match_moves and need not be parsed.  False
 * whenever in doubt (no such condition, a FEN or Variant tag, a
 * movetext that ends or does not read before it is decided). */
CD_API bool cd_select_prefix_fails(const cd_select *s,
    const cd_pgn_raw_game *raw);

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
/* The same, and where it was decided: *ply the first ply of the main
 * line (0: its start, n: the position after its n-th half-move) by
 * which the conditions on positions (CD_SEL_POSITION, CD_SEL_MATERIAL,
 * CD_SEL_PLACEMENT, CD_SEL_OCCURS) have all held, each at some
 * position up to it (0 when there is none of them, and when the game
 * fails). */
CD_API bool cd_select_match_ply(const cd_select *s, const cd_game *g,
    uint32_t *ply);

#ifdef __cplusplus
}
#endif
#endif
