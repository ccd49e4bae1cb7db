/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stream/zip.c: .zip archives, read through libarchive (see
 * chessdata/stream.h and stream_int.h).
 *
 * libarchive pulls its input through a callback, which hands it the
 * stream's input buffer (refilled with read(2), or the caller's
 * memory), so this is a decoder of its own rather than a struct codec.
 * The regular file members come in archive order, each block of a
 * member copied out as libarchive gives it (a member's declared size is
 * never used); a line end is added after a member whose last byte is
 * not one, and the line feeds given are counted, so that
 * cd_stream_on_member can say on which line each member begins.
 */
#define _GNU_SOURCE 1	/* memmem */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream/stream_int.h"

#ifdef HAVE_LIBARCHIVE
/* A member passed over, unread: its name and why (cd_stream_skipped). */
struct skipped {
	char *name, *why;
};

struct zip {
	struct archive *a;
	const uint8_t *blk;	/* what is left of the member's block */
	size_t blk_len;
	int in_member;		/* a member's data is being read */
	int first;		/* its first block is next */
	int empty;		/* its header says it holds no byte */
	int last_nl;		/* the last byte given ended a line (or
				 * none of the member was given) */
	unsigned long lines;	/* line feeds given */
	char *name;		/* the member's name, for messages */
	size_t name_cap;
	/* The end of the central directory (PK 05 06) in the input read:
	 * an archive without it is cut short (libarchive, streaming,
	 * ends quietly where the members end). */
	int eocd;
	uint8_t tail[3];	/* the last bytes scanned */
	size_t ntail;
	/* The members passed over so far, under mu (the decompressing
	 * thread adds, the caller reads). */
	pthread_mutex_t mu;
	struct skipped *skips;
	size_t nskips, skips_cap;
};

/* libarchive's message, or a fixed one where it gives none. */
static const char *
zip_why(struct zip *z)
{
	const char *why = cd__archive.archive_error_string(z->a);

	return why != NULL && *why != '\0' ? why :
	    "the archive's data does not read";
}

/* Pass over the member z->name, unread, for why (printf format):
 * CD_OK, or out of memory. */
