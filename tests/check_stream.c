/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_stream.c: the stream layer: formats by magic and by name, every
 * supported format written and read back (threaded and not, through a
 * FILE too), several frames or members, a leading skippable zstd frame,
 * truncation at every length and a flipped byte (an error naming the
 * format, every byte before it given), zstd frames decoded on several
 * threads (the same bytes and errors as one decoder), a stream freed
 * while its threads wait on a silent pipe, the writers' argument
 * checks.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* F_SETPIPE_SZ */
#endif
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chessdata.h"
#include "check-main.h"

static const cd_stream_format formats[] = {
	CD_STREAM_PLAIN, CD_STREAM_ZSTD, CD_STREAM_GZIP, CD_STREAM_BZIP2,
	CD_STREAM_XZ, CD_STREAM_ZSTD
};
#define NFORMATS 5

/* Some text that compresses: numbered PGN-like lines. */
static char *
make_text(size_t *len)
{
	size_t cap = 1 << 20, n = 0;
	char *t = malloc(cap);
	unsigned i;

	ck_assert_ptr_nonnull(t);
	for (i = 0; n + 100 < cap; i++)
		n += (size_t)snprintf(t + n, cap - n, "[Event \"game %u\"]\n"
		    "1. e4 e5 2. Nf3 Nc6 %u 1-0\n\n", i, i * 7919u % 1000);
	*len = n;
	return t;
}

/* Compress len bytes of text in format f into a malloc'd buffer. */
static unsigned char *
compress_mem(cd_stream_format f, int level, const char *text, size_t len,
    size_t *out_len)
{
	FILE *tmp = tmpfile();
	cd_stream *w;
	unsigned char *out;
	long n;

	ck_assert_ptr_nonnull(tmp);
	w = cd_stream_open_write_fd(fileno(tmp), f, level);
	ck_assert_ptr_nonnull(w);
	/* in pieces of odd sizes */
	{
		size_t at = 0, k = 1;

		while (at < len) {
			size_t m = len - at < k ? len - at : k;

			ck_assert_int_eq(cd_stream_write(w, text + at, m),
			    CD_OK);
			at += m;
			k = k * 3 + 1;
		}
	}
	ck_assert_int_eq(cd_stream_finish(w), CD_OK);
	cd_stream_free(w);
	n = lseek(fileno(tmp), 0, SEEK_END);
	ck_assert_int_gt(n, 0);
	out = malloc((size_t)n);
	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(pread(fileno(tmp), out, (size_t)n, 0), n);
	fclose(tmp);
	*out_len = (size_t)n;
	return out;
}

/* Read a stream to its end; its status, the bytes in *out. */
static cd_status
read_all(cd_stream *s, char **out, size_t *len)
{
	size_t cap = 1 << 16, n;
	cd_status st;

	*out = malloc(cap);
	*len = 0;
	for (;;) {
		if (cap - *len < 5000) {
			cap *= 2;
			*out = realloc(*out, cap);
			ck_assert_ptr_nonnull(*out);
		}
		st = cd_stream_read(s, *out + *len, 1 + *len % 4999, &n);
		if (st != CD_OK)
			return st;
		ck_assert_uint_gt(n, 0);
		*len += n;
	}
}

START_TEST(test_names)
{
	ck_assert_int_eq(cd_stream_format_parse("zst"), CD_STREAM_ZSTD);
	ck_assert_int_eq(cd_stream_format_parse("gzip"), CD_STREAM_GZIP);
	ck_assert_int_eq(cd_stream_format_parse("bz2"), CD_STREAM_BZIP2);
	ck_assert_int_eq(cd_stream_format_parse("xz"), CD_STREAM_XZ);
	ck_assert_int_eq(cd_stream_format_parse("lz4"), -1);
	ck_assert_int_eq(cd_stream_format_suffix("a.pgn.zst"), CD_STREAM_ZSTD);
	ck_assert_int_eq(cd_stream_format_suffix("a.pgn.gz"), CD_STREAM_GZIP);
	ck_assert_int_eq(cd_stream_format_suffix("a.bz2"), CD_STREAM_BZIP2);
	ck_assert_int_eq(cd_stream_format_suffix("x.xz"), CD_STREAM_XZ);
	ck_assert_int_eq(cd_stream_format_suffix(".gz"), CD_STREAM_PLAIN);
	ck_assert_int_eq(cd_stream_format_suffix("a.pgn"), CD_STREAM_PLAIN);
	/* in any case */
	ck_assert_int_eq(cd_stream_format_suffix("A.PGN.GZ"), CD_STREAM_GZIP);
	ck_assert_int_eq(cd_stream_format_suffix("a.Zst"), CD_STREAM_ZSTD);
	ck_assert_int_eq(cd_stream_format_suffix("a.BZ2"), CD_STREAM_BZIP2);
	ck_assert_int_eq(cd_stream_format_suffix("a.xZ"), CD_STREAM_XZ);
	ck_assert_int_eq(cd_stream_detect("\x28\xb5\x2f\xfd", 4),
	    CD_STREAM_ZSTD);
	ck_assert_int_eq(cd_stream_detect("\x5a\x2a\x4d\x18", 4),
	    CD_STREAM_ZSTD);
	ck_assert_int_eq(cd_stream_detect("\x1f\x8b\x08", 3), CD_STREAM_GZIP);
	ck_assert_int_eq(cd_stream_detect("BZh9", 4), CD_STREAM_BZIP2);
	ck_assert_int_eq(cd_stream_detect("BZh0", 4), CD_STREAM_PLAIN);
	ck_assert_int_eq(cd_stream_detect("\xfd" "7zXZ", 5), CD_STREAM_PLAIN);
	ck_assert_int_eq(cd_stream_detect("\xfd" "7zXZ\0", 6), CD_STREAM_XZ);
	ck_assert_int_eq(cd_stream_detect("[Event", 6), CD_STREAM_PLAIN);
	ck_assert_str_eq(cd_stream_format_name(CD_STREAM_BZIP2), "bzip2");
}
END_TEST

