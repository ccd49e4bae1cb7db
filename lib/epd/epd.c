/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * epd/epd.c: an EPD record (standard 16.2): its arenas, findings,
 * operations and operands, the questions asked of it, and building
 * one (the files of lib/epd: epd/epd_int.h).
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "epd/epd_int.h"

static const struct {
	const char *name;
	enum rule rule;
} known_ops[] = {	/* in ASCII order; c0-c9, v0-v9 apart */
	{ "acn", R_UINT }, { "acs", R_UINT }, { "am", R_MOVES },
	{ "bm", R_MOVES }, { "ce", R_CE }, { "dm", R_POS },
	{ "draw_accept", R_NOARGS }, { "draw_claim", R_NOARGS },
	{ "draw_offer", R_NOARGS }, { "draw_reject", R_NOARGS },
	{ "eco", R_STR01 }, { "fmvn", R_POS }, { "hmvc", R_UINT },
	{ "id", R_STR1 }, { "nic", R_STR01 }, { "noop", R_NOOP },
	{ "pm", R_MOVE1 }, { "pv", R_PV }, { "rc", R_POS },
	{ "resign", R_NOARGS }, { "sm", R_MOVE1 }, { "tcgs", R_POS },
	{ "tcri", R_STR2 }, { "tcsi", R_STR2 }
};

enum rule
cd__epd_rule_of(const char *name)
{
	size_t lo = 0, hi = sizeof(known_ops) / sizeof(known_ops[0]);

	if ((name[0] == 'c' || name[0] == 'v') && name[1] >= '0' &&
	    name[1] <= '9' && name[2] == '\0')
		return R_STR01;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(name, known_ops[mid].name);

		if (c == 0)
			return known_ops[mid].rule;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return R_UNKNOWN;
}

void
cd__epd_fixup(cd_epd *e)
{
	size_t i;

	for (i = 0; i < e->nopnds; i++)
		e->opnds[i].text = e->text + e->opnd_off[i];
	for (i = 0; i < e->nops; i++)
		e->ops[i].pub.operands = e->opnds != NULL ?
		    e->opnds + e->ops[i].first : NULL;
	for (i = 0; i < e->nfinds; i++) {
		e->finds[i].pub.message = e->msgs + e->finds[i].msg_off;
		e->finds[i].pub.opcode = e->msgs + e->finds[i].op_off;
	}
}

/* Append len bytes and a NUL to the text arena; the offset, or
 * SIZE_MAX when out of memory. */
static size_t
text_add(cd_epd *e, const char *s, size_t len)
{
	size_t off = e->text_len;

	if (cd__grow(&e->text, &e->text_cap, off + len + 1, 1, 16) != 0)
		return SIZE_MAX;
	if (len > 0)
		memcpy(e->text + off, s, len);
	e->text[off + len] = '\0';
	e->text_len = off + len + 1;
	return off;
}

static size_t
msg_add(cd_epd *e, const char *s, size_t len)
{
	size_t off = e->msgs_len;

	if (cd__grow(&e->msgs, &e->msgs_cap, off + len + 1, 1, 16) != 0)
		return SIZE_MAX;
	memcpy(e->msgs + off, s, len);
	e->msgs[off + len] = '\0';
	e->msgs_len = off + len + 1;
	return off;
}

/*
 * Printable form of input text for a message: control bytes as \xNN,
 * at most about 40 bytes, then "...".  out needs 64 bytes.
 */
const char *
cd__epd_show(char *out, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, n = 0;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (n >= 40) {
			memcpy(out + n, "...", 3);
			n += 3;
			break;
		}
		if (cd__epd_is_ctrl(c)) {
			out[n++] = '\\';
			out[n++] = 'x';
			out[n++] = hex[c >> 4];
			out[n++] = hex[c & 15];
		} else {
			out[n++] = (char)c;
		}
	}
	out[n] = '\0';
	return out;
}

/* Whether a finding code makes the line invalid. */
static bool
code_is_error(cd_epd_code code)
{
	return code < CD_EPD_N_UNKNOWN || code >= CD_EPD_S_SAN;
}

