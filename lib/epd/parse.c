/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * epd/parse.c: EPD records read: the four fields, the operations, a
 * whole line (cd_epd_parse, the operations checked by epd/check.c) and
 * the next record of a line reader (cd_epd_read).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "epd/epd_int.h"

/* ---- reading the fields ---- */

/*
 * The four fields, and the clocks of a FEN line.  Returns the position
 * just after them, or SIZE_MAX when they are unusable (findings made).
 * *h, *f get the clock token positions (start, length) or 0 lengths.
 */
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
		while (pos < len && cd__epd_is_ws((unsigned char)s[pos]))
			pos++;
		if (pos >= len)
			break;
		start[n] = pos;
		while (pos < len && !cd__epd_is_ws((unsigned char)s[pos]))
			pos++;
		flen[n] = pos - start[n];
		n++;
	}
	if (n < 4) {
		cd__epd_finding(e, CD_EPD_E_FIELDS, CD_ERR_SYNTAX, len + 1,
		    NULL, "expected the four EPD fields, found %zu", n);
		return SIZE_MAX;
	}
	/* FEN clocks: two unsigned integers; the second may touch a ';' */
	save = pos;
	for (i = 4; i < 6; i++) {
		size_t p = pos;

		while (p < len && cd__epd_is_ws((unsigned char)s[p]))
			p++;
		if (p == pos || p >= len || s[p] < '0' || s[p] > '9')
			break;
		start[i] = p;
		while (p < len && s[p] >= '0' && s[p] <= '9')
			p++;
		if (p < len && !cd__epd_is_ws((unsigned char)s[p]) &&
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
			cd__epd_finding(e, CD_EPD_N_FORMAT, CD_OK, pos + 1,
			    NULL, "';' right after the FEN fullmove number "
			    "(ignored)");
			pos++;
		}
	} else {
		pos = save;
	}
	/* cd_fen_parse on the fields joined by single spaces */
	for (i = 0; i < n; i++) {
		if (flen[i] > 95) {
			cd__epd_finding(e, CD_EPD_E_FIELDS, CD_ERR_SYNTAX,
			    start[i] + 1, NULL, "field %zu is too long: '%s'",
			    i + 1, cd__epd_show(tmp, s + start[i], flen[i]));
			return SIZE_MAX;
		}
		if (i > 0)
			copy[copy_len++] = ' ';
		copy_start[i] = copy_len;
		memcpy(copy + copy_len, s + start[i], flen[i]);
		copy_len += flen[i];
	}
	if (n == 6 && (flags & CD_EPD_NO_FEN)) {
		cd__epd_finding(e, CD_EPD_E_FIELDS, CD_ERR_SYNTAX, start[4] + 1,
		    NULL, "FEN clocks where an EPD line has operations");
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
		cd__epd_finding(e, st == CD_ERR_POSITION ? CD_EPD_E_POSITION :
		    CD_EPD_E_FIELDS, st, c, NULL, "%s",
		    why ? why : cd_strerror(st));
		return SIZE_MAX;
	}
	/* (perft positions and Chess960 lines are read as X-FEN) */
	if (!(flags & (CD_EPD_NO_VALIDATE | CD_EPD_960)) &&
	    cd_fen_castling_check(s + start[2], flen[2], &e->board, &fe) !=
	    CD_OK) {
		cd__epd_finding(e, CD_EPD_E_POSITION, CD_ERR_POSITION,
		    start[2] + fe.col, NULL, "%s", fe.msg);
		return SIZE_MAX;
	}
	if (n == 6 && e->board.fullmove == 1 && flen[5] > 0 &&
	    strspn(s + start[5], "0") == flen[5]) {
		/* cd_fen_parse reads fullmove 0 as 1 */
		cd__epd_finding(e, CD_EPD_E_FIELDS, CD_ERR_SYNTAX, start[5] + 1,
		    NULL, "fullmove number 0 (it counts from 1)");
		return SIZE_MAX;
	}
	{
		/* without validation, only what play cannot handle, whatever
		 * else is wrong */
		cd_position_error pe = (flags & CD_EPD_NO_VALIDATE) ?
		    cd_board_validate_play(&e->board) :
		    cd_board_validate(&e->board);

		if (pe != CD_POS_OK) {
			cd__epd_finding(e, CD_EPD_E_POSITION, CD_ERR_POSITION,
			    start[0] + 1, NULL, "%s", cd_position_strerror(pe));
			return SIZE_MAX;
		}
	}
	e->have_board = true;
	e->fields_end = start[n - 1] + flen[n - 1];
	return pos;
}

