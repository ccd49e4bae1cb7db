/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn/lex.c: the tokens of one game (see chessdata/pgn_lex.h for the
 * rules), the tag pair scanner that the framer (pgn/frame_tags.c)
 * shares, and result strings; its fast path for the parser is inline
 * in pgn/lex.h.  No chess knowledge here.
 */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "pgn/lex.h"

/* ---- results ---- */

const char *const cd__pgn_results[5] = { "", "1-0", "0-1", "1/2-1/2", "*" };
const unsigned char cd__pgn_result_len[5] = { 0, 3, 3, 7, 1 };

/* ---- runs of moves (the parser's, pgn/lex.h) ---- */

/* What each byte starts in a run of moves: a word at the letters of
 * CD__FAST_START (all but `Z`, `e` and `o`) and `e`, a number at the
 * digits 1 to 9, LF and CR. */
#define W	CD__RUN_WORD
#define D	CD__RUN_DIGIT
const unsigned char cd__lex_run_cls[256] = {
	['\n'] = CD__RUN_LF, ['\r'] = CD__RUN_CR, ['1'] = D, ['2'] = D,
	['3'] = D, ['4'] = D, ['5'] = D, ['6'] = D, ['7'] = D,
	['8'] = D, ['9'] = D, ['A'] = W, ['B'] = W, ['C'] = W,
	['D'] = W, ['E'] = W, ['F'] = W, ['G'] = W, ['H'] = W,
	['I'] = W, ['J'] = W, ['K'] = W, ['L'] = W, ['M'] = W,
	['N'] = W, ['O'] = W, ['P'] = W, ['Q'] = W, ['R'] = W,
	['S'] = W, ['T'] = W, ['U'] = W, ['V'] = W, ['W'] = W,
	['X'] = W, ['Y'] = W, ['a'] = W, ['b'] = W, ['c'] = W,
	['d'] = W, ['e'] = W, ['f'] = W, ['g'] = W, ['h'] = W,
	['i'] = W, ['j'] = W, ['k'] = W, ['l'] = W, ['m'] = W,
	['n'] = W, ['p'] = W, ['q'] = W, ['r'] = W, ['s'] = W,
	['t'] = W, ['u'] = W, ['v'] = W, ['w'] = W, ['x'] = W,
	['y'] = W, ['z'] = W
};
#undef W
#undef D

const char *
cd_pgn_result_str(cd_pgn_result r)
{
	return (unsigned)r < 5 ? cd__pgn_results[r] : "";
}

/*
 * Copy a word into out (at most cap bytes) with en dash, em dash and
 * minus sign as '-' and '½' as "1/2"; -1 if it does not fit.
 */
static int
result_fold(const char *s, size_t len, char *out, int cap)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *e = p + len;
	int n = 0;

	while (p < e) {
		if (p[0] == 0xe2 && e - p >= 3 &&
		    ((p[1] == 0x80 && (p[2] == 0x93 || p[2] == 0x94)) ||
		    (p[1] == 0x88 && p[2] == 0x92))) {
			if (n + 1 > cap)
				return -1;
			out[n++] = '-';
			p += 3;
		} else if (p[0] == 0xc2 && e - p >= 2 && p[1] == 0xbd) {
			if (n + 3 > cap)
				return -1;
			memcpy(out + n, "1/2", 3);
			n += 3;
			p += 2;
		} else {
			if (n + 1 > cap)
				return -1;
			out[n++] = (char)*p++;
		}
	}
	return n;
}

cd_pgn_result
cd_pgn_result_parse(const char *s, size_t len)
{
	char buf[16];
	int n;

	if (len == 0 || len > 24)
		return CD_PGN_RESULT_NONE;
	if (len == 1 && s[0] == '*')
		return CD_PGN_RESULT_UNKNOWN;
	if (s[0] != '0' && s[0] != '1' && CD__U(s[0]) != 0xc2)
		return CD_PGN_RESULT_NONE;
	/* the canonical markers first, as they are */
	if (len == 3 && s[1] == '-' && s[0] == '1' && s[2] == '0')
		return CD_PGN_RESULT_WHITE;
	if (len == 3 && s[1] == '-' && s[0] == '0' && s[2] == '1')
		return CD_PGN_RESULT_BLACK;
	if (len == 7 && memcmp(s, "1/2-1/2", 7) == 0)
		return CD_PGN_RESULT_DRAW;
	n = result_fold(s, len, buf, (int)sizeof(buf));
	if (n == 3 && memcmp(buf, cd__pgn_results[CD_PGN_RESULT_WHITE], 3) == 0)
		return CD_PGN_RESULT_WHITE;
	if (n == 3 && memcmp(buf, cd__pgn_results[CD_PGN_RESULT_BLACK], 3) == 0)
		return CD_PGN_RESULT_BLACK;
	if ((n == 7 && memcmp(buf, cd__pgn_results[CD_PGN_RESULT_DRAW],
	    7) == 0) ||
	    (n == 3 && memcmp(buf, "1/2", 3) == 0))
		return CD_PGN_RESULT_DRAW;
	return CD_PGN_RESULT_NONE;
}