/* Record a finding. */
void
cd__epd_finding(cd_epd *e, cd_epd_code code, cd_status st, size_t col,
    const char *opcode, const char *fmt, ...)
{
	char buf[512];
	struct finding *f;
	va_list ap;
	int n;

	if (e->nfinds >= FINDINGS_MAX) {
		/* a hostile line: keep one more finding that says so */
		e->dropped++;
		if (code_is_error(code))
			e->nerrors++;
		if (e->nfinds > FINDINGS_MAX) {
			f = &e->finds[FINDINGS_MAX];
			if (code_is_error(code) && !f->pub.error) {
				f->pub.code = code;
				f->pub.error = true;
				f->status = st;
			}
			return;
		}
		snprintf(buf, sizeof(buf), "too many findings in this line, "
		    "the rest are not listed");
		n = (int)strlen(buf);
	} else {
		va_start(ap, fmt);
		n = vsnprintf(buf, sizeof(buf), fmt, ap);
		va_end(ap);
		if (n < 0)
			n = 0;
		if ((size_t)n >= sizeof(buf))
			n = sizeof(buf) - 1;
	}
	if (cd__grow(&e->finds, &e->cap_finds, e->nfinds + 1,
	    sizeof(*e->finds), 16) != 0) {
		e->nomem = true;
		return;
	}
	f = &e->finds[e->nfinds];
	memset(f, 0, sizeof(*f));
	f->msg_off = msg_add(e, buf, (size_t)n);
	if (opcode == NULL)
		opcode = "";
	f->op_off = msg_add(e, opcode, strlen(opcode));
	if (f->msg_off == SIZE_MAX || f->op_off == SIZE_MAX) {
		e->nomem = true;
		return;
	}
	f->pub.code = code;
	f->pub.error = code_is_error(code);
	f->pub.col = col;
	f->status = st;
	f->seq = e->nfinds;
	e->nfinds++;
	if (f->pub.error && e->nfinds <= FINDINGS_MAX)
		e->nerrors++;
}

void
cd__epd_clear(cd_epd *e)
{
	e->have_board = false;
	e->fields_end = 0;
	e->nomem = false;
	e->strict = false;
	e->nops = 0;
	e->nopnds = 0;
	e->text_len = 0;
	e->nfinds = 0;
	e->nerrors = 0;
	e->dropped = 0;
	e->msgs_len = 0;
	cd__error_set(&e->err, CD_OK, 0, 0, 0, NULL);
}

cd_epd *
cd_epd_new(void)
{
	cd_epd *e = calloc(1, sizeof(*e));

	if (e == NULL)
		return NULL;
	cd_board_init(&e->board);
	e->have_board = true;
	return e;
}

void
cd_epd_free(cd_epd *e)
{
	if (e == NULL)
		return;
	free(e->ops);
	free(e->opnds);
	free(e->opnd_off);
	free(e->text);
	free(e->finds);
	free(e->msgs);
	free(e->out);
	free(e->sortbuf);
	free(e->sanbuf);
	free(e);
}

bool
cd_epd_opcode_valid(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || len > CD_EPD_OPCODE_MAX)
		return false;
	if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
		return false;
	for (i = 1; i < len; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '_'))
			return false;
	}
	return true;
}

bool
cd_epd_opcode_known(const char *opcode)
{
	return opcode != NULL && cd__epd_rule_of(opcode) != R_UNKNOWN;
}

/* Append an operation; its index, or SIZE_MAX when out of memory. */
size_t
cd__epd_op_add(cd_epd *e, const char *name, size_t len, size_t col)
{
	struct op *o;

	if (cd__grow(&e->ops, &e->cap_ops, e->nops + 1, sizeof(*e->ops), 16) != 0)
		return SIZE_MAX;
	o = &e->ops[e->nops];
	memset(o, 0, sizeof(*o));
	memcpy(o->pub.opcode, name, len);
	o->pub.opcode[len] = '\0';
	o->pub.col = col;
	o->first = e->nopnds;
	return e->nops++;
}

/* Room for need operands (the two operand arrays grow together). */
static int
opnds_reserve(cd_epd *e, size_t need)
{
	size_t cap = e->cap_opnds, n;
	cd_epd_operand *a;
	size_t *b;

	if (need <= cap)
		return 0;
	n = cap ? cap : 16;
	while (n < need) {
		if (n > SIZE_MAX / 2 / sizeof(*a))
			return -1;
		n *= 2;
	}
	a = realloc(e->opnds, n * sizeof(*a));
	if (a == NULL)
		return -1;
	e->opnds = a;
	b = realloc(e->opnd_off, n * sizeof(*b));
	if (b == NULL)
		return -1;	/* opnds is larger, cap unchanged: harmless */
	e->opnd_off = b;
	e->cap_opnds = n;
	return 0;
}

/* Append an operand whose text is at offset off to the last operation. */
cd_epd_operand *
cd__epd_operand_push(cd_epd *e, cd_epd_kind kind, size_t off, size_t len,
    size_t col)
{
	cd_epd_operand *d;

	if (opnds_reserve(e, e->nopnds + 1) != 0)
		return NULL;
	d = &e->opnds[e->nopnds];
	memset(d, 0, sizeof(*d));
	d->kind = kind;
	d->col = col;
	d->len = len;
	e->opnd_off[e->nopnds] = off;
	e->nopnds++;
	e->ops[e->nops - 1].pub.count++;
	return d;
}

