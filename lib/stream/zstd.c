/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stream/zstd.c: zstd frames, read and written (see stream_int.h).
 */
#include "config.h"

#include <unistd.h>

#include "stream/stream_int.h"

#ifdef HAVE_ZSTD
/*
 * zstd: frames one after the other; ZSTD_decompressStream passes over
 * skippable frames itself.  A frame is open from its first byte read
 * until the decoder says it is complete and flushed (0).
 *
 * The decoder is given one block at a time (the size it asks for next,
 * five bytes at a frame's start): a call that fails gives none of what
 * it decoded and does not say how far it read, so each call ends at a
 * block's end and the blocks before damage are all given, the damage
 * found at the start of its block.
 */
static cd_status
zstd_dec_init(cd_stream *s)
{
	unsigned wlog = 10;

	if ((s->cx = cd__zstd.ZSTD_createDStream()) == NULL)
		return cd__stream_nomem(s);
	cd__zstd.ZSTD_initDStream(s->cx);
	/* (the window is checked against the limit at each frame's
	 * header; this is the library's own check, rounded up) */
	while (wlog < 31 && ((uint64_t)1 << wlog) < s->memlimit)
		wlog++;
	cd__zstd.ZSTD_DCtx_setParameter(s->cx, ZSTD_d_windowLogMax, (int)wlog);
	return CD_OK;
}

/* The window of the zstd frame whose header begins p (n bytes of it);
 * 0 when that is not known from them (a skippable frame too). */
static uint64_t
zstd_window(const uint8_t *p, size_t n)
{
	static const unsigned dict_len[4] = { 0, 1, 2, 4 };
	static const unsigned fcs_len[4] = { 0, 2, 4, 8 };
	unsigned fhd, at, k;
	uint64_t v = 0;

	if (n < 6 || p[0] != 0x28 || p[1] != 0xb5 || p[2] != 0x2f ||
	    p[3] != 0xfd)
		return 0;
	fhd = p[4];
	if (!(fhd & 0x20)) {
		/* a window descriptor: exponent and eighths */
		v = (uint64_t)1 << (10 + (p[5] >> 3));
		return v + v / 8 * (p[5] & 7);
	}
	/* a single segment: the window is the content size */
	k = fhd >> 6 == 0 ? 1 : fcs_len[fhd >> 6];
	at = 5 + dict_len[fhd & 3];
	if (n < at + k)
		return 0;
	while (k-- > 0)
		v = v << 8 | p[at + k];
	return v + ((fhd >> 6) == 1 ? 256 : 0);
}

static enum step
zstd_dec(cd_stream *s, struct io *io)
{
	ZSTD_inBuffer ib = { io->in, io->in_len, 0 };
	ZSTD_outBuffer ob = { io->out, io->out_len, 0 };
	size_t r;

	if (!s->open) {
		s->zhint = 5;	/* a frame's first bytes */
		io->need = zstd_window(io->in, io->in_len);
		if (io->need > s->memlimit)
			return STEP_LIMIT;
	}
	if (ib.size > s->zhint)
		ib.size = s->zhint;
	r = cd__zstd.ZSTD_decompressStream(s->cx, &ob, &ib);
	io->used = ib.pos;
	io->made = ob.pos;
	if (cd__zstd.ZSTD_isError(r)) {
		switch (cd__zstd.ZSTD_getErrorCode(r)) {
		case ZSTD_error_memory_allocation:
			return STEP_NOMEM;
		case ZSTD_error_frameParameter_windowTooLarge:
			io->need = 0;
			return STEP_LIMIT;
		default:
			io->why = cd__zstd.ZSTD_getErrorName(r);
			return STEP_BAD;
		}
	}
	/* (0 at a frame's end; a flush of what is decoded may ask for
	 * none: a block at most) */
	s->zhint = r > 0 ? r : ((size_t)128 << 10) + 3;
	return r == 0 ? STEP_END : STEP_OK;
}

static int
enc_workers(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 16 ? 16 : (int)n;
}

static cd_status
zstd_enc_init(cd_stream *s)
{
	if ((s->cx = cd__zstd.ZSTD_createCCtx()) == NULL)
		return CD_ERR_NOMEM;
	cd__zstd.ZSTD_CCtx_setParameter(s->cx, ZSTD_c_compressionLevel,
	    s->level);
	/* a checksum, as the zstd program writes: damage is found */
	cd__zstd.ZSTD_CCtx_setParameter(s->cx, ZSTD_c_checksumFlag, 1);
	/* compress on threads of zstd's own where it has them: one per
	 * CPU, at most 16 (one at levels 20 to 22, whose jobs are of
	 * hundreds of MiB each); the output is the same bytes whatever
	 * their number (zstd makes it so for one and more) */
	cd__zstd.ZSTD_CCtx_setParameter(s->cx, ZSTD_c_nbWorkers,
	    s->level >= 20 ? 1 : enc_workers());
	return CD_OK;
}

static enum step
zstd_enc(cd_stream *s, struct io *io, int end)
{
	ZSTD_inBuffer ib = { io->in, io->in_len, 0 };
	ZSTD_outBuffer ob = { io->out, io->out_len, 0 };
	size_t r = cd__zstd.ZSTD_compressStream2(s->cx, &ob, &ib,
	    end ? ZSTD_e_end : ZSTD_e_continue);

	io->used = ib.pos;
	io->made = ob.pos;
	if (cd__zstd.ZSTD_isError(r)) {
		io->why = cd__zstd.ZSTD_getErrorName(r);
		return STEP_BAD;
	}
	return r == 0 ? STEP_END : STEP_OK;
}

static void
zstd_free(cd_stream *s)
{
	if (s->cx == NULL)
		return;
	if (s->writing)
		cd__zstd.ZSTD_freeCCtx(s->cx);
	else
		cd__zstd.ZSTD_freeDStream(s->cx);
}

static size_t
zstd_memory(const cd_stream *s)
{
	return s->cx != NULL ? cd__zstd.ZSTD_sizeof_DStream(s->cx) : 0;
}

const struct codec cd__stream_zstd = {
	zstd_dec_init, NULL, zstd_dec, zstd_enc_init, zstd_enc, zstd_free,
	zstd_memory, 0
};
#endif