/* A game's one result, the same in every tool (import-format.md): the
 * termination marker; without one, the Result tag's value read by
 * cd_pgn_result_parse; without a Result tag that reads, `*`. */
cd_pgn_result
cd__pgn_result_of(cd_pgn_result marker, const char *tag, size_t len)
{
	cd_pgn_result r;

	if (marker != CD_PGN_RESULT_NONE)
		return marker;
	r = tag != NULL ? cd_pgn_result_parse(tag, len) : CD_PGN_RESULT_NONE;
	return r != CD_PGN_RESULT_NONE ? r : CD_PGN_RESULT_UNKNOWN;
}

const cd_pgn_tag *
cd_pgn_raw_tag(const cd_pgn_raw_game *g, const char *name)
{
	size_t len = strlen(name), i;

	for (i = g->ntags; i-- > 0;)
		if (g->tags[i].name_len == len &&
		    memcmp(g->tags[i].name, name, len) == 0)
			return &g->tags[i];
	return NULL;
}

cd_pgn_result
cd_pgn_raw_result(const cd_pgn_raw_game *g)
{
	const cd_pgn_tag *t = cd_pgn_raw_tag(g, "Result");

	return cd__pgn_result_of(g->result, t != NULL ? t->value : NULL,
	    t != NULL ? t->value_len : 0);
}

/* ---- tag pairs (both layers) ---- */

/* Past the white space at p; its line ends are counted in *lines,
 * the last one kept in *last. */
static inline const char *
skip_ws(const char *p, const char *e, unsigned long *lines,
    const char **last)
{
	while (p < e && CD__IS_WS(*p)) {
		if (*p == '\n') {
			++*lines;
			*last = p;
		}
		p++;
	}
	return p;
}

/*
 * Whether the quote just before p closes a value: optional whitespace
 * then `]`.  1 yes (ts->next past the `]`, and the line ends between
 * counted in ts), 0 no, -1 need more input.
 */
static int
value_closes(const char *p, const char *e, int eof, struct cd__tagscan *ts)
{
	unsigned long lines = ts->lines;
	const char *last = ts->last_nl;

	p = skip_ws(p, e, &lines, &last);
	if (p == e)
		return eof ? 0 : -1;
	if (*p != ']')
		return 0;
	ts->lines = lines;
	ts->last_nl = last;
	ts->next = p + 1;
	return 1;
}

/* Where to go on after a tag that does not read: past the next `]` on
 * its line, or its line end.  NULL if more input is needed. */
static const char *
tag_recover(const char *p, const char *e, int eof)
{
	const char *nl = memchr(p, '\n', (size_t)(e - p));
	const char *rb;

	if (nl == NULL) {
		if (!eof)
			return NULL;
		nl = e;
	}
	rb = memchr(p + 1, ']', (size_t)(nl - (p + 1)));
	return rb != NULL ? rb + 1 : nl;
}

/*
 * Read a tag pair at p (a `[`).  1 read, 0 does not read (ts->next is
 * where to go on), -1 more input is needed.
 */
