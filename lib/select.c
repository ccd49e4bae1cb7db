/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * select.c: the condition engine of pgn-select (chessdata/select.h):
 * conditions read from text, matched on a raw game's tags and on a
 * parsed game's main line.
 */
#include "config.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

enum op { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_MATCH, OP_NMATCH };
enum cls { CLS_BYTES, CLS_DATE, CLS_ROUND };

/* One condition on tags. */
struct tagcond {
	cd_select_kind kind;
	char *name;		/* CD_SEL_TAG */
	enum op op;
	char *value;
	size_t value_len;
	enum cls cls;
	bool is_int;
	long long num;
	char *lo, *hi;		/* CLS_DATE: the span of the value */
	bool has_re;
	regex_t re;
	uint16_t *eco;		/* CD_SEL_ECO: pairs lo, hi */
	size_t neco;
	unsigned results;	/* CD_SEL_RESULT: bits 1 << cd_pgn_result */
};

/* Material: the count of each piece (color << 3 | type), at least or
 * exactly. */
struct material {
	uint8_t count[16];
	uint16_t more;		/* bit p: any number more of piece p */
};

struct cd_select {
	unsigned flags;
	struct tagcond *tags;
	size_t ntags, tags_cap;
	bool plies;
	uint32_t plies_min, plies_max;
	cd_board *pos;		/* CD_SEL_POSITION: any of them */
	size_t npos;
	struct material *mat;
	size_t nmat;
	unsigned *ends;		/* CD_SEL_ENDS: each a set, any bit */
	size_t nends;
};

cd_select *
cd_select_new(unsigned flags)
{
	cd_select *s = calloc(1, sizeof(*s));

	if (s != NULL)
		s->flags = flags;
	return s;
}

static void
tagcond_free(struct tagcond *t)
{
	free(t->name);
	free(t->value);
	free(t->lo);
	free(t->hi);
	free(t->eco);
	if (t->has_re)
		regfree(&t->re);
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
	free(s->pos);
	free(s->mat);
	free(s->ends);
	free(s);
}

