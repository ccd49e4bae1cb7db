/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stream_int.h: the parts of a cd_stream shared by the stream's files
 * (see chessdata/stream.h):
 *
 *	stream/formats.c	formats: names, magic bytes, loading the libraries
 *	stream.c	reading: opening, the decoding loop, errors
 *	stream/thread.c	the decompressing thread and its ring of blocks
 *	stream/frames.c	zstd frames decoded on several threads
 *	stream/write.c	writing: the encoding loop
 *	stream/file.c	a stream as a stdio FILE
 *	stream/zstd.c, stream/gzip.c, stream/bzip2.c, stream/xz.c
 *			each format's library calls (a struct codec)
 *	stream/zip.c	.zip archives through libarchive (a decoder of
 *			its own: libarchive pulls its input)
 */
#ifndef CHESSDATA_STREAM_INT_H
#define CHESSDATA_STREAM_INT_H

#include <pthread.h>
#include <string.h>

#include "common/internal.h"

#define IN_CAP		((size_t)256 << 10)	/* compressed input buffer */
#define OUT_CAP		((size_t)128 << 10)	/* compressed output buffer */
#define BLOCK		((size_t)256 << 10)	/* decompressed block (read
						 * while in the caches) */
#define RING		4
#define HEAD		6	/* bytes that decide every format */
#define SNIFF		((size_t)4 << 10)	/* the most read to know
						 * it (a tar header's 512
						 * among them) */
#define HEADER_MAX	18	/* a zstd frame header's most */

struct block {
	char *data;
	size_t len;
	cd_status st;		/* how the decoder ended the block: CD_OK
				 * (more follows), CD_EOF or an error */
	uint64_t in_end;	/* compressed bytes consumed by then */
	size_t cap;		/* stream/frames.c: the bytes at data */
};

/* An error and, for CD_ERR_IO, the errno behind it. */
struct serr {
	cd_error e;
	int sys_errno;
};

struct cd_stream {
	int writing;
	int fd;			/* -1 for memory */
	cd_stream_format fmt;
	struct serr err;	/* what the caller has been told */
	cd_error warn;		/* input read past, with a warning */
	uint64_t memlimit;	/* the most a decoder may take */
	cd_status st;		/* sticky end: CD_OK, CD_EOF or an error */
	cd_status pending;	/* the end the decoder gave with bytes */
	uint64_t out_total;	/* decompressed bytes given (or, writing,
				 * taken) */

	/* Compressed input: in[in_pos..in_len) unread; in_off is the input
	 * offset of in[0]. */
	uint8_t *in;
	int own_in;
	size_t in_pos, in_len, in_cap;
	int in_eof;
	uint64_t in_off;

	/* The decoder (or encoder). */
	cd_status (*decode)(cd_stream *s, uint8_t *out, size_t cap,
	    size_t *n);
	const struct codec *codec;	/* NULL for plain */
	struct serr derr;	/* the decoder's error */
	int open;		/* a frame, member or stream is begun */
	int ended;		/* the decoder has given its end */
	void *cx;		/* the codec's state: ZSTD_DStream or
				 * ZSTD_CCtx, z_stream, bz_stream,
				 * lzma_stream; zip: stream/zip.c's */
	size_t zhint;		/* zstd: the input its next block needs */
	uint64_t zeros;		/* zero bytes after the data */

	/* cd_stream_on_member */
	void (*on_member)(void *ctx, const char *name, unsigned long line);
	void *member_ctx;

	/* The decompressing thread and its ring. */
	int want_thread;	/* CD_STREAM_THREAD: start it at the first
				 * read, with want_thread - 1 workers */
	int threaded;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct block ring[RING];
	unsigned head, count;	/* next block to read; blocks filled */
	size_t cur;		/* bytes of ring[head] already given */
	int quit;
	uint64_t in_told;	/* compressed bytes behind the blocks read */
	struct frames *fr;	/* zstd frames decoded on several threads */

	/* Writing. */
	uint8_t *out;
	int level;
	int finished;
};

/*
 * One call of a codec: in[0..in_len) offered, out[0..out_len) free.  The
 * codec says how much it used and made and, when the data is bad, why.
 */
