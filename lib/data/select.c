/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * select.c: the condition engine of pgn-select (chessdata/select.h):
 * conditions read from text, matched on a raw game's tags and on a
 * parsed game's main line.
 */
#include "config.h"

#include <locale.h>
#include <pthread.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/internal.h"
#include "core/bits.h"

enum op { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_MATCH, OP_NMATCH };
enum cls { CLS_BYTES, CLS_DATE, CLS_ROUND };

#define MSG_MAX	CD_ERROR_MSG_MAX

struct where;

/* One condition on tags. */
struct tagcond {
	cd_select_kind kind;
	char *name;		/* CD_SEL_TAG */
	enum op op;
	char *value;
	size_t value_len;
	enum cls cls;
	bool is_int;
	char *lo, *hi;		/* CLS_DATE: the span of the value */
	bool has_re, has_re8;
	regex_t re;		/* bytes: ASCII values, an ASCII pattern */
	regex_t re8;		/* characters: any value (UTF-8 locale) */
	uint16_t *eco;		/* CD_SEL_ECO: pairs lo, hi */
	size_t neco;
	unsigned results;	/* CD_SEL_RESULT: bits 1 << cd_pgn_result */
	struct where *where;	/* CD_SEL_WHERE */
};

/* An expression of --where: nodes, the leaves conditions on tags. */
enum { W_LEAF, W_AND, W_OR, W_NOT };
struct wnode {
	int type;
	uint32_t a, b;		/* children; a: the leaf's index */
};
struct where {
	struct wnode *nodes;
	size_t nnodes;
	struct tagcond *leaves;
	size_t nleaves;
	uint32_t root;
};

/* Material: the count of each piece (color << 3 | type), at least or
 * exactly. */
struct material {
	uint8_t count[16];
	uint16_t more;		/* bit p: any number more of piece p */
};

/* A piece placement with squares of any content: where care has a
 * bit, the board's pieces must be those of piece[] (none: empty). */
struct placement {
	cd_bitboard care;
	cd_bitboard piece[16];
};

/* A move prefix: the moves from the standard start. */
struct prefix {
	cd_move *moves;
	uint32_t n;
};

/* Events of --occurs, anywhere in the main line. */
enum {
	OCC_THREEFOLD = 1 << 0, OCC_FIVEFOLD = 1 << 1, OCC_FIFTY = 1 << 2,
	OCC_SEVENTYFIVE = 1 << 3, OCC_CHECK = 1 << 4,
	OCC_UNDERPROMOTION = 1 << 5
};
static const char *const occ_names[] = {
	"threefold", "fivefold", "fifty", "seventyfive", "check",
	"underpromotion"
};
#define NOCC	(sizeof(occ_names) / sizeof(occ_names[0]))

struct cd_select {
	unsigned flags;
	const cd_san_lang *lang;
	struct tagcond *tags;
	size_t ntags, tags_cap;
	char **names;		/* tag names that conditions name */
	size_t nnames;
	uint64_t *games;	/* CD_SEL_GAMES: pairs lo, hi; any */
	size_t ngames;		/* sorted by start, apart (games_join) */
	size_t err_at;		/* the offset of the item that did not
				 * read (read_games) */
	bool plies;
	uint32_t plies_min, plies_max;
	cd_board *pos;		/* CD_SEL_POSITION: any of them */
	size_t npos;
	struct material *mat;	/* any of them */
	size_t nmat;
	unsigned *ends;		/* CD_SEL_ENDS: each a set, any bit */
	size_t nends;
	struct placement *place;	/* any of them */
	size_t nplace;
	struct prefix *pre;	/* any of them */
	size_t npre;
	unsigned *occ;		/* CD_SEL_OCCURS: each a set, any bit */
	size_t nocc;
	bool wrong;		/* CD_SEL_WRONG_RESULT */
};

cd_select *
cd_select_new(unsigned flags)
{
	cd_select *s = calloc(1, sizeof(*s));

	if (s != NULL)
		s->flags = flags;
	return s;
}

static void where_free(struct where *w);

static void
tagcond_free(struct tagcond *t)
{
	where_free(t->where);
	free(t->name);
	free(t->value);
	free(t->lo);
	free(t->hi);
	free(t->eco);
	if (t->has_re)
		regfree(&t->re);
	if (t->has_re8)
		regfree(&t->re8);
}

void
cd_select_free(cd_select *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->ntags; i++)
		tagcond_free(&s->tags[i]);
	free(s->tags);
	for (i = 0; i < s->nnames; i++)
		free(s->names[i]);
	free(s->names);
	free(s->games);
	free(s->pos);
	free(s->mat);
	free(s->ends);
	free(s->place);
	for (i = 0; i < s->npre; i++)
		free(s->pre[i].moves);
	free(s->pre);
	free(s->occ);
	free(s);
}

static void
where_free(struct where *w)
{
	size_t i;

	if (w == NULL)
		return;
	for (i = 0; i < w->nleaves; i++)
		tagcond_free(&w->leaves[i]);
	free(w->leaves);
	free(w->nodes);
	free(w);
}

void
cd_select_set_lang(cd_select *s, const cd_san_lang *lang)
{
	s->lang = lang;
}

const char *
cd_select_tag_name(const cd_select *s, size_t i)
{
	return i < s->nnames ? s->names[i] : NULL;
}

bool
cd_select_match_number(const cd_select *s, uint64_t n)
{
	size_t i;

	size_t lo = 0, hi;

	if (s->ngames == 0)
		return true;
	/* the last range that starts at n or before (sorted, apart) */
	for (hi = s->ngames; hi - lo > 1;) {
		i = lo + (hi - lo) / 2;
		if (s->games[2 * i] <= n)
			lo = i;
		else
			hi = i;
	}
	return n >= s->games[2 * lo] && n <= s->games[2 * lo + 1];
}

uint64_t
cd_select_last_number(const cd_select *s)
{
	/* sorted and apart: the last range ends last */
	return s->ngames == 0 ? UINT64_MAX : s->games[2 * s->ngames - 1];
}

bool
cd_select_needs_moves(const cd_select *s)
{
	return s->plies || s->npos > 0 || s->nmat > 0 || s->nends > 0 ||
	    s->nplace > 0 || s->npre > 0 || s->nocc > 0 || s->wrong;
}

bool
cd_select_has_tag_conditions(const cd_select *s)
{
	return s->ntags > 0;
}

/* ---- reading conditions ---- */

static bool
is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* An integer: an optional sign and digits, as many as they come. */
static bool
is_integer(const char *p, size_t len)
{
	size_t i = len > 0 && (p[0] == '-' || p[0] == '+');

	if (i == len)
		return false;
	for (; i < len; i++)
		if (p[i] < '0' || p[i] > '9')
			return false;
	return true;
}

/* Two integers (is_integer) compared as numbers, of any length. */
static int
int_cmp(const char *a, size_t an, const char *b, size_t bn)
{
	int sa = a[0] == '-' ? -1 : 1, sb = b[0] == '-' ? -1 : 1, c;

	if (a[0] == '-' || a[0] == '+')
		a++, an--;
	if (b[0] == '-' || b[0] == '+')
		b++, bn--;
	while (an > 0 && a[0] == '0')
		a++, an--;
	while (bn > 0 && b[0] == '0')
		b++, bn--;
	if (an == 0)
		sa = 1;	/* -0 is 0 */
	if (bn == 0)
		sb = 1;
	if (sa != sb)
		return sa < sb ? -1 : 1;
	c = an != bn ? (an < bn ? -1 : 1) : memcmp(a, b, an);
	c = c < 0 ? -1 : c > 0;
	return sa * c;
}

