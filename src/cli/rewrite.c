/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rewrite.c: the rewrites of pgn-regularize that work on tags, counts
 * and results (rewrite.h); the movetext ones are the writer's
 * (CD_PGN_NO_COMMENTS ...).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "games.h"
#include "rewrite.h"

static const char *const roster[7] = { "Event", "Site", "Date", "Round",
    "White", "Black", "Result" };

bool
cli_tag_is_roster(const char *name, size_t len)
{
	int i;

	for (i = 0; i < 7; i++)
		if (strlen(roster[i]) == len && memcmp(roster[i], name, len) == 0)
			return true;
	return false;
}

void
cli_names_add(struct cli_names *l, const char *list, const char *option)
{
	const char *p = list, *e;

	for (; *p; p = *e ? e + 1 : e) {
		size_t len, i;
		char *s;

		e = strchr(p, ',');
		if (e == NULL)
			e = p + strlen(p);
		len = (size_t)(e - p);
		if (len == 0)
			continue;
		for (i = 0; i < len; i++) {
			unsigned char c = (unsigned char)p[i];

			if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
			    (c >= '0' && c <= '9') || (i > 0 && (c == '_' ||
			    c == '+' || c == '#' || c == '=' || c == ':' ||
			    c == '-'))))
				cli_usage_error("%s: '%.*s' is not a tag name",
				    option, (int)len, p);
		}
		if (cli_names_find(l, p, len) >= 0)
			continue;
		cli_grow(&l->v, &l->cap, l->n, sizeof(*l->v), 8);
		if ((s = malloc(len + 1)) == NULL)
			cli_fatal("out of memory");
		memcpy(s, p, len);
		s[len] = '\0';
		l->v[l->n++] = s;
	}
}

long
cli_names_find(const struct cli_names *l, const char *name, size_t len)
{
	size_t i;

	for (i = 0; l != NULL && i < l->n; i++)
		if (strlen(l->v[i]) == len && memcmp(l->v[i], name, len) == 0)
			return (long)i;
	return -1;
}

/* Remove the tags of g for which (named in l) == in. */
static void
tags_remove(cd_game *g, const struct cli_names *l, bool in, bool roster_too)
{
	size_t i = g->ntags;

	while (i-- > 0) {
		const cd_game_tag *t = &g->tags[i];
		const char *name = cd_game_str(g, t->name);
		char buf[256];

		/* (what the start position needs stays: the writer
		 * writes SetUp and FEN from it, and Variant for Chess960;
		 * a game with a FEN tag keeps its Variant, as with
		 * pgn-extract -7) */
		if (!roster_too && (cli_tag_is_roster(name, t->name_len) ||
		    (g->has_fen && t->name_len == 7 &&
		    memcmp(name, "Variant", 7) == 0)))
			continue;
		if ((cli_names_find(l, name, t->name_len) >= 0) != in)
			continue;
		if (t->name_len >= sizeof(buf))
			continue;	/* (not a name a list can hold) */
		memcpy(buf, name, t->name_len + 1);
		cd_game_remove_tag(g, buf);
	}
}

void
cli_tags_keep(cd_game *g, const struct cli_names *keep)
{
	tags_remove(g, keep, false, false);
}

void
cli_tags_drop(cd_game *g, const struct cli_names *drop)
{
	tags_remove(g, drop, true, true);
}

/* The length of the tag name of the line at s ("[Name "). */
static size_t
line_name(const char *s, const char *end)
{
	const char *p = s + 1;

	while (p < end && *p != ' ' && *p != '\n')
		p++;
	return (size_t)(p - s - 1);
}

