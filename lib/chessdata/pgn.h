/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chessdata/pgn.h: the game model, the PGN parser and the PGN writer.
 *
 * A cd_game holds one game: its tags, its start position, its move tree
 * (main line and variations to any depth) with NAGs, comments and escape
 * lines, and its result.  Everything is stored in flat arrays that the
 * game owns and keeps from one game to the next: cd_game_clear() empties
 * a game without freeing, so reading a whole archive into one cd_game
 * allocates only while games grow beyond the largest seen so far.
 *
 * Building a game (the parser does exactly this, and so can any decoder):
 *
 *	cd_game_clear(g);
 *	cd_game_add_tag(g, "Event", 5, "x", 1);	   ... every tag
 *	cd_game_setup(g, &err);			   start position from the
 *						   Variant/SetUp/FEN tags
 *	cd_game_add_move(g, m);			   m legal in cd_game_board(g)
 *	cd_game_add_nag(g, 1);			   on the last move
 *	cd_game_add_comment(g, text, len);	   after the last move (or
 *						   before the next one at the
 *						   start of a line)
 *	cd_game_begin_variation(g);		   alternatives to the last move
 *	cd_game_add_move(g, m2);		   m2 legal where the last move
 *	cd_game_end_variation(g);		   was played
 *	cd_game_set_result(g, CD_PGN_RESULT_WHITE);
 *
 * The builder keeps a cursor (the current line, its last move and the
 * position after it) and a stack of open variations, on the heap, so no
 * depth of nesting can overflow anything.
 *
 * Walking a game: nodes[0] is the start position (no move).  A node's
 * `next` is the move that follows it in its line, so the main line is
 * nodes[0].next, nodes[that].next, ...  A node's `var` is the first
 * move of its first variation (an alternative to the node's move,
 * played from the same position, written after it in PGN); the next
 * variation of the same move starts at nodes[that].var_next, and so
 * on.  A variation's moves can have variations of their own.  Index 0
 * is never a move, so 0 means "none" in next, var and var_next.
 *
 * The main line, as pgn-select or pgn2json read it:
 *
 *	for (i = g->nodes[0].next; i != 0; i = g->nodes[i].next) {
 *		const cd_game_node *nd = &g->nodes[i];
 *		... nd->move, nd->san, nd->ply ...
 *		for (n = cd_game_nag_next(g, i, -1); n >= 0;
 *		    n = cd_game_nag_next(g, i, n))
 *			... $n ...
 *		for (k = nd->after; k != 0; k = g->notes[k].next)
 *			... cd_game_str(g, g->notes[k].text) ...
 *	}
 *
 * The tree is kept in the canonical layout of export-format.md rule
 * 11: a variation opened right after the first move of another
 * variation is stored as the next variation of the same move (so the
 * same move tree is the same cd_game whatever grouping the input
 * used).
 *
 * Ownership: every pointer a game hands out (tag names and values,
 * comment texts, the export tag list) stays valid until the next call
 * that changes the game.  The library never prints: the parser reports
 * errors in a cd_error and warnings through a callback.
 */
#ifndef CHESSDATA_PGN_H
#define CHESSDATA_PGN_H

#include <stdio.h>
#include <chessdata/base.h>
#include <chessdata/board.h>
#include <chessdata/san.h>
#include <chessdata/fen.h>
#include <chessdata/pgn_read.h>
#include <chessdata/rules.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- The game model ---- */

/* A tag pair.  name and value are offsets into the game's string store
 * (use cd_game_str()); both are NUL-terminated there.  The value has
 * had every control byte (tab, CR, LF, ... and DEL) turned into a space
 * (pgn(5), export format rule 4). */
typedef struct cd_game_tag {	/* ABI: element */
	size_t name, name_len;
	size_t value, value_len;
} cd_game_tag;

/* What a note is. */
enum {
	CD_NOTE_COMMENT = 0,	/* a comment, written { text } */
	CD_NOTE_ESCAPE = 1	/* a % escape line (not written in PGN;
				 * kept for PGC) */
};

/*
 * A comment or an escape line.  text is an offset into the string store
 * (NUL-terminated there).  A comment's text is already in export form:
 * white space and control bytes folded to single spaces, no leading or
 * trailing space, never empty, no `}` (see cd_game_add_comment); parsed
 * with CD_PGN_PARSE_COMMENTS_AS_WRITTEN, as written instead (trimmed,
 * CRLF made LF, never empty).  An
 * escape line's text is the line after its `%`, as it came (no line end).
 * next: the next note of the same place, 0 if none (notes[0] is unused).
 */
