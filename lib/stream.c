/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stream.c: plain and compressed input and output (see
 * chessdata/stream.h).
 *
 * Reading: the first bytes of the input name its format.  A decoder per
 * format pulls compressed bytes from the stream's input buffer (refilled
 * with read(2), or a caller's memory) and fills an output buffer; at the
 * end of the input it tells a clean end (every frame, member or stream
 * complete) from a truncated one.  With CD_STREAM_THREAD a thread of the
 * stream's own runs the decoder into a ring of RING blocks of BLOCK
 * bytes, each carrying how the decoder ended it, and cd_stream_read
 * copies out of them: the decoder runs on one core while the reader's
 * caller parses on the other.  Plain input is never threaded: it is read
 * with read(2) straight into the caller's buffer.
 *
 * Writing: the bytes given are compressed into an output buffer that is
 * written to the descriptor whenever it fills.
 */
#define _GNU_SOURCE 1	/* fopencookie */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#ifdef HAVE_ZSTD
#include <zstd.h>
#include <zstd_errors.h>
#endif
#ifdef HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef HAVE_BZLIB
#include <bzlib.h>
#endif
#ifdef HAVE_LZMA
#include <lzma.h>
#endif

#include "internal.h"

#define IN_CAP		((size_t)256 << 10)	/* compressed input buffer */
#define OUT_CAP		((size_t)128 << 10)	/* compressed output buffer */
#define BLOCK		((size_t)1 << 20)	/* decompressed block (thread) */
#define RING		4
#define HEAD		6	/* bytes that decide every format */
#define HEADER_MAX	18	/* a zstd frame header's most */
/* What zlib's inflate and libbz2's decompressor take (a 32 KiB window
 * and tables; 100 KiB and four bytes per byte of a 900 KB block). */
#define GZIP_MEM	((size_t)48 << 10)
#define BZIP2_MEM	((size_t)3700 << 10)

struct block {
	char *data;
	size_t len;
	cd_status st;		/* how the decoder ended the block: CD_OK
				 * (more follows), CD_EOF or an error */
	uint64_t in_end;	/* compressed bytes consumed by then */
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
	size_t in_pos, in_len;
	int in_eof;
	uint64_t in_off;

	/* The decoder (or encoder). */
	cd_status (*decode)(cd_stream *s, uint8_t *out, size_t cap,
	    size_t *n);
	const struct codec *codec;	/* NULL for plain */
	struct serr derr;	/* the decoder's error */
	int open;		/* a frame, member or stream is begun */
	int ended;		/* the decoder has given its end */
	void *zd;		/* ZSTD_DStream / ZSTD_CCtx */
	size_t zhint;		/* zstd: the input its next block needs */
	uint64_t zeros;		/* zero bytes after the data */
#ifdef HAVE_ZLIB
	z_stream *gz;
#endif
#ifdef HAVE_BZLIB
	bz_stream *bz;
#endif
#ifdef HAVE_LZMA
	lzma_stream *xz;
#endif

	/* The decompressing thread and its ring. */
	int threaded;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct block ring[RING];
	unsigned head, count;	/* next block to read; blocks filled */
	size_t cur;		/* bytes of ring[head] already given */
	int quit;
	uint64_t in_told;	/* compressed bytes behind the blocks read */

	/* Writing. */
	uint8_t *out;
	int level;
	int finished;
};

/* ---- the compression libraries ---- */

/*
 * Each compression library is loaded (dlopen) when a stream of its
 * format is first opened, not when the program starts: a program that
 * reads plain PGN maps none of the four (a millisecond less at every
 * start, which tells when a tool runs once per small file).  A
 * library's functions are called through a table of its own, filled by
 * dlsym from the list below (zstd.ZSTD_decompressStream, ...).
 */
#define API_FIELD(api, f)	__typeof__(&f) f;
#define API_LOAD(api, f)	if (!sym(h, #f, &api.f, sizeof(api.f))) \
					return false;

/* Fill the function pointer at dst (size bytes) with the symbol name of
 * library h. */
static bool
sym(void *h, const char *name, void *dst, size_t size)
{
	void *p = dlsym(h, name);

	if (p == NULL || size != sizeof(p))
		return false;
	memcpy(dst, &p, size);
	return true;
}