void
cli_tags_order(cd_buf *b, size_t from, const struct cli_names *order)
{
	char *s = b->data + from, *end = b->data + b->len, *p, *tags, *w;
	size_t nlines = 0, k, i, cap = 0, len;
	struct { char *at; size_t len; long rank; } *ln = NULL;

	/* the roster's seven lines stay */
	for (p = s, k = 0; k < 7 && p < end; k++)
		p = (char *)memchr(p, '\n', (size_t)(end - p)) + 1;
	tags = p;
	while (p < end && *p == '[') {
		char *e = memchr(p, '\n', (size_t)(end - p));

		cli_grow(&ln, &cap, nlines, sizeof(*ln), 16);
		ln[nlines].at = p;
		ln[nlines].len = (size_t)(e - p) + 1;
		ln[nlines].rank = cli_names_find(order, p + 1,
		    line_name(p, end));
		nlines++;
		p = e + 1;
	}
	len = (size_t)(p - tags);
	if (nlines > 1 && (w = malloc(len)) != NULL) {
		char *d = w;

		for (k = 0; k < order->n; k++)
			for (i = 0; i < nlines; i++)
				if (ln[i].rank == (long)k) {
					memcpy(d, ln[i].at, ln[i].len);
					d += ln[i].len;
				}
		for (i = 0; i < nlines; i++)
			if (ln[i].rank < 0) {
				memcpy(d, ln[i].at, ln[i].len);
				d += ln[i].len;
			}
		memcpy(tags, w, len);
		free(w);
	} else if (nlines > 1) {
		cli_fatal("out of memory");
	}
	free(ln);
}

void
cli_tags_none(cd_buf *b, size_t from)
{
	char *s = b->data + from, *end = b->data + b->len, *p = s;

	while (p < end && *p == '[')
		p = (char *)memchr(p, '\n', (size_t)(end - p)) + 1;
	if (p < end && *p == '\n')
		p++;
	memmove(s, p, (size_t)(end - p));
	b->len -= (size_t)(p - s);
}

unsigned long
cli_game_plies(const cd_game *g, bool all)
{
	unsigned long n = 0;
	uint32_t i;

	if (all)
		return g->nnodes - 1;
	for (i = g->nodes[0].next; i != 0; i = g->nodes[i].next)
		n++;
	return n;
}

cd_pgn_result
cli_result_fix(cd_game *g, const char **why)
{
	cd_pgn_result r = cd_game_result(g), want;
	cd_board b;
	const char *res;
	unsigned end;

	*why = NULL;
	cd_game_end_position(g, &b);
	end = cd_board_endings(&b, NULL);
	if (end & CD_END_CHECKMATE)
		want = b.side == CD_WHITE ? CD_PGN_RESULT_BLACK :
		    CD_PGN_RESULT_WHITE;
	else if (end & CD_END_STALEMATE)
		want = CD_PGN_RESULT_DRAW;
	else
		return r;
	if (want == r)
		return r;
	*why = end & CD_END_CHECKMATE ? "checkmate" : "stalemate";
	cd_game_set_result(g, want);
	res = cd_pgn_result_str(want);
	if (cd_game_add_tag(g, "Result", 6, res, strlen(res)) != CD_OK)
		cli_fatal("out of memory");
	return r;
}

/* Copy the notes from note i on to where dst's cursor stands (none
 * with CLI_CUT_NO_COMMENTS in what). */
static cd_status
copy_notes(cd_game *dst, const cd_game *src, uint32_t i, unsigned what)
{
	cd_status st = CD_OK;

	if (what & CLI_CUT_NO_COMMENTS)
		return CD_OK;
	for (; i != 0 && st == CD_OK; i = src->notes[i].next) {
		const cd_game_note *nt = &src->notes[i];
		const char *s = cd_game_str(src, nt->text);

		st = nt->kind == CD_NOTE_COMMENT ?
		    cd_game_add_comment(dst, s, nt->len, NULL) :
		    cd_game_add_escape(dst, s, nt->len);
	}
	return st;
}

/* Copy node n of src (what stands before it, the move, its NAGs and
 * notes) after dst's cursor. */