/* ---- reading the operations ---- */

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
			cd__epd_finding(e, CD_EPD_E_STRING, CD_ERR_SYNTAX, col,
			    opcode, "unterminated string");
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
			cd__epd_finding(e, CD_EPD_N_FORMAT, CD_OK, p + 1,
			    opcode, "backslash not followed by '\"' or '\\' "
			    "(kept as a backslash)");
		}
		if (cd__epd_is_ctrl(c) && c != '\t' && !bad_ctrl) {
			bad_ctrl = true;
			cd__epd_finding(e, CD_EPD_E_CHAR, CD_ERR_SYNTAX, p + 1,
			    opcode, "control character 0x%02x in a string", c);
		} else if (c == '\t' && !bad_ctrl) {
			bad_ctrl = true;
			cd__epd_finding(e, CD_EPD_E_CHAR, CD_ERR_SYNTAX, p + 1,
			    opcode, "tab in a string");
		}
		out[n++] = (char)c;
		p++;
	}
	*pos = p;
	if (p < len && !cd__epd_is_ws((unsigned char)s[p]) && s[p] != ';') {
		char tmp[64];
		size_t q = p;

		while (q < len && !cd__epd_is_ws((unsigned char)s[q]) &&
		    s[q] != ';')
			q++;
		cd__epd_finding(e, CD_EPD_E_STRING, CD_ERR_SYNTAX, p + 1,
		    opcode, "text '%s' right after a string's closing quote",
		    cd__epd_show(tmp, s + p, q - p));
		*pos = q;
	}
	if (n > 255)
		cd__epd_finding(e, CD_EPD_N_FORMAT, CD_OK, col, opcode,
		    "string of %zu bytes (the standard allows up to 255)", n);
	if (keep) {
		/* the bytes are in place: claim them */
		out[n] = '\0';
		e->text_len = off + n + 1;
		if (cd__epd_operand_push(e, CD_EPD_STRING, off, n, col) == NULL)
			e->nomem = true;
	}
	return true;
}