int
cd__scan_tag(const char *p, const char *e, int eof, struct cd__tagscan *ts)
{
	const char *q, *v, *i;
	int pass, r;

	ts->lines = 0;
	ts->last_nl = NULL;
	q = skip_ws(p + 1, e, &ts->lines, &ts->last_nl);
	ts->name = q;
	q = cd__tag_name_end(q, e);
	if (q == e && !eof)
		return -1;
	ts->name_len = (size_t)(q - ts->name);
	if (ts->name_len == 0)
		goto bad;
	q = skip_ws(q, e, &ts->lines, &ts->last_nl);
	if (q == e) {
		if (!eof)
			return -1;
		goto bad;
	}
	if (*q != '"')
		goto bad;
	v = q + 1;
	/* The value ends at a `"` on its line that closes it (blanks and
	 * `]` follow).  On a first pass \" and \\ are escapes; if that
	 * finds no end, a second pass takes every `"` as it is. */
	for (pass = 0; pass < 2; pass++) {
		int esc = 0;

		for (i = v;; i++) {
			i = cd__tag_value_stop(i, e, pass);
			if (i == e) {
				if (!eof)
					return -1;
				break;
			}
			if (*i == '\n')
				break;
			if (*i == '\\') {
				if (i + 1 == e && !eof)
					return -1;
				if (i + 1 < e && (i[1] == '"' || i[1] == '\\')) {
					esc = 1;
					i++;
				}
				continue;
			}
			r = value_closes(i + 1, e, eof, ts);
			if (r < 0)
				return -1;
			if (r > 0) {
				ts->value = v;
				ts->value_len = (size_t)(i - v);
				ts->escapes = esc;
				return 1;
			}
		}
		if (!esc)
			break;	/* no backslash: the second pass is the same */
	}
bad:
	ts->next = tag_recover(p, e, eof);
	if (ts->next == NULL)
		return -1;
	return 0;
}

/* Undo \" and \\ in a value into out; returns the length. */
size_t
cd__unescape(const char *v, size_t len, int escapes, char *out)
{
	size_t i, n = 0;

	if (!escapes) {
		memcpy(out, v, len);
		return len;
	}
	for (i = 0; i < len; i++) {
		if (v[i] == '\\' && i + 1 < len &&
		    (v[i + 1] == '"' || v[i + 1] == '\\'))
			i++;
		out[n++] = v[i];
	}
	return n;
}

/* ---- the token lexer ---- */

void
cd_pgn_lex_init(cd_pgn_lexer *lx, const char *text, size_t len,
    unsigned long line, unsigned long col)
{
	cd__lex_init(lx, text, len, line, col);
}

const char *
cd_pgn_tok_name(cd_pgn_tok_type type)
{
	switch (type) {
	case CD_PGN_TOK_END: return "end";
	case CD_PGN_TOK_TAG: return "tag pair";
	case CD_PGN_TOK_MOVENUM: return "move number";
	case CD_PGN_TOK_MOVE: return "move";
	case CD_PGN_TOK_SUFFIX: return "suffix annotation";
	case CD_PGN_TOK_NAG: return "NAG";
	case CD_PGN_TOK_EVAL: return "evaluation symbol";
	case CD_PGN_TOK_EP: return "en passant mark";
	case CD_PGN_TOK_RESULT: return "termination marker";
	case CD_PGN_TOK_COMMENT: return "comment";
	case CD_PGN_TOK_LINE_COMMENT: return "line comment";
	case CD_PGN_TOK_ESCAPE: return "escape line";
	case CD_PGN_TOK_RAV_OPEN: return "(";
	case CD_PGN_TOK_RAV_CLOSE: return ")";
	case CD_PGN_TOK_STRING: return "string";
	case CD_PGN_TOK_ERROR: return "error";
	}
	return "token";
}

size_t
cd_pgn_tag_value(const cd_pgn_token *t, char *out)
{
	size_t n = cd__unescape(t->value, t->value_len,
	    (t->flags & CD_PGN_TOKF_ESCAPES) != 0, out);

	out[n] = '\0';
	return n;
}

/* Move past the newlines in [lx->p, to): line and line start. */
static void
lex_skip_to(cd_pgn_lexer *lx, const char *to)
{
	const char *p = lx->p, *nl;

	while ((nl = memchr(p, '\n', (size_t)(to - p))) != NULL) {
		lx->line++;
		lx->line_start = nl + 1;
		lx->col0 = 1;
		p = nl + 1;
	}
	lx->p = to;
}

/* The length of the UTF-8 character at p (1 if not well formed). */
static size_t
utf8_len(const char *p, const char *e)
{
	unsigned c = CD__U(*p);
	size_t n, i;

	if (c < 0xc2 || c > 0xf4)
		return 1;
	n = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	if ((size_t)(e - p) < n)
		return 1;
	for (i = 1; i < n; i++)
		if ((CD__U(p[i]) & 0xc0) != 0x80)
			return 1;
	return n;
}