static cd_status
copy_move(cd_game *dst, const cd_game *src, uint32_t n, unsigned what)
{
	const cd_game_node *nd = &src->nodes[n];
	cd_status st = CD_OK;
	int k;

	for (k = cd_game_nag_before_next(src, n, -1); k >= 0 && st == CD_OK;
	    k = cd_game_nag_before_next(src, n, k))
		st = cd_game_add_nag(dst, k);
	if (st == CD_OK)
		st = copy_notes(dst, src, nd->before, what);
	if (st == CD_OK)
		st = cd_game_add_move(dst, nd->move, NULL);
	for (k = cd_game_nag_next(src, n, -1); k >= 0 && st == CD_OK;
	    k = cd_game_nag_next(src, n, k))
		st = cd_game_add_nag(dst, k);
	if (st == CD_OK)
		st = copy_notes(dst, src, nd->after, what);
	return st;
}

/* The comments of what (CLI_CUT_FEN_COMMENTS ...) on the position
 * where dst's cursor stands, added there. */
static cd_status
position_comments(cd_game *dst, unsigned what)
{
	const cd_board *b = cd_game_board(dst);
	char buf[CD_FEN_MAX + 2];
	cd_status st = CD_OK;
	size_t len;

	if (what & CLI_CUT_FEN_COMMENTS) {
		len = cd_fen_write(b, buf);
		st = cd_game_add_comment(dst, buf, len, NULL);
	}
	if ((what & CLI_CUT_KEY_COMMENTS) && st == CD_OK) {
		len = (size_t)snprintf(buf, sizeof(buf), "%llx",
		    (unsigned long long)cd_polyglot_key(b));
		st = cd_game_add_comment(dst, buf, len, NULL);
	}
	if ((what & CLI_CUT_FINAL_FEN) && st == CD_OK) {
		buf[0] = '"';
		len = cd_fen_write(b, buf + 1);
		buf[len + 1] = '"';
		st = cd_game_add_comment(dst, buf, len + 2, NULL);
	}
	return st;
}

/* dst's tags: src's, in their order. */
static cd_status
copy_tags(cd_game *dst, const cd_game *src)
{
	cd_status st = CD_OK;
	size_t i;

	for (i = 0; i < src->ntags && st == CD_OK; i++) {
		const cd_game_tag *t = &src->tags[i];

		st = cd_game_add_tag(dst, cd_game_str(src, t->name),
		    t->name_len, cd_game_str(src, t->value), t->value_len);
	}
	return st;
}

void
cli_game_cut(cd_game *dst, const cd_game *src, unsigned long from,
    unsigned long max, unsigned what)
{
	/* the variations open: the move they are alternatives to, and
	 * the first move of the one being copied */
	struct frame { uint32_t node, var; } *stack = NULL;
	size_t depth = 0, cap = 0;
	unsigned long left = max;
	cd_board b = src->start;
	cd_status st = CD_OK;
	uint32_t n = src->nodes[0].next;
	bool cut = false;
	int k;

	cd_game_clear(dst);
	st = copy_tags(dst, src);
	for (; from > 0 && n != 0; from--, n = src->nodes[n].next)
		cd_board_make(&b, src->nodes[n].move);
	if (st == CD_OK)
		st = n == src->nodes[0].next ? cd_game_setup(dst, NULL) :
		    cd_game_set_start(dst, &b);
	if (n == src->nodes[0].next) {
		/* (what stands before the first move: only when it stays) */
		for (k = cd_game_nag_next(src, 0, -1); k >= 0 && st == CD_OK;
		    k = cd_game_nag_next(src, 0, k))
			st = cd_game_add_nag(dst, k);
		if (st == CD_OK)
			st = copy_notes(dst, src, src->nodes[0].after, what);
	}
	while (st == CD_OK) {
		if (n == 0 || (depth == 0 && left == 0)) {
			uint32_t v;

			if (depth == 0) {
				cut = n != 0;
				break;
			}
			st = cd_game_end_variation(dst, NULL);
			depth--;
			v = src->nodes[stack[depth].var].var_next;
			if (v != 0 && st == CD_OK) {
				st = cd_game_begin_variation(dst);
				stack[depth++].var = v;
				n = v;
			} else {
				n = src->nodes[stack[depth].node].next;
			}
			continue;
		}
		st = copy_move(dst, src, n, what);
		if (st == CD_OK && (what & (CLI_CUT_FEN_COMMENTS |
		    CLI_CUT_KEY_COMMENTS)))
			st = position_comments(dst, what &
			    (CLI_CUT_FEN_COMMENTS | CLI_CUT_KEY_COMMENTS));
		if (depth == 0 && left != CLI_CUT_ALL)
			left--;
		if (src->nodes[n].var != 0 && st == CD_OK) {
			cli_grow(&stack, &cap, depth, sizeof(*stack), 16);
			stack[depth].node = n;
			stack[depth++].var = src->nodes[n].var;
			st = cd_game_begin_variation(dst);
			n = src->nodes[n].var;
			continue;
		}
		n = src->nodes[n].next;
	}
	free(stack);
	/* (none in a game without moves, as with pgn-extract -F) */
	if (st == CD_OK && (what & CLI_CUT_FINAL_FEN) &&
	    dst->nodes[0].next != 0)
		st = position_comments(dst, CLI_CUT_FINAL_FEN);
	if (st == CD_ERR_NOMEM)
		cli_fatal("out of memory");
	/* (the moves of a game that parsed are legal where they stand:
	 * no other status) */
	cd_game_set_result(dst, cut ? CD_PGN_RESULT_UNKNOWN : src->result);
	/* a PlyCount tag counts what is left (as pgn-extract makes it) */
	if (cd_game_tag_value(dst, "PlyCount", NULL) != NULL) {
		char v[24];
		int len = snprintf(v, sizeof(v), "%lu",
		    cli_game_plies(dst, false));

		if (cd_game_add_tag(dst, "PlyCount", 8, v, (size_t)len) !=
		    CD_OK)
			cli_fatal("out of memory");
	}
}

