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

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_ZSTD
#include <zstd.h>
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
/* The most memory an xz stream may ask for (xz -9 needs 674 MiB to
 * compress, 65 MiB to decompress). */
#define XZ_MEMLIMIT	((uint64_t)1 << 30)

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
	struct serr derr;	/* the decoder's error */
	int open;		/* a frame, member or stream is begun */
	int ended;		/* the decoder has given its end */
	void *zd;		/* ZSTD_DStream / ZSTD_CCtx */
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

		if (n > k && strcmp(path + n - k, t[i].sfx) == 0)
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
	switch (f) {
	case CD_STREAM_PLAIN:
		return true;
#ifdef HAVE_ZSTD
	case CD_STREAM_ZSTD:
		return true;
#endif
#ifdef HAVE_ZLIB
	case CD_STREAM_GZIP:
		return true;
#endif
#ifdef HAVE_BZLIB
	case CD_STREAM_BZIP2:
		return true;
#endif
#ifdef HAVE_LZMA
	case CD_STREAM_XZ:
		return true;
#endif
	default:
		return false;
	}
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
		hi = ZSTD_maxCLevel();
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

#ifdef HAVE_ZSTD
/*
 * zstd: frames one after the other; ZSTD_decompressStream passes over
 * skippable frames itself.  A frame is open from its first byte read
 * until the decoder says it is complete and flushed (0).
 */
static cd_status
dec_zstd(cd_stream *s, uint8_t *out, size_t cap, size_t *n)
{
	ZSTD_outBuffer ob = { out, cap, 0 };
	cd_status st;

	for (;;) {
		ZSTD_inBuffer ib;
		size_t r, in0, out0;

		if (ob.pos == ob.size)
			break;
		if (s->in_pos == s->in_len && !s->in_eof) {
			if ((st = read_in(s)) != CD_OK) {
				*n = ob.pos;
				return st;
			}
			continue;
		}
		ib.src = s->in;
		ib.size = s->in_len;
		ib.pos = s->in_pos;
		in0 = ib.pos;
		out0 = ob.pos;
		r = ZSTD_decompressStream(s->zd, &ob, &ib);
		s->in_pos = ib.pos;
		if (ZSTD_isError(r)) {
			*n = ob.pos;
			return corrupt(s, ZSTD_getErrorName(r));
		}
		if (r == 0)
			s->open = 0;
		else if (ib.pos > in0)
			s->open = 1;
		if (s->in_pos == s->in_len && s->in_eof && ib.pos == in0 &&
		    ob.pos == out0) {
			*n = ob.pos;
			return s->open ? truncated(s) : CD_EOF;
		}
	}
	*n = ob.pos;
	return CD_OK;
}
#endif

#ifdef HAVE_ZLIB
/* gzip: members one after the other, each begun afresh. */
static cd_status
dec_gzip(cd_stream *s, uint8_t *out, size_t cap, size_t *n)
{
	z_stream *z = s->gz;
	size_t got = 0;
	cd_status st;
	int r;

	for (;;) {
		size_t in0, out0;

		if (got == cap)
			break;
		if (s->in_pos == s->in_len && !s->in_eof) {
			if ((st = read_in(s)) != CD_OK) {
				*n = got;
				return st;
			}
			continue;
		}
		if (!s->open) {
			if (s->in_pos == s->in_len) {
				*n = got;
				return CD_EOF;
			}
			if (inflateReset(z) != Z_OK) {
				*n = got;
				return nomem(s);
			}
			s->open = 1;
		}
		in0 = s->in_len - s->in_pos;
		out0 = cap - got;
		z->next_in = s->in + s->in_pos;
		z->avail_in = (uInt)in0;
		z->next_out = out + got;
		z->avail_out = (uInt)(out0 > UINT32_MAX ? UINT32_MAX : out0);
		out0 = z->avail_out;
		r = inflate(z, Z_NO_FLUSH);
		s->in_pos += in0 - z->avail_in;
		got += out0 - z->avail_out;
		if (r == Z_STREAM_END) {
			s->open = 0;
			continue;
		}
		if (r == Z_DATA_ERROR || r == Z_NEED_DICT) {
			*n = got;
			return corrupt(s, z->msg ? z->msg : "bad data");
		}
		if (r == Z_MEM_ERROR) {
			*n = got;
			return nomem(s);
		}
		if (in0 == z->avail_in && out0 == z->avail_out &&
		    s->in_pos == s->in_len && s->in_eof) {
			*n = got;
			return truncated(s);
		}
	}
	*n = got;
	return CD_OK;
}
#endif