/* A count of plies: digits only, at most 4294967295. */
static bool
read_count(const char *p, size_t n, uint32_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (n == 0 || n > 10)
		return false;
	for (i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return false;
		v = v * 10 + (uint64_t)(p[i] - '0');
	}
	if (v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

static char *
dup_n(const char *p, size_t n)
{
	char *d = malloc(n + 1);

	if (d != NULL) {
		memcpy(d, p, n);
		d[n] = '\0';
	}
	return d;
}

/*
 * The span of a date value: lo and hi with every `?` made 0 or 9 and
 * missing month and day made 00 or 99.  A value that is not a date
 * (cd_collate_date_read: YYYY, YYYY.MM or YYYY.MM.DD) is its own span.
 */
static cd_status
date_span(struct tagcond *t)
{
	const char *v = t->value;
	size_t n = t->value_len, i, parts;
	unsigned ymd[3];
	char *lo, *hi;

	if (cd_collate_date_read(v, n, ymd) != CD_DATE_VALID) {
		t->lo = dup_n(v, n);
		t->hi = dup_n(v, n);
		return t->lo && t->hi ? CD_OK : CD_ERR_NOMEM;
	}
	parts = (n + 1) / 3;	/* 4, 7, 10 bytes: 1, 2, 3 parts */
	lo = malloc(n + 7);
	hi = malloc(n + 7);
	if (lo == NULL || hi == NULL) {
		free(lo);
		free(hi);
		return CD_ERR_NOMEM;
	}
	for (i = 0; i < n; i++) {
		lo[i] = v[i] == '?' ? '0' : v[i];
		hi[i] = v[i] == '?' ? '9' : v[i];
	}
	for (; parts < 3; parts++, i += 3) {
		memcpy(lo + i, ".00", 3);
		memcpy(hi + i, ".99", 3);
	}
	lo[i] = hi[i] = '\0';
	t->lo = lo;
	t->hi = hi;
	return CD_OK;
}

static bool
name_ends_date(const char *name)
{
	size_t n = strlen(name);

	return n >= 4 && strcmp(name + n - 4, "Date") == 0;
}

/*
 * Regular expressions match characters: a value is UTF-8 text (its
 * bytes that are not UTF-8 read as Latin-1, tag_text) and a pattern
 * too, and both are compiled and matched with LC_CTYPE a UTF-8 locale
 * (C.UTF-8, whatever the program's locale), so that `.` is one
 * character, a bracket holds characters and REG_ICASE folds every
 * letter.  A pattern of ASCII only is also compiled for bytes (the C
 * locale), which on an ASCII value matches the same and is faster:
 * ASCII values, most of them, never pay for the characters.  Without
 * a UTF-8 locale (not glibc), the patterns match bytes.
 */
static locale_t c_locale, utf8_locale;
static pthread_once_t locales_once = PTHREAD_ONCE_INIT;

static void
locales_init(void)
{
	static const char *const utf8[] = { "C.UTF-8", "C.utf8",
		"en_US.UTF-8" };
	size_t i;

	c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	for (i = 0; i < sizeof(utf8) / sizeof(utf8[0]) &&
	    utf8_locale == (locale_t)0; i++)
		utf8_locale = newlocale(LC_CTYPE_MASK, utf8[i], (locale_t)0);
}

/* regcomp and regexec in locale loc (none: the thread's). */
static int
regcomp_in(locale_t loc, regex_t *re, const char *pattern, int flags)
{
	locale_t old = loc ? uselocale(loc) : (locale_t)0;
	int rc = regcomp(re, pattern, flags);

	if (loc)
		uselocale(old);
	return rc;
}

static bool
regexec_in(locale_t loc, const regex_t *re, const char *s)
{
	locale_t old = loc ? uselocale(loc) : (locale_t)0;
	int rc = regexec(re, s, 0, NULL, 0);

	if (loc)
		uselocale(old);
	return rc == 0;
}

static bool
is_ascii(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] >= 0x80)
			return false;
	return true;
}

/* Compile re into t; the reason in buf (regerror's) when it does not. */
static cd_status
compile(cd_select *s, struct tagcond *t, const char *re, const char **why,
    char *buf)
{
	int fl = REG_EXTENDED | REG_NOSUB, rc = 0;
	size_t n = strlen(re);
	cd_buf u = { NULL, 0, 0 };
	regex_t *failed = NULL;

	if (s->flags & CD_SELECT_ICASE)
		fl |= REG_ICASE;
	pthread_once(&locales_once, locales_init);
	if (is_ascii(re, n)) {
		if ((rc = regcomp_in(c_locale, &t->re, re, fl)) != 0)
			failed = &t->re;
		else
			t->has_re = true;
	} else {
		/* a pattern's bytes that are not UTF-8 are Latin-1 too */
		if (cd_utf8_append(&u, re, n) != CD_OK ||
		    cd_buf_reserve(&u, 1) != CD_OK) {
			cd_buf_free(&u);
			return CD_ERR_NOMEM;
		}
		u.data[u.len] = '\0';
		re = u.data;
	}
	if (failed == NULL && utf8_locale != (locale_t)0) {
		if ((rc = regcomp_in(utf8_locale, &t->re8, re, fl)) != 0)
			failed = &t->re8;
		else
			t->has_re8 = true;
	} else if (failed == NULL && !t->has_re) {
		if ((rc = regcomp_in(c_locale, &t->re, re, fl)) != 0)
			failed = &t->re;
		else
			t->has_re = true;
	}
	cd_buf_free(&u);
	if (failed != NULL) {
		if (rc == REG_ESPACE)
			return CD_ERR_NOMEM;
		n = (size_t)snprintf(buf, MSG_MAX, "invalid regular expression: ");
		if (n < MSG_MAX)
			regerror(rc, failed, buf + n, MSG_MAX - n);
		*why = buf;
		return CD_ERR_SYNTAX;
	}
	return CD_OK;
}

static bool
is_op_char(char c)
{
	return c != '\0' && strchr("=!<>~", c) != NULL;
}

/* The operator at p and its length; false when there is none, or when
 * more operator characters follow it ("==", "=>", "=~"). */
static bool
read_op(const char *p, enum op *op, size_t *len)
{
	static const struct {
		const char *s;
		enum op op;
	} ops[] = {
		{ "!=", OP_NE }, { "!~", OP_NMATCH }, { "<=", OP_LE },
		{ ">=", OP_GE }, { "=", OP_EQ }, { "<", OP_LT },
		{ ">", OP_GT }, { "~", OP_MATCH }
	};
	size_t i, n;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		n = strlen(ops[i].s);
		if (strncmp(p, ops[i].s, n) == 0) {
			if (is_op_char(p[n]))
				return false;
			*op = ops[i].op;
			*len = n;
			return true;
		}
	}
	return false;
}

