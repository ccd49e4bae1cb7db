/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cli-stream.c: compressed inputs and output for every tool (see
 * cli.h): the readers of an input read it through the library's stream
 * layer (a compressed input known by its magic bytes) with the options'
 * flags and memory limit; cli_output_open puts a compressing FILE over the
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

cd_stream *
cli_input_stream(FILE *f)
{
	cd_stream *s = cd_stream_open_fd_limit(fileno(f), in_flags,
	    opt_memlimit);

	if (s == NULL)
		cli_fatal("out of memory");
	return s;
}

/* A reader made by new, or out of memory. */
static void *
reader_made(void *r)
{
	if (r == NULL)
		cli_fatal("out of memory");
	return r;
}

cd_pgn_reader *
cli_pgn_reader_new(FILE *f)
{
	return reader_made(fileno(f) < 0 ? cd_pgn_reader_new(f) :
	    cd_pgn_reader_open_stream(cli_input_stream(f)));
}

cd_epd_reader *
cli_epd_reader_new(FILE *f)
{
	return reader_made(fileno(f) < 0 ? cd_epd_reader_new(f) :
	    cd_epd_reader_open_stream(cli_input_stream(f)));
}

cd_pgc_reader *
cli_pgc_reader_new(FILE *f)
{
	return reader_made(fileno(f) < 0 ? cd_pgc_reader_new(f) :
	    cd_pgc_reader_open_stream(cli_input_stream(f)));
}

int
cli_input_compressed(FILE *f)
{
	unsigned char head[8];
	int fd = fileno(f);
	off_t at;
	ssize_t n;

	/* a file: its first bytes looked at without taking them */
	if (fd < 0 || (at = lseek(fd, 0, SEEK_CUR)) < 0)
		return 0;
	do
		n = pread(fd, head, sizeof(head), at);
	while (n < 0 && errno == EINTR);
	return n > 0 && cd_stream_detect(head, (size_t)n) != CD_STREAM_PLAIN;
}

int
cli_input_threaded(const cd_stream *s)
{
	return s != NULL && (in_flags & CD_STREAM_THREAD) &&
	    cd_stream_get_format(s) != CD_STREAM_PLAIN;
}

void
cli_input_unthreaded(void)
{
	in_flags &= ~(unsigned)CD_STREAM_THREAD;
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
	e = cd_stream_error(s);
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
