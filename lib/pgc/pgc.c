/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgc.c: PGC (standard section 20, man/pgc.5): the encoder (game to
 * records) and the streaming decoder (records to game).  Move ordinals
 * are pgc/ordinal.c's.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgn/pgn_internal.h"
#include "pgc/pgc_ordinal.h"
#include "stream/input.h"

/* ---- errors ---- */

static void
set_error(cd_error *err, cd_status st, uint64_t offset,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void
set_error(cd_error *err, cd_status st, uint64_t offset,
    const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return;
	err->status = st;
	err->offset = offset;
	err->line = err->col = 0;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}

/* ---- the encoder ---- */

struct enc {
	const cd_game *g;
	cd_buf *out;
	unsigned flags;
	size_t dropped;
	cd_error *err;
	size_t run_pos;		/* where the open move sequence starts */
	unsigned run_n;		/* its moves; 0: none open */
};

/* Room for n more bytes in b; -1 when out of memory. */
static inline int
reserve(cd_buf *b, size_t n)
{
	if (b->cap - b->len >= n)
		return 0;
	return cd_buf_reserve(b, n) == CD_OK ? 0 : -1;
}

static int
put(struct enc *e, const void *p, size_t n)
{
	if (reserve(e->out, n) != 0)
		return -1;
	memcpy(e->out->data + e->out->len, p, n);
	e->out->len += n;
	return 0;
}

static int
put_byte(struct enc *e, int c)
{
	unsigned char u = (unsigned char)c;

	return put(e, &u, 1);
}

/* Close the open move sequence: 0x03 with a one-byte count when it has
 * at most 255 moves, else 0x04 with a two-byte count (room for which
 * was kept when it was opened). */
static void
run_close(struct enc *e)
{
	unsigned char *h;

	if (e->run_n == 0)
		return;
	h = (unsigned char *)e->out->data + e->run_pos;
	if (e->run_n <= 255) {
		h[0] = CD_PGC_MOVES_1;
		h[1] = (unsigned char)e->run_n;
		memmove(h + 2, h + 3, e->run_n);
		e->out->len--;
	} else {
		h[0] = CD_PGC_MOVES_2;
		h[1] = (unsigned char)(e->run_n & 0xff);
		h[2] = (unsigned char)(e->run_n >> 8);
	}
	e->run_n = 0;
}

/* Add one ordinal to the open move sequence (opening one if needed). */
static int
run_add(struct enc *e, int ord)
{
	if (e->run_n == 65535)
		run_close(e);
	if (e->run_n == 0) {
		e->run_pos = e->out->len;
		if (put(e, "\x04\0\0", 3) != 0)
			return -1;
	}
	e->run_n++;
	return put_byte(e, ord);
}

/* Text for messages: "12." or "12..." before a move. */
static void
move_label(const cd_game *g, uint32_t node, char *buf, size_t size)
{
	const cd_game_node *nd = &g->nodes[node];

	snprintf(buf, size, "%lu%s %s", cd__game_move_number(g, nd->ply),
	    cd__game_mover(g, nd->ply) == CD_WHITE ? "." : "...", nd->san);
}

static cd_status
enc_nomem(struct enc *e)
{
	set_error(e->err, CD_ERR_NOMEM, 0, "out of memory");
	return CD_ERR_NOMEM;
}

/* The notes of a chain: comments as 0x0b (or dropped and counted),
 * escape lines as 0x0a. */
static cd_status
put_notes(struct enc *e, uint32_t first)
{
	const cd_game *g = e->g;
	uint32_t i;

	for (i = first; i != 0; i = g->notes[i].next) {
		const cd_game_note *nt = &g->notes[i];
		bool comment = nt->kind == CD_NOTE_COMMENT;
		unsigned char h[3];

		if (comment && !(e->flags & CD_PGC_WITH_COMMENTS)) {
			e->dropped++;
			continue;
		}
		if (nt->len > 65535) {
			set_error(e->err, CD_ERR_RANGE, 0,
			    "%s of %zu bytes: more than a string-2 holds "
			    "(65535)", comment ? "comment" : "escape line",
			    nt->len);
			return CD_ERR_RANGE;
		}
		run_close(e);
		h[0] = comment ? CD_PGC_COMMENT : CD_PGC_ESCAPE;
		h[1] = (unsigned char)(nt->len & 0xff);
		h[2] = (unsigned char)(nt->len >> 8);
		if (put(e, h, 3) != 0 ||
		    put(e, cd_game_str(g, nt->text), nt->len) != 0)
			return enc_nomem(e);
	}
	return CD_OK;
}

/* Whether a note chain gives records (escape lines always, comments
 * with CD_PGC_WITH_COMMENTS); counts the comments it would drop. */
static bool
notes_give_records(struct enc *e, uint32_t first, size_t *comments)
{
	uint32_t i;
	bool any = false;

	for (i = first; i != 0; i = e->g->notes[i].next) {
		if (e->g->notes[i].kind != CD_NOTE_COMMENT ||
		    (e->flags & CD_PGC_WITH_COMMENTS))
			any = true;
		else
			(*comments)++;
	}
	return any;
}

/* Whether the game fits record 0x01: the seven roster tags only, the
 * standard initial position (both seen in the export tags), no NAG,
 * variation or escape line, no comment that is kept, no null move,
 * strings of at most 255 bytes, at most 65535 moves.  *comments gets
 * the number of comments dropped then. */
static bool
fits_reduced(struct enc *e, const cd_game_xtag *x, size_t nx,
    size_t *comments)
{
	const cd_game *g = e->g;
	uint32_t i, count = 0;
	size_t k;

	*comments = 0;
	if (nx != 7)
		return false;
	for (k = 0; k < nx; k++)
		if (x[k].value_len > 255)
			return false;
	if (cd_game_node_has_nags(&g->nodes[0]) ||
	    notes_give_records(e, g->nodes[0].after, comments))
		return false;
	for (i = g->nodes[0].next; i != 0; i = g->nodes[i].next) {
		const cd_game_node *nd = &g->nodes[i];

		if (nd->move == CD_MOVE_NULL || nd->var != 0 ||
		    cd_game_node_has_nags(nd) || ++count > 65535 ||
		    notes_give_records(e, nd->after, comments))
			return false;
	}
	return true;
}

/* Check a string-1 item. */
static cd_status
check_string1(struct enc *e, const char *what, const cd_game_xtag *t,
    size_t len)
{
	if (len <= 255)
		return CD_OK;
	set_error(e->err, CD_ERR_RANGE, 0,
	    "%s %.40s%s: %zu bytes, more than a string-1 holds (255)", what,
	    t->name, t->name_len > 40 ? "..." : "", len);
	return CD_ERR_RANGE;
}

static cd_status
put_string1(struct enc *e, const char *s, size_t len)
{
	if (put_byte(e, (int)len) != 0 || put(e, s, len) != 0)
		return enc_nomem(e);
	return CD_OK;
}

/* The NAGs of node i as 0x07 records: those after its move (in
 * nodes[0]: before the first move of the game), or with before those
 * that stand before it (the first move of a variation, written right
 * after its 0x08).  -1 when out of memory. */
static int
put_nags(struct enc *e, uint32_t i, bool before)
{
	int n = before ? cd_game_nag_before_next(e->g, i, -1) :
	    cd_game_nag_next(e->g, i, -1);

	if (n >= 0)
		run_close(e);
	for (; n >= 0; n = before ? cd_game_nag_before_next(e->g, i, n) :
	    cd_game_nag_next(e->g, i, n)) {
		unsigned char r[2] = { CD_PGC_NAG, (unsigned char)n };

		if (put(e, r, 2) != 0)
			return -1;
	}
	return 0;
}

/* A frame of the movetext walk: a line being written. */
struct frame {
	uint32_t node;		/* the move to write, 0: line done */
	uint32_t var;		/* the next variation of node to write */
	bool vars;		/* node's move is written, now variations */
	cd_board board;		/* the position before node's move */
};

/* The movetext of a general game: the main line and, after each move,
 * its NAGs, notes and variations; an explicit stack, no recursion. */
static cd_status
put_movetext(struct enc *e)
{
	const cd_game *g = e->g;
	struct frame fixed[8], *st = fixed, *f;
	size_t depth = 1, cap = 8;
	cd_status rc = CD_OK;
	char label[48];

	if (put_nags(e, 0, false) != 0)	/* before the first move */
		return enc_nomem(e);
	if ((rc = put_notes(e, g->nodes[0].after)) != CD_OK)
		return rc;
	st[0].node = g->nodes[0].next;
	st[0].var = 0;
	st[0].vars = false;
	st[0].board = g->start;
	while (depth > 0) {
		const cd_game_node *nd;

		f = &st[depth - 1];
		if (f->node == 0) {
			if (--depth > 0) {
				run_close(e);
				if (put_byte(e, CD_PGC_RAV_END) != 0) {
					rc = enc_nomem(e);
					break;
				}
			}
			continue;
		}
		nd = &g->nodes[f->node];
		if (!f->vars) {
			int ord;

			if (nd->move == CD_MOVE_NULL) {
				move_label(g, f->node, label, sizeof(label));
				set_error(e->err, CD_ERR_UNSUPPORTED, 0,
				    "%s: a null move, which PGC cannot hold",
				    label);
				rc = CD_ERR_UNSUPPORTED;
				break;
			}
			ord = cd__pgc_ordinal(&f->board, nd->move);
			if (ord < 0) {
				move_label(g, f->node, label, sizeof(label));
				set_error(e->err, CD_ERR_ARG, 0,
				    "%s: not a legal move", label);
				rc = CD_ERR_ARG;
				break;
			}
			if (run_add(e, ord) != 0) {
				rc = enc_nomem(e);
				break;
			}
			if (put_nags(e, f->node, false) != 0) {
				rc = enc_nomem(e);
				break;
			}
			if ((rc = put_notes(e, nd->after)) != CD_OK)
				break;
			f->var = nd->var;
			f->vars = true;
		}
		if (f->var != 0) {
			uint32_t v = f->var;

			f->var = g->nodes[v].var_next;
			run_close(e);
			if (put_byte(e, CD_PGC_RAV_BEGIN) != 0) {
				rc = enc_nomem(e);
				break;
			}
			if (put_nags(e, v, true) != 0) {
				rc = enc_nomem(e);
				break;
			}
			if ((rc = put_notes(e, g->nodes[v].before)) != CD_OK)
				break;
			if (depth == cap) {
				struct frame *ns;

				ns = malloc(2 * cap * sizeof(*ns));
				if (ns == NULL) {
					rc = enc_nomem(e);
					break;
				}
				memcpy(ns, st, depth * sizeof(*ns));
				if (st != fixed)
					free(st);
				st = ns;
				cap *= 2;
				f = &st[depth - 1];
			}
			st[depth].node = v;
			st[depth].var = 0;
			st[depth].vars = false;
			st[depth].board = f->board;
			depth++;
			continue;
		}
		cd_board_make(&f->board, nd->move);
		f->node = nd->next;
		f->vars = false;
	}
	if (st != fixed)
		free(st);
	if (rc == CD_OK)
		run_close(e);
	return rc;
}

/* The game with its export tags x[0..nx). */
static cd_status
encode(const cd_game *g, const cd_game_xtag *x, size_t nx, unsigned flags,
    cd_buf *out, size_t *dropped, cd_error *err)
{
	struct enc e;
	size_t k, comments;
	size_t start = out->len;
	cd_status rc = CD_OK;

	memset(&e, 0, sizeof(e));
	e.g = g;
	e.out = out;
	e.flags = flags;
	e.err = err;
	if (fits_reduced(&e, x, nx, &comments)) {
		uint32_t i;
		unsigned count = 0;
		cd_board b = g->start;
		size_t at;

		if (put_byte(&e, CD_PGC_REDUCED_GAME) != 0)
			return enc_nomem(&e);
		for (k = 0; k < 7 && rc == CD_OK; k++)
			rc = put_string1(&e, x[k].value, x[k].value_len);
		at = out->len;
		if (rc == CD_OK && put(&e, "\0\0", 2) != 0)
			rc = enc_nomem(&e);
		for (i = g->nodes[0].next; i != 0 && rc == CD_OK;
		    i = g->nodes[i].next) {
			int ord = cd__pgc_ordinal(&b, g->nodes[i].move);

			if (ord < 0) {
				set_error(err, CD_ERR_ARG, 0,
				    "a move that is not legal");
				rc = CD_ERR_ARG;
			} else if (put_byte(&e, ord) != 0) {
				rc = enc_nomem(&e);
			}
			cd_board_make(&b, g->nodes[i].move);
			count++;
		}
		if (rc == CD_OK) {
			out->data[at] = (char)(count & 0xff);
			out->data[at + 1] = (char)(count >> 8);
			if (dropped)
				*dropped = comments;
			return CD_OK;
		}
		out->len = start;
		return rc;
	}
	for (k = 0; k < nx; k++) {
		if ((rc = check_string1(&e, "tag name", &x[k],
		    x[k].name_len)) != CD_OK ||
		    (rc = check_string1(&e, "tag value of", &x[k],
		    x[k].value_len)) != CD_OK)
			return rc;
	}
	if (put_byte(&e, CD_PGC_GAME_BEGIN) != 0)
		return enc_nomem(&e);
	for (k = 0; k < nx && rc == CD_OK; k++) {
		if (put_byte(&e, CD_PGC_TAG) != 0)
			rc = enc_nomem(&e);
		else if ((rc = put_string1(&e, x[k].name, x[k].name_len)) ==
		    CD_OK)
			rc = put_string1(&e, x[k].value, x[k].value_len);
	}
	if (rc == CD_OK)
		rc = put_movetext(&e);
	if (rc == CD_OK && put_byte(&e, CD_PGC_GAME_END) != 0)
		rc = enc_nomem(&e);
	if (rc != CD_OK) {
		out->len = start;
		return rc;
	}
	if (dropped)
		*dropped = e.dropped;
	return CD_OK;
}

cd_status
cd_pgc_encode(const cd_game *g, unsigned flags, cd_buf *out,
    size_t *dropped, cd_error *err)
{
	cd_game_xtags xt;
	cd_status rc;

	if (dropped)
		*dropped = 0;
	cd__xtags_init(&xt);
	if (cd_game_export_tags(g, 0, &xt) != CD_OK) {
		set_error(err, CD_ERR_NOMEM, 0, "out of memory");
		return CD_ERR_NOMEM;
	}
	rc = encode(g, xt.tags, xt.n, flags, out, dropped, err);
	cd_game_xtags_free(&xt);
	return rc;
}

/* ---- the decoder ---- */

#define READ_BLOCK	((size_t)64 << 10)

struct cd_pgc_reader {
	struct cd__input in;		/* where the bytes come from
					 * (input.h); none for memory */
	unsigned char *block;		/* the read buffer (file readers) */
	const unsigned char *buf;	/* the bytes at hand */
	size_t pos, end;
	uint64_t base;			/* stream offset of buf[0] */
	bool eof, ioerr;
	cd_status failed;		/* a sticky error, else CD_OK */
	cd_error saved;
	char text[65536];		/* one string item (not cleared: a
					 * reader starts without touching
					 * its pages) */
};

/* A reader with every field zero but text. */
static cd_pgc_reader *
reader_alloc(void)
{
	cd_pgc_reader *r = malloc(sizeof(*r));

	if (r != NULL) {
		memset(r, 0, offsetof(cd_pgc_reader, text));
		cd__input_none(&r->in);
	}
	return r;
}

/* A reader of in (closed when out of memory). */
static cd_pgc_reader *
reader_input(struct cd__input *in)
{
	cd_pgc_reader *r = reader_alloc();

	if (r != NULL && (r->block = malloc(READ_BLOCK)) == NULL) {
		free(r);
		r = NULL;
	}
	if (r == NULL) {
		cd__input_close(in);
		return NULL;
	}
	r->in = *in;
	r->buf = r->block;
	return r;
}

CD__INPUT_OPENERS(cd_pgc_reader, cd_pgc_reader, reader_input)

const cd_stream *
cd_pgc_reader_stream(const cd_pgc_reader *r)
{
	return r->in.s;
}

cd_pgc_reader *
cd_pgc_reader_new_mem(const void *buf, size_t len)
{
	cd_pgc_reader *r = reader_alloc();

	if (r == NULL)
		return NULL;
	r->buf = buf;
	r->end = len;
	r->eof = true;
	return r;
}

void
cd_pgc_reader_free(cd_pgc_reader *r)
{
	if (r == NULL)
		return;
	cd__input_close(&r->in);
	free(r->block);
	free(r);
}

uint64_t
cd_pgc_reader_tell(const cd_pgc_reader *r)
{
	return r->base + r->pos;
}

/* Read the next block; false at the end of the stream or on error. */
static bool
refill(cd_pgc_reader *r)
{
	cd_status st;
	size_t n;

	if (r->eof)
		return false;
	r->base += r->end;
	r->pos = r->end = 0;
	st = cd__input_read(&r->in, r->block, READ_BLOCK, &n);
	if (st != CD_OK) {
		r->eof = true;
		r->ioerr = st != CD_EOF;
		return false;
	}
	r->end = n;
	return true;
}

/* The next byte, or -1 at the end of the stream. */
static inline int
get_byte(cd_pgc_reader *r)
{
	if (r->pos == r->end && !refill(r))
		return -1;
	return r->buf[r->pos++];
}

/* n bytes into dst; false if the stream ends first. */
static bool
get_bytes(cd_pgc_reader *r, char *dst, size_t n)
{
	while (n > 0) {
		size_t k;

		if (r->pos == r->end && !refill(r))
			return false;
		k = r->end - r->pos;
		if (k > n)
			k = n;
		memcpy(dst, r->buf + r->pos, k);
		r->pos += k;
		dst += k;
		n -= k;
	}
	return true;
}

/* A little-endian unsigned integer of n bytes; false at the end. */
static bool
get_uint(cd_pgc_reader *r, int n, unsigned *v)
{
	int i, c;

	*v = 0;
	for (i = 0; i < n; i++) {
		if ((c = get_byte(r)) < 0)
			return false;
		*v |= (unsigned)c << (8 * i);
	}
	return true;
}

/* The state of one game being decoded. */
struct dec {
	cd_pgc_reader *r;
	cd_game *g;
	cd_error *err;
	uint64_t rec;		/* offset of the current record */
	int marker;		/* its marker */
	bool setup;		/* the start position is set */
};

static cd_status
corrupt(struct dec *d, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static cd_status
corrupt(struct dec *d, uint64_t offset, const char *fmt, ...)
{
	va_list ap;
	cd_error *e = &d->r->saved;

	e->status = CD_ERR_CORRUPT;
	e->offset = offset;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return CD_ERR_CORRUPT;
}

/* The stream ended inside the current record (or failed to read). */
static cd_status
truncated(struct dec *d)
{
	if (d->r->ioerr) {
		cd_error *e = &d->r->saved;

		*e = d->r->in.err;
		e->offset = cd_pgc_reader_tell(d->r);
		return CD_ERR_IO;
	}
	return corrupt(d, d->rec, "record 0x%02x truncated at offset %llu",
	    d->marker, (unsigned long long)cd_pgc_reader_tell(d->r));
}

static cd_status
dec_nomem(struct dec *d)
{
	cd_error *e = &d->r->saved;

	e->status = CD_ERR_NOMEM;
	e->offset = d->rec;
	snprintf(e->msg, sizeof(e->msg), "out of memory");
	return CD_ERR_NOMEM;
}

/* A string item with a length field of n bytes into r->text. */
static cd_status
get_string(struct dec *d, int n, size_t *len)
{
	unsigned v;

	if (!get_uint(d->r, n, &v) || !get_bytes(d->r, d->r->text, v))
		return truncated(d);
	d->r->text[v] = '\0';
	*len = v;
	return CD_OK;
}

/* Set the start position from the tags read so far. */
static cd_status
dec_setup(struct dec *d)
{
	cd_error se;
	cd_status st;

	if (d->setup)
		return CD_OK;
	d->setup = true;
	st = cd_game_setup(d->g, &se);
	if (st == CD_ERR_NOMEM)
		return dec_nomem(d);
	if (st != CD_OK)
		return corrupt(d, d->rec, "start position: %s", se.msg);
	return CD_OK;
}

/* A move sequence of count ordinals. */
static cd_status
get_moves(struct dec *d, unsigned count)
{
	unsigned i;

	for (i = 0; i < count; i++) {
		const cd_board *b = cd_game_board(d->g);
		uint64_t at = cd_pgc_reader_tell(d->r);
		int ord = get_byte(d->r), n;
		cd_move m;

		if (ord < 0)
			return truncated(d);
		m = cd__pgc_select_move(b, (unsigned)ord, &n);
		if (m == CD_MOVE_NONE)
			return corrupt(d, at, "move ordinal %d beyond the %d "
			    "legal moves", ord, n);
		switch (cd__game_add_move_trusted(d->g, m, NULL)) {
		case CD_OK:
			break;
		case CD_ERR_ARG:
			return corrupt(d, at, "move in a variation (0x08) that "
			    "follows no move");
		default:
			return dec_nomem(d);
		}
	}
	return CD_OK;
}

/* Record 0x01: the seven roster values, the moves. */
static cd_status
get_reduced(struct dec *d)
{
	static const char *const roster[7] = {
		"Event", "Site", "Date", "Round", "White", "Black", "Result"
	};
	cd_status st;
	unsigned count;
	size_t len;
	int i;

	for (i = 0; i < 7; i++) {
		if ((st = get_string(d, 1, &len)) != CD_OK)
			return st;
		if (cd_game_add_tag(d->g, roster[i], strlen(roster[i]),
		    d->r->text, len) != CD_OK)
			return dec_nomem(d);
	}
	if ((st = dec_setup(d)) != CD_OK)
		return st;
	if (!get_uint(d->r, 2, &count))
		return truncated(d);
	return get_moves(d, count);
}

/* Whether a tag name reads back from PGN: not empty, no control byte
 * (white space and DEL included), quote or bracket. */
static bool
tag_name_ok(const char *s, size_t n)
{
	size_t i;

	if (n == 0)
		return false;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c <= 0x20 || c == 0x7f || c == '"' || c == '[' ||
		    c == ']')
			return false;
	}
	return true;
}