typedef struct cd_game_note {	/* ABI: element */
	size_t text, len;
	uint32_t next;
	uint8_t kind;		/* CD_NOTE_* */
} cd_game_note;

/* Node flags. */
enum {
	CD_NODE_CHECK = 1 << 0,	/* the move gives check (not mate) */
	CD_NODE_MATE = 1 << 1,	/* the move gives checkmate */
	CD_NODE_NAGS = 1 << 2,	/* NAGs after the move (in nodes[0]: before
				 * the first move of the game) */
	CD_NODE_NAGS_BEFORE = 1 << 3	/* NAGs before the move (the first
					 * move of a variation) */
};

/* A set of NAGs: bit n of bits[n / 64] for $n. */
typedef struct cd_game_nagset {	/* ABI: value */
	uint64_t bits[4];
} cd_game_nagset;

/*
 * One move of the tree (or, for nodes[0], the start position): 44
 * bytes.  NAGs live in the game's nagsets (read them with
 * cd_game_nag_next), notes in its notes.
 */
typedef struct cd_game_node {	/* ABI: element */
	cd_move move;		/* CD_MOVE_NONE in nodes[0]; CD_MOVE_NULL
				 * for a null move */
	uint8_t flags;		/* CD_NODE_* */
	uint8_t san_len;
	char san[8];		/* canonical SAN with its check or mate
				 * mark, NUL-terminated (at most 7 bytes:
				 * "Qa1xb2+", "exd8=Q#"; "--" for a null
				 * move); "" in nodes[0] */
	uint32_t ply;		/* plies from the start position: 0 for
				 * nodes[0], 1 for a first move */
	uint32_t parent;	/* the move is played from the position
				 * after node parent (the move before it
				 * in its line; for a variation's first
				 * move, the parent of the move it
				 * replaces); 0 for first moves */
	uint32_t next;		/* the move that follows in the line */
	uint32_t var;		/* first move of the first variation of
				 * this move */
	uint32_t var_next;	/* in a variation's first move: the first
				 * move of the next variation of the same
				 * move */
	uint32_t before;	/* notes standing before this move, between
				 * `(` and the move (first move of a
				 * variation only); 0 none */
	uint32_t after;		/* notes after this move (and its NAGs);
				 * in nodes[0]: the notes before the first
				 * move of the game (even with no moves) */
	uint32_t nags;		/* with CD_NODE_NAGS: nagsets[nags] holds
				 * the NAGs after the move; with
				 * CD_NODE_NAGS_BEFORE: nagsets[nags + 1]
				 * those before it.  Use cd_game_nag_next
				 * and cd_game_nag_before_next. */
} cd_game_node;

/*
 * A game.  Read the fields freely (priv is the library's); change it
 * only through the functions below.
 */
typedef struct cd_game {	/* ABI: handed */
	/* string store: tag names and values, note texts */
	char *str;
	size_t str_len;

	cd_game_tag *tags;	/* in the order added; names unique */
	size_t ntags;

	cd_game_node *nodes;	/* nodes[0] is the start position */
	uint32_t nnodes;

	cd_game_note *notes;	/* notes[0] unused */
	uint32_t nnotes;

	cd_game_nagset *nagsets;	/* nagsets[0] unused */
	uint32_t nnagsets;

	cd_board start;		/* the start position (after cd_game_setup) */
	bool has_fen;		/* a FEN tag gave the start position */
	bool chess960;		/* Variant names Chess960 */
	cd_pgn_result result;	/* the termination marker; NONE when
				 * there was none (the Result tag then
				 * decides, see cd_game_result) */

	/* The arrays' capacities, the builder's state. */
	struct cd__game_priv *priv CD_PRIVATE;

	/* Parsed with CD_PGN_PARSE_POSITIONS: the position after each
	 * node's move, positions[0] the start, one for each of the nnodes
	 * nodes; NULL otherwise, and once cd_game_add_move adds a move. */
	const cd_board *positions;
} cd_game;

/* A new empty game (no tags, standard start position, one node);
 * NULL when out of memory. */
