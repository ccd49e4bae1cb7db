/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * epd_int.h: an EPD record (cd_epd) as the files of lib/epd share it:
 *
 *	epd/epd.c	the record: its arenas, findings, operations and
 *			operands, the questions asked of it, building
 *	epd/parse.c	records read: the fields, the operations, a line
 *			(cd_epd_parse) and the next of a reader (cd_epd_read)
 *	epd/check.c	the operations checked by the rules of 16.2.5
 *	epd/write.c	records written in the canonical form
 *	epd/read.c	the line reader (cd_epd_reader)
 *
 * Calls go down that list (parse.c calls check.c, both call epd.c),
 * never back.  All text of a record (operand texts, finding messages)
 * lives in two growing arenas addressed by offsets; the public pointers
 * are set from the offsets at the end of every call that changes the
 * record (cd__epd_fixup).
 */
#ifndef CHESSDATA_EPD_INT_H
#define CHESSDATA_EPD_INT_H

#include "common/internal.h"

/* Findings kept per line; past it, one more says that there are more. */
#define FINDINGS_MAX 100

/* The rules of the standard's opcodes (16.2.5). */
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

/* The clocks of a FEN line: their tokens' positions (start, length),
 * or 0 lengths. */
struct clocks {
	size_t h, hlen, f, flen;
};

static inline bool
cd__epd_is_ws(int c)
{
	return c == ' ' || c == '\t';
}

static inline bool
cd__epd_is_ctrl(int c)
{
	return c < 0x20 || c == 0x7f;
}

/* The text of operand i. */
static inline const char *
cd__epd_opnd_text(const cd_epd *e, size_t i)
{
	return e->text + e->opnd_off[i];
}

/* epd/epd.c */
/* The rule of an opcode (R_UNKNOWN for one not in the standard). */
enum rule cd__epd_rule_of(const char *name);
/* Set the public pointers from the offsets. */
void cd__epd_fixup(cd_epd *e);
/* Printable form of input text for a message (out: 64 bytes). */
const char *cd__epd_show(char *out, const char *s, size_t len);
/* Record a finding (opcode NULL: of no operation). */
void cd__epd_finding(cd_epd *e, cd_epd_code code, cd_status st, size_t col,
    const char *opcode, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* Empty the record for a new line. */
void cd__epd_clear(cd_epd *e);
/* Append an operation; its index, or SIZE_MAX when out of memory. */
size_t cd__epd_op_add(cd_epd *e, const char *name, size_t len, size_t col);
/* Append an operand whose text is at offset off (operand_add: with a
 * copy of s) to the last operation; NULL when out of memory. */
cd_epd_operand *cd__epd_operand_push(cd_epd *e, cd_epd_kind kind,
    size_t off, size_t len, size_t col);
cd_epd_operand *cd__epd_operand_add(cd_epd *e, cd_epd_kind kind,
    const char *s, size_t len, size_t col);
/* Whether s is an integer: 1 and *v if it fits in int64_t, 2 if it is
 * too large, 0 if it is no integer. */
int cd__epd_parse_integer(const char *s, size_t len, int64_t *v);
/* Give an unquoted operand its kind and value. */
void cd__epd_classify(cd_epd_operand *d, const char *s, size_t len);
/* The index of the operation named name, or -1. */
long cd__epd_op_index(const cd_epd *e, const char *name);

/* epd/check.c */
/* Check the operations of the line s by the rules of 16.2.5 (ck: the
 * clocks of a FEN line). */
void cd__epd_check_ops(cd_epd *e, const struct clocks *ck, const char *s);

#endif