#ifdef HAVE_ZSTD
#define ZSTD_FNS(X, a)	X(a, ZSTD_createDStream) X(a, ZSTD_initDStream) \
	X(a, ZSTD_decompressStream) X(a, ZSTD_freeDStream) \
	X(a, ZSTD_createCCtx) X(a, ZSTD_CCtx_setParameter) \
	X(a, ZSTD_compressStream2) X(a, ZSTD_freeCCtx) \
	X(a, ZSTD_isError) X(a, ZSTD_getErrorName) X(a, ZSTD_maxCLevel) \
	X(a, ZSTD_getErrorCode) X(a, ZSTD_DCtx_setParameter) \
	X(a, ZSTD_sizeof_DStream)
static struct { ZSTD_FNS(API_FIELD, zstd) } zstd;
static bool zstd_load(void *h) { ZSTD_FNS(API_LOAD, zstd) return true; }
#endif
#ifdef HAVE_ZLIB
#define ZLIB_FNS(X, a)	X(a, inflateInit2_) X(a, inflateReset) \
	X(a, inflate) X(a, inflateEnd) X(a, deflateInit2_) X(a, deflate) \
	X(a, deflateEnd)
static struct { ZLIB_FNS(API_FIELD, zlib) } zlib;
static bool zlib_load(void *h) { ZLIB_FNS(API_LOAD, zlib) return true; }
#endif
#ifdef HAVE_BZLIB
#define BZ2_FNS(X, a)	X(a, BZ2_bzDecompressInit) X(a, BZ2_bzDecompress) \
	X(a, BZ2_bzDecompressEnd) X(a, BZ2_bzCompressInit) \
	X(a, BZ2_bzCompress) X(a, BZ2_bzCompressEnd)
static struct { BZ2_FNS(API_FIELD, bz2) } bz2;
static bool bz2_load(void *h) { BZ2_FNS(API_LOAD, bz2) return true; }
#endif
#ifdef HAVE_LZMA
#define LZMA_FNS(X, a)	X(a, lzma_stream_decoder) X(a, lzma_easy_encoder) \
	X(a, lzma_code) X(a, lzma_end) X(a, lzma_memusage)
static struct { LZMA_FNS(API_FIELD, xz) } xz;
static bool xz_load(void *h) { LZMA_FNS(API_LOAD, xz) return true; }
#endif

/* A library: the names it goes by (its sonames, tried in turn), the
 * table it fills, and how its loading went. */
struct lib {
	const char *names[3];
	bool (*load)(void *h);
	bool tried, ok;
	char why[160];		/* when it could not be loaded */
};

static struct lib libs[] = {
	[CD_STREAM_ZSTD] = { { "libzstd.so.1" },
#ifdef HAVE_ZSTD
	    zstd_load,
#endif
	},
	[CD_STREAM_GZIP] = { { "libz.so.1" },
#ifdef HAVE_ZLIB
	    zlib_load,
#endif
	},
	[CD_STREAM_BZIP2] = { { "libbz2.so.1.0", "libbz2.so.1" },
#ifdef HAVE_BZLIB
	    bz2_load,
#endif
	},
	[CD_STREAM_XZ] = { { "liblzma.so.5" },
#ifdef HAVE_LZMA
	    xz_load,
#endif
	},
};
static pthread_mutex_t libs_lock = PTHREAD_MUTEX_INITIALIZER;

/* Whether the library of compressed format f is loaded (the first call
 * loads it); if not (the build has none for it, or it cannot be
 * loaded), why, for a message, in *why when not NULL. */
static bool
lib_ready(cd_stream_format f, const char **why)
{
	struct lib *l;
	const char *e;
	void *h = NULL;
	size_t i;

	if (f <= CD_STREAM_PLAIN || f > CD_STREAM_XZ)
		return false;
	l = &libs[f];
	pthread_mutex_lock(&libs_lock);
	if (!l->tried) {
		l->tried = true;
		for (i = 0; i < 3 && l->load != NULL && l->names[i] != NULL &&
		    h == NULL; i++)
			h = dlopen(l->names[i], RTLD_NOW | RTLD_LOCAL);
		if (l->load == NULL)
			snprintf(l->why, sizeof(l->why), "this build has no "
			    "%s", cd_stream_format_library(f));
		else if (h == NULL)
			snprintf(l->why, sizeof(l->why), "%s",
			    (e = dlerror()) != NULL ? e : "cannot be loaded");
		else if (!(l->ok = l->load(h)))
			snprintf(l->why, sizeof(l->why), "%s lacks a "
			    "function this build calls", l->names[0]);
	}
	pthread_mutex_unlock(&libs_lock);
	if (!l->ok && why != NULL)
		*why = l->why;
	return l->ok;
}