/* Remember a tag name that a condition names (once). */
static cd_status
name_add(cd_select *s, const char *name)
{
	char **n;
	size_t i;

	for (i = 0; i < s->nnames; i++)
		if (strcmp(s->names[i], name) == 0)
			return CD_OK;
	n = realloc(s->names, (s->nnames + 1) * sizeof(*n));
	if (n == NULL)
		return CD_ERR_NOMEM;
	s->names = n;
	if ((n[s->nnames] = strdup(name)) == NULL)
		return CD_ERR_NOMEM;
	s->nnames++;
	return CD_OK;
}

/* A condition NAME OP VALUE on one tag, its parts read. */
static cd_status
tag_setup(cd_select *s, struct tagcond *t, const char *name, size_t nlen,
    enum op op, const char *v, size_t vlen, const char **why, char *buf)
{
	cd_status st;

	t->kind = CD_SEL_TAG;
	t->op = op;
	if ((t->name = dup_n(name, nlen)) == NULL ||
	    (t->value = dup_n(v, vlen)) == NULL)
		return CD_ERR_NOMEM;
	t->value_len = vlen;
	if ((st = name_add(s, t->name)) != CD_OK)
		return st;
	if (t->op == OP_MATCH || t->op == OP_NMATCH)
		return compile(s, t, t->value, why, buf);
	t->is_int = is_integer(t->value, t->value_len);
	if (name_ends_date(t->name)) {
		t->cls = CLS_DATE;
		return date_span(t);
	}
	if (strcmp(t->name, "Round") == 0)
		t->cls = CLS_ROUND;
	return CD_OK;
}

/* "NAME OP VALUE" of -t: blanks around OP and at both ends left out */
static cd_status
read_tag(cd_select *s, struct tagcond *t, const char *text,
    const char **why, char *buf)
{
	const char *p = text, *name, *v;
	size_t nlen, oplen, vlen;
	enum op op;

	while (is_space(*p))
		p++;
	name = p;
	while (*p && !is_space(*p) && !is_op_char(*p))
		p++;
	nlen = (size_t)(p - name);
	while (is_space(*p))
		p++;
	if (nlen == 0) {
		*why = "no tag name (want NAME OP VALUE)";
		return CD_ERR_SYNTAX;
	}
	if (!read_op(p, &op, &oplen)) {
		*why = "no operator (want one of = != < <= > >= ~ !~)";
		return CD_ERR_SYNTAX;
	}
	v = p + oplen;
	while (is_space(*v))
		v++;
	vlen = strlen(v);
	while (vlen > 0 && is_space(v[vlen - 1]))
		vlen--;
	return tag_setup(s, t, name, nlen, op, v, vlen, why, buf);
}

/* ---- --where: tag conditions joined by and, or, not, () ---- */

struct wparse {
	cd_select *s;
	struct where *w;
	const char *start, *p;
	const char **why;
	char *buf;
	int depth;
};

static cd_status
wfail(struct wparse *q, const char *what)
{
	snprintf(q->buf, MSG_MAX, "%s at column %zu", what,
	    (size_t)(q->p - q->start) + 1);
	*q->why = q->buf;
	return CD_ERR_SYNTAX;
}

static void
wskip(struct wparse *q)
{
	while (is_space(*q->p))
		q->p++;
}

/* The word kw at p (not the start of a longer word): taken. */
static bool
wkeyword(struct wparse *q, const char *kw)
{
	size_t n = strlen(kw);
	char c;

	if (strncmp(q->p, kw, n) != 0)
		return false;
	c = q->p[n];
	if (c != '\0' && !is_space(c) && c != '(' && c != ')' && c != '"')
		return false;
	q->p += n;
	return true;
}

static cd_status
wpush(struct wparse *q, int type, uint32_t a, uint32_t b, uint32_t *out)
{
	struct where *w = q->w;
	struct wnode *n = realloc(w->nodes, (w->nnodes + 1) * sizeof(*n));

	if (n == NULL)
		return CD_ERR_NOMEM;
	w->nodes = n;
	n[w->nnodes].type = type;
	n[w->nnodes].a = a;
	n[w->nnodes].b = b;
	*out = (uint32_t)w->nnodes++;
	return CD_OK;
}

/* NAME OP VALUE, VALUE a word or a quoted string (\" and \\ in it) */
static cd_status
wleaf(struct wparse *q, uint32_t *out)
{
	struct where *w = q->w;
	struct tagcond *t;
	const char *name = q->p, *v;
	char *val;
	size_t nlen, oplen, vlen = 0;
	enum op op;
	cd_status st;

	while ((*q->p >= 'A' && *q->p <= 'Z') || (*q->p >= 'a' &&
	    *q->p <= 'z') || (*q->p >= '0' && *q->p <= '9') || *q->p == '_')
		q->p++;
	nlen = (size_t)(q->p - name);
	if (nlen == 0)
		return wfail(q, "want a condition NAME OP VALUE");
	wskip(q);
	if (!read_op(q->p, &op, &oplen))
		return wfail(q, "want an operator (= != < <= > >= ~ !~)");
	q->p += oplen;
	wskip(q);
	v = q->p;
	if ((val = malloc(strlen(v) + 1)) == NULL)
		return CD_ERR_NOMEM;
	if (*v == '"') {
		for (q->p++; *q->p && *q->p != '"'; q->p++) {
			if (*q->p == '\\' && (q->p[1] == '"' ||
			    q->p[1] == '\\'))
				q->p++;
			val[vlen++] = *q->p;
		}
		if (*q->p != '"') {
			free(val);
			q->p = v;
			return wfail(q, "quote never closed");
		}
		q->p++;
	} else {
		while (*q->p && !is_space(*q->p) && *q->p != '(' &&
		    *q->p != ')')
			val[vlen++] = *q->p++;
		if (vlen == 0) {
			free(val);
			return wfail(q, "want a value (a word or a "
			    "\"quoted string\")");
		}
	}
	t = realloc(w->leaves, (w->nleaves + 1) * sizeof(*t));
	if (t == NULL) {
		free(val);
		return CD_ERR_NOMEM;
	}
	w->leaves = t;
	t = &w->leaves[w->nleaves];
	memset(t, 0, sizeof(*t));
	st = tag_setup(q->s, t, name, nlen, op, val, vlen, q->why, q->buf);
	free(val);
	if (st != CD_OK) {
		tagcond_free(t);
		return st;
	}
	w->nleaves++;
	return wpush(q, W_LEAF, (uint32_t)(w->nleaves - 1), 0, out);
}

static cd_status wexpr(struct wparse *q, uint32_t *out);
static cd_status wjoin(struct wparse *q, int level, uint32_t *out);

static cd_status
wfactor(struct wparse *q, uint32_t *out)
{
	cd_status st;
	uint32_t a;

	wskip(q);
	if (++q->depth > 100)
		return wfail(q, "expression nested too deeply");
	if (wkeyword(q, "not")) {
		st = wfactor(q, &a);
		if (st == CD_OK)
			st = wpush(q, W_NOT, a, 0, out);
	} else if (*q->p == '(') {
		q->p++;
		st = wexpr(q, out);
		wskip(q);
		if (st == CD_OK && *q->p != ')')
			st = wfail(q, "want )");
		if (st == CD_OK)
			q->p++;
	} else
		st = wleaf(q, out);
	q->depth--;
	return st;
}