#ifdef HAVE_BZLIB
/* bzip2: streams one after the other (pbzip2 writes several). */
static cd_status
dec_bzip2(cd_stream *s, uint8_t *out, size_t cap, size_t *n)
{
	bz_stream *b = s->bz;
	size_t got = 0;
	cd_status st;
	int r;

	for (;;) {
		size_t in0, out0;

		if (got == cap)
			break;
		if (s->in_pos == s->in_len && !s->in_eof) {
			if ((st = read_in(s)) != CD_OK) {
				*n = got;
				return st;
			}
			continue;
		}
		if (!s->open) {
			if (s->in_pos == s->in_len) {
				*n = got;
				return CD_EOF;
			}
			memset(b, 0, sizeof(*b));
			if (BZ2_bzDecompressInit(b, 0, 0) != BZ_OK) {
				*n = got;
				return nomem(s);
			}
			s->open = 1;
		}
		in0 = s->in_len - s->in_pos;
		if (in0 > UINT32_MAX)
			in0 = UINT32_MAX;
		out0 = cap - got;
		if (out0 > UINT32_MAX)
			out0 = UINT32_MAX;
		b->next_in = (char *)s->in + s->in_pos;
		b->avail_in = (unsigned)in0;
		b->next_out = (char *)out + got;
		b->avail_out = (unsigned)out0;
		r = BZ2_bzDecompress(b);
		s->in_pos += in0 - b->avail_in;
		got += out0 - b->avail_out;
		if (r == BZ_STREAM_END) {
			BZ2_bzDecompressEnd(b);
			s->open = 0;
			continue;
		}
		if (r == BZ_MEM_ERROR) {
			*n = got;
			return nomem(s);
		}
		if (r != BZ_OK) {
			*n = got;
			return corrupt(s, r == BZ_DATA_ERROR_MAGIC ?
			    "not bzip2 data" : r == BZ_DATA_ERROR ?
			    "data integrity error" : "bad data");
		}
		if (in0 == b->avail_in && out0 == b->avail_out &&
		    s->in_pos == s->in_len && s->in_eof) {
			*n = got;
			return truncated(s);
		}
	}
	*n = got;
	return CD_OK;
}
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
	case LZMA_MEMLIMIT_ERROR:
		return "it needs more than 1 GiB of memory";
	case LZMA_UNSUPPORTED_CHECK:
		return "unsupported integrity check";
	default:
		return "decoder error";
	}
}

/* xz: liblzma reads concatenated streams and their padding itself. */
static cd_status
dec_xz(cd_stream *s, uint8_t *out, size_t cap, size_t *n)
{
	lzma_stream *x = s->xz;
	size_t got = 0;
	cd_status st;
	lzma_ret r;

	if (s->ended) {
		*n = 0;
		return CD_EOF;
	}
	for (;;) {
		size_t in0, out0;

		if (got == cap)
			break;
		if (s->in_pos == s->in_len && !s->in_eof) {
			if ((st = read_in(s)) != CD_OK) {
				*n = got;
				return st;
			}
			continue;
		}
		in0 = s->in_len - s->in_pos;
		out0 = cap - got;
		x->next_in = s->in + s->in_pos;
		x->avail_in = in0;
		x->next_out = out + got;
		x->avail_out = out0;
		r = lzma_code(x, s->in_eof ? LZMA_FINISH : LZMA_RUN);
		s->in_pos += in0 - x->avail_in;
		got += out0 - x->avail_out;
		if (r == LZMA_STREAM_END) {
			s->ended = 1;
			*n = got;
			return CD_EOF;
		}
		if (r == LZMA_MEM_ERROR) {
			*n = got;
			return nomem(s);
		}
		if (r == LZMA_BUF_ERROR ||
		    (r == LZMA_OK && in0 == x->avail_in &&
		    out0 == x->avail_out && s->in_eof)) {
			*n = got;
			return truncated(s);
		}
		if (r != LZMA_OK) {
			*n = got;
			return corrupt(s, lzma_msg(r));
		}
	}
	*n = got;
	return CD_OK;
}
#endif

