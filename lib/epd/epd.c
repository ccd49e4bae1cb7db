/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * epd.c: EPD records (standard 16.2): reading and checking one line,
 * building records, writing the canonical form (the line reader is
 * epd/read.c's).
 *
 * All text of a record (operand texts, finding messages) lives in two
 * growing arenas addressed by offsets; the public pointers are set from
 * the offsets at the end of every call that changes the record.
 */
#define _POSIX_C_SOURCE 200809L
#include "config.h"

#include <sys/types.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/internal.h"
#include "stream/input.h"

/* The rules of the standard's opcodes (16.2.5). */
enum rule {
	R_UNKNOWN = 0,	/* not in the list: anything goes */
	R_NOOP,		/* noop: any operands */
	R_NOARGS,	/* draw_*, resign */
	R_UINT,		/* one non-negative integer: acn, acs, hmvc */
	R_POS,		/* one positive integer: dm, fmvn, rc, tcgs */
	R_CE,		/* one integer in -32767..32766 */
	R_MOVES,	/* am, bm: legal moves, a set */
	R_MOVE1,	/* pm, sm: one legal move */
	R_PV,		/* a sequence of moves played out */
	R_STR01,	/* c0-c9, v0-v9, eco, nic: one string or none */
	R_STR1,		/* id: one string */
	R_STR2		/* tcri, tcsi: two strings */
};

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

static enum rule
rule_of(const char *name)
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

struct op {
	cd_epd_op pub;
	size_t first;		/* index of its first operand */
};

struct finding {
	cd_epd_finding pub;
	cd_status status;	/* what an error makes cd_epd_parse return */
	size_t msg_off, op_off;
	size_t seq;		/* order of discovery, for a stable sort */
};

struct cd_epd {
	cd_board board;
	bool have_board;	/* the fields gave a valid position */
	size_t fields_end;	/* cd_epd_fields_end */
	bool nomem;		/* an allocation failed while parsing */
	bool strict;		/* CD_EPD_STRICT: deviations are errors */

	struct op *ops;
	size_t nops, cap_ops;
	cd_epd_operand *opnds;	/* the operands of all ops, in op order */
	size_t *opnd_off;	/* text offset of each operand */
	size_t nopnds, cap_opnds;
	char *text;		/* operand texts, each NUL-terminated */
	size_t text_len, text_cap;

	struct finding *finds;
	size_t nfinds, cap_finds;
	size_t nerrors;		/* errors found, listed or not */
	size_t dropped;		/* findings past FINDINGS_MAX */
	char *msgs;		/* finding messages and opcodes */
	size_t msgs_len, msgs_cap;

	char *out;		/* the text cd_epd_write gives */
	size_t out_len, out_cap;
	const char **sortbuf;	/* scratch of cd_epd_write */
	size_t sort_cap;
	char *sanbuf;
	size_t san_cap;

	cd_error err;		/* the first error of the last parse */
};

static bool
is_ws(int c)
{
	return c == ' ' || c == '\t';
}

static bool
is_ctrl(int c)
{
	return c < 0x20 || c == 0x7f;
}

/* Set the public pointers from the offsets. */
static void
fixup(cd_epd *e)
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
static const char *
show(char *out, const char *s, size_t len)
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
		if (is_ctrl(c)) {
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

/* Findings kept per line; past it, one more says that there are more. */
#define FINDINGS_MAX 100

/* Whether a finding code makes the line invalid. */
static bool
code_is_error(cd_epd_code code)
{
	return code < CD_EPD_N_UNKNOWN || code >= CD_EPD_S_SAN;
}

/* Record a finding. */
static void
#if defined(__GNUC__)
__attribute__((format(printf, 6, 7)))
#endif
finding(cd_epd *e, cd_epd_code code, cd_status st, size_t col,
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

static void
clear(cd_epd *e)
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
	return opcode != NULL && rule_of(opcode) != R_UNKNOWN;
}

/* Append an operation; its index, or SIZE_MAX when out of memory. */
static size_t
op_add(cd_epd *e, const char *name, size_t len, size_t col)
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
static cd_epd_operand *
operand_push(cd_epd *e, cd_epd_kind kind, size_t off, size_t len,
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
static cd_epd_operand *
operand_add(cd_epd *e, cd_epd_kind kind, const char *s, size_t len,
    size_t col)
{
	size_t off = text_add(e, s, len);

	if (off == SIZE_MAX)
		return NULL;
	return operand_push(e, kind, off, len, col);
}

static const char *
opnd_text(const cd_epd *e, size_t i)
{
	return e->text + e->opnd_off[i];
}

/*
 * Whether s is an integer ([+-]digits): 1 and *v if it fits in
 * int64_t, 2 if it is too large, 0 if it is no integer.
 */
static int
parse_integer(const char *s, size_t len, int64_t *v)
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
static void
classify(cd_epd_operand *d, const char *s, size_t len)
{
	int64_t v;
	int r = parse_integer(s, len, &v);

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
		if (!is_ws((unsigned char)line[i]) && line[i] != '\r' &&
		    line[i] != '\n')
			return CD_EPD_LINE_RECORD;
	return CD_EPD_LINE_BLANK;
}

/* ---- reading the fields ---- */

/*
 * The four fields, and the clocks of a FEN line.  Returns the position
 * just after them, or SIZE_MAX when they are unusable (findings made).
 * *h, *f get the clock token positions (start, length) or 0 lengths.
 */
struct clocks {
	size_t h, hlen, f, flen;
};

static size_t
parse_fields(cd_epd *e, const char *s, size_t len, unsigned flags,
    struct clocks *ck)
{
	size_t start[6], flen[6], pos = 0, n = 0, i, copy_len = 0, col;
	size_t copy_start[6], save;
	char copy[6 * 96 + 8];
	const char *why;
	cd_error fe;
	cd_status st;
	char tmp[64];

	memset(ck, 0, sizeof(*ck));
	while (n < 4) {
		while (pos < len && is_ws((unsigned char)s[pos]))
			pos++;
		if (pos >= len)
			break;
		start[n] = pos;
		while (pos < len && !is_ws((unsigned char)s[pos]))
			pos++;
		flen[n] = pos - start[n];
		n++;
	}
	if (n < 4) {
		finding(e, CD_EPD_E_FIELDS, CD_ERR_SYNTAX, len + 1, NULL,
		    "expected the four EPD fields, found %zu", n);
		return SIZE_MAX;
	}
	/* FEN clocks: two unsigned integers; the second may touch a ';' */
	save = pos;
	for (i = 4; i < 6; i++) {
		size_t p = pos;

		while (p < len && is_ws((unsigned char)s[p]))
			p++;
		if (p == pos || p >= len || s[p] < '0' || s[p] > '9')
			break;
		start[i] = p;
		while (p < len && s[p] >= '0' && s[p] <= '9')
			p++;
		if (p < len && !is_ws((unsigned char)s[p]) &&
		    !(i == 5 && s[p] == ';'))
			break;
		flen[i] = p - start[i];
		pos = p;
	}
	if (i == 6) {
		n = 6;
		ck->h = start[4];
		ck->hlen = flen[4];
		ck->f = start[5];
		ck->flen = flen[5];
		if (pos < len && s[pos] == ';') {
			finding(e, CD_EPD_N_FORMAT, CD_OK, pos + 1, NULL,
			    "';' right after the FEN fullmove number "
			    "(ignored)");
			pos++;
		}
	} else {
		pos = save;
	}
	/* cd_fen_parse on the fields joined by single spaces */
	for (i = 0; i < n; i++) {
		if (flen[i] > 95) {
			finding(e, CD_EPD_E_FIELDS, CD_ERR_SYNTAX, start[i] + 1,
			    NULL, "field %zu is too long: '%s'", i + 1,
			    show(tmp, s + start[i], flen[i]));
			return SIZE_MAX;
		}
		if (i > 0)
			copy[copy_len++] = ' ';
		copy_start[i] = copy_len;
		memcpy(copy + copy_len, s + start[i], flen[i]);
		copy_len += flen[i];
	}
	if (n == 6 && (flags & CD_EPD_NO_FEN)) {
		finding(e, CD_EPD_E_FIELDS, CD_ERR_SYNTAX, start[4] + 1, NULL,
		    "FEN clocks where an EPD line has operations");
		return SIZE_MAX;
	}
	st = cd_fen_parse(&e->board, copy, copy_len, CD_FEN_NO_VALIDATE |
	    ((flags & CD_EPD_960) ? CD_FEN_960 : CD_FEN_DETECT_960), &fe);
	if (st != CD_OK) {
		/* map the column back into the line */
		size_t c = start[0] + 1;

		col = fe.col;
		why = fe.msg;
		for (i = n; i-- > 0;)
			if (col >= copy_start[i] + 1) {
				c = start[i] + 1 + (col - 1 - copy_start[i]);
				break;
			}
		finding(e, st == CD_ERR_POSITION ? CD_EPD_E_POSITION :
		    CD_EPD_E_FIELDS, st, c, NULL, "%s",
		    why ? why : cd_strerror(st));
		return SIZE_MAX;
	}
	/* (perft positions and Chess960 lines are read as X-FEN) */
	if (!(flags & (CD_EPD_NO_VALIDATE | CD_EPD_960)) &&
	    cd_fen_castling_check(s + start[2], flen[2], &e->board, &fe) !=
	    CD_OK) {
		finding(e, CD_EPD_E_POSITION, CD_ERR_POSITION,
		    start[2] + fe.col, NULL, "%s", fe.msg);
		return SIZE_MAX;
	}
	if (n == 6 && e->board.fullmove == 1 && flen[5] > 0 &&
	    strspn(s + start[5], "0") == flen[5]) {
		/* cd_fen_parse reads fullmove 0 as 1 */
		finding(e, CD_EPD_E_FIELDS, CD_ERR_SYNTAX, start[5] + 1, NULL,
		    "fullmove number 0 (it counts from 1)");
		return SIZE_MAX;
	}
	{
		/* without validation, only what play cannot handle, whatever
		 * else is wrong */
		cd_position_error pe = (flags & CD_EPD_NO_VALIDATE) ?
		    cd_board_validate_play(&e->board) :
		    cd_board_validate(&e->board);

		if (pe != CD_POS_OK) {
			finding(e, CD_EPD_E_POSITION, CD_ERR_POSITION,
			    start[0] + 1, NULL, "%s", cd_position_strerror(pe));
			return SIZE_MAX;
		}
	}
	e->have_board = true;
	e->fields_end = start[n - 1] + flen[n - 1];
	return pos;
}

/* ---- reading the operations ---- */

static long
op_index(const cd_epd *e, const char *name)
{
	size_t i;

	for (i = 0; i < e->nops; i++)
		if (strcmp(e->ops[i].pub.opcode, name) == 0)
			return (long)i;
	return -1;
}

/*
 * A quoted string starting at s[*pos] == '"'.  Appends the operand
 * (when keep) and moves *pos past it.  false when it never ends.
 */
static bool
parse_string(cd_epd *e, const char *s, size_t len, size_t *pos, bool keep,
    const char *opcode)
{
	size_t p = *pos + 1, n = 0, col = *pos + 1, off;
	bool bad_ctrl = false, odd_escape = false;
	char *out;

	/* room for the unescaped bytes: at most what is left of the line */
	if (cd__grow(&e->text, &e->text_cap, e->text_len + (len - p) + 1, 1, 16) != 0) {
		e->nomem = true;
		return false;
	}
	off = e->text_len;
	out = e->text + off;
	for (;;) {
		unsigned char c;

		if (p >= len) {
			finding(e, CD_EPD_E_STRING, CD_ERR_SYNTAX, col, opcode,
			    "unterminated string");
			*pos = len;
			return false;
		}
		c = (unsigned char)s[p];
		if (c == '"') {
			p++;
			break;
		}
		if (c == '\\' && p + 1 < len &&
		    (s[p + 1] == '"' || s[p + 1] == '\\')) {
			out[n++] = s[p + 1];
			p += 2;
			continue;
		}
		if (c == '\\' && !odd_escape) {
			odd_escape = true;
			finding(e, CD_EPD_N_FORMAT, CD_OK, p + 1, opcode,
			    "backslash not followed by '\"' or '\\' "
			    "(kept as a backslash)");
		}
		if (is_ctrl(c) && c != '\t' && !bad_ctrl) {
			bad_ctrl = true;
			finding(e, CD_EPD_E_CHAR, CD_ERR_SYNTAX, p + 1, opcode,
			    "control character 0x%02x in a string", c);
		} else if (c == '\t' && !bad_ctrl) {
			bad_ctrl = true;
			finding(e, CD_EPD_E_CHAR, CD_ERR_SYNTAX, p + 1, opcode,
			    "tab in a string");
		}
		out[n++] = (char)c;
		p++;
	}
	*pos = p;
	if (p < len && !is_ws((unsigned char)s[p]) && s[p] != ';') {
		char tmp[64];
		size_t q = p;

		while (q < len && !is_ws((unsigned char)s[q]) && s[q] != ';')
			q++;
		finding(e, CD_EPD_E_STRING, CD_ERR_SYNTAX, p + 1, opcode,
		    "text '%s' right after a string's closing quote",
		    show(tmp, s + p, q - p));
		*pos = q;
	}
	if (n > 255)
		finding(e, CD_EPD_N_FORMAT, CD_OK, col, opcode,
		    "string of %zu bytes (the standard allows up to 255)", n);
	if (keep) {
		/* the bytes are in place: claim them */
		out[n] = '\0';
		e->text_len = off + n + 1;
		if (operand_push(e, CD_EPD_STRING, off, n, col) == NULL)
			e->nomem = true;
	}
	return true;
}

static const char *
first_ctrl(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (is_ctrl((unsigned char)s[i]))
			return s + i;
	return NULL;
}

static void
parse_ops(cd_epd *e, const char *s, size_t len, size_t pos)
{
	char tmp[64], name[CD_EPD_OPCODE_MAX + 1];

	for (;;) {
		size_t start, oplen;
		bool keep;
		const char *cur, *ctrl;

		while (pos < len && is_ws((unsigned char)s[pos]))
			pos++;
		if (pos >= len)
			return;
		if (s[pos] == ';') {
			finding(e, CD_EPD_N_FORMAT, CD_OK, pos + 1, NULL,
			    "empty operation (a ';' with no opcode)");
			pos++;
			continue;
		}
		start = pos;
		while (pos < len && !is_ws((unsigned char)s[pos]) &&
		    s[pos] != ';')
			pos++;
		oplen = pos - start;
		keep = cd_epd_opcode_valid(s + start, oplen);
		cur = NULL;
		if (!keep && (ctrl = first_ctrl(s + start, oplen)) != NULL) {
			finding(e, CD_EPD_E_CHAR, CD_ERR_SYNTAX,
			    (size_t)(ctrl - s) + 1, NULL, "control character "
			    "0x%02x", (unsigned char)*ctrl);
		} else if (!keep) {
			finding(e, CD_EPD_E_OPCODE, CD_ERR_SYNTAX, start + 1,
			    NULL, "bad opcode '%s' (an opcode is a letter, "
			    "then up to 14 letters, digits or underscores)",
			    show(tmp, s + start, oplen));
		} else {
			long prev;

			memcpy(name, s + start, oplen);
			name[oplen] = '\0';
			cur = name;
			if ((prev = op_index(e, name)) >= 0) {
				finding(e, CD_EPD_E_DUPLICATE, CD_ERR_SYNTAX,
				    start + 1, name, "opcode '%s' given twice "
				    "(first at column %zu)", name,
				    e->ops[prev].pub.col);
				keep = false;
			} else if (op_add(e, name, oplen, start + 1) ==
			    SIZE_MAX) {
				e->nomem = true;
				return;
			} else if (name[0] >= 'a' && name[0] <= 'z' &&
			    rule_of(name) == R_UNKNOWN) {
				finding(e, CD_EPD_N_UNKNOWN, CD_OK, start + 1,
				    name, "unknown opcode '%s' (not checked)",
				    name);
			}
		}
		/* the operands */
		for (;;) {
			size_t ostart;

			while (pos < len && is_ws((unsigned char)s[pos]))
				pos++;
			if (pos >= len) {
				if (keep)
					finding(e, e->strict ?
					    CD_EPD_S_FORMAT : CD_EPD_N_FORMAT,
					    e->strict ? CD_ERR_SYNTAX : CD_OK,
					    len + 1, cur, "missing ';' after "
					    "the last operation");
				return;
			}
			if (s[pos] == ';') {
				pos++;
				break;
			}
			if (s[pos] == '"') {
				if (!parse_string(e, s, len, &pos, keep, cur)) {
					/* unterminated: the operation is
					 * incomplete, drop it */
					if (keep && e->nops > 0) {
						e->nopnds =
						    e->ops[e->nops - 1].first;
						e->nops--;
					}
					return;
				}
				if (e->nomem)
					return;
				continue;
			}
			ostart = pos;
			while (pos < len && !is_ws((unsigned char)s[pos]) &&
			    s[pos] != ';') {
				unsigned char c = (unsigned char)s[pos];

				if (is_ctrl(c))
					break;
				pos++;
			}
			if (pos == ostart) {
				/* a control character */
				finding(e, CD_EPD_E_CHAR, CD_ERR_SYNTAX,
				    pos + 1, cur, "control character 0x%02x",
				    (unsigned char)s[pos]);
				pos++;
				continue;
			}
			if (keep) {
				cd_epd_operand *d = operand_add(e, CD_EPD_TOKEN,
				    s + ostart, pos - ostart, ostart + 1);

				if (d == NULL) {
					e->nomem = true;
					return;
				}
				classify(d, s + ostart, pos - ostart);
			}
		}
	}
}

/* ---- the rules of 16.2.5 ---- */

static void
check_integer(cd_epd *e, struct op *o, enum rule rule)
{
	const char *name = o->pub.opcode;
	cd_epd_operand *d;
	char tmp[64];

	if (o->pub.count != 1) {
		finding(e, CD_EPD_E_OPERAND, CD_ERR_SYNTAX, o->pub.col, name,
		    "%s: expected one integer, found %zu operands", name,
		    o->pub.count);
		return;
	}
	d = &e->opnds[o->first];
	if (d->kind != CD_EPD_INTEGER) {
		const char *t = opnd_text(e, o->first);
		int64_t v;

		if (d->kind == CD_EPD_TOKEN &&
		    parse_integer(t, d->len, &v) == 2)
			finding(e, CD_EPD_E_OPERAND, CD_ERR_RANGE, d->col, name,
			    "%s: %s is out of range", name,
			    show(tmp, t, d->len));
		else
			finding(e, CD_EPD_E_OPERAND, CD_ERR_SYNTAX, d->col,
			    name, "%s: %s'%s' is not an integer", name,
			    d->kind == CD_EPD_STRING ? "the string " : "",
			    show(tmp, t, d->len));
		return;
	}
	switch (rule) {
	case R_UINT:
		if (d->integer < 0)
			finding(e, CD_EPD_E_OPERAND, CD_ERR_RANGE, d->col, name,
			    "%s: %lld is negative", name,
			    (long long)d->integer);
		break;
	case R_POS:
		if (d->integer <= 0)
			finding(e, CD_EPD_E_OPERAND, CD_ERR_RANGE, d->col, name,
			    "%s: %lld is not positive", name,
			    (long long)d->integer);
		break;
	case R_CE:
		if (d->integer < -32767 || d->integer > 32766)
			finding(e, CD_EPD_E_OPERAND, CD_ERR_RANGE, d->col, name,
			    "%s: %lld is outside -32767..32766", name,
			    (long long)d->integer);
		break;
	default:
		break;
	}
}

static void
check_strings(cd_epd *e, struct op *o, size_t lo, size_t hi)
{
	const char *name = o->pub.opcode;
	size_t i;
	char tmp[64];

	if (o->pub.count < lo || o->pub.count > hi) {
		if (lo == hi)
			finding(e, CD_EPD_E_OPERAND, CD_ERR_SYNTAX, o->pub.col,
			    name, "%s: expected %s, found %zu operand%s", name,
			    lo == 1 ? "one string" : "two strings",
			    o->pub.count, o->pub.count == 1 ? "" : "s");
		else
			finding(e, CD_EPD_E_OPERAND, CD_ERR_SYNTAX, o->pub.col,
			    name, "%s: expected one string or none, found %zu "
			    "operands", name, o->pub.count);
		return;
	}
	for (i = 0; i < o->pub.count; i++) {
		cd_epd_operand *d = &e->opnds[o->first + i];

		if (d->kind != CD_EPD_STRING)
			finding(e, CD_EPD_E_OPERAND, CD_ERR_SYNTAX, d->col,
			    name, "%s: '%s' is not a quoted string", name,
			    show(tmp, opnd_text(e, o->first + i), d->len));
	}
}

/*
 * Read operand i of o as a move in b.  true when it is legal (the
 * operand becomes CD_EPD_MOVE); findings otherwise.
 */
static bool
check_move(cd_epd *e, struct op *o, size_t i, const cd_board *b,
    size_t nth)
{
	const char *name = o->pub.opcode, *why = NULL;
	cd_error se;
	cd_epd_operand *d = &e->opnds[o->first + i];
	const char *t = opnd_text(e, o->first + i);
	char tmp[64], what[32], san[CD_SAN_MAX];
	cd_status st;
	cd_move m = CD_MOVE_NONE;

	if (nth > 0)
		snprintf(what, sizeof(what), "move %zu ", nth);
	else
		what[0] = '\0';
	if (d->kind == CD_EPD_STRING) {
		finding(e, CD_EPD_E_OPERAND, CD_ERR_SYNTAX, d->col, name,
		    "%s: %sthe string \"%s\" is not a move", name, what,
		    show(tmp, t, d->len));
		return false;
	}
	st = cd_san_parse(b, t, d->len, NULL, 0, &m, &se);
	why = se.msg;
	if (st == CD_OK && m == CD_MOVE_NULL) {
		finding(e, CD_EPD_E_MOVE, CD_ERR_ILLEGAL, d->col, name,
		    "%s: %s'%s' is a null move", name, what,
		    show(tmp, t, d->len));
		return false;
	}
	if (st == CD_OK && !cd_board_is_legal(b, m))
		st = CD_ERR_ILLEGAL;	/* not expected from cd_san_parse */
	if (st != CD_OK) {
		if (st == CD_ERR_NOMEM) {
			e->nomem = true;
			return false;
		}
		finding(e, CD_EPD_E_MOVE, st, d->col, name, "%s: %s'%s': %s",
		    name, what, show(tmp, t, d->len),
		    why ? why : cd_strerror(st));
		return false;
	}
	d->kind = CD_EPD_MOVE;
	d->move = m;
	cd_san_write(b, m, san);
	if (strlen(san) != d->len || memcmp(san, t, d->len) != 0)
		finding(e, e->strict ? CD_EPD_S_SAN : CD_EPD_N_SAN,
		    e->strict ? CD_ERR_SYNTAX : CD_OK, d->col, name,
		    "%s: %s'%s' is '%s' in canonical SAN", name, what,
		    show(tmp, t, d->len), san);
	return true;
}

static void
check_ops(cd_epd *e, const struct clocks *ck, const char *s)
{
	size_t k, i, j;
	struct op *pm = NULL, *pv = NULL;
	bool pv_ok = false;

	for (k = 0; k < e->nops; k++) {
		struct op *o = &e->ops[k];
		const char *name = o->pub.opcode;
		enum rule rule = rule_of(name);

		switch (rule) {
		case R_UNKNOWN:
		case R_NOOP:
			break;
		case R_NOARGS:
			if (o->pub.count != 0)
				finding(e, CD_EPD_E_OPERAND, CD_ERR_SYNTAX,
				    o->pub.col, name, "%s: takes no operands, "
				    "found %zu", name, o->pub.count);
			if ((strcmp(name, "draw_claim") == 0 ||
			    strcmp(name, "draw_offer") == 0) &&
			    op_index(e, "sm") < 0)
				finding(e, CD_EPD_E_OPERAND, CD_ERR_SYNTAX,
				    o->pub.col, name, "%s: needs an sm "
				    "operation (the supplied move)", name);
			break;
		case R_UINT:
		case R_POS:
		case R_CE:
			check_integer(e, o, rule);
			break;
		case R_STR01:
			check_strings(e, o, 0, 1);
			break;
		case R_STR1:
			check_strings(e, o, 1, 1);
			break;
		case R_STR2:
			check_strings(e, o, 2, 2);
			break;
		case R_MOVE1:
			if (o->pub.count != 1) {
				finding(e, CD_EPD_E_OPERAND, CD_ERR_SYNTAX,
				    o->pub.col, name, "%s: expected one move, "
				    "found %zu operands", name, o->pub.count);
				break;
			}
			if (e->have_board &&
			    check_move(e, o, 0, &e->board, 0) &&
			    strcmp(name, "pm") == 0)
				pm = o;
			break;
		case R_MOVES:
			if (!e->have_board)
				break;
			for (i = 0; i < o->pub.count; i++) {
				if (!check_move(e, o, i, &e->board, 0))
					continue;
				for (j = 0; j < i; j++)
					if (e->opnds[o->first + j].kind ==
					    CD_EPD_MOVE &&
					    e->opnds[o->first + j].move ==
					    e->opnds[o->first + i].move) {
						finding(e, CD_EPD_N_FORMAT,
						    CD_OK, e->opnds[o->first +
						    i].col, name, "%s: the "
						    "move '%s' is given twice",
						    name, opnd_text(e,
						    o->first + i));
						break;
					}
			}
			break;
		case R_PV:
			if (e->have_board) {
				cd_board b = e->board;

				pv_ok = true;
				for (i = 0; i < o->pub.count; i++) {
					if (!check_move(e, o, i, &b, i + 1)) {
						pv_ok = false;
						break;
					}
					cd_board_make(&b,
					    e->opnds[o->first + i].move);
				}
				pv = o;
			}
			break;
		}
		if (e->nomem)
			return;
	}
	if (pm != NULL && pv != NULL && pv_ok && pv->pub.count > 0 &&
	    e->opnds[pm->first].move != e->opnds[pv->first].move) {
		char a[CD_SAN_MAX], b[CD_SAN_MAX];

		cd_san_write(&e->board, e->opnds[pm->first].move, a);
		cd_san_write(&e->board, e->opnds[pv->first].move, b);
		finding(e, CD_EPD_E_OPERAND, CD_ERR_SYNTAX, pm->pub.col, "pm",
		    "pm: %s is not the first move of pv (%s)", a, b);
	}
	/* the clocks */
	for (k = 0; k < 2; k++) {
		const char *name = k == 0 ? "hmvc" : "fmvn";
		long idx = op_index(e, name);
		size_t ckpos = k == 0 ? ck->h : ck->f;
		size_t cklen = k == 0 ? ck->hlen : ck->flen;
		cd_epd_operand *d;
		int64_t v;

		if (idx >= 0) {
			struct op *o = &e->ops[idx];

			if (o->pub.count != 1 ||
			    e->opnds[o->first].kind != CD_EPD_INTEGER)
				continue;	/* reported above */
			d = &e->opnds[o->first];
			if (d->integer < (k == 0 ? 0 : 1))
				continue;	/* reported above */
			if (d->integer > 0xffffffffLL) {
				finding(e, CD_EPD_E_OPERAND, CD_ERR_RANGE,
				    d->col, name, "%s: %lld is too large",
				    name, (long long)d->integer);
				continue;
			}
			if (cklen > 0 && parse_integer(s + ckpos, cklen, &v) ==
			    1 && v != d->integer) {
				finding(e, CD_EPD_E_OPERAND, CD_ERR_SYNTAX,
				    d->col, name, "%s: %lld differs from the "
				    "FEN %s %lld", name, (long long)d->integer,
				    k == 0 ? "halfmove clock" :
				    "fullmove number", (long long)v);
				continue;
			}
			if (k == 0)
				e->board.halfmove = (uint32_t)d->integer;
			else
				e->board.fullmove = (uint32_t)d->integer;
		} else if (cklen > 0) {
			/* the FEN clock becomes the operation */
			if (op_add(e, name, 4, ckpos + 1) == SIZE_MAX ||
			    (d = operand_add(e, CD_EPD_INTEGER, s + ckpos,
			    cklen, ckpos + 1)) == NULL) {
				e->nomem = true;
				return;
			}
			classify(d, s + ckpos, cklen);
		}
	}
}

static int
cmp_finding(const void *a, const void *b)
{
	const struct finding *x = a, *y = b;

	if (x->pub.col != y->pub.col)
		return x->pub.col < y->pub.col ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Sort the findings by column, keeping the order of discovery; the
 * "too many" finding stays last, at the column of the first finding
 * not listed or, when a listed one is further on (the findings are
 * not found in column order), at that one's: the list stays in column
 * order. */
static void
sort_findings(cd_epd *e)
{
	size_t n = e->nfinds > FINDINGS_MAX ? FINDINGS_MAX : e->nfinds;

	if (n > 1)
		qsort(e->finds, n, sizeof(*e->finds), cmp_finding);
	if (e->nfinds > FINDINGS_MAX &&
	    e->finds[FINDINGS_MAX].pub.col < e->finds[n - 1].pub.col)
		e->finds[FINDINGS_MAX].pub.col = e->finds[n - 1].pub.col;
}

/*
 * CD_EPD_STRICT: a byte order mark at the start (skipped: columns count
 * after it) and a CR before the line end are errors.
 */
static void
strict_bytes(cd_epd *e, const char **line, size_t *len)
{
	if (*len >= 3 && memcmp(*line, "\xef\xbb\xbf", 3) == 0) {
		finding(e, CD_EPD_S_SPACE, CD_ERR_SYNTAX, 1, NULL,
		    "byte order mark (the standard has none)");
		*line += 3;
		*len -= 3;
	}
	if (*len > 0 && (*line)[*len - 1] == '\r')
		finding(e, CD_EPD_S_SPACE, CD_ERR_SYNTAX, *len, NULL,
		    "CRLF line end (the standard has LF)");
}

/*
 * CD_EPD_STRICT: white space outside strings other than one space
 * between fields and operations is an error: leading or trailing white
 * space, a run of spaces or tabs, a tab.  One finding per run.
 */
static void
strict_spaces(cd_epd *e, const char *s, size_t len)
{
	size_t p = 0, q;
	bool in_string = false;

	while (p < len) {
		if (in_string) {
			if (s[p] == '\\' && p + 1 < len &&
			    (s[p + 1] == '"' || s[p + 1] == '\\'))
				p++;
			else if (s[p] == '"')
				in_string = false;
			p++;
			continue;
		}
		if (!is_ws((unsigned char)s[p])) {
			if (s[p] == '"')
				in_string = true;
			p++;
			continue;
		}
		for (q = p; q < len && is_ws((unsigned char)s[q]); q++)
			;
		if (p == 0)
			finding(e, CD_EPD_S_SPACE, CD_ERR_SYNTAX, p + 1, NULL,
			    "white space at the start of the line");
		else if (q == len)
			finding(e, CD_EPD_S_SPACE, CD_ERR_SYNTAX, p + 1, NULL,
			    "white space at the end of the line");
		else if (q - p > 1)
			finding(e, CD_EPD_S_SPACE, CD_ERR_SYNTAX, p + 1, NULL,
			    "run of %zu spaces or tabs (the standard has "
			    "one space)", q - p);
		else if (s[p] == '\t')
			finding(e, CD_EPD_S_SPACE, CD_ERR_SYNTAX, p + 1, NULL,
			    "tab (the standard has one space)");
		p = q;
	}
}

cd_status
cd_epd_parse(cd_epd *e, const char *line, size_t len, unsigned flags)
{
	const char *nul;
	struct clocks ck;
	size_t pos, i;

	clear(e);
	if (flags & CD_EPD_STRICT) {
		e->strict = true;
		strict_bytes(e, &line, &len);
	}
	if (len > 0 && line[len - 1] == '\r')
		len--;
	if (len > SIZE_MAX / 4 ||
	    cd__grow(&e->text, &e->text_cap, 2 * len + 64, 1, 16) != 0) {
		cd__error_set(&e->err, CD_ERR_NOMEM, 0, 0, 0, "%s",
		    cd_strerror(CD_ERR_NOMEM));
		return CD_ERR_NOMEM;
	}
	nul = memchr(line, '\0', len);
	if (nul != NULL) {
		finding(e, CD_EPD_E_CHAR, CD_ERR_SYNTAX,
		    (size_t)(nul - line) + 1, NULL, "NUL byte");
		goto out;
	}
	pos = parse_fields(e, line, len, flags, &ck);
	if (pos == SIZE_MAX) {
		/* no position: still check the operations' syntax, from
		 * the first opcode-like token after four fields */
		size_t n = 0;

		memset(&ck, 0, sizeof(ck));
		pos = 0;
		while (n < 4 && pos < len) {
			while (pos < len && is_ws((unsigned char)line[pos]))
				pos++;
			if (pos < len)
				n++;
			while (pos < len && !is_ws((unsigned char)line[pos]))
				pos++;
		}
		/* FEN clocks, if any, are not opcodes */
		for (i = 0; i < 2; i++) {
			size_t p = pos;

			while (p < len && is_ws((unsigned char)line[p]))
				p++;
			if (p >= len || line[p] < '0' || line[p] > '9')
				break;
			while (p < len && !is_ws((unsigned char)line[p]) &&
			    line[p] != ';')
				p++;
			pos = p;
		}
	}
	if (e->nomem)
		goto out;
	parse_ops(e, line, len, pos);
	if (e->nomem)
		goto out;
	check_ops(e, &ck, line);
	if (e->strict)
		strict_spaces(e, line, len);
out:
	sort_findings(e);
	fixup(e);
	if (e->nomem) {
		cd__error_set(&e->err, CD_ERR_NOMEM, 0, 0, 0, "%s",
		    cd_strerror(CD_ERR_NOMEM));
		return CD_ERR_NOMEM;
	}
	for (i = 0; i < e->nfinds; i++)
		if (e->finds[i].pub.error) {
			const cd_epd_finding *f = &e->finds[i].pub;

			cd__error_set(&e->err, e->finds[i].status,
			    f->col > 0 ? f->col - 1 : 0, 0, f->col, "%s",
			    f->message);
			return e->finds[i].status;
		}
	return CD_OK;
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
	long i = op_index(e, opcode);

	return i >= 0 ? &e->ops[i].pub : NULL;
}

/* ---- writing ---- */

static int
out_add(cd_epd *e, const char *s, size_t len)
{
	if (cd__grow(&e->out, &e->out_cap, e->out_len + len + 1, 1, 16) != 0)
		return -1;
	memcpy(e->out + e->out_len, s, len);
	e->out_len += len;
	e->out[e->out_len] = '\0';
	return 0;
}

size_t
cd_epd_quote(char *out, const char *s, size_t len)
{
	size_t i, n = 0;

	/* most strings hold neither '"' nor '\\': copied at once */
	if (len > 0 && memchr(s, '"', len) == NULL &&
	    memchr(s, '\\', len) == NULL) {
		out[0] = '"';
		memcpy(out + 1, s, len);
		out[len + 1] = '"';
		return len + 2;
	}
	out[n++] = '"';
	for (i = 0; i < len; i++) {
		if (s[i] == '"' || s[i] == '\\')
			out[n++] = '\\';
		out[n++] = s[i];
	}
	out[n++] = '"';
	return n;
}

static int
out_string(cd_epd *e, const char *s, size_t len)
{
	if (len > (SIZE_MAX - 3) / 2 ||
	    cd__grow(&e->out, &e->out_cap, e->out_len + 2 * len + 3, 1, 16) != 0)
		return -1;
	e->out_len += cd_epd_quote(e->out + e->out_len, s, len);
	e->out[e->out_len] = '\0';
	return 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int
cmp_op(const void *a, const void *b)
{
	const struct op *const *x = a, *const *y = b;

	return strcmp((*x)->pub.opcode, (*y)->pub.opcode);
}

/* Write one operation: " opcode operands;" */
static int
write_op(cd_epd *e, const struct op *o)
{
	enum rule rule = rule_of(o->pub.opcode);
	size_t i, n = o->pub.count;
	cd_board b = e->board;
	char num[32];

	if (out_add(e, " ", 1) != 0 ||
	    out_add(e, o->pub.opcode, strlen(o->pub.opcode)) != 0)
		return -1;
	if (rule == R_MOVES && n > 0) {
		/* the set in ASCII order, each move once */
		const char **v;

		if (cd__grow(&e->sortbuf, &e->sort_cap, n, sizeof(*v), 16) != 0 ||
		    cd__grow(&e->sanbuf, &e->san_cap, n * CD_SAN_MAX, 1, 16) != 0)
			return -1;
		v = e->sortbuf;
		for (i = 0; i < n; i++) {
			const cd_epd_operand *d = &e->opnds[o->first + i];

			if (d->kind == CD_EPD_MOVE) {
				char *p = e->sanbuf + i * CD_SAN_MAX;

				cd_san_write(&b, d->move, p);
				v[i] = p;
			} else {
				v[i] = opnd_text(e, o->first + i);
			}
		}
		qsort(v, n, sizeof(*v), cmp_str);
		for (i = 0; i < n; i++) {
			if (i > 0 && strcmp(v[i], v[i - 1]) == 0)
				continue;
			if (out_add(e, " ", 1) != 0 ||
			    out_add(e, v[i], strlen(v[i])) != 0)
				return -1;
		}
		return out_add(e, ";", 1);
	}
	for (i = 0; i < n; i++) {
		const cd_epd_operand *d = &e->opnds[o->first + i];
		const char *t = opnd_text(e, o->first + i);
		int r;

		if (out_add(e, " ", 1) != 0)
			return -1;
		switch (d->kind) {
		case CD_EPD_STRING:
			r = out_string(e, t, d->len);
			break;
		case CD_EPD_MOVE: {
			char san[CD_SAN_MAX];

			r = out_add(e, san, cd_san_write(&b, d->move, san));
			if (rule == R_PV)
				cd_board_make(&b, d->move);
			break;
		}
		case CD_EPD_INTEGER:
			if (rule != R_UNKNOWN && rule != R_NOOP) {
				int k = snprintf(num, sizeof(num), "%lld",
				    (long long)d->integer);

				r = out_add(e, num, (size_t)k);
				break;
			}
			/* FALLTHROUGH */
		default:
			r = out_add(e, t, d->len);
			break;
		}
		if (r != 0)
			return -1;
	}
	return out_add(e, ";", 1);
}

cd_status
cd_epd_write(cd_epd *e, const char **text, size_t *len)
{
	char fen[CD_FEN_MAX];
	const struct op **order;
	size_t i, n;

	if (!e->have_board || e->nerrors > 0)
		return CD_ERR_ARG;
	e->out_len = 0;
	n = cd_fen_write_epd(&e->board, fen);
	if (out_add(e, fen, n) != 0)
		return CD_ERR_NOMEM;
	order = malloc((e->nops ? e->nops : 1) * sizeof(*order));
	if (order == NULL)
		return CD_ERR_NOMEM;
	for (i = 0; i < e->nops; i++)
		order[i] = &e->ops[i];
	qsort(order, e->nops, sizeof(*order), cmp_op);
	for (i = 0; i < e->nops; i++)
		if (write_op(e, order[i]) != 0) {
			free(order);
			return CD_ERR_NOMEM;
		}
	free(order);
	*text = e->out;
	*len = e->out_len;
	return CD_OK;
}

/* ---- building ---- */

cd_status
cd_epd_reset(cd_epd *e, const cd_board *b)
{
	clear(e);
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
	long k = op_index(e, opcode);

	if (k < 0)
		return CD_EOF;
	op_delete(e, (size_t)k);
	fixup(e);
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
	if ((k = op_index(e, opcode)) >= 0)
		op_delete(e, (size_t)k);
	if (op_add(e, opcode, n, 0) == SIZE_MAX)
		return CD_ERR_NOMEM;
	fixup(e);
	return CD_OK;
}

static cd_status
add_operand(cd_epd *e, cd_epd_kind kind, const char *s, size_t len,
    cd_epd_operand **out)
{
	cd_epd_operand *d;

	if (e->nops == 0 || e->nerrors > 0 || !e->have_board)
		return CD_ERR_ARG;
	if ((d = operand_add(e, kind, s, len, 0)) == NULL)
		return CD_ERR_NOMEM;
	if (out != NULL)
		*out = d;
	fixup(e);
	return CD_OK;
}

cd_status
cd_epd_add_string(cd_epd *e, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (is_ctrl((unsigned char)s[i]))
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
		if (is_ctrl((unsigned char)s[i]) || s[i] == ' ' || s[i] == ';')
			return CD_ERR_ARG;
	if ((st = add_operand(e, CD_EPD_TOKEN, s, len, &d)) != CD_OK)
		return st;
	classify(d, s, len);
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

/* ---- records from the line reader (epd/read.c) ---- */

cd_status
cd_epd_read(cd_epd_reader *r, cd_epd *e, unsigned flags)
{
	const char *line;
	size_t len;
	cd_status st;

	for (;;) {
		if ((st = cd_epd_reader_next(r, &line, &len)) == CD_ERR_RANGE)
			cd__error_set(&e->err, st, cd_epd_reader_offset(r),
			    cd_epd_reader_lineno(r), CD_EPD_LINE_MAX + 1,
			    "line too long");
		if (st != CD_OK)
			return st;
		if (cd_epd_line_kind(line, len) == CD_EPD_LINE_RECORD) {
			if (flags & CD_EPD_STRICT)
				cd_epd_reader_strict_line(r, &line, &len);
			st = cd_epd_parse(e, line, len, flags);
			if (st != CD_OK) {
				/* the place in the stream */
				size_t raw;

				(void)cd_epd_reader_raw(r, &raw);
				e->err.line = cd_epd_reader_lineno(r);
				e->err.offset += cd_epd_reader_offset(r) - raw;
			}
			return st;
		}
	}
}