CD_API cd_game *cd_game_new(void);
CD_API void cd_game_free(cd_game *g);

/* Empty the game for reuse (keeps its memory): no tags, the standard
 * initial position, no moves, no result. */
CD_API void cd_game_clear(cd_game *g);

/* The string at offset off of the game's store. */
static inline const char *
cd_game_str(const cd_game *g, size_t off)
{
	return g->str + off;
}

/* ---- Tags ---- */

/*
 * Set a tag: a new name is added at the end, a name already present
 * gets the new value (the last value wins, pgn(5) export rule 3).
 * Control bytes in the value become spaces.  Any name is accepted
 * (SetUp, FEN, Variant and Result too: see cd_game_setup and
 * cd_game_result for what they mean).  CD_OK or CD_ERR_NOMEM.
 */
CD_API cd_status cd_game_add_tag(cd_game *g, const char *name,
    size_t name_len, const char *value, size_t value_len);

/* Index of the tag named name (NUL-terminated), or -1. */
CD_API long cd_game_tag_find(const cd_game *g, const char *name);

/* The value of tag name (NUL-terminated), NULL if absent; *len (if not
 * NULL) gets its length. */
CD_API const char *cd_game_tag_value(const cd_game *g, const char *name,
    size_t *len);

/* Remove a tag by name; false if it was not there. */
CD_API bool cd_game_remove_tag(cd_game *g, const char *name);

/* Whether value names Chess960 (Chess960, Fischerandom, FRC, 960; case,
 * spaces, `-` and `_` do not matter). */
CD_API bool cd_pgn_variant_is_960(const char *value, size_t len);

/*
 * Set up the start position from the tags, after all tags were added
 * and before the first move: the Variant tag (absent, Standard, From
 * Position or a Chess960 alias; anything else is CD_ERR_UNSUPPORTED),
 * then the FEN tag when present (with or without SetUp; parsed with
 * Chess960 rules for a Chess960 game and validated: CD_ERR_SYNTAX or
 * CD_ERR_POSITION), else the standard initial position.  Sets start,
 * has_fen and chess960, and puts the builder's cursor at the start of
 * the main line.  On error err (if not NULL) gets the status and a
 * message (for a bad FEN, its column in the tag value) and the start
 * position is the standard one.
 */
CD_API cd_status cd_game_setup(cd_game *g, cd_error *err);

/* Set the start position directly (instead of a FEN tag): has_fen
 * becomes true, chess960 follows b->chess960.  Must come before the
 * first move.  The SetUp and FEN tags are written from it. */
CD_API cd_status cd_game_set_start(cd_game *g, const cd_board *b);

/* The result to write: the termination marker if there was one, else
 * the Result tag's value when it reads as one of the four (any form
 * cd_pgn_result_parse reads: "1/2" is a draw), else `*` (pgn(5),
 * export format rule 12); the same as cd_pgn_raw_result gives for the
 * raw game.  Never CD_PGN_RESULT_NONE. */
CD_API cd_pgn_result cd_game_result(const cd_game *g);

/* Set the termination marker (CD_PGN_RESULT_NONE: none). */
CD_API void cd_game_set_result(cd_game *g, cd_pgn_result r);

/* One tag of the export form: pointers valid until the game changes. */
typedef struct cd_game_xtag {	/* ABI: element */
	const char *name;
	size_t name_len;
	const char *value;
	size_t value_len;
} cd_game_xtag;