/* ---- formats ---- */

static const char *const format_names[] = {
	"plain", "zstd", "gzip", "bzip2", "xz"
};

const char *
cd_stream_format_name(cd_stream_format f)
{
	return (unsigned)f < 5 ? format_names[f] : "unknown";
}

int
cd_stream_format_parse(const char *name)
{
	static const struct { const char *name; cd_stream_format f; } t[] = {
		{ "zstd", CD_STREAM_ZSTD }, { "zst", CD_STREAM_ZSTD },
		{ "gzip", CD_STREAM_GZIP }, { "gz", CD_STREAM_GZIP },
		{ "bzip2", CD_STREAM_BZIP2 }, { "bz2", CD_STREAM_BZIP2 },
		{ "xz", CD_STREAM_XZ },
		{ "plain", CD_STREAM_PLAIN }, { "none", CD_STREAM_PLAIN }
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strcmp(name, t[i].name) == 0)
			return (int)t[i].f;
	return -1;
}

cd_stream_format
cd_stream_format_suffix(const char *path)
{
	static const struct { const char *sfx; cd_stream_format f; } t[] = {
		{ ".zst", CD_STREAM_ZSTD }, { ".zstd", CD_STREAM_ZSTD },
		{ ".gz", CD_STREAM_GZIP }, { ".bz2", CD_STREAM_BZIP2 },
		{ ".xz", CD_STREAM_XZ }
	};
	size_t i, n = strlen(path);

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		size_t k = strlen(t[i].sfx);

		if (n > k && strcasecmp(path + n - k, t[i].sfx) == 0)
			return t[i].f;
	}
	return CD_STREAM_PLAIN;
}

cd_stream_format
cd_stream_detect(const void *buf, size_t len)
{
	const uint8_t *p = buf;

	/* zstd frame 28 B5 2F FD, or a skippable frame 5? 2A 4D 18 */
	if (len >= 4 && ((p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f &&
	    p[3] == 0xfd) || ((p[0] & 0xf0) == 0x50 && p[1] == 0x2a &&
	    p[2] == 0x4d && p[3] == 0x18)))
		return CD_STREAM_ZSTD;
	/* gzip 1F 8B, method 8 (deflate) */
	if (len >= 3 && p[0] == 0x1f && p[1] == 0x8b && p[2] == 8)
		return CD_STREAM_GZIP;
	/* bzip2 "BZh" and a block size digit */
	if (len >= 4 && p[0] == 'B' && p[1] == 'Z' && p[2] == 'h' &&
	    p[3] >= '1' && p[3] <= '9')
		return CD_STREAM_BZIP2;
	/* xz FD "7zXZ" 00 */
	if (len >= 6 && memcmp(p, "\xfd" "7zXZ" "\0", 6) == 0)
		return CD_STREAM_XZ;
	return CD_STREAM_PLAIN;
}

bool
cd_stream_format_supported(cd_stream_format f)
{
	return f == CD_STREAM_PLAIN || lib_ready(f, NULL);
}

const char *
cd_stream_format_library(cd_stream_format f)
{
	static const char *const lib[] = {
		"", "libzstd", "zlib", "libbz2", "liblzma"
	};

	return (unsigned)f < 5 ? lib[f] : "";
}

void
cd_stream_levels(cd_stream_format f, int *min, int *max, int *dflt)
{
	int lo = 0, hi = 0, d = 0;

	switch (f) {
	case CD_STREAM_ZSTD:
		lo = 1;
		hi = 19;
#ifdef HAVE_ZSTD
		if (lib_ready(f, NULL))
			hi = zstd.ZSTD_maxCLevel();
#endif
		d = 3;
		break;
	case CD_STREAM_GZIP:
		lo = 1, hi = 9, d = 6;
		break;
	case CD_STREAM_BZIP2:
		lo = 1, hi = 9, d = 9;
		break;
	case CD_STREAM_XZ:
		lo = 0, hi = 9, d = 6;
		break;
	default:
		break;
	}
	if (min != NULL)
		*min = lo;
	if (max != NULL)
		*max = hi;
	if (dflt != NULL)
		*dflt = d;
}

/* ---- errors ---- */

