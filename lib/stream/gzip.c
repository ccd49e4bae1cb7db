/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stream/gzip.c: gzip members, read and written (see stream_int.h).
 */
#include "config.h"

#include <stdlib.h>

#include "stream/stream_int.h"

#ifdef HAVE_ZLIB
/* What zlib's inflate takes (a 32 KiB window and tables). */
#define GZIP_MEM	((size_t)48 << 10)

/* gzip: members one after the other, each begun afresh. */
static cd_status
gzip_dec_init(cd_stream *s)
{
	if ((s->cx = calloc(1, sizeof(z_stream))) == NULL)
		return cd__stream_nomem(s);
	if (cd__zlib.inflateInit2_(s->cx, 15 + 16, ZLIB_VERSION,
	    (int)sizeof(z_stream)) != Z_OK) {
		free(s->cx);
		s->cx = NULL;
		return cd__stream_nomem(s);
	}
	return CD_OK;
}

static cd_status
gzip_begin(cd_stream *s)
{
	return cd__zlib.inflateReset(s->cx) == Z_OK ? CD_OK :
	    cd__stream_nomem(s);
}

/* Point the z_stream at io (zlib counts in 32 bits). */
static void
gzip_io(z_stream *z, struct io *io)
{
	if (io->in_len > UINT32_MAX)
		io->in_len = UINT32_MAX;
	if (io->out_len > UINT32_MAX)
		io->out_len = UINT32_MAX;
	z->next_in = (Bytef *)(uintptr_t)io->in;
	z->avail_in = (uInt)io->in_len;
	z->next_out = io->out;
	z->avail_out = (uInt)io->out_len;
}

static enum step
gzip_dec(cd_stream *s, struct io *io)
{
	z_stream *z = s->cx;
	int r;

	gzip_io(z, io);
	r = cd__zlib.inflate(z, Z_NO_FLUSH);
	io->used = io->in_len - z->avail_in;
	io->made = io->out_len - z->avail_out;
	if (r == Z_STREAM_END)
		return STEP_END;
	if (r == Z_DATA_ERROR || r == Z_NEED_DICT) {
		io->why = z->msg ? z->msg : "bad data";
		return STEP_BAD;
	}
	return r == Z_MEM_ERROR ? STEP_NOMEM : STEP_OK;
}

static cd_status
gzip_enc_init(cd_stream *s)
{
	if ((s->cx = calloc(1, sizeof(z_stream))) == NULL)
		return CD_ERR_NOMEM;
	if (cd__zlib.deflateInit2_(s->cx, s->level, Z_DEFLATED, 15 + 16, 8,
	    Z_DEFAULT_STRATEGY, ZLIB_VERSION, (int)sizeof(z_stream)) != Z_OK) {
		free(s->cx);
		s->cx = NULL;
		return CD_ERR_NOMEM;
	}
	return CD_OK;
}

static enum step
gzip_enc(cd_stream *s, struct io *io, int end)
{
	z_stream *z = s->cx;
	int r;

	gzip_io(z, io);
	r = cd__zlib.deflate(z, end ? Z_FINISH : Z_NO_FLUSH);
	io->used = io->in_len - z->avail_in;
	io->made = io->out_len - z->avail_out;
	if (r == Z_STREAM_ERROR) {
		io->why = "stream error";
		return STEP_BAD;
	}
	return r == Z_STREAM_END ? STEP_END : STEP_OK;
}

static void
gzip_free(cd_stream *s)
{
	if (s->cx == NULL)
		return;
	if (s->writing)
		cd__zlib.deflateEnd(s->cx);
	else
		cd__zlib.inflateEnd(s->cx);
	free(s->cx);
}

static size_t
gzip_memory(const cd_stream *s)
{
	return s->cx != NULL ? GZIP_MEM : 0;
}

const struct codec cd__stream_gzip = {
	gzip_dec_init, gzip_begin, gzip_dec, gzip_enc_init, gzip_enc,
	gzip_free, gzip_memory, 1
};
#endif
