/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cli-stream.c: compressed inputs for every tool (see
 * cli.h): cli_open_input hands a compressed input (known by its magic
 * bytes) to the library's stream layer and gives the tool a FILE of the
 * decompressed text.
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

static uint64_t opt_memlimit;	/* --memlimit; 0: the library's default */
static unsigned in_flags = CD_STREAM_THREAD;

void
cli_input_memlimit(uint64_t bytes)
{
	opt_memlimit = bytes;
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