/* Multibyte characters that may be in a move word: en and em dashes,
 * minus sign, figurines.  Their length, or 0. */
static size_t
move_mb(const char *p, const char *e)
{
	const unsigned char *u = (const unsigned char *)p;

	if (e - p < 3 || u[0] != 0xe2)
		return 0;
	if (u[1] == 0x80 && (u[2] == 0x93 || u[2] == 0x94))
		return 3;
	if (u[1] == 0x88 && u[2] == 0x92)
		return 3;
	if (u[1] == 0x99 && u[2] >= 0x94 && u[2] <= 0x9f)
		return 3;
	return 0;
}

/* The end of a move word at p. */
static const char *
move_word_end(const char *p, const char *e)
{
	size_t k;

	while (p < e) {
		if (CD__CLS(*p) & K_MOVE) {
			p++;
		} else if (CD__U(*p) == 0xc2 && e - p >= 2 && CD__U(p[1]) == 0xbd) {
			p += 2;		/* ½ in ½-½ */
		} else if ((k = move_mb(p, e)) > 0) {
			p += k;
		} else if (*p == '(' && e - p >= 3 && p[2] == ')' &&
		    strchr("QRBNqrbn", p[1]) != NULL && p[1] != 0) {
			p += 3;		/* e8(Q) */
		} else {
			break;
		}
	}
	return p;
}

static int lex_delim(const char *p, const char *e);

/* A move word p..q glued to an "e.p." suffix ("dxe6e.p.", "dxe6e.p.+"):
 * the end of the suffix, which the word takes in, else q.  (The period would end
 * the word; the SAN reader drops the suffix.) */
static const char *
ep_glued(const char *p, const char *q, const char *e)
{
	const char *r;

	if (q - p < 4 || q[-1] != 'e' || !CD__IS_DIGIT(q[-2]) || e - q < 3 ||
	    q[0] != '.' || q[1] != 'p' || q[2] != '.')
		return q;
	for (r = q + 3; r < e && (*r == '+' || *r == '#'); r++)
		;
	return lex_delim(r, e) ? r : q;
}

/* Evaluation symbols standing alone, with their NAGs. */
static const struct {
	const char *s;
	int nag;
} evals[] = {
	{ "=", 10 }, { "\xe2\x88\x9e", 13 },
	{ "+=", 14 }, { "+/=", 14 }, { "\xe2\xa9\xb2", 14 },
	{ "=+", 15 }, { "=/+", 15 }, { "\xe2\xa9\xb1", 15 },
	{ "+/-", 16 }, { "\xc2\xb1", 16 },
	{ "-/+", 17 }, { "\xe2\x88\x93", 17 },
	{ "+-", 18 }, { "-+", 19 }
};

/* The length of an evaluation-symbol run at p: + - / = and ± ∞ ⩲ ⩱ ∓. */
static size_t
eval_run(const char *p, const char *e)
{
	const unsigned char *u = (const unsigned char *)p;
	const unsigned char *q = u, *ue = (const unsigned char *)e;

	while (q < ue) {
		if (*q == '+' || *q == '-' || *q == '/' || *q == '=') {
			q++;
		} else if (ue - q >= 2 && q[0] == 0xc2 && q[1] == 0xb1) {
			q += 2;
		} else if (ue - q >= 3 && q[0] == 0xe2 &&
		    ((q[1] == 0x88 && (q[2] == 0x9e || q[2] == 0x93)) ||
		    (q[1] == 0xa9 && (q[2] == 0xb1 || q[2] == 0xb2)))) {
			q += 3;
		} else {
			break;
		}
	}
	return (size_t)(q - u);
}

static int
is_castling(const char *w, size_t n)
{
	const unsigned char *u = (const unsigned char *)w;
	size_t i = 1;
	int parts = 1;
	unsigned o;

	while (n > 0 && (u[n - 1] == '+' || u[n - 1] == '#'))
		n--;
	if (n < 3)
		return 0;
	o = u[0];
	if (o != 'O' && o != 'o' && o != '0')
		return 0;
	while (i < n) {
		if (u[i] == '-')
			i++;
		else if (move_mb(w + i, w + n) == 3 && u[i + 1] != 0x99)
			i += 3;
		else
			return 0;
		if (i < n && u[i] == o) {
			i++;
			parts++;
		} else {
			return 0;
		}
	}
	return parts == 2 || parts == 3;
}

