/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn/tree.c: the builder's variations and NAGs (pgn/game.c holds the
 * rest of the model).
 *
 * Variations nest to any depth, so the stack of lines waiting for their
 * variation to close is kept small: a frame holds node indexes and
 * flags, and the positions it needs are rebuilt when it is resumed from
 * one packed position (56 bytes) and at most one move.  A line opened
 * right after the first move of a variation (export-format.md rule 11)
 * is a next variation of the same move and needs no packed position of
 * its own: the one of the line that owns that move serves.
 *
 * NAGs live in the game's nagsets, a node pointing at its set (or, for
 * a node with NAGs before its move, at a pair: after, then before).
 */
#include "config.h"

#include <string.h>

#include "pgn/pgn_internal.h"
#include "core/attacks.h"
#include "core/bits.h"

/* struct cd__frame flags */
enum {
	FR_HAS_MOVE = 1 << 0,
	FR_PREV_CHECK = 1 << 1,
	FR_FLAT = 1 << 2,
	FR_ANCHORLESS = 1 << 3
};

static void
pack(struct cd__pboard *pb, const cd_board *b)
{
	int i;

	for (i = 0; i < 32; i++)
		pb->sq[i] = (uint8_t)(b->squares[2 * i] |
		    (b->squares[2 * i + 1] << 4));
	pb->side = b->side;
	pb->ep = b->ep;
	pb->castle[0] = b->castle_rook[0][0];
	pb->castle[1] = b->castle_rook[0][1];
	pb->castle[2] = b->castle_rook[1][0];
	pb->castle[3] = b->castle_rook[1][1];
	pb->chess960 = b->chess960;
	pb->ep_hashed = b->ep_hashed;
	pb->halfmove = b->halfmove;
	pb->fullmove = b->fullmove;
	pb->key = b->key;
}

static void
unpack(cd_board *b, const struct cd__pboard *pb)
{
	int sq;

	memset(b, 0, sizeof(*b));
	for (sq = 0; sq < 64; sq++) {
		int piece = (pb->sq[sq >> 1] >> (4 * (sq & 1))) & 15;
		cd_bitboard bb = CD_BB(sq);

		if (piece == 0)
			continue;
		b->squares[sq] = (uint8_t)piece;
		b->by_type[0] |= bb;
		b->by_type[CD_PIECE_TYPE(piece)] |= bb;
		b->by_color[CD_PIECE_COLOR(piece)] |= bb;
	}
	b->side = pb->side;
	b->ep = pb->ep;
	b->castle_rook[0][0] = pb->castle[0];
	b->castle_rook[0][1] = pb->castle[1];
	b->castle_rook[1][0] = pb->castle[2];
	b->castle_rook[1][1] = pb->castle[3];
	b->chess960 = pb->chess960;
	b->ep_hashed = pb->ep_hashed;
	b->halfmove = pb->halfmove;
	b->fullmove = pb->fullmove;
	b->key = pb->key;
}

