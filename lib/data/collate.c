/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * collate.c: the PGN collating order (see chessdata/collate.h).
 *
 * Each key is compared two ways that must agree: directly (cd_collate)
 * and through an encoding into bytes that memcmp orders the same way
 * (cd_collate_key).  The encoding of a value:
 *   string   the bytes with 0x00 written 0x00 0xff, then 0x00 0x01
 *            (so a prefix sorts first and the empty string before all)
 *   Date     a kind byte (CD_DATE_EMPTY, _VALID, _OTHER: 1, 2, 3), then
 *            for a date year, month and day as 32-bit big-endian
 *            numbers, for other the string
 *   Round    a kind byte (1 empty, 2 "?", 3 "-", 4 number, 5 other),
 *            then for a number each part as 0x01, its count of digits
 *            without leading zeros, those digits; then 0x00; for other
 *            the string
 */
#include "config.h"

#include <string.h>

#include "common/internal.h"

static const char *const roster[CD_COLLATE_NTAGS] = {
	"Date", "Event", "Site", "Round", "White", "Black", "Result"
};

void
cd_collate_from_raw(const cd_pgn_raw_game *g, cd_collate_game *out)
{
	int i;

	for (i = 0; i < CD_COLLATE_NTAGS; i++) {
		const cd_pgn_tag *t = cd_pgn_raw_tag(g, roster[i]);

		out->tag[i] = t ? t->value : NULL;
		out->tag_len[i] = t ? t->value_len : 0;
	}
	out->movetext = g->text + g->movetext;
	out->movetext_len = g->movetext_end - g->movetext;
}

/* ---- Date ---- */

/* (chessdata/collate.h says the form) */
int
cd_collate_date_read(const char *s, size_t len, unsigned ymd[3])
{
	unsigned v[3] = { 0, 0, 0 };
	size_t i;
	int part = 0;

	ymd[0] = ymd[1] = ymd[2] = 0;
	if (s == NULL || len == 0)
		return CD_DATE_EMPTY;
	if (len != 4 && len != 7 && len != 10)
		return CD_DATE_OTHER;
	for (i = 0; i < len; i++) {
		if (i == 4 || i == 7) {
			if (s[i] != '.')
				return CD_DATE_OTHER;
			part++;
		} else if (s[i] >= '0' && s[i] <= '9') {
			v[part] = v[part] * 10 + (unsigned)(s[i] - '0');
		} else if (s[i] == '?') {
			v[part] *= 10;
		} else {
			return CD_DATE_OTHER;
		}
	}
	memcpy(ymd, v, sizeof(v));
	return CD_DATE_VALID;
}

int
cd_collate_bytes(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t n = alen < blen ? alen : blen;
	int c = n ? memcmp(a, b, n) : 0;

	if (c != 0)
		return c < 0 ? -1 : 1;
	return alen < blen ? -1 : alen > blen;
}

int
cd_collate_date(const char *a, size_t alen, const char *b, size_t blen)
{
	unsigned va[3], vb[3];
	int ka = cd_collate_date_read(a, alen, va);
	int kb = cd_collate_date_read(b, blen, vb), i;

	if (ka != kb)
		return ka < kb ? -1 : 1;
	if (ka == CD_DATE_EMPTY)
		return 0;
	if (ka == CD_DATE_OTHER)
		return cd_collate_bytes(a, alen, b, blen);
	for (i = 0; i < 3; i++)
		if (va[i] != vb[i])
			return va[i] < vb[i] ? -1 : 1;
	return 0;
}

/* ---- Round ---- */

enum { R_EMPTY = 1, R_QUERY, R_HYPHEN, R_NUMBER, R_OTHER };

#define ROUND_PART_MAX	255	/* longer parts make the value "other" */

static int
round_kind(const char *s, size_t len)
{
	size_t i, part = 0;

	if (s == NULL || len == 0)
		return R_EMPTY;
	if (len == 1 && s[0] == '?')
		return R_QUERY;
	if (len == 1 && s[0] == '-')
		return R_HYPHEN;
	for (i = 0; i < len; i++) {
		if (s[i] >= '0' && s[i] <= '9') {
			if (++part > ROUND_PART_MAX)
				return R_OTHER;
		} else if (s[i] == '.' && part > 0 && i + 1 < len) {
			part = 0;
		} else {
			return R_OTHER;
		}
	}
	return R_NUMBER;
}

/* The next part of a number at *s: its significant digits. */
static void
round_part(const char **s, const char *e, const char **digits, size_t *n)
{
	const char *p = *s;

	while (p < e && *p == '0')
		p++;
	*digits = p;
	while (p < e && *p != '.')
		p++;
	/* Leading zeros of a part like "00" leave no digit: zero. */
	*n = (size_t)(p - *digits);
	*s = p < e ? p + 1 : p;
}

