/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cli-stream.c: compressed inputs and output for every tool (see
 * cli.h): cli_open_input hands a compressed input (known by its magic
 * bytes) to the library's stream layer and gives the tool a FILE of the
 * decompressed text; cli_output_open puts a compressing FILE over the
 * output when -z or the suffix of -o asks for one.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chessdata.h"
#include "cli.h"

/* The inputs read through a stream: the FILE the tool reads, the one
 * under it, the stream (freed by fclose of the first). */
struct zin {
	FILE *f, *under;
	cd_stream *s;
	const char *name;
	int reported;
};
static struct zin *zins;
static size_t nzins, zincap;

static int opt_format = -1;	/* -z; -1: from the suffix of -o */
static int opt_level = -1;	/* --level; -1: the format's default */
static uint64_t opt_memlimit;	/* --memlimit; 0: the library's default */
static unsigned in_flags = CD_STREAM_THREAD;
static FILE *zout, *zout_under;

/* A size for --memlimit, in the size syntax of every tool (cli_parse_size:
 * bytes, or K, M, G, T for KiB, MiB, GiB, TiB), at least 1 MiB. */
static uint64_t
parse_memlimit(const char *arg)
{
	uint64_t v = cli_parse_size("--memlimit", arg, 1, 0);

	if (v < ((uint64_t)1 << 20))
		cli_usage_error("memory limit '%s' is less than 1 MiB", arg);
	return v;
}

void
cli_compress_option(int c, const char *arg)
{
	char *end;
	long v;

	if (c == CLI_OPT_MEMLIMIT) {
		opt_memlimit = parse_memlimit(arg);
		return;
	}
	if (c == 'z') {
		opt_format = cd_stream_format_parse(arg);
		if (opt_format < 0)
			cli_usage_error("unknown compression format '%s' "
			    "(zstd, gzip, bzip2, xz or plain)", arg);
		return;
	}
	v = strtol(arg, &end, 10);
	if (end == arg || *end != '\0' || v < 0 || v > 99)
		cli_usage_error("invalid compression level '%s'", arg);
	opt_level = (int)v;
}

FILE *
cli__input_open(FILE *f, const char *name)
{
	unsigned char head[8];
	int fd = fileno(f);
	off_t at;
	ssize_t n;
	cd_stream *s;
	FILE *zf;

	if (fd < 0 || isatty(fd))
		return f;
	/* a file: look at its first bytes without taking them */
	at = lseek(fd, 0, SEEK_CUR);
	if (at >= 0) {
		do
			n = pread(fd, head, sizeof(head), at);
		while (n < 0 && errno == EINTR);
		if (n >= 0 && cd_stream_detect(head, (size_t)n) ==
		    CD_STREAM_PLAIN)
			return f;
	}
	/* compressed, or a pipe: the stream reads the first bytes */
	if ((s = cd_stream_open_fd_limit(fd, in_flags, opt_memlimit)) == NULL ||
	    (zf = cd_stream_fopen(s, "r")) == NULL)
		cli_fatal("out of memory");
	setvbuf(zf, NULL, _IOFBF, 1 << 16);
	if (nzins == zincap) {
		zincap = zincap ? 2 * zincap : 8;
		if ((zins = realloc(zins, zincap * sizeof(*zins))) == NULL)
			cli_fatal("out of memory");
	}
	zins[nzins].f = zf;
	zins[nzins].under = f;
	zins[nzins].s = s;
	zins[nzins].name = name;
	zins[nzins].reported = 0;
	nzins++;
	return zf;
}

static struct zin *
zin_find(FILE *f)
{
	size_t i;

	for (i = 0; i < nzins; i++)
		if (zins[i].f == f)
			return &zins[i];
	return NULL;
}

int
cli_input_threaded(FILE *f)
{
	struct zin *z = zin_find(f);

	return z != NULL && (in_flags & CD_STREAM_THREAD) &&
	    cd_stream_get_format(z->s) != CD_STREAM_PLAIN;
}

void
cli_input_unthreaded(void)
{
	in_flags &= ~(unsigned)CD_STREAM_THREAD;
}

size_t
cli_input_memory(FILE *f)
{
	struct zin *z = zin_find(f);

	return z != NULL ? cd_stream_memory(z->s) : 0;
}

FILE *
cli__input_close(FILE *f)
{
	struct zin *z = zin_find(f);
	FILE *under;

	if (z == NULL)
		return f;
	under = z->under;
	/* input read past (zeros after bzip2 data), said at its end */
	if (cd_stream_get_warning(z->s)->status != CD_OK &&
	    cd_stream_get_error(z->s)->status == CD_OK)
		cli_warn("%s: %s", z->name, cd_stream_get_warning(z->s)->msg);
	fclose(z->f);
	*z = zins[--nzins];
	return under;
}

int
cli__input_error(const char *name)
{
	size_t i;

	for (i = 0; i < nzins; i++) {
		const cd_error *e = cd_stream_get_error(zins[i].s);

		if (zins[i].name != name || e->status == CD_OK)
			continue;
		if (!zins[i].reported)
			cli_warn("%s: %s%s", name, e->msg,
			    e->status == CD_ERR_RANGE ? " (--memlimit)" : "");
		zins[i].reported = 1;
		return 1;
	}
	return 0;
}

FILE *
cli__output_open(FILE *f, const char *path)
{
	cd_stream_format fmt = CD_STREAM_PLAIN;
	const cd_error *e;
	cd_stream *s;

	if (path != NULL && strcmp(path, "-") != 0)
		fmt = cd_stream_format_suffix(path);
	if (opt_format >= 0 && (cd_stream_format)opt_format != fmt &&
	    fmt != CD_STREAM_PLAIN)
		/* -z wins, but the name will mislead */
		cli_warn("warning: %s is written as %s data, not as its name "
		    "says (%s)", path, cd_stream_format_name(
		    (cd_stream_format)opt_format), cd_stream_format_name(fmt));
	if (opt_format >= 0)
		fmt = (cd_stream_format)opt_format;
	if (fmt == CD_STREAM_PLAIN) {
		if (opt_level >= 0 && opt_format < 0)
			cli_usage_error("--level needs -z or an output file "
			    "named .zst, .gz, .bz2 or .xz");
		return f;
	}
	if ((s = cd_stream_open_write_fd(fileno(f), fmt, opt_level)) == NULL)
		cli_fatal("out of memory");
	e = cd_stream_get_error(s);
	if (e->status != CD_OK) {
		char msg[sizeof(e->msg)];

		memcpy(msg, e->msg, sizeof(msg));
		cd_stream_free(s);
		cli_usage_error("%s", msg);
	}
	if ((zout = cd_stream_fopen(s, "w")) == NULL)
		cli_fatal("out of memory");
	setvbuf(zout, NULL, _IOFBF, 1 << 17);
	zout_under = f;
	return zout;
}

FILE *
cli__output_end(FILE *f)
{
	FILE *c = zout;

	if (c == NULL || f != c)
		return f;
	zout = NULL;
	errno = 0;
	if (fclose(c) != 0) {
		if (errno == 0)
			errno = EIO;
		return NULL;
	}
	return zout_under;
}