static uint32_t
sat32(unsigned long v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* A new NAG set (zeroed) or a pair of them; 0 when out of memory. */
static uint32_t
nagset_new(cd_game *g, uint32_t n)
{
	uint32_t k = g->nnagsets;

	if (cd__grow32((void **)&g->nagsets, &g->priv->nagsets_cap,
	    (size_t)k + n,
	    sizeof(*g->nagsets), 64) != 0)
		return 0;
	memset(&g->nagsets[k], 0, n * sizeof(*g->nagsets));
	g->nnagsets = k + n;
	return k;
}

cd_game_nagset *
cd__game_nags_after(cd_game *g, uint32_t i)
{
	cd_game_node *nd = &g->nodes[i];

	if (nd->nags == 0) {
		uint32_t k = nagset_new(g, 1);

		if (k == 0)
			return NULL;
		nd = &g->nodes[i];
		nd->nags = k;
	}
	nd->flags |= CD_NODE_NAGS;
	return &g->nagsets[nd->nags];
}

/* The second set of the pending pair of line l (made if needed). */
static cd_game_nagset *
pending_nags(cd_game *g, struct cd__line *l)
{
	if (l->pending_nags == 0 && (l->pending_nags = nagset_new(g, 2)) == 0)
		return NULL;
	return &g->nagsets[l->pending_nags + 1];
}

static void
nagset_or(cd_game_nagset *d, const cd_game_nagset *s)
{
	int i;

	for (i = 0; i < 4; i++)
		d->bits[i] |= s->bits[i];
}

cd_status
cd_game_add_nag(cd_game *g, int n)
{
	struct cd__game_priv *p = g->priv;
	struct cd__line *l = &p->line;
	cd_game_nagset *set;

	if (n < 0 || n > 255)
		return CD_ERR_RANGE;
	if (l->has_move)
		set = cd__game_nags_after(g, l->cur);
	else if (p->depth == 0)
		set = cd__game_nags_after(g, 0);	/* before the game */
	else
		set = pending_nags(g, l);
	if (set == NULL)
		return CD_ERR_NOMEM;
	set->bits[n >> 6] |= (uint64_t)1 << (n & 63);
	return CD_OK;
}

static int
nag_next(const cd_game_nagset *set, int after)
{
	int n = after + 1;

	while (n < 256) {
		uint64_t w = set->bits[n >> 6] >> (n & 63);

		if (w)
			return n + __builtin_ctzll(w);
		n = (n | 63) + 1;
	}
	return -1;
}

int
cd_game_nag_next(const cd_game *g, uint32_t i, int after)
{
	const cd_game_node *nd = &g->nodes[i];

	if (!(nd->flags & CD_NODE_NAGS))
		return -1;
	return nag_next(&g->nagsets[nd->nags], after);
}

int
cd_game_nag_before_next(const cd_game *g, uint32_t i, int after)
{
	const cd_game_node *nd = &g->nodes[i];

	if (!(nd->flags & CD_NODE_NAGS_BEFORE))
		return -1;
	return nag_next(&g->nagsets[nd->nags + 1], after);
}

void
cd__game_notes_append(cd_game *g, uint32_t *head, uint32_t first)
{
	uint32_t t;

	if (first == 0)
		return;
	if (*head == 0) {
		*head = first;
		return;
	}
	for (t = *head; g->notes[t].next != 0; t = g->notes[t].next)
		;
	g->notes[t].next = first;
	g->priv->tail_key = UINT64_MAX;
}

/* The position before the line's last move where it was not kept
 * (prev_stale: the line is the main line). */
static void
prev_make(cd_game *g)
{
	struct cd__line *l = &g->priv->line;
	uint32_t i;

	l->prev = g->start;
	for (i = g->nodes[0].next; i != 0 && i != l->cur; i = g->nodes[i].next)
		cd_board_make(&l->prev, g->nodes[i].move);
	l->prev_check = cd_board_in_check(&l->prev);
	l->prev_stale = false;
}

cd_status
cd_game_begin_variation(cd_game *g)
{
	struct cd__game_priv *p = g->priv;
	struct cd__line *l = &p->line;
	struct cd__frame *f;
	bool flat = false;
	uint32_t idx;

	if (!l->has_move && p->depth == 0)
		return CD_ERR_ARG;
	/* (a keyless line is the main line: prev is stale too, and made
	 * again from the start with its keys) */
	cd__line_keyed(l);
	if (l->prev_stale)
		prev_make(g);
	if (l->has_move && p->depth > 0 && !l->anchorless &&
	    g->nodes[l->cur].parent == l->base)
		flat = true;	/* right after a variation's first move */
	if (p->depth >= UINT32_MAX - 1 ||
	    cd__grow((void **)&p->stack, &p->stack_cap, p->depth + 1,
	    sizeof(*p->stack), 8) != 0 ||
	    (!flat && cd__grow((void **)&p->pboards, &p->pboards_cap,
	    p->npboards + 1, sizeof(*p->pboards), 8) != 0))
		return CD_ERR_NOMEM;
	idx = (uint32_t)p->depth++;
	f = &p->stack[idx];
	f->cur = l->cur;
	f->base = l->base;
	f->var_of = l->var_of;
	f->pending = l->pending;
	f->pending_nags = l->pending_nags;
	f->owner = l->owner;
	f->vtail = l->vtail;
	f->line = sat32(l->line);
	f->col = sat32(l->col);
	f->flags = (uint8_t)((l->has_move ? FR_HAS_MOVE : 0) |
	    (l->prev_check ? FR_PREV_CHECK : 0) | (flat ? FR_FLAT : 0) |
	    (l->anchorless ? FR_ANCHORLESS : 0));
	f->pb = 0;
	if (!flat) {
		/* the position before cur, or, with no move, the line's */
		f->pb = (uint32_t)p->npboards;
		pack(&p->pboards[p->npboards++],
		    l->has_move ? &l->prev : &l->board);
	}
	if (flat) {
		/* an alternative to the move this line replaces: same
		 * owner, same position (before this line's first move) */
		l->board = l->prev;
		l->check = l->prev_check;
		l->pins = cd__pins(&l->board);
	} else if (l->has_move) {
		l->var_of = l->cur;
		l->base = g->nodes[l->cur].parent;
		l->owner = idx;
		l->board = l->prev;
		l->check = l->prev_check;
		l->pins = cd__pins(&l->board);
	} else {
		/* in a variation with no move: comments and NAGs only */
		l->anchorless = true;
	}
	l->flat = flat;
	l->has_move = false;
	l->pending = 0;
	l->pending_nags = 0;
	l->cur = 0;
	l->vtail = 0;
	p->tail_key = UINT64_MAX;
	return CD_OK;
}

/* Resume the line of the top frame. */
static void
resume(cd_game *g)
{
	struct cd__game_priv *p = g->priv;
	struct cd__line *l = &p->line;
	const struct cd__frame *f = &p->stack[--p->depth];

	l->cur = f->cur;
	l->base = f->base;
	l->var_of = f->var_of;
	l->pending = f->pending;
	l->pending_nags = f->pending_nags;
	l->owner = f->owner;
	l->vtail = f->vtail;
	l->line = f->line;
	l->col = f->col;
	l->has_move = (f->flags & FR_HAS_MOVE) != 0;
	l->prev_check = (f->flags & FR_PREV_CHECK) != 0;
	l->flat = (f->flags & FR_FLAT) != 0;
	l->anchorless = (f->flags & FR_ANCHORLESS) != 0;
	if (l->flat) {
		/* the owner's packed position: before var_of, which is
		 * where this line's first (and only) move was played */
		unpack(&l->prev, &p->pboards[p->stack[f->owner].pb]);
	} else {
		unpack(&l->prev, &p->pboards[f->pb]);
		p->npboards--;
	}
	l->board = l->prev;
	if (l->has_move) {
		const cd_game_node *nd = &g->nodes[l->cur];

		cd_board_make(&l->board, nd->move);
		l->check = (nd->flags & (CD_NODE_CHECK | CD_NODE_MATE)) != 0;
		l->pins = cd__pins(&l->board);
	} else {
		cd__line_check_pins(l);
	}
}

cd_status
cd_game_end_variation(cd_game *g, bool *empty)
{
	struct cd__game_priv *p = g->priv;
	struct cd__line *l = &p->line;
	uint32_t notes, nags;
	cd_game_nagset set;

	if (p->depth == 0)
		return CD_ERR_ARG;
	if (empty)
		*empty = !l->has_move;
	if (l->has_move) {
		resume(g);
		p->tail_key = UINT64_MAX;
		return CD_OK;
	}
	/* no variation: what it holds goes to what it followed */
	notes = l->pending;
	nags = l->pending_nags;
	if (nags != 0)
		set = g->nagsets[nags + 1];
	resume(g);
	p->tail_key = UINT64_MAX;
	if (l->has_move) {
		cd__game_notes_append(g, &g->nodes[l->cur].after, notes);
		if (nags != 0) {
			cd_game_nagset *d = cd__game_nags_after(g, l->cur);

			if (d == NULL)
				return CD_ERR_NOMEM;
			nagset_or(d, &set);
		}
	} else {
		cd__game_notes_append(g, &l->pending, notes);
		if (nags != 0) {
			cd_game_nagset *d = pending_nags(g, l);

			if (d == NULL)
				return CD_ERR_NOMEM;
			nagset_or(d, &set);
		}
	}
	return CD_OK;
}