static cd_status
set_err(struct serr *e, cd_status st, uint64_t off, const char *fmt,
    ...) __attribute__((format(printf, 4, 5)));

static cd_status
set_err(struct serr *e, cd_status st, uint64_t off, const char *fmt,
    ...)
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

/* The decoder's position in the compressed input. */
static uint64_t
in_at(const cd_stream *s)
{
	return s->in_off + s->in_pos;
}

static cd_status
corrupt(cd_stream *s, const char *what)
{
	return set_err(&s->derr, CD_ERR_CORRUPT, in_at(s),
	    "corrupt %s input at byte %llu of the compressed data: %s",
	    cd_stream_format_name(s->fmt), (unsigned long long)in_at(s),
	    what);
}

static cd_status
truncated(cd_stream *s)
{
	return set_err(&s->derr, CD_ERR_CORRUPT, in_at(s),
	    "truncated %s input: it ends inside compressed data at byte %llu",
	    cd_stream_format_name(s->fmt), (unsigned long long)in_at(s));
}

static cd_status
nomem(cd_stream *s)
{
	return set_err(&s->derr, CD_ERR_NOMEM, in_at(s), "out of memory");
}

/* The input needs need bytes for its decoder (0: more than the limit,
 * how much more unknown). */
static cd_status
over_limit(cd_stream *s, uint64_t need)
{
	const char *f = cd_stream_format_name(s->fmt);
	unsigned long long lim = (unsigned long long)(s->memlimit >> 20);

	if (need == 0)
		return set_err(&s->derr, CD_ERR_RANGE, in_at(s), "%s "
		    "compressed input needs more memory than the limit of "
		    "%llu MiB", f, lim);
	return set_err(&s->derr, CD_ERR_RANGE, in_at(s), "%s compressed "
	    "input needs %llu MiB of memory, more than the limit of %llu MiB",
	    f, (unsigned long long)((need + (1 << 20) - 1) >> 20), lim);
}

/* ---- compressed input ---- */

/* More compressed input after what is unread (which moves down). */
static cd_status
read_in(cd_stream *s)
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
		/* a stopped stream's thread may end here, in read(2) */
		if (s->threaded)
			pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
		k = read(s->fd, s->in + s->in_len, IN_CAP - s->in_len);
		if (s->threaded)
			pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
		if (k < 0 && errno == EINTR)
			continue;
		break;
	}
	if (k < 0) {
		int e = errno;

		set_err(&s->derr, CD_ERR_IO, in_at(s) + s->in_len,
		    "read error: %s", strerror(e));
		s->derr.sys_errno = e;
		return CD_ERR_IO;
	}
	if (k == 0)
		s->in_eof = 1;
	s->in_len += (size_t)k;
	return CD_OK;
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

		set_err(&s->derr, CD_ERR_IO, in_at(s), "read error: %s",
		    strerror(e));
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

/* ---- the codecs ---- */

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
 * A format: only its library calls.  dec_codec() and encode() run the
 * loop around them for every format alike.
 */
struct codec {
	cd_status (*dec_init)(cd_stream *s);
	/* a new frame, member or stream when one is needed and input
	 * remains; NULL when the library goes on to the next itself */
	cd_status (*begin)(cd_stream *s);
	enum step (*dec_step)(cd_stream *s, struct io *io);
	cd_status (*enc_init)(cd_stream *s);
	enum step (*enc_step)(cd_stream *s, struct io *io, int end);
	/* writing: call again while the output buffer comes back full */
	int drain;
};

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

	if ((s->zd = zstd.ZSTD_createDStream()) == NULL)
		return nomem(s);
	zstd.ZSTD_initDStream(s->zd);
	/* (the window is checked against the limit at each frame's
	 * header; this is the library's own check, rounded up) */
	while (wlog < 31 && ((uint64_t)1 << wlog) < s->memlimit)
		wlog++;
	zstd.ZSTD_DCtx_setParameter(s->zd, ZSTD_d_windowLogMax, (int)wlog);
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
	r = zstd.ZSTD_decompressStream(s->zd, &ob, &ib);
	io->used = ib.pos;
	io->made = ob.pos;
	if (zstd.ZSTD_isError(r)) {
		switch (zstd.ZSTD_getErrorCode(r)) {
		case ZSTD_error_memory_allocation:
			return STEP_NOMEM;
		case ZSTD_error_frameParameter_windowTooLarge:
			io->need = 0;
			return STEP_LIMIT;
		default:
			io->why = zstd.ZSTD_getErrorName(r);
			return STEP_BAD;
		}
	}
	/* (0 at a frame's end; a flush of what is decoded may ask for
	 * none: a block at most) */
	s->zhint = r > 0 ? r : ((size_t)128 << 10) + 3;
	return r == 0 ? STEP_END : STEP_OK;
}