/* Every format round trips, threaded or not, and through a FILE. */
START_TEST(test_roundtrip)
{
	cd_stream_format f = formats[_i];
	size_t len, clen, olen;
	char *text = make_text(&len), *out;
	unsigned char *c;
	cd_stream *s;
	unsigned flags;

	if (!cd_stream_format_supported(f)) {
		free(text);
		return;
	}
	c = compress_mem(f, -1, text, len, &clen);
	if (f != CD_STREAM_PLAIN)
		ck_assert_uint_lt(clen, len / 3);
	for (flags = 0; flags <= CD_STREAM_THREAD; flags++) {
		s = cd_stream_open_mem(c, clen, flags);
		ck_assert_int_eq(cd_stream_get_format(s), f);
		ck_assert_int_eq(read_all(s, &out, &olen), CD_EOF);
		ck_assert_uint_eq(olen, len);
		ck_assert(memcmp(out, text, len) == 0);
		ck_assert_uint_eq(cd_stream_tell(s), len);
		cd_stream_free(s);
		free(out);
	}
	/* a file descriptor, read as a FILE */
	{
		FILE *tmp = tmpfile(), *zf;
		char line[256];
		unsigned long lines = 0;

		ck_assert_int_eq(fwrite(c, 1, clen, tmp), clen);
		fflush(tmp);
		lseek(fileno(tmp), 0, SEEK_SET);
		s = cd_stream_open_fd(fileno(tmp), CD_STREAM_THREAD);
		zf = cd_stream_fopen(s, "r");
		ck_assert_ptr_nonnull(zf);
		while (fgets(line, sizeof(line), zf) != NULL)
			lines++;
		ck_assert(!ferror(zf));
		ck_assert_uint_eq(lines * 3, (unsigned long)(len ? lines * 3 :
		    0));
		ck_assert_uint_gt(lines, 10000);
		fclose(zf);
		fclose(tmp);
	}
	free(c);
	free(text);
}
END_TEST

/* Two streams one after the other read as one; zstd with a leading
 * skippable frame. */
START_TEST(test_concat)
{
	cd_stream_format f = formats[_i];
	const char *a = "[Event \"a\"]\n1. e4 1-0\n\n";
	const char *b = "[Event \"b\"]\n1. d4 0-1\n\n";
	size_t la, lb, olen, pre;
	unsigned char *ca, *cb, *both;
	char *out;
	cd_stream *s;

	if (f == CD_STREAM_PLAIN || !cd_stream_format_supported(f))
		return;
	ca = compress_mem(f, 1, a, strlen(a), &la);
	cb = compress_mem(f, 1, b, strlen(b), &lb);
	pre = f == CD_STREAM_ZSTD ? 12 : 0;
	both = malloc(pre + la + lb);
	memcpy(both, "\x50\x2a\x4d\x18\x04\0\0\0skip", pre);
	memcpy(both + pre, ca, la);
	memcpy(both + pre + la, cb, lb);
	s = cd_stream_open_mem(both, pre + la + lb, 0);
	ck_assert_int_eq(read_all(s, &out, &olen), CD_EOF);
	ck_assert_uint_eq(olen, strlen(a) + strlen(b));
	ck_assert(memcmp(out, a, strlen(a)) == 0);
	ck_assert(memcmp(out + strlen(a), b, strlen(b)) == 0);
	cd_stream_free(s);
	free(out);
	free(both);
	free(ca);
	free(cb);
}
END_TEST

/* The text (its first len/div bytes) compressed in format f at level
 * into *c; false (nothing made) for plain or a format left out. */
static bool
damage_text(cd_stream_format f, int level, size_t div, char **text,
    size_t *len, unsigned char **c, size_t *clen)
{
	if (f == CD_STREAM_PLAIN || !cd_stream_format_supported(f))
		return false;
	*text = make_text(len);
	*len /= div;
	*c = compress_mem(f, level, *text, *len, clen);
	return true;
}

/* Cut anywhere past the magic: CD_ERR_CORRUPT, "truncated", the bytes
 * before a prefix of the text; a flipped byte: an error. */
START_TEST(test_damage)
{
	cd_stream_format f = formats[_i];
	size_t len, clen, olen, cut, step;
	char *text, *out;
	unsigned char *c;
	cd_stream *s;
	cd_status st;

	if (!damage_text(f, -1, 8, &text, &len, &c, &clen))
		return;
	step = clen / 97 + 1;
	for (cut = 6; cut < clen; cut += step) {
		s = cd_stream_open_mem(c, cut, cut % 2 ? CD_STREAM_THREAD : 0);
		st = read_all(s, &out, &olen);
		ck_assert_msg(st == CD_ERR_CORRUPT, "%s cut at %zu: %d",
		    cd_stream_format_name(f), cut, st);
		ck_assert(strstr(cd_stream_error(s)->msg, "truncated") ||
		    strstr(cd_stream_error(s)->msg, "corrupt"));
		ck_assert_uint_le(cd_stream_error(s)->offset, cut);
		ck_assert_uint_le(olen, len);
		ck_assert(olen == 0 || memcmp(out, text, olen) == 0);
		cd_stream_free(s);
		free(out);
	}
	c[clen / 2] ^= 0x5a;
	s = cd_stream_open_mem(c, clen, 0);
	st = read_all(s, &out, &olen);
	ck_assert_int_eq(st, CD_ERR_CORRUPT);
	cd_stream_free(s);
	free(out);
	free(c);
	free(text);
}
END_TEST