void
cli_game_line(cd_game *dst, const cd_game *src, uint32_t v,
    bool from_position, unsigned what)
{
	uint32_t *path = NULL, p, n;
	size_t np = 0, cap = 0, i;
	cd_board b = src->start;
	cd_status st = CD_OK;
	int k;

	cd_game_clear(dst);
	st = copy_tags(dst, src);
	/* the moves that lead to v, last first */
	for (p = src->nodes[v].parent; p != 0; p = src->nodes[p].parent) {
		cli_grow(&path, &cap, np, sizeof(*path), 64);
		path[np++] = p;
	}
	if (from_position && np > 0) {
		for (i = np; i-- > 0;)
			cd_board_make(&b, src->nodes[path[i]].move);
		if (st == CD_OK)
			st = cd_game_set_start(dst, &b);
		np = 0;
	} else if (st == CD_OK) {
		st = cd_game_setup(dst, NULL);
		for (k = cd_game_nag_next(src, 0, -1); k >= 0 && st == CD_OK;
		    k = cd_game_nag_next(src, 0, k))
			st = cd_game_add_nag(dst, k);
		if (st == CD_OK)
			st = copy_notes(dst, src, src->nodes[0].after, what);
	}
	for (i = np; i-- > 0 && st == CD_OK;)
		st = copy_move(dst, src, path[i], what);
	for (n = v; n != 0 && st == CD_OK; n = src->nodes[n].next)
		st = copy_move(dst, src, n, what);
	free(path);
	if (st == CD_ERR_NOMEM)
		cli_fatal("out of memory");
	cd_game_set_result(dst, src->nodes[v].parent == 0 &&
	    v == src->nodes[0].next ? src->result : CD_PGN_RESULT_UNKNOWN);
}