static cd_status
zstd_enc_init(cd_stream *s)
{
	if ((s->zd = zstd.ZSTD_createCCtx()) == NULL)
		return CD_ERR_NOMEM;
	zstd.ZSTD_CCtx_setParameter(s->zd, ZSTD_c_compressionLevel, s->level);
	/* a checksum, as the zstd program writes: damage is found */
	zstd.ZSTD_CCtx_setParameter(s->zd, ZSTD_c_checksumFlag, 1);
	/* compress on a thread of zstd's own where it has them */
	zstd.ZSTD_CCtx_setParameter(s->zd, ZSTD_c_nbWorkers, 1);
	return CD_OK;
}

static enum step
zstd_enc(cd_stream *s, struct io *io, int end)
{
	ZSTD_inBuffer ib = { io->in, io->in_len, 0 };
	ZSTD_outBuffer ob = { io->out, io->out_len, 0 };
	size_t r = zstd.ZSTD_compressStream2(s->zd, &ob, &ib,
	    end ? ZSTD_e_end : ZSTD_e_continue);

	io->used = ib.pos;
	io->made = ob.pos;
	if (zstd.ZSTD_isError(r)) {
		io->why = zstd.ZSTD_getErrorName(r);
		return STEP_BAD;
	}
	return r == 0 ? STEP_END : STEP_OK;
}

static const struct codec zstd_codec = {
	zstd_dec_init, NULL, zstd_dec, zstd_enc_init, zstd_enc, 0
};
#endif

#ifdef HAVE_ZLIB
/* gzip: members one after the other, each begun afresh. */
static cd_status
gzip_dec_init(cd_stream *s)
{
	if ((s->gz = calloc(1, sizeof(*s->gz))) == NULL)
		return nomem(s);
	if (zlib.inflateInit2_(s->gz, 15 + 16, ZLIB_VERSION,
	    (int)sizeof(z_stream)) != Z_OK) {
		free(s->gz);
		s->gz = NULL;
		return nomem(s);
	}
	return CD_OK;
}

static cd_status
gzip_begin(cd_stream *s)
{
	return zlib.inflateReset(s->gz) == Z_OK ? CD_OK : nomem(s);
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
	z_stream *z = s->gz;
	int r;

	gzip_io(z, io);
	r = zlib.inflate(z, Z_NO_FLUSH);
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
	if ((s->gz = calloc(1, sizeof(*s->gz))) == NULL)
		return CD_ERR_NOMEM;
	if (zlib.deflateInit2_(s->gz, s->level, Z_DEFLATED, 15 + 16, 8,
	    Z_DEFAULT_STRATEGY, ZLIB_VERSION, (int)sizeof(z_stream)) != Z_OK) {
		free(s->gz);
		s->gz = NULL;
		return CD_ERR_NOMEM;
	}
	return CD_OK;
}

static enum step
gzip_enc(cd_stream *s, struct io *io, int end)
{
	z_stream *z = s->gz;
	int r;

	gzip_io(z, io);
	r = zlib.deflate(z, end ? Z_FINISH : Z_NO_FLUSH);
	io->used = io->in_len - z->avail_in;
	io->made = io->out_len - z->avail_out;
	if (r == Z_STREAM_ERROR) {
		io->why = "stream error";
		return STEP_BAD;
	}
	return r == Z_STREAM_END ? STEP_END : STEP_OK;
}

static const struct codec gzip_codec = {
	gzip_dec_init, gzip_begin, gzip_dec, gzip_enc_init, gzip_enc, 1
};
#endif

#ifdef HAVE_BZLIB
/* bzip2: streams one after the other (pbzip2 writes several). */
static cd_status
bzip2_dec_init(cd_stream *s)
{
	if ((s->bz = calloc(1, sizeof(*s->bz))) == NULL)
		return nomem(s);
	return CD_OK;
}

