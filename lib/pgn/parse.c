/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn/parse.c: one raw game (from the PGN reader) into a cd_game, per
 * the import format of pgn(5).  Tokens come from the lexer (pgn/lex.c); every
 * move is read with cd_san_parse on the current position; variations go
 * through the game builder, whose stack lives on the heap, so the
 * parser has no recursion at all.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgn/lex.h"
#include "pgn/pgn_internal.h"
#include "pgn/reader.h"

struct parse {
	cd_game *g;
	const cd_pgn_raw_game *raw;
	const cd_pgn_parse_opts *o;
	cd_error *err;
	/* notation warnings, one summary per game */
	unsigned long odd_moves;
	char odd_first[128];
	unsigned long odd_line, odd_col;
};

/* A token for a message: at most 40 bytes, control bytes as \xNN. */
static void
show(char *out, size_t cap, const char *s, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n && k + 5 < cap; i++) {
		unsigned char c = (unsigned char)s[i];

		if (i == 40) {
			memcpy(out + k, "...", 3);
			k += 3;
			break;
		}
		if (c < 0x20 || c == 0x7f) {
			snprintf(out + k, cap - k, "\\x%02x", c);
			k += 4;
		} else {
			out[k++] = (char)c;
		}
	}
	out[k] = '\0';
}

/* The input offset of the byte at line, col (from 1, columns count
 * bytes) of the game. */
static uint64_t
place_offset(const cd_pgn_raw_game *raw, unsigned long line,
    unsigned long col)
{
	const char *p = raw->text, *e = raw->text + raw->len, *q;
	unsigned long l;
	size_t at;

	if (line < raw->line || line == 0 || col == 0)
		return raw->offset;
	if (line == raw->line) {
		at = col >= raw->col ? col - raw->col : 0;
	} else {
		for (l = raw->line; l < line && p < e; l++) {
			if ((q = memchr(p, '\n', (size_t)(e - p))) == NULL)
				break;
			p = q + 1;
		}
		at = (size_t)(p - raw->text) + (col - 1);
	}
	return raw->offset + (at < raw->len ? at : raw->len);
}

