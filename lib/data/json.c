/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * json.c: games as data (see chessdata/json.h): valid UTF-8 text, JSON
 * strings, TSV and CSV fields, a game as one NDJSON line, the computed
 * fields of a table row.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/internal.h"
#include "chessdata/comment.h"
#include "chessdata/json.h"
#include "chessdata/polyglot.h"
#include "chessdata/rules.h"
#include "chessdata/timecontrol.h"
#include "data/outcome.h"

/* ---- the output buffer ---- */

static int
grow(cd_buf *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 256;
	char *p;

	while (cap - b->len < n) {
		if (cap > SIZE_MAX / 2)
			return -1;
		cap *= 2;
	}
	if ((p = realloc(b->data, cap)) == NULL)
		return -1;
	b->data = p;
	b->cap = cap;
	return 0;
}

/* Room for n more bytes. */
static inline int
reserve(cd_buf *b, size_t n)
{
	return b->cap - b->len >= n ? 0 : grow(b, n);
}

static inline cd_status
put(cd_buf *b, const char *s, size_t n)
{
	if (n == 0)
		return CD_OK;	/* (s and b->data may be NULL) */
	if (reserve(b, n) != 0)
		return CD_ERR_NOMEM;
	memcpy(b->data + b->len, s, n);
	b->len += n;
	return CD_OK;
}

static inline cd_status
puts_(cd_buf *b, const char *s)
{
	return put(b, s, strlen(s));
}

static cd_status
put_u64(cd_buf *b, uint64_t v)
{
	char tmp[24];

	return put(b, tmp, (size_t)(cd__put_uint(tmp, v) - tmp));
}

static cd_status
put_i64(cd_buf *b, int64_t v)
{
	char tmp[24], *p = tmp;

	if (v < 0)
		*p++ = '-';
	p = cd__put_uint(p, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v);
	return put(b, tmp, (size_t)(p - tmp));
}

/* Nanoseconds as seconds, every digit that is not a trailing zero:
 * "180", "58.6", "0.05", "59.99999", "-1.5". */
static cd_status
put_seconds(cd_buf *b, int64_t ns)
{
	char tmp[40], *p = tmp;
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	uint32_t f = (uint32_t)(a % 1000000000), d;

	if (ns < 0)
		*p++ = '-';
	p = cd__put_uint(p, a / 1000000000);
	if (f != 0) {
		*p++ = '.';
		for (d = 100000000; d > 0 && f != 0; d /= 10) {
			*p++ = (char)('0' + f / d);
			f %= d;
		}
	}
	return put(b, tmp, (size_t)(p - tmp));
}

/* ---- UTF-8 ---- */

/* The length of the valid UTF-8 sequence at s (1..4), or 0 when the
 * byte at s starts none (then it is read as Latin-1). */
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0];

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return n >= 2 && (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		if (n < 3 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80)
			return 0;
		if (c == 0xe0 && s[1] < 0xa0)
			return 0;	/* overlong */
		if (c == 0xed && s[1] >= 0xa0)
			return 0;	/* surrogate */
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		if (n < 4 || (s[1] & 0xc0) != 0x80 ||
		    (s[2] & 0xc0) != 0x80 || (s[3] & 0xc0) != 0x80)
			return 0;
		if (c == 0xf0 && s[1] < 0x90)
			return 0;	/* overlong */
		if (c == 0xf4 && s[1] >= 0x90)
			return 0;	/* above U+10FFFF */
		return 4;
	}
	return 0;
}

#define ONES	0x0101010101010101ULL
#define HIGHS	0x8080808080808080ULL

/* Whether the eight bytes of w hold one that text() must look at: a
 * control byte, DEL, `"`, `\\` or a byte of 0x80 or above (any escape
 * table marks only these).  Exact: each test is true only when some
 * byte is such a byte. */
static inline bool
has_special(uint64_t w)
{
	uint64_t q = w ^ (ONES * '"'), bs = w ^ (ONES * '\\');
	uint64_t del = w ^ (ONES * 0x7f);

	return ((w | ((w - ONES * 0x20) & ~w) | ((q - ONES) & ~q) |
	    ((bs - ONES) & ~bs) | ((del - ONES) & ~del)) & HIGHS) != 0;
}

/* Whether none of the len bytes at p is special (has_special):
 * a word at a time, the last one overlapping; fewer than eight bytes
 * as two overlapping halves, or (under four) the first, middle and
 * last with spaces. */
static inline bool
all_plain(const unsigned char *p, size_t len)
{
	uint32_t lo, hi;
	uint64_t w;
	size_t i;

	if (len >= 8) {
		for (i = 0; i + 8 < len; i += 8) {
			memcpy(&w, p + i, 8);
			if (has_special(w))
				return false;
		}
		memcpy(&w, p + len - 8, 8);
	} else if (len >= 4) {
		memcpy(&lo, p, 4);
		memcpy(&hi, p + len - 4, 4);
		w = lo | (uint64_t)hi << 32;
	} else if (len > 0)
		w = p[0] | (uint64_t)p[len / 2] << 8 |
		    (uint64_t)p[len - 1] << 16 | ONES * ' ' << 24;
	else
		return true;
	return !has_special(w);
}