static cd_status
bzip2_begin(cd_stream *s)
{
	memset(s->bz, 0, sizeof(*s->bz));
	return bz2.BZ2_bzDecompressInit(s->bz, 0, 0) == BZ_OK ? CD_OK :
	    nomem(s);
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
	bz_stream *b = s->bz;
	int r;

	bzip2_io(b, io);
	r = bz2.BZ2_bzDecompress(b);
	io->used = io->in_len - b->avail_in;
	io->made = io->out_len - b->avail_out;
	if (r == BZ_STREAM_END) {
		bz2.BZ2_bzDecompressEnd(b);
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
	if ((s->bz = calloc(1, sizeof(*s->bz))) == NULL)
		return CD_ERR_NOMEM;
	if (bz2.BZ2_bzCompressInit(s->bz, s->level, 0, 0) != BZ_OK) {
		free(s->bz);
		s->bz = NULL;
		return CD_ERR_NOMEM;
	}
	s->open = 1;
	return CD_OK;
}

static enum step
bzip2_enc(cd_stream *s, struct io *io, int end)
{
	bz_stream *b = s->bz;
	int r;

	bzip2_io(b, io);
	r = bz2.BZ2_bzCompress(b, end ? BZ_FINISH : BZ_RUN);
	io->used = io->in_len - b->avail_in;
	io->made = io->out_len - b->avail_out;
	if (r < 0) {
		io->why = "sequence error";
		return STEP_BAD;
	}
	return r == BZ_STREAM_END ? STEP_END : STEP_OK;
}

static const struct codec bzip2_codec = {
	bzip2_dec_init, bzip2_begin, bzip2_dec, bzip2_enc_init, bzip2_enc, 0
};
#endif

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
	lzma_stream init = LZMA_STREAM_INIT;

	if ((s->xz = malloc(sizeof(*s->xz))) == NULL)
		return nomem(s);
	*s->xz = init;
	if (xz.lzma_stream_decoder(s->xz, s->memlimit, LZMA_CONCATENATED) !=
	    LZMA_OK)
		return nomem(s);
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
	lzma_stream *x = s->xz;
	lzma_ret r;

	xz_io(x, io);
	/* told the input ends, liblzma ends cleanly or makes no progress */
	r = xz.lzma_code(x, s->in_eof ? LZMA_FINISH : LZMA_RUN);
	io->used = io->in_len - x->avail_in;
	io->made = io->out_len - x->avail_out;
	if (r == LZMA_STREAM_END)
		return STEP_DONE;
	if (r == LZMA_MEM_ERROR)
		return STEP_NOMEM;
	if (r == LZMA_MEMLIMIT_ERROR) {
		io->need = xz.lzma_memusage(x);
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
	lzma_stream init = LZMA_STREAM_INIT;

	if ((s->xz = malloc(sizeof(*s->xz))) == NULL)
		return CD_ERR_NOMEM;
	*s->xz = init;
	if (xz.lzma_easy_encoder(s->xz, (uint32_t)s->level, LZMA_CHECK_CRC64) !=
	    LZMA_OK)
		return CD_ERR_NOMEM;
	return CD_OK;
}

static enum step
xz_enc(cd_stream *s, struct io *io, int end)
{
	lzma_stream *x = s->xz;
	lzma_ret r;

	xz_io(x, io);
	r = xz.lzma_code(x, end ? LZMA_FINISH : LZMA_RUN);
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

static const struct codec xz_codec = {
	xz_dec_init, NULL, xz_dec, xz_enc_init, xz_enc, 1
};
#endif

/* The codec of compressed format f, its library loaded; else NULL,
 * and why in *why. */
static const struct codec *
codec_of(cd_stream_format f, const char **why)
{
	static const struct codec *const codecs[CD_STREAM_XZ + 1] = {
#ifdef HAVE_ZSTD
		[CD_STREAM_ZSTD] = &zstd_codec,
#endif
#ifdef HAVE_ZLIB
		[CD_STREAM_GZIP] = &gzip_codec,
#endif
#ifdef HAVE_BZLIB
		[CD_STREAM_BZIP2] = &bzip2_codec,
#endif
#ifdef HAVE_LZMA
		[CD_STREAM_XZ] = &xz_codec,
#endif
		[CD_STREAM_PLAIN] = NULL
	};

	return lib_ready(f, why) ? codecs[f] : NULL;
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
	uint64_t at = in_at(s);
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
		if ((st = read_in(s)) != CD_OK)
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
			if ((st = read_in(s)) != CD_OK)
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
				st = corrupt(s, s->fmt == CD_STREAM_GZIP ?
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
			st = r == STEP_TRUNC ? truncated(s) : r == STEP_BAD ?
			    corrupt(s, io.why) : r == STEP_NOMEM ? nomem(s) :
			    over_limit(s, io.need);
			break;
		}
		if (r == STEP_END)
			s->open = 0;
		else if (io.used > 0)
			s->open = 1;
		if (io.used == 0 && io.made == 0 && s->in_pos == s->in_len &&
		    s->in_eof) {
			st = s->open ? truncated(s) : CD_EOF;
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
		s->decode = dec_plain;
		return CD_OK;
	}
	if ((s->codec = codec_of(s->fmt, &why)) == NULL)
		return set_err(&s->derr, CD_ERR_UNSUPPORTED, 0,
		    "%s compressed input is not supported (%s)",
		    cd_stream_format_name(s->fmt), why);
	if ((st = s->codec->dec_init(s)) == CD_OK)
		s->decode = dec_codec;
	return st;
}

/* The decompressing thread: fill the free blocks of the ring until the
 * decoder ends (or the stream is freed). */
static void *
dec_thread(void *arg)
{
	cd_stream *s = arg;
	struct block *b;
	cd_status st;
	size_t n;

	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	do {
		pthread_mutex_lock(&s->mu);
		while (s->count == RING && !s->quit)
			pthread_cond_wait(&s->cv, &s->mu);
		if (s->quit) {
			pthread_mutex_unlock(&s->mu);
			break;
		}
		b = &s->ring[(s->head + s->count) % RING];
		pthread_mutex_unlock(&s->mu);
		n = 0;
		st = s->decode(s, (uint8_t *)b->data, BLOCK, &n);
		b->len = n;
		b->st = st;
		b->in_end = in_at(s);
		pthread_mutex_lock(&s->mu);
		s->count++;
		pthread_cond_broadcast(&s->cv);
		pthread_mutex_unlock(&s->mu);
	} while (st == CD_OK);
	return NULL;
}

static cd_stream *
stream_alloc(uint64_t memlimit)
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
	unsigned i;

	while (s->fd >= 0 && s->in_len < HEAD && !s->in_eof)
		if (read_in(s) != CD_OK) {
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
	if (!(flags & CD_STREAM_THREAD) || s->fmt == CD_STREAM_PLAIN)
		return;
	for (i = 0; i < RING; i++)
		if ((s->ring[i].data = malloc(BLOCK)) == NULL)
			goto unthreaded;
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
	s->threaded = 1;
	if (pthread_create(&s->thread, NULL, dec_thread, s) == 0)
		return;
	s->threaded = 0;
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->cv);
unthreaded:
	for (i = 0; i < RING; i++) {
		free(s->ring[i].data);
		s->ring[i].data = NULL;
	}
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
	cd_stream *s = stream_alloc(memlimit);

	if (s == NULL)
		return NULL;
	s->fd = fd;
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
	cd_stream *s = stream_alloc(memlimit);

	if (s == NULL)
		return NULL;
	s->in = (uint8_t *)(uintptr_t)(len > 0 ? buf : "");
	s->in_len = len;
	s->in_eof = 1;
	open_common(s, flags);
	return s;
}

cd_stream_format
cd_stream_get_format(const cd_stream *s)
{
	return s->fmt;
}

/* The end of the input, or damage: every later read says the same. */
static cd_status
stream_end(cd_stream *s, cd_status st)
{
	s->st = st;
	if (st != CD_EOF)
		s->err = s->derr;
	if (st == CD_ERR_IO && s->err.sys_errno != 0)
		errno = s->err.sys_errno;	/* (the readers' errno) */
	return st;
}

cd_status
cd_stream_read(cd_stream *s, void *buf, size_t cap, size_t *n)
{
	cd_status st;

	*n = 0;
	if (s->writing)
		return CD_ERR_ARG;
	if (s->st != CD_OK)
		return stream_end(s, s->st);
	if (s->pending != CD_OK)
		return stream_end(s, s->pending);
	if (cap == 0)
		return CD_OK;
	if (!s->threaded) {
		/* a decoder may end a call with nothing (a skippable frame
		 * read): call again until it gives bytes or ends */
		do {
			st = s->decode(s, buf, cap, n);
		} while (st == CD_OK && *n == 0);
		s->out_total += *n;
		if (st != CD_OK && *n == 0)
			return stream_end(s, st);
		/* the end comes with the next call */
		s->pending = st;
		return CD_OK;
	}
	for (;;) {
		struct block *b;

		pthread_mutex_lock(&s->mu);
		while (s->count == 0)
			pthread_cond_wait(&s->cv, &s->mu);
		b = &s->ring[s->head];
		pthread_mutex_unlock(&s->mu);
		if (s->cur < b->len) {
			size_t m = b->len - s->cur;

			if (m > cap)
				m = cap;
			memcpy(buf, b->data + s->cur, m);
			s->cur += m;
			s->out_total += m;
			*n = m;
			return CD_OK;
		}
		s->in_told = b->in_end;
		if (b->st != CD_OK)
			return stream_end(s, b->st);
		pthread_mutex_lock(&s->mu);
		s->head = (s->head + 1) % RING;
		s->count--;
		s->cur = 0;
		pthread_cond_broadcast(&s->cv);
		pthread_mutex_unlock(&s->mu);
	}
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
		return s->writing ? s->in_off : in_at(s);
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
		n += IN_CAP;
	if (s->out != NULL)
		n += OUT_CAP;
	if (s->threaded)
		n += RING * BLOCK;
	if (s->writing)
		return n;
#ifdef HAVE_ZSTD
	if (s->zd != NULL)
		n += zstd.ZSTD_sizeof_DStream(s->zd);
#endif
#ifdef HAVE_ZLIB
	if (s->gz != NULL)
		n += GZIP_MEM;
#endif
#ifdef HAVE_BZLIB
	if (s->bz != NULL)
		n += BZIP2_MEM;
#endif
#ifdef HAVE_LZMA
	if (s->xz != NULL)
		n += (size_t)xz.lzma_memusage(s->xz);
#endif
	return n;
}

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

			set_err(&s->err, CD_ERR_IO, s->in_off,
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
	return set_err(&s->err, CD_ERR_IO, s->in_off, "%s compression "
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
			return set_err(&s->err, CD_ERR_NOMEM, s->in_off,
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
	if ((s->codec = codec_of(s->fmt, NULL)) == NULL)
		return CD_ERR_UNSUPPORTED;
	return s->codec->enc_init(s);
}

cd_stream *
cd_stream_open_write_fd(int fd, cd_stream_format f, int level)
{
	cd_stream *s = stream_alloc(0);
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
	if (f != CD_STREAM_PLAIN && codec_of(f, &why) == NULL) {
		s->st = set_err(&s->err, CD_ERR_UNSUPPORTED, 0, "%s "
		    "compression is not supported (%s)",
		    cd_stream_format_name(f), why);
		return s;
	}
	if (s->level < lo || s->level > hi) {
		s->st = set_err(&s->err, CD_ERR_ARG, 0, "%s compression "
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

void
cd_stream_free(cd_stream *s)
{
	unsigned i;

	if (s == NULL)
		return;
	if (s->threaded) {
		pthread_mutex_lock(&s->mu);
		s->quit = 1;
		pthread_cond_broadcast(&s->cv);
		pthread_mutex_unlock(&s->mu);
		/* it may wait in read(2) on a pipe that stays open */
		pthread_cancel(s->thread);
		pthread_join(s->thread, NULL);
		pthread_mutex_destroy(&s->mu);
		pthread_cond_destroy(&s->cv);
		for (i = 0; i < RING; i++)
			free(s->ring[i].data);
	}
#ifdef HAVE_ZSTD
	if (s->zd != NULL) {
		if (s->writing)
			zstd.ZSTD_freeCCtx(s->zd);
		else
			zstd.ZSTD_freeDStream(s->zd);
	}
#endif
#ifdef HAVE_ZLIB
	if (s->gz != NULL) {
		if (s->writing)
			zlib.deflateEnd(s->gz);
		else
			zlib.inflateEnd(s->gz);
		free(s->gz);
	}
#endif
#ifdef HAVE_BZLIB
	if (s->bz != NULL) {
		if (s->open) {
			if (s->writing)
				bz2.BZ2_bzCompressEnd(s->bz);
			else
				bz2.BZ2_bzDecompressEnd(s->bz);
		}
		free(s->bz);
	}
#endif
#ifdef HAVE_LZMA
	if (s->xz != NULL) {
		xz.lzma_end(s->xz);
		free(s->xz);
	}
#endif
	if (s->own_in)
		free(s->in);
	free(s->out);
	free(s);
}

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