/* Set up the decoder of s->fmt. */
static cd_status
dec_init(cd_stream *s)
{
	switch (s->fmt) {
	case CD_STREAM_PLAIN:
		s->decode = dec_plain;
		return CD_OK;
#ifdef HAVE_ZSTD
	case CD_STREAM_ZSTD:
		if ((s->zd = ZSTD_createDStream()) == NULL)
			return nomem(s);
		ZSTD_initDStream(s->zd);
		s->decode = dec_zstd;
		return CD_OK;
#endif
#ifdef HAVE_ZLIB
	case CD_STREAM_GZIP:
		if ((s->gz = calloc(1, sizeof(*s->gz))) == NULL)
			return nomem(s);
		if (inflateInit2(s->gz, 15 + 16) != Z_OK) {
			free(s->gz);
			s->gz = NULL;
			return nomem(s);
		}
		s->decode = dec_gzip;
		return CD_OK;
#endif
#ifdef HAVE_BZLIB
	case CD_STREAM_BZIP2:
		if ((s->bz = calloc(1, sizeof(*s->bz))) == NULL)
			return nomem(s);
		s->decode = dec_bzip2;
		return CD_OK;
#endif
#ifdef HAVE_LZMA
	case CD_STREAM_XZ: {
		lzma_stream init = LZMA_STREAM_INIT;

		if ((s->xz = malloc(sizeof(*s->xz))) == NULL)
			return nomem(s);
		*s->xz = init;
		if (lzma_stream_decoder(s->xz, XZ_MEMLIMIT,
		    LZMA_CONCATENATED) != LZMA_OK)
			return nomem(s);
		s->decode = dec_xz;
		return CD_OK;
	}
#endif
	default:
		return set_err(&s->derr, CD_ERR_UNSUPPORTED, 0,
		    "%s compressed input is not supported (this build has "
		    "no %s)", cd_stream_format_name(s->fmt),
		    cd_stream_format_library(s->fmt));
	}
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
stream_alloc(void)
{
	cd_stream *s = calloc(1, sizeof(*s));

	if (s != NULL)
		s->fd = -1;
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
	cd_stream *s = stream_alloc();

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
cd_stream_open_mem(const void *buf, size_t len, unsigned flags)
{
	cd_stream *s = stream_alloc();

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
		return s->st;
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
cd_stream_get_error(const cd_stream *s)
{
	return &s->err.e;
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

/* Compress n bytes at p (end: and end the data). */
static cd_status
encode(cd_stream *s, const uint8_t *p, size_t n, int end)
{
	cd_status st;

	switch (s->fmt) {
	case CD_STREAM_PLAIN:
		return put(s, p, n);
#ifdef HAVE_ZSTD
	case CD_STREAM_ZSTD: {
		ZSTD_inBuffer ib = { p, n, 0 };
		size_t r;

		do {
			ZSTD_outBuffer ob = { s->out, OUT_CAP, 0 };

			r = ZSTD_compressStream2(s->zd, &ob, &ib,
			    end ? ZSTD_e_end : ZSTD_e_continue);
			if (ZSTD_isError(r))
				return enc_fail(s, ZSTD_getErrorName(r));
			if (ob.pos > 0 && (st = put(s, s->out, ob.pos)) != CD_OK)
				return st;
		} while (ib.pos < ib.size || (end && r != 0));
		return CD_OK;
	}
#endif
#ifdef HAVE_ZLIB
	case CD_STREAM_GZIP: {
		z_stream *z = s->gz;
		int r;

		z->next_in = (Bytef *)(uintptr_t)p;
		z->avail_in = (uInt)n;	/* n <= the FILE's buffer */
		do {
			z->next_out = s->out;
			z->avail_out = (uInt)OUT_CAP;
			r = deflate(z, end ? Z_FINISH : Z_NO_FLUSH);
			if (r == Z_STREAM_ERROR)
				return enc_fail(s, "stream error");
			if (OUT_CAP - z->avail_out > 0 && (st = put(s, s->out,
			    OUT_CAP - z->avail_out)) != CD_OK)
				return st;
		} while (z->avail_in > 0 || z->avail_out == 0 ||
		    (end && r != Z_STREAM_END));
		return CD_OK;
	}
#endif
#ifdef HAVE_BZLIB
	case CD_STREAM_BZIP2: {
		bz_stream *b = s->bz;
		int r;

		b->next_in = (char *)(uintptr_t)p;
		b->avail_in = (unsigned)n;
		do {
			b->next_out = (char *)s->out;
			b->avail_out = (unsigned)OUT_CAP;
			r = BZ2_bzCompress(b, end ? BZ_FINISH : BZ_RUN);
			if (r < 0)
				return enc_fail(s, "sequence error");
			if (OUT_CAP - b->avail_out > 0 && (st = put(s, s->out,
			    OUT_CAP - b->avail_out)) != CD_OK)
				return st;
		} while (b->avail_in > 0 || (end && r != BZ_STREAM_END));
		return CD_OK;
	}
#endif
#ifdef HAVE_LZMA
	case CD_STREAM_XZ: {
		lzma_stream *x = s->xz;
		lzma_ret r;

		x->next_in = p;
		x->avail_in = n;
		do {
			x->next_out = s->out;
			x->avail_out = OUT_CAP;
			r = lzma_code(x, end ? LZMA_FINISH : LZMA_RUN);
			if (r != LZMA_OK && r != LZMA_STREAM_END)
				return r == LZMA_MEM_ERROR ?
				    set_err(&s->err, CD_ERR_NOMEM, s->in_off,
				    "out of memory") : enc_fail(s, "error");
			if (OUT_CAP - x->avail_out > 0 && (st = put(s, s->out,
			    OUT_CAP - x->avail_out)) != CD_OK)
				return st;
		} while (x->avail_in > 0 || x->avail_out == 0 ||
		    (end && r != LZMA_STREAM_END));
		return CD_OK;
	}
#endif
	default:
		return CD_ERR_UNSUPPORTED;
	}
}

/* Set up the encoder of s->fmt at s->level. */
static cd_status
enc_init(cd_stream *s)
{
	switch (s->fmt) {
	case CD_STREAM_PLAIN:
		return CD_OK;
#ifdef HAVE_ZSTD
	case CD_STREAM_ZSTD:
		if ((s->zd = ZSTD_createCCtx()) == NULL)
			return CD_ERR_NOMEM;
		ZSTD_CCtx_setParameter(s->zd, ZSTD_c_compressionLevel,
		    s->level);
		/* a checksum, as the zstd program writes: damage is found */
		ZSTD_CCtx_setParameter(s->zd, ZSTD_c_checksumFlag, 1);
		/* compress on a thread of zstd's own where it has them */
		ZSTD_CCtx_setParameter(s->zd, ZSTD_c_nbWorkers, 1);
		return CD_OK;
#endif
#ifdef HAVE_ZLIB
	case CD_STREAM_GZIP:
		if ((s->gz = calloc(1, sizeof(*s->gz))) == NULL)
			return CD_ERR_NOMEM;
		if (deflateInit2(s->gz, s->level, Z_DEFLATED, 15 + 16, 8,
		    Z_DEFAULT_STRATEGY) != Z_OK) {
			free(s->gz);
			s->gz = NULL;
			return CD_ERR_NOMEM;
		}
		return CD_OK;
#endif
#ifdef HAVE_BZLIB
	case CD_STREAM_BZIP2:
		if ((s->bz = calloc(1, sizeof(*s->bz))) == NULL)
			return CD_ERR_NOMEM;
		if (BZ2_bzCompressInit(s->bz, s->level, 0, 0) != BZ_OK) {
			free(s->bz);
			s->bz = NULL;
			return CD_ERR_NOMEM;
		}
		s->open = 1;
		return CD_OK;
#endif
#ifdef HAVE_LZMA
	case CD_STREAM_XZ: {
		lzma_stream init = LZMA_STREAM_INIT;

		if ((s->xz = malloc(sizeof(*s->xz))) == NULL)
			return CD_ERR_NOMEM;
		*s->xz = init;
		if (lzma_easy_encoder(s->xz, (uint32_t)s->level,
		    LZMA_CHECK_CRC64) != LZMA_OK)
			return CD_ERR_NOMEM;
		return CD_OK;
	}
#endif
	default:
		return CD_ERR_UNSUPPORTED;
	}
}

cd_stream *
cd_stream_open_write_fd(int fd, cd_stream_format f, int level)
{
	cd_stream *s = stream_alloc();
	int lo, hi, dflt;
	cd_status st;

	if (s == NULL)
		return NULL;
	s->writing = 1;
	s->fd = fd;
	s->fmt = f;
	cd_stream_levels(f, &lo, &hi, &dflt);
	s->level = level < 0 ? dflt : level;
	if (!cd_stream_format_supported(f)) {
		s->st = set_err(&s->err, CD_ERR_UNSUPPORTED, 0, "%s "
		    "compression is not supported (this build has no %s)",
		    cd_stream_format_name(f), cd_stream_format_library(f));
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
			ZSTD_freeCCtx(s->zd);
		else
			ZSTD_freeDStream(s->zd);
	}
#endif
#ifdef HAVE_ZLIB
	if (s->gz != NULL) {
		if (s->writing)
			deflateEnd(s->gz);
		else
			inflateEnd(s->gz);
		free(s->gz);
	}
#endif
#ifdef HAVE_BZLIB
	if (s->bz != NULL) {
		if (s->open) {
			if (s->writing)
				BZ2_bzCompressEnd(s->bz);
			else
				BZ2_bzDecompressEnd(s->bz);
		}
		free(s->bz);
	}
#endif
#ifdef HAVE_LZMA
	if (s->xz != NULL) {
		lzma_end(s->xz);
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
