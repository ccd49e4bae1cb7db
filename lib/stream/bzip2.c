/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stream/bzip2.c: bzip2 streams, read and written (see stream_int.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "stream/stream_int.h"

#ifdef HAVE_BZLIB
/* What libbz2's decompressor takes (100 KiB and four bytes per byte of
 * a 900 KB block). */
#define BZIP2_MEM	((size_t)3700 << 10)

/* bzip2: streams one after the other (pbzip2 writes several). */
static cd_status
bzip2_dec_init(cd_stream *s)
{
	if ((s->cx = calloc(1, sizeof(bz_stream))) == NULL)
		return cd__stream_nomem(s);
	return CD_OK;
}

static cd_status
bzip2_begin(cd_stream *s)
{
	memset(s->cx, 0, sizeof(bz_stream));
	return cd__bz2.BZ2_bzDecompressInit(s->cx, 0, 0) == BZ_OK ? CD_OK :
	    cd__stream_nomem(s);
}

/* Point the bz_stream at io (libbz2 counts in 32 bits). */
static void
bzip2_io(bz_stream *b, struct io *io)
{
	if (io->in_len > UINT32_MAX)
		io->in_len = UINT32_MAX;
	if (io->out_len > UINT32_MAX)
		io->out_len = UINT32_MAX;
	b->next_in = (char *)(uintptr_t)io->in;
	b->avail_in = (unsigned)io->in_len;
	b->next_out = (char *)io->out;
	b->avail_out = (unsigned)io->out_len;
}

static enum step
bzip2_dec(cd_stream *s, struct io *io)
{
	bz_stream *b = s->cx;
	int r;

	bzip2_io(b, io);
	r = cd__bz2.BZ2_bzDecompress(b);
	io->used = io->in_len - b->avail_in;
	io->made = io->out_len - b->avail_out;
	if (r == BZ_STREAM_END) {
		cd__bz2.BZ2_bzDecompressEnd(b);
		return STEP_END;
	}
	if (r == BZ_MEM_ERROR)
		return STEP_NOMEM;
	if (r != BZ_OK) {
		io->why = r == BZ_DATA_ERROR_MAGIC ? "not bzip2 data" :
		    r == BZ_DATA_ERROR ? "data integrity error" : "bad data";
		return STEP_BAD;
	}
	return STEP_OK;
}

static cd_status
bzip2_enc_init(cd_stream *s)
{
	if ((s->cx = calloc(1, sizeof(bz_stream))) == NULL)
		return CD_ERR_NOMEM;
	if (cd__bz2.BZ2_bzCompressInit(s->cx, s->level, 0, 0) != BZ_OK) {
		free(s->cx);
		s->cx = NULL;
		return CD_ERR_NOMEM;
	}
	s->open = 1;
	return CD_OK;
}

static enum step
bzip2_enc(cd_stream *s, struct io *io, int end)
{
	bz_stream *b = s->cx;
	int r;

	bzip2_io(b, io);
	r = cd__bz2.BZ2_bzCompress(b, end ? BZ_FINISH : BZ_RUN);
	io->used = io->in_len - b->avail_in;
	io->made = io->out_len - b->avail_out;
	if (r < 0) {
		io->why = "sequence error";
		return STEP_BAD;
	}
	return r == BZ_STREAM_END ? STEP_END : STEP_OK;
}

static void
bzip2_free(cd_stream *s)
{
	if (s->cx == NULL)
		return;
	if (s->open) {
		if (s->writing)
			cd__bz2.BZ2_bzCompressEnd(s->cx);
		else
			cd__bz2.BZ2_bzDecompressEnd(s->cx);
	}
	free(s->cx);
}

static size_t
bzip2_memory(const cd_stream *s)
{
	return s->cx != NULL ? BZIP2_MEM : 0;
}

const struct codec cd__stream_bzip2 = {
	bzip2_dec_init, bzip2_begin, bzip2_dec, bzip2_enc_init, bzip2_enc,
	bzip2_free, bzip2_memory, 0
};
#endif
