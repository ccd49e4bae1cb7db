/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgn/comment.c: bracketed commands in PGN comments ([%clk], [%emt],
 * [%eval], [%timestamp], [%csl], [%cal], any [%name]): found, read into
 * numbers, stripped (see chessdata/comment.h).
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "common/internal.h"
#include "chessdata/comment.h"

static inline bool
is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	    c == '\v' || c == '\f';
}

static inline bool
is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static inline bool
is_name(unsigned char c)
{
	return is_digit(c) || c == '_' || (c >= 'a' && c <= 'z') ||
	    (c >= 'A' && c <= 'Z');
}

bool
cd_comment_cmd_next(const char *text, size_t len, size_t *pos,
    cd_comment_cmd *cmd)
{
	size_t i = *pos;

	while (i + 2 < len) {
		const char *p = memchr(text + i, '[', len - i - 2);
		size_t s, n, a, e;

		if (p == NULL)
			break;
		s = (size_t)(p - text);
		i = s + 1;
		if (text[s + 1] != '%')
			continue;
		for (n = s + 2; n < len && is_name((unsigned char)text[n]);
		    n++)
			;
		if (n == s + 2)
			continue;
		p = memchr(text + n, ']', len - n);
		if (p == NULL)
			break;
		e = (size_t)(p - text);
		/* the name ends at white space or at the `]` */
		if (n < e && !is_space((unsigned char)text[n]))
			continue;
		for (a = n; a < e && is_space((unsigned char)text[a]); a++)
			;
		cmd->name = text + s + 2;
		cmd->name_len = n - (s + 2);
		cmd->args = text + a;
		while (e > a && is_space((unsigned char)text[e - 1]))
			e--;
		cmd->args_len = e - a;
		cmd->start = s;
		cmd->end = (size_t)(p - text) + 1;
		*pos = cmd->end;
		return true;
	}
	*pos = len;
	return false;
}

/* Digits at s[*i..]: at most 9 of them; false when there is none or
 * more. */
static bool
number(const char *s, size_t len, size_t *i, int64_t *v, int *ndig)
{
	size_t k = *i;

	*v = 0;
	while (k < len && is_digit((unsigned char)s[k])) {
		if (k - *i == 9)
			return false;
		*v = *v * 10 + (s[k] - '0');
		k++;
	}
	*ndig = (int)(k - *i);
	*i = k;
	return *ndig > 0;
}