bool
cd_text_plain(const char *s, size_t len)
{
	return all_plain((const unsigned char *)s, len);
}

/* What text() does with the code points that some readers take for
 * line breaks or controls although they are no ASCII control: C1
 * (U+0080 to U+009F, from Latin-1 bytes or UTF-8), U+2028 and U+2029. */
enum { WIDE_RAW, WIDE_JSON, WIDE_SPACE };

/* The code point U+0080..U+009F, U+2028 or U+2029 of the k bytes of
 * UTF-8 (or, k == 1, the Latin-1 byte) at p, else 0. */
static unsigned
wide_break(const unsigned char *p, size_t k)
{
	if (k == 1)
		return p[0] <= 0x9f ? p[0] : 0;
	if (k == 2 && p[0] == 0xc2 && p[1] <= 0x9f)
		return p[1];
	if (k == 3 && p[0] == 0xe2 && p[1] == 0x80 &&
	    (p[2] == 0xa8 || p[2] == 0xa9))
		return 0x2000u | (p[2] - 0x80u);
	return 0;
}

static cd_status
text_escaped(cd_buf *b, const char *s, size_t len, const char *esc,
    int wide)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s, *e = p + len;

	/* at most 6 bytes out per byte in (\u00XX) */
	if (len > (SIZE_MAX - b->len) / 6 || reserve(b, len * 6) != 0)
		return CD_ERR_NOMEM;
	while (p < e) {
		const unsigned char *q = p;
		unsigned cp;
		char *o;
		size_t k;

		/* the plain ASCII run: eight bytes at a time, then one */
		while (e - q >= 8) {
			uint64_t w;

			memcpy(&w, q, 8);
			if (has_special(w))
				break;
			q += 8;
		}
		while (q < e && *q < 0x80 && (esc == NULL || esc[*q] == 0))
			q++;
		memcpy(b->data + b->len, p, (size_t)(q - p));
		b->len += (size_t)(q - p);
		if ((p = q) == e)
			break;
		o = b->data + b->len;
		if (*p < 0x80) {
			char x = esc[*p];

			*o++ = '\\';
			if (x == 'u') {
				*o++ = 'u';
				*o++ = '0';
				*o++ = '0';
				*o++ = hex[*p >> 4];
				*o++ = hex[*p & 15];
			} else
				*o++ = x;
			p++;
			b->len = (size_t)(o - b->data);
			continue;
		}
		if ((k = utf8_len(p, (size_t)(e - p))) == 0)
			k = 1;	/* Latin-1 */
		if (wide != WIDE_RAW && (cp = wide_break(p, k)) != 0) {
			if (wide == WIDE_SPACE)
				*o++ = ' ';
			else {
				*o++ = '\\';
				*o++ = 'u';
				*o++ = hex[cp >> 12];
				*o++ = hex[cp >> 8 & 15];
				*o++ = hex[cp >> 4 & 15];
				*o++ = hex[cp & 15];
			}
		} else if (k > 1 || *p < 0x80) {
			memcpy(o, p, k);
			o += k;
		} else {
			/* Latin-1 */
			*o++ = (char)(0xc0 | (*p >> 6));
			*o++ = (char)(0x80 | (*p & 0x3f));
		}
		p += k;
		b->len = (size_t)(o - b->data);
	}
	return CD_OK;
}

/*
 * Append s[0..len) as valid UTF-8, with the bytes in esc (a table of
 * 128: 0 keep, else the escape's second character, 'u' for \u00XX)
 * escaped by a backslash, and C1, U+2028 and U+2029 as wide says.
 *
 * The common case, nothing to escape, inline; text_escaped the rest.
 */
static inline cd_status
text(cd_buf *b, const char *s, size_t len, const char *esc, int wide)
{
	if (all_plain((const unsigned char *)s, len))
		return put(b, s, len);
	return text_escaped(b, s, len, esc, wide);
}

static char json_esc[128];

__attribute__((constructor)) static void
esc_init(void)
{
	int c;

	for (c = 0; c < 0x20; c++)
		json_esc[c] = 'u';
	json_esc['\b'] = 'b';
	json_esc['\f'] = 'f';
	json_esc['\n'] = 'n';
	json_esc['\r'] = 'r';
	json_esc['\t'] = 't';
	json_esc['"'] = '"';
	json_esc['\\'] = '\\';
}

cd_status
cd_utf8_append(cd_buf *out, const char *s, size_t len)
{
	return text(out, s, len, NULL, WIDE_RAW);
}