/* Every format: the text whole when only the end is cut (gzip's size,
 * xz's footer, zstd's checksum, bzip2's CRC); a damaged byte found
 * within a block of where it is (zstd: the start of its block, not of
 * the data read at once), the bytes before it given. */
START_TEST(test_damage_place)
{
	cd_stream_format f = formats[_i];
	size_t len, clen, olen, at;
	char *text, *out;
	unsigned char *c;
	cd_stream *s;
	unsigned flags;

	if (!damage_text(f, 1, 1, &text, &len, &c, &clen))
		return;
	for (flags = 0; flags <= CD_STREAM_THREAD; flags++) {
		s = cd_stream_open_mem(c, clen - 4, flags);
		ck_assert_int_eq(read_all(s, &out, &olen), CD_ERR_CORRUPT);
		ck_assert_msg(olen == len, "%s without its last 4 bytes: %zu "
		    "bytes of %zu", cd_stream_format_name(f), olen, len);
		ck_assert_uint_eq(cd_stream_error(s)->offset, clen - 4);
		cd_stream_free(s);
		free(out);
	}
	at = clen * 3 / 4;
	memset(c + at, 0xff, 8);
	for (flags = 0; flags <= CD_STREAM_THREAD; flags++) {
		const cd_error *e;

		s = cd_stream_open_mem(c, clen, flags);
		ck_assert_int_eq(read_all(s, &out, &olen), CD_ERR_CORRUPT);
		e = cd_stream_error(s);
		/* (bzip2 checks its blocks of 100 KB to 900 KB whole, xz a
		 * few bytes on, zstd its literals with the frame's
		 * checksum) */
		if (f != CD_STREAM_BZIP2) {
			ck_assert_msg(e->offset <= at + 8 + (f == CD_STREAM_XZ ?
			    64 : 0) || (f == CD_STREAM_ZSTD && e->offset ==
			    clen - 4), "%s damaged at %zu, found at %llu",
			    cd_stream_format_name(f), at,
			    (unsigned long long)e->offset);
			ck_assert_msg(e->offset + (130 << 10) > at,
			    "%s damaged at %zu, found at %llu",
			    cd_stream_format_name(f), at,
			    (unsigned long long)e->offset);
			ck_assert_msg(olen > len / 4, "%s: %zu bytes before "
			    "the damage", cd_stream_format_name(f), olen);
		}
		cd_stream_free(s);
		free(out);
	}
	free(c);
	free(text);
}
END_TEST

/* What a stream gave: its status, bytes and error. */
struct got {
	cd_status st;
	char *out;
	size_t len;
	cd_error e;
};

/* Read the n bytes at c as a stream with flags, from memory or (fd)
 * through a file. */
static void
read_got(const unsigned char *c, size_t n, unsigned flags, int fd,
    struct got *g)
{
	FILE *tmp = NULL;
	cd_stream *s;

	if (fd) {
		tmp = tmpfile();
		ck_assert_ptr_nonnull(tmp);
		ck_assert_int_eq(fwrite(c, 1, n, tmp), n);
		fflush(tmp);
		rewind(tmp);
		s = cd_stream_open_fd(fileno(tmp), flags);
	} else
		s = cd_stream_open_mem(c, n, flags);
	ck_assert_ptr_nonnull(s);
	g->st = read_all(s, &g->out, &g->len);
	g->e = *cd_stream_error(s);
	cd_stream_free(s);
	if (tmp != NULL)
		fclose(tmp);
}

/*
 * zstd of many frames (pzstd's, behind skippable frames holding their
 * sizes; plain ones one after the other; other skippable frames between
 * them), whole, cut at random places, with a random byte changed or
 * with bytes that are no frame after them: on 1, 2, 3 and 8 threads,
 * from memory and from a file, the same end (status, offset, message)
 * as one decoder without a thread gives, and the same bytes (before
 * damage, a prefix of them).
 */
