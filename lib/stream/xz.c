/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stream/xz.c: xz streams, read and written (see stream_int.h).
 */
#include "config.h"

#include <stdlib.h>

#include "stream/stream_int.h"

#ifdef HAVE_LZMA
static const char *
lzma_msg(lzma_ret r)
{
	switch (r) {
	case LZMA_FORMAT_ERROR:
		return "not xz data";
	case LZMA_OPTIONS_ERROR:
		return "unsupported options";
	case LZMA_DATA_ERROR:
		return "bad data";
	case LZMA_UNSUPPORTED_CHECK:
		return "unsupported integrity check";
	default:
		return "decoder error";
	}
}

/* xz: liblzma reads concatenated streams and their padding itself. */
static cd_status
xz_dec_init(cd_stream *s)
{
	lzma_stream init = LZMA_STREAM_INIT, *x;

	if ((s->cx = x = malloc(sizeof(*x))) == NULL)
		return cd__stream_nomem(s);
	*x = init;
	if (cd__xz.lzma_stream_decoder(x, s->memlimit, LZMA_CONCATENATED) !=
	    LZMA_OK)
		return cd__stream_nomem(s);
	return CD_OK;
}

static void
xz_io(lzma_stream *x, const struct io *io)
{
	x->next_in = io->in;
	x->avail_in = io->in_len;
	x->next_out = io->out;
	x->avail_out = io->out_len;
}

static enum step
xz_dec(cd_stream *s, struct io *io)
{
	lzma_stream *x = s->cx;
	lzma_ret r;

	xz_io(x, io);
	/* told the input ends, liblzma ends cleanly or makes no progress */
	r = cd__xz.lzma_code(x, s->in_eof ? LZMA_FINISH : LZMA_RUN);
	io->used = io->in_len - x->avail_in;
	io->made = io->out_len - x->avail_out;
	if (r == LZMA_STREAM_END)
		return STEP_DONE;
	if (r == LZMA_MEM_ERROR)
		return STEP_NOMEM;
	if (r == LZMA_MEMLIMIT_ERROR) {
		io->need = cd__xz.lzma_memusage(x);
		return STEP_LIMIT;
	}
	if (r == LZMA_BUF_ERROR || (r == LZMA_OK && io->used == 0 &&
	    io->made == 0 && s->in_eof))
		return STEP_TRUNC;
	if (r != LZMA_OK) {
		io->why = lzma_msg(r);
		return STEP_BAD;
	}
	return STEP_OK;
}

static cd_status
xz_enc_init(cd_stream *s)
{
	lzma_stream init = LZMA_STREAM_INIT, *x;

	if ((s->cx = x = malloc(sizeof(*x))) == NULL)
		return CD_ERR_NOMEM;
	*x = init;
	if (cd__xz.lzma_easy_encoder(x, (uint32_t)s->level,
	    LZMA_CHECK_CRC64) != LZMA_OK)
		return CD_ERR_NOMEM;
	return CD_OK;
}

static enum step
xz_enc(cd_stream *s, struct io *io, int end)
{
	lzma_stream *x = s->cx;
	lzma_ret r;

	xz_io(x, io);
	r = cd__xz.lzma_code(x, end ? LZMA_FINISH : LZMA_RUN);
	io->used = io->in_len - x->avail_in;
	io->made = io->out_len - x->avail_out;
	if (r == LZMA_STREAM_END)
		return STEP_END;
	if (r == LZMA_MEM_ERROR)
		return STEP_NOMEM;
	if (r != LZMA_OK) {
		io->why = "error";
		return STEP_BAD;
	}
	return STEP_OK;
}

static void
xz_free(cd_stream *s)
{
	if (s->cx == NULL)
		return;
	cd__xz.lzma_end(s->cx);
	free(s->cx);
}

static size_t
xz_memory(const cd_stream *s)
{
	return s->cx != NULL ? (size_t)cd__xz.lzma_memusage(s->cx) : 0;
}

const struct codec cd__stream_xz = {
	xz_dec_init, NULL, xz_dec, xz_enc_init, xz_enc, xz_free, xz_memory, 1
};
#endif