bool
cd_select_needs_moves(const cd_select *s)
{
	return s->plies || s->npos > 0 || s->nmat > 0 || s->nends > 0;
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

/* An integer: optional sign, 1 to 18 digits, nothing else. */
static bool
parse_int(const char *p, size_t len, long long *out)
{
	long long v = 0;
	bool neg = false;
	size_t i = 0;

	if (len > 0 && (p[0] == '-' || p[0] == '+')) {
		neg = p[0] == '-';
		i = 1;
	}
	if (i == len || len - i > 18)
		return false;
	for (; i < len; i++) {
		if (p[i] < '0' || p[i] > '9')
			return false;
		v = v * 10 + (p[i] - '0');
	}
	*out = neg ? -v : v;
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

static cd_status
compile(cd_select *s, struct tagcond *t, const char *re, const char **why)
{
	int fl = REG_EXTENDED | REG_NOSUB;

	if (s->flags & CD_SELECT_ICASE)
		fl |= REG_ICASE;
	if (regcomp(&t->re, re, fl) != 0) {
		*why = "invalid regular expression";
		return CD_ERR_SYNTAX;
	}
	t->has_re = true;
	return CD_OK;
}

/* "NAME OP VALUE" */
static cd_status
read_tag(cd_select *s, struct tagcond *t, const char *text,
    const char **why)
{
	static const struct {
		const char *s;
		enum op op;
	} ops[] = {
		{ "!=", OP_NE }, { "!~", OP_NMATCH }, { "<=", OP_LE },
		{ ">=", OP_GE }, { "=", OP_EQ }, { "<", OP_LT },
		{ ">", OP_GT }, { "~", OP_MATCH }
	};
	const char *p = text, *name, *v;
	size_t i, nlen;

	while (is_space(*p))
		p++;
	name = p;
	while (*p && !is_space(*p) && !strchr("=!<>~", *p))
		p++;
	nlen = (size_t)(p - name);
	while (is_space(*p))
		p++;
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (strncmp(p, ops[i].s, strlen(ops[i].s)) == 0)
			break;
	if (nlen == 0 || i == sizeof(ops) / sizeof(ops[0])) {
		*why = nlen == 0 ? "no tag name (want NAME OP VALUE)" :
		    "no operator (want one of = != < <= > >= ~ !~)";
		return CD_ERR_SYNTAX;
	}
	t->op = ops[i].op;
	v = p + strlen(ops[i].s);
	while (is_space(*v))
		v++;
	if ((t->name = dup_n(name, nlen)) == NULL ||
	    (t->value = strdup(v)) == NULL)
		return CD_ERR_NOMEM;
	t->value_len = strlen(v);
	if (t->op == OP_MATCH || t->op == OP_NMATCH)
		return compile(s, t, v, why);
	t->is_int = parse_int(t->value, t->value_len, &t->num);
	if (name_ends_date(t->name)) {
		t->cls = CLS_DATE;
		return date_span(t);
	}
	if (strcmp(t->name, "Round") == 0)
		t->cls = CLS_ROUND;
	return CD_OK;
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

/* A number of plies: digits only, at most 4294967295. */
static bool
read_count(const char *p, size_t n, uint32_t *out)
{
	long long v;

	if (n == 0 || p[0] < '0' || p[0] > '9' || !parse_int(p, n, &v) ||
	    v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
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

static cd_status
read_material(cd_select *s, const char *text, const char **why)
{
	static const char letters[] = "PNBRQK";
	struct material m, *n;
	const char *p;
	int last = -1;

	memset(&m, 0, sizeof(m));
	for (p = text; *p; p++) {
		const char *l = strchr(letters, *p >= 'a' ? *p - 32 : *p);
		int piece;

		if (*p == '*' && last >= 0) {
			m.more |= (uint16_t)(1u << last);
			continue;
		}
		if (*p == '\0' || l == NULL || *p == '*') {
			*why = "invalid material (want piece letters like "
			    "KRPkr, a * after a letter for any more)";
			return CD_ERR_SYNTAX;
		}
		piece = CD_PIECE(*p >= 'a' ? CD_BLACK : CD_WHITE,
		    (int)(l - letters) + 1);
		if (m.count[piece] == 64) {
			*why = "too many pieces in the material";
			return CD_ERR_SYNTAX;
		}
		m.count[piece]++;
		last = piece;
	}
	if (last < 0) {
		*why = "empty material";
		return CD_ERR_SYNTAX;
	}
	/* the kings may be left out */
	m.count[CD_PIECE(CD_WHITE, CD_KING)] = 1;
	m.count[CD_PIECE(CD_BLACK, CD_KING)] = 1;
	m.more &= (uint16_t)~((1u << CD_PIECE(CD_WHITE, CD_KING)) |
	    (1u << CD_PIECE(CD_BLACK, CD_KING)));
	n = realloc(s->mat, (s->nmat + 1) * sizeof(*n));
	if (n == NULL)
		return CD_ERR_NOMEM;
	s->mat = n;
	s->mat[s->nmat++] = m;
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

/* cd_select_add: *why a static message on failure, or err filled */
static cd_status
add(cd_select *s, cd_select_kind k, const char *text, const char **why,
    cd_error *err)
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
	case CD_SEL_TAG: case CD_SEL_PLAYER: case CD_SEL_WHITE:
	case CD_SEL_BLACK: case CD_SEL_ECO: case CD_SEL_RESULT:
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
	t->kind = k;
	switch (k) {
	case CD_SEL_TAG:
		st = read_tag(s, t, text, why);
		break;
	case CD_SEL_ECO:
		st = read_eco(t, text, why);
		break;
	case CD_SEL_RESULT:
		st = read_results(t, text, why);
		break;
	default:
		st = compile(s, t, text, why);
		break;
	}
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
	const char *why = NULL;
	cd_status st = add(s, k, text, &why, err);

	if (st != CD_OK && why != NULL)
		cd__error_set(err, st, 0, 0, 0, "%s", why);
	else if (st == CD_OK && err != NULL)
		memset(err, 0, sizeof(*err));
	return st;
}

/* ---- matching tags ---- */

static bool
re_match(const struct tagcond *t, const cd_pgn_tag *tag)
{
	return tag != NULL && regexec(&t->re, tag->value, 0, NULL, 0) == 0;
}

static int
sign(int c)
{
	return c < 0 ? -1 : c > 0;
}

static bool
tag_holds(const cd_select *s, const struct tagcond *t, const cd_pgn_tag *g)
{
	const char *v;
	size_t n;
	long long num;
	int c;

	if (g == NULL)
		return t->op == OP_NE || t->op == OP_NMATCH;
	if (t->op == OP_MATCH)
		return re_match(t, g);
	if (t->op == OP_NMATCH)
		return !re_match(t, g);
	v = g->value;
	n = g->value_len;
	if (t->cls == CLS_BYTES && t->is_int && parse_int(v, n, &num)) {
		c = num < t->num ? -1 : num > t->num;
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
		const cd_pgn_tag *g;
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
		default:	/* CD_SEL_RESULT */
			g = cd_pgn_raw_tag(raw, "Result");
			r = g != NULL ? cd_pgn_result_parse(g->value,
			    g->value_len) : raw->result;
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

bool
cd_select_match_moves(const cd_select *s, const cd_game *g)
{
	bool want_rep = false, pos_left = s->npos > 0;
	uint64_t mat_left = 0;	/* material conditions not yet met */
	int mat_need = 64;	/* fewest pieces they need */
	cd_rules rules;
	cd_board b = g->start, end;
	uint32_t i, last = 0, plies = 0, rep_from = 0;
	unsigned endings = 0;
	bool ok = true;
	size_t k;

	/* the main line's length, and its final position from the
	 * parser when it left its cursor there */
	for (i = g->nodes[0].next; i; i = g->nodes[i].next) {
		last = i;
		plies++;
	}
	if (s->plies && (plies < s->plies_min || plies > s->plies_max))
		return false;
	if (cd_game_depth(g) == 0 && cd_game_cursor(g) == last)
		end = *cd_game_board(g);
	else
		cd_game_end_position(g, &end);
	for (k = 0; k < s->nends; k++)
		if (s->ends[k] & (CD_END_THREEFOLD | CD_END_FIVEFOLD))
			want_rep = true;
	/* a threefold repetition needs 8 reversible half-moves at least
	 * (the clock counts them, whatever a FEN start said) */
	if (want_rep && end.halfmove < 8)
		want_rep = false;
	for (k = 0; k < s->nmat && k < 64; k++) {
		int n = material_min(&s->mat[k]);

		mat_left |= (uint64_t)1 << k;
		mat_need = n < mat_need ? n : mat_need;
	}
	if (want_rep) {
		/* the positions since the last pawn move or capture */
		rep_from = end.halfmove >= plies ? 0 : plies - end.halfmove;
		cd_rules_init(&rules);
		if (rep_from == 0)
			ok = cd_rules_start(&rules, &b) == CD_OK;
	}
	/* replay while something is still to be found */
	for (i = 0, plies = 0;;) {
		if (pos_left) {
			bool may = false;

			for (k = 0; k < s->npos; k++) {
				if (same_position(&b, &s->pos[k])) {
					pos_left = false;
					break;
				}
				may = may || may_follow(&b, &s->pos[k]);
			}
			if (pos_left && !may)
				break;	/* never reached */
		}
		/* material changes only with a capture or promotion,
		 * which reset the clock */
		if (mat_left != 0 && (i == 0 || b.halfmove == 0)) {
			if (cd__popcount(b.by_type[0]) < mat_need)
				break;	/* never reached */
			for (k = 0; k < s->nmat && k < 64; k++)
				if (((mat_left >> k) & 1) &&
				    material_is(&b, &s->mat[k]))
					mat_left &= ~((uint64_t)1 << k);
		}
		if (!pos_left && mat_left == 0 && !want_rep)
			break;
		i = g->nodes[i].next;
		if (i == 0)
			break;
		cd_board_make(&b, g->nodes[i].move);
		plies++;
		if (want_rep && ok && plies >= rep_from)
			ok = (plies == rep_from ? cd_rules_start(&rules, &b) :
			    cd_rules_push(&rules, &b)) == CD_OK;
	}
	if (pos_left || mat_left != 0) {
		if (want_rep)
			cd_rules_free(&rules);
		return false;
	}
	if (s->nends > 0) {
		if (want_rep) {
			endings = ok ? cd_rules_endings(&rules) : 0;
			cd_rules_free(&rules);
			if (!ok)
				return false;
		} else
			endings = cd_board_endings(&end, NULL);
	}
	for (k = 0; k < s->nends; k++)
		if (!(endings & s->ends[k]))
			return false;
	return true;
}