/* The records of a general game, after its 0x05, through its 0x06. */
static cd_status
get_general(struct dec *d)
{
	cd_pgc_reader *r = d->r;
	uint64_t begin = d->rec;
	cd_status st;
	size_t len, nlen;
	unsigned v;
	char name[256];
	int c;

	for (;;) {
		d->rec = cd_pgc_reader_tell(r);
		if ((c = get_byte(r)) < 0) {
			if (r->ioerr)
				return truncated(d);
			return corrupt(d, d->rec, "end of input inside the "
			    "game that begins at offset %llu (0x05 without "
			    "0x06)", (unsigned long long)begin);
		}
		d->marker = c;
		if (c == CD_PGC_NOOP)
			continue;
		if (c == CD_PGC_TAG) {
			if (d->setup)
				return corrupt(d, d->rec, "tag pair (0x02) "
				    "after the movetext");
			if (!get_uint(r, 1, &v) || !get_bytes(r, name, v))
				return truncated(d);
			nlen = v;
			if (!tag_name_ok(name, nlen))
				return corrupt(d, d->rec, "tag name (0x02) "
				    "that PGN cannot write");
			if ((st = get_string(d, 1, &len)) != CD_OK)
				return st;
			if (cd_game_add_tag(d->g, name, nlen, r->text, len) !=
			    CD_OK)
				return dec_nomem(d);
			continue;
		}
		if (c < CD_PGC_MOVES_1 || c > CD_PGC_COMMENT ||
		    c == CD_PGC_GAME_BEGIN)
			break;
		if ((st = dec_setup(d)) != CD_OK)
			return st;
		switch (c) {
		case CD_PGC_MOVES_1:
		case CD_PGC_MOVES_2:
			if (!get_uint(r, c == CD_PGC_MOVES_1 ? 1 : 2, &v))
				return truncated(d);
			if ((st = get_moves(d, v)) != CD_OK)
				return st;
			break;
		case CD_PGC_GAME_END:
			if (cd_game_depth(d->g) > 0)
				return corrupt(d, d->rec, "game end (0x06) "
				    "inside a variation (0x08 without 0x09)");
			return CD_OK;
		case CD_PGC_NAG:
			if (!get_uint(r, 1, &v))
				return truncated(d);
			/* (before a line's first move: a NAG that stands
			 * before it) */
			if (cd_game_add_nag(d->g, (int)v) != CD_OK)
				return dec_nomem(d);
			break;
		case CD_PGC_RAV_BEGIN:
			if ((st = cd_game_begin_variation(d->g)) != CD_OK) {
				if (st == CD_ERR_NOMEM)
					return dec_nomem(d);
				return corrupt(d, d->rec, "variation (0x08) "
				    "before any move of its line");
			}
			break;
		case CD_PGC_RAV_END:
			if (cd_game_depth(d->g) == 0)
				return corrupt(d, d->rec, "variation end "
				    "(0x09) without 0x08");
			if (cd_game_end_variation(d->g, NULL) != CD_OK)
				return dec_nomem(d);
			break;
		case CD_PGC_ESCAPE:
		case CD_PGC_COMMENT:
			if ((st = get_string(d, 2, &len)) != CD_OK)
				return st;
			st = c == CD_PGC_ESCAPE ?
			    cd_game_add_escape(d->g, r->text, len) :
			    cd_game_add_comment(d->g, r->text, len, NULL);
			if (st != CD_OK)
				return dec_nomem(d);
			break;
		}
	}
	if (c == CD_PGC_REDUCED_GAME || c == CD_PGC_GAME_BEGIN)
		return corrupt(d, d->rec, "record 0x%02x inside the game that "
		    "begins at offset %llu", c, (unsigned long long)begin);
	return corrupt(d, d->rec, "unknown marker 0x%02x", c);
}