static int
is_nullmove(const char *w, size_t n)
{
	return (n == 2 && (memcmp(w, "--", 2) == 0 ||
	    memcmp(w, "Z0", 2) == 0)) ||
	    (n == 4 && (memcmp(w, "0000", 4) == 0 ||
	    memcmp(w, "@@@@", 4) == 0));
}

/* Is the byte at p one that ends a token (or the end)? */
static int
lex_delim(const char *p, const char *e)
{
	return p == e || (CD__CLS(*p) & K_DELIM) || *p == '!' || *p == '?' ||
	    *p == '$' || *p == '{' || *p == ';';
}

/* A brace comment at p (a `{`): its end; lx is moved past its line
 * ends. */
static const char *
lex_comment(cd_pgn_lexer *lx, cd_pgn_token *t, const char *p,
    const char *e)
{
	const char *rb = memchr(p + 1, '}', (size_t)(e - (p + 1))), *q;

	t->type = CD_PGN_TOK_COMMENT;
	t->text = p + 1;
	if (rb == NULL) {
		t->flags |= CD_PGN_TOKF_UNCLOSED;
		t->len = (size_t)(e - (p + 1));
		q = e;
	} else {
		t->len = (size_t)(rb - (p + 1));
		q = rb + 1;
	}
	lex_skip_to(lx, q);
	return q;
}

/* A `;` comment or an escape line at p, to its line end: its end. */
static const char *
lex_line(cd_pgn_token *t, const char *p, const char *e)
{
	const char *q = memchr(p, '\n', (size_t)(e - p));

	if (q == NULL)
		q = e;
	t->type = *p == ';' ? CD_PGN_TOK_LINE_COMMENT : CD_PGN_TOK_ESCAPE;
	t->text = p + 1;
	t->len = (size_t)(q - (p + 1));
	if (t->len > 0 && t->text[t->len - 1] == '\r')
		t->len--;
	return q;
}

/* A tag pair at p (a `[`), or the bytes of one that does not read: its
 * end; lx is moved past its line ends. */
static const char *
lex_tag(cd_pgn_lexer *lx, cd_pgn_token *t, const char *p, const char *e)
{
	struct cd__tagscan ts;

	if (cd__scan_tag(p, e, 1, &ts) > 0) {
		t->type = CD_PGN_TOK_TAG;
		t->text = ts.name;
		t->len = ts.name_len;
		t->value = ts.value;
		t->value_len = ts.value_len;
		if (ts.escapes)
			t->flags |= CD_PGN_TOKF_ESCAPES;
	} else {
		t->type = CD_PGN_TOK_ERROR;
	}
	lex_skip_to(lx, ts.next);
	return ts.next;
}

/* A string at p (a `"`), to its closing quote or its line end: its
 * end. */
static const char *
lex_string(cd_pgn_token *t, const char *p, const char *e)
{
	const char *le = memchr(p + 1, '\n', (size_t)(e - (p + 1))), *q;

	if (le == NULL)
		le = e;
	t->type = CD_PGN_TOK_STRING;
	t->text = p + 1;
	for (q = p + 1; q < le; q++) {
		if (*q == '\\' && q + 1 < le && (q[1] == '"' || q[1] == '\\'))
			q++;
		else if (*q == '"')
			break;
	}
	t->len = (size_t)(q - (p + 1));
	if (q < le && *q == '"')
		return q + 1;
	if (t->len > 0 && t->text[t->len - 1] == '\r')
		t->len--;
	t->flags |= CD_PGN_TOKF_UNCLOSED;
	return le;
}

/* A run of `!` and `?` at p: a suffix annotation, or an error. */
static const char *
lex_suffix(cd_pgn_token *t, const char *p, const char *e)
{
	static const char *const sfx[] = { "!", "?", "!!", "??", "!?", "?!" };
	const char *q = p + 1;
	int i;

	while (q < e && (*q == '!' || *q == '?'))
		q++;
	for (i = 0; i < 6; i++)
		if (strlen(sfx[i]) == (size_t)(q - p) &&
		    memcmp(sfx[i], p, (size_t)(q - p)) == 0)
			break;
	t->type = i < 6 ? CD_PGN_TOK_SUFFIX : CD_PGN_TOK_ERROR;
	t->num = i < 6 ? i + 1 : 0;
	return q;
}