cd_status
cd_json_append_string(cd_buf *out, const char *s, size_t len)
{
	if (put(out, "\"", 1) != CD_OK || text(out, s, len, json_esc,
	    WIDE_JSON) != CD_OK)
		return CD_ERR_NOMEM;
	return put(out, "\"", 1);
}

/* An SQL string literal: in single quotes, each doubled; the text as
 * it is (UTF-8, a backslash too: standard SQL). */
static cd_status
sql_string(cd_buf *out, const char *s, size_t len)
{
	const char *q;

	if (put(out, "'", 1) != CD_OK)
		return CD_ERR_NOMEM;
	while ((q = memchr(s, '\'', len)) != NULL) {
		if (text(out, s, (size_t)(q - s) + 1, NULL, WIDE_RAW) !=
		    CD_OK)
			return CD_ERR_NOMEM;
		len -= (size_t)(q - s);
		s = q;	/* the quote again: '' */
		if (put(out, "'", 1) != CD_OK)
			return CD_ERR_NOMEM;
		s++, len--;
	}
	if (text(out, s, len, NULL, WIDE_RAW) != CD_OK)
		return CD_ERR_NOMEM;
	return put(out, "'", 1);
}

/*
 * A field of a row: as it is, unless it holds a double quote, CR, LF
 * or the separator sep (TSV: tab, CSV: comma): then quoted, its double
 * quotes doubled (RFC 4180, which sqlite3's .import and DuckDB's
 * read_csv read with either separator).  C1, U+2028 and U+2029 are
 * spaces, so that no reader sees a line break inside a row.
 */
cd_status
cd_field_append(cd_buf *out, const char *s, size_t len, int style)
{
	char sep = style == CD_FIELD_CSV ? ',' : '\t';
	size_t i, start;

	if (style == CD_FIELD_SQL)
		return sql_string(out, s, len);
	/* (an empty field may come as NULL: no memchr on it) */
	if (all_plain((const unsigned char *)s, len) && (len == 0 ||
	    memchr(s, sep, len) == NULL))
		return put(out, s, len);
	for (i = 0; i < len; i++)
		if (s[i] == sep || s[i] == '"' || s[i] == '\r' ||
		    s[i] == '\n')
			break;
	if (i == len)
		return text(out, s, len, NULL, WIDE_SPACE);
	if (put(out, "\"", 1) != CD_OK)
		return CD_ERR_NOMEM;
	for (start = 0, i = 0; i < len; i++)
		if (s[i] == '"') {
			if (text(out, s + start, i + 1 - start, NULL,
			    WIDE_SPACE) != CD_OK)
				return CD_ERR_NOMEM;
			start = i;	/* the quote again: "" */
		}
	if (text(out, s + start, len - start, NULL, WIDE_SPACE) != CD_OK)
		return CD_ERR_NOMEM;
	return put(out, "\"", 1);
}

/* ---- replaying the main line (cd_game_walk) ---- */

/* The UCI of the next move of w's line into uci (6 bytes). */
static void
next_uci(const cd_game_walk *w, char *uci)
{
	cd_move m = w->game->nodes[w->game->nodes[w->node].next].move;

	if (m == CD_MOVE_NULL)
		memcpy(uci, "0000", 5);
	else
		uci[cd_move_to_uci(&w->rules.board, m, uci)] = '\0';
}

/* The name of the ending of the position reached, NULL for none. */
static const char *
walk_ending(const cd_game_walk *w)
{
	return cd_ending_name(cd_ending_first(cd_game_walk_endings(w)));
}

/* ---- a game as JSON ---- */

static cd_status
put_fen(cd_buf *b, const cd_board *pos)
{
	char fen[CD_FEN_MAX];
	size_t n = cd_fen_write(pos, fen);

	if (put(b, "\"", 1) != CD_OK || put(b, fen, n) != CD_OK)
		return CD_ERR_NOMEM;
	return put(b, "\"", 1);
}

/* The comment text of the notes from note i on, joined by spaces,
 * without the commands in names, the rest as written
 * (cd_comment_remove); into tmp (grown); its length. */
static cd_status
note_text(const cd_game *g, uint32_t i, const char *names, cd_buf *tmp)
{
	tmp->len = 0;
	for (; i != 0; i = g->notes[i].next) {
		const cd_game_note *n = &g->notes[i];
		size_t k;

		if (n->kind != CD_NOTE_COMMENT)
			continue;
		if (reserve(tmp, n->len + 2) != 0)
			return CD_ERR_NOMEM;
		if (tmp->len > 0)
			tmp->data[tmp->len++] = ' ';
		k = cd_comment_remove(cd_game_str(g, n->text), n->len, names,
		    tmp->data + tmp->len);
		if (k == 0 && tmp->len > 0)
			tmp->len--;	/* no space for nothing */
		tmp->len += k;
	}
	return CD_OK;
}