bool
cd_comment_parse_time(const char *s, size_t len, int64_t *ns)
{
	int64_t part[3], v, frac = 0;
	size_t i = 0;
	int n = 0, nd, neg = 0, k;

	/* the clocks of lichess and chess.com, H:MM:SS and H:MM:SS.D, at
	 * once (check_comment compares them with the general way) */
	if ((len == 7 || (len == 9 && s[7] == '.' &&
	    is_digit((unsigned char)s[8]))) && is_digit((unsigned char)s[0]) &&
	    s[1] == ':' && s[2] >= '0' && s[2] <= '5' &&
	    is_digit((unsigned char)s[3]) && s[4] == ':' && s[5] >= '0' &&
	    s[5] <= '5' && is_digit((unsigned char)s[6])) {
		*ns = ((int64_t)(s[0] - '0') * 3600 + (s[2] - '0') * 600 +
		    (s[3] - '0') * 60 + (s[5] - '0') * 10 + (s[6] - '0')) *
		    1000000000 + (len == 9 ? (s[8] - '0') * 100000000 : 0);
		return true;
	}
	if (i < len && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	for (;;) {
		if (n == 3 || !number(s, len, &i, &v, &nd))
			return false;
		/* minutes and seconds after a colon: two digits, < 60 */
		if (n > 0 && (nd != 2 || v > 59))
			return false;
		part[n++] = v;
		if (i < len && s[i] == ':') {
			i++;
			continue;
		}
		break;
	}
	if (i < len && s[i] == '.') {
		i++;
		if (i == len || !is_digit((unsigned char)s[i]))
			return false;
		for (k = 0; i < len && is_digit((unsigned char)s[i]); i++,
		    k++)
			if (k < 9)
				frac = frac * 10 + (s[i] - '0');
		for (; k < 9; k++)
			frac *= 10;
	}
	if (i != len)
		return false;
	v = 0;
	for (k = 0; k < n; k++)
		v = v * 60 + part[k];
	if (v > INT64_MAX / 1000000000 - 1)
		return false;
	v = v * 1000000000 + frac;
	*ns = neg ? -v : v;
	return true;
}

bool
cd_comment_parse_eval(const char *s, size_t len, int *kind,
    int32_t *value, int32_t *depth)
{
	size_t i = 0, e = len;
	int64_t ip = 0, d = -1, v;
	int neg = 0, nd, k, digits = 0;
	const char *comma = memchr(s, ',', len);

	if (comma != NULL) {
		size_t j = (size_t)(comma - s) + 1;

		e = (size_t)(comma - s);
		while (j < len && is_space((unsigned char)s[j]))
			j++;
		if (!number(s, len, &j, &d, &nd) || j != len)
			return false;
		while (e > 0 && is_space((unsigned char)s[e - 1]))
			e--;
	}
	if (i < e && s[i] == '#') {
		i++;
		if (i < e && (s[i] == '-' || s[i] == '+'))
			neg = s[i++] == '-';
		if (!number(s, e, &i, &v, &nd) || i != e)
			return false;
		*kind = CD_EVAL_MATE;
		*value = (int32_t)(neg ? -v : v);
		*depth = (int32_t)d;
		return true;
	}
	if (i < e && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	if (i < e && is_digit((unsigned char)s[i])) {
		if (!number(s, e, &i, &ip, &nd) || ip > 9999999)
			return false;
		digits = 1;
	}
	v = ip * 100;
	if (i < e && s[i] == '.') {
		int64_t f = 0;

		i++;
		for (k = 0; i < e && is_digit((unsigned char)s[i]); i++, k++) {
			if (k < 3)
				f = f * 10 + (s[i] - '0');
			digits = 1;
		}
		if (k == 0)
			return false;
		for (; k < 3; k++)
			f *= 10;
		/* f: thousandths; round half away from zero */
		v += (f + 5) / 10;
	}
	if (!digits || i != e)
		return false;
	*kind = CD_EVAL_CP;
	*value = (int32_t)(neg ? -v : v);
	*depth = (int32_t)d;
	return true;
}

static bool
name_is(const cd_comment_cmd *c, const char *name)
{
	size_t n = strlen(name);

	return c->name_len == n && memcmp(c->name, name, n) == 0;
}

/*
 * TCEC's engine comments: "d=33, sd=33, mt=37918, tl=1765082, ...,
 * wv=0.60, ...": fields separated by commas, tl (the clock left) and mt
 * (the move's time) in milliseconds, wv the evaluation from White's
 * side (pawns, or M12 / -M5 for a mate), d its depth.  They fill what
 * no command gave.
 */
static void
tcec(const char *t, size_t len, cd_comment_data *d)
{
	unsigned had = d->has;
	int32_t depth = -1;
	size_t i = 0;

	while (i < len) {
		size_t s, e, v;
		int64_t x;
		int nd;

		while (i < len && is_space((unsigned char)t[i]))
			i++;
		s = i;
		while (i < len && t[i] != ',')
			i++;
		e = i++;
		while (e > s && is_space((unsigned char)t[e - 1]))
			e--;
		for (v = s; v < e && t[v] != '='; v++)
			;
		if (v == e || v - s > 2)
			continue;
		v++;
		if (v - s == 3 && (memcmp(t + s, "tl=", 3) == 0 ||
		    memcmp(t + s, "mt=", 3) == 0)) {
			size_t k = v;

			if (!number(t, e, &k, &x, &nd) || k != e)
				continue;
			if (t[s] == 't' && !(had & CD_COMMENT_CLK)) {
				d->clk_ns = x * 1000000;
				d->has |= CD_COMMENT_CLK;
			} else if (t[s] == 'm' && !(had & CD_COMMENT_EMT)) {
				d->emt_ns = x * 1000000;
				d->has |= CD_COMMENT_EMT;
			}
		} else if (v - s == 2 && t[s] == 'd') {
			size_t k = v;

			if (number(t, e, &k, &x, &nd) && k == e)
				depth = (int32_t)x;
		} else if (v - s == 3 && memcmp(t + s, "wv=", 3) == 0 &&
		    !(had & CD_COMMENT_EVAL)) {
			size_t k = v;
			int neg = 0, kind;
			int32_t val, dep;

			if (k < e && t[k] == '-')
				neg = 1, k++;
			if (k < e && t[k] == 'M') {
				k++;
				if (!number(t, e, &k, &x, &nd) || k != e)
					continue;
				d->eval_kind = CD_EVAL_MATE;
				d->eval = (int32_t)(neg ? -x : x);
			} else if (cd_comment_parse_eval(t + v, e - v, &kind,
			    &val, &dep) && kind == CD_EVAL_CP) {
				d->eval_kind = kind;
				d->eval = val;
			} else
				continue;
			d->has |= CD_COMMENT_EVAL;
		}
	}
	if ((d->has & ~had & CD_COMMENT_EVAL) && d->eval_depth < 0)
		d->eval_depth = depth;
}

unsigned
cd_comment_read(const char *text, size_t len, cd_comment_data *d)
{
	cd_comment_cmd c;
	size_t pos = 0;

	memset(d, 0, sizeof(*d));
	d->eval_depth = -1;
	while (cd_comment_cmd_next(text, len, &pos, &c)) {
		int64_t ms, ns;

		if (name_is(&c, "clk")) {
			if (cd_comment_parse_time(c.args, c.args_len, &ns)) {
				d->clk_ns = ns;
				d->has |= CD_COMMENT_CLK;
			}
		} else if (name_is(&c, "emt")) {
			if (cd_comment_parse_time(c.args, c.args_len, &ns)) {
				d->emt_ns = ns;
				d->has |= CD_COMMENT_EMT;
			}
		} else if (name_is(&c, "eval")) {
			int kind;
			int32_t v, dep;

			if (cd_comment_parse_eval(c.args, c.args_len, &kind,
			    &v, &dep)) {
				d->eval_kind = kind;
				d->eval = v;
				d->eval_depth = dep;
				d->has |= CD_COMMENT_EVAL;
			}
		} else if (name_is(&c, "timestamp")) {
			size_t i = 0;
			int nd, neg = 0;

			if (c.args_len > 0 && c.args[0] == '-')
				neg = 1, i++;
			if (number(c.args, c.args_len, &i, &ms, &nd) &&
			    i == c.args_len) {
				d->timestamp = neg ? -ms : ms;
				d->has |= CD_COMMENT_TIMESTAMP;
			}
		}
	}
	if (memchr(text, '=', len) != NULL)
		tcec(text, len, d);
	return d->has;
}

bool
cd_comment_name_in(const char *name, size_t name_len, const char *names)
{
	const char *p = names;

	if (names == NULL)
		return true;
	while (*p != '\0') {
		const char *e = strchr(p, ',');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (n == name_len && memcmp(p, name, n) == 0)
			return true;
		if (e == NULL)
			break;
		p = e + 1;
	}
	return false;
}

/* Append text[a..b) to out at *o with white space folded (*space: a
 * space is owed before the next byte that is not white space). */
static void
fold(const char *text, size_t a, size_t b, char *out, size_t *o,
    bool *space)
{
	size_t i;

	for (i = a; i < b; i++) {
		unsigned char c = (unsigned char)text[i];

		if (is_space(c)) {
			*space = true;
			continue;
		}
		if (*space && *o > 0)
			out[(*o)++] = ' ';
		*space = false;
		out[(*o)++] = (char)c;
	}
}

/* Append text[a..b) to out at *o as it is, without white space at
 * either end, after one space when out has text (the place of a
 * removed command, or the start). */
static void
keep(const char *text, size_t a, size_t b, char *out, size_t *o)
{
	while (a < b && is_space((unsigned char)text[a]))
		a++;
	while (b > a && is_space((unsigned char)text[b - 1]))
		b--;
	if (a == b)
		return;
	if (*o > 0)
		out[(*o)++] = ' ';
	memmove(out + *o, text + a, b - a);
	*o += b - a;
}

/* One pass of cd_comment_strip (as_written: cd_comment_remove); *n
 * gets the number of commands removed. */
static size_t
strip_once(const char *text, size_t len, const char *names, char *out,
    size_t *n, bool as_written)
{
	cd_comment_cmd c;
	size_t pos = 0, done = 0, o = 0;
	bool space = false;

	*n = 0;
	while (cd_comment_cmd_next(text, len, &pos, &c)) {
		if (!cd_comment_name_in(c.name, c.name_len, names))
			continue;
		if (as_written)
			keep(text, done, c.start, out, &o);
		else
			fold(text, done, c.start, out, &o, &space);
		space = true;	/* "a[%clk 1]b" leaves "a b" */
		done = c.end;
		(*n)++;
	}
	if (as_written)
		keep(text, done, len, out, &o);
	else
		fold(text, done, len, out, &o, &space);
	out[o] = '\0';
	return o;
}

static size_t
strip(const char *text, size_t len, const char *names, char *out,
    bool as_written)
{
	size_t n, o = strip_once(text, len, names, out, &n, as_written);

	/* what is left may join into a command ("[%a[%x]b 1]" leaves
	 * "[%a b 1]"): again until none is left (each pass shrinks) */
	while (n > 0)
		o = strip_once(out, o, names, out, &n, as_written);
	return o;
}

size_t
cd_comment_strip(const char *text, size_t len, const char *names,
    char *out)
{
	return strip(text, len, names, out, false);
}

size_t
cd_comment_remove(const char *text, size_t len, const char *names,
    char *out)
{
	return strip(text, len, names, out, true);
}

/* The list of notes starting at *head without the emptied ones. */
static void
unlink_empty(cd_game *g, uint32_t *head)
{
	while (*head != 0) {
		cd_game_note *n = &g->notes[*head];

		if (n->kind == CD_NOTE_COMMENT && n->len == 0)
			*head = n->next;
		else
			head = &n->next;
	}
}

size_t
cd_game_strip_commands(cd_game *g, const char *names)
{
	size_t removed = 0;
	uint32_t i;

	for (i = 1; i < g->nnotes; i++) {
		cd_game_note *n = &g->notes[i];
		char *t = g->str + n->text;
		cd_comment_cmd c;
		size_t pos = 0, k = 0;

		if (n->kind != CD_NOTE_COMMENT)
			continue;
		while (cd_comment_cmd_next(t, n->len, &pos, &c))
			if (cd_comment_name_in(c.name, c.name_len, names))
				k++;
		if (k == 0)
			continue;
		removed += k;
		n->len = cd_comment_strip(t, n->len, names, t);
	}
	if (removed == 0)
		return 0;
	for (i = 0; i < g->nnodes; i++) {
		unlink_empty(g, &g->nodes[i].before);
		unlink_empty(g, &g->nodes[i].after);
	}
	return removed;
}
