/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn_internal.h: the private part of a cd_game and the game builder's
 * inner calls (pgn/game.c, pgn/tags.c, pgn/tree.c), not exported.  Its
 * users: pgn/parse.c, pgn/tree.c, pgn/write.c, pgc.c and opening.c
 * (which build games).  The other private headers of lib/pgn stand
 * apart and below it: bytes.h (byte classes), lex.h (the lexer's),
 * fold.h (comment folding), reader.h (the reader and its framer).
 */
#ifndef CHESSDATA_PGN_INTERNAL_H
#define CHESSDATA_PGN_INTERNAL_H

#include <stddef.h>

#include "common/internal.h"

/* The state of one line while it is being built. */
struct cd__line {
	uint32_t cur;		/* its last move (valid when has_move) */
	uint32_t base;		/* its first move is played after base */
	uint32_t var_of;	/* the move it is a variation of (0: main) */
	uint32_t pending;	/* notes before its first move (variations) */
	uint32_t pending_nags;	/* NAGs before its first move: a pair of
				 * nagsets (the second holds them); 0 none */
	uint32_t owner;		/* variations: the stack index of the line
				 * whose last move is var_of */
	uint32_t vtail;		/* the last variation of cur so far */
	bool has_move;
	bool check;		/* the side to move in board is in check */
	bool prev_check;	/* the same in prev */
	bool flat;		/* opened right after the first move of a
				 * variation: a next variation of var_of
				 * (export-format.md rule 11) */
	bool anchorless;	/* opened in a variation with no move yet:
				 * can hold only comments and NAGs */
	bool prev_stale;	/* prev is not kept: set by the parser
				 * when the movetext begins (most games
				 * have no variation); the first variation
				 * begun makes it again from the main line */
	bool keyless;		/* board.key and board.ep_hashed are not
				 * kept (set by the parser in the main
				 * line of a game that keeps no key or
				 * position): cd__line_keyed makes them
				 * again */
	unsigned long line, col;	/* where its `(` stood (parser) */
	cd_bitboard pins;	/* the pieces of board's side to move
				 * pinned to its king: made again with
				 * every change of board */
	cd_board board;		/* position after cur (or at base) */
	cd_board prev;		/* position before cur */
};

/* A position packed for the builder's stack: 56 bytes instead of a
 * cd_board's 160 (pgn/tree.c). */
struct cd__pboard {
	uint8_t sq[32];		/* a piece per nibble, a1 first */
	uint8_t side, ep, castle[4], chess960, ep_hashed;
	uint32_t halfmove, fullmove;
	uint64_t key;
};

/* A line on the builder's stack, waiting for its variation to close:
 * the cd__line without its boards, which are rebuilt from a packed
 * one (its own, or for a flat line the owner's) and the move cur. */
struct cd__frame {
	uint32_t cur, base, var_of, pending, pending_nags, owner, vtail;
	uint32_t pb;		/* index of its packed board (not flat) */
	uint32_t line, col;	/* (saturated) */
	uint8_t flags;		/* FR_* of pgn/tree.c */
};

/* The tags the library looks up itself (priv->known), the roster first
 * in its order. */
enum {
	KT_EVENT, KT_SITE, KT_DATE, KT_ROUND, KT_WHITE, KT_BLACK, KT_RESULT,
	KT_SETUP, KT_FEN, KT_VARIANT, KT_N
};

struct cd__game_priv {
	/* the capacities of the game's arrays */
	size_t str_cap, tags_cap;
	uint32_t nodes_cap, notes_cap, nagsets_cap;

	cd_board initial;	/* the standard initial position */

	struct cd__line line;	/* the current line */
	struct cd__frame *stack;	/* the lines it branched from */
	size_t depth, stack_cap;
	struct cd__pboard *pboards;	/* their packed positions */
	size_t npboards, pboards_cap;

	/* g->positions when kept (CD_PGN_PARSE_POSITIONS), and its
	 * capacity */
	cd_board *positions;
	uint32_t positions_cap;

	/* what the parser keeps after each move (KEEP_*): tested once a
	 * move, 0 in most games */
	uint8_t keep;
	/* CD_PGN_PARSE_MAIN_KEYS: keys[k] the key of the position after
	 * main-line move k + 1, up to key_next; room up to key_end;
	 * keys_ok while they are the whole main line's (a move added but
	 * by the parser, a new start or out of memory clears it) */
	bool keys_ok;
	uint64_t *keys, *key_next, *key_end;

	/* castling rights cd_game_setup cleared from the FEN tag */
	char fen_cleared[9];

	/* the last note appended, to append the next in O(1) */
	uint64_t tail_key;
	uint32_t tail;

	/* the tags the library looks up itself, by KT_* of pgn/game.c (the
	 * roster in its order, SetUp, FEN, Variant): tag index + 1, 0
	 * when absent */
	uint32_t known[10];
	size_t nknown;		/* how many of them are there */
	/* a tag value holds `\` or `"` (or did: not cleared when a tag
	 * goes) */
	bool tag_quotes;

	/* an index of tag names once a game has many tags (open
	 * addressing; slots hold tag index + 1; tags[0..tag_hashed) are
	 * in it) */
	uint32_t *tag_hash;
	size_t tag_hash_cap, tag_hashed;

	/* The tags as the last block the reader gave (pgn/tags.c): while
	 * tags_gen is not 0, the game's tags (or none, after a clear) are
	 * that block's; it becomes 0 when a tag is added or removed.  It
	 * is 1 until the block is read again (tb_again), then a number no
	 * other block of any game had.  The block (at the start of str) as
	 * its length << 8 | its count, and the known[], nknown and
	 * tag_quotes it gave, set back when the next game's block is the
	 * same bytes.  tb_misses: blocks in a row not read again (after
	 * sixteen, one in sixteen is kept). */
	uint64_t tags_gen, tb_key;
	uint32_t tb_known[10], tb_nknown, tb_misses;
	bool tb_quotes, tb_again;
};

/* known[] of a game whose first seven tags are the roster in its
 * order (as most games begin). */
static const uint32_t cd__roster_known[KT_RESULT + 1] = {
	1, 2, 3, 4, 5, 6, 7
};

/* Whether p's game begins with the roster's seven tags in its order:
 * its tag i (KT_EVENT .. KT_RESULT) is then known[i] - 1 = i. */
static inline bool
cd__roster_first(const struct cd__game_priv *p)
{
	return memcmp(p->known, cd__roster_known,
	    sizeof(cd__roster_known)) == 0;
}

/* cd_game_clear in two parts: the first empties all but the start
 * position and the current line, which cd_game_setup makes after the
 * tags (or the second part, as cd_game_clear does). */
/* The value of the known tag k (KT_*), NULL if absent; its length in
 * *len. */
static inline const char *
cd__game_known_value(const cd_game *g, int k, size_t *len)
{
	uint32_t i = g->priv->known[k];

	if (i == 0)
		return NULL;
	*len = g->tags[i - 1].value_len;
	return g->str + g->tags[i - 1].value;
}

/* pgn/tags.c: forget the index of the tags (they were cleared or
 * moved). */
void cd__game_tag_index_drop(cd_game *g);

/* pgn/game.c: the line's check and pins found for its board, after a
 * change of the board other than a move. */
void cd__line_check_pins(struct cd__line *l);

/* The line made again at the start position, no variation open. */
static inline void
cd__line_reset(cd_game *g)
{
	struct cd__game_priv *p = g->priv;

	/* (prev is written before it is read: with the line's first
	 * move) */
	memset(&p->line, 0, offsetof(struct cd__line, board));
	p->line.board = g->start;
	p->depth = 0;
	p->npboards = 0;
	p->tail_key = UINT64_MAX;
	/* without a FEN tag the start is the initial position: not in
	 * check and no piece pinned (check and pins 0 from the memset) */
	if (g->has_fen)
		cd__line_check_pins(&p->line);
}

/* The line's key and en passant mark made again where they were not
 * kept (keyless), and kept from then on. */
static inline void
cd__line_keyed(struct cd__line *l)
{
	if (l->keyless) {
		cd_board_finish(&l->board);
		l->keyless = false;
	}
}

/*
 * cd_game_clear in two: the start, which after a game without a FEN
 * tag also makes the line for the initial position (kept by a game
 * without a FEN or Variant tag), and the end (pgn/game.c).  The start
 * is cd_game_clear but for the start position and the line, which
 * cd_game_setup (or cd__game_clear_end) makes next; after a game
 * without a FEN tag (the start the initial position) they are made
 * for the initial position, not chess960, which a game without a FEN
 * or Variant tag keeps (cd__game_setup need not be called).  Inline:
 * the parser clears once a game, and a game of an opening book is a
 * few moves.
 */
static inline void
cd__game_clear_start(cd_game *g)
{
	struct cd__game_priv *p = g->priv;

	g->str_len = 0;
	g->ntags = 0;
	memset(p->known, 0, sizeof(p->known));
	p->nknown = 0;
	p->tag_quotes = false;
	if (p->tag_hashed > 0)	/* (a game of many tags before) */
		cd__game_tag_index_drop(g);
	memset(&g->nodes[0], 0, sizeof(g->nodes[0]));
	g->nnodes = 1;
	g->positions = NULL;
	p->keep = 0;
	p->keys_ok = false;
	p->key_next = p->keys;
	memset(&g->notes[0], 0, sizeof(g->notes[0]));
	g->nnotes = 1;
	g->nnagsets = 1;
	p->fen_cleared[0] = '\0';
	g->result = CD_PGN_RESULT_NONE;
	if (!g->has_fen) {
		g->chess960 = false;
		g->start.chess960 = false;
		cd__line_reset(g);
	}
}
void cd__game_clear_end(cd_game *g);
/* cd_game_setup as the parser asks it after cd__game_clear_start and
 * the tags (pgn/game.c): err is filled only on a failure. */
cd_status cd__game_setup(cd_game *g, cd_error *err);

/*
 * The reader's note on a raw game it gives (pgn/read.c), in the raw
 * game's reserved slots: its tags are plain, that is, their strings
 * are one block as the reader keeps them (name, NUL, value, NUL, ...)
 * and no value holds a control byte, DEL, `\` or `"`.  The note names
 * the tags array, the block and the number of tags it was written for,
 * so that a copy of the raw game whose tags are elsewhere (or fewer)
 * is not taken for plain.
 */
static inline void
cd__raw_tags_note(cd_pgn_raw_game *g, bool plain)
{
	bool on = plain && g->ntags > 0;

	g->cd_reserved_[0] = on ? (uint64_t)(uintptr_t)g->tags : 0;
	g->cd_reserved_[1] = on ? (uint64_t)(uintptr_t)g->tags[0].name : 0;
	g->cd_reserved_[2] = on ? (uint64_t)g->ntags : 0;
}

static inline bool
cd__raw_tags_plain(const cd_pgn_raw_game *g)
{
	return g->ntags > 0 &&
	    g->cd_reserved_[0] == (uint64_t)(uintptr_t)g->tags &&
	    g->cd_reserved_[1] == (uint64_t)(uintptr_t)g->tags[0].name &&
	    g->cd_reserved_[2] == (uint64_t)g->ntags;
}

/*
 * The reader's note that a raw game's tag section (its bytes before the
 * movetext) holds tag pairs and white space only: no comment or escape
 * line for the parser to read there (pgn/read.c, from the framer).  In
 * the raw game's fourth reserved slot, as the place where its movetext
 * starts, so that a game whose text or movetext was moved since is not
 * taken for one.
 */
static inline void
cd__raw_section_note(cd_pgn_raw_game *g, bool bare)
{
	g->cd_reserved_[3] = bare ? (uint64_t)(uintptr_t)(g->text +
	    g->movetext) : 0;
}

static inline bool
cd__raw_section_bare(const cd_pgn_raw_game *g)
{
	return g->cd_reserved_[3] != 0 &&
	    g->cd_reserved_[3] == (uint64_t)(uintptr_t)(g->text + g->movetext);
}

/* pgn/tags.c: a number for a block of tags read again (tags_gen). */
uint64_t cd__tags_gen_new(void);

/*
 * The n tags of a raw game into a game with no tag yet, before
 * cd__game_add_tags (inline: the parser's way without a call), when
 * they are plain (cd__raw_tags_plain) and the same bytes as the last
 * block the game had (tags_gen: its tags untouched since, only
 * cleared), at the start of the string store: the block is still
 * there, its tags too, and what the clear emptied is set back.  False,
 * with nothing added, otherwise.
 */
static inline bool
cd__game_tags_again(cd_game *g, const cd_pgn_tag *t, size_t n)
{
	struct cd__game_priv *p = g->priv;
	const char *s = t[0].name;
	const char *e = t[n - 1].value + t[n - 1].value_len + 1;
	size_t len = (size_t)(e - s);
	uint64_t x, y;

	/* (a block has a name, a value and their NULs: two bytes at
	 * least; its last eight compared first when it has them) */
	if (p->tags_gen == 0 || p->tb_key != ((uint64_t)len << 8 | n) ||
	    g->str_len != 0)
		return false;
	if (len >= 8) {
		memcpy(&x, e - 8, 8);
		memcpy(&y, g->str + len - 8, 8);
		if (x != y)
			return false;
	}
	if (memcmp(g->str, s, len) != 0)
		return false;
	memcpy(p->known, p->tb_known, sizeof(p->known));
	p->nknown = p->tb_nknown;
	p->tag_quotes = p->tb_quotes;
	p->tb_again = true;
	p->tb_misses = 0;
	if (p->tags_gen == 1)	/* (read again: the writer keeps it) */
		p->tags_gen = cd__tags_gen_new();
	g->ntags = n;
	g->str_len = len;
	return true;
}

/* Add the n tags at t in turn, as cd_game_add_tag does; *done gets how
 * many were added (all but on an error).  plain: the n tags are a raw
 * game's, and cd__raw_tags_plain is true of it (the caller tries
 * cd__game_tags_again first). */
cd_status cd__game_add_tags(cd_game *g, const cd_pgn_tag *t, size_t n,
    bool plain, size_t *done);

/* Add a move known to be legal (the parser's moves come from
 * cd_san_parse). */
cd_status cd__game_add_move_trusted(cd_game *g, cd_move m, uint32_t *node);
/* The same with the SAN (without mark) already known (san NULL: compute
 * it). */
cd_status cd__game_add_move_san(cd_game *g, cd_move m, const char *san,
    size_t slen, uint32_t *node);
/* The move token t of len bytes (1 or more) read by the fast SAN
 * reader (English, san_fast.h) and added as cd__game_add_move_san adds it: 1 (and *node,
 * if not NULL, the node), 0 when the reader leaves the token to
 * cd_san_parse (nothing done), or the adding's failure (negative). */
int cd__game_add_san_fast(cd_game *g, const char *t, size_t len,
    uint32_t *node);
/* cd__game_add_san_fast with node NULL: the parser's run of moves. */
int cd__game_add_san_run(cd_game *g, const char *t, size_t len);
/* The same for a keyless line (struct cd__line): the key not made. */
int cd__game_add_san_keyless(cd_game *g, const char *t, size_t len);

/* The length of movetext from which the parser keeps no key in the
 * main line of a game that keeps none (keyless): the key made again at
 * the end costs what some twenty moves' keys cost. */
#define CD__KEYLESS_MIN	256
/* Keep the line's position, after the move just added, as its node's in
 * g->positions (CD_PGN_PARSE_POSITIONS: the parser, after each move;
 * out of the way of the moves of games that keep none).  Out of memory,
 * the game keeps none any more. */
cd_status cd__game_position_keep(cd_game *g);

/* priv->keep: positions (g->positions), main-line keys (priv->keys) */
#define CD__KEEP_POSITIONS	1
#define CD__KEEP_KEYS		2

/* What the parser keeps after a move (priv->keep not 0), out of line;
 * out of memory: CD_ERR_NOMEM for positions, keys are dropped. */
cd_status cd__game_keep_slow(cd_game *g);

/* The same, the common case (the main-line key, room for it) inline. */
static inline cd_status
cd__game_keep(cd_game *g)
{
	struct cd__game_priv *p = g->priv;

	if (p->keep == CD__KEEP_KEYS && p->key_next != p->key_end) {
		if (p->depth == 0)
			*p->key_next++ = p->line.board.key;
		return CD_OK;
	}
	return cd__game_keep_slow(g);
}

/*
 * A brace comment at s (after its `{`; e: the end of the movetext)
 * whose text holds nothing to fold but single spaces, added as
 * cd_game_add_comment() adds it, folded and stored in one pass that
 * also finds its `}` (no line end in it: line numbers stay): the byte
 * after the `}`.  NULL, with nothing added, for any other comment,
 * which the lexer's way takes.  *st: CD_OK, or an error of the
 * note's.
 */
/* cd_game_add_comment for CD_PGN_PARSE_COMMENTS_AS_WRITTEN: the text
 * trimmed, CRLF made LF, the rest as it is. */
cd_status cd__game_add_comment_as_written(cd_game *g, const char *text,
    size_t len);
const char *cd__game_add_plain_comment(cd_game *g, const char *s,
    const char *e, cd_status *st);

/* cd__grow (internal.h) for a uint32_t capacity, out of line
 * (pgn/game.c). */
int cd__grow32(void **arr, uint32_t *cap, size_t need, size_t sz,
    size_t min);
/* The after-move NAG set of node i, made when it has none; NULL when
 * out of memory (pgn/tree.c). */
cd_game_nagset *cd__game_nags_after(cd_game *g, uint32_t i);
/* Append the note chain first to the chain at *head (pgn/tree.c). */
void cd__game_notes_append(cd_game *g, uint32_t *head, uint32_t first);

/* The move number and side of the move at ply (from 1) of g. */
static inline unsigned long
cd__game_move_number(const cd_game *g, uint32_t ply)
{
	return (unsigned long)g->start.fullmove +
	    ((unsigned long)ply - 1 + g->start.side) / 2;
}

static inline int
cd__game_mover(const cd_game *g, uint32_t ply)
{
	return (int)((g->start.side + ply - 1) & 1);
}

#endif