struct io {
	const uint8_t *in;
	size_t in_len;
	uint8_t *out;
	size_t out_len;
	size_t used, made;
	const char *why;
	uint64_t need;		/* STEP_LIMIT: the memory asked for */
};

enum step {
	STEP_OK,	/* more may follow */
	STEP_END,	/* a frame, member or stream is complete (writing:
			 * the data is) */
	STEP_DONE,	/* reading: the data is complete, nothing follows */
	STEP_TRUNC,	/* reading: the data ends inside a stream */
	STEP_BAD,	/* damage (writing: the library failed); see why */
	STEP_NOMEM,
	STEP_LIMIT	/* reading: more memory than the limit; see need */
};

/*
 * A format: only its library calls.  The decoding loop (stream.c) and
 * the encoding loop (stream/write.c) run around them for every format
 * alike.
 */
struct codec {
	cd_status (*dec_init)(cd_stream *s);
	/* a new frame, member or stream when one is needed and input
	 * remains; NULL when the library goes on to the next itself */
	cd_status (*begin)(cd_stream *s);
	enum step (*dec_step)(cd_stream *s, struct io *io);
	cd_status (*enc_init)(cd_stream *s);
	enum step (*enc_step)(cd_stream *s, struct io *io, int end);
	/* free s->cx (NULL or not) */
	void (*free)(cd_stream *s);
	/* the memory a decoder holds */
	size_t (*memory)(const cd_stream *s);
	/* writing: call again while the output buffer comes back full */
	int drain;
};

extern const struct codec cd__stream_zstd, cd__stream_gzip,
    cd__stream_bzip2, cd__stream_xz;

/*
 * The libraries' functions, called through tables filled when a format
 * is first used (stream/formats.c): cd__zstd.ZSTD_decompressStream, ...
 */
#define CD__API_FIELD(api, f)	__typeof__(&f) f;
#ifdef HAVE_ZSTD
#include <zstd.h>
#include <zstd_errors.h>
#define CD__ZSTD_FNS(X, a)	X(a, ZSTD_createDStream) \
	X(a, ZSTD_initDStream) \
	X(a, ZSTD_decompressStream) X(a, ZSTD_freeDStream) \
	X(a, ZSTD_createCCtx) X(a, ZSTD_CCtx_setParameter) \
	X(a, ZSTD_compressStream2) X(a, ZSTD_freeCCtx) \
	X(a, ZSTD_isError) X(a, ZSTD_getErrorName) X(a, ZSTD_maxCLevel) \
	X(a, ZSTD_getErrorCode) X(a, ZSTD_DCtx_setParameter) \
	X(a, ZSTD_sizeof_DStream) X(a, ZSTD_decompressDCtx) \
	X(a, ZSTD_getFrameContentSize)
extern struct cd__zstd_api { CD__ZSTD_FNS(CD__API_FIELD, x) } cd__zstd;
#endif
#ifdef HAVE_ZLIB
#include <zlib.h>
#define CD__ZLIB_FNS(X, a)	X(a, inflateInit2_) X(a, inflateReset) \
	X(a, inflate) X(a, inflateEnd) X(a, deflateInit2_) X(a, deflate) \
	X(a, deflateEnd)
extern struct cd__zlib_api { CD__ZLIB_FNS(CD__API_FIELD, x) } cd__zlib;
#endif
#ifdef HAVE_BZLIB
#include <bzlib.h>
#define CD__BZ2_FNS(X, a)	X(a, BZ2_bzDecompressInit) \
	X(a, BZ2_bzDecompress) \
	X(a, BZ2_bzDecompressEnd) X(a, BZ2_bzCompressInit) \
	X(a, BZ2_bzCompress) X(a, BZ2_bzCompressEnd)
extern struct cd__bz2_api { CD__BZ2_FNS(CD__API_FIELD, x) } cd__bz2;
#endif
#ifdef HAVE_LZMA
#include <lzma.h>
#define CD__LZMA_FNS(X, a)	X(a, lzma_stream_decoder) \
	X(a, lzma_easy_encoder) \
	X(a, lzma_code) X(a, lzma_end) X(a, lzma_memusage)
