/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stream.c: reading plain and compressed input (see chessdata/stream.h
 * and, for the other files of a stream, stream_int.h).
 *
 * Reading: the first bytes of the input name its format.  A decoder per
 * format pulls compressed bytes from the stream's input buffer (refilled
 * with read(2), or a caller's memory) and fills an output buffer; at the
 * end of the input it tells a clean end (every frame, member or stream
 * complete) from a truncated one.  With CD_STREAM_THREAD a thread of the
 * stream's own runs the decoder ahead of the reader (stream/thread.c):
 * the decoder runs on one core while the reader's caller parses on the
 * other.  Plain input is never threaded: it is read with read(2)
 * straight into the caller's buffer.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stream/stream_int.h"

/* ---- compressed input ---- */

/* The codec of compressed format f, its library loaded; else NULL,
 * and why in *why. */
const struct codec *
cd__stream_codec(cd_stream_format f, const char **why)
{
	static const struct codec *const codecs[CD_STREAM_XZ + 1] = {
#ifdef HAVE_ZSTD
		[CD_STREAM_ZSTD] = &cd__stream_zstd,
#endif
#ifdef HAVE_ZLIB
		[CD_STREAM_GZIP] = &cd__stream_gzip,
#endif
#ifdef HAVE_BZLIB
		[CD_STREAM_BZIP2] = &cd__stream_bzip2,
#endif
#ifdef HAVE_LZMA
		[CD_STREAM_XZ] = &cd__stream_xz,
#endif
		[CD_STREAM_PLAIN] = NULL
	};

	if (f == CD_STREAM_ZIP) {
		if (why != NULL)
			*why = "zip archives are read, never written";
		return NULL;
	}
	return f <= CD_STREAM_XZ && cd__stream_lib_ready(f, why) ? codecs[f] :
	    NULL;
}

/* Plain input: what is left of the first bytes, then straight from the
 * descriptor. */
static cd_status
dec_plain(cd_stream *s, uint8_t *out, size_t cap, size_t *n)
{
	ssize_t k;

	*n = 0;
	if (s->in_pos < s->in_len) {
		size_t m = s->in_len - s->in_pos;

		if (m > cap)
			m = cap;
		memcpy(out, s->in + s->in_pos, m);
		s->in_pos += m;
		*n = m;
		return CD_OK;
	}
	if (s->in_eof)
		return CD_EOF;
	do
		k = read(s->fd, out, cap);
	while (k < 0 && errno == EINTR);
	if (k < 0) {
		int e = errno;

		cd__serr_set(&s->derr, CD_ERR_IO, cd__stream_in_at(s),
		    "read error: %s", strerror(e));
		s->derr.sys_errno = e;
		return CD_ERR_IO;
	}
	s->in_off += (size_t)k;
	if (k == 0) {
		s->in_eof = 1;
		return CD_EOF;
	}
	*n = (size_t)k;
	return CD_OK;
}


/*
 * Zero bytes where a gzip member or bzip2 stream would begin: padding,
 * as tape and block devices leave, when only zeros follow to the end
 * (CD_EOF; gzip(1) ignores them, bzip2(1) with a warning, which the
 * stream keeps); else CD_OK at the first other byte, which begins the
 * next member or stream (or is reported as damage).
 */
static cd_status
skip_zeros(cd_stream *s)
{
	uint64_t at = cd__stream_in_at(s);
	cd_status st;

	for (;;) {
		while (s->in_pos < s->in_len && s->in[s->in_pos] == 0) {
			s->in_pos++;
			s->zeros++;
		}
		if (s->in_pos < s->in_len)
			return CD_OK;
		if (s->in_eof)
			break;
		if ((st = cd__stream_read_in(s)) != CD_OK)
			return st;
	}
	s->ended = 1;
	if (s->fmt == CD_STREAM_BZIP2)
		cd__error_set(&s->warn, CD_ERR_CORRUPT, at, 0, 0, "warning: "
		    "%llu zero bytes after the end of the bzip2 data at byte "
		    "%llu ignored", (unsigned long long)s->zeros,
		    (unsigned long long)at);
	return CD_EOF;
}