/* Level 0: terms joined by or; level 1: factors joined by and. */
static cd_status
wjoin(struct wparse *q, int level, uint32_t *out)
{
	static const char *const word[2] = { "or", "and" };
	cd_status st = level == 0 ? wjoin(q, 1, out) : wfactor(q, out);
	uint32_t b;

	while (st == CD_OK) {
		wskip(q);
		if (!wkeyword(q, word[level]))
			break;
		st = level == 0 ? wjoin(q, 1, &b) : wfactor(q, &b);
		if (st == CD_OK)
			st = wpush(q, level == 0 ? W_OR : W_AND, *out, b, out);
	}
	return st;
}

static cd_status
wexpr(struct wparse *q, uint32_t *out)
{
	return wjoin(q, 0, out);
}

static cd_status
read_where(cd_select *s, struct tagcond *t, const char *text,
    const char **why, char *buf)
{
	struct wparse q;
	cd_status st;

	if ((t->where = calloc(1, sizeof(*t->where))) == NULL)
		return CD_ERR_NOMEM;
	q.s = s;
	q.w = t->where;
	q.start = q.p = text;
	q.why = why;
	q.buf = buf;
	q.depth = 0;
	st = wexpr(&q, &t->where->root);
	if (st == CD_OK) {
		wskip(&q);
		if (*q.p != '\0')
			st = wfail(&q, "want and, or, ) or the end");
	}
	return st;
}

static int
eco_code(const char *p, size_t n)
{
	if (n != 3 || p[0] < 'A' || p[0] > 'E' || p[1] < '0' || p[1] > '9' ||
	    p[2] < '0' || p[2] > '9')
		return -1;
	return (p[0] - 'A') * 100 + (p[1] - '0') * 10 + (p[2] - '0');
}

/* "A00-B99,C42" */
static cd_status
read_eco(struct tagcond *t, const char *text, const char **why)
{
	const char *p = text;

	for (;;) {
		const char *e = p + strcspn(p, ",");
		const char *dash = memchr(p, '-', (size_t)(e - p));
		int lo, hi;
		uint16_t *n;

		if (dash != NULL) {
			lo = eco_code(p, (size_t)(dash - p));
			hi = eco_code(dash + 1, (size_t)(e - dash - 1));
		} else
			lo = hi = eco_code(p, (size_t)(e - p));
		if (lo < 0 || hi < 0 || lo > hi) {
			*why = "invalid ECO range (want A00-E99 codes, "
			    "like B20-B99,C42)";
			return CD_ERR_SYNTAX;
		}
		n = realloc(t->eco, (t->neco + 1) * 2 * sizeof(*n));
		if (n == NULL)
			return CD_ERR_NOMEM;
		t->eco = n;
		n[2 * t->neco] = (uint16_t)lo;
		n[2 * t->neco + 1] = (uint16_t)hi;
		t->neco++;
		if (*e == '\0')
			return CD_OK;
		p = e + 1;
	}
}

/* "1-0,1/2-1/2" */
static cd_status
read_results(struct tagcond *t, const char *text, const char **why)
{
	const char *p = text;

	for (;;) {
		size_t n = strcspn(p, ",");
		cd_pgn_result r = cd_pgn_result_parse(p, n);

		if (r == CD_PGN_RESULT_NONE) {
			*why = "invalid result (want 1-0, 0-1, 1/2-1/2 or *)";
			return CD_ERR_SYNTAX;
		}
		t->results |= 1u << r;
		if (p[n] == '\0')
			return CD_OK;
		p += n + 1;
	}
}

static cd_status
read_plies(cd_select *s, const char *text, const char **why)
{
	const char *dots = strstr(text, "..");
	uint32_t lo = 0, hi = UINT32_MAX;
	bool ok;

	if (dots == NULL)
		ok = read_count(text, strlen(text), &lo) && (hi = lo, true);
	else
		ok = (dots == text || read_count(text, (size_t)(dots - text),
		    &lo)) && (dots[2] == '\0' || read_count(dots + 2,
		    strlen(dots + 2), &hi)) && (dots > text || dots[2]);
	if (!ok || lo > hi) {
		*why = "invalid ply range (want MIN..MAX, MIN.., ..MAX or N)";
		return CD_ERR_SYNTAX;
	}
	/* several ranges: all must hold */
	if (s->plies) {
		lo = lo > s->plies_min ? lo : s->plies_min;
		hi = hi < s->plies_max ? hi : s->plies_max;
	}
	s->plies = true;
	s->plies_min = lo;
	s->plies_max = hi;
	return CD_OK;
}

static cd_status
read_position(cd_select *s, const char *text, cd_error *err)
{
	cd_board b, *n;

	if (cd_fen_parse(&b, text, strlen(text), CD_FEN_DETECT_960, err) !=
	    CD_OK) {
		if (err != NULL)
			err->status = CD_ERR_SYNTAX;
		return CD_ERR_SYNTAX;
	}
	n = realloc(s->pos, (s->npos + 1) * sizeof(*n));
	if (n == NULL)
		return CD_ERR_NOMEM;
	s->pos = n;
	s->pos[s->npos++] = b;
	return CD_OK;
}

/* "KRP*kr": a letter followed by `*`: any number of that piece, none
 * too; each king at most once. */
static cd_status
read_material(cd_select *s, const char *text, const char **why)
{
	static const char letters[] = "PNBRQK";
	struct material m, *n;
	const char *p;
	int last = -1, k;

	memset(&m, 0, sizeof(m));
	for (p = text; *p; p++) {
		const char *l = *p != '*' ? strchr(letters,
		    *p >= 'a' ? *p - 32 : *p) : NULL;
		int piece;

		if (*p == '*' && last >= 0 && CD_PIECE_TYPE(last) != CD_KING) {
			/* the letter before counts any number, none too */
			m.count[last]--;
			m.more |= (uint16_t)(1u << last);
			last = -1;
			continue;
		}
		if (l == NULL || *p == '\0') {
			*why = *p == '*' ? "invalid material: a * after "
			    "nothing, a king or another *" : "invalid material "
			    "(want piece letters like KRPkr, a * after a "
			    "letter for any number of that piece)";
			return CD_ERR_SYNTAX;
		}
		piece = CD_PIECE(*p >= 'a' ? CD_BLACK : CD_WHITE,
		    (int)(l - letters) + 1);
		if (CD_PIECE_TYPE(piece) == CD_KING && m.count[piece] > 0) {
			*why = "invalid material: a king twice";
			return CD_ERR_SYNTAX;
		}
		if (m.count[piece] == 16) {
			*why = "invalid material: more than 16 of one piece";
			return CD_ERR_SYNTAX;
		}
		m.count[piece]++;
		last = piece;
	}
	if (p == text) {
		*why = "empty material";
		return CD_ERR_SYNTAX;
	}
	/* the kings may be left out */
	for (k = 0; k < 2; k++)
		m.count[CD_PIECE(k, CD_KING)] = 1;
	n = realloc(s->mat, (s->nmat + 1) * sizeof(*n));
	if (n == NULL)
		return CD_ERR_NOMEM;
	s->mat = n;
	s->mat[s->nmat++] = m;
	return CD_OK;
}