START_TEST(test_frames)
{
	static const unsigned threads[] = { 1, 2, 3, 8 };
	size_t len, at = 0, clen = 0, cap, n, k, m;
	unsigned seed = 1000 + (unsigned)_i, v, i, fd;
	char *text = make_text(&len);
	unsigned char *c;

	if (!cd_stream_format_supported(CD_STREAM_ZSTD)) {
		free(text);
		return;
	}
	cap = len + (1 << 16);
	c = malloc(cap);
	ck_assert_ptr_nonnull(c);
	while (at < len) {
		size_t piece = 1 + (size_t)rand_r(&seed) % (len / 6);
		unsigned char *f;
		size_t flen;

		if (piece > len - at)
			piece = len - at;
		f = compress_mem(CD_STREAM_ZSTD, 1 + rand_r(&seed) % 3,
		    text + at, piece, &flen);
		ck_assert_uint_lt(clen + flen + 24, cap);
		switch (rand_r(&seed) % 3) {
		case 0:		/* pzstd's: the size of the frame */
			memcpy(c + clen, "\x50\x2a\x4d\x18\x04\0\0\0", 8);
			c[clen + 8] = (unsigned char)flen;
			c[clen + 9] = (unsigned char)(flen >> 8);
			c[clen + 10] = (unsigned char)(flen >> 16);
			c[clen + 11] = (unsigned char)(flen >> 24);
			clen += 12;
			break;
		case 1:		/* some other skippable frame */
			memcpy(c + clen, "\x5e\x2a\x4d\x18\x03\0\0\0abc", 11);
			clen += 11;
			break;
		default:
			break;
		}
		memcpy(c + clen, f, flen);
		clen += flen;
		at += piece;
		free(f);
	}
	for (v = 0; v < 12; v++) {
		struct got want, got;
		unsigned char *d = malloc(clen + 16);
		size_t dlen = clen;

		ck_assert_ptr_nonnull(d);
		memcpy(d, c, clen);
		if (v >= 1 && v < 5)		/* cut */
			dlen = 6 + (size_t)rand_r(&seed) % (clen - 6);
		else if (v >= 5 && v < 10)	/* a byte changed */
			d[(size_t)rand_r(&seed) % clen] ^= (unsigned char)
			    (1 + rand_r(&seed) % 255);
		else if (v >= 10) {		/* not a frame after them */
			memcpy(d + clen, v == 10 ? "not zstd data" :
			    "\x28\xb5\x2f\xfd\x08", v == 10 ? 13 : 5);
			dlen += v == 10 ? 13 : 5;
		}
		read_got(d, dlen, 0, 0, &want);
		if (v == 0) {
			ck_assert_int_eq(want.st, CD_EOF);
			ck_assert_uint_eq(want.len, len);
			ck_assert(memcmp(want.out, text, len) == 0);
		}
		for (i = 0; i < sizeof(threads) / sizeof(threads[0]); i++)
			for (fd = 0; fd < 2; fd++) {
				read_got(d, dlen, CD_STREAM_THREADS(threads[i]),
				    (int)fd, &got);
				/* (before damage, the bytes of the blocks
				 * decoded whole: how many depends on where
				 * blocks end) */
				ck_assert_msg(got.st == want.st &&
				    (got.st != CD_EOF || got.len ==
				    want.len) && strcmp(got.e.msg,
				    want.e.msg) == 0 && got.e.offset ==
				    want.e.offset, "variant %u, %u threads, "
				    "fd %u: %d %zu \"%s\", not %d %zu \"%s\"",
				    v, threads[i], fd, got.st, got.len,
				    got.e.msg, want.st, want.len, want.e.msg);
				m = got.len < want.len ? got.len : want.len;
				for (k = 0; k < m; k += n) {
					n = m - k < 4096 ? m - k : 4096;
					ck_assert(memcmp(got.out + k,
					    want.out + k, n) == 0);
				}
				free(got.out);
			}
		free(want.out);
		free(d);
	}
	free(c);
	free(text);
}
END_TEST

/* The end of s, read again: the same status and error as *e (the
 * first). */
static void
assert_end_stays(cd_stream *s, cd_status st, const cd_error *e,
    const char *what)
{
	char buf[64];
	size_t n;

	ck_assert_msg(cd_stream_read(s, buf, sizeof(buf), &n) == st && n == 0,
	    "%s: the end %d does not stay", what, st);
	ck_assert_msg(cd_stream_error(s)->status == e->status &&
	    cd_stream_error(s)->offset == e->offset &&
	    strcmp(cd_stream_error(s)->msg, e->msg) == 0,
	    "%s: error %d at %llu \"%s\" read again: %d at %llu \"%s\"", what,
	    e->status, (unsigned long long)e->offset, e->msg,
	    cd_stream_error(s)->status,
	    (unsigned long long)cd_stream_error(s)->offset,
	    cd_stream_error(s)->msg);
}

/*
 * zstd of many frames on threads, from a pipe: a damaged first frame
 * ends the stream with its error, and that error stays while the
 * splitting thread goes on with the rest of the input and meets other
 * damage (here, once the pipe is closed, a second frame cut short):
 * the reader is told the first frame's error, never the rest's, nor
 * one being written.
 */
START_TEST(test_frames_end_stays)
{
	const char *text = "[Event \"a\"]\n1. e4 e5 2. Nf3 Nc6 1-0\n\n";
	unsigned char *a, *b, *all;
	size_t alen, blen, n, k;
	cd_error first;
	cd_stream *s;
	cd_status st;
	char buf[4096];
	int p[2];

	if (!cd_stream_format_supported(CD_STREAM_ZSTD))
		return;
	a = compress_mem(CD_STREAM_ZSTD, 1, text, strlen(text), &alen);
	b = compress_mem(CD_STREAM_ZSTD, 1, text, strlen(text), &blen);
	all = malloc(alen + blen);
	ck_assert_ptr_nonnull(all);
	memcpy(all, a, alen);
	all[alen - 1] ^= 0x55;		/* the first frame's checksum */
	memcpy(all + alen, b, blen);
	ck_assert_int_eq(pipe(p), 0);
	/* the first frame and the start of the second, the pipe open */
	n = alen + blen / 2;
	ck_assert_int_eq(write(p[1], all, n), (ssize_t)n);
	s = cd_stream_open_fd(p[0], CD_STREAM_THREADS(1));
	ck_assert_ptr_nonnull(s);
	alarm(10);
	while ((st = cd_stream_read(s, buf, sizeof(buf), &n)) == CD_OK)
		;
	ck_assert_int_eq(st, CD_ERR_CORRUPT);
	first = *cd_stream_error(s);
	ck_assert_str_ne(first.msg, "");
	ck_assert_uint_le(first.offset, alen);
	/* the rest ends: the splitting thread decodes it, and fails */
	close(p[1]);
	for (k = 0; k < 20; k++) {
		usleep(10000);
		assert_end_stays(s, st, &first, "the first frame damaged");
	}
	alarm(0);
	cd_stream_free(s);
	close(p[0]);
	free(all);
	free(a);
	free(b);
}
END_TEST