/* Append an operand with a copy of s to the last operation. */
cd_epd_operand *
cd__epd_operand_add(cd_epd *e, cd_epd_kind kind, const char *s, size_t len,
    size_t col)
{
	size_t off = text_add(e, s, len);

	if (off == SIZE_MAX)
		return NULL;
	return cd__epd_operand_push(e, kind, off, len, col);
}

/* The index of the operation named name, or -1. */
long
cd__epd_op_index(const cd_epd *e, const char *name)
{
	size_t i;

	for (i = 0; i < e->nops; i++)
		if (strcmp(e->ops[i].pub.opcode, name) == 0)
			return (long)i;
	return -1;
}

/*
 * Whether s is an integer ([+-]digits): 1 and *v if it fits in
 * int64_t, 2 if it is too large, 0 if it is no integer.
 */
int
cd__epd_parse_integer(const char *s, size_t len, int64_t *v)
{
	size_t i = 0;
	uint64_t x = 0, lim;
	bool neg = false;

	if (len > 0 && (s[0] == '+' || s[0] == '-')) {
		neg = s[0] == '-';
		i = 1;
	}
	if (i == len)
		return 0;
	lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; i < len; i++) {
		unsigned d;

		if (s[i] < '0' || s[i] > '9')
			return 0;
		d = (unsigned)(s[i] - '0');
		if (x > (lim - d) / 10) {
			while (++i < len)
				if (s[i] < '0' || s[i] > '9')
					return 0;
			return 2;
		}
		x = x * 10 + d;
	}
	if (neg)
		*v = x == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)x;
	else
		*v = (int64_t)x;
	return 1;
}