static cd_status
zip_skip(cd_stream *s, struct zip *z, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static cd_status
zip_skip(cd_stream *s, struct zip *z, const char *fmt, ...)
{
	struct skipped k;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	k.name = strdup(z->name);
	k.why = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (k.name == NULL || k.why == NULL)
		goto nomem;
	va_start(ap, fmt);
	vsnprintf(k.why, (size_t)n + 1, fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&z->mu);
	if (cd__grow(&z->skips, &z->skips_cap, z->nskips + 1,
	    sizeof(*z->skips), 4) != 0) {
		pthread_mutex_unlock(&z->mu);
		goto nomem;
	}
	z->skips[z->nskips++] = k;
	pthread_mutex_unlock(&z->mu);
	z->in_member = 0;
	z->blk_len = 0;
	return CD_OK;
nomem:
	free(k.name);
	free(k.why);
	return cd__stream_nomem(s);
}

/* Look for the end of the central directory in the input p[0..n)
 * (after the bytes scanned before). */
static void
zip_scan(struct zip *z, const uint8_t *p, size_t n)
{
	uint8_t edge[6];
	size_t k = n < 3 ? n : 3;

	if (z->eocd || n == 0)
		return;
	memcpy(edge, z->tail, z->ntail);
	memcpy(edge + z->ntail, p, k);
	if (memmem(edge, z->ntail + k, "PK\005\006", 4) != NULL ||
	    memmem(p, n, "PK\005\006", 4) != NULL) {
		z->eocd = 1;
		return;
	}
	if (n >= 3) {
		memcpy(z->tail, p + n - 3, 3);
		z->ntail = 3;
	} else {
		memcpy(edge, z->tail, z->ntail);
		memcpy(edge + z->ntail, p, n);
		k = z->ntail + n > 3 ? z->ntail + n - 3 : 0;
		memmove(z->tail, edge + k, z->ntail + n - k);
		z->ntail = z->ntail + n - k;
	}
}

/* libarchive's input: what is unread of the input buffer, refilled
 * once it is all taken (libarchive keeps the pointer until it calls
 * again). */
static la_ssize_t
zip_read(struct archive *a, void *ctx, const void **buf)
{
	cd_stream *s = ctx;
	size_t n;

	(void)a;
	if (s->in_pos == s->in_len) {
		if (cd__stream_read_in(s) != CD_OK)
			return -1;	/* (s->derr says why) */
		if (s->in_pos == s->in_len)
			return 0;
	}
	*buf = s->in + s->in_pos;
	n = s->in_len - s->in_pos;
	zip_scan(s->cx, *buf, n);
	s->in_pos = s->in_len;
	return (la_ssize_t)n;
}

/* After the last member: the rest of the input read, CD_EOF when it
 * holds the end of the central directory, else the archive is cut
 * short. */
static cd_status
zip_end(cd_stream *s, struct zip *z)
{
	const void *p;
	la_ssize_t k;

	while (!z->eocd && (k = zip_read(z->a, s, &p)) > 0)
		;
	if (s->derr.e.status != CD_OK)
		return s->derr.e.status;
	if (z->eocd)
		return CD_EOF;
	return cd__serr_set(&s->derr, CD_ERR_CORRUPT, cd__stream_in_at(s),
	    "truncated zip input: it ends at byte %llu without the archive's "
	    "central directory (members may be missing)",
	    (unsigned long long)cd__stream_in_at(s));
}

static cd_status zip_decode(cd_stream *s, uint8_t *out, size_t cap,
    size_t *n);

cd_status
cd__stream_zip_init(cd_stream *s)
{
	struct zip *z = calloc(1, sizeof(*z));

	if (z == NULL || (z->a = cd__archive.archive_read_new()) == NULL) {
		free(z);
		return cd__stream_nomem(s);
	}
	pthread_mutex_init(&z->mu, NULL);
	s->cx = z;
	s->decode = zip_decode;
	z->last_nl = 1;
	cd__archive.archive_read_support_format_zip_streamable(z->a);
	if (cd__archive.archive_read_open(z->a, s, NULL, zip_read, NULL) !=
	    ARCHIVE_OK) {
		if (s->derr.e.status != CD_OK)
			return s->derr.e.status;
		return cd__stream_corrupt(s, zip_why(z));
	}
	return CD_OK;
}

/* The name of the member (entry e) in z->name, control characters
 * shown as `?`. */
static int
zip_name(struct zip *z, struct archive_entry *e)
{
	const char *p = cd__archive.archive_entry_pathname(e);
	size_t n, i;

	if (p == NULL)
		p = cd__archive.archive_entry_pathname_utf8(e);
	if (p == NULL)
		p = "(a member without a name)";
	n = strlen(p);
	if (n + 1 > z->name_cap) {
		char *q = realloc(z->name, n + 1);

		if (q == NULL)
			return -1;
		z->name = q;
		z->name_cap = n + 1;
	}
	for (i = 0; i <= n; i++)
		z->name[i] = ((unsigned char)p[i] < 0x20 && p[i] != '\0') ||
		    p[i] == 0x7f ? '?' : p[i];
	return 0;
}

/* The first block of a member: passed over when it is compressed
 * itself, an archive, or a known format that is not chess data; a UTF-8
 * byte order mark at its start is dropped. */
static cd_status
zip_first(cd_stream *s, struct zip *z)
{
	cd_stream_format f = cd_stream_detect(z->blk, z->blk_len);
	const char *other = cd_sniff_format(z->blk, z->blk_len);

	if (f != CD_STREAM_PLAIN)
		return zip_skip(s, z, "%s: not read (take it out of the "
		    "archive first)",
		    f == CD_STREAM_ZIP ? "a zip archive" : f == CD_STREAM_ZSTD ?
		    "zstd compressed" : f == CD_STREAM_GZIP ? "gzip compressed" :
		    f == CD_STREAM_BZIP2 ? "bzip2 compressed" :
		    "xz compressed");
	if (other != NULL)
		return zip_skip(s, z, "%s are not read", other);
	if (z->blk_len >= 3 && memcmp(z->blk, "\xef\xbb\xbf", 3) == 0) {
		z->blk += 3;
		z->blk_len -= 3;
	}
	return CD_OK;
}

/* The next regular file member's header: CD_OK (z->in_member), CD_EOF
 * after the last, or an error. */
static cd_status
zip_next(cd_stream *s, struct zip *z)
{
	struct archive_entry *e;
	int r;

	for (;;) {
		r = cd__archive.archive_read_next_header(z->a, &e);
		if (r == ARCHIVE_EOF)
			return zip_end(s, z);
		if (r < ARCHIVE_WARN) {
			if (s->derr.e.status != CD_OK)
				return s->derr.e.status;
			return cd__stream_corrupt(s, zip_why(z));
		}
		if (cd__archive.archive_entry_filetype(e) != AE_IFREG)
			continue;
		if (zip_name(z, e) != 0)
			return cd__stream_nomem(s);
		if (!cd__archive.archive_entry_is_encrypted(e))
			break;
		/* (libarchive passes over its data at the next header) */
		if (zip_skip(s, z, "encrypted: not read") != CD_OK)
			return s->derr.e.status;
	}
	if (s->on_member != NULL)
		s->on_member(s->member_ctx, z->name, z->lines + 1);
	z->in_member = 1;
	z->first = 1;
	z->empty = cd__archive.archive_entry_size_is_set(e) &&
	    cd__archive.archive_entry_size(e) == 0;
	z->last_nl = 1;
	return CD_OK;
}

/* The line feeds in p[0..n). */
static unsigned long
zip_lines(const uint8_t *p, size_t n)
{
	const uint8_t *e = p + n;
	unsigned long k = 0;

	while ((p = memchr(p, '\n', (size_t)(e - p))) != NULL) {
		k++;
		p++;
	}
	return k;
}

/* The decoder: the members' bytes, one after the other. */
static cd_status
zip_decode(cd_stream *s, uint8_t *out, size_t cap, size_t *n)
{
	struct zip *z = s->cx;
	cd_status st = CD_OK;
	size_t got = 0;

	if (s->ended) {
		*n = 0;
		return CD_EOF;
	}
	while (got < cap) {
		const void *buf;
		size_t size;
		la_int64_t off;
		int r;

		if (z->blk_len > 0) {
			size_t m = z->blk_len < cap - got ? z->blk_len :
			    cap - got;

			memcpy(out + got, z->blk, m);
			z->lines += zip_lines(z->blk, m);
			z->last_nl = z->blk[m - 1] == '\n';
			z->blk += m;
			z->blk_len -= m;
			got += m;
			continue;
		}
		if (!z->in_member) {
			if ((st = zip_next(s, z)) != CD_OK)
				break;
			continue;
		}
		r = cd__archive.archive_read_data_block(z->a, &buf, &size,
		    &off);
		/* (libarchive 3.6 fails on an empty member compressed with
		 * lzma, having given nothing: it is empty) */
		if (r == ARCHIVE_FATAL && z->first && z->empty)
			r = ARCHIVE_EOF;
		if (r == ARCHIVE_EOF) {
			/* every member ends a line */
			if (!z->last_nl) {
				out[got++] = '\n';
				z->lines++;
				z->last_nl = 1;
			}
			z->in_member = 0;
			continue;
		}
		if (r < ARCHIVE_WARN) {
			if (s->derr.e.status != CD_OK) {
				st = s->derr.e.status;
				break;
			}
			/* a member whose data libarchive does not read (a
			 * compression method it lacks), the archive still
			 * whole: passed over, the line it was given ended */
			if (r == ARCHIVE_FAILED) {
				if ((st = zip_skip(s, z, "%s: not read%s",
				    zip_why(z), z->first ? "" : " to its "
				    "end")) != CD_OK)
					break;
				if (!z->last_nl) {
					out[got++] = '\n';
					z->lines++;
					z->last_nl = 1;
				}
				continue;
			}
			st = cd__serr_set(&s->derr, CD_ERR_CORRUPT,
			    cd__stream_in_at(s), "corrupt zip input in "
			    "member %s: %s", z->name, zip_why(z));
			break;
		}
		z->blk = buf;
		z->blk_len = size;
		if (z->first && size > 0) {
			z->first = 0;
			if ((st = zip_first(s, z)) != CD_OK)
				break;
		}
	}
	if (st == CD_EOF)
		s->ended = 1;
	*n = got;
	return st;
}

size_t
cd__stream_zip_memory(const cd_stream *s)
{
	/* (libarchive's buffers and a member's decompressor: about this
	 * much for deflate, the method of every .zip in the wild) */
	return s->cx != NULL ? (size_t)1 << 20 : 0;
}

void
cd__stream_zip_free(cd_stream *s)
{
	struct zip *z = s->cx;

	if (z == NULL)
		return;
	cd__archive.archive_read_free(z->a);
	free(z->name);
	while (z->nskips > 0) {
		z->nskips--;
		free(z->skips[z->nskips].name);
		free(z->skips[z->nskips].why);
	}
	free(z->skips);
	pthread_mutex_destroy(&z->mu);
	free(z);
	s->cx = NULL;
}

#endif

bool
cd_stream_skipped(const cd_stream *s, size_t k, const char **member,
    const char **why)
{
#ifdef HAVE_LIBARCHIVE
	struct zip *z = s->fmt == CD_STREAM_ZIP && !s->writing ? s->cx : NULL;
	bool found = false;

	if (z == NULL)
		return false;
	pthread_mutex_lock(&z->mu);
	if (k < z->nskips) {
		*member = z->skips[k].name;
		*why = z->skips[k].why;
		found = true;
	}
	pthread_mutex_unlock(&z->mu);
	return found;
#else
	(void)s;
	(void)k;
	(void)member;
	(void)why;
	return false;
#endif
}