/* The number of the digits at p (LONG_MAX when it is larger). */
static long
lex_number(const char *p, const char *e)
{
	long n = 0;

	for (; p < e && CD__IS_DIGIT(*p); p++)
		n = n > (LONG_MAX - 9) / 10 ? LONG_MAX : n * 10 + (*p - '0');
	return n;
}

/* The tokens that a punctuation byte at p begins (comments, escape
 * lines, variations, `*`, NAGs, tag pairs, strings, suffixes, periods):
 * the token's end, or NULL when p begins none of them. */
static const char *
lex_punct(cd_pgn_lexer *lx, cd_pgn_token *t, const char *p, const char *e)
{
	const char *q = p + 1;

	switch (*p) {
	case '{':
		return lex_comment(lx, t, p, e);
	case '%':
		if (t->col != 1)
			return NULL;
		/* FALLTHROUGH */
	case ';':
		return lex_line(t, p, e);
	case '(':
	case ')':
		t->type = *p == '(' ? CD_PGN_TOK_RAV_OPEN :
		    CD_PGN_TOK_RAV_CLOSE;
		return q;
	case '*':
		t->type = CD_PGN_TOK_RESULT;
		t->num = CD_PGN_RESULT_UNKNOWN;
		return q;
	case '$':
		while (q < e && CD__IS_DIGIT(*q))
			q++;
		if (q == p + 1)
			return NULL;
		t->type = CD_PGN_TOK_NAG;
		t->num = lex_number(p + 1, q);
		return q;
	case '[':
		return lex_tag(lx, t, p, e);
	case '"':
		return lex_string(t, p, e);
	case '!':
	case '?':
		return lex_suffix(t, p, e);
	case '.':
		while (q < e && *q == '.')
			q++;
		t->type = CD_PGN_TOK_MOVENUM;
		t->num = -1;
		t->dots = (unsigned)(q - p);
		return q;
	default:
		return NULL;
	}
}

/* A word that begins with a digit or `½` at p: a move number, a
 * termination marker, castling or a null move with zeros, digits glued
 * to a move, or a word the parser rejects.  Its end. */
static const char *
lex_numeric(cd_pgn_token *t, const char *p, const char *e)
{
	const char *d = p, *q;

	while (d < e && CD__IS_DIGIT(*d))
		d++;
	if (d > p && d < e && *d == '.') {
		t->type = CD_PGN_TOK_MOVENUM;
		for (q = d; q < e && *q == '.'; q++)
			;
		t->dots = (unsigned)(q - d);
		t->num = lex_number(p, e);
		return q;
	}
	q = move_word_end(p, e);
	if ((t->num = cd_pgn_result_parse(p, (size_t)(q - p))) !=
	    CD_PGN_RESULT_NONE) {
		t->type = CD_PGN_TOK_RESULT;
		return q;
	}
	t->type = CD_PGN_TOK_MOVE;
	if (is_castling(p, (size_t)(q - p))) {
		t->flags |= CD_PGN_TOKF_CASTLING;
		return q;
	}
	if (is_nullmove(p, (size_t)(q - p))) {
		t->flags |= CD_PGN_TOKF_NULLMOVE;
		return q;
	}
	if (d > p && (d == q || (d < e && (CD__CLS(*d) & K_LETTER)))) {
		/* Digits alone, or digits glued to a move. */
		t->type = CD_PGN_TOK_MOVENUM;
		t->num = lex_number(p, e);
		return d;
	}
	if (d == p) {
		t->type = CD_PGN_TOK_ERROR;
		return p + utf8_len(p, e);
	}
	return q;		/* a word the parser rejects */
}

/* Any other word at p: evaluation symbols and "--", "e.p." standing
 * alone, move words, or a byte (a UTF-8 character) that means nothing.
 * Its end. */