/* A frame of the variation writer: one line being walked. */
struct vframe {
	uint32_t scan;		/* the move whose variations come next */
	uint32_t var;		/* its next variation to write */
	int64_t line;		/* the line's index in the array, -1 main */
};

/* One variation as an object of the flat array: its parent line, the
 * ply of its first move and its moves. */
static cd_status
line_write(cd_buf *b, const cd_game *g, uint32_t first, int64_t parent)
{
	uint32_t i;
	bool comma = false;

	if (puts_(b, "{\"parent\":") != CD_OK || (parent < 0 ?
	    puts_(b, "null") : put_i64(b, parent)) != CD_OK ||
	    puts_(b, ",\"ply\":") != CD_OK ||
	    put_u64(b, g->nodes[first].ply) != CD_OK ||
	    puts_(b, ",\"moves\":[") != CD_OK)
		return CD_ERR_NOMEM;
	for (i = first; i != 0; i = g->nodes[i].next) {
		const cd_game_node *n = &g->nodes[i];

		if ((comma && put(b, ",", 1) != CD_OK) ||
		    put(b, "\"", 1) != CD_OK ||
		    put(b, n->san, n->san_len) != CD_OK ||
		    put(b, "\"", 1) != CD_OK)
			return CD_ERR_NOMEM;
		comma = true;
	}
	return puts_(b, "]}");
}

/* "variations": every line of the tree but the main one, as one flat
 * array in the order of the PGN text (depth first), each naming its
 * parent by index (null: the main line), so that the JSON nests no
 * deeper however deep the variations do: a stack on the heap walks
 * the tree. */
static cd_status
variations(cd_buf *b, const cd_game *g)
{
	struct vframe *st, *f;
	size_t n = 0, cap = 16;
	cd_status rc = CD_ERR_NOMEM;
	uint32_t m = g->nodes[0].next, v;
	int64_t lines = 0;

	if (puts_(b, ",\"variations\":[") != CD_OK)
		return CD_ERR_NOMEM;
	if ((st = malloc(cap * sizeof(*st))) == NULL)
		return CD_ERR_NOMEM;
	st[n++] = (struct vframe){ m, m ? g->nodes[m].var : 0, -1 };
	while (n > 0) {
		f = &st[n - 1];
		while (f->scan != 0 && f->var == 0) {
			f->scan = g->nodes[f->scan].next;
			f->var = f->scan ? g->nodes[f->scan].var : 0;
		}
		if (f->scan == 0) {
			n--;	/* the line is done */
			continue;
		}
		v = f->var;
		f->var = g->nodes[v].var_next;
		if ((lines > 0 && put(b, ",", 1) != CD_OK) ||
		    line_write(b, g, v, f->line) != CD_OK)
			goto out;
		if (n == cap) {
			struct vframe *p = realloc(st, 2 * cap * sizeof(*st));

			if (p == NULL)
				goto out;
			st = p;
			cap *= 2;
		}
		st[n++] = (struct vframe){ v, g->nodes[v].var, lines++ };
	}
	rc = put(b, "]", 1);
out:
	free(st);
	return rc;
}

/* The numbers of the comments after move i, into *m: for each kind,
 * those of the last comment that gives it.  The kinds found. */
static unsigned
ply_data(const cd_game *g, uint32_t i, cd_comment_data *m)
{
	cd_comment_data d;
	uint32_t t;

	memset(m, 0, sizeof(*m));
	for (t = g->nodes[i].after; t != 0; t = g->notes[t].next) {
		if (g->notes[t].kind != CD_NOTE_COMMENT ||
		    cd_comment_read(cd_game_str(g, g->notes[t].text),
		    g->notes[t].len, &d) == 0)
			continue;
		if (d.has & CD_COMMENT_CLK)
			m->clk_ns = d.clk_ns;
		if (d.has & CD_COMMENT_EMT)
			m->emt_ns = d.emt_ns;
		if (d.has & CD_COMMENT_EVAL) {
			m->eval_kind = d.eval_kind;
			m->eval = d.eval;
			m->eval_depth = d.eval_depth;
		}
		m->has |= d.has;
	}
	return m->has;
}

/* A name as a JSON string (no character needs escaping), null for
 * NULL. */
static cd_status
put_name(cd_buf *b, const char *s)
{
	if (s == NULL)
		return puts_(b, "null");
	if (put(b, "\"", 1) != CD_OK || puts_(b, s) != CD_OK)
		return CD_ERR_NOMEM;
	return put(b, "\"", 1);
}

/* A signed number. */
static cd_status
put_long(cd_buf *b, long v)
{
	if (v < 0 && put(b, "-", 1) != CD_OK)
		return CD_ERR_NOMEM;
	return put_u64(b, (uint64_t)(v < 0 ? -v : v));
}

