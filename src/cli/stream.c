/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cli/stream.c: compressed inputs for every tool (see cli.h): the
 * readers of an input read it through the library's stream layer (a
 * compressed input known by its magic bytes) with the options' flags
 * and memory limit.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chessdata.h"
#include "cli.h"

static uint64_t opt_memlimit;	/* --memlimit; 0: the library's default */
unsigned cli_pgn_flags;
static unsigned in_flags = CD_STREAM_THREAD;

void
cli_input_memlimit(uint64_t bytes)
{
	opt_memlimit = bytes;
}

/* The inputs open, by FILE, with the names messages give them (for
 * the members of a .zip: cli_msg_member). */
static struct open_input {
	FILE *f;
	const char *file;
} *open_inputs;
static size_t nopen, open_cap;

void
cli_input_named(FILE *f, const char *file)
{
	cli_grow(&open_inputs, &open_cap, nopen, sizeof(*open_inputs), 8);
	open_inputs[nopen].f = f;
	open_inputs[nopen++].file = file;
}

void
cli_input_closed(FILE *f)
{
	size_t i;

	for (i = nopen; i-- > 0;)
		if (open_inputs[i].f == f) {
			open_inputs[i] = open_inputs[--nopen];
			break;
		}
}

cd_stream *
cli_input_stream(FILE *f)
{
	cd_stream *s = cd_stream_open_fd_limit(fileno(f), in_flags,
	    opt_memlimit);
	size_t i;

	if (s == NULL)
		cli_fatal("out of memory");
	for (i = nopen; i-- > 0;)
		if (open_inputs[i].f == f) {
			cli_msg_members_forget(open_inputs[i].file);
			cd_stream_on_member(s, cli_msg_member,
			    (void *)(uintptr_t)open_inputs[i].file);
			break;
		}
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
	cd_pgn_reader *r = reader_made(fileno(f) < 0 ? cd_pgn_reader_new(f) :
	    cd_pgn_reader_open_stream(cli_input_stream(f)));

	if (cli_pgn_flags != 0)
		cd_pgn_reader_set_flags(r, cli_pgn_flags);
	return r;
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

int
cli_read_end(const char *name, cd_status st, const cd_error *err,
    const cd_stream *s)
{
	const char *member, *why;
	int ret = 0, e = errno;
	size_t k;

	if (st == CD_ERR_NOMEM)
		cli_fatal("out of memory");
	/* the members of a .zip passed over, unread: as inputs that could
	 * not be read */
	for (k = 0; s != NULL && cd_stream_skipped(s, k, &member, &why); k++) {
		cli_warn("%s:%s: %s", name, member, why);
		ret = 2;
	}
	if (st == CD_ERR_IO && err != NULL && err->status != CD_OK) {
		cli_warn("%s: %s%s", name, err->msg, err->status ==
		    CD_ERR_RANGE ? " (--memlimit)" : "");
		return 2;
	}
	if (st == CD_ERR_IO) {
		cli_warn("%s: read error: %s", name, strerror(e));
		return 2;
	}
	/* input read past (zeros after bzip2 data), said at its end */
	if (s != NULL && cd_stream_warning(s)->status != CD_OK)
		cli_warn("%s: %s", name, cd_stream_warning(s)->msg);
	return ret;
}