/* Writer and export-form flags. */
enum {
	CD_PGN_REDUCED = 1 << 0,	/* reduced export format (standard 3.2.4) */
	/* cd_game_export_tags for data: the SetUp tag a game has, with
	 * its value, even where the export form leaves it out or makes it
	 * "1" (a SetUp without a FEN tag) */
	CD_PGN_TAGS_SETUP_AS_READ = 1 << 1,
	/* the writer's rewrites of the movetext (what pgn-extract -C, -N,
	 * -V, --noresults and --nomovenumbers leave out) */
	CD_PGN_NO_COMMENTS = 1 << 2,	/* no comments */
	CD_PGN_NO_NAGS = 1 << 3,	/* no NAGs */
	CD_PGN_NO_VARIATIONS = 1 << 4,	/* the main line only */
	CD_PGN_NO_RESULT = 1 << 5,	/* no termination marker (the
					 * Result tag stays) */
	CD_PGN_NO_MOVE_NUMBERS = 1 << 6,	/* moves without numbers */
	/* the moves in another notation than SAN (pgn-extract -W):
	 * "e2e4" (-Wlalg), "e2-e4" (-Whalg), "Ng1f3" (-Welalg), UCI
	 * ("e7e8q", no check marks: -Wuci); promotions "e7e8Q", castling
	 * the king's move (onto the rook in Chess960), en passant "e5f6ep"
	 * in CD_PGN_ELAN */
	CD_PGN_LAN = 1 << 7,
	CD_PGN_HLAN = 2 << 7,
	CD_PGN_ELAN = 3 << 7,
	CD_PGN_UCI = 4 << 7,
	/* SAN with figurines, U+2654 .. U+2658 (the white ones) for K Q
	 * R B N, for people to read: not the export format (a figurine
	 * takes one column of the line) */
	CD_PGN_FIGURINE = 5 << 7,
	CD_PGN_NOTATION_MASK = 7 << 7
};
/* The movetext's longest line in the high sixteen bits of the flags,
 * CD_PGN_WIDTH(n) for n in 1 .. CD_PGN_WIDTH_MAX (pgn-extract -w); none
 * (0): the export format's 79. */
#define CD_PGN_WIDTH_SHIFT	16
#define CD_PGN_WIDTH_MAX	0xffffu
#define CD_PGN_WIDTH_MASK	(CD_PGN_WIDTH_MAX << CD_PGN_WIDTH_SHIFT)
#define CD_PGN_WIDTH(n)	\
	(((unsigned)(n) & CD_PGN_WIDTH_MAX) << CD_PGN_WIDTH_SHIFT)

/*
 * The tags as the export format writes them, in its order
 * (pgn(5), export format rules 1-5): the seven roster tags (missing ones
 * with `?` or `????.??.??`, Result from cd_game_result), then the other
 * tags in byte order of name, SetUp "1" and FEN (canonical, from the
 * start position) included when has_fen is set or the start position is
 * not the initial one.  With CD_PGN_REDUCED: the roster, SetUp/FEN only
 * when the start position is not the initial one, and Variant for a
 * Chess960 game.  With CD_PGN_TAGS_SETUP_AS_READ: a SetUp tag of the
 * game as it is (a value other than "1", or without a FEN tag).
 * Values are unescaped (the writer escapes `\` and `"`).
 * Into x (x->tags[0..x->n), valid until the game changes or x is used
 * again): CD_OK, or CD_ERR_NOMEM.  x starts as { 0 }, may be used for
 * any number of games, and is freed with cd_game_xtags_free.
 */
typedef struct cd_game_xtags {	/* ABI: reserved */
	cd_game_xtag *tags;
	size_t n;
	size_t cap CD_PRIVATE;
	char fen[CD_FEN_MAX] CD_PRIVATE;	/* the FEN tag's value */
	cd_game_xtag local[24] CD_PRIVATE;	/* tags while they fit (x
						 * is not to be copied) */
	CD_RESERVED(2);
} cd_game_xtags;
CD_API cd_status cd_game_export_tags(const cd_game *g, unsigned flags,
    cd_game_xtags *x);
CD_API void cd_game_xtags_free(cd_game_xtags *x);

/* ---- Moves, NAGs, notes: the builder ---- */

/* The position where the next cd_game_add_move is played. */
CD_API const cd_board *cd_game_board(const cd_game *g);

/* The last move of the current line (0 when the line has no move yet:
 * nodes[0] in the main line). */
CD_API uint32_t cd_game_cursor(const cd_game *g);

/*
 * Add move m, which must be legal in cd_game_board(g) (or CD_MOVE_NULL
 * when the side to move is not in check), after the last move of the
 * current line.  Computes its SAN and check/mate flags and moves the
 * cursor to it.  *node (if not NULL) gets its index.  CD_OK,
 * CD_ERR_ILLEGAL (m not legal: nothing added), CD_ERR_NOMEM.
 */
CD_API cd_status cd_game_add_move(cd_game *g, cd_move m, uint32_t *node);

/*
 * Add NAG n (0..255) where the cursor stands: to the last move of the
 * current line, or, when the line has no move yet, before its first
 * move (export-format.md rule 10; for the main line: in nodes[0]).
 * CD_ERR_RANGE for n out of range.
 */
