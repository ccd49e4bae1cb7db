/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn/game.c: the game model (start position, move tree, notes; the
 * tags are pgn/tags.c's) and the builder that the PGN parser and the
 * PGC decoder share.
 *
 * Everything lives in arrays owned by the game and reused after
 * cd_game_clear(), so a steady stream of games allocates nothing.
 */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "pgn/fold.h"
#include "pgn/pgn_internal.h"
#include "core/san_fast.h"

/* cd__grow() for a uint32_t capacity; out of line, for its
 * callers test the capacity first on their paths of every move or
 * note. */
static __attribute__((noinline)) int
grow32(void **arr, uint32_t *cap, size_t need, size_t sz, size_t min)
{
	size_t c = *cap;

	if (need > UINT32_MAX)
		return -1;
	if (need <= c)
		return 0;
	if (cd__grow(arr, &c, need, sz, min) != 0)
		return -1;
	*cap = c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
	return 0;
}

int
cd__grow32(void **arr, uint32_t *cap, size_t need, size_t sz, size_t min)
{
	return grow32(arr, cap, need, sz, min);
}

/* Append len bytes and a NUL to the string store; the offset or
 * (size_t)-1 when out of memory. */
static size_t
str_add(cd_game *g, const char *s, size_t len)
{
	size_t off = g->str_len;

	if (len > SIZE_MAX - off - 1 ||
	    cd__grow((void **)&g->str, &g->priv->str_cap, off + len + 1, 1, 256) != 0)
		return (size_t)-1;
	if (len)
		memcpy(g->str + off, s, len);
	g->str[off + len] = '\0';
	g->str_len = off + len + 1;
	return off;
}

/* Make the start position the initial one, has_fen false.  Only a FEN
 * tag or cd_game_set_start (which set has_fen) give it other squares,
 * and cd_game_setup its chess960 flag, so the position is copied only
 * after them. */
static void
start_reset(cd_game *g)
{
	if (g->has_fen)
		g->start = g->priv->initial;
	else
		g->start.chess960 = g->priv->initial.chess960;
	g->has_fen = false;
}

cd_game *
cd_game_new(void)
{
	cd_game *g = calloc(1, sizeof(*g));

	if (g == NULL)
		return NULL;
	g->priv = calloc(1, sizeof(*g->priv));
	if (g->priv == NULL ||
	    grow32((void **)&g->nodes, &g->priv->nodes_cap, 1, sizeof(cd_game_node),
	    256) != 0 ||
	    grow32((void **)&g->notes, &g->priv->notes_cap, 1, sizeof(cd_game_note),
	    64) != 0) {
		cd_game_free(g);
		return NULL;
	}
	cd_board_init(&g->priv->initial);
	g->start = g->priv->initial;	/* (start_reset keeps it) */
	cd_game_clear(g);
	return g;
}

void
cd_game_free(cd_game *g)
{
	if (g == NULL)
		return;
	if (g->priv) {
		free(g->priv->stack);
		free(g->priv->pboards);
		free(g->priv->positions);
		free(g->priv->keys);
		free(g->priv->tag_hash);
		free(g->priv);
	}
	free(g->str);
	free(g->tags);
	free(g->nodes);
	free(g->notes);
	free(g->nagsets);
	free(g);
}

void
cd__game_clear_end(cd_game *g)
{
	start_reset(g);
	g->chess960 = false;
	cd__line_reset(g);
}

void
cd_game_clear(cd_game *g)
{
	cd__game_clear_start(g);
	if (g->has_fen)		/* (else the start made the line) */
		cd__game_clear_end(g);
}

/* Whether a Variant value names w (lower case letters and digits):
 * case, spaces, `-` and `_` aside, so that "From Position",
 * "fromPosition" and "from_position" are one name. */
static bool
word_eq(const char *s, size_t len, const char *w)
{
	size_t i;

	for (i = 0; i < len; i++) {
		int c = (unsigned char)s[i];

		if (c == ' ' || c == '-' || c == '_')
			continue;
		if (c >= 'A' && c <= 'Z')
			c += 'a' - 'A';
		if (*w == '\0' || c != *w++)
			return false;
	}
	return *w == '\0';
}

bool
cd_pgn_variant_is_960(const char *value, size_t len)
{
	static const char *const names[] = { "chess960", "fischerandom",
	    "fischerrandom", "frc", "960" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (word_eq(value, len, names[i]))
			return true;
	return false;
}

/* Variant values that mean standard chess (lichess writes "Standard"
 * and "From Position" in PGN, "standard" and "fromPosition" in its API,
 * python-chess "Standard" and "From Position" too). */
static bool
variant_is_standard(const char *value, size_t len)
{
	return len == 0 || word_eq(value, len, "standard") ||
	    word_eq(value, len, "normal") ||
	    word_eq(value, len, "fromposition");
}

cd_status
cd_game_setup(cd_game *g, cd_error *err)
{
	const char *v, *fen;
	size_t vlen = 0, flen = 0;
	cd_status st;

	cd__error_ok(err);
	start_reset(g);
	g->chess960 = false;
	v = cd__game_known_value(g, KT_VARIANT, &vlen);
	if (v != NULL) {
		if (cd_pgn_variant_is_960(v, vlen)) {
			g->chess960 = true;
		} else if (!variant_is_standard(v, vlen)) {
			cd__error_set(err, CD_ERR_UNSUPPORTED, 0, 0, 0,
			    "unsupported variant");
			cd__line_reset(g);
			return CD_ERR_UNSUPPORTED;
		}
	}
	fen = cd__game_known_value(g, KT_FEN, &flen);
	if (fen != NULL) {
		cd_board b;

		st = cd_fen_parse_clearing(&b, fen, flen,
		    g->chess960 ? CD_FEN_960 : 0, g->priv->fen_cleared, err);
		if (st != CD_OK) {
			cd__line_reset(g);
			return st;
		}
		g->start = b;
		g->has_fen = true;
	}
	g->start.chess960 = g->chess960;
	cd__line_reset(g);
	return CD_OK;
}

/* cd_game_setup for the parser, err filled only on a failure: a game
 * without a FEN or Variant tag after one without a FEN (the start is
 * the initial position already, not chess960) has only its line made
 * again. */
cd_status
cd__game_setup(cd_game *g, cd_error *err)
{
	const uint32_t *known = g->priv->known;

	if (known[KT_FEN] != 0 || known[KT_VARIANT] != 0 || g->has_fen)
		return cd_game_setup(g, err);
	g->chess960 = false;
	g->start.chess960 = false;
	cd__line_reset(g);
	return CD_OK;
}

cd_status
cd_game_set_start(cd_game *g, const cd_board *b)
{
	if (g->nnodes > 1)
		return CD_ERR_ARG;
	g->start = *b;
	g->has_fen = true;
	g->chess960 = b->chess960 != 0;
	cd__line_reset(g);
	return CD_OK;
}

/* ---- The builder ---- */

const cd_board *
cd_game_board(const cd_game *g)
{
	return &g->priv->line.board;
}

uint32_t
cd_game_cursor(const cd_game *g)
{
	return g->priv->line.has_move ? g->priv->line.cur : 0;
}

size_t
cd_game_depth(const cd_game *g)
{
	return g->priv->depth;
}

/*
 * Canonical SAN without the mark, quickly: a piece move needs no
 * disambiguation when no other piece of its type and colour attacks the
 * destination at all, which is the common case; otherwise ask
 * cd_san_write_bare (which looks at the legal moves).
 */
static size_t
san_bare(const cd_board *b, cd_move m, char *buf)
{
	int from = CD_MOVE_FROM(m), to = CD_MOVE_TO(m);
	int kind = CD_MOVE_KIND(m), type;
	cd_bitboard others;
	char *p = buf;

	if (kind != CD_MK_NORMAL)
		return cd_san_write_bare(b, m, buf);
	type = CD_PIECE_TYPE(b->squares[from]);
	if (type == CD_PAWN || type == CD_KING)
		return cd_san_write_bare(b, m, buf);
	others = b->by_type[type] & b->by_color[b->side] & ~CD_BB(from);
	if (others && (cd_attacks(type, b->side, to, b->by_type[0]) & others))
		return cd_san_write_bare(b, m, buf);
	*p++ = cd__piece_letters[type];
	if (b->squares[to])
		*p++ = 'x';
	*p++ = (char)('a' + CD_FILE(to));
	*p++ = (char)('1' + CD_RANK(to));
	*p = '\0';
	return (size_t)(p - buf);
}

/* A variation's first move, node idx (just added): the next variation
 * of var_of, after the last one its owner line has seen, with the notes
 * and NAGs that came before it; CD_ERR_ARG (the node taken back) in a
 * line that can hold no move.  Out of add_move's line, which seldom
 * comes here. */
static __attribute__((noinline, cold)) cd_status
variation_first(cd_game *g, uint32_t idx)
{
	struct cd__game_priv *p = g->priv;
	struct cd__line *l = &p->line;
	cd_game_node *nd = &g->nodes[idx];
	uint32_t *tail = &p->stack[l->owner].vtail;

	if (l->anchorless) {
		g->nnodes--;
		return CD_ERR_ARG;
	}
	if (*tail == 0)
		g->nodes[l->var_of].var = idx;
	else
		g->nodes[*tail].var_next = idx;
	*tail = idx;
	nd->before = l->pending;
	l->pending = 0;
	if (l->pending_nags != 0) {
		nd->nags = l->pending_nags;
		nd->flags = CD_NODE_NAGS_BEFORE;
		l->pending_nags = 0;
	}
	return CD_OK;
}

/* The check or mate mark of the line's last move, node l->cur of g,
 * whose move gives check (l->board the position after it), put after
 * its SAN.  Out of line, and given only g: none of the node's values
 * need a register through the move's making for the one move in
 * twenty that checks. */
static __attribute__((noinline)) void
check_mark(cd_game *g)
{
	const struct cd__line *l = &g->priv->line;
	cd_game_node *nd = &g->nodes[l->cur];
	size_t n = nd->san_len;

	if (cd__can_answer_check(&l->board)) {
		nd->flags |= CD_NODE_CHECK;
		nd->san[n++] = '+';
	} else {
		nd->flags |= CD_NODE_MATE;
		nd->san[n++] = '#';
	}
	nd->san[n] = '\0';
	nd->san_len = (uint8_t)n;
}

void
cd__line_check_pins(struct cd__line *l)
{
	l->check = cd_board_in_check(&l->board);
	l->pins = cd__pins(&l->board);
}

/* add_move's making of a move that is not a normal one (castling, en
 * passant, a promotion, a null move) on the line l, with l->check and
 * l->pins after it.  Out of line: one move in
 * twenty-five, whose values would take registers from the reader's
 * path. */
static __attribute__((noinline, cold)) void
make_other(struct cd__line *l, cd_move m)
{
	int from = CD_MOVE_FROM(m), to = CD_MOVE_TO(m);

	if (CD_MOVE_KIND(m) == CD_MK_CASTLE) {
		/* the check (by the rook alone: the other side's king was
		 * not in check) and the pins found as after a normal move,
		 * from the rook's square, not by cd__in_check here and
		 * cd__pins at the next move */
		cd__board_make_castle(&l->board, from, to);
		l->check = cd__check_pins(&l->board,
		    CD_SQ(to > from ? 5 : 3, CD_RANK(from)), &l->pins);
	} else {
		cd_board_make(&l->board, m);
		l->check = m != CD_MOVE_NULL && cd__in_check(&l->board);
		l->pins = cd__pins(&l->board);
	}
}

/* cd__game_add_move_san, inline in it and in cd__game_add_san_fast (the
 * parser's path for nearly every move).  The SAN of slen bytes: san's,
 * or with san NULL the word's (cd__san_fast_pins's), or with slen 0
 * too worked out here. */
static inline __attribute__((always_inline)) cd_status
add_move(cd_game *g, cd_move m, int from, int to, int cls, const char *san,
    uint64_t word, size_t slen, uint32_t *node, const bool keyed)
{
	struct cd__game_priv *p = g->priv;
	struct cd__line *l = &p->line;
	uint32_t idx = g->nnodes, parent;
	cd_game_node *nd;
	size_t n;

	if (idx >= g->priv->nodes_cap &&
	    grow32((void **)&g->nodes, &g->priv->nodes_cap, (size_t)idx + 1,
	    sizeof(*g->nodes), 256) != 0)
		return CD_ERR_NOMEM;
	g->nnodes++;
	nd = &g->nodes[idx];
	parent = l->has_move ? l->cur : l->base;
	/* (each field written once: no clearing first) */
	*nd = (cd_game_node){ .move = m, .parent = parent,
	    .ply = g->nodes[parent].ply + 1 };
	if (l->has_move) {
		g->nodes[l->cur].next = idx;
	} else if (p->depth == 0) {
		g->nodes[0].next = idx;
	} else if (variation_first(g, idx) != CD_OK) {
		return CD_ERR_ARG;
	}
	if (slen != 0 && san == NULL) {
		/* the fast reader's word: the SAN, 0 bytes after it */
		memcpy(nd->san, &word, sizeof(nd->san));
		n = slen;
	} else if (san != NULL) {
		/* san has CD_SAN_MAX bytes (the parser's buffer), of which
		 * at most 6 and a NUL are used */
		memcpy(nd->san, san, sizeof(nd->san));
		nd->san[slen] = '\0';
		n = slen;
	} else {
		n = san_bare(&l->board, m, nd->san);
	}
	/* the node and the line done with before the move is made: its
	 * values then need no register (nor a slot on the stack) through
	 * the making; the mark, if any, is check_mark's */
	nd->san_len = (uint8_t)n;
	l->cur = idx;
	l->vtail = 0;
	l->has_move = true;
	if (node)
		*node = idx;
	if (!l->prev_stale) {
		l->prev = l->board;
		l->prev_check = l->check;
	}
	if (cls == CD__MAKE_CASTLE) {
		/* the fast reader's castling (from the king's square, to
		 * the rook's): the check (by the rook alone: the other
		 * side's king was not in check) and the pins found as after
		 * a normal move, from the rook's square */
		cd__board_make_castle(&l->board, from, to);
		l->check = cd__check_pins(&l->board,
		    CD_SQ(to > from ? 5 : 3, CD_RANK(from)), &l->pins);
	} else if (CD_MOVE_KIND(m) == CD_MK_NORMAL) {
		cd__board_make_class(&l->board, from, to, cls, keyed);
		/* (a pawn's class: its steps' table with no load) */
		l->check = cls == CD__MAKE_PUSH || cls == CD__MAKE_PAWN_TAKES ?
		    cd__check_pins_steps(&l->board, to,
		    cd__pawn_att[l->board.side ^ 1], &l->pins) :
		    cd__check_pins(&l->board, to, &l->pins);
	} else {
		make_other(l, m);
	}
	if (l->check)
		check_mark(g);
	return CD_OK;
}

cd_status
cd__game_add_move_san(cd_game *g, cd_move m, const char *san, size_t slen,
    uint32_t *node)
{
	return add_move(g, m, CD_MOVE_FROM(m), CD_MOVE_TO(m), CD__MAKE_ANY,
	    san, 0, san != NULL ? slen : 0, node, true);
}

/* add_move for the fast reader's castling (its word san, of slen
 * bytes), the check and pins found as after a normal move; out of its
 * line, but not cold: GCC would then call the make. */
static __attribute__((noinline)) cd_status
add_castle(cd_game *g, cd_move m, uint64_t san, size_t slen,
    uint32_t *node)
{
	return add_move(g, m, CD_MOVE_FROM(m), CD_MOVE_TO(m), CD__MAKE_CASTLE,
	    NULL, san, slen, node, true);
}

/* cd__game_add_san_fast's work, inline in it twice: node NULL (the
 * parser's run of moves) and not. */
static inline __attribute__((always_inline)) int
add_san_fast(cd_game *g, const char *t, size_t len, uint32_t *node,
    const bool keyed)
{
	const struct cd__line *l = &g->priv->line;
	uint64_t san;
	size_t slen;
	cd_move m;
	cd_status st;
	/* (set for castling too, which does not use them: a piece's
	 * class, with which GCC keeps the reader's values in registers
	 * best) */
	int from = 0, to = 0, cls = CD__MAKE_PIECE;

	/* (the pins all ones in check: cd__san_fast_pins) */
	if (!cd__san_fast_pins(&l->board, l->pins | -(cd_bitboard)l->check,
	    t, len, &m, &san, &slen, &from, &to, &cls))
		return 0;
	/* (castling apart: add_move's path then knows the move a normal
	 * one) */
	if (CD_MOVE_KIND(m) != CD_MK_NORMAL)
		st = add_castle(g, m, san, slen, node);
	else if (cls == CD__MAKE_PIECE)
		st = add_move(g, m, from, to, CD__MAKE_PIECE, NULL, san, slen,
		    node, keyed);
	else if (cls == CD__MAKE_PUSH)
		st = add_move(g, m, from, to, CD__MAKE_PUSH, NULL, san, slen,
		    node, keyed);
	else
		st = add_move(g, m, from, to, CD__MAKE_PAWN_TAKES, NULL, san,
		    slen, node, keyed);
	return st == CD_OK ? 1 : (int)st;
}

/* cd__game_add_san_fast with a node to hand back: out of the parser's
 * run of moves, which asks for none (the pointer then needs no
 * register through the move). */
static __attribute__((noinline, cold)) int
add_san_fast_node(cd_game *g, const char *t, size_t len, uint32_t *node)
{
	return add_san_fast(g, t, len, node, true);
}

/* (the parser's run of moves calls these directly: no test of a node
 * pointer, none kept in a register; keyless, one that makes no key,
 * with no test of that either) */
int
cd__game_add_san_keyless(cd_game *g, const char *t, size_t len)
{
	return add_san_fast(g, t, len, NULL, false);
}

int
cd__game_add_san_run(cd_game *g, const char *t, size_t len)
{
	return add_san_fast(g, t, len, NULL, true);
}

int
cd__game_add_san_fast(cd_game *g, const char *t, size_t len,
    uint32_t *node)
{
	if (node != NULL)
		return add_san_fast_node(g, t, len, node);
	return cd__game_add_san_run(g, t, len);
}

cd_status
cd__game_position_keep(cd_game *g)
{
	struct cd__game_priv *p = g->priv;
	uint32_t n = g->nnodes - 1;

	if (n >= p->positions_cap) {
		if (grow32((void **)&p->positions, &p->positions_cap,
		    (size_t)n + 1, sizeof(*p->positions), 256) != 0) {
			g->positions = NULL;
			return CD_ERR_NOMEM;
		}
	}
	p->positions[n] = p->line.board;
	g->positions = p->positions;
	return CD_OK;
}

cd_status
cd__game_keep_slow(cd_game *g)
{
	struct cd__game_priv *p = g->priv;

	if ((p->keep & CD__KEEP_KEYS) && p->depth == 0) {
		size_t n = (size_t)(p->key_next - p->keys);

		if (p->key_next == p->key_end) {
			size_t cap = (size_t)(p->key_end - p->keys);

			if (cd__grow(&p->keys, &cap, n + 1, sizeof(*p->keys),
			    256) != 0) {
				/* (classifying makes the moves again
				 * instead) */
				p->keep &= (uint8_t)~CD__KEEP_KEYS;
				p->keys_ok = false;
				goto positions;
			}
			p->key_end = p->keys + cap;
		}
		p->keys[n] = p->line.board.key;
		p->key_next = p->keys + n + 1;
	}
positions:
	if ((p->keep & CD__KEEP_POSITIONS) &&
	    cd__game_position_keep(g) != CD_OK) {
		p->keep &= (uint8_t)~CD__KEEP_POSITIONS;
		return CD_ERR_NOMEM;
	}
	return CD_OK;
}

cd_status
cd__game_add_move_trusted(cd_game *g, cd_move m, uint32_t *node)
{
	return cd__game_add_move_san(g, m, NULL, 0, node);
}

cd_status
cd_game_add_move(cd_game *g, cd_move m, uint32_t *node)
{
	const cd_board *b = &g->priv->line.board;

	/* (the parser's, which this move is not in) */
	g->positions = NULL;
	g->priv->keep = 0;
	g->priv->keys_ok = false;
	if (m == CD_MOVE_NULL) {
		if (cd_board_in_check(b))
			return CD_ERR_ILLEGAL;
	} else if (!cd_board_is_legal(b, m)) {
		return CD_ERR_ILLEGAL;
	}
	return cd__game_add_move_trusted(g, m, node);
}

/* Make the len bytes at off in the string store a note of kind at the
 * cursor's place. */
static inline cd_status
note_link(cd_game *g, int kind, size_t off, size_t len)
{
	struct cd__game_priv *p = g->priv;
	struct cd__line *l = &p->line;
	uint32_t idx = g->nnotes, *head;
	uint64_t key;
	cd_game_note *nt;

	if (idx >= g->priv->notes_cap && grow32((void **)&g->notes,
	    &g->priv->notes_cap, (size_t)idx + 1, sizeof(*g->notes), 64) != 0)
		return CD_ERR_NOMEM;
	g->nnotes++;
	nt = &g->notes[idx];
	nt->text = off;
	nt->len = len;
	nt->next = 0;
	nt->kind = (uint8_t)kind;
	if (l->has_move) {
		head = &g->nodes[l->cur].after;
		key = (uint64_t)l->cur << 1;
	} else if (p->depth == 0) {
		head = &g->nodes[0].after;
		key = 0;
	} else {
		head = &l->pending;
		key = ((uint64_t)p->depth << 1) | 1;
	}
	if (*head == 0) {
		*head = idx;
	} else if (key == p->tail_key) {
		g->notes[p->tail].next = idx;
	} else {
		uint32_t t = *head;

		while (g->notes[t].next)
			t = g->notes[t].next;
		g->notes[t].next = idx;
	}
	p->tail_key = key;
	p->tail = idx;
	return CD_OK;
}

/* How note_add takes a note's text. */
enum { NOTE_RAW, NOTE_FOLD, NOTE_AS_WRITTEN };

/* Copy len bytes at s to d, CRLF as LF; the length written. */
static size_t
crlf_copy(char *d, const char *s, size_t len)
{
	size_t i, k;

	for (i = 0, k = 0; i < len; i++)
		if (s[i] != '\r' || i + 1 == len || s[i + 1] != '\n')
			d[k++] = s[i];
	return k;
}

/* Append a note of kind at the cursor's place: its text as it is
 * (NOTE_RAW), trimmed and folded (NOTE_FOLD) or trimmed with CRLF as LF
 * (NOTE_AS_WRITTEN). */
static cd_status
note_add(cd_game *g, int kind, const char *text, size_t len, int mode,
    bool *changed)
{
	size_t off;

	if (mode != NOTE_RAW) {
		/* trim; fold white space and control bytes, drop `}` */
		size_t a = 0, b = len;
		bool fold_it = mode == NOTE_FOLD;

		while (a < b && (fold_it ? cd__fold_byte((unsigned char)text[a]) :
		    (unsigned char)text[a] <= 0x20))
			a++;
		while (b > a && (fold_it ?
		    cd__fold_byte((unsigned char)text[b - 1]) :
		    (unsigned char)text[b - 1] <= 0x20))
			b--;
		if (changed)
			*changed = fold_it && memchr(text, '}', len) != NULL;
		if (a == b)
			return CD_OK;
		if ((off = str_add(g, text + a, 0)) == (size_t)-1 ||
		    cd__grow((void **)&g->str, &g->priv->str_cap, off + (b - a) + 1, 1,
		    256) != 0)
			return CD_ERR_NOMEM;
		len = fold_it ? cd__fold(g->str + off, text + a, b - a) :
		    crlf_copy(g->str + off, text + a, b - a);
		g->str[off + len] = '\0';
		g->str_len = off + len + 1;
	} else {
		if ((off = str_add(g, text, len)) == (size_t)-1)
			return CD_ERR_NOMEM;
	}
	return note_link(g, kind, off, len);
}

const char *
cd__game_add_plain_comment(cd_game *g, const char *s, const char *e,
    cd_status *st)
{
#ifdef __SSE2__
	size_t n, off, run;

	*st = CD_OK;
	while (s < e && *s == ' ')
		s++;
	if ((n = (size_t)(e - s)) < 16)
		return NULL;
	if (cd__grow((void **)&g->str, &g->priv->str_cap, g->str_len + n + 1,
	    1, 256) != 0)
		return NULL;	/* (the lexer's way tells) */
	/* (off and the store's place read again after the call: fewer
	 * values kept over it) */
	run = cd__fold_plain(g->str + g->str_len, s, n);
	if (run == n || s[run] != '}')
		return NULL;
	e = s + run + 1;
	if (run > 0 && s[run - 1] == ' ')
		run--;
	if (run == 0)
		return e;
	off = g->str_len;
	g->str[off + run] = '\0';
	g->str_len = off + run + 1;
	*st = note_link(g, CD_NOTE_COMMENT, off, run);
	return e;
#else
	(void)g;
	(void)s;
	(void)e;
	*st = CD_OK;
	return NULL;
#endif
}

cd_status
cd__game_add_comment_as_written(cd_game *g, const char *text, size_t len)
{
	return note_add(g, CD_NOTE_COMMENT, text, len, NOTE_AS_WRITTEN, NULL);
}

cd_status
cd_game_add_comment(cd_game *g, const char *text, size_t len, bool *changed)
{
	return note_add(g, CD_NOTE_COMMENT, text, len, NOTE_FOLD, changed);
}

cd_status
cd_game_add_escape(cd_game *g, const char *text, size_t len)
{
	return note_add(g, CD_NOTE_ESCAPE, text, len, NOTE_RAW, NULL);
}