/* "reason", "speed", "winner", "elo_diff" of g, endings those of its
 * final position. */
static cd_status
outcome_json(cd_buf *b, const cd_game *g, unsigned endings)
{
	long d;

	if (puts_(b, ",\"reason\":") != CD_OK ||
	    put_name(b, cd__game_reason(g, endings)) != CD_OK ||
	    puts_(b, ",\"speed\":") != CD_OK ||
	    put_name(b, cd__game_speed(g)) != CD_OK ||
	    puts_(b, ",\"winner\":") != CD_OK ||
	    put_name(b, cd__game_winner(g)) != CD_OK ||
	    puts_(b, ",\"elo_diff\":") != CD_OK)
		return CD_ERR_NOMEM;
	return cd__game_elo_diff(g, &d) ? put_long(b, d) : puts_(b, "null");
}

/*
 * The time each move of the main line took, where the game gives no
 * [%emt] but clocks and a TimeControl of periods without sandclock:
 * the side's clock before the move (the period's base before its first
 * move), plus the period's increment and the time of the next period
 * when the move ends one with a move count, less the clock after the
 * move.  Moves are counted from the game's first; a ply without a clock,
 * or after one, or after the last period with a move count, gets none.
 * Into pd[0..n): whether any was found.
 */
static bool
emt_from_clocks(const cd_game *g, cd_comment_data *pd, size_t n)
{
	cd_tc_period tc[TC_MAX];
	bool present, any = false;
	int np = cd__game_tc(g, tc, &present), p[2] = { 0, 0 }, i;
	int64_t base[TC_MAX], inc[TC_MAX], prev[2];
	bool known[2] = { true, true };	/* prev[] is a clock */
	uint32_t done[2] = { 0, 0 };	/* moves of the side's period */
	size_t j;

	if (np <= 0)
		return false;
	for (i = 0; i < np; i++) {
		if (tc[i].sandclock)
			return false;
		base[i] = cd__tc_ns(tc[i].seconds, tc[i].seconds_len);
		inc[i] = tc[i].increment == NULL ? 0 : cd__tc_ns(tc[i].increment,
		    tc[i].increment_len);
		if (base[i] < 0 || inc[i] < 0)
			return false;
	}
	prev[0] = prev[1] = base[0];
	for (j = 0; j < n; j++) {
		int s = (int)((j + (g->start.side == CD_BLACK)) & 1);
		int64_t before = prev[s];
		bool ok = known[s];

		known[s] = false;
		if (p[s] >= np)
			continue;	/* past the last period */
		before += inc[p[s]];
		if (tc[p[s]].moves > 0 && ++done[s] == tc[p[s]].moves) {
			/* the period ends with this move */
			done[s] = 0;
			if (++p[s] < np)
				before += base[p[s]];
		}
		if (!(pd[j].has & CD_COMMENT_CLK))
			continue;
		prev[s] = pd[j].clk_ns;
		known[s] = true;
		if (!ok)
			continue;
		pd[j].emt_ns = before - pd[j].clk_ns;
		pd[j].has |= CD_COMMENT_EMT;
		any = true;
	}
	return any;
}

/* Per-ply arrays ("clocks", "emt", "evals") from the main line; each
 * comment is read once. */
static cd_status
ply_arrays(cd_buf *b, const cd_game *g)
{
	static const char *const keys[] = { ",\"clocks\":[", ",\"emt\":[",
	    ",\"evals\":[" };
	static const unsigned bits[] = { CD_COMMENT_CLK, CD_COMMENT_EMT,
	    CD_COMMENT_EVAL };
	unsigned any = 0, k;
	uint32_t i;
	size_t n = 0, j;
	cd_comment_data *pd;
	cd_status st = CD_OK;
	bool notes = false;

	for (i = g->nodes[0].next; i != 0; i = g->nodes[i].next) {
		n++;
		notes |= g->nodes[i].after != 0;
	}
	if (!notes)
		return CD_OK;
	if ((pd = malloc(n * sizeof(*pd))) == NULL)
		return CD_ERR_NOMEM;
	for (i = g->nodes[0].next, j = 0; i != 0; i = g->nodes[i].next)
		any |= ply_data(g, i, &pd[j++]);
	if (!(any & CD_COMMENT_EMT) && (any & CD_COMMENT_CLK) &&
	    emt_from_clocks(g, pd, n))
		any |= CD_COMMENT_EMT;
	for (k = 0; k < 3 && st == CD_OK; k++) {
		if (!(any & bits[k]))
			continue;
		st = puts_(b, keys[k]);
		for (j = 0; j < n && st == CD_OK; j++) {
			const cd_comment_data *d = &pd[j];

			if (j > 0 && put(b, ",", 1) != CD_OK)
				st = CD_ERR_NOMEM;
			else if (!(d->has & bits[k]))
				st = puts_(b, "null");
			else if (k == 0)
				st = put_seconds(b, d->clk_ns);
			else if (k == 1)
				st = put_seconds(b, d->emt_ns);
			else {
				st = puts_(b, d->eval_kind == CD_EVAL_MATE ?
				    "{\"mate\":" : "{\"cp\":");
				if (st == CD_OK)
					st = put_i64(b, d->eval);
				if (st == CD_OK && d->eval_depth >= 0) {
					st = puts_(b, ",\"depth\":");
					if (st == CD_OK)
						st = put_i64(b, d->eval_depth);
				}
				if (st == CD_OK)
					st = put(b, "}", 1);
			}
		}
		if (st == CD_OK)
			st = put(b, "]", 1);
	}
	free(pd);
	return st;
}