/* An input of test_sequence and the end it gave first. */
struct seq_input {
	unsigned char *data;
	size_t len;
	char name[96];
	int seen;
	cd_status st;
	cd_error e;
};

#define SEQ_MAX	64
#define SEQ_LIMIT	((uint64_t)64 << 20)

static void
seq_add(struct seq_input *in, size_t *n, const char *name,
    const unsigned char *d, size_t len)
{
	ck_assert_uint_lt(*n, SEQ_MAX);
	in[*n].data = malloc(len + 1);
	ck_assert_ptr_nonnull(in[*n].data);
	memcpy(in[*n].data, d, len);
	in[*n].len = len;
	snprintf(in[*n].name, sizeof(in[*n].name), "%s", name);
	in[*n].seen = 0;
	(*n)++;
}

/* Read input x as a stream with flags: its end is an error with a
 * message that matches its status, stays when read again, and is the
 * one the input gave the first time it was read in this process. */
static void
seq_read(struct seq_input *x, unsigned flags)
{
	cd_stream *s = cd_stream_open_mem_limit(x->data, x->len, flags,
	    SEQ_LIMIT);
	char *out, what[160];
	const cd_error *e;
	size_t olen;
	cd_status st;

	ck_assert_ptr_nonnull(s);
	st = read_all(s, &out, &olen);
	free(out);
	e = cd_stream_error(s);
	snprintf(what, sizeof(what), "%s, flags %#x", x->name, flags);
	if (st != CD_EOF) {
		ck_assert_msg(e->status == st && e->msg[0] != '\0' &&
		    e->offset <= x->len, "%s: %d, error %d at %llu: \"%s\"",
		    what, st, e->status, (unsigned long long)e->offset,
		    e->msg);
		ck_assert_msg(st != CD_ERR_RANGE ||
		    strstr(e->msg, "limit") != NULL, "%s: range: %s", what,
		    e->msg);
		ck_assert_msg(st != CD_ERR_CORRUPT ||
		    strstr(e->msg, "corrupt") != NULL ||
		    strstr(e->msg, "truncated") != NULL ||
		    strstr(e->msg, "not ") != NULL, "%s: corrupt: %s", what,
		    e->msg);
	}
	assert_end_stays(s, st, e, what);
	if (!x->seen) {
		x->seen = 1;
		x->st = st;
		x->e = *e;
	} else
		ck_assert_msg(st == x->st && (st == CD_EOF ||
		    (e->offset == x->e.offset &&
		    strcmp(e->msg, x->e.msg) == 0)),
		    "%s: %d \"%s\", where it gave %d \"%s\" before", what,
		    st, e->msg, x->st, x->e.msg);
	cd_stream_free(s);
}

/*
 * Streams opened one after another in one process, as pgn-sort -m and
 * any program of the library's users open them: the inputs kept for
 * the stream fuzz harness (tests/fuzz/regress/stream) and, in every
 * format, text whole, cut and with a damaged byte, and zstd frames
 * with damage in the first and more after it; read in order, in the
 * reverse order and shuffled (a fixed seed), each without a thread and
 * on 1 to 3 threads: every input ends as it did the first time, with
 * an error whose message matches its status and stays.
 */
START_TEST(test_sequence)
{
	static struct seq_input in[SEQ_MAX];
	const char *top = getenv("top_srcdir");
	const char *text = "[Event \"a\"]\n1. e4 e5 2. Nf3 Nc6 1-0\n\n";
	char path[4096], name[96];
	size_t n = 0, i, k, len, clen, order[SEQ_MAX];
	unsigned char *c;
	unsigned seed = 4242, pass, t;
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/tests/fuzz/regress/stream",
	    top != NULL ? top : "..");
	if ((dir = opendir(path)) != NULL) {
		while ((d = readdir(dir)) != NULL) {
			FILE *f;
			unsigned char buf[1 << 16];

			if (d->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/tests/fuzz/regress/"
			    "stream/%s", top != NULL ? top : "..", d->d_name);
			if ((f = fopen(path, "rb")) == NULL)
				continue;
			len = fread(buf, 1, sizeof(buf), f);
			fclose(f);
			seq_add(in, &n, d->d_name, buf, len);
		}
		closedir(dir);
	}
	for (i = 0; i < NFORMATS; i++) {
		cd_stream_format f = formats[i];
		char *t2;

		if (f == CD_STREAM_PLAIN || !cd_stream_format_supported(f))
			continue;
		t2 = make_text(&len);
		len /= 16;
		c = compress_mem(f, 1, t2, len, &clen);
		snprintf(name, sizeof(name), "%s whole",
		    cd_stream_format_name(f));
		seq_add(in, &n, name, c, clen);
		snprintf(name, sizeof(name), "%s cut",
		    cd_stream_format_name(f));
		seq_add(in, &n, name, c, clen / 2);
		c[clen / 3] ^= 0x5a;
		snprintf(name, sizeof(name), "%s damaged",
		    cd_stream_format_name(f));
		seq_add(in, &n, name, c, clen);
		free(c);
		free(t2);
	}
	if (cd_stream_format_supported(CD_STREAM_ZSTD)) {
		unsigned char two[512];

		/* a damaged frame, then a frame cut short or a byte */
		c = compress_mem(CD_STREAM_ZSTD, 1, text, strlen(text), &clen);
		ck_assert_uint_lt(2 * clen, sizeof(two));
		memcpy(two, c, clen);
		two[clen - 1] ^= 0x55;
		memcpy(two + clen, c, clen);
		seq_add(in, &n, "zstd damaged frame, frame cut", two,
		    clen + clen / 2);
		seq_add(in, &n, "zstd damaged frame, a byte", two, clen + 1);
		free(c);
	}
	ck_assert_uint_gt(n, 0);
	for (pass = 0; pass < 3; pass++) {
		for (i = 0; i < n; i++)
			order[i] = pass == 1 ? n - 1 - i : i;
		if (pass == 2)
			for (i = n - 1; i > 0; i--) {
				size_t j = (size_t)rand_r(&seed) % (i + 1);

				k = order[i];
				order[i] = order[j];
				order[j] = k;
			}
		for (i = 0; i < n; i++) {
			seq_read(&in[order[i]], 0);
			for (t = 1; t <= 3; t++)
				seq_read(&in[order[i]], CD_STREAM_THREADS(t));
		}
	}
	for (i = 0; i < n; i++)
		free(in[i].data);
}
END_TEST

