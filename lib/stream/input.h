/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * input.h: where the readers of games and lines (pgn/read.c, epd/read.c,
 * pgc.c) get their bytes.  An input is a file the reader opened itself
 * (and closes), a descriptor or a stream of the caller's, or a stdio
 * FILE; every one but a FILE without a descriptor is read through a
 * stream (stream.c), so compressed bytes are found by their magic and
 * decompressed, and a failure carries the stream's own message
 * ("truncated zstd input: ...").  A FILE without a descriptor
 * (fmemopen, fopencookie) is read with fread(3); compressed bytes at
 * its start fail (CD_ERR_UNSUPPORTED), never read as text.
 */
#ifndef CD_INPUT_H
#define CD_INPUT_H

#include <stdio.h>
#include <chessdata/base.h>
#include <chessdata/stream.h>

struct cd__input {
	cd_stream *s;		/* the stream read, or NULL */
	FILE *f;		/* a FILE without a descriptor, or NULL */
	int fd;			/* a descriptor opened here, or -1 */
	int checked;		/* f: its first bytes were looked at */
	cd_status st;		/* sticky: CD_OK, CD_EOF or an error */
	cd_error err;		/* the error (status CD_OK: none) */
	int sys_errno;		/* the system's reason for it, or 0 */
};

/* Each sets in up (every field); CD_OK, or CD_ERR_NOMEM (nothing to
 * free).  A file that cannot be opened is an input whose first read
 * fails with the reason. */
cd_status cd__input_open(struct cd__input *in, const char *path);
cd_status cd__input_open_fd(struct cd__input *in, int fd);
/* The stream s (a reading one), freed by cd__input_close; CD_ERR_ARG
 * when s is NULL. */
cd_status cd__input_open_stream(struct cd__input *in, cd_stream *s);
cd_status cd__input_new_file(struct cd__input *in, FILE *f);
/* No input: the reader reads memory. */
void cd__input_none(struct cd__input *in);

/*
 * Up to cap bytes into buf, *n of them: CD_OK (*n > 0), CD_EOF, or the
 * input's error, kept in in->err (the stream's status and message)
 * with errno set (the system's reason, else EIO or ENOMEM); every
 * later call gives the same end.
 */
cd_status cd__input_read(struct cd__input *in, void *buf, size_t cap,
    size_t *n);
void cd__input_close(struct cd__input *in);

/*
 * The four public openers of a reader, PREFIX_open(path),
 * PREFIX_open_fd(fd), PREFIX_open_stream(s) and PREFIX_new(FILE *), for
 * a reader type T made by make(struct cd__input *) (which takes the
 * input, closing it when out of memory, and returns NULL then).
 */
#define CD__INPUT_OPENERS(prefix, T, make)				\
	T *prefix##_open(const char *path)				\
	{ struct cd__input in;						\
	  return cd__input_open(&in, path) == CD_OK ? make(&in) : NULL; } \
	T *prefix##_open_fd(int fd)					\
	{ struct cd__input in;						\
	  return cd__input_open_fd(&in, fd) == CD_OK ? make(&in) : NULL; } \
	T *prefix##_open_stream(cd_stream *s)				\
	{ struct cd__input in;						\
	  return cd__input_open_stream(&in, s) == CD_OK ? make(&in) :	\
	      NULL; }							\
	T *prefix##_new(FILE *f)					\
	{ struct cd__input in;						\
	  return f != NULL && cd__input_new_file(&in, f) == CD_OK ?	\
	      make(&in) : NULL; }

#endif
