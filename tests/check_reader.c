/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_reader.c: the readers' own input.  For the PGN, EPD and PGC
 * readers and every compression format this build has: a compressed
 * file read by _open (path), _open_fd (a descriptor it leaves open),
 * _open_stream and _new on an fopen'd FILE gives the same games or
 * lines as the plain text; cut short at several places it gives the
 * games complete before the cut, then CD_ERR_IO with the stream's own
 * message in cd_X_error ("truncated zstd input ..."), never a clean
 * end; the compressed bytes in a FILE without a descriptor fail at
 * once (never junk games); a missing file fails at the first read.
 */
#include "config.h"

#define _GNU_SOURCE 1	/* fmemopen */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chessdata.h"
#include "check-main.h"

enum { PGN, EPD, PGC, NKINDS };
static const char *const kind_names[] = { "pgn", "epd", "pgc" };
#define NGAMES	300

static const cd_stream_format formats[] = {
	CD_STREAM_PLAIN, CD_STREAM_ZSTD, CD_STREAM_GZIP, CD_STREAM_BZIP2,
	CD_STREAM_XZ
};
#define NFORMATS 5

/* Append n bytes to b. */
static void
append(cd_buf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2;
		b->data = realloc(b->data, b->cap);
		ck_assert_ptr_nonnull(b->data);
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

/* The plain bytes of kind k: NGAMES games (or lines) that differ. */
static char *
make_text(int k, size_t *len)
{
	static const char *const moves[] = { "e4 e5", "d4 d5", "c4 e5",
	    "Nf3 d5", "e4 c5" };
	cd_buf out = { 0 };
	char line[256];
	unsigned i;

	for (i = 0; i < NGAMES; i++) {
		int n;

		if (k == EPD)
			n = snprintf(line, sizeof(line), "rnbqkbnr/pppppppp/"
			    "8/8/%d/8/PPPPPPPP/RNBQKBNR w KQkq - id \"%u\";\n",
			    1 + i % 8, i);
		else
			n = snprintf(line, sizeof(line), "[Event \"e%u\"]\n"
			    "[White \"w%u\"]\n[Black \"b\"]\n[Result \"*\"]\n"
			    "\n1. %s *\n\n", i, i, moves[i % 5]);
		if (k == PGC) {
			cd_game *g = cd_game_new();

			ck_assert_ptr_nonnull(g);
			ck_assert_int_eq(cd_pgn_parse_text(g, line,
			    (size_t)n, NULL, NULL), CD_OK);
			ck_assert_int_eq(cd_pgc_encode(g, 0, &out, NULL,
			    NULL), CD_OK);
			cd_game_free(g);
			continue;
		}
		append(&out, line, (size_t)n);
	}
	*len = out.len;
	return out.data;
}

/* len bytes at text compressed in format f, as a file: its name (in a
 * static buffer), its compressed size in *clen. */
static const char *
make_file(cd_stream_format f, const char *text, size_t len, off_t *clen)
{
	static char path[64];
	cd_stream *w;
	int fd;

	strcpy(path, "check_reader.XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	w = cd_stream_open_write_fd(fd, f, -1);
	ck_assert_ptr_nonnull(w);
	ck_assert_int_eq(cd_stream_write(w, text, len), CD_OK);
	ck_assert_int_eq(cd_stream_finish(w), CD_OK);
	cd_stream_free(w);
	*clen = lseek(fd, 0, SEEK_END);
	close(fd);
	return path;
}

/* How a reader is made. */
enum { BY_PATH, BY_FD, BY_STREAM, BY_FILE, NWAYS };

struct rd {
	int kind;
	cd_pgn_reader *pgn;
	cd_epd_reader *epd;
	cd_pgc_reader *pgc;
	cd_game *g;
	FILE *f;
	int fd;
};

static void
rd_init(struct rd *r, int kind)
{
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->fd = -1;
	r->g = cd_game_new();
	ck_assert_ptr_nonnull(r->g);
}

static void
rd_open(struct rd *r, int kind, int way, const char *path)
{
	cd_stream *s = NULL;

	rd_init(r, kind);
	if (way == BY_FD || way == BY_STREAM) {
		r->fd = open(path, O_RDONLY);
		ck_assert_int_ge(r->fd, 0);
	}
	if (way == BY_STREAM)
		s = cd_stream_open_fd(r->fd, 0);
	if (way == BY_FILE) {
		r->f = fopen(path, "rb");
		ck_assert_ptr_nonnull(r->f);
	}
#define OPEN(k) (way == BY_PATH ? cd_##k##_reader_open(path) : \
	    way == BY_FD ? cd_##k##_reader_open_fd(r->fd) : way == BY_STREAM ? \
	    cd_##k##_reader_open_stream(s) : cd_##k##_reader_new(r->f))
	if (kind == PGN)
		ck_assert_ptr_nonnull(r->pgn = OPEN(pgn));
	else if (kind == EPD)
		ck_assert_ptr_nonnull(r->epd = OPEN(epd));
	else
		ck_assert_ptr_nonnull(r->pgc = OPEN(pgc));
#undef OPEN
}

/* The next game or line: CD_OK, CD_EOF or the error; its first bytes
 * (the White tag, the EPD line, the PGC game's Event) in key. */
static cd_status
rd_next(struct rd *r, char *key, size_t cap)
{
	cd_pgn_raw_game raw;
	const char *line, *v;
	size_t len;
	cd_status st;

	if (r->kind == PGN) {
		if ((st = cd_pgn_reader_next(r->pgn, &raw)) == CD_OK)
			snprintf(key, cap, "%s", cd_pgn_raw_tag(&raw,
			    "White")->value);
		return st;
	}
	if (r->kind == EPD) {
		if ((st = cd_epd_reader_next(r->epd, &line, &len)) == CD_OK)
			snprintf(key, cap, "%.*s", (int)len, line);
		return st;
	}
	if ((st = cd_pgc_reader_next(r->pgc, r->g, NULL)) == CD_OK) {
		v = cd_game_tag_value(r->g, "White", &len);
		snprintf(key, cap, "%s", v != NULL ? v : "?");
	}
	return st;
}

static const cd_error *
rd_error(const struct rd *r)
{
	return r->kind == PGN ? cd_pgn_reader_error(r->pgn) :
	    r->kind == EPD ? cd_epd_reader_error(r->epd) :
	    cd_pgc_reader_error(r->pgc);
}

static void
rd_close(struct rd *r)
{
	cd_pgn_reader_free(r->pgn);
	cd_epd_reader_free(r->epd);
	cd_pgc_reader_free(r->pgc);
	cd_game_free(r->g);
	if (r->f != NULL)
		fclose(r->f);
	if (r->fd >= 0) {
		/* a descriptor given is never closed by the reader */
		ck_assert_int_ge(fcntl(r->fd, F_GETFD), 0);
		close(r->fd);
	}
}

/* Read all of path: the number of games or lines, their keys into
 * keys (NGAMES of 64 bytes), the end status. */
static cd_status
read_all(int kind, int way, const char *path, char (*keys)[64],
    unsigned *n, char *msg, size_t msgcap)
{
	struct rd r;
	char key[64];
	cd_status st;

	rd_open(&r, kind, way, path);
	*n = 0;
	while ((st = rd_next(&r, key, sizeof(key))) == CD_OK) {
		ck_assert_uint_lt(*n, NGAMES);
		if (keys != NULL)
			strcpy(keys[*n], key);
		(*n)++;
	}
	snprintf(msg, msgcap, "%s", rd_error(&r)->msg);
	if (st != CD_EOF)
		ck_assert_int_ne(rd_error(&r)->status, CD_OK);
	rd_close(&r);
	return st;
}

/* Every kind, format and way: the whole file reads as the text; a cut
 * file gives the games before the cut, then the stream's message. */
START_TEST(test_formats)
{
	int kind = _i / NFORMATS;
	cd_stream_format f = formats[_i % NFORMATS];
	static char want[NGAMES][64], got[NGAMES][64];
	char msg[CD_ERROR_MSG_MAX], prefix[64];
	unsigned nw, ng, i;
	int way;
	size_t len;
	off_t clen, cut;
	char *text;
	const char *path;

	if (!cd_stream_format_supported(f))
		return;
	text = make_text(kind, &len);
	path = make_file(CD_STREAM_PLAIN, text, len, &clen);
	ck_assert_int_eq(read_all(kind, BY_PATH, path, want, &nw, msg,
	    sizeof(msg)), CD_EOF);
	ck_assert_uint_eq(nw, NGAMES);
	unlink(path);
	path = make_file(f, text, len, &clen);
	for (way = 0; way < NWAYS; way++) {
		ck_assert_int_eq(read_all(kind, way, path, got, &ng, msg,
		    sizeof(msg)), CD_EOF);
		ck_assert_uint_eq(ng, nw);
		for (i = 0; i < ng; i++)
			ck_assert_str_eq(got[i], want[i]);
	}
	if (f != CD_STREAM_PLAIN) {
		snprintf(prefix, sizeof(prefix), "truncated %s input",
		    cd_stream_format_name(f));
		/* (from the end: each cut shortens the file) */
		for (cut = clen - 1; cut > 0; cut = cut > 20 ? cut / 3 : 0) {
			ck_assert_int_eq(truncate(path, cut), 0);
			for (way = 0; way < NWAYS; way++) {
				cd_status st = read_all(kind, way, path, got,
				    &ng, msg, sizeof(msg));

				ck_assert_msg(st == CD_ERR_IO, "%s %s cut at "
				    "%lld by way %d: status %d, %u games",
				    kind_names[kind], cd_stream_format_name(f),
				    (long long)cut, way, st, ng);
				ck_assert_msg(strncmp(msg, prefix,
				    strlen(prefix)) == 0, "message '%s'", msg);
				ck_assert_uint_le(ng, nw);
				for (i = 0; i < ng; i++)
					ck_assert_str_eq(got[i], want[i]);
			}
		}
	}
	unlink(path);
	free(text);
}
END_TEST

/* Compressed bytes in a FILE without a descriptor: an error at once,
 * no game; plain bytes in one read as usual. */
START_TEST(test_no_descriptor)
{
	int kind = _i / NFORMATS;
	cd_stream_format f = formats[_i % NFORMATS];
	size_t len, clen;
	off_t csize;
	char *text, *bytes, key[64];
	const char *path;
	struct rd r;
	cd_status st;
	unsigned n = 0;
	FILE *cf;
	int fd;

	if (!cd_stream_format_supported(f))
		return;
	text = make_text(kind, &len);
	path = make_file(f, text, len, &csize);
	clen = (size_t)csize;
	bytes = malloc(clen);
	ck_assert_ptr_nonnull(bytes);
	fd = open(path, O_RDONLY);
	ck_assert_int_eq(pread(fd, bytes, clen, 0), (ssize_t)clen);
	close(fd);
	unlink(path);
	cf = fmemopen(bytes, clen, "rb");
	ck_assert_ptr_nonnull(cf);
	rd_init(&r, kind);
	r.f = cf;
	if (kind == PGN)
		r.pgn = cd_pgn_reader_new(cf);
	else if (kind == EPD)
		r.epd = cd_epd_reader_new(cf);
	else
		r.pgc = cd_pgc_reader_new(cf);
	while ((st = rd_next(&r, key, sizeof(key))) == CD_OK)
		n++;
	if (f == CD_STREAM_PLAIN) {
		ck_assert_int_eq(st, CD_EOF);
		ck_assert_uint_eq(n, NGAMES);
	} else {
		ck_assert_int_eq(st, CD_ERR_IO);
		ck_assert_uint_eq(n, 0);
		ck_assert_int_eq(rd_error(&r)->status, CD_ERR_UNSUPPORTED);
		ck_assert_ptr_nonnull(strstr(rd_error(&r)->msg,
		    cd_stream_format_name(f)));
	}
	rd_close(&r);
	free(bytes);
	free(text);
}
END_TEST

/* A file that does not open: NULL never; the first read fails with the
 * system's reason. */
START_TEST(test_missing)
{
	char msg[CD_ERROR_MSG_MAX];
	unsigned n;

	ck_assert_int_eq(read_all(_i, BY_PATH, "no/such/file.pgn.zst", NULL,
	    &n, msg, sizeof(msg)), CD_ERR_IO);
	ck_assert_uint_eq(n, 0);
	ck_assert_str_eq(msg, "cannot open: No such file or directory");
}
END_TEST

/* The memory limit of a stream the caller opened holds: an xz input
 * whose dictionary is over it fails with CD_ERR_RANGE. */
START_TEST(test_open_stream_limit)
{
	size_t len, i;
	char *text = malloc(len = (size_t)64 << 10);
	const char *path;
	cd_pgn_reader *r;
	cd_pgn_raw_game g;
	cd_stream *w;
	off_t clen;
	int fd;

	if (!cd_stream_format_supported(CD_STREAM_XZ)) {
		free(text);
		return;
	}
	ck_assert_ptr_nonnull(text);
	/* xz at level 3 takes a 4 MiB dictionary, whatever the input */
	for (i = 0; i < len; i++)
		text[i] = (char)('a' + (i * 7 + i / 13) % 26);
	path = make_file(CD_STREAM_PLAIN, "", 0, &clen);
	fd = open(path, O_WRONLY | O_TRUNC);
	w = cd_stream_open_write_fd(fd, CD_STREAM_XZ, 3);
	ck_assert_int_eq(cd_stream_write(w, text, len), CD_OK);
	ck_assert_int_eq(cd_stream_finish(w), CD_OK);
	cd_stream_free(w);
	close(fd);
	fd = open(path, O_RDONLY);
	r = cd_pgn_reader_open_stream(cd_stream_open_fd_limit(fd, 0,
	    (uint64_t)1 << 20));
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(cd_pgn_reader_next(r, &g), CD_ERR_IO);
	ck_assert_int_eq(cd_pgn_reader_error(r)->status, CD_ERR_RANGE);
	ck_assert_int_eq(cd_stream_get_format(cd_pgn_reader_stream(r)),
	    CD_STREAM_XZ);
	cd_pgn_reader_free(r);
	ck_assert_int_ge(fcntl(fd, F_GETFD), 0);
	close(fd);
	unlink(path);
	free(text);
	ck_assert_ptr_null(cd_pgn_reader_open_stream(NULL));
}
END_TEST

static Suite *
reader_suite(void)
{
	Suite *s = suite_create("reader");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_formats, 0, NKINDS * NFORMATS);
	tcase_add_loop_test(tc, test_no_descriptor, 0, NKINDS * NFORMATS);
	tcase_add_loop_test(tc, test_missing, 0, NKINDS);
	tcase_add_test(tc, test_open_stream_limit);
	suite_add_tcase(s, tc);
	return s;
}

TU_SUITES(reader_suite);