/* Zero bytes after gzip and bzip2 data: ignored (bzip2 with a
 * warning); something after them: damage there, every byte before it
 * given. */
/*
 * A stream freed while its thread waits for input on a pipe that stays
 * open and silent: cd_stream_free returns at once (the thread looks
 * whether it is stopped while it waits).  gzip, bzip2 and xz on one
 * thread, and zstd of two frames on several (the splitting thread
 * waits for the rest of the second).
 */
START_TEST(test_free_waiting)
{
	/* (gzip, bzip2, xz; zstd of two frames) */
	cd_stream_format f = formats[2 + _i];
	size_t len, clen, c1len = 0, n, k;
	char *one = make_text(&len), *text, buf[4096];
	unsigned char *c, *c1 = NULL, *all;
	int p[2];
	cd_stream *s;

#ifndef F_SETPIPE_SZ
	free(one);
	return;		/* (a pipe of 64 KiB holds too little) */
#endif
	if (!cd_stream_format_supported(f)) {
		free(one);
		return;
	}
	/* (more text than a thread's block before the cut: the reader
	 * gets some while the thread waits for the rest) */
	text = malloc(5 * len);
	ck_assert_ptr_nonnull(text);
	for (k = 0; k < 5; k++)
		memcpy(text + k * len, one, len);
	free(one);
	len *= 5;
	c = compress_mem(f, 1, text, len, &clen);
	if (f == CD_STREAM_ZSTD)	/* a small frame first */
		c1 = compress_mem(f, 1, text, 1000, &c1len);
	all = malloc(c1len + clen);
	ck_assert_ptr_nonnull(all);
	if (c1 != NULL)
		memcpy(all, c1, c1len);
	memcpy(all + c1len, c, clen);
	ck_assert_int_eq(pipe(p), 0);
#ifdef F_SETPIPE_SZ
	ck_assert_int_gt(fcntl(p[1], F_SETPIPE_SZ, 1 << 20), 0);
	/* (all but its end, and the pipe left open) */
	n = c1len + clen - 16;
	if (n > (size_t)fcntl(p[1], F_GETPIPE_SZ))
		n = (size_t)fcntl(p[1], F_GETPIPE_SZ);
#endif
	ck_assert_int_eq(write(p[1], all, n), (ssize_t)n);
	s = cd_stream_open_fd(p[0], f == CD_STREAM_ZSTD ?
	    CD_STREAM_THREADS(2) : CD_STREAM_THREAD);
	ck_assert_ptr_nonnull(s);
	/* some text comes (the first frame's for zstd of two) */
	alarm(10);
	ck_assert_int_eq(cd_stream_read(s, buf, sizeof(buf), &n), CD_OK);
	ck_assert_uint_gt(n, 0);
	cd_stream_free(s);
	alarm(0);
	close(p[0]);
	close(p[1]);
	free(all);
	free(c);
	free(c1);
	free(text);
}
END_TEST

START_TEST(test_zero_padding)
{
	static const cd_stream_format fs[] = { CD_STREAM_GZIP,
	    CD_STREAM_BZIP2 };
	cd_stream_format f = fs[_i];
	const char *a = "[Event \"a\"]\n1. e4 1-0\n\n";
	size_t la, olen, pad = 70000;
	unsigned char *ca, *buf;
	char *out;
	cd_stream *s;
	unsigned flags;

	if (!cd_stream_format_supported(f))
		return;
	ca = compress_mem(f, 1, a, strlen(a), &la);
	buf = calloc(1, la + pad + 1);
	memcpy(buf, ca, la);
	for (flags = 0; flags <= CD_STREAM_THREAD; flags++) {
		s = cd_stream_open_mem(buf, la + pad, flags);
		ck_assert_int_eq(read_all(s, &out, &olen), CD_EOF);
		ck_assert_uint_eq(olen, strlen(a));
		ck_assert_int_eq(cd_stream_warning(s)->status != CD_OK,
		    f == CD_STREAM_BZIP2);
		if (f == CD_STREAM_BZIP2)
			ck_assert_ptr_nonnull(strstr(
			    cd_stream_warning(s)->msg, "70000 zero bytes"));
		cd_stream_free(s);
		free(out);
		buf[la + pad] = 'x';
		s = cd_stream_open_mem(buf, la + pad + 1, flags);
		ck_assert_int_eq(read_all(s, &out, &olen), CD_ERR_CORRUPT);
		ck_assert_uint_eq(olen, strlen(a));
		ck_assert_uint_eq(cd_stream_error(s)->offset, la + pad);
		cd_stream_free(s);
		free(out);
		buf[la + pad] = 0;
	}
	free(buf);
	free(ca);
}
END_TEST

/* A limit below what a zstd frame's window needs: CD_ERR_RANGE, with
 * the window in the message; the memory held stays under the limit. */