/* Order of ranges (lo, hi pairs) by their start. */
static int
range_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The ranges of s sorted and joined where they overlap or touch, so
 * that a binary search finds a number's. */
static void
games_join(cd_select *s)
{
	size_t i, k = 0;
	uint64_t *g = s->games;

	qsort(g, s->ngames, 2 * sizeof(*g), range_cmp);
	for (i = 0; i < s->ngames; i++) {
		if (k > 0 && (g[2 * k - 1] == UINT64_MAX ||
		    g[2 * i] <= g[2 * k - 1] + 1)) {
			if (g[2 * i + 1] > g[2 * k - 1])
				g[2 * k - 1] = g[2 * i + 1];
			continue;
		}
		g[2 * k] = g[2 * i];
		g[2 * k + 1] = g[2 * i + 1];
		k++;
	}
	s->ngames = k;
}

/* "1-100,250,300-": game numbers, from 1; the byte offset of an item
 * that does not read in s->err_at */
static cd_status
read_games(cd_select *s, const char *text, const char **why)
{
	const char *p = text;
	size_t items = 1, i;
	uint64_t *n;

	for (i = 0; text[i] != '\0'; i++)
		items += text[i] == ',';
	if (items > SIZE_MAX / (2 * sizeof(*n)) - s->ngames)
		return CD_ERR_NOMEM;
	n = realloc(s->games, (s->ngames + items) * 2 * sizeof(*n));
	if (n == NULL)
		return CD_ERR_NOMEM;
	s->games = n;
	for (;;) {
		uint64_t lo = 0, hi;
		bool open = false;
		int digits = 0;

		s->err_at = (size_t)(p - text);
		for (; *p >= '0' && *p <= '9' && digits < 19; p++, digits++)
			lo = lo * 10 + (uint64_t)(*p - '0');
		hi = lo;
		if (digits > 0 && *p == '-') {
			p++;
			if (*p == ',' || *p == '\0')
				open = true;
			for (hi = 0, digits = 0; *p >= '0' && *p <= '9' &&
			    digits < 19; p++, digits++)
				hi = hi * 10 + (uint64_t)(*p - '0');
			if (open) {
				hi = UINT64_MAX;
				digits = 1;
			}
		}
		if (digits == 0 || lo == 0 || lo > hi ||
		    (*p != ',' && *p != '\0')) {
			*why = "invalid game numbers (want numbers from 1 and "
			    "ranges, like 1-100,250,300-)";
			games_join(s);	/* (those read before stay) */
			return CD_ERR_SYNTAX;
		}
		n[2 * s->ngames] = lo;
		n[2 * s->ngames + 1] = hi;
		s->ngames++;
		if (*p == '\0')
			break;
		p++;
	}
	s->err_at = 0;
	games_join(s);
	return CD_OK;
}

/* "r?????k?/8/...": the first field of a FEN, `?` any content */
static cd_status
read_placement(cd_select *s, const char *text, const char **why)
{
	static const char letters[] = "PNBRQK";
	struct placement pl, *n;
	const char *p = text;
	int rank = 7, file = 0;

	memset(&pl, 0, sizeof(pl));
	for (;; p++) {
		const char *l;

		if (*p == '/' || *p == '\0') {
			if (file != 8)
				break;
			if (*p == '\0' || rank == 0)
				break;
			rank--;
			file = 0;
		} else if (*p >= '1' && *p <= '8' && file + (*p - '0') <= 8) {
			for (int k = 0; k < *p - '0'; k++, file++)
				pl.care |= (cd_bitboard)1 << CD_SQ(file, rank);
		} else if (*p == '?' && file < 8) {
			file++;
		} else if (*p != '\0' && file < 8 &&
		    (l = strchr(letters, *p >= 'a' ? *p - 32 : *p)) != NULL) {
			int piece = CD_PIECE(*p >= 'a' ? CD_BLACK : CD_WHITE,
			    (int)(l - letters) + 1);

			pl.care |= (cd_bitboard)1 << CD_SQ(file, rank);
			pl.piece[piece] |= (cd_bitboard)1 << CD_SQ(file, rank);
			file++;
		} else
			break;
	}
	if (*p != '\0' || rank != 0 || file != 8) {
		*why = "invalid placement (want the first field of a FEN, "
		    "eight ranks, ? for a square of any content)";
		return CD_ERR_SYNTAX;
	}
	n = realloc(s->place, (s->nplace + 1) * sizeof(*n));
	if (n == NULL)
		return CD_ERR_NOMEM;
	s->place = n;
	s->place[s->nplace++] = pl;
	return CD_OK;
}

/* "1. e4 c5 2. Nf3": moves read as the movetext of a game from the
 * standard start */
static cd_status
read_moves(cd_select *s, const char *text, const char **why, char *buf)
{
	cd_pgn_parse_opts o;
	struct prefix pre, *n;
	cd_error err;
	cd_game *g;
	cd_status st;
	uint32_t i;

	memset(&o, 0, sizeof(o));
	o.lang = s->lang;
	if ((g = cd_game_new()) == NULL)
		return CD_ERR_NOMEM;
	st = cd_pgn_parse_text(g, text, strlen(text), &o, &err);
	if (st == CD_OK && g->has_fen)
		st = CD_ERR_SYNTAX, snprintf(err.msg, sizeof(err.msg),
		    "a tag is no move");
	if (st == CD_EOF || (st == CD_OK && g->nodes[0].next == 0)) {
		cd_game_free(g);
		*why = "no move";
		return CD_ERR_SYNTAX;
	}
	if (st != CD_OK) {
		cd_game_free(g);
		if (st == CD_ERR_NOMEM)
			return st;
		snprintf(buf, MSG_MAX, "%s", err.msg[0] ? err.msg :
		    cd_strerror(st));
		*why = buf;
		return CD_ERR_SYNTAX;
	}
	pre.n = 0;
	for (i = g->nodes[0].next; i; i = g->nodes[i].next)
		pre.n++;
	if ((pre.moves = malloc(pre.n * sizeof(*pre.moves))) == NULL) {
		cd_game_free(g);
		return CD_ERR_NOMEM;
	}
	pre.n = 0;
	for (i = g->nodes[0].next; i; i = g->nodes[i].next)
		pre.moves[pre.n++] = g->nodes[i].move;
	cd_game_free(g);
	n = realloc(s->pre, (s->npre + 1) * sizeof(*n));
	if (n == NULL) {
		free(pre.moves);
		return CD_ERR_NOMEM;
	}
	s->pre = n;
	s->pre[s->npre++] = pre;
	return CD_OK;
}

/* "check,underpromotion" */
static cd_status
read_occurs(cd_select *s, const char *text, const char **why)
{
	const char *p = text;
	unsigned set = 0, *n;
	size_t i;

	for (;;) {
		size_t len = strcspn(p, ",");

		for (i = 0; i < NOCC; i++)
			if (strlen(occ_names[i]) == len &&
			    memcmp(occ_names[i], p, len) == 0)
				break;
		if (i == NOCC) {
			*why = "unknown event (want threefold, fivefold, "
			    "fifty, seventyfive, check, underpromotion)";
			return CD_ERR_SYNTAX;
		}
		set |= 1u << i;
		if (p[len] == '\0')
			break;
		p += len + 1;
	}
	n = realloc(s->occ, (s->nocc + 1) * sizeof(*n));
	if (n == NULL)
		return CD_ERR_NOMEM;
	s->occ = n;
	s->occ[s->nocc++] = set;
	return CD_OK;
}

