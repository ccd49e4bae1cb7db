/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stream/write.c: writing plain and compressed output (see
 * chessdata/stream.h): the bytes given are compressed into an output
 * buffer that is written to the descriptor whenever it fills.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stream/stream_int.h"

/* ---- writing ---- */

/* Write n bytes to the descriptor. */
static cd_status
put(cd_stream *s, const void *p, size_t n)
{
	const char *c = p;

	while (n > 0) {
		ssize_t k = write(s->fd, c, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			int e = errno;

			cd__serr_set(&s->err, CD_ERR_IO, s->in_off,
			    "write error: %s", strerror(e));
			s->err.sys_errno = e;
			errno = e;
			return CD_ERR_IO;
		}
		c += k;
		n -= (size_t)k;
		s->in_off += (size_t)k;	/* compressed bytes written */
	}
	return CD_OK;
}

static cd_status
enc_fail(cd_stream *s, const char *what)
{
	errno = EIO;
	return cd__serr_set(&s->err, CD_ERR_IO, s->in_off, "%s compression "
	    "failed: %s", cd_stream_format_name(s->fmt), what);
}

/*
 * Compress n bytes at p (end: and end the data), every format: run the
 * codec into the output buffer and write what it made, until the input
 * is taken (and, at the end, the data is complete).
 */
static cd_status
encode(cd_stream *s, const uint8_t *p, size_t n, int end)
{
	const struct codec *c = s->codec;
	struct io io;
	enum step r;
	cd_status st;

	if (s->fmt == CD_STREAM_PLAIN)
		return put(s, p, n);
	if (c == NULL)
		return CD_ERR_UNSUPPORTED;
	do {
		io.in = p;
		io.in_len = n;
		io.out = s->out;
		io.out_len = OUT_CAP;
		io.used = io.made = 0;
		io.why = NULL;
		r = c->enc_step(s, &io, end);
		if (r == STEP_NOMEM)
			return cd__serr_set(&s->err, CD_ERR_NOMEM, s->in_off,
			    "out of memory");
		if (r == STEP_BAD)
			return enc_fail(s, io.why);
		if (io.made > 0 && (st = put(s, s->out, io.made)) != CD_OK)
			return st;
		p += io.used;
		n -= io.used;
	} while (n > 0 || (c->drain && io.made == OUT_CAP) ||
	    (end && r != STEP_END));
	return CD_OK;
}

/* Set up the encoder of s->fmt at s->level. */
static cd_status
enc_init(cd_stream *s)
{
	if (s->fmt == CD_STREAM_PLAIN)
		return CD_OK;
	if ((s->codec = cd__stream_codec(s->fmt, NULL)) == NULL)
		return CD_ERR_UNSUPPORTED;
	return s->codec->enc_init(s);
}

cd_stream *
cd_stream_open_write_fd(int fd, cd_stream_format f, int level)
{
	cd_stream *s = cd__stream_alloc(0);
	const char *why = "";
	int lo, hi, dflt;
	cd_status st;

	if (s == NULL)
		return NULL;
	s->writing = 1;
	s->fd = fd;
	s->fmt = f;
	cd_stream_levels(f, &lo, &hi, &dflt);
	s->level = level < 0 ? dflt : level;
	if (f != CD_STREAM_PLAIN && cd__stream_codec(f, &why) == NULL) {
		s->st = cd__serr_set(&s->err, CD_ERR_UNSUPPORTED, 0, "%s "
		    "compression is not supported (%s)",
		    cd_stream_format_name(f), why);
		return s;
	}
	if (s->level < lo || s->level > hi) {
		s->st = cd__serr_set(&s->err, CD_ERR_ARG, 0, "%s compression "
		    "level %d is not in %d..%d", cd_stream_format_name(f),
		    s->level, lo, hi);
		return s;
	}
	if (f != CD_STREAM_PLAIN && (s->out = malloc(OUT_CAP)) == NULL) {
		free(s);
		return NULL;
	}
	if ((st = enc_init(s)) != CD_OK) {
		if (st == CD_ERR_NOMEM) {
			cd_stream_free(s);
			return NULL;
		}
		s->st = st;
	}
	return s;
}

cd_status
cd_stream_write(cd_stream *s, const void *buf, size_t n)
{
	const uint8_t *p = buf;
	cd_status st;

	if (!s->writing)
		return CD_ERR_ARG;
	if (s->st != CD_OK)
		return s->st;
	if (s->finished)
		return CD_ERR_ARG;
	/* pieces the encoders' 32-bit counts hold */
	while (n > 0) {
		size_t m = n > ((size_t)1 << 30) ? (size_t)1 << 30 : n;

		if ((st = encode(s, p, m, 0)) != CD_OK)
			return s->st = st;
		p += m;
		n -= m;
		s->out_total += m;
	}
	return CD_OK;
}

cd_status
cd_stream_finish(cd_stream *s)
{
	cd_status st;

	if (!s->writing)
		return CD_ERR_ARG;
	if (s->st != CD_OK)
		return s->st;
	if (s->finished)
		return CD_OK;
	s->finished = 1;
	if ((st = encode(s, (const uint8_t *)"", 0, 1)) != CD_OK)
		return s->st = st;
	return CD_OK;
}