static const char *
first_ctrl(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (cd__epd_is_ctrl((unsigned char)s[i]))
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

		while (pos < len && cd__epd_is_ws((unsigned char)s[pos]))
			pos++;
		if (pos >= len)
			return;
		if (s[pos] == ';') {
			cd__epd_finding(e, CD_EPD_N_FORMAT, CD_OK, pos + 1,
			    NULL, "empty operation (a ';' with no opcode)");
			pos++;
			continue;
		}
		start = pos;
		while (pos < len && !cd__epd_is_ws((unsigned char)s[pos]) &&
		    s[pos] != ';')
			pos++;
		oplen = pos - start;
		keep = cd_epd_opcode_valid(s + start, oplen);
		cur = NULL;
		if (!keep && (ctrl = first_ctrl(s + start, oplen)) != NULL) {
			cd__epd_finding(e, CD_EPD_E_CHAR, CD_ERR_SYNTAX,
			    (size_t)(ctrl - s) + 1, NULL, "control character "
			    "0x%02x", (unsigned char)*ctrl);
		} else if (!keep) {
			cd__epd_finding(e, CD_EPD_E_OPCODE, CD_ERR_SYNTAX,
			    start + 1, NULL,
			    "bad opcode '%s' (an opcode is a letter, "
			    "then up to 14 letters, digits or underscores)",
			    cd__epd_show(tmp, s + start, oplen));
		} else {
			long prev;

			memcpy(name, s + start, oplen);
			name[oplen] = '\0';
			cur = name;
			if ((prev = cd__epd_op_index(e, name)) >= 0) {
				cd__epd_finding(e, CD_EPD_E_DUPLICATE,
				    CD_ERR_SYNTAX, start + 1, name,
				    "opcode '%s' given twice "
				    "(first at column %zu)", name,
				    e->ops[prev].pub.col);
				keep = false;
			} else if (cd__epd_op_add(e, name, oplen, start + 1) ==
			    SIZE_MAX) {
				e->nomem = true;
				return;
			} else if (name[0] >= 'a' && name[0] <= 'z' &&
			    cd__epd_rule_of(name) == R_UNKNOWN) {
				cd__epd_finding(e, CD_EPD_N_UNKNOWN, CD_OK,
				    start + 1, name,
				    "unknown opcode '%s' (not checked)", name);
			}
		}
		/* the operands */
		for (;;) {
			size_t ostart;

			while (pos < len &&
			    cd__epd_is_ws((unsigned char)s[pos]))
				pos++;
			if (pos >= len) {
				if (keep)
					cd__epd_finding(e, e->strict ?
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
			while (pos < len &&
			    !cd__epd_is_ws((unsigned char)s[pos]) &&
			    s[pos] != ';') {
				unsigned char c = (unsigned char)s[pos];

				if (cd__epd_is_ctrl(c))
					break;
				pos++;
			}
			if (pos == ostart) {
				/* a control character */
				cd__epd_finding(e, CD_EPD_E_CHAR, CD_ERR_SYNTAX,
				    pos + 1, cur, "control character 0x%02x",
				    (unsigned char)s[pos]);
				pos++;
				continue;
			}
			if (keep) {
				cd_epd_operand *d = cd__epd_operand_add(e,
				    CD_EPD_TOKEN, s + ostart, pos - ostart,
				    ostart + 1);

				if (d == NULL) {
					e->nomem = true;
					return;
				}
				cd__epd_classify(d, s + ostart, pos - ostart);
			}
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
		cd__epd_finding(e, CD_EPD_S_SPACE, CD_ERR_SYNTAX, 1, NULL,
		    "byte order mark (the standard has none)");
		*line += 3;
		*len -= 3;
	}
	if (*len > 0 && (*line)[*len - 1] == '\r')
		cd__epd_finding(e, CD_EPD_S_SPACE, CD_ERR_SYNTAX, *len, NULL,
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
		if (!cd__epd_is_ws((unsigned char)s[p])) {
			if (s[p] == '"')
				in_string = true;
			p++;
			continue;
		}
		for (q = p; q < len && cd__epd_is_ws((unsigned char)s[q]); q++)
			;
		if (p == 0)
			cd__epd_finding(e, CD_EPD_S_SPACE, CD_ERR_SYNTAX, p + 1,
			    NULL, "white space at the start of the line");
		else if (q == len)
			cd__epd_finding(e, CD_EPD_S_SPACE, CD_ERR_SYNTAX, p + 1,
			    NULL, "white space at the end of the line");
		else if (q - p > 1)
			cd__epd_finding(e, CD_EPD_S_SPACE, CD_ERR_SYNTAX, p + 1,
			    NULL, "run of %zu spaces or tabs (the standard has "
			    "one space)", q - p);
		else if (s[p] == '\t')
			cd__epd_finding(e, CD_EPD_S_SPACE, CD_ERR_SYNTAX, p + 1,
			    NULL, "tab (the standard has one space)");
		p = q;
	}
}

cd_status
cd_epd_parse(cd_epd *e, const char *line, size_t len, unsigned flags)
{
	const char *nul;
	struct clocks ck;
	size_t pos, i;

	cd__epd_clear(e);
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
		cd__epd_finding(e, CD_EPD_E_CHAR, CD_ERR_SYNTAX,
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
			while (pos < len &&
			    cd__epd_is_ws((unsigned char)line[pos]))
				pos++;
			if (pos < len)
				n++;
			while (pos < len &&
			    !cd__epd_is_ws((unsigned char)line[pos]))
				pos++;
		}
		/* FEN clocks, if any, are not opcodes */
		for (i = 0; i < 2; i++) {
			size_t p = pos;

			while (p < len &&
			    cd__epd_is_ws((unsigned char)line[p]))
				p++;
			if (p >= len || line[p] < '0' || line[p] > '9')
				break;
			while (p < len &&
			    !cd__epd_is_ws((unsigned char)line[p]) &&
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
	cd__epd_check_ops(e, &ck, line);
	if (e->strict)
		strict_spaces(e, line, len);
out:
	sort_findings(e);
	cd__epd_fixup(e);
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