static cd_status
read_ends(cd_select *s, const char *text, const char **why)
{
	const char *p = text;
	unsigned set = 0, *n;

	for (;;) {
		size_t len = strcspn(p, ",");
		unsigned bit = cd_ending_parse(p, len);

		if (bit == 0) {
			*why = "unknown ending (want checkmate, stalemate, "
			    "dead, fivefold, seventyfive, threefold, fifty)";
			return CD_ERR_SYNTAX;
		}
		set |= bit;
		if (p[len] == '\0')
			break;
		p += len + 1;
	}
	n = realloc(s->ends, (s->nends + 1) * sizeof(*n));
	if (n == NULL)
		return CD_ERR_NOMEM;
	s->ends = n;
	s->ends[s->nends++] = set;
	return CD_OK;
}

/* cd_select_add: *why a message on failure (static or in buf), or err
 * filled */
static cd_status
add(cd_select *s, cd_select_kind k, const char *text, const char **why,
    char *buf, cd_error *err)
{
	struct tagcond *t;
	cd_status st;

	switch (k) {
	case CD_SEL_PLIES:
		return read_plies(s, text, why);
	case CD_SEL_POSITION:
		return read_position(s, text, err);
	case CD_SEL_MATERIAL:
		return read_material(s, text, why);
	case CD_SEL_ENDS:
		return read_ends(s, text, why);
	case CD_SEL_GAMES:
		return read_games(s, text, why);
	case CD_SEL_PLACEMENT:
		return read_placement(s, text, why);
	case CD_SEL_MOVES:
		return read_moves(s, text, why, buf);
	case CD_SEL_OCCURS:
		return read_occurs(s, text, why);
	case CD_SEL_WRONG_RESULT:
		s->wrong = true;
		return CD_OK;
	case CD_SEL_TAG: case CD_SEL_PLAYER: case CD_SEL_WHITE:
	case CD_SEL_BLACK: case CD_SEL_ECO: case CD_SEL_RESULT:
	case CD_SEL_WHERE: case CD_SEL_WINNER: case CD_SEL_LOSER:
		break;
	default:
		*why = "unknown kind of condition";
		return CD_ERR_ARG;
	}
	if (s->ntags == s->tags_cap) {
		size_t cap = s->tags_cap ? 2 * s->tags_cap : 8;
		struct tagcond *n = realloc(s->tags, cap * sizeof(*n));

		if (n == NULL)
			return CD_ERR_NOMEM;
		s->tags = n;
		s->tags_cap = cap;
	}
	t = &s->tags[s->ntags];
	memset(t, 0, sizeof(*t));
	switch (k) {
	case CD_SEL_TAG:
		st = read_tag(s, t, text, why, buf);
		break;
	case CD_SEL_WHERE:
		st = read_where(s, t, text, why, buf);
		break;
	case CD_SEL_ECO:
		st = read_eco(t, text, why);
		break;
	case CD_SEL_RESULT:
		st = read_results(t, text, why);
		break;
	default:
		st = compile(s, t, text, why, buf);
		break;
	}
	t->kind = k;
	if (st != CD_OK) {
		if (st == CD_ERR_NOMEM)
			*why = "out of memory";
		tagcond_free(t);
		return st;
	}
	s->ntags++;
	return CD_OK;
}

cd_status
cd_select_add(cd_select *s, cd_select_kind k, const char *text,
    cd_error *err)
{
	char buf[MSG_MAX];
	const char *why = NULL;
	cd_status st;

	s->err_at = 0;
	st = add(s, k, text != NULL ? text : "", &why, buf, err);
	if (st != CD_OK && why != NULL)
		cd__error_set(err, st, s->err_at, 0, 0, "%s", why);
	else if (st == CD_OK && err != NULL)
		memset(err, 0, sizeof(*err));
	return st;
}

/* ---- matching tags ---- */

/*
 * The text of a tag value as the other tools show it: bytes that are
 * not UTF-8 read as Latin-1 (chessdata/json.h), decoded into tmp (the
 * caller frees it) when there are any bytes above 127.  NULL when out
 * of memory.
 */
static const char *
tag_text(const cd_pgn_tag *tag, cd_buf *tmp, size_t *len)
{
	size_t i;

	for (i = 0; i < tag->value_len; i++)
		if ((unsigned char)tag->value[i] >= 0x80)
			break;
	*len = tag->value_len;
	if (i == tag->value_len)
		return tag->value;
	if (cd_utf8_append(tmp, tag->value, tag->value_len) != CD_OK ||
	    cd_buf_reserve(tmp, 1) != CD_OK)
		return NULL;
	tmp->data[tmp->len] = '\0';
	*len = tmp->len;
	return tmp->data;
}

static bool
re_match(const struct tagcond *t, const cd_pgn_tag *tag)
{
	cd_buf tmp = { NULL, 0, 0 };
	const char *v;
	size_t n;
	bool ok;

	if (tag == NULL || (v = tag_text(tag, &tmp, &n)) == NULL)
		return false;
	if (t->has_re && (!t->has_re8 || v != tmp.data))
		ok = regexec_in(c_locale, &t->re, v);	/* ASCII */
	else
		ok = regexec_in(utf8_locale, &t->re8, v);
	cd_buf_free(&tmp);
	return ok;
}

static int
sign(int c)
{
	return c < 0 ? -1 : c > 0;
}

static bool
tag_compare(const cd_select *s, const struct tagcond *t, const char *v,
    size_t n)
{
	int c;

	if (t->cls == CLS_BYTES && t->is_int && is_integer(v, n)) {
		c = int_cmp(v, n, t->value, t->value_len);
	} else if (t->cls == CLS_BYTES && t->is_int && t->op != OP_EQ &&
	    t->op != OP_NE) {
		/* "?" or "-" is no rating: neither above nor below one */
		return false;
	} else if (t->cls == CLS_DATE) {
		int lo = sign(cd_collate_date(v, n, t->lo, strlen(t->lo)));
		int hi = sign(cd_collate_date(v, n, t->hi, strlen(t->hi)));

		switch (t->op) {
		case OP_EQ: return lo >= 0 && hi <= 0;
		case OP_NE: return lo < 0 || hi > 0;
		case OP_LT: return lo < 0;
		case OP_LE: return hi <= 0;
		case OP_GT: return hi > 0;
		default: return lo >= 0;
		}
	} else if (t->cls == CLS_ROUND) {
		c = cd_collate_round(v, n, t->value, t->value_len);
	} else if ((s->flags & CD_SELECT_ICASE) &&
	    (t->op == OP_EQ || t->op == OP_NE)) {
		c = n == t->value_len && strncasecmp(v, t->value, n) == 0 ?
		    0 : 1;
	} else
		c = cd_collate_bytes(v, n, t->value, t->value_len);
	switch (t->op) {
	case OP_EQ: return c == 0;
	case OP_NE: return c != 0;
	case OP_LT: return c < 0;
	case OP_LE: return c <= 0;
	case OP_GT: return c > 0;
	default: return c >= 0;
	}
}

