/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * epd/check.c: the operations of an EPD record checked by the rules of
 * the standard's opcodes (16.2.5): integers, strings, moves legal in
 * the record's position.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "epd/epd_int.h"

static void
check_integer(cd_epd *e, struct op *o, enum rule rule)
{
	const char *name = o->pub.opcode;
	cd_epd_operand *d;
	char tmp[64];

	if (o->pub.count != 1) {
		cd__epd_finding(e, CD_EPD_E_OPERAND, CD_ERR_SYNTAX, o->pub.col,
		    name, "%s: expected one integer, found %zu operands", name,
		    o->pub.count);
		return;
	}
	d = &e->opnds[o->first];
	if (d->kind != CD_EPD_INTEGER) {
		const char *t = cd__epd_opnd_text(e, o->first);
		int64_t v;

		if (d->kind == CD_EPD_TOKEN &&
		    cd__epd_parse_integer(t, d->len, &v) == 2)
			cd__epd_finding(e, CD_EPD_E_OPERAND, CD_ERR_RANGE,
			    d->col, name, "%s: %s is out of range", name,
			    cd__epd_show(tmp, t, d->len));
		else
			cd__epd_finding(e, CD_EPD_E_OPERAND, CD_ERR_SYNTAX,
			    d->col, name, "%s: %s'%s' is not an integer", name,
			    d->kind == CD_EPD_STRING ? "the string " : "",
			    cd__epd_show(tmp, t, d->len));
		return;
	}
	switch (rule) {
	case R_UINT:
		if (d->integer < 0)
			cd__epd_finding(e, CD_EPD_E_OPERAND, CD_ERR_RANGE,
			    d->col, name, "%s: %lld is negative", name,
			    (long long)d->integer);
		break;
	case R_POS:
		if (d->integer <= 0)
			cd__epd_finding(e, CD_EPD_E_OPERAND, CD_ERR_RANGE,
			    d->col, name, "%s: %lld is not positive", name,
			    (long long)d->integer);
		break;
	case R_CE:
		if (d->integer < -32767 || d->integer > 32766)
			cd__epd_finding(e, CD_EPD_E_OPERAND, CD_ERR_RANGE,
			    d->col, name, "%s: %lld is outside -32767..32766",
			    name, (long long)d->integer);
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
			cd__epd_finding(e, CD_EPD_E_OPERAND, CD_ERR_SYNTAX,
			    o->pub.col, name,
			    "%s: expected %s, found %zu operand%s", name,
			    lo == 1 ? "one string" : "two strings",
			    o->pub.count, o->pub.count == 1 ? "" : "s");
		else
			cd__epd_finding(e, CD_EPD_E_OPERAND, CD_ERR_SYNTAX,
			    o->pub.col, name,
			    "%s: expected one string or none, found %zu "
			    "operands", name, o->pub.count);
		return;
	}
	for (i = 0; i < o->pub.count; i++) {
		cd_epd_operand *d = &e->opnds[o->first + i];

		if (d->kind != CD_EPD_STRING)
			cd__epd_finding(e, CD_EPD_E_OPERAND, CD_ERR_SYNTAX,
			    d->col, name, "%s: '%s' is not a quoted string",
			    name, cd__epd_show(tmp, cd__epd_opnd_text(e,
			    o->first + i), d->len));
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
	const char *t = cd__epd_opnd_text(e, o->first + i);
	char tmp[64], what[32], san[CD_SAN_MAX];
	cd_status st;
	cd_move m = CD_MOVE_NONE;

	if (nth > 0)
		snprintf(what, sizeof(what), "move %zu ", nth);
	else
		what[0] = '\0';
	if (d->kind == CD_EPD_STRING) {
		cd__epd_finding(e, CD_EPD_E_OPERAND, CD_ERR_SYNTAX, d->col,
		    name, "%s: %sthe string \"%s\" is not a move", name, what,
		    cd__epd_show(tmp, t, d->len));
		return false;
	}
	st = cd_san_parse(b, t, d->len, NULL, 0, &m, &se);
	why = se.msg;
	if (st == CD_OK && m == CD_MOVE_NULL) {
		cd__epd_finding(e, CD_EPD_E_MOVE, CD_ERR_ILLEGAL, d->col, name,
		    "%s: %s'%s' is a null move", name, what,
		    cd__epd_show(tmp, t, d->len));
		return false;
	}
	if (st == CD_OK && !cd_board_is_legal(b, m))
		st = CD_ERR_ILLEGAL;	/* not expected from cd_san_parse */
	if (st != CD_OK) {
		if (st == CD_ERR_NOMEM) {
			e->nomem = true;
			return false;
		}
		cd__epd_finding(e, CD_EPD_E_MOVE, st, d->col, name,
		    "%s: %s'%s': %s", name, what, cd__epd_show(tmp, t, d->len),
		    why ? why : cd_strerror(st));
		return false;
	}
	d->kind = CD_EPD_MOVE;
	d->move = m;
	cd_san_write(b, m, san);
	if (strlen(san) != d->len || memcmp(san, t, d->len) != 0)
		cd__epd_finding(e, e->strict ? CD_EPD_S_SAN : CD_EPD_N_SAN,
		    e->strict ? CD_ERR_SYNTAX : CD_OK, d->col, name,
		    "%s: %s'%s' is '%s' in canonical SAN", name, what,
		    cd__epd_show(tmp, t, d->len), san);
	return true;
}

/* The clocks: hmvc and fmvn against the FEN's (ck), given to the
 * board; a FEN clock with no operation becomes one. */
static void
check_clocks(cd_epd *e, const struct clocks *ck, const char *s)
{
	size_t k;

	for (k = 0; k < 2; k++) {
		const char *name = k == 0 ? "hmvc" : "fmvn";
		long idx = cd__epd_op_index(e, name);
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
				cd__epd_finding(e, CD_EPD_E_OPERAND,
				    CD_ERR_RANGE, d->col, name,
				    "%s: %lld is too large", name,
				    (long long)d->integer);
				continue;
			}
			if (cklen > 0 && cd__epd_parse_integer(s + ckpos, cklen,
			    &v) == 1 && v != d->integer) {
				cd__epd_finding(e, CD_EPD_E_OPERAND,
				    CD_ERR_SYNTAX, d->col, name,
				    "%s: %lld differs from the FEN %s %lld",
				    name, (long long)d->integer, k == 0 ?
				    "halfmove clock" : "fullmove number",
				    (long long)v);
				continue;
			}
			if (k == 0)
				e->board.halfmove = (uint32_t)d->integer;
			else
				e->board.fullmove = (uint32_t)d->integer;
		} else if (cklen > 0) {
			/* the FEN clock becomes the operation */
			if (cd__epd_op_add(e, name, 4, ckpos + 1) == SIZE_MAX ||
			    (d = cd__epd_operand_add(e, CD_EPD_INTEGER,
			    s + ckpos, cklen, ckpos + 1)) == NULL) {
				e->nomem = true;
				return;
			}
			cd__epd_classify(d, s + ckpos, cklen);
		}
	}
}

