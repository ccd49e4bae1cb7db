/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * internal.h: what every file of the library shares, not exported
 * (names start with cd__): the public headers, the error setter of
 * util.c, an array's growth, the decimal writer, the writers' tag list.  The
 * chess internals have their own headers, each over the one before:
 * bits.h, tables.h (gen-tables.c's data), attacks.h, board_make.h,
 * movegen.h; and cpu.h, pgc_ordinal.h, pgn_internal.h.
 */
#ifndef CHESSDATA_INTERNAL_H
#define CHESSDATA_INTERNAL_H

#include <stdlib.h>
#include <string.h>

#include "chessdata.h"

/* Constant data computed when the library is built (gen-tables.c,
 * which fills it and so defines CD__TABLE empty): tables.h's, and the
 * lexer's byte classes. */
#ifndef CD__TABLE
#define CD__TABLE const
#endif

/* util.c: fill *e (if not NULL) with a status, a place and a message
 * (printf format; NULL leaves it empty). */
void cd__error_set(cd_error *e, cd_status st, uint64_t offset,
    unsigned long line, unsigned long col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* cd__error_set(e, CD_OK, 0, 0, 0, NULL), without a call. */
static inline void
cd__error_ok(cd_error *e)
{
	if (e == NULL)
		return;
	e->status = CD_OK;
	e->offset = 0;
	e->line = 0;
	e->col = 0;
	e->msg[0] = '\0';
}

void *cd__huge_alloc(size_t want, size_t *cap);

/* sniff.c: the first byte of p[0..n) that text does not hold (NUL, DEL
 * and the control bytes but tab, LF, VT, FF, CR, SUB and ESC), or
 * NULL. */
const char *cd__binary_byte(const char *p, size_t n);

/*
 * Grow the array whose pointer is at pp (of *cap elements of size) to
 * hold need elements, doubling from min: 0, or -1 with the array
 * unchanged.  The pointer is copied in and out with memcpy, so
 * any object pointer type may be passed without aliasing trouble.
 */
static inline int
cd__grow(void *pp, size_t *cap, size_t need, size_t size, size_t min)
{
	size_t n = *cap ? *cap : min;
	void *p, *q;

	if (need <= *cap)
		return 0;
	while (n < need) {
		if (n > SIZE_MAX / 2 / size)
			return -1;
		n *= 2;
	}
	memcpy(&p, pp, sizeof(p));
	q = realloc(p, n * size);
	if (q == NULL)
		return -1;
	memcpy(pp, &q, sizeof(q));
	*cap = n;
	return 0;
}

/* Write v in decimal at p (room for 20 bytes), with no NUL; the end. */
static inline char *
cd__put_uint(char *p, uint64_t v)
{
	char tmp[20];
	size_t n = sizeof(tmp);

	if (v < 10) {
		*p = (char)('0' + v);
		return p + 1;
	}
	do {
		tmp[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v > 0);
	memcpy(p, tmp + n, sizeof(tmp) - n);
	return p + (sizeof(tmp) - n);
}

/* A cd_game_xtags as { 0 }, without clearing its buffers (the writers
 * make one per game). */
static inline void
cd__xtags_init(cd_game_xtags *x)
{
	x->tags = NULL;
	x->n = x->cap = 0;
}

#endif