int
cd_collate_round(const char *a, size_t alen, const char *b, size_t blen)
{
	int ka = round_kind(a, alen), kb = round_kind(b, blen);
	const char *pa, *pb, *ea, *eb;

	if (ka != kb)
		return ka < kb ? -1 : 1;
	if (ka == R_OTHER)
		return cd_collate_bytes(a, alen, b, blen);
	if (ka != R_NUMBER)
		return 0;
	pa = a;
	pb = b;
	ea = a + alen;
	eb = b + blen;
	for (;;) {
		const char *da, *db;
		size_t na, nb;
		int c;

		if (pa == ea || pb == eb)
			return pa == ea ? (pb == eb ? 0 : -1) : 1;
		round_part(&pa, ea, &da, &na);
		round_part(&pb, eb, &db, &nb);
		if (na != nb)
			return na < nb ? -1 : 1;
		c = na ? memcmp(da, db, na) : 0;
		if (c != 0)
			return c < 0 ? -1 : 1;
	}
}

/* ---- movetext ---- */

size_t
cd_collate_movetext_prefix(const char *mt, size_t len, size_t max)
{
	if (len <= max)
		return len;
	/* a CR at the cut may be the first byte of a line end */
	return max > 0 && mt[max - 1] == '\r' ? max - 1 : max;
}

int
cd_collate_movetext_prefix_cmp(const char *a, size_t alen, int a_cut,
    const char *b, size_t blen, int b_cut)
{
	size_t i = 0, j = 0;

	for (;;) {
		unsigned ca, cb;

		/* Fast run of equal bytes other than CR. */
		while (i < alen && j < blen && a[i] == b[j] && a[i] != '\r') {
			i++;
			j++;
		}
		if (i == alen || j == blen)
			break;
		ca = (unsigned char)a[i];
		cb = (unsigned char)b[j];
		if (ca == '\r' && i + 1 < alen && a[i + 1] == '\n') {
			i++;
			ca = '\n';
		}
		if (cb == '\r' && j + 1 < blen && b[j + 1] == '\n') {
			j++;
			cb = '\n';
		}
		if (ca != cb)
			return ca < cb ? -1 : 1;
		i++;
		j++;
	}
	/* a cut prefix that ran out tells nothing of what follows */
	if ((i == alen && a_cut) || (j == blen && b_cut))
		return 2;
	if (i == alen && j == blen)
		return 0;
	return i == alen ? -1 : 1;
}

int
cd_collate_movetext_cmp(const char *a, size_t alen, const char *b,
    size_t blen)
{
	return cd_collate_movetext_prefix_cmp(a, alen, 0, b, blen, 0);
}

int
cd_collate(const cd_collate_game *a, const cd_collate_game *b)
{
	int i, c;

	for (i = 0; i < CD_COLLATE_NTAGS; i++) {
		const char *va = a->tag[i], *vb = b->tag[i];
		size_t la = va ? a->tag_len[i] : 0, lb = vb ? b->tag_len[i] : 0;

		if (i == CD_COLLATE_DATE)
			c = cd_collate_date(va, la, vb, lb);
		else if (i == CD_COLLATE_ROUND)
			c = cd_collate_round(va, la, vb, lb);
		else
			c = cd_collate_bytes(va, la, vb, lb);
		if (c != 0)
			return c;
	}
	return cd_collate_movetext_cmp(a->movetext, a->movetext_len,
	    b->movetext, b->movetext_len);
}

/* ---- keys ---- */

struct out {
	unsigned char *p;
	size_t len, cap;
};

static void
put(struct out *o, unsigned c)
{
	if (o->len < o->cap)
		o->p[o->len] = (unsigned char)c;
	o->len++;
}

static void
put32(struct out *o, uint32_t v)
{
	put(o, v >> 24);
	put(o, (v >> 16) & 0xff);
	put(o, (v >> 8) & 0xff);
	put(o, v & 0xff);
}

static void
put_string(struct out *o, const char *s, size_t len)
{
	size_t i;

	if (len > 0 && o->len + len <= o->cap && memchr(s, 0, len) == NULL) {
		memcpy(o->p + o->len, s, len);
		o->len += len;
	} else {
		for (i = 0; i < len; i++) {
			put(o, (unsigned char)s[i]);
			if (s[i] == 0)
				put(o, 0xff);
		}
	}
	put(o, 0x00);
	put(o, 0x01);
}

/* A Date value: its kind, then a date's numbers or another value's
 * bytes. */
static void
put_date(struct out *o, const char *v, size_t len)
{
	unsigned d[3];
	int k = cd_collate_date_read(v, len, d);

	put(o, (unsigned)k);
	if (k == CD_DATE_VALID) {
		put32(o, d[0]);
		put32(o, d[1]);
		put32(o, d[2]);
	} else if (k == CD_DATE_OTHER) {
		put_string(o, v, len);
	}
}

