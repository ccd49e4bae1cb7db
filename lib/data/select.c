/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * select.c: the condition engine of pgn-select (chessdata/select.h):
 * the selector, the conditions on tags (--where's expressions
 * included) read from text and matched on a raw game's tags, and the
 * adding of every kind of condition (those on the main line are read
 * and matched in select_moves.c).
 */
#include "config.h"

#include <locale.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "data/select_int.h"

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
	cd_buf u = { 0 };
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
		return cd__sel_read_plies(s, text, why);
	case CD_SEL_POSITION:
		return cd__sel_read_position(s, text, err);
	case CD_SEL_MATERIAL:
		return cd__sel_read_material(s, text, why);
	case CD_SEL_ENDS:
		return cd__sel_read_ends(s, text, why);
	case CD_SEL_GAMES:
		return cd__sel_read_games(s, text, why);
	case CD_SEL_PLACEMENT:
		return cd__sel_read_placement(s, text, why);
	case CD_SEL_MOVES:
		return cd__sel_read_moves(s, text, why, buf);
	case CD_SEL_OCCURS:
		return cd__sel_read_occurs(s, text, why);
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
	cd_buf tmp = { 0 };
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
	cd_buf tmp = { 0 };
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