extern struct cd__xz_api { CD__LZMA_FNS(CD__API_FIELD, x) } cd__xz;
#endif

#ifdef HAVE_LIBARCHIVE
#include <archive.h>
#include <archive_entry.h>
#define CD__ARCHIVE_FNS(X, a)	X(a, archive_read_new) \
	X(a, archive_read_support_format_zip_streamable) \
	X(a, archive_read_open) X(a, archive_read_next_header) \
	X(a, archive_read_data_block) X(a, archive_read_free) \
	X(a, archive_error_string) X(a, archive_entry_pathname) \
	X(a, archive_entry_pathname_utf8) X(a, archive_entry_filetype) \
	X(a, archive_entry_is_encrypted) X(a, archive_entry_size_is_set) \
	X(a, archive_entry_size)
extern struct cd__archive_api { CD__ARCHIVE_FNS(CD__API_FIELD, x) }
    cd__archive;
#endif

/* stream/zip.c: a .zip archive's decoder (s->cx), its memory, freed */
cd_status cd__stream_zip_init(cd_stream *s);
size_t cd__stream_zip_memory(const cd_stream *s);
void cd__stream_zip_free(cd_stream *s);

/* stream/formats.c */
bool cd__stream_lib_ready(cd_stream_format f, const char **why);
/* stream.c */
const struct codec *cd__stream_codec(cd_stream_format f, const char **why);

/* stream.c: a stream, its buffers not yet allocated */
cd_stream *cd__stream_alloc(uint64_t memlimit);
/* stream/base.c: errors, kept in e (the decoder's: s->derr), and the
 * refill of the input buffer */
cd_status cd__serr_set(struct serr *e, cd_status st, uint64_t off,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
cd_status cd__stream_corrupt(cd_stream *s, const char *what);
cd_status cd__stream_truncated(cd_stream *s);
cd_status cd__stream_nomem(cd_stream *s);
cd_status cd__stream_over_limit(cd_stream *s, uint64_t need);
cd_status cd__stream_read_in(cd_stream *s);

/* The decoder's position in the compressed input. */
static inline uint64_t
cd__stream_in_at(const cd_stream *s)
{
	return s->in_off + s->in_pos;
}

/*
 * What the threads need of stream.c, given to them at start, so that
 * the calls go one way (stream.c calls stream/thread.c, which calls
 * stream/frames.c; neither calls back up): a stream decoding the frames
 * at buf (len bytes, the whole of them), found at offset base of the
 * input, for a worker of stream/frames.c; and its end.
 */
struct part_ops {
	cd_stream *(*open)(const void *buf, size_t len, uint64_t base,
	    cd_stream_format f, uint64_t memlimit);
	void (*free)(cd_stream *s);
};

/* stream/frames.c: zstd frames on several threads */
bool cd__stream_frames_start(cd_stream *s, unsigned workers,
    const struct part_ops *parts);
cd_status cd__stream_frames_read(cd_stream *s, void *buf, size_t cap,
    size_t *n, const struct serr **err);
void cd__stream_frames_stop(cd_stream *s);
size_t cd__stream_frames_memory(const cd_stream *s);

/* stream/thread.c; the read's end comes with its error in *err (an
 * error the threads gave with their last block, not s->derr, which
 * may still be theirs) */
void cd__stream_thread_start(cd_stream *s, unsigned workers,
    const struct part_ops *parts);
cd_status cd__stream_thread_read(cd_stream *s, void *buf, size_t cap,
    size_t *n, const struct serr **err);
void cd__stream_thread_stop(cd_stream *s);

/* Up to cap of the bytes of block b not yet given (s->cur of them
 * are) into buf; false when none is left (stream/thread.c's ring and
 * stream/frames.c's jobs alike). */
static inline bool
cd__stream_block_take(cd_stream *s, const struct block *b, void *buf,
    size_t cap, size_t *n)
{
	size_t m;

	if (s->cur >= b->len)
		return false;
	m = b->len - s->cur;
	if (m > cap)
		m = cap;
	memcpy(buf, b->data + s->cur, m);
	s->cur += m;
	*n = m;
	return true;
}

#endif
