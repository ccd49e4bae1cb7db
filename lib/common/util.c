/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * util.c: status texts, the version, the growable buffer (cd_buf) and
 * the error setter (cd__error_set).
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "common/internal.h"

const char *
cd_strerror(int status)
{
	switch (status) {
	case CD_OK: return "success";
	case CD_EOF: return "end of input";
	case CD_ERR_NOMEM: return "out of memory";
	case CD_ERR_IO: return "input/output error";
	case CD_ERR_SYNTAX: return "syntax error";
	case CD_ERR_ILLEGAL: return "illegal move";
	case CD_ERR_AMBIGUOUS: return "ambiguous move";
	case CD_ERR_POSITION: return "impossible position";
	case CD_ERR_UNSUPPORTED: return "unsupported";
	case CD_ERR_RANGE: return "value out of range";
	case CD_ERR_CORRUPT: return "corrupt data";
	case CD_ERR_ARG: return "invalid argument";
	}
	return "unknown error";
}

const char *
cd_version(void)
{
	return PACKAGE_VERSION;
}

/* The slow part of cd_buf_reserve (and of the writers' inline
 * reserves): grow the capacity by doubling. */
cd_status
cd_buf_reserve(cd_buf *b, size_t n)
{
	size_t cap;
	char *p;

	if (b->cap - b->len >= n)
		return CD_OK;
	cap = b->cap ? b->cap : 4096;
	while (cap - b->len < n) {
		if (cap > SIZE_MAX / 2)
			return CD_ERR_NOMEM;
		cap *= 2;
	}
	p = realloc(b->data, cap);
	if (p == NULL)
		return CD_ERR_NOMEM;
	b->data = p;
	b->cap = cap;
	return CD_OK;
}

void
cd_buf_free(cd_buf *b)
{
	if (b == NULL)
		return;
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

void
cd__error_set(cd_error *e, cd_status st, uint64_t offset,
    unsigned long line, unsigned long col, const char *fmt, ...)
{
	va_list ap;

	if (e == NULL)
		return;
	e->status = st;
	e->offset = offset;
	e->line = line;
	e->col = col;
	e->msg[0] = '\0';
	if (fmt != NULL) {
		va_start(ap, fmt);
		vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
		va_end(ap);
	}
}

#define HUGE_PAGE	((size_t)2 << 20)

/*
 * want bytes or more (*cap: how many, a multiple of 2 MiB), aligned to
 * 2 MiB, that the system is asked to give as huge pages: one page
 * fault each 2 MiB where there would be 512, on buffers of megabytes
 * first written in a run (a fault costs some 20 us in a virtual
 * machine).  Freed with free(3); NULL (and *cap 0) without memory.
 */
void *
cd__huge_alloc(size_t want, size_t *cap)
{
	size_t n = (want + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	void *p;

	*cap = 0;
	if (n < want || posix_memalign(&p, HUGE_PAGE, n) != 0)
		return NULL;
#ifdef MADV_HUGEPAGE
	(void)madvise(p, n, MADV_HUGEPAGE);
#endif
	*cap = n;
	return p;
}