/* Whether s is a float: [+-]digits.digits */
static bool
is_float(const char *s, size_t len)
{
	size_t i = 0, a, b;

	if (len > 0 && (s[0] == '+' || s[0] == '-'))
		i = 1;
	for (a = i; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		;
	if (i == a || i >= len || s[i] != '.')
		return false;
	for (b = ++i; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		;
	return i > b && i == len;
}

/* Give an unquoted operand its kind and value. */
void
cd__epd_classify(cd_epd_operand *d, const char *s, size_t len)
{
	int64_t v;
	int r = cd__epd_parse_integer(s, len, &v);

	if (r == 1) {
		d->kind = CD_EPD_INTEGER;
		d->integer = v;
	} else if (r == 0 && is_float(s, len)) {
		d->kind = CD_EPD_FLOAT;
		d->real = strtod(s, NULL);
	} else {
		d->kind = CD_EPD_TOKEN;
	}
}

int
cd_epd_line_kind(const char *line, size_t len)
{
	size_t i;

	if (len > 0 && (line[0] == '#' || line[0] == '%'))
		return CD_EPD_LINE_COMMENT;
	for (i = 0; i < len; i++)
		if (!cd__epd_is_ws((unsigned char)line[i]) && line[i] != '\r' &&
		    line[i] != '\n')
			return CD_EPD_LINE_RECORD;
	return CD_EPD_LINE_BLANK;
}

const cd_error *
cd_epd_error(const cd_epd *e)
{
	return &e->err;
}

size_t
cd_epd_fields_end(const cd_epd *e)
{
	return e->fields_end;
}

size_t
cd_epd_finding_count(const cd_epd *e)
{
	return e->nfinds;
}

const cd_epd_finding *
cd_epd_finding_get(const cd_epd *e, size_t i)
{
	return i < e->nfinds ? &e->finds[i].pub : NULL;
}

bool
cd_epd_invalid(const cd_epd *e)
{
	return e->nerrors > 0;
}

const cd_board *
cd_epd_board(const cd_epd *e)
{
	return e->have_board ? &e->board : NULL;
}

size_t
cd_epd_op_count(const cd_epd *e)
{
	return e->nops;
}

const cd_epd_op *
cd_epd_op_get(const cd_epd *e, size_t i)
{
	return i < e->nops ? &e->ops[i].pub : NULL;
}

const cd_epd_op *
cd_epd_op_find(const cd_epd *e, const char *opcode)
{
	long i = cd__epd_op_index(e, opcode);

	return i >= 0 ? &e->ops[i].pub : NULL;
}

/* ---- building ---- */

cd_status
cd_epd_reset(cd_epd *e, const cd_board *b)
{
	cd__epd_clear(e);
	if (b == NULL) {
		cd_board_init(&e->board);
	} else {
		if (cd_board_validate(b) != CD_POS_OK)
			return CD_ERR_POSITION;
		e->board = *b;
	}
	e->have_board = true;
	return CD_OK;
}

/* Remove operation k and its operands. */
static void
op_delete(cd_epd *e, size_t k)
{
	size_t first = e->ops[k].first, cnt = e->ops[k].pub.count, i;

	if (cnt > 0) {
		memmove(e->opnds + first, e->opnds + first + cnt,
		    (e->nopnds - first - cnt) * sizeof(*e->opnds));
		memmove(e->opnd_off + first, e->opnd_off + first + cnt,
		    (e->nopnds - first - cnt) * sizeof(*e->opnd_off));
		e->nopnds -= cnt;
	}
	memmove(e->ops + k, e->ops + k + 1,
	    (e->nops - k - 1) * sizeof(*e->ops));
	e->nops--;
	for (i = k; i < e->nops; i++)
		e->ops[i].first -= cnt;
}

cd_status
cd_epd_op_remove(cd_epd *e, const char *opcode)
{
	long k = cd__epd_op_index(e, opcode);

	if (k < 0)
		return CD_EOF;
	op_delete(e, (size_t)k);
	cd__epd_fixup(e);
	return CD_OK;
}

cd_status
cd_epd_op_begin(cd_epd *e, const char *opcode)
{
	size_t n = opcode ? strlen(opcode) : 0;
	long k;

	if (!cd_epd_opcode_valid(opcode, n) || !e->have_board ||
	    e->nerrors > 0)
		return CD_ERR_ARG;
	if ((k = cd__epd_op_index(e, opcode)) >= 0)
		op_delete(e, (size_t)k);
	if (cd__epd_op_add(e, opcode, n, 0) == SIZE_MAX)
		return CD_ERR_NOMEM;
	cd__epd_fixup(e);
	return CD_OK;
}

static cd_status
add_operand(cd_epd *e, cd_epd_kind kind, const char *s, size_t len,
    cd_epd_operand **out)
{
	cd_epd_operand *d;

	if (e->nops == 0 || e->nerrors > 0 || !e->have_board)
		return CD_ERR_ARG;
	if ((d = cd__epd_operand_add(e, kind, s, len, 0)) == NULL)
		return CD_ERR_NOMEM;
	if (out != NULL)
		*out = d;
	cd__epd_fixup(e);
	return CD_OK;
}

cd_status
cd_epd_add_string(cd_epd *e, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (cd__epd_is_ctrl((unsigned char)s[i]))
			return CD_ERR_ARG;
	return add_operand(e, CD_EPD_STRING, s, len, NULL);
}

cd_status
cd_epd_add_token(cd_epd *e, const char *s, size_t len)
{
	cd_epd_operand *d;
	cd_status st;
	size_t i;

	if (len == 0 || s[0] == '"')
		return CD_ERR_ARG;
	for (i = 0; i < len; i++)
		if (cd__epd_is_ctrl((unsigned char)s[i]) || s[i] == ' ' || s[i] == ';')
			return CD_ERR_ARG;
	if ((st = add_operand(e, CD_EPD_TOKEN, s, len, &d)) != CD_OK)
		return st;
	cd__epd_classify(d, s, len);
	return CD_OK;
}

cd_status
cd_epd_add_integer(cd_epd *e, int64_t v)
{
	char num[32];
	cd_epd_operand *d;
	cd_status st;
	const char *name;
	int n = snprintf(num, sizeof(num), "%lld", (long long)v);

	if (e->nops == 0 || e->nerrors > 0 || !e->have_board)
		return CD_ERR_ARG;
	name = e->ops[e->nops - 1].pub.opcode;
	if (strcmp(name, "hmvc") == 0 || strcmp(name, "fmvn") == 0) {
		if (v < (name[0] == 'h' ? 0 : 1) || v > 0xffffffffLL)
			return CD_ERR_RANGE;
		if (name[0] == 'h')
			e->board.halfmove = (uint32_t)v;
		else
			e->board.fullmove = (uint32_t)v;
	}
	if ((st = add_operand(e, CD_EPD_INTEGER, num, (size_t)n, &d)) != CD_OK)
		return st;
	d->integer = v;
	return CD_OK;
}

cd_status
cd_epd_add_move(cd_epd *e, cd_move m)
{
	cd_board b;
	char san[CD_SAN_MAX];
	cd_epd_operand *d;
	cd_status st;
	struct op *o;
	size_t i;

	if (e->nops == 0 || e->nerrors > 0 || !e->have_board)
		return CD_ERR_ARG;
	o = &e->ops[e->nops - 1];
	b = e->board;
	if (strcmp(o->pub.opcode, "pv") == 0)
		for (i = 0; i < o->pub.count; i++) {
			if (e->opnds[o->first + i].kind != CD_EPD_MOVE)
				return CD_ERR_ARG;
			cd_board_make(&b, e->opnds[o->first + i].move);
		}
	if (m == CD_MOVE_NULL || !cd_board_is_legal(&b, m))
		return CD_ERR_ILLEGAL;
	cd_san_write(&b, m, san);
	if ((st = add_operand(e, CD_EPD_MOVE, san, strlen(san), &d)) != CD_OK)
		return st;
	d->move = m;
	return CD_OK;
}