static const char *
lex_word(cd_pgn_token *t, const char *p, const char *e)
{
	const char *q;
	size_t k, i;

	if ((k = eval_run(p, e)) > 0) {
		if (k == 2 && memcmp(p, "--", 2) == 0) {
			t->type = CD_PGN_TOK_MOVE;
			t->flags |= CD_PGN_TOKF_NULLMOVE;
			return p + k;
		}
		for (i = 0; i < sizeof(evals) / sizeof(evals[0]); i++)
			if (strlen(evals[i].s) == k &&
			    memcmp(evals[i].s, p, k) == 0)
				break;
		if (i < sizeof(evals) / sizeof(evals[0])) {
			t->type = CD_PGN_TOK_EVAL;
			t->num = evals[i].nag;
		} else {
			t->type = CD_PGN_TOK_ERROR;
		}
		return p + k;
	}
	if (*p == 'e' && e - p >= 3 && p[1] == '.' && p[2] == 'p') {
		q = p + 3;
		if (q < e && *q == '.')
			q++;
		if (lex_delim(q, e)) {
			t->type = CD_PGN_TOK_EP;
			return q;
		}
	}
	if ((CD__CLS(*p) & K_LETTER) || *p == '@' || move_mb(p, e) > 0) {
		q = ep_glued(p, move_word_end(p, e), e);
		t->type = CD_PGN_TOK_MOVE;
		if (q - p == 2 && memcmp(p, "ep", 2) == 0)
			t->type = CD_PGN_TOK_EP;
		else if (is_castling(p, (size_t)(q - p)))
			t->flags |= CD_PGN_TOKF_CASTLING;
		else if (is_nullmove(p, (size_t)(q - p)))
			t->flags |= CD_PGN_TOKF_NULLMOVE;
		return q;
	}
	t->type = CD_PGN_TOK_ERROR;
	return p + utf8_len(p, e);
}

cd_pgn_tok_type
cd_pgn_lex_next(cd_pgn_lexer *lx, cd_pgn_token *t)
{
	const char *p, *e = lx->end, *q;
	bool more;

	cd__lex_blanks(lx);
	p = lx->p;
	t->flags = 0;
	t->raw = p;
	t->text = NULL;
	t->len = 0;
	t->value = NULL;
	t->value_len = 0;
	t->num = 0;
	t->dots = 0;
	t->line = lx->line;
	t->col = (unsigned long)(p - lx->line_start) + lx->col0;
	if (p == e) {
		t->type = CD_PGN_TOK_END;
		t->raw_len = 0;
		t->text = p;
		return t->type;
	}
	/* The common tokens first: a move word in ASCII that cannot be
	 * castling, a null move or an en passant mark, and a move number
	 * with its periods. */
	if (cd__plain_move_start(p, e)) {
		q = cd__move_ascii_end(p, e, &more);
		if (more)
			q = move_word_end(q, e);
		q = ep_glued(p, q, e);
		t->type = CD_PGN_TOK_MOVE;
	} else if ((q = lex_punct(lx, t, p, e)) != NULL) {
		;
	} else if (CD__IS_DIGIT(*p) || (CD__U(*p) == 0xc2 && e - p >= 2 &&
	    CD__U(p[1]) == 0xbd)) {
		q = lex_numeric(t, p, e);
	} else {
		q = lex_word(t, p, e);
	}
	t->raw_len = (size_t)(q - p);
	if (t->text == NULL) {
		t->text = p;
		t->len = t->raw_len;
	}
	lx->p = q;
	return t->type;
}

cd_pgn_tok_type
cd__lex_next_nested(cd_pgn_lexer *lx, cd_pgn_token *t, char **copy)
{
	const char *p, *e = lx->end;
	size_t depth = 0, i;
	char *d;

	*copy = NULL;
	if (cd_pgn_lex_next(lx, t) != CD_PGN_TOK_COMMENT ||
	    *t->raw != '{' || (t->flags & CD_PGN_TOKF_UNCLOSED) ||
	    memchr(t->text, '{', t->len) == NULL)
		return t->type;
	for (p = t->text; p < e; p++)
		if (*p == '{')
			depth++;
		else if (*p == '}' && depth-- == 0)
			break;
	if (p == e)
		return t->type;	/* (they do not balance: as usual) */
	t->len = (size_t)(p - t->text);
	t->raw_len = (size_t)(p + 1 - t->raw);
	lex_skip_to(lx, p + 1);
	if ((d = malloc(t->len + 1)) == NULL)
		return t->type;
	for (i = 0; i < t->len; i++)
		d[i] = t->text[i] == '{' ? '(' : t->text[i] == '}' ? ')' :
		    t->text[i];
	t->text = d;
	*copy = d;
	return t->type;
}