CD_API cd_status cd_game_add_nag(cd_game *g, int n);

/*
 * Add a comment where the cursor stands: after the last move of the
 * current line (after its NAGs), or, when the line has no move yet,
 * before its first move (for the main line: in nodes[0].after).  The
 * text is folded: leading and trailing white space dropped, every run
 * of white space or control bytes made one space, and a `}` (possible in
 * a `;` comment) made a space; an empty result adds nothing.  *changed
 * (if not NULL) is set when a `}` had to be replaced.  CD_OK or
 * CD_ERR_NOMEM.
 */
CD_API cd_status cd_game_add_comment(cd_game *g, const char *text,
    size_t len, bool *changed);

/* Add an escape line (the text after `%`) where the cursor stands. */
CD_API cd_status cd_game_add_escape(cd_game *g, const char *text,
    size_t len);

/*
 * Open a variation: alternatives to the last move of the current line,
 * played from the position before it.  When the current line is a
 * variation whose only move so far is its first, the new variation is
 * an alternative to that same move and is stored as the next variation
 * of the move the current one replaces (export-format.md rule 11).  A
 * variation opened in a variation that has no move yet can hold only
 * comments and NAGs (cd_game_add_move then fails with CD_ERR_ARG).
 * CD_ERR_ARG when the main line has no move yet.
 */
CD_API cd_status cd_game_begin_variation(cd_game *g);

/*
 * Close the innermost variation and return to the line it branched
 * from.  A variation without a move is no variation: its comments,
 * escape lines and NAGs become those of the move it followed (or, in a
 * variation that has no move yet either, of what stands before that
 * variation's first move); *empty (if not NULL) is set then.
 * CD_ERR_ARG when no variation is open.
 */
CD_API cd_status cd_game_end_variation(cd_game *g, bool *empty);

/* How many variations are open. */
CD_API size_t cd_game_depth(const cd_game *g);

/* The position at the end of the main line (replays it). */
CD_API void cd_game_end_position(const cd_game *g, cd_board *out);
/* The FEN of that position into buf (room for CD_FEN_MAX), as
 * cd_fen_write; its length. */
CD_API size_t cd_game_end_fen(const cd_game *g, char *buf);

/*
 * Walking the main line through the rules (chessdata/rules.h): the one
 * replay of a game that every program uses, position by position.  A
 * value the caller owns; cd_game_walk_init before the first use,
 * cd_game_walk_free after the last (start may be called again and again
 * in between, reusing the memory):
 *
 *	cd_game_walk_start(&w, g, true);
 *	do {
 *		... w.rules.board: the position; w.node: the node of the
 *		... move that made it (0: the start); w.rules.plies
 *		... cd_game_walk_endings(&w)
 *	} while (cd_game_walk_next(&w));
 *
 * The next move, before it is played, is g->nodes[g->nodes[w.node].next]
 * (none when that index is 0).
 */
typedef struct cd_game_walk {	/* ABI: reserved */
	cd_rules rules;		/* the position reached (rules.board), the
				 * moves played (rules.plies), the
				 * positions since the last pawn move or
				 * capture */
	const cd_game *game;
	uint32_t node;		/* the node of the last move played, 0 at
				 * the start */
	bool track;		/* positions are kept for repetitions: as
				 * cd_game_walk_start was asked, until
				 * memory ran out */
	CD_RESERVED(2);
} cd_game_walk;

CD_API void cd_game_walk_init(cd_game_walk *w);
CD_API void cd_game_walk_free(cd_game_walk *w);
/* Start at g's start position; track: keep the positions for the
 * repetition endings. */
CD_API void cd_game_walk_start(cd_game_walk *w, const cd_game *g,
    bool track);
/* Play the next move of the main line; false at its end (nothing
 * changes). */
CD_API bool cd_game_walk_next(cd_game_walk *w);
/* The endings (chessdata/rules.h) of the position reached: with the
 * repetitions while positions are tracked, without them else. */
CD_API unsigned cd_game_walk_endings(const cd_game_walk *w);

/* The endings of the final position of g's main line (walks it; out
 * of memory counts no repetition). */
CD_API unsigned cd_game_endings(const cd_game *g);