static bool
tag_holds(const cd_select *s, const struct tagcond *t, const cd_pgn_tag *g)
{
	cd_buf tmp = { NULL, 0, 0 };
	const char *v;
	size_t n;
	bool ok;

	if (g == NULL)
		return t->op == OP_NE || t->op == OP_NMATCH;
	if (t->op == OP_MATCH)
		return re_match(t, g);
	if (t->op == OP_NMATCH)
		return !re_match(t, g);
	if ((v = tag_text(g, &tmp, &n)) == NULL)
		return false;
	ok = tag_compare(s, t, v, n);
	cd_buf_free(&tmp);
	return ok;
}

/* Whether the expression from node i holds for raw. */
static bool
where_holds(const cd_select *s, const struct where *w, uint32_t i,
    const cd_pgn_raw_game *raw)
{
	const struct wnode *n = &w->nodes[i];
	const struct tagcond *t;

	switch (n->type) {
	case W_AND:
		return where_holds(s, w, n->a, raw) &&
		    where_holds(s, w, n->b, raw);
	case W_OR:
		return where_holds(s, w, n->a, raw) ||
		    where_holds(s, w, n->b, raw);
	case W_NOT:
		return !where_holds(s, w, n->a, raw);
	default:
		t = &w->leaves[n->a];
		return tag_holds(s, t, cd_pgn_raw_tag(raw, t->name));
	}
}

static bool
eco_holds(const struct tagcond *t, const cd_pgn_tag *g)
{
	int code;
	size_t i;

	if (g == NULL || g->value_len < 3)
		return false;
	code = eco_code(g->value, 3);
	if (code < 0)
		return false;
	for (i = 0; i < t->neco; i++)
		if (code >= t->eco[2 * i] && code <= t->eco[2 * i + 1])
			return true;
	return false;
}

bool
cd_select_match_tags(const cd_select *s, const cd_pgn_raw_game *raw)
{
	size_t i;

	for (i = 0; i < s->ntags; i++) {
		const struct tagcond *t = &s->tags[i];
		cd_pgn_result r;
		bool ok;

		switch (t->kind) {
		case CD_SEL_TAG:
			ok = tag_holds(s, t, cd_pgn_raw_tag(raw, t->name));
			break;
		case CD_SEL_PLAYER:
			ok = re_match(t, cd_pgn_raw_tag(raw, "White")) ||
			    re_match(t, cd_pgn_raw_tag(raw, "Black"));
			break;
		case CD_SEL_WHITE:
			ok = re_match(t, cd_pgn_raw_tag(raw, "White"));
			break;
		case CD_SEL_BLACK:
			ok = re_match(t, cd_pgn_raw_tag(raw, "Black"));
			break;
		case CD_SEL_ECO:
			ok = eco_holds(t, cd_pgn_raw_tag(raw, "ECO"));
			break;
		case CD_SEL_WHERE:
			ok = where_holds(s, t->where, t->where->root, raw);
			break;
		case CD_SEL_WINNER: case CD_SEL_LOSER:
			r = cd_pgn_raw_result(raw);
			if (r != CD_PGN_RESULT_WHITE && r != CD_PGN_RESULT_BLACK)
				ok = false;
			else
				ok = re_match(t, cd_pgn_raw_tag(raw,
				    (r == CD_PGN_RESULT_WHITE) ==
				    (t->kind == CD_SEL_WINNER) ? "White" :
				    "Black"));
			break;
		default:	/* CD_SEL_RESULT */
			r = cd_pgn_raw_result(raw);
			ok = (t->results >> r) & 1;
			break;
		}
		if (!ok)
			return false;
	}
	return true;
}

/* ---- matching moves ---- */

static bool
same_position(const cd_board *a, const cd_board *b)
{
	return a->key == b->key && a->side == b->side &&
	    memcmp(a->squares, b->squares, sizeof(a->squares)) == 0 &&
	    memcmp(a->castle_rook, b->castle_rook,
	    sizeof(a->castle_rook)) == 0 &&
	    (a->ep_hashed ? a->ep : CD_SQ_NONE) ==
	    (b->ep_hashed ? b->ep : CD_SQ_NONE);
}

static bool
material_is(const cd_board *b, const struct material *m)
{
	int c, t;

	for (c = 0; c < 2; c++)
		for (t = CD_PAWN; t < CD_KING; t++) {
			int p = CD_PIECE(c, t);
			int n = cd__popcount(b->by_type[t] & b->by_color[c]);

			if (n < m->count[p] ||
			    (n > m->count[p] && !((m->more >> p) & 1)))
				return false;
		}
	return true;
}

/* Whether a position with the pieces of b can still come after b:
 * pieces are never added, and a pawn that left its first square never
 * comes back to it. */
static bool
may_follow(const cd_board *b, const cd_board *target)
{
	const cd_bitboard home_w = 0xff00ULL, home_b = 0xff000000000000ULL;
	cd_bitboard wp = b->by_type[CD_PAWN] & b->by_color[CD_WHITE];
	cd_bitboard bp = b->by_type[CD_PAWN] & b->by_color[CD_BLACK];
	cd_bitboard twp = target->by_type[CD_PAWN] &
	    target->by_color[CD_WHITE];
	cd_bitboard tbp = target->by_type[CD_PAWN] &
	    target->by_color[CD_BLACK];

	return cd__popcount(b->by_type[0]) >=
	    cd__popcount(target->by_type[0]) &&
	    !(twp & home_w & ~wp) && !(tbp & home_b & ~bp);
}

/* The number of pieces a material condition asks for at least. */
static int
material_min(const struct material *m)
{
	int p, n = 0;

	for (p = 0; p < 16; p++)
		n += m->count[p];
	return n;
}

static bool
placement_is(const cd_board *b, const struct placement *pl)
{
	int c, t;

	for (c = 0; c < 2; c++)
		for (t = CD_PAWN; t <= CD_KING; t++)
			if ((b->by_type[t] & b->by_color[c] & pl->care) !=
			    pl->piece[CD_PIECE(c, t)])
				return false;
	return true;
}

/* Whether g's main line begins with one of the prefixes. */
static bool
prefix_holds(const cd_select *s, const cd_game *g)
{
	cd_board start;
	size_t k;

	cd_board_init(&start);
	if (!same_position(&g->start, &start))
		return false;
	for (k = 0; k < s->npre; k++) {
		const struct prefix *p = &s->pre[k];
		uint32_t i = g->nodes[0].next, n = 0;

		while (n < p->n && i != 0 && g->nodes[i].move == p->moves[n]) {
			i = g->nodes[i].next;
			n++;
		}
		if (n == p->n)
			return true;
	}
	return false;
}

