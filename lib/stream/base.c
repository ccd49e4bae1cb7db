/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stream/base.c: what the decoders (stream.c's, the codecs', the zip
 * reader's) share: the refill of the compressed input buffer, and what
 * a stream says when it fails (a read error, a damaged or truncated
 * input, memory, a memory limit).
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <unistd.h>

#include "stream/stream_int.h"

cd_status
cd__serr_set(struct serr *e, cd_status st, uint64_t off,
    const char *fmt, ...)
{
	char msg[CD_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cd__error_set(&e->e, st, off, 0, 0, "%s", msg);
	e->sys_errno = 0;
	return st;
}

cd_status
cd__stream_corrupt(cd_stream *s, const char *what)
{
	uint64_t at = cd__stream_in_at(s);

	return cd__serr_set(&s->derr, CD_ERR_CORRUPT, at,
	    "corrupt %s input at byte %llu of the compressed data: %s",
	    cd_stream_format_name(s->fmt), (unsigned long long)at, what);
}

cd_status
cd__stream_truncated(cd_stream *s)
{
	uint64_t at = cd__stream_in_at(s);

	return cd__serr_set(&s->derr, CD_ERR_CORRUPT, at,
	    "truncated %s input: it ends inside compressed data at byte %llu",
	    cd_stream_format_name(s->fmt), (unsigned long long)at);
}

cd_status
cd__stream_nomem(cd_stream *s)
{
	return cd__serr_set(&s->derr, CD_ERR_NOMEM, cd__stream_in_at(s),
	    "out of memory");
}

/* The input needs need bytes for its decoder (0: more than the limit,
 * how much more unknown). */
cd_status
cd__stream_over_limit(cd_stream *s, uint64_t need)
{
	const char *f = cd_stream_format_name(s->fmt);
	unsigned long long lim = (unsigned long long)(s->memlimit >> 20);
	uint64_t at = cd__stream_in_at(s);

	if (need == 0)
		return cd__serr_set(&s->derr, CD_ERR_RANGE, at, "%s "
		    "compressed input needs more memory than the limit of "
		    "%llu MiB", f, lim);
	return cd__serr_set(&s->derr, CD_ERR_RANGE, at, "%s compressed "
	    "input needs %llu MiB of memory, more than the limit of %llu MiB",
	    f, (unsigned long long)((need + (1 << 20) - 1) >> 20), lim);
}

/* How long a thread waits for input before it looks whether its
 * stream is being freed. */
#define QUIT_POLL_MS	100

/* More compressed input after what is unread (which moves down). */
cd_status
cd__stream_read_in(cd_stream *s)
{
	ssize_t k;

	if (s->in_eof)
		return CD_OK;
	if (s->in_pos > 0) {
		memmove(s->in, s->in + s->in_pos, s->in_len - s->in_pos);
		s->in_off += s->in_pos;
		s->in_len -= s->in_pos;
		s->in_pos = 0;
	}
	for (;;) {
		/* A thread waits for input a while at a time, so that a
		 * stream freed while its pipe stays open and silent ends
		 * its threads (no cancellation: it would leave their
		 * stacks as no sanitizer can follow). */
		if (s->threaded) {
			struct pollfd p = { .fd = s->fd, .events = POLLIN };
			int r;

			if (__atomic_load_n(&s->quit, __ATOMIC_ACQUIRE))
				return cd__serr_set(&s->derr, CD_ERR_IO,
				    cd__stream_in_at(s), "stopped");
			r = poll(&p, 1, QUIT_POLL_MS);
			if (r == 0 || (r < 0 && errno == EINTR))
				continue;
		}
		k = read(s->fd, s->in + s->in_len, s->in_cap - s->in_len);
		if (k < 0 && errno == EINTR)
			continue;
		break;
	}
	if (k < 0) {
		int e = errno;

		cd__serr_set(&s->derr, CD_ERR_IO,
		    cd__stream_in_at(s) + s->in_len, "read error: %s",
		    strerror(e));
		s->derr.sys_errno = e;
		return CD_ERR_IO;
	}
	if (k == 0)
		s->in_eof = 1;
	s->in_len += (size_t)k;
	return CD_OK;
}