static cd_status
fail(struct parse *ps, cd_status st, unsigned long line, unsigned long col,
    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static cd_status
fail(struct parse *ps, cd_status st, unsigned long line, unsigned long col,
    const char *fmt, ...)
{
	va_list ap;

	if (ps->err) {
		ps->err->status = st;
		ps->err->offset = place_offset(ps->raw, line, col);
		ps->err->line = line;
		ps->err->col = col;
		va_start(ap, fmt);
		vsnprintf(ps->err->msg, sizeof(ps->err->msg), fmt, ap);
		va_end(ap);
	}
	return st;
}

static void
warn(struct parse *ps, unsigned long line, unsigned long col,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void
warn(struct parse *ps, unsigned long line, unsigned long col,
    const char *fmt, ...)
{
	char buf[320];
	va_list ap;

	if (ps->o->warn == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	ps->o->warn(ps->o->warn_ctx, line, col, buf);
}

/* "12." or "12..." for the move about to be played. */
static void
next_move_label(const cd_game *g, char *buf, size_t cap)
{
	const struct cd__line *l = &g->priv->line;
	uint32_t ply = g->nodes[l->has_move ? l->cur : l->base].ply + 1;

	snprintf(buf, cap, "%lu%s", cd__game_move_number(g, ply),
	    cd__game_mover(g, ply) == CD_WHITE ? "." : "...");
}

static cd_status
move_error(struct parse *ps, const cd_pgn_token *t, cd_status st,
    const char *why)
{
	char label[32], tok[64];

	next_move_label(ps->g, label, sizeof(label));
	show(tok, sizeof(tok), t->raw, t->raw_len);
	return fail(ps, st, t->line, t->col, "%s %s: %s", label, tok, why);
}

/* A move in a variation opened where no move stood: the variation
 * does not follow a move (reported at its `(`). */
static cd_status
no_anchor(struct parse *ps)
{
	const struct cd__line *l = &ps->g->priv->line;

	return fail(ps, CD_ERR_SYNTAX, l->line, l->col,
	    "variation does not follow a move");
}

/* Tags into the game, then the start position.  usual: parse_game's
 * (no warnings). */
static inline __attribute__((always_inline)) cd_status
read_tags(struct parse *ps, const bool usual)
{
	const cd_pgn_raw_game *raw = ps->raw;
	cd_game *g = ps->g;
	const uint32_t *known = g->priv->known;
	const cd_pgn_tag *t;
	cd_error se;
	cd_status st;
	size_t i, done;

	/* the tags all at once, or one by one after their warnings */
	if ((usual || ps->o->warn == NULL) && raw->ntags > 0) {
		bool plain = cd__raw_tags_plain(raw);

		/* (the game's block again, as in opening books, without
		 * the call) */
		t = raw->tags;
		if (!(plain && g->ntags == 0 &&
		    cd__game_tags_again(g, t, raw->ntags)) &&
		    (st = cd__game_add_tags(g, t, raw->ntags, plain,
		    &done)) != CD_OK)
			goto nomem;
	}
	for (i = 0; !usual && ps->o->warn != NULL && i < raw->ntags; i++) {
		size_t k;

		t = &raw->tags[i];
		for (k = 0; k < g->ntags; k++)
			if (g->tags[k].name_len == t->name_len &&
			    memcmp(g->str + g->tags[k].name, t->name,
			    t->name_len) == 0)
				break;
		if (k < g->ntags) {
			char nm[64];

			show(nm, sizeof(nm), t->name, t->name_len);
			warn(ps, t->line, t->col, "tag %s given twice: "
			    "the last value wins", nm);
		}
		for (k = 0; k < t->value_len; k++)
			if ((unsigned char)t->value[k] < 0x20 ||
			    t->value[k] == 0x7f)
				break;
		if (k < t->value_len) {
			char nm[64];

			show(nm, sizeof(nm), t->name, t->name_len);
			warn(ps, t->line, t->col, "control bytes in the "
			    "value of tag %s written as spaces", nm);
		}
		if ((st = cd__game_add_tags(g, t, 1, false, &done)) != CD_OK)
			goto nomem;
	}
	/* (without a FEN or Variant tag after a game without a FEN tag,
	 * cd__game_clear_start made the start and the line) */
	if ((known[KT_FEN] | known[KT_VARIANT] | (uint32_t)g->has_fen) == 0)
		goto made;
	st = cd__game_setup(g, &se);
	if (st == CD_ERR_UNSUPPORTED) {
		const cd_pgn_tag *var = cd_pgn_raw_tag(raw, "Variant");
		char v[64];

		show(v, sizeof(v), var->value, var->value_len);
		return fail(ps, st, var->line, var->col,
		    "unsupported variant '%s'", v);
	}
	if (st != CD_OK) {
		const cd_pgn_tag *fen = cd_pgn_raw_tag(raw, "FEN");

		return fail(ps, st, fen ? fen->line : raw->line,
		    fen ? fen->col : raw->col, "bad FEN: %s", se.msg);
	}
	if (g->priv->fen_cleared[0] != '\0' && ps->o->notice != NULL) {
		const cd_pgn_tag *fen = cd_pgn_raw_tag(raw, "FEN");
		const char *c;
		char msg[160];

		for (c = g->priv->fen_cleared; *c != '\0'; c++) {
			cd_fen_cleared_message((unsigned char)*c, g->chess960,
			    msg, sizeof(msg));
			ps->o->notice(ps->o->warn_ctx,
			    fen ? fen->line : raw->line,
			    fen ? fen->col : raw->col, msg);
		}
	}
made:
	if (!usual && ps->o->warn) {
		const cd_pgn_tag *su = cd_pgn_raw_tag(raw, "SetUp");
		const cd_pgn_tag *fen = cd_pgn_raw_tag(raw, "FEN");

		if (fen && !su)
			warn(ps, fen->line, fen->col,
			    "FEN tag without SetUp tag: SetUp added");
		else if (fen && su && !(su->value_len == 1 &&
		    su->value[0] == '1'))
			warn(ps, su->line, su->col, "SetUp tag is not \"1\" "
			    "but a FEN tag is given: the FEN is used");
		else if (su && !fen && !(su->value_len == 1 &&
		    su->value[0] == '0'))
			warn(ps, su->line, su->col,
			    "SetUp tag without FEN tag dropped");
	}
	return CD_OK;
nomem:
	cd__game_clear_end(g);	/* (no cd_game_setup) */
	return fail(ps, st, t[done].line, t[done].col, "out of memory");
}

/* Remember a move whose notation was not canonical SAN. */
static void
note_odd_move(struct parse *ps, const cd_pgn_token *t, uint32_t idx)
{
	const cd_game *g = ps->g;
	const cd_game_node *nd = &g->nodes[idx];

	if (t->len == nd->san_len && memcmp(t->text, nd->san, t->len) == 0)
		return;
	if (ps->odd_moves++ == 0) {
		char tok[64];

		show(tok, sizeof(tok), t->text, t->len);
		snprintf(ps->odd_first, sizeof(ps->odd_first), "%lu%s %s read "
		    "as %s", cd__game_move_number(g, nd->ply),
		    cd__game_mover(g, nd->ply) == CD_WHITE ? "." : "...", tok,
		    nd->san);
		ps->odd_line = t->line;
		ps->odd_col = t->col;
	}
}

#ifdef __SSE2__
/* 0xff in each byte of v that is `{`, `;` or `%`. */
static inline __m128i
note_bytes(__m128i v)
{
	return _mm_or_si128(_mm_or_si128(cd__eq8(v, '{'), cd__eq8(v, ';')),
	    cd__eq8(v, '%'));
}
#endif

#ifdef CD_AVX2
/* has_note_byte() with AVX2 for n >= 32: thirty-two bytes at a time,
 * the last thirty-two overlapping the ones before, the bytes found
 * gathered in one mask (a tag section is a few hundred bytes at most,
 * and seldom holds one).  `{` and `;` differ only in the bit 0x40: one
 * compare finds both. */
__attribute__((target("avx2"))) static bool
has_note_byte_avx2(const char *s, size_t n)
{
	__m256i bit = _mm256_set1_epi8(0x40), brace = _mm256_set1_epi8('{');
	__m256i pct = _mm256_set1_epi8('%');
	__m256i v, any = _mm256_setzero_si256();
	size_t i;

	/* (made once: GCC would make each again for the last thirty-two) */
	__asm__("" : "+x"(bit), "+x"(brace), "+x"(pct));

#define NOTE32(p)	(v = _mm256_loadu_si256((const void *)(p)), \
			any = _mm256_or_si256(any, _mm256_or_si256( \
			    _mm256_cmpeq_epi8(_mm256_or_si256(v, bit), brace), \
			    _mm256_cmpeq_epi8(v, pct))))
	for (i = 0; i + 32 < n; i += 32)
		NOTE32(s + i);
	NOTE32(s + n - 32);
#undef NOTE32
	return _mm256_movemask_epi8(any) != 0;
}
#endif

/* Whether one of the n bytes at s is `{`, `;` or `%`: with AVX2 where
 * the processor has it (has_note_byte_avx2), else thirty-two bytes at a
 * time, then sixteen, where SSE2 is (the last sixteen overlapping the
 * ones before). */
static bool
has_note_byte(const char *s, size_t n)
{
	size_t i = 0;

#ifdef CD_AVX2
	if (n >= 32 && cd__have_avx2)
		return has_note_byte_avx2(s, n);
#endif
#ifdef __SSE2__
	if (n >= 16) {
		for (; i + 32 <= n; i += 32)
			if (_mm_movemask_epi8(_mm_or_si128(note_bytes(
			    _mm_loadu_si128((const void *)(s + i))),
			    note_bytes(_mm_loadu_si128((const void *)
			    (s + i + 16))))) != 0)
				return true;
		if (i + 16 <= n && _mm_movemask_epi8(note_bytes(
		    _mm_loadu_si128((const void *)(s + i)))) != 0)
			return true;
		return _mm_movemask_epi8(note_bytes(_mm_loadu_si128(
		    (const void *)(s + n - 16)))) != 0;
	}
#endif
	for (; i < n; i++)
		if (s[i] == '{' || s[i] == ';' || s[i] == '%')
			return true;
	return false;
}

/* Add the comment of token t as ps->o asks. */
static cd_status
add_comment(struct parse *ps, const cd_pgn_token *t, bool *changed)
{
	if (ps->o->flags & CD_PGN_PARSE_COMMENTS_AS_WRITTEN)
		return cd__game_add_comment_as_written(ps->g, t->text, t->len);
	return cd_game_add_comment(ps->g, t->text, t->len, changed);
}

/* Comments, escape lines and errors in the tag section (rare: only
 * looked at when its bytes hold one of `{ ; %` or a bad tag); with
 * ps->g NULL the errors only (cd_pgn_raw_check_text). */
static cd_status
read_tag_section(struct parse *ps)
{
	const cd_pgn_raw_game *raw = ps->raw;
	cd_pgn_lexer lx;
	cd_pgn_token t;
	cd_status st = CD_OK;
	char tok[64];

	cd_pgn_lex_init(&lx, raw->text, raw->movetext, raw->line, raw->col);
	while (cd_pgn_lex_next(&lx, &t) != CD_PGN_TOK_END) {
		switch (t.type) {
		case CD_PGN_TOK_TAG:
			break;
		case CD_PGN_TOK_COMMENT:
			if (t.flags & CD_PGN_TOKF_UNCLOSED)
				return fail(ps, CD_ERR_SYNTAX, t.line, t.col,
				    "brace comment never closed");
			/* fall through */
		case CD_PGN_TOK_LINE_COMMENT:
			if (ps->g != NULL)
				st = add_comment(ps, &t, NULL);
			break;
		case CD_PGN_TOK_ESCAPE:
			if (ps->g != NULL)
				st = cd_game_add_escape(ps->g, t.text, t.len);
			break;
		default:
			show(tok, sizeof(tok), t.raw, t.raw_len);
			return fail(ps, CD_ERR_SYNTAX, t.line, t.col,
			    "tag pair that does not read: %s", tok);
		}
		if (st != CD_OK)
			return fail(ps, st, t.line, t.col, "out of memory");
	}
	return CD_OK;
}

/* A brace comment at q (a `{`, where lx stands) with nothing to fold in
 * it but single spaces, added without a token
 * (cd__game_add_plain_comment): 1 (lx is past it), 0 for any other
 * comment (nothing done), or a failure's status (negative). */
static inline __attribute__((always_inline)) int
plain_comment(struct parse *ps, cd_pgn_lexer *lx, const char *q)
{
	cd_status st;
	const char *w = cd__game_add_plain_comment(ps->g, q + 1,
	    cd__lex_end(lx), &st);

	if (w == NULL)
		return 0;
	if (st != CD_OK)
		return fail(ps, st, cd__lex_line(lx), cd__lex_col(lx, q), "%s",
		    cd_strerror(st));
	cd__lex_skip(lx, w);
	return 1;
}

/* What the parser keeps of a game's movetext between its tokens. */
struct movetext {
	bool ended;		/* the termination marker was read */
	bool warned_after;	/* a comment after it was warned of */
	bool keep;		/* something to keep after each move
				 * (priv->keep, set before) */
	/* a word the fast path could not resolve: not tried again */
	const char *tried;
	size_t tried_len;
	/* the termination marker the reader found, when the fast path can
	 * take it from there: its canonical text, a word alone (white
	 * space or the game's end after it) */
	const char *res_at;
	size_t res_len;
	unsigned long res_line, res_col;	/* where the marker stood */
};

/* Whether the n bytes at a and at b are the same, for n from 1 to 8:
 * two loads of four bytes of each that overlap, or three bytes (the
 * first, the middle and the last). */
static inline bool
same_short(const char *a, const char *b, size_t n)
{
	uint32_t w[4];

	if (n >= 4) {
		memcpy(&w[0], a, 4);
		memcpy(&w[1], a + n - 4, 4);
		memcpy(&w[2], b, 4);
		memcpy(&w[3], b + n - 4, 4);
		return ((w[0] ^ w[2]) | (w[1] ^ w[3])) == 0;
	}
	return a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1];
}

/* The canonical termination markers by cd_pgn_result (none for
 * CD_PGN_RESULT_NONE), as the last bytes of eight, and the mask of
 * those bytes: marker_at compares the eight bytes that end where the
 * movetext ends with one of them. */
static const char marker_word[5][8] = {
	"", "\0\0\0\0\0" "1-0", "\0\0\0\0\0" "0-1", "\0" "1/2-1/2",
	"\0\0\0\0\0\0\0" "*"
};
static const char marker_mask[5][8] = {
	"", "\0\0\0\0\0\xff\xff\xff", "\0\0\0\0\0\xff\xff\xff",
	"\0\xff\xff\xff\xff\xff\xff\xff", "\0\0\0\0\0\0\0\xff"
};

/* The reader's termination marker at the movetext's end, for the fast
 * path (mt->res_at, NULL when it cannot take it): by one load of the
 * eight bytes before the end where the game has them, else by the
 * marker's bytes. */
static inline __attribute__((always_inline)) void
marker_at(const cd_pgn_raw_game *raw, struct movetext *mt)
{
	size_t end = raw->movetext_end, n;
	unsigned r = (unsigned)raw->result;
	const char *a;
	uint64_t w, want, mask;
	bool same;

	mt->res_at = NULL;
	if (r - 1 >= 4 || end > raw->len)
		return;
	/* (the canonical texts are 1 to 7 bytes) */
	n = cd__pgn_result_len[r];
	if (end < raw->movetext || end - raw->movetext < n)
		return;
	a = raw->text + end - n;
	if (end >= 8) {
		memcpy(&w, raw->text + end - 8, 8);
		memcpy(&want, marker_word[r], 8);
		memcpy(&mask, marker_mask[r], 8);
		same = ((w ^ want) & mask) == 0;
	} else {
		same = same_short(a, cd__pgn_results[r], n);
	}
	mt->res_len = n;
	if (same && (end == raw->len || CD__IS_WS(a[n])))
		mt->res_at = a;
}

/* What becomes of a move word q..w that the fast SAN reader answered
 * k (cd__game_add_san_fast's answer) on, lx at q: 1 added (lx past it,
 * the move kept when mt->keep), 0 left to the lexer (mt->tried), or a
 * failure's status (negative). */
static int
fast_answer(struct parse *ps, cd_pgn_lexer *lx, struct movetext *mt,
    const char *q, const char *w, int k)
{
	if (k > 0) {
		cd__lex_skip(lx, w);
		if (!mt->keep || cd__game_keep(ps->g) == CD_OK)
			return 1;
		k = CD_ERR_NOMEM;
	}
	if (k == CD_ERR_ARG)
		return no_anchor(ps);
	if (k < 0)
		return fail(ps, (cd_status)k, cd__lex_line(lx),
		    cd__lex_col(lx, q), "%s", cd_strerror((cd_status)k));
	mt->tried = q;	/* same word, same answer */
	mt->tried_len = (size_t)(w - q);
	return 0;
}

/* A move word q..w that the lexer's fast path found, for the fast SAN
 * reader: as fast_answer. */
static inline __attribute__((always_inline)) int
fast_move(struct parse *ps, cd_pgn_lexer *lx, struct movetext *mt,
    const char *q, const char *w)
{
	cd_game *const g = ps->g;
	int k = g->priv->line.keyless ?
	    cd__game_add_san_keyless(g, q, (size_t)(w - q)) :
	    cd__game_add_san_run(g, q, (size_t)(w - q));

	if (__builtin_expect(k > 0 && !mt->keep, 1)) {
		cd__lex_skip(lx, w);
		return 1;
	}
	return fast_answer(ps, lx, mt, q, w, k);
}

/*
 * move_run's loop from *pp while the place is below lim (as an
 * integer), *pp moved on: 2 at lim, 0 where the run stops, 1 at a word
 * left to the lexer (lx there, mt->tried), or a failure's status
 * (negative).  Where !last, every word's sixteen bytes are readable
 * (lim at most e - 17: a space before it); else a word's length is
 * found by one load of the sixteen bytes that end the text where the
 * game has them, else by cd__word_end.
 */
static inline __attribute__((always_inline)) int
run_to(struct parse *ps, cd_pgn_lexer *lx, struct movetext *mt,
    const char **pp, uintptr_t lim, bool last, const bool keyless)
{
	cd_game *const g = ps->g;
	const char *p = *pp, *const e = cd__lex_end(lx);
	/* (as an integer: the text may be shorter) */
	const uintptr_t e16 = (uintptr_t)e - 16;
	const unsigned char *const cls = cd__lex_run_cls;
	/* the fast reader's answers that the run does not take: 0 and
	 * below, and 1 (a move added) too when the move is kept */
	const int leave = mt->keep ? 1 : 0;
	int r = 2;

	while ((uintptr_t)p < lim) {
		unsigned c = CD__U(*p), t;

		if (c == ' ')
			c = CD__U(*++p);
		t = cls[c];
		if (__builtin_expect(t == CD__RUN_WORD, 1)) {
			size_t n;
			int k;

			if (!last || (uintptr_t)p <= e16)
				n = cd__word_len16(p);
			else if (e16 >= (uintptr_t)ps->raw->text)
				n = cd__word_len_last(p, (const char *)e16);
			else
				n = (size_t)(cd__word_end(p, e) - p);
			k = keyless ? cd__game_add_san_keyless(g, p, n) :
			    cd__game_add_san_run(g, p, n);
			if (__builtin_expect(k <= leave, 0)) {
				cd__lex_skip(lx, p);
				k = fast_answer(ps, lx, mt, p, p + n, k);
				if (k <= 0)
					return k < 0 ? k : 1;
			}
			p += n;
		} else if (t == CD__RUN_DIGIT) {
			const char *w = cd__lex_run_number(p);

			if (w == NULL) {
				r = 0;
				break;
			}
			p = w;
		} else if (t == CD__RUN_STOP) {
			r = 0;
			break;
		} else if (t == CD__RUN_CR) {
			if (p[1] == '\n') {
				cd__lex_newline(lx, p + 1);
				p++;
			}
			p++;
		} else {
			cd__lex_newline(lx, p);	/* (CD__RUN_LF) */
			p++;
		}
	}
	*pp = p;
	return r;
}

/* run_to's two loops over the text before e (move_run), the line
 * keyless or not. */
static inline __attribute__((always_inline)) int
run_loops(struct parse *ps, cd_pgn_lexer *lx, struct movetext *mt,
    const char **pp, const char *e, const bool keyless)
{
	int k = run_to(ps, lx, mt, pp, (uintptr_t)e - 17, false, keyless);

	if (k == 2)
		k = run_to(ps, lx, mt, pp, (uintptr_t)e - 4, true, keyless);
	return k;
}

/*
 * The run of moves at lx's place, with their numbers ("12." or "9."
 * with one period) and single spaces or line ends (LF or CR LF)
 * between, the place in a register until the run ends: at anything
 * else (two spaces, a comment, a number of three digits or with "...",
 * the termination marker), at a word that the fast SAN reader leaves,
 * or four bytes before the text's end; lx is moved to there.  What a
 * byte starts is cd__lex_run_cls's; a word's length is found by one
 * sixteen-byte load (cd__word_len16: a word of sixteen bytes or more,
 * which the fast reader leaves, as sixteen), in two loops (run_to):
 * while seventeen bytes are left, then to the end.  0: cd__lex_fast
 * goes on from lx's place (the caller looks for the marker there
 * first); 1: a word left to the lexer is there (mt->tried); or a
 * failure's status (negative).
 */
static inline __attribute__((always_inline)) int
move_run(struct parse *ps, cd_pgn_lexer *lx, struct movetext *mt)
{
	const char *p = cd__lex_place(lx), *const e = cd__lex_end(lx);
	int k;

	if (e - p <= 4)
		return 0;
	/* (keyless or not for the whole run: a variation, which makes
	 * the line keyed, begins in none) */
	k = ps->g->priv->line.keyless ? run_loops(ps, lx, mt, &p, e, true) :
	    run_loops(ps, lx, mt, &p, e, false);
	if (k == 1 || k < 0)
		return k;
	cd__lex_skip(lx, p);
	return 0;
}

/* A move token (a failure reported). */
static cd_status
lexed_move(struct parse *ps, struct movetext *mt, const cd_pgn_token *t)
{
	cd_game *g = ps->g;
	struct cd__game_priv *p = g->priv;
	const cd_board *b = &p->line.board;
	cd_error se;
	cd_status st;
	cd_move m;
	uint32_t idx;
	int k;

	if (p->line.anchorless)
		return no_anchor(ps);
	if (ps->o->lang == NULL && (t->text != mt->tried ||
	    t->len != mt->tried_len) &&
	    (k = cd__game_add_san_fast(g, t->text, t->len, &idx)) != 0) {
		if (k == CD_ERR_ARG)
			return no_anchor(ps);
		st = (cd_status)k;
		if (k > 0) {
			st = mt->keep ? cd__game_keep(g) : CD_OK;
			if (ps->o->warn)
				note_odd_move(ps, t, idx);
		}
		goto out;
	}
	st = cd_san_parse(b, t->text, t->len, ps->o->lang, 0, &m, &se);
	if (st != CD_OK)
		return move_error(ps, t, st, se.msg);
	if (m == CD_MOVE_NULL) {
		if (cd_board_in_check(b))
			return move_error(ps, t, CD_ERR_ILLEGAL,
			    "null move while in check");
		if ((ps->o->flags & CD_PGN_PARSE_NO_NULL_MAIN) &&
		    p->depth == 0)
			return move_error(ps, t, CD_ERR_UNSUPPORTED,
			    "null move in the main line "
			    "(not allowed in reduced form)");
		if (ps->o->flags & CD_PGN_PARSE_NO_NULL)
			return move_error(ps, t, CD_ERR_UNSUPPORTED,
			    "a null move, which PGC cannot hold");
	}
	st = cd__game_add_move_trusted(g, m, &idx);
	if (st == CD_ERR_ARG)
		return no_anchor(ps);
	if (st == CD_OK) {
		if (mt->keep)
			st = cd__game_keep(g);
		if (ps->o->warn)
			note_odd_move(ps, t, idx);
	}
out:
	if (st != CD_OK)
		return fail(ps, st, t->line, t->col, "%s", cd_strerror(st));
	return CD_OK;
}

/* A comment token, brace or line (a failure reported). */
static cd_status
lexed_comment(struct parse *ps, struct movetext *mt, const cd_pgn_token *t)
{
	bool changed = false;
	cd_status st;

	if (t->flags & CD_PGN_TOKF_UNCLOSED)
		return fail(ps, CD_ERR_SYNTAX, t->line, t->col,
		    "brace comment never closed");
	st = add_comment(ps, t,
	    t->type == CD_PGN_TOK_LINE_COMMENT ? &changed : NULL);
	if (changed)
		warn(ps, t->line, t->col, "`}` in a comment written as a space");
	if (mt->ended && !mt->warned_after) {
		warn(ps, t->line, t->col, "comment after the termination "
		    "marker moved before it");
		mt->warned_after = true;
	}
	if (st != CD_OK)
		return fail(ps, st, t->line, t->col, "%s", cd_strerror(st));
	return CD_OK;
}

/* A `)` (a failure reported). */
static cd_status
lexed_close(struct parse *ps, const cd_pgn_token *t)
{
	struct cd__game_priv *p = ps->g->priv;
	bool empty = false;
	bool held = p->line.pending != 0 || p->line.pending_nags != 0;
	unsigned long vl = p->line.line, vc = p->line.col;
	cd_status st;

	if (p->depth == 0)
		return fail(ps, CD_ERR_SYNTAX, t->line, t->col,
		    "unbalanced parentheses: `)` closes no variation");
	st = cd_game_end_variation(ps->g, &empty);
	if (empty && held)
		warn(ps, vl, vc, "variation without a move: its comments and "
		    "NAGs kept as those of the move before");
	else if (empty)
		warn(ps, vl, vc, "empty variation dropped");
	if (st != CD_OK)
		return fail(ps, st, t->line, t->col, "%s", cd_strerror(st));
	return CD_OK;
}

/* A token of the movetext that the lexer read (a failure reported). */
static cd_status
lexed(struct parse *ps, struct movetext *mt, const cd_pgn_token *t)
{
	cd_game *g = ps->g;
	struct cd__game_priv *p = g->priv;
	cd_status st = CD_OK;
	char tok[64];

	if (mt->ended && t->type != CD_PGN_TOK_COMMENT &&
	    t->type != CD_PGN_TOK_LINE_COMMENT &&
	    t->type != CD_PGN_TOK_ESCAPE) {
		show(tok, sizeof(tok), t->raw, t->raw_len);
		return fail(ps, CD_ERR_SYNTAX, t->line, t->col,
		    "%s after the termination marker", tok);
	}
	switch (t->type) {
	case CD_PGN_TOK_MOVENUM:
	case CD_PGN_TOK_EP:
		break;
	case CD_PGN_TOK_MOVE:
		return lexed_move(ps, mt, t);
	case CD_PGN_TOK_SUFFIX:
	case CD_PGN_TOK_NAG:
	case CD_PGN_TOK_EVAL:
		if (t->num < 0 || t->num > 255) {
			show(tok, sizeof(tok), t->raw, t->raw_len);
			return fail(ps, CD_ERR_SYNTAX, t->line, t->col,
			    "NAG %s out of range (0 to 255)", tok);
		}
		/* (before a first move: written before it) */
		st = cd_game_add_nag(g, (int)t->num);
		break;
	case CD_PGN_TOK_RESULT:
		if (p->depth > 0) {
			warn(ps, t->line, t->col, "termination marker "
			    "inside a variation ignored");
			break;
		}
		g->result = (cd_pgn_result)t->num;
		mt->res_line = t->line;
		mt->res_col = t->col;
		mt->ended = true;
		break;
	case CD_PGN_TOK_COMMENT:
	case CD_PGN_TOK_LINE_COMMENT:
		return lexed_comment(ps, mt, t);
	case CD_PGN_TOK_ESCAPE:
		st = cd_game_add_escape(g, t->text, t->len);
		break;
	case CD_PGN_TOK_RAV_OPEN:
		if (!p->line.has_move && p->depth == 0)
			return fail(ps, CD_ERR_SYNTAX, t->line, t->col,
			    "variation does not follow a move");
		st = cd_game_begin_variation(g);
		p->line.line = t->line;
		p->line.col = t->col;
		break;
	case CD_PGN_TOK_RAV_CLOSE:
		return lexed_close(ps, t);
	case CD_PGN_TOK_STRING:
		return fail(ps, CD_ERR_SYNTAX, t->line, t->col,
		    "unreadable token: a quoted string in movetext");
	case CD_PGN_TOK_TAG:
		return fail(ps, CD_ERR_SYNTAX, t->line, t->col,
		    "unreadable token: a tag pair in movetext");
	default:
		show(tok, sizeof(tok), t->raw, t->raw_len);
		return fail(ps, CD_ERR_SYNTAX, t->line, t->col,
		    "unreadable token '%s'", tok);
	}
	if (st != CD_OK)
		return fail(ps, st, t->line, t->col, "%s", cd_strerror(st));
	return CD_OK;
}

/* The warnings of a game's end: its marker and Result tag, its moves
 * not in canonical SAN. */
static void
end_warnings(struct parse *ps, const struct movetext *mt)
{
	const cd_pgn_raw_game *raw = ps->raw;
	cd_game *g = ps->g;
	size_t vlen = 0;
	const char *v = cd_game_tag_value(g, "Result", &vlen);
	const char *r;
	char tok[64];

	if (!mt->ended) {
		r = cd_pgn_result_str(cd_game_result(g));
		warn(ps, raw->line, raw->col, "no termination marker: "
		    "result %s%s", r, v != NULL &&
		    strcmp(v, r) == 0 ? " from the Result tag" : "");
	} else if (v == NULL) {
		warn(ps, mt->res_line, mt->res_col, "no Result tag: taken from "
		    "the termination marker");
	} else if (strcmp(v, cd_pgn_result_str(g->result)) != 0) {
		show(tok, sizeof(tok), v, vlen);
		warn(ps, mt->res_line, mt->res_col, "Result tag \"%s\" "
		    "disagrees with the termination marker %s: the marker "
		    "wins", tok, cd_pgn_result_str(g->result));
	}
	if (ps->odd_moves == 1)
		warn(ps, ps->odd_line, ps->odd_col, "move %s",
		    ps->odd_first);
	else if (ps->odd_moves > 1)
		warn(ps, ps->odd_line, ps->odd_col, "%lu moves not in "
		    "canonical SAN (first: %s)", ps->odd_moves,
		    ps->odd_first);
}

/* The movetext into the game.  usual: parse_game's (English, no
 * warnings, no nested comments, nothing kept after each move: the
 * fast path always, mt.keep false). */
static inline __attribute__((always_inline)) cd_status
read_movetext(struct parse *ps, const bool usual)
{
	const cd_pgn_raw_game *raw = ps->raw;
	cd_game *g = ps->g;
	struct cd__game_priv *p = g->priv;
	/* the fast path: English, and no warnings to look for */
	bool fast = usual || (ps->o->lang == NULL && ps->o->warn == NULL);
	bool nested = !usual &&
	    (ps->o->flags & CD_PGN_PARSE_NESTED_COMMENTS) != 0;
	struct movetext mt = { .keep = !usual && p->keep != 0 };
	cd_pgn_lexer lx;
	cd_pgn_token t;
	cd_status st;
	char *copy = NULL;	/* a nested comment's text */

	cd__lex_init(&lx, raw->text + raw->movetext,
	    raw->len - raw->movetext, raw->movetext_line, raw->movetext_col);
	if (fast)
		marker_at(raw, &mt);
	for (;;) {
		/* The bulk of movetext, move numbers, plain moves and
		 * comments with nothing to fold but single spaces, read
		 * through the lexer's fast path without a token; anything
		 * else, or a move or comment the fast reader leaves alone,
		 * goes to the lexer's tokens from its start. */
		if (fast && !mt.ended) {
			const char *q, *w;
			int k = move_run(ps, &lx, &mt);

			if (k < 0)
				return (cd_status)k;
			if (k > 0)
				goto token;
			/* (where a run stops: the marker, a comment, or
			 * cd__lex_fast's) */
			q = cd__lex_place(&lx);
			if (q == mt.res_at && p->depth == 0)
				goto marker;
			if (q < cd__lex_end(&lx) && *q == '{')
				goto brace;
			k = cd__lex_fast(&lx, &q, &w);
			if (k == CD__LEX_END)
				break;
			if (k == CD__LEX_WORD) {
				k = fast_move(ps, &lx, &mt, q, w);
				if (k > 0)
					continue;
				if (k < 0)
					return (cd_status)k;
			}
			if (q == mt.res_at && p->depth == 0) {
				/* the marker, as the lexer reads it (a
				 * CD_PGN_TOK_RESULT); then the end, when
				 * only white space follows */
marker:
				g->result = raw->result;
				mt.ended = true;
				if (cd__lex_skip_last(&lx, q + mt.res_len))
					break;
				continue;
			}
brace:
			if (*q == '{' && (!nested ||
			    !cd__lex_maybe_nested(q, cd__lex_end(&lx)))) {
				k = plain_comment(ps, &lx, q);
				if (k < 0)
					return (cd_status)k;
				if (k > 0)
					continue;
			}
		}
token:
		if ((nested ? cd__lex_next_nested(&lx, &t, &copy) :
		    cd_pgn_lex_next(&lx, &t)) == CD_PGN_TOK_END)
			break;
		st = lexed(ps, &mt, &t);
		if (copy != NULL) {
			free(copy);
			copy = NULL;
		}
		if (st != CD_OK)
			return st;
	}
	if (p->depth > 0)
		return fail(ps, CD_ERR_SYNTAX, p->line.line, p->line.col,
		    "unbalanced parentheses: variation never closed");
	if (!usual && ps->o->warn)
		end_warnings(ps, &mt);
	return CD_OK;
}

/*
 * cd_pgn_parse with o (never NULL), inline in parse_usual and
 * parse_other.  usual: o asks for no warnings, no language, no nested
 * comments and nothing kept after each move (positions or keys), so
 * that those tests are constants (the parser of most tools, and of
 * opening books, whose games are a few moves: what is done once a
 * game counts there).
 */
static inline __attribute__((always_inline)) cd_status
parse_game(cd_game *g, const cd_pgn_raw_game *raw,
    const cd_pgn_parse_opts *o, cd_error *err, const bool usual)
{
	struct parse ps;
	cd_status st;

	/* (odd_first is written before it is read: with the first odd
	 * move) */
	ps.g = g;
	ps.raw = raw;
	ps.o = o;
	ps.err = err;
	ps.odd_moves = 0;
	ps.odd_line = ps.odd_col = 0;
	if (raw->flags & (CD_PGN_RAW_NUL | CD_PGN_RAW_TOO_LARGE))
		return cd_pgn_raw_check(raw, err);
	cd__error_ok(err);
	/* (read_tags ends with cd_game_setup, which makes the start
	 * position and the line) */
	cd__game_clear_start(g);
	if ((st = read_tags(&ps, usual)) != CD_OK)
		return st;
	/* (a section the reader noted as tags and white space only holds
	 * no note) */
	if (raw->movetext > 0 && ((raw->flags & CD_PGN_RAW_BAD_TAG) ||
	    (!cd__raw_section_bare(raw) &&
	    has_note_byte(raw->text, raw->movetext))))
		if ((st = read_tag_section(&ps)) != CD_OK)
			return st;
	/* the position before each move is not kept until a variation
	 * opens (most games have none): the first one makes it again from
	 * the main line, and from then on it is kept */
	g->priv->line.prev_stale = true;
	/* what to keep after each move (cd__game_clear_start made it
	 * nothing: keep 0, keys_ok false); the start is the line's
	 * position before its first move: the first kept */
	if (!usual &&
	    (ps.o->flags & (CD_PGN_PARSE_POSITIONS | CD_PGN_PARSE_MAIN_KEYS))) {
		if ((ps.o->flags & CD_PGN_PARSE_POSITIONS) &&
		    cd__game_position_keep(g) != CD_OK)
			return CD_ERR_NOMEM;
		g->priv->keep = (uint8_t)((g->positions != NULL ?
		    CD__KEEP_POSITIONS : 0) |
		    ((ps.o->flags & CD_PGN_PARSE_MAIN_KEYS) ?
		    CD__KEEP_KEYS : 0));
		g->priv->keys_ok = (ps.o->flags & CD_PGN_PARSE_MAIN_KEYS) != 0;
	}
	/* a game that keeps no key after its moves: the line's key is
	 * made once, at the end, not with each move of the main line */
	g->priv->line.keyless = g->priv->keep == 0 &&
	    raw->len - raw->movetext >= CD__KEYLESS_MIN;
	st = read_movetext(&ps, usual);
	cd__line_keyed(&g->priv->line);
	return st;
}

/* parse_game of the usual options.  Flattened: every call in it of a
 * function whose body is at hand is inline (the lexer's fast path,
 * cd__lex_fast, which GCC would leave out of line now that two
 * functions call it, and what the movetext's tokens call: rare, few
 * bytes). */
static __attribute__((flatten)) cd_status
parse_usual(cd_game *g, const cd_pgn_raw_game *raw,
    const cd_pgn_parse_opts *o, cd_error *err)
{
	return parse_game(g, raw, o, err, true);
}

/* parse_game of any other. */
static cd_status
parse_other(cd_game *g, const cd_pgn_raw_game *raw,
    const cd_pgn_parse_opts *o, cd_error *err)
{
	return parse_game(g, raw, o, err, false);
}

cd_status
cd_pgn_parse(cd_game *g, const cd_pgn_raw_game *raw,
    const cd_pgn_parse_opts *opts, cd_error *err)
{
	static const cd_pgn_parse_opts none;
	const cd_pgn_parse_opts *o = opts ? opts : &none;

	if (o->warn == NULL && o->lang == NULL &&
	    (o->flags & (CD_PGN_PARSE_NESTED_COMMENTS |
	    CD_PGN_PARSE_POSITIONS | CD_PGN_PARSE_MAIN_KEYS)) == 0)
		return parse_usual(g, raw, o, err);
	return parse_other(g, raw, o, err);
}

cd_status
cd_pgn_raw_check_text(const cd_pgn_raw_game *raw, cd_error *err)
{
	struct parse ps;

	cd_pgn_lexer lx;
	cd_pgn_token t;
	cd_status st;

	if (raw->flags & (CD_PGN_RAW_NUL | CD_PGN_RAW_TOO_LARGE))
		return cd_pgn_raw_check(raw, err);
	cd__error_ok(err);
	if (!(raw->flags & (CD_PGN_RAW_BAD_TAG | CD_PGN_RAW_UNCLOSED_COMMENT)))
		return CD_OK;
	memset(&ps, 0, sizeof(ps));
	ps.raw = raw;
	ps.err = err;
	if (raw->movetext > 0 && (st = read_tag_section(&ps)) != CD_OK)
		return st;
	if (!(raw->flags & CD_PGN_RAW_UNCLOSED_COMMENT))
		return CD_OK;
	/* (only the comment's `{` ends the lexer's view of it) */
	cd_pgn_lex_init(&lx, raw->text + raw->movetext,
	    raw->len - raw->movetext, raw->movetext_line, raw->movetext_col);
	while (cd_pgn_lex_next(&lx, &t) != CD_PGN_TOK_END)
		if (t.type == CD_PGN_TOK_COMMENT &&
		    (t.flags & CD_PGN_TOKF_UNCLOSED))
			return fail(&ps, CD_ERR_SYNTAX, t.line, t.col,
			    "brace comment never closed");
	return CD_OK;
}

cd_status
cd_pgn_parse_text(cd_game *g, const char *text, size_t len,
    const cd_pgn_parse_opts *opts, cd_error *err)
{
	cd_pgn_reader *r = cd_pgn_reader_new_mem(text, len);
	cd_pgn_raw_game raw;
	cd_status st;

	if (r == NULL)
		return CD_ERR_NOMEM;
	st = cd_pgn_reader_next(r, &raw);
	if (st == CD_OK)
		st = cd_pgn_parse(g, &raw, opts, err);
	else if (st == CD_EOF && (raw.flags & CD_PGN_RAW_SKIPPED_BINARY))
		cd__error_set(err, st = CD_ERR_CORRUPT, 0, raw.skipped_line,
		    1, "not PGN text: binary data (%llu bytes)",
		    (unsigned long long)raw.skipped_bytes);
	else
		cd__error_set(err, st, 0, 0, 0, "%s", cd_strerror(st));
	cd_pgn_reader_free(r);
	return st;
}

cd_status
cd_pgn_reader_read(cd_pgn_reader *r, const cd_game **out)
{
	cd_pgn_raw_game raw;
	cd_error *err;
	cd_game **g = cd__pgn_reader_game(r, &err);
	cd_status st;

	*out = NULL;
	if (*g == NULL && (*g = cd_game_new()) == NULL)
		return CD_ERR_NOMEM;
	st = cd_pgn_reader_next(r, &raw);
	if (st != CD_OK)
		return st;	/* CD_EOF, or the reader's error */
	st = cd_pgn_parse(*g, &raw, NULL, err);
	if (st == CD_OK)
		*out = *g;
	return st;
}