size_t
cli_game_lines(const cd_game *g, uint32_t **out, size_t *cap)
{
	struct frame { uint32_t n, v; } *stack = NULL;
	size_t depth = 0, scap = 0, nout = 0;

	cli_grow(out, cap, nout, sizeof(**out), 16);
	(*out)[nout++] = g->nodes[0].next;
	if (g->nodes[0].next != 0) {
		cli_grow(&stack, &scap, depth, sizeof(*stack), 16);
		stack[depth].n = g->nodes[0].next;
		stack[depth++].v = 0;
	}
	while (depth > 0) {
		size_t top = depth - 1;
		uint32_t n = stack[top].n, v;

		if (n == 0) {
			depth--;
			continue;
		}
		v = stack[top].v == 0 ? g->nodes[n].var :
		    g->nodes[stack[top].v].var_next;
		if (v != 0) {
			stack[top].v = v;
			cli_grow(out, cap, nout, sizeof(**out), 16);
			(*out)[nout++] = v;
			cli_grow(&stack, &scap, depth, sizeof(*stack), 16);
			stack[depth].n = v;
			stack[depth++].v = 0;
			continue;
		}
		stack[top].n = g->nodes[n].next;
		stack[top].v = 0;
	}
	free(stack);
	return nout;
}

/* ---- --salvage ---- */

#define SALVAGE_CUTS 32	/* errors salvaged in one game, at most */
#define SALVAGE_DEPTH 64	/* variations open at a cut, at most */

struct cut {
	size_t at;		/* where the comment goes */
	unsigned long line, col;
	char msg[CD_ERROR_MSG_MAX];
};

/* The byte of text (whose first byte is at line 1, col 1) at line,
 * col; len when it is past the end. */
static size_t
text_at(const char *text, size_t len, unsigned long line, unsigned long col)
{
	size_t i = 0;
	const char *q;

	for (; line > 1; line--) {
		if ((q = memchr(text + i, '\n', len - i)) == NULL)
			return len;
		i = (size_t)(q - text) + 1;
	}
	return col > 0 && col - 1 < len - i ? i + col - 1 : len;
}

/* Cut the text at an error at byte at (movetext from byte mt): blank
 * the rest of the variation the error is in, or of the whole
 * variation when it keeps no move; the rest of the text when the error
 * is in the main line (*main set).  The place of the cut's comment
 * into *cut_at; false when the text is beyond what salvage does. */
static bool
cut_text(char *text, size_t *len, size_t mt, size_t at, size_t *cut_at,
    bool *main)
{
	size_t open[SALVAGE_DEPTH];
	bool moved[SALVAGE_DEPTH];
	unsigned depth = 0, d;
	cd_pgn_lexer lx;
	cd_pgn_token t;
	size_t i, end;

	cd_pgn_lex_init(&lx, text + mt, at - mt, 1, 1);
	while (cd_pgn_lex_next(&lx, &t) != CD_PGN_TOK_END) {
		if (t.type == CD_PGN_TOK_RAV_OPEN) {
			if (depth == SALVAGE_DEPTH)
				return false;
			open[depth] = (size_t)(t.raw - text);
			moved[depth++] = false;
		} else if (t.type == CD_PGN_TOK_RAV_CLOSE && depth > 0) {
			depth--;
		} else if (t.type == CD_PGN_TOK_MOVE && depth > 0) {
			moved[depth - 1] = true;
		}
	}
	*cut_at = at;
	if (depth == 0) {
		*len = at;
		*main = true;
		return true;
	}
	/* the `)` that closes the variation */
	cd_pgn_lex_init(&lx, text + at, *len - at, 1, 1);
	end = *len;
	for (d = 0; cd_pgn_lex_next(&lx, &t) != CD_PGN_TOK_END;) {
		if (t.type == CD_PGN_TOK_RAV_OPEN) {
			d++;
		} else if (t.type == CD_PGN_TOK_RAV_CLOSE) {
			if (d == 0) {
				end = (size_t)(t.raw - text);
				break;
			}
			d--;
		}
	}
	if (end == *len) {	/* never closed: the main line ends */
		*cut_at = *len = open[0];
		*main = true;
		return true;
	}
	if (!moved[depth - 1]) {	/* nothing left: drop it */
		at = open[depth - 1];
		end++;
		*cut_at = at;
	}
	for (i = at; i < end; i++)
		if (text[i] != '\n')
			text[i] = ' ';
	return true;
}