void
cd__epd_check_ops(cd_epd *e, const struct clocks *ck, const char *s)
{
	size_t k, i, j;
	struct op *pm = NULL, *pv = NULL;
	bool pv_ok = false;

	for (k = 0; k < e->nops; k++) {
		struct op *o = &e->ops[k];
		const char *name = o->pub.opcode;
		enum rule rule = cd__epd_rule_of(name);

		switch (rule) {
		case R_UNKNOWN:
		case R_NOOP:
			break;
		case R_NOARGS:
			if (o->pub.count != 0)
				cd__epd_finding(e, CD_EPD_E_OPERAND,
				    CD_ERR_SYNTAX, o->pub.col, name,
				    "%s: takes no operands, found %zu", name,
				    o->pub.count);
			if ((strcmp(name, "draw_claim") == 0 ||
			    strcmp(name, "draw_offer") == 0) &&
			    cd__epd_op_index(e, "sm") < 0)
				cd__epd_finding(e, CD_EPD_E_OPERAND,
				    CD_ERR_SYNTAX, o->pub.col, name,
				    "%s: needs an sm "
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
				cd__epd_finding(e, CD_EPD_E_OPERAND,
				    CD_ERR_SYNTAX, o->pub.col, name,
				    "%s: expected one move, "
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
						cd__epd_finding(e,
						    CD_EPD_N_FORMAT, CD_OK,
						    e->opnds[o->first + i].col,
						    name, "%s: the "
						    "move '%s' is given twice",
						    name, cd__epd_opnd_text(e,
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
		cd__epd_finding(e, CD_EPD_E_OPERAND, CD_ERR_SYNTAX, pm->pub.col,
		    "pm", "pm: %s is not the first move of pv (%s)", a, b);
	}
	check_clocks(e, ck, s);
}