/* Whether g's Termination tag says that the game was lost on time:
 * "time forfeit" (the standard's value, lichess's) or a value ending
 * in " on time" (chess.com's "Name won on time"), in any case.  For
 * cd_result_contradiction's CD_END_TIME_FORFEIT. */
CD_API bool cd_game_lost_on_time(const cd_game *g);

/* The NAGs of node i in ascending order (after its move; in nodes[0],
 * those before the first move of the game): the first NAG above
 * `after` (pass -1 to start), or -1 when there is none. */
CD_API int cd_game_nag_next(const cd_game *g, uint32_t i, int after);

/* The same for the NAGs that stand before node i's move (the first
 * move of a variation: `( $142 1... c5 )`). */
CD_API int cd_game_nag_before_next(const cd_game *g, uint32_t i,
    int after);

/* Whether a node has any NAG after its move. */
static inline bool
cd_game_node_has_nags(const cd_game_node *nd)
{
	return (nd->flags & CD_NODE_NAGS) != 0;
}

/* ---- Parsing ---- */

/* Parser flags. */
enum {
	/* reject a null move in the main line (it cannot be written in
	 * reduced form) */
	CD_PGN_PARSE_NO_NULL_MAIN = 1 << 0,
	/* reject every null move, in variations too (PGC cannot hold
	 * one) */
	CD_PGN_PARSE_NO_NULL = 1 << 1,
	/* keep the position after every move, variations included, in
	 * the game's positions (for a caller that visits each position:
	 * the parser makes them anyway, and a copy costs less than making
	 * the move again) */
	CD_PGN_PARSE_POSITIONS = 1 << 2,
	/* keep each comment's text as written, for data output (not for
	 * writing PGN): only trimmed at both ends and CRLF line ends made
	 * LF; white space, line ends and `}` stay (see cd_game_note) */
	CD_PGN_PARSE_COMMENTS_AS_WRITTEN = 1 << 3,
	/* keep the Zobrist key of the position after each main-line
	 * move, inside the game, for cd_openings_classify (which then
	 * makes the moves again only up to the position it finds): one
	 * 64-bit store a move */
	CD_PGN_PARSE_MAIN_KEYS = 1 << 4,
	/* a brace comment may hold others, `{ a { b } c }`, as
	 * CD_PGN_READ_NESTED_COMMENTS frames them: one comment, whose
	 * inner braces are kept as parentheses ("a ( b ) c"), since the
	 * export format cannot hold a `}` in a comment; a comment whose
	 * braces do not balance is read as usual */
	CD_PGN_PARSE_NESTED_COMMENTS = 1 << 5
};

typedef void cd_pgn_warn_fn(void *ctx, unsigned long line,
    unsigned long col, const char *msg);

typedef struct cd_pgn_parse_opts {	/* ABI: reserved */
	const cd_san_lang *lang;	/* NULL: English (and figurines) */
	unsigned flags;			/* CD_PGN_PARSE_* */
	/* Called for every normalization worth telling (duplicate tag,
	 * marker and Result tag disagreeing, missing marker, empty
	 * variation dropped, moves not in canonical SAN, ...); NULL to
	 * skip the work of finding them. */
	cd_pgn_warn_fn *warn;
	void *warn_ctx;		/* for warn and notice */
	/* Called, even when warn is NULL, for a change to a game that is
	 * kept and that a user must hear of (a FEN castling right the
	 * position cannot have, cleared); NULL: not told. */
	cd_pgn_warn_fn *notice;
	CD_RESERVED(4);
} cd_pgn_parse_opts;

/*
 * Parse one raw game (from cd_pgn_reader_next) into g (cleared first),
 * per the import format of pgn(5): tags, start position, every move checked
 * on the board, NAGs, comments, variations (an explicit stack: no
 * recursion), escape lines, the termination marker.  opts may be NULL.
 * CD_OK, or an error with err filled in (err may be NULL: the line,
 * column and byte offset in the input of the offending token, and a
 * message naming the move, e.g. "12... Nf6: illegal move"): CD_ERR_SYNTAX
 * (unreadable token, unbalanced parentheses, unclosed comment, bad tag),
 * CD_ERR_ILLEGAL, CD_ERR_AMBIGUOUS, CD_ERR_POSITION (bad FEN),
 * CD_ERR_UNSUPPORTED (variant), CD_ERR_NOMEM.  After an error g holds
 * what was read before it.
 */