bool
cli_salvage(struct cli_job *j, const cd_pgn_raw_game *raw,
    const cd_error *err)
{
	static struct cut none;
	cd_pgn_parse_opts o = j->opts;
	struct cut cut[SALVAGE_CUTS];
	size_t ncut = 0, base, len, k, i;
	bool main = false, ok = false;
	cd_buf b = { 0 }, f = { 0 };
	cd_error e = *err;
	cd_status st = CD_ERR_SYNTAX;

	/* the text where it stood, so that lines and columns stay */
	if (raw->line == 0 || raw->col == 0)
		return false;
	base = (raw->line - 1) + (raw->col - 1);
	cli_buf_reserve(&b, base + raw->len + 1);
	memset(b.data, '\n', raw->line - 1);
	memset(b.data + raw->line - 1, ' ', raw->col - 1);
	memcpy(b.data + base, raw->text, raw->len);
	len = base + raw->len;
	o.warn = NULL;	/* (told at the first parse) */
	o.notice = NULL;
	while (ncut < SALVAGE_CUTS && !main) {
		size_t at = text_at(b.data, len, e.line, e.col);

		if (at < base + raw->movetext || at > len)
			goto out;	/* the tag section's */
		cut[ncut] = none;
		cut[ncut].line = e.line;
		cut[ncut].col = e.col;
		snprintf(cut[ncut].msg, sizeof(cut[ncut].msg), "%s",
		    e.msg[0] ? e.msg : cd_strerror(e.status));
		for (i = 0; cut[ncut].msg[i] != '\0'; i++)
			if (cut[ncut].msg[i] == '{' || cut[ncut].msg[i] == '}')
				cut[ncut].msg[i] = '?';
		if (!cut_text(b.data, &len, base + raw->movetext, at,
		    &cut[ncut].at, &main))
			goto out;
		ncut++;
		if (main)
			break;
		st = cd_pgn_parse_text(j->game, b.data, len, &o, &e);
		if (st == CD_ERR_NOMEM)
			cli_fatal("out of memory");
		if (st == CD_OK)
			break;
	}
	if (!main && st != CD_OK)
		goto out;
	/* the text with the comments, then the marker of a main line
	 * cut */
	for (k = i = 0; k < ncut; k++) {
		char c[CD_ERROR_MSG_MAX + 64];
		int n = snprintf(c, sizeof(c), " {salvaged: %s, at line %lu "
		    "col %lu} ", cut[k].msg, cut[k].line, cut[k].col);

		if (cut[k].at < i)	/* (a variation dropped around
					 * an earlier cut) */
			cut[k].at = i;
		cli_buf_reserve(&f, cut[k].at - i + (size_t)n);
		memcpy(f.data + f.len, b.data + i, cut[k].at - i);
		f.len += cut[k].at - i;
		memcpy(f.data + f.len, c, (size_t)n);
		f.len += (size_t)n;
		i = cut[k].at;
	}
	cli_buf_reserve(&f, len - i + 4);
	memcpy(f.data + f.len, b.data + i, len - i);
	f.len += len - i;
	if (main) {
		memcpy(f.data + f.len, " *\n", 3);
		f.len += 3;
	}
	st = cd_pgn_parse_text(j->game, f.data, f.len, &o, &e);
	if (st == CD_ERR_NOMEM)
		cli_fatal("out of memory");
	if (st != CD_OK || (main && cli_game_plies(j->game, false) == 0))
		goto out;
	if (main)	/* (the Result tag too) */
		j->game->result = CD_PGN_RESULT_UNKNOWN;
	for (k = 0; k < ncut; k++) {
		const struct cut *c = &cut[k];

		if (main && k == ncut - 1)
			cli_warn_at(j->file, c->line, c->col, "warning: game "
			    "%llu: %s: game kept up to ply %lu",
			    (unsigned long long)j->number, c->msg,
			    cli_game_plies(j->game, false));
		else
			cli_warn_at(j->file, c->line, c->col, "warning: game "
			    "%llu: %s: variation cut",
			    (unsigned long long)j->number, c->msg);
	}
	ok = true;
out:
	cd_buf_free(&b);
	cd_buf_free(&f);
	return ok;
}