START_TEST(test_memlimit)
{
	size_t len, clen, olen;
	char *text = make_text(&len), *out;
	unsigned char *c;
	cd_stream *s;

	if (!cd_stream_format_supported(CD_STREAM_ZSTD)) {
		free(text);
		return;
	}
	c = compress_mem(CD_STREAM_ZSTD, 3, text, len, &clen);
	s = cd_stream_open_mem_limit(c, clen, 0, (uint64_t)1 << 20);
	ck_assert_int_eq(read_all(s, &out, &olen), CD_ERR_RANGE);
	ck_assert_uint_eq(olen, 0);
	ck_assert_msg(strstr(cd_stream_error(s)->msg, "zstd compressed "
	    "input needs 2 MiB of memory, more than the limit of 1 MiB") !=
	    NULL, "%s", cd_stream_error(s)->msg);
	cd_stream_free(s);
	free(out);
	s = cd_stream_open_mem_limit(c, clen, 0, (uint64_t)4 << 20);
	ck_assert_int_eq(read_all(s, &out, &olen), CD_EOF);
	ck_assert_uint_eq(olen, len);
	ck_assert_uint_le(cd_stream_memory(s), (size_t)5 << 20);
	cd_stream_free(s);
	free(out);
	free(c);
	free(text);
}
END_TEST

/* A .zip (stored): a.pgn "x\n", the directory d/, b.pgn (a byte order
 * mark, "y", no line end), c.pgn "z\nw\n". */
static const char zip_abc[] =
	"\x50\x4b\x03\x04\x14\x00\x00\x00\x00\x00\x00\x00\x21\x58\x1f\x08"
	"\xea\x46\x02\x00\x00\x00\x02\x00\x00\x00\x05\x00\x00\x00\x61\x2e"
	"\x70\x67\x6e\x78\x0a\x50\x4b\x03\x04\x14\x00\x00\x00\x00\x00\x00"
	"\x00\x21\x58\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02"
	"\x00\x00\x00\x64\x2f\x50\x4b\x03\x04\x14\x00\x00\x00\x00\x00\x00"
	"\x00\x21\x58\x6c\xe4\xd7\x2c\x04\x00\x00\x00\x04\x00\x00\x00\x05"
	"\x00\x00\x00\x62\x2e\x70\x67\x6e\xef\xbb\xbf\x79\x50\x4b\x03\x04"
	"\x14\x00\x00\x00\x00\x00\x00\x00\x21\x58\x1d\x1c\xfa\xa8\x04\x00"
	"\x00\x00\x04\x00\x00\x00\x05\x00\x00\x00\x63\x2e\x70\x67\x6e\x7a"
	"\x0a\x77\x0a\x50\x4b\x01\x02\x14\x03\x14\x00\x00\x00\x00\x00\x00"
	"\x00\x21\x58\x1f\x08\xea\x46\x02\x00\x00\x00\x02\x00\x00\x00\x05"
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x80\x01\x00\x00\x00"
	"\x00\x61\x2e\x70\x67\x6e\x50\x4b\x01\x02\x14\x03\x14\x00\x00\x00"
	"\x00\x00\x00\x00\x21\x58\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
	"\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x10\x00\xed\x41"
	"\x25\x00\x00\x00\x64\x2f\x50\x4b\x01\x02\x14\x03\x14\x00\x00\x00"
	"\x00\x00\x00\x00\x21\x58\x6c\xe4\xd7\x2c\x04\x00\x00\x00\x04\x00"
	"\x00\x00\x05\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x80\x01"
	"\x45\x00\x00\x00\x62\x2e\x70\x67\x6e\x50\x4b\x01\x02\x14\x03\x14"
	"\x00\x00\x00\x00\x00\x00\x00\x21\x58\x1d\x1c\xfa\xa8\x04\x00\x00"
	"\x00\x04\x00\x00\x00\x05\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
	"\x00\x80\x01\x6c\x00\x00\x00\x63\x2e\x70\x67\x6e\x50\x4b\x05\x06"
	"\x00\x00\x00\x00\x04\x00\x04\x00\xc9\x00\x00\x00\x93\x00\x00\x00"
	"\x00\x00";

struct members {
	char names[64];
	unsigned long lines[4];
	int n;
};

static void
on_member(void *ctx, const char *name, unsigned long line)
{
	struct members *m = ctx;

	ck_assert_int_lt(m->n, 4);
	strcat(m->names, name);
	strcat(m->names, " ");
	m->lines[m->n++] = line;
}

/* The members one after the other, each ending a line, without the
 * byte order mark, the directory passed over; each member announced
 * with the line where it begins, threaded or not; a cut archive is
 * damage after the members before the cut. */
START_TEST(test_zip)
{
	char *buf;
	unsigned flags;
	size_t len, cut;

	if (!cd_stream_format_supported(CD_STREAM_ZIP))
		return;
	ck_assert_int_eq(cd_stream_detect(zip_abc, sizeof(zip_abc) - 1),
	    CD_STREAM_ZIP);
	for (flags = 0; flags <= CD_STREAM_THREAD; flags++) {
		struct members m = { "", { 0 }, 0 };
		cd_stream *s = cd_stream_open_mem(zip_abc, sizeof(zip_abc) - 1,
		    flags);

		ck_assert_int_eq(cd_stream_get_format(s), CD_STREAM_ZIP);
		cd_stream_on_member(s, on_member, &m);
		ck_assert_int_eq(read_all(s, &buf, &len), CD_EOF);
		ck_assert_uint_eq(len, 8);
		ck_assert(memcmp(buf, "x\ny\nz\nw\n", 8) == 0);
		free(buf);
		ck_assert_str_eq(m.names, "a.pgn b.pgn c.pgn ");
		ck_assert_int_eq(m.n, 3);
		ck_assert_uint_eq(m.lines[0], 1);
		ck_assert_uint_eq(m.lines[1], 2);
		ck_assert_uint_eq(m.lines[2], 3);
		cd_stream_free(s);
	}
	/* cut anywhere after the first member's data: an error, and a
	 * prefix of the bytes */
	for (cut = 40; cut < sizeof(zip_abc) - 30; cut += 7) {
		cd_stream *s = cd_stream_open_mem(zip_abc, cut,
		    cut % 2 ? CD_STREAM_THREAD : 0);
		cd_status st = read_all(s, &buf, &len);

		ck_assert_msg(st == CD_ERR_CORRUPT, "cut at %zu: %d", cut, st);
		ck_assert(len <= 8 && memcmp(buf, "x\ny\nz\nw\n", len) == 0);
		ck_assert_str_ne(cd_stream_error(s)->msg, "");
		free(buf);
		cd_stream_free(s);
	}
}
END_TEST