bool
cd_select_prefix_fails(const cd_select *s, const cd_pgn_raw_game *raw)
{
	uint64_t alive = 0;
	uint32_t n = 0, most = 0;
	cd_pgn_lexer lx;
	cd_pgn_token t;
	cd_board b;
	cd_move m;
	int depth = 0;
	size_t k;

	/* another start position, another game: the parser decides */
	if (s->npre == 0 || s->npre > 64 || cd_pgn_raw_tag(raw, "FEN") ||
	    cd_pgn_raw_tag(raw, "Variant"))
		return false;
	for (k = 0; k < s->npre; k++) {
		alive |= (uint64_t)1 << k;
		most = s->pre[k].n > most ? s->pre[k].n : most;
	}
	cd_board_init(&b);
	cd_pgn_lex_init(&lx, raw->text + raw->movetext,
	    raw->movetext_end - raw->movetext, raw->movetext_line,
	    raw->movetext_col);
	while (alive != 0 && n < most) {
		switch (cd_pgn_lex_next(&lx, &t)) {
		case CD_PGN_TOK_RAV_OPEN:
			depth++;
			continue;
		case CD_PGN_TOK_RAV_CLOSE:
			if (depth-- == 0)
				return false;
			continue;
		case CD_PGN_TOK_MOVE:
			if (depth > 0)
				continue;
			break;
		case CD_PGN_TOK_END: case CD_PGN_TOK_RESULT:
		case CD_PGN_TOK_ERROR: case CD_PGN_TOK_TAG:
			return false;	/* in doubt: parsed */
		default:
			continue;
		}
		if (cd_san_parse(&b, t.text, t.len, s->lang, 0, &m, NULL) !=
		    CD_OK || m == CD_MOVE_NULL)
			return false;
		for (k = 0; k < s->npre; k++)
			if (((alive >> k) & 1) && s->pre[k].moves[n] != m)
				alive &= ~((uint64_t)1 << k);
		cd_board_make(&b, m);
		n++;
		for (k = 0; k < s->npre; k++)
			if (((alive >> k) & 1) && s->pre[k].n == n)
				return false;	/* a whole prefix matched */
	}
	return alive == 0;
}

/* The events of --occurs at b, just reached by move m (h: the line's
 * positions, NULL when no repetition is asked). */
static unsigned
occurs_at(const cd_board *b, cd_move m, const cd_history *h, unsigned want)
{
	unsigned set = 0;
	int reps;

	if ((want & OCC_CHECK) && cd_board_in_check(b))
		set |= OCC_CHECK;
	if (CD_MOVE_IS_PROMO(m) && CD_MOVE_PROMO_TYPE(m) != CD_QUEEN)
		set |= OCC_UNDERPROMOTION;
	if (b->halfmove >= 100)
		set |= OCC_FIFTY;
	if (b->halfmove >= 150)
		set |= OCC_SEVENTYFIVE;
	/* a third occurrence needs 8 reversible half-moves at least */
	if (h != NULL && b->halfmove >= 8) {
		reps = cd_history_repetitions(h, b);
		if (reps >= 3)
			set |= OCC_THREEFOLD;
		if (reps >= 5)
			set |= OCC_FIVEFOLD;
	}
	return set & want;
}

/* Whether every --occurs set has an event of found. */
static bool
occurs_met(const cd_select *s, unsigned found)
{
	size_t k;

	for (k = 0; k < s->nocc; k++)
		if (!(s->occ[k] & found))
			return false;
	return true;
}

bool
cd_select_match_moves(const cd_select *s, const cd_game *g)
{
	bool want_rep = false, pos_left = s->npos > 0, track;
	bool mat_left = s->nmat > 0, pl_left = s->nplace > 0, occ_left;
	int mat_need = 64;	/* fewest pieces a material needs */
	unsigned occ_want = 0, occ_found = 0;
	cd_game_walk w;
	const cd_board *b = &w.rules.board;
	cd_board end;
	uint32_t i, last = 0, plies = 0;
	unsigned endings = 0;
	size_t k;

	/* the main line's length, and its final position from the
	 * parser when it left its cursor there */
	for (i = g->nodes[0].next; i; i = g->nodes[i].next) {
		last = i;
		plies++;
	}
	if (s->plies && (plies < s->plies_min || plies > s->plies_max))
		return false;
	if (s->npre > 0 && !prefix_holds(s, g))
		return false;
	if (cd_game_depth(g) == 0 && cd_game_cursor(g) == last)
		end = *cd_game_board(g);
	else
		cd_game_end_position(g, &end);
	for (k = 0; k < s->nends; k++)
		if (s->ends[k] & (CD_END_THREEFOLD | CD_END_FIVEFOLD))
			want_rep = true;
	if (s->wrong)
		want_rep = true;	/* a fivefold draws */
	/* a threefold repetition needs 8 reversible half-moves at least
	 * (the clock counts them, whatever a FEN start said) */
	if (want_rep && end.halfmove < 8)
		want_rep = false;
	for (k = 0; k < s->nocc; k++)
		occ_want |= s->occ[k];
	occ_left = s->nocc > 0;
	for (k = 0; k < s->nmat; k++) {
		int n = material_min(&s->mat[k]);

		mat_need = n < mat_need ? n : mat_need;
	}
	/* the positions since the last pawn move or capture (the walk
	 * keeps no others) */
	track = want_rep || (occ_want & (OCC_THREEFOLD | OCC_FIVEFOLD));
	cd_game_walk_init(&w);
	cd_game_walk_start(&w, g, track);
	if (occ_left) {
		/* a FEN start may be past fifty moves already */
		if (b->halfmove >= 100)
			occ_found |= OCC_FIFTY & occ_want;
		if (b->halfmove >= 150)
			occ_found |= OCC_SEVENTYFIVE & occ_want;
		occ_left = !occurs_met(s, occ_found);
	}
	/* replay while something is still to be found */
	for (;;) {
		if (pos_left) {
			bool may = false;

			for (k = 0; k < s->npos; k++) {
				if (same_position(b, &s->pos[k])) {
					pos_left = false;
					break;
				}
				may = may || may_follow(b, &s->pos[k]);
			}
			if (pos_left && !may)
				break;	/* never reached */
		}
		for (k = 0; pl_left && k < s->nplace; k++)
			if (placement_is(b, &s->place[k]))
				pl_left = false;
		/* material changes only with a capture or promotion,
		 * which reset the clock */
		if (mat_left && (w.node == 0 || b->halfmove == 0)) {
			if (cd__popcount(b->by_type[0]) < mat_need)
				break;	/* never reached */
			for (k = 0; mat_left && k < s->nmat; k++)
				if (material_is(b, &s->mat[k]))
					mat_left = false;
		}
		if (!pos_left && !mat_left && !pl_left && !occ_left &&
		    !want_rep)
			break;
		if (!cd_game_walk_next(&w))
			break;
		if (occ_left) {
			occ_found |= occurs_at(b, g->nodes[w.node].move,
			    w.track ? &w.rules.history : NULL, occ_want);
			occ_left = !occurs_met(s, occ_found);
		}
	}
	if (pos_left || mat_left || pl_left || occ_left) {
		cd_game_walk_free(&w);
		return false;
	}
	/* with a repetition asked, the walk went to the end */
	if (s->nends > 0 || s->wrong)
		endings = want_rep ? cd_game_walk_endings(&w) :
		    cd_board_endings(&end, NULL);
	cd_game_walk_free(&w);
	if (want_rep && !w.track)
		return false;	/* out of memory */
	for (k = 0; k < s->nends; k++)
		if (!(endings & s->ends[k]))
			return false;
	if (s->wrong && cd_result_contradiction(&end, endings |
	    (cd_game_lost_on_time(g) ? CD_END_TIME_FORFEIT : 0),
	    cd_game_result(g)) == NULL)
		return false;
	return true;
}