/*
 * Compressed input, every format: refill the input when it is used up;
 * begin a frame, member or stream when none is open and input remains;
 * run the codec.  At the end of the input a call that makes no progress
 * tells a clean end (nothing open) from a truncated one.
 */
static cd_status
dec_codec(cd_stream *s, uint8_t *out, size_t cap, size_t *n)
{
	const struct codec *c = s->codec;
	size_t got = 0;
	cd_status st = CD_OK;

	if (s->ended) {
		*n = 0;
		return CD_EOF;
	}
	while (got < cap) {
		struct io io;
		enum step r;

		/* (a frame, member or stream's header whole in the buffer
		 * when the input has it) */
		if (!s->in_eof && (s->in_pos == s->in_len || (!s->open &&
		    s->in_len - s->in_pos < HEADER_MAX))) {
			if ((st = cd__stream_read_in(s)) != CD_OK)
				break;
			continue;
		}
		if (!s->open && s->in_pos < s->in_len &&
		    s->in[s->in_pos] == 0 && (s->fmt == CD_STREAM_GZIP ||
		    s->fmt == CD_STREAM_BZIP2)) {
			if ((st = skip_zeros(s)) != CD_OK)
				break;
			continue;
		}
		if (!s->open && c->begin != NULL) {
			if (s->in_pos == s->in_len) {
				st = CD_EOF;
				break;
			}
			/* (said here, where it starts, not where the
			 * library gives up on it) */
			if (cd_stream_detect(s->in + s->in_pos, s->in_len -
			    s->in_pos) != s->fmt) {
				st = cd__stream_corrupt(s,
				    s->fmt == CD_STREAM_GZIP ?
				    "not gzip data after gzip data" :
				    "not bzip2 data after bzip2 data");
				break;
			}
			if ((st = c->begin(s)) != CD_OK)
				break;
			s->open = 1;
		}
		io.in = s->in + s->in_pos;
		io.in_len = s->in_len - s->in_pos;
		io.out = out + got;
		io.out_len = cap - got;
		io.used = io.made = 0;
		io.why = NULL;
		io.need = 0;
		r = c->dec_step(s, &io);
		s->in_pos += io.used;
		got += io.made;
		if (r == STEP_DONE) {
			s->ended = 1;
			st = CD_EOF;
			break;
		}
		if (r == STEP_TRUNC || r == STEP_BAD || r == STEP_NOMEM ||
		    r == STEP_LIMIT) {
			st = r == STEP_TRUNC ? cd__stream_truncated(s) :
			    r == STEP_BAD ? cd__stream_corrupt(s, io.why) :
			    r == STEP_NOMEM ? cd__stream_nomem(s) :
			    cd__stream_over_limit(s, io.need);
			break;
		}
		if (r == STEP_END)
			s->open = 0;
		else if (io.used > 0)
			s->open = 1;
		if (io.used == 0 && io.made == 0 && s->in_pos == s->in_len &&
		    s->in_eof) {
			st = s->open ? cd__stream_truncated(s) : CD_EOF;
			break;
		}
	}
	*n = got;
	return st;
}

/* Set up the decoder of s->fmt. */
static cd_status
dec_init(cd_stream *s)
{
	const char *why = "";
	cd_status st;

	if (s->fmt == CD_STREAM_PLAIN) {
		const char *other = cd_sniff_format(s->in, s->in_len);

		s->decode = dec_plain;
		if (other != NULL)
			return cd__serr_set(&s->derr, CD_ERR_UNSUPPORTED, 0,
			    "%s are not read", other);
		return CD_OK;
	}
	if (s->fmt == CD_STREAM_ZIP) {
#ifdef HAVE_LIBARCHIVE
		if (cd__stream_lib_ready(s->fmt, &why))
			return cd__stream_zip_init(s);
#else
		(void)cd__stream_lib_ready(s->fmt, &why);
#endif
		return cd__serr_set(&s->derr, CD_ERR_UNSUPPORTED, 0,
		    "zip archives are not supported (%s)", why);
	}
	if ((s->codec = cd__stream_codec(s->fmt, &why)) == NULL)
		return cd__serr_set(&s->derr, CD_ERR_UNSUPPORTED, 0,
		    "%s compressed input is not supported (%s)",
		    cd_stream_format_name(s->fmt), why);
	if ((st = s->codec->dec_init(s)) == CD_OK)
		s->decode = dec_codec;
	return st;
}