cd_status
cd_pgc_reader_next(cd_pgc_reader *r, cd_game *g, cd_error *err)
{
	struct dec d;
	cd_status st;
	int c;

	if (r->failed == CD_OK) {
		cd_game_clear(g);
		memset(&d, 0, sizeof(d));
		d.r = r;
		d.g = g;
		for (;;) {
			d.rec = cd_pgc_reader_tell(r);
			c = get_byte(r);
			d.marker = c;
			if (c != CD_PGC_NOOP)
				break;
		}
		if (c < 0) {
			if (!r->ioerr)
				return CD_EOF;
			st = truncated(&d);
		} else if (c == CD_PGC_REDUCED_GAME) {
			st = get_reduced(&d);
		} else if (c == CD_PGC_GAME_BEGIN) {
			st = get_general(&d);
		} else if (c > CD_PGC_COMMENT) {
			st = corrupt(&d, d.rec, "unknown marker 0x%02x", c);
		} else {
			st = corrupt(&d, d.rec, "record 0x%02x outside a game "
			    "(no 0x05 before it)", c);
		}
		if (st == CD_OK)
			return CD_OK;
		r->failed = st;
	}
	if (err)
		*err = r->saved;
	return r->failed;
}

const cd_error *
cd_pgc_reader_error(const cd_pgc_reader *r)
{
	return &r->saved;
}