CD_API cd_status cd_pgn_parse(cd_game *g, const cd_pgn_raw_game *raw,
    const cd_pgn_parse_opts *opts, cd_error *err);

/*
 * The next game of the reader r, parsed (cd_pgn_parse with default
 * options: English SAN, figurines read, no warnings): *g points to a
 * game the reader keeps until the next call or cd_pgn_reader_free.
 * CD_OK; CD_EOF at the end of input, and after a read error already
 * given; a game that does not read gives cd_pgn_parse's status (or
 * cd_pgn_raw_check's) with *g NULL and cd_pgn_reader_error saying where
 * and why, and the next call reads on with the game after it; an input
 * that cannot be read further gives CD_ERR_IO (or CD_ERR_NOMEM), its
 * message from cd_pgn_reader_error, and then CD_EOF.  So a loop
 * `while ((st = cd_pgn_reader_read(r, &g)) != CD_EOF)` sees every game
 * and every error once.  For other options, or the game's bytes, use
 * cd_pgn_reader_next and cd_pgn_parse.
 */
CD_API cd_status cd_pgn_reader_read(cd_pgn_reader *r, const cd_game **g);

/*
 * Whether a raw game reads as far as it can be read without its moves:
 * CD_OK; what cd_pgn_raw_check says of binary data or a game too large
 * (checked first, as cd_pgn_parse does); CD_ERR_SYNTAX for a tag pair
 * that does not read or a brace
 * comment never closed (where the reader could not tell the game's end
 * for sure), with the message and place cd_pgn_parse gives ("tag pair
 * that does not read: [White \"abc]", "brace comment never closed").
 * (pgn/parse.c: the parser's own reading of tags and comments.)  A
 * tool that reads the tags of games it does not parse calls it, so
 * that such a game is treated as the parser treats it; err (may be
 * NULL) gets the message and place.
 */
CD_API cd_status cd_pgn_raw_check_text(const cd_pgn_raw_game *g,
    cd_error *err);

/* Parse the first game of len bytes of PGN text (for tests and small
 * inputs).  CD_EOF when the text holds no game; CD_ERR_CORRUPT when it
 * holds none but binary data ("not PGN text: binary data (N bytes)"). */
CD_API cd_status cd_pgn_parse_text(cd_game *g, const char *text,
    size_t len, const cd_pgn_parse_opts *opts, cd_error *err);

/* ---- Writing ---- */

/* The former name of cd_buf (base.h) and of its cd_buf_free, kept for
 * callers written against it. */
typedef cd_buf cd_pgn_buf;
#define cd_pgn_buf_free(b)	cd_buf_free(b)

/*
 * Append the game in export format (pgn(5)), byte for
 * byte: tags, an empty line, the movetext filled to 79 columns (or
 * the width of CD_PGN_WIDTH(n): not the export format then), an
 * empty line.  flags: CD_PGN_REDUCED (which implies the next three),
 * CD_PGN_NO_COMMENTS, CD_PGN_NO_NAGS, CD_PGN_NO_VARIATIONS,
 * CD_PGN_NO_RESULT (the movetext ends at its last token; an empty one
 * keeps its marker),
 * CD_PGN_NO_MOVE_NUMBERS, and one of CD_PGN_LAN, CD_PGN_HLAN,
 * CD_PGN_ELAN, CD_PGN_UCI, CD_PGN_FIGURINE.  CD_OK; CD_ERR_UNSUPPORTED when
 * the reduced form is asked for and the main line holds a null move
 * (nothing is appended); CD_ERR_NOMEM.
 */
CD_API cd_status cd_pgn_write_buf(const cd_game *g, unsigned flags,
    cd_buf *out);

/* The same with the piece letters of lang (cd_san_lang_find, or six
 * letters of the caller's: its P is never written) in the SAN, for
 * people to read (pgn-extract -Wsan with letters): not the export
 * format; lang NULL, or a notation other than SAN in the flags: as
 * cd_pgn_write_buf. */
CD_API cd_status cd_pgn_write_buf_lang(const cd_game *g, unsigned flags,
    const cd_san_lang *lang, cd_buf *out);

/* The same to a stdio stream (one fwrite).  CD_ERR_IO on a write
 * error. */
CD_API cd_status cd_pgn_write(const cd_game *g, unsigned flags, FILE *f);

#ifdef __cplusplus
}
#endif
#endif
