/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stream/file.c: a stream as a stdio FILE (fopencookie), for every
 * reader of a FILE and every writer to one.
 */
#define _GNU_SOURCE 1	/* fopencookie */
#include "config.h"

#include <errno.h>
#include <stdio.h>

#include "stream/stream_int.h"

/* ---- as a FILE ---- */

#ifdef HAVE_FOPENCOOKIE
static ssize_t
cookie_read(void *c, char *buf, size_t size)
{
	cd_stream *s = c;
	cd_status st;
	size_t n;

	st = cd_stream_read(s, buf, size, &n);
	if (st == CD_OK)
		return (ssize_t)n;
	if (st == CD_EOF)
		return 0;
	errno = st == CD_ERR_IO ? s->err.sys_errno : st == CD_ERR_NOMEM ?
	    ENOMEM : EIO;
	return -1;
}

static ssize_t
cookie_write(void *c, const char *buf, size_t size)
{
	cd_stream *s = c;
	cd_status st = cd_stream_write(s, buf, size);

	if (st == CD_OK)
		return (ssize_t)size;
	errno = st == CD_ERR_IO && s->err.sys_errno ? s->err.sys_errno :
	    st == CD_ERR_NOMEM ? ENOMEM : EIO;
	return -1;
}

static int
cookie_close(void *c)
{
	cd_stream *s = c;
	int r = 0;

	if (s->writing && cd_stream_finish(s) != CD_OK) {
		errno = s->err.sys_errno ? s->err.sys_errno : EIO;
		r = -1;
	}
	cd_stream_free(s);
	return r;
}
#endif

FILE *
cd_stream_fopen(cd_stream *s, const char *mode)
{
#ifdef HAVE_FOPENCOOKIE
	cookie_io_functions_t io = { NULL, NULL, NULL, cookie_close };

	if (s->writing)
		io.write = cookie_write;
	else
		io.read = cookie_read;
	return fopencookie(s, mode, io);
#else
	(void)s;
	(void)mode;
	errno = ENOSYS;
	return NULL;
#endif
}