static cd_status
comments(cd_buf *b, const cd_game *g)
{
	cd_buf tmp = { 0 };
	cd_status st = puts_(b, ",\"comments\":[");
	uint32_t i = 0;

	while (st == CD_OK) {
		st = note_text(g, g->nodes[i].after, "clk,emt,eval", &tmp);
		if (st != CD_OK)
			break;
		if (i != 0 && (st = put(b, ",", 1)) != CD_OK)
			break;
		st = tmp.len ? cd_json_append_string(b, tmp.data, tmp.len) :
		    puts_(b, "null");
		if ((i = g->nodes[i].next) == 0)
			break;
	}
	free(tmp.data);
	return st == CD_OK ? put(b, "]", 1) : st;
}

/* ,"timecontrol":[{"moves":M,"seconds":S,"increment":I,
 * "sandclock":true}...] when the game has the tag: [] for "-", null for
 * "?" or a value that does not read. */
static cd_status
timecontrol_json(cd_buf *b, const cd_game *g)
{
	cd_tc_period tc[TC_MAX];
	bool present;
	int n = cd__game_tc(g, tc, &present), i;

	if (!present)
		return CD_OK;
	if (puts_(b, ",\"timecontrol\":") != CD_OK)
		return CD_ERR_NOMEM;
	if (n < 0)
		return puts_(b, "null");
	if (put(b, "[", 1) != CD_OK)
		return CD_ERR_NOMEM;
	for (i = 0; i < n; i++) {
		if ((i > 0 && put(b, ",", 1) != CD_OK) ||
		    put(b, "{", 1) != CD_OK)
			return CD_ERR_NOMEM;
		if (tc[i].moves > 0 && (puts_(b, "\"moves\":") != CD_OK ||
		    put_u64(b, tc[i].moves) != CD_OK || put(b, ",", 1) !=
		    CD_OK))
			return CD_ERR_NOMEM;
		if (puts_(b, "\"seconds\":") != CD_OK || put(b, tc[i].seconds,
		    tc[i].seconds_len) != CD_OK)
			return CD_ERR_NOMEM;
		if (tc[i].increment != NULL && (puts_(b, ",\"increment\":") !=
		    CD_OK || put(b, tc[i].increment, tc[i].increment_len) !=
		    CD_OK))
			return CD_ERR_NOMEM;
		if (tc[i].sandclock && puts_(b, ",\"sandclock\":true") != CD_OK)
			return CD_ERR_NOMEM;
		if (put(b, "}", 1) != CD_OK)
			return CD_ERR_NOMEM;
	}
	return put(b, "]", 1);
}

static cd_status
opening_json(cd_buf *b, const cd_opening *op)
{
	if (op == NULL)
		return puts_(b, ",\"opening\":null");
	if (puts_(b, ",\"opening\":{\"eco\":") != CD_OK ||
	    cd_json_append_string(b, op->eco, strlen(op->eco)) != CD_OK ||
	    puts_(b, ",\"name\":") != CD_OK ||
	    cd_json_append_string(b, op->name, strlen(op->name)) != CD_OK ||
	    puts_(b, ",\"ply\":") != CD_OK || put_u64(b, op->ply) != CD_OK)
		return CD_ERR_NOMEM;
	return put(b, "}", 1);
}