/* A Round value: its kind, then a number's parts or another value's
 * bytes. */
static void
put_round(struct out *o, const char *v, size_t len)
{
	int k = round_kind(v, len);

	put(o, (unsigned)k);
	if (k == R_NUMBER) {
		const char *p = v, *e = v + len, *d;
		size_t n, j;

		while (p < e) {
			round_part(&p, e, &d, &n);
			put(o, 0x01);
			put(o, (unsigned)n);
			for (j = 0; j < n; j++)
				put(o, (unsigned char)d[j]);
		}
		put(o, 0x00);
	} else if (k == R_OTHER) {
		put_string(o, v, len);
	}
}

/*
 * Any other value of -k: empty (1), anything but a number (2, its
 * bytes: "?", "-", "unrated"), a negative number (3), a number (4: the
 * digits of "[+-]D[.D]" compare as the number).  So the values that
 * say no number come first, as the empty one does, and after the
 * numbers when reversed: `-r -k WhiteElo` is the strongest first, the
 * unrated last.  A number: the count of its integer digits without
 * leading zeros (16 bits), those digits, the fraction's digits without
 * trailing zeros, 0x00; a negative number the same with every byte
 * complemented (the larger the magnitude, the smaller the bytes).
 */
enum { N_EMPTY = 1, N_OTHER, N_NEGATIVE, N_NUMBER };

static void
put_number(struct out *o, const char *v, size_t len)
{
	size_t i = 0, ib, ie, fb, fe;
	unsigned flip;

	if (len == 0) {
		put(o, N_EMPTY);
		return;
	}
	if (v[0] == '+' || v[0] == '-')
		i++;
	for (ib = i; i < len && v[i] >= '0' && v[i] <= '9'; i++)
		;
	ie = i;
	fb = fe = i;
	if (i < len && v[i] == '.' && i + 1 < len) {
		for (fb = ++i; i < len && v[i] >= '0' && v[i] <= '9'; i++)
			;
		fe = i;
		if (fe == fb)
			i = 0;	/* "1." is no number */
	}
	if (ie == ib || i != len || ie - ib > 0xffff) {
		put(o, N_OTHER);
		put_string(o, v, len);
		return;
	}
	while (ib < ie && v[ib] == '0')
		ib++;
	while (fe > fb && v[fe - 1] == '0')
		fe--;
	flip = v[0] == '-' && (ib < ie || fb < fe) ? 0xff : 0;
	put(o, flip ? N_NEGATIVE : N_NUMBER);
	put(o, ((ie - ib) >> 8) ^ flip);
	put(o, ((ie - ib) & 0xff) ^ flip);
	for (i = ib; i < ie; i++)
		put(o, (unsigned char)v[i] ^ flip);
	for (i = fb; i < fe; i++)
		put(o, (unsigned char)v[i] ^ flip);
	put(o, 0x00 ^ flip);
}

/* Whether a tag name is a date's (Date, UTCDate, EventDate, ...). */
static bool
date_name(const char *name)
{
	size_t n = strlen(name);

	return n >= 4 && strcmp(name + n - 4, "Date") == 0;
}

size_t
cd_collate_key_tags(const cd_pgn_raw_game *g, const char *const *names,
    size_t n, unsigned char *out, size_t cap)
{
	struct out o = { out, 0, cap };
	size_t i;

	for (i = 0; i < n; i++) {
		const cd_pgn_tag *t = cd_pgn_raw_tag(g, names[i]);
		const char *v = t ? t->value : "";
		size_t len = t ? t->value_len : 0;

		if (date_name(names[i]))
			put_date(&o, v, len);
		else if (strcmp(names[i], "Round") == 0)
			put_round(&o, v, len);
		else
			put_number(&o, v, len);
	}
	return o.len;
}

size_t
cd_collate_key(const cd_collate_game *g, unsigned char *out, size_t cap)
{
	struct out o = { out, 0, cap };
	int i;

	for (i = 0; i < CD_COLLATE_NTAGS; i++) {
		const char *v = g->tag[i];
		size_t len = v ? g->tag_len[i] : 0;

		if (v == NULL)
			v = "";
		if (i == CD_COLLATE_DATE)
			put_date(&o, v, len);
		else if (i == CD_COLLATE_ROUND)
			put_round(&o, v, len);
		else
			put_string(&o, v, len);
	}
	return o.len;
}

int
cd_collate_key_cmp(const unsigned char *a, size_t alen,
    const unsigned char *b, size_t blen)
{
	size_t n = alen < blen ? alen : blen;
	int c = memcmp(a, b, n);

	if (c != 0)
		return c < 0 ? -1 : 1;
	return alen < blen ? -1 : alen > blen;
}