cd_stream *
cd__stream_alloc(uint64_t memlimit)
{
	cd_stream *s = calloc(1, sizeof(*s));

	if (s != NULL) {
		s->fd = -1;
		s->memlimit = memlimit > 0 ? memlimit :
		    CD_STREAM_MEMLIMIT_DEFAULT;
	}
	return s;
}

/* Know the format from the first bytes, set up its decoder and, when
 * asked, its thread. */
static void
open_common(cd_stream *s, unsigned flags)
{
	size_t cap = s->in_cap;
	cd_status st = CD_OK;

	/* (a page's bytes at most: a plain input's next bytes go from
	 * read() to its reader's buffer, not through this one, whose
	 * other pages are then never touched) */
	if (s->fd >= 0 && cap > SNIFF)
		s->in_cap = SNIFF;
	while (st == CD_OK && s->fd >= 0 && s->in_len < HEAD && !s->in_eof)
		st = cd__stream_read_in(s);
	s->in_cap = cap;
	if (st != CD_OK) {
		s->err = s->derr;
		s->st = s->err.e.status;
		return;
	}
	s->fmt = cd_stream_detect(s->in, s->in_len);
	if (dec_init(s) != CD_OK) {
		s->err = s->derr;
		s->st = s->err.e.status;
		return;
	}
	/* (started at the first read: cd_stream_on_member may be set
	 * before the thread decodes) */
	if ((flags & CD_STREAM_THREAD) && s->fmt != CD_STREAM_PLAIN)
		s->want_thread = 1 + ((flags >> 8) & 0xff);
}

cd_stream *
cd_stream_open_fd(int fd, unsigned flags)
{
	return cd_stream_open_fd_limit(fd, flags, 0);
}

cd_stream *
cd_stream_open_mem(const void *buf, size_t len, unsigned flags)
{
	return cd_stream_open_mem_limit(buf, len, flags, 0);
}

cd_stream *
cd_stream_open_fd_limit(int fd, unsigned flags, uint64_t memlimit)
{
	cd_stream *s = cd__stream_alloc(memlimit);

	if (s == NULL)
		return NULL;
	s->fd = fd;
	s->in_cap = IN_CAP;
	if ((s->in = malloc(IN_CAP)) == NULL) {
		free(s);
		return NULL;
	}
	s->own_in = 1;
	open_common(s, flags);
	return s;
}

cd_stream *
cd_stream_open_mem_limit(const void *buf, size_t len, unsigned flags,
    uint64_t memlimit)
{
	cd_stream *s = cd__stream_alloc(memlimit);

	if (s == NULL)
		return NULL;
	s->in = (uint8_t *)(uintptr_t)(len > 0 ? buf : "");
	s->in_len = len;
	s->in_eof = 1;
	open_common(s, flags);
	return s;
}

/* A stream decoding the frames at buf (len bytes, the whole of them),
 * found at offset base of the input: a worker's decoder of zstd frames
 * (stream/frames.c, given it through parts). */
static cd_stream *
open_part(const void *buf, size_t len, uint64_t base,
    cd_stream_format f, uint64_t memlimit)
{
	cd_stream *s = cd__stream_alloc(memlimit);

	if (s == NULL)
		return NULL;
	s->in = (uint8_t *)(uintptr_t)buf;
	s->in_len = len;
	s->in_eof = 1;
	s->in_off = base;
	s->fmt = f;
	if (dec_init(s) != CD_OK) {
		s->err = s->derr;
		s->st = s->err.e.status;
	}
	return s;
}