/* The body of cd_game_write_json, without the rollback. */
static cd_status
game_json(const cd_game *g, uint64_t number, unsigned flags,
    const cd_opening *op, cd_buf *b)
{
	cd_game_xtags xt;
	cd_game_walk r;
	size_t i;
	uint32_t k;
	cd_status st = CD_ERR_NOMEM;
	bool comma;

	cd_game_walk_init(&r);
	cd__xtags_init(&xt);
	if (cd_game_export_tags(g, CD_PGN_TAGS_SETUP_AS_READ, &xt) != CD_OK)
		return CD_ERR_NOMEM;
	st = puts_(b, "{\"game\":") == CD_OK && put_u64(b, number) == CD_OK &&
	    puts_(b, ",\"tags\":{") == CD_OK ? CD_OK : CD_ERR_NOMEM;
	for (i = 0; i < xt.n && st == CD_OK; i++)
		if ((i > 0 && put(b, ",", 1) != CD_OK) ||
		    cd_json_append_string(b, xt.tags[i].name,
		    xt.tags[i].name_len) != CD_OK || put(b, ":", 1) != CD_OK ||
		    cd_json_append_string(b, xt.tags[i].value,
		    xt.tags[i].value_len) != CD_OK)
			st = CD_ERR_NOMEM;
	cd_game_xtags_free(&xt);
	if (st != CD_OK)
		return st;
	st = CD_ERR_NOMEM;
	if (puts_(b, "},\"start\":") != CD_OK || put_fen(b, &g->start) !=
	    CD_OK || puts_(b, ",\"moves\":[") != CD_OK)
		return CD_ERR_NOMEM;
	comma = false;
	for (k = g->nodes[0].next; k != 0; k = g->nodes[k].next) {
		const cd_game_node *nd = &g->nodes[k];

		if ((comma && put(b, ",", 1) != CD_OK) ||
		    put(b, "\"", 1) != CD_OK ||
		    put(b, nd->san, nd->san_len) != CD_OK ||
		    put(b, "\"", 1) != CD_OK)
			return CD_ERR_NOMEM;
		comma = true;
	}
	if (puts_(b, "],\"uci\":[") != CD_OK)
		goto out;
	cd_game_walk_start(&r, g, true);
	for (comma = false; g->nodes[r.node].next != 0; comma = true) {
		char uci[8];

		next_uci(&r, uci);
		if (!cd_game_walk_next(&r) || !r.track ||
		    (comma && put(b, ",", 1) != CD_OK) ||
		    put(b, "\"", 1) != CD_OK || puts_(b, uci) != CD_OK ||
		    put(b, "\"", 1) != CD_OK)
			goto out;
	}
	if (!r.track)
		goto out;	/* out of memory */
	{
		const char *term = walk_ending(&r);

		if (puts_(b, "],\"plies\":") != CD_OK ||
		    put_u64(b, r.rules.plies) != CD_OK ||
		    puts_(b, ",\"result\":\"") != CD_OK ||
		    puts_(b, cd_pgn_result_str(cd_game_result(g))) != CD_OK ||
		    puts_(b, "\",\"final\":") != CD_OK ||
		    put_fen(b, &r.rules.board) != CD_OK ||
		    puts_(b, ",\"termination\":") != CD_OK)
			goto out;
		if (put_name(b, term) != CD_OK)
			goto out;
	}
	if ((flags & CD_JSON_OPENING) && opening_json(b, op) != CD_OK)
		goto out;
	if (outcome_json(b, g, cd_game_walk_endings(&r)) != CD_OK)
		goto out;
	if (timecontrol_json(b, g) != CD_OK)
		goto out;
	if (ply_arrays(b, g) != CD_OK)
		goto out;
	if ((flags & CD_JSON_COMMENTS) && comments(b, g) != CD_OK)
		goto out;
	if (flags & CD_JSON_FENS) {
		cd_board pos = g->start;

		if (puts_(b, ",\"fens\":[") != CD_OK)
			goto out;
		for (k = g->nodes[0].next; k != 0; k = g->nodes[k].next) {
			cd_board_make(&pos, g->nodes[k].move);
			if ((k != g->nodes[0].next &&
			    put(b, ",", 1) != CD_OK) ||
			    put_fen(b, &pos) != CD_OK)
				goto out;
		}
		if (put(b, "]", 1) != CD_OK)
			goto out;
	}
	if ((flags & CD_JSON_VARIATIONS) && variations(b, g) != CD_OK)
		goto out;
	st = puts_(b, "}\n");
out:
	cd_game_walk_free(&r);
	return st;
}

cd_status
cd_game_write_json_opening(const cd_game *g, uint64_t number,
    unsigned flags, const cd_opening *op, cd_buf *out)
{
	size_t len = out->len;
	cd_status st = game_json(g, number, flags, op, out);

	if (st != CD_OK)
		out->len = len;
	return st;
}

cd_status
cd_game_write_json(const cd_game *g, uint64_t number, unsigned flags,
    cd_buf *out)
{
	return cd_game_write_json_opening(g, number,
	    flags & ~(unsigned)CD_JSON_OPENING, NULL, out);
}

/* ---- computed fields of a row ---- */

static const char *const fields[] = {
	"@game", "@start", "@moves", "@uci", "@plies", "@fullmoves",
	"@result", "@final", "@key", "@termination", "@base", "@increment",
	"@reason", "@speed", "@elo_diff", "@winner", NULL
};

/* Whether name is one of the NULL-terminated list. */
static bool
name_in(const char *const *list, const char *name)
{
	size_t i;

	for (i = 0; list[i] != NULL; i++)
		if (strcmp(name, list[i]) == 0)
			return true;
	return false;
}