/* Other archives and binary formats: refused at the first read, by
 * name; the same bytes after a text line are text. */
START_TEST(test_foreign)
{
	static const struct { const char *head; size_t len; const char *what; }
	    t[] = {
		{ "7z\xbc\xaf\x27\x1c\0\4", 8, "7-Zip archives are not read" },
		{ "Rar!\x1a\x07\0", 7, "RAR archives are not read" },
		{ "%PDF-1.7\n", 9, "PDF documents are not read" },
		{ "\x7f" "ELF\2\1", 6, "ELF executables are not read" },
		{ "\xff\xd8\xff\xe0", 4, "JPEG images are not read" }
	};
	unsigned char buf[64];
	size_t i, n;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		cd_stream *s = cd_stream_open_mem(t[i].head, t[i].len, 0);

		ck_assert_int_eq(cd_stream_read(s, buf, sizeof(buf), &n),
		    CD_ERR_UNSUPPORTED);
		ck_assert_uint_eq(n, 0);
		ck_assert_str_eq(cd_stream_error(s)->msg, t[i].what);
		cd_stream_free(s);
		ck_assert_str_eq(cd_sniff_format(t[i].head, t[i].len),
		    t[i].what[0] == '7' ? "7-Zip archives" :
		    t[i].what[0] == 'R' ? "RAR archives" :
		    t[i].what[0] == 'P' ? "PDF documents" :
		    t[i].what[0] == 'E' ? "ELF executables" : "JPEG images");
		ck_assert_ptr_null(cd_sniff_format(t[i].head, t[i].len - 1 <
		    3 ? 0 : 2));
	}
	ck_assert_ptr_null(cd_sniff_format("[Event \"x\"]\n", 12));
	ck_assert_ptr_null(cd_sniff_format("\x05\x02", 2));	/* PGC */
}
END_TEST

/* A tar header is known by its checksum, not by "ustar" alone. */
START_TEST(test_tar)
{
	unsigned char h[512];
	unsigned long sum = 0;
	size_t i;

	memset(h, 0, sizeof(h));
	memcpy(h, "t/a.pgn", 7);
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	memset(h + 148, ' ', 8);
	for (i = 0; i < sizeof(h); i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06lo", sum);
	ck_assert_str_eq(cd_sniff_format(h, sizeof(h)), "tar archives");
	ck_assert_ptr_null(cd_sniff_format(h, sizeof(h) - 1));
	h[0] = 'u';	/* the checksum no longer holds */
	ck_assert_ptr_null(cd_sniff_format(h, sizeof(h)));
}
END_TEST

START_TEST(test_writer_args)
{
	cd_stream *w;
	int lo, hi, d;

	cd_stream_levels(CD_STREAM_GZIP, &lo, &hi, &d);
	ck_assert_int_eq(lo, 1);
	ck_assert_int_eq(hi, 9);
	w = cd_stream_open_write_fd(-1, CD_STREAM_GZIP, 10);
	ck_assert_int_ne(cd_stream_error(w)->status, CD_OK);
	ck_assert_int_ne(cd_stream_write(w, "x", 1), CD_OK);
	cd_stream_free(w);
	/* a write error is reported, not a crash */
	w = cd_stream_open_write_fd(-1, CD_STREAM_PLAIN, -1);
	ck_assert_int_eq(cd_stream_write(w, "x", 1), CD_ERR_IO);
	ck_assert_int_eq(cd_stream_error(w)->status, CD_ERR_IO);
	cd_stream_free(w);
	cd_stream_free(NULL);
}
END_TEST

static Suite *
stream_suite(void)
{
	Suite *s = suite_create("stream");
	TCase *tc = tcase_create("stream");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_names);
	tcase_add_loop_test(tc, test_roundtrip, 0, NFORMATS);
	tcase_add_loop_test(tc, test_concat, 0, NFORMATS);
	tcase_add_loop_test(tc, test_damage, 0, NFORMATS);
	tcase_add_loop_test(tc, test_damage_place, 0, NFORMATS);
	tcase_add_loop_test(tc, test_zero_padding, 0, 2);
	tcase_add_loop_test(tc, test_frames, 0, 3);
	tcase_add_loop_test(tc, test_free_waiting, 0, 4);
	tcase_add_test(tc, test_frames_end_stays);
	tcase_add_test(tc, test_sequence);
	tcase_add_test(tc, test_memlimit);
	tcase_add_test(tc, test_writer_args);
	tcase_add_test(tc, test_zip);
	tcase_add_test(tc, test_foreign);
	tcase_add_test(tc, test_tar);
	suite_add_tcase(s, tc);
	return s;
}

TU_SUITES(stream_suite);
