/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * epd/write.c: an EPD record written in the canonical form: opcodes in
 * ASCII order, am and bm operands in ASCII order, strings quoted.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "epd/epd_int.h"

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
	enum rule rule = cd__epd_rule_of(o->pub.opcode);
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
				v[i] = cd__epd_opnd_text(e, o->first + i);
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
		const char *t = cd__epd_opnd_text(e, o->first + i);
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