bool
cd_game_field_known(const char *name)
{
	return name_in(fields, name);
}

cd_status
cd_game_write_field(const cd_game *g, const char *name, uint64_t number,
    cd_buf *out)
{
	cd_game_walk r;
	cd_status st = CD_OK;
	uint32_t k;
	bool sp = false;

	if (strcmp(name, "@game") == 0)
		return put_u64(out, number);
	if (strcmp(name, "@start") == 0) {
		char fen[CD_FEN_MAX];

		return put(out, fen, cd_fen_write(&g->start, fen));
	}
	if (strcmp(name, "@result") == 0)
		return puts_(out, cd_pgn_result_str(cd_game_result(g)));
	if (strcmp(name, "@moves") == 0) {
		for (k = g->nodes[0].next; k != 0 && st == CD_OK;
		    k = g->nodes[k].next, sp = true)
			if ((sp && put(out, " ", 1) != CD_OK) ||
			    put(out, g->nodes[k].san, g->nodes[k].san_len) !=
			    CD_OK)
				st = CD_ERR_NOMEM;
		return st;
	}
	if (strcmp(name, "@fullmoves") == 0) {
		/* the move numbers the main line spans */
		uint64_t n = 0;

		for (k = g->nodes[0].next; k != 0; k = g->nodes[k].next)
			n++;
		return put_u64(out, n == 0 ? 0 :
		    (n + (g->start.side == CD_BLACK) + 1) / 2);
	}
	if (strcmp(name, "@base") == 0 || strcmp(name, "@increment") == 0) {
		/* the first period's: nothing when there is none */
		cd_tc_period tc[TC_MAX];
		bool present;

		if (cd__game_tc(g, tc, &present) <= 0)
			return CD_OK;
		if (name[1] == 'b')
			return put(out, tc[0].seconds, tc[0].seconds_len);
		return tc[0].increment == NULL ? put(out, "0", 1) :
		    put(out, tc[0].increment, tc[0].increment_len);
	}
	if (strcmp(name, "@speed") == 0 || strcmp(name, "@winner") == 0) {
		const char *v = name[1] == 's' ? cd__game_speed(g) : cd__game_winner(g);

		return v == NULL ? CD_OK : puts_(out, v);
	}
	if (strcmp(name, "@elo_diff") == 0) {
		long d;

		return cd__game_elo_diff(g, &d) ? put_long(out, d) : CD_OK;
	}
	if (!cd_game_field_known(name))
		return CD_ERR_ARG;
	/* the rest replays the main line */
	cd_game_walk_init(&r);
	cd_game_walk_start(&r, g, true);
	for (k = g->nodes[0].next; k != 0 && st == CD_OK;
	    k = g->nodes[k].next, sp = true) {
		char uci[8];
		bool want = strcmp(name, "@uci") == 0;

		if (want)
			next_uci(&r, uci);
		if (!cd_game_walk_next(&r) || !r.track)
			st = CD_ERR_NOMEM;
		else if (want && ((sp && put(out, " ", 1) != CD_OK) ||
		    puts_(out, uci) != CD_OK))
			st = CD_ERR_NOMEM;
	}
	if (st == CD_OK && !r.track)
		st = CD_ERR_NOMEM;
	if (st == CD_OK) {
		if (strcmp(name, "@plies") == 0)
			st = put_u64(out, r.rules.plies);
		else if (strcmp(name, "@final") == 0) {
			char fen[CD_FEN_MAX];

			st = put(out, fen, cd_fen_write(&r.rules.board, fen));
		} else if (strcmp(name, "@key") == 0) {
			/* the final position's Polyglot key */
			char hex[17];

			snprintf(hex, sizeof(hex), "%016" PRIx64,
			    cd_polyglot_key(&r.rules.board));
			st = put(out, hex, 16);
		} else if (strcmp(name, "@termination") == 0) {
			const char *t = walk_ending(&r);

			st = t ? puts_(out, t) : CD_OK;
		} else if (strcmp(name, "@reason") == 0) {
			st = puts_(out, cd__game_reason(g,
			    cd_game_walk_endings(&r)));
		}
	}
	cd_game_walk_free(&r);
	return st;
}

/* ---- the opening fields of a row ---- */

static const char *const opening_fields[] = {
	"@eco", "@opening", "@opening_ply", NULL
};

bool
cd_opening_field_known(const char *name)
{
	return name_in(opening_fields, name);
}

cd_status
cd_opening_write_field(const cd_opening *op, const char *name,
    cd_buf *out)
{
	if (!cd_opening_field_known(name))
		return CD_ERR_ARG;
	if (op == NULL)
		return CD_OK;
	if (strcmp(name, "@eco") == 0)
		return puts_(out, op->eco);
	if (strcmp(name, "@opening") == 0)
		return puts_(out, op->name);
	return put_u64(out, op->ply);
}