/* What the threads open and free a worker's decoder with. */
static const struct part_ops parts = { open_part, cd_stream_free };

cd_stream_format
cd_stream_get_format(const cd_stream *s)
{
	return s->fmt;
}

void
cd_stream_on_member(cd_stream *s,
    void (*fn)(void *ctx, const char *name, unsigned long line), void *ctx)
{
	s->on_member = fn;
	s->member_ctx = ctx;
}

/*
 * The end of the input, or damage (its error e): every later read says
 * the same.  e is the unthreaded decoder's (s->derr) or the one a
 * thread gave with its last block; later reads pass NULL and the error
 * told stays: s->derr is not the reader's to read while the stream's
 * threads run (the splitting thread of zstd frames goes on decoding the
 * rest of the input with it after a worker's frame failed).
 */
static cd_status
stream_end(cd_stream *s, cd_status st, const struct serr *e)
{
	s->st = st;
	if (st != CD_EOF && e != NULL)
		s->err = *e;
	if (st == CD_ERR_IO && s->err.sys_errno != 0)
		errno = s->err.sys_errno;	/* (the readers' errno) */
	return st;
}

cd_status
cd_stream_read(cd_stream *s, void *buf, size_t cap, size_t *n)
{
	const struct serr *e = NULL;
	cd_status st;

	*n = 0;
	if (s->writing)
		return CD_ERR_ARG;
	if (s->st != CD_OK)
		return stream_end(s, s->st, NULL);
	if (s->pending != CD_OK)
		return stream_end(s, s->pending, &s->derr);
	if (cap == 0)
		return CD_OK;
	if (s->want_thread) {
		unsigned workers = (unsigned)s->want_thread - 1;

		s->want_thread = 0;
		cd__stream_thread_start(s, workers, &parts);
	}
	if (!s->threaded) {
		/* a decoder may end a call with nothing (a skippable frame
		 * read): call again until it gives bytes or ends */
		do {
			st = s->decode(s, buf, cap, n);
		} while (st == CD_OK && *n == 0);
		s->out_total += *n;
		if (st != CD_OK && *n == 0)
			return stream_end(s, st, &s->derr);
		/* the end comes with the next call */
		s->pending = st;
		return CD_OK;
	}
	st = cd__stream_thread_read(s, buf, cap, n, &e);
	s->out_total += *n;
	return st == CD_OK ? CD_OK : stream_end(s, st, e);
}

uint64_t
cd_stream_tell(const cd_stream *s)
{
	return s->out_total;
}

uint64_t
cd_stream_tell_in(const cd_stream *s)
{
	if (s->writing || !s->threaded)
		return s->writing ? s->in_off : cd__stream_in_at(s);
	return s->in_told;
}

const cd_error *
cd_stream_error(const cd_stream *s)
{
	return &s->err.e;
}

const cd_error *
cd_stream_warning(const cd_stream *s)
{
	/* (the decoder sets it before its end, which the reader has seen
	 * when it asks) */
	return &s->warn;
}

size_t
cd_stream_memory(const cd_stream *s)
{
	size_t n = sizeof(*s);

	if (s->own_in)
		n += s->in_cap;
	if (s->out != NULL)
		n += OUT_CAP;
	if (s->fr != NULL)
		n += cd__stream_frames_memory(s);
	else if (s->threaded)
		n += RING * BLOCK;
	if (!s->writing && s->codec != NULL)
		n += s->codec->memory(s);
#ifdef HAVE_LIBARCHIVE
	if (!s->writing && s->fmt == CD_STREAM_ZIP)
		n += cd__stream_zip_memory(s);
#endif
	return n;
}

void
cd_stream_free(cd_stream *s)
{
	if (s == NULL)
		return;
	if (s->threaded)
		cd__stream_thread_stop(s);
	if (s->codec != NULL)
		s->codec->free(s);
#ifdef HAVE_LIBARCHIVE
	if (s->fmt == CD_STREAM_ZIP && !s->writing)
		cd__stream_zip_free(s);
#endif
	if (s->own_in)
		free(s->in);
	free(s->out);
	free(s);
}

